//! Static use: the global variables every entry point reaches through its calls, for
//! all entry points in one pass over the call graph.

use super::CallGraph;
use super::callgraph::Lists;
use crate::__private::Vec;
use crate::types::Id;

/// The global variables each entry point uses statically: named by any instruction of
/// a function reachable from it through `OpFunctionCall`. From
/// [`CallGraph::static_use`].
///
/// One pass over the call graph answers for every entry point: the functions are
/// grouped into regions that every call path enters at the same function (where paths
/// from different entry points or callers meet, a new region starts), each region's
/// set is made once from its own functions and the sets of the regions it calls, and
/// a set that adds nothing to the one region it calls is shared with it. Many entry
/// points calling one function, or one chain of functions, cost what the function or
/// the chain costs once. The time is linear in the module plus the sizes of the sets
/// made where paths meet.
///
/// ```
/// use spirv_core::analysis::CallGraph;
/// use spirv_core::{spv, spv::inst, Builder};
/// let mut b = Builder::new((1, 0));
/// let [void, fn_type, int, ptr, var, value] = [(); 6].map(|()| b.id().unwrap());
/// b.push(inst::TypeVoid { result_id: void }).unwrap();
/// b.push(inst::TypeFunction { result_id: fn_type, return_type: void, parameter_types: Default::default() }).unwrap();
/// b.push(inst::TypeInt { result_id: int, width: 32, signedness: 0 }).unwrap();
/// b.push(inst::TypePointer { result_id: ptr, storage_class: spv::StorageClass::Private, r#type: int }).unwrap();
/// b.push(inst::Variable { result_type: ptr, result_id: var, storage_class: spv::StorageClass::Private, initializer: None }).unwrap();
/// let main = b.begin_function(void, spv::FunctionControl::NONE, fn_type).unwrap();
/// b.begin_block().unwrap();
/// b.push(inst::Load { result_type: int, result_id: value, pointer: var, memory_access: None }).unwrap();
/// b.push(inst::Return {}).unwrap();
/// b.end_function().unwrap();
/// for name in ["a", "b"] {
///     b.push(inst::EntryPoint { execution_model: spv::ExecutionModel::GLCompute, entry_point: main, name: name.into(), interfaces: Default::default() }).unwrap();
/// }
/// let module = b.build().unwrap();
///
/// let used = CallGraph::new(&module).static_use();
/// assert_eq!(used.len(), 2);
/// assert_eq!(used.globals(0), [var]);
/// assert_eq!(used.globals(1), [var]);
/// ```
#[derive(Debug, Clone)]
pub struct StaticUse {
    /// Each root's set, as a range of `values`.
    roots: Vec<(u32, u32)>,
    values: Vec<Id>,
}

const NONE: u32 = u32::MAX;
const MANY: u32 = u32::MAX - 1;

impl StaticUse {
    pub(super) fn new(g: &CallGraph<'_>) -> StaticUse {
        let (component, c_count) = g.components();
        // Each component's members, its callee components and its own globals.
        let mut members = Lists::new();
        {
            let mut by_component: Vec<(u32, u32)> = (component.iter().enumerate())
                .map(|(f, &c)| (c, f as u32))
                .collect();
            by_component.sort_unstable();
            let mut at = 0;
            for c in 0..c_count as u32 {
                while let Some(&(cc, f)) = by_component.get(at) {
                    if cc != c {
                        break;
                    }
                    members.items.push(f);
                    at += 1;
                }
                members.close();
            }
        }
        let mut children = Lists::new();
        let mut child_mark = alloc::vec![NONE; c_count];
        for c in 0..c_count {
            for &f in members.get(c) {
                for callee in g.callees(f as usize) {
                    let d = component[callee];
                    if d as usize != c && child_mark[d as usize] != c as u32 {
                        child_mark[d as usize] = c as u32;
                        children.items.push(d);
                    }
                }
            }
            children.close();
        }
        // The components the entry points reach.
        let mut is_root = alloc::vec![false; c_count];
        let mut reached = alloc::vec![false; c_count];
        let mut stack: Vec<u32> = Vec::new();
        for r in g.roots() {
            if let Some(f) = r.index {
                let c = component[f];
                is_root[c as usize] = true;
                if !core::mem::replace(&mut reached[c as usize], true) {
                    stack.push(c);
                }
            }
        }
        while let Some(c) = stack.pop() {
            for &d in children.get(c as usize) {
                if !core::mem::replace(&mut reached[d as usize], true) {
                    stack.push(d);
                }
            }
        }
        // The globals each reached component's functions name: the only bodies walked.
        let mut own = Lists::new();
        let mut global_mark = alloc::vec![NONE; g.globals().len()];
        for (c, &reached) in reached.iter().enumerate() {
            if reached {
                for &f in members.get(c) {
                    g.visit_uses(f as usize, |v| {
                        if global_mark[v as usize] != c as u32 {
                            global_mark[v as usize] = c as u32;
                            own.items.push(v);
                        }
                    });
                }
            }
            own.close();
        }
        // Regions, callers first (components are numbered callees first): a component
        // all of whose callers lie in one region joins it; a root, or one called from
        // two regions, starts its own.
        let mut region = alloc::vec![NONE; c_count];
        let mut starts = alloc::vec![false; c_count];
        for c in (0..c_count).rev() {
            if !reached[c] {
                continue;
            }
            starts[c] = is_root[c] || region[c] == MANY;
            let mine = if starts[c] { c as u32 } else { region[c] };
            for &d in children.get(c) {
                let r = &mut region[d as usize];
                *r = match *r {
                    NONE => mine,
                    x if x == mine => x,
                    _ => MANY,
                };
            }
        }
        // Each region's set, callees first: its functions' own globals and the sets of
        // the regions it calls.
        let mut set_of: Vec<(u32, u32)> = alloc::vec![(0, 0); c_count];
        let mut values: Vec<u32> = Vec::new();
        let mut visit = child_mark;
        visit.fill(NONE);
        global_mark.fill(NONE);
        let mut buf: Vec<u32> = Vec::new();
        for c in 0..c_count {
            if !reached[c] || !starts[c] {
                continue;
            }
            let stamp = c as u32;
            buf.clear();
            // The largest set merged in: if the region adds nothing to it, share it.
            let mut largest: Option<(u32, u32)> = None;
            stack.clear();
            stack.push(stamp);
            visit[c] = stamp;
            while let Some(x) = stack.pop() {
                for &v in own.get(x as usize) {
                    if global_mark[v as usize] != stamp {
                        global_mark[v as usize] = stamp;
                        buf.push(v);
                    }
                }
                for &d in children.get(x as usize) {
                    let d = d as usize;
                    if core::mem::replace(&mut visit[d], stamp) == stamp {
                        continue;
                    }
                    if !starts[d] {
                        stack.push(d as u32);
                        continue;
                    }
                    let (from, to) = set_of[d];
                    for &v in &values[from as usize..to as usize] {
                        if global_mark[v as usize] != stamp {
                            global_mark[v as usize] = stamp;
                            buf.push(v);
                        }
                    }
                    if largest.is_none_or(|(a, b)| b - a < to - from) {
                        largest = Some((from, to));
                    }
                }
            }
            set_of[c] = match largest {
                Some((from, to)) if (to - from) as usize == buf.len() => (from, to),
                _ => {
                    buf.sort_unstable();
                    let from = values.len() as u32;
                    values.extend_from_slice(&buf);
                    (from, values.len() as u32)
                }
            };
        }
        let roots = g
            .roots()
            .iter()
            .map(|r| r.index.map_or((0, 0), |f| set_of[component[f] as usize]))
            .collect();
        StaticUse {
            roots,
            values: values.iter().map(|&v| g.globals()[v as usize]).collect(),
        }
    }

    /// Number of entry points.
    pub fn len(&self) -> usize {
        self.roots.len()
    }

    /// Whether the module has no entry point.
    pub fn is_empty(&self) -> bool {
        self.roots.is_empty()
    }

    /// The global variables entry point `root` (its position in
    /// [`CallGraph::roots`], which is `OpEntryPoint` order) uses, in declaration order;
    /// empty for an entry point whose function is not defined, or past the last.
    pub fn globals(&self, root: usize) -> &[Id] {
        match self.roots.get(root) {
            Some(&(from, to)) => &self.values[from as usize..to as usize],
            None => &[],
        }
    }
}
