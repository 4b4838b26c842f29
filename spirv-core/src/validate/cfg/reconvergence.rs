//! `MaximalReconvergenceChecks` (`validate_cfg.cpp`): in the functions an entry
//! point with the `MaximallyReconvergesKHR` execution mode calls (itself included), no
//! `OpBranchConditional` has equal labels, and only loop headers and the blocks a
//! merge instruction or an `OpSwitch` names have several distinct predecessors.

use super::CfgError;
use super::graph::Graph;
use super::structured::fault;
use crate::__private::Vec;
use crate::analysis::CallGraph;
use crate::spv::{ExecutionMode, Opcode as O};
use crate::types::Id;
use crate::validate::Fault;
use crate::validate::Query;
use alloc::collections::BTreeSet;

/// The first fault, over the module's `functions` (by instruction range).
pub(super) fn check(q: &Query<'_>, functions: &[(usize, usize)]) -> Option<Fault> {
    let m = q.module;
    let maximal: Vec<u32> = m
        .instructions()
        .filter(|i| matches!(i.opcode(), O::ExecutionMode | O::ExecutionModeId))
        .filter(|i| i.words().get(2) == Some(&ExecutionMode::MaximallyReconvergesKHR.0))
        .filter_map(|i| i.words().get(1).copied())
        .filter(|f| q.state.entry_points.contains(f))
        .collect();
    if maximal.is_empty() {
        return None;
    }
    let id_of = |s: usize| {
        m.instruction(s)
            .and_then(|i| i.words().get(2).copied())
            .unwrap_or(0)
    };
    // The functions called from those entry points, transitively.
    let graph = CallGraph::new(m);
    let reached: BTreeSet<u32> = graph
        .reached(maximal.iter().filter_map(|&f| graph.function(Id(f))))
        .iter()
        .zip(graph.functions())
        .filter(|(r, _)| **r)
        .map(|(_, f)| f.id.0)
        .collect();
    let in_reached = |i: usize| {
        let k = functions.partition_point(|&(s, _)| s < i);
        k.checked_sub(1)
            .map(|k| functions[k])
            .is_some_and(|(s, e)| i > s && i <= e && reached.contains(&id_of(s)))
    };
    for (i, x) in m.instructions().enumerate() {
        if x.opcode() == O::BranchConditional {
            let w = x.words();
            if w.get(2) == w.get(3) && in_reached(i) {
                return Some(fault(CfgError::ReconvergenceLabels, i as u32));
            }
        }
    }
    // The labels merge instructions and switches name.
    let mut named: BTreeSet<u32> = BTreeSet::new();
    for x in m.instructions() {
        match x.opcode() {
            O::SelectionMerge | O::LoopMerge => {
                named.extend(x.words().get(1..3).unwrap_or(&[]).iter().copied());
            }
            O::Switch => super::graph::branch_targets(q, x.words(), |t| {
                named.insert(t);
            }),
            _ => {}
        }
    }
    for &(s, e) in functions {
        if !reached.contains(&id_of(s)) {
            continue;
        }
        let Some(g) = Graph::build(q, s, e) else {
            continue;
        };
        for b in 0..g.defined() as u32 {
            let mut preds: Vec<u32> = g.real_predecessors(b).collect();
            preds.sort_unstable();
            preds.dedup();
            if preds.len() < 2 {
                continue;
            }
            let t = g.terminators[b as usize] as usize;
            if m.instruction(t.wrapping_sub(1)).map(|x| x.opcode()) == Some(O::LoopMerge) {
                continue;
            }
            if !named.contains(&g.id(q, b)) {
                return Some(fault(
                    CfgError::ReconvergencePredecessors,
                    g.labels[b as usize],
                ));
            }
        }
    }
    None
}
