//! `--freeze-spec-const` and `--set-spec-const-default-value` (to be written).

use super::NumberParser;
use crate::__private::{String, Vec};
use crate::edit::EditError;
use crate::module::Module;

/// `--freeze-spec-const` (not written yet).
///
/// # Errors
/// Always, until it is written.
pub fn freeze_spec_const(module: &Module) -> Result<(Module, bool), EditError> {
    let _ = module;
    Err(EditError::NeedsNumberParser)
}

/// `--set-spec-const-default-value` (not written yet).
///
/// # Errors
/// Always, until it is written.
pub fn set_spec_const_default_value(
    module: &Module,
    values: &[(u32, String)],
    numbers: &dyn NumberParser,
) -> Result<(Module, bool), EditError> {
    let _ = (module, values, numbers);
    Err(EditError::NeedsNumberParser)
}

/// The `<spec id>:<value>` pairs of `--set-spec-const-default-value`'s argument (not
/// written yet).
pub(super) fn parse_default_values(text: &str) -> Result<Vec<(u32, String)>, String> {
    let _ = text;
    Err(String::from("not written yet"))
}
