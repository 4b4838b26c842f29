//! What the memory pass asks beyond [`Query`]: `TracePointer` (back through access
//! chains and copies to a base pointer), and the grammar's names of storage classes.

use super::Query;
use crate::module::InstRef;
use crate::spv::{self, Opcode as O};

/// `TracePointer`: back through access chains and copies to the base pointer.
pub(super) fn trace_pointer<'a>(q: &Query<'a>, inst: InstRef<'a>) -> Option<InstRef<'a>> {
    let mut at = inst;
    // Each step goes to an earlier definition, so the module's length bounds it.
    for _ in 0..=q.module.len() {
        match at.opcode() {
            O::AccessChain
            | O::InBoundsAccessChain
            | O::PtrAccessChain
            | O::InBoundsPtrAccessChain
            | O::CopyObject => at = q.def(at.words().get(3).copied().unwrap_or(0))?,
            _ => return Some(at),
        }
    }
    None
}

/// The grammar's name of a storage class (`lookupOperandName`).
pub(super) fn storage_class_name(sc: u32) -> &'static str {
    spv::kinds::StorageClass
        .enumerant(sc)
        .map_or("Unknown", |e| e.name)
}
