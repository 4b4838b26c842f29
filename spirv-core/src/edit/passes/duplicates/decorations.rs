//! The decorations spirv-opt 2025.5's decoration manager finds for an id
//! (`source/opt/decoration_manager.cpp` `GetDecorationsFor(id, true)`,
//! `HasDecoration`), for `--remove-duplicates` and `--trim-capabilities`.
//!
//! It tracks `OpDecorate`, `OpDecorateId`, `OpDecorateString` and `OpMemberDecorate`
//! (not `OpMemberDecorateString`), and applies a group's to each target of an
//! `OpGroupDecorate`, once per time the target is listed. For `OpGroupMemberDecorate` it
//! reads the targets where the member numbers are (in-operands 2, 4, …), so the group's
//! decorations go to the ids equal to those numbers.

use crate::__private::Vec;
use crate::edit::Annotations;
use crate::module::{Module, Section};
use crate::spv::Opcode as O;
use crate::types::Id;

/// Decoration lookups over a module, as spirv-opt's decoration manager answers them.
pub(in crate::edit::passes) struct Decorations<'m> {
    module: &'m Module,
    annotations: &'m Annotations,
    /// `OpGroupMemberDecorate`s by the numbers the manager takes for targets:
    /// (number, instruction index), sorted.
    member_groups: Vec<(u32, u32)>,
}

impl<'m> Decorations<'m> {
    /// The lookups for `module`, over its `annotations`.
    pub(in crate::edit::passes) fn new(module: &'m Module, annotations: &'m Annotations) -> Self {
        let mut member_groups: Vec<(u32, u32)> = Vec::new();
        for inst in module.section(Section::Annotation) {
            if inst.opcode() == O::GroupMemberDecorate {
                for &v in inst.operands().get(2..).unwrap_or(&[]).iter().step_by(2) {
                    member_groups.push((v, inst.index() as u32));
                }
            }
        }
        member_groups.sort_unstable();
        Decorations {
            module,
            annotations,
            member_groups,
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
    pub(in crate::edit::passes) fn of(&self, id: u32) -> Vec<usize> {
        let mut out: Vec<usize> = self.direct(id).collect();
        // Each application (per occurrence of the id), in module order.
        let mut applications: Vec<u32> = Vec::new();
        for &g in self.annotations.group_decorations(Id(id)) {
            let Some(inst) = self.module.instruction(g as usize) else {
                continue;
            };
            if inst.opcode() == O::GroupDecorate {
                let targets = inst.operands().get(1..).unwrap_or(&[]);
                let n = targets.iter().filter(|&&t| t == id).count();
                applications.extend(core::iter::repeat_n(g, n));
            }
        }
        let first = self.member_groups.partition_point(|&(v, _)| v < id);
        applications.extend(
            self.member_groups[first..]
                .iter()
                .take_while(|&&(v, _)| v == id)
                .map(|&(_, g)| g),
        );
        applications.sort_unstable();
        for g in applications {
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
    pub(in crate::edit::passes) fn has(&self, id: u32, decoration: u32) -> bool {
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
    pub(in crate::edit::passes) fn module(&self) -> &'m Module {
        self.module
    }
}
