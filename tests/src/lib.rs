//! Shared helpers for the workspace-level integration tests in `tests/tests/`.

use std::path::{Path, PathBuf};

/// The workspace root.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

/// The corpus directory: `$SPIRV_CORPUS`, else `../shared/corpus` beside the workspace.
/// Prints a visible SKIP message and returns `None` when it is absent.
pub fn corpus_dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("SPIRV_CORPUS") {
        Some(d) => PathBuf::from(d),
        None => workspace_root().join("../shared/corpus"),
    };
    if dir.join("bin").is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "SKIP: SPIR-V corpus not found at {} (set SPIRV_CORPUS=dir)",
            dir.display()
        );
        println!(
            "SKIP: SPIR-V corpus not found at {} (set SPIRV_CORPUS=dir)",
            dir.display()
        );
        None
    }
}

/// Whether the `spirv-as` on PATH is SPIRV-Tools v2025.5 (Debian's is v2023.1 and differs).
pub fn spirv_as_2025_5() -> bool {
    std::process::Command::new("spirv-as")
        .arg("--version")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("v2025.5"))
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

/// Reads little-endian words.
pub fn read_words(path: &Path) -> Vec<u32> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// The file stem as a string.
pub fn stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

pub mod example_set;
