//! `StructuredSwitchChecks` and `FindCaseFallThrough`: each case construct of a
//! structured `OpSwitch` is dominated by the switch, leaves only through the merge
//! block, another case or a structured exit of the switch, falls through to at most one
//! other case, which must follow it in the target list, and is fallen into by at most
//! one other. A case is searched block by block only when the targets of the edges
//! out of its dominator subtree ([`super::regions`]) do not already settle it.

use super::CfgError;
use super::graph::{Construct, NONE, branch_targets};
use super::structured::{Checks, fault};
use crate::__private::Vec;
use crate::types::Id;
use crate::validate::Fault;
use alloc::collections::BTreeMap;

/// Checks the switch that heads construct `k`.
pub(super) fn check(c: &mut Checks<'_, '_>, k: usize, construct: &Construct) -> Option<Fault> {
    let (q, g) = (c.q, c.g);
    let header = construct.entry;
    let merge = c.exits[k];
    let merge_id = g.id(q, merge);
    let at = g.terminators[header as usize];
    let words = q.module.instruction(at as usize)?.words();
    // The default first, then the targets: operands 1, 3, 5, ….
    let mut targets = Vec::new();
    branch_targets(q, words, |t| targets.push(t));
    let mut case_targets: Vec<u32> = targets.iter().copied().filter(|&t| t != merge_id).collect();
    case_targets.sort_unstable();
    case_targets.dedup();
    let exits = c.accepts[k];
    let default = targets[0];
    let default_repeated = targets[1..].contains(&default);
    let mut fallen_into: BTreeMap<u32, u32> = BTreeMap::new();
    let mut seen: BTreeMap<u32, u32> = BTreeMap::new();
    let mut default_fall_through = 0u32;
    for (i, &target) in targets.iter().enumerate() {
        if target == merge_id {
            continue;
        }
        let mut fall_through = match seen.get(&target) {
            Some(&f) => f,
            None => {
                let node = c.node(target);
                if node == NONE {
                    continue;
                }
                if c.reachable(header) && c.reachable(node) && !c.dom.dominates(header, node) {
                    let e = CfgError::SwitchDominance {
                        header: Id(g.id(q, header)),
                        target: Id(target),
                    };
                    return Some(fault(e, g.labels[header as usize]));
                }
                let f = match quick_fall_through(c, node, merge, &case_targets, &exits) {
                    Some(f) => f,
                    None => match fall_through_of(c, node, merge, &case_targets, &exits)? {
                        Ok(f) => f,
                        Err(fault) => return Some(fault),
                    },
                };
                if f != 0 {
                    *fallen_into.entry(f).or_insert(0) += 1;
                }
                seen.insert(target, f);
                f
            }
        };
        if fall_through == default && !default_repeated {
            fall_through = default_fall_through;
        }
        if fall_through == 0 {
            continue;
        }
        if i == 0 {
            default_fall_through = fall_through;
            continue;
        }
        let mut j = i;
        while j + 1 < targets.len() && targets[j + 1] == target {
            j += 1;
        }
        if targets.get(j + 1) != Some(&fall_through) {
            let e = CfgError::CaseOrder {
                target: Id(target),
                next: Id(fall_through),
            };
            return Some(fault(e, at));
        }
    }
    for (&target, &count) in &fallen_into {
        if count > 1 {
            let at = q.state.def(target).map_or(g.at, |d| d.index);
            return Some(fault(CfgError::CaseFallenInto { target: Id(target) }, at));
        }
    }
    None
}

/// The case `target` falls through to (0 for none) by the targets of the edges out
/// of its subtree (see [`super::regions`]); `None` when the case may be at fault, to
/// be searched as spirv-val does.
fn quick_fall_through(
    c: &Checks<'_, '_>,
    target: u32,
    merge: u32,
    case_targets: &[u32],
    exits: &[u32; 4],
) -> Option<u32> {
    let (q, g) = (c.q, c.g);
    let r = c.regions.as_ref()?;
    if !c.reachable(target) {
        return Some(0);
    }
    let span = |x: u32| (c.dom.pre[x as usize], c.dom.last[x as usize]);
    let t = span(target);
    let holes = if merge != target && c.dom.dominates(target, merge) {
        Vec::from([span(merge)])
    } else {
        Vec::new()
    };
    let mut fall_through = 0u32;
    let mut fine = true;
    for s in super::regions::minus(t, &holes) {
        r.targets_outside(s, t, |p| {
            let b = r.order[p as usize];
            if b == merge {
                return true;
            }
            let id = g.id(q, b);
            if case_targets.binary_search(&id).is_err() {
                fine = exits.contains(&b);
            } else if fall_through == 0 || fall_through == id {
                fall_through = id;
            } else {
                fine = false;
            }
            fine
        });
        if !fine {
            return None;
        }
    }
    Some(fall_through)
}

/// `FindCaseFallThrough` for the case construct at `target`: `Ok` with the case it
/// falls through to (0 for none), or the fault; `None` when there is nothing to check.
fn fall_through_of(
    c: &mut Checks<'_, '_>,
    target: u32,
    merge: u32,
    case_targets: &[u32],
    exits: &[u32; 4],
) -> Option<Result<u32, Fault>> {
    let (q, g) = (c.q, c.g);
    if c.visited.is_empty() {
        c.visited = alloc::vec![0; g.len() + 2];
    }
    c.stamp += 1;
    let stamp = c.stamp;
    let target_id = g.id(q, target);
    let at = g.labels.get(target as usize).copied().unwrap_or(g.at);
    let target_reachable = c.reachable(target);
    let mut fall_through = 0u32;
    let mut stack = alloc::vec![target];
    while let Some(b) = stack.pop() {
        if b == merge || core::mem::replace(&mut c.visited[b as usize], stamp) == stamp {
            continue;
        }
        if target_reachable && c.reachable(b) && c.dom.dominates(target, b) {
            stack.extend(g.real_successors(b));
            continue;
        }
        let id = g.id(q, b);
        if case_targets.binary_search(&id).is_err() {
            if exits.contains(&b) {
                continue;
            }
            let e = CfgError::CaseExit {
                target: Id(target_id),
                block: Id(id),
            };
            return Some(Err(fault(e, at)));
        }
        if fall_through == 0 {
            if b != target {
                fall_through = id;
            }
        } else if fall_through != id {
            let e = CfgError::CaseFallThroughs {
                target: Id(target_id),
                first: Id(fall_through),
                second: Id(id),
            };
            return Some(Err(fault(e, at)));
        }
    }
    Some(Ok(fall_through))
}
