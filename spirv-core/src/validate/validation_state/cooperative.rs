//! The cooperative types' shape questions `ValidationState_t` answers with a fault of
//! its own (`CooperativeMatrixShapesMatch`, `CooperativeVectorDimensionsMatch` in
//! `validation_state.cpp`), which the arithmetics and conversion passes ask, and the
//! use of a KHR cooperative matrix (`IsCooperativeMatrixAType` and its kin).

use super::Query;
use crate::spv::{self, Opcode as O};
use crate::validate::Fault;
use crate::validate::faults::faults;
use ShapeError as E;

faults! {
    /// Two cooperative types whose shapes differ, as `ValidationState_t` reports it.
    pub enum ShapeError {
        CooperativeMatrixTypes => "Expected cooperative matrix types",
        MatrixScopes => "Expected scopes of Matrix and Result Type to be identical",
        MatrixRows => "Expected rows of Matrix type and Result Type to be identical",
        MatrixRowsSwapped => "Expected rows of Matrix type and Result Type to be swapped with columns",
        MatrixColumns => "Expected columns of Matrix type and Result Type to be identical",
        MatrixColumnsSwapped => "Expected columns of Matrix type and Result Type to be swapped with rows",
        MatrixUse => "Expected Use of Matrix type and Result Type to be identical",
        CooperativeVectorTypes => "Expected cooperative vector types",
        VectorComponents => "Expected number of components to be identical",
    }
}

/// `CooperativeMatrixShapesMatch`: two cooperative matrix types of one kind whose
/// scopes, rows, columns (rows and columns swapped for a transpose) and, for the KHR
/// kind, uses match where they are known constants. A conversion may turn an
/// accumulator into another use with `CooperativeMatrixConversionsNV`.
pub(crate) fn cooperative_shapes(
    q: &Query<'_>,
    result: u32,
    other: u32,
    conversion: bool,
    swap: bool,
) -> Result<(), Fault> {
    let op = q.opcode(result);
    if op != q.opcode(other) {
        return Err(E::CooperativeMatrixTypes.into());
    }
    let operand = |t: u32, i: usize| q.word(t, i + 1).unwrap_or(0);
    let differ = |a: u32, b: u32| {
        let (_, a_known, a) = q.int32_if_const(a);
        let (_, b_known, b) = q.int32_if_const(b);
        a_known && b_known && a != b
    };
    let (rows, columns) = if swap { (4, 3) } else { (3, 4) };
    if differ(operand(result, 2), operand(other, 2)) {
        return Err(E::MatrixScopes.into());
    }
    if differ(operand(result, rows), operand(other, 3)) {
        return Err(Fault::from(if swap {
            E::MatrixRowsSwapped
        } else {
            E::MatrixRows
        }));
    }
    if differ(operand(result, columns), operand(other, 4)) {
        return Err(Fault::from(if swap {
            E::MatrixColumnsSwapped
        } else {
            E::MatrixColumns
        }));
    }
    if op == O::TypeCooperativeMatrixKHR {
        let (_, a_known, a) = q.int32_if_const(operand(result, 5));
        let (_, b_known, b) = q.int32_if_const(operand(other, 5));
        let accumulator = spv::CooperativeMatrixUse::MatrixAccumulatorKHR.0;
        let excused = conversion
            && q.state
                .has_capability(spv::Capability::CooperativeMatrixConversionsNV.0)
            && b == accumulator;
        if a_known && b_known && a != b && !excused {
            return Err(E::MatrixUse.into());
        }
    }
    Ok(())
}

/// `CooperativeVectorDimensionsMatch`: two cooperative vector types whose sizes match
/// where they are known constants.
pub(crate) fn cooperative_sizes(q: &Query<'_>, a: u32, b: u32) -> Result<(), Fault> {
    if q.opcode(a) != q.opcode(b) {
        return Err(E::CooperativeVectorTypes.into());
    }
    let (_, a_known, a) = q.int32_if_const(q.word(a, 3).unwrap_or(0));
    let (_, b_known, b) = q.int32_if_const(q.word(b, 3).unwrap_or(0));
    if a_known && b_known && a != b {
        return Err(E::VectorComponents.into());
    }
    Ok(())
}

/// `IsCooperativeMatrixAType` and its kin: a KHR cooperative matrix whose use is a
/// known constant equal to `usage`.
pub(crate) fn is_use(q: &Query<'_>, t: u32, usage: spv::CooperativeMatrixUse) -> bool {
    q.is_cooperative_matrix_khr_type(t)
        && q.word(t, 6)
            .and_then(|u| q.constant_u64(u))
            .is_some_and(|u| u == u64::from(usage.0))
}
