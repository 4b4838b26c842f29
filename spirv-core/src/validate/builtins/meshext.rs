//! spirv-val's Vulkan rules for the MeshEXT output built-ins
//! (`ValidateMeshShadingEXTBuiltinsAtDefinition`/`AtReference`: the primitive
//! indices and `CullPrimitiveEXT`) and for `PrimitiveShadingRateKHR`
//! (`ValidatePrimitiveShadingRateAtReference`), beside `rules.rs`. At the definition:
//! the indices' type; `CullPrimitiveEXT` leaves the mesh interface rule (in
//! `guards.rs`) and may appear once per mesh entry point's interface; each mesh entry
//! point needs the output mode matching the indices and an array of its
//! `OutputPrimitivesEXT`. At each reference: an Output storage class and the MeshEXT
//! model (`PrimitiveShadingRateKHR`: the interface rules it leaves, and Vertex,
//! Geometry, MeshNV or MeshEXT).

use super::super::Fault;
use super::guards::{MeshInfo, read_mesh_info};
use super::rules::{
    Ty, check_type, class_fault, model_fault, storage_class, subject, underlying, vuid,
};
use super::{BuiltInError, Check, Dec, Rule, Walk};
use crate::spv::StorageClass as SC;
use crate::spv::{BuiltIn as B, ExecutionMode as EMode, ExecutionModel as EM, Opcode as O};

/// No mesh entry points.
static EMPTY: MeshInfo = MeshInfo::EMPTY;

/// Whether `b` is one of the built-ins this file checks.
pub(super) fn covers(b: B) -> bool {
    indices(b).is_some() || matches!(b, B::CullPrimitiveEXT | B::PrimitiveShadingRateKHR)
}

/// A primitive-indices built-in: its type, as spirv-val words it, the output mode it
/// goes with, and its VUIDs (model, class, type, mode, array size).
#[rustfmt::skip]
fn indices(b: B) -> Option<(Ty, &'static str, EMode, &'static str, [u32; 5])> {
    Some(match b {
        B::PrimitivePointIndicesEXT => (Ty::I32Arr, "32-bit int array", EMode::OutputPoints, "OutputPoints", [7041, 7043, 7044, 7042, 7046]),
        B::PrimitiveLineIndicesEXT => (Ty::I32ArrVec(2), "2-component 32-bit int array", EMode::OutputLinesEXT, "OutputLinesEXT", [7047, 7049, 7050, 7048, 7052]),
        B::PrimitiveTriangleIndicesEXT => (Ty::I32ArrVec(3), "3-component 32-bit int array", EMode::OutputTrianglesEXT, "OutputTrianglesEXT", [7053, 7055, 7056, 7054, 7058]),
        _ => return None,
    })
}

/// The definition's checks, before the seed (`PrimitiveShadingRateKHR` has none).
pub(super) fn definition(w: &mut Walk<'_, '_>, dec: Dec, id: u32) -> Result<(), Fault> {
    let b = B(dec.builtin);
    if b == B::PrimitiveShadingRateKHR {
        return Ok(());
    }
    let q = w.q;
    if let Some((ty, needs, ..)) = indices(b) {
        let vuids = indices(b).map_or([0; 5], |i| i.4);
        if let Some(t) = underlying(w, dec, id)? {
            if let Err(problem) = check_type(w, dec, id, t, ty) {
                let kind = BuiltInError::IndicesType {
                    vuid: vuid(vuids[2]),
                    builtin: b,
                    needs,
                    problem,
                };
                return Err(w.fault(id, kind));
            }
        }
    } else {
        // CullPrimitiveEXT: the mesh interface rule waits on the variable, and a mesh
        // entry point's interface holds one at most.
        let rule = Rule {
            dec,
            built_in: id,
            referenced: id,
            check: Check::Mesh,
        };
        w.add(id, rule);
        // In entry-point order, the first seen twice: one seen before this decoration,
        // or one listed twice.
        let is_struct = q.opcode(id) == O::TypeStruct;
        read_mesh_info(w);
        let info = w.cache.mesh.as_ref().map_or(&EMPTY, |i| i);
        let mut twice: Option<(usize, u32)> = None;
        let mut hit = alloc::vec::Vec::new();
        for &e in info
            .hits
            .get(&(is_struct, id))
            .into_iter()
            .flat_map(|h| h.keys())
        {
            let Some(&(first, second)) = info.positions.get(&e) else {
                continue;
            };
            let at = if w.cache.cull_entries.contains(&e) {
                Some(first)
            } else {
                second
            };
            if let Some(at) = at {
                if twice.is_none_or(|(t, _)| at < t) {
                    twice = Some((at, e));
                }
            }
            hit.push(e);
        }
        w.cache.cull_entries.extend(hit);
        if let Some((_, e)) = twice {
            let entry = subject(w, e);
            return Err(w.fault(id, BuiltInError::CullPrimitiveTwice { entry }));
        }
    }
    // Every mesh entry point: the output mode, then the array's size. The verdict of
    // the first failing entry point is worked out without visiting each.
    read_mesh_info(w);
    let info = w.cache.mesh.as_ref().map_or(&EMPTY, |i| i);
    if info.count == 0 {
        return Ok(());
    }
    let (first_prims, other) = (info.first_primitives, info.other_primitives);
    let lacking_of = |m: EMode| info.lacking.get(&m.0).copied();
    let lacking = indices(b).and_then(|i| lacking_of(i.2));
    let Some(mut t) = underlying(w, dec, id)? else {
        return Ok(());
    };
    let Some((_, _, _, mode_text, vuids)) = indices(b) else {
        return Ok(());
    };
    let mut dim = 0;
    if q.opcode(t) == O::TypeArray {
        t = q.word(t, 3).unwrap_or(0);
        dim = q.constant_u64(t).unwrap_or(0);
    }
    let wrong_size = if dim == 0 {
        None
    } else if u64::from(first_prims) != dim {
        Some(0)
    } else {
        other
    };
    match (lacking, wrong_size) {
        (Some(l), s) if s.is_none_or(|s| l <= s) => Err(w.fault(
            id,
            BuiltInError::IndicesMode {
                vuid: vuid(vuids[3]),
                builtin: b,
                mode: mode_text,
            },
        )),
        (_, Some(_)) => Err(w.fault(
            id,
            BuiltInError::IndicesArraySize {
                vuid: vuid(vuids[4]),
                builtin: b,
            },
        )),
        _ => Ok(()),
    }
}

/// The built-in's Vulkan checks at one reference.
pub(super) fn at_reference(w: &mut Walk<'_, '_>, rule: &Rule, from: u32) -> Result<(), Fault> {
    let b = B(rule.dec.builtin);
    let sc = storage_class(w, from);
    if b == B::PrimitiveShadingRateKHR {
        if let Some(c) = sc.filter(|&c| c != SC::Output.0) {
            return Err(class_fault(w, rule, from, vuid(4485), "Output", c));
        }
        w.leave(from, rule, Check::Mesh);
        w.leave(from, rule, Check::ShadingRate);
        let bad = w
            .models
            .iter()
            .find(|&&m| !matches!(EM(m), EM::Vertex | EM::Geometry | EM::MeshNV | EM::MeshEXT));
        if let Some(&m) = bad {
            let text = "Vertex, Geometry, MeshNV or MeshEXT execution models";
            return Err(model_fault(w, rule, from, vuid(4484), text, m));
        }
        return Ok(());
    }
    let [model_vuid, class_vuid] = match indices(b) {
        Some((.., v)) => [v[0], v[1]],
        None => [7034, 7035],
    };
    if let Some(c) = sc.filter(|&c| c != SC::Output.0) {
        return Err(class_fault(w, rule, from, vuid(class_vuid), "Output", c));
    }
    if let Some(&m) = w.models.iter().find(|&&m| m != EM::MeshEXT.0) {
        let text = "MeshEXT execution model";
        return Err(model_fault(w, rule, from, vuid(model_vuid), text, m));
    }
    Ok(())
}
