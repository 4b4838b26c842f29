//! Depth-first traversals and dominator trees over a function's augmented graph,
//! without recursion. [`depth_first`] is `CFA::DepthFirstTraversal` in its exact
//! order (postorder and back edges); [`Tree::build`] gives the immediate dominators
//! `CFA::CalculateDominators` converges to (those of the graph its predecessor
//! function describes, over the nodes the traversal reached), by Lengauer and Tarjan's
//! algorithm in O(m log n), and numbers the tree so that "dominates" is O(1).

use super::graph::{NONE, View};
use crate::__private::Vec;

/// `CFA::DepthFirstTraversal` from `root` over `succ`: `post` gets each node in
/// postorder, `back` each edge to a node on the traversal's current path (self loops
/// included), as spirv-val's `backedge` callback does.
pub(super) fn depth_first(
    succ: &View<'_>,
    root: u32,
    mut post: impl FnMut(u32),
    mut back: Option<&mut dyn FnMut(u32, u32)>,
) {
    let n = succ.nodes();
    let mut processed = alloc::vec![false; n];
    let mut on_path = alloc::vec![false; n];
    let mut stack: Vec<(u32, usize)> = alloc::vec![(root, 0)];
    processed[root as usize] = true;
    on_path[root as usize] = true;
    while let Some(top) = stack.last_mut() {
        let (x, pos) = *top;
        match succ.next(x, pos) {
            None => {
                post(x);
                on_path[x as usize] = false;
                stack.pop();
            }
            Some((child, p)) => {
                top.1 = p;
                if on_path[child as usize] {
                    if let Some(b) = back.as_mut() {
                        b(x, child);
                    }
                }
                if !core::mem::replace(&mut processed[child as usize], true) {
                    on_path[child as usize] = true;
                    stack.push((child, 0));
                }
            }
        }
    }
}

/// A dominator forest: each node's immediate dominator, and an interval numbering of
/// the forest for ancestor queries.
#[derive(Debug)]
pub(super) struct Tree {
    /// The immediate dominator, `NONE` for a root or a node not reached.
    pub(super) idom: Vec<u32>,
    /// Preorder number in the forest.
    pre: Vec<u32>,
    /// The largest preorder number in the node's subtree.
    last: Vec<u32>,
}

impl Tree {
    /// The dominators from `root` of the graph whose edges `pred` gives, over the
    /// nodes `succ` reaches from `root` (the two describe the same edges but where
    /// spirv-val's augmented graph mixes real and structural edges; then, as spirv-val,
    /// `pred` decides).
    pub(super) fn build(succ: &View<'_>, pred: &View<'_>, root: u32) -> Tree {
        let n = succ.nodes();
        // The nodes spirv-val's traversal reaches.
        let mut reached = alloc::vec![false; n];
        depth_first(succ, root, |x| reached[x as usize] = true, None);
        // Whether the edges the traversal follows are those `pred` gives (edges into
        // the root aside, which no dominator depends on); when not, the forward edges
        // are rebuilt from `pred`.
        let (mut by_pred, mut by_succ) = (0usize, 0usize);
        for x in 0..n as u32 {
            if reached[x as usize] {
                if x != root {
                    pred.each(x, |p| by_pred += usize::from(reached[p as usize]));
                }
                succ.each(x, |c| by_succ += usize::from(c != root));
            }
        }
        let consistent = by_pred == by_succ;
        let idom = if consistent {
            lengauer_tarjan(n, root, |x, pos| succ.next(x, pos), pred, &reached)
        } else {
            // Forward lists from `pred`, over the reached nodes.
            let mut start = alloc::vec![0u32; n + 1];
            for x in 0..n as u32 {
                if reached[x as usize] {
                    pred.each(x, |p| {
                        if reached[p as usize] {
                            start[p as usize + 1] += 1;
                        }
                    });
                }
            }
            for i in 0..n {
                start[i + 1] += start[i];
            }
            let mut items = alloc::vec![0u32; start[n] as usize];
            let mut at = start.clone();
            for x in 0..n as u32 {
                if reached[x as usize] {
                    pred.each(x, |p| {
                        if reached[p as usize] {
                            items[at[p as usize] as usize] = x;
                            at[p as usize] += 1;
                        }
                    });
                }
            }
            drop(at);
            let next = |x: u32, pos: usize| {
                let (a, b) = (start[x as usize] as usize, start[x as usize + 1] as usize);
                (a + pos < b).then(|| (items[a + pos], pos + 1))
            };
            lengauer_tarjan(n, root, next, pred, &reached)
        };
        drop(reached);
        Tree::number(idom)
    }

    /// Numbers the forest in preorder.
    fn number(idom: Vec<u32>) -> Tree {
        let n = idom.len();
        let mut start = alloc::vec![0u32; n + 1];
        for &d in &idom {
            if d != NONE {
                start[d as usize + 1] += 1;
            }
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let mut children = alloc::vec![0u32; start[n] as usize];
        let mut at = start.clone();
        for (x, &d) in idom.iter().enumerate() {
            if d != NONE {
                children[at[d as usize] as usize] = x as u32;
                at[d as usize] += 1;
            }
        }
        drop(at);
        let mut pre = alloc::vec![NONE; n];
        let mut last = alloc::vec![0u32; n];
        let mut counter = 0u32;
        let mut stack: Vec<(u32, u32)> = Vec::new();
        for r in 0..n as u32 {
            if idom[r as usize] != NONE {
                continue;
            }
            pre[r as usize] = counter;
            counter += 1;
            stack.push((r, start[r as usize]));
            while let Some(top) = stack.last_mut() {
                let (x, i) = *top;
                if i < start[x as usize + 1] {
                    top.1 += 1;
                    let c = children[i as usize];
                    pre[c as usize] = counter;
                    counter += 1;
                    stack.push((c, start[c as usize]));
                } else {
                    last[x as usize] = counter - 1;
                    stack.pop();
                }
            }
        }
        Tree { idom, pre, last }
    }

    /// Whether `a` dominates `b` (`BasicBlock::dominates`: `a` is `b` or one of its
    /// dominators).
    pub(super) fn dominates(&self, a: u32, b: u32) -> bool {
        if a == b {
            return true;
        }
        match (self.pre.get(a as usize), self.pre.get(b as usize)) {
            (Some(&pa), Some(&pb)) => {
                pa != NONE && pb != NONE && pa < pb && pb <= self.last[a as usize]
            }
            _ => false,
        }
    }

    /// The immediate dominator of `x`, or `NONE`.
    pub(super) fn idom(&self, x: u32) -> u32 {
        self.idom.get(x as usize).copied().unwrap_or(NONE)
    }
}

/// Lengauer and Tarjan's immediate dominators (with path compression) from `root`,
/// `succ` giving the depth-first search its edges and `pred` the predecessors, of
/// which only the `reached` count.
fn lengauer_tarjan(
    n: usize,
    root: u32,
    succ: impl Fn(u32, usize) -> Option<(u32, usize)>,
    pred: &View<'_>,
    reached: &[bool],
) -> Vec<u32> {
    // Depth-first numbering; every array below is indexed by number.
    let mut number = alloc::vec![NONE; n];
    let mut vertex: Vec<u32> = Vec::new();
    let mut parent: Vec<u32> = Vec::new();
    let mut stack: Vec<(u32, usize)> = alloc::vec![(root, 0)];
    number[root as usize] = 0;
    vertex.push(root);
    parent.push(NONE);
    while let Some(top) = stack.last_mut() {
        let (x, pos) = *top;
        match succ(x, pos) {
            Some((c, p)) => {
                top.1 = p;
                if number[c as usize] == NONE && reached[c as usize] {
                    number[c as usize] = vertex.len() as u32;
                    parent.push(number[x as usize]);
                    vertex.push(c);
                    stack.push((c, 0));
                }
            }
            None => {
                stack.pop();
            }
        }
    }
    drop(stack);
    let k = vertex.len();
    let mut semi: Vec<u32> = (0..k as u32).collect();
    let mut label: Vec<u32> = (0..k as u32).collect();
    let mut ancestor = alloc::vec![NONE; k];
    let mut idom = alloc::vec![NONE; k];
    let mut bucket_head = alloc::vec![NONE; k];
    let mut bucket_next = alloc::vec![NONE; k];
    let mut path: Vec<u32> = Vec::new();
    // `eval` with iterative path compression.
    let eval =
        |v: u32, ancestor: &mut [u32], label: &mut [u32], semi: &[u32], path: &mut Vec<u32>| {
            if ancestor[v as usize] == NONE {
                return v;
            }
            let mut x = v;
            while ancestor[ancestor[x as usize] as usize] != NONE {
                path.push(x);
                x = ancestor[x as usize];
            }
            while let Some(y) = path.pop() {
                let a = ancestor[y as usize];
                if semi[label[a as usize] as usize] < semi[label[y as usize] as usize] {
                    label[y as usize] = label[a as usize];
                }
                ancestor[y as usize] = ancestor[a as usize];
            }
            label[v as usize]
        };
    for w in (1..k as u32).rev() {
        let node = vertex[w as usize];
        pred.each(node, |p| {
            let v = number[p as usize];
            if v != NONE {
                let u = eval(v, &mut ancestor, &mut label, &semi, &mut path);
                if semi[u as usize] < semi[w as usize] {
                    semi[w as usize] = semi[u as usize];
                }
            }
        });
        let s = semi[w as usize];
        bucket_next[w as usize] = bucket_head[s as usize];
        bucket_head[s as usize] = w;
        let p = parent[w as usize];
        ancestor[w as usize] = p;
        let mut v = core::mem::replace(&mut bucket_head[p as usize], NONE);
        while v != NONE {
            let u = eval(v, &mut ancestor, &mut label, &semi, &mut path);
            idom[v as usize] = if semi[u as usize] < semi[v as usize] {
                u
            } else {
                p
            };
            v = bucket_next[v as usize];
        }
    }
    for w in 1..k {
        if idom[w] != semi[w] {
            idom[w] = idom[idom[w] as usize];
        }
    }
    let mut out = alloc::vec![NONE; n];
    for w in 1..k {
        out[vertex[w] as usize] = vertex[idom[w] as usize];
    }
    out
}
