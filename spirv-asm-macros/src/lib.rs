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
//!     strict = true,
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
//! - `strict = true`: the words must also read back in spirv-core's strict mode
//!   (every opcode, operand, enumerant, set and id known and in range).
//! - `validate = true`: the module must pass `spirv-val`'s rules that
//!   `spirv_core::validate` checks, under `target_env` (default `spv1.6`, spirv-val's).
//!   A fault is a compile error with spirv-val's message, located at the instruction's
//!   `line:column` in the text (`path:line:column` for a file), with the instruction's
//!   line under it; ids are named as the text names them (`'20[%pe]'`).
//!
//! ```compile_fail
//! // An OpName after the types: spirv-val's message, at 6:1 of the text.
//! const BAD: &[u32] = spirv_asm_macros::spirv_asm!(
//!     "OpCapability Shader\nOpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 1 1 1\n%void = OpTypeVoid\nOpName %void \"v\"\n%fn = OpTypeFunction %void\n%main = OpFunction %void None %fn\n%entry = OpLabel\nOpReturn\nOpFunctionEnd\n",
//!     target_env = "vulkan1.2",
//!     validate = true,
//! );
//! ```
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

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{quote, quote_spanned};
use spirv_asm::{AsmError, AsmOptions};
use spirv_core::TargetEnv;
use spirv_grammar_codegen::macro_args::{self, Errors, MacroOption};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Assembles SPIR-V assembly text at compile time into `&'static [u32]`. See the crate
/// docs for the options.
#[proc_macro]
pub fn spirv_asm(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    run("spirv_asm", input.into(), |text| {
        Ok((text.value().into_bytes(), None))
    })
    .into()
}

/// Assembles a SPIR-V assembly file at compile time into `&'static [u32]`. The path is
/// relative to the calling crate's `Cargo.toml` folder (`CARGO_MANIFEST_DIR`); editing the
/// file rebuilds the crate. See the crate docs for the options.
#[proc_macro]
pub fn include_spirv_asm(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    run("include_spirv_asm", input.into(), |path| {
        let base = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into());
        let full = Path::new(&base).join(path.value());
        let text = std::fs::read(&full).map_err(|e| {
            syn::Error::new(path.span(), format!("cannot read {}: {e}", full.display()))
        })?;
        let full = std::fs::canonicalize(&full).unwrap_or(full);
        Ok((text, Some(full)))
    })
    .into()
}

/// The options both macros take, in the order their errors list them.
const OPTIONS: &[&str] = &[
    "target_env",
    "preserve_numeric_ids",
    "generator",
    "all_ext_inst_names",
    "strict",
    "validate",
];

/// What a call asks for, besides the text.
struct Settings {
    opts: AsmOptions,
    strict: bool,
    /// `validate = true`: the environment to validate under.
    validate: Option<TargetEnv>,
    env: TargetEnv,
}

fn settings(options: &[MacroOption], mut errors: Errors) -> syn::Result<Settings> {
    let mut s = Settings {
        opts: AsmOptions::default(),
        strict: false,
        validate: None,
        env: TargetEnv::default(),
    };
    let mut validate = false;
    for o in options {
        match o.name().as_str() {
            "target_env" => {
                let Some(env) =
                    errors.check(o.string("a target environment such as \"vulkan1.2\""))
                else {
                    continue;
                };
                if let Some(e) = TargetEnv::parse(&env) {
                    s.env = e;
                }
                match spirv_core::target_env_version(&env) {
                    Some(v) => s.opts.version = Some(v),
                    None => errors.push(o.error(format!(
                        "unknown target environment `{env}`; expected one of spirv-as's, such as \"spv1.4\", \"vulkan1.2\" or \"opencl2.1\""
                    ))),
                }
            }
            "preserve_numeric_ids" => {
                s.opts.preserve_numeric_ids = errors.check(o.boolean()).unwrap_or_default();
            }
            "generator" => {
                let Some(g) = errors.check(o.integer("the generator word")) else {
                    continue;
                };
                match u32::try_from(g) {
                    Ok(g) => s.opts.generator = g,
                    Err(_) => {
                        errors.push(o.error(format!("generator {g:#x} does not fit 32 bits")));
                    }
                }
            }
            "all_ext_inst_names" => {
                s.opts.all_ext_inst_names = errors.check(o.boolean()).unwrap_or_default();
            }
            "strict" => s.strict = errors.check(o.boolean()).unwrap_or_default(),
            // `validate`, the one option left: `macro_args::parse` refused any other.
            _ => validate = errors.check(o.boolean()).unwrap_or_default(),
        }
    }
    s.validate = validate.then_some(s.env);
    errors.finish().map(|()| s)
}

/// Parses the arguments, gets the text (`source` reads it: the literal itself, or a file
/// whose path it returns for rebuild tracking), assembles and emits.
fn run(
    name: &str,
    input: TokenStream,
    source: impl FnOnce(&syn::LitStr) -> syn::Result<(Vec<u8>, Option<PathBuf>)>,
) -> TokenStream {
    let start = Instant::now();
    let what = if name == "spirv_asm" {
        "the assembly text"
    } else {
        "the path of a .spvasm file"
    };
    let out = (|| {
        let args = macro_args::parse(input, what, OPTIONS)?;
        let first = args.first;
        let settings = settings(&args.options, args.errors)?;
        let (text, file) = source(&first)?;
        let path = file.is_some().then(|| first.value());
        let assembled = spirv_asm::assemble_with_ids(&text, &settings.opts)
            .map_err(|e| syn::Error::new(first.span(), located(&e, &text, path.as_deref())))?;
        let words = &assembled.words;
        if settings.strict {
            let strict = spirv_core::ReadOptions {
                strict: true,
                ..spirv_core::ReadOptions::default()
            };
            spirv_core::Module::read(words, &strict).map_err(|e| {
                syn::Error::new(
                    first.span(),
                    format!("the module does not read back strictly: {e}"),
                )
            })?;
        }
        if let Some(env) = settings.validate {
            if let Some(message) = invalid(env, &text, &assembled, path.as_deref()) {
                return Err(syn::Error::new(first.span(), message));
            }
        }
        Ok(expansion(words, file.as_deref()))
    })()
    .unwrap_or_else(error_expr);
    if std::env::var_os("SPIRV_ASM_TIMING").is_some() {
        eprintln!(
            "{name}!: expanded in {:.2} ms",
            start.elapsed().as_secs_f64() * 1e3
        );
    }
    out
}

/// A block expression that raises every error: `{ compile_error!{…}; … (compile_error!{…}) }`,
/// the last one as the block's value so that no type error follows.
fn error_expr(e: syn::Error) -> TokenStream {
    let mut parts: Vec<TokenStream> = e.into_iter().map(|e| e.to_compile_error()).collect();
    let last = parts.pop();
    quote!({ #(#parts;)* (#last) })
}

/// spirv-as's message as `line:column: message` (`path:line:column: message` for a
/// file), then the line and a caret, as the CLI prints them.
fn located(e: &AsmError, text: &[u8], file: Option<&str>) -> String {
    let rendered = e.render(text);
    let source = rendered.split_once('\n').map_or("", |(_, rest)| rest);
    let path = file.map_or(String::new(), |p| format!("{p}:"));
    format!("{path}{}:{}: {}\n{source}", e.line, e.column, e.message)
}

/// The first fault spirv-val would report, as `line:column: spirv-val (ENV): message`
/// with the instruction's source line under it (`path:line:column` for a file), or
/// `None` for a valid module. The text's own `%names` name the ids (`'20[%pe]'` where
/// spirv-val, which sees only the binary, would print `'20[%20]'`); `starts` gives each
/// instruction's place in `text`.
fn invalid(
    env: TargetEnv,
    text: &[u8],
    assembled: &spirv_asm::Assembled,
    file: Option<&str>,
) -> Option<String> {
    let options = spirv_core::validate::Options {
        target_env: env,
        ..spirv_core::validate::Options::default()
    };
    let words = &assembled.words;
    let fault = spirv_core::validate::validate(words, &options).err()?;
    let names: std::collections::HashMap<u32, &str> = assembled
        .ids
        .iter()
        .rev()
        .map(|(name, id)| (*id, name.as_str()))
        .collect();
    let message = match fault.kind {
        // The parser's message, as spirv-val words it.
        spirv_core::validate::ValidationErrorKind::Parse(_) => {
            let rendered =
                spirv_asm::val::render_each(words, std::slice::from_ref(&fault), &options);
            rendered
                .into_iter()
                .next()
                .map_or_else(|| fault.to_string(), |r| r.message)
        }
        _ => fault.message_with(&|id| names.get(&id).map(|n| (*n).to_owned())),
    };
    let start = fault
        .instruction
        .and_then(|i| assembled.starts.get(i))
        .map(|&at| at.min(text.len()));
    let place = start.map(|at| {
        let before = &text[..at];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let column = before.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
        format!("{line}:{column}: ")
    });
    let at = match (file, place) {
        (Some(f), Some(p)) => format!("{f}:{p}"),
        (Some(f), None) => format!("{f}: "),
        (None, p) => p.unwrap_or_default(),
    };
    let mut out = format!("{at}spirv-val ({}): {}", env.name(), message.trim_end());
    if let Some(at) = start {
        out.push_str("\n  ");
        out.push_str(&source_line(text, at));
    }
    Some(out)
}

/// The text from `at` to the end of its line, trimmed, at most 120 characters (`…`
/// marks a cut).
fn source_line(text: &[u8], at: usize) -> String {
    let rest = &text[at..];
    let end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
    let line = String::from_utf8_lossy(&rest[..end]);
    let line = line.trim();
    match line.char_indices().nth(120) {
        Some((cut, _)) => format!("{}…", &line[..cut]),
        None => line.to_owned(),
    }
}

/// The block the macros expand to: the words as one byte-string literal, turned into
/// `u32`s word by word in constant evaluation. Little-endian bytes, read as little-endian
/// whatever the host or target. Every token has the `mixed_site` span, so that the
/// block's locals cannot meet the caller's names.
fn expansion(words: &[u32], file: Option<&Path>) -> TokenStream {
    let n = Literal::usize_unsuffixed(words.len());
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let mut literal = Literal::byte_string(&bytes);
    literal.set_span(Span::mixed_site());
    let track = file.map(|f| {
        let f = f.display().to_string();
        quote_spanned!(Span::mixed_site()=> const _: &[::core::primitive::u8] = ::core::include_bytes!(#f);)
    });
    // `(*x0 as u32) | (*x1 as u32) << 8 | …`: word `x` from its four byte bindings.
    let word = |x: &str| {
        let [b0, b1, b2, b3] =
            [0, 1, 2, 3].map(|i| Ident::new(&format!("{x}{i}"), Span::mixed_site()));
        quote_spanned! {Span::mixed_site()=>
            (*#b0 as ::core::primitive::u32) | (*#b1 as ::core::primitive::u32) << 8 | (*#b2 as ::core::primitive::u32) << 16 | (*#b3 as ::core::primitive::u32) << 24
        }
    };
    let [a, b, c, d] = ["a", "b", "c", "d"].map(word);
    // Four words per step where possible: constant evaluation is slow per operation,
    // and the loop's own bookkeeping is shared.
    quote_spanned! {Span::mixed_site()=>
        {
            #track
            const __SPIRV_BYTES: &[::core::primitive::u8] = #literal;
            #[allow(long_running_const_eval)]
            const __SPIRV_WORDS: [::core::primitive::u32; #n] = {
                let mut words = [0; #n];
                let mut bytes = __SPIRV_BYTES;
                let mut i = 0;
                while let [a0, a1, a2, a3, b0, b1, b2, b3, c0, c1, c2, c3, d0, d1, d2, d3, rest @ ..] = bytes {
                    words[i] = #a;
                    words[i + 1] = #b;
                    words[i + 2] = #c;
                    words[i + 3] = #d;
                    bytes = rest;
                    i += 4;
                }
                while let [a0, a1, a2, a3, rest @ ..] = bytes {
                    words[i] = #a;
                    bytes = rest;
                    i += 1;
                }
                words
            };
            const __SPIRV_SLICE: &[::core::primitive::u32] = &__SPIRV_WORDS;
            __SPIRV_SLICE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::invalid;
    use spirv_core::TargetEnv;

    /// A validation fault names ids as the text does and shows the text's line.
    #[test]
    fn validation_faults_speak_the_texts_names() {
        let text = "OpCapability Shader\nOpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 1 1 1\n%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%float = OpTypeFloat 32\n%int = OpTypeInt 32 1\n%pf = OpTypePointer Function %float\n%x = OpConstant %int 1\n%main = OpFunction %void None %fn\n%entry = OpLabel\n%pe = OpVariable %pf Function\n    OpStore %pe %x   ; the wrong type\nOpReturn\nOpFunctionEnd\n";
        let assembled =
            spirv_asm::assemble_with_ids(text.as_bytes(), &Default::default()).expect("assembles");
        let message =
            invalid(TargetEnv::Universal1_6, text.as_bytes(), &assembled, None).expect("invalid");
        assert!(
            message.starts_with("14:5: spirv-val (spv1.6): "),
            "{message}"
        );
        assert!(
            message.contains("[%pe]'") && message.contains("[%x]'"),
            "{message}"
        );
        assert!(
            message.ends_with("\n  OpStore %pe %x   ; the wrong type"),
            "{message}"
        );
        let valid = text.replace("OpStore %pe %x", "");
        let assembled =
            spirv_asm::assemble_with_ids(valid.as_bytes(), &Default::default()).expect("assembles");
        assert_eq!(
            invalid(TargetEnv::Universal1_6, valid.as_bytes(), &assembled, None),
            None
        );
    }
}
