//! spirv-val's tensor-layout pass (`TensorLayoutPass` in `validate_tensor_layout.cpp`):
//! the `SPV_NV_tensor_addressing` instructions that create and update tensor layouts
//! and tensor views. Each result must be of the kind it makes; an update's result type
//! must be its operand's, and it takes as many 32-bit integer values as the layout's
//! `Dim` asks (`Dim`, twice `Dim`, one, or four).

use super::faults::faults;
use super::{Fault, Inst, Query};
use crate::spv::{Opcode, Opcode as O};
use crate::types::Id;
use TensorLayoutError as E;

faults! {
    /// A fault of spirv-val's tensor-layout pass (`validate_tensor_layout.cpp`).
    pub enum TensorLayoutError {
        /// A result type that is no `OpTypeTensorLayoutNV`.
        NotLayout {
            opcode: Opcode,
            /// The result type.
            ty: Id,
        } => "{opcode} Result Type <id> {ty} is not a tensor layout type.",
        /// A result type that is no `OpTypeTensorViewNV`.
        NotView {
            opcode: Opcode,
            /// The result type.
            ty: Id,
        } => "{opcode} Result Type <id> {ty} is not a tensor view type.",
        /// An update whose result type is not its layout's or view's type.
        TypeMismatch {
            opcode: Opcode,
            /// The result type.
            ty: Id,
            /// `TensorLayout` or `TensorView`.
            kind: &'static str,
        } => "{opcode} Result Type <id> {ty} does not match {kind} type.",
        /// An update with another number of values than its type's `Dim` asks.
        ValueCount {
            opcode: Opcode,
        } => "{opcode} unexpected number of operands.",
        /// A value that is no 32-bit integer.
        ValueNot32 {
            opcode: Opcode,
            /// The value.
            value: Id,
        } => "{opcode} operand <id> {value} is not a 32-bit integer.",
    }
}

/// How many values an update takes (spirv-val's `ExpectedNumValues`).
#[derive(Clone, Copy)]
enum Count {
    Dim,
    TwiceDim,
    One,
    Four,
}

/// `TensorLayoutPass` for one instruction.
#[inline(always)]
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let (count, view) = match inst.opcode {
        O::CreateTensorLayoutNV => return result_type(q, inst, false),
        O::CreateTensorViewNV => return result_type(q, inst, true),
        O::TensorLayoutSetBlockSizeNV
        | O::TensorLayoutSetDimensionNV
        | O::TensorLayoutSetStrideNV => (Count::Dim, false),
        O::TensorLayoutSliceNV => (Count::TwiceDim, false),
        O::TensorLayoutSetClampValueNV => (Count::One, false),
        O::TensorViewSetDimensionNV | O::TensorViewSetStrideNV => (Count::Dim, true),
        O::TensorViewSetClipNV => (Count::Four, true),
        _ => return Ok(()),
    };
    with_values(q, inst, count, view)
}

/// `ValidateTensorLayoutResultTypeNV` / `ValidateTensorViewResultTypeNV`.
fn result_type(q: &Query<'_>, inst: &Inst<'_>, view: bool) -> Result<(), Fault> {
    let opcode = inst.opcode;
    let ty = inst.word(0);
    match (view, q.opcode(ty)) {
        (false, O::TypeTensorLayoutNV) | (true, O::TypeTensorViewNV) => Ok(()),
        (false, _) => Err(E::NotLayout { opcode, ty: Id(ty) }.into()),
        (true, _) => Err(E::NotView { opcode, ty: Id(ty) }.into()),
    }
}

/// `ValidateTensorTypeWithDimValuesNV`.
fn with_values(q: &Query<'_>, inst: &Inst<'_>, count: Count, view: bool) -> Result<(), Fault> {
    result_type(q, inst, view)?;
    let opcode = inst.opcode;
    let ty = inst.word(0);
    let operand = inst.word(2);
    if q.def(operand).is_none() || q.type_of(operand) != ty {
        let kind = if view { "TensorView" } else { "TensorLayout" };
        return Err(E::TypeMismatch {
            opcode,
            ty: Id(ty),
            kind,
        }
        .into());
    }
    let values = inst.operands.len().saturating_sub(3);
    // Both kinds of type name their `Dim` first.
    if let Some(dim) = q.word(ty, 2).and_then(|d| q.constant_u64(d)) {
        let expected = match count {
            Count::Dim => dim,
            Count::TwiceDim => dim.wrapping_mul(2),
            Count::One => 1,
            Count::Four => 4,
        };
        if values as u64 != expected {
            return Err(E::ValueCount { opcode }.into());
        }
    }
    for i in 3..3 + values {
        let value = inst.word(i);
        let t = q.type_of(value);
        if q.def(value).is_none() || !q.is_int_scalar_type(t) || q.bit_width(t) != 32 {
            return Err(E::ValueNot32 {
                opcode,
                value: Id(value),
            }
            .into());
        }
    }
    Ok(())
}

/// What this family checks (see [`coverage`](crate::validate::coverage)).
pub(crate) const COVERAGE: crate::validate::coverage::Family = crate::validate::coverage::Family {
    opcodes: &[
        O::CreateTensorLayoutNV,
        O::CreateTensorViewNV,
        O::TensorLayoutSetBlockSizeNV,
        O::TensorLayoutSetDimensionNV,
        O::TensorLayoutSetStrideNV,
        O::TensorLayoutSliceNV,
        O::TensorLayoutSetClampValueNV,
        O::TensorViewSetDimensionNV,
        O::TensorViewSetStrideNV,
        O::TensorViewSetClipNV,
    ],
    ..crate::validate::coverage::Family::new("tensor layouts", "validate_tensor_layout.cpp")
};
