//! spirv-val's arithmetics pass (`ArithmeticsPass` in `validate_arithmetics.cpp`): not checked yet.

use super::query::Query;
use super::{Fault, Inst};

/// What the pass remembers across instructions.
#[derive(Debug, Default)]
pub(super) struct Arithmetics;

/// The pass for one instruction.
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>, st: &mut Arithmetics) -> Result<(), Fault> {
    let _ = (q, inst, st);
    Ok(())
}
