//! spirv-val's rules for `SPV_QCOM_cooperative_matrix_conversion`'s instructions
//! (`OpCompositeConstructCoopMatQCOM`, `OpCompositeExtractCoopMatQCOM`,
//! `OpExtractSubArrayQCOM` of the composites pass, `OpBitCastArrayQCOM` of the
//! conversion pass): arrays to and from subgroup cooperative matrices whose rows or
//! columns hold 256 bits, and arrays reinterpreted as arrays of the same bit length.

use super::Query;
use super::operations::{OperationError, QcomRule as R};
use super::validation_state::Scalar;
use super::{Fault, Inst};
use crate::spirv_tools::is_spec_constant;
use crate::spv::{CooperativeMatrixUse as U, Opcode as O, Scope};

/// A fault of rule `rule` for `inst`.
fn fault(inst: &Inst<'_>, rule: R) -> Fault {
    super::ErrorKind::Operation(OperationError::Qcom {
        rule,
        opcode: inst.opcode,
    })
    .into()
}

/// `GetConstantValueAs<unsigned>`: the value of an integer `OpConstant` (or
/// `OpConstantNull`) truncated to 32 bits.
fn constant(q: &Query<'_>, id: u32) -> Option<u32> {
    q.constant_u64(id).map(|v| v as u32)
}

/// Whether `id` is a spec constant (an array length or matrix size not checked).
fn spec(q: &Query<'_>, id: u32) -> bool {
    is_spec_constant(q.opcode(id))
}

/// A 32-bit unsigned integer (as the rules ask it: containing a 32-bit integer and
/// being an unsigned scalar).
fn uint32(q: &Query<'_>, t: u32) -> bool {
    q.contains_sized(t, Scalar::Int32) && q.is_unsigned_int_scalar_type(t)
}

/// Whether a matrix of component type `t` has `n` components of 256 bits in all.
fn bits_256(q: &Query<'_>, t: u32, n: Option<u32>) -> bool {
    let n = n.unwrap_or(u32::MAX);
    (q.contains_sized(t, Scalar::Int8) && n == 32)
        || (q.contains_sized(t, Scalar::Float16) && n == 16)
        || (q.contains_sized(t, Scalar::Float32) && n == 8)
}

/// A subgroup scope, unless a spec constant.
fn subgroup(q: &Query<'_>, scope: u32) -> bool {
    spec(q, scope) || constant(q, scope) == Some(Scope::Subgroup.0)
}

/// The use of a KHR cooperative matrix type, `u32::MAX` when not a known constant.
fn usage(q: &Query<'_>, matrix: u32) -> u32 {
    q.word(matrix, 6)
        .and_then(|u| constant(q, u))
        .unwrap_or(u32::MAX)
}

/// `OpCompositeConstructCoopMatQCOM`: a matrix from an array.
pub(super) fn construct(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let result = inst.result_type();
    if !q.is_cooperative_matrix_khr_type(result) {
        return Err(fault(inst, R::ResultMatrix));
    }
    let source = q.operand_type(inst, 2);
    if q.opcode(source) != O::TypeArray {
        return Err(fault(inst, R::InputArray));
    }
    let at = |t: u32, i: usize| q.word(t, i).unwrap_or(0);
    if !subgroup(q, at(result, 3)) {
        return Err(fault(inst, R::ResultScope));
    }
    let length_id = at(source, 3);
    let length = constant(q, length_id);
    let length_spec = spec(q, length_id);
    let source_elt = at(source, 2);
    let result_elt = at(result, 2);
    if source_elt != result_elt && !uint32(q, source_elt) {
        return Err(fault(inst, R::ConstructElement));
    }
    let (rows, columns) = (at(result, 4), at(result, 5));
    let n_or_max = |v: Option<u32>| v.unwrap_or(u32::MAX);
    match usage(q, result) {
        u @ (0 | 1) => {
            let a = u == U::MatrixAKHR.0;
            if !q.int_n_or_float(result_elt, Scalar::Int8) {
                return Err(fault(
                    inst,
                    if a {
                        R::ConstructAType
                    } else {
                        R::ConstructBType
                    },
                ));
            }
            let size_id = if a { columns } else { rows };
            let size = constant(q, size_id);
            if !spec(q, size_id) && (size.is_none() || !bits_256(q, result_elt, size)) {
                return Err(fault(
                    inst,
                    if a {
                        R::ConstructAColumns
                    } else {
                        R::ConstructBRows
                    },
                ));
            }
            let packed = uint32(q, source_elt) && length == Some(8);
            if !length_spec && (length.is_none() || (!packed && n_or_max(size) != n_or_max(length)))
            {
                return Err(fault(
                    inst,
                    if a {
                        R::ConstructALength
                    } else {
                        R::ConstructBLength
                    },
                ));
            }
        }
        2 => {
            if !q.int_n_or_float(result_elt, Scalar::Int32) {
                return Err(fault(inst, R::ConstructAccType));
            }
            let size = constant(q, columns);
            let (n, len) = (n_or_max(size), n_or_max(length));
            let packed = uint32(q, source_elt)
                && if q.contains_sized(result_elt, Scalar::Float16) {
                    n / 2 == len
                } else {
                    n == len
                };
            if !spec(q, columns)
                && !length_spec
                && (size.is_none() || length.is_none() || (!packed && n != len))
            {
                return Err(fault(inst, R::ConstructAccLength));
            }
        }
        // spirv-val excuses a spec constant use whose value is known, which none is.
        _ => return Err(fault(inst, R::ConstructUse)),
    }
    Ok(())
}

/// `OpCompositeExtractCoopMatQCOM`: an array from a matrix.
pub(super) fn extract(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let result = inst.result_type();
    if q.opcode(result) != O::TypeArray {
        return Err(fault(inst, R::InputArray));
    }
    let source = q.operand_type(inst, 2);
    if !q.is_cooperative_matrix_khr_type(source) {
        return Err(fault(inst, R::SourceMatrix));
    }
    let at = |t: u32, i: usize| q.word(t, i).unwrap_or(0);
    if !subgroup(q, at(source, 3)) {
        return Err(fault(inst, R::SourceScope));
    }
    let length_id = at(result, 3);
    let length = constant(q, length_id);
    let length_spec = spec(q, length_id);
    let source_elt = at(source, 2);
    let result_elt = at(result, 2);
    let (rows, columns) = (at(source, 4), at(source, 5));
    let len = length.unwrap_or(u32::MAX);
    match usage(q, source) {
        u @ (0 | 1) => {
            let a = u == U::MatrixAKHR.0;
            if !q.int_n_or_float(source_elt, Scalar::Int8) {
                return Err(fault(
                    inst,
                    if a { R::ExtractAType } else { R::ExtractBType },
                ));
            }
            let size_id = if a { columns } else { rows };
            let size = constant(q, size_id);
            if !spec(q, size_id) && (size.is_none() || !bits_256(q, source_elt, size)) {
                return Err(fault(
                    inst,
                    if a {
                        R::ExtractAColumns
                    } else {
                        R::ExtractBRows
                    },
                ));
            }
            let n = size.unwrap_or(u32::MAX);
            let same = source_elt == result_elt && n == len;
            let packed = uint32(q, result_elt) && len == 8;
            if !length_spec && !same && !packed {
                return Err(fault(
                    inst,
                    if a {
                        R::ExtractALength
                    } else {
                        R::ExtractBLength
                    },
                ));
            }
        }
        2 => {
            if !q.int_n_or_float(source_elt, Scalar::Int32) {
                return Err(fault(inst, R::ExtractAccType));
            }
            let size = constant(q, columns);
            let n = size.unwrap_or(u32::MAX);
            let same = source_elt == result_elt && n == len;
            let packed = uint32(q, result_elt)
                && if q.contains_sized(source_elt, Scalar::Float16) {
                    n / 2 == len
                } else {
                    n == len
                };
            if !spec(q, columns)
                && !length_spec
                && (size.is_none() || length.is_none() || (!same && !packed))
            {
                return Err(fault(inst, R::ExtractAccLength));
            }
        }
        _ => return Err(fault(inst, R::ExtractUse)),
    }
    Ok(())
}

/// `OpExtractSubArrayQCOM`: part of an array of 32-bit integers or 16- or 32-bit
/// floats, from a 32-bit integer index.
pub(super) fn sub_array(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let result = inst.result_type();
    let source = q.operand_type(inst, 2);
    if q.opcode(result) != O::TypeArray || q.opcode(source) != O::TypeArray {
        return Err(fault(inst, R::Arrays));
    }
    let source_elt = q.component_type(source);
    if source_elt != q.component_type(result) {
        return Err(fault(inst, R::SubArrayElements));
    }
    if !q.int_n_or_float(source_elt, Scalar::Int32) {
        return Err(fault(inst, R::SubArrayElementType));
    }
    let index = inst.word(3);
    if q.def(index).is_none() || !q.contains_sized(q.type_of(index), Scalar::Int32) {
        return Err(fault(inst, R::SubArrayIndex));
    }
    Ok(())
}

/// `OpBitCastArrayQCOM`: an array of 32-bit integers or 16- or 32-bit floats as
/// another of the same bit length.
pub(super) fn bit_cast(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let result = inst.result_type();
    let source = q.operand_type(inst, 2);
    if q.opcode(result) != O::TypeArray || q.opcode(source) != O::TypeArray {
        return Err(fault(inst, R::Arrays));
    }
    let source_elt = q.component_type(source);
    let result_elt = q.component_type(result);
    if !q.int_n_or_float(source_elt, Scalar::Int32) {
        return Err(fault(inst, R::CastSourceType));
    }
    if !q.int_n_or_float(result_elt, Scalar::Int32) {
        return Err(fault(inst, R::CastResultType));
    }
    let (source_len, result_len) = (
        q.word(source, 3).unwrap_or(0),
        q.word(result, 3).unwrap_or(0),
    );
    let (source_n, result_n) = (constant(q, source_len), constant(q, result_len));
    let bits = |elt: u32, n: Option<u32>| q.bit_width(elt).wrapping_mul(n.unwrap_or(u32::MAX));
    if !spec(q, source_len)
        && !spec(q, result_len)
        && (source_n.is_none()
            || result_n.is_none()
            || bits(source_elt, source_n) != bits(result_elt, result_n))
    {
        return Err(fault(inst, R::CastLengths));
    }
    Ok(())
}
