//! Edits made without a write: replacements of the same length and kind in a module the
//! editor wrote overwrite its words in place (in a copy, or in a module its owner is
//! done with), since writing and reading it back would give the same module.

use super::{Bound, EditError, Editor, tighten_bound};
use crate::__private::Vec;
use crate::module::Module;
use crate::spv::Opcode as O;
use crate::walk::{self, WalkOptions};

impl Editor<'_> {
    /// The edited module, made by patching a copy of the module (see
    /// [`Editor::patches`]) and given the bound `bound` asks for, if the edits can be
    /// patched.
    pub(super) fn apply_patched(&self, bound: Bound) -> Result<Option<Module>, EditError> {
        let Some(patches) = self.patches() else {
            return Ok(None);
        };
        let mut m = self.module.clone();
        patch(&mut m, patches, bound)?;
        Ok(Some(m))
    }

    /// The edits as overwrites of instructions in place (index, new words), when that
    /// gives what writing the module would: the module is as the editor writes modules,
    /// and the only edits replace instructions with others of the same length, opcode,
    /// result type and result, whose ids are below the bound and which define nothing the
    /// read records beyond a value's type (no result without a result type) and are not
    /// lines.
    pub(crate) fn patches(&self) -> Option<Vec<(usize, &[u32])>> {
        let m = self.module;
        let plain = m.is_written()
            && m.is_lenient()
            && self.ids.is_empty()
            && self.bound == m.header().bound
            && m.id_ceiling().is_some_and(|c| c <= self.bound)
            && self.added.len() == self.replaced.len()
            && self.before.is_empty()
            && self.after.is_empty()
            && self.appended.iter().all(Vec::is_empty)
            && !self.added_removed.iter().any(|&r| r)
            && !self.removed.iter().any(|&r| r);
        if !plain {
            return None;
        }
        for (&i, &k) in &self.replaced {
            let old = m.instruction(i as usize)?;
            let a = self.added.get(k as usize)?;
            let new = self
                .arena
                .get(a.start as usize..(a.start + a.len) as usize)?;
            let opcode = old.opcode();
            let info = old.info()?;
            let ops = new.get(1..)?;
            let summary = walk::grammar_summary(info, ops);
            let same = new.len() == old.words().len()
                && new[0] == old.words()[0]
                && summary == walk::grammar_summary(info, old.operands());
            // A result without a result type is a definition the read records from the
            // operands (a number type, an import): those are left to the write.
            let defines = summary.result_id.is_some() && summary.result_type.is_none();
            // Lines and extended instructions (which may be lines) are placed by the
            // writer; a switch's literals are sized by its selector.
            let placed = matches!(
                opcode,
                O::Line
                    | O::NoLine
                    | O::Nop
                    | O::ExtInst
                    | O::ExtInstWithForwardRefsKHR
                    | O::Switch
            );
            if !same || defines || placed {
                return None;
            }
            // The replacement reads as the module's instructions do, its ids known.
            let mut ids_ok = true;
            let walked = walk::walk(info, ops, m.ids(), WalkOptions::default(), &mut |p| {
                if p.kind.is_id() && (ops[p.start] == 0 || ops[p.start] >= self.bound) {
                    ids_ok = false;
                }
                ids_ok &= !p.unknown;
            });
            if walked.is_err() || !ids_ok {
                return None;
            }
        }
        let patches = self.replaced.iter().map(|(&i, &k)| {
            let a = &self.added[k as usize];
            let words = &self.arena[a.start as usize..(a.start + a.len) as usize];
            (i as usize, words)
        });
        Some(patches.collect())
    }
}

/// Overwrites instructions of `m` (the module the patches were found for, or a copy) as
/// `patches` says, and gives it the bound `bound` asks for.
///
/// # Errors
/// The bound cannot be found (see [`Editor::apply`]).
pub(crate) fn patch<W: AsRef<[u32]>>(
    m: &mut Module,
    patches: impl IntoIterator<Item = (usize, W)>,
    bound: Bound,
) -> Result<(), EditError> {
    for (i, words) in patches {
        m.patch(i, words.as_ref());
    }
    match bound {
        // The ids are below the module's bound, which is the editor's.
        Bound::Keep => {}
        Bound::Tight => tighten_bound(m)?,
        Bound::Compact => {
            m.compact_ids()?;
        }
    }
    Ok(())
}
