//! Bisimulation over a graph whose nodes have labels and ordered children: the coarsest
//! partition in which nodes of one block have the same label and, position by position,
//! children in the same blocks. Two nodes share a block exactly when the (possibly
//! infinite) trees they unfold to are equal, which is what spirv-opt's recursive type
//! comparison decides, cycles through forward pointers included.
//!
//! Hopcroft's partition refinement, with every position's transitions handled together:
//! each node enters a splitter O(log n) times, so the work is O(m log n) for m edges
//! (plus sorting), with no recursion.

/// A graph in compressed rows: node `v`'s children are
/// `children[starts[v]..starts[v + 1]]`, in order.
pub(super) struct Graph {
    /// Row starts, one per node and one past the end.
    pub starts: Vec<u32>,
    /// Children, by node index.
    pub children: Vec<u32>,
}

impl Graph {
    fn row(&self, v: usize) -> &[u32] {
        &self.children[self.starts[v] as usize..self.starts[v + 1] as usize]
    }
}

/// One block: its nodes are `elems[start..end]`, the marked ones first.
#[derive(Clone, Copy)]
struct Block {
    start: u32,
    end: u32,
    marked: u32,
}

/// The block of every node (block numbers are arbitrary; equal numbers mean
/// equivalent nodes). `labels[v]` is node `v`'s label; nodes with equal labels must have
/// the same number of children.
pub(super) fn bisimulation(labels: &[u32], graph: &Graph) -> Vec<u32> {
    let n = labels.len();
    let mut elems: Vec<u32> = (0..n as u32).collect();
    elems.sort_unstable_by_key(|&v| labels[v as usize]);
    let mut loc = vec![0u32; n];
    let mut block_of = vec![0u32; n];
    let mut blocks: Vec<Block> = Vec::new();
    for (i, &v) in elems.iter().enumerate() {
        loc[v as usize] = i as u32;
        let new = i == 0 || labels[elems[i - 1] as usize] != labels[v as usize];
        if new {
            blocks.push(Block {
                start: i as u32,
                end: i as u32,
                marked: 0,
            });
        }
        let b = blocks.len() - 1;
        blocks[b].end += 1;
        block_of[v as usize] = b as u32;
    }
    // Incoming edges by target: (source, position).
    let mut in_starts = vec![0u32; n + 1];
    for &c in &graph.children {
        in_starts[c as usize + 1] += 1;
    }
    for i in 0..n {
        in_starts[i + 1] += in_starts[i];
    }
    let mut fill = in_starts.clone();
    let mut incoming = vec![(0u32, 0u32); graph.children.len()];
    for v in 0..n {
        for (pos, &c) in graph.row(v).iter().enumerate() {
            let at = &mut fill[c as usize];
            incoming[*at as usize] = (v as u32, pos as u32);
            *at += 1;
        }
    }
    let mut worklist: Vec<u32> = (0..blocks.len() as u32).collect();
    let mut splitter: Vec<u32> = Vec::new();
    let mut edges: Vec<(u32, u32)> = Vec::new();
    let mut touched: Vec<u32> = Vec::new();
    while let Some(b) = worklist.pop() {
        let Block { start, end, .. } = blocks[b as usize];
        splitter.clear();
        splitter.extend_from_slice(&elems[start as usize..end as usize]);
        edges.clear();
        for &v in &splitter {
            let (a, z) = (in_starts[v as usize], in_starts[v as usize + 1]);
            edges.extend(
                incoming[a as usize..z as usize]
                    .iter()
                    .map(|&(src, pos)| (pos, src)),
            );
        }
        edges.sort_unstable();
        let mut i = 0;
        while i < edges.len() {
            let pos = edges[i].0;
            // Mark the sources whose child at `pos` is in the splitter.
            while i < edges.len() && edges[i].0 == pos {
                let src = edges[i].1 as usize;
                i += 1;
                let bl = block_of[src] as usize;
                let blk = blocks[bl];
                if blk.marked == 0 {
                    touched.push(bl as u32);
                }
                let to = blk.start + blk.marked;
                let from = loc[src];
                let other = elems[to as usize];
                elems.swap(to as usize, from as usize);
                loc[other as usize] = from;
                loc[src] = to;
                blocks[bl].marked += 1;
            }
            // Split each touched block into its marked and unmarked nodes; the smaller
            // part becomes a new block and a splitter.
            for &bl in &touched {
                let blk = blocks[bl as usize];
                let size = blk.end - blk.start;
                blocks[bl as usize].marked = 0;
                if blk.marked == size {
                    continue;
                }
                let cut = blk.start + blk.marked;
                let (new, old) = if blk.marked <= size - blk.marked {
                    ((blk.start, cut), (cut, blk.end))
                } else {
                    ((cut, blk.end), (blk.start, cut))
                };
                let nb = blocks.len() as u32;
                blocks.push(Block {
                    start: new.0,
                    end: new.1,
                    marked: 0,
                });
                blocks[bl as usize].start = old.0;
                blocks[bl as usize].end = old.1;
                for &v in &elems[new.0 as usize..new.1 as usize] {
                    block_of[v as usize] = nb;
                }
                worklist.push(nb);
            }
            touched.clear();
        }
    }
    block_of
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(rows: &[&[u32]]) -> Graph {
        let mut starts = vec![0];
        let mut children = Vec::new();
        for r in rows {
            children.extend_from_slice(r);
            starts.push(children.len() as u32);
        }
        Graph { starts, children }
    }

    #[test]
    fn cycles_of_equal_shape_are_equal() {
        // 0 -> 1 -> 0 and 2 -> 3 -> 2 with labels a b a b; 4 -> 1 (a).
        let g = graph(&[&[1], &[0], &[3], &[2], &[1]]);
        let b = bisimulation(&[0, 1, 0, 1, 0], &g);
        assert_eq!(b[0], b[2]);
        assert_eq!(b[1], b[3]);
        assert_eq!(b[0], b[4]);
        assert_ne!(b[0], b[1]);
    }

    #[test]
    fn a_difference_deep_down_splits() {
        // Two chains 0->1->2 and 3->4->5 with the leaves labelled differently.
        let g = graph(&[&[1], &[2], &[], &[4], &[5], &[]]);
        let b = bisimulation(&[0, 0, 1, 0, 0, 2], &g);
        assert_ne!(b[0], b[3]);
        assert_ne!(b[1], b[4]);
        // Positions matter: (x, y) differs from (y, x).
        let g = graph(&[&[2, 3], &[3, 2], &[], &[]]);
        let b = bisimulation(&[0, 0, 1, 2], &g);
        assert_ne!(b[0], b[1]);
    }
}
