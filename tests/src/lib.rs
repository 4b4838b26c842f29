//! Shared helpers for the workspace-level integration tests in `tests/tests/`.

use std::path::Path;

/// The workspace README's Rust examples, compiled and run by `cargo test --doc -p
/// spirv-tests` (this crate depends on every crate they use).
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeExamples;

/// The crates' own READMEs and the downstream example's, run the same way. Their grammar
/// paths are relative to the crate they describe; `tests/grammar/` links those files so
/// that they resolve from this crate too.
#[cfg(doctest)]
pub mod crate_readmes {
    #[doc = include_str!("../../spirv-core/README.md")]
    pub struct SpirvCore;
    #[doc = include_str!("../../spirv-asm/README.md")]
    pub struct SpirvAsm;
    #[doc = include_str!("../../spirv-asm-macros/README.md")]
    pub struct SpirvAsmMacros;
    #[doc = include_str!("../../spirv-opt/README.md")]
    pub struct SpirvOpt;
    #[doc = include_str!("../../spirv-grammar-codegen/README.md")]
    pub struct SpirvGrammarCodegen;
    #[doc = include_str!("../../spirv-grammar-macros/README.md")]
    pub struct SpirvGrammarMacros;
    #[doc = include_str!("../../spirv-tools-compat/README.md")]
    pub struct SpirvToolsCompat;
    #[doc = include_str!("../../examples/downstream/README.md")]
    pub struct Downstream;
}

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
mod readme;
pub mod reference;
pub mod renames;
pub mod scratch;
pub mod semantic;
pub mod val_compare;
pub mod val_fixture;
pub mod valsuite;
