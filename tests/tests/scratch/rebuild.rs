//! Grammar changes rebuild what is generated from them, with no other edit:
//! - a scratch crate's own grammar gains an instruction, and the rebuilt binary sees it;
//!   then code using the new instruction's type compiles;
//! - a copy of `grammar/` gains an extended set (as a newer SPIRV-Headers would bring)
//!   and spirv-core, built from that copy, knows it; removing the file again rebuilds
//!   without it;
//! - a file `include_spirv_asm!` embeds is edited, and the rebuilt binary has the new
//!   words.
//!
//! Each test builds scratch crates with cargo, cold: they run only with
//! `SPIRV_SCRATCH_TESTS=1` (`.ci/run` runs them as a step of their own).

use spirv_tests::scratch::{cargo_run, cargo_run_with, scratch_crate};
use spirv_tests::scratch_tests;

const GRAMMAR_V1: &str = r#"{ "revision": 1, "instructions": [
  { "opname": "First", "opcode": 1, "operands": [ { "kind": "IdRef", "name": "A" } ] } ] }"#;
const GRAMMAR_V2: &str = r#"{ "revision": 1, "instructions": [
  { "opname": "First", "opcode": 1, "operands": [ { "kind": "IdRef", "name": "A" } ] },
  { "opname": "Second", "opcode": 2, "operands": [ { "kind": "LiteralInteger", "name": "N" } ] } ] }"#;

#[test]
fn editing_the_grammar_rebuilds_the_including_crate() {
    if !scratch_tests("a grammar edit rebuilds the including crate") {
        return;
    }
    let root = spirv_tests::workspace_root();
    let dir = scratch_crate("rebuild-scratch");
    let target = root.join("target/rebuild-scratch-target");
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

#[test]
fn a_set_added_to_the_grammar_folder_is_generated_with_no_edit() {
    if !scratch_tests("a set added to the grammar folder is generated") {
        return;
    }
    let root = spirv_tests::workspace_root();
    let dir = scratch_crate("grammar-update-scratch");
    let target = root.join("target/grammar-update-scratch-target");
    let grammars = dir.join("grammar");
    std::fs::create_dir_all(&grammars).expect("mkdir");
    for entry in std::fs::read_dir(root.join("grammar")).expect("grammar dir") {
        let path = entry.expect("entry").path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if name.ends_with(".json") || name.ends_with(".xml") {
            std::fs::copy(&path, grammars.join(name)).expect("copy");
        }
    }
    // A set no list names: its module and import name come from the file name.
    let new_set = grammars.join("extinst.nonsemantic.scratch-set.grammar.json");
    std::fs::copy(
        root.join("tests/fixtures/nonsemantic.example.grammar.json"),
        &new_set,
    )
    .expect("new set");
    let main = "fn main() {\n    let r = spirv_core::ExtInstRegistry::default();\n    let n = r.lookup(b\"NonSemantic.ScratchSet.3\").map(|g| g.instructions.len());\n    println!(\"{n:?} {}\", spirv_core::ext::VENDORED.len());\n}\n";
    std::fs::write(dir.join("src/main.rs"), main).expect("main");
    let sets = spirv_core::ext::VENDORED.len();
    assert_eq!(
        cargo_run_with(&dir, &target, Some(&grammars)),
        format!("Some(3) {}", sets + 1)
    );
    // The module is there, named after the file.
    let named =
        "fn main() { println!(\"{}\", spirv_core::ext::nonsemantic_scratch_set::GRAMMAR.name); }\n";
    std::fs::write(dir.join("src/main.rs"), named).expect("main");
    let out = cargo_run_with(&dir, &target, Some(&grammars));
    assert_eq!(out, "nonsemantic.scratch-set");

    // Removing the file rebuilds without the set.
    std::fs::write(dir.join("src/main.rs"), main).expect("main");
    std::fs::remove_file(&new_set).expect("remove");
    assert_eq!(
        cargo_run_with(&dir, &target, Some(&grammars)),
        format!("None {sets}")
    );
}

#[test]
fn editing_an_included_spvasm_file_rebuilds_the_crate() {
    if !scratch_tests("an edited include_spirv_asm! file rebuilds the crate") {
        return;
    }
    let root = spirv_tests::workspace_root();
    let dir = scratch_crate("asm-rebuild-scratch");
    let target = root.join("target/asm-rebuild-scratch-target");
    std::fs::write(dir.join("shader.spvasm"), "OpCapability Shader\n").expect("text");
    let main = "const W: &[u32] = spirv_asm_macros::include_spirv_asm!(\"shader.spvasm\");\nfn main() { println!(\"{:?}\", &W[5..]); }\n";
    std::fs::write(dir.join("src/main.rs"), main).expect("main");
    assert_eq!(cargo_run(&dir, &target), "[131089, 1]");

    // Only the text changes: the next build must pick it up.
    std::fs::write(
        dir.join("shader.spvasm"),
        "OpCapability Shader\nOpMemoryModel Logical GLSL450\n",
    )
    .expect("text v2");
    assert_eq!(cargo_run(&dir, &target), "[131089, 1, 196622, 0, 1]");
}
