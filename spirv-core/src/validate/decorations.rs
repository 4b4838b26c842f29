//! spirv-val's decoration rules (`ValidateDecorations` in `validate_decorations.cpp`): not checked yet.

use super::Fault;
use super::query::Query;

/// Checks the module; hands each fault to `report`, which says whether to go on.
pub(super) fn check(q: &Query<'_>, report: &mut dyn FnMut(Fault) -> bool) {
    let _ = (q, report);
}

/// A fault of spirv-val's decoration and block-layout rules, with what it involves.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecorationError {}

impl DecorationError {
    /// spirv-val's message.
    pub(super) fn write(
        &self,
        out: &mut dyn super::error::Out,
        names: &super::error::Namer<'_>,
    ) -> core::fmt::Result {
        let _ = (out, names);
        match *self {}
    }

    /// The ids the message names, in order.
    pub(super) fn ids(&self) -> crate::__private::Vec<crate::types::Id> {
        match *self {}
    }
}
