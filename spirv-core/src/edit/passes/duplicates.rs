//! `--remove-duplicates` (to be written).

use crate::edit::EditError;
use crate::module::Module;

/// `--remove-duplicates` (not written yet).
///
/// # Errors
/// Always, until it is written.
pub fn remove_duplicates(module: &Module) -> Result<(Module, bool), EditError> {
    let _ = module;
    Err(EditError::NeedsNumberParser)
}
