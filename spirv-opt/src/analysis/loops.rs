//! The loop descriptor of one function (spirv-opt's `LoopDescriptor` and `Loop`,
//! `source/opt/loop_descriptor.cpp`): the loops a reachable `OpLoopMerge` heads whose
//! header some reachable block branches back to, found in the dominator tree's post
//! order, nested by dominance, with their preheader and latch; and the queries the
//! loop passes ask of a loop: its condition block, its induction variable and its
//! trip count, and its blocks in structured order.
//!
//! A loop's blocks are those its header dominates and its merge does not (spirv-opt
//! lists them by walking the header's dominator subtree; here membership is two O(1)
//! dominance tests on the tree the descriptor was built from, plus the blocks added
//! since), so building the descriptor stays linear however deep the nest.

use super::cfg::{PSEUDO_ENTRY, PSEUDO_EXIT};
use super::dominators::DomTree;
use super::types::Ty;
use crate::analysis::IdHashSet;
use crate::analysis::constants::Const;
use crate::context::Context;
use crate::ir::{Block, Func, Inst};
use spirv_core::spv::Opcode as O;

/// One loop.
#[derive(Debug, Clone)]
pub struct Loop {
    /// The header's label.
    pub header: u32,
    /// The continue target's label.
    pub continue_target: u32,
    /// The merge block's label.
    pub merge: u32,
    /// The preheader: the only block outside the loop that branches to the header,
    /// when all its branches go to the header.
    pub preheader: Option<u32>,
    /// The latch: the header's first predecessor the continue target dominates.
    pub latch: Option<u32>,
    /// The enclosing loop (an index into [`LoopDescriptor::loops`]).
    pub parent: Option<usize>,
    /// The loops nested directly in this one, in spirv-opt's order.
    pub children: Vec<usize>,
    /// Blocks added to the loop after the descriptor was built.
    added: IdHashSet<u32>,
    /// Marked for removal (fully unrolled).
    pub marked_for_removal: bool,
}

/// The loops of one function.
#[derive(Debug, Clone, Default)]
pub struct LoopDescriptor {
    /// The loops, in spirv-opt's order (`loops_`).
    pub loops: Vec<Loop>,
    /// The loops without a parent, in order (the placeholder loop's children).
    pub top: Vec<usize>,
    /// The dominator tree the loops were found in.
    dom: DomTree,
}

/// The comparisons a loop condition may be (`IsSupportedCondition`).
pub fn is_supported_condition(op: O) -> bool {
    matches!(
        op,
        O::ULessThan
            | O::SLessThan
            | O::UGreaterThan
            | O::SGreaterThan
            | O::SGreaterThanEqual
            | O::UGreaterThanEqual
            | O::SLessThanEqual
            | O::ULessThanEqual
    )
}

/// A loop's trip count, step and initial value (`FindNumberOfIterations`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TripCount {
    /// The number of iterations (at least 1).
    pub iterations: u64,
    /// The induction variable's step (negative for `OpISub`).
    pub step: i64,
    /// The induction variable's initial value.
    pub init: i64,
}

impl LoopDescriptor {
    /// The loops of `f` (`LoopDescriptor::PopulateList`).
    pub fn build(cx: &mut Context, f: Func) -> LoopDescriptor {
        let dom = cx.dominators(f).clone();
        let mut d = LoopDescriptor {
            loops: Vec::new(),
            top: Vec::new(),
            dom,
        };
        let Some(root) = d.dom.root() else {
            return d;
        };
        // The dominator tree in post order, without recursion.
        let mut order = Vec::new();
        let mut stack: Vec<(u32, usize)> = vec![(root, 0)];
        while let Some(top) = stack.last_mut() {
            let (id, k) = *top;
            if let Some(&c) = d.dom.children(id).get(k) {
                top.1 += 1;
                stack.push((c, 0));
            } else {
                order.push(id);
                stack.pop();
            }
        }
        for id in order {
            if id == PSEUDO_ENTRY || id == PSEUDO_EXIT {
                continue;
            }
            let Some(b) = cx.cfg().block(id) else {
                continue;
            };
            let Some(m) = cx.ir.loop_merge_inst(b) else {
                continue;
            };
            let preds: Vec<u32> = cx.cfg().preds(id).to_vec();
            if !preds
                .iter()
                .any(|&p| d.dom.contains(p) && d.dom.dominates(id, p))
            {
                continue;
            }
            let data = cx.ir.data(m);
            if data.num_in_operands() < 2 {
                continue;
            }
            let (merge, cont) = (data.in_word(0), data.in_word(1));
            // spirv-opt dereferences both blocks; a module without them is not one it
            // takes.
            if cx.cfg().block(merge).is_none() || cx.cfg().block(cont).is_none() {
                continue;
            }
            let preheader = d.find_preheader(cx, id, &preds);
            let latch = preds.iter().copied().find(|&p| d.dom.dominates(cont, p));
            let me = d.loops.len();
            d.loops.push(Loop {
                header: id,
                continue_target: cont,
                merge,
                preheader,
                latch,
                parent: None,
                children: Vec::new(),
                added: IdHashSet::default(),
                marked_for_removal: false,
            });
            for prev in (0..me).rev() {
                let ph = d.loops[prev].header;
                if d.loops[prev].parent.is_some()
                    || !d.dom.dominates(id, ph)
                    || d.dom.dominates(merge, ph)
                {
                    continue;
                }
                d.loops[prev].parent = Some(me);
                d.loops[me].children.push(prev);
            }
        }
        d.top = (0..d.loops.len())
            .filter(|&l| d.loops[l].parent.is_none())
            .collect();
        d
    }

    /// `FindLoopPreheader`.
    fn find_preheader(&self, cx: &mut Context, header: u32, preds: &[u32]) -> Option<u32> {
        let mut pred = None;
        for &p in preds {
            if self.dom.contains(p) && !self.dom.dominates(header, p) {
                if pred.is_some_and(|q| q != p) {
                    return None;
                }
                pred = Some(p);
            }
        }
        let p = pred?;
        let b = cx.cfg().block(p)?;
        cx.ir
            .successors(b)
            .iter()
            .all(|&s| s == header)
            .then_some(p)
    }

    /// The loops, inner loops first (the descriptor's iterator: post order over the
    /// nesting tree).
    pub fn post_order(&self) -> Vec<usize> {
        let mut out = Vec::with_capacity(self.loops.len());
        let mut stack: Vec<(Option<usize>, usize)> = vec![(None, 0)];
        while let Some(top) = stack.last_mut() {
            let (l, k) = *top;
            let kids = match l {
                None => &self.top,
                Some(l) => &self.loops[l].children,
            };
            if let Some(&c) = kids.get(k) {
                top.1 += 1;
                stack.push((Some(c), 0));
            } else {
                if let Some(l) = l {
                    out.push(l);
                }
                stack.pop();
            }
        }
        out
    }

    /// Whether block `id` is in loop `l` (`IsInsideLoop`).
    pub fn contains(&self, l: usize, id: u32) -> bool {
        let lp = &self.loops[l];
        lp.added.contains(&id)
            || (self.dom.dominates(lp.header, id) && !self.dom.dominates(lp.merge, id))
    }

    /// The blocks of loop `l` the descriptor was built with (the header's dominator
    /// subtree, less the merge's), then those added since.
    pub fn blocks(&self, l: usize) -> Vec<u32> {
        let lp = &self.loops[l];
        let mut out = Vec::new();
        let mut stack = vec![lp.header];
        while let Some(id) = stack.pop() {
            if self.dom.dominates(lp.merge, id) {
                continue;
            }
            out.push(id);
            stack.extend(self.dom.children(id).iter().copied());
        }
        out.extend(lp.added.iter().copied().filter(|&a| !self.dom.contains(a)));
        out
    }

    /// Adds block `id` to loop `l` and the loops around it (`AddBasicBlock`).
    pub fn add_block(&mut self, l: usize, id: u32) {
        let mut at = Some(l);
        while let Some(x) = at {
            self.loops[x].added.insert(id);
            at = self.loops[x].parent;
        }
    }

    /// Whether every loop nested in `l` is marked for removal.
    pub fn all_children_removed(&self, l: usize) -> bool {
        self.loops[l]
            .children
            .iter()
            .all(|&c| self.loops[c].marked_for_removal)
    }

    /// Whether the header's `OpLoopMerge` has exactly the `Unroll` control
    /// (`HasUnrollLoopControl`).
    pub fn has_unroll_control(&self, cx: &mut Context, l: usize) -> bool {
        let Some(b) = cx.cfg().block(self.loops[l].header) else {
            return false;
        };
        cx.ir
            .loop_merge_inst(b)
            .is_some_and(|m| cx.ir.data(m).num_in_operands() > 2 && cx.ir.data(m).in_word(2) == 1)
    }

    /// The in-loop block that branches conditionally to the merge, when it is the
    /// merge's only in-loop predecessor (`FindConditionBlock`).
    pub fn condition_block(&self, cx: &mut Context, l: usize) -> Option<Block> {
        let merge = self.loops[l].merge;
        let mut found = None;
        for &p in cx.cfg().preds(merge) {
            if self.contains(l, p) {
                if found.is_some() {
                    return None;
                }
                found = Some(p);
            }
        }
        let b = cx.cfg().block(found?)?;
        let t = cx.ir.terminator(b)?;
        let d = cx.ir.data(t);
        (d.opcode() == O::BranchConditional
            && d.num_in_operands() >= 3
            && (d.in_word(1) == merge || d.in_word(2) == merge))
            .then_some(b)
    }

    /// The header's phi the condition block's comparison reads first, when it has
    /// two incoming values, one from the latch, and a known trip count
    /// (`FindConditionVariable`).
    pub fn condition_variable(&self, cx: &mut Context, l: usize, cond: Block) -> Option<Inst> {
        let branch = cx.ir.terminator(cond)?;
        let condition = self.condition_of(cx, branch)?;
        let var = cx.get_def(cx.ir.data(condition).in_word(0))?;
        let d = cx.ir.data(var);
        if d.opcode() != O::Phi || d.num_in_operands() != 4 {
            return None;
        }
        let (l1, l2) = (d.in_word(1), d.in_word(3));
        if !self.contains(l, l1) && !self.contains(l, l2) {
            return None;
        }
        let latch = self.loops[l].latch?;
        if l1 != latch && l2 != latch {
            return None;
        }
        self.trip_count(cx, l, var, branch)?;
        Some(var)
    }

    /// The supported comparison `branch` (an `OpBranchConditional`) tests.
    fn condition_of(&self, cx: &mut Context, branch: Inst) -> Option<Inst> {
        let d = cx.ir.data(branch);
        if d.opcode() != O::BranchConditional || d.num_in_operands() < 1 {
            return None;
        }
        let c = cx.get_def(d.in_word(0))?;
        let cd = cx.ir.data(c);
        (is_supported_condition(cd.opcode()) && cd.num_in_operands() >= 2).then_some(c)
    }

    /// The phis of loop `l`'s header, in order (`GetInductionVariables`).
    pub fn induction_variables(&self, cx: &mut Context, l: usize) -> Vec<Inst> {
        let Some(b) = cx.cfg().block(self.loops[l].header) else {
            return Vec::new();
        };
        cx.ir
            .insts(b)
            .filter(|&i| cx.ir.opcode(i) == O::Phi)
            .collect()
    }

    /// The `OpIAdd`/`OpISub` of `induction` and a constant that feeds it from inside
    /// the loop (`GetInductionStepOperation`).
    fn step_operation(&self, cx: &mut Context, l: usize, induction: Inst) -> Option<Inst> {
        let d = cx.ir.data(induction).clone();
        let mut step = None;
        let mut k = 1;
        while k < d.num_in_operands() {
            if self.contains(l, d.in_word(k)) && cx.cfg().block(d.in_word(k)).is_some() {
                step = cx.get_def(d.in_word(k - 1));
                break;
            }
            k += 2;
        }
        let step = step?;
        let sd = cx.ir.data(step);
        if !matches!(sd.opcode(), O::IAdd | O::ISub) || sd.num_in_operands() < 2 {
            return None;
        }
        let (lhs, rhs) = (sd.in_word(0), sd.in_word(1));
        let id = cx.ir.result_id(induction);
        if lhs != id && rhs != id {
            return None;
        }
        let is_const = |cx: &mut Context, x: u32| {
            cx.get_def(x)
                .is_some_and(|i| cx.ir.opcode(i) == O::Constant)
        };
        if !is_const(cx, lhs) && !is_const(cx, rhs) {
            return None;
        }
        Some(step)
    }

    /// The value of integer constant `id` (`GetSignExtendedValue` or
    /// `GetZeroExtendedValue` by its type's signedness), and its words.
    fn int_constant(cx: &mut Context, id: u32) -> Option<(i64, Vec<u32>, bool)> {
        let c = cx.constants().find_declared(id)?;
        let value = cx.constants().value(c).clone();
        let ty = cx.types().ty(value.ty()).clone();
        let Ty::Int { width, signed } = ty else {
            return None;
        };
        if width > 64 {
            return None;
        }
        let words = match value {
            Const::Scalar(_, w) => w,
            Const::Null(_) => Vec::new(),
            _ => return None,
        };
        let lo = u64::from(words.first().copied().unwrap_or(0));
        let hi = u64::from(words.get(1).copied().unwrap_or(0));
        // spirv-opt reads a 32-bit-or-narrower value as its first word.
        let v = match (width <= 32, signed) {
            (true, true) => i64::from(lo as u32 as i32),
            (true, false) => lo as i64,
            (false, _) => ((hi << 32) | lo) as i64,
        };
        Some((v, words, signed))
    }

    /// The trip count of loop `l` whose condition `branch` tests `induction`
    /// (`FindNumberOfIterations`); `None` when it is not known or not positive.
    pub fn trip_count(
        &self,
        cx: &mut Context,
        l: usize,
        induction: Inst,
        branch: Inst,
    ) -> Option<TripCount> {
        let condition = self.condition_of(cx, branch)?;
        let cop = cx.ir.opcode(condition);
        let (bound, _, _) = Self::int_constant(cx, cx.ir.data(condition).in_word(1))?;
        let step_inst = self.step_operation(cx, l, induction)?;
        let step_id = cx.ir.data(step_inst).in_word(1);
        let (_, words, signed) = Self::int_constant(cx, step_id)?;
        // spirv-opt reads the step as an integer constant's first word.
        let first = *words.first()?;
        let mut step = if signed {
            i64::from(first as i32)
        } else {
            i64::from(first)
        };
        if cx.ir.opcode(step_inst) == O::ISub {
            step = step.wrapping_neg();
        }
        let init = self.init_value(cx, l, induction)?;
        let n = iterations(cop, bound, init, step);
        (n > 0).then_some(TripCount {
            iterations: n as u64,
            step,
            init,
        })
    }

    /// The induction's value from outside the loop (`GetInductionInitValue`: the
    /// last such incoming value), when it is an integer constant.
    fn init_value(&self, cx: &mut Context, l: usize, induction: Inst) -> Option<i64> {
        let d = cx.ir.data(induction).clone();
        let mut value = None;
        let mut k = 0;
        while k + 1 < d.num_in_operands() {
            if !self.contains(l, d.in_word(k + 1)) {
                value = Some(d.in_word(k));
            }
            k += 2;
        }
        let v = value?;
        cx.get_def(v)?;
        Self::int_constant(cx, v).map(|c| c.0)
    }

    /// Loop `l`'s blocks in structured order (`ComputeLoopStructuredOrder`): for a
    /// shader, the function's structured order from the header up to the merge;
    /// otherwise the reverse post order from the header, kept to the loop's blocks.
    pub fn structured_order(&self, cx: &mut Context, l: usize, f: Func) -> Vec<Block> {
        let lp = &self.loops[l];
        let (Some(h), merge) = (cx.cfg().block(lp.header), cx.cfg().block(lp.merge)) else {
            return Vec::new();
        };
        if cx.is_shader() {
            let (cfg, ir) = cx.cfg_ir();
            let order = cfg.structured_order(ir, f, h, merge);
            order
                .into_iter()
                .take_while(|&b| Some(b) != merge)
                .collect()
        } else {
            let (cfg, ir) = cx.cfg_ir();
            let rpo = cfg.reverse_post_order(ir, h);
            rpo.into_iter()
                .filter(|&b| self.contains(l, ir.block_id(b)))
                .collect()
        }
    }
}

/// The number of iterations of a loop comparing an induction variable from `init` by
/// `step` against `bound` with `op` (`Loop::GetIterations`); 0 or less when the loop
/// does not run or does not end. spirv-opt's 64-bit arithmetic, wrapping.
pub fn iterations(op: O, bound: i64, init: i64, step: i64) -> i64 {
    if step == 0 {
        return 0;
    }
    let diff = match op {
        O::SLessThan | O::ULessThan => {
            if init >= bound {
                return 0;
            }
            let d = bound.wrapping_sub(init);
            if (d < 0 && step > 0) || (d > 0 && step < 0) {
                return 0;
            }
            d
        }
        O::SGreaterThan | O::UGreaterThan => {
            if init <= bound {
                return 0;
            }
            let d = init.wrapping_sub(bound);
            if (d < 0 && step < 0) || (d > 0 && step > 0) {
                return 0;
            }
            d
        }
        O::SGreaterThanEqual | O::UGreaterThanEqual => {
            if init < bound {
                return 0;
            }
            let d = init.wrapping_sub(bound.wrapping_sub(1));
            if (d > 0 && step > 0) || (d < 0 && step < 0) {
                return 0;
            }
            d
        }
        O::SLessThanEqual | O::ULessThanEqual => {
            if init > bound {
                return 0;
            }
            let d = bound.wrapping_add(1).wrapping_sub(init);
            if (d < 0 && step > 0) || (d > 0 && step < 0) {
                return 0;
            }
            d
        }
        _ => return 0,
    };
    let step = step.wrapping_abs();
    let diff = diff.wrapping_abs();
    if step <= 0 {
        return 0;
    }
    let mut r = diff / step;
    if diff % step != 0 {
        r += 1;
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iteration_counts() {
        assert_eq!(iterations(O::SLessThan, 10, 0, 1), 10);
        assert_eq!(iterations(O::SLessThan, 10, 0, 3), 4);
        assert_eq!(iterations(O::SLessThanEqual, 10, 0, 1), 11);
        assert_eq!(iterations(O::SGreaterThan, 0, 10, -2), 5);
        assert_eq!(iterations(O::SGreaterThanEqual, 0, 10, -1), 11);
        assert_eq!(iterations(O::SLessThan, 10, 0, -1), 0);
        assert_eq!(iterations(O::SLessThan, 0, 10, 1), 0);
        assert_eq!(iterations(O::ULessThan, 10, 0, 0), 0);
        assert_eq!(iterations(O::IEqual, 10, 0, 1), 0);
        assert_eq!(iterations(O::SLessThan, i64::MAX, i64::MIN, 1), 0);
    }
}
