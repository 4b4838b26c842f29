//! spirv-val's constant pass (`ConstantPass` in `validate_constants.cpp`): not checked yet.

use super::query::Query;
use super::{Fault, Inst};

/// What the pass remembers across instructions.
#[derive(Debug, Default)]
pub(super) struct Constants;

/// The pass for one instruction.
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>, st: &mut Constants) -> Result<(), Fault> {
    let _ = (q, inst, st);
    Ok(())
}
