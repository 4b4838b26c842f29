//! `--remove-unused-interface-variables` (spirv-opt's
//! `RemoveUnusedInterfaceVariablesPass`), over spirv-core's call graph with spirv-opt's
//! rules ([`CallRules::SpirvOpt`]).

use super::Edits;
use spirv_core::__private::opt::IdTable;
use spirv_core::Id;
use spirv_core::analysis::{CallGraph, CallRules};
use spirv_core::edit::{DefIndex, EditError, Editor, InstId};
use spirv_core::grammar::KindClass;
use spirv_core::spv::Opcode as O;
use spirv_core::{Module, Section};

/// The dense-index cap of an id table for `module`: twice its words.
pub(super) fn id_cap(module: &Module) -> usize {
    module.word_len().saturating_mul(2).max(1024)
}

/// The number of words of the literal string at the start of `words` (through the
/// word holding its terminating zero byte), or `None` if it is not terminated.
fn string_words(words: &[u32]) -> Option<usize> {
    words
        .iter()
        .position(|w| w.to_le_bytes().contains(&0))
        .map(|p| p + 1)
}

/// `--remove-unused-interface-variables`: rebuilds the interface of each entry point
/// from the global variables the instructions of its call tree's blocks use. Which
/// variables count depends on the version: from SPIR-V 1.4, every variable that is not
/// in the `Function` storage class; before, `Input` and `Output` ones only.
///
/// As spirv-opt does, an interface is rewritten only when it lists a variable not used,
/// lists one twice, or misses one; it is then written in order of first use (the call
/// tree breadth first, instructions and operands in order), not in its old order.
///
/// ```
/// use spirv_opt::structural::{run, StructuralPass};
/// use spirv_core::{spv, spv::inst, Builder};
///
/// let mut b = Builder::new((1, 0));
/// let [void, fnty, float, ptr] = [(); 4].map(|()| b.id().unwrap());
/// b.push(inst::TypeVoid { result_id: void })?;
/// b.push(inst::TypeFunction { result_id: fnty, return_type: void, parameter_types: [].into() })?;
/// b.push(inst::TypeFloat { result_id: float, width: 32, floating_point_encoding: None })?;
/// b.push(inst::TypePointer { result_id: ptr, storage_class: spv::StorageClass::Input, r#type: float })?;
/// let unused = b.id()?;
/// b.push(inst::Variable { result_type: ptr, result_id: unused, storage_class: spv::StorageClass::Input, initializer: None })?;
/// let main = b.begin_function(void, spv::FunctionControl::NONE, fnty)?;
/// b.begin_block()?;
/// b.push(inst::Return {})?;
/// b.end_function()?;
/// b.push(inst::EntryPoint {
///     execution_model: spv::ExecutionModel::Fragment,
///     entry_point: main,
///     name: "main".into(),
///     interfaces: [unused].into(),
/// })?;
/// let module = b.build()?;
///
/// let (out, changed) = run(&module, &[StructuralPass::RemoveUnusedInterfaceVariables], None)?;
/// assert!(changed);
/// let ep = out.section(spirv_core::Section::EntryPoint).next().unwrap();
/// assert_eq!(ep.operands().len(), 4, "model, function, \"main\" (two words): no interface");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// The ids of an instruction in a reachable block cannot all be found, or the edited
/// module does not read.
pub(crate) fn remove_unused_interface_variables_edits<'m>(
    module: &'m Module,
) -> Result<Edits<'m>, EditError> {
    let defs = DefIndex::new(module);
    let graph = CallGraph::with_rules(module, CallRules::SpirvOpt);
    let all_globals = module.header().version >= 0x0001_0400;
    let counts = |id: Id| -> bool {
        let Some(def) = defs.get(id).and_then(|i| module.instruction(i)) else {
            return false;
        };
        if def.opcode() != O::Variable {
            return false;
        }
        match def.operands().get(2).copied() {
            // Function (7), Input (1), Output (3).
            Some(7) | None => false,
            Some(sc) => all_globals || sc == 1 || sc == 3,
        }
    };
    // Each function's qualifying variables, in order of first use, each once; filled
    // when the function is first reached.
    let cap = id_cap(module);
    let mut summaries: Vec<Option<Vec<u32>>> = vec![None; graph.functions().len()];
    let mut seen = vec![false; graph.functions().len()];
    // The function (position plus one) whose summary last took each variable.
    let mut taken: IdTable<u32> = IdTable::new();
    // Per variable, for the entry point at hand: USED, then LISTED once the old
    // interface names it; reset to 0 after each entry point.
    const USED: u32 = 1;
    const LISTED: u32 = 2;
    let mut stamp: IdTable<u32> = IdTable::new();
    let mut editor = Editor::new(module);
    let mut changed = false;
    for ep in module.section(Section::EntryPoint) {
        let conditional = ep.opcode() == O::ConditionalEntryPointINTEL;
        if ep.opcode() != O::EntryPoint && !conditional {
            continue;
        }
        // The function operand, and where the name starts.
        let (func_at, name_at) = if conditional { (2, 3) } else { (1, 2) };
        let ops = ep.operands();
        let Some(&root) = ops.get(func_at) else {
            continue;
        };
        let Some(name_len) = ops.get(name_at..).and_then(string_words) else {
            continue;
        };
        let old = &ops[name_at + name_len..];
        let mut used: Vec<u32> = Vec::new();
        let mut failed = None;
        let root = graph.function(Id(root));
        for k in graph.breadth_first(root, &mut seen) {
            if summaries[k].is_none() {
                let mut vars: Vec<u32> = Vec::new();
                let mine = k as u32 + 1;
                // The whole function: what is outside its blocks (the `OpFunction`,
                // its parameters, its end) names no variable.
                let range = graph.functions()[k].instructions.clone();
                for inst in range.filter_map(|i| module.instruction(i)) {
                    let r = inst.visit_ids(|class, id| {
                        if matches!(class, KindClass::Result | KindClass::ResultType) {
                            return;
                        }
                        if taken.get(id.0) != Some(&mine) && counts(id) {
                            taken.insert(id.0, mine, cap);
                            vars.push(id.0);
                        }
                    });
                    if let Err(e) = r {
                        failed.get_or_insert(e);
                    }
                }
                summaries[k] = Some(vars);
            }
            for &v in summaries[k].as_deref().unwrap_or(&[]) {
                if stamp.get(v).is_none_or(|&s| s != USED) {
                    stamp.insert(v, USED, cap);
                    used.push(v);
                }
            }
        }
        if let Some(e) = failed {
            return Err(e.into());
        }
        // spirv-opt's ShouldModify: an old entry not used, or listed twice, or a used
        // variable missing.
        let mut modify = false;
        for &v in old {
            match stamp.get(v) {
                Some(&USED) => {
                    stamp.insert(v, LISTED, cap);
                }
                _ => {
                    modify = true;
                    break;
                }
            }
        }
        if !modify && old.len() != used.len() {
            modify = true;
        }
        // Clear the stamps for the next entry point.
        for &v in old.iter().chain(&used) {
            if stamp.get(v).is_some() {
                stamp.insert(v, 0, cap);
            }
        }
        if !modify {
            continue;
        }
        let keep = 1 + name_at + name_len;
        let mut words: Vec<u32> = ep.words()[..keep].to_vec();
        words.extend_from_slice(&used);
        let Ok(count) = u16::try_from(words.len()) else {
            return Err(EditError::NotOneInstruction);
        };
        words[0] = (u32::from(count) << 16) | u32::from(ep.opcode().0);
        editor.replace_words(InstId::from(ep.index()), &words)?;
        changed = true;
    }
    if !changed {
        return Ok(Edits::Unchanged);
    }
    Ok(Edits::edited(editor, true))
}
