//! spirv-val's primitives pass (`PrimitivesPass` in `validate_primitives.cpp`): the
//! geometry-stage instructions (`OpEmitVertex`, `OpEndPrimitive` and their stream
//! forms) limit their function to the Geometry execution model, and a stream is a
//! constant integer scalar.

use super::faults::faults;
use super::limitations::{self, Limitation, rules};
use super::{Fault, Inst, Query};
use crate::spv::{Opcode, Opcode as O};
use PrimitiveError as E;

faults! {
    /// A fault of spirv-val's primitives pass (`validate_primitives.cpp`).
    pub enum PrimitiveError {
        /// A stream that is no integer scalar.
        StreamType { opcode: Opcode } => "{opcode}: expected Stream to be int scalar",
        /// A stream that is no constant.
        StreamConstant { opcode: Opcode } => "{opcode}: expected Stream to be constant instruction",
    }
}

/// `PrimitivesPass` for one instruction.
#[inline(always)]
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let opcode = inst.opcode;
    if !matches!(
        opcode,
        O::EmitVertex | O::EndPrimitive | O::EmitStreamVertex | O::EndStreamPrimitive
    ) {
        return Ok(());
    }
    let geometry = Limitation::naming(q, &rules::GEOMETRY, opcode);
    limitations::register(q, inst, geometry);
    if matches!(opcode, O::EmitStreamVertex | O::EndStreamPrimitive) {
        let stream = inst.word(0);
        if !q.is_int_scalar_type(q.type_of(stream)) {
            return Err(E::StreamType { opcode }.into());
        }
        if !crate::spirv_tools::is_constant(q.opcode(stream)) {
            return Err(E::StreamConstant { opcode }.into());
        }
    }
    Ok(())
}

/// What this family checks (see [`coverage`](crate::validate::coverage)).
pub(crate) const COVERAGE: crate::validate::coverage::Family = crate::validate::coverage::Family {
    opcodes: &[
        O::EmitVertex,
        O::EndPrimitive,
        O::EmitStreamVertex,
        O::EndStreamPrimitive,
    ],
    ..crate::validate::coverage::Family::new("primitives", "validate_primitives.cpp")
};
