//! What the operation passes (arithmetics, composites, conversion, bitwise, logicals)
//! share: an instruction's operands and their types as spirv-val reads them
//! (`GetOperandAs`, `GetOperandTypeId`), the module's addressing model, and which
//! types hold scalars of a given width (`ContainsSizedIntOrFloatType`), each type
//! answered once.

use super::Query;
use super::operations::{CompositeRule as C, fixed};
use super::{Fault, Inst};
use crate::__private::Vec;
use crate::spv::{self, Opcode as O};
use alloc::collections::{BTreeMap, BTreeSet};

/// Operand `i`'s first word (`GetOperandAs<uint32_t>(i)`), 0 when there is none.
pub(super) fn word(inst: &Inst<'_>, i: usize) -> u32 {
    inst.operands
        .get(i)
        .and_then(|o| inst.words.get(o.offset))
        .copied()
        .unwrap_or(0)
}

/// The result type (`inst->type_id()`) of an instruction that has one.
pub(super) fn result_type(inst: &Inst<'_>) -> u32 {
    if inst.info.has_result_type() {
        word(inst, 0)
    } else {
        0
    }
}

/// The type of operand `i`'s id (`GetOperandTypeId`), 0 when it has none.
pub(super) fn type_of(q: &Query<'_>, inst: &Inst<'_>, i: usize) -> u32 {
    q.type_of(word(inst, i))
}

pub(super) use crate::spirv_tools::is_spec_constant;

/// The module's addressing model (`addressing_model()`), found once.
#[derive(Debug, Default)]
pub(super) struct Addressing(Option<Option<u32>>);

impl Addressing {
    /// The addressing model of the module's `OpMemoryModel`, if it has one.
    pub(super) fn get(&mut self, q: &Query<'_>) -> Option<spv::AddressingModel> {
        let found = *self.0.get_or_insert_with(|| {
            (0..q.module.len())
                .filter_map(|i| q.module.instruction(i))
                .find(|i| i.opcode() == O::MemoryModel)
                .and_then(|i| i.words().get(1).copied())
        });
        found.map(spv::AddressingModel)
    }
}

/// A scalar kind [`Sized`] tracks.
#[derive(Debug, Clone, Copy)]
pub(super) enum Scalar {
    Int8 = 1,
    Int16 = 2,
    Float16 = 4,
    Int32 = 8,
    Float32 = 16,
}

/// Which scalars each type holds, as `ContainsType` finds them, each type walked once
/// per mode: following pointers and function types (`ContainsSizedIntOrFloatType`'s
/// default), or not (`IsIntNOrFP32OrFP16`'s).
#[derive(Debug, Default)]
pub(super) struct Sized {
    deep: BTreeMap<u32, u8>,
    shallow: BTreeMap<u32, u8>,
}

impl Sized {
    /// `ContainsSizedIntOrFloatType`: whether type `id` holds (or is) a scalar of kind
    /// `s`, through pointers and function types too.
    pub(super) fn contains(&mut self, q: &Query<'_>, id: u32, s: Scalar) -> bool {
        self.mask(q, id, true) & s as u8 != 0
    }

    /// `IsIntNOrFP32OrFP16<N>`: whether type `id` holds an `N`-bit integer or a 16- or
    /// 32-bit float, not through pointers or function types.
    pub(super) fn int_n_or_float(&mut self, q: &Query<'_>, id: u32, n: Scalar) -> bool {
        let wanted = n as u8 | Scalar::Float16 as u8 | Scalar::Float32 as u8;
        self.mask(q, id, false) & wanted != 0
    }

    /// `HasCapability(Shader) && ContainsLimitedUseIntOrFloatType(id)`: a type that
    /// holds 8- or 16-bit scalars whose capability is not declared, in a shader.
    pub(super) fn limited_in_shader(&mut self, q: &Query<'_>, id: u32) -> bool {
        use spv::Capability as C;
        let has = |c: C| q.state.has_capability(c.0);
        if !has(C::Shader) {
            return false;
        }
        let m = self.mask(q, id, true);
        (!has(C::Int16) && m & Scalar::Int16 as u8 != 0)
            || (!has(C::Int8) && m & Scalar::Int8 as u8 != 0)
            || (!has(C::Float16) && m & Scalar::Float16 as u8 != 0)
    }

    /// The scalars type `id` holds, by a walk that visits each type once.
    fn mask(&mut self, q: &Query<'_>, id: u32, deep: bool) -> u8 {
        let known = if deep {
            &mut self.deep
        } else {
            &mut self.shallow
        };
        if let Some(&m) = known.get(&id) {
            return m;
        }
        let mut open = BTreeSet::new();
        let mut stack = Vec::from([(id, false)]);
        while let Some((t, done)) = stack.pop() {
            if known.contains_key(&t) {
                continue;
            }
            let Some(def) = q.def(t) else {
                known.insert(t, 0);
                continue;
            };
            let w = def.words();
            let children: &[u32] = match def.opcode() {
                O::TypeArray
                | O::TypeRuntimeArray
                | O::TypeVector
                | O::TypeMatrix
                | O::TypeImage
                | O::TypeSampledImage
                | O::TypeCooperativeMatrixNV
                | O::TypeCooperativeMatrixKHR
                | O::TypeCooperativeVectorNV => w.get(2..3).unwrap_or(&[]),
                O::TypePointer if deep && !q.state.forward_pointers.contains(&t) => {
                    w.get(3..4).unwrap_or(&[])
                }
                O::TypeFunction if deep => w.get(2..).unwrap_or(&[]),
                O::TypeStruct => w.get(2..).unwrap_or(&[]),
                _ => &[],
            };
            if done {
                let own = match (def.opcode(), w.get(2).copied(), w.len()) {
                    (O::TypeInt, Some(8), _) => Scalar::Int8 as u8,
                    (O::TypeInt, Some(16), _) => Scalar::Int16 as u8,
                    (O::TypeInt, Some(32), _) => Scalar::Int32 as u8,
                    // A float with an encoding (BFloat16, FP8) is none of these.
                    (O::TypeFloat, Some(16), 3) => Scalar::Float16 as u8,
                    (O::TypeFloat, Some(32), 3) => Scalar::Float32 as u8,
                    _ => 0,
                };
                let m = children
                    .iter()
                    .fold(own, |m, c| m | known.get(c).copied().unwrap_or(0));
                known.insert(t, m);
                open.remove(&t);
            } else if open.insert(t) {
                stack.push((t, true));
                for &c in children {
                    if !known.contains_key(&c) && !open.contains(&c) {
                        stack.push((c, false));
                    }
                }
            }
        }
        known.get(&id).copied().unwrap_or(0)
    }
}

pub(super) use super::constants::int32_if_const;

/// `CooperativeMatrixShapesMatch`: two cooperative matrix types of one kind whose
/// scopes, rows, columns (rows and columns swapped for a transpose) and, for the KHR
/// kind, uses match where they are known constants. A conversion may turn an
/// accumulator into another use with `CooperativeMatrixConversionsNV`.
pub(super) fn cooperative_shapes(
    q: &Query<'_>,
    result: u32,
    other: u32,
    conversion: bool,
    swap: bool,
) -> Result<(), Fault> {
    let op = q.opcode(result);
    if op != q.opcode(other) {
        return Err(fixed(C::CooperativeMatrixTypes));
    }
    let operand = |t: u32, i: usize| q.word(t, i + 1).unwrap_or(0);
    let differ = |a: u32, b: u32| {
        let (_, a_known, a) = int32_if_const(q, a);
        let (_, b_known, b) = int32_if_const(q, b);
        a_known && b_known && a != b
    };
    let (rows, columns) = if swap { (4, 3) } else { (3, 4) };
    if differ(operand(result, 2), operand(other, 2)) {
        return Err(fixed(C::MatrixScopes));
    }
    if differ(operand(result, rows), operand(other, 3)) {
        return Err(fixed(if swap {
            C::MatrixRowsSwapped
        } else {
            C::MatrixRows
        }));
    }
    if differ(operand(result, columns), operand(other, 4)) {
        return Err(fixed(if swap {
            C::MatrixColumnsSwapped
        } else {
            C::MatrixColumns
        }));
    }
    if op == O::TypeCooperativeMatrixKHR {
        let (_, a_known, a) = int32_if_const(q, operand(result, 5));
        let (_, b_known, b) = int32_if_const(q, operand(other, 5));
        let accumulator = spv::CooperativeMatrixUse::MatrixAccumulatorKHR.0;
        let excused = conversion
            && q.state
                .has_capability(spv::Capability::CooperativeMatrixConversionsNV.0)
            && b == accumulator;
        if a_known && b_known && a != b && !excused {
            return Err(fixed(C::MatrixUse));
        }
    }
    Ok(())
}

/// `CooperativeVectorDimensionsMatch`: two cooperative vector types whose sizes match
/// where they are known constants.
pub(super) fn cooperative_sizes(q: &Query<'_>, a: u32, b: u32) -> Result<(), Fault> {
    if q.opcode(a) != q.opcode(b) {
        return Err(fixed(C::CooperativeVectorTypes));
    }
    let (_, a_known, a) = int32_if_const(q, q.word(a, 3).unwrap_or(0));
    let (_, b_known, b) = int32_if_const(q, q.word(b, 3).unwrap_or(0));
    if a_known && b_known && a != b {
        return Err(fixed(C::VectorComponents));
    }
    Ok(())
}

/// `IsCooperativeMatrixAType` and its kin: a KHR cooperative matrix whose use is a
/// known constant equal to `usage`.
pub(super) fn is_use(q: &Query<'_>, t: u32, usage: spv::CooperativeMatrixUse) -> bool {
    q.is_cooperative_matrix_khr_type(t)
        && q.word(t, 6)
            .and_then(|u| q.constant_u64(u))
            .is_some_and(|u| u == u64::from(usage.0))
}
