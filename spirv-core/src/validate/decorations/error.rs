//! The faults of spirv-val's annotation pass and decoration rules
//! (`validate_annotation.cpp`, `validate_decorations.cpp`) as one table: each fault
//! with what it involves, spirv-val's message and the VUID it names.

use super::block_layout::LayoutFault;
use crate::__private::String;
use crate::spv;
use crate::types::Id;
use crate::validate::faults::faults;

faults! {
    /// A fault of spirv-val's annotation pass, decoration and block-layout rules, with
    /// what it involves. Decorations, built-ins and storage classes are their values;
    /// messages name them by the grammar.
    pub enum DecorationError {
        // --- The annotation pass: each decorating instruction. ---
        /// `OpDecorate` of an undefined id.
        TargetNotDefined => "target is not defined",
        /// `GLSLShared` or `GLSLPacked` under Vulkan.
        #[vuid = "VUID-StandaloneSpirv-GLSLShared-04669"]
        GlslLayoutInVulkan {
            /// The decoration.
            decoration: spv::Decoration,
        } => "OpDecorate decoration '{decoration}' is not valid for the Vulkan execution environment.",
        /// `FPFastMathMode` and `NoContraction` on one id.
        FastMathAndNoContraction => "FPFastMathMode and NoContraction cannot decorate the same target",
        /// `FPFastMathMode` with `AllowTransform` but not both `AllowReassoc` and
        /// `AllowContract`.
        AllowTransform => "AllowReassoc and AllowContract must be specified when AllowTransform is specified",
        /// A decoration taking ids used with `OpDecorate`.
        IdDecorationInDecorate => "Decorations taking ID parameters may not be used with OpDecorateId",
        /// `RowMajor`, `ColMajor` or `MatrixStride` on an id.
        MemberOnly {
            /// The decoration.
            decoration: spv::Decoration,
        } => "{decoration} can only be applied to structure members",
        /// A decoration on a target it does not apply to.
        #[vuid = rule]
        Target {
            /// The decoration.
            decoration: spv::Decoration,
            /// The target.
            target: Id,
            /// What the target must be.
            rule: TargetRule,
        } => "{decoration} decoration on target <id> {target} {rule}",
        /// `BuiltIn` on something that is no variable or constant.
        BuiltInTarget => "BuiltIns can only target variables, structure members or constants",
        /// `Location` or `Component` on a variable of another storage class than those
        /// with locations (Vulkan; reported at the target).
        #[vuid = "VUID-StandaloneSpirv-Location-06672"]
        LocationStorageClass {
            /// The decoration.
            decoration: spv::Decoration,
        } => "{decoration} decoration must not be applied to this storage class",
        /// `OpDecorateId` of a decoration group.
        DecorateIdOnGroup {
            /// The group.
            target: Id,
        } => "OpMemberDecorate Target <id> {target} must not be an OpDecorationGroup instruction.",
        /// A decoration without id parameters used with `OpDecorateId`.
        NotIdDecoration => "Decorations that don't take ID parameters may not be used with OpDecorateId",
        /// An `OpDecorateId` parameter defined at or after the target.
        ParameterAfterTarget {
            /// The parameter.
            parameter: Id,
        } => "Parameter <ID> {parameter} must appear earlier in the binary than the target",
        /// `OpMemberDecorate` or `OpGroupMemberDecorate` of something that is no struct.
        NotStruct {
            /// `OpMemberDecorate` or `OpGroupMemberDecorate`.
            opcode: spv::Opcode,
            /// The id.
            id: Id,
        } => "Op{opcode} Structure type <id> {id} is not a struct type.",
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
            /// The largest index it has (its member count less one, wrapping at 32 bits).
            largest: u32,
        } => "Index {index} provided in Op{opcode} for struct <id> {id} is out of bounds. The structure has {count} members. Largest valid index is {largest}.",
        /// A decoration that does not apply to members, on a member.
        NotMemberDecoration {
            /// The decoration.
            decoration: spv::Decoration,
        } => "{decoration} cannot be applied to structure members",
        /// A decoration group used by another instruction than those decorating.
        GroupUse => "Result id of OpDecorationGroup can only be targeted by OpName, OpGroupDecorate, OpDecorate, OpDecorateId, and OpGroupMemberDecorate",
        /// `OpGroupDecorate` or `OpGroupMemberDecorate` of something that is no group.
        NotGroup {
            /// `OpGroupDecorate` or `OpGroupMemberDecorate`.
            opcode: spv::Opcode,
            /// The id.
            id: Id,
        } => "Op{opcode} Decoration group <id> {id} is not a decoration group.",
        /// `OpGroupDecorate` targeting a group (or an undefined id).
        GroupTargetsGroup {
            /// The target.
            id: Id,
        } => "OpGroupDecorate may not target OpDecorationGroup <id> {id}",

        // --- Linkage. ---
        /// An imported module-scope variable with an initializer.
        ImportedVariableInitialized => "A module-scope OpVariable with initialization value cannot be marked with the Import Linkage Type.",
        /// A function declaration without the Import linkage type.
        DeclarationWithoutImport {
            /// The function.
            function: Id,
        } => "Function declaration (id {function:n}) must have a LinkageAttributes decoration with the Import Linkage type.",
        /// A function definition with the Import linkage type.
        DefinitionWithImport {
            /// The function.
            function: Id,
        } => "Function definition (id {function:n}) may not be decorated with Import Linkage type.",
        /// `LinkageAttributes` on an entry point.
        EntryPointLinkage {
            /// The linkage name.
            name: String,
            /// The function.
            function: Id,
        } => "The LinkageAttributes Decoration (Linkage name: {name}) cannot be applied to function id {function:n} because it is targeted by an OpEntryPoint instruction.",

        // --- Entry points' interfaces. ---
        /// An interface id that is no variable.
        InterfaceNotVariable {
            /// What defines it.
            opcode: spv::Opcode,
        } => "Interfaces passed to OpEntryPoint must be variables. Found Op{opcode}.",
        /// Two `TaskPayloadWorkgroupEXT` variables in one entry point's interfaces.
        TaskPayloadTwice => "There can be at most one OpVariable with storage class TaskPayloadWorkgroupEXT associated with an OpEntryPoint",
        /// A `Function` variable in an interface (SPIR-V 1.4 and later).
        InterfaceFunctionVariable => "In SPIR-V 1.4 or later, OpEntryPoint interfaces should only list global variables",
        /// A variable listed twice (SPIR-V 1.4 and later).
        InterfaceTwice {
            /// The variable.
            id: Id,
        } => "In SPIR-V 1.4 or later, non-unique OpEntryPoint interface {id} is disallowed",
        /// An interface neither Input nor Output (SPIR-V 1.3 and earlier).
        InterfaceStorageClass {
            /// Its storage class.
            storage_class: spv::StorageClass,
            /// The entry point.
            #[role = context]
            entry_point: Id,
        } => "In SPIR-V 1.3 or earlier, OpEntryPoint interfaces must be OpVariables with Storage Class of Input(1) or Output(3). Found Storage Class {storage_class:n} for Entry Point id {entry_point:n}.",
        /// Two Input interfaces with the same built-in (Vulkan).
        #[vuid = "VUID-StandaloneSpirv-OpEntryPoint-09658"]
        DuplicateInputBuiltIn {
            /// The built-in.
            builtin: spv::BuiltIn,
        } => "OpEntryPoint contains duplicate input variables with {builtin} builtin",
        /// Two Output interfaces with the same built-in (Vulkan).
        #[vuid = "VUID-StandaloneSpirv-OpEntryPoint-09659"]
        DuplicateOutputBuiltIn {
            /// The built-in.
            builtin: spv::BuiltIn,
        } => "OpEntryPoint contains duplicate output variables with {builtin} builtin",
        /// A built-in variable with a `Location` or `Component` (Vulkan).
        #[vuid = "VUID-StandaloneSpirv-Location-04915"]
        BuiltInWithLocation {
            /// The variable.
            variable: Id,
        } => "A BuiltIn variable (id {variable:n}) cannot have any Location or Component decorations",
        /// An interface struct with built-in members but no `Block`.
        #[vuid = "VUID-StandaloneSpirv-Location-04919"]
        BuiltInStructNotBlock => "Interface struct has no Block decoration but has BuiltIn members. Location decorations must be used on each member of OpVariable with a structure type that is a block not decorated with Location.",
        /// Two interface blocks with built-in members in one storage class.
        BuiltInBlocks {
            /// The entry point.
            #[role = context]
            entry_point: Id,
        } => "There must be at most one object per Storage Class that can contain a structure type containing members decorated with BuiltIn, consumed per entry-point. Entry Point id {entry_point:n} does not meet this requirement.",
        /// An untyped Workgroup variable of a struct type without `Block` (shaders).
        UntypedWorkgroupNotBlock => "Untyped workgroup variables in shaders must be block decorated",
        /// An untyped Workgroup variable of a type that is no struct (shaders).
        UntypedWorkgroupNotStruct => "Untyped workgroup variables in shaders must be block decorated structs",
        /// `Flat`, `NoPerspective`, `Sample` or `Centroid` on a vertex input (Vulkan).
        #[vuid = "VUID-StandaloneSpirv-Flat-06202"]
        InterpolationVertexInput {
            /// The decoration.
            decoration: spv::Decoration,
            /// The entry point.
            #[role = context]
            entry_point: Id,
        } => "{decoration} decorated variable must not be used in vertex execution model as an Input storage class for Entry Point id {entry_point:n}.",
        /// `Flat`, `NoPerspective`, `Sample` or `Centroid` on a fragment output (Vulkan).
        #[vuid = "VUID-StandaloneSpirv-Flat-06201"]
        InterpolationFragmentOutput {
            /// The decoration.
            decoration: spv::Decoration,
            /// The entry point.
            #[role = context]
            entry_point: Id,
        } => "{decoration} decorated variable must not be used in fragment execution model as an Output storage class for Entry Point id {entry_point:n}.",
        /// An integer or 64-bit float fragment input without `Flat` (Vulkan).
        #[vuid = "VUID-StandaloneSpirv-Flat-04744"]
        FragmentInputNotFlat {
            /// The interface.
            #[role = context]
            interface: Id,
            /// The entry point.
            #[role = context]
            entry_point: Id,
        } => "Fragment OpEntryPoint operand {interface:n} with Input interfaces with integer or float type must have a Flat decoration for Entry Point id {entry_point:n}.",
        /// Some but not all Workgroup interfaces are `Block` structs.
        WorkgroupBlockMix {
            /// The entry point.
            #[role = context]
            entry_point: Id,
        } => "When declaring WorkgroupMemoryExplicitLayoutKHR, either all or none of the Workgroup Storage Class variables in the entry point interface must point to struct types decorated with Block (unless the UntypedPointersKHR capability is declared).  Entry point id {entry_point:n} does not meet this requirement.",
        /// Several Workgroup `Block` interfaces, not all `Aliased`.
        WorkgroupBlockAliased {
            /// The entry point.
            #[role = context]
            entry_point: Id,
        } => "When declaring WorkgroupMemoryExplicitLayoutKHR, if more than one Workgroup Storage Class variable in the entry point interface point to a type decorated with Block, all of them must be decorated with Aliased (unless the UntypedPointerWorkgroupKHR capability is declared). Entry point id {entry_point:n} does not meet this requirement.",
        /// A Workgroup `Block` interface without `WorkgroupMemoryExplicitLayoutKHR`.
        WorkgroupBlockWithoutCapability => "Workgroup Storage Class variables can't be decorated with Block unless declaring the WorkgroupMemoryExplicitLayoutKHR capability.",

        // --- Buffers and resources. ---
        /// An entry point using two push constants (Vulkan).
        #[vuid = "VUID-StandaloneSpirv-OpEntryPoint-06674"]
        PushConstantTwice {
            /// The entry point.
            #[role = context]
            entry_point: Id,
        } => "Entry point id '{entry_point:n}' uses more than one PushConstant interface.\nFrom Vulkan spec:\nThere must be no more than one push constant block statically used per shader entry point.",
        /// A used uniform or storage block without `Binding` (OpenGL).
        GlBindingMissing {
            /// The variable's storage class (Uniform or StorageBuffer).
            storage_class: spv::StorageClass,
            /// The variable.
            variable: Id,
        } => "{storage_class} id '{variable:n}' is missing Binding decoration.\nFrom ARB_gl_spirv extension:\nUniform and shader storage block variables must also be decorated with a *Binding*.",
        /// A StorageBuffer variable of a `BufferBlock` type (Vulkan).
        #[vuid = "VUID-StandaloneSpirv-PushConstant-06675"]
        StorageBufferBufferBlock {
            /// The variable.
            variable: Id,
        } => "Storage buffer id '{variable:n} In Vulkan, BufferBlock is disallowed on variables in the StorageBuffer storage class",
        /// A PushConstant or StorageBuffer variable's type without `Block` (Vulkan).
        #[vuid = "VUID-StandaloneSpirv-PushConstant-06675"]
        MissingBlock {
            /// The storage class (PushConstant or StorageBuffer).
            storage_class: spv::StorageClass,
            /// The type.
            id: Id,
        } => "{storage_class} id '{id:n}' is missing Block decoration.\nFrom Vulkan spec:\nSuch variables must be identified with a Block decoration",
        /// A Uniform variable's type without `Block` or `BufferBlock` (Vulkan).
        #[vuid = "VUID-StandaloneSpirv-Uniform-06676"]
        UniformMissingBlock {
            /// The type.
            id: Id,
        } => "Uniform id '{id:n}' is missing Block or BufferBlock decoration.\nFrom Vulkan spec:\nSuch variables must be identified with a Block or BufferBlock decoration",
        /// A resource variable without `DescriptorSet` (Vulkan).
        #[vuid = "VUID-StandaloneSpirv-UniformConstant-06677"]
        MissingDescriptorSet {
            /// The storage class (Uniform, UniformConstant or StorageBuffer).
            storage_class: spv::StorageClass,
            /// The variable.
            variable: Id,
        } => "{storage_class} id '{variable:n}' is missing DescriptorSet decoration.\nFrom Vulkan spec:\nThese variables must have DescriptorSet and Binding decorations specified",
        /// A resource variable without `Binding` (Vulkan).
        #[vuid = "VUID-StandaloneSpirv-UniformConstant-06677"]
        MissingBinding {
            /// The storage class (Uniform, UniformConstant or StorageBuffer).
            storage_class: spv::StorageClass,
            /// The variable.
            variable: Id,
        } => "{storage_class} id '{variable:n}' is missing Binding decoration.\nFrom Vulkan spec:\nThese variables must have DescriptorSet and Binding decorations specified",
        /// A block without the explicit layout decorations it needs.
        NotExplicitlyLaidOut {
            /// The struct.
            id: Id,
            /// `Block` or `BufferBlock`.
            decoration: spv::Decoration,
            /// The decorations missing.
            missing: Missing,
        } => "Structure id {id:n} decorated as {decoration} must be explicitly laid out with {missing} decorations.",
        /// A runtime array before other members (by offset).
        #[vuid = "VUID-StandaloneSpirv-OpTypeRuntimeArray-04680"]
        RuntimeArrayNotLast {
            /// The struct.
            id: Id,
            /// The array's offset.
            offset: u32,
        } => "Structure id {id:n} has a runtime array at offset {offset}, but other members at larger offsets",
        /// Explicit layout decorations on a type of a storage class without explicit layout
        /// (Vulkan).
        #[vuid = "VUID-StandaloneSpirv-None-10684"]
        InvalidExplicitLayout {
            /// The operand.
            id: Id,
            /// The storage class.
            storage_class: spv::StorageClass,
            /// The decoration giving the layout.
            decoration: spv::Decoration,
        } => "Invalid explicit layout decorations on type for operand {id}, the {storage_class} storage class has a explicit layout from the {decoration} decoration.",

        // --- Decorations on one id. ---
        /// A decoration twice on an id or member.
        Repeated {
            /// The id.
            id: Id,
            /// The member, if on one.
            member: Option<u32>,
            /// The decoration.
            decoration: spv::Decoration,
        } => "ID '{id:n}'{member:member} decorated with {decoration} multiple times is not allowed.",
        /// Two mutually exclusive decorations on an id or member.
        Exclusive {
            /// The id.
            id: Id,
            /// The member, if on one.
            member: Option<u32>,
            /// The decoration registered second.
            decoration: spv::Decoration,
            /// The one it excludes.
            other: spv::Decoration,
        } => "ID '{id:n}'{member:member} decorated with both {decoration} and {other} is not allowed.",
        /// `Coherent` or `Volatile` under the Vulkan memory model.
        VulkanMemoryModelDeprecated {
            /// `Coherent` or `Volatile`.
            decoration: spv::Decoration,
            /// The target.
            id: Id,
            /// The member, if on one.
            member: Option<u32>,
        } => "{decoration} decoration targeting {id}{member:member_index} is banned when using the Vulkan memory model.",
        /// `Component` on something that is no variable or parameter.
        ComponentTarget => "Target of Component decoration must be a memory object declaration (a variable or a function parameter)",
        /// `Component` on a variable neither Input nor Output.
        ComponentStorageClass {
            /// The storage class.
            storage_class: spv::StorageClass,
        } => "Target of Component decoration is invalid: must point to a Storage Class of Input(1) or Output(3). Found Storage Class {storage_class:n}",
        /// A member decoration on something that is no struct.
        MemberOfNonStruct => "Attempted to get underlying data type via member index for non-struct type.",
        /// `Component` on a type that is no scalar or vector (Vulkan).
        #[vuid = "VUID-StandaloneSpirv-Component-10583"]
        ComponentType {
            /// The type.
            id: Id,
        } => "Component decoration specified for type {id} that is not a scalar or vector",
        /// `Component` above 3 (Vulkan).
        #[vuid = "VUID-StandaloneSpirv-Component-04920"]
        ComponentTooLarge => "Component decoration value must not be greater than 3",
        /// 32-bit (or narrower) components past the fourth (Vulkan).
        #[vuid = "VUID-StandaloneSpirv-Component-04921"]
        ComponentSequence {
            /// The first component.
            first: u32,
            /// The last.
            last: u32,
        } => "Sequence of components starting with {first} and ending with {last} gets larger than 3",
        /// 64-bit components past the fourth (Vulkan).
        #[vuid = "VUID-StandaloneSpirv-Component-04922"]
        ComponentSequence64 {
            /// The first component.
            first: u32,
            /// The last.
            last: u32,
        } => "Sequence of components starting with {first} and ending with {last} gets larger than 3",
        /// `Component` on a 64-bit vector of more than two components (Vulkan).
        #[vuid = "VUID-StandaloneSpirv-Component-07703"]
        Component64Vector => "Component decoration only allowed on 64-bit scalar and 2-component vector",
        /// `Component` 1 or 3 on 64-bit data (Vulkan).
        #[vuid = "VUID-StandaloneSpirv-Component-04923"]
        Component64Odd => "Component decoration value must not be 1 or 3 for 64-bit data types",
        /// `FPRoundingMode` on something that is no `OpFConvert`.
        RoundingTarget => "FPRoundingMode decoration can be applied only to a width-only conversion instruction for floating-point object.",
        /// `FPRoundingMode` other than RTE or RTZ (Vulkan).
        #[vuid = "VUID-StandaloneSpirv-FPRoundingMode-04675"]
        RoundingModeInVulkan => "In Vulkan, the FPRoundingMode mode must only by RTE or RTZ.",
        /// `FPRoundingMode` on a value used other than as an `OpStore`'s object.
        RoundingUse => "FPRoundingMode decoration can be applied only to the Object operand of an OpStore.",
        /// … stored through a pointer to something other than 16-bit floats.
        RoundingStoreType => "FPRoundingMode decoration can be applied only to the Object operand of an OpStore storing through a pointer to a 16-bit floating-point scalar or vector object.",
        /// … stored to another storage class.
        RoundingStoreClass => "FPRoundingMode decoration can be applied only to the Object operand of an OpStore in the StorageBuffer, PhysicalStorageBuffer, Uniform, PushConstant, Input, or Output Storage Classes.",
        /// `NonWritable` or `NonReadable` on something that is no variable or parameter.
        AccessTarget {
            /// `NonWritable` or `NonReadable`.
            decoration: spv::Decoration,
        } => "Target of {decoration} decoration must be a memory object declaration (a variable or a function parameter)",
        /// `NonWritable` or `NonReadable` on a variable that is no image, tensor or buffer.
        AccessInvalid {
            /// `NonWritable` or `NonReadable`.
            decoration: spv::Decoration,
        } => "Target of {decoration} decoration is invalid: must point to a storage image, tensor variable in UniformConstant storage class, uniform block, or storage buffer",
        /// `NonWritable` on a variable that is no image, tensor, buffer, or (SPIR-V 1.4
        /// and later) Private or Function variable.
        NonWritableInvalid => "Target of NonWritable decoration is invalid: must point to a storage image, tensor variable in UniformConstant storage class, uniform block, storage buffer, or variable in Private or Function storage class",
        /// `Uniform` or `UniformId` on something without a type.
        UniformNonObject {
            /// `Uniform` or `UniformId`.
            decoration: spv::Decoration,
        } => "{decoration} decoration applied to a non-object",
        /// `Uniform` or `UniformId` on a void value.
        UniformVoid {
            /// `Uniform` or `UniformId`.
            decoration: spv::Decoration,
        } => "{decoration} decoration applied to a value with void type",
        /// `Uniform` or `UniformId` on a value whose type is undefined.
        UniformInvalidType {
            /// `Uniform` or `UniformId`.
            decoration: spv::Decoration,
        } => "{decoration} decoration applied to an object with invalid type",
        /// `NoSignedWrap` or `NoUnsignedWrap` on an instruction that does not wrap.
        IntegerWrap {
            /// `NoSignedWrap` or `NoUnsignedWrap`.
            decoration: spv::Decoration,
            /// The instruction.
            opcode: spv::Opcode,
        } => "{decoration} decoration may not be applied to {opcode}",
        /// `Block` or `BufferBlock` on something that is no struct.
        BlockNotStruct {
            /// `Block` or `BufferBlock`.
            decoration: spv::Decoration,
        } => "{decoration} decoration on a non-struct type.",
        /// `Location` on something that is no variable or struct member.
        LocationTarget => "Location decoration can only be applied to a variable or member of a structure type",
        /// `RelaxedPrecision` on a type.
        RelaxedPrecisionType => "RelaxPrecision decoration cannot be applied to a type",
    }
    families {
        /// A block that breaks its layout rules.
        Layout(LayoutFault),
    }
}

faults! {
    /// What the target of a decoration must be (the tail of spirv-val's message), with
    /// the VUID spirv-val names for the rule.
    pub enum TargetRule {
        /// `SpecId`.
        ScalarSpecConstant => "must be a scalar specialization constant",
        /// `Block`, `BufferBlock`, `GLSLShared`, `GLSLPacked`, `CPacked`.
        StructureType => "must be a structure type",
        /// `ArrayStride`.
        ArrayOrPointer => "must be an array or pointer type",
        /// `BuiltIn WorkgroupSize` in shaders.
        ConstantForWorkgroupSize => "must be a constant for WorkgroupSize",
        /// `BuiltIn` and the variable-only decorations.
        Variable => "must be a variable",
        /// The memory-object decorations.
        MemoryObject => "must be a memory object declaration",
        /// … whose type must be a pointer.
        PointerType => "must be a pointer type",
        /// `Index` (Vulkan).
        OutputClass => "must be in the Output storage class",
        /// `Binding`, `DescriptorSet` (Vulkan).
        #[vuid = "VUID-StandaloneSpirv-DescriptorSet-06491"]
        DescriptorClass => "must be in the StorageBuffer, Uniform, or UniformConstant storage class",
        /// `InputAttachmentIndex` (Vulkan).
        #[vuid = "VUID-StandaloneSpirv-InputAttachmentIndex-06678"]
        UniformConstantClass => "must be in the UniformConstant storage class",
        /// `Flat`, `NoPerspective`, `Centroid`, `Sample` (Vulkan).
        #[vuid = "VUID-StandaloneSpirv-Flat-04670"]
        InputOrOutput => "storage class must be Input or Output",
        /// `PerVertexKHR` (Vulkan).
        #[vuid = "VUID-StandaloneSpirv-PerVertexKHR-06777"]
        InputClass => "storage class must be Input",
    }
}

faults! {
    @description
    /// The explicit layout decorations a block lacks.
    pub enum Missing {
        /// `Offset` on a member.
        Offset => "Offset",
        /// `ArrayStride` on an array member.
        ArrayStride => "ArrayStride",
        /// `MatrixStride` on a matrix member.
        MatrixStride => "MatrixStride",
        /// `RowMajor` or `ColMajor` on a matrix member.
        Majorness => "RowMajor or ColMajor",
    }
}
