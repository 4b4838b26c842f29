//! The rules of each built-in that spirv-val checks under Vulkan (and of
//! `WorkgroupSize` everywhere), for the engine in `mod.rs`: the type a built-in
//! needs at its definition, and at each reference the storage class it may have and
//! the execution models that may use it. Covered: `FragCoord`, `FragDepth`, `FrontFacing`,
//! `HelperInvocation`, `InvocationId`, `InstanceIndex`, `VertexIndex`, `VertexId`,
//! `BaseInstance`, `BaseVertex`, `DrawIndex`,
//! `PatchVertices`, `PointCoord`, `SampleId`, `SampleMask`, `SamplePosition`,
//! `TessCoord`, `TessLevelOuter`, `TessLevelInner`, `GlobalInvocationId`,
//! `LocalInvocationId`, `NumWorkgroups`, `WorkgroupId`, `LocalInvocationIndex`,
//! `ViewIndex`, `DeviceIndex`, `FragInvocationCountEXT`, `FragSizeEXT`,
//! `FragStencilRefEXT`, `FullyCoveredEXT`, `BaryCoordKHR`, `BaryCoordNoPerspKHR`,
//! `ShadingRateKHR`, the ARM core and NV shader-model built-ins,
//! `WorkgroupSize`, `TessLevelOuter` and `TessLevelInner` (their references in
//! `primitive.rs`);
//! `Position`, `PointSize`, `ClipDistance` and `CullDistance` in `pervertex.rs`;
//! the subgroup built-ins in `subgroup.rs`; `PrimitiveId`, `Layer` and
//! `ViewportIndex` in `primitive.rs`; the ray tracing built-ins in
//! `raytracing.rs`; the MeshEXT output built-ins and `PrimitiveShadingRateKHR` in
//! `meshext.rs`; the rules that rules leave behind in `guards.rs`.
//! Their faults are rows of [`BuiltInError`](super::BuiltInError).

use super::{BuiltInError, BuiltInReference, BuiltInSubject, BuiltInTypeProblem};
use super::{Check, Dec, Rule, Walk};
use super::{guards, meshext, pervertex, primitive, raytracing, subgroup};
use crate::spv::{self, BuiltIn as B, ExecutionModel as EM, Opcode as O, StorageClass as SC};
use crate::types::Id;
use crate::validate::Fault;

/// The type a built-in needs.
#[derive(Debug, Clone, Copy)]
pub(super) enum Ty {
    Bool,
    /// An int scalar of any width.
    Int,
    I32,
    F32,
    I32Vec(u32),
    F32Vec(u32),
    I32Arr,
    /// An array of int vectors of this many 32-bit components.
    I32ArrVec(u32),
    /// A float array of this many components, of any number for 0.
    F32Arr(u32),
}

/// Which storage classes a reference may have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Class {
    Input,
    Output,
    Either,
}

/// The execution models a built-in may be used in.
#[derive(Debug, Clone, Copy)]
pub(super) enum Models {
    /// Any.
    Any,
    /// These only.
    Only(&'static [EM]),
    /// All but these.
    Not(&'static [EM]),
}

/// A built-in with one type, one storage class and a rule on execution models.
pub(super) struct Simple {
    ty: Ty,
    ty_vuid: u32,
    ty_text: &'static str,
    class: Class,
    class_vuid: u32,
    models: Models,
    models_text: &'static str,
    model_vuid: u32,
}

pub(super) const COMPUTE: &[EM] = &[
    EM::GLCompute,
    EM::TaskNV,
    EM::MeshNV,
    EM::TaskEXT,
    EM::MeshEXT,
];
pub(super) const COMPUTE_TEXT: &str =
    "GLCompute, MeshNV, TaskNV, MeshEXT or TaskEXT execution model";

pub(super) const fn simple(
    ty: Ty,
    ty_text: &'static str,
    class: Class,
    models: Models,
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
pub(super) fn simple_rules(b: B) -> Option<Simple> {
    let frag: &'static [EM] = &[EM::Fragment];
    let frag_text = "Fragment execution model";
    let f32s = "32-bit float scalar";
    let i32s = "32-bit int scalar";
    let v3i = "3-component 32-bit int vector";
    Some(match b {
        B::FragCoord => simple(Ty::F32Vec(4), "4-component 32-bit float vector", Class::Input, Models::Only(frag), frag_text, [4212, 4211, 4210]),
        B::FragDepth => simple(Ty::F32, f32s, Class::Output, Models::Only(frag), frag_text, [4215, 4214, 4213]),
        B::FrontFacing => simple(Ty::Bool, "bool scalar", Class::Input, Models::Only(frag), frag_text, [4231, 4230, 4229]),
        B::HelperInvocation => simple(Ty::Bool, "bool scalar", Class::Input, Models::Only(frag), frag_text, [4241, 4240, 4239]),
        B::InvocationId => simple(Ty::I32, i32s, Class::Input, Models::Only(&[EM::TessellationControl, EM::Geometry]), "TessellationControl or Geometry execution models", [4259, 4258, 4257]),
        B::InstanceIndex => simple(Ty::I32, i32s, Class::Input, Models::Only(&[EM::Vertex]), "Vertex execution model", [4265, 4264, 4263]),
        B::VertexIndex => simple(Ty::I32, i32s, Class::Input, Models::Only(&[EM::Vertex]), "Vertex execution model", [4400, 4399, 4398]),
        B::PatchVertices => simple(Ty::I32, i32s, Class::Input, Models::Only(&[EM::TessellationControl, EM::TessellationEvaluation]), "TessellationControl or TessellationEvaluation execution models", [4310, 4309, 4308]),
        B::PointCoord => simple(Ty::F32Vec(2), "2-component 32-bit float vector", Class::Input, Models::Only(frag), frag_text, [4313, 4312, 4311]),
        B::SampleId => simple(Ty::I32, i32s, Class::Input, Models::Only(frag), frag_text, [4356, 4355, 4354]),
        B::SampleMask => simple(Ty::I32Arr, "32-bit int array", Class::Either, Models::Only(frag), frag_text, [4359, 4358, 4357]),
        B::SamplePosition => simple(Ty::F32Vec(2), "2-component 32-bit float vector", Class::Input, Models::Only(frag), frag_text, [4362, 4361, 4360]),
        B::TessCoord => simple(Ty::F32Vec(3), "3-component 32-bit float vector", Class::Input, Models::Only(&[EM::TessellationEvaluation]), "TessellationEvaluation execution model", [4389, 4388, 4387]),
        B::LocalInvocationIndex => simple(Ty::I32, i32s, Class::Input, Models::Only(COMPUTE), COMPUTE_TEXT, [4286, 4285, 4284]),
        B::GlobalInvocationId => simple(Ty::I32Vec(3), v3i, Class::Input, Models::Only(COMPUTE), COMPUTE_TEXT, [4238, 4237, 4236]),
        B::LocalInvocationId => simple(Ty::I32Vec(3), v3i, Class::Input, Models::Only(COMPUTE), COMPUTE_TEXT, [4283, 4282, 4281]),
        B::NumWorkgroups => simple(Ty::I32Vec(3), v3i, Class::Input, Models::Only(COMPUTE), COMPUTE_TEXT, [4298, 4297, 4296]),
        B::WorkgroupId => simple(Ty::I32Vec(3), v3i, Class::Input, Models::Only(COMPUTE), COMPUTE_TEXT, [4424, 4423, 4422]),
        B::BaseInstance => simple(Ty::I32, i32s, Class::Input, Models::Only(&[EM::Vertex]), "Vertex execution model", [4183, 4182, 4181]),
        B::BaseVertex => simple(Ty::I32, i32s, Class::Input, Models::Only(&[EM::Vertex]), "Vertex execution model", [4186, 4185, 4184]),
        B::DrawIndex => simple(Ty::I32, i32s, Class::Input, Models::Only(&[EM::Vertex, EM::MeshNV, EM::TaskNV, EM::MeshEXT, EM::TaskEXT]), "Vertex, MeshNV, TaskNV , MeshEXT or TaskEXT execution model", [4209, 4208, 4207]),
        // At reference only: `subgroup.rs` checks their definition.
        B::NumSubgroups => simple(Ty::I32, i32s, Class::Input, Models::Only(COMPUTE), COMPUTE_TEXT, [4295, 4294, 4293]),
        B::SubgroupId => simple(Ty::I32, i32s, Class::Input, Models::Only(COMPUTE), COMPUTE_TEXT, [4369, 4368, 4367]),
        B::ViewIndex => simple(Ty::I32, i32s, Class::Input, Models::Not(&[EM::GLCompute]), "GLCompute execution model", [4403, 4402, 4401]),
        B::DeviceIndex => simple(Ty::I32, i32s, Class::Input, Models::Any, "", [4206, 4205, 0]),
        B::FragInvocationCountEXT => simple(Ty::I32, i32s, Class::Input, Models::Only(frag), frag_text, [4219, 4218, 4217]),
        B::FragSizeEXT => simple(Ty::I32Vec(2), "2-component 32-bit int vector", Class::Input, Models::Only(frag), frag_text, [4222, 4221, 4220]),
        B::FragStencilRefEXT => simple(Ty::Int, "int scalar", Class::Output, Models::Only(frag), frag_text, [4225, 4224, 4223]),
        B::FullyCoveredEXT => simple(Ty::Bool, "bool scalar", Class::Input, Models::Only(frag), frag_text, [4234, 4233, 4232]),
        B::BaryCoordKHR => simple(Ty::F32Vec(3), "3-component 32-bit float vector", Class::Input, Models::Only(frag), frag_text, [4156, 4155, 4154]),
        B::BaryCoordNoPerspKHR => simple(Ty::F32Vec(3), "3-component 32-bit float vector", Class::Input, Models::Only(frag), frag_text, [4162, 4161, 4160]),
        B::ShadingRateKHR => simple(Ty::I32, i32s, Class::Input, Models::Only(frag), "the Fragment execution model", [4492, 4491, 4490]),
        // spirv-val gives these no VUID.
        B::CoreIDARM | B::CoreCountARM | B::CoreMaxIDARM | B::WarpIDARM | B::WarpMaxIDARM
        | B::WarpsPerSMNV | B::SMCountNV | B::WarpIDNV | B::SMIDNV => simple(Ty::I32, i32s, Class::Input, Models::Any, "", [0, 0, 0]),
        _ => return None,
    })
}

/// A built-in rule's VUID by its number.
pub(super) fn vuid(n: u32) -> Option<&'static str> {
    super::vuids::vuid(n)
}

/// `GetIdDesc`: instruction `id`.
pub(super) fn subject(w: &Walk<'_, '_>, id: u32) -> BuiltInSubject {
    BuiltInSubject::Id {
        id: Id(id),
        opcode: w.q.opcode(id),
    }
}

/// `GetIdDesc` of the instruction a rule is being run on.
pub(super) fn from_subject(w: &Walk<'_, '_>, from: u32) -> BuiltInSubject {
    BuiltInSubject::Id {
        id: Id(from),
        opcode: w.from_op,
    }
}

/// `GetDefinitionDesc`.
pub(super) fn definition_subject(w: &Walk<'_, '_>, dec: Dec, id: u32) -> BuiltInSubject {
    if dec.member >= 0 {
        BuiltInSubject::Member {
            member: dec.member as u32,
            id: Id(id),
        }
    } else {
        subject(w, id)
    }
}

/// `GetReferenceDesc`.
pub(super) fn reference_of(
    w: &Walk<'_, '_>,
    rule: &Rule,
    from: u32,
    model: Option<u32>,
) -> BuiltInReference {
    use BuiltInReference as R;
    let from = from_subject(w, from);
    let referenced = subject(w, rule.referenced);
    let builtin = B(rule.dec.builtin);
    let function = Id(w.function);
    let decorated = (rule.built_in != rule.referenced).then(|| subject(w, rule.built_in));
    match (w.function != 0, model.map(EM), decorated) {
        (false, _, None) => R::Global {
            from,
            referenced,
            builtin,
        },
        (false, _, Some(decorated)) => R::GlobalDependent {
            from,
            referenced,
            decorated,
            builtin,
        },
        (true, None, None) => R::InFunction {
            from,
            referenced,
            builtin,
            function,
        },
        (true, None, Some(decorated)) => R::InFunctionDependent {
            from,
            referenced,
            decorated,
            builtin,
            function,
        },
        (true, Some(model), None) => R::Called {
            from,
            referenced,
            builtin,
            function,
            model,
        },
        (true, Some(model), Some(decorated)) => R::CalledDependent {
            from,
            referenced,
            decorated,
            builtin,
            function,
            model,
        },
    }
}

/// `GetStorageClass` of the instruction a rule is being run on: `None` for
/// instructions without one (all with one have a result id).
pub(super) fn storage_class(w: &Walk<'_, '_>, id: u32) -> Option<u32> {
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
pub(super) fn underlying(w: &Walk<'_, '_>, dec: Dec, id: u32) -> Result<Option<u32>, Fault> {
    let op = w.q.opcode(id);
    if dec.member >= 0 {
        if op != O::TypeStruct {
            let subject = subject(w, id);
            return Err(w.fault(id, BuiltInError::MemberOfNonStruct { subject }));
        }
        return Ok(w.q.word(id, dec.member as usize + 2));
    }
    if op == O::TypeStruct {
        let subject = subject(w, id);
        return Err(w.fault(id, BuiltInError::StructWithoutMember { subject }));
    }
    if crate::spirv_tools::is_constant(op) {
        return Ok(Some(w.q.type_of(id)));
    }
    match w.q.pointer_info(w.q.type_of(id)) {
        Some((pointee, _)) => Ok(Some(pointee)),
        None => {
            let subject = subject(w, id);
            Err(w.fault(id, BuiltInError::NotVariable { subject }))
        }
    }
}

/// Checks the type of built-in `id` against `ty`: `Ok(Err(problem))` when it fails,
/// `Err` for a fault of its own.
pub(super) fn type_check(
    w: &Walk<'_, '_>,
    dec: Dec,
    id: u32,
    ty: Ty,
) -> Result<Result<(), BuiltInTypeProblem>, Fault> {
    let Some(t) = underlying(w, dec, id)? else {
        return Ok(Ok(()));
    };
    Ok(check_type(w, dec, id, t, ty))
}

/// Checks type `t` of built-in `id` against `ty`.
pub(super) fn check_type(
    w: &Walk<'_, '_>,
    dec: Dec,
    id: u32,
    t: u32,
    ty: Ty,
) -> Result<(), BuiltInTypeProblem> {
    use BuiltInTypeProblem as P;
    let q = w.q;
    let subject = definition_subject(w, dec, id);
    let width = |t: u32| q.bit_width(t);
    match ty {
        Ty::Bool if !q.is_bool_scalar_type(t) => Err(P::NotBoolScalar { subject }),
        Ty::Int if !q.is_int_scalar_type(t) => Err(P::NotIntScalar { subject }),
        Ty::I32ArrVec(n) => {
            if q.opcode(t) != O::TypeArray {
                return Err(P::NotArray { subject });
            }
            let c = q.word(t, 2).unwrap_or(0);
            if !q.is_int_vector_type(c) {
                Err(P::NotIntVector { subject })
            } else if q.dimension(c) != n {
                let count = u64::from(q.dimension(c));
                Err(P::Components { subject, count })
            } else if width(c) != 32 {
                let width = width(c);
                Err(P::ComponentBitWidth { subject, width })
            } else {
                Ok(())
            }
        }
        Ty::I32 | Ty::F32 => {
            if matches!(ty, Ty::I32) && !q.is_int_scalar_type(t) {
                Err(P::NotIntScalar { subject })
            } else if matches!(ty, Ty::F32) && !q.is_float_scalar_type(t) {
                Err(P::NotFloatScalar { subject })
            } else if width(t) != 32 {
                let width = width(t);
                Err(P::BitWidth { subject, width })
            } else {
                Ok(())
            }
        }
        Ty::I32Vec(n) | Ty::F32Vec(n) => {
            if matches!(ty, Ty::I32Vec(_)) && !q.is_int_vector_type(t) {
                Err(P::NotIntVector { subject })
            } else if matches!(ty, Ty::F32Vec(_)) && !q.is_float_vector_type(t) {
                Err(P::NotFloatVector { subject })
            } else if q.dimension(t) != n {
                let count = u64::from(q.dimension(t));
                Err(P::Components { subject, count })
            } else if width(t) != 32 {
                let width = width(t);
                Err(P::ComponentBitWidth { subject, width })
            } else {
                Ok(())
            }
        }
        Ty::I32Arr | Ty::F32Arr(_) => {
            if q.opcode(t) != O::TypeArray {
                return Err(P::NotArray { subject });
            }
            let c = q.word(t, 2).unwrap_or(0);
            if matches!(ty, Ty::I32Arr) && !q.is_int_scalar_type(c) {
                Err(P::NotIntComponents { subject })
            } else if matches!(ty, Ty::F32Arr(_)) && !q.is_float_scalar_type(c) {
                Err(P::NotFloatComponents { subject })
            } else if width(c) != 32 {
                let width = width(c);
                Err(P::ComponentBitWidth { subject, width })
            } else {
                match ty {
                    Ty::F32Arr(n) if n != 0 => {
                        let count = q.constant_u64(q.word(t, 3).unwrap_or(0)).unwrap_or(0);
                        if count != u64::from(n) {
                            Err(P::Components { subject, count })
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

/// A type fault: built-in `b` needs to be `needs`, at `at`.
pub(super) fn type_fault(
    w: &Walk<'_, '_>,
    at: u32,
    b: u32,
    vuid: Option<&'static str>,
    needs: &'static str,
    problem: BuiltInTypeProblem,
) -> Fault {
    let builtin = B(b);
    w.fault(
        at,
        BuiltInError::WrongType {
            vuid,
            builtin,
            needs,
            problem,
        },
    )
}

/// Whether a rule here covers built-in `b` (the family's
/// [`CHECKED_BUILT_INS`](super::CHECKED_BUILT_INS)).
#[cfg(test)]
pub(super) fn checked(b: B) -> bool {
    matches!(
        b,
        B::WorkgroupSize | B::VertexId | B::TessLevelOuter | B::TessLevelInner
    ) || pervertex::covers(b)
        || subgroup::covers(b)
        || primitive::covers(b)
        || raytracing::covers(b)
        || meshext::covers(b)
        || simple_rules(b).is_some()
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
        return Err(w.fault(id, BuiltInError::VertexId));
    } else if pervertex::covers(b) {
        // Checked at reference only.
    } else if subgroup::covers(b) {
        return subgroup::definition(w, dec, id);
    } else if primitive::covers(b) {
        // Checked at reference only.
    } else if raytracing::covers(b) {
        return raytracing::definition(w, dec, id);
    } else if meshext::covers(b) {
        meshext::definition(w, dec, id)?;
    } else if let Some(s) = simple_rules(b) {
        if let Err(problem) = type_check(w, dec, id, s.ty)? {
            return Err(type_fault(w, id, b.0, vuid(s.ty_vuid), s.ty_text, problem));
        }
    } else if matches!(b, B::TessLevelOuter | B::TessLevelInner) {
        let (n, v) = if b == B::TessLevelOuter {
            (4, 4393)
        } else {
            (2, 4397)
        };
        if let Err(problem) = type_check(w, dec, id, Ty::F32Arr(n))? {
            let text = if n == 4 {
                "4-component 32-bit float array"
            } else {
                "2-component 32-bit float array"
            };
            return Err(type_fault(w, id, b.0, vuid(v), text, problem));
        }
        if !w.q.decorations.has(id, spv::Decoration::Patch.0) {
            return Err(w.fault(id, BuiltInError::TessLevelNotPatch { builtin: b }));
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
pub(super) fn workgroup_size(w: &mut Walk<'_, '_>, dec: Dec, id: u32) -> Result<(), Fault> {
    let q = w.q;
    if w.vulkan {
        if let Err(problem) = type_check(w, dec, id, Ty::I32Vec(3))? {
            let text = "3-component 32-bit int vector";
            let b = B::WorkgroupSize.0;
            return Err(type_fault(w, id, b, vuid(4427), text, problem));
        }
    }
    let op = q.opcode(id);
    if !crate::spirv_tools::is_constant(op) {
        if w.vulkan {
            let subject = subject(w, id);
            return Err(w.fault(id, BuiltInError::WorkgroupSizeNotConstant { subject }));
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
        return Err(w.fault(id, BuiltInError::WorkgroupSizeZero { x, y, z }));
    }
    for &e in &w.all_entry_points {
        let Some(modes) = w.modes.get(&e) else {
            continue;
        };
        if modes.contains(&spv::ExecutionMode::DerivativeGroupQuadsKHR.0)
            && (x % 2 != 0 || y % 2 != 0)
        {
            let entry = Id(e);
            return Err(w.fault(id, BuiltInError::WorkgroupSizeQuads { x, y, entry }));
        }
        if modes.contains(&spv::ExecutionMode::DerivativeGroupLinearKHR.0) && product % 4 != 0 {
            let entry = Id(e);
            let kind = BuiltInError::WorkgroupSizeLinear {
                x,
                y,
                z,
                entry,
                product,
            };
            return Err(w.fault(id, kind));
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
pub(super) fn class_fault(
    w: &Walk<'_, '_>,
    rule: &Rule,
    from: u32,
    vuid: Option<&'static str>,
    allowed: &'static str,
    sc: u32,
) -> Fault {
    w.fault_from(BuiltInError::WrongStorageClass {
        vuid,
        builtin: B(rule.dec.builtin),
        allowed,
        reference: reference_of(w, rule, from, None),
        from: from_subject(w, from),
        class: SC(sc),
    })
}

/// The execution-model fault of a reference.
pub(super) fn model_fault(
    w: &Walk<'_, '_>,
    rule: &Rule,
    from: u32,
    vuid: Option<&'static str>,
    allowed: &'static str,
    model: u32,
) -> Fault {
    w.fault_from(BuiltInError::WrongModel {
        vuid,
        builtin: B(rule.dec.builtin),
        allowed,
        reference: reference_of(w, rule, from, Some(model)),
    })
}

/// The built-in's Vulkan checks at one reference.
pub(super) fn at_reference(w: &mut Walk<'_, '_>, rule: &Rule, from: u32) -> Result<(), Fault> {
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
    if meshext::covers(b) {
        return meshext::at_reference(w, rule, from);
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
            return Err(class_fault(w, rule, from, vuid(s.class_vuid), classes, c));
        }
        let refused = |m: &&u32| match s.models {
            Models::Any => false,
            Models::Only(list) => !list.contains(&EM(**m)),
            Models::Not(list) => list.contains(&EM(**m)),
        };
        if let Some(&m) = w.models.iter().find(refused) {
            let v = vuid(s.model_vuid);
            if let Models::Not(_) = s.models {
                return Err(w.fault_from(BuiltInError::RefusedModel {
                    vuid: v,
                    builtin: b,
                    refused: s.models_text,
                    reference: reference_of(w, rule, from, Some(m)),
                }));
            }
            return Err(model_fault(w, rule, from, v, s.models_text, m));
        }
        if b == B::FragDepth {
            let replacing = spv::ExecutionMode::DepthReplacing.0;
            if w.entry_points
                .iter()
                .any(|e| !w.modes.get(e).is_some_and(|m| m.contains(&replacing)))
            {
                let reference = reference_of(w, rule, from, None);
                return Err(w.fault_from(BuiltInError::FragDepthNotReplacing { reference }));
            }
        }
        return Ok(());
    }
    if b == B::WorkgroupSize {
        if let Some(&m) = w.models.iter().find(|&&m| !COMPUTE.contains(&EM(m))) {
            return Err(model_fault(w, rule, from, vuid(4425), COMPUTE_TEXT, m));
        }
    }
    Ok(())
}
