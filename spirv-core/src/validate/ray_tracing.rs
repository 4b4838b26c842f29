//! spirv-val's ray tracing pass (`RayTracingPass` in `validate_ray_tracing.cpp`):
//! `OpTraceRayKHR`, `OpReportIntersectionKHR` and `OpExecuteCallableKHR` of
//! `SPV_KHR_ray_tracing`, their operand and result types, their payload and callable
//! data variables, and the execution models each limits its function to.

use super::faults::faults;
use super::limitations::{Limitation, register, rules};
use super::{Fault, Inst, Query};
use crate::spv::{Opcode, Opcode as O, StorageClass as S};
use RayTracingError as E;

faults! {
    /// A fault of spirv-val's ray tracing pass (`validate_ray_tracing.cpp`).
    pub enum RayTracingError {
        /// An acceleration structure of another type.
        AccelerationStructure
            => "Expected Acceleration Structure to be of type OpTypeAccelerationStructureKHR",
        /// Ray flags that are no 32-bit integer.
        RayFlags => "Ray Flags must be a 32-bit int scalar",
        /// A cull mask that is no 32-bit integer.
        CullMask => "Cull Mask must be a 32-bit int scalar",
        /// A shader binding table offset that is no 32-bit integer.
        SbtOffset => "SBT Offset must be a 32-bit int scalar",
        /// A shader binding table stride that is no 32-bit integer.
        SbtStride => "SBT Stride must be a 32-bit int scalar",
        /// A miss index that is no 32-bit integer.
        MissIndex => "Miss Index must be a 32-bit int scalar",
        /// A ray origin that is no 3-component 32-bit float vector.
        RayOrigin => "Ray Origin must be a 32-bit float 3-component vector",
        /// A minimum distance that is no 32-bit float.
        RayTMin => "Ray TMin must be a 32-bit float scalar",
        /// A ray direction that is no 3-component 32-bit float vector.
        RayDirection => "Ray Direction must be a 32-bit float 3-component vector",
        /// A maximum distance that is no 32-bit float.
        RayTMax => "Ray TMax must be a 32-bit float scalar",
        /// A payload that is no variable.
        PayloadVariable => "Payload must be the result of a OpVariable",
        /// A payload variable of another storage class.
        PayloadClass
            => "Payload must have storage class RayPayloadKHR or IncomingRayPayloadKHR",
        /// `OpReportIntersectionKHR`'s result that is no bool scalar.
        BoolResult => "expected Result Type to be bool scalar type",
        /// A hit distance that is no 32-bit float (spirv-val's text says int).
        Hit => "Hit must be a 32-bit int scalar",
        /// A hit kind that is no 32-bit unsigned integer.
        HitKind => "Hit Kind must be a 32-bit unsigned int scalar",
        /// A shader binding table index that is no 32-bit unsigned integer.
        SbtIndex => "SBT Index must be a 32-bit unsigned int scalar",
        /// Callable data that is no variable.
        CallableVariable => "Callable Data must be the result of a OpVariable",
        /// A callable data variable of another storage class.
        CallableClass
            => "Callable Data must have storage class CallableDataKHR or IncomingCallableDataKHR",
    }
}

/// The instructions with rules here.
const RAY_TRACING: &[Opcode] = &[
    O::TraceRayKHR,
    O::ReportIntersectionKHR,
    O::ExecuteCallableKHR,
];

/// `RayTracingPass` for one instruction.
#[inline(always)]
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let operand = |i: usize| q.operand_type(inst, i);
    let int32 = |t: u32| q.is_int_scalar_type(t) && q.bit_width(t) == 32;
    let uint32 = |t: u32| q.is_unsigned_int_scalar_type(t) && q.bit_width(t) == 32;
    let float32 = |t: u32| q.is_float_scalar_type(t) && q.bit_width(t) == 32;
    let vec3 = |t: u32| q.is_float_vector_type(t) && q.dimension(t) == 3 && q.bit_width(t) == 32;
    // A variable operand's storage class, or `None` for another instruction.
    let variable = |i: usize| {
        let id = inst.word(i);
        (q.opcode(id) == O::Variable).then(|| S(q.word(id, 3).unwrap_or(0)))
    };
    match inst.opcode {
        O::TraceRayKHR => {
            register(q, inst, Limitation::new(q, &rules::TRACE_RAY));
            if q.opcode(operand(0)) != O::TypeAccelerationStructureKHR {
                return Err(E::AccelerationStructure.into());
            }
            let ints = [
                (1, E::RayFlags),
                (2, E::CullMask),
                (3, E::SbtOffset),
                (4, E::SbtStride),
                (5, E::MissIndex),
            ];
            for (i, fault) in ints {
                if !int32(operand(i)) {
                    return Err(fault.into());
                }
            }
            if !vec3(operand(6)) {
                return Err(E::RayOrigin.into());
            }
            if !float32(operand(7)) {
                return Err(E::RayTMin.into());
            }
            if !vec3(operand(8)) {
                return Err(E::RayDirection.into());
            }
            if !float32(operand(9)) {
                return Err(E::RayTMax.into());
            }
            match variable(10) {
                None => return Err(E::PayloadVariable.into()),
                Some(S::RayPayloadKHR | S::IncomingRayPayloadKHR) => {}
                Some(_) => return Err(E::PayloadClass.into()),
            }
        }
        O::ReportIntersectionKHR => {
            register(q, inst, Limitation::new(q, &rules::REPORT_INTERSECTION));
            if !q.is_bool_scalar_type(inst.result_type()) {
                return Err(E::BoolResult.into());
            }
            if !float32(operand(2)) {
                return Err(E::Hit.into());
            }
            if !uint32(operand(3)) {
                return Err(E::HitKind.into());
            }
        }
        O::ExecuteCallableKHR => {
            register(q, inst, Limitation::new(q, &rules::EXECUTE_CALLABLE));
            if !uint32(operand(0)) {
                return Err(E::SbtIndex.into());
            }
            match variable(1) {
                None => return Err(E::CallableVariable.into()),
                Some(S::CallableDataKHR | S::IncomingCallableDataKHR) => {}
                Some(_) => return Err(E::CallableClass.into()),
            }
        }
        _ => {}
    }
    Ok(())
}

/// What this family checks (see [`coverage`](crate::validate::coverage)).
pub(crate) const COVERAGE: crate::validate::coverage::Family = crate::validate::coverage::Family {
    opcodes: RAY_TRACING,
    ..crate::validate::coverage::Family::new("ray tracing", "validate_ray_tracing.cpp")
};
