//! spirv-val's conversion pass (`ConversionPass` in `validate_conversion.cpp`): the
//! result and input types of the numeric conversions (`OpConvert*`, `OpUConvert`,
//! `OpSConvert`, `OpFConvert`, `OpQuantizeToF16`, `OpSatConvert*`), the pointer
//! conversions and casts, `OpBitcast` and `OpConvertUToAccelerationStructureKHR`;
//! then, in shaders, 8- and 16-bit types only in width-only conversions.
//! `OpBitCastArrayQCOM`'s rules are in `qcom.rs`.

use super::Query;
use super::op_util::{cooperative_shapes, cooperative_sizes, is_use};
use super::operations::{CompositeRule as C, OperationError, TypeRule as R, fault, fixed, rule};
use super::validation_state::Scalar;
use super::{Fault, Inst, qcom};
use crate::spv::{AddressingModel as A, CooperativeMatrixUse, Opcode as O, StorageClass as S};

/// What the pass remembers across instructions.
#[derive(Debug, Default)]
pub(super) struct Conversion {}

/// A type class of the numeric conversions: what is accepted as a scalar or vector,
/// and as the component of a cooperative matrix or vector.
#[derive(Clone, Copy)]
enum Class {
    Float,
    Int,
    Unsigned,
}

impl Class {
    fn scalar(self, q: &Query<'_>, t: u32) -> bool {
        match self {
            Class::Float => q.is_float_scalar_type(t),
            Class::Int => q.is_int_scalar_type(t),
            Class::Unsigned => q.is_unsigned_int_scalar_type(t),
        }
    }

    /// A scalar, vector, cooperative matrix or cooperative vector of the class.
    fn accepts(self, q: &Query<'_>, t: u32) -> bool {
        let s = |q: &Query<'_>, c: u32| self.scalar(q, c);
        s(q, t)
            || (q.opcode(t) == O::TypeVector && s(q, q.component_type(t)))
            || q.is_cooperative_matrix_of(t, s)
            || q.is_cooperative_vector_of(t, s)
    }
}

/// The numeric conversions' shared rules: the result's class, the input's, their
/// dimensions (or cooperative sizes or shapes).
fn numeric(
    q: &Query<'_>,
    inst: &Inst<'_>,
    result: (Class, R),
    input: (Class, R),
) -> Result<(), Fault> {
    let op = inst.opcode;
    let result_type = inst.result_type();
    if !result.0.accepts(q, result_type) {
        return Err(rule(result.1, op));
    }
    let input_type = q.operand_type(inst, 2);
    if input_type == 0 || !input.0.accepts(q, input_type) {
        return Err(rule(input.1, op));
    }
    if q.is_cooperative_vector_type(result_type) || q.is_cooperative_vector_type(input_type) {
        cooperative_sizes(q, result_type, input_type)
    } else if q.is_cooperative_matrix_type(result_type) || q.is_cooperative_matrix_type(input_type)
    {
        cooperative_shapes(q, result_type, input_type, true, false)
    } else if q.dimension(result_type) != q.dimension(input_type) {
        Err(rule(R::InputDimension, op))
    } else {
        Ok(())
    }
}

/// The pass for one instruction.
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>, _: &mut Conversion) -> Result<(), Fault> {
    let op = inst.opcode;
    let result = inst.result_type();
    let float = (Class::Float, R::FloatResult);
    let float_in = (Class::Float, R::InputFloat);
    let int = (Class::Int, R::IntResult);
    let int_in = (Class::Int, R::InputInt);
    let unsigned = (Class::Unsigned, R::UnsignedResult);
    match op {
        O::ConvertFToU => numeric(q, inst, unsigned, float_in)?,
        O::ConvertFToS => numeric(q, inst, int, float_in)?,
        O::ConvertSToF | O::ConvertUToF => numeric(q, inst, float, int_in)?,
        O::Bitcast => bitcast(q, inst)?,
        O::UConvert | O::SConvert => {
            let r = if op == O::UConvert { unsigned } else { int };
            numeric(q, inst, r, int_in)?;
            if q.bit_width(result) == q.bit_width(q.operand_type(inst, 2)) {
                return Err(rule(R::InputWidthDiffers, op));
            }
        }
        O::FConvert => {
            numeric(q, inst, float, float_in)?;
            if q.component_type(result) == q.component_type(q.operand_type(inst, 2)) {
                return Err(rule(R::ComponentDiffers, op));
            }
        }
        O::BitCastArrayQCOM => qcom::bit_cast(q, inst)?,
        O::CooperativeMatrixConvertNV | O::CooperativeMatrixTransposeNV => {
            matrix_convert(q, inst)?;
        }
        O::QuantizeToF16 => {
            if !q.is_float_scalar_or_vector_type(result) || q.bit_width(result) != 32 {
                return Err(rule(R::Float32Result, op));
            }
            if q.operand_type(inst, 2) != result {
                return Err(rule(R::InputIsResult, op));
            }
        }
        O::ConvertPtrToU | O::ConvertUToPtr => pointer_int(q, inst)?,
        O::SatConvertSToU | O::SatConvertUToS => {
            if !q.is_int_scalar_type(result) && !q.is_int_vector_type(result) {
                return Err(rule(R::IntResult, op));
            }
            let input = q.operand_type(inst, 2);
            if input == 0 || !(q.is_int_scalar_type(input) || q.is_int_vector_type(input)) {
                return Err(rule(R::IntInput, op));
            }
            if q.dimension(result) != q.dimension(input) {
                return Err(rule(R::InputDimension, op));
            }
        }
        O::PtrCastToGeneric | O::GenericCastToPtr | O::GenericCastToPtrExplicit => {
            cast(q, inst)?;
        }
        O::ConvertUToAccelerationStructureKHR => {
            if q.opcode(result) != O::TypeAccelerationStructureKHR {
                return Err(rule(R::AccelerationStructureResult, op));
            }
            let input = q.operand_type(inst, 2);
            let handle = (q.is_unsigned_int_scalar_type(input) && q.bit_width(input) == 64)
                || (q.is_unsigned_int_vector_type(input)
                    && q.dimension(input) == 2
                    && q.bit_width(input) == 32);
            if input == 0 || !handle {
                return Err(rule(R::HandleInput, op));
            }
        }
        _ => {}
    }
    if matches!(
        op,
        O::ConvertFToU | O::ConvertFToS | O::ConvertSToF | O::ConvertUToF | O::Bitcast
    ) && q.state.has_capability(crate::spv::Capability::Shader.0)
        && (q.contains_limited_use(result) || q.contains_limited_use(q.operand_type(inst, 2)))
    {
        return Err(fixed(C::SmallConversion));
    }
    Ok(())
}

/// `OpConvertPtrToU` and `OpConvertUToPtr`.
fn pointer_int(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let op = inst.opcode;
    let result = inst.result_type();
    let input = q.operand_type(inst, 2);
    let to_int = op == O::ConvertPtrToU;
    let (pointer, int) = if to_int {
        if !q.is_unsigned_int_scalar_type(result) {
            return Err(rule(R::UnsignedScalarResult, op));
        }
        if !q.is_pointer_type(input) {
            return Err(rule(R::InputPointer, op));
        }
        (input, result)
    } else {
        if !q.is_pointer_type(result) {
            return Err(rule(R::PointerResult, op));
        }
        if input == 0 || !q.is_int_scalar_type(input) {
            return Err(rule(R::IntScalarInput, op));
        }
        (result, input)
    };
    match q.state.addressing_model() {
        A::Logical => Err(rule(R::LogicalAddressing, op)),
        A::PhysicalStorageBuffer64 => {
            let class = q.pointer_info(pointer).map(|(_, c)| c);
            if class != Some(S::PhysicalStorageBuffer) {
                return Err(rule(R::PhysicalStorageClass, op));
            }
            if q.state.options.target_env.is_vulkan() && q.bit_width(int) != 64 {
                return Err(fault(OperationError::PhysicalWidth { input: !to_int }));
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// `OpPtrCastToGeneric`, `OpGenericCastToPtr` and `OpGenericCastToPtrExplicit`.
fn cast(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let op = inst.opcode;
    let private = |c: S| matches!(c, S::Workgroup | S::CrossWorkgroup | S::Function);
    let Some((result_data, result_class)) = q.pointer_info(inst.result_type()) else {
        return Err(rule(R::PointerResult, op));
    };
    let target = S(inst.word(3));
    match op {
        O::PtrCastToGeneric if result_class != S::Generic => {
            return Err(rule(R::GenericResult, op));
        }
        O::GenericCastToPtr if !private(result_class) => {
            return Err(rule(R::ResultStorageClass, op));
        }
        O::GenericCastToPtrExplicit if result_class != target => {
            return Err(rule(R::ResultIsTarget, op));
        }
        _ => {}
    }
    let Some((input_data, input_class)) = q.pointer_info(q.operand_type(inst, 2)) else {
        return Err(rule(R::InputPointer, op));
    };
    if op == O::PtrCastToGeneric {
        if !private(input_class) {
            return Err(rule(R::InputStorageClass, op));
        }
    } else if input_class != S::Generic {
        return Err(rule(R::GenericInput, op));
    }
    if result_data != input_data {
        return Err(rule(R::SamePointee, op));
    }
    if op == O::GenericCastToPtrExplicit && !private(target) {
        return Err(rule(R::TargetStorageClass, op));
    }
    Ok(())
}

/// `OpCooperativeMatrixConvertNV` and `OpCooperativeMatrixTransposeNV`.
fn matrix_convert(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let op = inst.opcode;
    let result = inst.result_type();
    if !q.is_cooperative_matrix_type(result) {
        return Err(rule(R::CooperativeResult, op));
    }
    let input = q.operand_type(inst, 2);
    if !q.is_cooperative_matrix_type(input) {
        return Err(rule(R::CooperativeInput, op));
    }
    let transpose = op == O::CooperativeMatrixTransposeNV;
    cooperative_shapes(q, result, input, true, transpose)?;
    if !transpose && q.word(result, 2) != q.word(input, 2) {
        return Err(rule(R::CooperativeComponents, op));
    }
    if transpose && !is_use(q, result, CooperativeMatrixUse::MatrixBKHR) {
        return Err(rule(R::UseB, op));
    }
    Ok(())
}

/// `OpBitcast`.
fn bitcast(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let op = inst.opcode;
    let result = inst.result_type();
    let input = q.operand_type(inst, 2);
    if input == 0 {
        return Err(rule(R::InputTyped, op));
    }
    let result_pointer = q.is_pointer_type(result);
    let result_int = q.is_int_scalar_type(result);
    let input_pointer = q.is_pointer_type(input);
    let input_int = q.is_int_scalar_type(input);
    let result_matrix = q.is_cooperative_matrix_type(result);
    let input_matrix = q.is_cooperative_matrix_type(input);
    let result_vector = q.is_cooperative_vector_type(result);
    let input_vector = q.is_cooperative_vector_type(input);
    let numeric =
        |t: u32| q.is_int_vector_type(t) || q.is_float_scalar_type(t) || q.is_float_vector_type(t);
    if !result_pointer && !result_int && !result_matrix && !result_vector && !numeric(result) {
        return Err(rule(R::BitcastResult, op));
    }
    if !input_pointer && !input_int && !input_matrix && !input_vector && !numeric(input) {
        return Err(rule(R::BitcastInput, op));
    }
    if result_vector != input_vector {
        return Err(rule(R::CooperativeVectorCast, op));
    }
    if result_matrix != input_matrix {
        return Err(rule(R::CooperativeMatrixCast, op));
    }
    if result_vector {
        cooperative_sizes(q, result, input)?;
    }
    if result_matrix {
        cooperative_shapes(q, result, input, false, false)?;
    }
    if q.state.version >= (1, 5) || q.state.has_extension("SPV_KHR_physical_storage_buffer") {
        let int32_vector = |t| q.is_int_vector_type(t) && q.contains_sized(t, Scalar::Int32);
        if result_pointer && !input_pointer && !input_int && !int32_vector(input) {
            return Err(rule(R::PointerFromNewer, op));
        }
        if input_pointer && !result_pointer && !result_int && !int32_vector(result) {
            return Err(rule(R::PointerToNewer, op));
        }
    } else {
        if result_pointer && !input_pointer && !input_int {
            return Err(rule(R::PointerFromOlder, op));
        }
        if input_pointer && !result_pointer && !result_int {
            return Err(rule(R::PointerToOlder, op));
        }
    }
    if !result_pointer && !input_pointer {
        let size = |t| q.bit_width(t).wrapping_mul(q.dimension(t));
        if size(result) != size(input) {
            return Err(rule(R::TotalBitWidth, op));
        }
    }
    Ok(())
}
