//! `--switch-descriptorset` (spirv-opt's `SwitchDescriptorSetPass`), with the view of
//! decorations spirv-opt's decoration manager gives it
//! (`DecorationManager::GetDecorationsFor`).

use super::Edits;
use spirv_core::edit::{EditError, Editor, InstId};
use spirv_core::spv::Opcode as O;
use spirv_core::{Module, Section};
use std::collections::{BTreeMap, BTreeSet};

/// `DescriptorSet`'s decoration number.
const DESCRIPTOR_SET: u32 = spirv_core::spv::Decoration::DescriptorSet.0;

/// What `--switch-descriptorset` needs of the decorations, gathered one annotation at a
/// time (in module order): the decorations that set `DescriptorSet` to the set moved
/// from, by target, and the groups applied to each id, as spirv-opt's decoration
/// manager gives them (`DecorationManager::GetDecorationsFor`). The general path and
/// the streaming one both gather with it.
#[derive(Debug, Default)]
pub(super) struct SetMoves {
    from: u32,
    /// `OpDecorate`, `OpDecorateId`, `OpDecorateString` and `OpMemberDecorate` (not
    /// `OpMemberDecorateString`) that set the set moved from, by target: instruction
    /// indices. In-operand 1 is the decoration (the member number of an
    /// `OpMemberDecorate`, which spirv-opt reads as well) and in-operand 2 its value.
    candidates: BTreeMap<u32, Vec<u32>>,
    /// The groups `OpGroupDecorate` and `OpGroupMemberDecorate` apply to each id, in
    /// order. For `OpGroupMemberDecorate` spirv-opt files the member numbers, not the
    /// targets (it starts at the second operand after the group and steps by two), and
    /// so does this.
    applications: BTreeMap<u32, Vec<u32>>,
}

impl SetMoves {
    /// Moves from set `from`.
    pub(super) fn new(from: u32) -> Self {
        SetMoves {
            from,
            ..SetMoves::default()
        }
    }

    /// Takes annotation `words` (leading word included), instruction `index`, into
    /// account.
    pub(super) fn annotation(&mut self, index: u32, words: &[u32]) {
        match O(words.first().map_or(0, |w| *w as u16)) {
            O::Decorate | O::DecorateId | O::DecorateString | O::MemberDecorate
                if words.get(2) == Some(&DESCRIPTOR_SET) && words.get(3) == Some(&self.from) =>
            {
                self.candidates.entry(words[1]).or_default().push(index);
            }
            O::GroupDecorate | O::GroupMemberDecorate => {
                let Some(&group) = words.get(1) else { return };
                let (first, step) = match O(words[0] as u16) {
                    O::GroupDecorate => (2, 1),
                    _ => (3, 2),
                };
                for &t in words.get(first..).unwrap_or(&[]).iter().step_by(step) {
                    self.applications.entry(t).or_default().push(group);
                }
            }
            _ => {}
        }
    }

    /// The decorations that move (sorted instruction indices): for each global variable
    /// in order, the first of its decorations (its own, then each applied group's) that
    /// still sets the set moved from. A decoration is one target's, and each target's
    /// decorations move in order, so a count per target finds the first still to move:
    /// the work is a step per group application, not per decoration a group has. A
    /// variable listed twice (defined twice, which the read refuses, but the streaming
    /// path's scan lists it before that read) is taken once, so that the work stays a
    /// step per application rather than per application and definition.
    pub(super) fn moved(&self, globals: impl IntoIterator<Item = u32>, to: u32) -> Vec<u32> {
        let mut moved: Vec<u32> = Vec::new();
        let mut taken: BTreeMap<u32, usize> = BTreeMap::new();
        let mut seen: BTreeSet<u32> = BTreeSet::new();
        let none: &[u32] = &[];
        for var in globals {
            if !seen.insert(var) {
                continue;
            }
            let groups = self.applications.get(&var).map_or(none, Vec::as_slice);
            for &target in core::iter::once(&var).chain(groups) {
                let Some(decorations) = self.candidates.get(&target) else {
                    continue;
                };
                // A set moved to itself leaves the decoration as it was: the first
                // still matches.
                let start = match self.from == to {
                    true => 0,
                    false => taken.get(&target).copied().unwrap_or(0),
                };
                if let Some(&d) = decorations.get(start) {
                    moved.push(d);
                    taken.insert(target, start + 1);
                    break;
                }
            }
        }
        moved.sort_unstable();
        moved.dedup();
        moved
    }
}

/// `--switch-descriptorset=<from>:<to>`: for each global `OpVariable`, in order, the
/// first of its decorations that sets `DescriptorSet` to `from` sets it to `to`
/// instead. As in spirv-opt, a decoration applied through a decoration group is the
/// group's, so every variable of the group moves; and the module counts as changed
/// when a decoration matched, even if `from` is `to`.
///
/// ```
/// use spirv_opt::structural::{run, StructuralPass};
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
/// let (out, changed) = run(&module, &[StructuralPass::SwitchDescriptorSet { from: 0, to: 5 }], None)?;
/// assert!(changed);
/// let decoration = out.section(spirv_core::Section::Annotation).next().unwrap();
/// assert_eq!(decoration.operands(), [var.0, 34, 5]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// The edited module does not read.
pub(crate) fn switch_descriptor_set_edits<'m>(
    module: &'m Module,
    from: u32,
    to: u32,
) -> Result<Edits<'m>, EditError> {
    let mut moves = SetMoves::new(from);
    for inst in module.section(Section::Annotation) {
        moves.annotation(inst.index() as u32, inst.words());
    }
    let globals = module
        .section(Section::Global)
        .filter(|i| i.opcode() == O::Variable)
        .filter_map(|i| i.result_id().map(|id| id.0));
    let moved = moves.moved(globals, to);
    if moved.is_empty() {
        return Ok(Edits::Unchanged);
    }
    let mut editor = Editor::new(module);
    for index in moved {
        if let Some(inst) = module.instruction(index as usize) {
            let mut words = inst.words().to_vec();
            words[3] = to;
            editor.replace_words(InstId(index), &words)?;
        }
    }
    Ok(Edits::edited(editor, true))
}
