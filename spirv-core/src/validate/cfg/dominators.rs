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
    succ: &View<'_, '_>,
    root: u32,
    mut post: impl FnMut(u32),
    mut back: Option<&mut dyn FnMut(u32, u32)>,
) {
    let n = succ.nodes();
    let mut processed = alloc::vec![false; n];
    let mut on_path = alloc::vec![false; n];
    let mut stack: Vec<(u32, u32)> = alloc::vec![(root, 0)];
    processed[root as usize] = true;
    on_path[root as usize] = true;
    while let Some(top) = stack.last_mut() {
        let (x, pos) = *top;
        match succ.next(x, pos as usize) {
            None => {
                post(x);
                on_path[x as usize] = false;
                stack.pop();
            }
            Some((child, p)) => {
                top.1 = p as u32;
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
    idom: Vec<u32>,
    /// Preorder number in the forest.
    pub(super) pre: Vec<u32>,
    /// The largest preorder number in the node's subtree.
    pub(super) last: Vec<u32>,
}

impl Tree {
    /// The dominators from `root` of the graph whose edges `pred` gives, over the
    /// nodes `succ` reaches from `root` (the two describe the same edges but where
    /// spirv-val's augmented graph mixes real and structural edges; then, as spirv-val,
    /// `pred` decides). The nodes reached come first in the numbering, from 0.
    pub(super) fn build(succ: &View<'_, '_>, pred: &View<'_, '_>, root: u32) -> Tree {
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
        if by_pred == by_succ {
            let pred = |x: u32, f: &mut dyn FnMut(u32)| pred.each(x, f);
            return lengauer_tarjan(n, root, |x, pos| succ.next(x, pos), &pred, &reached);
        }
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
        let pred = |x: u32, f: &mut dyn FnMut(u32)| pred.each(x, f);
        lengauer_tarjan(n, root, next, &pred, &reached)
    }

    /// A tree asked nothing (for a function without constructs).
    pub(super) fn empty() -> Tree {
        Tree {
            idom: Vec::new(),
            pre: Vec::new(),
            last: Vec::new(),
        }
    }

    /// Whether `a` dominates `b` (`BasicBlock::dominates`: `a` is `b` or one of its
    /// dominators).
    pub(super) fn dominates(&self, a: u32, b: u32) -> bool {
        if a == b {
            return true;
        }
        match (self.pre.get(a as usize), self.pre.get(b as usize)) {
            (Some(&pa), Some(&pb)) => pa < pb && pb <= self.last[a as usize],
            _ => false,
        }
    }

    /// The immediate dominator of `x`, or `NONE`.
    pub(super) fn idom(&self, x: u32) -> u32 {
        self.idom.get(x as usize).copied().unwrap_or(NONE)
    }

    /// Drops the immediate dominators, for a tree asked only about dominance.
    pub(super) fn forget_idoms(&mut self) {
        self.idom = Vec::new();
    }
}

/// Hands each neighbour of a node to a callback.
type Neighbours<'a> = dyn Fn(u32, &mut dyn FnMut(u32)) + 'a;

/// Lengauer and Tarjan's immediate dominators (with path compression) from `root`,
/// `succ` giving the depth-first search its edges and `pred` the predecessors, of
/// which only the `reached` count; then the tree's interval numbering, in the order
/// of the search (a node's dominator comes before it), the nodes not reached after.
/// Seven words per node at most.
fn lengauer_tarjan(
    n: usize,
    root: u32,
    succ: impl Fn(u32, usize) -> Option<(u32, usize)>,
    pred: &Neighbours<'_>,
    reached: &[bool],
) -> Tree {
    // Depth-first numbering; the arrays below but `number` are indexed by number.
    let mut number = alloc::vec![NONE; n];
    let mut vertex: Vec<u32> = Vec::new();
    // The search's tree parent; a node's parent is also its ancestor in the forest
    // once linked, which the nodes numbered after the one at hand are.
    let mut ancestor: Vec<u32> = Vec::new();
    {
        let mut stack: Vec<(u32, u32)> = alloc::vec![(root, 0)];
        number[root as usize] = 0;
        vertex.push(root);
        ancestor.push(NONE);
        while let Some(top) = stack.last_mut() {
            let (x, pos) = *top;
            match succ(x, pos as usize) {
                Some((c, p)) => {
                    top.1 = p as u32;
                    if number[c as usize] == NONE && reached[c as usize] {
                        number[c as usize] = vertex.len() as u32;
                        ancestor.push(number[x as usize]);
                        vertex.push(c);
                        stack.push((c, 0));
                    }
                }
                None => {
                    stack.pop();
                }
            }
        }
    }
    let k = vertex.len();
    let mut semi: Vec<u32> = (0..k as u32).collect();
    let mut label: Vec<u32> = (0..k as u32).collect();
    let mut bucket_head = alloc::vec![NONE; k];
    // Bucket links, then (once a node leaves its bucket) its immediate dominator.
    let mut idom = alloc::vec![NONE; k];
    let mut path: Vec<u32> = Vec::new();
    for w in (1..k as u32).rev() {
        let node = vertex[w as usize];
        let mut s = semi[w as usize];
        pred(node, &mut |p| {
            let v = number[p as usize];
            if v != NONE {
                let u = eval(v, w, &mut ancestor, &mut label, &semi, &mut path);
                s = s.min(semi[u as usize]);
            }
        });
        semi[w as usize] = s;
        idom[w as usize] = bucket_head[s as usize];
        bucket_head[s as usize] = w;
        // `w` is linked to its parent from now on (numbers above `w - 1`).
        let p = ancestor[w as usize];
        let mut v = core::mem::replace(&mut bucket_head[p as usize], NONE);
        while v != NONE {
            let next = idom[v as usize];
            let u = eval(v, w - 1, &mut ancestor, &mut label, &semi, &mut path);
            idom[v as usize] = if semi[u as usize] < semi[v as usize] {
                u
            } else {
                p
            };
            v = next;
        }
    }
    drop(bucket_head);
    for w in 1..k {
        if idom[w] != semi[w] {
            idom[w] = idom[idom[w] as usize];
        }
    }
    // Subtree sizes (children come after their dominator in the search's order),
    // then preorder numbers: each child takes the next free slot of its dominator's.
    let size = &mut label;
    size.iter_mut().for_each(|s| *s = 1);
    for w in (1..k).rev() {
        let d = idom[w] as usize;
        size[d] += size[w];
    }
    let pre_by_number = &mut semi;
    let mut free = core::mem::take(&mut ancestor);
    pre_by_number[0] = 0;
    free[0] = 1;
    for w in 1..k {
        let d = idom[w] as usize;
        pre_by_number[w] = free[d];
        free[d] += size[w];
        free[w] = pre_by_number[w] + 1;
    }
    drop(free);
    let mut pre = alloc::vec![NONE; n];
    let mut last = alloc::vec![0u32; n];
    for w in 0..k {
        let x = vertex[w] as usize;
        pre[x] = pre_by_number[w];
        last[x] = pre_by_number[w] + size[w] - 1;
    }
    let mut next = k as u32;
    for x in 0..n {
        if pre[x] == NONE {
            pre[x] = next;
            last[x] = next;
            next += 1;
        }
    }
    // The immediate dominators, by node, in `number`.
    let out = &mut number;
    out.iter_mut().for_each(|d| *d = NONE);
    for w in 1..k {
        out[vertex[w] as usize] = vertex[idom[w] as usize];
    }
    Tree {
        idom: number,
        pre,
        last,
    }
}

/// Lengauer and Tarjan's `eval` with path compression, without recursion: the node of
/// least semidominator on the forest path from `v` up to its root; the nodes numbered
/// above `linked` are those linked, their `ancestor` their forest parent.
fn eval(
    v: u32,
    linked: u32,
    ancestor: &mut [u32],
    label: &mut [u32],
    semi: &[u32],
    path: &mut Vec<u32>,
) -> u32 {
    if v <= linked {
        return v;
    }
    let mut x = v;
    while ancestor[x as usize] != NONE && ancestor[x as usize] > linked {
        path.push(x);
        x = ancestor[x as usize];
    }
    while let Some(y) = path.pop() {
        let a = ancestor[y as usize] as usize;
        if semi[label[a] as usize] < semi[label[y as usize] as usize] {
            label[y as usize] = label[a];
        }
        ancestor[y as usize] = ancestor[a];
    }
    label[v as usize]
}

#[cfg(test)]
mod tests {
    use super::{NONE, lengauer_tarjan};
    use crate::__private::Vec;

    /// Dominator sets by the textbook fixpoint, for small graphs.
    fn naive(n: usize, root: usize, edges: &[(usize, usize)]) -> (Vec<bool>, Vec<Vec<bool>>) {
        let mut reach = alloc::vec![false; n];
        let mut stack = alloc::vec![root];
        while let Some(x) = stack.pop() {
            if !core::mem::replace(&mut reach[x], true) {
                stack.extend(edges.iter().filter(|e| e.0 == x).map(|e| e.1));
            }
        }
        let mut dom: Vec<Vec<bool>> = (0..n).map(|_| reach.clone()).collect();
        dom[root] = (0..n).map(|i| i == root).collect();
        let mut changed = true;
        while changed {
            changed = false;
            for b in 0..n {
                if b == root || !reach[b] {
                    continue;
                }
                let mut d = reach.clone();
                for &(p, _) in edges.iter().filter(|e| e.1 == b && reach[e.0]) {
                    for i in 0..n {
                        d[i] &= dom[p][i];
                    }
                }
                d[b] = true;
                if d != dom[b] {
                    dom[b] = d;
                    changed = true;
                }
            }
        }
        (reach, dom)
    }

    #[test]
    fn lengauer_tarjan_agrees_with_the_fixpoint() {
        let mut seed = 0x1234_5678_u64;
        let mut rand = |m: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % m as u64) as usize
        };
        for _ in 0..500 {
            let n = 2 + rand(14);
            let m = rand(3 * n);
            let edges: Vec<(usize, usize)> = (0..m).map(|_| (rand(n), rand(n))).collect();
            let succ = |x: u32, pos: usize| {
                edges
                    .iter()
                    .filter(|e| e.0 == x as usize)
                    .nth(pos)
                    .map(|e| (e.1 as u32, pos + 1))
            };
            let pred = |x: u32, f: &mut dyn FnMut(u32)| {
                edges
                    .iter()
                    .filter(|e| e.1 == x as usize)
                    .for_each(|e| f(e.0 as u32));
            };
            let (reached, dom) = naive(n, 0, &edges);
            let tree = lengauer_tarjan(n, 0, succ, &pred, &reached);
            for a in 0..n {
                for b in 0..n {
                    let expect = a == b || (reached[b] && dom[b][a]);
                    assert_eq!(
                        tree.dominates(a as u32, b as u32),
                        expect,
                        "{edges:?} {a} {b}"
                    );
                }
                if a != 0 && reached[a] {
                    assert_ne!(tree.idom(a as u32), NONE);
                }
            }
        }
    }
}
