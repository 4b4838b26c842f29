//! Runs the fuzz bodies over deterministic mutations of corpus inputs: bit flips, word
//! edits, truncation, word-count edits; text truncation, token insertion, stray bytes,
//! huge numbers. `FUZZ_CASES=N` changes the number of cases per target (default 3000).

use spirv_tests::{corpus_dir, files, read_words};

/// xorshift64*: deterministic, so failures reproduce.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

fn cases() -> usize {
    std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3000)
}

fn mutate_words(rng: &mut Rng, words: &mut Vec<u32>) {
    match rng.below(6) {
        0 => {
            let i = rng.below(words.len());
            words[i] ^= 1 << rng.below(32);
        }
        1 => {
            let i = rng.below(words.len());
            words[i] = rng.next() as u32;
        }
        2 => {
            let n = rng.below(words.len());
            words.truncate(n);
        }
        3 => {
            // Edit a word count in the instruction stream.
            let i = 5 + rng.below(words.len().saturating_sub(5));
            if i < words.len() {
                words[i] = (words[i] & 0xffff) | ((rng.below(8) as u32) << 16);
            }
        }
        4 => {
            if words.len() > 3 {
                words[3] = 0xffff_ffff;
            }
        }
        _ => {
            let i = rng.below(words.len());
            words[i] = [0, 1, 0xffff_ffff, 0x8000_0000, 0x0001_0000][rng.below(5)];
        }
    }
}

fn sample_bins() -> Vec<Vec<u32>> {
    let Some(dir) = corpus_dir() else {
        return Vec::new();
    };
    files(&dir.join("bin"), "spv")
        .iter()
        .step_by(7)
        .map(|p| read_words(p))
        .collect()
}

#[test]
fn core_reader_never_panics_on_mutated_modules() {
    let bins = sample_bins();
    if bins.is_empty() {
        return;
    }
    let mut rng = Rng(0x5eed_1234);
    for _ in 0..cases() {
        let mut w = bins[rng.below(bins.len())].clone();
        for _ in 0..=rng.below(3) {
            if w.is_empty() {
                break;
            }
            mutate_words(&mut rng, &mut w);
        }
        spirv_core::fuzz::module(&spirv_core::binary::words_to_bytes(&w));
    }
    // Random bytes too.
    for _ in 0..cases() / 4 {
        let n = rng.below(64) * 4;
        let bytes: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
        spirv_core::fuzz::module(&bytes);
    }
}

#[test]
fn disassembler_never_panics_on_mutated_modules() {
    let bins = sample_bins();
    if bins.is_empty() {
        return;
    }
    let mut rng = Rng(0xd15_a55e);
    for _ in 0..cases() / 2 {
        let mut w = bins[rng.below(bins.len())].clone();
        for _ in 0..=rng.below(3) {
            if w.is_empty() {
                break;
            }
            mutate_words(&mut rng, &mut w);
        }
        spirv_asm::fuzz::disassemble_words(&w);
    }
}

#[test]
fn assembler_never_panics_on_mutated_text() {
    let Some(dir) = corpus_dir() else { return };
    let texts: Vec<Vec<u8>> = files(&dir.join("dis"), "spvasm")
        .iter()
        .step_by(23)
        .filter_map(|p| std::fs::read(p).ok())
        .collect();
    let tokens: &[&[u8]] = &[
        b" OpNop ",
        b" %",
        b" = ",
        b"\"",
        b" !",
        b" 99999999999999999999999 ",
        b" -0x8000000000000000 ",
        b" 0x1p+99999 ",
        b" OpUnknown(",
        b" | ",
        b";",
        b"\\",
        b"\0",
        b"\xff\xfe",
        b" OpExtInst ",
        b" OpSpecConstantOp ",
        b" OpSwitch ",
        b" OpConstant ",
        b" %1 = ",
    ];
    let mut rng = Rng(0xa55e_b1e5);
    for _ in 0..cases() / 3 {
        let mut t = texts[rng.below(texts.len())].clone();
        // Keep cases small enough to run many.
        t.truncate(4000);
        match rng.below(4) {
            0 => {
                let n = rng.below(t.len());
                t.truncate(n);
            }
            1 => {
                let at = rng.below(t.len());
                let tok = tokens[rng.below(tokens.len())];
                t.splice(at..at, tok.iter().copied());
            }
            2 => {
                let at = rng.below(t.len());
                if at < t.len() {
                    t[at] = rng.next() as u8;
                }
            }
            _ => {
                let at = rng.below(t.len());
                let end = (at + rng.below(40)).min(t.len());
                t.drain(at..end);
            }
        }
        spirv_asm::fuzz::assemble_text(&t);
    }
}
