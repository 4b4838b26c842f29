//! spirv-val's literals pass (`LiteralsPass` in `validate_literals.cpp`): a literal
//! number narrower than its last word (an 8- or 16-bit value of `OpConstant`,
//! `OpSpecConstant` or an `OpSwitch` case) has its high-order bits zero, or
//! sign-extended for a signed integer type.

use super::Query;
use super::faults::faults;
use super::{Fault, Inst};
use crate::spv::Opcode as O;
use crate::types::Id;

faults! {
    /// A fault of spirv-val's literals pass (`validate_literals.cpp`).
    pub enum LiteralError {
        /// A literal whose high-order bits are not zero- or sign-extended.
        HighBits {
            /// The instruction's result id (0 when it has none).
            id: Id,
        } => "The high-order bits of a literal number in instruction <id> {id:n} must be 0 for a floating-point type, or 0 for an integer type with Signedness of 0, or sign extended when Signedness is 1",
    }
}

/// What the pass remembers across instructions.
#[derive(Debug, Default)]
pub(super) struct Literals;

/// The pass for one instruction.
#[inline(always)]
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>, st: &mut Literals) -> Result<(), Fault> {
    let _ = st;
    let w = |i: usize| inst.words.get(i).copied().unwrap_or(0);
    // The literals' type, and their words: the last word of each literal.
    let (ty, lasts): (u32, &[u32]) = match inst.opcode {
        O::Constant | O::SpecConstant => (w(1), inst.words.get(3..).unwrap_or(&[])),
        O::Switch => (q.type_of(w(1)), inst.words.get(3..).unwrap_or(&[])),
        _ => return Ok(()),
    };
    let (signed, width) = match q.opcode(ty) {
        O::TypeInt => (q.word(ty, 3).is_some_and(|s| s != 0), q.word(ty, 2)),
        O::TypeFloat => (false, q.word(ty, 2)),
        _ => return Ok(()),
    };
    let bits = width.unwrap_or(0) % 32;
    if bits == 0 {
        return Ok(());
    }
    // Narrow literals take one word: an OpConstant's is its last, an OpSwitch's every
    // other one (each is followed by its label).
    let step = if inst.opcode == O::Switch { 2 } else { 1 };
    for &word in lasts.iter().step_by(step) {
        if !upper_bits_ok(word, bits, signed) {
            return Err(LiteralError::HighBits {
                id: crate::types::Id(inst.result_id),
            }
            .into());
        }
    }
    Ok(())
}

/// `VerifyUpperBits`: the bits above the low `width` are zero, or copies of the sign
/// bit when `signed`.
fn upper_bits_ok(word: u32, width: u32, signed: bool) -> bool {
    let mask = u32::MAX << width;
    let upper = word & mask;
    if signed && word & (1 << (width - 1)) != 0 {
        upper == mask
    } else {
        upper == 0
    }
}

/// What this family checks (see [`coverage`](crate::validate::coverage)).
pub(crate) const COVERAGE: crate::validate::coverage::Family = crate::validate::coverage::Family {
    opcodes: {
        use crate::spv::Opcode as O;
        &[O::Constant, O::SpecConstant, O::Switch]
    },
    ..crate::validate::coverage::Family::new("literals", "validate_literals.cpp")
};
