//! The faults of spirv-val's type, constant, literal, misc and debug passes
//! ([`TypeError`]), each with spirv-val 2025.5's message word for word, its typos and
//! missing spaces included.

use super::error::{Namer, Out, opcode_name};
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
    /// A scope that is not a 32-bit integer: the opcode.
    ScopeNot32(Opcode),
    /// A scope that is not an `OpConstant` with `Shader`.
    ScopeNotConstant,
    /// A scope that is not a constant with `Shader` and `CooperativeMatrixNV`.
    ScopeNotConstantCoopMatrix,
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

/// Writes `before`, the id, `after`.
fn around(out: &mut dyn Out, names: &Namer<'_>, before: &str, id: Id, after: &str) -> Result {
    out.write_str(before)?;
    names.id(out, id)?;
    out.write_str(after)
}

/// Writes `Op<opcode> <before>`, the id, `after`.
fn op_around(
    out: &mut dyn Out,
    names: &Namer<'_>,
    op: Opcode,
    before: &str,
    id: Id,
    after: &str,
) -> Result {
    write!(out, "Op{} {before}", opcode_name(op))?;
    names.id(out, id)?;
    out.write_str(after)
}

/// Writes `Op<opcode> Constituent <id> `, the constituent, `middle`, the type, `after`.
fn constituent(
    out: &mut dyn Out,
    names: &Namer<'_>,
    op: Opcode,
    (c, t): (Id, Id),
    middle: &str,
    after: &str,
) -> Result {
    op_around(out, names, op, "Constituent <id> ", c, middle)?;
    names.id(out, t)?;
    out.write_str(after)
}

const VUID_4680: &str = "[VUID-StandaloneSpirv-OpTypeRuntimeArray-04680] ";

impl TypeError {
    /// spirv-val's message.
    pub(super) fn write(&self, out: &mut dyn Out, names: &Namer<'_>) -> Result {
        use TypeError as E;
        let arr = |runtime: bool| {
            if runtime {
                "OpTypeRuntimeArray Element Type <id> "
            } else {
                "OpTypeArray Element Type <id> "
            }
        };
        match *self {
            E::Int8 => out.write_str(
                "Using an 8-bit integer type requires the Int8 capability, or an extension that explicitly enables 8-bit integers.",
            ),
            E::Int16 => out.write_str(
                "Using a 16-bit integer type requires the Int16 capability, or an extension that explicitly enables 16-bit integers.",
            ),
            E::Int64 => {
                out.write_str("Using a 64-bit integer type requires the Int64 capability.")
            }
            E::IntWidth(n) => write!(out, "Invalid number of bits ({n}) used for OpTypeInt."),
            E::IntSignedness => out.write_str("OpTypeInt has invalid signedness:"),
            E::KernelSignedness => out.write_str(
                "The Signedness in OpTypeInt must always be 0 when Kernel capability is used.",
            ),
            E::Float16 => out.write_str(
                "Using a 16-bit floating point type requires the Float16 or Float16Buffer capability, or an extension that explicitly enables 16-bit floating point.",
            ),
            E::Float8 => out.write_str(
                "Using a 8-bit floating point type requires the Float8EXT capability.",
            ),
            E::Float8Encoding => {
                out.write_str("8-bit floating point type requires an encoding.")
            }
            E::Float8UnknownEncoding(name) => {
                write!(out, "Unsupported 8-bit floating point encoding ({name}).")
            }
            E::Float64 => out.write_str(
                "Using a 64-bit floating point type requires the Float64 capability.",
            ),
            E::FloatWidth(n) => {
                write!(out, "Invalid number of bits ({n}) used for OpTypeFloat.")
            }
            E::VectorComponentMasked(id) => around(
                out,
                names,
                "Invalid OpTypeVector Component Type<id> ",
                id,
                ": Expected a scalar or pointer type when using the SPV_INTEL_masked_gather_scatter extension.",
            ),
            E::VectorComponent(id) => around(
                out,
                names,
                "OpTypeVector Component Type <id> ",
                id,
                " is not a scalar type.",
            ),
            E::Vector16(n, op) => write!(
                out,
                "Having {n} components for {} requires the Vector16 capability",
                opcode_name(op)
            ),
            E::VectorSize(n, op) => write!(
                out,
                "Illegal number of components ({n}) for {}",
                opcode_name(op)
            ),
            E::CoopVectorComponent(id) => around(
                out,
                names,
                "OpTypeCooperativeVectorNV Component Type <id> ",
                id,
                " is not a scalar numerical type.",
            ),
            E::CoopVectorCountNotConstant(id) => around(
                out,
                names,
                "OpTypeCooperativeVectorNV component count <id> ",
                id,
                " is not a scalar constant type.",
            ),
            E::CoopVectorCountNotInt(id) => around(
                out,
                names,
                "OpTypeCooperativeVectorNV component count <id> ",
                id,
                " is not a constant integer type.",
            ),
            E::CoopVectorCountValue(id, v) => {
                around(
                    out,
                    names,
                    "OpTypeCooperativeVectorNV component count <id> ",
                    id,
                    " default value must be at least 1: found ",
                )?;
                write!(out, "{v}")
            }
            E::MatrixColumns => out.write_str("Columns in a matrix must be of type vector."),
            E::MatrixComponent => out
                .write_str("Matrix types can only be parameterized with floating-point types."),
            E::MatrixColumnCount => out.write_str(
                "Matrix types can only be parameterized as having only 2, 3, or 4 columns.",
            ),
            E::ArrayElementNotType(rt, id) => around(out, names, arr(rt), id, " is not a type."),
            E::ArrayElementVoid(rt, id) => around(out, names, arr(rt), id, " is a void type."),
            E::ArrayStrideOnBlockArray => out.write_str(
                "Array containing a Block or BufferBlock must not be decorated with ArrayStride",
            ),
            E::ArrayOfRuntimeArray(rt, id) => {
                out.write_str(VUID_4680)?;
                around(out, names, arr(rt), id, " is not valid in Vulkan environments.")
            }
            E::ArrayLengthNotConstant(id) => around(
                out,
                names,
                "OpTypeArray Length <id> ",
                id,
                " is not a scalar constant type.",
            ),
            E::ArrayLengthNotInt(id) => around(
                out,
                names,
                "OpTypeArray Length <id> ",
                id,
                " is not a constant integer type.",
            ),
            E::ArrayLengthValue(id, v) => {
                around(
                    out,
                    names,
                    "OpTypeArray Length <id> ",
                    id,
                    " default value must be at least 1: found ",
                )?;
                write!(out, "{v}")
            }
            E::StructSelfReference => {
                out.write_str("Structure members may not be self references")
            }
            E::StructMemberNotType(id) => around(
                out,
                names,
                "OpTypeStruct Member Type <id> ",
                id,
                " is not a type.",
            ),
            E::StructMemberVoid => out.write_str("Structures cannot contain a void type."),
            E::StructBuiltInMember(member, s) => {
                around(
                    out,
                    names,
                    "Structure <id> ",
                    member,
                    " contains members with BuiltIn decoration. Therefore this structure may not be contained as a member of another structure type. Structure <id> ",
                )?;
                around(out, names, "", s, " contains structure <id> ")?;
                around(out, names, "", member, ".")
            }
            E::RuntimeArrayNotLast => {
                out.write_str(VUID_4680)?;
                out.write_str(
                    "In Vulkan, OpTypeRuntimeArray must only be used for the last member of an OpTypeStruct",
                )
            }
            E::RuntimeArrayStructNotBlock => {
                out.write_str(VUID_4680)?;
                out.write_str(
                    "Vulkan, OpTypeStruct containing an OpTypeRuntimeArray must be decorated with Block or BufferBlock.",
                )
            }
            E::NestedBlock => out.write_str(
                "rules: A Block or BufferBlock cannot be nested within another Block or BufferBlock. ",
            ),
            E::BuiltInMixed(id) => write!(
                out,
                "When BuiltIn decoration is applied to a structure-type member, all members of that structure type must also be decorated with BuiltIn (No allowed mixing of built-in variables and non-built-in variables within a single structure). Structure id {} does not meet this requirement.",
                id.0
            ),
            E::StructOpaque => out.write_str(
                "[VUID-StandaloneSpirv-None-04667] In Vulkan, OpTypeStruct must not contain an opaque type.",
            ),
            E::PointerTypeNotType(id) => {
                around(out, names, "OpTypePointer Type <id> ", id, " is not a type.")
            }
            E::PointerStorageClass => out.write_str(
                "[VUID-StandaloneSpirv-None-04643] Invalid storage class for target environment",
            ),
            E::UntypedPointerWorkgroup => out.write_str(
                "Workgroup storage class untyped pointers in Vulkan require WorkgroupMemoryExplicitLayoutKHR be declared",
            ),
            E::UntypedPointerStorageClass => out.write_str(
                "In Vulkan, untyped pointers can only be used in an explicitly laid out storage class",
            ),
            E::FunctionReturnNotType(id) => around(
                out,
                names,
                "OpTypeFunction Return Type <id> ",
                id,
                " is not a type.",
            ),
            E::FunctionParameterNotType(id) => around(
                out,
                names,
                "OpTypeFunction Parameter Type <id> ",
                id,
                " is not a type.",
            ),
            E::FunctionParameterVoid(id) => around(
                out,
                names,
                "OpTypeFunction Parameter Type <id> ",
                id,
                " cannot be OpTypeVoid.",
            ),
            E::FunctionParameters(limit, id, n) => {
                write!(
                    out,
                    "OpTypeFunction may not take more than {limit} arguments. OpTypeFunction <id> "
                )?;
                names.id(out, id)?;
                write!(out, " has {n} arguments.")
            }
            E::FunctionTypeUse(id) => {
                around(out, names, "Invalid use of function type result id ", id, ".")
            }
            E::ForwardPointerNotPointer => out
                .write_str("Pointer type in OpTypeForwardPointer is not a pointer type."),
            E::ForwardPointerStorageClass => out.write_str(
                "Storage class in OpTypeForwardPointer does not match the pointer definition.",
            ),
            E::ForwardPointerNotStruct => {
                out.write_str("Forward pointers must point to a structure")
            }
            E::ForwardPointerVulkan => out.write_str(
                "[VUID-StandaloneSpirv-OpTypeForwardPointer-04711] In Vulkan, OpTypeForwardPointer must have a storage class of PhysicalStorageBuffer.",
            ),
            E::CoopMatrixComponent(id) => around(
                out,
                names,
                "OpTypeCooperativeMatrix Component Type <id> ",
                id,
                " is not a scalar numerical type.",
            ),
            E::CoopMatrixBFloat16(id) => around(
                out,
                names,
                "OpTypeCooperativeMatrix Component Type <id> ",
                id,
                "require BFloat16CooperativeMatrixKHR be declared.",
            ),
            E::CoopMatrixFloat8(id) => around(
                out,
                names,
                "OpTypeCooperativeMatrix Component Type <id> ",
                id,
                "require Float8CooperativeMatrixEXT be declared.",
            ),
            E::CoopMatrixOperand(which, id) => {
                let what = match which {
                    0 => "OpTypeCooperativeMatrix Scope <id> ",
                    1 => "OpTypeCooperativeMatrix Rows <id> ",
                    2 => "OpTypeCooperativeMatrix Cols <id> ",
                    _ => "OpTypeCooperativeMatrixKHR Use <id> ",
                };
                around(
                    out,
                    names,
                    what,
                    id,
                    " is not a constant instruction with scalar integer type.",
                )
            }
            E::CoopMatrixNoLocalSize(id) => around(
                out,
                names,
                "OpTypeCooperativeMatrixKHR with ScopeWorkgroup used without specifying LocalSize or LocalSizeId for entry point <id> ",
                id,
                "",
            ),
            E::CoopMatrixLocalSizeIdLater(id) => around(
                out,
                names,
                "OpTypeCooperativeMatrixKHR with ScopeWorkgroup used before LocalSizeId constant value <id> ",
                id,
                " is defined.",
            ),
            E::TensorDimNot32(op, id) => tensor(out, names, op, " Dim <id> ", id, " is not a 32-bit integer."),
            E::TensorDimRange(op, id) => {
                tensor(out, names, op, " Dim <id> ", id, " must be between 1 and 5.")
            }
            E::TensorClampNot32(op, id) => tensor(
                out,
                names,
                op,
                " ClampMode <id> ",
                id,
                " is not a 32-bit integer.",
            ),
            E::TensorClampInvalid(op, id) => tensor(
                out,
                names,
                op,
                " ClampMode <id> ",
                id,
                " must be a valid TensorClampMode.",
            ),
            E::TensorHasDimNotBool(op, id) => tensor(
                out,
                names,
                op,
                " HasDimensions <id> ",
                id,
                " is not a boolean value.",
            ),
            E::TensorPermutationNot32(op, id) => tensor(
                out,
                names,
                op,
                " Permutation <id> ",
                id,
                " is not a 32-bit integer.",
            ),
            E::TensorPermutationDim(op, id) => tensor(
                out,
                names,
                op,
                " Permutation <id> ",
                id,
                " must be a valid dimension.",
            ),
            E::TensorPermutationInvalid(op) => write!(
                out,
                "{} Permutation values don't form a valid permutation.",
                opcode_name(op)
            ),
            E::TensorPermutationCount(op) => write!(
                out,
                "{} Incorrect number of permutation values.",
                opcode_name(op)
            ),
            E::TensorElement(id) => around(
                out,
                names,
                "OpTypeTensorARM Element Type <id> ",
                id,
                " is not a scalar type.",
            ),
            E::TensorRankNotConstant(id) => around(
                out,
                names,
                "OpTypeTensorARM Rank <id> ",
                id,
                " is not a constant instruction.",
            ),
            E::TensorRankNotInt(id) => around(
                out,
                names,
                "OpTypeTensorARM Rank <id> ",
                id,
                " does not have a scalar integer type.",
            ),
            E::TensorRankZero(id) => around(
                out,
                names,
                "OpTypeTensorARM Rank <id> ",
                id,
                " must define a value greater than 0.",
            ),
            E::TensorShapeNotConstant(id) => around(
                out,
                names,
                "OpTypeTensorARM Shape <id> ",
                id,
                " is not a constant instruction.",
            ),
            E::TensorShapeNotArray(id) => around(
                out,
                names,
                "OpTypeTensorARM Shape <id> ",
                id,
                " is not an array of integer type whose Length is equal to Rank.",
            ),
            E::TensorShapeZero(i) => write!(
                out,
                "OpTypeTensorARM Shape constituent {i} is not greater than 0."
            ),
            E::ConstantNotBool(op, id) => {
                op_around(out, names, op, "Result Type <id> ", id, " is not a boolean type.")
            }
            E::CompositeNotComposite(op, id) => op_around(
                out,
                names,
                op,
                "Result Type <id> ",
                id,
                " is not a composite type.",
            ),
            E::CompositeVectorCount(op, t) => op_around(
                out,
                names,
                op,
                "Constituent <id> count does not match Result Type <id> ",
                t,
                "s vector component count.",
            ),
            E::CompositeNotConstant(op, c) => op_around(
                out,
                names,
                op,
                "Constituent <id> ",
                c,
                " is not a constant or undef.",
            ),
            E::CompositeVectorElement(op, c, t) => constituent(
                out,
                names,
                op,
                (c, t),
                "s type does not match Result Type <id> ",
                "s vector element type.",
            ),
            E::CompositeMatrixCount(op, t) => op_around(
                out,
                names,
                op,
                "Constituent <id> count does not match Result Type <id> ",
                t,
                "s matrix column count.",
            ),
            E::CompositeMatrixColumn(op, c, t) => constituent(
                out,
                names,
                op,
                (c, t),
                " type does not match Result Type <id> ",
                "s matrix column type.",
            ),
            E::CompositeMatrixComponent(op, c, t) => constituent(
                out,
                names,
                op,
                (c, t),
                " component type does not match Result Type <id> ",
                "s matrix column component type.",
            ),
            E::CompositeMatrixSize(op, c, t) => constituent(
                out,
                names,
                op,
                (c, t),
                " vector component count does not match Result Type <id> ",
                "s vector component count.",
            ),
            E::CompositeArrayCount(op, t) => op_around(
                out,
                names,
                op,
                "Constituent count does not match Result Type <id> ",
                t,
                "s array length.",
            ),
            E::CompositeArrayElement(op, c, t) => constituent(
                out,
                names,
                op,
                (c, t),
                "s type does not match Result Type <id> ",
                "s array element type.",
            ),
            E::CompositeStructCount(op, t) => constituent(
                out,
                names,
                op,
                (t, t),
                " count does not match Result Type <id> ",
                "s struct member count.",
            ),
            E::CompositeStructMember(op, c, t) => constituent(
                out,
                names,
                op,
                (c, t),
                " type does not match the Result Type <id> ",
                "s member type.",
            ),
            E::CompositeCoopMatrixCount(op, t) => {
                op_around(out, names, op, "Constituent <id> ", t, " count must be one.")
            }
            E::CompositeCoopMatrixComponent(op, c, t) => constituent(
                out,
                names,
                op,
                (c, t),
                " type does not match the Result Type <id> ",
                "s component type.",
            ),
            E::SamplerNotSampler(id) => around(
                out,
                names,
                "OpConstantSampler Result Type <id> ",
                id,
                " is not a sampler type.",
            ),
            E::NullNotNullable(id) => around(
                out,
                names,
                "OpConstantNull Result Type <id> ",
                id,
                " cannot have a null value.",
            ),
            E::SpecConstantType => out.write_str(
                "Specialization constant must be an integer or floating-point number.",
            ),
            E::SpecOpShader(op) => write!(
                out,
                "Specialization constant operation {} requires Shader capability",
                opcode_name(op)
            ),
            E::SpecOpUConvert => out.write_str(
                "Prior to SPIR-V 1.4, specialization constant operation UConvert requires Kernel capability or extension SPV_AMD_gpu_shader_int16",
            ),
            E::SpecOpKernel(op) => write!(
                out,
                "Specialization constant operation {} requires Kernel capability",
                opcode_name(op)
            ),
            E::SmallConstant => out.write_str("Cannot form constants of 8- or 16-bit types"),
            E::LiteralHighBits(id) => write!(
                out,
                "The high-order bits of a literal number in instruction <id> {id} must be 0 for a floating-point type, or 0 for an integer type with Signedness of 0, or sign extended when Signedness is 1"
            ),
            E::UndefVoid => out.write_str("Cannot create undefined values with void type"),
            E::UndefSmall => {
                out.write_str("Cannot create undefined values with 8- or 16-bit types")
            }
            E::ScopeNot32(op) => {
                write!(out, "{}: expected scope to be a 32-bit int", opcode_name(op))
            }
            E::ScopeNotConstant => out
                .write_str("Scope ids must be OpConstant when Shader capability is present"),
            E::ScopeNotConstantCoopMatrix => out.write_str(
                "Scope ids must be constant or specialization constant when CooperativeMatrixNV capability is present",
            ),
            E::ClockScopeVulkan => out.write_str(
                "[VUID-StandaloneSpirv-OpReadClockKHR-04652] Scope must be Subgroup or Device",
            ),
            E::ClockScopeOpenCl => {
                out.write_str("Scope must be Subgroup, Workgroup, or Device")
            }
            E::ClockResult => out.write_str(
                "Expected Value to be a vector of two components of unsigned integer or 64bit unsigned integer",
            ),
            E::HelperInvocationResult(op) => write!(
                out,
                "Expected bool scalar type as Result Type: {}",
                opcode_name(op)
            ),
            E::AssumeTrueValue => {
                out.write_str("Value operand of OpAssumeTrueKHR must be a boolean scalar")
            }
            E::ExpectResult => out.write_str(
                "Result of OpExpectKHR must be a scalar or vector of integer type or boolean type",
            ),
            E::ExpectValue => out.write_str(
                "Type of Value operand of OpExpectKHR does not match the result type ",
            ),
            E::ExpectExpected => out.write_str(
                "Type of ExpectedValue operand of OpExpectKHR does not match the result type ",
            ),
            E::MemberNameNotStruct(id) => {
                around(out, names, "OpMemberName Type <id> ", id, " is not a struct type.")
            }
            E::MemberNameIndex(member, id) => {
                around(out, names, "OpMemberName Member <id> ", Id(member), "")?;
                around(out, names, " index is larger than Type <id> ", id, "s member count.")
            }
            E::LineNotString(id) => {
                around(out, names, "OpLine Target <id> ", id, " is not an OpString.")
            }
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
            | E::CompositeCoopMatrixComponent(_, a, b) => Vec::from([a, b]),
            _ => Vec::new(),
        }
    }
}

/// Writes `<opcode><before>`, the id, `after` (the tensor rules name the opcode
/// without `Op`).
fn tensor(
    out: &mut dyn Out,
    names: &Namer<'_>,
    op: Opcode,
    before: &str,
    id: Id,
    after: &str,
) -> Result {
    write!(out, "{}{before}", opcode_name(op))?;
    names.id(out, id)?;
    out.write_str(after)
}
