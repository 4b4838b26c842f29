//! `--strip-nonsemantic` (and its old name `--strip-reflect`): spirv-opt 2025.5's
//! `StripNonSemanticInfoPass` (`source/opt/strip_nonsemantic_info_pass.cpp`).

use super::{Edits, Killer};
use spirv_core::edit::{EditError, Editor, InstId};
use spirv_core::spv::Opcode as O;
use spirv_core::{Module, Section};

/// `HlslCounterBufferGOOGLE`, `HlslSemanticGOOGLE`, `UserTypeGOOGLE`.
const HLSL_COUNTER_BUFFER: u32 = 5634;
const HLSL_SEMANTIC: u32 = 5635;
const USER_TYPE: u32 = 5636;
/// `NonSemantic.Shader.DebugInfo.100`'s `DebugLine` and `DebugNoLine`.
const DEBUG_LINE: u32 = 103;
const DEBUG_NO_LINE: u32 = 104;

/// `--strip-nonsemantic`: removes, in spirv-opt's order and each with the names and
/// decorations of its result,
/// - the `OpDecorateString`/`OpMemberDecorateString` decorations `HlslSemanticGOOGLE`
///   and `UserTypeGOOGLE`, and the `OpDecorateId` decorations `HlslCounterBufferGOOGLE`;
/// - the extensions `SPV_GOOGLE_hlsl_functionality1`, `SPV_GOOGLE_user_type`,
///   `SPV_KHR_non_semantic_info`, and `SPV_GOOGLE_decorate_string` unless a string
///   decoration it does not remove is left;
/// - every `OpExtInstImport` of a `NonSemantic.` set, and every `OpExtInst` (or
///   `OpExtInstWithForwardRefsKHR`) of such a set, wherever it is.
///
/// As in spirv-opt, an `OpString` only a removed instruction used stays, and a removed
/// `DebugLine` or `DebugNoLine` (which spirv-opt holds as a line of the next
/// instruction) ends the line in effect with `OpNoLine`. spirv-opt 2025.5 crashes on
/// modules with `NonSemantic.Shader.DebugInfo.100` scopes; here they go with the rest
/// of the set's instructions.
///
/// # Errors
/// The edited module does not read.
pub(crate) fn strip_nonsemantic_edits<'m>(module: &'m Module) -> Result<Edits<'m>, EditError> {
    let mut to_remove: Vec<usize> = Vec::new();
    let mut other_string_decorations = false;
    for inst in module.section(Section::Annotation) {
        let ops = inst.operands();
        match inst.opcode() {
            O::DecorateString | O::MemberDecorateString => {
                let at = if inst.opcode() == O::DecorateString {
                    1
                } else {
                    2
                };
                if matches!(ops.get(at), Some(&(HLSL_SEMANTIC | USER_TYPE))) {
                    to_remove.push(inst.index());
                } else {
                    other_string_decorations = true;
                }
            }
            O::DecorateId if ops.get(1) == Some(&HLSL_COUNTER_BUFFER) => {
                to_remove.push(inst.index());
            }
            _ => {}
        }
    }
    for inst in module.section(Section::Extension) {
        if inst.opcode() != O::Extension {
            continue;
        }
        let name = spirv_core::codec::string_operand(inst.operands());
        let strip = match name.as_slice() {
            b"SPV_GOOGLE_hlsl_functionality1"
            | b"SPV_GOOGLE_user_type"
            | b"SPV_KHR_non_semantic_info" => true,
            b"SPV_GOOGLE_decorate_string" => !other_string_decorations,
            _ => false,
        };
        if strip {
            to_remove.push(inst.index());
        }
    }
    let mut sets: Vec<u32> = Vec::new();
    for inst in module.section(Section::ExtInstImport) {
        let name = spirv_core::codec::string_operand(inst.operands().get(1..).unwrap_or(&[]));
        if name.starts_with(b"NonSemantic.") {
            if let Some(id) = inst.result_id() {
                sets.push(id.0);
            }
            to_remove.push(inst.index());
        }
    }
    if !sets.is_empty() {
        sets.sort_unstable();
        for inst in module.instructions() {
            if matches!(inst.opcode(), O::ExtInst | O::ExtInstWithForwardRefsKHR)
                && inst
                    .operands()
                    .get(2)
                    .is_some_and(|s| sets.binary_search(s).is_ok())
            {
                to_remove.push(inst.index());
            }
        }
    }
    let changed = !to_remove.is_empty();
    let lines = debug_lines(module, &sets);
    let mut editor = Editor::new(module);
    {
        let mut killer = Killer::new(&mut editor);
        for index in to_remove {
            if lines.binary_search(&index).is_ok() {
                // A killed line: spirv-opt leaves an OpNop among the next instruction's
                // lines, which ends a line in effect.
                killer
                    .editor()
                    .replace_words(InstId::from(index), &[(1 << 16) | u32::from(O::Nop.0)])?;
            } else {
                killer.kill(index);
            }
        }
        killer.finish()?;
    }
    Ok(Edits::edited(editor, changed))
}

/// The `DebugLine`s and `DebugNoLine`s of the removed `NonSemantic.Shader.DebugInfo.100`
/// imports (`sets`, sorted), by index, in order: spirv-opt's loader attaches them to the
/// next instruction, as it attaches `OpLine`.
fn debug_lines(module: &Module, sets: &[u32]) -> Vec<usize> {
    let nsdi: Vec<u32> = module
        .section(Section::ExtInstImport)
        .filter(|i| {
            spirv_core::codec::string_operand(i.operands().get(1..).unwrap_or(&[]))
                == b"NonSemantic.Shader.DebugInfo.100"
        })
        .filter_map(|i| i.result_id().map(|id| id.0))
        .filter(|id| sets.binary_search(id).is_ok())
        .collect();
    if nsdi.is_empty() {
        return Vec::new();
    }
    module
        .instructions()
        .filter(|inst| {
            let ops = inst.operands();
            inst.opcode() == O::ExtInst
                && ops.get(2).is_some_and(|s| nsdi.contains(s))
                && matches!(ops.get(3), Some(&(DEBUG_LINE | DEBUG_NO_LINE)))
        })
        .map(|inst| inst.index())
        .collect()
}
