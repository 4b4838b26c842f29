//! spirv-val's `CfgPass` (`validate_cfg.cpp`), run by the first loop on every
//! instruction: blocks open at labels and close at terminators, and branch and merge
//! targets are checked against the function's first block and its merge blocks. Its
//! faults stop validation, so they are [`ValidationErrorKind`]'s own.

use super::super::error::ValidationErrorKind;
use super::super::validation_state::{OpenFunction, State};
use super::super::{Fault, Inst};
use crate::spv::Opcode as O;
use crate::types::Id;

/// `CfgPass`: blocks open at labels and close at terminators; merge and branch
/// targets are checked against the function's first block and its merge blocks.
pub(crate) fn check(state: &mut State<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let op = inst.opcode;
    let Some(f) = state.function.as_mut() else {
        return Ok(());
    };
    // These faults are reported at the function's `OpFunction`.
    let at_function = f.index;
    let first_block_targeted = |f: &OpenFunction, target: u32| {
        (f.first_block == Some(target)).then(|| {
            Fault::at(
                ValidationErrorKind::FirstBlockTargeted {
                    block: Id(target),
                    function: Id(f.id),
                    by: Id(f.block.unwrap_or(0)),
                },
                f.index,
            )
        })
    };
    match op {
        O::Label => {
            f.block_count += 1;
            f.first_block.get_or_insert(inst.result_id);
            f.block = Some(inst.result_id);
        }
        O::LoopMerge | O::SelectionMerge => {
            let merge = inst.word(0);
            if !f.merge_blocks.insert(merge) {
                return Err(Fault::at(
                    ValidationErrorKind::AlreadyMergeBlock { block: Id(merge) },
                    at_function,
                ));
            }
        }
        O::Branch => {
            if let Some(e) = first_block_targeted(f, inst.word(0)) {
                return Err(e);
            }
            f.block = None;
        }
        O::BranchConditional => {
            for t in [inst.word(1), inst.word(2)] {
                if let Some(e) = first_block_targeted(f, t) {
                    return Err(e);
                }
            }
            f.block = None;
        }
        O::Switch => {
            for i in (1..inst.operands.len()).step_by(2) {
                if let Some(e) = first_block_targeted(f, inst.word(i)) {
                    return Err(e);
                }
            }
            f.block = None;
        }
        O::Return => {
            let void = state
                .defs
                .get(f.result_type)
                .is_some_and(|d| d.opcode == O::TypeVoid);
            if !void {
                return Err(ValidationErrorKind::ReturnInNonVoid.into());
            }
            f.block = None;
        }
        O::Kill
        | O::ReturnValue
        | O::Unreachable
        | O::TerminateInvocation
        | O::IgnoreIntersectionKHR
        | O::TerminateRayKHR
        | O::EmitMeshTasksEXT => f.block = None,
        _ => {}
    }
    Ok(())
}
