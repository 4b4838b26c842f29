//! `--freeze-spec-const` (spirv-opt 2025.5's `FreezeSpecConstantValuePass`) and
//! `--set-spec-const-default-value` (`SetSpecConstantDefaultValuePass`): the passes,
//! and the reading of the latter's `"<spec id>:<value> …"` argument with spirv-opt's
//! rules and messages.

use super::Edits;
use super::NumberParser;

use spirv_core::Id;
use spirv_core::edit::{DefIndex, EditError, Editor, InstId};
use spirv_core::spv::Opcode as O;
use spirv_core::walk::NumberType;
use spirv_core::{Module, Section};
use std::collections::BTreeMap;

/// The `SpecId` decoration's number.
const SPEC_ID: u32 = 1;

/// The instruction's words with another opcode.
fn with_opcode(words: &[u32], op: O) -> Vec<u32> {
    let mut w = words.to_vec();
    if let Some(first) = w.first_mut() {
        *first = (*first & 0xffff_0000) | u32::from(op.0);
    }
    w
}

/// `--freeze-spec-const`: `OpSpecConstant`, `OpSpecConstantTrue` and
/// `OpSpecConstantFalse` become `OpConstant`, `OpConstantTrue` and `OpConstantFalse`,
/// and every `OpDecorate … SpecId` goes (whatever it decorates). Composite and
/// operation spec constants stay as they are.
///
/// # Errors
/// The edited module does not read.
pub(crate) fn freeze_spec_const_edits<'m>(module: &'m Module) -> Result<Edits<'m>, EditError> {
    let mut editor = Editor::new(module);
    let mut changed = false;
    for inst in module.instructions() {
        let to = match inst.opcode() {
            O::SpecConstant => O::Constant,
            O::SpecConstantTrue => O::ConstantTrue,
            O::SpecConstantFalse => O::ConstantFalse,
            O::Decorate => {
                if inst.operands().get(1) == Some(&SPEC_ID) {
                    editor.remove(InstId::from(inst.index()));
                    changed = true;
                }
                continue;
            }
            _ => continue,
        };
        editor.replace_words(InstId::from(inst.index()), &with_opcode(inst.words(), to))?;
        changed = true;
    }
    if !changed {
        return Ok(Edits::Unchanged);
    }
    Ok(Edits::edited(editor, true))
}

/// What spirv-opt's type manager makes of a spec constant's type, for reading a value.
#[derive(Debug, Clone, Copy)]
enum ValueType {
    Bool,
    Number(NumberType),
    Other,
}

/// The type of the value `inst` (an instruction index) defines, or `None` when it has
/// no result type or the type is not defined (spirv-opt 2025.5 crashes there).
fn value_type(module: &Module, defs: &DefIndex, inst: usize) -> Option<ValueType> {
    let inst = module.instruction(inst)?;
    let info = inst.info()?;
    let at = info
        .operands
        .iter()
        .position(|o| o.kind.class == spirv_core::grammar::KindClass::ResultType)?;
    let ty = *inst.operands().get(at)?;
    let def = module.instruction(defs.get(Id(ty))?)?;
    let ops = def.operands();
    Some(match (def.opcode(), ops.get(1), ops.get(2)) {
        (O::TypeBool, ..) => ValueType::Bool,
        (O::TypeInt, Some(&width), Some(&signedness)) => ValueType::Number(NumberType::Int {
            width,
            signed: signedness != 0,
        }),
        // spirv-opt reads values without the type's encoding: 16-bit floats as IEEE
        // halves, 8-bit floats not at all.
        (O::TypeFloat, Some(&width), _) => ValueType::Number(NumberType::Float {
            width,
            encoding: None,
        }),
        _ => ValueType::Other,
    })
}

/// The words of the value `text` for a spec constant of type `ty`, empty when it is
/// not one (spirv-opt's `ParseDefaultValueStr`).
fn default_value_words(text: &str, ty: ValueType, numbers: &dyn NumberParser) -> Vec<u32> {
    match ty {
        ValueType::Bool if text == "true" => vec![1],
        ValueType::Bool if text == "false" => vec![0],
        ValueType::Number(n) => numbers.encode(text, n).unwrap_or_default(),
        ValueType::Bool | ValueType::Other => Vec::new(),
    }
}

/// Whether spirv-opt lets the opcode carry a `SpecId` (`CanHaveSpecIdDecoration`).
fn can_have_spec_id(op: O) -> bool {
    matches!(
        op,
        O::SpecConstant | O::SpecConstantTrue | O::SpecConstantFalse
    )
}

/// For each decoration group, the first `OpGroupDecorate` that names it.
fn first_group_decorates(module: &Module) -> BTreeMap<u32, usize> {
    let mut first = BTreeMap::new();
    for inst in module.instructions() {
        if inst.opcode() == O::GroupDecorate {
            for &id in inst.operands() {
                first.entry(id).or_insert(inst.index());
            }
        }
    }
    first
}

/// The spec constant a `SpecId` on decoration group `group` reaches: the one target of
/// the first `OpGroupDecorate` applying it, if every defined target is that same
/// `OpSpecConstant{,True,False}` (spirv-opt's `GetSpecIdTargetFromDecorationGroup`).
fn group_target(
    module: &Module,
    defs: &DefIndex,
    group: u32,
    group_decorates: &BTreeMap<u32, usize>,
) -> Option<usize> {
    let apply = module.instruction(*group_decorates.get(&group)?)?;
    let mut target = None;
    for &id in apply.operands().get(1..).unwrap_or(&[]) {
        let Some(candidate) = defs.get(Id(id)) else {
            continue;
        };
        match target {
            None if can_have_spec_id(module.instruction(candidate)?.opcode()) => {
                target = Some(candidate);
            }
            None => return None,
            Some(t) if t != candidate => return None,
            Some(_) => {}
        }
    }
    target
}

/// `--set-spec-const-default-value`: for each `OpDecorate <target> SpecId <n>` (with no
/// other operand) whose `n` has a value in `values`, sets the default of the spec
/// constant it decorates, directly or through a decoration group. Values are read for
/// the constant's type: `true` or `false` for a boolean, a number by `numbers` for an
/// integer or float. A value that does not read, a type it does not fit, or a target
/// that is not `OpSpecConstant{,True,False}` is skipped without a word, as spirv-opt
/// skips it. With several pairs for one spec id, the last counts.
///
/// # Errors
/// The edited module does not read.
pub(crate) fn set_spec_const_default_value_edits<'m>(
    module: &'m Module,
    values: &[(u32, String)],
    numbers: &dyn NumberParser,
) -> Result<Edits<'m>, EditError> {
    let values: BTreeMap<u32, &str> = values.iter().map(|(k, v)| (*k, v.as_str())).collect();
    if values.is_empty() {
        return Ok(Edits::Unchanged);
    }
    let defs = DefIndex::new(module);
    let mut group_decorates = None;
    // The spec constant each decoration group reaches (the same for every `SpecId`
    // on the group, so each group's targets are read once).
    let mut group_targets: BTreeMap<u32, Option<usize>> = BTreeMap::new();
    // The current words of the spec constants set so far.
    let mut current: BTreeMap<usize, Vec<u32>> = BTreeMap::new();
    let mut changed = false;
    for inst in module.section(Section::Annotation) {
        let ops = inst.operands();
        if inst.opcode() != O::Decorate || ops.len() != 3 || ops[1] != SPEC_ID {
            continue;
        }
        let Some(value) = values.get(&ops[2]) else {
            continue;
        };
        let Some(target) = defs.get(Id(ops[0])) else {
            continue;
        };
        let Some(target_inst) = module.instruction(target) else {
            continue;
        };
        let spec = if target_inst.opcode() == O::DecorationGroup {
            let firsts = group_decorates.get_or_insert_with(|| first_group_decorates(module));
            let reached = *group_targets
                .entry(ops[0])
                .or_insert_with(|| group_target(module, &defs, ops[0], firsts));
            match reached {
                Some(s) => s,
                None => continue,
            }
        } else {
            target
        };
        let Some(ty) = value_type(module, &defs, spec) else {
            continue;
        };
        let bits = default_value_words(value, ty, numbers);
        let Some(&first_bit) = bits.first() else {
            continue;
        };
        let Some(spec_inst) = module.instruction(spec) else {
            continue;
        };
        let words = current
            .entry(spec)
            .or_insert_with(|| spec_inst.words().to_vec());
        let op = O(words[0] as u16);
        match op {
            // Set only when the value differs (spirv-opt compares the words).
            O::SpecConstant if words.len() >= 4 && words[3..] != bits[..] => {
                words.truncate(3);
                words.extend_from_slice(&bits);
                words[0] = ((words.len() as u32) << 16) | u32::from(op.0);
                changed = true;
            }
            O::SpecConstantTrue if first_bit == 0 => {
                *words = with_opcode(words, O::SpecConstantFalse);
                changed = true;
            }
            O::SpecConstantFalse if first_bit != 0 => {
                *words = with_opcode(words, O::SpecConstantTrue);
                changed = true;
            }
            _ => {}
        }
    }
    if !changed {
        return Ok(Edits::Unchanged);
    }
    let mut editor = Editor::new(module);
    for (index, words) in current {
        if module
            .instruction(index)
            .is_some_and(|i| i.words() != words)
        {
            editor.replace_words(InstId::from(index), &words)?;
        }
    }
    Ok(Edits::edited(editor, true))
}

/// Whether spirv-opt's argument reader takes `b` as a separator: `:`, NUL or C
/// whitespace.
fn is_separator(b: u8) -> bool {
    matches!(b, b':' | 0) || is_space(b)
}

/// C's `isspace` in the C locale.
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// A spec id as spirv-opt reads it (`utils::ParseNumber<uint32_t>`, a C++ stream in
/// base 0): an optional sign, then decimal, octal after `0`, or hex after `0x`/`0X`,
/// all of the text, at most `u32::MAX`; a `-` only before zero.
fn parse_spec_id(text: &[u8]) -> Option<u32> {
    let (negative, rest) = match text.first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let (radix, digits) = match rest {
        [b'0', b'x' | b'X', hex @ ..] => (16, hex),
        [b'0', octal @ ..] if !octal.is_empty() => (8, octal),
        _ => (10, rest),
    };
    if digits.is_empty() {
        return None;
    }
    let mut value: u32 = 0;
    for &d in digits {
        let digit = char::from(d).to_digit(radix)?;
        value = value.checked_mul(radix)?.checked_add(digit)?;
    }
    if negative && value != 0 {
        return None;
    }
    Some(value)
}

/// The `<spec id>:<value>` pairs of `--set-spec-const-default-value`'s argument, read
/// as spirv-opt reads them (`ParseDefaultValuesString`): pairs separated by
/// whitespace, no space around the `:`, each spec id once, no empty value. The errors
/// are spirv-opt's messages.
pub(crate) fn parse_default_values(text: &str) -> Result<Vec<(u32, String)>, String> {
    if text.is_empty() {
        return Err(String::from(
            "Invalid spec constant value string ''. Expected a string of <spec id>:<default value> pairs.",
        ));
    }
    // spirv-opt reads a C string: it ends at the first NUL.
    let text = text.split('\0').next().unwrap_or("");
    let invalid = || format!("Invalid argument for --set-spec-const-default-value: {text}");
    let bytes = text.as_bytes();
    let mut pairs: Vec<(u32, String)> = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    let mut at = 0;
    while at < bytes.len() {
        while at < bytes.len() && is_space(bytes[at]) {
            at += 1;
        }
        let begin = at;
        while at < bytes.len() && !is_separator(bytes[at]) {
            at += 1;
        }
        let id = parse_spec_id(&bytes[begin..at]).ok_or_else(invalid)?;
        if !seen.insert(id) {
            return Err(invalid());
        }
        if bytes.get(at) != Some(&b':') {
            return Err(invalid());
        }
        at += 1;
        let begin = at;
        while at < bytes.len() && !is_separator(bytes[at]) {
            at += 1;
        }
        if at == begin {
            return Err(invalid());
        }
        // Separators are ASCII, so both ends are character boundaries.
        pairs.push((id, String::from(&text[begin..at])));
        while at < bytes.len() && is_space(bytes[at]) {
            at += 1;
        }
    }
    Ok(pairs)
}
