//! spirv-val's rules for `OpLoad`, `OpStore`, `OpCopyMemory` and
//! `OpCopyMemorySized` (`ValidateLoad`, `ValidateStore` in `validate_memory.cpp`; the copies are in
//! `copy.rs`), with their memory access operands (`CheckMemoryAccess`)
//! and the memory scopes those name (`ValidateMemoryScope` in `validate_scopes.cpp`).

use super::super::Query;
use super::super::validation_state::{contains_runtime_array, contains_type, largest_scalar};
use super::super::{Fault, Inst};
use super::{Memory, MemoryError as E, Walk};
use crate::__private::Vec;
use crate::module::InstRef;
use crate::spv::{Capability as C, Decoration as D, Opcode as O, StorageClass as S};
use crate::types::Id;
use alloc::collections::BTreeSet;

/// Memory access mask bits.
const ALIGNED: u32 = 0x2;
pub(crate) const MAKE_AVAILABLE: u32 = 0x8;
pub(crate) const MAKE_VISIBLE: u32 = 0x10;
const NON_PRIVATE: u32 = 0x20;

/// `spvOpcodeReturnsLogicalPointer`.
fn returns_logical_pointer(op: O) -> bool {
    matches!(
        op,
        O::Variable
            | O::UntypedVariableKHR
            | O::AccessChain
            | O::InBoundsAccessChain
            | O::UntypedAccessChainKHR
            | O::UntypedInBoundsAccessChainKHR
            | O::FunctionParameter
            | O::ImageTexelPointer
            | O::CopyObject
            | O::RawAccessChainNV
            | O::AllocateNodePayloadsAMDX
    )
}

/// `spvOpcodeReturnsLogicalVariablePointer`.
fn returns_logical_variable_pointer(op: O) -> bool {
    returns_logical_pointer(op)
        || matches!(
            op,
            O::Select
                | O::Phi
                | O::FunctionCall
                | O::PtrAccessChain
                | O::UntypedPtrAccessChainKHR
                | O::Load
                | O::ConstantNull
        )
}

/// Whether spirv-val's variable-pointers feature is on.
pub(crate) fn variable_pointers(q: &Query<'_>) -> bool {
    q.state.has_capability(C::VariablePointers.0)
        || q.state.has_capability(C::VariablePointersStorageBuffer.0)
}

/// Whether a load's or store's pointer is one logical addressing allows.
pub(crate) fn logical_pointer(q: &Query<'_>, pointer: &InstRef<'_>) -> bool {
    if q.state.addressing_model() != crate::spv::AddressingModel::Logical {
        return true;
    }
    if variable_pointers(q) {
        returns_logical_variable_pointer(pointer.opcode())
    } else {
        returns_logical_pointer(pointer.opcode())
    }
}

/// The pointer type of a pointer value, if it is one.
pub(crate) fn pointer_type<'a>(q: &Query<'a>, pointer: u32) -> Option<InstRef<'a>> {
    q.def(q.type_of(pointer))
        .filter(|t| matches!(t.opcode(), O::TypePointer | O::TypeUntypedPointerKHR))
}

/// A pointer type's storage class.
pub(crate) fn storage_class(t: &InstRef<'_>) -> S {
    S(t.words().get(2).copied().unwrap_or(u32::MAX))
}

/// The loads whose memory access operands spirv-val checks.
fn is_load(op: O) -> bool {
    matches!(
        op,
        O::Load
            | O::CooperativeMatrixLoadNV
            | O::CooperativeMatrixLoadTensorNV
            | O::CooperativeMatrixLoadKHR
            | O::CooperativeVectorLoadNV
    )
}

/// The stores whose memory access operands spirv-val checks.
fn is_store(op: O) -> bool {
    matches!(
        op,
        O::Store
            | O::CooperativeMatrixStoreNV
            | O::CooperativeMatrixStoreTensorNV
            | O::CooperativeMatrixStoreKHR
            | O::CooperativeVectorStoreNV
    )
}

/// What a memory access check needs to know of the instruction's pointers.
struct Pointers<'a> {
    dst: Option<InstRef<'a>>,
    src: Option<InstRef<'a>>,
}

impl<'a> Pointers<'a> {
    /// `GetPointerTypes`.
    fn of(q: &Query<'a>, inst: &Inst<'_>) -> Self {
        let ty = |i: usize| q.def(q.type_of(inst.word(i)));
        match inst.opcode {
            op if is_load(op) => Pointers {
                dst: ty(2),
                src: None,
            },
            op if is_store(op) => Pointers {
                dst: ty(0),
                src: None,
            },
            O::CopyMemory | O::CopyMemorySized => Pointers {
                dst: ty(0),
                src: ty(1),
            },
            _ => Pointers {
                dst: None,
                src: None,
            },
        }
    }
}

/// `CheckMemoryAccess` for the memory access operand at `index`. `Ok(false)` when
/// spirv-val reports a fault this validator does not word (an invalid scope value,
/// which spirv-val prints disassembled): the instruction's other rules are skipped.
pub(crate) fn memory_access(q: &Query<'_>, inst: &Inst<'_>, index: usize) -> Result<bool, Fault> {
    let p = Pointers::of(q, inst);
    let dst_sc = p.dst.as_ref().map(storage_class);
    let src_sc = p.src.as_ref().map(storage_class);
    let psb = |sc: Option<S>| sc == Some(S::PhysicalStorageBuffer);
    if inst.operands.len() <= index {
        if psb(src_sc) || psb(dst_sc) {
            return Err(Fault::from(E::PhysicalNeedsAligned));
        }
        return Ok(true);
    }
    let mask = inst.word(index);
    let load = is_load(inst.opcode);
    let store = is_store(inst.opcode);
    if mask & MAKE_AVAILABLE != 0 {
        if load {
            return Err(Fault::from(E::AvailableOnLoad));
        }
        if mask & NON_PRIVATE == 0 {
            return Err(Fault::from(E::AvailableNeedsNonPrivate));
        }
        let scope =
            inst.word(index + access_words(mask & (MAKE_AVAILABLE | (MAKE_AVAILABLE - 1))) - 1);
        if !super::super::scopes::validate_memory_scope(q, inst, scope)? {
            return Ok(false);
        }
    }
    if mask & MAKE_VISIBLE != 0 {
        if store {
            return Err(Fault::from(E::VisibleOnStore));
        }
        if mask & NON_PRIVATE == 0 {
            return Err(Fault::from(E::VisibleNeedsNonPrivate));
        }
        let scope = inst.word(index + access_words(mask & (MAKE_VISIBLE | (MAKE_VISIBLE - 1))) - 1);
        if !super::super::scopes::validate_memory_scope(q, inst, scope)? {
            return Ok(false);
        }
    }
    if mask & NON_PRIVATE != 0 {
        let allowed = |sc: S| {
            matches!(
                sc,
                S::Uniform
                    | S::Workgroup
                    | S::CrossWorkgroup
                    | S::Generic
                    | S::Image
                    | S::StorageBuffer
                    | S::PhysicalStorageBuffer
            )
        };
        if !dst_sc.is_some_and(allowed) || src_sc.is_some_and(|s| !allowed(s)) {
            return Err(Fault::from(E::NonPrivateStorageClass));
        }
    }
    if mask & ALIGNED == 0 {
        if psb(src_sc) || psb(dst_sc) {
            return Err(Fault::from(E::PhysicalNeedsAligned));
        }
    } else {
        let value = inst.word(index + 1);
        if value == 0 || value & (value - 1) != 0 {
            return Err(Fault::from(E::AlignedNotPowerOfTwo { value }));
        }
        let mut largest = 0;
        if let Some(d) = p.dst.as_ref().filter(|_| psb(dst_sc)) {
            if d.opcode() != O::TypeUntypedPointerKHR {
                largest = largest_scalar(q, d.words().get(3).copied().unwrap_or(0));
            } else if load {
                largest = largest_scalar(q, inst.word(0));
            }
        }
        if let Some(s) = p.src.as_ref().filter(|_| psb(src_sc)) {
            if s.opcode() != O::TypeUntypedPointerKHR {
                let l = largest_scalar(q, s.words().get(3).copied().unwrap_or(0));
                largest = largest.max(l);
            }
        }
        if value < largest {
            return Err(Fault::from(E::AlignedTooSmall { value, largest }));
        }
    }
    Ok(true)
}

/// `MemoryAccessNumWords`: the mask and the operands its bits add.
pub(crate) fn access_words(mask: u32) -> usize {
    1 + [ALIGNED, MAKE_AVAILABLE, MAKE_VISIBLE]
        .iter()
        .filter(|&&b| mask & b != 0)
        .count()
}

/// `ValidateLoad`.
pub(crate) fn load(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let result_type_id = inst.word(0);
    let Some(result_type) = q.def(result_type_id) else {
        return Ok(());
    };
    let pointer_id = inst.word(2);
    let opcode = inst.opcode;
    let not_logical = E::NotLogicalPointer {
        opcode,
        pointer: Id(pointer_id),
    };
    let Some(pointer) = q.def(pointer_id) else {
        return Err(Fault::from(not_logical));
    };
    if !logical_pointer(q, &pointer) {
        return Err(Fault::from(not_logical));
    }
    let Some(pointer_type) = pointer_type(q, pointer_id) else {
        return Err(Fault::from(E::PointerType {
            opcode,
            pointer: Id(pointer_id),
        }));
    };
    if pointer_type.opcode() == O::TypePointer {
        let pointee = pointer_type.words().get(3).copied().unwrap_or(0);
        if q.def(pointee).is_none() || pointee != result_type_id {
            return Err(Fault::from(E::LoadType {
                ty: Id(result_type_id),
                pointer: Id(pointer_id),
            }));
        }
    }
    if !q.state.options.before_hlsl_legalization && contains_runtime_array(q, result_type_id) {
        return Err(Fault::from(E::LoadRuntimeArray));
    }
    if !memory_access(q, inst, 3)? {
        return Ok(());
    }
    if q.state.has_capability(C::Shader.0)
        && q.contains_limited_use(result_type_id)
        && !matches!(
            result_type.opcode(),
            O::TypePointer | O::TypeInt | O::TypeFloat | O::TypeVector | O::TypeMatrix
        )
    {
        return Err(Fault::from(E::NarrowLoad));
    }
    Ok(())
}

/// `ValidateStore`.
pub(crate) fn store(q: &Query<'_>, inst: &Inst<'_>, st: &Memory) -> Result<(), Fault> {
    let vulkan = q.state.options.target_env.is_vulkan();
    let pointer_id = inst.word(0);
    let pointer = Id(pointer_id);
    let opcode = inst.opcode;
    let Some(pointer_def) = q.def(pointer_id) else {
        return Err(Fault::from(E::NotLogicalPointer { opcode, pointer }));
    };
    if !logical_pointer(q, &pointer_def) {
        return Err(Fault::from(E::NotLogicalPointer { opcode, pointer }));
    }
    let Some(pointer_type) = pointer_type(q, pointer_id) else {
        return Err(Fault::from(E::PointerType { opcode, pointer }));
    };
    let mut pointee = None;
    if pointer_type.opcode() == O::TypePointer {
        let t = pointer_type.words().get(3).copied().unwrap_or(0);
        match q.def(t) {
            Some(d) if d.opcode() != O::TypeVoid => pointee = Some(t),
            _ => return Err(Fault::from(E::StoreVoidPointer { pointer })),
        }
    }
    let sc = storage_class(&pointer_type);
    if matches!(sc, S::UniformConstant | S::Input | S::PushConstant) {
        return Err(Fault::from(E::StoreReadOnly { pointer }));
    }
    if sc == S::ShaderRecordBufferKHR {
        return Err(Fault::from(E::StoreShaderRecord));
    }
    if sc == S::HitAttributeKHR {
        use super::super::limitations::{Limitation, register, rules};
        register(q, inst, Limitation::new(q, &rules::HIT_ATTRIBUTE_STORE));
    }
    if vulkan && sc == S::Uniform && uniform_block_base(q, pointer_def) {
        return Err(Fault::from(E::StoreUniformBlock));
    }
    let object_id = inst.word(1);
    let object = Id(object_id);
    let object_type_id = q.type_of(object_id);
    if q.def(object_id).is_none() || object_type_id == 0 {
        return Err(Fault::from(E::StoreNotObject { object }));
    }
    match q.def(object_type_id) {
        Some(t) if t.opcode() != O::TypeVoid => {}
        _ => return Err(Fault::from(E::StoreVoidObject { object })),
    }
    if let Some(t) = pointee.filter(|&t| t != object_type_id) {
        let structs = q.opcode(t) == O::TypeStruct && q.opcode(object_type_id) == O::TypeStruct;
        if !q.state.options.relax_struct_store || !structs {
            return Err(Fault::from(E::StoreType { pointer, object }));
        }
        if !layout_compatible(q, t, object_type_id) {
            return Err(Fault::from(E::StoreLayout { pointer, object }));
        }
    }
    if !memory_access(q, inst, 2)? {
        return Ok(());
    }
    if vulkan && !q.state.options.before_hlsl_legalization {
        let opaque = |t: &InstRef<'_>| {
            matches!(
                t.opcode(),
                O::TypeImage
                    | O::TypeSampler
                    | O::TypeSampledImage
                    | O::TypeAccelerationStructureKHR
            )
        };
        if st.remember(Walk::Opaque, object_type_id, || {
            contains_type(q, object_type_id, true, &opaque)
        }) {
            return Err(Fault::from(E::StoreOpaque));
        }
    }
    Ok(())
}

/// Whether a pointer traces back to a variable of a `Block` struct (or array of one).
fn uniform_block_base(q: &Query<'_>, pointer: InstRef<'_>) -> bool {
    let Some(base) = trace_pointer(q, pointer) else {
        return false;
    };
    if base.opcode() != O::Variable {
        return false;
    }
    let ptr_type = base.words().get(1).copied().unwrap_or(0);
    let mut t = q.word(ptr_type, 3).unwrap_or(0);
    if matches!(q.opcode(t), O::TypeArray | O::TypeRuntimeArray) {
        t = q.word(t, 2).unwrap_or(0);
    }
    q.decorations.has(t, D::Block.0)
}

/// `AreLayoutCompatibleStructs`: structs whose members are the same or compatible
/// structs (spirv-val compares all members but the last) and whose members' offsets
/// do not conflict.
fn layout_compatible(q: &Query<'_>, a: u32, b: u32) -> bool {
    let mut seen = BTreeSet::new();
    let mut pending = Vec::from([(a, b)]);
    while let Some((a, b)) = pending.pop() {
        if !seen.insert((a, b)) {
            continue;
        }
        let (Some(da), Some(db)) = (q.def(a), q.def(b)) else {
            return false;
        };
        if da.opcode() != O::TypeStruct || db.opcode() != O::TypeStruct {
            return false;
        }
        let (wa, wb) = (da.words(), db.words());
        if wa.len() != wb.len() {
            return false;
        }
        // spirv-val walks operand indexes 2.. over words: the last member is left out.
        let n = wa.len().saturating_sub(1);
        for i in 2..n {
            if wa[i] != wb[i] {
                pending.push((wa[i], wb[i]));
            }
        }
        if conflicting_offsets(q, a, b) {
            return false;
        }
    }
    true
}

/// `HasConflictingMemberOffsets`: a member of `a` whose `Offset` differs from the
/// first `Offset` of the same member of `b`.
fn conflicting_offsets(q: &Query<'_>, a: u32, b: u32) -> bool {
    let offset = D::Offset.0;
    let mut of_a = Vec::new();
    q.decorations.collect(a, &[offset], &mut of_a);
    of_a.iter().any(|d| {
        q.decorations
            .first(b, d.member, offset)
            .is_some_and(|e| e.first() != d.params.first())
    })
}

/// `TracePointer`: back through access chains and copies to the base pointer.
fn trace_pointer<'a>(q: &Query<'a>, inst: InstRef<'a>) -> Option<InstRef<'a>> {
    let mut at = inst;
    // Each step goes to an earlier definition, so the module's length bounds it.
    for _ in 0..=q.module.len() {
        match at.opcode() {
            O::AccessChain
            | O::InBoundsAccessChain
            | O::PtrAccessChain
            | O::InBoundsPtrAccessChain
            | O::CopyObject => at = q.def(at.words().get(3).copied().unwrap_or(0))?,
            _ => return Some(at),
        }
    }
    None
}
