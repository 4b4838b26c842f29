//! `include_grammar!`: any SPIR-V JSON grammar becomes typed Rust at compile time.
//!
//! ```
//! // In a crate, next to its Cargo.toml: grammar/nonsemantic.my-set.grammar.json
//! mod my_set {
//!     spirv_grammar_macros::include_grammar!("grammar/nonsemantic.my-set.grammar.json", import = "NonSemantic.MySet");
//! }
//! assert_eq!(my_set::Opcode::from_name("Count"), Some(my_set::Opcode(2)));
//! ```
//!
//! [`include_grammar!`](macro@include_grammar) has a whole example: registering the
//! set, assembling, disassembling and decoding its instructions.
//!
//! # Arguments
//! - a string literal: the grammar file, relative to the invoking crate's
//!   `CARGO_MANIFEST_DIR`. Core grammars (with `magic_number`) and extended-instruction-set
//!   grammars are both accepted, whatever the file is called.
//! - `crate = PATH` (optional): the runtime crate, default `::spirv_core`.
//! - `import = "…"` (optional): an extended set's exact `OpExtInstImport` name.
//! - `import_prefix = "…"` (optional): an import-name prefix, for sets such as
//!   `NonSemantic.ClspvReflection.` whose name carries a version suffix.
//! - `import_stem = "…"` (optional): for a set whose import name is not known, its
//!   file-name stem (`nonsemantic.foo`); import names that spell it in any case, with or
//!   without a `.<digits>` version, select the set (`NonSemantic.Foo`, `NonSemantic.Foo.2`).
//! - `vendored = true` (optional): the file is one of the grammars in the
//!   `spirv-grammar-data` crate, named by file name (`"spirv.core.grammar.json"`), not a
//!   path in the invoking crate. spirv-core's `spv` and `ext` modules use it.
//! - `name = "…"` (optional): the name recorded in `GRAMMAR.name` (default: the import
//!   name, else the file name).
//! - `items = "all" | "tables"` (optional, default `"all"`): `"tables"` emits only the
//!   grammar tables (`GRAMMAR`, `kinds`, `tables`, the constants), not the typed items.
//!   Registering such a set is enough for the reader, assembler and disassembler to know
//!   it; it costs downstream builds a small part of the full expansion. spirv-core's
//!   vendored extended sets use it unless its `typed-ext` feature is on.
//! - `doc_feature = "…"` (optional): a feature of the invoking crate that the typed items
//!   need; they get `#[cfg_attr(docsrs, doc(cfg(feature = "…")))]`, the badge docs.rs
//!   shows (spirv-core's vendored sets pass `"typed-ext"`).
//!
//! # What it emits, in place
//! - `MAGIC_NUMBER`, `MAJOR_VERSION`, `MINOR_VERSION` (core) or `IMPORT_NAME`, `VERSION`
//!   (extended sets), and `REVISION`.
//! - `Opcode`: an open newtype (`u16` for core, `u32` for extended sets) with one
//!   associated constant per instruction, plus `name`, `from_name` and `info`.
//! - One type per ValueEnum/BitEnum kind: an open `u32` newtype with associated constants
//!   (value names as spelled in the grammar; mask bits in SCREAMING_SNAKE_CASE), and, where
//!   enumerants take parameters, a `<Kind>Data` type carrying them. Composite kinds become
//!   tuple type aliases.
//! - `kinds`: a module with one `OperandKind` table static per kind.
//! - `inst`: a module with one struct per instruction, typed fields per operand.
//! - `Instruction`: an enum over all of them plus `Unknown(RawInstruction)`, with
//!   `decode`, `decode_lossless`, `encode_operands`, `opcode` and `visit_ids_mut`.
//! - `GRAMMAR`: the static grammar table (instructions sorted by opcode, kinds, name index).
//!
//! spirv-core's `spv` module (the core grammar) and `ext::*` modules (the vendored
//! extended sets) are the worked examples. The naming rule is documented in
//! `spirv_grammar_codegen::naming`.
//!
//! Editing the grammar file rebuilds the invoking crate: the expansion holds an
//! `include_bytes!` of it. Set `SPIRV_GRAMMAR_TIMING=1` to print each expansion's time.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use spirv_grammar_codegen::macro_args::{self, Errors};
use syn::LitStr;

/// What one invocation asks for.
struct Args {
    file: LitStr,
    opts: spirv_grammar_codegen::Options,
    vendored: bool,
}

/// The options `include_grammar!` takes, in the order its errors list them.
const OPTIONS: &[&str] = &[
    "crate",
    "import",
    "import_prefix",
    "import_stem",
    "name",
    "items",
    "vendored",
    "doc_feature",
];

fn parse(input: TokenStream) -> syn::Result<Args> {
    let macro_args::Args {
        first: file,
        options,
        mut errors,
    } = macro_args::parse(input, "the grammar file", OPTIONS)?;
    let mut opts = spirv_grammar_codegen::Options::new("");
    opts.lexer = Some(compiler_lexer);
    let mut vendored = false;
    let mut name = None;
    for o in &options {
        match o.name().as_str() {
            "crate" => opts.krate = errors.check(o.path()).unwrap_or_default(),
            "import" => opts.import = errors.check(o.string("the import name")),
            "import_prefix" => {
                opts.import_prefix = errors.check(o.string("the import-name prefix"));
            }
            "import_stem" => {
                opts.import_stem = errors.check(o.string("the file-name stem import names spell"));
            }
            "name" => name = errors.check(o.string("the grammar's name")),
            "vendored" => vendored = errors.check(o.boolean()).unwrap_or_default(),
            "doc_feature" => {
                opts.doc_feature = errors.check(o.string("the feature the typed items need"));
            }
            // `items`, the one option left: `macro_args::parse` refused any other.
            _ => match errors.check(o.string("\"all\" or \"tables\"")).as_deref() {
                Some("all") | None => {}
                Some("tables") => opts.tables_only = true,
                Some(other) => errors.push(o.error(format!(
                    "unknown items `{other}`; expected \"all\" or \"tables\""
                ))),
            },
        }
    }
    errors.finish()?;
    // The name in the tables: as given, else the import name, else the file name.
    opts.name = name
        .or_else(|| opts.import.clone())
        .or_else(|| opts.import_prefix.clone())
        .or_else(|| opts.import_stem.clone())
        .unwrap_or_else(|| {
            let file = file.value();
            let base = file.rsplit(['/', '\\']).next().unwrap_or(&file);
            base.to_owned()
        });
    Ok(Args {
        file,
        opts,
        vendored,
    })
}

/// Expands a SPIR-V JSON grammar into typed Rust items: the arguments and what is
/// emitted are in the crate docs.
///
/// A crate's own extended instruction set, from a grammar file next to its
/// `Cargo.toml` (this crate ships the one used here), then registered so that the
/// assembler, the disassembler and the reader know it by its import name:
///
/// ```
/// mod my_set {
///     spirv_grammar_macros::include_grammar!(
///         "grammar/nonsemantic.my-set.grammar.json",
///         import = "NonSemantic.MySet"
///     );
/// }
/// use spirv_asm::{AsmOptions, DisOptions};
/// use spirv_core::{ExtInstRegistry, Module, ReadOptions, spv};
///
/// let mut registry = ExtInstRegistry::default();
/// registry.register(&my_set::GRAMMAR);
///
/// // The set's instructions and enumerants by name, in assembly text.
/// let text = r#"
///        OpCapability Shader
///        OpExtension "SPV_KHR_non_semantic_info"
/// %set = OpExtInstImport "NonSemantic.MySet"
///        OpMemoryModel Logical GLSL450
/// %void = OpTypeVoid
/// %done = OpExtInst %void %set Count 3 Loud
/// "#;
/// let asm = AsmOptions { registry: Some(registry.clone()), ..AsmOptions::default() };
/// let words = spirv_asm::assemble_str(text, &asm)?;
/// let dis = DisOptions { registry: Some(registry.clone()), header: false, ..DisOptions::default() };
/// let back = spirv_asm::disassemble_to_string(&words, &dis)?;
/// // (friendly names come from the type and `OpName`s: the set is `%1`)
/// assert!(back.contains("OpExtInst %void %1 Count 3 Loud"), "{back}");
///
/// // Typed: the instruction decodes to the generated struct.
/// let read = ReadOptions { registry: Some(&registry), ..ReadOptions::default() };
/// let module = Module::read(&words, &read)?;
/// let ext = module
///     .instructions()
///     .find(|i| i.opcode() == spv::Opcode::ExtInst)
///     .and_then(|i| i.ext_inst())
///     .expect("an OpExtInst");
/// assert_eq!(ext.set.map(|g| g.name), Some("NonSemantic.MySet"));
/// let typed = my_set::Instruction::decode(my_set::Opcode(ext.number), ext.operands, &Default::default())?;
/// assert_eq!(
///     typed,
///     my_set::Instruction::Count(my_set::inst::Count { times: 3, level: my_set::MySetLevel::Loud })
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[proc_macro]
pub fn include_grammar(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    let start = std::time::Instant::now();
    let cpu_start = thread_cpu_ns();
    let args = match parse(input.into()) {
        Ok(a) => a,
        Err(e) => return e.to_compile_error().into(),
    };
    let out = expand(&args).unwrap_or_else(|e| e.to_compile_error().into());
    if std::env::var_os("SPIRV_GRAMMAR_TIMING").is_some() {
        let cpu = match (cpu_start, thread_cpu_ns()) {
            (Some(a), Some(b)) => format!(" ({:.1} ms CPU)", b.saturating_sub(a) as f64 / 1e6),
            _ => String::new(),
        };
        eprintln!(
            "include_grammar!({}): expanded in {:.1} ms{cpu}",
            args.file.value(),
            start.elapsed().as_secs_f64() * 1e3
        );
    }
    out
}

/// The compiler's own lexer, for the text the generator writes the bulk of the items as.
fn compiler_lexer(text: &str) -> Option<TokenStream> {
    text.parse::<proc_macro::TokenStream>().ok().map(Into::into)
}

/// The compiler thread's CPU time so far, where the system says (Linux): on a loaded
/// machine the wall time of an expansion says little.
fn thread_cpu_ns() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    stat.split_whitespace().next()?.parse().ok()
}

fn expand(args: &Args) -> syn::Result<proc_macro::TokenStream> {
    let rel = args.file.value();
    let at = args.file.span();
    let base = if args.vendored {
        spirv_grammar_codegen::vendored::DIR.to_owned()
    } else {
        std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into())
    };
    let path = std::path::Path::new(&base).join(&rel);
    let json = std::fs::read_to_string(&path).map_err(|e| {
        syn::Error::new(
            at,
            format!("cannot read grammar file {}: {e}", path.display()),
        )
    })?;
    let abs = std::fs::canonicalize(&path).unwrap_or(path.clone());
    let t0 = std::time::Instant::now();
    let items = spirv_grammar_codegen::expand(&json, &args.opts, abs.to_str());
    let items = items.map_err(|errors| {
        let mut all = Errors::default();
        for e in errors {
            all.push(syn::Error::new(at, format!("{rel}: {e}")));
        }
        all.finish()
            .err()
            .unwrap_or_else(|| syn::Error::new(at, "no items"))
    })?;
    if std::env::var_os("SPIRV_GRAMMAR_TIMING").is_some_and(|v| v == "2") {
        eprintln!(
            "include_grammar!({rel}): model+emit {:.1} ms",
            t0.elapsed().as_secs_f64() * 1e3,
        );
    }
    Ok(items.into())
}

/// Calls `callback!` with every extended instruction set vendored in
/// `spirv-grammar-data`, one `module: "file", key = "value";` entry per set, where `key`
/// is `import`, `import_prefix` or `import_stem`: the arguments of an
/// `include_grammar!("file", vendored = true, key = "value")` for it. spirv-core's `ext`
/// module declares its modules this way, so that a set added to the folder needs no
/// edit anywhere.
///
/// ```ignore
/// macro_rules! show { ($($module:ident: $file:tt, $key:ident = $value:tt;)*) => {
///     const MODULES: &[&str] = &[$(stringify!($module)),*];
/// } }
/// spirv_grammar_macros::for_each_vendored_set!(show);
/// ```
#[proc_macro]
pub fn for_each_vendored_set(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    let callback: syn::Ident = match syn::parse(input) {
        Ok(c) => c,
        Err(e) => {
            let e = syn::Error::new(e.span(), "expected the name of a macro");
            return e.to_compile_error().into();
        }
    };
    let sets = spirv_grammar_codegen::vendored::SETS.iter().map(|set| {
        let module = syn::Ident::new(set.module, Span::call_site());
        let key = syn::Ident::new(set.import_key, Span::call_site());
        let (file, import) = (set.file, set.import);
        quote!(#module: #file, #key = #import;)
    });
    quote!(#callback! { #(#sets)* }).into()
}
