//! Batch mode of the `spirv-asm` subcommands: trees mirrored under `-o DIR` with each
//! output equal to the single-file run's, the same bytes whatever the job count, one
//! failing file not stopping the others (each error naming its file and place, the
//! exit code the worst), `--json` records, `--in-place` and `--suffix`, and the
//! refusals (several inputs without a destination, two inputs with one output).

use spirv_asm::{AsmOptions, assemble_str};
use std::path::{Path, PathBuf};
use std::process::Command;

fn exe() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_spirv-asm"))
}

/// Runs spirv-asm in `dir`: exit code, standard output, standard error.
fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(exe())
        .args(args)
        .current_dir(dir)
        .env_remove("CI")
        .output()
        .expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("spirv-asm-batch-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("mkdir");
    d
}

const GOOD: &str = "OpCapability Shader\nOpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 1 1 1\n%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%main = OpFunction %void None %fn\n%entry = OpLabel\nOpReturn\nOpFunctionEnd\n";

/// A tree: `in/a.spv`, `in/sub/b.spv`, `in/sub/deeper/c.spv` (valid), `in/sub/bad.spv`
/// (its last instruction runs past the end), `in/notes.txt` (not taken), and the
/// assembly of each valid one beside it as `.spvasm`.
fn tree(tag: &str) -> PathBuf {
    let root = scratch(tag);
    let words = assemble_str(GOOD, &AsmOptions::default()).expect("assembles");
    let bytes = spirv_core::binary::words_to_bytes(&words);
    for (i, name) in ["in/a", "in/sub/b", "in/sub/deeper/c"].iter().enumerate() {
        let p = root.join(name);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p.with_extension("spv"), &bytes).expect("write");
        std::fs::write(
            p.with_extension("spvasm"),
            GOOD.replace("main", &format!("main{i}")),
        )
        .expect("write");
    }
    let mut bad = words.clone();
    if let Some(last) = bad.last_mut() {
        *last = (4 << 16) | (*last & 0xffff);
    }
    std::fs::write(
        root.join("in/sub/bad.spv"),
        spirv_core::binary::words_to_bytes(&bad),
    )
    .expect("write");
    std::fs::write(
        root.join("in/sub/bad.spvasm"),
        "OpCapability Shader\nOpFoo\n",
    )
    .expect("write");
    std::fs::write(root.join("in/notes.txt"), "not a module").expect("write");
    root
}

/// Every file under `dir`, relative, sorted, with its bytes.
fn listing(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("read_dir") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p
                    .strip_prefix(dir)
                    .expect("under")
                    .to_string_lossy()
                    .into_owned();
                out.push((rel, std::fs::read(&p).expect("read")));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn dis_mirrors_the_tree_the_same_on_one_or_two_jobs() {
    let root = tree("dis");
    let (code, stdout, stderr) = run(&root, &["dis", "-j", "1", "in", "-o", "out1"]);
    assert_eq!(code, 252, "the worst exit code: the truncated module's");
    assert!(stdout.is_empty());
    assert!(
        stderr.contains("error: in/sub/bad.spv: word "),
        "the error names its file and word: {stderr}"
    );
    assert!(
        stderr.contains("dis: 4 files, 3 succeeded, 1 failed"),
        "{stderr}"
    );
    let one = listing(&root.join("out1"));
    let names: Vec<&str> = one.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["a.spvasm", "sub/b.spvasm", "sub/deeper/c.spvasm"]);
    // Each output is what the single-file run prints.
    let (code, single, _) = run(&root, &["dis", "in/a.spv"]);
    assert_eq!(code, 0);
    assert_eq!(one[0].1, single.as_bytes());
    let (_, _, _) = run(&root, &["dis", "-j", "2", "in", "-o", "out2"]);
    assert_eq!(listing(&root.join("out2")), one);
    let _ = std::fs::remove_dir_all(&root);
}

/// The walk: each folder's names in byte order (upper case before lower), a folder's
/// files where its name sorts, a symlink to a file taken, a symlinked folder and a
/// dangling symlink not; the records in that order whatever the job count.
#[cfg(unix)]
#[test]
fn the_walk_orders_by_name_and_takes_symlinked_files_only() {
    let root = scratch("walk");
    let small = assemble_str(GOOD, &AsmOptions::default()).expect("assembles");
    let large = assemble_str(
        &format!("{}{GOOD}", "OpCapability Int64\n".repeat(400)),
        &AsmOptions::default(),
    )
    .expect("assembles");
    assert!(large.len() > 10 * small.len());
    for (name, words) in [
        ("in/b.spv", &small),
        ("in/B.spv", &small),
        ("in/a/z.spv", &large),
        ("in/a0.spv", &small),
        ("elsewhere/x.spv", &small),
        ("elsewhere/dir/y.spv", &small),
    ] {
        let p = root.join(name);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, spirv_core::binary::words_to_bytes(words)).expect("write");
    }
    let link = |to: &str, at: &str| {
        std::os::unix::fs::symlink(root.join(to), root.join(at)).expect("symlink");
    };
    link("elsewhere/x.spv", "in/c.spv");
    link("elsewhere/dir", "in/d.spv");
    link("elsewhere/missing.spv", "in/e.spv");
    let mut seen = Vec::new();
    for jobs in ["1", "2"] {
        let out = format!("out{jobs}");
        let (code, stdout, stderr) = run(&root, &["dis", "--json", "-j", jobs, "in", "-o", &out]);
        assert_eq!(code, 0, "{stderr}");
        let inputs: Vec<String> = stdout
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("JSON"))
            .filter(|r| r["type"] == "file")
            .map(|r| r["input"].as_str().unwrap_or("").to_owned())
            .collect();
        assert_eq!(
            inputs,
            [
                "in/B.spv",
                "in/a/z.spv",
                "in/a0.spv",
                "in/b.spv",
                "in/c.spv"
            ],
            "-j {jobs}"
        );
        seen.push(listing(&root.join(&out)));
    }
    assert_eq!(seen[0], seen[1]);
    assert_eq!(seen[0].len(), 5);
    let _ = std::fs::remove_dir_all(&root);
}

/// A folder of more files than are given before it is sorted (16 a job), good and bad,
/// small and large in turn: errors and records come in name order, every output equals
/// the single-file run's (the workers' kept buffers never leak one file into the next),
/// whatever the job count.
#[test]
fn a_large_folder_reports_in_name_order_with_kept_buffers() {
    let root = scratch("early");
    let small = assemble_str(GOOD, &AsmOptions::default()).expect("assembles");
    let large = assemble_str(
        &format!("{}{GOOD}", "OpCapability Int64\n".repeat(20_000)),
        &AsmOptions::default(),
    )
    .expect("assembles");
    let mut bad = small.clone();
    if let Some(last) = bad.last_mut() {
        *last = (4 << 16) | (*last & 0xffff);
    }
    std::fs::create_dir_all(root.join("in")).expect("mkdir");
    let mut names = Vec::new();
    for i in 0..90 {
        let name = format!("m{:03}.spv", (i * 37) % 90);
        let mut bytes = spirv_core::binary::words_to_bytes(match i % 9 {
            0 => &large,
            4 => &bad,
            _ => &small,
        });
        if i % 9 == 7 {
            bytes.pop();
        }
        std::fs::write(root.join("in").join(&name), bytes).expect("write");
        names.push(name);
    }
    names.sort();
    let mut seen = Vec::new();
    for jobs in ["1", "2", "3"] {
        let out = format!("out{jobs}");
        let (code, stdout, stderr) = run(&root, &["dis", "--json", "-j", jobs, "in", "-o", &out]);
        assert_ne!(code, 0);
        let records: Vec<serde_json::Value> = stdout
            .lines()
            .map(|l| serde_json::from_str(l).expect("JSON"))
            .filter(|r: &serde_json::Value| r["type"] == "file")
            .collect();
        let inputs: Vec<String> = records
            .iter()
            .map(|r| r["input"].as_str().unwrap_or("").to_owned())
            .collect();
        let expected: Vec<String> = names.iter().map(|n| format!("in/{n}")).collect();
        assert_eq!(inputs, expected, "-j {jobs}: {stderr}");
        let (_, _, text) = run(
            &root,
            &["dis", "-q", "-j", jobs, "in", "-o", &format!("t{jobs}")],
        );
        let failed: Vec<&str> = text.lines().filter(|l| l.starts_with("error: ")).collect();
        let mut sorted = failed.clone();
        sorted.sort();
        assert_eq!(failed, sorted, "-j {jobs}: errors in name order");
        assert_eq!(failed.len(), 20, "-j {jobs}: {text}");
        seen.push(listing(&root.join(&out)));
    }
    assert_eq!(seen[0], seen[1]);
    assert_eq!(seen[0], seen[2]);
    assert_eq!(seen[0].len(), 70);
    for name in ["m000", "m037", "m001"] {
        let (code, single, _) = run(&root, &["dis", &format!("in/{name}.spv")]);
        assert_eq!(code, 0);
        let batch =
            std::fs::read_to_string(root.join(format!("out2/{name}.spvasm"))).expect("output");
        assert_eq!(batch, single, "{name}");
    }
    let _ = std::fs::remove_dir_all(&root);
}

/// Outputs beside their inputs with a name the walk takes (`opt --suffix`) in a folder
/// of many files: none is read back as an input, whatever the job count.
#[test]
fn outputs_made_beside_inputs_are_not_walked() {
    let root = scratch("beside");
    let words = assemble_str(GOOD, &AsmOptions::default()).expect("assembles");
    let bytes = spirv_core::binary::words_to_bytes(&words);
    std::fs::create_dir_all(root.join("in")).expect("mkdir");
    for i in 0..80 {
        std::fs::write(root.join(format!("in/m{i:02}.spv")), &bytes).expect("write");
    }
    for jobs in ["1", "2"] {
        let (code, _, stderr) = run(&root, &["opt", "-q", "-j", jobs, "--suffix", "_o", "in"]);
        assert_eq!(code, 0, "{stderr}");
        let names: Vec<String> = listing(&root.join("in"))
            .into_iter()
            .map(|(n, _)| n)
            .collect();
        assert_eq!(names.len(), 160, "-j {jobs}");
        assert!(names.iter().all(|n| !n.contains("_o_o")), "-j {jobs}");
        for i in 0..80 {
            let _ = std::fs::remove_file(root.join(format!("in/m{i:02}_o.spv")));
        }
    }
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn as_names_line_and_column_and_keeps_going() {
    let root = tree("as");
    let (code, _, stderr) = run(&root, &["as", "in", "-o", "out", "-q"]);
    assert_eq!(code, 247, "spirv-as's code for an unknown opcode");
    assert_eq!(
        stderr,
        "error: in/sub/bad.spvasm:2:1: Invalid Opcode name 'OpFoo' (did you mean 'OpNop'?)\n",
        "--quiet: only the errors"
    );
    assert_eq!(listing(&root.join("out")).len(), 3);
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn json_records_one_line_per_file_then_a_summary() {
    let root = tree("json");
    let (code, stdout, stderr) = run(&root, &["val", "--json", "in"]);
    assert_eq!(code, 1);
    assert!(stderr.is_empty(), "{stderr}");
    let records: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect();
    assert_eq!(records.len(), 5);
    let inputs: Vec<&str> = records[..4]
        .iter()
        .map(|r| r["input"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(
        inputs,
        [
            "in/a.spv",
            "in/sub/b.spv",
            "in/sub/bad.spv",
            "in/sub/deeper/c.spv"
        ]
    );
    assert_eq!(records[2]["status"], "error");
    assert_eq!(records[2]["exit_code"], 1);
    // The message is clean (no `error: PATH:N:` head, no newline); the place is in
    // its own keys.
    let message = records[2]["message"].as_str().unwrap_or("");
    assert!(
        message.starts_with("Invalid instruction OpFunctionEnd"),
        "{message}"
    );
    assert!(!message.contains('\n'), "{message}");
    assert_eq!(records[2]["line"], 10);
    assert!(records[2]["word"].is_u64(), "{}", records[2]);
    assert_eq!(records[2]["errors"][0]["message"], records[2]["message"]);
    assert_eq!(records[0]["status"], "ok");
    assert_eq!(records[4]["type"], "summary");
    assert_eq!(records[4]["succeeded"], 3);
    assert_eq!(records[4]["failed"], 1);
    let _ = std::fs::remove_dir_all(&root);
}

/// Every subcommand's `--json` records have one shape: the same keys, a message of one
/// line without its `error: ` head, the place in `line`/`column`/`word`.
#[test]
fn json_records_have_one_shape_for_every_subcommand() {
    let root = tree("json-shape");
    std::fs::write(root.join("in/odd.spv"), [3u8, 2, 0x23, 7, 0, 1]).expect("write");
    let keys = |r: &serde_json::Value| -> Vec<String> {
        r.as_object()
            .map(|o| o.keys().cloned().collect())
            .unwrap_or_default()
    };
    let mut shapes = Vec::new();
    for args in [
        &["as", "--json", "in", "-o", "o-as"][..],
        &["dis", "--json", "in", "-o", "o-dis"],
        &["val", "--json", "--keep-going", "in"],
        &["reflect", "--json", "in", "-o", "o-reflect"],
        &["cfg", "--json", "in", "-o", "o-cfg"],
        &["opt", "--json", "in", "-o", "o-opt"],
    ] {
        let (code, stdout, stderr) = run(&root, args);
        assert_ne!(code, 0, "{args:?}: one input fails");
        assert!(stderr.is_empty(), "{args:?}: {stderr}");
        let records: Vec<serde_json::Value> = stdout
            .lines()
            .map(|l| serde_json::from_str(l).expect("each line is JSON"))
            .collect();
        let (summary, files) = records.split_last().expect("records");
        assert_eq!(summary["type"], "summary");
        assert_eq!(summary["command"], args[0]);
        for r in files {
            assert_eq!(r["command"], args[0]);
            shapes.push((args[0], keys(r)));
            let errors = r["errors"].as_array().expect("errors is a list");
            if r["status"] == "ok" {
                assert!(errors.is_empty() && r["message"].is_null(), "{r}");
                continue;
            }
            let message = r["message"].as_str().expect("a failure has a message");
            assert!(
                !message.contains('\n') && !message.starts_with("error"),
                "{args:?}: {message:?}"
            );
            assert_eq!(errors[0]["message"], r["message"], "{r}");
            for k in ["line", "column", "word"] {
                assert_eq!(errors[0][k], r[k], "{r}");
            }
            let input = r["input"].as_str().unwrap_or("");
            if input.ends_with("odd.spv") {
                // Batch errors name their file, never `'-'`.
                assert!(message.contains("'in/odd.spv'"), "{args:?}: {message}");
            }
        }
    }
    let first = shapes[0].1.clone();
    for (command, shape) in &shapes {
        assert_eq!(shape, &first, "{command}'s record against as's");
    }
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn in_place_suffix_and_named_files() {
    let root = tree("beside");
    let (code, _, _) = run(
        &root,
        &["reflect", "--in-place", "in/a.spv", "in/sub/b.spv"],
    );
    assert_eq!(code, 0);
    assert!(root.join("in/a.json").is_file() && root.join("in/sub/b.json").is_file());
    let (code, _, _) = run(
        &root,
        &["cfg", "--format", "svg", "--suffix", ".cfg", "in/a.spv"],
    );
    assert_eq!(code, 0);
    let svg = std::fs::read_to_string(root.join("in/a.cfg.svg")).expect("written");
    assert!(svg.contains("<svg"));
    // --ext picks what directories give: here only the text file, which is no module.
    let (code, _, stderr) = run(&root, &["dis", "--ext", "txt", "in", "-o", "t"]);
    assert_eq!(code, 252);
    assert!(
        stderr.starts_with("error: in/notes.txt: Module has incomplete header"),
        "{stderr}"
    );
    assert!(
        stderr.contains("dis: 1 files, 0 succeeded, 1 failed"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn refusals_write_nothing() {
    let root = tree("refuse");
    let (code, _, stderr) = run(&root, &["dis", "in/a.spv", "in/sub/b.spv"]);
    assert_eq!(code, 1);
    assert!(stderr.contains("-o DIR"), "{stderr}");
    let (code, _, stderr) = run(
        &root,
        &["dis", "in/a.spv", "in/sub/deeper/c.spv", "-o", "x"],
    );
    // Named files go to DIR by their names: a.spvasm and c.spvasm.
    assert_eq!(code, 0, "{stderr}");
    let (code, _, stderr) = run(&root, &["dis", "in/a.spv", "in/a.spv", "-o", "y"]);
    assert_eq!(code, 1);
    assert!(stderr.contains("would both write"), "{stderr}");
    assert!(!root.join("y").exists());
    let (code, _, stderr) = run(&root, &["val", "in", "-o", "z"]);
    assert_ne!(code, 0, "{stderr}");
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn one_folder_for_val_prints_what_spirv_val_prints() {
    let root = tree("valdir");
    let (code, stdout, stderr) = run(&root, &["val", "in"]);
    assert_eq!(code, 1);
    assert!(stdout.is_empty());
    assert!(stderr.starts_with("error: in/sub/bad.spv:"), "{stderr}");
    assert!(!stderr.contains("files,"), "no summary line: {stderr}");
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn opt_over_a_tree_in_place_and_to_a_directory() {
    let root = tree("opt");
    let (code, _, stderr) = run(&root, &["opt", "--strip-debug", "in", "-o", "out", "-q"]);
    assert_eq!(code, 1, "the truncated module fails validation");
    assert!(stderr.starts_with("error: in/sub/bad.spv: "), "{stderr}");
    let out = listing(&root.join("out"));
    assert_eq!(out.len(), 3);
    // The same bytes as the single-file run.
    let (code, _, _) = run(
        &root,
        &["opt", "--strip-debug", "in/a.spv", "-o", "one.spv"],
    );
    assert_eq!(code, 0);
    assert_eq!(
        std::fs::read(root.join("one.spv")).expect("written"),
        out[0].1
    );
    // Two inputs without a destination: refused, as spirv-opt refuses them.
    let (code, _, stderr) = run(&root, &["opt", "in/a.spv", "in/sub/b.spv"]);
    assert_eq!(code, 1);
    assert!(stderr.contains("-o DIR"), "{stderr}");
    let (code, _, stderr) = run(
        &root,
        &[
            "opt",
            "--compact-ids",
            "--in-place",
            "in/a.spv",
            "in/sub/b.spv",
            "-q",
        ],
    );
    assert_eq!((code, stderr.as_str()), (0, ""));
    assert_eq!(
        std::fs::read(root.join("in/a.spv")).expect("kept"),
        out[0].1
    );
    let _ = std::fs::remove_dir_all(&root);
}

/// The walk hands inputs over as it goes: a collision it finds only at the end of a
/// long walk still refuses before any output is written or any file reported, on any
/// job count; so do two extensions that give one folder's files one output.
#[test]
fn late_collisions_write_nothing() {
    let root = tree("late");
    let words = assemble_str(GOOD, &AsmOptions::default()).expect("assembles");
    let bytes = spirv_core::binary::words_to_bytes(&words);
    for i in 0..200 {
        let p = root.join(format!("many/m{i:03}.spv"));
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, &bytes).expect("write");
    }
    std::fs::create_dir_all(root.join("late")).expect("mkdir");
    std::fs::write(root.join("late/m199.spv"), &bytes).expect("write");
    // A bad module early in the walk: its error must not be printed either.
    std::fs::write(root.join("many/m000.spv"), b"bad!").expect("write");
    for jobs in ["1", "2"] {
        let (code, stdout, stderr) = run(&root, &["dis", "-j", jobs, "many", "late", "-o", "out"]);
        assert_eq!(code, 1);
        assert!(stdout.is_empty());
        assert_eq!(
            stderr,
            "error: 'many/m199.spv' and 'late/m199.spv' would both write 'out/m199.spvasm'\n"
        );
        assert!(!root.join("out").exists(), "-j {jobs}: nothing written");
    }
    std::fs::write(root.join("many/m100.bin"), &bytes).expect("write");
    let (code, _, stderr) = run(&root, &["dis", "--ext", "spv,bin", "many", "-o", "out"]);
    assert_eq!(code, 1);
    assert_eq!(
        stderr,
        "error: 'many/m100.bin' and 'many/m100.spv' would both write 'out/m100.spvasm'\n"
    );
    assert!(!root.join("out").exists());
    let _ = std::fs::remove_dir_all(&root);
}

/// An output folder inside the input folder: what the run writes there is never taken
/// as input, even where the outputs have the inputs' extension (`opt`), so a second
/// run takes the first run's outputs but not its own.
#[test]
fn an_output_folder_inside_the_input_is_not_walked_twice() {
    let root = tree("inside");
    for (run_no, files) in [(1, 4), (2, 7)] {
        let (code, _, stderr) = run(&root, &["opt", "-j", "2", "in", "-o", "in/out"]);
        assert_eq!(code, 1, "run {run_no}: the truncated module: {stderr}");
        assert!(
            stderr.contains(&format!("opt: {files} files")),
            "run {run_no}: {stderr}"
        );
        assert!(!root.join("in/out/out/out").exists(), "run {run_no}");
    }
    let _ = std::fs::remove_dir_all(&root);
}

/// Sets `path`'s modification time to 2001, so that a later touch shows.
fn age(path: &Path) {
    let old = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000_000);
    std::fs::File::options()
        .write(true)
        .open(path)
        .and_then(|f| f.set_modified(old))
        .expect("set mtime");
}

#[test]
fn a_second_run_keeps_identical_outputs_touched_and_replaces_changed_ones() {
    use std::os::unix::fs::MetadataExt;
    let root = tree("rerun");
    for j in ["1", "2"] {
        let out = format!("out{j}");
        run(&root, &["dis", "-j", j, "in", "-o", &out]);
        let first = listing(&root.join(&out));
        let meta = |p: &str| std::fs::metadata(root.join(&out).join(p)).expect("there");
        let (a, c) = ("a.spvasm", "sub/deeper/c.spvasm");
        age(&root.join(&out).join(a));
        let a_ino = meta(a).ino();
        // An output changed by hand, and one that a failing input left behind.
        std::fs::write(root.join(&out).join(c), "changed by hand").expect("write");
        let c_ino = meta(c).ino();
        std::fs::write(root.join(&out).join("sub/bad.spvasm"), "old").expect("write");
        let (code, _, stderr) = run(&root, &["dis", "-j", j, "in", "-o", &out]);
        assert_eq!(code, 252, "{stderr}");
        // The identical output is the same file, its time now.
        assert_eq!(meta(a).ino(), a_ino, "-j {j}: not rewritten");
        let touched = meta(a).modified().expect("mtime");
        assert!(
            touched.elapsed().expect("past") < std::time::Duration::from_secs(3600),
            "-j {j}: touched"
        );
        // The changed one replaced, through a new file.
        assert_ne!(meta(c).ino(), c_ino, "-j {j}: replaced");
        let mut again = listing(&root.join(&out));
        assert!(again.contains(&("sub/bad.spvasm".to_owned(), b"old".to_vec())));
        again.retain(|(n, _)| n != "sub/bad.spvasm");
        assert_eq!(again, first, "-j {j}");
        // An input whose output changes: replaced.
        let other = assemble_str(&GOOD.replace("main", "other"), &AsmOptions::default())
            .expect("assembles");
        let b = root.join("in/sub/b.spv");
        let old_b = std::fs::read(&b).expect("read");
        std::fs::write(&b, spirv_core::binary::words_to_bytes(&other)).expect("write");
        run(&root, &["dis", "-j", j, "in", "-o", &out]);
        let text = std::fs::read_to_string(root.join(&out).join("sub/b.spvasm")).expect("read");
        assert!(text.contains("\"other\""), "-j {j}: {text}");
        std::fs::write(&b, old_b).expect("write");
    }
    // No temporary file is left anywhere.
    for (name, _) in listing(&root) {
        assert!(!name.ends_with(".tmp"), "{name}");
    }
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn an_output_that_cannot_be_replaced_is_an_error_that_leaves_it() {
    use std::os::unix::fs::PermissionsExt;
    let root = tree("readonly");
    let (code, _, _) = run(&root, &["dis", "in", "-o", "out"]);
    assert_eq!(code, 252);
    // A folder where an output goes: that file fails, the others are written.
    std::fs::remove_file(root.join("out/a.spvasm")).expect("rm");
    std::fs::create_dir_all(root.join("out/a.spvasm/x")).expect("mkdir");
    let (code, _, stderr) = run(&root, &["dis", "in", "-o", "out"]);
    assert_eq!(code, 252, "{stderr}");
    assert!(
        stderr.contains("error: in/a.spv: cannot write output file 'out/a.spvasm': Is a directory"),
        "{stderr}"
    );
    assert!(
        stderr.contains("dis: 4 files, 2 succeeded, 2 failed"),
        "{stderr}"
    );
    assert!(root.join("out/a.spvasm/x").is_dir());
    // A read-only folder: a changed output cannot be replaced, and stays as it was.
    let sub = root.join("out/sub");
    std::fs::write(sub.join("b.spvasm"), "old").expect("write");
    std::fs::set_permissions(&sub, std::fs::Permissions::from_mode(0o555)).expect("chmod");
    // Root writes there anyway: then the run is made as nobody (util-linux's setpriv),
    // to whom the folder is closed; without setpriv that part is skipped.
    let args = ["dis", "in/sub/b.spv", "in/sub/bad.spv", "-o", "out/sub"];
    let as_root = std::fs::write(sub.join("probe"), "").is_ok();
    let nobody = ["--reuid=65534", "--regid=65534", "--clear-groups"];
    let outcome = if !as_root {
        Some(run(&root, &args))
    } else if Command::new("setpriv")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
    {
        let exe = exe();
        let mut all: Vec<&str> = nobody.to_vec();
        all.push(exe.to_str().expect("utf-8 path"));
        all.extend(args);
        let out = Command::new("setpriv")
            .args(&all)
            .current_dir(&root)
            .env_remove("CI")
            .output()
            .expect("runs");
        Some((
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        ))
    } else {
        eprintln!("note: root without setpriv: the read-only folder part is skipped");
        None
    };
    if let Some((code, _, stderr)) = outcome {
        assert_eq!(code, 252, "{stderr}");
        assert!(
            stderr.contains(
                "error: in/sub/b.spv: cannot write output file 'out/sub/b.spvasm': Permission denied"
            ),
            "{stderr}"
        );
        assert_eq!(std::fs::read(sub.join("b.spvasm")).expect("read"), b"old");
    }
    std::fs::set_permissions(&sub, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let _ = std::fs::remove_dir_all(&root);
}
