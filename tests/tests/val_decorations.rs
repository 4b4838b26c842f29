//! The validator's annotation pass and decoration rules (targets, members, groups,
//! repeats, entry points' interfaces, buffers, block layouts under every layout option,
//! descriptors, linkage) against SPIRV-Tools 2025.5's spirv-val, on the cases of
//! `tests/fixtures/val-decorations.txt`: the assembly of SPIRV-Tools' own
//! `val_decoration_test` and `val_annotation_test` cases and of this project's, each
//! with spirv-val's options and its standard error.
//!
//! Each case is assembled with `--preserve-numeric-ids` for its target environment and
//! validated; our text (`spirv_asm::val::spirv_val_text`) must be spirv-val's, word for
//! word. When spirv-val 2025.5 is found, it validates our binary too and must print
//! what the fixture says; `BLESS=1` then re-records the fixture's outputs.

use spirv_asm::val::{Options, spirv_val_text};
use spirv_asm::{AsmOptions, assemble_str};
use spirv_core::TargetEnv;
use spirv_core::validate::{DecorationError, ErrorKind, validate};
use spirv_tests::workspace_root;
use std::path::Path;
use std::process::Command;

/// One case of the fixture.
struct Case {
    name: String,
    /// spirv-val's options.
    args: Vec<String>,
    text: String,
    /// spirv-val's standard error (empty: valid).
    expected: String,
}

const FIXTURE: &str = "tests/fixtures/val-decorations.txt";

/// The cases of the fixture, in order: a line `=== NAME` begins each, then `args:`,
/// `--- spvasm` and the text, `--- spirv-val` and its output (up to the next case).
fn cases(fixture: &str) -> Vec<Case> {
    let mut out: Vec<Case> = Vec::new();
    // 0: the header; 1: the text; 2: spirv-val's output.
    let mut part = 0;
    for line in fixture.split_inclusive('\n') {
        if let Some(name) = line.strip_prefix("=== ") {
            out.push(Case {
                name: name.trim_end().to_owned(),
                args: Vec::new(),
                text: String::new(),
                expected: String::new(),
            });
            part = 0;
            continue;
        }
        let Some(case) = out.last_mut() else {
            continue;
        };
        match (part, line.trim_end()) {
            (0, l) if l.starts_with("args:") => {
                case.args = l["args:".len()..]
                    .split_whitespace()
                    .map(str::to_owned)
                    .collect();
            }
            (0, "--- spvasm") => part = 1,
            (1, "--- spirv-val") => part = 2,
            (1, _) => case.text.push_str(line),
            (2, _) => case.expected.push_str(line),
            _ => panic!("{}: unexpected line {line:?}", case.name),
        }
    }
    out
}

/// spirv-val's options from its command line.
fn options(args: &[String]) -> Options<'static> {
    let mut o = Options::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--target-env" => {
                let env = it.next().expect("an env");
                o.target_env = TargetEnv::parse(env).expect("a known env");
            }
            "--relax-block-layout" => o.relax_block_layout = true,
            "--uniform-buffer-standard-layout" => o.uniform_buffer_standard_layout = true,
            "--scalar-block-layout" => o.scalar_block_layout = true,
            "--workgroup-scalar-block-layout" => o.workgroup_scalar_block_layout = true,
            "--skip-block-layout" => o.skip_block_layout = true,
            "--before-hlsl-legalization" => o.before_hlsl_legalization = true,
            "--relax-logical-pointer" => o.relax_logical_pointer = true,
            other => panic!("unknown option {other}"),
        }
    }
    o
}

/// The case assembled as `spirv-as --preserve-numeric-ids --target-env ENV` does.
fn assemble(case: &Case, options: &Options<'_>) -> Vec<u32> {
    let asm = AsmOptions {
        version: Some(options.target_env.version()),
        preserve_numeric_ids: true,
        ..AsmOptions::default()
    };
    assemble_str(&case.text, &asm).unwrap_or_else(|e| panic!("{}: {e}", case.name))
}

/// spirv-val's standard error for `words` under `args`.
fn spirv_val(bin: &Path, file: &Path, words: &[u32], args: &[String]) -> String {
    std::fs::write(file, spirv_core::binary::words_to_bytes(words)).expect("temp file");
    let out = Command::new(bin.join("spirv-val"))
        .args(args)
        .arg(file)
        .output()
        .expect("spirv-val runs");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn decorations_agree_with_spirv_val() {
    let path = workspace_root().join(FIXTURE);
    let fixture = std::fs::read_to_string(&path).expect("the fixture");
    let mut all = cases(&fixture);
    assert!(all.len() >= 300, "{} cases", all.len());
    let tools = spirv_tests::spirv_tools();
    let bless = std::env::var_os("BLESS").is_some() && tools.is_some();
    let file = std::env::temp_dir().join(format!("val_decorations.{}.spv", std::process::id()));
    let mut failures = Vec::new();
    let (mut rejected, mut live) = (0, 0);
    for case in &mut all {
        let options = options(&case.args);
        let words = assemble(case, &options);
        if let Some(bin) = &tools {
            let theirs = spirv_val(bin, &file, &words, &case.args);
            live += 1;
            if bless {
                case.expected = theirs;
            } else if theirs != case.expected {
                failures.push(format!(
                    "{}: spirv-val now prints\n{theirs}instead of\n{}",
                    case.name, case.expected
                ));
            }
        }
        let ours = spirv_val_text(&words, &options).unwrap_or_default();
        rejected += usize::from(!ours.is_empty());
        if ours != case.expected {
            failures.push(format!(
                "{} ({}):\nspirv-val:\n{}ours:\n{ours}",
                case.name,
                case.args.join(" "),
                case.expected
            ));
        }
    }
    let _ = std::fs::remove_file(&file);
    if bless {
        let mut text: String = fixture
            .lines()
            .take_while(|l| l.starts_with('#'))
            .map(|l| format!("{l}\n"))
            .collect();
        for c in &all {
            text.push_str(&format!(
                "=== {}\nargs: {}\n--- spvasm\n{}--- spirv-val\n{}",
                c.name,
                c.args.join(" "),
                c.text,
                c.expected
            ));
        }
        std::fs::write(&path, text).expect("bless");
    }
    let _ = std::io::Write::write_all(
        &mut std::io::stderr(),
        format!(
            "val_decorations: {} cases ({rejected} rejected), {live} also through spirv-val\n",
            all.len()
        )
        .as_bytes(),
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

const HEADER: &str = "OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
";

fn first_fault(text: &str, env: TargetEnv) -> Option<spirv_core::validate::ValidationError> {
    let options = Options {
        target_env: env,
        ..Options::default()
    };
    let asm = AsmOptions {
        version: Some(env.version()),
        preserve_numeric_ids: true,
        ..AsmOptions::default()
    };
    let words = assemble_str(text, &asm).expect("assembles");
    validate(&words, &options).err()
}

#[test]
fn faults_carry_the_decoration_and_the_instruction() {
    let text = format!(
        "{HEADER}OpDecorate %1 RelaxedPrecision
OpDecorate %1 RelaxedPrecision
%1 = OpTypeFloat 32
"
    );
    // spirv-val reports the repeat at the decorated id's definition.
    let e = first_fault(&text, TargetEnv::Universal1_6).expect("a fault");
    assert_eq!(e.line(), 6);
    assert_eq!(
        e.kind,
        ErrorKind::Decoration(DecorationError::Repeated {
            id: 1,
            member: None,
            decoration: spirv_core::spv::Decoration::RelaxedPrecision.0,
        })
    );
    assert_eq!(
        e.to_string(),
        "ID '1' decorated with RelaxedPrecision multiple times is not allowed. \
         (instruction 5, word 18)"
    );
}

#[test]
fn group_decorations_reach_their_targets_as_they_stood() {
    // The group gets RelaxedPrecision after it decorates the float: the float does
    // not have it, the int (decorated later) does.
    let text = format!(
        "{HEADER}%g = OpDecorationGroup
OpGroupDecorate %g %float
OpDecorate %g RelaxedPrecision
OpGroupDecorate %g %int
%float = OpTypeFloat 32
%int = OpTypeInt 32 1
"
    );
    let e = first_fault(&text, TargetEnv::Universal1_6).expect("a fault");
    assert_eq!(
        e.kind,
        ErrorKind::Decoration(DecorationError::RelaxedPrecisionType)
    );
    assert_eq!(e.line(), 9, "at the int, not the float");
}

#[test]
fn layout_options_relax_the_rules() {
    let text = "OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main \"main\"
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %s Block
OpDecorate %var DescriptorSet 0
OpDecorate %var Binding 0
OpMemberDecorate %s 0 Offset 0
OpMemberDecorate %s 1 Offset 4
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%v3 = OpTypeVector %float 3
%s = OpTypeStruct %float %v3
%ptr = OpTypePointer Uniform %s
%var = OpVariable %ptr Uniform
%main = OpFunction %void None %fn
%l = OpLabel
OpReturn
OpFunctionEnd
";
    let asm = AsmOptions {
        version: Some((1, 0)),
        preserve_numeric_ids: true,
        ..AsmOptions::default()
    };
    let words = assemble_str(text, &asm).expect("assembles");
    let run = |f: &dyn Fn(&mut Options<'static>)| {
        let mut o = Options {
            target_env: TargetEnv::Vulkan1_0,
            ..Options::default()
        };
        f(&mut o);
        validate(&words, &o).err().map(|e| e.kind)
    };
    // A vec3 at offset 4: std140 wants 16; relaxed layout lets it straddle no 16-byte
    // boundary it does cross (4..16 is inside the first); scalar layout wants 4.
    assert!(matches!(
        run(&|_| {}),
        Some(ErrorKind::Decoration(DecorationError::Layout(_)))
    ));
    assert_eq!(run(&|o| o.relax_block_layout = true), None);
    assert_eq!(run(&|o| o.scalar_block_layout = true), None);
    assert_eq!(run(&|o| o.skip_block_layout = true), None);
    // Vulkan 1.1 implies the relaxed layout.
    assert_eq!(run(&|o| o.target_env = TargetEnv::Vulkan1_1), None);
}
