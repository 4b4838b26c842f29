//! spirv-val's type pass (`TypePass` in `validate_type.cpp`): non-aggregate types are
//! declared once. Its rules for each type's operands are not here yet.

use super::error::ErrorKind;
use super::query::Query;
use super::{Fault, Inst};
use crate::__private::Vec;
use crate::grammar::KindClass;
use crate::spirv_tools::generates_type;
use crate::spv::Opcode as O;
use crate::types::Id;
use alloc::collections::BTreeSet;

/// What the type pass remembers across instructions.
#[derive(Debug, Default)]
pub(super) struct Types {
    /// The non-aggregate types seen so far, by opcode and operands.
    unique: BTreeSet<Vec<u32>>,
}

/// The type pass for one instruction.
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>, st: &mut Types) -> Result<(), Fault> {
    let op = inst.opcode;
    if !(generates_type(op) || op == O::TypeForwardPointer) {
        return Ok(());
    }
    let aggregate = matches!(
        op,
        O::TypeArray
            | O::TypeRuntimeArray
            | O::TypeNodePayloadArrayAMDX
            | O::TypeStruct
            | O::TypePointer
            | O::TypeUntypedPointerKHR
    );
    if !aggregate
        && !q
            .state
            .has_extension("SPV_VALIDATOR_ignore_type_decl_unique")
    {
        // The opcode and every operand word but the result id.
        let mut key = Vec::with_capacity(inst.words.len());
        key.push(u32::from(op.0));
        for o in inst.operands {
            if o.kind.class != KindClass::Result {
                key.extend_from_slice(&inst.words[o.offset..o.offset + o.len]);
            }
        }
        if !st.unique.insert(key) {
            return Err(ErrorKind::DuplicateType {
                opcode: op,
                id: Id(inst.result_id),
            }
            .into());
        }
    }
    Ok(())
}

/// A fault of spirv-val's type, constant and literal rules, with what it involves.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum TypeError {}

impl TypeError {
    /// spirv-val's message.
    pub(super) fn write(
        &self,
        out: &mut dyn super::error::Out,
        names: &super::error::Namer<'_>,
    ) -> core::fmt::Result {
        let _ = (out, names);
        match *self {}
    }

    /// The ids the message names, in order.
    pub(super) fn ids(&self) -> crate::__private::Vec<crate::types::Id> {
        match *self {}
    }
}
