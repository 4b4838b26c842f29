//! The rules that spirv-val's built-in rules leave on the ids they reach (a child
//! module of `builtin_rules.rs`): `ValidateNotCalledWithExecutionModel` (a use under a
//! given execution model fails), `ValidateMeshBuiltinInterfaceRules` (the integer
//! per-primitive built-ins of MeshEXT shaders: scalar in a block or array,
//! `PerPrimitiveEXT`, array size against `OutputPrimitivesEXT`) and
//! `ValidateNonMeshInterfaceRules` (their 32-bit int type elsewhere). Outside
//! functions each passes on to the instruction it is run on.

use super::super::Fault;
use super::super::builtins::{Check, Dec, Rule, Walk};
use super::super::validation_state::EntryCalls;
use super::{Ty, check_type, from_desc, id_desc, model_name, name, underlying};
use crate::__private::String;
use crate::spv::{self, BuiltIn as B, ExecutionModel as EM, Opcode as O};
use alloc::collections::{BTreeMap, BTreeSet};
use alloc::format;

/// What the rules keep between instructions.
#[derive(Default)]
pub(in super::super) struct Cache {
    /// Mesh rules that passed, by decoration and built-in: the verdict does not depend
    /// on the reference, so each is worked out once.
    mesh_passed: BTreeSet<(Dec, u32)>,
    /// The mesh entry points' interfaces and `OutputPrimitivesEXT`, read when first
    /// needed.
    mesh: Option<MeshInfo>,
}

/// What `IsMeshInterfaceVar` finds, worked out once for all ids.
struct MeshInfo {
    /// By (is a struct type, id): for each entry point with a MeshNV or MeshEXT model,
    /// the interface variable that is the id (or whose type under its pointer and
    /// arrays is the struct): the first in each of its `OpEntryPoint`s, the last
    /// `OpEntryPoint` with one winning, as spirv-val's map keeps it.
    hits: BTreeMap<(bool, u32), BTreeMap<u32, u32>>,
    /// The last `OutputPrimitivesEXT` of each entry point.
    output_primitives: BTreeMap<u32, u32>,
}

impl MeshInfo {
    fn of(w: &Walk<'_, '_>) -> Self {
        let calls = EntryCalls::of(w.q);
        let mut models: BTreeMap<u32, BTreeSet<u32>> = BTreeMap::new();
        for d in &calls.entries {
            models.entry(d.function).or_default().insert(d.model);
        }
        let is_mesh = |f: u32| {
            models
                .get(&f)
                .is_some_and(|m| m.contains(&EM::MeshEXT.0) || m.contains(&EM::MeshNV.0))
        };
        // Each entry point's descriptions in order; an entry point listed twice finds
        // the same, so each is read once.
        let mut hits: BTreeMap<(bool, u32), BTreeMap<u32, u32>> = BTreeMap::new();
        let mut seen = BTreeSet::new();
        for d in calls.entries.iter().filter(|d| is_mesh(d.function)) {
            seen.clear();
            for &v in &d.interfaces {
                for key in [(false, v), (true, innermost(w, v).unwrap_or(0))] {
                    if seen.insert(key) {
                        hits.entry(key).or_default().insert(d.function, v);
                    }
                }
            }
        }
        let mut output_primitives = BTreeMap::new();
        for inst in w.q.module.instructions() {
            let wd = inst.words();
            if matches!(inst.opcode(), O::ExecutionMode | O::ExecutionModeId)
                && wd.get(2) == Some(&spv::ExecutionMode::OutputPrimitivesEXT.0)
            {
                if let (Some(&e), Some(&n)) = (wd.get(1), wd.get(3)) {
                    output_primitives.insert(e, n);
                }
            }
        }
        MeshInfo {
            hits,
            output_primitives,
        }
    }
}

/// The VUIDs of these rules as `VkErrorID` spells them (some have none).
fn vk(n: u32) -> &'static str {
    match n {
        4188 => "[VUID-ClipDistance-ClipDistance-04188] ",
        4189 => "[VUID-ClipDistance-ClipDistance-04189] ",
        4197 => "[VUID-CullDistance-CullDistance-04197] ",
        4198 => "[VUID-CullDistance-CullDistance-04198] ",
        4274 => "[VUID-Layer-Layer-04274] ",
        4275 => "[VUID-Layer-Layer-04275] ",
        4276 => "[VUID-Layer-Layer-04276] ",
        4315 => "[VUID-PointSize-PointSize-04315] ",
        4319 => "[VUID-Position-Position-04319] ",
        4333 => "[VUID-PrimitiveId-Fragment-04333] ",
        4334 => "[VUID-PrimitiveId-PrimitiveId-04334] ",
        4337 => "[VUID-PrimitiveId-PrimitiveId-04337] ",
        4406 => "[VUID-ViewportIndex-ViewportIndex-04406] ",
        4407 => "[VUID-ViewportIndex-ViewportIndex-04407] ",
        4408 => "[VUID-ViewportIndex-ViewportIndex-04408] ",
        4391 => "[VUID-TessLevelOuter-TessLevelOuter-04391] ",
        4392 => "[VUID-TessLevelOuter-TessLevelOuter-04392] ",
        4395 => "[VUID-TessLevelInner-TessLevelInner-04395] ",
        4396 => "[VUID-TessLevelInner-TessLevelInner-04396] ",
        7039 => "[VUID-Layer-Layer-07039] ",
        7040 => "[VUID-PrimitiveId-PrimitiveId-07040] ",
        7060 => "[VUID-ViewportIndex-ViewportIndex-07060] ",
        10592 => "[VUID-Layer-Layer-10592] ",
        10593 => "[VUID-Layer-Layer-10593] ",
        10594 => "[VUID-Layer-Layer-10594] ",
        10601 => "[VUID-ViewportIndex-ViewportIndex-10601] ",
        10602 => "[VUID-ViewportIndex-ViewportIndex-10602] ",
        10603 => "[VUID-ViewportIndex-ViewportIndex-10603] ",
        _ => "",
    }
}

/// The text of a `NotWith` rule, by its VUID.
fn not_with_text(vuid: u32, model: u32) -> String {
    let m = model_name(model);
    let dont = "Vulkan spec doesn't allow BuiltIn";
    match vuid {
        4319 => format!(
            "{dont} Position to be used for variables with Input storage class if execution model is {m}."
        ),
        4315 => format!(
            "{dont} PointSize to be used for variables with Input storage class if execution model is {m}."
        ),
        4188 | 4197 => format!(
            "{dont} ClipDistance/CullDistance to be used for variables with Input storage class if execution model is {m}."
        ),
        4189 | 4198 => format!(
            "{dont} ClipDistance/CullDistance to be used for variables with Output storage class if execution model is {m}."
        ),
        4274 | 4406 => format!(
            "{dont} Layer and ViewportIndex to be used for variables with Input storage class if execution model is Vertex, TessellationEvaluation, Geometry, MeshNV or MeshEXT."
        ),
        4275 | 4407 => format!(
            "{dont} Layer and ViewportIndex to be used for variables with Output storage class if execution model is Fragment."
        ),
        4391 | 4395 => String::from(
            "Vulkan spec doesn't allow TessLevelOuter/TessLevelInner to be used for variables with Input storage class if execution model is TessellationControl.",
        ),
        4392 | 4396 => String::from(
            "Vulkan spec doesn't allow TessLevelOuter/TessLevelInner to be used for variables with Output storage class if execution model is TessellationEvaluation.",
        ),
        4334 => format!(
            "{dont} PrimitiveId to be used for variables with Output storage class if execution model is {m}."
        ),
        _ => format!(
            "{dont} PrimitiveId to be used for variables in the Fragment execution model unless it declares Geometry, Tessellation, or MeshShader capabilities."
        ),
    }
}

/// Runs a left-behind rule on the instruction defining `from`.
pub(super) fn reference(w: &mut Walk<'_, '_>, rule: Rule, from: u32) -> Result<(), Fault> {
    if w.function == 0 {
        let pass_on = match rule.check {
            Check::NotWith { .. } => Rule {
                referenced: from,
                ..rule
            },
            _ => rule,
        };
        w.add(from, pass_on);
        return Ok(());
    }
    match rule.check {
        Check::NotWith { model, vuid } => not_with(w, &rule, model, vuid, from),
        Check::Mesh => mesh(w, rule.dec, rule.built_in),
        Check::NonMesh => non_mesh(w, rule.dec, rule.built_in),
        Check::Own => Ok(()),
    }
}

/// `ValidateNotCalledWithExecutionModel` inside a function.
fn not_with(w: &Walk<'_, '_>, rule: &Rule, model: u32, vuid: u32, from: u32) -> Result<(), Fault> {
    if !w.models.contains(&model) {
        return Ok(());
    }
    let m = format!(
        "{}{} {} depends on {} which is decorated with BuiltIn {}. Id <{}> is later referenced by {} in function <{}> which is called with execution model {}.",
        vk(vuid),
        not_with_text(vuid, model),
        id_desc(w, rule.referenced),
        id_desc(w, rule.built_in),
        name(rule.dec.builtin),
        rule.referenced,
        from_desc(w, from),
        w.function,
        model_name(model),
    );
    Err(w.fault_from(m))
}

/// `ValidateNonMeshInterfaceRules` inside a function: a 32-bit int, or (a variable)
/// an array of them, unless the function runs as MeshEXT.
fn non_mesh(w: &Walk<'_, '_>, dec: Dec, id: u32) -> Result<(), Fault> {
    if w.models.contains(&EM::MeshEXT.0) {
        return Ok(());
    }
    let Some(mut t) = underlying(w, dec, id)? else {
        return Ok(());
    };
    if dec.member < 0 && w.q.opcode(t) == O::TypeArray {
        t = w.q.word(t, 2).unwrap_or(0);
    }
    let Err(detail) = check_type(w, dec, id, t, Ty::I32) else {
        return Ok(());
    };
    let v = match B(dec.builtin) {
        B::Layer => 4276,
        B::ViewportIndex => 4408,
        _ => 4337,
    };
    // spirv-val puts no space between the name and "variable".
    let m = format!(
        "{}According to the Vulkan spec BuiltIn {}variable needs to be a 32-bit int scalar. {detail}",
        vk(v),
        name(dec.builtin)
    );
    Err(w.fault(id, m))
}

/// `ValidateMeshBuiltinInterfaceRules` inside a function that runs as MeshEXT.
fn mesh(w: &mut Walk<'_, '_>, dec: Dec, id: u32) -> Result<(), Fault> {
    if !w.models.contains(&EM::MeshEXT.0) || w.cache.mesh_passed.contains(&(dec, id)) {
        return Ok(());
    }
    // array_type, array_size, block_array_size, perprim_deco
    let vuids = match B(dec.builtin) {
        B::PrimitiveId => [10595, 10596, 10597, 7040],
        B::Layer => [10592, 10593, 10594, 7039],
        _ => [10601, 10602, 10603, 7060],
    };
    let b = name(dec.builtin);
    let q = w.q;
    let desc = if dec.member >= 0 {
        format!("Member #{} of struct ID <{id}>", dec.member)
    } else {
        id_desc(w, id)
    };
    // ValidateBlockTypeOrArrayedType.
    let type_fault = |w: &Walk<'_, '_>, detail: String| {
        let m = format!(
            "{}According to the Vulkan specspec BuiltIn {b} variable needs to be a either a TypeInt or an array of TypeInt. {detail}",
            vk(vuids[0])
        );
        w.fault(id, m)
    };
    let Some(mut t) = underlying(w, dec, id)? else {
        return Ok(());
    };
    let mut is_block = true;
    if q.opcode(t) == O::TypeArray {
        if q.constant_i64(q.word(t, 3).unwrap_or(0)).is_none() {
            return Err(type_fault(
                w,
                format!("{desc} Failed to find the array length."),
            ));
        }
        t = q.word(t, 2).unwrap_or(0);
        is_block = false;
    } else if !q.decorations.has(id, spv::Decoration::Block.0) {
        return Err(type_fault(
            w,
            format!("{desc} Scalar boolean must be in a Block."),
        ));
    }
    if !q.is_int_scalar_type(t) {
        return Err(type_fault(w, format!("{desc} is not an integer scalar.")));
    }
    if !q.decorations.has(id, spv::Decoration::PerPrimitiveEXT.0) {
        let m = format!(
            "{}According to the Vulkan spec the variable decorated with Builtin {b} within the MeshEXT Execution Model must also be decorated with the PerPrimitiveEXT decoration. ",
            vk(vuids[3])
        );
        return Err(w.fault(id, m));
    }
    // IsMeshInterfaceVar, then each interface's array size.
    if w.cache.mesh.is_none() {
        w.cache.mesh = Some(MeshInfo::of(w));
    }
    let Some(info) = w.cache.mesh.as_ref() else {
        return Ok(());
    };
    let is_struct = q.opcode(id) == O::TypeStruct;
    let found = info.hits.get(&(is_struct, id)).into_iter().flatten();
    for (&entry, &var) in found {
        let size = array_length(w, var);
        let prims = info.output_primitives.get(&entry).copied().unwrap_or(0);
        if size != u64::from(prims) {
            let v = if is_block { vuids[2] } else { vuids[1] };
            let m = format!(
                "{} The size of the array decorated with {b} ({size}) must match the value specified by OutputPrimitivesEXT ({prims}). ",
                vk(v)
            );
            return Err(w.fault(id, m));
        }
    }
    w.cache.mesh_passed.insert((dec, id));
    Ok(())
}

/// The type of interface variable `var` under its pointer and all arrays.
fn innermost(w: &Walk<'_, '_>, var: u32) -> Option<u32> {
    let q = w.q;
    let mut t = q.word(q.type_of(var), 3)?;
    // Each step goes to a type defined earlier, so this ends.
    let mut steps = 0usize;
    while q.opcode(t) == O::TypeArray && steps < q.module.len() {
        t = q.word(t, 2)?;
        steps += 1;
    }
    Some(t)
}

/// `GetArrayLength`: the length of the array `var` points to, all ones when it points
/// to no array or is no variable, 0 when the length is not a constant.
fn array_length(w: &Walk<'_, '_>, var: u32) -> u64 {
    let q = w.q;
    if q.opcode(var) != O::Variable {
        return u64::MAX;
    }
    let Some((pointee, _)) = q.pointer_info(q.type_of(var)) else {
        return 0;
    };
    if q.opcode(pointee) != O::TypeArray {
        return u64::MAX;
    }
    q.constant_u64(q.word(pointee, 3).unwrap_or(0)).unwrap_or(0)
}
