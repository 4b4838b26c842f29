//! `include_grammar!` output: every instruction of every vendored grammar round-trips
//! through its typed struct, counts match the JSON, aliases resolve, and a downstream
//! crate's own set works end to end.

use spirv_core::DecodeContext;
use spirv_core::grammar::{
    Enum, Grammar, InstructionInfo, KindClass, OperandInfo, OperandKind, Quantifier,
};
use spirv_core::{ext, spv};
use spirv_tests::example_set;

/// Builds operand words for a layout. `k` varies the choices: which enumerant, whether
/// optionals are present, how many variadic items.
struct Gen {
    k: usize,
    words: Vec<u32>,
    next_id: u32,
}

impl Gen {
    fn layout(&mut self, ops: &'static [OperandInfo]) {
        for op in ops {
            match op.quantifier {
                Quantifier::One => self.one(op.kind),
                Quantifier::Optional => {
                    if self.k % 2 == 1 {
                        self.one(op.kind);
                    }
                }
                Quantifier::Variadic => {
                    for _ in 0..(self.k % 3) {
                        self.one(op.kind);
                    }
                }
            }
        }
    }

    fn one(&mut self, kind: &'static OperandKind) {
        match kind.class {
            KindClass::ResultType | KindClass::Result | KindClass::Id => {
                self.next_id += 1;
                self.words.push(self.next_id);
            }
            KindClass::Integer | KindClass::ExtInstNumber => self.words.push(7 + self.k as u32),
            KindClass::Float => self.words.push(0x3fc0_0000),
            KindClass::ContextNumber => {
                self.words.push(0xdead_beef);
                if self.k % 2 == 1 {
                    self.words.push(0x1234);
                }
            }
            KindClass::String => {
                let s = &b"abcdefgh"[..self.k % 8];
                spirv_core::codec::encode_string(s, &mut self.words);
            }
            KindClass::SpecConstantOpcode => {
                // Embed one of the opcodes OpSpecConstantOp allows, and its layout.
                let allowed = &spirv_core::spec_constant_op::OPCODES;
                let inner = allowed[self.k % allowed.len()]
                    .info()
                    .expect("an allowed opcode is in the grammar");
                self.words.push(inner.opcode);
                self.layout(&inner.operands[2..]);
            }
            KindClass::ValueEnum => {
                let e = &kind.enumerants[self.k % kind.enumerants.len()];
                self.words.push(e.value);
                self.layout(e.parameters);
            }
            KindClass::BitEnum => {
                // A single bit chosen by k, or (every third time) every single bit at once.
                let bits: Vec<_> = kind
                    .enumerants
                    .iter()
                    .filter(|e| e.value.is_power_of_two())
                    .collect();
                let chosen: Vec<_> = if bits.is_empty() {
                    vec![]
                } else if self.k % 3 == 2 {
                    bits.clone()
                } else {
                    vec![bits[self.k % bits.len()]]
                };
                let mask = chosen.iter().fold(0, |m, e| m | e.value);
                self.words.push(mask);
                let mut sorted = chosen;
                sorted.sort_by_key(|e| e.value);
                for e in sorted {
                    self.layout(e.parameters);
                }
            }
            KindClass::Composite => {
                for b in kind.bases {
                    self.one(b);
                }
            }
        }
    }
}

fn variants(info: &'static InstructionInfo) -> usize {
    let mut n = 3;
    for op in info.operands {
        n = n.max(op.kind.enumerants.len());
        if op.kind.class == KindClass::SpecConstantOpcode {
            n = n.max(spirv_core::spec_constant_op::OPCODES.len());
        }
        for e in op.kind.enumerants {
            for p in e.parameters {
                n = n.max(p.kind.enumerants.len());
            }
        }
    }
    n.max(6)
}

fn round_trip<I: PartialEq + std::fmt::Debug>(
    grammar: &'static Grammar,
    decode: impl Fn(u32, &[u32], &DecodeContext) -> Result<I, spirv_core::DecodeError>,
    encode: impl Fn(&I, &mut Vec<u32>),
) -> usize {
    let mut cases = 0;
    for info in grammar.instructions {
        for k in 0..variants(info) {
            let mut g = Gen {
                k,
                words: Vec::new(),
                next_id: 0,
            };
            g.layout(info.operands);
            let ctx = DecodeContext {
                switch_literal_words: 1,
                ..DecodeContext::default()
            };
            let inst = decode(info.opcode, &g.words, &ctx).unwrap_or_else(|e| {
                panic!(
                    "{} {}: variant {k} {:x?} does not decode: {e}",
                    grammar.name, info.opname, g.words
                )
            });
            let mut again = Vec::new();
            encode(&inst, &mut again);
            assert_eq!(
                again, g.words,
                "{} {} variant {k}: {inst:?}",
                grammar.name, info.opname
            );
            assert_eq!(decode(info.opcode, &again, &ctx).ok().as_ref(), Some(&inst));
            cases += 1;
        }
    }
    cases
}

#[test]
fn every_core_instruction_round_trips() {
    let n = round_trip(
        &spv::GRAMMAR,
        |op, w, c| spv::Instruction::decode(spv::Opcode(op as u16), w, c),
        |i, w| i.encode_operands(w),
    );
    println!("core: {n} cases");
    assert!(n > 5000);
}

// Every vendored set, as the grammar folder lists them: a set added to it is tested
// with no edit here.
macro_rules! ext_round_trip {
    ($($m:ident: $file:tt, $key:ident = $import:tt;)*) => {
        #[test]
        fn every_extended_instruction_round_trips() {
            let mut total = 0;
            $(
                total += round_trip(&ext::$m::GRAMMAR, |op, w, c| ext::$m::Instruction::decode(ext::$m::Opcode(op), w, c), |i, w| i.encode_operands(w));
            )*
            total += round_trip(&example_set::GRAMMAR, |op, w, c| example_set::Instruction::decode(example_set::Opcode(op), w, c), |i, w| i.encode_operands(w));
            println!("extended sets: {total} cases");
            assert!(total > 2000);
        }
    };
}
spirv_grammar_macros::for_each_vendored_set!(ext_round_trip);

/// Counts of instructions, kinds and enumerants equal those in the JSON.
#[test]
fn generated_counts_match_the_json() {
    let root = spirv_tests::workspace_root().join("grammar");
    let mut checked = 0;
    let mut all: Vec<&'static Grammar> = ext::VENDORED.to_vec();
    all.push(&spv::GRAMMAR);
    for entry in std::fs::read_dir(&root).expect("grammar dir") {
        let path = entry.expect("entry").path();
        let file = path
            .file_name()
            .and_then(|f| f.to_str())
            .unwrap_or_default()
            .to_owned();
        if !file.ends_with(".grammar.json") {
            continue;
        }
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).expect("read")).expect("json");
        // A set's grammar is named by the import key the folder listing gave it.
        let import = spirv_grammar_codegen::vendored::SETS
            .iter()
            .find(|s| s.file == file)
            .map(|s| s.import);
        let g = all.iter().find(|g| match import {
            Some(i) => !g.is_core && g.name == i,
            None => g.is_core,
        });
        let g = g.unwrap_or_else(|| panic!("no generated grammar for {file}"));
        let insts = json["instructions"].as_array().expect("instructions");
        let mut opcodes: Vec<u64> = insts
            .iter()
            .map(|i| i["opcode"].as_u64().expect("opcode"))
            .collect();
        opcodes.sort_unstable();
        opcodes.dedup();
        assert_eq!(g.instructions.len(), opcodes.len(), "{file}: instructions");
        let names: usize = insts
            .iter()
            .map(|i| 1 + i["aliases"].as_array().map_or(0, Vec::len))
            .sum();
        let gen_names: usize = g.instructions.iter().map(|i| 1 + i.aliases.len()).sum();
        assert_eq!(gen_names, names, "{file}: instruction names");
        let kinds = json["operand_kinds"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        assert_eq!(g.operand_kinds.len(), kinds.len(), "{file}: operand kinds");
        for k in &kinds {
            let name = k["kind"].as_str().expect("kind");
            let gk = g
                .kind(name)
                .unwrap_or_else(|| panic!("{file}: kind {name}"));
            let es = k["enumerants"].as_array().cloned().unwrap_or_default();
            let mut values: Vec<String> = es.iter().map(|e| e["value"].to_string()).collect();
            values.sort();
            values.dedup();
            assert_eq!(
                gk.enumerants.len(),
                values.len(),
                "{file}: {name} enumerants"
            );
            let names: usize = es
                .iter()
                .map(|e| 1 + e["aliases"].as_array().map_or(0, Vec::len))
                .sum();
            let gen_names: usize = gk.enumerants.iter().map(|e| 1 + e.aliases.len()).sum();
            assert_eq!(gen_names, names, "{file}: {name} enumerant names");
        }
        checked += 1;
    }
    assert_eq!(checked, ext::VENDORED.len() + 1);
}

#[test]
fn lookups_accept_aliases_and_return_canonical_names() {
    // Core: opcode and enumerant aliases from the `aliases` key.
    let op = spv::Opcode::from_name("OpDecorateStringGOOGLE").expect("alias");
    assert_eq!(op, spv::Opcode::DecorateString);
    assert_eq!(op.name(), Some("OpDecorateString"));
    assert_eq!(
        spv::MemoryModel::from_name("VulkanKHR"),
        Some(spv::MemoryModel::Vulkan)
    );
    assert_eq!(spv::MemoryModel::Vulkan.name(), Some("Vulkan"));
    assert_eq!(spv::Dim::Dim1D.name(), Some("1D"));
    // A fixture with synonyms listed as separate entries with the same value.
    let end = example_set::Opcode::from_name("ExampleFinish").expect("synonym");
    assert_eq!(end, example_set::Opcode::ExampleEnd);
    assert_eq!(end.name(), Some("ExampleEnd"));
    assert_eq!(
        example_set::ExampleMode::from_name("Quick"),
        Some(example_set::ExampleMode::Fast)
    );
    assert_eq!(example_set::ExampleMode::Quick.name(), Some("Fast"));
    assert_eq!(example_set::ExampleMode::ExampleMode3D.name(), Some("3D"));
    assert!(spv::Opcode::from_name("OpNoSuchThing").is_none());
}

/// A mask's parameters are written exactly when their bits are set: the mask is the one
/// source, so a bit and its parameter cannot disagree (a set bit always has its
/// parameter; a parameter whose bit is clear is not written), and the encoding reads
/// back to the same value.
#[test]
fn mask_parameters_follow_their_bits() {
    use spirv_core::spv::{ImageOperands, ImageOperandsData, MemoryAccess};
    let data = ImageOperandsData {
        mask: ImageOperands::LOD | ImageOperands::CONST_OFFSET,
        lod: spirv_core::Id(5),
        const_offset: spirv_core::Id(6),
        // Its bit is clear: not written.
        bias: spirv_core::Id(9),
        ..Default::default()
    };
    let mut w = Vec::new();
    spirv_core::codec::EncodeWords::encode(&data, &mut w);
    assert_eq!(w, [0x2 | 0x8, 5, 6]);
    let ctx = Default::default();
    let mut r = spirv_core::codec::Reader::new(&w, &ctx);
    let back: ImageOperandsData = r.read().expect("decodes");
    assert_eq!(back, data, "equal as encoded");
    assert_eq!(
        back.bias,
        spirv_core::Id(0),
        "a clear bit reads no parameter"
    );
    // Every bit of a grammar mask with parameters gets one written, in bit order.
    let all = spirv_core::spv::MemoryAccessData {
        mask: MemoryAccess::ALIGNED | MemoryAccess::MAKE_POINTER_AVAILABLE,
        aligned: 16,
        make_pointer_available: spirv_core::Id(3),
        ..Default::default()
    };
    let mut w = Vec::new();
    spirv_core::codec::EncodeWords::encode(&all, &mut w);
    assert_eq!(w, [0x2 | 0x8, 16, 3]);
}

/// `items = "tables"`: the same tables as the full expansion, and they are enough for
/// the tools (the typed items are absent; `tests/ui/tables_only.rs` checks that).
#[test]
fn a_tables_only_set_works_with_the_tools() {
    use example_set::tables_only;
    let (full, tables) = (&example_set::GRAMMAR, &tables_only::GRAMMAR);
    assert_eq!(full.instructions.len(), tables.instructions.len());
    assert_eq!(full.operand_kinds.len(), tables.operand_kinds.len());
    assert_eq!(tables_only::IMPORT_NAME, Some("NonSemantic.Example"));
    let mut registry = spirv_core::ExtInstRegistry::default();
    registry.register(tables);
    let text = "%1 = OpExtInstImport \"NonSemantic.Example\"\n%2 = OpTypeVoid\n%3 = OpExtInst %2 %1 ExampleBegin %2 Careful %2 Loud|Counted %2\n";
    let words = spirv_asm::assemble_str(
        text,
        &spirv_asm::AsmOptions {
            registry: Some(registry.clone()),
            ..Default::default()
        },
    )
    .expect("assembles");
    let out = spirv_asm::disassemble(
        &words,
        &spirv_asm::DisOptions {
            raw_id: true,
            registry: Some(registry),
            ..Default::default()
        },
    )
    .expect("disassembles");
    assert!(String::from_utf8_lossy(&out).contains("ExampleBegin %2 Careful %2 Loud|Counted %2"));
}

#[test]
fn downstream_set_has_typed_operands_and_works_with_the_tools() {
    use example_set::{ExampleFlags, ExampleFlagsData, ExampleModeData, Instruction, inst};
    // Typed construction and encoding.
    let begin: Instruction = inst::ExampleBegin {
        name: spirv_core::Id(5),
        mode: ExampleModeData::Careful(spirv_core::Id(6)),
        flags: ExampleFlagsData {
            mask: ExampleFlags::LOUD | ExampleFlags::COUNTED,
            counted: spirv_core::Id(7),
        },
    }
    .into();
    let mut w = Vec::new();
    begin.encode_operands(&mut w);
    assert_eq!(w, [5, 1, 6, 3, 7]);
    assert_eq!(example_set::IMPORT_NAME, Some("NonSemantic.Example"));

    // Registered, the assembler and disassembler handle it by name, with no other option.
    let mut registry = spirv_core::ExtInstRegistry::default();
    registry.register(&example_set::GRAMMAR);
    let text = "OpCapability Shader\nOpExtension \"SPV_KHR_non_semantic_info\"\n%1 = OpExtInstImport \"NonSemantic.Example\"\nOpMemoryModel Logical GLSL450\n%2 = OpTypeVoid\n%3 = OpExtInst %2 %1 ExampleBegin %2 Careful %2 Loud|Counted %2\n";
    let opts = spirv_asm::AsmOptions {
        registry: Some(registry.clone()),
        ..Default::default()
    };
    let words = spirv_asm::assemble_str(text, &opts).expect("assembles");
    let dis = spirv_asm::DisOptions {
        raw_id: true,
        header: false,
        registry: Some(registry.clone()),
        ..Default::default()
    };
    let out = String::from_utf8(spirv_asm::disassemble(&words, &dis).expect("disassembles"))
        .expect("utf8");
    assert!(
        out.contains("OpExtInst %2 %1 ExampleBegin %2 Careful %2 Loud|Counted %2"),
        "{out}"
    );
    // Without the registry the set is unknown: numbers, as SPIRV-Tools prints them.
    let plain = String::from_utf8(
        spirv_asm::disassemble(
            &words,
            &spirv_asm::DisOptions {
                raw_id: true,
                ..Default::default()
            },
        )
        .expect("dis"),
    )
    .expect("utf8");
    assert!(
        plain.contains("OpExtInst %2 %1 1 %2 %1 %2 %3 %2"),
        "{plain}"
    );
    // The reader decodes it with the registry.
    let m = spirv_core::Module::read(
        &words,
        &spirv_core::ReadOptions {
            strict: true,
            registry: Some(&registry),
            ..Default::default()
        },
    )
    .expect("reads");
    assert_eq!(m.len(), 6);
}

/// A vendored set that SPIRV-Tools 2025.5 does not know is known by name only with
/// `all_ext_inst_names`, as in spirv-as; the error for one of its names says so.
#[test]
fn a_set_spirv_tools_lacks_needs_the_option_and_the_error_names_it() {
    let text = "%1 = OpExtInstImport \"NonSemantic.DebugPrintf\"\n%2 = OpTypeVoid\n%3 = OpString \"x\"\n%4 = OpExtInst %2 %1 DebugPrintf %3\n";
    let err = spirv_asm::assemble_str(text, &spirv_asm::AsmOptions::default())
        .expect_err("spirv-as does not know the set by name");
    let msg = err.to_string();
    assert!(
        msg.contains("known only with all_ext_inst_names (--all-ext-inst-names)"),
        "{msg}"
    );
    let opts = spirv_asm::AsmOptions {
        all_ext_inst_names: true,
        ..Default::default()
    };
    let words = spirv_asm::assemble_str(text, &opts).expect("assembles with the option");
    // A misspelt name in a set that is known gets a suggestion, not the hint.
    let typo = text.replace("DebugPrintf %3", "DebugPrintff %3");
    let msg = spirv_asm::assemble_str(&typo, &opts)
        .expect_err("unknown name")
        .to_string();
    assert!(msg.contains("Did you mean 'DebugPrintf'?"), "{msg}");
    assert!(!msg.contains("known only with"), "{msg}");
    assert_eq!(words.last(), Some(&3));
}

/// Instruction classes are a generated enum, and OpSwitch's literal rule is one flag in
/// the table: tools match on these, not on strings.
#[test]
fn classes_and_the_switch_flag_come_from_the_tables() {
    for info in spv::GRAMMAR.instructions {
        match spv::Class::of(info) {
            Some(c) => assert_eq!(c.name(), info.class),
            None => assert!(info.class.is_empty(), "{} {}", info.opname, info.class),
        }
    }
    assert_eq!(
        spv::Class::of(spv::Opcode::TypeInt.info().expect("OpTypeInt")),
        Some(spv::Class::TypeDeclaration)
    );
    let flagged: Vec<&str> = spv::GRAMMAR
        .instructions
        .iter()
        .filter(|i| i.switch_literals)
        .map(|i| i.opname)
        .collect();
    assert_eq!(flagged, ["OpSwitch"]);
    assert!(
        ext::glsl_std_450::GRAMMAR
            .instructions
            .iter()
            .all(|i| !i.switch_literals)
    );
}
