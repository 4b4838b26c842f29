//! `--eliminate-dead-functions` (spirv-opt's `EliminateDeadFunctionsPass` and
//! `eliminatedeadfunctionsutil::EliminateFunction`).

use super::interface::id_cap;
use super::{Edits, Killer};
use spirv_core::__private::opt::IdTable;
use spirv_core::__private::opt::SetKind;
use spirv_core::analysis::{CallGraph, CallRules};
use spirv_core::edit::{EditError, Editor, InstId, UseIndex};
use spirv_core::spv::Opcode as O;
use spirv_core::{Module, Section};
use std::collections::BTreeMap;

/// Extended instruction numbers common to the debug-info sets.
const DEBUG_INFO_NONE: u32 = 0;
const DEBUG_FUNCTION: u32 = 20;
const DEBUG_GLOBAL_VARIABLE: u32 = 18;
const DEBUG_EXPRESSION: u32 = 31;

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

/// The set kind and extended instruction number of an `OpExtInst` (words).
fn ext(kinds: &BTreeMap<u32, SetKind>, words: &[u32]) -> Option<(SetKind, u32)> {
    if O(words.first().map_or(0, |w| *w as u16)) != O::ExtInst {
        return None;
    }
    Some((*kinds.get(words.get(3)?)?, *words.get(4)?))
}

/// `--eliminate-dead-functions`: removes the functions that no entry point and no
/// exported function (an `OpDecorate … LinkageAttributes … Export`) reaches by calls,
/// with what spirv-opt's `KillInst` removes with each of their instructions: names,
/// decorations, and the non-semantic extended instructions that use them, directly or
/// through each other. An `OpenCL.DebugInfo.100` `DebugFunction` (or a
/// `DebugGlobalVariable`) that names a removed function (or variable) names a
/// `DebugInfoNone` instead, as in spirv-opt; one is added if the module has none.
///
/// The non-semantic instructions that follow a removed function stay where they are:
/// spirv-opt moves them to the end of the previous function (or of the globals), which
/// is the same place once the function is gone, without the debug lines they carried.
/// (In a module with debug-info instructions, spirv-opt writes the globals before them;
/// such modules are not written back unchanged by spirv-opt anyway.)
///
/// ```
/// use spirv_opt::structural::{run, StructuralPass};
/// use spirv_core::{spv, spv::inst, Builder};
///
/// let mut b = Builder::new((1, 0));
/// let [void, fnty] = [(); 2].map(|()| b.id().unwrap());
/// b.push(inst::TypeVoid { result_id: void })?;
/// b.push(inst::TypeFunction { result_id: fnty, return_type: void, parameter_types: [].into() })?;
/// let mut ids = Vec::new();
/// for _ in 0..2 {
///     ids.push(b.begin_function(void, spv::FunctionControl::NONE, fnty)?);
///     b.begin_block()?;
///     b.push(inst::Return {})?;
///     b.end_function()?;
/// }
/// let main = ids[0];
/// b.push(inst::EntryPoint {
///     execution_model: spv::ExecutionModel::GLCompute,
///     entry_point: main,
///     name: "main".into(),
///     interfaces: [].into(),
/// })?;
/// let module = b.build()?;
///
/// let (out, changed) = run(&module, &[StructuralPass::EliminateDeadFunctions], None)?;
/// assert!(changed);
/// assert_eq!(out.functions().len(), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// A non-semantic set is imported and the ids of some instruction cannot all be found
/// (to find the users of what is removed), or the edited module does not read.
pub(crate) fn eliminate_dead_functions_edits<'m>(
    module: &'m Module,
) -> Result<Edits<'m>, EditError> {
    // spirv-opt's `ProcessReachableCallTree`: from the entry points' functions and the
    // exported ones.
    let graph = CallGraph::with_rules(module, CallRules::SpirvOpt);
    let roots = graph.roots().iter().filter_map(|r| r.index);
    let live = graph.reached(roots.chain(graph.exports()));
    if live.iter().all(|&l| l) {
        return Ok(Edits::Unchanged);
    }
    let kinds = set_kinds(module);
    let uses = if kinds.values().any(|k| k.is_non_semantic()) {
        Some(UseIndex::new(module)?)
    } else {
        None
    };
    let cap = id_cap(module);
    // Ids of removed functions and variables, for the debug-info operands that name them.
    let mut dead_functions: IdTable<()> = IdTable::new();
    let mut dead_values: IdTable<()> = IdTable::new();
    let functions = graph.functions();
    let mut editor = Editor::new(module);
    {
        let mut killer = Killer::new(&mut editor);
        let mut to_kill: Vec<usize> = Vec::new();
        let mut queued = vec![false; module.len()];
        let mut work: Vec<usize> = Vec::new();
        for (k, f) in functions.iter().enumerate() {
            if live[k] {
                continue;
            }
            for inst in f.instructions.clone().filter_map(|i| module.instruction(i)) {
                let index = inst.index();
                // A debug line goes with the instruction it precedes; the loader's
                // copies of it on later instructions stay, as spirv-opt's do.
                if queued[index] || matches!(inst.opcode(), O::Line | O::NoLine) {
                    continue;
                }
                // spirv-opt's CollectNonSemanticTree: the non-semantic instructions that
                // use this one, and those that use them.
                if let (Some(uses), Some(_)) = (&uses, inst.result_id()) {
                    work.push(index);
                    while let Some(i) = work.pop() {
                        let Some(def) = module.instruction(i).and_then(|d| d.result_id()) else {
                            continue;
                        };
                        for &(user, _) in uses.uses(def) {
                            let user = user as usize;
                            let Some(u) = module.instruction(user) else {
                                continue;
                            };
                            let non_semantic =
                                ext(&kinds, u.words()).is_some_and(|(k, _)| k.is_non_semantic());
                            if non_semantic && !queued[user] {
                                queued[user] = true;
                                to_kill.push(user);
                                work.push(user);
                            }
                        }
                    }
                }
                match inst.opcode() {
                    O::Function => {
                        if let Some(id) = inst.result_id() {
                            dead_functions.insert(id.0, (), cap);
                        }
                    }
                    O::Variable => {
                        if let Some(id) = inst.result_id() {
                            dead_values.insert(id.0, (), cap);
                        }
                    }
                    _ => {}
                }
                killer.kill(index);
            }
            to_kill.sort_unstable();
            for i in to_kill.drain(..) {
                killer.kill(i);
            }
        }
        // The non-semantic instructions after each removed function (up to the next
        // function) that were not removed: spirv-opt kills the debug lines they carry
        // and moves them to the end of the previous function, or of the globals, which
        // is where they are. Written anew, they keep their place and lose their lines;
        // the lines in effect after them are unchanged.
        for (k, f) in functions.iter().enumerate() {
            if live[k] {
                continue;
            }
            let end = f.instructions.end;
            let next = functions
                .get(k + 1)
                .map_or(module.section_range(Section::Function).end, |n| {
                    n.instructions.start
                });
            for inst in (end..next).filter_map(|i| module.instruction(i)) {
                let moved =
                    ext(&kinds, inst.words()).is_some_and(|(k, _)| k == SetKind::NonSemantic);
                if moved && !queued[inst.index()] {
                    let h = InstId::from(inst.index());
                    killer.editor().remove(h);
                    killer.editor().insert_words_before(h, inst.words())?;
                }
            }
        }
        killer.finish()?;
    }
    replace_debug_operands(module, &kinds, &dead_functions, &dead_values, &mut editor)?;
    Ok(Edits::edited(editor, true))
}

/// Points the `DebugFunction`s of `OpenCL.DebugInfo.100` that name a removed function,
/// and the `DebugGlobalVariable`s (of either debug-info set) that name a removed
/// variable, at a `DebugInfoNone` (spirv-opt's `KillOperandFromDebugInstructions`).
///
/// spirv-opt builds its debug-info manager to find that `DebugInfoNone`, which moves
/// the module's first one, and its first empty `DebugExpression`, to the front of the
/// debug-info instructions (`AnalyzeDebugInsts`); without one it makes one there. So
/// does this, the front being the first debug-info instruction after `OpTypeVoid`.
fn replace_debug_operands(
    module: &Module,
    kinds: &BTreeMap<u32, SetKind>,
    dead_functions: &IdTable<()>,
    dead_values: &IdTable<()>,
    editor: &mut Editor<'_>,
) -> Result<(), EditError> {
    if dead_functions.is_empty() && dead_values.is_empty() {
        return Ok(());
    }
    let void = module
        .section(Section::Global)
        .find(|i| i.opcode() == O::TypeVoid);
    let globals = module.section_range(Section::Global);
    let mut none: Option<usize> = None;
    let mut empty_expression: Option<usize> = None;
    let mut debug: Vec<usize> = Vec::new();
    let mut targets: Vec<(usize, usize)> = Vec::new();
    for inst in module.instructions() {
        let Some((kind, number)) = ext(kinds, inst.words()) else {
            continue;
        };
        if !matches!(
            kind,
            SetKind::OpenClDebugInfo100 | SetKind::ShaderDebugInfo100
        ) {
            continue;
        }
        let (index, w) = (inst.index(), inst.words());
        if globals.contains(&index) && !kind.is_local_debug_info(number) {
            debug.push(index);
        }
        let (at, dead) = match number {
            DEBUG_INFO_NONE => {
                none.get_or_insert(index);
                continue;
            }
            DEBUG_EXPRESSION if w.len() == 5 => {
                empty_expression.get_or_insert(index);
                continue;
            }
            DEBUG_FUNCTION if kind == SetKind::OpenClDebugInfo100 => (14, dead_functions),
            DEBUG_GLOBAL_VARIABLE => (12, dead_values),
            _ => continue,
        };
        if w.get(at).is_some_and(|&id| dead.get(id).is_some()) {
            targets.push((index, at));
        }
    }
    if targets.is_empty() {
        return Ok(());
    }
    let after_void = void.map_or(0, |v| v.index() + 1);
    let front = debug
        .iter()
        .copied()
        .find(|&i| i >= after_void && Some(i) != none && Some(i) != empty_expression);
    // The front, or (with no debug-info instruction in the globals to put them before)
    // the first instruction that names what is removed.
    let anchor = InstId::from(front.unwrap_or(targets[0].0));
    let mut none_id = none
        .and_then(|i| module.instruction(i))
        .and_then(|i| i.words().get(2).copied());
    let mut group: Vec<Vec<u32>> = Vec::new();
    match none.and_then(|i| module.instruction(i)) {
        Some(inst) => group.push(inst.words().to_vec()),
        None => {
            let set = [SetKind::OpenClDebugInfo100, SetKind::ShaderDebugInfo100]
                .iter()
                .find_map(|want| kinds.iter().find(|(_, k)| *k == want).map(|(id, _)| *id));
            let Some(set) = set else { return Ok(()) };
            // The DebugInfoNone's id is taken before the void type's, as in spirv-opt.
            let id = editor.new_id()?;
            let void = match void.and_then(|v| v.result_id()) {
                Some(v) => v.0,
                None => {
                    let v = editor.new_id()?;
                    let op = (2 << 16) | u32::from(O::TypeVoid.0);
                    editor.insert_words_before(anchor, &[op, v.0])?;
                    v.0
                }
            };
            let op = (5 << 16) | u32::from(O::ExtInst.0);
            group.push(vec![op, void, id.0, set, DEBUG_INFO_NONE]);
            none_id = Some(id.0);
        }
    }
    if front.is_some() {
        group.extend(
            empty_expression
                .and_then(|i| module.instruction(i))
                .map(|i| i.words().to_vec()),
        );
        for moved in [none, empty_expression].into_iter().flatten() {
            editor.remove(InstId::from(moved));
        }
    } else if none.is_some() {
        // Nothing to move in front of: the DebugInfoNone stays where it is.
        group.clear();
    }
    for words in &group {
        editor.insert_words_before(anchor, words)?;
    }
    let Some(none_id) = none_id else {
        return Ok(());
    };
    for (index, at) in targets {
        let Some(inst) = module.instruction(index) else {
            continue;
        };
        let mut words = inst.words().to_vec();
        words[at] = none_id;
        editor.replace_words(InstId::from(index), &words)?;
    }
    Ok(())
}
