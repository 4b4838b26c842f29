//! spirv-val's mode-setting pass (`ModeSettingPass` in `validate_mode_setting.cpp`)
//! for one instruction: an entry point is a function without parameters that returns
//! nothing; an execution mode names an entry point.

use super::error::ErrorKind;
use super::query::Query;
use super::{Fault, Inst};
use crate::spv::{self, Opcode as O};
use crate::types::Id;

/// The mode-setting pass for one instruction.
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let operands = inst.words.get(1..).unwrap_or(&[]);
    match inst.opcode {
        O::EntryPoint => entry_point(q, operands)?,
        O::ExecutionMode | O::ExecutionModeId => {
            let id = operands.first().copied().unwrap_or(0);
            if !q.state.entry_points.contains(&id) {
                return Err(ErrorKind::ModeWithoutEntryPoint { id: Id(id) }.into());
            }
        }
        _ => {}
    }
    Ok(())
}

/// The first rules of spirv-val's `ValidateEntryPoint` for one `OpEntryPoint`.
fn entry_point(q: &Query<'_>, operands: &[u32]) -> Result<(), ErrorKind> {
    let id = operands.get(1).copied().unwrap_or(0);
    let vulkan = q.state.options.target_env.is_vulkan();
    let function = match q.def(id) {
        Some(f) if f.opcode() == O::Function => f,
        _ => return Err(ErrorKind::EntryPointNotFunction { id: Id(id) }),
    };
    let fw = function.words();
    if operands.first() != Some(&spv::ExecutionModel::Kernel.0) {
        let params = q
            .def(fw.get(4).copied().unwrap_or(0))
            .map(|t| t.words().len());
        if params != Some(3) {
            return Err(ErrorKind::EntryPointParameters { id: Id(id), vulkan });
        }
    }
    match q.def(fw.get(1).copied().unwrap_or(0)) {
        Some(t) if t.opcode() == O::TypeVoid => Ok(()),
        _ => Err(ErrorKind::EntryPointReturnType { id: Id(id), vulkan }),
    }
}

/// A fault of spirv-val's execution-mode, interface and built-in rules, with what it involves.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ModeError {}

impl ModeError {
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
