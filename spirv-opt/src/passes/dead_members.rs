//! `--eliminate-dead-members` (spirv-opt's `EliminateDeadMembersPass`,
//! `source/opt/eliminate_dead_members_pass.cpp`): struct members nothing reads are
//! removed from their `OpTypeStruct`, and every instruction that names members by
//! position follows: member names and decorations (killed for removed members),
//! `OpGroupMemberDecorate`, constant composites and `OpCompositeConstruct`, access
//! chains (a renumbered index is a new 32-bit unsigned constant), extracts, inserts
//! (one into a removed member is killed) and `OpArrayLength`. Only in `Shader`
//! modules.
//!
//! A member is live when an extract, an access chain or an `OpArrayLength` names it.
//! A whole type (its members, their types, and so on down) is live when a value of it
//! is stored, copied into by `OpCopyMemory`, returned, or used by any instruction this
//! pass does not know (its result type or an operand's type), and when it is the
//! pointee of an `Input` or `Output` variable, of a storage buffer (`StorageBuffer`
//! with `Block`, `Uniform` with `BufferBlock`, an array of those) or of a
//! `PhysicalStorageBuffer` pointer type. Uniform buffers and push constants lose
//! members nothing reads. Loads, inserts and constructs read nothing by themselves.
//!
//! Unlike spirv-opt, which marks a type fully live by recursion and again each time it
//! is met (exponential on a struct of two copies of a struct of two copies of …),
//! each type is marked once, on an explicit stack. Where spirv-opt would crash on an
//! invalid module (an index out of a struct's range, a struct index that is not an
//! integer constant, an undefined id), the walk stops there and the struct involved
//! keeps its members.

use crate::analysis::{Analyses, IdHashMap, IdHashSet};
use crate::context::Context;
use crate::ir::{Inst, Operand};
use crate::pass::{IrPass, PassError, Status};
use spirv_core::spv::Opcode as O;
use std::collections::BTreeSet;

/// The pass's flag.
pub const FLAG: &str = "eliminate-dead-members";

/// The `Shader` capability.
const SHADER: u32 = 1;
/// Storage classes.
const INPUT: u32 = 1;
const UNIFORM: u32 = 2;
const OUTPUT: u32 = 3;
const STORAGE_BUFFER: u32 = 12;
const PHYSICAL_STORAGE_BUFFER: u32 = 5349;
/// The opcodes an `OpSpecConstantOp` may embed that this pass looks at.
const OP_COMPOSITE_EXTRACT: u32 = 81;
const OP_COMPOSITE_INSERT: u32 = 82;
/// Decorations.
const BLOCK: u32 = 2;
const BUFFER_BLOCK: u32 = 3;

/// `--eliminate-dead-members`.
#[derive(Debug, Clone, Copy, Default)]
pub struct EliminateDeadMembers;

impl IrPass for EliminateDeadMembers {
    fn flag(&self) -> &'static str {
        FLAG
    }

    fn preserved(&self) -> Analyses {
        Analyses::DEF_USE
            | Analyses::INSTR_TO_BLOCK
            | Analyses::COMBINATORS
            | Analyses::CFG
            | Analyses::DOMINATORS
            | Analyses::LOOPS
            | Analyses::SCALAR_EVOLUTION
            | Analyses::REGISTER_PRESSURE
            | Analyses::VALUE_NUMBER_TABLE
            | Analyses::STRUCTURED_CFG
            | Analyses::BUILTIN_VAR_ID
            | Analyses::ID_TO_FUNC
    }

    fn process(&self, cx: &mut Context) -> Result<Status, PassError> {
        if !cx.has_capability(SHADER) {
            return Ok(Status::Unchanged);
        }
        let mut live = Live::default();
        live.find(cx);
        let modified = live.remove_dead(cx)?;
        Ok(Status::from_changed(modified))
    }
}

/// How a composite type is walked into by an index.
enum Step {
    /// A struct: the index names a member.
    Struct,
    /// An array, vector, matrix or cooperative type: every index gives in-operand 0.
    Element,
    /// Anything else (spirv-opt asserts; in release builds the type stays).
    Other,
}

fn step(cx: &mut Context, type_id: u32) -> Option<(Inst, Step)> {
    let t = cx.get_def(type_id)?;
    let s = match cx.ir.opcode(t) {
        O::TypeStruct => Step::Struct,
        O::TypeArray
        | O::TypeRuntimeArray
        | O::TypeVector
        | O::TypeMatrix
        | O::TypeCooperativeMatrixNV
        | O::TypeCooperativeMatrixKHR
        | O::TypeCooperativeVectorNV => Step::Element,
        _ => Step::Other,
    };
    Some((t, s))
}

/// In-operand `i` of `t` as an id, when `t` has it.
fn member_type(cx: &Context, t: Inst, i: u32) -> Option<u32> {
    let d = cx.ir.data(t);
    let i = usize::try_from(i).ok()?;
    (i < d.num_in_operands()).then(|| d.in_word(i))
}

/// The value of a struct index: an integer `OpConstant`'s low word
/// (`GetZeroExtendedValue` cast to 32 bits).
fn index_value(cx: &mut Context, id: u32) -> Option<u32> {
    let c = cx.get_def(id)?;
    if cx.ir.opcode(c) != O::Constant {
        return None;
    }
    let ty = cx.get_def(cx.ir.type_id(c))?;
    if cx.ir.opcode(ty) != O::TypeInt {
        return None;
    }
    Some(cx.ir.data(c).in_word(0))
}

/// The pointee type of the type of `id`'s definition (`id` a pointer).
fn pointee_of_value(cx: &mut Context, id: u32) -> Option<u32> {
    let v = cx.get_def(id)?;
    let p = cx.get_def(cx.ir.type_id(v))?;
    (cx.ir.opcode(p) == O::TypePointer).then(|| cx.ir.data(p).in_word(1))
}

/// The type of `id`'s definition (0 for none).
fn type_of(cx: &mut Context, id: u32) -> u32 {
    cx.get_def(id).map_or(0, |d| cx.ir.type_id(d))
}

/// The live members of each struct (`used_members_`): a struct with no entry when the
/// types are rewritten gets an empty one.
#[derive(Default)]
struct Live {
    used: IdHashMap<u32, BTreeSet<u32>>,
    /// Types already marked fully live.
    full: IdHashSet<u32>,
    /// `used` as sorted lists, once the marking is over: a member's new index is its
    /// position.
    ranks: IdHashMap<u32, Vec<u32>>,
}

impl Live {
    /// `FindLiveMembers`.
    fn find(&mut self, cx: &mut Context) {
        let globals: Vec<Inst> = cx.ir.section(crate::ir::Section::TypesValues).collect();
        for i in globals {
            match cx.ir.opcode(i) {
                O::SpecConstantOp if cx.ir.data(i).in_word(0) == OP_COMPOSITE_EXTRACT => {
                    self.mark_extract(cx, i, 1);
                }
                O::Variable => {
                    let storage = cx.ir.data(i).in_word(0);
                    let ty = cx.ir.type_id(i);
                    if storage == INPUT || storage == OUTPUT || is_storage_buffer_variable(cx, i) {
                        if let Some(p) = cx.get_def(ty) {
                            let pointee = cx.ir.data(p).in_word(1);
                            self.mark_fully_used(cx, pointee);
                        }
                    }
                }
                O::TypePointer => {
                    let d = cx.ir.data(i);
                    if d.in_word(0) == PHYSICAL_STORAGE_BUFFER {
                        let pointee = d.in_word(1);
                        self.mark_fully_used(cx, pointee);
                    }
                }
                _ => {}
            }
        }
        let funcs = cx.ir.functions().to_vec();
        let mut insts = Vec::new();
        for f in funcs {
            insts.clear();
            cx.ir.func_insts(f, false, &mut |i| insts.push(i));
            for &i in &insts {
                self.find_in(cx, i);
            }
        }
    }

    /// `FindLiveMembers(const Instruction*)`.
    fn find_in(&mut self, cx: &mut Context, i: Inst) {
        match cx.ir.opcode(i) {
            O::Store => {
                let t = type_of(cx, cx.ir.data(i).in_word(1));
                self.mark_fully_used(cx, t);
            }
            O::CopyMemory | O::CopyMemorySized => {
                if let Some(t) = pointee_of_value(cx, cx.ir.data(i).in_word(0)) {
                    self.mark_fully_used(cx, t);
                }
            }
            O::CompositeExtract => self.mark_extract(cx, i, 0),
            O::AccessChain | O::InBoundsAccessChain => self.mark_access_chain(cx, i, 1),
            O::PtrAccessChain | O::InBoundsPtrAccessChain => self.mark_access_chain(cx, i, 2),
            O::ReturnValue => {
                let t = type_of(cx, cx.ir.data(i).in_word(0));
                self.mark_fully_used(cx, t);
            }
            O::ArrayLength => {
                let d = cx.ir.data(i);
                let (ptr, member) = (d.in_word(0), d.in_word(1));
                if let Some(t) = pointee_of_value(cx, ptr) {
                    self.used.entry(t).or_default().insert(member);
                }
            }
            O::Load | O::CompositeInsert | O::CompositeConstruct => {}
            _ => {
                let t = cx.ir.type_id(i);
                if t != 0 {
                    self.mark_fully_used(cx, t);
                }
                let mut ids = Vec::new();
                cx.ir.data(i).for_each_in_id(|id| ids.push(id));
                for id in ids {
                    let t = type_of(cx, id);
                    if t != 0 {
                        self.mark_fully_used(cx, t);
                    }
                }
            }
        }
    }

    /// `MarkTypeAsFullyUsed`: every member of a struct and, down the types, of its
    /// members' and elements' types.
    fn mark_fully_used(&mut self, cx: &mut Context, type_id: u32) {
        let mut stack = vec![type_id];
        while let Some(t) = stack.pop() {
            if !self.full.insert(t) {
                continue;
            }
            let Some(ti) = cx.get_def(t) else {
                continue;
            };
            let d = cx.ir.data(ti);
            match cx.ir.opcode(ti) {
                O::TypeStruct => {
                    let n = d.num_in_operands();
                    let members = self.used.entry(t).or_default();
                    for k in 0..n {
                        members.insert(k as u32);
                        stack.push(d.in_word(k));
                    }
                }
                O::TypeArray | O::TypeRuntimeArray => stack.push(d.in_word(0)),
                _ => {}
            }
        }
    }

    /// `MarkMembersAsLiveForExtract`: the composite's operand at `first`, its indices
    /// after it.
    fn mark_extract(&mut self, cx: &mut Context, i: Inst, first: usize) {
        let (composite, indices) = {
            let d = cx.ir.data(i);
            let n = d.num_in_operands();
            let indices: Vec<u32> = (first + 1..n).map(|k| d.in_word(k)).collect();
            (d.in_word(first), indices)
        };
        let mut type_id = type_of(cx, composite);
        for member in indices {
            let Some((t, s)) = step(cx, type_id) else {
                return;
            };
            match s {
                Step::Struct => {
                    let Some(next) = member_type(cx, t, member) else {
                        self.mark_fully_used(cx, type_id);
                        return;
                    };
                    self.used.entry(type_id).or_default().insert(member);
                    type_id = next;
                }
                Step::Element => type_id = cx.ir.data(t).in_word(0),
                Step::Other => {}
            }
        }
    }

    /// `MarkMembersAsLiveForAccessChain`: indices from in-operand `first` on.
    fn mark_access_chain(&mut self, cx: &mut Context, i: Inst, first: usize) {
        let (base, indices) = {
            let d = cx.ir.data(i);
            let n = d.num_in_operands();
            let indices: Vec<u32> = (first..n).map(|k| d.in_word(k)).collect();
            (d.in_word(0), indices)
        };
        let Some(mut type_id) = pointee_of_value(cx, base) else {
            return;
        };
        for index in indices {
            let Some((t, s)) = step(cx, type_id) else {
                return;
            };
            match s {
                Step::Struct => {
                    let Some(next) =
                        index_value(cx, index).and_then(|m| Some((m, member_type(cx, t, m)?)))
                    else {
                        self.mark_fully_used(cx, type_id);
                        return;
                    };
                    self.used.entry(type_id).or_default().insert(next.0);
                    type_id = next.1;
                }
                Step::Element => type_id = cx.ir.data(t).in_word(0),
                Step::Other => {}
            }
        }
    }

    /// `GetNewMemberIndex`: the member's new position, `None` when it is removed
    /// (types without an entry keep their positions).
    fn new_index(&self, type_id: u32, member: u32) -> Option<u32> {
        match self.ranks.get(&type_id) {
            None => Some(member),
            Some(list) => list.binary_search(&member).ok().map(|k| k as u32),
        }
    }

    /// `RemoveDeadMembers`: the struct types first, then what names their members.
    fn remove_dead(&mut self, cx: &mut Context) -> Result<bool, PassError> {
        let mut modified = false;
        self.ranks = std::mem::take(&mut self.used)
            .into_iter()
            .map(|(t, set)| (t, set.into_iter().collect()))
            .collect();
        let all = cx.ir.all_insts();
        for &i in &all {
            if cx.ir.opcode(i) == O::TypeStruct {
                modified |= self.update_struct(cx, i);
            }
        }
        for &i in &all {
            if !cx.ir.is_live(i) {
                continue;
            }
            modified |= match cx.ir.opcode(i) {
                O::MemberName | O::MemberDecorate => self.update_member_name_or_decorate(cx, i),
                O::GroupMemberDecorate => self.update_group_member_decorate(cx, i),
                O::SpecConstantComposite | O::ConstantComposite | O::CompositeConstruct => {
                    self.update_composite(cx, i)
                }
                O::AccessChain
                | O::InBoundsAccessChain
                | O::PtrAccessChain
                | O::InBoundsPtrAccessChain => self.update_access_chain(cx, i)?,
                O::CompositeExtract => self.update_extract(cx, i, 0),
                O::CompositeInsert => self.update_insert(cx, i, 0),
                O::ArrayLength => self.update_array_length(cx, i),
                O::SpecConstantOp => {
                    let op = cx.ir.data(i).in_word(0);
                    if op == OP_COMPOSITE_EXTRACT {
                        self.update_extract(cx, i, 1)
                    } else if op == OP_COMPOSITE_INSERT {
                        self.update_insert(cx, i, 1)
                    } else {
                        false
                    }
                }
                _ => false,
            };
        }
        Ok(modified)
    }

    /// `UpdateOpTypeStruct`: keeps the live members, in order.
    fn update_struct(&mut self, cx: &mut Context, i: Inst) -> bool {
        let id = cx.ir.result_id(i);
        let live = self.ranks.entry(id).or_default();
        let d = cx.ir.data(i);
        let n = d.num_in_operands();
        if live.len() == n {
            return false;
        }
        let trc = d.type_result_count();
        let ops: Vec<Operand> = live
            .iter()
            .filter(|&&k| (k as usize) < n)
            .map(|&k| d.operand(trc + k as usize))
            .collect();
        cx.ir.data_mut(i).set_in_operands(&ops);
        cx.update_def_use(i);
        true
    }

    /// `UpdateOpMemberNameOrDecorate`.
    fn update_member_name_or_decorate(&self, cx: &mut Context, i: Inst) -> bool {
        let d = cx.ir.data(i);
        let (type_id, member) = (d.in_word(0), d.in_word(1));
        if !self.ranks.contains_key(&type_id) {
            return false;
        }
        match self.new_index(type_id, member) {
            None => {
                cx.kill_inst(i);
                true
            }
            Some(m) if m == member => false,
            Some(m) => {
                cx.ir.data_mut(i).set_in_operand(1, &[m]);
                true
            }
        }
    }

    /// `UpdateOpGroupMemberDecorate`: drops the removed (struct, member) pairs and
    /// renumbers the others; killed when none is left.
    fn update_group_member_decorate(&self, cx: &mut Context, i: Inst) -> bool {
        let d = cx.ir.data(i);
        let trc = d.type_result_count();
        let n = d.num_in_operands();
        let mut ops = vec![d.operand(trc)];
        let mut modified = false;
        let mut k = 1;
        while k + 1 < n {
            let (type_id, member) = (d.in_word(k), d.in_word(k + 1));
            match self.new_index(type_id, member) {
                None => modified = true,
                Some(m) => {
                    ops.push(d.operand(trc + k));
                    if m == member {
                        ops.push(d.operand(trc + k + 1));
                    } else {
                        ops.push(Operand::literal(m));
                        modified = true;
                    }
                }
            }
            k += 2;
        }
        if !modified {
            return false;
        }
        if ops.len() == 1 {
            cx.kill_inst(i);
            return true;
        }
        cx.ir.data_mut(i).set_in_operands(&ops);
        cx.update_def_use(i);
        true
    }

    /// `UpdateConstantComposite`: drops the operands of removed members.
    fn update_composite(&self, cx: &mut Context, i: Inst) -> bool {
        let d = cx.ir.data(i);
        let type_id = d.type_id();
        let trc = d.type_result_count();
        let n = d.num_in_operands();
        let mut ops = Vec::with_capacity(n);
        let mut modified = false;
        for k in 0..n {
            match self.new_index(type_id, k as u32) {
                None => modified = true,
                Some(_) => ops.push(d.operand(trc + k)),
            }
        }
        if modified {
            cx.ir.data_mut(i).set_in_operands(&ops);
            cx.update_def_use(i);
        }
        modified
    }

    /// `UpdateAccessChain`: a renumbered struct index becomes a new 32-bit unsigned
    /// constant (made where missing).
    fn update_access_chain(&self, cx: &mut Context, i: Inst) -> Result<bool, PassError> {
        let (base, first, old) = {
            let d = cx.ir.data(i);
            let trc = d.type_result_count();
            let first = if matches!(d.opcode(), O::PtrAccessChain | O::InBoundsPtrAccessChain) {
                2
            } else {
                1
            };
            let old: Vec<Operand> = (0..d.num_in_operands())
                .map(|k| d.operand(trc + k))
                .collect();
            (d.in_word(0), first, old)
        };
        let Some(mut type_id) = pointee_of_value(cx, base) else {
            return Ok(false);
        };
        let mut ops: Vec<Operand> = old.iter().take(first).cloned().collect();
        let mut modified = false;
        let mut k = first;
        while k < old.len() {
            let Some((t, s)) = step(cx, type_id) else {
                break;
            };
            match s {
                Step::Struct => {
                    let id = old[k].words.first().copied().unwrap_or(0);
                    let Some(member) = index_value(cx, id) else {
                        break;
                    };
                    let Some(new) = self.new_index(type_id, member) else {
                        // Only where the marking walk went another way (an invalid
                        // module): leave the chain as it is.
                        return Ok(false);
                    };
                    if new != member {
                        let c = cx.int_constant_id(new, false).ok_or(PassError {
                            pass: FLAG,
                            message: "ID overflow. Try running compact-ids.".into(),
                        })?;
                        ops.push(Operand::id(c));
                        modified = true;
                    } else {
                        ops.push(old[k].clone());
                    }
                    let Some(next) = member_type(cx, t, new) else {
                        k += 1;
                        break;
                    };
                    type_id = next;
                }
                Step::Element => {
                    ops.push(old[k].clone());
                    type_id = cx.ir.data(t).in_word(0);
                }
                Step::Other => ops.push(old[k].clone()),
            }
            k += 1;
        }
        if !modified {
            return Ok(false);
        }
        ops.extend(old[k.min(old.len())..].iter().cloned());
        cx.ir.data_mut(i).set_in_operands(&ops);
        cx.update_def_use(i);
        Ok(true)
    }

    /// The new literal indices of an extract or insert walking from `type_id`;
    /// `Err(())` when one names a removed member, `Ok(None)` when nothing changes.
    fn renumber(
        &self,
        cx: &mut Context,
        mut type_id: u32,
        indices: &[u32],
    ) -> Result<Option<Vec<u32>>, ()> {
        let mut out = Vec::with_capacity(indices.len());
        let mut modified = false;
        for (n, &member) in indices.iter().enumerate() {
            let new = self.new_index(type_id, member).ok_or(())?;
            modified |= new != member;
            out.push(new);
            let Some((t, s)) = step(cx, type_id) else {
                out.extend_from_slice(&indices[n + 1..]);
                break;
            };
            match s {
                Step::Struct => match member_type(cx, t, new) {
                    Some(next) => type_id = next,
                    None => {
                        out.extend_from_slice(&indices[n + 1..]);
                        break;
                    }
                },
                Step::Element => type_id = cx.ir.data(t).in_word(0),
                Step::Other => {}
            }
        }
        Ok(modified.then_some(out))
    }

    /// `UpdateCompsiteExtract` (the composite at in-operand `first`).
    fn update_extract(&self, cx: &mut Context, i: Inst, first: usize) -> bool {
        let (composite, indices) = {
            let d = cx.ir.data(i);
            let indices: Vec<u32> = (first + 1..d.num_in_operands())
                .map(|k| d.in_word(k))
                .collect();
            (d.in_word(first), indices)
        };
        let type_id = type_of(cx, composite);
        // A removed member here: only where the marking walk went another way (an
        // invalid module, where spirv-opt writes 0xFFFFFFFF and then crashes).
        let Ok(Some(new)) = self.renumber(cx, type_id, &indices) else {
            return false;
        };
        self.set_literals(cx, i, first + 1, &new);
        true
    }

    /// `UpdateCompositeInsert` (the object at `first`, the composite after it): killed
    /// when it writes a removed member.
    fn update_insert(&self, cx: &mut Context, i: Inst, first: usize) -> bool {
        let (composite, indices) = {
            let d = cx.ir.data(i);
            let indices: Vec<u32> = (first + 2..d.num_in_operands())
                .map(|k| d.in_word(k))
                .collect();
            (d.in_word(first + 1), indices)
        };
        let type_id = type_of(cx, composite);
        match self.renumber(cx, type_id, &indices) {
            Err(()) => {
                cx.kill_inst(i);
                true
            }
            Ok(None) => false,
            Ok(Some(new)) => {
                self.set_literals(cx, i, first + 2, &new);
                true
            }
        }
    }

    /// Replaces the in-operands from `from` on by the literals `values`.
    fn set_literals(&self, cx: &mut Context, i: Inst, from: usize, values: &[u32]) {
        let d = cx.ir.data(i);
        let trc = d.type_result_count();
        let mut ops: Vec<Operand> = (0..from).map(|k| d.operand(trc + k)).collect();
        ops.extend(values.iter().map(|&v| Operand::literal(v)));
        cx.ir.data_mut(i).set_in_operands(&ops);
        cx.update_def_use(i);
    }

    /// `UpdateOpArrayLength`.
    fn update_array_length(&self, cx: &mut Context, i: Inst) -> bool {
        let d = cx.ir.data(i);
        let (ptr, member) = (d.in_word(0), d.in_word(1));
        let Some(type_id) = pointee_of_value(cx, ptr) else {
            return false;
        };
        match self.new_index(type_id, member) {
            Some(m) if m != member => {
                cx.ir.data_mut(i).set_in_operand(1, &[m]);
                cx.update_def_use(i);
                true
            }
            _ => false,
        }
    }
}

/// `IsVulkanStorageBufferVariable`: a `StorageBuffer` or `Uniform` variable whose
/// pointer type is a storage buffer: its pointee (or the element of an array pointee)
/// a struct decorated `Block` (`StorageBuffer`) or `BufferBlock` (`Uniform`), by the
/// pointer type's storage class.
fn is_storage_buffer_variable(cx: &mut Context, var: Inst) -> bool {
    let storage = cx.ir.data(var).in_word(0);
    if storage != STORAGE_BUFFER && storage != UNIFORM {
        return false;
    }
    let Some(ptr) = cx.get_def(cx.ir.type_id(var)) else {
        return false;
    };
    if cx.ir.opcode(ptr) != O::TypePointer {
        return false;
    }
    let (ptr_storage, pointee) = {
        let d = cx.ir.data(ptr);
        (d.in_word(0), d.in_word(1))
    };
    let Some(mut base) = cx.get_def(pointee) else {
        return false;
    };
    if matches!(cx.ir.opcode(base), O::TypeArray | O::TypeRuntimeArray) {
        let elem = cx.ir.data(base).in_word(0);
        let Some(b) = cx.get_def(elem) else {
            return false;
        };
        base = b;
    }
    if cx.ir.opcode(base) != O::TypeStruct {
        return false;
    }
    let base_id = cx.ir.result_id(base);
    match ptr_storage {
        UNIFORM => cx.has_decoration(base_id, BUFFER_BLOCK),
        STORAGE_BUFFER => cx.has_decoration(base_id, BLOCK),
        _ => false,
    }
}
