//! spirv-val's debug pass (`DebugPass` in `validate_debug.cpp`): `OpMemberName` names
//! a member a struct has; `OpLine` names an `OpString`.

use super::Query;
use super::error::ErrorKind;
use super::type_error::TypeError;
use super::{Fault, Inst};
use crate::spv::Opcode as O;
use crate::types::Id;

/// What the pass remembers across instructions.
#[derive(Debug, Default)]
pub(super) struct Debug;

/// The pass for one instruction.
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
                    TypeError::MemberNameIndex(member, Id(ty))
                }
                _ => TypeError::MemberNameNotStruct(Id(ty)),
            }
        }
        O::Line if q.opcode(w(1)) != O::String => TypeError::LineNotString(Id(w(1))),
        _ => return Ok(()),
    };
    Err(ErrorKind::Type(e).into())
}
