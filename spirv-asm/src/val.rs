//! The validator's faults as `spirv-val` 2025.5 prints them: `error: line N: message`,
//! ids named `'N[%friendly]'`, then the instruction spirv-val names, disassembled on
//! one line with friendly names, and an empty line. The rules and their order are
//! `spirv_core::validate`'s; this module only renders them.
//!
//! ```
//! use spirv_asm::{assemble_str, AsmOptions};
//! use spirv_asm::val::spirv_val_text;
//! use spirv_core::validate::Options;
//!
//! let text = "OpCapability Shader\nOpMemoryModel Logical GLSL450\n\
//!             OpEntryPoint GLCompute %main \"main\"\n\
//!             %void = OpTypeVoid\n%fn = OpTypeFunction %void\n\
//!             %main = OpFunction %void None %fn\n%entry = OpLabel\n\
//!             %x = OpIAdd %int %a %b\nOpReturn\nOpFunctionEnd\n";
//! let words = assemble_str(text, &AsmOptions::default()).unwrap();
//! let out = spirv_val_text(&words, &Options::default()).unwrap();
//! assert_eq!(out, "error: line 8: ID '5[%5]' has not been defined\n  %6 = OpIAdd %5 %7 %8\n\n");
//! ```
//!
//! # Coming from `spirv_tools::val`
//! Code that calls the `spirv-tools` crate's `Validator` (the C++ SPIRV-Tools built by
//! its build script) maps field for field: `relax_store_struct` is
//! `relax_struct_store`, `before_legalization` is `before_hlsl_legalization`,
//! `relax_block_layout: Option<bool>` is a `bool` (`None` is `false`; Vulkan 1.1 and
//! later relax block layout whatever it says, as spirv-val does), and `max_limits` are
//! the fields of [`Limits`](spirv_core::validate::Limits). The error's text is spirv-val's.
//!
//! ```
//! use spirv_asm::val::render;
//! use spirv_core::validate::{validate, Limits, Options};
//! use spirv_core::TargetEnv;
//!
//! // Was: spirv_tools::val::create(Some(TargetEnv::Vulkan_1_2)).validate(words,
//! //     Some(ValidatorOptions { relax_block_layout: Some(true), scalar_block_layout: true,
//! //     max_limits: vec![(ValidatorLimits::MaxIdBound, 1 << 20)], ..Default::default() }))
//! fn check(words: &[u32]) -> Result<(), String> {
//!     let options = Options {
//!         target_env: TargetEnv::Vulkan1_2,
//!         relax_block_layout: true,
//!         scalar_block_layout: true,
//!         limits: Limits { max_id_bound: 1 << 20, ..Limits::default() },
//!         ..Options::default()
//!     };
//!     validate(words, &options).map_err(|e| render(words, &[e], &options))
//! }
//!
//! let words = [0x0723_0203, 0x0001_0500, 0, 1 << 21, 0];
//! let message = check(&words).unwrap_err();
//! assert!(message.starts_with("error: line 0: Invalid SPIR-V.  The id bound is larger"), "{message}");
//! ```

use crate::dis::{DisOptions, disassemble};
use spirv_core::validate::{Options, ValidationError, ValidationErrorKind, validate};
use std::fmt::Write;

/// What spirv-val prints on stderr for `words`: `None` when the module is valid (as
/// far as [`validate`] checks), else its one message.
pub fn spirv_val_text(words: &[u32], options: &Options<'_>) -> Option<String> {
    let error = validate(words, options).err()?;
    Some(render(words, std::slice::from_ref(&error), options))
}

/// The faults, each as spirv-val prints one, in order.
pub fn render(words: &[u32], errors: &[ValidationError], options: &Options<'_>) -> String {
    let mut out = String::new();
    for f in render_each(words, errors, options) {
        let _ = writeln!(out, "error: line {}: {}", f.line, f.message);
        if let Some(t) = &f.instruction {
            let _ = writeln!(out, "  {t}\n");
        }
    }
    out
}

/// One fault as spirv-val prints it, in its parts: `error: line {line}: {message}`,
/// then, when it names an instruction, `  {instruction}` and an empty line.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct RenderedFault {
    /// spirv-val's `line N`: the 1-based index of the instruction, or 0.
    pub line: usize,
    /// The message, ids named `'N[%friendly]'`.
    pub message: String,
    /// The instruction named, disassembled on one line with friendly names.
    pub instruction: Option<String>,
}

/// The faults as [`render`] prints them, each in its parts, in order.
pub fn render_each(
    words: &[u32],
    errors: &[ValidationError],
    options: &Options<'_>,
) -> Vec<RenderedFault> {
    let shown: Vec<usize> = errors
        .iter()
        .filter(|e| e.shows_instruction())
        .filter_map(|e| e.instruction)
        .collect();
    let needs_names = errors.iter().any(|e| !e.kind.ids().is_empty()) || !shown.is_empty();
    // Whether a message asks for a name (some name ids their `ids()` leaves out).
    let asked = std::cell::Cell::new(false);
    for e in errors {
        if !matches!(e.kind, ValidationErrorKind::Parse(_)) {
            let _ = e.message_with(&|_| {
                asked.set(true);
                None
            });
        }
    }
    let names_unused = !asked.get() && errors.iter().all(|e| e.kind.ids().is_empty());
    let host = host_order(words);
    let named = if needs_names {
        crate::dis::instruction_texts(&host, &shown, options.registry, names_unused)
    } else {
        None
    };
    let (names, texts) = match &named {
        Some((n, t)) => (Some(n), t.as_slice()),
        None => (None, &[][..]),
    };
    let mut next_text = texts.iter();
    errors
        .iter()
        .map(|e| {
            let message = match &e.kind {
                ValidationErrorKind::Parse(_) => {
                    parse_message(&host).unwrap_or_else(|| e.to_string())
                }
                _ => e.message_with(&|id| names.and_then(|n| n.get(id)).map(str::to_owned)),
            };
            let line = match &e.kind {
                ValidationErrorKind::Parse(_) => parse_line(&host).unwrap_or(e.line()),
                _ => e.line(),
            };
            let instruction = e
                .shows_instruction()
                .then(|| next_text.next())
                .flatten()
                .map(|t| String::from_utf8_lossy(t).into_owned());
            RenderedFault {
                line,
                message,
                instruction,
            }
        })
        .collect()
}

/// The words in host order (spirv-val takes either byte order): copied only when they
/// must be swapped.
fn host_order(words: &[u32]) -> std::borrow::Cow<'_, [u32]> {
    if words.first() == Some(&spirv_core::binary::MAGIC.swap_bytes()) {
        let mut w = words.to_vec();
        spirv_core::binary::swap_words(&mut w);
        return std::borrow::Cow::Owned(w);
    }
    std::borrow::Cow::Borrowed(words)
}

/// The parser's message for a module that does not parse: spirv-val's parser is
/// spirv-dis's, whose messages the disassembler has. The header's version is not the
/// parser's concern (the validator has checked it), so it is set to one spirv-dis
/// takes.
fn parse_error(words: &[u32]) -> Option<crate::DisError> {
    let mut w = words.to_vec();
    if w.len() > 1 {
        w[1] = 0x0001_0000;
    }
    let opts = DisOptions {
        raw_id: true,
        header: false,
        indent: false,
        ..DisOptions::default()
    };
    disassemble(&w, &opts).err()
}

fn parse_message(words: &[u32]) -> Option<String> {
    parse_error(words).map(|e| e.message)
}

fn parse_line(words: &[u32]) -> Option<usize> {
    parse_error(words).map(|e| e.instruction.map_or(0, |i| i + 1))
}
