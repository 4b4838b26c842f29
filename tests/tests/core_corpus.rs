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
                            t.encode(&mut w);
                            if w != inst.words() {
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
                registry: None,
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
