//! Editing a grammar file rebuilds the crate that includes it: a scratch crate is built,
//! its grammar gains an instruction (nothing else changes), and the rebuilt binary sees
//! it; then code using the new instruction's type compiles.

use std::path::Path;
use std::process::Command;

fn cargo_run(dir: &Path, target: &Path) -> String {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["run", "--quiet", "--offline"])
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target)
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "scratch build failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

const GRAMMAR_V1: &str = r#"{ "revision": 1, "instructions": [
  { "opname": "First", "opcode": 1, "operands": [ { "kind": "IdRef", "name": "A" } ] } ] }"#;
const GRAMMAR_V2: &str = r#"{ "revision": 1, "instructions": [
  { "opname": "First", "opcode": 1, "operands": [ { "kind": "IdRef", "name": "A" } ] },
  { "opname": "Second", "opcode": 2, "operands": [ { "kind": "LiteralInteger", "name": "N" } ] } ] }"#;

#[test]
fn editing_the_grammar_rebuilds_the_including_crate() {
    let root = spirv_tests::workspace_root();
    let dir = root.join("target/rebuild-scratch");
    let target = root.join("target/rebuild-scratch-target");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("src")).expect("mkdir");
    let manifest = format!(
        "[package]\nname = \"rebuild-scratch\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n[workspace]\n\n[dependencies]\nspirv-core = {{ path = {:?} }}\nspirv-grammar-macros = {{ path = {:?} }}\n",
        root.join("spirv-core"),
        root.join("spirv-grammar-macros")
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).expect("manifest");
    // Reuse the workspace's lock file so that the scratch build resolves offline.
    let _ = std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock"));
    std::fs::write(dir.join("my.grammar.json"), GRAMMAR_V1).expect("grammar");
    let main_v1 = "mod my { spirv_grammar_macros::include_grammar!(\"my.grammar.json\"); }\nfn main() { println!(\"{}\", my::GRAMMAR.instructions.len()); }\n";
    std::fs::write(dir.join("src/main.rs"), main_v1).expect("main");
    assert_eq!(cargo_run(&dir, &target), "1");

    // Only the grammar changes: the next build must pick it up.
    std::fs::write(dir.join("my.grammar.json"), GRAMMAR_V2).expect("grammar v2");
    assert_eq!(cargo_run(&dir, &target), "2");

    // And the new instruction's type is there.
    let main_v2 = "mod my { spirv_grammar_macros::include_grammar!(\"my.grammar.json\"); }\nfn main() { let s = my::inst::Second { n: 42 }; let mut w = Vec::new(); my::Instruction::Second(s).encode_operands(&mut w); println!(\"{:?}\", w); }\n";
    std::fs::write(dir.join("src/main.rs"), main_v2).expect("main v2");
    assert_eq!(cargo_run(&dir, &target), "[42]");
}
