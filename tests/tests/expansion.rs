//! Readability goldens: the pretty-printed expansion of a small fixture grammar, and the
//! Rust name of every core grammar item. `BLESS=1` rewrites them; review the diff.

use spirv_tests::workspace_root;

fn check_golden(path: &std::path::Path, got: &str) {
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(path, got).expect("bless");
        return;
    }
    let want = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        got == want,
        "{} differs from the generated text; run with BLESS=1 and review the diff",
        path.display()
    );
}

#[test]
fn fixture_expansion_pretty_prints_as_the_golden() {
    let dir = workspace_root().join("tests/fixtures");
    let json =
        std::fs::read_to_string(dir.join("nonsemantic.example.grammar.json")).expect("fixture");
    let mut opts = spirv_grammar_codegen::Options::new("NonSemantic.Example");
    opts.import = Some("NonSemantic.Example".into());
    let code = spirv_grammar_codegen::expand_source(&json, &opts, None).expect("expands");
    let file: syn::File = syn::parse_str(&code).expect("generated code parses as a Rust file");
    let pretty = prettyplease::unparse(&file);
    check_golden(&dir.join("example_set.expanded.rs"), &pretty);
}

#[test]
fn core_names_table_matches_the_golden() {
    let root = workspace_root();
    let json = std::fs::read_to_string(root.join("grammar/spirv.core.grammar.json"))
        .expect("core grammar");
    let table = spirv_grammar_codegen::names_table(&json).expect("parses");
    check_golden(&root.join("tests/fixtures/core-names.tsv"), &table);
}

/// The expansion stays lean: a visible decision when it grows.
#[test]
fn core_expansion_size_is_ratcheted() {
    let root = workspace_root();
    let json = std::fs::read_to_string(root.join("grammar/spirv.core.grammar.json"))
        .expect("core grammar");
    let code = spirv_grammar_codegen::expand_source(
        &json,
        &spirv_grammar_codegen::Options::new("core"),
        None,
    )
    .expect("expands");
    println!("core expansion: {} bytes", code.len());
    assert!(
        code.len() < 3_800_000,
        "core expansion grew to {} bytes",
        code.len()
    );
}

#[test]
fn instruction_enum_size_is_ratcheted() {
    let size = std::mem::size_of::<spirv_core::spv::Instruction>();
    println!("size_of::<spv::Instruction>() = {size}");
    assert!(size <= 96, "spv::Instruction grew to {size} bytes");
}
