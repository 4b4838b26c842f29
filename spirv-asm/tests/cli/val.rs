//! `spirv-asm val`: spirv-val 2025.5's output and exit codes for valid and invalid
//! modules, header and parser faults, folders, and this tool's `--keep-going` and
//! `--offsets`. Where spirv-val is installed, every case is compared with it byte for
//! byte; elsewhere the expected texts below (spirv-val's, recorded) are used.

use spirv_asm::{AsmOptions, assemble_str};
use std::path::{Path, PathBuf};
use std::process::Command;

use spirv_tests as env;
use spirv_tests::renames;

fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("spirv-asm-val-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("mkdir");
    d
}

/// Runs a command; returns its exit code and standard error.
fn run(program: &Path, args: &[&str]) -> (i32, String) {
    let out = Command::new(program).args(args).output().expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn ours(args: &[&str]) -> (i32, String) {
    run(
        Path::new(env!("CARGO_BIN_EXE_spirv-asm")),
        &[&["val"], args].concat(),
    )
}

/// Writes the module that `text` assembles to (numeric ids kept) as `dir/name`.
fn module(dir: &Path, name: &str, text: &str) -> String {
    let opts = AsmOptions {
        preserve_numeric_ids: true,
        ..AsmOptions::default()
    };
    let words = assemble_str(text, &opts).expect("assembles");
    write_words(dir, name, &words)
}

fn write_words(dir: &Path, name: &str, words: &[u32]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, spirv_core::binary::words_to_bytes(words)).expect("write");
    path.to_string_lossy().into_owned()
}

/// Whether our run is spirv-val's: the same exit code, and the same text or one that
/// differs only by names the vendored grammar renamed since SPIRV-Tools 2025.5.
fn same_run(ours: &(i32, String), theirs: (i32, &str)) -> bool {
    ours.0 == theirs.0
        && (ours.1 == theirs.1
            || renames::renamed_only(ours.1.as_bytes(), theirs.1.as_bytes()).is_some())
}

/// Compares our run with spirv-val's where it is installed, else with `expected`.
fn check(args: &[&str], expected: (i32, &str)) {
    let got = ours(args);
    match env::spirv_tools() {
        Some(bin) => {
            let theirs = run(&bin.join("spirv-val"), args);
            assert!(
                same_run(&got, (theirs.0, &theirs.1)),
                "spirv-asm val {args:?} against spirv-val: {got:?} != {theirs:?}"
            );
        }
        None => env::skip("the comparison with spirv-val", "SPIRV-Tools 2025.5"),
    }
    assert!(
        same_run(&got, expected),
        "spirv-asm val {args:?}: {got:?} != {expected:?}"
    );
}

const HEADER: &str = "OpCapability Shader\nOpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %1 \"main\"\nOpExecutionMode %1 LocalSize 1 1 1\n";
const BODY: &str = "%2 = OpTypeVoid\n%3 = OpTypeFunction %2\n%1 = OpFunction %2 None %3\n%4 = OpLabel\nOpReturn\nOpFunctionEnd\n";

#[test]
fn valid_and_invalid_modules_print_what_spirv_val_prints() {
    let dir = scratch("basic");
    let good = module(&dir, "good.spv", &format!("{HEADER}{BODY}"));
    check(&[&good], (0, ""));
    check(
        &["--target-env", "vulkan1.0", &good],
        (
            1,
            "error: line 0: Invalid SPIR-V binary version 1.6 for target environment SPIR-V 1.0 (under Vulkan 1.0 semantics).\n",
        ),
    );
    let undefined = module(
        &dir,
        "undefined.spv",
        &format!(
            "{HEADER}%2 = OpTypeVoid\n%3 = OpTypeFunction %2\n%1 = OpFunction %2 None %3\n%4 = OpLabel\n%5 = OpIAdd %9 %7 %8\nOpReturn\nOpFunctionEnd\n"
        ),
    );
    check(
        &[&undefined],
        (
            1,
            "error: line 9: ID '9[%9]' has not been defined\n  %5 = OpIAdd %9 %7 %8\n\n",
        ),
    );
    let layout = module(
        &dir,
        "layout.spv",
        &format!("{HEADER}{BODY}OpName %1 \"main\"\n"),
    );
    check(
        &[&layout],
        (
            1,
            "error: line 11: OpName cannot appear in the graph definitions section\n  OpName %1 \"main\"\n\n",
        ),
    );
    // The struct-depth limit in spirv-val's own spelling (the one its help names is ours too).
    let nested = module(
        &dir,
        "nested.spv",
        &format!("{HEADER}%5 = OpTypeInt 32 0\n%6 = OpTypeStruct %5\n%7 = OpTypeStruct %6\n{BODY}"),
    );
    let depth_fault = "error: line 7: Structure Nesting Depth may not be larger than 1. Found 2.\n  %_struct_7 = OpTypeStruct %_struct_6\n\n";
    check(&["--max-struct_depth", "1", &nested], (1, depth_fault));
    check(&["--max-struct_depth", "2", &nested], (0, ""));
    assert!(same_run(
        &ours(&["--max-struct-depth", "1", &nested]),
        (1, depth_fault)
    ));
    let vulkan = module(
        &dir,
        "vulkan.spv",
        &format!("OpCapability Kernel\n{HEADER}{BODY}"),
    );
    let mut words: Vec<u32> = std::fs::read(&vulkan)
        .expect("read")
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    words[1] = 0x0001_0000;
    let vulkan = write_words(&dir, "vulkan.spv", &words);
    check(
        &["--target-env", "vulkan1.0", &vulkan],
        (
            1,
            "error: line 1: Capability Kernel is not allowed by Vulkan 1.0 specification (or requires extension)\n  OpCapability Kernel\n\n",
        ),
    );
}

#[test]
fn header_and_parser_faults_print_what_spirv_val_prints() {
    let dir = scratch("parse");
    let magic = write_words(&dir, "magic.spv", &[1, 2, 3, 4, 5]);
    check(
        &[&magic],
        (1, "error: line 0: Invalid SPIR-V magic number.\n"),
    );
    let short = write_words(&dir, "short.spv", &[spirv_core::binary::MAGIC, 0x0001_0000]);
    check(&[&short], (1, "error: line 0: Invalid SPIR-V header.\n"));
    let opcode = write_words(
        &dir,
        "opcode.spv",
        &[
            spirv_core::binary::MAGIC,
            0x0001_0000,
            0,
            5,
            0,
            0x0002_0011,
            1,
            0x0001_0fff,
        ],
    );
    check(&[&opcode], (1, "error: line 2: Invalid opcode: 4095\n"));
}

#[test]
fn folders_keep_going_and_offsets() {
    let dir = scratch("folder");
    std::fs::create_dir_all(dir.join("sub")).expect("mkdir");
    module(&dir, "a.spv", &format!("{HEADER}{BODY}"));
    let misplaced = "%2 = OpTypeVoid\nOpName %1 \"x\"\n%3 = OpTypeFunction %2\n%1 = OpFunction %2 None %3\n%4 = OpLabel\nOpReturn\nOpFunctionEnd\n";
    let bad = module(&dir, "sub/b.spv", &format!("{HEADER}{misplaced}"));
    let folder = dir.to_string_lossy().into_owned();
    let (code, err) = ours(&[&folder]);
    assert_eq!(code, 1);
    assert_eq!(
        err,
        format!("error: {bad}:6: Name is in an invalid layout section\n  OpName %x \"x\"\n\n")
    );
    // Two faults: the misplaced name, then an undefined forward reference.
    let two = module(
        &dir,
        "two.spvx",
        &format!(
            "{HEADER}%2 = OpTypeVoid\nOpName %1 \"x\"\nOpName %77 \"y\"\n%3 = OpTypeFunction %2\n%1 = OpFunction %2 None %3\n%4 = OpLabel\nOpReturn\nOpFunctionEnd\n"
        ),
    );
    let (code, err) = ours(&["--keep-going", "--offsets", &two]);
    assert_eq!(code, 1);
    assert_eq!(
        err,
        "error: line 6 (word 23): Name is in an invalid layout section\n  OpName %x \"x\"\n\n\
         error: line 7 (word 26): Name is in an invalid layout section\n  OpName %y \"y\"\n\n\
         error: line 0: The following forward referenced IDs have not been defined:\n'77[%y]'\n"
    );
    let (code, err) = ours(&["--target-env", "vulkan9", &two]);
    assert_eq!(
        (code, err.as_str()),
        (1, "error: Unrecognized target env: vulkan9\n")
    );
}
