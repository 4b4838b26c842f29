//! `--copy-propagate-arrays` (spirv-opt's `CopyPropagateArrays`,
//! `source/opt/copy_prop_arrays.cpp`): a function-scope variable stored once, with a
//! value that is a copy of memory nothing writes (a load through constant access
//! chains, rebuilt through extracts, constructs, inserts and copies: spirv-opt's
//! `MemoryObject`), and whose loads that store dominates, is replaced by an access
//! chain to the source when it holds an array (or image), or its source is an `Input`
//! variable; its loads, access chains, extracts and debug declarations then read the
//! source, their types following, and a store of such a value is given an
//! element-by-element copy of the type the store wants.
//!
//! spirv-opt's walks are recursive; here each is a loop on an explicit stack, in the
//! same order where the order reaches the output (the types `CanUpdateUses` makes, the
//! rewrites of `UpdateUses`, the copies of `GenerateCopy`). The memory object of a
//! value is evaluated once per query and the pass has a work budget (linear in the
//! module): spirv-opt re-walks shared subtrees and so takes exponential time on a
//! crafted chain of constructs, and its copies grow with the claimed array lengths.

use crate::analysis::Analyses;
use crate::analysis::constants::Const;
use crate::analysis::types::{Ty, TypeRef};
use crate::builder::Builder;
use crate::context::Context;
use crate::ir::{Inst, Operand};
use crate::mem_pass::get_ptr_of;
use crate::pass::{IrPass, PassError, Status};
use spirv_core::spv::Opcode as O;
use std::collections::{HashMap, HashSet, VecDeque};

/// The pass's flag.
pub const FLAG: &str = "copy-propagate-arrays";

/// `--copy-propagate-arrays`.
#[derive(Debug, Clone, Copy, Default)]
pub struct CopyPropagateArrays;

const DEBUG_DECLARE: u32 = 28;
const DEBUG_VALUE: u32 = 29;
const INPUT: u32 = 1;
/// GLSL.std.450's InterpolateAtCentroid, InterpolateAtSample, InterpolateAtOffset.
const INTERPOLATE_AT: [u32; 3] = [76, 77, 78];

/// One index of a memory object's access chain: an id (of a constant, or not) or a
/// literal (from an extract).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Entry {
    Id(u32),
    Imm(u32),
}

/// spirv-opt's `MemoryObject`: a variable and the access chain into it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct MemObj {
    var: Inst,
    chain: Vec<Entry>,
}

impl IrPass for CopyPropagateArrays {
    fn flag(&self) -> &'static str {
        FLAG
    }

    fn preserved(&self) -> Analyses {
        Analyses::DEF_USE
            | Analyses::CFG
            | Analyses::INSTR_TO_BLOCK
            | Analyses::DECORATIONS
            | Analyses::DOMINATORS
            | Analyses::NAME_MAP
            | Analyses::CONSTANTS
            | Analyses::TYPES
    }

    fn process(&self, cx: &mut Context) -> Result<Status, PassError> {
        let mut p = Prop {
            worklist: VecDeque::new(),
            budget: 1 << 20,
        };
        p.budget += 16 * cx.ir.instruction_count();
        for f in cx.ir.functions().to_vec() {
            if cx.ir.is_declaration(f) {
                continue;
            }
            let Some(entry) = cx.ir.entry(f) else {
                continue;
            };
            for i in cx.ir.insts(entry) {
                if cx.ir.opcode(i) != O::Variable {
                    break;
                }
                p.worklist.push_back(i);
            }
        }
        let mut modified = false;
        while let Some(var) = p.worklist.pop_front() {
            if !cx.ir.is_live(var) {
                continue;
            }
            let Some(store) = find_store(cx, var) else {
                continue;
            };
            let Some(source) = p.find_source(cx, var, store) else {
                continue;
            };
            let var_type = cx.ir.type_id(var);
            if !is_pointer_to_array(cx, var_type) && storage_class(cx, source.var) != Some(INPUT) {
                continue;
            }
            let ptr_type = pointer_type_id(cx, &source);
            if ptr_type != 0 && p.can_update_uses(cx, var, ptr_type) {
                modified = true;
                p.propagate(cx, var, source, store).ok_or(PassError {
                    pass: FLAG,
                    message: "ids ran out".into(),
                })?;
            }
        }
        Ok(if modified {
            Status::Changed
        } else {
            Status::Unchanged
        })
    }
}

/// The pass's state: the variables to look at, and the work left.
struct Prop {
    worklist: VecDeque<Inst>,
    budget: usize,
}

/// `FindStoreInstruction`: the one store whose pointer is `var` itself.
fn find_store(cx: &mut Context, var: Inst) -> Option<Inst> {
    let id = cx.ir.result_id(var);
    let mut found = None;
    for u in cx.users(id) {
        if cx.ir.opcode(u) == O::Store && cx.ir.data(u).in_word(0) == id {
            if found.is_some() {
                return None;
            }
            found = Some(u);
        }
    }
    found
}

fn is_debug_declare_or_value(cx: &mut Context, i: Inst) -> bool {
    matches!(cx.common_debug_opcode(i), Some(DEBUG_DECLARE | DEBUG_VALUE))
}

fn is_decoration(op: O) -> bool {
    spirv_core::__private::opt::is_decoration(op)
}

/// `IsInterpolationInstruction`: a GLSL.std.450 InterpolateAt*.
fn is_interpolation(cx: &mut Context, i: Inst) -> bool {
    if cx.ir.opcode(i) != O::ExtInst {
        return false;
    }
    let glsl = cx.features().glsl_std_450;
    let d = cx.ir.data(i);
    d.num_in_operands() >= 2 && d.in_word(0) == glsl && INTERPOLATE_AT.contains(&d.in_word(1))
}

/// The value of an integer constant as `GetU32` reads it (a null is 0).
fn const_u32(cx: &mut Context, id: u32) -> Option<u32> {
    let c = cx.constants().find_declared(id)?;
    Some(match cx.constants().value(c) {
        Const::Scalar(_, w) => w.first().copied().unwrap_or(0),
        _ => 0,
    })
}

/// `IsAccessChainIndexValidAndEqualTo`.
fn index_equals(cx: &mut Context, e: Entry, value: u32) -> bool {
    match e {
        Entry::Imm(v) => v == value,
        Entry::Id(id) => {
            let Some(c) = cx.constants().find_declared(id) else {
                return false;
            };
            let ty = cx.constants().value(c).ty();
            if !matches!(cx.types().ty(ty), Ty::Int { .. }) {
                return false;
            }
            const_u32(cx, id) == Some(value)
        }
    }
}

/// `IsPointerToArrayType`: a pointer to an array or an image.
fn is_pointer_to_array(cx: &mut Context, type_id: u32) -> bool {
    let Some(t) = cx.types().get(type_id) else {
        return false;
    };
    let Ty::Pointer {
        pointee: Some(pointee),
        ..
    } = *cx.types().ty(t)
    else {
        return false;
    };
    matches!(cx.types().ty(pointee), Ty::Array { .. } | Ty::Image { .. })
}

/// `GetStorageClass` of a variable.
fn storage_class(cx: &mut Context, var: Inst) -> Option<u32> {
    let ty = cx.ir.type_id(var);
    let t = cx.types().get(ty)?;
    match *cx.types().ty(t) {
        Ty::Pointer { storage, .. } => Some(storage),
        _ => None,
    }
}

/// `GetAccessIds`: the chain as numbers (a non-constant id is 0).
fn access_ids(cx: &mut Context, chain: &[Entry]) -> Vec<u32> {
    chain
        .iter()
        .map(|&e| match e {
            Entry::Imm(v) => v,
            Entry::Id(id) => const_u32(cx, id).unwrap_or(0),
        })
        .collect()
}

/// `GetMemberTypeId`: through the type instructions; 0 where a struct has no such
/// member.
fn member_type_id(cx: &mut Context, mut id: u32, chain: &[u32]) -> u32 {
    for &k in chain {
        let Some(t) = cx.get_def(id) else {
            return 0;
        };
        let d = cx.ir.data(t);
        match d.opcode() {
            O::TypeArray | O::TypeRuntimeArray | O::TypeMatrix | O::TypeVector => id = d.in_word(0),
            O::TypeStruct => {
                if (k as usize) >= d.num_in_operands() {
                    return 0;
                }
                id = d.in_word(k as usize);
            }
            _ => {}
        }
    }
    id
}

/// `GetMemberType` on the type manager's types.
fn member_type(cx: &mut Context, mut t: TypeRef, chain: &[u32]) -> Option<TypeRef> {
    for &k in chain {
        t = cx.types().member_type(t, k)?;
    }
    Some(t)
}

/// `GetNumberOfMembers` of a type: 0 for a non-composite or an array whose length is
/// not a constant.
fn number_of_members(cx: &mut Context, t: TypeRef) -> u32 {
    match cx.types().ty(t).clone() {
        Ty::Struct { members, .. } => members.len() as u32,
        Ty::Array { .. } => {
            let len = cx.types().array_length_id(t);
            const_u32(cx, len).unwrap_or(0)
        }
        Ty::Vector { count, .. } | Ty::Matrix { count, .. } => count,
        _ => 0,
    }
}

/// `MemoryObject::GetNumberOfMembers`.
fn object_members(cx: &mut Context, m: &MemObj) -> u32 {
    let ty = cx.ir.type_id(m.var);
    let Some(t) = cx.types().get(ty) else {
        return 0;
    };
    let Ty::Pointer {
        pointee: Some(pointee),
        ..
    } = *cx.types().ty(t)
    else {
        return 0;
    };
    let ids = access_ids(cx, &m.chain);
    match member_type(cx, pointee, &ids) {
        Some(t) => number_of_members(cx, t),
        None => 0,
    }
}

/// `MemoryObject::GetPointerTypeId` (which makes the pointer type if needed); 0 when
/// the variable's type is not a pointer type.
fn pointer_type_id(cx: &mut Context, m: &MemObj) -> u32 {
    let Some(ptr) = cx.get_def(cx.ir.type_id(m.var)) else {
        return 0;
    };
    if cx.ir.opcode(ptr) != O::TypePointer {
        return 0;
    }
    let (storage, pointee) = (cx.ir.data(ptr).in_word(0), cx.ir.data(ptr).in_word(1));
    let ids = access_ids(cx, &m.chain);
    let member = member_type_id(cx, pointee, &ids);
    if member == 0 {
        return 0;
    }
    cx.find_pointer_to_type(member, storage)
}

/// `MemoryObject::Contains`.
fn contains(a: &MemObj, b: &MemObj) -> bool {
    a.var == b.var && a.chain.len() <= b.chain.len() && b.chain[..a.chain.len()] == a.chain[..]
}

/// A frame of [`Prop::can_update_uses`].
struct CanFrame {
    ty: TypeRef,
    uses: Vec<(Inst, usize)>,
    next: usize,
}

/// A frame of [`Prop::update_uses`]: the uses of an instruction to rewrite, or the
/// `AddUsesToWorklist` that follows a load's own rewrite.
enum UpdFrame {
    Uses {
        original: Inst,
        new: Inst,
        uses: Vec<(Inst, usize)>,
        next: usize,
    },
    AfterLoad(Inst),
}

impl Prop {
    fn spend(&mut self, n: usize) -> bool {
        spend(&mut self.budget, n)
    }

    /// `FindSourceObjectIfPossible`.
    fn find_source(&mut self, cx: &mut Context, var: Inst, store: Inst) -> Option<MemObj> {
        if !has_valid_references_only(cx, var, store) {
            return None;
        }
        let value = cx.ir.data(store).in_word(1);
        let source = self.source_object(cx, value)?;
        if !has_no_stores(cx, source.var) {
            return None;
        }
        Some(source)
    }

    /// `GetSourceObjectIfAny`, evaluated bottom-up with each value's object computed
    /// once (the walk is pure: spirv-opt's order of evaluation does not show).
    fn source_object(&mut self, cx: &mut Context, root: u32) -> Option<MemObj> {
        let mut memo: HashMap<u32, Option<MemObj>> = HashMap::new();
        let mut on_stack: HashMap<u32, bool> = HashMap::new();
        let mut stack = vec![root];
        while let Some(&id) = stack.last() {
            if memo.contains_key(&id) {
                stack.pop();
                continue;
            }
            if !self.spend(1) {
                return None;
            }
            let deps = dependencies(cx, id);
            if on_stack.insert(id, true).is_none() {
                let missing: Vec<u32> = deps
                    .iter()
                    .copied()
                    .filter(|d| !memo.contains_key(d))
                    .collect();
                if !missing.is_empty() {
                    for d in missing.into_iter().rev() {
                        if on_stack.contains_key(&d) {
                            // A cycle (not SSA): no object.
                            memo.insert(d, None);
                        } else {
                            stack.push(d);
                        }
                    }
                    continue;
                }
            }
            stack.pop();
            let obj = self.evaluate(cx, id, &memo);
            if let Some(o) = &obj
                && !self.spend(o.chain.len())
            {
                return None;
            }
            memo.insert(id, obj);
        }
        memo.remove(&root).flatten()
    }

    /// One value's memory object from its operands' (all in `memo`).
    fn evaluate(
        &mut self,
        cx: &mut Context,
        id: u32,
        memo: &HashMap<u32, Option<MemObj>>,
    ) -> Option<MemObj> {
        let get = |k: u32| memo.get(&k).cloned().flatten();
        let i = cx.get_def(id)?;
        let d = cx.ir.data(i).clone();
        match d.opcode() {
            O::Load => self.object_from_load(cx, i),
            O::CompositeExtract => {
                let mut m = get(d.in_word(0))?;
                for k in 1..d.num_in_operands() {
                    m.chain.push(Entry::Imm(d.in_word(k)));
                }
                Some(m)
            }
            O::CopyObject | O::CopyLogical => get(d.in_word(0)),
            O::CompositeConstruct => {
                let n = d.num_in_operands();
                if n == 0 {
                    return None;
                }
                let mut m = get(d.in_word(0))?;
                let last = *m.chain.last()?;
                if !index_equals(cx, last, 0) {
                    return None;
                }
                m.chain.pop();
                if object_members(cx, &m) as usize != n {
                    return None;
                }
                for k in 1..n {
                    let member = get(d.in_word(k))?;
                    let last = *member.chain.last()?;
                    if !contains(&m, &member) || !index_equals(cx, last, k as u32) {
                        return None;
                    }
                }
                Some(m)
            }
            O::CompositeInsert => {
                let t = cx.types().get(d.type_id())?;
                let n = number_of_members(cx, t);
                if n == 0 || d.num_in_operands() != 3 || d.in_word(2) != n - 1 {
                    return None;
                }
                let mut m = get(d.in_word(0))?;
                let last = *m.chain.last()?;
                if !index_equals(cx, last, n - 1) {
                    return None;
                }
                m.chain.pop();
                let mut current = cx.get_def(d.in_word(1))?;
                let mut k = n - 1;
                while k > 0 {
                    if !self.spend(1) {
                        return None;
                    }
                    let c = cx.ir.data(current).clone();
                    if c.opcode() != O::CompositeInsert
                        || c.num_in_operands() != 3
                        || c.in_word(2) != k - 1
                    {
                        return None;
                    }
                    let cm = get(c.in_word(0))?;
                    let last = *cm.chain.last()?;
                    if m.chain.len() + 1 != cm.chain.len()
                        || !contains(&m, &cm)
                        || !index_equals(cx, last, k - 1)
                    {
                        return None;
                    }
                    current = cx.get_def(c.in_word(1))?;
                    k -= 1;
                }
                Some(m)
            }
            _ => None,
        }
    }

    /// `BuildMemoryObjectFromLoad`: the variable under constant-or-not access chains.
    fn object_from_load(&mut self, cx: &mut Context, load: Inst) -> Option<MemObj> {
        let mut reversed: Vec<u32> = Vec::new();
        let mut current = cx.get_def(cx.ir.data(load).in_word(0))?;
        while cx.ir.opcode(current) == O::AccessChain {
            let d = cx.ir.data(current);
            let n = d.num_in_operands();
            if !self.spend(n) {
                return None;
            }
            for k in (1..n).rev() {
                reversed.push(d.in_word(k));
            }
            let base = d.in_word(0);
            current = cx.get_def(base)?;
        }
        if cx.ir.opcode(current) != O::Variable {
            return None;
        }
        reversed.reverse();
        Some(MemObj {
            var: current,
            chain: reversed.into_iter().map(Entry::Id).collect(),
        })
    }

    /// `CanUpdateUses(original, type_id)`, depth first on a stack: the types it makes
    /// (`GetTypeInstruction`) come in spirv-opt's order.
    fn can_update_uses(&mut self, cx: &mut Context, original: Inst, type_id: u32) -> bool {
        let mut stack: Vec<CanFrame> = Vec::new();
        match self.can_frame(cx, original, type_id) {
            Ok(f) => stack.push(f),
            Err(verdict) => return verdict,
        }
        while let Some(top) = stack.last_mut() {
            let Some(&(user, _)) = top.uses.get(top.next) else {
                stack.pop();
                continue;
            };
            top.next += 1;
            let ty = top.ty;
            if !self.spend(1) {
                return false;
            }
            if is_debug_declare_or_value(cx, user) {
                continue;
            }
            // The type the user's result must take, if it must be checked further.
            let child: Option<u32> = match cx.ir.opcode(user) {
                O::Load => {
                    let Ty::Pointer {
                        pointee: Some(pointee),
                        ..
                    } = *cx.types().ty(ty)
                    else {
                        return false;
                    };
                    let new_type = cx.types().id_of(pointee);
                    (new_type != cx.ir.type_id(user)).then_some(new_type)
                }
                O::ExtInst => {
                    if is_interpolation(cx, user) {
                        None
                    } else {
                        return false;
                    }
                }
                O::AccessChain => {
                    let Ty::Pointer {
                        pointee: Some(pointee),
                        storage,
                    } = *cx.types().ty(ty)
                    else {
                        return false;
                    };
                    let is_struct = matches!(cx.types().ty(pointee), Ty::Struct { .. });
                    let d = cx.ir.data(user).clone();
                    let mut chain = Vec::new();
                    for k in 1..d.num_in_operands() {
                        match const_u32(cx, d.in_word(k)) {
                            Some(v) => chain.push(v),
                            None => {
                                if is_struct {
                                    return false;
                                }
                                chain.push(0);
                            }
                        }
                    }
                    let Some(new_pointee) = member_type(cx, pointee, &chain) else {
                        return false;
                    };
                    let pt = cx.types().intern_plain(Ty::Pointer {
                        pointee: Some(new_pointee),
                        storage,
                    });
                    let new_ptr = cx.get_type_instruction(pt);
                    if new_ptr == 0 {
                        return false;
                    }
                    (new_ptr != d.type_id()).then_some(new_ptr)
                }
                O::CompositeExtract => {
                    let d = cx.ir.data(user).clone();
                    let chain: Vec<u32> = (1..d.num_in_operands()).map(|k| d.in_word(k)).collect();
                    let Some(new_type) = member_type(cx, ty, &chain) else {
                        return false;
                    };
                    let id = cx.get_type_instruction(new_type);
                    if id == 0 {
                        return false;
                    }
                    (id != d.type_id()).then_some(id)
                }
                O::Store | O::ImageTexelPointer | O::Name => None,
                op => {
                    if is_decoration(op) {
                        None
                    } else {
                        return false;
                    }
                }
            };
            if let Some(t) = child {
                match self.can_frame(cx, user, t) {
                    Ok(f) => stack.push(f),
                    Err(true) => {}
                    Err(false) => return false,
                }
            }
        }
        true
    }

    /// A frame of `CanUpdateUses(inst, type_id)`, or its verdict when it has no uses
    /// to look at.
    fn can_frame(&mut self, cx: &mut Context, inst: Inst, type_id: u32) -> Result<CanFrame, bool> {
        let Some(ty) = cx.types().get(type_id) else {
            return Err(false);
        };
        match cx.types().ty(ty) {
            Ty::RuntimeArray(_) => return Err(false),
            Ty::Struct { .. } | Ty::Array { .. } | Ty::Pointer { .. } => {}
            _ => return Err(true),
        }
        let id = cx.ir.result_id(inst);
        let uses = cx.uses(id);
        if !self.spend(uses.len()) {
            return Err(false);
        }
        Ok(CanFrame { ty, uses, next: 0 })
    }

    /// `PropagateObject`: the access chain to the source before the store, then the
    /// variable's uses moved onto it.
    fn propagate(
        &mut self,
        cx: &mut Context,
        var: Inst,
        mut source: MemObj,
        store: Inst,
    ) -> Option<()> {
        let new_ptr = if source.chain.is_empty() {
            source.var
        } else {
            for e in &mut source.chain {
                if let Entry::Imm(v) = *e {
                    *e = Entry::Id(cx.int_constant_id(v, false)?);
                }
            }
            let ptr_type = pointer_type_id(cx, &source);
            let mut ids = vec![cx.ir.result_id(source.var)];
            ids.extend(source.chain.iter().map(|e| match *e {
                Entry::Id(x) | Entry::Imm(x) => x,
            }));
            let b = Builder::before(store, Analyses::DEF_USE | Analyses::INSTR_TO_BLOCK);
            b.add_nary_op(cx, ptr_type, O::AccessChain, &ids)?
        };
        cx.kill_names_and_decorates(var);
        self.update_uses(cx, var, new_ptr)
    }

    /// `UpdateUses(original, new)`, depth first on a stack in spirv-opt's order.
    fn update_uses(&mut self, cx: &mut Context, original: Inst, new: Inst) -> Option<()> {
        let uses = cx.uses(cx.ir.result_id(original));
        let mut stack = vec![UpdFrame::Uses {
            original,
            new,
            uses,
            next: 0,
        }];
        while let Some(top) = stack.last_mut() {
            let (original, new, user, index) = match top {
                UpdFrame::AfterLoad(load) => {
                    let load = *load;
                    stack.pop();
                    self.add_uses_to_worklist(cx, load);
                    continue;
                }
                UpdFrame::Uses {
                    original,
                    new,
                    uses,
                    next,
                } => {
                    let Some(&(user, index)) = uses.get(*next) else {
                        stack.pop();
                        continue;
                    };
                    *next += 1;
                    (*original, *new, user, index)
                }
            };
            let new_id = cx.ir.result_id(new);
            if cx.common_debug_opcode(user).is_some() {
                self.update_debug_use(cx, user, index, new);
                continue;
            }
            match cx.ir.opcode(user) {
                O::Load => {
                    cx.forget_uses(user);
                    cx.ir.data_mut(user).set_operand(index, &[new_id]);
                    let pointee = cx
                        .get_def(cx.ir.type_id(new))
                        .map_or(0, |t| cx.ir.data(t).in_word(1));
                    if pointee != cx.ir.type_id(user) {
                        cx.ir.data_mut(user).set_type_id(pointee);
                        cx.analyze_uses(user);
                        stack.push(UpdFrame::AfterLoad(user));
                        stack.push(self.upd_frame(cx, user));
                    } else {
                        cx.analyze_uses(user);
                        self.add_uses_to_worklist(cx, user);
                    }
                }
                O::ExtInst if is_interpolation(cx, user) => {
                    cx.forget_uses(user);
                    cx.ir.data_mut(user).set_operand(index, &[new_id]);
                    cx.analyze_uses(user);
                }
                O::AccessChain => {
                    cx.forget_uses(user);
                    cx.ir.data_mut(user).set_operand(index, &[new_id]);
                    let d = cx.ir.data(user).clone();
                    let chain: Vec<u32> = (1..d.num_in_operands())
                        .map(|k| const_u32(cx, d.in_word(k)).unwrap_or(0))
                        .collect();
                    let Some(ptr) = cx.get_def(cx.ir.type_id(new)) else {
                        cx.analyze_uses(user);
                        continue;
                    };
                    let (storage, pointee) =
                        (cx.ir.data(ptr).in_word(0), cx.ir.data(ptr).in_word(1));
                    let new_pointee = member_type_id(cx, pointee, &chain);
                    let new_ptr_type = cx.find_pointer_to_type(new_pointee, storage);
                    if new_ptr_type != d.type_id() {
                        cx.ir.data_mut(user).set_type_id(new_ptr_type);
                        cx.analyze_uses(user);
                        stack.push(self.upd_frame(cx, user));
                    } else {
                        cx.analyze_uses(user);
                    }
                }
                O::CompositeExtract => {
                    cx.forget_uses(user);
                    cx.ir.data_mut(user).set_operand(index, &[new_id]);
                    let d = cx.ir.data(user).clone();
                    let chain: Vec<u32> = (1..d.num_in_operands()).map(|k| d.in_word(k)).collect();
                    let new_type = member_type_id(cx, cx.ir.type_id(new), &chain);
                    if new_type != d.type_id() {
                        cx.ir.data_mut(user).set_type_id(new_type);
                        cx.analyze_uses(user);
                        stack.push(self.upd_frame(cx, user));
                    } else {
                        cx.analyze_uses(user);
                    }
                }
                O::Store if index == 1 => {
                    let target = cx.get_def(cx.ir.data(user).in_word(0))?;
                    let ptr_type = cx.get_def(cx.ir.type_id(target))?;
                    let pointee = cx.ir.data(ptr_type).in_word(1);
                    // spirv-opt writes id 0 when no copy can be made (it asserts
                    // one can); the store keeps its operand here.
                    if let Some(copy) =
                        generate_copy(cx, &mut self.budget, original, pointee, user)?
                    {
                        cx.forget_uses(user);
                        cx.ir.data_mut(user).set_in_operand(1, &[copy]);
                        cx.analyze_uses(user);
                    }
                }
                O::Decorate | O::ImageTexelPointer => {
                    cx.forget_uses(user);
                    cx.ir.data_mut(user).set_operand(index, &[new_id]);
                    cx.analyze_uses(user);
                }
                _ => {}
            }
        }
        Some(())
    }

    fn upd_frame(&mut self, cx: &mut Context, inst: Inst) -> UpdFrame {
        let uses = cx.uses(cx.ir.result_id(inst));
        UpdFrame::Uses {
            original: inst,
            new: inst,
            uses,
            next: 0,
        }
    }

    /// The debug-instruction case of `UpdateUses`: moved after the new pointer when
    /// that does not dominate it, then pointed at it (a `DebugDeclare` of something
    /// other than a variable or parameter becoming a `DebugValue` with a `Deref`).
    fn update_debug_use(&mut self, cx: &mut Context, user: Inst, index: usize, new: Inst) {
        if let Some(b) = cx.ir.block_of(new)
            && let Some(f) = cx.ir.block_func(b)
        {
            let (dom, ir) = cx.dominators_ir(f);
            if !dom.inst_dominates(ir, new, user) {
                cx.ir.unlink(user);
                cx.ir.insert_after(new, user);
            }
        }
        let new_id = cx.ir.result_id(new);
        match cx.common_debug_opcode(user) {
            Some(DEBUG_DECLARE) => {
                if matches!(cx.ir.opcode(new), O::Variable | O::FunctionParameter) {
                    cx.forget_uses(user);
                    cx.ir.data_mut(user).set_operand(index, &[new_id]);
                    cx.analyze_uses(user);
                } else {
                    cx.forget_uses(user);
                    if index < 2 || index + 1 >= cx.ir.data(user).num_operands() {
                        return;
                    }
                    cx.ir.data_mut(user).set_operand(index - 2, &[DEBUG_VALUE]);
                    cx.ir.data_mut(user).set_operand(index, &[new_id]);
                    let expr_id = cx.ir.data(user).word(index + 1);
                    if let Some(expr) = cx.get_def(expr_id)
                        && let Some(deref) = cx.deref_debug_expression(expr)
                    {
                        let deref_id = cx.ir.result_id(deref);
                        cx.ir.data_mut(user).set_operand(index + 1, &[deref_id]);
                        cx.analyze_uses(deref);
                    }
                    cx.analyze_uses(user);
                }
            }
            Some(DEBUG_VALUE) => {
                cx.forget_uses(user);
                cx.ir.data_mut(user).set_operand(index, &[new_id]);
                cx.analyze_uses(user);
            }
            _ => {}
        }
    }

    /// `AddUsesToWorklist`: the variables the load's value is stored to.
    fn add_uses_to_worklist(&mut self, cx: &mut Context, load: Inst) {
        for (user, _) in cx.uses(cx.ir.result_id(load)) {
            if cx.ir.opcode(user) == O::Store {
                let (ptr, _) = get_ptr_of(cx, user);
                if let Some(p) = ptr
                    && cx.ir.opcode(p) == O::Variable
                {
                    self.worklist.push_back(p);
                }
            }
        }
    }
}

/// The values a value's memory object is made from (`GetSourceObjectIfAny`'s
/// recursive calls, all of them: the evaluation is pure, so evaluating some that
/// spirv-opt's short-circuit skips changes nothing).
fn dependencies(cx: &mut Context, id: u32) -> Vec<u32> {
    let Some(i) = cx.get_def(id) else {
        return Vec::new();
    };
    let d = cx.ir.data(i);
    match d.opcode() {
        O::CompositeExtract | O::CopyObject | O::CopyLogical if d.num_in_operands() > 0 => {
            vec![d.in_word(0)]
        }
        O::CompositeConstruct => (0..d.num_in_operands()).map(|k| d.in_word(k)).collect(),
        O::CompositeInsert if d.num_in_operands() == 3 => {
            let mut out = vec![d.in_word(0)];
            let mut index = d.in_word(2);
            let mut current = d.in_word(1);
            let limit = cx.ir.instruction_count();
            // Each step needs an index one lower: at most `index` steps.
            while index > 0 && out.len() <= limit {
                let Some(c) = cx.get_def(current) else { break };
                let cd = cx.ir.data(c);
                if cd.opcode() != O::CompositeInsert
                    || cd.num_in_operands() != 3
                    || cd.in_word(2) != index - 1
                {
                    break;
                }
                out.push(cd.in_word(0));
                current = cd.in_word(1);
                index -= 1;
            }
            out
        }
        _ => Vec::new(),
    }
}

/// `HasValidReferencesOnly(ptr, store)`: every load (or texel pointer, or
/// interpolation of the stored pointer) under `ptr`, through access chains, is
/// dominated by the store; the only store is to the variable itself.
fn has_valid_references_only(cx: &mut Context, var: Inst, store: Inst) -> bool {
    let Some(f) = cx.ir.block_of(store).and_then(|b| cx.ir.block_func(b)) else {
        return false;
    };
    let store_ptr = cx.ir.data(store).in_word(0);
    // The users the store must dominate, checked together at the end (one walk of
    // the store's block for all of them; the answer is the same).
    let mut dominated = Vec::new();
    let mut stack = vec![var];
    // Each chain once: only a chain using itself or a cycle of chains (invalid SSA)
    // would be queued again, and again, without end.
    let mut queued: HashSet<Inst> = HashSet::from([var]);
    while let Some(ptr) = stack.pop() {
        let ptr_is_var = cx.ir.opcode(ptr) == O::Variable;
        let ptr_id = cx.ir.result_id(ptr);
        for user in cx.users(ptr_id) {
            let ok = match cx.ir.opcode(user) {
                O::Load | O::ImageTexelPointer => {
                    dominated.push(user);
                    true
                }
                O::AccessChain => {
                    if queued.insert(user) {
                        stack.push(user);
                    }
                    true
                }
                O::Name => true,
                O::Store => ptr_is_var && store_ptr == ptr_id,
                op if is_decoration(op) => true,
                _ => {
                    if is_interpolation(cx, user) {
                        let interpolant = cx.ir.data(user).in_word(2);
                        if interpolant != store_ptr {
                            false
                        } else {
                            dominated.push(user);
                            true
                        }
                    } else {
                        is_debug_declare_or_value(cx, user)
                    }
                }
            };
            if !ok {
                return false;
            }
        }
    }
    if dominated.is_empty() {
        return true;
    }
    let (dom, ir) = cx.dominators_ir(f);
    dom.inst_dominates_all(ir, store, &dominated)
}

/// `HasNoStores(ptr)`: nothing under `ptr`, through access chains, writes.
fn has_no_stores(cx: &mut Context, var: Inst) -> bool {
    let mut stack = vec![var];
    // Each chain once, as in `has_valid_references_only` (a chain using itself grew
    // the stack until memory ran out).
    let mut queued: HashSet<Inst> = HashSet::from([var]);
    while let Some(ptr) = stack.pop() {
        let id = cx.ir.result_id(ptr);
        for user in cx.users(id) {
            let ok = match cx.ir.opcode(user) {
                O::Load | O::Name | O::ImageTexelPointer | O::EntryPoint => true,
                O::AccessChain => {
                    if queued.insert(user) {
                        stack.push(user);
                    }
                    true
                }
                O::Store => false,
                op if is_decoration(op) => true,
                _ => is_interpolation(cx, user) || cx.common_debug_opcode(user).is_some(),
            };
            if !ok {
                return false;
            }
        }
    }
    true
}

/// `Pass::GenerateCopy`: `object` rebuilt as `new_type` member by member before
/// `at`, each made instruction taken from `budget`. `Some(None)` when it cannot be (types of different shapes, a length that
/// is not a constant, or the budget spent); `None` when ids ran out.
pub(crate) fn generate_copy(
    cx: &mut Context,
    budget: &mut usize,
    object: Inst,
    new_type: u32,
    at: Inst,
) -> Option<Option<u32>> {
    struct Frame {
        object: u32,
        orig: Inst,
        new_type: u32,
        count: u32,
        next: u32,
        ids: Vec<u32>,
    }
    let b = Builder::before(at, Analyses::INSTR_TO_BLOCK | Analyses::DEF_USE);
    let root_type = cx.ir.type_id(object);
    let root_id = cx.ir.result_id(object);
    if root_type == new_type {
        return Some(Some(root_id));
    }
    let mut stack: Vec<Frame> = Vec::new();
    // Opens a frame for copying `object` of `orig_type` to `new_type`.
    let open = |cx: &mut Context, object: u32, orig_type: u32, new_type: u32| -> Option<Frame> {
        let orig = cx.get_def(orig_type)?;
        let new = cx.get_def(new_type)?;
        if cx.ir.opcode(orig) != cx.ir.opcode(new) {
            return None;
        }
        let count = match cx.ir.opcode(orig) {
            O::TypeArray => const_u32(cx, cx.ir.data(orig).in_word(1))?,
            O::TypeStruct => {
                let n = cx.ir.data(orig).num_in_operands();
                if cx.ir.data(new).num_in_operands() < n {
                    return None;
                }
                n as u32
            }
            _ => return None,
        };
        Some(Frame {
            object,
            orig,
            new_type,
            count,
            next: 0,
            ids: Vec::new(),
        })
    };
    let Some(first) = open(cx, root_id, root_type, new_type) else {
        return Some(None);
    };
    stack.push(first);
    loop {
        let top = stack.last_mut().expect("a frame");
        if top.next == top.count {
            let done = stack.pop().expect("a frame");
            if !spend(budget, 1 + done.ids.len()) {
                return Some(None);
            }
            let made = b.add_nary_op(cx, done.new_type, O::CompositeConstruct, &done.ids)?;
            let id = cx.ir.result_id(made);
            match stack.last_mut() {
                Some(parent) => {
                    parent.ids.push(id);
                    parent.next += 1;
                }
                None => return Some(Some(id)),
            }
            continue;
        }
        if !spend(budget, 1) {
            return Some(None);
        }
        let k = top.next;
        let (orig_elem, new_elem) = {
            let (orig, new_type) = (top.orig, top.new_type);
            let nd = cx.get_def(new_type).map(|n| cx.ir.data(n).clone())?;
            let od = cx.ir.data(orig);
            if od.opcode() == O::TypeArray {
                (od.in_word(0), nd.in_word(0))
            } else {
                (od.in_word(k as usize), nd.in_word(k as usize))
            }
        };
        let object = top.object;
        let extract = b.add_op(
            cx,
            orig_elem,
            O::CompositeExtract,
            &[Operand::id(object), Operand::literal(k)],
        )?;
        let extract_id = cx.ir.result_id(extract);
        if orig_elem == new_elem {
            let top = stack.last_mut().expect("a frame");
            top.ids.push(extract_id);
            top.next += 1;
            continue;
        }
        match open(cx, extract_id, orig_elem, new_elem) {
            Some(f) => stack.push(f),
            None => return Some(None),
        }
    }
}

/// Takes `n` from `budget`; false (and the budget emptied) when it has less.
pub(crate) fn spend(budget: &mut usize, n: usize) -> bool {
    if *budget < n {
        *budget = 0;
        return false;
    }
    *budget -= n;
    true
}
