//! spirv-val's Vulkan rules for the ray tracing built-ins
//! (`ValidateRayTracingBuiltinsAtDefinition`/`AtReference`), a child module of
//! `builtin_rules.rs`: the type at the definition, then at each reference an Input
//! storage class and the ray tracing stages each may be used in.

use super::super::Fault;
use super::super::builtins::{Check, Dec, Rule, Walk};
use super::{Ty, class_fault, name, reference_desc, storage_class, type_check, type_fault};
use crate::__private::String;
use crate::spv::{BuiltIn as B, ExecutionModel as EM, StorageClass as SC};
use alloc::format;

/// The type a ray tracing built-in needs.
#[derive(Clone, Copy)]
enum RtTy {
    Plain(Ty, &'static str),
    /// A 4-column matrix of 3-component 32-bit float vectors.
    Mat4x3,
}

/// The built-in's type, its VUIDs (execution model, storage class, type) and its name
/// as the VUIDs spell it; `None` for other built-ins.
#[rustfmt::skip]
fn rules(b: B) -> Option<(RtTy, [u32; 3], &'static str)> {
    let f32s = RtTy::Plain(Ty::F32, "32-bit float scalar");
    let i32s = RtTy::Plain(Ty::I32, "32-bit int scalar");
    let f3 = RtTy::Plain(Ty::F32Vec(3), "3-component 32-bit float vector");
    let i3 = RtTy::Plain(Ty::I32Vec(3), "3-component 32-bit int vector");
    Some(match b {
        B::HitTNV => (f32s, [4245, 4246, 4247], "HitTNV"),
        B::RayTminKHR => (f32s, [4351, 4352, 4353], "RayTminKHR"),
        B::RayTmaxKHR => (f32s, [4348, 4349, 4350], "RayTmaxKHR"),
        B::HitKindKHR => (i32s, [4242, 4243, 4244], "HitKindKHR"),
        B::InstanceCustomIndexKHR => (i32s, [4251, 4252, 4253], "InstanceCustomIndexKHR"),
        B::InstanceId => (i32s, [4254, 4255, 4256], "InstanceId"),
        B::RayGeometryIndexKHR => (i32s, [4345, 4346, 4347], "RayGeometryIndexKHR"),
        B::IncomingRayFlagsKHR => (i32s, [4248, 4249, 4250], "IncomingRayFlagsKHR"),
        B::CullMaskKHR => (i32s, [6735, 6736, 6737], "CullMaskKHR"),
        B::ObjectRayDirectionKHR => (f3, [4299, 4300, 4301], "ObjectRayDirectionKHR"),
        B::ObjectRayOriginKHR => (f3, [4302, 4303, 4304], "ObjectRayOriginKHR"),
        B::WorldRayDirectionKHR => (f3, [4428, 4429, 4430], "WorldRayDirectionKHR"),
        B::WorldRayOriginKHR => (f3, [4431, 4432, 4433], "WorldRayOriginKHR"),
        B::LaunchIdKHR => (i3, [4266, 4267, 4268], "LaunchIdKHR"),
        B::LaunchSizeKHR => (i3, [4269, 4270, 4271], "LaunchSizeKHR"),
        B::ObjectToWorldKHR => (RtTy::Mat4x3, [4305, 4306, 4307], "ObjectToWorldKHR"),
        B::WorldToObjectKHR => (RtTy::Mat4x3, [4434, 4435, 4436], "WorldToObjectKHR"),
        _ => return None,
    })
}

/// Whether `b` is one of the built-ins this file checks.
pub(super) fn covers(b: B) -> bool {
    rules(b).is_some()
}

fn vk(spelled: &str, n: u32) -> String {
    format!("[VUID-{spelled}-{spelled}-{n:05}] ")
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
    let Some((ty, vuids, spelled)) = rules(b) else {
        return Ok(());
    };
    let v = vk(spelled, vuids[2]);
    match ty {
        RtTy::Plain(t, text) => {
            if let Err(detail) = type_check(w, dec, id, t)? {
                return Err(type_fault(w, id, b.0, &v, text, &detail));
            }
        }
        RtTy::Mat4x3 => {
            if let Err(detail) = matrix(w, dec, id)? {
                let text = "matrix with 4 columns of 3-component vectors of 32-bit floats";
                return Err(type_fault(w, id, b.0, &v, text, &detail));
            }
        }
    }
    let rule = Rule {
        dec,
        built_in: id,
        referenced: id,
        check: Check::Own,
    };
    super::reference(w, rule, id)
}

/// `ValidateF32Mat` with 3 rows and 4 columns.
fn matrix(w: &Walk<'_, '_>, dec: Dec, id: u32) -> Result<Result<(), String>, Fault> {
    let Some(t) = super::underlying(w, dec, id)? else {
        return Ok(Ok(()));
    };
    let desc = super::definition_desc(w, dec, id);
    let (rows, cols, column) = match w.q.matrix_info(t) {
        Some((rows, cols, column, _)) => (rows, cols, column),
        None => (0, 0, 0),
    };
    if rows != 3 || cols != 4 {
        return Ok(Err(format!(
            "{desc} has columns {cols} and rows {rows} not equal to expected 4x3."
        )));
    }
    Ok(super::check_type(w, dec, id, column, Ty::F32Vec(3)))
}

/// The rule at one reference.
pub(super) fn at_reference(w: &Walk<'_, '_>, rule: &Rule, from: u32) -> Result<(), Fault> {
    let b = B(rule.dec.builtin);
    let Some((_, vuids, spelled)) = rules(b) else {
        return Ok(());
    };
    if let Some(c) = storage_class(w, from) {
        if c != SC::Input.0 {
            return Err(class_fault(
                w,
                rule,
                from,
                &vk(spelled, vuids[1]),
                "Input",
                c,
            ));
        }
    }
    if let Some(&m) = w.models.iter().find(|&&m| !model_ok(b, EM(m))) {
        let message = format!(
            "{}Vulkan spec does not allow BuiltIn {} to be used with the execution model {}.\n{}",
            vk(spelled, vuids[0]),
            name(b.0),
            super::model_name(m),
            reference_desc(w, rule, from, Some(m))
        );
        return Err(w.fault_from(message));
    }
    Ok(())
}
