//! spirv-val's memory pass (`MemoryPass` in `validate_memory.cpp`): not checked yet.

use super::query::Query;
use super::{Fault, Inst};

/// What the pass remembers across instructions.
#[derive(Debug, Default)]
pub(super) struct Memory;

/// The pass for one instruction.
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>, st: &mut Memory) -> Result<(), Fault> {
    let _ = (q, inst, st);
    Ok(())
}
