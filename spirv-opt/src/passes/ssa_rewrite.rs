//! `--ssa-rewrite` and `--eliminate-local-multi-store` (both spirv-opt's
//! `SSARewritePass`, `source/opt/ssa_rewrite_pass.cpp`): in every function, the loads
//! of function-scope variables of a target type, used only by loads and stores, take
//! the value reaching them (Braun et al.'s algorithm: blocks in reverse post order,
//! phi candidates at joins, trivial ones removed), with `OpPhi`s where values meet;
//! each store of such a variable with a `DebugDeclare` gets a `DebugValue`, and the
//! `DebugDeclare`s go.

use crate::analysis::{IdHashMap, IdHashSet};
use crate::context::Context;
use crate::ir::{Block, Func, Inst, InstData, Operand};
use crate::mem_pass::{self, MemPass};
use crate::pass::{IrPass, PassError, Status};
use spirv_core::spv::Opcode as O;
use std::collections::{HashSet, VecDeque};

/// `--ssa-rewrite`.
#[derive(Debug, Clone, Copy)]
pub struct SsaRewrite {
    /// The flag it was registered by (`ssa-rewrite` or `eliminate-local-multi-store`).
    pub flag: &'static str,
}

/// The pass's flags.
pub const FLAG: &str = "ssa-rewrite";
/// The same pass by its other name.
pub const MULTI_STORE_FLAG: &str = "eliminate-local-multi-store";

/// `RelaxedPrecision`.
const RELAXED_PRECISION: u32 = 0;

impl IrPass for SsaRewrite {
    fn flag(&self) -> &'static str {
        self.flag
    }

    fn process(&self, cx: &mut Context) -> Result<Status, PassError> {
        let mut mem = MemPass::new();
        let mut modified = false;
        let funcs: Vec<Func> = cx.ir.functions().to_vec();
        for f in funcs {
            if cx.ir.is_declaration(f) {
                continue;
            }
            let r = Rewriter::new().rewrite_function(cx, &mut mem, f);
            let vars: Vec<u32> = mem.seen_target_vars.iter().copied().collect();
            for v in vars {
                cx.kill_debug_declares(v);
            }
            match r {
                Some(m) => modified |= m,
                None => {
                    return Err(PassError {
                        pass: self.flag,
                        message: "ids ran out".into(),
                    });
                }
            }
        }
        Ok(if modified {
            Status::Changed
        } else {
            Status::Unchanged
        })
    }
}

/// A phi candidate (`PhiCandidate`), kept by its result id.
#[derive(Debug, Clone)]
struct PhiCandidate {
    var_id: u32,
    bb: Block,
    phi_args: Vec<u32>,
    copy_of: u32,
    is_complete: bool,
    users: Vec<u32>,
}

impl PhiCandidate {
    fn is_ready(&self) -> bool {
        self.is_complete && self.copy_of == 0
    }
}

/// A pending level of `GetReachingDef`.
enum Frame {
    /// Waiting for the value reaching the block's single predecessor.
    Single(Block),
    /// Waiting for the value reaching one predecessor of a join.
    Join(Join),
}

/// A join's phi candidate whose arguments are being found (`AddPhiOperands`).
struct Join {
    bb: Block,
    phi: u32,
    preds: Vec<u32>,
    /// The predecessor asked next.
    next: usize,
    found_0_arg: bool,
}

/// What the explicit `GetReachingDef` stack does next.
enum Step {
    /// Enter the block.
    Call(Block),
    /// Return the value to the level below.
    Ret(u32),
}

/// `SSARewriter`: the state of one function's rewrite.
#[derive(Default)]
// The maps are only looked up, or iterated where order does not reach the output (as
// with std's randomly seeded hasher before), so they take the fast id hasher.
struct Rewriter {
    defs_at_block: IdHashMap<Block, IdHashMap<u32, u32>>,
    phi_candidates: IdHashMap<u32, PhiCandidate>,
    incomplete_phis: VecDeque<u32>,
    phis_to_generate: Vec<u32>,
    load_replacement: IdHashMap<u32, u32>,
    /// The loads in the order they were scheduled (the replacement table's keys).
    load_order: Vec<u32>,
    sealed_blocks: IdHashSet<Block>,
}

impl Rewriter {
    fn new() -> Rewriter {
        Rewriter::default()
    }

    /// `CreatePhiCandidate`.
    fn create_phi_candidate(&mut self, cx: &mut Context, var_id: u32, bb: Block) -> Option<u32> {
        let id = cx.take_next_id()?;
        self.phi_candidates.insert(
            id,
            PhiCandidate {
                var_id,
                bb,
                phi_args: Vec::new(),
                copy_of: 0,
                is_complete: false,
                users: Vec::new(),
            },
        );
        Some(id)
    }

    /// `WriteVariable`.
    fn write_variable(&mut self, var_id: u32, bb: Block, val_id: u32, bb_id: u32) {
        self.defs_at_block
            .entry(bb)
            .or_default()
            .insert(var_id, val_id);
        if let Some(pc) = self.phi_candidates.get_mut(&val_id) {
            pc.users.push(bb_id);
        }
    }

    /// `ReplacePhiUsersWith`.
    fn replace_phi_users_with(&mut self, cx: &mut Context, phi: u32, repl_id: u32) {
        let (users, var_id) = {
            let pc = &self.phi_candidates[&phi];
            (pc.users.clone(), pc.var_id)
        };
        for user_id in users {
            if let Some(user_phi) = self.phi_candidates.get_mut(&user_id) {
                for arg in user_phi.phi_args.iter_mut() {
                    if *arg == phi {
                        *arg = repl_id;
                    }
                }
                continue;
            }
            let bb = cx.get_def(user_id).and_then(|d| cx.ir.block_of(d));
            match bb {
                Some(b) if cx.ir.block_id(b) == user_id => {
                    self.write_variable(var_id, b, repl_id, user_id);
                }
                _ => {
                    for v in self.load_replacement.values_mut() {
                        if *v == phi {
                            *v = repl_id;
                        }
                    }
                }
            }
        }
    }

    /// `TryRemoveTrivialPhi`.
    fn try_remove_trivial_phi(&mut self, cx: &mut Context, phi: u32) -> u32 {
        let mut same_id = 0;
        for &arg in &self.phi_candidates[&phi].phi_args {
            if arg == same_id || arg == phi {
                continue;
            }
            if same_id != 0 {
                return phi;
            }
            same_id = arg;
        }
        if let Some(pc) = self.phi_candidates.get_mut(&phi) {
            pc.copy_of = same_id;
        }
        self.replace_phi_users_with(cx, phi, same_id);
        same_id
    }

    /// Records `arg` as the next argument of `phi` (`AddPhiOperands`' loop body): whether
    /// it is the `%0` of a predecessor not yet sealed.
    fn push_phi_arg(&mut self, phi: u32, arg: u32) -> bool {
        if let Some(pc) = self.phi_candidates.get_mut(&phi) {
            pc.phi_args.push(arg);
        }
        if arg == 0 {
            return true;
        }
        if arg != phi {
            if let Some(def) = self.phi_candidates.get_mut(&arg) {
                def.users.push(phi);
            }
        }
        false
    }

    /// The end of `AddPhiOperands`, once every argument is in: an incomplete candidate
    /// waits for the end of the function; a complete one is removed if trivial.
    fn close_phi_operands(&mut self, cx: &mut Context, phi: u32, found_0_arg: bool) -> u32 {
        if found_0_arg {
            if let Some(pc) = self.phi_candidates.get_mut(&phi) {
                pc.is_complete = false;
            }
            self.incomplete_phis.push_back(phi);
            return phi;
        }
        let repl = self.try_remove_trivial_phi(cx, phi);
        if repl == phi {
            if let Some(pc) = self.phi_candidates.get_mut(&phi) {
                pc.is_complete = true;
            }
            self.phis_to_generate.push(phi);
        }
        repl
    }

    /// `GetValueAtBlock`.
    fn value_at_block(&self, var_id: u32, bb: Block) -> u32 {
        self.defs_at_block
            .get(&bb)
            .and_then(|d| d.get(&var_id))
            .copied()
            .unwrap_or(0)
    }

    /// The end of one `GetReachingDef` level: undef when nothing reached `bb`, then the
    /// value written as `bb`'s. 0 when no id was left for the undef.
    fn settle(
        &mut self,
        cx: &mut Context,
        mem: &mut MemPass,
        var_id: u32,
        bb: Block,
        v: u32,
    ) -> u32 {
        let mut v = v;
        if v == 0 {
            v = get_undef_val(cx, mem, var_id);
            if v == 0 {
                return 0;
            }
        }
        let id = cx.ir.block_id(bb);
        self.write_variable(var_id, bb, v, id);
        v
    }

    /// `GetReachingDef` with its mutual recursion through `AddPhiOperands` on an
    /// explicit stack, in the same order: a block with one predecessor asks it, a join
    /// gets a phi candidate whose sealed predecessors are asked one after the other.
    /// A cycle of single predecessors (only through an entry block with a predecessor,
    /// invalid SPIR-V on which spirv-opt recurses until it crashes) reaches nothing.
    fn get_reaching_def(
        &mut self,
        cx: &mut Context,
        mem: &mut MemPass,
        var_id: u32,
        bb: Block,
    ) -> u32 {
        let mut frames: Vec<Frame> = Vec::new();
        // The blocks of the single-predecessor frames since the last join frame, one
        // set per join: a block met twice within one is on a cycle with no join.
        let mut chains: Vec<HashSet<Block>> = vec![HashSet::new()];
        let mut step = Step::Call(bb);
        loop {
            step = match step {
                Step::Call(b) => self.call(cx, mem, var_id, b, &mut frames, &mut chains),
                Step::Ret(v) => match frames.pop() {
                    None => return v,
                    Some(Frame::Single(b)) => {
                        if let Some(c) = chains.last_mut() {
                            c.remove(&b);
                        }
                        Step::Ret(self.settle(cx, mem, var_id, b, v))
                    }
                    Some(Frame::Join(mut join)) => {
                        chains.pop();
                        join.next += 1;
                        join.found_0_arg |= self.push_phi_arg(join.phi, v);
                        self.advance_join(cx, mem, var_id, join, &mut frames, &mut chains)
                    }
                },
            };
        }
    }

    /// One level of `GetReachingDef` entered at `b`.
    fn call(
        &mut self,
        cx: &mut Context,
        mem: &mut MemPass,
        var_id: u32,
        b: Block,
        frames: &mut Vec<Frame>,
        chains: &mut Vec<HashSet<Block>>,
    ) -> Step {
        let v = self.value_at_block(var_id, b);
        if v != 0 {
            return Step::Ret(v);
        }
        let b_id = cx.ir.block_id(b);
        let preds: Vec<u32> = cx.cfg().preds(b_id).to_vec();
        match preds.len() {
            0 => Step::Ret(self.settle(cx, mem, var_id, b, 0)),
            1 => match cx.cfg().block(preds[0]) {
                Some(p) if chains.last_mut().is_some_and(|c| c.insert(b)) => {
                    frames.push(Frame::Single(b));
                    Step::Call(p)
                }
                _ => Step::Ret(self.settle(cx, mem, var_id, b, 0)),
            },
            _ => {
                let Some(phi) = self.create_phi_candidate(cx, var_id, b) else {
                    return Step::Ret(0);
                };
                // The candidate is `b`'s value while its arguments are found, which
                // ends the cycles through `b`.
                self.write_variable(var_id, b, phi, b_id);
                let join = Join {
                    bb: b,
                    phi,
                    preds,
                    next: 0,
                    found_0_arg: false,
                };
                self.advance_join(cx, mem, var_id, join, frames, chains)
            }
        }
    }

    /// Moves `join` on: the next sealed predecessor is asked (its frame pushed back), the
    /// unsealed ones take `%0` for now; once every argument is in, the candidate is
    /// closed and its level of `GetReachingDef` settled.
    fn advance_join(
        &mut self,
        cx: &mut Context,
        mem: &mut MemPass,
        var_id: u32,
        mut join: Join,
        frames: &mut Vec<Frame>,
        chains: &mut Vec<HashSet<Block>>,
    ) -> Step {
        while join.next < join.preds.len() {
            let pred = join.preds[join.next];
            match cx.cfg().block(pred) {
                Some(pb) if self.sealed_blocks.contains(&pb) => {
                    frames.push(Frame::Join(join));
                    chains.push(HashSet::new());
                    return Step::Call(pb);
                }
                _ => {
                    join.next += 1;
                    join.found_0_arg |= self.push_phi_arg(join.phi, 0);
                }
            }
        }
        let v = self.close_phi_operands(cx, join.phi, join.found_0_arg);
        Step::Ret(self.settle(cx, mem, var_id, join.bb, v))
    }

    /// `ProcessStore`.
    fn process_store(
        &mut self,
        cx: &mut Context,
        mem: &mut MemPass,
        i: Inst,
        bb: Block,
    ) -> Option<()> {
        let (var_id, val_id) = if cx.ir.opcode(i) == O::Store {
            let (_, var) = mem_pass::get_ptr_of(cx, i);
            (var, cx.ir.data(i).in_word(1))
        } else if cx.ir.data(i).num_in_operands() >= 2 {
            (cx.ir.result_id(i), cx.ir.data(i).in_word(1))
        } else {
            (0, 0)
        };
        if mem.is_target_var(cx, var_id) {
            let id = cx.ir.block_id(bb);
            self.write_variable(var_id, bb, val_id, id);
            cx.add_debug_value_for_variable(i, var_id, val_id, i)?;
        }
        Some(())
    }

    /// `ProcessLoad`: false when ids ran out.
    fn process_load(&mut self, cx: &mut Context, mem: &mut MemPass, i: Inst, bb: Block) -> bool {
        let (_, mut var_id) = mem_pass::get_ptr_of(cx, i);
        let load_ty = cx.ir.type_id(i);
        let load_type = cx.types().get(load_ty);
        let val_id;
        // Pointers stored in each other in a cycle (possible only through forward
        // pointer types) end the walk at the first one met twice.
        let mut walked: HashSet<u32> = HashSet::new();
        loop {
            if !mem.is_target_var(cx, var_id) || !walked.insert(var_id) {
                return true;
            }
            let v = self.get_reaching_def(cx, mem, var_id, bb);
            if v == 0 {
                return false;
            }
            let def = cx.get_def(v);
            let same = match def {
                Some(d) => {
                    let t = cx.ir.type_id(d);
                    cx.types().get(t) == load_type
                }
                None => true,
            };
            if def.is_some() && !same {
                var_id = v;
            } else {
                val_id = v;
                break;
            }
        }
        let load_id = cx.ir.result_id(i);
        if self.load_replacement.insert(load_id, val_id).is_none() {
            self.load_order.push(load_id);
        }
        if let Some(pc) = self.phi_candidates.get_mut(&val_id) {
            pc.users.push(load_id);
        }
        true
    }

    /// `GenerateSSAReplacements`.
    fn generate_ssa_replacements(
        &mut self,
        cx: &mut Context,
        mem: &mut MemPass,
        bb: Block,
    ) -> Option<bool> {
        let insts: Vec<Inst> = cx.ir.insts(bb).collect();
        for i in insts {
            match cx.ir.opcode(i) {
                O::Store | O::Variable => self.process_store(cx, mem, i, bb)?,
                O::Load if !self.process_load(cx, mem, i, bb) => return Some(false),
                _ => {}
            }
        }
        self.sealed_blocks.insert(bb);
        Some(true)
    }

    /// `GetReplacement`.
    /// Loads replaced by each other in a cycle (uses before definitions, which spirv-opt
    /// follows forever) stop after one lap.
    fn get_replacement(&self, val: u32) -> u32 {
        let mut v = val;
        for _ in 0..=self.load_replacement.len() {
            match self.load_replacement.get(&v) {
                Some(&next) => v = next,
                None => break,
            }
        }
        v
    }

    /// `GetPhiArgument`.
    fn get_phi_argument(&self, phi: u32, ix: usize) -> u32 {
        let mut arg = self.phi_candidates[&phi]
            .phi_args
            .get(ix)
            .copied()
            .unwrap_or(0);
        // A chain of copies is at most as long as there are candidates.
        for _ in 0..=self.phi_candidates.len() {
            if arg == 0 {
                return 0;
            }
            match self.phi_candidates.get(&arg) {
                Some(p) if !p.is_ready() => arg = p.copy_of,
                _ => return arg,
            }
        }
        arg
    }

    /// `ApplyReplacements`: `None` when ids ran out.
    fn apply_replacements(&mut self, cx: &mut Context) -> Option<bool> {
        let mut modified = false;
        let mut generated: Vec<Inst> = Vec::new();
        for k in 0..self.phis_to_generate.len() {
            let phi = self.phis_to_generate[k];
            let (var_id, bb) = {
                let pc = &self.phi_candidates[&phi];
                (pc.var_id, pc.bb)
            };
            let local_var = cx.get_def(var_id)?;
            let type_id = pointee_type_id(cx, local_var);
            let bb_id = cx.ir.block_id(bb);
            let preds: Vec<u32> = cx.cfg().preds(bb_id).to_vec();
            let mut ops: Vec<Operand> = Vec::new();
            let mut seen: HashSet<u32> = HashSet::new();
            for (ix, pred) in preds.into_iter().enumerate() {
                let val = self.get_phi_argument(phi, ix);
                if seen.insert(pred) {
                    ops.push(Operand::id(val));
                    ops.push(Operand::id(pred));
                }
            }
            let inst = cx.create(InstData::new(O::Phi, type_id, phi, &ops));
            generated.push(inst);
            {
                let (du, ir) = cx.def_use_ir();
                du.analyze_def(ir, inst);
            }
            match cx.ir.first_inst(bb) {
                Some(first) => cx.ir.insert_before(first, inst),
                None => cx.ir.push_block_inst(bb, inst),
            }
            cx.clone_decorations(var_id, phi, Some(&[RELAXED_PRECISION]));
            let scope = cx.ir.scope(local_var);
            cx.ir.set_scope(inst, scope);
            cx.add_debug_value_for_variable(inst, var_id, phi, inst)?;
            modified = true;
        }
        for inst in generated {
            let (du, ir) = cx.def_use_ir();
            du.analyze_uses(ir, inst);
        }
        for k in 0..self.load_order.len() {
            let load_id = self.load_order[k];
            let Some(&v) = self.load_replacement.get(&load_id) else {
                continue;
            };
            let val_id = self.get_replacement(v);
            let load = cx.get_def(load_id);
            cx.kill_names_and_decorates_of(load_id);
            cx.replace_all_uses_with(load_id, val_id);
            if let Some(l) = load {
                cx.kill_inst(l);
            }
            modified = true;
        }
        Some(modified)
    }

    /// `FinalizePhiCandidate`.
    fn finalize_phi_candidate(
        &mut self,
        cx: &mut Context,
        mem: &mut MemPass,
        phi: u32,
    ) -> Option<()> {
        let (bb, var_id) = {
            let pc = &self.phi_candidates[&phi];
            (pc.bb, pc.var_id)
        };
        let bb_id = cx.ir.block_id(bb);
        let preds: Vec<u32> = cx.cfg().preds(bb_id).to_vec();
        for (ix, pred) in preds.into_iter().enumerate() {
            let arg = self.phi_candidates[&phi].phi_args.get(ix).copied();
            if arg != Some(0) {
                continue;
            }
            let pred_bb = cx.cfg().block(pred);
            let v = match pred_bb {
                Some(pb) if self.sealed_blocks.contains(&pb) => {
                    self.get_reaching_def(cx, mem, var_id, pb)
                }
                _ => get_undef_val(cx, mem, var_id),
            };
            if let Some(pc) = self.phi_candidates.get_mut(&phi) {
                pc.phi_args[ix] = v;
            }
        }
        if let Some(pc) = self.phi_candidates.get_mut(&phi) {
            pc.is_complete = true;
        }
        if self.try_remove_trivial_phi(cx, phi) == phi {
            self.phis_to_generate.push(phi);
        }
        Some(())
    }

    /// `RewriteFunctionIntoSSA`: whether it changed; `None` when ids ran out.
    fn rewrite_function(mut self, cx: &mut Context, mem: &mut MemPass, f: Func) -> Option<bool> {
        mem.collect_target_vars(cx, f);
        let entry = cx.ir.entry(f)?;
        let order = {
            let (cfg, ir) = cx.cfg_ir();
            cfg.reverse_post_order(ir, entry)
        };
        for bb in order {
            if !self.generate_ssa_replacements(cx, mem, bb)? {
                return None;
            }
        }
        while let Some(phi) = self.incomplete_phis.pop_front() {
            self.finalize_phi_candidate(cx, mem, phi)?;
        }
        self.apply_replacements(cx)
    }
}

/// `GetPointeeTypeId`.
fn pointee_type_id(cx: &mut Context, ptr: Inst) -> u32 {
    let ty = cx.ir.type_id(ptr);
    cx.get_def(ty).map_or(0, |t| cx.ir.data(t).in_word(1))
}

/// `GetUndefVal`: the `OpUndef` of the type `var_id` points to.
fn get_undef_val(cx: &mut Context, mem: &mut MemPass, var_id: u32) -> u32 {
    let Some(var) = cx.get_def(var_id) else {
        return 0;
    };
    let ty = pointee_type_id(cx, var);
    mem.type2undef(cx, ty)
}
