//! The faults of spirv-val's per-opcode result and operand type rules (its
//! arithmetics, composites, conversion, bitwise and logicals passes), and their
//! messages.

/// A fault of spirv-val's result and operand type rules, with what it involves.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum OperationError {}

impl OperationError {
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
