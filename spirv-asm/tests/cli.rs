//! The `spirv-asm` binary: arguments, outputs and exit codes as spirv-as/spirv-dis have
//! them, and a differential run of option combinations (colour included) against
//! spirv-dis 2025.5 when it is installed.

use std::path::PathBuf;
use std::process::{Command, Stdio};

fn exe() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_spirv-asm"))
}

fn corpus_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("SPIRV_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus"));
    dir.join("bin").is_dir().then_some(dir)
}

fn files(dir: &std::path::Path, ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == ext))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
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

fn spirv_tools_bin() -> Option<PathBuf> {
    let out = Command::new("python3")
        .args([
            "-c",
            "import sysconfig;print(sysconfig.get_paths()['purelib'])",
        ])
        .output()
        .ok()?;
    let dir = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()).join("cmeel.prefix/bin");
    let v = Command::new(dir.join("spirv-dis"))
        .arg("--version")
        .output()
        .ok()?;
    String::from_utf8_lossy(&v.stdout)
        .contains("v2025.5")
        .then_some(dir)
}

#[test]
fn option_combinations_match_spirv_dis() {
    let (Some(corpus), Some(st)) = (corpus_dir(), spirv_tools_bin()) else {
        println!(
            "SKIP: corpus or SPIRV-Tools 2025.5 binaries not available; differential dis test not run"
        );
        eprintln!(
            "SKIP: corpus or SPIRV-Tools 2025.5 binaries not available; differential dis test not run"
        );
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
    for path in files(&corpus.join("bin"), "spv").iter().step_by(25) {
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
            if theirs.stdout != ours.stdout {
                failures.push(format!("{combo:?} {p}"));
            }
        }
    }
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
    let Some(st) = spirv_tools_bin() else {
        println!(
            "SKIP: SPIRV-Tools 2025.5 binaries not available; edge-case differential test not run"
        );
        eprintln!(
            "SKIP: SPIRV-Tools 2025.5 binaries not available; edge-case differential test not run"
        );
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
        assert_eq!(code, 0);
        assert_eq!(
            String::from_utf8_lossy(&o),
            String::from_utf8_lossy(&t.stdout),
            "{fixture} {opts:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
