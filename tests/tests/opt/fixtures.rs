//! Fixture cases for spirv-opt's passes, one small module per subtle behaviour of
//! spirv-opt 2025.5: the structural `--strip-nonsemantic`, `--remove-duplicates` and
//! `--trim-capabilities` in `tests/fixtures/opt-strip-dedup-trim/`, and the passes on the optimizer IR
//! in `tests/fixtures/opt-ir/` (behaviours spirv-opt's unit tests, `test/opt/*_test.cpp`,
//! pin down, in modules of our own). Each fixture is `NAME.spvasm`, whose first line
//! names the flags and whose next comments say what it shows, and `NAME.expected`,
//! spirv-opt's output disassembled with raw ids and no indentation, header lines other
//! than the bound left out. Each is run through `spirv_opt::Optimizer` (as spirv-opt's
//! command line registers passes, validation skipped) and checked against its
//! `.expected` and, when SPIRV-Tools 2025.5 is found, against spirv-opt run on the
//! spot, byte for byte; `BLESS=1` re-records the `.expected` files from spirv-opt. Then
//! inputs no corpus has: a loose bound, deep and cyclic types, and references to
//! nothing, which must not panic.

use spirv_asm::opt::SpirvAsNumbers;
use spirv_asm::{AsmOptions, DisOptions, assemble_str, disassemble};
use spirv_core::Module;
use spirv_opt::structural::{StructuralPass, run};
use spirv_tests::reference::Newer;
use spirv_tests::{files, stem, workspace_root};
use std::process::Command;

fn assemble(text: &str) -> Vec<u32> {
    let opts = AsmOptions {
        preserve_numeric_ids: true,
        ..Default::default()
    };
    assemble_str(text, &opts).unwrap_or_else(|e| panic!("assembles: {e:?}"))
}

/// The disassembly the `.expected` files hold.
fn dis(words: &[u32]) -> String {
    let opts = DisOptions {
        raw_id: true,
        indent: false,
        ..Default::default()
    };
    let text = disassemble(words, &opts).expect("disassembles");
    let mut out = String::new();
    for line in String::from_utf8_lossy(&text).lines() {
        if !["; SPIR-V", "; Version", "; Generator", "; Schema"]
            .iter()
            .any(|p| line.starts_with(p))
        {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

fn passes(flags: &str) -> Vec<StructuralPass> {
    flags
        .split_whitespace()
        .map(|f| StructuralPass::from_flag(f.trim_start_matches('-'), None).expect("a pass"))
        .collect()
}

/// Our output for `words`, through the `Optimizer` with the options spirv-opt's
/// command line gives its passes.
fn ours(words: &[u32], flags: &str) -> Vec<u32> {
    let mut opt = spirv_asm::opt::optimizer();
    let mut options = spirv_opt::PassOptions::default();
    options.preserve_interface = true;
    opt.skip_validation(true).pass_options(options);
    opt.register_flags(flags.split_whitespace())
        .unwrap_or_else(|e| panic!("{flags}: {e}"));
    opt.run(words)
        .unwrap_or_else(|e| panic!("{flags}: {e}"))
        .words
}

/// spirv-opt's output for `words`, if SPIRV-Tools 2025.5 is found.
fn spirv_opt(words: &[u32], flags: &str, name: &str) -> Option<Vec<u32>> {
    let tools = spirv_tests::spirv_tools()?;
    let dir = std::env::temp_dir();
    let stem = format!("opt-fixtures-{}-{name}", std::process::id());
    let (input, output) = (
        dir.join(format!("{stem}.spv")),
        dir.join(format!("{stem}.out.spv")),
    );
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&input, bytes).expect("writes");
    let status = Command::new(tools.join("spirv-opt"))
        .arg("--skip-validation")
        .args(flags.split_whitespace())
        .arg(&input)
        .arg("-o")
        .arg(&output)
        .status()
        .expect("spirv-opt runs");
    assert!(status.success(), "spirv-opt failed on {name}");
    let out = spirv_tests::read_words(&output);
    let _ = std::fs::remove_file(&input);
    let _ = std::fs::remove_file(&output);
    Some(out)
}

/// Every structural fixture matches spirv-opt (see [`check_fixtures`]).
#[test]
fn fixtures_match_spirv_opt() {
    assert_eq!(check_fixtures("opt-strip-dedup-trim"), 24);
}

/// Every fixture of the passes on the optimizer IR matches spirv-opt.
#[test]
fn ir_fixtures_match_spirv_opt() {
    assert!(check_fixtures("opt-ir") >= 10);
}

/// Checks the fixtures of `tests/fixtures/DIR`: our output disassembles to each one's
/// `.expected` and, with SPIRV-Tools at hand, equals spirv-opt's. Returns how many.
fn check_fixtures(dir: &str) -> usize {
    let dir = workspace_root().join("tests/fixtures").join(dir);
    let bless = std::env::var_os("BLESS").is_some();
    if spirv_tests::spirv_tools().is_none() {
        spirv_tests::skip(
            "comparing the opt fixtures with spirv-opt on the spot (the .expected files are still checked)",
            "SPIRV-Tools 2025.5",
        );
    }
    let mut count = 0;
    for path in files(&dir, "spvasm") {
        let name = stem(&path);
        let text = std::fs::read_to_string(&path).expect("reads");
        let flags = text
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("; flags:"))
            .unwrap_or_else(|| panic!("{name}: the first line names the flags"))
            .trim();
        let words = assemble(&text);
        let got = ours(&words, flags);
        let expected_path = dir.join(format!("{name}.expected"));
        // A pass spirv-opt has no flag for (it runs only in a preset) cannot be run on
        // the spot: its .expected holds what spirv-opt's unit test expects.
        let on_cli = flags
            .split_whitespace()
            .all(|f| spirv_opt::registry::lookup(f.trim_start_matches('-')).is_none_or(|r| r.cli));
        let reference = on_cli.then(|| spirv_opt(&words, flags, &name)).flatten();
        if let (true, Some(r)) = (bless, &reference) {
            std::fs::write(&expected_path, dis(r)).expect("blesses");
        }
        let expected = std::fs::read_to_string(&expected_path).expect("an .expected file");
        // The .expected texts name items as SPIRV-Tools 2025.5's grammar did; a newer
        // vendored grammar may have renamed some (reported, not failed).
        let text = dis(&got);
        if text != expected {
            match Newer::of_vendored().renamed_only(text.as_bytes(), expected.as_bytes()) {
                Some(pairs) if !pairs.is_empty() => {
                    eprintln!("{name}: identical but for renamed names {pairs:?}");
                }
                _ => assert_eq!(text, expected, "{name}"),
            }
        }
        if let Some(r) = reference {
            assert_eq!(got, r, "{name} differs from spirv-opt");
        }
        count += 1;
    }
    count
}

/// Trimming a capability that is only implied (here `StorageBuffer16BitAccess`, implied by
/// `UniformAndStorageBuffer16BitAccess`) removes no instruction but counts as a change,
/// so the loose bound becomes the largest id plus one.
#[test]
fn trim_capabilities_implied_capability_changes_the_bound() {
    let mut words = assemble(
        r#"OpCapability Shader
OpCapability Int16
OpCapability UniformAndStorageBuffer16BitAccess
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %u Block
OpMemberDecorate %u 0 Offset 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%s = OpTypeInt 16 1
%u = OpTypeStruct %s
%pu = OpTypePointer Uniform %u
%vu = OpVariable %pu Uniform
%main = OpFunction %void None %fn
%l = OpLabel
OpReturn
OpFunctionEnd"#,
    );
    words[3] = 100;
    let got = ours(&words, "--trim-capabilities");
    assert_eq!(got[3], 9, "the bound is recomputed");
    assert_eq!(got[5..], words[5..], "no instruction changes");
    if let Some(reference) = spirv_opt(&words, "--trim-capabilities", "implied") {
        assert_eq!(got, reference);
    }
}

/// Two chains of 20,000 nested arrays: the second equals the first link by link and goes,
/// without recursion (the comparison is partition refinement).
#[test]
fn deep_types_do_not_recurse() {
    let n = 20_000;
    let mut text = String::from(
        "OpCapability Shader\nOpCapability Linkage\nOpMemoryModel Logical GLSL450\n\
         %f = OpTypeFloat 32\n%u = OpTypeInt 32 0\n%c = OpConstant %u 2\n",
    );
    for chain in ["a", "b"] {
        let mut prev = String::from("%f");
        for i in 0..n {
            text.push_str(&format!("%{chain}{i} = OpTypeArray {prev} %c\n"));
            prev = format!("%{chain}{i}");
        }
    }
    let words = assemble(&text);
    let module = Module::from_words(&words).expect("reads");
    let (out, changed) = run(
        &module,
        &passes("--remove-duplicates"),
        Some(&SpirvAsNumbers),
    )
    .expect("runs");
    assert!(changed);
    assert_eq!(out.len(), module.len() - n);
    let (_, changed) = run(
        &module,
        &passes("--trim-capabilities"),
        Some(&SpirvAsNumbers),
    )
    .expect("runs");
    assert!(!changed, "nothing to trim (Linkage)");
}

/// Rings of structs pointing at the next one through forward-declared pointers, of
/// lengths 1,000 and 999: every struct unfolds to the same infinite tree, so one struct,
/// one pointer and one forward declaration are left.
#[test]
fn cyclic_types_compare_as_unfolded_trees() {
    let mut text = String::from(
        "OpCapability Shader\nOpCapability PhysicalStorageBufferAddresses\nOpCapability Linkage\n\
         OpMemoryModel PhysicalStorageBuffer64 GLSL450\n%i = OpTypeInt 32 1\n",
    );
    for (r, k) in [(0, 1000), (1, 999)] {
        for j in 0..k {
            text.push_str(&format!(
                "OpTypeForwardPointer %p{r}_{j} PhysicalStorageBuffer\n"
            ));
        }
        for j in 0..k {
            let next = (j + 1) % k;
            text.push_str(&format!("%s{r}_{j} = OpTypeStruct %i %p{r}_{next}\n"));
        }
        for j in 0..k {
            text.push_str(&format!(
                "%p{r}_{j} = OpTypePointer PhysicalStorageBuffer %s{r}_{j}\n"
            ));
        }
    }
    let words = assemble(&text);
    let module = Module::from_words(&words).expect("reads");
    let (out, _) = run(
        &module,
        &passes("--remove-duplicates"),
        Some(&SpirvAsNumbers),
    )
    .expect("runs");
    let text = dis(&out.to_words());
    assert_eq!(text.matches("OpTypeStruct").count(), 1, "{text}");
    assert_eq!(text.matches("OpTypePointer").count(), 1);
    assert_eq!(text.matches("OpTypeForwardPointer").count(), 1);
}

/// References to nothing and types where another kind belongs (which spirv-opt crashes
/// on): every pass finishes or reports an error, and never panics.
#[test]
fn references_to_nothing_do_not_panic() {
    let text = r#"OpCapability Shader
OpCapability Float16
OpCapability StorageBuffer16BitAccess
OpCapability PhysicalStorageBufferAddresses
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %s Block
OpDecorate %s2 Block
OpMemberDecorate %s 9 Offset 0
OpGroupMemberDecorate %s %s 0
OpTypeForwardPointer %s PhysicalStorageBuffer
OpTypeForwardPointer %nothing PhysicalStorageBuffer
%void = OpTypeVoid
%fn = OpTypeFunction %void
%h = OpTypeFloat 16
%s = OpTypeStruct %h %missing %s
%s2 = OpTypeStruct %h %missing %s2
%a = OpTypeArray %h %nolength
%a2 = OpTypeArray %h %nolength
%p = OpTypePointer StorageBuffer %s
%p2 = OpTypePointer StorageBuffer %s2
%v = OpVariable %p StorageBuffer
%main = OpFunction %void None %fn
%l = OpLabel
%r = OpImageRead %h %v %v
OpImageWrite %missing %v %v
%t = OpImageSparseRead %h %main %v
OpReturn
OpFunctionEnd"#;
    let words = assemble(text);
    let Ok(module) = Module::from_words(&words) else {
        return;
    };
    for flags in [
        "--remove-duplicates",
        "--trim-capabilities",
        "--strip-nonsemantic",
        "--strip-nonsemantic --remove-duplicates --trim-capabilities",
    ] {
        let _ = run(&module, &passes(flags), Some(&SpirvAsNumbers));
    }
}

/// `--loop-unroll` on a loop of 2^31 - 1 iterations (the `loop-unroll.simple` fixture
/// with its bound raised): spirv-opt tries to make every copy and runs out of memory;
/// ours leaves the loop as it is (its growth budget, docs/optimizer.md), and still
/// unrolls the same loop with a bound of 1,000.
#[test]
fn loop_unroll_leaves_a_loop_past_its_budget() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/opt-ir");
    let text = std::fs::read_to_string(dir.join("loop-unroll.simple.spvasm")).expect("reads");
    assert!(text.contains("%11 = OpConstant %8 4\n"));
    let huge = assemble(&text.replace(
        "%11 = OpConstant %8 4\n",
        "%11 = OpConstant %8 2147483647\n",
    ));
    let out = ours(&huge, "--loop-unroll");
    assert_eq!(out.len(), huge.len(), "the loop stays");
    let thousand = assemble(&text.replace("%11 = OpConstant %8 4\n", "%11 = OpConstant %8 1000\n"));
    let out = ours(&thousand, "--loop-unroll");
    assert!(out.len() > thousand.len() * 50, "unrolled");
}

/// ADCE on a module with no function body (the fuzz body found it): spirv-opt marks
/// the constants of live module-scope debug information live but empties its work
/// list only inside a function, so their type goes and it writes a module that does
/// not read back. Ours keeps the type (and reads back).
#[test]
fn adce_without_functions_keeps_the_types_of_live_constants() {
    let text = r#"OpCapability Shader
OpExtension "SPV_KHR_non_semantic_info"
%2 = OpExtInstImport "NonSemantic.Shader.DebugInfo.100"
OpMemoryModel Logical GLSL450
%file = OpString "a.frag"
%name = OpString "g"
%tname = OpString "uint"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%u2 = OpConstant %uint 2
%u6 = OpConstant %uint 6
%u32 = OpConstant %uint 32
%ptr = OpTypePointer Private %uint
%var = OpVariable %ptr Private
%src = OpExtInst %void %2 DebugSource %file
%cu = OpExtInst %void %2 DebugCompilationUnit %u1 %u2 %src %u2
%basic = OpExtInst %void %2 DebugTypeBasic %tname %u32 %u6 %u0
%gv = OpExtInst %void %2 DebugGlobalVariable %name %basic %src %u1 %u0 %cu %name %var %u0"#;
    let words = assemble(text);
    let out = ours(&words, "--eliminate-dead-code-aggressive");
    Module::from_words(&out).expect("the output reads back");
    let text = dis(&out);
    assert!(text.contains("OpTypeInt 32 0"), "{text}");
    assert!(text.contains("OpTypeVoid"), "{text}");
    // The dead variable and its pointer type go, as spirv-opt removes them.
    assert!(!text.contains("OpVariable"), "{text}");
}

/// Cycles of copies and of access chains (invalid SSA, read with validation skipped):
/// spirv-opt's `--simplify-instructions` queues a copy of itself forever, and its
/// walks of a pointer's chains and copies (ADCE's, `--eliminate-local-single-store`'s,
/// `--convert-local-access-chains`', `--fix-storage-class`'s) recurse or loop through
/// the cycle. Ours ends, on those passes and the presets.
#[test]
fn copy_cycles_end() {
    let head = r#"OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main"
OpExecutionMode %main OriginUpperLeft
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%ptr = OpTypePointer Function %float
%one = OpConstant %float 1
%main = OpFunction %void None %fn
%entry = OpLabel
%v = OpVariable %ptr Function
"#;
    let copies = "%a = OpCopyObject %ptr %b\n%b = OpCopyObject %ptr %a\nOpStore %a %one\n%x = OpLoad %float %b\n";
    let chains =
        "%c = OpCopyObject %ptr %d\n%d = OpInBoundsAccessChain %ptr %c %v\nOpStore %c %one\n";
    let tail = "OpStore %v %one\n%y = OpLoad %float %v\nOpReturn\nOpFunctionEnd\n";
    let flags = [
        "--simplify-instructions",
        "--eliminate-dead-code-aggressive",
        "--eliminate-local-single-store",
        "--eliminate-local-single-block",
        "--convert-local-access-chains",
        "-O",
        "-Os",
        "--legalize-hlsl",
    ];
    for body in [copies, chains] {
        let words = assemble(&format!("{head}{body}{tail}"));
        for flags in flags {
            let mut opt = spirv_asm::opt::optimizer();
            opt.skip_validation(true);
            opt.register_flags(flags.split_whitespace())
                .unwrap_or_else(|e| panic!("{flags}: {e}"));
            let _ = opt.run(&words);
        }
    }
}
