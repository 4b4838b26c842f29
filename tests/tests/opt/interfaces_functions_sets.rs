//! Synthetic cases for `--remove-unused-interface-variables`,
//! `--eliminate-dead-functions` and `--switch-descriptorset`: each fixture in
//! `tests/fixtures/opt-interfaces-functions-sets/` is assembled with its numeric ids kept, run through our
//! passes, and compared with the expected output beside it (spirv-opt 2025.5's, as
//! disassembled with `--raw-id`) and, when SPIRV-Tools 2025.5 is found, byte for byte
//! with what its spirv-opt writes. The corpus modules with two or more functions are
//! also run with their entry points moved to another function (so that functions die)
//! and compared with spirv-opt.

use spirv_asm::opt::SpirvAsNumbers;
use spirv_asm::{AsmOptions, assemble_str};
use spirv_core::Module;
use spirv_opt::structural::{StructuralPass, run, run_words};
use spirv_tests::{require_corpus, require_spirv_tools, spirv_tools, workspace_root};
use std::path::{Path, PathBuf};
use std::process::Command;

/// One fixture run: its name, its input fixture, spirv-opt's flags, a bound to give the
/// input (to see it kept or tightened), and whether spirv-opt changes the module (the
/// expected output is then `<name>.expected.spvasm`).
struct Case {
    name: &'static str,
    input: &'static str,
    flags: &'static [&'static str],
    bound: Option<u32>,
    changes: bool,
}

const fn case(
    name: &'static str,
    input: &'static str,
    flags: &'static [&'static str],
    bound: Option<u32>,
    changes: bool,
) -> Case {
    Case {
        name,
        input,
        flags,
        bound,
        changes,
    }
}

const INTERFACE: &[&str] = &["--remove-unused-interface-variables"];
const DEAD: &[&str] = &["--eliminate-dead-functions"];

const CASES: &[Case] = &[
    case(
        "interface_before_1_4_counts_input_and_output_only",
        "i_pre14",
        INTERFACE,
        None,
        true,
    ),
    case(
        "interface_from_1_4_counts_every_global_in_first_use_order",
        "i_14_first_use",
        INTERFACE,
        None,
        true,
    ),
    case(
        "interface_with_the_same_set_keeps_its_order",
        "i_same_set",
        INTERFACE,
        None,
        false,
    ),
    case(
        "interface_with_a_repeat_is_rewritten_in_first_use_order",
        "i_duplicate",
        INTERFACE,
        None,
        true,
    ),
    case(
        "interface_follows_the_call_tree_breadth_first",
        "i_call_tree",
        INTERFACE,
        None,
        true,
    ),
    case(
        "dead_function_takes_its_names_and_decorations",
        "d_names_groups",
        DEAD,
        None,
        true,
    ),
    case(
        "dead_function_then_compact_ids",
        "d_names_groups",
        &["--eliminate-dead-functions", "--compact-ids"],
        None,
        true,
    ),
    case(
        "dead_functions_roots_are_entry_points_and_direct_exports",
        "d_linkage",
        DEAD,
        None,
        true,
    ),
    case(
        "dead_call_cycle_goes_and_live_callees_stay",
        "d_cycle",
        DEAD,
        None,
        true,
    ),
    case(
        "dead_function_non_semantic_users_go_and_the_rest_stay",
        "d_nonsemantic",
        DEAD,
        None,
        true,
    ),
    case("dead_function_debug_lines", "d_lines", DEAD, None, true),
    case(
        "dead_function_opencl_debug_function_gets_a_new_debug_info_none",
        "d_opencl_debug",
        DEAD,
        None,
        true,
    ),
    case(
        "dead_function_opencl_debug_info_none_and_empty_expression_move_first",
        "d_opencl_debug2",
        DEAD,
        None,
        true,
    ),
    case(
        "switch_descriptor_set_direct_first_then_groups",
        "s_groups",
        &["--switch-descriptorset=0:5"],
        None,
        true,
    ),
    case(
        "switch_descriptor_set_first_match_only",
        "s_groups",
        &["--switch-descriptorset=1:0"],
        None,
        true,
    ),
    case(
        "switch_descriptor_set_reads_member_decorations_as_spirv_opt_does",
        "s_groups",
        &["--switch-descriptorset=33:34"],
        None,
        true,
    ),
    case(
        "switch_descriptor_set_to_itself_changes_and_tightens_the_bound",
        "s_groups",
        &["--switch-descriptorset=0:0"],
        Some(40),
        true,
    ),
    case(
        "switch_descriptor_set_without_a_match_keeps_the_bound",
        "s_groups",
        &["--switch-descriptorset=2:3"],
        Some(40),
        false,
    ),
    case(
        "switch_descriptor_set_group_member_decorate_names_members",
        "s_group_member",
        &["--switch-descriptorset=0:5"],
        None,
        true,
    ),
    case(
        "switch_descriptor_set_group_member_decorate_targets_are_not_followed",
        "s_group_member2",
        &["--switch-descriptorset=0:5"],
        None,
        false,
    ),
];

fn fixtures() -> PathBuf {
    workspace_root().join("tests/fixtures/opt-interfaces-functions-sets")
}

fn assemble(text: &str) -> Vec<u32> {
    let opts = AsmOptions {
        preserve_numeric_ids: true,
        ..Default::default()
    };
    assemble_str(text, &opts).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// The passes spirv-opt's flags name.
fn passes(flags: &[&str]) -> Vec<StructuralPass> {
    flags
        .iter()
        .map(|f| {
            let f = f.trim_start_matches('-');
            let (name, value) = match f.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (f, None),
            };
            StructuralPass::from_flag(name, value).expect("a pass flag")
        })
        .collect()
}

/// Ours, through `run`; `run_words` (which streams what it can) must agree.
fn ours(words: &[u32], flags: &[&str]) -> Vec<u32> {
    let module = Module::from_words(words).expect("reads");
    let passes = passes(flags);
    let (out, changed) = run(&module, &passes, Some(&SpirvAsNumbers)).expect("the passes run");
    let out = out.to_words();
    let streamed =
        run_words(words, &passes, Some(&SpirvAsNumbers)).expect("the passes run from words");
    assert!(
        streamed == (out.clone(), changed),
        "run_words differs from run: {flags:?}"
    );
    out
}

fn to_bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// spirv-opt's output for `words`, or `None` if it fails or crashes.
fn spirv_opt(tools: &Path, words: &[u32], flags: &[&str], tag: &str) -> Option<Vec<u8>> {
    let dir = std::env::temp_dir().join(format!("spirv-opt-ifs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let (input, output) = (
        dir.join(format!("{tag}.spv")),
        dir.join(format!("{tag}.out.spv")),
    );
    std::fs::write(&input, to_bytes(words)).expect("writes the input");
    let status = Command::new(tools.join("spirv-opt"))
        .arg("--skip-validation")
        .args(flags)
        .arg(&input)
        .arg("-o")
        .arg(&output)
        .status()
        .expect("spirv-opt runs");
    let out = status
        .success()
        .then(|| std::fs::read(&output).ok())
        .flatten();
    let _ = std::fs::remove_file(&input);
    let _ = std::fs::remove_file(&output);
    out
}

#[test]
fn fixtures_match_spirv_opt() {
    let tools = spirv_tools();
    if tools.is_none() {
        require_spirv_tools(
            "opt_interfaces_functions_sets fixtures against spirv-opt (the expected files are still checked)",
        );
    }
    let mut failures = Vec::new();
    for c in CASES {
        let text = std::fs::read_to_string(fixtures().join(format!("{}.spvasm", c.input)))
            .expect("the input fixture");
        let mut input = assemble(&text);
        if let Some(b) = c.bound {
            input[3] = b;
        }
        let got = ours(&input, c.flags);
        let expected = if c.changes {
            let path = fixtures().join(format!("{}.expected.spvasm", c.name));
            assemble(&std::fs::read_to_string(path).expect("the expected fixture"))
        } else {
            input.clone()
        };
        if got != expected {
            failures.push(format!("{}: differs from the expected output", c.name));
        }
        if let Some(tools) = &tools {
            let reference = spirv_opt(tools, &input, c.flags, c.name);
            if reference.as_deref() != Some(&to_bytes(&got)[..]) {
                failures.push(format!("{}: differs from spirv-opt", c.name));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Whether a module imports a debug-info set (spirv-opt reorders those on any run, so
/// they are not byte targets).
fn has_debug_info(module: &Module) -> bool {
    module.section(spirv_core::Section::ExtInstImport).any(|i| {
        let name: Vec<u8> = i.operands()[1..]
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect();
        name.windows(9).any(|w| w == b"DebugInfo")
    })
}

/// The corpus modules with two or more functions, their entry points moved to the second
/// function: every function the old entry points alone reached dies. Ours equals
/// spirv-opt's output for `--eliminate-dead-functions` and
/// `--remove-unused-interface-variables`.
#[test]
fn corpus_with_moved_entry_points_matches_spirv_opt() {
    let (Some(corpus), Some(tools)) = (
        require_corpus("opt_interfaces_functions_sets corpus mutants"),
        require_spirv_tools("opt_interfaces_functions_sets corpus mutants"),
    ) else {
        return;
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpus.join("bin"))
        .expect("the corpus folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "spv"))
        .collect();
    files.sort();
    let (mut compared, mut changed, mut failures) = (0, 0, Vec::new());
    for path in files {
        let words = spirv_tests::read_words(&path);
        let Ok(module) = Module::from_words(&words) else {
            continue;
        };
        let functions: Vec<u32> = module
            .functions()
            .filter_map(|f| f.def().result_id())
            .map(|id| id.0)
            .collect();
        if functions.len() < 2 || has_debug_info(&module) {
            continue;
        }
        let mut mutant = words.clone();
        for ep in module.section(spirv_core::Section::EntryPoint) {
            mutant[ep.offset() + 2] = functions[1];
        }
        let stem = spirv_tests::stem(&path);
        for flags in [DEAD, INTERFACE] {
            let Some(reference) = spirv_opt(&tools, &mutant, flags, &stem) else {
                continue;
            };
            let got = to_bytes(&ours(&mutant, flags));
            compared += 1;
            changed += usize::from(reference != to_bytes(&mutant));
            if got != reference {
                failures.push(format!("{stem} {}", flags[0]));
            }
        }
    }
    eprintln!(
        "opt_interfaces_functions_sets corpus mutants: {compared} runs compared, {changed} changed by spirv-opt"
    );
    assert!(compared > 0);
    assert!(
        failures.is_empty(),
        "differ from spirv-opt:\n{}",
        failures.join("\n")
    );
}

/// Inputs spirv-opt asserts or crashes on: an entry point or a call naming something
/// that is not a function, a call to itself, an interface listing a non-variable. Ours
/// runs without panicking.
#[test]
fn hostile_inputs_do_not_panic() {
    let text = r#"
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %void "a" %fn %void
OpEntryPoint GLCompute %main "b" %main
OpEntryPoint GLCompute %main "c"
OpDecorate %void LinkageAttributes "x" Export
OpGroupMemberDecorate %main %void 4294967295
OpDecorate %main DescriptorSet 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
%r = OpFunctionCall %void %main
%s = OpFunctionCall %void %fn
OpReturn
OpFunctionEnd
%dead = OpFunction %void None %fn
%l = OpLabel
%t = OpFunctionCall %void %dead
OpReturn
OpFunctionEnd
"#;
    let words = assemble(text);
    for flags in [
        DEAD,
        INTERFACE,
        &["--switch-descriptorset=0:1"][..],
        &[
            "--eliminate-dead-functions",
            "--remove-unused-interface-variables",
            "--compact-ids",
        ][..],
    ] {
        let out = ours(&words, flags);
        assert!(Module::from_words(&out).is_ok(), "{flags:?}");
    }
}
