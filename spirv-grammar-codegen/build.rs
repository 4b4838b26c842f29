//! Extracts the core grammar's operand kinds (name, category, whether any enumerant has
//! parameters, composite bases) so that an extended grammar can be checked against them
//! without reading the 600 KB core grammar at every expansion.
use std::fmt::Write;

#[allow(dead_code)]
#[path = "src/json.rs"]
mod json;

fn main() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default();
    let path = std::path::Path::new(&manifest).join("../grammar/spirv.core.grammar.json");
    println!("cargo::rerun-if-changed={}", path.display());
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    let json = json::parse(&text).unwrap_or_else(|e| panic!("parsing {}: {e}", path.display()));
    let field = |v: &json::Value, key: &str| v.get(key).cloned().unwrap_or(json::Value::Null);
    let mut out = String::from("&[\n");
    for k in field(&json, "operand_kinds")
        .as_array()
        .into_iter()
        .flatten()
    {
        let name = field(k, "kind").as_str().unwrap_or_default().to_owned();
        let cat = field(k, "category").as_str().unwrap_or_default().to_owned();
        let params = field(k, "enumerants").as_array().is_some_and(|es| {
            es.iter().any(|e| {
                field(e, "parameters")
                    .as_array()
                    .is_some_and(|p| !p.is_empty())
            })
        });
        let bases: Vec<String> = field(k, "bases")
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|b| b.as_str())
            .map(|b| format!("{b:?}"))
            .collect();
        let _ = writeln!(
            out,
            "    ExternalKind {{ name: {name:?}, category: Category::{cat}, has_parameters: {params}, bases: &[{}] }},",
            bases.join(", ")
        );
    }
    out.push(']');
    let dest =
        std::path::Path::new(&std::env::var("OUT_DIR").unwrap_or_default()).join("core_kinds.rs");
    std::fs::write(&dest, out).unwrap_or_else(|e| panic!("writing {}: {e}", dest.display()));
}
