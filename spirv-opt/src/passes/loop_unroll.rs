//! `--loop-unroll` (spirv-opt's `LoopUnroller` with full unrolling,
//! `source/opt/loop_unroller.cpp`): each loop whose `OpLoopMerge` has exactly the
//! `Unroll` control, inner loops first, is replaced by one copy of its body per
//! iteration when `LoopUtils::CanPerformUnroll` accepts it (a known trip count from a
//! constant-bounded, constant-stepped induction phi; one exit, through the merge; a
//! latch branching back unconditionally; no return or kill inside; nested loops
//! already unrolled).
//!
//! The copies are made as spirv-opt makes them, so ids and order match: the loop's
//! blocks in structured order are cloned once per extra iteration (labels, then each
//! result in order take fresh ids; decorations cloned), each copy's condition branch
//! becomes a branch to its true target, the header phis' uses in a copy read the
//! previous iteration's latch values, the copies go before the merge block, and the
//! original header's phis and `OpLoopMerge` and the copies' phis and merges are
//! killed at the end.
//!
//! Differences on purpose: a loop spirv-opt would crash on (no preheader, a header
//! phi without a value from the preheader or the latch) is left alone, and so is a
//! loop whose unrolling would make the module grow past [`growth_budget`]: spirv-opt
//! unrolls a loop of 2^31 iterations and runs out of memory.

use crate::analysis::loops::LoopDescriptor;
use crate::analysis::{Analyses, IdHashMap};
use crate::context::Context;
use crate::ir::{Block, Func, Inst, Operand};
use crate::pass::{IrPass, PassError, Status};
use spirv_core::spv::Opcode as O;

/// The pass's flag.
pub const FLAG: &str = "loop-unroll";

/// `--loop-unroll`.
#[derive(Debug, Clone, Copy, Default)]
pub struct LoopUnroll;

/// How many instructions all the unrolling of one run may add: 2^20 plus eight times
/// the module's instructions. A loop whose copies would pass what is left is not
/// unrolled (spirv-opt has no limit).
pub fn growth_budget(module_instructions: usize) -> u64 {
    (1u64 << 20).saturating_add((module_instructions as u64).saturating_mul(8))
}

impl IrPass for LoopUnroll {
    fn flag(&self) -> &'static str {
        FLAG
    }

    fn process(&self, cx: &mut Context) -> Result<Status, PassError> {
        let mut budget = growth_budget(cx.ir.instruction_count());
        let mut changed = false;
        let funcs: Vec<Func> = cx.ir.functions().to_vec();
        for f in funcs {
            if cx.ir.is_declaration(f) {
                continue;
            }
            let mut ld = LoopDescriptor::build(cx, f);
            for l in ld.post_order() {
                if !ld.has_unroll_control(cx, l) {
                    continue;
                }
                let Some(mut u) = Unroller::plan(cx, &ld, l, f) else {
                    continue;
                };
                // The copies, plus the analyses rebuilt after each loop.
                let body: u64 = u
                    .order
                    .iter()
                    .map(|&b| cx.ir.insts(b).count() as u64 + 1)
                    .sum();
                let cost = u
                    .iterations
                    .saturating_sub(1)
                    .saturating_mul(body)
                    .saturating_add(cx.ir.blocks(f).count() as u64);
                if cost > budget {
                    continue;
                }
                budget -= cost;
                if u.fully_unroll(cx, &mut ld).is_none() {
                    return Err(PassError {
                        pass: FLAG,
                        message: "ID overflow. Try running compact-ids.".to_owned(),
                    });
                }
                changed = true;
                cx.invalidate_except(
                    Analyses::DEF_USE
                        | Analyses::INSTR_TO_BLOCK
                        | Analyses::DECORATIONS
                        | Analyses::CONSTANTS
                        | Analyses::TYPES
                        | Analyses::NAME_MAP,
                );
            }
        }
        Ok(if changed {
            Status::Changed
        } else {
            Status::Unchanged
        })
    }
}

/// The in-operand pair of phi `phi` that comes from `label`: its value (`GetPhiDefID`).
fn phi_value_from(cx: &Context, phi: Inst, label: u32) -> Option<u32> {
    let d = cx.ir.data(phi);
    let mut k = 1;
    while k < d.num_in_operands() {
        if d.in_word(k) == label {
            return Some(d.in_word(k - 1));
        }
        k += 2;
    }
    None
}

/// Sets in-operand `k` of `i` to `id` and records its uses.
fn set_in_id(cx: &mut Context, i: Inst, k: usize, id: u32) {
    cx.forget_uses(i);
    cx.ir.data_mut(i).set_in_operand(k, &[id]);
    cx.analyze_uses(i);
}

/// One loop being unrolled (`LoopUnrollerUtilsImpl` with its `LoopUnrollState`).
struct Unroller {
    l: usize,
    header: Block,
    latch: Block,
    continue_target: Block,
    merge: Block,
    preheader: u32,
    condition: Block,
    iterations: u64,
    order: Vec<Block>,
    invalidated: Vec<Inst>,
    to_add: Vec<Block>,
    // The state of the iteration being copied.
    prev_latch: Block,
    prev_phis: Vec<Inst>,
    new_phis: Vec<Inst>,
    new_header: Option<Block>,
    new_latch: Option<Block>,
    new_condition: Option<Block>,
    new_blocks: Vec<(u32, Block)>,
    new_inst: IdHashMap<u32, u32>,
    ids_to_new: IdHashMap<u32, Inst>,
}

impl Unroller {
    /// `CanPerformUnroll` and `Init`: the loop's parts, or `None` when it is not
    /// unrolled (also where spirv-opt would crash).
    fn plan(cx: &mut Context, ld: &LoopDescriptor, l: usize, f: Func) -> Option<Unroller> {
        let lp = &ld.loops[l];
        let header = cx.cfg().block(lp.header)?;
        cx.ir.merge_inst(header)?;
        let latch_id = lp.latch?;
        let condition = ld.condition_block(cx, l)?;
        let induction = ld.condition_variable(cx, l, condition)?;
        if cx.ir.opcode(induction) != O::Phi {
            return None;
        }
        let branch = cx.ir.terminator(condition)?;
        let trip = ld.trip_count(cx, l, induction, branch)?;
        let latch = cx.cfg().block(latch_id)?;
        let lt = cx.ir.terminator(latch)?;
        if cx.ir.opcode(lt) != O::Branch
            || cx.ir.data(lt).num_in_operands() < 1
            || cx.ir.data(lt).in_word(0) != lp.header
        {
            return None;
        }
        if cx.cfg().preds(lp.merge).len() != 1 || cx.cfg().preds(lp.continue_target).len() != 1 {
            return None;
        }
        for id in ld.blocks(l) {
            let b = cx.cfg().block(id)?;
            let t = cx.ir.terminator(b)?;
            if matches!(
                cx.ir.opcode(t),
                O::Kill | O::Return | O::ReturnValue | O::TerminateInvocation
            ) {
                return None;
            }
        }
        if !ld.all_children_removed(l) {
            return None;
        }
        // Past here spirv-opt would read a missing block or phi value.
        let preheader = lp.preheader?;
        for phi in ld.induction_variables(cx, l) {
            phi_value_from(cx, phi, preheader)?;
            phi_value_from(cx, phi, latch_id)?;
        }
        let continue_target = cx.cfg().block(lp.continue_target)?;
        let merge = cx.cfg().block(lp.merge)?;
        let order = ld.structured_order(cx, l, f);
        // What the copies are wired through must be among them (and the latch must not
        // be the header, whose label the copies keep), so that once copying starts only
        // running out of ids can stop it.
        if latch == header
            || ![header, latch, condition].iter().all(|b| order.contains(b))
            || order.iter().any(|&b| cx.ir.terminator(b).is_none())
        {
            return None;
        }
        Some(Unroller {
            l,
            header,
            latch,
            continue_target,
            merge,
            preheader,
            condition,
            iterations: trip.iterations,
            order,
            invalidated: Vec::new(),
            to_add: Vec::new(),
            prev_latch: latch,
            prev_phis: Vec::new(),
            new_phis: Vec::new(),
            new_header: None,
            new_latch: None,
            new_condition: None,
            new_blocks: Vec::new(),
            new_inst: IdHashMap::default(),
            ids_to_new: IdHashMap::default(),
        })
    }

    /// `FullyUnroll`. `None` when an id cannot be taken.
    fn fully_unroll(&mut self, cx: &mut Context, ld: &mut LoopDescriptor) -> Option<()> {
        // `Unroll`: the loop control becomes DontUnroll (seen only in the copies'
        // merges, which go).
        let lm = cx.ir.loop_merge_inst(self.header)?;
        set_in_id(cx, lm, 2, 2);
        self.prev_phis = ld.induction_variables(cx, self.l);
        self.prev_latch = self.latch;
        for _ in 1..self.iterations {
            self.copy_body(cx, ld)?;
        }
        self.fold_condition_block(cx, self.condition)?;
        self.close(cx, ld);
        ld.loops[self.l].marked_for_removal = true;
        if let Some(p) = ld.loops[self.l].parent {
            for &b in &self.to_add {
                ld.add_block(p, cx.ir.block_id(b));
            }
        }
        for b in std::mem::take(&mut self.to_add) {
            cx.ir.insert_block_before(self.merge, b);
        }
        // `ReplaceInductionUseWithFinalValue`.
        let inductions = ld.induction_variables(cx, self.l);
        let prev_latch = cx.ir.block_id(self.prev_latch);
        for (k, &ind) in inductions.iter().enumerate() {
            let last = *self.prev_phis.get(k)?;
            cx.kill_names_and_decorates(last);
            let value = phi_value_from(cx, last, prev_latch)?;
            let id = cx.ir.result_id(ind);
            cx.replace_all_uses_with(id, value);
            self.invalidated.push(ind);
        }
        for i in std::mem::take(&mut self.invalidated) {
            cx.kill_inst(i);
        }
        Some(())
    }

    /// `CopyBody`: one more copy of the loop's blocks, after the previous latch.
    fn copy_body(&mut self, cx: &mut Context, ld: &LoopDescriptor) -> Option<()> {
        for k in 0..self.order.len() {
            self.copy_block(cx, self.order[k])?;
        }
        let (new_header, new_latch) = (self.new_header?, self.new_latch?);
        let header_id = cx.ir.block_id(self.header);
        let prev_branch = cx.ir.terminator(self.prev_latch)?;
        set_in_id(cx, prev_branch, 0, cx.ir.block_id(new_header));
        let new_branch = cx.ir.terminator(new_latch)?;
        set_in_id(cx, new_branch, 0, header_id);
        let prev_latch_id = cx.ir.block_id(self.prev_latch);
        for (k, phi) in ld.induction_variables(cx, self.l).into_iter().enumerate() {
            let id = cx.ir.result_id(phi);
            let clone = *self.ids_to_new.get(self.new_inst.get(&id)?)?;
            self.new_phis.push(clone);
            let value = match self.prev_phis.get(k) {
                Some(&p) => phi_value_from(cx, p, prev_latch_id)?,
                None => id,
            };
            self.new_inst.insert(id, value);
        }
        let nc = self.new_condition?;
        if nc != self.condition {
            self.fold_condition_block(cx, nc)?;
        }
        self.new_inst.insert(header_id, header_id);
        for k in 0..self.new_blocks.len() {
            let b = self.new_blocks[k].1;
            self.remap_block(cx, b);
        }
        self.invalidated.extend(self.new_phis.iter().copied());
        // `NextIterationState`.
        self.prev_latch = new_latch;
        self.prev_phis = std::mem::take(&mut self.new_phis);
        self.new_header = None;
        self.new_latch = None;
        self.new_condition = None;
        self.new_blocks.clear();
        self.new_inst.clear();
        self.ids_to_new.clear();
        Some(())
    }

    /// `CopyBasicBlock` (without preserving instructions).
    fn copy_block(&mut self, cx: &mut Context, b: Block) -> Option<()> {
        let label = cx.ir.clone_inst(cx.ir.label(b))?;
        let nb = cx.ir.new_block(label);
        let insts: Vec<Inst> = cx.ir.insts(b).collect();
        for i in insts {
            let c = cx.ir.clone_inst(i)?;
            cx.ir.push_block_inst(nb, c);
        }
        // `KillDebugDeclares`.
        let insts: Vec<Inst> = cx.ir.insts(nb).collect();
        for i in insts {
            if cx.is_debug_declare(i) {
                cx.kill_inst(i);
            }
        }
        // `AssignNewResultIds`.
        let old_label = cx.ir.block_id(b);
        let new_label = cx.take_next_id()?;
        self.new_inst.insert(old_label, new_label);
        cx.ir.data_mut(label).set_result_id(new_label);
        cx.analyze_def_use(label);
        let insts: Vec<Inst> = cx.ir.insts(nb).collect();
        for i in insts {
            let old = cx.ir.result_id(i);
            if old == 0 {
                cx.analyze_def_use(i);
                continue;
            }
            let new = cx.take_next_id()?;
            cx.ir.data_mut(i).set_result_id(new);
            cx.analyze_def_use(i);
            cx.clone_decorations(old, new, None);
            self.new_inst.insert(old, new);
            self.ids_to_new.insert(new, i);
        }
        if b == self.continue_target {
            let lm = cx.ir.loop_merge_inst(self.header)?;
            set_in_id(cx, lm, 1, new_label);
        }
        if b == self.header {
            self.new_header = Some(nb);
            if let Some(m) = cx.ir.loop_merge_inst(nb) {
                self.invalidated.push(m);
            }
        }
        if b == self.latch {
            self.new_latch = Some(nb);
        }
        if b == self.condition {
            self.new_condition = Some(nb);
        }
        self.to_add.push(nb);
        self.new_blocks.push((old_label, nb));
        Some(())
    }

    /// `FoldConditionBlock(block, 1)`: the conditional branch becomes a branch to its
    /// true target, with its last line and its scope.
    fn fold_condition_block(&mut self, cx: &mut Context, b: Block) -> Option<()> {
        let old = cx.ir.terminator(b)?;
        let target = cx.ir.data(old).in_word(1);
        let scope = cx.ir.scope(old);
        let last_line = cx.ir.lines(old).last().copied();
        let br = cx.make(O::Branch, 0, 0, &[Operand::id(target)]);
        cx.kill_inst(old);
        cx.ir.push_block_inst(b, br);
        cx.analyze_def_use(br);
        if let Some(line) = last_line {
            cx.add_debug_line(br, line)?;
        }
        cx.ir.set_scope(br, scope);
        Some(())
    }

    /// `CloseUnrolledLoop`: the last latch branches to the merge, and the header
    /// phis' uses in the loop read their values from the preheader.
    fn close(&mut self, cx: &mut Context, ld: &LoopDescriptor) {
        if let Some(m) = cx.ir.loop_merge_inst(self.header) {
            self.invalidated.push(m);
        }
        let merge_id = cx.ir.block_id(self.merge);
        if let Some(t) = cx.ir.terminator(self.prev_latch) {
            set_in_id(cx, t, 0, merge_id);
        }
        self.new_inst.clear();
        for phi in ld.induction_variables(cx, self.l) {
            if let Some(v) = phi_value_from(cx, phi, self.preheader) {
                self.new_inst.insert(cx.ir.result_id(phi), v);
            }
        }
        for k in 0..self.order.len() {
            self.remap_block(cx, self.order[k]);
        }
        for k in 0..self.to_add.len() {
            self.remap_block(cx, self.to_add[k]);
        }
        for k in 0..self.prev_phis.len() {
            self.remap_inst(cx, self.prev_phis[k]);
        }
    }

    /// `RemapOperands` of one instruction.
    fn remap_inst(&self, cx: &mut Context, i: Inst) {
        cx.forget_uses(i);
        let map = &self.new_inst;
        cx.ir
            .data_mut(i)
            .map_in_ids(|id| map.get(&id).copied().unwrap_or(id));
        cx.analyze_uses(i);
    }

    /// `RemapOperands` of each instruction of a block.
    fn remap_block(&self, cx: &mut Context, b: Block) {
        let insts: Vec<Inst> = cx.ir.insts(b).collect();
        for i in insts {
            self.remap_inst(cx, i);
        }
    }
}
