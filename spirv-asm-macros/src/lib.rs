//! SPIR-V assembly assembled at compile time: `spirv_asm!` for text in the source,
//! `include_spirv_asm!` for a `.spvasm` file. Both evaluate to `&'static [u32]`, the
//! words `spirv-as` 2025.5 would write (with this toolkit's generator word unless
//! `generator` says otherwise), usable in a `const` or `static`.
//!
//! ```
//! const SHADER: &[u32] = spirv_asm_macros::spirv_asm!(
//!     r#"
//!                OpCapability Shader
//!                OpMemoryModel Logical GLSL450
//!                OpEntryPoint GLCompute %main "main"
//!                OpExecutionMode %main LocalSize 1 1 1
//!        %void = OpTypeVoid
//!          %fn = OpTypeFunction %void
//!        %main = OpFunction %void None %fn
//!       %entry = OpLabel
//!                OpReturn
//!                OpFunctionEnd
//!     "#,
//!     target_env = "vulkan1.1",
//!     validate = true,
//! );
//! assert_eq!(SHADER[0], 0x0723_0203);
//! assert_eq!(SHADER[1], 0x0001_0300); // SPIR-V 1.3, from vulkan1.1
//! ```
//!
//! # Options
//! After the text (or the path), `key = value` pairs, as `spirv-as`'s flags:
//! - `target_env = "vulkan1.2"`: the SPIR-V version (`--target-env`); by default a
//!   leading `; Version: 1.X` comment, else 1.6.
//! - `preserve_numeric_ids = true`: `%7` keeps id 7 (`--preserve-numeric-ids`).
//! - `generator = 0x0007_0000`: the header's generator word; `0x0007_0000` is spirv-as's.
//! - `all_ext_inst_names = true`: instruction names for every vendored extended set,
//!   not only those SPIRV-Tools knows.
//! - `validate = true`: the words must also read back in spirv-core's strict mode
//!   (every opcode, operand, enumerant, set and id known and in range).
//!
//! # Errors
//! A text that does not assemble is a compile error with `spirv-as`'s message, line and
//! column within the text, the line and a caret; for a file, `path:line:column`.
//! Unknown names get a "did you mean" suggestion.
//!
//! # Cost
//! The words are emitted as one byte-string literal and turned into `u32`s by constant
//! evaluation, with no `unsafe`: a 1 MB module is one token, not a quarter of a million.
//! Editing an included file rebuilds the crate. `SPIRV_ASM_TIMING=1` prints each
//! expansion's time.

use proc_macro::{Group, Ident, Literal, Span, TokenStream, TokenTree};
use spirv_asm::{AsmError, AsmOptions};
use spirv_grammar_codegen::macro_support::{Error, MacroOption, Str, parse_args};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Assembles SPIR-V assembly text at compile time into `&'static [u32]`. See the crate
/// docs for the options.
#[proc_macro]
pub fn spirv_asm(input: TokenStream) -> TokenStream {
    run("spirv_asm", input, |text| {
        Ok((text.value.clone().into_bytes(), None))
    })
}

/// Assembles a SPIR-V assembly file at compile time into `&'static [u32]`. The path is
/// relative to the calling crate's `Cargo.toml` folder (`CARGO_MANIFEST_DIR`); editing the
/// file rebuilds the crate. See the crate docs for the options.
#[proc_macro]
pub fn include_spirv_asm(input: TokenStream) -> TokenStream {
    run("include_spirv_asm", input, |path| {
        let base = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into());
        let full = Path::new(&base).join(&path.value);
        let text = std::fs::read(&full)
            .map_err(|e| Error::new(path.span, format!("cannot read {}: {e}", full.display())))?;
        let full = std::fs::canonicalize(&full).unwrap_or(full);
        Ok((text, Some(full)))
    })
}

/// What a call asks for, besides the text.
struct Settings {
    opts: AsmOptions,
    validate: bool,
}

fn settings(options: &[MacroOption]) -> Result<Settings, Error> {
    let mut s = Settings {
        opts: AsmOptions::default(),
        validate: false,
    };
    for o in options {
        match o.name().as_str() {
            "target_env" => {
                let env = o.string("a target environment such as \"vulkan1.2\"")?;
                s.opts.version = Some(spirv_asm::asm::target_env_version(&env.value).ok_or_else(
                    || {
                        Error::new(
                            env.span,
                            format!(
                                "unknown target environment `{}`; expected one of spirv-as's, such as \"spv1.4\", \"vulkan1.2\" or \"opencl2.1\"",
                                env.value
                            ),
                        )
                    },
                )?);
            }
            "preserve_numeric_ids" => s.opts.preserve_numeric_ids = o.boolean()?,
            "generator" => {
                let g = o.integer("the generator word")?;
                s.opts.generator = u32::try_from(g).map_err(|_| {
                    Error::new(
                        o.key.span(),
                        format!("generator {g:#x} does not fit 32 bits"),
                    )
                })?;
            }
            "all_ext_inst_names" => s.opts.all_ext_inst_names = o.boolean()?,
            "validate" => s.validate = o.boolean()?,
            _ => {
                return Err(o.unknown(
                    "`target_env`, `preserve_numeric_ids`, `generator`, `all_ext_inst_names` or `validate`",
                ));
            }
        }
    }
    Ok(s)
}

/// Parses the arguments, gets the text (`source` reads it: the literal itself, or a file
/// whose path it returns for rebuild tracking), assembles and emits.
fn run(
    name: &str,
    input: TokenStream,
    source: impl FnOnce(&Str) -> Result<(Vec<u8>, Option<PathBuf>), Error>,
) -> TokenStream {
    let start = Instant::now();
    let what = if name == "spirv_asm" {
        "the assembly text"
    } else {
        "the path of a .spvasm file"
    };
    let out = (|| {
        let (first, options) = parse_args(input, what)?;
        let settings = settings(&options)?;
        let (text, file) = source(&first)?;
        let words = spirv_asm::assemble(&text, &settings.opts).map_err(|e| {
            Error::new(
                first.span,
                located(&e, &text, file.is_some().then_some(&first.value)),
            )
        })?;
        if settings.validate {
            let strict = spirv_core::ReadOptions {
                strict: true,
                ..spirv_core::ReadOptions::default()
            };
            spirv_core::Module::read(&words, &strict).map_err(|e| {
                Error::new(first.span, format!("the module does not validate: {e}"))
            })?;
        }
        Ok(expansion(&words, file.as_deref()))
    })()
    .unwrap_or_else(Error::into_expr);
    if std::env::var_os("SPIRV_ASM_TIMING").is_some() {
        eprintln!(
            "{name}!: expanded in {:.2} ms",
            start.elapsed().as_secs_f64() * 1e3
        );
    }
    out
}

/// spirv-as's message as `line:column: message` (`path:line:column: message` for a
/// file), then the line and a caret, as the CLI prints them.
fn located(e: &AsmError, text: &[u8], file: Option<&String>) -> String {
    let rendered = e.render(text);
    let source = rendered.split_once('\n').map_or("", |(_, rest)| rest);
    let path = file.map_or(String::new(), |p| format!("{p}:"));
    format!("{path}{}:{}: {}\n{source}", e.line, e.column, e.message)
}

/// `{ const BYTES: &[u8] = b"…"; const WORDS: [u32; N] = …; const SLICE: &[u32] = &WORDS;
/// SLICE }`: one byte-string literal, converted word by word in constant evaluation.
/// Little-endian bytes, read as little-endian whatever the host or target.
fn expansion(words: &[u32], file: Option<&Path>) -> TokenStream {
    let n = words.len();
    let track = file.map_or(String::new(), |f| {
        format!(
            "const _: &[::core::primitive::u8] = ::core::include_bytes!({:?});\n",
            f.display().to_string()
        )
    });
    let word = |x: &str| {
        format!(
            "(*{x}0 as ::core::primitive::u32) | (*{x}1 as ::core::primitive::u32) << 8 | (*{x}2 as ::core::primitive::u32) << 16 | (*{x}3 as ::core::primitive::u32) << 24"
        )
    };
    // Four words per step where possible: constant evaluation is slow per operation,
    // and the loop's own bookkeeping is shared.
    let code = format!(
        "{{
    {track}const __SPIRV_BYTES: &[::core::primitive::u8] = __SPIRV_LITERAL;
    #[allow(long_running_const_eval)]
    const __SPIRV_WORDS: [::core::primitive::u32; {n}] = {{
        let mut words = [0; {n}];
        let mut bytes = __SPIRV_BYTES;
        let mut i = 0;
        while let [a0, a1, a2, a3, b0, b1, b2, b3, c0, c1, c2, c3, d0, d1, d2, d3, rest @ ..] = bytes {{
            words[i] = {a};
            words[i + 1] = {b};
            words[i + 2] = {c};
            words[i + 3] = {d};
            bytes = rest;
            i += 4;
        }}
        while let [a0, a1, a2, a3, rest @ ..] = bytes {{
            words[i] = {a};
            bytes = rest;
            i += 1;
        }}
        words
    }};
    const __SPIRV_SLICE: &[::core::primitive::u32] = &__SPIRV_WORDS;
    __SPIRV_SLICE
}}",
        a = word("a"),
        b = word("b"),
        c = word("c"),
        d = word("d"),
    );
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let template: TokenStream = code.parse().unwrap_or_else(|e| {
        Error::new(Span::call_site(), format!("internal error: {e}")).into_expr()
    });
    substitute(template, &Literal::byte_string(&bytes))
}

/// The template with `__SPIRV_LITERAL` replaced by the literal, and every span set to
/// `mixed_site`, so that the block's locals cannot meet the caller's names.
fn substitute(template: TokenStream, literal: &Literal) -> TokenStream {
    template
        .into_iter()
        .map(|t| match t {
            TokenTree::Ident(i) if i.to_string() == "__SPIRV_LITERAL" => {
                TokenTree::Literal(literal.clone())
            }
            TokenTree::Ident(i) => TokenTree::Ident(Ident::new(&i.to_string(), Span::mixed_site())),
            TokenTree::Group(g) => {
                let mut group = Group::new(g.delimiter(), substitute(g.stream(), literal));
                group.set_span(Span::mixed_site());
                TokenTree::Group(group)
            }
            TokenTree::Punct(mut p) => {
                p.set_span(Span::mixed_site());
                TokenTree::Punct(p)
            }
            TokenTree::Literal(mut l) => {
                l.set_span(Span::mixed_site());
                TokenTree::Literal(l)
            }
        })
        .collect()
}
