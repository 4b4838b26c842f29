//! `--unify-const` (spirv-opt 2025.5's `UnifyConstantPass`): finding constants equal
//! to an earlier one, and replacing them by it.

use super::Edits;
use super::dead_const::is_annotation;
use spirv_core::Id;
use spirv_core::edit::{EditError, Editor, InstId};
use spirv_core::grammar::KindClass;
use spirv_core::spv::Opcode as O;
use spirv_core::{Module, Section};
use std::collections::{BTreeMap, BTreeSet};

/// `--unify-const`: in one pass over the types and values, an `OpConstant`,
/// `OpConstantTrue`, `OpConstantFalse`, `OpConstantNull`, `OpConstantSampler`,
/// `OpConstantComposite`, `OpSpecConstantOp` or `OpSpecConstantComposite` equal to an
/// earlier one (same opcode and words but the result id, after earlier replacements)
/// is removed and every use of it, names included, takes the earlier one's id. Ids
/// that an annotation uses (decorated, in a decoration group, or an operand of
/// `OpDecorateId`) are left alone, and are not replacements either.
///
/// The names of a removed constant therefore name the one kept, as spirv-opt
/// replaces all uses before it removes the duplicate.
///
/// # Errors
/// The ids of an annotation or a constant cannot all be found, or the edited module
/// does not read.
pub(crate) fn unify_const_edits<'m>(module: &'m Module) -> Result<Edits<'m>, EditError> {
    let mut annotated = BTreeSet::new();
    for inst in module.instructions() {
        if is_annotation(inst.opcode()) {
            inst.visit_ids(|class, id| {
                if class != KindClass::Result {
                    annotated.insert(id.0);
                }
            })?;
        }
    }
    let mut editor = Editor::new(module);
    let mut changed = false;
    // The id that replaces each removed constant.
    let mut replaced: BTreeMap<u32, u32> = BTreeMap::new();
    // The first constant of each key.
    let mut first: BTreeMap<Vec<u32>, u32> = BTreeMap::new();
    for inst in module.section(Section::Global) {
        if !matches!(
            inst.opcode(),
            O::ConstantTrue
                | O::ConstantFalse
                | O::Constant
                | O::ConstantNull
                | O::ConstantSampler
                | O::ConstantComposite
                | O::SpecConstantOp
                | O::SpecConstantComposite
        ) {
            continue;
        }
        let Some(id) = inst.result_id() else {
            continue;
        };
        if annotated.contains(&id.0) {
            continue;
        }
        // The key: the opcode, then every operand word but the result id, ids as
        // earlier replacements left them.
        let mut operands: Vec<Option<u32>> = inst.operands().iter().map(|&w| Some(w)).collect();
        spirv_core::__private::opt::visit_id_words(&inst, |class, word| {
            let slot = &mut operands[word];
            if class == KindClass::Result {
                *slot = None;
            } else if let Some(w) = slot {
                if let Some(&to) = replaced.get(w) {
                    *w = to;
                }
            }
        })?;
        let mut key = Vec::with_capacity(operands.len());
        key.push(u32::from(inst.opcode().0));
        key.extend(operands.into_iter().flatten());
        let kept = *first.entry(key).or_insert(id.0);
        if kept != id.0 {
            replaced.insert(id.0, kept);
            editor.map_id(id, Id(kept));
            editor.remove(InstId::from(inst.index()));
            changed = true;
        }
    }
    if !changed {
        return Ok(Edits::Unchanged);
    }
    Ok(Edits::edited(editor, true))
}
