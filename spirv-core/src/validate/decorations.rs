//! spirv-val's decoration rules (`ValidateDecorations` in `validate_decorations.cpp`): not checked yet.

use super::Fault;
use super::query::Query;

/// Checks the module; hands each fault to `report`, which says whether to go on.
pub(super) fn check(q: &Query<'_>, report: &mut dyn FnMut(Fault) -> bool) {
    let _ = (q, report);
}
