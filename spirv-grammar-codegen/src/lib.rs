//! The engine behind `include_grammar!`: reads a SPIR-V JSON grammar into a checked
//! [`model::Grammar`] and emits Rust items for it.
//!
//! It is a plain library so that benches, tests and dump tools can call it; the
//! proc-macro crate `spirv-grammar-macros` only parses its arguments and forwards here.
//!
//! - serde_json reads the grammar ([`model::parse`]);
//! - quote and proc-macro2 write the items ([`emit`]), as a [`TokenStream`] (the bulk
//!   of it written as source text and lexed once);
//! - syn parses the macros' arguments ([`macro_args`]);
//! - heck turns grammar names into Rust names ([`naming`]).
//!
//! Emitting is the default feature `emit`. Without it only the model and the
//! [`name_table`] layout remain, on serde_json alone: what a tool that loads a grammar
//! at run time needs (the `spirv-asm` CLI's `--grammar`).
//!
//! ```
//! let json = r#"{ "revision": 1, "instructions": [
//!     { "opname": "Hello", "opcode": 0, "operands": [ { "kind": "IdRef", "name": "Who" } ] } ] }"#;
//! let opts = spirv_grammar_codegen::Options::new("NonSemantic.Hello");
//! let items = spirv_grammar_codegen::expand(json, &opts, None).expect("a valid grammar");
//! assert!(items.to_string().contains("pub struct Hello"));
//! ```

#[cfg(feature = "emit")]
pub mod emit;
#[cfg(feature = "emit")]
pub mod macro_args;
pub mod model;
pub mod name_table;
#[cfg(feature = "emit")]
pub mod naming;
pub mod vendored;

use model::{Category, ExternalKind};
#[cfg(feature = "emit")]
pub use proc_macro2::TokenStream;

/// The core grammar's operand kinds, which extended grammars may use without defining.
pub const CORE_KINDS: &[ExternalKind] = include!(concat!(env!("OUT_DIR"), "/core_kinds.rs"));

/// The core grammar's `Capability` enumerants: every name, aliases included, with its
/// value. An extended grammar names capabilities; its tables hold their values.
pub const CORE_CAPABILITIES: &[(&str, u32)] =
    include!(concat!(env!("OUT_DIR"), "/core_capabilities.rs"));

#[cfg(feature = "emit")]
/// Settings of one expansion.
#[derive(Debug, Clone)]
pub struct Options {
    /// Path of the runtime crate in generated code (`::spirv_core`, or `crate` inside it).
    pub krate: String,
    /// The grammar's name in its tables (`GRAMMAR.name`).
    pub name: String,
    /// An extended set's exact `OpExtInstImport` name.
    pub import: Option<String>,
    /// An extended set's `OpExtInstImport` name prefix (`NonSemantic.ClspvReflection.`).
    pub import_prefix: Option<String>,
    /// A file-name stem (`nonsemantic.foo`) that import names are matched against, for a
    /// set whose import name is not known (see `Grammar::import_stem` in spirv-core).
    pub import_stem: Option<String>,
    /// Emit only the grammar tables (`GRAMMAR`, `kinds`, `tables` and the constants),
    /// without the typed items: enough for the reader, assembler and disassembler to
    /// know the set, at a small part of the compile time.
    pub tables_only: bool,
    /// A feature of the expanding crate that the typed items need: they are marked
    /// `#[cfg_attr(docsrs, doc(cfg(feature = "…")))]`, for the badge on docs.rs.
    pub doc_feature: Option<String>,
    /// Lexes the source text the bulk of the items is written as; `None` (or a `None`
    /// from it) for proc-macro2's `parse`. A proc macro passes the compiler's lexer
    /// (`proc_macro::TokenStream::from_str`, converted): proc-macro2's `parse` checks
    /// the text with its own lexer first, which at opt-level 0 costs more than the
    /// tokens the text saves.
    pub lexer: Option<emit::text::Lexer>,
}

#[cfg(feature = "emit")]
impl Options {
    /// Defaults: runtime crate `::spirv_core`, no import name.
    pub fn new(name: &str) -> Self {
        Options {
            krate: "::spirv_core".into(),
            name: name.into(),
            import: None,
            import_prefix: None,
            import_stem: None,
            tables_only: false,
            doc_feature: None,
            lexer: None,
        }
    }
}

#[cfg(feature = "emit")]
/// Expands a grammar's JSON text into Rust items. `tracked_path`, if given, is an
/// absolute path emitted in an `include_bytes!` so that editing the file rebuilds the
/// invoking crate.
///
/// # Errors
/// Every problem found, each a message naming its JSON location.
pub fn expand(
    json: &str,
    opts: &Options,
    tracked_path: Option<&str>,
) -> Result<TokenStream, Vec<String>> {
    let t0 = std::time::Instant::now();
    let grammar = model::parse(json, CORE_KINDS)
        .map_err(|errs| errs.iter().map(ToString::to_string).collect::<Vec<_>>())?;
    let t1 = t0.elapsed();
    let out = emit::Emitter::new(&grammar, opts, CORE_KINDS)?.run(opts, tracked_path);
    if std::env::var_os("SPIRV_GRAMMAR_TIMING").is_some_and(|v| v == "2") {
        eprintln!(
            "  model {:.1} ms, emit {:.1} ms",
            t1.as_secs_f64() * 1e3,
            (t0.elapsed() - t1).as_secs_f64() * 1e3
        );
    }
    out
}

#[cfg(feature = "emit")]
/// [`expand`], written out as Rust source text (one line, unformatted).
///
/// # Errors
/// Every problem found, each a message naming its JSON location.
pub fn expand_source(
    json: &str,
    opts: &Options,
    tracked_path: Option<&str>,
) -> Result<String, Vec<String>> {
    expand(json, opts, tracked_path).map(|items| items.to_string())
}

/// Whether a kind name is one of the core grammar's.
pub fn is_core_kind(name: &str) -> bool {
    CORE_KINDS.iter().any(|k| k.name == name)
}

#[cfg(feature = "emit")]
/// A table of every Rust name the expansion gives, next to its grammar name: one line
/// per instruction (`inst`), instruction field (`field`, with the operand's kind), kind
/// (`kind`), value enumerant (`value`), mask bit (`bit`) and mask parameter field of a
/// `…Data` type (`param`). Used to review naming changes.
///
/// # Errors
/// The grammar does not parse.
pub fn names_table(json: &str) -> Result<String, Vec<String>> {
    use std::fmt::Write;
    let g = model::parse(json, CORE_KINDS)
        .map_err(|errs| errs.iter().map(ToString::to_string).collect::<Vec<_>>())?;
    let mut s = String::new();
    for i in &g.instructions {
        let _ = writeln!(s, "inst\t{}\t{}", i.opname, naming::instruction(&i.opname));
        let fields = naming::instruction_fields(&i.operands, |kind| g.embeds(kind));
        for (n, (op, f)) in i.operands.iter().zip(fields).enumerate() {
            let _ = writeln!(s, "field\t{}::{n}\t{}\t{f}", i.opname, op.kind);
        }
    }
    for k in &g.kinds {
        let _ = writeln!(s, "kind\t{}\t{}", k.name, naming::kind(&k.name));
        for e in &k.enumerants {
            for n in std::iter::once(&e.name).chain(&e.meta.aliases) {
                match k.category {
                    Category::BitEnum => {
                        let _ =
                            writeln!(s, "bit\t{}::{n}\t{}", k.name, naming::mask_bit(n, &k.name));
                        if !e.parameters.is_empty() && n == &e.name {
                            let _ = writeln!(
                                s,
                                "param\t{}::{n}\t{}.{}",
                                k.name,
                                naming::data(&k.name),
                                naming::mask_field(n)
                            );
                        }
                    }
                    _ => {
                        let _ = writeln!(
                            s,
                            "value\t{}::{n}\t{}",
                            k.name,
                            naming::enumerant(n, &k.name)
                        );
                    }
                }
            }
        }
    }
    Ok(s)
}
