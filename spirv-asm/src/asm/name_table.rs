//! The assembler's table of `%name`s: the id of each name, found by the hash of its
//! bytes in the text. A slot is 8 bytes (32 bits of the name's hash and the index of
//! its entry), an entry 16 (where the name is in the text, and its id): a text of
//! 100,000s of names keeps a table a few times smaller than a map of slices, and
//! growing it moves only the slots, whose hash bits say where each goes.

use crate::fxhash::FxBuildHasher;

/// Names and their ids.
pub(super) struct NameTable {
    /// 0 for an empty slot, else the name's 32 hash bits above `entry + 1`.
    slots: Vec<u64>,
    entries: Vec<Entry>,
    hasher: FxBuildHasher,
}

/// A name: its bytes in the text, and its id.
#[derive(Clone, Copy)]
struct Entry {
    start: usize,
    len: u32,
    id: u32,
}

/// Where a name that is not in the table goes.
pub(super) struct Vacant {
    slot: usize,
    tag: u32,
}

impl NameTable {
    /// A table for a text of `text_len` bytes, with room for a name every 85 bytes
    /// before it grows (most texts name far fewer ids: the rest are numbers).
    pub(super) fn new(text_len: usize) -> Self {
        let slots = (text_len / 64).max(64).next_power_of_two();
        NameTable {
            slots: vec![0; slots],
            entries: Vec::new(),
            hasher: FxBuildHasher::default(),
        }
    }

    /// The id of `name` (`text[start..start + name.len()]`), or where it would go.
    pub(super) fn find(&self, text: &[u8], name: &[u8]) -> Result<u32, Vacant> {
        let tag = (self.hasher.hash_bytes(name) >> 32) as u32;
        let mask = self.slots.len() - 1;
        let mut at = tag as usize & mask;
        loop {
            let slot = self.slots[at];
            if slot == 0 {
                return Err(Vacant { slot: at, tag });
            }
            if (slot >> 32) as u32 == tag {
                let e = self.entries[(slot as u32 - 1) as usize];
                if text.get(e.start..e.start + e.len as usize) == Some(name) {
                    return Ok(e.id);
                }
            }
            at = (at + 1) & mask;
        }
    }

    /// Adds the name at `start..start + len` of the text with `id`, where `find` said.
    pub(super) fn insert(&mut self, vacant: Vacant, start: usize, len: usize, id: u32) {
        self.entries.push(Entry {
            start,
            len: len as u32,
            id,
        });
        let slot = (u64::from(vacant.tag) << 32) | self.entries.len() as u64;
        self.slots[vacant.slot] = slot;
        // At most three quarters full.
        if self.entries.len() * 4 > self.slots.len() * 3 {
            self.grow();
        }
    }

    fn grow(&mut self) {
        let len = self.slots.len() * 2;
        let old = std::mem::replace(&mut self.slots, vec![0; len]);
        let mask = self.slots.len() - 1;
        for slot in old.into_iter().filter(|&s| s != 0) {
            let mut at = (slot >> 32) as usize & mask;
            while self.slots[at] != 0 {
                at = (at + 1) & mask;
            }
            self.slots[at] = slot;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::NameTable;

    /// Names stay found as the table grows past its first size.
    #[test]
    fn names_are_found_after_growing() {
        let text: String = (0..5000).map(|i| format!("%n{i} ")).collect();
        let text = text.as_bytes();
        let mut table = NameTable::new(64);
        let mut at = 0;
        let mut spans = Vec::new();
        for id in 1..=5000u32 {
            let end = at + text[at..].iter().position(|&b| b == b' ').unwrap_or(0);
            let name = &text[at + 1..end];
            match table.find(text, name) {
                Ok(_) => panic!("{id} found before it was added"),
                Err(v) => table.insert(v, at + 1, name.len(), id),
            }
            spans.push((at + 1, end, id));
            at = end + 1;
        }
        for (start, end, id) in spans {
            assert_eq!(table.find(text, &text[start..end]).ok(), Some(id));
        }
    }
}
