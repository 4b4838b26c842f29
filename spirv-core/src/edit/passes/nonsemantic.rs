//! `--strip-nonsemantic` (to be written).

use crate::edit::EditError;
use crate::module::Module;

/// `--strip-nonsemantic` (not written yet).
///
/// # Errors
/// Always, until it is written.
pub fn strip_nonsemantic(module: &Module) -> Result<(Module, bool), EditError> {
    let _ = module;
    Err(EditError::NeedsNumberParser)
}
