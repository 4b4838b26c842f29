//! spirv-val's memory rules for cooperative matrices (`validate_memory.cpp`):
//! `OpCooperativeMatrixLengthNV`/`KHR` and `OpCooperativeMatrixLoadNV`/`StoreNV`,
//! `OpCooperativeMatrixLoadKHR`/`StoreKHR` with their memory layouts (those of
//! `SPV_ARM_cooperative_matrix_layouts` included) and memory access operands, and
//! `OpCooperativeMatrixLoadTensorNV`/`StoreTensorNV` with their tensor layouts, views
//! and decode functions.

use super::super::Query;
use super::super::{Fault, Inst};
use super::MemoryError as E;
use super::access::{access_words, logical_pointer, memory_access};
use crate::spirv_tools::is_constant;
use crate::spirv_tools::is_spec_constant;
use crate::spv::{Capability as C, Opcode as O, StorageClass as S};
use crate::types::Id;

/// `RowBlockedInterleavedARM` and `ColumnBlockedInterleavedARM`.
const ROW_BLOCKED_ARM: u64 = 4202;
const COLUMN_BLOCKED_ARM: u64 = 4203;

/// Tensor addressing operand bits (`TensorAddressingOperandsMask`).
const TENSOR_VIEW: u32 = 0x1;
const DECODE_FUNC: u32 = 0x2;

/// `ValidateCooperativeMatrixLengthNV` (for both opcodes).
pub(crate) fn length(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let opcode = inst.opcode;
    let rt = inst.word(0);
    if q.opcode(rt) != O::TypeInt || q.word(rt, 2) != Some(32) || q.word(rt, 3) != Some(0) {
        return Err(Fault::from(E::CooperativeLengthResultType {
            opcode,
            id: Id(inst.result_id),
        }));
    }
    let ty = inst.word(2);
    let khr = opcode == O::CooperativeMatrixLengthKHR;
    let wanted = if khr {
        O::TypeCooperativeMatrixKHR
    } else {
        O::TypeCooperativeMatrixNV
    };
    if q.def(ty).is_some_and(|t| t.opcode() != wanted) {
        let ty = Id(ty);
        return Err(Fault::from(if khr {
            E::CooperativeLengthTypeKhr { opcode, ty }
        } else {
            E::CooperativeLengthTypeNv { opcode, ty }
        }));
    }
    Ok(())
}

/// `ValidateCooperativeMatrixLoadStoreNV` and `ValidateCooperativeMatrixLoadStoreKHR`.
pub(crate) fn load_store(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let opcode = inst.opcode;
    let khr = matches!(
        opcode,
        O::CooperativeMatrixLoadKHR | O::CooperativeMatrixStoreKHR
    );
    let load = matches!(
        opcode,
        O::CooperativeMatrixLoadKHR | O::CooperativeMatrixLoadNV
    );
    let type_id = if load {
        inst.word(0)
    } else {
        q.type_of(inst.word(1))
    };
    let Some(matrix) = q.def(type_id) else {
        return Ok(());
    };
    let wanted = if khr {
        O::TypeCooperativeMatrixKHR
    } else {
        O::TypeCooperativeMatrixNV
    };
    if matrix.opcode() != wanted {
        let ty = Id(type_id);
        return Err(Fault::from(if load {
            E::LoadNotCooperativeMatrix { opcode, ty }
        } else {
            E::StoreNotCooperativeMatrix { opcode, ty }
        }));
    }
    let pointer_id = inst.word(if load { 2 } else { 0 });
    let pointer = Id(pointer_id);
    match q.def(pointer_id) {
        Some(p) if logical_pointer(q, &p) => {}
        _ => return Err(Fault::from(E::CooperativeNotLogical { opcode, pointer })),
    }
    let pointer_type_id = q.type_of(pointer_id);
    let pointer_type = q.def(pointer_type_id).filter(|t| {
        t.opcode() == O::TypePointer || (khr && t.opcode() == O::TypeUntypedPointerKHR)
    });
    let Some(pointer_type) = pointer_type else {
        return Err(Fault::from(E::CooperativePointerType { opcode, pointer }));
    };
    let untyped = pointer_type.opcode() == O::TypeUntypedPointerKHR;
    let sc = S(pointer_type.words().get(2).copied().unwrap_or(u32::MAX));
    let sc_ok = matches!(
        sc,
        S::Workgroup | S::StorageBuffer | S::PhysicalStorageBuffer
    );
    if !sc_ok && (!khr || q.state.options.target_env.is_vulkan()) {
        let ty = Id(pointer_type_id);
        return Err(Fault::from(if khr {
            E::CooperativeStorageClassKhr { opcode, ty }
        } else {
            E::CooperativeStorageClassNv { opcode, ty }
        }));
    }
    if !untyped {
        let pointee = pointer_type.words().get(3).copied().unwrap_or(0);
        let ok = q.def(pointee).is_some()
            && (q.is_int_scalar_or_vector_type(pointee)
                || q.is_float_scalar_or_vector_type(pointee));
        if !ok {
            return Err(Fault::from(E::CooperativePointee { opcode, pointer }));
        }
    }
    let access = if khr {
        match layout_khr(q, inst, load, &matrix)? {
            Some(a) => a,
            None => return Ok(()),
        }
    } else {
        let stride = inst.word(if load { 3 } else { 2 });
        if q.def(stride).is_none() || !q.is_int_scalar_type(q.type_of(stride)) {
            return Err(Fault::from(E::StrideNotInt { stride: Id(stride) }));
        }
        let major = inst.word(if load { 4 } else { 3 });
        let mop = q.opcode(major);
        if q.def(major).is_none()
            || !q.is_bool_scalar_type(q.type_of(major))
            || !(is_constant(mop) || is_spec_constant(mop))
        {
            return Err(Fault::from(E::ColumnMajor { id: Id(major) }));
        }
        if load { 5 } else { 4 }
    };
    if inst.operands.len() > access {
        memory_access(q, inst, access)?;
    }
    Ok(())
}

/// The memory layout and stride rules of the KHR instructions; the memory access
/// operand's index, or `None` where spirv-val would divide by zero (a component
/// type without a width).
fn layout_khr(
    q: &Query<'_>,
    inst: &Inst<'_>,
    load: bool,
    matrix: &crate::module::InstRef<'_>,
) -> Result<Option<usize>, Fault> {
    let layout_id = inst.word(if load { 3 } else { 2 });
    if q.def(layout_id).is_none()
        || !q.is_int_scalar_type(q.type_of(layout_id))
        || !is_constant(q.opcode(layout_id))
    {
        return Err(Fault::from(E::MemoryLayoutOperand { id: Id(layout_id) }));
    }
    let layout = q.constant_u64(layout_id);
    let arm = layout.is_some_and(|l| l == ROW_BLOCKED_ARM || l == COLUMN_BLOCKED_ARM);
    if arm && !q.state.has_capability(C::CooperativeMatrixLayoutsARM.0) {
        return Err(Fault::from(E::ArmLayoutCapability));
    }
    let stride_required = layout.is_some_and(|l| l == 0 || l == 1) || arm;
    let layout_value = layout.unwrap_or(0);
    let stride_index = if load { 4 } else { 3 };
    if inst.operands.len() > stride_index {
        let stride_id = inst.word(stride_index);
        if q.def(stride_id).is_none() || !q.is_int_scalar_type(q.type_of(stride_id)) {
            return Err(Fault::from(E::StrideNotInt {
                stride: Id(stride_id),
            }));
        }
        if arm && !is_constant(q.opcode(stride_id)) {
            return Err(Fault::from(E::StrideNotConstant {
                layout: layout_value,
            }));
        }
        if let Some(stride) = q.constant_u64(stride_id).filter(|_| arm) {
            if !matches!(stride, 1 | 2 | 4) {
                return Err(Fault::from(E::StrideValue {
                    layout: layout_value,
                }));
            }
            let w = matrix.words();
            let rows = q.constant_u64(w.get(4).copied().unwrap_or(0)).unwrap_or(0);
            let cols = q.constant_u64(w.get(5).copied().unwrap_or(0)).unwrap_or(0);
            let bytes = u64::from(q.bit_width(w.get(2).copied().unwrap_or(0)) / 8);
            if bytes == 0 {
                return Ok(None);
            }
            let mut rows_multiple = 4;
            let mut cols_multiple = 16 / bytes;
            if layout_value == ROW_BLOCKED_ARM {
                cols_multiple *= stride;
            }
            if layout_value == COLUMN_BLOCKED_ARM {
                rows_multiple *= stride;
            }
            if rows != 0 && rows % rows_multiple != 0 {
                return Err(Fault::from(E::LayoutRowsMultiple {
                    layout: layout_value,
                    stride,
                    multiple: rows_multiple,
                }));
            }
            if cols != 0 && cols % cols_multiple != 0 {
                return Err(Fault::from(E::LayoutColumnsMultiple {
                    layout: layout_value,
                    stride,
                    multiple: cols_multiple,
                }));
            }
        }
    } else if stride_required {
        return Err(Fault::from(E::StrideRequired {
            layout: layout_value,
        }));
    }
    Ok(Some(if load { 5 } else { 4 }))
}

/// `ValidateCooperativeMatrixLoadStoreTensorNV`.
pub(crate) fn load_store_tensor(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let opcode = inst.opcode;
    let load = opcode == O::CooperativeMatrixLoadTensorNV;
    let type_id = if load {
        inst.word(0)
    } else {
        q.type_of(inst.word(1))
    };
    let Some(matrix) = q.def(type_id) else {
        return Ok(());
    };
    if matrix.opcode() != O::TypeCooperativeMatrixKHR {
        let ty = Id(type_id);
        return Err(Fault::from(if load {
            E::LoadNotCooperativeMatrix { opcode, ty }
        } else {
            E::StoreNotCooperativeMatrix { opcode, ty }
        }));
    }
    let pointer_id = inst.word(if load { 2 } else { 0 });
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
        return Err(Fault::from(E::CooperativeStorageClassKhr { opcode, ty }));
    }
    if load {
        let object = inst.word(3);
        if q.def(object).is_none() || q.type_of(object) != type_id {
            return Err(Fault::from(E::TensorObjectType {
                opcode,
                object: Id(object),
            }));
        }
    }
    let layout_id = inst.word(if load { 4 } else { 2 });
    let layout_type = q.type_of(layout_id);
    if q.def(layout_id).is_none() || q.opcode(layout_type) != O::TypeTensorLayoutNV {
        return Err(Fault::from(E::TensorLayoutOperand {
            opcode,
            id: Id(layout_id),
        }));
    }
    let access = if load { 5 } else { 3 };
    if inst.operands.len() > access && !memory_access(q, inst, access)? {
        return Ok(());
    }
    let tensor_index = access + access_words(inst.word(access));
    let tensor = inst.word(tensor_index);
    let tensor_words =
        1 + usize::from(tensor & TENSOR_VIEW != 0) + usize::from(tensor & DECODE_FUNC != 0);
    if inst.operands.len() < tensor_index + tensor_words {
        return Err(Fault::from(E::TensorOperandsCount { opcode }));
    }
    let mut next = tensor_index + 1;
    if tensor & TENSOR_VIEW != 0 {
        let view = inst.word(next);
        if q.def(view).is_none() || q.opcode(q.type_of(view)) != O::TypeTensorViewNV {
            return Err(Fault::from(E::TensorViewOperand {
                opcode,
                id: Id(view),
            }));
        }
        next += 1;
    }
    if tensor & DECODE_FUNC != 0 {
        if !load {
            return Err(Fault::from(E::StoreTensorDecodeFunc));
        }
        decode_func(q, inst.word(next), &matrix, layout_type)?;
    }
    Ok(())
}

/// A tensor load's `DecodeFunc`: a function returning the matrix's component type from
/// a `PhysicalStorageBuffer` pointer and two arrays as long as the tensor's dimension.
fn decode_func(
    q: &Query<'_>,
    func: u32,
    matrix: &crate::module::InstRef<'_>,
    layout_type: u32,
) -> Result<(), Fault> {
    let opcode = O::CooperativeMatrixLoadTensorNV;
    let id = Id(func);
    if q.opcode(func) != O::Function {
        return Err(Fault::from(E::DecodeFuncNotFunction { opcode, id }));
    }
    let component = matrix.words().get(2).copied().unwrap_or(0);
    let function_type = q.word(func, 4).unwrap_or(0);
    if q.word(function_type, 2) != Some(component) {
        return Err(Fault::from(E::DecodeFuncReturn { opcode, id }));
    }
    let first = q.word(function_type, 3).unwrap_or(0);
    if q.word(first, 2) != Some(S::PhysicalStorageBuffer.0) {
        return Err(Fault::from(E::DecodeFuncPointer { opcode, id }));
    }
    for param in [4, 5] {
        let param_type = q.word(function_type, param).unwrap_or(0);
        if q.opcode(param_type) != O::TypeArray {
            return Err(Fault::from(E::DecodeFuncArray { opcode, id }));
        }
        let length = q.constant_u64(q.word(param_type, 3).unwrap_or(0));
        let dim = q.constant_u64(q.word(layout_type, 2).unwrap_or(0));
        if length.is_some() && dim.is_some() && length != dim {
            return Err(Fault::from(E::DecodeFuncArray { opcode, id }));
        }
    }
    Ok(())
}
