//! spirv-val's debug pass (`DebugPass` in `validate_debug.cpp`): not checked yet.

use super::query::Query;
use super::{Fault, Inst};

/// What the pass remembers across instructions.
#[derive(Debug, Default)]
pub(super) struct Debug;

/// The pass for one instruction.
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>, st: &mut Debug) -> Result<(), Fault> {
    let _ = (q, inst, st);
    Ok(())
}
