//! Words and bytes: the header, byte-order handling, and the zero-copy iterator over
//! raw instructions.

use crate::__private::Vec;
use crate::error::{DecodeError, DecodeErrorKind};

/// The SPIR-V magic number.
pub const MAGIC: u32 = 0x0723_0203;

/// The five header words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Header {
    /// Version word: `0x00MMmm00`.
    pub version: u32,
    /// Generator word: tool id in the high 16 bits, tool version in the low.
    pub generator: u32,
    /// Every id is below this.
    pub bound: u32,
    /// Reserved schema word.
    pub schema: u32,
}

impl Header {
    /// `(major, minor)` from the version word.
    pub fn version(&self) -> (u8, u8) {
        ((self.version >> 16) as u8, (self.version >> 8) as u8)
    }
    /// The version word for `major.minor`.
    pub fn version_word(major: u8, minor: u8) -> u32 {
        (u32::from(major) << 16) | (u32::from(minor) << 8)
    }
    /// The five words, magic first.
    pub fn to_words(&self) -> [u32; 5] {
        [MAGIC, self.version, self.generator, self.bound, self.schema]
    }
}

/// The byte order a module was stored in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Endian {
    /// Little-endian (what every writer here produces).
    Little,
    /// Big-endian.
    Big,
}

/// Converts bytes to words in host value order, detecting the byte order from the magic
/// number. Literal strings need no special care afterwards: their bytes are defined on
/// word values, lowest byte first.
///
/// # Errors
/// The length is not a multiple of 4, the header is short, or the magic is wrong.
pub fn words_from_bytes(bytes: &[u8]) -> Result<(Vec<u32>, Endian), DecodeError> {
    if bytes.len() % 4 != 0 {
        return Err(DecodeError::at_word(
            DecodeErrorKind::ByteLengthNotMultipleOf4 { len: bytes.len() },
            bytes.len() / 4,
        ));
    }
    if bytes.len() < 20 {
        return Err(DecodeError::at_word(
            DecodeErrorKind::TruncatedHeader {
                words: bytes.len() / 4,
            },
            bytes.len() / 4,
        ));
    }
    let endian = match bytes.get(..4) {
        Some([0x03, 0x02, 0x23, 0x07]) => Endian::Little,
        Some([0x07, 0x23, 0x02, 0x03]) => Endian::Big,
        Some(b) => {
            let found = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            return Err(DecodeError::at_word(DecodeErrorKind::BadMagic { found }, 0));
        }
        None => {
            return Err(DecodeError::at_word(
                DecodeErrorKind::TruncatedHeader { words: 0 },
                0,
            ));
        }
    };
    // One loop per byte order, with no branch inside: the compiler vectorizes both.
    let chunks = bytes.chunks_exact(4).map(|c| [c[0], c[1], c[2], c[3]]);
    let words = match endian {
        Endian::Little => chunks.map(u32::from_le_bytes).collect(),
        Endian::Big => chunks.map(u32::from_be_bytes).collect(),
    };
    Ok((words, endian))
}

/// Reverses the byte order of every word in place: for words read from a module stored
/// in the other byte order (their first word is [`MAGIC`] byte-swapped).
///
/// ```
/// use spirv_core::binary::{swap_words, MAGIC};
/// let mut words = [MAGIC.swap_bytes(), 0x0000_0100];
/// swap_words(&mut words);
/// assert_eq!(words, [MAGIC, 0x0001_0000]);
/// ```
pub fn swap_words(words: &mut [u32]) {
    for w in words {
        *w = w.swap_bytes();
    }
}

/// Writes words as little-endian bytes.
pub fn words_to_bytes(words: &[u32]) -> Vec<u8> {
    let mut out = Vec::with_capacity(words.len() * 4);
    for w in words {
        out.extend_from_slice(&w.to_le_bytes());
    }
    out
}

/// Reads the header. A byte-swapped magic means the words came from a big-endian file
/// read as little-endian; use [`words_from_bytes`] for bytes.
///
/// # Errors
/// Fewer than 5 words, or a wrong magic number.
pub fn parse_header(words: &[u32]) -> Result<Header, DecodeError> {
    // The length first, then the magic, as spirv-dis checks them.
    let [magic, version, generator, bound, schema, ..] = *words else {
        return Err(DecodeError::at_word(
            DecodeErrorKind::TruncatedHeader { words: words.len() },
            words.len(),
        ));
    };
    if magic != MAGIC {
        return Err(DecodeError::at_word(
            DecodeErrorKind::BadMagic { found: magic },
            0,
        ));
    }
    Ok(Header {
        version,
        generator,
        bound,
        schema,
    })
}

/// One instruction as raw words, borrowed from the module.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RawInstRef<'a> {
    /// The opcode (low 16 bits of the leading word).
    pub opcode: u16,
    /// The operand words (the leading word excluded).
    pub operands: &'a [u32],
    /// Word offset of the leading word from the start of the slice iterated (the module
    /// start when iterating a whole module).
    pub offset: usize,
    /// 0-based instruction index.
    pub index: usize,
}

impl RawInstRef<'_> {
    /// Word count, leading word included.
    pub fn word_count(&self) -> usize {
        self.operands.len() + 1
    }
}

/// A zero-copy iterator over instructions; it allocates nothing.
#[derive(Debug, Clone)]
pub struct RawInstructions<'a> {
    words: &'a [u32],
    pos: usize,
    /// Added to reported offsets: where `words` starts in the module.
    base: usize,
    index: usize,
    failed: bool,
}

impl<'a> RawInstructions<'a> {
    /// Iterates the instruction stream `words`, whose first word sits at word `base` of
    /// the module (5 after the header): offsets count from the module start.
    pub fn new(words: &'a [u32], base: usize) -> Self {
        RawInstructions {
            words,
            pos: 0,
            base,
            index: 0,
            failed: false,
        }
    }
    /// Iterates a whole module's words, header included; offsets count from the module start.
    ///
    /// # Errors
    /// The header is malformed.
    pub fn module(words: &'a [u32]) -> Result<(Header, Self), DecodeError> {
        let h = parse_header(words)?;
        Ok((
            h,
            RawInstructions {
                words,
                pos: 5,
                base: 0,
                index: 0,
                failed: false,
            },
        ))
    }
}

impl<'a> Iterator for RawInstructions<'a> {
    type Item = Result<RawInstRef<'a>, DecodeError>;
    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let &first = self.words.get(self.pos)?;
        if self.failed {
            return None;
        }
        let count = (first >> 16) as usize;
        let here = self.pos;
        let offset = self.base + here;
        let index = self.index;
        if count == 0 {
            self.failed = true;
            return Some(Err(DecodeError::new(
                DecodeErrorKind::ZeroWordCount,
                offset,
                index,
            )));
        }
        match self.words.get(here + 1..here + count) {
            Some(operands) => {
                self.pos += count;
                self.index += 1;
                Some(Ok(RawInstRef {
                    opcode: first as u16,
                    operands,
                    offset,
                    index,
                }))
            }
            None => {
                self.failed = true;
                Some(Err(DecodeError::new(
                    DecodeErrorKind::InstructionPastEnd {
                        word_count: first >> 16,
                        available: self.words.len() - here,
                    },
                    offset,
                    index,
                )))
            }
        }
    }
}
