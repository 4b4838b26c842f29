//! The instruction-folding rules (spirv-opt's `FoldingRules`,
//! `source/opt/folding_rules.cpp`): per opcode, in spirv-opt's order, rules that
//! rewrite an instruction from its operands' shapes (`x + 0` is `x`, an extract of a
//! construct is the constructed component, a phi of one value is that value, ...).
//! A rule that applies changes the instruction in place and stops the search.

use super::{Rule, element_width, float_folding_allowed, is_zero, type_of_type_id};
use crate::analysis::constants::{Const, ConstRef};
use crate::analysis::types::Ty;
use crate::context::Context;
use crate::ir::{Inst, Operand};
use spirv_core::spv::Opcode as O;

/// The rules for `i`'s opcode, in spirv-opt's order (`GetRulesForInstruction`).
pub fn rules_for(cx: &mut Context, i: Inst) -> &'static [Rule] {
    let _ = cx;
    match cx.ir.opcode(i) {
        O::BitwiseOr | O::BitwiseXor => &[rhs0, lhs0, reassociate_commutative],
        O::BitwiseAnd => &[
            reassociate_commutative,
            redundant_and_or_xor,
            redundant_and_add_sub,
            redundant_and_shift,
        ],
        O::ShiftRightLogical | O::ShiftRightArithmetic | O::ShiftLeftLogical => &[rhs0, lhs0_to_0],
        O::IAdd => &[
            rhs0,
            lhs0,
            merge_add_negate,
            merge_add_add,
            merge_add_sub,
            merge_generic_add_sub,
            factor_add_muls,
        ],
        O::ISub => &[rhs0, merge_sub_negate, merge_sub_add, merge_sub_sub],
        O::SDiv | O::UDiv => &[lhs0_to_0, redundant_su_div],
        O::SMod | O::UMod => &[lhs0_to_0, redundant_su_mod],
        O::CompositeConstruct => &[composite_extract_feeding_construct],
        O::CompositeExtract => &[
            insert_feeding_extract,
            composite_construct_feeding_extract,
            vector_shuffle_feeding_extract,
            fmix_feeding_extract,
        ],
        O::FAdd => &[
            redundant_f_add,
            merge_add_negate,
            merge_add_add,
            merge_add_sub,
            merge_generic_add_sub,
            factor_add_muls,
        ],
        O::FDiv => &[
            redundant_f_div,
            reciprocal_f_div,
            merge_div_div,
            merge_div_mul,
            merge_div_negate,
        ],
        O::FMod => &[redundant_f_mod],
        O::FMul => &[
            redundant_f_mul,
            merge_mul_mul,
            merge_mul_div,
            merge_mul_negate,
        ],
        O::FSub => &[
            redundant_f_sub,
            merge_sub_negate,
            merge_sub_add,
            merge_sub_sub,
        ],
        O::IMul => &[int_multiple_by_1, merge_mul_mul, merge_mul_negate],
        O::FNegate => &[merge_negate, merge_negate_add_sub, merge_negate_mul_div],
        O::SNegate => &[merge_negate, merge_negate_mul_div, merge_negate_add_sub],
        O::CompositeInsert => &[composite_insert_to_construct],
        O::Dot => &[dot_product_doing_extract],
        O::Phi => &[redundant_phi],
        O::Bitcast => &[bitcast],
        O::BitReverse => &[bit_reverse],
        O::Select => &[redundant_select],
        O::Store => &[storing_undef],
        O::VectorShuffle => &[vector_shuffle_feeding_shuffle],
        O::ExtInst if is_glsl_fmix(cx, i) => &[redundant_f_mix],
        op if image_operands_index(cx, op, i).is_some() => &[update_image_operands],
        _ => &[],
    }
}

fn set_copy(cx: &mut Context, i: Inst, id: u32) {
    let d = cx.ir.data_mut(i);
    d.set_opcode(O::CopyObject);
    d.set_in_operands(&[Operand::id(id)]);
}

fn in_word(cx: &Context, i: Inst, k: usize) -> u32 {
    cx.ir.data(i).in_word(k)
}

/// `RedundantBinaryOpWithZeroOperand(arg, fold_to)`: a copy (or a bitcast, where the
/// zero's type is not the result's) of operand `fold_to` when operand `arg` is zero.
fn zero_operand(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>], arg: usize, to: usize) -> bool {
    let Some(c) = cs.get(arg).copied().flatten() else {
        return false;
    };
    if !is_zero(cx, c) {
        return false;
    }
    let operand = in_word(cx, i, to);
    let ct = cx.constants().value(c).ty();
    let type_id = cx.ir.type_id(i);
    let same = cx.types().get(type_id) == Some(ct);
    let d = cx.ir.data_mut(i);
    d.set_opcode(if same { O::CopyObject } else { O::Bitcast });
    d.set_in_operands(&[Operand::id(operand)]);
    true
}

fn rhs0(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> bool {
    zero_operand(cx, i, cs, 1, 0)
}

fn lhs0(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> bool {
    zero_operand(cx, i, cs, 0, 1)
}

fn lhs0_to_0(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> bool {
    zero_operand(cx, i, cs, 0, 0)
}

/// `IsAllInt1`.
fn is_all_int1(cx: &mut Context, c: ConstRef) -> bool {
    let mut stack = vec![c];
    while let Some(c) = stack.pop() {
        match cx.constants().value(c).clone() {
            Const::Composite(_, comps) => stack.extend(comps),
            Const::Scalar(t, w) => {
                let (width, one) = match cx.types().ty(t) {
                    Ty::Int { width, .. } => (*width, true),
                    _ => (0, false),
                };
                let v = if width > 32 && w.len() >= 2 {
                    u64::from(w[0]) | (u64::from(w[1]) << 32)
                } else {
                    i64::from(w.first().copied().unwrap_or(0) as i32) as u64
                };
                if !one || v != 1 {
                    return false;
                }
            }
            _ => return false,
        }
    }
    true
}

/// `RedundantSUDiv`: `x / 1` is `x`.
fn redundant_su_div(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> bool {
    let Some(c) = cs.get(1).copied().flatten() else {
        return false;
    };
    if !is_all_int1(cx, c) {
        return false;
    }
    let operand = in_word(cx, i, 0);
    let ct = cx.constants().value(c).ty();
    let type_id = cx.ir.type_id(i);
    let same = cx.types().get(type_id) == Some(ct);
    let d = cx.ir.data_mut(i);
    d.set_opcode(if same { O::CopyObject } else { O::Bitcast });
    d.set_in_operands(&[Operand::id(operand)]);
    true
}

/// `RedundantSUMod`: `x % 1` is the null of the type.
fn redundant_su_mod(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> bool {
    let Some(c) = cs.get(1).copied().flatten() else {
        return false;
    };
    if !is_all_int1(cx, c) {
        return false;
    }
    let type_id = cx.ir.type_id(i);
    let Some(t) = cx.types().get(type_id) else {
        return false;
    };
    let Some(null) = cx.constant_of(t, &[]) else {
        return false;
    };
    let Some(def) = cx.get_defining_instruction(null, 0) else {
        return false;
    };
    let id = cx.ir.result_id(def);
    set_copy(cx, i, id);
    true
}

/// `ForEachIntegerConstantPair`: the two integer constants' values component by
/// component (a null, or a missing vector, reads as zeros), in the first one's width,
/// which must be 32 or 64.
fn int_pairs(cx: &mut Context, a: ConstRef, b: ConstRef) -> Option<(u32, Vec<(u64, u64)>)> {
    let t = cx.constants().value(a).ty();
    let (elem, count) = match cx.types().ty(t).clone() {
        Ty::Vector { elem, count } => (elem, Some(count)),
        _ => (t, None),
    };
    let width = match cx.types().ty(elem) {
        Ty::Int {
            width: w @ (32 | 64),
            ..
        } => *w,
        _ => return None,
    };
    // `GetU32`/`GetU64`: anything but a scalar reads as 0.
    let get = |cx: &mut Context, c: Option<ConstRef>| -> u64 {
        let Some(c) = c else { return 0 };
        match cx.constants().value(c) {
            Const::Scalar(_, w) => {
                let lo = u64::from(w.first().copied().unwrap_or(0));
                let hi = u64::from(w.get(1).copied().unwrap_or(0));
                if width == 32 { lo } else { lo | (hi << 32) }
            }
            _ => 0,
        }
    };
    let Some(count) = count else {
        let pair = (get(cx, Some(a)), get(cx, Some(b)));
        return Some((width, vec![pair]));
    };
    let comps = |cx: &mut Context, c: ConstRef| match cx.constants().value(c) {
        Const::Composite(_, comps) => Some(comps.clone()),
        _ => None,
    };
    let (ca, cb) = (comps(cx, a), comps(cx, b));
    // The count is the type's claim; a vector constant has that many components.
    if ca.as_ref().is_some_and(|v| v.len() < count as usize) || count > 1 << 16 {
        return None;
    }
    let mut pairs = Vec::with_capacity(count as usize);
    for k in 0..count as usize {
        let x = ca.as_ref().map(|v| v[k]);
        let y = cb.as_ref().and_then(|v| v.get(k).copied());
        if cb.as_ref().is_some_and(|v| v.len() <= k) {
            return None;
        }
        pairs.push((get(cx, x), get(cx, y)));
    }
    Some((width, pairs))
}

/// What the redundant-and rules share: a 32- or 64-bit integer result, a constant
/// operand, and the other operand's definition and its constants.
fn and_inputs(
    cx: &mut Context,
    i: Inst,
    cs: &[Option<ConstRef>],
) -> Option<(ConstRef, Inst, Vec<Option<ConstRef>>)> {
    let type_id = cx.ir.type_id(i);
    let t = cx.types().get(type_id)?;
    if !matches!(element_width(cx, t), 32 | 64) {
        return None;
    }
    let c1 = const_input(cs)?;
    let first_const = cs.first().copied().flatten().is_some();
    let other = non_const_input(cx, first_const, i)?;
    let ocs = super::operand_constants(cx, other);
    Some((c1, other, ocs))
}

/// `and` of `c1` and the other operand `other`'s non-constant input.
fn and_with_inner(
    cx: &mut Context,
    i: Inst,
    c1: ConstRef,
    other: Inst,
    ocs: &[Option<ConstRef>],
) -> bool {
    let Some(x) = non_const_input(cx, ocs.first().copied().flatten().is_some(), other) else {
        return false;
    };
    let Some(c) = super::defining_id(cx, c1) else {
        return false;
    };
    let x = cx.ir.result_id(x);
    cx.ir
        .data_mut(i)
        .set_in_operands(&[Operand::id(x), Operand::id(c)]);
    true
}

/// `RedundantAndOrXor`: `c1 & (x | c2)` is `c1` when `c1`'s bits are all in `c2`;
/// `c1 & (x | c2)` and `c1 & (x ^ c2)` are `x & c1` when they share no bit.
fn redundant_and_or_xor(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> bool {
    let Some((c1, other, ocs)) = and_inputs(cx, i, cs) else {
        return false;
    };
    let op = cx.ir.opcode(other);
    if !matches!(op, O::BitwiseOr | O::BitwiseXor) {
        return false;
    }
    let Some(c2) = const_input(&ocs) else {
        return false;
    };
    let Some((_, pairs)) = int_pairs(cx, c1, c2) else {
        return false;
    };
    let to_const = op == O::BitwiseOr && pairs.iter().all(|&(a, b)| a & b == a);
    if to_const {
        let Some(c) = super::defining_id(cx, c1) else {
            return false;
        };
        set_copy(cx, i, c);
        return true;
    }
    pairs.iter().all(|&(a, b)| a & b == 0) && and_with_inner(cx, i, c1, other, &ocs)
}

/// `RedundantAndAddSub`: `c1 & (x + c2)` and `c1 & (x - c2)` are `x & c1` when `c2`'s
/// lowest set bit is above `c1`.
fn redundant_and_add_sub(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> bool {
    let Some((c1, other, ocs)) = and_inputs(cx, i, cs) else {
        return false;
    };
    let op = cx.ir.opcode(other);
    if !matches!(op, O::IAdd | O::ISub) {
        return false;
    }
    let Some(c2) = const_input(&ocs) else {
        return false;
    };
    if op == O::ISub && ocs.first().copied().flatten().is_some() {
        return false;
    }
    let Some((width, pairs)) = int_pairs(cx, c1, c2) else {
        return false;
    };
    let lsb = |v: u64| {
        let l = v & v.wrapping_neg();
        if width == 32 { l & 0xffff_ffff } else { l }
    };
    pairs.iter().all(|&(a, b)| lsb(b) > a) && and_with_inner(cx, i, c1, other, &ocs)
}

/// `RedundantAndShift`: `c1 & (x << c2)` and `c1 & (x >> c2)` are 0 when `c1` shifted
/// the other way by `c2` is 0 (the shift count taken modulo the width, as the x86
/// shift spirv-opt's build runs does).
fn redundant_and_shift(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> bool {
    let Some((c1, other, ocs)) = and_inputs(cx, i, cs) else {
        return false;
    };
    let op = cx.ir.opcode(other);
    if !matches!(op, O::ShiftLeftLogical | O::ShiftRightLogical) {
        return false;
    }
    if ocs.first().copied().flatten().is_some() {
        return false;
    }
    let Some(c2) = ocs.get(1).copied().flatten() else {
        return false;
    };
    let Some((width, pairs)) = int_pairs(cx, c1, c2) else {
        return false;
    };
    let zero = pairs.iter().all(|&(a, b)| {
        if width == 32 {
            let (a, b) = (a as u32, b as u32);
            let r = if op == O::ShiftRightLogical {
                a.wrapping_shl(b)
            } else {
                a.wrapping_shr(b)
            };
            r == 0
        } else {
            let b = b as u32;
            let r = if op == O::ShiftRightLogical {
                a.wrapping_shl(b)
            } else {
                a.wrapping_shr(b)
            };
            r == 0
        }
    });
    if !zero {
        return false;
    }
    let type_id = cx.ir.type_id(i);
    let Some(t) = cx.types().get(type_id) else {
        return false;
    };
    let Some(null) = cx.constant_of(t, &[]) else {
        return false;
    };
    let Some(def) = cx.get_defining_instruction(null, 0) else {
        return false;
    };
    let id = cx.ir.result_id(def);
    set_copy(cx, i, id);
    true
}

/// `ImageOperandsMaskInOperandIndex`: the in-operand index of an image instruction's
/// operands mask, when it has one.
fn image_operands_index(cx: &Context, op: O, i: Inst) -> Option<usize> {
    let n = cx.ir.data(i).num_operands();
    let (index, more_than) = match op {
        O::ImageSampleImplicitLod
        | O::ImageSampleExplicitLod
        | O::ImageSampleProjImplicitLod
        | O::ImageSampleProjExplicitLod
        | O::ImageFetch
        | O::ImageRead
        | O::ImageSparseSampleImplicitLod
        | O::ImageSparseSampleExplicitLod
        | O::ImageSparseSampleProjImplicitLod
        | O::ImageSparseSampleProjExplicitLod
        | O::ImageSparseFetch
        | O::ImageSparseRead => (2, 4),
        O::ImageSampleDrefImplicitLod
        | O::ImageSampleDrefExplicitLod
        | O::ImageSampleProjDrefImplicitLod
        | O::ImageSampleProjDrefExplicitLod
        | O::ImageGather
        | O::ImageDrefGather
        | O::ImageSparseSampleDrefImplicitLod
        | O::ImageSparseSampleDrefExplicitLod
        | O::ImageSparseSampleProjDrefImplicitLod
        | O::ImageSparseSampleProjDrefExplicitLod
        | O::ImageSparseGather
        | O::ImageSparseDrefGather => (3, 5),
        O::ImageWrite => (3, 3),
        _ => return None,
    };
    (n > more_than).then_some(index)
}

/// `UpdateImageOperands`: a constant `Offset` becomes a `ConstOffset`, or is dropped
/// when zero. As spirv-opt, the offset's in-operand index is checked against the
/// count of all operands.
fn update_image_operands(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> bool {
    const BIAS: u32 = 0x1;
    const LOD: u32 = 0x2;
    const GRAD: u32 = 0x4;
    const CONST_OFFSET: u32 = 0x8;
    const OFFSET: u32 = 0x10;
    let op = cx.ir.opcode(i);
    let Some(index) = image_operands_index(cx, op, i) else {
        return false;
    };
    let mut mask = in_word(cx, i, index);
    if mask & OFFSET == 0 {
        return false;
    }
    let mut at = index + 1;
    at += usize::from(mask & BIAS != 0) + usize::from(mask & LOD != 0);
    at += 2 * usize::from(mask & GRAD != 0);
    if at >= cx.ir.data(i).num_operands() {
        return false;
    }
    let Some(c) = cs.get(at).copied().flatten() else {
        return false;
    };
    if is_zero(cx, c) {
        cx.ir.data_mut(i).remove_in_operand(at);
    } else {
        mask |= CONST_OFFSET;
    }
    mask &= !OFFSET;
    cx.ir.data_mut(i).set_in_operand(index, &[mask]);
    true
}

/// `IntMultipleBy1`.
fn int_multiple_by_1(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> bool {
    for k in 0..2 {
        let Some(c) = cs.get(k).copied().flatten() else {
            continue;
        };
        let Const::Scalar(t, w) = cx.constants().value(c).clone() else {
            continue;
        };
        if !matches!(cx.types().ty(t), Ty::Int { .. }) {
            continue;
        }
        let width = element_width(cx, t);
        if width != 32 && width != 64 {
            return false;
        }
        let one = if width == 32 {
            w.first() == Some(&1)
        } else {
            w.len() >= 2 && w[0] == 1 && w[1] == 0
        };
        if one {
            let other = in_word(cx, i, 1 - k);
            set_copy(cx, i, other);
            return true;
        }
    }
    false
}

/// `RedundantPhi`: every incoming value (but the phi itself) is one value.
fn redundant_phi(cx: &mut Context, i: Inst, _: &[Option<ConstRef>]) -> bool {
    let d = cx.ir.data(i);
    let result = d.result_id();
    let mut incoming = 0;
    let mut k = 0;
    while k < d.num_in_operands() {
        let op = d.in_word(k);
        k += 2;
        if op == result {
            continue;
        }
        if incoming == 0 {
            incoming = op;
        } else if op != incoming {
            return false;
        }
    }
    if incoming == 0 {
        return false;
    }
    set_copy(cx, i, incoming);
    true
}

/// `RedundantSelect`: equal branches, or a constant condition (a vector condition
/// becomes a shuffle).
fn redundant_select(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> bool {
    if cx.ir.data(i).num_in_operands() != 3 {
        return false;
    }
    let (t, f) = (in_word(cx, i, 1), in_word(cx, i, 2));
    if t == f {
        set_copy(cx, i, t);
        return true;
    }
    let Some(c) = cs.first().copied().flatten() else {
        return false;
    };
    let v = cx.constants().value(c).clone();
    let is_bool = matches!(cx.types().ty(v.ty()), Ty::Bool);
    if is_bool {
        let pick = match v {
            Const::Bool(_, true) => t,
            _ => f,
        };
        set_copy(cx, i, pick);
        return true;
    }
    match v {
        Const::Null(_) => {
            set_copy(cx, i, f);
            true
        }
        Const::Composite(_, comps) => {
            let size = comps.len() as u32;
            let mut ops = vec![Operand::id(t), Operand::id(f)];
            for (k, comp) in comps.iter().enumerate() {
                let on = matches!(cx.constants().value(*comp), Const::Bool(_, true));
                ops.push(Operand::literal(if on {
                    k as u32
                } else {
                    k as u32 + size
                }));
            }
            let d = cx.ir.data_mut(i);
            d.set_opcode(O::VectorShuffle);
            d.set_in_operands(&ops);
            true
        }
        _ => false,
    }
}

/// `FloatConstantKind`.
#[derive(PartialEq, Eq, Clone, Copy)]
enum FKind {
    Unknown,
    Zero,
    One,
}

/// `getFloatConstantKind`.
fn float_kind(cx: &mut Context, c: Option<ConstRef>) -> FKind {
    let Some(c) = c else {
        return FKind::Unknown;
    };
    match cx.constants().value(c).clone() {
        Const::Null(_) => FKind::Zero,
        Const::Composite(t, comps) => {
            if !matches!(cx.types().ty(t), Ty::Vector { .. }) || comps.is_empty() {
                return FKind::Unknown;
            }
            let first = float_kind(cx, Some(comps[0]));
            for &comp in &comps[1..] {
                if float_kind(cx, Some(comp)) != first {
                    return FKind::Unknown;
                }
            }
            first
        }
        Const::Scalar(t, w) => {
            let Ty::Float { width, .. } = *cx.types().ty(t) else {
                return FKind::Unknown;
            };
            if w.iter().all(|&x| x == 0) {
                return FKind::Zero;
            }
            let v = match width {
                32 => f64::from(f32::from_bits(w[0])),
                64 if w.len() >= 2 => f64::from_bits(u64::from(w[0]) | (u64::from(w[1]) << 32)),
                _ => return FKind::Unknown,
            };
            if v == 0.0 {
                FKind::Zero
            } else if v == 1.0 {
                FKind::One
            } else {
                FKind::Unknown
            }
        }
        Const::Bool(..) => FKind::Unknown,
    }
}

fn kinds(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> Option<(FKind, FKind)> {
    if cs.len() != 2 || !float_folding_allowed(cx, i) {
        return None;
    }
    Some((float_kind(cx, cs[0]), float_kind(cx, cs[1])))
}

/// `RedundantFAdd`: `x + 0` and `0 + x`.
fn redundant_f_add(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> bool {
    let Some((k0, k1)) = kinds(cx, i, cs) else {
        return false;
    };
    if k0 == FKind::Zero || k1 == FKind::Zero {
        let keep = in_word(cx, i, if k0 == FKind::Zero { 1 } else { 0 });
        set_copy(cx, i, keep);
        return true;
    }
    false
}

/// `RedundantFSub`: `0 - x` is a negation, `x - 0` is `x`.
fn redundant_f_sub(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> bool {
    let Some((k0, k1)) = kinds(cx, i, cs) else {
        return false;
    };
    if k0 == FKind::Zero {
        let x = in_word(cx, i, 1);
        let d = cx.ir.data_mut(i);
        d.set_opcode(O::FNegate);
        d.set_in_operands(&[Operand::id(x)]);
        return true;
    }
    if k1 == FKind::Zero {
        let x = in_word(cx, i, 0);
        set_copy(cx, i, x);
        return true;
    }
    false
}

/// `RedundantFMul`: times zero is the zero, times one the other operand.
fn redundant_f_mul(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> bool {
    let Some((k0, k1)) = kinds(cx, i, cs) else {
        return false;
    };
    if k0 == FKind::Zero || k1 == FKind::Zero {
        let keep = in_word(cx, i, if k0 == FKind::Zero { 0 } else { 1 });
        set_copy(cx, i, keep);
        return true;
    }
    if k0 == FKind::One || k1 == FKind::One {
        let keep = in_word(cx, i, if k0 == FKind::One { 1 } else { 0 });
        set_copy(cx, i, keep);
        return true;
    }
    false
}

/// `RedundantFDiv`: `0 / x` and `x / 1` are the first operand.
fn redundant_f_div(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> bool {
    let Some((k0, k1)) = kinds(cx, i, cs) else {
        return false;
    };
    if k0 == FKind::Zero || k1 == FKind::One {
        let keep = in_word(cx, i, 0);
        set_copy(cx, i, keep);
        return true;
    }
    false
}

/// `RedundantFMod`: `0 % x` is the first operand.
fn redundant_f_mod(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> bool {
    if !float_folding_allowed(cx, i) || float_kind(cx, cs.first().copied().flatten()) != FKind::Zero
    {
        return false;
    }
    let keep = in_word(cx, i, 0);
    set_copy(cx, i, keep);
    true
}

/// `DotProductDoingExtract`: a dot product with a constant vector of zeros and a single
/// one (of 32- or 64-bit floats) is the other operand's component at the one.
fn dot_product_doing_extract(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> bool {
    if cs.len() != 2 || !float_folding_allowed(cx, i) {
        return false;
    }
    for (k, c) in cs.iter().enumerate() {
        let Some(c) = *c else {
            continue;
        };
        let t = cx.constants().value(c).ty();
        if !matches!(cx.types().ty(t), Ty::Vector { .. }) {
            return false;
        }
        let width = element_width(cx, t);
        if width != 32 && width != 64 {
            return false;
        }
        let Some(comps) = super::vector_components(cx, c) else {
            return false;
        };
        let mut one = None;
        let mut others_zero = true;
        for (j, &e) in comps.iter().enumerate() {
            let value = match cx.constants().value(e) {
                Const::Scalar(_, w) => match (width, w.as_slice()) {
                    (32, [lo, ..]) => f64::from(f32::from_bits(*lo)),
                    (64, [lo, hi, ..]) => f64::from_bits(u64::from(*lo) | (u64::from(*hi) << 32)),
                    _ => f64::NAN,
                },
                Const::Null(_) => 0.0,
                _ => f64::NAN,
            };
            if value == 0.0 {
                continue;
            }
            if value == 1.0 && one.is_none() {
                one = Some(j);
                continue;
            }
            // A second one leaves no single component; anything else is no extract.
            others_zero = value == 1.0;
            one = None;
            break;
        }
        let (Some(j), true) = (one, others_zero) else {
            continue;
        };
        let other = in_word(cx, i, 1 - k);
        let d = cx.ir.data_mut(i);
        d.set_opcode(O::CompositeExtract);
        d.set_in_operands(&[Operand::id(other), Operand::literal(j as u32)]);
        return true;
    }
    false
}

/// Whether `i` is GLSL.std.450's `FMix` of the module's first import of that set (the
/// one spirv-opt keys its extended-instruction rules by).
fn is_glsl_fmix(cx: &mut Context, i: Inst) -> bool {
    const FMIX: u32 = 46;
    let d = cx.ir.data(i);
    if d.num_in_operands() < 2 || d.in_word(1) != FMIX {
        return false;
    }
    let set = d.in_word(0);
    let glsl = cx.ir.ext_inst_import_id("GLSL.std.450");
    glsl != 0 && set == glsl
}

/// `RedundantFMix`: `mix(x, y, 0)` is `x`, `mix(x, y, 1)` is `y` (each component of a
/// vector the same).
fn redundant_f_mix(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> bool {
    if cs.len() != 5 || !float_folding_allowed(cx, i) {
        return false;
    }
    let keep = match float_kind(cx, cs[4]) {
        FKind::Zero => in_word(cx, i, 2),
        FKind::One => in_word(cx, i, 3),
        FKind::Unknown => return false,
    };
    set_copy(cx, i, keep);
    true
}

/// `StoringUndef`: a non-volatile store of an `OpUndef` is dropped.
fn storing_undef(cx: &mut Context, i: Inst, _: &[Option<ConstRef>]) -> bool {
    const VOLATILE: u32 = 1;
    let d = cx.ir.data(i);
    if d.num_in_operands() < 2 {
        return false;
    }
    if d.num_in_operands() == 3 && d.in_word(2) & VOLATILE != 0 {
        return false;
    }
    let object = d.in_word(1);
    let Some(def) = cx.get_def(object) else {
        return false;
    };
    if cx.ir.opcode(def) != O::Undef {
        return false;
    }
    cx.ir.data_mut(i).to_nop();
    true
}

/// `GetElementType`: the type reached by the literal indices, or 0.
fn element_type(cx: &mut Context, mut type_id: u32, indices: &[u32]) -> u32 {
    for &index in indices {
        let Some(t) = cx.get_def(type_id) else {
            return 0;
        };
        let d = cx.ir.data(t);
        type_id = match d.opcode() {
            O::TypeArray | O::TypeMatrix => d.in_word(0),
            O::TypeStruct if (index as usize) < d.num_in_operands() => d.in_word(index as usize),
            _ => return 0,
        };
    }
    type_id
}

/// `CompositeExtractFeedingConstruct`: a construct of extracts of consecutive
/// elements of one composite is that composite (or an extract of its parent).
fn composite_extract_feeding_construct(cx: &mut Context, i: Inst, _: &[Option<ConstRef>]) -> bool {
    let n = cx.ir.data(i).num_in_operands();
    if n == 0 {
        return false;
    }
    let mut original = 0;
    let mut first: Option<Vec<u32>> = None;
    for k in 0..n {
        let Some(e) = cx.get_def(in_word(cx, i, k)) else {
            return false;
        };
        if cx.ir.opcode(e) != O::CompositeExtract {
            return false;
        }
        let d = cx.ir.data(e);
        let ins: Vec<u32> = (0..d.num_in_operands()).map(|j| d.in_word(j)).collect();
        let f = first.get_or_insert_with(|| ins.clone());
        // HaveSameIndexesExceptForLast.
        if f.len() != ins.len() || f[1..f.len() - 1] != ins[1..ins.len() - 1] {
            return false;
        }
        if *ins.last().expect("operands") != k as u32 {
            return false;
        }
        if k == 0 {
            original = ins[0];
        } else if original != ins[0] {
            return false;
        }
    }
    let first = first.expect("one element");
    let Some(orig) = cx.get_def(original) else {
        return false;
    };
    let orig_type = cx.ir.type_id(orig);
    let t = element_type(cx, orig_type, &first[1..first.len() - 1]);
    if cx.ir.type_id(i) != t {
        return false;
    }
    if first.len() == 2 {
        set_copy(cx, i, original);
        return true;
    }
    let mut ops = vec![Operand::id(original)];
    ops.extend(
        first[1..first.len() - 1]
            .iter()
            .map(|&w| Operand::literal(w)),
    );
    let d = cx.ir.data_mut(i);
    d.set_opcode(O::CompositeExtract);
    d.set_in_operands(&ops);
    true
}

/// `InsertFeedingExtract`: an extract of what an insert wrote is the inserted
/// object (or an extract of it); of another element, an extract of the composite
/// the insert started from.
fn insert_feeding_extract(cx: &mut Context, i: Inst, _: &[Option<ConstRef>]) -> bool {
    let Some(c) = cx.get_def(in_word(cx, i, 0)) else {
        return false;
    };
    if cx.ir.opcode(c) != O::CompositeInsert {
        return false;
    }
    let ni = cx.ir.data(i).num_in_operands();
    let nc = cx.ir.data(c).num_in_operands();
    let mut k = 1;
    while k < ni {
        if k + 1 >= nc || in_word(cx, i, k) != in_word(cx, c, k + 1) {
            break;
        }
        k += 1;
    }
    if k == ni && k + 1 == nc {
        let object = in_word(cx, c, 0);
        set_copy(cx, i, object);
        return true;
    }
    if k == ni {
        return false;
    }
    if k + 1 == nc {
        let mut ops = vec![Operand::id(in_word(cx, c, 0))];
        ops.extend((k..ni).map(|j| Operand::literal(in_word(cx, i, j))));
        cx.ir.data_mut(i).set_in_operands(&ops);
        return true;
    }
    let mut ops = vec![Operand::id(in_word(cx, c, 1))];
    ops.extend((1..ni).map(|j| Operand::literal(in_word(cx, i, j))));
    cx.ir.data_mut(i).set_in_operands(&ops);
    true
}

/// `GetNumOfElementsContributedByOperand`.
fn contributed(cx: &mut Context, construct: Inst, vector_result: bool, k: usize) -> u32 {
    if !vector_result {
        return 1;
    }
    let Some(def) = cx.get_def(in_word(cx, construct, k)) else {
        return 1;
    };
    let t = cx.ir.type_id(def);
    match type_of_type_id(cx, t) {
        Some(Ty::Vector { count, .. }) => count,
        _ => 1,
    }
}

/// `CompositeConstructFeedingExtract`: an extract of a constructed element is the
/// operand that made it (or an extract of that operand).
fn composite_construct_feeding_extract(cx: &mut Context, i: Inst, _: &[Option<ConstRef>]) -> bool {
    let ni = cx.ir.data(i).num_in_operands();
    if ni <= 1 {
        return false;
    }
    let Some(c) = cx.get_def(in_word(cx, i, 0)) else {
        return false;
    };
    if cx.ir.opcode(c) != O::CompositeConstruct {
        return false;
    }
    let index = in_word(cx, i, 1);
    let ct = cx.ir.type_id(c);
    let vector_result = matches!(type_of_type_id(cx, ct), Some(Ty::Vector { .. }));
    let nc = cx.ir.data(c).num_in_operands();
    let mut ops: Vec<Operand> = Vec::new();
    if !vector_result {
        if (index as usize) < nc {
            ops.push(Operand::id(in_word(cx, c, index as usize)));
        }
    } else {
        let mut total = 0u32;
        for k in 0..nc {
            let count = contributed(cx, c, true, k);
            total = total.saturating_add(count);
            if index < total {
                let id = in_word(cx, c, k);
                ops.push(Operand::id(id));
                let Some(def) = cx.get_def(id) else {
                    return false;
                };
                let t = cx.ir.type_id(def);
                if matches!(type_of_type_id(cx, t), Some(Ty::Vector { .. })) {
                    ops.push(Operand::literal(index - (total - count)));
                }
                break;
            }
        }
    }
    if ops.is_empty() {
        return false;
    }
    ops.extend((2..ni).map(|j| Operand::literal(in_word(cx, i, j))));
    let d = cx.ir.data_mut(i);
    if ops.len() == 1 {
        d.set_opcode(O::CopyObject);
    }
    d.set_in_operands(&ops);
    true
}

/// `VectorShuffleFeedingExtract`: an extract of a shuffled component is an extract
/// of the shuffle's input (an `OpUndef` for an undefined component).
fn vector_shuffle_feeding_extract(cx: &mut Context, i: Inst, _: &[Option<ConstRef>]) -> bool {
    if cx.ir.data(i).num_in_operands() < 2 {
        return false;
    }
    let Some(c) = cx.get_def(in_word(cx, i, 0)) else {
        return false;
    };
    if cx.ir.opcode(c) != O::VectorShuffle {
        return false;
    }
    let Some(first) = cx.get_def(in_word(cx, c, 0)) else {
        return false;
    };
    let ft = cx.ir.type_id(first);
    let Some(Ty::Vector {
        count: first_size, ..
    }) = type_of_type_id(cx, ft)
    else {
        return false;
    };
    let k = 2 + in_word(cx, i, 1) as usize;
    if k >= cx.ir.data(c).num_in_operands() {
        return false;
    }
    let mut index = in_word(cx, c, k);
    if index == u32::MAX {
        let d = cx.ir.data_mut(i);
        d.set_opcode(O::Undef);
        d.set_in_operands(&[]);
        return true;
    }
    let vector = if index < first_size {
        in_word(cx, c, 0)
    } else {
        index -= first_size;
        in_word(cx, c, 1)
    };
    let d = cx.ir.data_mut(i);
    d.set_in_operand(0, &[vector]);
    d.set_in_operand(1, &[index]);
    true
}

/// How many copies of an extract [`fmix_feeding_extract`] may still fold, within one
/// outermost use: the copy's fold can reach the rule again (an `a` that is itself an
/// `FMix`), which spirv-opt follows without bound; a crafted chain would make the work
/// grow with its length at every level.
const FMIX_COPY_FOLDS: u32 = 64;

thread_local! {
    /// The copies [`fmix_feeding_extract`] is folding now (depth), the folds left, and
    /// the `DebugLine`s of the outermost extract (which each copy of it has too).
    static FMIX_FOLDS: std::cell::Cell<(u32, u32, usize)> =
        const { std::cell::Cell::new((0, 0, 0)) };
}

/// `FMixFeedingExtract`: an extract of a GLSL.std.450 `FMix` whose `a` at that element
/// is 0 or 1 extracts from `x` or `y` instead. As spirv-opt does, `a`'s element is
/// found by folding a copy of the extract that reads `a` (which may declare the
/// constant it folds to; spirv-opt's copy takes an id for each `DebugLine` it
/// carries), and half floats are left alone only after that.
fn fmix_feeding_extract(cx: &mut Context, i: Inst, _: &[Option<ConstRef>]) -> bool {
    const FMIX: u32 = 46;
    if cx.ir.data(i).num_in_operands() < 1 {
        return false;
    }
    let Some(mix) = cx.get_def(in_word(cx, i, 0)) else {
        return false;
    };
    if cx.ir.opcode(mix) != O::ExtInst || cx.ir.data(mix).num_in_operands() < 5 {
        return false;
    }
    let glsl = cx.ir.ext_inst_import_id("GLSL.std.450");
    if in_word(cx, mix, 0) != glsl || in_word(cx, mix, 1) != FMIX {
        return false;
    }
    let a = in_word(cx, mix, 4);
    let (depth, left, debug_lines) = FMIX_FOLDS.get();
    let (left, debug_lines) = if depth == 0 {
        let lines = cx.ir.lines(i);
        let n = lines
            .iter()
            .filter(|&&l| cx.ir.is_debug_line_inst(l))
            .count();
        (FMIX_COPY_FOLDS, n)
    } else {
        (left, debug_lines)
    };
    if left == 0 {
        return false;
    }
    // spirv-opt's copy carries the extract's debug lines, each `DebugLine` with a fresh
    // id; only those ids show, so they are taken and the lines are not copied (a long
    // run of lines copied at every fold would grow the work and the arena with it).
    for _ in 0..debug_lines {
        if cx.take_next_id().is_none() {
            return false;
        }
    }
    let data = cx.ir.data(i).clone();
    let copy = cx.ir.create(data);
    cx.ir.data_mut(copy).set_in_operand(0, &[a]);
    FMIX_FOLDS.set((depth + 1, left - 1, debug_lines));
    super::fold_instruction(cx, copy);
    FMIX_FOLDS.set((depth, FMIX_FOLDS.get().1, debug_lines));
    let folded = (cx.ir.opcode(copy) == O::CopyObject).then(|| in_word(cx, copy, 0));
    cx.ir.mark_dead(copy);
    let Some(c) = folded.and_then(|id| cx.constants().find_declared(id)) else {
        return false;
    };
    let type_id = cx.ir.type_id(i);
    let width = match cx.types().get(type_id) {
        Some(t) => element_width(cx, t),
        None => 0,
    };
    if width != 32 && width != 64 {
        return false;
    }
    let v = super::const_rules::as_double(cx, c);
    let from = if v == 0.0 {
        in_word(cx, mix, 2)
    } else if v == 1.0 {
        in_word(cx, mix, 3)
    } else {
        return false;
    };
    cx.ir.data_mut(i).set_in_operand(0, &[from]);
    true
}

/// The component count of the vector type of `id`'s definition.
fn vector_length_of(cx: &mut Context, id: u32) -> Option<(Inst, u32)> {
    let def = cx.get_def(id)?;
    let type_id = cx.ir.type_id(def);
    let t = cx.types().get(type_id)?;
    match cx.types().ty(t) {
        Ty::Vector { count, .. } => Some((def, *count)),
        _ => None,
    }
}

/// `VectorShuffleFeedingShuffle`: a shuffle whose operand is another shuffle takes its
/// components from that shuffle's operands directly, when they all come from one of
/// them (the operand no longer read becomes a null constant when none does).
fn vector_shuffle_feeding_shuffle(cx: &mut Context, i: Inst, _: &[Option<ConstRef>]) -> bool {
    const UNDEF: u32 = 0xffff_ffff;
    let (op0, op1) = (in_word(cx, i, 0), in_word(cx, i, 1));
    let Some((first, op0_length)) = vector_length_of(cx, op0) else {
        return false;
    };
    let (feeder, feeder_is_op0) = if cx.ir.opcode(first) == O::VectorShuffle {
        (first, true)
    } else {
        match cx.get_def(op1) {
            Some(d) if cx.ir.opcode(d) == O::VectorShuffle => (d, false),
            _ => return false,
        }
    };
    let (feeder_a, feeder_b) = (in_word(cx, feeder, 0), in_word(cx, feeder, 1));
    let Some((_, feeder_op0_length)) = vector_length_of(cx, feeder_a) else {
        return false;
    };
    let feeder_indices = cx.ir.data(feeder).num_in_operands().saturating_sub(2);
    let count = cx.ir.data(i).num_in_operands();
    let mut new_feeder = 0;
    let mut indices = Vec::with_capacity(count.saturating_sub(2));
    for k in 2..count {
        let mut index = in_word(cx, i, k);
        if index != UNDEF && feeder_is_op0 == (index < op0_length) {
            if index >= op0_length {
                index -= op0_length;
            }
            if index as usize >= feeder_indices {
                return false;
            }
            index = in_word(cx, feeder, index as usize + 2);
            if index < feeder_op0_length {
                if new_feeder == 0 {
                    new_feeder = feeder_a;
                } else if new_feeder != feeder_a {
                    return false;
                }
            } else if index != UNDEF {
                if new_feeder == 0 {
                    new_feeder = feeder_b;
                } else if new_feeder != feeder_b {
                    return false;
                }
                index -= feeder_op0_length;
            }
            if !feeder_is_op0 && index != UNDEF {
                index = index.wrapping_add(op0_length);
            }
        }
        indices.push(index);
    }
    if new_feeder == 0 {
        let type_id = cx.ir.type_id(feeder);
        let Some(t) = cx.types().get(type_id) else {
            return false;
        };
        let Some(null) = cx.constant_of(t, &[]) else {
            return false;
        };
        let Some(id) = super::defining_id(cx, null) else {
            return false;
        };
        new_feeder = id;
    }
    let (a, b) = if feeder_is_op0 {
        // The first operand's length may change: indices into the second move with it.
        let Some((_, new_op0_size)) = vector_length_of(cx, new_feeder) else {
            return false;
        };
        let adjustment = op0_length.wrapping_sub(new_op0_size);
        if adjustment != 0 {
            for (k, index) in indices.iter_mut().enumerate() {
                let old = in_word(cx, i, k + 2);
                if old >= op0_length && old != UNDEF {
                    *index = index.wrapping_sub(adjustment);
                }
            }
        }
        (new_feeder, op1)
    } else {
        (op0, new_feeder)
    };
    let mut operands = vec![Operand::id(a), Operand::id(b)];
    operands.extend(indices.into_iter().map(Operand::literal));
    cx.ir.data_mut(i).set_in_operands(&operands);
    true
}

/// `Reciprocal`: the id of 1/c, or none when c is zero or 1/c is not a normal number.
fn reciprocal(cx: &mut Context, c: ConstRef) -> Option<u32> {
    if is_zero(cx, c) {
        return None;
    }
    let Const::Scalar(t, w) = cx.constants().value(c).clone() else {
        return None;
    };
    let words = match element_width(cx, t) {
        64 if w.len() >= 2 => {
            let r = 1.0 / f64::from_bits(u64::from(w[0]) | (u64::from(w[1]) << 32));
            if !(r.is_normal() || r == 0.0) {
                return None;
            }
            let b = r.to_bits();
            vec![b as u32, (b >> 32) as u32]
        }
        32 => {
            let r = 1.0f32 / f32::from_bits(w[0]);
            if !(r.is_normal() || r == 0.0) {
                return None;
            }
            vec![r.to_bits()]
        }
        _ => return None,
    };
    let r = cx.constant_of(t, &words)?;
    super::defining_id(cx, r)
}

/// `ReciprocalFDiv`: division by a constant is multiplication by its reciprocal.
fn reciprocal_f_div(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> bool {
    let type_id = cx.ir.type_id(i);
    let Some(t) = cx.types().get(type_id) else {
        return false;
    };
    if matches!(cx.types().ty(t), Ty::Other { .. }) || !float_folding_allowed(cx, i) {
        return false;
    }
    let width = element_width(cx, t);
    if width != 32 && width != 64 {
        return false;
    }
    let Some(c) = cs.get(1).copied().flatten() else {
        return false;
    };
    let id = match cx.constants().value(c).clone() {
        Const::Composite(ct, comps) if matches!(cx.types().ty(ct), Ty::Vector { .. }) => {
            let mut ids = Vec::with_capacity(comps.len());
            for comp in comps {
                let Some(id) = reciprocal(cx, comp) else {
                    return false;
                };
                ids.push(id);
            }
            let Some(v) = cx.constant_of(ct, &ids) else {
                return false;
            };
            let Some(id) = super::defining_id(cx, v) else {
                return false;
            };
            id
        }
        Const::Scalar(ct, _) if matches!(cx.types().ty(ct), Ty::Float { .. }) => {
            let Some(id) = reciprocal(cx, c) else {
                return false;
            };
            id
        }
        _ => return false,
    };
    let x = in_word(cx, i, 0);
    let d = cx.ir.data_mut(i);
    d.set_opcode(O::FMul);
    d.set_in_operands(&[Operand::id(x), Operand::id(id)]);
    true
}

/// `GetWordsFromNumericScalarOrVectorConstant`: a number's words, a vector's packed
/// as its bits lie (8- and 16-bit components share words); empty for anything else.
fn numeric_words(cx: &mut Context, c: ConstRef) -> Vec<u32> {
    let v = cx.constants().value(c).clone();
    let t = v.ty();
    let ty = cx.types().ty(t).clone();
    match (v, ty) {
        (Const::Scalar(_, w), Ty::Float { width, .. } | Ty::Int { width, .. }) => {
            if width == 64 && w.len() >= 2 {
                vec![w[0], w[1]]
            } else {
                vec![w.first().copied().unwrap_or(0)]
            }
        }
        (Const::Composite(_, comps), Ty::Vector { .. }) => {
            let mut words = Vec::new();
            for comp in comps {
                words.extend(numeric_words(cx, comp));
            }
            match element_width(cx, t) {
                w if w >= 32 => words,
                8 => {
                    let mut packed = 0u32;
                    for &w in words.iter().rev() {
                        packed = (packed << 8) | (w & 0xff);
                    }
                    vec![packed]
                }
                16 => words
                    .chunks(2)
                    .map(|p| (p.get(1).copied().unwrap_or(0) << 16) | (p[0] & 0xffff))
                    .collect(),
                _ => Vec::new(),
            }
        }
        (Const::Null(_), ty) => {
            let mut n = match ty {
                Ty::Vector { count, .. } => count,
                _ => 1,
            };
            let w = element_width(cx, t);
            if w < 32 {
                n = n.div_ceil(2);
            } else if w == 64 {
                n = n.saturating_mul(2);
            }
            // A claimed count: valid vectors have at most 16 components.
            vec![0; n.min(1 << 16) as usize]
        }
        _ => Vec::new(),
    }
}

/// `ConvertWordsToNumericScalarOrVectorConstant`.
fn words_to_constant(
    cx: &mut Context,
    words: &[u32],
    t: crate::analysis::types::TypeRef,
) -> Option<ConstRef> {
    match cx.types().ty(t).clone() {
        Ty::Int { width, signed } if width <= 32 => {
            let v = u64::from(*words.first()?);
            let shift = 64 - width.max(1);
            let v = if signed {
                ((v << shift) as i64 >> shift) as u64
            } else {
                (v << shift) >> shift
            };
            cx.constant_of(t, &[v as u32])
        }
        Ty::Int { .. } | Ty::Float { .. } => cx.constant_of(t, words),
        Ty::Vector { elem, count } => super::numeric_vector_constant(cx, t, elem, count, words),
        _ => None,
    }
}

/// `HasFloatingPoint`.
fn has_float(cx: &mut Context, t: crate::analysis::types::TypeRef) -> bool {
    let t = match cx.types().ty(t) {
        Ty::Vector { elem, .. } => *elem,
        _ => t,
    };
    matches!(cx.types().ty(t), Ty::Float { .. })
}

/// A copy of the constant `c` made with `i`'s type.
fn copy_of_constant(cx: &mut Context, i: Inst, c: ConstRef) -> bool {
    let type_id = cx.ir.type_id(i);
    let Some(def) = cx.get_defining_instruction(c, type_id) else {
        return false;
    };
    let id = cx.ir.result_id(def);
    set_copy(cx, i, id);
    true
}

/// `BitCastScalarOrVector`: a bitcast of a constant is the constant of the same bits.
fn bitcast(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> bool {
    let Some(c) = cs.first().copied().flatten() else {
        return false;
    };
    let type_id = cx.ir.type_id(i);
    let Some(t) = cx.types().get(type_id) else {
        return false;
    };
    if has_float(cx, t) && !float_folding_allowed(cx, i) {
        return false;
    }
    let words = numeric_words(cx, c);
    if words.is_empty() {
        return false;
    }
    let Some(r) = words_to_constant(cx, &words, t) else {
        return false;
    };
    copy_of_constant(cx, i, r)
}

/// `BitReverseScalarOrVector`.
fn bit_reverse(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> bool {
    let Some(c) = cs.first().copied().flatten() else {
        return false;
    };
    let type_id = cx.ir.type_id(i);
    let Some(t) = cx.types().get(type_id) else {
        return false;
    };
    let mut words = numeric_words(cx, c);
    if words.is_empty() {
        return false;
    }
    for w in &mut words {
        *w = w.reverse_bits();
    }
    let Some(r) = words_to_constant(cx, &words, t) else {
        return false;
    };
    copy_of_constant(cx, i, r)
}

// ---- arithmetic merges ----

/// `ConstInput`: the first constant operand.
fn const_input(cs: &[Option<ConstRef>]) -> Option<ConstRef> {
    cs.first()
        .copied()
        .flatten()
        .or(cs.get(1).copied().flatten())
}

/// The constant operand of `other`, the instruction a merge rule looks through, and
/// whether its first operand is the variable one (the constant is the second).
fn inner_constant(cx: &mut Context, other: Inst) -> Option<(ConstRef, bool)> {
    let ocs = super::operand_constants(cx, other);
    let c = const_input(&ocs)?;
    Some((c, ocs.first().copied().flatten().is_none()))
}

/// `NonConstInput`: the definition of the other operand (operand 1 when operand 0
/// is the constant).
fn non_const_input(cx: &mut Context, first_const: bool, i: Inst) -> Option<Inst> {
    let id = in_word(cx, i, usize::from(first_const));
    cx.get_def(id)
}

fn scalar_bits(cx: &mut Context, c: ConstRef) -> (u64, crate::analysis::types::TypeRef) {
    match cx.constants().value(c).clone() {
        Const::Scalar(t, w) => {
            let v = u64::from(w.first().copied().unwrap_or(0))
                | (u64::from(w.get(1).copied().unwrap_or(0)) << 32);
            (v, t)
        }
        other => (0, other.ty()),
    }
}

/// `PerformOperation` on two scalars: the id of the result constant, or none
/// (a float result that is NaN, infinite or subnormal; a division by a zero).
fn perform_scalar(cx: &mut Context, op: O, a: ConstRef, b: ConstRef) -> Option<u32> {
    let (x, t) = scalar_bits(cx, a);
    let (y, _) = scalar_bits(cx, b);
    let words = match cx.types().ty(t).clone() {
        Ty::Float { width, .. } => {
            if op == O::FDiv && is_zero(cx, b) {
                return None;
            }
            let ok32 = |r: f32| r.is_normal() || r == 0.0;
            let ok64 = |r: f64| r.is_normal() || r == 0.0;
            if width == 64 {
                let (p, q) = (f64::from_bits(x), f64::from_bits(y));
                let r = match op {
                    O::FMul => p * q,
                    O::FDiv => p / q,
                    O::FAdd => p + q,
                    O::FSub => p - q,
                    _ => return None,
                };
                if !ok64(r) {
                    return None;
                }
                vec![r.to_bits() as u32, (r.to_bits() >> 32) as u32]
            } else {
                let (p, q) = (f32::from_bits(x as u32), f32::from_bits(y as u32));
                let r = match op {
                    O::FMul => p * q,
                    O::FDiv => p / q,
                    O::FAdd => p + q,
                    O::FSub => p - q,
                    _ => return None,
                };
                if !ok32(r) {
                    return None;
                }
                vec![r.to_bits()]
            }
        }
        Ty::Int { width, .. } => {
            let r = match op {
                O::IMul => x.wrapping_mul(y),
                O::IAdd => x.wrapping_add(y),
                O::ISub => x.wrapping_sub(y),
                O::BitwiseXor => x ^ y,
                O::BitwiseOr => x | y,
                O::BitwiseAnd => x & y,
                _ => return None,
            };
            if width == 64 {
                vec![r as u32, (r >> 32) as u32]
            } else {
                vec![r as u32]
            }
        }
        _ => return None,
    };
    let c = cx.constant_of(t, &words)?;
    super::defining_id(cx, c)
}

/// `PerformOperation`: component by component for vectors.
fn perform(cx: &mut Context, op: O, a: ConstRef, b: ConstRef) -> Option<u32> {
    let t = cx.constants().value(a).ty();
    let Ty::Vector { elem, count } = cx.types().ty(t).clone() else {
        return perform_scalar(cx, op, a, b);
    };
    let comp = |cx: &mut Context, c: ConstRef, k: usize| -> Option<ConstRef> {
        match cx.constants().value(c).clone() {
            Const::Composite(_, comps) => comps.get(k).copied(),
            _ => cx.constant_of(elem, &[]),
        }
    };
    let mut ids = Vec::new();
    for k in 0..count as usize {
        let (x, y) = (comp(cx, a, k)?, comp(cx, b, k)?);
        ids.push(perform_scalar(cx, op, x, y)?);
    }
    let c = cx.constant_of(t, &ids)?;
    super::defining_id(cx, c)
}

/// The checks the merges share: float folding allowed where the type has floats,
/// a 32- or 64-bit element width (`check_width`), a constant operand; gives the
/// constant and the other operand's definition.
fn merge_inputs(
    cx: &mut Context,
    i: Inst,
    cs: &[Option<ConstRef>],
    check_width: bool,
) -> Option<(ConstRef, Inst, bool)> {
    let type_id = cx.ir.type_id(i);
    let t = cx.types().get(type_id)?;
    if matches!(cx.types().ty(t), Ty::Other { .. }) {
        return None;
    }
    let uses_float = has_float(cx, t);
    if uses_float && !float_folding_allowed(cx, i) {
        return None;
    }
    if check_width {
        let w = element_width(cx, t);
        if w != 32 && w != 64 {
            return None;
        }
    }
    let c = const_input(cs)?;
    let first_const = cs.first().copied().flatten().is_some();
    let other = non_const_input(cx, first_const, i)?;
    if uses_float && !float_folding_allowed(cx, other) {
        return None;
    }
    Some((c, other, uses_float))
}

fn set_binary(cx: &mut Context, i: Inst, op: O, a: u32, b: u32) {
    let d = cx.ir.data_mut(i);
    d.set_opcode(op);
    d.set_in_operands(&[Operand::id(a), Operand::id(b)]);
}

/// `MergeAddNegateArithmetic`: `c + (-x)` is `c - x`.
fn merge_add_negate(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> bool {
    let Some((_, other, uses_float)) = merge_inputs(cx, i, cs, false) else {
        return false;
    };
    if !matches!(cx.ir.opcode(other), O::SNegate | O::FNegate) {
        return false;
    }
    let const_id = in_word(cx, i, if cs[0].is_some() { 0 } else { 1 });
    let x = in_word(cx, other, 0);
    set_binary(
        cx,
        i,
        if uses_float { O::FSub } else { O::ISub },
        const_id,
        x,
    );
    true
}

/// `NegateConstant`: the id of -c. Floats are multiplied by -1 as spirv-opt does,
/// which keeps a NaN's sign (a negation would flip it).
#[allow(clippy::neg_multiply)]
fn negate_constant(cx: &mut Context, c: ConstRef) -> Option<u32> {
    let t = cx.constants().value(c).ty();
    let neg_scalar = |cx: &mut Context, c: ConstRef| -> Option<u32> {
        let (v, t) = scalar_bits(cx, c);
        let words = match cx.types().ty(t).clone() {
            Ty::Float { width: 64, .. } => {
                let r = (f64::from_bits(v) * -1.0).to_bits();
                vec![r as u32, (r >> 32) as u32]
            }
            Ty::Float { .. } => vec![(f32::from_bits(v as u32) * -1.0).to_bits()],
            Ty::Int { width: 64, .. } => {
                let r = 0u64.wrapping_sub(v);
                vec![r as u32, (r >> 32) as u32]
            }
            Ty::Int { .. } => vec![0u32.wrapping_sub(v as u32)],
            _ => return None,
        };
        let n = cx.constant_of(t, &words)?;
        super::defining_id(cx, n)
    };
    match cx.constants().value(c).clone() {
        Const::Null(_) if matches!(cx.types().ty(t), Ty::Vector { .. }) => {
            super::defining_id(cx, c)
        }
        Const::Composite(_, comps) => {
            let mut ids = Vec::with_capacity(comps.len());
            for comp in comps {
                ids.push(neg_scalar(cx, comp)?);
            }
            let n = cx.constant_of(t, &ids)?;
            super::defining_id(cx, n)
        }
        _ => neg_scalar(cx, c),
    }
}

/// `MergeSubNegateArithmetic`: `c - (-x)` is `x + c`; `(-x) - c` is `-c - x`.
fn merge_sub_negate(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> bool {
    let Some((c, other, uses_float)) = merge_inputs(cx, i, cs, true) else {
        return false;
    };
    if !matches!(cx.ir.opcode(other), O::SNegate | O::FNegate) {
        return false;
    }
    let (op, a, b) = if cs[0].is_some() {
        let add = if uses_float { O::FAdd } else { O::IAdd };
        (add, in_word(cx, other, 0), in_word(cx, i, 0))
    } else {
        let Some(n) = negate_constant(cx, c) else {
            return false;
        };
        (cx.ir.opcode(i), n, in_word(cx, other, 0))
    };
    set_binary(cx, i, op, a, b);
    true
}

/// What the three negate merges check first: float folding allowed on the negation and
/// on its operand's definition where the type has floats. Gives that definition and
/// whether the type has floats.
fn negate_input(cx: &mut Context, i: Inst) -> Option<(Inst, bool)> {
    let type_id = cx.ir.type_id(i);
    let t = cx.types().get(type_id)?;
    let uses_float = has_float(cx, t);
    if uses_float && !float_folding_allowed(cx, i) {
        return None;
    }
    let id = in_word(cx, i, 0);
    let op = cx.get_def(id)?;
    if uses_float && !float_folding_allowed(cx, op) {
        return None;
    }
    Some((op, uses_float))
}

/// [`negate_input`], for the merges that also refuse cooperative matrices and element
/// widths other than 32 and 64.
fn negate_merge_input(cx: &mut Context, i: Inst) -> Option<(Inst, bool)> {
    let type_id = cx.ir.type_id(i);
    let t = cx.types().get(type_id)?;
    if matches!(cx.types().ty(t), Ty::Other { .. }) {
        return None;
    }
    let (op, uses_float) = negate_input(cx, i)?;
    let w = element_width(cx, t);
    (w == 32 || w == 64).then_some((op, uses_float))
}

/// `MergeNegateArithmetic`: `-(-x)` is `x`.
fn merge_negate(cx: &mut Context, i: Inst, _: &[Option<ConstRef>]) -> bool {
    let Some((op, _)) = negate_input(cx, i) else {
        return false;
    };
    if cx.ir.opcode(op) != cx.ir.opcode(i) {
        return false;
    }
    let x = in_word(cx, op, 0);
    set_copy(cx, i, x);
    true
}

/// `MergeNegateMulDivArithmetic`: `-(x * c)` and `-(c * x)` are `x * -c`; `-(x / c)` is
/// `x / -c`; `-(c / x)` is `-c / x`.
fn merge_negate_mul_div(cx: &mut Context, i: Inst, _: &[Option<ConstRef>]) -> bool {
    let Some((op, _)) = negate_merge_input(cx, i) else {
        return false;
    };
    let opcode = cx.ir.opcode(op);
    if !matches!(opcode, O::FMul | O::FDiv | O::IMul | O::SDiv) {
        return false;
    }
    let ocs = super::operand_constants(cx, op);
    let Some(c) = const_input(&ocs) else {
        return false;
    };
    let zero_is_variable = ocs.first().copied().flatten().is_none();
    let Some(neg) = negate_constant(cx, c) else {
        return false;
    };
    let non_const = in_word(cx, op, usize::from(!zero_is_variable));
    let (a, b) = if matches!(opcode, O::FDiv | O::SDiv) && !zero_is_variable {
        (neg, non_const)
    } else {
        (non_const, neg)
    };
    set_binary(cx, i, opcode, a, b);
    true
}

/// `MergeNegateAddSubArithmetic`: `-(x + c)` and `-(c + x)` are `-c - x`; `-(x - c)` is
/// `c - x`; `-(c - x)` is `x - c`.
fn merge_negate_add_sub(cx: &mut Context, i: Inst, _: &[Option<ConstRef>]) -> bool {
    let Some((op, uses_float)) = negate_merge_input(cx, i) else {
        return false;
    };
    let opcode = cx.ir.opcode(op);
    if !matches!(opcode, O::FAdd | O::FSub | O::IAdd | O::ISub) {
        return false;
    }
    let ocs = super::operand_constants(cx, op);
    let Some(c) = const_input(&ocs) else {
        return false;
    };
    let zero_is_variable = ocs.first().copied().flatten().is_none();
    let is_add = matches!(opcode, O::FAdd | O::IAdd);
    let const_id = if is_add {
        let Some(n) = negate_constant(cx, c) else {
            return false;
        };
        n
    } else {
        in_word(cx, op, usize::from(zero_is_variable))
    };
    let (mut a, mut b) = if zero_is_variable {
        (in_word(cx, op, 0), const_id)
    } else {
        (const_id, in_word(cx, op, 1))
    };
    if !is_add || zero_is_variable {
        core::mem::swap(&mut a, &mut b);
    }
    set_binary(cx, i, if uses_float { O::FSub } else { O::ISub }, a, b);
    true
}

/// The other instruction's constant operand and its non-constant operand.
fn other_inputs(cx: &mut Context, other: Inst) -> Option<(ConstRef, Inst, bool)> {
    let ocs = super::operand_constants(cx, other);
    let c2 = const_input(&ocs)?;
    let first_const = ocs.first().copied().flatten().is_some();
    let nc = non_const_input(cx, first_const, other)?;
    Some((c2, nc, first_const))
}

/// `MergeAddAddArithmetic`: `c1 + (c2 + x)` is `x + (c1 + c2)`.
fn merge_add_add(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> bool {
    let Some((c1, other, _)) = merge_inputs(cx, i, cs, true) else {
        return false;
    };
    if !matches!(cx.ir.opcode(other), O::FAdd | O::IAdd) {
        return false;
    }
    let Some((c2, nc, _)) = other_inputs(cx, other) else {
        return false;
    };
    let op = cx.ir.opcode(i);
    let Some(merged) = perform(cx, op, c1, c2) else {
        return false;
    };
    let x = cx.ir.result_id(nc);
    cx.ir
        .data_mut(i)
        .set_in_operands(&[Operand::id(x), Operand::id(merged)]);
    true
}

/// `MergeAddSubArithmetic`: `c1 + (x - c2)` is `x - (c2 - c1)`... as spirv-opt
/// computes it: `x op (c1 op2 c2)` or `(c1 + c2) - x`.
fn merge_add_sub(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> bool {
    let Some((c1, other, _)) = merge_inputs(cx, i, cs, true) else {
        return false;
    };
    let other_op = cx.ir.opcode(other);
    if !matches!(other_op, O::FSub | O::ISub) {
        return false;
    }
    let Some((c2, first_is_variable)) = inner_constant(cx, other) else {
        return false;
    };
    let mut op = cx.ir.opcode(i);
    let (a, b) = if first_is_variable {
        let a = in_word(cx, other, 0);
        let b = perform(cx, other_op, c1, c2);
        (Some(a), b)
    } else {
        let a = perform(cx, op, c1, c2);
        op = other_op;
        (a, Some(in_word(cx, other, 1)))
    };
    let (Some(a), Some(b)) = (a, b) else {
        return false;
    };
    if a == 0 || b == 0 {
        return false;
    }
    set_binary(cx, i, op, a, b);
    true
}

/// `MergeSubAddArithmetic`.
fn merge_sub_add(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> bool {
    let Some((mut c1, other, _)) = merge_inputs(cx, i, cs, true) else {
        return false;
    };
    let other_op = cx.ir.opcode(other);
    if !matches!(other_op, O::FAdd | O::IAdd) {
        return false;
    }
    let Some((mut c2, nc, _)) = other_inputs(cx, other) else {
        return false;
    };
    let first_const = cs[0].is_some();
    if !first_const {
        std::mem::swap(&mut c1, &mut c2);
    }
    let op0 = cx.ir.opcode(i);
    let Some(merged) = perform(cx, op0, c1, c2) else {
        return false;
    };
    let x = cx.ir.result_id(nc);
    let (op, a, b) = if !first_const {
        (other_op, x, merged)
    } else {
        (op0, merged, x)
    };
    set_binary(cx, i, op, a, b);
    true
}

/// `MergeSubSubArithmetic`.
fn merge_sub_sub(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> bool {
    let Some((mut c1, other, uses_float)) = merge_inputs(cx, i, cs, true) else {
        return false;
    };
    let other_op = cx.ir.opcode(other);
    if !matches!(other_op, O::FSub | O::ISub) {
        return false;
    }
    let Some((mut c2, nc, other_first_const)) = other_inputs(cx, other) else {
        return false;
    };
    let first_const = cs[0].is_some();
    let add = if uses_float { O::FAdd } else { O::IAdd };
    let mut merge_op = cx.ir.opcode(i);
    if !other_first_const {
        merge_op = add;
    } else if !first_const {
        std::mem::swap(&mut c1, &mut c2);
    }
    let Some(merged) = perform(cx, merge_op, c1, c2) else {
        return false;
    };
    let mut op = cx.ir.opcode(i);
    if first_const && other_first_const {
        op = add;
    }
    let x = cx.ir.result_id(nc);
    let (a, b) = if (!first_const) ^ (!other_first_const) {
        (merged, x)
    } else {
        (x, merged)
    };
    set_binary(cx, i, op, a, b);
    true
}

/// `MergeGenericAddendSub`: `a + (b - a)` is `b`.
fn merge_generic_addend_sub(cx: &mut Context, addend: u32, sub: u32, i: Inst) -> bool {
    let Some(s) = cx.get_def(sub) else {
        return false;
    };
    let op = cx.ir.opcode(s);
    if op != O::FSub && op != O::ISub {
        return false;
    }
    if op == O::FSub && !float_folding_allowed(cx, s) {
        return false;
    }
    if cx.ir.data(s).num_in_operands() < 2 || addend != in_word(cx, s, 1) {
        return false;
    }
    let b = in_word(cx, s, 0);
    set_copy(cx, i, b);
    cx.update_def_use(i);
    true
}

/// `MergeGenericAddSubArithmetic`.
fn merge_generic_add_sub(cx: &mut Context, i: Inst, _: &[Option<ConstRef>]) -> bool {
    let type_id = cx.ir.type_id(i);
    let Some(t) = cx.types().get(type_id) else {
        return false;
    };
    if matches!(cx.types().ty(t), Ty::Other { .. }) {
        return false;
    }
    if has_float(cx, t) && !float_folding_allowed(cx, i) {
        return false;
    }
    let w = element_width(cx, t);
    if w != 32 && w != 64 {
        return false;
    }
    let (a, b) = (in_word(cx, i, 0), in_word(cx, i, 1));
    merge_generic_addend_sub(cx, a, b, i) || merge_generic_addend_sub(cx, b, a, i)
}

/// `FactorAddMuls`: `a*b + a*c` is `a * (b + c)`, the new add placed before.
fn factor_add_muls(cx: &mut Context, i: Inst, _: &[Option<ConstRef>]) -> bool {
    let type_id = cx.ir.type_id(i);
    let Some(t) = cx.types().get(type_id) else {
        return false;
    };
    if has_float(cx, t) && !float_folding_allowed(cx, i) {
        return false;
    }
    let (Some(m0), Some(m1)) = (cx.get_def(in_word(cx, i, 0)), cx.get_def(in_word(cx, i, 1)))
    else {
        return false;
    };
    let is_mul = |op: O| op == O::FMul || op == O::IMul;
    if !is_mul(cx.ir.opcode(m0)) || !is_mul(cx.ir.opcode(m1)) {
        return false;
    }
    let (r0, r1) = (cx.ir.result_id(m0), cx.ir.result_id(m1));
    if cx.uses(r0).len() > 1 || cx.uses(r1).len() > 1 {
        return false;
    }
    if cx.ir.opcode(m0) == O::FMul
        && (!float_folding_allowed(cx, m0) || !float_folding_allowed(cx, m1))
    {
        return false;
    }
    for a in 0..2 {
        for b in 0..2 {
            let (f00, f01) = (in_word(cx, m0, a), in_word(cx, m0, 1 - a));
            let (f10, f11) = (in_word(cx, m1, b), in_word(cx, m1, 1 - b));
            if f00 != f10 {
                continue;
            }
            let Some(id) = cx.take_next_id() else {
                return false;
            };
            let op = cx.ir.opcode(i);
            let add = cx.make(op, type_id, id, &[Operand::id(f01), Operand::id(f11)]);
            cx.ir.insert_before(i, add);
            cx.analyze_def_use(add);
            set_binary(
                cx,
                i,
                if op == O::FAdd { O::FMul } else { O::IMul },
                f00,
                id,
            );
            cx.update_def_use(i);
            return true;
        }
    }
    false
}

/// `MergeMulMulArithmetic`: `c1 * (c2 * x)` is `x * (c1 * c2)`.
fn merge_mul_mul(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> bool {
    let Some((c1, other, _)) = merge_inputs(cx, i, cs, true) else {
        return false;
    };
    if cx.ir.opcode(other) != cx.ir.opcode(i) {
        return false;
    }
    let Some((c2, other_first_is_variable)) = inner_constant(cx, other) else {
        return false;
    };
    let op = cx.ir.opcode(i);
    let Some(merged) = perform(cx, op, c1, c2) else {
        return false;
    };
    let x = in_word(cx, other, if other_first_is_variable { 0 } else { 1 });
    cx.ir
        .data_mut(i)
        .set_in_operands(&[Operand::id(x), Operand::id(merged)]);
    true
}

/// `MergeMulNegateArithmetic`: `c * (-x)` is `x * (-c)`.
fn merge_mul_negate(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> bool {
    let Some((c, other, _)) = merge_inputs(cx, i, cs, true) else {
        return false;
    };
    if !matches!(cx.ir.opcode(other), O::SNegate | O::FNegate) {
        return false;
    }
    let Some(negated) = negate_constant(cx, c) else {
        return false;
    };
    let x = in_word(cx, other, 0);
    cx.ir
        .data_mut(i)
        .set_in_operands(&[Operand::id(x), Operand::id(negated)]);
    true
}

/// `HasZero`: a null, or a scalar or vector component whose words are all zero.
fn has_zero(cx: &mut Context, c: ConstRef) -> bool {
    match cx.constants().value(c).clone() {
        Const::Composite(_, comps) => comps.iter().any(|&k| is_zero(cx, k)),
        _ => is_zero(cx, c),
    }
}

/// The checks the float mul/div merges start with: not a cooperative matrix, float
/// folding allowed, a 32- or 64-bit element width.
fn float_merge_allowed(cx: &mut Context, i: Inst) -> bool {
    let type_id = cx.ir.type_id(i);
    let Some(t) = cx.types().get(type_id) else {
        return false;
    };
    if matches!(cx.types().ty(t), Ty::Other { .. }) || !float_folding_allowed(cx, i) {
        return false;
    }
    matches!(element_width(cx, t), 32 | 64)
}

/// The constant operand (refused if `nonzero` and it has a zero), whether it is
/// operand 1, and the other operand's definition, which must allow float folding.
fn float_merge_inputs(
    cx: &mut Context,
    i: Inst,
    cs: &[Option<ConstRef>],
    nonzero: bool,
) -> Option<(ConstRef, bool, Inst)> {
    let c = const_input(cs)?;
    if nonzero && has_zero(cx, c) {
        return None;
    }
    let first_is_variable = cs.first().copied().flatten().is_none();
    let other = non_const_input(cx, !first_is_variable, i)?;
    float_folding_allowed(cx, other).then_some((c, first_is_variable, other))
}

/// `MergeMulDivArithmetic`: `(y / x) * x` and `x * (y / x)` are `y`; `c1 * (x / c2)`
/// is `x * (c1 / c2)`; `c1 * (c2 / x)` is `(c1 * c2) / x`.
fn merge_mul_div(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> bool {
    if !float_merge_allowed(cx, i) {
        return false;
    }
    for k in 0..2 {
        let id = in_word(cx, i, k);
        let Some(d) = cx.get_def(id) else { continue };
        if cx.ir.opcode(d) == O::FDiv && in_word(cx, d, 1) == in_word(cx, i, 1 - k) {
            let y = in_word(cx, d, 0);
            set_copy(cx, i, y);
            return true;
        }
    }
    let Some((c1, _, other)) = float_merge_inputs(cx, i, cs, false) else {
        return false;
    };
    if cx.ir.opcode(other) != O::FDiv {
        return false;
    }
    let Some((c2, other_first_is_variable)) = inner_constant(cx, other) else {
        return false;
    };
    if has_zero(cx, c2) {
        return false;
    }
    let op = if other_first_is_variable {
        O::FDiv
    } else {
        O::FMul
    };
    let Some(merged) = perform(cx, op, c1, c2) else {
        return false;
    };
    let x = in_word(cx, other, usize::from(!other_first_is_variable));
    if other_first_is_variable {
        set_binary(cx, i, O::FMul, x, merged);
    } else {
        set_binary(cx, i, O::FDiv, merged, x);
    }
    true
}

/// `MergeDivDivArithmetic`: `c1 / (x / c2)` is `(c1 * c2) / x`; `c1 / (c2 / x)` is
/// `(c1 / c2) * x`; `(c1 / x) / c2` is `(c1 / c2) / x`; `(x / c1) / c2` is
/// `x / (c1 * c2)`.
fn merge_div_div(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> bool {
    if !float_merge_allowed(cx, i) {
        return false;
    }
    let Some((c1, first_is_variable, other)) = float_merge_inputs(cx, i, cs, true) else {
        return false;
    };
    if cx.ir.opcode(other) != O::FDiv {
        return false;
    }
    let Some((c2, other_first_is_variable)) = inner_constant(cx, other) else {
        return false;
    };
    if has_zero(cx, c2) {
        return false;
    }
    let merge_op = if other_first_is_variable {
        O::FMul
    } else {
        O::FDiv
    };
    // With the variable first, the inner constant is the dividend.
    let (a, b) = if first_is_variable {
        (c2, c1)
    } else {
        (c1, c2)
    };
    let Some(merged) = perform(cx, merge_op, a, b) else {
        return false;
    };
    let x = in_word(cx, other, usize::from(!other_first_is_variable));
    let op = if !first_is_variable && !other_first_is_variable {
        O::FMul
    } else {
        O::FDiv
    };
    let (p, q) = if first_is_variable && other_first_is_variable {
        (x, merged)
    } else {
        (merged, x)
    };
    set_binary(cx, i, op, p, q);
    true
}

/// `MergeDivMulArithmetic`: `(x * y) / x` and `(y * x) / x` are `y`; `c1 / (x * c2)`
/// is `(c1 / c2) / x`; `(x * c1) / c2` is `x * (c1 / c2)`.
fn merge_div_mul(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> bool {
    if !float_merge_allowed(cx, i) {
        return false;
    }
    let id = in_word(cx, i, 0);
    if let Some(m) = cx.get_def(id) {
        if cx.ir.opcode(m) == O::FMul {
            for k in 0..2 {
                if in_word(cx, m, k) == in_word(cx, i, 1) {
                    let y = in_word(cx, m, 1 - k);
                    set_copy(cx, i, y);
                    return true;
                }
            }
        }
    }
    let Some((c1, first_is_variable, other)) = float_merge_inputs(cx, i, cs, true) else {
        return false;
    };
    if cx.ir.opcode(other) != O::FMul {
        return false;
    }
    let Some((c2, other_first_is_variable)) = inner_constant(cx, other) else {
        return false;
    };
    let (a, b) = if first_is_variable {
        (c2, c1)
    } else {
        (c1, c2)
    };
    let Some(merged) = perform(cx, O::FDiv, a, b) else {
        return false;
    };
    let x = in_word(cx, other, usize::from(!other_first_is_variable));
    if first_is_variable {
        set_binary(cx, i, O::FMul, x, merged);
    } else {
        set_binary(cx, i, O::FDiv, merged, x);
    }
    true
}

/// `MergeDivNegateArithmetic`: `(-x) / c` is `x / -c`; `c / (-x)` is `-c / x`.
fn merge_div_negate(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> bool {
    if !float_folding_allowed(cx, i) {
        return false;
    }
    let Some((c, first_is_variable, other)) = float_merge_inputs(cx, i, cs, false) else {
        return false;
    };
    if cx.ir.opcode(other) != O::FNegate {
        return false;
    }
    let Some(neg) = negate_constant(cx, c) else {
        return false;
    };
    let x = in_word(cx, other, 0);
    let (a, b) = if first_is_variable {
        (x, neg)
    } else {
        (neg, x)
    };
    cx.ir
        .data_mut(i)
        .set_in_operands(&[Operand::id(a), Operand::id(b)]);
    true
}

/// `ReassociateCommutiveOp`: `c1 op (c2 op x)` is `x op (c1 op c2)` for 32-bit
/// bitwise operations.
fn reassociate_commutative(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> bool {
    let type_id = cx.ir.type_id(i);
    let Some(t) = cx.types().get(type_id) else {
        return false;
    };
    if element_width(cx, t) != 32 {
        return false;
    }
    let Some(c1) = const_input(cs) else {
        return false;
    };
    let first_const = cs.first().copied().flatten().is_some();
    let Some(other) = non_const_input(cx, first_const, i) else {
        return false;
    };
    if cx.ir.opcode(other) != cx.ir.opcode(i) {
        return false;
    }
    let Some((c2, nc, _)) = other_inputs(cx, other) else {
        return false;
    };
    let op = cx.ir.opcode(i);
    let Some(merged) = perform(cx, op, c1, c2) else {
        return false;
    };
    let x = cx.ir.result_id(nc);
    cx.ir
        .data_mut(i)
        .set_in_operands(&[Operand::id(x), Operand::id(merged)]);
    true
}

/// How many inserts of a chain `GetInsertedValues` follows at most (spirv-opt walks
/// the whole chain for every insert of it: quadratic; a chain longer than this is
/// left alone).
const MAX_INSERT_CHAIN: usize = 4096;

/// `GetNumberOfElements`.
fn number_of_elements(cx: &mut Context, t: crate::analysis::types::TypeRef) -> u32 {
    match cx.types().ty(t) {
        Ty::Vector { count, .. } | Ty::Matrix { count, .. } => *count,
        Ty::Struct { members, .. } => members.len() as u32,
        Ty::Array { length, .. } => {
            if length.len() == 2 && length[0] == 1 {
                length[1]
            } else {
                u32::MAX
            }
        }
        _ => 0,
    }
}

/// `CompositeInsertToCompositeConstruct`: a chain of inserts writing every element
/// of one container becomes a construct of the values, placed before the last insert.
fn composite_insert_to_construct(cx: &mut Context, i: Inst, _: &[Option<ConstRef>]) -> bool {
    let n = cx.ir.data(i).num_in_operands();
    if n < 3 {
        return false;
    }
    // GetInsertedValues.
    let own: Vec<u32> = (0..n).map(|k| in_word(cx, i, k)).collect();
    let mut values = std::collections::BTreeMap::new();
    let mut current = i;
    let mut steps = 0;
    while cx.ir.opcode(current) == O::CompositeInsert {
        steps += 1;
        if steps > MAX_INSERT_CHAIN {
            return false;
        }
        let d = cx.ir.data(current);
        let m = d.num_in_operands();
        if m < 2 {
            return false;
        }
        if m > n && !values.contains_key(&d.in_word(n - 1)) {
            values.clear();
            break;
        }
        // HaveSameIndexesExceptForLast.
        if m == n && (2..n - 1).all(|k| d.in_word(k) == own[k]) {
            values.entry(d.in_word(m - 1)).or_insert(d.in_word(0));
        }
        let next = d.in_word(1);
        let Some(def) = cx.get_def(next) else {
            return false;
        };
        current = def;
    }
    let type_id = cx.ir.type_id(i);
    let container = element_type(cx, type_id, &own[2..n - 1]);
    if container == 0 {
        return false;
    }
    let Some(ct) = cx.types().get(container) else {
        return false;
    };
    let size = number_of_elements(cx, ct);
    if size as usize != values.len() || values.keys().next_back().is_none_or(|&k| k >= size) {
        return false;
    }
    let Some(id) = cx.take_next_id() else {
        return false;
    };
    let ops: Vec<Operand> = values.values().map(|&v| Operand::id(v)).collect();
    let construct = cx.make(O::CompositeConstruct, container, id, &ops);
    cx.ir.insert_before(i, construct);
    cx.analyze_def_use(construct);
    if n == 3 {
        set_copy(cx, i, id);
    } else {
        let d = cx.ir.data_mut(i);
        d.set_in_operand(0, &[id]);
        d.remove_in_operand(n - 1);
    }
    true
}
