//! spirv-val's debug pass (`DebugPass` in `validate_debug.cpp`): `OpMemberName` names
//! a member a struct has; `OpLine` names an `OpString`.

use super::Query;
use super::faults::faults;
use super::{Fault, Inst};
use crate::spv::Opcode as O;
use crate::types::Id;

faults! {
    /// A fault of spirv-val's debug pass (`validate_debug.cpp`).
    pub enum DebugError {
        /// `OpMemberName` of something other than a struct.
        MemberNameNotStruct {
            /// The target.
            target: Id,
        } => "OpMemberName Type <id> {target} is not a struct type.",
        /// `OpMemberName` of a member the struct does not have.
        MemberNameIndex {
            /// The member's number (which spirv-val names as it names an id).
            member: u32,
            /// The struct.
            target: Id,
        } => "OpMemberName Member <id> {member:id} index is larger than Type <id> {target}s member count.",
        /// `OpLine` whose file is not an `OpString`.
        LineNotString {
            /// The file.
            file: Id,
        } => "OpLine Target <id> {file} is not an OpString.",
    }
}

/// What the pass remembers across instructions.
#[derive(Debug, Default)]
pub(super) struct Debug;

/// The pass for one instruction.
#[inline(always)]
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>, st: &mut Debug) -> Result<(), Fault> {
    let _ = st;
    let w = |i: usize| inst.words.get(i).copied().unwrap_or(0);
    let e = match inst.opcode {
        O::MemberName => {
            let ty = w(1);
            let member = w(2);
            match q.def(ty) {
                Some(d) if d.opcode() == O::TypeStruct => {
                    let count = d.words().len().saturating_sub(2);
                    if count > member as usize {
                        return Ok(());
                    }
                    DebugError::MemberNameIndex {
                        member,
                        target: Id(ty),
                    }
                }
                _ => DebugError::MemberNameNotStruct { target: Id(ty) },
            }
        }
        O::Line if q.opcode(w(1)) != O::String => DebugError::LineNotString { file: Id(w(1)) },
        _ => return Ok(()),
    };
    Err(e.into())
}

/// What this family checks (see [`coverage`](crate::validate::coverage)).
pub(crate) const COVERAGE: crate::validate::coverage::Family = crate::validate::coverage::Family {
    opcodes: {
        use crate::spv::Opcode as O;
        &[O::MemberName, O::Line]
    },
    ..crate::validate::coverage::Family::new("debug", "validate_debug.cpp")
};
