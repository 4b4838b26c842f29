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
//! - `name = "…"` (optional): the name recorded in `GRAMMAR.name` (default: the import
//!   name, else the file name).
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

use proc_macro::TokenStream;
use syn::ext::IdentExt;
use syn::parse::{Parse, ParseStream};
use syn::{Ident, LitStr, Path, Token};

struct Args {
    file: LitStr,
    krate: Option<Path>,
    import: Option<LitStr>,
    import_prefix: Option<LitStr>,
    name: Option<LitStr>,
}

impl Parse for Args {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let file: LitStr = input.parse()?;
        let mut args = Args {
            file,
            krate: None,
            import: None,
            import_prefix: None,
            name: None,
        };
        while !input.is_empty() {
            input.parse::<Token![,]>()?;
            if input.is_empty() {
                break;
            }
            let key = Ident::parse_any(input)?;
            input.parse::<Token![=]>()?;
            match key.to_string().as_str() {
                "crate" => args.krate = Some(Path::parse_mod_style(input)?),
                "import" => args.import = Some(input.parse()?),
                "import_prefix" => args.import_prefix = Some(input.parse()?),
                "name" => args.name = Some(input.parse()?),
                other => {
                    return Err(syn::Error::new(
                        key.span(),
                        format!(
                            "unknown option `{other}`; expected `crate`, `import`, `import_prefix` or `name`"
                        ),
                    ));
                }
            }
        }
        Ok(args)
    }
}

/// Expands a SPIR-V JSON grammar into typed Rust items. See the crate docs.
#[proc_macro]
pub fn include_grammar(input: TokenStream) -> TokenStream {
    let start = std::time::Instant::now();
    let args = match syn::parse::<Args>(input) {
        Ok(a) => a,
        Err(e) => return e.to_compile_error().into(),
    };
    let out = expand(&args);
    if std::env::var_os("SPIRV_GRAMMAR_TIMING").is_some() {
        eprintln!(
            "include_grammar!({}): expanded in {:.1} ms",
            args.file.value(),
            start.elapsed().as_secs_f64() * 1e3
        );
    }
    out
}

fn expand(args: &Args) -> TokenStream {
    let rel = args.file.value();
    let base = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into());
    let path = std::path::Path::new(&base).join(&rel);
    let err = |msg: String| -> TokenStream {
        syn::Error::new(args.file.span(), msg)
            .to_compile_error()
            .into()
    };
    let json = match std::fs::read_to_string(&path) {
        Ok(s) => s,
        Err(e) => return err(format!("cannot read grammar file {}: {e}", path.display())),
    };
    let file_name = path
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_else(|| rel.clone());
    let mut opts = spirv_grammar_codegen::Options::new(&file_name);
    if let Some(k) = &args.krate {
        opts.krate = quote::quote!(#k).to_string().replace(' ', "");
    }
    opts.import = args.import.as_ref().map(LitStr::value);
    opts.import_prefix = args.import_prefix.as_ref().map(LitStr::value);
    if let Some(n) = &args.name {
        opts.name = n.value();
    } else if let Some(i) = opts.import.clone().or_else(|| opts.import_prefix.clone()) {
        opts.name = i;
    }
    let abs = std::fs::canonicalize(&path).unwrap_or(path.clone());
    let t0 = std::time::Instant::now();
    let expanded = spirv_grammar_codegen::expand_source(&json, &opts, abs.to_str());
    let t1 = t0.elapsed();
    match expanded {
        Ok(code) => match code.parse::<TokenStream>() {
            Ok(ts) => {
                if std::env::var_os("SPIRV_GRAMMAR_TIMING").is_some_and(|v| v == "2") {
                    eprintln!(
                        "include_grammar!({rel}): model+emit {:.1} ms, lex {:.1} ms, {} bytes",
                        t1.as_secs_f64() * 1e3,
                        (t0.elapsed() - t1).as_secs_f64() * 1e3,
                        code.len()
                    );
                }
                ts
            }
            Err(e) => err(format!(
                "internal error: generated code for {rel} does not lex: {e}"
            )),
        },
        Err(errors) => {
            let mut all: Option<syn::Error> = None;
            for e in errors {
                let one = syn::Error::new(args.file.span(), format!("{rel}: {e}"));
                match &mut all {
                    Some(a) => a.combine(one),
                    None => all = Some(one),
                }
            }
            all.map(|e| e.to_compile_error().into()).unwrap_or_default()
        }
    }
}
