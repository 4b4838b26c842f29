//! spirv-dis's error messages for malformed instructions, word for word.

use spirv_core::grammar::{InstructionInfo, KindClass};
// SPIRV-Tools' list of type-generating opcodes, shared by the sibling crates.
use spirv_core::__private::opt::generates_type;
use spirv_core::walk::Ids;
use spirv_core::{DecodeErrorKind, spv};

pub(super) fn message_for(
    kind: &DecodeErrorKind,
    info: Option<&InstructionInfo>,
    words: &[u32],
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
            let set = ext_inst_import(words, offset, info);
            let words = crate::text::kind_description(set.as_deref(), kind);
            let operand = spv::GRAMMAR.kind(kind);
            match operand.map(|k| k.class) {
                // The parser names a mask's highest bit it does not know.
                Some(KindClass::BitEnum) => {
                    let bit = (0..32).rev().map(|b| 1u32 << b).find(|&m| {
                        value & m != 0 && operand.and_then(|k| k.enumerant(m)).is_none()
                    });
                    match bit {
                        Some(m) => format!(
                            "Invalid {words} operand: {value} has invalid mask component {m}"
                        ),
                        None => format!("Invalid {words} operand: {value}"),
                    }
                }
                _ if *kind == "SourceLanguage" => format!(
                    "Invalid {words} operand: {value}, if you are creating a new source language please use value 0 (Unknown) and when ready, add your source language to SPIRV-Headers"
                ),
                _ => format!("Invalid {words} operand: {value}"),
            }
        }
        DecodeErrorKind::IdRedefined { id } => format!("Id {id} is defined more than once"),
        DecodeErrorKind::NotANumericType { id } if info.is_some_and(|i| i.switch_literals) => {
            // `id` is the selector: what it is, or what its type is.
            let before = words.get(..offset).unwrap_or(words);
            match definition(before, *id) {
                Some((_, Some(ty))) => match definition(before, ty) {
                    Some((op, _)) if op == spv::Opcode::TypeFloat => {
                        format!("Invalid OpSwitch: selector id {id} is not a scalar integer")
                    }
                    t => type_message(ty, t),
                },
                Some((op, None)) if generates_type(op) => {
                    format!("Invalid OpSwitch: selector id {id} is a type, not a value")
                }
                _ => format!("Invalid OpSwitch: selector id {id} has no type"),
            }
        }
        DecodeErrorKind::NotANumericType { id } => {
            type_message(*id, definition(words.get(..offset).unwrap_or(words), *id))
        }
        DecodeErrorKind::UnknownExtInstSetId { id } => {
            format!("OpExtInst set Id {id} does not reference an OpExtInstImport result Id")
        }
        other => other.to_string(),
    }
}

/// The parser's message for a type id that cannot size a literal: not a type at all,
/// or a type that is not a scalar number.
fn type_message(id: u32, def: Option<(spv::Opcode, Option<u32>)>) -> String {
    match def {
        Some((op, None)) if generates_type(op) => {
            format!("Type Id {id} is not a scalar numeric type")
        }
        _ => format!("Type Id {id} is not a type"),
    }
}

/// The opcode and result type of the instruction among `words` (a module up to the
/// failing instruction) that defines `id`. Only looked for when reporting an error.
fn definition(words: &[u32], id: u32) -> Option<(spv::Opcode, Option<u32>)> {
    let insts = spirv_core::binary::RawInstructions::new(words.get(5..)?, 5);
    for inst in insts.map_while(Result::ok) {
        let Some(info) = spv::GRAMMAR.instruction(u32::from(inst.opcode)) else {
            continue;
        };
        let at = |class| {
            info.operands
                .iter()
                .position(|o| o.kind.class == class)
                .and_then(|i| inst.operands.get(i).copied())
        };
        if at(KindClass::Result) == Some(id) {
            return Some((spv::Opcode(inst.opcode), at(KindClass::ResultType)));
        }
    }
    None
}

/// The import name of the set the `OpExtInst` at `offset` names, when `info` is an
/// `OpExtInst`; only looked for when reporting an error.
fn ext_inst_import(words: &[u32], offset: usize, info: Option<&InstructionInfo>) -> Option<String> {
    let op = spv::Opcode(u16::try_from(info?.opcode).ok()?);
    if !matches!(
        op,
        spv::Opcode::ExtInst | spv::Opcode::ExtInstWithForwardRefsKHR
    ) {
        return None;
    }
    let set = *words.get(offset + 3)?;
    let insts = spirv_core::binary::RawInstructions::new(words.get(5..offset)?, 5);
    insts.map_while(Result::ok).find_map(|inst| {
        let name = inst.operands.get(1..)?;
        (inst.opcode == spv::Opcode::ExtInstImport.0 && inst.operands.first() == Some(&set))
            .then(|| String::from_utf8_lossy(&spirv_core::codec::string_operand(name)).into_owned())
    })
}

/// spirv-dis's description of an operand kind in "missing … operand" messages
/// (`spvOperandTypeStr`).
pub(super) fn operand_description(kind: &str) -> String {
    match kind {
        "IdScope" => return "scope ID".into(),
        "IdMemorySemantics" => return "memory semantics ID".into(),
        _ => {}
    }
    // The core grammar's kinds by their class; others by name, spaced out.
    match spv::GRAMMAR.kind(kind).map(|k| k.class) {
        Some(KindClass::ResultType) => "type ID".into(),
        Some(KindClass::Result) => "result ID".into(),
        Some(KindClass::Id) => "ID".into(),
        Some(KindClass::ContextNumber) => "possibly multi-word literal number".into(),
        Some(KindClass::ExtInstNumber) => "extension instruction number".into(),
        Some(KindClass::SpecConstantOpcode) => "OpSpecConstantOp opcode".into(),
        Some(KindClass::Integer | KindClass::Float) => "literal number".into(),
        Some(KindClass::String) => "literal string".into(),
        _ => crate::text::kind_description(None, kind),
    }
}

/// The words the parser gives the typed literal of `OpConstant`, `OpSpecConstant` or
/// an `OpSwitch` case (its type's width rounded up to whole words, in a 16-bit
/// counter); `None` for other instructions or a type it does not know.
pub(super) fn literal_words(info: &InstructionInfo, ops: &[u32], ids: &Ids) -> Option<usize> {
    let first = spirv_core::Id(ops.first().copied()?);
    let t = if info.switch_literals {
        ids.value_number_type(first)?
    } else {
        ids.number_type(first)?
    };
    Some(usize::from(t.width().div_ceil(32) as u16))
}

/// The parser's name for the typed literal of `info`'s instruction.
pub(super) fn literal_description(info: &InstructionInfo) -> &'static str {
    if info.switch_literals {
        "possibly multi-word literal integer"
    } else {
        "possibly multi-word literal number"
    }
}
