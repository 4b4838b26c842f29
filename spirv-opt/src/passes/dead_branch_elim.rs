//! `--eliminate-dead-branches` (spirv-opt's `DeadBranchElimPass`,
//! `source/opt/dead_branch_elim_pass.cpp`): a conditional branch on a constant, or a
//! switch on a constant 32-bit integer, becomes a branch to the one target it takes
//! (keeping a selection merge where a break out of the construct needs it); blocks no
//! longer reachable go, but a live header's unreachable merge block stays as
//! `OpUnreachable` and its unreachable continue target as a branch back to the header;
//! phis lose the incoming values of edges that went; the blocks are then put in
//! structured order (dominator order for kernels). Modules with `OpGroupDecorate` are
//! left alone, as spirv-opt leaves them.

use crate::analysis::Analyses;
use crate::context::Context;
use crate::ir::{Block, Func, Inst, InstData, Operand};
use crate::pass::{IrPass, PassError, Status};
use spirv_core::spv::Opcode as O;
use std::collections::{HashMap, HashSet};

/// The pass's flag.
pub const FLAG: &str = "eliminate-dead-branches";

/// `--eliminate-dead-branches`.
#[derive(Debug, Clone, Copy, Default)]
pub struct DeadBranchElim;

impl IrPass for DeadBranchElim {
    fn flag(&self) -> &'static str {
        FLAG
    }

    fn preserved(&self) -> Analyses {
        Analyses::DEF_USE | Analyses::INSTR_TO_BLOCK | Analyses::CONSTANTS | Analyses::TYPES
    }

    fn process(&self, cx: &mut Context) -> Result<Status, PassError> {
        if cx
            .ir
            .section(crate::ir::Section::Annotation)
            .any(|a| cx.ir.opcode(a) == O::GroupDecorate)
        {
            return Ok(Status::Unchanged);
        }
        let mut state = State::default();
        let modified =
            cx.process_reachable_call_tree(&mut |cx, f| eliminate_dead_branches(cx, &mut state, f));
        if state.failed {
            return Err(PassError {
                pass: FLAG,
                message: "ids ran out".into(),
            });
        }
        if modified {
            fix_block_order(cx);
        }
        Ok(Status::from_changed(modified))
    }
}

/// The pass's state over one run: `MemPass`'s undef cache.
#[derive(Default)]
struct State {
    type2undef: HashMap<u32, u32>,
    failed: bool,
}

/// `GetConstCondition`: the value of a boolean constant, through `OpLogicalNot`s.
fn const_condition(cx: &mut Context, id: u32) -> Option<bool> {
    let mut id = id;
    let mut negate = false;
    // Each step follows an operand to an earlier definition; a module whose
    // `OpLogicalNot`s form a cycle is cut off after as many steps as instructions.
    for _ in 0..=cx.ir.instruction_count() {
        let def = cx.get_def(id)?;
        match cx.ir.opcode(def) {
            O::ConstantNull | O::ConstantFalse => return Some(negate),
            O::ConstantTrue => return Some(!negate),
            O::LogicalNot => {
                negate = !negate;
                id = cx.ir.data(def).in_word(0);
            }
            _ => return None,
        }
    }
    None
}

/// `GetConstInteger`: the value of a constant 32-bit integer selector.
fn const_integer(cx: &mut Context, id: u32) -> Option<u32> {
    let def = cx.get_def(id)?;
    let ty = cx.ir.type_id(def);
    let ty_inst = cx.get_def(ty)?;
    if cx.ir.opcode(ty_inst) != O::TypeInt || cx.ir.data(ty_inst).in_word(0) != 32 {
        return None;
    }
    match cx.ir.opcode(def) {
        O::Constant => Some(cx.ir.data(def).in_word(0)),
        O::ConstantNull => Some(0),
        _ => None,
    }
}

/// `GetParentBlock`: the block of `id`'s definition.
fn parent_block(cx: &mut Context, id: u32) -> Option<Block> {
    let d = cx.get_def(id)?;
    cx.ir.block_of(d)
}

/// `AddBranch`: an `OpBranch` to `label` at the end of `b`.
fn add_branch(cx: &mut Context, label: u32, b: Block) {
    let i = cx.create(InstData::new(O::Branch, 0, 0, &[Operand::id(label)]));
    cx.analyze_def_use(i);
    cx.ir.push_block_inst(b, i);
}

/// `EliminateDeadBranches` of one function.
fn eliminate_dead_branches(cx: &mut Context, s: &mut State, f: Func) -> bool {
    if cx.ir.is_declaration(f) {
        return false;
    }
    let (live, mut modified) = mark_live_blocks(cx, f);
    let (merges, continues) = mark_unreachable_structured_targets(cx, &live);
    modified |= fix_phis(cx, s, f, &live, &continues);
    modified |= erase_dead_blocks(cx, f, &live, &merges, &continues);
    modified
}

/// `MarkLiveBlocks`: the blocks reachable along the branches that constant conditions
/// take, and those branches simplified.
fn mark_live_blocks(cx: &mut Context, f: Func) -> (HashSet<Block>, bool) {
    let mut live: HashSet<Block> = HashSet::new();
    let mut to_simplify: Vec<(Block, u32)> = Vec::new();
    let mut with_backedge: HashSet<Block> = HashSet::new();
    let mut stack: Vec<Option<Block>> = vec![cx.ir.entry(f)];
    while let Some(entry) = stack.pop() {
        let Some(block) = entry else { continue };
        if !live.insert(block) {
            continue;
        }
        if let Some(cont) = cx.ir.continue_block_id(block) {
            let header = cx.ir.block_id(block);
            let merge = cx.ir.merge_block_id(block).unwrap_or(0);
            add_blocks_with_back_edge(cx, cont, header, merge, &mut with_backedge);
        }
        let Some(term) = cx.ir.terminator(block) else {
            continue;
        };
        let mut live_label = 0;
        match cx.ir.opcode(term) {
            O::BranchConditional => {
                let cond = cx.ir.data(term).in_word(0);
                if let Some(v) = const_condition(cx, cond) {
                    live_label = cx.ir.data(term).in_word(if v { 1 } else { 2 });
                }
            }
            O::Switch => {
                let sel = cx.ir.data(term).in_word(0);
                if let Some(sel_val) = const_integer(cx, sel) {
                    let d = cx.ir.data(term);
                    live_label = d.in_word(1);
                    let mut k = 2;
                    while k + 1 < d.num_in_operands() {
                        if d.in_word(k) == sel_val {
                            live_label = d.in_word(k + 1);
                            break;
                        }
                        k += 2;
                    }
                }
            }
            _ => {}
        }
        let mut simplify = false;
        if live_label != 0 {
            if !with_backedge.contains(&block) {
                simplify = true;
            } else {
                let id = cx.ir.block_id(block);
                let header = cx.struct_cfg().containing_loop(id);
                if live_label == header {
                    simplify = true;
                }
            }
        }
        if simplify {
            to_simplify.push((block, live_label));
            let p = parent_block(cx, live_label);
            stack.push(p);
        } else {
            for label in cx.ir.successors(block) {
                let p = parent_block(cx, label);
                stack.push(p);
            }
        }
    }
    let mut modified = false;
    for &(b, label) in to_simplify.iter().rev() {
        modified |= simplify_branch(cx, b, label);
    }
    (live, modified)
}

/// `AddBlocksWithBackEdge`: the blocks of a loop's continue construct that branch back
/// to its header.
fn add_blocks_with_back_edge(
    cx: &mut Context,
    cont: u32,
    header: u32,
    merge: u32,
    out: &mut HashSet<Block>,
) {
    let mut visited: HashSet<u32> = [cont, header, merge].into_iter().collect();
    let mut work = vec![cont];
    while let Some(id) = work.pop() {
        let Some(bb) = parent_block(cx, id) else {
            continue;
        };
        let mut back = false;
        for succ in cx.ir.successors(bb) {
            if visited.insert(succ) {
                work.push(succ);
            }
            if succ == header {
                back = true;
            }
        }
        if back {
            out.insert(bb);
        }
    }
}

/// `SimplifyBranch`: `block` branches to `live_label` only.
fn simplify_branch(cx: &mut Context, block: Block, live_label: u32) -> bool {
    let merge = cx.ir.merge_inst(block);
    let Some(term) = cx.ir.terminator(block) else {
        return false;
    };
    match merge {
        Some(m) if cx.ir.opcode(m) == O::SelectionMerge => {
            let next_is_switch = cx.ir.next(m).is_some_and(|n| cx.ir.opcode(n) == O::Switch);
            if next_is_switch && switch_has_nested_break(cx, cx.ir.block_id(block)) {
                if cx.ir.data(term).num_in_operands() == 2 {
                    return false;
                }
                let sel = cx
                    .ir
                    .data(term)
                    .operand(cx.ir.data(term).type_result_count());
                cx.ir
                    .data_mut(term)
                    .set_in_operands(&[sel, Operand::id(live_label)]);
                cx.update_def_use(term);
            } else {
                let merge_block = cx.ir.data(m).in_word(0);
                let (loop_merge, loop_continue, switch_merge) = {
                    cx.struct_cfg();
                    let (sc, cfg, ir) = cx.struct_cfg_cfg_ir();
                    (
                        sc.loop_merge_block(ir, cfg, live_label),
                        sc.loop_continue_block(ir, cfg, live_label),
                        sc.switch_merge_block(ir, cfg, live_label),
                    )
                };
                let first_break = find_first_exit_from_selection_merge(
                    cx,
                    live_label,
                    merge_block,
                    loop_merge,
                    loop_continue,
                    switch_merge,
                );
                add_branch(cx, live_label, block);
                cx.kill_inst(term);
                match first_break {
                    None => {
                        cx.kill_inst(m);
                    }
                    Some(fb) => {
                        cx.ir.unlink(m);
                        cx.ir.insert_before(fb, m);
                    }
                }
            }
        }
        _ => {
            add_branch(cx, live_label, block);
            cx.kill_inst(term);
        }
    }
    true
}

/// `FindFirstExitFromSelectionMerge`: the first branch out of a selection construct
/// along the path the live branch takes, if there is one.
fn find_first_exit_from_selection_merge(
    cx: &mut Context,
    start: u32,
    merge: u32,
    loop_merge: u32,
    loop_continue: u32,
    switch_merge: u32,
) -> Option<Inst> {
    let mut start = start;
    let mut steps = 0usize;
    while start != merge && start != loop_merge && start != loop_continue {
        steps += 1;
        if steps > cx.ir.instruction_count() {
            return None;
        }
        let block = parent_block(cx, start)?;
        let branch = cx.ir.terminator(block)?;
        let mut next;
        let d = cx.ir.data(branch).clone();
        match d.opcode() {
            O::BranchConditional => {
                next = cx.ir.merge_block_id(block).unwrap_or(0);
                if next == 0 {
                    for i in 1..3 {
                        let t = d.in_word(i);
                        if (t == loop_merge && loop_merge != merge)
                            || (t == loop_continue && loop_continue != merge)
                            || (t == switch_merge && switch_merge != merge)
                        {
                            next = d.in_word(3 - i);
                            break;
                        }
                    }
                    if next == 0 {
                        return Some(branch);
                    }
                }
            }
            O::Switch => {
                next = cx.ir.merge_block_id(block).unwrap_or(0);
                if next == 0 {
                    let mut found_break = false;
                    let mut i = 1;
                    while i < d.num_in_operands() {
                        let t = d.in_word(i);
                        if t == merge {
                            found_break = true;
                        } else if t != loop_merge && t != loop_continue {
                            next = t;
                        }
                        i += 2;
                    }
                    if next == 0 {
                        return None;
                    }
                    if found_break {
                        return Some(branch);
                    }
                }
            }
            O::Branch => {
                next = cx.ir.merge_block_id(block).unwrap_or(0);
                if next == 0 {
                    next = d.in_word(0);
                }
            }
            _ => return None,
        }
        start = next;
    }
    None
}

/// `SwitchHasNestedBreak`: whether a branch inside the switch, not in a nested
/// construct of its own, targets the switch's merge block.
fn switch_has_nested_break(cx: &mut Context, header: u32) -> bool {
    let Some(start) = parent_block(cx, header) else {
        return false;
    };
    let merge = cx.ir.merge_block_id(start).unwrap_or(0);
    for user in cx.users(merge) {
        if !matches!(
            cx.ir.opcode(user),
            O::Branch | O::BranchConditional | O::Switch
        ) {
            continue;
        }
        let Some(bb) = cx.ir.block_of(user) else {
            continue;
        };
        if cx.ir.block_id(bb) == header {
            continue;
        }
        let bb_id = cx.ir.block_id(bb);
        let construct = cx.struct_cfg().containing_construct(bb_id);
        if !(construct == header && cx.ir.merge_inst(bb).is_none()) {
            return true;
        }
    }
    false
}

/// `MarkUnreachableStructuredTargets`: live headers' merge blocks and continue targets
/// that are not live (each continue target with its header).
fn mark_unreachable_structured_targets(
    cx: &mut Context,
    live: &HashSet<Block>,
) -> (HashSet<Block>, HashMap<Block, Block>) {
    let mut merges = HashSet::new();
    let mut continues = HashMap::new();
    for &block in live {
        if let Some(merge_id) = cx.ir.merge_block_id(block).filter(|&m| m != 0) {
            if let Some(mb) = parent_block(cx, merge_id) {
                if !live.contains(&mb) {
                    merges.insert(mb);
                }
            }
            if let Some(cont_id) = cx.ir.continue_block_id(block).filter(|&c| c != 0) {
                if let Some(cb) = parent_block(cx, cont_id) {
                    if !live.contains(&cb) {
                        continues.insert(cb, block);
                    }
                }
            }
        }
    }
    (merges, continues)
}

/// `Type2Undef`: an `OpUndef` of `ty` among the global values, made once per run.
fn type2undef(cx: &mut Context, s: &mut State, ty: u32) -> u32 {
    if let Some(&u) = s.type2undef.get(&ty) {
        return u;
    }
    let Some(id) = cx.take_next_id() else {
        s.failed = true;
        return 0;
    };
    let i = cx.create(InstData::new(O::Undef, ty, id, &[]));
    cx.def_use();
    cx.analyze_def_use(i);
    cx.ir.push_global(crate::ir::Section::TypesValues, i);
    s.type2undef.insert(ty, id);
    id
}

/// `FixPhiNodesInLiveBlocks`.
fn fix_phis(
    cx: &mut Context,
    s: &mut State,
    f: Func,
    live: &HashSet<Block>,
    continues: &HashMap<Block, Block>,
) -> bool {
    let mut modified = false;
    let blocks: Vec<Block> = cx.ir.blocks(f).collect();
    for block in blocks {
        if !live.contains(&block) {
            continue;
        }
        let mut iter = cx.ir.first_inst(block);
        while let Some(inst) = iter {
            if cx.ir.opcode(inst) != O::Phi {
                break;
            }
            let mut changed = false;
            let mut backedge_added = false;
            let d = cx.ir.data(inst).clone();
            let mut ops: Vec<Operand> = vec![d.operand(0), d.operand(1)];
            let n = d.num_in_operands();
            let mut i = 1;
            while i < n {
                let inc = parent_block(cx, d.in_word(i));
                let cont = inc.and_then(|b| continues.get(&b).copied());
                if cont == Some(block) && n > 4 {
                    let value = d.in_word(i - 1);
                    let undef = cx
                        .get_def(value)
                        .is_some_and(|v| cx.ir.opcode(v) == O::Undef);
                    if undef {
                        ops.push(d.operand(i - 1 + 2));
                        ops.push(d.operand(i + 2));
                        backedge_added = true;
                    } else {
                        let u = type2undef(cx, s, d.type_id());
                        ops.push(Operand::id(u));
                        ops.push(d.operand(i + 2));
                        changed = true;
                        backedge_added = true;
                    }
                } else if inc.is_some_and(|b| {
                    live.contains(&b) && cx.ir.successors(b).contains(&cx.ir.block_id(block))
                }) {
                    ops.push(d.operand(i - 1 + 2));
                    ops.push(d.operand(i + 2));
                } else {
                    changed = true;
                }
                i += 2;
            }
            if changed {
                modified = true;
                let cont_id = cx.ir.continue_block_id(block).unwrap_or(0);
                if !backedge_added
                    && cont_id != 0
                    && parent_block(cx, cont_id).is_some_and(|c| continues.contains_key(&c))
                    && ops.len() > 4
                {
                    let u = type2undef(cx, s, d.type_id());
                    ops.push(Operand::id(u));
                    ops.push(Operand::id(cont_id));
                }
                if ops.len() == 4 {
                    let repl = ops[2].words[0];
                    let result = d.result_id();
                    cx.kill_names_and_decorates_of(result);
                    cx.replace_all_uses_with(result, repl);
                    iter = cx.kill_inst(inst);
                } else {
                    cx.ir.data_mut(inst).replace_operands(&ops);
                    cx.def_use();
                    cx.analyze_uses(inst);
                    iter = cx.ir.next(inst);
                }
            } else {
                iter = cx.ir.next(inst);
            }
        }
    }
    modified
}

/// `KillAllInsts`: the block's instructions, its label first when `kill_label`.
pub(crate) fn kill_all_insts(cx: &mut Context, b: Block, kill_label: bool) {
    if kill_label {
        let label = cx.ir.label(b);
        cx.kill_inst(label);
    }
    let mut cur = cx.ir.first_inst(b);
    while let Some(i) = cur {
        cur = cx.ir.next(i);
        cx.kill_inst(i);
    }
}

/// `EraseDeadBlocks`.
fn erase_dead_blocks(
    cx: &mut Context,
    f: Func,
    live: &HashSet<Block>,
    merges: &HashSet<Block>,
    continues: &HashMap<Block, Block>,
) -> bool {
    let mut modified = false;
    let blocks: Vec<Block> = cx.ir.blocks(f).collect();
    for b in blocks {
        if let Some(&header) = continues.get(&b) {
            let cont_id = cx.ir.block_id(header);
            let single = cx.ir.first_inst(b) == cx.ir.terminator(b);
            let term = cx.ir.terminator(b);
            let ok = single
                && term.is_some_and(|t| {
                    cx.ir.opcode(t) == O::Branch && cx.ir.data(t).in_word(0) == cont_id
                });
            if !ok {
                kill_all_insts(cx, b, false);
                let br = cx.create(InstData::new(O::Branch, 0, 0, &[Operand::id(cont_id)]));
                cx.ir.push_block_inst(b, br);
                cx.def_use();
                cx.analyze_uses(br);
                modified = true;
            }
        } else if merges.contains(&b) {
            let single = cx.ir.first_inst(b) == cx.ir.terminator(b);
            let ok = single
                && cx
                    .ir
                    .terminator(b)
                    .is_some_and(|t| cx.ir.opcode(t) == O::Unreachable);
            if !ok {
                kill_all_insts(cx, b, false);
                let u = cx.create(InstData::new(O::Unreachable, 0, 0, &[]));
                cx.ir.push_block_inst(b, u);
                cx.analyze_uses(u);
                modified = true;
            }
        } else if !live.contains(&b) {
            kill_all_insts(cx, b, true);
            cx.ir.unlink_block(b);
            modified = true;
        }
    }
    modified
}

/// `FixBlockOrder`: each reachable function's blocks in structured order (for shaders)
/// or in dominator-tree order.
fn fix_block_order(cx: &mut Context) {
    cx.cfg();
    let shader = cx.is_shader();
    if shader {
        cx.process_reachable_call_tree(&mut |cx, f| {
            reorder_structured(cx, f);
            true
        });
    } else {
        cx.process_reachable_call_tree(&mut |cx, f| {
            let order: Vec<u32> = cx.dominators(f).pre_order();
            // spirv-opt looks each label up among the function's own blocks; a label id
            // defined twice (ids taken past a bound below ids in use) can name a block
            // of another function, or one removed, which cannot be placed here.
            let blocks: Vec<Block> = order
                .into_iter()
                .filter(|&id| id != 0)
                .filter_map(|id| {
                    let b = cx.cfg().block(id)?;
                    (cx.ir.block_func(b) == Some(f)).then_some(b)
                })
                .collect();
            for i in 1..blocks.len() {
                cx.ir.unlink_block(blocks[i]);
                cx.ir.insert_block_after(blocks[i - 1], blocks[i]);
            }
            true
        });
    }
}

/// `Function::ReorderBasicBlocksInStructuredOrder`.
pub(crate) fn reorder_structured(cx: &mut Context, f: Func) {
    let Some(entry) = cx.ir.entry(f) else { return };
    let order = {
        let (cfg, ir) = cx.cfg_ir();
        cfg.structured_order(ir, f, entry, None)
    };
    cx.ir.set_block_order(f, &order);
}
