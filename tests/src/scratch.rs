//! Scratch crates for tests that build a crate the way a user would: outside the
//! workspace, depending on its crates by path, with their own target folder.

use std::path::{Path, PathBuf};
use std::process::Command;

/// `cargo run` (quiet, offline) in `dir`; its standard output, trimmed. Panics with the
/// build's errors if it fails.
pub fn cargo_run(dir: &Path, target: &Path) -> String {
    cargo_run_with(dir, target, None)
}

/// [`cargo_run`] with the vendored grammar folder replaced by `grammars`
/// (`SPIRV_GRAMMAR_DIR`).
pub fn cargo_run_with(dir: &Path, target: &Path, grammars: Option<&Path>) -> String {
    cargo_run_args(dir, target, grammars, &[])
}

/// [`cargo_run_with`], passing `args` to the program.
pub fn cargo_run_args(dir: &Path, target: &Path, grammars: Option<&Path>, args: &[&str]) -> String {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.args(["run", "--quiet", "--offline", "--"])
        .args(args)
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target);
    match grammars {
        Some(g) => cmd.env("SPIRV_GRAMMAR_DIR", g),
        None => cmd.env_remove("SPIRV_GRAMMAR_DIR"),
    };
    let out = cmd.output().expect("cargo runs");
    assert!(
        out.status.success(),
        "scratch build failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// A scratch crate `name` under `target/` that depends on spirv-core, the grammar
/// macros and spirv-asm-macros by path; returns its folder.
pub fn scratch_crate(name: &str) -> PathBuf {
    let root = crate::workspace_root();
    let dir = root.join("target").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("src")).expect("mkdir");
    let manifest = format!(
        "[package]\nname = {name:?}\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n[workspace]\n\n[dependencies]\nspirv-core = {{ path = {:?} }}\nspirv-grammar-macros = {{ path = {:?} }}\nspirv-asm-macros = {{ path = {:?} }}\n",
        root.join("spirv-core"),
        root.join("spirv-grammar-macros"),
        root.join("spirv-asm-macros")
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).expect("manifest");
    // Reuse the workspace's lock file so that the scratch build resolves offline.
    let _ = std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock"));
    dir
}
