//! spirv-val's decoration rules (`ValidateDecorations` in `validate_decorations.cpp`),
//! in its order: imported variables' initializers, entry points' interfaces, buffers
//! and their block layouts, resource variables' descriptors, decorations repeated or
//! mutually exclusive, linkage of functions, the Vulkan memory model's banned
//! decorations, the rules of each decoration on its target, and explicit layouts
//! where Vulkan allows none. The faults of these rules and of the annotation pass are
//! [`DecorationError`]s.
//!
//! Not checked: the execution scope of `UniformId` (`ValidateExecutionScope`).

mod block_layout;
mod buffers;
mod entry_points;
mod error;
mod from_decoration;
mod sizes;

pub use block_layout::{LayoutFault, LayoutHint, LayoutRule, LayoutRules};
pub use error::{DecorationError, Missing, TargetRule};

use super::Fault;
use super::Query;
use super::error::ValidationErrorKind;
use super::validation_state::ForwardIds;
use crate::__private::Vec;
use crate::spv::{self, Decoration as D, Opcode as O};
use crate::types::Id;
use alloc::collections::BTreeSet;

/// What the rules share: the module's questions, the layout engine, and what the
/// buffer rules register for the later ones (spirv-val's pointers to uniform blocks
/// and storage buffers).
pub(super) struct Cx<'q, 'a> {
    q: &'q Query<'a>,
    layout: block_layout::Layout<'q, 'a>,
    vulkan: bool,
    /// Pointer types to `Block` structs in Uniform (`RegisterPointerToUniformBlock`).
    uniform_block_pointers: BTreeSet<u32>,
    /// Pointer types to storage buffers (`RegisterPointerToStorageBuffer`).
    storage_buffer_pointers: BTreeSet<u32>,
}

/// A fault at the definition of `id` (spirv-val's `diag(…, FindDef(id))`).
fn at_def(q: &Query<'_>, id: u32, e: DecorationError) -> Fault {
    let kind = ValidationErrorKind::Decoration(e);
    match q.state.def(id) {
        Some(d) => Fault::at(kind, d.index),
        None => Fault::module(kind),
    }
}

/// A fault at instruction `index`.
fn at(index: usize, e: DecorationError) -> Fault {
    Fault::at(ValidationErrorKind::Decoration(e), index as u32)
}

/// The result of a rule family: false once `report` said to stop.
type Go = bool;

/// Where a rule family hands its faults.
type Report<'r> = &'r mut dyn FnMut(Fault) -> bool;

/// A rule family.
type Rule = fn(&mut Cx<'_, '_>, Report<'_>) -> Go;

/// Checks the module; hands each fault to `report`, which says whether to go on.
pub(super) fn check(q: &Query<'_>, report: &mut dyn FnMut(Fault) -> bool) {
    let env = q.state.options.target_env;
    let mut cx = Cx {
        q,
        layout: block_layout::Layout::new(q),
        vulkan: env.is_vulkan(),
        uniform_block_pointers: BTreeSet::new(),
        storage_buffer_pointers: BTreeSet::new(),
    };
    let rules: [Rule; 9] = [
        imported_variables,
        entry_points::check,
        buffers::check,
        buffers::variables,
        compatibility,
        linkage,
        memory_model,
        from_decoration::check,
        from_decoration::explicit_layout,
    ];
    for rule in rules {
        if !rule(&mut cx, report) {
            return;
        }
    }
}

/// Whether `id` has `LinkageAttributes` with the Import linkage type
/// (`hasImportLinkageAttribute`).
fn imports<'a>(q: &Query<'a>, id: u32, decs: &mut Vec<super::validation_state::Dec<'a>>) -> bool {
    q.decorations.collect(id, &[D::LinkageAttributes.0], decs);
    decs.iter()
        .any(|d| d.params.len() >= 2 && d.params.last() == Some(&spv::LinkageType::Import.0))
}

/// Ids in the order spirv-val's `std::unordered_set` (or `unordered_map`) of them
/// iterates, after inserting `all` in order; only `wanted` ones are returned.
fn hash_order(all: impl Iterator<Item = u32>, wanted: &BTreeSet<u32>) -> Vec<u32> {
    if wanted.len() < 2 {
        return wanted.iter().copied().collect();
    }
    let mut set = ForwardIds::default();
    for id in all {
        set.insert(id);
    }
    set.ids()
        .into_iter()
        .filter(|id| wanted.contains(id))
        .collect()
}

/// `CheckImportedVariableInitialization`: an imported module-scope variable has no
/// initializer. spirv-val walks its global variables in hash order.
fn imported_variables(cx: &mut Cx<'_, '_>, report: &mut dyn FnMut(Fault) -> bool) -> Go {
    let q = cx.q;
    let mut decs = Vec::new();
    let globals = || {
        q.module.instructions().filter_map(|i| {
            let w = i.words();
            (i.opcode() == O::Variable && w.get(3) != Some(&spv::StorageClass::Function.0))
                .then(|| w.get(2).copied())
                .flatten()
        })
    };
    let wanted: BTreeSet<u32> = q
        .module
        .instructions()
        .filter(|i| {
            let w = i.words();
            i.opcode() == O::Variable
                && w.len() == 5
                && w[3] != spv::StorageClass::Function.0
                && imports(q, w[2], &mut decs)
        })
        .map(|i| i.words()[2])
        .collect();
    for id in hash_order(globals(), &wanted) {
        if !report(at_def(q, id, DecorationError::ImportedVariableInitialized)) {
            return false;
        }
    }
    true
}

/// `CheckDecorationsCompatibility`: no decoration twice on an id or member (but
/// `UserSemantic`, and `FuncParamAttr` on ids), and no two mutually exclusive ones,
/// among `OpDecorate` and `OpMemberDecorate` instructions.
fn compatibility(cx: &mut Cx<'_, '_>, report: &mut dyn FnMut(Fault) -> bool) -> Go {
    const PER_ID: [(u32, u32); 3] = [
        (D::Block.0, D::BufferBlock.0),
        (D::Restrict.0, D::Aliased.0),
        (D::RestrictPointer.0, D::AliasedPointer.0),
    ];
    const PER_MEMBER: [(u32, u32); 1] = [(D::RowMajor.0, D::ColMajor.0)];
    let q = cx.q;
    // (decoration, id, member or u32::MAX)
    let mut seen: BTreeSet<(u32, u32, u32)> = BTreeSet::new();
    for inst in q.module.instructions() {
        let w = inst.words();
        let (id, member, dec) = match (inst.opcode(), w.len()) {
            (O::Decorate, 3..) => (w[1], None, w[2]),
            (O::MemberDecorate, 4..) => (w[1], Some(w[2]), w[3]),
            _ => continue,
        };
        let m = member.unwrap_or(u32::MAX);
        let repeatable =
            dec == D::UserSemantic.0 || (member.is_none() && dec == D::FuncParamAttr.0);
        if !seen.insert((dec, id, m)) && !repeatable {
            let e = DecorationError::Repeated {
                id: Id(id),
                member,
                decoration: D(dec),
            };
            if !report(at_def(q, id, e)) {
                return false;
            }
            continue;
        }
        let pairs: &[(u32, u32)] = if member.is_some() {
            &PER_MEMBER
        } else {
            &PER_ID
        };
        for &(a, b) in pairs {
            let other = if dec == a {
                b
            } else if dec == b {
                a
            } else {
                continue;
            };
            if seen.contains(&(other, id, m)) {
                let e = DecorationError::Exclusive {
                    id: Id(id),
                    member,
                    decoration: D(dec),
                    other: D(other),
                };
                if !report(at_def(q, id, e)) {
                    return false;
                }
                break;
            }
        }
    }
    true
}

/// `CheckLinkageAttrOfFunctions`: a function declaration imports, a definition does
/// not.
fn linkage(cx: &mut Cx<'_, '_>, report: &mut dyn FnMut(Fault) -> bool) -> Go {
    let q = cx.q;
    let mut decs = Vec::new();
    // (function, has a block)
    let mut functions: Vec<(u32, bool)> = Vec::new();
    for inst in q.module.instructions() {
        match inst.opcode() {
            O::Function => functions.push((inst.words().get(2).copied().unwrap_or(0), false)),
            O::Label => {
                if let Some(f) = functions.last_mut() {
                    f.1 = true;
                }
            }
            _ => {}
        }
    }
    for (function, defined) in functions {
        let e = match (defined, imports(q, function, &mut decs)) {
            (false, false) => DecorationError::DeclarationWithoutImport {
                function: Id(function),
            },
            (true, true) => DecorationError::DefinitionWithImport {
                function: Id(function),
            },
            _ => continue,
        };
        if !report(at_def(q, function, e)) {
            return false;
        }
    }
    true
}

/// `CheckVulkanMemoryModelDeprecatedDecorations`: no `Coherent` nor `Volatile` under
/// the Vulkan memory model. spirv-val walks its definitions in hash order.
fn memory_model(cx: &mut Cx<'_, '_>, report: &mut dyn FnMut(Fault) -> bool) -> Go {
    let q = cx.q;
    let vulkan_model = q
        .module
        .instructions()
        .find(|i| i.opcode() == O::MemoryModel)
        .and_then(|i| i.words().get(2).copied())
        == Some(spv::MemoryModel::Vulkan.0);
    if !vulkan_model {
        return true;
    }
    let wanted: BTreeSet<u32> = q
        .decorations
        .targets()
        .filter(|&t| q.state.def(t).is_some())
        .filter(|&t| q.decorations.has(t, D::Coherent.0) || q.decorations.has(t, D::Volatile.0))
        .collect();
    let defs = q
        .module
        .instructions()
        .filter_map(|i| i.result_id().map(|id| id.0));
    let mut decs = Vec::new();
    for id in hash_order(defs, &wanted) {
        q.decorations
            .collect(id, &[D::Coherent.0, D::Volatile.0], &mut decs);
        let Some(d) = decs.first() else { continue };
        let e = DecorationError::VulkanMemoryModelDeprecated {
            decoration: D(d.kind),
            id: Id(id),
            member: (d.member != super::validation_state::NO_MEMBER).then_some(d.member),
        };
        if !report(at_def(q, id, e)) {
            return false;
        }
    }
    true
}

/// What this family checks (see [`coverage`](crate::validate::coverage)).
pub(crate) const COVERAGE: crate::validate::coverage::Family = {
    use crate::spv::Decoration as D;
    crate::validate::coverage::Family {
        // The per-decoration rules (`from_decoration`), the block layouts (`sizes`,
        // `block_layout`), buffers and descriptors (`buffers`), the entry points'
        // interfaces (`entry_points`), and the pairs that exclude each other, linkage,
        // and `Coherent`/`Volatile` here.
        decorations: &[
            D::Component,
            D::FPRoundingMode,
            D::NonReadable,
            D::NonWritable,
            D::Uniform,
            D::UniformId,
            D::NoSignedWrap,
            D::NoUnsignedWrap,
            D::Block,
            D::BufferBlock,
            D::Location,
            D::RelaxedPrecision,
            D::Offset,
            D::ArrayStride,
            D::MatrixStride,
            D::RowMajor,
            D::ColMajor,
            D::DescriptorSet,
            D::Binding,
            D::Restrict,
            D::Aliased,
            D::RestrictPointer,
            D::AliasedPointer,
            D::LinkageAttributes,
            D::Coherent,
            D::Volatile,
            D::Flat,
            D::NoPerspective,
            D::Sample,
            D::Centroid,
            D::BuiltIn,
        ],
        ..crate::validate::coverage::Family::new("decorations", "validate_decorations.cpp")
    }
};
