//! The rules that spirv-val's built-in rules leave on the ids they reach (beside `rules.rs`): `ValidateNotCalledWithExecutionModel` (a use under a
//! given execution model fails), `ValidateMeshBuiltinInterfaceRules` (the integer
//! per-primitive built-ins of MeshEXT shaders: scalar in a block or array,
//! `PerPrimitiveEXT`, array size against `OutputPrimitivesEXT`) and
//! `ValidateNonMeshInterfaceRules` (their 32-bit int type elsewhere). Outside
//! functions each passes on to the instruction it is run on.

use super::super::Fault;
use super::super::validation_state::EntryCalls;
use super::rules::{Ty, check_type, definition_subject, from_subject, subject, underlying, vuid};
use super::{BuiltInError, BuiltInTypeProblem, BuiltInUse};
use super::{Check, Dec, Rule, Walk};
use crate::spv::{self, BuiltIn as B, ExecutionModel as EM, Opcode as O};
use crate::types::Id;
use alloc::collections::{BTreeMap, BTreeSet};

/// What the rules keep between instructions.
#[derive(Default)]
pub(in super::super) struct Cache {
    /// Mesh rules that passed, by decoration and built-in: the verdict does not depend
    /// on the reference, so each is worked out once.
    mesh_passed: BTreeSet<(Dec, u32)>,
    /// The mesh entry points' interfaces and `OutputPrimitivesEXT`, read when first
    /// needed.
    pub(super) mesh: Option<MeshInfo>,
    /// The entry points whose interface holds a `CullPrimitiveEXT` seen so far.
    pub(super) cull_entries: BTreeSet<u32>,
}

/// Reads the mesh entry points' interfaces and output sizes into the cache, on first
/// use.
pub(super) fn read_mesh_info(w: &mut Walk<'_, '_>) {
    if w.cache.mesh.is_none() {
        w.cache.mesh = Some(MeshInfo::of(w));
    }
}

/// What `IsMeshInterfaceVar` finds, worked out once for all ids.
#[derive(Default)]
pub(super) struct MeshInfo {
    /// By (is a struct type, id): for each entry point with a MeshNV or MeshEXT model,
    /// the interface variable that is the id (or whose type under its pointer and
    /// arrays is the struct): the first in each of its `OpEntryPoint`s, the last
    /// `OpEntryPoint` with one winning, as spirv-val's map keeps it.
    pub(super) hits: BTreeMap<(bool, u32), BTreeMap<u32, u32>>,
    /// The last `OutputPrimitivesEXT` of each entry point.
    pub(super) output_primitives: BTreeMap<u32, u32>,
    /// Of the entry points with a MeshNV or MeshEXT model, once per `OpEntryPoint`
    /// (spirv-val's `entry_points()` order, repeats kept), the positions in that list
    /// of each one's first two.
    pub(super) positions: BTreeMap<u32, (usize, Option<usize>)>,
    /// Their number.
    pub(super) count: usize,
    /// The first one's `OutputPrimitivesEXT` (0 without), and the position of the
    /// first with another.
    pub(super) first_primitives: u32,
    pub(super) other_primitives: Option<usize>,
    /// By output mode (`OutputPoints`, `OutputLinesEXT`, `OutputTrianglesEXT`), the
    /// position of the first without it.
    pub(super) lacking: BTreeMap<u32, usize>,
}

impl MeshInfo {
    /// No mesh entry points.
    pub(super) const EMPTY: MeshInfo = MeshInfo {
        hits: BTreeMap::new(),
        output_primitives: BTreeMap::new(),
        positions: BTreeMap::new(),
        count: 0,
        first_primitives: 0,
        other_primitives: None,
        lacking: BTreeMap::new(),
    };

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
        let mut info = MeshInfo {
            hits,
            output_primitives,
            ..MeshInfo::default()
        };
        let modes = [
            spv::ExecutionMode::OutputPoints.0,
            spv::ExecutionMode::OutputLinesEXT.0,
            spv::ExecutionMode::OutputTrianglesEXT.0,
        ];
        let entries = calls
            .entries
            .iter()
            .map(|d| d.function)
            .filter(|&f| is_mesh(f));
        for (i, f) in entries.enumerate() {
            let prims = info.output_primitives.get(&f).copied().unwrap_or(0);
            if i == 0 {
                info.first_primitives = prims;
            } else if prims != info.first_primitives && info.other_primitives.is_none() {
                info.other_primitives = Some(i);
            }
            let at = info.positions.entry(f).or_insert((i, None));
            if at.0 != i && at.1.is_none() {
                at.1 = Some(i);
            }
            for m in modes {
                if !w.modes.get(&f).is_some_and(|s| s.contains(&m)) {
                    info.lacking.entry(m).or_insert(i);
                }
            }
            info.count = i + 1;
        }
        info
    }
}

/// The fault of a `NotWith` rule, by its VUID's number: the rule broken, with the
/// model and the use.
fn not_with_fault(n: u32, model: u32, use_: BuiltInUse) -> BuiltInError {
    use BuiltInError as E;
    let (vuid, model) = (vuid(n), EM(model));
    match n {
        4319 => E::PositionInput { vuid, model, use_ },
        4315 => E::PointSizeInput { vuid, model, use_ },
        4188 | 4197 => E::DistanceInput { vuid, model, use_ },
        4189 | 4198 => E::DistanceOutput { vuid, model, use_ },
        4274 | 4406 => E::LayerInput { vuid, use_ },
        4275 | 4407 => E::LayerOutput { vuid, use_ },
        4391 | 4395 => E::TessLevelInput { vuid, use_ },
        4392 | 4396 => E::TessLevelOutput { vuid, use_ },
        4334 => E::PrimitiveIdOutput { vuid, model, use_ },
        _ => E::PrimitiveIdFragment { vuid, use_ },
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
        Check::ShadingRate => shading_rate(w, rule.dec, rule.built_in),
        Check::Own => Ok(()),
    }
}

/// `ValidateNotCalledWithExecutionModel` inside a function.
fn not_with(w: &Walk<'_, '_>, rule: &Rule, model: u32, vuid: u32, from: u32) -> Result<(), Fault> {
    if !w.models.contains(&model) {
        return Ok(());
    }
    let use_ = BuiltInUse::Later {
        referenced: subject(w, rule.referenced),
        decorated: subject(w, rule.built_in),
        builtin: B(rule.dec.builtin),
        id: Id(rule.referenced),
        from: from_subject(w, from),
        function: Id(w.function),
        model: EM(model),
    };
    Err(w.fault_from(not_with_fault(vuid, model, use_)))
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
    let Err(problem) = check_type(w, dec, id, t, Ty::I32) else {
        return Ok(());
    };
    let v = match B(dec.builtin) {
        B::Layer => 4276,
        B::ViewportIndex => 4408,
        _ => 4337,
    };
    // spirv-val puts no space between the name and "variable" (the row's template).
    let kind = BuiltInError::NonMeshType {
        vuid: vuid(v),
        builtin: B(dec.builtin),
        problem,
    };
    Err(w.fault(id, kind))
}

/// `ValidatePrimitiveShadingRateInterfaceRules` inside a function: a 32-bit int,
/// unless the function runs as MeshEXT.
fn shading_rate(w: &Walk<'_, '_>, dec: Dec, id: u32) -> Result<(), Fault> {
    if w.models.contains(&EM::MeshEXT.0) {
        return Ok(());
    }
    let Some(t) = underlying(w, dec, id)? else {
        return Ok(());
    };
    let Err(problem) = check_type(w, dec, id, t, Ty::I32) else {
        return Ok(());
    };
    let kind = BuiltInError::WrongType {
        vuid: vuid(4486),
        builtin: B(dec.builtin),
        needs: "32-bit int scalar",
        problem,
    };
    Err(w.fault(id, kind))
}

/// `ValidateMeshBuiltinInterfaceRules` inside a function that runs as MeshEXT.
fn mesh(w: &mut Walk<'_, '_>, dec: Dec, id: u32) -> Result<(), Fault> {
    if !w.models.contains(&EM::MeshEXT.0) || w.cache.mesh_passed.contains(&(dec, id)) {
        return Ok(());
    }
    // array_type, array_size, block_array_size, perprim_deco
    let vuids = match B(dec.builtin) {
        B::CullPrimitiveEXT => [7036, 10589, 10590, 7038],
        B::PrimitiveId => [10595, 10596, 10597, 7040],
        B::Layer => [10592, 10593, 10594, 7039],
        B::PrimitiveShadingRateKHR => [10598, 10599, 10600, 7059],
        _ => [10601, 10602, 10603, 7060],
    };
    // Only CullPrimitiveEXT is a bool.
    let boolean = B(dec.builtin) == B::CullPrimitiveEXT;
    let scalar = if boolean { "TypeBool" } else { "TypeInt" };
    let builtin = B(dec.builtin);
    let q = w.q;
    let subject = definition_subject(w, dec, id);
    // ValidateBlockTypeOrArrayedType.
    let type_fault = |w: &Walk<'_, '_>, problem: BuiltInTypeProblem| {
        let vuid = vuid(vuids[0]);
        w.fault(
            id,
            BuiltInError::MeshType {
                vuid,
                builtin,
                scalar,
                problem,
            },
        )
    };
    let Some(mut t) = underlying(w, dec, id)? else {
        return Ok(());
    };
    let mut is_block = true;
    if q.opcode(t) == O::TypeArray {
        if q.constant_i64(q.word(t, 3).unwrap_or(0)).is_none() {
            return Err(type_fault(w, BuiltInTypeProblem::NoArrayLength { subject }));
        }
        t = q.word(t, 2).unwrap_or(0);
        is_block = false;
    } else if !q.decorations.has(id, spv::Decoration::Block.0) {
        return Err(type_fault(w, BuiltInTypeProblem::NotInBlock { subject }));
    }
    if boolean && !q.is_bool_scalar_type(t) {
        return Err(type_fault(w, BuiltInTypeProblem::NotBoolScalar { subject }));
    }
    if !boolean && !q.is_int_scalar_type(t) {
        return Err(type_fault(
            w,
            BuiltInTypeProblem::NotIntegerScalar { subject },
        ));
    }
    if !q.decorations.has(id, spv::Decoration::PerPrimitiveEXT.0) {
        let vuid = vuid(vuids[3]);
        return Err(w.fault(id, BuiltInError::MeshPerPrimitive { vuid, builtin }));
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
            let vuid = vuid(if is_block { vuids[2] } else { vuids[1] });
            let kind = BuiltInError::MeshArraySize {
                vuid,
                builtin,
                size,
                primitives: prims,
            };
            return Err(w.fault(id, kind));
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
