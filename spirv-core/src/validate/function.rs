//! spirv-val's function pass (`FunctionPass` in `validate_function.cpp`): not checked yet.

use super::query::Query;
use super::{Fault, Inst};

/// What the pass remembers across instructions.
#[derive(Debug, Default)]
pub(super) struct Function;

/// The pass for one instruction.
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>, st: &mut Function) -> Result<(), Fault> {
    let _ = (q, inst, st);
    Ok(())
}

/// A fault of spirv-val's function rules, with what it involves.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum FunctionError {}

impl FunctionError {
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
