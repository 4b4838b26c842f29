//! spirv-val's ray query pass (`RayQueryPass` in `validate_ray_query.cpp`): the
//! `OpRayQuery*` instructions of `SPV_KHR_ray_query` and the NVIDIA extensions to it
//! (cluster ids, spheres, linear swept spheres). Each names its ray query through a
//! pointer to `OpTypeRayQueryKHR`, most take a constant 32-bit intersection selector,
//! and each getter's result type is fixed.

use super::faults::faults;
use super::{Fault, Inst, Query};
use crate::spv::{Opcode, Opcode as O};
use RayQueryError as E;

faults! {
    /// A fault of spirv-val's ray query pass (`validate_ray_query.cpp`).
    pub enum RayQueryError {
        /// A ray query operand that is no variable, parameter or access chain.
        NotMemoryObject => "Ray Query must be a memory object declaration",
        /// A ray query operand whose type is no pointer.
        NotPointer => "Ray Query must be a pointer",
        /// A ray query operand that points to another type than `OpTypeRayQueryKHR`.
        NotRayQuery => "Ray Query must be a pointer to OpTypeRayQueryKHR",
        /// An intersection selector that is no constant 32-bit integer.
        Intersection => "expected Intersection ID to be a constant 32-bit int scalar",
        /// `OpRayQueryInitializeKHR`'s acceleration structure of another type.
        AccelerationStructure
            => "Expected Acceleration Structure to be of type OpTypeAccelerationStructureKHR",
        /// Ray flags that are no 32-bit integer.
        RayFlags => "Ray Flags must be a 32-bit int scalar",
        /// A cull mask that is no 32-bit integer.
        CullMask => "Cull Mask must be a 32-bit int scalar",
        /// A ray origin that is no 3-component 32-bit float vector.
        RayOrigin => "Ray Origin must be a 32-bit float 3-component vector",
        /// A minimum distance that is no 32-bit float.
        RayTMin => "Ray TMin must be a 32-bit float scalar",
        /// A ray direction that is no 3-component 32-bit float vector.
        RayDirection => "Ray Direction must be a 32-bit float 3-component vector",
        /// A maximum distance that is no 32-bit float.
        RayTMax => "Ray TMax must be a 32-bit float scalar",
        /// `OpRayQueryGenerateIntersectionKHR`'s hit distance that is no 32-bit float.
        HitT => "Hit T must be a 32-bit float scalar",
        /// A result that is no bool scalar.
        BoolResult => "expected Result Type to be bool scalar type",
        /// A result that is no 32-bit float scalar.
        FloatResult => "expected Result Type to be 32-bit float scalar type",
        /// A result that is no 32-bit integer scalar.
        IntResult => "expected Result Type to be 32-bit int scalar type",
        /// A result that is no 3-component 32-bit float vector.
        Vec3Result => "expected Result Type to be 32-bit float 3-component vector type",
        /// A result that is no 2-component 32-bit float vector.
        Vec2Result => "expected Result Type to be 32-bit float 2-component vector type",
        /// A transform whose result is no matrix.
        MatrixResult => "expected matrix type as Result Type",
        /// A transform whose result matrix has other than 4 columns.
        MatrixColumns => "expected Result Type matrix to have a Column Count of 4",
        /// A transform whose result columns are no 3-component 32-bit float vectors.
        MatrixColumnType
            => "expected Result Type matrix to have a Column Type of 3-component 32-bit float vectors",
        /// `OpRayQueryGetIntersectionLSSPositionsNV`'s result of another type.
        LssPositions {
            /// The instruction.
            opcode: Opcode,
        } => "Expected 2 element array of 32-bit 3 component float point vector as Result Type: {opcode}",
        /// `OpRayQueryGetIntersectionLSSRadiiNV`'s result of another type.
        LssRadii {
            /// The instruction.
            opcode: Opcode,
        } => "Expected 32-bit floating point scalar as Result Type: {opcode}",
        /// A sphere radius or hit value that is no 32-bit float scalar.
        FloatingResult => "expected Result Type to be 32-bit floating point scalar type",
        /// A sphere or swept-sphere hit test whose result is no bool scalar.
        BooleanResult => "expected Result Type to be Boolean scalar type",
    }
}

/// The instructions with rules here.
const RAY_QUERY: &[Opcode] = &[
    O::RayQueryInitializeKHR,
    O::RayQueryTerminateKHR,
    O::RayQueryConfirmIntersectionKHR,
    O::RayQueryGenerateIntersectionKHR,
    O::RayQueryGetIntersectionFrontFaceKHR,
    O::RayQueryProceedKHR,
    O::RayQueryGetIntersectionCandidateAABBOpaqueKHR,
    O::RayQueryGetIntersectionTKHR,
    O::RayQueryGetRayTMinKHR,
    O::RayQueryGetIntersectionTypeKHR,
    O::RayQueryGetIntersectionInstanceCustomIndexKHR,
    O::RayQueryGetIntersectionInstanceIdKHR,
    O::RayQueryGetIntersectionInstanceShaderBindingTableRecordOffsetKHR,
    O::RayQueryGetIntersectionGeometryIndexKHR,
    O::RayQueryGetIntersectionPrimitiveIndexKHR,
    O::RayQueryGetRayFlagsKHR,
    O::RayQueryGetIntersectionObjectRayDirectionKHR,
    O::RayQueryGetIntersectionObjectRayOriginKHR,
    O::RayQueryGetWorldRayDirectionKHR,
    O::RayQueryGetWorldRayOriginKHR,
    O::RayQueryGetIntersectionBarycentricsKHR,
    O::RayQueryGetIntersectionObjectToWorldKHR,
    O::RayQueryGetIntersectionWorldToObjectKHR,
    O::RayQueryGetIntersectionClusterIdNV,
    O::RayQueryGetIntersectionSpherePositionNV,
    O::RayQueryGetIntersectionLSSPositionsNV,
    O::RayQueryGetIntersectionLSSRadiiNV,
    O::RayQueryGetIntersectionSphereRadiusNV,
    O::RayQueryGetIntersectionLSSHitValueNV,
    O::RayQueryIsSphereHitNV,
    O::RayQueryIsLSSHitNV,
];

/// `ValidateRayQueryPointer`: operand `i` is a variable, parameter or access chain
/// whose type points to `OpTypeRayQueryKHR`.
fn ray_query_pointer(q: &Query<'_>, inst: &Inst<'_>, i: usize) -> Result<(), Fault> {
    let query = inst.word(i);
    if !matches!(
        q.opcode(query),
        O::Variable | O::FunctionParameter | O::AccessChain
    ) {
        return Err(E::NotMemoryObject.into());
    }
    // The declaration's first operand: its result type.
    let pointer = q.word(query, 1).unwrap_or(0);
    if q.opcode(pointer) != O::TypePointer {
        return Err(E::NotPointer.into());
    }
    let pointee = q.word(pointer, 3).unwrap_or(0);
    if q.opcode(pointee) != O::TypeRayQueryKHR {
        return Err(E::NotRayQuery.into());
    }
    Ok(())
}

/// `ValidateIntersectionId`: operand `i` is a constant 32-bit integer.
fn intersection(q: &Query<'_>, inst: &Inst<'_>, i: usize) -> Result<(), Fault> {
    let id = inst.word(i);
    let ty = q.type_of(id);
    if !q.is_int_scalar_type(ty)
        || q.bit_width(ty) != 32
        || !crate::spirv_tools::is_constant(q.opcode(id))
    {
        return Err(E::Intersection.into());
    }
    Ok(())
}

/// `GetArrayLength`: an array's length when it is an `OpConstant`, else 0.
pub(super) fn array_length(q: &Query<'_>, array: u32) -> u32 {
    let length = q.word(array, 3).unwrap_or(0);
    if q.opcode(length) == O::Constant {
        q.word(length, 3).unwrap_or(0)
    } else {
        0
    }
}

/// `RayQueryPass` for one instruction.
#[inline(always)]
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let opcode = inst.opcode;
    if !RAY_QUERY.contains(&opcode) {
        return Ok(());
    }
    let result = inst.result_type();
    let int32 = |t: u32| q.is_int_scalar_type(t) && q.bit_width(t) == 32;
    let float32 = |t: u32| q.is_float_scalar_type(t) && q.bit_width(t) == 32;
    let float_vec =
        |t: u32, n: u32| q.is_float_vector_type(t) && q.dimension(t) == n && q.bit_width(t) == 32;
    match opcode {
        O::RayQueryInitializeKHR => {
            ray_query_pointer(q, inst, 0)?;
            let operand = |i: usize| q.operand_type(inst, i);
            if q.opcode(operand(1)) != O::TypeAccelerationStructureKHR {
                return Err(E::AccelerationStructure.into());
            }
            let checks = [
                (int32(operand(2)), E::RayFlags),
                (int32(operand(3)), E::CullMask),
                (float_vec(operand(4), 3), E::RayOrigin),
                (float32(operand(5)), E::RayTMin),
                (float_vec(operand(6), 3), E::RayDirection),
                (float32(operand(7)), E::RayTMax),
            ];
            if let Some((_, fault)) = checks.into_iter().find(|(fits, _)| !fits) {
                return Err(fault.into());
            }
        }
        O::RayQueryTerminateKHR | O::RayQueryConfirmIntersectionKHR => {
            ray_query_pointer(q, inst, 0)?;
        }
        O::RayQueryGenerateIntersectionKHR => {
            ray_query_pointer(q, inst, 0)?;
            if !float32(q.operand_type(inst, 1)) {
                return Err(E::HitT.into());
            }
        }
        O::RayQueryGetIntersectionFrontFaceKHR
        | O::RayQueryProceedKHR
        | O::RayQueryGetIntersectionCandidateAABBOpaqueKHR => {
            ray_query_pointer(q, inst, 2)?;
            if !q.is_bool_scalar_type(result) {
                return Err(E::BoolResult.into());
            }
            if opcode == O::RayQueryGetIntersectionFrontFaceKHR {
                intersection(q, inst, 3)?;
            }
        }
        O::RayQueryGetIntersectionTKHR | O::RayQueryGetRayTMinKHR => {
            ray_query_pointer(q, inst, 2)?;
            if !float32(result) {
                return Err(E::FloatResult.into());
            }
            if opcode == O::RayQueryGetIntersectionTKHR {
                intersection(q, inst, 3)?;
            }
        }
        O::RayQueryGetIntersectionTypeKHR
        | O::RayQueryGetIntersectionInstanceCustomIndexKHR
        | O::RayQueryGetIntersectionInstanceIdKHR
        | O::RayQueryGetIntersectionInstanceShaderBindingTableRecordOffsetKHR
        | O::RayQueryGetIntersectionGeometryIndexKHR
        | O::RayQueryGetIntersectionPrimitiveIndexKHR
        | O::RayQueryGetRayFlagsKHR => {
            ray_query_pointer(q, inst, 2)?;
            if !int32(result) {
                return Err(E::IntResult.into());
            }
            if opcode != O::RayQueryGetRayFlagsKHR {
                intersection(q, inst, 3)?;
            }
        }
        O::RayQueryGetIntersectionObjectRayDirectionKHR
        | O::RayQueryGetIntersectionObjectRayOriginKHR
        | O::RayQueryGetWorldRayDirectionKHR
        | O::RayQueryGetWorldRayOriginKHR => {
            ray_query_pointer(q, inst, 2)?;
            if !float_vec(result, 3) {
                return Err(E::Vec3Result.into());
            }
            if matches!(
                opcode,
                O::RayQueryGetIntersectionObjectRayDirectionKHR
                    | O::RayQueryGetIntersectionObjectRayOriginKHR
            ) {
                intersection(q, inst, 3)?;
            }
        }
        O::RayQueryGetIntersectionBarycentricsKHR => {
            ray_query_pointer(q, inst, 2)?;
            intersection(q, inst, 3)?;
            if !float_vec(result, 2) {
                return Err(E::Vec2Result.into());
            }
        }
        O::RayQueryGetIntersectionObjectToWorldKHR | O::RayQueryGetIntersectionWorldToObjectKHR => {
            ray_query_pointer(q, inst, 2)?;
            intersection(q, inst, 3)?;
            let Some((rows, columns, _, component)) = q.matrix_info(result) else {
                return Err(E::MatrixResult.into());
            };
            if columns != 4 {
                return Err(E::MatrixColumns.into());
            }
            if !q.is_float_scalar_type(component) || q.bit_width(result) != 32 || rows != 3 {
                return Err(E::MatrixColumnType.into());
            }
        }
        O::RayQueryGetIntersectionClusterIdNV => {
            ray_query_pointer(q, inst, 2)?;
            intersection(q, inst, 3)?;
            if !int32(result) {
                return Err(E::IntResult.into());
            }
        }
        O::RayQueryGetIntersectionSpherePositionNV => {
            ray_query_pointer(q, inst, 2)?;
            intersection(q, inst, 3)?;
            if !float_vec(result, 3) {
                return Err(E::Vec3Result.into());
            }
        }
        O::RayQueryGetIntersectionLSSPositionsNV => {
            ray_query_pointer(q, inst, 2)?;
            intersection(q, inst, 3)?;
            let component = q.component_type(result);
            if q.opcode(result) != O::TypeArray
                || array_length(q, result) != 2
                || !q.is_float_vector_type(component)
                || q.dimension(component) != 3
            {
                return Err(E::LssPositions { opcode }.into());
            }
        }
        O::RayQueryGetIntersectionLSSRadiiNV => {
            ray_query_pointer(q, inst, 2)?;
            intersection(q, inst, 3)?;
            // `IsFloatArrayType`: an `OpTypeArray` of float scalars.
            let float_array = q.opcode(result) == O::TypeArray
                && q.is_float_scalar_type(q.component_type(result));
            if !float_array
                || array_length(q, result) != 2
                || !q.is_float_scalar_type(q.component_type(result))
            {
                return Err(E::LssRadii { opcode }.into());
            }
        }
        O::RayQueryGetIntersectionSphereRadiusNV | O::RayQueryGetIntersectionLSSHitValueNV => {
            ray_query_pointer(q, inst, 2)?;
            intersection(q, inst, 3)?;
            if !float32(result) {
                return Err(E::FloatingResult.into());
            }
        }
        O::RayQueryIsSphereHitNV | O::RayQueryIsLSSHitNV => {
            ray_query_pointer(q, inst, 2)?;
            intersection(q, inst, 3)?;
            if !q.is_bool_scalar_type(result) {
                return Err(E::BooleanResult.into());
            }
        }
        _ => {}
    }
    Ok(())
}

/// What this family checks (see [`coverage`](crate::validate::coverage)).
pub(crate) const COVERAGE: crate::validate::coverage::Family = crate::validate::coverage::Family {
    opcodes: RAY_QUERY,
    ..crate::validate::coverage::Family::new("ray query", "validate_ray_query.cpp")
};
