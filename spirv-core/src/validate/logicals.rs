//! spirv-val's logicals pass (`LogicalsPass` in `validate_logicals.cpp`): not checked yet.

use super::query::Query;
use super::{Fault, Inst};

/// What the pass remembers across instructions.
#[derive(Debug, Default)]
pub(super) struct Logicals;

/// The pass for one instruction.
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>, st: &mut Logicals) -> Result<(), Fault> {
    let _ = (q, inst, st);
    Ok(())
}
