//! The faults of spirv-val's type, constant, literal, misc and debug passes
//! ([`TypeError`]) and the ids they name. Their messages, spirv-val 2025.5's word for
//! word (typos and missing spaces included), are written by `type_messages.rs` (the
//! type rules) and `value_messages.rs` (the others).

use super::error::{Namer, Out};
use crate::__private::Vec;
use crate::spv::Opcode;
use crate::types::Id;
use core::fmt::Result;

/// A fault of spirv-val's type, constant, literal, misc and debug rules, with the ids
/// and numbers its message names. Opcodes are named as spirv-val names them.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum TypeError {
    // --- OpTypeInt and OpTypeFloat. ---
    /// An 8-bit integer type without `Int8` or an extension enabling it.
    Int8,
    /// A 16-bit integer type without `Int16` or an extension enabling it.
    Int16,
    /// A 64-bit integer type without `Int64`.
    Int64,
    /// An integer width other than 8, 16, 32 and 64: the width.
    IntWidth(u32),
    /// A signedness other than 0 and 1.
    IntSignedness,
    /// A signed integer type with the `Kernel` capability.
    KernelSignedness,
    /// A 16-bit IEEE float type without `Float16`, `Float16Buffer` or an extension.
    Float16,
    /// An 8-bit float type without `Float8EXT`.
    Float8,
    /// An 8-bit float type without an encoding.
    Float8Encoding,
    /// An 8-bit float type whose encoding is not an 8-bit one: the encoding's name.
    Float8UnknownEncoding(&'static str),
    /// A 64-bit float type without `Float64`.
    Float64,
    /// A float width other than 8, 16, 32 and 64: the width.
    FloatWidth(u32),

    // --- Vectors and matrices. ---
    /// A vector component that is neither scalar nor pointer, with
    /// `MaskedGatherScatterINTEL`: the component type.
    VectorComponentMasked(Id),
    /// A vector component that is not a scalar: the component type.
    VectorComponent(Id),
    /// 8 or 16 components without `Vector16`: the count and the opcode.
    Vector16(u32, Opcode),
    /// Another component count: the count and the opcode.
    VectorSize(u32, Opcode),
    /// A cooperative vector component that is not a number: the component type.
    CoopVectorComponent(Id),
    /// A cooperative vector count that is not a constant: the count.
    CoopVectorCountNotConstant(Id),
    /// A cooperative vector count whose type is not an integer: the count.
    CoopVectorCountNotInt(Id),
    /// A cooperative vector count below 1: the count and its value.
    CoopVectorCountValue(Id, i64),
    /// Matrix columns that are not vectors.
    MatrixColumns,
    /// Matrix components that are not floats.
    MatrixComponent,
    /// A matrix column count other than 2, 3 and 4.
    MatrixColumnCount,

    // --- Arrays. ---
    /// An element that is not a type: runtime array or not, the element.
    ArrayElementNotType(bool, Id),
    /// A void element: runtime array or not, the element.
    ArrayElementVoid(bool, Id),
    /// An array of a Block or BufferBlock struct with `ArrayStride`.
    ArrayStrideOnBlockArray,
    /// An array of runtime arrays in Vulkan: runtime array or not, the element.
    ArrayOfRuntimeArray(bool, Id),
    /// An array length that is not a constant: the length.
    ArrayLengthNotConstant(Id),
    /// An array length whose type is not an integer: the length.
    ArrayLengthNotInt(Id),
    /// An array length below 1: the length and its value.
    ArrayLengthValue(Id, i64),

    // --- Structs. ---
    /// A struct that is its own member.
    StructSelfReference,
    /// A member that is not a type: the member.
    StructMemberNotType(Id),
    /// A void member.
    StructMemberVoid,
    /// A member struct with BuiltIn members: the member and the struct.
    StructBuiltInMember(Id, Id),
    /// A runtime array before a Vulkan struct's last member.
    RuntimeArrayNotLast,
    /// A Vulkan struct with a runtime array that is not a Block or BufferBlock.
    RuntimeArrayStructNotBlock,
    /// A Block or BufferBlock within another.
    NestedBlock,
    /// Some but not all members BuiltIn: the struct.
    BuiltInMixed(Id),
    /// A Vulkan struct containing an opaque type.
    StructOpaque,

    // --- Pointers and functions. ---
    /// A pointee that is not a type: the pointee.
    PointerTypeNotType(Id),
    /// A storage class Vulkan does not have.
    PointerStorageClass,
    /// An untyped Workgroup pointer in Vulkan without the explicit layout capability.
    UntypedPointerWorkgroup,
    /// An untyped pointer of a storage class without explicit layout, in Vulkan.
    UntypedPointerStorageClass,
    /// A return type that is not a type: the return type.
    FunctionReturnNotType(Id),
    /// A parameter type that is not a type: the parameter type.
    FunctionParameterNotType(Id),
    /// A void parameter type: the parameter type.
    FunctionParameterVoid(Id),
    /// More parameters than the limit: the limit, the function type, the count.
    FunctionParameters(u32, Id, usize),
    /// A function type used other than by a function, a debug or a decoration
    /// instruction (reported at the use): the function type.
    FunctionTypeUse(Id),
    /// `OpTypeForwardPointer` of something other than an `OpTypePointer`.
    ForwardPointerNotPointer,
    /// `OpTypeForwardPointer` whose storage class is not the pointer's.
    ForwardPointerStorageClass,
    /// A forward pointer to something other than a struct.
    ForwardPointerNotStruct,
    /// A Vulkan forward pointer that is not PhysicalStorageBuffer.
    ForwardPointerVulkan,

    // --- Cooperative matrices. ---
    /// A component that is not a number: the component type.
    CoopMatrixComponent(Id),
    /// A bfloat16 component without `BFloat16CooperativeMatrixKHR`: the component.
    CoopMatrixBFloat16(Id),
    /// An 8-bit float component without `Float8CooperativeMatrixEXT`: the component.
    CoopMatrixFloat8(Id),
    /// A scope, rows, columns or use operand that is not an integer constant: which
    /// (0 scope, 1 rows, 2 columns, 3 use) and the operand.
    CoopMatrixOperand(u8, Id),
    /// Workgroup scope with an entry point without a local size: the entry point.
    CoopMatrixNoLocalSize(Id),
    /// Workgroup scope before a `LocalSizeId` operand's definition: the operand.
    CoopMatrixLocalSizeIdLater(Id),

    // --- Tensor types. ---
    /// A tensor layout or view dimension that is not a 32-bit integer: the opcode and
    /// the dimension.
    TensorDimNot32(Opcode, Id),
    /// A tensor layout or view dimension outside 1 to 5: the opcode and the dimension.
    TensorDimRange(Opcode, Id),
    /// A clamp mode that is not a 32-bit integer: the opcode and the operand.
    TensorClampNot32(Opcode, Id),
    /// A clamp mode that is not a `TensorClampMode`: the opcode and the operand.
    TensorClampInvalid(Opcode, Id),
    /// A `HasDimensions` that is not a bool: the opcode and the operand.
    TensorHasDimNotBool(Opcode, Id),
    /// A permutation value that is not a 32-bit integer: the opcode and the value.
    TensorPermutationNot32(Opcode, Id),
    /// A permutation value that is not a dimension: the opcode and the value.
    TensorPermutationDim(Opcode, Id),
    /// Permutation values that are not a permutation: the opcode.
    TensorPermutationInvalid(Opcode),
    /// As many permutation values as dimensions: the opcode.
    TensorPermutationCount(Opcode),
    /// An `OpTypeTensorARM` element that is not a scalar: the element type.
    TensorElement(Id),
    /// A tensor rank that is not a constant: the rank.
    TensorRankNotConstant(Id),
    /// A tensor rank whose type is not an integer: the rank.
    TensorRankNotInt(Id),
    /// A tensor rank of 0: the rank.
    TensorRankZero(Id),
    /// A tensor shape that is not a constant: the shape.
    TensorShapeNotConstant(Id),
    /// A tensor shape that is not an integer array of the rank's length: the shape.
    TensorShapeNotArray(Id),
    /// A tensor shape constituent of 0: its index.
    TensorShapeZero(usize),

    // --- Constants. ---
    /// A boolean constant whose type is not bool: the opcode and the type.
    ConstantNotBool(Opcode, Id),
    /// A composite constant whose type is not a composite: the opcode and the type.
    CompositeNotComposite(Opcode, Id),
    /// A vector constant's constituent count: the opcode and the type.
    CompositeVectorCount(Opcode, Id),
    /// A constituent that is not a constant or undef: the opcode and the constituent.
    CompositeNotConstant(Opcode, Id),
    /// A vector constituent of another type: the opcode, the constituent, the type.
    CompositeVectorElement(Opcode, Id, Id),
    /// A matrix constant's column count: the opcode and the type.
    CompositeMatrixCount(Opcode, Id),
    /// A column that is not of the column type's opcode: the opcode, the constituent,
    /// the type.
    CompositeMatrixColumn(Opcode, Id, Id),
    /// A column of another component type: the opcode, the constituent, the type.
    CompositeMatrixComponent(Opcode, Id, Id),
    /// A column of another size: the opcode, the constituent, the type.
    CompositeMatrixSize(Opcode, Id, Id),
    /// An array constant's length: the opcode and the type.
    CompositeArrayCount(Opcode, Id),
    /// An array constituent of another type: the opcode, the constituent, the type.
    CompositeArrayElement(Opcode, Id, Id),
    /// A struct constant's member count: the opcode and the type (named twice).
    CompositeStructCount(Opcode, Id),
    /// A struct constituent of another type: the opcode, the constituent, the type.
    CompositeStructMember(Opcode, Id, Id),
    /// A cooperative matrix constant of other than one constituent: the opcode and
    /// the type.
    CompositeCoopMatrixCount(Opcode, Id),
    /// A cooperative matrix constituent of another type: the opcode, the constituent,
    /// the type.
    CompositeCoopMatrixComponent(Opcode, Id, Id),
    /// A tensor constant whose constituent count is not its shape's outermost
    /// dimension: the opcode, the type, the dimension, the count.
    CompositeTensorCount(Opcode, Id, u64, usize),
    /// A rank-1 tensor constituent of another type than the element type: the
    /// opcode, the constituent, the type.
    CompositeTensorElement(Opcode, Id, Id),
    /// A constituent of a higher-rank tensor that is not a tensor: the opcode and
    /// the constituent.
    CompositeTensorNotTensor(Opcode, Id),
    /// A tensor constituent of another element type: the opcode, the constituent,
    /// the type.
    CompositeTensorElementType(Opcode, Id, Id),
    /// A tensor constituent whose rank is not one less: the opcode, the constituent,
    /// the type, the rank expected and the rank found.
    CompositeTensorRank(Opcode, Id, Id, u64, u64),
    /// A tensor constituent whose shape does not match the inner dimensions: the
    /// opcode, the constituent, the type, the size expected, the dimension and the
    /// size found.
    CompositeTensorShape(Opcode, Id, Id, u64, usize, u64),
    /// `OpConstantSampler` whose type is not a sampler (reported at the type): the type.
    SamplerNotSampler(Id),
    /// `OpConstantNull` of a type without a null value: the type.
    NullNotNullable(Id),
    /// `OpSpecConstant` of a type other than an integer or float.
    SpecConstantType,
    /// `OpSpecConstantOp` of an opcode that needs `Shader`: the opcode.
    SpecOpShader(Opcode),
    /// `OpSpecConstantOp UConvert` before SPIR-V 1.4 without `Kernel` or the AMD
    /// extension.
    SpecOpUConvert,
    /// `OpSpecConstantOp` of an opcode that needs `Kernel`: the opcode.
    SpecOpKernel(Opcode),
    /// An 8- or 16-bit constant without the capabilities for full use.
    SmallConstant,

    // --- Literals. ---
    /// A literal whose high-order bits are not zero- or sign-extended: the
    /// instruction's result id (0 when none), printed as a number.
    LiteralHighBits(u32),

    // --- Misc. ---
    /// `OpUndef` of void.
    UndefVoid,
    /// `OpUndef` of an 8- or 16-bit type without the capabilities for full use.
    UndefSmall,
    /// `OpReadClockKHR` of another scope than Subgroup or Device, in Vulkan.
    ClockScopeVulkan,
    /// `OpReadClockKHR` of another scope than Subgroup, Workgroup or Device, in
    /// OpenCL.
    ClockScopeOpenCl,
    /// `OpReadClockKHR` whose result is not a 64-bit handle.
    ClockResult,
    /// `OpIsHelperInvocationEXT` whose result is not a bool: the opcode.
    HelperInvocationResult(Opcode),
    /// `OpAssumeTrueKHR` of a value that is not a bool.
    AssumeTrueValue,
    /// `OpExpectKHR` whose result is not an integer or bool scalar or vector.
    ExpectResult,
    /// `OpExpectKHR` whose value is not of the result type.
    ExpectValue,
    /// `OpExpectKHR` whose expected value is not of the result type.
    ExpectExpected,

    // --- Debug. ---
    /// `OpMemberName` of something other than a struct: the target.
    MemberNameNotStruct(Id),
    /// `OpMemberName` of a member the struct does not have: the member number
    /// (named as an id, as spirv-val does) and the struct.
    MemberNameIndex(u32, Id),
    /// `OpLine` whose file is not an `OpString`: the file.
    LineNotString(Id),
}

impl TypeError {
    /// spirv-val's message.
    pub(super) fn write(&self, out: &mut dyn Out, names: &Namer<'_>) -> Result {
        match self.write_type_rule(out, names) {
            Some(r) => r,
            None => self.write_value_rule(out, names),
        }
    }

    /// The ids the message names, in order.
    pub(super) fn ids(&self) -> Vec<Id> {
        use TypeError as E;
        match *self {
            E::VectorComponentMasked(a)
            | E::VectorComponent(a)
            | E::CoopVectorComponent(a)
            | E::CoopVectorCountNotConstant(a)
            | E::CoopVectorCountNotInt(a)
            | E::CoopVectorCountValue(a, _)
            | E::ArrayElementNotType(_, a)
            | E::ArrayElementVoid(_, a)
            | E::ArrayOfRuntimeArray(_, a)
            | E::ArrayLengthNotConstant(a)
            | E::ArrayLengthNotInt(a)
            | E::ArrayLengthValue(a, _)
            | E::StructMemberNotType(a)
            | E::PointerTypeNotType(a)
            | E::FunctionReturnNotType(a)
            | E::FunctionParameterNotType(a)
            | E::FunctionParameterVoid(a)
            | E::FunctionParameters(_, a, _)
            | E::FunctionTypeUse(a)
            | E::CoopMatrixComponent(a)
            | E::CoopMatrixBFloat16(a)
            | E::CoopMatrixFloat8(a)
            | E::CoopMatrixOperand(_, a)
            | E::CoopMatrixNoLocalSize(a)
            | E::CoopMatrixLocalSizeIdLater(a)
            | E::TensorDimNot32(_, a)
            | E::TensorDimRange(_, a)
            | E::TensorClampNot32(_, a)
            | E::TensorClampInvalid(_, a)
            | E::TensorHasDimNotBool(_, a)
            | E::TensorPermutationNot32(_, a)
            | E::TensorPermutationDim(_, a)
            | E::TensorElement(a)
            | E::TensorRankNotConstant(a)
            | E::TensorRankNotInt(a)
            | E::TensorRankZero(a)
            | E::TensorShapeNotConstant(a)
            | E::TensorShapeNotArray(a)
            | E::ConstantNotBool(_, a)
            | E::CompositeNotComposite(_, a)
            | E::CompositeVectorCount(_, a)
            | E::CompositeNotConstant(_, a)
            | E::CompositeMatrixCount(_, a)
            | E::CompositeArrayCount(_, a)
            | E::CompositeStructCount(_, a)
            | E::CompositeCoopMatrixCount(_, a)
            | E::CompositeTensorCount(_, a, _, _)
            | E::CompositeTensorNotTensor(_, a)
            | E::SamplerNotSampler(a)
            | E::NullNotNullable(a)
            | E::MemberNameNotStruct(a)
            | E::MemberNameIndex(_, a)
            | E::LineNotString(a) => Vec::from([a]),
            E::StructBuiltInMember(a, b)
            | E::CompositeVectorElement(_, a, b)
            | E::CompositeMatrixColumn(_, a, b)
            | E::CompositeMatrixComponent(_, a, b)
            | E::CompositeMatrixSize(_, a, b)
            | E::CompositeArrayElement(_, a, b)
            | E::CompositeStructMember(_, a, b)
            | E::CompositeCoopMatrixComponent(_, a, b)
            | E::CompositeTensorElement(_, a, b)
            | E::CompositeTensorElementType(_, a, b)
            | E::CompositeTensorRank(_, a, b, _, _)
            | E::CompositeTensorShape(_, a, b, _, _, _) => Vec::from([a, b]),
            _ => Vec::new(),
        }
    }
}
