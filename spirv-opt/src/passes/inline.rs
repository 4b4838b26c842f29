//! `--inline-entry-points-exhaustive` (spirv-opt's `InlineExhaustivePass` over
//! `InlinePass`, `source/opt/inline_pass.cpp`): every call to an inlinable function in
//! the functions reachable from the entry points and exports is replaced by a copy of
//! the callee's body, with fresh ids taken in the order of the callee's instructions,
//! its local variables moved to the caller's entry block, and its return value passed
//! through a new variable. A function is inlinable when it has a body, is not
//! `DontInline`, is not recursive, has its only return at its end and none in a loop
//! (in a shader), and, when called from a continue construct, aborts only with
//! `OpUnreachable`.
//!
//! Before copying anything, the pass works out what the whole run will take
//! ([`check_growth`]): when the ids it must take pass the id bound, it fails at once
//! with spirv-opt's id-overflow error (spirv-opt fails the same way, after the copies);
//! when the words it would copy pass a budget, it fails with an error of its own
//! (spirv-opt copies on, as long as memory lasts).
//!
//! Debug scopes: where the call has a debug scope, each inlined instruction's scope
//! gets a copy of its `DebugInlinedAt` chain ending in a new `DebugInlinedAt` for the
//! call (`Context::build_debug_inlined_at_chain`), made once per chain and call.

use crate::analysis::Analyses;
use crate::analysis::types::Ty;
use crate::context::{Context, InlinedAtContext};
use crate::ir::{Block, Func, Inst, Kind, Operand};
use crate::pass::{IrPass, PassError, Status};
use spirv_core::spv::Opcode as O;
use std::collections::{BTreeMap, HashMap, HashSet};

/// The pass's flag.
pub const FLAG: &str = "inline-entry-points-exhaustive";

/// `--inline-entry-points-exhaustive`.
#[derive(Debug, Clone, Copy, Default)]
pub struct InlineExhaustive;

impl IrPass for InlineExhaustive {
    fn flag(&self) -> &'static str {
        FLAG
    }

    fn process(&self, cx: &mut Context) -> Result<Status, PassError> {
        let mut s = initialize(cx);
        check_growth(cx, &s)?;
        let mut failed = false;
        let mut modified = false;
        cx.process_reachable_call_tree(&mut |cx, f| {
            match inline_exhaustive(cx, &mut s, f) {
                Ok(m) => modified |= m,
                Err(()) => failed = true,
            }
            false
        });
        if failed {
            let message = if cx.id_overflow {
                "ID overflow. Try running compact-ids."
            } else {
                "could not inline a call (the module is malformed)"
            };
            return Err(PassError {
                pass: FLAG,
                message: message.into(),
            });
        }
        Ok(Status::from_changed(modified))
    }
}

/// The pass's state (`InlinePass`'s members).
#[derive(Default)]
struct State {
    id2function: HashMap<u32, Func>,
    id2block: HashMap<u32, Block>,
    inlinable: HashSet<u32>,
    no_return_in_loop: HashSet<u32>,
    early_return_funcs: HashSet<u32>,
    called_from_continue: HashSet<u32>,
    /// The functions that reach themselves through calls.
    recursive: HashSet<u32>,
    /// The `Function` pointer type found for each return type: the same answer as
    /// looking through the types again, as the pass adds pointer types only at their
    /// end, and each look walked every type, constant and global variable.
    return_pointers: HashMap<u32, u32>,
}

type Res<T> = Result<T, ()>;

/// `InitializeInline`.
fn initialize(cx: &mut Context) -> State {
    let mut s = State {
        called_from_continue: cx.find_funcs_called_from_continue().into_iter().collect(),
        ..State::default()
    };
    let funcs: Vec<Func> = cx.ir.functions().to_vec();
    s.recursive = recursive_functions(cx, &funcs);
    for f in funcs {
        let id = cx.ir.func_id(f);
        s.id2function.insert(id, f);
        for b in cx.ir.blocks(f) {
            s.id2block.insert(cx.ir.block_id(b), b);
        }
        if is_inlinable_function(cx, &mut s, f) {
            s.inlinable.insert(id);
        }
    }
    s
}

/// The words a run may copy beyond [`GROWTH_PER_WORD`] per word of the module.
const GROWTH_WORDS: u64 = 1 << 24;
/// The words a run may copy per word of the module, beyond [`GROWTH_WORDS`].
const GROWTH_PER_WORD: u64 = 16;

/// What inlining one function fully takes: the ids of its copy and of the copies
/// inlined into it, and the words copied.
#[derive(Clone, Copy, Default)]
struct Cost {
    ids: u64,
    words: u64,
}

impl Cost {
    fn add(&mut self, other: Cost) {
        self.ids = self.ids.saturating_add(other.ids);
        self.words = self.words.saturating_add(other.words);
    }
}

/// The inlinable calls of `f`: the callees the scan will inline (inlinable, with no
/// early return), in order.
fn inlined_callees(cx: &Context, s: &State, f: Func) -> Vec<u32> {
    let mut out = Vec::new();
    for b in cx.ir.blocks(f) {
        for i in cx.ir.insts(b) {
            let d = cx.ir.data(i);
            if d.opcode() == O::FunctionCall && d.num_in_operands() > 0 {
                let callee = d.in_word(0);
                if s.inlinable.contains(&callee) && !s.early_return_funcs.contains(&callee) {
                    out.push(callee);
                }
            }
        }
    }
    out
}

/// What one copy of `f` alone takes: a fresh id for each result id but its
/// parameters' (the call's arguments) and its entry label (the call's block), and its
/// instructions' words.
fn own_cost(cx: &Context, f: Func) -> Cost {
    let mut c = Cost::default();
    cx.ir.func_insts(f, false, &mut |i| {
        let d = cx.ir.data(i);
        c.words += d.word_count() as u64;
        c.ids += u64::from(d.result_id() != 0);
    });
    let params = cx.ir.params(f).count() as u64;
    c.ids = c.ids.saturating_sub(params + 1);
    c
}

/// Fails when the run cannot end well, before it copies anything.
///
/// Each root of the call tree is processed with its body as the module gives it (only
/// processing a function changes it), and a failure-free run inlines every call the
/// scan meets, those of the copies included: so the ids it takes are at least, over
/// the roots' inlinable calls, the full cost of each callee ([`Cost`], summed over the
/// acyclic graph of inlinable calls, each function costed once). When that passes the
/// ids left below the bound, the run is bound to fail as spirv-opt's does (with "ID
/// overflow"); spirv-opt gets there after copying until the ids run out, which on a
/// crafted module of many entry points over one call chain is quadratic work. The
/// words copied are bounded the same way, by a budget spirv-opt does not have: a body
/// of many instructions with few results, inlined many times, takes few ids.
fn check_growth(cx: &Context, s: &State) -> Result<(), PassError> {
    let mut full: HashMap<u32, Cost> = HashMap::new();
    // Depth first over inlinable calls on an explicit stack: a function, its cost so
    // far, its callees and the next one to visit.
    let mut visiting: HashSet<u32> = HashSet::new();
    for &start in &s.inlinable {
        if full.contains_key(&start) {
            continue;
        }
        let Some(&f) = s.id2function.get(&start) else {
            continue;
        };
        visiting.insert(start);
        let mut stack = vec![(start, own_cost(cx, f), inlined_callees(cx, s, f), 0usize)];
        while let Some(top) = stack.last_mut() {
            if let Some(&callee) = top.2.get(top.3) {
                top.3 += 1;
                if let Some(&c) = full.get(&callee) {
                    top.1.add(c);
                } else if let Some(&g) = s.id2function.get(&callee) {
                    // An inlinable function reaches no cycle; `visiting` only guards.
                    if visiting.insert(callee) {
                        stack.push((callee, own_cost(cx, g), inlined_callees(cx, s, g), 0));
                    }
                }
                continue;
            }
            let (id, cost, _, _) = stack.pop().expect("a frame");
            visiting.remove(&id);
            full.insert(id, cost);
            if let Some(parent) = stack.last_mut() {
                parent.1.add(cost);
            }
        }
    }
    let mut total = Cost::default();
    let mut seen = HashSet::new();
    let roots =
        crate::analysis::call_graph::reachable_roots(&cx.ir, &|id| s.id2function.contains_key(&id));
    for root in roots {
        let Some(&f) = s.id2function.get(&root) else {
            continue;
        };
        if !seen.insert(root) {
            continue;
        }
        for callee in inlined_callees(cx, s, f) {
            total.add(full.get(&callee).copied().unwrap_or_default());
        }
    }
    let ids_left = u64::from(cx.ir.max_id_bound.saturating_sub(cx.ir.header.bound));
    if total.ids > ids_left {
        return Err(PassError {
            pass: FLAG,
            message: "ID overflow. Try running compact-ids.".into(),
        });
    }
    let mut module_words = 0u64;
    cx.ir
        .for_each_inst_written(&mut |ir, i| module_words += ir.data(i).word_count() as u64);
    let budget = GROWTH_WORDS.saturating_add(module_words.saturating_mul(GROWTH_PER_WORD));
    if total.words > budget {
        return Err(PassError {
            pass: FLAG,
            message: format!(
                "inlining would copy {} words, past this optimizer's budget of {budget} for \
                 this module",
                total.words
            ),
        });
    }
    Ok(())
}

/// `IsInlinableFunction`.
fn is_inlinable_function(cx: &mut Context, s: &mut State, f: Func) -> bool {
    if cx.ir.is_declaration(f) {
        return false;
    }
    // FunctionControl DontInline.
    if cx.ir.data(cx.ir.func_def(f)).in_word(0) & 0x2 != 0 {
        return false;
    }
    analyze_returns(cx, s, f);
    let id = cx.ir.func_id(f);
    if !s.no_return_in_loop.contains(&id) {
        return false;
    }
    if s.recursive.contains(&id) {
        return false;
    }
    if s.called_from_continue.contains(&id) && contains_abort_other_than_unreachable(cx, f) {
        return false;
    }
    true
}

/// `AnalyzeReturns`.
fn analyze_returns(cx: &mut Context, s: &mut State, f: Func) {
    let id = cx.ir.func_id(f);
    if has_no_return_in_loop(cx, f) {
        s.no_return_in_loop.insert(id);
    }
    let last = cx.ir.last_block(f);
    for b in cx.ir.blocks(f) {
        let ret = cx
            .ir
            .terminator(b)
            .is_some_and(|t| matches!(cx.ir.opcode(t), O::Return | O::ReturnValue));
        if ret && Some(b) != last {
            s.early_return_funcs.insert(id);
            break;
        }
    }
}

/// `HasNoReturnInLoop`: false outside shaders.
fn has_no_return_in_loop(cx: &mut Context, f: Func) -> bool {
    if !cx.is_shader() {
        return false;
    }
    cx.struct_cfg();
    let blocks: Vec<Block> = cx.ir.blocks(f).collect();
    for b in blocks {
        let ret = cx
            .ir
            .terminator(b)
            .is_some_and(|t| matches!(cx.ir.opcode(t), O::Return | O::ReturnValue));
        let id = cx.ir.block_id(b);
        if ret && cx.struct_cfg().containing_loop(id) != 0 {
            return false;
        }
    }
    true
}

/// The functions that reach themselves through calls (`Function::IsRecursive` of
/// each). spirv-opt walks the call tree from each function's callees, quadratic over a
/// long chain of calls; a function reaches itself exactly when it lies on a cycle of the
/// call graph, so one pass of Tarjan's strongly connected components (on explicit
/// stacks) answers for all of them.
fn recursive_functions(cx: &Context, funcs: &[Func]) -> HashSet<u32> {
    const UNSEEN: u32 = u32::MAX;
    let index_of: HashMap<u32, usize> = funcs
        .iter()
        .enumerate()
        .map(|(k, &f)| (cx.ir.func_id(f), k))
        .collect();
    let calls: Vec<Vec<usize>> = funcs
        .iter()
        .map(|&f| {
            crate::analysis::call_graph::callees(&cx.ir, f)
                .into_iter()
                .filter_map(|c| index_of.get(&c).copied())
                .collect()
        })
        .collect();
    let n = funcs.len();
    let (mut index, mut low, mut on_stack) = (vec![UNSEEN; n], vec![0u32; n], vec![false; n]);
    let mut next = 0u32;
    let mut stack: Vec<usize> = Vec::new();
    let mut out = HashSet::new();
    for root in 0..n {
        if index[root] != UNSEEN {
            continue;
        }
        // Each frame: a function and the next of its calls to follow.
        let mut work = vec![(root, 0usize)];
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&(v, k)) = work.last() {
            if let Some(&w) = calls[v].get(k) {
                if let Some(top) = work.last_mut() {
                    top.1 += 1;
                }
                if index[w] == UNSEEN {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] != index[v] {
                continue;
            }
            let mut component = Vec::new();
            while let Some(w) = stack.pop() {
                on_stack[w] = false;
                component.push(w);
                if w == v {
                    break;
                }
            }
            if component.len() > 1 || calls[v].contains(&v) {
                out.extend(component.into_iter().map(|w| cx.ir.func_id(funcs[w])));
            }
        }
    }
    out
}

/// `ContainsAbortOtherThanUnreachable`.
fn contains_abort_other_than_unreachable(cx: &Context, f: Func) -> bool {
    let mut found = false;
    cx.ir.func_insts(f, false, &mut |i| {
        let op = cx.ir.opcode(i);
        found |= op != O::Unreachable && is_abort(op);
    });
    found
}

/// `spvOpcodeIsAbort`.
fn is_abort(op: O) -> bool {
    matches!(
        op,
        O::Kill
            | O::Unreachable
            | O::TerminateInvocation
            | O::TerminateRayKHR
            | O::IgnoreIntersectionKHR
            | O::EmitMeshTasksEXT
    )
}

/// `IsInlinableFunctionCall`. For a call to an inlinable function with an early
/// return, spirv-opt warns that merge-return should run first, printing the function's
/// `OpFunction`, which writes the module: that takes ids, and this takes the same.
fn is_inlinable_call(cx: &mut Context, s: &State, i: Inst) -> bool {
    if cx.ir.opcode(i) != O::FunctionCall {
        return false;
    }
    let callee = cx.ir.data(i).in_word(0);
    if !s.inlinable.contains(&callee) {
        return false;
    }
    if s.early_return_funcs.contains(&callee) {
        cx.to_words_with(false);
        if let Some(f) = cx.get_function(callee) {
            let def = cx.ir.data(cx.ir.func_def(f));
            let text = format!(
                "The function '{}' could not be inlined because the return instruction is not \
                 at the end of the function. This could be fixed by running merge-return \
                 before inlining.",
                function_text(
                    def.result_id(),
                    def.type_id(),
                    def.in_word(0),
                    def.in_word(1)
                )
            );
            cx.warnings.push(text);
        }
        return false;
    }
    true
}

/// An `OpFunction` as spirv-opt's `PrettyPrint` writes it in its warning: raw ids, the
/// control mask's names joined by `|` (its number when a bit has no name).
fn function_text(result: u32, ty: u32, control: u32, fn_type: u32) -> String {
    use spirv_core::grammar::Enum as _;
    use spirv_core::spv::FunctionControl as C;
    let name = |bits: u32| C::from_u32(bits).name();
    let control = if control == 0 {
        name(0).unwrap_or("None").to_owned()
    } else {
        let bits: Option<Vec<&str>> = (0..32)
            .map(|b| 1u32 << b)
            .filter(|b| control & b != 0)
            .map(name)
            .collect();
        bits.map_or_else(|| control.to_string(), |b| b.join("|"))
    };
    format!("%{result} = OpFunction %{ty} {control} %{fn_type}")
}

/// `InlineExhaustive` of one function.
fn inline_exhaustive(cx: &mut Context, s: &mut State, f: Func) -> Res<bool> {
    let mut modified = false;
    let mut bi = cx.ir.entry(f);
    while let Some(b) = bi {
        let mut current = b;
        let mut ii = cx.ir.first_inst(current);
        while let Some(i) = ii {
            if !is_inlinable_call(cx, s, i) {
                ii = cx.ir.next(i);
                continue;
            }
            let (new_blocks, new_vars) = gen_inline_code(cx, s, i, current)?;
            if new_blocks.len() > 1 {
                update_succeeding_phis(cx, s, &new_blocks);
            }
            for &nb in &new_blocks {
                cx.ir.insert_block_before(current, nb);
            }
            cx.ir.unlink_block(current);
            let label = cx.ir.label(current);
            cx.ir.mark_dead(label);
            if !new_vars.is_empty() {
                let entry = cx.ir.entry(f).ok_or(())?;
                match cx.ir.first_inst(entry) {
                    Some(first) => {
                        for v in new_vars {
                            cx.ir.insert_before(first, v);
                        }
                    }
                    None => {
                        for v in new_vars {
                            cx.ir.push_block_inst(entry, v);
                        }
                    }
                }
            }
            current = new_blocks[0];
            ii = cx.ir.first_inst(current);
            modified = true;
        }
        bi = cx.ir.next_block(current);
    }
    if modified {
        fix_debug_declares(cx, f);
    }
    Ok(modified)
}

/// `UpdateSucceedingPhis`: phis after the inlined code name its last block where they
/// named the call's block.
fn update_succeeding_phis(cx: &mut Context, s: &State, new_blocks: &[Block]) {
    let first = cx.ir.block_id(new_blocks[0]);
    let last_block = *new_blocks.last().expect("blocks");
    let last = cx.ir.block_id(last_block);
    for succ in cx.ir.successors(last_block) {
        let Some(&sb) = s.id2block.get(&succ) else {
            continue;
        };
        for phi in cx.phis(sb) {
            cx.ir
                .data_mut(phi)
                .map_in_ids(|id| if id == first { last } else { id });
        }
    }
}

/// `InlineSingleInstruction`: a copy of `inst` with its ids mapped, at the end of `b`.
fn inline_single_instruction(
    cx: &mut Context,
    map: &HashMap<u32, u32>,
    b: Block,
    inst: Inst,
    at: u32,
) -> Res<()> {
    if matches!(cx.ir.opcode(inst), O::Return | O::ReturnValue) {
        return Ok(());
    }
    let cp = cx.ir.clone_inst(inst).ok_or(())?;
    cx.ir
        .data_mut(cp)
        .map_in_ids(|id| map.get(&id).copied().unwrap_or(id));
    let rid = cx.ir.result_id(cp);
    if rid != 0 {
        let nid = *map.get(&rid).ok_or(())?;
        cx.ir.data_mut(cp).set_result_id(nid);
        cx.clone_decorations(rid, nid, None);
    }
    cx.ir.update_debug_inlined_at(cp, at);
    cx.ir.push_block_inst(b, cp);
    Ok(())
}

/// A new block labelled `id` (not in a function).
fn new_block(cx: &mut Context, id: u32) -> Block {
    let label = cx.make(O::Label, 0, id, &[]);
    cx.ir.new_block(label)
}

/// `AddBranch`.
fn add_branch(cx: &mut Context, label: u32, b: Block) {
    let br = cx.make(O::Branch, 0, 0, &[Operand::id(label)]);
    cx.ir.push_block_inst(b, br);
}

/// `AddStore`/`AddLoad` with a copy of the debug line and the scope.
fn add_with_line(
    cx: &mut Context,
    i: Inst,
    b: Block,
    line: Option<Inst>,
    scope: crate::ir::DebugScope,
) -> Res<()> {
    if let Some(l) = line {
        cx.add_debug_line(i, l).ok_or(())?;
    }
    cx.ir.set_scope(i, scope);
    cx.ir.push_block_inst(b, i);
    Ok(())
}

/// `GenInlineCode`: the blocks and variables that replace the call `call` in block
/// `call_block`.
fn gen_inline_code(
    cx: &mut Context,
    s: &mut State,
    call: Inst,
    call_block: Block,
) -> Res<(Vec<Block>, Vec<Inst>)> {
    let mut map: HashMap<u32, u32> = HashMap::new();
    let mut pre_call_sb: HashMap<u32, Inst> = HashMap::new();
    let mut post_call_sb: HashMap<u32, u32> = HashMap::new();
    let mut new_blocks: Vec<Block> = Vec::new();
    let mut new_vars: Vec<Inst> = Vec::new();
    let mut iac = InlinedAtContext::new(&cx.ir, call);
    cx.invalidate(Analyses::DEF_USE);
    let caller_is_loop_header = cx.ir.loop_merge_inst(call_block).is_some();
    let callee_id = cx.ir.data(call).in_word(0);
    let callee = *s.id2function.get(&callee_id).ok_or(())?;
    // MapParams.
    let call_data = cx.ir.data(call).clone();
    let params: Vec<Inst> = cx.ir.params(callee).collect();
    for (k, p) in params.iter().enumerate() {
        map.insert(cx.ir.result_id(*p), call_data.word(3 + k));
    }
    // CloneAndMapLocals.
    let callee_entry = cx.ir.entry(callee).ok_or(())?;
    let (opencl, shader) = {
        let f = cx.features();
        (f.opencl_debug_info, f.shader_debug_info)
    };
    let is_debug_declare = |cx: &Context, i: Inst| {
        let d = cx.ir.data(i);
        d.opcode() == O::ExtInst
            && (opencl != 0 || shader != 0)
            && (d.in_word(0) == opencl || d.in_word(0) == shader)
            && d.in_word(1) == 28
    };
    let mut v = cx.ir.first_inst(callee_entry);
    while let Some(i) = v {
        if cx.ir.opcode(i) != O::Variable && !is_debug_declare(cx, i) {
            break;
        }
        if cx.ir.opcode(i) == O::Variable {
            let var = cx.ir.clone_inst(i).ok_or(())?;
            let new_id = cx.take_next_id().ok_or(())?;
            let old_id = cx.ir.result_id(i);
            cx.clone_decorations(old_id, new_id, None);
            cx.ir.data_mut(var).set_result_id(new_id);
            let at = cx.build_debug_inlined_at_chain(cx.ir.scope(i).inlined_at, &mut iac);
            cx.ir.update_debug_inlined_at(var, at);
            map.insert(old_id, new_id);
            new_vars.push(var);
        }
        v = cx.ir.next(i);
    }
    let entry_label = cx.ir.block_id(callee_entry);
    let call_block_id = cx.ir.block_id(call_block);
    map.insert(entry_label, call_block_id);
    let mut nb = new_block(cx, call_block_id);
    // MoveInstsBeforeEntryBlock.
    while let Some(first) = cx.ir.first_inst(call_block) {
        if first == call {
            break;
        }
        cx.ir.unlink(first);
        if matches!(cx.ir.opcode(first), O::SampledImage | O::Image) {
            pre_call_sb.insert(cx.ir.result_id(first), first);
        }
        cx.ir.push_block_inst(nb, first);
    }
    if caller_is_loop_header && cx.ir.merge_inst(callee_entry).is_some() {
        let guard = cx.take_next_id().ok_or(())?;
        add_branch(cx, guard, nb);
        new_blocks.push(nb);
        nb = new_block(cx, guard);
        map.insert(entry_label, guard);
    }
    let callee_type = cx.ir.type_id(cx.ir.func_def(callee));
    let is_void = {
        let t = cx.types().get(callee_type);
        t.is_some_and(|t| matches!(cx.types().ty(t), Ty::Void))
    };
    let mut return_var = 0;
    if !is_void {
        return_var = create_return_var(cx, s, callee, &mut new_vars)?;
    }
    // Every result id of the callee not mapped yet gets a fresh id, in order.
    let mut callee_insts = Vec::new();
    cx.ir
        .func_insts(callee, false, &mut |i| callee_insts.push(i));
    for i in callee_insts {
        let rid = cx.ir.result_id(i);
        if rid != 0 && !map.contains_key(&rid) {
            let nid = cx.take_next_id().ok_or(())?;
            map.insert(rid, nid);
        }
    }
    let header_debug: Vec<Inst> = cx.ir.header_debug(callee).collect();
    for i in header_debug {
        let at = cx.build_debug_inlined_at_chain(cx.ir.scope(i).inlined_at, &mut iac);
        inline_single_instruction(cx, &map, nb, i, at)?;
    }
    // InlineEntryBlock: the variables' initializers as stores, then the rest.
    let mut ci = cx.ir.first_inst(callee_entry);
    while let Some(i) = ci {
        if cx.ir.opcode(i) != O::Variable && !is_debug_declare(cx, i) {
            break;
        }
        if cx.ir.opcode(i) == O::Variable && cx.ir.data(i).num_in_operands() == 2 {
            let new_var = *map.get(&cx.ir.result_id(i)).ok_or(())?;
            let val = cx.ir.data(i).in_word(1);
            let store = cx.make(O::Store, 0, 0, &[Operand::id(new_var), Operand::id(val)]);
            let line = cx.ir.lines(i).first().copied();
            let mut scope = cx.ir.scope(i);
            scope.inlined_at = cx.build_debug_inlined_at_chain(scope.inlined_at, &mut iac);
            add_with_line(cx, store, nb, line, scope)?;
        }
        if is_debug_declare(cx, i) {
            let at = cx.build_debug_inlined_at_chain(cx.ir.scope(i).inlined_at, &mut iac);
            inline_single_instruction(cx, &map, nb, i, at)?;
        }
        ci = cx.ir.next(i);
    }
    while let Some(i) = ci {
        if cx.ir.shader_debug_opcode(i) != Some(101) {
            let at = cx.build_debug_inlined_at_chain(cx.ir.scope(i).inlined_at, &mut iac);
            inline_single_instruction(cx, &map, nb, i, at)?;
        }
        ci = cx.ir.next(i);
    }
    // InlineBasicBlocks.
    let callee_blocks: Vec<Block> = cx.ir.blocks(callee).collect();
    for &cb in callee_blocks.iter().skip(1) {
        new_blocks.push(nb);
        let label = *map.get(&cx.ir.block_id(cb)).ok_or(())?;
        nb = new_block(cx, label);
        let insts: Vec<Inst> = cx.ir.insts(cb).collect();
        for i in insts {
            if cx.ir.shader_debug_opcode(i) == Some(101) {
                continue;
            }
            let at = cx.build_debug_inlined_at_chain(cx.ir.scope(i).inlined_at, &mut iac);
            inline_single_instruction(cx, &map, nb, i, at)?;
        }
    }
    // InlineReturn.
    let tail_inst = cx
        .ir
        .last_block(callee)
        .and_then(|b| cx.ir.terminator(b))
        .ok_or(())?;
    if cx.ir.opcode(tail_inst) == O::ReturnValue {
        let mut val = cx.ir.data(tail_inst).in_word(0);
        if let Some(&m) = map.get(&val) {
            val = m;
        }
        let store = cx.make(O::Store, 0, 0, &[Operand::id(return_var), Operand::id(val)]);
        let line = cx.ir.lines(tail_inst).first().copied();
        let mut scope = cx.ir.scope(tail_inst);
        scope.inlined_at = cx.build_debug_inlined_at_chain(scope.inlined_at, &mut iac);
        add_with_line(cx, store, nb, line, scope)?;
    }
    let mut return_label = 0;
    for &cb in &callee_blocks {
        if cx
            .ir
            .terminator(cb)
            .is_some_and(|t| is_abort(cx.ir.opcode(t)))
        {
            return_label = cx.take_next_id().ok_or(())?;
            break;
        }
    }
    if return_label != 0 {
        if matches!(cx.ir.opcode(tail_inst), O::Return | O::ReturnValue) {
            add_branch(cx, return_label, nb);
        }
        new_blocks.push(nb);
        nb = new_block(cx, return_label);
    }
    if return_var != 0 {
        let res = cx.ir.result_id(call);
        let load = cx.make(O::Load, callee_type, res, &[Operand::id(return_var)]);
        let line = cx.ir.lines(call).first().copied();
        let scope = cx.ir.scope(call);
        add_with_line(cx, load, nb, line, scope)?;
    }
    // MoveCallerInstsAfterFunctionCall.
    while let Some(next) = cx.ir.next(call) {
        cx.ir.unlink(next);
        clone_same_block_ops(cx, next, &mut post_call_sb, &pre_call_sb, nb)?;
        if matches!(cx.ir.opcode(next), O::SampledImage | O::Image) {
            let rid = cx.ir.result_id(next);
            post_call_sb.insert(rid, rid);
        }
        cx.ir.push_block_inst(nb, next);
    }
    new_blocks.push(nb);
    // The call goes with its block.
    cx.ir.unlink(call);
    cx.ir.mark_dead(call);
    for k in 0..cx.ir.lines(call).len() {
        let l = cx.ir.lines(call)[k];
        cx.ir.mark_dead(l);
    }
    if caller_is_loop_header && new_blocks.len() > 1 {
        move_loop_merge_to_first_block(cx, &new_blocks)?;
        let header = new_blocks[0];
        let merge = cx.ir.loop_merge_inst(header).ok_or(())?;
        if cx.ir.data(merge).in_word(1) == cx.ir.block_id(header) {
            let new_id = cx.take_next_id().ok_or(())?;
            update_single_block_loop_continue_target(cx, new_id, &mut new_blocks)?;
        }
    }
    for &b in &new_blocks {
        s.id2block.insert(cx.ir.block_id(b), b);
    }
    cx.kill_names_and_decorates(call);
    Ok((new_blocks, new_vars))
}

/// `CreateReturnVar`: the variable the callee's return value goes through.
fn create_return_var(
    cx: &mut Context,
    s: &mut State,
    callee: Func,
    new_vars: &mut Vec<Inst>,
) -> Res<u32> {
    let callee_type = cx.ir.type_id(cx.ir.func_def(callee));
    let function = spirv_core::spv::StorageClass::Function.0;
    let ptr = match s.return_pointers.get(&callee_type) {
        Some(&p) => p,
        None => {
            let p = cx.find_pointer_to_type(callee_type, function);
            if p == 0 {
                return Err(());
            }
            s.return_pointers.insert(callee_type, p);
            p
        }
    };
    let id = cx.take_next_id().ok_or(())?;
    let var = cx.make(
        O::Variable,
        ptr,
        id,
        &[Operand::new(Kind::Enum, &[function])],
    );
    new_vars.push(var);
    let fid = cx.ir.func_id(callee);
    cx.clone_decorations(fid, id, None);
    // A pointer to a physical storage buffer pointer is `AliasedPointer`.
    let pointee_is_psb = cx.types().get(ptr).is_some_and(|p| {
        let types = &*cx.types();
        match types.ty(p) {
            Ty::Pointer {
                pointee: Some(pt), ..
            } => matches!(
                types.ty(*pt),
                Ty::Pointer { storage, .. }
                    if *storage == spirv_core::spv::StorageClass::PhysicalStorageBuffer.0
            ),
            _ => false,
        }
    });
    if pointee_is_psb {
        let d = cx.make(
            O::Decorate,
            0,
            0,
            &[
                Operand::id(id),
                Operand::literal(spirv_core::spv::Decoration::AliasedPointer.0),
            ],
        );
        cx.add_annotation(d);
    }
    Ok(id)
}

/// One instruction whose operands `clone_same_block_ops` is mapping.
struct SbFrame {
    inst: Inst,
    next: usize,
    /// Where the result goes once this copy is done: the parent frame and operand.
    parent: Option<(usize, usize)>,
}

/// `CloneSameBlockOps`: the `OpSampledImage`s and `OpImage`s from before the call
/// that `inst` uses are copied (with fresh ids) into `b` after the inlined code, each
/// after the copies it uses, as spirv-opt's recursion orders them.
fn clone_same_block_ops(
    cx: &mut Context,
    inst: Inst,
    post: &mut HashMap<u32, u32>,
    pre: &HashMap<u32, Inst>,
    b: Block,
) -> Res<()> {
    let mut stack = vec![SbFrame {
        inst,
        next: 0,
        parent: None,
    }];
    while let Some(top) = stack.last_mut() {
        let i = top.inst;
        let n = cx.ir.data(i).num_operands();
        if top.next < n {
            let k = top.next;
            top.next += 1;
            if !cx.ir.data(i).kind(k).is_some_and(Kind::is_in_id) {
                continue;
            }
            let id = cx.ir.data(i).word(k);
            if let Some(&m) = post.get(&id) {
                cx.ir.data_mut(i).set_operand(k, &[m]);
            } else if let Some(&pre_inst) = pre.get(&id) {
                let sb = cx.ir.clone_inst(pre_inst).ok_or(())?;
                let parent = stack.len() - 1;
                stack.push(SbFrame {
                    inst: sb,
                    next: 0,
                    parent: Some((parent, k)),
                });
            }
            continue;
        }
        let done = stack.pop().expect("a frame");
        if let Some((parent, k)) = done.parent {
            let rid = cx.ir.result_id(done.inst);
            let nid = cx.take_next_id().ok_or(())?;
            cx.clone_decorations(rid, nid, None);
            cx.ir.data_mut(done.inst).set_result_id(nid);
            post.insert(rid, nid);
            let p = stack[parent].inst;
            cx.ir.data_mut(p).set_operand(k, &[nid]);
            cx.ir.push_block_inst(b, done.inst);
        }
    }
    Ok(())
}

/// `MoveLoopMergeInstToFirstBlock`: the caller's loop merge, now in the last new
/// block, moves (as a copy) before the first block's terminator.
fn move_loop_merge_to_first_block(cx: &mut Context, new_blocks: &[Block]) -> Res<()> {
    let first = new_blocks[0];
    let last = *new_blocks.last().expect("blocks");
    let merge = cx
        .ir
        .terminator(last)
        .and_then(|t| cx.ir.prev(t))
        .ok_or(())?;
    if cx.ir.opcode(merge) != O::LoopMerge {
        return Err(());
    }
    let copy = cx.ir.clone_inst(merge).ok_or(())?;
    let t = cx.ir.terminator(first).ok_or(())?;
    cx.ir.insert_before(t, copy);
    cx.ir.unlink(merge);
    cx.ir.mark_dead(merge);
    Ok(())
}

/// `UpdateSingleBlockLoopContinueTarget`: a single-block loop's back edge moves to a
/// new block, its continue target.
fn update_single_block_loop_continue_target(
    cx: &mut Context,
    new_id: u32,
    new_blocks: &mut Vec<Block>,
) -> Res<()> {
    let header = new_blocks[0];
    let merge = cx.ir.loop_merge_inst(header).ok_or(())?;
    let nb = new_block(cx, new_id);
    let old_backedge = *new_blocks.last().expect("blocks");
    let branch = cx.ir.terminator(old_backedge).ok_or(())?;
    cx.ir.unlink(branch);
    cx.ir.push_block_inst(nb, branch);
    add_branch(cx, new_id, old_backedge);
    new_blocks.push(nb);
    cx.ir.data_mut(merge).set_in_operand(1, &[new_id]);
    Ok(())
}

/// `FixDebugDeclares`: a `DebugDeclare` of an access chain declares its base, with the
/// chain's indices.
fn fix_debug_declares(cx: &mut Context, f: Func) {
    let (opencl, shader) = {
        let feat = cx.features();
        (feat.opencl_debug_info, feat.shader_debug_info)
    };
    if opencl == 0 && shader == 0 {
        return;
    }
    let mut chains: BTreeMap<u32, Inst> = BTreeMap::new();
    let mut declares = Vec::new();
    cx.ir.func_insts(f, false, &mut |i| {
        let d = cx.ir.data(i);
        if d.opcode() == O::AccessChain {
            chains.insert(d.result_id(), i);
        }
        if d.opcode() == O::ExtInst
            && (d.in_word(0) == opencl || d.in_word(0) == shader)
            && d.in_word(1) == 28
        {
            declares.push(i);
        }
    });
    for dd in declares {
        // Each step replaces the declared variable by a chain's base: at most as many
        // steps as there are chains.
        for _ in 0..=chains.len() {
            let var = cx.ir.data(dd).in_word(3);
            let Some(&ac) = chains.get(&var) else { break };
            let d = cx.ir.data(dd).clone();
            let a = cx.ir.data(ac).clone();
            let mut ops: Vec<Operand> = (0..3)
                .map(|k| d.operand(k + d.type_result_count()))
                .collect();
            ops.push(Operand::id(a.in_word(0)));
            ops.push(d.operand(4 + d.type_result_count()));
            for k in 1..a.num_in_operands() {
                ops.push(a.operand(k + a.type_result_count()));
            }
            for k in 5..d.num_in_operands() {
                ops.push(d.operand(k + d.type_result_count()));
            }
            cx.ir.data_mut(dd).set_in_operands(&ops);
        }
    }
}
