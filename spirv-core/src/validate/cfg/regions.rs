//! The structured rules over a construct's blocks without listing them. spirv-val
//! lists each construct's blocks (`Construct::blocks`), which costs the blocks of
//! every construct: a block a thousand constructs deep is listed a thousand times.
//! Here a construct's blocks are ranges of the structural dominator tree's preorder:
//! a selection's or loop's are the header's subtree less the merge block's (and the
//! continue target's) subtrees (every such block is reached from the header through
//! such blocks, as spirv-val's search goes); a continue construct's are the continue
//! target's subtree less the back-edge block's, plus the few blocks under the
//! back-edge block it post-dominates, found by search. Into a subtree an edge can only
//! enter at its root, which is always a structured exit; so each rule becomes a count
//! of edges (or of header-to-merge pairs) between ranges, which a [`Wavelet`] over the
//! edges by preorder answers in O(log n). A construct whose counts show no fault keeps
//! the rules; one whose counts show one is checked block by block, as spirv-val does,
//! for its exact fault.
//!
//! Switches likewise: the blocks a case construct's search leaves to are the values,
//! among the edges from the case's subtree, outside that subtree; they are listed
//! distinct and few (a case leaves to the merge block, the next case or a structured
//! exit, else it is at fault).

use super::ConstructKind;
use super::graph::{Construct, LOOP, NONE, SELECTION};
use super::structured::Checks;
use super::wavelet::Wavelet;
use crate::__private::Vec;

/// A range of preorder numbers, both ends included.
type Range = (u32, u32);

/// The edges and header-to-merge pairs of a function's reachable blocks, by the
/// structural dominator tree's preorder.
#[derive(Debug)]
pub(super) struct Regions {
    /// Where the edges from each preorder number begin among `edges`.
    off: Vec<u32>,
    /// The preorder number of each edge's target, the edges by their source's number.
    edges: Wavelet,
    /// The preorder number of each header with a reachable merge block, sorted.
    header_x: Vec<u32>,
    /// The preorder number of their merge blocks.
    headers: Wavelet,
    /// The node of each preorder number.
    pub(super) order: Vec<u32>,
}

impl Regions {
    pub(super) fn new(c: &Checks<'_, '_>) -> Regions {
        let n = c.g.len() + 2;
        let mut order = alloc::vec![NONE; n];
        for x in 0..n as u32 {
            if let Some(&p) = c.dom.pre.get(x as usize) {
                order[p as usize] = x;
            }
        }
        let mut off = Vec::with_capacity(n + 1);
        let mut values = Vec::new();
        let mut header_x = Vec::new();
        let mut merges = Vec::new();
        for (p, &x) in order.iter().enumerate() {
            off.push(values.len() as u32);
            if x == NONE || !c.reachable(x) {
                continue;
            }
            values.extend(c.g.real_successors(x).map(|s| c.dom.pre[s as usize]));
            if c.g.has(x, SELECTION | LOOP) {
                if let Some((_, w)) = c.merge_inst(x) {
                    let m = c.node(w.get(1).copied().unwrap_or(0));
                    if m != NONE && c.reachable(m) {
                        header_x.push(p as u32);
                        merges.push(c.dom.pre[m as usize]);
                    }
                }
            }
        }
        off.push(values.len() as u32);
        let max = n as u32;
        Regions {
            off,
            edges: Wavelet::new(values, max),
            header_x,
            headers: Wavelet::new(merges, max),
            order,
        }
    }

    /// Edges from the blocks numbered in `from` to those numbered in `to`.
    fn edges(&self, from: Range, to: Range) -> u32 {
        let (l, r) = (self.off[from.0 as usize], self.off[from.1 as usize + 1]);
        self.edges.count(l, r, to.0, to.1)
    }

    /// Headers numbered in `from` whose merge block is numbered in `to`.
    fn headers(&self, from: Range, to: Range) -> u32 {
        let l = self.header_x.partition_point(|&x| x < from.0) as u32;
        let r = self.header_x.partition_point(|&x| x <= from.1) as u32;
        self.headers.count(l, r, to.0, to.1)
    }

    /// The distinct targets, numbered outside `outside`, of the edges from the blocks
    /// numbered in `from`, in increasing number, until `f` says stop (false).
    pub(super) fn targets_outside(
        &self,
        from: Range,
        outside: Range,
        mut f: impl FnMut(u32) -> bool,
    ) {
        let (l, r) = (self.off[from.0 as usize], self.off[from.1 as usize + 1]);
        let mut lo = 0;
        while let Some(v) = self.edges.next_at_least(l, r, lo) {
            if v >= outside.0 && v <= outside.1 {
                lo = outside.1.saturating_add(1);
                if lo == 0 {
                    return;
                }
                continue;
            }
            if !f(v) {
                return;
            }
            lo = v + 1;
        }
    }
}

/// `outer` less the ranges in `holes` (each inside `outer` or apart from it).
pub(super) fn minus(outer: Range, holes: &[Range]) -> Vec<Range> {
    let mut holes: Vec<Range> = holes
        .iter()
        .copied()
        .filter(|h| h.0 >= outer.0 && h.1 <= outer.1 && h.0 <= h.1)
        .collect();
    holes.sort_unstable();
    let mut out = Vec::new();
    let mut at = outer.0;
    for (a, b) in holes {
        if a > at {
            out.push((at, a - 1));
        }
        at = at.max(b.saturating_add(1));
    }
    if at <= outer.1 && outer.0 <= outer.1 {
        out.push((at, outer.1));
    }
    out
}

/// The ranges not in `inside`.
fn outside(inside: Range) -> [Range; 2] {
    [
        (0, inside.0.wrapping_sub(1)),
        (inside.1.saturating_add(1), u32::MAX),
    ]
}

/// Whether `p` is in one of `ranges`.
fn within(ranges: &[Range], p: u32) -> bool {
    ranges.iter().any(|r| p >= r.0 && p <= r.1)
}

/// Whether construct `k` may break the rules over its blocks (exits through
/// structured exits only, entries at the header only, nested headers' merge blocks
/// inside); false when it keeps them.
pub(super) fn suspect(c: &Checks<'_, '_>, r: &Regions, k: usize, construct: &Construct) -> bool {
    let g = c.g;
    let span = |x: u32| (c.dom.pre[x as usize], c.dom.last[x as usize]);
    let header = construct.entry;
    let exit = c.exits[k];
    let accepts: Vec<u32> = {
        let mut a: Vec<u32> = c.accepts[k]
            .iter()
            .copied()
            .filter(|&x| x != NONE)
            .collect();
        a.sort_unstable();
        a.dedup();
        a
    };
    let h = span(header);
    // The construct's own blocks by range, the blocks it holds outside them (a
    // continue construct's under its back-edge block), and the subtrees cut out.
    let (holes, extra): (Vec<Range>, Vec<u32>) = match construct.kind {
        ConstructKind::Selection => (Vec::from([span(exit)]), Vec::new()),
        ConstructKind::Loop => {
            let target = g.constructs[construct.partner as usize].entry;
            if c.dom.dominates(target, header) {
                // spirv-val's search starts at the header, which it leaves out.
                return false;
            }
            let mut holes = Vec::from([span(exit)]);
            if c.dom.dominates(header, target) {
                holes.push(span(target));
            }
            (holes, Vec::new())
        }
        ConstructKind::Continue => (Vec::from([span(exit)]), c.post_dominated_below(exit)),
    };
    // Keep the outermost holes.
    let holes: Vec<Range> = holes
        .iter()
        .copied()
        .filter(|a| !holes.iter().any(|b| b != a && b.0 <= a.0 && a.1 <= b.1))
        .collect();
    let blocks = minus(h, &holes);
    let in_blocks =
        |x: u32| within(&blocks, c.dom.pre[x as usize]) || extra.binary_search(&x).is_ok();
    // Exits: edges from the blocks out of the header's subtree, all to accepted
    // blocks. (Into a hole they reach its root, accepted.)
    for &s in &blocks {
        let out: u32 = outside(h).iter().map(|&o| r.edges(s, o)).sum();
        let fine: u32 = accepts
            .iter()
            .map(|&x| span(x).0)
            .filter(|&p| !within(&[h], p))
            .map(|p| r.edges(s, (p, p)))
            .sum();
        if out > fine {
            return true;
        }
    }
    // Entries: edges from the holes to the blocks, the header aside.
    let targets = minus((h.0.saturating_add(1), h.1), &holes);
    for &hole in &holes {
        let mut into: u32 = targets.iter().map(|&t| r.edges(hole, t)).sum();
        // Edges from the blocks of the hole that the construct holds are no entries.
        for &x in extra
            .iter()
            .filter(|&&x| within(&[hole], c.dom.pre[x as usize]))
        {
            for s in g.real_successors(x) {
                if within(&targets, c.dom.pre[s as usize]) {
                    into = into.saturating_sub(1);
                }
            }
        }
        if into > 0 {
            return true;
        }
    }
    // Nested headers whose merge blocks are out.
    let nested = minus(h, &[(h.0, h.0)]);
    let nested: Vec<Range> = blocks
        .iter()
        .flat_map(|&b| {
            nested.iter().filter_map(move |&n| {
                let (a, z) = (b.0.max(n.0), b.1.min(n.1));
                (a <= z).then_some((a, z))
            })
        })
        .collect();
    for &s in &nested {
        let all = r.headers(s, (0, u32::MAX));
        let mut inside: u32 = blocks.iter().map(|&t| r.headers(s, t)).sum();
        for &m in &extra {
            let hd = g.merge_header(m);
            if hd != NONE && c.reachable(hd) && within(&[s], c.dom.pre[hd as usize]) {
                inside += 1;
            }
        }
        if all > inside {
            return true;
        }
    }
    // The blocks outside the ranges, one by one.
    for &x in &extra {
        for s in g.real_successors(x) {
            if !in_blocks(s) && !accepts.contains(&s) {
                return true;
            }
        }
        if x == header {
            continue;
        }
        for p in g.real_predecessors(x) {
            if c.reachable(p) && !in_blocks(p) {
                return true;
            }
        }
        if g.has(x, SELECTION | LOOP) {
            if let Some((_, w)) = c.merge_inst(x) {
                let m = c.node(w.get(1).copied().unwrap_or(0));
                if m != NONE && c.reachable(m) && !in_blocks(m) {
                    return true;
                }
            }
        }
    }
    false
}
