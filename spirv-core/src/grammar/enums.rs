//! The traits of the generated enum and mask types, and the table-driven helpers
//! that split masks into bits and print values by their grammar names.

use super::{Enumerant, OperandKind};
use core::fmt;

/// A generated ValueEnum or BitEnum type: an open `u32` newtype tied to its table.
pub trait Enum: Copy {
    /// The kind's grammar table.
    const KIND: &'static OperandKind;
    /// Wraps a value.
    fn from_u32(value: u32) -> Self;
    /// The value.
    fn to_u32(self) -> u32;
    /// The grammar entry for this exact value.
    fn info(self) -> Option<&'static Enumerant> {
        Self::KIND.enumerant(self.to_u32())
    }
    /// The canonical name of this exact value.
    fn name(self) -> Option<&'static str> {
        self.info().map(|e| e.name)
    }
    /// Looks a canonical name or alias up.
    fn from_name(name: &str) -> Option<Self> {
        Self::KIND
            .enumerant_by_name(name)
            .map(|e| Self::from_u32(e.value))
    }
}

/// Mask behaviour for generated BitEnum types.
pub trait Mask: Enum {
    /// Whether every bit of `other` is set.
    fn contains(self, other: Self) -> bool {
        self.to_u32() & other.to_u32() == other.to_u32()
    }
    /// Whether no bit is set.
    fn is_empty(self) -> bool {
        self.to_u32() == 0
    }
    /// The named single bits that are set, lowest first, and the bits without a name.
    fn split(self) -> (MaskBits, u32) {
        let mut rest = self.to_u32();
        for e in Self::KIND.enumerants {
            if e.value != 0 && e.value.is_power_of_two() && rest & e.value != 0 {
                rest &= !e.value;
            }
        }
        (
            MaskBits {
                kind: Self::KIND,
                bits: self.to_u32() & !rest,
            },
            rest,
        )
    }
}

/// Iterator over the named bits of a mask, lowest first.
#[derive(Debug, Clone)]
pub struct MaskBits {
    kind: &'static OperandKind,
    bits: u32,
}

impl Iterator for MaskBits {
    type Item = &'static Enumerant;
    fn next(&mut self) -> Option<Self::Item> {
        while self.bits != 0 {
            let bit = self.bits & self.bits.wrapping_neg();
            self.bits &= !bit;
            if let Some(e) = self.kind.enumerant(bit) {
                return Some(e);
            }
        }
        None
    }
}

/// The single bits set in `mask`, lowest first: the order in which mask parameters
/// follow the mask word.
pub fn set_bits(mask: u32) -> impl Iterator<Item = u32> {
    let mut bits = mask;
    core::iter::from_fn(move || {
        if bits == 0 {
            return None;
        }
        let bit = bits & bits.wrapping_neg();
        bits &= !bit;
        Some(bit)
    })
}

#[doc(hidden)]
/// `Debug` for generated value types: the canonical name, or `Kind(value)`.
pub fn fmt_value(kind: &OperandKind, value: u32, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    match kind.enumerant(value) {
        Some(e) => f.write_str(e.name),
        None => write!(f, "{}({value})", kind.name),
    }
}

#[doc(hidden)]
/// `Debug` for generated masks: `A|B|0x…`, or the name of 0.
pub fn fmt_mask(kind: &OperandKind, value: u32, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    if value == 0 {
        return match kind.enumerant(0) {
            Some(e) => f.write_str(e.name),
            None => f.write_str("0"),
        };
    }
    let mut first = true;
    let mut rest = value;
    for bit in set_bits(value) {
        if let Some(e) = kind.enumerant(bit) {
            if !first {
                f.write_str("|")?;
            }
            f.write_str(e.name)?;
            first = false;
            rest &= !bit;
        }
    }
    if rest != 0 {
        if !first {
            f.write_str("|")?;
        }
        write!(f, "{rest:#x}")?;
    }
    Ok(())
}
