//! spirv-val's type pass (`TypePass` in `validate_type.cpp`): non-aggregate types are
//! declared once; scalar widths and the capabilities they need; vector, matrix and
//! array shapes; pointers, forward pointers and function types. Structs, cooperative
//! and tensor types are in `type_rules.rs`; the faults are [`TypeError`]s
//! (`type_error.rs`).

pub use super::type_error::TypeError;

use super::Query;
use super::error::ErrorKind;
use super::type_rules::{self, Decorations};
use super::{Fault, Inst};
use crate::__private::Vec;
use crate::grammar::KindClass;
use crate::spirv_tools::{self as opcodes, generates_type};
use crate::spv::{self, Capability as C, Decoration as D, Opcode as O, StorageClass as SC};
use crate::types::Id;
use alloc::collections::{BTreeMap, BTreeSet};

/// What the type pass remembers across instructions.
#[derive(Debug, Default)]
pub(super) struct Types {
    /// The non-aggregate types seen so far, by opcode and operands.
    unique: BTreeSet<Vec<u32>>,
    /// The decorations spirv-val has registered by the time types are checked, read
    /// from the module at the first type that asks.
    pub(super) decorations: Option<Decorations>,
    /// For each function type, its first use spirv-val does not allow (an
    /// instruction index), found at the first function type.
    function_type_uses: Option<BTreeMap<u32, u32>>,
    /// Each entry point's last `LocalSize` or `LocalSizeId` mode and its operands,
    /// read at the first cooperative matrix of Workgroup scope.
    pub(super) local_sizes: Option<BTreeMap<u32, (u32, [u32; 3])>>,
    /// Answers of the struct rules' walks, by type.
    pub(super) memo: StructMemo,
}

/// What the struct rules' walks have found, by type: whether it contains a Block or
/// BufferBlock struct (not through pointers), and an opaque type (through them).
#[derive(Debug, Default)]
pub(super) struct StructMemo {
    /// Contains a Block or BufferBlock struct.
    pub(super) block: BTreeMap<u32, bool>,
    /// Contains an opaque type.
    pub(super) opaque: BTreeMap<u32, bool>,
}

/// `e` as a fault at the current instruction.
fn fail<T>(e: TypeError) -> Result<T, Fault> {
    Err(ErrorKind::Type(e).into())
}

/// The type pass for one instruction.
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>, st: &mut Types) -> Result<(), Fault> {
    let op = inst.opcode;
    if !(generates_type(op) || op == O::TypeForwardPointer) {
        return Ok(());
    }
    unique(q, inst, st)?;
    let w = |i: usize| inst.words.get(i).copied().unwrap_or(0);
    match op {
        O::TypeInt => type_int(q, w(2), w(3)),
        O::TypeFloat => type_float(q, inst.words),
        O::TypeVector => type_vector(q, op, w(2), w(3)),
        O::TypeMatrix => type_matrix(q, w(2), w(3)),
        O::TypeArray | O::TypeRuntimeArray => array(q, inst, st),
        O::TypeStruct => type_rules::type_struct(q, inst, st),
        O::TypePointer => pointer(q, w(2), w(3)),
        O::TypeFunction => function(q, inst, st),
        O::TypeForwardPointer => forward_pointer(q, w(1), w(2)),
        O::TypeCooperativeMatrixNV | O::TypeCooperativeMatrixKHR => {
            type_rules::cooperative_matrix(q, inst, st)
        }
        O::TypeCooperativeVectorNV => type_rules::cooperative_vector(q, w(2), w(3)),
        O::TypeUntypedPointerKHR => untyped_pointer(q, w(2)),
        O::TypeTensorLayoutNV => type_rules::tensor_layout(q, inst),
        O::TypeTensorViewNV => type_rules::tensor_view(q, inst),
        O::TypeTensorARM => type_rules::tensor_arm(q, inst),
        _ => Ok(()),
    }
}

/// `ValidateUniqueness`.
fn unique(q: &Query<'_>, inst: &Inst<'_>, st: &mut Types) -> Result<(), Fault> {
    let op = inst.opcode;
    let aggregate = matches!(
        op,
        O::TypeArray
            | O::TypeRuntimeArray
            | O::TypeNodePayloadArrayAMDX
            | O::TypeStruct
            | O::TypePointer
            | O::TypeUntypedPointerKHR
    );
    if !aggregate
        && !q
            .state
            .has_extension("SPV_VALIDATOR_ignore_type_decl_unique")
    {
        // The opcode and every operand word but the result id.
        let mut key = Vec::with_capacity(inst.words.len());
        key.push(u32::from(op.0));
        for o in inst.operands {
            if o.kind.class != KindClass::Result {
                key.extend_from_slice(&inst.words[o.offset..o.offset + o.len]);
            }
        }
        if !st.unique.insert(key) {
            return Err(ErrorKind::DuplicateType {
                opcode: op,
                id: Id(inst.result_id),
            }
            .into());
        }
    }
    Ok(())
}

/// `ValidateTypeInt`.
fn type_int(q: &Query<'_>, bits: u32, signedness: u32) -> Result<(), Fault> {
    let s = q.state;
    match bits {
        32 => {}
        8 if declares_int8(q) => return Ok(()),
        8 => return fail(TypeError::Int8),
        16 if declares_int16(q) => return Ok(()),
        16 => return fail(TypeError::Int16),
        64 if s.has_capability(C::Int64.0) => return Ok(()),
        64 => return fail(TypeError::Int64),
        n => return fail(TypeError::IntWidth(n)),
    }
    if signedness > 1 {
        return fail(TypeError::IntSignedness);
    }
    if s.has_capability(C::Kernel.0) && signedness != 0 {
        return fail(TypeError::KernelSignedness);
    }
    Ok(())
}

/// spirv-val's `declare_int8_type` feature.
fn declares_int8(q: &Query<'_>) -> bool {
    [
        C::Int8,
        C::StorageBuffer8BitAccess,
        C::UniformAndStorageBuffer8BitAccess,
        C::StoragePushConstant8,
        C::WorkgroupMemoryExplicitLayout8BitAccessKHR,
    ]
    .iter()
    .any(|c| q.state.has_capability(c.0))
}

/// spirv-val's `declare_int16_type` feature.
fn declares_int16(q: &Query<'_>) -> bool {
    [
        C::Int16,
        C::StorageUniformBufferBlock16,
        C::StorageUniform16,
        C::StoragePushConstant16,
        C::StorageInputOutput16,
        C::WorkgroupMemoryExplicitLayout16BitAccessKHR,
    ]
    .iter()
    .any(|c| q.state.has_capability(c.0))
}

/// spirv-val's `declare_float16_type` feature.
fn declares_float16(q: &Query<'_>) -> bool {
    [
        C::Float16,
        C::Float16Buffer,
        C::StorageUniformBufferBlock16,
        C::StorageUniform16,
        C::StoragePushConstant16,
        C::StorageInputOutput16,
        C::WorkgroupMemoryExplicitLayout16BitAccessKHR,
    ]
    .iter()
    .any(|c| q.state.has_capability(c.0))
        || q.state.has_any_extension(&[
            "SPV_AMD_gpu_shader_half_float",
            "SPV_AMD_gpu_shader_half_float_fetch",
        ])
}

/// `ValidateTypeFloat`.
fn type_float(q: &Query<'_>, words: &[u32]) -> Result<(), Fault> {
    let bits = words.get(2).copied().unwrap_or(0);
    let encoding = words.get(3).copied();
    match bits {
        32 => Ok(()),
        16 if encoding.is_some() || declares_float16(q) => Ok(()),
        16 => fail(TypeError::Float16),
        8 => {
            if !q.state.has_capability(C::Float8EXT.0) {
                return fail(TypeError::Float8);
            }
            let Some(e) = encoding else {
                return fail(TypeError::Float8Encoding);
            };
            if e == spv::FPEncoding::Float8E4M3EXT.0 || e == spv::FPEncoding::Float8E5M2EXT.0 {
                return Ok(());
            }
            // The parser has refused encodings the grammar does not know.
            match spv::kinds::FPEncoding.enumerant(e) {
                Some(d) => fail(TypeError::Float8UnknownEncoding(d.name)),
                None => Ok(()),
            }
        }
        64 if q.state.has_capability(C::Float64.0) => Ok(()),
        64 => fail(TypeError::Float64),
        n => fail(TypeError::FloatWidth(n)),
    }
}

/// `ValidateTypeVector`.
fn type_vector(q: &Query<'_>, op: O, component: u32, count: u32) -> Result<(), Fault> {
    let c = q.opcode(component);
    if c == O::Nop {
        return fail(TypeError::VectorComponent(Id(component)));
    }
    let scalar = matches!(c, O::TypeInt | O::TypeFloat | O::TypeBool);
    if q.state.has_capability(C::MaskedGatherScatterINTEL.0) {
        if c != O::TypePointer && !scalar {
            return fail(TypeError::VectorComponentMasked(Id(component)));
        }
    } else if !scalar {
        return fail(TypeError::VectorComponent(Id(component)));
    }
    match count {
        2..=4 => Ok(()),
        8 | 16 if q.state.has_capability(C::Vector16.0) => Ok(()),
        8 | 16 => fail(TypeError::Vector16(count, op)),
        n => fail(TypeError::VectorSize(n, op)),
    }
}

/// `ValidateTypeMatrix`.
fn type_matrix(q: &Query<'_>, column: u32, columns: u32) -> Result<(), Fault> {
    if q.opcode(column) != O::TypeVector {
        return fail(TypeError::MatrixColumns);
    }
    let component = q.word(column, 2).unwrap_or(0);
    if q.opcode(component) != O::TypeFloat {
        return fail(TypeError::MatrixComponent);
    }
    if !(2..=4).contains(&columns) {
        return fail(TypeError::MatrixColumnCount);
    }
    Ok(())
}

/// `ValidateTypeArray` and `ValidateTypeRuntimeArray`.
fn array(q: &Query<'_>, inst: &Inst<'_>, st: &mut Types) -> Result<(), Fault> {
    let runtime = inst.opcode == O::TypeRuntimeArray;
    let element = inst.words.get(2).copied().unwrap_or(0);
    let e = q.opcode(element);
    if !generates_type(e) {
        return fail(TypeError::ArrayElementNotType(runtime, Id(element)));
    }
    if e == O::TypeVoid {
        return fail(TypeError::ArrayElementVoid(runtime, Id(element)));
    }
    if q.state.has_capability(C::Shader.0) && e == O::TypeStruct {
        let decs = type_rules::decorations(q, st);
        if (decs.has(element, D::Block) || decs.has(element, D::BufferBlock))
            && decs.has(inst.result_id, D::ArrayStride)
        {
            return fail(TypeError::ArrayStrideOnBlockArray);
        }
    }
    if q.state.options.target_env.is_vulkan() && e == O::TypeRuntimeArray {
        return fail(TypeError::ArrayOfRuntimeArray(runtime, Id(element)));
    }
    if runtime {
        return Ok(());
    }
    let length = inst.words.get(3).copied().unwrap_or(0);
    let Some(def) = q.def(length).filter(|d| opcodes::is_constant(d.opcode())) else {
        return fail(TypeError::ArrayLengthNotConstant(Id(length)));
    };
    let ty = def.words().get(1).copied().unwrap_or(0);
    if q.opcode(ty) != O::TypeInt {
        return fail(TypeError::ArrayLengthNotInt(Id(length)));
    }
    if let Some(v) = q.constant_i64(length) {
        let signed = q.word(ty, 3).is_some_and(|s| s > 0);
        if v == 0 || (v < 0 && signed) {
            return fail(TypeError::ArrayLengthValue(Id(length), v));
        }
    }
    Ok(())
}

/// `ValidateTypePointer`.
fn pointer(q: &Query<'_>, storage: u32, pointee: u32) -> Result<(), Fault> {
    if !generates_type(q.opcode(pointee)) {
        return fail(TypeError::PointerTypeNotType(Id(pointee)));
    }
    if q.state.options.target_env.is_vulkan() && !vulkan_storage_class(SC(storage)) {
        return fail(TypeError::PointerStorageClass);
    }
    Ok(())
}

/// `IsValidStorageClass` in Vulkan.
fn vulkan_storage_class(sc: SC) -> bool {
    matches!(
        sc,
        SC::UniformConstant
            | SC::Uniform
            | SC::StorageBuffer
            | SC::Input
            | SC::Output
            | SC::Image
            | SC::Workgroup
            | SC::Private
            | SC::Function
            | SC::PushConstant
            | SC::PhysicalStorageBuffer
            | SC::RayPayloadKHR
            | SC::IncomingRayPayloadKHR
            | SC::HitAttributeKHR
            | SC::CallableDataKHR
            | SC::IncomingCallableDataKHR
            | SC::ShaderRecordBufferKHR
            | SC::TaskPayloadWorkgroupEXT
            | SC::HitObjectAttributeNV
            | SC::HitObjectAttributeEXT
            | SC::TileImageEXT
            | SC::NodePayloadAMDX
            | SC::TileAttachmentQCOM
    )
}

/// `ValidateTypeUntypedPointerKHR`.
fn untyped_pointer(q: &Query<'_>, storage: u32) -> Result<(), Fault> {
    if !q.state.options.target_env.is_vulkan() {
        return Ok(());
    }
    match SC(storage) {
        SC::Workgroup
            if !q
                .state
                .has_capability(C::WorkgroupMemoryExplicitLayoutKHR.0) =>
        {
            fail(TypeError::UntypedPointerWorkgroup)
        }
        SC::Workgroup
        | SC::StorageBuffer
        | SC::PhysicalStorageBuffer
        | SC::Uniform
        | SC::PushConstant => Ok(()),
        _ => fail(TypeError::UntypedPointerStorageClass),
    }
}

/// `ValidateTypeFunction`.
fn function(q: &Query<'_>, inst: &Inst<'_>, st: &mut Types) -> Result<(), Fault> {
    let ret = inst.words.get(2).copied().unwrap_or(0);
    if !generates_type(q.opcode(ret)) {
        return fail(TypeError::FunctionReturnNotType(Id(ret)));
    }
    let params = inst.words.get(3..).unwrap_or(&[]);
    for &p in params {
        match q.opcode(p) {
            O::TypeVoid => return fail(TypeError::FunctionParameterVoid(Id(p))),
            t if !generates_type(t) => return fail(TypeError::FunctionParameterNotType(Id(p))),
            _ => {}
        }
    }
    let limit = q.state.options.limits.max_function_args;
    if params.len() > limit as usize {
        return fail(TypeError::FunctionParameters(
            limit,
            Id(inst.result_id),
            params.len(),
        ));
    }
    let uses = st
        .function_type_uses
        .get_or_insert_with(|| type_rules::bad_function_type_uses(q));
    if let Some(&at) = uses.get(&inst.result_id) {
        let e = ErrorKind::Type(TypeError::FunctionTypeUse(Id(inst.result_id)));
        return Err(Fault::at(e, at));
    }
    Ok(())
}

/// `ValidateTypeForwardPointer`.
fn forward_pointer(q: &Query<'_>, pointer: u32, storage: u32) -> Result<(), Fault> {
    if q.opcode(pointer) != O::TypePointer {
        return fail(TypeError::ForwardPointerNotPointer);
    }
    if q.word(pointer, 2) != Some(storage) {
        return fail(TypeError::ForwardPointerStorageClass);
    }
    let pointee = q.word(pointer, 3).unwrap_or(0);
    if q.opcode(pointee) != O::TypeStruct {
        return fail(TypeError::ForwardPointerNotStruct);
    }
    if q.state.options.target_env.is_vulkan() && SC(storage) != SC::PhysicalStorageBuffer {
        return fail(TypeError::ForwardPointerVulkan);
    }
    Ok(())
}
