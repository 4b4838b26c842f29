//! The questions `ValidationState_t` answers about types (`GetComponentType`,
//! `GetDimension`, `GetBitWidth`, `IsIntScalarType`, …), with its answers, asked of a
//! [`Query`].
//!
//! spirv-val asserts where a question has no answer (a component type of a type with
//! none); here such questions answer 0 or false, since a module that reaches these
//! rules has passed the id rules but may still be malformed in other ways.

// Each rule family asks a part of these questions.
#![allow(dead_code)]

use super::Query;
use crate::__private::Vec;
use crate::module::InstRef;
use crate::spv::{self, Opcode as O};
use alloc::collections::{BTreeMap, BTreeSet};

/// How deep [`Query::component_type`] and the like follow a chain (value, type,
/// matrix, vector): SPIR-V's own types need three steps; a cycle stops here.
const MAX_STEPS: usize = 8;

impl<'a> Query<'a> {
    /// `GetComponentType`: the scalar (or pointer) of a type, or of a value's type.
    pub(crate) fn component_type(&self, id: u32) -> u32 {
        let mut id = id;
        for _ in 0..MAX_STEPS {
            match self.opcode(id) {
                O::TypeFloat
                | O::TypeInt
                | O::TypeBool
                | O::TypePointer
                | O::TypeUntypedPointerKHR => {
                    return id;
                }
                O::TypeArray
                | O::TypeRuntimeArray
                | O::TypeVector
                | O::TypeCooperativeMatrixNV
                | O::TypeCooperativeMatrixKHR
                | O::TypeCooperativeVectorNV
                | O::TypeTensorARM => return self.word(id, 2).unwrap_or(0),
                O::TypeMatrix => id = self.word(id, 2).unwrap_or(0),
                _ => match self.type_of(id) {
                    0 => return 0,
                    t => id = t,
                },
            }
        }
        0
    }

    /// `GetDimension`: 1 for scalars, the component or column count of vectors and
    /// matrices, 0 for cooperative types and when unknown.
    pub(crate) fn dimension(&self, id: u32) -> u32 {
        let mut id = id;
        for _ in 0..MAX_STEPS {
            match self.opcode(id) {
                O::TypeFloat | O::TypeInt | O::TypeBool => return 1,
                O::TypeVector | O::TypeMatrix => return self.word(id, 3).unwrap_or(0),
                O::TypeCooperativeMatrixNV
                | O::TypeCooperativeMatrixKHR
                | O::TypeCooperativeVectorNV => {
                    return 0;
                }
                _ => match self.type_of(id) {
                    0 => return 0,
                    t => id = t,
                },
            }
        }
        0
    }

    /// `GetBitWidth`: the width of the component type (1 for bool, 64 for a
    /// PhysicalStorageBuffer pointer), 0 when unknown.
    pub(crate) fn bit_width(&self, id: u32) -> u32 {
        let c = self.component_type(id);
        match self.opcode(c) {
            O::TypeFloat | O::TypeInt => self.word(c, 2).unwrap_or(0),
            O::TypeBool => 1,
            O::TypePointer | O::TypeUntypedPointerKHR => 64,
            _ => 0,
        }
    }

    pub(crate) fn is_void_type(&self, id: u32) -> bool {
        self.opcode(id) == O::TypeVoid
    }

    pub(crate) fn is_float_scalar_type(&self, id: u32) -> bool {
        self.opcode(id) == O::TypeFloat
    }

    pub(crate) fn is_int_scalar_type(&self, id: u32) -> bool {
        self.opcode(id) == O::TypeInt
    }

    /// `IsIntScalarType(id, width)`.
    pub(crate) fn is_int_scalar_type_of_width(&self, id: u32, width: u32) -> bool {
        self.is_int_scalar_type(id) && self.word(id, 2) == Some(width)
    }

    pub(crate) fn is_bool_scalar_type(&self, id: u32) -> bool {
        self.opcode(id) == O::TypeBool
    }

    pub(crate) fn is_scalar_type(&self, id: u32) -> bool {
        self.is_int_scalar_type(id) || self.is_float_scalar_type(id) || self.is_bool_scalar_type(id)
    }

    /// Whether `id` is a vector whose component `is` accepts.
    fn is_vector_of(&self, id: u32, is: impl Fn(&Self, u32) -> bool) -> bool {
        self.opcode(id) == O::TypeVector && is(self, self.component_type(id))
    }

    pub(crate) fn is_float_vector_type(&self, id: u32) -> bool {
        self.is_vector_of(id, Self::is_float_scalar_type)
    }

    pub(crate) fn is_float_scalar_or_vector_type(&self, id: u32) -> bool {
        self.is_float_scalar_type(id) || self.is_float_vector_type(id)
    }

    pub(crate) fn is_int_vector_type(&self, id: u32) -> bool {
        self.is_vector_of(id, Self::is_int_scalar_type)
    }

    pub(crate) fn is_int_scalar_or_vector_type(&self, id: u32) -> bool {
        self.is_int_scalar_type(id) || self.is_int_vector_type(id)
    }

    /// `IsIntScalarTypeWithSignedness`.
    pub(crate) fn is_int_with_signedness(&self, id: u32, signedness: u32) -> bool {
        self.is_int_scalar_type(id) && self.word(id, 3) == Some(signedness)
    }

    pub(crate) fn is_unsigned_int_scalar_type(&self, id: u32) -> bool {
        self.is_int_with_signedness(id, 0)
    }

    pub(crate) fn is_unsigned_int_vector_type(&self, id: u32) -> bool {
        self.is_vector_of(id, Self::is_unsigned_int_scalar_type)
    }

    pub(crate) fn is_unsigned_int_scalar_or_vector_type(&self, id: u32) -> bool {
        self.is_unsigned_int_scalar_type(id) || self.is_unsigned_int_vector_type(id)
    }

    pub(crate) fn is_signed_int_scalar_type(&self, id: u32) -> bool {
        self.is_int_with_signedness(id, 1)
    }

    pub(crate) fn is_signed_int_vector_type(&self, id: u32) -> bool {
        self.is_vector_of(id, Self::is_signed_int_scalar_type)
    }

    pub(crate) fn is_bool_vector_type(&self, id: u32) -> bool {
        self.is_vector_of(id, Self::is_bool_scalar_type)
    }

    pub(crate) fn is_bool_scalar_or_vector_type(&self, id: u32) -> bool {
        self.is_bool_scalar_type(id) || self.is_bool_vector_type(id)
    }

    /// `IsFloatMatrixType`.
    pub(crate) fn is_float_matrix_type(&self, id: u32) -> bool {
        self.opcode(id) == O::TypeMatrix && self.is_float_scalar_type(self.component_type(id))
    }

    /// `IsPointerType`: `OpTypePointer` or `OpTypeUntypedPointerKHR`.
    pub(crate) fn is_pointer_type(&self, id: u32) -> bool {
        matches!(self.opcode(id), O::TypePointer | O::TypeUntypedPointerKHR)
    }

    /// `GetPointerTypeInfo`: the pointee (0 for an untyped pointer) and the storage
    /// class of a pointer type.
    pub(crate) fn pointer_info(&self, id: u32) -> Option<(u32, spv::StorageClass)> {
        match self.opcode(id) {
            O::TypePointer => Some((
                self.word(id, 3).unwrap_or(0),
                spv::StorageClass(self.word(id, 2).unwrap_or(u32::MAX)),
            )),
            O::TypeUntypedPointerKHR => {
                Some((0, spv::StorageClass(self.word(id, 2).unwrap_or(u32::MAX))))
            }
            _ => None,
        }
    }

    /// `GetMatrixTypeInfo`: rows, columns, column type and component type of a matrix.
    pub(crate) fn matrix_info(&self, id: u32) -> Option<(u32, u32, u32, u32)> {
        if self.opcode(id) != O::TypeMatrix {
            return None;
        }
        let column = self.word(id, 2)?;
        let columns = self.word(id, 3)?;
        if self.opcode(column) != O::TypeVector {
            return None;
        }
        let rows = self.word(column, 3)?;
        let component = self.word(column, 2)?;
        Some((rows, columns, column, component))
    }

    /// `GetStructMemberTypes`: the member types of a struct type.
    pub(crate) fn struct_members(&self, id: u32) -> &'a [u32] {
        match self.def(id) {
            Some(d) if d.opcode() == O::TypeStruct => d.words().get(2..).unwrap_or(&[]),
            _ => &[],
        }
    }

    /// `EvalConstantValUint64`: the value of an integer `OpConstant` or
    /// `OpConstantNull`; `None` for spec constants and everything else.
    pub(crate) fn constant_u64(&self, id: u32) -> Option<u64> {
        let d = self.def(id)?;
        if !self.is_int_scalar_type(self.type_of(id)) {
            return None;
        }
        match d.opcode() {
            O::ConstantNull => Some(0),
            O::Constant => {
                let w = d.words();
                let lo = u64::from(*w.get(3)?);
                Some(lo | w.get(4).map_or(0, |&h| u64::from(h) << 32))
            }
            _ => None,
        }
    }

    /// `EvalConstantValInt64`: as [`Query::constant_u64`], one word sign-extended.
    pub(crate) fn constant_i64(&self, id: u32) -> Option<i64> {
        let d = self.def(id)?;
        let v = self.constant_u64(id)?;
        Some(if d.words().len() == 4 {
            i64::from(v as u32 as i32)
        } else {
            v as i64
        })
    }
}

// --- The operation passes' questions (arithmetics, composites, conversion, bitwise,
// logicals): cooperative types and encodings, as `ValidationState_t` answers them. ---
impl Query<'_> {
    /// `IsCooperativeMatrixType`: either kind of cooperative matrix.
    pub(crate) fn is_cooperative_matrix_type(&self, id: u32) -> bool {
        matches!(
            self.opcode(id),
            O::TypeCooperativeMatrixNV | O::TypeCooperativeMatrixKHR
        )
    }

    /// `IsCooperativeMatrixKHRType`.
    pub(crate) fn is_cooperative_matrix_khr_type(&self, id: u32) -> bool {
        self.opcode(id) == O::TypeCooperativeMatrixKHR
    }

    /// `IsCooperativeVectorNVType`.
    pub(crate) fn is_cooperative_vector_type(&self, id: u32) -> bool {
        self.opcode(id) == O::TypeCooperativeVectorNV
    }

    /// Whether `id` is a cooperative matrix whose component `is` accepts
    /// (`IsFloatCooperativeMatrixType` and its kin).
    pub(crate) fn is_cooperative_matrix_of(
        &self,
        id: u32,
        is: impl Fn(&Self, u32) -> bool,
    ) -> bool {
        self.is_cooperative_matrix_type(id) && is(self, self.word(id, 2).unwrap_or(0))
    }

    /// Whether `id` is a cooperative vector whose component `is` accepts
    /// (`IsFloatCooperativeVectorNVType` and its kin).
    pub(crate) fn is_cooperative_vector_of(
        &self,
        id: u32,
        is: impl Fn(&Self, u32) -> bool,
    ) -> bool {
        self.is_cooperative_vector_type(id) && is(self, self.word(id, 2).unwrap_or(0))
    }

    /// `IsBfloat16ScalarType`: an `OpTypeFloat` with the `BFloat16KHR` encoding.
    pub(crate) fn is_bfloat16_scalar_type(&self, id: u32) -> bool {
        self.opcode(id) == O::TypeFloat && self.word(id, 3) == Some(spv::FPEncoding::BFloat16KHR.0)
    }
}

// --- Walks over the types a type is built from (`ContainsType` and its users). ---

/// The types a type is built from, as `ContainsType` descends: element, component,
/// sampled or image type; a pointer's pointee (when `all`, and not through a forward
/// pointer); a struct's members; a function type's return and parameter types (when
/// `all`).
pub(crate) fn constituents<'a>(q: &Query<'a>, t: &InstRef<'a>, all: bool) -> &'a [u32] {
    let w = t.words();
    let id = w.get(1).copied().unwrap_or(0);
    match t.opcode() {
        O::TypeArray
        | O::TypeRuntimeArray
        | O::TypeVector
        | O::TypeMatrix
        | O::TypeImage
        | O::TypeSampledImage
        | O::TypeCooperativeMatrixNV
        | O::TypeCooperativeMatrixKHR
        | O::TypeCooperativeVectorNV => w.get(2..3).unwrap_or(&[]),
        O::TypePointer if all && !q.state.forward_pointers.contains(&id) => {
            w.get(3..4).unwrap_or(&[])
        }
        O::TypeStruct => w.get(2..).unwrap_or(&[]),
        O::TypeFunction if all => w.get(2..).unwrap_or(&[]),
        _ => &[],
    }
}

/// `ContainsType(id, f, all)`: whether `id` or a type it is built from satisfies `f`.
/// Each type is looked at once, whatever the sharing of the module's types.
pub(crate) fn contains_type<'a>(
    q: &Query<'a>,
    id: u32,
    all: bool,
    f: &dyn Fn(&InstRef<'a>) -> bool,
) -> bool {
    // Most types are built from a few others: the first few ids seen are kept in an
    // array, searched in turn; only a larger type makes a set.
    let mut few = [0u32; 8];
    let mut n = 0;
    let mut seen = BTreeSet::new();
    let mut stack = Vec::from([id]);
    while let Some(id) = stack.pop() {
        let new = if n < few.len() {
            let known = few[..n].contains(&id);
            if !known {
                few[n] = id;
                n += 1;
            }
            !known
        } else {
            if seen.is_empty() {
                seen.extend(few);
            }
            seen.insert(id)
        };
        if !new {
            continue;
        }
        let Some(t) = q.def(id) else { continue };
        if f(&t) {
            return true;
        }
        stack.extend(constituents(q, &t, all).iter().rev());
    }
    false
}

/// `ContainsRuntimeArray`.
pub(crate) fn contains_runtime_array(q: &Query<'_>, id: u32) -> bool {
    contains_type(q, id, false, &|t| t.opcode() == O::TypeRuntimeArray)
}

/// One step of a remembered walk over the types a type is made of.
pub(crate) enum Step<'a> {
    /// This type answers yes.
    Hit,
    /// This type answers no, and is not looked into.
    Miss,
    /// This type answers yes if one of these does.
    Into(&'a [u32]),
}

/// Whether `root` or a type it is made of (as `step` says) is a hit; each type is
/// looked at once, and its answer kept in `memo` for later walks with the same
/// `step`. Iterative; a type within itself (only a malformed module has one) adds
/// nothing to its own answer.
pub(crate) fn reaches<'a>(
    q: &Query<'a>,
    root: u32,
    memo: &mut BTreeMap<u32, bool>,
    step: &dyn Fn(u32, Option<InstRef<'a>>) -> Step<'a>,
) -> bool {
    let mut stack = Vec::from([(root, false)]);
    let mut open = BTreeSet::new();
    while let Some((id, done)) = stack.pop() {
        if memo.contains_key(&id) {
            continue;
        }
        let into = match step(id, q.def(id)) {
            Step::Hit => {
                memo.insert(id, true);
                continue;
            }
            Step::Miss => {
                memo.insert(id, false);
                continue;
            }
            Step::Into(parts) => parts,
        };
        if done {
            open.remove(&id);
            let hit = into.iter().any(|p| memo.get(p) == Some(&true));
            memo.insert(id, hit);
        } else if open.insert(id) {
            stack.push((id, true));
            stack.extend(
                into.iter()
                    .rev()
                    .filter(|p| !memo.contains_key(p))
                    .map(|&p| (p, false)),
            );
        }
    }
    memo.get(&root) == Some(&true)
}

/// `ContainsType`'s step for [`reaches`]: `f` on the type, then its [`constituents`].
pub(crate) fn contains_step<'a>(
    q: &Query<'a>,
    def: Option<InstRef<'a>>,
    all: bool,
    f: &dyn Fn(O, &[u32]) -> bool,
) -> Step<'a> {
    let Some(def) = def else { return Step::Miss };
    if f(def.opcode(), def.words()) {
        return Step::Hit;
    }
    match constituents(q, &def, all) {
        [] => Step::Miss,
        parts => Step::Into(parts),
    }
}

/// `GetLargestScalarType`: the largest scalar's size in bytes, through structs,
/// arrays and vectors.
pub(crate) fn largest_scalar(q: &Query<'_>, id: u32) -> u32 {
    let mut seen = BTreeSet::new();
    let mut stack = Vec::from([id]);
    let mut largest = 0;
    while let Some(id) = stack.pop() {
        if !seen.insert(id) {
            continue;
        }
        let Some(t) = q.def(id) else { continue };
        let w = t.words();
        match t.opcode() {
            O::TypeStruct => stack.extend_from_slice(w.get(2..).unwrap_or(&[])),
            O::TypeArray | O::TypeVector => stack.extend_from_slice(w.get(2..3).unwrap_or(&[])),
            _ => largest = largest.max(q.bit_width(id) / 8),
        }
    }
    largest
}

/// A kind of sized scalar [`Scalars`] tracks: an integer (of either signedness) or an
/// IEEE float (an `OpTypeFloat` without an encoding) of one width.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scalar {
    Int8 = 1,
    Int16 = 2,
    Int32 = 4,
    Int64 = 8,
    Float16 = 16,
    Float32 = 32,
    Float64 = 64,
}

impl Scalar {
    /// The kind of an `OpTypeInt` or `OpTypeFloat`'s words, if one [`Scalars`] tracks.
    fn of(op: O, w: &[u32]) -> u8 {
        let kind = match (op, w.get(2).copied(), w.len()) {
            (O::TypeInt, Some(8), _) => Scalar::Int8,
            (O::TypeInt, Some(16), _) => Scalar::Int16,
            (O::TypeInt, Some(32), _) => Scalar::Int32,
            (O::TypeInt, Some(64), _) => Scalar::Int64,
            // A float with an encoding (BFloat16, FP8) is none of these.
            (O::TypeFloat, Some(16), 3) => Scalar::Float16,
            (O::TypeFloat, Some(32), 3) => Scalar::Float32,
            (O::TypeFloat, Some(64), 3) => Scalar::Float64,
            _ => return 0,
        };
        kind as u8
    }

    /// The kind of an `N`-bit integer or IEEE float.
    pub(crate) fn sized(float: bool, width: u32) -> Option<Scalar> {
        Some(match (float, width) {
            (false, 8) => Scalar::Int8,
            (false, 16) => Scalar::Int16,
            (false, 32) => Scalar::Int32,
            (false, 64) => Scalar::Int64,
            (true, 16) => Scalar::Float16,
            (true, 32) => Scalar::Float32,
            (true, 64) => Scalar::Float64,
            _ => return None,
        })
    }
}

/// Which sized scalars each type holds (`ContainsSizedIntOrFloatType`), each type
/// walked once per mode for the whole validation: following pointers and function
/// types ([`constituents`] with `all`), or not.
#[derive(Debug, Default)]
pub(crate) struct Scalars {
    deep: BTreeMap<u32, u8>,
    shallow: BTreeMap<u32, u8>,
}

impl Scalars {
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
            let children = constituents(q, &def, deep);
            if done {
                let own = Scalar::of(def.opcode(), def.words());
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

impl Query<'_> {
    /// `ContainsSizedIntOrFloatType`: whether type `id` holds (or is) a scalar of
    /// kind `s`, through pointers and function types too.
    pub(crate) fn contains_sized(&self, id: u32, s: Scalar) -> bool {
        self.analyses.scalars.borrow_mut().mask(self, id, true) & s as u8 != 0
    }

    /// `IsIntNOrFP32OrFP16<N>`: whether type `id` holds an `N`-bit integer or a 16- or
    /// 32-bit float, not through pointers or function types.
    pub(crate) fn int_n_or_float(&self, id: u32, n: Scalar) -> bool {
        let wanted = n as u8 | Scalar::Float16 as u8 | Scalar::Float32 as u8;
        self.analyses.scalars.borrow_mut().mask(self, id, false) & wanted != 0
    }

    /// `ContainsLimitedUseIntOrFloatType`: an 8- or 16-bit integer, or a 16-bit IEEE
    /// float, whose full-use capability (`Int8`, `Int16`, `Float16`) is not declared.
    pub(crate) fn contains_limited_use(&self, id: u32) -> bool {
        let limited = self.limited_use_scalars();
        // A module that declares every full-use capability has no type to walk.
        limited != 0 && self.analyses.scalars.borrow_mut().mask(self, id, true) & limited != 0
    }

    /// The [`Scalar`] kinds of limited use: those of `Int8`, `Int16` and `Float16`
    /// whose capability is not declared.
    pub(crate) fn limited_use_scalars(&self) -> u8 {
        use spv::Capability as C;
        [
            (C::Int8, Scalar::Int8),
            (C::Int16, Scalar::Int16),
            (C::Float16, Scalar::Float16),
        ]
        .into_iter()
        .filter(|(c, _)| !self.state.has_capability(c.0))
        .fold(0, |m, (_, s)| m | s as u8)
    }

    /// `EvalInt32IfConst`: whether `id` is a 32-bit integer, whether it is a constant
    /// (not a spec constant) whose value is known, and the value.
    pub(crate) fn int32_if_const(&self, id: u32) -> (bool, bool, u32) {
        let t = self.type_of(id);
        if t == 0 || !self.is_int_scalar_type(t) || self.bit_width(t) != 32 {
            return (false, false, 0);
        }
        let op = self.opcode(id);
        if !crate::spirv_tools::is_constant(op) || crate::spirv_tools::is_spec_constant(op) {
            return (true, false, 0);
        }
        if op == O::ConstantNull {
            return (true, true, 0);
        }
        (true, true, self.word(id, 3).unwrap_or(0))
    }
}
