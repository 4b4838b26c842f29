//! spirv-val's function pass (`FunctionPass` in `validate_function.cpp`): not checked yet.

use super::query::Query;
use super::{Fault, Inst};

/// What the pass remembers across instructions.
#[derive(Debug, Default)]
pub(super) struct Function;

/// The pass for one instruction.
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>, st: &mut Function) -> Result<(), Fault> {
    let _ = (q, inst, st);
    Ok(())
}
