//! The rules of each built-in that spirv-val checks under Vulkan (and of
//! `WorkgroupSize` everywhere), for the engine in `builtins.rs`: the type a built-in
//! needs at its definition, and at each reference the storage class it may have and
//! the execution models that may use it. Covered: `FragCoord`, `FragDepth`, `FrontFacing`,
//! `HelperInvocation`, `InvocationId`, `InstanceIndex`, `VertexIndex`, `VertexId`,
//! `BaseInstance`, `BaseVertex`, `DrawIndex`,
//! `PatchVertices`, `PointCoord`, `SampleId`, `SampleMask`, `SamplePosition`,
//! `TessCoord`, `TessLevelOuter`, `TessLevelInner`, `GlobalInvocationId`,
//! `LocalInvocationId`, `NumWorkgroups`, `WorkgroupId`, `LocalInvocationIndex`,
//! `WorkgroupSize`, `TessLevelOuter` and `TessLevelInner` (their references in
//! `builtin_primitive.rs`);
//! `Position`, `PointSize`, `ClipDistance` and `CullDistance` in `builtin_pervertex.rs`;
//! the subgroup built-ins in `builtin_subgroup.rs`; `PrimitiveId`, `Layer` and
//! `ViewportIndex` in `builtin_primitive.rs`; the ray tracing built-ins in
//! `builtin_raytracing.rs`; the rules that rules leave behind in
//! `builtin_guards.rs`.
//! Not yet: the rest; a module breaking only those passes.
//! Messages are spirv-val's, with ids as numbers.

use super::Fault;
use super::builtins::{Check, Dec, Rule, Walk};
#[path = "builtin_guards.rs"]
mod guards;
#[path = "builtin_pervertex.rs"]
mod pervertex;
#[path = "builtin_primitive.rs"]
mod primitive;
#[path = "builtin_raytracing.rs"]
mod raytracing;
#[path = "builtin_subgroup.rs"]
mod subgroup;
use super::error::opcode_name;
use crate::__private::String;
use crate::spv::{self, BuiltIn as B, ExecutionModel as EM, Opcode as O, StorageClass as SC};
use alloc::format;
pub(super) use guards::Cache;

/// The type a built-in needs.
#[derive(Debug, Clone, Copy)]
enum Ty {
    Bool,
    I32,
    F32,
    I32Vec(u32),
    F32Vec(u32),
    I32Arr,
    /// A float array of this many components, of any number for 0.
    F32Arr(u32),
}

/// Which storage classes a reference may have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    Input,
    Output,
    Either,
}

/// A built-in with one type, one storage class and a list of execution models.
struct Simple {
    ty: Ty,
    ty_vuid: u32,
    ty_text: &'static str,
    class: Class,
    class_vuid: u32,
    models: &'static [EM],
    models_text: &'static str,
    model_vuid: u32,
}

const COMPUTE: &[EM] = &[
    EM::GLCompute,
    EM::TaskNV,
    EM::MeshNV,
    EM::TaskEXT,
    EM::MeshEXT,
];
const COMPUTE_TEXT: &str = "GLCompute, MeshNV, TaskNV, MeshEXT or TaskEXT execution model";

const fn simple(
    ty: Ty,
    ty_text: &'static str,
    class: Class,
    models: &'static [EM],
    models_text: &'static str,
    vuids: [u32; 3],
) -> Simple {
    Simple {
        ty,
        ty_vuid: vuids[0],
        ty_text,
        class,
        class_vuid: vuids[1],
        models,
        models_text,
        model_vuid: vuids[2],
    }
}

/// The built-ins whose rules follow one pattern.
#[rustfmt::skip]
fn simple_rules(b: B) -> Option<Simple> {
    let frag: &'static [EM] = &[EM::Fragment];
    let frag_text = "Fragment execution model";
    let f32s = "32-bit float scalar";
    let i32s = "32-bit int scalar";
    let v3i = "3-component 32-bit int vector";
    Some(match b {
        B::FragCoord => simple(Ty::F32Vec(4), "4-component 32-bit float vector", Class::Input, frag, frag_text, [4212, 4211, 4210]),
        B::FragDepth => simple(Ty::F32, f32s, Class::Output, frag, frag_text, [4215, 4214, 4213]),
        B::FrontFacing => simple(Ty::Bool, "bool scalar", Class::Input, frag, frag_text, [4231, 4230, 4229]),
        B::HelperInvocation => simple(Ty::Bool, "bool scalar", Class::Input, frag, frag_text, [4241, 4240, 4239]),
        B::InvocationId => simple(Ty::I32, i32s, Class::Input, &[EM::TessellationControl, EM::Geometry], "TessellationControl or Geometry execution models", [4259, 4258, 4257]),
        B::InstanceIndex => simple(Ty::I32, i32s, Class::Input, &[EM::Vertex], "Vertex execution model", [4265, 4264, 4263]),
        B::VertexIndex => simple(Ty::I32, i32s, Class::Input, &[EM::Vertex], "Vertex execution model", [4400, 4399, 4398]),
        B::PatchVertices => simple(Ty::I32, i32s, Class::Input, &[EM::TessellationControl, EM::TessellationEvaluation], "TessellationControl or TessellationEvaluation execution models", [4310, 4309, 4308]),
        B::PointCoord => simple(Ty::F32Vec(2), "2-component 32-bit float vector", Class::Input, frag, frag_text, [4313, 4312, 4311]),
        B::SampleId => simple(Ty::I32, i32s, Class::Input, frag, frag_text, [4356, 4355, 4354]),
        B::SampleMask => simple(Ty::I32Arr, "32-bit int array", Class::Either, frag, frag_text, [4359, 4358, 4357]),
        B::SamplePosition => simple(Ty::F32Vec(2), "2-component 32-bit float vector", Class::Input, frag, frag_text, [4362, 4361, 4360]),
        B::TessCoord => simple(Ty::F32Vec(3), "3-component 32-bit float vector", Class::Input, &[EM::TessellationEvaluation], "TessellationEvaluation execution model", [4389, 4388, 4387]),
        B::LocalInvocationIndex => simple(Ty::I32, i32s, Class::Input, COMPUTE, COMPUTE_TEXT, [4286, 4285, 4284]),
        B::GlobalInvocationId => simple(Ty::I32Vec(3), v3i, Class::Input, COMPUTE, COMPUTE_TEXT, [4238, 4237, 4236]),
        B::LocalInvocationId => simple(Ty::I32Vec(3), v3i, Class::Input, COMPUTE, COMPUTE_TEXT, [4283, 4282, 4281]),
        B::NumWorkgroups => simple(Ty::I32Vec(3), v3i, Class::Input, COMPUTE, COMPUTE_TEXT, [4298, 4297, 4296]),
        B::WorkgroupId => simple(Ty::I32Vec(3), v3i, Class::Input, COMPUTE, COMPUTE_TEXT, [4424, 4423, 4422]),
        B::BaseInstance => simple(Ty::I32, i32s, Class::Input, &[EM::Vertex], "Vertex execution model", [4183, 4182, 4181]),
        B::BaseVertex => simple(Ty::I32, i32s, Class::Input, &[EM::Vertex], "Vertex execution model", [4186, 4185, 4184]),
        B::DrawIndex => simple(Ty::I32, i32s, Class::Input, &[EM::Vertex, EM::MeshNV, EM::TaskNV, EM::MeshEXT, EM::TaskEXT], "Vertex, MeshNV, TaskNV , MeshEXT or TaskEXT execution model", [4209, 4208, 4207]),
        // At reference only: `builtin_subgroup.rs` checks their definition.
        B::NumSubgroups => simple(Ty::I32, i32s, Class::Input, COMPUTE, COMPUTE_TEXT, [4295, 4294, 4293]),
        B::SubgroupId => simple(Ty::I32, i32s, Class::Input, COMPUTE, COMPUTE_TEXT, [4369, 4368, 4367]),
        _ => return None,
    })
}

fn name(b: u32) -> &'static str {
    spv::kinds::BuiltIn
        .enumerant(b)
        .map_or("Unknown", |e| e.name)
}

fn model_name(m: u32) -> &'static str {
    spv::kinds::ExecutionModel
        .enumerant(m)
        .map_or("Unknown", |e| e.name)
}

/// A built-in rule's id as spirv-val prints it: `[VUID-Name-Name-0NNNN] `.
fn vuid(b: u32, n: u32) -> String {
    let n_name = name(b);
    format!("[VUID-{n_name}-{n_name}-{n:05}] ")
}

/// `GetIdDesc`: `ID <N> (OpName)`.
fn id_desc(w: &Walk<'_, '_>, id: u32) -> String {
    format!("ID <{id}> (Op{})", opcode_name(w.q.opcode(id)))
}

/// `GetIdDesc` of the instruction a rule is being run on.
fn from_desc(w: &Walk<'_, '_>, from: u32) -> String {
    format!("ID <{from}> (Op{})", opcode_name(w.from_op))
}

/// `GetDefinitionDesc`.
fn definition_desc(w: &Walk<'_, '_>, dec: Dec, id: u32) -> String {
    if dec.member >= 0 {
        format!("Member #{} of struct ID <{id}>", dec.member)
    } else {
        id_desc(w, id)
    }
}

/// `GetReferenceDesc`.
fn reference_desc(w: &Walk<'_, '_>, rule: &Rule, from: u32, model: Option<u32>) -> String {
    let mut s = format!(
        "{} is referencing {}",
        from_desc(w, from),
        id_desc(w, rule.referenced)
    );
    if rule.built_in != rule.referenced {
        s += &format!(" which is dependent on {}", id_desc(w, rule.built_in));
    }
    s += &format!(
        " which is decorated with BuiltIn {}",
        name(rule.dec.builtin)
    );
    if w.function != 0 {
        s += &format!(" in function <{}>", w.function);
        if let Some(m) = model {
            s += &format!(" called with execution model {}", model_name(m));
        }
    }
    s.push('.');
    s
}

/// `GetStorageClass` of the instruction a rule is being run on: `None` for
/// instructions without one (all with one have a result id).
fn storage_class(w: &Walk<'_, '_>, id: u32) -> Option<u32> {
    let at = match w.from_op {
        O::TypePointer | O::TypeUntypedPointerKHR | O::TypeForwardPointer => 2,
        O::Variable => 3,
        O::UntypedVariableKHR | O::GenericCastToPtrExplicit => 4,
        _ => return None,
    };
    w.q.word(id, at)
}

/// `GetUnderlyingType`: the member's type, a constant's type or a pointer's pointee;
/// the fault (at the decorated instruction) otherwise. `Ok(None)` where spirv-val would
/// read past the instruction.
fn underlying(w: &Walk<'_, '_>, dec: Dec, id: u32) -> Result<Option<u32>, Fault> {
    let op = w.q.opcode(id);
    if dec.member >= 0 {
        if op != O::TypeStruct {
            let m = format!(
                "{}Attempted to get underlying data type via member index for non-struct type.",
                id_desc(w, id)
            );
            return Err(w.fault(id, m));
        }
        return Ok(w.q.word(id, dec.member as usize + 2));
    }
    if op == O::TypeStruct {
        let m = format!(
            "{} did not find an member index to get underlying data type for struct type.",
            id_desc(w, id)
        );
        return Err(w.fault(id, m));
    }
    if crate::spirv_tools::is_constant(op) {
        return Ok(Some(w.q.type_of(id)));
    }
    match w.q.pointer_info(w.q.type_of(id)) {
        Some((pointee, _)) => Ok(Some(pointee)),
        None => {
            let m = format!(
                "{} is decorated with BuiltIn. BuiltIn decoration should only be applied to struct types, variables and constants.",
                id_desc(w, id)
            );
            Err(w.fault(id, m))
        }
    }
}

/// Checks the type of built-in `id` against `ty`: `Ok(Err(detail))` when it fails
/// (spirv-val's message tail), `Err` for a fault of its own.
fn type_check(w: &Walk<'_, '_>, dec: Dec, id: u32, ty: Ty) -> Result<Result<(), String>, Fault> {
    let Some(t) = underlying(w, dec, id)? else {
        return Ok(Ok(()));
    };
    Ok(check_type(w, dec, id, t, ty))
}

/// Checks type `t` of built-in `id` against `ty`: `Err(detail)` (spirv-val's message
/// tail) when it fails.
fn check_type(w: &Walk<'_, '_>, dec: Dec, id: u32, t: u32, ty: Ty) -> Result<(), String> {
    let q = w.q;
    let desc = definition_desc(w, dec, id);
    let width = |t: u32| q.bit_width(t);
    match ty {
        Ty::Bool if !q.is_bool_scalar_type(t) => Err(format!("{desc} is not a bool scalar.")),
        Ty::I32 | Ty::F32 => {
            let (ok, what) = if matches!(ty, Ty::I32) {
                (q.is_int_scalar_type(t), "an int")
            } else {
                (q.is_float_scalar_type(t), "a float")
            };
            if !ok {
                Err(format!("{desc} is not {what} scalar."))
            } else if width(t) != 32 {
                Err(format!("{desc} has bit width {}.", width(t)))
            } else {
                Ok(())
            }
        }
        Ty::I32Vec(n) | Ty::F32Vec(n) => {
            let (ok, what) = if matches!(ty, Ty::I32Vec(_)) {
                (q.is_int_vector_type(t), "an int")
            } else {
                (q.is_float_vector_type(t), "a float")
            };
            if !ok {
                Err(format!("{desc} is not {what} vector."))
            } else if q.dimension(t) != n {
                Err(format!("{desc} has {} components.", q.dimension(t)))
            } else if width(t) != 32 {
                Err(format!(
                    "{desc} has components with bit width {}.",
                    width(t)
                ))
            } else {
                Ok(())
            }
        }
        Ty::I32Arr | Ty::F32Arr(_) => {
            if q.opcode(t) != O::TypeArray {
                return Err(format!("{desc} is not an array."));
            }
            let c = q.word(t, 2).unwrap_or(0);
            let (ok, what) = if matches!(ty, Ty::I32Arr) {
                (q.is_int_scalar_type(c), "int")
            } else {
                (q.is_float_scalar_type(c), "float")
            };
            if !ok {
                Err(format!("{desc} components are not {what} scalar."))
            } else if width(c) != 32 {
                Err(format!(
                    "{desc} has components with bit width {}.",
                    width(c)
                ))
            } else {
                match ty {
                    Ty::F32Arr(n) if n != 0 => {
                        let len = q.constant_u64(q.word(t, 3).unwrap_or(0)).unwrap_or(0);
                        if len != u64::from(n) {
                            Err(format!("{desc} has {len} components."))
                        } else {
                            Ok(())
                        }
                    }
                    _ => Ok(()),
                }
            }
        }
        _ => Ok(()),
    }
}

/// A type fault: `[vuid]According to the Vulkan spec BuiltIn X variable needs to be a
/// T. detail`, at `at`.
fn type_fault(w: &Walk<'_, '_>, at: u32, b: u32, v: &str, text: &str, detail: &str) -> Fault {
    let m = format!(
        "{v}According to the Vulkan spec BuiltIn {} variable needs to be a {text}. {detail}",
        name(b)
    );
    w.fault(at, m)
}

/// The built-in's checks at its definition (`ValidateSingleBuiltInAtDefinition`),
/// then its rule at its own reference, which seeds the rules on its id.
pub(super) fn definition(w: &mut Walk<'_, '_>, dec: Dec, id: u32) -> Result<(), Fault> {
    let b = B(dec.builtin);
    if b == B::WorkgroupSize {
        workgroup_size(w, dec, id)?;
    } else if !w.vulkan {
        return Ok(());
    } else if b == B::VertexId {
        let m = String::from("Vulkan spec doesn't allow BuiltIn VertexId to be used.");
        return Err(w.fault(id, m));
    } else if pervertex::covers(b) {
        // Checked at reference only.
    } else if subgroup::covers(b) {
        return subgroup::definition(w, dec, id);
    } else if primitive::covers(b) {
        // Checked at reference only.
    } else if raytracing::covers(b) {
        return raytracing::definition(w, dec, id);
    } else if let Some(s) = simple_rules(b) {
        if let Err(detail) = type_check(w, dec, id, s.ty)? {
            return Err(type_fault(
                w,
                id,
                b.0,
                &vuid(b.0, s.ty_vuid),
                s.ty_text,
                &detail,
            ));
        }
    } else if matches!(b, B::TessLevelOuter | B::TessLevelInner) {
        let (n, v) = if b == B::TessLevelOuter {
            (4, 4393)
        } else {
            (2, 4397)
        };
        if let Err(detail) = type_check(w, dec, id, Ty::F32Arr(n))? {
            let text = if n == 4 {
                "4-component 32-bit float array"
            } else {
                "2-component 32-bit float array"
            };
            return Err(type_fault(w, id, b.0, &vuid(b.0, v), text, &detail));
        }
        if !w.q.decorations.has(id, spv::Decoration::Patch.0) {
            let m = format!(
                "[VUID-StandaloneSpirv-TessLevelInner-10880] BuiltIn {} variable needs to also have a Patch decoration.",
                name(b.0)
            );
            return Err(w.fault(id, m));
        }
    } else {
        return Ok(());
    }
    let rule = Rule {
        dec,
        built_in: id,
        referenced: id,
        check: Check::Own,
    };
    reference(w, rule, id)
}

/// `ValidateWorkgroupSizeAtDefinition` before its seed.
fn workgroup_size(w: &mut Walk<'_, '_>, dec: Dec, id: u32) -> Result<(), Fault> {
    let q = w.q;
    if w.vulkan {
        if let Err(detail) = type_check(w, dec, id, Ty::I32Vec(3))? {
            let text = "3-component 32-bit int vector";
            return Err(type_fault(
                w,
                id,
                B::WorkgroupSize.0,
                "[VUID-WorkgroupSize-WorkgroupSize-04427] ",
                text,
                &detail,
            ));
        }
    }
    let op = q.opcode(id);
    if !crate::spirv_tools::is_constant(op) {
        if w.vulkan {
            let m = format!(
                "[VUID-WorkgroupSize-WorkgroupSize-04426] Vulkan spec requires BuiltIn WorkgroupSize to be a constant. {} is not a constant.",
                id_desc(w, id)
            );
            return Err(w.fault(id, m));
        }
        return Ok(());
    }
    if op != O::ConstantComposite {
        return Ok(());
    }
    let parts = [3, 4, 5].map(|i| q.word(id, i).unwrap_or(0));
    if !parts.iter().all(|&p| q.opcode(p) == O::Constant) {
        return Ok(());
    }
    let [Some(x), Some(y), Some(z)] = parts.map(|p| q.constant_u64(p)) else {
        return Ok(());
    };
    let product = x.wrapping_mul(y).wrapping_mul(z);
    if product == 0 {
        let m = format!(
            "WorkgroupSize decorations must not have a static product of zero (X = {x}, Y = {y}, Z = {z})."
        );
        return Err(w.fault(id, m));
    }
    let v = |n: &str| {
        if w.vulkan {
            String::from(n)
        } else {
            String::new()
        }
    };
    for &e in &w.all_entry_points {
        let Some(modes) = w.modes.get(&e) else {
            continue;
        };
        if modes.contains(&spv::ExecutionMode::DerivativeGroupQuadsKHR.0)
            && (x % 2 != 0 || y % 2 != 0)
        {
            let m = format!(
                "{}WorkgroupSize decorations has a static dimensions of (X = {x}, Y = {y}) but Entry Point id {e} has an DerivativeGroupQuadsKHR execution mode, so both dimensions must be a multiple of 2",
                v("[VUID-StandaloneSpirv-DerivativeGroupQuadsKHR-10151] ")
            );
            return Err(w.fault(id, m));
        }
        if modes.contains(&spv::ExecutionMode::DerivativeGroupLinearKHR.0) && product % 4 != 0 {
            let m = format!(
                "{}WorkgroupSize decorations has a static dimensions of (X = {x}, Y = {y}, Z = {z}) but Entry Point id {e} has an DerivativeGroupLinearKHR execution mode, so the product ({product}) must be a multiple of 4",
                v("[VUID-StandaloneSpirv-DerivativeGroupLinearKHR-10152] ")
            );
            return Err(w.fault(id, m));
        }
    }
    Ok(())
}

/// Runs `rule` on the instruction defining `from`, which names the id the rule waits
/// on; outside functions the rule passes on to `from`.
pub(super) fn reference(w: &mut Walk<'_, '_>, rule: Rule, from: u32) -> Result<(), Fault> {
    if rule.check != Check::Own {
        return guards::reference(w, rule, from);
    }
    let pass_on = Rule {
        referenced: from,
        ..rule
    };
    if w.vulkan {
        at_reference(w, &rule, from)?;
    }
    if w.function == 0 {
        w.add(from, pass_on);
    }
    Ok(())
}

/// The storage-class fault of a reference.
fn class_fault(w: &Walk<'_, '_>, rule: &Rule, from: u32, v: &str, classes: &str, sc: u32) -> Fault {
    let m = format!(
        "{v}Vulkan spec allows BuiltIn {} to be only used for variables with {classes} storage class. {} {} uses storage class {}.",
        name(rule.dec.builtin),
        reference_desc(w, rule, from, None),
        from_desc(w, from),
        crate::grammar::Enum::name(crate::spv::StorageClass(sc)).unwrap_or("Unknown")
    );
    w.fault_from(m)
}

/// The execution-model fault of a reference.
fn model_fault(w: &Walk<'_, '_>, rule: &Rule, from: u32, v: &str, text: &str, model: u32) -> Fault {
    let m = format!(
        "{v}Vulkan spec allows BuiltIn {} to be used only with {text}. {}",
        name(rule.dec.builtin),
        reference_desc(w, rule, from, Some(model))
    );
    w.fault_from(m)
}

/// The built-in's Vulkan checks at one reference.
fn at_reference(w: &mut Walk<'_, '_>, rule: &Rule, from: u32) -> Result<(), Fault> {
    let b = B(rule.dec.builtin);
    if pervertex::covers(b) {
        return pervertex::at_reference(w, rule, from);
    }
    if primitive::covers(b) {
        return primitive::at_reference(w, rule, from);
    }
    if matches!(b, B::TessLevelOuter | B::TessLevelInner) {
        return primitive::tess_level(w, rule, from);
    }
    if raytracing::covers(b) {
        return raytracing::at_reference(w, rule, from);
    }
    let sc = storage_class(w, from);
    if let Some(s) = simple_rules(b) {
        let ok = match (s.class, sc) {
            (_, None) => true,
            (Class::Input, Some(c)) => c == SC::Input.0,
            (Class::Output, Some(c)) => c == SC::Output.0,
            (Class::Either, Some(c)) => c == SC::Input.0 || c == SC::Output.0,
        };
        if !ok {
            let classes = match s.class {
                Class::Input => "Input",
                Class::Output => "Output",
                Class::Either => "Input or Output",
            };
            let c = sc.unwrap_or(0);
            return Err(class_fault(
                w,
                rule,
                from,
                &vuid(b.0, s.class_vuid),
                classes,
                c,
            ));
        }
        if let Some(&m) = w.models.iter().find(|&&m| !s.models.contains(&EM(m))) {
            return Err(model_fault(
                w,
                rule,
                from,
                &vuid(b.0, s.model_vuid),
                s.models_text,
                m,
            ));
        }
        if b == B::FragDepth {
            let replacing = spv::ExecutionMode::DepthReplacing.0;
            if w.entry_points
                .iter()
                .any(|e| !w.modes.get(e).is_some_and(|m| m.contains(&replacing)))
            {
                let m = format!(
                    "[VUID-FragDepth-FragDepth-04216] Vulkan spec requires DepthReplacing execution mode to be declared when using BuiltIn FragDepth. {}",
                    reference_desc(w, rule, from, None)
                );
                return Err(w.fault_from(m));
            }
        }
        return Ok(());
    }
    if b == B::WorkgroupSize {
        if let Some(&m) = w.models.iter().find(|&&m| !COMPUTE.contains(&EM(m))) {
            let v = "[VUID-WorkgroupSize-WorkgroupSize-04425] ";
            return Err(model_fault(w, rule, from, v, COMPUTE_TEXT, m));
        }
    }
    Ok(())
}
