//! `--strip-nonsemantic` (and its old name `--strip-reflect`): spirv-opt 2025.5's
//! `StripNonSemanticInfoPass` (`source/opt/strip_nonsemantic_info_pass.cpp`).

use super::Killer;
use crate::__private::Vec;
use crate::edit::{Bound, EditError, Editor, InstId};
use crate::module::{Module, Section};
use crate::spv::Opcode as O;

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
/// As in spirv-opt, an `OpString` only a removed instruction used stays. spirv-opt 2025.5
/// crashes on modules with `NonSemantic.Shader.DebugInfo.100` scopes; here they go with
/// the rest of the set's instructions.
///
/// # Errors
/// The edited module does not read.
pub fn strip_nonsemantic(module: &Module) -> Result<(Module, bool), EditError> {
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
        let name = crate::codec::string_operand(inst.operands());
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
        let name = crate::codec::string_operand(inst.operands().get(1..).unwrap_or(&[]));
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
    let ends_line = ending_lines(module, &sets);
    let mut editor = Editor::new(module);
    {
        let mut killer = Killer::new(&mut editor);
        for index in to_remove {
            if ends_line.binary_search(&index).is_ok() {
                killer
                    .editor()
                    .replace_words(InstId::from(index), &[(1 << 16) | u32::from(O::NoLine.0)])?;
            } else {
                killer.kill(index);
            }
        }
        killer.finish()?;
    }
    Ok((editor.apply(Bound::Keep)?, changed))
}

/// The `DebugLine`s and `DebugNoLine`s of the removed `NonSemantic.Shader.DebugInfo.100`
/// imports (`sets`, sorted) that end a line in effect, by index.
///
/// spirv-opt's loader attaches these to the next instruction, as it attaches `OpLine`;
/// killing one leaves an `OpNop` among that instruction's lines, and its writer ends a
/// line still in effect before such an `OpNop` with `OpNoLine` (and writes nothing for
/// it otherwise). So each of them becomes an `OpNoLine` where a line is in effect at
/// that point of the output, and goes where none is.
fn ending_lines(module: &Module, sets: &[u32]) -> Vec<usize> {
    let nsdi: Vec<u32> = module
        .section(Section::ExtInstImport)
        .filter(|i| {
            crate::codec::string_operand(i.operands().get(1..).unwrap_or(&[]))
                == b"NonSemantic.Shader.DebugInfo.100"
        })
        .filter_map(|i| i.result_id().map(|id| id.0))
        .filter(|id| sets.binary_search(id).is_ok())
        .collect();
    let mut out = Vec::new();
    if nsdi.is_empty() {
        return out;
    }
    // The writer's state: a line in effect, and whether it is between a merge
    // instruction and its branch (where it writes no line).
    let (mut active, mut between) = (false, false);
    for inst in module.instructions() {
        let ops = inst.operands();
        match inst.opcode() {
            O::Line => active |= !between,
            O::NoLine => active = false,
            O::ExtInst
                if ops.get(2).is_some_and(|s| nsdi.contains(s))
                    && matches!(ops.get(3), Some(&(DEBUG_LINE | DEBUG_NO_LINE))) =>
            {
                if active {
                    out.push(inst.index());
                    active = false;
                }
            }
            op => {
                between = matches!(op, O::LoopMerge | O::SelectionMerge);
                if between || crate::spirv_tools::is_block_terminator(op) {
                    active = false;
                }
            }
        }
    }
    out
}
