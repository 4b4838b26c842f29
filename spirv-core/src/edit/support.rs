//! What spirv-opt's structural passes (the `spirv-opt` crate) need of the editor's and
//! the reader's internals, as functions: reached through `spirv_core::__private::opt`,
//! not part of the API, and free to change with the passes.

use super::{Bound, EditError, Editor};
use crate::__private::Vec;
use crate::error::DecodeError;
use crate::module::Module;

/// Renumbers every id of `m` 1, 2, … in order of first mention; whether any id moved.
///
/// # Errors
/// An instruction whose ids cannot be found.
pub fn compact_ids(m: &mut Module) -> Result<bool, DecodeError> {
    m.compact_ids()
}

/// Marks `m` as written by the editor (its words are as a write makes them).
pub fn mark_written(m: &mut Module) {
    m.mark_written();
}

/// `words` read with the options `m` was read with.
///
/// # Errors
/// The words do not read.
pub fn reread(m: &Module, words: Vec<u32>) -> Result<Module, DecodeError> {
    m.reread(words)
}

/// Sets the bound of `m` to its largest id plus one.
///
/// # Errors
/// An instruction whose ids cannot be found, or an id no bound is above.
pub fn tighten_bound(m: &mut Module) -> Result<(), EditError> {
    super::tighten_bound(m)
}

/// The edits of `e` as overwrites in place, when that gives what writing would.
pub fn patches<'e>(e: &'e Editor<'_>) -> Option<Vec<(usize, &'e [u32])>> {
    e.patches()
}

/// Overwrites instructions of `m` as `patches` says and gives it the bound `bound`
/// asks for.
///
/// # Errors
/// The bound cannot be found.
pub fn patch<W: AsRef<[u32]>>(
    m: &mut Module,
    patches: impl IntoIterator<Item = (usize, W)>,
    bound: Bound,
) -> Result<(), EditError> {
    super::patch::patch(m, patches, bound)
}

/// Whether writing the edits of `e` would give the module's own words.
///
/// # Errors
/// An instruction whose ids cannot be found.
pub fn unchanged_by_write(e: &Editor<'_>) -> Result<bool, DecodeError> {
    super::write::unchanged_by_write(e)
}

/// The id operands of an instruction whose layout has a fixed shape, found without
/// walking it (`f(class, word)`); false, having called nothing, when it has none.
pub fn shaped_ids(
    info: &'static crate::grammar::InstructionInfo,
    words: &[u32],
    f: &mut impl FnMut(crate::grammar::KindClass, usize),
) -> bool {
    crate::walk::shaped_ids(info, words, f)
}

/// The largest id `m` uses.
///
/// # Errors
/// An instruction whose ids cannot be found.
pub fn max_id(m: &Module) -> Result<u32, DecodeError> {
    m.max_id()
}

/// Reserves the id facts of `ids` for ids below `bound`.
pub fn reserve_ids_below(ids: &mut crate::walk::Ids, bound: u32) {
    ids.reserve_below(bound);
}

/// [`crate::InstRef::visit_ids`], giving each id operand's index among the operand words.
///
/// # Errors
/// The instruction's ids cannot be found.
pub fn visit_id_words(
    inst: &crate::InstRef<'_>,
    f: impl FnMut(crate::grammar::KindClass, usize),
) -> Result<(), DecodeError> {
    inst.visit_id_words(f)
}
