//! Readers for one item of the grammar: an instruction, an operand kind with its
//! enumerants, an operand list, availability metadata.

use super::parse::Errors;
use super::*;
use serde_json::{Map, Value};
use std::collections::HashMap;

/// The keys each kind of object may have: those the readers here use, and the few the
/// schema defines that the expansion has no use for. Anything else is recorded in
/// [`Grammar::unknown_keys`], not refused (see there).
pub(super) const ROOT_KEYS: &[&str] = &[
    "magic_number",
    "major_version",
    "minor_version",
    "version",
    "revision",
    "instructions",
    "operand_kinds",
    // Not used: the licence text, and spirv-dis's grouping of opcodes for printing.
    "copyright",
    "instruction_printing_class",
];
/// See [`ROOT_KEYS`].
pub(super) const INSTRUCTION_KEYS: &[&str] = &[
    "opname",
    "opcode",
    "class",
    "operands",
    "capabilities",
    "extensions",
    "version",
    "lastVersion",
    "provisional",
    "aliases",
];
/// See [`ROOT_KEYS`].
pub(super) const OPERAND_KEYS: &[&str] = &["kind", "quantifier", "name"];
/// See [`ROOT_KEYS`].
pub(super) const KIND_KEYS: &[&str] = &["kind", "category", "doc", "enumerants", "bases"];
/// See [`ROOT_KEYS`].
pub(super) const ENUMERANT_KEYS: &[&str] = &[
    "enumerant",
    "value",
    "parameters",
    "capabilities",
    "extensions",
    "version",
    "lastVersion",
    "provisional",
    "aliases",
];

pub(super) fn parse_u32_str(s: &str) -> Option<u32> {
    let s = s.trim();
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(hex) => u32::from_str_radix(hex, 16).ok(),
        None => s.parse().ok(),
    }
}

pub(super) fn parse_version(
    errs: &mut Errors,
    at: &str,
    ctx: &str,
    v: Option<&Value>,
) -> Option<(u8, u8)> {
    let v = v?;
    let parsed = v.as_str().and_then(|s| {
        if s == "None" {
            return Some(None);
        }
        let (a, b) = s.split_once('.')?;
        Some(Some((a.parse().ok()?, b.parse().ok()?)))
    });
    match parsed {
        Some(x) => x,
        None => {
            errs.push(
                at,
                Some(ctx),
                "expected a version string such as \"1.3\" or \"None\"",
            );
            None
        }
    }
}

pub(super) fn string_list(
    errs: &mut Errors,
    at: &str,
    ctx: &str,
    v: Option<&Value>,
) -> Vec<String> {
    match v {
        None => Vec::new(),
        Some(Value::Array(a)) => a
            .iter()
            .enumerate()
            .filter_map(|(i, s)| match s.as_str() {
                Some(s) => Some(s.to_owned()),
                None => {
                    errs.push(format!("{at}/{i}"), Some(ctx), "expected a string");
                    None
                }
            })
            .collect(),
        Some(_) => {
            errs.push(at, Some(ctx), "expected an array of strings");
            Vec::new()
        }
    }
}

pub(super) fn parse_meta(errs: &mut Errors, at: &str, ctx: &str, o: &Map<String, Value>) -> Meta {
    let provisional = match o.get("provisional") {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => {
            errs.push(
                format!("{at}/provisional"),
                Some(ctx),
                "expected true or false",
            );
            false
        }
    };
    Meta {
        capabilities: string_list(
            errs,
            &format!("{at}/capabilities"),
            ctx,
            o.get("capabilities"),
        ),
        extensions: string_list(errs, &format!("{at}/extensions"), ctx, o.get("extensions")),
        version: parse_version(errs, &format!("{at}/version"), ctx, o.get("version")),
        last_version: parse_version(
            errs,
            &format!("{at}/lastVersion"),
            ctx,
            o.get("lastVersion"),
        ),
        provisional,
        aliases: string_list(errs, &format!("{at}/aliases"), ctx, o.get("aliases")),
    }
}

pub(super) fn get_str<'a>(
    errs: &mut Errors,
    at: &str,
    ctx: Option<&str>,
    o: &'a Map<String, Value>,
    key: &str,
) -> Option<&'a str> {
    match o.get(key) {
        Some(Value::String(s)) => Some(s),
        Some(_) => {
            errs.push(format!("{at}/{key}"), ctx, "expected a string");
            None
        }
        None => {
            errs.push(at, ctx, format!("missing key \"{key}\""));
            None
        }
    }
}

pub(super) fn parse_operands(
    errs: &mut Errors,
    at: &str,
    ctx: &str,
    v: Option<&Value>,
) -> Vec<Operand> {
    let list = match v {
        None => return Vec::new(),
        Some(Value::Array(a)) => a,
        Some(_) => {
            errs.push(at, Some(ctx), "expected an array of operands");
            return Vec::new();
        }
    };
    let mut out = Vec::new();
    // What came before decides what may follow: nothing after a `*` operand is ever
    // read, and a required operand after a `?` one cannot be told apart from it.
    let mut before: Option<Quantifier> = None;
    for (i, o) in list.iter().enumerate() {
        let here = format!("{at}/{i}");
        let Some(o) = o.as_object() else {
            errs.push(here, Some(ctx), "expected an operand object");
            continue;
        };
        errs.note_unknown_keys(&here, o, OPERAND_KEYS);
        let kind = get_str(errs, &here, Some(ctx), o, "kind");
        let quantifier = match o.get("quantifier") {
            None => Some(Quantifier::One),
            Some(Value::String(q)) if q.is_empty() => Some(Quantifier::One),
            Some(Value::String(q)) if q == "?" => Some(Quantifier::Optional),
            Some(Value::String(q)) if q == "*" => Some(Quantifier::Variadic),
            Some(q) => {
                errs.push(
                    format!("{here}/quantifier"),
                    Some(ctx),
                    format!("bad quantifier {q}; expected \"?\" or \"*\""),
                );
                None
            }
        };
        let name = match o.get("name") {
            None => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(_) => {
                errs.push(format!("{here}/name"), Some(ctx), "expected a string");
                None
            }
        };
        match (before, quantifier) {
            (Some(Quantifier::Variadic), Some(_)) => errs.push(
                &here,
                Some(ctx),
                "an operand after a \"*\" operand is never read; a \"*\" operand must be the last",
            ),
            (Some(Quantifier::Optional), Some(Quantifier::One)) => errs.push(
                &here,
                Some(ctx),
                "a required operand after a \"?\" operand cannot be told apart from it; optional operands must come last",
            ),
            _ => {}
        }
        if quantifier.is_some_and(|q| q != Quantifier::One) && before != Some(Quantifier::Variadic)
        {
            before = quantifier;
        }
        if let (Some(kind), Some(quantifier)) = (kind, quantifier) {
            out.push(Operand {
                kind: kind.to_owned(),
                quantifier,
                name,
                at: here,
            });
        }
    }
    out
}

pub(super) fn parse_instruction(errs: &mut Errors, at: &str, v: &Value) -> Option<Instruction> {
    let Some(o) = v.as_object() else {
        errs.push(at, None, "expected an instruction object");
        return None;
    };
    errs.note_unknown_keys(at, o, INSTRUCTION_KEYS);
    let opname = get_str(errs, at, None, o, "opname");
    let ctx = opname.unwrap_or("?");
    let opcode = match o.get("opcode") {
        Some(v) => match v.as_u64().and_then(|n| u32::try_from(n).ok()) {
            Some(n) => Some(n),
            None => {
                errs.push(
                    format!("{at}/opcode"),
                    Some(ctx),
                    "expected an unsigned 32-bit integer",
                );
                None
            }
        },
        None => {
            errs.push(at, Some(ctx), "missing key \"opcode\"");
            None
        }
    };
    let class = match o.get("class") {
        Some(Value::String(s)) => Some(s.clone()),
        _ => None,
    };
    let operands = parse_operands(errs, &format!("{at}/operands"), ctx, o.get("operands"));
    let meta = parse_meta(errs, at, ctx, o);
    Some(Instruction {
        opname: opname?.to_owned(),
        opcode: opcode?,
        class,
        operands,
        meta,
    })
}

/// Which elements of `list` repeat an earlier one exactly: the same `key` name and the
/// same content. A published SPIRV-Headers revision listed `OpArbitraryFloatPowNINTEL`
/// twice this way; such a repeat says nothing new and is skipped. A repeated name with
/// different content is still an error, reported where names are checked.
pub(super) fn exact_repeats(list: &[Value], key: &str) -> Vec<bool> {
    let mut first: HashMap<&str, usize> = HashMap::new();
    list.iter()
        .enumerate()
        .map(|(i, v)| {
            let Some(name) = v.get(key).and_then(Value::as_str) else {
                return false;
            };
            match first.get(name) {
                Some(&j) => list[j] == *v,
                None => {
                    first.insert(name, i);
                    false
                }
            }
        })
        .collect()
}

pub(super) fn parse_kind(errs: &mut Errors, at: &str, v: &Value) -> Option<Kind> {
    let Some(o) = v.as_object() else {
        errs.push(at, None, "expected an operand-kind object");
        return None;
    };
    errs.note_unknown_keys(at, o, KIND_KEYS);
    let name = get_str(errs, at, None, o, "kind");
    let ctx = name.unwrap_or("?");
    let category = match get_str(errs, at, Some(ctx), o, "category") {
        Some(c) => match Category::parse(c) {
            Some(c) => Some(c),
            None => {
                errs.push(
                    format!("{at}/category"),
                    Some(ctx),
                    format!("unknown category \"{c}\"; expected ValueEnum, BitEnum, Id, Literal or Composite"),
                );
                None
            }
        },
        None => None,
    };
    let doc = o.get("doc").and_then(Value::as_str).map(str::to_owned);
    let mut enumerants = Vec::new();
    if matches!(category, Some(Category::ValueEnum | Category::BitEnum)) {
        match o.get("enumerants") {
            None => errs.push(at, Some(ctx), "missing key \"enumerants\""),
            Some(Value::Array(list)) => {
                let repeats = exact_repeats(list, "enumerant");
                for (i, e) in list.iter().enumerate() {
                    if repeats[i] {
                        continue;
                    }
                    let here = format!("{at}/enumerants/{i}");
                    let Some(e) = e.as_object() else {
                        errs.push(here, Some(ctx), "expected an enumerant object");
                        continue;
                    };
                    errs.note_unknown_keys(&here, e, ENUMERANT_KEYS);
                    let ename = get_str(errs, &here, Some(ctx), e, "enumerant");
                    let ectx = format!("{ctx}::{}", ename.unwrap_or("?"));
                    let value = match e.get("value") {
                        Some(Value::Number(n)) => n.as_u64().and_then(|n| u32::try_from(n).ok()),
                        Some(Value::String(s)) => parse_u32_str(s),
                        Some(_) => None,
                        None => {
                            errs.push(&here, Some(&ectx), "missing key \"value\"");
                            continue;
                        }
                    };
                    if value.is_none() {
                        errs.push(
                            format!("{here}/value"),
                            Some(&ectx),
                            "expected an unsigned 32-bit integer or a hex string",
                        );
                    }
                    let parameters = parse_operands(
                        errs,
                        &format!("{here}/parameters"),
                        &ectx,
                        e.get("parameters"),
                    );
                    let meta = parse_meta(errs, &here, &ectx, e);
                    if let (Some(n), Some(value)) = (ename, value) {
                        enumerants.push(Enumerant {
                            name: n.to_owned(),
                            value,
                            parameters,
                            meta,
                            at: here,
                        });
                    }
                }
            }
            Some(_) => errs.push(format!("{at}/enumerants"), Some(ctx), "expected an array"),
        }
    }
    let bases = if category == Some(Category::Composite) {
        if o.contains_key("bases") {
            string_list(errs, &format!("{at}/bases"), ctx, o.get("bases"))
        } else {
            errs.push(at, Some(ctx), "missing key \"bases\"");
            Vec::new()
        }
    } else {
        Vec::new()
    };
    Some(Kind {
        name: name?.to_owned(),
        category: category?,
        doc,
        enumerants,
        bases,
        at: at.to_owned(),
    })
}
