//! Support types that generated code refers to: ids and literal values.

use crate::__private::{Box, Vec};
use core::fmt;

/// A SPIR-V `<id>`: a number from 1 to the module's bound less one. It has no
/// `Default`: 0 is not an id.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Id(pub u32);

impl fmt::Debug for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "%{}", self.0)
    }
}

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "%{}", self.0)
    }
}

/// A literal string: the bytes before the NUL. It reads as `&str` when the bytes are
/// UTF-8 and keeps any other bytes unchanged, so every module round-trips. Strings of up
/// to [`LiteralString::INLINE`] bytes (most names) are kept without allocating.
#[derive(Clone)]
pub struct LiteralString(StrRepr);

/// Bytes kept without allocating: what fits in the space of a boxed slice and a tag.
const INLINE_STR: usize = 22;

#[derive(Clone)]
enum StrRepr {
    Inline { len: u8, bytes: [u8; INLINE_STR] },
    Heap(Box<[u8]>),
}

impl LiteralString {
    /// Bytes kept without allocating.
    pub const INLINE: usize = INLINE_STR;

    /// The string of these bytes (without a NUL).
    pub fn new(bytes: &[u8]) -> Self {
        if bytes.len() <= INLINE_STR {
            let mut inline = [0; INLINE_STR];
            inline[..bytes.len()].copy_from_slice(bytes);
            LiteralString(StrRepr::Inline {
                len: bytes.len() as u8,
                bytes: inline,
            })
        } else {
            LiteralString(StrRepr::Heap(bytes.into()))
        }
    }
    /// The first `len` bytes of `words` (little-endian within each word), which must
    /// hold them.
    pub(crate) fn from_words(words: &[u32], len: usize) -> Self {
        let fill = |out: &mut [u8]| crate::codec::fill_bytes(words, out);
        if len <= INLINE_STR {
            let mut inline = [0; INLINE_STR];
            fill(&mut inline[..len]);
            LiteralString(StrRepr::Inline {
                len: len as u8,
                bytes: inline,
            })
        } else {
            let mut heap = alloc::vec![0; len];
            fill(&mut heap);
            LiteralString(StrRepr::Heap(heap.into_boxed_slice()))
        }
    }
    /// The text, if the bytes are UTF-8.
    pub fn as_str(&self) -> Option<&str> {
        core::str::from_utf8(self.as_bytes()).ok()
    }
    /// The raw bytes, without the NUL.
    pub fn as_bytes(&self) -> &[u8] {
        match &self.0 {
            StrRepr::Inline { len, bytes } => &bytes[..usize::from(*len)],
            StrRepr::Heap(b) => b,
        }
    }
    /// Number of words the string takes when encoded (NUL and padding included).
    pub fn word_len(&self) -> usize {
        self.as_bytes().len() / 4 + 1
    }
}

impl Default for LiteralString {
    fn default() -> Self {
        LiteralString::new(&[])
    }
}

impl PartialEq for LiteralString {
    fn eq(&self, other: &Self) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl Eq for LiteralString {}

impl core::hash::Hash for LiteralString {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.as_bytes().hash(state);
    }
}

impl From<&str> for LiteralString {
    fn from(s: &str) -> Self {
        LiteralString::new(s.as_bytes())
    }
}

impl From<&[u8]> for LiteralString {
    fn from(bytes: &[u8]) -> Self {
        LiteralString::new(bytes)
    }
}

impl From<Vec<u8>> for LiteralString {
    fn from(bytes: Vec<u8>) -> Self {
        if bytes.len() <= INLINE_STR {
            LiteralString::new(&bytes)
        } else {
            LiteralString(StrRepr::Heap(bytes.into_boxed_slice()))
        }
    }
}

impl fmt::Debug for LiteralString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.as_str() {
            Some(s) => fmt::Debug::fmt(s, f),
            None => write!(f, "LiteralString({:?})", self.as_bytes()),
        }
    }
}

/// A `LiteralFloat` (32-bit), kept as bits so NaN payloads survive.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct LiteralFloat(pub u32);

impl LiteralFloat {
    /// The value as `f32`.
    pub fn value(self) -> f32 {
        f32::from_bits(self.0)
    }
}

impl fmt::Debug for LiteralFloat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.value())
    }
}

/// A context-dependent number (`OpConstant` values, `OpSwitch` cases): one or two words,
/// low word first, whose meaning comes from a type elsewhere in the module.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct LiteralNumber {
    words: [u32; 2],
    len: u8,
}

impl LiteralNumber {
    /// A one-word number.
    pub fn from_u32(v: u32) -> Self {
        LiteralNumber {
            words: [v, 0],
            len: 1,
        }
    }
    /// A two-word number, low word first.
    pub fn from_u64(v: u64) -> Self {
        LiteralNumber {
            words: [v as u32, (v >> 32) as u32],
            len: 2,
        }
    }
    /// From one or two words; `None` for any other count.
    pub fn from_words(words: &[u32]) -> Option<Self> {
        match *words {
            [a] => Some(Self::from_u32(a)),
            [a, b] => Some(LiteralNumber {
                words: [a, b],
                len: 2,
            }),
            _ => None,
        }
    }
    /// The words, low first.
    pub fn words(&self) -> &[u32] {
        &self.words[..usize::from(self.len)]
    }
    /// The bits as an unsigned 64-bit value.
    pub fn as_u64(&self) -> u64 {
        u64::from(self.words[0]) | (u64::from(self.words[1]) << 32)
    }
}

impl fmt::Debug for LiteralNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "LiteralNumber({:#x}, {} word(s))",
            self.as_u64(),
            self.len
        )
    }
}

/// An instruction kept as raw words: an unknown opcode, or one that did not decode.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RawInstruction {
    /// The opcode (or extended instruction number).
    pub opcode: u32,
    /// The operand words, without the leading word.
    pub operands: Vec<u32>,
}

impl RawInstruction {
    /// Copies the operand words.
    pub fn new(opcode: u32, operands: &[u32]) -> Self {
        RawInstruction {
            opcode,
            operands: operands.to_vec(),
        }
    }
}
