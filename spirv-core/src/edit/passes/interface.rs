//! `--remove-unused-interface-variables` (to be written).

use crate::edit::EditError;
use crate::module::Module;

/// `--remove-unused-interface-variables` (not written yet).
///
/// # Errors
/// Always, until it is written.
pub fn remove_unused_interface_variables(module: &Module) -> Result<(Module, bool), EditError> {
    let _ = module;
    Err(EditError::NeedsNumberParser)
}
