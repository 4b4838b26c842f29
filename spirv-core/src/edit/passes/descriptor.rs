//! `--switch-descriptorset` (spirv-opt's `SwitchDescriptorSetPass`), with the view of
//! decorations spirv-opt's decoration manager gives it
//! (`DecorationManager::GetDecorationsFor`).

use super::Edits;
use super::interface::id_cap;
use crate::__private::Vec;
use crate::analysis::table::IdTable;
use crate::edit::{EditError, Editor, InstId};
use crate::module::{Module, Section};
use crate::spv::Opcode as O;
use alloc::collections::BTreeMap;

/// `DescriptorSet` and `LinkageAttributes`.
const DESCRIPTOR_SET: u32 = 34;
const LINKAGE_ATTRIBUTES: u32 = 41;

/// The decoration instructions of each id, by instruction index, as spirv-opt's
/// decoration manager records them.
struct Decorations {
    /// `OpDecorate`, `OpDecorateId`, `OpDecorateString` and `OpMemberDecorate` by
    /// target (not `OpMemberDecorateString`).
    direct: IdTable<Vec<u32>>,
    /// `OpGroupDecorate` and `OpGroupMemberDecorate` by target. For
    /// `OpGroupMemberDecorate` spirv-opt records the member numbers, not the targets
    /// (it starts at the second operand after the group and steps by two), and so does
    /// this.
    indirect: IdTable<Vec<u32>>,
}

/// Appends `index` to the list of `id` in `table`.
fn push(table: &mut IdTable<Vec<u32>>, id: u32, index: u32, cap: usize) {
    match table.get_mut(id) {
        Some(list) => list.push(index),
        None => {
            table.insert(id, alloc::vec![index], cap);
        }
    }
}

impl Decorations {
    fn new(module: &Module) -> Self {
        let cap = id_cap(module);
        let mut d = Decorations {
            direct: IdTable::new(),
            indirect: IdTable::new(),
        };
        for inst in module.section(Section::Annotation) {
            let ops = inst.operands();
            let index = inst.index() as u32;
            match inst.opcode() {
                O::Decorate | O::DecorateId | O::DecorateString | O::MemberDecorate => {
                    if let Some(&t) = ops.first() {
                        push(&mut d.direct, t, index, cap);
                    }
                }
                O::GroupDecorate | O::GroupMemberDecorate => {
                    let start = if inst.opcode() == O::GroupDecorate {
                        1
                    } else {
                        2
                    };
                    for &t in ops.iter().skip(start).step_by(start) {
                        push(&mut d.indirect, t, index, cap);
                    }
                }
                _ => {}
            }
        }
        d
    }

    /// `GetDecorationsFor(id, false)`: the direct decorations of `id`, then those of
    /// each group applied to it, in order, leaving out `OpDecorate … LinkageAttributes`.
    fn of(&self, module: &Module, id: u32, out: &mut Vec<u32>) {
        out.clear();
        let not_linkage = |i: &&u32| {
            module.instruction(**i as usize).is_none_or(|inst| {
                inst.opcode() != O::Decorate || inst.operands().get(1) != Some(&LINKAGE_ATTRIBUTES)
            })
        };
        if let Some(direct) = self.direct.get(id) {
            out.extend(direct.iter().filter(not_linkage));
        }
        for &g in self.indirect.get(id).map_or(&[][..], Vec::as_slice) {
            let group = module
                .instruction(g as usize)
                .and_then(|i| i.operands().first().copied());
            if let Some(direct) = group.and_then(|group| self.direct.get(group)) {
                out.extend(direct.iter().filter(not_linkage));
            }
        }
    }
}

/// `--switch-descriptorset=<from>:<to>`: for each global `OpVariable`, in order, the
/// first of its decorations that sets `DescriptorSet` to `from` sets it to `to`
/// instead. As in spirv-opt, a decoration applied through a decoration group is the
/// group's, so every variable of the group moves; and the module counts as changed
/// when a decoration matched, even if `from` is `to`.
///
/// ```
/// use spirv_core::edit::passes::switch_descriptor_set;
/// use spirv_core::{spv, spv::inst, Builder};
///
/// let mut b = Builder::new((1, 0));
/// let [float, ptr, var] = [(); 3].map(|()| b.id().unwrap());
/// b.push(inst::Decorate { target: var, decoration: spv::DecorationData::DescriptorSet(0) })?;
/// b.push(inst::TypeFloat { result_id: float, width: 32, floating_point_encoding: None })?;
/// b.push(inst::TypePointer { result_id: ptr, storage_class: spv::StorageClass::Uniform, r#type: float })?;
/// b.push(inst::Variable { result_type: ptr, result_id: var, storage_class: spv::StorageClass::Uniform, initializer: None })?;
/// let module = b.build()?;
///
/// let (out, changed) = switch_descriptor_set(&module, 0, 5)?;
/// assert!(changed);
/// let decoration = out.section(spirv_core::Section::Annotation).next().unwrap();
/// assert_eq!(decoration.operands(), [var.0, 34, 5]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// The edited module does not read.
pub fn switch_descriptor_set(
    module: &Module,
    from: u32,
    to: u32,
) -> Result<(Module, bool), EditError> {
    switch_descriptor_set_edits(module, from, to)?.finish(module)
}

/// [`switch_descriptor_set`]'s edits, not yet applied.
pub(crate) fn switch_descriptor_set_edits<'m>(
    module: &'m Module,
    from: u32,
    to: u32,
) -> Result<Edits<'m>, EditError> {
    let decorations = Decorations::new(module);
    // Decorations rewritten so far: their words now.
    let mut rewritten: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    let mut list = Vec::new();
    let mut changed = false;
    for var in module.section(Section::Global) {
        if var.opcode() != O::Variable {
            continue;
        }
        let Some(id) = var.result_id() else { continue };
        decorations.of(module, id.0, &mut list);
        for &d in &list {
            let Some(inst) = module.instruction(d as usize) else {
                continue;
            };
            let words = rewritten.get(&d).map_or(inst.words(), Vec::as_slice);
            // In-operand 1 is the decoration (the member number of an
            // OpMemberDecorate, which spirv-opt reads as well); in-operand 2 its value.
            if words.get(2) == Some(&DESCRIPTOR_SET) && words.get(3) == Some(&from) {
                let mut new = words.to_vec();
                new[3] = to;
                rewritten.insert(d, new);
                changed = true;
                break;
            }
        }
    }
    if !changed {
        return Ok(Edits::Unchanged);
    }
    let mut editor = Editor::new(module);
    for (index, words) in &rewritten {
        editor.replace_words(InstId(*index), words)?;
    }
    Ok(Edits::edited(editor, true))
}
