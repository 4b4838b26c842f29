//! One instruction of the optimizer IR: its opcode, its operands (each with a kind and
//! its words, as SPIRV-Tools' parser splits them), the debug lines attached to it and
//! its debug scope, as spirv-opt's `Instruction` holds them.
//!
//! An instruction whose operands are one word each, at most six of them (most
//! instructions), and that has no debug scope keeps them inline with their kinds packed
//! four bits each; any other keeps one boxed slice: the words, spare room, a descriptor
//! per operand (kind and where its words start, so that operand `i` is found without
//! a walk), then the scope if it has one. Either way writing
//! an instruction is one copy of its words, and a single-operand edit moves only what
//! follows the operand (no rebuild: a run of edits over one instruction stays linear
//! in its length per edit, and appends are amortized).

use spirv_core::spv::Opcode;

/// What an operand is, as far as the passes and the writer care: the id kinds
/// SPIRV-Tools tells apart, and the literal and enumerant kinds by their shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
#[non_exhaustive]
pub enum Kind {
    /// The result type (`SPV_OPERAND_TYPE_TYPE_ID`).
    TypeId = 0,
    /// The result id.
    ResultId = 1,
    /// Any other id (`IdRef`).
    Id = 2,
    /// An `IdScope`.
    ScopeId = 3,
    /// An `IdMemorySemantics`.
    MemorySemanticsId = 4,
    /// A 32-bit literal integer.
    Literal = 5,
    /// A literal float.
    Float = 6,
    /// A literal string (its words, NUL-terminated and padded).
    String = 7,
    /// A literal sized by a type (`OpConstant`'s value, `OpSwitch`'s cases).
    TypedNumber = 8,
    /// An extended instruction's number.
    ExtInstNumber = 9,
    /// `OpSpecConstantOp`'s embedded opcode.
    SpecConstantOpNumber = 10,
    /// A value enumerant (storage class, decoration, …).
    Enum = 11,
    /// A bit mask (memory access, function control, …).
    Mask = 12,
}

impl Kind {
    const ALL: [Kind; 13] = [
        Kind::TypeId,
        Kind::ResultId,
        Kind::Id,
        Kind::ScopeId,
        Kind::MemorySemanticsId,
        Kind::Literal,
        Kind::Float,
        Kind::String,
        Kind::TypedNumber,
        Kind::ExtInstNumber,
        Kind::SpecConstantOpNumber,
        Kind::Enum,
        Kind::Mask,
    ];

    fn from_u8(v: u8) -> Kind {
        Kind::ALL
            .get(usize::from(v))
            .copied()
            .unwrap_or(Kind::Literal)
    }

    /// Whether the operand is an id of any kind (`spvIsIdType`).
    pub fn is_id(self) -> bool {
        matches!(
            self,
            Kind::TypeId | Kind::ResultId | Kind::Id | Kind::ScopeId | Kind::MemorySemanticsId
        )
    }

    /// Whether the operand is an id used as input (`spvIsInIdType`: not the result
    /// type, not the result).
    pub fn is_in_id(self) -> bool {
        matches!(self, Kind::Id | Kind::ScopeId | Kind::MemorySemanticsId)
    }
}

/// One operand, to build or change an instruction with.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Operand {
    /// Its kind.
    pub kind: Kind,
    /// Its words.
    pub words: Vec<u32>,
}

impl Operand {
    /// An operand of `kind` with `words`.
    pub fn new(kind: Kind, words: &[u32]) -> Operand {
        Operand {
            kind,
            words: words.to_vec(),
        }
    }

    /// An id operand.
    pub fn id(id: u32) -> Operand {
        Operand::new(Kind::Id, &[id])
    }

    /// A 32-bit literal integer.
    pub fn literal(value: u32) -> Operand {
        Operand::new(Kind::Literal, &[value])
    }

    /// A literal string, encoded (NUL-terminated, padded to a word).
    pub fn string(text: &str) -> Operand {
        let bytes = text.as_bytes();
        let mut words = vec![0u32; bytes.len() / 4 + 1];
        for (i, b) in bytes.iter().enumerate() {
            words[i / 4] |= u32::from(*b) << (8 * (i % 4));
        }
        Operand {
            kind: Kind::String,
            words,
        }
    }
}

/// A debug scope (`DebugScope` of the debug-info sets), which spirv-opt keeps on each
/// instruction instead of as an instruction of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct DebugScope {
    /// The lexical scope's id; 0 for none (`DebugNoScope`).
    pub lexical_scope: u32,
    /// The `InlinedAt` id; 0 for none.
    pub inlined_at: u32,
}

/// One-word operands an instruction keeps inline (most instructions have at most this
/// many); others go to the heap.
pub(crate) const INLINE: usize = 6;

/// Where an instruction's opcode, flags, operands and scope live. The opcode and flags
/// sit in the room after the enum's tag, so that an instruction takes 32 bytes: the
/// node arena of a large module is what loading it pays for, in page faults.
#[derive(Debug, Clone)]
enum Store {
    /// Up to [`INLINE`] operands of one word each: `kinds` holds operand `i`'s kind in
    /// bits `4i..4i + 4` and the number of operands in its top 8 bits; slots past the
    /// operands are 0.
    Inline {
        flags: u8,
        opcode: u16,
        kinds: u32,
        buf: [u32; INLINE],
    },
    /// Any operands. `data` holds the `len` operand words first and a descriptor per
    /// operand (`kind << 28 | start`) last, in reverse (operand `i`'s at
    /// `end - 1 - i`, `end` being [`desc_end`]), with spare room between: appending or
    /// inserting an operand moves no more than the words after it, and the room grows
    /// by doubling.
    Heap {
        flags: u8,
        opcode: u16,
        count: u32,
        len: u32,
        data: Box<[u32]>,
    },
}

/// Bits of an instruction's flags.
const HAS_TYPE: u8 = 1;
const HAS_RESULT: u8 = 2;
/// Every operand is one word.
const UNIFORM: u8 = 4;
/// The heap form's last two words are a debug scope (lexical scope, inlined-at): an
/// instruction with a scope, rare outside modules with debug information, is kept on
/// the heap so that the common one needs no room for it.
const HAS_SCOPE: u8 = 8;

/// Where a heap store's descriptors end: before its scope, if it has one.
fn desc_end(flags: u8, data: &[u32]) -> usize {
    data.len() - if flags & HAS_SCOPE != 0 { 2 } else { 0 }
}

/// An instruction's data.
#[derive(Debug, Clone)]
pub struct InstData {
    store: Store,
}

/// Equal opcodes, result flags, scopes and operands (kinds and words), whichever way
/// each side stores them.
impl PartialEq for InstData {
    fn eq(&self, other: &InstData) -> bool {
        let results = HAS_TYPE | HAS_RESULT;
        self.opcode() == other.opcode()
            && self.flags() & results == other.flags() & results
            && self.scope() == other.scope()
            && self.count() == other.count()
            && self.words() == other.words()
            && (0..self.count()).all(|i| self.desc_at(i) == other.desc_at(i))
    }
}

impl Eq for InstData {}

/// The bits of a heap descriptor that hold where the operand's words start: an
/// instruction of 2^28 words (1 GiB) is past what the node arena can hold anyway.
const START: u32 = (1 << 28) - 1;

/// A descriptor of the heap form: the operand's kind (four bits, as in the inline
/// form) and the index of its first word among the instruction's operand words.
fn pack_descriptor(kind: Kind, start: usize) -> u32 {
    (u32::from(kind as u8) << 28) | (start as u32 & START)
}

/// Where the words of a descriptor's operand start.
fn desc_start(d: u32) -> usize {
    (d & START) as usize
}

/// The kind a descriptor gives.
fn desc_kind(d: u32) -> Kind {
    Kind::from_u8((d >> 28) as u8)
}

/// Moves the starts of the descriptors in `descs` by `delta` words.
fn shift_starts(descs: &mut [u32], delta: isize) {
    for d in descs {
        let start = desc_start(*d).wrapping_add_signed(delta);
        *d = (*d & !START) | (start as u32 & START);
    }
}

/// The bits of `kinds` (the inline form) below operand `i`'s.
fn low_kinds(i: usize) -> u32 {
    (1u32 << (4 * i)) - 1
}

/// A heap store holding `words`, the descriptors `descs` (in operand order) and
/// `scope` unless it is the default one, with room for `room` more words and
/// descriptors.
fn heap_store(
    flags: u8,
    opcode: u16,
    words: &[u32],
    descs: impl DoubleEndedIterator<Item = u32> + ExactSizeIterator,
    room: usize,
    scope: DebugScope,
) -> Store {
    let count = descs.len();
    let mut data = Vec::with_capacity(words.len() + room + count + 2);
    data.extend_from_slice(words);
    data.resize(words.len() + room, 0);
    data.extend(descs.rev());
    let mut flags = flags & !HAS_SCOPE;
    if scope != DebugScope::default() {
        data.extend_from_slice(&[scope.lexical_scope, scope.inlined_at]);
        flags |= HAS_SCOPE;
    }
    Store::Heap {
        flags,
        opcode,
        count: count as u32,
        len: words.len() as u32,
        data: data.into_boxed_slice(),
    }
}

impl InstData {
    /// An instruction of `opcode` with a result type and result id (0 for none) and
    /// these in-operands (spirv-opt's `Instruction(context, op, ty, res, operands)`).
    pub fn new(opcode: Opcode, type_id: u32, result_id: u32, in_operands: &[Operand]) -> InstData {
        let mut all: Vec<(Kind, &[u32])> = Vec::with_capacity(in_operands.len() + 2);
        if type_id != 0 {
            all.push((Kind::TypeId, core::slice::from_ref(&type_id)));
        }
        if result_id != 0 {
            all.push((Kind::ResultId, core::slice::from_ref(&result_id)));
        }
        all.extend(in_operands.iter().map(|o| (o.kind, o.words.as_slice())));
        let mut d = InstData::from_parts(opcode.0, all.iter().map(|&(k, w)| (k, w)));
        d.set_flag(HAS_TYPE, type_id != 0);
        d.set_flag(HAS_RESULT, result_id != 0);
        d
    }

    /// An instruction from its operands as SPIRV-Tools' parser splits them; whether it
    /// has a result type and a result follows from the first operands' kinds.
    pub fn parsed<'a>(
        opcode: u16,
        operands: impl IntoIterator<Item = (Kind, &'a [u32])>,
    ) -> InstData {
        let mut d = InstData::from_parts(opcode, operands);
        d.set_result_flags();
        d
    }

    fn from_parts<'a>(
        opcode: u16,
        operands: impl IntoIterator<Item = (Kind, &'a [u32])>,
    ) -> InstData {
        let parts: Vec<(Kind, &[u32])> = operands.into_iter().collect();
        let uniform = parts.iter().all(|(_, w)| w.len() == 1);
        let store = if uniform && parts.len() <= INLINE {
            let mut buf = [0u32; INLINE];
            let mut kinds = (parts.len() as u32) << 24;
            for (i, &(kind, w)) in parts.iter().enumerate() {
                buf[i] = w[0];
                kinds |= u32::from(kind as u8) << (4 * i);
            }
            Store::Inline {
                flags: UNIFORM,
                opcode,
                kinds,
                buf,
            }
        } else {
            let words: Vec<u32> = parts.iter().flat_map(|&(_, w)| w.iter().copied()).collect();
            let mut start = 0;
            let descs: Vec<u32> = parts
                .iter()
                .map(|&(kind, w)| {
                    let d = pack_descriptor(kind, start);
                    start += w.len();
                    d
                })
                .collect();
            heap_store(
                if uniform { UNIFORM } else { 0 },
                opcode,
                &words,
                descs.into_iter(),
                0,
                DebugScope::default(),
            )
        };
        InstData { store }
    }

    /// An instruction from the words of its operands (`ops`, the leading word left
    /// out) split into `(kind, start, words)` parts, as the loader walks them.
    pub(crate) fn from_walk(opcode: u16, parts: &[(Kind, u32, u32)], ops: &[u32]) -> InstData {
        // The parts cover the operand words in order.
        let uniform = parts.iter().all(|p| p.2 == 1);
        let store = if uniform && parts.len() <= INLINE && ops.len() == parts.len() {
            let mut buf = [0u32; INLINE];
            buf[..ops.len()].copy_from_slice(ops);
            let mut kinds = (parts.len() as u32) << 24;
            for (i, p) in parts.iter().enumerate() {
                kinds |= u32::from(p.0 as u8) << (4 * i);
            }
            Store::Inline {
                flags: UNIFORM,
                opcode,
                kinds,
                buf,
            }
        } else {
            heap_store(
                if uniform { UNIFORM } else { 0 },
                opcode,
                ops,
                parts
                    .iter()
                    .map(|&(kind, start, _)| pack_descriptor(kind, start as usize)),
                0,
                DebugScope::default(),
            )
        };
        let mut d = InstData { store };
        // `set_result_flags`, from the parts at hand.
        let k0 = parts.first().map(|p| p.0);
        let k1 = parts.get(1).map(|p| p.0);
        let has_type = k0 == Some(Kind::TypeId);
        d.set_flag(HAS_TYPE, has_type);
        d.set_flag(
            HAS_RESULT,
            k0 == Some(Kind::ResultId) || (has_type && k1 == Some(Kind::ResultId)),
        );
        d
    }

    /// An instruction of at most [`INLINE`] one-word operands, `kinds` packed as the
    /// inline form packs them (operand `i`'s kind in bits `4i..4i + 4`, the count in
    /// the top 8 bits, which must be `ops.len()`): [`InstData::from_walk`] without
    /// the parts, for the loader's instructions whose layout follows from their length.
    #[inline]
    pub(crate) fn from_packed_kinds(opcode: u16, kinds: u32, ops: &[u32]) -> InstData {
        let mut buf = [0u32; INLINE];
        // Word by word: a copy of a few words, not a call to copy them.
        for (k, slot) in buf.iter_mut().enumerate() {
            if let Some(&w) = ops.get(k) {
                *slot = w;
            }
        }
        // Kind 0 is `TypeId`: a slot counts only below the operand count.
        let kind = |i: usize| (i < ops.len()).then(|| (kinds >> (4 * i)) & 0xF);
        let has_type = kind(0) == Some(Kind::TypeId as u32);
        let has_result = kind(0) == Some(Kind::ResultId as u32)
            || (has_type && kind(1) == Some(Kind::ResultId as u32));
        let flags =
            UNIFORM | if has_type { HAS_TYPE } else { 0 } | if has_result { HAS_RESULT } else { 0 };
        InstData {
            store: Store::Inline {
                flags,
                opcode,
                kinds,
                buf,
            },
        }
    }

    /// Sets whether it has a result type and a result from its first operands' kinds.
    fn set_result_flags(&mut self) {
        let k0 = self.kind(0);
        let k1 = self.kind(1);
        self.set_flag(HAS_TYPE, k0 == Some(Kind::TypeId));
        self.set_flag(
            HAS_RESULT,
            k0 == Some(Kind::ResultId) || (k0 == Some(Kind::TypeId) && k1 == Some(Kind::ResultId)),
        );
    }

    fn flags(&self) -> u8 {
        match &self.store {
            Store::Inline { flags, .. } | Store::Heap { flags, .. } => *flags,
        }
    }

    fn flags_mut(&mut self) -> &mut u8 {
        match &mut self.store {
            Store::Inline { flags, .. } | Store::Heap { flags, .. } => flags,
        }
    }

    fn set_flag(&mut self, bit: u8, on: bool) {
        let flags = self.flags_mut();
        if on {
            *flags |= bit;
        } else {
            *flags &= !bit;
        }
    }

    /// The number of operands.
    fn count(&self) -> usize {
        match &self.store {
            Store::Inline { kinds, .. } => (kinds >> 24) as usize,
            Store::Heap { count, .. } => *count as usize,
        }
    }

    /// Operand `i`'s descriptor (`i` below the count), whichever the form.
    fn desc_at(&self, i: usize) -> u32 {
        match &self.store {
            Store::Inline { kinds, .. } => (((kinds >> (4 * i)) & 0xf) << 28) | i as u32,
            Store::Heap { flags, data, .. } => data[desc_end(*flags, data) - 1 - i],
        }
    }

    /// Operand `i`'s kind (`i` below the count).
    fn kind_at(&self, i: usize) -> Kind {
        desc_kind(self.desc_at(i))
    }

    /// All the operands' words, to change them in place.
    fn words_mut(&mut self) -> &mut [u32] {
        match &mut self.store {
            Store::Inline { kinds, buf, .. } => &mut buf[..(*kinds >> 24) as usize],
            Store::Heap { len, data, .. } => &mut data[..*len as usize],
        }
    }

    /// The opcode.
    pub fn opcode(&self) -> Opcode {
        match &self.store {
            Store::Inline { opcode, .. } | Store::Heap { opcode, .. } => Opcode(*opcode),
        }
    }

    /// Changes the opcode (spirv-opt's `SetOpcode`).
    pub fn set_opcode(&mut self, op: Opcode) {
        match &mut self.store {
            Store::Inline { opcode, .. } | Store::Heap { opcode, .. } => *opcode = op.0,
        }
    }

    /// Whether it has a result type.
    pub fn has_type(&self) -> bool {
        self.flags() & HAS_TYPE != 0
    }

    /// Whether it has a result id.
    pub fn has_result(&self) -> bool {
        self.flags() & HAS_RESULT != 0
    }

    /// How many of the first operands are the result type and result.
    pub fn type_result_count(&self) -> usize {
        usize::from(self.has_type()) + usize::from(self.has_result())
    }

    /// The result type, or 0.
    pub fn type_id(&self) -> u32 {
        if self.has_type() { self.word(0) } else { 0 }
    }

    /// The result id, or 0.
    pub fn result_id(&self) -> u32 {
        if self.has_result() {
            self.word(usize::from(self.has_type()))
        } else {
            0
        }
    }

    /// The number of operands (`NumOperands`).
    pub fn num_operands(&self) -> usize {
        self.count()
    }

    /// The number of in-operands (`NumInOperands`).
    pub fn num_in_operands(&self) -> usize {
        self.num_operands() - self.type_result_count()
    }

    /// All the operands' words, in order (what the writer writes after the leading
    /// word).
    pub fn words(&self) -> &[u32] {
        match &self.store {
            Store::Inline { kinds, buf, .. } => &buf[..(*kinds >> 24) as usize],
            Store::Heap { len, data, .. } => &data[..*len as usize],
        }
    }

    /// The kind of operand `i`.
    pub fn kind(&self, i: usize) -> Option<Kind> {
        (i < self.count()).then(|| self.kind_at(i))
    }

    /// Where operand `i`'s words start in [`InstData::words`], and how many.
    fn span(&self, i: usize) -> (usize, usize) {
        if i >= self.count() {
            return (self.words().len(), 0);
        }
        match &self.store {
            Store::Heap {
                flags,
                count,
                len,
                data,
                ..
            } if flags & UNIFORM == 0 => {
                let end = desc_end(*flags, data) - 1;
                let start = desc_start(data[end - i]);
                let next = if i + 1 < *count as usize {
                    desc_start(data[end - i - 1])
                } else {
                    *len as usize
                };
                (start, next - start)
            }
            _ => (i, 1),
        }
    }

    /// The words of operand `i` (empty past the end).
    pub fn operand_words(&self, i: usize) -> &[u32] {
        let (s, l) = self.span(i);
        &self.words()[s..s + l]
    }

    /// Operand `i` (`GetOperand`).
    pub fn operand(&self, i: usize) -> Operand {
        Operand {
            kind: self.kind(i).unwrap_or(Kind::Literal),
            words: self.operand_words(i).to_vec(),
        }
    }

    /// The first word of operand `i` (`GetSingleWordOperand`; 0 past the end, where
    /// spirv-opt would assert).
    #[inline]
    pub fn word(&self, i: usize) -> u32 {
        match &self.store {
            // Slots past the operands are 0.
            Store::Inline { buf, .. } => buf.get(i).copied().unwrap_or(0),
            Store::Heap { .. } => self.heap_word(i),
        }
    }

    /// [`InstData::word`] of the heap form, out of line (the inline form's is what
    /// most callers meet).
    #[inline(never)]
    fn heap_word(&self, i: usize) -> u32 {
        match &self.store {
            Store::Inline { buf, .. } => buf.get(i).copied().unwrap_or(0),
            Store::Heap {
                flags, count, data, ..
            } if flags & UNIFORM != 0 => {
                if i < *count as usize {
                    data[i]
                } else {
                    0
                }
            }
            Store::Heap { .. } => self.operand_words(i).first().copied().unwrap_or(0),
        }
    }

    /// The first word of in-operand `i` (`GetSingleWordInOperand`).
    pub fn in_word(&self, i: usize) -> u32 {
        self.word(i + self.type_result_count())
    }

    /// In-operand `i`'s words.
    pub fn in_operand_words(&self, i: usize) -> &[u32] {
        self.operand_words(i + self.type_result_count())
    }

    /// Every operand, to change them.
    pub fn operands(&self) -> Vec<Operand> {
        (0..self.num_operands()).map(|i| self.operand(i)).collect()
    }

    /// Replaces every operand (spirv-opt's `ReplaceOperands`; the result type and
    /// result flags are kept).
    pub fn replace_operands(&mut self, ops: &[Operand]) {
        self.rebuild(ops.iter().map(|o| (o.kind, o.words.as_slice())));
    }

    /// Makes `parts` the operands, keeping the opcode, result flags and scope.
    fn rebuild<'a>(&mut self, parts: impl IntoIterator<Item = (Kind, &'a [u32])>) {
        let flags = self.flags() & (HAS_TYPE | HAS_RESULT);
        let scope = self.scope();
        *self = InstData::from_parts(self.opcode().0, parts);
        *self.flags_mut() |= flags;
        self.set_scope(scope);
    }

    /// The debug scope.
    pub fn scope(&self) -> DebugScope {
        match &self.store {
            Store::Heap { flags, data, .. } if flags & HAS_SCOPE != 0 => {
                let n = data.len();
                DebugScope {
                    lexical_scope: data[n - 2],
                    inlined_at: data[n - 1],
                }
            }
            _ => DebugScope::default(),
        }
    }

    /// Sets the debug scope: an instruction given one goes to the heap form, one whose
    /// scope is cleared may go back inline.
    pub fn set_scope(&mut self, scope: DebugScope) {
        if let Store::Heap { flags, data, .. } = &mut self.store
            && *flags & HAS_SCOPE != 0
            && scope != DebugScope::default()
        {
            let n = data.len();
            data[n - 2] = scope.lexical_scope;
            data[n - 1] = scope.inlined_at;
            return;
        }
        if scope == self.scope() {
            return;
        }
        let count = self.count();
        let store = heap_store(
            self.flags(),
            self.opcode().0,
            self.words(),
            (0..count).map(|i| self.desc_at(i)),
            0,
            scope,
        );
        self.store = store;
        self.settle(false);
    }

    /// Makes the store a heap one with room for `extra` more words and descriptors
    /// (doubling when it grows, so that a run of appends is linear).
    fn reserve_heap(&mut self, extra: usize) {
        let (flags, opcode) = (self.flags(), self.opcode().0);
        let count = self.count();
        let len = self.words().len();
        let room = match &self.store {
            Store::Heap { flags, data, .. } => desc_end(*flags, data) - count - len,
            Store::Inline { .. } => 0,
        };
        if matches!(self.store, Store::Heap { .. }) && room >= extra {
            return;
        }
        let grown = (room + extra).max(count + len).max(4);
        let store = heap_store(
            flags,
            opcode,
            self.words(),
            (0..count).map(|i| self.desc_at(i)),
            grown,
            self.scope(),
        );
        self.store = store;
    }

    /// After an edit of the heap form: sets the uniform flag from the descriptors if
    /// `check`, and goes back inline when the operands fit there again.
    fn settle(&mut self, check: bool) {
        let Store::Heap {
            flags,
            opcode,
            count,
            len,
            data,
        } = &mut self.store
        else {
            return;
        };
        let n = *count as usize;
        let end = desc_end(*flags, data);
        if check {
            // One word each: operand `j` starts at word `j`, and the last one ends the words.
            let uniform = *len as usize == n && (0..n).all(|j| desc_start(data[end - 1 - j]) == j);
            if uniform {
                *flags |= UNIFORM;
            } else {
                *flags &= !UNIFORM;
            }
        }
        if *flags & (UNIFORM | HAS_SCOPE) != UNIFORM || n > INLINE {
            return;
        }
        let mut buf = [0u32; INLINE];
        buf[..n].copy_from_slice(&data[..*len as usize]);
        let mut kinds = (n as u32) << 24;
        for (j, shift) in (0..n).zip((0..).step_by(4)) {
            kinds |= (data[end - 1 - j] >> 28) << shift;
        }
        self.store = Store::Inline {
            flags: *flags,
            opcode: *opcode,
            kinds,
            buf,
        };
    }

    /// Sets operand `i`'s words (`SetOperand`); a different width moves only the
    /// words after it.
    pub fn set_operand(&mut self, i: usize, words: &[u32]) {
        if i >= self.num_operands() {
            return;
        }
        let (s, l) = self.span(i);
        if l == words.len() {
            self.words_mut()[s..s + l].copy_from_slice(words);
            return;
        }
        let m = words.len();
        self.reserve_heap(m.saturating_sub(l));
        let Store::Heap {
            flags,
            count,
            len,
            data,
            ..
        } = &mut self.store
        else {
            return;
        };
        let old = *len as usize;
        data.copy_within(s + l..old, s + m);
        data[s..s + m].copy_from_slice(words);
        *len = (old + m - l) as u32;
        // The operands after `i` (descriptors below its own) start `m - l` later.
        let cap = desc_end(*flags, data);
        let n = *count as usize;
        shift_starts(&mut data[cap - n..cap - 1 - i], m as isize - l as isize);
        self.settle(true);
    }

    /// Sets in-operand `i`'s words (`SetInOperand`).
    pub fn set_in_operand(&mut self, i: usize, words: &[u32]) {
        self.set_operand(i + self.type_result_count(), words);
    }

    /// Replaces the in-operands (`SetInOperands`).
    pub fn set_in_operands(&mut self, ops: &[Operand]) {
        let head = self.type_result_count().min(self.count());
        let kept: Vec<(Kind, Vec<u32>)> = (0..head)
            .map(|i| (self.kind_at(i), self.operand_words(i).to_vec()))
            .collect();
        self.rebuild(
            kept.iter()
                .map(|(k, w)| (*k, w.as_slice()))
                .chain(ops.iter().map(|o| (o.kind, o.words.as_slice()))),
        );
    }

    /// Appends an operand (`AddOperand`), in amortized constant time.
    pub fn add_operand(&mut self, op: Operand) {
        self.insert_operand(self.count(), op);
    }

    /// Removes operand `i` (`RemoveOperand`), moving only what follows it.
    pub fn remove_operand(&mut self, i: usize) {
        let n = self.count();
        if i >= n {
            return;
        }
        let (s, l) = self.span(i);
        match &mut self.store {
            Store::Inline { kinds, buf, .. } => {
                buf.copy_within(i + 1..n, i);
                buf[n - 1] = 0;
                let low = *kinds & low_kinds(i);
                let high = ((*kinds & 0x00ff_ffff) >> (4 * (i + 1))) << (4 * i);
                *kinds = low | high | ((n as u32 - 1) << 24);
            }
            Store::Heap {
                flags,
                count,
                len,
                data,
                ..
            } => {
                let old = *len as usize;
                data.copy_within(s + l..old, s);
                *len = (old - l) as u32;
                let cap = desc_end(*flags, data);
                data.copy_within(cap - n..cap - 1 - i, cap - n + 1);
                shift_starts(&mut data[cap - n + 1..cap - i], -(l as isize));
                *count -= 1;
                // Removing a one-word operand leaves the uniform flag right.
                self.settle(l != 1);
            }
        }
    }

    /// Removes in-operand `i` (`RemoveInOperand`).
    pub fn remove_in_operand(&mut self, i: usize) {
        self.remove_operand(i + self.type_result_count());
    }

    /// Inserts an operand before operand `i` (`InsertOperand`), moving only what
    /// follows it.
    pub fn insert_operand(&mut self, i: usize, op: Operand) {
        let n = self.count();
        let i = i.min(n);
        let w = op.words.len();
        if let Store::Inline { kinds, buf, .. } = &mut self.store
            && w == 1
            && n < INLINE
        {
            buf.copy_within(i..n, i + 1);
            buf[i] = op.words[0];
            let low = *kinds & low_kinds(i);
            let high = (*kinds & 0x00ff_ffff & !low_kinds(i)) << 4;
            *kinds = low | high | (u32::from(op.kind as u8) << (4 * i)) | ((n as u32 + 1) << 24);
            return;
        }
        self.reserve_heap(w + 1);
        let (s, _) = self.span(i);
        let Store::Heap {
            flags,
            count,
            len,
            data,
            ..
        } = &mut self.store
        else {
            return;
        };
        let old = *len as usize;
        data.copy_within(s..old, s + w);
        data[s..s + w].copy_from_slice(&op.words);
        *len = (old + w) as u32;
        let cap = desc_end(*flags, data);
        data.copy_within(cap - n..cap - i, cap - n - 1);
        shift_starts(&mut data[cap - n - 1..cap - 1 - i], w as isize);
        data[cap - 1 - i] = pack_descriptor(op.kind, s);
        *count += 1;
        if w != 1 {
            *flags &= !UNIFORM;
        }
    }

    /// Keeps the operands `keep` accepts (called with each operand's index, kind and
    /// words, in order) and removes the others, in one pass.
    pub fn retain_operands(&mut self, mut keep: impl FnMut(usize, Kind, &[u32]) -> bool) {
        let n = self.count();
        match &mut self.store {
            Store::Inline { kinds, buf, .. } => {
                let mut k = 0;
                let mut kept = 0u32;
                for i in 0..n {
                    let kind = (*kinds >> (4 * i)) & 0xf;
                    if keep(i, Kind::from_u8(kind as u8), &buf[i..i + 1]) {
                        buf[k] = buf[i];
                        kept |= kind << (4 * k);
                        k += 1;
                    }
                }
                buf[k..].fill(0);
                *kinds = kept | ((k as u32) << 24);
            }
            Store::Heap {
                flags,
                count,
                len,
                data,
                ..
            } => {
                let end = desc_end(*flags, data);
                let total = *len as usize;
                let (mut k, mut write) = (0, 0);
                // Operand `i`'s end is the next one's start, read before a write can
                // overwrite that descriptor (descriptor `k <= i` sits at or after `i`'s).
                let mut next = if n > 0 { desc_start(data[end - 1]) } else { 0 };
                for i in 0..n {
                    let d = data[end - 1 - i];
                    let read = next;
                    next = if i + 1 < n {
                        desc_start(data[end - 2 - i])
                    } else {
                        total
                    };
                    let l = next - read;
                    if keep(i, desc_kind(d), &data[read..read + l]) {
                        data.copy_within(read..read + l, write);
                        data[end - 1 - k] = pack_descriptor(desc_kind(d), write);
                        write += l;
                        k += 1;
                    }
                }
                *count = k as u32;
                *len = write as u32;
                self.settle(true);
            }
        }
    }

    /// Sets the result type (`SetResultType`).
    pub fn set_type_id(&mut self, ty: u32) {
        if self.has_type() {
            self.set_operand(0, &[ty]);
        }
    }

    /// Sets the result id (`SetResultId`).
    pub fn set_result_id(&mut self, id: u32) {
        if self.has_result() {
            self.set_operand(usize::from(self.has_type()), &[id]);
        }
    }

    /// Makes it an `OpNop` with no operands (`ToNop`), which the writer leaves out.
    pub fn to_nop(&mut self) {
        let scope = self.scope();
        self.store = Store::Inline {
            flags: UNIFORM,
            opcode: Opcode::Nop.0,
            kinds: 0,
            buf: [0; INLINE],
        };
        self.set_scope(scope);
    }

    /// Whether it is an `OpNop` with no operands (`IsNop`).
    pub fn is_nop(&self) -> bool {
        self.opcode() == Opcode::Nop && self.count() == 0
    }

    /// Calls `f` with the index and value of each id operand (`ForEachId`: the result
    /// type and the result included).
    pub fn for_each_id(&self, mut f: impl FnMut(usize, u32)) {
        self.for_each_operand(|i, k, w| {
            if k.is_id() {
                f(i, w[0]);
            }
        });
    }

    /// Calls `f` with each in-id (`ForEachInId`: ids but the result type and result).
    pub fn for_each_in_id(&self, mut f: impl FnMut(u32)) {
        self.for_each_operand(|_, k, w| {
            if k.is_in_id() {
                f(w[0]);
            }
        });
    }

    /// Calls `f` with each operand's index, kind and words.
    pub fn for_each_operand(&self, mut f: impl FnMut(usize, Kind, &[u32])) {
        match &self.store {
            Store::Inline { kinds, buf, .. } => {
                for i in 0..(kinds >> 24) as usize {
                    let kind = Kind::from_u8(((kinds >> (4 * i)) & 0xf) as u8);
                    f(i, kind, &buf[i..i + 1]);
                }
            }
            Store::Heap {
                flags,
                count,
                len,
                data,
                ..
            } => {
                let n = *count as usize;
                let end = desc_end(*flags, data);
                let (words, descs) = data[..end].split_at(end - n);
                let mut ends = descs.iter().rev().skip(1).map(|&d| desc_start(d));
                for (i, &d) in descs.iter().rev().enumerate() {
                    let at = desc_start(d);
                    let next = ends.next().unwrap_or(*len as usize);
                    f(i, desc_kind(d), &words[at..next]);
                }
            }
        }
    }

    /// Rewrites the first word of each operand whose kind `pick` accepts with `f`.
    fn map_first_words(&mut self, pick: fn(Kind) -> bool, f: &mut dyn FnMut(u32) -> u32) {
        match &mut self.store {
            Store::Inline { kinds, buf, .. } => {
                let n = (*kinds >> 24) as usize;
                for (i, word) in buf.iter_mut().enumerate().take(n) {
                    if pick(Kind::from_u8(((*kinds >> (4 * i)) & 0xf) as u8)) {
                        *word = f(*word);
                    }
                }
            }
            Store::Heap {
                flags,
                count,
                len,
                data,
                ..
            } => {
                let n = *count as usize;
                let end = desc_end(*flags, data);
                let (words, descs) = data[..end].split_at_mut(end - n);
                let total = *len as usize;
                for (j, &d) in descs.iter().enumerate().rev() {
                    // Descriptor `j` is operand `n - 1 - j`; the next operand's is `j - 1`.
                    let at = desc_start(d);
                    let next = if j > 0 {
                        desc_start(descs[j - 1])
                    } else {
                        total
                    };
                    if pick(desc_kind(d)) && next > at {
                        words[at] = f(words[at]);
                    }
                }
            }
        }
    }

    /// Rewrites each id operand with `f` (ids of every kind, as `ForEachId`).
    pub fn map_ids(&mut self, mut f: impl FnMut(u32) -> u32) {
        self.map_first_words(Kind::is_id, &mut f);
    }

    /// Rewrites each in-id operand with `f` (`ForEachInId` with a pointer).
    pub fn map_in_ids(&mut self, mut f: impl FnMut(u32) -> u32) {
        self.map_first_words(Kind::is_in_id, &mut f);
    }

    /// Operand `i`'s string (for a string operand).
    pub fn string(&self, i: usize) -> String {
        let words = self.operand_words(i);
        let mut bytes = Vec::with_capacity(words.len() * 4);
        'w: for w in words {
            for b in w.to_le_bytes() {
                if b == 0 {
                    break 'w;
                }
                bytes.push(b);
            }
        }
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// The number of words the instruction takes, its leading word included.
    pub fn word_count(&self) -> usize {
        1 + self.words().len()
    }

    /// Appends the instruction as the binary holds it (the leading word, then the
    /// operands' words) to `out`: the writer's step, a copy of fixed size for the
    /// inline form rather than one of its length.
    #[inline]
    pub(crate) fn append_encoded(&self, out: &mut Vec<u32>) {
        match &self.store {
            Store::Inline {
                opcode, kinds, buf, ..
            } => {
                let n = *kinds >> 24;
                let mut all = [0u32; INLINE + 1];
                all[0] = ((n + 1) << 16) | u32::from(*opcode);
                all[1..].copy_from_slice(buf);
                let at = out.len();
                out.extend_from_slice(&all);
                out.truncate(at + 1 + n as usize);
            }
            Store::Heap {
                opcode, len, data, ..
            } => {
                out.push((len.wrapping_add(1) << 16) | u32::from(*opcode));
                out.extend_from_slice(&data[..*len as usize]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The operands as (kind, words), read back.
    fn read(d: &InstData) -> Vec<(Kind, Vec<u32>)> {
        let mut v = Vec::new();
        d.for_each_operand(|_, k, w| v.push((k, w.to_vec())));
        v
    }

    /// The same operands built from scratch, in the form `from_parts` picks.
    fn rebuilt(model: &[(Kind, Vec<u32>)]) -> InstData {
        InstData::from_parts(1, model.iter().map(|(k, w)| (*k, w.as_slice())))
    }

    /// Random single-operand edits agree with a plain list, operand by operand, and
    /// leave the store in the form a rebuild would pick.
    #[test]
    fn edits_in_place_match_a_rebuild() {
        let mut seed = 0x1234_5678u32;
        let mut next = move |n: u32| {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (seed >> 8) % n
        };
        for _round in 0..200 {
            let mut model: Vec<(Kind, Vec<u32>)> = Vec::new();
            let mut d = rebuilt(&model);
            let mut scope = DebugScope::default();
            for step in 0..60 {
                let width = [1, 1, 1, 0, 2, 3][next(6) as usize] as usize;
                let kind = Kind::from_u8(next(13) as u8);
                let words: Vec<u32> = (0..width).map(|_| next(1000)).collect();
                let n = model.len() as u32;
                match next(7) {
                    0 | 1 => {
                        d.add_operand(Operand::new(kind, &words));
                        model.push((kind, words));
                    }
                    2 => {
                        let i = next(n + 1) as usize;
                        d.insert_operand(i, Operand::new(kind, &words));
                        model.insert(i, (kind, words));
                    }
                    3 if n > 0 => {
                        let i = next(n) as usize;
                        d.remove_operand(i);
                        model.remove(i);
                    }
                    4 if n > 0 => {
                        let i = next(n) as usize;
                        d.set_operand(i, &words);
                        model[i].1 = words;
                    }
                    5 => {
                        let m = next(3);
                        d.retain_operands(|i, _, _| (i as u32 + step) % 3 != m);
                        let mut i = 0;
                        model.retain(|_| {
                            i += 1;
                            (i as u32 - 1 + step) % 3 != m
                        });
                    }
                    6 => {
                        scope = DebugScope {
                            lexical_scope: next(3),
                            inlined_at: next(2),
                        };
                        d.set_scope(scope);
                    }
                    _ => {}
                }
                assert_eq!(d.scope(), scope);
                assert_eq!(read(&d), model);
                let flat: Vec<u32> = model.iter().flat_map(|(_, w)| w.clone()).collect();
                assert_eq!(d.words(), flat.as_slice());
                for (i, (_, w)) in model.iter().enumerate() {
                    assert_eq!(d.operand_words(i), w.as_slice());
                    assert_eq!(d.word(i), w.first().copied().unwrap_or(0));
                }
                assert_eq!(d.word(model.len()), 0);
                let mut mapped = d.clone();
                mapped.map_ids(|id| id + 1);
                let want: Vec<(Kind, Vec<u32>)> = model
                    .iter()
                    .map(|(k, w)| {
                        let mut w = w.clone();
                        if k.is_id() && !w.is_empty() {
                            w[0] += 1;
                        }
                        (*k, w)
                    })
                    .collect();
                assert_eq!(read(&mapped), want);
                let mut r = rebuilt(&model);
                r.set_scope(scope);
                assert_eq!(d, r);
                assert_eq!(
                    matches!(d.store, Store::Inline { .. }),
                    matches!(r.store, Store::Inline { .. })
                );
                assert_eq!(d.flags() & UNIFORM, r.flags() & UNIFORM);
            }
        }
    }

    /// Appending many operands one at a time grows the store by doubling.
    #[test]
    fn appends_are_amortized() {
        let mut d = InstData::new(Opcode::GroupDecorate, 0, 0, &[Operand::id(1)]);
        for id in 2..20_000 {
            d.add_operand(Operand::id(id));
        }
        assert_eq!(d.num_operands(), 19_999);
        let Store::Heap { data, .. } = &d.store else {
            panic!("a long instruction is on the heap");
        };
        assert!(data.len() < 4 * 2 * 20_000);
        d.retain_operands(|_, _, w| w[0] % 2 == 0);
        assert_eq!(d.num_operands(), 9_999);
        assert_eq!(d.word(0), 2);
    }
}
