//! The grammar file as a whole: top-level fields, cross-references between
//! instructions and kinds, and the errors collected on the way.

use super::items::{ROOT_KEYS, exact_repeats, parse_instruction, parse_kind, parse_u32_str};
use super::*;
use serde_json::Value;
use std::collections::{HashMap, HashSet};

/// Collects errors so that one run reports all of them, and the keys no reader knows.
pub(super) struct Errors {
    errors: Vec<ModelError>,
    unknown_keys: Vec<String>,
}

impl Errors {
    /// Records, as JSON pointers, the keys of `o` that are not in `known` (see
    /// [`Grammar::unknown_keys`]).
    pub(super) fn note_unknown_keys(
        &mut self,
        at: &str,
        o: &serde_json::Map<String, Value>,
        known: &[&str],
    ) {
        for key in o.keys() {
            if !known.contains(&key.as_str()) {
                self.unknown_keys.push(format!("{at}/{key}"));
            }
        }
    }

    pub(super) fn push(
        &mut self,
        location: impl Into<String>,
        context: Option<&str>,
        message: impl Into<String>,
    ) {
        self.errors.push(ModelError {
            location: location.into(),
            context: context.map(str::to_owned),
            message: message.into(),
        });
    }
}

/// Parses and checks a grammar. `external` lists kinds an extended grammar may use
/// without defining them (the core grammar's kinds).
pub fn parse(text: &str, external: &[ExternalKind]) -> Result<Grammar, Vec<ModelError>> {
    let root: Value = serde_json::from_str(text).map_err(|e| {
        vec![ModelError {
            location: format!("{}:{}", e.line(), e.column()),
            context: None,
            message: format!("invalid JSON: {e}"),
        }]
    })?;
    let mut errs = Errors {
        errors: Vec::new(),
        unknown_keys: Vec::new(),
    };
    let Some(obj) = root.as_object() else {
        errs.push("", None, "expected a JSON object at the top level");
        return Err(errs.errors);
    };
    errs.note_unknown_keys("", obj, ROOT_KEYS);
    let is_core = obj.contains_key("magic_number");
    let magic_number = match obj.get("magic_number") {
        None => None,
        Some(v) => match v
            .as_str()
            .and_then(parse_u32_str)
            .or_else(|| v.as_u64().and_then(|n| u32::try_from(n).ok()))
        {
            Some(n) => Some(n),
            None => {
                errs.push(
                    "/magic_number",
                    None,
                    "expected a hexadecimal string such as \"0x07230203\"",
                );
                None
            }
        },
    };
    let get_num = |errs: &mut Errors, key: &str| -> Option<u32> {
        let v = obj.get(key)?;
        match v.as_u64().and_then(|n| u32::try_from(n).ok()) {
            Some(n) => Some(n),
            None => {
                errs.push(format!("/{key}"), None, "expected an unsigned integer");
                None
            }
        }
    };
    let major_version = get_num(&mut errs, "major_version");
    let minor_version = get_num(&mut errs, "minor_version");
    let version = get_num(&mut errs, "version");
    let revision = get_num(&mut errs, "revision");
    if is_core {
        for key in ["major_version", "minor_version"] {
            if !obj.contains_key(key) {
                errs.push(
                    "",
                    None,
                    format!("missing key \"{key}\" (a core grammar has a magic_number)"),
                );
            }
        }
    }

    // Kinds first, so that operand references can be checked.
    let mut kinds: Vec<Kind> = Vec::new();
    match obj.get("operand_kinds") {
        None => {}
        Some(Value::Array(list)) => {
            for (i, k) in list.iter().enumerate() {
                if let Some(kind) = parse_kind(&mut errs, &format!("/operand_kinds/{i}"), k) {
                    kinds.push(kind);
                }
            }
        }
        Some(_) => errs.push("/operand_kinds", None, "expected an array"),
    }
    let mut instructions = Vec::new();
    let mut raw_instruction_count = 0;
    match obj.get("instructions") {
        None => errs.push("", None, "missing key \"instructions\""),
        Some(Value::Array(list)) => {
            raw_instruction_count = list.len();
            let repeats = exact_repeats(list, "opname");
            for (i, v) in list.iter().enumerate() {
                if repeats[i] {
                    continue;
                }
                if let Some(inst) = parse_instruction(&mut errs, &format!("/instructions/{i}"), v) {
                    instructions.push((i, inst));
                }
            }
        }
        Some(_) => errs.push("/instructions", None, "expected an array"),
    }

    // The literal kinds are defined by the specification itself; some revisions of the
    // core grammar use one without listing it (1.3.261's `LiteralFloat`). Those are
    // added as plain literal kinds instead of being rejected.
    if is_core {
        let mut referenced: Vec<&str> = instructions
            .iter()
            .flat_map(|(_, i)| i.operands.iter().map(|o| o.kind.as_str()))
            .collect();
        for k in &kinds {
            for e in &k.enumerants {
                referenced.extend(e.parameters.iter().map(|p| p.kind.as_str()));
            }
        }
        let mut implicit: Vec<String> = Vec::new();
        for name in referenced {
            if SPEC_LITERAL_KINDS.iter().any(|(k, _)| *k == name)
                && !kinds.iter().any(|k| k.name == name)
                && !implicit.iter().any(|n| n == name)
            {
                implicit.push(name.to_owned());
            }
        }
        for name in implicit {
            kinds.push(Kind {
                doc: Some(format!("{name}: a literal kind the specification defines; this grammar uses it without listing it.")),
                name,
                category: Category::Literal,
                enumerants: Vec::new(),
                bases: Vec::new(),
                at: String::new(),
            });
        }
    }

    // Duplicate kind names. Every location below is the element's own JSON pointer,
    // not its position among the elements that parsed.
    let mut seen: HashMap<&str, &str> = HashMap::new();
    for k in &kinds {
        if let Some(prev) = seen.insert(&k.name, &k.at) {
            errs.push(
                format!("{}/kind", k.at),
                Some(&k.name),
                format!(
                    "operand kind \"{}\" is defined twice (first at {prev})",
                    k.name
                ),
            );
        }
    }
    // Kind references.
    let known = |name: &str| {
        kinds.iter().any(|k| k.name == name)
            || (!is_core && external.iter().any(|k| k.name == name))
    };
    let expectation = if is_core {
        "a kind defined in this file"
    } else {
        "a kind defined in this file or in the core grammar"
    };
    for (_, inst) in &instructions {
        for op in &inst.operands {
            if !known(&op.kind) {
                errs.push(
                    format!("{}/kind", op.at),
                    Some(&inst.opname),
                    format!(
                        "unknown operand kind \"{}\"; expected {expectation}",
                        op.kind
                    ),
                );
            }
        }
    }
    for k in &kinds {
        for e in &k.enumerants {
            for op in &e.parameters {
                if !known(&op.kind) {
                    errs.push(
                        format!("{}/kind", op.at),
                        Some(&format!("{}::{}", k.name, e.name)),
                        format!(
                            "unknown operand kind \"{}\"; expected {expectation}",
                            op.kind
                        ),
                    );
                }
            }
        }
        for (j, b) in k.bases.iter().enumerate() {
            if !known(b) {
                errs.push(
                    format!("{}/bases/{j}", k.at),
                    Some(&k.name),
                    format!("unknown operand kind \"{b}\"; expected {expectation}"),
                );
            }
        }
    }

    // Fold synonyms: same opcode, first listed is canonical. Only a core grammar lists
    // them so (the published revisions before the "aliases" key); in an extended one
    // a repeated opcode or value is a mistake, which would otherwise surface later as
    // an unrelated failure to assemble, so it is an error naming both entries.
    let mut folded: Vec<Instruction> = Vec::new();
    let mut folded_at: Vec<usize> = Vec::new();
    let mut by_opcode: HashMap<u32, usize> = HashMap::new();
    let mut names: HashMap<String, usize> = HashMap::new();
    for (i, inst) in instructions {
        // A repeated name is the error to report; its opcode is not a second one.
        let mut renamed = false;
        for n in std::iter::once(&inst.opname).chain(&inst.meta.aliases) {
            if let Some(prev) = names.insert(n.clone(), i) {
                renamed = true;
                errs.push(
                    format!("/instructions/{i}"),
                    Some(&inst.opname),
                    format!(
                        "instruction name \"{n}\" is used twice (also at /instructions/{prev})"
                    ),
                );
            }
        }
        match by_opcode.get(&inst.opcode) {
            Some(&at) if !is_core && !renamed => {
                errs.push(
                    format!("/instructions/{i}"),
                    Some(&inst.opname),
                    format!(
                        "opcode {} is used twice (also by \"{}\" at /instructions/{}); \
                         a synonym is listed in the first entry's \"aliases\"",
                        inst.opcode, folded[at].opname, folded_at[at]
                    ),
                );
            }
            Some(&at) => {
                let canon = &mut folded[at];
                canon.meta.aliases.push(inst.opname);
                canon.meta.aliases.extend(inst.meta.aliases);
            }
            None => {
                by_opcode.insert(inst.opcode, folded.len());
                folded.push(inst);
                folded_at.push(i);
            }
        }
    }
    for k in kinds.iter_mut() {
        let mut out: Vec<Enumerant> = Vec::new();
        let mut by_value: HashMap<u32, usize> = HashMap::new();
        let mut names: HashSet<String> = HashSet::new();
        for e in std::mem::take(&mut k.enumerants) {
            let mut renamed = false;
            for n in std::iter::once(&e.name).chain(&e.meta.aliases) {
                if !names.insert(n.clone()) {
                    renamed = true;
                    errs.push(
                        e.at.clone(),
                        Some(&k.name),
                        format!(
                            "enumerant name \"{n}\" is used twice in kind \"{}\"",
                            k.name
                        ),
                    );
                }
            }
            match by_value.get(&e.value) {
                Some(&at) if !is_core && !renamed => {
                    errs.push(
                        e.at.clone(),
                        Some(&k.name),
                        format!(
                            "value {} is used twice in kind \"{}\" (also by \"{}\" at {}); \
                             a synonym is listed in the first entry's \"aliases\"",
                            e.value, k.name, out[at].name, out[at].at
                        ),
                    );
                }
                Some(&at) => {
                    out[at].meta.aliases.push(e.name);
                    out[at].meta.aliases.extend(e.meta.aliases);
                }
                None => {
                    by_value.insert(e.value, out.len());
                    out.push(e);
                }
            }
        }
        k.enumerants = out;
    }

    if errs.errors.is_empty() {
        Ok(Grammar {
            is_core,
            magic_number,
            major_version,
            minor_version,
            version,
            revision,
            instructions: folded,
            kinds,
            raw_instruction_count,
            unknown_keys: errs.unknown_keys,
        })
    } else {
        Err(errs.errors)
    }
}
