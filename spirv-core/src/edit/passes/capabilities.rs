//! `--trim-capabilities` (to be written).

use crate::edit::EditError;
use crate::module::Module;

/// `--trim-capabilities` (not written yet).
///
/// # Errors
/// Always, until it is written.
pub fn trim_capabilities(module: &Module) -> Result<(Module, bool), EditError> {
    let _ = module;
    Err(EditError::NeedsNumberParser)
}
