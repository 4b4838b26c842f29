//! The call graph: functions, their callees through `OpFunctionCall`, the entry points
//! that are its roots, the global variables each function uses, and recursion.

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
    /// Index of its `OpEntryPoint` in the module.
    pub instruction: usize,
    /// Its execution model.
    pub model: spv::ExecutionModel,
    /// The function it names.
    pub function: Id,
    /// That function's position in [`CallGraph::functions`], if the module defines it.
    pub index: Option<usize>,
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

/// Functions, their callees through `OpFunctionCall`, the entry points, and the global
/// variables: built once from a borrowed [`Module`] in one pass over its instructions'
/// opcodes.
///
/// Functions are found in the instruction stream itself: each runs from an `OpFunction`
/// to the next `OpFunctionEnd` (an `OpFunction` before that is an ordinary instruction,
/// as for the reader and spirv-dis), or to the module's end. A global variable is an
/// `OpVariable` before the first function, not of `Function` storage; a function uses
/// one when any of its instructions names it as an id operand. A callee that is no
/// function of the module is left out. Recursion is allowed:
/// [`is_recursive`](Self::is_recursive) tells.
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
    /// Function by id (for an id defined twice, the last).
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
    /// Builds the call graph of `module`: one pass that looks at each instruction's
    /// opcode (function bodies are walked only for [`uses`](Self::uses) and
    /// [`static_use`](Self::static_use)).
    pub fn new(module: &'m Module) -> CallGraph<'m> {
        let cap = (module.header().bound as usize).min(module.word_len());
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
            let ops = inst.operands();
            let f = match current {
                Some(f) => f,
                None if op == spv::Opcode::Function => {
                    if in_globals {
                        // Every global is known: index them for the function bodies.
                        for (i, v) in g.globals.iter().enumerate() {
                            g.global_index.insert(v.0, i as u32, cap);
                        }
                    }
                    in_globals = false;
                    let f = g.functions.len();
                    let id = ops.get(1).copied().unwrap_or(0);
                    g.index.insert(id, f as u32, cap);
                    g.functions.push(Function {
                        id: Id(id),
                        instructions: inst.index()..module.len(),
                        terminated: false,
                    });
                    current = Some(f);
                    f
                }
                None => {
                    if in_globals {
                        g.global(&inst);
                    }
                    continue;
                }
            };
            if op == spv::Opcode::FunctionCall {
                if let Some(&callee) = ops.get(2) {
                    calls.items.push(callee);
                }
            }
            if op == spv::Opcode::FunctionEnd {
                g.functions[f].instructions.end = inst.index() + 1;
                g.functions[f].terminated = true;
                current = None;
                calls.close();
            }
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

    /// Records an entry point or a global variable.
    fn global(&mut self, inst: &crate::InstRef<'_>) {
        let ops = inst.operands();
        match inst.opcode() {
            spv::Opcode::EntryPoint => {
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
