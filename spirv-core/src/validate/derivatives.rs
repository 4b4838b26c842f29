//! spirv-val's derivatives pass (`DerivativesPass` in `validate_derivatives.cpp`):
//! `OpDPdx`, `OpDPdy`, `OpFwidth` and their fine and coarse forms take and return the
//! same 32-bit float scalar or vector, and limit their function to the execution models
//! with derivatives (and, for `GLCompute`, `MeshEXT` and `TaskEXT`, to entry points
//! with a derivative group mode).

use super::faults::faults;
use super::limitations::{self, Limitation, rules};
use super::validation_state::Scalar;
use super::{Fault, Inst, Query};
use crate::spv::{Opcode, Opcode as O};
use DerivativeError as E;

faults! {
    /// A fault of spirv-val's derivatives pass (`validate_derivatives.cpp`).
    pub enum DerivativeError {
        /// A result that is no float scalar or vector.
        ResultType { opcode: Opcode } => "Expected Result Type to be float scalar or vector type: {opcode}",
        /// A result whose components are not 32 bits wide.
        ResultWidth => "Result type component width must be 32 bits",
        /// An operand `P` whose type is not the result type.
        OperandType { opcode: Opcode } => "Expected P type and Result Type to be the same: {opcode}",
    }
}

/// `DerivativesPass` for one instruction.
#[inline(always)]
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let opcode = inst.opcode;
    if !matches!(
        opcode,
        O::DPdx
            | O::DPdy
            | O::Fwidth
            | O::DPdxFine
            | O::DPdyFine
            | O::FwidthFine
            | O::DPdxCoarse
            | O::DPdyCoarse
            | O::FwidthCoarse
    ) {
        return Ok(());
    }
    let result_type = inst.result_type();
    if !q.is_float_scalar_or_vector_type(result_type) {
        return Err(E::ResultType { opcode }.into());
    }
    if !q.contains_sized(result_type, Scalar::Float32) {
        return Err(E::ResultWidth.into());
    }
    if q.operand_type(inst, 2) != result_type {
        return Err(E::OperandType { opcode }.into());
    }
    let models = Limitation::naming(q, &rules::DERIVATIVE_MODELS, opcode);
    limitations::register(q, inst, models);
    let modes = Limitation::naming(q, &rules::DERIVATIVE_MODES, opcode);
    limitations::register(q, inst, modes);
    Ok(())
}

/// What this family checks (see [`coverage`](crate::validate::coverage)).
pub(crate) const COVERAGE: crate::validate::coverage::Family = crate::validate::coverage::Family {
    opcodes: &[
        O::DPdx,
        O::DPdy,
        O::Fwidth,
        O::DPdxFine,
        O::DPdyFine,
        O::FwidthFine,
        O::DPdxCoarse,
        O::DPdyCoarse,
        O::FwidthCoarse,
    ],
    ..crate::validate::coverage::Family::new("derivatives", "validate_derivatives.cpp")
};
