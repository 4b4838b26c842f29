//! The control-flow graph (spirv-opt's `CFG`): each block's predecessors in the order
//! the module's branches name them, the block of each label, post orders, and the
//! structured order (merge and continue targets before the branches' successors).
//! A pseudo entry (id 0) and a pseudo exit (id `0x400000`) stand where spirv-opt has
//! its placeholder blocks; the depth-first traversal is `CFA::DepthFirstTraversal`'s,
//! iterative, so no recursion follows the input's depth.

use super::{IdHashMap, IdHashSet, IdMap, id_cap};
use crate::ir::{Block, Func, Ir};

/// The pseudo entry block's id.
pub const PSEUDO_ENTRY: u32 = 0;
/// The pseudo exit block's id (spirv-opt's `kMaxResultId`).
pub const PSEUDO_EXIT: u32 = 0x40_0000;

/// The control-flow graph of every function.
/// Keyed by block ids in a hash map: a module's labels are few and spread over its ids,
/// and a vector as long as the ids was most of what building the graph paged in.
#[derive(Debug, Clone)]
pub struct Cfg {
    /// Each block's entry, and one for each id branched to that has predecessors
    /// recorded but no block (yet).
    nodes: IdHashMap<u32, Node>,
    /// The predecessor lists too long for an entry, named by [`Preds::Overflow`].
    overflow: Vec<Vec<u32>>,
}

/// How many predecessors an entry holds before its list moves to [`Cfg::overflow`].
const INLINE_PREDS: usize = 2;

/// One id's entry: 16 bytes, 20 with its key (a map of blocks and a map of vectors of
/// predecessors were two entries and an allocation per block, the most of a long
/// chain's graph).
#[derive(Debug, Clone, Copy)]
struct Node {
    /// The block's arena index, or [`NO_BLOCK`].
    block: u32,
    preds: Preds,
}

/// A [`Node`] of an id that is not a block's.
const NO_BLOCK: u32 = u32::MAX;

impl Default for Node {
    fn default() -> Self {
        Node {
            block: NO_BLOCK,
            preds: Preds::Inline {
                len: 0,
                ids: [0; INLINE_PREDS],
            },
        }
    }
}

/// One id's predecessors: most blocks have one or two, kept in the entry.
#[derive(Debug, Clone, Copy)]
enum Preds {
    /// The first `len` of `ids`.
    Inline { len: u8, ids: [u32; INLINE_PREDS] },
    /// More: the list at this index of [`Cfg::overflow`].
    Overflow(u32),
}

impl Cfg {
    /// The graph of `ir`'s functions (`CFG::CFG`).
    pub fn build(ir: &Ir) -> Cfg {
        let n: usize = ir.functions().iter().map(|&f| ir.blocks(f).count()).sum();
        let mut c = Cfg {
            nodes: IdHashMap::with_capacity_and_hasher(n + 1, Default::default()),
            overflow: Vec::new(),
        };
        for &f in ir.functions() {
            for b in ir.blocks(f) {
                c.register_block(ir, b);
            }
        }
        c
    }

    /// Records `b` and its outgoing edges (`RegisterBlock`).
    pub fn register_block(&mut self, ir: &Ir, b: Block) {
        let id = ir.block_id(b);
        self.nodes.entry(id).or_default().block = b.0;
        self.add_edges(ir, b);
    }

    /// Records `b`'s outgoing edges (`AddEdges`).
    pub fn add_edges(&mut self, ir: &Ir, b: Block) {
        let id = ir.block_id(b);
        self.nodes.entry(id).or_default();
        for s in ir.successors(b) {
            self.add_edge(id, s);
        }
    }

    /// Adds the edge `pred` → `succ` (`AddEdge`).
    pub fn add_edge(&mut self, pred: u32, succ: u32) {
        let node = self.nodes.entry(succ).or_default();
        match &mut node.preds {
            Preds::Inline { len, ids } if usize::from(*len) < INLINE_PREDS => {
                ids[usize::from(*len)] = pred;
                *len += 1;
            }
            Preds::Inline { ids, .. } => {
                let mut list = Vec::with_capacity(2 * INLINE_PREDS);
                list.extend_from_slice(ids);
                list.push(pred);
                node.preds = Preds::Overflow(self.overflow.len() as u32);
                self.overflow.push(list);
            }
            Preds::Overflow(at) => {
                if let Some(list) = self.overflow.get_mut(*at as usize) {
                    list.push(pred);
                }
            }
        }
    }

    /// Removes one edge `pred` → `succ` (`RemoveEdge`).
    pub fn remove_edge(&mut self, pred: u32, succ: u32) {
        let Some(node) = self.nodes.get_mut(&succ) else {
            return;
        };
        match &mut node.preds {
            Preds::Inline { len, ids } => {
                let n = usize::from(*len);
                if let Some(at) = ids[..n].iter().position(|&p| p == pred) {
                    ids.copy_within(at + 1..n, at);
                    *len -= 1;
                }
            }
            Preds::Overflow(at) => {
                if let Some(list) = self.overflow.get_mut(*at as usize) {
                    if let Some(i) = list.iter().position(|&p| p == pred) {
                        list.remove(i);
                    }
                }
            }
        }
    }

    /// Removes `b`'s outgoing edges (`RemoveSuccessorEdges`).
    pub fn remove_successor_edges(&mut self, ir: &Ir, b: Block) {
        let id = ir.block_id(b);
        for s in ir.successors(b) {
            self.remove_edge(id, s);
        }
    }

    /// Forgets `b` (`ForgetBlock`).
    pub fn forget_block(&mut self, ir: &Ir, b: Block) {
        let id = ir.block_id(b);
        if let Some(node) = self.nodes.remove(&id) {
            self.free(node.preds);
        }
        self.remove_successor_edges(ir, b);
    }

    /// Frees the overflow list `preds` names, if it names one (its slot stays).
    fn free(&mut self, preds: Preds) {
        if let Preds::Overflow(at) = preds {
            if let Some(list) = self.overflow.get_mut(at as usize) {
                *list = Vec::new();
            }
        }
    }

    /// Keeps only the predecessors of `id` that still branch to it
    /// (`RemoveNonExistingEdges`).
    pub fn remove_non_existing_edges(&mut self, ir: &Ir, id: u32) {
        let preds = self.preds(id).to_vec();
        let kept: Vec<u32> = preds
            .into_iter()
            .filter(|&p| {
                self.block(p)
                    .is_some_and(|pb| ir.successors(pb).contains(&id))
            })
            .collect();
        let node = self.nodes.entry(id).or_default();
        let old = std::mem::replace(&mut node.preds, Node::default().preds);
        self.free(old);
        for p in kept {
            self.add_edge(p, id);
        }
    }

    /// The predecessors of block `id`, in the order they were recorded (`preds`).
    pub fn preds(&self, id: u32) -> &[u32] {
        match self.nodes.get(&id).map(|n| &n.preds) {
            Some(Preds::Inline { len, ids }) => &ids[..usize::from(*len)],
            Some(Preds::Overflow(at)) => self.overflow.get(*at as usize).map_or(&[], Vec::as_slice),
            None => &[],
        }
    }

    /// The block labelled `id` (`block`).
    pub fn block(&self, id: u32) -> Option<Block> {
        self.nodes
            .get(&id)
            .filter(|n| n.block != NO_BLOCK)
            .map(|n| Block(n.block))
    }

    /// The blocks reachable from `b` in post order (`ComputePostOrderTraversal`: a
    /// stack, each block's first unseen successor pushed in turn).
    pub fn post_order(&self, ir: &Ir, b: Block) -> Vec<Block> {
        let mut order = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![b];
        while let Some(&top) = stack.last() {
            seen.insert(top);
            for s in ir.successors(top) {
                match self.block(s) {
                    Some(sb) if !seen.contains(&sb) => {
                        stack.push(sb);
                        break;
                    }
                    _ => {}
                }
            }
            if stack.last() == Some(&top) {
                order.push(top);
                stack.pop();
            }
        }
        order
    }

    /// The blocks reachable from `b` in reverse post order
    /// (`ForEachBlockInReversePostOrder`).
    pub fn reverse_post_order(&self, ir: &Ir, b: Block) -> Vec<Block> {
        let mut o = self.post_order(ir, b);
        o.reverse();
        o
    }

    /// The structured successors of `f`'s blocks (`ComputeStructuredSuccessors`): the
    /// pseudo entry's are the blocks without predecessors; a header's are its merge
    /// block, its continue target, then its branches' targets.
    pub fn structured_successors(&self, ir: &Ir, f: Func) -> Successors {
        let cap = id_cap(ir.blocks(f).count());
        let mut succs = Successors {
            ranges: IdMap::new(cap),
            targets: Vec::new(),
        };
        let mut roots = Vec::new();
        let mut repeated = false;
        for b in ir.blocks(f) {
            let id = ir.block_id(b);
            if self.preds(id).is_empty() {
                roots.push(id);
            }
            let start = succs.targets.len();
            push_structured_successors(ir, b, &mut succs.targets);
            repeated |= succs
                .ranges
                .insert(id, (position(start), position(succs.targets.len())))
                .is_some();
        }
        if repeated {
            // A label repeated in the function (malformed input): its lists join, in
            // the order of its blocks.
            let mut lists: IdMap<Vec<u32>> = IdMap::new(cap);
            let mut order = Vec::new();
            for b in ir.blocks(f) {
                let id = ir.block_id(b);
                if lists.get(id).is_none() {
                    order.push(id);
                }
                push_structured_successors(ir, b, lists.entry_or_insert_with(id, Vec::new));
            }
            succs.targets.clear();
            succs.ranges = IdMap::new(cap);
            for id in order {
                let start = position(succs.targets.len());
                succs
                    .targets
                    .extend(lists.get(id).map_or(&[][..], Vec::as_slice));
                succs
                    .ranges
                    .insert(id, (start, position(succs.targets.len())));
            }
        }
        // No block is the pseudo entry: the loader refuses a result id 0.
        let start = position(succs.targets.len());
        succs.targets.extend(roots);
        succs
            .ranges
            .insert(PSEUDO_ENTRY, (start, position(succs.targets.len())));
        succs
    }

    /// `f`'s blocks from `root` in structured order, stopping at `end`
    /// (`ComputeStructuredOrder`): the reverse post order over structured successors.
    pub fn structured_order(
        &self,
        ir: &Ir,
        f: Func,
        root: Block,
        end: Option<Block>,
    ) -> Vec<Block> {
        let succs = self.structured_successors(ir, f);
        let end = end.map(|e| ir.block_id(e));
        let mut order = Vec::new();
        depth_first(
            ir.block_id(root),
            |id, out| out.extend_from_slice(succs.of(id)),
            |_| {},
            |id| order.push(id),
            |id| Some(id) == end,
        );
        order
            .into_iter()
            .rev()
            .filter_map(|id| self.block(id))
            .collect()
    }
}

/// The structured successors of one function's blocks: each block's list, one after
/// another in one vector (a vector for each block was most of what the structured
/// order of a long chain of blocks allocated).
#[derive(Debug, Clone)]
pub struct Successors {
    /// Where each block's list is in `targets`.
    ranges: IdMap<(u32, u32)>,
    targets: Vec<u32>,
}

impl Successors {
    /// The successors of block `id` (the pseudo entry's for [`PSEUDO_ENTRY`]).
    pub fn of(&self, id: u32) -> &[u32] {
        self.ranges
            .get(id)
            .and_then(|&(a, b)| self.targets.get(a as usize..b as usize))
            .unwrap_or(&[])
    }
}

/// Appends block `b`'s structured successors to `out`: its merge block and continue
/// target if it is a header, then its branches' targets.
fn push_structured_successors(ir: &Ir, b: Block, out: &mut Vec<u32>) {
    if let Some(m) = ir.merge_block_id(b) {
        out.push(m);
        if let Some(c) = ir.continue_block_id(b) {
            out.push(c);
        }
    }
    out.extend(ir.successors(b));
}

/// `CFA::DepthFirstTraversal`: from `entry`, each node's successors in order (which
/// `successors` appends to the vector it is given), calling `pre` when a node is first
/// reached and `post` when all its successors are done (or at once for a `terminal`
/// node); each node once (by id). The successors of the open nodes share one vector,
/// so a path of n nodes costs a few words each, not a vector each.
pub fn depth_first(
    entry: u32,
    mut successors: impl FnMut(u32, &mut Vec<u32>),
    mut pre: impl FnMut(u32),
    mut post: impl FnMut(u32),
    mut terminal: impl FnMut(u32) -> bool,
) {
    let mut processed: IdHashSet<u32> = IdHashSet::default();
    let mut pending: Vec<u32> = Vec::new();
    // Each open node: its id, where its successors start in `pending`, and the next
    // one to visit (they end where the next open node's start, or at the end).
    let mut work: Vec<(u32, u32, u32)> = Vec::new();
    successors(entry, &mut pending);
    work.push((entry, 0, 0));
    pre(entry);
    processed.insert(entry);
    while let Some(top) = work.last_mut() {
        let (id, start, next) = *top;
        match pending.get(next as usize) {
            Some(&child) if !terminal(id) => {
                top.2 = next.saturating_add(1);
                if processed.insert(child) {
                    pre(child);
                    let at = position(pending.len());
                    successors(child, &mut pending);
                    work.push((child, at, at));
                }
            }
            _ => {
                post(id);
                work.pop();
                pending.truncate(start as usize);
            }
        }
    }
}

/// A place in a vector of successors as a `u32`, which keeps the tables above at half
/// the size: 2^32 successors would take 16 GiB of branch instructions (past it, the
/// traversal stops short rather than panic).
fn position(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}
