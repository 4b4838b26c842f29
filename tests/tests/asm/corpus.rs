//! The assembler against spirv-as 2025.5's gold binaries.

use spirv_asm::SPIRV_TOOLS_GENERATOR;
use spirv_asm::{AsmOptions, assemble};
use spirv_core::target_env_version;
use spirv_tests::{files, read_words, require_corpus, stem};
use std::path::Path;

/// Compares on every word but the generator (word 2); optionally also not the bound.
fn compare(got: &[u32], want: &[u32], skip_bound: bool) -> Option<String> {
    if got.len() != want.len() {
        return Some(format!("length {} vs {}", got.len(), want.len()));
    }
    for (i, (a, b)) in got.iter().zip(want).enumerate() {
        if i == 2 || (skip_bound && i == 3) {
            continue;
        }
        if a != b {
            return Some(format!("word {i}: got {a:#010x} want {b:#010x}"));
        }
    }
    None
}

fn run(dir: &Path, text_dir: &str, gold_dir: &str, opts: &AsmOptions, skip_bound: &[String]) {
    let mut failures = Vec::new();
    let texts = files(&dir.join(text_dir), "spvasm");
    assert!(!texts.is_empty());
    for path in &texts {
        let name = stem(path);
        let text = std::fs::read(path).expect("read");
        let want = read_words(&dir.join(gold_dir).join(format!("{name}.spv")));
        match assemble(&text, opts) {
            Ok(got) => {
                if let Some(d) = compare(&got, &want, skip_bound.contains(&name)) {
                    failures.push(format!("{name}: {d}"));
                }
            }
            Err(e) => failures.push(format!("{name}: {}", e.render(&text))),
        }
    }
    println!(
        "{text_dir} -> {gold_dir}: {} of {} identical",
        texts.len() - failures.len(),
        texts.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} differ:\n{}",
        failures.len(),
        texts.len(),
        failures[..failures.len().min(15)].join("\n")
    );
}

#[test]
fn dis_text_assembles_to_gold_as() {
    let Some(dir) = require_corpus("dis/ -> as/ assembly") else {
        return;
    };
    run(&dir, "dis", "as", &AsmOptions::default(), &[]);
}

#[test]
fn dis_text_with_spirv_tools_generator_is_byte_identical() {
    let Some(dir) = require_corpus("byte-identical assembly") else {
        return;
    };
    let opts = AsmOptions {
        generator: SPIRV_TOOLS_GENERATOR,
        ..AsmOptions::default()
    };
    let mut bad = 0;
    let mut compared = 0;
    for path in files(&dir.join("dis"), "spvasm").iter().take(200) {
        compared += 1;
        let got = assemble(&std::fs::read(path).expect("read"), &opts).expect("assembles");
        let want = std::fs::read(dir.join("as").join(format!("{}.spv", stem(path)))).expect("gold");
        if spirv_core::binary::words_to_bytes(&got) != want {
            bad += 1;
        }
    }
    println!(
        "dis -> as with spirv-as's generator: {} of {compared} byte-identical",
        compared - bad
    );
    assert_eq!((bad, compared), (0, 200));
}

#[test]
fn dis_raw_text_with_preserved_ids_gives_the_original() {
    let Some(dir) = require_corpus("dis-raw/ -> bin/ assembly") else {
        return;
    };
    let bound: Vec<String> = std::fs::read_to_string(dir.join("bound-exceeds-ids.txt"))
        .unwrap_or_default()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect();
    run(
        &dir,
        "dis-raw",
        "bin",
        &AsmOptions {
            preserve_numeric_ids: true,
            ..AsmOptions::default()
        },
        &bound,
    );
}

#[test]
fn hand_written_asm_matches_manifest_commands() {
    let Some(dir) = require_corpus("asm/ assembly") else {
        return;
    };
    let manifest = std::fs::read_to_string(dir.join("MANIFEST.tsv")).expect("manifest");
    let mut failures = Vec::new();
    let mut count = 0;
    for line in manifest.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        if cols.len() < 7 || !(cols[1] == "asm" || cols[1] == "asm-alt") {
            continue;
        }
        let (name, kind, command) = (cols[0], cols[1], cols[6]);
        let args: Vec<&str> = command.split_whitespace().collect();
        let mut opts = AsmOptions {
            preserve_numeric_ids: args.contains(&"--preserve-numeric-ids"),
            ..AsmOptions::default()
        };
        if let Some(i) = args.iter().position(|a| *a == "--target-env") {
            opts.version = target_env_version(args[i + 1]);
        }
        let text = std::fs::read(dir.join("asm").join(format!("{name}.spvasm"))).expect("text");
        let want = read_words(&dir.join(kind).join(format!("{name}.spv")));
        count += 1;
        match assemble(&text, &opts) {
            Ok(got) => {
                if let Some(d) = compare(&got, &want, false) {
                    failures.push(format!("{kind}/{name}: {d}"));
                }
            }
            Err(e) => failures.push(format!("{kind}/{name}: {}", e.render(&text))),
        }
    }
    println!(
        "asm + asm-alt: {} of {count} identical",
        count - failures.len()
    );
    assert!(count > 100);
    assert!(
        failures.is_empty(),
        "{} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
