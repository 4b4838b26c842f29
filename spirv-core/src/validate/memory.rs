//! spirv-val's memory pass (`MemoryPass` in `validate_memory.cpp`) for one
//! instruction: variables (`memory_variable.rs`), loads and stores with their memory
//! access operands (`memory_access.rs`), copies (`memory_copy.rs`), access chains,
//! array lengths and pointer comparisons (`memory_chain.rs`). Its messages are [`MemoryError`]'s
//! (`memory_error.rs`). Cooperative matrix lengths, loads and stores are in
//! `memory_cooperative.rs`. Not checked yet: the tensor loads and stores, the
//! cooperative vector instructions, and the `TileAttachmentQCOM` variable rules.

use super::Query;
use super::error::ErrorKind;
use super::{
    Fault, Inst, memory_access, memory_chain, memory_cooperative, memory_copy, memory_variable,
};
use crate::__private::Vec;
use crate::spv::Opcode as O;
use alloc::collections::BTreeMap;
use core::cell::RefCell;

pub use super::memory_error::{CopyOperand, MemoryError};

/// What the pass remembers across instructions.
#[derive(Debug, Default)]
pub(super) struct Memory {
    /// The instruction index ranges of function bodies (`OpFunction` to
    /// `OpFunctionEnd`), in order, once read.
    functions: Option<Vec<(usize, usize)>>,
    /// Whether the instruction is inside a function (set for variables alone).
    pub(super) in_function: bool,
    /// The type walks done, by walk and type: many variables or stores of one large
    /// type would otherwise walk it each time.
    walks: RefCell<BTreeMap<(Walk, u32), bool>>,
}

/// A walk of a type for something within it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Walk {
    /// `ContainsInvalidBool`, without or with skipping built-ins.
    InvalidBool(bool),
    CooperativeMatrix,
    CooperativeVector,
    /// Images, samplers, sampled images, acceleration structures.
    Opaque,
}

impl Memory {
    /// `walk()`'s answer for `id`, found once per walk and type (the module-wide
    /// facts a walk reads are gathered before the first instruction).
    pub(super) fn remember(&self, walk: Walk, id: u32, f: impl FnOnce() -> bool) -> bool {
        if let Some(&found) = self.walks.borrow().get(&(walk, id)) {
            return found;
        }
        let found = f();
        self.walks.borrow_mut().insert((walk, id), found);
        found
    }
}

/// Whether the addressing model is `Logical` or `PhysicalStorageBuffer64`, where
/// spirv-val restricts pointers unless relaxed.
pub(super) fn logical_or_psb(q: &Query<'_>) -> bool {
    matches!(
        q.state.addressing_model(),
        crate::spv::AddressingModel::Logical | crate::spv::AddressingModel::PhysicalStorageBuffer64
    )
}

/// A fault of this pass at the instruction.
pub(super) fn fault(e: MemoryError) -> Fault {
    ErrorKind::Memory(e).into()
}

/// The instructions of each function, as spirv-val's first loop assigns them: from an
/// `OpFunction` to the next `OpFunctionEnd` (or the module's end).
fn function_spans(q: &Query<'_>) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut open = None;
    for (i, inst) in q.module.instructions().enumerate() {
        match inst.opcode() {
            O::Function if open.is_none() => open = Some(i),
            O::FunctionEnd => {
                if let Some(start) = open.take() {
                    spans.push((start, i));
                }
            }
            _ => {}
        }
    }
    if let Some(start) = open {
        spans.push((start, usize::MAX));
    }
    spans
}

/// The pass for one instruction.
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>, st: &mut Memory) -> Result<(), Fault> {
    // Found from the module rather than followed, so that it holds when an earlier
    // pass has stopped at an instruction; only variables ask.
    if matches!(inst.opcode, O::Variable | O::UntypedVariableKHR) {
        let functions = st.functions.get_or_insert_with(|| function_spans(q));
        let at = functions.partition_point(|&(_, end)| end < inst.index);
        st.in_function = functions
            .get(at)
            .is_some_and(|&(start, _)| start <= inst.index);
    }
    let st = &*st;
    match inst.opcode {
        O::Variable | O::UntypedVariableKHR => memory_variable::variable(q, inst, st),
        O::Load => memory_access::load(q, inst),
        O::Store => memory_access::store(q, inst, st),
        O::CopyMemory | O::CopyMemorySized => memory_copy::copy(q, inst),
        O::PtrAccessChain | O::UntypedPtrAccessChainKHR | O::UntypedInBoundsPtrAccessChainKHR => {
            memory_chain::ptr_access_chain(q, inst)
        }
        O::AccessChain
        | O::InBoundsAccessChain
        | O::InBoundsPtrAccessChain
        | O::UntypedAccessChainKHR
        | O::UntypedInBoundsAccessChainKHR => memory_chain::access_chain(q, inst),
        O::RawAccessChainNV => memory_chain::raw_access_chain(q, inst),
        O::ArrayLength | O::UntypedArrayLengthKHR => memory_chain::array_length(q, inst),
        O::PtrEqual | O::PtrNotEqual | O::PtrDiff => memory_chain::ptr_comparison(q, inst),
        O::CooperativeMatrixLengthKHR | O::CooperativeMatrixLengthNV => {
            memory_cooperative::length(q, inst)
        }
        O::CooperativeMatrixLoadNV
        | O::CooperativeMatrixStoreNV
        | O::CooperativeMatrixLoadKHR
        | O::CooperativeMatrixStoreKHR => memory_cooperative::load_store(q, inst),
        _ => Ok(()),
    }
}
