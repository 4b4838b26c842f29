//! spirv-val's control-flow rules over whole functions (`PerformCfgChecks` in `validate_cfg.cpp`) and dominance (`CheckIdDefinitionDominateUse` in `validate_id.cpp`): not checked yet.

use super::Fault;
use super::query::Query;

/// Checks the module; hands each fault to `report`, which says whether to go on.
pub(super) fn check(q: &Query<'_>, report: &mut dyn FnMut(Fault) -> bool) {
    let _ = (q, report);
}

/// A fault of spirv-val's control-flow, structured control-flow, dominance and adjacency rules, with what it involves.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum CfgError {}

impl CfgError {
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
