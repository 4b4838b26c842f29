//! Constants and specialization constants, and their values: literals as written,
//! `OpSpecConstantOp` results computed where the operation and operands allow, at the
//! specialization constants' default values.

use crate::__private::Vec;
use crate::analysis::Type;
use crate::spv;
use crate::types::Id;

/// A constant or specialization constant declared by the module.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Constant {
    /// Its type.
    pub type_id: Id,
    /// Declared by an `OpSpecConstant*` instruction.
    pub specialization: bool,
    /// What it is made of.
    pub kind: ConstantKind,
}

/// How a constant is given.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ConstantKind {
    /// `OpConstantTrue`/`False`, `OpSpecConstantTrue`/`False`.
    Bool(bool),
    /// `OpConstant`/`OpSpecConstant`: the literal's words, low word first.
    Scalar(u64),
    /// `OpConstantComposite`/`OpSpecConstantComposite`: the constituents.
    Composite(Vec<Id>),
    /// `OpConstantNull`.
    Null,
    /// `OpSpecConstantOp`: the operation and its operand words.
    Op {
        /// The embedded opcode.
        opcode: spv::Opcode,
        /// Its operands (ids, and literals for the operations that take them).
        operands: Vec<u32>,
    },
    /// Any other constant instruction (`OpConstantSampler`, pipe storage, …).
    Other {
        /// The instruction.
        opcode: spv::Opcode,
    },
}

/// The value of a constant, at the specialization constants' defaults.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Value {
    /// A boolean.
    Bool(bool),
    /// An integer: its bits (zero-extended), width and signedness.
    Int {
        /// The value's bits, above `width` zero.
        bits: u64,
        /// Width in bits.
        width: u32,
        /// Signedness of the type.
        signed: bool,
    },
    /// A float: its bits and width.
    Float {
        /// The value's bits, above `width` zero.
        bits: u64,
        /// Width in bits.
        width: u32,
    },
    /// A composite declared by its constituents (look each one up).
    Composite(Vec<Id>),
    /// A vector computed by an `OpSpecConstantOp` (`OpVectorShuffle`, …).
    Vector(Vec<Value>),
    /// `OpConstantNull`: all zeros.
    Null,
}

impl Value {
    /// An integer value as `i64`, sign-extended when the type is signed.
    pub fn as_i64(&self) -> Option<i64> {
        match *self {
            Value::Int {
                bits,
                width,
                signed,
            } => Some(if signed && width < 64 && width > 0 {
                let shift = 64 - width;
                ((bits << shift) as i64) >> shift
            } else {
                bits as i64
            }),
            Value::Bool(b) => Some(i64::from(b)),
            Value::Null => Some(0),
            _ => None,
        }
    }

    /// An integer value as `u64` (its bits).
    pub fn as_u64(&self) -> Option<u64> {
        match *self {
            Value::Int { bits, .. } => Some(bits),
            Value::Bool(b) => Some(u64::from(b)),
            Value::Null => Some(0),
            _ => None,
        }
    }

    /// A 16-, 32- or 64-bit float value as `f64`.
    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            Value::Float { bits, width: 32 } => Some(f64::from(f32::from_bits(bits as u32))),
            Value::Float { bits, width: 64 } => Some(f64::from_bits(bits)),
            Value::Float { bits, width: 16 } => Some(f16_to_f64(bits as u16)),
            Value::Null => Some(0.0),
            _ => None,
        }
    }
}

fn f16_to_f64(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = i32::from((h >> 10) & 0x1f);
    let frac = f64::from(h & 0x3ff);
    sign * match exp {
        0 => frac * pow2(-24),
        31 if frac == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        e => (1.0 + frac / 1024.0) * pow2(e - 15),
    }
}

fn pow2(e: i32) -> f64 {
    f64::from_bits(((1023 + e) as u64) << 52)
}

impl Constant {
    /// Reads a constant instruction (`OpConstant*`, `OpSpecConstant*`); its operands
    /// start with the result type and result id.
    pub(crate) fn read(opcode: spv::Opcode, ops: &[u32]) -> Option<(u32, Constant)> {
        use spv::Opcode as O;
        let (&type_id, rest) = ops.split_first()?;
        let (&id, rest) = rest.split_first()?;
        let (specialization, kind) = match opcode {
            O::ConstantTrue => (false, ConstantKind::Bool(true)),
            O::ConstantFalse => (false, ConstantKind::Bool(false)),
            O::SpecConstantTrue => (true, ConstantKind::Bool(true)),
            O::SpecConstantFalse => (true, ConstantKind::Bool(false)),
            O::Constant | O::SpecConstant => (
                opcode == O::SpecConstant,
                ConstantKind::Scalar(
                    u64::from(rest.first().copied().unwrap_or(0))
                        | u64::from(rest.get(1).copied().unwrap_or(0)) << 32,
                ),
            ),
            O::ConstantComposite | O::SpecConstantComposite => (
                opcode == O::SpecConstantComposite,
                ConstantKind::Composite(rest.iter().map(|&c| Id(c)).collect()),
            ),
            O::ConstantNull => (false, ConstantKind::Null),
            O::SpecConstantOp => (
                true,
                ConstantKind::Op {
                    opcode: spv::Opcode(*rest.first()? as u16),
                    operands: rest.get(1..)?.to_vec(),
                },
            ),
            _ => {
                let info = opcode.info()?;
                if spv::Class::of(info) != Some(spv::Class::ConstantCreation) {
                    return None;
                }
                let spec = info.opname.starts_with("OpSpec");
                (spec, ConstantKind::Other { opcode })
            }
        };
        Some((
            id,
            Constant {
                type_id: Id(type_id),
                specialization,
                kind,
            },
        ))
    }
}

/// What evaluation needs to know about a type: scalar width and signedness.
#[derive(Clone, Copy)]
pub(crate) enum Scalar {
    Bool,
    Int { width: u32, signed: bool },
    Float { width: u32 },
}

impl Scalar {
    pub(crate) fn of(t: &Type) -> Option<Scalar> {
        Some(match *t {
            Type::Bool => Scalar::Bool,
            Type::Int { width, signed } => Scalar::Int { width, signed },
            Type::Float { width, .. } => Scalar::Float { width },
            _ => return None,
        })
    }
}

fn mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

/// The value of a literal constant of scalar type `s`.
pub(crate) fn literal_value(s: Scalar, words: u64) -> Value {
    match s {
        Scalar::Bool => Value::Bool(words != 0),
        Scalar::Int { width, signed } => Value::Int {
            bits: words & mask(width),
            width,
            signed,
        },
        Scalar::Float { width } => Value::Float {
            bits: words & mask(width),
            width,
        },
    }
}

/// The result of `OpSpecConstantOp` `opcode` on values `a` (its operands' values, or
/// `None` where unknown), with result type `result`. `None` where the operation is not
/// one this evaluates, an operand is unknown, or the result is undefined (division by
/// zero, shifts past the width).
pub(crate) fn evaluate(opcode: spv::Opcode, result: Scalar, a: &[Option<&Value>]) -> Option<Value> {
    use spv::Opcode as O;
    let int = |i: usize| a.get(i).copied().flatten().and_then(Value::as_u64);
    let (width, signed) = match result {
        Scalar::Int { width, signed } => (width, signed),
        Scalar::Bool => (1, false),
        Scalar::Float { .. } => {
            return match opcode {
                // Only a selection can give a float without float arithmetic.
                O::Select => select(a),
                _ => None,
            };
        }
    };
    let out = |bits: u64| -> Option<Value> {
        Some(match result {
            Scalar::Bool => Value::Bool(bits & 1 != 0),
            _ => Value::Int {
                bits: bits & mask(width),
                width,
                signed,
            },
        })
    };
    let bool_of = |b: bool| Some(Value::Bool(b));
    // The operand width for comparisons and shifts.
    let operand_width = |i: usize| match a.get(i).copied().flatten() {
        Some(Value::Int { width, .. }) => *width,
        _ => width,
    };
    let sign_extend = |v: u64, w: u32| -> i64 {
        if w == 0 || w >= 64 {
            v as i64
        } else {
            ((v << (64 - w)) as i64) >> (64 - w)
        }
    };
    let sx = |i: usize| int(i).map(|v| sign_extend(v, operand_width(i)));
    match opcode {
        O::IAdd => out(int(0)?.wrapping_add(int(1)?)),
        O::ISub => out(int(0)?.wrapping_sub(int(1)?)),
        O::IMul => out(int(0)?.wrapping_mul(int(1)?)),
        O::UDiv => out(int(0)?.checked_div(int(1)?)?),
        O::UMod => out(int(0)?.checked_rem(int(1)?)?),
        O::SDiv => out(sx(0)?.checked_div(sx(1)?)? as u64),
        O::SRem => out(sx(0)?.checked_rem(sx(1)?)? as u64),
        O::SMod => {
            let (x, y) = (sx(0)?, sx(1)?);
            let r = x.checked_rem(y)?;
            out((if r != 0 && (r < 0) != (y < 0) {
                r + y
            } else {
                r
            }) as u64)
        }
        O::ShiftLeftLogical => {
            let s = int(1)?;
            (s < u64::from(width))
                .then(|| int(0).map(|v| v << s))?
                .and_then(out)
        }
        O::ShiftRightLogical => {
            let s = int(1)?;
            (s < u64::from(width))
                .then(|| int(0).map(|v| (v & mask(width)) >> s))?
                .and_then(out)
        }
        O::ShiftRightArithmetic => {
            let s = int(1)?;
            (s < u64::from(width))
                .then(|| sx(0).map(|v| (v >> s) as u64))?
                .and_then(out)
        }
        O::BitwiseOr => out(int(0)? | int(1)?),
        O::BitwiseXor => out(int(0)? ^ int(1)?),
        O::BitwiseAnd => out(int(0)? & int(1)?),
        O::Not => out(!int(0)?),
        O::SNegate => out((sx(0)?.wrapping_neg()) as u64),
        O::LogicalOr => bool_of(int(0)? != 0 || int(1)? != 0),
        O::LogicalAnd => bool_of(int(0)? != 0 && int(1)? != 0),
        O::LogicalNot => bool_of(int(0)? == 0),
        O::LogicalEqual => bool_of((int(0)? != 0) == (int(1)? != 0)),
        O::LogicalNotEqual => bool_of((int(0)? != 0) != (int(1)? != 0)),
        O::IEqual => bool_of(int(0)? == int(1)?),
        O::INotEqual => bool_of(int(0)? != int(1)?),
        O::ULessThan => bool_of(int(0)? < int(1)?),
        O::UGreaterThan => bool_of(int(0)? > int(1)?),
        O::ULessThanEqual => bool_of(int(0)? <= int(1)?),
        O::UGreaterThanEqual => bool_of(int(0)? >= int(1)?),
        O::SLessThan => bool_of(sx(0)? < sx(1)?),
        O::SGreaterThan => bool_of(sx(0)? > sx(1)?),
        O::SLessThanEqual => bool_of(sx(0)? <= sx(1)?),
        O::SGreaterThanEqual => bool_of(sx(0)? >= sx(1)?),
        O::UConvert => out(int(0)?),
        O::SConvert => out(sx(0)? as u64),
        O::Select => select(a),
        _ => None,
    }
}

fn select(a: &[Option<&Value>]) -> Option<Value> {
    let cond = a.first().copied().flatten()?.as_u64()?;
    let pick = if cond != 0 { 1 } else { 2 };
    a.get(pick).copied().flatten().cloned()
}
