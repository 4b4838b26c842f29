//! spirv-val's annotation pass (`AnnotationPass` in `validate_annotation.cpp`): not checked yet.

use super::query::Query;
use super::{Fault, Inst};

/// What the pass remembers across instructions.
#[derive(Debug, Default)]
pub(super) struct Annotation;

/// The pass for one instruction.
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>, st: &mut Annotation) -> Result<(), Fault> {
    let _ = (q, inst, st);
    Ok(())
}
