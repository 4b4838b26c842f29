//! Per-id storage whose memory follows the ids a module defines, not the bound its
//! header claims: a slot index for ids below a cap tied to the module's length, a map
//! above it, and the values themselves packed in definition order.

use crate::__private::Vec;
use alloc::collections::BTreeMap;

/// Values of type `T` keyed by id.
#[derive(Debug, Clone)]
pub struct IdTable<T> {
    /// `slot + 1` for each small id, 0 for none.
    dense: Vec<u32>,
    sparse: BTreeMap<u32, u32>,
    values: Vec<(u32, T)>,
}

impl<T> Default for IdTable<T> {
    fn default() -> Self {
        IdTable::new()
    }
}

impl<T> IdTable<T> {
    /// An empty table. Each insertion says up to which id the dense index may grow.
    pub fn new() -> Self {
        IdTable {
            dense: Vec::new(),
            sparse: BTreeMap::new(),
            values: Vec::new(),
        }
    }

    fn slot(&self, id: u32) -> Option<usize> {
        let s = match self.dense.get(id as usize) {
            Some(&s) => s,
            None => *self.sparse.get(&id)?,
        };
        s.checked_sub(1).map(|s| s as usize)
    }

    /// The value of `id`.
    pub fn get(&self, id: u32) -> Option<&T> {
        self.slot(id).map(|s| &self.values[s].1)
    }

    /// The value of `id`, to change it.
    #[cfg(feature = "edit")]
    pub fn get_mut(&mut self, id: u32) -> Option<&mut T> {
        self.slot(id).map(|s| &mut self.values[s].1)
    }

    /// Sets the value of `id`, replacing any earlier one; `dense_cap` bounds the dense
    /// index (ids at or above it go to the map).
    pub fn insert(&mut self, id: u32, value: T, dense_cap: usize) -> &mut T {
        if let Some(s) = self.slot(id) {
            self.values[s].1 = value;
            return &mut self.values[s].1;
        }
        let slot = self.values.len() as u32 + 1;
        if (id as usize) < dense_cap {
            if self.dense.len() <= id as usize {
                self.dense.resize(id as usize + 1, 0);
            }
            self.dense[id as usize] = slot;
        } else {
            self.sparse.insert(id, slot);
        }
        self.values.push((id, value));
        let last = self.values.len() - 1;
        &mut self.values[last].1
    }

    /// Makes room for `n` more values at once (the dense index still grows with the
    /// ids).
    pub fn reserve_exact(&mut self, n: usize) {
        self.values.reserve_exact(n);
    }

    /// Number of ids with a value.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether no id has a value.
    #[cfg(feature = "edit")]
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Every `(id, value)`, in the order the ids were first inserted.
    pub fn iter(&self) -> impl Iterator<Item = (u32, &T)> {
        self.values.iter().map(|(id, v)| (*id, v))
    }
}

// Only reflection fills tables in place.
#[cfg(feature = "reflect")]
impl<T: Default> IdTable<T> {
    /// The value of `id`, inserted as the default first if absent.
    pub fn entry(&mut self, id: u32, dense_cap: usize) -> &mut T {
        match self.slot(id) {
            Some(s) => &mut self.values[s].1,
            None => self.insert(id, T::default(), dense_cap),
        }
    }
}
