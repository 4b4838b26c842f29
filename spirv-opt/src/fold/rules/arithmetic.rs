//! The rules that compute a new constant from the constants an instruction and its
//! operands' definitions hold (spirv-opt's `ReciprocalFDiv`, `BitCastScalarOrVector`,
//! `BitReverseScalarOrVector`, the `Merge*` arithmetic rules and
//! `ReassociateCommutativeBinaryOp`): `x / c` as `x * (1/c)`, `c1 * (c2 * x)` as
//! `(c1*c2) * x`, a bitcast of a constant as the constant of the same bits.

use super::{in_word, set_copy};
use crate::analysis::constants::{Const, ConstRef};
use crate::analysis::types::Ty;
use crate::context::Context;
use crate::fold::{element_width, float_folding_allowed, is_zero};
use crate::ir::{Inst, Operand};
use spirv_core::spv::Opcode as O;

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
    crate::fold::defining_id(cx, r)
}

/// `ReciprocalFDiv`: division by a constant is multiplication by its reciprocal.
pub(super) fn reciprocal_f_div(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> bool {
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
            let Some(id) = crate::fold::defining_id(cx, v) else {
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
        Ty::Vector { elem, count } => {
            crate::fold::numeric_vector_constant(cx, t, elem, count, words)
        }
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
pub(super) fn bitcast(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> bool {
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
pub(super) fn bit_reverse(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> bool {
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

/// `ConstInput`: the first constant operand.
pub(super) fn const_input(cs: &[Option<ConstRef>]) -> Option<ConstRef> {
    cs.first()
        .copied()
        .flatten()
        .or(cs.get(1).copied().flatten())
}

/// The constant operand of `other`, the instruction a merge rule looks through, and
/// whether its first operand is the variable one (the constant is the second).
fn inner_constant(cx: &mut Context, other: Inst) -> Option<(ConstRef, bool)> {
    let ocs = crate::fold::operand_constants(cx, other);
    let c = const_input(&ocs)?;
    Some((c, ocs.first().copied().flatten().is_none()))
}

/// `NonConstInput`: the definition of the other operand (operand 1 when operand 0
/// is the constant).
pub(super) fn non_const_input(cx: &mut Context, first_const: bool, i: Inst) -> Option<Inst> {
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
    crate::fold::defining_id(cx, c)
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
    crate::fold::defining_id(cx, c)
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
pub(super) fn merge_add_negate(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> bool {
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
        crate::fold::defining_id(cx, n)
    };
    match cx.constants().value(c).clone() {
        Const::Null(_) if matches!(cx.types().ty(t), Ty::Vector { .. }) => {
            crate::fold::defining_id(cx, c)
        }
        Const::Composite(_, comps) => {
            let mut ids = Vec::with_capacity(comps.len());
            for comp in comps {
                ids.push(neg_scalar(cx, comp)?);
            }
            let n = cx.constant_of(t, &ids)?;
            crate::fold::defining_id(cx, n)
        }
        _ => neg_scalar(cx, c),
    }
}

/// `MergeSubNegateArithmetic`: `c - (-x)` is `x + c`; `(-x) - c` is `-c - x`.
pub(super) fn merge_sub_negate(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> bool {
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
pub(super) fn merge_negate(cx: &mut Context, i: Inst, _: &[Option<ConstRef>]) -> bool {
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
pub(super) fn merge_negate_mul_div(cx: &mut Context, i: Inst, _: &[Option<ConstRef>]) -> bool {
    let Some((op, _)) = negate_merge_input(cx, i) else {
        return false;
    };
    let opcode = cx.ir.opcode(op);
    if !matches!(opcode, O::FMul | O::FDiv | O::IMul | O::SDiv) {
        return false;
    }
    let ocs = crate::fold::operand_constants(cx, op);
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
pub(super) fn merge_negate_add_sub(cx: &mut Context, i: Inst, _: &[Option<ConstRef>]) -> bool {
    let Some((op, uses_float)) = negate_merge_input(cx, i) else {
        return false;
    };
    let opcode = cx.ir.opcode(op);
    if !matches!(opcode, O::FAdd | O::FSub | O::IAdd | O::ISub) {
        return false;
    }
    let ocs = crate::fold::operand_constants(cx, op);
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
    let ocs = crate::fold::operand_constants(cx, other);
    let c2 = const_input(&ocs)?;
    let first_const = ocs.first().copied().flatten().is_some();
    let nc = non_const_input(cx, first_const, other)?;
    Some((c2, nc, first_const))
}

/// `MergeAddAddArithmetic`: `c1 + (c2 + x)` is `x + (c1 + c2)`.
pub(super) fn merge_add_add(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> bool {
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
pub(super) fn merge_add_sub(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> bool {
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
pub(super) fn merge_sub_add(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> bool {
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
pub(super) fn merge_sub_sub(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> bool {
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
pub(super) fn merge_generic_add_sub(cx: &mut Context, i: Inst, _: &[Option<ConstRef>]) -> bool {
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
pub(super) fn factor_add_muls(cx: &mut Context, i: Inst, _: &[Option<ConstRef>]) -> bool {
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
pub(super) fn merge_mul_mul(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> bool {
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
pub(super) fn merge_mul_negate(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> bool {
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
pub(super) fn merge_mul_div(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> bool {
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
pub(super) fn merge_div_div(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> bool {
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
pub(super) fn merge_div_mul(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> bool {
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
pub(super) fn merge_div_negate(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> bool {
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
pub(super) fn reassociate_commutative(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> bool {
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
