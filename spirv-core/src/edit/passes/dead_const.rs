//! `--eliminate-dead-const` (spirv-opt 2025.5's `EliminateDeadConstantPass`): which
//! constants are dead, and their removal with their names and decorations. Also gives
//! the constant passes the opcode classes they share: [`is_annotation`], and
//! SPIRV-Tools' [`is_constant`] from the crate's `spirv_tools` module.

use super::{Edits, Killer};
use crate::__private::Vec;
use crate::edit::{DefIndex, EditError, Editor, UseIndex};
use crate::grammar::KindClass;
use crate::module::{Module, Section};
use crate::spv::Opcode as O;
use crate::types::Id;

pub(super) use crate::spirv_tools::is_constant;

/// Whether spirv-opt counts the opcode as an annotation (`IsAnnotationInst`):
/// `OpDecorate` through `OpGroupMemberDecorate`, `OpDecorateId`,
/// `OpDecorateString` and `OpMemberDecorateString`.
pub(super) fn is_annotation(op: O) -> bool {
    (op.0 >= O::Decorate.0 && op.0 <= O::GroupMemberDecorate.0)
        || matches!(
            op,
            O::DecorateId | O::DecorateString | O::MemberDecorateString
        )
}

/// Whether a use by an instruction with this opcode keeps a constant alive: uses in
/// annotations and in the debug sections (`OpSource*`, `OpString`, `OpName`,
/// `OpMemberName`, `OpModuleProcessed`) do not.
fn counts_as_use(op: O) -> bool {
    !(is_annotation(op)
        || matches!(
            op,
            O::SourceContinued
                | O::Source
                | O::SourceExtension
                | O::String
                | O::Name
                | O::MemberName
                | O::ModuleProcessed
        ))
}

/// `--eliminate-dead-const`: removes the constants (spec constants included) that
/// nothing uses but annotations and debug instructions, and, in cascade, the constants
/// only such dead `OpConstantComposite`, `OpSpecConstantComposite` and
/// `OpSpecConstantOp` use, each with its names and decorations (so a dead spec
/// constant loses its `SpecId`, and a dead `WorkgroupSize` constant its `BuiltIn`).
/// Uses by non-semantic debug information count. A debug line the removed constant
/// carried passes to the next instruction, as in spirv-opt.
///
/// As spirv-opt, an `OpDecorateId` that names a dead constant among its extra operands
/// is left as it is.
///
/// # Errors
/// The ids of some instruction cannot all be found (to count uses), or the edited
/// module does not read.
pub fn eliminate_dead_const(module: &Module) -> Result<(Module, bool), EditError> {
    eliminate_dead_const_edits(module)?.finish(module)
}

/// [`eliminate_dead_const`]'s edits, not yet applied.
pub(crate) fn eliminate_dead_const_edits<'m>(module: &'m Module) -> Result<Edits<'m>, EditError> {
    let n = module.len();
    let constants: Vec<usize> = module
        .section(Section::Global)
        .filter(|i| is_constant(i.opcode()) && i.result_id().is_some())
        .map(|i| i.index())
        .collect();
    if constants.is_empty() {
        return Ok(Edits::Unchanged);
    }
    let defs = DefIndex::new(module);
    let uses = UseIndex::new(module)?;
    // Real uses left, per instruction index (`None`: not a constant).
    let mut counts: Vec<Option<u32>> = alloc::vec![None; n];
    let mut work = Vec::new();
    for &c in &constants {
        let Some(inst) = module.instruction(c) else {
            continue;
        };
        let Some(id) = inst.result_id() else {
            continue;
        };
        // Only the instruction the id resolves to is that id's constant.
        if defs.get(id) != Some(c) {
            continue;
        }
        let count = uses
            .uses(id)
            .iter()
            .filter(|&&(user, _)| {
                module
                    .instruction(user as usize)
                    .is_some_and(|u| counts_as_use(u.opcode()))
            })
            .count() as u32;
        counts[c] = Some(count);
        if count == 0 {
            work.push(c);
        }
    }
    let mut dead = alloc::vec![false; n];
    while let Some(c) = work.pop() {
        dead[c] = true;
        let Some(inst) = module.instruction(c) else {
            continue;
        };
        if !matches!(
            inst.opcode(),
            O::ConstantComposite | O::SpecConstantComposite | O::SpecConstantOp
        ) {
            continue;
        }
        let ops = inst.operands();
        inst.visit_id_words(|class, word| {
            if class != KindClass::Id {
                return;
            }
            let Some(d) = defs.get(Id(ops[word])) else {
                return;
            };
            // Every use a dead constant makes was counted, so a count never goes
            // below zero, and reaches it once.
            if let Some(Some(count)) = counts.get_mut(d) {
                if *count > 0 {
                    *count -= 1;
                    if *count == 0 {
                        work.push(d);
                    }
                }
            }
        })?;
    }
    if !dead.iter().any(|&d| d) {
        return Ok(Edits::Unchanged);
    }
    let mut editor = Editor::new(module);
    {
        let mut killer = Killer::new(&mut editor);
        for c in constants.into_iter().filter(|&c| dead[c]) {
            killer.kill(c);
        }
        killer.finish()?;
    }
    Ok(Edits::edited(editor, true))
}
