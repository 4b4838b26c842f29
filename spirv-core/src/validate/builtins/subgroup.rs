//! spirv-val's Vulkan rules for the subgroup built-ins (beside
//! `rules.rs`): `SubgroupSize` and `SubgroupLocalInvocationId` (a 32-bit int
//! Input), the five `Subgroup…Mask`s (a 4-component 32-bit int vector Input), all
//! checked at their definition only, and `SubgroupId` and `NumSubgroups`, whose type is
//! checked at the definition and whose storage class and compute-only execution models
//! at each reference (as `simple_rules` has them). None may decorate a struct member.

use super::super::Fault;
use super::BuiltInError;
use super::rules::{Ty, class_fault, type_check, type_fault, vuid};
use super::{Check, Dec, Rule, Walk};
use crate::spv::{BuiltIn as B, StorageClass as SC};

/// Whether `b` is one of the built-ins this file checks at its definition.
pub(super) fn covers(b: B) -> bool {
    rules(b).is_some()
}

/// The type, its wording and the VUIDs of the storage-class and type faults
/// (`builtinVUIDInfo`), and whether rules are seeded for the references.
fn rules(b: B) -> Option<(Ty, &'static str, u32, u32, bool)> {
    let i32s = "32-bit int";
    let mask = "4-component 32-bit int vector";
    Some(match b {
        B::SubgroupLocalInvocationId => (Ty::I32, i32s, 4380, 4381, false),
        B::SubgroupSize => (Ty::I32, i32s, 4382, 4383, false),
        B::SubgroupEqMask => (Ty::I32Vec(4), mask, 4370, 4371, false),
        B::SubgroupGeMask => (Ty::I32Vec(4), mask, 4372, 4373, false),
        B::SubgroupGtMask => (Ty::I32Vec(4), mask, 4374, 4375, false),
        B::SubgroupLeMask => (Ty::I32Vec(4), mask, 4376, 4377, false),
        B::SubgroupLtMask => (Ty::I32Vec(4), mask, 4378, 4379, false),
        // spirv-val words the scalar as a vector here.
        B::NumSubgroups => (Ty::I32, "32-bit int vector", 4294, 4295, true),
        B::SubgroupId => (Ty::I32, "32-bit int vector", 4368, 4369, true),
        _ => return None,
    })
}

/// The checks at the definition (`ValidateI32InputAtDefinition`,
/// `ValidateI32Vec4InputAtDefinition`, `ValidateComputeI32InputAtDefinition`); then,
/// for `SubgroupId` and `NumSubgroups`, the rule at its own reference.
pub(super) fn definition(w: &mut Walk<'_, '_>, dec: Dec, id: u32) -> Result<(), Fault> {
    let b = B(dec.builtin);
    let Some((ty, text, class_vuid, ty_vuid, seeds)) = rules(b) else {
        return Ok(());
    };
    if dec.member >= 0 {
        return Err(w.fault(id, BuiltInError::MemberDecoration { builtin: b }));
    }
    if let Err(problem) = type_check(w, dec, id, ty)? {
        return Err(type_fault(w, id, b.0, vuid(ty_vuid), text, problem));
    }
    let rule = Rule {
        dec,
        built_in: id,
        referenced: id,
        check: Check::Own,
    };
    if seeds {
        return super::rules::reference(w, rule, id);
    }
    match super::rules::storage_class(w, id) {
        Some(c) if c != SC::Input.0 => Err(class_fault(w, &rule, id, vuid(class_vuid), "Input", c)),
        _ => Ok(()),
    }
}
