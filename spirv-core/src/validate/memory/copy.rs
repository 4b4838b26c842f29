//! spirv-val's rules for `OpCopyMemory` and `OpCopyMemorySized` (`ValidateCopyMemory`
//! and `ValidateCopyMemoryMemoryAccess` in `validate_memory.cpp`): pointer operands,
//! pointees, the size, and one or two memory access operands.

use super::super::Query;
use super::super::{Fault, Inst};
use super::access::{
    MAKE_AVAILABLE, MAKE_VISIBLE, access_words, memory_access, pointer_type, storage_class,
};
use super::{CopyOperand, MemoryError as E};
use crate::module::InstRef;
use crate::spv::{Capability as C, Opcode as O, StorageClass as S};
use crate::types::Id;

/// `ValidateCopyMemory`.
pub(crate) fn copy(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let has = |c: C| q.state.has_capability(c.0);
    let target_id = inst.word(0);
    let source_id = inst.word(1);
    if q.def(target_id).is_none() || q.def(source_id).is_none() {
        return Ok(());
    }
    let Some(target_type) = pointer_type(q, target_id) else {
        return Err(Fault::from(E::CopyNotPointer {
            operand: CopyOperand::Target,
            id: Id(target_id),
        }));
    };
    let Some(source_type) = pointer_type(q, source_id) else {
        return Err(Fault::from(E::CopyNotPointer {
            operand: CopyOperand::Source,
            id: Id(source_id),
        }));
    };
    let pointee = |t: &InstRef<'_>, operand, id| -> Result<Option<u32>, Fault> {
        if t.opcode() != O::TypePointer {
            return Ok(None);
        }
        let p = t.words().get(3).copied().unwrap_or(0);
        match q.def(p) {
            Some(d) if d.opcode() != O::TypeVoid => Ok(Some(p)),
            _ => Err(Fault::from(E::CopyVoidPointer {
                operand,
                id: Id(id),
            })),
        }
    };
    if inst.opcode == O::CopyMemory {
        let t = pointee(&target_type, CopyOperand::Target, target_id)?;
        let s = pointee(&source_type, CopyOperand::Source, source_id)?;
        match (t, s) {
            (Some(t), Some(s)) if t != s => {
                return Err(Fault::from(E::CopyType {
                    source: Id(source_id),
                    source_type: Id(s),
                }));
            }
            (None, None) => return Err(Fault::from(E::CopyUntyped)),
            _ => {}
        }
        if !memory_access(q, inst, 2)? {
            return Ok(());
        }
    } else {
        let size_id = inst.word(2);
        let size = Id(size_id);
        let size_type = q.type_of(size_id);
        if !q.is_int_scalar_type(size_type) {
            return Err(Fault::from(E::SizeNotInt { size }));
        }
        match q.def(size_id) {
            Some(d) if d.opcode() == O::ConstantNull => {
                return Err(Fault::from(E::SizeZero { size }));
            }
            Some(d) if d.opcode() == O::Constant => {
                let w = d.words();
                let last = w.last().copied().unwrap_or(0);
                if q.word(size_type, 3) == Some(1) && last & 0x8000_0000 != 0 {
                    return Err(Fault::from(E::SizeNegative { size }));
                }
                if w.get(3..).unwrap_or(&[]).iter().all(|&x| x == 0) {
                    return Err(Fault::from(E::SizeZero { size }));
                }
            }
            _ => {}
        }
        if has(C::Shader) {
            let (_, is_const, value) = q.int32_if_const(size_id);
            if is_const && value % 4 != 0 {
                size_multiple(
                    q,
                    value,
                    storage_class(&source_type),
                    storage_class(&target_type),
                )?;
            }
        }
        if !memory_access(q, inst, 3)? {
            return Ok(());
        }
    }
    if !copy_accesses(q, inst)? {
        return Ok(());
    }
    if target_type.opcode() == O::TypePointer {
        let mut sub = target_type.words().get(3).copied().unwrap_or(0);
        for _ in 0..=q.module.len() {
            if q.opcode(sub) != O::TypePointer {
                break;
            }
            sub = q.word(sub, 3).unwrap_or(0);
        }
        if has(C::Shader) && q.contains_limited_use(sub) {
            return Err(Fault::from(E::CopyNarrow));
        }
    }
    Ok(())
}

/// The rule for a constant size that is not a multiple of 4: the 8- and 16-bit
/// capabilities of both storage classes decide.
fn size_multiple(q: &Query<'_>, value: u32, source: S, target: S) -> Result<(), Fault> {
    let has = |c: C| q.state.has_capability(c.0);
    let int8 = has(C::Int8);
    let ubo8 = has(C::UniformAndStorageBuffer8BitAccess);
    let ssbo8 = has(C::StorageBuffer8BitAccess) || ubo8;
    let pc8 = has(C::StoragePushConstant8);
    let wg8 = has(C::WorkgroupMemoryExplicitLayout8BitAccessKHR);
    let int16 = has(C::Int16) || int8;
    let ubo16 = has(C::UniformAndStorageBuffer16BitAccess) || ubo8;
    let ssbo16 = has(C::StorageBuffer16BitAccess) || ubo16 || ssbo8;
    let pc16 = has(C::StoragePushConstant16) || pc8;
    let io16 = has(C::StorageInputOutput16);
    let wg16 = has(C::WorkgroupMemoryExplicitLayout16BitAccessKHR);
    let matches = |sc: S, input: bool| match sc {
        S::StorageBuffer => (ssbo16, ssbo8),
        S::Uniform => (ubo16, ubo8),
        S::PushConstant => (pc16, pc8),
        S::Input if input => (io16, false),
        S::Output => (io16, false),
        S::Workgroup => (wg16, wg8),
        _ => (false, false),
    };
    let (s16, s8) = matches(source, true);
    let (t16, t8) = matches(target, false);
    if !(int8 || int16 || (s16 && t16)) {
        return Err(Fault::from(E::SizeMultiple { of: 4 }));
    }
    if value % 2 != 0 && !int8 && !(s8 && t8) {
        return Err(Fault::from(E::SizeMultiple { of: 2 }));
    }
    Ok(())
}

/// `ValidateCopyMemoryMemoryAccess`: the first memory access again, then the second.
fn copy_accesses(q: &Query<'_>, inst: &Inst<'_>) -> Result<bool, Fault> {
    let first = if inst.opcode == O::CopyMemory { 2 } else { 3 };
    if inst.operands.len() <= first {
        return Ok(true);
    }
    if !memory_access(q, inst, first)? {
        return Ok(false);
    }
    let first_mask = inst.word(first);
    let second = first + access_words(first_mask);
    if inst.operands.len() <= second {
        return Ok(true);
    }
    if q.state.version < (1, 4) {
        return Err(Fault::from(E::TwoAccessesNeedVersion {
            opcode: inst.opcode,
        }));
    }
    if !memory_access(q, inst, second)? {
        return Ok(false);
    }
    if first_mask & MAKE_VISIBLE != 0 {
        return Err(Fault::from(E::TargetVisible));
    }
    if inst.word(second) & MAKE_AVAILABLE != 0 {
        return Err(Fault::from(E::SourceAvailable));
    }
    Ok(true)
}
