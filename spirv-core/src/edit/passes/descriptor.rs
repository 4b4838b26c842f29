//! `--switch-descriptorset` (to be written).

use crate::edit::EditError;
use crate::module::Module;

/// `--switch-descriptorset=<from>:<to>` (not written yet).
///
/// # Errors
/// Always, until it is written.
pub fn switch_descriptor_set(
    module: &Module,
    from: u32,
    to: u32,
) -> Result<(Module, bool), EditError> {
    let _ = (module, from, to);
    Err(EditError::NeedsNumberParser)
}
