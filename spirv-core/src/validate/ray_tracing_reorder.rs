//! spirv-val's ray tracing reorder passes (`RayReorderNVPass` and `RayReorderEXTPass`
//! in `validate_ray_tracing_reorder.cpp`): the hit object instructions of
//! `SPV_NV_shader_invocation_reorder` and `SPV_EXT_shader_invocation_reorder` (with
//! the NVIDIA cluster, sphere and linear swept sphere getters). Each names its hit
//! object through a pointer to `OpTypeHitObjectNV` or `OpTypeHitObjectEXT`; the
//! getters' result types are fixed; the record and trace instructions take the ray
//! parameters `OpTraceRayKHR` takes; the reorder instructions take a hint and its
//! bits, both or neither; and each limits the execution models of its function.

use super::faults::faults;
use super::limitations::{Limitation, register, rules};
use super::{Fault, Inst, Query};
use crate::spv::{Capability, Opcode, Opcode as O, StorageClass as S};
use RayTracingReorderError as E;

faults! {
    /// A fault of spirv-val's ray tracing reorder passes
    /// (`validate_ray_tracing_reorder.cpp`).
    pub enum RayTracingReorderError {
        /// A hit object operand whose type is no pointer.
        HitObjectNotPointer => "Hit Object must be a pointer",
        /// An NV hit object operand that points to another type.
        NotHitObjectNv => "Type must be OpTypeHitObjectNV",
        /// An EXT hit object operand that points to another type.
        NotHitObjectExt => "Type must be OpTypeHitObjectEXT",
        /// `OpHitObjectRecordFromQueryEXT`'s ray query whose type is no pointer.
        RayQueryNotPointer => "Ray Query must be a pointer",
        /// `OpHitObjectRecordFromQueryEXT`'s ray query that points to another type.
        NotRayQuery => "Ray Query must be a pointer to OpTypeRayQueryKHR",
        /// `OpHitObjectRecordFromQueryEXT` without the `RayQueryKHR` capability.
        NeedsRayQuery {
            /// The instruction.
            opcode: Opcode,
        } => "{opcode}: requires RayQueryKHR capability",
        /// An acceleration structure of another type.
        AccelerationStructure
            => "Expected Acceleration Structure to be of type OpTypeAccelerationStructureKHR",
        /// An instance id that is no 32-bit integer.
        InstanceId => "Instance Id must be a 32-bit int scalar",
        /// A primitive id that is no 32-bit integer.
        PrimitiveId => "Primitive Id must be a 32-bit int scalar",
        /// A geometry index that is no 32-bit integer.
        GeometryIndex => "Geometry Index must be a 32-bit int scalar",
        /// A miss index that is no 32-bit unsigned integer (spirv-val's text says int).
        MissIndex => "Miss Index must be a 32-bit int scalar",
        /// `OpHitObjectRecordMiss*EXT`'s miss index that is no 32-bit unsigned integer.
        MissIndexUnsigned => "Miss Index must be a 32-bit unsigned int scalar",
        /// A cull mask that is no 32-bit unsigned integer (spirv-val's text says int).
        CullMask => "Cull mask must be a 32-bit int scalar",
        /// A shader binding table index that is no 32-bit unsigned integer.
        SbtIndex => "SBT Index must be a 32-bit unsigned int scalar",
        /// A shader binding table offset that is no 32-bit unsigned integer.
        SbtOffset => "SBT Offset must be a 32-bit unsigned int scalar",
        /// A shader binding table stride that is no 32-bit unsigned integer.
        SbtStride => "SBT Stride must be a 32-bit unsigned int scalar",
        /// A shader binding table record offset that is no 32-bit unsigned integer.
        SbtRecordOffset => "SBT record offset must be a 32-bit unsigned int scalar",
        /// A shader binding table record stride that is no 32-bit unsigned integer.
        SbtRecordStride => "SBT record stride must be a 32-bit unsigned int scalar",
        /// A ray origin that is no 3-component 32-bit float vector.
        RayOrigin => "Ray Origin must be a 32-bit float 3-component vector",
        /// A minimum distance that is no 32-bit float.
        RayTMin => "Ray TMin must be a 32-bit float scalar",
        /// A ray direction that is no 3-component 32-bit float vector.
        RayDirection => "Ray Direction must be a 32-bit float 3-component vector",
        /// A maximum distance that is no 32-bit float.
        RayTMax => "Ray TMax must be a 32-bit float scalar",
        /// Ray flags that are no 32-bit integer.
        RayFlags => "Ray Flags must be a 32-bit int scalar",
        /// A trace's payload that is no ray payload variable.
        TracePayload
            => "payload must be a OpVariable of storage class RayPayloadKHR or IncomingRayPayloadKHR",
        /// A hit kind that is no 32-bit unsigned integer.
        HitKind => "Hit Kind must be a 32-bit unsigned int scalar",
        /// Hit object attributes that are no `HitObjectAttributeNV` variable (a record
        /// also takes `HitObjectAttributeEXT`).
        AttributesNv
            => "Hit Object Attributes id must be a OpVariable of storage class HitObjectAttributeNV",
        /// Hit object attributes that are no `HitObjectAttributeEXT` variable.
        AttributesExt
            => "Hit Object Attributes id must be a OpVariable of storage class HitObjectAttributeEXT",
        /// `OpHitObjectExecuteShaderNV`'s payload that is no `RayPayloadKHR` variable.
        ExecutePayloadNv
            => "Hit Object Attributes id must be a OpVariable of storage class RayPayloadKHR",
        /// An execute's payload that is no ray payload variable.
        ExecutePayload
            => "Payload must be a OpVariable of storage class RayPayloadKHR or IncomingRayPayloadKHR",
        /// `OpHitObjectTraceRayMotionNV`'s current time that is no 32-bit float.
        CurrentTimesNv => "Current Times must be a 32-bit float scalar type",
        /// A motion instruction's current time that is no 32-bit float.
        CurrentTime => "Current Time must be a 32-bit float scalar",
        /// A hint without its bits, or the other way round (spirv-val's two spaces kept).
        HintAndBits
            => "Hint and Bits are optional together i.e  Either both Hint and Bits should be provided or neither.",
        /// A reorder hint that is no 32-bit integer.
        Hint => "Hint must be a 32-bit int scalar",
        /// An NV reorder's bits that are no 32-bit integer.
        BitsNv => "bits must be a 32-bit int scalar",
        /// An EXT reorder's bits that are no 32-bit integer.
        Bits => "Bits must be a 32-bit int scalar",
        /// `OpHitObjectSetShaderBindingTableRecordIndexEXT`'s index that is no 32-bit
        /// integer.
        SbtIndexInt => "SBT Index must be a 32-bit integer scalar",
        /// `OpHitObjectRecordFromQueryEXT`'s record index that is no 32-bit integer.
        SbtRecordIndex => "SBT Record Index must be a 32-bit integer scalar",
        /// A hit test whose result is no bool scalar.
        BoolResult => "expected Result Type to be bool scalar type",
        /// A shader record buffer handle that is no 2-component 32-bit integer vector.
        HandleResult {
            /// The instruction.
            opcode: Opcode,
        } => "Expected 32-bit integer type 2-component vector as Result Type: {opcode}",
        /// An index or kind that is no 32-bit integer scalar (the NV getters only ask
        /// for an integer).
        IntResult {
            /// The instruction.
            opcode: Opcode,
        } => "Expected 32-bit integer type scalar as Result Type: {opcode}",
        /// A time or distance that is no 32-bit float scalar.
        FloatResult {
            /// The instruction.
            opcode: Opcode,
        } => "Expected 32-bit floating-point type scalar as Result Type: {opcode}",
        /// A transform whose result is no matrix.
        MatrixResult {
            /// The instruction.
            opcode: Opcode,
        } => "expected matrix type as Result Type: {opcode}",
        /// A transform whose result matrix has other than 4 columns (no separator in
        /// spirv-val's text).
        MatrixColumns {
            /// The instruction.
            opcode: Opcode,
        } => "expected Result Type matrix to have a Column Count of 4{opcode}",
        /// A transform whose result columns are no 3-component 32-bit float vectors.
        MatrixColumnType {
            /// The instruction.
            opcode: Opcode,
        } => "expected Result Type matrix to have a Column Type of 3-component 32-bit float vectors: {opcode}",
        /// A ray origin or direction result that is no 3-component 32-bit float vector.
        Vec3Result {
            /// The instruction.
            opcode: Opcode,
        } => "Expected 32-bit floating-point type 3-component vector as Result Type: {opcode}",
        /// `OpHitObjectGetSpherePositionNV`'s result that is no 3-component 32-bit
        /// float vector (spirv-val's text says 2).
        SpherePosition {
            /// The instruction.
            opcode: Opcode,
        } => "Expected 32-bit floating point 2 component vector type as Result Type: {opcode}",
        /// `OpHitObjectGetSphereRadiusNV`'s result that is no 32-bit float scalar.
        SphereRadius {
            /// The instruction.
            opcode: Opcode,
        } => "Expected 32-bit floating point scalar as Result Type: {opcode}",
        /// `OpHitObjectGetLSSPositionsNV`'s result of another type.
        LssPositions {
            /// The instruction.
            opcode: Opcode,
        } => "Expected 2 element array of 32-bit 3 component float point vector as Result Type: {opcode}",
        /// `OpHitObjectGetLSSRadiiNV`'s result of another type.
        LssRadii {
            /// The instruction.
            opcode: Opcode,
        } => "Expected 2 element array of 32-bit floating point scalar as Result Type: {opcode}",
        /// A sphere or swept-sphere hit test whose result is no bool scalar.
        BooleanResult {
            /// The instruction.
            opcode: Opcode,
        } => "Expected Boolean scalar as Result Type: {opcode}",
        /// `OpHitObjectGetIntersectionTriangleVertexPositionsEXT`'s result of another
        /// type.
        TriangleVertices {
            /// The instruction.
            opcode: Opcode,
        } => "Expected 3 element array of 32-bit 3 component float vectors as Result Type: {opcode}",
    }
}

/// The instructions with rules here: `RayReorderNVPass`'s, then `RayReorderEXTPass`'s.
const RAY_TRACING_REORDER: &[Opcode] = &[
    O::HitObjectIsMissNV,
    O::HitObjectIsHitNV,
    O::HitObjectIsEmptyNV,
    O::HitObjectGetShaderRecordBufferHandleNV,
    O::HitObjectGetHitKindNV,
    O::HitObjectGetPrimitiveIndexNV,
    O::HitObjectGetGeometryIndexNV,
    O::HitObjectGetInstanceIdNV,
    O::HitObjectGetInstanceCustomIndexNV,
    O::HitObjectGetShaderBindingTableRecordIndexNV,
    O::HitObjectGetCurrentTimeNV,
    O::HitObjectGetRayTMaxNV,
    O::HitObjectGetRayTMinNV,
    O::HitObjectGetObjectToWorldNV,
    O::HitObjectGetWorldToObjectNV,
    O::HitObjectGetObjectRayOriginNV,
    O::HitObjectGetObjectRayDirectionNV,
    O::HitObjectGetWorldRayDirectionNV,
    O::HitObjectGetWorldRayOriginNV,
    O::HitObjectGetAttributesNV,
    O::HitObjectExecuteShaderNV,
    O::HitObjectRecordEmptyNV,
    O::HitObjectRecordMissNV,
    O::HitObjectRecordHitWithIndexNV,
    O::HitObjectRecordHitNV,
    O::HitObjectTraceRayMotionNV,
    O::HitObjectTraceRayNV,
    O::ReorderThreadWithHitObjectNV,
    O::ReorderThreadWithHintNV,
    O::HitObjectGetClusterIdNV,
    O::HitObjectGetSpherePositionNV,
    O::HitObjectGetSphereRadiusNV,
    O::HitObjectGetLSSPositionsNV,
    O::HitObjectGetLSSRadiiNV,
    O::HitObjectIsSphereHitNV,
    O::HitObjectIsLSSHitNV,
    O::HitObjectIsMissEXT,
    O::HitObjectIsHitEXT,
    O::HitObjectIsEmptyEXT,
    O::HitObjectGetShaderRecordBufferHandleEXT,
    O::HitObjectGetHitKindEXT,
    O::HitObjectGetPrimitiveIndexEXT,
    O::HitObjectGetGeometryIndexEXT,
    O::HitObjectGetInstanceIdEXT,
    O::HitObjectGetInstanceCustomIndexEXT,
    O::HitObjectGetShaderBindingTableRecordIndexEXT,
    O::HitObjectGetRayFlagsEXT,
    O::HitObjectGetCurrentTimeEXT,
    O::HitObjectGetRayTMaxEXT,
    O::HitObjectGetRayTMinEXT,
    O::HitObjectGetObjectToWorldEXT,
    O::HitObjectGetWorldToObjectEXT,
    O::HitObjectGetObjectRayOriginEXT,
    O::HitObjectGetObjectRayDirectionEXT,
    O::HitObjectGetWorldRayDirectionEXT,
    O::HitObjectGetWorldRayOriginEXT,
    O::HitObjectGetIntersectionTriangleVertexPositionsEXT,
    O::HitObjectGetAttributesEXT,
    O::HitObjectSetShaderBindingTableRecordIndexEXT,
    O::HitObjectExecuteShaderEXT,
    O::HitObjectRecordEmptyEXT,
    O::HitObjectRecordFromQueryEXT,
    O::HitObjectRecordMissEXT,
    O::HitObjectRecordMissMotionEXT,
    O::ReorderThreadWithHintEXT,
    O::ReorderThreadWithHitObjectEXT,
    O::HitObjectTraceRayEXT,
    O::HitObjectTraceRayMotionEXT,
    O::HitObjectReorderExecuteShaderEXT,
    O::HitObjectTraceReorderExecuteEXT,
    O::HitObjectTraceMotionReorderExecuteEXT,
];

/// The opcodes of both extensions lie in this range: any other instruction leaves
/// at once.
const OPCODES: core::ops::RangeInclusive<u16> = 5249..=5437;

/// One parameter of `ValidateHitObjectInstructionCommonParameters`, in the order it
/// checks them.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Param {
    AccelerationStructure,
    InstanceId,
    PrimitiveId,
    GeometryIndex,
    MissIndex,
    CullMask,
    SbtIndex,
    SbtOffset,
    SbtStride,
    SbtRecordOffset,
    SbtRecordStride,
    RayOrigin,
    RayTMin,
    RayDirection,
    RayTMax,
    RayFlags,
    Payload,
    HitKind,
    Attributes,
}

use Param as P;

/// A trace's parameters and their operands, in checking order.
const TRACE: &[(Param, usize)] = &[
    (P::AccelerationStructure, 1),
    (P::MissIndex, 6),
    (P::CullMask, 3),
    (P::SbtOffset, 4),
    (P::SbtStride, 5),
    (P::RayOrigin, 7),
    (P::RayTMin, 8),
    (P::RayDirection, 9),
    (P::RayTMax, 10),
    (P::RayFlags, 2),
    (P::Payload, 11),
];

/// A motion trace's: a trace's, with the current time (checked on its own) before
/// the payload.
const TRACE_MOTION: &[(Param, usize)] = &[
    (P::AccelerationStructure, 1),
    (P::MissIndex, 6),
    (P::CullMask, 3),
    (P::SbtOffset, 4),
    (P::SbtStride, 5),
    (P::RayOrigin, 7),
    (P::RayTMin, 8),
    (P::RayDirection, 9),
    (P::RayTMax, 10),
    (P::RayFlags, 2),
    (P::Payload, 12),
];

/// `OpHitObjectRecordHitNV`'s.
const RECORD_HIT: &[(Param, usize)] = &[
    (P::AccelerationStructure, 1),
    (P::InstanceId, 2),
    (P::PrimitiveId, 3),
    (P::GeometryIndex, 4),
    (P::SbtRecordOffset, 6),
    (P::SbtRecordStride, 7),
    (P::RayOrigin, 8),
    (P::RayTMin, 9),
    (P::RayDirection, 10),
    (P::RayTMax, 11),
    (P::HitKind, 5),
    (P::Attributes, 12),
];

/// `OpHitObjectRecordHitWithIndexNV`'s.
const RECORD_HIT_WITH_INDEX: &[(Param, usize)] = &[
    (P::AccelerationStructure, 1),
    (P::InstanceId, 2),
    (P::PrimitiveId, 3),
    (P::GeometryIndex, 4),
    (P::SbtIndex, 6),
    (P::RayOrigin, 7),
    (P::RayTMin, 8),
    (P::RayDirection, 9),
    (P::RayTMax, 10),
    (P::HitKind, 5),
    (P::Attributes, 11),
];

/// The checks every family of instructions here shares, over one instruction.
struct Checks<'q, 'a> {
    q: &'q Query<'a>,
    inst: &'q Inst<'q>,
}

impl Checks<'_, '_> {
    fn operand(&self, i: usize) -> u32 {
        self.q.operand_type(self.inst, i)
    }

    fn int32(&self, t: u32) -> bool {
        self.q.is_int_scalar_type(t) && self.q.bit_width(t) == 32
    }

    fn uint32(&self, t: u32) -> bool {
        self.q.is_unsigned_int_scalar_type(t) && self.q.bit_width(t) == 32
    }

    fn float32(&self, t: u32) -> bool {
        self.q.is_float_scalar_type(t) && self.q.bit_width(t) == 32
    }

    fn vec3(&self, t: u32) -> bool {
        self.q.is_float_vector_type(t) && self.q.dimension(t) == 3 && self.q.bit_width(t) == 32
    }

    /// Operand `i`'s storage class when it is an `OpVariable`, else `None`.
    fn variable(&self, i: usize) -> Option<S> {
        let id = self.inst.word(i);
        (self.q.opcode(id) == O::Variable).then(|| S(self.q.word(id, 3).unwrap_or(0)))
    }

    /// `ValidateHitObjectPointer` / `ValidateHitObjectPointerEXT`: the type of
    /// operand `i`'s definition is a pointer to `hit_object`.
    fn hit_object(&self, i: usize, hit_object: Opcode) -> Result<(), Fault> {
        let pointer = self.q.word(self.inst.word(i), 1).unwrap_or(0);
        if self.q.opcode(pointer) != O::TypePointer {
            return Err(E::HitObjectNotPointer.into());
        }
        if self.q.opcode(self.q.word(pointer, 3).unwrap_or(0)) != hit_object {
            return Err(match hit_object {
                O::TypeHitObjectNV => E::NotHitObjectNv,
                _ => E::NotHitObjectExt,
            }
            .into());
        }
        Ok(())
    }

    /// `ValidateRayQueryPointer`: the type of operand `i`'s definition is a pointer
    /// to `OpTypeRayQueryKHR`.
    fn ray_query(&self, i: usize) -> Result<(), Fault> {
        let pointer = self.q.word(self.inst.word(i), 1).unwrap_or(0);
        if self.q.opcode(pointer) != O::TypePointer {
            return Err(E::RayQueryNotPointer.into());
        }
        if self.q.opcode(self.q.word(pointer, 3).unwrap_or(0)) != O::TypeRayQueryKHR {
            return Err(E::NotRayQuery.into());
        }
        Ok(())
    }

    /// `ValidateHitObjectInstructionCommonParameters` over `params`.
    fn common(&self, params: &[(Param, usize)]) -> Result<(), Fault> {
        for &(param, i) in params {
            let t = self.operand(i);
            let (fits, fault) = match param {
                P::AccelerationStructure => (
                    self.q.opcode(t) == O::TypeAccelerationStructureKHR,
                    E::AccelerationStructure,
                ),
                P::InstanceId => (self.int32(t), E::InstanceId),
                P::PrimitiveId => (self.int32(t), E::PrimitiveId),
                P::GeometryIndex => (self.int32(t), E::GeometryIndex),
                P::MissIndex => (self.uint32(t), E::MissIndex),
                P::CullMask => (self.uint32(t), E::CullMask),
                P::SbtIndex => (self.uint32(t), E::SbtIndex),
                P::SbtOffset => (self.uint32(t), E::SbtOffset),
                P::SbtStride => (self.uint32(t), E::SbtStride),
                P::SbtRecordOffset => (self.uint32(t), E::SbtRecordOffset),
                P::SbtRecordStride => (self.uint32(t), E::SbtRecordStride),
                P::RayOrigin => (self.vec3(t), E::RayOrigin),
                P::RayTMin => (self.float32(t), E::RayTMin),
                P::RayDirection => (self.vec3(t), E::RayDirection),
                P::RayTMax => (self.float32(t), E::RayTMax),
                P::RayFlags => (self.int32(t), E::RayFlags),
                P::Payload => (
                    matches!(
                        self.variable(i),
                        Some(S::RayPayloadKHR | S::IncomingRayPayloadKHR)
                    ),
                    E::TracePayload,
                ),
                P::HitKind => (self.uint32(t), E::HitKind),
                P::Attributes => (
                    matches!(
                        self.variable(i),
                        Some(S::HitObjectAttributeNV | S::HitObjectAttributeEXT)
                    ),
                    E::AttributesNv,
                ),
            };
            if !fits {
                return Err(fault.into());
            }
        }
        Ok(())
    }

    /// The optional hint and bits at operands `at` and `at + 1`: both or neither,
    /// each a 32-bit integer.
    fn hint_and_bits(&self, at: usize, bits: E) -> Result<(), Fault> {
        let count = self.inst.operands.len();
        if count <= at {
            return Ok(());
        }
        if count != at + 2 {
            return Err(E::HintAndBits.into());
        }
        if !self.int32(self.operand(at)) {
            return Err(E::Hint.into());
        }
        if !self.int32(self.operand(at + 1)) {
            return Err(bits.into());
        }
        Ok(())
    }

    /// The ray of a miss record (operands `from`..`from + 4`): origin, minimum,
    /// direction, maximum.
    fn ray(&self, from: usize) -> Result<(), Fault> {
        self.common(&[
            (P::RayOrigin, from),
            (P::RayTMin, from + 1),
            (P::RayDirection, from + 2),
            (P::RayTMax, from + 3),
        ])
    }

    /// The transform getters' result: a 4-column matrix of 3-component 32-bit float
    /// vectors.
    fn transform(&self, opcode: Opcode) -> Result<(), Fault> {
        let result = self.inst.result_type();
        let Some((rows, columns, _, component)) = self.q.matrix_info(result) else {
            return Err(E::MatrixResult { opcode }.into());
        };
        if columns != 4 {
            return Err(E::MatrixColumns { opcode }.into());
        }
        if !self.q.is_float_scalar_type(component) || self.q.bit_width(result) != 32 || rows != 3 {
            return Err(E::MatrixColumnType { opcode }.into());
        }
        Ok(())
    }
}

/// `RayReorderNVPass`, then `RayReorderEXTPass`, for one instruction (no instruction
/// has rules in both).
#[inline(always)]
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    if !OPCODES.contains(&inst.opcode.0) {
        return Ok(());
    }
    let c = Checks { q, inst };
    nv(&c)?;
    ext(&c)
}

/// Registers the limitation of `rule` naming the instruction's opcode.
fn limit(c: &Checks<'_, '_>, rule: &'static super::limitations::Rule) {
    register(c.q, c.inst, Limitation::naming(c.q, rule, c.inst.opcode));
}

/// `RayReorderNVPass`.
fn nv(c: &Checks<'_, '_>) -> Result<(), Fault> {
    let opcode = c.inst.opcode;
    let result = c.inst.result_type();
    let hit_object = |i: usize| c.hit_object(i, O::TypeHitObjectNV);
    let models = || limit(c, &rules::HIT_OBJECT_MODELS);
    match opcode {
        O::HitObjectIsMissNV | O::HitObjectIsHitNV | O::HitObjectIsEmptyNV => {
            models();
            if !c.q.is_bool_scalar_type(result) {
                return Err(E::BoolResult.into());
            }
            hit_object(2)?;
        }
        O::HitObjectGetShaderRecordBufferHandleNV => {
            models();
            hit_object(2)?;
            if !c.q.is_int_vector_type(result)
                || c.q.dimension(result) != 2
                || c.q.bit_width(result) != 32
            {
                return Err(E::HandleResult { opcode }.into());
            }
        }
        O::HitObjectGetHitKindNV
        | O::HitObjectGetPrimitiveIndexNV
        | O::HitObjectGetGeometryIndexNV
        | O::HitObjectGetInstanceIdNV
        | O::HitObjectGetInstanceCustomIndexNV
        | O::HitObjectGetShaderBindingTableRecordIndexNV => {
            models();
            hit_object(2)?;
            // spirv-val asks for any width here, 32 bits for the cluster id.
            if !c.q.is_int_scalar_type(result) || c.q.bit_width(result) == 0 {
                return Err(E::IntResult { opcode }.into());
            }
        }
        O::HitObjectGetCurrentTimeNV | O::HitObjectGetRayTMaxNV | O::HitObjectGetRayTMinNV => {
            models();
            hit_object(2)?;
            if !c.float32(result) {
                return Err(E::FloatResult { opcode }.into());
            }
        }
        O::HitObjectGetObjectToWorldNV | O::HitObjectGetWorldToObjectNV => {
            models();
            hit_object(2)?;
            c.transform(opcode)?;
        }
        O::HitObjectGetObjectRayOriginNV
        | O::HitObjectGetObjectRayDirectionNV
        | O::HitObjectGetWorldRayDirectionNV
        | O::HitObjectGetWorldRayOriginNV => {
            models();
            hit_object(2)?;
            if !c.vec3(result) {
                return Err(E::Vec3Result { opcode }.into());
            }
        }
        O::HitObjectGetAttributesNV => {
            models();
            hit_object(0)?;
            if c.variable(1) != Some(S::HitObjectAttributeNV) {
                return Err(E::AttributesNv.into());
            }
        }
        O::HitObjectExecuteShaderNV => {
            models();
            hit_object(0)?;
            if c.variable(1) != Some(S::RayPayloadKHR) {
                return Err(E::ExecutePayloadNv.into());
            }
        }
        O::HitObjectRecordEmptyNV => {
            models();
            hit_object(0)?;
        }
        O::HitObjectRecordMissNV => {
            models();
            hit_object(0)?;
            if !c.uint32(c.operand(1)) {
                return Err(E::MissIndex.into());
            }
            c.ray(2)?;
        }
        O::HitObjectRecordHitWithIndexNV => {
            models();
            hit_object(0)?;
            c.common(RECORD_HIT_WITH_INDEX)?;
        }
        O::HitObjectRecordHitNV => {
            models();
            hit_object(0)?;
            c.common(RECORD_HIT)?;
        }
        O::HitObjectTraceRayMotionNV => {
            models();
            hit_object(0)?;
            c.common(TRACE_MOTION)?;
            if !c.float32(c.operand(11)) {
                return Err(E::CurrentTimesNv.into());
            }
        }
        O::HitObjectTraceRayNV => {
            models();
            hit_object(0)?;
            c.common(TRACE)?;
        }
        O::ReorderThreadWithHitObjectNV => {
            limit(c, &rules::RAY_GENERATION_ONLY);
            hit_object(0)?;
            c.hint_and_bits(1, E::BitsNv)?;
        }
        O::ReorderThreadWithHintNV => {
            limit(c, &rules::RAY_GENERATION_ONLY);
            if !c.int32(c.operand(0)) {
                return Err(E::Hint.into());
            }
            if !c.int32(c.operand(1)) {
                return Err(E::BitsNv.into());
            }
        }
        O::HitObjectGetClusterIdNV => {
            models();
            hit_object(2)?;
            if !c.int32(result) {
                return Err(E::IntResult { opcode }.into());
            }
        }
        O::HitObjectGetSpherePositionNV => {
            models();
            hit_object(2)?;
            if !c.vec3(result) {
                return Err(E::SpherePosition { opcode }.into());
            }
        }
        O::HitObjectGetSphereRadiusNV => {
            models();
            hit_object(2)?;
            if !c.float32(result) {
                return Err(E::SphereRadius { opcode }.into());
            }
        }
        O::HitObjectGetLSSPositionsNV => {
            models();
            hit_object(2)?;
            let component = c.q.component_type(result);
            if c.q.opcode(result) != O::TypeArray
                || super::ray_query::array_length(c.q, result) != 2
                || !c.q.is_float_vector_type(component)
                || c.q.dimension(component) != 3
            {
                return Err(E::LssPositions { opcode }.into());
            }
        }
        O::HitObjectGetLSSRadiiNV => {
            models();
            hit_object(2)?;
            // `IsFloatArrayType`: an `OpTypeArray` of float scalars.
            let component = c.q.component_type(result);
            if c.q.opcode(result) != O::TypeArray
                || !c.q.is_float_scalar_type(component)
                || super::ray_query::array_length(c.q, result) != 2
            {
                return Err(E::LssRadii { opcode }.into());
            }
        }
        O::HitObjectIsSphereHitNV | O::HitObjectIsLSSHitNV => {
            models();
            hit_object(2)?;
            if !c.q.is_bool_scalar_type(result) {
                return Err(E::BooleanResult { opcode }.into());
            }
        }
        _ => {}
    }
    Ok(())
}

/// `RayReorderEXTPass`.
fn ext(c: &Checks<'_, '_>) -> Result<(), Fault> {
    let opcode = c.inst.opcode;
    let result = c.inst.result_type();
    let hit_object = |i: usize| c.hit_object(i, O::TypeHitObjectEXT);
    let models = || limit(c, &rules::HIT_OBJECT_MODELS);
    match opcode {
        O::HitObjectIsMissEXT | O::HitObjectIsHitEXT | O::HitObjectIsEmptyEXT => {
            models();
            if !c.q.is_bool_scalar_type(result) {
                return Err(E::BoolResult.into());
            }
            hit_object(2)?;
        }
        O::HitObjectGetShaderRecordBufferHandleEXT => {
            models();
            hit_object(2)?;
            if !c.q.is_int_vector_type(result)
                || c.q.dimension(result) != 2
                || c.q.bit_width(result) != 32
            {
                return Err(E::HandleResult { opcode }.into());
            }
        }
        O::HitObjectGetHitKindEXT
        | O::HitObjectGetPrimitiveIndexEXT
        | O::HitObjectGetGeometryIndexEXT
        | O::HitObjectGetInstanceIdEXT
        | O::HitObjectGetInstanceCustomIndexEXT
        | O::HitObjectGetShaderBindingTableRecordIndexEXT
        | O::HitObjectGetRayFlagsEXT => {
            models();
            hit_object(2)?;
            if !c.int32(result) {
                return Err(E::IntResult { opcode }.into());
            }
        }
        O::HitObjectGetCurrentTimeEXT | O::HitObjectGetRayTMaxEXT | O::HitObjectGetRayTMinEXT => {
            models();
            hit_object(2)?;
            if !c.float32(result) {
                return Err(E::FloatResult { opcode }.into());
            }
        }
        O::HitObjectGetObjectToWorldEXT | O::HitObjectGetWorldToObjectEXT => {
            models();
            hit_object(2)?;
            c.transform(opcode)?;
        }
        O::HitObjectGetObjectRayOriginEXT
        | O::HitObjectGetObjectRayDirectionEXT
        | O::HitObjectGetWorldRayDirectionEXT
        | O::HitObjectGetWorldRayOriginEXT => {
            models();
            hit_object(2)?;
            if !c.vec3(result) {
                return Err(E::Vec3Result { opcode }.into());
            }
        }
        O::HitObjectGetIntersectionTriangleVertexPositionsEXT => {
            models();
            hit_object(2)?;
            let component = c.q.component_type(result);
            if c.q.opcode(result) != O::TypeArray
                || super::ray_query::array_length(c.q, result) != 3
                || !c.vec3(component)
            {
                return Err(E::TriangleVertices { opcode }.into());
            }
        }
        O::HitObjectGetAttributesEXT => {
            models();
            hit_object(0)?;
            if c.variable(1) != Some(S::HitObjectAttributeEXT) {
                return Err(E::AttributesExt.into());
            }
        }
        O::HitObjectSetShaderBindingTableRecordIndexEXT => {
            models();
            hit_object(0)?;
            if !c.int32(c.operand(1)) {
                return Err(E::SbtIndexInt.into());
            }
        }
        O::HitObjectExecuteShaderEXT => {
            models();
            hit_object(0)?;
            execute_payload(c, 1)?;
        }
        O::HitObjectRecordEmptyEXT => {
            models();
            hit_object(0)?;
        }
        O::HitObjectRecordFromQueryEXT => {
            models();
            hit_object(0)?;
            c.ray_query(1)?;
            if !c.q.state.has_capability(Capability::RayQueryKHR.0) {
                return Err(E::NeedsRayQuery { opcode }.into());
            }
            if !c.int32(c.operand(2)) {
                return Err(E::SbtRecordIndex.into());
            }
            if c.variable(3) != Some(S::HitObjectAttributeEXT) {
                return Err(E::AttributesExt.into());
            }
        }
        O::HitObjectRecordMissEXT | O::HitObjectRecordMissMotionEXT => {
            models();
            hit_object(0)?;
            if !c.int32(c.operand(1)) {
                return Err(E::RayFlags.into());
            }
            if !c.uint32(c.operand(2)) {
                return Err(E::MissIndexUnsigned.into());
            }
            c.ray(3)?;
            if opcode == O::HitObjectRecordMissMotionEXT && !c.float32(c.operand(7)) {
                return Err(E::CurrentTime.into());
            }
        }
        O::ReorderThreadWithHintEXT => {
            limit(c, &rules::RAY_GENERATION_ONLY);
            if !c.int32(c.operand(0)) {
                return Err(E::Hint.into());
            }
            if !c.int32(c.operand(1)) {
                return Err(E::Bits.into());
            }
        }
        O::ReorderThreadWithHitObjectEXT => {
            limit(c, &rules::RAY_GENERATION_ONLY);
            hit_object(0)?;
            c.hint_and_bits(1, E::Bits)?;
        }
        O::HitObjectTraceRayEXT => {
            models();
            hit_object(0)?;
            c.common(TRACE)?;
        }
        O::HitObjectTraceRayMotionEXT => {
            models();
            hit_object(0)?;
            c.common(TRACE_MOTION)?;
            if !c.float32(c.operand(11)) {
                return Err(E::CurrentTime.into());
            }
        }
        O::HitObjectReorderExecuteShaderEXT => {
            limit(c, &rules::RAY_GENERATION_ONLY);
            hit_object(0)?;
            execute_payload(c, 1)?;
            c.hint_and_bits(2, E::Bits)?;
        }
        O::HitObjectTraceReorderExecuteEXT => {
            limit(c, &rules::RAY_GENERATION_ONLY);
            hit_object(0)?;
            c.common(TRACE)?;
            c.hint_and_bits(12, E::Bits)?;
        }
        O::HitObjectTraceMotionReorderExecuteEXT => {
            limit(c, &rules::RAY_GENERATION_ONLY);
            hit_object(0)?;
            c.common(TRACE_MOTION)?;
            if !c.float32(c.operand(11)) {
                return Err(E::CurrentTime.into());
            }
            c.hint_and_bits(13, E::Bits)?;
        }
        _ => {}
    }
    Ok(())
}

/// An EXT execute's payload (operand `i`): a `RayPayloadKHR` or
/// `IncomingRayPayloadKHR` variable.
fn execute_payload(c: &Checks<'_, '_>, i: usize) -> Result<(), Fault> {
    match c.variable(i) {
        Some(S::RayPayloadKHR | S::IncomingRayPayloadKHR) => Ok(()),
        _ => Err(E::ExecutePayload.into()),
    }
}

/// What this family checks (see [`coverage`](crate::validate::coverage)).
pub(crate) const COVERAGE: crate::validate::coverage::Family = crate::validate::coverage::Family {
    opcodes: RAY_TRACING_REORDER,
    ..crate::validate::coverage::Family::new(
        "ray tracing reorder",
        "validate_ray_tracing_reorder.cpp",
    )
};
