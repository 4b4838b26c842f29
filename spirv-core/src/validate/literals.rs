//! spirv-val's literals pass (`LiteralsPass` in `validate_literals.cpp`): not checked yet.

use super::query::Query;
use super::{Fault, Inst};

/// What the pass remembers across instructions.
#[derive(Debug, Default)]
pub(super) struct Literals;

/// The pass for one instruction.
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>, st: &mut Literals) -> Result<(), Fault> {
    let _ = (q, inst, st);
    Ok(())
}
