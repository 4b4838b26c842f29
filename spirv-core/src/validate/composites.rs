//! spirv-val's composites pass (`CompositesPass` in `validate_composites.cpp`): not checked yet.

use super::query::Query;
use super::{Fault, Inst};

/// What the pass remembers across instructions.
#[derive(Debug, Default)]
pub(super) struct Composites;

/// The pass for one instruction.
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>, st: &mut Composites) -> Result<(), Fault> {
    let _ = (q, inst, st);
    Ok(())
}
