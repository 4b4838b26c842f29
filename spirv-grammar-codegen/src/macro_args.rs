//! The argument shape the workspace's proc macros share (`include_grammar!`,
//! `spirv_asm!`, `include_spirv_asm!`): a string literal, then `key = value` options
//! separated by commas, parsed with syn.
//!
//! Every mistake is a [`syn::Error`] spanned on the offending token. Parsing goes on
//! after a bad option, so that one expansion reports every bad option at once.
//!
//! ```
//! use spirv_grammar_codegen::macro_args::{self, OptionValue};
//! let tokens: proc_macro2::TokenStream = r#""shader.spvasm", strict = true, generator = 7"#
//!     .parse()
//!     .expect("tokens");
//! let args = macro_args::parse(tokens, "the path", &["strict", "generator"])
//!     .expect("valid arguments");
//! assert_eq!(args.first.value(), "shader.spvasm");
//! assert!(matches!(args.options[0].value, OptionValue::Bool(true)));
//! assert_eq!(args.options[1].integer("the generator word").expect("an integer"), 7);
//! assert!(args.errors.finish().is_ok());
//! ```

use proc_macro2::{Span, TokenStream};
use syn::ext::IdentExt;
use syn::parse::{ParseStream, Parser};
use syn::{Ident, LitBool, LitInt, LitStr, Token};

/// One `key = value` option.
#[derive(Debug)]
pub struct MacroOption {
    /// The option's name.
    pub key: Ident,
    /// Its value.
    pub value: OptionValue,
    /// Where the value was written.
    pub span: Span,
}

/// An option's value: a literal, or a path such as `::spirv_core` or `crate`.
#[derive(Debug)]
pub enum OptionValue {
    /// A string literal, with its value.
    Str(String),
    /// `true` or `false`.
    Bool(bool),
    /// An integer literal (`0x0007_0000u32`): its value, `None` if it does not fit
    /// 64 bits.
    Int(Option<u64>),
    /// A path: identifiers (keywords included) separated by `::`.
    Path(String),
}

impl MacroOption {
    /// The option's name as a string.
    pub fn name(&self) -> String {
        self.key.to_string()
    }

    /// The value as a string; `what` says what was expected.
    ///
    /// # Errors
    /// The value is not a string literal.
    pub fn string(&self, what: &str) -> syn::Result<String> {
        match &self.value {
            OptionValue::Str(s) => Ok(s.clone()),
            _ => Err(self.error(format!("expected a string literal: {what}"))),
        }
    }

    /// The value as `true` or `false`.
    ///
    /// # Errors
    /// Any other value.
    pub fn boolean(&self) -> syn::Result<bool> {
        match self.value {
            OptionValue::Bool(b) => Ok(b),
            _ => Err(self.error("expected `true` or `false`")),
        }
    }

    /// The value as an unsigned integer that fits 64 bits; `what` says what was expected.
    ///
    /// # Errors
    /// The value is not an integer literal, or does not fit.
    pub fn integer(&self, what: &str) -> syn::Result<u64> {
        match &self.value {
            OptionValue::Int(Some(i)) => Ok(*i),
            OptionValue::Int(None) => {
                Err(self.error(format!("expected an integer that fits 64 bits: {what}")))
            }
            _ => Err(self.error(format!("expected an integer literal: {what}"))),
        }
    }

    /// The value as a path (`crate`, `::spirv_core`, `my::path`).
    ///
    /// # Errors
    /// Any other value.
    pub fn path(&self) -> syn::Result<String> {
        match &self.value {
            OptionValue::Path(p) => Ok(p.clone()),
            _ => Err(self.error("expected a path")),
        }
    }

    /// An error spanned on the value.
    pub fn error(&self, message: impl std::fmt::Display) -> syn::Error {
        syn::Error::new(self.span, message)
    }
}

/// Collects errors, so that a macro reports every mistake of one invocation at once.
#[derive(Debug, Default)]
pub struct Errors(Option<syn::Error>);

impl Errors {
    /// Adds an error.
    pub fn push(&mut self, e: syn::Error) {
        match &mut self.0 {
            Some(all) => all.combine(e),
            None => self.0 = Some(e),
        }
    }

    /// The value, or `None` with the error recorded.
    pub fn check<T>(&mut self, result: syn::Result<T>) -> Option<T> {
        result.map_err(|e| self.push(e)).ok()
    }

    /// `Err` with every error recorded, if any.
    ///
    /// # Errors
    /// Those recorded.
    pub fn finish(self) -> syn::Result<()> {
        self.0.map_or(Ok(()), Err)
    }
}

/// A macro's arguments as parsed: the string literal, the options that parsed, and the
/// mistakes found so far, which the macro adds to as it checks the options' values.
pub struct Args {
    /// The leading string literal.
    pub first: LitStr,
    /// The options, in the order written, each key once.
    pub options: Vec<MacroOption>,
    /// What was wrong with the options: unknown keys, repeats, malformed values.
    pub errors: Errors,
}

/// Parses a macro's arguments: a string literal (`what` names it in errors), then
/// `key = value` options whose keys are among `known`, separated by commas, a trailing
/// comma allowed. An option given twice is a mistake, and so is an unknown one, whose
/// message lists `known`; both are recorded in [`Args::errors`] and parsing goes on.
///
/// # Errors
/// The literal is missing, or the options cannot be told apart (no comma between).
pub fn parse(input: TokenStream, what: &str, known: &[&str]) -> syn::Result<Args> {
    (|stream: ParseStream| parse_stream(stream, what, known)).parse2(input)
}

fn parse_stream(input: ParseStream, what: &str, known: &[&str]) -> syn::Result<Args> {
    let first: LitStr = if input.peek(LitStr) {
        input.parse()?
    } else {
        return Err(input.error(format!("expected a string literal: {what}")));
    };
    let mut options: Vec<MacroOption> = Vec::new();
    let mut errors = Errors::default();
    while !input.is_empty() {
        input.parse::<Token![,]>()?;
        if input.is_empty() {
            break;
        }
        match option(input, known) {
            Ok(o) => {
                if options.iter().any(|p| p.key == o.key) {
                    errors.push(syn::Error::new(
                        o.key.span(),
                        format!("option `{}` is given twice", o.key),
                    ));
                } else {
                    options.push(o);
                }
            }
            Err(e) => {
                errors.push(e);
                // Go on at the next option.
                while !input.is_empty() && !input.peek(Token![,]) {
                    input.parse::<proc_macro2::TokenTree>()?;
                }
            }
        }
    }
    Ok(Args {
        first,
        options,
        errors,
    })
}

/// One `key = value`.
fn option(input: ParseStream, known: &[&str]) -> syn::Result<MacroOption> {
    let key = if input.peek(Ident::peek_any) {
        Ident::parse_any(input)?
    } else {
        return Err(input.error("expected an option name"));
    };
    if !known.iter().any(|k| key == k) {
        let list: Vec<String> = known.iter().map(|k| format!("`{k}`")).collect();
        let expected = match list.split_last() {
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
            None => "no options".into(),
        };
        return Err(syn::Error::new(
            key.span(),
            format!("unknown option `{key}`; expected {expected}"),
        ));
    }
    if !input.peek(Token![=]) {
        return Err(input.error("expected `=`"));
    }
    input.parse::<Token![=]>()?;
    let span = input.span();
    let value = if input.peek(LitStr) {
        OptionValue::Str(input.parse::<LitStr>()?.value())
    } else if input.peek(LitBool) {
        OptionValue::Bool(input.parse::<LitBool>()?.value)
    } else if input.peek(LitInt) {
        OptionValue::Int(input.parse::<LitInt>()?.base10_parse().ok())
    } else if input.peek(Token![::]) || input.peek(Ident::peek_any) {
        path(input)?
    } else if input.is_empty() || input.peek(Token![,]) {
        return Err(syn::Error::new(key.span(), "expected a value after `=`"));
    } else {
        return Err(input.error("expected a literal or a path"));
    };
    if !input.is_empty() && !input.peek(Token![,]) {
        return Err(input.error("expected `,` after the option's value"));
    }
    Ok(MacroOption { key, value, span })
}

/// `a::b`, `::a`, `crate`: written back as a string.
fn path(input: ParseStream) -> syn::Result<OptionValue> {
    let mut path = String::new();
    if input.peek(Token![::]) {
        input.parse::<Token![::]>()?;
        path.push_str("::");
    }
    loop {
        path.push_str(&Ident::parse_any(input)?.to_string());
        if !input.peek(Token![::]) {
            return Ok(OptionValue::Path(path));
        }
        input.parse::<Token![::]>()?;
        path.push_str("::");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_str(text: &str) -> syn::Result<(LitStr, Vec<MacroOption>)> {
        let args = parse(
            text.parse().expect("tokens"),
            "the file",
            &["crate", "name", "strict", "generator"],
        )?;
        args.errors.finish().map(|()| (args.first, args.options))
    }

    #[test]
    fn reads_literals_paths_and_a_trailing_comma() {
        let (first, options) =
            parse_str(r#"r"a.json", crate = ::spirv_core, name = "x\ty", strict = false, generator = 0x0007_0000u32,"#)
                .expect("valid");
        assert_eq!(first.value(), "a.json");
        assert_eq!(options[0].path().expect("path"), "::spirv_core");
        assert_eq!(options[1].string("a name").expect("string"), "x\ty");
        assert!(!options[2].boolean().expect("bool"));
        assert_eq!(options[3].integer("word").expect("int"), 0x70000);
        let (_, options) = parse_str(r#""a", crate = crate"#).expect("valid");
        assert_eq!(options[0].path().expect("path"), "crate");
    }

    fn error(text: &str) -> syn::Error {
        match parse_str(text) {
            Ok(_) => panic!("{text} parsed"),
            Err(e) => e,
        }
    }

    #[test]
    fn every_bad_option_is_reported() {
        let e = error(r#""a", nope = 1, strict = yes, name = 4, generator = "x", strict = true"#);
        let messages: Vec<String> = e.into_iter().map(|e| e.to_string()).collect();
        assert_eq!(
            messages,
            [
                "unknown option `nope`; expected `crate`, `name`, `strict` or `generator`",
                "option `strict` is given twice",
            ],
            "values are checked by the macro that knows what each key wants"
        );
        let e = error("7");
        assert_eq!(e.to_string(), "expected a string literal: the file");
        let e = error(r#""a", strict"#);
        assert_eq!(e.to_string(), "unexpected end of input, expected `=`");
        let e = error(r#""a", strict ="#);
        assert_eq!(e.to_string(), "expected a value after `=`");
    }
}
