//! spirv-opt's constant passes on small hand-written modules, one subtle behaviour a
//! case: `--eliminate-dead-const`, `--unify-const`, `--freeze-spec-const` and
//! `--set-spec-const-default-value` (with its argument reading). Each case gives the
//! input, the flags and the expected output as assembly with numeric ids; the input's
//! bound is left 5 above its ids, so the output's bound also says whether the passes
//! reported a change (tight) or not (kept). When SPIRV-Tools 2025.5 is found, each
//! output is also compared byte for byte with `spirv-opt --skip-validation`'s.
//!
//! Also: the passes on every corpus module and on mutants of some, for no panic.

use spirv_asm::opt::SpirvAsNumbers;
use spirv_asm::{AsmOptions, DisOptions, assemble_str, disassemble};
use spirv_core::Module;
use spirv_opt::structural::{StructuralPass, run};
use spirv_tests::mutate::{Dissected, Mutation, Rng, mutate};
use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

const HEAD: &str = "OpCapability Shader\nOpCapability Linkage\nOpMemoryModel Logical GLSL450\n";

/// A whole module: HEAD's capabilities, the capabilities, extensions and imports of
/// `body`, the memory model, the rest of `body`.
fn module_text(body: &str) -> String {
    let (mut early, mut late) = (String::new(), String::new());
    for line in body.lines() {
        let t = line.trim_start();
        let first = t.starts_with("OpCapability")
            || t.starts_with("OpExtension")
            || t.contains("OpExtInstImport");
        let out = if first { &mut early } else { &mut late };
        out.push_str(line);
        out.push('\n');
    }
    format!(
        "OpCapability Shader\nOpCapability Linkage\n{early}OpMemoryModel Logical GLSL450\n{late}"
    )
}

fn asm(text: &str) -> Vec<u32> {
    let opts = AsmOptions {
        preserve_numeric_ids: true,
        ..Default::default()
    };
    assemble_str(text, &opts).unwrap_or_else(|e| panic!("{e:?} in\n{text}"))
}

fn dis(words: &[u32]) -> String {
    let opts = DisOptions {
        raw_id: true,
        ..Default::default()
    };
    disassemble(words, &opts)
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_else(|e| format!("{e:?}"))
}

/// The passes `flags` name, as spirv-opt's command line reads them.
fn passes(flags: &[&str]) -> Vec<StructuralPass> {
    flags
        .iter()
        .map(|f| {
            let f = f.trim_start_matches("--");
            let (name, value) = match f.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (f, None),
            };
            StructuralPass::from_flag(name, value).expect("flag")
        })
        .collect()
}

fn scratch(name: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!("opt_constants-{}-{n}-{name}", std::process::id()))
}

fn to_bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// spirv-opt's output for `words` with `flags`, when SPIRV-Tools 2025.5 is found.
fn spirv_opt(words: &[u32], flags: &[&str]) -> Option<Vec<u32>> {
    let tools = spirv_tests::spirv_tools()?;
    let (input, output) = (scratch("in.spv"), scratch("out.spv"));
    std::fs::write(&input, to_bytes(words)).expect("write input");
    let out = Command::new(tools.join("spirv-opt"))
        .arg("--skip-validation")
        .args(flags)
        .arg(&input)
        .arg("-o")
        .arg(&output)
        .output()
        .expect("spirv-opt runs");
    let bytes = std::fs::read(&output).unwrap_or_default();
    let _ = std::fs::remove_file(&input);
    let _ = std::fs::remove_file(&output);
    assert!(
        out.status.success(),
        "spirv-opt failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(
        bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect(),
    )
}

/// Runs `flags` on [`module_text`]`(input)` (bound 5 above its ids) and checks the
/// output is [`module_text`]`(expected)`, with the bound tight if `changed`, else kept; and spirv-opt's.
fn case(input: &str, flags: &[&str], expected: &str, changed: bool) {
    let mut words = asm(&module_text(input));
    let loose = words[3] + 5;
    words[3] = loose;
    let module = Module::from_words(&words).expect("input reads");
    let (out, did) = run(&module, &passes(flags), Some(&SpirvAsNumbers)).expect("passes run");
    let ours = out.to_words();
    let mut want = asm(&module_text(expected));
    if !changed {
        want[3] = loose;
    }
    assert_eq!(
        dis(&ours),
        dis(&want),
        "{flags:?} on\n{input}\nbound: ours {}, expected {}",
        ours[3],
        want[3]
    );
    assert_eq!(ours, want, "{flags:?}: same text, other words");
    assert_eq!(did, changed, "{flags:?}: reported change");
    if let Some(reference) = spirv_opt(&words, flags) {
        assert_eq!(
            dis(&ours),
            dis(&reference),
            "{flags:?}: ours vs spirv-opt on\n{input}"
        );
        assert_eq!(ours, reference, "{flags:?}: ours vs spirv-opt, same text");
    }
}

const FN: &str = "%90 = OpTypeVoid\n%91 = OpTypeFunction %90\n";

#[test]
fn dead_const_removes_names_decorations_and_cascades() {
    let input = format!(
        "OpName %3 \"dead\"\nOpName %4 \"used\"\nOpMemberName %6 0 \"m\"\n\
         OpDecorate %3 SpecId 7\nOpDecorate %4 SpecId 8\nOpDecorate %12 BuiltIn WorkgroupSize\n\
         %1 = OpTypeInt 32 0\n%2 = OpTypeVector %1 3\n\
         %3 = OpSpecConstant %1 5\n%4 = OpSpecConstant %1 6\n\
         %5 = OpConstant %1 1\n%6 = OpConstantComposite %2 %5 %5 %4\n\
         %7 = OpSpecConstantOp %1 CompositeExtract %6 1\n\
         %8 = OpConstant %1 9\n%9 = OpConstantComposite %2 %8 %8 %8\n\
         %10 = OpConstant %1 2\n%11 = OpConstant %1 3\n%12 = OpConstantComposite %2 %11 %11 %11\n\
         {FN}%92 = OpFunction %90 None %91\n%93 = OpLabel\n%94 = OpIAdd %1 %4 %8\nOpReturn\nOpFunctionEnd\n"
    );
    // %3 unused; %7 → %6 → %5 dead in cascade; %9 dead but %8 used; %10 unused;
    // %12 (WorkgroupSize) and %11 dead, with the BuiltIn.
    let expected = format!(
        "OpName %4 \"used\"\nOpDecorate %4 SpecId 8\n\
         %1 = OpTypeInt 32 0\n%2 = OpTypeVector %1 3\n%4 = OpSpecConstant %1 6\n%8 = OpConstant %1 9\n\
         {FN}%92 = OpFunction %90 None %91\n%93 = OpLabel\n%94 = OpIAdd %1 %4 %8\nOpReturn\nOpFunctionEnd\n"
    );
    case(&input, &["--eliminate-dead-const"], &expected, true);
}

#[test]
fn dead_const_no_dead_keeps_the_bound() {
    let input = format!(
        "%1 = OpTypeInt 32 0\n%4 = OpConstant %1 6\n\
         {FN}%92 = OpFunction %90 None %91\n%93 = OpLabel\n%94 = OpIAdd %1 %4 %4\nOpReturn\nOpFunctionEnd\n"
    );
    case(&input, &["--eliminate-dead-const"], &input, false);
}

#[test]
fn dead_const_replicate_composites_do_not_cascade() {
    let input = "OpCapability ReplicatedCompositesEXT\nOpExtension \"SPV_EXT_replicated_composites\"\n\
         %1 = OpTypeInt 32 0\n%2 = OpTypeVector %1 2\n%3 = OpConstant %1 1\n\
         %4 = OpConstantCompositeReplicateEXT %2 %3\n%5 = OpConstant %1 2\n%6 = OpSpecConstantComposite %2 %5 %5\n";
    // %4 goes, but its operand %3 stays; %6 and %5 go.
    let expected = "OpCapability ReplicatedCompositesEXT\nOpExtension \"SPV_EXT_replicated_composites\"\n\
         %1 = OpTypeInt 32 0\n%2 = OpTypeVector %1 2\n%3 = OpConstant %1 1\n";
    case(input, &["--eliminate-dead-const"], expected, true);
}

#[test]
fn dead_const_debug_line_passes_to_the_next_instruction() {
    let input = "%20 = OpString \"a.glsl\"\n%1 = OpTypeInt 32 0\nOpLine %20 3 4\n%2 = OpConstant %1 1\n\
         %3 = OpTypeFloat 32\nOpLine %20 5 6\n%4 = OpConstant %1 2\n%5 = OpConstant %1 3\n\
         %6 = OpTypePointer Private %1\n%7 = OpVariable %6 Private %5\n\
         OpLine %20 7 8\n%8 = OpConstant %1 4\nOpLine %20 9 9\n%9 = OpTypeBool\n";
    // %2's line passes to %3, %4's to %5; %8's goes, as %9 has its own.
    let expected = "%20 = OpString \"a.glsl\"\n%1 = OpTypeInt 32 0\nOpLine %20 3 4\n\
         %3 = OpTypeFloat 32\nOpLine %20 5 6\n%5 = OpConstant %1 3\n\
         %6 = OpTypePointer Private %1\n%7 = OpVariable %6 Private %5\n\
         OpLine %20 9 9\n%9 = OpTypeBool\n";
    case(input, &["--eliminate-dead-const"], expected, true);
}

#[test]
fn dead_const_group_targets_swap_remove() {
    let input = format!(
        "OpDecorate %50 RelaxedPrecision\n%50 = OpDecorationGroup\nOpGroupDecorate %50 %3 %4 %5\n\
         %1 = OpTypeInt 32 0\n%3 = OpConstant %1 1\n%4 = OpConstant %1 2\n%5 = OpConstant %1 3\n\
         {FN}%92 = OpFunction %90 None %91\n%93 = OpLabel\n%94 = OpIAdd %1 %4 %5\nOpReturn\nOpFunctionEnd\n"
    );
    let expected = format!(
        "OpDecorate %50 RelaxedPrecision\n%50 = OpDecorationGroup\nOpGroupDecorate %50 %5 %4\n\
         %1 = OpTypeInt 32 0\n%4 = OpConstant %1 2\n%5 = OpConstant %1 3\n\
         {FN}%92 = OpFunction %90 None %91\n%93 = OpLabel\n%94 = OpIAdd %1 %4 %5\nOpReturn\nOpFunctionEnd\n"
    );
    case(&input, &["--eliminate-dead-const"], &expected, true);
}

#[test]
fn dead_const_group_targets_several_and_repeated() {
    // %3 and %5 dead: %3's place takes the last target (%7), then %5's the new last
    // (%6); in the second list the repeated %8 goes everywhere.
    let input = format!(
        "OpDecorate %50 RelaxedPrecision\n%50 = OpDecorationGroup\n\
         OpGroupDecorate %50 %3 %4 %5 %6 %7\nOpGroupDecorate %50 %8 %4 %8 %8\n\
         %1 = OpTypeInt 32 0\n%3 = OpConstant %1 1\n%4 = OpConstant %1 2\n%5 = OpConstant %1 3\n\
         %6 = OpConstant %1 4\n%7 = OpConstant %1 5\n%8 = OpConstant %1 6\n\
         {FN}%92 = OpFunction %90 None %91\n%93 = OpLabel\n%94 = OpIAdd %1 %4 %6\n%95 = OpIAdd %1 %7 %7\n\
         OpReturn\nOpFunctionEnd\n"
    );
    let expected = format!(
        "OpDecorate %50 RelaxedPrecision\n%50 = OpDecorationGroup\n\
         OpGroupDecorate %50 %7 %4 %6\nOpGroupDecorate %50 %4\n\
         %1 = OpTypeInt 32 0\n%4 = OpConstant %1 2\n%6 = OpConstant %1 4\n%7 = OpConstant %1 5\n\
         {FN}%92 = OpFunction %90 None %91\n%93 = OpLabel\n%94 = OpIAdd %1 %4 %6\n%95 = OpIAdd %1 %7 %7\n\
         OpReturn\nOpFunctionEnd\n"
    );
    case(&input, &["--eliminate-dead-const"], &expected, true);
}

#[test]
fn dead_const_uses_in_mode_ids_and_debug_info_count() {
    let input = "OpExtension \"SPV_KHR_non_semantic_info\"\n\
         %50 = OpExtInstImport \"NonSemantic.Shader.DebugInfo.100\"\n\
         OpEntryPoint GLCompute %92 \"main\"\nOpExecutionModeId %92 LocalSizeId %3 %3 %3\n\
         %60 = OpString \"uint\"\nOpName %6 \"named only\"\n\
         %1 = OpTypeInt 32 0\n%90 = OpTypeVoid\n%91 = OpTypeFunction %90\n\
         %3 = OpConstant %1 1\n%4 = OpConstant %1 32\n%5 = OpConstant %1 6\n%6 = OpConstant %1 0\n\
         %61 = OpExtInst %90 %50 DebugTypeBasic %60 %4 %5 %3\n\
         %92 = OpFunction %90 None %91\n%93 = OpLabel\nOpReturn\nOpFunctionEnd\n";
    let expected = input
        .replace("OpName %6 \"named only\"\n", "")
        .replace("%6 = OpConstant %1 0\n", "");
    case(input, &["--eliminate-dead-const"], &expected, true);
}

#[test]
fn dead_const_leaves_decorate_id_operands() {
    // An annotation's use does not count, and spirv-opt removes only the decorations
    // that target a dead constant: the OpDecorateId naming it stays.
    let input = "%1 = OpTypeInt 32 0\n%2 = OpConstant %1 16\n%3 = OpTypePointer Private %1\n\
         %4 = OpVariable %3 Private\n";
    let input = format!("OpDecorateId %4 AlignmentId %2\n{input}");
    let expected = "OpDecorateId %4 AlignmentId %2\n%1 = OpTypeInt 32 0\n%3 = OpTypePointer Private %1\n\
         %4 = OpVariable %3 Private\n";
    case(&input, &["--eliminate-dead-const"], expected, true);
}

#[test]
fn unify_retargets_names_and_cascades() {
    let input = format!(
        "OpName %3 \"a\"\nOpName %4 \"b\"\nOpName %7 \"c\"\n\
         %1 = OpTypeInt 32 1\n%3 = OpConstant %1 5\n%4 = OpConstant %1 5\n%5 = OpTypeVector %1 2\n\
         %6 = OpConstantComposite %5 %3 %3\n%7 = OpConstantComposite %5 %4 %3\n\
         %8 = OpConstantNull %5\n%9 = OpConstantNull %5\n\
         {FN}%92 = OpFunction %90 None %91\n%93 = OpLabel\n%94 = OpIAdd %1 %4 %4\n\
         %95 = OpIAdd %5 %7 %9\nOpReturn\nOpFunctionEnd\n"
    );
    let expected = format!(
        "OpName %3 \"a\"\nOpName %3 \"b\"\nOpName %6 \"c\"\n\
         %1 = OpTypeInt 32 1\n%3 = OpConstant %1 5\n%5 = OpTypeVector %1 2\n\
         %6 = OpConstantComposite %5 %3 %3\n%8 = OpConstantNull %5\n\
         {FN}%92 = OpFunction %90 None %91\n%93 = OpLabel\n%94 = OpIAdd %1 %3 %3\n\
         %95 = OpIAdd %5 %6 %8\nOpReturn\nOpFunctionEnd\n"
    );
    case(&input, &["--unify-const"], &expected, true);
}

#[test]
fn unify_skips_annotated_ids_and_scalar_spec_constants() {
    let input = format!(
        "OpDecorate %2 RelaxedPrecision\nOpDecorateId %20 AlignmentId %6\n\
         %1 = OpTypeInt 32 1\n%2 = OpConstant %1 9\n%3 = OpConstant %1 9\n%4 = OpConstant %1 9\n\
         %5 = OpConstant %1 16\n%6 = OpConstant %1 16\n\
         %7 = OpSpecConstant %1 1\n%8 = OpSpecConstant %1 1\n\
         %9 = OpSpecConstantOp %1 IAdd %7 %7\n%10 = OpSpecConstantOp %1 IAdd %7 %7\n\
         %11 = OpTypeBool\n%12 = OpSpecConstantTrue %11\n%13 = OpSpecConstantTrue %11\n\
         %14 = OpTypePointer Private %1\n%20 = OpVariable %14 Private\n\
         {FN}%92 = OpFunction %90 None %91\n%93 = OpLabel\n%94 = OpIAdd %1 %2 %4\n\
         %95 = OpIAdd %1 %8 %10\n%96 = OpIAdd %1 %5 %6\nOpReturn\nOpFunctionEnd\n"
    );
    // %2 is decorated (neither replaced nor a replacement): %4 takes %3; %6 is an
    // OpDecorateId operand; scalar spec constants stay apart; %10 takes %9.
    let expected = format!(
        "OpDecorate %2 RelaxedPrecision\nOpDecorateId %20 AlignmentId %6\n\
         %1 = OpTypeInt 32 1\n%2 = OpConstant %1 9\n%3 = OpConstant %1 9\n\
         %5 = OpConstant %1 16\n%6 = OpConstant %1 16\n\
         %7 = OpSpecConstant %1 1\n%8 = OpSpecConstant %1 1\n\
         %9 = OpSpecConstantOp %1 IAdd %7 %7\n\
         %11 = OpTypeBool\n%12 = OpSpecConstantTrue %11\n%13 = OpSpecConstantTrue %11\n\
         %14 = OpTypePointer Private %1\n%20 = OpVariable %14 Private\n\
         {FN}%92 = OpFunction %90 None %91\n%93 = OpLabel\n%94 = OpIAdd %1 %2 %3\n\
         %95 = OpIAdd %1 %8 %9\n%96 = OpIAdd %1 %5 %6\nOpReturn\nOpFunctionEnd\n"
    );
    case(&input, &["--unify-const"], &expected, true);
}

#[test]
fn unify_nothing_to_do_keeps_the_bound() {
    let input = "%1 = OpTypeInt 32 1\n%2 = OpConstant %1 9\n%3 = OpConstant %1 8\n";
    case(input, &["--unify-const"], input, false);
}

#[test]
fn freeze_spec_constants() {
    let input = "OpDecorate %3 SpecId 1\nOpDecorate %5 SpecId 2\nOpDecorate %6 SpecId 3\n\
         OpDecorate %50 SpecId 4\n%50 = OpDecorationGroup\nOpGroupDecorate %50 %7\n\
         %1 = OpTypeInt 32 1\n%2 = OpTypeBool\n%3 = OpSpecConstant %1 7\n\
         %5 = OpSpecConstantTrue %2\n%6 = OpSpecConstantFalse %2\n%7 = OpSpecConstant %1 8\n\
         %8 = OpTypeVector %1 2\n%9 = OpSpecConstantComposite %8 %3 %7\n\
         %10 = OpSpecConstantOp %1 IAdd %3 %7\n";
    let expected = "%50 = OpDecorationGroup\nOpGroupDecorate %50 %7\n\
         %1 = OpTypeInt 32 1\n%2 = OpTypeBool\n%3 = OpConstant %1 7\n\
         %5 = OpConstantTrue %2\n%6 = OpConstantFalse %2\n%7 = OpConstant %1 8\n\
         %8 = OpTypeVector %1 2\n%9 = OpSpecConstantComposite %8 %3 %7\n\
         %10 = OpSpecConstantOp %1 IAdd %3 %7\n";
    case(input, &["--freeze-spec-const"], expected, true);
    let plain = "%1 = OpTypeInt 32 1\n%8 = OpTypeVector %1 2\n%3 = OpConstant %1 7\n";
    case(plain, &["--freeze-spec-const"], plain, false);
}

/// Spec constants of each type, with SpecIds 1 to 9 (9 through a decoration group).
const SPECS: &str = "OpCapability Float16\nOpCapability Float64\nOpCapability Int64\n\
     OpDecorate %3 SpecId 1\nOpDecorate %4 SpecId 2\nOpDecorate %5 SpecId 3\n\
     OpDecorate %6 SpecId 4\nOpDecorate %7 SpecId 5\nOpDecorate %8 SpecId 6\n\
     OpDecorate %9 SpecId 7\nOpDecorate %10 SpecId 8\nOpDecorate %50 SpecId 9\n\
     %50 = OpDecorationGroup\nOpGroupDecorate %50 %11\n\
     %20 = OpTypeInt 32 1\n%21 = OpTypeInt 32 0\n%22 = OpTypeFloat 32\n%23 = OpTypeFloat 64\n\
     %24 = OpTypeBool\n%25 = OpTypeInt 64 1\n%26 = OpTypeFloat 16\n\
     %3 = OpSpecConstant %20 1\n%4 = OpSpecConstant %21 2\n%5 = OpSpecConstant %22 3\n\
     %6 = OpSpecConstant %23 4\n%7 = OpSpecConstantTrue %24\n%8 = OpSpecConstantFalse %24\n\
     %9 = OpSpecConstant %25 5\n%10 = OpSpecConstant %26 1\n%11 = OpSpecConstant %20 6\n";

fn specs_with(values: &[&str]) -> String {
    let mut text = SPECS.to_owned();
    for v in values {
        let (from, to) = v.split_once("=>").expect("from => to");
        assert!(text.contains(from), "{from}");
        text = text.replacen(from, to, 1);
    }
    text
}

#[test]
fn set_spec_values_of_each_type() {
    let flag = "--set-spec-const-default-value=1:-2 2:0x10 3:1.5 4:-0.25 5:false 6:true \
                7:0xFFFFFFFFFFFFFFFF 8:1.5 9:42 10:5";
    let expected = specs_with(&[
        "%20 1\n=>%20 -2\n",
        "%21 2\n=>%21 16\n",
        "%22 3\n=>%22 1.5\n",
        "%23 4\n=>%23 -0.25\n",
        "OpSpecConstantTrue %24=>OpSpecConstantFalse %24",
        "%8 = OpSpecConstantFalse %24=>%8 = OpSpecConstantTrue %24",
        "%25 5\n=>%25 -1\n",
        "%26 1\n=>%26 1.5\n",
        "%20 6\n=>%20 42\n",
    ]);
    case(SPECS, &[flag], &expected, true);
}

#[test]
fn set_spec_skips_bad_and_mismatched_values() {
    // Not numbers, out of range, a bool for an int, a number for a bool, a negative
    // unsigned, the value the constant already has, an unknown spec id.
    let flag = "--set-spec-const-default-value=1:abc 2:-1 3:true 5:1 6:false 7:1e3 8:1e10 \
                9:2147483648 4:4 99:1";
    case(SPECS, &[flag], SPECS, false);
}

#[test]
fn set_spec_toggled_back_still_reports_a_change() {
    let input = "OpDecorate %3 SpecId 1\nOpDecorate %3 SpecId 2\n%2 = OpTypeBool\n%3 = OpSpecConstantTrue %2\n";
    case(
        input,
        &["--set-spec-const-default-value=1:false 2:true"],
        input,
        true,
    );
}

#[test]
fn set_spec_group_with_other_targets_is_skipped() {
    // The first OpGroupDecorate applying the group names two spec constants.
    let input = "OpDecorate %50 SpecId 1\n%50 = OpDecorationGroup\nOpGroupDecorate %50 %3 %4\n\
         %2 = OpTypeInt 32 0\n%3 = OpSpecConstant %2 1\n%4 = OpSpecConstant %2 2\n";
    case(input, &["--set-spec-const-default-value=1:7"], input, false);
    let single = input.replace("%50 %3 %4", "%50 %3 %3");
    let expected = single.replace("%2 1\n", "%2 7\n");
    case(
        &single,
        &["--set-spec-const-default-value=1:7"],
        &expected,
        true,
    );
}

#[test]
fn set_spec_then_freeze_then_dead_const() {
    let flags = [
        "--set-spec-const-default-value=1:11",
        "--freeze-spec-const",
        "--eliminate-dead-const",
        "--compact-ids",
    ];
    let input = "OpDecorate %3 SpecId 1\nOpDecorate %4 SpecId 2\n%2 = OpTypeInt 32 0\n\
         %3 = OpSpecConstant %2 1\n%4 = OpSpecConstant %2 2\n%5 = OpTypePointer Private %2\n\
         %6 = OpVariable %5 Private %3\n";
    let expected = "%1 = OpTypeInt 32 0\n%2 = OpConstant %1 11\n%3 = OpTypePointer Private %1\n\
         %4 = OpVariable %3 Private %2\n";
    case(input, &flags, expected, true);
}

/// The argument of `--set-spec-const-default-value`, read as spirv-opt reads it: the
/// pairs, or spirv-opt's message (which spirv-opt prints after `error: line 0: `).
#[test]
fn set_spec_argument_reading() {
    let read = |v: Option<&str>| match StructuralPass::from_flag("set-spec-const-default-value", v)
    {
        Ok(StructuralPass::SetSpecConstDefaultValue(pairs)) => Ok(pairs
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(",")),
        Ok(other) => panic!("{other:?}"),
        Err(e) => Err(e),
    };
    let ok = [
        ("1:2", "1=2"),
        ("  1:2  ", "1=2"),
        ("-0:2", "0=2"),
        ("+3:1", "3=1"),
        ("010:1", "8=1"),
        ("0x10:a 0X1f:-1.5e3\t7:true", "16=a,31=-1.5e3,7=true"),
        ("4294967295:1", "4294967295=1"),
        ("1:2=3", "1=2=3"),
    ];
    for (text, want) in ok {
        assert_eq!(read(Some(text)).as_deref(), Ok(want), "{text:?}");
    }
    let empty = "Invalid spec constant value string ''. Expected a string of <spec id>:<default value> pairs.";
    assert_eq!(read(None), Err(empty.to_owned()));
    assert_eq!(read(Some("")), Err(empty.to_owned()));
    let bad = [
        " ",
        "1:",
        "1: 2",
        "1 :2",
        "1:2:3",
        "x:1",
        "-1:2",
        "0x:1",
        "08:1",
        "1:2 1:3",
        "4294967296:1",
        ":1",
        "1",
    ];
    for text in bad {
        assert_eq!(
            read(Some(text)),
            Err(format!(
                "Invalid argument for --set-spec-const-default-value: {text}"
            )),
            "{text:?}"
        );
    }
    // spirv-opt agrees, message and all.
    let Some(tools) = spirv_tests::spirv_tools() else {
        return;
    };
    let module = scratch("arg.spv");
    std::fs::write(&module, to_bytes(&asm(HEAD))).expect("write");
    for text in bad.iter().chain([""].iter()).copied() {
        let out = Command::new(tools.join("spirv-opt"))
            .args(["--skip-validation", "--set-spec-const-default-value", text])
            .arg(&module)
            .args(["-o", "/dev/null"])
            .output()
            .expect("spirv-opt runs");
        let want = format!("error: line 0: {}\n", read(Some(text)).unwrap_err());
        assert_eq!(String::from_utf8_lossy(&out.stderr), want, "{text:?}");
    }
    for (text, _) in ok {
        let out = Command::new(tools.join("spirv-opt"))
            .args(["--skip-validation", "--set-spec-const-default-value", text])
            .arg(&module)
            .args(["-o", "/dev/null"])
            .output()
            .expect("spirv-opt runs");
        assert!(out.status.success(), "{text:?}");
    }
    let _ = std::fs::remove_file(&module);
}

/// The flag lists the no-panic runs use.
fn all_flag_lists() -> Vec<Vec<StructuralPass>> {
    [
        &["--eliminate-dead-const"][..],
        &["--unify-const"],
        &["--freeze-spec-const"],
        &["--set-spec-const-default-value=0:1 1:-1 2:true 3:1.5 4:0x7 5:false 6:abc 7:9 8:2"],
        &["--unify-const", "--eliminate-dead-const", "--compact-ids"],
    ]
    .iter()
    .map(|f| passes(f))
    .collect()
}

#[test]
fn corpus_modules_and_mutants_run_without_panics() {
    let Some(corpus) = spirv_tests::require_corpus("opt_constants no-panic run") else {
        return;
    };
    let lists = all_flag_lists();
    let files = spirv_tests::files(&corpus.join("bin"), "spv");
    let mut rng = Rng::new(0x0b);
    let (mut modules, mut mutants) = (0, 0);
    for (i, path) in files.iter().enumerate() {
        let words = spirv_tests::read_words(path);
        let Ok(module) = Module::from_words(&words) else {
            continue;
        };
        modules += 1;
        for list in &lists {
            run(&module, list, Some(&SpirvAsNumbers))
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        }
        // Mutants of every tenth small module.
        if i % 10 != 0 || words.len() > 4096 {
            continue;
        }
        let Ok(dissected) = Dissected::new(&words) else {
            continue;
        };
        for kind in [
            Mutation::Delete,
            Mutation::Move,
            Mutation::ReplaceId,
            Mutation::Duplicate,
            Mutation::ReplaceResultType,
            Mutation::ResultIdAtBound,
        ] {
            let Some(m) = mutate(&dissected, kind, &mut rng) else {
                continue;
            };
            let Ok(module) = Module::from_words(&m.words) else {
                continue;
            };
            mutants += 1;
            for list in &lists {
                let _ = run(&module, list, Some(&SpirvAsNumbers));
            }
        }
    }
    assert!(modules > 1000, "{modules} modules read");
    assert!(mutants > 100, "{mutants} mutants read");
}
