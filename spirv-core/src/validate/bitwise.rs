//! spirv-val's bitwise pass (`BitwisePass` in `validate_bitwise.cpp`): the result and
//! operand types of shifts, `OpBitwise*`, `OpNot`, the bit-field instructions,
//! `OpBitReverse` and `OpBitCount`.

use super::Query;
use super::operations::{OperandRule as P, OperationError, TypeRule as R, fault, operand, rule};
use super::{Fault, Inst};
use crate::spv::Opcode as O;

/// What the pass remembers across instructions.
#[derive(Debug, Default)]
pub(super) struct Bitwise;

/// Whether `t` is an integer scalar, vector or cooperative vector.
fn int_like(q: &Query<'_>, t: u32) -> bool {
    q.is_int_scalar_type(t)
        || q.is_int_vector_type(t)
        || q.is_cooperative_vector_of(t, Query::is_int_scalar_type)
}

/// The pass for one instruction.
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>, st: &mut Bitwise) -> Result<(), Fault> {
    let _ = st;
    let op = inst.opcode;
    let result = inst.result_type();
    match op {
        O::ShiftRightLogical | O::ShiftRightArithmetic | O::ShiftLeftLogical => {
            if !int_like(q, result) {
                return Err(rule(R::IntResult, op));
            }
            let dimension = q.dimension(result);
            let base = q.operand_type(inst, 2);
            let shift = q.operand_type(inst, 3);
            if base == 0 || !int_like(q, base) {
                return Err(rule(R::BaseInt, op));
            }
            if q.dimension(base) != dimension {
                return Err(rule(R::BaseDimension, op));
            }
            if q.bit_width(base) != q.bit_width(result) {
                return Err(rule(R::BaseBitWidth, op));
            }
            if shift == 0 || !int_like(q, shift) {
                return Err(rule(R::ShiftInt, op));
            }
            if q.dimension(shift) != dimension {
                return Err(rule(R::ShiftDimension, op));
            }
        }
        O::BitwiseOr | O::BitwiseXor | O::BitwiseAnd | O::Not => {
            if !int_like(q, result) {
                return Err(rule(R::IntResult, op));
            }
            let dimension = q.dimension(result);
            let width = q.bit_width(result);
            for i in 2..inst.operands.len() {
                let t = q.operand_type(inst, i);
                if t == 0 || !int_like(q, t) {
                    return Err(operand(P::BitwiseInt, op, i));
                }
                if q.dimension(t) != dimension {
                    return Err(operand(P::BitwiseDimension, op, i));
                }
                if q.bit_width(t) != width {
                    return Err(operand(P::BitwiseBitWidth, op, i));
                }
            }
        }
        O::BitFieldInsert => {
            base_type(q, inst, q.operand_type(inst, 2))?;
            if q.operand_type(inst, 3) != result {
                return Err(rule(R::InsertIsResult, op));
            }
            offset_and_count(q, inst, 4)?;
        }
        O::BitFieldSExtract | O::BitFieldUExtract => {
            base_type(q, inst, q.operand_type(inst, 2))?;
            offset_and_count(q, inst, 3)?;
        }
        O::BitReverse => base_type(q, inst, q.operand_type(inst, 2))?,
        O::BitCount => {
            if !q.is_int_scalar_type(result) && !q.is_int_vector_type(result) {
                return Err(rule(R::IntResult, op));
            }
            let base = q.operand_type(inst, 2);
            base_type(q, inst, base)?;
            if q.dimension(base) != q.dimension(result) {
                return Err(rule(R::BaseDimensionIsResult, op));
            }
        }
        _ => {}
    }
    Ok(())
}

/// `ValidateBaseType`: the Base of a bit-field instruction, `OpBitReverse` or
/// `OpBitCount`.
fn base_type(q: &Query<'_>, inst: &Inst<'_>, base: u32) -> Result<(), Fault> {
    let op = inst.opcode;
    if !q.is_int_scalar_type(base) && !q.is_int_vector_type(base) {
        return Err(rule(R::BaseOperandInt, op));
    }
    let options = q.state.options;
    if options.target_env.is_vulkan()
        && q.bit_width(base) != 32
        && !options.allow_vulkan_32_bit_bitwise
    {
        return Err(fault(OperationError::Base32 { opcode: op }));
    }
    if base != inst.result_type() && op != O::BitCount {
        return Err(rule(R::BaseIsResult, op));
    }
    Ok(())
}

/// The Offset and Count operands, from operand `at`.
fn offset_and_count(q: &Query<'_>, inst: &Inst<'_>, at: usize) -> Result<(), Fault> {
    let offset = q.operand_type(inst, at);
    if offset == 0 || !q.is_int_scalar_type(offset) {
        return Err(rule(R::OffsetIntScalar, inst.opcode));
    }
    let count = q.operand_type(inst, at + 1);
    if count == 0 || !q.is_int_scalar_type(count) {
        return Err(rule(R::CountIntScalar, inst.opcode));
    }
    Ok(())
}
