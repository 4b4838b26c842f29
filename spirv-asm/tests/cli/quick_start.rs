//! The README's quick start, run as a newcomer runs it: every `spirv-asm` line of its
//! shell blocks, in order, from a scratch folder holding a copy of the repository's
//! sample shaders (so that the outputs land there, not in the checkout). Each must exit
//! 0; a line the README changes is tried as it then reads.

use std::path::Path;
use std::process::Command;

#[test]
fn every_quick_start_command_runs_as_written() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace root");
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    let dir = std::env::temp_dir().join(format!("spirv-asm-quick-start-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let shaders = dir.join("examples/shaders");
    std::fs::create_dir_all(&shaders).expect("scratch folder");
    for entry in std::fs::read_dir(root.join("examples/shaders")).expect("examples/shaders") {
        let path = entry.expect("entry").path();
        std::fs::copy(&path, shaders.join(path.file_name().expect("a name"))).expect("copy");
    }
    let mut ran = Vec::new();
    let mut in_shell = false;
    for line in readme.lines() {
        match line.trim() {
            "```sh" => in_shell = true,
            "```" => in_shell = false,
            text if in_shell && text.starts_with("spirv-asm ") => {
                // What follows " #" is the README's comment on the command.
                let command = text.split(" #").next().unwrap_or(text).trim();
                let out = Command::new(env!("CARGO_BIN_EXE_spirv-asm"))
                    .args(command.split_whitespace().skip(1))
                    .current_dir(&dir)
                    .output()
                    .expect("spirv-asm runs");
                assert!(
                    out.status.success(),
                    "README quick start: `{command}` exited with {}: {}",
                    out.status,
                    String::from_utf8_lossy(&out.stderr)
                );
                ran.push(command.to_owned());
            }
            _ => {}
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        ran.iter().any(|c| c.starts_with("spirv-asm opt -O")) && ran.len() >= 5,
        "the README's quick start lost its commands: {ran:?}"
    );
}
