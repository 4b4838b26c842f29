//! Names and decorations of ids and of struct members, as `OpName`, `OpMemberName`,
//! `OpDecorate*`, `OpMemberDecorate*` and decoration groups give them: the decoded
//! answer reflection keeps per id and member, folded from each instruction's
//! registration under the shared index's
//! [`DecorationRules::All`](crate::analysis::DecorationRules::All) as reflection reads
//! the module (the sorted [`DecorationIndex`](crate::analysis::DecorationIndex) itself
//! would cost reflection time and memory for questions it never asks).

use super::Reflection;
use crate::__private::String;
use crate::analysis::DecorationRules;
use crate::analysis::decorations::Registration;
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
            let Some(group) = r.decorations.get(group).cloned() else {
                return;
            };
            if pairs {
                for pair in targets.chunks_exact(2) {
                    if let Some(info) = r.member_entry(pair[0], pair[1]) {
                        info.decorations.merge_from(&group);
                    }
                }
            } else {
                for &target in targets {
                    r.decorations.entry(target, cap).merge_from(&group);
                }
            }
        }
    }
}
