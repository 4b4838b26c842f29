//! spirv-val's memory rules for cooperative vectors (`validate_memory.cpp`):
//! `OpCooperativeVectorLoadNV`/`StoreNV` with their memory access operands,
//! `OpCooperativeVectorOuterProductAccumulateNV`,
//! `OpCooperativeVectorReduceSumAccumulateNV` and
//! `OpCooperativeVectorMatrixMulNV`/`MatrixMulAddNV`, each through a pointer to an array
//! of numbers in memory (`ValidateCooperativeVectorPointer`).

use super::super::Query;
use super::super::{Fault, Inst};
use super::MemoryError as E;
use super::access::{logical_pointer, memory_access};
use crate::spirv_tools::is_constant;
use crate::spv::{Opcode as O, StorageClass as S};
use crate::types::Id;

/// `SignedInt8PackedNV` and `UnsignedInt8PackedNV`: interpretations whose input holds
/// four components a word, so its count is not `K`.
const PACKED: [u32; 2] = [1000491000, 1000491001];

/// `ValidateCooperativeVectorPointer`: operand `index` is a logical pointer to an array
/// of scalars or vectors in Workgroup, StorageBuffer or PhysicalStorageBuffer memory.
fn pointer(q: &Query<'_>, inst: &Inst<'_>, index: usize) -> Result<(), Fault> {
    let opcode = inst.opcode;
    let pointer_id = inst.word(index);
    let pointer = Id(pointer_id);
    match q.def(pointer_id) {
        Some(p) if logical_pointer(q, &p) => {}
        _ => return Err(Fault::from(E::CooperativeNotLogical { opcode, pointer })),
    }
    let pointer_type_id = q.type_of(pointer_id);
    let Some(pointer_type) = q
        .def(pointer_type_id)
        .filter(|t| t.opcode() == O::TypePointer)
    else {
        return Err(Fault::from(E::CooperativePointerType { opcode, pointer }));
    };
    let sc = S(pointer_type.words().get(2).copied().unwrap_or(u32::MAX));
    if !matches!(
        sc,
        S::Workgroup | S::StorageBuffer | S::PhysicalStorageBuffer
    ) {
        let ty = Id(pointer_type_id);
        return Err(Fault::from(E::CooperativeStorageClassNv { opcode, ty }));
    }
    let pointee = pointer_type.words().get(3).copied().unwrap_or(0);
    if !matches!(q.opcode(pointee), O::TypeArray | O::TypeRuntimeArray) {
        return Err(Fault::from(E::VectorPointeeArray { opcode, pointer }));
    }
    let element = q.word(pointee, 2).unwrap_or(0);
    if q.def(element).is_none()
        || !(q.is_int_scalar_or_vector_type(element) || q.is_float_scalar_or_vector_type(element))
    {
        return Err(Fault::from(E::VectorPointeeElement { opcode, pointer }));
    }
    Ok(())
}

/// `ValidateInt32Operand`: operand `index` is a 32-bit integer.
fn int32(q: &Query<'_>, inst: &Inst<'_>, index: usize, operand: &'static str) -> Result<(), Fault> {
    let ty = q.type_of(inst.word(index));
    if !q.is_int_scalar_type(ty) || q.bit_width(ty) != 32 {
        let (opcode, ty) = (inst.opcode, Id(ty));
        return Err(Fault::from(E::OperandNotInt32 {
            opcode,
            operand,
            ty,
        }));
    }
    Ok(())
}

/// `ValidateInt32Or64Operand`: operand `index` is a 32- or 64-bit integer.
fn int32_or_64(
    q: &Query<'_>,
    inst: &Inst<'_>,
    index: usize,
    operand: &'static str,
) -> Result<(), Fault> {
    let ty = q.type_of(inst.word(index));
    if !q.is_int_scalar_type(ty) || !matches!(q.bit_width(ty), 32 | 64) {
        let (opcode, ty) = (inst.opcode, Id(ty));
        return Err(Fault::from(E::OperandNotInt32Or64 {
            opcode,
            operand,
            ty,
        }));
    }
    Ok(())
}

/// The type of operand `index` if it is a cooperative vector, else the fault naming
/// it `operand`.
fn vector_operand<'a>(
    q: &Query<'a>,
    inst: &Inst<'_>,
    index: usize,
    operand: &'static str,
) -> Result<crate::module::InstRef<'a>, Fault> {
    let ty = q.type_of(inst.word(index));
    q.def(ty)
        .filter(|t| t.opcode() == O::TypeCooperativeVectorNV)
        .ok_or_else(|| {
            Fault::from(E::OperandNotCooperativeVector {
                opcode: inst.opcode,
                operand,
                ty: Id(ty),
            })
        })
}

/// `ValidateCooperativeVectorLoadStoreNV`.
pub(crate) fn load_store(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let load = inst.opcode == O::CooperativeVectorLoadNV;
    let type_id = if load {
        inst.word(0)
    } else {
        q.type_of(inst.word(2))
    };
    let Some(vector) = q.def(type_id) else {
        return Ok(());
    };
    if vector.opcode() != O::TypeCooperativeVectorNV {
        let ty = Id(type_id);
        return Err(Fault::from(if load {
            E::LoadNotCooperativeVector { ty }
        } else {
            E::StoreNotCooperativeVector { ty }
        }));
    }
    pointer(q, inst, if load { 2 } else { 0 })?;
    int32_or_64(q, inst, if load { 3 } else { 1 }, "Offset")?;
    let access = if load { 4 } else { 3 };
    if inst.operands.len() > access {
        memory_access(q, inst, access)?;
    }
    Ok(())
}

/// `ValidateCooperativeVectorOuterProductNV`.
pub(crate) fn outer_product(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    pointer(q, inst, 0)?;
    let a = vector_operand(q, inst, 2, "A")?;
    let b = vector_operand(q, inst, 3, "B")?;
    let a = a.words().get(2).copied().unwrap_or(0);
    let b = b.words().get(2).copied().unwrap_or(0);
    if a != b {
        return Err(Fault::from(E::VectorComponentsDiffer {
            a: Id(a),
            b: Id(b),
        }));
    }
    int32_or_64(q, inst, 1, "Offset")?;
    int32(q, inst, 4, "MemoryLayout")?;
    int32(q, inst, 5, "MatrixInterpretation")?;
    if inst.operands.len() > 6 {
        int32(q, inst, 6, "MatrixStride")?;
    }
    Ok(())
}

/// `ValidateCooperativeVectorReduceSumNV`.
pub(crate) fn reduce_sum(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    pointer(q, inst, 0)?;
    vector_operand(q, inst, 2, "V")?;
    int32_or_64(q, inst, 1, "Offset")
}

/// `ValidateCooperativeVectorMatrixMulNV` (for both opcodes).
pub(crate) fn matrix_mul(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let opcode = inst.opcode;
    let bias = opcode == O::CooperativeVectorMatrixMulAddNV;
    // Operand indexes: the bias, its offset and interpretation sit before M.
    let after_bias = if bias { 3 } else { 0 };
    let (input_interp, matrix, matrix_offset, matrix_interp) = (3, 4, 5, 6);
    let (bias_index, bias_offset, bias_interp) = (7, 8, 9);
    let (m, k, layout, transpose) = (
        7 + after_bias,
        8 + after_bias,
        9 + after_bias,
        10 + after_bias,
    );
    pointer(q, inst, matrix)?;
    if bias {
        pointer(q, inst, bias_index)?;
    }
    let result = vector_operand_type(q, inst)?;
    let component = result.words().get(2).copied().unwrap_or(0);
    let width = q.bit_width(component);
    let int_32 = q.is_int_scalar_type(component) && width == 32;
    let float16_or_32 = q.is_float_scalar_type(component) && matches!(width, 16 | 32);
    if !(int_32 || float16_or_32) {
        return Err(Fault::from(E::MulResultComponent {
            opcode,
            ty: Id(component),
        }));
    }
    let m_eval = q.int32_if_const(inst.word(m));
    let count = q.int32_if_const(result.words().get(3).copied().unwrap_or(0));
    if m_eval.1 && count.1 && m_eval.2 != count.2 {
        return Err(Fault::from(E::MulResultCount {
            opcode,
            count: count.2,
            m: m_eval.2,
        }));
    }
    let k_eval = q.int32_if_const(inst.word(k));
    let input_type = q.type_of(inst.word(2));
    let input_count = q.word(input_type, 3).unwrap_or(0);
    let interp = q.int32_if_const(inst.word(input_interp));
    if interp.1 && !PACKED.contains(&interp.2) {
        let count = q.int32_if_const(input_count);
        if count.1 && k_eval.1 && count.2 != k_eval.2 {
            return Err(Fault::from(E::MulInputCount {
                opcode,
                count: count.2,
                k: k_eval.2,
            }));
        }
    }
    let transpose_id = inst.word(transpose);
    if !q.is_bool_scalar_type(q.type_of(transpose_id)) {
        return Err(Fault::from(E::TransposeNotBool {
            opcode,
            id: Id(transpose_id),
        }));
    }
    let constants: [(usize, &'static str, bool); 7] = [
        (input_interp, "InputInterpretation", true),
        (matrix_interp, "MatrixInterpretation", true),
        (bias_interp, "BiasInterpretation", bias),
        (m, "M", true),
        (k, "K", true),
        (layout, "MemoryLayout", true),
        (transpose, "Transpose", true),
    ];
    for &(index, operand, _) in constants.iter().filter(|c| c.2) {
        let id = inst.word(index);
        if !is_constant(q.opcode(id)) {
            return Err(Fault::from(E::OperandNotConstant {
                opcode,
                operand,
                id: Id(id),
            }));
        }
    }
    // Every operand checked for being constant but `Transpose` is a 32-bit integer.
    for &(index, operand, _) in constants[..6].iter().filter(|c| c.2) {
        int32(q, inst, index, operand)?;
    }
    int32_or_64(q, inst, matrix_offset, "MatrixOffset")?;
    if bias {
        int32_or_64(q, inst, bias_offset, "BiasOffset")?;
    }
    Ok(())
}

/// A matrix multiplication's result type, which must be a cooperative vector.
fn vector_operand_type<'a>(
    q: &Query<'a>,
    inst: &Inst<'_>,
) -> Result<crate::module::InstRef<'a>, Fault> {
    let ty = inst.word(0);
    q.def(ty)
        .filter(|t| t.opcode() == O::TypeCooperativeVectorNV)
        .ok_or_else(|| {
            Fault::from(E::OperandNotCooperativeVector {
                opcode: inst.opcode,
                operand: "result",
                ty: Id(ty),
            })
        })
}
