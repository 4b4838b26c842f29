//! The disassembler against spirv-dis 2025.5's gold output for every corpus binary. Where
//! the vendored grammar is newer than SPIRV-Tools 2025.5, text that differs only by the
//! items it renamed (`spirv_tests::reference::Newer::renamed`: our canonical name and
//! SPIRV-Tools' for the same item) is counted and reported, not failed.

use spirv_asm::{DisOptions, disassemble};
use spirv_tests::reference::Newer;
use spirv_tests::{files, read_words, require_corpus, stem};
use std::path::Path;

fn first_difference(got: &[u8], want: &[u8]) -> String {
    let g: Vec<&[u8]> = got.split(|&b| b == b'\n').collect();
    let w: Vec<&[u8]> = want.split(|&b| b == b'\n').collect();
    for (i, (a, b)) in g.iter().zip(&w).enumerate() {
        if a != b {
            return format!(
                "line {}:\n  got:  {}\n  want: {}",
                i + 1,
                String::from_utf8_lossy(a),
                String::from_utf8_lossy(b)
            );
        }
    }
    format!("line counts differ: got {} want {}", g.len(), w.len())
}

fn check(dir: &Path, gold: &str, opts: &DisOptions, names: Option<&[(String, String)]>) {
    let mut failures = Vec::new();
    let mut renamed: Vec<(String, String)> = Vec::new();
    let mut renamed_files = 0;
    let mut count = 0;
    let newer = Newer::of_vendored();
    let list: Vec<(String, String)> = match names {
        Some(n) => n.to_vec(),
        None => files(&dir.join("bin"), "spv")
            .iter()
            .map(|p| (stem(p), format!("{}.spvasm", stem(p))))
            .collect(),
    };
    for (name, gold_file) in &list {
        let words = read_words(&dir.join("bin").join(format!("{name}.spv")));
        let want = std::fs::read(dir.join(gold).join(gold_file)).expect("gold");
        count += 1;
        match disassemble(&words, opts) {
            Ok(got) if got == want => {}
            Ok(got) => match newer.renamed_only(&got, &want) {
                // Only items the vendored grammar renamed since SPIRV-Tools 2025.5.
                Some(pairs) => {
                    renamed_files += 1;
                    for p in pairs {
                        if !renamed.contains(&p) {
                            renamed.push(p);
                        }
                    }
                }
                None => failures.push(format!("{name}: {}", first_difference(&got, &want))),
            },
            Err(e) => failures.push(format!("{name}: error {e}")),
        }
    }
    println!(
        "{gold}: {} of {count} identical, {renamed_files} more identical but for renamed names",
        count - failures.len() - renamed_files
    );
    if !renamed.is_empty() {
        // Visible in the test output; not a failure.
        let list: Vec<String> = renamed
            .iter()
            .map(|(o, t)| format!("{o} (was {t})"))
            .collect();
        eprintln!(
            "{gold}: names the vendored grammar renamed since SPIRV-Tools 2025.5: {}",
            list.join(", ")
        );
    }
    assert!(count > 0, "{gold}: nothing compared");
    assert!(
        failures.is_empty(),
        "{} of {count} differ:\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
}

#[test]
fn default_options_match_dis() {
    let Some(dir) = require_corpus("disassembly against spirv-dis's goldens") else {
        return;
    };
    check(&dir, "dis", &DisOptions::default(), None);
}

#[test]
fn raw_ids_match_dis_raw() {
    let Some(dir) = require_corpus("disassembly against spirv-dis's goldens") else {
        return;
    };
    check(
        &dir,
        "dis-raw",
        &DisOptions {
            raw_id: true,
            ..DisOptions::default()
        },
        None,
    );
}

#[test]
fn no_indent_no_header_match() {
    let Some(dir) = require_corpus("disassembly against spirv-dis's goldens") else {
        return;
    };
    let names: Vec<(String, String)> = files(&dir.join("dis-noindent"), "spvasm")
        .iter()
        .map(|p| (stem(p), format!("{}.spvasm", stem(p))))
        .collect();
    check(
        &dir,
        "dis-noindent",
        &DisOptions {
            indent: false,
            header: false,
            ..DisOptions::default()
        },
        Some(&names),
    );
}

fn opts_sample(option: &str, opts: DisOptions) {
    let Some(dir) = require_corpus("disassembly against spirv-dis's goldens") else {
        return;
    };
    let suffix = format!(".{option}");
    let names: Vec<(String, String)> = files(&dir.join("dis-opts"), "spvasm")
        .iter()
        .filter_map(|p| {
            stem(p)
                .strip_suffix(&suffix)
                .map(|n| (n.to_owned(), format!("{}.spvasm", stem(p))))
        })
        .collect();
    assert!(!names.is_empty());
    check(&dir, "dis-opts", &opts, Some(&names));
}

#[test]
fn offsets_sample_matches() {
    opts_sample(
        "offsets",
        DisOptions {
            offsets: true,
            ..DisOptions::default()
        },
    );
}

#[test]
fn comment_sample_matches() {
    opts_sample(
        "comment",
        DisOptions {
            comment: true,
            ..DisOptions::default()
        },
    );
}

#[test]
fn nested_indent_sample_matches() {
    opts_sample(
        "nested-indent",
        DisOptions {
            nested_indent: true,
            ..DisOptions::default()
        },
    );
}

#[test]
fn reorder_blocks_sample_matches() {
    opts_sample(
        "reorder-blocks",
        DisOptions {
            reorder_blocks: true,
            ..DisOptions::default()
        },
    );
}
