//! spirv-val's rules for `OpVariable` and `OpUntypedVariableKHR`
//! (`ValidateVariable` in `validate_memory.cpp`), in its order: result type, data
//! type and initializer, bools, storage class, variable pointers, Vulkan's interface
//! rules, initializers by storage class, runtime arrays, cooperative types, and 8- and
//! 16-bit types.

use super::super::Query;
use super::super::validation_state::{Scalar, contains_type};
use super::super::{Fault, Inst};
use super::{Memory, MemoryError as E, Walk};
use crate::module::InstRef;
use crate::spirv_tools::{generates_type, is_constant};
use crate::spv::{Capability as C, Decoration as D, Opcode as O, StorageClass as S};
use crate::types::Id;
use alloc::collections::BTreeSet;

/// `IsAllowedTypeOrArrayOfSame`.
fn allowed_or_array_of(q: &Query<'_>, t: &InstRef<'_>, allowed: &[O]) -> bool {
    if allowed.contains(&t.opcode()) {
        return true;
    }
    if matches!(t.opcode(), O::TypeArray | O::TypeRuntimeArray) {
        let elem = t.words().get(2).copied().unwrap_or(0);
        return allowed.contains(&q.opcode(elem));
    }
    false
}

/// `ContainsInvalidBool`: a bool within `id`; with `skip_builtin`, not below a type
/// decorated `BuiltIn` (on itself or a member).
fn contains_invalid_bool(q: &Query<'_>, id: u32, skip_builtin: bool) -> bool {
    let mut seen = BTreeSet::new();
    let mut stack = crate::__private::Vec::from([id]);
    while let Some(id) = stack.pop() {
        if !seen.insert(id) {
            continue;
        }
        if skip_builtin && q.decorations.has(id, D::BuiltIn.0) {
            continue;
        }
        let Some(t) = q.def(id) else { continue };
        let w = t.words();
        match t.opcode() {
            O::TypeBool => return true,
            O::TypeVector | O::TypeMatrix | O::TypeArray | O::TypeRuntimeArray => {
                stack.extend_from_slice(w.get(2..3).unwrap_or(&[]));
            }
            O::TypeStruct => stack.extend(w.get(2..).unwrap_or(&[]).iter().rev()),
            _ => {}
        }
    }
    false
}

/// The rules for one variable.
pub(crate) fn variable(q: &Query<'_>, inst: &Inst<'_>, st: &Memory) -> Result<(), Fault> {
    let untyped = inst.opcode == O::UntypedVariableKHR;
    let vulkan = q.state.options.target_env.is_vulkan();
    let has = |c: C| q.state.has_capability(c.0);
    let id = inst.result_id;
    let result_type_id = inst.word(0);
    let result_type = q.def(result_type_id);
    let wanted = if untyped {
        O::TypeUntypedPointerKHR
    } else {
        O::TypePointer
    };
    let result_type = match result_type {
        Some(t) if t.opcode() == wanted => t,
        _ if untyped => return Err(Fault::from(E::UntypedVariableResultType)),
        _ => {
            return Err(Fault::from(E::VariableResultType {
                ty: Id(result_type_id),
            }));
        }
    };
    let mut storage_class = S(inst.word(2));
    let nops = inst.operands.len();
    let mut value_id = 0;
    if untyped {
        if nops > 3 {
            value_id = inst.word(3);
            if !q.def(value_id).is_some_and(|d| generates_type(d.opcode())) {
                return Err(Fault::from(E::DataTypeNotType));
            }
        } else {
            if matches!(storage_class, S::Function | S::Private | S::Workgroup) {
                return Err(Fault::from(E::DataTypeMissing));
            }
            if vulkan {
                return Err(Fault::from(E::VulkanDataTypeMissing));
            }
        }
    } else {
        value_id = result_type.words().get(3).copied().unwrap_or(0);
    }
    let value_type = if value_id == 0 { None } else { q.def(value_id) };

    let init_index = if untyped { 4 } else { 3 };
    let has_init = nops > init_index;
    if has_init {
        let init_id = inst.word(init_index);
        let init = q.def(init_id);
        let module_var = init.as_ref().is_some_and(|i| {
            matches!(i.opcode(), O::Variable | O::UntypedVariableKHR)
                && i.words().get(3) != Some(&S::Function.0)
        });
        let constant = init.as_ref().is_some_and(|i| is_constant(i.opcode()));
        if init.is_none() || !(constant || module_var) {
            return Err(Fault::from(E::InitializerNotConstant {
                initializer: Id(init_id),
            }));
        }
        if q.type_of(init_id) != value_id {
            return Err(Fault::from(E::InitializerType));
        }
    }

    let bool_allowed = matches!(
        storage_class,
        S::Workgroup
            | S::CrossWorkgroup
            | S::Private
            | S::Function
            | S::UniformConstant
            | S::RayPayloadKHR
            | S::IncomingRayPayloadKHR
            | S::HitAttributeKHR
            | S::CallableDataKHR
            | S::IncomingCallableDataKHR
            | S::TaskPayloadWorkgroupEXT
            | S::HitObjectAttributeNV
            | S::HitObjectAttributeEXT
            | S::NodePayloadAMDX
    );
    if !bool_allowed {
        let interface = matches!(storage_class, S::Input | S::Output);
        let builtin = interface && q.decorations.has(id, D::BuiltIn.0);
        if !builtin
            && value_type.is_some()
            && st.remember(Walk::InvalidBool(interface), value_id, || {
                contains_invalid_bool(q, value_id, interface)
            })
        {
            return Err(Fault::from(if interface {
                E::BoolInInterface
            } else {
                E::BoolExternal
            }));
        }
    }

    if vulkan && !vulkan_storage_class(storage_class) {
        return Err(Fault::from(E::StorageClassForEnv));
    }
    if storage_class == S::Generic {
        return Err(Fault::from(E::GenericVariable));
    }
    if st.in_function && storage_class != S::Function {
        return Err(Fault::from(E::NotFunctionInside));
    }
    if !st.in_function && storage_class == S::Function {
        return Err(Fault::from(E::FunctionOutside));
    }
    if result_type.words().get(2) != Some(&storage_class.0) {
        return Err(Fault::from(E::StorageClassMismatch));
    }

    let pointee = if untyped {
        value_type
    } else {
        q.def(result_type.words().get(3).copied().unwrap_or(0))
    };
    if super::logical_or_psb(q) && !q.state.options.relax_logical_pointer {
        if let Some(p) = pointee
            .as_ref()
            .filter(|p| matches!(p.opcode(), O::TypePointer | O::TypeUntypedPointerKHR))
        {
            let sc = S(p.words().get(2).copied().unwrap_or(u32::MAX));
            if sc != S::PhysicalStorageBuffer {
                if sc != S::StorageBuffer && sc != S::Workgroup {
                    return Err(Fault::from(E::LogicalPointerStorage));
                } else if !has(C::VariablePointersStorageBuffer) && sc == S::StorageBuffer {
                    return Err(Fault::from(E::LogicalStorageBufferPointer));
                } else if !has(C::VariablePointers) && sc == S::Workgroup {
                    return Err(Fault::from(E::LogicalWorkgroupPointer));
                } else if storage_class != S::Function && storage_class != S::Private {
                    return Err(Fault::from(E::LogicalPointerVariableStorage));
                }
            }
        }
    }

    if vulkan {
        vulkan_interface(q, inst, storage_class, pointee.as_ref(), value_id)?;
    }

    if has_init && !matches!(storage_class, S::Output | S::Private | S::Function) && vulkan {
        if storage_class == S::Workgroup {
            if q.opcode(inst.word(init_index)) != O::ConstantNull {
                return Err(Fault::from(E::WorkgroupInitializer { variable: Id(id) }));
            }
        } else {
            return Err(Fault::from(E::InitializerStorageClass { variable: Id(id) }));
        }
    }
    if has_init
        && matches!(
            storage_class,
            S::TaskPayloadWorkgroupEXT
                | S::Input
                | S::HitObjectAttributeNV
                | S::HitObjectAttributeEXT
        )
    {
        return Err(Fault::from(E::InitializerNotAllowed {
            variable: Id(id),
            storage_class,
        }));
    }
    if storage_class == S::PhysicalStorageBuffer {
        return Err(Fault::from(E::PhysicalStorageBufferVariable));
    }

    if vulkan {
        runtime_arrays(q, inst, storage_class, value_type.as_ref(), value_id)?;
    }

    if !matches!(storage_class, S::Function | S::Private) {
        if let Some(p) = &pointee {
            let pid = p.words().get(1).copied().unwrap_or(0);
            let matrix = st.remember(Walk::CooperativeMatrix, pid, || {
                contains_type(q, pid, true, &|t| {
                    matches!(
                        t.opcode(),
                        O::TypeCooperativeMatrixNV | O::TypeCooperativeMatrixKHR
                    )
                })
            });
            if matrix {
                return Err(Fault::from(E::CooperativeMatrixStorage));
            }
            let vector = st.remember(Walk::CooperativeVector, pid, || {
                contains_type(q, pid, true, &|t| t.opcode() == O::TypeCooperativeVectorNV)
            });
            if vector {
                return Err(Fault::from(E::CooperativeVectorStorage));
            }
        }
    }

    if has(C::Shader) {
        let sized = |s: Scalar| q.contains_sized(value_id, s);
        let sixteen = (!has(C::Int16) && sized(Scalar::Int16))
            || (!has(C::Float16) && sized(Scalar::Float16));
        if sixteen {
            narrow(q, value_type.as_ref(), &mut storage_class, 16)?;
        }
        if !has(C::Int8) && sized(Scalar::Int8) {
            narrow(q, value_type.as_ref(), &mut storage_class, 8)?;
        }
    }
    if has(C::TileShadingQCOM) && storage_class == S::TileAttachmentQCOM {
        tile_attachment(q, id, &result_type, st)?;
    }
    Ok(())
}

/// The rules for a `TileAttachmentQCOM` variable: an image's dimension and `Sampled`,
/// no image query of what it holds, its binding, no `Component`.
fn tile_attachment(
    q: &Query<'_>,
    id: u32,
    result_type: &InstRef<'_>,
    st: &Memory,
) -> Result<(), Fault> {
    let image = (result_type.opcode() == O::TypePointer)
        .then(|| result_type.words().get(3).and_then(|&p| q.def(p)))
        .flatten()
        .filter(|p| p.opcode() == O::TypeImage);
    if let Some(image) = image {
        let w = image.words();
        if w.get(3).copied() != Some(crate::spv::Dim::Dim2D.0) {
            return Err(E::TileAttachmentDim.into());
        }
        if !matches!(w.get(7), Some(1 | 2)) {
            return Err(E::TileAttachmentSampled.into());
        }
        if st.queried(q).contains(&id) {
            return Err(E::TileAttachmentQuery.into());
        }
    }
    let decorated = |d: D| q.decorations.has(id, d.0);
    if !(decorated(D::DescriptorSet) && decorated(D::Binding)) {
        return Err(E::TileAttachmentBinding.into());
    }
    if decorated(D::Component) {
        return Err(E::TileAttachmentComponent.into());
    }
    Ok(())
}

/// `IsValidStorageClass` for Vulkan.
fn vulkan_storage_class(sc: S) -> bool {
    matches!(
        sc,
        S::UniformConstant
            | S::Uniform
            | S::StorageBuffer
            | S::Input
            | S::Output
            | S::Image
            | S::Workgroup
            | S::Private
            | S::Function
            | S::PushConstant
            | S::PhysicalStorageBuffer
            | S::RayPayloadKHR
            | S::IncomingRayPayloadKHR
            | S::HitAttributeKHR
            | S::CallableDataKHR
            | S::IncomingCallableDataKHR
            | S::ShaderRecordBufferKHR
            | S::TaskPayloadWorkgroupEXT
            | S::HitObjectAttributeNV
            | S::HitObjectAttributeEXT
            | S::TileImageEXT
            | S::NodePayloadAMDX
            | S::TileAttachmentQCOM
    )
}

/// Vulkan's push-constant, descriptor-set and `Invariant` rules.
fn vulkan_interface(
    q: &Query<'_>,
    inst: &Inst<'_>,
    sc: S,
    pointee: Option<&InstRef<'_>>,
    value_id: u32,
) -> Result<(), Fault> {
    let variable = Id(inst.result_id);
    if let Some(p) = pointee {
        if sc == S::PushConstant && p.opcode() != O::TypeStruct {
            return Err(Fault::from(E::PushConstantType { variable }));
        }
        let opaque = [
            O::TypeImage,
            O::TypeSampler,
            O::TypeSampledImage,
            O::TypeTensorARM,
            O::TypeAccelerationStructureKHR,
        ];
        if sc == S::UniformConstant && !allowed_or_array_of(q, p, &opaque) {
            return Err(Fault::from(E::UniformConstantType { variable }));
        }
        if sc == S::Uniform && !allowed_or_array_of(q, p, &[O::TypeStruct]) {
            return Err(Fault::from(E::UniformType { variable }));
        }
        if sc == S::StorageBuffer && !allowed_or_array_of(q, p, &[O::TypeStruct]) {
            return Err(Fault::from(E::StorageBufferType { variable }));
        }
    }
    if sc != S::Input && sc != S::Output {
        if q.decorations.has(inst.result_id, D::Invariant.0) {
            return Err(Fault::from(E::InvariantVariable));
        }
        if q.opcode(value_id) == O::TypeStruct && q.decorations.has(value_id, D::Invariant.0) {
            return Err(Fault::from(E::InvariantMember));
        }
    }
    Ok(())
}

/// Vulkan's rules for runtime arrays in variables.
fn runtime_arrays(
    q: &Query<'_>,
    inst: &Inst<'_>,
    sc: S,
    value_type: Option<&InstRef<'_>>,
    value_id: u32,
) -> Result<(), Fault> {
    let Some(v) = value_type else { return Ok(()) };
    if v.opcode() == O::TypeRuntimeArray {
        if !q.state.has_capability(C::RuntimeDescriptorArray.0) {
            return Err(Fault::from(E::RuntimeArrayVariable {
                variable: Id(inst.result_id),
            }));
        }
        if !matches!(sc, S::StorageBuffer | S::Uniform | S::UniformConstant) {
            return Err(Fault::from(E::RuntimeArrayStorage));
        }
    }
    if v.opcode() == O::TypeStruct {
        let has_rta = v
            .words()
            .get(2..)
            .unwrap_or(&[])
            .iter()
            .any(|&m| q.opcode(m) == O::TypeRuntimeArray);
        if has_rta {
            if matches!(sc, S::StorageBuffer | S::PhysicalStorageBuffer) {
                if !q.decorations.has(value_id, D::Block.0) {
                    return Err(Fault::from(E::RuntimeArrayBlock));
                }
            } else if sc != S::Uniform {
                return Err(Fault::from(E::RuntimeArrayStructStorage));
            }
        }
    }
    Ok(())
}

/// The rules for a variable holding 8- or 16-bit types (`bits`), by the storage
/// class reached through pointers (which spirv-val keeps for what follows).
fn narrow(
    q: &Query<'_>,
    value_type: Option<&InstRef<'_>>,
    sc: &mut S,
    bits: u32,
) -> Result<(), Fault> {
    let has = |c: C| q.state.has_capability(c.0);
    let mut under = value_type.map(|t| t.words().get(1).copied().unwrap_or(0));
    // Each step follows a pointer to its pointee; a cycle of forward pointers stops
    // at the module's length.
    for _ in 0..=q.module.len() {
        match under {
            Some(u) if q.opcode(u) == O::TypePointer => {
                *sc = S(q.word(u, 2).unwrap_or(u32::MAX));
                under = q.word(u, 3).filter(|&p| q.def(p).is_some());
            }
            _ => break,
        }
    }
    let (ssbo, ubo, pc, wg) = if bits == 16 {
        (
            C::StorageBuffer16BitAccess,
            C::UniformAndStorageBuffer16BitAccess,
            C::StoragePushConstant16,
            C::WorkgroupMemoryExplicitLayout16BitAccessKHR,
        )
    } else {
        (
            C::StorageBuffer8BitAccess,
            C::UniformAndStorageBuffer8BitAccess,
            C::StoragePushConstant8,
            C::WorkgroupMemoryExplicitLayout8BitAccessKHR,
        )
    };
    let ok = match *sc {
        S::StorageBuffer | S::PhysicalStorageBuffer => has(ssbo),
        S::Uniform => match under {
            Some(mut u) if !has(ubo) => {
                if matches!(q.opcode(u), O::TypeArray | O::TypeRuntimeArray) {
                    u = q.word(u, 2).unwrap_or(0);
                }
                has(ssbo) && q.decorations.has(u, D::BufferBlock.0)
            }
            _ => true,
        },
        S::PushConstant => has(pc),
        S::Input | S::Output if bits == 16 => has(C::StorageInputOutput16),
        S::Workgroup => has(wg),
        other => {
            return Err(Fault::from(E::NarrowStorageClass {
                bits,
                storage_class: other,
            }));
        }
    };
    if !ok {
        return Err(Fault::from(E::NarrowNeedsCapability {
            bits,
            storage_class: *sc,
        }));
    }
    Ok(())
}
