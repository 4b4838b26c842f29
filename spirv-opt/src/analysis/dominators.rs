//! Dominator and post-dominator trees of one function (spirv-opt's `DominatorTree`,
//! `DominatorAnalysis`, `PostDominatorAnalysis`): Cooper–Harvey–Kennedy over a
//! depth-first post order from the pseudo entry (or, for post-dominators, the pseudo
//! exit over the reversed graph), with the children of each node in the order spirv-opt
//! gives them (by their post-order index), and pre/post numbers for O(1) `dominates`.
//! Blocks are named by their ids; the pseudo blocks by [`PSEUDO_ENTRY`] and
//! [`PSEUDO_EXIT`].

use super::cfg::{PSEUDO_ENTRY, PSEUDO_EXIT, depth_first};
use crate::ir::{Block, Func, Inst, Ir};
use std::collections::HashMap;

/// One node of a tree.
#[derive(Debug, Clone, Default)]
struct Node {
    parent: Option<u32>,
    children: Vec<u32>,
    pre: u32,
    post: u32,
}

/// A dominator (or post-dominator) tree.
#[derive(Debug, Clone, Default)]
pub struct DomTree {
    post_dominator: bool,
    nodes: HashMap<u32, Node>,
    roots: Vec<u32>,
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
        let mut succs: HashMap<u32, Vec<u32>> = HashMap::new();
        let mut preds: HashMap<u32, Vec<u32>> = HashMap::new();
        let start = if post { PSEUDO_EXIT } else { PSEUDO_ENTRY };
        if post {
            for b in ir.blocks(f) {
                let id = ir.block_id(b);
                if ir.has_successor(b) {
                    let list: Vec<u32> = ir.successors(b);
                    for &s in &list {
                        succs.entry(s).or_default().push(id);
                    }
                    preds.entry(id).or_default().extend(list);
                } else {
                    succs.entry(start).or_default().push(id);
                    preds.entry(id).or_default().push(start);
                }
            }
        } else if let Some(entry) = ir.entry(f) {
            let e = ir.block_id(entry);
            succs.entry(start).or_default().push(e);
            preds.entry(e).or_default().push(start);
            for b in ir.blocks(f) {
                let id = ir.block_id(b);
                let list = ir.successors(b);
                for &s in &list {
                    preds.entry(s).or_default().push(id);
                }
                succs.entry(id).or_default().extend(list);
            }
        }
        let mut postorder = Vec::new();
        depth_first(
            start,
            |id, out| out.extend_from_slice(succs.get(&id).map_or(&[][..], Vec::as_slice)),
            |_| {},
            |id| postorder.push(id),
            |_| false,
        );
        let edges = calculate_dominators(&postorder, &preds);
        for (child, dom) in edges {
            t.nodes.entry(child).or_default();
            if child == dom {
                if !t.roots.contains(&child) {
                    t.roots.push(child);
                }
                continue;
            }
            t.nodes.entry(dom).or_default().children.push(child);
            t.nodes.get_mut(&child).expect("inserted").parent = Some(dom);
        }
        t.number();
        t
    }

    /// `ResetDFNumbering`.
    fn number(&mut self) {
        let index = std::cell::Cell::new(0u32);
        let roots = self.roots.clone();
        let mut pre: Vec<(u32, u32)> = Vec::new();
        let mut post: Vec<(u32, u32)> = Vec::new();
        for r in roots {
            let nodes = &self.nodes;
            depth_first(
                r,
                |id, out| {
                    if let Some(n) = nodes.get(&id) {
                        out.extend_from_slice(&n.children);
                    }
                },
                |id| {
                    index.set(index.get() + 1);
                    pre.push((id, index.get()));
                },
                |id| {
                    index.set(index.get() + 1);
                    post.push((id, index.get()));
                },
                |_| false,
            );
        }
        for (id, n) in pre {
            if let Some(node) = self.nodes.get_mut(&id) {
                node.pre = n;
            }
        }
        for (id, n) in post {
            if let Some(node) = self.nodes.get_mut(&id) {
                node.post = n;
            }
        }
    }

    /// Whether this is a post-dominator tree.
    pub fn is_post_dominator(&self) -> bool {
        self.post_dominator
    }

    /// Whether block `a` dominates block `b` (every block dominates itself; blocks
    /// not in the tree dominate nothing and are dominated by nothing).
    pub fn dominates(&self, a: u32, b: u32) -> bool {
        let (Some(na), Some(nb)) = (self.nodes.get(&a), self.nodes.get(&b)) else {
            return false;
        };
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
        self.nodes.get(&a)?.parent
    }

    /// Whether block `a` is in the tree (reachable, for dominators).
    pub fn contains(&self, a: u32) -> bool {
        self.nodes.contains_key(&a)
    }

    /// The children of `a`, in order.
    pub fn children(&self, a: u32) -> &[u32] {
        self.nodes.get(&a).map_or(&[], |n| n.children.as_slice())
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

/// `CFA::CalculateDominators`: each block's immediate dominator, as (block, dominator)
/// pairs sorted by their post-order indices (a root dominates itself).
fn calculate_dominators(postorder: &[u32], preds: &HashMap<u32, Vec<u32>>) -> Vec<(u32, u32)> {
    let undefined = postorder.len();
    let mut index: HashMap<u32, usize> = HashMap::with_capacity(postorder.len());
    for (i, &b) in postorder.iter().enumerate() {
        index.insert(b, i);
    }
    let mut dom = vec![undefined; postorder.len()];
    if let Some(last) = dom.last_mut() {
        *last = postorder.len() - 1;
    }
    let empty = Vec::new();
    let mut changed = true;
    while changed {
        changed = false;
        for (bi, &b) in postorder.iter().enumerate().rev().skip(1) {
            let ps = preds.get(&b).unwrap_or(&empty);
            let Some(&first) = ps
                .iter()
                .find(|p| index.get(p).is_some_and(|&i| dom[i] != undefined))
            else {
                continue;
            };
            let mut idom = index[&first];
            for p in ps {
                if *p == first {
                    continue;
                }
                let Some(&pi) = index.get(p) else { continue };
                if dom[pi] != undefined {
                    let (mut f1, mut f2) = (pi, idom);
                    while f1 != f2 {
                        while f1 < f2 {
                            f1 = dom[f1];
                        }
                        while f2 < f1 {
                            f2 = dom[f2];
                        }
                    }
                    idom = f1;
                }
            }
            if dom[bi] != idom {
                dom[bi] = idom;
                changed = true;
            }
        }
    }
    let mut out: Vec<(usize, usize)> = (0..postorder.len())
        .map(|i| (i, if dom[i] == undefined { i } else { dom[i] }))
        .collect();
    out.sort_unstable();
    out.into_iter()
        .map(|(a, b)| (postorder[a], postorder[b]))
        .collect()
}
