//! spirv-opt's instruction folder (`InstructionFolder`, `source/opt/fold.cpp`): an
//! instruction whose value is a constant becomes an `OpCopyObject` of that constant
//! (made at the end of the types and values where missing), and an instruction a
//! folding rule simplifies is rewritten in place. Two concepts, two files: the
//! constant-folding rules ([`const_rules`]) compute a value from constant operands;
//! the instruction-folding rules ([`rules`]) rewrite an instruction from the shape of
//! its operands. Each opcode's rules run in spirv-opt's order, the first that applies
//! winning; the 32-bit integer and boolean arithmetic spirv-opt folds word by word
//! (`FoldScalars`, `FoldVectors`, `FoldIntegerOpToConstant`) is here.

pub mod const_rules;
pub mod rules;

use crate::analysis::constants::{Const, ConstRef};
use crate::analysis::types::{Ty, TypeRef};
use crate::context::Context;
use crate::ir::{Inst, Operand};
use spirv_core::spv::Opcode as O;

/// A constant-folding rule: the instruction and the constants of its in-ids (`None`
/// where an in-id is not a constant), giving the folded value.
pub type ConstRule = fn(&mut Context, Inst, &[Option<ConstRef>]) -> Option<ConstRef>;

/// An instruction-folding rule: the instruction and the constants of its in-operands
/// (`None` for a literal or a non-constant id); true when it rewrote the instruction.
pub type Rule = fn(&mut Context, Inst, &[Option<ConstRef>]) -> bool;

/// How many times one instruction is refolded at most (spirv-opt loops until no rule
/// applies; every rule it has shrinks the instruction or ends in an `OpCopyObject`,
/// so this bound is only a guard against a rule cycle).
const MAX_REFOLDS: usize = 64;

/// The rule sets an `InstructionFolder` is built with: spirv-opt's default
/// `FoldingRules` and `ConstantFoldingRules`, or a pass's own (interpolate-fixup's).
#[derive(Clone, Copy)]
pub struct RuleSet {
    /// The instruction-folding rules for an instruction.
    pub rules: fn(&mut Context, Inst) -> &'static [Rule],
    /// The constant-folding rules for an instruction, `None` where it has none.
    pub const_rules: fn(&mut Context, Inst) -> Option<&'static [ConstRule]>,
}

/// The default folder's rules.
pub const DEFAULT_RULES: RuleSet = RuleSet {
    rules: rules::rules_for,
    const_rules: const_rules::rules_for,
};

/// Folds `i` in place as spirv-opt's `InstructionFolder::FoldInstruction` does:
/// repeatedly, until it is an `OpCopyObject` or no rule applies. True if it changed.
pub fn fold_instruction(cx: &mut Context, i: Inst) -> bool {
    fold_instruction_with(cx, i, &DEFAULT_RULES)
}

/// [`fold_instruction`] with a folder built on `set` instead of the default rules.
pub fn fold_instruction_with(cx: &mut Context, i: Inst, set: &RuleSet) -> bool {
    let mut modified = false;
    for _ in 0..MAX_REFOLDS {
        if cx.ir.opcode(i) == O::CopyObject || !fold_once(cx, i, set) {
            break;
        }
        modified = true;
    }
    modified
}

/// `FoldInstructionInternal`.
fn fold_once(cx: &mut Context, i: Inst, set: &RuleSet) -> bool {
    if let Some(folded) = fold_to_constant_with(cx, i, &|id| id, set.const_rules) {
        let id = cx.ir.result_id(folded);
        let d = cx.ir.data_mut(i);
        d.set_opcode(O::CopyObject);
        d.set_in_operands(&[Operand::id(id)]);
        return true;
    }
    let constants = operand_constants(cx, i);
    for rule in (set.rules)(cx, i) {
        if rule(cx, i, &constants) {
            return true;
        }
    }
    false
}

/// The constants of `i`'s in-operands, `None` for literals and non-constants
/// (`ConstantManager::GetOperandConstants`).
pub fn operand_constants(cx: &mut Context, i: Inst) -> Vec<Option<ConstRef>> {
    let d = cx.ir.data(i);
    let n = d.num_in_operands();
    let first = d.num_operands() - n;
    let mut ids = Vec::with_capacity(n);
    for k in 0..n {
        let is_id = d.kind(first + k) == Some(crate::ir::Kind::Id);
        ids.push(is_id.then(|| d.in_word(k)));
    }
    let consts = cx.constants();
    ids.into_iter()
        .map(|id| id.and_then(|id| consts.find_declared(id)))
        .collect()
}

/// The constant instruction `i` folds to, made where missing
/// (`FoldInstructionToConstant`); `id_map` maps each in-id first (the propagator's
/// lattice values; the identity otherwise).
#[allow(dead_code)] // for the propagator (`--ccp`); the folder itself takes its rule set
pub fn fold_to_constant(cx: &mut Context, i: Inst, id_map: &dyn Fn(u32) -> u32) -> Option<Inst> {
    fold_to_constant_with(cx, i, id_map, const_rules::rules_for)
}

/// [`fold_to_constant`] with `const_rules` for the constant-folding rules.
fn fold_to_constant_with(
    cx: &mut Context,
    i: Inst,
    id_map: &dyn Fn(u32) -> u32,
    const_rules: fn(&mut Context, Inst) -> Option<&'static [ConstRule]>,
) -> Option<Inst> {
    let op = cx.ir.opcode(i);
    let by_scalar = foldable_by_scalar(cx, i);
    let by_vector = !by_scalar && foldable_by_vector(cx, i);
    let rules = const_rules(cx, i);
    if !by_scalar && !by_vector && rules.is_none() {
        return None;
    }
    let mut in_ids = Vec::new();
    cx.ir.data(i).for_each_in_id(|id| in_ids.push(id_map(id)));
    let constants: Vec<Option<ConstRef>> = {
        let c = cx.constants();
        in_ids.iter().map(|&id| c.find_declared(id)).collect()
    };
    let missing = constants.iter().any(Option::is_none);
    let type_id = cx.ir.type_id(i);
    for rule in rules.unwrap_or(&[]) {
        if let Some(c) = rule(cx, i, &constants) {
            let inst = cx.get_defining_instruction(c, type_id)?;
            if cx.ir.type_id(inst) != type_id {
                return None;
            }
            cx.update_def_use(inst);
            return Some(inst);
        }
    }
    let ty = cx.types().get(type_id)?;
    if by_scalar {
        let value = if !missing {
            let words: Vec<u32> = constants
                .iter()
                .map(|c| scalar_word(cx, c.expect("present")))
                .collect();
            Some(operate_words(op, &words))
        } else {
            fold_integer_op(cx, i, id_map)
        }?;
        let c = cx.constant_of(ty, &[value])?;
        return cx.get_defining_instruction(c, type_id);
    }
    if by_vector && !missing {
        let Ty::Vector { elem, count } = cx.types().ty(ty).clone() else {
            return None;
        };
        // The count is the module's claim: valid vectors have at most 16 components.
        if count > 1 << 16 {
            return None;
        }
        let words = fold_vectors(cx, op, count, &constants);
        let c = numeric_vector_constant(cx, ty, elem, count, &words)?;
        return cx.get_defining_instruction(c, type_id);
    }
    None
}

/// Whether the folder may compute `i`'s value (`Instruction::IsFoldable`): word-by-word
/// arithmetic on 32-bit integers and booleans or vectors of them, or an opcode with
/// constant-folding rules.
pub fn is_foldable(cx: &mut Context, i: Inst) -> bool {
    foldable_by_scalar(cx, i)
        || foldable_by_vector(cx, i)
        || const_rules::rules_for(cx, i).is_some()
}

/// The opcodes the word-by-word arithmetic folds (`IsFoldableOpcode`).
fn is_foldable_opcode(op: O) -> bool {
    matches!(
        op,
        O::BitwiseAnd
            | O::BitwiseOr
            | O::BitwiseXor
            | O::IAdd
            | O::IEqual
            | O::IMul
            | O::INotEqual
            | O::ISub
            | O::LogicalAnd
            | O::LogicalEqual
            | O::LogicalNot
            | O::LogicalNotEqual
            | O::LogicalOr
            | O::Not
            | O::SDiv
            | O::Select
            | O::SGreaterThan
            | O::SGreaterThanEqual
            | O::ShiftLeftLogical
            | O::ShiftRightArithmetic
            | O::ShiftRightLogical
            | O::SLessThan
            | O::SLessThanEqual
            | O::SMod
            | O::SNegate
            | O::SRem
            | O::SConvert
            | O::UConvert
            | O::UDiv
            | O::UGreaterThan
            | O::UGreaterThanEqual
            | O::ULessThan
            | O::ULessThanEqual
            | O::UMod
    )
}

/// 32-bit integers and booleans (`IsFoldableScalarType`).
fn is_foldable_scalar_type(cx: &mut Context, type_id: u32) -> bool {
    let Some(t) = cx.types().get(type_id) else {
        return false;
    };
    matches!(cx.types().ty(t), Ty::Int { width: 32, .. } | Ty::Bool)
}

/// Vectors of those (`IsFoldableVectorType`).
fn is_foldable_vector_type(cx: &mut Context, type_id: u32) -> bool {
    let Some(t) = cx.types().get(type_id) else {
        return false;
    };
    match cx.types().ty(t).clone() {
        Ty::Vector { elem, .. } => {
            matches!(cx.types().ty(elem), Ty::Int { width: 32, .. } | Ty::Bool)
        }
        _ => false,
    }
}

fn operand_types_all(cx: &mut Context, i: Inst, f: fn(&mut Context, u32) -> bool) -> bool {
    let mut ids = Vec::new();
    cx.ir.data(i).for_each_in_id(|id| ids.push(id));
    for id in ids {
        let Some(def) = cx.get_def(id) else {
            return false;
        };
        let t = cx.ir.type_id(def);
        if !f(cx, t) {
            return false;
        }
    }
    true
}

/// `Instruction::IsFoldableByFoldScalar`.
fn foldable_by_scalar(cx: &mut Context, i: Inst) -> bool {
    is_foldable_opcode(cx.ir.opcode(i))
        && is_foldable_scalar_type(cx, cx.ir.type_id(i))
        && operand_types_all(cx, i, is_foldable_scalar_type)
}

/// `Instruction::IsFoldableByFoldVector`.
fn foldable_by_vector(cx: &mut Context, i: Inst) -> bool {
    is_foldable_opcode(cx.ir.opcode(i))
        && is_foldable_vector_type(cx, cx.ir.type_id(i))
        && operand_types_all(cx, i, is_foldable_vector_type)
}

/// A scalar constant's first word, 0 for a null one.
fn scalar_word(cx: &mut Context, c: ConstRef) -> u32 {
    match cx.constants().value(c) {
        Const::Bool(_, b) => u32::from(*b),
        Const::Scalar(_, w) => w.first().copied().unwrap_or(0),
        _ => 0,
    }
}

/// `FoldVectors`: component by component. As spirv-opt built without assertions, a
/// component that is not a scalar (a null component) contributes no word.
fn fold_vectors(cx: &mut Context, op: O, count: u32, constants: &[Option<ConstRef>]) -> Vec<u32> {
    let mut out = Vec::new();
    let values: Vec<Const> = constants
        .iter()
        .map(|c| cx.constants().value(c.expect("present")).clone())
        .collect();
    for d in 0..count as usize {
        let mut words = Vec::with_capacity(values.len());
        for v in &values {
            match v {
                Const::Composite(_, comps) => {
                    if let Some(&comp) = comps.get(d) {
                        match cx.constants().value(comp) {
                            Const::Bool(_, b) => words.push(u32::from(*b)),
                            Const::Scalar(_, w) => words.push(w.first().copied().unwrap_or(0)),
                            _ => {}
                        }
                    }
                }
                Const::Null(_) => words.push(0),
                _ => {}
            }
        }
        out.push(operate_words(op, &words));
    }
    out
}

/// `GetNumericVectorConstantWithWords`.
pub(crate) fn numeric_vector_constant(
    cx: &mut Context,
    ty: TypeRef,
    elem: TypeRef,
    count: u32,
    words: &[u32],
) -> Option<ConstRef> {
    let per = match cx.types().ty(elem) {
        Ty::Float { width, .. } | Ty::Int { width, .. } => width / 32,
        Ty::Bool => 1,
        _ => 0,
    } as usize;
    if (per != 1 && per != 2) || per * count as usize != words.len() {
        return None;
    }
    let mut ids = Vec::with_capacity(count as usize);
    for chunk in words.chunks(per) {
        let c = cx.constant_of(elem, chunk)?;
        ids.push(
            cx.get_defining_instruction(c, 0)
                .map(|i| cx.ir.result_id(i))?,
        );
    }
    cx.constant_of(ty, &ids)
}

/// `OperateWords`: unary, binary or ternary by the number of words; spirv-opt's
/// answer (0) for an opcode of another arity.
fn operate_words(op: O, w: &[u32]) -> u32 {
    match *w {
        [a] => match op {
            O::SNegate => (a as i32).wrapping_neg() as u32,
            O::Not => !a,
            O::LogicalNot => u32::from(a == 0),
            O::UConvert | O::SConvert => a,
            _ => 0,
        },
        [a, b] => binary_operate(op, a, b),
        [a, b, c] => match op {
            O::Select => {
                if a != 0 {
                    b
                } else {
                    c
                }
            }
            _ => 0,
        },
        _ => 0,
    }
}

/// `BinaryOperate`.
fn binary_operate(op: O, a: u32, b: u32) -> u32 {
    let (sa, sb) = (a as i32, b as i32);
    match op {
        O::ShiftRightLogical => a.checked_shr(b).filter(|_| b < 32).unwrap_or(0),
        O::ShiftRightArithmetic => match b {
            0..=31 => (sa >> b) as u32,
            32 => {
                if sa >= 0 {
                    0
                } else {
                    u32::MAX
                }
            }
            _ => 0,
        },
        O::ShiftLeftLogical => {
            if b >= 32 {
                0
            } else {
                a << b
            }
        }
        O::BitwiseOr => a | b,
        O::BitwiseAnd => a & b,
        O::BitwiseXor => a ^ b,
        O::LogicalEqual => u32::from((a != 0) == (b != 0)),
        O::LogicalNotEqual => u32::from((a != 0) != (b != 0)),
        O::LogicalOr => u32::from(a != 0 || b != 0),
        O::LogicalAnd => u32::from(a != 0 && b != 0),
        O::IEqual => u32::from(a == b),
        O::INotEqual => u32::from(a != b),
        O::ULessThan => u32::from(a < b),
        O::SLessThan => u32::from(sa < sb),
        O::UGreaterThan => u32::from(a > b),
        O::SGreaterThan => u32::from(sa > sb),
        O::ULessThanEqual => u32::from(a <= b),
        O::SLessThanEqual => u32::from(sa <= sb),
        O::UGreaterThanEqual => u32::from(a >= b),
        O::SGreaterThanEqual => u32::from(sa >= sb),
        _ => 0,
    }
}

/// `FoldIntegerOpToConstant`: a binary operation whose value one constant operand
/// decides (`x * 0`, `x & 0`, `x < 0u`, `false && x`, ...).
fn fold_integer_op(cx: &mut Context, i: Inst, id_map: &dyn Fn(u32) -> u32) -> Option<u32> {
    let d = cx.ir.data(i);
    if d.num_in_operands() != 2 {
        return None;
    }
    let first = d.num_operands() - 2;
    if d.kind(first) != Some(crate::ir::Kind::Id) || d.kind(first + 1) != Some(crate::ir::Kind::Id)
    {
        return None;
    }
    let op = d.opcode();
    let ids = [id_map(d.in_word(0)), id_map(d.in_word(1))];
    let mut ints: [Option<u32>; 2] = [None, None];
    let mut bools: [Option<bool>; 2] = [None, None];
    for k in 0..2 {
        let Some(c) = cx.constants().find_declared(ids[k]) else {
            continue;
        };
        let ty = cx.constants().value(c).ty();
        match (cx.constants().value(c).clone(), cx.types().ty(ty)) {
            (Const::Scalar(_, w), Ty::Int { .. }) => ints[k] = w.first().copied(),
            (Const::Null(_), Ty::Int { .. }) => ints[k] = Some(0),
            (Const::Bool(_, b), _) => bools[k] = Some(b),
            (Const::Null(_), Ty::Bool) => bools[k] = Some(false),
            _ => {}
        }
    }
    let [a, b] = ints;
    let is = |v: Option<u32>, x: u32| v == Some(x);
    let r = match op {
        O::IMul | O::UDiv | O::SDiv | O::SRem | O::SMod | O::UMod => {
            (is(a, 0) || is(b, 0)).then_some(0)
        }
        O::ShiftRightLogical | O::ShiftLeftLogical => b.filter(|&s| s >= 32).map(|_| 0),
        O::BitwiseOr => (is(a, u32::MAX) || is(b, u32::MAX)).then_some(u32::MAX),
        O::BitwiseAnd => (is(a, 0) || is(b, 0)).then_some(0),
        O::ULessThan => (is(a, u32::MAX) || is(b, 0)).then_some(0),
        O::SLessThan => (is(a, i32::MAX as u32) || is(b, i32::MIN as u32)).then_some(0),
        O::UGreaterThan => (is(a, 0) || is(b, u32::MAX)).then_some(0),
        O::SGreaterThan => (is(a, i32::MIN as u32) || is(b, i32::MAX as u32)).then_some(0),
        O::ULessThanEqual => (is(a, 0) || is(b, u32::MAX)).then_some(1),
        O::SLessThanEqual => (is(a, i32::MIN as u32) || is(b, i32::MAX as u32)).then_some(1),
        O::UGreaterThanEqual => (is(a, u32::MAX) || is(b, 0)).then_some(1),
        O::SGreaterThanEqual => (is(a, i32::MAX as u32) || is(b, i32::MIN as u32)).then_some(1),
        _ => None,
    };
    if r.is_some() {
        return r;
    }
    match op {
        O::LogicalOr => bools.contains(&Some(true)).then_some(1),
        O::LogicalAnd => bools.contains(&Some(false)).then_some(0),
        _ => None,
    }
}

// ---- helpers the rules share ----

/// The type of `id`'s definition, by the type manager.
pub(crate) fn type_of_type_id(cx: &mut Context, type_id: u32) -> Option<Ty> {
    let t = cx.types().get(type_id)?;
    Some(cx.types().ty(t).clone())
}

/// Whether spirv-opt may fold floating point in `i` (`IsFloatingPointFoldingAllowed`):
/// a shader without the float-controls capabilities, and `i` not `NoContraction`.
pub(crate) fn float_folding_allowed(cx: &mut Context, i: Inst) -> bool {
    const SHADER: u32 = 1;
    const FLOAT_CONTROLS: [u32; 5] = [4464, 4465, 4466, 4467, 4468];
    const NO_CONTRACTION: u32 = 42;
    if !cx.has_capability(SHADER) || FLOAT_CONTROLS.iter().any(|&c| cx.has_capability(c)) {
        return false;
    }
    let id = cx.ir.result_id(i);
    !cx.has_decoration(id, NO_CONTRACTION)
}

/// `Constant::IsZero`: every word zero (so `-0.0` is not), a null, `false`, or a
/// composite of those.
pub(crate) fn is_zero(cx: &mut Context, c: ConstRef) -> bool {
    let mut stack = vec![c];
    while let Some(c) = stack.pop() {
        match cx.constants().value(c) {
            Const::Null(_) => {}
            Const::Bool(_, b) => {
                if *b {
                    return false;
                }
            }
            Const::Scalar(_, w) => {
                if w.iter().any(|&x| x != 0) {
                    return false;
                }
            }
            Const::Composite(_, comps) => stack.extend_from_slice(comps),
        }
    }
    true
}

/// The width of a float or integer type, or of a vector's elements.
pub(crate) fn element_width(cx: &mut Context, t: TypeRef) -> u32 {
    let t = match cx.types().ty(t) {
        Ty::Vector { elem, .. } => *elem,
        _ => t,
    };
    match cx.types().ty(t) {
        Ty::Float { width, .. } | Ty::Int { width, .. } => *width,
        _ => 0,
    }
}

/// `Constant::GetVectorComponents`: a null vector's components are nulls of the
/// element type.
pub(crate) fn vector_components(cx: &mut Context, c: ConstRef) -> Option<Vec<ConstRef>> {
    match cx.constants().value(c).clone() {
        Const::Composite(_, comps) => Some(comps),
        Const::Null(t) => {
            let Ty::Vector { elem, count } = cx.types().ty(t).clone() else {
                return None;
            };
            let n = cx.constant_of(elem, &[])?;
            // The count comes from the module: a null of a vector type the module
            // declares, so at most a few components in valid SPIR-V; cap it anyway.
            (count <= 1 << 16).then(|| vec![n; count as usize])
        }
        _ => None,
    }
}

/// The id of the instruction declaring `c` (any type), made where missing.
pub(crate) fn defining_id(cx: &mut Context, c: ConstRef) -> Option<u32> {
    cx.get_defining_instruction(c, 0)
        .map(|i| cx.ir.result_id(i))
}
