//! `CheckIdDefinitionDominateUse` (`validate_id.cpp`): an id defined in a block is
//! used only in blocks it dominates (`OpPhi` aside), and one defined in a function
//! outside its blocks (a label, a parameter) only in that function; then each `OpPhi`
//! value's definition dominates the block it comes from.
//!
//! spirv-val goes over the definitions in order, each over its uses in order, and
//! stops at the first fault; the `OpPhi`s it meets on the way are checked after. Here
//! each function's uses are gone over once, with its dominator tree, and the first
//! fault in spirv-val's order kept: for a use, the key (definition, user); for an
//! `OpPhi`, the key (its first definition in a block among its operands, the
//! `OpPhi`), which orders them as spirv-val's list does.

use super::CfgError;
use super::dominators::Tree;
use super::graph::{Graph, NONE, REACHABLE, functions, is_terminator};
use super::structured::fault;
use crate::__private::Vec;
use crate::grammar::KindClass;
use crate::spv::Opcode as O;
use crate::types::Id;
use crate::validate::Fault;
use crate::validate::Query;
use crate::validate::validation_state::OperandMemo;

/// What a kept fault is.
#[derive(Debug, Clone, Copy)]
enum Kind {
    /// The definition's block does not dominate the user's.
    Dominate,
    /// A label or parameter used in another function.
    Function,
    /// An `OpPhi` value; the operand index of the value.
    Phi(u32),
}

/// The first fault found so far of each phase, by key.
#[derive(Debug)]
pub(super) struct Uses {
    /// The functions, by instruction range.
    functions: Vec<(usize, usize)>,
    /// One bit per instruction: whether it is in a block (spirv-val's `block()`).
    in_block: Vec<u64>,
    /// The first use fault: (definition, user), with what it is.
    first: Option<((u32, u32), Kind)>,
    /// The first `OpPhi` fault: (first definition, `OpPhi`).
    first_phi: Option<((u32, u32), Kind)>,
    /// Operand storage, kept across functions.
    operands: OperandMemo,
}

impl Uses {
    /// The module's functions and which instructions are in blocks.
    pub(super) fn new(q: &Query<'_>) -> Self {
        let functions = functions(q.module);
        let mut in_block = alloc::vec![0u64; q.module.len().div_ceil(64)];
        for &(start, end) in &functions {
            let mut open = false;
            for i in start + 1..=end {
                let Some(op) = q.module.instruction(i).map(|x| x.opcode()) else {
                    continue;
                };
                if open {
                    in_block[i / 64] |= 1 << (i % 64);
                }
                if op == O::Label {
                    open = true;
                } else if open && is_terminator(op) {
                    open = false;
                }
            }
        }
        Uses {
            functions,
            in_block,
            first: None,
            first_phi: None,
            operands: OperandMemo::default(),
        }
    }

    /// The module's functions.
    pub(super) fn functions(&self) -> &[(usize, usize)] {
        &self.functions
    }

    fn in_block(&self, i: u32) -> bool {
        self.in_block
            .get(i as usize / 64)
            .is_some_and(|w| w & (1 << (i % 64)) != 0)
    }

    /// The function whose body holds instruction `i` (its `OpFunction` aside).
    fn function_of(&self, i: u32) -> Option<(usize, usize)> {
        let i = i as usize;
        let k = self.functions.partition_point(|&(s, _)| s < i);
        let &(s, e) = self.functions.get(k.checked_sub(1)?)?;
        (i > s && i <= e).then_some((s, e))
    }

    fn keep(slot: &mut Option<((u32, u32), Kind)>, key: (u32, u32), kind: Kind) {
        if slot.is_none_or(|(k, _)| key < k) {
            *slot = Some((key, kind));
        }
    }

    /// Goes over the uses in function `g`, whose dominator tree is `tree`.
    pub(super) fn collect(&mut self, q: &Query<'_>, g: &Graph, tree: &Tree) {
        let mut memo = core::mem::take(&mut self.operands);
        let operands = &mut memo;
        // The block of each instruction in `g` (the last label before it), tabled in one
        // pass: definitions are looked up once per use.
        let mut blocks = Vec::with_capacity((g.end - g.at) as usize + 1);
        let mut k = 0;
        for i in g.at..=g.end {
            while g.labels.get(k).is_some_and(|&l| l < i) {
                k += 1;
            }
            blocks.push(k.checked_sub(1).map_or(NONE, |k| k as u32));
        }
        let block_of = |i: u32| -> u32 {
            match i.checked_sub(g.at).and_then(|o| blocks.get(o as usize)) {
                Some(&b) => b,
                None => {
                    let k = g.labels.partition_point(|&l| l < i);
                    k.checked_sub(1).map_or(NONE, |k| k as u32)
                }
            }
        };
        // Whether `g` is one of the functions: then a definition inside it is here
        // without a search.
        let own = self.function_of(g.at + 1) == Some((g.at as usize, g.end as usize));
        let mut block = NONE;
        let mut next_label = 0u32;
        for i in g.at as usize + 1..=g.end as usize {
            let Some(inst) =
                crate::validate::validation_state::memoized(q.module, q.state, i, operands)
            else {
                continue;
            };
            let op = inst.opcode;
            if op == O::Label {
                block = next_label;
                next_label += 1;
                continue;
            }
            let user_block = block;
            if user_block != NONE && is_terminator(op) {
                block = NONE;
            }
            let live = user_block != NONE && g.has(user_block, REACHABLE);
            let phi = op == O::Phi && live;
            let mut phi_key = NONE;
            for o in inst.operands {
                if !matches!(o.kind.class, KindClass::Id | KindClass::ResultType) {
                    continue;
                }
                let Some(def) = q.state.def(inst.words[o.offset]) else {
                    continue;
                };
                let d = def.index;
                let here = if own && d > g.at && d <= g.end {
                    true
                } else if self
                    .functions
                    .first()
                    .is_none_or(|&(s, _)| (d as usize) < s)
                {
                    // Defined before every function: a global, in no function.
                    continue;
                } else {
                    let Some((s, _)) = self.function_of(d) else {
                        continue;
                    };
                    s == g.at as usize
                };
                if self.in_block(d) {
                    if !live {
                        continue;
                    }
                    if phi {
                        phi_key = phi_key.min(d);
                    } else if !(here && tree.dominates(block_of(d), user_block)) {
                        Self::keep(&mut self.first, (d, i as u32), Kind::Dominate);
                    }
                } else if !here {
                    Self::keep(&mut self.first, (d, i as u32), Kind::Function);
                }
            }
            if phi && phi_key != NONE {
                // The first incoming value whose definition does not dominate its block.
                let w = inst.words;
                let pairs = inst.operands.len().saturating_sub(2) / 2;
                for k in 0..pairs {
                    let (v, p) = (3 + 2 * k, 4 + 2 * k);
                    let (Some(&value), Some(&parent)) = (w.get(v), w.get(p)) else {
                        break;
                    };
                    let Some(def) = q.state.def(value) else {
                        continue;
                    };
                    let parent = g.node(q, parent).unwrap_or(NONE);
                    if !self.in_block(def.index) || parent == NONE || !g.has(parent, REACHABLE) {
                        continue;
                    }
                    let here = def.index > g.at && def.index <= g.end;
                    if !(here && tree.dominates(block_of(def.index), parent)) {
                        let key = (phi_key, i as u32);
                        Self::keep(&mut self.first_phi, key, Kind::Phi(v as u32));
                        break;
                    }
                }
            }
        }
        self.operands = memo;
    }

    /// Reports the first fault, spirv-val's.
    pub(super) fn report(&self, q: &Query<'_>, report: &mut dyn FnMut(Fault) -> bool) {
        let Some(((d, u), kind)) = self.first.or(self.first_phi) else {
            return;
        };
        let words = |i: u32| {
            q.module
                .instruction(i as usize)
                .map_or(&[][..], |x| x.words())
        };
        let result = |i: u32| {
            q.module
                .instruction(i as usize)
                .and_then(|x| x.result_id())
                .map_or(Id(0), |r| r)
        };
        // The label of the block holding instruction `i`.
        let label = |i: u32| {
            (0..i)
                .rev()
                .find(|&j| q.module.instruction(j as usize).map(|x| x.opcode()) == Some(O::Label))
                .unwrap_or(0)
        };
        let function_id = |s: usize| words(s as u32).get(2).copied().unwrap_or(0);
        let f = match kind {
            Kind::Dominate => {
                let (ld, lu) = (label(d), label(u));
                let e = CfgError::DoesDominate {
                    id: result(d),
                    definition: result(ld),
                    user: result(lu),
                };
                fault(e, lu)
            }
            Kind::Function => {
                let Some((s, _)) = self.function_of(d) else {
                    return;
                };
                let user = self.function_of(u).map_or(0, |(s, _)| function_id(s));
                let e = CfgError::OutsideFunction {
                    id: result(d),
                    user: Id(user),
                    function: Id(function_id(s)),
                };
                fault(e, s as u32)
            }
            Kind::Phi(v) => {
                let w = words(u);
                let value = w.get(v as usize).copied().unwrap_or(0);
                let parent = w.get(v as usize + 1).copied().unwrap_or(0);
                let e = CfgError::PhiDominance {
                    phi: result(u),
                    id: Id(value),
                    parent: Id(parent),
                };
                fault(e, u)
            }
        };
        report(f);
    }
}
