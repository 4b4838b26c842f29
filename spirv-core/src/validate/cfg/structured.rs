//! `PerformCfgChecks` for one function, in spirv-val's order: blocks referenced but
//! not defined, the dominator tree and blocks before their dominators, the nesting
//! limit, then with `Shader` the structured rules of `StructuredControlFlowChecks`:
//! back edges only to loop headers, one back-edge block per loop, each construct's
//! header dominating its exit, exits through structured exits only, entries through
//! the header only, nested headers' merge blocks inside, continue targets entered
//! from the loop only, the switch rules ([`super::switch`]), and last
//! `ValidateStructuredSelections`. A construct's blocks are listed, as spirv-val lists
//! them, only when counts by dominator-tree ranges ([`super::regions`]) show a fault.

use super::dominators::{Tree, depth_first};
use super::graph::{
    CONTINUE, Construct, Graph, LOOP, MERGE, NONE, SELECTION, STRUCTURALLY_REACHABLE,
};
use super::regions::{Regions, suspect};
use super::ssa::Uses;
use super::{CfgError, ConstructKind};
use crate::__private::Vec;
use crate::spv::Opcode as O;
use crate::types::Id;
use crate::validate::Fault;
use crate::validate::Query;
use crate::validate::error::ValidationErrorKind;

/// A fault reported at instruction `at`.
pub(super) fn fault(e: CfgError, at: u32) -> Fault {
    Fault::at(ValidationErrorKind::Cfg(e), at)
}

/// Checks one function; the first fault.
pub(super) fn perform_cfg_checks(
    q: &Query<'_>,
    g: &Graph,
    shader: bool,
    uses: &mut Uses,
) -> Option<Fault> {
    let id = |n: u32| Id(g.id(q, n));
    if !g.foreign.is_empty() {
        let blocks = super::undefined::undefined_blocks(q, g);
        let e = CfgError::UndefinedBlocks {
            blocks: blocks.into_iter().map(Id).collect(),
            function: Id(g.function),
        };
        return Some(fault(e, g.at));
    }
    let tree = Tree::build(&g.view(false, true), &g.view(false, false), 0);
    for b in 1..g.defined() as u32 {
        let d = tree.idom(b);
        if d != NONE && d != g.entry() && d >= b {
            let e = CfgError::BeforeDominator {
                block: id(b),
                dominator: id(d),
            };
            return Some(fault(e, g.labels.get(d as usize).copied().unwrap_or(g.at)));
        }
    }
    if shader {
        let limit = q.state.options.limits.max_control_flow_nesting_depth;
        if let Some(b) = too_deep(g, &tree, limit) {
            return Some(fault(CfgError::NestingDepth, g.labels[b as usize]));
        }
    }
    uses.collect(q, g, &tree);
    drop(tree);
    if !shader {
        return None;
    }
    Checks::new(q, g).run()
}

/// The first block deeper than `limit` (`Function::GetBlockDepth`, memoized as
/// spirv-val does: a block whose depth is being computed counts 0 meanwhile).
fn too_deep(g: &Graph, tree: &Tree, limit: u32) -> Option<u32> {
    let mut depth = alloc::vec![NONE; g.len()];
    let mut chain: Vec<(u32, u32)> = Vec::new();
    for b in 0..g.defined() as u32 {
        let mut x = b;
        let base = loop {
            let Some(&d) = depth.get(x as usize) else {
                break 0;
            };
            if d != NONE {
                break d;
            }
            depth[x as usize] = 0;
            let dom = tree.idom(x);
            if dom == NONE || dom == x {
                break 0;
            }
            let (next, add) = if g.has(x, CONTINUE) {
                match g.continue_header(x) {
                    h if h == x => (dom, 1),
                    h => (h, 1),
                }
            } else if g.has(x, MERGE) {
                (g.merge_header(x), 0)
            } else if g.has(dom, SELECTION | LOOP) {
                (dom, 1)
            } else {
                (dom, 0)
            };
            chain.push((x, add));
            if next == NONE {
                break 0;
            }
            x = next;
        };
        let mut v = base;
        while let Some((y, add)) = chain.pop() {
            v = v.saturating_add(add);
            depth[y as usize] = v;
        }
        if depth[b as usize] > limit {
            return Some(b);
        }
    }
    None
}

/// The structured rules of one function, with what they share.
pub(super) struct Checks<'a, 'q> {
    pub(super) q: &'a Query<'q>,
    pub(super) g: &'a Graph<'q>,
    /// Structural dominators.
    pub(super) dom: Tree,
    /// Structural post-dominators.
    pub(super) post: Tree,
    /// Back edges, in spirv-val's order.
    back_edges: Vec<(u32, u32)>,
    /// The same, sorted.
    back_sorted: Vec<(u32, u32)>,
    /// Each construct's exit (the back-edge block of a continue construct).
    pub(super) exits: Vec<u32>,
    /// Each construct's structured exits (`IsStructuredExit`), `NONE` for none.
    pub(super) accepts: Vec<[u32; 4]>,
    /// A stamp per node: which construct's blocks it was last found in (allocated
    /// when a construct is checked block by block).
    member: Vec<u32>,
    /// A stamp per node for other searches (allocated when needed).
    pub(super) visited: Vec<u32>,
    pub(super) stamp: u32,
    /// The edges by ranges of the dominator tree.
    pub(super) regions: Option<Regions>,
}

impl<'a, 'q> Checks<'a, 'q> {
    fn new(q: &'a Query<'q>, g: &'a Graph<'q>) -> Self {
        let succ = g.view(true, true);
        let pred = g.view(true, false);
        // The trees only the constructs need; post-dominators only for continue
        // constructs, and built first, while less is alive.
        let loops = g.constructs.iter().any(|c| c.kind == ConstructKind::Loop);
        let post = if loops {
            let mut post = Tree::build(&pred, &succ, g.exit());
            post.forget_idoms();
            post
        } else {
            Tree::empty()
        };
        let dom = if g.constructs.is_empty() {
            Tree::empty()
        } else {
            Tree::build(&succ, &pred, 0)
        };
        let mut back_edges = Vec::new();
        depth_first(
            &succ,
            g.entry(),
            |_| {},
            Some(&mut |from: u32, to: u32| {
                for s in g.real_successors(from) {
                    if s == to {
                        back_edges.push((from, to));
                    }
                }
            }),
        );
        // `UpdateContinueConstructExitBlocks`: the last back edge to a loop header
        // names its continue construct's back-edge block.
        let mut exits: Vec<u32> = g.constructs.iter().map(|c| c.exit).collect();
        let mut back_sorted = back_edges.clone();
        back_sorted.sort_unstable();
        let mut last_from: alloc::collections::BTreeMap<u32, u32> = Default::default();
        for &(from, to) in &back_edges {
            last_from.insert(to, from);
        }
        for c in &g.constructs {
            if c.kind == ConstructKind::Loop {
                if let Some(&from) = last_from.get(&c.entry) {
                    exits[c.partner as usize] = from;
                }
            }
        }
        let mut checks = Checks {
            q,
            g,
            dom,
            post,
            back_edges,
            back_sorted,
            exits,
            accepts: Vec::new(),
            member: Vec::new(),
            visited: Vec::new(),
            stamp: 0,
            regions: None,
        };
        if g.constructs.is_empty() {
            return checks;
        }
        let walk = checks.walk();
        checks.accepts = (0..g.constructs.len())
            .map(|k| checks.structured_exits(k, &g.constructs[k], &walk))
            .collect();
        drop(walk);
        checks.dom.forget_idoms();
        checks.regions = Some(Regions::new(&checks));
        checks
    }

    /// The blocks under `exit` (a back-edge block) that it post-dominates and that
    /// a search from it through such blocks reaches: those of the continue construct
    /// below its back-edge block. Sorted.
    pub(super) fn post_dominated_below(&self, exit: u32) -> Vec<u32> {
        let mut seen = alloc::collections::BTreeSet::new();
        let mut stack = alloc::vec![exit];
        while let Some(b) = stack.pop() {
            if self.dom.dominates(exit, b) && self.post.dominates(exit, b) && seen.insert(b) {
                stack.extend(self.g.structural_successors(b));
            }
        }
        seen.into_iter().collect()
    }

    fn id(&self, n: u32) -> Id {
        Id(self.g.id(self.q, n))
    }

    fn label(&self, n: u32) -> u32 {
        self.g.labels.get(n as usize).copied().unwrap_or(self.g.at)
    }

    pub(super) fn reachable(&self, n: u32) -> bool {
        self.g.has(n, STRUCTURALLY_REACHABLE)
    }

    /// The instruction before a block's terminator, if it is a merge instruction.
    pub(super) fn merge_inst(&self, n: u32) -> Option<(O, &'q [u32])> {
        let t = *self.g.terminators.get(n as usize)?;
        if t == NONE {
            return None;
        }
        let i = self.q.module.instruction(t as usize - 1)?;
        matches!(i.opcode(), O::SelectionMerge | O::LoopMerge).then(|| (i.opcode(), i.words()))
    }

    /// The opcode of a block's terminator.
    pub(super) fn terminator(&self, n: u32) -> Option<O> {
        let t = *self.g.terminators.get(n as usize)?;
        (t != NONE)
            .then(|| self.q.module.instruction(t as usize).map(|i| i.opcode()))
            .flatten()
    }

    /// The node of a block id, `NONE` if this function has none.
    pub(super) fn node(&self, id: u32) -> u32 {
        self.g.node(self.q, id).unwrap_or(NONE)
    }

    fn run(mut self) -> Option<Fault> {
        let g = self.g;
        for &(from, to) in &self.back_edges {
            if !g.has(to, LOOP) {
                let e = CfgError::BackEdge {
                    from: self.id(from),
                    to: self.id(to),
                };
                return Some(fault(e, self.label(from)));
            }
        }
        // Distinct back-edge blocks per header.
        let mut latches: Vec<(u32, u32)> = self.back_edges.iter().map(|&(f, t)| (t, f)).collect();
        latches.sort_unstable();
        latches.dedup();
        for h in 0..g.defined() as u32 {
            if !self.reachable(h) || !g.has(h, LOOP) {
                continue;
            }
            let lo = latches.partition_point(|&(to, _)| to < h);
            let hi = latches.partition_point(|&(to, _)| to <= h);
            let count = hi - lo;
            if count != 1 {
                let e = CfgError::LatchCount {
                    header: self.id(h),
                    count,
                };
                return Some(fault(e, self.label(h)));
            }
        }
        for (k, c) in g.constructs.iter().enumerate() {
            if let Some(f) = self.construct(k, c) {
                return Some(f);
            }
        }
        self.selections()
    }

    /// The rules of one construct.
    fn construct(&mut self, k: usize, c: &Construct) -> Option<Fault> {
        let header = c.entry;
        if !self.reachable(header) {
            return None;
        }
        let exit = self.exits[k];
        let kind = c.kind;
        if exit == NONE {
            let e = CfgError::MissingExit {
                construct: kind,
                header: self.id(header),
            };
            return Some(fault(e, self.label(header)));
        }
        let (construct, header_id, exit_id) = (kind, self.id(header), self.id(exit));
        let broken = if !self.dom.dominates(header, exit) {
            Some(CfgError::HeaderNotDominating {
                construct,
                header: header_id,
                exit: exit_id,
            })
        } else if kind != ConstructKind::Continue && header == exit {
            Some(CfgError::HeaderNotStrictlyDominating {
                construct,
                header: header_id,
                exit: exit_id,
            })
        } else if kind == ConstructKind::Continue && !self.post.dominates(exit, header) {
            Some(CfgError::HeaderNotPostDominated {
                construct,
                header: header_id,
                exit: exit_id,
            })
        } else {
            None
        };
        if let Some(e) = broken {
            return Some(fault(e, self.label(exit)));
        }
        // Listing a construct's blocks costs them all, for every construct holding
        // them; the counts by ranges say first whether there is a fault to find.
        let suspicious = match &self.regions {
            Some(r) => suspect(self, r, k, c),
            None => true,
        };
        if suspicious {
            if let Some(f) = self.block_by_block(k, c) {
                return Some(f);
            }
        }
        if kind == ConstructKind::Loop {
            if let Some(f) = self.continue_entries(k, c) {
                return Some(f);
            }
        }
        if kind == ConstructKind::Selection && self.terminator(header) == Some(O::Switch) {
            return super::switch::check(self, k, c);
        }
        None
    }

    /// The rules over the blocks of construct `k`, block by block in id order as
    /// spirv-val checks them: its exits, its entries, its nested headers' merges.
    fn block_by_block(&mut self, k: usize, c: &Construct) -> Option<Fault> {
        let header = c.entry;
        let kind = c.kind;
        if self.member.is_empty() {
            self.member = alloc::vec![0; self.g.len() + 2];
        }
        let blocks = self.blocks(k, c);
        let stamp = k as u32 + 1;
        let exits = self.accepts[k];
        for &b in &blocks {
            for s in self.g.real_successors(b) {
                if self.member[s as usize] != stamp && !exits.contains(&s) {
                    let e = CfgError::NotStructuredExit {
                        block: self.id(b),
                        construct: kind,
                        header: self.id(header),
                    };
                    return Some(fault(e, self.label(b)));
                }
            }
            if b == header {
                continue;
            }
            for p in self.g.real_predecessors(b) {
                if self.reachable(p) && self.member[p as usize] != stamp {
                    let e = CfgError::EntersConstruct {
                        from: self.id(p),
                        construct: kind,
                        header: self.id(header),
                    };
                    return Some(fault(e, self.label(p)));
                }
            }
            if self.g.has(b, SELECTION | LOOP) {
                if let Some((_, w)) = self.merge_inst(b) {
                    let m = self.node(w.get(1).copied().unwrap_or(0));
                    if m != NONE && self.reachable(m) && self.member[m as usize] != stamp {
                        let e = CfgError::HeaderMergeOutside {
                            block: self.id(b),
                            construct: kind,
                            header: self.id(header),
                            merge: self.id(m),
                        };
                        return Some(fault(e, self.label(b)));
                    }
                }
            }
        }
        None
    }

    /// Edges into a loop's continue target from outside loop construct `k`, back
    /// edges aside.
    fn continue_entries(&self, k: usize, c: &Construct) -> Option<Fault> {
        let header = c.entry;
        let merge = self.exits[k];
        let target_node = self.g.constructs[c.partner as usize].entry;
        // The loop construct's blocks (`Construct::blocks`, by dominance).
        let empty = self.dom.dominates(target_node, header);
        let inside = |x: u32| {
            !empty
                && self.dom.dominates(header, x)
                && !self.dom.dominates(merge, x)
                && !self.dom.dominates(target_node, x)
        };
        let (_, w) = self.merge_inst(header)?;
        let continue_id = w.get(2).copied().unwrap_or(0);
        if continue_id == self.g.id(self.q, header) {
            return None;
        }
        let target = self.node(continue_id);
        if target == NONE {
            return None;
        }
        for p in self.g.real_predecessors(target) {
            if !self.reachable(p) {
                continue;
            }
            let back = self.back_sorted.binary_search(&(p, target)).is_ok();
            if !inside(p) && !back {
                let e = CfgError::ContinueFromOutside {
                    from: self.id(p),
                    target: Id(continue_id),
                    header: self.id(header),
                };
                let at = self.g.terminators[p as usize];
                return Some(fault(e, if at == NONE { self.label(p) } else { at }));
            }
        }
        None
    }

    /// `Construct::blocks`: the construct's blocks, found from its header as spirv-val
    /// does, sorted by id; each stamped `k + 1` in `member`.
    fn blocks(&mut self, k: usize, c: &Construct) -> Vec<u32> {
        let stamp = k as u32 + 1;
        let header = c.entry;
        let exit = self.exits[k];
        let continue_header = match c.kind {
            ConstructKind::Loop => self.g.constructs[c.partner as usize].entry,
            _ => NONE,
        };
        let mut out = Vec::new();
        let mut stack = alloc::vec![header];
        while let Some(b) = stack.pop() {
            if !self.dom.dominates(header, b) {
                continue;
            }
            let include = if c.kind == ConstructKind::Continue && self.post.dominates(exit, b) {
                true
            } else if !self.dom.dominates(exit, b) {
                !(c.kind == ConstructKind::Loop && self.dom.dominates(continue_header, b))
            } else {
                false
            };
            if include && self.member[b as usize] != stamp {
                self.member[b as usize] = stamp;
                out.push(b);
                stack.extend(self.g.structural_successors(b));
            }
        }
        let mut keyed: Vec<(u32, u32)> = out.iter().map(|&b| (self.g.id(self.q, b), b)).collect();
        keyed.sort_unstable();
        keyed.into_iter().map(|(_, b)| b).collect()
    }

    /// `ValidateStructuredSelections`: over the blocks in reverse postorder, a
    /// conditional branch without a selection merge must target a block seen before (a
    /// merge block, continue target or earlier target), and a switch needs its merge.
    fn selections(&self) -> Option<Fault> {
        let g = self.g;
        let mut order = Vec::new();
        depth_first(&g.view(true, true), 0, |x| order.push(x), None);
        let mut seen = alloc::vec![false; g.len() + 2];
        let mark = |seen: &mut Vec<bool>, id: u32| -> bool {
            match self.g.node(self.q, id) {
                Some(n) => !core::mem::replace(&mut seen[n as usize], true),
                None => false,
            }
        };
        for &b in order.iter().rev() {
            let Some(term) = self.terminator(b) else {
                continue;
            };
            let merge = self.merge_inst(b);
            match merge {
                Some((O::SelectionMerge, w)) => {
                    mark(&mut seen, w.get(1).copied().unwrap_or(0));
                }
                Some((_, w)) => {
                    mark(&mut seen, w.get(1).copied().unwrap_or(0));
                    mark(&mut seen, w.get(2).copied().unwrap_or(0));
                }
                None => {}
            }
            if !self.reachable(b) {
                continue;
            }
            let at = g.terminators[b as usize];
            let words = self
                .q
                .module
                .instruction(at as usize)
                .map_or(&[][..], |i| i.words());
            match term {
                O::BranchConditional => {
                    let t = mark(&mut seen, words.get(2).copied().unwrap_or(0));
                    let f = mark(&mut seen, words.get(3).copied().unwrap_or(0));
                    let structured = matches!(merge, Some((O::SelectionMerge, _)));
                    if !structured && t && f {
                        return Some(fault(CfgError::Unstructured, at));
                    }
                }
                O::Switch => {
                    if merge.is_none() {
                        return Some(fault(CfgError::SwitchWithoutMerge, at));
                    }
                    super::graph::branch_targets(self.q, words, |t| {
                        mark(&mut seen, t);
                    });
                }
                _ => {}
            }
        }
        None
    }
}
