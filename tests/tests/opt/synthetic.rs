//! `spirv_opt::structural::run` against `spirv-opt --skip-validation` on small hand-written
//! modules: how spirv-opt's loader and writer
//! treat `OpLine`, `OpNoLine` and `OpNop` (a line carried to the next instruction when
//! its instruction is removed, a redundant line dropped, `OpNop` dropped, a line after
//! the last function), a global `OpNop`, `OpName` retargeted by `--unify-const`, and a
//! SPIR-V 1.6 DebugPrintf module without `SPV_KHR_non_semantic_info`, whose strings
//! spirv-opt's `--strip-debug` removes and ours must keep.
//!
//! A pass that is not implemented yet is reported ("not implemented") and the case
//! passes, only with `OPT_DIFF_REQUIRE_IMPLEMENTED=0`.

use spirv_tests::opt_cases::{
    Found, args_for, assemble, bytes, compare, dis, have_tools, not_implemented, say, scratch,
    tools,
};
use spirv_tests::opt_diff::{spirv_val_bytes, spirv_val_file};

/// Our output of `args` on `text`, checked against spirv-opt's byte for byte; `None`
/// when the pass is not implemented yet.
fn same_as_spirv_opt(case: &str, text: &str, args: &[&str]) -> Option<String> {
    let dir = scratch(case);
    let args: Vec<String> = args.iter().map(|s| (*s).to_owned()).collect();
    match compare(&dir, &assemble(text), &args) {
        Found::Same(o) => Some(dis(&o)),
        Found::NotImplemented(w) => {
            not_implemented(case, &w);
            None
        }
        Found::Differ(_, e) | Found::Bad(e) | Found::BothFailed(e) => {
            panic!("{case} {args:?}: {e}")
        }
        Found::OptFailed(_, e) => panic!("{case} {args:?}: spirv-opt failed: {e}"),
    }
}

const LINKAGE: &str = "OpCapability Shader\nOpCapability Linkage\nOpMemoryModel Logical GLSL450\n";

#[test]
fn a_line_passes_to_the_next_instruction_when_its_own_is_removed() {
    if have_tools("the eliminate-dead-const line case").is_none() {
        return;
    }
    // %3 is dead: its line must be written before %4, which carries a copy of it.
    let text = format!(
        "{LINKAGE}%1 = OpString \"a.glsl\"\nOpName %6 \"f\"\nOpDecorate %6 LinkageAttributes \"f\" Export\n\
         %2 = OpTypeInt 32 1\nOpLine %1 10 1\n%3 = OpConstant %2 5\n%4 = OpConstant %2 6\n\
         %5 = OpTypeFunction %2\nOpNoLine\n%6 = OpFunction %2 None %5\n%7 = OpLabel\nOpReturnValue %4\nOpFunctionEnd\n"
    );
    let Some(out) = same_as_spirv_opt("dead-const-line", &text, &["--eliminate-dead-const"]) else {
        return;
    };
    assert!(!out.contains("OpConstant %2 5"), "{out}");
    assert!(
        out.contains("OpLine %1 10 1\n%4 = OpConstant %2 6\n"),
        "{out}"
    );
}

/// Lines in a block: a repeat of the line in effect, a line before an instruction the
/// pass removes, a line between a merge and its branch, `OpNoLine`s, and an `OpNop`.
const LINES: &str = "%1 = OpString \"a.glsl\"\nOpName %f \"f\"\nOpDecorate %f LinkageAttributes \"f\" Export\n\
    %void = OpTypeVoid\n%fn = OpTypeFunction %void\n%bool = OpTypeBool\n%t = OpConstantTrue %bool\n\
    %f = OpFunction %void None %fn\nOpLine %1 1 1\n%l = OpLabel\nOpLine %1 2 2\nOpLine %1 2 2\nOpNop\n\
    OpLine %1 2 2\nOpSelectionMerge %m None\nOpLine %1 3 3\nOpBranchConditional %t %a %m\n\
    %a = OpLabel\nOpNoLine\nOpNoLine\nOpBranch %m\n%m = OpLabel\nOpLine %1 4 4\nOpNop\nOpReturn\nOpFunctionEnd\n";

#[test]
fn repeated_lines_and_nops_are_written_as_spirv_opt_writes_them() {
    if have_tools("the line-writing cases").is_none() {
        return;
    }
    let text = format!("{LINKAGE}{LINES}");
    let words = assemble(&text);
    let dir = scratch("lines");
    for flag in spirv_opt::registry::flags(spirv_opt::registry::RunsOn::Editor) {
        match compare(&dir, &words, &args_for(flag, &words)) {
            Found::Same(o) => {
                let out = dis(&o);
                assert!(!out.contains("OpNop"), "--{flag}: {out}");
                assert!(
                    !out.contains("OpLine %1 2 2\nOpLine %1 2 2"),
                    "--{flag}: {out}"
                );
            }
            Found::NotImplemented(w) => not_implemented("lines", &w),
            Found::Differ(_, e) | Found::Bad(e) | Found::BothFailed(e) => panic!("--{flag}: {e}"),
            Found::OptFailed(_, e) => panic!("--{flag}: spirv-opt failed: {e}"),
        }
    }
    // With no pass spirv-opt writes the module through the same writer; we return it
    // as it was. A known divergence, reported rather than failed.
    if let Found::Differ(_, e) = compare(&dir, &words, &[]) {
        say(&format!(
            "NOTE: with no pass, ours keeps the input (redundant OpLine, OpNop) and spirv-opt rewrites it: {e}"
        ));
    }
}

#[test]
fn a_global_nop_is_never_written() {
    if have_tools("the global OpNop case").is_none() {
        return;
    }
    // spirv-opt cannot load it ("Unhandled inst type (opcode: 0) found outside function
    // definition", exit 1) and spirv-val rejects it ("Nop must appear in a block"). We
    // either fail too or write the module without it, valid.
    let text = format!("{LINKAGE}%1 = OpTypeInt 32 0\nOpNop\n%2 = OpTypeFloat 32\n");
    let words = assemble(&text);
    let dir = scratch("global-nop");
    for flag in spirv_opt::registry::flags(spirv_opt::registry::RunsOn::Editor) {
        match compare(&dir, &words, &args_for(flag, &words)) {
            Found::OptFailed(o, e) => {
                assert!(
                    e.contains("Unhandled inst type"),
                    "--{flag}: spirv-opt: {e}"
                );
                assert!(!dis(&o).contains("OpNop"), "--{flag}: we wrote the OpNop");
                let val = tools().join("spirv-val");
                let check = spirv_val_bytes(&val, "spv1.6", &o, &dir.join("ours.spv"));
                assert!(check.is_ok(), "--{flag}: {check:?}");
            }
            Found::BothFailed(_) => {}
            Found::NotImplemented(w) => not_implemented("global-nop", &w),
            Found::Differ(_, e) | Found::Bad(e) => panic!("--{flag}: {e}"),
            Found::Same(_) => panic!("--{flag}: spirv-opt 2025.5 loads a global OpNop?"),
        }
    }
}

#[test]
fn unify_const_retargets_the_duplicates_name() {
    if have_tools("the unify-const OpName case").is_none() {
        return;
    }
    let text = format!(
        "{LINKAGE}OpName %a \"a\"\nOpName %b \"b\"\n%int = OpTypeInt 32 0\n%a = OpConstant %int 7\n\
         %b = OpConstant %int 7\n%v = OpTypeVector %int 2\n%c = OpConstantComposite %v %a %b\n"
    );
    let Some(out) = same_as_spirv_opt("unify-const-name", &text, &["--unify-const"]) else {
        return;
    };
    assert_eq!(out.matches("OpConstant ").count(), 1, "{out}");
}

#[test]
fn strip_debug_keeps_debug_printf_strings_without_the_extension() {
    if have_tools("the DebugPrintf strip-debug case").is_none() {
        return;
    }
    // SPIR-V 1.6 needs no OpExtension "SPV_KHR_non_semantic_info"; spirv-opt 2025.5
    // keeps the format string only when it is declared, so its output uses an id it
    // removed.
    let text = "; Version: 1.6\nOpCapability Shader\n%1 = OpExtInstImport \"NonSemantic.DebugPrintf\"\n\
        OpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %2 \"main\"\nOpExecutionMode %2 LocalSize 1 1 1\n\
        %3 = OpString \"value %d\"\nOpSource GLSL 450\nOpName %2 \"main\"\n%4 = OpTypeVoid\n\
        %5 = OpTypeFunction %4\n%6 = OpTypeInt 32 1\n%7 = OpConstant %6 42\n%2 = OpFunction %4 None %5\n\
        %8 = OpLabel\nOpLine %3 1 1\n%9 = OpExtInst %4 %1 1 %3 %7\nOpReturn\nOpFunctionEnd\n";
    let words = assemble(text);
    let dir = scratch("printf");
    let val = tools().join("spirv-val");
    let input = dir.join("input.spv");
    std::fs::write(&input, bytes(&words)).expect("write");
    assert_eq!(
        spirv_val_file(&val, "spv1.6", &input),
        Ok(()),
        "the input is valid"
    );
    for args in [
        vec!["--strip-debug"],
        vec!["--strip-debug", "--compact-ids"],
    ] {
        let args: Vec<String> = args.iter().map(|s| (*s).to_owned()).collect();
        let ours = match compare(&dir, &words, &args) {
            Found::Differ(o, e) => {
                // Expected: spirv-opt's differs; check that it is the invalid one.
                let theirs = spirv_val_file(&val, "spv1.6", &dir.join("out.spv"));
                assert!(
                    theirs.is_err(),
                    "{args:?}: spirv-opt's output is valid now: {e}"
                );
                o
            }
            Found::Same(_) => panic!("{args:?}: spirv-opt 2025.5's output equals ours"),
            Found::NotImplemented(w) => {
                not_implemented("printf", &w);
                continue;
            }
            Found::Bad(e) | Found::BothFailed(e) | Found::OptFailed(_, e) => {
                panic!("{args:?}: {e}")
            }
        };
        let check = spirv_val_bytes(&val, "spv1.6", &ours, &dir.join("ours.spv"));
        assert_eq!(check, Ok(()), "{args:?}: our output is not valid");
        let out = dis(&ours);
        assert!(out.contains("OpString \"value %d\""), "{args:?}: {out}");
        for gone in ["OpSource", "OpName", "OpLine"] {
            assert!(!out.contains(gone), "{args:?}: {gone} left: {out}");
        }
    }
}

#[test]
fn a_line_after_the_last_function_is_renumbered() {
    if have_tools("the trailing OpLine case").is_none() {
        return;
    }
    // spirv-val takes an OpLine after the last OpFunctionEnd. spirv-opt 2025.5 keeps it
    // apart from the instructions (`trailing_dbg_line_info_`), which `--compact-ids`
    // does not renumber: its output names the old id of the OpString. Ours renumbers it.
    let text = format!(
        "{LINKAGE}%9 = OpString \"a.glsl\"\n%2 = OpTypeVoid\n%3 = OpTypeFunction %2\n\
         %4 = OpFunction %2 None %3\n%5 = OpLabel\nOpReturn\nOpFunctionEnd\nOpLine %9 7 1\n"
    );
    let words = assemble(&text);
    let dir = scratch("trailing-line");
    let val = tools().join("spirv-val");
    let args = vec!["--compact-ids".to_owned()];
    let ours = match compare(&dir, &words, &args) {
        Found::Differ(o, e) => {
            let theirs = spirv_val_file(&val, "spv1.6", &dir.join("out.spv"));
            assert!(
                theirs.is_err(),
                "spirv-opt's output differs and is valid: {e}"
            );
            o
        }
        Found::Same(o) => o,
        Found::NotImplemented(w) => return not_implemented("trailing-line", &w),
        Found::Bad(e) | Found::BothFailed(e) | Found::OptFailed(_, e) => panic!("{e}"),
    };
    assert_eq!(
        spirv_val_bytes(&val, "spv1.6", &ours, &dir.join("ours.spv")),
        Ok(())
    );
    assert!(
        dis(&ours).ends_with("OpFunctionEnd\nOpLine %1 7 1\n"),
        "{}",
        dis(&ours)
    );
}

#[test]
fn a_nop_between_a_merge_and_its_branch() {
    if have_tools("the OpNop-after-merge case").is_none() {
        return;
    }
    // Not valid SPIR-V (the merge must come right before its branch). spirv-opt's writer
    // drops lines between a merge and its branch, but the OpNop (dropped too) ends that
    // stretch, so the branch's copy of the line is written. Ours writes the same on one
    // write; a second write of that output (as `run` does to set the bound, and as a
    // sequence does once per pass) drops the line. Printed, not failed.
    let text = format!(
        "{LINKAGE}%1 = OpString \"a.glsl\"\n%void = OpTypeVoid\n%fn = OpTypeFunction %void\n\
         %bool = OpTypeBool\n%t = OpConstantTrue %bool\n%f = OpFunction %void None %fn\n%l = OpLabel\n\
         OpLine %1 2 2\nOpSelectionMerge %m None\nOpNop\nOpBranchConditional %t %a %m\n\
         %a = OpLabel\nOpBranch %m\n%m = OpLabel\nOpReturn\nOpFunctionEnd\n"
    );
    let words = assemble(&text);
    let dir = scratch("merge-nop");
    for flag in spirv_opt::registry::flags(spirv_opt::registry::RunsOn::Editor) {
        match compare(&dir, &words, &args_for(flag, &words)) {
            Found::Differ(_, e) => say(&format!(
                "NOTE: OpNop between OpSelectionMerge and its branch, --{flag}: ours differs from spirv-opt: {e}"
            )),
            Found::NotImplemented(_) | Found::Same(_) => {}
            Found::Bad(e) | Found::BothFailed(e) | Found::OptFailed(_, e) => {
                panic!("--{flag}: {e}")
            }
        }
    }
}
