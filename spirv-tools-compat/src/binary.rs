//! [`Binary`]: a module's words as the tools return them, readable as words or bytes;
//! [`to_binary`] and [`from_binary`] view bytes as words and back, without copying.

use crate::error::{Error, SpirvResult};
use core::fmt;

/// Words the tools made (`External`, with `use-compiled-tools`, as in `spirv-tools`),
/// or words or bytes a user gave.
pub enum Binary {
    /// A module a tool returned.
    #[cfg(feature = "use-compiled-tools")]
    External(external::ExternalBinary),
    /// Words.
    OwnedU32(Vec<u32>),
    /// Bytes, a whole number of words, aligned for `u32` (see [`to_binary`]); made by
    /// [`Binary::try_from`] only when they are.
    OwnedU8(Vec<u8>),
}

/// The words a tool returned (in `spirv-tools`, a buffer SPIRV-Tools allocated).
#[cfg(feature = "use-compiled-tools")]
pub mod external {
    /// A module a tool returned, as words.
    pub struct ExternalBinary {
        pub(crate) words: Vec<u32>,
    }

    impl AsRef<[u32]> for ExternalBinary {
        #[inline]
        fn as_ref(&self) -> &[u32] {
            &self.words
        }
    }

    impl AsRef<[u8]> for ExternalBinary {
        #[inline]
        fn as_ref(&self) -> &[u8] {
            super::from_binary(&self.words)
        }
    }
}

impl Binary {
    /// What a tool returns: `External` as `spirv-tools` returns it where it exists.
    pub(crate) fn from_tool(words: Vec<u32>) -> Binary {
        #[cfg(feature = "use-compiled-tools")]
        {
            Binary::External(external::ExternalBinary { words })
        }
        #[cfg(not(feature = "use-compiled-tools"))]
        {
            Binary::OwnedU32(words)
        }
    }

    /// The module's bytes.
    #[inline]
    pub fn as_bytes(&self) -> &[u8] {
        self.as_ref()
    }

    /// The module's words.
    ///
    /// # Panics
    /// An `OwnedU8` a caller made with a length that is not a multiple of four or with
    /// bytes not aligned for `u32` (as `spirv-tools` panics; [`Binary::try_from`]
    /// never makes one).
    #[inline]
    pub fn as_words(&self) -> &[u32] {
        self.as_ref()
    }
}

impl TryFrom<Vec<u8>> for Binary {
    type Error = Error;

    /// The bytes as a module: `InvalidBinary` unless they are a whole number of words.
    /// Bytes not aligned for `u32` are copied into words (native byte order, as the
    /// view would read them).
    fn try_from(v: Vec<u8>) -> Result<Self, Self::Error> {
        if v.len() % 4 != 0 {
            return Err(Error {
                inner: SpirvResult::InvalidBinary,
                diagnostic: None,
            });
        }
        if to_binary(&v).is_ok() {
            return Ok(Binary::OwnedU8(v));
        }
        Ok(Binary::OwnedU32(
            v.chunks_exact(4)
                .map(|c| u32::from_ne_bytes([c[0], c[1], c[2], c[3]]))
                .collect(),
        ))
    }
}

impl AsRef<[u32]> for Binary {
    fn as_ref(&self) -> &[u32] {
        match self {
            #[cfg(feature = "use-compiled-tools")]
            Binary::External(b) => b.as_ref(),
            Binary::OwnedU32(v) => v,
            Binary::OwnedU8(v) => match to_binary(v) {
                Ok(words) => words,
                Err(_) => panic!(
                    "Binary::OwnedU8 holds bytes that are not whole aligned words; make it with Binary::try_from"
                ),
            },
        }
    }
}

impl AsRef<[u8]> for Binary {
    fn as_ref(&self) -> &[u8] {
        match self {
            #[cfg(feature = "use-compiled-tools")]
            Binary::External(b) => b.as_ref(),
            Binary::OwnedU32(v) => from_binary(v),
            Binary::OwnedU8(v) => v,
        }
    }
}

/// The variant and the word count.
impl fmt::Debug for Binary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self {
            #[cfg(feature = "use-compiled-tools")]
            Binary::External(_) => "External",
            Binary::OwnedU32(_) => "OwnedU32",
            Binary::OwnedU8(_) => "OwnedU8",
        };
        f.debug_struct(name)
            .field("word_count", &self.as_words().len())
            .finish()
    }
}

/// Words as their bytes, in native byte order, without copying.
#[inline]
pub fn from_binary(bin: &[u32]) -> &[u8] {
    bytemuck::cast_slice(bin)
}

/// Bytes as words, without copying: `InvalidBinary` unless the length is a multiple of
/// four and the bytes are aligned for `u32`.
///
/// # Errors
/// As above.
///
/// ```
/// let words = [0x0723_0203u32, 0x0001_0000];
/// let bytes = spirv_tools::binary::from_binary(&words);
/// assert_eq!(spirv_tools::binary::to_binary(bytes)?, &words);
/// assert!(spirv_tools::binary::to_binary(&bytes[..5]).is_err());
/// # Ok::<(), spirv_tools::Error>(())
/// ```
#[inline]
pub fn to_binary(bytes: &[u8]) -> Result<&[u32], Error> {
    bytemuck::try_cast_slice(bytes).map_err(|_| Error {
        inner: SpirvResult::InvalidBinary,
        diagnostic: None,
    })
}
