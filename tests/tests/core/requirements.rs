//! What a module needs and declares: implied capabilities, last versions, "a version or
//! any one of the extensions", numeric capabilities in the tables, per instruction and
//! for the whole module.

use spirv_core::spv::{self, inst};
use spirv_core::{Builder, Declared, Module, RequiredBy, Unmet};

fn words_of(text: &str, version: (u8, u8)) -> Vec<u32> {
    spirv_asm::assemble_str(
        text,
        &spirv_asm::AsmOptions {
            preserve_numeric_ids: true,
            version: Some(version),
            ..Default::default()
        },
    )
    .expect("assembles")
}

#[test]
fn tables_hold_capability_values() {
    let matrix = spv::Opcode::TypeMatrix.info().expect("OpTypeMatrix");
    assert_eq!(matrix.capabilities, [spv::Capability::Matrix.0]);
    let shader = spv::kinds::Capability
        .enumerant(spv::Capability::Shader.0)
        .expect("Shader");
    assert_eq!(
        shader.capabilities,
        [spv::Capability::Matrix.0],
        "Shader implies Matrix"
    );
}

#[test]
fn a_matrix_type_with_only_shader_declared_is_satisfied() {
    let mut b = Builder::new((1, 0));
    b.push(inst::Capability {
        capability: spv::Capability::Shader,
    })
    .expect("cap");
    let (float, v4, m4) = (
        b.id().expect("id"),
        b.id().expect("id"),
        b.id().expect("id"),
    );
    b.push(inst::TypeFloat {
        result_id: float,
        width: 32,
        floating_point_encoding: None,
    })
    .expect("float");
    b.push(inst::TypeVector {
        result_id: v4,
        component_type: float,
        component_count: 4,
    })
    .expect("vec");
    b.push(inst::TypeMatrix {
        result_id: m4,
        column_type: v4,
        column_count: 4,
    })
    .expect("mat");
    let m = b.build().expect("module");
    let declared = Declared::of(&m);
    assert!(declared.has_capability(spv::Capability::Matrix.0));
    let needs = m.requirements().expect("requirements");
    assert!(needs.are_met_by(&declared), "{:?}", needs.unmet(&declared));
    // Per instruction: OpTypeMatrix needs Matrix, which Shader implies.
    let matrix = m
        .instruction(3)
        .expect("OpTypeMatrix")
        .requirements()
        .expect("ok");
    assert_eq!(
        matrix[0].item,
        RequiredBy::Instruction(spv::Opcode::TypeMatrix)
    );
    assert_eq!(matrix[0].check(&declared), Ok(()));
    // Without Shader, Matrix is not there.
    let bare = Declared::new((1, 0), [], []);
    assert_eq!(matrix[0].check(&bare), Err(Unmet::Capability));
}

#[test]
fn buffer_block_is_too_new_for_spirv_1_4() {
    let text = "OpCapability Shader\nOpMemoryModel Logical GLSL450\nOpDecorate %2 BufferBlock\n%1 = OpTypeInt 32 0\n%2 = OpTypeStruct %1\n";
    for (version, ok) in [((1, 3), true), ((1, 4), false)] {
        let m = Module::from_words(&words_of(text, version)).expect("reads");
        let unmet = m.requirements().expect("ok").unmet(&Declared::of(&m));
        let buffer_block = unmet.iter().find(|(r, _)| {
            matches!(r.item, RequiredBy::Enumerant { value, .. } if value == spv::Decoration::BufferBlock.0)
        });
        match ok {
            true => assert!(buffer_block.is_none(), "{version:?}: {unmet:?}"),
            false => assert_eq!(
                buffer_block.map(|(_, u)| *u),
                Some(Unmet::Removed { last: (1, 3) }),
                "{version:?}"
            ),
        }
    }
}

#[test]
fn an_extension_only_opcode_needs_its_extension() {
    // OpExtInstWithForwardRefsKHR is in no core version: only its extension enables it.
    let body = "OpMemoryModel Logical GLSL450\n%1 = OpExtInstImport \"NonSemantic.Shader.DebugInfo.100\"\n%2 = OpTypeVoid\n%3 = OpExtInstWithForwardRefsKHR %2 %1 DebugInfoNone\n";
    let without = format!("OpCapability Shader\n{body}");
    let with = format!(
        "OpCapability Shader\nOpExtension \"SPV_KHR_relaxed_extended_instruction\"\n{body}"
    );
    let unmet_of = |text: &str| {
        let m = Module::from_words(&words_of(text, (1, 6))).expect("reads");
        let forward = m
            .instructions()
            .find(|i| i.opcode() == spv::Opcode::ExtInstWithForwardRefsKHR)
            .expect("the instruction");
        forward.requirements().expect("ok")[0].check(&Declared::of(&m))
    };
    assert_eq!(unmet_of(&without), Err(Unmet::Version { needed: None }));
    assert_eq!(unmet_of(&with), Ok(()));
}

#[test]
fn a_version_or_any_one_extension_enables_an_item() {
    // NoSignedWrap: SPIR-V 1.4, or SPV_KHR_no_integer_wrap_decoration before it.
    let e = spv::kinds::Decoration
        .enumerant(spv::Decoration::NoSignedWrap.0)
        .expect("NoSignedWrap");
    let r = m_requirement(spv::Decoration::NoSignedWrap.0);
    assert_eq!(e.version, Some((1, 4)));
    assert_eq!(r.check(&Declared::new((1, 4), [], [])), Ok(()));
    assert_eq!(
        r.check(&Declared::new((1, 3), [], [])),
        Err(Unmet::Version {
            needed: Some((1, 4))
        })
    );
    assert_eq!(
        r.check(&Declared::new(
            (1, 3),
            [],
            ["SPV_KHR_no_integer_wrap_decoration"]
        )),
        Ok(())
    );
}

/// The requirement of a `Decoration` operand, as a module reports it.
fn m_requirement(decoration: u32) -> spirv_core::Requirement {
    let text = format!(
        "OpCapability Shader\nOpMemoryModel Logical GLSL450\nOpDecorate %1 {}\n%1 = OpTypeInt 32 0\n",
        spv::kinds::Decoration
            .enumerant(decoration)
            .expect("known")
            .name
    );
    let m = Module::from_words(&words_of(&text, (1, 6))).expect("reads");
    m.instruction(2)
        .expect("OpDecorate")
        .requirements()
        .expect("ok")
        .into_iter()
        .find(|r| matches!(r.item, RequiredBy::Enumerant { value, .. } if value == decoration))
        .expect("the decoration's requirement")
}

#[test]
fn extended_set_enumerants_need_nothing_and_print_by_name() {
    // OpenCL.DebugInfo.100's own kinds (here DebugBaseTypeAttributeEncoding) state no
    // versions: they are no requirement a module could miss.
    let words = words_of(
        "OpCapability Kernel\nOpCapability Addresses\nOpCapability Linkage\n%1 = OpExtInstImport \"OpenCL.DebugInfo.100\"\nOpMemoryModel Physical64 OpenCL\n%2 = OpString \"int\"\n%3 = OpTypeVoid\n%4 = OpTypeInt 32 0\n%5 = OpConstant %4 32\n%6 = OpExtInst %3 %1 DebugTypeBasic %2 %5 Signed\n",
        (1, 0),
    );
    let m = Module::from_words(&words).expect("reads");
    let needs = m.requirements().expect("laid out");
    assert!(
        needs.unmet(&Declared::of(&m)).is_empty(),
        "{:?}",
        needs.unmet(&Declared::of(&m))
    );
    let buffer_block = RequiredBy::Enumerant {
        kind: &spv::kinds::Decoration,
        value: spv::Decoration::BufferBlock.0,
    };
    assert_eq!(
        format!("{buffer_block:?}"),
        "Enumerant(Decoration::BufferBlock)"
    );
}
