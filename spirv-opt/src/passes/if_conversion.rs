//! `--if-conversion` (spirv-opt's `IfConversion`, `source/opt/if_conversion.cpp`):
//! the phis of a block that merges a simple selection (two predecessors, neither a
//! back edge, whose nearest common dominator ends in an `OpBranchConditional` with an
//! `OpSelectionMerge` naming this block and not `DontFlatten`) become `OpSelect`s on
//! the branch's condition, splatted by an `OpCompositeConstruct` for vector values.
//! A phi whose two values share a value number is replaced by one of them instead
//! (hoisted into the header when it is defined on a side of the diamond), and then
//! stays behind, unused, as spirv-opt leaves it. Only in `Shader` modules.
//!
//! spirv-opt hoists by recursion over operands and asks whether it can by recursion
//! that re-walks shared operands; here both walks run on explicit stacks, and the
//! answers are remembered per merge block (moving an instruction into the header only
//! turns answers to yes, so they stay right while the block's phis are processed).

use crate::analysis::cfg::PSEUDO_ENTRY;
use crate::analysis::dominators::DomTree;
use crate::analysis::types::Ty;
use crate::analysis::value_numbers::ValueNumbers;
use crate::analysis::{Analyses, IdHashMap, IdHashSet};
use crate::builder::Builder;
use crate::context::Context;
use crate::ir::{Block, Func, Inst};
use crate::pass::{IrPass, PassError, Status};
use spirv_core::spv::Opcode as O;

/// The pass's flag.
pub const FLAG: &str = "if-conversion";

/// The `Shader` capability.
const SHADER: u32 = 1;
/// `SelectionControl::DontFlatten`.
const DONT_FLATTEN: u32 = 2;

/// `--if-conversion`.
#[derive(Debug, Clone, Copy, Default)]
pub struct IfConversion;

impl IrPass for IfConversion {
    fn flag(&self) -> &'static str {
        FLAG
    }

    fn preserved(&self) -> Analyses {
        Analyses::DEF_USE
            | Analyses::DOMINATORS
            | Analyses::INSTR_TO_BLOCK
            | Analyses::CFG
            | Analyses::NAME_MAP
            | Analyses::CONSTANTS
            | Analyses::TYPES
    }

    fn process(&self, cx: &mut Context) -> Result<Status, PassError> {
        if !cx.has_capability(SHADER) {
            return Ok(Status::Unchanged);
        }
        let vn = cx.with_decoration_classes(ValueNumbers::build);
        let mut modified = false;
        let mut to_kill: Vec<Inst> = Vec::new();
        let funcs: Vec<Func> = cx.ir.functions().to_vec();
        for f in funcs {
            let dom = cx.dominators(f).clone();
            let blocks: Vec<Block> = cx.ir.blocks(f).collect();
            for b in blocks {
                let Some(common) = check_block(cx, &dom, b) else {
                    continue;
                };
                modified |= convert_block(cx, &dom, &vn, b, common, &mut to_kill)?;
            }
        }
        for i in to_kill {
            cx.kill_inst(i);
        }
        Ok(Status::from_changed(modified))
    }
}

fn out_of_ids() -> PassError {
    PassError {
        pass: FLAG,
        message: "ID overflow. Try running compact-ids.".into(),
    }
}

/// `CheckBlock`: the header of the selection `b` merges, when `b`'s phis may become
/// selects.
fn check_block(cx: &mut Context, dom: &DomTree, b: Block) -> Option<Block> {
    let id = cx.ir.block_id(b);
    let preds = cx.cfg().preds(id).to_vec();
    let [p0, p1] = preds[..] else {
        return None;
    };
    let inc0 = cx.block_of_id(p0)?;
    if dom.dominates(id, cx.ir.block_id(inc0)) {
        return None;
    }
    let inc1 = cx.block_of_id(p1)?;
    if dom.dominates(id, cx.ir.block_id(inc1)) || inc0 == inc1 {
        return None;
    }
    let common_id = dom.common_dominator(cx.ir.block_id(inc0), cx.ir.block_id(inc1))?;
    if common_id == PSEUDO_ENTRY {
        return None;
    }
    let common = cx.block_of_id(common_id)?;
    let branch = cx.ir.terminator(common)?;
    if cx.ir.opcode(branch) != O::BranchConditional {
        return None;
    }
    let merge = cx.ir.merge_inst(common)?;
    if cx.ir.opcode(merge) != O::SelectionMerge {
        return None;
    }
    let d = cx.ir.data(merge);
    if d.num_in_operands() < 2 || d.in_word(1) == DONT_FLATTEN || d.in_word(0) != id {
        return None;
    }
    Some(common)
}

/// Turns the phis of `b` (merging the selection headed by `common`) into selects or
/// values where it can; the phis replaced by selects go to `to_kill`.
fn convert_block(
    cx: &mut Context,
    dom: &DomTree,
    vn: &ValueNumbers,
    b: Block,
    common: Block,
    to_kill: &mut Vec<Inst>,
) -> Result<bool, PassError> {
    let Some(at) = cx.ir.insts(b).find(|&i| cx.ir.opcode(i) != O::Phi) else {
        return Ok(false);
    };
    let builder = Builder::before(at, Analyses::DEF_USE | Analyses::INSTR_TO_BLOCK);
    let b_id = cx.ir.block_id(b);
    let common_id = cx.ir.block_id(common);
    let Some(branch) = cx.ir.terminator(common) else {
        return Ok(false);
    };
    let (condition, then_id) = {
        let d = cx.ir.data(branch);
        if d.num_in_operands() < 3 {
            return Ok(false);
        }
        (d.in_word(0), d.in_word(1))
    };
    let then_block = cx.block_of_id(then_id);
    let mut memo: IdHashMap<Inst, bool> = IdHashMap::default();
    let mut modified = false;
    for phi in cx.phis(b) {
        let phi_type = cx.ir.type_id(phi);
        if !check_type(cx, phi_type) || !check_phi_users(cx, phi, b) {
            continue;
        }
        let (v0, l0, v1) = {
            let d = cx.ir.data(phi);
            if d.num_in_operands() < 4 {
                continue;
            }
            (d.in_word(0), d.in_word(1), d.in_word(2))
        };
        let inc0 = cx.block_of_id(l0);
        let on_true = (then_block == Some(b) && inc0 == Some(common))
            || match (then_block, inc0) {
                (Some(t), Some(i)) => dom.dominates(cx.ir.block_id(t), cx.ir.block_id(i)),
                _ => false,
            };
        let (true_id, false_id) = if on_true { (v0, v1) } else { (v1, v0) };
        let (Some(true_value), Some(false_value)) = (cx.get_def(true_id), cx.get_def(false_id))
        else {
            continue;
        };
        let true_block = cx.ir.block_of(true_value).map(|x| cx.ir.block_id(x));
        let false_block = cx.ir.block_of(false_value).map(|x| cx.ir.block_id(x));
        let true_vn = vn.value_of(true_id);
        if true_vn != 0 && true_vn == vn.value_of(false_id) {
            let dominates_b = |x: Option<u32>| x.is_none_or(|x| dom.dominates(x, b_id));
            let chosen = if dominates_b(true_block) {
                Some(true_value)
            } else if dominates_b(false_block) {
                Some(false_value)
            } else if can_hoist(cx, dom, true_value, common_id, &mut memo) {
                Some(true_value)
            } else if can_hoist(cx, dom, false_value, common_id, &mut memo) {
                Some(false_value)
            } else {
                None
            };
            if let Some(chosen) = chosen {
                modified = true;
                hoist(cx, dom, chosen, common, common_id);
                cx.kill_names_and_decorates(phi);
                let to = cx.ir.result_id(chosen);
                cx.replace_all_uses_with(cx.ir.result_id(phi), to);
            }
            continue;
        }
        if true_block.is_some_and(|x| !dom.dominates(x, b_id))
            || false_block.is_some_and(|x| !dom.dominates(x, b_id))
        {
            continue;
        }
        let mut cond = condition;
        let data_type = cx.ir.type_id(true_value);
        let count = cx
            .types()
            .get(data_type)
            .and_then(|t| match cx.types().ty(t) {
                Ty::Vector { count, .. } => Some(*count),
                _ => None,
            });
        if let Some(count) = count {
            cond = splat_condition(cx, &builder, count, condition)?;
        }
        let select = builder
            .add_op(
                cx,
                phi_type,
                O::Select,
                &[
                    crate::ir::Operand::id(cond),
                    crate::ir::Operand::id(true_id),
                    crate::ir::Operand::id(false_id),
                ],
            )
            .ok_or_else(out_of_ids)?;
        cx.update_debug_info_from(select, phi, None)
            .ok_or_else(out_of_ids)?;
        let select_id = cx.ir.result_id(select);
        cx.replace_all_uses_with(cx.ir.result_id(phi), select_id);
        to_kill.push(phi);
        modified = true;
    }
    Ok(modified)
}

/// `SplatCondition`: a vector of `count` booleans, each `cond`.
fn splat_condition(
    cx: &mut Context,
    builder: &Builder,
    count: u32,
    cond: u32,
) -> Result<u32, PassError> {
    let bool_ty = cx.types().intern_plain(Ty::Bool);
    let vec_ty = cx.types().intern_plain(Ty::Vector {
        elem: bool_ty,
        count,
    });
    let vec_id = cx.get_type_instruction(vec_ty);
    if vec_id == 0 {
        return Err(out_of_ids());
    }
    // The operands are as many as the vector type has components: a number the module
    // states, but a vector type with more than a few components does not validate, and
    // the module holds the value of that type, so the count is bounded by its size in
    // practice; cap it anyway so a crafted count cannot make a huge instruction.
    let n = usize::try_from(count).unwrap_or(usize::MAX).min(1 << 16);
    let ids = vec![cond; n];
    let construct = builder
        .add_nary_op(cx, vec_id, O::CompositeConstruct, &ids)
        .ok_or_else(out_of_ids)?;
    Ok(cx.ir.result_id(construct))
}

/// `CheckType`: scalars, pointers and vectors can be selected.
fn check_type(cx: &mut Context, type_id: u32) -> bool {
    cx.get_def(type_id).is_some_and(|t| {
        matches!(
            cx.ir.opcode(t),
            O::TypeInt | O::TypeFloat | O::TypeBool | O::TypePointer | O::TypeVector
        )
    })
}

/// `CheckPhiUsers`: no phi of `b` uses `phi`.
fn check_phi_users(cx: &mut Context, phi: Inst, b: Block) -> bool {
    let id = cx.ir.result_id(phi);
    !cx.users(id)
        .into_iter()
        .any(|u| cx.ir.opcode(u) == O::Phi && cx.ir.block_of(u) == Some(b))
}

/// `IsOpcodeCodeMotionSafe`.
fn is_code_motion_safe(op: O) -> bool {
    matches!(
        op,
        O::Nop
            | O::Undef
            | O::Load
            | O::AccessChain
            | O::InBoundsAccessChain
            | O::ArrayLength
            | O::VectorExtractDynamic
            | O::VectorInsertDynamic
            | O::VectorShuffle
            | O::CompositeConstruct
            | O::CompositeExtract
            | O::CompositeInsert
            | O::CopyObject
            | O::Transpose
            | O::ConvertFToU
            | O::ConvertFToS
            | O::ConvertSToF
            | O::ConvertUToF
            | O::UConvert
            | O::SConvert
            | O::FConvert
            | O::QuantizeToF16
            | O::Bitcast
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
            | O::MatrixTimesScalar
            | O::VectorTimesMatrix
            | O::MatrixTimesVector
            | O::MatrixTimesMatrix
            | O::OuterProduct
            | O::Dot
            | O::IAddCarry
            | O::ISubBorrow
            | O::UMulExtended
            | O::SMulExtended
            | O::Any
            | O::All
            | O::IsNan
            | O::IsInf
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
            | O::ShiftRightLogical
            | O::ShiftRightArithmetic
            | O::ShiftLeftLogical
            | O::BitwiseOr
            | O::BitwiseXor
            | O::BitwiseAnd
            | O::Not
            | O::BitFieldInsert
            | O::BitFieldSExtract
            | O::BitFieldUExtract
            | O::BitReverse
            | O::BitCount
            | O::SizeOf
    )
}

/// Whether `i` is already where the header dominates it: outside any block (a global
/// value, a parameter) or in a block dominating the header `target`.
fn in_position(cx: &Context, dom: &DomTree, i: Inst, target: u32) -> bool {
    cx.ir
        .block_of(i)
        .is_none_or(|b| dom.dominates(cx.ir.block_id(b), target))
}

/// The definitions of `i`'s input ids, in operand order (undefined ids have none:
/// spirv-opt finds no block for them and treats them as global).
fn operand_defs(cx: &mut Context, i: Inst) -> Vec<Inst> {
    let mut ids = Vec::new();
    cx.ir.data(i).for_each_in_id(|id| ids.push(id));
    ids.into_iter().filter_map(|id| cx.get_def(id)).collect()
}

/// `CanHoistInstruction`: whether `i` and the operands it needs can all move into the
/// header `target` (a depth-first walk on a stack; answers go to `memo`, keyed by
/// instruction). One operand that cannot move stops every instruction above it on the
/// stack. An instruction met again while its own operands are being walked (a cycle,
/// only in invalid modules, where spirv-opt recurses forever) cannot move.
fn can_hoist(
    cx: &mut Context,
    dom: &DomTree,
    i: Inst,
    target: u32,
    memo: &mut IdHashMap<Inst, bool>,
) -> bool {
    if let Some(a) = direct(cx, dom, i, target, memo) {
        return a;
    }
    // (instruction, its operand definitions, the next one to look at)
    let mut stack: Vec<(Inst, Vec<Inst>, usize)> = vec![(i, operand_defs(cx, i), 0)];
    let mut on_stack: IdHashSet<Inst> = IdHashSet::default();
    on_stack.insert(i);
    while let Some(top) = stack.last_mut() {
        if top.2 < top.1.len() {
            let d = top.1[top.2];
            top.2 += 1;
            let answer = if on_stack.contains(&d) {
                Some(false)
            } else {
                direct(cx, dom, d, target, memo)
            };
            match answer {
                Some(true) => {}
                Some(false) => {
                    for (p, _, _) in stack.drain(..) {
                        memo.insert(p, false);
                    }
                    return false;
                }
                None => {
                    let defs = operand_defs(cx, d);
                    on_stack.insert(d);
                    stack.push((d, defs, 0));
                }
            }
        } else {
            let (p, _, _) = stack.pop().expect("non-empty");
            on_stack.remove(&p);
            memo.insert(p, true);
        }
    }
    true
}

/// The answer for `i` without walking its operands, if there is one: yes when it is in
/// position, no when it may not move, or what `memo` says.
fn direct(
    cx: &Context,
    dom: &DomTree,
    i: Inst,
    target: u32,
    memo: &IdHashMap<Inst, bool>,
) -> Option<bool> {
    if in_position(cx, dom, i, target) {
        return Some(true);
    }
    if !is_code_motion_safe(cx.ir.opcode(i)) {
        return Some(false);
    }
    memo.get(&i).copied()
}

/// `HoistInstruction`: moves `i` into `target` (before its merge instruction), after
/// moving the operands it needs there, each before the instructions that use it.
/// spirv-opt moves whatever it is given (it asserts the opcode is safe to move); here an
/// instruction that is not safe to move, or that is met again while its own operands
/// are moved (both only in invalid modules), stays where it is.
fn hoist(cx: &mut Context, dom: &DomTree, i: Inst, target: Block, target_id: u32) {
    let needs_move = |cx: &Context, x: Inst| {
        !in_position(cx, dom, x, target_id) && is_code_motion_safe(cx.ir.opcode(x))
    };
    if !needs_move(cx, i) {
        return;
    }
    let mut stack: Vec<(Inst, Vec<Inst>, usize)> = vec![(i, operand_defs(cx, i), 0)];
    let mut on_stack: IdHashSet<Inst> = IdHashSet::default();
    on_stack.insert(i);
    while let Some(top) = stack.last_mut() {
        if top.2 < top.1.len() {
            let d = top.1[top.2];
            top.2 += 1;
            if !on_stack.contains(&d) && needs_move(cx, d) {
                let defs = operand_defs(cx, d);
                on_stack.insert(d);
                stack.push((d, defs, 0));
            }
            continue;
        }
        let (x, _, _) = stack.pop().expect("non-empty");
        on_stack.remove(&x);
        let Some(term) = cx.ir.terminator(target) else {
            return;
        };
        let pos = match cx.ir.prev(term) {
            Some(p) if cx.ir.opcode(p) == O::SelectionMerge => p,
            _ => term,
        };
        cx.ir.unlink(x);
        cx.ir.insert_before(pos, x);
    }
}
