//! `--grammar FILE`: an extended instruction set's JSON grammar loaded at run time, so
//! that `as`, `dis` and `val` know a user's set as `include_grammar!` would make a
//! library know it.
//!
//! The file is read by the same checked model the macro reads
//! (`spirv_grammar_codegen::model`), then turned into the tables spirv-core's readers
//! use (`spirv_core::grammar`). Those tables are `&'static`, as generated ones are, so
//! a loaded grammar is leaked: it lives as long as the process, which is how long the
//! CLI needs it.

use spirv_core::ExtInstRegistry;
use spirv_core::grammar::{
    Category, Enumerant, Grammar, InstructionInfo, KindClass, NameIndex, OperandInfo, OperandKind,
    Quantifier,
};
use spirv_grammar_codegen::model::{self, Meta, Operand};
use std::collections::HashMap;

/// The `--grammar` option of `as`, `dis` and `val`.
#[derive(clap::Args, Debug, Default)]
pub struct GrammarArgs {
    /// An extended instruction set's JSON grammar to know besides the built-in ones
    /// (repeatable). `IMPORT=FILE` names the `OpExtInstImport` string that selects it;
    /// a bare FILE is selected by its file-name stem, as vendored sets are
    /// (`extinst.nonsemantic.foo.grammar.json`: `NonSemantic.Foo`, `NonSemantic.Foo.2`,
    /// any case). A grammar whose stem spells a built-in set's name replaces that set.
    #[arg(long = "grammar", value_name = "FILE")]
    grammar: Vec<String>,
}

impl GrammarArgs {
    /// `base` with every `--grammar` set registered after it (so that it wins over a
    /// built-in set of the same name), or `None` when there is none: the callers'
    /// defaults then apply unchanged.
    pub fn registry(&self, base: ExtInstRegistry) -> Result<Option<ExtInstRegistry>, String> {
        if self.grammar.is_empty() {
            return Ok(None);
        }
        let mut registry = base;
        for arg in &self.grammar {
            let (import, path) = split_import(arg);
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("error: cannot read grammar '{path}': {e}"))?;
            let selector = match import {
                Some(name) => Selector::Name(name.to_owned()),
                None => Selector::stem_of(path),
            };
            let grammar = load(&text, selector).map_err(|errors| {
                let mut message = format!("error: grammar '{path}' is not usable:");
                for e in errors {
                    message.push_str("\n  ");
                    message.push_str(&e);
                }
                message
            })?;
            registry.register(grammar);
        }
        Ok(Some(registry))
    }
}

/// `IMPORT=FILE` → (`Some(IMPORT)`, FILE); a path (anything with a separator before
/// the `=`, or no `=`) is all FILE.
fn split_import(arg: &str) -> (Option<&str>, &str) {
    match arg.split_once('=') {
        Some((name, path)) if !name.is_empty() && !name.contains(['/', '\\']) => (Some(name), path),
        _ => (None, arg),
    }
}

/// How an `OpExtInstImport` string selects a loaded set.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Selector {
    /// This exact string.
    Name(String),
    /// Strings that spell this file-name stem (see `Grammar::import_stem`).
    Stem(String),
}

impl Selector {
    /// The stem of a grammar file's name: `extinst.X.grammar.json` gives `X`, as for
    /// the vendored sets; otherwise the name without `.grammar.json` or `.json`.
    fn stem_of(path: &str) -> Selector {
        let file = std::path::Path::new(path)
            .file_name()
            .map_or(path.into(), |f| f.to_string_lossy());
        let file = file.strip_prefix("extinst.").unwrap_or(&file);
        let stem = file
            .strip_suffix(".grammar.json")
            .or_else(|| file.strip_suffix(".json"))
            .unwrap_or(file);
        // A stem that spells a vendored set's exact name takes that name, so that the
        // loaded set replaces the vendored one rather than losing to its exact match.
        let spelled = spirv_core::ext::VENDORED
            .iter()
            .filter_map(|g| g.import_name)
            .find(|name| same_spelling(name, stem));
        match spelled {
            Some(name) => Selector::Name(name.to_owned()),
            None => Selector::Stem(stem.to_owned()),
        }
    }
}

/// Equal ignoring ASCII case, `_` and `-` (the rule `Grammar::import_stem` states).
fn same_spelling(a: &str, b: &str) -> bool {
    let letters = |s: &str| {
        s.bytes()
            .filter(|b| !matches!(b, b'_' | b'-'))
            .map(|b| b.to_ascii_lowercase())
            .collect::<Vec<u8>>()
    };
    letters(a) == letters(b)
}

/// Loads an extended grammar's JSON into leaked tables.
///
/// # Errors
/// What the model finds wrong (each with its JSON location), a core grammar, or a name
/// the core grammar does not define (a capability, a kind).
fn load(text: &str, selector: Selector) -> Result<&'static Grammar, Vec<String>> {
    let g = model::parse(text, spirv_grammar_codegen::CORE_KINDS)
        .map_err(|errors| errors.iter().map(ToString::to_string).collect::<Vec<_>>())?;
    if g.is_core {
        return Err(vec![
            "it is a core grammar (it has `magic_number`); --grammar takes an extended instruction set's".into(),
        ]);
    }
    let kinds = Kinds::build(&g)?;
    let mut errors = Vec::new();
    let mut sorted: Vec<&model::Instruction> = g.instructions.iter().collect();
    sorted.sort_by_key(|i| i.opcode);
    let mut names = Vec::new();
    let mut instructions = Vec::with_capacity(sorted.len());
    for (at, inst) in sorted.iter().enumerate() {
        names.push((leak_str(&inst.opname), at));
        names.extend(inst.meta.aliases.iter().map(|a| (leak_str(a), at)));
        let meta = leak_meta(&inst.meta, &mut errors);
        instructions.push(InstructionInfo {
            opname: leak_str(&inst.opname),
            opcode: inst.opcode,
            class: inst.class.as_deref().map_or("", leak_str),
            operands: kinds.operands(&inst.operands),
            capabilities: meta.capabilities,
            extensions: meta.extensions,
            version: meta.version,
            last_version: meta.last_version,
            provisional: meta.provisional,
            aliases: meta.aliases,
            ..InstructionInfo::EMPTY
        });
    }
    let names = name_index(names, &mut errors);
    if !errors.is_empty() {
        return Err(errors);
    }
    let (import_name, import_stem) = match selector {
        Selector::Name(n) => (Some(leak_str(&n)), None),
        Selector::Stem(s) => (None, Some(leak_str(&s))),
    };
    let grammar = Grammar {
        name: import_name.or(import_stem).unwrap_or(""),
        is_core: false,
        import_name,
        import_prefix: None,
        import_stem,
        magic_number: None,
        major_version: None,
        minor_version: None,
        version: g.version,
        revision: g.revision,
        instructions: Vec::leak(instructions),
        // Empty: lookups by opcode binary-search the sorted table.
        opcode_index: &[],
        operand_kinds: Vec::leak(kinds.own.clone()),
        names,
    };
    Ok(Box::leak(Box::new(grammar)))
}

/// The kinds a grammar's operands name: its own, built in dependency order, and the
/// core grammar's.
struct Kinds {
    /// This grammar's kinds, in its order.
    own: Vec<&'static OperandKind>,
    by_name: HashMap<String, &'static OperandKind>,
}

impl Kinds {
    /// Builds every kind the grammar defines. A kind refers to others through its
    /// composite bases and its enumerants' parameters; each is built after those it
    /// refers to (a worklist over the references, so the work is linear), and a cycle
    /// is an error.
    fn build(g: &model::Grammar) -> Result<Kinds, Vec<String>> {
        let index: HashMap<&str, usize> = g
            .kinds
            .iter()
            .enumerate()
            .map(|(i, k)| (k.name.as_str(), i))
            .collect();
        // For each kind, the own kinds it needs; for each, the kinds waiting on it.
        let mut waiting = vec![0usize; g.kinds.len()];
        let mut dependents: Vec<Vec<usize>> = vec![Vec::new(); g.kinds.len()];
        for (i, k) in g.kinds.iter().enumerate() {
            let params = k.enumerants.iter().flat_map(|e| &e.parameters);
            let mut needs: Vec<usize> = k
                .bases
                .iter()
                .map(String::as_str)
                .chain(params.map(|p| p.kind.as_str()))
                .filter_map(|name| index.get(name).copied())
                .collect();
            needs.sort_unstable();
            needs.dedup();
            waiting[i] = needs.len();
            for n in needs {
                dependents[n].push(i);
            }
        }
        let mut kinds = Kinds {
            own: Vec::with_capacity(g.kinds.len()),
            by_name: HashMap::new(),
        };
        let mut built: Vec<Option<&'static OperandKind>> = vec![None; g.kinds.len()];
        let mut ready: Vec<usize> = (0..g.kinds.len()).filter(|&i| waiting[i] == 0).collect();
        let mut errors = Vec::new();
        while let Some(i) = ready.pop() {
            let kind = kinds.kind(&g.kinds[i], &mut errors);
            kinds.by_name.insert(g.kinds[i].name.clone(), kind);
            built[i] = Some(kind);
            for &d in &dependents[i] {
                waiting[d] -= 1;
                if waiting[d] == 0 {
                    ready.push(d);
                }
            }
        }
        for (k, b) in g.kinds.iter().zip(&built) {
            match b {
                Some(kind) => kinds.own.push(kind),
                None => errors.push(format!(
                    "{}: kind {} refers to itself through its bases or parameters",
                    k.at, k.name
                )),
            }
        }
        if errors.is_empty() {
            Ok(kinds)
        } else {
            Err(errors)
        }
    }

    /// One kind's table; the kinds it refers to are built already.
    fn kind(&self, k: &model::Kind, errors: &mut Vec<String>) -> &'static OperandKind {
        let mut sorted: Vec<&model::Enumerant> = k.enumerants.iter().collect();
        sorted.sort_by_key(|e| e.value);
        let mut names = Vec::new();
        let mut enumerants = Vec::with_capacity(sorted.len());
        for (at, e) in sorted.iter().enumerate() {
            names.push((leak_str(&e.name), at));
            names.extend(e.meta.aliases.iter().map(|a| (leak_str(a), at)));
            let meta = leak_meta(&e.meta, errors);
            enumerants.push(Enumerant {
                name: leak_str(&e.name),
                value: e.value,
                parameters: self.operands(&e.parameters),
                capabilities: meta.capabilities,
                extensions: meta.extensions,
                version: meta.version,
                last_version: meta.last_version,
                provisional: meta.provisional,
                aliases: meta.aliases,
            });
        }
        let bases: Vec<&'static OperandKind> = k.bases.iter().map(|b| self.get(b)).collect();
        Box::leak(Box::new(OperandKind {
            name: leak_str(&k.name),
            category: category(k.category),
            class: class(&k.name, k.category),
            doc: k.doc.as_deref().map(leak_str),
            enumerants: Vec::leak(enumerants),
            bases: Vec::leak(bases),
            index: name_index(names, errors),
        }))
    }

    /// A kind by name: this grammar's, else the core grammar's. The model checked that
    /// every name is one or the other; a core kind spirv-core lacks (a core grammar
    /// newer than spirv-core's) reads as a plain integer.
    fn get(&self, name: &str) -> &'static OperandKind {
        if let Some(k) = self.by_name.get(name) {
            return k;
        }
        static UNKNOWN: OperandKind = OperandKind::EMPTY;
        spirv_core::spv::GRAMMAR.kind(name).unwrap_or(&UNKNOWN)
    }

    /// An operand layout.
    fn operands(&self, ops: &[Operand]) -> &'static [OperandInfo] {
        let infos: Vec<OperandInfo> = ops
            .iter()
            .map(|op| OperandInfo {
                kind: self.get(&op.kind),
                quantifier: match op.quantifier {
                    model::Quantifier::One => Quantifier::One,
                    model::Quantifier::Optional => Quantifier::Optional,
                    model::Quantifier::Variadic => Quantifier::Variadic,
                },
                name: op.name.as_deref().map_or("", leak_str),
            })
            .collect();
        Vec::leak(infos)
    }
}

/// The availability fields of a table entry.
struct LeakedMeta {
    capabilities: &'static [u32],
    extensions: &'static [&'static str],
    version: Option<(u8, u8)>,
    last_version: Option<(u8, u8)>,
    provisional: bool,
    aliases: &'static [&'static str],
}

/// Leaks a model's metadata; capabilities become their values (an unknown name is an
/// error, as it is for the macro).
fn leak_meta(m: &Meta, errors: &mut Vec<String>) -> LeakedMeta {
    let mut capabilities = Vec::with_capacity(m.capabilities.len());
    for c in &m.capabilities {
        match spirv_grammar_codegen::CORE_CAPABILITIES
            .iter()
            .find(|(name, _)| name == c)
        {
            Some(&(_, value)) => capabilities.push(value),
            None => errors.push(format!(
                "unknown capability \"{c}\"; expected an enumerant of the core grammar's Capability kind"
            )),
        }
    }
    let strings = |list: &[String]| -> &'static [&'static str] {
        Vec::leak(list.iter().map(|s| leak_str(s)).collect())
    };
    LeakedMeta {
        capabilities: Vec::leak(capabilities),
        extensions: strings(&m.extensions),
        version: m.version,
        last_version: m.last_version,
        provisional: m.provisional,
        aliases: strings(&m.aliases),
    }
}

/// A name index over `names` (name, entry), laid out as the expansion lays its out.
/// Its slots are 16-bit, so a table of more names is refused, not left with names no
/// lookup finds.
fn name_index(names: Vec<(&'static str, usize)>, errors: &mut Vec<String>) -> NameIndex {
    if names.len() >= usize::from(u16::MAX) {
        errors.push(format!(
            "{} names (with aliases) in one table; at most {} are supported",
            names.len(),
            u16::MAX - 1
        ));
        return NameIndex::EMPTY;
    }
    let slots = spirv_grammar_codegen::name_table::slots(names.iter().map(|(n, _)| *n));
    NameIndex {
        slots: Vec::leak(slots),
        names: Vec::leak(names),
    }
}

fn category(c: model::Category) -> Category {
    match c {
        model::Category::ValueEnum => Category::ValueEnum,
        model::Category::BitEnum => Category::BitEnum,
        model::Category::Id => Category::Id,
        model::Category::Literal => Category::Literal,
        model::Category::Composite => Category::Composite,
    }
}

/// The role tools give a kind, from the model's one list of them (`model::class_of`).
fn class(name: &str, c: model::Category) -> KindClass {
    match model::class_of(name, c) {
        "ResultType" => KindClass::ResultType,
        "Result" => KindClass::Result,
        "Id" => KindClass::Id,
        "String" => KindClass::String,
        "Float" => KindClass::Float,
        "ContextNumber" => KindClass::ContextNumber,
        "ExtInstNumber" => KindClass::ExtInstNumber,
        "SpecConstantOpcode" => KindClass::SpecConstantOpcode,
        "ValueEnum" => KindClass::ValueEnum,
        "BitEnum" => KindClass::BitEnum,
        "Composite" => KindClass::Composite,
        _ => KindClass::Integer,
    }
}

fn leak_str(s: &str) -> &'static str {
    Box::leak(s.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SET: &str = r#"{ "revision": 1, "instructions": [
        { "opname": "Hello", "opcode": 1, "operands": [
            { "kind": "IdRef", "name": "Who" }, { "kind": "Greeting" } ] },
        { "opname": "Bye", "opcode": 0 } ],
      "operand_kinds": [
        { "category": "BitEnum", "kind": "Greeting", "enumerants": [
            { "enumerant": "None", "value": "0x0000" },
            { "enumerant": "Loud", "value": "0x0001", "parameters": [ { "kind": "Volume" } ] } ] },
        { "category": "ValueEnum", "kind": "Volume", "enumerants": [
            { "enumerant": "Low", "value": 0 }, { "enumerant": "High", "value": 1 } ] } ] }"#;

    #[test]
    fn a_loaded_set_looks_up_as_a_generated_one_does() {
        let g = load(SET, Selector::Name("NonSemantic.Hello".into())).unwrap();
        assert_eq!(g.instruction(1).map(|i| i.opname), Some("Hello"));
        assert_eq!(g.instruction_by_name("Bye").map(|i| i.opcode), Some(0));
        let hello = g.instruction(1).unwrap();
        assert_eq!(hello.operands[0].kind.class, KindClass::Id);
        let greeting = hello.operands[1].kind;
        assert_eq!(greeting.category, Category::BitEnum);
        let loud = greeting.enumerant_by_name("Loud").unwrap();
        // `Volume` comes after `Greeting` in the file but is built first.
        assert_eq!(
            loud.parameters[0].kind.enumerant(1).map(|e| e.name),
            Some("High")
        );
        assert!(g.matches_import(b"NonSemantic.Hello"));
    }

    #[test]
    fn selectors_come_from_the_argument_or_the_file_name() {
        assert_eq!(split_import("A.B=x.json"), (Some("A.B"), "x.json"));
        assert_eq!(split_import("dir/a=b.json"), (None, "dir/a=b.json"));
        assert_eq!(
            Selector::stem_of("dir/extinst.nonsemantic.foo.grammar.json"),
            Selector::Stem("nonsemantic.foo".into())
        );
        assert_eq!(
            Selector::stem_of("extinst.glsl.std.450.grammar.json"),
            Selector::Name("GLSL.std.450".into())
        );
    }

    #[test]
    fn a_core_grammar_or_a_kind_cycle_is_refused() {
        let core = r#"{ "magic_number": "0x07230203", "major_version": 1, "minor_version": 0,
            "revision": 1, "instructions": [], "operand_kinds": [] }"#;
        assert!(load(core, Selector::Stem("x".into())).is_err());
        let cycle = r#"{ "revision": 1, "instructions": [], "operand_kinds": [
            { "category": "ValueEnum", "kind": "A", "enumerants": [
                { "enumerant": "X", "value": 0, "parameters": [ { "kind": "A" } ] } ] } ] }"#;
        let errors = load(cycle, Selector::Stem("x".into())).unwrap_err();
        assert!(errors[0].contains("refers to itself"), "{errors:?}");
    }
}
