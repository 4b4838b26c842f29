//! spirv-val's small-type uses (`ValidateSmallTypeUses` in
//! `validate_small_type_uses.cpp`): in a shader, a result whose type holds an 8- or
//! 16-bit integer or a 16-bit float whose full-use capability (`Int8`, `Int16`,
//! `Float16`) is not declared may only be stored, converted by width, copied or
//! decorated. spirv-val checks each result in module order and reports its first
//! other use.

use super::faults::faults;
use super::validation_state::{IdBits, OperandMemo, memoized};
use super::{Fault, Query};
use crate::__private::Vec;
use crate::grammar::KindClass;
use crate::spv::{self, Opcode as O};
use alloc::collections::BTreeMap;

faults! {
    /// A fault of spirv-val's small-type uses (`validate_small_type_uses.cpp`).
    pub enum SmallTypeError {
        /// A use of a limited-use 8- or 16-bit result other than a store, a width
        /// conversion, a copy or a decoration.
        InvalidUse => "Invalid use of 8- or 16-bit result",
    }
}

/// The uses a limited-use result may have.
fn allowed(op: O) -> bool {
    matches!(
        op,
        O::Decorate
            | O::DecorateId
            | O::CopyObject
            | O::Store
            | O::FConvert
            | O::UConvert
            | O::SConvert
    )
}

/// Checks the module; hands each fault to `report`, which says whether to go on.
pub(super) fn check(q: &Query<'_>, report: &mut dyn FnMut(Fault) -> bool) {
    if !q.state.has_capability(spv::Capability::Shader.0) || q.limited_use_scalars() == 0 {
        return;
    }
    // The results spirv-val asks about, by their definition's position.
    let mut limited: Vec<(u32, u32)> = Vec::new();
    let mut ids = IdBits::new(q.state);
    for (id, def) in q.state.defs.iter() {
        let t = def.type_id;
        if t != 0 && q.contains_limited_use(t) && !q.is_pointer_type(t) {
            limited.push((def.index, id));
            ids.insert(id);
        }
    }
    if limited.is_empty() {
        return;
    }
    limited.sort_unstable();
    // The first use of each that is not allowed (uses are in module order).
    let mut first_bad: BTreeMap<u32, u32> = BTreeMap::new();
    let mut operands = OperandMemo::default();
    for index in 0..q.module.len() {
        let Some(raw) = q.module.instruction(index) else {
            continue;
        };
        if allowed(raw.opcode()) || !ids.may_name(raw.words()) {
            continue;
        }
        let Some(inst) = memoized(q.module, q.state, index, &mut operands) else {
            continue;
        };
        for op in inst.operands {
            if !matches!(op.kind.class, KindClass::Id | KindClass::ResultType) {
                continue;
            }
            let Some(&id) = inst.words.get(op.offset) else {
                continue;
            };
            if ids.may_hold(id) && q.state.def(id).is_some() {
                first_bad.entry(id).or_insert(index as u32);
            }
        }
    }
    for (_, id) in limited {
        if let Some(&at) = first_bad.get(&id) {
            let kind = super::ValidationErrorKind::SmallType(SmallTypeError::InvalidUse);
            if !report(Fault::at(kind, at)) {
                return;
            }
        }
    }
}

/// What this family checks (see [`coverage`](crate::validate::coverage)).
pub(crate) const COVERAGE: crate::validate::coverage::Family =
    crate::validate::coverage::Family::new("small-type uses", "validate_small_type_uses.cpp");
