//! `--strip-debug` (spirv-opt's `StripDebugInfoPass`): what it removes ([`decide`],
//! the one statement of the pass, which the streaming path in `stream.rs` follows too)
//! and the pass over the editor.

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

/// What `--strip-debug` does with one instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Strip {
    /// It stays.
    Keep,
    /// It goes alone: a debug line, which nothing names.
    Drop,
    /// It goes with the names and decorations of its result.
    Kill,
}

/// `--strip-debug`'s decision on an instruction: `set` is the kind of the set an
/// extended instruction names, `debug_section` says whether it stands in a debug
/// section (`OpString`, `OpSource*`, names, `OpModuleProcessed`; asked only when the
/// opcode does not decide), `kept_string` whether it is an `OpString` that a
/// non-semantic extended instruction names as an id operand.
pub(super) fn decide(
    opcode: O,
    set: Option<SetKind>,
    debug_section: impl FnOnce() -> bool,
    kept_string: bool,
) -> Strip {
    match opcode {
        O::Line | O::NoLine => Strip::Drop,
        O::ExtInst | O::ExtInstWithForwardRefsKHR if set.is_some_and(|k| k.is_debug_info()) => {
            Strip::Kill
        }
        O::String if kept_string => Strip::Keep,
        _ if debug_section() => Strip::Kill,
        _ => Strip::Keep,
    }
}

/// `--strip-debug` ([`decide`]): removes `OpString` (unless a non-semantic extended instruction uses
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
        let mut apply = |killer: &mut Killer<'_, '_>, index: usize, strip: Strip| {
            match strip {
                Strip::Keep => return,
                Strip::Drop => killer.editor().remove(InstId::from(index)),
                Strip::Kill => killer.kill(index),
            }
            changed = true;
        };
        // The debug sections first, then the rest in order: the order in which
        // spirv-opt's pass kills, which decides how group decorations lose targets.
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
                let set = ext_kind(&kinds, inst.words());
                apply(
                    &mut killer,
                    inst.index(),
                    decide(inst.opcode(), set, || true, kept),
                );
            }
        }
        for inst in module.instructions() {
            let set = ext_kind(&kinds, inst.words());
            apply(
                &mut killer,
                inst.index(),
                decide(inst.opcode(), set, || false, false),
            );
        }
        killer.finish()?;
    }
    Ok(Edits::edited(editor, changed))
}
