//! spirv-val's Vulkan rules for `PrimitiveId`, `Layer` and `ViewportIndex`
//! (`ValidatePrimitiveIdAtReference`, `ValidateLayerOrViewportIndexAtReference`), and
//! the references of `TessLevelOuter` and `TessLevelInner`
//! (`ValidateTessLevelAtReference`), a sibling of `rules.rs`. Nothing is checked at their definition; at each
//! reference: an Input or Output storage class, the rules left on Input and Output
//! pointers refusing some execution models, the mesh and non-mesh interface rules (in
//! `guards.rs`, which check the type), and the execution models (with the
//! capabilities Vertex and TessellationEvaluation need for `Layer`/`ViewportIndex`).

use super::super::Fault;
use super::BuiltInError;
use super::rules::{class_fault, model_fault, storage_class, vuid};
use super::{Check, Rule, Walk};
use crate::spv::{BuiltIn as B, Capability as C, ExecutionModel as EM, StorageClass as SC};

/// Whether `b` is one of the built-ins this file checks.
pub(super) fn covers(b: B) -> bool {
    matches!(b, B::PrimitiveId | B::Layer | B::ViewportIndex)
}

/// A `Layer`/`ViewportIndex` VUID.
fn layer_vuid(b: B, layer: u32, viewport: u32) -> Option<&'static str> {
    vuid(if b == B::Layer { layer } else { viewport })
}

/// The rule of the built-in at the instruction defining `from`.
pub(super) fn at_reference(w: &mut Walk<'_, '_>, rule: &Rule, from: u32) -> Result<(), Fault> {
    let b = B(rule.dec.builtin);
    let sc = storage_class(w, from);
    if let Some(c) = sc {
        if c != SC::Input.0 && c != SC::Output.0 {
            // spirv-val gives these no VUID.
            return Err(class_fault(w, rule, from, None, "Input or Output", c));
        }
    }
    let primitive = b == B::PrimitiveId;
    if sc == Some(SC::Input.0) && !primitive {
        let vuid = if b == B::Layer { 4274 } else { 4406 };
        for m in [
            EM::Vertex,
            EM::TessellationEvaluation,
            EM::Geometry,
            EM::MeshNV,
            EM::MeshEXT,
        ] {
            w.leave(from, rule, Check::NotWith { model: m.0, vuid });
        }
    }
    if sc == Some(SC::Output.0) {
        if primitive {
            for m in [
                EM::TessellationControl,
                EM::TessellationEvaluation,
                EM::Fragment,
                EM::IntersectionKHR,
                EM::AnyHitKHR,
                EM::ClosestHitKHR,
            ] {
                w.leave(
                    from,
                    rule,
                    Check::NotWith {
                        model: m.0,
                        vuid: 4334,
                    },
                );
            }
        } else {
            let vuid = if b == B::Layer { 4275 } else { 4407 };
            w.leave(
                from,
                rule,
                Check::NotWith {
                    model: EM::Fragment.0,
                    vuid,
                },
            );
        }
    }
    let has = |c: C| w.q.state.has_capability(c.0);
    if primitive
        && !has(C::MeshShadingEXT)
        && !has(C::MeshShadingNV)
        && !has(C::Geometry)
        && !has(C::Tessellation)
    {
        w.leave(
            from,
            rule,
            Check::NotWith {
                model: EM::Fragment.0,
                vuid: 4333,
            },
        );
    }
    w.leave(from, rule, Check::Mesh);
    w.leave(from, rule, Check::NonMesh);
    let w = &*w;
    for &m in &w.models {
        if primitive {
            let ok = matches!(
                EM(m),
                EM::Fragment
                    | EM::TessellationControl
                    | EM::TessellationEvaluation
                    | EM::Geometry
                    | EM::MeshNV
                    | EM::MeshEXT
                    | EM::IntersectionKHR
                    | EM::AnyHitKHR
                    | EM::ClosestHitKHR
            );
            if !ok {
                let text = "Fragment, TessellationControl, TessellationEvaluation, Geometry, MeshNV, MeshEXT, IntersectionKHR, AnyHitKHR, and ClosestHitKHR execution models";
                return Err(model_fault(w, rule, from, vuid(4330), text, m));
            }
            continue;
        }
        match EM(m) {
            EM::Geometry | EM::Fragment | EM::MeshNV | EM::MeshEXT => {}
            EM::Vertex | EM::TessellationEvaluation => {
                let has = |c: C| w.q.state.has_capability(c.0);
                if has(C::ShaderViewportIndexLayerEXT)
                    || (b == B::ViewportIndex && has(C::ShaderViewportIndex))
                    || (b == B::Layer && has(C::ShaderLayer))
                {
                    continue;
                }
                let capability = if b == B::Layer {
                    "ShaderViewportIndexLayerEXT or ShaderLayer"
                } else {
                    "ShaderViewportIndexLayerEXT or ShaderViewportIndex"
                };
                return Err(w.fault_from(BuiltInError::LayerCapability {
                    vuid: layer_vuid(b, 4273, 4405),
                    builtin: b,
                    capabilities: capability,
                }));
            }
            _ => {
                let text = "Vertex, TessellationEvaluation, Geometry, or Fragment execution models";
                return Err(model_fault(
                    w,
                    rule,
                    from,
                    layer_vuid(b, 4272, 4404),
                    text,
                    m,
                ));
            }
        }
    }
    Ok(())
}

/// `ValidateTessLevelAtReference`: Input or Output, the rules left on Input (no
/// TessellationControl) and Output (no TessellationEvaluation) pointers, and the two
/// tessellation stages only.
pub(super) fn tess_level(w: &mut Walk<'_, '_>, rule: &Rule, from: u32) -> Result<(), Fault> {
    let outer = B(rule.dec.builtin) == B::TessLevelOuter;
    let sc = storage_class(w, from);
    if let Some(c) = sc {
        if c != SC::Input.0 && c != SC::Output.0 {
            // spirv-val gives this no VUID.
            return Err(class_fault(w, rule, from, None, "Input or Output", c));
        }
        let guard = if c == SC::Input.0 {
            (EM::TessellationControl, if outer { 4391 } else { 4395 })
        } else {
            (EM::TessellationEvaluation, if outer { 4392 } else { 4396 })
        };
        let check = Check::NotWith {
            model: guard.0.0,
            vuid: guard.1,
        };
        w.leave(from, rule, check);
    }
    let bad = w
        .models
        .iter()
        .find(|&&m| !matches!(EM(m), EM::TessellationControl | EM::TessellationEvaluation));
    if let Some(&m) = bad {
        let v = vuid(if outer { 4390 } else { 4394 });
        let text = "TessellationControl or TessellationEvaluation execution models";
        return Err(model_fault(w, rule, from, v, text, m));
    }
    Ok(())
}
