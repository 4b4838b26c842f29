//! The first `OpTypePointer` of the types and values for a pointee and storage class
//! (what spirv-opt's `FindPointerToType` scans the section for), in amortized constant
//! time: a pass fixing n pointers asked for it n times, each a scan of the section.
//!
//! Why the answer is the scan's: the index covers a prefix of the section, from its
//! first instruction to `scanned` (the last one looked at), and holds, for each
//! (pointee, class) met there, the prefix's first pointer type to it. Only an append
//! to the section leaves that prefix as it was; every other edit of the section (an
//! instruction in it handed out to change, one linked before another of it, one
//! unlinked or killed) bumps [`Ir::types_values_edits`], and an index made under
//! another count is dropped before it is read. So a key in the index names the
//! section's first match, and a key not in it can only be matched after `scanned`,
//! where the scan resumes (stopping at the match): between edits, no instruction is
//! looked at twice.

use super::{Inst, Ir, NONE, Section, section_index};
use crate::analysis::IdHashMap;
use spirv_core::spv::Opcode as O;

/// The scanned prefix of the types and values and its first pointer types.
#[derive(Debug, Clone)]
pub(crate) struct PointerIndex {
    /// The [`Ir::types_values_edits`] the index was made under.
    edits: u64,
    /// The last instruction scanned, [`NONE`] before the first.
    scanned: u32,
    /// (pointee, storage class) to the prefix's first pointer type.
    first: IdHashMap<(u32, u32), Inst>,
}

impl Default for PointerIndex {
    fn default() -> Self {
        PointerIndex {
            edits: 0,
            scanned: NONE,
            first: IdHashMap::default(),
        }
    }
}

impl Ir {
    /// The first `OpTypePointer` of the types and values to `pointee` in `storage`.
    pub(crate) fn first_pointer_type(&mut self, pointee: u32, storage: u32) -> Option<Inst> {
        let Ir {
            nodes,
            sections,
            pointer_index: index,
            types_values_edits,
            ..
        } = self;
        if index.edits != *types_values_edits {
            *index = PointerIndex {
                edits: *types_values_edits,
                ..PointerIndex::default()
            };
        }
        let key = (pointee, storage);
        if let Some(&i) = index.first.get(&key) {
            return Some(i);
        }
        let mut at = if index.scanned == NONE {
            sections[section_index(Section::TypesValues)].first
        } else {
            nodes[index.scanned as usize].next
        };
        while at != NONE {
            index.scanned = at;
            let d = &nodes[at as usize].data;
            if d.opcode() == O::TypePointer {
                let k = (d.word(2), d.word(1));
                // Absent until now, `key` has no earlier match.
                index.first.entry(k).or_insert(Inst(at));
                if k == key {
                    return Some(Inst(at));
                }
            }
            at = nodes[at as usize].next;
        }
        None
    }
}
