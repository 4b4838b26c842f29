//! Items written as Rust source text and lexed once: the cheap path for the bulk of an
//! expansion (one struct per instruction, the instruction table, the kinds' constants).
//!
//! Inside a proc macro every token built with `quote!` is a call into the compiler,
//! and proc macros run at opt-level 0 in a user's build: for the core grammar's
//! 660k tokens that was most of the expansion. Text written with `write!` (the
//! standard library's formatting, compiled optimized) and handed to the compiler's
//! lexer in one call costs a small part of that. Templates are `write!` format
//! strings that read as the code they produce (`{{`/`}}` are a brace).

use proc_macro2::TokenStream;
use quote::quote;
use std::fmt;

/// Writes formatted text to a `String` (which cannot fail).
macro_rules! w {
    ($out:expr, $($fmt:tt)*) => {{
        use ::std::fmt::Write as _;
        let _ = ::std::write!($out, $($fmt)*);
    }};
}
pub(super) use w;

/// A string literal, escaped as proc-macro2's `Literal::string` escapes it.
pub(super) struct Str<'a>(pub &'a str);

impl fmt::Display for Str<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write as _;
        f.write_char('"')?;
        // Runs of characters that need no escape are written whole.
        let mut plain = 0;
        for (at, ch) in self.0.char_indices() {
            let escaped = ch.escape_debug();
            if ch == '\'' || (escaped.len() == 1 && ch != '\0') {
                continue;
            }
            f.write_str(&self.0[plain..at])?;
            plain = at + ch.len_utf8();
            if ch == '\0' {
                f.write_str("\\x00")?;
            } else {
                for e in escaped {
                    f.write_char(e)?;
                }
            }
        }
        f.write_str(&self.0[plain..])?;
        f.write_char('"')
    }
}

/// `#[doc = "…"]` with the escaped text.
pub(super) struct Doc<'a>(pub &'a str);

impl fmt::Display for Doc<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#[doc = {}]", Str(self.0))
    }
}

/// A lexer faster than proc-macro2's `parse` for generated text: see
/// [`Options::lexer`](crate::Options::lexer).
pub type Lexer = fn(&str) -> Option<TokenStream>;

/// The tokens of generated text, through `lexer` where there is one (inside a proc
/// macro, the compiler's: proc-macro2's `parse` first checks the text with its own
/// lexer, which at opt-level 0 costs more than the tokens it saves). Text that does not
/// lex is a bug of the emitter; it becomes a `compile_error!` naming the problem, never
/// a panic in the compiler.
pub(super) fn lex(lexer: Option<Lexer>, text: &str) -> TokenStream {
    if let Some(tokens) = lexer.and_then(|lex| lex(text)) {
        return tokens;
    }
    text.parse().unwrap_or_else(|e| {
        let msg = format!("include_grammar! wrote text that does not lex ({e}); please report it");
        quote!(::core::compile_error!(#msg);)
    })
}
