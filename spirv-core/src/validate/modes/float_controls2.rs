//! spirv-val's `ValidateFloatControls2` (`validate_mode_setting.cpp`, run by
//! `ValidateEntryPoints`): no instruction that an entry point with the
//! `FPFastMathDefault` execution mode reaches is decorated `NoContraction` or
//! `FPFastMathMode Fast`, itself or through a value outside functions (a spec constant
//! operation) that it uses.
//!
//! Linear: the functions those entry points reach are marked in one walk of the call
//! graph, each instruction is looked at once, and the uses of ids outside functions
//! are gathered in one pass over the module, only when a decorated one needs them.

use super::super::error::ValidationErrorKind;
use super::super::validation_state::EntryCalls;
use super::super::{Fault, Query};
use super::ModeError;
use crate::__private::Vec;
use crate::grammar::KindClass;
use crate::spv::{Decoration as D, ExecutionMode as M, FPFastMathMode, Opcode as O};
use alloc::collections::{BTreeMap, BTreeSet};

/// `ValidateFloatControls2`.
pub(in crate::validate) fn check(q: &Query<'_>, calls: &EntryCalls) -> Result<(), Fault> {
    // The entry points with `FPFastMathDefault`.
    let mut roots = BTreeSet::new();
    // Decorated instructions by index, with whether the decoration is `NoContraction`.
    let mut work: Vec<(usize, bool)> = Vec::new();
    for inst in q.module.instructions() {
        let w = inst.words();
        match inst.opcode() {
            O::ExecutionMode | O::ExecutionModeId if w.get(2) == Some(&M::FPFastMathDefault.0) => {
                let target = w.get(1).copied().unwrap_or(0);
                if q.state.entry_points.contains(&target) {
                    roots.insert(target);
                }
            }
            O::Decorate => {
                let no_contraction = w.get(2) == Some(&D::NoContraction.0);
                let fast = w.get(2) == Some(&D::FPFastMathMode.0)
                    && w.get(3).is_some_and(|m| m & FPFastMathMode::FAST.0 != 0);
                let def = w.get(1).and_then(|&t| q.state.def(t));
                if let (true, Some(def)) = (no_contraction || fast, def) {
                    work.push((def.index as usize, no_contraction));
                }
            }
            _ => {}
        }
    }
    if roots.is_empty() || work.is_empty() {
        return Ok(());
    }
    let mut reached = alloc::vec![0u32; calls.functions.len()];
    calls.flood(roots.iter().copied(), &mut reached, 1, |_| true);
    // The function (by position) whose body holds instruction `index`.
    let function_of = |index: usize| {
        let after = calls.functions.partition_point(|f| f.body.start <= index);
        after
            .checked_sub(1)
            .filter(|&f| calls.functions[f].body.contains(&index))
    };
    let mut uses: Option<BTreeMap<u32, Vec<usize>>> = None;
    let mut visited = BTreeSet::new();
    while let Some((index, no_contraction)) = work.pop() {
        if !visited.insert(index) {
            continue;
        }
        if let Some(f) = function_of(index) {
            if reached.get(f) == Some(&1) {
                let kind = if no_contraction {
                    ModeError::NoContractionWithFastMathDefault
                } else {
                    ModeError::FastWithFastMathDefault
                };
                return Err(Fault::at(ValidationErrorKind::Mode(kind), index as u32));
            }
            continue;
        }
        let Some(id) = q.module.instruction(index).and_then(|i| i.result_id()) else {
            continue;
        };
        let uses = uses.get_or_insert_with(|| users(q));
        if let Some(list) = uses.get(&id.0) {
            work.extend(list.iter().map(|&u| (u, no_contraction)));
        }
    }
    Ok(())
}

/// Every id's users (`uses()`): the instructions naming it as an operand other than
/// their result, in module order, once per operand.
fn users(q: &Query<'_>) -> BTreeMap<u32, Vec<usize>> {
    let mut out: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
    for inst in q.module.instructions() {
        let index = inst.index();
        let _ = inst.visit_ids(|class, id| {
            if class != KindClass::Result {
                out.entry(id.0).or_default().push(index);
            }
        });
    }
    out
}
