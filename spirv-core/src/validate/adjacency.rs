//! spirv-val's adjacency rules (`ValidateAdjacency` in `validate_adjacency.cpp`):
//! `OpPhi` first in a non-entry block (`OpLine` and `OpNoLine` mixed in), each merge
//! instruction right before its branch, and `Function` variables first in a
//! function's first block.

use super::Fault;
use super::Query;
use super::faults::faults;
use crate::spirv_tools::SetKind;
use crate::spv::{Opcode as O, StorageClass};

faults! {
    /// A fault of spirv-val's adjacency rules (`validate_adjacency.cpp`): an instruction
    /// out of its place among its neighbours.
    pub enum AdjacencyError {
        /// `OpPhi` after a non-`OpPhi` instruction or in the entry block.
        Phi => "OpPhi must appear within a non-entry block before all non-OpPhi instructions (except for OpLine, which can be mixed with OpPhi).",
        /// `OpLoopMerge` not followed by `OpBranch` or `OpBranchConditional`.
        LoopMerge => "OpLoopMerge must immediately precede either an OpBranch or OpBranchConditional instruction. OpLoopMerge must be the second-to-last instruction in its block.",
        /// `OpSelectionMerge` not followed by `OpBranchConditional` or `OpSwitch`.
        SelectionMerge => "OpSelectionMerge must immediately precede either an OpBranchConditional or OpSwitch instruction. OpSelectionMerge must be the second-to-last instruction in its block.",
        /// A `Function` `OpVariable` after the first block's start.
        Variable => "All OpVariable instructions in a function must be the first instructions in the first block.",
        /// A `Function` `OpUntypedVariableKHR` after the first block's start.
        UntypedVariable => "All OpUntypedVariableKHR instructions in a function must be the first instructions in the first block.",
    }
}

/// Where the instructions seen stand.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Status {
    /// Right after `OpFunction` or a parameter.
    NewFunction,
    /// In the entry block, variables allowed.
    EntryBlock,
    /// In a block, `OpPhi` allowed.
    PhiValid,
    /// Past both.
    Invalid,
}

/// Checks the module; hands each fault to `report`, which says whether to go on.
pub(super) fn check(q: &Query<'_>, report: &mut dyn FnMut(Fault) -> bool) {
    let m = q.module;
    let n = m.len();
    let mut status = Status::Invalid;
    let fault = |e: AdjacencyError, at: usize| Fault::at(e.into(), at as u32);
    for i in 0..n {
        let Some(inst) = m.instruction(i) else {
            continue;
        };
        let w = inst.words();
        let next = || m.instruction(i + 1).map(|x| x.opcode());
        let broken = match inst.opcode() {
            O::Function | O::FunctionParameter => {
                status = Status::NewFunction;
                None
            }
            O::Label => {
                status = if status == Status::NewFunction {
                    Status::EntryBlock
                } else {
                    Status::PhiValid
                };
                None
            }
            O::ExtInst | O::ExtInstWithForwardRefsKHR => {
                let set = w.get(3).and_then(|s| q.state.sets.get(s)).copied();
                let debug_info = set.is_some_and(|s| s.is_debug_info());
                if !debug_info || set == Some(SetKind::ShaderDebugInfo100) {
                    status = Status::Invalid;
                }
                None
            }
            O::Phi => (status != Status::PhiValid).then_some(AdjacencyError::Phi),
            O::Line | O::NoLine => None,
            O::LoopMerge => {
                status = Status::Invalid;
                (i + 1 != n && !matches!(next(), Some(O::Branch | O::BranchConditional)))
                    .then_some(AdjacencyError::LoopMerge)
            }
            O::SelectionMerge => {
                status = Status::Invalid;
                (i + 1 != n && !matches!(next(), Some(O::BranchConditional | O::Switch)))
                    .then_some(AdjacencyError::SelectionMerge)
            }
            O::Variable => (w.get(3) == Some(&StorageClass::Function.0)
                && status != Status::EntryBlock)
                .then_some(AdjacencyError::Variable),
            O::UntypedVariableKHR => (w.get(3) == Some(&StorageClass::Function.0)
                && status != Status::EntryBlock)
                .then_some(AdjacencyError::UntypedVariable),
            _ => {
                status = Status::Invalid;
                None
            }
        };
        if let Some(rule) = broken {
            if !report(fault(rule, i)) {
                return;
            }
        }
    }
}

/// What this family checks (see [`coverage`](crate::validate::coverage)).
pub(crate) const COVERAGE: crate::validate::coverage::Family = crate::validate::coverage::Family {
    opcodes: {
        use crate::spv::Opcode as O;
        &[O::Phi, O::LoopMerge, O::SelectionMerge, O::Variable]
    },
    ..crate::validate::coverage::Family::new("adjacency", "validate_adjacency.cpp")
};
