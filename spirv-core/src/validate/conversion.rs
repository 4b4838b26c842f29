//! spirv-val's conversion pass (`ConversionPass` in `validate_conversion.cpp`): not checked yet.

use super::query::Query;
use super::{Fault, Inst};

/// What the pass remembers across instructions.
#[derive(Debug, Default)]
pub(super) struct Conversion;

/// The pass for one instruction.
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>, st: &mut Conversion) -> Result<(), Fault> {
    let _ = (q, inst, st);
    Ok(())
}
