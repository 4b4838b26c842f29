//! Editing modules: an [`Editor`] collects edits against a read [`Module`] (remove,
//! replace, insert before or after, append in the right section, map ids) and applies
//! them in one linear pass that produces the next module; analyses ([`DefIndex`],
//! [`UseIndex`], [`Annotations`]) are built on demand from a borrowed module. spirv-opt's
//! structural passes, plain functions over them, are in the `spirv-opt` crate.
//!
//! ```
//! use spirv_core::edit::{Bound, Editor};
//! use spirv_core::{spv, spv::inst, Builder, Id};
//!
//! let mut b = Builder::new((1, 0));
//! let (int, uint) = (b.id()?, b.id()?);
//! b.push(inst::TypeInt { result_id: int, width: 32, signedness: 1 })?;
//! b.push(inst::Name { target: int, name: "int".into() })?;
//! b.push(inst::TypeInt { result_id: uint, width: 32, signedness: 0 })?;
//! let module = b.build()?;
//!
//! let mut e = Editor::new(&module);
//! let name = module.instructions().find(|i| i.opcode() == spv::Opcode::Name).unwrap();
//! e.remove(name.index().into());
//! let float = e.new_id()?;
//! e.push(inst::TypeFloat { result_id: float, width: 32, floating_point_encoding: None })?;
//! let edited = e.apply(Bound::Tight)?;
//! let ops: Vec<_> = edited.instructions().map(|i| i.opcode()).collect();
//! assert_eq!(ops, [spv::Opcode::TypeInt, spv::Opcode::TypeInt, spv::Opcode::TypeFloat]);
//! assert_eq!(edited.header().bound, 4);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! **Handles.** An instruction is named by an [`InstId`]: the index of an instruction
//! of the module the editor started from, or a handle the editor gave an instruction it
//! added. Edits never move other instructions' handles, so a pass can find what to
//! change first and change it after, in any order.
//!
//! **Debug lines.** `OpLine` and `OpNoLine` belong to the instruction they precede, as
//! spirv-opt models them: removing an instruction removes the lines it carries, and the
//! line in effect passes to the instructions after it in its block (written again before
//! the next one kept, if it was not already in effect). The writer drops a line equal to
//! the one in effect, lines between a merge instruction and its branch, and `OpNop`, as
//! spirv-opt's writer does; a module spirv-opt writes back unchanged is written back
//! unchanged.
//!
//! **Cost.** [`Editor::apply`] walks the module once to write it and reads the result
//! once (leniently, with the original's extended sets); no analysis is maintained
//! across edits. Memory follows the module and the edits.

mod finish;
mod globals;
mod index;
mod patch;
#[doc(hidden)]
pub mod support;
mod write;

pub use index::{Annotations, DefIndex, UseIndex};

use crate::__private::Vec;
use crate::error::{DecodeError, EncodeError};
use crate::module::{Module, Section};
use crate::spv;
use crate::types::Id;
use alloc::collections::BTreeMap;
use core::fmt;

/// Why an edit could not be made or applied.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum EditError {
    /// A typed instruction that does not encode.
    Encode(EncodeError),
    /// Words that are not one instruction: empty, or a word count that is not their
    /// length.
    NotOneInstruction,
    /// [`Editor::push`] of an instruction that belongs inside a function.
    NotModuleLevel(spv::Opcode),
    /// No id left below `u32::MAX`.
    IdOverflow,
    /// A pass that reads numbers from text (`--set-spec-const-default-value`) run
    /// without a number parser (the `spirv-opt` crate's `NumberParser`).
    NeedsNumberParser,
    /// The edited module does not read, or the ids of one of its instructions cannot
    /// be found to rename them.
    Decode(DecodeError),
}

impl fmt::Display for EditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EditError::Encode(e) => write!(f, "{e}"),
            EditError::NotOneInstruction => f.write_str("the words are not one instruction"),
            EditError::NotModuleLevel(op) => {
                write!(f, "{op:?} belongs inside a function, not at module level")
            }
            EditError::IdOverflow => f.write_str("no id is left below 2^32 - 1"),
            EditError::NeedsNumberParser => f.write_str(
                "this pass reads numbers from text: run it with a number parser (spirv_asm::opt has spirv-as's)",
            ),
            EditError::Decode(e) => write!(f, "{e}"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for EditError {}

impl From<DecodeError> for EditError {
    fn from(e: DecodeError) -> Self {
        EditError::Decode(e)
    }
}

/// A handle to an instruction of an [`Editor`] (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct InstId(pub u32);

impl From<usize> for InstId {
    /// The handle of the instruction at this index of the module being edited.
    fn from(index: usize) -> Self {
        InstId(u32::try_from(index).unwrap_or(u32::MAX))
    }
}

/// What [`Editor::apply`] makes of the header's bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Bound {
    /// The bound as it was (raised by [`Editor::new_id`] and to cover every id used).
    Keep,
    /// The largest id used plus one: spirv-opt's rule after any pass that changed the
    /// module.
    Tight,
    /// Every id renumbered 1, 2, … in order of first mention (spirv-opt's
    /// `--compact-ids`), the bound one above the last.
    Compact,
}

/// An instruction the editor added, and where it goes.
#[derive(Debug, Clone)]
struct Added {
    /// Its words, leading word included, in [`Editor::arena`].
    start: u32,
    len: u32,
}

/// Edits against a module, applied together by [`Editor::apply`].
#[derive(Debug, Clone)]
pub struct Editor<'m> {
    module: &'m Module,
    /// Per instruction of `module`: removed.
    removed: Vec<bool>,
    /// Replacements of instructions of `module`, by index: an entry of `added`.
    replaced: BTreeMap<u32, u32>,
    /// Instructions the editor added (as insertions, appends or replacements).
    added: Vec<Added>,
    /// Their removal, by entry.
    added_removed: Vec<bool>,
    arena: Vec<u32>,
    before: BTreeMap<InstId, Vec<InstId>>,
    after: BTreeMap<InstId, Vec<InstId>>,
    /// Added instructions at the end of each section, in order.
    appended: [Vec<InstId>; Section::COUNT],
    /// Ids to rename in the instructions of `module`.
    ids: BTreeMap<u32, u32>,
    bound: u32,
    /// Types and constants by their operands, for find-or-add (built on first use).
    globals: Option<BTreeMap<Vec<u32>, u32>>,
}

impl<'m> Editor<'m> {
    /// An editor with no edits yet.
    pub fn new(module: &'m Module) -> Self {
        Editor {
            module,
            removed: alloc::vec![false; module.len()],
            replaced: BTreeMap::new(),
            added: Vec::new(),
            added_removed: Vec::new(),
            arena: Vec::new(),
            before: BTreeMap::new(),
            after: BTreeMap::new(),
            appended: Default::default(),
            ids: BTreeMap::new(),
            bound: module.header().bound,
            globals: None,
        }
    }

    /// The module being edited.
    pub fn module(&self) -> &'m Module {
        self.module
    }

    /// A fresh id: the bound, which grows by one.
    ///
    /// # Errors
    /// The bound has reached `u32::MAX`.
    pub fn new_id(&mut self) -> Result<Id, EditError> {
        if self.bound == u32::MAX {
            return Err(EditError::IdOverflow);
        }
        self.bound = self.bound.max(1);
        self.bound += 1;
        Ok(Id(self.bound - 1))
    }

    fn original(&self, h: InstId) -> Option<usize> {
        let i = h.0 as usize;
        (i < self.module.len()).then_some(i)
    }

    fn added_entry(&self, h: InstId) -> Option<usize> {
        let i = (h.0 as usize).checked_sub(self.module.len())?;
        (i < self.added.len()).then_some(i)
    }

    /// Stores an instruction's words; returns its handle.
    fn store(&mut self, words: &[u32]) -> Result<InstId, EditError> {
        check_words(words)?;
        let start = self.arena.len() as u32;
        self.arena.extend_from_slice(words);
        self.added.push(Added {
            start,
            len: words.len() as u32,
        });
        self.added_removed.push(false);
        Ok(InstId((self.module.len() + self.added.len() - 1) as u32))
    }

    fn encode(inst: impl Into<spv::Instruction>) -> Result<Vec<u32>, EditError> {
        let mut words = Vec::new();
        inst.into().encode(&mut words).map_err(EditError::Encode)?;
        Ok(words)
    }

    /// Removes an instruction (and the debug lines it carries).
    pub fn remove(&mut self, h: InstId) {
        if let Some(i) = self.original(h) {
            self.removed[i] = true;
        } else if let Some(i) = self.added_entry(h) {
            self.added_removed[i] = true;
        }
    }

    /// Whether an instruction is removed.
    pub fn is_removed(&self, h: InstId) -> bool {
        match (self.original(h), self.added_entry(h)) {
            (Some(i), _) => self.removed[i],
            (_, Some(i)) => self.added_removed[i],
            _ => true,
        }
    }

    /// Replaces an instruction of the module with `inst`, which keeps its place and its
    /// debug lines. Ids renamed with [`Editor::map_id`] are not renamed in it. An
    /// instruction replaced by `OpLine` or `OpNoLine` is a line like the module's own:
    /// it belongs to the instruction after it. One replaced by `OpNop` is a killed line
    /// (spirv-opt's `KillInst` of a line it attached): it belongs to the instruction after
    /// it too, ends the line in effect there, and is not written.
    ///
    /// # Errors
    /// `inst` does not encode (an operand list too long for one instruction).
    pub fn replace(
        &mut self,
        h: InstId,
        inst: impl Into<spv::Instruction>,
    ) -> Result<(), EditError> {
        let words = Self::encode(inst)?;
        self.replace_words(h, &words)
    }

    /// [`Editor::replace`] with the instruction's words (leading word included), for
    /// instructions no grammar describes.
    ///
    /// # Errors
    /// The words are not one instruction (a word count that does not match).
    pub fn replace_words(&mut self, h: InstId, words: &[u32]) -> Result<(), EditError> {
        let new = self.store(words)?;
        match (self.original(h), self.added_entry(h)) {
            (Some(i), _) => {
                self.replaced
                    .insert(i as u32, new.0 - self.module.len() as u32);
            }
            (_, Some(i)) => self.added[i] = self.added[new.0 as usize - self.module.len()].clone(),
            _ => {}
        }
        Ok(())
    }

    /// Inserts `inst` before the instruction `h`; returns the new instruction's handle.
    ///
    /// # Errors
    /// `inst` does not encode.
    pub fn insert_before(
        &mut self,
        h: InstId,
        inst: impl Into<spv::Instruction>,
    ) -> Result<InstId, EditError> {
        let words = Self::encode(inst)?;
        self.insert_words_before(h, &words)
    }

    /// Inserts `inst` after the instruction `h`; returns the new instruction's handle.
    ///
    /// # Errors
    /// `inst` does not encode.
    pub fn insert_after(
        &mut self,
        h: InstId,
        inst: impl Into<spv::Instruction>,
    ) -> Result<InstId, EditError> {
        let words = Self::encode(inst)?;
        self.insert_words_after(h, &words)
    }

    /// [`Editor::insert_before`] with raw words.
    ///
    /// # Errors
    /// The words are not one instruction.
    pub fn insert_words_before(&mut self, h: InstId, words: &[u32]) -> Result<InstId, EditError> {
        let new = self.store(words)?;
        self.before.entry(h).or_default().push(new);
        Ok(new)
    }

    /// [`Editor::insert_after`] with raw words.
    ///
    /// # Errors
    /// The words are not one instruction.
    pub fn insert_words_after(&mut self, h: InstId, words: &[u32]) -> Result<InstId, EditError> {
        let new = self.store(words)?;
        let list = self.after.entry(h).or_default();
        // Several insertions after one instruction come out in the order made.
        list.push(new);
        Ok(new)
    }

    /// Appends a module-level instruction at the end of its logical-layout section (as
    /// [`Builder`](crate::Builder) places them); returns its handle.
    ///
    /// # Errors
    /// `inst` does not encode, or it belongs only inside a function.
    pub fn push(&mut self, inst: impl Into<spv::Instruction>) -> Result<InstId, EditError> {
        let words = Self::encode(inst)?;
        self.push_words(&words)
    }

    /// [`Editor::push`] with raw words.
    ///
    /// # Errors
    /// The words are not one instruction, or it belongs only inside a function.
    pub fn push_words(&mut self, words: &[u32]) -> Result<InstId, EditError> {
        let opcode = spv::Opcode(words.first().map_or(0, |w| *w as u16));
        let Some(section) = Section::of(opcode, opcode.info()) else {
            return Err(EditError::NotModuleLevel(opcode));
        };
        let new = self.store(words)?;
        self.appended[section as usize].push(new);
        Ok(new)
    }

    /// Renames id `from` to `to` wherever the module's instructions use or define it
    /// (replacing every use, or renumbering); added and replacing instructions are
    /// written as given.
    pub fn map_id(&mut self, from: Id, to: Id) {
        self.ids.insert(from.0, to.0);
    }

    /// Whether anything was edited.
    pub fn is_changed(&self) -> bool {
        self.removed.iter().any(|&r| r)
            || !self.replaced.is_empty()
            || !self.added.is_empty()
            || self.ids.iter().any(|(a, b)| a != b)
    }

    /// Writes the edited module and reads it back (with the options and extended sets
    /// the original was read with), with the bound `bound` asks for. The module's own
    /// unchanged instructions are not walked again on the way back, and when the only
    /// edits are replacements of the same length and kind in a module the editor
    /// wrote, they are made in a copy, with no write and no read.
    ///
    /// # Errors
    /// An instruction of the module whose ids cannot be found (when ids are renamed or
    /// renumbered), or an edited module that does not read (two definitions of an id,
    /// say).
    pub fn apply(&self, bound: Bound) -> Result<Module, EditError> {
        if let Some(m) = self.apply_patched(bound)? {
            return Ok(m);
        }
        let written = write::write(self)?;
        let mut m = self
            .module
            .reread_trusted(written.words, &written.untrusted)?;
        m.mark_written();
        match bound {
            Bound::Keep => {
                let needed = match self.module.id_ceiling() {
                    // The module's own ids are below its bound, and so below the
                    // editor's: only the added instructions' and the copies' count.
                    Some(c) if c <= self.bound && self.ids.is_empty() => {
                        let mut max = 0;
                        for &i in &written.untrusted {
                            if let Some(inst) = m.instruction(i as usize) {
                                inst.visit_ids(|_, id| max = max.max(id.0))?;
                            }
                        }
                        max.saturating_add(1).max(written.next_id)
                    }
                    _ => m.max_id()?.saturating_add(1),
                };
                set_bound(&mut m, self.bound.max(needed))?;
            }
            Bound::Tight => tighten_bound(&mut m)?,
            Bound::Compact => {
                m.compact_ids()?;
            }
        }
        Ok(m)
    }
}

/// Sets the bound of `m` to its largest id plus one.
fn tighten_bound(m: &mut Module) -> Result<(), EditError> {
    let tight = m.max_id()?.saturating_add(1);
    set_bound(m, tight)
}

/// Sets a bound computed to be above every id of `m` (unless an id is 2^32 - 1, which no
/// bound is above: the error names it).
fn set_bound(m: &mut Module, bound: u32) -> Result<(), EditError> {
    if bound == u32::MAX {
        m.set_bound(bound)?;
    } else {
        m.set_bound_above_ids(bound);
    }
    Ok(())
}

/// Checks that `words` are one instruction: a leading word whose count is their length.
fn check_words(words: &[u32]) -> Result<(), EditError> {
    match words.first() {
        Some(&w) if (w >> 16) as usize == words.len() => Ok(()),
        _ => Err(EditError::NotOneInstruction),
    }
}
