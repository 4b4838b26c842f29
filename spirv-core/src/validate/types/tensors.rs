//! spirv-val's tensor type rules (`validate_type.cpp`): `OpTypeTensorLayoutNV`,
//! `OpTypeTensorViewNV` and `OpTypeTensorARM`.

use super::super::Query;
use super::super::{Fault, Inst};
use super::TypeError;
use crate::spirv_tools as opcodes;
use crate::spv::{self, Opcode as O};
use crate::types::Id;

/// Whether `id` is a value of 32-bit integer type.
fn int32_value(q: &Query<'_>, id: u32) -> bool {
    let t = q.type_of(id);
    q.is_int_scalar_type(t) && q.bit_width(t) == 32
}

/// `ValidateTensorDim`.
fn tensor_dim(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let op = inst.opcode;
    let dim = inst.words.get(2).copied().unwrap_or(0);
    if !int32_value(q, dim) {
        return Err(TypeError::TensorDimNot32 {
            opcode: op,
            dim: Id(dim),
        }
        .into());
    }
    if q.constant_u64(dim).is_some_and(|v| v == 0 || v > 5) {
        return Err(TypeError::TensorDimRange {
            opcode: op,
            dim: Id(dim),
        }
        .into());
    }
    Ok(())
}

/// `ValidateTypeTensorLayoutNV`.
pub(crate) fn tensor_layout(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    tensor_dim(q, inst)?;
    let op = inst.opcode;
    let clamp = inst.words.get(3).copied().unwrap_or(0);
    if !int32_value(q, clamp) {
        return Err(TypeError::TensorClampNot32 {
            opcode: op,
            clamp_mode: Id(clamp),
        }
        .into());
    }
    if q.constant_u64(clamp)
        .is_some_and(|v| v > u64::from(spv::TensorClampMode::RepeatMirrored.0))
    {
        return Err(TypeError::TensorClampInvalid {
            opcode: op,
            clamp_mode: Id(clamp),
        }
        .into());
    }
    Ok(())
}

/// `ValidateTypeTensorViewNV`.
pub(crate) fn tensor_view(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    tensor_dim(q, inst)?;
    let op = inst.opcode;
    let has_dim = inst.words.get(3).copied().unwrap_or(0);
    if !q.is_bool_scalar_type(q.type_of(has_dim)) {
        return Err(TypeError::TensorHasDimNotBool {
            opcode: op,
            has_dimensions: Id(has_dim),
        }
        .into());
    }
    let perms = inst.words.get(4..).unwrap_or(&[]);
    let n = perms.len() as u64;
    let mut mask = 0u64;
    let mut all_constant = true;
    for &p in perms {
        if !int32_value(q, p) {
            return Err(TypeError::TensorPermutationNot32 {
                opcode: op,
                permutation: Id(p),
            }
            .into());
        }
        match q.constant_u64(p) {
            Some(v) if v >= n => {
                return Err(TypeError::TensorPermutationDim {
                    opcode: op,
                    permutation: Id(p),
                }
                .into());
            }
            Some(v) => mask |= 1u64.checked_shl(v as u32).unwrap_or(0),
            None => all_constant = false,
        }
    }
    // spirv-val shifts an int: past 31 dimensions its answer is the machine's.
    if n > 31 {
        return Ok(());
    }
    if all_constant && mask != (1u64 << n) - 1 {
        return Err(TypeError::TensorPermutationInvalid { opcode: op }.into());
    }
    let dim = inst.words.get(2).copied().unwrap_or(0);
    if q.constant_u64(dim).is_some_and(|v| v != n) {
        return Err(TypeError::TensorPermutationCount { opcode: op }.into());
    }
    Ok(())
}

/// `ValidateTypeTensorARM`.
pub(crate) fn tensor_arm(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let w = |i: usize| inst.words.get(i).copied().unwrap_or(0);
    let element = w(2);
    if !q.is_scalar_type(element) {
        return Err(TypeError::TensorElement {
            element: Id(element),
        }
        .into());
    }
    if inst.words.len() < 4 {
        return Ok(());
    }
    let rank = w(3);
    if !opcodes::is_constant(q.opcode(rank)) {
        return Err(TypeError::TensorRankNotConstant { rank: Id(rank) }.into());
    }
    if !q.is_int_scalar_type(q.type_of(rank)) {
        return Err(TypeError::TensorRankNotInt { rank: Id(rank) }.into());
    }
    let rank_value = q.constant_u64(rank).unwrap_or(0);
    if q.constant_u64(rank) == Some(0) {
        return Err(TypeError::TensorRankZero { rank: Id(rank) }.into());
    }
    if inst.words.len() < 5 {
        return Ok(());
    }
    let shape = w(4);
    if !opcodes::is_constant(q.opcode(shape)) {
        return Err(TypeError::TensorShapeNotConstant { shape: Id(shape) }.into());
    }
    if !int_array_type(q, q.type_of(shape), rank_value) {
        return Err(TypeError::TensorShapeNotArray { shape: Id(shape) }.into());
    }
    let constituents = q
        .def(shape)
        .map_or(&[][..], |d| d.words().get(3..).unwrap_or(&[]));
    for (i, &s) in constituents.iter().enumerate() {
        if q.constant_u64(s) == Some(0) {
            return Err(TypeError::TensorShapeZero { constituent: i }.into());
        }
    }
    Ok(())
}

/// `IsIntArrayType(id, length)`.
fn int_array_type(q: &Query<'_>, id: u32, length: u64) -> bool {
    if q.opcode(id) != O::TypeArray {
        return false;
    }
    if length != 0 {
        let len = q.word(id, 3).unwrap_or(0);
        if !opcodes::is_constant(q.opcode(len)) || q.constant_u64(len).is_some_and(|v| v != length)
        {
            return false;
        }
    }
    q.is_int_scalar_type(q.component_type(id))
}
