//! Shared helpers for the workspace-level integration tests in `tests/tests/`.

use std::path::Path;

mod env;
pub use env::{
    REQUIRE_VAR, SCRATCH_VAR, corpus_dir, files, require_corpus, require_spirv_tools,
    scratch_tests, skip, spirv_tools, workspace_root,
};

/// Reads little-endian words.
pub fn read_words(path: &Path) -> Vec<u32> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// What the installed spirv-val prints on standard error for `words` under `env`
/// (empty when it accepts them), or `None` where SPIRV-Tools is not installed. The
/// module goes through a scratch file of its own, so concurrent cases do not collide.
pub fn spirv_val_stderr(words: &[u32], env: &str) -> Option<String> {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let bin = spirv_tools()?;
    let path = std::env::temp_dir().join(format!(
        "spirv-tests-val-{}-{}.spv",
        std::process::id(),
        NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ));
    std::fs::write(&path, spirv_core::binary::words_to_bytes(words)).expect("write");
    let out = std::process::Command::new(bin.join("spirv-val"))
        .args(["--target-env", env])
        .arg(&path)
        .output()
        .expect("spirv-val runs");
    let _ = std::fs::remove_file(&path);
    Some(String::from_utf8_lossy(&out.stderr).into_owned())
}

/// The file stem as a string.
pub fn stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

pub mod dis_error_cases;
pub mod example_set;
pub mod mutate;
pub mod opt_cases;
pub mod opt_diff;
pub mod reference;
pub mod renames;
pub mod scratch;
pub mod val_cases;
