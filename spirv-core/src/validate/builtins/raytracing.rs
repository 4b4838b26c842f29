//! spirv-val's Vulkan rules for the ray tracing built-ins
//! (`ValidateRayTracingBuiltinsAtDefinition`/`AtReference`), beside
//! `rules.rs`: the type at the definition, then at each reference an Input
//! storage class and the ray tracing stages each may be used in.

use super::super::Fault;
use super::rules::{Ty, class_fault, reference_of, storage_class, type_check, type_fault, vuid};
use super::{BuiltInError, BuiltInTypeProblem};
use super::{Check, Dec, Rule, Walk};
use crate::spv::{BuiltIn as B, ExecutionModel as EM, StorageClass as SC};

/// The type a ray tracing built-in needs.
#[derive(Clone, Copy)]
enum RtTy {
    Plain(Ty, &'static str),
    /// A 4-column matrix of 3-component 32-bit float vectors.
    Mat4x3,
}

/// The built-in's type and its VUIDs (execution model, storage class, type);
/// `None` for other built-ins.
#[rustfmt::skip]
fn rules(b: B) -> Option<(RtTy, [u32; 3])> {
    let f32s = RtTy::Plain(Ty::F32, "32-bit float scalar");
    let i32s = RtTy::Plain(Ty::I32, "32-bit int scalar");
    let f3 = RtTy::Plain(Ty::F32Vec(3), "3-component 32-bit float vector");
    let i3 = RtTy::Plain(Ty::I32Vec(3), "3-component 32-bit int vector");
    Some(match b {
        B::HitTNV => (f32s, [4245, 4246, 4247]),
        B::RayTminKHR => (f32s, [4351, 4352, 4353]),
        B::RayTmaxKHR => (f32s, [4348, 4349, 4350]),
        B::HitKindKHR => (i32s, [4242, 4243, 4244]),
        B::InstanceCustomIndexKHR => (i32s, [4251, 4252, 4253]),
        B::InstanceId => (i32s, [4254, 4255, 4256]),
        B::RayGeometryIndexKHR => (i32s, [4345, 4346, 4347]),
        B::IncomingRayFlagsKHR => (i32s, [4248, 4249, 4250]),
        B::CullMaskKHR => (i32s, [6735, 6736, 6737]),
        B::ObjectRayDirectionKHR => (f3, [4299, 4300, 4301]),
        B::ObjectRayOriginKHR => (f3, [4302, 4303, 4304]),
        B::WorldRayDirectionKHR => (f3, [4428, 4429, 4430]),
        B::WorldRayOriginKHR => (f3, [4431, 4432, 4433]),
        B::LaunchIdKHR => (i3, [4266, 4267, 4268]),
        B::LaunchSizeKHR => (i3, [4269, 4270, 4271]),
        B::ObjectToWorldKHR => (RtTy::Mat4x3, [4305, 4306, 4307]),
        B::WorldToObjectKHR => (RtTy::Mat4x3, [4434, 4435, 4436]),
        _ => return None,
    })
}

/// Whether `b` is one of the built-ins this file checks.
pub(super) fn covers(b: B) -> bool {
    rules(b).is_some()
}

/// `IsExecutionModelValidForRtBuiltIn`.
fn model_ok(b: B, m: EM) -> bool {
    let hit = matches!(m, EM::AnyHitKHR | EM::ClosestHitKHR);
    let intersection = hit || m == EM::IntersectionKHR;
    match b {
        B::HitKindKHR | B::HitTNV => hit,
        B::InstanceCustomIndexKHR
        | B::InstanceId
        | B::RayGeometryIndexKHR
        | B::ObjectRayDirectionKHR
        | B::ObjectRayOriginKHR
        | B::ObjectToWorldKHR
        | B::WorldToObjectKHR => intersection,
        B::IncomingRayFlagsKHR
        | B::RayTminKHR
        | B::RayTmaxKHR
        | B::WorldRayDirectionKHR
        | B::WorldRayOriginKHR
        | B::CullMaskKHR => intersection || m == EM::MissKHR,
        B::LaunchIdKHR | B::LaunchSizeKHR => {
            intersection || matches!(m, EM::RayGenerationKHR | EM::MissKHR | EM::CallableKHR)
        }
        _ => false,
    }
}

/// The type check at the definition, then the rule at its own reference.
pub(super) fn definition(w: &mut Walk<'_, '_>, dec: Dec, id: u32) -> Result<(), Fault> {
    let b = B(dec.builtin);
    let Some((ty, vuids)) = rules(b) else {
        return Ok(());
    };
    let v = vuid(vuids[2]);
    match ty {
        RtTy::Plain(t, text) => {
            if let Err(problem) = type_check(w, dec, id, t)? {
                return Err(type_fault(w, id, b.0, v, text, problem));
            }
        }
        RtTy::Mat4x3 => {
            if let Err(problem) = matrix(w, dec, id)? {
                let text = "matrix with 4 columns of 3-component vectors of 32-bit floats";
                return Err(type_fault(w, id, b.0, v, text, problem));
            }
        }
    }
    let rule = Rule {
        dec,
        built_in: id,
        referenced: id,
        check: Check::Own,
    };
    super::rules::reference(w, rule, id)
}

/// `ValidateF32Mat` with 3 rows and 4 columns.
fn matrix(w: &Walk<'_, '_>, dec: Dec, id: u32) -> Result<Result<(), BuiltInTypeProblem>, Fault> {
    let Some(t) = super::rules::underlying(w, dec, id)? else {
        return Ok(Ok(()));
    };
    let subject = super::rules::definition_subject(w, dec, id);
    let (rows, cols, column) = match w.q.matrix_info(t) {
        Some((rows, cols, column, _)) => (rows, cols, column),
        None => (0, 0, 0),
    };
    if rows != 3 || cols != 4 {
        return Ok(Err(BuiltInTypeProblem::MatrixShape {
            subject,
            columns: cols,
            rows,
        }));
    }
    Ok(super::rules::check_type(w, dec, id, column, Ty::F32Vec(3)))
}

/// The rule at one reference.
pub(super) fn at_reference(w: &Walk<'_, '_>, rule: &Rule, from: u32) -> Result<(), Fault> {
    let b = B(rule.dec.builtin);
    let Some((_, vuids)) = rules(b) else {
        return Ok(());
    };
    if let Some(c) = storage_class(w, from) {
        if c != SC::Input.0 {
            return Err(class_fault(w, rule, from, vuid(vuids[1]), "Input", c));
        }
    }
    if let Some(&m) = w.models.iter().find(|&&m| !model_ok(b, EM(m))) {
        return Err(w.fault_from(BuiltInError::RayTracingModel {
            vuid: vuid(vuids[0]),
            builtin: b,
            model: EM(m),
            reference: reference_of(w, rule, from, Some(m)),
        }));
    }
    Ok(())
}
