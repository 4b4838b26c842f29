//! The logical layout: what the reader reports that it used to absorb (unterminated and
//! nested functions, labels and function-only instructions outside functions,
//! module-level instructions inside them, sections out of order), and where every core
//! opcode goes, in the reader and in the Builder alike.

use spirv_core::grammar::{InstructionInfo, KindClass, OperandInfo, Quantifier};
use spirv_core::spv::{self, inst};
use spirv_core::{Builder, DecodeErrorKind, Id, LayoutIssueKind, Module, ReadOptions, Section};

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

fn lenient(words: &[u32]) -> Module {
    Module::read(words, &ReadOptions::default()).expect("a lenient read keeps it")
}

fn strict_error(words: &[u32]) -> spirv_core::DecodeError {
    let strict = ReadOptions {
        strict: true,
        ..ReadOptions::default()
    };
    Module::read(words, &strict).expect_err("a strict read refuses it")
}

const PRELUDE: &str =
    "OpCapability Shader\nOpMemoryModel Logical GLSL450\n%1 = OpTypeVoid\n%2 = OpTypeFunction %1\n";

#[test]
fn a_well_formed_module_has_no_layout_issues() {
    let words = words_of(&format!(
        "{PRELUDE}%3 = OpFunction %1 None %2\n%4 = OpLabel\nOpReturn\nOpFunctionEnd\n"
    ));
    let m = lenient(&words);
    assert!(m.layout_issues().is_empty(), "{:?}", m.layout_issues());
    let strict = ReadOptions {
        strict: true,
        ..ReadOptions::default()
    };
    assert!(Module::read(&words, &strict).is_ok());
    assert_eq!(m.functions().len(), 1);
    assert!(m.functions().all(|f| f.is_terminated()));
}

#[test]
fn an_unterminated_function_is_kept_and_reported() {
    let words = words_of(&format!(
        "{PRELUDE}%3 = OpFunction %1 None %2\n%4 = OpLabel\nOpReturn\n"
    ));
    let m = lenient(&words);
    let f: Vec<_> = m.functions().collect();
    assert_eq!(f.len(), 1, "the function is not dropped");
    assert!(!f[0].is_terminated());
    assert_eq!(f[0].instructions().len(), 3);
    let blocks: Vec<_> = f[0].blocks().collect();
    assert_eq!(blocks.len(), 1);
    assert_eq!(blocks[0].instructions().len(), 2, "OpLabel and OpReturn");
    let issues = m.layout_issues();
    assert_eq!(issues.len(), 1);
    assert_eq!(issues[0].kind, LayoutIssueKind::UnterminatedFunction);
    assert_eq!(issues[0].instruction, 4, "reported at its OpFunction");
    let e = strict_error(&words);
    assert_eq!(
        e.kind,
        DecodeErrorKind::Layout(LayoutIssueKind::UnterminatedFunction)
    );
    assert_eq!(e.instruction, Some(4));
}

#[test]
fn a_nested_function_ends_the_one_before() {
    let words = words_of(&format!(
        "{PRELUDE}%3 = OpFunction %1 None %2\n%4 = OpLabel\nOpReturn\n\
         %5 = OpFunction %1 None %2\n%6 = OpLabel\nOpReturn\nOpFunctionEnd\n"
    ));
    let m = lenient(&words);
    let f: Vec<_> = m.functions().collect();
    assert_eq!(f.len(), 2, "both functions are listed");
    assert!(!f[0].is_terminated());
    assert!(f[1].is_terminated());
    assert_eq!(f[0].def().result_id(), Some(Id(3)));
    assert_eq!(f[1].def().result_id(), Some(Id(5)));
    assert_eq!(f[1].blocks().len(), 1);
    assert_eq!(
        m.layout_issues()
            .iter()
            .map(|i| (i.kind, i.instruction))
            .collect::<Vec<_>>(),
        [(LayoutIssueKind::UnterminatedFunction, 4)]
    );
    assert_eq!(
        strict_error(&words).kind,
        DecodeErrorKind::Layout(LayoutIssueKind::UnterminatedFunction)
    );
}

#[test]
fn function_only_instructions_outside_a_function_are_reported() {
    for (text, opcode) in [
        ("%9 = OpLabel\n", spv::Opcode::Label),
        ("OpReturn\n", spv::Opcode::Return),
        ("OpFunctionEnd\n", spv::Opcode::FunctionEnd),
    ] {
        let words = words_of(&format!("{PRELUDE}{text}"));
        let m = lenient(&words);
        assert_eq!(
            m.layout_issues()
                .iter()
                .map(|i| (i.kind, i.instruction))
                .collect::<Vec<_>>(),
            [(LayoutIssueKind::OutsideFunction { opcode }, 4)],
            "{text}"
        );
        assert_eq!(m.functions().len(), 0);
        let e = strict_error(&words);
        assert_eq!(
            e.kind,
            DecodeErrorKind::Layout(LayoutIssueKind::OutsideFunction { opcode })
        );
    }
}

#[test]
fn module_level_instructions_inside_a_function_are_reported() {
    let words = words_of(&format!(
        "{PRELUDE}%3 = OpFunction %1 None %2\n%4 = OpLabel\n%5 = OpTypeInt 32 0\nOpReturn\nOpFunctionEnd\n"
    ));
    let m = lenient(&words);
    assert_eq!(
        m.layout_issues()
            .iter()
            .map(|i| (i.kind, i.instruction))
            .collect::<Vec<_>>(),
        [(
            LayoutIssueKind::InsideFunction {
                section: Section::Global
            },
            6
        )]
    );
    // Local variables, debug lines and non-semantic instructions belong in functions too.
    let words = words_of(&format!(
        "{PRELUDE}%7 = OpTypeInt 32 0\n%8 = OpTypePointer Function %7\n%3 = OpFunction %1 None %2\n%4 = OpLabel\n%5 = OpVariable %8 Function\nOpNoLine\nOpReturn\nOpFunctionEnd\n"
    ));
    assert!(lenient(&words).layout_issues().is_empty());
}

#[test]
fn sections_out_of_order_are_reported_and_stay_in_place() {
    let words = words_of(
        "OpCapability Shader\nOpMemoryModel Logical GLSL450\n%1 = OpTypeVoid\nOpName %1 \"void\"\nOpCapability Float64\n",
    );
    let m = lenient(&words);
    let issues: Vec<_> = m
        .layout_issues()
        .iter()
        .map(|i| (i.kind, i.instruction))
        .collect();
    assert_eq!(
        issues,
        [
            (
                LayoutIssueKind::OutOfOrder {
                    section: Section::DebugName,
                    after: Section::Global
                },
                3
            ),
            (
                LayoutIssueKind::OutOfOrder {
                    section: Section::Capability,
                    after: Section::Global
                },
                4
            ),
        ]
    );
    // Writing the sections in order reproduces the input: the instructions stayed.
    assert_eq!(m.section(Section::Global).len(), 3);
    assert_eq!(m.to_words(), words);
    assert_eq!(
        strict_error(&words).kind,
        DecodeErrorKind::Layout(LayoutIssueKind::OutOfOrder {
            section: Section::DebugName,
            after: Section::Global
        })
    );
}

/// Operand words that read for `ops`: a fresh id per id operand, 0 for literals, the
/// first enumerant without parameters, nothing for optional and variadic operands.
fn operand_words(ops: &[OperandInfo], next: &mut u32, out: &mut Vec<u32>) {
    for op in ops.iter().filter(|o| o.quantifier == Quantifier::One) {
        kind_words(op.kind, next, out);
    }
}

fn kind_words(kind: &'static spirv_core::grammar::OperandKind, next: &mut u32, out: &mut Vec<u32>) {
    match kind.class {
        KindClass::ResultType | KindClass::Result | KindClass::Id => {
            out.push(*next);
            *next += 1;
        }
        KindClass::ValueEnum => {
            let e = kind
                .enumerants
                .iter()
                .find(|e| e.parameters.is_empty())
                .or(kind.enumerants.first())
                .expect("an enumerant");
            out.push(e.value);
            operand_words(e.parameters, next, out);
        }
        KindClass::Composite => {
            for base in kind.bases {
                kind_words(base, next, out);
            }
        }
        // An empty string, a zero literal or mask.
        _ => out.push(0),
    }
}

/// Words that read for every core instruction, given the prelude's ids: `%1` a 32-bit
/// integer type, `%2` a constant of it, `%3` a `NonSemantic.` import.
fn instruction_words(info: &'static InstructionInfo) -> Option<Vec<u32>> {
    use spv::Opcode as O;
    let op = spv::Opcode(info.opcode as u16);
    let mut next = 10;
    let mut out = vec![0];
    match op {
        O::Constant | O::SpecConstant => out.extend([1, 10, 7]),
        O::Switch => out.extend([2, 10]),
        O::ExtInst | O::ExtInstWithForwardRefsKHR => out.extend([1, 10, 3, 1]),
        O::SpecConstantOp => out.extend([1, 10, u32::from(O::IAdd.0), 2, 2]),
        _ => operand_words(info.operands, &mut next, &mut out),
    }
    let count = u32::try_from(out.len()).ok()?;
    out[0] = (count << 16) | info.opcode;
    Some(out)
}

/// The prelude the words of [`instruction_words`] need.
fn prelude() -> Vec<u32> {
    words_of(
        "%1 = OpTypeInt 32 0\n%2 = OpConstant %1 0\n%3 = OpExtInstImport \"NonSemantic.Test\"\n",
    )[5..]
        .to_vec()
}

fn module(header_bound: u32, body: &[u32]) -> Vec<u32> {
    let mut words = vec![0x0723_0203, 0x0001_0600, 0, header_bound, 0];
    words.extend_from_slice(body);
    words
}

/// Every core opcode is placed by the reader and the Builder as `Section::of` says:
/// outside a function in its section (or refused by the Builder and reported by the
/// reader when it belongs in a function), and inside a function unless it is a
/// module-level instruction.
#[test]
fn every_core_opcode_is_placed_alike_by_the_reader_and_the_builder() {
    use spv::Opcode as O;
    let mut checked = 0;
    for info in spv::GRAMMAR.instructions {
        let op = spv::Opcode(info.opcode as u16);
        // Instructions that open or close a function or graph are placed by their role.
        if matches!(
            op,
            O::Function | O::FunctionEnd | O::GraphARM | O::GraphEndARM
        ) {
            continue;
        }
        let Some(words) = instruction_words(info) else {
            continue;
        };
        let section = Section::of(op, Some(info));

        // Outside a function, after the prelude.
        let mut body = prelude();
        let at = 3;
        body.extend_from_slice(&words);
        let m = Module::read(&module(1000, &body), &ReadOptions::default())
            .unwrap_or_else(|e| panic!("{}: {e}", info.opname));
        let outside = m.layout_issues().iter().any(|i| {
            i.instruction == at && matches!(i.kind, LayoutIssueKind::OutsideFunction { .. })
        });
        assert_eq!(
            outside,
            matches!(section, None | Some(Section::Function)),
            "{}: reader outside a function",
            info.opname
        );

        // The Builder, with the same prelude, pushes the decoded instruction.
        let mut b = Builder::new((1, 6));
        for w in prelude_instructions() {
            b.push(w).expect("prelude");
        }
        let typed = m.instruction(at).expect("the instruction").decode();
        let typed = typed.unwrap_or_else(|e| panic!("{}: {e}", info.opname));
        let pushed = b.push(typed.clone());
        assert_eq!(
            pushed.is_ok(),
            !outside,
            "{}: the Builder accepts outside a function what the reader accepts: {pushed:?}",
            info.opname
        );
        if let (Ok(()), Some(s)) = (pushed, section) {
            let built = b.build().unwrap_or_else(|e| panic!("{}: {e}", info.opname));
            assert!(
                built.section(s).any(|i| i.opcode() == op),
                "{}: the Builder put it in {s:?}",
                info.opname
            );
        }

        // Inside a function.
        let mut body = prelude();
        body.extend(words_of("%100 = OpTypeVoid\n%101 = OpTypeFunction %100\n%102 = OpFunction %100 None %101\n%103 = OpLabel\n")[5..].iter());
        let at = 7;
        body.extend_from_slice(&words);
        body.extend(words_of("OpReturn\nOpFunctionEnd\n")[5..].iter());
        let m = Module::read(&module(1000, &body), &ReadOptions::default())
            .unwrap_or_else(|e| panic!("{}: {e}", info.opname));
        let inside = m.layout_issues().iter().any(|i| {
            i.instruction == at && matches!(i.kind, LayoutIssueKind::InsideFunction { .. })
        });
        let module_level =
            matches!(section, Some(s) if s != Section::Function) && !Section::also_in_functions(op);
        assert_eq!(
            inside, module_level,
            "{}: reader inside a function",
            info.opname
        );
        assert_eq!(m.functions().len(), 1, "{}", info.opname);
        checked += 1;
    }
    assert!(checked > 700, "only {checked} opcodes checked");
}

/// The prelude as typed instructions, for the Builder.
fn prelude_instructions() -> Vec<spv::Instruction> {
    vec![
        inst::TypeInt {
            result_id: Id(1),
            width: 32,
            signedness: 0,
        }
        .into(),
        inst::Constant {
            result_type: Id(1),
            result_id: Id(2),
            value: spirv_core::LiteralNumber::from_u32(0),
        }
        .into(),
        inst::ExtInstImport {
            result_id: Id(3),
            name: "NonSemantic.Test".into(),
        }
        .into(),
    ]
}

/// The instructions that may appear outside a function, placed where the layout rules
/// (and spirv-val) put them.
#[test]
fn instructions_allowed_outside_functions_have_their_sections() {
    use spv::Opcode as O;
    for (op, section) in [
        (O::ConditionalCapabilityINTEL, Section::Capability),
        (O::ConditionalExtensionINTEL, Section::Extension),
        (O::ConditionalEntryPointINTEL, Section::EntryPoint),
        (
            O::SamplerImageAddressingModeNV,
            Section::SamplerImageAddressingMode,
        ),
        (O::UntypedVariableKHR, Section::Global),
        (O::ExtInstWithForwardRefsKHR, Section::Global),
        (O::GraphConstantARM, Section::Global),
        (O::GraphEntryPointARM, Section::Graph),
        (O::GraphARM, Section::Graph),
        (O::GraphInputARM, Section::Graph),
        (O::GraphSetOutputARM, Section::Graph),
        (O::GraphEndARM, Section::Graph),
        (O::TypeForwardPointer, Section::Global),
        (O::Line, Section::Global),
        (O::Undef, Section::Global),
    ] {
        assert_eq!(Section::of(op, op.info()), Some(section), "{op:?}");
    }
    assert_eq!(
        Section::of(O::Nop, O::Nop.info()),
        None,
        "OpNop is a function's"
    );
    assert!(Section::also_in_functions(O::UntypedVariableKHR));
    assert!(!Section::also_in_functions(O::TypeInt));
}
