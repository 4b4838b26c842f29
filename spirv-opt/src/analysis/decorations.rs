//! The decorations of each id (spirv-opt's `DecorationManager`): the decoration
//! instructions that name an id directly, the group decorations that apply a group to
//! it, and, for a decoration group, the `OpGroupDecorate`s that apply it. The edits
//! that kill or add instructions (`RemoveDecorationsFrom`, `CloneDecorations`) are the
//! [`Context`](crate::Context)'s, which keeps this up to date through them.

use super::{IdMap, id_cap};
use crate::ir::{Inst, Ir, Section};
use spirv_core::spv::{Decoration, Opcode as O};

/// What names one id.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TargetData {
    /// `OpDecorate`, `OpDecorateId`, `OpDecorateString`, `OpMemberDecorate` of the id.
    pub direct: Vec<Inst>,
    /// `OpGroupDecorate`, `OpGroupMemberDecorate` applying a group to the id.
    pub indirect: Vec<Inst>,
    /// For a group: the instructions applying it.
    pub decorate_insts: Vec<Inst>,
}

/// The decorations of every id.
#[derive(Debug, Clone)]
pub struct Decorations {
    targets: IdMap<TargetData>,
}

impl Decorations {
    /// The decorations of `ir`'s annotations (`AnalyzeDecorations`).
    pub fn build(ir: &Ir) -> Decorations {
        let n = ir.section(Section::Annotation).count();
        let mut d = Decorations {
            targets: IdMap::new(id_cap(n)),
        };
        for i in ir.section(Section::Annotation) {
            d.add(ir, i);
        }
        d
    }

    /// Records an annotation (`AddDecoration(Instruction*)`).
    pub fn add(&mut self, ir: &Ir, i: Inst) {
        let d = ir.data(i);
        match d.opcode() {
            O::Decorate | O::DecorateId | O::DecorateString | O::MemberDecorate => {
                let target = d.in_word(0);
                self.targets
                    .entry_or_insert_with(target, TargetData::default)
                    .direct
                    .push(i);
            }
            O::GroupDecorate | O::GroupMemberDecorate => {
                let stride = if d.opcode() == O::GroupDecorate { 1 } else { 2 };
                let mut k = stride;
                while k < d.num_in_operands() {
                    let target = d.in_word(k);
                    self.targets
                        .entry_or_insert_with(target, TargetData::default)
                        .indirect
                        .push(i);
                    k += stride;
                }
                let group = d.in_word(0);
                self.targets
                    .entry_or_insert_with(group, TargetData::default)
                    .decorate_insts
                    .push(i);
            }
            _ => {}
        }
    }

    /// Forgets an annotation (`RemoveDecoration`).
    pub fn remove(&mut self, ir: &Ir, i: Inst) {
        let d = ir.data(i);
        match d.opcode() {
            O::Decorate | O::DecorateId | O::DecorateString | O::MemberDecorate => {
                if let Some(t) = self.targets.get_mut(d.in_word(0)) {
                    t.direct.retain(|&x| x != i);
                }
            }
            O::GroupDecorate | O::GroupMemberDecorate => {
                let stride = if d.opcode() == O::GroupDecorate { 1 } else { 2 };
                let mut k = 1;
                while k < d.num_in_operands() {
                    if let Some(t) = self.targets.get_mut(d.in_word(k)) {
                        t.indirect.retain(|&x| x != i);
                    }
                    k += stride;
                }
                if let Some(t) = self.targets.get_mut(d.in_word(0)) {
                    t.decorate_insts.retain(|&x| x != i);
                }
            }
            _ => {}
        }
    }

    /// What names `id`.
    pub fn target(&self, id: u32) -> Option<&TargetData> {
        self.targets.get(id)
    }

    /// What names `id`, to change it.
    pub fn target_mut(&mut self, id: u32) -> Option<&mut TargetData> {
        self.targets.get_mut(id)
    }

    /// Forgets everything about `id`.
    pub fn forget(&mut self, id: u32) {
        self.targets.remove(id);
    }

    /// The decorations applying to `id`: its own, then those of the groups applied to
    /// it, `LinkageAttributes` left out unless `include_linkage` (`GetDecorationsFor`).
    pub fn decorations_for(&self, ir: &Ir, id: u32, include_linkage: bool) -> Vec<Inst> {
        let mut out = Vec::new();
        let Some(t) = self.targets.get(id) else {
            return out;
        };
        let direct = |list: &[Inst], out: &mut Vec<Inst>| {
            for &i in list {
                let d = ir.data(i);
                let linkage =
                    d.opcode() == O::Decorate && d.in_word(1) == Decoration::LinkageAttributes.0;
                if include_linkage || !linkage {
                    out.push(i);
                }
            }
        };
        direct(&t.direct, &mut out);
        for &g in &t.indirect {
            let group = ir.data(g).in_word(0);
            if let Some(gt) = self.targets.get(group) {
                direct(&gt.direct, &mut out);
            }
        }
        out
    }

    /// The decorations of `id` whose decoration is `decoration` (`ForEachDecoration`).
    pub fn decorations_of_kind(&self, ir: &Ir, id: u32, decoration: u32) -> Vec<Inst> {
        self.decorations_for(ir, id, true)
            .into_iter()
            .filter(|&i| {
                let d = ir.data(i);
                let at = if d.opcode() == O::MemberDecorate {
                    2
                } else {
                    1
                };
                d.in_word(at) == decoration
            })
            .collect()
    }

    /// Whether `id` has a decoration `decoration` (`HasDecoration`).
    pub fn has_decoration(&self, ir: &Ir, id: u32, decoration: u32) -> bool {
        !self.decorations_of_kind(ir, id, decoration).is_empty()
    }

    /// Whether `id1` and `id2` have the same decorations, targets aside
    /// (`HaveTheSameDecorations`).
    pub fn have_the_same_decorations(&self, ir: &Ir, id1: u32, id2: u32) -> bool {
        self.payloads(ir, id1) == self.payloads(ir, id2)
    }

    /// Whether `id1`'s decorations are among `id2`'s (`HaveSubsetOfDecorations`).
    pub fn have_subset_of_decorations(&self, ir: &Ir, id1: u32, id2: u32) -> bool {
        let (a, b) = (self.payloads(ir, id1), self.payloads(ir, id2));
        a.iter().zip(&b).all(|(x, y)| x.is_subset(y))
    }

    /// The decorations of `id` (linkage left out) by kind of instruction, each as its
    /// words after the target, as sets.
    pub(crate) fn payloads(&self, ir: &Ir, id: u32) -> [std::collections::BTreeSet<Vec<u32>>; 4] {
        let mut sets: [std::collections::BTreeSet<Vec<u32>>; 4] = Default::default();
        for i in self.decorations_for(ir, id, false) {
            let d = ir.data(i);
            let mut payload = Vec::new();
            for k in 1..d.num_in_operands() {
                payload.extend_from_slice(d.in_operand_words(k));
            }
            let at = match d.opcode() {
                O::Decorate => 0,
                O::MemberDecorate => 1,
                O::DecorateId => 2,
                O::DecorateString => 3,
                _ => continue,
            };
            sets[at].insert(payload);
        }
        sets
    }
}
