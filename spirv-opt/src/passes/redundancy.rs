//! `--redundancy-elimination` (spirv-opt's `RedundancyEliminationPass`,
//! `source/opt/redundancy_elimination.cpp`): as `--local-redundancy-elimination`, but
//! an instruction also goes when a block dominating its own already holds its value
//! number. Blocks unreachable from the entry are left alone.
//!
//! spirv-opt walks the dominator tree breadth first, giving each child a copy of its
//! parent's map (memory that grows with depth times values). Here the walk is depth
//! first over a precomputed pre-order, with one map and an undo log: what a block
//! decides depends only on its dominators' maps, so the result is the same.

use super::local_redundancy::{eliminate_in_block, preserved};
use crate::analysis::Analyses;
use crate::analysis::IdHashMap;
use crate::analysis::cfg::PSEUDO_ENTRY;
use crate::analysis::value_numbers::ValueNumbers;
use crate::context::Context;
use crate::pass::{IrPass, PassError, Status};

/// The pass's flag.
pub const FLAG: &str = "redundancy-elimination";

/// `--redundancy-elimination`.
#[derive(Debug, Clone, Copy, Default)]
pub struct RedundancyElimination;

impl IrPass for RedundancyElimination {
    fn flag(&self) -> &'static str {
        FLAG
    }

    fn preserved(&self) -> Analyses {
        preserved()
    }

    fn process(&self, cx: &mut Context) -> Result<Status, PassError> {
        let vn = cx.with_decoration_classes(ValueNumbers::build);
        let mut modified = false;
        let funcs = cx.ir.functions().to_vec();
        let mut seen: IdHashMap<u32, u32> = IdHashMap::default();
        let mut log: Vec<u32> = Vec::new();
        for f in funcs {
            if cx.ir.is_declaration(f) {
                continue;
            }
            // (block id, depth) in pre-order.
            let order = {
                let tree = cx.dominators(f);
                let mut order: Vec<(u32, usize)> = Vec::new();
                let mut stack: Vec<(u32, usize)> =
                    tree.root().map(|r| (r, 0)).into_iter().collect();
                while let Some((id, depth)) = stack.pop() {
                    order.push((id, depth));
                    for &c in tree.children(id).iter().rev() {
                        stack.push((c, depth + 1));
                    }
                }
                order
            };
            seen.clear();
            log.clear();
            // Per open ancestor: its depth and the log length before it.
            let mut frames: Vec<(usize, usize)> = Vec::new();
            for (id, depth) in order {
                while frames.last().is_some_and(|&(d, _)| d >= depth) {
                    let (_, len) = frames.pop().expect("checked");
                    for v in log.drain(len..) {
                        seen.remove(&v);
                    }
                }
                frames.push((depth, log.len()));
                if id == PSEUDO_ENTRY {
                    continue;
                }
                let Some(b) = cx.block_of_id(id) else {
                    continue;
                };
                modified |= eliminate_in_block(cx, &vn, b, &mut seen, Some(&mut log));
            }
        }
        Ok(Status::from_changed(modified))
    }
}
