//! spirv-core's API: the builder (validated by spirv-val when present), big-endian input,
//! requirements, id remapping, and one test per bad-input class.

use spirv_core::spv::{self, Instruction as I, inst};
use spirv_core::{Builder, DecodeErrorKind, Id, Module, ReadOptions};

/// `N` fresh ids.
fn ids<const N: usize>(b: &mut Builder) -> [Id; N] {
    std::array::from_fn(|_| b.id().expect("ids left"))
}

/// A compute shader that increments every element of a storage buffer.
fn compute_shader() -> Builder {
    let mut b = Builder::new((1, 3));
    fn p(b: &mut Builder, i: impl Into<I>) {
        b.push(i).expect("push");
    }
    let (void, fnty, uint, v3uint, in_ptr, rarr, st, sb_ptr, sb_uint_ptr) = ids(&mut b).into();
    let (c0, c1, gid, buf) = ids(&mut b).into();
    let main = Id(1000);
    p(
        &mut b,
        inst::Capability {
            capability: spv::Capability::Shader,
        },
    );
    p(
        &mut b,
        inst::MemoryModel {
            addressing_model: spv::AddressingModel::Logical,
            memory_model: spv::MemoryModel::GLSL450,
        },
    );
    p(
        &mut b,
        inst::EntryPoint {
            execution_model: spv::ExecutionModel::GLCompute,
            entry_point: main,
            name: "main".into(),
            interfaces: [gid].into(),
        },
    );
    p(
        &mut b,
        inst::ExecutionMode {
            entry_point: main,
            mode: spv::ExecutionModeData::LocalSize(64, 1, 1),
        },
    );
    p(
        &mut b,
        inst::Decorate {
            target: gid,
            decoration: spv::DecorationData::BuiltIn(spv::BuiltIn::GlobalInvocationId),
        },
    );
    p(
        &mut b,
        inst::Decorate {
            target: rarr,
            decoration: spv::DecorationData::ArrayStride(4),
        },
    );
    p(
        &mut b,
        inst::MemberDecorate {
            structure_type: st,
            member: 0,
            decoration: spv::DecorationData::Offset(0),
        },
    );
    p(
        &mut b,
        inst::Decorate {
            target: st,
            decoration: spv::DecorationData::BufferBlock,
        },
    );
    p(
        &mut b,
        inst::Decorate {
            target: buf,
            decoration: spv::DecorationData::DescriptorSet(0),
        },
    );
    p(
        &mut b,
        inst::Decorate {
            target: buf,
            decoration: spv::DecorationData::Binding(0),
        },
    );
    p(
        &mut b,
        inst::Name {
            target: main,
            name: "main".into(),
        },
    );
    p(&mut b, inst::TypeVoid { result_id: void });
    p(
        &mut b,
        inst::TypeFunction {
            result_id: fnty,
            return_type: void,
            parameter_types: Default::default(),
        },
    );
    p(
        &mut b,
        inst::TypeInt {
            result_id: uint,
            width: 32,
            signedness: 0,
        },
    );
    p(
        &mut b,
        inst::TypeVector {
            result_id: v3uint,
            component_type: uint,
            component_count: 3,
        },
    );
    p(
        &mut b,
        inst::TypePointer {
            result_id: in_ptr,
            storage_class: spv::StorageClass::Input,
            r#type: v3uint,
        },
    );
    p(
        &mut b,
        inst::TypeRuntimeArray {
            result_id: rarr,
            element_type: uint,
        },
    );
    p(
        &mut b,
        inst::TypeStruct {
            result_id: st,
            member_types: [rarr].into(),
        },
    );
    p(
        &mut b,
        inst::TypePointer {
            result_id: sb_ptr,
            storage_class: spv::StorageClass::Uniform,
            r#type: st,
        },
    );
    p(
        &mut b,
        inst::TypePointer {
            result_id: sb_uint_ptr,
            storage_class: spv::StorageClass::Uniform,
            r#type: uint,
        },
    );
    p(
        &mut b,
        inst::Constant {
            result_type: uint,
            result_id: c0,
            value: spirv_core::LiteralNumber::from_u32(0),
        },
    );
    p(
        &mut b,
        inst::Constant {
            result_type: uint,
            result_id: c1,
            value: spirv_core::LiteralNumber::from_u32(1),
        },
    );
    p(
        &mut b,
        inst::Variable {
            result_type: in_ptr,
            result_id: gid,
            storage_class: spv::StorageClass::Input,
            initializer: None,
        },
    );
    p(
        &mut b,
        inst::Variable {
            result_type: sb_ptr,
            result_id: buf,
            storage_class: spv::StorageClass::Uniform,
            initializer: None,
        },
    );
    p(
        &mut b,
        inst::Function {
            result_type: void,
            result_id: main,
            function_control: spv::FunctionControl::NONE,
            function_type: fnty,
        },
    );
    b.begin_block().expect("block");
    let (id3, x, ptr, v, v2) = ids(&mut b).into();
    p(
        &mut b,
        inst::Load {
            result_type: v3uint,
            result_id: id3,
            pointer: gid,
            memory_access: None,
        },
    );
    p(
        &mut b,
        inst::CompositeExtract {
            result_type: uint,
            result_id: x,
            composite: id3,
            indexes: [0].into(),
        },
    );
    p(
        &mut b,
        inst::AccessChain {
            result_type: sb_uint_ptr,
            result_id: ptr,
            base: buf,
            indexes: [c0, x].into(),
        },
    );
    p(
        &mut b,
        inst::Load {
            result_type: uint,
            result_id: v,
            pointer: ptr,
            memory_access: None,
        },
    );
    p(
        &mut b,
        inst::IAdd {
            result_type: uint,
            result_id: v2,
            operand_1: v,
            operand_2: c1,
        },
    );
    p(
        &mut b,
        inst::Store {
            pointer: ptr,
            object: v2,
            memory_access: None,
        },
    );
    p(&mut b, inst::Return {});
    b.end_function().expect("end");
    b
}

#[test]
fn builder_makes_a_valid_compute_shader() {
    let b = compute_shader();
    let m = b.build().expect("reads back");
    assert_eq!(
        m.header().bound,
        1007,
        "ids after an explicit %1000 continue above it"
    );
    assert_eq!(m.functions().len(), 1);
    assert_eq!(m.functions().next().map(|f| f.blocks().len()), Some(1));
    let req = m.requirements().expect("requirements");
    let unmet = req.unmet(&spirv_core::Declared::of(&m));
    assert!(unmet.is_empty(), "{unmet:?}");
    if let Some(tools) =
        spirv_tests::require_spirv_tools("validating the builder's module with spirv-val")
    {
        let path = std::env::temp_dir().join(format!("spirv-builder-{}.spv", std::process::id()));
        std::fs::write(&path, m.to_bytes()).expect("write");
        let out = std::process::Command::new(tools.join("spirv-val"))
            .args(["--target-env", "vulkan1.1"])
            .arg(&path)
            .output()
            .expect("spirv-val runs");
        let _ = std::fs::remove_file(&path);
        assert!(
            out.status.success(),
            "spirv-val rejected the module: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn builder_rejects_misuse() {
    let mut b = Builder::new((1, 0));
    assert!(b.push(inst::Return {}).is_err());
    assert!(b.end_function().is_err());
    assert!(b.begin_block().is_err());
}

#[test]
fn builder_ids_never_overflow_the_bound() {
    use spirv_core::BuildErrorKind;
    let mut b = Builder::new((1, 0));
    // An id of u32::MAX would need a bound of 2^32: refused, and the builder unchanged.
    let max = inst::TypeVoid {
        result_id: Id(u32::MAX),
    };
    assert_eq!(
        b.push(max).map_err(|e| e.kind),
        Err(BuildErrorKind::IdOverflow)
    );
    assert_eq!(b.header().bound, 1);
    // The largest id that fits is accepted; allocation past it is refused.
    let last = inst::TypeVoid {
        result_id: Id(u32::MAX - 1),
    };
    assert_eq!(b.push(last), Ok(()));
    assert_eq!(b.header().bound, u32::MAX);
    assert_eq!(b.id().map_err(|e| e.kind), Err(BuildErrorKind::IdOverflow));
    assert_eq!(b.id().map_err(|e| e.kind), Err(BuildErrorKind::IdOverflow));
    assert_eq!(b.header().bound, u32::MAX);
}

#[test]
fn big_endian_reads_as_its_little_endian_twin() {
    let le = compute_shader().build().expect("module").to_bytes();
    let be: Vec<u8> = le
        .chunks_exact(4)
        .flat_map(|c| [c[3], c[2], c[1], c[0]])
        .collect();
    let a = Module::from_bytes(&le).expect("le");
    let b = Module::from_bytes(&be).expect("be");
    assert_eq!(a, b);
    assert_eq!(b.to_bytes(), le);
    // Strings are decoded from word values, so they survive the swap.
    let name = b
        .instructions()
        .find(|i| i.opcode() == spv::Opcode::Name)
        .expect("OpName")
        .decode()
        .expect("decodes");
    assert!(matches!(name, I::Name(n) if n.name.as_str() == Some("main")));
}

#[test]
fn remap_ids_changes_every_use_and_definition() {
    let original = compute_shader().build().expect("module");
    let ids_of = |m: &Module| -> Vec<Id> {
        let mut ids = Vec::new();
        for i in m.instructions() {
            i.visit_ids(|_, id| ids.push(id)).expect("ids");
        }
        ids
    };
    let mut m = original.clone();
    m.remap_ids(|id| Id(id.0 + 10)).expect("remaps");
    let shifted: Vec<Id> = ids_of(&original).iter().map(|id| Id(id.0 + 10)).collect();
    assert_eq!(ids_of(&m), shifted, "every id, use or definition, in order");
    assert_eq!(m.header().bound, original.header().bound + 10);
    // Nothing else changed: mapping back gives the original words exactly.
    m.remap_ids(|id| Id(id.0 - 10)).expect("remaps back");
    assert_eq!(m.to_words()[5..], original.to_words()[5..]);
    // Id 0 is not an id: refused, and the module unchanged.
    let before = m.to_words();
    let err = m.remap_ids(|_| Id(0)).expect_err("id 0");
    assert_eq!(err.kind, DecodeErrorKind::ZeroId);
    assert_eq!(m.to_words(), before);
}

/// remap_ids changes everything or nothing: an instruction whose ids it cannot all see,
/// an id the bound cannot cover, or a result that does not read leaves the module as
/// it was.
#[test]
fn remap_ids_is_all_or_nothing() {
    let before = |text: &str| Module::from_words(&words_of(text)).expect("reads");
    // An unknown opcode: its ids are unknown.
    let mut m = before("%1 = OpTypeVoid\nOpUnknown(9999, 2) %1\n%2 = OpTypeBool\n");
    let words = m.to_words();
    let e = m.remap_ids(|id| Id(id.0 + 1)).expect_err("refused");
    assert_eq!(e.kind, DecodeErrorKind::UnknownOpcode { opcode: 9999 });
    assert_eq!(m.to_words(), words);
    // An unknown enumerant may hide id parameters.
    let mut m = before("%1 = OpTypeVoid\nOpDecorate %1 !99999\n");
    let e = m.remap_ids(|id| Id(id.0 + 1)).expect_err("refused");
    assert!(
        matches!(
            e.kind,
            DecodeErrorKind::UnknownEnumerant { value: 99999, .. }
        ),
        "{e}"
    );
    // Two ids mapped to one: the result does not read.
    let mut m = before("%1 = OpTypeVoid\n%2 = OpTypeBool\n");
    let words = m.to_words();
    let e = m.remap_ids(|_| Id(5)).expect_err("refused");
    assert_eq!(e.kind, DecodeErrorKind::IdRedefined { id: 5 });
    assert_eq!(m.to_words(), words);
    // u32::MAX: no bound covers it.
    let e = m.remap_ids(|_| Id(u32::MAX)).expect_err("refused");
    assert!(matches!(e.kind, DecodeErrorKind::IdOutOfBounds { .. }));
    assert_eq!(m.to_words(), words);
}

fn words_of(text: &str) -> Vec<u32> {
    spirv_asm::assemble_str(
        text,
        &spirv_asm::AsmOptions {
            preserve_numeric_ids: true,
            ..Default::default()
        },
    )
    .expect("assembles")
}

fn kind_of(words: &[u32], strict: bool) -> DecodeErrorKind {
    Module::read(
        words,
        &ReadOptions {
            strict,
            ..ReadOptions::default()
        },
    )
    .expect_err("must fail")
    .kind
}

#[test]
fn each_bad_input_class_is_an_error() {
    let good = words_of(
        "OpCapability Shader\nOpMemoryModel Logical GLSL450\n%1 = OpTypeInt 32 0\n%2 = OpConstant %1 5\nOpName %1 \"int\"\n",
    );
    // Truncated header, bad magic.
    assert_eq!(
        kind_of(&good[..3], false),
        DecodeErrorKind::TruncatedHeader { words: 3 }
    );
    let mut w = good.clone();
    w[0] = 0x1234_5678;
    assert_eq!(
        kind_of(&w, false),
        DecodeErrorKind::BadMagic { found: 0x1234_5678 }
    );
    assert!(matches!(
        Module::from_bytes(&[1, 2, 3]).expect_err("len").kind,
        DecodeErrorKind::ByteLengthNotMultipleOf4 { .. }
    ));
    // Word count 0.
    let mut w = good.clone();
    w[5] &= 0xffff;
    let e = Module::from_words(&w).expect_err("wc 0");
    assert_eq!(
        (e.kind, e.offset, e.instruction),
        (DecodeErrorKind::ZeroWordCount, 5, Some(0))
    );
    // Running past the end.
    let mut w = good.clone();
    w.truncate(w.len() - 1);
    assert!(matches!(
        kind_of(&w, false),
        DecodeErrorKind::InstructionPastEnd { .. }
    ));
    // Missing operand: OpTypeInt with one operand fewer.
    let bad = words_of("%1 = OpTypeInt 32 0");
    let mut w = bad.clone();
    w[5] = (3 << 16) | u32::from(spv::Opcode::TypeInt.0);
    w.pop();
    assert!(matches!(
        kind_of(&w, false),
        DecodeErrorKind::MissingOperand {
            kind: "LiteralInteger"
        }
    ));
    // Extra operand.
    let mut w = bad.clone();
    w[5] = (5 << 16) | u32::from(spv::Opcode::TypeInt.0);
    w.push(9);
    assert_eq!(
        kind_of(&w, false),
        DecodeErrorKind::ExtraOperands { count: 1 }
    );
    // A string with no NUL.
    let mut w = words_of("OpSourceExtension \"abc\"");
    let n = w.len();
    w[n - 1] = u32::from_le_bytes(*b"abcd");
    assert_eq!(kind_of(&w, false), DecodeErrorKind::UnterminatedString);
    // A bad enumerant: kept in lenient mode, an error in strict mode.
    let w = words_of("OpCapability !99999");
    assert!(Module::from_words(&w).is_ok());
    assert_eq!(
        kind_of(&w, true),
        DecodeErrorKind::UnknownEnumerant {
            kind: "Capability",
            value: 99999
        }
    );
    // An id not below the bound, in strict mode only (spirv-dis does not check it).
    let mut w = words_of("%1 = OpTypeInt 32 0");
    w[3] = 1;
    assert!(Module::from_words(&w).is_ok());
    assert_eq!(
        kind_of(&w, true),
        DecodeErrorKind::IdOutOfBounds { id: 1, bound: 1 }
    );
    // A context-dependent literal whose type is not numeric.
    let w = words_of("%1 = OpTypeBool\n%2 = OpConstant %1 !5");
    assert_eq!(
        kind_of(&w, false),
        DecodeErrorKind::NotANumericType { id: 1 }
    );
    // Unknown opcodes survive lenient reads unchanged and fail strict ones.
    let w = words_of("OpUnknown(9999, 2) 7");
    assert_eq!(Module::from_words(&w).expect("lenient").to_words(), w);
    assert_eq!(
        kind_of(&w, true),
        DecodeErrorKind::UnknownOpcode { opcode: 9999 }
    );
}

#[test]
fn a_huge_bound_allocates_nothing_by_it() {
    let mut w = words_of("%1 = OpTypeInt 32 0\n%4000000000 = OpTypeFloat 32");
    w[3] = 0xffff_ffff;
    let m = Module::from_words(&w).expect("reads");
    assert_eq!(m.header().bound, 0xffff_ffff);
    assert_eq!(m.to_words(), w);
}

#[test]
fn unknown_extended_sets_and_numbers_round_trip() {
    let w = words_of(
        // Both in raw form: spirv-as (and so our assembler) checks an `OpExtInst`'s set
        // where it reads it, and knows no import written raw.
        "!0x0007000b %1 \"Vendor.Unknown.7\"\n%2 = OpTypeVoid\n!0x0007000c %2 %3 %1 42 %2 %2",
    );
    let m = Module::from_words(&w).expect("lenient");
    assert_eq!(m.to_words(), w);
    assert_eq!(kind_of(&w, true), DecodeErrorKind::UnknownExtInstImport);
}

#[test]
fn ext_inst_operands_decode_with_the_imported_set() {
    let w = words_of(
        "%1 = OpExtInstImport \"GLSL.std.450\"\n%2 = OpTypeFloat 32\n%3 = OpConstant %2 2\n%4 = OpExtInst %2 %1 Sqrt %3",
    );
    let m = Module::from_words(&w).expect("reads");
    let inst = m
        .instructions()
        .find(|i| i.opcode() == spv::Opcode::ExtInst)
        .expect("OpExtInst");
    let e = inst.ext_inst().expect("ext inst");
    assert_eq!(e.set.map(|g| g.name), Some("GLSL.std.450"));
    assert_eq!(e.set_id, Id(1));
    use spirv_core::ext::glsl_std_450 as glsl;
    let typed = glsl::Instruction::decode(glsl::Opcode(e.number), e.operands, &Default::default())
        .expect("typed");
    assert!(
        matches!(
            typed,
            glsl::Instruction::Sqrt(glsl::inst::Sqrt { x: Id(3) })
        ),
        "{typed:?}"
    );
    // `{:?}` names the set and the instruction; it does not print the set's grammar
    // (about 3 KB per instruction before).
    let shown = format!("{e:?}");
    assert_eq!(
        shown,
        "ExtInstRef { set: Some(\"GLSL.std.450\"), instruction: Some(\"Sqrt\"), set_id: %1, number: 31, operands: [3] }"
    );
    let grammar = format!("{:?}", e.set.expect("known"));
    assert!(grammar.len() < 200, "{grammar}");
    assert!(
        grammar.starts_with("Grammar { name: \"GLSL.std.450\""),
        "{grammar}"
    );
    // An instruction's layout shows its operands' kinds by name and shape.
    let info = format!("{:?}", e.set.and_then(|g| g.instruction(31)).expect("Sqrt"));
    assert!(info.len() < 1000, "{} bytes: {info}", info.len());
    assert!(info.contains("OperandKind { name: \"IdRef\""), "{info}");
}

/// RawInstructions::new reports offsets from the module start, as its `base` says.
#[test]
fn raw_instructions_count_offsets_from_their_base() {
    let words = words_of("%1 = OpTypeVoid\n%2 = OpTypeBool\n");
    let whole: Vec<usize> = spirv_core::binary::RawInstructions::module(&words)
        .expect("header")
        .1
        .map(|r| r.expect("instruction").offset)
        .collect();
    let tail: Vec<usize> = spirv_core::binary::RawInstructions::new(&words[5..], 5)
        .map(|r| r.expect("instruction").offset)
        .collect();
    assert_eq!(whole, [5, 7]);
    assert_eq!(tail, whole);
}
