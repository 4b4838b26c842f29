//! The faults of spirv-val's memory pass ([`MemoryError`]); their text is in
//! `memory_text.rs`. Variants whose message starts with a Vulkan rule's id carry
//! `vulkan`: spirv-val prints the id only when validating for Vulkan.

use crate::spv::Opcode;
use crate::types::Id;

/// Which pointer operand of `OpCopyMemory` or `OpCopyMemorySized`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum CopyOperand {
    /// The first operand.
    Target,
    /// The second operand.
    Source,
}

/// A fault of spirv-val's memory rules, with what it involves. Opcodes are the
/// instruction's; ids are named as spirv-val names them.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum MemoryError {
    // --- Memory access operands. ---
    /// A `PhysicalStorageBuffer` access without `Aligned`.
    PhysicalNeedsAligned {
        /// Whether the Vulkan rule's id is named.
        vulkan: bool,
    },
    /// `MakePointerAvailable` on a load.
    AvailableOnLoad,
    /// `MakePointerAvailable` without `NonPrivatePointer`.
    AvailableNeedsNonPrivate,
    /// `MakePointerVisible` on a store.
    VisibleOnStore,
    /// `MakePointerVisible` without `NonPrivatePointer`.
    VisibleNeedsNonPrivate,
    /// `NonPrivatePointer` on a pointer of another storage class.
    NonPrivateStorageClass,
    /// An `Aligned` value that is not a power of two.
    AlignedNotPowerOfTwo {
        /// The value.
        value: u32,
    },
    /// An `Aligned` value below the largest scalar's size.
    AlignedTooSmall {
        /// Whether the Vulkan rule's id is named.
        vulkan: bool,
        /// The value.
        value: u32,
        /// The largest scalar's size in bytes.
        largest: u32,
    },
    /// The first of two memory accesses of a copy has `MakePointerVisible`.
    TargetVisible,
    /// The second of two memory accesses of a copy has `MakePointerAvailable`.
    SourceAvailable,
    /// Two memory accesses before SPIR-V 1.4.
    TwoAccessesNeedVersion {
        /// The copy's opcode.
        opcode: Opcode,
    },

    // --- Variables. ---
    /// `OpUntypedVariableKHR` whose result type is not an untyped pointer.
    UntypedVariableResultType,
    /// `OpVariable` whose result type is not a pointer.
    VariableResultType {
        /// The result type.
        ty: Id,
    },
    /// `OpUntypedVariableKHR` whose data type is not a type.
    DataTypeNotType,
    /// `OpUntypedVariableKHR` without a data type in a storage class that needs one.
    DataTypeMissing,
    /// `OpUntypedVariableKHR` without a data type in Vulkan.
    VulkanDataTypeMissing,
    /// An initializer that is neither a constant nor a module-scope variable.
    InitializerNotConstant {
        /// The initializer.
        initializer: Id,
    },
    /// An initializer of another type.
    InitializerType,
    /// A bool in an `Input` or `Output` variable without `BuiltIn`.
    BoolInInterface {
        /// Whether the Vulkan rule's id is named.
        vulkan: bool,
    },
    /// A bool in an externally visible storage class.
    BoolExternal,
    /// A storage class Vulkan does not have.
    StorageClassForEnv,
    /// A `Generic` variable.
    GenericVariable,
    /// A variable in a function, not of the `Function` storage class.
    NotFunctionInside,
    /// A `Function` variable outside functions.
    FunctionOutside,
    /// The storage class differs from the result type's.
    StorageClassMismatch,
    /// A logical-addressing variable holding a pointer of another storage class.
    LogicalPointerStorage,
    /// A variable holding a storage-buffer pointer without
    /// `VariablePointersStorageBuffer`.
    LogicalStorageBufferPointer,
    /// A variable holding a workgroup pointer without `VariablePointers`.
    LogicalWorkgroupPointer,
    /// A variable holding a pointer, outside `Function` and `Private`.
    LogicalPointerVariableStorage,
    /// A Vulkan push constant that is not a struct.
    PushConstantType {
        /// The variable.
        variable: Id,
    },
    /// A Vulkan `UniformConstant` variable of a non-opaque type.
    UniformConstantType {
        /// The variable.
        variable: Id,
    },
    /// A Vulkan `Uniform` variable that is not a struct or array of structs.
    UniformType {
        /// The variable.
        variable: Id,
    },
    /// A Vulkan `StorageBuffer` variable that is not a struct or array of structs.
    StorageBufferType {
        /// The variable.
        variable: Id,
    },
    /// `Invariant` on a variable that is not `Input` or `Output` (Vulkan).
    InvariantVariable,
    /// `Invariant` on a member of such a variable's struct (Vulkan).
    InvariantMember,
    /// A Vulkan `Workgroup` initializer other than `OpConstantNull`.
    WorkgroupInitializer {
        /// The variable.
        variable: Id,
    },
    /// A Vulkan initializer in a storage class that allows none.
    InitializerStorageClass {
        /// The variable.
        variable: Id,
    },
    /// An initializer in a storage class that never allows one.
    InitializerNotAllowed {
        /// The variable.
        variable: Id,
        /// The storage class.
        storage_class: u32,
    },
    /// A `PhysicalStorageBuffer` variable.
    PhysicalStorageBufferVariable,
    /// A Vulkan variable of a runtime array type.
    RuntimeArrayVariable {
        /// The variable.
        variable: Id,
    },
    /// A Vulkan runtime-array variable (with `RuntimeDescriptorArrayEXT`) of another
    /// storage class.
    RuntimeArrayStorage,
    /// A Vulkan storage-buffer struct with a runtime array, without `Block`.
    RuntimeArrayBlock,
    /// A Vulkan struct with a runtime array in another storage class.
    RuntimeArrayStructStorage,
    /// A cooperative matrix outside `Function` and `Private`.
    CooperativeMatrixStorage,
    /// A cooperative vector outside `Function` and `Private`.
    CooperativeVectorStorage,
    /// An 8- or 16-bit type in a storage class that never allows it.
    NarrowStorageClass {
        /// 8 or 16.
        bits: u32,
        /// The storage class.
        storage_class: u32,
    },
    /// An 8- or 16-bit type in a storage class that needs a capability.
    NarrowNeedsCapability {
        /// 8 or 16.
        bits: u32,
        /// The storage class.
        storage_class: u32,
    },

    // --- Loads and stores. ---
    /// A pointer operand that is not a logical pointer.
    NotLogicalPointer {
        /// `OpLoad` or `OpStore`.
        opcode: Opcode,
        /// The pointer.
        pointer: Id,
    },
    /// A pointer operand whose type is not a pointer.
    PointerType {
        /// `OpLoad` or `OpStore`.
        opcode: Opcode,
        /// The pointer.
        pointer: Id,
    },
    /// A load whose result type is not the pointee.
    LoadType {
        /// The result type.
        ty: Id,
        /// The pointer.
        pointer: Id,
    },
    /// A load of a runtime array.
    LoadRuntimeArray,
    /// An 8- or 16-bit load of an aggregate.
    NarrowLoad,
    /// A store through a pointer to void.
    StoreVoidPointer {
        /// The pointer.
        pointer: Id,
    },
    /// A store to a read-only storage class.
    StoreReadOnly {
        /// The pointer.
        pointer: Id,
    },
    /// A store to `ShaderRecordBufferKHR`.
    StoreShaderRecord,
    /// A Vulkan store to a `Uniform` block.
    StoreUniformBlock {
        /// Whether the Vulkan rule's id is named.
        vulkan: bool,
    },
    /// A stored object without a type.
    StoreNotObject {
        /// The object.
        object: Id,
    },
    /// A stored object of void type.
    StoreVoidObject {
        /// The object.
        object: Id,
    },
    /// A stored object of another type than the pointee.
    StoreType {
        /// The pointer.
        pointer: Id,
        /// The object.
        object: Id,
    },
    /// A stored struct whose layout differs (with `--relax-struct-store`).
    StoreLayout {
        /// The pointer.
        pointer: Id,
        /// The object.
        object: Id,
    },
    /// A Vulkan store of an image, sampler or acceleration structure.
    StoreOpaque {
        /// Whether the Vulkan rule's id is named.
        vulkan: bool,
    },

    // --- Copies. ---
    /// A copy operand that is not a pointer.
    CopyNotPointer {
        /// Which operand.
        operand: CopyOperand,
        /// The operand.
        id: Id,
    },
    /// A copy operand that points to void.
    CopyVoidPointer {
        /// Which operand.
        operand: CopyOperand,
        /// The operand.
        id: Id,
    },
    /// Copied pointees differ (spirv-val names the source twice, once as "Target").
    CopyType {
        /// The source operand.
        source: Id,
        /// The source's pointee.
        source_type: Id,
    },
    /// A copy between two untyped pointers.
    CopyUntyped,
    /// A size that is not an integer scalar.
    SizeNotInt {
        /// The size.
        size: Id,
    },
    /// A constant zero size.
    SizeZero {
        /// The size.
        size: Id,
    },
    /// A signed constant size with its sign bit set.
    SizeNegative {
        /// The size.
        size: Id,
    },
    /// A constant size not a multiple of 4 or 2 without the capabilities for less.
    SizeMultiple {
        /// 4 or 2.
        of: u32,
    },
    /// A copy of objects with 8- or 16-bit types.
    CopyNarrow,

    // --- Access chains. ---
    /// The result type is not the pointer type the chain makes.
    ChainResultType {
        /// The chain's opcode.
        opcode: Opcode,
        /// The chain.
        id: Id,
        /// Whether an untyped pointer was needed.
        untyped: bool,
        /// The result type's opcode.
        found: Opcode,
    },
    /// An untyped chain's base type that is a pointer or not a type.
    BaseTypeNotNonPointer,
    /// One of base type and base is a block array, the other not.
    BlockArrayMismatch,
    /// Base type and base are different block arrays.
    BlockArrayDifferent,
    /// A base that is not a pointer.
    BaseNotPointer {
        /// The chain's opcode.
        opcode: Opcode,
        /// The base.
        base: Id,
    },
    /// Result and base storage classes differ.
    ChainStorageClass {
        /// The chain's opcode.
        opcode: Opcode,
    },
    /// More indexes than the limit.
    TooManyIndexes {
        /// The chain's opcode.
        opcode: Opcode,
        /// The limit.
        limit: u32,
        /// The indexes.
        found: usize,
    },
    /// An index that is not an integer.
    IndexNotInt {
        /// The chain's opcode.
        opcode: Opcode,
    },
    /// A negative constant index under logical addressing.
    NegativeIndex {
        /// The index's word in the instruction.
        word: usize,
    },
    /// A struct index that is not a constant.
    StructIndexNotConstant {
        /// The chain's opcode.
        opcode: Opcode,
        /// The index.
        index: Id,
    },
    /// A struct index past the members.
    StructIndexOutOfBounds {
        /// The index.
        index: Id,
        /// The chain's opcode.
        opcode: Opcode,
        /// Its value.
        value: i64,
        /// The struct.
        structure: Id,
        /// Its member count.
        members: i64,
    },
    /// Indexes left over at a non-composite type.
    IndexIntoNonComposite {
        /// The chain's opcode.
        opcode: Opcode,
    },
    /// The result's pointee differs from the type indexed to.
    ChainResultMismatch {
        /// The chain's opcode.
        opcode: Opcode,
        /// The opcode of the result type's pointee.
        expected: Opcode,
        /// The opcode of the type indexed to.
        found: Opcode,
    },
    /// A pointer chain's element that is not an integer.
    ElementNotInt,
    /// A non-zero element into a block.
    ElementIntoBlock,
    /// A pointer chain's base whose type has no `ArrayStride`.
    PtrChainArrayStride,
    /// A Vulkan pointer chain into `Workgroup` without `VariablePointers`.
    PtrChainWorkgroup {
        /// Whether the Vulkan rule's id is named.
        vulkan: bool,
    },
    /// A Vulkan pointer chain into `StorageBuffer` without variable pointers.
    PtrChainStorageBuffer {
        /// Whether the Vulkan rule's id is named.
        vulkan: bool,
    },
    /// A Vulkan pointer chain into another storage class.
    PtrChainStorageClass {
        /// Whether the Vulkan rule's id is named.
        vulkan: bool,
    },

    // --- Array lengths. ---
    /// A result type that is not a 32- or 64-bit unsigned integer.
    ArrayLengthResultType {
        /// The opcode.
        opcode: Opcode,
        /// The instruction's result.
        id: Id,
    },
    /// `OpUntypedArrayLengthKHR` of a pointer that is not untyped.
    ArrayLengthUntyped,
    /// Not a pointer to a struct.
    ArrayLengthNotStruct {
        /// The opcode.
        opcode: Opcode,
        /// The instruction's result.
        id: Id,
    },
    /// A struct whose last member is not a runtime array.
    ArrayLengthLastMember {
        /// The opcode.
        opcode: Opcode,
        /// The instruction's result.
        id: Id,
    },
    /// A member operand other than the last.
    ArrayLengthMember {
        /// The opcode.
        opcode: Opcode,
        /// The instruction's result.
        id: Id,
    },
    /// A Vulkan array length inside a `Uniform` block.
    ArrayLengthUniformBlock {
        /// Whether the Vulkan rule's id is named.
        vulkan: bool,
        /// The opcode.
        opcode: Opcode,
    },

    // --- Pointer comparisons. ---
    /// Logical pointers compared without variable pointers.
    PtrCompareLogical,
    /// `OpPtrDiff` whose result is not an integer.
    PtrDiffResultType,
    /// `OpPtrEqual` or `OpPtrNotEqual` whose result is not a bool.
    PtrCompareResultType,
    /// An operand that is not a pointer.
    PtrOperandType,
    /// Operands of different types.
    PtrOperandTypes,
    /// Untyped operands of different storage classes.
    PtrStorageClasses,
    /// A logical pointer outside `Workgroup` and `StorageBuffer`.
    PtrInvalidStorageClass,
    /// A workgroup pointer without `VariablePointers`.
    PtrWorkgroup,
    /// A `PhysicalStorageBuffer` pointer under physical addressing.
    PtrPhysical,

    // --- Cooperative matrices. ---
    /// A length whose result type is not a 32-bit unsigned integer.
    CooperativeLengthResultType {
        /// The opcode.
        opcode: Opcode,
        /// The instruction's result.
        id: Id,
    },
    /// A length of a type that is not the opcode's cooperative matrix type.
    CooperativeLengthType {
        /// The opcode.
        opcode: Opcode,
        /// The type operand.
        ty: Id,
        /// Whether the KHR type was needed.
        khr: bool,
    },
    /// A load's result or a store's object that is not a cooperative matrix.
    NotCooperativeMatrix {
        /// The opcode.
        opcode: Opcode,
        /// The type.
        ty: Id,
    },
    /// A pointer operand that is not a logical pointer.
    CooperativeNotLogical {
        /// The opcode.
        opcode: Opcode,
        /// The pointer.
        pointer: Id,
    },
    /// A pointer operand whose type is not a pointer.
    CooperativePointerType {
        /// The opcode.
        opcode: Opcode,
        /// The pointer.
        pointer: Id,
    },
    /// A pointer of another storage class (always for NV, in Vulkan for KHR).
    CooperativeStorageClass {
        /// The opcode.
        opcode: Opcode,
        /// The pointer type.
        ty: Id,
    },
    /// A pointer to something other than a scalar or vector.
    CooperativePointee {
        /// The opcode.
        opcode: Opcode,
        /// The pointer.
        pointer: Id,
    },
    /// A stride that is not an integer scalar.
    StrideNotInt {
        /// The stride.
        stride: Id,
    },
    /// A column-major operand that is not a boolean constant.
    ColumnMajor {
        /// The operand.
        id: Id,
    },
    /// A memory layout that is not an integer constant.
    MemoryLayoutOperand {
        /// The operand.
        id: Id,
    },
    /// An ARM blocked-interleaved layout without its capability.
    ArmLayoutCapability,
    /// An ARM layout's stride that is not a constant.
    StrideNotConstant {
        /// The layout.
        layout: u64,
    },
    /// An ARM layout's stride other than 1, 2 or 4.
    StrideValue {
        /// The layout.
        layout: u64,
    },
    /// Rows or columns not a multiple of what an ARM layout needs.
    LayoutMultiple {
        /// The layout.
        layout: u64,
        /// The stride.
        stride: u64,
        /// Columns rather than rows.
        columns: bool,
        /// The multiple needed.
        multiple: u64,
    },
    /// A row- or column-major layout without a stride.
    StrideRequired {
        /// The layout.
        layout: u64,
    },

    // --- Raw access chains. ---
    /// A result type pointing outside `StorageBuffer`, `PhysicalStorageBuffer` and
    /// `Uniform`.
    RawChainStorageClass {
        /// The chain.
        id: Id,
    },
    /// A result type pointing to an array, matrix or struct.
    RawChainPointee {
        /// The chain.
        id: Id,
    },
    /// A stride that is not an `OpConstant`.
    RawStrideNotConstant {
        /// The chain.
        id: Id,
        /// The stride's opcode.
        found: Opcode,
    },
    /// A stride, index or offset whose type is not an integer.
    RawOperandNotInt {
        /// `Stride`, `Index` or `Offset`.
        what: &'static str,
        /// The chain.
        id: Id,
        /// The type's opcode.
        found: Opcode,
    },
    /// An index or offset that is not 32 bits wide.
    RawOperandWidth {
        /// `Index` or `Offset`.
        what: &'static str,
        /// The chain.
        id: Id,
        /// Its width.
        width: u32,
    },
    /// A zero stride with per-element robustness.
    RawStrideZero,
    /// Robustness with `PhysicalStorageBuffer`.
    RawRobustPhysical,
    /// Both robustness kinds.
    RawRobustExclusive,
}
