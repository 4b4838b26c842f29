//! spirv-val's invalid-type pass (`InvalidTypePass` in `validate_invalid_type.cpp`):
//! the instructions that take no `BFloat16KHR` or 8-bit float (`Float8E4M3EXT`,
//! `Float8E5M2EXT`) type — float arithmetic, derivatives, some atomics and group
//! instructions by their result type; `OpAtomicStore` by its value; the float class
//! tests and `OpGroupNonUniformAllEqual` by their operand; `OpMatrixTimesMatrix` by its
//! result's component type.

use super::faults::faults;
use super::{Fault, Inst, Query};
use crate::spv::{self, Opcode as O};

faults! {
    /// A fault of spirv-val's invalid-type pass (`validate_invalid_type.cpp`).
    pub enum InvalidTypeError {
        /// An instruction on a `BFloat16KHR` type.
        BFloat16 {
            /// The instruction.
            opcode: spv::Opcode,
        } => "{opcode} doesn't support BFloat16 type.",
        /// An instruction on an 8-bit float type.
        Fp8 {
            /// The instruction.
            opcode: spv::Opcode,
        } => "{opcode} doesn't support FP8 E4M3/E5M2 types.",
    }
}

/// Which of the special float encodings a scalar type has.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Special {
    BFloat16,
    Fp8,
}

/// The special encoding of float scalar `t`, if any.
fn scalar(q: &Query<'_>, t: u32) -> Option<Special> {
    if q.opcode(t) != O::TypeFloat {
        return None;
    }
    match spv::FPEncoding(q.word(t, 3)?) {
        spv::FPEncoding::BFloat16KHR => Some(Special::BFloat16),
        spv::FPEncoding::Float8E4M3EXT | spv::FPEncoding::Float8E5M2EXT => Some(Special::Fp8),
        _ => None,
    }
}

/// `IsBfloat16Type`/`IsFP8Type`: a scalar, a vector or (with `matrices`) a KHR
/// cooperative matrix of a special float.
fn special(q: &Query<'_>, t: u32, matrices: bool) -> Option<Special> {
    match q.opcode(t) {
        O::TypeFloat => scalar(q, t),
        O::TypeVector => scalar(q, q.component_type(t)),
        O::TypeCooperativeMatrixKHR if matrices => scalar(q, q.word(t, 2).unwrap_or(0)),
        _ => None,
    }
}

/// The pass for one instruction.
#[inline(always)]
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let t = match inst.opcode {
        O::ExtInst
        | O::FAdd
        | O::FSub
        | O::FMul
        | O::FDiv
        | O::FRem
        | O::FMod
        | O::FNegate
        | O::DPdx
        | O::DPdy
        | O::Fwidth
        | O::DPdxFine
        | O::DPdyFine
        | O::FwidthFine
        | O::DPdxCoarse
        | O::DPdyCoarse
        | O::FwidthCoarse
        | O::AtomicFAddEXT
        | O::AtomicFMinEXT
        | O::AtomicFMaxEXT
        | O::AtomicLoad
        | O::AtomicExchange
        | O::GroupNonUniformRotateKHR
        | O::GroupNonUniformBroadcast
        | O::GroupNonUniformShuffle
        | O::GroupNonUniformShuffleXor
        | O::GroupNonUniformShuffleUp
        | O::GroupNonUniformShuffleDown
        | O::GroupNonUniformQuadBroadcast
        | O::GroupNonUniformQuadSwap
        | O::GroupNonUniformBroadcastFirst
        | O::GroupNonUniformFAdd
        | O::GroupNonUniformFMul
        | O::GroupNonUniformFMin => special(q, inst.result_type(), true),
        // Vectors only: spirv-val asks `IsBfloat16VectorType` here.
        O::AtomicStore => {
            let t = q.operand_type(inst, 3);
            (q.opcode(t) == O::TypeVector)
                .then(|| scalar(q, q.component_type(t)))
                .flatten()
        }
        O::IsNan | O::IsInf | O::IsFinite | O::IsNormal | O::SignBitSet => {
            special(q, q.operand_type(inst, 2), true)
        }
        O::GroupNonUniformAllEqual => special(q, q.operand_type(inst, 3), true),
        O::MatrixTimesMatrix => q
            .matrix_info(inst.result_type())
            .and_then(|(_, _, _, c)| scalar(q, c)),
        _ => None,
    };
    let opcode = inst.opcode;
    match t {
        Some(Special::BFloat16) => Err(InvalidTypeError::BFloat16 { opcode }.into()),
        Some(Special::Fp8) => Err(InvalidTypeError::Fp8 { opcode }.into()),
        None => Ok(()),
    }
}

/// What this family checks (see [`coverage`](crate::validate::coverage)).
pub(crate) const COVERAGE: crate::validate::coverage::Family = crate::validate::coverage::Family {
    opcodes: {
        use crate::spv::Opcode as O;
        &[
            O::ExtInst,
            O::FAdd,
            O::FSub,
            O::FMul,
            O::FDiv,
            O::FRem,
            O::FMod,
            O::FNegate,
            O::DPdx,
            O::DPdy,
            O::Fwidth,
            O::DPdxFine,
            O::DPdyFine,
            O::FwidthFine,
            O::DPdxCoarse,
            O::DPdyCoarse,
            O::FwidthCoarse,
            O::AtomicFAddEXT,
            O::AtomicFMinEXT,
            O::AtomicFMaxEXT,
            O::AtomicLoad,
            O::AtomicExchange,
            O::AtomicStore,
            O::GroupNonUniformRotateKHR,
            O::GroupNonUniformBroadcast,
            O::GroupNonUniformShuffle,
            O::GroupNonUniformShuffleXor,
            O::GroupNonUniformShuffleUp,
            O::GroupNonUniformShuffleDown,
            O::GroupNonUniformQuadBroadcast,
            O::GroupNonUniformQuadSwap,
            O::GroupNonUniformBroadcastFirst,
            O::GroupNonUniformFAdd,
            O::GroupNonUniformFMul,
            O::GroupNonUniformFMin,
            O::IsNan,
            O::IsInf,
            O::IsFinite,
            O::IsNormal,
            O::SignBitSet,
            O::GroupNonUniformAllEqual,
            O::MatrixTimesMatrix,
        ]
    },
    ..crate::validate::coverage::Family::new("invalid types", "validate_invalid_type.cpp")
};
