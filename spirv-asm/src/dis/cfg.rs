//! The control flow of one function, as the disassembler's `--nested-indent` and
//! `--reorder-blocks` see it: its blocks, their merge and continue targets and branch
//! targets, the nesting level of each block and the structured order.
//!
//! Everything is linear in the function's size: one scan, flat arrays (all branch
//! targets in one vector, a block's end implied by the next block's start), and
//! explicit stacks instead of recursion, so a chain of a million blocks is as safe as a
//! short one.

use crate::fxhash::FxHashMap;
use spirv_core::spv::Opcode;
use spirv_core::walk::{self, Ids, WalkOptions};

/// A basic block, in 32 bytes.
struct Block {
    /// Word offset of its `OpLabel`.
    start: usize,
    label: u32,
    /// Valid with [`HAS_MERGE`] / [`HAS_CONTINUE`].
    merge: u32,
    cont: u32,
    /// Its branch targets are `targets[first_target..]` up to the next block's.
    first_target: u32,
    flags: u8,
}

const HAS_MERGE: u8 = 1;
const HAS_CONTINUE: u8 = 2;
/// Ends in a conditional branch or a switch.
const CONDITIONAL: u8 = 4;

impl Block {
    fn merge(&self) -> Option<u32> {
        (self.flags & HAS_MERGE != 0).then_some(self.merge)
    }
    fn cont(&self) -> Option<u32> {
        (self.flags & HAS_CONTINUE != 0).then_some(self.cont)
    }
}

/// A function's blocks.
pub(crate) struct Cfg {
    blocks: Vec<Block>,
    targets: Vec<u32>,
    /// Block index by label (for a label used twice, the last block).
    index: FxHashMap<u32, u32>,
    /// Word offset where the last block ends.
    last_end: usize,
    /// `Ok` with the offset of the `OpFunctionEnd`, or `Err` with the offset where the
    /// module ended or stopped parsing.
    pub end: Result<usize, usize>,
}

impl Cfg {
    /// Scans the function whose `OpFunction` is at word `start`. As in spirv-dis, the
    /// function runs to the first `OpFunctionEnd`; an `OpFunction` before it is an
    /// ordinary instruction of the current block.
    pub fn scan(words: &[u32], start: usize, ids: &Ids) -> Cfg {
        let mut cfg = Cfg {
            blocks: Vec::new(),
            targets: Vec::new(),
            index: FxHashMap::default(),
            last_end: start,
            end: Err(words.len()),
        };
        let mut pos = start;
        while pos < words.len() {
            let count = (words[pos] >> 16) as usize;
            if count == 0 || pos + count > words.len() {
                cfg.end = Err(pos);
                break;
            }
            let op = Opcode(words[pos] as u16);
            let ops = &words[pos + 1..pos + count];
            let first = ops.first().copied().unwrap_or(0);
            if op == Opcode::FunctionEnd {
                cfg.end = Ok(pos);
                break;
            }
            if op == Opcode::Label {
                cfg.index.insert(first, cfg.blocks.len() as u32);
                cfg.blocks.push(Block {
                    start: pos,
                    label: first,
                    merge: 0,
                    cont: 0,
                    first_target: cfg.targets.len() as u32,
                    flags: 0,
                });
            }
            pos += count;
            if cfg.blocks.is_empty() {
                continue;
            }
            cfg.last_end = pos;
            let targets = &mut cfg.targets;
            let Some(b) = cfg.blocks.last_mut() else {
                continue;
            };
            match op {
                Opcode::SelectionMerge => {
                    b.merge = first;
                    b.flags |= HAS_MERGE;
                }
                Opcode::LoopMerge => {
                    b.merge = first;
                    b.flags |= HAS_MERGE;
                    if let Some(&c) = ops.get(1) {
                        b.cont = c;
                        b.flags |= HAS_CONTINUE;
                    }
                }
                Opcode::Branch => targets.push(first),
                Opcode::BranchConditional => {
                    targets.extend_from_slice(ops.get(1..3).unwrap_or(&[]));
                    b.flags |= CONDITIONAL;
                }
                Opcode::Switch => {
                    if let Some(info) = op.info() {
                        let _ = walk::walk(info, ops, ids, WalkOptions::default(), &mut |p| {
                            if p.kind.is_id() && p.start > 0 {
                                targets.push(ops[p.start]);
                            }
                        });
                    }
                    b.flags |= CONDITIONAL;
                }
                _ => {}
            }
        }
        cfg
    }

    /// Word offset of the first block's `OpLabel`.
    pub fn first_block_start(&self) -> Option<usize> {
        self.blocks.first().map(|b| b.start)
    }

    /// The word range of block `i`, `OpLabel` to terminator.
    pub fn range(&self, i: usize) -> (usize, usize) {
        let end = self.blocks.get(i + 1).map_or(self.last_end, |b| b.start);
        (self.blocks[i].start, end)
    }

    fn targets(&self, i: usize) -> &[u32] {
        let from = self.blocks[i].first_target as usize;
        let to = self
            .blocks
            .get(i + 1)
            .map_or(self.targets.len(), |b| b.first_target as usize);
        &self.targets[from..to]
    }

    /// `--nested-indent` levels, by label, as spirv-dis assigns them: a depth-first walk
    /// from the entry block (a stack, so the last successor is visited first) gives each
    /// block a level when it is first reached. A header's merge block gets the header's
    /// level, its continue target one more, and its branch targets two more; elsewhere
    /// an unconditional branch keeps the level and conditional ones add two. Unreachable
    /// blocks are at level 0.
    pub fn levels(&self) -> FxHashMap<u32, u32> {
        let mut levels: FxHashMap<u32, u32> = FxHashMap::default();
        let Some(entry) = self.blocks.first() else {
            return levels;
        };
        let mut visited = vec![false; self.blocks.len()];
        levels.insert(entry.label, 0);
        let mut stack = vec![0u32];
        while let Some(i) = stack.pop() {
            let i = i as usize;
            if std::mem::replace(&mut visited[i], true) {
                continue;
            }
            let b = &self.blocks[i];
            let level = levels.get(&b.label).copied().unwrap_or(0);
            let mut reach = |id: u32, l: u32| {
                levels.entry(id).or_insert(l);
                if let Some(&j) = self.index.get(&id) {
                    stack.push(j);
                }
            };
            if let Some(m) = b.merge() {
                reach(m, level);
            }
            if let Some(c) = b.cont() {
                reach(c, level.saturating_add(1));
            }
            let step = if b.flags & (HAS_MERGE | CONDITIONAL) != 0 {
                2
            } else {
                0
            };
            for &t in self.targets(i) {
                reach(t, level.saturating_add(step));
            }
        }
        levels
    }

    /// The `k`-th successor of block `i` in the order the structured walk visits them
    /// (merge block, continue target, branch targets from last to first), whether or
    /// not it is a block of this function.
    fn successor(&self, i: usize, k: usize) -> Option<u32> {
        let b = &self.blocks[i];
        let mut k = k;
        for s in [b.merge(), b.cont()].into_iter().flatten() {
            if k == 0 {
                return Some(s);
            }
            k -= 1;
        }
        let t = self.targets(i);
        (k < t.len()).then(|| t[t.len() - 1 - k])
    }

    /// `--reorder-blocks`: the blocks (indices for [`Self::range`]) in structured
    /// order. It is the reverse post-order of a depth-first walk over
    /// [`Self::successor`], so constructs come before their merge blocks; unreachable
    /// blocks follow in binary order.
    pub fn structured_order(&self) -> Vec<usize> {
        let n = self.blocks.len();
        let mut seen = vec![false; n];
        let mut post: Vec<u32> = Vec::with_capacity(n);
        if n > 0 {
            // Each frame: a block and the index of its next successor to try.
            let mut stack: Vec<(u32, u32)> = vec![(0, 0)];
            seen[0] = true;
            while let Some(top) = stack.last_mut() {
                let (i, k) = (top.0 as usize, top.1 as usize);
                match self.successor(i, k) {
                    Some(label) => {
                        top.1 += 1;
                        if let Some(&j) = self.index.get(&label) {
                            if !std::mem::replace(&mut seen[j as usize], true) {
                                stack.push((j, 0));
                            }
                        }
                    }
                    None => {
                        post.push(i as u32);
                        stack.pop();
                    }
                }
            }
        }
        let mut order: Vec<usize> = post.iter().rev().map(|&i| i as usize).collect();
        order.extend((0..n).filter(|&i| !seen[i]));
        order
    }
}
