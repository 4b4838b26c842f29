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
        O::BitwiseOr | O::BitwiseXor => &[rhs0, lhs0],
        O::ShiftRightLogical | O::ShiftRightArithmetic | O::ShiftLeftLogical => &[rhs0, lhs0_to_0],
        O::IAdd => &[rhs0, lhs0],
        O::ISub => &[rhs0],
        O::SDiv | O::UDiv => &[lhs0_to_0, redundant_su_div],
        O::SMod | O::UMod => &[lhs0_to_0, redundant_su_mod],
        O::CompositeConstruct => &[composite_extract_feeding_construct],
        O::CompositeExtract => &[
            insert_feeding_extract,
            composite_construct_feeding_extract,
            vector_shuffle_feeding_extract,
        ],
        O::FAdd => &[redundant_f_add],
        O::FDiv => &[redundant_f_div, reciprocal_f_div],
        O::FMul => &[redundant_f_mul],
        O::FSub => &[redundant_f_sub],
        O::IMul => &[int_multiple_by_1],
        O::Phi => &[redundant_phi],
        O::Bitcast => &[bitcast],
        O::BitReverse => &[bit_reverse],
        O::Select => &[redundant_select],
        O::Store => &[storing_undef],
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
