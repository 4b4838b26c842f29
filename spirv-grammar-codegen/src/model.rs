//! The checked grammar model: the JSON is read once into these types, and every
//! emitter works from them.
//!
//! Loading is staged: [`parse`] turns JSON text into a [`Grammar`] or a list of
//! [`ModelError`]s, each naming its JSON location. Nothing here panics on input.

use crate::json::{self, Map, Value};
use std::collections::{HashMap, HashSet};
use std::fmt;

/// How many times an operand occurs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quantifier {
    /// Exactly once (no `quantifier` key).
    One,
    /// `?`: zero or one time.
    Optional,
    /// `*`: zero or more times.
    Variadic,
}

/// The category of an operand kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Category {
    /// A single enumerant value.
    ValueEnum,
    /// A mask of enumerant bits.
    BitEnum,
    /// An `<id>`.
    Id,
    /// A literal number or string.
    Literal,
    /// A tuple of other kinds.
    Composite,
}

impl Category {
    /// The grammar's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Category::ValueEnum => "ValueEnum",
            Category::BitEnum => "BitEnum",
            Category::Id => "Id",
            Category::Literal => "Literal",
            Category::Composite => "Composite",
        }
    }
    fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "ValueEnum" => Category::ValueEnum,
            "BitEnum" => Category::BitEnum,
            "Id" => Category::Id,
            "Literal" => Category::Literal,
            "Composite" => Category::Composite,
            _ => return None,
        })
    }
}

/// One operand of an instruction, or one parameter of an enumerant.
#[derive(Debug, Clone)]
pub struct Operand {
    /// The operand kind's name.
    pub kind: String,
    /// How often it occurs.
    pub quantifier: Quantifier,
    /// The grammar's descriptive name, if any.
    pub name: Option<String>,
    /// Its JSON pointer in the file, for messages.
    pub at: String,
}

/// Metadata shared by instructions and enumerants.
#[derive(Debug, Clone, Default)]
pub struct Meta {
    /// Capabilities, any one of which enables the item.
    pub capabilities: Vec<String>,
    /// Extensions that enable the item.
    pub extensions: Vec<String>,
    /// First core version, `None` when absent or `"None"`.
    pub version: Option<(u8, u8)>,
    /// Last core version, if the item was removed.
    pub last_version: Option<(u8, u8)>,
    /// Whether the item is provisional.
    pub provisional: bool,
    /// Other names of the item; the first listed name is canonical.
    pub aliases: Vec<String>,
}

/// One instruction.
#[derive(Debug, Clone)]
pub struct Instruction {
    /// The grammar's name (`OpTypeInt`, or `Sqrt` in an extended set).
    pub opname: String,
    /// The opcode, or the extended instruction number.
    pub opcode: u32,
    /// The `class` key (core only).
    pub class: Option<String>,
    /// The operand layout.
    pub operands: Vec<Operand>,
    /// Capabilities, versions and aliases.
    pub meta: Meta,
}

/// One enumerant of a ValueEnum or BitEnum kind.
#[derive(Debug, Clone)]
pub struct Enumerant {
    /// The canonical name.
    pub name: String,
    /// The value (a bit pattern for BitEnum).
    pub value: u32,
    /// Operands that follow when this enumerant is present.
    pub parameters: Vec<Operand>,
    /// Capabilities, versions and aliases.
    pub meta: Meta,
    /// Its JSON pointer in the file, for messages.
    pub at: String,
}

/// One operand kind.
#[derive(Debug, Clone)]
pub struct Kind {
    /// The kind's name (`StorageClass`).
    pub name: String,
    /// Its category.
    pub category: Category,
    /// The `doc` key.
    pub doc: Option<String>,
    /// Enumerants in grammar order, synonyms folded into `meta.aliases`.
    pub enumerants: Vec<Enumerant>,
    /// Component kinds of a Composite.
    pub bases: Vec<String>,
    /// Its JSON pointer in the file (`/operand_kinds/3`), for messages; empty for a
    /// literal kind the specification defines and the file does not list.
    pub at: String,
}

impl Kind {
    /// Whether any enumerant takes parameters.
    pub fn has_parameters(&self) -> bool {
        self.enumerants.iter().any(|e| !e.parameters.is_empty())
    }
}

/// A core kind known to an extended grammar that does not define it.
#[derive(Debug, Clone, Copy)]
pub struct ExternalKind {
    /// The kind's name.
    pub name: &'static str,
    /// Its category.
    pub category: Category,
    /// Whether any enumerant has parameters.
    pub has_parameters: bool,
    /// Composite bases.
    pub bases: &'static [&'static str],
}

/// A whole grammar file.
#[derive(Debug, Clone)]
pub struct Grammar {
    /// True for a core grammar (it has `magic_number`).
    pub is_core: bool,
    /// `magic_number`, core only.
    pub magic_number: Option<u32>,
    /// `major_version`, core only.
    pub major_version: Option<u32>,
    /// `minor_version`, core only.
    pub minor_version: Option<u32>,
    /// `version` (extended sets) or `revision`.
    pub version: Option<u32>,
    /// `revision`.
    pub revision: Option<u32>,
    /// Instructions in grammar order, synonyms folded.
    pub instructions: Vec<Instruction>,
    /// Kinds defined in this file, in grammar order.
    pub kinds: Vec<Kind>,
    /// Number of `instructions` entries in the file (before folding synonyms).
    pub raw_instruction_count: usize,
}

impl Grammar {
    /// Finds a kind defined in this file.
    pub fn kind(&self, name: &str) -> Option<&Kind> {
        self.kinds.iter().find(|k| k.name == name)
    }

    /// Whether an operand of `kind` embeds a whole instruction (`OpSpecConstantOp`'s
    /// opcode, whose struct field is then the embedded instruction's operands).
    pub fn embeds(&self, kind: &str) -> bool {
        self.is_core
            && self
                .kind(kind)
                .is_some_and(|k| class_of(&k.name, k.category) == "SpecConstantOpcode")
    }
}

/// The fine-grained class of a kind, as the runtime's `KindClass` spells it.
pub fn class_of(name: &str, category: Category) -> &'static str {
    match category {
        Category::Id => match name {
            "IdResultType" => "ResultType",
            "IdResult" => "Result",
            _ => "Id",
        },
        Category::Literal => SPEC_LITERAL_KINDS
            .iter()
            .find(|(k, _)| *k == name)
            .map_or("Integer", |(_, class)| class),
        Category::ValueEnum => "ValueEnum",
        Category::BitEnum => "BitEnum",
        Category::Composite => "Composite",
    }
}

/// An error in the grammar, with its JSON location.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelError {
    /// A JSON pointer (`/instructions/3/operands/1/kind`), or `line:column` for syntax errors.
    pub location: String,
    /// The instruction or kind the location belongs to, if known.
    pub context: Option<String>,
    /// What was wrong and what was expected.
    pub message: String,
}

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.context {
            Some(c) => write!(f, "{} ({}): {}", self.location, c, self.message),
            None => write!(f, "{}: {}", self.location, self.message),
        }
    }
}

/// Collects errors so that one run reports all of them.
struct Errors(Vec<ModelError>);

impl Errors {
    fn push(
        &mut self,
        location: impl Into<String>,
        context: Option<&str>,
        message: impl Into<String>,
    ) {
        self.0.push(ModelError {
            location: location.into(),
            context: context.map(str::to_owned),
            message: message.into(),
        });
    }
}

/// The literal operand kinds the SPIR-V specification defines (section 2.2.2), with the
/// `KindClass` tools treat each as: the one list of them. Other literal kinds a grammar
/// defines are plain integers.
pub const SPEC_LITERAL_KINDS: &[(&str, &str)] = &[
    ("LiteralInteger", "Integer"),
    ("LiteralString", "String"),
    ("LiteralFloat", "Float"),
    ("LiteralContextDependentNumber", "ContextNumber"),
    ("LiteralExtInstInteger", "ExtInstNumber"),
    ("LiteralSpecConstantOpInteger", "SpecConstantOpcode"),
];

/// Parses and checks a grammar. `external` lists kinds an extended grammar may use
/// without defining them (the core grammar's kinds).
pub fn parse(text: &str, external: &[ExternalKind]) -> Result<Grammar, Vec<ModelError>> {
    let root: Value = json::parse(text).map_err(|e| {
        vec![ModelError {
            location: format!("{}:{}", e.line, e.column),
            context: None,
            message: format!("invalid JSON: {e}"),
        }]
    })?;
    let mut errs = Errors(Vec::new());
    let Some(obj) = root.as_object() else {
        errs.push("", None, "expected a JSON object at the top level");
        return Err(errs.0);
    };
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
            for (i, v) in list.iter().enumerate() {
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

    // Fold synonyms: same opcode, first listed is canonical.
    let mut folded: Vec<Instruction> = Vec::new();
    let mut by_opcode: HashMap<u32, usize> = HashMap::new();
    let mut names: HashMap<String, usize> = HashMap::new();
    for (i, inst) in instructions {
        for n in std::iter::once(&inst.opname).chain(&inst.meta.aliases) {
            if let Some(prev) = names.insert(n.clone(), i) {
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
            Some(&at) => {
                let canon = &mut folded[at];
                canon.meta.aliases.push(inst.opname);
                canon.meta.aliases.extend(inst.meta.aliases);
            }
            None => {
                by_opcode.insert(inst.opcode, folded.len());
                folded.push(inst);
            }
        }
    }
    for k in kinds.iter_mut() {
        let mut out: Vec<Enumerant> = Vec::new();
        let mut by_value: HashMap<u32, usize> = HashMap::new();
        let mut names: HashSet<String> = HashSet::new();
        for e in std::mem::take(&mut k.enumerants) {
            for n in std::iter::once(&e.name).chain(&e.meta.aliases) {
                if !names.insert(n.clone()) {
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

    if errs.0.is_empty() {
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
        })
    } else {
        Err(errs.0)
    }
}

fn parse_u32_str(s: &str) -> Option<u32> {
    let s = s.trim();
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(hex) => u32::from_str_radix(hex, 16).ok(),
        None => s.parse().ok(),
    }
}

fn parse_version(errs: &mut Errors, at: &str, ctx: &str, v: Option<&Value>) -> Option<(u8, u8)> {
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

fn string_list(errs: &mut Errors, at: &str, ctx: &str, v: Option<&Value>) -> Vec<String> {
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

fn parse_meta(errs: &mut Errors, at: &str, ctx: &str, o: &Map) -> Meta {
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

fn get_str<'a>(
    errs: &mut Errors,
    at: &str,
    ctx: Option<&str>,
    o: &'a Map,
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

fn parse_operands(errs: &mut Errors, at: &str, ctx: &str, v: Option<&Value>) -> Vec<Operand> {
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

fn parse_instruction(errs: &mut Errors, at: &str, v: &Value) -> Option<Instruction> {
    let Some(o) = v.as_object() else {
        errs.push(at, None, "expected an instruction object");
        return None;
    };
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

fn parse_kind(errs: &mut Errors, at: &str, v: &Value) -> Option<Kind> {
    let Some(o) = v.as_object() else {
        errs.push(at, None, "expected an operand-kind object");
        return None;
    };
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
                for (i, e) in list.iter().enumerate() {
                    let here = format!("{at}/enumerants/{i}");
                    let Some(e) = e.as_object() else {
                        errs.push(here, Some(ctx), "expected an enumerant object");
                        continue;
                    };
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_synonyms_and_reports_locations() {
        let g = parse(
            r#"{"magic_number":"0x07230203","major_version":1,"minor_version":0,
            "instructions":[{"opname":"OpA","opcode":1},{"opname":"OpB","opcode":1}],
            "operand_kinds":[{"category":"ValueEnum","kind":"K","enumerants":[
               {"enumerant":"X","value":0},{"enumerant":"Y","value":"0x0"}]}]}"#,
            &[],
        )
        .expect("valid");
        assert_eq!(g.instructions.len(), 1);
        assert_eq!(g.instructions[0].meta.aliases, ["OpB"]);
        assert_eq!(g.kinds[0].enumerants[0].meta.aliases, ["Y"]);

        let e = parse(r#"{"instructions":[{"opname":"A","opcode":1,"operands":[{"kind":"Nope","quantifier":"+"}]}]}"#, &[])
            .expect_err("invalid");
        assert_eq!(e[0].location, "/instructions/0/operands/0/quantifier");
        let e = parse("{\n  \"instructions\": [,]}", &[]).expect_err("bad json");
        assert!(e[0].location.starts_with("2:"), "{:?}", e);
    }
}
