//! spirv-core over every corpus binary: decode, byte-exact round trip, typed decode.

use spirv_core::{Module, ReadOptions};
use spirv_tests::{files, read_words, require_corpus, stem};

#[test]
fn every_corpus_module_round_trips_byte_for_byte() {
    let Some(dir) = require_corpus("spirv-core corpus round trip") else {
        return;
    };
    let bins = files(&dir.join("bin"), "spv");
    assert!(
        bins.len() >= 1000,
        "expected the full corpus, found {}",
        bins.len()
    );
    let mut failures = Vec::new();
    let mut typed_raw = 0usize;
    let mut total = 0usize;
    for path in &bins {
        let bytes = std::fs::read(path).expect("read");
        match Module::from_bytes(&bytes) {
            Ok(m) => {
                if m.to_bytes() != bytes {
                    failures.push(format!("{}: round trip differs", stem(path)));
                }
                // Typed decode of every instruction, re-encoded, gives the same words.
                for inst in m.instructions() {
                    total += 1;
                    match inst.decode() {
                        Ok(t) => {
                            let mut w = Vec::new();
                            if t.encode(&mut w).is_err() || w != inst.words() {
                                failures.push(format!(
                                    "{}: typed re-encode of instruction {} ({:?}) differs",
                                    stem(path),
                                    inst.index(),
                                    inst.opcode()
                                ));
                            }
                        }
                        Err(_) => typed_raw += 1,
                    }
                }
            }
            Err(e) => failures.push(format!("{}: {e}", stem(path))),
        }
    }
    println!(
        "{} modules, {total} instructions, {typed_raw} without a typed decode",
        bins.len()
    );
    assert!(total > 100_000, "only {total} instructions decoded");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures[..failures.len().min(30)].join("\n")
    );
}

#[test]
fn strict_mode_accepts_the_corpus() {
    let Some(dir) = require_corpus("strict reading of the corpus") else {
        return;
    };
    let mut failures = Vec::new();
    let bins = files(&dir.join("bin"), "spv");
    assert!(
        bins.len() >= 1000,
        "expected the full corpus, found {}",
        bins.len()
    );
    for path in bins {
        let words = read_words(&path);
        if let Err(e) = Module::read(
            &words,
            &ReadOptions {
                strict: true,
                ..ReadOptions::default()
            },
        ) {
            failures.push(format!("{}: {e}", stem(&path)));
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures[..failures.len().min(30)].join("\n")
    );
}

/// `stream::read` gives, for every corpus instruction, what `Module` + `InstRef::decode`
/// gives, in one pass.
#[test]
fn one_pass_typed_reading_matches_the_module_reader() {
    let Some(dir) = require_corpus("one-pass typed reading of the corpus") else {
        return;
    };
    let mut compared = 0usize;
    for path in files(&dir.join("bin"), "spv") {
        let words = read_words(&path);
        let m = Module::from_words(&words).expect("reads");
        let (header, stream) = spirv_core::stream::read(&words).expect("header");
        assert_eq!(&header, m.header());
        let streamed: Vec<_> = stream.collect();
        assert_eq!(streamed.len(), m.len(), "{}", stem(&path));
        for (inst, s) in m.instructions().zip(&streamed) {
            assert_eq!(
                &inst.decode(),
                s,
                "{} instruction {}",
                stem(&path),
                inst.index()
            );
            compared += 1;
        }
    }
    assert!(compared > 100_000, "only {compared} instructions compared");
}

/// Malformed input ends the stream with an error, and an id defined twice is one.
#[test]
fn one_pass_typed_reading_reports_errors() {
    // `!<integer>` writes a word as it is: the module may be malformed.
    const W: &[u32] = spirv_asm_macros::spirv_asm!(
        r#"
        %1 = OpTypeInt 32 0
        !0x00030016 %1 32     ; %1 = OpTypeFloat 32: redefined
        !0x00090015 %2        ; OpTypeInt whose word count runs past the end
        "#,
        preserve_numeric_ids = true,
    );
    let (_, s) = spirv_core::stream::read(W).expect("header");
    let items: Vec<_> = s.collect();
    assert_eq!(items.len(), 3);
    assert!(items[0].is_ok());
    assert_eq!(
        items[1].as_ref().map_err(|e| e.kind.clone()).err(),
        Some(spirv_core::DecodeErrorKind::IdRedefined { id: 1 })
    );
    assert!(matches!(
        items[2].as_ref().map_err(|e| e.kind.clone()),
        Err(spirv_core::DecodeErrorKind::InstructionPastEnd { .. })
    ));
}
