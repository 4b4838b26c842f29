//! Decoding one instruction for the passes: its operands as spirv-val parses them
//! (laid out from the layout's [`Shape`](crate::grammar::Shape) when it fits, walked
//! otherwise), its result id and, for an extended instruction, its set's kind.

use super::state::State;
use super::{Inst, Operand};
use crate::__private::Vec;
use crate::Module;
use crate::grammar::{InstructionInfo, OperandKind};
use crate::spv;
use crate::walk::{self, WalkOptions};

/// Instruction `index` with its operands as spirv-val parses them (walked into
/// `operands`, unless `parse` is false); `None` for an opcode the grammar does not know,
/// which the strict read has already refused.
pub(super) fn instruction<'a>(
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
pub(super) fn walked(
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
pub(super) fn inst_with<'a>(
    state: &State<'_>,
    i: crate::module::InstRef<'a>,
    info: &'static InstructionInfo,
    operands: &'a [Operand],
) -> Inst<'a> {
    let words = i.words();
    let opcode = i.opcode();
    let ops = i.operands();
    let result_id = match info.shape {
        Some(shape) if shape.accepts(ops.len()) => match shape.result {
            u8::MAX => 0,
            at => ops.get(usize::from(at)).copied().unwrap_or(0),
        },
        _ => i.result_id().map_or(0, |id| id.0),
    };
    let set = matches!(
        opcode,
        spv::Opcode::ExtInst | spv::Opcode::ExtInstWithForwardRefsKHR
    )
    .then(|| words.get(3).and_then(|s| state.sets.get(s)).copied())
    .flatten();
    Inst {
        index: i.index(),
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
pub(super) fn shaped(info: &'static InstructionInfo, ops: &[u32], out: &mut Vec<Operand>) -> bool {
    if !info.shape.is_some_and(|s| s.accepts(ops.len())) {
        return false;
    }
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
