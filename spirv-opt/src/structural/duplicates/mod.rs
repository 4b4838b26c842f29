//! `--remove-duplicates`: spirv-opt 2025.5's `RemoveDuplicatesPass`
//! (`source/opt/remove_duplicates_pass.cpp`), with its type equality in [`types`] and
//! the partition refinement that decides it in [`partition`].

mod decorations;
mod partition;
mod types;

pub(super) use decorations::Decorations;

use super::{Edits, Killer};
use spirv_core::Id;
use spirv_core::edit::{EditError, Editor, InstId};
use spirv_core::grammar::KindClass;
use spirv_core::spv::Opcode as O;
use spirv_core::{Module, Section};
use std::collections::{BTreeMap, BTreeSet};

/// `--remove-duplicates`: in spirv-opt's order,
/// 1. capabilities: a later `OpCapability` (`OpConditionalCapabilityINTEL`) with the
///    same capability (and condition) goes;
/// 2. extensions, likewise by name (and condition);
/// 3. `OpExtInstImport`s by name: a later one goes and its uses (names included) move
///    to the first;
/// 4. types: a type equal to an earlier one (spirv-opt's structural equality,
///    decorations included, see the `types` submodule) loses its names and decorations, its uses
///    move to the earlier one and it goes; a later `OpTypeForwardPointer` to an equal
///    pointer with the same storage class goes;
/// 5. decorations: an `OpDecorate`, `OpMemberDecorate`, `OpDecorateId` or
///    `OpDecorateString` equal, word for word after the renaming, to an earlier one goes.
///
/// spirv-opt compares each type with every earlier one kept, and each decoration with
/// every earlier one; here equal types are found by partition refinement and equal
/// decorations by sorting, in O(n log n), with the same result.
///
/// # Errors
/// The ids of a decoration cannot all be found, or the edited module does not read.
pub(crate) fn remove_duplicates_edits<'m>(module: &'m Module) -> Result<Edits<'m>, EditError> {
    let mut editor = Editor::new(module);
    let mut changed = false;
    // Capabilities and extensions: (condition, value) seen.
    let mut caps: BTreeSet<(u32, u32)> = BTreeSet::new();
    for inst in module.section(Section::Capability) {
        let ops = inst.operands();
        let key = match inst.opcode() {
            O::ConditionalCapabilityINTEL => (ops.first(), ops.get(1)),
            _ => (Some(&0), ops.first()),
        };
        let key = (key.0.copied().unwrap_or(0), key.1.copied().unwrap_or(0));
        if !caps.insert(key) {
            editor.remove(InstId::from(inst.index()));
            changed = true;
        }
    }
    let mut exts: BTreeSet<(u32, Vec<u8>)> = BTreeSet::new();
    for inst in module.section(Section::Extension) {
        let ops = inst.operands();
        let key = match inst.opcode() {
            O::ConditionalExtensionINTEL => (
                ops.first().copied().unwrap_or(0),
                spirv_core::codec::string_operand(ops.get(1..).unwrap_or(&[])),
            ),
            _ => (0, spirv_core::codec::string_operand(ops)),
        };
        if !exts.insert(key) {
            editor.remove(InstId::from(inst.index()));
            changed = true;
        }
    }
    // Ids renamed (duplicate imports and types), for comparing decorations after.
    let mut renamed: BTreeMap<u32, u32> = BTreeMap::new();
    let mut imports: BTreeMap<Vec<u8>, u32> = BTreeMap::new();
    for inst in module.section(Section::ExtInstImport) {
        let Some(id) = inst.result_id() else { continue };
        let name = spirv_core::codec::string_operand(inst.operands().get(1..).unwrap_or(&[]));
        match imports.get(&name) {
            Some(&first) => {
                editor.map_id(id, Id(first));
                renamed.insert(id.0, first);
                editor.remove(InstId::from(inst.index()));
                changed = true;
            }
            None => {
                imports.insert(name, id.0);
            }
        }
    }
    {
        let mut killer = Killer::new(&mut editor);
        let classes = types::classes(&Decorations::new(module));
        let mut kept: BTreeMap<u32, u32> = BTreeMap::new();
        let mut dead: Vec<usize> = Vec::new();
        for (&(index, id), &class) in classes.types.iter().zip(&classes.class) {
            match kept.get(&class) {
                Some(&keep) => {
                    killer.kill_names_and_decorations(Id(id));
                    killer.editor().map_id(Id(id), Id(keep));
                    renamed.insert(id, keep);
                    dead.push(index);
                }
                None => {
                    kept.insert(class, id);
                }
            }
        }
        let mut forward: BTreeSet<(u32, u32, u32)> = BTreeSet::new();
        for (index, key) in classes.forward {
            if !forward.insert(key) {
                dead.push(index);
            }
        }
        changed |= !dead.is_empty();
        for index in dead {
            killer.editor().remove(InstId::from(index));
        }
        killer.finish()?;
    }
    changed |= remove_duplicate_decorations(module, &mut editor, &renamed)?;
    Ok(Edits::edited(editor, changed))
}

/// Removes each `OpDecorate`, `OpMemberDecorate`, `OpDecorateId` and `OpDecorateString`
/// that is left and equals an earlier one once ids are `renamed`; returns whether any
/// went.
fn remove_duplicate_decorations(
    module: &Module,
    editor: &mut Editor<'_>,
    renamed: &BTreeMap<u32, u32>,
) -> Result<bool, EditError> {
    let mut words: Vec<(Vec<u32>, usize)> = Vec::new();
    for inst in module.section(Section::Annotation) {
        if !matches!(
            inst.opcode(),
            O::Decorate | O::MemberDecorate | O::DecorateId | O::DecorateString
        ) || editor.is_removed(InstId::from(inst.index()))
        {
            continue;
        }
        let mut w = inst.words().to_vec();
        if !renamed.is_empty() {
            spirv_core::__private::opt::visit_id_words(&inst, |class, at| {
                if class != KindClass::Result {
                    if let Some(&to) = renamed.get(&w[1 + at]) {
                        w[1 + at] = to;
                    }
                }
            })?;
        }
        words.push((w, inst.index()));
    }
    words.sort_unstable();
    let mut changed = false;
    for pair in words.windows(2) {
        if pair[0].0 == pair[1].0 {
            editor.remove(InstId::from(pair[1].1));
            changed = true;
        }
    }
    Ok(changed)
}
