//! The names of each id (spirv-opt's id-to-name map): its `OpName` and `OpMemberName`
//! instructions, in the order they were recorded.

use super::{IdMap, id_cap};
use crate::ir::{Inst, Ir, Section};
use spirv_core::spv::Opcode as O;

/// The names of every id.
#[derive(Debug, Clone)]
pub struct Names {
    names: IdMap<Vec<Inst>>,
}

impl Names {
    /// The names of `ir`'s debug instructions (`BuildIdToNameMap`).
    pub fn build(ir: &Ir) -> Names {
        let n = ir.section(Section::Debug2).count();
        let mut m = Names {
            names: IdMap::new(id_cap(n)),
        };
        for i in ir.section(Section::Debug2) {
            m.add(ir, i);
        }
        m
    }

    /// Records a name instruction.
    pub fn add(&mut self, ir: &Ir, i: Inst) {
        if matches!(ir.opcode(i), O::Name | O::MemberName) {
            let target = ir.data(i).in_word(0);
            self.names.entry_or_insert_with(target, Vec::new).push(i);
        }
    }

    /// Forgets a name instruction (`RemoveFromIdToName`).
    pub fn remove(&mut self, ir: &Ir, i: Inst) {
        if matches!(ir.opcode(i), O::Name | O::MemberName) {
            if let Some(list) = self.names.get_mut(ir.data(i).in_word(0)) {
                if let Some(at) = list.iter().position(|&x| x == i) {
                    list.remove(at);
                }
            }
        }
    }

    /// The names of `id` (`GetNames`).
    pub fn of(&self, id: u32) -> &[Inst] {
        self.names.get(id).map_or(&[], Vec::as_slice)
    }

    /// The `OpMemberName` of member `index` of struct `id` (`GetMemberName`).
    pub fn member_name(&self, ir: &Ir, id: u32, index: u32) -> Option<Inst> {
        self.of(id)
            .iter()
            .copied()
            .find(|&i| ir.opcode(i) == O::MemberName && ir.data(i).in_word(1) == index)
    }
}
