//! Names and decorations of ids and of struct members, as `OpName`, `OpMemberName`,
//! `OpDecorate*`, `OpMemberDecorate*` and decoration groups give them: the decoded
//! answer reflection keeps per id and member, folded from each instruction's
//! registration under the shared index's
//! [`DecorationRules::All`](crate::analysis::DecorationRules::All) as reflection reads
//! the module (the sorted [`DecorationIndex`](crate::analysis::DecorationIndex) itself
//! would cost reflection time and memory for questions it never asks).

use super::Reflection;
use crate::__private::String;
use crate::__private::Vec;
use crate::analysis::DecorationRules;
use crate::analysis::decorations::Registration;
use crate::analysis::table::IdTable;
use crate::grammar::Enum;
use crate::module::InstRef;
use crate::spv;
use alloc::collections::BTreeSet;

/// The decorations of one id or struct member: which are present, and the value of
/// those that carry one number. A decoration given twice keeps its last value.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Decorations {
    /// Presence of decorations numbered below 64.
    low: u64,
    /// Presence of the others the grammar knows (vendor decorations). Unknown ones are
    /// not kept, so the set stays small whatever a module repeats.
    high: BTreeSet<u32>,
    /// `SpecId`.
    pub spec_id: Option<u32>,
    /// `ArrayStride`.
    pub array_stride: Option<u32>,
    /// `MatrixStride`.
    pub matrix_stride: Option<u32>,
    /// `BuiltIn`.
    pub builtin: Option<spv::BuiltIn>,
    /// `Location`.
    pub location: Option<u32>,
    /// `Component`.
    pub component: Option<u32>,
    /// `Index`.
    pub index: Option<u32>,
    /// `Binding`.
    pub binding: Option<u32>,
    /// `DescriptorSet`.
    pub descriptor_set: Option<u32>,
    /// `Offset`.
    pub offset: Option<u32>,
    /// `InputAttachmentIndex`.
    pub input_attachment_index: Option<u32>,
}

impl Decorations {
    /// Whether decoration `d` is present.
    pub fn has(&self, d: spv::Decoration) -> bool {
        match d.0 {
            n @ 0..64 => self.low & (1 << n) != 0,
            n => self.high.contains(&n),
        }
    }

    /// Every decoration present, in numeric order.
    pub fn iter(&self) -> impl Iterator<Item = spv::Decoration> + '_ {
        (0..64u32)
            .filter(|n| self.low & (1 << n) != 0)
            .chain(self.high.iter().copied())
            .map(spv::Decoration)
    }

    /// Records decoration `d`, with its first operand word if it has one.
    pub(crate) fn set(&mut self, d: spv::Decoration, value: Option<u32>) {
        use spv::Decoration as D;
        match d.0 {
            n @ 0..64 => self.low |= 1 << n,
            n if d.name().is_some() => {
                self.high.insert(n);
            }
            _ => {}
        }
        let Some(v) = value else { return };
        let field = match d {
            D::SpecId => &mut self.spec_id,
            D::ArrayStride => &mut self.array_stride,
            D::MatrixStride => &mut self.matrix_stride,
            D::Location => &mut self.location,
            D::Component => &mut self.component,
            D::Index => &mut self.index,
            D::Binding => &mut self.binding,
            D::DescriptorSet => &mut self.descriptor_set,
            D::Offset => &mut self.offset,
            D::InputAttachmentIndex => &mut self.input_attachment_index,
            D::BuiltIn => {
                self.builtin = Some(spv::BuiltIn(v));
                return;
            }
            _ => return,
        };
        *field = Some(v);
    }

    /// Copies every decoration `group` has onto these (`OpGroupDecorate`).
    pub(crate) fn merge_from(&mut self, group: &Decorations) {
        self.low |= group.low;
        self.high.extend(group.high.iter().copied());
        let pairs = [
            (&mut self.spec_id, group.spec_id),
            (&mut self.array_stride, group.array_stride),
            (&mut self.matrix_stride, group.matrix_stride),
            (&mut self.location, group.location),
            (&mut self.component, group.component),
            (&mut self.index, group.index),
            (&mut self.binding, group.binding),
            (&mut self.descriptor_set, group.descriptor_set),
            (&mut self.offset, group.offset),
            (
                &mut self.input_attachment_index,
                group.input_attachment_index,
            ),
        ];
        for (field, value) in pairs {
            if value.is_some() {
                *field = value;
            }
        }
        if group.builtin.is_some() {
            self.builtin = group.builtin;
        }
    }
}

/// What a struct member has: a name and decorations.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct MemberInfo {
    /// `OpMemberName`, if given (possibly empty).
    pub name: Option<String>,
    /// `OpMemberDecorate`s.
    pub decorations: Decorations,
}

/// The decorations of each id. The ids a group decorates share the group's record
/// until one of them, or the group, changes: a group on many targets costs an index
/// entry per target, not a record.
#[derive(Debug, Default)]
pub(super) struct DecorationTable {
    /// Each id's record.
    index: IdTable<u32>,
    records: Vec<Record>,
}

/// A record and who may change it in place: the id that made it, while no other id
/// shares it.
#[derive(Debug)]
struct Record {
    owner: u32,
    shared: bool,
    decorations: Decorations,
}

impl DecorationTable {
    /// The decorations of `id`.
    pub(super) fn get(&self, id: u32) -> Option<&Decorations> {
        let &at = self.index.get(id)?;
        Some(&self.records[at as usize].decorations)
    }

    /// The decorations of `id`, to change: its own record, made (a copy of the one it
    /// shares, or empty) if it has none.
    fn entry(&mut self, id: u32, cap: usize) -> &mut Decorations {
        let copy = match self.index.get(id) {
            Some(&at) => {
                let record = &self.records[at as usize];
                if record.owner == id && !record.shared {
                    return &mut self.records[at as usize].decorations;
                }
                record.decorations.clone()
            }
            None => Decorations::default(),
        };
        self.index.insert(id, self.records.len() as u32, cap);
        self.records.push(Record {
            owner: id,
            shared: false,
            decorations: copy,
        });
        let last = self.records.len() - 1;
        &mut self.records[last].decorations
    }

    /// Gives `target` what the record `at` has (`OpGroupDecorate`): that record itself
    /// if `target` has none yet, else merged into its own.
    fn merge(&mut self, target: u32, at: u32, cap: usize) {
        if self.index.get(target).is_none() {
            self.records[at as usize].shared = true;
            self.index.insert(target, at, cap);
            return;
        }
        let group = self.records[at as usize].decorations.clone();
        self.entry(target, cap).merge_from(&group);
    }
}

/// What `inst` registers, as every decoration instruction registers.
pub(super) fn registration(inst: InstRef<'_>) -> Option<Registration<'_>> {
    crate::analysis::decorations::registration(DecorationRules::All, inst)
}

/// Folds one registration into `r`'s decorations, in module order: a decoration given
/// again keeps its last value, and a group gives its targets what it has at the
/// applying instruction (nothing, and no record, if it has no decorations yet).
pub(super) fn fold(r: &mut Reflection<'_>, reg: Registration<'_>) {
    let cap = r.cap;
    match reg {
        Registration::Direct {
            target,
            member,
            kind,
            params,
            string,
        } => {
            let (kind, value) = (spv::Decoration(kind), params.first().copied());
            let value = if string { None } else { value };
            match member {
                None => r.decorations.entry(target, cap).set(kind, value),
                Some(m) => {
                    if let Some(info) = r.member_entry(target, m) {
                        info.decorations.set(kind, value);
                    }
                }
            }
        }
        Registration::Group {
            group,
            targets,
            pairs,
        } => {
            let Some(&at) = r.decorations.index.get(group) else {
                return;
            };
            if pairs {
                let group = r.decorations.records[at as usize].decorations.clone();
                for pair in targets.chunks_exact(2) {
                    if let Some(info) = r.member_entry(pair[0], pair[1]) {
                        info.decorations.merge_from(&group);
                    }
                }
            } else {
                for &target in targets {
                    r.decorations.merge(target, at, cap);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::Module;
    use crate::reflect::Reflection;
    use crate::types::Id;
    use alloc::vec;

    /// Targets share a group's record until they or the group change: each still sees
    /// what the group had when it was applied, and its own decorations.
    #[test]
    fn targets_of_a_group_keep_what_it_had_when_applied() {
        let (g, a, b, c) = (1, 2, 3, 4);
        let inst = |op: u32, ops: &[u32]| {
            let mut w = vec![((ops.len() as u32 + 1) << 16) | op];
            w.extend_from_slice(ops);
            w
        };
        let mut words = vec![0x0723_0203, 0x0001_0600, 0, 10, 0];
        words.extend(inst(17, &[1])); // OpCapability Shader
        words.extend(inst(14, &[0, 1])); // OpMemoryModel Logical GLSL450
        words.extend(inst(71, &[g, 33, 3])); // OpDecorate %g Binding 3
        words.extend(inst(73, &[g])); // OpDecorationGroup %g
        words.extend(inst(74, &[g, a, b])); // OpGroupDecorate %g %a %b
        words.extend(inst(71, &[a, 34, 1])); // OpDecorate %a DescriptorSet 1
        words.extend(inst(71, &[g, 33, 5])); // OpDecorate %g Binding 5
        words.extend(inst(74, &[g, c, a])); // OpGroupDecorate %g %c %a
        let m = Module::from_words(&words).expect("reads");
        let r = Reflection::new(&m);
        let get = |id: u32| r.decorations(Id(id)).cloned().unwrap_or_default();
        assert_eq!((get(a).binding, get(a).descriptor_set), (Some(5), Some(1)));
        assert_eq!((get(b).binding, get(b).descriptor_set), (Some(3), None));
        assert_eq!((get(c).binding, get(c).descriptor_set), (Some(5), None));
        assert_eq!(get(g).binding, Some(5));
    }
}
