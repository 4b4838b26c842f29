//! `--merge-blocks` (spirv-opt's `BlockMergePass`, `source/opt/block_merge_pass.cpp`,
//! with `source/opt/block_merge_util.cpp`): in each function reachable from an entry
//! point or an export, a reachable block that ends in an `OpBranch` to a block with no
//! other predecessor absorbs that block, unless structured control flow forbids it (two
//! merge blocks, a merge block and a continue target, two headers, a case block of a
//! switch, or a merge block under `SPV_KHR_maximal_reconvergence`).

use crate::analysis::Analyses;
use crate::context::Context;
use crate::ir::{Block, DebugScope, Func, Inst};
use crate::pass::{IrPass, PassError, Status};
use spirv_core::spv::Opcode as O;

/// The pass's flag.
pub const FLAG: &str = "merge-blocks";

/// `--merge-blocks`.
#[derive(Debug, Clone, Copy, Default)]
pub struct MergeBlocks;

impl IrPass for MergeBlocks {
    fn flag(&self) -> &'static str {
        FLAG
    }

    fn preserved(&self) -> Analyses {
        Analyses::DEF_USE
            | Analyses::INSTR_TO_BLOCK
            | Analyses::DECORATIONS
            | Analyses::COMBINATORS
            | Analyses::NAME_MAP
            | Analyses::CONSTANTS
            | Analyses::TYPES
    }

    fn process(&self, cx: &mut Context) -> Result<Status, PassError> {
        let modified = cx.process_reachable_call_tree(&mut merge_blocks);
        Ok(if modified {
            Status::Changed
        } else {
            Status::Unchanged
        })
    }
}

/// `MergeBlocks`: each reachable block merged with its successor for as long as it can
/// be, then the next block.
fn merge_blocks(cx: &mut Context, f: Func) -> bool {
    let mut modified = false;
    let mut cur = cx.ir.entry(f);
    while let Some(b) = cur {
        let reachable = {
            let (dom, ir) = cx.dominators_ir(f);
            dom.is_reachable(ir, b)
        };
        if reachable {
            if let Some(succ) = can_merge_with_successor(cx, b) {
                merge_with_successor(cx, b, succ);
                modified = true;
                continue;
            }
        }
        cur = cx.ir.next_block(b);
    }
    modified
}

/// Whether `id` is the merge block of a merge instruction (`IsMerge`).
fn is_merge(cx: &mut Context, id: u32) -> bool {
    cx.uses(id)
        .into_iter()
        .any(|(u, k)| matches!(cx.ir.opcode(u), O::LoopMerge | O::SelectionMerge) && k == 0)
}

/// Whether `id` is the continue target of a loop (`IsContinue`).
fn is_continue(cx: &mut Context, id: u32) -> bool {
    cx.uses(id)
        .into_iter()
        .any(|(u, k)| cx.ir.opcode(u) == O::LoopMerge && k == 1)
}

/// The block labelled `id`, if it is another block of `b`'s function. spirv-opt looks
/// for it among the blocks after `b`; in a valid module it is there (`b` dominates it),
/// and where it is not spirv-opt runs off the end of the function or merges a block
/// into itself.
fn successor_of(cx: &mut Context, b: Block, id: u32) -> Option<Block> {
    let s = cx.cfg().block(id)?;
    let same_func = cx.ir.block_is_live(s) && cx.ir.block_func(s) == cx.ir.block_func(b);
    (s != b && same_func).then_some(s)
}

/// `CanMergeWithSuccessor`: the successor `b` may absorb, if any.
pub fn can_merge_with_successor(cx: &mut Context, b: Block) -> Option<Block> {
    let br = cx.ir.terminator(b)?;
    if cx.ir.opcode(br) != O::Branch {
        return None;
    }
    let lab_id = cx.ir.data(br).in_word(0);
    if cx.cfg().preds(lab_id).len() != 1 {
        return None;
    }
    let succ = successor_of(cx, b, lab_id)?;
    let b_id = cx.ir.block_id(b);
    let pred_is_merge = is_merge(cx, b_id);
    let succ_is_merge = is_merge(cx, lab_id);
    if pred_is_merge && succ_is_merge {
        return None;
    }
    if succ_is_merge && cx.features().has_extension("SPV_KHR_maximal_reconvergence") {
        return None;
    }
    if pred_is_merge && is_continue(cx, lab_id) {
        return None;
    }
    if let Some(merge) = cx.ir.merge_inst(b) {
        if lab_id != cx.ir.data(merge).in_word(0) {
            // A header whose successor is not its merge block: the successor may not be
            // a header, and must end as an `OpLoopMerge` may be followed.
            if cx.ir.merge_inst(succ).is_some() {
                return None;
            }
            let term = cx.ir.terminator(succ).map(|t| cx.ir.opcode(t));
            if !matches!(term, Some(O::Branch | O::BranchConditional)) {
                return None;
            }
        }
    }
    if succ_is_merge || is_continue(cx, lab_id) {
        let switch = cx.struct_cfg().containing_switch(b_id);
        if switch != 0 {
            let switch_merge = {
                let (s, cfg, ir) = cx.struct_cfg_cfg_ir();
                s.switch_merge_block(ir, cfg, switch)
            };
            let f = cx.ir.block_func(b)?;
            let header = cx.ir.blocks(f).find(|&h| cx.ir.block_id(h) == switch)?;
            let tail = cx.ir.terminator(header)?;
            let d = cx.ir.data(tail);
            // The default and every case target: a case block of the switch must stay
            // dominated by it, which merging it into a merge or continue would break.
            for k in (1..d.num_in_operands()).step_by(2) {
                let target = d.in_word(k);
                if target == b_id && target != switch_merge {
                    return None;
                }
            }
        }
    }
    Some(succ)
}

/// `MergeWithSuccessor`: `succ`'s instructions move to the end of `b` (its phis, each
/// with one incoming value, replaced by that value), `b`'s branch goes, and so does its
/// merge instruction when `succ` was its merge block; otherwise the merge instruction
/// moves before the new terminator and takes its debug lines.
pub fn merge_with_successor(cx: &mut Context, b: Block, succ: Block) {
    let Some(br) = cx.ir.terminator(b) else {
        return;
    };
    let lab_id = cx.ir.data(br).in_word(0);
    let merge = cx.ir.merge_inst(b);
    cx.kill_inst(br);
    if let Some(t) = cx.ir.terminator(succ) {
        if cx.ir.opcode(t) == O::Switch && cx.ir.merge_inst(succ).is_some() {
            cx.invalidate(Analyses::STRUCTURED_CFG);
        }
    }
    // `EliminateOpPhiInstructions`.
    while let Some(phi) = cx.ir.first_inst(succ) {
        if cx.ir.opcode(phi) != O::Phi {
            break;
        }
        let (result, value) = (cx.ir.result_id(phi), cx.ir.data(phi).in_word(0));
        cx.replace_all_uses_with(result, value);
        cx.kill_inst(phi);
    }
    let moved: Vec<Inst> = cx.ir.insts(succ).collect();
    for i in moved {
        cx.ir.unlink(i);
        cx.ir.push_block_inst(b, i);
    }
    if let Some(m) = merge {
        if lab_id == cx.ir.data(m).in_word(0) {
            cx.kill_inst(m);
        } else if let Some(term) = cx.ir.terminator(b) {
            let lines = cx.ir.lines(term).to_vec();
            if !lines.is_empty() {
                cx.clear_dbg_line_insts(m);
                // The terminator's lines move to the merge instruction (the same
                // instructions: spirv-opt copies them, creation numbers included).
                if cx.are_valid(Analyses::DEF_USE) {
                    for &l in &lines {
                        cx.clear_inst(l);
                    }
                }
                cx.ir.set_lines(term, Vec::new());
                cx.ir.set_lines(m, lines.clone());
                for &l in &lines {
                    cx.analyze_def_use(l);
                }
            }
            cx.ir.set_scope(term, DebugScope::default());
            cx.ir.unlink(m);
            cx.ir.insert_before(term, m);
        }
    }
    let b_id = cx.ir.block_id(b);
    cx.replace_all_uses_with(lab_id, b_id);
    let label = cx.ir.label(succ);
    cx.kill_inst(label);
    cx.ir.unlink_block(succ);
}
