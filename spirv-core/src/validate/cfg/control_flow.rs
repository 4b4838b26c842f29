//! spirv-val's control-flow pass of the second loop (`ControlFlowPass` in
//! `validate_cfg.cpp`): `OpPhi` against its block's predecessors, the operands of
//! `OpBranch`, `OpBranchConditional` and `OpSwitch`, `OpReturnValue` against its
//! function, and `OpLoopMerge`'s blocks and loop controls.
//!
//! Predecessors come from the graph of the function holding the `OpPhi`
//! ([`Graph`](super::cfg::graph::Graph)), built when first needed and kept while the
//! loop stays in that function.

use super::super::Query;
use super::super::error::ValidationErrorKind;
use super::super::{Fault, Inst};
use super::CfgError;
use super::graph::{Graph, Predecessors, branch_targets, functions};
use crate::__private::Vec;
use crate::spv::{self, Capability as C, Opcode as O};
use crate::types::Id;
use alloc::collections::BTreeMap;

/// What the pass remembers across instructions.
#[derive(Debug, Default)]
pub(crate) struct ControlFlow {
    /// The module's functions by instruction range, once needed.
    functions: Option<Vec<(usize, usize)>>,
    /// The predecessors in the function last asked about.
    graph: Option<Predecessors>,
    /// Distinct predecessor ids by block node, sorted, for that graph.
    predecessors: BTreeMap<u32, (usize, Vec<u32>)>,
}

impl ControlFlow {
    /// The function (`OpFunction` index, end) whose body holds instruction `i`.
    fn function_of(&mut self, q: &Query<'_>, i: usize) -> Option<(usize, usize)> {
        let fs = self.functions.get_or_insert_with(|| functions(q.module));
        let k = fs.partition_point(|&(s, _)| s < i);
        let &(s, e) = fs.get(k.checked_sub(1)?)?;
        (i > s && i <= e).then_some((s, e))
    }

    /// The predecessors in the function holding instruction `i`.
    fn graph(&mut self, q: &Query<'_>, i: usize) -> Option<&Predecessors> {
        let (s, e) = self.function_of(q, i)?;
        if self.graph.as_ref().is_none_or(|g| g.at as usize != s) {
            self.graph = Graph::build(q, s, e).map(Graph::into_predecessors);
            self.predecessors.clear();
        }
        self.graph.as_ref()
    }
}

/// The pass for one instruction.
#[inline(always)]
pub(crate) fn check(q: &Query<'_>, inst: &Inst<'_>, st: &mut ControlFlow) -> Result<(), Fault> {
    let e = |e: CfgError| -> Result<(), Fault> { Err(ValidationErrorKind::Cfg(e).into()) };
    let w = inst.words;
    let word = |i: usize| w.get(i).copied().unwrap_or(0);
    let is_label = |id: u32| q.state.def(id).is_some_and(|d| d.opcode == O::Label);
    let variable_pointers = q.state.has_capability(C::VariablePointersStorageBuffer.0);
    match inst.opcode {
        O::Phi => phi(q, inst, st),
        O::Branch if !is_label(word(1)) => e(CfgError::BranchTarget),
        O::BranchConditional => {
            let n = inst.operands.len();
            if n != 3 && n != 5 {
                return e(CfgError::BranchWeights);
            }
            let cond = q.type_of(word(1));
            if cond == 0 || !q.is_bool_scalar_type(cond) {
                return e(CfgError::ConditionNotBool);
            }
            if !is_label(word(2)) {
                return e(CfgError::TrueLabel);
            }
            if !is_label(word(3)) {
                return e(CfgError::FalseLabel);
            }
            if q.state.version >= (1, 6) && word(2) == word(3) {
                return e(CfgError::SameLabels);
            }
            Ok(())
        }
        O::Switch => {
            if !q.is_int_scalar_type(q.type_of(word(1))) {
                return e(CfgError::SelectorType);
            }
            if !is_label(word(2)) {
                return e(CfgError::DefaultNotLabel);
            }
            let mut bad = false;
            let mut first = true;
            branch_targets(q, w, |t| {
                bad |= !first && !is_label(t);
                first = false;
            });
            if bad {
                return e(CfgError::SwitchTarget);
            }
            Ok(())
        }
        O::ReturnValue => {
            let value = word(1);
            let ty = q.type_of(value);
            if ty == 0 {
                return e(CfgError::ReturnValueNotValue { value: Id(value) });
            }
            let ty_op = q.opcode(ty);
            if ty_op == O::Nop || ty_op == O::TypeVoid {
                return e(CfgError::ReturnValueVoid { value_type: Id(ty) });
            }
            let logical = q.state.addressing_model() == spv::AddressingModel::Logical;
            if logical
                && matches!(ty_op, O::TypePointer | O::TypeUntypedPointerKHR)
                && !variable_pointers
                && !q.state.options.relax_logical_pointer
            {
                return e(CfgError::ReturnValuePointer { value_type: Id(ty) });
            }
            let returns = st
                .function_of(q, inst.index)
                .and_then(|(s, _)| q.module.instruction(s))
                .and_then(|f| f.words().get(1).copied())
                .unwrap_or(0);
            if q.state.def(returns).is_none() || returns != ty {
                return e(CfgError::ReturnValueType { value: Id(value) });
            }
            Ok(())
        }
        O::LoopMerge => loop_merge(q, inst),
        _ => Ok(()),
    }
}

/// `ValidateLoopMerge`.
fn loop_merge(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let e = |e: CfgError| -> Result<(), Fault> { Err(ValidationErrorKind::Cfg(e).into()) };
    let w = inst.words;
    let word = |i: usize| w.get(i).copied().unwrap_or(0);
    let is_label = |id: u32| q.state.def(id).is_some_and(|d| d.opcode == O::Label);
    let (merge, target) = (word(1), word(2));
    if !is_label(merge) {
        return e(CfgError::MergeNotLabel { merge: Id(merge) });
    }
    // The block holding the instruction: the nearest label before it.
    let block = (0..inst.index)
        .rev()
        .map(|j| q.module.instruction(j))
        .find(|x| x.is_none_or(|x| x.opcode() == O::Label))
        .flatten()
        .and_then(|x| x.words().get(1).copied());
    if block == Some(merge) {
        return e(CfgError::MergeIsHeader);
    }
    if !is_label(target) {
        return e(CfgError::ContinueNotLabel { target: Id(target) });
    }
    if merge == target {
        return e(CfgError::MergeIsContinue);
    }
    let control = word(3);
    let bit = |b: u32| control >> b & 1 != 0;
    let (unroll, dont, dependency_length, min, max, multiple, peel, partial) = (
        bit(0),
        bit(1),
        bit(3),
        bit(4),
        bit(5),
        bit(6),
        bit(7),
        bit(8),
    );
    let conflict = if unroll && dont {
        Some(CfgError::UnrollDontUnroll)
    } else if dont && peel {
        Some(CfgError::PeelCountDontUnroll)
    } else if dont && partial {
        Some(CfgError::PartialCountDontUnroll)
    } else if multiple {
        // Operand 3 on: the parameters, in the order of their bits.
        let operand = 3 + usize::from(dependency_length) + usize::from(min) + usize::from(max);
        (word(operand + 1) == 0).then_some(CfgError::IterationMultipleZero)
    } else {
        None
    };
    match conflict {
        Some(conflict) => e(conflict),
        None => Ok(()),
    }
}

/// `ValidatePhi`.
fn phi(q: &Query<'_>, inst: &Inst<'_>, st: &mut ControlFlow) -> Result<(), Fault> {
    let e = |e: CfgError| -> Result<(), Fault> { Err(ValidationErrorKind::Cfg(e).into()) };
    let w = inst.words;
    let incoming = w.len().saturating_sub(3);
    if incoming % 2 != 0 {
        return e(CfgError::PhiOperandCount);
    }
    let ty = w.get(1).copied().unwrap_or(0);
    if q.is_void_type(ty) {
        return e(CfgError::PhiVoid);
    }
    if q.is_pointer_type(ty)
        && q.state.addressing_model() == spv::AddressingModel::Logical
        && !q.state.has_capability(C::VariablePointersStorageBuffer.0)
    {
        return e(CfgError::PhiPointer);
    }
    let ty_op = q.opcode(ty);
    if !q.state.options.before_hlsl_legalization
        && !q.state.has_capability(C::BindlessTextureNV.0)
        && (ty_op == O::TypeSampledImage
            || (q.state.has_capability(C::Shader.0)
                && matches!(ty_op, O::TypeImage | O::TypeSampler)))
    {
        return e(CfgError::PhiResultType { opcode: ty_op });
    }
    let Some(g) = st.graph(q, inst.index) else {
        return Ok(());
    };
    // The block holding the OpPhi: the last label before it.
    let k = g.labels.partition_point(|&l| (l as usize) < inst.index);
    let Some(node) = k.checked_sub(1).map(|k| k as u32) else {
        return Ok(());
    };
    let block_id = g.id(q, node);
    if !st.predecessors.contains_key(&node) {
        let g = st.graph.as_ref().expect("built above");
        let mut ids: Vec<u32> = g.of(node).map(|p| g.id(q, p)).collect();
        let count = ids.len();
        ids.sort_unstable();
        ids.dedup();
        st.predecessors.insert(node, (count, ids));
    }
    let (count, preds) = &st.predecessors[&node];
    if incoming / 2 != preds.len() {
        return e(CfgError::PhiIncomingCount {
            incoming: incoming / 2,
            predecessors: *count,
        });
    }
    // Which predecessors an operand has named, by their place in `preds`.
    let mut observed = alloc::vec![false; preds.len()];
    for (i, &id) in w.iter().enumerate().skip(3) {
        if i % 2 == 1 {
            let t = q.type_of(id);
            if t != ty {
                return e(CfgError::PhiValueType {
                    result_type: Id(ty),
                    value: Id(id),
                    value_type: Id(t),
                });
            }
        } else {
            if q.opcode(id) != O::Label {
                return e(CfgError::PhiParentNotLabel { block: Id(id) });
            }
            let Ok(at) = preds.binary_search(&id) else {
                return e(CfgError::PhiParentNotPredecessor {
                    parent: Id(id),
                    block: Id(block_id),
                });
            };
            if core::mem::replace(&mut observed[at], true) {
                return e(CfgError::PhiParentRepeated { parent: Id(id) });
            }
        }
    }
    Ok(())
}

/// What this family checks (see [`coverage`](crate::validate::coverage)).
pub(crate) const COVERAGE: crate::validate::coverage::Family = crate::validate::coverage::Family {
    opcodes: {
        use crate::spv::Opcode as O;
        &[
            O::Phi,
            O::BranchConditional,
            O::Switch,
            O::ReturnValue,
            O::LoopMerge,
        ]
    },
    ..crate::validate::coverage::Family::new("control-flow instructions", "validate_cfg.cpp")
};
