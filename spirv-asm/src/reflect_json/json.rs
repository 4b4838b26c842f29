//! A JSON writer that lays text out as SPIRV-Cross's reflection does: four-space
//! indentation, `"key" : value`, one value per line. Strings are escaped, so the text
//! is valid JSON even where SPIRV-Cross's would not be (a quote in a name).
//!
//! The text goes out in pieces of a fixed size: kept (up to a limit), counted, or
//! written to a sink, so that it is never copied whole while it grows (a doubling
//! string holds its old and new blocks at once) and need not be held at all.

use std::io::Write;

/// What is open: an object or an array, and whether it has an element yet.
#[derive(Clone, Copy)]
struct Frame {
    array: bool,
    filled: bool,
}

/// The size of one piece of text; a piece is closed at the first element that starts
/// past [`PIECE_FULL`] (an element is short, but for strings as long as the module's).
const PIECE: usize = 64 * 1024;
const PIECE_FULL: usize = PIECE - 4 * 1024;

/// Where the pieces go.
pub(super) enum Dest<'w> {
    /// Kept while they total at most `limit` bytes; past it dropped, and only counted.
    Keep { pieces: Vec<String>, limit: usize },
    /// Only counted.
    Count,
    /// Written to a sink; the first error is kept and ends the writing.
    Write {
        sink: &'w mut dyn Write,
        error: Option<std::io::Error>,
    },
}

/// Writes JSON text.
pub(super) struct Json<'w> {
    /// The piece being written.
    out: String,
    dest: Dest<'w>,
    /// Bytes in the pieces before `out`.
    done_len: usize,
    stack: Vec<Frame>,
}

impl<'w> Json<'w> {
    /// Starts the top-level object.
    pub(super) fn new(dest: Dest<'w>) -> Json<'w> {
        let mut j = Json {
            out: String::new(),
            dest,
            done_len: 0,
            stack: Vec::new(),
        };
        j.begin_object();
        j
    }

    /// Closes the top-level object; returns where the text went and its length.
    pub(super) fn finish(mut self) -> (Dest<'w>, usize) {
        self.end_object();
        self.pass_on();
        (self.dest, self.done_len)
    }

    /// Passes the piece on once it is full.
    fn spill(&mut self) {
        if self.out.len() >= PIECE_FULL {
            self.pass_on();
        }
    }

    fn pass_on(&mut self) {
        self.done_len += self.out.len();
        match &mut self.dest {
            Dest::Keep { pieces, limit } => {
                if self.done_len > *limit {
                    self.dest = Dest::Count;
                    self.out.clear();
                } else {
                    let full = std::mem::replace(&mut self.out, String::with_capacity(PIECE));
                    pieces.push(full);
                }
            }
            Dest::Count => self.out.clear(),
            Dest::Write { sink, error } => {
                if error.is_none() {
                    if let Err(e) = sink.write_all(self.out.as_bytes()) {
                        *error = Some(e);
                    }
                }
                self.out.clear();
            }
        }
    }

    fn indent(&mut self) {
        for _ in 0..self.stack.len() {
            self.out.push_str("    ");
        }
    }

    /// Separates this element from the previous one of the open container.
    fn next(&mut self) {
        self.spill();
        if let Some(f) = self.stack.last_mut() {
            if f.filled {
                self.out.push_str(",\n");
            }
            f.filled = true;
        }
    }

    /// `{` as an array element (or the top level).
    pub(super) fn begin_object(&mut self) {
        self.next();
        self.indent();
        self.out.push_str("{\n");
        self.stack.push(Frame {
            array: false,
            filled: false,
        });
    }

    /// `}`.
    pub(super) fn end_object(&mut self) {
        self.close('}');
    }

    /// `]`.
    pub(super) fn end_array(&mut self) {
        self.close(']');
    }

    fn close(&mut self, c: char) {
        self.spill();
        if self.stack.pop().is_some_and(|f| f.filled) {
            self.out.push('\n');
        }
        self.indent();
        self.out.push(c);
    }

    fn key(&mut self, key: &str) {
        self.next();
        self.indent();
        self.out.push('"');
        self.out.push_str(key);
        self.out.push_str("\" : ");
    }

    /// `"key" : {`.
    pub(super) fn key_object(&mut self, key: &str) {
        self.key(key);
        self.out.push_str("{\n");
        self.stack.push(Frame {
            array: false,
            filled: false,
        });
    }

    /// `"key" : [`.
    pub(super) fn key_array(&mut self, key: &str) {
        self.key(key);
        self.out.push_str("[\n");
        self.stack.push(Frame {
            array: true,
            filled: false,
        });
    }

    /// `"key" : "value"`.
    pub(super) fn string(&mut self, key: &str, value: &str) {
        self.key(key);
        push_string(&mut self.out, value);
    }

    /// `"key" : value` for a number, `true`, `false` or any other raw JSON text.
    pub(super) fn raw(&mut self, key: &str, value: &str) {
        self.key(key);
        self.out.push_str(value);
    }

    /// An array element: a number, `true` or `false`.
    pub(super) fn element(&mut self, value: &str) {
        debug_assert!(self.stack.last().is_some_and(|f| f.array));
        self.next();
        self.indent();
        self.out.push_str(value);
    }
}

fn push_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// A 32-bit float as SPIRV-Cross writes it: C's `%.32g` of the value, with `.0` added
/// when that has neither a point nor an exponent. Non-finite values, which SPIRV-Cross
/// writes as `inf`/`nan` (not JSON), become `null`.
pub(super) fn float(f: f32) -> String {
    if !f.is_finite() {
        return "null".into();
    }
    let mut s = g32(f);
    if !s.contains('.') && !s.contains('e') {
        s.push_str(".0");
    }
    s
}

/// `%.32g` of a finite `f32`, from its exact decimal expansion.
fn g32(f: f32) -> String {
    const PRECISION: usize = 32;
    let negative = f.is_sign_negative();
    let bits = f.to_bits();
    let exp = ((bits >> 23) & 0xff) as i32;
    let mut mantissa = u64::from(bits & 0x7f_ffff);
    let mut e2 = if exp == 0 { -149 } else { exp - 150 };
    if exp != 0 {
        mantissa |= 1 << 23;
    }
    let sign = if negative { "-" } else { "" };
    if mantissa == 0 {
        return format!("{sign}0");
    }
    while mantissa % 2 == 0 {
        mantissa /= 2;
        e2 += 1;
    }
    // value = digits × 10^-scale, exactly: mantissa × 2^e2 = mantissa × 5^-e2 / 10^-e2.
    let mut n = Big::from(mantissa);
    let scale = if e2 >= 0 {
        (0..e2).for_each(|_| n.mul_small(2));
        0
    } else {
        (0..-e2).for_each(|_| n.mul_small(5));
        -e2
    };
    let digits = n.to_decimal();
    // Decimal exponent of the first digit.
    let mut x = digits.len() as i32 - 1 - scale;
    let mut kept: Vec<u8> = digits.bytes().take(PRECISION).collect();
    if digits.len() > PRECISION {
        // Round half to even on the exact value.
        let rest = &digits.as_bytes()[PRECISION..];
        let half = rest[0] > b'5' || (rest[0] == b'5' && rest[1..].iter().any(|&d| d != b'0'));
        let tie = rest[0] == b'5' && rest[1..].iter().all(|&d| d == b'0');
        let odd = kept.last().is_some_and(|d| (d - b'0') % 2 == 1);
        if half || (tie && odd) {
            let mut i = kept.len();
            loop {
                if i == 0 {
                    kept.insert(0, b'1');
                    kept.pop();
                    x += 1;
                    break;
                }
                i -= 1;
                if kept[i] == b'9' {
                    kept[i] = b'0';
                } else {
                    kept[i] += 1;
                    break;
                }
            }
        }
    }
    while kept.len() > 1 && kept.last() == Some(&b'0') {
        kept.pop();
    }
    let kept = String::from_utf8(kept).unwrap_or_default();
    if x < -4 || x >= PRECISION as i32 {
        let (first, rest) = kept.split_at(1);
        let point = if rest.is_empty() { "" } else { "." };
        let sign_e = if x < 0 { '-' } else { '+' };
        format!("{sign}{first}{point}{rest}e{sign_e}{:02}", x.abs())
    } else if x < 0 {
        format!("{sign}0.{}{kept}", "0".repeat((-x - 1) as usize))
    } else {
        let int_len = x as usize + 1;
        if kept.len() <= int_len {
            format!("{sign}{kept}{}", "0".repeat(int_len - kept.len()))
        } else {
            format!("{sign}{}.{}", &kept[..int_len], &kept[int_len..])
        }
    }
}

/// A non-negative integer in base 10^9 limbs, low first: enough for `f32`'s exact
/// decimal expansions (at most 112 digits).
struct Big(Vec<u32>);

impl Big {
    fn from(v: u64) -> Big {
        let mut b = Big(Vec::new());
        let mut v = v;
        while v > 0 {
            b.0.push((v % 1_000_000_000) as u32);
            v /= 1_000_000_000;
        }
        b
    }

    fn mul_small(&mut self, m: u32) {
        let mut carry = 0u64;
        for limb in &mut self.0 {
            let v = u64::from(*limb) * u64::from(m) + carry;
            *limb = (v % 1_000_000_000) as u32;
            carry = v / 1_000_000_000;
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
    }

    fn to_decimal(&self) -> String {
        let mut s = String::new();
        for (i, limb) in self.0.iter().rev().enumerate() {
            if i == 0 {
                s.push_str(&limb.to_string());
            } else {
                s.push_str(&format!("{limb:09}"));
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::float;

    #[test]
    fn floats_print_as_c_printf_percent_32g() {
        assert_eq!(float(2.5e-3), "0.0024999999441206455230712890625");
        assert_eq!(float(1.0), "1.0");
        assert_eq!(float(-0.5), "-0.5");
        assert_eq!(float(0.1), "0.100000001490116119384765625");
        assert_eq!(float(1e30), "1000000015047466219876688855040.0");
        assert_eq!(float(1e32), "1.0000000331813535140961264756326e+32");
        assert_eq!(float(1e-5), "9.9999997473787516355514526367188e-06");
        assert_eq!(float(0.0), "0.0");
        assert_eq!(float(16777216.0), "16777216.0");
        // A subnormal and a value that rounds at the 32nd digit (checked against glibc).
        assert_eq!(
            float(f32::from_bits(1)),
            "1.4012984643248170709237295832899e-45"
        );
        assert_eq!(float(f32::from_bits(3554416254)), "-1890540322816.0");
    }
}
