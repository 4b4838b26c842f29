//! One instruction of the optimizer IR: its opcode, its operands (each with a kind and
//! its words, as SPIRV-Tools' parser splits them), the debug lines attached to it and
//! its debug scope, as spirv-opt's `Instruction` holds them.
//!
//! An instruction whose operands are one word each, at most six of them (most
//! instructions), keeps them inline with their kinds packed four bits each; any other
//! keeps one boxed slice: a descriptor per operand (kind and word count), then the words.
//! Either way writing an instruction is one copy of its words.

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
const INLINE: usize = 6;

/// Where an instruction's opcode, flags and operands live. The opcode and flags sit in
/// the room after the enum's tag, so that an instruction takes 40 bytes (with its scope):
/// the node arena of a large module is what loading it pays for, in page faults.
#[derive(Debug, Clone, PartialEq, Eq)]
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
    /// Any operands: a descriptor per operand (`kind << 16 | words`), then the words.
    Heap {
        flags: u8,
        opcode: u16,
        count: u16,
        data: Box<[u32]>,
    },
}

/// Bits of an instruction's flags.
const HAS_TYPE: u8 = 1;
const HAS_RESULT: u8 = 2;
/// Every operand is one word.
const UNIFORM: u8 = 4;

/// An instruction's data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InstData {
    store: Store,
    /// The debug scope.
    pub scope: DebugScope,
}

/// A descriptor of the heap form.
fn pack_descriptor(kind: Kind, words: usize) -> u32 {
    (u32::from(kind as u8) << 16) | (words as u32 & 0xffff)
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
            let total: usize = parts.iter().map(|(_, w)| 1 + w.len()).sum();
            let mut v = Vec::with_capacity(total);
            v.extend(
                parts
                    .iter()
                    .map(|&(kind, w)| pack_descriptor(kind, w.len())),
            );
            for &(_, w) in &parts {
                v.extend_from_slice(w);
            }
            Store::Heap {
                flags: if uniform { UNIFORM } else { 0 },
                opcode,
                count: parts.len() as u16,
                data: v.into_boxed_slice(),
            }
        };
        InstData {
            store,
            scope: DebugScope::default(),
        }
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
            let mut v = Vec::with_capacity(parts.len() + ops.len());
            v.extend(
                parts
                    .iter()
                    .map(|&(kind, _, n)| pack_descriptor(kind, n as usize)),
            );
            v.extend_from_slice(ops);
            Store::Heap {
                flags: if uniform { UNIFORM } else { 0 },
                opcode,
                count: parts.len() as u16,
                data: v.into_boxed_slice(),
            }
        };
        let mut d = InstData {
            store,
            scope: DebugScope::default(),
        };
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
            Store::Heap { count, .. } => usize::from(*count),
        }
    }

    /// Operand `i`'s kind (`i` below the count).
    fn kind_at(&self, i: usize) -> Kind {
        match &self.store {
            Store::Inline { kinds, .. } => Kind::from_u8(((kinds >> (4 * i)) & 0xf) as u8),
            Store::Heap { data, .. } => Kind::from_u8((data[i] >> 16) as u8),
        }
    }

    /// All the operands' words, to change them in place.
    fn words_mut(&mut self) -> &mut [u32] {
        match &mut self.store {
            Store::Inline { kinds, buf, .. } => &mut buf[..(*kinds >> 24) as usize],
            Store::Heap { count, data, .. } => &mut data[usize::from(*count)..],
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
            Store::Heap { count, data, .. } => &data[usize::from(*count)..],
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
            Store::Heap { flags, data, .. } if flags & UNIFORM == 0 => {
                let start: usize = data[..i].iter().map(|d| (d & 0xffff) as usize).sum();
                (start, (data[i] & 0xffff) as usize)
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
    pub fn word(&self, i: usize) -> u32 {
        self.operand_words(i).first().copied().unwrap_or(0)
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
        let flags = self.flags() & (HAS_TYPE | HAS_RESULT);
        let scope = self.scope;
        *self = InstData::from_parts(
            self.opcode().0,
            ops.iter().map(|o| (o.kind, o.words.as_slice())),
        );
        *self.flags_mut() |= flags;
        self.scope = scope;
    }

    /// Sets operand `i`'s words (`SetOperand`).
    pub fn set_operand(&mut self, i: usize, words: &[u32]) {
        if i >= self.num_operands() {
            return;
        }
        let (s, l) = self.span(i);
        if l == words.len() {
            self.words_mut()[s..s + l].copy_from_slice(words);
            return;
        }
        let mut ops = self.operands();
        ops[i].words = words.to_vec();
        self.replace_operands(&ops);
    }

    /// Sets in-operand `i`'s words (`SetInOperand`).
    pub fn set_in_operand(&mut self, i: usize, words: &[u32]) {
        self.set_operand(i + self.type_result_count(), words);
    }

    /// Replaces the in-operands (`SetInOperands`).
    pub fn set_in_operands(&mut self, ops: &[Operand]) {
        let mut all: Vec<Operand> = self.operands();
        all.truncate(self.type_result_count());
        all.extend_from_slice(ops);
        self.replace_operands(&all);
    }

    /// Appends an operand (`AddOperand`).
    pub fn add_operand(&mut self, op: Operand) {
        let mut all = self.operands();
        all.push(op);
        self.replace_operands(&all);
    }

    /// Removes operand `i` (`RemoveOperand`).
    pub fn remove_operand(&mut self, i: usize) {
        let mut all = self.operands();
        if i < all.len() {
            all.remove(i);
            self.replace_operands(&all);
        }
    }

    /// Removes in-operand `i` (`RemoveInOperand`).
    pub fn remove_in_operand(&mut self, i: usize) {
        self.remove_operand(i + self.type_result_count());
    }

    /// Inserts an operand before operand `i` (`InsertOperand`).
    pub fn insert_operand(&mut self, i: usize, op: Operand) {
        let mut all = self.operands();
        all.insert(i.min(all.len()), op);
        self.replace_operands(&all);
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
        self.store = Store::Inline {
            flags: UNIFORM,
            opcode: Opcode::Nop.0,
            kinds: 0,
            buf: [0; INLINE],
        };
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
            Store::Heap { count, data, .. } => {
                let n = usize::from(*count);
                let (descs, words) = data.split_at(n);
                let mut at = 0;
                for (i, &d) in descs.iter().enumerate() {
                    let l = (d & 0xffff) as usize;
                    f(i, Kind::from_u8((d >> 16) as u8), &words[at..at + l]);
                    at += l;
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
            Store::Heap { count, data, .. } => {
                let n = usize::from(*count);
                let (descs, words) = data.split_at_mut(n);
                let mut at = 0;
                for &d in descs.iter() {
                    let l = (d & 0xffff) as usize;
                    if pick(Kind::from_u8((d >> 16) as u8)) && l > 0 {
                        words[at] = f(words[at]);
                    }
                    at += l;
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
}
