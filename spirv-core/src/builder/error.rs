//! What can go wrong while building, and which push it was.

use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
use crate::spv;
use core::fmt;

/// What went wrong while building.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum BuildErrorKind {
    /// An instruction that belongs inside a function was pushed outside one.
    OutsideFunction(spv::Opcode),
    /// `OpFunction` was pushed inside a function.
    FunctionInsideFunction,
    /// `OpFunctionEnd` (or a parameter or block) was pushed with no function open.
    NoFunctionOpen(spv::Opcode),
    /// [`Builder::build`](super::Builder::build) was called with a function still open.
    UnterminatedFunction,
    /// The instruction could not be encoded (too long, or a raw opcode above 65535).
    Encode(EncodeError),
    /// An id of 0, or of `u32::MAX`, or an id allocation past it: the header's bound
    /// (the largest id plus one) must fit 32 bits.
    IdOverflow,
    /// An id operand of 0, which is not an id.
    ZeroId,
    /// The instruction's operands do not read as the reader would read them: an id
    /// defined twice, an `OpConstant` whose type was not pushed before it, an
    /// `OpExtInst` of a set not imported before it or whose layout is not known, …
    Operands(DecodeErrorKind),
    /// The module does not read back (see [`BuildError::module_error`]).
    Read(DecodeErrorKind),
}

/// A building error: what went wrong and the push it points at.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct BuildError {
    /// What went wrong.
    pub kind: BuildErrorKind,
    /// The 0-based number of the push it points at (counting every instruction pushed,
    /// by [`Builder::push`](super::Builder::push) or the helpers that push one); `None`
    /// for an error of no instruction (an id allocation, an open function at the end).
    pub push: Option<usize>,
    /// For [`BuildErrorKind::Read`]: the reader's error, in the words of the module.
    pub module_error: Option<DecodeError>,
}

impl BuildError {
    pub(super) fn new(kind: BuildErrorKind, push: Option<usize>) -> Self {
        BuildError {
            kind,
            push,
            module_error: None,
        }
    }
}

impl fmt::Display for BuildErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildErrorKind::OutsideFunction(op) => write!(f, "{op:?} must be inside a function"),
            BuildErrorKind::FunctionInsideFunction => f.write_str("OpFunction inside a function"),
            BuildErrorKind::NoFunctionOpen(op) => write!(f, "{op:?} with no function open"),
            BuildErrorKind::UnterminatedFunction => {
                f.write_str("a function is still open (no OpFunctionEnd)")
            }
            BuildErrorKind::Encode(e) => write!(f, "{e}"),
            BuildErrorKind::IdOverflow => {
                f.write_str("id out of range: the bound (largest id + 1) must fit 32 bits")
            }
            BuildErrorKind::ZeroId => f.write_str("id 0 is not a valid id"),
            BuildErrorKind::Operands(kind) => write!(f, "{kind}"),
            BuildErrorKind::Read(kind) => write!(f, "the module does not read back: {kind}"),
        }
    }
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.push {
            Some(push) => write!(f, "{} (push {push})", self.kind),
            None => write!(f, "{}", self.kind),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for BuildError {}
