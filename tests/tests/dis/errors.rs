//! Disassembler errors against spirv-dis 2025.5's, recorded in `tests/fixtures/dis-errors/`
//! (the module as `NAME.spvasm` or `NAME.spv`, see `spirv_tests::dis_error_cases`, and
//! `NAME.expected`: exit code and stderr): same exit code, same
//! instruction index, and our message starts with spirv-dis's (we add the word offset).
//! Also `--keep-going` and the corpus round trip through our own tools.

use spirv_asm::{AsmOptions, DisOptions, assemble, disassemble};
use spirv_tests::{dis_error_cases, files, read_words, require_corpus, stem, workspace_root};

#[test]
fn errors_match_spirv_dis() {
    let dir = workspace_root().join("tests/fixtures/dis-errors");
    let cases = dis_error_cases::all(&dir);
    assert!(cases.len() >= 20);
    let mut failures = Vec::new();
    for (name, words) in &cases {
        let expected =
            std::fs::read_to_string(dir.join(format!("{name}.expected"))).expect("golden");
        let mut lines = expected.lines();
        let code: u8 = lines.next().and_then(|l| l.parse().ok()).expect("code");
        let err = lines
            .next()
            .unwrap_or("")
            .strip_prefix("error: ")
            .expect("error line");
        // "N: message" when an instruction index is given (1-based, as spirv-dis prints it).
        let (index, msg) = match err.split_once(": ") {
            Some((n, m)) if n.parse::<usize>().is_ok() => (n.parse::<usize>().ok(), m),
            _ => (None, err),
        };
        let index = index.map(|n| n - 1);
        match disassemble(words, &DisOptions::default()) {
            Ok(_) => failures.push(format!("{name}: disassembled, spirv-dis said {err}")),
            Err(e) => {
                if e.exit_code() != code || e.instruction != index || !e.message.starts_with(msg) {
                    failures.push(format!(
                        "{name}: got [{}] {:?}: {}\n   want [{code}] {index:?}: {msg}",
                        e.exit_code(),
                        e.instruction,
                        e.message
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn errors_give_instruction_index_and_word_offset() {
    let words = dis_error_cases::words("invalid_opcode");
    let e = disassemble(words, &DisOptions::default()).expect_err("invalid");
    // The second instruction (0-based 1), printed 1-based as spirv-dis does.
    assert_eq!((e.instruction, e.offset, e.exit_code()), (Some(1), 7, 252));
    assert_eq!(e.to_string(), "2: Invalid opcode: 65535 (at word 7)");
    // The kind the reader found is kept for programs to match on.
    assert_eq!(
        e.kind,
        spirv_asm::DisErrorKind::Decode(spirv_core::DecodeErrorKind::UnknownOpcode {
            opcode: 65535
        })
    );
    let truncated = disassemble(&words[..3], &DisOptions::default()).expect_err("short");
    assert_eq!(
        truncated.kind,
        spirv_asm::DisErrorKind::Decode(spirv_core::DecodeErrorKind::TruncatedHeader { words: 3 })
    );
}

#[test]
fn keep_going_prints_bad_instructions_as_reassemblable_words() {
    let opts = DisOptions {
        keep_going: true,
        raw_id: true,
        ..DisOptions::default()
    };
    for name in [
        "invalid_opcode",
        "invalid_enumerant",
        "extra_operands",
        "zero_word_count",
        "past_end",
        "unknown_import",
    ] {
        let words = dis_error_cases::words(name);
        let text = disassemble(words, &opts).unwrap_or_else(|e| panic!("{name}: {e}"));
        let again = assemble(
            &text,
            &AsmOptions {
                preserve_numeric_ids: true,
                ..AsmOptions::default()
            },
        )
        .unwrap_or_else(|e| {
            panic!(
                "{name}: {}\n{}",
                e.render(&text),
                String::from_utf8_lossy(&text)
            )
        });
        assert_eq!(
            &again[5..],
            &words[5..],
            "{name}:\n{}",
            String::from_utf8_lossy(&text)
        );
    }
}

/// `dis --raw-id` then `as --preserve-numeric-ids`, both ours, gives back every corpus
/// binary on every word but the generator (and the bound for the listed 19).
#[test]
fn corpus_round_trips_through_our_text() {
    let Some(dir) = require_corpus("round trip through our own text") else {
        return;
    };
    let bound: Vec<String> = std::fs::read_to_string(dir.join("bound-exceeds-ids.txt"))
        .unwrap_or_default()
        .lines()
        .map(|l| l.trim().to_owned())
        .collect();
    let mut failures = Vec::new();
    let bins = files(&dir.join("bin"), "spv");
    assert!(
        bins.len() >= 1000,
        "expected the full corpus, found {}",
        bins.len()
    );
    for path in &bins {
        let name = stem(path);
        let words = read_words(path);
        let text = disassemble(
            &words,
            &DisOptions {
                raw_id: true,
                ..DisOptions::default()
            },
        )
        .expect("dis");
        let again = assemble(
            &text,
            &AsmOptions {
                preserve_numeric_ids: true,
                ..AsmOptions::default()
            },
        )
        .expect("as");
        let skip_bound = bound.contains(&name);
        let same = again.len() == words.len()
            && again
                .iter()
                .zip(&words)
                .enumerate()
                .all(|(i, (a, b))| i == 2 || (skip_bound && i == 3) || a == b);
        if !same {
            failures.push(name);
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} differ: {:?}",
        failures.len(),
        bins.len(),
        &failures[..failures.len().min(10)]
    );
}
