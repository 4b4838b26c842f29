//! spirv-val's cooperative type rules (`ValidateTypeCooperativeMatrix` and
//! `ValidateTypeCooperativeVectorNV` in `validate_type.cpp`): component types, constant
//! shapes and uses, and the local size a Workgroup-scope matrix needs.

use super::super::Fault;
use super::super::Inst;
use super::super::Query;
use super::{TypeError, Types};
use crate::spirv_tools as opcodes;
use crate::spv::{self, Capability as C, Opcode as O};
use crate::types::Id;
use alloc::collections::BTreeMap;

/// Whether an `OpTypeFloat` has the encoding `e`.
fn float_encoding(q: &Query<'_>, id: u32, e: &[spv::FPEncoding]) -> bool {
    q.opcode(id) == O::TypeFloat && q.word(id, 3).is_some_and(|w| e.iter().any(|e| e.0 == w))
}

/// Whether `id` is a constant (any of spirv-val's constant opcodes) of integer type.
fn int_constant(q: &Query<'_>, id: u32) -> bool {
    q.is_int_scalar_type(q.type_of(id)) && opcodes::is_constant(q.opcode(id))
}

/// `ValidateTypeCooperativeMatrix`.
pub(crate) fn cooperative_matrix(
    q: &Query<'_>,
    inst: &Inst<'_>,
    st: &mut Types,
) -> Result<(), Fault> {
    let w = |i: usize| inst.words.get(i).copied().unwrap_or(0);
    let component = w(2);
    if !matches!(q.opcode(component), O::TypeFloat | O::TypeInt) {
        return Err(TypeError::CoopMatrixComponent {
            component: Id(component),
        }
        .into());
    }
    let has = |c: C| q.state.has_capability(c.0);
    if float_encoding(q, component, &[spv::FPEncoding::BFloat16KHR])
        && !has(C::BFloat16CooperativeMatrixKHR)
    {
        return Err(TypeError::CoopMatrixBFloat16 {
            component: Id(component),
        }
        .into());
    }
    let fp8 = [
        spv::FPEncoding::Float8E4M3EXT,
        spv::FPEncoding::Float8E5M2EXT,
    ];
    if float_encoding(q, component, &fp8) && !has(C::Float8CooperativeMatrixEXT) {
        return Err(TypeError::CoopMatrixFloat8 {
            component: Id(component),
        }
        .into());
    }
    let last = if inst.opcode == O::TypeCooperativeMatrixKHR {
        6
    } else {
        5
    };
    for word in 3..=last {
        let id = Id(w(word));
        if !int_constant(q, w(word)) {
            return Err(match word {
                3 => TypeError::CoopMatrixScope { scope: id },
                4 => TypeError::CoopMatrixRows { rows: id },
                5 => TypeError::CoopMatrixColumns { columns: id },
                _ => TypeError::CoopMatrixUse { usage: id },
            }
            .into());
        }
    }
    if q.constant_u64(w(3)) != Some(u64::from(spv::Scope::Workgroup.0)) {
        return Ok(());
    }
    let sizes = st.local_sizes.get_or_insert_with(|| local_sizes(q));
    for &ep in &q.state.entry_points {
        let Some(&(mode, ids)) = sizes.get(&ep) else {
            return Err(TypeError::CoopMatrixNoLocalSize {
                entry_point: Id(ep),
            }
            .into());
        };
        if mode == spv::ExecutionMode::LocalSizeId.0 {
            for id in ids {
                if q.state
                    .def(id)
                    .is_some_and(|d| d.index as usize > inst.index)
                {
                    return Err(TypeError::CoopMatrixLocalSizeIdLater { operand: Id(id) }.into());
                }
            }
        }
    }
    Ok(())
}

/// Each entry point's last `LocalSize` or `LocalSizeId` mode and its three operands.
fn local_sizes(q: &Query<'_>) -> BTreeMap<u32, (u32, [u32; 3])> {
    let mut out = BTreeMap::new();
    for i in q.module.instructions() {
        if !matches!(i.opcode(), O::ExecutionMode | O::ExecutionModeId) {
            continue;
        }
        let w = i.words();
        let at = |k: usize| w.get(k).copied().unwrap_or(0);
        if at(2) == spv::ExecutionMode::LocalSize.0 || at(2) == spv::ExecutionMode::LocalSizeId.0 {
            out.insert(at(1), (at(2), [at(3), at(4), at(5)]));
        }
    }
    out
}

/// `ValidateTypeCooperativeVectorNV`.
pub(crate) fn cooperative_vector(q: &Query<'_>, component: u32, count: u32) -> Result<(), Fault> {
    if !matches!(q.opcode(component), O::TypeFloat | O::TypeInt) {
        return Err(TypeError::CoopVectorComponent {
            component: Id(component),
        }
        .into());
    }
    if !opcodes::is_constant(q.opcode(count)) {
        return Err(TypeError::CoopVectorCountNotConstant { count: Id(count) }.into());
    }
    let ty = q.word(count, 1).unwrap_or(0);
    if q.opcode(ty) != O::TypeInt {
        return Err(TypeError::CoopVectorCountNotInt { count: Id(count) }.into());
    }
    if let Some(v) = q.constant_i64(count) {
        let signed = q.word(ty, 3).is_some_and(|s| s > 0);
        if v == 0 || (v < 0 && signed) {
            return Err(TypeError::CoopVectorCountValue {
                count: Id(count),
                value: v,
            }
            .into());
        }
    }
    Ok(())
}
