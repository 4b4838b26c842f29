//! The layout of a name index: an open-addressing table of names hashed with FNV-1a and
//! probed linearly, at most half full. The expansion writes these tables into generated
//! code and the CLI builds them at run time for a grammar it loads; spirv-core's
//! `grammar::NameIndex::get` probes them.

/// FNV-1a, 32 bits: the hash `grammar::NameIndex` probes with at run time.
pub fn fnv1a(s: &str) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for b in s.bytes() {
        h ^= u32::from(b);
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

/// The slots of a name index over `names`, in order: a power of two at least twice the
/// count, each 0 (empty) or 1 + the position of a name. A name beyond `u16::MAX - 1`
/// gets the slot value `u16::MAX`, which no probe resolves: grammars are far smaller.
pub fn slots<'a>(names: impl ExactSizeIterator<Item = &'a str>) -> Vec<u16> {
    let size = (names.len() * 2).next_power_of_two().max(2);
    let mut slots = vec![0u16; size];
    for (i, name) in names.enumerate() {
        let mut at = fnv1a(name) as usize & (size - 1);
        while slots[at] != 0 {
            at = (at + 1) & (size - 1);
        }
        slots[at] = u16::try_from(i + 1).unwrap_or(u16::MAX);
    }
    slots
}
