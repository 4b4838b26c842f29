//! `include_grammar!`: any SPIR-V JSON grammar becomes typed Rust at compile time.
//!
//! ```ignore
//! // In a downstream crate, next to its Cargo.toml: grammar/my.set.grammar.json
//! mod my_set {
//!     spirv_grammar_macros::include_grammar!("grammar/my.set.grammar.json", import = "NonSemantic.MySet");
//! }
//! ```
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

use proc_macro::{Delimiter, Group, Punct, Spacing, Span, TokenStream, TokenTree};
use spirv_grammar_codegen::macro_support::{Error, Str, parse_args};

struct Args {
    file: Str,
    krate: Option<String>,
    import: Option<Str>,
    import_prefix: Option<Str>,
    import_stem: Option<Str>,
    name: Option<Str>,
    tables_only: bool,
    vendored: bool,
}

fn parse(input: TokenStream) -> Result<Args, Error> {
    let (file, options) = parse_args(input, "the grammar file")?;
    let mut args = Args {
        file,
        krate: None,
        import: None,
        import_prefix: None,
        import_stem: None,
        name: None,
        tables_only: false,
        vendored: false,
    };
    for o in options {
        match o.name().as_str() {
            "crate" => args.krate = Some(o.path()?),
            "import" => args.import = Some(o.string("the import name")?),
            "import_prefix" => args.import_prefix = Some(o.string("the import-name prefix")?),
            "import_stem" => {
                args.import_stem = Some(o.string("the file-name stem import names spell")?);
            }
            "name" => args.name = Some(o.string("the grammar's name")?),
            "vendored" => args.vendored = o.boolean()?,
            "items" => {
                let items = o.string("\"all\" or \"tables\"")?;
                args.tables_only = match items.value.as_str() {
                    "all" => false,
                    "tables" => true,
                    other => {
                        return Err(Error::new(
                            items.span,
                            format!("unknown items `{other}`; expected \"all\" or \"tables\""),
                        ));
                    }
                };
            }
            _ => {
                return Err(o.unknown(
                    "`crate`, `import`, `import_prefix`, `import_stem`, `name`, `items` or `vendored`",
                ));
            }
        }
    }
    Ok(args)
}

/// Expands a SPIR-V JSON grammar into typed Rust items. See the crate docs.
#[proc_macro]
pub fn include_grammar(input: TokenStream) -> TokenStream {
    let start = std::time::Instant::now();
    let args = match parse(input) {
        Ok(a) => a,
        Err(e) => return e.into_items(),
    };
    let out = expand(&args).unwrap_or_else(Error::into_items);
    if std::env::var_os("SPIRV_GRAMMAR_TIMING").is_some() {
        eprintln!(
            "include_grammar!({}): expanded in {:.1} ms",
            args.file.value,
            start.elapsed().as_secs_f64() * 1e3
        );
    }
    out
}

fn expand(args: &Args) -> Result<TokenStream, Error> {
    let rel = &args.file.value;
    let at = args.file.span;
    let base = if args.vendored {
        spirv_grammar_codegen::vendored::DIR.to_owned()
    } else {
        std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into())
    };
    let path = std::path::Path::new(&base).join(rel);
    let json = std::fs::read_to_string(&path).map_err(|e| {
        Error::new(
            at,
            format!("cannot read grammar file {}: {e}", path.display()),
        )
    })?;
    let file_name = path
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_else(|| rel.clone());
    let mut opts = spirv_grammar_codegen::Options::new(&file_name);
    if let Some(k) = &args.krate {
        opts.krate = k.clone();
    }
    opts.tables_only = args.tables_only;
    opts.import = args.import.as_ref().map(|s| s.value.clone());
    opts.import_prefix = args.import_prefix.as_ref().map(|s| s.value.clone());
    opts.import_stem = args.import_stem.as_ref().map(|s| s.value.clone());
    if let Some(n) = &args.name {
        opts.name = n.value.clone();
    } else if let Some(i) = (opts.import.clone())
        .or_else(|| opts.import_prefix.clone())
        .or_else(|| opts.import_stem.clone())
    {
        opts.name = i;
    }
    let abs = std::fs::canonicalize(&path).unwrap_or(path.clone());
    let t0 = std::time::Instant::now();
    let code =
        spirv_grammar_codegen::expand_source(&json, &opts, abs.to_str()).map_err(|errors| {
            Error(
                errors
                    .into_iter()
                    .map(|e| (at, format!("{rel}: {e}")))
                    .collect(),
            )
        })?;
    let t1 = t0.elapsed();
    let ts = code.parse::<TokenStream>().map_err(|e| {
        Error::new(
            at,
            format!("internal error: generated code for {rel} does not lex: {e}"),
        )
    })?;
    if std::env::var_os("SPIRV_GRAMMAR_TIMING").is_some_and(|v| v == "2") {
        eprintln!(
            "include_grammar!({rel}): model+emit {:.1} ms, lex {:.1} ms, {} bytes",
            t1.as_secs_f64() * 1e3,
            (t0.elapsed() - t1).as_secs_f64() * 1e3,
            code.len()
        );
    }
    Ok(ts)
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
pub fn for_each_vendored_set(input: TokenStream) -> TokenStream {
    let mut tokens = input.into_iter();
    let callback = match (tokens.next(), tokens.next()) {
        (Some(TokenTree::Ident(i)), None) => i,
        (Some(other), _) | (None, Some(other)) => {
            return Error::new(other.span(), "expected the name of a macro").into_items();
        }
        (None, None) => {
            return Error::new(Span::call_site(), "expected the name of a macro").into_items();
        }
    };
    let mut body = String::new();
    for set in spirv_grammar_codegen::vendored::SETS {
        body.push_str(&format!(
            "{}: {:?}, {} = {:?};\n",
            set.module, set.file, set.import_key, set.import
        ));
    }
    let body: TokenStream = match body.parse() {
        Ok(ts) => ts,
        Err(e) => {
            return Error::new(callback.span(), format!("internal error: {e}")).into_items();
        }
    };
    let mut bang = Punct::new('!', Spacing::Alone);
    bang.set_span(callback.span());
    [
        TokenTree::Ident(callback),
        TokenTree::Punct(bang),
        TokenTree::Group(Group::new(Delimiter::Brace, body)),
    ]
    .into_iter()
    .collect()
}
