//! Reads the vendored grammar folder (`spirv-grammar-data`, or `SPIRV_GRAMMAR_DIR`):
//! - the core grammar's operand kinds (name, category, whether any enumerant has
//!   parameters, composite bases), so that an extended grammar can be checked against
//!   them without reading the 600 KB core grammar at every expansion;
//! - the list of extended-instruction-set files, with each one's module and import name,
//!   for `for_each_vendored_set!`.
//!
//! The folder is watched as a whole, so an added, removed or edited file reruns this
//! script and so rebuilds everything generated from the folder.
use serde_json::Value;
use std::fmt::Write;
use std::path::{Path, PathBuf};

fn main() {
    println!("cargo::rerun-if-env-changed=SPIRV_GRAMMAR_DIR");
    let dir = match std::env::var_os("SPIRV_GRAMMAR_DIR") {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(spirv_grammar_data::DIR),
    };
    println!("cargo::rerun-if-changed={}", dir.display());
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap_or_default());
    write(&out.join("core_kinds.rs"), &core_kinds(&dir));
    write(&out.join("core_capabilities.rs"), &core_capabilities(&dir));
    write(&out.join("vendored_sets.rs"), &vendored_sets(&dir));
}

fn write(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
}

fn core_kinds(dir: &Path) -> String {
    let path = dir.join(spirv_grammar_data::CORE);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    let json: Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("parsing {}: {e}", path.display()));
    let mut out = String::from("&[\n");
    for k in items(&json, "operand_kinds") {
        let name = text_of(k, "kind");
        let cat = text_of(k, "category");
        let params = items(k, "enumerants")
            .iter()
            .any(|e| !items(e, "parameters").is_empty());
        let bases: Vec<String> = items(k, "bases")
            .iter()
            .filter_map(Value::as_str)
            .map(|b| format!("{b:?}"))
            .collect();
        let _ = writeln!(
            out,
            "    ExternalKind {{ name: {name:?}, category: Category::{cat}, has_parameters: {params}, bases: &[{}] }},",
            bases.join(", ")
        );
    }
    out.push(']');
    out
}

/// The core grammar's `Capability` enumerants, every name (aliases included) with its
/// value, so that an extended grammar's tables can hold capability values.
fn core_capabilities(dir: &Path) -> String {
    let path = dir.join(spirv_grammar_data::CORE);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    let json: Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("parsing {}: {e}", path.display()));
    let mut out = String::from("&[\n");
    let capability = items(&json, "operand_kinds")
        .iter()
        .find(|k| text_of(k, "kind") == "Capability");
    for e in capability.map_or(&[][..], |k| items(k, "enumerants")) {
        let value = match e.get("value") {
            Some(Value::Number(n)) => n.as_u64().unwrap_or(u64::MAX),
            Some(Value::String(s)) => {
                u64::from_str_radix(s.trim_start_matches("0x"), 16).unwrap_or(u64::MAX)
            }
            _ => u64::MAX,
        };
        let Ok(value) = u32::try_from(value) else {
            continue;
        };
        let names = std::iter::once(text_of(e, "enumerant"))
            .chain(items(e, "aliases").iter().filter_map(Value::as_str));
        for name in names {
            let _ = writeln!(out, "    ({name:?}, {value}),");
        }
    }
    out.push(']');
    out
}

/// The array under `key`, or nothing.
fn items<'a>(v: &'a Value, key: &str) -> &'a [Value] {
    v.get(key)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// The string under `key`, or "".
fn text_of<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or_default()
}

/// `DIR` and `SETS` of `spirv_grammar_codegen::vendored`: every `extinst.*.grammar.json`
/// in the folder, sorted by file name.
fn vendored_sets(dir: &Path) -> String {
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("listing {}: {e}", dir.display()))
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|f| f.starts_with("extinst.") && f.ends_with(".grammar.json"))
        .collect();
    files.sort();
    let mut out = format!(
        "/// The folder the vendored grammars were read from.\npub const DIR: &str = {:?};\n\n/// Every vendored extended instruction set, by file name.\npub const SETS: &[Set] = &[\n",
        dir.display().to_string()
    );
    for file in &files {
        let (module, key, value) = match spirv_grammar_data::KNOWN_SETS
            .iter()
            .find(|k| k.file == file)
        {
            Some(k) => match k.import {
                spirv_grammar_data::Import::Name(n) => {
                    (k.module.to_owned(), "import", n.to_owned())
                }
                spirv_grammar_data::Import::Prefix(p) => {
                    (k.module.to_owned(), "import_prefix", p.to_owned())
                }
            },
            None => {
                let stem = &file["extinst.".len()..file.len() - ".grammar.json".len()];
                (module_for(stem), "import_stem", stem.to_owned())
            }
        };
        let _ = writeln!(
            out,
            "    Set {{ module: {module:?}, file: {file:?}, import_key: {key:?}, import: {value:?} }},"
        );
    }
    out.push_str("];\n");
    out
}

/// A module name for a set without a known one: its file-name stem in snake case.
fn module_for(stem: &str) -> String {
    let mut m: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    if !m.starts_with(|c: char| c.is_ascii_alphabetic()) {
        m.insert_str(0, "set_");
    }
    m
}
