//! The composites pass's rules for `SPV_QCOM_cooperative_matrix_conversion`'s
//! instructions (`ValidateCompositeConstructCoopMatQCOM`,
//! `ValidateCompositeExtractCoopMatQCOM`, `ValidateExtractSubArrayQCOM` in
//! `validate_composites.cpp`): arrays to and from subgroup cooperative matrices whose
//! rows or columns hold 256 bits, and parts of arrays.

use super::super::Query;
use super::super::validation_state::Scalar;
use super::super::{Fault, Inst};
use super::CompositeError as E;
use crate::spirv_tools::is_spec_constant;
use crate::spv::{CooperativeMatrixUse as U, Opcode as O, Scope};

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
pub(crate) fn construct(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let result = inst.result_type();
    if !q.is_cooperative_matrix_khr_type(result) {
        return Err(E::ResultMatrix {
            opcode: inst.opcode,
        }
        .into());
    }
    let source = q.operand_type(inst, 2);
    if q.opcode(source) != O::TypeArray {
        return Err(E::InputArray {
            opcode: inst.opcode,
        }
        .into());
    }
    let at = |t: u32, i: usize| q.word(t, i).unwrap_or(0);
    if !subgroup(q, at(result, 3)) {
        return Err(E::ResultScope {
            opcode: inst.opcode,
        }
        .into());
    }
    let length_id = at(source, 3);
    let length = constant(q, length_id);
    let length_spec = spec(q, length_id);
    let source_elt = at(source, 2);
    let result_elt = at(result, 2);
    if source_elt != result_elt && !uint32(q, source_elt) {
        return Err(E::ConstructElement {
            opcode: inst.opcode,
        }
        .into());
    }
    let (rows, columns) = (at(result, 4), at(result, 5));
    let n_or_max = |v: Option<u32>| v.unwrap_or(u32::MAX);
    match usage(q, result) {
        u @ (0 | 1) => {
            let a = u == U::MatrixAKHR.0;
            if !q.int_n_or_float(result_elt, Scalar::Int8) {
                return Err(Fault::from(if a {
                    E::ConstructAType {
                        opcode: inst.opcode,
                    }
                } else {
                    E::ConstructBType {
                        opcode: inst.opcode,
                    }
                }));
            }
            let size_id = if a { columns } else { rows };
            let size = constant(q, size_id);
            if !spec(q, size_id) && (size.is_none() || !bits_256(q, result_elt, size)) {
                return Err(Fault::from(if a {
                    E::ConstructAColumns {
                        opcode: inst.opcode,
                    }
                } else {
                    E::ConstructBRows {
                        opcode: inst.opcode,
                    }
                }));
            }
            let packed = uint32(q, source_elt) && length == Some(8);
            if !length_spec && (length.is_none() || (!packed && n_or_max(size) != n_or_max(length)))
            {
                return Err(Fault::from(if a {
                    E::ConstructALength {
                        opcode: inst.opcode,
                    }
                } else {
                    E::ConstructBLength {
                        opcode: inst.opcode,
                    }
                }));
            }
        }
        2 => {
            if !q.int_n_or_float(result_elt, Scalar::Int32) {
                return Err(E::ConstructAccType {
                    opcode: inst.opcode,
                }
                .into());
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
                return Err(E::ConstructAccLength {
                    opcode: inst.opcode,
                }
                .into());
            }
        }
        // spirv-val excuses a spec constant use whose value is known, which none is.
        _ => {
            return Err(E::ConstructUse {
                opcode: inst.opcode,
            }
            .into());
        }
    }
    Ok(())
}

/// `OpCompositeExtractCoopMatQCOM`: an array from a matrix.
pub(crate) fn extract(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let result = inst.result_type();
    if q.opcode(result) != O::TypeArray {
        return Err(E::InputArray {
            opcode: inst.opcode,
        }
        .into());
    }
    let source = q.operand_type(inst, 2);
    if !q.is_cooperative_matrix_khr_type(source) {
        return Err(E::SourceMatrix {
            opcode: inst.opcode,
        }
        .into());
    }
    let at = |t: u32, i: usize| q.word(t, i).unwrap_or(0);
    if !subgroup(q, at(source, 3)) {
        return Err(E::SourceScope {
            opcode: inst.opcode,
        }
        .into());
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
                return Err(Fault::from(if a {
                    E::ExtractAType {
                        opcode: inst.opcode,
                    }
                } else {
                    E::ExtractBType {
                        opcode: inst.opcode,
                    }
                }));
            }
            let size_id = if a { columns } else { rows };
            let size = constant(q, size_id);
            if !spec(q, size_id) && (size.is_none() || !bits_256(q, source_elt, size)) {
                return Err(Fault::from(if a {
                    E::ExtractAColumns {
                        opcode: inst.opcode,
                    }
                } else {
                    E::ExtractBRows {
                        opcode: inst.opcode,
                    }
                }));
            }
            let n = size.unwrap_or(u32::MAX);
            let same = source_elt == result_elt && n == len;
            let packed = uint32(q, result_elt) && len == 8;
            if !length_spec && !same && !packed {
                return Err(Fault::from(if a {
                    E::ExtractALength {
                        opcode: inst.opcode,
                    }
                } else {
                    E::ExtractBLength {
                        opcode: inst.opcode,
                    }
                }));
            }
        }
        2 => {
            if !q.int_n_or_float(source_elt, Scalar::Int32) {
                return Err(E::ExtractAccType {
                    opcode: inst.opcode,
                }
                .into());
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
                return Err(E::ExtractAccLength {
                    opcode: inst.opcode,
                }
                .into());
            }
        }
        _ => {
            return Err(E::ExtractUse {
                opcode: inst.opcode,
            }
            .into());
        }
    }
    Ok(())
}

/// `OpExtractSubArrayQCOM`: part of an array of 32-bit integers or 16- or 32-bit
/// floats, from a 32-bit integer index.
pub(crate) fn sub_array(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let result = inst.result_type();
    let source = q.operand_type(inst, 2);
    if q.opcode(result) != O::TypeArray || q.opcode(source) != O::TypeArray {
        return Err(E::Arrays {
            opcode: inst.opcode,
        }
        .into());
    }
    let source_elt = q.component_type(source);
    if source_elt != q.component_type(result) {
        return Err(E::SubArrayElements {
            opcode: inst.opcode,
        }
        .into());
    }
    if !q.int_n_or_float(source_elt, Scalar::Int32) {
        return Err(E::SubArrayElementType {
            opcode: inst.opcode,
        }
        .into());
    }
    let index = inst.word(3);
    if q.def(index).is_none() || !q.contains_sized(q.type_of(index), Scalar::Int32) {
        return Err(E::SubArrayIndex {
            opcode: inst.opcode,
        }
        .into());
    }
    Ok(())
}
