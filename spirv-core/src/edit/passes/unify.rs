//! `--unify-const` (to be written).

use crate::edit::EditError;
use crate::module::Module;

/// `--unify-const` (not written yet).
///
/// # Errors
/// Always, until it is written.
pub fn unify_const(module: &Module) -> Result<(Module, bool), EditError> {
    let _ = module;
    Err(EditError::NeedsNumberParser)
}
