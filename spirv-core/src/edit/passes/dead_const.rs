//! `--eliminate-dead-const` (to be written).

use crate::edit::EditError;
use crate::module::Module;

/// `--eliminate-dead-const` (not written yet).
///
/// # Errors
/// Always, until it is written.
pub fn eliminate_dead_const(module: &Module) -> Result<(Module, bool), EditError> {
    let _ = module;
    Err(EditError::NeedsNumberParser)
}
