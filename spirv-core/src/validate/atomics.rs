//! spirv-val's atomics pass (`AtomicsPass` in `validate_atomics.cpp`): the result type
//! each atomic instruction needs, its pointer (a pointer, to a value of the result
//! type, in a storage class the universal, Vulkan and OpenCL rules allow), the
//! capabilities 64-bit and float atomics need, then its memory scope and memory
//! semantics ([`scopes`](super::scopes), [`memory_semantics`](super::memory_semantics))
//! and the types of its value and comparator.

use super::faults::faults;
use super::memory_semantics::validate_memory_semantics;
use super::scopes::validate_memory_scope;
use super::{Fault, Inst, Query};
use crate::env::TargetEnv;
use crate::spv::{Capability as C, Opcode, Opcode as O, StorageClass as S};
use AtomicError as E;

faults! {
    /// A fault of spirv-val's atomics pass (`validate_atomics.cpp`).
    pub enum AtomicError {
        /// A result type that is no float scalar.
        FloatResult { opcode: Opcode } => "{opcode}: expected Result Type to be float scalar type",
        /// A result type that is no integer scalar.
        IntResult { opcode: Opcode } => "{opcode}: expected Result Type to be integer scalar type",
        /// A result type that is neither an integer nor a float scalar.
        IntOrFloatResult { opcode: Opcode } => "{opcode}: expected Result Type to be integer or float scalar type",
        /// A result type that is no bool scalar.
        BoolResult { opcode: Opcode } => "{opcode}: expected Result Type to be bool scalar type",
        /// A pointer operand that is no pointer.
        NotPointer { opcode: Opcode } => "{opcode}: expected Pointer to be a pointer type",
        /// An atomic flag instruction on an untyped pointer.
        UntypedFlag => "Untyped pointers are not supported by atomic flag instructions",
        /// A 64-bit atomic without `Int64Atomics`.
        Int64 { opcode: Opcode } => "{opcode}: 64-bit atomics require the Int64Atomics capability",
        /// A storage class no environment allows.
        UniversalStorage { opcode: Opcode } => "{opcode}: storage class forbidden by universal validation rules.",
        /// A storage class Vulkan does not allow.
        #[vuid = "VUID-StandaloneSpirv-None-04686"]
        VulkanStorage { opcode: Opcode } => "{opcode}: Vulkan spec only allows storage classes for atomic to be: Uniform, Workgroup, Image, StorageBuffer, PhysicalStorageBuffer or TaskPayloadWorkgroupEXT.",
        /// `Function` storage with `Shader`.
        FunctionStorage { opcode: Opcode } => "{opcode}: Function storage class forbidden when the Shader capability is declared.",
        /// A 16-bit float vector atomic without `AtomicFloat16VectorNV`.
        Float16Vector { opcode: Opcode } => "{opcode}: float vector atomics require the AtomicFloat16VectorNV capability",
        /// A float add without its capability (spirv-val names the 32-bit one for 16 bits too).
        FloatAdd32 { opcode: Opcode } => "{opcode}: float add atomics require the AtomicFloat32AddEXT capability",
        /// A 64-bit float add without `AtomicFloat64AddEXT`.
        FloatAdd64 { opcode: Opcode } => "{opcode}: float add atomics require the AtomicFloat64AddEXT capability",
        /// A 16-bit float min/max without `AtomicFloat16MinMaxEXT`.
        FloatMinMax16 { opcode: Opcode } => "{opcode}: float min/max atomics require the AtomicFloat16MinMaxEXT capability",
        /// A 32-bit float min/max without `AtomicFloat32MinMaxEXT`.
        FloatMinMax32 { opcode: Opcode } => "{opcode}: float min/max atomics require the AtomicFloat32MinMaxEXT capability",
        /// A 64-bit float min/max without `AtomicFloat64MinMaxEXT`.
        FloatMinMax64 { opcode: Opcode } => "{opcode}: float min/max atomics require the AtomicFloat64MinMaxEXT capability",
        /// A storage class OpenCL does not allow.
        OpenClStorage { opcode: Opcode } => "{opcode}: storage class must be Function, Workgroup, CrossWorkGroup or Generic in the OpenCL environment.",
        /// `Generic` storage under OpenCL 1.2.
        OpenCl12Generic => "Storage class cannot be Generic in OpenCL 1.2 environment",
        /// An atomic flag on other than a 32-bit integer.
        FlagPointee { opcode: Opcode } => "{opcode}: expected Pointer to point to a value of 32-bit integer type",
        /// An atomic store to other than an integer or float scalar.
        StorePointee { opcode: Opcode } => "{opcode}: expected Pointer to be a pointer to integer or float scalar type",
        /// A pointee other than the result type.
        Pointee { opcode: Opcode } => "{opcode}: expected Pointer to point to a value of type Result Type",
        /// A stored value of another type than the pointee.
        StoreValue { opcode: Opcode } => "{opcode}: expected Value type and the type pointed to by Pointer to be the same",
        /// A value of another type than the result.
        Value { opcode: Opcode } => "{opcode}: expected Value to be of type Result Type",
        /// A comparator of another type than the result.
        Comparator { opcode: Opcode } => "{opcode}: expected Comparator to be of type Result Type",
    }
}

/// `IsFloat16Vector2Or4Type`.
fn is_f16_vector_2_or_4(q: &Query<'_>, t: u32) -> bool {
    q.opcode(t) == O::TypeVector
        && matches!(q.dimension(t), 2 | 4)
        && q.is_float_scalar_type(q.component_type(t))
        && q.bit_width(t) == 16
}

/// `AtomicsPass` for one instruction.
#[inline(always)]
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let opcode = inst.opcode;
    if !super::memory_semantics::is_atomic(opcode) {
        return Ok(());
    }
    let has = |c: C| q.state.has_capability(c.0);
    let fault = |e: E| Err(Fault::from(e));
    let result = inst.result_type();
    let returns = !matches!(opcode, O::AtomicStore | O::AtomicFlagClear);
    if returns {
        let f16v = has(C::AtomicFloat16VectorNV) && is_f16_vector_2_or_4(q, result);
        match opcode {
            O::AtomicFAddEXT | O::AtomicFMinEXT | O::AtomicFMaxEXT
                if !f16v && !q.is_float_scalar_type(result) =>
            {
                return fault(E::FloatResult { opcode });
            }
            O::AtomicCompareExchange
            | O::AtomicCompareExchangeWeak
            | O::AtomicIIncrement
            | O::AtomicIDecrement
            | O::AtomicIAdd
            | O::AtomicISub
            | O::AtomicSMin
            | O::AtomicUMin
            | O::AtomicSMax
            | O::AtomicUMax
            | O::AtomicAnd
            | O::AtomicOr
            | O::AtomicXor
                if !q.is_int_scalar_type(result) =>
            {
                return fault(E::IntResult { opcode });
            }
            O::AtomicLoad | O::AtomicExchange
                if !(q.is_float_scalar_type(result)
                    || q.is_int_scalar_type(result)
                    || opcode == O::AtomicExchange && f16v) =>
            {
                return fault(E::IntOrFloatResult { opcode });
            }
            O::AtomicFlagTestAndSet if !q.is_bool_scalar_type(result) => {
                return fault(E::BoolResult { opcode });
            }
            _ => {}
        }
    }
    let mut index = if returns { 2 } else { 0 };
    let pointer_type = q.operand_type(inst, index);
    index += 1;
    let Some((mut data_type, storage)) = q.pointer_info(pointer_type) else {
        return fault(E::NotPointer { opcode });
    };
    if data_type == 0 {
        match opcode {
            O::AtomicFlagTestAndSet | O::AtomicFlagClear => return fault(E::UntypedFlag),
            O::AtomicStore => data_type = q.type_of(inst.word(3)),
            _ => data_type = result,
        }
    }
    if q.is_int_scalar_type(data_type) && q.bit_width(data_type) == 64 && !has(C::Int64Atomics) {
        return fault(E::Int64 { opcode });
    }
    let universal = matches!(
        storage,
        S::Uniform
            | S::StorageBuffer
            | S::Workgroup
            | S::CrossWorkgroup
            | S::Generic
            | S::AtomicCounter
            | S::Image
            | S::Function
            | S::PhysicalStorageBuffer
            | S::TaskPayloadWorkgroupEXT
    );
    if !universal {
        return fault(E::UniversalStorage { opcode });
    }
    let env = q.state.options.target_env;
    if has(C::Shader) {
        if env.is_vulkan() {
            if !matches!(
                storage,
                S::Uniform
                    | S::StorageBuffer
                    | S::Workgroup
                    | S::Image
                    | S::PhysicalStorageBuffer
                    | S::TaskPayloadWorkgroupEXT
            ) {
                return fault(E::VulkanStorage { opcode });
            }
        } else if storage == S::Function {
            return fault(E::FunctionStorage { opcode });
        }
        let width = q.bit_width(result);
        let f16v = is_f16_vector_2_or_4(q, result);
        if opcode == O::AtomicFAddEXT {
            if width == 16 {
                if f16v {
                    if !has(C::AtomicFloat16VectorNV) {
                        return fault(E::Float16Vector { opcode });
                    }
                } else if !has(C::AtomicFloat16AddEXT) {
                    return fault(E::FloatAdd32 { opcode });
                }
            }
            if width == 32 && !has(C::AtomicFloat32AddEXT) {
                return fault(E::FloatAdd32 { opcode });
            }
            if width == 64 && !has(C::AtomicFloat64AddEXT) {
                return fault(E::FloatAdd64 { opcode });
            }
        } else if matches!(opcode, O::AtomicFMinEXT | O::AtomicFMaxEXT) {
            if width == 16 {
                if f16v {
                    if !has(C::AtomicFloat16VectorNV) {
                        return fault(E::Float16Vector { opcode });
                    }
                } else if !has(C::AtomicFloat16MinMaxEXT) {
                    return fault(E::FloatMinMax16 { opcode });
                }
            }
            if width == 32 && !has(C::AtomicFloat32MinMaxEXT) {
                return fault(E::FloatMinMax32 { opcode });
            }
            if width == 64 && !has(C::AtomicFloat64MinMaxEXT) {
                return fault(E::FloatMinMax64 { opcode });
            }
        }
    }
    if env.is_opencl() {
        if !matches!(
            storage,
            S::Function | S::Workgroup | S::CrossWorkgroup | S::Generic
        ) {
            return fault(E::OpenClStorage { opcode });
        }
        if env == TargetEnv::OpenCl1_2 && storage == S::Generic {
            return fault(E::OpenCl12Generic);
        }
    }
    // The pointee against what the instruction reads or writes.
    let pointee = match opcode {
        O::AtomicFlagTestAndSet | O::AtomicFlagClear => (!q.is_int_scalar_type(data_type)
            || q.bit_width(data_type) != 32)
            .then_some(E::FlagPointee { opcode }),
        O::AtomicStore => (!q.is_float_scalar_type(data_type) && !q.is_int_scalar_type(data_type))
            .then_some(E::StorePointee { opcode }),
        _ => (data_type != result).then_some(E::Pointee { opcode }),
    };
    if let Some(e) = pointee {
        return fault(e);
    }
    let memory_scope = inst.word(index);
    index += 1;
    if !validate_memory_scope(q, inst, memory_scope)? {
        return Ok(());
    }
    let equal = index;
    index += 1;
    validate_memory_semantics(q, opcode, inst.word(equal), equal, 0, memory_scope)?;
    let exchange = matches!(
        opcode,
        O::AtomicCompareExchange | O::AtomicCompareExchangeWeak
    );
    if exchange {
        let unequal = index;
        index += 1;
        validate_memory_semantics(
            q,
            opcode,
            inst.word(unequal),
            unequal,
            inst.word(equal),
            memory_scope,
        )?;
    }
    if opcode == O::AtomicStore {
        if q.operand_type(inst, 3) != data_type {
            return fault(E::StoreValue { opcode });
        }
    } else if !matches!(
        opcode,
        O::AtomicLoad
            | O::AtomicIIncrement
            | O::AtomicIDecrement
            | O::AtomicFlagTestAndSet
            | O::AtomicFlagClear
    ) {
        if q.operand_type(inst, index) != result {
            return fault(E::Value { opcode });
        }
        index += 1;
    }
    if exchange && q.operand_type(inst, index) != result {
        return fault(E::Comparator { opcode });
    }
    Ok(())
}

/// What this family checks (see [`coverage`](crate::validate::coverage)).
pub(crate) const COVERAGE: crate::validate::coverage::Family = crate::validate::coverage::Family {
    opcodes: &[
        O::AtomicLoad,
        O::AtomicStore,
        O::AtomicExchange,
        O::AtomicCompareExchange,
        O::AtomicCompareExchangeWeak,
        O::AtomicIIncrement,
        O::AtomicIDecrement,
        O::AtomicIAdd,
        O::AtomicISub,
        O::AtomicSMin,
        O::AtomicUMin,
        O::AtomicSMax,
        O::AtomicUMax,
        O::AtomicAnd,
        O::AtomicOr,
        O::AtomicXor,
        O::AtomicFlagTestAndSet,
        O::AtomicFlagClear,
        O::AtomicFAddEXT,
        O::AtomicFMinEXT,
        O::AtomicFMaxEXT,
    ],
    ..crate::validate::coverage::Family::new("atomics", "validate_atomics.cpp")
};
