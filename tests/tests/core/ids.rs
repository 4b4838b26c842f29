//! Finding ids: the typed visitor and the module walker agree on every corpus
//! instruction, `OpExtInst` operands are laid out by their set (literals are not ids),
//! and what cannot be laid out is refused rather than guessed.

use spirv_core::spv::{self, inst};
use spirv_core::{BuildErrorKind, Builder, DecodeErrorKind, Id, Module};
use spirv_tests::{files, require_corpus, stem};

/// For every instruction of every corpus module, the typed visitor (with the module's
/// id facts) finds the ids the module's walker finds, in the same order; and when one
/// cannot lay an instruction out, neither can the other.
#[test]
fn typed_and_walked_ids_agree_over_the_corpus() {
    let Some(dir) = require_corpus("the typed-versus-walker id test") else {
        return;
    };
    let bins = files(&dir.join("bin"), "spv");
    assert!(bins.len() >= 1000, "found {}", bins.len());
    let (mut instructions, mut ext_insts, mut mismatches) = (0usize, 0usize, Vec::new());
    for path in &bins {
        let bytes = std::fs::read(path).expect("read");
        let Ok(m) = Module::from_bytes(&bytes) else {
            continue;
        };
        for i in m.instructions() {
            let Ok(typed) = i.decode() else { continue };
            instructions += 1;
            ext_insts += usize::from(i.opcode() == spv::Opcode::ExtInst);
            let (mut a, mut b) = (Vec::new(), Vec::new());
            let ra = typed.visit_ids(m.ids(), &mut |id| a.push(id));
            let rb = i.visit_ids(|_, id| b.push(id));
            if ra.is_ok() != rb.is_ok() || (ra.is_ok() && a != b) {
                mismatches.push(format!(
                    "{} instruction {} ({:?}): typed {ra:?} {a:?}, walker {rb:?} {b:?}",
                    stem(path),
                    i.index(),
                    i.opcode()
                ));
            }
        }
    }
    assert!(instructions > 200_000, "{instructions} instructions");
    assert!(ext_insts > 1_000, "{ext_insts} OpExtInst");
    assert!(
        mismatches.is_empty(),
        "{}\n…{} in all",
        mismatches[..mismatches.len().min(10)].join("\n"),
        mismatches.len()
    );
}

/// A module importing OpenCL.std, with `vloadn` (literal `n`) and `vstore_half_r`
/// (a rounding-mode enumerant).
fn opencl_module(b: &mut Builder) -> (Id, Id) {
    let set = b.id().expect("id");
    b.push(inst::Capability {
        capability: spv::Capability::Addresses,
    })
    .expect("cap");
    b.push(inst::Capability {
        capability: spv::Capability::Kernel,
    })
    .expect("cap");
    b.push(inst::ExtInstImport {
        result_id: set,
        name: "OpenCL.std".into(),
    })
    .expect("import");
    let uint = b.id().expect("id");
    b.push(inst::TypeInt {
        result_id: uint,
        width: 32,
        signedness: 0,
    })
    .expect("int");
    (set, uint)
}

#[test]
fn ext_inst_literals_are_not_ids() {
    let mut b = Builder::new((1, 0));
    let (set, uint) = opencl_module(&mut b);
    let void = b.id().expect("id");
    b.push(inst::TypeVoid { result_id: void }).expect("void");
    let fnty = b.id().expect("id");
    b.push(inst::TypeFunction {
        result_id: fnty,
        return_type: void,
        parameter_types: [].into(),
    })
    .expect("fn type");
    b.begin_function(void, spv::FunctionControl::NONE, fnty)
        .expect("fn");
    b.begin_block().expect("block");
    let (offset, pointer) = (b.id().expect("id"), b.id().expect("id"));
    // vloadn(offset, p, n) with n = 0xFFFFFFFF: a literal, which must not raise the
    // bound (an id of u32::MAX would overflow it).
    let before = b.header().bound;
    let result = b.id().expect("id");
    b.push(inst::ExtInst {
        result_type: uint,
        result_id: result,
        set,
        instruction: 171, // vloadn
        operands: [offset, pointer, Id(u32::MAX)].into(),
    })
    .expect("a literal operand is not an id");
    assert_eq!(
        b.header().bound,
        before.max(result.0 + 1).max(pointer.0 + 1)
    );
    b.push(inst::Return {}).expect("ret");
    b.end_function().expect("end");
    let m = b.build().expect("builds");
    let ext = m
        .instructions()
        .find(|i| i.opcode() == spv::Opcode::ExtInst)
        .expect("the OpExtInst");
    let mut ids = Vec::new();
    ext.visit_ids(|_, id| ids.push(id))
        .expect("laid out by OpenCL.std");
    assert_eq!(ids, [uint, result, set, offset, pointer], "n is not an id");
    // The typed core instruction finds the same, given the module's facts; without
    // them it cannot know the set, and says so.
    let typed = ext.decode().expect("decodes");
    let mut typed_ids = Vec::new();
    typed
        .visit_ids(m.ids(), &mut |id| typed_ids.push(id))
        .expect("ids");
    assert_eq!(typed_ids, ids);
    let none = typed.visit_ids(&Default::default(), &mut |_| {});
    assert!(matches!(
        none.map_err(|e| e.kind),
        Err(DecodeErrorKind::UnknownExtInstSetId { .. })
    ));
}

/// Words of a module whose one `OpExtInst` (instruction 8) is of the set `name`, which
/// must be 13 bytes long: assembled with a `NonSemantic.` name of that length, then
/// renamed in place (the assembler, like spirv-as, refuses an unknown set).
fn module_importing(name: &str) -> Vec<u32> {
    assert_eq!(name.len(), 13);
    let text = "OpCapability Shader\nOpMemoryModel Logical GLSL450\n%1 = OpExtInstImport \"NonSemantic.X\"\n%2 = OpTypeInt 32 0\n%3 = OpTypeVoid\n%4 = OpTypeFunction %3\n%5 = OpFunction %3 None %4\n%6 = OpLabel\n%7 = OpExtInst %2 %1 1 %2 %4\nOpReturn\nOpFunctionEnd\n";
    let mut words = spirv_asm::assemble_str(
        text,
        &spirv_asm::AsmOptions {
            preserve_numeric_ids: true,
            ..Default::default()
        },
    )
    .expect("assembles");
    // OpCapability (2 words) and OpMemoryModel (3) come first; the import's name
    // starts after its leading word and result id.
    let at = 5 + 2 + 3 + 2;
    let mut bytes = name.as_bytes().to_vec();
    bytes.resize(16, 0);
    for (k, chunk) in bytes.chunks(4).enumerate() {
        words[at + k] = u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
    }
    words
}

#[test]
fn an_unknown_semantic_set_is_refused_not_guessed() {
    // A set no registry knows and that is not NonSemantic: its operands may be ids or
    // literals, so remapping refuses the module, and so do the visitors.
    let words = module_importing("Vendor.Secret");
    let mut m = Module::from_words(&words).expect("a lenient read keeps it");
    let err = m.remap_ids(|id| Id(id.0 + 1)).expect_err("refused");
    assert_eq!(err.kind, DecodeErrorKind::UnknownExtInstLayout);
    assert_eq!(err.instruction, Some(8));
    assert_eq!(m.to_words(), words, "unchanged");
    let ext = m.instruction(8).expect("the OpExtInst");
    assert_eq!(ext.opcode(), spv::Opcode::ExtInst);
    assert!(ext.visit_ids(|_, _| {}).is_err());
    let typed = ext.decode().expect("decodes");
    assert!(typed.visit_ids(m.ids(), &mut |_| {}).is_err());
    // A NonSemantic set's operands are all ids: remapped, the last one included.
    let mut m = Module::from_words(&module_importing("NonSemantic.X")).expect("reads");
    m.remap_ids(|id| Id(id.0 + 1)).expect("remaps");
    let ext = m.instruction(8).expect("the OpExtInst");
    assert_eq!(ext.operands().last(), Some(&5));
}

#[test]
fn builder_errors_name_the_push() {
    let mut b = Builder::new((1, 0));
    let (int, c) = (b.id().expect("id"), b.id().expect("id"));
    b.push(inst::Capability {
        capability: spv::Capability::Shader,
    })
    .expect("push 0");
    // An OpConstant of a type never pushed: refused at once, naming push 1.
    let e = b
        .push(inst::Constant {
            result_type: int,
            result_id: c,
            value: spirv_core::LiteralNumber::from_u32(7),
        })
        .expect_err("no type yet");
    assert_eq!(e.push, Some(1));
    assert!(matches!(
        e.kind,
        BuildErrorKind::Operands(DecodeErrorKind::NotANumericType { .. })
    ));
    b.push(inst::TypeInt {
        result_id: int,
        width: 32,
        signedness: 0,
    })
    .expect("push 1");
    // An id defined twice.
    let e = b
        .push(inst::TypeInt {
            result_id: int,
            width: 16,
            signedness: 0,
        })
        .expect_err("redefined");
    assert_eq!(
        (e.kind, e.push),
        (
            BuildErrorKind::Operands(DecodeErrorKind::IdRedefined { id: int.0 }),
            Some(2)
        )
    );
    // Id 0.
    let e = b
        .push(inst::TypeBool { result_id: Id(0) })
        .expect_err("id 0");
    assert_eq!((e.kind, e.push), (BuildErrorKind::ZeroId, Some(2)));
    // A function left open when building.
    let void = b.id().expect("id");
    b.push(inst::TypeVoid { result_id: void }).expect("void");
    let fnty = b.id().expect("id");
    b.push(inst::TypeFunction {
        result_id: fnty,
        return_type: void,
        parameter_types: [].into(),
    })
    .expect("fn type");
    b.begin_function(void, spv::FunctionControl::NONE, fnty)
        .expect("fn");
    assert_eq!(
        b.build().expect_err("open").kind,
        BuildErrorKind::UnterminatedFunction
    );
}

/// With the set registered, `remap_ids` knows which operands of its instructions are
/// literals; without it, a `NonSemantic.` set's operands are all taken for ids.
#[test]
fn remap_ids_follows_a_registered_set() {
    let mut registry = spirv_core::ExtInstRegistry::default();
    registry.register(&spirv_tests::example_set::GRAMMAR);
    let text = "OpCapability Shader\nOpExtension \"SPV_KHR_non_semantic_info\"\n%1 = OpExtInstImport \"NonSemantic.Example\"\nOpMemoryModel Logical GLSL450\n%2 = OpTypeVoid\n%3 = OpTypeInt 32 0\n%4 = OpExtInst %2 %1 ExampleValues 7 %2 %3\n";
    let words = spirv_asm::assemble_str(
        text,
        &spirv_asm::AsmOptions {
            preserve_numeric_ids: true,
            registry: Some(registry.clone()),
            ..Default::default()
        },
    )
    .expect("assembles");
    let read = |registry: Option<&spirv_core::ExtInstRegistry>| {
        let opts = spirv_core::ReadOptions {
            registry,
            ..Default::default()
        };
        Module::read(&words, &opts).expect("reads")
    };
    let last_operands = |m: &Module| {
        let ext = m.instructions().last().expect("the OpExtInst");
        ext.operands().to_vec()
    };
    // Registered: Count (7) is a literal and stays.
    let mut m = read(Some(&registry));
    m.remap_ids(|id| Id(id.0 + 100)).expect("remaps");
    assert_eq!(last_operands(&m), [102, 104, 101, 3, 7, 102, 103]);
    // Not registered: NonSemantic, so every operand is an id, 7 included.
    let mut m = read(None);
    m.remap_ids(|id| Id(id.0 + 100)).expect("remaps");
    assert_eq!(last_operands(&m), [102, 104, 101, 3, 107, 102, 103]);
}
