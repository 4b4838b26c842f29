//! `--remove-unused-interface-variables` (spirv-opt's
//! `RemoveUnusedInterfaceVariablesPass`), and the call-tree walk it shares with
//! `--eliminate-dead-functions` (spirv-opt's `IRContext::ProcessCallTreeFromRoots` and
//! `AddCalls`).

use super::Edits;
use spirv_core::__private::opt::IdTable;
use spirv_core::Id;
use spirv_core::edit::{DefIndex, EditError, Editor, InstId};
use spirv_core::grammar::KindClass;
use spirv_core::spv::Opcode as O;
use spirv_core::{FunctionRef, InstRef, Module, Section};
use std::collections::VecDeque;

/// The dense-index cap of an id table for `module`: twice its words.
pub(super) fn id_cap(module: &Module) -> usize {
    module.word_len().saturating_mul(2).max(1024)
}

/// The function a call-like instruction of a block names
/// ([`crate::analysis::call_graph::callee_of`]).
pub(super) fn callee(inst: &InstRef<'_>) -> Option<u32> {
    let w = inst.words();
    // In-operand `k` (after the result type and result) is word `3 + k`.
    crate::analysis::call_graph::callee_of(inst.opcode(), |k| w.get(3 + k).copied())
}

/// The module's functions by id, with the functions each one calls (first call first,
/// each once).
pub(super) struct CallGraph<'m> {
    /// Function position (in [`Module::functions`] order) of each function id.
    by_id: IdTable<u32>,
    functions: Vec<FunctionRef<'m>>,
    /// `callees[starts[f]..starts[f + 1]]` are function `f`'s callees, as ids.
    starts: Vec<u32>,
    callees: Vec<u32>,
}

impl<'m> CallGraph<'m> {
    /// Reads the functions of `module` and the calls in their blocks.
    pub(super) fn new(module: &'m Module) -> Self {
        let cap = id_cap(module);
        let functions: Vec<FunctionRef<'m>> = module.functions().collect();
        let mut by_id = IdTable::new();
        for (k, f) in functions.iter().enumerate() {
            if let Some(id) = f.def().result_id() {
                // The first definition wins, as spirv-opt's id-to-function map keeps it.
                if by_id.get(id.0).is_none() {
                    by_id.insert(id.0, k as u32, cap);
                }
            }
        }
        let mut starts = Vec::with_capacity(functions.len() + 1);
        let mut callees = Vec::new();
        // The function (position plus one) whose list last took each callee.
        let mut listed: IdTable<u32> = IdTable::new();
        for (k, f) in functions.iter().enumerate() {
            starts.push(callees.len() as u32);
            for block in f.blocks() {
                for inst in block.instructions() {
                    if let Some(c) = callee(&inst) {
                        if listed.get(c) != Some(&(k as u32 + 1)) {
                            listed.insert(c, k as u32 + 1, cap);
                            callees.push(c);
                        }
                    }
                }
            }
        }
        starts.push(callees.len() as u32);
        CallGraph {
            by_id,
            functions,
            starts,
            callees,
        }
    }

    /// The functions in module order.
    pub(super) fn functions(&self) -> &[FunctionRef<'m>] {
        &self.functions
    }

    /// The position of the function `id`, if it is one.
    pub(super) fn position(&self, id: u32) -> Option<usize> {
        self.by_id.get(id).map(|&k| k as usize)
    }

    /// Calls `visit` with the position of each function reachable from `roots` by
    /// calls, in spirv-opt's breadth-first order (roots first, in order), each once;
    /// ids that name no function are passed over. `seen` is scratch space of one flag
    /// per function, all false on entry and on return.
    pub(super) fn walk(&self, roots: &[u32], seen: &mut [bool], mut visit: impl FnMut(usize)) {
        let mut queue: VecDeque<usize> = VecDeque::new();
        let mut order = Vec::new();
        let push = |id: u32, queue: &mut VecDeque<usize>, seen: &mut [bool]| {
            if let Some(k) = self.position(id) {
                if !seen[k] {
                    seen[k] = true;
                    queue.push_back(k);
                }
            }
        };
        for &r in roots {
            push(r, &mut queue, seen);
        }
        while let Some(k) = queue.pop_front() {
            order.push(k);
            visit(k);
            let (a, b) = (self.starts[k] as usize, self.starts[k + 1] as usize);
            for &c in &self.callees[a..b] {
                push(c, &mut queue, seen);
            }
        }
        for k in order {
            seen[k] = false;
        }
    }
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
    let graph = CallGraph::new(module);
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
        graph.walk(&[root], &mut seen, |k| {
            if summaries[k].is_none() {
                let mut vars: Vec<u32> = Vec::new();
                let mine = k as u32 + 1;
                for block in graph.functions()[k].blocks() {
                    for inst in block.instructions() {
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
                }
                summaries[k] = Some(vars);
            }
            for &v in summaries[k].as_deref().unwrap_or(&[]) {
                if stamp.get(v).is_none_or(|&s| s != USED) {
                    stamp.insert(v, USED, cap);
                    used.push(v);
                }
            }
        });
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
