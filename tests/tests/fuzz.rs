//! Runs the fuzz bodies over deterministic mutations of corpus inputs: bit flips, word
//! edits, word-count edits, repeated instructions, nesting (type chains, embedded
//! opcodes, structured control flow), truncation to any byte length, splices of two
//! modules; text truncation, token insertion, stray bytes, huge numbers.
//! `FUZZ_CASES=N` changes the number of cases per target (default 3000).

use spirv_asm::AsmOptions;
use spirv_core::spv::Opcode;
use spirv_tests::{files, read_words, require_corpus};

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

/// Mutated inputs stay below this many words, so that many cases run.
const MAX_WORDS: usize = 1 << 16;

/// Word offsets of the instructions after the header, as far as they parse.
fn boundaries(words: &[u32]) -> Vec<usize> {
    let mut at = Vec::new();
    let mut pos = 5;
    while pos < words.len() {
        let count = (words[pos] >> 16) as usize;
        if count == 0 || pos + count > words.len() {
            break;
        }
        at.push(pos);
        pos += count;
    }
    at
}

fn inst(op: Opcode, operands: &[u32]) -> Vec<u32> {
    let mut w = vec![((operands.len() as u32 + 1) << 16) | u32::from(op.0)];
    w.extend_from_slice(operands);
    w
}

/// Appends a structure nested `depth` deep, with fresh ids from the bound up.
fn nest(rng: &mut Rng, words: &mut Vec<u32>, depth: usize) {
    let mut id = words.get(3).copied().unwrap_or(1).clamp(1, 1 << 20);
    let mut fresh = || {
        id += 1;
        id
    };
    let mut out = Vec::new();
    match rng.below(3) {
        0 => {
            // A chain of types, each built on the one before.
            let mut prev = fresh();
            out.extend(inst(Opcode::TypeInt, &[prev, 32, 0]));
            let len = fresh();
            out.extend(inst(Opcode::Constant, &[prev, len, 3]));
            for _ in 0..depth {
                let t = fresh();
                match rng.below(3) {
                    0 => out.extend(inst(Opcode::TypePointer, &[t, 7, prev])),
                    1 => out.extend(inst(Opcode::TypeArray, &[t, prev, len])),
                    _ => out.extend(inst(Opcode::TypeRuntimeArray, &[t, prev])),
                }
                prev = t;
            }
        }
        1 => {
            // OpSpecConstantOp embedding opcodes, itself among them, again and again.
            let mut ops = vec![fresh(), fresh()];
            for _ in 0..depth {
                ops.push(
                    [Opcode::SpecConstantOp.0, Opcode::IAdd.0, Opcode::ExtInst.0][rng.below(3)]
                        .into(),
                );
            }
            ops.truncate(0xfffe);
            out.extend(inst(Opcode::SpecConstantOp, &ops));
        }
        _ => {
            // A function of selection constructs nested `depth` deep.
            let (void, fnty, boolty, cond) = (fresh(), fresh(), fresh(), fresh());
            out.extend(inst(Opcode::TypeVoid, &[void]));
            out.extend(inst(Opcode::TypeBool, &[boolty]));
            out.extend(inst(Opcode::ConstantTrue, &[boolty, cond]));
            out.extend(inst(Opcode::TypeFunction, &[fnty, void]));
            out.extend(inst(Opcode::Function, &[void, fresh(), 0, fnty]));
            let labels: Vec<(u32, u32)> = (0..depth).map(|_| (fresh(), fresh())).collect();
            for (i, &(label, merge)) in labels.iter().enumerate() {
                let inner = labels.get(i + 1).map_or(merge, |l| l.0);
                out.extend(inst(Opcode::Label, &[label]));
                out.extend(inst(Opcode::SelectionMerge, &[merge, 0]));
                out.extend(inst(Opcode::BranchConditional, &[cond, inner, merge]));
            }
            for &(_, merge) in labels.iter().rev() {
                out.extend(inst(Opcode::Label, &[merge]));
                out.extend(inst(Opcode::Return, &[]));
            }
            if rng.below(2) == 0 {
                out.extend(inst(Opcode::FunctionEnd, &[]));
            }
        }
    }
    words.extend(out);
    if words.len() > 3 {
        words[3] = id + 1;
    }
}

fn mutate_words(rng: &mut Rng, words: &mut Vec<u32>, other: &[u32]) {
    match rng.below(10) {
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
        5 => {
            // Repeat one instruction many times in place.
            let at = boundaries(words);
            if let Some(&start) = at.get(rng.below(at.len())) {
                let count = (words[start] >> 16) as usize;
                let copy = words[start..start + count].to_vec();
                let times = 1 + rng.below(MAX_WORDS / count / 4);
                let tail = words.split_off(start);
                for _ in 0..times {
                    words.extend_from_slice(&copy);
                }
                words.extend_from_slice(&tail);
            }
        }
        6 => {
            let depth = 1 + rng.below(4000);
            nest(rng, words, depth);
        }
        7 => {
            // Splice: this module's head, another one's tail, cut at instructions.
            let (a, b) = (boundaries(words), boundaries(other));
            if let (Some(&cut), Some(&from)) =
                (a.get(rng.below(a.len())), b.get(rng.below(b.len())))
            {
                words.truncate(cut);
                words.extend_from_slice(&other[from..]);
            }
        }
        _ => {
            let i = rng.below(words.len());
            words[i] = [0, 1, 0xffff_ffff, 0x8000_0000, 0x0001_0000][rng.below(5)];
        }
    }
    words.truncate(MAX_WORDS);
}

/// A corpus module mutated one to three times.
fn mutated(rng: &mut Rng, bins: &[Vec<u32>]) -> Vec<u32> {
    let mut w = bins[rng.below(bins.len())].clone();
    for _ in 0..=rng.below(3) {
        if w.is_empty() {
            break;
        }
        let other = &bins[rng.below(bins.len())];
        mutate_words(rng, &mut w, other);
    }
    w
}

fn sample_bins(what: &str) -> Vec<Vec<u32>> {
    let Some(dir) = require_corpus(what) else {
        return Vec::new();
    };
    let bins: Vec<Vec<u32>> = files(&dir.join("bin"), "spv")
        .iter()
        .step_by(7)
        .map(|p| read_words(p))
        .collect();
    assert!(!bins.is_empty(), "no corpus binaries to mutate");
    bins
}

#[test]
fn core_reader_never_panics_on_mutated_modules() {
    let bins = sample_bins("the reader's fuzz body");
    if bins.is_empty() {
        return;
    }
    let mut rng = Rng(0x5eed_1234);
    for _ in 0..cases() {
        let w = mutated(&mut rng, &bins);
        let mut bytes = spirv_core::binary::words_to_bytes(&w);
        if rng.below(8) == 0 {
            // Any byte length, not only whole words.
            let n = rng.below(bytes.len() + 1);
            bytes.truncate(n);
        }
        spirv_core::fuzz::module(&bytes);
    }
    // Random bytes too.
    for _ in 0..cases() / 4 {
        let n = rng.below(256);
        let bytes: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
        spirv_core::fuzz::module(&bytes);
    }
}

#[test]
fn reflection_never_panics_on_mutated_modules() {
    let bins = sample_bins("the reflection fuzz body");
    if bins.is_empty() {
        return;
    }
    let mut rng = Rng(0x0f1e_c7ed);
    for _ in 0..cases() / 2 {
        let w = mutated(&mut rng, &bins);
        spirv_core::fuzz::reflect(&spirv_core::binary::words_to_bytes(&w));
        spirv_asm::fuzz::reflect_words(&w);
    }
}

#[test]
fn disassembler_never_panics_on_mutated_modules() {
    let bins = sample_bins("the disassembler's fuzz body");
    if bins.is_empty() {
        return;
    }
    let mut rng = Rng(0xd15_a55e);
    for _ in 0..cases() / 2 {
        let w = mutated(&mut rng, &bins);
        spirv_asm::fuzz::disassemble_words(&w);
    }
}

#[test]
fn assembler_never_panics_on_mutated_text() {
    let Some(dir) = require_corpus("the assembler's fuzz body") else {
        return;
    };
    let texts: Vec<Vec<u8>> = files(&dir.join("dis"), "spvasm")
        .iter()
        .step_by(23)
        .filter_map(|p| std::fs::read(p).ok())
        .collect();
    assert!(!texts.is_empty(), "no corpus texts to mutate");
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
        match rng.below(7) {
            0 => {
                let n = rng.below(t.len());
                t.truncate(n);
            }
            4 => {
                // Repeat one line many times.
                let lines: Vec<&[u8]> = t.split(|&b| b == b'\n').collect();
                let line = lines[rng.below(lines.len())].to_vec();
                for _ in 0..rng.below(2000) {
                    t.push(b'\n');
                    t.extend_from_slice(&line);
                }
            }
            5 => {
                // Nesting: an embedded opcode, or a mask of parts, repeated.
                let part: &[u8] = [&b" SpecConstantOp"[..], b"|None", b" IAdd"][rng.below(3)];
                t.extend_from_slice(b"\n%nest = OpSpecConstantOp %1");
                for _ in 0..rng.below(5000) {
                    t.extend_from_slice(part);
                }
                t.push(b'\n');
            }
            6 => {
                // Splice two texts.
                let other = &texts[rng.below(texts.len())];
                let (cut, from) = (rng.below(t.len()), rng.below(other.len()));
                t.truncate(cut);
                t.extend_from_slice(&other[from..]);
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

/// Inputs the fuzz tests once panicked on, through the bodies and checked against what
/// spirv-as 2025.5 does with them.
#[test]
fn fuzz_findings_stay_fixed() {
    // A constant of a 0-bit integer type (found from the Builder seeds): `1 << (width -
    // 1)` overflowed. spirv-as takes 0, and -1 when signed (one word, sign-extended), and
    // says that anything else does not fit.
    for (signed, literal, expected) in [
        (1, "0", Ok(0)),
        (1, "-1", Ok(0xffff_ffff)),
        (1, "-0x1", Ok(0xffff_ffff)),
        (1, "0x0", Ok(0)),
        (
            1,
            "1",
            Err("Integer 1 does not fit in a 0-bit signed integer"),
        ),
        (
            1,
            "-2",
            Err("Integer -2 does not fit in a 0-bit signed integer"),
        ),
        (
            1,
            "0x1",
            Err("Integer 0x1 does not fit in a 0-bit signed integer"),
        ),
        (0, "0", Ok(0)),
        (
            0,
            "5",
            Err("Integer 5 does not fit in a 0-bit unsigned integer"),
        ),
        (
            0,
            "0x1",
            Err("Integer 0x1 does not fit in a 0-bit unsigned integer"),
        ),
    ] {
        let text = format!(
            "OpCapability Shader\nOpMemoryModel Logical GLSL450\n%1 = OpTypeInt 0 {signed}\n%2 = OpConstant %1 {literal}\n"
        );
        spirv_asm::fuzz::assemble_text(text.as_bytes());
        let got = spirv_asm::assemble(text.as_bytes(), &AsmOptions::default());
        match (got, expected) {
            (Ok(words), Ok(value)) => assert_eq!(words.last(), Some(&value), "{literal}"),
            (Err(e), Err(message)) => assert_eq!(e.message, message),
            (got, expected) => {
                panic!("{literal} (signed {signed}): {got:?}, expected {expected:?}")
            }
        }
    }
}
