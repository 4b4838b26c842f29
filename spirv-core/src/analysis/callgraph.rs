//! The call graph: functions, their callees, the entry points that are its roots, the
//! global variables each function uses, and recursion; the one call graph over a
//! [`Module`] (the validator, reflection and spirv-opt's structural passes build it,
//! each with its [`CallRules`]).

use super::StaticUse;
use super::table::IdTable;
use crate::__private::Vec;
use crate::module::Module;
use crate::spv;
use crate::types::Id;
use core::ops::Range;

/// A function of a [`CallGraph`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Function {
    /// Its result id.
    pub id: Id,
    /// Its instructions, by index in the module: from its `OpFunction` to its
    /// `OpFunctionEnd`, or to the module's end.
    pub instructions: Range<usize>,
    /// It ends with an `OpFunctionEnd`; one that runs to the end of the module does not.
    pub terminated: bool,
}

/// An entry point: a root of a [`CallGraph`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Root {
    /// Index of its `OpEntryPoint` (or, with [`CallRules::SpirvOpt`], its
    /// `OpConditionalEntryPointINTEL`) in the module.
    pub instruction: usize,
    /// Its execution model.
    pub model: spv::ExecutionModel,
    /// The function it names.
    pub function: Id,
    /// That function's position in [`CallGraph::functions`], if the module defines it.
    pub index: Option<usize>,
}

/// What counts as a call, a root and a function's id where the tools' meanings differ.
///
/// spirv-val and SPIRV-Reflect follow `OpFunctionCall` alone; spirv-opt's call trees
/// (`IRContext::AddCalls`) also follow the function operands of three cooperative
/// matrix instructions, start from conditional entry points too, and take a function id
/// defined twice to name its first definition (its id-to-function map keeps the first).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum CallRules {
    /// `OpFunctionCall` is the only call; the roots are the `OpEntryPoint`s; an id two
    /// functions define names the last (spirv-val's and reflection's meaning).
    #[default]
    Plain,
    /// spirv-opt's: besides `OpFunctionCall`, the function that
    /// `OpCooperativeMatrixPerElementOpNV`, `OpCooperativeMatrixReduceNV` and
    /// `OpCooperativeMatrixLoadTensorNV` (its `DecodeFunc` tensor addressing operand)
    /// name; the roots include `OpConditionalEntryPointINTEL`s; an id two functions
    /// define names the first.
    SpirvOpt,
}

/// The function a call-like instruction names, as spirv-opt's `AddCalls` finds it
/// ([`CallRules::SpirvOpt`]); `in_word(k)` is in-operand `k`'s first word (after the
/// result type and result). The one statement of that rule: spirv-opt's IR asks it too.
#[doc(hidden)]
pub fn callee_of(opcode: spv::Opcode, in_word: impl Fn(usize) -> Option<u32>) -> Option<u32> {
    use spv::Opcode as O;
    match opcode {
        O::FunctionCall => in_word(0),
        O::CooperativeMatrixPerElementOpNV => in_word(1),
        O::CooperativeMatrixReduceNV => in_word(2),
        O::CooperativeMatrixLoadTensorNV => {
            const MEMORY_OPERANDS: usize = 3;
            let mask = in_word(MEMORY_OPERANDS)?;
            // Aligned, MakePointerAvailable and MakePointerVisible take an operand each.
            let count = 1
                + usize::from(mask & 0x2 != 0)
                + usize::from(mask & 0x8 != 0)
                + usize::from(mask & 0x10 != 0);
            let tensor = MEMORY_OPERANDS + count;
            let tmask = in_word(tensor)?;
            // TensorView (0x1) takes one operand before DecodeFunc (0x2).
            let tcount = 1 + usize::from(tmask & 0x1 != 0);
            (tmask & 0x2 != 0)
                .then(|| in_word(tensor + tcount))
                .flatten()
        }
        _ => None,
    }
}

/// `start[i]..start[i + 1]` ranges over one flat vector: a list per item.
#[derive(Debug, Clone, Default)]
pub(super) struct Lists {
    start: Vec<u32>,
    pub(super) items: Vec<u32>,
}

impl Lists {
    pub(super) fn new() -> Self {
        Lists {
            start: alloc::vec![0],
            items: Vec::new(),
        }
    }
    /// Ends the list being filled.
    pub(super) fn close(&mut self) {
        self.start.push(self.items.len() as u32);
    }
    pub(super) fn get(&self, i: usize) -> &[u32] {
        match (self.start.get(i), self.start.get(i + 1)) {
            (Some(&a), Some(&b)) => &self.items[a as usize..b as usize],
            _ => &[],
        }
    }
}

/// Functions, their callees, the entry points, and the global variables: built once
/// from a borrowed [`Module`] in one pass over its instructions' opcodes.
///
/// Functions are found in the instruction stream itself: each runs from an `OpFunction`
/// to the next `OpFunctionEnd` (an `OpFunction` before that is an ordinary instruction
/// of it), or to the module's end. A call is an `OpFunctionCall` anywhere in a function
/// (and more with [`CallRules::SpirvOpt`]). A global variable is an `OpVariable` before
/// the first function, not of `Function` storage; a function uses one when any of its
/// instructions names it as an id operand. A callee that is no function of the module
/// is left out. Recursion is allowed: [`is_recursive`](Self::is_recursive) tells.
///
/// Time and memory are linear in the module; nothing recurses. Which globals a function
/// uses is found by walking its operands, which costs about what reading it did: only
/// [`uses`](Self::uses) and [`static_use`](Self::static_use) do, and only for the
/// functions they need.
///
/// ```
/// use spirv_core::analysis::CallGraph;
/// use spirv_core::{spv, spv::inst, Builder};
/// let mut b = Builder::new((1, 0));
/// let [void, fn_type] = [(); 2].map(|()| b.id().unwrap());
/// b.push(inst::TypeVoid { result_id: void }).unwrap();
/// b.push(inst::TypeFunction { result_id: fn_type, return_type: void, parameter_types: Default::default() }).unwrap();
/// let helper = b.begin_function(void, spv::FunctionControl::NONE, fn_type).unwrap();
/// b.begin_block().unwrap();
/// b.push(inst::Return {}).unwrap();
/// b.end_function().unwrap();
/// let main = b.begin_function(void, spv::FunctionControl::NONE, fn_type).unwrap();
/// b.begin_block().unwrap();
/// let call = b.id().unwrap();
/// b.push(inst::FunctionCall { result_type: void, result_id: call, function: helper, arguments: Default::default() }).unwrap();
/// b.push(inst::Return {}).unwrap();
/// b.end_function().unwrap();
/// b.push(inst::EntryPoint { execution_model: spv::ExecutionModel::GLCompute, entry_point: main, name: "main".into(), interfaces: Default::default() }).unwrap();
/// let module = b.build().unwrap();
///
/// let calls = CallGraph::new(&module);
/// let ids: Vec<_> = calls.functions().iter().map(|f| f.id).collect();
/// assert_eq!(ids, [helper, main]);
/// assert_eq!(calls.callees(1).collect::<Vec<_>>(), [0]);
/// assert_eq!(calls.roots()[0].index, Some(1));
/// assert!(!calls.is_recursive(0));
/// ```
#[derive(Debug, Clone)]
pub struct CallGraph<'m> {
    module: &'m Module,
    functions: Vec<Function>,
    /// Function by id (for an id defined twice, the one [`CallRules`] says).
    index: IdTable<u32>,
    /// Each function's callees (function indices), each once, in first-call order.
    callees: Lists,
    roots: Vec<Root>,
    globals: Vec<Id>,
    /// Global by id, when the module has functions (for an id defined twice, the last).
    global_index: IdTable<u32>,
    /// Strongly connected component of each function; components are numbered callees
    /// first.
    component: Vec<u32>,
    components: u32,
    recursive: Vec<bool>,
}

impl<'m> CallGraph<'m> {
    /// Builds the call graph of `module` with [`CallRules::Plain`]: one pass that looks
    /// at each instruction's opcode (function bodies are walked only for
    /// [`uses`](Self::uses) and [`static_use`](Self::static_use)).
    pub fn new(module: &'m Module) -> CallGraph<'m> {
        CallGraph::with_rules(module, CallRules::Plain)
    }

    /// Builds the call graph of `module` with `rules`, as [`new`](Self::new) does.
    pub fn with_rules(module: &'m Module, rules: CallRules) -> CallGraph<'m> {
        let cap = (module.header().bound as usize).min(module.word_len());
        let spirv_opt = rules == CallRules::SpirvOpt;
        let mut g = CallGraph {
            module,
            functions: Vec::new(),
            index: IdTable::new(),
            callees: Lists::new(),
            roots: Vec::new(),
            globals: Vec::new(),
            global_index: IdTable::new(),
            component: Vec::new(),
            components: 0,
            recursive: Vec::new(),
        };
        // The called ids, resolved once every function is known.
        let mut calls = Lists::new();
        let mut current: Option<usize> = None;
        let mut in_globals = true;
        for inst in module.instructions() {
            let op = inst.opcode();
            let Some(f) = current else {
                if op == spv::Opcode::Function {
                    if in_globals {
                        // Every global is known: index them for the function bodies.
                        for (i, v) in g.globals.iter().enumerate() {
                            g.global_index.insert(v.0, i as u32, cap);
                        }
                    }
                    in_globals = false;
                    let f = g.functions.len();
                    let id = inst.operands().get(1).copied().unwrap_or(0);
                    if !spirv_opt || g.index.get(id).is_none() {
                        g.index.insert(id, f as u32, cap);
                    }
                    g.functions.push(Function {
                        id: Id(id),
                        instructions: inst.index()..module.len(),
                        terminated: false,
                    });
                    current = Some(f);
                } else if in_globals {
                    g.global(&inst, spirv_opt);
                }
                continue;
            };
            // Most instructions are neither: their operands are not looked at.
            let callee = match op {
                spv::Opcode::FunctionCall => inst.operands().get(2).copied(),
                spv::Opcode::FunctionEnd => {
                    g.functions[f].instructions.end = inst.index() + 1;
                    g.functions[f].terminated = true;
                    current = None;
                    calls.close();
                    continue;
                }
                _ if spirv_opt => callee_of(op, |k| inst.words().get(3 + k).copied()),
                _ => None,
            };
            calls.items.extend(callee);
        }
        if current.is_some() {
            calls.close();
        }
        for r in &mut g.roots {
            r.index = g.index.get(r.function.0).map(|&f| f as usize);
        }
        g.resolve_calls(&calls);
        g.find_components();
        g
    }

    /// Calls `f` with the position in [`globals`](Self::globals) of every global
    /// variable function `function`'s instructions name (as often as they name it).
    pub(super) fn visit_uses(&self, function: usize, mut f: impl FnMut(u32)) {
        let Some(range) = self.functions.get(function).map(|f| f.instructions.clone()) else {
            return;
        };
        for i in range {
            if let Some(inst) = self.module.instruction(i) {
                let mut mark = |word: u32| {
                    if let Some(&v) = self.global_index.get(word) {
                        f(v);
                    }
                };
                if inst.visit_ids(|_, id| mark(id.0)).is_err() {
                    // Operands whose layout is not known: any word naming a variable
                    // may be a use, and a binding is better reported than missed.
                    inst.operands().iter().for_each(|&w| mark(w));
                }
            }
        }
    }

    /// Records an entry point (a conditional one too, with `conditional`) or a global
    /// variable.
    fn global(&mut self, inst: &crate::InstRef<'_>, conditional: bool) {
        let op = inst.opcode();
        if !matches!(
            op,
            spv::Opcode::EntryPoint
                | spv::Opcode::ConditionalEntryPointINTEL
                | spv::Opcode::Variable
        ) {
            return;
        }
        let ops = inst.operands();
        match op {
            spv::Opcode::EntryPoint | spv::Opcode::ConditionalEntryPointINTEL
                if op == spv::Opcode::EntryPoint || conditional =>
            {
                // A conditional entry point's condition comes first.
                let ops = ops
                    .get(usize::from(op != spv::Opcode::EntryPoint)..)
                    .unwrap_or(&[]);
                if let (Some(&model), Some(&function)) = (ops.first(), ops.get(1)) {
                    self.roots.push(Root {
                        instruction: inst.index(),
                        model: spv::ExecutionModel(model),
                        function: Id(function),
                        index: None,
                    });
                }
            }
            spv::Opcode::Variable => {
                if let (Some(_), Some(&id), Some(&storage)) = (ops.first(), ops.get(1), ops.get(2))
                {
                    if spv::StorageClass(storage) != spv::StorageClass::Function {
                        self.globals.push(Id(id));
                    }
                }
            }
            _ => {}
        }
    }

    /// Turns called ids into function indices, each callee once per caller.
    fn resolve_calls(&mut self, calls: &Lists) {
        let n = self.functions.len();
        let mut last_caller = alloc::vec![0u32; n];
        for f in 0..n {
            for &id in calls.get(f) {
                if let Some(&callee) = self.index.get(id) {
                    if last_caller[callee as usize] != f as u32 + 1 {
                        last_caller[callee as usize] = f as u32 + 1;
                        self.callees.items.push(callee);
                    }
                }
            }
            self.callees.close();
        }
    }

    /// Tarjan's strongly connected components, with an explicit stack. Components are
    /// numbered as they complete, which is callees first.
    fn find_components(&mut self) {
        const UNSEEN: u32 = u32::MAX;
        let n = self.functions.len();
        let mut order = alloc::vec![UNSEEN; n];
        let mut low = alloc::vec![0u32; n];
        let mut on_stack = alloc::vec![false; n];
        let mut stack: Vec<u32> = Vec::new();
        let mut frames: Vec<(u32, u32)> = Vec::new();
        let mut component = alloc::vec![0u32; n];
        let mut recursive = alloc::vec![false; n];
        let (mut counter, mut components) = (0u32, 0u32);
        for s in 0..n {
            if order[s] != UNSEEN {
                continue;
            }
            order[s] = counter;
            low[s] = counter;
            counter += 1;
            stack.push(s as u32);
            on_stack[s] = true;
            frames.push((s as u32, 0));
            while let Some(top) = frames.last_mut() {
                let (v, k) = (top.0 as usize, top.1 as usize);
                if let Some(&w) = self.callees.get(v).get(k) {
                    top.1 += 1;
                    let w = w as usize;
                    if w == v {
                        recursive[v] = true;
                    }
                    if order[w] == UNSEEN {
                        order[w] = counter;
                        low[w] = counter;
                        counter += 1;
                        stack.push(w as u32);
                        on_stack[w] = true;
                        frames.push((w as u32, 0));
                    } else if on_stack[w] {
                        low[v] = low[v].min(order[w]);
                    }
                    continue;
                }
                frames.pop();
                if let Some(parent) = frames.last() {
                    let p = parent.0 as usize;
                    low[p] = low[p].min(low[v]);
                }
                if low[v] == order[v] {
                    while let Some(x) = stack.pop() {
                        on_stack[x as usize] = false;
                        component[x as usize] = components;
                        if x as usize == v {
                            break;
                        }
                    }
                    components += 1;
                }
            }
        }
        // Members of components of two or more functions are recursive.
        let mut size = alloc::vec![0u32; components as usize];
        for &c in &component {
            size[c as usize] += 1;
        }
        for (f, &c) in component.iter().enumerate() {
            if size[c as usize] > 1 {
                recursive[f] = true;
            }
        }
        self.component = component;
        self.components = components;
        self.recursive = recursive;
    }

    /// The functions, in module order.
    pub fn functions(&self) -> &[Function] {
        &self.functions
    }

    /// The position in [`functions`](Self::functions) of the function `id`.
    pub fn function(&self, id: Id) -> Option<usize> {
        self.index.get(id.0).map(|&f| f as usize)
    }

    /// The entry points, in `OpEntryPoint` order.
    pub fn roots(&self) -> &[Root] {
        &self.roots
    }

    /// The global variables, in declaration order.
    pub fn globals(&self) -> &[Id] {
        &self.globals
    }

    /// The functions function `f` calls, each once, in the order of their first call.
    pub fn callees(&self, f: usize) -> impl ExactSizeIterator<Item = usize> + '_ {
        self.callees.get(f).iter().map(|&c| c as usize)
    }

    /// The module.
    pub fn module(&self) -> &'m Module {
        self.module
    }

    /// The global variables function `f`'s own instructions name, each once, in the
    /// order of their first use: one walk of its instructions.
    pub fn uses(&self, f: usize) -> Vec<Id> {
        let mut seen = alloc::vec![false; self.globals.len()];
        let mut used = Vec::new();
        self.visit_uses(f, |v| {
            if !core::mem::replace(&mut seen[v as usize], true) {
                used.push(self.globals[v as usize]);
            }
        });
        used
    }

    /// Whether function `f` can call itself, directly or through others.
    pub fn is_recursive(&self, f: usize) -> bool {
        self.recursive.get(f).copied().unwrap_or(false)
    }

    /// The functions reachable from the functions `from` (themselves included), by
    /// position in [`functions`](Self::functions): one walk, linear in what it reaches.
    /// With every root's function, it gives the live functions.
    pub fn reached(&self, from: impl IntoIterator<Item = usize>) -> Vec<bool> {
        let mut seen = alloc::vec![false; self.functions.len()];
        let mut stack: Vec<usize> = Vec::new();
        for f in from {
            if f < seen.len() && !core::mem::replace(&mut seen[f], true) {
                stack.push(f);
            }
        }
        while let Some(f) = stack.pop() {
            for c in self.callees(f) {
                if !core::mem::replace(&mut seen[c], true) {
                    stack.push(c);
                }
            }
        }
        seen
    }

    /// The functions reachable from the functions `from`, by position, in spirv-opt's
    /// breadth-first order (`ProcessCallTree`): `from` first, in order, then each one's
    /// callees in the order of their first call, each function once. `seen` holds a
    /// flag per function, all false on entry; they are false again on return, so one
    /// buffer serves many walks at the cost of what each reaches.
    pub fn breadth_first(
        &self,
        from: impl IntoIterator<Item = usize>,
        seen: &mut [bool],
    ) -> Vec<usize> {
        let mut order: Vec<usize> = Vec::new();
        for f in from {
            if let Some(s) = seen.get_mut(f) {
                if !core::mem::replace(s, true) {
                    order.push(f);
                }
            }
        }
        // `order` is the queue: what is behind `next` has been visited.
        let mut next = 0;
        while let Some(&f) = order.get(next) {
            next += 1;
            for c in self.callees(f) {
                if let Some(s) = seen.get_mut(c) {
                    if !core::mem::replace(s, true) {
                        order.push(c);
                    }
                }
            }
        }
        for &f in &order {
            seen[f] = false;
        }
        order
    }

    /// The functions an `OpDecorate … LinkageAttributes … Export` names, by position,
    /// in annotation order (decoration groups are not followed): with the entry points'
    /// functions, the roots of spirv-opt's `ProcessReachableCallTree`. One pass over
    /// the annotations.
    pub fn exports(&self) -> Vec<usize> {
        const EXPORT: u32 = 0;
        self.module
            .section(crate::Section::Annotation)
            .filter(|a| a.opcode() == spv::Opcode::Decorate)
            .filter_map(|a| {
                let ops = a.operands();
                let export = ops.get(1) == Some(&spv::Decoration::LinkageAttributes.0)
                    && ops.last() == Some(&EXPORT);
                export.then(|| self.function(Id(ops[0]))).flatten()
            })
            .collect()
    }

    /// The global variables every entry point uses statically, for all entry points at
    /// once; see [`StaticUse`].
    pub fn static_use(&self) -> StaticUse {
        StaticUse::new(self)
    }

    /// The strongly connected component of each function (numbered callees first), and
    /// how many there are.
    pub(super) fn components(&self) -> (&[u32], usize) {
        (&self.component, self.components as usize)
    }
}
