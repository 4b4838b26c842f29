//! Removing instructions as spirv-opt 2025.5's `IRContext::KillInst` does: with the
//! names and decorations of the result (`KillNamesAndDecorates`,
//! `DecorationManager::RemoveDecorationsFrom`).

use spirv_core::Id;
use spirv_core::edit::{Annotations, EditError, Editor, InstId};
use std::collections::{BTreeMap, BTreeSet};

/// Removes instructions and what names and decorates their results:
/// - the `OpName`s and `OpMemberName`s of the id;
/// - the decorations whose target is the id, except `OpMemberDecorateString`, which
///   spirv-opt's decoration manager does not track;
/// - the id from the target lists of group decorations: the last target (and its
///   member number) moves into its place, as spirv-opt's decoration manager moves it,
///   and a group decoration left without targets is removed (that manager finds an
///   `OpGroupMemberDecorate` for an id only when the id equals one of its member
///   numbers, which it takes for targets, so only then);
/// - for a decoration group: its decorations, and the group decorations that apply it.
///
/// The rewritten group decorations are written to the editor by [`Killer::finish`].
#[derive(Debug)]
pub struct Killer<'e, 'm> {
    editor: &'e mut Editor<'m>,
    /// Built the first time an id's names and decorations are wanted: many kills
    /// (`OpName`s, lines) remove nothing but themselves.
    annotations: Option<Annotations<'m>>,
    /// Group decorations whose target lists changed: their current operand words.
    groups: BTreeMap<u32, Group>,
}

/// A group decoration being rewritten: its operand words, and where each target is
/// among them, so that removing a target costs a lookup, not a scan of the list.
#[derive(Debug)]
struct Group {
    ops: Vec<u32>,
    at: BTreeMap<u32, BTreeSet<usize>>,
}

impl Group {
    fn new(ops: &[u32], stride: usize) -> Self {
        let mut at: BTreeMap<u32, BTreeSet<usize>> = BTreeMap::new();
        for i in (1..ops.len()).step_by(stride) {
            at.entry(ops[i]).or_default().insert(i);
        }
        Group {
            ops: ops.to_vec(),
            at,
        }
    }
}

impl<'e, 'm> Killer<'e, 'm> {
    /// A killer for the module `editor` edits.
    pub fn new(editor: &'e mut Editor<'m>) -> Self {
        Killer {
            editor,
            annotations: None,
            groups: BTreeMap::new(),
        }
    }

    /// The editor.
    pub fn editor(&mut self) -> &mut Editor<'m> {
        self.editor
    }

    /// The module's names and decorations (as read, before any kill), indexed the
    /// first time they are wanted.
    pub fn annotations(&mut self) -> &Annotations<'m> {
        let module = self.editor.module();
        self.annotations
            .get_or_insert_with(|| Annotations::new(module))
    }

    /// Removes instruction `index` of the module, and the names and decorations of its
    /// result.
    pub fn kill(&mut self, index: usize) {
        if self.editor.is_removed(InstId::from(index)) {
            return;
        }
        self.editor.remove(InstId::from(index));
        if let Some(id) = self
            .editor
            .module()
            .instruction(index)
            .and_then(|i| i.result_id())
        {
            self.kill_names_and_decorations(id);
        }
    }

    /// Removes the names and decorations of `id` (spirv-opt's `KillNamesAndDecorates`).
    pub fn kill_names_and_decorations(&mut self, id: Id) {
        let module = self.editor.module();
        let annotations = self.annotations();
        let direct: Vec<u32> = annotations.decorations(id).to_vec();
        let grouped: Vec<u32> = annotations.group_decorations(id).to_vec();
        let applies: Vec<u32> = annotations.applications(id).to_vec();
        let names: Vec<u32> = annotations.names(id).to_vec();
        let is_group = !applies.is_empty();
        for d in direct {
            // spirv-opt's decoration manager does not track `OpMemberDecorateString`,
            // so it outlives its target.
            let tracked = module
                .instruction(d as usize)
                .is_some_and(|i| i.opcode() != spirv_core::spv::Opcode::MemberDecorateString);
            if tracked {
                self.editor.remove(InstId(d));
            }
        }
        for g in grouped {
            if self.editor.is_removed(InstId(g)) {
                continue;
            }
            let Some(inst) = module.instruction(g as usize) else {
                continue;
            };
            let stride = if inst.opcode() == spirv_core::spv::Opcode::GroupDecorate {
                1
            } else {
                2
            };
            if stride == 2 {
                // spirv-opt's decoration manager files an `OpGroupMemberDecorate` under
                // its member numbers, not its targets: it finds one for the id only when
                // the id equals one of those numbers.
                let current = self
                    .groups
                    .get(&g)
                    .map_or(inst.operands(), |group| group.ops.as_slice());
                let numbers = current.get(2..).unwrap_or(&[]);
                if !numbers.iter().step_by(2).any(|&n| n == id.0) {
                    continue;
                }
            }
            let group = self
                .groups
                .entry(g)
                .or_insert_with(|| Group::new(inst.operands(), stride));
            // Swap-remove every occurrence of the id from the targets (after the
            // group), first occurrence first: the last target moves into its place.
            while let Some(i) = group.at.get_mut(&id.0).and_then(BTreeSet::pop_first) {
                let last = group.ops.len() - stride;
                if i < last {
                    let moved = group.ops[last];
                    group.ops[i] = moved;
                    if stride == 2 {
                        group.ops[i + 1] = group.ops[last + 1];
                    }
                    if let Some(places) = group.at.get_mut(&moved) {
                        places.remove(&last);
                        places.insert(i);
                    }
                }
                group.ops.truncate(last);
            }
            if group.ops.len() == 1 {
                self.groups.remove(&g);
                self.editor.remove(InstId(g));
            }
        }
        if is_group {
            // A group with nothing left to apply: its applications go too.
            for a in applies {
                self.groups.remove(&a);
                self.editor.remove(InstId(a));
            }
        }
        for n in names {
            self.editor.remove(InstId(n));
        }
    }

    /// Writes the group decorations whose target lists changed.
    ///
    /// # Errors
    /// A rewritten instruction that does not encode (it cannot grow, so this does not
    /// happen for instructions the module had).
    pub fn finish(self) -> Result<(), EditError> {
        let module = self.editor.module();
        for (index, Group { ops, .. }) in self.groups {
            if self.editor.is_removed(InstId(index)) {
                continue;
            }
            let Some(inst) = module.instruction(index as usize) else {
                continue;
            };
            let mut words = Vec::with_capacity(ops.len() + 1);
            words.push(((ops.len() as u32 + 1) << 16) | u32::from(inst.opcode().0));
            words.extend_from_slice(&ops);
            self.editor.replace_words(InstId(index), &words)?;
        }
        Ok(())
    }
}
