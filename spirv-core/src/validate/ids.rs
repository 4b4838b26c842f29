//! spirv-val's id pass (`IdPass` in `source/val/validate_id.cpp`): every id an
//! instruction uses is defined before it, or is one of the operands that may refer
//! forward; a result type is a type; values are not types, and have types where the
//! instruction needs them.

use super::Inst;
use super::State;
use super::error::ValidationErrorKind;
use crate::grammar::KindClass;
use crate::spirv_tools::{self as opcodes, UserFacts};
use crate::spv::Opcode as O;
use crate::types::Id;

/// Checks the ids `inst` uses; records forward references.
pub(super) fn check(state: &mut State<'_>, inst: &Inst<'_>) -> Result<(), ValidationErrorKind> {
    let facts = UserFacts {
        opcode: inst.opcode,
        debug_info: inst.set.is_some_and(|s| s.is_debug_info()),
        non_semantic: inst.set.is_some_and(|s| s.is_non_semantic()),
        embedded: (inst.opcode == O::SpecConstantOp)
            .then(|| inst.words.get(3).map(|&w| O(w as u16)))
            .flatten(),
    };
    let forward_refs = inst.opcode == O::ExtInstWithForwardRefsKHR;
    let may_refer_forward = |index: usize| match inst.set {
        Some(set) if set.is_debug_info() => {
            let number = inst.words.get(4).copied().unwrap_or(0);
            set.debug_info_may_refer_forward(number, index, forward_refs)
        }
        _ => opcodes::may_refer_forward(inst.opcode, index),
    };
    let mut result_id = 0;
    let mut saw_forward = false;
    for (i, op) in inst.operands.iter().enumerate() {
        let word = inst.words[op.offset];
        match op.kind.class {
            KindClass::Result => result_id = word,
            KindClass::Id => match state.def(word) {
                Some(def) => {
                    let def_is_type = opcodes::generates_type(def.opcode);
                    if def_is_type && !facts.can_have_type_operand() {
                        return Err(ValidationErrorKind::CannotBeType { id: Id(word) });
                    }
                    if def.type_id == 0 && !def_is_type && facts.requires_type_operand() {
                        return Err(ValidationErrorKind::RequiresType { id: Id(word) });
                    }
                    if def.non_semantic && !facts.non_semantic {
                        return Err(ValidationErrorKind::NonSemanticOperand { id: Id(word) });
                    }
                }
                None if may_refer_forward(i) => {
                    saw_forward = true;
                    if opcodes::generates_type(inst.opcode)
                        && !state.forward_pointers.contains(&word)
                    {
                        return Err(ValidationErrorKind::RequiresPreviousDefinition {
                            id: Id(word),
                        });
                    }
                    state.forward.insert(word);
                }
                None => return Err(ValidationErrorKind::NotDefined { id: Id(word) }),
            },
            KindClass::ResultType => match state.def(word) {
                Some(def) if opcodes::generates_type(def.opcode) => {}
                Some(_) => return Err(ValidationErrorKind::NotAType { id: Id(word) }),
                None => return Err(ValidationErrorKind::NotDefined { id: Id(word) }),
            },
            KindClass::ExtInstNumber if forward_refs && !facts.non_semantic => {
                return Err(ValidationErrorKind::ForwardRefsInSemantic);
            }
            _ => {}
        }
    }
    if forward_refs && !saw_forward {
        return Err(ValidationErrorKind::ForwardRefsMissing);
    }
    if result_id != 0 {
        state.forward.remove(result_id);
    }
    Ok(())
}

/// What this family checks (see [`coverage`](crate::validate::coverage)).
pub(crate) const COVERAGE: crate::validate::coverage::Family =
    crate::validate::coverage::Family::new("ids", "validate_id.cpp");
