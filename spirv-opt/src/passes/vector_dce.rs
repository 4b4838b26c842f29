//! `--vector-dce` (spirv-opt's `VectorDCE`, `source/opt/vector_dce.cpp`): in every
//! function, the components of vector (and scalar) combinator results that nothing
//! reads are found from the instructions that use values whole (every component of a
//! vector live, 16 at most), through extracts, inserts, shuffles, constructs and
//! component-wise operations; a combinator with no live component becomes an
//! `OpUndef` of its type, an insert of a dead component is bypassed, and an insert
//! whose only live component is the inserted one inserts into an `OpUndef`.

use crate::analysis::Analyses;
use crate::analysis::IdHashMap;
use crate::analysis::types::Ty;
use crate::context::Context;
use crate::ir::{Func, Inst};
use crate::mem_pass::MemPass;
use crate::pass::{IrPass, PassError, Status};
use spirv_core::spv::Opcode as O;
use std::collections::BTreeSet;

/// The pass's flag.
pub const FLAG: &str = "vector-dce";

/// `--vector-dce`.
#[derive(Debug, Clone, Copy, Default)]
pub struct VectorDce;

/// How many components "all live" covers (`kMaxVectorSize`).
const MAX_VECTOR_SIZE: u32 = 16;

/// `DebugValue` in the common debug-info numbering.
const DEBUG_VALUE: u32 = 29;

impl IrPass for VectorDce {
    fn flag(&self) -> &'static str {
        FLAG
    }

    fn preserved(&self) -> Analyses {
        Analyses::DEF_USE
            | Analyses::CFG
            | Analyses::INSTR_TO_BLOCK
            | Analyses::LOOPS
            | Analyses::DECORATIONS
            | Analyses::DOMINATORS
            | Analyses::NAME_MAP
            | Analyses::CONSTANTS
            | Analyses::TYPES
    }

    fn process(&self, cx: &mut Context) -> Result<Status, PassError> {
        let mut mem = MemPass::new();
        let mut modified = false;
        let funcs: Vec<Func> = cx.ir.functions().to_vec();
        for f in funcs {
            let live = find_live_components(cx, f);
            modified |= rewrite_instructions(cx, &mut mem, f, &live).ok_or_else(|| PassError {
                pass: FLAG,
                message: "ids ran out".into(),
            })?;
        }
        Ok(if modified {
            Status::Changed
        } else {
            Status::Unchanged
        })
    }
}

/// A set of component indices (`utils::BitVector`): the first 64 as bits, any beyond
/// (only in modules that claim huge vectors) in a sorted set.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Bits {
    lo: u64,
    hi: BTreeSet<u32>,
}

impl Bits {
    fn all() -> Bits {
        Bits {
            lo: (1u64 << MAX_VECTOR_SIZE) - 1,
            hi: BTreeSet::new(),
        }
    }

    fn one(i: u32) -> Bits {
        let mut b = Bits::default();
        b.set(i);
        b
    }

    fn set(&mut self, i: u32) {
        if i < 64 {
            self.lo |= 1 << i;
        } else {
            self.hi.insert(i);
        }
    }

    fn clear(&mut self, i: u32) {
        if i < 64 {
            self.lo &= !(1 << i);
        } else {
            self.hi.remove(&i);
        }
    }

    fn get(&self, i: u32) -> bool {
        if i < 64 {
            self.lo & (1 << i) != 0
        } else {
            self.hi.contains(&i)
        }
    }

    fn is_empty(&self) -> bool {
        self.lo == 0 && self.hi.is_empty()
    }

    /// Adds `other`'s components: whether any was new (`Or`).
    fn or(&mut self, other: &Bits) -> bool {
        let before = self.lo;
        self.lo |= other.lo;
        let mut changed = self.lo != before;
        for &i in &other.hi {
            changed |= self.hi.insert(i);
        }
        changed
    }

    /// The components in `start..start + len`, in order.
    fn in_range(&self, start: u64, len: u64) -> Vec<u32> {
        let end = start.saturating_add(len);
        let mut out = Vec::new();
        for i in start.min(64)..end.min(64) {
            if self.lo & (1 << i) != 0 {
                out.push(i as u32);
            }
        }
        if end > 64 {
            let lo = u32::try_from(start.max(64)).unwrap_or(u32::MAX);
            out.extend(
                self.hi
                    .range(lo..)
                    .copied()
                    .take_while(|&i| u64::from(i) < end),
            );
        }
        out
    }
}

/// The live components of each result id (only looked up, so a fast hasher).
type Live = IdHashMap<u32, Bits>;

/// A work-list item: an instruction and the components of it found live.
struct Item {
    inst: Inst,
    components: Bits,
}

/// What a type is to the pass: one type-manager lookup answers both
/// `HasScalarResult` and `HasVectorResult` and gives the vector's size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    /// A bool, integer or float.
    Scalar,
    /// A vector of this many components.
    Vector(u32),
    /// Anything else, or no type.
    Other,
}

/// The class of type `type_id`.
fn class(cx: &mut Context, type_id: u32) -> Class {
    if type_id == 0 {
        return Class::Other;
    }
    let types = cx.types();
    let Some(t) = types.get(type_id) else {
        return Class::Other;
    };
    match types.ty(t) {
        Ty::Vector { count, .. } => Class::Vector(*count),
        Ty::Bool | Ty::Int { .. } | Ty::Float { .. } => Class::Scalar,
        _ => Class::Other,
    }
}

/// The component count of vector type `type_id`, or `None` when it is not a vector.
fn vector_count(cx: &mut Context, type_id: u32) -> Option<u32> {
    match class(cx, type_id) {
        Class::Vector(n) => Some(n),
        _ => None,
    }
}

/// The class of `i`'s result type.
fn result_class(cx: &mut Context, i: Inst) -> Class {
    let ty = cx.ir.type_id(i);
    class(cx, ty)
}

/// `AddItemToWorkListIfNeeded`.
fn add_item(live: &mut Live, work: &mut Vec<Item>, cx: &Context, inst: Inst, components: Bits) {
    let id = cx.ir.result_id(inst);
    match live.get_mut(&id) {
        None => {
            live.insert(id, components.clone());
            work.push(Item { inst, components });
        }
        Some(b) => {
            if b.or(&components) {
                work.push(Item { inst, components });
            }
        }
    }
}

/// `MarkUsesAsLive`: each vector operand with `components`, each scalar one whole.
fn mark_uses(cx: &mut Context, i: Inst, components: &Bits, live: &mut Live, work: &mut Vec<Item>) {
    // The ids first (the lookups below need `cx` mutably): on the stack for most
    // instructions.
    let mut near = [0u32; 8];
    let mut n = 0;
    let mut far = Vec::new();
    cx.ir.data(i).for_each_in_id(|id| {
        if let Some(slot) = near.get_mut(n) {
            *slot = id;
            n += 1;
        } else {
            far.push(id);
        }
    });
    for &id in near[..n].iter().chain(far.iter()) {
        let Some(op) = cx.get_def(id) else {
            continue;
        };
        match result_class(cx, op) {
            Class::Vector(_) => add_item(live, work, cx, op, components.clone()),
            Class::Scalar => add_item(live, work, cx, op, Bits::one(0)),
            Class::Other => {}
        }
    }
}

/// Whether `i` works component by component (`IsScalarizable`).
fn is_scalarizable(cx: &mut Context, i: Inst) -> bool {
    let op = cx.ir.opcode(i);
    if matches!(
        op,
        O::Phi
            | O::CopyObject
            | O::ConvertFToU
            | O::ConvertFToS
            | O::ConvertSToF
            | O::ConvertUToF
            | O::UConvert
            | O::SConvert
            | O::FConvert
            | O::QuantizeToF16
            | O::VectorInsertDynamic
            | O::SNegate
            | O::FNegate
            | O::IAdd
            | O::FAdd
            | O::ISub
            | O::FSub
            | O::IMul
            | O::FMul
            | O::UDiv
            | O::SDiv
            | O::FDiv
            | O::UMod
            | O::SRem
            | O::SMod
            | O::FRem
            | O::FMod
            | O::VectorTimesScalar
            | O::IAddCarry
            | O::ISubBorrow
            | O::UMulExtended
            | O::SMulExtended
            | O::ShiftRightLogical
            | O::ShiftRightArithmetic
            | O::ShiftLeftLogical
            | O::BitwiseOr
            | O::BitwiseAnd
            | O::Not
            | O::BitFieldInsert
            | O::BitFieldSExtract
            | O::BitFieldUExtract
            | O::BitReverse
            | O::BitCount
            | O::IsNan
            | O::IsInf
            | O::IsFinite
            | O::IsNormal
            | O::SignBitSet
            | O::LessOrGreater
            | O::Ordered
            | O::Unordered
            | O::LogicalEqual
            | O::LogicalNotEqual
            | O::LogicalOr
            | O::LogicalAnd
            | O::LogicalNot
            | O::Select
            | O::IEqual
            | O::INotEqual
            | O::UGreaterThan
            | O::SGreaterThan
            | O::UGreaterThanEqual
            | O::SGreaterThanEqual
            | O::ULessThan
            | O::SLessThan
            | O::ULessThanEqual
            | O::SLessThanEqual
            | O::FOrdEqual
            | O::FUnordEqual
            | O::FOrdNotEqual
            | O::FUnordNotEqual
            | O::FOrdLessThan
            | O::FUnordLessThan
            | O::FOrdGreaterThan
            | O::FUnordGreaterThan
            | O::FOrdLessThanEqual
            | O::FUnordLessThanEqual
            | O::FOrdGreaterThanEqual
            | O::FUnordGreaterThanEqual
    ) {
        return true;
    }
    if op != O::ExtInst {
        return false;
    }
    let glsl = cx.features().glsl_std_450;
    let d = cx.ir.data(i);
    if d.in_word(0) != glsl {
        return false;
    }
    // GLSL.std.450's component-wise instructions as spirv-opt lists them: Round
    // through InverseSqrt, Modf, FMin through FMix (not IMix), Step, SmoothStep, Fma,
    // Frexp, Ldexp, FindILsb, FindSMsb, FindUMsb, NMin, NMax, NClamp.
    matches!(
        d.in_word(1),
        1 | 2
            | 3
            | 4
            | 5
            | 6
            | 7
            | 8
            | 9
            | 10
            | 11
            | 12
            | 13
            | 14
            | 15
            | 16
            | 17
            | 18
            | 19
            | 20
            | 21
            | 22
            | 23
            | 24
            | 25
            | 26
            | 27
            | 28
            | 29
            | 30
            | 31
            | 32
            | 35
            | 37
            | 38
            | 39
            | 40
            | 41
            | 42
            | 43
            | 44
            | 45
            | 46
            | 48
            | 49
            | 50
            | 51
            | 53
            | 73
            | 74
            | 75
            | 79
            | 80
            | 81
    )
}

/// `FindLiveComponents`.
fn find_live_components(cx: &mut Context, f: Func) -> Live {
    let mut live = Live::default();
    let mut work: Vec<Item> = Vec::new();
    let all = Bits::all();
    let mut insts: Vec<Inst> = Vec::new();
    cx.ir.func_insts(f, false, &mut |i| insts.push(i));
    for i in insts {
        if cx.common_debug_opcode(i).is_some() {
            continue;
        }
        let vs = result_class(cx, i) != Class::Other;
        if !vs || !cx.is_combinator(i) {
            mark_uses(cx, i, &all, &mut live, &mut work);
        }
    }
    let mut k = 0;
    while k < work.len() {
        let inst = work[k].inst;
        let components = work[k].components.clone();
        k += 1;
        match cx.ir.opcode(inst) {
            O::CompositeExtract => mark_extract(cx, inst, &components, &mut live, &mut work),
            O::CompositeInsert => mark_insert(cx, inst, &components, &mut live, &mut work),
            O::VectorShuffle => mark_shuffle(cx, inst, &components, &mut live, &mut work),
            O::CompositeConstruct => mark_construct(cx, inst, &components, &mut live, &mut work),
            _ => {
                if is_scalarizable(cx, inst) {
                    mark_uses(cx, inst, &components, &mut live, &mut work);
                } else {
                    mark_uses(cx, inst, &all, &mut live, &mut work);
                }
            }
        }
    }
    live
}

/// `MarkExtractUseAsLive`.
fn mark_extract(
    cx: &mut Context,
    i: Inst,
    components: &Bits,
    live: &mut Live,
    work: &mut Vec<Item>,
) {
    let d = cx.ir.data(i);
    let (composite, n, index) = (d.in_word(0), d.num_in_operands(), d.in_word(1));
    let Some(op) = cx.get_def(composite) else {
        return;
    };
    let size = match result_class(cx, op) {
        Class::Other => return,
        Class::Scalar => 0,
        Class::Vector(n) => n,
    };
    let bits = if n < 2 {
        components.clone()
    } else {
        let mut b = Bits::default();
        if index < size {
            b.set(index);
        }
        b
    };
    add_item(live, work, cx, op, bits);
}

/// `MarkInsertUsesAsLive`.
fn mark_insert(
    cx: &mut Context,
    i: Inst,
    components: &Bits,
    live: &mut Live,
    work: &mut Vec<Item>,
) {
    let d = cx.ir.data(i);
    let (object, composite, n, pos) = (
        d.in_word(0),
        d.in_word(1),
        d.num_in_operands(),
        d.in_word(2),
    );
    if n > 2 {
        if let Some(c) = cx.get_def(composite) {
            let mut b = components.clone();
            b.clear(pos);
            add_item(live, work, cx, c, b);
        }
        if components.get(pos) {
            if let Some(o) = cx.get_def(object) {
                add_item(live, work, cx, o, Bits::one(0));
            }
        }
    } else if let Some(o) = cx.get_def(object) {
        add_item(live, work, cx, o, components.clone());
    }
}

/// `MarkVectorShuffleUsesAsLive`.
fn mark_shuffle(
    cx: &mut Context,
    i: Inst,
    components: &Bits,
    live: &mut Live,
    work: &mut Vec<Item>,
) {
    let d = cx.ir.data(i);
    let (a, b) = (d.in_word(0), d.in_word(1));
    let lanes: Vec<(u32, u32)> = (2..d.num_in_operands())
        .map(|k| (u32::try_from(k - 2).unwrap_or(u32::MAX), d.in_word(k)))
        .collect();
    let (Some(first), Some(second)) = (cx.get_def(a), cx.get_def(b)) else {
        return;
    };
    let ta = cx.ir.type_id(first);
    let tb = cx.ir.type_id(second);
    let size_a = vector_count(cx, ta).unwrap_or(0);
    let size_b = vector_count(cx, tb).unwrap_or(0);
    let mut bits_a = Bits::default();
    let mut bits_b = Bits::default();
    for (lane, index) in lanes {
        if components.get(lane) {
            if index < size_a {
                bits_a.set(index);
            } else if index - size_a < size_b {
                bits_b.set(index - size_a);
            }
        }
    }
    add_item(live, work, cx, first, bits_a);
    add_item(live, work, cx, second, bits_b);
}

/// `MarkCompositeContructUsesAsLive`: each operand takes the live components at its
/// place in the result.
fn mark_construct(
    cx: &mut Context,
    i: Inst,
    components: &Bits,
    live: &mut Live,
    work: &mut Vec<Item>,
) {
    let d = cx.ir.data(i);
    let ids: Vec<u32> = (0..d.num_in_operands()).map(|k| d.in_word(k)).collect();
    let mut at: u64 = 0;
    for id in ids {
        let Some(op) = cx.get_def(id) else {
            continue;
        };
        let c = result_class(cx, op);
        if c == Class::Scalar {
            let mut b = Bits::default();
            if at <= u64::from(u32::MAX) && components.get(at as u32) {
                b.set(0);
            }
            add_item(live, work, cx, op, b);
            at += 1;
        } else {
            let size = u64::from(match c {
                Class::Vector(n) => n,
                _ => 0,
            });
            let mut b = Bits::default();
            for c in components.in_range(at, size) {
                b.set(u32::try_from(u64::from(c) - at).unwrap_or(u32::MAX));
            }
            add_item(live, work, cx, op, b);
            at = at.saturating_add(size);
        }
    }
}

/// `MarkDebugValueUsesAsDead`.
fn mark_debug_values_dead(cx: &mut Context, i: Inst, dead: &mut Vec<Inst>) {
    let id = cx.ir.result_id(i);
    for u in cx.users(id) {
        if cx.common_debug_opcode(u) == Some(DEBUG_VALUE) {
            dead.push(u);
        }
    }
}

/// `RewriteInstructions`: whether it changed; `None` when ids ran out.
fn rewrite_instructions(cx: &mut Context, mem: &mut MemPass, f: Func, live: &Live) -> Option<bool> {
    let mut modified = false;
    let mut dead_values: Vec<Inst> = Vec::new();
    let mut insts: Vec<Inst> = Vec::new();
    cx.ir.func_insts(f, false, &mut |i| insts.push(i));
    for i in insts {
        if !cx.ir.is_live(i) || !cx.is_combinator(i) {
            continue;
        }
        let id = cx.ir.result_id(i);
        let Some(bits) = live.get(&id) else {
            continue;
        };
        if bits.is_empty() {
            modified = true;
            mark_debug_values_dead(cx, i, &mut dead_values);
            let ty = cx.ir.type_id(i);
            let undef = mem.type2undef(cx, ty);
            if undef == 0 {
                return None;
            }
            cx.kill_names_and_decorates(i);
            cx.replace_all_uses_with(id, undef);
            cx.kill_inst(i);
            continue;
        }
        if cx.ir.opcode(i) == O::CompositeInsert {
            modified |= rewrite_insert(cx, mem, i, bits, &mut dead_values)?;
        }
    }
    for d in dead_values {
        cx.kill_inst(d);
    }
    Some(modified)
}

/// `RewriteInsertInstruction`: `None` when ids ran out.
fn rewrite_insert(
    cx: &mut Context,
    mem: &mut MemPass,
    i: Inst,
    bits: &Bits,
    dead_values: &mut Vec<Inst>,
) -> Option<bool> {
    let id = cx.ir.result_id(i);
    let d = cx.ir.data(i);
    let (object, composite, n, pos) = (
        d.in_word(0),
        d.in_word(1),
        d.num_in_operands(),
        d.in_word(2),
    );
    if n == 2 {
        cx.kill_names_and_decorates_of(id);
        cx.replace_all_uses_with(id, object);
        return Some(true);
    }
    if !bits.get(pos) {
        mark_debug_values_dead(cx, i, dead_values);
        cx.kill_names_and_decorates_of(id);
        cx.replace_all_uses_with(id, composite);
        return Some(true);
    }
    let mut rest = bits.clone();
    rest.clear(pos);
    if rest.is_empty() {
        cx.forget_uses(i);
        let ty = cx.ir.type_id(i);
        let undef = mem.type2undef(cx, ty);
        if undef == 0 {
            return None;
        }
        let trc = cx.ir.data(i).type_result_count();
        cx.ir.data_mut(i).set_operand(trc + 1, &[undef]);
        cx.analyze_uses(i);
        return Some(true);
    }
    Some(false)
}
