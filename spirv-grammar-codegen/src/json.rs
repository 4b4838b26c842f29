//! JSON, as much as grammar files need: a [`Value`] tree read from text, with the
//! line and column of a syntax error.
//!
//! The grammar reader used serde_json's `Value`. This is the same shape (objects keep
//! the last of a repeated key and list their keys in sorted order, numbers tell integers
//! from floats), written here because every build that expands a grammar would
//! otherwise compile serde_json and serde_core for the host: several seconds of CPU for
//! each downstream crate, against a few milliseconds of reading. It runs where proc
//! macros run, unoptimized, so it works on bytes, in one pass, without recursion (an
//! explicit stack, bounded at [`MAX_DEPTH`] so that dropping the tree cannot overflow the
//! stack either).

use std::fmt;

/// The deepest nesting of arrays and objects read; grammars nest five levels.
pub const MAX_DEPTH: usize = 128;

/// A JSON value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number.
    Number(Number),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Value>),
    /// An object.
    Object(Map),
}

impl Value {
    /// The value under `key`, if this is an object that has it.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.as_object()?.get(key)
    }

    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The elements, if this is an array.
    pub fn as_array(&self) -> Option<&Vec<Value>> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// The object, if this is one.
    pub fn as_object(&self) -> Option<&Map> {
        match self {
            Value::Object(o) => Some(o),
            _ => None,
        }
    }

    /// The number, if this is a non-negative integer.
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Value::Number(n) => n.as_u64(),
            _ => None,
        }
    }
}

/// Compact JSON text, as serde_json writes it (for messages that quote a value).
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Iterative, like the reader: a value nests at most `MAX_DEPTH` levels, but the
        // writer should not depend on that.
        enum Step<'a> {
            Value(&'a Value),
            Text(&'static str),
            Key(&'a str),
        }
        let mut todo = vec![Step::Value(self)];
        while let Some(step) = todo.pop() {
            match step {
                Step::Text(t) => f.write_str(t)?,
                Step::Key(k) => {
                    write_string(f, k)?;
                    f.write_str(":")?;
                }
                Step::Value(v) => match v {
                    Value::Null => f.write_str("null")?,
                    Value::Bool(b) => write!(f, "{b}")?,
                    Value::Number(Number(N::PosInt(n))) => write!(f, "{n}")?,
                    Value::Number(Number(N::NegInt(n))) => write!(f, "{n}")?,
                    Value::Number(Number(N::Float(x))) => write!(f, "{x:?}")?,
                    Value::String(s) => write_string(f, s)?,
                    Value::Array(items) => {
                        f.write_str("[")?;
                        todo.push(Step::Text("]"));
                        for (i, item) in items.iter().enumerate().rev() {
                            todo.push(Step::Value(item));
                            if i > 0 {
                                todo.push(Step::Text(","));
                            }
                        }
                    }
                    Value::Object(map) => {
                        f.write_str("{")?;
                        todo.push(Step::Text("}"));
                        for (i, (k, item)) in map.entries.iter().enumerate().rev() {
                            todo.push(Step::Value(item));
                            todo.push(Step::Key(k));
                            if i > 0 {
                                todo.push(Step::Text(","));
                            }
                        }
                    }
                },
            }
        }
        Ok(())
    }
}

/// A JSON string literal.
fn write_string(f: &mut fmt::Formatter<'_>, s: &str) -> fmt::Result {
    f.write_str("\"")?;
    for c in s.chars() {
        match c {
            '"' => f.write_str("\\\"")?,
            '\\' => f.write_str("\\\\")?,
            '\n' => f.write_str("\\n")?,
            '\r' => f.write_str("\\r")?,
            '\t' => f.write_str("\\t")?,
            '\u{8}' => f.write_str("\\b")?,
            '\u{c}' => f.write_str("\\f")?,
            c if (c as u32) < 0x20 => write!(f, "\\u{:04x}", c as u32)?,
            c => write!(f, "{c}")?,
        }
    }
    f.write_str("\"")
}

/// A JSON number: an integer where it is written as one and fits, else a float.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Number(N);

#[derive(Debug, Clone, Copy, PartialEq)]
enum N {
    PosInt(u64),
    NegInt(i64),
    Float(f64),
}

impl Number {
    /// The number, if it is a non-negative integer.
    pub fn as_u64(&self) -> Option<u64> {
        match self.0 {
            N::PosInt(n) => Some(n),
            N::NegInt(_) | N::Float(_) => None,
        }
    }
}

/// A JSON object: its keys in sorted order, each once (a repeated key keeps its last
/// value).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Map {
    entries: Vec<(String, Value)>,
}

impl Map {
    /// The value under `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        let i = self
            .entries
            .binary_search_by(|(k, _)| k.as_str().cmp(key))
            .ok()?;
        Some(&self.entries[i].1)
    }

    /// Whether the object has `key`.
    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// The keys, in sorted order.
    pub fn keys(&self) -> impl Iterator<Item = &String> {
        self.entries.iter().map(|(k, _)| k)
    }

    fn insert(&mut self, key: String, value: Value) {
        match self.entries.binary_search_by(|(k, _)| k.as_str().cmp(&key)) {
            Ok(i) => self.entries[i].1 = value,
            Err(i) => self.entries.insert(i, (key, value)),
        }
    }
}

/// A syntax error: what was wrong and where (1-based line, and column in bytes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    message: &'static str,
    line: usize,
    column: usize,
}

impl Error {
    /// The line of the byte at which the text stopped being JSON.
    pub fn line(&self) -> usize {
        self.line
    }

    /// Its column.
    pub fn column(&self) -> usize {
        self.column
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at line {} column {}",
            self.message, self.line, self.column
        )
    }
}

impl std::error::Error for Error {}

/// A container being read.
enum Frame {
    Array(Vec<Value>),
    /// The object so far and the key whose value is being read.
    Object(Map, String),
}

/// Reads one JSON value, the whole of `text` (whitespace aside).
///
/// # Errors
/// The text is not JSON, or nests deeper than [`MAX_DEPTH`].
pub fn from_str(text: &str) -> Result<Value, Error> {
    Reader {
        bytes: text.as_bytes(),
        pos: 0,
    }
    .document()
}

struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    fn error(&self, message: &'static str) -> Error {
        let before = &self.bytes[..self.pos.min(self.bytes.len())];
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        Error {
            message,
            line: before.iter().filter(|&&b| b == b'\n').count() + 1,
            column: self.pos - line_start + 1,
        }
    }

    fn skip_space(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(self.pos) {
            self.pos += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_space();
        self.bytes.get(self.pos).copied()
    }

    /// The document: one value, iteratively, then nothing but whitespace.
    fn document(&mut self) -> Result<Value, Error> {
        let mut stack: Vec<Frame> = Vec::new();
        'value: loop {
            // A value starts here.
            let mut value = match self.peek() {
                None => return Err(self.error("EOF while parsing a value")),
                Some(b'[') => {
                    self.pos += 1;
                    if self.peek() == Some(b']') {
                        self.pos += 1;
                        Value::Array(Vec::new())
                    } else {
                        self.open(&mut stack, Frame::Array(Vec::new()))?;
                        continue 'value;
                    }
                }
                Some(b'{') => {
                    self.pos += 1;
                    match self.peek() {
                        Some(b'}') => {
                            self.pos += 1;
                            Value::Object(Map::default())
                        }
                        Some(b'"') => {
                            let key = self.key()?;
                            self.open(&mut stack, Frame::Object(Map::default(), key))?;
                            continue 'value;
                        }
                        None => return Err(self.error("EOF while parsing an object")),
                        Some(_) => return Err(self.error("key must be a string")),
                    }
                }
                Some(b'"') => Value::String(self.string()?),
                Some(b't') => self.word("true", Value::Bool(true))?,
                Some(b'f') => self.word("false", Value::Bool(false))?,
                Some(b'n') => self.word("null", Value::Null)?,
                Some(b'-' | b'0'..=b'9') => Value::Number(self.number()?),
                Some(_) => return Err(self.error("expected value")),
            };
            // The value is complete: it goes into its container, and containers that
            // end here are complete in turn.
            loop {
                match stack.last_mut() {
                    None => {
                        return match self.peek() {
                            None => Ok(value),
                            Some(_) => Err(self.error("trailing characters")),
                        };
                    }
                    Some(Frame::Array(items)) => {
                        items.push(value);
                        match self.peek() {
                            Some(b',') => {
                                self.pos += 1;
                                if self.peek() == Some(b']') {
                                    return Err(self.error("trailing comma"));
                                }
                                continue 'value;
                            }
                            Some(b']') => self.pos += 1,
                            None => return Err(self.error("EOF while parsing a list")),
                            Some(_) => return Err(self.error("expected `,` or `]`")),
                        }
                    }
                    Some(Frame::Object(map, key)) => {
                        map.insert(std::mem::take(key), value);
                        match self.peek() {
                            Some(b',') => {
                                self.pos += 1;
                                match self.peek() {
                                    Some(b'"') => {
                                        *key = self.key()?;
                                        continue 'value;
                                    }
                                    Some(b'}') => return Err(self.error("trailing comma")),
                                    None => {
                                        return Err(self.error("EOF while parsing an object"));
                                    }
                                    Some(_) => return Err(self.error("key must be a string")),
                                }
                            }
                            Some(b'}') => self.pos += 1,
                            None => return Err(self.error("EOF while parsing an object")),
                            Some(_) => return Err(self.error("expected `,` or `}`")),
                        }
                    }
                }
                value = match stack.pop() {
                    Some(Frame::Array(items)) => Value::Array(items),
                    Some(Frame::Object(map, _)) => Value::Object(map),
                    None => unreachable!("the stack was not empty"),
                };
            }
        }
    }

    fn open(&mut self, stack: &mut Vec<Frame>, frame: Frame) -> Result<(), Error> {
        if stack.len() >= MAX_DEPTH {
            return Err(self.error("nesting limit exceeded"));
        }
        stack.push(frame);
        Ok(())
    }

    /// An object key and its colon.
    fn key(&mut self) -> Result<String, Error> {
        let key = self.string()?;
        match self.peek() {
            Some(b':') => {
                self.pos += 1;
                Ok(key)
            }
            None => Err(self.error("EOF while parsing an object")),
            Some(_) => Err(self.error("expected `:`")),
        }
    }

    /// A literal word (`true`, `false`, `null`).
    fn word(&mut self, word: &str, value: Value) -> Result<Value, Error> {
        let end = self.pos + word.len();
        if self.bytes.get(self.pos..end) == Some(word.as_bytes()) {
            self.pos = end;
            Ok(value)
        } else {
            Err(self.error("expected value"))
        }
    }

    /// A string, at its opening quote.
    fn string(&mut self) -> Result<String, Error> {
        self.pos += 1;
        let mut out: Vec<u8> = Vec::new();
        loop {
            let start = self.pos;
            while let Some(&b) = self.bytes.get(self.pos) {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.pos += 1;
            }
            out.extend_from_slice(&self.bytes[start..self.pos]);
            match self.bytes.get(self.pos) {
                None => return Err(self.error("EOF while parsing a string")),
                Some(b'"') => {
                    self.pos += 1;
                    // The input is a `str` and escapes add whole characters.
                    return String::from_utf8(out)
                        .map_err(|_| self.error("invalid unicode code point"));
                }
                Some(b'\\') => {
                    self.pos += 1;
                    let c = match self.bytes.get(self.pos) {
                        None => return Err(self.error("EOF while parsing a string")),
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => self.unicode_escape()?,
                        Some(_) => return Err(self.error("invalid escape")),
                    };
                    self.pos += 1;
                    let mut buf = [0; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
                Some(_) => {
                    return Err(self.error(
                        "control character (\\u0000-\\u001F) found while parsing a string",
                    ));
                }
            }
        }
    }

    /// `\uXXXX`, at its `u`, with a following low surrogate if it is a high one; leaves
    /// the position at the last hex digit.
    fn unicode_escape(&mut self) -> Result<char, Error> {
        let high = self.hex4()?;
        let code = if (0xd800..0xdc00).contains(&high) {
            if self.bytes.get(self.pos + 1..self.pos + 3) != Some(b"\\u") {
                return Err(self.error("lone leading surrogate in hex escape"));
            }
            self.pos += 2;
            let low = self.hex4()?;
            if !(0xdc00..0xe000).contains(&low) {
                return Err(self.error("lone leading surrogate in hex escape"));
            }
            0x10000 + ((high - 0xd800) << 10) + (low - 0xdc00)
        } else {
            high
        };
        char::from_u32(code).ok_or_else(|| self.error("invalid unicode code point"))
    }

    /// Four hex digits after the `u` at the position; leaves the position at the last.
    fn hex4(&mut self) -> Result<u32, Error> {
        let mut v = 0;
        for _ in 0..4 {
            self.pos += 1;
            let d = match self.bytes.get(self.pos) {
                Some(&b) => (b as char).to_digit(16),
                None => return Err(self.error("EOF while parsing a string")),
            };
            v = v * 16 + d.ok_or_else(|| self.error("invalid escape"))?;
        }
        Ok(v)
    }

    /// A number: an integer if written as one and it fits, else a float.
    fn number(&mut self) -> Result<Number, Error> {
        let start = self.pos;
        let negative = self.bytes.get(self.pos) == Some(&b'-');
        if negative {
            self.pos += 1;
        }
        let digits = |r: &mut Self| {
            let from = r.pos;
            while r.bytes.get(r.pos).is_some_and(u8::is_ascii_digit) {
                r.pos += 1;
            }
            r.pos - from
        };
        let int_start = self.pos;
        match digits(self) {
            0 => return Err(self.error("invalid number")),
            n if n > 1 && self.bytes[int_start] == b'0' => {
                return Err(self.error("invalid number"));
            }
            _ => {}
        }
        let mut float = false;
        if self.bytes.get(self.pos) == Some(&b'.') {
            self.pos += 1;
            float = true;
            if digits(self) == 0 {
                return Err(self.error("invalid number"));
            }
        }
        if let Some(b'e' | b'E') = self.bytes.get(self.pos) {
            self.pos += 1;
            float = true;
            if let Some(b'+' | b'-') = self.bytes.get(self.pos) {
                self.pos += 1;
            }
            if digits(self) == 0 {
                return Err(self.error("invalid number"));
            }
        }
        // Digits, signs, dots and exponents are ASCII: the slice is a `str`.
        let text = std::str::from_utf8(&self.bytes[start..self.pos]).unwrap_or("");
        if !float {
            if negative {
                if let Ok(n) = text.parse::<i64>() {
                    return Ok(Number(N::NegInt(n)));
                }
            } else if let Ok(n) = text.parse::<u64>() {
                return Ok(Number(N::PosInt(n)));
            }
        }
        match text.parse::<f64>() {
            Ok(f) if f.is_finite() => Ok(Number(N::Float(f))),
            _ => Err(self.error("number out of range")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_grammars_hold() {
        let v = from_str(
            r#" { "b": [1, -2, 3.5, 1e3, "x\"\u00e9\ud83d\ude00\n", true, false, null, {}, []],
                  "a": { "k": "0x10" }, "b2": 18446744073709551615 } "#,
        )
        .expect("JSON");
        let keys: Vec<&String> = v.as_object().expect("object").keys().collect();
        assert_eq!(keys, ["a", "b", "b2"], "sorted");
        let b = v.get("b").and_then(Value::as_array).expect("array");
        assert_eq!(b[0].as_u64(), Some(1));
        assert_eq!(b[1].as_u64(), None);
        assert_eq!(b[3].as_u64(), None, "1e3 is a float");
        assert_eq!(b[4].as_str(), Some("x\"é😀\n"));
        assert_eq!(b[5], Value::Bool(true));
        assert_eq!(b[7], Value::Null);
        assert_eq!(v.get("b2").and_then(Value::as_u64), Some(u64::MAX));
        assert_eq!(
            v.get("a").and_then(|a| a.get("k")).and_then(Value::as_str),
            Some("0x10")
        );
        // A repeated key keeps its last value; objects compare as maps.
        let r = from_str(r#"{"k": 1, "j": 2, "k": 3}"#).expect("JSON");
        assert_eq!(r.get("k").and_then(Value::as_u64), Some(3));
        assert_eq!(r, from_str(r#"{"j": 2, "k": 3}"#).expect("JSON"));
        assert_ne!(from_str("1").ok(), from_str("1.0").ok());
        // Written back compactly, as serde_json writes it.
        let text = r#"{"a":[1,-2,2.5,"q\"\n\u0001",true,null,{}],"b":{}}"#;
        assert_eq!(from_str(text).expect("JSON").to_string(), text);
    }

    #[test]
    fn errors_say_what_and_where() {
        let cases = [
            ("{\n  \"a\": [1,]\n}", "trailing comma at line 2 column 11"),
            ("{\"a\": 1,}", "trailing comma at line 1 column 9"),
            ("[1 2]", "expected `,` or `]` at line 1 column 4"),
            ("{\"a\" 1}", "expected `:` at line 1 column 6"),
            ("{1: 2}", "key must be a string at line 1 column 2"),
            ("[1", "EOF while parsing a list at line 1 column 3"),
            ("\"ab", "EOF while parsing a string at line 1 column 4"),
            (
                "\"a\u{1}\"",
                "control character (\\u0000-\\u001F) found while parsing a string at line 1 column 3",
            ),
            ("\"\\x\"", "invalid escape at line 1 column 3"),
            (
                "\"\\ud800\"",
                "lone leading surrogate in hex escape at line 1 column 7",
            ),
            ("01", "invalid number at line 1 column 3"),
            ("-", "invalid number at line 1 column 2"),
            ("1e999", "number out of range at line 1 column 6"),
            ("tru", "expected value at line 1 column 1"),
            ("{} x", "trailing characters at line 1 column 4"),
            ("", "EOF while parsing a value at line 1 column 1"),
        ];
        for (text, message) in cases {
            let e = from_str(text).expect_err(text);
            assert_eq!(e.to_string(), message, "{text:?}");
        }
    }

    #[test]
    fn nesting_is_bounded_and_read_without_recursion() {
        let ok = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(from_str(&ok).is_ok());
        let deep = "[".repeat(1_000_000);
        let e = from_str(&deep).expect_err("too deep");
        assert!(e.to_string().starts_with("nesting limit exceeded"), "{e}");
    }
}
