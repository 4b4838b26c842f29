//! The `spirv-asm` binary: arguments, outputs and exit codes as spirv-as/spirv-dis have
//! them, and a differential run of option combinations (colour included) against
//! spirv-dis 2025.5 when it is installed.

use std::path::PathBuf;
use std::process::{Command, Stdio};

fn exe() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_spirv-asm"))
}

// The same corpus and SPIRV-Tools lookup as the workspace tests.
use spirv_tests as env;
use spirv_tests::renames;

/// Whether our text equals SPIRV-Tools', or differs only in names the vendored grammar
/// renamed since SPIRV-Tools 2025.5 (reported, not failed).
fn same_text(ours: &[u8], theirs: &[u8], what: &str) -> bool {
    if ours == theirs {
        return true;
    }
    match renames::renamed_only(ours, theirs) {
        Some(pairs) => {
            eprintln!("{what}: renamed since SPIRV-Tools 2025.5: {pairs:?}");
            true
        }
        None => false,
    }
}

fn run(args: &[&str], stdin: Option<&[u8]>, dir: &std::path::Path) -> (i32, Vec<u8>, String) {
    let mut child = Command::new(exe())
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spirv-asm runs (cargo build -p spirv-asm)");
    if let Some(input) = stdin {
        use std::io::Write;
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(input)
            .expect("write");
    } else {
        drop(child.stdin.take());
    }
    let out = child.wait_with_output().expect("wait");
    (
        out.status.code().unwrap_or(-1),
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("spirv-asm-cli-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("mkdir");
    d
}

#[test]
fn as_and_dis_behave_like_spirv_as_and_spirv_dis() {
    let dir = scratch("basic");
    std::fs::write(
        dir.join("in.spvasm"),
        "; Version: 1.3\nOpCapability Shader\nOpMemoryModel Logical GLSL450\n%1 = OpTypeVoid\n",
    )
    .expect("write");
    // Default output file out.spv; version from the comment.
    let (code, _, err) = run(&["as", "in.spvasm"], None, &dir);
    assert_eq!(code, 0, "{err}");
    let bin = std::fs::read(dir.join("out.spv")).expect("out.spv");
    assert_eq!(&bin[4..8], &[0, 3, 1, 0]);
    // stdin and stdout.
    let (code, out, _) = run(
        &["as", "-", "-o", "-", "--target-env", "vulkan1.1"],
        Some(b"OpCapability Shader"),
        &dir,
    );
    assert_eq!(code, 0);
    assert_eq!(&out[4..8], &[0, 3, 1, 0], "vulkan1.1 is SPIR-V 1.3");
    // dis to stdout by default.
    let (code, text, _) = run(&["dis", "out.spv", "--no-color"], None, &dir);
    assert_eq!(code, 0);
    assert!(String::from_utf8_lossy(&text).contains("OpCapability Shader"));
    // Hex text input.
    let hex: String = bin
        .chunks(4)
        .map(|c| format!("0x{:08x} ", u32::from_le_bytes([c[0], c[1], c[2], c[3]])))
        .collect();
    let (code, text2, _) = run(&["dis", "-", "--no-color"], Some(hex.as_bytes()), &dir);
    assert_eq!((code, &text2), (0, &text));
    // The same from files: hex text (also after leading whitespace, and in bytes),
    // which a file read straight into words must notice.
    let hex_bytes: String = bin.iter().map(|b| format!("{b:02x} ")).collect();
    for (name, content) in [
        ("hex.txt", hex.clone()),
        ("spaced.txt", format!("\n\n   {hex}")),
        ("bytes.txt", hex_bytes),
    ] {
        std::fs::write(dir.join(name), content).expect("hex file");
        let (code, text3, _) = run(&["dis", name, "--no-color"], None, &dir);
        assert_eq!((code, &text3), (0, &text), "{name}");
    }
    std::fs::write(dir.join("odd.spv"), &bin[..bin.len() - 2]).expect("odd file");
    let (code, _, err) = run(&["dis", "odd.spv"], None, &dir);
    assert_eq!(code, 1, "a file whose size is not a multiple of 4");
    assert!(
        err.contains("file size should be a multiple of 4; file 'odd.spv' corrupt"),
        "{err}"
    );
    // Exit codes.
    assert_eq!(run(&["as", "-"], Some(b"OpFoo"), &dir).0, 247);
    assert_eq!(
        run(&["as", "-"], Some(b"OpCapability Shaderr"), &dir).0,
        251
    );
    assert_eq!(
        run(
            &["as", "-"],
            Some(b"%1 = OpTypeVoid\n%1 = OpTypeInt 32 0\n"),
            &dir
        )
        .0,
        251
    );
    assert_eq!(run(&["as", "missing.spvasm"], None, &dir).0, 1);
    assert_eq!(
        run(&["as", "--target-env", "nope", "in.spvasm"], None, &dir).0,
        1
    );
    assert_eq!(
        run(&["dis", "-"], Some(&[3, 2, 0x23, 7, 0, 0]), &dir).0,
        1,
        "size not a multiple of 4"
    );
    assert_eq!(
        run(&["dis", "-"], Some(&[3, 2, 0x23, 7, 0, 0, 1, 0]), &dir).0,
        252
    );
    let (code, _, err) = run(
        &["as", "-"],
        Some(b"OpCapability Shader\nOpMemoryModel Logical\n"),
        &dir,
    );
    assert_eq!(code, 251);
    assert!(
        err.starts_with("error: 3: 1: Expected operand for OpMemoryModel instruction"),
        "{err}"
    );
    assert!(run(&["--version"], None, &dir).1.starts_with(b"spirv-asm"));
    for sub in ["as", "dis"] {
        let (code, out, _) = run(&[sub, "--version"], None, &dir);
        assert_eq!(code, 0);
        assert!(String::from_utf8_lossy(&out).contains("SPIRV-Tools v2025.5"));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn option_combinations_match_spirv_dis() {
    let what = "the differential CLI test against spirv-dis";
    let (Some(corpus), Some(st)) = (env::require_corpus(what), env::require_spirv_tools(what))
    else {
        return;
    };
    let combos: &[&[&str]] = &[
        &["--color"],
        &["--color", "--offsets", "--comment"],
        &["--nested-indent", "--reorder-blocks", "--comment"],
        &["--no-indent", "--no-header", "--raw-id", "--offsets"],
    ];
    let mut failures = Vec::new();
    let mut n = 0;
    for path in env::files(&corpus.join("bin"), "spv").iter().step_by(25) {
        let p = path.to_str().unwrap_or_default();
        for combo in combos {
            n += 1;
            let theirs = Command::new(st.join("spirv-dis"))
                .args(*combo)
                .arg(p)
                .output()
                .expect("spirv-dis");
            let ours = Command::new(exe())
                .arg("dis")
                .args(*combo)
                .arg(p)
                .output()
                .expect("spirv-asm");
            let what = format!("{combo:?} {p}");
            if !same_text(&ours.stdout, &theirs.stdout, &what)
                || theirs.status.code() != ours.status.code()
            {
                failures.push(what);
            }
        }
    }
    assert!(n >= 40, "only {n} runs compared");
    assert!(
        failures.is_empty(),
        "{} of {n} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Constructs outside the corpus: bfloat16/FP8 constants, NaN/subnormal/max floats, odd
/// integer widths, forward-referenced OpSpecConstantOp, escaped strings with newlines,
/// DebugPrintf and an unknown NonSemantic set; then ClspvReflection (versioned import),
/// Shader.DebugInfo with OpExtInstWithForwardRefsKHR, a 64-bit OpSwitch, OpLine between
/// globals, OpDecorateString. Assembled and disassembled by both tools.
#[test]
fn edge_cases_match_spirv_tools() {
    let Some(st) = env::require_spirv_tools("the edge-case test against SPIRV-Tools") else {
        return;
    };
    for fixture in ["edge-cases.spvasm", "edge-cases-2.spvasm"] {
        edge_case(&st, fixture);
    }
}

fn edge_case(st: &std::path::Path, fixture: &str) {
    let text_path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures")
        .join(fixture);
    let dir = scratch(fixture);
    let theirs_bin = dir.join("theirs.spv");
    let out = Command::new(st.join("spirv-as"))
        .arg(&text_path)
        .arg("-o")
        .arg(&theirs_bin)
        .output()
        .expect("spirv-as");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let ours_bin = dir.join("ours.spv");
    let (code, _, err) = run(
        &[
            "as",
            "--generator",
            "0x00070000",
            text_path.to_str().unwrap_or(""),
            "-o",
            ours_bin.to_str().unwrap_or(""),
        ],
        None,
        &dir,
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        std::fs::read(&ours_bin).ok(),
        std::fs::read(&theirs_bin).ok(),
        "assembled bytes differ"
    );
    for opts in [
        &[][..],
        &["--raw-id"][..],
        &["--comment", "--nested-indent", "--reorder-blocks"][..],
        &["--color", "--offsets"][..],
    ] {
        let t = Command::new(st.join("spirv-dis"))
            .args(opts)
            .arg(&theirs_bin)
            .output()
            .expect("spirv-dis");
        let (code, o, _) = run(
            &[&["dis"][..], opts, &[theirs_bin.to_str().unwrap_or("")]].concat(),
            None,
            &dir,
        );
        let what = format!("{fixture} {opts:?}");
        if !same_text(&o, &t.stdout, &what) {
            assert_eq!(
                String::from_utf8_lossy(&o),
                String::from_utf8_lossy(&t.stdout),
                "{what}"
            );
        }
        assert_eq!(code, t.status.code().unwrap_or(-1), "{what}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The disassembler error modules as files: the `.spv` ones as they are, and the
/// `.spvasm` ones assembled into `scratch` the way `spirv_tests::dis_error_cases` embeds
/// them (`%N` keeps id N, spirv-as's generator word).
fn dis_error_modules(dir: &std::path::Path, scratch: &std::path::Path) -> Vec<PathBuf> {
    let mut paths = env::files(dir, "spv");
    for text in env::files(dir, "spvasm") {
        let opts = spirv_asm::AsmOptions {
            preserve_numeric_ids: true,
            generator: spirv_asm::SPIRV_TOOLS_GENERATOR,
            ..spirv_asm::AsmOptions::default()
        };
        let words = spirv_asm::assemble(&std::fs::read(&text).expect("read"), &opts)
            .unwrap_or_else(|e| panic!("{}: {e}", text.display()));
        let out = scratch.join(text.with_extension("spv").file_name().expect("name"));
        std::fs::write(&out, spirv_core::binary::words_to_bytes(&words)).expect("write");
        paths.push(out);
    }
    paths
}

/// Every disassembler and assembler error fixture through both tools as whole
/// processes: the same exit code, and for dis the same text on standard output (the
/// instructions before the bad one).
#[test]
fn error_exit_codes_and_partial_output_match_spirv_tools() {
    let Some(st) = env::require_spirv_tools("the CLI error test against SPIRV-Tools") else {
        return;
    };
    let fixtures = env::workspace_root().join("tests/fixtures");
    let dir = scratch("errors");
    let mut compared = 0;
    for path in dis_error_modules(&fixtures.join("dis-errors"), &dir) {
        let p = path.to_str().unwrap_or_default();
        let theirs = Command::new(st.join("spirv-dis"))
            .arg(p)
            .output()
            .expect("spirv-dis");
        let (code, out, _) = run(&["dis", "--no-color", p], None, &dir);
        if !same_text(&out, &theirs.stdout, p) {
            assert_eq!(
                String::from_utf8_lossy(&out),
                String::from_utf8_lossy(&theirs.stdout),
                "{p}"
            );
        }
        assert_eq!(code, theirs.status.code().unwrap_or(-1), "{p}");
        compared += 1;
    }
    for path in env::files(&fixtures.join("asm-errors"), "spvasm") {
        let p = path.to_str().unwrap_or_default();
        let expected = std::fs::read(path.with_extension("expected")).expect("golden");
        let expected = String::from_utf8_lossy(&expected);
        let args = expected
            .lines()
            .nth(1)
            .unwrap_or("args:")
            .trim_start_matches("args:")
            .to_owned();
        let args: Vec<&str> = args.split_whitespace().collect();
        let theirs = Command::new(st.join("spirv-as"))
            .args(&args)
            .args([p, "-o", "/dev/null"])
            .output()
            .expect("spirv-as");
        let (code, _, _) = run(
            &[&["as"][..], &args, &[p, "-o", "/dev/null"]].concat(),
            None,
            &dir,
        );
        assert_eq!(code, theirs.status.code().unwrap_or(-1), "{p}");
        compared += 1;
    }
    assert!(compared >= 50, "only {compared} fixtures compared");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Output that cannot be written is an error (exit 1), and a file target changes only
/// when the whole output was written.
#[test]
fn output_errors_are_reported_and_files_never_half_written() {
    let dir = scratch("output");
    let fixtures = env::workspace_root().join("tests/fixtures");
    let good = fixtures.join("nested-function/nested-function.spvasm");
    let good = good.to_str().unwrap_or_default();
    assert_eq!(run(&["as", good, "-o", "good.spv"], None, &dir).0, 0);
    if std::path::Path::new("/dev/full").exists() {
        for args in [
            &["dis", "good.spv", "-o", "/dev/full"][..],
            &["as", good, "-o", "/dev/full"][..],
        ] {
            let (code, _, err) = run(args, None, &dir);
            assert_eq!(code, 1, "{args:?}");
            assert!(err.contains("cannot write"), "{err}");
        }
        // Standard output full: the final flush fails, and says so.
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full");
        let out = Command::new(exe())
            .args(["dis", "good.spv"])
            .current_dir(&dir)
            .stdout(full)
            .output()
            .expect("runs");
        assert_eq!(out.status.code(), Some(1));
    }
    // A bad instruction near the end: the old file stays, no temporary file is left.
    let bad = dis_error_modules(&fixtures.join("dis-errors"), &dir)
        .into_iter()
        .find(|p| p.ends_with("spec_constant_op_nested.spv"))
        .expect("the nested OpSpecConstantOp case");
    std::fs::write(dir.join("out.txt"), "old").expect("write");
    let (code, _, _) = run(
        &["dis", bad.to_str().unwrap_or_default(), "-o", "out.txt"],
        None,
        &dir,
    );
    assert_eq!(code, 252);
    assert_eq!(
        std::fs::read_to_string(dir.join("out.txt")).ok().as_deref(),
        Some("old")
    );
    let (code, _, _) = run(&["as", "-", "-o", "out.txt"], Some(b"OpFoo"), &dir);
    assert_eq!(code, 247);
    assert_eq!(
        std::fs::read_to_string(dir.join("out.txt")).ok().as_deref(),
        Some("old")
    );
    // Success replaces it.
    assert_eq!(run(&["dis", "good.spv", "-o", "out.txt"], None, &dir).0, 0);
    let text = std::fs::read_to_string(dir.join("out.txt")).expect("written");
    assert!(text.contains("OpFunctionEnd"));
    let names: Vec<String> = std::fs::read_dir(&dir)
        .expect("dir")
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(!names.iter().any(|n| n.ends_with(".tmp")), "{names:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `spirv-asm reflect`: the spirv-cross format prints the corpus's `spirv-cross
/// --reflect` gold byte for byte (a sample; the workspace test compares all), the own
/// format is JSON with its schema name, and failures have their own exit codes.
#[test]
fn reflect_prints_spirv_cross_format_and_own_json() {
    let Some(corpus) = env::require_corpus("the reflect CLI test") else {
        return;
    };
    let dir = scratch("reflect");
    let gold = corpus.join("reflect");
    let mut compared = 0;
    for path in env::files(&gold, "json").iter().step_by(40) {
        let name = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default();
        let bin = corpus.join("bin").join(format!("{name}.spv"));
        let (code, out, err) = run(
            &[
                "reflect",
                "--format",
                "spirv-cross",
                bin.to_str().unwrap_or(""),
            ],
            None,
            &dir,
        );
        assert_eq!(code, 0, "{name}: {err}");
        assert_eq!(
            String::from_utf8_lossy(&out),
            std::fs::read_to_string(path).expect("gold"),
            "{name}"
        );
        compared += 1;
    }
    assert!(compared >= 25, "only {compared} compared");
    // The own format: JSON, read from standard input too.
    let bin = std::fs::read(corpus.join("bin/glslang__spv.specConstant.vert.spv")).expect("bin");
    let (code, out, _) = run(&["reflect", "-"], Some(&bin), &dir);
    assert_eq!(code, 0);
    let text = String::from_utf8_lossy(&out);
    assert!(text.starts_with('{') && text.contains("\"schema\": \"spirv-asm-reflect/1\""));
    // Hex text, as `dis` reads it, gives the same; text that is neither: exit 1.
    let hex: String = bin
        .chunks_exact(4)
        .map(|c| format!("0x{:08x}\n", u32::from_le_bytes([c[0], c[1], c[2], c[3]])))
        .collect();
    let (code, from_hex, _) = run(&["reflect", "-"], Some(hex.as_bytes()), &dir);
    assert_eq!((code, from_hex), (0, out));
    let (code, _, err) = run(&["reflect", "-"], Some(b"0x12 zz"), &dir);
    assert_eq!(
        (code, err.trim()),
        (1, "error: input is neither a binary nor hex text")
    );
    // A Kernel module: spirv-cross's refusal, exit 3; not a module: 2; no file: 1.
    let kernel = env::files(&corpus.join("bin"), "spv")
        .into_iter()
        .find(|p| p.to_string_lossy().contains("beehive__"))
        .expect("an OpenCL kernel");
    let (code, _, err) = run(
        &[
            "reflect",
            "--format",
            "spirv-cross",
            kernel.to_str().unwrap_or(""),
        ],
        None,
        &dir,
    );
    assert_eq!(
        (code, err.trim()),
        (3, "error: Kernel capability not supported.")
    );
    assert_eq!(run(&["reflect", "-"], Some(b"nope"), &dir).0, 2);
    assert_eq!(run(&["reflect", "missing.spv"], None, &dir).0, 1);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Assembly text given to `dis` or `reflect` gets spirv-dis's error and exit code, then
/// a note that `as` assembles it; a binary that is merely corrupt gets no such note.
#[test]
fn dis_and_reflect_given_assembly_text_say_to_use_as() {
    let d = scratch("hint");
    let hint = "`spirv-asm as` assembles it";
    // 52 bytes, a whole number of words: the magic number is wrong.
    let words = b"OpCapability Shader\nOpMemoryModel Logical GLSL450\n  ";
    // 51 bytes: the size is wrong.
    let odd = b"; SPIR-V\n%1 = OpTypeVoid\nOpMemoryModel Logical GLSL450";
    for (text, dis_code) in [(&words[..], 252), (&odd[..], 1)] {
        let (code, _, err) = run(&["dis"], Some(text), &d);
        assert_eq!(code, dis_code, "{err}");
        assert!(err.contains(hint), "{err}");
        let (code, _, err) = run(&["reflect"], Some(text), &d);
        assert_ne!(code, 0, "{err}");
        assert!(err.contains(hint), "{err}");
    }
    let (code, _, err) = run(&["dis"], Some(&[0xAB; 20]), &d);
    assert_eq!(code, 252, "{err}");
    assert!(!err.contains(hint), "{err}");
    let _ = std::fs::remove_dir_all(&d);
}

/// The top help says what the tool does and names each command's job.
#[test]
fn top_help_names_what_the_tool_and_each_command_do() {
    let d = scratch("help");
    let (code, out, _) = run(&["--help"], None, &d);
    assert_eq!(code, 0);
    let out = String::from_utf8_lossy(&out);
    let first = out.lines().next().unwrap_or("");
    for job in [
        "assemble",
        "disassemble",
        "validate",
        "optimize",
        "reflect",
        "control-flow graphs",
    ] {
        assert!(first.contains(job), "{first}");
    }
    assert!(!out.contains("assembler and disassembler"), "{out}");
    for command in ["as", "dis", "reflect", "val", "opt", "cfg"] {
        assert!(
            out.lines()
                .any(|l| l.trim_start().starts_with(&format!("{command} "))),
            "{command} listed with its job: {out}"
        );
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// A binary given to `as` gets spirv-as's error and exit code, then a short note that
/// `dis` disassembles it; the binary's bytes are not echoed as a "source line".
#[test]
fn as_given_a_binary_says_to_use_dis() {
    let d = scratch("as-binary");
    let text = b"OpCapability Shader\nOpMemoryModel Logical GLSL450\n";
    let (code, _, _) = run(&["as", "-", "-o", "m.spv"], Some(text), &d);
    assert_eq!(code, 0);
    let mut bin = std::fs::read(d.join("m.spv")).expect("written");
    for _ in 0..2 {
        let (code, out, err) = run(&["as", "-", "-o", "x.spv"], Some(&bin), &d);
        assert_eq!(code, 251, "{err}");
        assert!(out.is_empty());
        assert!(err.contains("`spirv-asm dis` disassembles it"), "{err}");
        assert!(err.len() < 300, "short: {err}");
        assert_eq!(err.lines().count(), 2, "{err}");
        assert!(!d.join("x.spv").exists());
        // The other byte order too.
        for w in bin.chunks_exact_mut(4) {
            w.reverse();
        }
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// A 1 MB line with an error prints a window of it: under 16 KB in all, the caret under
/// the token it names, no character cut in half.
#[test]
fn a_huge_line_with_an_error_prints_a_window_of_it() {
    let d = scratch("huge-line");
    let pad = "é".repeat(1 << 19);
    let mut seen = Vec::new();
    let cases = [
        // The error at the line's start, in its middle (after 1 MB of string), and
        // a 1 MB token quoted by the message.
        (format!("%x = OpBogus \"{pad}\"\n"), "OpBogus"),
        (
            format!(
                "{} OpFoo 7\n",
                "OpSourceExtension \"ééééé\" ".repeat(1 << 16)
            ),
            "OpFoo",
        ),
        (format!("%x = OpTypeInt {pad} 1\n"), "éééé"),
    ];
    for (text, token) in cases {
        let text = format!("OpCapability Shader\n{text}");
        let (code, _, err) = run(&["as", "-"], Some(text.as_bytes()), &d);
        assert_ne!(code, 0);
        assert!(err.len() < 16 << 10, "{} bytes", err.len());
        let lines: Vec<&str> = err.lines().collect();
        assert_eq!(lines.len(), 3, "{err}");
        // The caret's column in the window is the token's.
        let caret = lines[2].chars().count() - lines[2].trim_start().chars().count();
        let shown: String = lines[1].chars().skip(caret).collect();
        assert!(shown.starts_with(token), "caret under {shown:.20}");
        assert!(lines[2].trim_start().starts_with('^'), "{}", lines[2]);
        seen.push(text.lines().nth(1).map_or(0, str::len));
    }
    assert!(seen.iter().all(|&n| n >= 1 << 20), "1 MB lines: {seen:?}");
    let _ = std::fs::remove_dir_all(&d);
}

/// `val` on a file whose size is not a whole number of words: spirv-val's message.
#[test]
fn val_given_a_partial_word_says_what_spirv_val_says() {
    let d = scratch("val-size");
    let text = b"OpCapability Shader\nOpMemoryModel Logical GLSL450\n";
    let (code, _, _) = run(&["as", "-", "-o", "m.spv"], Some(text), &d);
    assert_eq!(code, 0);
    let mut bin = std::fs::read(d.join("m.spv")).expect("written");
    bin.push(0);
    std::fs::write(d.join("odd.spv"), &bin).expect("write");
    let expected = (
        1,
        "error: file size should be a multiple of 4; file 'odd.spv' corrupt\n".to_owned(),
    );
    let (code, _, err) = run(&["val", "odd.spv"], None, &d);
    assert_eq!((code, err), expected);
    if let Some(st) = env::spirv_tools() {
        let out = Command::new(st.join("spirv-val"))
            .arg("odd.spv")
            .current_dir(&d)
            .output()
            .expect("spirv-val runs");
        let theirs = (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        );
        assert_eq!(theirs, expected, "spirv-val 2025.5");
    }
    let (code, _, err) = run(&["val", "-"], Some(&bin), &d);
    assert_eq!(code, 1);
    assert!(err.contains("file '-' corrupt"), "{err}");
    let _ = std::fs::remove_dir_all(&d);
}

/// `val --keep-going` stops reporting at `--max-errors` (default 100) and says how many
/// it left out; `--max-errors N` alone implies `--keep-going`, 0 reports all.
#[test]
fn val_max_errors_caps_keep_going() {
    let d = scratch("max-errors");
    // 150 instructions that each use an undefined id.
    let mut text = String::from(
        "OpCapability Shader\nOpMemoryModel Logical GLSL450\n%void = OpTypeVoid\n%int = OpTypeInt 32 1\n%fn = OpTypeFunction %void\n%main = OpFunction %void None %fn\n%entry = OpLabel\n",
    );
    for i in 0..150 {
        text.push_str(&format!("%r{i} = OpIAdd %int %u{i} %u{i}\n"));
    }
    text.push_str("OpReturn\nOpFunctionEnd\n");
    let (code, _, err) = run(&["as", "-", "-o", "m.spv"], Some(text.as_bytes()), &d);
    assert_eq!(code, 0, "{err}");
    let faults = |err: &str| err.lines().filter(|l| l.starts_with("error: ")).count();
    let (code, _, err) = run(&["val", "m.spv"], None, &d);
    assert_eq!((code, faults(&err)), (1, 1));
    assert!(!err.contains("note:"), "spirv-val's output: {err}");
    let (_, _, err) = run(
        &["val", "--keep-going", "--max-errors", "0", "m.spv"],
        None,
        &d,
    );
    let all = faults(&err);
    assert!(all > 150, "{all}");
    assert!(!err.contains("note:"), "{err}");
    let (_, _, err) = run(&["val", "--keep-going", "m.spv"], None, &d);
    assert_eq!(faults(&err), 100);
    assert!(
        err.ends_with(&format!(
            "note: {} more errors not shown (--max-errors 0 shows them all)\n",
            all - 100
        )),
        "{err}"
    );
    let (_, _, err) = run(&["val", "--max-errors", "3", "m.spv"], None, &d);
    assert_eq!(faults(&err), 3);
    assert!(
        err.contains(&format!("note: {} more errors", all - 3)),
        "{err}"
    );
    let (_, out, _) = run(&["val", "--json", "--max-errors", "3", "m.spv"], None, &d);
    let record: serde_json::Value =
        serde_json::from_str(String::from_utf8_lossy(&out).lines().next().unwrap_or(""))
            .expect("JSON");
    assert_eq!(record["errors"].as_array().map(Vec::len), Some(3));
    assert_eq!(record["errors_not_shown"], all - 3);
    let _ = std::fs::remove_dir_all(&d);
}

/// `--grammar FILE` makes `as`, `dis` and `val` know a user's extended set by name, as
/// `include_grammar!` makes a library know it; without it the set's instructions are
/// numbers, as spirv-dis prints them.
#[test]
fn a_grammar_given_at_run_time_names_a_users_set() {
    let d = scratch("grammar");
    let grammar = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/downstream/grammar/nonsemantic.markers.grammar.json");
    let grammar = grammar.to_str().expect("a UTF-8 path");
    let text = b"OpCapability Shader
OpExtension \"SPV_KHR_non_semantic_info\"
%ext = OpExtInstImport \"NonSemantic.Markers\"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main \"main\"
OpExecutionMode %main LocalSize 1 1 1
%label = OpString \"frame\"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%one = OpConstant %uint 1
%begin = OpExtInst %void %ext MarkerBegin %label %one
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
";
    let (code, _, err) = run(&["as", "-o", "-"], Some(text), &d);
    assert_ne!(code, 0, "the set is unknown without --grammar");
    assert!(err.contains("MarkerBegin"), "{err}");
    let (code, words, err) = run(&["as", "--grammar", grammar, "-o", "-"], Some(text), &d);
    assert_eq!(code, 0, "{err}");
    std::fs::write(d.join("m.spv"), &words).expect("write");
    let (_, plain, _) = run(&["dis", "m.spv"], None, &d);
    assert!(String::from_utf8_lossy(&plain).contains("OpExtInst %void %1 1 "));
    let (code, named, err) = run(&["dis", "--grammar", grammar, "m.spv"], None, &d);
    assert_eq!(code, 0, "{err}");
    assert!(String::from_utf8_lossy(&named).contains("OpExtInst %void %1 MarkerBegin "));
    // `IMPORT=FILE` names the import string; val checks the set's operands.
    let named_arg = format!("NonSemantic.Markers={grammar}");
    let (code, _, err) = run(&["val", "--grammar", &named_arg, "m.spv"], None, &d);
    assert_eq!(code, 0, "{err}");
    let short = String::from_utf8_lossy(text).replace("%label %one\n", "%label\n");
    let (_, words, _) = run(
        &["as", "-o", "-"],
        Some(short.replace("MarkerBegin", "1").as_bytes()),
        &d,
    );
    std::fs::write(d.join("short.spv"), &words).expect("write");
    let (code, _, err) = run(&["val", "--grammar", grammar, "short.spv"], None, &d);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("expected an operand of kind IdRef"), "{err}");
    // A grammar that is not one is refused with the model's message and location.
    std::fs::write(
        d.join("bad.json"),
        br#"{ "revision": 1, "instructions": [ { "opname": "A" } ] }"#,
    )
    .expect("write");
    let (code, _, err) = run(&["dis", "--grammar", "bad.json", "m.spv"], None, &d);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("grammar 'bad.json' is not usable") && err.contains("/instructions/0"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&d);
}
