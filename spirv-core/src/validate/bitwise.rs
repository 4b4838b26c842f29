//! spirv-val's bitwise pass (`BitwisePass` in `validate_bitwise.cpp`): not checked yet.

use super::query::Query;
use super::{Fault, Inst};

/// What the pass remembers across instructions.
#[derive(Debug, Default)]
pub(super) struct Bitwise;

/// The pass for one instruction.
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>, st: &mut Bitwise) -> Result<(), Fault> {
    let _ = (q, inst, st);
    Ok(())
}
