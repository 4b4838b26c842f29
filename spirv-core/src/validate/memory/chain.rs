//! spirv-val's rules for access chains (`ValidateAccessChain`,
//! `ValidatePtrAccessChain`, `ValidateRawAccessChain`), `OpArrayLength` and
//! `OpUntypedArrayLengthKHR` (`ValidateArrayLength`), and pointer comparisons (`ValidatePtrComparison`), from
//! `validate_memory.cpp`.

use super::super::Query;
use super::super::validation_state::contains_type;
use super::super::{Fault, Inst};
use super::access::variable_pointers;
use super::{MemoryError as E, RawChainOperand};
use crate::module::InstRef;
use crate::spirv_tools::generates_type;
use crate::spv::{Capability as C, Decoration as D, Opcode as O, StorageClass as S};
use crate::types::Id;

/// `spvOpcodeGeneratesUntypedPointer`, for the chains.
fn untyped_chain(op: O) -> bool {
    matches!(
        op,
        O::UntypedAccessChainKHR
            | O::UntypedInBoundsAccessChainKHR
            | O::UntypedPtrAccessChainKHR
            | O::UntypedInBoundsPtrAccessChainKHR
    )
}

/// Whether the chain has an `Element` operand before its indexes.
fn pointer_chain(op: O) -> bool {
    matches!(
        op,
        O::PtrAccessChain
            | O::InBoundsPtrAccessChain
            | O::UntypedPtrAccessChainKHR
            | O::UntypedInBoundsPtrAccessChainKHR
    )
}

/// A struct decorated `Block` or `BufferBlock`.
fn is_block(q: &Query<'_>, t: &InstRef<'_>) -> bool {
    let id = t.words().get(1).copied().unwrap_or(0);
    t.opcode() == O::TypeStruct
        && (q.decorations.has(id, D::Block.0) || q.decorations.has(id, D::BufferBlock.0))
}

/// An array with a block within (not through pointers).
fn block_array(q: &Query<'_>, t: &InstRef<'_>) -> bool {
    let id = t.words().get(1).copied().unwrap_or(0);
    t.opcode() == O::TypeArray && contains_type(q, id, false, &|x| is_block(q, x))
}

/// `ValidateAccessChain`.
pub(crate) fn access_chain(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let opcode = inst.opcode;
    let untyped = untyped_chain(opcode);
    let Some(result_type) = q.def(inst.word(0)) else {
        return Ok(());
    };
    let wanted = if untyped {
        O::TypeUntypedPointerKHR
    } else {
        O::TypePointer
    };
    if result_type.opcode() != wanted {
        let (id, found) = (Id(inst.result_id), result_type.opcode());
        return Err(Fault::from(if untyped {
            E::UntypedChainResultType { opcode, id, found }
        } else {
            E::ChainResultType { opcode, id, found }
        }));
    }
    if untyped {
        let base_type = q.def(inst.word(2));
        let Some(base_type) = base_type.filter(|t| {
            generates_type(t.opcode())
                && !matches!(t.opcode(), O::TypePointer | O::TypeUntypedPointerKHR)
        }) else {
            return Err(Fault::from(E::BaseTypeNotNonPointer));
        };
        let type_block_array = block_array(q, &base_type);
        let Some(mut base) = q.def(inst.word(3)) else {
            return Ok(());
        };
        for _ in 0..=q.module.len() {
            if base.opcode() != O::CopyObject {
                break;
            }
            let Some(b) = q.def(base.words().get(3).copied().unwrap_or(0)) else {
                return Ok(());
            };
            base = b;
        }
        let data_type = match base.opcode() {
            O::Variable => q.def(
                q.word(base.words().get(1).copied().unwrap_or(0), 3)
                    .unwrap_or(0),
            ),
            O::UntypedVariableKHR => base.words().get(4).and_then(|&t| q.def(t)),
            _ => None,
        };
        if let Some(d) = data_type {
            let base_block_array = block_array(q, &d);
            if type_block_array != base_block_array {
                return Err(Fault::from(E::BlockArrayMismatch));
            }
            if type_block_array && base_type.words().get(1) != d.words().get(1) {
                return Err(Fault::from(E::BlockArrayDifferent));
            }
        }
    }
    let base_index = if untyped { 3 } else { 2 };
    let base_id = inst.word(base_index);
    let base_type = q.def(q.type_of(base_id)).filter(|t| {
        t.opcode() == O::TypePointer || (untyped && t.opcode() == O::TypeUntypedPointerKHR)
    });
    let Some(base_type) = base_type else {
        return Err(Fault::from(E::BaseNotPointer {
            opcode,
            base: Id(base_id),
        }));
    };
    let result_sc = result_type.words().get(2).copied();
    if result_sc != base_type.words().get(2).copied() {
        return Err(Fault::from(E::ChainStorageClass { opcode }));
    }
    let mut pointee = if untyped {
        q.def(inst.word(2))
    } else {
        q.def(base_type.words().get(3).copied().unwrap_or(0))
    };
    let words = inst.words;
    // spirv-val counts every word after the first four (for untyped chains, the base
    // too), less the element of pointer chains.
    let mut indexes = words.len().saturating_sub(4);
    if pointer_chain(opcode) {
        indexes = indexes.saturating_sub(1);
    }
    let limit = q.state.options.limits.max_access_chain_indexes;
    if indexes > limit as usize {
        return Err(Fault::from(E::TooManyIndexes {
            opcode,
            limit,
            found: indexes,
        }));
    }
    let start = if untyped { 5 } else { 4 } + usize::from(pointer_chain(opcode));
    let check_sign = !q.state.options.relax_logical_pointer
        && super::logical_or_psb(q)
        && result_sc != Some(S::PhysicalStorageBuffer.0);
    for (i, &index) in words.iter().enumerate().skip(start) {
        let index_type = q.def(q.type_of(index));
        let Some(index_type) = index_type.filter(|t| t.opcode() == O::TypeInt) else {
            return Err(Fault::from(E::IndexNotInt { opcode }));
        };
        if check_sign
            && index_type.words().get(3) == Some(&1)
            && q.constant_i64(index).is_some_and(|v| v < 0)
        {
            return Err(Fault::from(E::NegativeIndex { word: i }));
        }
        let Some(t) = pointee else { return Ok(()) };
        let w = t.words();
        match t.opcode() {
            O::TypeMatrix
            | O::TypeVector
            | O::TypeCooperativeVectorNV
            | O::TypeCooperativeMatrixNV
            | O::TypeCooperativeMatrixKHR
            | O::TypeArray
            | O::TypeRuntimeArray
            | O::TypeNodePayloadArrayAMDX => {
                pointee = q.def(w.get(2).copied().unwrap_or(0));
            }
            O::TypeStruct => {
                let Some(value) = q.constant_i64(index) else {
                    return Err(Fault::from(E::StructIndexNotConstant {
                        opcode,
                        index: Id(index),
                    }));
                };
                let members = w.len() as i64 - 2;
                if value >= members || value < 0 {
                    return Err(Fault::from(E::StructIndexOutOfBounds {
                        index: Id(index),
                        opcode,
                        value,
                        structure: Id(w.get(1).copied().unwrap_or(0)),
                        members,
                        largest: members.wrapping_sub(1),
                    }));
                }
                pointee = q.def(w.get(value as usize + 2).copied().unwrap_or(0));
            }
            _ => return Err(Fault::from(E::IndexIntoNonComposite { opcode })),
        }
    }
    if !untyped {
        let expected = q.def(result_type.words().get(3).copied().unwrap_or(0));
        if let (Some(e), Some(f)) = (expected, pointee) {
            if e.words().get(1) != f.words().get(1) {
                return Err(Fault::from(E::ChainResultMismatch {
                    opcode,
                    expected: e.opcode(),
                    found: f.opcode(),
                }));
            }
        }
    }
    Ok(())
}

/// `ValidatePtrAccessChain`: the access chain's rules, then the element's and the
/// base's.
pub(crate) fn ptr_access_chain(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    access_chain(q, inst)?;
    let has = |c: C| q.state.has_capability(c.0);
    let vulkan = q.state.options.target_env.is_vulkan();
    let untyped = untyped_chain(inst.opcode);
    let base_id = inst.word(if untyped { 3 } else { 2 });
    let base_type_id = q.type_of(base_id);
    let Some(base_type) = q.def(base_type_id) else {
        return Ok(());
    };
    let sc = S(base_type.words().get(2).copied().unwrap_or(u32::MAX));
    let element = inst.word(if untyped { 4 } else { 3 });
    if q.opcode(q.type_of(element)) != O::TypeInt {
        return Err(Fault::from(E::ElementNotInt));
    }
    if q.constant_u64(element).is_some_and(|v| v != 0) {
        let interp = if untyped {
            inst.word(2)
        } else {
            base_type.words().get(3).copied().unwrap_or(0)
        };
        if q.def(interp).is_some_and(|t| is_block(q, &t)) {
            return Err(Fault::from(E::ElementIntoBlock));
        }
    }
    let strided = matches!(
        sc,
        S::Uniform | S::StorageBuffer | S::PhysicalStorageBuffer | S::PushConstant
    ) || (has(C::WorkgroupMemoryExplicitLayoutKHR) && sc == S::Workgroup);
    if has(C::Shader) && strided && !q.decorations.has(base_type_id, D::ArrayStride.0) {
        return Err(Fault::from(E::PtrChainArrayStride));
    }
    if vulkan {
        let untyped_cap = untyped && has(C::UntypedPointersKHR);
        if sc == S::Workgroup {
            if !has(C::VariablePointers) && !untyped_cap {
                return Err(Fault::from(E::PtrChainWorkgroup));
            }
        } else if sc == S::StorageBuffer {
            if !variable_pointers(q) && !untyped_cap {
                return Err(Fault::from(E::PtrChainStorageBuffer));
            }
        } else if sc != S::PhysicalStorageBuffer && !untyped_cap {
            return Err(Fault::from(E::PtrChainStorageClass));
        }
    }
    Ok(())
}

/// `ValidateArrayLength`.
pub(crate) fn array_length(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let opcode = inst.opcode;
    let id = Id(inst.result_id);
    let Some(result_type) = q.def(inst.word(0)) else {
        return Ok(());
    };
    let rw = result_type.words();
    if result_type.opcode() != O::TypeInt
        || !matches!(rw.get(2), Some(32 | 64))
        || rw.get(3) != Some(&0)
    {
        return Err(Fault::from(E::ArrayLengthResultType { opcode, id }));
    }
    let untyped = opcode == O::UntypedArrayLengthKHR;
    let Some(pointer_type) = q.def(q.type_of(inst.word(if untyped { 3 } else { 2 }))) else {
        return Ok(());
    };
    if untyped {
        if pointer_type.opcode() != O::TypeUntypedPointerKHR {
            return Err(Fault::from(E::ArrayLengthUntyped));
        }
    } else if pointer_type.opcode() != O::TypePointer {
        return Err(Fault::from(E::ArrayLengthNotStruct { opcode, id }));
    }
    let structure = if untyped {
        inst.word(2)
    } else {
        pointer_type.words().get(3).copied().unwrap_or(0)
    };
    let Some(s) = q.def(structure).filter(|s| s.opcode() == O::TypeStruct) else {
        return Err(Fault::from(E::ArrayLengthNotStruct { opcode, id }));
    };
    // spirv-val reads the struct's last operand: its result id when it has no member.
    let members = s.words().len().saturating_sub(2);
    let last = s.words().last().copied().unwrap_or(0);
    if q.opcode(last) != O::TypeRuntimeArray {
        return Err(Fault::from(E::ArrayLengthLastMember { opcode, id }));
    }
    if inst.word(if untyped { 4 } else { 3 }) as usize != members.wrapping_sub(1) {
        return Err(Fault::from(E::ArrayLengthMember { opcode, id }));
    }
    let vulkan = q.state.options.target_env.is_vulkan();
    if vulkan
        && pointer_type.words().get(2) == Some(&S::Uniform.0)
        && q.decorations.has(structure, D::Block.0)
    {
        return Err(Fault::from(E::ArrayLengthUniformBlock { opcode }));
    }
    Ok(())
}

/// `ValidatePtrComparison`.
pub(crate) fn ptr_comparison(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let (a, b) = (inst.word(2), inst.word(3));
    let (ta, tb) = (q.type_of(a), q.type_of(b));
    // spirv-val reads the first operand's type's storage class before anything else;
    // a type without that operand stops it, without a message.
    let Some(sc) = q.def(ta).and_then(|t| t.words().get(2).copied()) else {
        return Ok(());
    };
    let sc = S(sc);
    if super::logical_or_psb(q) && sc != S::PhysicalStorageBuffer && !variable_pointers(q) {
        return Err(Fault::from(E::PtrCompareLogical));
    }
    let result = q.opcode(inst.word(0));
    if inst.opcode == O::PtrDiff {
        if result != O::TypeInt {
            return Err(Fault::from(E::PtrDiffResultType));
        }
    } else if result != O::TypeBool {
        return Err(Fault::from(E::PtrCompareResultType));
    }
    let pointer = |t: u32| matches!(q.opcode(t), O::TypePointer | O::TypeUntypedPointerKHR);
    if !pointer(ta) || !pointer(tb) {
        return Err(Fault::from(E::PtrOperandType));
    }
    if inst.opcode == O::PtrDiff {
        if ta != tb {
            return Err(Fault::from(E::PtrOperandTypes));
        }
    } else if q.opcode(ta) == O::TypeUntypedPointerKHR || q.opcode(tb) == O::TypeUntypedPointerKHR {
        if q.word(ta, 2) != q.word(tb, 2) {
            return Err(Fault::from(E::PtrStorageClasses));
        }
    } else if ta != tb {
        return Err(Fault::from(E::PtrOperandTypes));
    }
    if q.state.addressing_model() == crate::spv::AddressingModel::Logical {
        if sc != S::Workgroup && sc != S::StorageBuffer {
            return Err(Fault::from(E::PtrInvalidStorageClass));
        }
        if sc == S::Workgroup && !q.state.has_capability(C::VariablePointers.0) {
            return Err(Fault::from(E::PtrWorkgroup));
        }
    } else if sc == S::PhysicalStorageBuffer {
        return Err(Fault::from(E::PtrPhysical));
    }
    Ok(())
}

/// `ValidateRawAccessChain`.
pub(crate) fn raw_access_chain(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let opcode = inst.opcode;
    let id = Id(inst.result_id);
    let Some(rt) = q.def(inst.word(0)) else {
        return Ok(());
    };
    if rt.opcode() != O::TypePointer {
        return Err(Fault::from(E::ChainResultType {
            opcode,
            id,
            found: rt.opcode(),
        }));
    }
    let sc = S(rt.words().get(2).copied().unwrap_or(u32::MAX));
    if !matches!(sc, S::StorageBuffer | S::PhysicalStorageBuffer | S::Uniform) {
        return Err(Fault::from(E::RawChainStorageClass { id }));
    }
    let pointee = q.opcode(rt.words().get(3).copied().unwrap_or(0));
    if matches!(pointee, O::TypeArray | O::TypeMatrix | O::TypeStruct) {
        return Err(Fault::from(E::RawChainPointee { id }));
    }
    let stride = inst.word(3);
    let Some(stride_def) = q.def(stride) else {
        return Ok(());
    };
    if stride_def.opcode() != O::Constant {
        return Err(Fault::from(E::RawStrideNotConstant {
            id,
            found: stride_def.opcode(),
        }));
    }
    let Some(stride_type) = q.def(q.type_of(stride)) else {
        return Ok(());
    };
    if stride_type.opcode() != O::TypeInt {
        return Err(Fault::from(E::RawOperandNotInt {
            what: RawChainOperand::Stride,
            id,
            found: stride_type.opcode(),
        }));
    }
    for (what, i) in [(RawChainOperand::Index, 4), (RawChainOperand::Offset, 5)] {
        let Some(t) = q.def(q.type_of(inst.word(i))) else {
            return Ok(());
        };
        if t.opcode() != O::TypeInt {
            return Err(Fault::from(E::RawOperandNotInt {
                what,
                id,
                found: t.opcode(),
            }));
        }
        let width = t.words().get(2).copied().unwrap_or(0);
        if width != 32 {
            return Err(Fault::from(E::RawOperandWidth { what, id, width }));
        }
    }
    let access = if inst.operands.len() >= 7 {
        inst.word(6)
    } else {
        0
    };
    let (per_component, per_element) = (access & 1 != 0, access & 2 != 0);
    if per_element && q.constant_u64(stride) == Some(0) {
        return Err(Fault::from(E::RawStrideZero));
    }
    if (per_component || per_element) && sc == S::PhysicalStorageBuffer {
        return Err(Fault::from(E::RawRobustPhysical));
    }
    if per_component && per_element {
        return Err(Fault::from(E::RawRobustExclusive));
    }
    Ok(())
}
