//! `InstRef::decode_lossless`: an instruction that `decode` refuses comes back as raw
//! words that encode to exactly its words, and one that `decode` accepts comes back as
//! `decode` gives it; so re-encoding every instruction of a module gives its words back.
//!
//! No corpus instruction fails `decode` as the corpus is (the test prints the count), so
//! each module is also read with instructions that a lenient read keeps as raw words and
//! `decode` refuses: every 5th instruction inside a function given an opcode no grammar
//! has, and every `OpCapability` and `OpDecorate` given an unknown enumerant. The
//! workspace's fixtures always; every corpus binary when the corpus is there.

use spirv_asm::AsmOptions;
use spirv_core::{Module, spv};
use spirv_tests::{files, read_words, require_corpus, workspace_root};

/// The largest opcode no grammar instruction has.
fn unknown_opcode() -> u32 {
    (0..=0xffff_u32)
        .rev()
        .find(|&op| spv::GRAMMAR.instruction(op).is_none())
        .expect("a free opcode")
}

/// `words` with every 5th instruction inside a function (past `OpFunction`,
/// `OpFunctionParameter` and `OpLabel`) given opcode `op`, and every `OpCapability`'s
/// capability and `OpDecorate`'s decoration an unknown value. Returns how many
/// instructions changed.
fn undecodable(words: &[u32], op: u32) -> (Vec<u32>, usize) {
    const FUNCTION: u32 = spv::Opcode::Function.0 as u32;
    const FUNCTION_END: u32 = spv::Opcode::FunctionEnd.0 as u32;
    const PARAMETER: u32 = spv::Opcode::FunctionParameter.0 as u32;
    const LABEL: u32 = spv::Opcode::Label.0 as u32;
    const CAPABILITY: u32 = spv::Opcode::Capability.0 as u32;
    const DECORATE: u32 = spv::Opcode::Decorate.0 as u32;
    let mut w = words.to_vec();
    let (mut pos, mut inside, mut nth, mut changed) = (5, false, 0, 0);
    while pos < w.len() {
        let count = (w[pos] >> 16) as usize;
        if count == 0 || pos + count > w.len() {
            break;
        }
        match w[pos] & 0xffff {
            FUNCTION => inside = true,
            FUNCTION_END => inside = false,
            PARAMETER | LABEL => {}
            CAPABILITY if count == 2 => {
                w[pos + 1] = 0x7ff0_0000;
                changed += 1;
            }
            DECORATE if count >= 3 => {
                w[pos + 2] = 0x7ff0_0000;
                changed += 1;
            }
            _ if inside => {
                nth += 1;
                if nth % 5 == 0 {
                    w[pos] = (w[pos] & 0xffff_0000) | op;
                    changed += 1;
                }
            }
            _ => {}
        }
        pos += count;
    }
    (w, changed)
}

/// Tallies over the modules checked.
#[derive(Default, Debug)]
struct Tally {
    modules: usize,
    unread: usize,
    instructions: usize,
    refused: usize,
}

/// Reads `words` leniently and checks every instruction's `decode_lossless`: equal to
/// `decode` where that succeeds, raw words that encode to the instruction's words where
/// it fails, and all of them together encoding to the module's words.
fn check(name: &str, words: &[u32], tally: &mut Tally) {
    let Ok(m) = Module::from_words(words) else {
        tally.unread += 1;
        return;
    };
    tally.modules += 1;
    let mut encoded = Vec::with_capacity(words.len());
    for inst in m.instructions() {
        tally.instructions += 1;
        let lossless = inst.decode_lossless();
        let start = encoded.len();
        lossless
            .encode(&mut encoded)
            .unwrap_or_else(|e| panic!("{name}: {:?} does not encode: {e:?}", inst.opcode()));
        assert_eq!(
            &encoded[start..],
            inst.words(),
            "{name}: {:?} at word {}",
            inst.opcode(),
            inst.offset()
        );
        match inst.decode() {
            Ok(typed) => assert_eq!(typed, lossless, "{name}: {:?}", inst.opcode()),
            Err(_) => {
                tally.refused += 1;
                assert!(
                    matches!(lossless, spv::Instruction::Unknown(_)),
                    "{name}: {:?} fails decode but not as raw words",
                    inst.opcode()
                );
            }
        }
    }
    assert_eq!(encoded, m.to_words()[5..], "{name}: the module's words");
}

/// Every `.spvasm` file under `tests/fixtures/` that assembles (`%N` kept as id N).
fn fixture_modules() -> Vec<(String, Vec<u32>)> {
    let opts = AsmOptions {
        preserve_numeric_ids: true,
        ..AsmOptions::default()
    };
    let root = workspace_root().join("tests/fixtures");
    ["", "nested-function", "dis-errors"]
        .iter()
        .flat_map(|sub| files(&root.join(sub), "spvasm"))
        .filter_map(|p| {
            let text = std::fs::read(&p).expect("fixture");
            let words = spirv_asm::assemble(&text, &opts).ok()?;
            Some((p.display().to_string(), words))
        })
        .collect()
}

#[test]
fn fixture_instructions_round_trip_through_decode_lossless() {
    let op = unknown_opcode();
    let (mut as_is, mut changed) = (Tally::default(), Tally::default());
    let fixtures = fixture_modules();
    assert!(fixtures.len() >= 20, "{} fixtures assemble", fixtures.len());
    for (name, words) in &fixtures {
        check(name, words, &mut as_is);
        check(name, &undecodable(words, op).0, &mut changed);
    }
    println!("fixtures as they are: {as_is:?}\nwith undecodable instructions: {changed:?}");
    assert!(as_is.instructions >= 150, "{as_is:?}");
    assert!(changed.refused >= 8, "{changed:?}");
}

#[test]
fn corpus_instructions_round_trip_through_decode_lossless() {
    let Some(dir) = require_corpus("decode_lossless over the corpus") else {
        return;
    };
    let op = unknown_opcode();
    let (mut as_is, mut changed, mut made) = (Tally::default(), Tally::default(), 0);
    let bins = files(&dir.join("bin"), "spv");
    assert!(bins.len() >= 1000, "corpus binaries missing");
    for p in &bins {
        let words = read_words(p);
        let name = p.display().to_string();
        check(&name, &words, &mut as_is);
        let (words, n) = undecodable(&words, op);
        made += n;
        check(&name, &words, &mut changed);
    }
    println!("corpus as it is: {as_is:?}\nwith {made} instructions made undecodable: {changed:?}");
    assert_eq!(as_is.modules, bins.len(), "every corpus module reads");
    assert!(as_is.instructions > 200_000, "{as_is:?}");
    // A few modules no longer read: an OpSwitch whose selector's type was made unknown.
    assert!(changed.modules * 100 >= bins.len() * 98, "{changed:?}");
    assert!(changed.refused >= 20_000, "{changed:?}");
}
