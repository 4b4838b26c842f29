//! The constant-folding rules (spirv-opt's `ConstantFoldingRules`,
//! `source/opt/const_folding_rules.cpp`): per opcode, in spirv-opt's order, rules that
//! compute an instruction's value from its constant operands. Floating point is done
//! in the operands' width (`f32` arithmetic for 32-bit floats, `f64` for 64-bit; other
//! widths are not folded), only where spirv-opt allows it (a shader without the
//! float-controls capabilities, no `NoContraction`); integers wrap as spirv-opt's
//! 64-bit arithmetic does, then are truncated and sign- or zero-extended to the width.

use super::{ConstRule, defining_id, float_folding_allowed, is_zero, vector_components};
use crate::analysis::constants::{Const, ConstRef};
use crate::analysis::types::{Ty, TypeRef};
use crate::context::Context;
use crate::ir::Inst;
use spirv_core::spv::Opcode as O;

/// The rules for `i`'s opcode, or `None` if spirv-opt has none (`HasFoldingRule`).
pub fn rules_for(cx: &mut Context, i: Inst) -> Option<&'static [ConstRule]> {
    Some(match cx.ir.opcode(i) {
        O::CompositeConstruct => &[composite_construct],
        O::CompositeExtract => &[composite_extract],
        O::CompositeInsert => &[composite_insert],
        O::ConvertFToS | O::ConvertFToU => &[f_to_i],
        O::ConvertSToF | O::ConvertUToF => &[i_to_f],
        O::SConvert => &[s_convert],
        O::UConvert => &[u_convert],
        O::FAdd => &[f_add],
        O::FSub => &[f_sub],
        O::FMul => &[f_mul],
        O::FDiv => &[f_div],
        O::FOrdEqual => &[f_ord_equal],
        O::FUnordEqual => &[f_unord_equal],
        O::FOrdNotEqual => &[f_ord_not_equal],
        O::FUnordNotEqual => &[f_unord_not_equal],
        O::FOrdLessThan => &[f_ord_less, clamp_feeding_compare],
        O::FUnordLessThan => &[f_unord_less, clamp_feeding_compare],
        O::FOrdGreaterThan => &[f_ord_greater, clamp_feeding_compare],
        O::FUnordGreaterThan => &[f_unord_greater, clamp_feeding_compare],
        O::FOrdLessThanEqual => &[f_ord_less_equal, clamp_feeding_compare],
        O::FUnordLessThanEqual => &[f_unord_less_equal, clamp_feeding_compare],
        O::FOrdGreaterThanEqual => &[f_ord_greater_equal, clamp_feeding_compare],
        O::FUnordGreaterThanEqual => &[f_unord_greater_equal, clamp_feeding_compare],
        O::VectorShuffle => &[vector_shuffle],
        O::VectorTimesScalar => &[vector_times_scalar],
        O::FNegate => &[f_negate],
        O::SNegate => &[s_negate],
        O::IAdd => &[i_add],
        O::ISub => &[i_sub],
        O::IMul => &[i_mul],
        O::UDiv => &[u_div],
        O::SDiv => &[s_div],
        O::UMod => &[u_mod],
        O::SRem => &[s_rem],
        O::SMod => &[s_mod],
        O::ExtInst => return ext_rules_for(cx, i),
        O::VectorTimesMatrix => &[vector_times_matrix],
        O::MatrixTimesVector => &[matrix_times_vector],
        O::Dot => &[dot],
        O::Transpose => &[transpose],
        O::QuantizeToF16 => &[quantize_to_f16],
        _ => return None,
    })
}

// ---- constant values ----

fn value(cx: &mut Context, c: ConstRef) -> Const {
    cx.constants().value(c).clone()
}

fn ty_of(cx: &mut Context, c: ConstRef) -> TypeRef {
    cx.constants().value(c).ty()
}

fn result_ty(cx: &mut Context, i: Inst) -> Option<TypeRef> {
    let id = cx.ir.type_id(i);
    cx.types().get(id)
}

/// `GetFloat` (0 for a null).
fn get_f32(cx: &mut Context, c: ConstRef) -> f32 {
    match cx.constants().value(c) {
        Const::Scalar(_, w) => f32::from_bits(w.first().copied().unwrap_or(0)),
        _ => 0.0,
    }
}

/// `GetDouble` (0 for a null).
fn get_f64(cx: &mut Context, c: ConstRef) -> f64 {
    match cx.constants().value(c) {
        Const::Scalar(_, w) if w.len() >= 2 => {
            f64::from_bits(u64::from(w[0]) | (u64::from(w[1]) << 32))
        }
        _ => 0.0,
    }
}

fn float_width(cx: &mut Context, t: TypeRef) -> Option<u32> {
    match cx.types().ty(t) {
        Ty::Float { width, .. } => Some(*width),
        _ => None,
    }
}

fn int_type(cx: &mut Context, t: TypeRef) -> Option<(u32, bool)> {
    match cx.types().ty(t) {
        Ty::Int { width, signed } => Some((*width, *signed)),
        _ => None,
    }
}

fn f32_const(cx: &mut Context, t: TypeRef, v: f32) -> Option<ConstRef> {
    cx.constant_of(t, &[v.to_bits()])
}

fn f64_const(cx: &mut Context, t: TypeRef, v: f64) -> Option<ConstRef> {
    let b = v.to_bits();
    cx.constant_of(t, &[b as u32, (b >> 32) as u32])
}

/// `GetZeroExtendedValue`.
fn zext(cx: &mut Context, c: ConstRef) -> u64 {
    let t = ty_of(cx, c);
    let width = int_type(cx, t).map_or(32, |w| w.0);
    match cx.constants().value(c) {
        Const::Scalar(_, w) if width > 32 && w.len() >= 2 => {
            u64::from(w[0]) | (u64::from(w[1]) << 32)
        }
        Const::Scalar(_, w) => u64::from(w.first().copied().unwrap_or(0)),
        _ => 0,
    }
}

/// `GetSignExtendedValue`.
fn sext(cx: &mut Context, c: ConstRef) -> i64 {
    let t = ty_of(cx, c);
    let width = int_type(cx, t).map_or(32, |w| w.0);
    match cx.constants().value(c) {
        Const::Scalar(_, w) if width > 32 && w.len() >= 2 => {
            (u64::from(w[0]) | (u64::from(w[1]) << 32)) as i64
        }
        Const::Scalar(_, w) => i64::from(w.first().copied().unwrap_or(0) as i32),
        _ => 0,
    }
}

/// `GenerateIntegerConstant`.
fn integer_constant(cx: &mut Context, t: TypeRef, v: u64) -> Option<ConstRef> {
    let (width, signed) = int_type(cx, t)?;
    if width == 64 {
        return cx.constant_of(t, &[v as u32, (v >> 32) as u32]);
    }
    if width > 32 || width == 0 {
        return None;
    }
    let shift = 64 - width;
    let v = if signed {
        ((v << shift) as i64 >> shift) as u64
    } else {
        (v << shift) >> shift
    };
    cx.constant_of(t, &[v as u32])
}

// ---- composites ----

/// `FoldCompositeWithConstants`.
fn composite_construct(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> Option<ConstRef> {
    let type_id = cx.ir.type_id(i);
    let t = cx.types().get(type_id)?;
    let type_inst = cx.get_def(type_id)?;
    let mut ids = Vec::with_capacity(cs.len());
    for (k, c) in cs.iter().enumerate() {
        let c = (*c)?;
        let component_type = match cx.ir.opcode(type_inst) {
            O::TypeStruct if k < cx.ir.data(type_inst).num_in_operands() => {
                cx.ir.data(type_inst).in_word(k)
            }
            O::TypeArray => cx.ir.data(type_inst).in_word(0),
            _ => 0,
        };
        let id = cx.find_declared_constant_id(c, component_type);
        if id == 0 {
            return None;
        }
        ids.push(id);
    }
    cx.constant_of(t, &ids)
}

/// `FoldExtractWithConstants`.
fn composite_extract(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> Option<ConstRef> {
    let mut c = (*cs.first()?)?;
    let n = cx.ir.data(i).num_in_operands();
    for k in 1..n {
        let index = cx.ir.data(i).in_word(k) as usize;
        match value(cx, c) {
            Const::Null(_) => {
                let t = result_ty(cx, i)?;
                return cx.constant_of(t, &[]);
            }
            Const::Composite(_, comps) => c = *comps.get(index)?,
            _ => return None,
        }
    }
    Some(c)
}

/// `FoldInsertWithConstants`: the composite with the object put in at the indexes. A
/// null composite on the way is first spelled out as nulls of its element type (not
/// for structs, nor for arrays, where spirv-opt reads the length wrongly); each
/// composite above the innermost one gets a new declaring instruction, as spirv-opt
/// builds one whether or not one exists.
fn composite_insert(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> Option<ConstRef> {
    let (object, mut composite) = ((*cs.first()?)?, (*cs.get(1)?)?);
    let n = cx.ir.data(i).num_in_operands();
    if n < 3 {
        return None;
    }
    let last = n - 1;
    let mut chain = Vec::new();
    let mut components = Vec::new();
    let mut ty = ty_of(cx, composite);
    for k in 2..n {
        ty = ty_of(cx, composite);
        let whole = match value(cx, composite) {
            Const::Null(t) => null_composite(cx, t)?,
            Const::Composite(..) => composite,
            _ => return None,
        };
        if k != last {
            chain.push(whole);
        }
        let Const::Composite(_, comps) = value(cx, whole) else {
            return None;
        };
        components = comps;
        composite = *components.get(cx.ir.data(i).in_word(k) as usize)?;
    }
    let at = cx.ir.data(i).in_word(last) as usize;
    let mut ids = Vec::with_capacity(components.len());
    for (k, &comp) in components.iter().enumerate() {
        ids.push(defining_id(cx, if k == at { object } else { comp })?);
    }
    let mut new = cx.constant_of(ty, &ids)?;
    for level in (1..=chain.len()).rev() {
        cx.build_constant_instruction(new, 0)?;
        let outer = chain[level - 1];
        let Const::Composite(t, comps) = value(cx, outer) else {
            return None;
        };
        let at = cx.ir.data(i).in_word(1 + level) as usize;
        let mut ids = Vec::with_capacity(comps.len());
        for (k, &comp) in comps.iter().enumerate() {
            let id = cx.find_declared_constant_id(if k == at { new } else { comp }, 0);
            if id == 0 {
                return None;
            }
            ids.push(id);
        }
        new = cx.constant_of(t, &ids)?;
    }
    Some(new)
}

/// `GetNullCompositeConstant`: a vector or matrix of its element type's null (declared
/// where missing).
fn null_composite(cx: &mut Context, t: TypeRef) -> Option<ConstRef> {
    let (elem, count) = match cx.types().ty(t).clone() {
        Ty::Vector { elem, count } => (elem, count),
        Ty::Matrix { col, count } => (col, count),
        _ => return None,
    };
    // The count is the module's claim: valid vectors and matrices have at most 16.
    if count > 1 << 16 {
        return None;
    }
    let null = cx.constant_of(elem, &[])?;
    let id = defining_id(cx, null)?;
    cx.constant_of(t, &vec![id; count as usize])
}

fn quantize_to_f16(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> Option<ConstRef> {
    fp_unary(cx, i, cs, quantize_scalar)
}

/// `FoldQuantizeToF16Scalar`: a 32-bit float through a half and back, both casts
/// rounding toward zero as spirv-opt's `HexFloat::castTo` does: too large is infinite,
/// too small a zero of the same sign, and a NaN keeps what spirv-opt's shifts leave of
/// its payload, with the bits its float `NaN_pattern` sets.
fn quantize_scalar(cx: &mut Context, t: TypeRef, c: ConstRef) -> Option<ConstRef> {
    let ct = ty_of(cx, c);
    if float_width(cx, ct)? != 32 {
        return None;
    }
    let bits = match value(cx, c) {
        Const::Scalar(_, w) => w.first().copied().unwrap_or(0),
        _ => 0,
    };
    let sign = bits & 0x8000_0000;
    let exp_field = (bits >> 23) & 0xff;
    let sig = bits & 0x7f_ffff;
    let out = if exp_field == 0xff && sig != 0 {
        let half_sig = (sig >> 13).max(1);
        // Widened back in the half's 16-bit integer type, so high bits are lost.
        let back = ((half_sig << 13) & 0xffff).max(1);
        sign | 0x7ff8_0000 | back
    } else if exp_field == 0 {
        // Zero, or a 32-bit denormal: far below the smallest half.
        sign
    } else {
        let e = exp_field as i32 - 127;
        if e > 15 {
            sign | 0x7f80_0000
        } else {
            // The half's spacing at this exponent (denormal below 2^-14).
            let k = e.max(-14) - 10;
            let quantum = f32::from_bits(((k + 127) as u32) << 23);
            let x = f32::from_bits(bits & 0x7fff_ffff);
            sign | ((x / quantum).trunc() * quantum).to_bits()
        }
    };
    cx.constant_of(t, &[out])
}

/// `FoldTranspose`: row k of the matrix as column k; a null matrix gives the result
/// type's null composite, a null column contributes its element type's nulls.
fn transpose(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> Option<ConstRef> {
    let t = result_ty(cx, i)?;
    if !float_folding_allowed(cx, i) && has_float(cx, t) {
        return None;
    }
    let m = (*cs.first()?)?;
    let Ty::Matrix { col: column_ty, .. } = cx.types().ty(t).clone() else {
        return None;
    };
    let columns = match value(cx, m) {
        Const::Null(_) => return null_composite(cx, t),
        Const::Composite(_, comps) => comps,
        _ => return None,
    };
    let first = ty_of(cx, *columns.first()?);
    let Ty::Vector { count: rows, .. } = cx.types().ty(first).clone() else {
        return None;
    };
    let rows = rows as usize;
    let mut row_ids: Vec<Vec<u32>> = Vec::new();
    // Column by column, as spirv-opt declares missing elements in this order.
    for &column in &columns {
        let column = match value(cx, column) {
            Const::Null(ct) => null_composite(cx, ct)?,
            _ => column,
        };
        let Const::Composite(_, comps) = value(cx, column) else {
            return None;
        };
        // Checked before sizing anything by the type's claimed row count.
        if comps.len() < rows {
            return None;
        }
        row_ids.resize_with(rows, Vec::new);
        for (ids, &comp) in row_ids.iter_mut().zip(&comps) {
            ids.push(defining_id(cx, comp)?);
        }
    }
    let mut ids = Vec::with_capacity(row_ids.len());
    for row in &row_ids {
        let c = cx.constant_of(column_ty, row)?;
        ids.push(defining_id(cx, c)?);
    }
    cx.constant_of(t, &ids)
}

/// `FoldVectorShuffleWithConstants`.
fn vector_shuffle(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> Option<ConstRef> {
    let (c1, c2) = ((*cs.first()?)?, (*cs.get(1)?)?);
    let a = vector_components(cx, c1)?;
    let b = vector_components(cx, c2)?;
    let n = cx.ir.data(i).num_in_operands();
    let mut ids = Vec::with_capacity(n.saturating_sub(2));
    for k in 2..n {
        let index = cx.ir.data(i).in_word(k);
        if index == u32::MAX {
            return None;
        }
        let index = index as usize;
        let comp = if index < a.len() {
            a[index]
        } else {
            *b.get(index - a.len())?
        };
        ids.push(defining_id(cx, comp)?);
    }
    let t = result_ty(cx, i)?;
    cx.constant_of(t, &ids)
}

/// Whether the result type has floating point (`HasFloatingPoint`).
fn has_float(cx: &mut Context, t: TypeRef) -> bool {
    let t = match cx.types().ty(t) {
        Ty::Vector { elem, .. } => *elem,
        _ => t,
    };
    matches!(cx.types().ty(t), Ty::Float { .. })
}

/// `FoldVectorTimesScalar`.
fn vector_times_scalar(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> Option<ConstRef> {
    let t = result_ty(cx, i)?;
    if !float_folding_allowed(cx, i) && has_float(cx, t) {
        return None;
    }
    let (c1, c2) = (*cs.first()?, *cs.get(1)?);
    if let Some(c1) = c1.filter(|&c| is_zero(cx, c)) {
        return Some(c1);
    }
    if c2.is_some_and(|c| is_zero(cx, c)) {
        return cx.constant_of(t, &[]);
    }
    let (c1, c2) = (c1?, c2?);
    let Ty::Vector { elem, .. } = cx.types().ty(t).clone() else {
        return None;
    };
    let width = float_width(cx, elem)?;
    let comps = vector_components(cx, c1)?;
    let mut ids = Vec::with_capacity(comps.len());
    for comp in comps {
        let e = match width {
            32 => {
                let v = get_f32(cx, comp) * get_f32(cx, c2);
                f32_const(cx, elem, v)?
            }
            64 => {
                let v = get_f64(cx, comp) * get_f64(cx, c2);
                f64_const(cx, elem, v)?
            }
            _ => return None,
        };
        ids.push(defining_id(cx, e)?);
    }
    cx.constant_of(t, &ids)
}

/// `FoldOpDotWithConstants`: 0 when either operand is a zero vector (a null, or every
/// component's words zero), else the sum of the products, each step rounded to the
/// element's width as spirv-opt rounds it.
fn dot(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> Option<ConstRef> {
    let t = result_ty(cx, i)?;
    let width = float_width(cx, t)?;
    if !float_folding_allowed(cx, i) {
        return None;
    }
    let mut zero = false;
    for &c in cs.iter().take(2).flatten() {
        if is_zero(cx, c) {
            zero = true;
            break;
        }
    }
    if zero {
        return match width {
            32 => f32_const(cx, t, 0.0),
            64 => f64_const(cx, t, 0.0),
            _ => None,
        };
    }
    let (a, b) = match (cs.first(), cs.get(1)) {
        (Some(Some(a)), Some(Some(b))) => (*a, *b),
        _ => return None,
    };
    let a = vector_components(cx, a)?;
    let b = vector_components(cx, b)?;
    let mut sum = match width {
        32 => f32_const(cx, t, 0.0)?,
        64 => f64_const(cx, t, 0.0)?,
        _ => return None,
    };
    for (k, &x) in a.iter().enumerate() {
        let product = fp_arith(cx, t, x, *b.get(k)?, |p, q| p * q, |p, q| p * q)?;
        sum = fp_arith(cx, t, sum, product, |p, q| p + q, |p, q| p + q)?;
    }
    Some(sum)
}

/// The components of a constant (a null's none), or none for a scalar.
fn composite_components(cx: &mut Context, c: ConstRef) -> Option<Vec<ConstRef>> {
    match value(cx, c) {
        Const::Composite(_, comps) => Some(comps),
        Const::Null(_) => Some(Vec::new()),
        _ => None,
    }
}

/// What `FoldVectorTimesMatrix` and `FoldMatrixTimesVector` share: the float checks, a
/// zero operand giving a vector of zeros, else the result type's element, its width and
/// the two constants.
fn matrix_product_inputs(
    cx: &mut Context,
    i: Inst,
    cs: &[Option<ConstRef>],
) -> Result<(TypeRef, TypeRef, u32, ConstRef, ConstRef), Option<ConstRef>> {
    let t = result_ty(cx, i).ok_or(None)?;
    if !float_folding_allowed(cx, i) && has_float(cx, t) {
        return Err(None);
    }
    let (c1, c2) = match (cs.first(), cs.get(1)) {
        (Some(Some(a)), Some(Some(b))) => (*a, *b),
        _ => return Err(None),
    };
    let Ty::Vector { elem, count } = cx.types().ty(t).clone() else {
        return Err(None);
    };
    let width = float_width(cx, elem).ok_or(None)?;
    if is_zero(cx, c1) || is_zero(cx, c2) {
        // One zero element per component, each declared as it is made.
        let words = vec![0; (width / 32) as usize];
        let mut ids = Vec::new();
        for _ in 0..count.min(1 << 16) {
            let e = cx.constant_of(elem, &words).ok_or(None)?;
            ids.push(defining_id(cx, e).ok_or(None)?);
        }
        return Err(cx.constant_of(t, &ids));
    }
    Ok((t, elem, width, c1, c2))
}

/// `FoldVectorTimesMatrix`: each component the dot product of the vector with a column
/// (a null column gives 0), summed in the element's width.
fn vector_times_matrix(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> Option<ConstRef> {
    let (t, elem, width, c1, c2) = match matrix_product_inputs(cx, i, cs) {
        Ok(inputs) => inputs,
        Err(done) => return done,
    };
    let Ty::Vector { count, .. } = cx.types().ty(t).clone() else {
        return None;
    };
    let v = vector_components(cx, c1)?;
    let columns = composite_components(cx, c2)?;
    // spirv-opt makes as many components as the result has for 32-bit floats and as
    // the matrix has columns for 64-bit ones (the same in a valid module).
    let n = if width == 32 {
        count as usize
    } else {
        columns.len()
    };
    let mut ids = Vec::with_capacity(n.min(columns.len()));
    for k in 0..n {
        let column = composite_components(cx, *columns.get(k)?)?;
        let e = match width {
            32 => {
                let mut sum = 0.0f32;
                for (j, &x) in column.iter().enumerate() {
                    sum += get_f32(cx, *v.get(j)?) * get_f32(cx, x);
                }
                f32_const(cx, elem, sum)?
            }
            64 => {
                let mut sum = 0.0f64;
                for (j, &x) in column.iter().enumerate() {
                    sum += get_f64(cx, *v.get(j)?) * get_f64(cx, x);
                }
                f64_const(cx, elem, sum)?
            }
            _ => return None,
        };
        ids.push(defining_id(cx, e)?);
    }
    cx.constant_of(t, &ids)
}

/// `FoldMatrixTimesVector`: component k the sum over the columns of the column's
/// component k times the vector's component (a null column adds nothing).
fn matrix_times_vector(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> Option<ConstRef> {
    let (t, elem, width, c1, c2) = match matrix_product_inputs(cx, i, cs) {
        Ok(inputs) => inputs,
        Err(done) => return done,
    };
    let Ty::Vector { count, .. } = cx.types().ty(t).clone() else {
        return None;
    };
    let columns = composite_components(cx, c1)?;
    let v = vector_components(cx, c2)?;
    let mut column_values = Vec::with_capacity(columns.len());
    for &c in &columns {
        column_values.push(composite_components(cx, c)?);
    }
    let mut ids = Vec::with_capacity(column_values.first().map_or(0, Vec::len));
    for k in 0..count as usize {
        let e = match width {
            32 => {
                let mut sum = 0.0f32;
                for (j, column) in column_values.iter().enumerate() {
                    if !column.is_empty() {
                        sum += get_f32(cx, *column.get(k)?) * get_f32(cx, *v.get(j)?);
                    }
                }
                f32_const(cx, elem, sum)?
            }
            64 => {
                let mut sum = 0.0f64;
                for (j, column) in column_values.iter().enumerate() {
                    if !column.is_empty() {
                        sum += get_f64(cx, *column.get(k)?) * get_f64(cx, *v.get(j)?);
                    }
                }
                f64_const(cx, elem, sum)?
            }
            _ => return None,
        };
        ids.push(defining_id(cx, e)?);
    }
    cx.constant_of(t, &ids)
}

// ---- unary and binary, scalar or vector ----

type Unary = fn(&mut Context, TypeRef, ConstRef) -> Option<ConstRef>;
type Binary = fn(&mut Context, TypeRef, ConstRef, ConstRef) -> Option<ConstRef>;

/// `FoldUnaryOp`: the scalar rule, or the rule per component of a vector.
fn unary(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>], f: Unary) -> Option<ConstRef> {
    let t = result_ty(cx, i)?;
    let arg = if cx.ir.opcode(i) == O::ExtInst {
        *cs.get(1)?
    } else {
        *cs.first()?
    }?;
    let Ty::Vector { elem, .. } = cx.types().ty(t).clone() else {
        return f(cx, t, arg);
    };
    let comps = vector_components(cx, arg)?;
    let mut results = Vec::with_capacity(comps.len());
    for comp in comps {
        results.push(f(cx, elem, comp)?);
    }
    let mut ids = Vec::with_capacity(results.len());
    for r in results {
        ids.push(defining_id(cx, r)?);
    }
    cx.constant_of(t, &ids)
}

/// `FoldBinaryOp` / `FoldFPBinaryOp`: the scalar rule, or per component.
fn binary(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>], f: Binary) -> Option<ConstRef> {
    let t = result_ty(cx, i)?;
    let (a, b) = if cx.ir.opcode(i) == O::ExtInst {
        (*cs.get(1)?, *cs.get(2)?)
    } else {
        (*cs.first()?, *cs.get(1)?)
    };
    let (a, b) = (a?, b?);
    let Ty::Vector { elem, .. } = cx.types().ty(t).clone() else {
        return f(cx, t, a, b);
    };
    let ac = vector_components(cx, a)?;
    let bc = vector_components(cx, b)?;
    let mut results = Vec::with_capacity(ac.len());
    for (k, &x) in ac.iter().enumerate() {
        results.push(f(cx, elem, x, *bc.get(k)?)?);
    }
    let mut ids = Vec::with_capacity(results.len());
    for r in results {
        ids.push(defining_id(cx, r)?);
    }
    cx.constant_of(t, &ids)
}

fn fp_unary(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>], f: Unary) -> Option<ConstRef> {
    if !float_folding_allowed(cx, i) {
        return None;
    }
    unary(cx, i, cs, f)
}

fn fp_binary(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>], f: Binary) -> Option<ConstRef> {
    if !float_folding_allowed(cx, i) {
        return None;
    }
    binary(cx, i, cs, f)
}

/// `FOLD_FPARITH_OP`: the operation in the type's width.
fn fp_arith(
    cx: &mut Context,
    t: TypeRef,
    a: ConstRef,
    b: ConstRef,
    f32op: fn(f32, f32) -> f32,
    f64op: fn(f64, f64) -> f64,
) -> Option<ConstRef> {
    match float_width(cx, t)? {
        32 => {
            let v = f32op(get_f32(cx, a), get_f32(cx, b));
            f32_const(cx, t, v)
        }
        64 => {
            let v = f64op(get_f64(cx, a), get_f64(cx, b));
            f64_const(cx, t, v)
        }
        _ => None,
    }
}

fn f_add(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> Option<ConstRef> {
    fp_binary(cx, i, cs, |cx, t, a, b| {
        fp_arith(cx, t, a, b, |x, y| x + y, |x, y| x + y)
    })
}

fn f_sub(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> Option<ConstRef> {
    fp_binary(cx, i, cs, |cx, t, a, b| {
        fp_arith(cx, t, a, b, |x, y| x - y, |x, y| x - y)
    })
}

fn f_mul(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> Option<ConstRef> {
    fp_binary(cx, i, cs, |cx, t, a, b| {
        fp_arith(cx, t, a, b, |x, y| x * y, |x, y| x * y)
    })
}

/// The value as a double (`GetValueAsDouble`).
pub(crate) fn as_double(cx: &mut Context, c: ConstRef) -> f64 {
    let t = ty_of(cx, c);
    match float_width(cx, t) {
        Some(64) => get_f64(cx, c),
        _ => f64::from(get_f32(cx, c)),
    }
}

/// `NegateFPConst`.
fn negate_fp(cx: &mut Context, t: TypeRef, c: ConstRef) -> Option<ConstRef> {
    match float_width(cx, t)? {
        32 => {
            let v = -get_f32(cx, c);
            f32_const(cx, t, v)
        }
        64 => {
            let v = -get_f64(cx, c);
            f64_const(cx, t, v)
        }
        _ => None,
    }
}

/// `FoldFPScalarDivideByZero`: 0/0 is a quiet NaN, x/0 an infinity of x's sign.
fn divide_by_zero(cx: &mut Context, t: TypeRef, num: ConstRef) -> Option<ConstRef> {
    let w = float_width(cx, t)?;
    if is_zero(cx, num) {
        return match w {
            32 => f32_const(cx, t, f32::from_bits(0x7fc0_0000)),
            64 => f64_const(cx, t, f64::from_bits(0x7ff8_0000_0000_0000)),
            _ => None,
        };
    }
    let inf = match w {
        32 => f32_const(cx, t, f32::INFINITY)?,
        64 => f64_const(cx, t, f64::INFINITY)?,
        _ => return None,
    };
    if as_double(cx, num) < 0.0 {
        return negate_fp(cx, t, inf);
    }
    Some(inf)
}

/// `FoldScalarFPDivide`.
fn fp_divide(cx: &mut Context, t: TypeRef, num: ConstRef, den: ConstRef) -> Option<ConstRef> {
    if is_zero(cx, den) {
        return divide_by_zero(cx, t, num);
    }
    let dt = ty_of(cx, den);
    let w = float_width(cx, dt)?;
    if w != 32 && w != 64 {
        return None;
    }
    let is_float = matches!(value(cx, den), Const::Scalar(..));
    if is_float && as_double(cx, den) == 0.0 {
        // -0.0: the division by zero with the opposite sign.
        let r = divide_by_zero(cx, t, num)?;
        return negate_fp(cx, t, r);
    }
    fp_arith(cx, t, num, den, |x, y| x / y, |x, y| x / y)
}

fn f_div(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> Option<ConstRef> {
    fp_binary(cx, i, cs, fp_divide)
}

/// `FOLD_FPCMP_OP`: ordered comparisons are false on a NaN, unordered ones true.
fn fp_compare(
    cx: &mut Context,
    t: TypeRef,
    a: ConstRef,
    b: ConstRef,
    ordered: bool,
    op: fn(f64, f64) -> bool,
) -> Option<ConstRef> {
    let at = ty_of(cx, a);
    let (x, y) = match float_width(cx, at)? {
        // f32 compared as f32 and as f64 agree (widening is exact).
        32 => (f64::from(get_f32(cx, a)), f64::from(get_f32(cx, b))),
        64 => (get_f64(cx, a), get_f64(cx, b)),
        _ => return None,
    };
    let unordered = x.is_nan() || y.is_nan();
    let r = if ordered {
        !unordered && op(x, y)
    } else {
        unordered || op(x, y)
    };
    cx.constant_of(t, &[u32::from(r)])
}

macro_rules! fp_compares {
    ($($name:ident, $ord:expr, $op:expr;)*) => {$(
        fn $name(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> Option<ConstRef> {
            fp_binary(cx, i, cs, |cx, t, a, b| fp_compare(cx, t, a, b, $ord, $op))
        }
    )*};
}

fp_compares! {
    f_ord_equal, true, |x, y| x == y;
    f_unord_equal, false, |x, y| x == y;
    f_ord_not_equal, true, |x, y| x != y;
    f_unord_not_equal, false, |x, y| x != y;
    f_ord_less, true, |x, y| x < y;
    f_unord_less, false, |x, y| x < y;
    f_ord_greater, true, |x, y| x > y;
    f_unord_greater, false, |x, y| x > y;
    f_ord_less_equal, true, |x, y| x <= y;
    f_unord_less_equal, false, |x, y| x <= y;
    f_ord_greater_equal, true, |x, y| x >= y;
    f_unord_greater_equal, false, |x, y| x >= y;
}

/// `FoldFClampFeedingCompare`: an ordering comparison of a constant with an `FClamp`
/// whose bound puts the clamped value on one side of it. As spirv-opt does, the
/// extended instruction's set is not looked at, and each bound that decides the
/// comparison overrides one found before it.
fn clamp_feeding_compare(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> Option<ConstRef> {
    const FCLAMP_NUMBER: u32 = 43;
    if !float_folding_allowed(cx, i) || cs.len() < 2 {
        return None;
    }
    let (lhs, rhs) = (cs[0], cs[1]);
    let clamped = cx.ir.data(i).in_word(usize::from(lhs.is_some()));
    let clamp = cx.get_def(clamped)?;
    let clamp_type = cx.ir.type_id(clamp);
    let t = cx.types().get(clamp_type)?;
    if !matches!(float_width(cx, t), Some(32 | 64)) {
        return None;
    }
    let d = cx.ir.data(clamp);
    if cx.ir.opcode(clamp) != O::ExtInst || d.num_in_operands() < 5 || d.in_word(1) != FCLAMP_NUMBER
    {
        return None;
    }
    if lhs.is_none() && rhs.is_none() {
        return None;
    }
    let (min_id, max_id) = (d.in_word(3), d.in_word(4));
    let max = cx.constants().find_declared(max_id);
    let min = cx.constants().find_declared(min_id);
    let bound = |cx: &mut Context, c: Option<ConstRef>| c.map(|c| as_double(cx, c));
    let (lhs, rhs) = (bound(cx, lhs), bound(cx, rhs));
    let (min, max) = (bound(cx, min), bound(cx, max));
    // `<` and `>=` decide on a constant below `min` or at or above `max`; `<=` and `>`
    // on one at or below `min` or above `max`. `less` is the answer when the constant
    // on the left is below the clamp's range (or the one on the right above it).
    let (strict, less) = match cx.ir.opcode(i) {
        O::FOrdLessThan | O::FUnordLessThan => (true, true),
        O::FOrdGreaterThanEqual | O::FUnordGreaterThanEqual => (true, false),
        O::FOrdLessThanEqual | O::FUnordLessThanEqual => (false, true),
        O::FOrdGreaterThan | O::FUnordGreaterThan => (false, false),
        _ => return None,
    };
    let below = |a: f64, b: f64| if strict { a < b } else { a <= b };
    let above = |a: f64, b: f64| if strict { a >= b } else { a > b };
    let mut found = None;
    if let Some(c) = lhs {
        if min.is_some_and(|m| below(c, m)) {
            found = Some(less);
        }
        if max.is_some_and(|m| above(c, m)) {
            found = Some(!less);
        }
    }
    if let Some(c) = rhs {
        if max.is_some_and(|m| below(m, c)) {
            found = Some(less);
        }
        if min.is_some_and(|m| above(m, c)) {
            found = Some(!less);
        }
    }
    let t = result_ty(cx, i)?;
    cx.constant_of(t, &[u32::from(found?)])
}

fn f_negate(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> Option<ConstRef> {
    fp_unary(cx, i, cs, negate_fp)
}

/// `NegateIntConst`: a null stays itself.
fn negate_int(cx: &mut Context, t: TypeRef, c: ConstRef) -> Option<ConstRef> {
    if matches!(value(cx, c), Const::Null(_)) {
        return Some(c);
    }
    let (width, signed) = int_type(cx, t)?;
    let v = sext(cx, c).wrapping_neg() as u64;
    // `GetIntConst`: the type manager's integer type of that width and sign.
    let it = cx
        .types()
        .find_plain(Ty::Int { width, signed })
        .unwrap_or(t);
    let v = if signed && width < 64 && width > 0 {
        let shift = 64 - width;
        ((v << shift) as i64 >> shift) as u64
    } else if width < 64 {
        v & ((1u64 << width) - 1)
    } else {
        v
    };
    if width <= 32 {
        cx.constant_of(it, &[v as u32])
    } else {
        cx.constant_of(it, &[v as u32, (v >> 32) as u32])
    }
}

fn s_negate(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> Option<ConstRef> {
    unary(cx, i, cs, negate_int)
}

fn s_convert(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> Option<ConstRef> {
    unary(cx, i, cs, |cx, t, a| {
        let v = sext(cx, a) as u64;
        integer_constant(cx, t, v)
    })
}

fn u_convert(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> Option<ConstRef> {
    unary(cx, i, cs, |cx, t, a| {
        let at = ty_of(cx, a);
        let w = int_type(cx, at)?.0;
        let mut v = zext(cx, a);
        if w < 64 {
            v &= (1u64 << w) - 1;
        }
        integer_constant(cx, t, v)
    })
}

/// x86-64's truncating conversions, which spirv-opt's casts compile to: out of range
/// or NaN gives the "integer indefinite" value (`i32::MIN`, `i64::MIN`).
fn cvtt32(v: f64) -> i32 {
    if !(-2147483648.0..2147483648.0).contains(&v) {
        i32::MIN
    } else {
        v as i32
    }
}

fn cvtt64(v: f64) -> i64 {
    if !(-9.223_372_036_854_776e18..9.223_372_036_854_776e18).contains(&v) {
        i64::MIN
    } else {
        v as i64
    }
}

/// `FoldFToIOp`: 32-bit results only.
fn f_to_i_scalar(cx: &mut Context, t: TypeRef, a: ConstRef) -> Option<ConstRef> {
    let (width, signed) = int_type(cx, t)?;
    if width != 32 {
        return None;
    }
    let at = ty_of(cx, a);
    let v = match float_width(cx, at)? {
        32 => f64::from(get_f32(cx, a)),
        64 => get_f64(cx, a),
        _ => return None,
    };
    let r = if signed {
        cvtt32(v) as u32
    } else {
        cvtt64(v) as u32
    };
    cx.constant_of(t, &[r])
}

fn f_to_i(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> Option<ConstRef> {
    fp_unary(cx, i, cs, f_to_i_scalar)
}

/// `FoldIToFOp`: 32-bit operands only.
fn i_to_f_scalar(cx: &mut Context, t: TypeRef, a: ConstRef) -> Option<ConstRef> {
    let at = ty_of(cx, a);
    let (width, signed) = int_type(cx, at)?;
    if width != 32 {
        return None;
    }
    let u = match value(cx, a) {
        Const::Scalar(_, w) => w.first().copied().unwrap_or(0),
        _ => 0,
    };
    match float_width(cx, t)? {
        32 => {
            let v = if signed { u as i32 as f32 } else { u as f32 };
            f32_const(cx, t, v)
        }
        64 => {
            let v = if signed {
                f64::from(u as i32)
            } else {
                f64::from(u)
            };
            f64_const(cx, t, v)
        }
        _ => None,
    }
}

fn i_to_f(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> Option<ConstRef> {
    fp_unary(cx, i, cs, i_to_f_scalar)
}

/// `FoldBinaryIntegerOperation`: on the 64-bit extended values.
fn int_op(
    cx: &mut Context,
    t: TypeRef,
    a: ConstRef,
    b: ConstRef,
    signed: bool,
    op: fn(u64, u64) -> u64,
) -> Option<ConstRef> {
    let (x, y) = if signed {
        (sext(cx, a) as u64, sext(cx, b) as u64)
    } else {
        (zext(cx, a), zext(cx, b))
    };
    integer_constant(cx, t, op(x, y))
}

macro_rules! int_ops {
    ($($name:ident, $signed:expr, $op:expr;)*) => {$(
        fn $name(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> Option<ConstRef> {
            binary(cx, i, cs, |cx, t, a, b| {
                int_type(cx, t)?;
                int_op(cx, t, a, b, $signed, $op)
            })
        }
    )*};
}

int_ops! {
    i_add, false, |a, b| a.wrapping_add(b);
    i_sub, false, |a, b| a.wrapping_sub(b);
    i_mul, false, |a, b| a.wrapping_mul(b);
    u_div, false, |a, b| a.checked_div(b).unwrap_or(0);
    // i64::MIN / -1 traps in spirv-opt (x86 idiv); it wraps here.
    s_div, true, |a, b| if b != 0 { (a as i64).wrapping_div(b as i64) as u64 } else { 0 };
    u_mod, false, |a, b| a.checked_rem(b).unwrap_or(0);
    s_rem, true, |a, b| if b != 0 { (a as i64).wrapping_rem(b as i64) as u64 } else { 0 };
    s_mod, true, |a, b| {
        if b == 0 {
            return 0;
        }
        let (a, b) = (a as i64, b as i64);
        let mut r = a.wrapping_rem(b);
        if (b < 0) != (r < 0) {
            r = r.wrapping_add(b);
        }
        r as u64
    };
}

// ---- GLSL.std.450 ----

/// GLSL.std.450 instruction numbers.
const FMIN: u32 = 37;
const UMIN: u32 = 38;
const SMIN: u32 = 39;
const FMAX: u32 = 40;
const UMAX: u32 = 41;
const SMAX: u32 = 42;
const FCLAMP: u32 = 43;
const UCLAMP: u32 = 44;
const SCLAMP: u32 = 45;

const SIN: u32 = 13;
const COS: u32 = 14;
const TAN: u32 = 15;
const ASIN: u32 = 16;
const ACOS: u32 = 17;
const ATAN: u32 = 18;
const ATAN2: u32 = 25;
const POW: u32 = 26;
const EXP: u32 = 27;
const LOG: u32 = 28;
const EXP2: u32 = 29;
const LOG2: u32 = 30;
const SQRT: u32 = 31;

/// `FoldFTranscendentalUnary`: the C library's double function (Rust's `f64`
/// functions call the same one), a 32-bit operand widened first and the result
/// rounded back.
fn transcendental1(
    cx: &mut Context,
    t: TypeRef,
    a: ConstRef,
    f: fn(f64) -> f64,
) -> Option<ConstRef> {
    let at = ty_of(cx, a);
    match float_width(cx, at)? {
        32 => {
            let v = f(f64::from(get_f32(cx, a))) as f32;
            f32_const(cx, t, v)
        }
        64 => {
            let v = f(get_f64(cx, a));
            f64_const(cx, t, v)
        }
        _ => None,
    }
}

/// `FoldFTranscendentalBinary`.
fn transcendental2(
    cx: &mut Context,
    t: TypeRef,
    a: ConstRef,
    b: ConstRef,
    f: fn(f64, f64) -> f64,
) -> Option<ConstRef> {
    let at = ty_of(cx, a);
    match float_width(cx, at)? {
        32 => {
            let v = f(f64::from(get_f32(cx, a)), f64::from(get_f32(cx, b))) as f32;
            f32_const(cx, t, v)
        }
        64 => {
            let v = f(get_f64(cx, a), get_f64(cx, b));
            f64_const(cx, t, v)
        }
        _ => None,
    }
}

const FMIX: u32 = 46;

/// `FoldFMix`: `x * (1 - a) + y * a`, each step folded as `FoldFPBinaryOp` does
/// (the components of a vector step declared as they come). spirv-opt builds its
/// vector of ones with four components whatever the vector's size and then reads as
/// many of `a`'s, past the end of a shorter vector; here the steps stop at the
/// shorter operand.
fn fmix(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> Option<ConstRef> {
    if !float_folding_allowed(cx, i) {
        return None;
    }
    let (x, y, a) = ((*cs.get(1)?)?, (*cs.get(2)?)?, (*cs.get(3)?)?);
    let xt = ty_of(cx, x);
    let (base, vector) = match cx.types().ty(xt).clone() {
        Ty::Vector { elem, .. } => (elem, true),
        _ => (xt, false),
    };
    let mut one = match float_width(cx, base)? {
        32 => f32_const(cx, base, 1.0)?,
        64 => f64_const(cx, base, 1.0)?,
        _ => return None,
    };
    if vector {
        let id = defining_id(cx, one)?;
        one = cx.constant_of(xt, &[id; 4])?;
    }
    let t = result_ty(cx, i)?;
    let sub = |cx: &mut Context, t, a, b| fp_arith(cx, t, a, b, |x, y| x - y, |x, y| x - y);
    let mul = |cx: &mut Context, t, a, b| fp_arith(cx, t, a, b, |x, y| x * y, |x, y| x * y);
    let add = |cx: &mut Context, t, a, b| fp_arith(cx, t, a, b, |x, y| x + y, |x, y| x + y);
    let temp1 = fp_binary_of(cx, t, one, a, sub)?;
    let temp2 = fp_binary_of(cx, t, x, temp1, mul)?;
    let temp3 = fp_binary_of(cx, t, y, a, mul)?;
    fp_binary_of(cx, t, temp2, temp3, add)
}

/// The free `FoldFPBinaryOp`: the scalar rule on `a` and `b` of type `t`, or per
/// component of a vector (as many as `a` has, here no more than `b` has).
fn fp_binary_of(
    cx: &mut Context,
    t: TypeRef,
    a: ConstRef,
    b: ConstRef,
    f: Binary,
) -> Option<ConstRef> {
    let Ty::Vector { elem, .. } = cx.types().ty(t).clone() else {
        return f(cx, t, a, b);
    };
    let ac = vector_components(cx, a)?;
    let bc = vector_components(cx, b)?;
    let mut results = Vec::with_capacity(ac.len());
    for (&p, &q) in ac.iter().zip(&bc) {
        results.push(f(cx, elem, p, q)?);
    }
    let mut ids = Vec::with_capacity(results.len());
    for r in results {
        ids.push(defining_id(cx, r)?);
    }
    cx.constant_of(t, &ids)
}

/// One rule per GLSL.std.450 transcendental function, as spirv-opt registers them
/// (`FoldFPUnaryOp` / `FoldFPBinaryOp` of the function).
macro_rules! transcendental_rules {
    ($($name:ident: $f:expr;)*) => {$(
        fn $name(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> Option<ConstRef> {
            fp_unary(cx, i, cs, |cx, t, a| transcendental1(cx, t, a, $f))
        }
    )*};
}
transcendental_rules! {
    sin: f64::sin;
    cos: f64::cos;
    tan: f64::tan;
    asin: f64::asin;
    acos: f64::acos;
    atan: f64::atan;
    exp: f64::exp;
    log: f64::ln;
    exp2: f64::exp2;
    log2: f64::log2;
    sqrt: f64::sqrt;
}

fn atan2(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> Option<ConstRef> {
    fp_binary(cx, i, cs, |cx, t, a, b| {
        transcendental2(cx, t, a, b, f64::atan2)
    })
}

fn pow(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> Option<ConstRef> {
    fp_binary(cx, i, cs, |cx, t, a, b| {
        transcendental2(cx, t, a, b, f64::powf)
    })
}

/// The rules for an extended instruction of GLSL.std.450 (spirv-opt's `ext_rules_`,
/// keyed by the module's first import of that set).
fn ext_rules_for(cx: &mut Context, i: Inst) -> Option<&'static [ConstRule]> {
    let d = cx.ir.data(i);
    if d.num_in_operands() < 2 {
        return None;
    }
    let (set, number) = (d.in_word(0), d.in_word(1));
    let glsl = cx.ir.ext_inst_import_id("GLSL.std.450");
    if glsl == 0 || set != glsl {
        return None;
    }
    Some(match number {
        FMIN | UMIN | SMIN => &[ext_min],
        FMAX | UMAX | SMAX => &[ext_max],
        FCLAMP | UCLAMP | SCLAMP => &[clamp1, clamp2, clamp3],
        SIN => &[sin],
        COS => &[cos],
        TAN => &[tan],
        ASIN => &[asin],
        ACOS => &[acos],
        ATAN => &[atan],
        EXP => &[exp],
        LOG => &[log],
        EXP2 => &[exp2],
        LOG2 => &[log2],
        SQRT => &[sqrt],
        ATAN2 => &[atan2],
        POW => &[pow],
        FMIX => &[fmix],
        _ => return None,
    })
}

/// `FoldMin` / `FoldMax`: one of the two constants (not a new one).
fn min_max(cx: &mut Context, t: TypeRef, a: ConstRef, b: ConstRef, max: bool) -> Option<ConstRef> {
    let less = match cx.types().ty(t).clone() {
        Ty::Int { width, signed } if width <= 32 => {
            let (x, y) = (int_word(cx, a), int_word(cx, b));
            if signed {
                ((x as i32) < (y as i32), (x as i32) > (y as i32))
            } else {
                (x < y, x > y)
            }
        }
        Ty::Int { width: 64, signed } => {
            let (x, y) = (zext(cx, a), zext(cx, b));
            if signed {
                ((x as i64) < (y as i64), (x as i64) > (y as i64))
            } else {
                (x < y, x > y)
            }
        }
        Ty::Float { width: 32, .. } => {
            let (x, y) = (get_f32(cx, a), get_f32(cx, b));
            (x < y, x > y)
        }
        Ty::Float { width: 64, .. } => {
            let (x, y) = (get_f64(cx, a), get_f64(cx, b));
            (x < y, x > y)
        }
        _ => return None,
    };
    let pick_a = if max { less.1 } else { less.0 };
    Some(if pick_a { a } else { b })
}

fn int_word(cx: &mut Context, c: ConstRef) -> u32 {
    match cx.constants().value(c) {
        Const::Scalar(_, w) => w.first().copied().unwrap_or(0),
        _ => 0,
    }
}

fn fold_min(cx: &mut Context, t: TypeRef, a: ConstRef, b: ConstRef) -> Option<ConstRef> {
    min_max(cx, t, a, b, false)
}

fn fold_max(cx: &mut Context, t: TypeRef, a: ConstRef, b: ConstRef) -> Option<ConstRef> {
    min_max(cx, t, a, b, true)
}

/// `FoldFPBinaryOp` on two given constants (no floating-point check: the clamp rules
/// call it directly).
fn binary_on(cx: &mut Context, i: Inst, a: ConstRef, b: ConstRef, f: Binary) -> Option<ConstRef> {
    let t = result_ty(cx, i)?;
    let Ty::Vector { elem, .. } = cx.types().ty(t).clone() else {
        return f(cx, t, a, b);
    };
    let ac = vector_components(cx, a)?;
    let bc = vector_components(cx, b)?;
    let mut results = Vec::with_capacity(ac.len());
    for (k, &x) in ac.iter().enumerate() {
        results.push(f(cx, elem, x, *bc.get(k)?)?);
    }
    let mut ids = Vec::with_capacity(results.len());
    for r in results {
        ids.push(defining_id(cx, r)?);
    }
    cx.constant_of(t, &ids)
}

fn ext_min(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> Option<ConstRef> {
    fp_binary(cx, i, cs, fold_min)
}

fn ext_max(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> Option<ConstRef> {
    fp_binary(cx, i, cs, fold_max)
}

/// `FoldClamp1`: all three constant: min(max(x, lo), hi).
fn clamp1(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> Option<ConstRef> {
    let (x, lo, hi) = ((*cs.get(1)?)?, (*cs.get(2)?)?, (*cs.get(3)?)?);
    let t = binary_on(cx, i, x, lo, fold_max)?;
    binary_on(cx, i, t, hi, fold_min)
}

/// `FoldClamp2`: x and the lower bound constant, x at or below it: the bound.
fn clamp2(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> Option<ConstRef> {
    let (x, lo) = ((*cs.get(1)?)?, (*cs.get(2)?)?);
    let t = binary_on(cx, i, x, lo, fold_max)?;
    (t == lo).then_some(lo)
}

/// `FoldClamp3`: x and the upper bound constant, x at or above it: the bound.
fn clamp3(cx: &mut Context, i: Inst, cs: &[Option<ConstRef>]) -> Option<ConstRef> {
    let (x, hi) = ((*cs.get(1)?)?, (*cs.get(3)?)?);
    let t = binary_on(cx, i, x, hi, fold_min)?;
    (t == hi).then_some(hi)
}
