//! Typed encode and decode of operands: the [`Operand`] trait and its [`Reader`].
//!
//! Generated instruction structs implement [`Operand`] by reading and writing their
//! fields in order; the impls here cover the field types.

use crate::__private::Vec;
pub use crate::decode_context::DecodeContext;
use crate::error::{DecodeError, DecodeErrorKind};
use crate::grammar::Enum;
use crate::list::List;
use crate::types::{Id, LiteralFloat, LiteralNumber, LiteralString};

/// A value that can be written as operand words: every operand type, and the generated
/// instruction structs, which are only written this way (their enum's `decode` reads
/// each in place, so a decoder per struct would only be more code to compile).
pub trait EncodeWords {
    /// Appends the value's words.
    fn encode<W: Words>(&self, w: &mut W);
}

/// A value that can be read from and written to operand words.
pub trait Operand: EncodeWords + Sized {
    /// Words every value takes, if that is fixed; 0 if it varies. A list of such values
    /// is read into an allocation of the right size at once.
    const WORDS: usize = 0;
    /// Reads one value.
    ///
    /// # Errors
    /// The words run out or are malformed.
    fn decode(r: &mut Reader<'_>) -> Result<Self, DecodeError>;
}

/// Where encoded words go: a `Vec<u32>`, or [`SmallWords`] on the stack, so that
/// comparing and hashing typed values needs no allocation. spirv-core itself encodes
/// only into a [`Sink`], which holds either, so that every generated encoder is
/// compiled once rather than once per sink type.
pub trait Words {
    /// Appends one word.
    fn push(&mut self, word: u32);
    /// Appends words.
    fn extend_from_slice(&mut self, words: &[u32]);
}

impl Words for Vec<u32> {
    #[inline]
    fn push(&mut self, word: u32) {
        Vec::push(self, word);
    }
    #[inline]
    fn extend_from_slice(&mut self, words: &[u32]) {
        Vec::extend_from_slice(self, words);
    }
}

/// Words kept on the stack up to [`SmallWords::INLINE`], spilled to the heap past
/// that: what `PartialEq` and `Hash` of typed values encode into, so that nearly every
/// instruction compares and hashes without allocating.
#[derive(Debug)]
pub struct SmallWords {
    inline: [u32; SmallWords::INLINE],
    len: usize,
    spilled: Vec<u32>,
}

impl SmallWords {
    /// Words kept on the stack.
    pub const INLINE: usize = 64;

    /// No words.
    pub fn new() -> Self {
        SmallWords {
            inline: [0; SmallWords::INLINE],
            len: 0,
            spilled: Vec::new(),
        }
    }

    /// The words.
    pub fn as_slice(&self) -> &[u32] {
        if self.spilled.is_empty() {
            &self.inline[..self.len]
        } else {
            &self.spilled
        }
    }
}

impl Default for SmallWords {
    fn default() -> Self {
        SmallWords::new()
    }
}

impl Words for SmallWords {
    #[inline]
    fn push(&mut self, word: u32) {
        self.extend_from_slice(&[word]);
    }
    // Not inlined: a [`Sink`]'s every push would otherwise carry this path too.
    #[inline(never)]
    fn extend_from_slice(&mut self, words: &[u32]) {
        if !self.spilled.is_empty() {
            self.spilled.extend_from_slice(words);
        } else if let Some(room) = self.inline.get_mut(self.len..self.len + words.len()) {
            room.copy_from_slice(words);
            self.len += words.len();
        } else {
            self.spilled.extend_from_slice(&self.inline[..self.len]);
            self.spilled.extend_from_slice(words);
        }
    }
}

/// The one word sink spirv-core's encoders are compiled for: a `Vec<u32>` or a
/// [`SmallWords`], chosen when it is made. Each generated `encode` was compiled twice,
/// once per sink type (both kept by [`Encode`]): a seventh of a release build's code.
#[derive(Debug)]
pub struct Sink<'a>(SinkTarget<'a>);

#[derive(Debug)]
enum SinkTarget<'a> {
    Vec(&'a mut Vec<u32>),
    Small(&'a mut SmallWords),
}

impl<'a> From<&'a mut Vec<u32>> for Sink<'a> {
    fn from(w: &'a mut Vec<u32>) -> Self {
        Sink(SinkTarget::Vec(w))
    }
}

impl<'a> From<&'a mut SmallWords> for Sink<'a> {
    fn from(w: &'a mut SmallWords) -> Self {
        Sink(SinkTarget::Small(w))
    }
}

impl Sink<'_> {
    /// Appends a run of words counted where they are written: a generated encoder's
    /// one-word fields, in one call per run and a copy of a size known to the compiler.
    pub fn put<const N: usize>(&mut self, words: [u32; N]) {
        match &mut self.0 {
            SinkTarget::Vec(v) => v.extend_from_slice(&words),
            SinkTarget::Small(s) => s.extend_from_slice(&words),
        }
    }
}

impl Words for Sink<'_> {
    #[inline]
    fn push(&mut self, word: u32) {
        match &mut self.0 {
            SinkTarget::Vec(v) => v.push(word),
            SinkTarget::Small(s) => s.extend_from_slice(&[word]),
        }
    }
    #[inline]
    fn extend_from_slice(&mut self, words: &[u32]) {
        match &mut self.0 {
            SinkTarget::Vec(v) => v.extend_from_slice(words),
            SinkTarget::Small(s) => s.extend_from_slice(words),
        }
    }
}

/// Whether two typed values encode to the same words: `PartialEq` of the generated
/// `…Data` types, without allocating for encodings up to [`SmallWords::INLINE`] words. Through
/// `dyn Encode`, so that it is compiled once, not once per generated type (it was a
/// fifth of spirv-core's LLVM IR).
pub fn same_words(a: &dyn Encode, b: &dyn Encode) -> bool {
    let (mut x, mut y) = (SmallWords::new(), SmallWords::new());
    a.encode_to(&mut Sink::from(&mut x));
    b.encode_to(&mut Sink::from(&mut y));
    x.as_slice() == y.as_slice()
}

/// Hashes a typed value's words: `Hash` of the generated types, consistent with
/// [`same_words`].
pub fn hash_words<H: core::hash::Hasher>(v: &dyn Encode, state: &mut H) {
    let mut x = SmallWords::new();
    v.encode_to(&mut Sink::from(&mut x));
    core::hash::Hash::hash(x.as_slice(), state);
}

/// What a field holds while its instruction fails to read: every field type of a
/// generated struct has one. A struct whose read failed is never returned, so the
/// placeholder is never seen; `Id`'s is the invalid id 0, which is why `Id` has no
/// `Default`.
pub trait Placeholder {
    /// The stand-in value.
    fn placeholder() -> Self;
}

impl Placeholder for u32 {
    fn placeholder() -> Self {
        0
    }
}

impl Placeholder for Id {
    fn placeholder() -> Self {
        Id(0)
    }
}

impl Placeholder for LiteralString {
    fn placeholder() -> Self {
        LiteralString::default()
    }
}

impl Placeholder for LiteralNumber {
    fn placeholder() -> Self {
        LiteralNumber::default()
    }
}

impl Placeholder for LiteralFloat {
    fn placeholder() -> Self {
        LiteralFloat::default()
    }
}

impl<T: Enum> Placeholder for T {
    fn placeholder() -> Self {
        T::from_u32(0)
    }
}

impl<T> Placeholder for Option<T> {
    fn placeholder() -> Self {
        None
    }
}

impl<T> Placeholder for Vec<T> {
    fn placeholder() -> Self {
        Vec::new()
    }
}

impl<T: Copy> Placeholder for List<T> {
    fn placeholder() -> Self {
        List::new()
    }
}

impl<A: Placeholder, B: Placeholder> Placeholder for (A, B) {
    fn placeholder() -> Self {
        (A::placeholder(), B::placeholder())
    }
}

impl<A: Placeholder, B: Placeholder, C: Placeholder> Placeholder for (A, B, C) {
    fn placeholder() -> Self {
        (A::placeholder(), B::placeholder(), C::placeholder())
    }
}

/// [`EncodeWords`] made object safe, so that helpers shared by every
/// generated type take `&dyn Encode` and are compiled once rather than once per type.
pub trait Encode {
    /// Appends the value's words.
    fn encode_to(&self, w: &mut Sink<'_>);
}

impl<T: EncodeWords> Encode for T {
    fn encode_to(&self, w: &mut Sink<'_>) {
        self.encode(w);
    }
}

/// A cursor over one instruction's operand words.
#[derive(Debug)]
pub struct Reader<'a> {
    words: &'a [u32],
    pos: usize,
    ctx: &'a DecodeContext,
    failed: Option<DecodeError>,
}

impl<'a> Reader<'a> {
    /// Starts at the first operand word.
    pub fn new(words: &'a [u32], ctx: &'a DecodeContext) -> Self {
        Reader {
            words,
            pos: 0,
            ctx,
            failed: None,
        }
    }
    #[cold]
    fn error(&self, kind: DecodeErrorKind) -> DecodeError {
        // +1 for the instruction's leading word.
        DecodeError::new(kind, self.ctx.offset + 1 + self.pos, self.ctx.instruction)
    }
    /// The decode context.
    pub fn context(&self) -> &'a DecodeContext {
        self.ctx
    }
    /// Whether all words have been read.
    pub fn is_empty(&self) -> bool {
        self.pos >= self.words.len()
    }
    /// The words not read yet.
    pub fn rest(&self) -> &'a [u32] {
        self.words.get(self.pos..).unwrap_or(&[])
    }
    /// Reads one word.
    ///
    /// # Errors
    /// No word is left.
    #[inline]
    pub fn word(&mut self) -> Result<u32, DecodeError> {
        match self.words.get(self.pos) {
            Some(&w) => {
                self.pos += 1;
                Ok(w)
            }
            None => Err(self.error(DecodeErrorKind::MissingOperand { kind: "word" })),
        }
    }
    /// Reads a field: on error the reader records it and a placeholder stands in;
    /// [`Self::fields_read`] reports it. Generated decoders call it once per field and
    /// check once per instruction, so no field has its own error path. Not inlined: one
    /// copy per field type serves every instruction, which keeps the generated code
    /// small to compile (release builds of spirv-core take 16% less CPU).
    #[inline(never)]
    pub fn field<T: Operand + Placeholder>(&mut self) -> T {
        if self.failed.is_none() {
            match T::decode(self) {
                Ok(v) => return v,
                Err(e) => self.failed = Some(e),
            }
        }
        T::placeholder()
    }
    /// The first error a [`Self::field`] met, or else [`Self::finish`]'s: a struct
    /// reads all of its instruction's operands. (Checking here rather than after the
    /// enum's `match` lets the compiler build the decoded instruction in place.)
    pub fn fields_read(&mut self) -> Result<(), DecodeError> {
        match self.failed.take() {
            Some(e) => Err(e),
            None => self.finish(),
        }
    }
    /// Takes the first error a [`Self::field`] met: what a `…Data` decoder returns after
    /// reading an enumerant's parameters with `field` (one call each, rather than an
    /// inlined read and an error path per parameter).
    ///
    /// # Errors
    /// A parameter did not read.
    pub fn params_read(&mut self) -> Result<(), DecodeError> {
        match self.failed.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
    /// Reads one value of type `T`.
    ///
    /// # Errors
    /// See [`Operand::decode`].
    #[inline]
    pub fn read<T: Operand>(&mut self) -> Result<T, DecodeError> {
        T::decode(self)
    }
    /// Checks that every word was read.
    ///
    /// # Errors
    /// Words are left over.
    pub fn finish(&self) -> Result<(), DecodeError> {
        if self.pos < self.words.len() {
            Err(self.error(DecodeErrorKind::ExtraOperands {
                count: self.words.len() - self.pos,
            }))
        } else {
            Ok(())
        }
    }
    /// The error for an unknown opcode.
    #[cold]
    pub fn unknown_opcode(&self, opcode: u32) -> DecodeError {
        DecodeError::new(
            DecodeErrorKind::UnknownOpcode { opcode },
            self.ctx.offset,
            self.ctx.instruction,
        )
    }
    /// Hook for `OpSwitch`: the `(literal, label)` pairs, each literal sized by
    /// [`DecodeContext::switch_literal_words`].
    ///
    /// # Errors
    /// A pair is incomplete.
    pub fn read_switch_targets(&mut self) -> Result<Vec<(LiteralNumber, Id)>, DecodeError> {
        let n = self.ctx.switch_literal_words.clamp(1, 2) as usize;
        let mut out = Vec::new();
        while !self.is_empty() {
            let Some(lit) = self.words.get(self.pos..self.pos + n) else {
                return Err(self.error(DecodeErrorKind::MissingOperand {
                    kind: crate::spv::kinds::LiteralContextDependentNumber.name,
                }));
            };
            let lit = LiteralNumber::from_words(lit).unwrap_or_default();
            self.pos += n;
            out.push((lit, self.read()?));
        }
        Ok(out)
    }
    /// Hook for `OpSpecConstantOp`: reads the embedded opcode and returns it with the
    /// words the embedded instruction decodes from: the words already read (result type
    /// and id) followed by the rest.
    ///
    /// # Errors
    /// The opcode word is missing or is not one `OpSpecConstantOp` may embed (see
    /// [`crate::spec_constant_op`]); so the embedded instruction never embeds another.
    pub fn spec_constant_op_words(&mut self) -> Result<(u16, Vec<u32>), DecodeError> {
        let prefix = self.words.get(..self.pos).unwrap_or(&[]);
        let opcode = self.word()?;
        let op = match u16::try_from(opcode) {
            Ok(op) if crate::spec_constant_op::allows(opcode) => op,
            _ => {
                self.pos -= 1;
                return Err(self.error(DecodeErrorKind::InvalidSpecConstantOpcode { opcode }));
            }
        };
        let mut words = Vec::with_capacity(self.words.len());
        words.extend_from_slice(prefix);
        words.extend_from_slice(self.rest());
        self.pos = self.words.len();
        Ok((op, words))
    }
    /// Maps an error from an embedded decode back to this instruction's position.
    pub fn rebase(&self, mut e: DecodeError) -> DecodeError {
        e.offset = self.ctx.offset + 1 + self.pos.min(self.words.len());
        e
    }
}

impl EncodeWords for u32 {
    fn encode<W: Words>(&self, w: &mut W) {
        w.push(*self);
    }
}

impl Operand for u32 {
    const WORDS: usize = 1;
    #[inline]
    fn decode(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        r.word()
    }
}

impl EncodeWords for Id {
    fn encode<W: Words>(&self, w: &mut W) {
        w.push(self.0);
    }
}

impl Operand for Id {
    const WORDS: usize = 1;
    #[inline]
    fn decode(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        r.word().map(Id)
    }
}

impl EncodeWords for LiteralFloat {
    fn encode<W: Words>(&self, w: &mut W) {
        w.push(self.0);
    }
}

impl Operand for LiteralFloat {
    fn decode(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        r.word().map(LiteralFloat)
    }
}

/// Decodes a NUL-terminated string from `words`; returns the bytes and the words used.
pub fn decode_string(words: &[u32]) -> Option<(&[u32], usize, usize)> {
    for (i, &word) in words.iter().enumerate() {
        // The high bit of each zero byte, a word at a time. A borrow can also mark a
        // byte above a zero byte, never one below, so the lowest mark is the first NUL.
        let zero = word.wrapping_sub(0x0101_0101) & !word & 0x8080_8080;
        if zero != 0 {
            let b = (zero.trailing_zeros() / 8) as usize;
            return Some((&words[..=i], i * 4 + b, i + 1));
        }
    }
    None
}

/// The bytes of the literal string at the start of `words`, up to its NUL (all of them
/// when it has none): the one way the tools read a string operand's text.
pub fn string_operand(words: &[u32]) -> Vec<u8> {
    let mut out = Vec::new();
    match decode_string(words) {
        Some((sw, len, _)) => string_bytes(sw, len, &mut out),
        None => string_bytes(words, words.len() * 4, &mut out),
    }
    out
}

/// Appends the bytes of `words` (little-endian within each word) to `out`, `len` bytes in
/// all (fewer if the words run out).
pub fn string_bytes(words: &[u32], len: usize, out: &mut Vec<u8>) {
    let start = out.len();
    out.resize(start + len.min(words.len() * 4), 0);
    fill_bytes(words, &mut out[start..]);
}

/// Fills `out` with the bytes of `words`, little-endian within each word: whole words,
/// then the bytes of a last partial one (fixed-size copies, no `memcpy` call per word).
pub(crate) fn fill_bytes(words: &[u32], out: &mut [u8]) {
    let mut chunks = out.chunks_exact_mut(4);
    let mut words = words.iter();
    for (bytes, w) in (&mut chunks).zip(&mut words) {
        bytes.copy_from_slice(&w.to_le_bytes());
    }
    if let Some(w) = words.next() {
        for (b, v) in chunks.into_remainder().iter_mut().zip(w.to_le_bytes()) {
            *b = v;
        }
    }
}

/// Encodes `bytes` as a literal string: NUL-terminated and zero-padded to a word.
pub fn encode_string<W: Words>(bytes: &[u8], w: &mut W) {
    let mut chunks = bytes.chunks_exact(4);
    for c in &mut chunks {
        w.push(u32::from_le_bytes([c[0], c[1], c[2], c[3]]));
    }
    let mut last = [0u8; 4];
    let rem = chunks.remainder();
    last[..rem.len()].copy_from_slice(rem);
    w.push(u32::from_le_bytes(last));
}

impl EncodeWords for LiteralString {
    fn encode<W: Words>(&self, w: &mut W) {
        encode_string(self.as_bytes(), w);
    }
}

impl Operand for LiteralString {
    fn decode(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        match decode_string(r.rest()) {
            Some((words, len, used)) => {
                let last = words[used - 1];
                let kept_bytes = len % 4 + 1; // bytes of the last word up to and including the NUL
                if kept_bytes < 4 && last >> (8 * kept_bytes) != 0 {
                    return Err(r.error(DecodeErrorKind::NonZeroPadding));
                }
                r.pos += used;
                Ok(LiteralString::from_words(words, len))
            }
            None if r.is_empty() => Err(r.error(DecodeErrorKind::MissingOperand {
                kind: crate::spv::kinds::LiteralString.name,
            })),
            None => Err(r.error(DecodeErrorKind::UnterminatedString)),
        }
    }
}

impl EncodeWords for LiteralNumber {
    fn encode<W: Words>(&self, w: &mut W) {
        w.extend_from_slice(self.words());
    }
}

impl Operand for LiteralNumber {
    /// Outside `OpSwitch` (see [`Reader::read_switch_targets`]) a context-dependent
    /// number is the last operand, so it takes the remaining one or two words.
    fn decode(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        let rest = r.rest();
        match LiteralNumber::from_words(rest) {
            Some(n) => {
                r.pos += rest.len();
                Ok(n)
            }
            None if rest.is_empty() => Err(r.error(DecodeErrorKind::MissingOperand {
                kind: crate::spv::kinds::LiteralContextDependentNumber.name,
            })),
            None => Err(r.error(DecodeErrorKind::BadLiteralWidth {
                width: rest.len() as u32,
            })),
        }
    }
}

impl<T: Enum> EncodeWords for T {
    fn encode<W: Words>(&self, w: &mut W) {
        w.push(self.to_u32());
    }
}

impl<T: Enum> Operand for T {
    #[inline]
    fn decode(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        r.word().map(T::from_u32)
    }
}

impl<T: EncodeWords> EncodeWords for Option<T> {
    fn encode<W: Words>(&self, w: &mut W) {
        if let Some(v) = self {
            v.encode(w);
        }
    }
}

impl<T: Operand> Operand for Option<T> {
    fn decode(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        if r.is_empty() {
            Ok(None)
        } else {
            T::decode(r).map(Some)
        }
    }
}

impl<T: EncodeWords> EncodeWords for Vec<T> {
    fn encode<W: Words>(&self, w: &mut W) {
        for v in self {
            v.encode(w);
        }
    }
}

impl<T: Operand> Operand for Vec<T> {
    fn decode(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        // Sized by the words actually present, never by a count the input claims.
        let mut out = match T::WORDS {
            0 => Vec::new(),
            k => Vec::with_capacity(r.rest().len() / k),
        };
        while !r.is_empty() {
            out.push(T::decode(r)?);
        }
        Ok(out)
    }
}

impl<T: EncodeWords + Copy> EncodeWords for List<T> {
    fn encode<W: Words>(&self, w: &mut W) {
        for v in self {
            v.encode(w);
        }
    }
}

/// A `*` operand: up to [`List::INLINE`] items are kept inline; a longer list is read
/// into one allocation of the right size when the items' width is fixed.
impl<T: Operand + Copy> Operand for List<T> {
    fn decode(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        if T::WORDS > 0 && r.rest().len() / T::WORDS > List::<T>::INLINE {
            return Vec::<T>::decode(r).map(List::from);
        }
        if r.is_empty() {
            return Ok(List::new());
        }
        // The first item fills the inline array; the length is the same for every item
        // type (an array length may not name `T`).
        let first = T::decode(r)?;
        let mut items = [first; List::<u32>::INLINE];
        let mut n = 1;
        while !r.is_empty() {
            let item = T::decode(r)?;
            if n == items.len() {
                let mut spilled = items.to_vec();
                spilled.push(item);
                while !r.is_empty() {
                    spilled.push(T::decode(r)?);
                }
                return Ok(List::from(spilled));
            }
            items[n] = item;
            n += 1;
        }
        Ok(List::inline(n, items))
    }
}

impl<A: EncodeWords, B: EncodeWords> EncodeWords for (A, B) {
    fn encode<W: Words>(&self, w: &mut W) {
        self.0.encode(w);
        self.1.encode(w);
    }
}

impl<A: Operand, B: Operand> Operand for (A, B) {
    const WORDS: usize = if A::WORDS == 0 || B::WORDS == 0 {
        0
    } else {
        A::WORDS + B::WORDS
    };
    fn decode(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        Ok((A::decode(r)?, B::decode(r)?))
    }
}

impl<A: EncodeWords, B: EncodeWords, C: EncodeWords> EncodeWords for (A, B, C) {
    fn encode<W: Words>(&self, w: &mut W) {
        self.0.encode(w);
        self.1.encode(w);
        self.2.encode(w);
    }
}

impl<A: Operand, B: Operand, C: Operand> Operand for (A, B, C) {
    fn decode(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
        Ok((A::decode(r)?, B::decode(r)?, C::decode(r)?))
    }
}

#[cfg(test)]
mod tests {
    use super::decode_string;

    /// The word-at-a-time NUL search against a byte-at-a-time one, on every word whose
    /// bytes are each 0x00, 0x01, 0x7f, 0x80, 0xff or a letter, alone and after a word
    /// without NUL.
    #[test]
    fn nul_search_finds_the_first_zero_byte() {
        let naive = |words: &[u32]| {
            words
                .iter()
                .flat_map(|w| w.to_le_bytes())
                .position(|b| b == 0)
                .map(|n| (n, n / 4 + 1))
        };
        let values = [0x00u8, 0x01, 0x7f, 0x80, 0xff, b'a'];
        for a in values {
            for b in values {
                for c in values {
                    for d in values {
                        let w = u32::from_le_bytes([a, b, c, d]);
                        for words in [&[w][..], &[0x6161_6161, w][..]] {
                            let got = decode_string(words).map(|(_, len, used)| (len, used));
                            assert_eq!(got, naive(words), "{words:08x?}");
                        }
                    }
                }
            }
        }
    }
}
