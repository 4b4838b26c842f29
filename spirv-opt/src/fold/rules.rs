//! The instruction-folding rules (spirv-opt's `FoldingRules`,
//! `source/opt/folding_rules.cpp`): per opcode, in spirv-opt's order, rules that
//! rewrite an instruction from its operands' shapes (`x + 0` is `x`, an extract of a
//! construct is the constructed component, a phi of one value is that value, ...).
//! A rule that applies changes the instruction in place and stops the search.
//!
//! This file holds the table and the rules that drop a redundant operand or
//! instruction; the rules that look through composites are in `composite`, those
//! that compute a new constant (merges, reciprocals, bit casts) in `arithmetic`.

use super::{Rule, element_width, float_folding_allowed, is_zero};
use crate::analysis::constants::{Const, ConstRef};
use crate::analysis::types::Ty;
use crate::context::Context;
use crate::ir::{Inst, Operand};
use spirv_core::spv::Opcode as O;

mod arithmetic;
mod composite;

use arithmetic::{
    bit_reverse, bitcast, const_input, factor_add_muls, merge_add_add, merge_add_negate,
    merge_add_sub, merge_div_div, merge_div_mul, merge_div_negate, merge_generic_add_sub,
    merge_mul_div, merge_mul_mul, merge_mul_negate, merge_negate, merge_negate_add_sub,
    merge_negate_mul_div, merge_sub_add, merge_sub_negate, merge_sub_sub, non_const_input,
    reassociate_commutative, reciprocal_f_div,
};
use composite::{
    composite_construct_feeding_extract, composite_extract_feeding_construct,
    composite_insert_to_construct, fmix_feeding_extract, insert_feeding_extract,
    vector_shuffle_feeding_extract, vector_shuffle_feeding_shuffle,
};

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
