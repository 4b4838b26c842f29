//! Number printing exactly as spirv-dis 2025.5 does it: `%.9g`/`%.17g` for normal
//! 32/64-bit floats and hex floats for everything else; typed integers by width and
//! signedness.

use spirv_core::walk::NumberType;
use std::fmt::Write;

/// Formats `v` like C's `%.{precision}g`.
pub fn fmt_g(out: &mut String, v: f64, precision: usize) {
    if v == 0.0 {
        out.push_str(if v.is_sign_negative() { "-0" } else { "0" });
        return;
    }
    let p = precision.max(1);
    let e = format!("{:.*e}", p - 1, v);
    let (mantissa, exp) = e.split_once('e').unwrap_or((&e, "0"));
    let x: i32 = exp.parse().unwrap_or(0);
    if x < -4 || x >= p as i32 {
        out.push_str(trim_fraction(mantissa));
        out.push('e');
        out.push(if x < 0 { '-' } else { '+' });
        let _ = write!(out, "{:02}", x.unsigned_abs());
    } else {
        let decimals = (p as i32 - 1 - x).max(0) as usize;
        let f = format!("{v:.decimals$}");
        out.push_str(trim_fraction(&f));
    }
}

fn trim_fraction(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

/// Formats a float given as raw bits in SPIRV-Tools' hex-float style:
/// `[-]0x1.<fraction>p<±exp>`, fraction without trailing zeros, `0x0p+0` for zero,
/// subnormals normalized, inf/NaN with the all-ones exponent as an ordinary exponent.
pub fn fmt_hex_float(out: &mut String, bits: u64, exp_bits: u32, frac_bits: u32) {
    let sign = (bits >> (exp_bits + frac_bits)) & 1 == 1;
    let exp_field = ((bits >> frac_bits) & ((1u64 << exp_bits) - 1)) as i64;
    let mut frac = bits & ((1u64 << frac_bits) - 1);
    let bias = (1i64 << (exp_bits - 1)) - 1;
    if sign {
        out.push('-');
    }
    if exp_field == 0 && frac == 0 {
        out.push_str("0x0p+0");
        return;
    }
    let mut exp = exp_field - bias;
    if exp_field == 0 {
        // Subnormal: normalize so that the leading 1 becomes implicit.
        exp = 1 - bias;
        while frac & (1u64 << frac_bits) == 0 {
            frac <<= 1;
            exp -= 1;
        }
        frac &= (1u64 << frac_bits) - 1;
    }
    // Left-align the fraction to whole hex digits.
    let digits = frac_bits.div_ceil(4);
    let aligned = frac << (digits * 4 - frac_bits);
    out.push_str("0x1");
    if frac != 0 {
        let s = format!("{aligned:0width$x}", width = digits as usize);
        out.push('.');
        out.push_str(s.trim_end_matches('0'));
    }
    let _ = write!(
        out,
        "p{}{}",
        if exp < 0 { '-' } else { '+' },
        exp.unsigned_abs()
    );
}

/// Appends a typed literal (one or two words, low first) as spirv-dis prints it.
/// Literals wider than 64 bits print nothing, as in spirv-dis.
pub fn fmt_typed(out: &mut String, words: &[u32], ty: NumberType) {
    let lo = u64::from(words.first().copied().unwrap_or(0));
    let v = if words.len() >= 2 {
        lo | (u64::from(words[1]) << 32)
    } else {
        lo
    };
    match ty {
        NumberType::Int { width, signed } => {
            if width > 64 {
                return;
            }
            if width <= 32 {
                if signed {
                    let _ = write!(out, "{}", v as u32 as i32);
                } else {
                    let _ = write!(out, "{}", v as u32);
                }
            } else if signed {
                let _ = write!(out, "{}", v as i64);
            } else {
                let _ = write!(out, "{v}");
            }
        }
        NumberType::Float { width, encoding } => match (width, encoding) {
            (32, None) => {
                let f = f32::from_bits(v as u32);
                if f.is_normal() || f == 0.0 {
                    fmt_g(out, f64::from(f), 9);
                } else {
                    fmt_hex_float(out, v & 0xffff_ffff, 8, 23);
                }
            }
            (64, None) => {
                let f = f64::from_bits(v);
                if f.is_normal() || f == 0.0 {
                    fmt_g(out, f, 17);
                } else {
                    fmt_hex_float(out, v, 11, 52);
                }
            }
            _ => match FloatFormat::of(width, encoding) {
                Some(FloatFormat {
                    exp_bits: e,
                    frac_bits: m,
                }) => fmt_hex_float(out, v & ((1u64 << (e + m + 1)) - 1), e, m),
                None => {
                    let _ = write!(out, "{v}");
                }
            },
        },
        // A number type this toolkit does not know yet: its bits, unsigned.
        _ => {
            let _ = write!(out, "{v}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(v: f64, p: usize) -> String {
        let mut s = String::new();
        fmt_g(&mut s, v, p);
        s
    }
    fn hex(bits: u64, e: u32, m: u32) -> String {
        let mut s = String::new();
        fmt_hex_float(&mut s, bits, e, m);
        s
    }

    #[test]
    fn printf_g() {
        assert_eq!(g(f64::from(0.1f32), 9), "0.100000001");
        assert_eq!(g(1e10, 9), "1e+10");
        assert_eq!(g(f64::from(1e-5f32), 9), "9.99999975e-06");
        assert_eq!(g(1e16, 17), "10000000000000000");
        assert_eq!(g(1e17, 17), "1e+17");
        assert_eq!(g(-0.0, 9), "-0");
        assert_eq!(g(f64::from(123456789f32), 9), "123456792");
        assert_eq!(g(1.0, 9), "1");
        assert_eq!(g(0.5, 9), "0.5");
    }

    #[test]
    fn hex_floats() {
        assert_eq!(hex(0x3e00, 5, 10), "0x1.8p+0");
        assert_eq!(hex(0, 5, 10), "0x0p+0");
        assert_eq!(hex(1, 8, 23), "0x1p-149");
        assert_eq!(hex(0x7fc0_0000, 8, 23), "0x1.8p+128");
        assert_eq!(hex(0x7f80_0000, 8, 23), "0x1p+128");
        assert_eq!(hex(0xff80_0000, 8, 23), "-0x1p+128");
    }
}

/// Parses an integer the way spirv-as does (C++ stream with base detection): optional
/// sign, then `0x`/`0X` hex, a leading `0` for octal, or decimal. Returns the magnitude
/// and whether a `-` was present.
fn parse_c_integer(text: &str) -> Option<(u64, bool)> {
    let (neg, rest) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let (radix, digits) =
        if let Some(h) = rest.strip_prefix("0x").or_else(|| rest.strip_prefix("0X")) {
            (16, h)
        } else if rest.len() > 1 && rest.starts_with('0') {
            (8, &rest[1..])
        } else {
            (10, rest)
        };
    if digits.is_empty() || !digits.bytes().all(|b| (b as char).is_digit(radix)) {
        return None;
    }
    u64::from_str_radix(digits, radix).ok().map(|v| (v, neg))
}

/// spirv-as's message for a minus sign where an unsigned number is expected: a misuse,
/// which ends assembly even where the operand is optional.
pub(crate) const NEGATIVE_UNSIGNED: &str = "Cannot put a negative number in an unsigned literal";

/// Parses an unsigned 32-bit literal (`LiteralInteger`, `!<integer>`).
///
/// # Errors
/// spirv-as's message.
pub fn parse_u32(text: &str) -> Result<u32, String> {
    // The sign is looked at before the digits: a lone `-` is a negative number too.
    if text.starts_with('-') {
        return Err(NEGATIVE_UNSIGNED.into());
    }
    match parse_c_integer(text) {
        Some((_, true)) => Err(NEGATIVE_UNSIGNED.into()),
        Some((v, false)) => u32::try_from(v)
            .map_err(|_| format!("Integer {text} does not fit in a 32-bit unsigned integer")),
        None => Err(format!("Invalid unsigned integer literal: {text}")),
    }
}

/// Parses a typed integer literal into its bits (sign-extended to 64 bits for signed
/// types), with spirv-as's range rules: hex gives a bit pattern that is sign-extended
/// from the type's width, decimal must fit the type's range. A 0-bit type (invalid, but
/// text can declare it) takes what spirv-as takes: 0, and -1 when signed.
///
/// # Errors
/// spirv-as's message.
pub fn parse_int(text: &str, width: u32, signed: bool) -> Result<u64, String> {
    if width > 64 {
        return Err(format!("Unsupported {width}-bit integer literals"));
    }
    let negative = text.starts_with('-');
    if negative && !signed {
        return Err(NEGATIVE_UNSIGNED.into());
    }
    let kind = if signed { "signed" } else { "unsigned" };
    let does_not_fit = || format!("Integer {text} does not fit in a {width}-bit {kind} integer");
    let is_hex = text.starts_with("0x") || text.starts_with("0X");
    let Some((magnitude, neg)) = parse_c_integer(text) else {
        return Err(if negative {
            format!("Invalid signed integer literal: {text}")
        } else {
            format!("Invalid unsigned integer literal: {text}")
        });
    };
    if neg {
        // Parsed as a signed 64-bit value first.
        if magnitude > 1u64 << 63 {
            return Err(format!("Invalid signed integer literal: {text}"));
        }
        let v = (magnitude as i64).wrapping_neg();
        if width < 64 && v < -(1i64 << width.saturating_sub(1)) {
            return Err(does_not_fit());
        }
        return Ok(v as u64);
    }
    if width == 64 {
        return Ok(magnitude);
    }
    let limit = if signed && !is_hex {
        1u64 << width.saturating_sub(1)
    } else {
        1u64 << width
    };
    if magnitude >= limit {
        return Err(does_not_fit());
    }
    if signed && is_hex && magnitude & (1u64 << width.saturating_sub(1)) != 0 {
        // Sign-extend the bit pattern from the type's width.
        return Ok(magnitude | !((1u64 << width) - 1));
    }
    Ok(magnitude)
}

/// Whether `text` is a decimal float as a C++ stream reads it: sign, digits, optional
/// point and fraction, optional exponent, and nothing else.
fn is_decimal_float(text: &str) -> bool {
    let b = text.as_bytes();
    let mut i = 0;
    if matches!(b.first(), Some(b'+' | b'-')) {
        i += 1;
    }
    let int_start = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    let mut digits = i - int_start;
    if i < b.len() && b[i] == b'.' {
        i += 1;
        let f = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        digits += i - f;
    }
    if digits == 0 {
        return false;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let e = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == e {
            return false;
        }
    }
    i == b.len()
}

/// A binary float format: exponent and fraction bit counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FloatFormat {
    /// Exponent bits.
    pub exp_bits: u32,
    /// Fraction bits (without the implicit 1).
    pub frac_bits: u32,
}

impl FloatFormat {
    /// IEEE binary16.
    pub const F16: FloatFormat = FloatFormat {
        exp_bits: 5,
        frac_bits: 10,
    };
    /// IEEE binary32.
    pub const F32: FloatFormat = FloatFormat {
        exp_bits: 8,
        frac_bits: 23,
    };
    /// IEEE binary64.
    pub const F64: FloatFormat = FloatFormat {
        exp_bits: 11,
        frac_bits: 52,
    };
    /// bfloat16.
    pub const BF16: FloatFormat = FloatFormat {
        exp_bits: 8,
        frac_bits: 7,
    };
    /// FP8 E4M3.
    pub const E4M3: FloatFormat = FloatFormat {
        exp_bits: 4,
        frac_bits: 3,
    };
    /// FP8 E5M2.
    pub const E5M2: FloatFormat = FloatFormat {
        exp_bits: 5,
        frac_bits: 2,
    };

    /// The format of an `OpTypeFloat` of `width` bits with its FP-encoding operand (by
    /// the grammar's enumerant name), or `None` for a width or encoding it cannot be.
    pub fn of(width: u32, encoding: Option<u32>) -> Option<FloatFormat> {
        use spirv_core::spv::FPEncoding as E;
        Some(match (width, encoding.map(E)) {
            (16, Some(E::BFloat16KHR)) => FloatFormat::BF16,
            (8, Some(E::Float8E4M3EXT)) => FloatFormat::E4M3,
            (8, Some(E::Float8E5M2EXT)) => FloatFormat::E5M2,
            (16, None) => FloatFormat::F16,
            (32, None) => FloatFormat::F32,
            (64, None) => FloatFormat::F64,
            _ => return None,
        })
    }

    fn bias(self) -> i64 {
        (1i64 << (self.exp_bits - 1)) - 1
    }
    fn max_exp_field(self) -> i64 {
        (1i64 << self.exp_bits) - 1
    }

    /// Packs `sign`, an unbiased exponent `e` and significand bits `sig` (the leading 1
    /// at bit `sig_top`) into this format, truncating toward zero. Exponents past the
    /// largest finite one give the all-ones exponent: with the remaining fraction bits
    /// when exactly at it (so NaN payloads survive), infinity beyond it.
    fn pack_truncating(self, sign: bool, e: i64, sig: u128, sig_top: u32) -> u64 {
        let fb = self.frac_bits;
        let sign_bit = u64::from(sign) << (self.exp_bits + fb);
        let biased = e + self.bias();
        // Fraction bits below the leading 1, truncated to `fb` bits.
        let frac_of = |sig: u128| -> u64 {
            let below = sig & ((1u128 << sig_top) - 1);
            if sig_top >= fb {
                (below >> (sig_top - fb)) as u64
            } else {
                (below << (fb - sig_top)) as u64
            }
        };
        if biased > self.max_exp_field() {
            return sign_bit | ((self.max_exp_field() as u64) << fb);
        }
        if biased >= 1 {
            return sign_bit | ((biased as u64) << fb) | frac_of(sig);
        }
        // Subnormal: shift the whole significand (leading 1 included) right.
        let full = (1u64 << fb) | frac_of(sig);
        let shift = 1 - biased;
        let v = if shift > 63 { 0 } else { full >> shift };
        sign_bit | v
    }
}

/// Parses a hex float (`[-]0x1.8p+3`; lowercase `p` required, no leading `+`), truncating
/// toward zero.
fn parse_hex_float(text: &str, fmt: FloatFormat) -> Option<u64> {
    let (sign, rest) = match text.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, text),
    };
    let rest = rest.strip_prefix("0x")?;
    let (mant, exp) = rest.split_once('p')?;
    let (int_part, frac_part) = match mant.split_once('.') {
        Some((a, b)) => (a, b),
        None => (mant, ""),
    };
    if int_part.is_empty() && frac_part.is_empty() {
        return None;
    }
    if !int_part
        .bytes()
        .chain(frac_part.bytes())
        .all(|b| b.is_ascii_hexdigit())
    {
        return None;
    }
    let exp_digits = exp.strip_prefix(['+', '-']).unwrap_or(exp);
    if exp_digits.is_empty() || !exp_digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let exp_val: i64 = exp.parse::<i64>().unwrap_or(if exp.starts_with('-') {
        i64::MIN / 4
    } else {
        i64::MAX / 4
    });
    // Significant hex digits: skip leading zeros, keep up to 30 (120 bits); later digits
    // only matter for truncation, which drops them anyway.
    let mut sig: u128 = 0;
    let mut kept = 0u32;
    let mut scale: i64 = 0; // power-of-two adjustment for digits
    let mut seen_nonzero = false;
    for (i, c) in int_part.bytes().chain(frac_part.bytes()).enumerate() {
        let in_frac = i >= int_part.len();
        let d = (c as char).to_digit(16).unwrap_or(0) as u128;
        if !seen_nonzero && d == 0 {
            if in_frac {
                scale -= 4;
            }
            continue;
        }
        seen_nonzero = true;
        if kept < 30 {
            sig = (sig << 4) | d;
            kept += 1;
            if in_frac {
                scale -= 4;
            }
        } else if !in_frac {
            scale += 4;
        }
    }
    let sign_bit = u64::from(sign) << (fmt.exp_bits + fmt.frac_bits);
    if sig == 0 {
        return Some(sign_bit);
    }
    let top = 127 - sig.leading_zeros();
    let e = (top as i64).saturating_add(scale).saturating_add(exp_val);
    Some(fmt.pack_truncating(sign, e, sig, top))
}

/// Parses a float literal for a type of format `fmt` (`width` bits) as spirv-as does:
/// hex floats are truncated toward zero; decimal 32/64-bit values are correctly rounded;
/// narrower formats are read as 32-bit floats and then truncated; a finite value too
/// large for the type is an error; underflow gives zero.
///
/// # Errors
/// spirv-as's message.
pub fn parse_float(text: &str, width: u32, fmt: FloatFormat) -> Result<u64, String> {
    let err = || format!("Invalid {width}-bit float literal: {text}");
    if text.starts_with("0x") || text.starts_with("-0x") {
        return parse_hex_float(text, fmt).ok_or_else(err);
    }
    if !is_decimal_float(text) {
        return Err(err());
    }
    if fmt == FloatFormat::F64 {
        let v: f64 = text.parse().map_err(|_| err())?;
        return if v.is_finite() {
            Ok(v.to_bits())
        } else {
            Err(err())
        };
    }
    let v: f32 = text.parse().map_err(|_| err())?;
    if !v.is_finite() {
        return Err(err());
    }
    if fmt == FloatFormat::F32 {
        return Ok(u64::from(v.to_bits()));
    }
    // Narrow formats: from the 32-bit value, truncating toward zero.
    let bits = v.to_bits();
    let sign = bits >> 31 == 1;
    let exp_field = i64::from((bits >> 23) & 0xff);
    let frac = u128::from(bits & 0x7f_ffff);
    if exp_field == 0 {
        // f32 subnormals are far below any narrow format's range.
        return Ok(u64::from(sign) << (fmt.exp_bits + fmt.frac_bits));
    }
    let e = exp_field - 127;
    if e + fmt.bias() >= fmt.max_exp_field() {
        return Err(err());
    }
    Ok(fmt.pack_truncating(sign, e, frac | (1 << 23), 23))
}

#[cfg(test)]
mod parse_tests {
    use super::*;

    #[test]
    fn integers() {
        assert_eq!(parse_u32("+5"), Ok(5));
        assert_eq!(parse_u32("0X10"), Ok(16));
        assert_eq!(parse_u32("010"), Ok(8));
        assert!(parse_u32("08").is_err());
        assert_eq!(
            parse_u32("-0").unwrap_err(),
            "Cannot put a negative number in an unsigned literal"
        );
        assert!(parse_u32("1.0").is_err());
        assert!(parse_u32("1e3").is_err());
        assert_eq!(parse_int("0x80000000", 32, true), Ok(0xffff_ffff_8000_0000));
        assert!(
            parse_int("2147483648", 32, true)
                .unwrap_err()
                .contains("does not fit in a 32-bit signed integer")
        );
        assert_eq!(
            parse_int("0xffff", 16, true).map(|v| v as u32),
            Ok(0xffff_ffff)
        );
        assert_eq!(
            parse_int("-0x8000", 16, true).map(|v| v as u32),
            Ok(0xffff_8000)
        );
        assert_eq!(
            parse_int("-0x7fff", 16, true).map(|v| v as u32),
            Ok(0xffff_8001)
        );
        assert!(parse_int("65536", 16, false).is_err());
        assert_eq!(
            parse_int("0xff", 8, true).map(|v| v as u32),
            Ok(0xffff_ffff)
        );
        assert!(parse_int("128", 8, true).is_err());
        assert_eq!(parse_int("0xffffffffffffffff", 64, true), Ok(u64::MAX));
        assert!(
            parse_int("18446744073709551616", 64, false)
                .unwrap_err()
                .starts_with("Invalid unsigned integer literal")
        );
    }

    #[test]
    fn floats() {
        let f32b = |s: &str| parse_float(s, 32, FloatFormat::F32);
        let f16b = |s: &str| parse_float(s, 16, FloatFormat::F16);
        assert_eq!(f32b("16777217"), Ok(0x4b80_0000));
        assert_eq!(f32b("1.00000006"), Ok(0x3f80_0001));
        assert!(f32b("1e39").is_err());
        assert!(parse_float("1e309", 64, FloatFormat::F64).is_err());
        assert!(f16b("1e5").is_err());
        assert_eq!(f32b("1e-50"), Ok(0));
        for ok in ["+1", ".5", "1.", "00.5", "1E2"] {
            assert!(f32b(ok).is_ok(), "{ok}");
        }
        for bad in ["1.5f", "0x3", "0X1P+1", "inf", "nan", "+0x1p+0"] {
            assert!(f32b(bad).is_err(), "{bad}");
        }
        assert_eq!(f16b("1.0009"), Ok(0x3c00));
        assert_eq!(f16b("65520"), Ok(0x7bff));
        assert_eq!(f32b("0x1.0000018p+0"), Ok(0x3f80_0000));
        assert_eq!(f32b("0x1p+129"), Ok(0x7f80_0000));
        assert_eq!(f32b("0x1.8p+128"), Ok(0x7fc0_0000));
        assert_eq!(f16b("0x1.2p+16"), Ok(0x7c80));
        assert_eq!(f16b("-0x1.001p+16"), Ok(0xfc00));
        assert_eq!(f32b("0x1p-149"), Ok(1));
        assert_eq!(f16b("0x1.8p+0"), Ok(0x3e00));
        assert_eq!(parse_float("0x1.8p+0", 16, FloatFormat::BF16), Ok(0x3fc0));
    }
}
