//! spirv-dis's error messages for malformed instructions, word for word.

use spirv_core::grammar::{InstructionInfo, KindClass};
use spirv_core::{DecodeErrorKind, spv};

pub(super) fn message_for(
    kind: &DecodeErrorKind,
    info: Option<&InstructionInfo>,
    offset: usize,
    operand_words: usize,
    word_count: usize,
) -> String {
    let opname = info.map_or("", |i| i.opname);
    match kind {
        DecodeErrorKind::ZeroWordCount => "Invalid instruction word count: 0".into(),
        DecodeErrorKind::UnknownOpcode { opcode } => format!("Invalid opcode: {opcode}"),
        DecodeErrorKind::InvalidSpecConstantOpcode { opcode } => {
            format!("Invalid OpSpecConstantOp opcode: {opcode}")
        }
        DecodeErrorKind::ExtraOperands { .. } => format!(
            "Invalid instruction {opname} starting at word {offset}: expected no more operands after {} words, but stated word count is {word_count}.",
            operand_words + 1
        ),
        DecodeErrorKind::MissingOperand { .. } => format!(
            "End of input reached while decoding {opname} starting at word {offset}: expected more operands after {word_count} words."
        ),
        DecodeErrorKind::UnterminatedString => format!(
            "End of input reached while decoding {opname} starting at word {offset}: truncated literal string operand at word offset {}.",
            operand_words + 1
        ),
        DecodeErrorKind::InstructionPastEnd {
            word_count,
            available,
        } => format!(
            "End of input reached while decoding {opname} starting at word {offset}: instruction word count {word_count} but only {available} words left."
        ),
        DecodeErrorKind::UnknownEnumerant { kind, value } => {
            format!("Invalid {} operand: {value}", crate::text::kind_words(kind))
        }
        DecodeErrorKind::IdRedefined { id } => format!("Id {id} is defined more than once"),
        DecodeErrorKind::NotANumericType { id } if info.is_some_and(|i| i.switch_literals) => {
            format!("Invalid OpSwitch: selector id {id} has no type")
        }
        DecodeErrorKind::NotANumericType { id } => {
            format!("Type Id {id} is not a scalar numeric type")
        }
        DecodeErrorKind::UnknownExtInstSetId { id } => {
            format!("OpExtInst set Id {id} does not reference an OpExtInstImport result Id")
        }
        other => other.to_string(),
    }
}

/// spirv-dis's description of an operand kind in "missing … operand" messages.
pub(super) fn operand_description(kind: &str) -> String {
    // The core grammar's kinds by their class; others by name, spaced out.
    match spv::GRAMMAR.kind(kind).map(|k| k.class) {
        Some(KindClass::ResultType) => "type ID".into(),
        Some(KindClass::Result) => "result ID".into(),
        Some(KindClass::Id) => "ID".into(),
        Some(
            KindClass::Integer
            | KindClass::ContextNumber
            | KindClass::ExtInstNumber
            | KindClass::SpecConstantOpcode
            | KindClass::Float,
        ) => "literal number".into(),
        Some(KindClass::String) => "literal string".into(),
        _ => crate::text::kind_words(kind),
    }
}
