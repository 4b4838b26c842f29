//! The faults of spirv-val's annotation pass and decoration rules
//! (`validate_annotation.cpp`, `validate_decorations.cpp`), with what each involves;
//! their messages are in `text.rs`.

use crate::__private::{String, Vec};
use crate::spv;
use crate::types::Id;

/// A fault of spirv-val's annotation pass, decoration and block-layout rules, with
/// what it involves. Decorations, built-ins and storage classes are their values;
/// messages name them by the grammar.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecorationError {
    // --- The annotation pass: each decorating instruction. ---
    /// `OpDecorate` of an undefined id.
    TargetNotDefined,
    /// `GLSLShared` or `GLSLPacked` under Vulkan.
    GlslLayoutInVulkan {
        /// The decoration.
        decoration: u32,
    },
    /// `FPFastMathMode` and `NoContraction` on one id.
    FastMathAndNoContraction,
    /// `FPFastMathMode` with `AllowTransform` but not both `AllowReassoc` and
    /// `AllowContract`.
    AllowTransform,
    /// A decoration taking ids used with `OpDecorate`.
    IdDecorationInDecorate,
    /// `RowMajor`, `ColMajor` or `MatrixStride` on an id.
    MemberOnly {
        /// The decoration.
        decoration: u32,
    },
    /// A decoration on a target it does not apply to.
    Target {
        /// The decoration.
        decoration: u32,
        /// The target.
        target: Id,
        /// What the target must be.
        rule: TargetRule,
    },
    /// `BuiltIn` on something that is no variable or constant.
    BuiltInTarget,
    /// `Location` or `Component` on a variable of another storage class than those
    /// with locations (Vulkan; reported at the target).
    LocationStorageClass {
        /// The decoration.
        decoration: u32,
    },
    /// `OpDecorateId` of a decoration group.
    DecorateIdOnGroup {
        /// The group.
        target: Id,
    },
    /// A decoration without id parameters used with `OpDecorateId`.
    NotIdDecoration,
    /// An `OpDecorateId` parameter defined at or after the target.
    ParameterAfterTarget {
        /// The parameter.
        parameter: Id,
    },
    /// `OpMemberDecorate` or `OpGroupMemberDecorate` of something that is no struct.
    NotStruct {
        /// `OpMemberDecorate` or `OpGroupMemberDecorate`.
        opcode: spv::Opcode,
        /// The id.
        id: Id,
    },
    /// A member index past the struct's members.
    MemberOutOfBounds {
        /// `OpMemberDecorate` or `OpGroupMemberDecorate`.
        opcode: spv::Opcode,
        /// The index.
        index: u32,
        /// The struct.
        id: Id,
        /// Its member count.
        count: u32,
    },
    /// A decoration that does not apply to members, on a member.
    NotMemberDecoration {
        /// The decoration.
        decoration: u32,
    },
    /// A decoration group used by another instruction than those decorating.
    GroupUse,
    /// `OpGroupDecorate` or `OpGroupMemberDecorate` of something that is no group.
    NotGroup {
        /// `OpGroupDecorate` or `OpGroupMemberDecorate`.
        opcode: spv::Opcode,
        /// The id.
        id: Id,
    },
    /// `OpGroupDecorate` targeting a group (or an undefined id).
    GroupTargetsGroup {
        /// The target.
        id: Id,
    },

    // --- Linkage. ---
    /// An imported module-scope variable with an initializer.
    ImportedVariableInitialized,
    /// A function declaration without the Import linkage type.
    DeclarationWithoutImport {
        /// The function.
        function: u32,
    },
    /// A function definition with the Import linkage type.
    DefinitionWithImport {
        /// The function.
        function: u32,
    },
    /// `LinkageAttributes` on an entry point.
    EntryPointLinkage {
        /// The linkage name.
        name: String,
        /// The function.
        function: u32,
    },

    // --- Entry points' interfaces. ---
    /// An interface id that is no variable.
    InterfaceNotVariable {
        /// What defines it.
        opcode: spv::Opcode,
    },
    /// Two `TaskPayloadWorkgroupEXT` variables in one entry point's interfaces.
    TaskPayloadTwice,
    /// A `Function` variable in an interface (SPIR-V 1.4 and later).
    InterfaceFunctionVariable,
    /// A variable listed twice (SPIR-V 1.4 and later).
    InterfaceTwice {
        /// The variable.
        id: Id,
    },
    /// An interface neither Input nor Output (SPIR-V 1.3 and earlier).
    InterfaceStorageClass {
        /// Its storage class.
        storage_class: u32,
        /// The entry point.
        entry_point: u32,
    },
    /// Two Input (or Output) interfaces with the same built-in (Vulkan).
    DuplicateBuiltIn {
        /// Output, not Input.
        output: bool,
        /// The built-in.
        builtin: u32,
    },
    /// A built-in variable with a `Location` or `Component` (Vulkan).
    BuiltInWithLocation {
        /// The variable.
        variable: u32,
    },
    /// An interface struct with built-in members but no `Block`.
    BuiltInStructNotBlock {
        /// Under Vulkan (spirv-val then names the VUID).
        vulkan: bool,
    },
    /// Two interface blocks with built-in members in one storage class.
    BuiltInBlocks {
        /// The entry point.
        entry_point: u32,
    },
    /// An untyped Workgroup variable of a type that is no `Block` struct (shaders).
    UntypedWorkgroupNotBlock {
        /// Its type is a struct.
        is_struct: bool,
    },
    /// `Flat`, `NoPerspective`, `Sample` or `Centroid` on a vertex input or a fragment
    /// output (Vulkan).
    InterpolationStage {
        /// The decoration.
        decoration: u32,
        /// A fragment output, not a vertex input.
        output: bool,
        /// The entry point.
        entry_point: u32,
    },
    /// An integer or 64-bit float fragment input without `Flat` (Vulkan).
    FragmentInputNotFlat {
        /// The interface.
        interface: u32,
        /// The entry point.
        entry_point: u32,
    },
    /// Some but not all Workgroup interfaces are `Block` structs.
    WorkgroupBlockMix {
        /// The entry point.
        entry_point: u32,
    },
    /// Several Workgroup `Block` interfaces, not all `Aliased`.
    WorkgroupBlockAliased {
        /// The entry point.
        entry_point: u32,
    },
    /// A Workgroup `Block` interface without `WorkgroupMemoryExplicitLayoutKHR`.
    WorkgroupBlockWithoutCapability,

    // --- Buffers and resources. ---
    /// An entry point using two push constants (Vulkan).
    PushConstantTwice {
        /// The entry point.
        entry_point: u32,
    },
    /// A used uniform or storage block without `Binding` (OpenGL).
    GlBindingMissing {
        /// The variable's storage class.
        storage_class: u32,
        /// The variable.
        variable: u32,
    },
    /// A StorageBuffer variable of a `BufferBlock` type (Vulkan).
    StorageBufferBufferBlock {
        /// The variable.
        variable: u32,
    },
    /// A PushConstant, StorageBuffer or Uniform variable's type without `Block` (or,
    /// for Uniform, `BufferBlock`) (Vulkan).
    MissingBlock {
        /// The storage class.
        storage_class: u32,
        /// The type.
        id: u32,
    },
    /// A resource variable without `DescriptorSet` or `Binding` (Vulkan).
    MissingDescriptor {
        /// The storage class.
        storage_class: u32,
        /// The variable.
        variable: u32,
        /// `Binding` missing, not `DescriptorSet`.
        binding: bool,
    },
    /// A block without the explicit layout decorations it needs.
    NotExplicitlyLaidOut {
        /// The struct.
        id: u32,
        /// `BufferBlock`, not `Block`.
        buffer_block: bool,
        /// The decorations missing.
        missing: Missing,
    },
    /// A block that breaks its layout rules.
    Layout(super::block_layout::LayoutFault),
    /// A runtime array before other members (by offset).
    RuntimeArrayNotLast {
        /// Under Vulkan (spirv-val then names the VUID).
        vulkan: bool,
        /// The struct.
        id: u32,
        /// The array's offset.
        offset: u32,
    },
    /// Explicit layout decorations on a type of a storage class without explicit layout
    /// (Vulkan).
    InvalidExplicitLayout {
        /// The operand.
        id: Id,
        /// The storage class.
        storage_class: u32,
        /// The decoration giving the layout.
        decoration: u32,
    },

    // --- Decorations on one id. ---
    /// A decoration twice on an id or member.
    Repeated {
        /// The id.
        id: u32,
        /// The member, if on one.
        member: Option<u32>,
        /// The decoration.
        decoration: u32,
    },
    /// Two mutually exclusive decorations on an id or member.
    Exclusive {
        /// The id.
        id: u32,
        /// The member, if on one.
        member: Option<u32>,
        /// The decoration registered second.
        decoration: u32,
        /// The one it excludes.
        other: u32,
    },
    /// `Coherent` or `Volatile` under the Vulkan memory model.
    VulkanMemoryModelDeprecated {
        /// `Coherent`, not `Volatile`.
        coherent: bool,
        /// The target.
        id: Id,
        /// The member, if on one.
        member: Option<u32>,
    },
    /// `Component` on something that is no variable or parameter.
    ComponentTarget,
    /// `Component` on a variable neither Input nor Output.
    ComponentStorageClass {
        /// The storage class.
        storage_class: u32,
    },
    /// A member decoration on something that is no struct.
    MemberOfNonStruct,
    /// `Component` on a type that is no scalar or vector (Vulkan).
    ComponentType {
        /// The type.
        id: Id,
    },
    /// `Component` above 3 (Vulkan).
    ComponentTooLarge,
    /// Components past the fourth (Vulkan).
    ComponentSequence {
        /// 64-bit components.
        wide: bool,
        /// The first component.
        first: u32,
        /// The last.
        last: u32,
    },
    /// `Component` on a 64-bit vector of more than two components (Vulkan).
    Component64Vector,
    /// `Component` 1 or 3 on 64-bit data (Vulkan).
    Component64Odd,
    /// `FPRoundingMode` on something that is no `OpFConvert`.
    RoundingTarget,
    /// `FPRoundingMode` other than RTE or RTZ (Vulkan).
    RoundingModeInVulkan,
    /// `FPRoundingMode` on a value used other than as an `OpStore`'s object.
    RoundingUse,
    /// … stored through a pointer to something other than 16-bit floats.
    RoundingStoreType,
    /// … stored to another storage class.
    RoundingStoreClass,
    /// `NonWritable` or `NonReadable` on something that is no variable or parameter.
    AccessTarget {
        /// `NonWritable`, not `NonReadable`.
        writable: bool,
    },
    /// `NonWritable` or `NonReadable` on a variable that is no image, tensor or buffer.
    AccessInvalid {
        /// `NonWritable`, not `NonReadable`.
        writable: bool,
        /// Private and Function variables may be (SPIR-V 1.4).
        private_allowed: bool,
    },
    /// `Uniform` or `UniformId` on something without a type.
    UniformNonObject {
        /// `UniformId`.
        id_form: bool,
    },
    /// `Uniform` or `UniformId` on a void value.
    UniformVoid {
        /// `UniformId`.
        id_form: bool,
    },
    /// `Uniform` or `UniformId` on a value whose type is undefined.
    UniformInvalidType {
        /// `UniformId`.
        id_form: bool,
    },
    /// `NoSignedWrap` or `NoUnsignedWrap` on an instruction that does not wrap.
    IntegerWrap {
        /// `NoSignedWrap`.
        signed: bool,
        /// The instruction.
        opcode: spv::Opcode,
    },
    /// `Block` or `BufferBlock` on something that is no struct.
    BlockNotStruct {
        /// `BufferBlock`.
        buffer_block: bool,
    },
    /// `Location` on something that is no variable or struct member.
    LocationTarget,
    /// `RelaxedPrecision` on a type.
    RelaxedPrecisionType,
}

/// What the target of a decoration must be (the tail of spirv-val's message).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TargetRule {
    /// `SpecId`.
    ScalarSpecConstant,
    /// `Block`, `BufferBlock`, `GLSLShared`, `GLSLPacked`, `CPacked`.
    StructureType,
    /// `ArrayStride`.
    ArrayOrPointer,
    /// `BuiltIn WorkgroupSize` in shaders.
    ConstantForWorkgroupSize,
    /// `BuiltIn` and the variable-only decorations.
    Variable,
    /// The memory-object decorations.
    MemoryObject,
    /// … whose type must be a pointer.
    PointerType,
    /// `Index` (Vulkan).
    OutputClass,
    /// `Binding`, `DescriptorSet` (Vulkan).
    DescriptorClass,
    /// `InputAttachmentIndex` (Vulkan).
    UniformConstantClass,
    /// `Flat`, `NoPerspective`, `Centroid`, `Sample` (Vulkan).
    InputOrOutput,
    /// `PerVertexKHR` (Vulkan).
    InputClass,
}

/// The explicit layout decorations a block lacks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Missing {
    /// `Offset` on a member.
    Offset,
    /// `ArrayStride` on an array member.
    ArrayStride,
    /// `MatrixStride` on a matrix member.
    MatrixStride,
    /// `RowMajor` or `ColMajor` on a matrix member.
    Majorness,
}

/// The grammar's name of a decoration (spirv-val's `SpvDecorationString`).
pub(crate) fn decoration_name(value: u32) -> &'static str {
    spv::kinds::Decoration
        .enumerant(value)
        .map_or("Unknown", |e| e.name)
}

/// The grammar's name of a storage class (`StorageClassToString`).
pub(crate) fn storage_class_name(value: u32) -> &'static str {
    spv::kinds::StorageClass
        .enumerant(value)
        .map_or("Unknown", |e| e.name)
}

/// spirv-val's `[VUID-…] ` for the VUID numbers these rules use.
pub(crate) fn vuid(number: u32) -> &'static str {
    match number {
        4669 => "[VUID-StandaloneSpirv-GLSLShared-04669] ",
        4670 => "[VUID-StandaloneSpirv-Flat-04670] ",
        4675 => "[VUID-StandaloneSpirv-FPRoundingMode-04675] ",
        4680 => "[VUID-StandaloneSpirv-OpTypeRuntimeArray-04680] ",
        4744 => "[VUID-StandaloneSpirv-Flat-04744] ",
        4915 => "[VUID-StandaloneSpirv-Location-04915] ",
        4919 => "[VUID-StandaloneSpirv-Location-04919] ",
        4920 => "[VUID-StandaloneSpirv-Component-04920] ",
        4921 => "[VUID-StandaloneSpirv-Component-04921] ",
        4922 => "[VUID-StandaloneSpirv-Component-04922] ",
        4923 => "[VUID-StandaloneSpirv-Component-04923] ",
        6201 => "[VUID-StandaloneSpirv-Flat-06201] ",
        6202 => "[VUID-StandaloneSpirv-Flat-06202] ",
        6491 => "[VUID-StandaloneSpirv-DescriptorSet-06491] ",
        6672 => "[VUID-StandaloneSpirv-Location-06672] ",
        6674 => "[VUID-StandaloneSpirv-OpEntryPoint-06674] ",
        6675 => "[VUID-StandaloneSpirv-PushConstant-06675] ",
        6676 => "[VUID-StandaloneSpirv-Uniform-06676] ",
        6677 => "[VUID-StandaloneSpirv-UniformConstant-06677] ",
        6678 => "[VUID-StandaloneSpirv-InputAttachmentIndex-06678] ",
        6777 => "[VUID-StandaloneSpirv-PerVertexKHR-06777] ",
        7703 => "[VUID-StandaloneSpirv-Component-07703] ",
        9658 => "[VUID-StandaloneSpirv-OpEntryPoint-09658] ",
        9659 => "[VUID-StandaloneSpirv-OpEntryPoint-09659] ",
        10583 => "[VUID-StandaloneSpirv-Component-10583] ",
        10684 => "[VUID-StandaloneSpirv-None-10684] ",
        _ => "",
    }
}

impl TargetRule {
    /// The VUID spirv-val names with the rule (0: none).
    pub(super) fn vuid(self) -> u32 {
        match self {
            TargetRule::DescriptorClass => 6491,
            TargetRule::UniformConstantClass => 6678,
            TargetRule::InputOrOutput => 4670,
            TargetRule::InputClass => 6777,
            _ => 0,
        }
    }

    pub(super) fn text(self) -> &'static str {
        match self {
            TargetRule::ScalarSpecConstant => "must be a scalar specialization constant",
            TargetRule::StructureType => "must be a structure type",
            TargetRule::ArrayOrPointer => "must be an array or pointer type",
            TargetRule::ConstantForWorkgroupSize => "must be a constant for WorkgroupSize",
            TargetRule::Variable => "must be a variable",
            TargetRule::MemoryObject => "must be a memory object declaration",
            TargetRule::PointerType => "must be a pointer type",
            TargetRule::OutputClass => "must be in the Output storage class",
            TargetRule::DescriptorClass => {
                "must be in the StorageBuffer, Uniform, or UniformConstant storage class"
            }
            TargetRule::UniformConstantClass => "must be in the UniformConstant storage class",
            TargetRule::InputOrOutput => "storage class must be Input or Output",
            TargetRule::InputClass => "storage class must be Input",
        }
    }
}

/// spirv-val's storage class names in the messages about buffers.
pub(super) fn buffer_class_name(storage_class: u32) -> &'static str {
    match spv::StorageClass(storage_class) {
        spv::StorageClass::Uniform => "Uniform",
        spv::StorageClass::UniformConstant => "UniformConstant",
        spv::StorageClass::PushConstant => "PushConstant",
        spv::StorageClass::Workgroup => "Workgroup",
        spv::StorageClass::PhysicalStorageBuffer => "PhysicalStorageBuffer",
        _ => "StorageBuffer",
    }
}

impl DecorationError {
    /// The ids the message names, in order (for messages that print them as numbers,
    /// the ids they are about).
    pub(in super::super) fn ids(&self) -> Vec<Id> {
        use DecorationError as E;
        let one = |id: u32| Vec::from([Id(id)]);
        match self {
            E::Target { target: id, .. }
            | E::DecorateIdOnGroup { target: id }
            | E::ParameterAfterTarget { parameter: id }
            | E::NotStruct { id, .. }
            | E::MemberOutOfBounds { id, .. }
            | E::NotGroup { id, .. }
            | E::GroupTargetsGroup { id }
            | E::InterfaceTwice { id }
            | E::InvalidExplicitLayout { id, .. }
            | E::VulkanMemoryModelDeprecated { id, .. }
            | E::ComponentType { id } => Vec::from([*id]),
            E::DeclarationWithoutImport { function }
            | E::DefinitionWithImport { function }
            | E::EntryPointLinkage { function, .. } => one(*function),
            E::MissingBlock { id, .. }
            | E::NotExplicitlyLaidOut { id, .. }
            | E::RuntimeArrayNotLast { id, .. }
            | E::Repeated { id, .. }
            | E::Exclusive { id, .. } => one(*id),
            E::GlBindingMissing { variable, .. }
            | E::StorageBufferBufferBlock { variable }
            | E::MissingDescriptor { variable, .. }
            | E::BuiltInWithLocation { variable } => one(*variable),
            E::Layout(f) => one(f.struct_id),
            _ => Vec::new(),
        }
    }
}
