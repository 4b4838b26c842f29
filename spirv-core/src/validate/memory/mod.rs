//! spirv-val's memory pass (`MemoryPass` in `validate_memory.cpp`) for one
//! instruction, with its faults ([`MemoryError`]): variables ([`variable`]), loads and
//! stores with their memory access operands ([`access`]), copies ([`copy`]), access
//! chains, array lengths and pointer comparisons ([`chain`]), cooperative matrix
//! lengths, loads and stores, those addressed by tensor layouts included
//! ([`cooperative`]), and the cooperative vector instructions ([`cooperative_vector`]).

mod access;
mod chain;
mod cooperative;
mod cooperative_vector;
mod copy;
mod variable;

pub(super) use access::variable_pointers;

use super::Query;
use super::faults::{Arg, Namer, faults};
use super::{Fault, Inst};
use crate::__private::Vec;
use crate::spv::Opcode as O;
use crate::spv::{self, Opcode};
use crate::types::Id;
use alloc::collections::BTreeMap;
use core::cell::RefCell;
use core::fmt;

faults! {
    /// A fault of spirv-val's memory pass (`validate_memory.cpp`).
    pub enum MemoryError {
        // --- Memory access operands. ---
        /// A `PhysicalStorageBuffer` access without `Aligned`.
        #[vuid = "VUID-StandaloneSpirv-PhysicalStorageBuffer64-04708"]
        PhysicalNeedsAligned => "Memory accesses with PhysicalStorageBuffer must use Aligned.",
        /// `MakePointerAvailable` on a load.
        AvailableOnLoad => "MakePointerAvailableKHR cannot be used with OpLoad.",
        /// `MakePointerAvailable` without `NonPrivatePointer`.
        AvailableNeedsNonPrivate => "NonPrivatePointerKHR must be specified if MakePointerAvailableKHR is specified.",
        /// `MakePointerVisible` on a store.
        VisibleOnStore => "MakePointerVisibleKHR cannot be used with OpStore.",
        /// `MakePointerVisible` without `NonPrivatePointer`.
        VisibleNeedsNonPrivate => "NonPrivatePointerKHR must be specified if MakePointerVisibleKHR is specified.",
        /// `NonPrivatePointer` on a pointer of another storage class.
        NonPrivateStorageClass => "NonPrivatePointerKHR requires a pointer in Uniform, Workgroup, CrossWorkgroup, Generic, Image or StorageBuffer storage classes.",
        /// An `Aligned` value that is not a power of two.
        AlignedNotPowerOfTwo {
            /// The value.
            value: u32,
        } => "Memory accesses Aligned operand value {value} is not a power of two.",
        /// An `Aligned` value below the largest scalar's size.
        #[vuid = "VUID-StandaloneSpirv-PhysicalStorageBuffer64-06314"]
        AlignedTooSmall {
            /// The value.
            value: u32,
            /// The largest scalar's size in bytes.
            largest: u32,
        } => "Memory accesses Aligned operand value {value} is too small, the largest scalar type is {largest} bytes.",
        /// The first of two memory accesses of a copy has `MakePointerVisible`.
        TargetVisible => "Target memory access must not include MakePointerVisibleKHR",
        /// The second of two memory accesses of a copy has `MakePointerAvailable`.
        SourceAvailable => "Source memory access must not include MakePointerAvailableKHR",
        /// Two memory accesses before SPIR-V 1.4.
        TwoAccessesNeedVersion {
            /// The copy's opcode.
            opcode: Opcode,
        } => "{opcode} with two memory access operands requires SPIR-V 1.4 or later",
        // --- Variables. ---
        /// `OpUntypedVariableKHR` whose result type is not an untyped pointer.
        UntypedVariableResultType => "Result type must be an untyped pointer",
        /// `OpVariable` whose result type is not a pointer.
        VariableResultType {
            /// The result type.
            ty: Id,
        } => "OpVariable Result Type <id> {ty} is not a pointer type.",
        /// `OpUntypedVariableKHR` whose data type is not a type.
        DataTypeNotType => "Data type must be a type instruction",
        /// `OpUntypedVariableKHR` without a data type in a storage class that needs one.
        DataTypeMissing => "Data type must be specified for Function, Private, and Workgroup storage classes",
        /// `OpUntypedVariableKHR` without a data type in Vulkan.
        #[vuid = "VUID-StandaloneSpirv-OpUntypedVariableKHR-11167"]
        VulkanDataTypeMissing => "Vulkan requires that data type be specified",
        /// An initializer that is neither a constant nor a module-scope variable.
        InitializerNotConstant {
            /// The initializer.
            initializer: Id,
        } => "Variable Initializer <id> {initializer} is not a constant or module-scope variable.",
        /// An initializer of another type.
        InitializerType => "Initializer type must match the data type",
        /// A bool in an `Input` or `Output` variable without `BuiltIn`.
        #[vuid = "VUID-StandaloneSpirv-Input-07290"]
        BoolInInterface => "If OpTypeBool is stored in conjunction with OpVariable using Input or Output Storage Classes it requires a BuiltIn decoration",
        /// A bool in an externally visible storage class.
        BoolExternal => "If OpTypeBool is stored in conjunction with OpVariable, it can only be used with non-externally visible shader Storage Classes: Workgroup, CrossWorkgroup, Private, Function, Input, Output, RayPayloadKHR, IncomingRayPayloadKHR, HitAttributeKHR, CallableDataKHR, IncomingCallableDataKHR, NodePayloadAMDX, or UniformConstant",
        /// A storage class Vulkan does not have.
        #[vuid = "VUID-StandaloneSpirv-None-04643"]
        StorageClassForEnv => "Invalid storage class for target environment",
        /// A `Generic` variable.
        GenericVariable => "Variable storage class cannot be Generic",
        /// A variable in a function, not of the `Function` storage class.
        NotFunctionInside => "Variables must have a function[7] storage class inside of a function",
        /// A `Function` variable outside functions.
        FunctionOutside => "Variables can not have a function[7] storage class outside of a function",
        /// The storage class differs from the result type's.
        StorageClassMismatch => "Storage class must match result type storage class",
        /// A logical-addressing variable holding a pointer of another storage class.
        LogicalPointerStorage => "In Logical addressing, variables can only allocate a pointer to the StorageBuffer or Workgroup storage classes",
        /// A variable holding a storage-buffer pointer without
        /// `VariablePointersStorageBuffer`.
        LogicalStorageBufferPointer => "In Logical addressing, variables can only allocate a storage buffer pointer if the VariablePointersStorageBuffer capability is declared",
        /// A variable holding a workgroup pointer without `VariablePointers`.
        LogicalWorkgroupPointer => "In Logical addressing, variables can only allocate a workgroup pointer if the VariablePointers capability is declared",
        /// A variable holding a pointer, outside `Function` and `Private`.
        LogicalPointerVariableStorage => "In Logical addressing with variable pointers, variables that allocate pointers must be in Function or Private storage classes",
        /// A Vulkan push constant that is not a struct.
        #[vuid = "VUID-StandaloneSpirv-PushConstant-06808"]
        PushConstantType {
            /// The variable.
            variable: Id,
        } => "PushConstant OpVariable <id> {variable} has illegal type.\nFrom Vulkan spec, Push Constant Interface section:\nSuch variables must be typed as OpTypeStruct",
        /// A Vulkan `UniformConstant` variable of a non-opaque type.
        #[vuid = "VUID-StandaloneSpirv-UniformConstant-04655"]
        UniformConstantType {
            /// The variable.
            variable: Id,
        } => "UniformConstant OpVariable <id> {variable} has illegal type.\nVariables identified with the UniformConstant storage class are used only as handles to refer to opaque resources. Such variables must be typed as OpTypeImage, OpTypeSampler, OpTypeSampledImage, OpTypeAccelerationStructureKHR, or an array of one of these types.",
        /// A Vulkan `Uniform` variable that is not a struct or array of structs.
        #[vuid = "VUID-StandaloneSpirv-Uniform-06807"]
        UniformType {
            /// The variable.
            variable: Id,
        } => "Uniform OpVariable <id> {variable} has illegal type.\nFrom Vulkan spec:\nVariables identified with the Uniform storage class are used to access transparent buffer backed resources. Such variables must be typed as OpTypeStruct, or an array of this type",
        /// A Vulkan `StorageBuffer` variable that is not a struct or array of structs.
        #[vuid = "VUID-StandaloneSpirv-Uniform-06807"]
        StorageBufferType {
            /// The variable.
            variable: Id,
        } => "StorageBuffer OpVariable <id> {variable} has illegal type.\nFrom Vulkan spec:\nVariables identified with the StorageBuffer storage class are used to access transparent buffer backed resources. Such variables must be typed as OpTypeStruct, or an array of this type",
        /// `Invariant` on a variable that is not `Input` or `Output` (Vulkan).
        #[vuid = "VUID-StandaloneSpirv-Invariant-04677"]
        InvariantVariable => "Variable decorated with Invariant must only be identified with the Input or Output storage class in Vulkan environment.",
        /// `Invariant` on a member of such a variable's struct (Vulkan).
        #[vuid = "VUID-StandaloneSpirv-Invariant-04677"]
        InvariantMember => "Variable struct member decorated with Invariant must only be identified with the Input or Output storage class in Vulkan environment.",
        /// A Vulkan `Workgroup` initializer other than `OpConstantNull`.
        #[vuid = "VUID-StandaloneSpirv-OpVariable-04734"]
        WorkgroupInitializer {
            /// The variable.
            variable: Id,
        } => "OpVariable, <id> {variable}, initializers are limited to OpConstantNull in Workgroup storage class",
        /// A Vulkan initializer in a storage class that allows none.
        #[vuid = "VUID-StandaloneSpirv-OpVariable-04651"]
        InitializerStorageClass {
            /// The variable.
            variable: Id,
        } => "OpVariable, <id> {variable}, has a disallowed initializer & storage class combination.\nFrom Vulkan spec:\nVariable declarations that include initializers must have one of the following storage classes: Output, Private, Function or Workgroup",
        /// An initializer in a storage class that never allows one.
        InitializerNotAllowed {
            /// The variable.
            variable: Id,
            /// The storage class.
            storage_class: spv::StorageClass,
        } => "OpVariable, <id> {variable}, initializer are not allowed for {storage_class}",
        /// A `PhysicalStorageBuffer` variable.
        PhysicalStorageBufferVariable => "PhysicalStorageBuffer must not be used with OpVariable.",
        /// A Vulkan variable of a runtime array type.
        #[vuid = "VUID-StandaloneSpirv-OpTypeRuntimeArray-04680"]
        RuntimeArrayVariable {
            /// The variable.
            variable: Id,
        } => "OpVariable, <id> {variable}, is attempting to create memory for an illegal type, OpTypeRuntimeArray.\nFor Vulkan OpTypeRuntimeArray can only appear as the final member of an OpTypeStruct, thus cannot be instantiated via OpVariable",
        /// A Vulkan runtime-array variable (with `RuntimeDescriptorArrayEXT`) of another
        /// storage class.
        #[vuid = "VUID-StandaloneSpirv-OpTypeRuntimeArray-04680"]
        RuntimeArrayStorage => "For Vulkan with RuntimeDescriptorArrayEXT, a variable containing OpTypeRuntimeArray must have storage class of StorageBuffer, Uniform, or UniformConstant.",
        /// A Vulkan storage-buffer struct with a runtime array, without `Block`.
        #[vuid = "VUID-StandaloneSpirv-OpTypeRuntimeArray-04680"]
        RuntimeArrayBlock => "For Vulkan, an OpTypeStruct variable containing an OpTypeRuntimeArray must be decorated with Block if it has storage class StorageBuffer or PhysicalStorageBuffer.",
        /// A Vulkan struct with a runtime array in another storage class.
        #[vuid = "VUID-StandaloneSpirv-OpTypeRuntimeArray-04680"]
        RuntimeArrayStructStorage => "For Vulkan, OpTypeStruct variables containing OpTypeRuntimeArray must have storage class of StorageBuffer, PhysicalStorageBuffer, or Uniform.",
        /// A cooperative matrix outside `Function` and `Private`.
        CooperativeMatrixStorage => "Cooperative matrix types (or types containing them) can only be allocated in Function or Private storage classes or as function parameters",
        /// A cooperative vector outside `Function` and `Private`.
        CooperativeVectorStorage => "Cooperative vector types (or types containing them) can only be allocated in Function or Private storage classes or as function parameters",
        /// An 8- or 16-bit type in a storage class that never allows it.
        NarrowStorageClass {
            /// 8 or 16.
            bits: u32,
            /// The storage class.
            storage_class: spv::StorageClass,
        } => "Cannot allocate a variable containing a {bits}-bit type in {storage_class} storage class",
        /// An 8- or 16-bit type in a storage class that needs a capability.
        NarrowNeedsCapability {
            /// 8 or 16.
            bits: u32,
            /// The storage class.
            storage_class: spv::StorageClass,
        } => "Allocating a variable containing a {bits}-bit element in {storage_class} storage class requires an additional capability",
        /// A tile-attachment image variable whose image is not 2D.
        TileAttachmentDim
            => "Any OpTypeImage variable in the TileAttachmentQCOM Storage Class must have 2D as its dimension",
        /// A tile-attachment image variable whose image's `Sampled` is not 1 or 2
        /// (spirv-val's message misspells `OpTypeImage`).
        TileAttachmentSampled
            => "Any OpyTpeImage variable in the TileAttachmentQCOM Storage Class must have 1 or 2 as Image 'Sampled' parameter",
        /// A tile-attachment image variable loaded for an `OpImageQuery*`.
        TileAttachmentQuery
            => "Any variable in the TileAttachmentQCOM Storage Class must not be consumed by an OpImageQuery* instruction",
        /// A tile-attachment variable without its descriptor set and binding.
        TileAttachmentBinding
            => "Any variable in the TileAttachmentQCOM Storage Class must be decorated with DescriptorSet and Binding",
        /// A tile-attachment variable decorated with `Component`.
        TileAttachmentComponent
            => "Any variable in the TileAttachmentQCOM Storage Class must not be decorated with Component decoration",
        // --- Loads and stores. ---
        /// A pointer operand that is not a logical pointer.
        NotLogicalPointer {
            /// `OpLoad` or `OpStore`.
            opcode: Opcode,
            /// The pointer.
            pointer: Id,
        } => "Op{opcode} Pointer <id> {pointer} is not a logical pointer.",
        /// A pointer operand whose type is not a pointer.
        PointerType {
            /// `OpLoad` or `OpStore`.
            opcode: Opcode,
            /// The pointer.
            pointer: Id,
        } => "Op{opcode} type for pointer <id> {pointer} is not a pointer type.",
        /// A load whose result type is not the pointee.
        LoadType {
            /// The result type.
            ty: Id,
            /// The pointer.
            pointer: Id,
        } => "OpLoad Result Type <id> {ty} does not match Pointer <id> {pointer}s type.",
        /// A load of a runtime array.
        LoadRuntimeArray => "Cannot load a runtime-sized array",
        /// An 8- or 16-bit load of an aggregate.
        NarrowLoad => "8- or 16-bit loads must be a scalar, vector or matrix type",
        /// A store through a pointer to void.
        StoreVoidPointer {
            /// The pointer.
            pointer: Id,
        } => "OpStore Pointer <id> {pointer}s type is void.",
        /// A store to a read-only storage class.
        StoreReadOnly {
            /// The pointer.
            pointer: Id,
        } => "OpStore Pointer <id> {pointer} storage class is read-only",
        /// A store to `ShaderRecordBufferKHR`.
        StoreShaderRecord => "ShaderRecordBufferKHR Storage Class variables are read only",
        /// A Vulkan store to a `Uniform` block.
        #[vuid = "VUID-StandaloneSpirv-Uniform-06925"]
        StoreUniformBlock => "In the Vulkan environment, cannot store to Uniform Blocks",
        /// A stored object without a type.
        StoreNotObject {
            /// The object.
            object: Id,
        } => "OpStore Object <id> {object} is not an object.",
        /// A stored object of void type.
        StoreVoidObject {
            /// The object.
            object: Id,
        } => "OpStore Object <id> {object}s type is void.",
        /// A store whose object's type is not the pointee.
        StoreType {
            /// The pointer.
            pointer: Id,
            /// The object.
            object: Id,
        } => "OpStore Pointer <id> {pointer}s type does not match Object <id> {object}s type.",
        /// A store whose object's layout is not the pointee's (with
        /// `--relax-struct-store`).
        StoreLayout {
            /// The pointer.
            pointer: Id,
            /// The object.
            object: Id,
        } => "OpStore Pointer <id> {pointer}s layout does not match Object <id> {object}s layout.",
        /// A Vulkan store of an image, sampler or acceleration structure.
        #[vuid = "VUID-StandaloneSpirv-OpTypeImage-06924"]
        StoreOpaque => "Cannot store to OpTypeImage, OpTypeSampler, OpTypeSampledImage, or OpTypeAccelerationStructureKHR objects",
        // --- Copies. ---
        /// A copy operand that is not a pointer.
        CopyNotPointer {
            /// Which operand.
            operand: CopyOperand,
            /// The operand.
            id: Id,
        } => "{operand} operand <id> {id} is not a pointer.",
        /// A copy operand that points to void.
        CopyVoidPointer {
            /// Which operand.
            operand: CopyOperand,
            /// The operand.
            id: Id,
        } => "{operand} operand <id> {id} cannot be a void pointer.",
        /// Copied pointees differ (spirv-val names the source twice, once as "Target").
        CopyType {
            /// The source operand.
            source: Id,
            /// The source's pointee.
            source_type: Id,
        } => "Target <id> {source}s type does not match Source <id> {source_type}s type.",
        /// A copy between two untyped pointers.
        CopyUntyped => "One of Source or Target must be a typed pointer",
        /// A size that is not an integer.
        SizeNotInt {
            /// The size.
            size: Id,
        } => "Size operand <id> {size} must be a scalar integer type.",
        /// A constant size of zero.
        SizeZero {
            /// The size.
            size: Id,
        } => "Size operand <id> {size} cannot be a constant zero.",
        /// A constant size with the sign bit set.
        SizeNegative {
            /// The size.
            size: Id,
        } => "Size operand <id> {size} cannot have the sign bit set to 1.",
        /// A constant size not a multiple of 4 or 2 without the capabilities for less.
        SizeMultiple {
            /// 4 or 2.
            of: u32,
        } => "Size must be a multiple of {of}",
        /// A copy of objects with 8- or 16-bit types.
        CopyNarrow => "Cannot copy memory of objects containing 8- or 16-bit types",
        // --- Access chains. ---
        /// A chain whose result type is not an `OpTypePointer`.
        ChainResultType {
            /// The chain's opcode.
            opcode: Opcode,
            /// The chain.
            id: Id,
            /// The result type's opcode.
            found: Opcode,
        } => "The Result Type of Op{opcode} <id> {id} must be OpTypePointer. Found Op{found}.",
        /// An untyped chain whose result type is not an `OpTypeUntypedPointerKHR`.
        UntypedChainResultType {
            /// The chain's opcode.
            opcode: Opcode,
            /// The chain.
            id: Id,
            /// The result type's opcode.
            found: Opcode,
        } => "The Result Type of Op{opcode} <id> {id} must be OpTypeUntypedPointerKHR. Found Op{found}.",
        /// An untyped chain's base type that is a pointer or not a type.
        BaseTypeNotNonPointer => "Base type must be a non-pointer type",
        /// One of base type and base is a block array, the other not.
        BlockArrayMismatch => "Both Base Type and Base must be Block or BufferBlock arrays or neither can be",
        /// Base type and base are different block arrays.
        BlockArrayDifferent => "If Base or Base Type is a Block or BufferBlock array, the other must also be the same array",
        /// A base that is not a pointer.
        BaseNotPointer {
            /// The chain's opcode.
            opcode: Opcode,
            /// The base.
            base: Id,
        } => "The Base <id> {base} in Op{opcode} instruction must be a pointer.",
        /// Result and base storage classes differ.
        ChainStorageClass {
            /// The chain's opcode.
            opcode: Opcode,
        } => "The result pointer storage class and base pointer storage class in Op{opcode} do not match.",
        /// More indexes than the limit.
        TooManyIndexes {
            /// The chain's opcode.
            opcode: Opcode,
            /// The limit.
            limit: u32,
            /// The indexes.
            found: usize,
        } => "The number of indexes in Op{opcode} may not exceed {limit}. Found {found} indexes.",
        /// An index that is not an integer.
        IndexNotInt {
            /// The chain's opcode.
            opcode: Opcode,
        } => "Indexes passed to Op{opcode} must be of type integer.",
        /// A negative constant index under logical addressing.
        NegativeIndex {
            /// The index's word in the instruction.
            word: usize,
        } => "Index at word {word} may not have a negative value",
        /// A struct index that is not a constant.
        StructIndexNotConstant {
            /// The chain's opcode.
            opcode: Opcode,
            /// The index.
            index: Id,
        } => "The <id> passed to Op{opcode} to index {index} into a structure must be an OpConstant.",
        /// A struct index past the struct's members.
        StructIndexOutOfBounds {
            /// The index.
            index: Id,
            /// The chain's opcode.
            opcode: Opcode,
            /// Its value.
            value: i64,
            /// The struct.
            structure: Id,
            /// Its members.
            members: i64,
            /// The largest index it takes (`members - 1`).
            largest: i64,
        } => "Index {index} is out of bounds: Op{opcode} cannot find index {value} into the structure <id> {structure}. This structure has {members} members. Largest valid index is {largest}.",
        /// Indexes left over at a non-composite type.
        IndexIntoNonComposite {
            /// The chain's opcode.
            opcode: Opcode,
        } => "Op{opcode} reached non-composite type while indexes still remain to be traversed.",
        /// The result's pointee differs from the type indexed to.
        ChainResultMismatch {
            /// The chain's opcode.
            opcode: Opcode,
            /// The opcode of the result type's pointee.
            expected: Opcode,
            /// The opcode of the type indexed to.
            found: Opcode,
        } => "Op{opcode} result type (Op{expected}) does not match the type that results from indexing into the base <id> (Op{found}).",
        /// A pointer chain's element that is not an integer.
        ElementNotInt => "Element must be an integer",
        /// A non-zero element into a block.
        ElementIntoBlock => "Element must be 0 if the interpretation type is a Block- or BufferBlock-decorated structure",
        /// A pointer chain's base whose type has no `ArrayStride`.
        PtrChainArrayStride => "OpPtrAccessChain must have a Base whose type is decorated with ArrayStride",
        /// A Vulkan pointer chain into `Workgroup` without `VariablePointers`.
        #[vuid = "VUID-StandaloneSpirv-Base-07651"]
        PtrChainWorkgroup => "OpPtrAccessChain Base operand pointing to Workgroup storage class must use VariablePointers capability",
        /// A Vulkan pointer chain into `StorageBuffer` without variable pointers.
        #[vuid = "VUID-StandaloneSpirv-Base-07652"]
        PtrChainStorageBuffer => "OpPtrAccessChain Base operand pointing to StorageBuffer storage class must use VariablePointers or VariablePointersStorageBuffer capability",
        /// A Vulkan pointer chain into another storage class.
        #[vuid = "VUID-StandaloneSpirv-Base-07650"]
        PtrChainStorageClass => "OpPtrAccessChain Base operand must point to Workgroup, StorageBuffer, or PhysicalStorageBuffer storage class",
        // --- Array lengths. ---
        /// A result type that is not a 32- or 64-bit unsigned integer.
        ArrayLengthResultType {
            /// The opcode.
            opcode: Opcode,
            /// The instruction's result.
            id: Id,
        } => "The Result Type of Op{opcode} <id> {id} must be OpTypeInt with width 32 or 64 and signedness 0.",
        /// `OpUntypedArrayLengthKHR` of a pointer that is not untyped.
        ArrayLengthUntyped => "Pointer must be an untyped pointer",
        /// Not a pointer to a struct.
        ArrayLengthNotStruct {
            /// The opcode.
            opcode: Opcode,
            /// The instruction's result.
            id: Id,
        } => "The Structure's type in Op{opcode} <id> {id} must be a pointer to an OpTypeStruct.",
        /// A struct whose last member is not a runtime array.
        ArrayLengthLastMember {
            /// The opcode.
            opcode: Opcode,
            /// The instruction's result.
            id: Id,
        } => "The Structure's last member in Op{opcode} <id> {id} must be an OpTypeRuntimeArray.",
        /// A member operand other than the last.
        ArrayLengthMember {
            /// The opcode.
            opcode: Opcode,
            /// The instruction's result.
            id: Id,
        } => "The array member in Op{opcode} <id> {id} must be the last member of the struct.",
        /// A Vulkan array length inside a `Uniform` block.
        #[vuid = "VUID-StandaloneSpirv-OpArrayLength-11805"]
        ArrayLengthUniformBlock {
            /// The opcode.
            opcode: Opcode,
        } => "Op{opcode} must not be used on the OpTypeRuntimeArray inside a Uniform block",
        // --- Pointer comparisons. ---
        /// Logical pointers compared without variable pointers.
        PtrCompareLogical => "Instruction on logical pointers cannot be used without a variable pointers capability",
        /// `OpPtrDiff` whose result is not an integer.
        PtrDiffResultType => "Result Type must be an integer scalar",
        /// `OpPtrEqual` or `OpPtrNotEqual` whose result is not a bool.
        PtrCompareResultType => "Result Type must be OpTypeBool",
        /// An operand that is not a pointer.
        PtrOperandType => "Operand type must be a pointer",
        /// Operands of different types.
        PtrOperandTypes => "The types of Operand 1 and Operand 2 must match",
        /// Untyped operands of different storage classes.
        PtrStorageClasses => "Pointer storage classes must match",
        /// A logical pointer outside `Workgroup` and `StorageBuffer`.
        PtrInvalidStorageClass => "Invalid pointer storage class",
        /// A workgroup pointer without `VariablePointers`.
        PtrWorkgroup => "Workgroup storage class pointer requires VariablePointers capability to be specified",
        /// A `PhysicalStorageBuffer` pointer under physical addressing.
        PtrPhysical => "Cannot use a pointer in the PhysicalStorageBuffer storage class",
        // --- Cooperative matrices. ---
        /// A length whose result type is not a 32-bit unsigned integer.
        CooperativeLengthResultType {
            /// The opcode.
            opcode: Opcode,
            /// The instruction's result.
            id: Id,
        } => "The Result Type of Op{opcode} <id> {id} must be OpTypeInt with width 32 and signedness 0.",
        /// `OpCooperativeMatrixLengthKHR` of a type that is not a KHR cooperative matrix.
        CooperativeLengthTypeKhr {
            /// The opcode.
            opcode: Opcode,
            /// The type.
            ty: Id,
        } => "The type in Op{opcode} <id> {ty} must be OpTypeCooperativeMatrixKHR.",
        /// `OpCooperativeMatrixLengthNV` of a type that is not an NV cooperative matrix.
        CooperativeLengthTypeNv {
            /// The opcode.
            opcode: Opcode,
            /// The type.
            ty: Id,
        } => "The type in Op{opcode} <id> {ty} must be OpTypeCooperativeMatrixNV.",
        /// A cooperative matrix load whose result type is not a cooperative matrix.
        LoadNotCooperativeMatrix {
            /// The opcode.
            opcode: Opcode,
            /// The result type.
            ty: Id,
        } => "spv::Op::Op{opcode} Result Type <id> {ty} is not a cooperative matrix type.",
        /// A cooperative matrix store whose object is not a cooperative matrix.
        StoreNotCooperativeMatrix {
            /// The opcode.
            opcode: Opcode,
            /// The object's type.
            ty: Id,
        } => "spv::Op::Op{opcode} Object type <id> {ty} is not a cooperative matrix type.",
        /// A pointer operand that is not a logical pointer.
        CooperativeNotLogical {
            /// The opcode.
            opcode: Opcode,
            /// The pointer.
            pointer: Id,
        } => "spv::Op::Op{opcode} Pointer <id> {pointer} is not a logical pointer.",
        /// A pointer operand whose type is not a pointer.
        CooperativePointerType {
            /// The opcode.
            opcode: Opcode,
            /// The pointer.
            pointer: Id,
        } => "spv::Op::Op{opcode} type for pointer <id> {pointer} is not a pointer type.",
        /// A KHR (Vulkan) or tensor-addressed cooperative matrix load or store through a
        /// pointer of another storage class than Workgroup, StorageBuffer or
        /// PhysicalStorageBuffer.
        #[vuid = "VUID-StandaloneSpirv-Pointer-08973"]
        CooperativeStorageClassKhr {
            /// The opcode.
            opcode: Opcode,
            /// The pointer type.
            ty: Id,
        } => "spv::Op::Op{opcode} storage class for pointer type <id> {ty} is not Workgroup, StorageBuffer, or PhysicalStorageBuffer.",
        /// An NV cooperative matrix or a cooperative vector load or store through a
        /// pointer of another storage class than Workgroup or StorageBuffer (the
        /// cooperative vectors allow PhysicalStorageBuffer too, with this text).
        CooperativeStorageClassNv {
            /// The opcode.
            opcode: Opcode,
            /// The pointer type.
            ty: Id,
        } => "spv::Op::Op{opcode} storage class for pointer type <id> {ty} is not Workgroup or StorageBuffer.",
        /// A pointer to something other than a scalar or vector.
        CooperativePointee {
            /// The opcode.
            opcode: Opcode,
            /// The pointer.
            pointer: Id,
        } => "spv::Op::Op{opcode} Pointer <id> {pointer}s Type must be a scalar or vector type.",
        /// A stride that is not an integer scalar.
        StrideNotInt {
            /// The stride.
            stride: Id,
        } => "Stride operand <id> {stride} must be a scalar integer type.",
        /// A column-major operand that is not a boolean constant.
        ColumnMajor {
            /// The operand.
            id: Id,
        } => "Column Major operand <id> {id} must be a boolean constant instruction.",
        /// A memory layout that is not an integer constant.
        MemoryLayoutOperand {
            /// The operand.
            id: Id,
        } => "MemoryLayout operand <id> {id} must be a 32-bit integer constant instruction.",
        /// An ARM blocked-interleaved layout without its capability.
        ArmLayoutCapability => "Using the RowBlockedInterleavedARM or ColumnBlockedInterleavedARM MemoryLayout requires the CooperativeMatrixLayoutsARM capability be declared",
        /// An ARM layout's stride that is not a constant.
        StrideNotConstant {
            /// The layout.
            layout: u64,
        } => "MemoryLayout {layout} requires Stride come from a constant instruction.",
        /// An ARM layout's stride other than 1, 2 or 4.
        StrideValue {
            /// The layout.
            layout: u64,
        } => "MemoryLayout {layout} requires Stride be 1, 2, or 4.",
        /// An ARM blocked layout whose rows are not a multiple of what the stride needs.
        LayoutRowsMultiple {
            /// The layout.
            layout: u64,
            /// The stride.
            stride: u64,
            /// What the rows must be a multiple of.
            multiple: u64,
        } => "MemoryLayout {layout} with a Stride of {stride} requires that the number of rows be a multiple of {multiple}",
        /// An ARM blocked layout whose columns are not a multiple of what the stride
        /// needs.
        LayoutColumnsMultiple {
            /// The layout.
            layout: u64,
            /// The stride.
            stride: u64,
            /// What the columns must be a multiple of.
            multiple: u64,
        } => "MemoryLayout {layout} with a Stride of {stride} requires that the number of columns be a multiple of {multiple}",
        /// A row- or column-major layout without a stride.
        StrideRequired {
            /// The layout.
            layout: u64,
        } => "MemoryLayout {layout} requires a Stride.",
        // --- Tensor-addressed cooperative matrix loads and stores. ---
        /// A tensor load's object whose type is not the result type.
        TensorObjectType {
            /// The opcode.
            opcode: Opcode,
            /// The object.
            object: Id,
        } => "spv::Op::Op{opcode} Object <id> {object} type does not match Result Type.",
        /// A tensor layout operand whose type is not `OpTypeTensorLayoutNV`.
        TensorLayoutOperand {
            /// The opcode.
            opcode: Opcode,
            /// The operand.
            id: Id,
        } => "spv::Op::Op{opcode} TensorLayout <id> {id} does not have a tensor layout type.",
        /// Fewer operands than the tensor addressing mask names.
        TensorOperandsCount {
            /// The opcode.
            opcode: Opcode,
        } => "spv::Op::Op{opcode} not enough tensor addressing operands.",
        /// A `TensorView` operand whose type is not `OpTypeTensorViewNV`.
        TensorViewOperand {
            /// The opcode.
            opcode: Opcode,
            /// The operand.
            id: Id,
        } => "spv::Op::Op{opcode} TensorView <id> {id} does not have a tensor view type.",
        /// A tensor store with a `DecodeFunc`.
        StoreTensorDecodeFunc => "OpCooperativeMatrixStoreTensorNV does not support DecodeFunc.",
        /// A `DecodeFunc` that is not an `OpFunction`.
        DecodeFuncNotFunction {
            /// The opcode.
            opcode: Opcode,
            /// The operand.
            id: Id,
        } => "spv::Op::Op{opcode} DecodeFunc <id> {id} is not a function.",
        /// A `DecodeFunc` whose return type is not the matrix's component type.
        DecodeFuncReturn {
            /// The opcode.
            opcode: Opcode,
            /// The function.
            id: Id,
        } => "spv::Op::Op{opcode} DecodeFunc <id> {id} return type must match matrix component type.",
        /// A `DecodeFunc` whose first parameter is not a `PhysicalStorageBuffer` pointer.
        DecodeFuncPointer {
            /// The opcode.
            opcode: Opcode,
            /// The function.
            id: Id,
        } => "spv::Op::Op{opcode} DecodeFunc <id> {id} first parameter must be pointer to PhysicalStorageBuffer.",
        /// A `DecodeFunc` whose second or third parameter is not an array as long as the
        /// tensor's dimension.
        DecodeFuncArray {
            /// The opcode.
            opcode: Opcode,
            /// The function.
            id: Id,
        } => "spv::Op::Op{opcode} DecodeFunc <id> {id} second/third parameter must be array of 32-bit integer with  dimension equal to the tensor dimension.",
        // --- Cooperative vectors. ---
        /// A cooperative vector load whose result type is not a cooperative vector.
        LoadNotCooperativeVector {
            /// The result type.
            ty: Id,
        } => "spv::Op::OpCooperativeVectorLoadNV Result Type <id> {ty} is not a cooperative vector type.",
        /// A cooperative vector store whose object is not a cooperative vector.
        StoreNotCooperativeVector {
            /// The object's type.
            ty: Id,
        } => "spv::Op::OpCooperativeVectorStoreNV Object type <id> {ty} is not a cooperative vector type.",
        /// A cooperative vector instruction's pointer to something other than an array.
        VectorPointeeArray {
            /// The opcode.
            opcode: Opcode,
            /// The pointer.
            pointer: Id,
        } => "spv::Op::Op{opcode} Pointer <id> {pointer}s Type must be an array type.",
        /// A cooperative vector instruction's pointer to an array of something other
        /// than scalars or vectors.
        VectorPointeeElement {
            /// The opcode.
            opcode: Opcode,
            /// The pointer.
            pointer: Id,
        } => "spv::Op::Op{opcode} Pointer <id> {pointer}s Type must be an array of scalar or vector type.",
        /// An operand (`A`, `B`, `V`, or the `result`) whose type is not a cooperative
        /// vector.
        OperandNotCooperativeVector {
            /// The opcode.
            opcode: Opcode,
            /// The operand's name, as spirv-val words it.
            operand: &'static str,
            /// The type.
            ty: Id,
        } => "spv::Op::Op{opcode} {operand} type <id> {ty} is not a cooperative vector type.",
        /// An outer product's `A` and `B` of different component types.
        VectorComponentsDiffer {
            /// `A`'s component type.
            a: Id,
            /// `B`'s component type.
            b: Id,
        } => "spv::Op::OpCooperativeVectorOuterProductAccumulateNV A and B component types {a} and {b} do not match.",
        /// An operand whose type is not a 32-bit integer.
        OperandNotInt32 {
            /// The opcode.
            opcode: Opcode,
            /// The operand's name.
            operand: &'static str,
            /// The type.
            ty: Id,
        } => "spv::Op::Op{opcode} {operand} type <id> {ty} is not a 32 bit integer.",
        /// An operand whose type is not a 32- or 64-bit integer.
        OperandNotInt32Or64 {
            /// The opcode.
            opcode: Opcode,
            /// The operand's name.
            operand: &'static str,
            /// The type.
            ty: Id,
        } => "spv::Op::Op{opcode} {operand} type <id> {ty} is not a 32 or 64 bit integer.",
        /// A matrix multiplication whose result components are not 32-bit integers or
        /// 16- or 32-bit floats.
        MulResultComponent {
            /// The opcode.
            opcode: Opcode,
            /// The component type.
            ty: Id,
        } => "spv::Op::Op{opcode} result component type <id> {ty} is not a 32 bit int or 16/32 bit float.",
        /// A result's component count other than `M`.
        MulResultCount {
            /// The opcode.
            opcode: Opcode,
            /// The result's component count.
            count: u32,
            /// `M`.
            m: u32,
        } => "spv::Op::Op{opcode} result type number of components {count} does not match M {m}",
        /// An unpacked input's component count other than `K`.
        MulInputCount {
            /// The opcode.
            opcode: Opcode,
            /// The input's component count.
            count: u32,
            /// `K`.
            k: u32,
        } => "spv::Op::Op{opcode} input number of components {count} does not match K {k}",
        /// A `Transpose` that is not a boolean.
        TransposeNotBool {
            /// The opcode.
            opcode: Opcode,
            /// The operand.
            id: Id,
        } => "spv::Op::Op{opcode} Transpose <id> {id} is not a scalar boolean.",
        /// An operand that must be a constant and is not.
        OperandNotConstant {
            /// The opcode.
            opcode: Opcode,
            /// The operand's name.
            operand: &'static str,
            /// The operand.
            id: Id,
        } => "spv::Op::Op{opcode} {operand} <id> {id} is not a constant instruction.",
        // --- Raw access chains. ---
        /// A raw chain to another storage class than StorageBuffer,
        /// PhysicalStorageBuffer or Uniform.
        RawChainStorageClass {
            /// The chain.
            id: Id,
        } => "The Result Type of OpRawAccessChainNV <id> {id} must point to a storage class of StorageBuffer, PhysicalStorageBuffer, or Uniform.",
        /// A raw chain to an array, matrix or struct.
        RawChainPointee {
            /// The chain.
            id: Id,
        } => "The Result Type of OpRawAccessChainNV <id> {id} must not point to OpTypeArray, OpTypeMatrix, or OpTypeStruct.",
        /// A stride that is not an `OpConstant`.
        RawStrideNotConstant {
            /// The chain.
            id: Id,
            /// The stride's opcode.
            found: Opcode,
        } => "The Stride of OpRawAccessChainNV <id> {id} must be OpConstant. Found Op{found}.",
        /// A stride, index or offset whose type is not an integer.
        RawOperandNotInt {
            /// `Stride`, `Index` or `Offset`.
            what: RawChainOperand,
            /// The chain.
            id: Id,
            /// The type's opcode.
            found: Opcode,
        } => "The type of {what} of OpRawAccessChainNV <id> {id} must be OpTypeInt. Found Op{found}.",
        /// An index or offset that is not 32 bits wide.
        RawOperandWidth {
            /// `Index` or `Offset`.
            what: RawChainOperand,
            /// The chain.
            id: Id,
            /// Its width.
            width: u32,
        } => "The integer width of {what} of OpRawAccessChainNV <id> {id} must be 32. Found {width}.",
        /// A zero stride with per-element robustness.
        RawStrideZero => "Stride must not be zero when per-element robustness is used.",
        /// Robustness with `PhysicalStorageBuffer`.
        RawRobustPhysical => "Storage class cannot be PhysicalStorageBuffer when raw access chain robustness is used.",
        /// Both robustness kinds.
        RawRobustExclusive => "Per-component robustness and per-element robustness are mutually exclusive.",
    }
}

/// Which pointer operand of `OpCopyMemory` or `OpCopyMemorySized`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum CopyOperand {
    /// The first operand.
    Target,
    /// The second operand.
    Source,
}

/// A copy operand prints as spirv-val names it: `Target` or `Source`.
impl Arg for CopyOperand {
    fn show(&self, _: &str, out: &mut dyn fmt::Write, _: &Namer<'_>) -> fmt::Result {
        out.write_str(match self {
            CopyOperand::Target => "Target",
            CopyOperand::Source => "Source",
        })
    }
}

/// Which operand of `OpRawAccessChainNV`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum RawChainOperand {
    /// The stride.
    Stride,
    /// The index.
    Index,
    /// The offset.
    Offset,
}

/// A raw access chain operand prints as spirv-val names it.
impl Arg for RawChainOperand {
    fn show(&self, _: &str, out: &mut dyn fmt::Write, _: &Namer<'_>) -> fmt::Result {
        out.write_str(match self {
            RawChainOperand::Stride => "Stride",
            RawChainOperand::Index => "Index",
            RawChainOperand::Offset => "Offset",
        })
    }
}

/// What the pass remembers across instructions.
#[derive(Debug, Default)]
pub(crate) struct Memory {
    /// The instruction index ranges of function bodies (`OpFunction` to
    /// `OpFunctionEnd`), in order, once read.
    functions: Option<Vec<(usize, usize)>>,
    /// Whether the instruction is inside a function (set for variables alone).
    pub(crate) in_function: bool,
    /// The type walks done, by walk and type: many variables or stores of one large
    /// type would otherwise walk it each time.
    walks: RefCell<BTreeMap<(Walk, u32), bool>>,
    /// The pointers loaded for an `OpImageQuery*` instruction, found on first use.
    queried: core::cell::OnceCell<alloc::collections::BTreeSet<u32>>,
}

/// A walk of a type for something within it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Walk {
    /// `ContainsInvalidBool`, without or with skipping built-ins.
    InvalidBool(bool),
    CooperativeMatrix,
    CooperativeVector,
    /// Images, samplers, sampled images, acceleration structures.
    Opaque,
}

impl Memory {
    /// The pointers some `OpLoad` reads for an `OpImageQuery*` instruction's image,
    /// found once, in two passes over the module.
    pub(crate) fn queried(&self, q: &Query<'_>) -> &alloc::collections::BTreeSet<u32> {
        self.queried.get_or_init(|| {
            let mut images = alloc::collections::BTreeSet::new();
            for x in q.module.instructions() {
                let query = matches!(
                    x.opcode(),
                    O::ImageQueryFormat
                        | O::ImageQueryOrder
                        | O::ImageQuerySizeLod
                        | O::ImageQuerySize
                        | O::ImageQueryLod
                        | O::ImageQueryLevels
                        | O::ImageQuerySamples
                );
                if let (true, Some(&image)) = (query, x.words().get(3)) {
                    images.insert(image);
                }
            }
            let mut pointers = alloc::collections::BTreeSet::new();
            if images.is_empty() {
                return pointers;
            }
            for x in q.module.instructions() {
                let w = x.words();
                if let (O::Load, Some(r), Some(&p)) = (x.opcode(), w.get(2), w.get(3)) {
                    if images.contains(r) {
                        pointers.insert(p);
                    }
                }
            }
            pointers
        })
    }

    /// `walk()`'s answer for `id`, found once per walk and type (the module-wide
    /// facts a walk reads are gathered before the first instruction).
    pub(crate) fn remember(&self, walk: Walk, id: u32, f: impl FnOnce() -> bool) -> bool {
        if let Some(&found) = self.walks.borrow().get(&(walk, id)) {
            return found;
        }
        let found = f();
        self.walks.borrow_mut().insert((walk, id), found);
        found
    }
}

/// Whether the addressing model is `Logical` or `PhysicalStorageBuffer64`, where
/// spirv-val restricts pointers unless relaxed.
pub(crate) fn logical_or_psb(q: &Query<'_>) -> bool {
    matches!(
        q.state.addressing_model(),
        crate::spv::AddressingModel::Logical | crate::spv::AddressingModel::PhysicalStorageBuffer64
    )
}

/// The instructions of each function, as spirv-val's first loop assigns them: from an
/// `OpFunction` to the next `OpFunctionEnd` (or the module's end).
fn function_spans(q: &Query<'_>) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut open = None;
    for (i, inst) in q.module.instructions().enumerate() {
        match inst.opcode() {
            O::Function if open.is_none() => open = Some(i),
            O::FunctionEnd => {
                if let Some(start) = open.take() {
                    spans.push((start, i));
                }
            }
            _ => {}
        }
    }
    if let Some(start) = open {
        spans.push((start, usize::MAX));
    }
    spans
}

/// The pass for one instruction.
#[inline(always)]
pub(crate) fn check(q: &Query<'_>, inst: &Inst<'_>, st: &mut Memory) -> Result<(), Fault> {
    // Found from the module rather than followed, so that it holds when an earlier
    // pass has stopped at an instruction; only variables ask.
    if matches!(inst.opcode, O::Variable | O::UntypedVariableKHR) {
        let functions = st.functions.get_or_insert_with(|| function_spans(q));
        let at = functions.partition_point(|&(_, end)| end < inst.index);
        st.in_function = functions
            .get(at)
            .is_some_and(|&(start, _)| start <= inst.index);
    }
    let st = &*st;
    match inst.opcode {
        O::Variable | O::UntypedVariableKHR => variable::variable(q, inst, st),
        O::Load => access::load(q, inst),
        O::Store => access::store(q, inst, st),
        O::CopyMemory | O::CopyMemorySized => copy::copy(q, inst),
        O::PtrAccessChain | O::UntypedPtrAccessChainKHR | O::UntypedInBoundsPtrAccessChainKHR => {
            chain::ptr_access_chain(q, inst)
        }
        O::AccessChain
        | O::InBoundsAccessChain
        | O::InBoundsPtrAccessChain
        | O::UntypedAccessChainKHR
        | O::UntypedInBoundsAccessChainKHR => chain::access_chain(q, inst),
        O::RawAccessChainNV => chain::raw_access_chain(q, inst),
        O::ArrayLength | O::UntypedArrayLengthKHR => chain::array_length(q, inst),
        O::PtrEqual | O::PtrNotEqual | O::PtrDiff => chain::ptr_comparison(q, inst),
        O::CooperativeMatrixLengthKHR | O::CooperativeMatrixLengthNV => {
            cooperative::length(q, inst)
        }
        O::CooperativeMatrixLoadNV
        | O::CooperativeMatrixStoreNV
        | O::CooperativeMatrixLoadKHR
        | O::CooperativeMatrixStoreKHR => cooperative::load_store(q, inst),
        O::CooperativeMatrixLoadTensorNV | O::CooperativeMatrixStoreTensorNV => {
            cooperative::load_store_tensor(q, inst)
        }
        O::CooperativeVectorLoadNV | O::CooperativeVectorStoreNV => {
            cooperative_vector::load_store(q, inst)
        }
        O::CooperativeVectorOuterProductAccumulateNV => cooperative_vector::outer_product(q, inst),
        O::CooperativeVectorReduceSumAccumulateNV => cooperative_vector::reduce_sum(q, inst),
        O::CooperativeVectorMatrixMulNV | O::CooperativeVectorMatrixMulAddNV => {
            cooperative_vector::matrix_mul(q, inst)
        }
        _ => Ok(()),
    }
}

/// What this family checks (see [`coverage`](crate::validate::coverage)).
pub(crate) const COVERAGE: crate::validate::coverage::Family = crate::validate::coverage::Family {
    opcodes: {
        use crate::spv::Opcode as O;
        &[
            O::Variable,
            O::UntypedVariableKHR,
            O::Load,
            O::Store,
            O::CopyMemory,
            O::CopyMemorySized,
            O::PtrAccessChain,
            O::UntypedPtrAccessChainKHR,
            O::UntypedInBoundsPtrAccessChainKHR,
            O::AccessChain,
            O::InBoundsAccessChain,
            O::InBoundsPtrAccessChain,
            O::UntypedAccessChainKHR,
            O::UntypedInBoundsAccessChainKHR,
            O::RawAccessChainNV,
            O::ArrayLength,
            O::UntypedArrayLengthKHR,
            O::PtrEqual,
            O::PtrNotEqual,
            O::PtrDiff,
            O::CooperativeMatrixLengthKHR,
            O::CooperativeMatrixLengthNV,
            O::CooperativeMatrixLoadNV,
            O::CooperativeMatrixStoreNV,
            O::CooperativeMatrixLoadKHR,
            O::CooperativeMatrixStoreKHR,
            O::CooperativeMatrixLoadTensorNV,
            O::CooperativeMatrixStoreTensorNV,
            O::CooperativeVectorLoadNV,
            O::CooperativeVectorStoreNV,
            O::CooperativeVectorOuterProductAccumulateNV,
            O::CooperativeVectorReduceSumAccumulateNV,
            O::CooperativeVectorMatrixMulNV,
            O::CooperativeVectorMatrixMulAddNV,
        ]
    },
    ..crate::validate::coverage::Family::new("memory", "validate_memory.cpp")
};
