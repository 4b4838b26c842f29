//! The messages of spirv-val's constant, literal, misc and debug rules
//! (`validate_constants.cpp`, `validate_literals.cpp`, `validate_misc.cpp`,
//! `validate_debug.cpp`), word for word.

use super::error::{Namer, Out, opcode_name};
use super::type_error::TypeError;
use super::type_messages::{around, constituent, op_around};
use crate::types::Id;
use core::fmt::Result;

impl TypeError {
    /// The message of a constant, literal, misc or debug rule's fault (nothing for
    /// the type rules' faults, which `write_type_rule` writes).
    pub(super) fn write_value_rule(&self, out: &mut dyn Out, names: &Namer<'_>) -> Result {
        use TypeError as E;
        match *self {
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
            E::CompositeTensorCount(op, t, want, got) => {
                op_around(
                    out,
                    names,
                    op,
                    "Constituent count does not match the shape of Result Type <id> ",
                    t,
                    " along its outermost dimension, ",
                )?;
                write!(out, "expected {want} but got {got}.")
            }
            E::CompositeTensorElement(op, c, t) => constituent(
                out,
                names,
                op,
                (c, t),
                " type does not match the element type of the tensor (",
                ").",
            ),
            E::CompositeTensorNotTensor(op, c) => op_around(
                out,
                names,
                op,
                "Constituent <id> ",
                c,
                " must be an OpTypeTensorARM.",
            ),
            E::CompositeTensorElementType(op, c, t) => constituent(
                out,
                names,
                op,
                (c, t),
                " must have the same Element Type as Result Type <id> ",
                ".",
            ),
            E::CompositeTensorRank(op, c, t, want, got) => {
                constituent(
                    out,
                    names,
                    op,
                    (c, t),
                    " must have a Rank that is 1 less than the Rank of Result Type <id> ",
                    ", ",
                )?;
                write!(out, "expected {want} but got {got}.")
            }
            E::CompositeTensorShape(op, c, t, want, dim, got) => {
                constituent(
                    out,
                    names,
                    op,
                    (c, t),
                    " must have a Shape that matches that of Result Type <id> ",
                    " along all inner dimensions of Result Type, ",
                )?;
                write!(out, "expected {want} for dimension {dim} of Constituent but got {got}.")
            }
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
            _ => Ok(()),
        }
    }
}
