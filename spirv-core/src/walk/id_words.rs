//! Every id operand of one instruction: the shaped fast path, else the walk, and the
//! error when an operand the walk cannot lay out may hide ids. The id visitors, the
//! bound checks and the editor's finish all find ids this way.

use super::{Ids, WalkOptions, ext_inst, shaped_ids, trailing, walk};
use crate::error::DecodeErrorKind;
use crate::grammar::{InstructionInfo, KindClass};
use crate::spv;
use crate::types::Id;

/// Calls `f(class, word)` for each id operand of an instruction (`word` indexes
/// `operands`, the words after the leading word), in order, with `ids` the facts of its
/// module. An unknown enumerant, or an extended set the registry does not know, may
/// hide ids: the error names the first such operand (its index among `operands`), and
/// `f` has seen the ids before it.
#[inline]
pub fn id_words(
    info: &'static InstructionInfo,
    opcode: u16,
    operands: &[u32],
    ids: &Ids,
    f: &mut impl FnMut(KindClass, usize),
) -> Result<(), (DecodeErrorKind, usize)> {
    if shaped_ids(info, operands, f)
        || trailing(info, operands, f).is_some()
        || ext_inst(info, operands, ids, f).is_some()
    {
        return Ok(());
    }
    let mut unknown = None;
    walk(info, operands, ids, WalkOptions::default(), &mut |p| {
        if p.unknown && unknown.is_none() {
            unknown = Some(p.start);
        }
        if unknown.is_none() && p.kind.is_id() {
            f(p.kind.class, p.start);
        }
    })?;
    let Some(word) = unknown else {
        return Ok(());
    };
    let imported = opcode == spv::Opcode::ExtInst.0
        && operands
            .get(2)
            .is_some_and(|&set| ids.ext_set(Id(set)).is_some());
    let kind = match imported {
        true if word >= 3 => DecodeErrorKind::UnknownExtInstLayout,
        _ => DecodeErrorKind::UnknownEnumerant {
            kind: "",
            value: operands[word],
        },
    };
    Err((kind, word))
}
