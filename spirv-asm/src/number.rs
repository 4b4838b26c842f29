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
    if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.') } else { s }
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
    let _ = write!(out, "p{}{}", if exp < 0 { '-' } else { '+' }, exp.unsigned_abs());
}

/// `OpTypeFloat` FP encodings, by their grammar names.
fn float_layout(width: u32, encoding: Option<u32>) -> Option<(u32, u32)> {
    let enc = encoding.and_then(|e| spirv_core::spv::kinds::FPEncoding.enumerant(e)).map(|e| e.name);
    match (width, enc) {
        (16, Some("BFloat16KHR")) => Some((8, 7)),
        (8, Some("Float8E4M3EXT")) => Some((4, 3)),
        (8, Some("Float8E5M2EXT")) => Some((5, 2)),
        (16, None) => Some((5, 10)),
        (32, None) => Some((8, 23)),
        (64, None) => Some((11, 52)),
        _ => None,
    }
}

/// Appends a typed literal (one or two words, low first) as spirv-dis prints it.
/// Literals wider than 64 bits print nothing, as in spirv-dis.
pub fn fmt_typed(out: &mut String, words: &[u32], ty: NumberType) {
    let lo = u64::from(words.first().copied().unwrap_or(0));
    let v = if words.len() >= 2 { lo | (u64::from(words[1]) << 32) } else { lo };
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
            _ => match float_layout(width, encoding) {
                Some((e, m)) => fmt_hex_float(out, v & ((1u64 << (e + m + 1)) - 1), e, m),
                None => {
                    let _ = write!(out, "{v}");
                }
            },
        },
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
