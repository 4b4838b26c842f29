//! What spirv-opt's memory passes share (`MemPass`, `source/opt/mem_pass.cpp`): pointer
//! and variable queries, the `OpUndef` of a type made once per run, dead instruction
//! removal, and the removal of unreachable blocks. A pass holds a [`MemPass`] for its
//! run (the state spirv-opt keeps on the pass object) and calls these with its
//! [`Context`].

use crate::context::Context;
use crate::ir::{Block, Func, Inst, InstData, Operand, Section};
use spirv_core::spv::Opcode as O;
use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};

/// `StorageClass::Function`.
pub const FUNCTION_STORAGE: u32 = 7;

/// The state of `MemPass` over a run.
#[derive(Debug, Clone, Default)]
pub struct MemPass {
    /// `type2undefs_`: the `OpUndef` made for each type.
    pub type2undefs: HashMap<u32, u32>,
    /// `seen_target_vars_`.
    pub seen_target_vars: HashSet<u32>,
    /// `seen_non_target_vars_`.
    pub seen_non_target_vars: HashSet<u32>,
}

/// `IsNonTypeDecorate`.
pub fn is_non_type_decorate(op: O) -> bool {
    matches!(op, O::Decorate | O::DecorateId)
}

/// `IsNonPtrAccessChain`.
pub fn is_non_ptr_access_chain(op: O) -> bool {
    matches!(op, O::AccessChain | O::InBoundsAccessChain)
}

/// `IsBaseTargetType`.
pub fn is_base_target_type(cx: &Context, ty: Inst) -> bool {
    matches!(
        cx.ir.opcode(ty),
        O::TypeInt
            | O::TypeFloat
            | O::TypeBool
            | O::TypeVector
            | O::TypeMatrix
            | O::TypeImage
            | O::TypeSampler
            | O::TypeSampledImage
            | O::TypePointer
            | O::TypeCooperativeMatrixNV
            | O::TypeCooperativeMatrixKHR
    )
}

/// `IsTargetType`: a base target type, or an array or struct of them.
pub fn is_target_type(cx: &mut Context, ty: Inst) -> bool {
    if is_base_target_type(cx, ty) {
        return true;
    }
    match cx.ir.opcode(ty) {
        O::TypeArray => {
            let elem = cx.ir.data(ty).word(1);
            cx.get_def(elem).is_some_and(|e| is_target_type(cx, e))
        }
        O::TypeStruct => {
            let mut members = Vec::new();
            cx.ir.data(ty).for_each_in_id(|id| members.push(id));
            members
                .into_iter()
                .all(|m| cx.get_def(m).is_some_and(|e| is_target_type(cx, e)))
        }
        _ => false,
    }
}

/// `IsPtr`: whether `ptr_id` is a pointer (through `OpCopyObject`s).
pub fn is_ptr(cx: &mut Context, ptr_id: u32) -> bool {
    let Some(mut ptr) = cx.get_def(ptr_id) else {
        return false;
    };
    if cx.ir.opcode(ptr) == O::Function {
        return false;
    }
    // Bounded as `get_base_address` is (a cycle of copies, in an invalid module).
    let mut steps = cx.ir.instruction_count();
    while cx.ir.opcode(ptr) == O::CopyObject {
        steps = match steps.checked_sub(1) {
            Some(s) => s,
            None => return false,
        };
        let Some(p) = cx.get_def(cx.ir.data(ptr).in_word(0)) else {
            return false;
        };
        ptr = p;
    }
    let op = cx.ir.opcode(ptr);
    if op == O::Variable || is_non_ptr_access_chain(op) {
        return true;
    }
    let ty = cx.ir.type_id(ptr);
    if ty == 0 {
        return false;
    }
    cx.get_def(ty)
        .is_some_and(|t| cx.ir.opcode(t) == O::TypePointer)
}

/// `GetBaseAddress`: the instruction under `i`'s pointer operand (in-operand 0),
/// through access chains, texel pointers and copies.
pub fn get_base_address(cx: &mut Context, i: Inst) -> Option<Inst> {
    let mut base = cx.get_def(cx.ir.data(i).in_word(0))?;
    // A cycle of copies or chains (invalid SSA) keeps spirv-opt walking forever; a
    // walk longer than the module has instructions has met one, and finds nothing.
    let mut steps = cx.ir.instruction_count();
    while matches!(
        cx.ir.opcode(base),
        O::AccessChain
            | O::InBoundsAccessChain
            | O::PtrAccessChain
            | O::InBoundsPtrAccessChain
            | O::ImageTexelPointer
            | O::CopyObject
    ) {
        steps = steps.checked_sub(1)?;
        base = cx.get_def(cx.ir.data(base).in_word(0))?;
    }
    Some(base)
}

/// `GetPtr(ptrId, &varId)`: the pointer instruction of `ptr_id` (through copies) and
/// the variable it points into (0 when not an `OpVariable`).
pub fn get_ptr(cx: &mut Context, ptr_id: u32) -> (Option<Inst>, u32) {
    let Some(mut ptr) = cx.get_def(ptr_id) else {
        return (None, 0);
    };
    let var = match cx.ir.opcode(ptr) {
        O::Variable | O::FunctionParameter => Some(ptr),
        O::AccessChain
        | O::InBoundsAccessChain
        | O::PtrAccessChain
        | O::InBoundsPtrAccessChain
        | O::ImageTexelPointer
        | O::CopyObject => get_base_address(cx, ptr),
        _ => return (Some(ptr), 0),
    };
    let var_id = match var {
        Some(v) if cx.ir.opcode(v) == O::Variable => cx.ir.result_id(v),
        _ => 0,
    };
    // Bounded as `get_base_address` is (a cycle of copies, in an invalid module).
    let mut steps = cx.ir.instruction_count();
    while cx.ir.opcode(ptr) == O::CopyObject && steps > 0 {
        steps -= 1;
        match cx.get_def(cx.ir.data(ptr).in_word(0)) {
            Some(p) => ptr = p,
            None => break,
        }
    }
    (Some(ptr), var_id)
}

/// `GetPtr(ip, &varId)` of a load, store, texel pointer or atomic: of its pointer
/// operand (in-operand 0).
pub fn get_ptr_of(cx: &mut Context, i: Inst) -> (Option<Inst>, u32) {
    let ptr_id = cx.ir.data(i).in_word(0);
    get_ptr(cx, ptr_id)
}

/// The storage class of the pointer type `type_id`, if it is one.
pub fn pointer_storage(cx: &mut Context, type_id: u32) -> Option<u32> {
    let t = cx.get_def(type_id)?;
    (cx.ir.opcode(t) == O::TypePointer).then(|| cx.ir.data(t).in_word(0))
}

/// `HasOnlyNamesAndDecorates`.
pub fn has_only_names_and_decorates(cx: &mut Context, id: u32) -> bool {
    !cx.any_user(id, |ir, u| {
        let op = ir.opcode(u);
        op != O::Name && !is_non_type_decorate(op)
    })
}

/// What [`walk_pointer_users`] does after looking at one user.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    /// Walk the user's own users (it is a chain or copy of the pointer) before the
    /// pointer's next user.
    Descend,
    /// Go on with the pointer's next user.
    Next,
    /// End the walk.
    Stop,
}

/// The users of `ptr_id` and, where `visit` says [`Step::Descend`], the users of those
/// users, depth first in order, as spirv-opt's recursive walks through access chains
/// and copies take them; `visit` gets each user and the pointer it uses. On a stack,
/// each pointer walked once: only a cycle of chains or copies (invalid SSA, where
/// spirv-opt recurses forever) meets one again. Whether `visit` stopped the walk.
pub(crate) fn walk_pointer_users(
    cx: &mut Context,
    ptr_id: u32,
    visit: &mut dyn FnMut(&mut Context, Inst, u32) -> Step,
) -> bool {
    let mut walked: HashSet<u32> = HashSet::from([ptr_id]);
    // (pointer, its users, the next user to look at)
    let mut stack: Vec<(u32, Vec<Inst>, usize)> = vec![(ptr_id, cx.users(ptr_id), 0)];
    while let Some((ptr, users, next)) = stack.last_mut() {
        let Some(&user) = users.get(*next) else {
            stack.pop();
            continue;
        };
        *next += 1;
        let ptr = *ptr;
        match visit(cx, user, ptr) {
            Step::Descend => {
                let rid = cx.ir.result_id(user);
                if walked.insert(rid) {
                    stack.push((rid, cx.users(rid), 0));
                }
            }
            Step::Next => {}
            Step::Stop => return true,
        }
    }
    false
}

/// `HasLoads`: whether `var_id` is read other than by stores, names and decorations,
/// through access chains and copies.
pub fn has_loads(cx: &mut Context, var_id: u32) -> bool {
    walk_pointer_users(cx, var_id, &mut |cx, u, _| {
        let op = cx.ir.opcode(u);
        if is_non_ptr_access_chain(op) || op == O::CopyObject {
            Step::Descend
        } else if op != O::Store && op != O::Name && !is_non_type_decorate(op) {
            Step::Stop
        } else {
            Step::Next
        }
    })
}

/// `IsLiveVar`: not a function-scope variable, or one that is loaded.
pub fn is_live_var(cx: &mut Context, var_id: u32) -> bool {
    let Some(var) = cx.get_def(var_id) else {
        return true;
    };
    if cx.ir.opcode(var) != O::Variable {
        return true;
    }
    let ty = cx.ir.type_id(var);
    if pointer_storage(cx, ty) != Some(FUNCTION_STORAGE) {
        return true;
    }
    has_loads(cx, var_id)
}

/// `AddStores(ptr_id, insts)`: the stores through `ptr_id` and its access chains.
pub fn add_stores(cx: &mut Context, ptr_id: u32, insts: &mut VecDeque<Inst>) {
    walk_pointer_users(cx, ptr_id, &mut |cx, u, _| {
        let op = cx.ir.opcode(u);
        if is_non_ptr_access_chain(op) {
            return Step::Descend;
        }
        if op == O::Store {
            insts.push_back(u);
        }
        Step::Next
    });
}

/// `DCEInst`: kills `inst`, then each combinator it used that only names and
/// decorations use now, and, when a load was a variable's last, its stores; calling
/// `call_back` on each before it goes.
pub fn dce_inst(cx: &mut Context, inst: Inst, call_back: &mut dyn FnMut(&mut Context, Inst)) {
    let mut dead: VecDeque<Inst> = VecDeque::new();
    dead.push_back(inst);
    while let Some(&di) = dead.front() {
        if cx.ir.opcode(di) == O::Label {
            dead.pop_front();
            continue;
        }
        let mut ids: BTreeSet<u32> = BTreeSet::new();
        cx.ir.data(di).for_each_in_id(|id| {
            ids.insert(id);
        });
        let var_id = if cx.ir.opcode(di) == O::Load {
            get_ptr_of(cx, di).1
        } else {
            0
        };
        call_back(cx, di);
        cx.kill_inst(di);
        for id in ids {
            if has_only_names_and_decorates(cx, id) {
                if let Some(odi) = cx.get_def(id) {
                    if cx.is_combinator(odi) {
                        dead.push_back(odi);
                    }
                }
            }
        }
        if var_id != 0 && !is_live_var(cx, var_id) {
            add_stores(cx, var_id, &mut dead);
        }
        dead.pop_front();
    }
}

impl MemPass {
    /// A fresh state.
    pub fn new() -> MemPass {
        MemPass::default()
    }

    /// `HasOnlySupportedRefs`: whether `var_id` is used only by loads, stores, names,
    /// decorations and `DebugDeclare`/`DebugValue`.
    pub fn has_only_supported_refs(cx: &mut Context, var_id: u32) -> bool {
        for u in cx.users(var_id) {
            if matches!(cx.common_debug_opcode(u), Some(28 | 29)) {
                continue;
            }
            let op = cx.ir.opcode(u);
            if op != O::Store && op != O::Load && op != O::Name && !is_non_type_decorate(op) {
                return false;
            }
        }
        true
    }

    /// `Type2Undef`: the id of an `OpUndef` of `type_id` among the global values, made
    /// once per run; 0 when ids ran out.
    pub fn type2undef(&mut self, cx: &mut Context, type_id: u32) -> u32 {
        if let Some(&u) = self.type2undefs.get(&type_id) {
            return u;
        }
        let Some(id) = cx.take_next_id() else {
            return 0;
        };
        let i = cx.create(InstData::new(O::Undef, type_id, id, &[]));
        cx.def_use();
        cx.analyze_def_use(i);
        cx.ir.push_global(Section::TypesValues, i);
        self.type2undefs.insert(type_id, id);
        id
    }

    /// `IsTargetVar`: a function-scope variable of a target type, not already found to
    /// be otherwise.
    pub fn is_target_var(&mut self, cx: &mut Context, var_id: u32) -> bool {
        if var_id == 0 || self.seen_non_target_vars.contains(&var_id) {
            return false;
        }
        if self.seen_target_vars.contains(&var_id) {
            return true;
        }
        let Some(var) = cx.get_def(var_id) else {
            return false;
        };
        if cx.ir.opcode(var) != O::Variable {
            return false;
        }
        let ty = cx.ir.type_id(var);
        let Some(ty_inst) = cx.get_def(ty) else {
            return false;
        };
        if cx.ir.opcode(ty_inst) != O::TypePointer
            || cx.ir.data(ty_inst).in_word(0) != FUNCTION_STORAGE
        {
            self.seen_non_target_vars.insert(var_id);
            return false;
        }
        let pointee = cx.ir.data(ty_inst).in_word(1);
        let target = cx.get_def(pointee).is_some_and(|p| is_target_type(cx, p));
        if !target {
            self.seen_non_target_vars.insert(var_id);
            return false;
        }
        self.seen_target_vars.insert(var_id);
        true
    }

    /// `CollectTargetVars`: clears the state, then finds the target variables of
    /// `func`'s loads and stores, those with other uses excluded.
    pub fn collect_target_vars(&mut self, cx: &mut Context, func: Func) {
        self.seen_target_vars.clear();
        self.seen_non_target_vars.clear();
        self.type2undefs.clear();
        // Nothing changes the module here, so a variable's uses are checked once, not
        // once per load and store of it (quadratic in a variable's uses otherwise).
        let mut supported: HashSet<u32> = HashSet::new();
        let blocks: Vec<Block> = cx.ir.blocks(func).collect();
        for b in blocks {
            let insts: Vec<Inst> = cx.ir.insts(b).collect();
            for i in insts {
                if !matches!(cx.ir.opcode(i), O::Store | O::Load) {
                    continue;
                }
                let (_, var_id) = get_ptr_of(cx, i);
                if !self.is_target_var(cx, var_id) || supported.contains(&var_id) {
                    continue;
                }
                if MemPass::has_only_supported_refs(cx, var_id) {
                    supported.insert(var_id);
                    continue;
                }
                self.seen_non_target_vars.insert(var_id);
                self.seen_target_vars.remove(&var_id);
            }
        }
    }

    /// `RemovePhiOperands`: drops the operand pairs of `phi` from unreachable blocks, and
    /// makes the values defined in unreachable blocks an `OpUndef`.
    pub fn remove_phi_operands(&mut self, cx: &mut Context, phi: Inst, reachable: &HashSet<Block>) {
        let d = cx.ir.data(phi).clone();
        let n = d.num_operands();
        let mut keep: Vec<Operand> = Vec::with_capacity(n);
        let mut undef_id = 0;
        let mut i = 0;
        while i < n {
            if i < 2 {
                keep.push(d.operand(i));
                i += 1;
                continue;
            }
            if i + 1 >= n {
                break;
            }
            let in_block = cx.cfg().block(d.word(i + 1));
            if !in_block.is_some_and(|b| reachable.contains(&b)) {
                i += 2;
                continue;
            }
            let arg = d.word(i);
            let def = cx.get_def(arg);
            let def_block = def.and_then(|x| cx.ir.block_of(x));
            match def_block {
                Some(db) if !reachable.contains(&db) => {
                    if undef_id == 0 {
                        let ty = def.map_or(0, |x| cx.ir.type_id(x));
                        undef_id = self.type2undef(cx, ty);
                    }
                    keep.push(Operand::id(undef_id));
                }
                _ => keep.push(d.operand(i)),
            }
            keep.push(d.operand(i + 1));
            i += 2;
        }
        cx.forget_uses(phi);
        cx.ir.data_mut(phi).replace_operands(&keep);
        cx.analyze_uses(phi);
    }

    /// `RemoveUnreachableBlocks`: removes the blocks of `func` that its entry does not
    /// reach (through branches, merge blocks and continue targets), first fixing the
    /// phis of the blocks that stay.
    pub fn remove_unreachable_blocks(&mut self, cx: &mut Context, func: Func) -> bool {
        let Some(entry) = cx.ir.entry(func) else {
            return false;
        };
        let mut reachable: HashSet<Block> = HashSet::new();
        let mut visited: HashSet<Block> = HashSet::new();
        let mut work: VecDeque<Block> = VecDeque::new();
        reachable.insert(entry);
        work.push_back(entry);
        while let Some(b) = work.pop_front() {
            let mut labels = cx.ir.successors(b);
            if let Some(m) = cx.ir.merge_inst(b) {
                cx.ir.data(m).for_each_in_id(|id| labels.push(id));
            }
            for l in labels {
                if let Some(s) = cx.cfg().block(l) {
                    if visited.insert(s) {
                        reachable.insert(s);
                        work.push_back(s);
                    }
                }
            }
        }
        let blocks: Vec<Block> = cx.ir.blocks(func).collect();
        for &b in &blocks {
            if !reachable.contains(&b) {
                continue;
            }
            for phi in cx.phis(b) {
                self.remove_phi_operands(cx, phi, &reachable);
            }
        }
        let mut modified = false;
        for b in blocks {
            if !reachable.contains(&b) {
                remove_block(cx, b);
                modified = true;
            }
        }
        modified
    }

    /// `CFGCleanup`.
    pub fn cfg_cleanup(&mut self, cx: &mut Context, func: Func) -> bool {
        self.remove_unreachable_blocks(cx, func)
    }
}

/// `RemoveBlock`: kills the block's instructions, then its label, and removes it.
pub fn remove_block(cx: &mut Context, b: Block) {
    let insts: Vec<Inst> = cx.ir.insts(b).collect();
    for i in insts {
        cx.kill_inst(i);
    }
    let label = cx.ir.label(b);
    cx.kill_inst(label);
    cx.ir.unlink_block(b);
}
