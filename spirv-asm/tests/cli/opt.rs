//! `spirv-asm opt`: the command line as spirv-opt 2025.5 takes it. Pass flags run in
//! the order given; `-o FILE` is written atomically and never on failure (spirv-opt
//! copies its input there); `-o -` writes to standard output; the input is validated
//! first unless `--skip-validation` (exit 1 with spirv-val's message), under
//! `--target-env=ENV`; a spirv-opt pass or preset not implemented yet is an error naming
//! what is missing, an unknown flag spirv-opt's error; `--set-spec-const-default-value VALUE` and `=VALUE`,
//! `--switch-descriptorset=FROM:TO`, `--help`, `--version`. Where SPIRV-Tools is
//! installed, exit codes, messages and outputs are compared with spirv-opt's wherever
//! the two should agree.
//!
//! A pass that is not implemented yet (its error says "not written yet" or asks for a
//! number parser) fails, unless `OPT_DIFF_REQUIRE_IMPLEMENTED=0`.

use spirv_asm::{AsmOptions, assemble_str};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use spirv_tests as env;

/// One run of a program.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Run {
    code: i32,
    stdout: Vec<u8>,
    stderr: String,
}

/// Runs `program args` in `dir`, with `stdin` as its standard input.
fn run_in(program: &Path, args: &[&str], dir: &Path, stdin: Option<&[u8]>) -> Run {
    let mut child = Command::new(program)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    if let Some(input) = stdin {
        use std::io::Write;
        let mut pipe = child.stdin.take().expect("stdin");
        pipe.write_all(input).expect("write stdin");
    } else {
        drop(child.stdin.take());
    }
    let out = child.wait_with_output().expect("wait");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: out.stdout,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// `spirv-asm opt args` in `dir`.
fn ours(dir: &Path, args: &[&str]) -> Run {
    let exe = Path::new(env!("CARGO_BIN_EXE_spirv-asm"));
    run_in(exe, &[&["opt"], args].concat(), dir, None)
}

/// `spirv-opt args` in `dir`, where SPIRV-Tools 2025.5 is installed.
fn theirs(dir: &Path, args: &[&str]) -> Option<Run> {
    match env::spirv_tools() {
        Some(bin) => Some(run_in(&bin.join("spirv-opt"), args, dir, None)),
        None => {
            env::skip("the comparison with spirv-opt", "SPIRV-Tools 2025.5");
            None
        }
    }
}

/// A scratch folder for one test in the system temp dir, removed when dropped unless
/// the test is failing (its files are then left for a look).
struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// A fresh [`Scratch`] folder named after `tag` and the process.
fn scratch(tag: &str) -> Scratch {
    let d = std::env::temp_dir().join(format!("spirv-asm-opt-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("mkdir");
    Scratch(d)
}

/// Writes the module `text` assembles to (numeric ids kept) as `dir/name`; its bytes.
fn module(dir: &Path, name: &str, text: &str) -> Vec<u8> {
    let opts = AsmOptions {
        preserve_numeric_ids: true,
        ..AsmOptions::default()
    };
    let words = assemble_str(text, &opts).expect("assembles");
    let bytes = spirv_core::binary::words_to_bytes(&words);
    std::fs::write(dir.join(name), &bytes).expect("write");
    bytes
}

/// The files in `dir`, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .expect("read dir")
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .collect();
    v.sort();
    v
}

/// Whether a failed run failed because a pass is not implemented yet; prints it.
fn not_implemented(what: &str, r: &Run) -> bool {
    let missing =
        r.code != 0 && (r.stderr.contains("not written yet") || r.stderr.contains("number parser"));
    if missing {
        let require = std::env::var_os("OPT_DIFF_REQUIRE_IMPLEMENTED").is_none_or(|v| v != "0");
        assert!(!require, "{what}: not implemented: {}", r.stderr);
        // Straight to standard error, which libtest does not capture.
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "not implemented: {what}: {}",
            r.stderr.trim()
        );
    }
    missing
}

/// A valid Vulkan 1.0 compute shader with debug information, a spec constant, a
/// descriptor set decoration and ids that are not compact.
const SHADER: &str = "; Version: 1.0\nOpCapability Shader\nOpMemoryModel Logical GLSL450\n\
    OpEntryPoint GLCompute %10 \"main\"\nOpExecutionMode %10 LocalSize 1 1 1\n\
    %40 = OpString \"a.comp\"\nOpSource GLSL 450 %40\nOpName %10 \"main\"\nOpName %30 \"buf\"\n\
    OpDecorate %25 SpecId 3\nOpDecorate %27 Block\nOpMemberDecorate %27 0 Offset 0\n\
    OpDecorate %30 DescriptorSet 0\nOpDecorate %30 Binding 1\n%20 = OpTypeVoid\n\
    %21 = OpTypeFunction %20\n%22 = OpTypeInt 32 1\n%25 = OpSpecConstant %22 7\n\
    %27 = OpTypeStruct %22\n%28 = OpTypePointer Uniform %27\n%30 = OpVariable %28 Uniform\n\
    %10 = OpFunction %20 None %21\n%11 = OpLabel\nOpLine %40 3 1\nOpReturn\nOpFunctionEnd\n";

/// Not valid: no entry point, and no `Linkage` capability.
const NO_ENTRY_POINT: &str = "OpCapability Shader\nOpMemoryModel Logical GLSL450\n\
    OpName %1 \"int\"\n%1 = OpTypeInt 32 0\n";

#[test]
fn passes_run_in_the_order_given() {
    let dir = scratch("order");
    module(&dir, "in.spv", SHADER);
    let a = ours(
        &dir,
        &["--strip-debug", "--compact-ids", "in.spv", "-o", "a.spv"],
    );
    let b = ours(
        &dir,
        &["--compact-ids", "--strip-debug", "in.spv", "-o", "b.spv"],
    );
    assert_eq!((a.code, b.code), (0, 0), "{a:?} {b:?}");
    let (a, b) = (
        std::fs::read(dir.join("a.spv")).expect("a"),
        std::fs::read(dir.join("b.spv")).expect("b"),
    );
    // Stripping first leaves nothing to number for the strings and names.
    assert_ne!(a, b, "the order of the passes makes no difference");
    for (flags, ours) in [
        (["--strip-debug", "--compact-ids"], &a),
        (["--compact-ids", "--strip-debug"], &b),
    ] {
        let args = [&flags[..], &["in.spv", "-o", "t.spv"]].concat();
        if let Some(t) = theirs(&dir, &args) {
            assert_eq!(t.code, 0, "{t:?}");
            assert_eq!(
                &std::fs::read(dir.join("t.spv")).expect("t"),
                ours,
                "{flags:?}"
            );
        }
    }
}

#[test]
fn the_output_file_changes_only_on_success() {
    let dir = scratch("atomic");
    let good = module(&dir, "good.spv", SHADER);
    module(&dir, "bad.spv", NO_ENTRY_POINT);
    std::fs::write(dir.join("out.spv"), b"old").expect("write");
    std::fs::write(dir.join("odd.spv"), b"abc").expect("write");
    let before = listing(&dir);
    let failing: [&[&str]; 5] = [
        &["--strip-debug", "bad.spv", "-o", "out.spv"],
        &["--strip-debug", "odd.spv", "-o", "out.spv"],
        &["--strip-debug", "missing.spv", "-o", "out.spv"],
        &["--strength-reduction", "good.spv", "-o", "out.spv"],
        &["--strip-debug", "good.spv", "good.spv", "-o", "out.spv"],
    ];
    for args in failing {
        let r = ours(&dir, args);
        assert_eq!(r.code, 1, "{args:?}: {r:?}");
        assert!(r.stdout.is_empty(), "{args:?}");
        assert_eq!(
            std::fs::read(dir.join("out.spv")).expect("out"),
            b"old",
            "{args:?}"
        );
        assert_eq!(listing(&dir), before, "{args:?}: a file was left behind");
        // A failure never creates the output either.
        let fresh = [&args[..args.len() - 1], &["new.spv"]].concat();
        assert_eq!(ours(&dir, &fresh).code, 1);
        assert!(
            !dir.join("new.spv").exists(),
            "{fresh:?} created its output"
        );
    }
    // spirv-opt copies its input to the output when validation fails; we do not.
    if let Some(t) = theirs(&dir, &["--strip-debug", "bad.spv", "-o", "copy.spv"]) {
        assert_eq!(t.code, 1);
        assert_eq!(
            std::fs::read(dir.join("copy.spv")).ok(),
            std::fs::read(dir.join("bad.spv")).ok(),
            "spirv-opt 2025.5 no longer copies its input on failure"
        );
        std::fs::remove_file(dir.join("copy.spv")).expect("remove");
    }
    let r = ours(&dir, &["--strip-debug", "good.spv", "-o", "out.spv"]);
    assert_eq!(r.code, 0, "{r:?}");
    let out = std::fs::read(dir.join("out.spv")).expect("out");
    assert!(
        out.len() < good.len() && out.starts_with(&good[..12]),
        "not the stripped module"
    );
    assert_eq!(listing(&dir), before, "a temporary file was left behind");
    // The blocks reserved before writing are the output's, no more.
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let meta = std::fs::metadata(dir.join("out.spv")).expect("metadata");
        assert_eq!(meta.len(), out.len() as u64);
        let page = 4096;
        let most = (meta.len().div_ceil(page) + 1) * page;
        assert!(
            meta.blocks() * 512 <= most,
            "{} bytes allocated",
            meta.blocks() * 512
        );
    }
}

#[test]
fn dash_o_dash_writes_standard_output() {
    let dir = scratch("stdout");
    let input = module(&dir, "in.spv", SHADER);
    let file = ours(&dir, &["--strip-debug", "in.spv", "-o", "out.spv"]);
    let piped = ours(&dir, &["--strip-debug", "in.spv", "-o", "-"]);
    assert_eq!((file.code, piped.code), (0, 0), "{file:?} {piped:?}");
    let out = std::fs::read(dir.join("out.spv")).expect("out");
    assert_eq!(piped.stdout, out);
    // Standard input, as `-` and as no input at all.
    let exe = Path::new(env!("CARGO_BIN_EXE_spirv-asm"));
    for args in [
        &["opt", "--strip-debug", "-", "-o", "-"][..],
        &["opt", "--strip-debug", "-o", "-"],
    ] {
        let r = run_in(exe, args, &dir, Some(&input));
        assert_eq!((r.code, &r.stdout), (0, &out), "{args:?}: {}", r.stderr);
    }
    if let Some(t) = theirs(&dir, &["--strip-debug", "in.spv", "-o", "-"]) {
        assert_eq!((t.code, t.stdout), (0, out));
    }
}

#[test]
fn validation_comes_first_unless_skipped() {
    let dir = scratch("validate");
    module(&dir, "bad.spv", NO_ENTRY_POINT);
    let args = ["--strip-debug", "bad.spv", "-o", "out.spv"];
    let r = ours(&dir, &args);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("No OpEntryPoint instruction was found"),
        "{}",
        r.stderr
    );
    if let Some(t) = theirs(&dir, &args) {
        assert_eq!(
            (r.code, &r.stderr),
            (t.code, &t.stderr),
            "spirv-val's message"
        );
    }
    let _ = std::fs::remove_file(dir.join("out.spv"));
    let skip = [
        "--skip-validation",
        "--strip-debug",
        "bad.spv",
        "-o",
        "out.spv",
    ];
    let r = ours(&dir, &skip);
    assert_eq!(r.code, 0, "{r:?}");
    let out = std::fs::read(dir.join("out.spv")).expect("out");
    if let Some(t) = theirs(
        &dir,
        &[
            "--skip-validation",
            "--strip-debug",
            "bad.spv",
            "-o",
            "t.spv",
        ],
    ) {
        assert_eq!(t.code, 0);
        assert_eq!(std::fs::read(dir.join("t.spv")).expect("t"), out);
    }
}

#[test]
fn target_env_sets_the_rules_of_validation() {
    let dir = scratch("env");
    // A SPIR-V 1.3 module: valid for vulkan1.1, not for vulkan1.0.
    module(
        &dir,
        "in.spv",
        &SHADER.replace("; Version: 1.0", "; Version: 1.3"),
    );
    for (env, code) in [
        ("vulkan1.0", 1),
        ("vulkan1.1", 0),
        ("spv1.3", 0),
        ("spv1.2", 1),
    ] {
        let flag = format!("--target-env={env}");
        let args = [flag.as_str(), "--strip-debug", "in.spv", "-o", "out.spv"];
        let r = ours(&dir, &args);
        assert_eq!(r.code, code, "{args:?}: {}", r.stderr);
        if let Some(t) = theirs(&dir, &args) {
            assert_eq!((r.code, &r.stderr), (t.code, &t.stderr), "{args:?}");
        }
        // This tool also takes the value as the next argument; spirv-opt does not.
        let r2 = ours(
            &dir,
            &[
                "--target-env",
                env,
                "--strip-debug",
                "in.spv",
                "-o",
                "out.spv",
            ],
        );
        assert_eq!(
            (r2.code, &r2.stderr),
            (r.code, &r.stderr),
            "--target-env {env}"
        );
    }
    let r = ours(&dir, &["--target-env=vulkan9", "in.spv", "-o", "out.spv"]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("vulkan9"), "{}", r.stderr);
}

#[test]
fn a_missing_pass_or_preset_says_what_is_not_implemented() {
    let dir = scratch("unsupported");
    module(&dir, "in.spv", SHADER);
    // Presets and passes spirv-opt has: "not implemented yet", naming what is missing.
    for row in spirv_opt::registry::PASSES
        .iter()
        .filter(|r| r.cli && !r.is_implemented())
    {
        let flag = row.dashed();
        let mut args = vec![flag.as_str()];
        let with_value;
        if row.arg != spirv_opt::registry::Arg::None && !row.next_arg {
            with_value = format!("{flag}=1");
            args[0] = &with_value;
        }
        if row.next_arg {
            // Its value, so that the input is read and valid: a missing pass is
            // reported after the validation, as spirv-opt validates before it runs.
            args.push("1");
        }
        args.extend(["in.spv", "-o", "out.spv"]);
        let r = ours(&dir, &args);
        assert_eq!(r.code, 1, "{flag}: {r:?}");
        assert!(
            r.stderr.contains("not implemented yet"),
            "{flag}: {}",
            r.stderr
        );
        for missing in row.missing() {
            assert!(
                r.stderr.contains(&format!("--{missing}")),
                "{flag}: {}",
                r.stderr
            );
        }
        assert!(!dir.join("out.spv").exists(), "{flag}: wrote its output");
    }
    // A flag spirv-opt does not have: its message.
    let args = ["--no-such-pass", "in.spv", "-o", "out.spv"];
    let r = ours(&dir, &args);
    assert_eq!(r.code, 1);
    assert_eq!(
        r.stderr,
        "error: line 0: Unknown flag '--no-such-pass'. Use --help for a list of valid flags\n"
    );
    if let Some(t) = theirs(&dir, &args) {
        assert_eq!((r.code, &r.stderr), (t.code, &t.stderr));
    }
    // A value given to a flag that takes none is ignored, as spirv-opt ignores it.
    if let Some(out) = same_as_spirv_opt(&dir, &["--strip-debug=1"]) {
        assert!(!out.is_empty());
    }
}

/// Runs `args` (the input and `-o out.spv` added) with both tools; `None` if the pass
/// is not implemented here yet; else our output, checked against spirv-opt's.
fn same_as_spirv_opt(dir: &Path, args: &[&str]) -> Option<Vec<u8>> {
    let full = [args, &["in.spv", "-o", "out.spv"]].concat();
    let r = ours(dir, &full);
    if not_implemented(&args.join(" "), &r) {
        return None;
    }
    assert_eq!(r.code, 0, "{full:?}: {r:?}");
    let out = std::fs::read(dir.join("out.spv")).expect("out");
    let t_args = [args, &["in.spv", "-o", "t.spv"]].concat();
    if let Some(t) = theirs(dir, &t_args) {
        assert_eq!(t.code, 0, "{t:?}");
        assert_eq!(
            std::fs::read(dir.join("t.spv")).expect("t"),
            out,
            "{args:?}"
        );
    }
    Some(out)
}

#[test]
fn spec_const_default_values_in_both_forms() {
    let dir = scratch("spec");
    let input = module(&dir, "in.spv", SHADER);
    let spaced = same_as_spirv_opt(&dir, &["--set-spec-const-default-value", "3:42 9:1"]);
    let joined = same_as_spirv_opt(&dir, &["--set-spec-const-default-value=3:42 9:1"]);
    assert_eq!(spaced, joined, "the two forms differ");
    if let Some(out) = spaced {
        assert_ne!(out, input, "the default value did not change");
    }
    // A value that names no pair: both refuse it.
    for bad in ["3", "x:1", "3:1 3:2"] {
        let flag = format!("--set-spec-const-default-value={bad}");
        let r = ours(&dir, &[&flag, "in.spv", "-o", "out.spv"]);
        assert_eq!(r.code, 1, "{flag}: {r:?}");
        if let Some(t) = theirs(&dir, &[&flag, "in.spv", "-o", "t.spv"]) {
            assert_eq!(t.code, 1, "{flag}: {t:?}");
        }
    }
}

#[test]
fn switch_descriptor_set() {
    let dir = scratch("switch");
    let input = module(&dir, "in.spv", SHADER);
    if let Some(out) = same_as_spirv_opt(&dir, &["--switch-descriptorset=0:5"]) {
        assert_ne!(out, input, "the descriptor set did not change");
    }
    for bad in ["0", "a:b", "", " 0:5", "0:5 "] {
        let flag = format!("--switch-descriptorset={bad}");
        let r = ours(&dir, &[&flag, "in.spv", "-o", "out.spv"]);
        assert_eq!(r.code, 1, "{flag}: {r:?}");
        let expected = if bad.is_empty() {
            "error: line 0: --switch-descriptorset requires a from:to argument.\n".to_owned()
        } else {
            format!("error: line 0: Invalid argument for --switch-descriptorset: {bad}\n")
        };
        assert_eq!(r.stderr, expected);
        if let Some(t) = theirs(&dir, &[&flag, "in.spv", "-o", "t.spv"]) {
            assert_eq!((t.code, &t.stderr), (1, &expected), "{flag}");
        }
    }
}

#[test]
fn help_version_and_argument_errors() {
    let dir = scratch("help");
    let help = ours(&dir, &["--help"]);
    assert_eq!(help.code, 0);
    let text = String::from_utf8_lossy(&help.stdout);
    for row in spirv_opt::registry::PASSES.iter().filter(|r| r.cli) {
        let flag = row.dashed();
        assert!(
            text.contains(&format!("  {flag}")),
            "--help does not list {flag}"
        );
    }
    let version = ours(&dir, &["--version"]);
    assert_eq!(version.code, 0);
    assert!(String::from_utf8_lossy(&version.stdout).contains("spirv-asm"));
    module(&dir, "in.spv", SHADER);
    // The same errors as spirv-opt's, word for word.
    let args = &["--strip-debug", "in.spv"][..];
    let r = ours(&dir, args);
    assert_eq!(r.code, 1, "{args:?}: {r:?}");
    if let Some(t) = theirs(&dir, args) {
        assert_eq!((r.code, &r.stderr), (t.code, &t.stderr), "{args:?}");
    }
    // Two inputs are batch mode here (spirv-opt refuses them): `-o` names a directory,
    // and one input given twice would write one output twice.
    let r = ours(&dir, &["in.spv", "in.spv", "-o", "out"]);
    assert_eq!(
        (r.code, r.stderr.as_str()),
        (
            1,
            "error: 'in.spv' and 'in.spv' would both write 'out/in.spv'\n"
        )
    );
    // `-o` without its file: spirv-opt prints its help and exits 1; we say what is missing.
    let r = ours(&dir, &["in.spv", "-o"]);
    assert_eq!(
        (r.code, r.stderr.as_str()),
        (1, "error: Missing argument to -o\n")
    );
    if let Some(t) = theirs(&dir, &["in.spv", "-o"]) {
        assert_eq!(t.code, 1);
    }
}

#[test]
fn preserve_options_and_the_max_id_bound_as_spirv_opt() {
    let dir = scratch("preserve");
    module(&dir, "in.spv", SHADER);
    // ADCE drops the unused descriptor and spec constant unless told to keep them.
    let adce = "--eliminate-dead-code-aggressive";
    let plain = same_as_spirv_opt(&dir, &[adce]).expect("ADCE exists");
    let bindings = same_as_spirv_opt(&dir, &[adce, "--preserve-bindings"]).expect("ADCE");
    let specs = same_as_spirv_opt(&dir, &["--preserve-spec-constants", adce]).expect("ADCE");
    let both = same_as_spirv_opt(
        &dir,
        &["--preserve-bindings", adce, "--preserve-spec-constants"],
    )
    .expect("ADCE");
    assert!(plain.len() < bindings.len() && plain.len() < specs.len());
    assert!(bindings.len() < both.len() && specs.len() < both.len());
    // The bound: at least spirv-opt's default, read as C's atoi reads it.
    let big = same_as_spirv_opt(&dir, &["--max-id-bound=4194303", "--strip-debug"]);
    assert!(big.is_some());
    for bad in ["--max-id-bound=5", "--max-id-bound=x"] {
        let args = [bad, "--strip-debug", "in.spv", "-o", "out.spv"];
        let r = ours(&dir, &args);
        assert_eq!(r.code, 1, "{bad}");
        assert_eq!(
            r.stderr,
            "error: The max id bound must be at least 0x3FFFFF\n"
        );
        if let Some(t) = theirs(&dir, &args) {
            assert_eq!((r.code, &r.stderr), (t.code, &t.stderr), "{bad}");
        }
    }
}

#[test]
fn presets_validate_first() {
    let dir = scratch("presets");
    module(&dir, "bad.spv", NO_ENTRY_POINT);
    for preset in ["-O", "-Os", "--legalize-hlsl"] {
        let args = [preset, "bad.spv", "-o", "out.spv"];
        let r = ours(&dir, &args);
        assert_eq!(r.code, 1, "{preset}");
        assert!(
            !r.stderr.contains("not implemented"),
            "{preset}: {}",
            r.stderr
        );
        assert!(!dir.join("out.spv").exists(), "{preset}: wrote its output");
        let theirs_args = [preset, "bad.spv", "-o", "t.spv"];
        if let Some(t) = theirs(&dir, &theirs_args) {
            assert_eq!((r.code, &r.stderr), (t.code, &t.stderr), "{preset}");
        }
    }
}

/// A function with an early return, called from the entry point, without merge-return
/// first: the inliner leaves the call and warns, with the function's `OpFunction`.
const EARLY_RETURN: &str = "OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %1 \"main\"
OpExecutionMode %1 OriginUpperLeft
%3 = OpTypeVoid
%4 = OpTypeBool
%5 = OpConstantTrue %4
%6 = OpTypeFunction %3
%2 = OpFunction %3 Inline|Pure %6
%7 = OpLabel
OpSelectionMerge %9 None
OpBranchConditional %5 %8 %9
%8 = OpLabel
OpReturn
%9 = OpLabel
OpReturn
OpFunctionEnd
%1 = OpFunction %3 None %6
%10 = OpLabel
%11 = OpFunctionCall %3 %2
OpReturn
OpFunctionEnd
";

#[test]
fn pass_warnings_go_to_standard_output_as_spirv_opts_do() {
    let dir = scratch("warn");
    module(&dir, "in.spv", &EARLY_RETURN.replace("Inline|Pure", "Pure"));
    let args = [
        "--inline-entry-points-exhaustive",
        "in.spv",
        "-o",
        "out.spv",
    ];
    let r = ours(&dir, &args);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        String::from_utf8_lossy(&r.stdout),
        "warning: line 0: The function '%2 = OpFunction %3 Pure %6' could not be inlined \
         because the return instruction is not at the end of the function. This could be \
         fixed by running merge-return before inlining.\n"
    );
    if let Some(t) = theirs(&dir, &args) {
        assert_eq!((t.code, &t.stdout, &t.stderr), (0, &r.stdout, &r.stderr));
    }
    // A control mask of two bits (Inline|Pure).
    module(&dir, "in.spv", EARLY_RETURN);
    let r = ours(&dir, &args);
    if let Some(t) = theirs(&dir, &args) {
        assert_eq!(
            (t.code, &t.stdout, &t.stderr),
            (r.code, &r.stdout, &r.stderr)
        );
    }
}

#[test]
fn a_failing_pass_says_what_spirv_opt_says() {
    let dir = scratch("overflow");
    let mut bytes = module(&dir, "in.spv", EARLY_RETURN);
    // The bound at the largest spirv-opt allows: merge-return cannot take an id.
    bytes[12..16].copy_from_slice(&0x3F_FFFFu32.to_le_bytes());
    std::fs::write(dir.join("in.spv"), &bytes).expect("write");
    let args = [
        "--skip-validation",
        "--merge-return",
        "in.spv",
        "-o",
        "out.spv",
    ];
    let r = ours(&dir, &args);
    assert_eq!(
        (r.code, r.stderr.as_str()),
        (1, "error: line 0: ID overflow. Try running compact-ids.\n")
    );
    if let Some(t) = theirs(&dir, &args) {
        assert_eq!(
            (t.code, &t.stdout, &t.stderr),
            (r.code, &r.stdout, &r.stderr)
        );
    }
}

/// A module SPIRV-Tools' parser refuses (a zero type or result id, an id defined twice,
/// an unknown opcode), read with validation skipped by passes on the optimizer IR or by
/// structural passes: refused with spirv-opt's message and the instruction's number,
/// nothing written. (A result id 0 kept would be defined again by any copy a pass
/// makes, as the inliner's are.)
#[test]
fn a_module_the_parser_refuses_is_refused_as_spirv_opt_refuses_it() {
    let dir = scratch("parser");
    let good = module(
        &dir,
        "good.spv",
        "OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %1 \"main\"
OpExecutionMode %1 OriginUpperLeft
%2 = OpTypeVoid
%3 = OpTypeFunction %2
%4 = OpTypeFloat 32
%5 = OpConstant %4 1
%1 = OpFunction %2 None %3
%6 = OpLabel
%7 = OpFAdd %4 %5 %5
OpReturn
OpFunctionEnd
",
    );
    let words: Vec<u32> = good
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    // The OpFAdd: its first word, then type and result ids.
    let mut at = 5;
    while words[at] & 0xffff != u32::from(spirv_core::spv::Opcode::FAdd.0) {
        at += (words[at] >> 16) as usize;
    }
    let patched: [(&str, usize, u32); 4] = [
        ("type-zero", at + 1, 0),
        ("result-zero", at + 2, 0),
        ("redefined", at + 2, 4),
        ("opcode", at, (words[at] & 0xffff_0000) | 4000),
    ];
    for (name, word, value) in patched {
        let mut bad = words.clone();
        bad[word] = value;
        let file = format!("{name}.spv");
        std::fs::write(dir.join(&file), spirv_core::binary::words_to_bytes(&bad)).expect("write");
        // IR passes, a preset, and structural passes (whose reader is more lenient
        // than SPIRV-Tools' parser, so the optimizer checks for what it refuses).
        let passes = [
            "--eliminate-dead-code-aggressive",
            "-O",
            "--strip-debug",
            "--remove-duplicates",
        ];
        for pass in passes {
            let args = ["--skip-validation", pass, file.as_str(), "-o", "out.spv"];
            let r = ours(&dir, &args);
            assert_eq!(r.code, 1, "{name} {pass}: {r:?}");
            assert!(
                r.stderr.starts_with("error: line 11: "),
                "{name} {pass}: {r:?}"
            );
            assert!(
                !dir.join("out.spv").exists(),
                "{name} {pass}: wrote its output"
            );
            let theirs_args = ["--skip-validation", pass, file.as_str(), "-o", "t.spv"];
            if let Some(t) = theirs(&dir, &theirs_args) {
                assert_eq!((r.code, &r.stderr), (t.code, &t.stderr), "{name} {pass}");
            }
        }
    }
}
