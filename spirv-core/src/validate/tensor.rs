//! spirv-val's tensor pass (`TensorPass` in `validate_tensor.cpp`): the
//! `SPV_ARM_tensors` instructions that read, write and measure a ranked tensor. A read's
//! result and a write's object are a scalar, or an array of scalars, of the tensor's
//! element type; coordinates are an integer array as long as the tensor's rank; the
//! tensor operands a read or a write may not take; a size query's dimension is a
//! constant below the rank. (The tensor types and constants have their rules in the
//! type and constant passes.)

use super::faults::faults;
use super::{Fault, Inst, Query};
use crate::spirv_tools::is_constant;
use crate::spv::Opcode as O;
use TensorError as E;

faults! {
    /// A fault of spirv-val's tensor pass (`validate_tensor.cpp`).
    pub enum TensorError {
        /// A read whose result is no scalar or array of scalars.
        ReadResult => "Expected Result Type to be a scalar type or array of scalar type.",
        /// A tensor operand whose type is no `OpTypeTensorARM` with a rank.
        NotRanked => "Expected Tensor to be an OpTypeTensorARM whose Rank is specified",
        /// A read whose result's scalar is not the tensor's element type.
        ReadElement => "Expected Result Type to be the same as the Element Type of Tensor.",
        /// Coordinates that are no integer array as long as the tensor's rank.
        Coordinates
            => "Expected Coordinates to be an array whose Element Type is an integer type and whose Length is equal to the Rank of Tensor.",
        /// `OutOfBoundsValueARM` without its value.
        OutOfBoundsMissing => "A value must be provided after the OutOfBoundsValueARM Tensor Operand.",
        /// An out-of-bounds value whose type is not the tensor's element type.
        OutOfBoundsType
            => "Expected the type of the OutOfBoundsValueARM value to be the same as the Element Type of Tensor.",
        /// A read with `MakeElementAvailableARM`.
        ReadAvailable => "MakeElementAvailableARM cannot be used with OpTensorReadARM.",
        /// `MakeElementVisibleARM` (on a read) or `MakeElementAvailableARM` (on a
        /// write) without `NonPrivateElementARM` (spirv-val names the second in both).
        NeedsNonPrivate => "MakeElementAvailableARM requires NonPrivateElementARM.",
        /// A write whose object is no scalar or array of the tensor's element type.
        WriteObject
            => "Expected Object to be a scalar type or array of scalar type that is the same as the Element Type of Tensor.",
        /// A write with `OutOfBoundsValueARM`.
        WriteOutOfBounds => "OutOfBoundsValue Tensor Operand not allowed with OpTensorWriteARM.",
        /// A write with `MakeElementVisibleARM`.
        WriteVisible => "MakeElementVisibleARM not allowed with OpTensorWriteARM.",
        /// A size query whose result is no integer scalar.
        QueryResult => "Expected Result Type to be an integer type scalar",
        /// A dimension that is no constant integer scalar.
        DimensionType => "Dimension must come from a constant instruction of scalar integer type.",
        /// A dimension not below the tensor's rank.
        DimensionRange {
            /// The dimension.
            dim: u64,
            /// The tensor's rank.
            rank: u64,
        } => "Dimension ({dim}) must be less than the Rank of Tensor ({rank}).",
    }
}

/// `TensorPass` for one instruction.
#[inline(always)]
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    match inst.opcode {
        O::TensorReadARM => read(q, inst),
        O::TensorWriteARM => write(q, inst),
        O::TensorQuerySizeARM => query_size(q, inst),
        _ => Ok(()),
    }
}

/// `IsRankedTensor`: an `OpTypeTensorARM` that names its rank.
fn is_ranked(q: &Query<'_>, t: u32) -> bool {
    q.opcode(t) == O::TypeTensorARM && q.word(t, 3).is_some()
}

/// `GetTensorTypeRank`: the rank of a ranked tensor type, 0 when unknown.
fn rank(q: &Query<'_>, t: u32) -> u64 {
    if !is_ranked(q, t) {
        return 0;
    }
    q.word(t, 3).and_then(|r| q.constant_u64(r)).unwrap_or(0)
}

/// `IsScalarTypeOrOrArrayOfScalarType`.
fn scalar_or_array(q: &Query<'_>, t: u32) -> bool {
    q.is_scalar_type(t)
        || (q.opcode(t) == O::TypeArray && q.word(t, 2).is_some_and(|e| q.is_scalar_type(e)))
}

/// `IsIntArrayType(id, length)`: an `OpTypeArray` of integers whose length is a
/// constant equal to `length` when both are known (any length when `length` is 0).
fn is_int_array(q: &Query<'_>, t: u32, length: u64) -> bool {
    if q.opcode(t) != O::TypeArray {
        return false;
    }
    if length != 0 {
        let len = q.word(t, 3).unwrap_or(0);
        if q.def(len).is_none()
            || !is_constant(q.opcode(len))
            || q.constant_u64(len).is_some_and(|v| v != length)
        {
            return false;
        }
    }
    q.is_int_scalar_type(q.component_type(t))
}

/// Tensor operands mask bits.
const OUT_OF_BOUNDS_VALUE: u32 = 0x2;
const MAKE_ELEMENT_AVAILABLE: u32 = 0x4;
const MAKE_ELEMENT_VISIBLE: u32 = 0x8;
const NON_PRIVATE_ELEMENT: u32 = 0x10;

/// Whether tensor-operands `mask` sets `bit`.
fn has(mask: u32, bit: u32) -> bool {
    mask & bit != 0
}

/// `ValidateTensorRead`.
fn read(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let w = inst.words;
    let ty = inst.result_type();
    if !scalar_or_array(q, ty) {
        return Err(E::ReadResult.into());
    }
    let tensor = w.get(3).copied().unwrap_or(0);
    let tensor_ty = q.type_of(tensor);
    if q.def(tensor).is_none() || !is_ranked(q, tensor_ty) {
        return Err(E::NotRanked.into());
    }
    let element = q.component_type(tensor_ty);
    if element != q.component_type(ty) {
        return Err(E::ReadElement.into());
    }
    let coordinates = q.type_of(w.get(4).copied().unwrap_or(0));
    if !is_int_array(q, coordinates, rank(q, tensor_ty)) {
        return Err(E::Coordinates.into());
    }
    if let Some(&mask) = w.get(5) {
        if has(mask, OUT_OF_BOUNDS_VALUE) {
            let Some(&value) = w.get(6) else {
                return Err(E::OutOfBoundsMissing.into());
            };
            if element != q.component_type(q.type_of(value)) {
                return Err(E::OutOfBoundsType.into());
            }
        }
        if has(mask, MAKE_ELEMENT_AVAILABLE) {
            return Err(E::ReadAvailable.into());
        }
        if has(mask, MAKE_ELEMENT_VISIBLE) && !has(mask, NON_PRIVATE_ELEMENT) {
            return Err(E::NeedsNonPrivate.into());
        }
    }
    Ok(())
}

/// `ValidateTensorWrite`.
fn write(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let w = inst.words;
    let tensor_ty = q.type_of(w.get(1).copied().unwrap_or(0));
    if !is_ranked(q, tensor_ty) {
        return Err(E::NotRanked.into());
    }
    let coordinates = q.type_of(w.get(2).copied().unwrap_or(0));
    if !is_int_array(q, coordinates, rank(q, tensor_ty)) {
        return Err(E::Coordinates.into());
    }
    let object = q.type_of(w.get(3).copied().unwrap_or(0));
    if !scalar_or_array(q, object) || q.component_type(object) != q.component_type(tensor_ty) {
        return Err(E::WriteObject.into());
    }
    // spirv-val reads the mask only when a word follows it.
    if w.len() > 5 {
        let mask = w[4];
        if has(mask, OUT_OF_BOUNDS_VALUE) {
            return Err(E::WriteOutOfBounds.into());
        }
        if has(mask, MAKE_ELEMENT_VISIBLE) {
            return Err(E::WriteVisible.into());
        }
        if has(mask, MAKE_ELEMENT_AVAILABLE) && !has(mask, NON_PRIVATE_ELEMENT) {
            return Err(E::NeedsNonPrivate.into());
        }
    }
    Ok(())
}

/// `ValidateTensorQuerySize`.
fn query_size(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let w = inst.words;
    if !q.is_int_scalar_type(inst.result_type()) {
        return Err(E::QueryResult.into());
    }
    let tensor = w.get(3).copied().unwrap_or(0);
    let tensor_ty = q.type_of(tensor);
    if q.def(tensor).is_none() || !is_ranked(q, tensor_ty) {
        return Err(E::NotRanked.into());
    }
    let dim = w.get(4).copied().unwrap_or(0);
    if !is_constant(q.opcode(dim)) || !q.is_int_scalar_type(q.type_of(dim)) {
        return Err(E::DimensionType.into());
    }
    let rank = q.word(tensor_ty, 3).and_then(|r| q.constant_u64(r));
    if let (Some(rank), Some(dim)) = (rank, q.constant_u64(dim)) {
        if dim >= rank {
            return Err(E::DimensionRange { dim, rank }.into());
        }
    }
    Ok(())
}

/// What this family checks (see [`coverage`](crate::validate::coverage)).
pub(crate) const COVERAGE: crate::validate::coverage::Family = crate::validate::coverage::Family {
    opcodes: &[O::TensorReadARM, O::TensorWriteARM, O::TensorQuerySizeARM],
    ..crate::validate::coverage::Family::new("tensors", "validate_tensor.cpp")
};
