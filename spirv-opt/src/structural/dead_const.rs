//! `--eliminate-dead-const` (spirv-opt 2025.5's `EliminateDeadConstantPass`): which
//! constants are dead, and their removal with their names and decorations. Also gives
//! the constant passes the opcode classes they share: [`is_annotation`], and
//! SPIRV-Tools' [`is_constant`] from the crate's `spirv_tools` module.

use super::{Edits, Killer};
use spirv_core::__private::opt::IdTable;
use spirv_core::edit::{EditError, Editor};
use spirv_core::grammar::KindClass;
use spirv_core::spv::Opcode as O;
use spirv_core::{Module, Section};

pub(super) use spirv_core::__private::opt::is_constant;

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
    // One walk: each constant's uses that count, and which instruction its id
    // resolves to (the last that defines it, as `DefIndex` has it).
    let cap = module.word_len().saturating_mul(2).max(1024);
    let mut slot_of: IdTable<u32> = IdTable::new();
    for (k, &c) in constants.iter().enumerate() {
        if let Some(id) = module.instruction(c).and_then(|i| i.result_id()) {
            slot_of.insert(id.0, k as u32, cap);
        }
    }
    let mut uses = vec![0u32; constants.len()];
    let mut resolves: Vec<usize> = constants.clone();
    for inst in module.instructions() {
        let (index, ops) = (inst.index(), inst.operands());
        let counts = counts_as_use(inst.opcode());
        spirv_core::__private::opt::visit_id_words(&inst, |class, word| {
            let Some(&k) = slot_of.get(ops[word]) else {
                return;
            };
            if class == KindClass::Result {
                resolves[k as usize] = index;
            } else if counts {
                uses[k as usize] += 1;
            }
        })?;
    }
    // Real uses left, per constant (`None`: its id resolves to another instruction).
    let mut counts: Vec<Option<u32>> = constants
        .iter()
        .zip(&resolves)
        .zip(&uses)
        .map(|((&c, &r), &u)| (c == r).then_some(u))
        .collect();
    let mut work: Vec<usize> = (0..constants.len())
        .filter(|&k| counts[k] == Some(0))
        .collect();
    let mut dead = vec![false; n];
    while let Some(k) = work.pop() {
        let c = constants[k];
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
        spirv_core::__private::opt::visit_id_words(&inst, |class, word| {
            if class != KindClass::Id {
                return;
            }
            let Some(&d) = slot_of.get(ops[word]) else {
                return;
            };
            // Every use a dead constant makes was counted, so a count never goes
            // below zero, and reaches it once.
            if let Some(Some(count)) = counts.get_mut(d as usize) {
                if *count > 0 {
                    *count -= 1;
                    if *count == 0 {
                        work.push(d as usize);
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
