//! Finishing an edit as words: what [`Editor::apply`] makes, without reading it back
//! as a module, for a caller that only writes the result out (`spirv-asm opt`'s last
//! pass). The id facts of the edited module are the original's, less those of the
//! instructions that went, plus those of the ones written in their place; they are
//! what the bound needs to find every id.

use super::{Bound, EditError, Editor, write};
use crate::__private::Vec;
use crate::binary::{RawInstRef, RawInstructions};
use crate::error::{DecodeError, DecodeErrorKind};
use crate::grammar::InstructionInfo;
use crate::module::{Module, observe_lenient, summarize_lenient};
use crate::spv;
use crate::types::Id;
use crate::walk::{self, ExtInstRegistry, IdInfo, Ids};
use alloc::borrow::Cow;

impl Editor<'_> {
    /// The words [`Editor::apply`] would make of the edits, header included (as
    /// [`Module::into_words`] returns them), without reading them back as a module (no
    /// instruction index and, mostly, no id table for the result), for a caller that
    /// writes the result out and does not look at it again.
    ///
    /// The instructions added or replacing others are checked as `apply` checks them (an
    /// id defined twice, operands that do not lay out), with the id facts of the whole
    /// edited module rather than of the instructions before them; the bound is `apply`'s.
    ///
    /// ```
    /// use spirv_core::edit::{Bound, Editor};
    /// use spirv_core::{spv, spv::inst, Builder};
    ///
    /// let mut b = Builder::new((1, 0));
    /// let int = b.id()?;
    /// b.push(inst::TypeInt { result_id: int, width: 32, signedness: 1 })?;
    /// b.push(inst::Name { target: int, name: "int".into() })?;
    /// let module = b.build()?;
    ///
    /// let mut e = Editor::new(&module);
    /// let name = module.instructions().find(|i| i.opcode() == spv::Opcode::Name).unwrap();
    /// e.remove(name.index().into());
    /// assert_eq!(e.finish(Bound::Tight)?, e.apply(Bound::Tight)?.into_words());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// As [`Editor::apply`].
    pub fn finish(&self, bound: Bound) -> Result<Vec<u32>, EditError> {
        let m = self.module;
        // Renamed ids and renumbering rewrite every instruction, and a strict read
        // checks more than the facts: those go through the module.
        if !m.is_lenient() || !self.ids.is_empty() || bound == Bound::Compact {
            return self.apply(bound).map(Module::into_words);
        }
        if let Some(patched) = self.apply_patched(bound)? {
            return Ok(patched.into_words());
        }
        let written = write::write(self)?;
        let mut words = written.words;
        let default_registry;
        let registry = match m.registry() {
            Some(r) => r,
            None => {
                default_registry = ExtInstRegistry::default();
                &default_registry
            }
        };
        let ids = self.edited_ids(&words, &written.untrusted, registry)?;
        // As `apply`: below the module's ceiling, only the ids of the instructions
        // written anew can raise the bound; else every id counts.
        let only_new = m.id_ceiling().is_some_and(|c| c <= self.bound) && bound == Bound::Keep;
        let max = max_id(&words, &ids, only_new.then_some(&written.untrusted[..]))?;
        let needed = max.saturating_add(1);
        let value = match bound {
            Bound::Keep if only_new => self.bound.max(needed.max(written.next_id)),
            Bound::Keep => self.bound.max(needed),
            _ => needed,
        };
        // No bound is above an id of 2^32 - 1: `Module::set_bound`'s error.
        if let Some((at, index)) = (value == u32::MAX)
            .then(|| first_id_at_least(&words, &ids, u32::MAX))
            .transpose()?
            .flatten()
        {
            return Err(DecodeError::new(
                DecodeErrorKind::IdOutOfBounds {
                    id: u32::MAX,
                    bound: u32::MAX,
                },
                at,
                index,
            )
            .into());
        }
        if let Some(slot) = words.get_mut(3) {
            *slot = value;
        }
        Ok(words)
    }

    /// The id facts of the written module `words`: the module's, less those the removed
    /// and replaced instructions defined, plus those the instructions at the output
    /// indices `untrusted` define (which are checked as a read checks them). When the
    /// facts that go are none a walk reads and the instructions written anew define
    /// nothing, the module's own facts serve as they are.
    fn edited_ids(
        &self,
        words: &[u32],
        untrusted: &[u32],
        registry: &ExtInstRegistry,
    ) -> Result<Cow<'_, Ids>, DecodeError> {
        let m = self.module;
        let gone: Vec<u32> = self
            .removed
            .iter()
            .enumerate()
            .filter_map(|(i, &r)| r.then_some(i))
            .chain(self.replaced.keys().map(|&i| i as usize))
            .filter_map(|i| m.instruction(i).and_then(|x| x.result_id()))
            .map(|id| id.0)
            .collect();
        // A walk reads imports, number types and the types of values.
        let unread = |id: u32| match m.ids().get(Id(id)) {
            IdInfo::Undefined | IdInfo::Other => true,
            IdInfo::Value(t) => m.ids().number_type(t).is_none(),
            _ => false,
        };
        if gone.iter().all(|&id| unread(id)) {
            let mut defines = false;
            each_listed(words, untrusted, |raw, info| {
                let summary = summarize_lenient(m.ids(), info, raw.operands)
                    .map_err(|(kind, at)| DecodeError::new(kind, raw.offset + 1 + at, raw.index))?;
                defines |= summary.is_some_and(|s| s.result_id.is_some());
                Ok(())
            })?;
            if !defines {
                return Ok(Cow::Borrowed(m.ids()));
            }
        }
        let mut ids = m.ids().clone();
        for id in gone {
            ids.set(id, IdInfo::Undefined);
        }
        each_listed(words, untrusted, |raw, info| {
            observe_lenient(&mut ids, registry, info, raw.opcode, raw.operands)
                .map_err(|(kind, at)| DecodeError::new(kind, raw.offset + 1 + at, raw.index))
        })?;
        Ok(Cow::Owned(ids))
    }
}

/// Calls `f` on each instruction of the module `words` at the (ascending) indices
/// `listed` that the grammar knows.
fn each_listed(
    words: &[u32],
    listed: &[u32],
    mut f: impl FnMut(&RawInstRef<'_>, &'static InstructionInfo) -> Result<(), DecodeError>,
) -> Result<(), DecodeError> {
    let (_, iter) = RawInstructions::module(words)?;
    let mut pending = listed.iter().copied().peekable();
    for raw in iter {
        if pending.peek().is_none() {
            break;
        }
        let raw = raw?;
        if pending.next_if_eq(&(raw.index as u32)).is_none() {
            continue;
        }
        if let Some(info) = spv::GRAMMAR.instruction(u32::from(raw.opcode)) {
            f(&raw, info)?;
        }
    }
    Ok(())
}

/// The largest id of the module `words` with facts `ids`; with `only`, of the
/// instructions at those (ascending) indices only.
fn max_id(words: &[u32], ids: &Ids, only: Option<&[u32]>) -> Result<u32, DecodeError> {
    let mut max = 0;
    let (_, iter) = RawInstructions::module(words)?;
    let mut only = only.map(|o| o.iter().copied().peekable());
    for raw in iter {
        let raw = raw?;
        if let Some(o) = only.as_mut() {
            if o.peek().is_none() {
                break;
            }
            if o.next_if_eq(&(raw.index as u32)).is_none() {
                continue;
            }
        }
        each_id(&raw, ids, &mut |id, _| max = max.max(id))?;
    }
    Ok(max)
}

/// The word offset and instruction index of the first id not below `bound`, if any.
fn first_id_at_least(
    words: &[u32],
    ids: &Ids,
    bound: u32,
) -> Result<Option<(usize, usize)>, DecodeError> {
    let (_, iter) = RawInstructions::module(words)?;
    for raw in iter {
        let raw = raw?;
        let mut found = None;
        each_id(&raw, ids, &mut |id, at| {
            if id >= bound && found.is_none() {
                found = Some(at);
            }
        })?;
        if let Some(at) = found {
            return Ok(Some((raw.offset + 1 + at, raw.index)));
        }
    }
    Ok(None)
}

/// Calls `f(id, word)` for each id operand of `raw`, as [`Module`]'s id visitors find
/// them.
fn each_id(
    raw: &RawInstRef<'_>,
    ids: &Ids,
    f: &mut impl FnMut(u32, usize),
) -> Result<(), DecodeError> {
    let Some(info) = spv::GRAMMAR.instruction(u32::from(raw.opcode)) else {
        return Err(DecodeError::new(
            DecodeErrorKind::UnknownOpcode {
                opcode: u32::from(raw.opcode),
            },
            raw.offset,
            raw.index,
        ));
    };
    let ops = raw.operands;
    walk::id_words(info, raw.opcode, ops, ids, &mut |_, at| f(ops[at], at))
        .map_err(|(kind, at)| DecodeError::new(kind, raw.offset + 1 + at, raw.index))
}
