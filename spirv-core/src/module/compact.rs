//! Renumbering a module's ids in place, as spirv-opt's `--compact-ids` numbers them.

use super::{InstRef, Module, Section};
use crate::__private::Vec;
use crate::error::DecodeError;
use alloc::collections::BTreeMap;

impl Module {
    /// Renumbers every id 1, 2, … in order of first mention (spirv-opt's
    /// `--compact-ids`) and sets the bound one above the last. The order is spirv-opt's:
    /// the module's, except that the global instructions of the debug-info sets
    /// (`DebugInfo`, `OpenCL.DebugInfo.100`, `NonSemantic.Shader.DebugInfo.100`) come
    /// before the decorations, where spirv-opt keeps them. Returns whether anything
    /// changed (an id, or the bound).
    ///
    /// # Errors
    /// The ids of some instruction cannot all be found (see [`Module::remap_ids`]); the
    /// module is then unchanged.
    pub(crate) fn compact_ids(&mut self) -> Result<bool, DecodeError> {
        use crate::spirv_tools::SetKind;
        let sets: alloc::collections::BTreeMap<u32, SetKind> = self
            .section(Section::ExtInstImport)
            .filter_map(|i| {
                let name = crate::codec::string_operand(i.operands().get(1..).unwrap_or(&[]));
                Some((i.result_id()?.0, SetKind::of(&name)))
            })
            .collect();
        let debug_info = |i: &InstRef<'_>| {
            matches!(
                i.opcode(),
                crate::spv::Opcode::ExtInst | crate::spv::Opcode::ExtInstWithForwardRefsKHR
            ) && i
                .operands()
                .get(2)
                .and_then(|s| sets.get(s))
                .is_some_and(|k| k.is_debug_info())
        };
        let globals = self.section_range(Section::Global);
        let annotations = self.section_range(Section::Annotation).start;
        let moved: Vec<usize> = globals
            .clone()
            .filter(|&i| self.instruction(i).is_some_and(|x| debug_info(&x)))
            .collect();
        let order = (0..annotations)
            .chain(moved.iter().copied())
            .chain((annotations..self.len()).filter(|i| moved.binary_search(i).is_err()));
        // First every id's new number, in order of first mention, and where each id
        // operand is (a word index: modules are below 2^32 words), so that an
        // instruction whose ids cannot be found leaves the module as it was; then the
        // words are rewritten in place.
        let mut renumber = Renumbering::new(self.words.len());
        let mut positions: Vec<u32> = Vec::with_capacity(self.words.len() / 2);
        for index in order {
            if let Some(inst) = self.instruction(index) {
                let (ops, base) = (inst.operands(), inst.offset() + 1);
                inst.visit_id_words(|_, w| {
                    renumber.assign(ops[w]);
                    positions.push((base + w) as u32);
                })?;
            }
        }
        let next = renumber.next;
        let mut changed = false;
        for p in positions {
            let word = &mut self.words[p as usize];
            let new = renumber.get(*word).unwrap_or(*word);
            changed |= new != *word;
            *word = new;
        }
        self.words[3] = next + 1;
        changed |= self.header.bound != next + 1;
        // Only ids changed: the layout stands, and the id facts follow the new numbers.
        self.ids = self.ids.renumbered(|old| renumber.get(old));
        self.header.bound = next + 1;
        self.id_ceiling = Some(next + 1);
        Ok(changed)
    }
}

/// Old ids to new, numbered 1, 2, … as they are first assigned. Memory follows the
/// module: ids below a cap tied to its length are indexed, larger ones kept in a map.
pub struct Renumbering {
    /// The new id of each small old id, 0 for none yet.
    dense: Vec<u32>,
    sparse: BTreeMap<u32, u32>,
    cap: usize,
    /// The last id given.
    next: u32,
}

impl Renumbering {
    /// A renumbering of a module of `words` words.
    pub fn new(words: usize) -> Self {
        Renumbering {
            dense: Vec::new(),
            sparse: BTreeMap::new(),
            cap: words.saturating_mul(2).max(1024),
            next: 0,
        }
    }

    /// Gives `old` the next new id, unless it has one.
    #[inline]
    fn assign(&mut self, old: u32) {
        let i = old as usize;
        if i < self.cap {
            if i >= self.dense.len() {
                let grow = (i + 1).max(self.dense.len() * 2).min(self.cap);
                self.dense.resize(grow, 0);
            }
            if self.dense[i] == 0 {
                self.next += 1;
                self.dense[i] = self.next;
            }
        } else if let alloc::collections::btree_map::Entry::Vacant(e) = self.sparse.entry(old) {
            self.next += 1;
            e.insert(self.next);
        }
    }

    /// The new id of `old`, given now if it has none.
    #[inline]
    pub fn number(&mut self, old: u32) -> u32 {
        if let Some(slot) = self.dense.get_mut(old as usize) {
            if *slot == 0 {
                self.next += 1;
                *slot = self.next;
            }
            return *slot;
        }
        self.number_beyond(old)
    }

    /// [`Renumbering::number`] of an id beyond the dense table.
    #[cold]
    #[inline(never)]
    fn number_beyond(&mut self, old: u32) -> u32 {
        self.assign(old);
        self.get(old).unwrap_or(old)
    }

    /// Makes room for the old ids below `bound` (as far as they are indexed).
    pub fn reserve_below(&mut self, bound: u32) {
        let n = (bound as usize).min(self.cap);
        if n > self.dense.len() {
            self.dense.resize(n, 0);
        }
    }

    /// The largest old id numbered (0 for none), and whether any was given a number
    /// other than its own.
    pub fn largest_and_moved(&self) -> (u32, bool) {
        let (mut largest, mut moved) = (0, false);
        for (old, &new) in self.dense.iter().enumerate() {
            if new != 0 {
                largest = old as u32;
                moved |= new != old as u32;
            }
        }
        for (&old, &new) in &self.sparse {
            largest = largest.max(old);
            moved |= new != old;
        }
        (largest, moved)
    }

    /// The last id given (0 for none).
    pub fn last(&self) -> u32 {
        self.next
    }

    /// The new id of `old`, if it has one.
    #[inline]
    fn get(&self, old: u32) -> Option<u32> {
        match self.dense.get(old as usize) {
            Some(&0) => None,
            Some(&new) => Some(new),
            None => self.sparse.get(&old).copied(),
        }
    }
}
