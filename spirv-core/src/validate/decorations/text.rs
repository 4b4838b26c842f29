//! spirv-val's message for each [`DecorationError`], word for word.

use super::super::error::{Namer, Out, opcode_name};
use super::error::{
    DecorationError, Missing, buffer_class_name, decoration_name, storage_class_name, vuid,
};
use crate::spv;
use core::fmt;

fn member_text(out: &mut dyn Out, id: u32, member: Option<u32>) -> fmt::Result {
    match member {
        Some(m) => write!(out, "ID '{id}', member '{m}' decorated with "),
        None => write!(out, "ID '{id}' decorated with "),
    }
}

const FP_ROUNDING_STORE: &str =
    "FPRoundingMode decoration can be applied only to the Object operand of an OpStore";

impl DecorationError {
    /// spirv-val's message.
    pub(in super::super) fn write(&self, out: &mut dyn Out, names: &Namer<'_>) -> fmt::Result {
        use DecorationError as E;
        let dec = decoration_name;
        match self {
            E::TargetNotDefined => out.write_str("target is not defined"),
            E::GlslLayoutInVulkan { decoration } => write!(
                out,
                "{}OpDecorate decoration '{}' is not valid for the Vulkan execution environment.",
                vuid(4669),
                dec(*decoration)
            ),
            E::FastMathAndNoContraction => {
                out.write_str("FPFastMathMode and NoContraction cannot decorate the same target")
            }
            E::AllowTransform => out.write_str(
                "AllowReassoc and AllowContract must be specified when AllowTransform is specified",
            ),
            E::IdDecorationInDecorate => {
                out.write_str("Decorations taking ID parameters may not be used with OpDecorateId")
            }
            E::MemberOnly { decoration } => write!(
                out,
                "{} can only be applied to structure members",
                dec(*decoration)
            ),
            E::Target {
                decoration,
                target,
                rule,
            } => {
                write!(
                    out,
                    "{}{} decoration on target <id> ",
                    vuid(rule.vuid()),
                    dec(*decoration)
                )?;
                names.id(out, *target)?;
                write!(out, " {}", rule.text())
            }
            E::BuiltInTarget => {
                out.write_str("BuiltIns can only target variables, structure members or constants")
            }
            E::LocationStorageClass { decoration } => write!(
                out,
                "{}{} decoration must not be applied to this storage class",
                vuid(6672),
                dec(*decoration)
            ),
            E::DecorateIdOnGroup { target } => {
                out.write_str("OpMemberDecorate Target <id> ")?;
                names.id(out, *target)?;
                out.write_str(" must not be an OpDecorationGroup instruction.")
            }
            E::NotIdDecoration => out.write_str(
                "Decorations that don't take ID parameters may not be used with OpDecorateId",
            ),
            E::ParameterAfterTarget { parameter } => {
                out.write_str("Parameter <ID> ")?;
                names.id(out, *parameter)?;
                out.write_str(" must appear earlier in the binary than the target")
            }
            E::NotStruct { opcode, id } => {
                write!(out, "Op{} Structure type <id> ", opcode_name(*opcode))?;
                names.id(out, *id)?;
                out.write_str(" is not a struct type.")
            }
            E::MemberOutOfBounds {
                opcode,
                index,
                id,
                count,
            } => {
                write!(
                    out,
                    "Index {index} provided in Op{} for struct <id> ",
                    opcode_name(*opcode)
                )?;
                names.id(out, *id)?;
                write!(
                    out,
                    " is out of bounds. The structure has {count} members. Largest valid index is {}.",
                    count.wrapping_sub(1)
                )
            }
            E::NotMemberDecoration { decoration } => write!(
                out,
                "{} cannot be applied to structure members",
                dec(*decoration)
            ),
            E::GroupUse => out.write_str(
                "Result id of OpDecorationGroup can only be targeted by OpName, OpGroupDecorate, \
                 OpDecorate, OpDecorateId, and OpGroupMemberDecorate",
            ),
            E::NotGroup { opcode, id } => {
                write!(out, "Op{} Decoration group <id> ", opcode_name(*opcode))?;
                names.id(out, *id)?;
                out.write_str(" is not a decoration group.")
            }
            E::GroupTargetsGroup { id } => {
                out.write_str("OpGroupDecorate may not target OpDecorationGroup <id> ")?;
                names.id(out, *id)
            }
            E::ImportedVariableInitialized => out.write_str(
                "A module-scope OpVariable with initialization value cannot be marked with the \
                 Import Linkage Type.",
            ),
            E::DeclarationWithoutImport { function } => write!(
                out,
                "Function declaration (id {function}) must have a LinkageAttributes decoration \
                 with the Import Linkage type."
            ),
            E::DefinitionWithImport { function } => write!(
                out,
                "Function definition (id {function}) may not be decorated with Import Linkage type."
            ),
            E::EntryPointLinkage { name, function } => write!(
                out,
                "The LinkageAttributes Decoration (Linkage name: {name}) cannot be applied to \
                 function id {function} because it is targeted by an OpEntryPoint instruction."
            ),
            E::InterfaceNotVariable { opcode } => write!(
                out,
                "Interfaces passed to OpEntryPoint must be variables. Found Op{}.",
                opcode_name(*opcode)
            ),
            E::TaskPayloadTwice => out.write_str(
                "There can be at most one OpVariable with storage class TaskPayloadWorkgroupEXT \
                 associated with an OpEntryPoint",
            ),
            E::InterfaceFunctionVariable => out.write_str(
                "In SPIR-V 1.4 or later, OpEntryPoint interfaces should only list global variables",
            ),
            E::InterfaceTwice { id } => {
                out.write_str("In SPIR-V 1.4 or later, non-unique OpEntryPoint interface ")?;
                names.id(out, *id)?;
                out.write_str(" is disallowed")
            }
            E::InterfaceStorageClass {
                storage_class,
                entry_point,
            } => write!(
                out,
                "In SPIR-V 1.3 or earlier, OpEntryPoint interfaces must be OpVariables with \
                 Storage Class of Input(1) or Output(3). Found Storage Class {storage_class} for \
                 Entry Point id {entry_point}."
            ),
            E::DuplicateBuiltIn { output, builtin } => write!(
                out,
                "{}OpEntryPoint contains duplicate {} variables with {} builtin",
                vuid(if *output { 9659 } else { 9658 }),
                if *output { "output" } else { "input" },
                spv::kinds::BuiltIn
                    .enumerant(*builtin)
                    .map_or("Unknown", |e| e.name)
            ),
            E::BuiltInWithLocation { variable } => write!(
                out,
                "{}A BuiltIn variable (id {variable}) cannot have any Location or Component \
                 decorations",
                vuid(4915)
            ),
            E::BuiltInStructNotBlock { vulkan } => write!(
                out,
                "{}Interface struct has no Block decoration but has BuiltIn members. Location \
                 decorations must be used on each member of OpVariable with a structure type \
                 that is a block not decorated with Location.",
                if *vulkan { vuid(4919) } else { "" }
            ),
            E::BuiltInBlocks { entry_point } => write!(
                out,
                "There must be at most one object per Storage Class that can contain a structure \
                 type containing members decorated with BuiltIn, consumed per entry-point. Entry \
                 Point id {entry_point} does not meet this requirement."
            ),
            E::UntypedWorkgroupNotBlock { is_struct } => write!(
                out,
                "Untyped workgroup variables in shaders must be block decorated{}",
                if *is_struct { "" } else { " structs" }
            ),
            E::InterpolationStage {
                decoration,
                output,
                entry_point,
            } => {
                let (v, stage, class) = if *output {
                    (6201, "fragment", "Output")
                } else {
                    (6202, "vertex", "Input")
                };
                write!(
                    out,
                    "{}{} decorated variable must not be used in {stage} execution model as an \
                     {class} storage class for Entry Point id {entry_point}.",
                    vuid(v),
                    dec(*decoration)
                )
            }
            E::FragmentInputNotFlat {
                interface,
                entry_point,
            } => write!(
                out,
                "{}Fragment OpEntryPoint operand {interface} with Input interfaces with integer or \
                 float type must have a Flat decoration for Entry Point id {entry_point}.",
                vuid(4744)
            ),
            E::WorkgroupBlockMix { entry_point } => write!(
                out,
                "When declaring WorkgroupMemoryExplicitLayoutKHR, either all or none of the \
                 Workgroup Storage Class variables in the entry point interface must point to \
                 struct types decorated with Block (unless the UntypedPointersKHR capability is \
                 declared).  Entry point id {entry_point} does not meet this requirement."
            ),
            E::WorkgroupBlockAliased { entry_point } => write!(
                out,
                "When declaring WorkgroupMemoryExplicitLayoutKHR, if more than one Workgroup \
                 Storage Class variable in the entry point interface point to a type decorated \
                 with Block, all of them must be decorated with Aliased (unless the \
                 UntypedPointerWorkgroupKHR capability is declared). Entry point id \
                 {entry_point} does not meet this requirement."
            ),
            E::WorkgroupBlockWithoutCapability => out.write_str(
                "Workgroup Storage Class variables can't be decorated with Block unless declaring \
                 the WorkgroupMemoryExplicitLayoutKHR capability.",
            ),
            E::PushConstantTwice { entry_point } => write!(
                out,
                "{}Entry point id '{entry_point}' uses more than one PushConstant interface.\n\
                 From Vulkan spec:\nThere must be no more than one push constant block \
                 statically used per shader entry point.",
                vuid(6674)
            ),
            E::GlBindingMissing {
                storage_class,
                variable,
            } => write!(
                out,
                "{} id '{variable}' is missing Binding decoration.\nFrom ARB_gl_spirv \
                 extension:\nUniform and shader storage block variables must also be decorated \
                 with a *Binding*.",
                buffer_class_name(*storage_class)
            ),
            E::StorageBufferBufferBlock { variable } => write!(
                out,
                "{}Storage buffer id '{variable} In Vulkan, BufferBlock is disallowed on \
                 variables in the StorageBuffer storage class",
                vuid(6675)
            ),
            E::MissingBlock { storage_class, id } => {
                let (v, what) = match spv::StorageClass(*storage_class) {
                    spv::StorageClass::Uniform => (6676, "Block or BufferBlock"),
                    _ => (6675, "Block"),
                };
                write!(
                    out,
                    "{}{} id '{id}' is missing {what} decoration.\nFrom Vulkan spec:\nSuch \
                     variables must be identified with a {what} decoration",
                    vuid(v),
                    buffer_class_name(*storage_class)
                )
            }
            E::MissingDescriptor {
                storage_class,
                variable,
                binding,
            } => {
                let class = match spv::StorageClass(*storage_class) {
                    spv::StorageClass::Uniform => "Uniform",
                    spv::StorageClass::UniformConstant => "UniformConstant",
                    _ => "StorageBuffer",
                };
                write!(
                    out,
                    "{}{class} id '{variable}' is missing {} decoration.\nFrom Vulkan spec:\n\
                     These variables must have DescriptorSet and Binding decorations specified",
                    vuid(6677),
                    if *binding { "Binding" } else { "DescriptorSet" }
                )
            }
            E::NotExplicitlyLaidOut {
                id,
                buffer_block,
                missing,
            } => write!(
                out,
                "Structure id {id} decorated as {} must be explicitly laid out with {} \
                 decorations.",
                if *buffer_block {
                    "BufferBlock"
                } else {
                    "Block"
                },
                match missing {
                    Missing::Offset => "Offset",
                    Missing::ArrayStride => "ArrayStride",
                    Missing::MatrixStride => "MatrixStride",
                    Missing::Majorness => "RowMajor or ColMajor",
                }
            ),
            E::Layout(fault) => fault.write(out),
            E::RuntimeArrayNotLast { vulkan, id, offset } => write!(
                out,
                "{}Structure id {id} has a runtime array at offset {offset}, but other members at \
                 larger offsets",
                if *vulkan { vuid(4680) } else { "" }
            ),
            E::InvalidExplicitLayout {
                id,
                storage_class,
                decoration,
            } => {
                write!(
                    out,
                    "{}Invalid explicit layout decorations on type for operand ",
                    vuid(10684)
                )?;
                names.id(out, *id)?;
                write!(
                    out,
                    ", the {} storage class has a explicit layout from the {} decoration.",
                    storage_class_name(*storage_class),
                    dec(*decoration)
                )
            }
            E::Repeated {
                id,
                member,
                decoration,
            } => {
                member_text(out, *id, *member)?;
                write!(out, "{} multiple times is not allowed.", dec(*decoration))
            }
            E::Exclusive {
                id,
                member,
                decoration,
                other,
            } => {
                match member {
                    Some(m) => write!(out, "ID '{id}', member '{m}' decorated with both ")?,
                    None => write!(out, "ID '{id}' decorated with both ")?,
                }
                write!(
                    out,
                    "{} and {} is not allowed.",
                    dec(*decoration),
                    dec(*other)
                )
            }
            E::VulkanMemoryModelDeprecated {
                coherent,
                id,
                member,
            } => {
                out.write_str(if *coherent { "Coherent" } else { "Volatile" })?;
                out.write_str(" decoration targeting ")?;
                names.id(out, *id)?;
                if let Some(m) = member {
                    write!(out, " (member index {m})")?;
                }
                out.write_str(" is banned when using the Vulkan memory model.")
            }
            E::ComponentTarget => out.write_str(
                "Target of Component decoration must be a memory object declaration (a variable \
                 or a function parameter)",
            ),
            E::ComponentStorageClass { storage_class } => write!(
                out,
                "Target of Component decoration is invalid: must point to a Storage Class of \
                 Input(1) or Output(3). Found Storage Class {storage_class}"
            ),
            E::MemberOfNonStruct => out.write_str(
                "Attempted to get underlying data type via member index for non-struct type.",
            ),
            E::ComponentType { id } => {
                write!(
                    out,
                    "{}Component decoration specified for type ",
                    vuid(10583)
                )?;
                names.id(out, *id)?;
                out.write_str(" that is not a scalar or vector")
            }
            E::ComponentTooLarge => write!(
                out,
                "{}Component decoration value must not be greater than 3",
                vuid(4920)
            ),
            E::ComponentSequence { wide, first, last } => write!(
                out,
                "{}Sequence of components starting with {first} and ending with {last} gets \
                 larger than 3",
                vuid(if *wide { 4922 } else { 4921 })
            ),
            E::Component64Vector => write!(
                out,
                "{}Component decoration only allowed on 64-bit scalar and 2-component vector",
                vuid(7703)
            ),
            E::Component64Odd => write!(
                out,
                "{}Component decoration value must not be 1 or 3 for 64-bit data types",
                vuid(4923)
            ),
            E::RoundingTarget => out.write_str(
                "FPRoundingMode decoration can be applied only to a width-only conversion \
                 instruction for floating-point object.",
            ),
            E::RoundingModeInVulkan => write!(
                out,
                "{}In Vulkan, the FPRoundingMode mode must only by RTE or RTZ.",
                vuid(4675)
            ),
            E::RoundingUse => write!(out, "{FP_ROUNDING_STORE}."),
            E::RoundingStoreType => write!(
                out,
                "{FP_ROUNDING_STORE} storing through a pointer to a 16-bit floating-point scalar \
                 or vector object."
            ),
            E::RoundingStoreClass => write!(
                out,
                "{FP_ROUNDING_STORE} in the StorageBuffer, PhysicalStorageBuffer, Uniform, \
                 PushConstant, Input, or Output Storage Classes."
            ),
            E::AccessTarget { writable } => write!(
                out,
                "Target of {} decoration must be a memory object declaration (a variable or a \
                 function parameter)",
                if *writable {
                    "NonWritable"
                } else {
                    "NonReadable"
                }
            ),
            E::AccessInvalid {
                writable,
                private_allowed,
            } => write!(
                out,
                "Target of {} decoration is invalid: must point to a storage image, tensor \
                 variable in UniformConstant storage class, uniform block, {}",
                if *writable {
                    "NonWritable"
                } else {
                    "NonReadable"
                },
                if *private_allowed && *writable {
                    "storage buffer, or variable in Private or Function storage class"
                } else {
                    "or storage buffer"
                }
            ),
            E::UniformNonObject { id_form } => write!(
                out,
                "{} decoration applied to a non-object",
                uniform_name(*id_form)
            ),
            E::UniformVoid { id_form } => write!(
                out,
                "{} decoration applied to a value with void type",
                uniform_name(*id_form)
            ),
            E::UniformInvalidType { id_form } => write!(
                out,
                "{} decoration applied to an object with invalid type",
                uniform_name(*id_form)
            ),
            E::IntegerWrap { signed, opcode } => write!(
                out,
                "{} decoration may not be applied to {}",
                if *signed {
                    "NoSignedWrap"
                } else {
                    "NoUnsignedWrap"
                },
                opcode_name(*opcode)
            ),
            E::BlockNotStruct { buffer_block } => write!(
                out,
                "{} decoration on a non-struct type.",
                if *buffer_block {
                    "BufferBlock"
                } else {
                    "Block"
                }
            ),
            E::LocationTarget => out.write_str(
                "Location decoration can only be applied to a variable or member of a structure \
                 type",
            ),
            E::RelaxedPrecisionType => {
                out.write_str("RelaxPrecision decoration cannot be applied to a type")
            }
        }
    }
}

fn uniform_name(id_form: bool) -> &'static str {
    if id_form { "UniformId" } else { "Uniform" }
}
