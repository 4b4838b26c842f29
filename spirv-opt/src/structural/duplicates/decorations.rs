//! The decorations spirv-opt 2025.5's decoration manager finds for an id
//! (`source/opt/decoration_manager.cpp` `GetDecorationsFor(id, true)`,
//! `HasDecoration`), for `--remove-duplicates` and `--trim-capabilities`.
//!
//! It tracks `OpDecorate`, `OpDecorateId`, `OpDecorateString` and `OpMemberDecorate`
//! (not `OpMemberDecorateString`), and applies a group's to each target of an
//! `OpGroupDecorate`, once per time the target is listed. For `OpGroupMemberDecorate` it
//! reads the targets where the member numbers are (in-operands 2, 4, …), so the group's
//! decorations go to the ids equal to those numbers.

use spirv_core::Id;
use spirv_core::edit::Annotations;
use spirv_core::spv::Opcode as O;
use spirv_core::{Module, Section};

/// Decoration lookups over a module, as spirv-opt's decoration manager answers them.
pub(in crate::structural) struct Decorations<'m> {
    module: &'m Module,
    annotations: &'m Annotations,
    /// Group applications by the id the manager files them under, once per listing:
    /// (id, instruction index), sorted. An `OpGroupDecorate` is filed under its
    /// targets, an `OpGroupMemberDecorate` under its member numbers.
    applications: Vec<(u32, u32)>,
}

impl<'m> Decorations<'m> {
    /// The lookups for `module`, over its `annotations`.
    pub(in crate::structural) fn new(module: &'m Module, annotations: &'m Annotations) -> Self {
        let mut applications: Vec<(u32, u32)> = Vec::new();
        for inst in module.section(Section::Annotation) {
            let (from, step) = match inst.opcode() {
                O::GroupDecorate => (1, 1),
                O::GroupMemberDecorate => (2, 2),
                _ => continue,
            };
            let ops = inst.operands().get(from..).unwrap_or(&[]);
            for &id in ops.iter().step_by(step) {
                applications.push((id, inst.index() as u32));
            }
        }
        applications.sort_unstable();
        Decorations {
            module,
            annotations,
            applications,
        }
    }

    /// The direct decorations the manager tracks for `id`, by index.
    fn direct(&self, id: u32) -> impl Iterator<Item = usize> + '_ {
        self.annotations
            .decorations(Id(id))
            .iter()
            .map(|&i| i as usize)
            .filter(|&i| {
                self.module.instruction(i).is_some_and(|d| {
                    matches!(
                        d.opcode(),
                        O::Decorate | O::DecorateId | O::DecorateString | O::MemberDecorate
                    )
                })
            })
    }

    /// `GetDecorationsFor(id, true)`: the decoration instructions of `id`, by index:
    /// its own, then those of each group applied to it, in module order.
    pub(in crate::structural) fn of(&self, id: u32) -> Vec<usize> {
        let mut out: Vec<usize> = self.direct(id).collect();
        let first = self.applications.partition_point(|&(v, _)| v < id);
        for &(_, g) in self.applications[first..]
            .iter()
            .take_while(|&&(v, _)| v == id)
        {
            let group = self
                .module
                .instruction(g as usize)
                .and_then(|i| i.operands().first().copied());
            if let Some(group) = group {
                out.extend(self.direct(group));
            }
        }
        out
    }

    /// `HasDecoration(id, decoration)`: whether one of `id`'s decorations (an
    /// `OpMemberDecorate`'s for any member) is `decoration`.
    pub(in crate::structural) fn has(&self, id: u32, decoration: u32) -> bool {
        self.of(id).into_iter().any(|d| {
            self.module.instruction(d).is_some_and(|inst| {
                let at = if inst.opcode() == O::MemberDecorate {
                    2
                } else {
                    1
                };
                inst.operands().get(at) == Some(&decoration)
            })
        })
    }

    /// The module.
    pub(in crate::structural) fn module(&self) -> &'m Module {
        self.module
    }
}
