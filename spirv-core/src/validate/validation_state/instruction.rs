//! An instruction as the passes see it (spirv-val's `Instruction`, `instruction.h`):
//! its operands as spirv-val parses them (laid out from the layout's
//! [`Shape`](crate::grammar::Shape) when it fits, walked otherwise), its result id and,
//! for an extended instruction, its set's kind; and the operand lists remembered by
//! layout for the loops that decode every instruction (spirv-val's two loops over the
//! module, the dominance walk): an instruction whose layout has a shape that fits it
//! has operands that follow from its opcode and word count alone, so the list laid out
//! for one such instruction serves every later one with the same opcode and count.

use super::State;
use crate::__private::Vec;
use crate::Module;
use crate::grammar::{InstructionInfo, OperandKind};
use crate::spirv_tools::SetKind;
use crate::spv;
use crate::walk::{self, WalkOptions};

/// One parsed operand, as spirv-val counts them.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Operand {
    pub(crate) kind: &'static OperandKind,
    /// Its first word, counted from the instruction's first word.
    pub(crate) offset: usize,
    pub(crate) len: usize,
}

/// An instruction as the passes see it.
pub(crate) struct Inst<'a> {
    pub(crate) index: usize,
    pub(crate) opcode: spv::Opcode,
    pub(crate) info: &'static InstructionInfo,
    /// The whole instruction, its first word included.
    pub(crate) words: &'a [u32],
    pub(crate) operands: &'a [Operand],
    /// 0 when none.
    pub(crate) result_id: u32,
    /// For an extended instruction: its set's kind.
    pub(crate) set: Option<SetKind>,
}

impl Inst<'_> {
    /// Operand `i`'s first word (`GetOperandAs<uint32_t>(i)`), 0 when there is none.
    pub(crate) fn word(&self, i: usize) -> u32 {
        self.operands
            .get(i)
            .and_then(|o| self.words.get(o.offset))
            .copied()
            .unwrap_or(0)
    }

    /// The result type (`type_id()`), 0 for an instruction without one.
    pub(crate) fn result_type(&self) -> u32 {
        if self.info.has_result_type() {
            self.word(0)
        } else {
            0
        }
    }
}

/// Instruction `index` with its operands as spirv-val parses them (walked into
/// `operands`, unless `parse` is false); `None` for an opcode the grammar does not know,
/// which the strict read has already refused.
pub(crate) fn decode<'a>(
    module: &'a Module,
    state: &State<'_>,
    index: usize,
    operands: &'a mut Vec<Operand>,
    parse: bool,
) -> Option<Inst<'a>> {
    let i = module.instruction(index)?;
    let info = i.info()?;
    operands.clear();
    if parse && !shaped(info, i.operands(), operands) {
        walked(module, i, info, operands);
    }
    Some(inst_with(state, i, info, operands))
}

/// The operands of instruction `i` as the walker finds them (those [`shaped`] cannot
/// lay out), after any already in `operands`, which is cleared first.
pub(crate) fn walked(
    module: &Module,
    i: crate::module::InstRef<'_>,
    info: &'static InstructionInfo,
    operands: &mut Vec<Operand>,
) {
    operands.clear();
    // The strict read has walked every instruction without fault.
    let _ = walk::walk(
        info,
        i.operands(),
        module.ids(),
        WalkOptions::default(),
        &mut |p| {
            operands.push(Operand {
                kind: p.kind,
                offset: p.start + 1,
                len: p.len,
            });
        },
    );
}

/// Instruction `i` as the passes see it, with `operands` already found.
pub(crate) fn inst_with<'a>(
    state: &State<'_>,
    i: crate::module::InstRef<'a>,
    info: &'static InstructionInfo,
    operands: &'a [Operand],
) -> Inst<'a> {
    let words = i.words();
    let n = words.len().saturating_sub(1);
    let fits = info.shape.filter(|s| s.accepts(n));
    build(state, i.index(), info, words, operands, fits)
}

/// The [`Inst`] of instruction `index` (its words, grammar entry and operands found),
/// with `fits` its layout's shape when the shape fits it: the result id is then where
/// the shape puts it, without a search of the operands.
#[inline]
fn build<'a>(
    state: &State<'_>,
    index: usize,
    info: &'static InstructionInfo,
    words: &'a [u32],
    operands: &'a [Operand],
    fits: Option<crate::grammar::Shape>,
) -> Inst<'a> {
    let opcode = spv::Opcode(words.first().map_or(0, |&w| w as u16));
    let ops = words.get(1..).unwrap_or(&[]);
    let result_id = match fits {
        Some(shape) => match shape.result {
            u8::MAX => 0,
            at => ops.get(usize::from(at)).copied().unwrap_or(0),
        },
        None => info
            .operands
            .iter()
            .position(|o| o.kind.class == crate::grammar::KindClass::Result)
            .and_then(|at| ops.get(at))
            .copied()
            .unwrap_or(0),
    };
    let set = if matches!(
        opcode,
        spv::Opcode::ExtInst | spv::Opcode::ExtInstWithForwardRefsKHR
    ) {
        words.get(3).and_then(|s| state.sets.get(s)).copied()
    } else {
        None
    };
    Inst {
        index,
        opcode,
        info,
        words,
        operands,
        result_id,
        set,
    }
}

/// The operands of an instruction whose layout has a [`Shape`](crate::grammar::Shape)
/// that fits it, laid out from the layout alone (each operand one word, a trailing
/// list of one-word operands or pairs); false when the walker must do it.
pub(crate) fn shaped(info: &'static InstructionInfo, ops: &[u32], out: &mut Vec<Operand>) -> bool {
    if !info.shape.is_some_and(|s| s.accepts(ops.len())) {
        return false;
    }
    // One operand per word: room for all at once, as a doubling vector would hold
    // its old and new blocks for an instruction of many ids.
    out.reserve_exact(ops.len());
    let mut at = 0;
    for op in info.operands {
        let parts: &[&'static OperandKind] = match op.kind.bases {
            [] => core::slice::from_ref(&op.kind),
            bases => bases,
        };
        let repeat = op.quantifier == crate::grammar::Quantifier::Variadic;
        loop {
            if at + parts.len() > ops.len() {
                break;
            }
            for &kind in parts {
                at += 1;
                out.push(Operand {
                    kind,
                    offset: at,
                    len: 1,
                });
            }
            if !repeat {
                break;
            }
        }
    }
    at == ops.len()
}

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
pub(crate) struct OperandMemo {
    walked: Vec<Operand>,
    slots: Vec<Slot>,
    kept: Vec<Operand>,
}

/// [`instruction`] with its operands parsed, from `memo` when an instruction of
/// the same layout came before.
pub(crate) fn memoized<'a>(
    module: &'a Module,
    state: &State<'_>,
    index: usize,
    memo: &'a mut OperandMemo,
) -> Option<Inst<'a>> {
    // Every loop over the module comes here once per instruction: the words are found
    // once, and a layout met before costs a table look-up.
    let i = module.instruction(index)?;
    let words = i.words();
    let opcode = words.first().map_or(0, |&w| w as u16);
    let info = spv::GRAMMAR.instruction(u32::from(opcode))?;
    let ops = words.get(1..).unwrap_or(&[]);
    let n = ops.len();
    let fits = info.shape.filter(|s| s.accepts(n));
    let key = (u64::from(opcode) << 32) | n as u64;
    let at = (usize::from(opcode).wrapping_mul(31) ^ n) % SLOTS;
    if fits.is_some() {
        if let Some(slot) = memo.slots.get(at).filter(|s| s.key == key) {
            let ops = memo.kept.get(slot.start as usize..slot.end as usize)?;
            return Some(build(state, index, info, words, ops, fits));
        }
    }
    memo.walked.clear();
    if !shaped(info, ops, &mut memo.walked) {
        walked(module, i, info, &mut memo.walked);
        return Some(build(state, index, info, words, &memo.walked, fits));
    }
    if memo.walked.len() > LONGEST {
        return Some(build(state, index, info, words, &memo.walked, fits));
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
    Some(build(
        state,
        index,
        info,
        words,
        &memo.kept[start..end],
        fits,
    ))
}
