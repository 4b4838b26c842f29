//! `include_spirv_asm!` against the runtime assembler and spirv-as: a sample of the
//! corpus's assembly files (`asm/` with their manifest's flags, and `dis/`) goes through
//! the macro in a scratch crate, and each embedded module must equal what
//! `spirv_asm::assemble` gives at run time and, with spirv-as's generator word, the
//! corpus's gold binary from spirv-as 2025.5, byte for byte.
//!
//! The scratch build is minutes cold: it runs only with `SPIRV_SCRATCH_TESTS=1`
//! (`.ci/run` runs it as a step of its own).

use spirv_asm::SPIRV_TOOLS_GENERATOR;
use spirv_asm::{AsmOptions, assemble};
use spirv_core::target_env_version;
use spirv_tests::scratch::{cargo_run_args, scratch_crate};
use spirv_tests::{files, require_corpus, scratch_tests, stem, workspace_root};
use std::path::PathBuf;

/// One sampled file: its text, the macro options, and spirv-as's binary.
struct Case {
    name: String,
    text: PathBuf,
    gold: PathBuf,
    target_env: Option<String>,
    preserve_numeric_ids: bool,
}

#[test]
fn corpus_sample_through_the_macro_equals_runtime_and_spirv_as() {
    if !scratch_tests("include_spirv_asm! on corpus files") {
        return;
    }
    let Some(dir) = require_corpus("include_spirv_asm! on corpus files") else {
        return;
    };
    let mut cases = Vec::new();
    let manifest = std::fs::read_to_string(dir.join("MANIFEST.tsv")).expect("manifest");
    for line in manifest.lines().skip(1).step_by(3) {
        let cols: Vec<&str> = line.split('\t').collect();
        if cols.len() < 7 || !(cols[1] == "asm" || cols[1] == "asm-alt") {
            continue;
        }
        let args: Vec<&str> = cols[6].split_whitespace().collect();
        cases.push(Case {
            name: format!("asm-{}", cols[0]),
            text: dir.join("asm").join(format!("{}.spvasm", cols[0])),
            gold: dir.join(cols[1]).join(format!("{}.spv", cols[0])),
            target_env: args
                .iter()
                .position(|a| *a == "--target-env")
                .map(|i| args[i + 1].to_owned()),
            preserve_numeric_ids: args.contains(&"--preserve-numeric-ids"),
        });
    }
    for path in files(&dir.join("dis"), "spvasm").iter().step_by(40) {
        cases.push(Case {
            name: format!("dis-{}", stem(path)),
            text: path.clone(),
            gold: dir.join("as").join(format!("{}.spv", stem(path))),
            target_env: None,
            preserve_numeric_ids: false,
        });
    }
    assert!(cases.len() >= 40, "only {} cases", cases.len());

    let crate_dir = scratch_crate("asm-macro-corpus-scratch");
    let mut main = String::from("static CASES: &[(&str, &[u32])] = &[\n");
    for c in &cases {
        let mut opts = String::from(", generator = 0x0007_0000");
        if let Some(env) = &c.target_env {
            opts.push_str(&format!(", target_env = {env:?}"));
        }
        if c.preserve_numeric_ids {
            opts.push_str(", preserve_numeric_ids = true");
        }
        main.push_str(&format!(
            "    ({:?}, spirv_asm_macros::include_spirv_asm!({:?}{opts})),\n",
            c.name,
            c.text.display().to_string()
        ));
    }
    main.push_str(
        "];\nfn main() {\n    let out = std::path::PathBuf::from(std::env::args().nth(1).expect(\"out dir\"));\n    for (name, words) in CASES {\n        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();\n        std::fs::write(out.join(name), bytes).expect(\"write\");\n    }\n}\n",
    );
    std::fs::write(crate_dir.join("src/main.rs"), main).expect("main");
    let out = crate_dir.join("out");
    std::fs::create_dir_all(&out).expect("out dir");
    let target = workspace_root().join("target/asm-macro-corpus-scratch-target");
    cargo_run_args(
        &crate_dir,
        &target,
        None,
        &[out.to_str().expect("utf-8 path")],
    );

    let mut failures = Vec::new();
    for c in &cases {
        let embedded = std::fs::read(out.join(&c.name)).expect("embedded words");
        let opts = AsmOptions {
            generator: SPIRV_TOOLS_GENERATOR,
            preserve_numeric_ids: c.preserve_numeric_ids,
            version: c.target_env.as_deref().and_then(target_env_version),
            ..AsmOptions::default()
        };
        let runtime = assemble(&std::fs::read(&c.text).expect("text"), &opts).expect("assembles");
        let gold = std::fs::read(&c.gold).expect("gold");
        if embedded != spirv_core::binary::words_to_bytes(&runtime) {
            failures.push(format!("{}: differs from the runtime assembler", c.name));
        } else if embedded != gold {
            failures.push(format!("{}: differs from spirv-as", c.name));
        }
    }
    println!(
        "include_spirv_asm!: {} of {} corpus files equal the runtime assembler and spirv-as",
        cases.len() - failures.len(),
        cases.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
