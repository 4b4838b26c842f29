//! `--combine-access-chains` (spirv-opt's `CombineAccessChains`,
//! `source/opt/combine_access_chains.cpp`): an access chain whose base is another
//! access chain takes that chain's base and indices ahead of its own, in each
//! function's blocks in reverse post order. A pointer access chain's element operand
//! is added to the feeding chain's last index (folded when both are constants, an
//! `OpIAdd` before it otherwise; not into a struct index unless both are element
//! operands). An index-less feeding chain is skipped over; an index-less chain becomes
//! an `OpCopyObject`. Chains with an index that is not a 32-bit integer, or whose base
//! chain's pointer type has an `ArrayStride`, are left alone.
//!
//! Where spirv-opt dereferences an id that names nothing (an invalid module), the chain
//! is left alone here.

use crate::analysis::Analyses;
use crate::analysis::constants::Const;
use crate::analysis::types::Ty;
use crate::builder::Builder;
use crate::context::Context;
use crate::ir::{Block, Inst, Operand};
use crate::pass::{IrPass, PassError, Status};
use spirv_core::spv::Opcode as O;

/// The pass's flag.
pub const FLAG: &str = "combine-access-chains";

/// `--combine-access-chains`.
#[derive(Debug, Clone, Copy, Default)]
pub struct CombineAccessChains;

/// Operand words a run may add to the chains it combines, beyond four per instruction
/// of the module: each combined chain repeats its base chain's indices, so a chain of
/// n chains grows to n^2/2 operands in spirv-opt. Past the budget a chain that would
/// grow stays as it is (ours only; no real module comes near it).
const GROWTH_BUDGET: usize = 1 << 16;

/// `Decoration::ArrayStride`.
const ARRAY_STRIDE: u32 = 6;

impl IrPass for CombineAccessChains {
    fn flag(&self) -> &'static str {
        FLAG
    }

    fn preserved(&self) -> Analyses {
        Analyses::NONE
    }

    fn process(&self, cx: &mut Context) -> Result<Status, PassError> {
        let mut modified = false;
        let mut budget = GROWTH_BUDGET.saturating_add(cx.ir.instruction_count().saturating_mul(4));
        let funcs = cx.ir.functions().to_vec();
        for f in funcs {
            if cx.ir.is_declaration(f) {
                continue;
            }
            let Some(entry) = cx.ir.entry(f) else {
                continue;
            };
            let order: Vec<Block> = {
                let (cfg, ir) = cx.cfg_ir();
                cfg.reverse_post_order(ir, entry)
            };
            for b in order {
                let mut at = cx.ir.first_inst(b);
                while let Some(i) = at {
                    at = cx.ir.next(i);
                    if is_access_chain(cx.ir.opcode(i)) {
                        modified |= combine(cx, i, &mut budget);
                    }
                }
            }
        }
        Ok(Status::from_changed(modified))
    }
}

fn is_access_chain(op: O) -> bool {
    matches!(
        op,
        O::AccessChain | O::InBoundsAccessChain | O::PtrAccessChain | O::InBoundsPtrAccessChain
    )
}

fn is_ptr_access_chain(op: O) -> bool {
    matches!(op, O::PtrAccessChain | O::InBoundsPtrAccessChain)
}

/// `UpdateOpcode`: the combined chain's opcode.
fn update_opcode(base: O, input: O) -> O {
    let in_bounds = matches!(base, O::InBoundsPtrAccessChain | O::InBoundsAccessChain);
    match input {
        O::InBoundsPtrAccessChain if !in_bounds => O::PtrAccessChain,
        O::InBoundsAccessChain if !in_bounds => O::AccessChain,
        _ => input,
    }
}

/// `Has64BitIndices`: whether an index (in-operands 1 on) is not a 32-bit integer (or
/// names nothing).
fn has_wide_indices(cx: &mut Context, i: Inst) -> bool {
    let n = cx.ir.data(i).num_in_operands();
    for k in 1..n {
        let id = cx.ir.data(i).in_word(k);
        let Some(def) = cx.get_def(id) else {
            return true;
        };
        let ty = cx.ir.type_id(def);
        let types = cx.types();
        let is_32 = types
            .get(ty)
            .is_some_and(|t| matches!(types.ty(t), Ty::Int { width: 32, .. }));
        if !is_32 {
            return true;
        }
    }
    false
}

/// `GetConstantValue` of the constant `id` declares, if it declares one.
fn constant_value(
    cx: &mut Context,
    id: u32,
) -> Option<(u32, crate::analysis::constants::ConstRef)> {
    let def = cx.get_def(id)?;
    let c = cx.constant_of_inst(def)?;
    let v = match cx.constants().value(c) {
        Const::Scalar(_, words) => words.first().copied().unwrap_or(0),
        _ => 0,
    };
    Some((v, c))
}

/// `GetIndexedType(ptr_input)` is a struct: `None` when the walk meets a type that
/// names nothing (an invalid module).
fn indexes_a_struct(cx: &mut Context, chain: Inst) -> Option<bool> {
    let base = cx.get_def(cx.ir.data(chain).in_word(0))?;
    let ptr_ty = cx.ir.type_id(base);
    let first = if is_ptr_access_chain(cx.ir.opcode(chain)) {
        2
    } else {
        1
    };
    let n = cx.ir.data(chain).num_in_operands();
    let mut indices = Vec::with_capacity(n.saturating_sub(first));
    for k in first..n {
        let id = cx.ir.data(chain).in_word(k);
        indices.push(constant_value(cx, id).map_or(0, |(v, _)| v));
    }
    let types = cx.types();
    let mut t = match types.ty(types.get(ptr_ty)?) {
        Ty::Pointer { pointee, .. } => (*pointee)?,
        _ => return None,
    };
    for idx in indices {
        t = match types.ty(t) {
            Ty::Struct { members, .. } => *members.get(idx as usize)?,
            Ty::Array { elem, .. }
            | Ty::RuntimeArray(elem)
            | Ty::Vector { elem, .. }
            | Ty::Matrix { col: elem, .. } => *elem,
            // spirv-opt asserts here; a release build keeps the type.
            _ => t,
        };
    }
    Some(matches!(types.ty(t), Ty::Struct { .. }))
}

/// `CombineIndices`: the operand combining `input`'s last index with `inst`'s
/// element operand, or `None` when they may not be combined.
fn combine_indices(cx: &mut Context, input: Inst, inst: Inst) -> Option<Operand> {
    let n_input = cx.ir.data(input).num_in_operands();
    let last_id = cx.ir.data(input).in_word(n_input - 1);
    let elem_id = cx.ir.data(inst).in_word(1);
    let last = constant_value(cx, last_id);
    let elem = constant_value(cx, elem_id);
    let both_elements = is_ptr_access_chain(cx.ir.opcode(inst))
        && is_ptr_access_chain(cx.ir.opcode(input))
        && n_input == 2;
    let last_def = cx.get_def(last_id)?;
    let last_ty = cx.ir.type_id(last_def);
    let id = if let (Some((a, _)), Some((b, _))) = (last, elem) {
        let sum = a.wrapping_add(b);
        let c = cx.get_constant(last_ty, &[sum])?;
        let def = cx.get_defining_instruction(c, 0)?;
        cx.ir.result_id(def)
    } else if both_elements || !indexes_a_struct(cx, input)? {
        cx.get_def(elem_id)?;
        let b = Builder::before(inst, Analyses::DEF_USE | Analyses::INSTR_TO_BLOCK);
        let add = b.add_binary_op(cx, last_ty, O::IAdd, last_id, elem_id)?;
        cx.ir.result_id(add)
    } else {
        return None;
    };
    Some(Operand::id(id))
}

/// `CombineAccessChain`.
fn combine(cx: &mut Context, inst: Inst, budget: &mut usize) -> bool {
    let base_id = cx.ir.data(inst).in_word(0);
    let Some(input) = cx.get_def(base_id) else {
        return false;
    };
    let input_op = cx.ir.opcode(input);
    if !is_access_chain(input_op) {
        return false;
    }
    if has_wide_indices(cx, inst) || has_wide_indices(cx, input) {
        return false;
    }
    let input_ptr_ty = cx.ir.type_id(input);
    if cx.has_decoration(input_ptr_ty, ARRAY_STRIDE) {
        return false;
    }
    let n_input = cx.ir.data(input).num_in_operands();
    let n_inst = cx.ir.data(inst).num_in_operands();
    if n_input <= 1 {
        let base = cx.ir.data(input).in_word(0);
        cx.forget_uses(inst);
        cx.ir.data_mut(inst).set_in_operand(0, &[base]);
        cx.analyze_uses(inst);
        return true;
    }
    if n_inst <= 1 {
        cx.ir.data_mut(inst).set_opcode(O::CopyObject);
        return true;
    }
    // The combined chain has n_input + n_inst - 2 or - 3 in-operands.
    let growth = n_input.saturating_sub(1);
    if growth > *budget {
        return false;
    }
    *budget -= growth;
    let inst_op = cx.ir.opcode(inst);
    let mut ops: Vec<Operand> = Vec::with_capacity(n_input + n_inst);
    let trc = cx.ir.data(input).type_result_count();
    for k in 0..n_input - 1 {
        ops.push(cx.ir.data(input).operand(trc + k));
    }
    if is_ptr_access_chain(inst_op) {
        match combine_indices(cx, input, inst) {
            Some(op) => ops.push(op),
            None => return false,
        }
    } else {
        ops.push(cx.ir.data(input).operand(trc + n_input - 1));
    }
    let first = if is_ptr_access_chain(inst_op) { 2 } else { 1 };
    let trc = cx.ir.data(inst).type_result_count();
    for k in first..n_inst {
        ops.push(cx.ir.data(inst).operand(trc + k));
    }
    cx.forget_uses(inst);
    let d = cx.ir.data_mut(inst);
    d.set_opcode(update_opcode(inst_op, input_op));
    d.set_in_operands(&ops);
    cx.analyze_uses(inst);
    true
}
