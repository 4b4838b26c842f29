//! spirv-val's control-flow pass (`ControlFlowPass` in `validate_cfg.cpp`): not checked yet.

use super::query::Query;
use super::{Fault, Inst};

/// What the pass remembers across instructions.
#[derive(Debug, Default)]
pub(super) struct ControlFlow;

/// The pass for one instruction.
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>, st: &mut ControlFlow) -> Result<(), Fault> {
    let _ = (q, inst, st);
    Ok(())
}
