//! What the workspace's proc macros (`include_grammar!`, `spirv_asm!`) share: their
//! argument shape (a string literal, then `key = value` options), literal values, and
//! errors as `compile_error!` tokens. Built on `proc_macro` alone: syn, quote and
//! proc-macro2 would stand in front of every downstream build for a few lines of
//! parsing. The functions that take or return `proc_macro` types work only while a
//! macro is expanding.

extern crate proc_macro;

use proc_macro::{Delimiter, Group, Ident, Literal, Punct, Spacing, Span, TokenStream, TokenTree};

/// Errors at spans, to become `compile_error!`s.
#[derive(Debug)]
pub struct Error(pub Vec<(Span, String)>);

impl Error {
    /// One error.
    pub fn new(span: Span, message: impl Into<String>) -> Self {
        Error(vec![(span, message.into())])
    }

    /// One `compile_error!(…);` item per message, each pointing at its span.
    pub fn into_items(self) -> TokenStream {
        self.0
            .into_iter()
            .flat_map(|(span, message)| {
                let mut semi = Punct::new(';', Spacing::Alone);
                semi.set_span(span);
                compile_error(span, &message)
                    .into_iter()
                    .chain([TokenTree::Punct(semi)])
            })
            .collect()
    }

    /// A block expression that raises every message: `{ compile_error!(…); … }`, the
    /// last one as the block's value so that no type error follows.
    pub fn into_expr(self) -> TokenStream {
        let count = self.0.len();
        let body: TokenStream = self
            .0
            .into_iter()
            .enumerate()
            .flat_map(|(i, (span, message))| {
                let semi =
                    (i + 1 < count).then(|| TokenTree::Punct(Punct::new(';', Spacing::Alone)));
                compile_error(span, &message).into_iter().chain(semi)
            })
            .collect();
        TokenStream::from(TokenTree::Group(Group::new(Delimiter::Brace, body)))
    }
}

/// `compile_error!("message")` at `span`.
fn compile_error(span: Span, message: &str) -> [TokenTree; 3] {
    let mut lit = Literal::string(message);
    lit.set_span(span);
    let mut bang = Punct::new('!', Spacing::Alone);
    bang.set_span(span);
    let mut group = Group::new(
        Delimiter::Parenthesis,
        TokenStream::from(TokenTree::Literal(lit)),
    );
    group.set_span(span);
    [
        TokenTree::Ident(Ident::new("compile_error", span)),
        TokenTree::Punct(bang),
        TokenTree::Group(group),
    ]
}

/// A string argument and where it was written.
#[derive(Debug, Clone)]
pub struct Str {
    /// The string's value.
    pub value: String,
    /// The literal's span.
    pub span: Span,
}

/// One `key = value` option.
#[derive(Debug, Clone)]
pub struct MacroOption {
    /// The option's name.
    pub key: Ident,
    /// The tokens after `=`, up to the next top-level comma (never empty).
    pub value: Vec<TokenTree>,
}

impl MacroOption {
    /// The option's name as a string.
    pub fn name(&self) -> String {
        self.key.to_string()
    }

    /// The value as a string literal; `what` says what was expected.
    ///
    /// # Errors
    /// The value is not one string literal.
    pub fn string(&self, what: &str) -> Result<Str, Error> {
        let expected = || format!("expected a string literal: {what}");
        match self.single() {
            Some(TokenTree::Literal(lit)) => string_value(&lit.to_string())
                .map(|value| Str {
                    value,
                    span: lit.span(),
                })
                .ok_or_else(|| Error::new(lit.span(), expected())),
            _ => Err(Error::new(self.span(), expected())),
        }
    }

    /// The value as `true` or `false`.
    ///
    /// # Errors
    /// Any other value.
    pub fn boolean(&self) -> Result<bool, Error> {
        match self.single() {
            Some(TokenTree::Ident(b)) if b.to_string() == "true" => Ok(true),
            Some(TokenTree::Ident(b)) if b.to_string() == "false" => Ok(false),
            _ => Err(Error::new(self.span(), "expected `true` or `false`")),
        }
    }

    /// The value as an unsigned integer literal; `what` says what was expected.
    ///
    /// # Errors
    /// The value is not one integer literal.
    pub fn integer(&self, what: &str) -> Result<u64, Error> {
        let expected = || format!("expected an integer literal: {what}");
        match self.single() {
            Some(TokenTree::Literal(lit)) => {
                int_value(&lit.to_string()).ok_or_else(|| Error::new(lit.span(), expected()))
            }
            _ => Err(Error::new(self.span(), expected())),
        }
    }

    /// The value as a path (`crate`, `::spirv_core`, `my::path`).
    ///
    /// # Errors
    /// Anything but identifiers and `::`.
    pub fn path(&self) -> Result<String, Error> {
        let mut path = String::new();
        for t in &self.value {
            match t {
                TokenTree::Ident(i) => path.push_str(&i.to_string()),
                TokenTree::Punct(p) if p.as_char() == ':' => path.push(':'),
                other => return Err(Error::new(other.span(), "expected a path")),
            }
        }
        if path.ends_with(':') {
            return Err(Error::new(self.span(), "expected a path"));
        }
        Ok(path)
    }

    /// The error for an option this macro does not have, listing those it has.
    pub fn unknown(&self, expected: &str) -> Error {
        Error::new(
            self.key.span(),
            format!("unknown option `{}`; expected {expected}", self.name()),
        )
    }

    fn single(&self) -> Option<&TokenTree> {
        match self.value.as_slice() {
            [t] => Some(t),
            _ => None,
        }
    }

    fn span(&self) -> Span {
        self.value.first().map_or(self.key.span(), TokenTree::span)
    }
}

/// A macro's arguments: a string literal, then `key = value` options, separated by
/// commas (a trailing comma allowed). `what` names the literal in errors.
///
/// # Errors
/// Anything else, located.
pub fn parse_args(input: TokenStream, what: &str) -> Result<(Str, Vec<MacroOption>), Error> {
    let expected = || format!("expected a string literal: {what}");
    let mut segments: Vec<Vec<TokenTree>> = vec![Vec::new()];
    for t in flatten(input) {
        match &t {
            TokenTree::Punct(p) if p.as_char() == ',' => segments.push(Vec::new()),
            _ => {
                if let Some(s) = segments.last_mut() {
                    s.push(t);
                }
            }
        }
    }
    if segments.len() > 1 && segments.last().is_some_and(Vec::is_empty) {
        segments.pop();
    }
    let mut segments = segments.into_iter();
    let first = segments.next().unwrap_or_default();
    let first = match first.as_slice() {
        [TokenTree::Literal(lit)] => string_value(&lit.to_string())
            .map(|value| Str {
                value,
                span: lit.span(),
            })
            .ok_or_else(|| Error::new(lit.span(), expected()))?,
        [t, ..] => return Err(Error::new(t.span(), expected())),
        [] => return Err(Error::new(Span::call_site(), expected())),
    };
    let mut options = Vec::new();
    for seg in segments {
        let mut it = seg.into_iter();
        let key = match it.next() {
            Some(TokenTree::Ident(k)) => k,
            Some(other) => return Err(Error::new(other.span(), "expected an option name")),
            None => {
                return Err(Error::new(
                    Span::call_site(),
                    "expected an option after `,`",
                ));
            }
        };
        match it.next() {
            Some(TokenTree::Punct(p)) if p.as_char() == '=' => {}
            other => {
                let span = other.map_or(key.span(), |t| t.span());
                return Err(Error::new(span, "expected `=`"));
            }
        }
        let value: Vec<TokenTree> = it.collect();
        if value.is_empty() {
            return Err(Error::new(key.span(), "expected a value after `=`"));
        }
        options.push(MacroOption { key, value });
    }
    Ok((first, options))
}

/// The tokens, with invisible groups (`macro_rules!` fragments passed on) opened.
fn flatten(input: TokenStream) -> Vec<TokenTree> {
    let mut out = Vec::new();
    for t in input {
        match t {
            TokenTree::Group(g) if g.delimiter() == Delimiter::None => {
                out.extend(flatten(g.stream()));
            }
            t => out.push(t),
        }
    }
    out
}

/// The value of a string literal token's text (`"…"` with escapes, or raw `r#"…"#`);
/// `None` for any other token.
pub fn string_value(text: &str) -> Option<String> {
    if let Some(raw) = text.strip_prefix('r') {
        let hashes = raw.len() - raw.trim_start_matches('#').len();
        let body = raw.get(hashes..raw.len().checked_sub(hashes)?)?;
        return body.strip_prefix('"')?.strip_suffix('"').map(str::to_owned);
    }
    let body = text.strip_prefix('"')?.strip_suffix('"')?;
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next()? {
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            't' => out.push('\t'),
            '0' => out.push('\0'),
            '\\' => out.push('\\'),
            '\'' => out.push('\''),
            '"' => out.push('"'),
            'x' => {
                let hex: String = [chars.next()?, chars.next()?].iter().collect();
                out.push(char::from(u8::from_str_radix(&hex, 16).ok()?));
            }
            'u' => {
                if chars.next()? != '{' {
                    return None;
                }
                let hex: String = chars.by_ref().take_while(|&c| c != '}').collect();
                out.push(char::from_u32(
                    u32::from_str_radix(&hex.replace('_', ""), 16).ok()?,
                )?);
            }
            '\n' => {
                // A line continuation: the newline and the next line's leading blanks go.
                while chars.peek().is_some_and(|c| c.is_whitespace()) {
                    chars.next();
                }
            }
            _ => return None,
        }
    }
    Some(out)
}

/// The value of an integer literal token's text: decimal, `0x`, `0o` or `0b`, with `_`
/// separators and an optional integer-type suffix (`0x0007_0000u32`); `None` otherwise
/// or if it does not fit 64 bits.
pub fn int_value(text: &str) -> Option<u64> {
    let text = text.replace('_', "");
    let digits = [
        "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize",
    ]
    .iter()
    .find_map(|s| text.strip_suffix(s))
    .unwrap_or(&text);
    let (radix, body) = match digits.get(..2) {
        Some("0x") => (16, &digits[2..]),
        Some("0o") => (8, &digits[2..]),
        Some("0b") => (2, &digits[2..]),
        _ => (10, digits),
    };
    if body.is_empty() {
        return None;
    }
    u64::from_str_radix(body, radix).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_read_as_rust_reads_them() {
        assert_eq!(
            string_value(r#""a\n\x41\u{1F600}""#).as_deref(),
            Some("a\nA\u{1F600}")
        );
        assert_eq!(string_value(r###"r#"x"y"#"###).as_deref(), Some("x\"y"));
        assert_eq!(string_value("7"), None);
        assert_eq!(int_value("0x0007_0000u32"), Some(0x70000));
        assert_eq!(int_value("0b101"), Some(5));
        assert_eq!(int_value("42"), Some(42));
        assert_eq!(int_value("0x"), None);
        assert_eq!(int_value("1.5"), None);
    }
}
