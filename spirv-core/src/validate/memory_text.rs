//! spirv-val's text for each [`MemoryError`], typos and all (those of access chains,
//! array lengths, pointer comparisons and cooperative matrices in
//! `memory_text_chain.rs`), and the ids each names.

use super::error::{Namer, Out, opcode_name};
use super::memory_error::{CopyOperand, MemoryError};
use super::memory_util::storage_class_name;
use crate::__private::Vec;
use crate::types::Id;
use core::fmt;

/// A Vulkan rule's id as spirv-val prints it before a message.
pub(super) fn vuid(out: &mut dyn Out, vulkan: bool, id: &str) -> fmt::Result {
    if vulkan {
        write!(out, "[VUID-StandaloneSpirv-{id}] ")?;
    }
    Ok(())
}

impl MemoryError {
    /// spirv-val's message.
    pub(super) fn write(&self, out: &mut dyn Out, names: &Namer<'_>) -> fmt::Result {
        use MemoryError as E;
        let id = |out: &mut dyn Out, id: Id| names.id(out, id);
        match self {
            E::PhysicalNeedsAligned { vulkan } => {
                vuid(out, *vulkan, "PhysicalStorageBuffer64-04708")?;
                out.write_str("Memory accesses with PhysicalStorageBuffer must use Aligned.")
            }
            E::AvailableOnLoad => {
                out.write_str("MakePointerAvailableKHR cannot be used with OpLoad.")
            }
            E::AvailableNeedsNonPrivate => out.write_str(
                "NonPrivatePointerKHR must be specified if MakePointerAvailableKHR is specified.",
            ),
            E::VisibleOnStore => out.write_str("MakePointerVisibleKHR cannot be used with OpStore."),
            E::VisibleNeedsNonPrivate => out.write_str(
                "NonPrivatePointerKHR must be specified if MakePointerVisibleKHR is specified.",
            ),
            E::NonPrivateStorageClass => out.write_str(
                "NonPrivatePointerKHR requires a pointer in Uniform, Workgroup, CrossWorkgroup, Generic, Image or StorageBuffer storage classes.",
            ),
            E::AlignedNotPowerOfTwo { value } => write!(
                out,
                "Memory accesses Aligned operand value {value} is not a power of two."
            ),
            E::AlignedTooSmall {
                vulkan,
                value,
                largest,
            } => {
                vuid(out, *vulkan, "PhysicalStorageBuffer64-06314")?;
                write!(
                    out,
                    "Memory accesses Aligned operand value {value} is too small, the largest scalar type is {largest} bytes."
                )
            }
            E::TargetVisible => {
                out.write_str("Target memory access must not include MakePointerVisibleKHR")
            }
            E::SourceAvailable => {
                out.write_str("Source memory access must not include MakePointerAvailableKHR")
            }
            E::TwoAccessesNeedVersion { opcode } => write!(
                out,
                "{} with two memory access operands requires SPIR-V 1.4 or later",
                opcode_name(*opcode)
            ),
            E::UntypedVariableResultType => out.write_str("Result type must be an untyped pointer"),
            E::VariableResultType { ty } => {
                out.write_str("OpVariable Result Type <id> ")?;
                id(out, *ty)?;
                out.write_str(" is not a pointer type.")
            }
            E::DataTypeNotType => out.write_str("Data type must be a type instruction"),
            E::DataTypeMissing => out.write_str(
                "Data type must be specified for Function, Private, and Workgroup storage classes",
            ),
            E::VulkanDataTypeMissing => {
                vuid(out, true, "OpUntypedVariableKHR-11167")?;
                out.write_str("Vulkan requires that data type be specified")
            }
            E::InitializerNotConstant { initializer } => {
                out.write_str("Variable Initializer <id> ")?;
                id(out, *initializer)?;
                out.write_str(" is not a constant or module-scope variable.")
            }
            E::InitializerType => out.write_str("Initializer type must match the data type"),
            E::BoolInInterface { vulkan } => {
                vuid(out, *vulkan, "Input-07290")?;
                out.write_str(
                    "If OpTypeBool is stored in conjunction with OpVariable using Input or Output Storage Classes it requires a BuiltIn decoration",
                )
            }
            E::BoolExternal => out.write_str(
                "If OpTypeBool is stored in conjunction with OpVariable, it can only be used with non-externally visible shader Storage Classes: Workgroup, CrossWorkgroup, Private, Function, Input, Output, RayPayloadKHR, IncomingRayPayloadKHR, HitAttributeKHR, CallableDataKHR, IncomingCallableDataKHR, NodePayloadAMDX, or UniformConstant",
            ),
            E::StorageClassForEnv => {
                vuid(out, true, "None-04643")?;
                out.write_str("Invalid storage class for target environment")
            }
            E::GenericVariable => out.write_str("Variable storage class cannot be Generic"),
            E::NotFunctionInside => out.write_str(
                "Variables must have a function[7] storage class inside of a function",
            ),
            E::FunctionOutside => out.write_str(
                "Variables can not have a function[7] storage class outside of a function",
            ),
            E::StorageClassMismatch => {
                out.write_str("Storage class must match result type storage class")
            }
            E::LogicalPointerStorage => out.write_str(
                "In Logical addressing, variables can only allocate a pointer to the StorageBuffer or Workgroup storage classes",
            ),
            E::LogicalStorageBufferPointer => out.write_str(
                "In Logical addressing, variables can only allocate a storage buffer pointer if the VariablePointersStorageBuffer capability is declared",
            ),
            E::LogicalWorkgroupPointer => out.write_str(
                "In Logical addressing, variables can only allocate a workgroup pointer if the VariablePointers capability is declared",
            ),
            E::LogicalPointerVariableStorage => out.write_str(
                "In Logical addressing with variable pointers, variables that allocate pointers must be in Function or Private storage classes",
            ),
            E::PushConstantType { variable } => {
                vuid(out, true, "PushConstant-06808")?;
                out.write_str("PushConstant OpVariable <id> ")?;
                id(out, *variable)?;
                out.write_str(
                    " has illegal type.\nFrom Vulkan spec, Push Constant Interface section:\nSuch variables must be typed as OpTypeStruct",
                )
            }
            E::UniformConstantType { variable } => {
                vuid(out, true, "UniformConstant-04655")?;
                out.write_str("UniformConstant OpVariable <id> ")?;
                id(out, *variable)?;
                out.write_str(
                    " has illegal type.\nVariables identified with the UniformConstant storage class are used only as handles to refer to opaque resources. Such variables must be typed as OpTypeImage, OpTypeSampler, OpTypeSampledImage, OpTypeAccelerationStructureKHR, or an array of one of these types.",
                )
            }
            E::UniformType { variable } => {
                vuid(out, true, "Uniform-06807")?;
                out.write_str("Uniform OpVariable <id> ")?;
                id(out, *variable)?;
                out.write_str(
                    " has illegal type.\nFrom Vulkan spec:\nVariables identified with the Uniform storage class are used to access transparent buffer backed resources. Such variables must be typed as OpTypeStruct, or an array of this type",
                )
            }
            E::StorageBufferType { variable } => {
                vuid(out, true, "Uniform-06807")?;
                out.write_str("StorageBuffer OpVariable <id> ")?;
                id(out, *variable)?;
                out.write_str(
                    " has illegal type.\nFrom Vulkan spec:\nVariables identified with the StorageBuffer storage class are used to access transparent buffer backed resources. Such variables must be typed as OpTypeStruct, or an array of this type",
                )
            }
            E::InvariantVariable => {
                vuid(out, true, "Invariant-04677")?;
                out.write_str(
                    "Variable decorated with Invariant must only be identified with the Input or Output storage class in Vulkan environment.",
                )
            }
            E::InvariantMember => {
                vuid(out, true, "Invariant-04677")?;
                out.write_str(
                    "Variable struct member decorated with Invariant must only be identified with the Input or Output storage class in Vulkan environment.",
                )
            }
            E::WorkgroupInitializer { variable } => {
                vuid(out, true, "OpVariable-04734")?;
                out.write_str("OpVariable, <id> ")?;
                id(out, *variable)?;
                out.write_str(", initializers are limited to OpConstantNull in Workgroup storage class")
            }
            E::InitializerStorageClass { variable } => {
                vuid(out, true, "OpVariable-04651")?;
                out.write_str("OpVariable, <id> ")?;
                id(out, *variable)?;
                out.write_str(
                    ", has a disallowed initializer & storage class combination.\nFrom Vulkan spec:\nVariable declarations that include initializers must have one of the following storage classes: Output, Private, Function or Workgroup",
                )
            }
            E::InitializerNotAllowed {
                variable,
                storage_class,
            } => {
                out.write_str("OpVariable, <id> ")?;
                id(out, *variable)?;
                write!(
                    out,
                    ", initializer are not allowed for {}",
                    storage_class_name(*storage_class)
                )
            }
            E::PhysicalStorageBufferVariable => {
                out.write_str("PhysicalStorageBuffer must not be used with OpVariable.")
            }
            E::RuntimeArrayVariable { variable } => {
                vuid(out, true, "OpTypeRuntimeArray-04680")?;
                out.write_str("OpVariable, <id> ")?;
                id(out, *variable)?;
                out.write_str(
                    ", is attempting to create memory for an illegal type, OpTypeRuntimeArray.\nFor Vulkan OpTypeRuntimeArray can only appear as the final member of an OpTypeStruct, thus cannot be instantiated via OpVariable",
                )
            }
            E::RuntimeArrayStorage => {
                vuid(out, true, "OpTypeRuntimeArray-04680")?;
                out.write_str(
                    "For Vulkan with RuntimeDescriptorArrayEXT, a variable containing OpTypeRuntimeArray must have storage class of StorageBuffer, Uniform, or UniformConstant.",
                )
            }
            E::RuntimeArrayBlock => {
                vuid(out, true, "OpTypeRuntimeArray-04680")?;
                out.write_str(
                    "For Vulkan, an OpTypeStruct variable containing an OpTypeRuntimeArray must be decorated with Block if it has storage class StorageBuffer or PhysicalStorageBuffer.",
                )
            }
            E::RuntimeArrayStructStorage => {
                vuid(out, true, "OpTypeRuntimeArray-04680")?;
                out.write_str(
                    "For Vulkan, OpTypeStruct variables containing OpTypeRuntimeArray must have storage class of StorageBuffer, PhysicalStorageBuffer, or Uniform.",
                )
            }
            E::CooperativeMatrixStorage => out.write_str(
                "Cooperative matrix types (or types containing them) can only be allocated in Function or Private storage classes or as function parameters",
            ),
            E::CooperativeVectorStorage => out.write_str(
                "Cooperative vector types (or types containing them) can only be allocated in Function or Private storage classes or as function parameters",
            ),
            E::NarrowStorageClass {
                bits,
                storage_class,
            } => write!(
                out,
                "Cannot allocate a variable containing a {bits}-bit type in {} storage class",
                storage_class_name(*storage_class)
            ),
            E::NarrowNeedsCapability {
                bits,
                storage_class,
            } => write!(
                out,
                "Allocating a variable containing a {bits}-bit element in {} storage class requires an additional capability",
                storage_class_name(*storage_class)
            ),
            E::NotLogicalPointer { opcode, pointer } => {
                write!(out, "Op{} Pointer <id> ", opcode_name(*opcode))?;
                id(out, *pointer)?;
                out.write_str(" is not a logical pointer.")
            }
            E::PointerType { opcode, pointer } => {
                write!(out, "Op{} type for pointer <id> ", opcode_name(*opcode))?;
                id(out, *pointer)?;
                out.write_str(" is not a pointer type.")
            }
            E::LoadType { ty, pointer } => {
                out.write_str("OpLoad Result Type <id> ")?;
                id(out, *ty)?;
                out.write_str(" does not match Pointer <id> ")?;
                id(out, *pointer)?;
                out.write_str("s type.")
            }
            E::LoadRuntimeArray => out.write_str("Cannot load a runtime-sized array"),
            E::NarrowLoad => {
                out.write_str("8- or 16-bit loads must be a scalar, vector or matrix type")
            }
            E::StoreVoidPointer { pointer } => {
                out.write_str("OpStore Pointer <id> ")?;
                id(out, *pointer)?;
                out.write_str("s type is void.")
            }
            E::StoreReadOnly { pointer } => {
                out.write_str("OpStore Pointer <id> ")?;
                id(out, *pointer)?;
                out.write_str(" storage class is read-only")
            }
            E::StoreShaderRecord => {
                out.write_str("ShaderRecordBufferKHR Storage Class variables are read only")
            }
            E::StoreUniformBlock { vulkan } => {
                vuid(out, *vulkan, "Uniform-06925")?;
                out.write_str("In the Vulkan environment, cannot store to Uniform Blocks")
            }
            E::StoreNotObject { object } => {
                out.write_str("OpStore Object <id> ")?;
                id(out, *object)?;
                out.write_str(" is not an object.")
            }
            E::StoreVoidObject { object } => {
                out.write_str("OpStore Object <id> ")?;
                id(out, *object)?;
                out.write_str("s type is void.")
            }
            E::StoreType { pointer, object } | E::StoreLayout { pointer, object } => {
                out.write_str("OpStore Pointer <id> ")?;
                id(out, *pointer)?;
                let what = match self {
                    E::StoreType { .. } => "type",
                    _ => "layout",
                };
                write!(out, "s {what} does not match Object <id> ")?;
                id(out, *object)?;
                write!(out, "s {what}.")
            }
            E::StoreOpaque { vulkan } => {
                vuid(out, *vulkan, "OpTypeImage-06924")?;
                out.write_str(
                    "Cannot store to OpTypeImage, OpTypeSampler, OpTypeSampledImage, or OpTypeAccelerationStructureKHR objects",
                )
            }
            E::CopyNotPointer { operand, id: i } | E::CopyVoidPointer { operand, id: i } => {
                out.write_str(match operand {
                    CopyOperand::Target => "Target operand <id> ",
                    CopyOperand::Source => "Source operand <id> ",
                })?;
                id(out, *i)?;
                out.write_str(match self {
                    E::CopyNotPointer { .. } => " is not a pointer.",
                    _ => " cannot be a void pointer.",
                })
            }
            E::CopyType {
                source,
                source_type,
            } => {
                out.write_str("Target <id> ")?;
                id(out, *source)?;
                out.write_str("s type does not match Source <id> ")?;
                id(out, *source_type)?;
                out.write_str("s type.")
            }
            E::CopyUntyped => out.write_str("One of Source or Target must be a typed pointer"),
            E::SizeNotInt { size } | E::SizeZero { size } | E::SizeNegative { size } => {
                out.write_str("Size operand <id> ")?;
                id(out, *size)?;
                out.write_str(match self {
                    E::SizeNotInt { .. } => " must be a scalar integer type.",
                    E::SizeZero { .. } => " cannot be a constant zero.",
                    _ => " cannot have the sign bit set to 1.",
                })
            }
            E::SizeMultiple { of } => write!(out, "Size must be a multiple of {of}"),
            E::CopyNarrow => {
                out.write_str("Cannot copy memory of objects containing 8- or 16-bit types")
            }
            _ => super::memory_text_chain::write(self, out, names),
        }
    }

    /// The ids the message names, in order.
    pub(super) fn ids(&self) -> Vec<Id> {
        use MemoryError as E;
        match self {
            E::VariableResultType { ty: a }
            | E::InitializerNotConstant { initializer: a }
            | E::PushConstantType { variable: a }
            | E::UniformConstantType { variable: a }
            | E::UniformType { variable: a }
            | E::StorageBufferType { variable: a }
            | E::WorkgroupInitializer { variable: a }
            | E::InitializerStorageClass { variable: a }
            | E::InitializerNotAllowed { variable: a, .. }
            | E::RuntimeArrayVariable { variable: a }
            | E::NotLogicalPointer { pointer: a, .. }
            | E::PointerType { pointer: a, .. }
            | E::StoreVoidPointer { pointer: a }
            | E::StoreReadOnly { pointer: a }
            | E::StoreNotObject { object: a }
            | E::StoreVoidObject { object: a }
            | E::CopyNotPointer { id: a, .. }
            | E::CopyVoidPointer { id: a, .. }
            | E::SizeNotInt { size: a }
            | E::SizeZero { size: a }
            | E::SizeNegative { size: a }
            | E::ChainResultType { id: a, .. }
            | E::BaseNotPointer { base: a, .. }
            | E::StructIndexNotConstant { index: a, .. }
            | E::ArrayLengthResultType { id: a, .. }
            | E::ArrayLengthNotStruct { id: a, .. }
            | E::ArrayLengthLastMember { id: a, .. }
            | E::ArrayLengthMember { id: a, .. }
            | E::CooperativeLengthResultType { id: a, .. }
            | E::CooperativeLengthType { ty: a, .. }
            | E::NotCooperativeMatrix { ty: a, .. }
            | E::CooperativeNotLogical { pointer: a, .. }
            | E::CooperativePointerType { pointer: a, .. }
            | E::CooperativeStorageClass { ty: a, .. }
            | E::CooperativePointee { pointer: a, .. }
            | E::StrideNotInt { stride: a }
            | E::ColumnMajor { id: a }
            | E::MemoryLayoutOperand { id: a }
            | E::RawChainStorageClass { id: a }
            | E::RawChainPointee { id: a }
            | E::RawStrideNotConstant { id: a, .. }
            | E::RawOperandNotInt { id: a, .. }
            | E::RawOperandWidth { id: a, .. } => Vec::from([*a]),
            E::LoadType { ty: a, pointer: b }
            | E::StoreType {
                pointer: a,
                object: b,
            }
            | E::StoreLayout {
                pointer: a,
                object: b,
            }
            | E::CopyType {
                source: a,
                source_type: b,
            }
            | E::StructIndexOutOfBounds {
                index: a,
                structure: b,
                ..
            } => Vec::from([*a, *b]),
            _ => Vec::new(),
        }
    }
}
