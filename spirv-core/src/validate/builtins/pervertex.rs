//! spirv-val's Vulkan rules for the built-ins of `gl_PerVertex`: `Position`,
//! `PointSize`, `ClipDistance` and `CullDistance` (`Validate…AtReference` in
//! `validate_builtins.cpp`), a sibling of `rules.rs`. Unlike the others
//! they check nothing at their definition: at each reference they need an Input or
//! Output storage class, leave on an Input (for the distances also Output) pointer a
//! rule refusing the execution models that may not read (write) them, and check the
//! type under each execution model of the function, where the stages with arrayed
//! interfaces accept one more array level on the variable.

use super::super::Fault;
use super::BuiltInError;
use super::rules::{Ty, check_type, class_fault, model_fault, storage_class, underlying, vuid};
use super::{Check, Rule, Walk};
use crate::spv::{BuiltIn as B, ExecutionModel as EM, Opcode as O, StorageClass as SC};

/// Whether `b` is one of the built-ins this file checks.
pub(super) fn covers(b: B) -> bool {
    matches!(
        b,
        B::Position | B::PointSize | B::ClipDistance | B::CullDistance
    )
}

/// What a built-in of this file needs.
struct PerVertex {
    /// The type, and its VUID and wording.
    ty: Ty,
    ty_vuid: u32,
    ty_text: &'static str,
    /// The VUIDs of the storage-class and execution-model faults.
    class_vuid: u32,
    model_vuid: u32,
    models_text: &'static str,
    /// Whether Fragment takes the type unarrayed (the distances) or is refused.
    fragment: bool,
}

fn rules(b: B) -> PerVertex {
    let four_stages =
        "Vertex, TessellationControl, TessellationEvaluation or Geometry execution models";
    match b {
        B::Position => PerVertex {
            ty: Ty::F32Vec(4),
            ty_vuid: 4321,
            ty_text: "4-component 32-bit float vector",
            class_vuid: 4320,
            model_vuid: 4318,
            models_text: four_stages,
            fragment: false,
        },
        B::PointSize => PerVertex {
            ty: Ty::F32,
            ty_vuid: 4317,
            ty_text: "32-bit float scalar",
            class_vuid: 4316,
            model_vuid: 4314,
            models_text: four_stages,
            fragment: false,
        },
        _ => {
            let clip = b == B::ClipDistance;
            PerVertex {
                ty: Ty::F32Arr(0),
                ty_vuid: if clip { 4191 } else { 4200 },
                ty_text: "32-bit float array",
                class_vuid: if clip { 4190 } else { 4199 },
                model_vuid: if clip { 4187 } else { 4196 },
                models_text: "Fragment, Vertex, TessellationControl, TessellationEvaluation or Geometry execution models",
                fragment: true,
            }
        }
    }
}

/// The execution models that may not use built-in `b` through a pointer of storage
/// class `sc` (`ValidateNotCalledWithExecutionModel` seeds).
fn forbidden(b: B, sc: u32) -> &'static [EM] {
    let distance = matches!(b, B::ClipDistance | B::CullDistance);
    if sc == SC::Input.0 {
        match b {
            B::PointSize => &[EM::Vertex],
            _ => &[EM::Vertex, EM::MeshNV, EM::MeshEXT],
        }
    } else if sc == SC::Output.0 && distance {
        &[EM::Fragment]
    } else {
        &[]
    }
}

/// The rule of built-in `rule` at the instruction defining `from` (the Vulkan part of
/// `ValidatePositionAtReference` and its siblings).
pub(super) fn at_reference(w: &mut Walk<'_, '_>, rule: &Rule, from: u32) -> Result<(), Fault> {
    let b = B(rule.dec.builtin);
    let r = rules(b);
    let sc = storage_class(w, from);
    if let Some(c) = sc {
        if c != SC::Input.0 && c != SC::Output.0 {
            let v = vuid(r.class_vuid);
            return Err(class_fault(w, rule, from, v, "Input or Output", c));
        }
        for &m in forbidden(b, c) {
            let vuid = match (b, m == EM::Fragment) {
                (B::Position, _) => 4319,
                (B::PointSize, _) => 4315,
                (B::ClipDistance, false) => 4188,
                (B::ClipDistance, true) => 4189,
                (_, false) => 4197,
                (_, true) => 4198,
            };
            let check = Check::NotWith { model: m.0, vuid };
            w.leave(from, rule, check);
        }
    }
    let w = &*w;
    for &m in &w.models {
        let arrayed = match EM(m) {
            EM::Vertex => false,
            EM::Fragment if r.fragment => false,
            EM::TessellationControl
            | EM::TessellationEvaluation
            | EM::Geometry
            | EM::MeshNV
            | EM::MeshEXT => rule.dec.member < 0,
            _ => {
                let v = vuid(r.model_vuid);
                return Err(model_fault(w, rule, from, v, r.models_text, m));
            }
        };
        type_at(w, rule, &r, arrayed)?;
    }
    Ok(())
}

/// The type check of a reference: the built-in's type, or (`arrayed`) that type or an
/// array of it; a float array takes the extra level only over another array.
fn type_at(w: &Walk<'_, '_>, rule: &Rule, r: &PerVertex, arrayed: bool) -> Result<(), Fault> {
    let (dec, id) = (rule.dec, rule.built_in);
    let Some(mut t) = underlying(w, dec, id)? else {
        return Ok(());
    };
    if arrayed && w.q.opcode(t) == O::TypeArray {
        let element = w.q.word(t, 2).unwrap_or(0);
        if !matches!(r.ty, Ty::F32Arr(_)) || w.q.opcode(element) == O::TypeArray {
            t = element;
        }
    }
    match check_type(w, dec, id, t, r.ty) {
        Ok(()) => Ok(()),
        Err(problem) => Err(w.fault_from(BuiltInError::WrongType {
            vuid: vuid(r.ty_vuid),
            builtin: B(dec.builtin),
            needs: r.ty_text,
            problem,
        })),
    }
}
