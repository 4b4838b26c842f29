//! Dominator and post-dominator trees of one function (spirv-opt's `DominatorTree`,
//! `DominatorAnalysis`, `PostDominatorAnalysis`): Cooper–Harvey–Kennedy over a
//! depth-first post order from the pseudo entry (or, for post-dominators, the pseudo
//! exit over the reversed graph), with the children of each node in the order spirv-opt
//! gives them (by their post-order index), and pre/post numbers for O(1) `dominates`.
//! Blocks are named by their ids; the pseudo blocks by [`PSEUDO_ENTRY`] and
//! [`PSEUDO_EXIT`].

use super::IdHashMap;
use super::cfg::{PSEUDO_ENTRY, PSEUDO_EXIT, depth_first};
use crate::ir::{Block, Func, Inst, Ir};

/// No node (a root's parent; a predecessor the traversal did not reach).
const NONE: u32 = u32::MAX;

/// A dominator (or post-dominator) tree. Its nodes are numbered by their place in the
/// depth-first post order it was built from, and each node's record sits in a vector at
/// that number (the children of all in one vector): a long chain of blocks costs a few
/// words per block, not a map entry and a vector each.
#[derive(Debug, Clone, Default)]
pub struct DomTree {
    post_dominator: bool,
    /// Each node's number, by block id.
    slot: IdHashMap<u32, u32>,
    /// By number.
    nodes: Vec<TreeNode>,
    /// Node `k`'s children are `children[nodes[k - 1].children_end..nodes[k].children_end]`
    /// (from 0 for the first node).
    children: Vec<u32>,
    roots: Vec<u32>,
}

/// One node of a [`DomTree`].
#[derive(Debug, Clone, Copy)]
struct TreeNode {
    /// The block id.
    id: u32,
    /// The parent's number, [`NONE`] for a root.
    parent: u32,
    /// The numbers of the depth-first walk `dominates` compares.
    pre: u32,
    post: u32,
    /// Where its children end in [`DomTree::children`].
    children_end: u32,
}

/// Lists keyed by id, kept as one vector: the keys in the order first met, each with
/// its values in the order added (what a map of vectors gives, without a vector each).
#[derive(Default)]
struct Lists {
    /// Each key's number, by id.
    key: IdHashMap<u32, u32>,
    /// (key number, value) in the order added; then, once [`Lists::seal`]ed, the
    /// values grouped by key, in that order within each.
    edges: Vec<(u32, u32)>,
    /// Once sealed, one longer than the keys: where each key's values start.
    start: Vec<u32>,
    values: Vec<u32>,
}

impl Lists {
    /// Adds `value` to the list of `id`.
    fn push(&mut self, id: u32, value: u32) {
        let next = self.key.len() as u32;
        let k = *self.key.entry(id).or_insert(next);
        self.edges.push((k, value));
    }

    /// Groups the values by key (a stable counting sort), after which only [`Lists::of`]
    /// is asked.
    fn seal(&mut self) {
        let keys = self.key.len();
        let mut start = vec![0u32; keys + 1];
        for &(k, _) in &self.edges {
            start[k as usize + 1] += 1;
        }
        for k in 0..keys {
            start[k + 1] += start[k];
        }
        let mut at = start.clone();
        let mut values = vec![0u32; self.edges.len()];
        for &(k, v) in &self.edges {
            values[at[k as usize] as usize] = v;
            at[k as usize] += 1;
        }
        self.edges = Vec::new();
        self.start = start;
        self.values = values;
    }

    /// The values of key `id`, in the order added.
    fn of(&self, id: u32) -> &[u32] {
        match self.key.get(&id) {
            Some(&k) => {
                let k = k as usize;
                &self.values[self.start[k] as usize..self.start[k + 1] as usize]
            }
            None => &[],
        }
    }
}

impl DomTree {
    /// The tree of `f` (`InitializeTree`): dominators, or with `post` post-dominators.
    pub fn build(ir: &Ir, f: Func, post: bool) -> DomTree {
        let mut t = DomTree {
            post_dominator: post,
            ..DomTree::default()
        };
        if ir.is_declaration(f) {
            return t;
        }
        // The graph, as `BasicBlockSuccessorHelper` builds it.
        let mut succs = Lists::default();
        let mut preds = Lists::default();
        let start = if post { PSEUDO_EXIT } else { PSEUDO_ENTRY };
        if post {
            for b in ir.blocks(f) {
                let id = ir.block_id(b);
                if ir.has_successor(b) {
                    let list: Vec<u32> = ir.successors(b);
                    for &s in &list {
                        succs.push(s, id);
                    }
                    for s in list {
                        preds.push(id, s);
                    }
                } else {
                    succs.push(start, id);
                    preds.push(id, start);
                }
            }
        } else if let Some(entry) = ir.entry(f) {
            let e = ir.block_id(entry);
            succs.push(start, e);
            preds.push(e, start);
            for b in ir.blocks(f) {
                let id = ir.block_id(b);
                let list = ir.successors(b);
                for &s in &list {
                    preds.push(s, id);
                }
                for s in list {
                    succs.push(id, s);
                }
            }
        }
        succs.seal();
        preds.seal();
        let mut postorder = Vec::new();
        depth_first(
            start,
            |id, out| out.extend_from_slice(succs.of(id)),
            |_| {},
            |id| postorder.push(id),
            |_| false,
        );
        drop(succs);
        let n = postorder.len();
        t.slot.reserve(n);
        for (k, &id) in postorder.iter().enumerate() {
            t.slot.insert(id, k as u32);
        }
        // Each node's predecessors by their numbers ([`NONE`] for one not reached).
        let mut pred_start = Vec::with_capacity(n + 1);
        let mut pred_nodes = Vec::new();
        for &id in &postorder {
            pred_start.push(pred_nodes.len() as u32);
            pred_nodes.extend(
                preds
                    .of(id)
                    .iter()
                    .map(|p| t.slot.get(p).copied().unwrap_or(NONE)),
            );
        }
        pred_start.push(pred_nodes.len() as u32);
        drop(preds);
        let dom = calculate_dominators(&pred_start, &pred_nodes);
        // Each node's parent, the roots in post order, and the children of each node
        // in post order, counted first so that they share one vector.
        let mut count = vec![0u32; n + 1];
        for (k, &d) in dom.iter().enumerate() {
            if d == k as u32 {
                t.roots.push(postorder[k]);
            } else {
                count[d as usize + 1] += 1;
            }
        }
        for k in 0..n {
            count[k + 1] += count[k];
        }
        let mut at = count.clone();
        let mut children = vec![0u32; count[n] as usize];
        for (k, &d) in dom.iter().enumerate() {
            if d != k as u32 {
                children[at[d as usize] as usize] = postorder[k];
                at[d as usize] += 1;
            }
        }
        t.children = children;
        t.nodes = (0..n)
            .map(|k| TreeNode {
                id: postorder[k],
                parent: if dom[k] == k as u32 { NONE } else { dom[k] },
                pre: 0,
                post: 0,
                children_end: count[k + 1],
            })
            .collect();
        t.number();
        t
    }

    /// `ResetDFNumbering`: one count for both numbers, each root's tree in turn.
    fn number(&mut self) {
        let n = self.nodes.len();
        let mut pre = vec![0u32; n];
        let mut post = vec![0u32; n];
        let counter = std::cell::Cell::new(0u32);
        let tick = |numbers: &mut Vec<u32>, id: u32| {
            counter.set(counter.get() + 1);
            if let Some(&k) = self.slot.get(&id) {
                numbers[k as usize] = counter.get();
            }
        };
        for &r in &self.roots {
            depth_first(
                r,
                |id, out| out.extend_from_slice(self.children(id)),
                |id| tick(&mut pre, id),
                |id| tick(&mut post, id),
                |_| false,
            );
        }
        for (node, (pre, post)) in self.nodes.iter_mut().zip(pre.into_iter().zip(post)) {
            node.pre = pre;
            node.post = post;
        }
    }

    /// Whether this is a post-dominator tree.
    pub fn is_post_dominator(&self) -> bool {
        self.post_dominator
    }

    /// Whether block `a` dominates block `b` (every block dominates itself; blocks
    /// not in the tree dominate nothing and are dominated by nothing).
    pub fn dominates(&self, a: u32, b: u32) -> bool {
        let (Some(&na), Some(&nb)) = (self.slot.get(&a), self.slot.get(&b)) else {
            return false;
        };
        let (na, nb) = (&self.nodes[na as usize], &self.nodes[nb as usize]);
        a == b || (na.pre < nb.pre && na.post > nb.post)
    }

    /// Whether `a` dominates `b` and is not `b`.
    pub fn strictly_dominates(&self, a: u32, b: u32) -> bool {
        a != b && self.dominates(a, b)
    }

    /// The immediate dominator of block `a` (the pseudo block for the entry, or for
    /// post-dominators the blocks that leave the function), or `None` for a root or a
    /// block not in the tree.
    pub fn immediate_dominator(&self, a: u32) -> Option<u32> {
        let k = *self.slot.get(&a)?;
        let p = self.nodes[k as usize].parent;
        (p != NONE).then(|| self.nodes[p as usize].id)
    }

    /// Whether block `a` is in the tree (reachable, for dominators).
    pub fn contains(&self, a: u32) -> bool {
        self.slot.contains_key(&a)
    }

    /// The children of `a`, in order.
    pub fn children(&self, a: u32) -> &[u32] {
        match self.slot.get(&a) {
            Some(&k) => {
                let k = k as usize;
                let start = if k == 0 {
                    0
                } else {
                    self.nodes[k - 1].children_end
                };
                &self.children[start as usize..self.nodes[k].children_end as usize]
            }
            None => &[],
        }
    }

    /// The tree's first root (the pseudo block).
    pub fn root(&self) -> Option<u32> {
        self.roots.first().copied()
    }

    /// The blocks in depth-first pre-order from the first root (`begin()`…`end()`).
    pub fn pre_order(&self) -> Vec<u32> {
        let mut out = Vec::new();
        if let Some(r) = self.root() {
            let mut stack = vec![r];
            while let Some(id) = stack.pop() {
                out.push(id);
                for &c in self.children(id).iter().rev() {
                    stack.push(c);
                }
            }
        }
        out
    }

    /// The closest block dominating both `a` and `b` (`CommonDominator`).
    pub fn common_dominator(&self, a: u32, b: u32) -> Option<u32> {
        let mut seen = std::collections::HashSet::new();
        let mut block = Some(a);
        while let Some(x) = block {
            if !seen.insert(x) {
                break;
            }
            block = self.immediate_dominator(x);
        }
        let mut block = Some(b);
        while let Some(x) = block {
            if seen.contains(&x) {
                return Some(x);
            }
            block = self.immediate_dominator(x);
        }
        None
    }

    /// Whether instruction `a` dominates instruction `b` (`Dominates(Instruction*,
    /// Instruction*)`): by their blocks, or by their order in one block.
    pub fn inst_dominates(&self, ir: &Ir, a: Inst, b: Inst) -> bool {
        if a == b {
            return true;
        }
        let (Some(ba), Some(bb)) = (ir.block_of(a), ir.block_of(b)) else {
            return false;
        };
        if ba != bb {
            return self.dominates(ir.block_id(ba), ir.block_id(bb));
        }
        let (mut current, other) = if self.post_dominator { (b, a) } else { (a, b) };
        if ir.opcode(current) == spirv_core::spv::Opcode::Label {
            return true;
        }
        while let Some(n) = ir.next(current) {
            if n == other {
                return true;
            }
            current = n;
        }
        false
    }

    /// Whether `a` dominates every instruction of `bs` ([`DomTree::inst_dominates`] of
    /// each): those in `a`'s block are found in one walk from `a` instead of a walk
    /// each, which matters when one store dominates many loads of a long block.
    pub fn inst_dominates_all(&self, ir: &Ir, a: Inst, bs: &[Inst]) -> bool {
        let Some(ba) = ir.block_of(a) else {
            return bs.iter().all(|&b| b == a);
        };
        if self.post_dominator || ir.opcode(a) == spirv_core::spv::Opcode::Label {
            return bs.iter().all(|&b| self.inst_dominates(ir, a, b));
        }
        let mut after: std::collections::HashSet<Inst> = std::collections::HashSet::new();
        for &b in bs {
            if b == a {
                continue;
            }
            match ir.block_of(b) {
                Some(bb) if bb == ba => {
                    after.insert(b);
                }
                Some(bb) if self.dominates(ir.block_id(ba), ir.block_id(bb)) => {}
                _ => return false,
            }
        }
        let mut current = a;
        while !after.is_empty() {
            let Some(n) = ir.next(current) else {
                return false;
            };
            after.remove(&n);
            current = n;
        }
        true
    }

    /// Whether `b`'s block is reachable from the entry (`IsReachable`).
    pub fn is_reachable(&self, ir: &Ir, b: Block) -> bool {
        ir.block_func(b)
            .and_then(|f| ir.entry(f))
            .is_some_and(|e| self.dominates(ir.block_id(e), ir.block_id(b)))
    }
}

/// `CFA::CalculateDominators` over nodes numbered in post order (the last the root),
/// node `k`'s predecessors being `preds[start[k]..start[k + 1]]` ([`NONE`] for one
/// not reached): each node's immediate dominator (a root its own).
fn calculate_dominators(start: &[u32], preds: &[u32]) -> Vec<u32> {
    let n = start.len().saturating_sub(1);
    let mut dom = vec![NONE; n];
    if let Some(last) = dom.last_mut() {
        *last = (n - 1) as u32;
    }
    let preds_of = |k: usize| &preds[start[k] as usize..start[k + 1] as usize];
    let mut changed = true;
    while changed {
        changed = false;
        for bi in (0..n.saturating_sub(1)).rev() {
            let ps = preds_of(bi);
            let Some(&first) = ps.iter().find(|&&p| p != NONE && dom[p as usize] != NONE) else {
                continue;
            };
            let mut idom = first;
            for &p in ps {
                if p == first || p == NONE || dom[p as usize] == NONE {
                    continue;
                }
                let (mut f1, mut f2) = (p, idom);
                while f1 != f2 {
                    while f1 < f2 {
                        f1 = dom[f1 as usize];
                    }
                    while f2 < f1 {
                        f2 = dom[f2 as usize];
                    }
                }
                idom = f1;
            }
            if dom[bi] != idom {
                dom[bi] = idom;
                changed = true;
            }
        }
    }
    for (k, d) in dom.iter_mut().enumerate() {
        if *d == NONE {
            *d = k as u32;
        }
    }
    dom
}
