//! Operand lists remembered by layout, for the loops that decode every instruction
//! (spirv-val's two loops over the module, the dominance walk): an instruction whose
//! layout has a [`Shape`](crate::grammar::Shape) that fits it has operands that follow
//! from its opcode and word count alone, so the list laid out for one such instruction
//! serves every later one with the same opcode and count.

use super::decode::{inst_with, shaped, walked};
use super::state::State;
use super::{Inst, Operand};
use crate::__private::Vec;
use crate::Module;

/// Slots of the table of layouts (a power of two).
const SLOTS: usize = 512;
/// Operands kept in all; past it the table starts again (an input of many layouts
/// that share slots makes no more than this): about 100 KB.
const KEPT: usize = 4096;
/// The longest list kept: longer ones are rare, and laying them out costs little
/// beside what their instructions' checks cost.
const LONGEST: usize = 8;

/// One remembered layout: its key (opcode and operand word count) and its operands'
/// place in [`OperandMemo::kept`].
#[derive(Debug, Clone, Copy)]
struct Slot {
    key: u64,
    start: u32,
    end: u32,
}

const EMPTY: Slot = Slot {
    key: u64::MAX,
    start: 0,
    end: 0,
};

/// Operand storage for one loop: the last list laid out (by the walker, or too long
/// to keep), and the lists of layouts met before (the table made at the first).
#[derive(Debug, Default)]
pub(super) struct OperandMemo {
    walked: Vec<Operand>,
    slots: Vec<Slot>,
    kept: Vec<Operand>,
}

/// [`super::instruction`] with its operands parsed, from `memo` when an instruction of
/// the same layout came before.
pub(super) fn instruction<'a>(
    module: &'a Module,
    state: &State<'_>,
    index: usize,
    memo: &'a mut OperandMemo,
) -> Option<Inst<'a>> {
    let i = module.instruction(index)?;
    let info = i.info()?;
    let n = i.operands().len();
    let fits = info.shape.is_some_and(|s| s.accepts(n));
    let key = (u64::from(i.opcode().0) << 32) | n as u64;
    let at = (usize::from(i.opcode().0).wrapping_mul(31) ^ n) % SLOTS;
    let slot = memo.slots.get(at).copied().unwrap_or(EMPTY);
    if fits && slot.key == key {
        let ops = memo.kept.get(slot.start as usize..slot.end as usize)?;
        return Some(inst_with(state, i, info, ops));
    }
    memo.walked.clear();
    if !shaped(info, i.operands(), &mut memo.walked) {
        walked(module, i, info, &mut memo.walked);
        return Some(inst_with(state, i, info, &memo.walked));
    }
    if memo.walked.len() > LONGEST {
        return Some(inst_with(state, i, info, &memo.walked));
    }
    if memo.slots.is_empty() || memo.kept.len() + memo.walked.len() > KEPT {
        memo.kept.clear();
        memo.slots.clear();
        memo.slots.resize(SLOTS, EMPTY);
    }
    let start = memo.kept.len();
    memo.kept.extend_from_slice(&memo.walked);
    let end = memo.kept.len();
    if let Some(s) = memo.slots.get_mut(at) {
        *s = Slot {
            key,
            start: start as u32,
            end: end as u32,
        };
    }
    Some(inst_with(state, i, info, &memo.kept[start..end]))
}
