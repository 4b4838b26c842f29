//! spirv-val's conversion pass (`ConversionPass` in `validate_conversion.cpp`): the
//! result and input types of the numeric conversions (`OpConvert*`, `OpUConvert`,
//! `OpSConvert`, `OpFConvert`, `OpQuantizeToF16`, `OpSatConvert*`), the pointer
//! conversions and casts, `OpBitcast` and `OpConvertUToAccelerationStructureKHR`;
//! then, in shaders, 8- and 16-bit types only in width-only conversions.
//! and `OpBitCastArrayQCOM` (`SPV_QCOM_cooperative_matrix_conversion`).

use super::Query;
use super::faults::faults;
use super::validation_state::Scalar;
use super::validation_state::{cooperative_shapes, cooperative_sizes, is_use};
use super::{Fault, Inst};
use crate::spirv_tools::is_spec_constant;
use crate::spv::Opcode;
use crate::spv::{AddressingModel as A, CooperativeMatrixUse, Opcode as O, StorageClass as S};
use ConversionError as E;

faults! {
    /// A fault of spirv-val's conversion pass (`validate_conversion.cpp`).
    pub enum ConversionError {
        UnsignedResult { opcode: Opcode } => "Expected unsigned int scalar or vector type as Result Type: {opcode}",
        IntResult { opcode: Opcode } => "Expected int scalar or vector type as Result Type: {opcode}",
        InputFloat { opcode: Opcode } => "Expected input to be float scalar or vector: {opcode}",
        InputDimension { opcode: Opcode } => "Expected input to have the same dimension as Result Type: {opcode}",
        FloatResult { opcode: Opcode } => "Expected float scalar or vector type as Result Type: {opcode}",
        InputInt { opcode: Opcode } => "Expected input to be int scalar or vector: {opcode}",
        InputWidthDiffers { opcode: Opcode } => "Expected input to have different bit width from Result Type: {opcode}",
        ComponentDiffers { opcode: Opcode } => "Expected component type of Value to be different from component type of Result Type: {opcode}",
        Float32Result { opcode: Opcode } => "Expected 32-bit float scalar or vector type as Result Type: {opcode}",
        InputIsResult { opcode: Opcode } => "Expected input type to be equal to Result Type: {opcode}",
        UnsignedScalarResult { opcode: Opcode } => "Expected unsigned int scalar type as Result Type: {opcode}",
        InputPointer { opcode: Opcode } => "Expected input to be a pointer: {opcode}",
        LogicalAddressing { opcode: Opcode } => "Logical addressing not supported: {opcode}",
        PhysicalStorageClass { opcode: Opcode } => "Pointer storage class must be PhysicalStorageBuffer: {opcode}",
        IntInput { opcode: Opcode } => "Expected int scalar or vector as input: {opcode}",
        PointerResult { opcode: Opcode } => "Expected Result Type to be a pointer: {opcode}",
        IntScalarInput { opcode: Opcode } => "Expected int scalar as input: {opcode}",
        GenericResult { opcode: Opcode } => "Expected Result Type to have storage class Generic: {opcode}",
        InputStorageClass { opcode: Opcode } => "Expected input to have storage class Workgroup, CrossWorkgroup or Function: {opcode}",
        SamePointee { opcode: Opcode } => "Expected input and Result Type to point to the same type: {opcode}",
        ResultStorageClass { opcode: Opcode } => "Expected Result Type to have storage class Workgroup, CrossWorkgroup or Function: {opcode}",
        GenericInput { opcode: Opcode } => "Expected input to have storage class Generic: {opcode}",
        ResultIsTarget { opcode: Opcode } => "Expected Result Type to be of target storage class: {opcode}",
        TargetStorageClass { opcode: Opcode } => "Expected target storage class to be Workgroup, CrossWorkgroup or Function: {opcode}",
        InputTyped { opcode: Opcode } => "Expected input to have a type: {opcode}",
        BitcastResult { opcode: Opcode } => "Expected Result Type to be a pointer or int or float vector or scalar type: {opcode}",
        BitcastInput { opcode: Opcode } => "Expected input to be a pointer or int or float vector or scalar: {opcode}",
        CooperativeVectorCast { opcode: Opcode } => "Cooperative vector can only be cast to another cooperative vector: {opcode}",
        CooperativeMatrixCast { opcode: Opcode } => "Cooperative matrix can only be cast to another cooperative matrix: {opcode}",
        PointerFromNewer { opcode: Opcode } => "In SPIR-V 1.5 or later (or with SPV_KHR_physical_storage_buffer), expected input to be a pointer, int scalar or 32-bit int vector if Result Type is pointer: {opcode}",
        PointerToNewer { opcode: Opcode } => "In SPIR-V 1.5 or later (or with SPV_KHR_physical_storage_buffer), pointer can only be converted to another pointer, int scalar or 32-bit int vector: {opcode}",
        PointerFromOlder { opcode: Opcode } => "In SPIR-V 1.4 or earlier (and without SPV_KHR_physical_storage_buffer), expected input to be a pointer or int scalar if Result Type is pointer: {opcode}",
        PointerToOlder { opcode: Opcode } => "In SPIR-V 1.4 or earlier (and without SPV_KHR_physical_storage_buffer), pointer can only be converted to another pointer or int scalar: {opcode}",
        TotalBitWidth { opcode: Opcode } => "Expected input to have the same total bit width as Result Type: {opcode}",
        AccelerationStructureResult { opcode: Opcode } => "Expected Result Type to be a Acceleration Structure: {opcode}",
        HandleInput { opcode: Opcode } => "Expected 64-bit uint scalar or 2-component 32-bit uint vector as input: {opcode}",
        CooperativeResult { opcode: Opcode } => "Expected cooperative matrix Result Type: {opcode}",
        CooperativeInput { opcode: Opcode } => "Expected cooperative matrix type for Matrix input: {opcode}",
        CooperativeComponents { opcode: Opcode } => "Result Type and Matrix component types mismatch: {opcode}",
        UseB { opcode: Opcode } => "Result Type must have UseB: {opcode}",
        SmallConversion => "8- or 16-bit types can only be used with width-only conversions",
        Arrays { opcode: Opcode } => "Opcode {opcode} requires OpTypeArray operands for the input and the result.",
        CastSourceType { opcode: Opcode } => "Opcode {opcode} requires the source element type be one of 32-bit OpTypeInt (signed/unsigned), 32-bit OpTypeFloat and 16-bit OpTypeFloat",
        CastResultType { opcode: Opcode } => "Opcode {opcode} requires the result element type be one of 32-bit OpTypeInt (signed/unsigned), 32-bit OpTypeFloat and 16-bit OpTypeFloat",
        CastLengths { opcode: Opcode } => "Opcode {opcode} requires source and result types be compatible for conversion.",
        /// A pointer conversion under `PhysicalStorageBuffer64`, from an integer of
        /// another width than 64, under Vulkan.
        #[vuid = "VUID-StandaloneSpirv-PhysicalStorageBuffer64-04710"]
        PhysicalWidthInput
            => "PhysicalStorageBuffer64 addressing mode requires the input integer to have a 64-bit width for Vulkan environment.",
        /// A pointer conversion under `PhysicalStorageBuffer64`, to an integer of
        /// another width than 64, under Vulkan.
        #[vuid = "VUID-StandaloneSpirv-PhysicalStorageBuffer64-04710"]
        PhysicalWidthResult
            => "PhysicalStorageBuffer64 addressing mode requires the result integer type to have a 64-bit width for Vulkan environment.",
    }
}

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
    result: (Class, E),
    input: (Class, E),
) -> Result<(), Fault> {
    let op = inst.opcode;
    let result_type = inst.result_type();
    if !result.0.accepts(q, result_type) {
        return Err(result.1.into());
    }
    let input_type = q.operand_type(inst, 2);
    if input_type == 0 || !input.0.accepts(q, input_type) {
        return Err(input.1.into());
    }
    if q.is_cooperative_vector_type(result_type) || q.is_cooperative_vector_type(input_type) {
        cooperative_sizes(q, result_type, input_type)
    } else if q.is_cooperative_matrix_type(result_type) || q.is_cooperative_matrix_type(input_type)
    {
        cooperative_shapes(q, result_type, input_type, true, false)
    } else if q.dimension(result_type) != q.dimension(input_type) {
        Err(E::InputDimension { opcode: op }.into())
    } else {
        Ok(())
    }
}

/// The pass for one instruction.
#[inline(always)]
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>, _: &mut Conversion) -> Result<(), Fault> {
    let op = inst.opcode;
    let result = inst.result_type();
    let float = (Class::Float, E::FloatResult { opcode: op });
    let float_in = (Class::Float, E::InputFloat { opcode: op });
    let int = (Class::Int, E::IntResult { opcode: op });
    let int_in = (Class::Int, E::InputInt { opcode: op });
    let unsigned = (Class::Unsigned, E::UnsignedResult { opcode: op });
    match op {
        O::ConvertFToU => numeric(q, inst, unsigned, float_in)?,
        O::ConvertFToS => numeric(q, inst, int, float_in)?,
        O::ConvertSToF | O::ConvertUToF => numeric(q, inst, float, int_in)?,
        O::Bitcast => bitcast(q, inst)?,
        O::UConvert | O::SConvert => {
            let r = if op == O::UConvert { unsigned } else { int };
            numeric(q, inst, r, int_in)?;
            if q.bit_width(result) == q.bit_width(q.operand_type(inst, 2)) {
                return Err(E::InputWidthDiffers { opcode: op }.into());
            }
        }
        O::FConvert => {
            numeric(q, inst, float, float_in)?;
            if q.component_type(result) == q.component_type(q.operand_type(inst, 2)) {
                return Err(E::ComponentDiffers { opcode: op }.into());
            }
        }
        O::BitCastArrayQCOM => bit_cast(q, inst)?,
        O::CooperativeMatrixConvertNV | O::CooperativeMatrixTransposeNV => {
            matrix_convert(q, inst)?;
        }
        O::QuantizeToF16 => {
            if !q.is_float_scalar_or_vector_type(result) || q.bit_width(result) != 32 {
                return Err(E::Float32Result { opcode: op }.into());
            }
            if q.operand_type(inst, 2) != result {
                return Err(E::InputIsResult { opcode: op }.into());
            }
        }
        O::ConvertPtrToU | O::ConvertUToPtr => pointer_int(q, inst)?,
        O::SatConvertSToU | O::SatConvertUToS => {
            if !q.is_int_scalar_type(result) && !q.is_int_vector_type(result) {
                return Err(E::IntResult { opcode: op }.into());
            }
            let input = q.operand_type(inst, 2);
            if input == 0 || !(q.is_int_scalar_type(input) || q.is_int_vector_type(input)) {
                return Err(E::IntInput { opcode: op }.into());
            }
            if q.dimension(result) != q.dimension(input) {
                return Err(E::InputDimension { opcode: op }.into());
            }
        }
        O::PtrCastToGeneric | O::GenericCastToPtr | O::GenericCastToPtrExplicit => {
            cast(q, inst)?;
        }
        O::ConvertUToAccelerationStructureKHR => {
            if q.opcode(result) != O::TypeAccelerationStructureKHR {
                return Err(E::AccelerationStructureResult { opcode: op }.into());
            }
            let input = q.operand_type(inst, 2);
            let handle = (q.is_unsigned_int_scalar_type(input) && q.bit_width(input) == 64)
                || (q.is_unsigned_int_vector_type(input)
                    && q.dimension(input) == 2
                    && q.bit_width(input) == 32);
            if input == 0 || !handle {
                return Err(E::HandleInput { opcode: op }.into());
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
        return Err(E::SmallConversion.into());
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
            return Err(E::UnsignedScalarResult { opcode: op }.into());
        }
        if !q.is_pointer_type(input) {
            return Err(E::InputPointer { opcode: op }.into());
        }
        (input, result)
    } else {
        if !q.is_pointer_type(result) {
            return Err(E::PointerResult { opcode: op }.into());
        }
        if input == 0 || !q.is_int_scalar_type(input) {
            return Err(E::IntScalarInput { opcode: op }.into());
        }
        (result, input)
    };
    match q.state.addressing_model() {
        A::Logical => Err(E::LogicalAddressing { opcode: op }.into()),
        A::PhysicalStorageBuffer64 => {
            let class = q.pointer_info(pointer).map(|(_, c)| c);
            if class != Some(S::PhysicalStorageBuffer) {
                return Err(E::PhysicalStorageClass { opcode: op }.into());
            }
            if q.state.options.target_env.is_vulkan() && q.bit_width(int) != 64 {
                return Err(if to_int {
                    E::PhysicalWidthResult
                } else {
                    E::PhysicalWidthInput
                }
                .into());
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
        return Err(E::PointerResult { opcode: op }.into());
    };
    let target = S(inst.word(3));
    match op {
        O::PtrCastToGeneric if result_class != S::Generic => {
            return Err(E::GenericResult { opcode: op }.into());
        }
        O::GenericCastToPtr if !private(result_class) => {
            return Err(E::ResultStorageClass { opcode: op }.into());
        }
        O::GenericCastToPtrExplicit if result_class != target => {
            return Err(E::ResultIsTarget { opcode: op }.into());
        }
        _ => {}
    }
    let Some((input_data, input_class)) = q.pointer_info(q.operand_type(inst, 2)) else {
        return Err(E::InputPointer { opcode: op }.into());
    };
    if op == O::PtrCastToGeneric {
        if !private(input_class) {
            return Err(E::InputStorageClass { opcode: op }.into());
        }
    } else if input_class != S::Generic {
        return Err(E::GenericInput { opcode: op }.into());
    }
    if result_data != input_data {
        return Err(E::SamePointee { opcode: op }.into());
    }
    if op == O::GenericCastToPtrExplicit && !private(target) {
        return Err(E::TargetStorageClass { opcode: op }.into());
    }
    Ok(())
}

/// `OpCooperativeMatrixConvertNV` and `OpCooperativeMatrixTransposeNV`.
fn matrix_convert(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let op = inst.opcode;
    let result = inst.result_type();
    if !q.is_cooperative_matrix_type(result) {
        return Err(E::CooperativeResult { opcode: op }.into());
    }
    let input = q.operand_type(inst, 2);
    if !q.is_cooperative_matrix_type(input) {
        return Err(E::CooperativeInput { opcode: op }.into());
    }
    let transpose = op == O::CooperativeMatrixTransposeNV;
    cooperative_shapes(q, result, input, true, transpose)?;
    if !transpose && q.word(result, 2) != q.word(input, 2) {
        return Err(E::CooperativeComponents { opcode: op }.into());
    }
    if transpose && !is_use(q, result, CooperativeMatrixUse::MatrixBKHR) {
        return Err(E::UseB { opcode: op }.into());
    }
    Ok(())
}

/// `OpBitcast`.
fn bitcast(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let op = inst.opcode;
    let result = inst.result_type();
    let input = q.operand_type(inst, 2);
    if input == 0 {
        return Err(E::InputTyped { opcode: op }.into());
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
        return Err(E::BitcastResult { opcode: op }.into());
    }
    if !input_pointer && !input_int && !input_matrix && !input_vector && !numeric(input) {
        return Err(E::BitcastInput { opcode: op }.into());
    }
    if result_vector != input_vector {
        return Err(E::CooperativeVectorCast { opcode: op }.into());
    }
    if result_matrix != input_matrix {
        return Err(E::CooperativeMatrixCast { opcode: op }.into());
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
            return Err(E::PointerFromNewer { opcode: op }.into());
        }
        if input_pointer && !result_pointer && !result_int && !int32_vector(result) {
            return Err(E::PointerToNewer { opcode: op }.into());
        }
    } else {
        if result_pointer && !input_pointer && !input_int {
            return Err(E::PointerFromOlder { opcode: op }.into());
        }
        if input_pointer && !result_pointer && !result_int {
            return Err(E::PointerToOlder { opcode: op }.into());
        }
    }
    if !result_pointer && !input_pointer {
        let size = |t| q.bit_width(t).wrapping_mul(q.dimension(t));
        if size(result) != size(input) {
            return Err(E::TotalBitWidth { opcode: op }.into());
        }
    }
    Ok(())
}

/// `OpBitCastArrayQCOM`: an array of 32-bit integers or 16- or 32-bit floats as
/// another of the same bit length.
fn bit_cast(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let result = inst.result_type();
    let source = q.operand_type(inst, 2);
    if q.opcode(result) != O::TypeArray || q.opcode(source) != O::TypeArray {
        return Err(E::Arrays {
            opcode: inst.opcode,
        }
        .into());
    }
    let source_elt = q.component_type(source);
    let result_elt = q.component_type(result);
    if !q.int_n_or_float(source_elt, Scalar::Int32) {
        return Err(E::CastSourceType {
            opcode: inst.opcode,
        }
        .into());
    }
    if !q.int_n_or_float(result_elt, Scalar::Int32) {
        return Err(E::CastResultType {
            opcode: inst.opcode,
        }
        .into());
    }
    let (source_len, result_len) = (
        q.word(source, 3).unwrap_or(0),
        q.word(result, 3).unwrap_or(0),
    );
    let source_n = q.constant_u64(source_len).map(|v| v as u32);
    let result_n = q.constant_u64(result_len).map(|v| v as u32);
    let bits = |elt: u32, n: Option<u32>| q.bit_width(elt).wrapping_mul(n.unwrap_or(u32::MAX));
    if !is_spec_constant(q.opcode(source_len))
        && !is_spec_constant(q.opcode(result_len))
        && (source_n.is_none()
            || result_n.is_none()
            || bits(source_elt, source_n) != bits(result_elt, result_n))
    {
        return Err(E::CastLengths {
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
            O::ConvertFToU,
            O::ConvertFToS,
            O::ConvertSToF,
            O::ConvertUToF,
            O::Bitcast,
            O::UConvert,
            O::SConvert,
            O::FConvert,
            O::BitCastArrayQCOM,
            O::CooperativeMatrixConvertNV,
            O::CooperativeMatrixTransposeNV,
            O::QuantizeToF16,
            O::ConvertPtrToU,
            O::ConvertUToPtr,
            O::SatConvertSToU,
            O::SatConvertUToS,
            O::PtrCastToGeneric,
            O::GenericCastToPtr,
            O::GenericCastToPtrExplicit,
            O::ConvertUToAccelerationStructureKHR,
        ]
    },
    ..crate::validate::coverage::Family::new("conversions", "validate_conversion.cpp")
};
