//! What the interface and built-in rules ask about entry points and calls, as
//! spirv-val's `ValidationState_t` holds it after `ValidateEntryPoints`: each
//! `OpEntryPoint`'s description (model, function, interface list), the functions
//! with the instructions each holds and the ids each calls, and the functions each
//! entry point's call tree reaches (`FunctionEntryPoints`), as walks that visit each
//! function once for all entry points together. The functions and calls are the
//! module's [`CallGraph`] (spirv-val's calls are `OpFunctionCall`s alone, its
//! [`CallRules::Plain`]); walks keep their own stacks.

use super::Query;
use crate::__private::Vec;
use crate::analysis::CallGraph;
use crate::spv::Opcode as O;
use alloc::collections::{BTreeMap, BTreeSet};
use core::ops::Range;

/// One `OpEntryPoint` or `OpConditionalEntryPointINTEL` (`EntryPointDescription`).
#[derive(Debug)]
pub(crate) struct EntryDesc {
    /// The instruction's index.
    pub(crate) index: usize,
    /// Whether it is an `OpEntryPoint` (not a conditional one).
    pub(crate) plain: bool,
    pub(crate) model: u32,
    pub(crate) function: u32,
    /// The interface ids, in order.
    pub(crate) interfaces: Vec<u32>,
}

/// A function: its instructions after its `OpFunction` up to its
/// `OpFunctionEnd` (those spirv-val gives a `function()`).
#[derive(Debug)]
pub(crate) struct Func {
    pub(crate) body: Range<usize>,
    /// The ids of the functions its `OpFunctionCall`s name, each once, sorted.
    pub(crate) calls: Vec<u32>,
}

/// Entry points and functions of a module.
#[derive(Debug, Default)]
pub(crate) struct EntryCalls {
    pub(crate) entries: Vec<EntryDesc>,
    pub(crate) functions: Vec<Func>,
    /// Function by id (the last of one id defined twice).
    by_id: BTreeMap<u32, usize>,
}

impl EntryCalls {
    /// Reads the entry points and functions: the module's call graph, and the
    /// instructions before its first function. Reached once the layout is checked,
    /// so every function ends with its `OpFunctionEnd` and every id is defined once.
    pub(crate) fn of(q: &Query<'_>) -> Self {
        let mut e = EntryCalls::default();
        let graph = CallGraph::new(q.module);
        let first = graph
            .functions()
            .first()
            .map_or(q.module.len(), |f| f.instructions.start);
        for inst in (0..first).filter_map(|i| q.module.instruction(i)) {
            if !matches!(inst.opcode(), O::EntryPoint | O::ConditionalEntryPointINTEL) {
                continue;
            }
            let w = inst.words();
            let shift = usize::from(inst.opcode() == O::ConditionalEntryPointINTEL);
            let rest = w.get(3 + shift..).unwrap_or(&[]);
            let name_words = crate::codec::decode_string(rest).map_or(rest.len(), |s| s.0.len());
            e.entries.push(EntryDesc {
                index: inst.index(),
                plain: shift == 0,
                model: w.get(1 + shift).copied().unwrap_or(u32::MAX),
                function: w.get(2 + shift).copied().unwrap_or(0),
                interfaces: rest.get(name_words..).unwrap_or(&[]).to_vec(),
            });
        }
        let functions = graph.functions();
        for (k, f) in functions.iter().enumerate() {
            if !f.terminated {
                continue;
            }
            let mut calls: Vec<u32> = graph.callees(k).map(|c| functions[c].id.0).collect();
            calls.sort_unstable();
            calls.dedup();
            e.by_id.insert(f.id.0, e.functions.len());
            e.functions.push(Func {
                body: f.instructions.start + 1..f.instructions.end,
                calls,
            });
        }
        e
    }

    /// The position of function `id` in [`EntryCalls::functions`].
    pub(crate) fn function(&self, id: u32) -> Option<usize> {
        self.by_id.get(&id).copied()
    }

    /// The distinct entry point functions, ascending (the order in which spirv-val
    /// sorts a variable's entry points).
    pub(crate) fn entry_functions(&self) -> Vec<u32> {
        let set: BTreeSet<u32> = self.entries.iter().map(|d| d.function).collect();
        set.into_iter().collect()
    }

    /// Walks the call trees of the functions `roots` name, into functions whose `mark`
    /// is not `stamp` yet (setting it), calling `visit` on each function reached, by
    /// position; the walk goes on into a function's callees when `visit` says so.
    /// Functions marked before are not entered: the caller decides what a walk may
    /// skip.
    pub(crate) fn flood(
        &self,
        roots: impl IntoIterator<Item = u32>,
        mark: &mut [u32],
        stamp: u32,
        mut visit: impl FnMut(usize) -> bool,
    ) {
        let mut stack: Vec<u32> = roots.into_iter().collect();
        while let Some(id) = stack.pop() {
            let Some(f) = self.function(id) else { continue };
            match mark.get_mut(f) {
                Some(m) if *m != stamp => *m = stamp,
                _ => continue,
            }
            if visit(f) {
                if let Some(func) = self.functions.get(f) {
                    stack.extend(func.calls.iter().copied());
                }
            }
        }
    }

    /// For each function (by position), the smallest entry point function (by id)
    /// whose call tree reaches it. One walk in all: the entry functions go in
    /// ascending order, and a function reached before was reached by a smaller one,
    /// as was everything it calls.
    pub(crate) fn first_entry_reaching(&self) -> Vec<Option<u32>> {
        let mut first = alloc::vec![None; self.functions.len()];
        let mut mark = alloc::vec![0; self.functions.len()];
        for root in self.entry_functions() {
            self.flood([root], &mut mark, 1, |f| {
                first[f] = Some(root);
                true
            });
        }
        first
    }

    /// For each function (by position), the functions that call it, by position, each
    /// once.
    pub(crate) fn callers(&self) -> Vec<Vec<usize>> {
        let mut callers: Vec<Vec<usize>> = Vec::new();
        callers.resize_with(self.functions.len(), Vec::new);
        for (f, func) in self.functions.iter().enumerate() {
            for &callee in &func.calls {
                if let Some(list) = self.function(callee).and_then(|c| callers.get_mut(c)) {
                    if list.last() != Some(&f) {
                        list.push(f);
                    }
                }
            }
        }
        callers
    }
}
