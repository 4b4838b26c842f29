//! spirv-val's annotation pass (`AnnotationPass` in `validate_annotation.cpp`): each
//! `OpDecorate`, `OpDecorateId`, `OpMemberDecorate`, `OpDecorationGroup`,
//! `OpGroupDecorate` and `OpGroupMemberDecorate` on its own: what the decoration may
//! target, members and their bounds, decoration groups and their uses. The
//! decorations themselves are registered in [`super::registry`], which answers what
//! spirv-val has registered before each instruction.

use super::Query;
use super::decorations::{DecorationError as E, TargetRule as R};
use super::error::ValidationErrorKind;
use super::{Fault, Inst};
use crate::__private::Vec;
use crate::grammar::KindClass;
use crate::spv::{self, Capability as C, Decoration as D, Opcode as O, StorageClass as S};
use crate::types::Id;
use alloc::collections::BTreeSet;

/// What the pass remembers across instructions.
#[derive(Debug, Default)]
pub(super) struct Annotation {
    /// The decoration groups used by an instruction that may not use them, found at
    /// the first `OpDecorationGroup`.
    misused_groups: Option<BTreeSet<u32>>,
}

fn fault(e: E) -> Fault {
    ValidationErrorKind::Decoration(e).into()
}

/// `DecorationTakesIdParameters`.
fn takes_ids(d: u32) -> bool {
    matches!(
        D(d),
        D::UniformId
            | D::AlignmentId
            | D::MaxByteOffsetId
            | D::HlslCounterBufferGOOGLE
            | D::NodeMaxPayloadsAMDX
            | D::NodeSharesPayloadLimitsWithAMDX
            | D::PayloadNodeArraySizeAMDX
            | D::PayloadNodeNameAMDX
            | D::PayloadNodeBaseIndexAMDX
    )
}

/// `IsNotMemberDecoration`.
fn not_for_members(d: u32) -> bool {
    matches!(
        D(d),
        D::SpecId
            | D::Block
            | D::BufferBlock
            | D::ArrayStride
            | D::GLSLShared
            | D::GLSLPacked
            | D::CPacked
            | D::Aliased
            | D::Constant
            | D::Uniform
            | D::UniformId
            | D::SaturatedConversion
            | D::Index
            | D::Binding
            | D::DescriptorSet
            | D::FuncParamAttr
            | D::FPRoundingMode
            | D::FPFastMathMode
            | D::LinkageAttributes
            | D::NoContraction
            | D::InputAttachmentIndex
            | D::Alignment
            | D::MaxByteOffset
            | D::AlignmentId
            | D::MaxByteOffsetId
            | D::NoSignedWrap
            | D::NoUnsignedWrap
            | D::NonUniform
            | D::RestrictPointer
            | D::AliasedPointer
            | D::CounterBuffer
    )
}

/// The pass for one instruction.
#[inline(always)]
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>, st: &mut Annotation) -> Result<(), Fault> {
    let w = inst.words;
    let word = |k: usize| w.get(k).copied().unwrap_or(0);
    match inst.opcode {
        O::Decorate => decorate(q, inst),
        O::DecorateId => {
            let target = word(1);
            if q.opcode(target) == O::DecorationGroup {
                return Err(fault(E::DecorateIdOnGroup { target: Id(target) }));
            }
            if !takes_ids(word(2)) {
                return Err(fault(E::NotIdDecoration));
            }
            let target_at = q.state.def(target).map(|d| d.index);
            for &parameter in w.get(3..).unwrap_or(&[]) {
                let param_at = q.state.def(parameter).map(|d| d.index);
                // spirv-val compares the instructions' places (an undefined one is
                // a null pointer, first).
                if target_at <= param_at {
                    return Err(fault(E::ParameterAfterTarget {
                        parameter: Id(parameter),
                    }));
                }
            }
            Ok(())
        }
        O::MemberDecorate => {
            let id = word(1);
            member_in_bounds(q, O::MemberDecorate, id, word(2))?;
            let decoration = word(3);
            if not_for_members(decoration) {
                return Err(fault(E::NotMemberDecoration {
                    decoration: D(decoration),
                }));
            }
            Ok(())
        }
        O::DecorationGroup => {
            let misused = st.misused_groups.get_or_insert_with(|| misused_groups(q));
            if misused.contains(&inst.result_id) {
                return Err(fault(E::GroupUse));
            }
            Ok(())
        }
        O::GroupDecorate => {
            let group = word(1);
            if q.opcode(group) != O::DecorationGroup {
                return Err(fault(E::NotGroup {
                    opcode: O::GroupDecorate,
                    id: Id(group),
                }));
            }
            for &target in w.get(2..).unwrap_or(&[]) {
                if matches!(q.opcode(target), O::DecorationGroup | O::Nop) {
                    return Err(fault(E::GroupTargetsGroup { id: Id(target) }));
                }
            }
            Ok(())
        }
        O::GroupMemberDecorate => {
            let group = word(1);
            if q.opcode(group) != O::DecorationGroup {
                return Err(fault(E::NotGroup {
                    opcode: O::GroupMemberDecorate,
                    id: Id(group),
                }));
            }
            for pair in w.get(2..).unwrap_or(&[]).chunks_exact(2) {
                member_in_bounds(q, O::GroupMemberDecorate, pair[0], pair[1])?;
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// `OpMemberDecorate`'s and `OpGroupMemberDecorate`'s struct and member index.
fn member_in_bounds(q: &Query<'_>, opcode: O, id: u32, index: u32) -> Result<(), Fault> {
    if q.opcode(id) != O::TypeStruct {
        return Err(fault(E::NotStruct { opcode, id: Id(id) }));
    }
    let count = q.struct_members(id).len() as u32;
    if index >= count {
        return Err(fault(E::MemberOutOfBounds {
            opcode,
            index,
            id: Id(id),
            count,
            largest: count.wrapping_sub(1),
        }));
    }
    Ok(())
}

/// The decoration groups some instruction uses other than `OpDecorate`,
/// `OpGroupDecorate`, `OpGroupMemberDecorate`, `OpName` or a non-semantic one (the
/// uses spirv-val registers: id operands but result ids).
fn misused_groups(q: &Query<'_>) -> BTreeSet<u32> {
    let mut out = BTreeSet::new();
    // Only an instruction with a group's id among its words can use one: the others are
    // not decoded.
    let mut groups: Vec<u32> = q
        .module
        .instructions()
        .filter(|i| i.opcode() == O::DecorationGroup)
        .filter_map(|i| i.result_id().map(|r| r.0))
        .collect();
    if groups.is_empty() {
        return out;
    }
    groups.sort_unstable();
    let mut operands = Vec::new();
    for index in 0..q.module.len() {
        let names_group = q.module.instruction(index).is_some_and(|i| {
            i.words()
                .iter()
                .skip(1)
                .any(|w| groups.binary_search(w).is_ok())
        });
        if !names_group {
            continue;
        }
        let Some(user) =
            super::validation_state::decode(q.module, q.state, index, &mut operands, true)
        else {
            continue;
        };
        let allowed = matches!(
            user.opcode,
            O::Decorate | O::GroupDecorate | O::GroupMemberDecorate | O::Name
        ) || user.set.is_some_and(|s| s.is_non_semantic());
        if allowed {
            continue;
        }
        for o in user.operands {
            if o.kind.is_id() && o.kind.class != KindClass::Result {
                let id = user.words.get(o.offset).copied().unwrap_or(0);
                if q.opcode(id) == O::DecorationGroup {
                    out.insert(id);
                }
            }
        }
    }
    out
}

/// `ValidateDecorate`.
fn decorate(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let w = inst.words;
    let target = w.get(1).copied().unwrap_or(0);
    let decoration = w.get(2).copied().unwrap_or(0);
    let Some(def) = q.def(target) else {
        return Err(fault(E::TargetNotDefined));
    };
    let vulkan = q.state.options.target_env.is_vulkan();
    let d = D(decoration);
    if vulkan && matches!(d, D::GLSLShared | D::GLSLPacked) {
        return Err(fault(E::GlslLayoutInVulkan {
            decoration: D(decoration),
        }));
    }
    let registered = |kind: D| q.decorations.has_before(target, kind.0, inst.index);
    if d == D::FPFastMathMode {
        if registered(D::NoContraction) {
            return Err(fault(E::FastMathAndNoContraction));
        }
        let mask = w.get(3).copied().unwrap_or(0);
        let both = spv::FPFastMathMode::ALLOW_CONTRACT.0 | spv::FPFastMathMode::ALLOW_REASSOC.0;
        if mask & spv::FPFastMathMode::ALLOW_TRANSFORM.0 != 0 && mask & both != both {
            return Err(fault(E::AllowTransform));
        }
    }
    if d == D::NoContraction && registered(D::FPFastMathMode) {
        return Err(fault(E::FastMathAndNoContraction));
    }
    if takes_ids(decoration) {
        return Err(fault(E::IdDecorationInDecorate));
    }
    if def.opcode() == O::DecorationGroup {
        return Ok(());
    }
    if matches!(d, D::RowMajor | D::ColMajor | D::MatrixStride) {
        return Err(fault(E::MemberOnly {
            decoration: D(decoration),
        }));
    }
    target_rules(q, inst, target, decoration, vulkan)
}

/// The storage classes where Vulkan has locations: inputs, outputs, tile images and
/// ray tracing's.
fn location_class(sc: S) -> bool {
    matches!(
        sc,
        S::Input
            | S::Output
            | S::RayPayloadKHR
            | S::IncomingRayPayloadKHR
            | S::HitAttributeKHR
            | S::CallableDataKHR
            | S::IncomingCallableDataKHR
            | S::ShaderRecordBufferKHR
            | S::HitObjectAttributeNV
            | S::HitObjectAttributeEXT
            | S::TileImageEXT
    )
}

/// `ValidateDecorationTarget`.
fn target_rules(
    q: &Query<'_>,
    inst: &Inst<'_>,
    target: u32,
    decoration: u32,
    vulkan: bool,
) -> Result<(), Fault> {
    let op = q.opcode(target);
    let fail = |rule: R| {
        Err(fault(E::Target {
            decoration: D(decoration),
            target: Id(target),
            rule,
        }))
    };
    let variable = matches!(op, O::Variable | O::UntypedVariableKHR);
    let constant = crate::spirv_tools::is_constant(op);
    match D(decoration) {
        D::SpecId
            if !matches!(
                op,
                O::SpecConstantTrue | O::SpecConstantFalse | O::SpecConstant
            ) =>
        {
            return fail(R::ScalarSpecConstant);
        }
        D::Block | D::BufferBlock | D::GLSLShared | D::GLSLPacked | D::CPacked
            if op != O::TypeStruct =>
        {
            return fail(R::StructureType);
        }
        D::ArrayStride
            if !matches!(
                op,
                O::TypeArray | O::TypeRuntimeArray | O::TypePointer | O::TypeUntypedPointerKHR
            ) =>
        {
            return fail(R::ArrayOrPointer);
        }
        D::BuiltIn => {
            if !variable && !constant {
                return Err(fault(E::BuiltInTarget));
            }
            let workgroup_size = inst.words.get(3) == Some(&spv::BuiltIn::WorkgroupSize.0);
            if q.state.has_capability(C::Shader.0) && workgroup_size {
                if !constant {
                    return fail(R::ConstantForWorkgroupSize);
                }
            } else if !variable {
                return fail(R::Variable);
            }
        }
        D::NoPerspective
        | D::Flat
        | D::Patch
        | D::Centroid
        | D::Sample
        | D::Restrict
        | D::Aliased
        | D::Volatile
        | D::Coherent
        | D::NonWritable
        | D::NonReadable
        | D::XfbBuffer
        | D::XfbStride
        | D::Component
        | D::Stream
        | D::RestrictPointer
        | D::AliasedPointer
        | D::PerPrimitiveEXT => {
            if !variable && !matches!(op, O::FunctionParameter | O::RawAccessChainNV) {
                return fail(R::MemoryObject);
            }
            if !q.is_pointer_type(q.type_of(target)) {
                return fail(R::PointerType);
            }
        }
        D::Invariant
        | D::Constant
        | D::Location
        | D::Index
        | D::Binding
        | D::DescriptorSet
        | D::InputAttachmentIndex
            if !variable =>
        {
            return fail(R::Variable);
        }
        _ => {}
    }
    if !vulkan {
        return Ok(());
    }
    // The storage class: the target type's second operand, when it has more than
    // two (Uniform otherwise).
    let type_id = q.type_of(target);
    let sc = match q.def(type_id) {
        Some(t) if t.opcode() != O::TypeOpaque && t.words().len() > 3 => S(t.words()[2]),
        _ => S::Uniform,
    };
    match D(decoration) {
        D::Location | D::Component if !location_class(sc) => {
            let e = ValidationErrorKind::Decoration(E::LocationStorageClass {
                decoration: D(decoration),
            });
            return Err(match q.state.def(target) {
                Some(d) => Fault::at(e, d.index),
                None => Fault::module(e),
            });
        }
        D::Index if sc != S::Output => return fail(R::OutputClass),
        D::Binding | D::DescriptorSet
            if !matches!(
                sc,
                S::StorageBuffer | S::Uniform | S::UniformConstant | S::TileAttachmentQCOM
            ) =>
        {
            return fail(R::DescriptorClass);
        }
        D::InputAttachmentIndex if sc != S::UniformConstant => {
            return fail(R::UniformConstantClass);
        }
        D::Flat | D::NoPerspective | D::Centroid | D::Sample
            if !matches!(sc, S::Input | S::Output) =>
        {
            return fail(R::InputOrOutput);
        }
        D::PerVertexKHR if sc != S::Input => return fail(R::InputClass),
        _ => {}
    }
    Ok(())
}

/// What this family checks (see [`coverage`](crate::validate::coverage)).
pub(crate) const COVERAGE: crate::validate::coverage::Family = crate::validate::coverage::Family {
    opcodes: {
        use crate::spv::Opcode as O;
        &[
            O::Decorate,
            O::DecorateId,
            O::MemberDecorate,
            O::DecorationGroup,
            O::GroupDecorate,
            O::GroupMemberDecorate,
        ]
    },
    ..crate::validate::coverage::Family::new("annotations", "validate_annotation.cpp")
};
