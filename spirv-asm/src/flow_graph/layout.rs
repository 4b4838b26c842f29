//! A layered layout of one directed graph (a function's blocks), top to bottom, in
//! time near-linear in its size.
//!
//! The steps are Sugiyama's, each kept linear or `n log n`:
//! 1. A depth-first walk from the first node (then from each node not reached yet)
//!    marks the edges that close a cycle (to a node still on the walk's stack): loop
//!    back edges. They are laid out reversed, so they run up beside the loop.
//! 2. Every node gets the longest path to it over the other edges as its rank (a
//!    topological order, so linear).
//! 3. An edge spanning several ranks gets a point (a dummy node) in each rank between,
//!    so it is routed around the nodes there rather than through them; past
//!    [`DUMMY_BUDGET`] points in all, long edges are drawn as plain curves instead.
//! 4. Nodes of one rank start in walk order; a bounded number of sweeps then reorders
//!    each rank by the mean position of its neighbours in the rank above (going down)
//!    or below (going up), which removes most crossings. The sweeps stop when their
//!    total work would pass [`SWEEP_BUDGET`]: a very large function keeps walk order.
//! 5. Horizontal places: each rank in turn moves its nodes as close as it can to the
//!    mean place of their neighbours in the rank before, keeping their order and
//!    spacing (an isotonic regression, linear by pooling adjacent violators).

/// Node-and-edge visits the reordering sweeps may take in all.
pub(crate) const SWEEP_BUDGET: usize = 4_000_000;
/// Dummy nodes long edges may add in all.
pub(crate) const DUMMY_BUDGET: usize = 1_000_000;
/// Sweeps (down then up is two) when the budget allows.
const MAX_SWEEPS: usize = 8;
/// Passes placing nodes horizontally.
const PLACE_PASSES: usize = 6;
/// Space between nodes of a rank and between ranks, in pixels.
pub(crate) const GAP_X: f64 = 24.0;
pub(crate) const GAP_Y: f64 = 44.0;
/// The width a dummy node takes in its rank.
const DUMMY_W: f64 = 6.0;

/// What the layout decided for a graph.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Layout {
    /// Each node's centre.
    pub(crate) centre: Vec<(f64, f64)>,
    /// Which edges (by index) close a cycle and are drawn upwards.
    pub(crate) back: Vec<bool>,
    /// For each edge, the points it passes between its ends (top to bottom for an edge
    /// drawn downwards, bottom to top for a back edge).
    pub(crate) bends: Vec<Vec<(f64, f64)>>,
    /// Each node's rank (its row, counted from the top).
    pub(crate) rank: Vec<usize>,
    /// Each rank's row: the top and bottom of its tallest node. Between rows there is
    /// no node, so edges bend there and cross rows straight up or down.
    pub(crate) rows: Vec<(f64, f64)>,
    /// The whole drawing's width and height.
    pub(crate) size: (f64, f64),
    /// Whether the reordering sweeps ran (`false` for a graph over the budget).
    pub(crate) reordered: bool,
}

/// Lays out nodes of the given `(width, height)` joined by `edges` (`from`, `to`; an
/// edge naming a node past `sizes` is ignored).
pub(crate) fn layout(sizes: &[(f64, f64)], edges: &[(usize, usize)]) -> Layout {
    let n = sizes.len();
    let valid = |&(a, b): &(usize, usize)| a < n && b < n;
    let out = Csr::new(
        n,
        edges
            .iter()
            .enumerate()
            .filter(|(_, e)| valid(e))
            .map(|(i, &(a, b))| (a, b, i)),
    );
    let (back, order) = back_edges(n, edges.len(), &out);
    let rank = ranks(n, edges, &back, &order, &out);
    let ranks = rank.iter().max().map_or(0, |&r| r + 1);

    // The graph laid out: the nodes, then dummies; unit segments between ranks.
    let spans: usize = edges
        .iter()
        .enumerate()
        .filter(|(_, e)| valid(e))
        .map(|(_, &(a, b))| rank[a].abs_diff(rank[b]).saturating_sub(1))
        .sum();
    let use_dummies = spans <= DUMMY_BUDGET;
    let mut width: Vec<f64> = sizes.iter().map(|s| s.0).collect();
    let mut vrank = rank.clone();
    let mut chains: Vec<Vec<usize>> = vec![Vec::new(); edges.len()];
    let mut segments: Vec<(usize, usize)> = Vec::new();
    for (i, &(a, b)) in edges.iter().enumerate() {
        if !valid(&(a, b)) || a == b {
            continue;
        }
        // Top to bottom.
        let (top, bottom) = if rank[a] <= rank[b] { (a, b) } else { (b, a) };
        let mut prev = top;
        if use_dummies {
            for r in rank[top] + 1..rank[bottom] {
                let d = width.len();
                width.push(DUMMY_W);
                vrank.push(r);
                chains[i].push(d);
                segments.push((prev, d));
                prev = d;
            }
        }
        if rank[bottom] == vrank[prev] + 1 {
            segments.push((prev, bottom));
        }
    }
    let vn = width.len();
    let down = Csr::new(
        vn,
        segments.iter().enumerate().map(|(i, &(a, b))| (a, b, i)),
    );
    let up = Csr::new(
        vn,
        segments.iter().enumerate().map(|(i, &(a, b))| (b, a, i)),
    );

    // Ranks in walk order; dummies after the nodes of their rank, by edge.
    let mut layers: Vec<Vec<usize>> = vec![Vec::new(); ranks];
    for &v in &order {
        layers[rank[v]].push(v);
    }
    for v in n..vn {
        layers[vrank[v]].push(v);
    }
    let mut pos = vec![0.0f64; vn];
    for layer in &layers {
        number(layer, &mut pos);
    }
    let work = 2 * (vn + segments.len()) + 1;
    let sweeps = (SWEEP_BUDGET / work).min(MAX_SWEEPS);
    if sweeps >= 2 {
        for s in 0..sweeps {
            let going_down = s % 2 == 0;
            let (near, range): (&Csr, Vec<usize>) = if going_down {
                (&up, (1..ranks).collect())
            } else {
                (&down, (0..ranks.saturating_sub(1)).rev().collect())
            };
            for r in range {
                let mut keyed: Vec<(f64, usize)> = layers[r]
                    .iter()
                    .map(|&v| {
                        (
                            mean(near.of(v).iter().map(|&(w, _)| pos[w])).unwrap_or(pos[v]),
                            v,
                        )
                    })
                    .collect();
                keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
                layers[r] = keyed.into_iter().map(|(_, v)| v).collect();
                number(&layers[r], &mut pos);
            }
        }
    }

    // Horizontal places.
    let mut x = vec![0.0f64; vn];
    for layer in &layers {
        let mut at = 0.0;
        for (k, &v) in layer.iter().enumerate() {
            if k > 0 {
                at += (width[layer[k - 1]] + width[v]) / 2.0 + GAP_X;
            }
            x[v] = at;
        }
    }
    for p in 0..PLACE_PASSES {
        let going_down = p % 2 == 0;
        let (near, range): (&Csr, Vec<usize>) = if going_down {
            (&up, (1..ranks).collect())
        } else {
            (&down, (0..ranks.saturating_sub(1)).rev().collect())
        };
        for r in range {
            let layer = &layers[r];
            let want: Vec<f64> = layer
                .iter()
                .map(|&v| mean(near.of(v).iter().map(|&(w, _)| x[w])).unwrap_or(x[v]))
                .collect();
            let placed = place(layer, &want, &width);
            for (&v, p) in layer.iter().zip(placed) {
                x[v] = p;
            }
        }
    }
    let left = (0..vn)
        .map(|v| x[v] - width[v] / 2.0)
        .fold(f64::INFINITY, f64::min);
    let left = if left.is_finite() { left } else { 0.0 };
    let right = (0..vn)
        .map(|v| x[v] + width[v] / 2.0 - left)
        .fold(0.0, f64::max);

    // Vertical places: each rank as tall as its tallest node.
    let mut y_of_rank = Vec::with_capacity(ranks);
    let mut rows = Vec::with_capacity(ranks);
    let mut y = 0.0;
    for layer in &layers {
        let h = layer
            .iter()
            .filter(|&&v| v < n)
            .map(|&v| sizes[v].1)
            .fold(0.0, f64::max);
        y_of_rank.push(y + h / 2.0);
        rows.push((y, y + h));
        y += h + GAP_Y;
    }
    let centre: Vec<(f64, f64)> = (0..n).map(|v| (x[v] - left, y_of_rank[rank[v]])).collect();
    let bends = chains
        .iter()
        .enumerate()
        .map(|(i, chain)| {
            let pts = chain.iter().map(|&d| (x[d] - left, y_of_rank[vrank[d]]));
            if back[i] {
                pts.rev().collect()
            } else {
                pts.collect()
            }
        })
        .collect();
    Layout {
        centre,
        back,
        bends,
        rank,
        rows,
        size: (right, (y - GAP_Y).max(0.0)),
        reordered: sweeps >= 2,
    }
}

/// The mean of some numbers, if any.
fn mean(values: impl Iterator<Item = f64>) -> Option<f64> {
    let (sum, count) = values.fold((0.0, 0usize), |(s, c), v| (s + v, c + 1));
    (count > 0).then(|| sum / count as f64)
}

/// Each node's place in its rank, as a fraction.
fn number(layer: &[usize], pos: &mut [f64]) {
    let len = layer.len().max(1) as f64;
    for (k, &v) in layer.iter().enumerate() {
        pos[v] = (k as f64 + 0.5) / len;
    }
}

/// Places a rank's nodes, in order and spaced, as near their wanted places as can be
/// (least squares): with `S_i` the spacing from the first node, `x_i - S_i` must not
/// decrease, so pooling adjacent violators over `want_i - S_i` solves it.
fn place(layer: &[usize], want: &[f64], width: &[f64]) -> Vec<f64> {
    let mut offset = Vec::with_capacity(layer.len());
    let mut s = 0.0;
    for (k, &v) in layer.iter().enumerate() {
        if k > 0 {
            s += (width[layer[k - 1]] + width[v]) / 2.0 + GAP_X;
        }
        offset.push(s);
    }
    // Blocks of (sum, count), each placed at its mean.
    let mut blocks: Vec<(f64, usize)> = Vec::new();
    for (w, o) in want.iter().zip(&offset) {
        blocks.push((w - o, 1));
        while blocks.len() > 1 {
            let (s2, c2) = blocks[blocks.len() - 1];
            let (s1, c1) = blocks[blocks.len() - 2];
            if s1 / c1 as f64 <= s2 / c2 as f64 {
                break;
            }
            blocks.pop();
            if let Some(last) = blocks.last_mut() {
                *last = (s1 + s2, c1 + c2);
            }
        }
    }
    let mut out = Vec::with_capacity(layer.len());
    for (sum, count) in blocks {
        let m = sum / count as f64;
        for _ in 0..count {
            out.push(m + offset[out.len()]);
        }
    }
    out
}

/// Longest path to each node over the edges that are not `back`, in a topological
/// order (Kahn's), started in walk order.
fn ranks(
    n: usize,
    edges: &[(usize, usize)],
    back: &[bool],
    order: &[usize],
    out: &Csr,
) -> Vec<usize> {
    let mut indegree = vec![0usize; n];
    for (i, &(a, b)) in edges.iter().enumerate() {
        if a < n && b < n && !back[i] {
            indegree[b] += 1;
        }
    }
    let mut rank = vec![0usize; n];
    let mut ready: Vec<usize> = order
        .iter()
        .rev()
        .copied()
        .filter(|&v| indegree[v] == 0)
        .collect();
    while let Some(v) = ready.pop() {
        for &(w, i) in out.of(v) {
            if !back[i] {
                rank[w] = rank[w].max(rank[v] + 1);
                indegree[w] -= 1;
                if indegree[w] == 0 {
                    ready.push(w);
                }
            }
        }
    }
    rank
}

/// Adjacency lists in one array: node `v`'s `(neighbour, edge index)` pairs.
struct Csr {
    start: Vec<usize>,
    items: Vec<(usize, usize)>,
}

impl Csr {
    fn new(n: usize, edges: impl Iterator<Item = (usize, usize, usize)> + Clone) -> Csr {
        let mut start = vec![0usize; n + 1];
        for (a, _, _) in edges.clone() {
            start[a + 1] += 1;
        }
        for v in 0..n {
            start[v + 1] += start[v];
        }
        let mut fill = start.clone();
        let mut items = vec![(0, 0); start[n]];
        for (a, b, i) in edges {
            items[fill[a]] = (b, i);
            fill[a] += 1;
        }
        Csr { start, items }
    }

    fn of(&self, v: usize) -> &[(usize, usize)] {
        &self.items[self.start[v]..self.start[v + 1]]
    }
}

/// The edges that close a cycle in a depth-first walk from node 0 (then from each node
/// not reached), and the nodes in the walk's preorder. An explicit stack: a chain of a
/// million blocks is as safe as a short one.
fn back_edges(n: usize, edge_count: usize, out: &Csr) -> (Vec<bool>, Vec<usize>) {
    const NEW: u8 = 0;
    const OPEN: u8 = 1;
    const DONE: u8 = 2;
    let mut state = vec![NEW; n];
    let mut back = vec![false; edge_count];
    let mut order = Vec::with_capacity(n);
    // (node, next neighbour to look at)
    let mut stack: Vec<(usize, usize)> = Vec::new();
    for root in 0..n {
        if state[root] != NEW {
            continue;
        }
        state[root] = OPEN;
        order.push(root);
        stack.push((root, 0));
        while let Some(top) = stack.last_mut() {
            let (v, k) = *top;
            match out.of(v).get(k) {
                Some(&(w, i)) => {
                    top.1 += 1;
                    match state[w] {
                        NEW => {
                            state[w] = OPEN;
                            order.push(w);
                            stack.push((w, 0));
                        }
                        OPEN => back[i] = true,
                        _ => {}
                    }
                }
                None => {
                    state[v] = DONE;
                    stack.pop();
                }
            }
        }
    }
    (back, order)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diamond_and_loop() {
        // 0 -> 1, 0 -> 2, 1 -> 3, 2 -> 3, 3 -> 0 (back)
        let sizes = vec![(40.0, 20.0); 4];
        let l = layout(&sizes, &[(0, 1), (0, 2), (1, 3), (2, 3), (3, 0)]);
        assert_eq!(l.back, [false, false, false, false, true]);
        let ys: Vec<f64> = l.centre.iter().map(|c| c.1).collect();
        assert!(ys[0] < ys[1] && ys[1] == ys[2] && ys[2] < ys[3]);
        // The back edge runs up through the middle rank, beside 1 and 2.
        assert_eq!(l.bends[4].len(), 1);
        assert_eq!(l.bends[4][0].1, ys[1]);
        let xs: Vec<f64> = l.centre.iter().map(|c| c.0).collect();
        assert!((xs[0] - xs[3]).abs() < 1.0, "diamond ends aligned: {xs:?}");
        assert!(l.reordered);
    }

    #[test]
    fn a_skip_edge_goes_around_the_node_it_skips() {
        // 0 -> 1 -> 2, and 0 -> 2
        let l = layout(&[(40.0, 20.0); 3], &[(0, 1), (1, 2), (0, 2)]);
        let bend = l.bends[2][0];
        assert!((bend.0 - l.centre[1].0).abs() >= 20.0, "{l:?}");
    }

    #[test]
    fn out_of_range_edges_are_ignored() {
        let l = layout(&[(10.0, 10.0)], &[(0, 5), (7, 0), (0, 0)]);
        assert_eq!(l.back, [false, false, true]);
        assert_eq!(l.centre.len(), 1);
    }

    #[test]
    fn a_long_chain_needs_no_recursion_and_skips_the_sweeps() {
        let n = 1_000_000;
        let sizes = vec![(10.0, 10.0); n];
        let edges: Vec<(usize, usize)> = (1..n).map(|i| (i - 1, i)).collect();
        let l = layout(&sizes, &edges);
        assert!(!l.reordered);
        assert_eq!(l.centre[n - 1].1, (n - 1) as f64 * (10.0 + GAP_Y) + 5.0);
    }

    #[test]
    fn edges_over_the_dummy_budget_are_drawn_without_bends() {
        // Every node of a chain also jumps to the end: about n²/2 dummies.
        let n = 2000;
        let mut edges: Vec<(usize, usize)> = (1..n).map(|i| (i - 1, i)).collect();
        edges.extend((0..n - 2).map(|i| (i, n - 1)));
        let l = layout(&vec![(10.0, 10.0); n], &edges);
        assert!(l.bends.iter().all(Vec::is_empty));
    }
}
