//! spirv-val's type pass (`TypePass` in `validate_type.cpp`): non-aggregate types are
//! declared once; scalar widths and the capabilities they need; vector, matrix and
//! array shapes; pointers, forward pointers and function types. Structs, cooperative
//! and tensor types are in [`structs`].

mod cooperative;
mod structs;
mod tensors;

use super::Query;
use super::error::ValidationErrorKind;
use super::faults::faults;
use super::{Fault, Inst};
use crate::__private::Vec;
use crate::grammar::KindClass;
use crate::spirv_tools::{self as opcodes, generates_type};
use crate::spv::{self, Capability as C, Decoration as D, Opcode, Opcode as O, StorageClass as SC};
use crate::types::Id;
use alloc::collections::{BTreeMap, BTreeSet};

faults! {
    /// A fault of spirv-val's type pass (`validate_type.cpp`), with the ids and numbers
    /// its message names.
    pub enum TypeError {
        // --- OpTypeInt and OpTypeFloat. ---
        /// An 8-bit integer type without `Int8` or an extension enabling it.
        Int8 => "Using an 8-bit integer type requires the Int8 capability, or an extension that explicitly enables 8-bit integers.",
        /// A 16-bit integer type without `Int16` or an extension enabling it.
        Int16 => "Using a 16-bit integer type requires the Int16 capability, or an extension that explicitly enables 16-bit integers.",
        /// A 64-bit integer type without `Int64`.
        Int64 => "Using a 64-bit integer type requires the Int64 capability.",
        /// An integer width other than 8, 16, 32 and 64.
        IntWidth {
            /// The width.
            width: u32,
        } => "Invalid number of bits ({width}) used for OpTypeInt.",
        /// A signedness other than 0 and 1.
        IntSignedness => "OpTypeInt has invalid signedness:",
        /// A signed integer type with the `Kernel` capability.
        KernelSignedness => "The Signedness in OpTypeInt must always be 0 when Kernel capability is used.",
        /// A 16-bit IEEE float type without `Float16`, `Float16Buffer` or an extension.
        Float16 => "Using a 16-bit floating point type requires the Float16 or Float16Buffer capability, or an extension that explicitly enables 16-bit floating point.",
        /// An 8-bit float type without `Float8EXT`.
        Float8 => "Using a 8-bit floating point type requires the Float8EXT capability.",
        /// An 8-bit float type without an encoding.
        Float8Encoding => "8-bit floating point type requires an encoding.",
        /// An 8-bit float type whose encoding is not an 8-bit one.
        Float8UnknownEncoding {
            /// The encoding.
            encoding: spv::FPEncoding,
        } => "Unsupported 8-bit floating point encoding ({encoding}).",
        /// A 64-bit float type without `Float64`.
        Float64 => "Using a 64-bit floating point type requires the Float64 capability.",
        /// A float width other than 8, 16, 32 and 64.
        FloatWidth {
            /// The width.
            width: u32,
        } => "Invalid number of bits ({width}) used for OpTypeFloat.",

        // --- Vectors and matrices. ---
        /// A vector component that is neither scalar nor pointer, with
        /// `MaskedGatherScatterINTEL`.
        VectorComponentMasked {
            /// The component type.
            component: Id,
        } => "Invalid OpTypeVector Component Type<id> {component}: Expected a scalar or pointer type when using the SPV_INTEL_masked_gather_scatter extension.",
        /// A vector component that is not a scalar.
        VectorComponent {
            /// The component type.
            component: Id,
        } => "OpTypeVector Component Type <id> {component} is not a scalar type.",
        /// 8 or 16 components without `Vector16`.
        Vector16 {
            /// The component count.
            count: u32,
            /// The instruction's opcode.
            opcode: Opcode,
        } => "Having {count} components for {opcode} requires the Vector16 capability",
        /// Another component count.
        VectorSize {
            /// The component count.
            count: u32,
            /// The instruction's opcode.
            opcode: Opcode,
        } => "Illegal number of components ({count}) for {opcode}",
        /// A cooperative vector component that is not a number.
        CoopVectorComponent {
            /// The component type.
            component: Id,
        } => "OpTypeCooperativeVectorNV Component Type <id> {component} is not a scalar numerical type.",
        /// A cooperative vector count that is not a constant.
        CoopVectorCountNotConstant {
            /// The count.
            count: Id,
        } => "OpTypeCooperativeVectorNV component count <id> {count} is not a scalar constant type.",
        /// A cooperative vector count whose type is not an integer.
        CoopVectorCountNotInt {
            /// The count.
            count: Id,
        } => "OpTypeCooperativeVectorNV component count <id> {count} is not a constant integer type.",
        /// A cooperative vector count below 1.
        CoopVectorCountValue {
            /// The count.
            count: Id,
            /// Its value.
            value: i64,
        } => "OpTypeCooperativeVectorNV component count <id> {count} default value must be at least 1: found {value}",
        /// Matrix columns that are not vectors.
        MatrixColumns => "Columns in a matrix must be of type vector.",
        /// Matrix components that are not floats.
        MatrixComponent => "Matrix types can only be parameterized with floating-point types.",
        /// A matrix column count other than 2, 3 and 4.
        MatrixColumnCount => "Matrix types can only be parameterized as having only 2, 3, or 4 columns.",

        // --- Arrays. ---
        /// An array element that is not a type.
        ArrayElementNotType {
            /// The element type.
            element: Id,
        } => "OpTypeArray Element Type <id> {element} is not a type.",
        /// A runtime array element that is not a type.
        RuntimeArrayElementNotType {
            /// The element type.
            element: Id,
        } => "OpTypeRuntimeArray Element Type <id> {element} is not a type.",
        /// A void array element.
        ArrayElementVoid {
            /// The element type.
            element: Id,
        } => "OpTypeArray Element Type <id> {element} is a void type.",
        /// A void runtime array element.
        RuntimeArrayElementVoid {
            /// The element type.
            element: Id,
        } => "OpTypeRuntimeArray Element Type <id> {element} is a void type.",
        /// An array of a Block or BufferBlock struct with `ArrayStride`.
        ArrayStrideOnBlockArray => "Array containing a Block or BufferBlock must not be decorated with ArrayStride",
        /// An array of runtime arrays in Vulkan.
        #[vuid = "VUID-StandaloneSpirv-OpTypeRuntimeArray-04680"]
        ArrayOfRuntimeArray {
            /// The element type.
            element: Id,
        } => "OpTypeArray Element Type <id> {element} is not valid in Vulkan environments.",
        /// A runtime array of runtime arrays in Vulkan.
        #[vuid = "VUID-StandaloneSpirv-OpTypeRuntimeArray-04680"]
        RuntimeArrayOfRuntimeArray {
            /// The element type.
            element: Id,
        } => "OpTypeRuntimeArray Element Type <id> {element} is not valid in Vulkan environments.",
        /// An array length that is not a constant.
        ArrayLengthNotConstant {
            /// The length.
            length: Id,
        } => "OpTypeArray Length <id> {length} is not a scalar constant type.",
        /// An array length whose type is not an integer.
        ArrayLengthNotInt {
            /// The length.
            length: Id,
        } => "OpTypeArray Length <id> {length} is not a constant integer type.",
        /// An array length below 1.
        ArrayLengthValue {
            /// The length.
            length: Id,
            /// Its value.
            value: i64,
        } => "OpTypeArray Length <id> {length} default value must be at least 1: found {value}",

        // --- Structs. ---
        /// A struct that is its own member.
        StructSelfReference => "Structure members may not be self references",
        /// A member that is not a type.
        StructMemberNotType {
            /// The member type.
            member: Id,
        } => "OpTypeStruct Member Type <id> {member} is not a type.",
        /// A void member.
        StructMemberVoid => "Structures cannot contain a void type.",
        /// A member struct with BuiltIn members.
        StructBuiltInMember {
            /// The member struct.
            member: Id,
            /// The struct.
            structure: Id,
        } => "Structure <id> {member} contains members with BuiltIn decoration. Therefore this structure may not be contained as a member of another structure type. Structure <id> {structure} contains structure <id> {member}.",
        /// A runtime array before a Vulkan struct's last member.
        #[vuid = "VUID-StandaloneSpirv-OpTypeRuntimeArray-04680"]
        RuntimeArrayNotLast => "In Vulkan, OpTypeRuntimeArray must only be used for the last member of an OpTypeStruct",
        /// A Vulkan struct with a runtime array that is not a Block or BufferBlock.
        #[vuid = "VUID-StandaloneSpirv-OpTypeRuntimeArray-04680"]
        RuntimeArrayStructNotBlock => "Vulkan, OpTypeStruct containing an OpTypeRuntimeArray must be decorated with Block or BufferBlock.",
        /// A Block or BufferBlock within another.
        NestedBlock => "rules: A Block or BufferBlock cannot be nested within another Block or BufferBlock. ",
        /// Some but not all members BuiltIn.
        BuiltInMixed {
            /// The struct.
            structure: Id,
        } => "When BuiltIn decoration is applied to a structure-type member, all members of that structure type must also be decorated with BuiltIn (No allowed mixing of built-in variables and non-built-in variables within a single structure). Structure id {structure:n} does not meet this requirement.",
        /// A Vulkan struct containing an opaque type.
        #[vuid = "VUID-StandaloneSpirv-None-04667"]
        StructOpaque => "In Vulkan, OpTypeStruct must not contain an opaque type.",

        // --- Pointers and functions. ---
        /// A pointee that is not a type.
        PointerTypeNotType {
            /// The pointee.
            pointee: Id,
        } => "OpTypePointer Type <id> {pointee} is not a type.",
        /// A storage class Vulkan does not have.
        #[vuid = "VUID-StandaloneSpirv-None-04643"]
        PointerStorageClass => "Invalid storage class for target environment",
        /// An untyped Workgroup pointer in Vulkan without the explicit layout capability.
        UntypedPointerWorkgroup => "Workgroup storage class untyped pointers in Vulkan require WorkgroupMemoryExplicitLayoutKHR be declared",
        /// An untyped pointer of a storage class without explicit layout, in Vulkan.
        UntypedPointerStorageClass => "In Vulkan, untyped pointers can only be used in an explicitly laid out storage class",
        /// A return type that is not a type.
        FunctionReturnNotType {
            /// The return type.
            return_type: Id,
        } => "OpTypeFunction Return Type <id> {return_type} is not a type.",
        /// A parameter type that is not a type.
        FunctionParameterNotType {
            /// The parameter type.
            parameter: Id,
        } => "OpTypeFunction Parameter Type <id> {parameter} is not a type.",
        /// A void parameter type.
        FunctionParameterVoid {
            /// The parameter type.
            parameter: Id,
        } => "OpTypeFunction Parameter Type <id> {parameter} cannot be OpTypeVoid.",
        /// More parameters than the limit.
        FunctionParameters {
            /// The limit.
            limit: u32,
            /// The function type.
            function_type: Id,
            /// The parameters.
            count: usize,
        } => "OpTypeFunction may not take more than {limit} arguments. OpTypeFunction <id> {function_type} has {count} arguments.",
        /// A function type used other than by a function, a debug or a decoration
        /// instruction (reported at the use).
        FunctionTypeUse {
            /// The function type.
            function_type: Id,
        } => "Invalid use of function type result id {function_type}.",
        /// `OpTypeForwardPointer` of something other than an `OpTypePointer`.
        ForwardPointerNotPointer => "Pointer type in OpTypeForwardPointer is not a pointer type.",
        /// `OpTypeForwardPointer` whose storage class is not the pointer's.
        ForwardPointerStorageClass => "Storage class in OpTypeForwardPointer does not match the pointer definition.",
        /// A forward pointer to something other than a struct.
        ForwardPointerNotStruct => "Forward pointers must point to a structure",
        /// A Vulkan forward pointer that is not PhysicalStorageBuffer.
        #[vuid = "VUID-StandaloneSpirv-OpTypeForwardPointer-04711"]
        ForwardPointerVulkan => "In Vulkan, OpTypeForwardPointer must have a storage class of PhysicalStorageBuffer.",

        // --- Cooperative matrices. ---
        /// A component that is not a number.
        CoopMatrixComponent {
            /// The component type.
            component: Id,
        } => "OpTypeCooperativeMatrix Component Type <id> {component} is not a scalar numerical type.",
        /// A bfloat16 component without `BFloat16CooperativeMatrixKHR`.
        CoopMatrixBFloat16 {
            /// The component type.
            component: Id,
        } => "OpTypeCooperativeMatrix Component Type <id> {component}require BFloat16CooperativeMatrixKHR be declared.",
        /// An 8-bit float component without `Float8CooperativeMatrixEXT`.
        CoopMatrixFloat8 {
            /// The component type.
            component: Id,
        } => "OpTypeCooperativeMatrix Component Type <id> {component}require Float8CooperativeMatrixEXT be declared.",
        /// A scope operand that is not an integer constant.
        CoopMatrixScope {
            /// The operand.
            scope: Id,
        } => "OpTypeCooperativeMatrix Scope <id> {scope} is not a constant instruction with scalar integer type.",
        /// A rows operand that is not an integer constant.
        CoopMatrixRows {
            /// The operand.
            rows: Id,
        } => "OpTypeCooperativeMatrix Rows <id> {rows} is not a constant instruction with scalar integer type.",
        /// A columns operand that is not an integer constant.
        CoopMatrixColumns {
            /// The operand.
            columns: Id,
        } => "OpTypeCooperativeMatrix Cols <id> {columns} is not a constant instruction with scalar integer type.",
        /// A use operand that is not an integer constant.
        CoopMatrixUse {
            /// The operand.
            usage: Id,
        } => "OpTypeCooperativeMatrixKHR Use <id> {usage} is not a constant instruction with scalar integer type.",
        /// Workgroup scope with an entry point without a local size.
        CoopMatrixNoLocalSize {
            /// The entry point.
            entry_point: Id,
        } => "OpTypeCooperativeMatrixKHR with ScopeWorkgroup used without specifying LocalSize or LocalSizeId for entry point <id> {entry_point}",
        /// Workgroup scope before a `LocalSizeId` operand's definition.
        CoopMatrixLocalSizeIdLater {
            /// The operand.
            operand: Id,
        } => "OpTypeCooperativeMatrixKHR with ScopeWorkgroup used before LocalSizeId constant value <id> {operand} is defined.",

        // --- Tensor types. ---
        /// A tensor layout or view dimension that is not a 32-bit integer.
        TensorDimNot32 {
            /// The instruction's opcode.
            opcode: Opcode,
            /// The dimension.
            dim: Id,
        } => "{opcode} Dim <id> {dim} is not a 32-bit integer.",
        /// A tensor layout or view dimension outside 1 to 5.
        TensorDimRange {
            /// The instruction's opcode.
            opcode: Opcode,
            /// The dimension.
            dim: Id,
        } => "{opcode} Dim <id> {dim} must be between 1 and 5.",
        /// A clamp mode that is not a 32-bit integer.
        TensorClampNot32 {
            /// The instruction's opcode.
            opcode: Opcode,
            /// The operand.
            clamp_mode: Id,
        } => "{opcode} ClampMode <id> {clamp_mode} is not a 32-bit integer.",
        /// A clamp mode that is not a `TensorClampMode`.
        TensorClampInvalid {
            /// The instruction's opcode.
            opcode: Opcode,
            /// The operand.
            clamp_mode: Id,
        } => "{opcode} ClampMode <id> {clamp_mode} must be a valid TensorClampMode.",
        /// A `HasDimensions` that is not a bool.
        TensorHasDimNotBool {
            /// The instruction's opcode.
            opcode: Opcode,
            /// The operand.
            has_dimensions: Id,
        } => "{opcode} HasDimensions <id> {has_dimensions} is not a boolean value.",
        /// A permutation value that is not a 32-bit integer.
        TensorPermutationNot32 {
            /// The instruction's opcode.
            opcode: Opcode,
            /// The value.
            permutation: Id,
        } => "{opcode} Permutation <id> {permutation} is not a 32-bit integer.",
        /// A permutation value that is not a dimension.
        TensorPermutationDim {
            /// The instruction's opcode.
            opcode: Opcode,
            /// The value.
            permutation: Id,
        } => "{opcode} Permutation <id> {permutation} must be a valid dimension.",
        /// Permutation values that are not a permutation.
        TensorPermutationInvalid {
            /// The instruction's opcode.
            opcode: Opcode,
        } => "{opcode} Permutation values don't form a valid permutation.",
        /// Not as many permutation values as dimensions.
        TensorPermutationCount {
            /// The instruction's opcode.
            opcode: Opcode,
        } => "{opcode} Incorrect number of permutation values.",
        /// An `OpTypeTensorARM` element that is not a scalar.
        TensorElement {
            /// The element type.
            element: Id,
        } => "OpTypeTensorARM Element Type <id> {element} is not a scalar type.",
        /// A tensor rank that is not a constant.
        TensorRankNotConstant {
            /// The rank.
            rank: Id,
        } => "OpTypeTensorARM Rank <id> {rank} is not a constant instruction.",
        /// A tensor rank whose type is not an integer.
        TensorRankNotInt {
            /// The rank.
            rank: Id,
        } => "OpTypeTensorARM Rank <id> {rank} does not have a scalar integer type.",
        /// A tensor rank of 0.
        TensorRankZero {
            /// The rank.
            rank: Id,
        } => "OpTypeTensorARM Rank <id> {rank} must define a value greater than 0.",
        /// A tensor shape that is not a constant.
        TensorShapeNotConstant {
            /// The shape.
            shape: Id,
        } => "OpTypeTensorARM Shape <id> {shape} is not a constant instruction.",
        /// A tensor shape that is not an integer array of the rank's length.
        TensorShapeNotArray {
            /// The shape.
            shape: Id,
        } => "OpTypeTensorARM Shape <id> {shape} is not an array of integer type whose Length is equal to Rank.",
        /// A tensor shape constituent of 0.
        TensorShapeZero {
            /// The constituent's index.
            constituent: usize,
        } => "OpTypeTensorARM Shape constituent {constituent} is not greater than 0.",

        // --- Uniqueness (`ValidateUniqueness`). ---
        /// A type declared twice (other than arrays, structs and pointers).
        DuplicateType {
            /// The opcode.
            opcode: Opcode,
            /// The second declaration's id.
            id: Id,
        } => "Duplicate non-aggregate type declarations are not allowed. Opcode: {opcode} id: {id:n}",
    }
}

/// What the type pass remembers across instructions.
#[derive(Debug, Default)]
pub(super) struct Types {
    /// The non-aggregate types seen so far, by opcode and operands.
    unique: BTreeSet<Vec<u32>>,
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

/// The type pass for one instruction.
#[inline(always)]
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
        O::TypeArray | O::TypeRuntimeArray => array(q, inst),
        O::TypeStruct => structs::type_struct(q, inst, st),
        O::TypePointer => pointer(q, w(2), w(3)),
        O::TypeFunction => function(q, inst, st),
        O::TypeForwardPointer => forward_pointer(q, w(1), w(2)),
        O::TypeCooperativeMatrixNV | O::TypeCooperativeMatrixKHR => {
            cooperative::cooperative_matrix(q, inst, st)
        }
        O::TypeCooperativeVectorNV => cooperative::cooperative_vector(q, w(2), w(3)),
        O::TypeUntypedPointerKHR => untyped_pointer(q, w(2)),
        O::TypeTensorLayoutNV => tensors::tensor_layout(q, inst),
        O::TypeTensorViewNV => tensors::tensor_view(q, inst),
        O::TypeTensorARM => tensors::tensor_arm(q, inst),
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
            return Err(TypeError::DuplicateType {
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
        8 => return Err(TypeError::Int8.into()),
        16 if declares_int16(q) => return Ok(()),
        16 => return Err(TypeError::Int16.into()),
        64 if s.has_capability(C::Int64.0) => return Ok(()),
        64 => return Err(TypeError::Int64.into()),
        n => return Err(TypeError::IntWidth { width: n }.into()),
    }
    if signedness > 1 {
        return Err(TypeError::IntSignedness.into());
    }
    if s.has_capability(C::Kernel.0) && signedness != 0 {
        return Err(TypeError::KernelSignedness.into());
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
        16 => Err(TypeError::Float16.into()),
        8 => {
            if !q.state.has_capability(C::Float8EXT.0) {
                return Err(TypeError::Float8.into());
            }
            let Some(e) = encoding else {
                return Err(TypeError::Float8Encoding.into());
            };
            if e == spv::FPEncoding::Float8E4M3EXT.0 || e == spv::FPEncoding::Float8E5M2EXT.0 {
                return Ok(());
            }
            // The parser has refused encodings the grammar does not know.
            match spv::kinds::FPEncoding.enumerant(e) {
                Some(_) => Err(TypeError::Float8UnknownEncoding {
                    encoding: spv::FPEncoding(e),
                }
                .into()),
                None => Ok(()),
            }
        }
        64 if q.state.has_capability(C::Float64.0) => Ok(()),
        64 => Err(TypeError::Float64.into()),
        n => Err(TypeError::FloatWidth { width: n }.into()),
    }
}

/// `ValidateTypeVector`.
fn type_vector(q: &Query<'_>, op: O, component: u32, count: u32) -> Result<(), Fault> {
    let c = q.opcode(component);
    if c == O::Nop {
        return Err(TypeError::VectorComponent {
            component: Id(component),
        }
        .into());
    }
    let scalar = matches!(c, O::TypeInt | O::TypeFloat | O::TypeBool);
    if q.state.has_capability(C::MaskedGatherScatterINTEL.0) {
        if c != O::TypePointer && !scalar {
            return Err(TypeError::VectorComponentMasked {
                component: Id(component),
            }
            .into());
        }
    } else if !scalar {
        return Err(TypeError::VectorComponent {
            component: Id(component),
        }
        .into());
    }
    match count {
        2..=4 => Ok(()),
        8 | 16 if q.state.has_capability(C::Vector16.0) => Ok(()),
        8 | 16 => Err(TypeError::Vector16 { count, opcode: op }.into()),
        n => Err(TypeError::VectorSize {
            count: n,
            opcode: op,
        }
        .into()),
    }
}

/// `ValidateTypeMatrix`.
fn type_matrix(q: &Query<'_>, column: u32, columns: u32) -> Result<(), Fault> {
    if q.opcode(column) != O::TypeVector {
        return Err(TypeError::MatrixColumns.into());
    }
    let component = q.word(column, 2).unwrap_or(0);
    if q.opcode(component) != O::TypeFloat {
        return Err(TypeError::MatrixComponent.into());
    }
    if !(2..=4).contains(&columns) {
        return Err(TypeError::MatrixColumnCount.into());
    }
    Ok(())
}

/// `ValidateTypeArray` and `ValidateTypeRuntimeArray`.
fn array(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let runtime = inst.opcode == O::TypeRuntimeArray;
    let element = inst.words.get(2).copied().unwrap_or(0);
    let e = q.opcode(element);
    if !generates_type(e) {
        return Err(if runtime {
            TypeError::RuntimeArrayElementNotType {
                element: Id(element),
            }
        } else {
            TypeError::ArrayElementNotType {
                element: Id(element),
            }
        }
        .into());
    }
    if e == O::TypeVoid {
        return Err(if runtime {
            TypeError::RuntimeArrayElementVoid {
                element: Id(element),
            }
        } else {
            TypeError::ArrayElementVoid {
                element: Id(element),
            }
        }
        .into());
    }
    if q.state.has_capability(C::Shader.0) && e == O::TypeStruct {
        let decs = q.decorations;
        if (decs.has(element, D::Block.0) || decs.has(element, D::BufferBlock.0))
            && decs.has(inst.result_id, D::ArrayStride.0)
        {
            return Err(TypeError::ArrayStrideOnBlockArray.into());
        }
    }
    if q.state.options.target_env.is_vulkan() && e == O::TypeRuntimeArray {
        return Err(if runtime {
            TypeError::RuntimeArrayOfRuntimeArray {
                element: Id(element),
            }
        } else {
            TypeError::ArrayOfRuntimeArray {
                element: Id(element),
            }
        }
        .into());
    }
    if runtime {
        return Ok(());
    }
    let length = inst.words.get(3).copied().unwrap_or(0);
    let Some(def) = q.def(length).filter(|d| opcodes::is_constant(d.opcode())) else {
        return Err(TypeError::ArrayLengthNotConstant { length: Id(length) }.into());
    };
    let ty = def.words().get(1).copied().unwrap_or(0);
    if q.opcode(ty) != O::TypeInt {
        return Err(TypeError::ArrayLengthNotInt { length: Id(length) }.into());
    }
    if let Some(v) = q.constant_i64(length) {
        let signed = q.word(ty, 3).is_some_and(|s| s > 0);
        if v == 0 || (v < 0 && signed) {
            return Err(TypeError::ArrayLengthValue {
                length: Id(length),
                value: v,
            }
            .into());
        }
    }
    Ok(())
}

/// `ValidateTypePointer`.
fn pointer(q: &Query<'_>, storage: u32, pointee: u32) -> Result<(), Fault> {
    if !generates_type(q.opcode(pointee)) {
        return Err(TypeError::PointerTypeNotType {
            pointee: Id(pointee),
        }
        .into());
    }
    if q.state.options.target_env.is_vulkan() && !vulkan_storage_class(SC(storage)) {
        return Err(TypeError::PointerStorageClass.into());
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
            Err(TypeError::UntypedPointerWorkgroup.into())
        }
        SC::Workgroup
        | SC::StorageBuffer
        | SC::PhysicalStorageBuffer
        | SC::Uniform
        | SC::PushConstant => Ok(()),
        _ => Err(TypeError::UntypedPointerStorageClass.into()),
    }
}

/// `ValidateTypeFunction`.
fn function(q: &Query<'_>, inst: &Inst<'_>, st: &mut Types) -> Result<(), Fault> {
    let ret = inst.words.get(2).copied().unwrap_or(0);
    if !generates_type(q.opcode(ret)) {
        return Err(TypeError::FunctionReturnNotType {
            return_type: Id(ret),
        }
        .into());
    }
    let params = inst.words.get(3..).unwrap_or(&[]);
    for &p in params {
        match q.opcode(p) {
            O::TypeVoid => return Err(TypeError::FunctionParameterVoid { parameter: Id(p) }.into()),
            t if !generates_type(t) => {
                return Err(TypeError::FunctionParameterNotType { parameter: Id(p) }.into());
            }
            _ => {}
        }
    }
    let limit = q.state.options.limits.max_function_args;
    if params.len() > limit as usize {
        return Err(TypeError::FunctionParameters {
            limit,
            function_type: Id(inst.result_id),
            count: params.len(),
        }
        .into());
    }
    let uses = st
        .function_type_uses
        .get_or_insert_with(|| structs::bad_function_type_uses(q));
    if let Some(&at) = uses.get(&inst.result_id) {
        let e = ValidationErrorKind::from(TypeError::FunctionTypeUse {
            function_type: Id(inst.result_id),
        });
        return Err(Fault::at(e, at));
    }
    Ok(())
}

/// `ValidateTypeForwardPointer`.
fn forward_pointer(q: &Query<'_>, pointer: u32, storage: u32) -> Result<(), Fault> {
    if q.opcode(pointer) != O::TypePointer {
        return Err(TypeError::ForwardPointerNotPointer.into());
    }
    if q.word(pointer, 2) != Some(storage) {
        return Err(TypeError::ForwardPointerStorageClass.into());
    }
    let pointee = q.word(pointer, 3).unwrap_or(0);
    if q.opcode(pointee) != O::TypeStruct {
        return Err(TypeError::ForwardPointerNotStruct.into());
    }
    if q.state.options.target_env.is_vulkan() && SC(storage) != SC::PhysicalStorageBuffer {
        return Err(TypeError::ForwardPointerVulkan.into());
    }
    Ok(())
}

/// What this family checks (see [`coverage`](crate::validate::coverage)).
pub(crate) const COVERAGE: crate::validate::coverage::Family = crate::validate::coverage::Family {
    opcodes: {
        use crate::spv::Opcode as O;
        &[
            O::TypeInt,
            O::TypeFloat,
            O::TypeVector,
            O::TypeMatrix,
            O::TypeArray,
            O::TypeRuntimeArray,
            O::TypeStruct,
            O::TypePointer,
            O::TypeFunction,
            O::TypeForwardPointer,
            O::TypeCooperativeMatrixNV,
            O::TypeCooperativeMatrixKHR,
            O::TypeCooperativeVectorNV,
            O::TypeUntypedPointerKHR,
            O::TypeTensorLayoutNV,
            O::TypeTensorViewNV,
            O::TypeTensorARM,
        ]
    },
    ..crate::validate::coverage::Family::new("types", "validate_type.cpp")
};
