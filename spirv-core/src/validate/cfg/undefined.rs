//! The blocks a function refers to but does not define, in the order spirv-val lists
//! them: its `undefined_blocks_` is a libstdc++ `std::unordered_set`, which each first
//! reference inserts into and each definition erases from, so that the order depends
//! on that history; [`ForwardIds`] replays it.

use super::graph::{Graph, NONE, branch_targets, is_terminator};
use crate::__private::Vec;
use crate::spv::Opcode as O;
use crate::validate::Query;
use crate::validate::validation_state::ForwardIds;

/// The ids of the blocks `g` refers to and does not define, in spirv-val's order.
pub(super) fn undefined_blocks(q: &Query<'_>, g: &Graph) -> Vec<u32> {
    // Whether spirv-val's `blocks_` has the block yet.
    let mut known = alloc::vec![false; g.len()];
    let mut set = ForwardIds::default();
    let reference = |id: u32, known: &mut Vec<bool>, set: &mut ForwardIds| {
        if let Some(n) = g.node(q, id) {
            if !core::mem::replace(&mut known[n as usize], true) {
                set.insert(id);
            }
        }
    };
    let mut block = NONE;
    let mut next_label = 0u32;
    for i in g.at as usize + 1..=g.end as usize {
        let Some(inst) = q.module.instruction(i) else {
            continue;
        };
        let w = inst.words();
        match inst.opcode() {
            O::Label => {
                block = next_label;
                next_label += 1;
                if let Some(&id) = w.get(1) {
                    // Defined: known from now on, and no longer undefined.
                    if let Some(n) = g.node(q, id) {
                        known[n as usize] = true;
                    }
                    set.remove(id);
                }
            }
            O::LoopMerge if block != NONE => {
                for &id in w.get(1..3).unwrap_or(&[]) {
                    reference(id, &mut known, &mut set);
                }
            }
            O::SelectionMerge if block != NONE => {
                for &id in w.get(1..2).unwrap_or(&[]) {
                    reference(id, &mut known, &mut set);
                }
            }
            op if block != NONE && is_terminator(op) => {
                branch_targets(q, w, |id| reference(id, &mut known, &mut set));
                block = NONE;
            }
            _ => {}
        }
    }
    set.ids()
}
