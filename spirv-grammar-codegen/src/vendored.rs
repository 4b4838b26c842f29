//! The grammars vendored in `spirv-grammar-data` (or the folder `SPIRV_GRAMMAR_DIR`
//! names at build time), as this crate's build script found them: where they are and
//! which extended instruction sets there are. `include_grammar!(…, vendored = true)`
//! and `for_each_vendored_set!` read this.

/// One vendored extended instruction set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Set {
    /// The module spirv-core gives it under `ext`.
    pub module: &'static str,
    /// The grammar file, in [`DIR`].
    pub file: &'static str,
    /// The `include_grammar!` option that says how an import name selects it:
    /// `import`, `import_prefix` or `import_stem`.
    pub import_key: &'static str,
    /// That option's value.
    pub import: &'static str,
}

include!(concat!(env!("OUT_DIR"), "/vendored_sets.rs"));
