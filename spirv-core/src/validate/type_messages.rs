//! The messages of spirv-val's type rules (`validate_type.cpp`), word for word, and
//! the helpers every [`TypeError`] message is written with.

use super::error::{Namer, Out, opcode_name};
use super::type_error::TypeError;
use crate::spv::Opcode;
use crate::types::Id;
use core::fmt::Result;

/// Writes `before`, the id, `after`.
pub(super) fn around(
    out: &mut dyn Out,
    names: &Namer<'_>,
    before: &str,
    id: Id,
    after: &str,
) -> Result {
    out.write_str(before)?;
    names.id(out, id)?;
    out.write_str(after)
}

/// Writes `Op<opcode> <before>`, the id, `after`.
pub(super) fn op_around(
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
pub(super) fn constituent(
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

impl TypeError {
    /// The message of a type rule's fault; `None` for the other faults.
    pub(super) fn write_type_rule(&self, out: &mut dyn Out, names: &Namer<'_>) -> Option<Result> {
        use TypeError as E;
        let arr = |runtime: bool| {
            if runtime {
                "OpTypeRuntimeArray Element Type <id> "
            } else {
                "OpTypeArray Element Type <id> "
            }
        };
        let mut handled = true;
        let mut write = || -> Result {
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
            _ => {
                handled = false;
                Ok(())
            }
            }
        };
        let r = write();
        handled.then_some(r)
    }
}
