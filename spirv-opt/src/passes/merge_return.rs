//! `--merge-return` (spirv-opt's `MergeReturnPass`, `source/opt/merge_return_pass.cpp`):
//! each function gets one return, in a new last block. In a shader the whole body is
//! wrapped in a single-case switch whose merge block returns; each return becomes a
//! store to a "returned" flag (and of the value to a variable) and a break out of the
//! innermost construct, and the merge blocks on the way out are predicated on the flag
//! (split, with a conditional branch around their old body); values that no longer
//! dominate their uses get phis. Elsewhere the returns branch to the new block, which
//! returns a phi of their values.

use crate::analysis::Analyses;
use crate::analysis::types::Ty;
use crate::builder::Builder;
use crate::context::Context;
use crate::ir::{Block, Func, Inst, InstData, Kind, Operand};
use crate::pass::{IrPass, PassError, Status};
use spirv_core::spv::Opcode as O;
use std::collections::{BTreeSet, HashMap, HashSet};

/// The pass's flag.
pub const FLAG: &str = "merge-return";

/// `--merge-return`.
#[derive(Debug, Clone, Copy, Default)]
pub struct MergeReturn;

impl IrPass for MergeReturn {
    fn flag(&self) -> &'static str {
        FLAG
    }

    fn preserved(&self) -> Analyses {
        Analyses::CONSTANTS | Analyses::TYPES
    }

    fn process(&self, cx: &mut Context) -> Result<Status, PassError> {
        let is_shader = cx.is_shader();
        let mut s = State::default();
        let mut failed: Option<String> = None;
        let modified = cx.process_reachable_call_tree(&mut |cx, f| {
            let returns = collect_return_blocks(cx, f);
            if returns.len() <= 1 {
                if !is_shader || returns.is_empty() {
                    return false;
                }
                let id = cx.ir.block_id(returns[0]);
                let in_construct = cx.struct_cfg().containing_construct(id) != 0;
                let ends_with_return = Some(returns[0]) == cx.ir.last_block(f);
                if !in_construct && ends_with_return {
                    return false;
                }
            }
            s.begin_function(f);
            let ok = if is_shader {
                process_structured(cx, &mut s, f, &returns)
            } else {
                merge_return_blocks(cx, &mut s, f, &returns)
            };
            if let Err(e) = ok {
                failed.get_or_insert(e);
            }
            true
        });
        if let Some(message) = failed {
            return Err(PassError {
                pass: FLAG,
                message,
            });
        }
        Ok(Status::from_changed(modified))
    }
}

/// A construct the walk is in (`StructuredControlState`): the merge instruction of
/// the construct a break leaves, and of the innermost one.
#[derive(Debug, Clone, Copy)]
struct ControlState {
    break_merge: Option<Inst>,
    current_merge: Option<Inst>,
}

/// The pass's state (the members of spirv-opt's pass object).
#[derive(Default)]
struct State {
    func: Option<Func>,
    return_flag: Option<Inst>,
    return_value: Option<Inst>,
    constant_true: Option<Inst>,
    final_return_block: Option<Block>,
    state: Vec<ControlState>,
    original_dominator: HashMap<Block, Option<Inst>>,
    new_edges: HashMap<Block, BTreeSet<u32>>,
    return_blocks: HashSet<u32>,
    type2undef: HashMap<u32, u32>,
}

type Res<T> = Result<T, String>;

fn out_of_ids() -> String {
    "ID overflow. Try running compact-ids.".to_owned()
}

impl State {
    fn begin_function(&mut self, f: Func) {
        self.func = Some(f);
        self.return_flag = None;
        self.return_value = None;
        self.final_return_block = None;
    }

    fn current(&self) -> ControlState {
        *self.state.last().expect("the placeholder state")
    }
}

fn merge_id(cx: &Context, m: Option<Inst>) -> u32 {
    m.map_or(0, |m| cx.ir.data(m).in_word(0))
}

/// `CollectReturnBlocks`.
fn collect_return_blocks(cx: &Context, f: Func) -> Vec<Block> {
    cx.ir
        .blocks(f)
        .filter(|&b| {
            cx.ir
                .terminator(b)
                .is_some_and(|t| matches!(cx.ir.opcode(t), O::Return | O::ReturnValue))
        })
        .collect()
}

/// `GenerateState`: the construct `block` opens, if it is a header.
fn generate_state(cx: &Context, s: &mut State, block: Block) {
    let Some(m) = cx.ir.merge_inst(block) else {
        return;
    };
    if cx.ir.opcode(m) == O::LoopMerge {
        s.state.push(ControlState {
            break_merge: Some(m),
            current_merge: Some(m),
        });
    } else {
        let next_is_switch = cx.ir.next(m).is_some_and(|n| cx.ir.opcode(n) == O::Switch);
        let last = s.current().break_merge;
        if next_is_switch {
            if last.is_some_and(|l| cx.ir.opcode(l) == O::LoopMerge) {
                s.state.push(ControlState {
                    break_merge: last,
                    current_merge: Some(m),
                });
            } else {
                s.state.push(ControlState {
                    break_merge: Some(m),
                    current_merge: Some(m),
                });
            }
        } else {
            s.state.push(ControlState {
                break_merge: last,
                current_merge: Some(m),
            });
        }
    }
}

/// `ProcessStructured`.
fn process_structured(cx: &mut Context, s: &mut State, f: Func, returns: &[Block]) -> Res<()> {
    if has_nontrivial_unreachable_blocks(cx, f) {
        return Err("Module contains unreachable blocks during merge return.  Run dead branch elimination before merge return.".into());
    }
    record_immediate_dominators(cx, s, f);
    add_single_case_switch_around_function(cx, s)?;
    let entry = cx.ir.entry(f).ok_or("a function without blocks")?;
    let mut order: Vec<Block> = {
        let (cfg, ir) = cx.cfg_ir();
        cfg.structured_order(ir, f, entry, None)
    };
    s.state.clear();
    s.state.push(ControlState {
        break_merge: None,
        current_merge: None,
    });
    for &block in &order {
        if Some(block) == s.final_return_block {
            continue;
        }
        let id = cx.ir.block_id(block);
        if id == merge_id(cx, s.current().current_merge) {
            s.state.pop();
        }
        process_structured_block(cx, s, block)?;
        generate_state(cx, s, block);
    }
    s.state.clear();
    s.state.push(ControlState {
        break_merge: None,
        current_merge: None,
    });
    let mut predicated: HashSet<Block> = HashSet::new();
    let mut k = 0;
    while k < order.len() {
        let block = order[k];
        let id = cx.ir.block_id(block);
        if id == merge_id(cx, s.current().current_merge) {
            s.state.pop();
        }
        if returns.contains(&block) {
            predicate_blocks(cx, s, block, &mut predicated, &mut order)?;
        }
        generate_state(cx, s, block);
        k += 1;
    }
    cx.remove_dominators(f);
    add_new_phi_nodes(cx, s)
}

/// `CreateReturnBlock`: a new last block of the function.
fn create_return_block(cx: &mut Context, s: &mut State) -> Res<()> {
    let id = cx.take_next_id().ok_or_else(out_of_ids)?;
    let label = cx.make(O::Label, 0, id, &[]);
    let b = cx.ir.new_block(label);
    let f = s.func.expect("a function");
    cx.ir.push_block(f, b);
    s.final_return_block = Some(b);
    cx.analyze_def_use(label);
    Ok(())
}

/// `CreateReturn`: the return at the end of `block` (of the value variable, loaded).
fn create_return(cx: &mut Context, s: &mut State, block: Block) -> Res<()> {
    add_return_value(cx, s)?;
    let f = s.func.expect("a function");
    if let Some(var) = s.return_value {
        let load_id = cx.take_next_id().ok_or_else(out_of_ids)?;
        let ty = cx.ir.type_id(cx.ir.func_def(f));
        let var_id = cx.ir.result_id(var);
        let load = cx.make(O::Load, ty, load_id, &[Operand::id(var_id)]);
        cx.ir.push_block_inst(block, load);
        cx.analyze_def_use(load);
        cx.clone_decorations(
            var_id,
            load_id,
            Some(&[spirv_core::spv::Decoration::RelaxedPrecision.0]),
        );
        let ret = cx.make(O::ReturnValue, 0, 0, &[Operand::id(load_id)]);
        cx.ir.push_block_inst(block, ret);
        cx.analyze_def_use(ret);
    } else {
        let ret = cx.make(O::Return, 0, 0, &[]);
        cx.ir.push_block_inst(block, ret);
        cx.analyze_def_use(ret);
    }
    Ok(())
}

/// `ProcessStructuredBlock`: a return (or `OpUnreachable`) becomes a break out of the
/// innermost breakable construct.
fn process_structured_block(cx: &mut Context, s: &mut State, block: Block) -> Res<()> {
    let Some(tail) = cx.ir.terminator(block) else {
        return Ok(());
    };
    let op = cx.ir.opcode(tail);
    if matches!(op, O::Return | O::ReturnValue) && s.return_flag.is_none() {
        add_return_flag(cx, s)?;
    }
    if matches!(op, O::Return | O::ReturnValue | O::Unreachable) {
        let target = merge_id(cx, s.current().break_merge);
        branch_to_block(cx, s, block, target)?;
        s.return_blocks.insert(cx.ir.block_id(block));
    }
    Ok(())
}

/// `BranchToBlock`.
fn branch_to_block(cx: &mut Context, s: &mut State, block: Block, target: u32) -> Res<()> {
    let tail = cx
        .ir
        .terminator(block)
        .ok_or("a block without terminator")?;
    if matches!(cx.ir.opcode(tail), O::Return | O::ReturnValue) {
        record_returned(cx, s, block)?;
        record_return_value(cx, s, block);
    }
    let target_block = cx.block_of_id(target).ok_or("a branch to no block")?;
    if cx.ir.loop_merge_inst(target_block).is_some() {
        split_loop_header(cx, target_block)?;
    }
    update_phi_nodes(cx, s, block, target_block)?;
    let ret = cx
        .ir
        .terminator(block)
        .ok_or("a block without terminator")?;
    cx.ir.data_mut(ret).set_opcode(O::Branch);
    cx.ir.data_mut(ret).replace_operands(&[Operand::id(target)]);
    cx.def_use();
    cx.analyze_def_use(ret);
    let bid = cx.ir.block_id(block);
    s.new_edges.entry(target_block).or_default().insert(bid);
    cx.cfg().add_edge(bid, target);
    Ok(())
}

/// `UpdatePhiNodes`: `target`'s phis get an undefined value from `source`.
fn update_phi_nodes(cx: &mut Context, s: &mut State, source: Block, target: Block) -> Res<()> {
    let sid = cx.ir.block_id(source);
    for phi in cx.phis(target) {
        let ty = cx.ir.type_id(phi);
        let undef = type2undef(cx, s, ty)?;
        cx.ir.data_mut(phi).add_operand(Operand::id(undef));
        cx.ir.data_mut(phi).add_operand(Operand::id(sid));
        cx.update_def_use(phi);
    }
    Ok(())
}

/// `MemPass::Type2Undef`.
fn type2undef(cx: &mut Context, s: &mut State, ty: u32) -> Res<u32> {
    if let Some(&u) = s.type2undef.get(&ty) {
        return Ok(u);
    }
    let id = cx.take_next_id().ok_or_else(out_of_ids)?;
    let i = cx.create(InstData::new(O::Undef, ty, id, &[]));
    cx.def_use();
    cx.analyze_def_use(i);
    cx.ir.push_global(crate::ir::Section::TypesValues, i);
    s.type2undef.insert(ty, id);
    Ok(id)
}

/// One call of `CreatePhiNodesForInst` in progress.
struct PhiFrame {
    inst: Inst,
    users: Vec<Inst>,
    new_phi: Option<Inst>,
    /// For a regenerated instruction: the next operand of it to look at.
    next_operand: Option<usize>,
}

/// `CreatePhiNodesForInst`, with an explicit stack where spirv-opt recurses into the
/// operands of an instruction it copies into the merge block.
fn create_phi_nodes_for_inst(cx: &mut Context, s: &mut State, merge: Block, inst: Inst) -> Res<()> {
    let mut stack: Vec<PhiFrame> = Vec::new();
    if let Some(frame) = start_phi_frame(cx, s, merge, inst)? {
        stack.push(frame);
    }
    while let Some(top) = stack.last_mut() {
        if let (Some(new_phi), Some(k)) = (top.new_phi, top.next_operand) {
            let n = cx.ir.data(new_phi).num_operands();
            if k < n {
                top.next_operand = Some(k + 1);
                let kind = cx.ir.data(new_phi).kind(k);
                if kind.is_some_and(Kind::is_in_id) {
                    let use_id = cx.ir.data(new_phi).word(k);
                    if let Some(use_inst) = cx.get_def(use_id) {
                        if let Some(use_bb) = cx.ir.block_of(use_inst) {
                            let (ub, mb) = (cx.ir.block_id(use_bb), cx.ir.block_id(merge));
                            let f = s.func.expect("a function");
                            if !cx.dominators(f).dominates(ub, mb) {
                                if let Some(frame) = start_phi_frame(cx, s, merge, use_inst)? {
                                    stack.push(frame);
                                }
                            }
                        }
                    }
                }
                continue;
            }
        }
        let top = stack.pop().expect("a frame");
        finish_phi_frame(cx, &top);
    }
    Ok(())
}

/// The first part of `CreatePhiNodesForInst`: the users `inst` no longer dominates,
/// and the phi (or copy) that will stand for it; `None` when it needs none.
fn start_phi_frame(
    cx: &mut Context,
    s: &mut State,
    merge: Block,
    inst: Inst,
) -> Res<Option<PhiFrame>> {
    let result = cx.ir.result_id(inst);
    if result == 0 {
        return Ok(None);
    }
    let f = s.func.expect("a function");
    let inst_bb = cx.ir.block_of(inst);
    let mut users = Vec::new();
    for user in cx.users(result) {
        let user_bb = if cx.ir.opcode(user) != O::Phi {
            cx.ir.block_of(user)
        } else {
            let d = cx.ir.data(user).clone();
            let mut found = None;
            let mut i = 0;
            while i + 1 < d.num_in_operands() {
                if d.in_word(i) == result {
                    found = cx.block_of_id(d.in_word(i + 1));
                    break;
                }
                i += 2;
            }
            found
        };
        if let Some(ub) = user_bb {
            let ib = inst_bb.map_or(0, |b| cx.ir.block_id(b));
            let ubid = cx.ir.block_id(ub);
            if !cx.dominators(f).dominates(ib, ubid) {
                users.push(user);
            }
        }
    }
    if users.is_empty() {
        return Ok(None);
    }
    let ty = cx.ir.type_id(inst);
    let undef = type2undef(cx, s, ty)?;
    let merge_id = cx.ir.block_id(merge);
    let new_edges = s.new_edges.entry(merge).or_default().clone();
    let preds = cx.cfg().preds(merge_id).to_vec();
    let mut phi_ops = Vec::new();
    for p in preds {
        phi_ops.push(if new_edges.contains(&p) {
            undef
        } else {
            result
        });
        phi_ops.push(p);
    }
    let mut regenerate = false;
    if let Some(type_inst) = cx.get_def(ty) {
        if cx.ir.opcode(type_inst) == O::TypePointer {
            if !cx.has_capability(spirv_core::spv::Capability::VariablePointers.0) {
                regenerate = true;
            }
            let storage = cx.ir.data(type_inst).in_word(0);
            if storage != spirv_core::spv::StorageClass::Workgroup.0
                && storage != spirv_core::spv::StorageClass::StorageBuffer.0
            {
                regenerate = true;
            }
        }
    }
    if regenerate {
        let copy = cx.ir.clone_inst(inst).ok_or_else(out_of_ids)?;
        let new_id = cx.take_next_id().ok_or_else(out_of_ids)?;
        cx.ir.data_mut(copy).set_result_id(new_id);
        let mut pos = cx.ir.first_inst(merge);
        while let Some(p) = pos {
            if cx.ir.opcode(p) != O::Phi {
                break;
            }
            pos = cx.ir.next(p);
        }
        match pos {
            Some(p) => cx.ir.insert_before(p, copy),
            None => cx.ir.push_block_inst(merge, copy),
        }
        cx.def_use();
        cx.analyze_def_use(copy);
        Ok(Some(PhiFrame {
            inst,
            users,
            new_phi: Some(copy),
            next_operand: Some(0),
        }))
    } else {
        let first = cx.ir.first_inst(merge).ok_or("an empty merge block")?;
        let b = Builder::before(first, Analyses::DEF_USE | Analyses::INSTR_TO_BLOCK);
        let phi = b.add_phi(cx, ty, &phi_ops, None).ok_or_else(out_of_ids)?;
        Ok(Some(PhiFrame {
            inst,
            users,
            new_phi: Some(phi),
            next_operand: None,
        }))
    }
}

/// The last part of `CreatePhiNodesForInst`: the users name the phi.
fn finish_phi_frame(cx: &mut Context, frame: &PhiFrame) {
    let Some(new_phi) = frame.new_phi else { return };
    let old = cx.ir.result_id(frame.inst);
    let new = cx.ir.result_id(new_phi);
    for &user in &frame.users {
        cx.ir
            .data_mut(user)
            .map_in_ids(|id| if id == old { new } else { id });
        cx.analyze_uses(user);
    }
}

/// `PredicateBlocks`: the merge blocks a return passes through get a branch around
/// their bodies taken once the function has returned.
fn predicate_blocks(
    cx: &mut Context,
    s: &mut State,
    return_block: Block,
    predicated: &mut HashSet<Block>,
    order: &mut Vec<Block>,
) -> Res<()> {
    if predicated.contains(&return_block) {
        return Ok(());
    }
    let succs = cx.ir.successors(return_block);
    let mut block = match succs.last() {
        Some(&l) => cx.block_of_id(l),
        None => None,
    };
    let Some(first) = block else {
        return Err("a return block without its branch".into());
    };
    let mut at = s.state.len();
    let state_of = |s: &State, at: usize| s.state[at - 1];
    let first_id = cx.ir.block_id(first);
    if first_id == merge_id(cx, state_of(s, at).current_merge) {
        at -= 1;
    } else if first_id == merge_id(cx, state_of(s, at).break_merge) {
        while at > 0 && merge_id(cx, state_of(s, at).break_merge) == first_id {
            at -= 1;
        }
    }
    while let Some(b) = block {
        if Some(b) == s.final_return_block {
            break;
        }
        if !predicated.insert(b) {
            break;
        }
        if at == 0 {
            return Err("left the placeholder construct".into());
        }
        let Some(break_merge) = state_of(s, at).break_merge else {
            return Err("not in a breakable construct".into());
        };
        let merge_block_id = cx.ir.data(break_merge).in_word(0);
        while at > 0 && merge_id(cx, state_of(s, at).break_merge) == merge_block_id {
            at -= 1;
        }
        break_from_construct(cx, s, b, predicated, order, break_merge)?;
        block = cx.block_of_id(merge_block_id);
    }
    Ok(())
}

/// `BreakFromConstruct`: `block` is split after its phis; its start branches to the
/// construct's merge when the function has returned, else to its old body.
fn break_from_construct(
    cx: &mut Context,
    s: &mut State,
    block: Block,
    predicated: &mut HashSet<Block>,
    order: &mut Vec<Block>,
    break_merge: Inst,
) -> Res<()> {
    cx.invalidate(Analyses::CFG);
    cx.cfg();
    if cx.ir.loop_merge_inst(block).is_some() {
        split_loop_header(cx, block)?;
    }
    let merge_block_id = cx.ir.data(break_merge).in_word(0);
    let merge_block = cx
        .block_of_id(merge_block_id)
        .ok_or("a merge that is no block")?;
    if cx.ir.loop_merge_inst(merge_block).is_some() {
        split_loop_header(cx, merge_block)?;
    }
    let mut iter = cx.ir.first_inst(block);
    while let Some(i) = iter {
        if cx.ir.opcode(i) != O::Phi {
            break;
        }
        iter = cx.ir.next(i);
    }
    {
        let (cfg, ir) = cx.cfg_ir();
        cfg.remove_successor_edges(ir, block);
    }
    let old_body_id = cx.take_next_id().ok_or_else(out_of_ids)?;
    let at = iter.ok_or("a block of phis only")?;
    let old_body = cx.split_basic_block(block, old_body_id, at);
    predicated.insert(old_body);
    let bid = cx.ir.block_id(block);
    if s.return_blocks.contains(&bid) {
        s.return_blocks.insert(old_body_id);
    }
    if cx.ir.opcode(break_merge) == O::LoopMerge && cx.ir.data(break_merge).in_word(1) == bid {
        cx.ir
            .data_mut(break_merge)
            .set_in_operand(1, &[old_body_id]);
        cx.update_def_use(break_merge);
    }
    if let Some(pos) = order.iter().position(|&b| b == block) {
        order.insert(pos + 1, old_body);
    }
    let b = Builder::at_end(block, Analyses::DEF_USE | Analyses::INSTR_TO_BLOCK);
    let bool_id = cx
        .types()
        .find_plain(Ty::Bool)
        .map_or(0, |t| cx.types().id_of(t));
    let flag = cx.ir.result_id(s.return_flag.ok_or("no return flag")?);
    let load = b.add_load(cx, bool_id, flag).ok_or_else(out_of_ids)?;
    let load_id = cx.ir.result_id(load);
    let mb_id = cx.ir.block_id(merge_block);
    b.add_conditional_branch(cx, load_id, mb_id, old_body_id, Some((old_body_id, 0)));
    if !s.new_edges.entry(merge_block).or_default().insert(bid) {
        s.new_edges
            .entry(merge_block)
            .or_default()
            .insert(old_body_id);
    }
    update_phi_nodes(cx, s, block, merge_block)?;
    {
        let (cfg, ir) = cx.cfg_ir();
        cfg.add_edges(ir, block);
        cfg.register_block(ir, old_body);
    }
    Ok(())
}

/// `RecordReturned`: a store of true to the flag before a return.
fn record_returned(cx: &mut Context, s: &mut State, block: Block) -> Res<()> {
    let Some(tail) = cx.ir.terminator(block) else {
        return Ok(());
    };
    if !matches!(cx.ir.opcode(tail), O::Return | O::ReturnValue) {
        return Ok(());
    }
    if s.constant_true.is_none() {
        let ty = cx.bool_type_id();
        let c = cx.get_constant(ty, &[1]).ok_or("no bool constant")?;
        let t = cx.get_defining_instruction(c, 0).ok_or_else(out_of_ids)?;
        s.constant_true = Some(t);
        cx.update_def_use(t);
    }
    let flag = cx.ir.result_id(s.return_flag.ok_or("no return flag")?);
    let t = cx.ir.result_id(s.constant_true.expect("made"));
    let store = cx.make(O::Store, 0, 0, &[Operand::id(flag), Operand::id(t)]);
    cx.ir.insert_before(tail, store);
    cx.analyze_def_use(store);
    Ok(())
}

/// `RecordReturnValue`: a store of the returned value before an `OpReturnValue`.
fn record_return_value(cx: &mut Context, s: &mut State, block: Block) {
    let Some(tail) = cx.ir.terminator(block) else {
        return;
    };
    if cx.ir.opcode(tail) != O::ReturnValue {
        return;
    }
    let Some(var) = s.return_value else { return };
    let var_id = cx.ir.result_id(var);
    let value = cx.ir.data(tail).in_word(0);
    let store = cx.make(O::Store, 0, 0, &[Operand::id(var_id), Operand::id(value)]);
    cx.ir.insert_before(tail, store);
    cx.analyze_def_use(store);
}

/// `AddReturnValue`: the variable holding the return value, at the start of the entry.
fn add_return_value(cx: &mut Context, s: &mut State) -> Res<()> {
    if s.return_value.is_some() {
        return Ok(());
    }
    let f = s.func.expect("a function");
    let ret = cx.ir.type_id(cx.ir.func_def(f));
    if cx
        .get_def(ret)
        .is_some_and(|d| cx.ir.opcode(d) == O::TypeVoid)
    {
        return Ok(());
    }
    let function = spirv_core::spv::StorageClass::Function.0;
    let ptr = cx.find_pointer_to_type(ret, function);
    let var_id = cx.take_next_id().ok_or_else(out_of_ids)?;
    let var = cx.make(
        O::Variable,
        ptr,
        var_id,
        &[Operand::new(Kind::Enum, &[function])],
    );
    let entry = cx.ir.entry(f).ok_or("no entry block")?;
    match cx.ir.first_inst(entry) {
        Some(first) => cx.ir.insert_before(first, var),
        None => cx.ir.push_block_inst(entry, var),
    }
    s.return_value = Some(var);
    cx.analyze_def_use(var);
    let fid = cx.ir.func_id(f);
    cx.clone_decorations(
        fid,
        var_id,
        Some(&[spirv_core::spv::Decoration::RelaxedPrecision.0]),
    );
    Ok(())
}

/// `AddReturnFlag`: the "returned" variable, false at first, at the start of the entry.
fn add_return_flag(cx: &mut Context, s: &mut State) -> Res<()> {
    if s.return_flag.is_some() {
        return Ok(());
    }
    let bool_id = cx.bool_type_id();
    if bool_id == 0 {
        return Err(out_of_ids());
    }
    let c = cx.get_constant(bool_id, &[0]).ok_or("no bool constant")?;
    let false_inst = cx.get_defining_instruction(c, 0).ok_or_else(out_of_ids)?;
    let false_id = cx.ir.result_id(false_inst);
    let function = spirv_core::spv::StorageClass::Function.0;
    let ptr = cx.find_pointer_to_type(bool_id, function);
    if ptr == 0 {
        return Err(out_of_ids());
    }
    let var_id = cx.take_next_id().ok_or_else(out_of_ids)?;
    let var = cx.make(
        O::Variable,
        ptr,
        var_id,
        &[Operand::new(Kind::Enum, &[function]), Operand::id(false_id)],
    );
    let f = s.func.expect("a function");
    let entry = cx.ir.entry(f).ok_or("no entry block")?;
    match cx.ir.first_inst(entry) {
        Some(first) => cx.ir.insert_before(first, var),
        None => cx.ir.push_block_inst(entry, var),
    }
    s.return_flag = Some(var);
    cx.analyze_def_use(var);
    Ok(())
}

/// `MergeReturnBlocks`: the non-shader case.
fn merge_return_blocks(cx: &mut Context, s: &mut State, f: Func, returns: &[Block]) -> Res<()> {
    if returns.len() <= 1 {
        return Ok(());
    }
    create_return_block(cx, s)?;
    let ret_block = s.final_return_block.expect("made");
    let return_id = cx.ir.block_id(ret_block);
    let mut phi_ops = Vec::new();
    for &b in returns {
        let t = cx.ir.terminator(b).ok_or("no terminator")?;
        if cx.ir.opcode(t) == O::ReturnValue {
            phi_ops.push(Operand::id(cx.ir.data(t).in_word(0)));
            phi_ops.push(Operand::id(cx.ir.block_id(b)));
        }
    }
    if !phi_ops.is_empty() {
        let phi_id = cx.take_next_id().ok_or_else(out_of_ids)?;
        let ty = cx.ir.type_id(cx.ir.func_def(f));
        let phi = cx.make(O::Phi, ty, phi_id, &phi_ops);
        cx.ir.push_block_inst(ret_block, phi);
        let ret = cx.make(O::ReturnValue, 0, 0, &[Operand::id(phi_id)]);
        cx.ir.push_block_inst(ret_block, ret);
        // spirv-opt records the phi and the return's definition (none), not the
        // return's use of the phi.
        cx.def_use();
        cx.analyze_def_use(phi);
    } else {
        let ret = cx.make(O::Return, 0, 0, &[]);
        cx.ir.push_block_inst(ret_block, ret);
    }
    for &b in returns {
        let t = cx.ir.terminator(b).ok_or("no terminator")?;
        cx.forget_uses(t);
        cx.ir.data_mut(t).set_opcode(O::Branch);
        cx.ir
            .data_mut(t)
            .replace_operands(&[Operand::id(return_id)]);
        cx.def_use();
        cx.analyze_uses(t);
    }
    let label = cx.ir.label(ret_block);
    cx.def_use();
    cx.analyze_def_use(label);
    Ok(())
}

/// `AddNewPhiNodes`: phis for the values that no longer dominate their uses.
fn add_new_phi_nodes(cx: &mut Context, s: &mut State) -> Res<()> {
    let f = s.func.expect("a function");
    let entry = cx.ir.entry(f).ok_or("no entry")?;
    let order = {
        let (cfg, ir) = cx.cfg_ir();
        cfg.structured_order(ir, f, entry, None)
    };
    for bb in order {
        let bid = cx.ir.block_id(bb);
        let Some(dominator) = cx.dominators(f).immediate_dominator(bid) else {
            continue;
        };
        let mut current = s
            .original_dominator
            .get(&bb)
            .copied()
            .flatten()
            .and_then(|i| cx.ir.block_of(i));
        let mut steps = 0usize;
        while let Some(cur) = current {
            if cx.ir.block_id(cur) == dominator || steps > cx.ir.instruction_count() {
                break;
            }
            steps += 1;
            let insts: Vec<Inst> = cx.ir.insts(cur).collect();
            for i in insts {
                create_phi_nodes_for_inst(cx, s, bb, i)?;
            }
            let cid = cx.ir.block_id(cur);
            current = match cx.dominators(f).immediate_dominator(cid) {
                Some(d) => cx.cfg().block(d),
                None => None,
            };
        }
    }
    Ok(())
}

/// `RecordImmediateDominators`: each block's immediate dominator's terminator.
fn record_immediate_dominators(cx: &mut Context, s: &mut State, f: Func) {
    let blocks: Vec<Block> = cx.ir.blocks(f).collect();
    for bb in blocks {
        let id = cx.ir.block_id(bb);
        let dom = cx.dominators(f).immediate_dominator(id);
        let term = match dom {
            Some(d) if d != crate::analysis::cfg::PSEUDO_ENTRY => {
                cx.cfg().block(d).and_then(|b| cx.ir.terminator(b))
            }
            _ => None,
        };
        s.original_dominator.insert(bb, term);
    }
}

/// `AddSingleCaseSwitchAroundFunction`.
fn add_single_case_switch_around_function(cx: &mut Context, s: &mut State) -> Res<()> {
    create_return_block(cx, s)?;
    let fin = s.final_return_block.expect("made");
    create_return(cx, s, fin)?;
    if cx.are_valid(Analyses::CFG) {
        let (cfg, ir) = cx.cfg_ir();
        cfg.register_block(ir, fin);
    }
    create_single_case_switch(cx, s, fin)
}

/// `CreateSingleCaseSwitch`: the entry's variables stay; the rest of it moves to a new
/// block that a `switch` on 0, merging at `merge_target`, enters.
fn create_single_case_switch(cx: &mut Context, s: &mut State, merge_target: Block) -> Res<()> {
    let f = s.func.expect("a function");
    let start = cx.ir.entry(f).ok_or("no entry")?;
    let mut split = cx.ir.first_inst(start);
    while let Some(i) = split {
        if cx.ir.opcode(i) != O::Variable {
            break;
        }
        split = cx.ir.next(i);
    }
    let new_id = cx.take_next_id().ok_or_else(out_of_ids)?;
    let at = split.ok_or("an entry block of variables only")?;
    let old = cx.split_basic_block(start, new_id, at);
    // A DebugFunctionDefinition moves back to the entry.
    let mut pos = cx.ir.first_inst(old);
    while let Some(i) = pos {
        if cx.ir.shader_debug_opcode(i) == Some(101) {
            cx.ir.unlink(i);
            cx.ir.push_block_inst(start, i);
            break;
        }
        pos = cx.ir.next(i);
    }
    let zero = cx.int_constant_id(0, false).ok_or_else(out_of_ids)?;
    let b = Builder::at_end(start, Analyses::DEF_USE | Analyses::INSTR_TO_BLOCK);
    let mt = cx.ir.block_id(merge_target);
    b.add_selection_merge(cx, mt, 0);
    let sw = cx.create(InstData::new(
        O::Switch,
        0,
        0,
        &[Operand::id(zero), Operand::id(new_id)],
    ));
    b.add_instruction(cx, sw);
    if cx.are_valid(Analyses::CFG) {
        let (cfg, ir) = cx.cfg_ir();
        cfg.register_block(ir, old);
        cfg.add_edges(ir, start);
    }
    Ok(())
}

/// `HasNontrivialUnreachableBlocks`: an unreachable block that is not a trivial merge
/// (`OpUnreachable`) or continue (a branch back to its header).
fn has_nontrivial_unreachable_blocks(cx: &mut Context, f: Func) -> bool {
    let Some(entry) = cx.ir.entry(f) else {
        return false;
    };
    let reachable: HashSet<u32> = {
        let (cfg, ir) = cx.cfg_ir();
        cfg.post_order(ir, entry)
            .into_iter()
            .map(|b| ir.block_id(b))
            .collect()
    };
    let blocks: Vec<Block> = cx.ir.blocks(f).collect();
    for bb in blocks {
        let id = cx.ir.block_id(bb);
        if reachable.contains(&id) {
            continue;
        }
        let (is_continue, is_merge, containing_loop) = {
            let (sc, cfg, ir) = cx.struct_cfg_cfg_ir();
            (
                sc.is_continue_block(ir, cfg, id),
                sc.is_merge_block(id),
                sc.containing_loop(id),
            )
        };
        let first = cx.ir.first_inst(bb);
        if is_continue {
            let Some(i) = first else { return true };
            if cx.ir.opcode(i) != O::Branch || cx.ir.data(i).in_word(0) != containing_loop {
                return true;
            }
        } else if is_merge {
            if first.is_none_or(|i| cx.ir.opcode(i) != O::Unreachable) {
                return true;
            }
        } else {
            return true;
        }
    }
    false
}

/// `CFG::SplitLoopHeader`: the header `bb` becomes a preheader whose phis keep the
/// values from outside the loop and which branches to a new header holding the rest.
pub(crate) fn split_loop_header(cx: &mut Context, bb: Block) -> Res<Block> {
    let new_header_id = cx.take_next_id().ok_or_else(out_of_ids)?;
    let f = cx.ir.block_func(bb).ok_or("a block outside functions")?;
    let bid = cx.ir.block_id(bb);
    let preds = cx.cfg().preds(bid).to_vec();
    let mut latch = None;
    let mut seen_header = false;
    for b in cx.ir.blocks(f) {
        if b == bb {
            seen_header = true;
        }
        if seen_header && preds.contains(&cx.ir.block_id(b)) {
            latch = Some(b);
            break;
        }
    }
    let mut latch = latch.ok_or("could not find the latch")?;
    {
        let (cfg, ir) = cx.cfg_ir();
        cfg.remove_successor_edges(ir, bb);
    }
    let mut iter = cx.ir.first_inst(bb);
    while let Some(i) = iter {
        if cx.ir.opcode(i) != O::Phi {
            break;
        }
        iter = cx.ir.next(i);
    }
    let at = iter.ok_or("a header of phis only")?;
    let new_header = cx.split_basic_block(bb, new_header_id, at);
    let label = cx.ir.label(new_header);
    cx.analyze_def_use(label);
    {
        let (cfg, ir) = cx.cfg_ir();
        cfg.register_block(ir, new_header);
    }
    if latch == bb {
        if cx.ir.continue_block_id(new_header) == Some(bid) {
            if let Some(m) = cx.ir.loop_merge_inst(new_header) {
                cx.ir.data_mut(m).set_in_operand(1, &[new_header_id]);
            }
        }
        latch = new_header;
    }
    let latch_id = cx.ir.block_id(latch);
    for phi in cx.phis(bb) {
        let d = cx.ir.data(phi).clone();
        let mut pre: Vec<u32> = Vec::new();
        let mut header_ops: Vec<Operand> = Vec::new();
        let mut i = 0;
        while i + 1 < d.num_in_operands() {
            let (def, branch) = (d.in_word(i), d.in_word(i + 1));
            if branch == latch_id {
                header_ops.push(Operand::id(def));
                header_ops.push(Operand::id(branch));
            } else {
                pre.push(def);
                pre.push(branch);
            }
            i += 2;
        }
        if pre.len() > 2 {
            let first = cx.ir.first_inst(bb).ok_or("an empty header")?;
            let b = Builder::before(first, Analyses::DEF_USE | Analyses::INSTR_TO_BLOCK);
            let np = b
                .add_phi(cx, d.type_id(), &pre, None)
                .ok_or_else(out_of_ids)?;
            header_ops.push(Operand::id(cx.ir.result_id(np)));
            header_ops.push(Operand::id(bid));
        } else {
            header_ops.push(Operand::id(pre.first().copied().unwrap_or(0)));
            header_ops.push(Operand::id(bid));
        }
        cx.ir.unlink(phi);
        cx.ir.data_mut(phi).set_in_operands(&header_ops);
        match cx.ir.first_inst(new_header) {
            Some(first) => cx.ir.insert_before(first, phi),
            None => cx.ir.push_block_inst(new_header, phi),
        }
        cx.analyze_uses(phi);
    }
    let br = cx.make(O::Branch, 0, 0, &[Operand::id(new_header_id)]);
    cx.ir.push_block_inst(bb, br);
    cx.analyze_uses(br);
    cx.cfg().add_edge(bid, new_header_id);
    cx.ir
        .map_successor_labels(latch, |id| if id == bid { new_header_id } else { id });
    if let Some(t) = cx.ir.terminator(latch) {
        cx.analyze_uses(t);
    }
    cx.cfg().add_edge(latch_id, new_header_id);
    cx.cfg().remove_edge(latch_id, bid);
    Ok(new_header)
}
