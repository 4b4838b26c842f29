//! `--strip-debug` (spirv-opt's `StripDebugInfoPass`).

use super::{Edits, Killer};
use spirv_core::__private::opt::SetKind;
use spirv_core::edit::{EditError, Editor, InstId};
use spirv_core::spv::Opcode as O;
use spirv_core::{Module, Section};
use std::collections::BTreeMap;

/// The kind of each extended set the module imports, by import id.
fn set_kinds(module: &Module) -> BTreeMap<u32, SetKind> {
    module
        .section(Section::ExtInstImport)
        .filter_map(|i| {
            let id = i.result_id()?;
            let name = spirv_core::codec::string_operand(i.operands().get(1..).unwrap_or(&[]));
            Some((id.0, SetKind::of(&name)))
        })
        .collect()
}

/// The set kind of an `OpExtInst`, if `words` is one.
fn ext_kind(kinds: &BTreeMap<u32, SetKind>, words: &[u32]) -> Option<SetKind> {
    let op = O(words.first().map_or(0, |w| *w as u16));
    if !matches!(op, O::ExtInst | O::ExtInstWithForwardRefsKHR) {
        return None;
    }
    words.get(3).and_then(|s| kinds.get(s)).copied()
}

/// `--strip-debug`: removes `OpString` (unless a non-semantic extended instruction uses
/// it), `OpSource*`, `OpName`, `OpMemberName`, `OpModuleProcessed`, the global
/// instructions of the debug-info sets, and every `OpLine` and `OpNoLine`, with the
/// names and decorations of what it removes.
///
/// Two departures from spirv-opt 2025.5, where its output is not valid SPIR-V: an
/// `OpString` a non-semantic instruction uses is kept whether or not the module
/// declares `SPV_KHR_non_semantic_info` (spirv-opt removes the format strings of a
/// SPIR-V 1.6 `DebugPrintf` module that does not), and the debug-info sets'
/// instructions inside functions go too (spirv-opt leaves `DebugDeclare`, `DebugValue`
/// and `DebugFunctionDefinition` naming what it removed, and crashes on
/// `NonSemantic.Shader.DebugInfo.100` scopes).
///
/// # Errors
/// The module's instructions cannot all be laid out (to find the uses of strings), or
/// the edited module does not read.
pub(crate) fn strip_debug_edits<'m>(module: &'m Module) -> Result<Edits<'m>, EditError> {
    let kinds = set_kinds(module);
    // Strings a non-semantic extended instruction uses.
    let mut kept_strings = std::collections::BTreeSet::new();
    let strings: std::collections::BTreeSet<u32> = module
        .section(Section::DebugSource)
        .filter(|i| i.opcode() == O::String)
        .filter_map(|i| i.result_id().map(|id| id.0))
        .collect();
    if !strings.is_empty() {
        for inst in module.instructions() {
            if ext_kind(&kinds, inst.words()).is_some_and(|k| k.is_non_semantic()) {
                inst.visit_ids(|_, id| {
                    if strings.contains(&id.0) {
                        kept_strings.insert(id.0);
                    }
                })?;
            }
        }
    }
    let mut editor = Editor::new(module);
    let mut changed = false;
    {
        let mut killer = Killer::new(&mut editor);
        for s in [
            Section::DebugSource,
            Section::DebugName,
            Section::DebugModuleProcessed,
        ] {
            for inst in module.section(s) {
                let kept = inst.opcode() == O::String
                    && inst
                        .result_id()
                        .is_some_and(|id| kept_strings.contains(&id.0));
                if !kept {
                    killer.kill(inst.index());
                    changed = true;
                }
            }
        }
        for inst in module.instructions() {
            let op = inst.opcode();
            let debug_info = ext_kind(&kinds, inst.words()).is_some_and(|k| k.is_debug_info());
            if matches!(op, O::Line | O::NoLine) {
                killer.editor().remove(InstId::from(inst.index()));
                changed = true;
            } else if debug_info {
                killer.kill(inst.index());
                changed = true;
            }
        }
        killer.finish()?;
    }
    Ok(Edits::edited(editor, changed))
}
