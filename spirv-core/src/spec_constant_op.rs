//! The opcodes `OpSpecConstantOp` may embed.
//!
//! The grammar gives `OpSpecConstantOp` one `LiteralSpecConstantOpInteger` operand and
//! leaves the list of valid opcodes to the specification's prose (§3.32.7,
//! `OpSpecConstantOp`; the cooperative-matrix extensions add their length queries). This module is the one
//! place that list lives. It is the list SPIRV-Tools 2025.5 accepts: `spirv-dis`
//! rejects any other opcode with "Invalid OpSpecConstantOp opcode: N" and `spirv-as`
//! rejects any other name. None of these instructions has an operand that embeds
//! another instruction, so reading an `OpSpecConstantOp` never nests.
//!
//! Names, not numbers: a grammar that renames one of these fails to compile.

use crate::spv::Opcode as O;

/// Every opcode `OpSpecConstantOp` may embed, in the specification's order.
pub const OPCODES: [O; 61] = [
    // Conversion.
    O::SConvert,
    O::FConvert,
    O::ConvertFToS,
    O::ConvertSToF,
    O::ConvertFToU,
    O::ConvertUToF,
    O::UConvert,
    O::ConvertPtrToU,
    O::ConvertUToPtr,
    O::GenericCastToPtr,
    O::PtrCastToGeneric,
    O::Bitcast,
    O::QuantizeToF16,
    // Arithmetic.
    O::SNegate,
    O::Not,
    O::IAdd,
    O::ISub,
    O::IMul,
    O::UDiv,
    O::SDiv,
    O::UMod,
    O::SRem,
    O::SMod,
    O::ShiftRightLogical,
    O::ShiftRightArithmetic,
    O::ShiftLeftLogical,
    O::BitwiseOr,
    O::BitwiseAnd,
    O::BitwiseXor,
    O::FNegate,
    O::FAdd,
    O::FSub,
    O::FMul,
    O::FDiv,
    O::FRem,
    O::FMod,
    // Composite.
    O::VectorShuffle,
    O::CompositeExtract,
    O::CompositeInsert,
    // Logical.
    O::LogicalOr,
    O::LogicalAnd,
    O::LogicalNot,
    O::LogicalEqual,
    O::LogicalNotEqual,
    O::Select,
    // Comparison.
    O::IEqual,
    O::INotEqual,
    O::ULessThan,
    O::SLessThan,
    O::UGreaterThan,
    O::SGreaterThan,
    O::ULessThanEqual,
    O::SLessThanEqual,
    O::UGreaterThanEqual,
    O::SGreaterThanEqual,
    // Memory.
    O::AccessChain,
    O::InBoundsAccessChain,
    O::PtrAccessChain,
    O::InBoundsPtrAccessChain,
    // Cooperative matrices.
    O::CooperativeMatrixLengthNV,
    O::CooperativeMatrixLengthKHR,
];

/// Whether `OpSpecConstantOp` may embed `opcode`.
pub fn allows(opcode: u32) -> bool {
    OPCODES.iter().any(|o| u32::from(o.0) == opcode)
}
