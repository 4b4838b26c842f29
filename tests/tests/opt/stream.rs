//! `Optimizer::run_file_reporting`, which loads a module as it reads it and writes the
//! result as it makes it, against the in-memory run on the same bytes: the same words,
//! the same change flag, or the same failure and messages, on corpus modules, on
//! broken copies of them (cut short, a word count of 0, an odd length, a bad magic,
//! the other byte order) and on instructions that straddle the reader's window.

use spirv_opt::{Message, OptError, Optimizer, PassOptions};
use spirv_tests::opt_cases::scratch;
use std::path::Path;

/// An optimizer as spirv-opt's command line makes it, without validation.
fn optimizer(flags: &[&str]) -> Optimizer {
    let mut opt = Optimizer::new();
    let mut options = PassOptions::default();
    options.preserve_interface = true;
    opt.skip_validation(true).pass_options(options);
    for f in flags {
        opt.register_flag(f).expect("a flag");
    }
    opt
}

/// What a run made, or its failure, with what it told its consumer.
type Outcome = (Result<(Vec<u8>, bool), OptError>, Vec<String>);

/// The in-memory run on `bytes`, as the streamed one is documented to behave.
fn in_memory(opt: &Optimizer, bytes: &[u8]) -> Outcome {
    let mut said = Vec::new();
    if bytes.len() % 4 != 0 {
        let e = OptError::Decode(spirv_core::DecodeError::at_word(
            spirv_core::DecodeErrorKind::ByteLengthNotMultipleOf4 { len: bytes.len() },
            bytes.len() / 4,
        ));
        said.push(e.message().to_string());
        return (Err(e), said);
    }
    let words = spirv_tests::opt_diff::words_of(bytes);
    let out = opt
        .run_owned_reporting(words, &mut |m: Message| said.push(m.to_string()))
        .map(|o| (spirv_core::binary::words_to_bytes(&o.words), o.changed));
    (out, said)
}

/// The streamed run on the file at `path`, written as bytes.
fn streamed(opt: &Optimizer, path: &Path) -> Outcome {
    let mut said = Vec::new();
    let mut file = std::fs::File::open(path).expect("open");
    let out = opt
        .run_file_reporting(&mut file, &mut |m: Message| said.push(m.to_string()))
        .map(|done| {
            let changed = done.changed();
            let len = done.byte_len();
            let mut bytes = Vec::new();
            done.write_to(&mut bytes).expect("write to memory");
            assert_eq!(bytes.len() as u64, len, "byte_len is what write_to writes");
            (bytes, changed)
        });
    (out, said)
}

/// Checks both runs of each flag list on `bytes`; the number of failures seen.
fn check(dir: &Path, name: &str, bytes: &[u8], runs: &[&[&str]]) -> usize {
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("write");
    let mut failed = 0;
    for flags in runs {
        let opt = optimizer(flags);
        let (mine, mine_said) = streamed(&opt, &path);
        let (theirs, theirs_said) = in_memory(&opt, bytes);
        failed += usize::from(theirs.is_err());
        assert!(
            mine == theirs && mine_said == theirs_said,
            "{name} {flags:?}: streamed {:?} {mine_said:?}, in memory {:?} {theirs_said:?}",
            mine.as_ref().map(|(b, c)| (b.len(), c)),
            theirs.as_ref().map(|(b, c)| (b.len(), c)),
        );
    }
    failed
}

/// Passes on the IR first (the streamed path), then a structural pass first (read
/// whole), then an IR pass after a structural one.
const RUNS: &[&[&str]] = &[
    &["--eliminate-dead-branches"],
    &["--cfg-cleanup", "--merge-blocks"],
    &["--strip-debug", "--wrap-opkill"],
];

#[test]
fn streamed_runs_match_in_memory_runs() {
    let Some(corpus) = spirv_tests::require_corpus("streamed_runs_match_in_memory_runs") else {
        return;
    };
    let dir = scratch("stream");
    let mut modules = spirv_tests::files(&corpus.join("bin"), "spv");
    // Every 7th module, for time; the large one crosses the reader's window.
    modules = modules.into_iter().step_by(7).collect();
    modules.push(corpus.join("large/synth50.spv"));
    let mut broken = 0;
    for (k, path) in modules.iter().enumerate() {
        let bytes = std::fs::read(path).expect("read");
        let name = format!("m{k}.spv");
        check(&dir, &name, &bytes, RUNS);
        if bytes.len() < 40 || k % 3 != 0 {
            continue;
        }
        // Broken copies: each must fail (or not) as the in-memory run does.
        let words = bytes.len() / 4;
        let cut = 4 * (5 + (k * 7919) % (words - 5));
        let mut zero = bytes.clone();
        zero[cut + 2..cut + 4].copy_from_slice(&[0, 0]);
        let mut magic = bytes.clone();
        magic[0] ^= 1;
        let swapped: Vec<u8> = bytes
            .chunks_exact(4)
            .flat_map(|c| [c[3], c[2], c[1], c[0]])
            .collect();
        let mut odd = bytes.clone();
        odd.push(0);
        for (tag, b) in [
            ("cut", &bytes[..cut + 4]),
            ("zero", &zero[..]),
            ("magic", &magic[..]),
            ("swapped", &swapped[..]),
            ("odd", &odd[..]),
            ("header", &bytes[..12]),
            ("bytes", &bytes[..3]),
            ("empty", &bytes[..0]),
        ] {
            broken += check(&dir, &format!("{tag}{k}.spv"), b, &RUNS[..1]);
        }
    }
    assert!(broken > 0, "the broken copies fail");
}

/// A module whose `OpString`s, most of the reader's window each, straddle its edges.
#[test]
fn instructions_across_the_window_read_whole() {
    let dir = scratch("stream-window");
    let mut words = vec![spirv_core::binary::MAGIC, 0x0001_0000, 0, 100, 0];
    words.extend([(2 << 16) | 17, 1]); // OpCapability Shader
    words.extend([(3 << 16) | 14, 0, 1]); // OpMemoryModel Logical GLSL450
    for (k, len) in [65_000usize, 40_000, 65_534, 3, 65_534, 17]
        .into_iter()
        .enumerate()
    {
        // OpString %id "aaa…" of `len` words, NUL-terminated.
        words.push((((len + 2) as u32) << 16) | 7);
        words.push(10 + k as u32);
        words.extend(std::iter::repeat_n(0x6161_6161, len - 1));
        words.push(0);
    }
    let bytes = spirv_core::binary::words_to_bytes(&words);
    check(&dir, "window.spv", &bytes, RUNS);
    let swapped: Vec<u8> = bytes
        .chunks_exact(4)
        .flat_map(|c| [c[3], c[2], c[1], c[0]])
        .collect();
    check(&dir, "window-swapped.spv", &swapped, RUNS);
    let cut = &bytes[..bytes.len() - 8];
    assert_eq!(check(&dir, "window-cut.spv", cut, RUNS), RUNS.len());
}
