//! Hand-written cases for how spirv-as 2025.5 encodes operands (`spvTextEncodeOperand`):
//! masks and their parameters, `!<integer>` immediates, `OpSwitch` literals sized by the
//! selector, `OpSpecConstantOp`'s embedded layout, aliases, extended-set names (the number
//! tables are unit tests in `spirv-asm/src/number.rs`), and a differential property test
//! against spirv-as 2025.5 when it is on PATH. The property test writes only what
//! SPIRV-Tools 2025.5 knows (`spirv_tests::reference`), so a newer vendored grammar
//! changes what it leaves out and reports, never whether it passes.

use spirv_asm::SPIRV_TOOLS_GENERATOR;
use spirv_asm::{AsmOptions, assemble_str};
use spirv_core::grammar::{KindClass, OperandKind, Quantifier};
use spirv_core::{ext, spv};
use spirv_grammar_codegen::model;
use spirv_tests::reference::{self, Newer, Reference};

fn asm(text: &str) -> Vec<u32> {
    assemble_str(
        text,
        &AsmOptions {
            preserve_numeric_ids: true,
            ..Default::default()
        },
    )
    .unwrap_or_else(|e| panic!("{}", e.render(text.as_bytes())))
}

/// The words of the last instruction.
fn last(text: &str) -> Vec<u32> {
    let w = asm(text);
    let mut i = 5;
    let mut start = 5;
    while i < w.len() {
        start = i;
        i += (w[i] >> 16) as usize;
    }
    w[start..].to_vec()
}

#[test]
fn masks_and_their_parameters_in_bit_order() {
    // MemoryAccess: Aligned (0x2) takes a literal, Volatile (0x1) none; the text order of
    // names does not matter, parameters follow in ascending bit order.
    let w = last(
        "%1 = OpTypeInt 32 0\n%2 = OpTypePointer Function %1\n%3 = OpVariable %2 Function\n%4 = OpLoad %1 %3 Aligned|Volatile 4",
    );
    assert_eq!(&w[4..], &[0x3, 4]);
    // ImageOperands with two parameterised bits: Bias (0x1) then Offset (0x10).
    let w = last("%9 = OpImageSampleImplicitLod %1 %2 %3 Offset|Bias %4 %5");
    assert_eq!(&w[5..], &[0x11, 4, 5]);
    // A value enumerant with parameters: Decoration SpecId.
    assert_eq!(&last("OpDecorate %1 SpecId 7")[2..], &[1, 7]);
    // None is 0.
    assert_eq!(
        last("%1 = OpTypeVoid\n%2 = OpTypeFunction %1\n%3 = OpFunction %1 None %2")[3],
        0
    );
}

#[test]
fn immediates_and_alternate_parsing_mode() {
    assert_eq!(
        last("OpCapability !0x0000FF00"),
        vec![(2 << 16) | 17, 0xff00]
    );
    // An opcode given as a word: no word-count fix-up, operands raw.
    let w = asm("!262187 %1 %2 \"abc\" !327739 %1 %3 6 %2");
    assert_eq!(
        &w[5..],
        &[
            262_187,
            1,
            2,
            u32::from_le_bytes(*b"abc\0"),
            327_739,
            1,
            3,
            6,
            2
        ]
    );
    // `!` in operand position switches to alternate mode for the rest.
    assert_eq!(
        last("OpExecutionMode %1 !17 1 2 3"),
        vec![(6 << 16) | 16, 1, 17, 1, 2, 3]
    );
    // OpUnknown(opcode, wordcount).
    assert_eq!(
        last("OpUnknown(9999, 3) 1 %2"),
        vec![(3 << 16) | 9999, 1, 2]
    );
}

#[test]
fn switch_literals_take_the_selector_width() {
    let text = "%1 = OpTypeInt 64 0\n%2 = OpConstant %1 5\n%3 = OpTypeVoid\n%4 = OpTypeFunction %3\n%5 = OpFunction %3 None %4\n%6 = OpLabel\nOpSwitch %2 %6 0x100000000 %6 3 %6";
    assert_eq!(&last(text)[1..], &[2, 6, 0, 1, 6, 3, 0, 6]);
    let text = "%1 = OpTypeInt 16 1\n%2 = OpConstant %1 5\n%3 = OpTypeVoid\n%4 = OpTypeFunction %3\n%5 = OpFunction %3 None %4\n%6 = OpLabel\nOpSwitch %2 %6 -1 %6";
    assert_eq!(&last(text)[1..], &[2, 6, 0xffff_ffff, 6]);
}

#[test]
fn spec_constant_op_uses_the_embedded_layout() {
    let w = last("%1 = OpTypeInt 32 0\n%2 = OpConstant %1 1\n%3 = OpSpecConstantOp %1 IAdd %2 %2");
    assert_eq!(&w[1..], &[1, 3, u32::from(spv::Opcode::IAdd.0), 2, 2]);
    let w = last(
        "%1 = OpTypeInt 32 0\n%2 = OpConstant %1 1\n%3 = OpSpecConstantOp %1 CompositeExtract %2 0 1",
    );
    assert_eq!(
        &w[3..],
        &[u32::from(spv::Opcode::CompositeExtract.0), 2, 0, 1]
    );
}

#[test]
fn aliases_are_accepted() {
    assert_eq!(
        last("OpDecorateStringGOOGLE %1 UserSemantic \"x\"")[0] & 0xffff,
        u32::from(spv::Opcode::DecorateString.0)
    );
    assert_eq!(
        last("OpMemoryModel Logical VulkanKHR")[2],
        spv::MemoryModel::Vulkan.0
    );
}

/// Every vendored set, by an import name that selects it: its exact name, its prefix
/// and a version, or (a set whose import name no list states) its file-name stem, which
/// spells itself.
#[test]
fn every_known_extended_set_accepts_its_instruction_names() {
    let (mut checked, mut by_stem) = (0, Vec::new());
    for g in ext::VENDORED {
        let import = g
            .import_name
            .map(str::to_owned)
            .or_else(|| g.import_prefix.map(|p| format!("{p}5")))
            .or_else(|| {
                by_stem.push(g.name);
                g.import_stem.map(str::to_owned)
            })
            .unwrap_or_else(|| panic!("{}: no import name, prefix or stem", g.name));
        let known = spirv_core::ext::SPIRV_TOOLS_SETS
            .iter()
            .any(|n| g.import_name == Some(*n) || g.import_prefix == Some(*n));
        for info in g.instructions {
            let mut text = format!(
                "%1 = OpExtInstImport \"{import}\"\n%2 = OpTypeVoid\n%3 = OpExtInst %2 %1 {}",
                info.opname
            );
            let mut words = vec![2, 3, 1, info.opcode];
            operand_text(info.operands, &mut text, &mut words);
            let opts = AsmOptions {
                preserve_numeric_ids: true,
                all_ext_inst_names: !known,
                ..Default::default()
            };
            let got = assemble_str(&text, &opts)
                .unwrap_or_else(|e| panic!("{}: {}", g.name, e.render(text.as_bytes())));
            let n = got.len();
            assert_eq!(
                &got[n - words.len()..],
                &words[..],
                "{} {}",
                g.name,
                info.opname
            );
            checked += 1;
        }
    }
    println!(
        "{checked} extended instructions of {} sets; imported by file-name stem: {}",
        ext::VENDORED.len(),
        if by_stem.is_empty() {
            "none".to_owned()
        } else {
            by_stem.join(", ")
        }
    );
    assert!(checked > 400);
}

/// The list of the sets SPIRV-Tools prints by name (spirv-core's, which spirv-asm reads) is the reference's.
#[test]
fn spirv_asm_knows_the_sets_spirv_tools_knows() {
    let mut ours: Vec<&str> = spirv_core::ext::SPIRV_TOOLS_SETS.to_vec();
    let mut theirs: Vec<&str> = Reference::get()
        .known_sets
        .iter()
        .map(|k| k.import.as_str())
        .collect();
    ours.sort_unstable();
    theirs.sort_unstable();
    assert_eq!(ours, theirs, "spirv_core::ext::SPIRV_TOOLS_SETS");
}

/// Writes one value per required operand (ids as %4, literals 5, enums by first name).
fn operand_text(
    ops: &'static [spirv_core::grammar::OperandInfo],
    text: &mut String,
    words: &mut Vec<u32>,
) {
    for op in ops {
        if op.quantifier != Quantifier::One {
            continue;
        }
        one(op.kind, text, words);
    }
}

fn one(kind: &'static OperandKind, text: &mut String, words: &mut Vec<u32>) {
    match kind.class {
        KindClass::Id | KindClass::ResultType | KindClass::Result => {
            text.push_str(" %4");
            words.push(4);
        }
        KindClass::Integer => {
            text.push_str(" 5");
            words.push(5);
        }
        KindClass::String => {
            text.push_str(" \"s\"");
            words.push(u32::from(b's'));
        }
        KindClass::ValueEnum | KindClass::BitEnum => {
            let e = &kind.enumerants[0];
            text.push(' ');
            text.push_str(e.name);
            words.push(e.value);
            operand_text(e.parameters, text, words);
        }
        KindClass::Composite => {
            for b in kind.bases {
                one(b, text, words);
            }
        }
        _ => panic!("unexpected kind {} in an extended set", kind.name),
    }
}

// ---- Differential testing against spirv-as 2025.5 ----

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

/// Writes random text from a grammar: the reference's, so that every name and layout is
/// one SPIRV-Tools 2025.5 knows; an enumerant or instruction whose operands the vendored
/// grammar changed (not merely grew) is left out.
struct Writer<'a> {
    rng: Rng,
    grammar: &'a model::Grammar,
    newer: &'a Newer,
    /// Import names of the sets spirv-as knows by exact name.
    sets: Vec<&'a str>,
}

impl Writer<'_> {
    fn operand(&mut self, kind: &str, out: &mut String) {
        let Some((kind, class)) = reference::kind(self.grammar, kind) else {
            panic!("reference: unknown kind {kind}")
        };
        let rng = &mut self.rng;
        match class {
            "Id" | "ResultType" => out.push_str(&format!(" %a{}", rng.below(12))),
            "Integer" => out.push_str(&format!(
                " {}",
                [0u32, 1, 7, 4_294_967_295, 65536][rng.below(5)]
            )),
            "Float" => out.push_str([" 1.5", " -0.25", " 0x1.8p+3", " 1e10"][rng.below(4)]),
            "String" => out.push_str(
                [
                    " \"\"",
                    " \"abc\"",
                    " \"a\\\"b\"",
                    " \"abcd\"",
                    " \"x\\\\y z\"",
                ][rng.below(5)],
            ),
            "ValueEnum" => {
                let usable = self.usable(kind);
                let e = usable[self.rng.below(usable.len())];
                // Sometimes spell it by an alias.
                let name = if !e.meta.aliases.is_empty() && self.rng.below(2) == 0 {
                    &e.meta.aliases[0]
                } else {
                    &e.name
                };
                out.push(' ');
                out.push_str(name);
                self.layout(&e.parameters, out);
            }
            "BitEnum" => {
                let bits: Vec<_> = self
                    .usable(kind)
                    .into_iter()
                    .filter(|e| e.value.is_power_of_two())
                    .collect();
                let mut chosen: Vec<_> = bits
                    .iter()
                    .filter(|_| self.rng.below(3) == 0)
                    .copied()
                    .collect();
                if chosen.is_empty() {
                    out.push(' ');
                    out.push_str(kind.enumerants.first().map_or("None", |e| &e.name));
                    return;
                }
                let names: Vec<&str> = chosen.iter().map(|e| e.name.as_str()).collect();
                out.push(' ');
                out.push_str(&names.join("|"));
                chosen.sort_by_key(|e| e.value);
                for e in chosen {
                    self.layout(&e.parameters, out);
                }
            }
            "Composite" => {
                for b in &kind.bases {
                    self.operand(b, out);
                }
            }
            _ => out.push_str(" %a0"),
        }
    }

    /// The enumerants whose parameters both grammars read alike.
    fn usable<'k>(&self, kind: &'k model::Kind) -> Vec<&'k model::Enumerant> {
        kind.enumerants
            .iter()
            .filter(|e| {
                !self
                    .newer
                    .layout_changed(&format!("{}::{}", kind.name, e.name))
            })
            .collect()
    }

    fn layout(&mut self, ops: &[model::Operand], out: &mut String) {
        for op in ops {
            match op.quantifier {
                model::Quantifier::One => self.operand(&op.kind, out),
                model::Quantifier::Optional => {
                    if self.rng.below(2) == 0 {
                        self.operand(&op.kind, out);
                    }
                }
                model::Quantifier::Variadic => {
                    for _ in 0..self.rng.below(3) {
                        self.operand(&op.kind, out);
                    }
                }
            }
        }
    }

    /// One random instruction line for `info`.
    fn line(&mut self, info: &model::Instruction, result: usize) -> String {
        let mut line = String::new();
        let class = |op: &model::Operand| reference::kind(self.grammar, &op.kind).map(|k| k.1);
        if info.operands.iter().any(|o| class(o) == Some("Result")) {
            line.push_str(&format!("%r{result} = "));
        }
        line.push_str(&info.opname);
        if info.opname == "OpExtInstImport" {
            // A random string names no set, and both tools reject the line: import one
            // that spirv-as knows instead.
            let set = self.sets[self.rng.below(self.sets.len())];
            line.push_str(&format!(" \"{set}\""));
            return line;
        }
        for op in &info.operands {
            if class(op) == Some("Result") {
                continue;
            }
            match op.quantifier {
                model::Quantifier::One => self.operand(&op.kind, &mut line),
                model::Quantifier::Optional => {
                    if self.rng.below(2) == 0 {
                        self.operand(&op.kind, &mut line);
                    } else {
                        break;
                    }
                }
                model::Quantifier::Variadic => {
                    for _ in 0..self.rng.below(3) {
                        self.operand(&op.kind, &mut line);
                    }
                }
            }
        }
        line
    }
}

/// The 1-based line of an `error: LINE: COL: …` message.
fn error_line(stderr: &str) -> Option<usize> {
    stderr
        .strip_prefix("error: ")?
        .split(':')
        .next()?
        .trim()
        .parse()
        .ok()
}

#[test]
fn random_instructions_assemble_like_spirv_as() {
    let Some(tools) = spirv_tests::require_spirv_tools("the differential test against spirv-as")
    else {
        return;
    };
    let reference = Reference::get();
    let newer = Newer::of_vendored();
    let core = &reference.core;
    let candidates: Vec<&model::Instruction> = core
        .instructions
        .iter()
        .filter(|i| {
            !i.operands.iter().any(|o| {
                let class = reference::kind(core, &o.kind).map(|k| k.1);
                matches!(
                    class,
                    Some("ContextNumber" | "ExtInstNumber" | "SpecConstantOpcode")
                )
            }) && i.opname != "OpSwitch"
                && !newer.layout_changed(&i.opname)
        })
        .collect();
    let mut writer = Writer {
        rng: Rng(0x00c0_ffee_1234_5678),
        grammar: core,
        newer,
        sets: reference
            .known_sets
            .iter()
            .filter(|k| !k.prefix)
            .map(|k| k.import.as_str())
            .collect(),
    };
    let rounds: usize = std::env::var("DIFF_ROUNDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(6);
    let per_round = 400;
    let (mut compared, mut both_reject, mut mask_form) = (0, 0, 0);
    let dir = std::env::temp_dir();
    for round in 0..rounds {
        let mut lines: Vec<String> = (0..per_round)
            .map(|i| {
                let info = candidates[writer.rng.below(candidates.len())];
                writer.line(info, i + 1)
            })
            .collect();
        // Assemble the round with both tools; a line one of them rejects is checked,
        // dropped and the rest tried again, so every line left is compared.
        loop {
            let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
            let path = dir.join(format!("diff-{}-{round}.spvasm", std::process::id()));
            let out_path = path.with_extension("spv");
            std::fs::write(&path, &text).expect("write");
            let status = std::process::Command::new(tools.join("spirv-as"))
                .arg(&path)
                .arg("-o")
                .arg(&out_path)
                .output()
                .expect("spirv-as");
            let theirs = std::fs::read(&out_path).ok();
            let _ = std::fs::remove_file(&path);
            let _ = std::fs::remove_file(&out_path);
            let ours = assemble_str(
                &text,
                &AsmOptions {
                    generator: SPIRV_TOOLS_GENERATOR,
                    ..Default::default()
                },
            );
            let err = String::from_utf8_lossy(&status.stderr).into_owned();
            let bad = match (status.status.success(), theirs, ours) {
                (true, Some(t), Ok(o)) => {
                    let o = spirv_core::binary::words_to_bytes(&o);
                    if t != o {
                        let tw = asm_words(&t);
                        let ow = asm_words(&o);
                        let i = tw.iter().zip(&ow).position(|(a, b)| a != b).unwrap_or(0);
                        panic!(
                            "round {round}: words differ first at word {i}: spirv-as {:x?} ours {:x?}\n{text}",
                            &tw[i.saturating_sub(3)..(i + 3).min(tw.len())],
                            &ow[i.saturating_sub(3)..(i + 3).min(ow.len())]
                        );
                    }
                    compared += lines.len();
                    break;
                }
                (true, None, Ok(_)) => {
                    panic!("round {round}: spirv-as succeeded but wrote nothing")
                }
                (true, _, Err(e)) => panic!(
                    "round {round}: we reject what spirv-as accepts: {}",
                    e.render(text.as_bytes())
                ),
                (false, _, Err(e)) => {
                    // Both reject: at the same line, with the same exit code.
                    let line = error_line(&err).expect("spirv-as names a line");
                    assert_eq!(
                        (e.line, i32::from(e.exit_code())),
                        (line, status.status.code().unwrap_or(-1)),
                        "round {round}: spirv-as says {err}we say {e}"
                    );
                    both_reject += 1;
                    line
                }
                (false, _, Ok(_)) => {
                    let line = error_line(&err).expect("spirv-as names a line");
                    let bad = lines.get(line - 1).cloned().unwrap_or_default();
                    // The name spirv-as quotes: `Invalid capability 'X'.`
                    let name = err.split('\'').nth(1).unwrap_or_default();
                    if err.contains("Invalid") && name.contains('|') && bad.contains('|') {
                        // spirv-as 2025.5 cannot parse `A|B` for some required (non-`?`)
                        // mask operands, such as OpCooperativeMatrixStoreTensorNV's
                        // MemoryAccess; we accept them (a documented difference).
                        mask_form += 1;
                    } else {
                        panic!("round {round}: spirv-as rejects what we accept: {err}{bad}");
                    }
                    line
                }
            };
            lines.remove(bad - 1);
        }
    }
    println!(
        "{compared} random instructions from the grammar of {} assembled identically; {both_reject} rejected by both at the same line and exit code, {mask_form} with a required `A|B` mask that only spirv-as rejects",
        reference::TOOL
    );
    println!("{}", newer.summary());
    assert!(
        compared >= rounds * per_round * 9 / 10,
        "only {compared} of {} compared",
        rounds * per_round
    );
}

fn asm_words(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}
