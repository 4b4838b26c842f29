//! spirv-val's bitwise pass (`BitwisePass` in `validate_bitwise.cpp`): the result and
//! operand types of shifts, `OpBitwise*`, `OpNot`, the bit-field instructions,
//! `OpBitReverse` and `OpBitCount`.

use super::Query;
use super::faults::faults;
use super::{Fault, Inst};
use crate::spv::{Opcode, Opcode as O};
use BitwiseError as E;

faults! {
    /// A fault of spirv-val's bitwise pass (`validate_bitwise.cpp`).
    pub enum BitwiseError {
        IntResult { opcode: Opcode } => "Expected int scalar or vector type as Result Type: {opcode}",
        BaseInt { opcode: Opcode } => "Expected Base to be int scalar or vector: {opcode}",
        BaseDimension { opcode: Opcode } => "Expected Base to have the same dimension as Result Type: {opcode}",
        BaseBitWidth { opcode: Opcode } => "Expected Base to have the same bit width as Result Type: {opcode}",
        ShiftInt { opcode: Opcode } => "Expected Shift to be int scalar or vector: {opcode}",
        ShiftDimension { opcode: Opcode } => "Expected Shift to have the same dimension as Result Type: {opcode}",
        BaseOperandInt { opcode: Opcode } => "Expected int scalar or vector type for Base operand: {opcode}",
        BaseIsResult { opcode: Opcode } => "Expected Base Type to be equal to Result Type: {opcode}",
        InsertIsResult { opcode: Opcode } => "Expected Insert Type to be equal to Result Type: {opcode}",
        OffsetIntScalar { opcode: Opcode } => "Expected Offset Type to be int scalar: {opcode}",
        CountIntScalar { opcode: Opcode } => "Expected Count Type to be int scalar: {opcode}",
        BaseDimensionIsResult { opcode: Opcode } => "Expected Base dimension to be equal to Result Type dimension: {opcode}",
        BitwiseInt { opcode: Opcode, index: usize } => "Expected int scalar or vector as operand: {opcode} operand index {index}",
        BitwiseDimension { opcode: Opcode, index: usize } => "Expected operands to have the same dimension as Result Type: {opcode} operand index {index}",
        BitwiseBitWidth { opcode: Opcode, index: usize } => "Expected operands to have the same bit width as Result Type: {opcode} operand index {index}",
        /// A bit instruction's Base of another width than 32 under Vulkan.
        #[vuid = "VUID-RuntimeSpirv-None-10824"]
        Base32 {
            /// The instruction's opcode.
            opcode: Opcode,
        } => "Expected 32-bit int type for Base operand: {opcode}\nThis is allowed if you enable the maintenance9 feature (or use the --allow-vulkan-32-bit-bitwise command line flag)",
    }
}

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
#[inline(always)]
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>, st: &mut Bitwise) -> Result<(), Fault> {
    let _ = st;
    let op = inst.opcode;
    let result = inst.result_type();
    match op {
        O::ShiftRightLogical | O::ShiftRightArithmetic | O::ShiftLeftLogical => {
            if !int_like(q, result) {
                return Err(E::IntResult { opcode: op }.into());
            }
            let dimension = q.dimension(result);
            let base = q.operand_type(inst, 2);
            let shift = q.operand_type(inst, 3);
            if base == 0 || !int_like(q, base) {
                return Err(E::BaseInt { opcode: op }.into());
            }
            if q.dimension(base) != dimension {
                return Err(E::BaseDimension { opcode: op }.into());
            }
            if q.bit_width(base) != q.bit_width(result) {
                return Err(E::BaseBitWidth { opcode: op }.into());
            }
            if shift == 0 || !int_like(q, shift) {
                return Err(E::ShiftInt { opcode: op }.into());
            }
            if q.dimension(shift) != dimension {
                return Err(E::ShiftDimension { opcode: op }.into());
            }
        }
        O::BitwiseOr | O::BitwiseXor | O::BitwiseAnd | O::Not => {
            if !int_like(q, result) {
                return Err(E::IntResult { opcode: op }.into());
            }
            let dimension = q.dimension(result);
            let width = q.bit_width(result);
            for i in 2..inst.operands.len() {
                let t = q.operand_type(inst, i);
                if t == 0 || !int_like(q, t) {
                    return Err(E::BitwiseInt {
                        opcode: op,
                        index: i,
                    }
                    .into());
                }
                if q.dimension(t) != dimension {
                    return Err(E::BitwiseDimension {
                        opcode: op,
                        index: i,
                    }
                    .into());
                }
                if q.bit_width(t) != width {
                    return Err(E::BitwiseBitWidth {
                        opcode: op,
                        index: i,
                    }
                    .into());
                }
            }
        }
        O::BitFieldInsert => {
            base_type(q, inst, q.operand_type(inst, 2))?;
            if q.operand_type(inst, 3) != result {
                return Err(E::InsertIsResult { opcode: op }.into());
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
                return Err(E::IntResult { opcode: op }.into());
            }
            let base = q.operand_type(inst, 2);
            base_type(q, inst, base)?;
            if q.dimension(base) != q.dimension(result) {
                return Err(E::BaseDimensionIsResult { opcode: op }.into());
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
        return Err(E::BaseOperandInt { opcode: op }.into());
    }
    let options = q.state.options;
    if options.target_env.is_vulkan()
        && q.bit_width(base) != 32
        && !options.allow_vulkan_32_bit_bitwise
    {
        return Err(Fault::from(E::Base32 { opcode: op }));
    }
    if base != inst.result_type() && op != O::BitCount {
        return Err(E::BaseIsResult { opcode: op }.into());
    }
    Ok(())
}

/// The Offset and Count operands, from operand `at`.
fn offset_and_count(q: &Query<'_>, inst: &Inst<'_>, at: usize) -> Result<(), Fault> {
    let offset = q.operand_type(inst, at);
    if offset == 0 || !q.is_int_scalar_type(offset) {
        return Err(E::OffsetIntScalar {
            opcode: inst.opcode,
        }
        .into());
    }
    let count = q.operand_type(inst, at + 1);
    if count == 0 || !q.is_int_scalar_type(count) {
        return Err(E::CountIntScalar {
            opcode: inst.opcode,
        }
        .into());
    }
    Ok(())
}

/// What this family checks (see [`coverage`](crate::validate::coverage)).
pub(crate) const COVERAGE: crate::validate::coverage::Family = crate::validate::coverage::Family {
    opcodes: {
        use crate::spv::Opcode as O;
        &[
            O::ShiftRightLogical,
            O::ShiftRightArithmetic,
            O::ShiftLeftLogical,
            O::BitwiseOr,
            O::BitwiseXor,
            O::BitwiseAnd,
            O::Not,
            O::BitFieldInsert,
            O::BitFieldSExtract,
            O::BitFieldUExtract,
            O::BitReverse,
            O::BitCount,
        ]
    },
    ..crate::validate::coverage::Family::new("bitwise", "validate_bitwise.cpp")
};
