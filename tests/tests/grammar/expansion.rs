//! Goldens of the generated code: the pretty-printed expansion of a small fixture grammar,
//! the Rust name of every core grammar item, and size ratchets. The last two follow the
//! vendored grammar; after a grammar update,
//! `BLESS=1 cargo test -p spirv-tests --test grammar expansion::` rewrites them (the command
//! `grammar/update.sh` prints). Review the diff.

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

/// A size that may shrink but not grow without a visible decision: the limit lives in
/// `tests/fixtures/ratchets.txt` (`name limit` per line), which `BLESS=1` rewrites with
/// the current value. A newer grammar grows the expansion; blessing records that.
fn ratchet(name: &str, value: usize) {
    let path = workspace_root().join("tests/fixtures/ratchets.txt");
    println!("{name}: {value}");
    if std::env::var_os("BLESS").is_some() {
        // Tests run in parallel: re-read under a lock so that both ratchets are kept.
        static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
        let _guard = LOCK.lock().unwrap_or_else(|e| e.into_inner());
        let mut lines = read_ratchets(&path);
        lines.retain(|(n, _)| n != name);
        lines.push((name.to_owned(), value));
        lines.sort();
        let out: String = lines.iter().map(|(n, v)| format!("{n} {v}\n")).collect();
        std::fs::write(&path, out).expect("bless");
        return;
    }
    let limit = read_ratchets(&path)
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| *v)
        .unwrap_or_else(|| {
            panic!(
                "no `{name}` ratchet in {}; run with BLESS=1",
                path.display()
            )
        });
    assert!(
        value <= limit,
        "{name} grew to {value} (limit {limit}); if that is intended, run with BLESS=1"
    );
}

fn read_ratchets(path: &std::path::Path) -> Vec<(String, usize)> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| {
            let (n, v) = l.rsplit_once(' ')?;
            Some((n.to_owned(), v.parse().ok()?))
        })
        .collect()
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
    ratchet("core-expansion-bytes", code.len());
}

#[test]
fn instruction_enum_size_is_ratcheted() {
    ratchet(
        "spv-instruction-bytes",
        std::mem::size_of::<spirv_core::spv::Instruction>(),
    );
}

/// FNV-1a, 64 bits: a stable digest of a text, for goldens too large to check in.
fn fnv64(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Every vendored grammar expands, item for item, as it did when the digests were
/// blessed: the core grammar and each extended set, typed and tables-only, with the
/// options spirv-core's invocations give. The digest is of the prettyplease dump, so a
/// change to how the emitters are written that leaves the tokens alone keeps it, and any
/// change to what is emitted shows here. `EXPANSION_DUMP=dir` also writes each dump, to
/// diff two revisions.
#[test]
fn vendored_expansions_match_their_digests() {
    use spirv_grammar_codegen::{Options, vendored};
    let dump = std::env::var_os("EXPANSION_DUMP").map(std::path::PathBuf::from);
    let mut cases: Vec<(String, String, Options)> = Vec::new();
    let mut core = Options::new("spirv.core.grammar.json");
    core.krate = "crate".into();
    cases.push(("spirv.core.grammar.json".into(), "core".into(), core));
    for set in vendored::SETS {
        for tables_only in [false, true] {
            let mut o = Options::new(set.import);
            o.krate = "crate".into();
            o.tables_only = tables_only;
            let value = Some(set.import.to_owned());
            match set.import_key {
                "import" => o.import = value,
                "import_prefix" => o.import_prefix = value,
                _ => o.import_stem = value,
            }
            let mode = if tables_only { "tables" } else { "all" };
            cases.push((set.file.into(), format!("{}.{mode}", set.module), o));
        }
    }
    let mut lines = String::new();
    for (file, label, opts) in &cases {
        let json = std::fs::read_to_string(std::path::Path::new(vendored::DIR).join(file))
            .expect("vendored grammar");
        let code = spirv_grammar_codegen::expand_source(&json, opts, None).expect("expands");
        let parsed: syn::File = syn::parse_str(&code).expect("parses as a Rust file");
        let pretty = prettyplease::unparse(&parsed);
        if let Some(dir) = &dump {
            std::fs::create_dir_all(dir).expect("dump folder");
            std::fs::write(dir.join(format!("{label}.rs")), &pretty).expect("dump");
        }
        lines.push_str(&format!("{label}\t{:016x}\n", fnv64(&pretty)));
    }
    check_golden(
        &workspace_root().join("tests/fixtures/expansion-digests.tsv"),
        &lines,
    );
}

/// The keys of the vendored grammars that no reader knows, which the expansion ignores
/// (see `spirv_grammar_codegen::model::Grammar::unknown_keys`). A grammar update that
/// brings a new key changes this list: decide whether the expansion should read it.
#[test]
fn unknown_keys_of_the_vendored_grammars_match_the_golden() {
    use spirv_grammar_codegen::vendored;
    let mut files: Vec<&str> = vendored::SETS.iter().map(|s| s.file).collect();
    files.push("spirv.core.grammar.json");
    files.sort_unstable();
    let mut lines = String::new();
    for file in files {
        let json = std::fs::read_to_string(std::path::Path::new(vendored::DIR).join(file))
            .expect("vendored grammar");
        let grammar = spirv_grammar_codegen::model::parse(&json, spirv_grammar_codegen::CORE_KINDS)
            .expect("parses");
        for key in &grammar.unknown_keys {
            lines.push_str(&format!("{file}\t{key}\n"));
        }
    }
    check_golden(
        &workspace_root().join("tests/fixtures/unknown-keys.tsv"),
        &lines,
    );
}
