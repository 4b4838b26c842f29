//! spirv-val's entry-point rules over the whole module (`ValidateEntryPoints` and
//! `ValidateGraphEntryPoints` in `validate.cpp`): at least one entry point unless
//! `Linkage` or `GraphARM` excuses it, none also called, no recursion under Vulkan.

use super::Fault;
use super::error::ValidationErrorKind;
use super::validation_state::State;
use crate::__private::Vec;
use crate::Module;
use crate::analysis::CallGraph;
use crate::spv;
use crate::types::Id;
use alloc::collections::BTreeSet;

/// spirv-val's entry-point checks (`ValidateEntryPoints`, `ValidateGraphEntryPoints`),
/// for the rules this validator has.
pub(super) fn check(state: &State<'_>, module: &Module) -> Result<(), Fault> {
    let has = |c: spv::Capability| state.has_capability(c.0);
    if state.entry_points.is_empty()
        && !has(spv::Capability::Linkage)
        && !has(spv::Capability::GraphARM)
    {
        return Err(Fault::module(ValidationErrorKind::NoEntryPoint));
    }
    let recursive = if state.options.target_env.is_vulkan() {
        recursive_functions(module)
    } else {
        BTreeSet::new()
    };
    for &f in &state.entry_points {
        let at = state.def(f).map(|d| d.index);
        let fault = |kind| match at {
            Some(at) => Fault::at(kind, at),
            None => Fault::module(kind),
        };
        if state.call_targets.contains(&f) {
            return Err(fault(ValidationErrorKind::EntryPointCalled {
                function: Id(f),
            }));
        }
        if recursive.contains(&f) {
            return Err(fault(ValidationErrorKind::RecursiveEntryPoint));
        }
    }
    if state.graph_entry_points == 0 && has(spv::Capability::GraphARM) {
        return Err(Fault::module(ValidationErrorKind::NoGraphEntryPoint));
    }
    Ok(())
}

/// The functions whose calls reach a cycle: those that can reach a recursive function,
/// found by one walk back from the recursive ones.
fn recursive_functions(module: &Module) -> BTreeSet<u32> {
    let calls = CallGraph::new(module);
    let n = calls.functions().len();
    let mut callers: Vec<Vec<usize>> = Vec::new();
    callers.resize_with(n, Vec::new);
    for f in 0..n {
        for c in calls.callees(f) {
            callers[c].push(f);
        }
    }
    let mut seen = alloc::vec![false; n];
    let mut stack: Vec<usize> = (0..n).filter(|&f| calls.is_recursive(f)).collect();
    for &f in &stack {
        seen[f] = true;
    }
    while let Some(f) = stack.pop() {
        for &c in &callers[f] {
            if !core::mem::replace(&mut seen[c], true) {
                stack.push(c);
            }
        }
    }
    (0..n)
        .filter(|&f| seen[f])
        .map(|f| calls.functions()[f].id.0)
        .collect()
}

/// What this family checks (see [`coverage`](crate::validate::coverage)).
pub(crate) const COVERAGE: crate::validate::coverage::Family =
    crate::validate::coverage::Family::new("entry points", "validate.cpp");
