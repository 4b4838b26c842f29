//! spirv-val's misc pass (`MiscPass` in `validate_misc.cpp`): not checked yet.

use super::query::Query;
use super::{Fault, Inst};

/// What the pass remembers across instructions.
#[derive(Debug, Default)]
pub(super) struct Misc;

/// The pass for one instruction.
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>, st: &mut Misc) -> Result<(), Fault> {
    let _ = (q, inst, st);
    Ok(())
}
