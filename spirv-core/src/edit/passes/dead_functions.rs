//! `--eliminate-dead-functions` (to be written).

use crate::edit::EditError;
use crate::module::Module;

/// `--eliminate-dead-functions` (not written yet).
///
/// # Errors
/// Always, until it is written.
pub fn eliminate_dead_functions(module: &Module) -> Result<(Module, bool), EditError> {
    let _ = module;
    Err(EditError::NeedsNumberParser)
}
