//! Sets of ids as bits, for the passes that look for a few ids among every
//! instruction's operands: an instruction none of whose words (after the first) is in
//! the set names none of them, so it need not be decoded. Literal words may match too:
//! the test only ever lets through more instructions than need a look, never fewer.

use super::{Def, State};
use crate::__private::Vec;

/// Ids below a cap tied to the module's size (as the id tables') get a bit; one above
/// it turns the filter off.
pub(crate) struct IdBits {
    bits: Vec<u64>,
    beyond: bool,
}

impl IdBits {
    /// An empty set.
    pub(crate) fn new(state: &State<'_>) -> Self {
        let cap = (state.bound as usize).min(state.dense_cap());
        IdBits {
            bits: alloc::vec![0; cap.div_ceil(64)],
            beyond: false,
        }
    }

    /// The defined ids whose definitions `keep` accepts.
    pub(crate) fn defined(state: &State<'_>, keep: impl Fn(&Def) -> bool) -> Self {
        let mut set = Self::new(state);
        for (id, def) in state.defs.iter() {
            if keep(def) {
                set.insert(id);
            }
        }
        set
    }

    pub(crate) fn insert(&mut self, id: u32) {
        match self.bits.get_mut(id as usize / 64) {
            Some(w) => *w |= 1 << (id % 64),
            None => self.beyond = true,
        }
    }

    /// Whether `id` may be in the set.
    pub(crate) fn may_hold(&self, id: u32) -> bool {
        self.beyond
            || self
                .bits
                .get(id as usize / 64)
                .is_some_and(|w| w & (1 << (id % 64)) != 0)
    }

    /// Whether an instruction (its first word included) may name an id of the set.
    pub(crate) fn may_name(&self, words: &[u32]) -> bool {
        self.beyond || words.iter().skip(1).any(|&w| self.may_hold(w))
    }
}
