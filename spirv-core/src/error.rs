//! The one decode error type: a word offset, an instruction index and a kind.

use core::fmt;

/// What went wrong while decoding a binary.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecodeErrorKind {
    /// The byte length is not a multiple of 4.
    ByteLengthNotMultipleOf4 {
        /// The length in bytes.
        len: usize,
    },
    /// Fewer than the 5 header words.
    TruncatedHeader {
        /// How many words there were.
        words: usize,
    },
    /// The first word is not the SPIR-V magic number in either byte order.
    BadMagic {
        /// The word found.
        found: u32,
    },
    /// An instruction's word count is 0.
    ZeroWordCount,
    /// An instruction claims more words than remain.
    InstructionPastEnd {
        /// The word count it claims.
        word_count: u32,
        /// The words left in the module.
        available: usize,
    },
    /// The instruction ended before an operand that must be present.
    MissingOperand {
        /// The operand's kind.
        kind: &'static str,
    },
    /// Words remain after the last operand the layout allows.
    ExtraOperands {
        /// How many words are left over.
        count: usize,
    },
    /// A literal string has no NUL terminator within its instruction.
    UnterminatedString,
    /// The opcode (or extended instruction number) is not in the grammar.
    UnknownOpcode {
        /// The opcode.
        opcode: u32,
    },
    /// `OpSpecConstantOp` embeds an opcode it may not embed (see
    /// [`crate::spec_constant_op`]).
    InvalidSpecConstantOpcode {
        /// The embedded opcode.
        opcode: u32,
    },
    /// A ValueEnum/BitEnum operand has a value the grammar does not know.
    UnknownEnumerant {
        /// The operand kind.
        kind: &'static str,
        /// The value.
        value: u32,
    },
    /// An id operand is 0, which is not an id (strict mode).
    ZeroId,
    /// An id is not below the header's bound (strict mode).
    IdOutOfBounds {
        /// The id.
        id: u32,
        /// The header's bound.
        bound: u32,
    },
    /// A context-dependent literal's type is not a scalar integer or float type.
    NotANumericType {
        /// The type id (or, for OpSwitch, the selector id).
        id: u32,
    },
    /// A literal's type is wider than 64 bits, or the literal has the wrong word count.
    BadLiteralWidth {
        /// The width in bits, or the word count for an untyped literal.
        width: u32,
    },
    /// `OpExtInst` names a set id that is not the result of an `OpExtInstImport`.
    UnknownExtInstSetId {
        /// The set id.
        id: u32,
    },
    /// An `OpExtInstImport` names a set no registry entry matches (strict mode).
    UnknownExtInstImport,
    /// An `OpExtInst` of a set whose operand layout is not known: neither registered nor
    /// `NonSemantic.` (whose operands are all ids). Its ids cannot be found, so
    /// [`Module::remap_ids`](crate::Module::remap_ids) refuses the module.
    UnknownExtInstLayout,
    /// A departure from the logical layout (strict mode); see
    /// [`LayoutIssue`](crate::LayoutIssue).
    Layout(crate::LayoutIssueKind),
    /// Bytes after a literal string's NUL are not zero; typed decode rejects them so
    /// that a re-encode cannot silently change the words (the raw words are kept).
    NonZeroPadding,
    /// An id is defined twice.
    IdRedefined {
        /// The id.
        id: u32,
    },
}

/// A decode error: the kind, the word offset from the start of the module (header
/// included), and the 0-based index of the instruction it is in, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct DecodeError {
    /// What went wrong.
    pub kind: DecodeErrorKind,
    /// Word offset from the start of the module.
    pub offset: usize,
    /// 0-based index of the instruction, counting from the first after the header;
    /// `None` for errors of the bytes or the header.
    pub instruction: Option<usize>,
}

impl DecodeError {
    /// An error in instruction `instruction` (0-based), at word `offset`.
    #[cold]
    pub fn new(kind: DecodeErrorKind, offset: usize, instruction: usize) -> Self {
        DecodeError {
            kind,
            offset,
            instruction: Some(instruction),
        }
    }

    /// An error of the bytes or the header, at word `offset`, in no instruction.
    #[cold]
    pub fn at_word(kind: DecodeErrorKind, offset: usize) -> Self {
        DecodeError {
            kind,
            offset,
            instruction: None,
        }
    }
}

impl fmt::Display for DecodeErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use DecodeErrorKind::*;
        match self {
            ByteLengthNotMultipleOf4 { len } => {
                write!(f, "byte length {len} is not a multiple of 4")
            }
            TruncatedHeader { words } => write!(
                f,
                "module has incomplete header: only {words} words instead of 5"
            ),
            BadMagic { found } => write!(f, "invalid SPIR-V magic number {found:#010x}"),
            ZeroWordCount => f.write_str("invalid instruction word count: 0"),
            InstructionPastEnd {
                word_count,
                available,
            } => {
                write!(
                    f,
                    "instruction word count {word_count} runs past the end ({available} words left)"
                )
            }
            MissingOperand { kind } => write!(
                f,
                "expected an operand of kind {kind}, but the instruction ended"
            ),
            ExtraOperands { count } => {
                write!(f, "{count} word(s) left over after the last operand")
            }
            UnterminatedString => f.write_str("literal string has no NUL terminator"),
            UnknownOpcode { opcode } => write!(f, "invalid opcode: {opcode}"),
            InvalidSpecConstantOpcode { opcode } => {
                write!(f, "invalid OpSpecConstantOp opcode: {opcode}")
            }
            UnknownEnumerant { kind, value } => write!(f, "invalid {kind} operand: {value}"),
            ZeroId => f.write_str("id 0 is not a valid id"),
            IdOutOfBounds { id, bound } => write!(f, "id {id} is not below the bound {bound}"),
            NotANumericType { id } => {
                write!(f, "id {id} is not a scalar integer or floating-point type")
            }
            BadLiteralWidth { width } => write!(f, "unsupported literal width {width}"),
            UnknownExtInstSetId { id } => write!(
                f,
                "OpExtInst set id {id} does not reference an OpExtInstImport"
            ),
            UnknownExtInstImport => f.write_str("unknown extended instruction set import"),
            UnknownExtInstLayout => f.write_str(
                "OpExtInst of a set whose operand layout is not known (neither registered nor NonSemantic.)",
            ),
            Layout(issue) => write!(f, "layout: {issue}"),
            NonZeroPadding => f.write_str("literal string padding after the NUL is not zero"),
            IdRedefined { id } => write!(f, "id {id} is defined more than once"),
        }
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.instruction {
            Some(i) => write!(f, "{} (instruction {i}) at word {}", self.kind, self.offset),
            None => write!(f, "{} at word {}", self.kind, self.offset),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for DecodeError {}

/// Why an instruction could not be encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EncodeError {
    /// It would take more words than its leading word can count (65535).
    TooLong {
        /// The words it would take, leading word included.
        words: usize,
    },
    /// An opcode above 65535, which the leading word's low half cannot hold (an
    /// instruction kept as raw words).
    OpcodeOutOfRange {
        /// The opcode.
        opcode: u32,
    },
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodeError::TooLong { words } => {
                write!(
                    f,
                    "an instruction of {words} words is longer than 65535 words"
                )
            }
            EncodeError::OpcodeOutOfRange { opcode } => {
                write!(f, "opcode {opcode} does not fit 16 bits")
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for EncodeError {}
