//! The table-driven operand walker: splits an instruction's words into operands using
//! the generated grammar tables, with the context-dependent cases handled by named
//! hooks (OpExtInst, OpSpecConstantOp, OpConstant/OpSpecConstant literals, OpSwitch).
//!
//! The module reader, the disassembler and the id visitors all use it. It allocates
//! nothing per instruction. `shaped_ids` finds the ids of an instruction whose layout
//! has a fixed shape without walking it, the id visitors' fast path.

pub(crate) mod id_words;
pub(crate) mod ids;
pub(crate) mod trailing;

pub(crate) use id_words::id_words;
// The registry's one public path is the crate root (`spirv_core::ExtInstRegistry`).
pub(crate) use ids::ExtInstRegistry;
pub use ids::{IdInfo, Ids, ImportedSet, NumberType, observe, unknown_import};
pub(crate) use trailing::{ext_inst, trailing};

use crate::codec::decode_string;
use crate::error::DecodeErrorKind;
use crate::grammar::{
    Grammar, InstructionInfo, KindClass, OperandInfo, OperandKind, Quantifier, Shape,
};
use crate::spv;
use crate::types::Id;

/// One operand found by the walker.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct Parsed {
    /// Its kind (for a Composite, the component kind).
    pub kind: &'static OperandKind,
    /// First word, as an index into the operand slice.
    pub start: usize,
    /// Word count.
    pub len: usize,
    /// For typed literals (OpConstant values, OpSwitch cases): their type.
    pub number: Option<NumberType>,
    /// For an extended instruction number: the set's grammar, if known.
    pub ext_set: Option<&'static Grammar>,
    /// For an enumerant value the grammar does not know (lenient mode only).
    pub unknown: bool,
    /// Index of the instruction's top-level operand (in `InstructionInfo::operands`)
    /// this word range belongs to; parameters and embedded layouts share their operand's.
    pub operand: u16,
}

/// Options of a walk.
#[derive(Debug, Clone, Copy, Default)]
pub struct WalkOptions {
    /// Unknown enumerants and extended instructions are errors instead of being passed
    /// through with `unknown` set.
    pub strict: bool,
    /// Walk words that a typed value encoded, without the facts about types: a
    /// context-dependent literal takes the rest of the instruction and `OpSwitch` case
    /// literals take `switch_literal_words` words (1 if 0). `OpExtInst`'s operands are
    /// laid out by the set the id table knows for its set id; without one, they are
    /// passed through as ids flagged `unknown`.
    pub untyped: bool,
    /// For `untyped` walks: the words of each `OpSwitch` case literal.
    pub switch_literal_words: u8,
}

#[doc(hidden)]
/// The result id and result type a walk found.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    /// `IdResultType`, if any.
    pub result_type: Option<u32>,
    /// `IdResult`, if any.
    pub result_id: Option<u32>,
    /// Whether anything unknown was passed through.
    pub saw_unknown: bool,
}

/// The summary of an instruction whose layout is known to be sound: its result type
/// and result where the grammar puts them (the first operand, and the first or second).
#[inline]
pub(crate) fn grammar_summary(info: &InstructionInfo, words: &[u32]) -> Summary {
    let class = |i: usize| info.operands.get(i).map(|o| o.kind.class);
    let result_type = (class(0) == Some(KindClass::ResultType))
        .then(|| words.first().copied())
        .flatten();
    let at = usize::from(result_type.is_some());
    let result_id = (class(at) == Some(KindClass::Result))
        .then(|| words.get(at).copied())
        .flatten();
    Summary {
        result_type,
        result_id,
        saw_unknown: false,
    }
}

type WalkResult = Result<(), (DecodeErrorKind, usize)>;

/// The walk's state. Not generic: every caller's closure is reached through `dyn`, so
/// that the walker is compiled once (it was about 1,800 lines of LLVM IR per closure
/// type, eight copies in a release build); the call per operand costs little next to
/// the table lookups of each.
struct Walker<'w> {
    words: &'w [u32],
    pos: usize,
    ids: &'w Ids,
    opts: WalkOptions,
    f: &'w mut dyn FnMut(&Parsed),
    summary: Summary,
    /// OpSwitch hook: the type of the case literals.
    switch_type: Option<NumberType>,
    /// Inside an OpExtInst or OpSpecConstantOp layout, where another embedding hook is
    /// invalid. With it, the walk's recursion depth is bounded by the grammar's own
    /// nesting (enumerant parameters, composite bases), never by the input.
    embedded: bool,
    /// Nesting of operand lists: 0 is the instruction's own layout.
    depth: u8,
    /// The top-level operand being walked.
    top: u16,
}

/// Walks the operands of instruction `info` over `words` (no leading word), calling `f`
/// for each operand in order.
///
/// # Errors
/// The kind of the problem and the operand-word index where it was found.
#[inline]
pub fn walk<F: FnMut(&Parsed)>(
    info: &'static InstructionInfo,
    words: &[u32],
    ids: &Ids,
    opts: WalkOptions,
    f: &mut F,
) -> Result<Summary, (DecodeErrorKind, usize)> {
    walk_dyn(info, words, ids, opts, f)
}

/// [`walk`]'s one compiled copy.
fn walk_dyn(
    info: &'static InstructionInfo,
    words: &[u32],
    ids: &Ids,
    opts: WalkOptions,
    f: &mut dyn FnMut(&Parsed),
) -> Result<Summary, (DecodeErrorKind, usize)> {
    let mut w = Walker::new(words, ids, opts, f, 0);
    if info.switch_literals && opts.untyped {
        w.switch_type = Some(NumberType::Int {
            width: 32 * u32::from(opts.switch_literal_words.clamp(1, 2)),
            signed: false,
        });
    } else if info.switch_literals {
        // The selector's type sizes the case literals; without a case there is nothing
        // to size (SPIRV-Tools' parser looks only when it reaches the first literal).
        let selector = words.first().copied().unwrap_or(0);
        match ids.value_number_type(Id(selector)) {
            Some(t @ NumberType::Int { .. }) => w.switch_type = Some(t),
            _ if words.len() <= 2 => {}
            _ => return Err((DecodeErrorKind::NotANumericType { id: selector }, 0)),
        }
    }
    w.list(info.operands, info)?;
    if w.pos < words.len() {
        return Err((
            DecodeErrorKind::ExtraOperands {
                count: words.len() - w.pos,
            },
            w.pos,
        ));
    }
    Ok(w.summary)
}

/// The id operands of an instruction whose layout has a [`Shape`](crate::grammar::Shape)
/// that accepts its operand count, found without walking: calls `f(class, word)` for
/// each id operand in order (`word` indexes `words`, the operands after the leading
/// word) and returns true. Returns false, having called nothing, when the layout has no
/// shape or the shape does not fit, or an enumerant is not known or takes parameters;
/// [`walk`] then lays the instruction out (and reports what it cannot).
///
/// The ids found are those [`walk`] finds with default options: the shapes cover only
/// layouts of single words, where no operand's size depends on anything else.
#[inline]
pub(crate) fn shaped_ids(
    info: &'static InstructionInfo,
    words: &[u32],
    f: &mut impl FnMut(KindClass, usize),
) -> bool {
    let Some(shape) = info.shape else {
        return false;
    };
    if !shape.accepts(words.len()) {
        return false;
    }
    if shape.enums == 0 && shape.repeat_enums == 0 {
        // No enumerant to check: the masks say where the ids are.
        masked_ids(&shape, words.len(), f);
        return true;
    }
    // Check first, so that nothing is reported when the walk has to take over.
    let mut ok = true;
    shaped_words(
        info.operands,
        words.len(),
        &mut |kind, at| match kind.class {
            KindClass::ResultType
            | KindClass::Result
            | KindClass::Id
            | KindClass::Integer
            | KindClass::Float => {}
            KindClass::ValueEnum => {
                ok &= kind
                    .enumerant(words[at])
                    .is_some_and(|e| e.parameters.is_empty());
            }
            KindClass::BitEnum => {
                ok &= crate::grammar::set_bits(words[at])
                    .all(|bit| kind.enumerant(bit).is_some_and(|e| e.parameters.is_empty()));
            }
            _ => ok = false,
        },
    );
    if !ok {
        return false;
    }
    shaped_words(info.operands, words.len(), &mut |kind, at| {
        if kind.is_id() {
            f(kind.class, at);
        }
    });
    true
}

/// The ids of a shaped layout of `n` words (which its shape accepts), as the masks of
/// its shape give them.
#[inline]
fn masked_ids(shape: &Shape, n: usize, f: &mut impl FnMut(KindClass, usize)) {
    let class = |at: usize| {
        if at == usize::from(shape.result_type) {
            KindClass::ResultType
        } else if at == usize::from(shape.result) {
            KindClass::Result
        } else {
            KindClass::Id
        }
    };
    let head = n.min(usize::from(shape.fixed) + usize::from(shape.optional));
    let mut bits = shape.ids & head_mask(head);
    while bits != 0 {
        let at = bits.trailing_zeros() as usize;
        f(class(at), at);
        bits &= bits - 1;
    }
    if shape.repeat_ids != 0 {
        let unit = usize::from(shape.repeat);
        let mut start = usize::from(shape.fixed);
        while start + unit <= n {
            let mut bits = shape.repeat_ids;
            while bits != 0 {
                f(KindClass::Id, start + bits.trailing_zeros() as usize);
                bits &= bits - 1;
            }
            start += unit;
        }
    }
}

/// The mask of the first `n` of 64 bits.
#[inline]
fn head_mask(n: usize) -> u64 {
    if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
}

/// Each one-word operand of a shaped layout over `n` operand words, with its kind (a
/// composite's components one by one; a composite of composites as one word of its own
/// kind, which [`shaped_ids`] refuses).
#[inline]
fn shaped_words(
    ops: &'static [OperandInfo],
    n: usize,
    g: &mut impl FnMut(&'static OperandKind, usize),
) {
    let mut pos = 0;
    let mut one = |kind: &'static OperandKind, pos: &mut usize| {
        if kind.class == KindClass::Composite {
            for &base in kind.bases {
                if *pos < n {
                    g(base, *pos);
                }
                *pos += 1;
            }
        } else {
            g(kind, *pos);
            *pos += 1;
        }
    };
    for op in ops {
        if pos >= n {
            break;
        }
        match op.quantifier {
            Quantifier::One | Quantifier::Optional => one(op.kind, &mut pos),
            Quantifier::Variadic => {
                while pos < n {
                    one(op.kind, &mut pos);
                }
            }
        }
    }
}

/// Walks one operand of `kind`, its parameters included, at the start of `words`;
/// returns how many words it took. Every part reports operand 0.
///
/// # Errors
/// The kind of the problem and the word index where it was found.
pub fn walk_operand<F: FnMut(&Parsed)>(
    kind: &'static OperandKind,
    words: &[u32],
    ids: &Ids,
    opts: WalkOptions,
    f: &mut F,
) -> Result<usize, (DecodeErrorKind, usize)> {
    static NO_INSTRUCTION: InstructionInfo = InstructionInfo::EMPTY;
    let mut w = Walker::new(words, ids, opts, f, 1);
    w.one(kind, &NO_INSTRUCTION)?;
    Ok(w.pos)
}

impl<'w> Walker<'w> {
    /// A walk from the first word; `depth` 0 walks an instruction's own layout.
    fn new(
        words: &'w [u32],
        ids: &'w Ids,
        opts: WalkOptions,
        f: &'w mut dyn FnMut(&Parsed),
        depth: u8,
    ) -> Self {
        Walker {
            words,
            pos: 0,
            ids,
            opts,
            f,
            summary: Summary::default(),
            switch_type: None,
            embedded: false,
            depth,
            top: 0,
        }
    }

    #[inline]
    fn emit(
        &mut self,
        kind: &'static OperandKind,
        len: usize,
        number: Option<NumberType>,
        ext_set: Option<&'static Grammar>,
        unknown: bool,
    ) {
        (self.f)(&Parsed {
            kind,
            start: self.pos,
            len,
            number,
            ext_set,
            unknown,
            operand: self.top,
        });
        self.pos += len;
    }

    fn list(&mut self, ops: &'static [OperandInfo], info: &'static InstructionInfo) -> WalkResult {
        let top = self.depth == 0;
        self.depth = self.depth.saturating_add(1);
        let r = self.list_items(ops, info, top);
        self.depth -= 1;
        r
    }

    fn list_items(
        &mut self,
        ops: &'static [OperandInfo],
        info: &'static InstructionInfo,
        top: bool,
    ) -> WalkResult {
        for (i, op) in ops.iter().enumerate() {
            if top {
                self.top = i as u16;
            }
            match op.quantifier {
                Quantifier::One => {
                    if self.one(op.kind, info)? {
                        return Ok(());
                    }
                }
                Quantifier::Optional => {
                    if self.pos < self.words.len() && self.one(op.kind, info)? {
                        return Ok(());
                    }
                }
                Quantifier::Variadic => {
                    while self.pos < self.words.len() {
                        if self.one(op.kind, info)? {
                            return Ok(());
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// Walks one operand; returns true when a hook consumed the rest of the instruction.
    fn one(
        &mut self,
        kind: &'static OperandKind,
        info: &'static InstructionInfo,
    ) -> Result<bool, (DecodeErrorKind, usize)> {
        let rest = self.words.len() - self.pos.min(self.words.len());
        if rest == 0 {
            return Err((
                DecodeErrorKind::MissingOperand { kind: kind.name },
                self.pos,
            ));
        }
        let word = self.words[self.pos];
        match kind.class {
            KindClass::ResultType => {
                self.summary.result_type = Some(word);
                self.emit(kind, 1, None, None, false);
            }
            KindClass::Result => {
                self.summary.result_id = Some(word);
                self.emit(kind, 1, None, None, false);
            }
            KindClass::Id | KindClass::Float => self.emit(kind, 1, None, None, false),
            KindClass::Integer => match self.switch_type {
                // OpSwitch hook: case literals are sized by the selector's type.
                Some(t) => {
                    let n = self.literal_words(t, 2);
                    if rest < n {
                        return Err((
                            DecodeErrorKind::MissingOperand { kind: kind.name },
                            self.pos,
                        ));
                    }
                    self.emit(kind, n, Some(t), None, false);
                }
                None => self.emit(kind, 1, None, None, false),
            },
            KindClass::String => match decode_string(&self.words[self.pos..]) {
                Some((_, _, used)) => self.emit(kind, used, None, None, false),
                None => return Err((DecodeErrorKind::UnterminatedString, self.pos)),
            },
            KindClass::ContextNumber if self.opts.untyped => {
                self.emit(kind, rest, None, None, false)
            }
            KindClass::ContextNumber => {
                // OpConstant/OpSpecConstant hook: sized by the result type.
                let ty = self.summary.result_type.unwrap_or(0);
                let Some(t) = self.ids.number_type(Id(ty)) else {
                    return Err((DecodeErrorKind::NotANumericType { id: ty }, self.pos));
                };
                let n = self.literal_words(t, rest);
                if rest < n {
                    return Err((
                        DecodeErrorKind::MissingOperand { kind: kind.name },
                        self.pos,
                    ));
                }
                self.emit(kind, n, Some(t), None, false);
            }
            KindClass::ExtInstNumber if self.embedded => {
                return Err((DecodeErrorKind::UnknownOpcode { opcode: word }, self.pos));
            }
            KindClass::SpecConstantOpcode if self.embedded => {
                return Err((
                    DecodeErrorKind::InvalidSpecConstantOpcode { opcode: word },
                    self.pos,
                ));
            }
            // An untyped walk with no fact about the set: the operands' layout is not
            // known; they are passed through as ids, flagged.
            KindClass::ExtInstNumber
                if self.opts.untyped && self.ids.ext_set(Id(self.set_id())).is_none() =>
            {
                self.summary.saw_unknown = true;
                self.emit(kind, 1, None, None, true);
                while self.pos < self.words.len() {
                    self.emit(&spv::kinds::IdRef, 1, None, None, true);
                }
                return Ok(true);
            }
            KindClass::ExtInstNumber => {
                // OpExtInst hook: the rest is laid out by the imported set's grammar.
                let set_id = self.set_id();
                let Some(set) = self.ids.ext_set(Id(set_id)) else {
                    return Err((
                        DecodeErrorKind::UnknownExtInstSetId { id: set_id },
                        self.pos.saturating_sub(1),
                    ));
                };
                let ext = set
                    .grammar
                    .and_then(|g| g.instruction(word).map(|i| (g, i)));
                match ext {
                    Some((g, ext_info)) => {
                        self.emit(kind, 1, None, Some(g), false);
                        self.embedded = true;
                        self.list(ext_info.operands, ext_info)?;
                    }
                    None => {
                        if self.opts.strict && !(set.grammar.is_none() && set.non_semantic) {
                            return Err((
                                DecodeErrorKind::UnknownOpcode { opcode: word },
                                self.pos,
                            ));
                        }
                        // An unknown number, or a set the registry does not know: a
                        // non-semantic instruction's operands are all ids (the
                        // extension says so); any other's layout is unknown, and its
                        // words are passed through as ids, flagged.
                        let unknown = !set.non_semantic;
                        self.summary.saw_unknown |= unknown;
                        self.emit(kind, 1, None, set.grammar, unknown);
                        let id_kind = &spv::kinds::IdRef;
                        while self.pos < self.words.len() {
                            self.emit(id_kind, 1, None, None, unknown);
                        }
                    }
                }
                return Ok(true);
            }
            KindClass::SpecConstantOpcode => {
                // OpSpecConstantOp hook: the embedded opcode's operands follow, minus
                // its result type and result id. Only the opcodes the specification
                // lists may be embedded, as spirv-dis checks.
                let inner = Some(word)
                    .filter(|&op| crate::spec_constant_op::allows(op))
                    .and_then(|op| spv::GRAMMAR.instruction(op));
                let Some(inner) = inner else {
                    return Err((
                        DecodeErrorKind::InvalidSpecConstantOpcode { opcode: word },
                        self.pos,
                    ));
                };
                self.emit(kind, 1, None, None, false);
                self.embedded = true;
                self.list(inner.embedded_operands(), inner)?;
                return Ok(true);
            }
            KindClass::ValueEnum => match kind.enumerant(word) {
                Some(e) => {
                    self.emit(kind, 1, None, None, false);
                    self.list(e.parameters, info)?;
                }
                None => self.unknown_enum(kind, word)?,
            },
            KindClass::BitEnum => {
                let mut unknown_bits = false;
                for bit in crate::grammar::set_bits(word) {
                    if kind.enumerant(bit).is_none() {
                        unknown_bits = true;
                    }
                }
                if unknown_bits {
                    self.unknown_enum(kind, word)?;
                } else {
                    self.emit(kind, 1, None, None, false);
                }
                for bit in crate::grammar::set_bits(word) {
                    if let Some(e) = kind.enumerant(bit) {
                        self.list(e.parameters, info)?;
                    }
                }
            }
            KindClass::Composite => {
                for base in kind.bases {
                    if self.one(base, info)? {
                        return Ok(true);
                    }
                }
            }
        }
        Ok(false)
    }

    /// Words a typed literal takes. Strict walks count as SPIRV-Tools' parser does:
    /// the width rounded up to whole words, in its 16-bit counter (so a width of 0 takes
    /// none); others size the usual widths as [`NumberType::words`] does (a width of 0
    /// none there too, or modules the parser reads would not read here) and give a
    /// wider one `wide` words.
    fn literal_words(&self, t: NumberType, wide: usize) -> usize {
        if self.opts.strict {
            usize::from(t.width().div_ceil(32) as u16)
        } else {
            t.words().unwrap_or(wide)
        }
    }

    /// The word before the current one: an `OpExtInst`'s set id, read at its
    /// instruction number.
    fn set_id(&self) -> u32 {
        self.pos
            .checked_sub(1)
            .and_then(|p| self.words.get(p))
            .copied()
            .unwrap_or(0)
    }

    fn unknown_enum(&mut self, kind: &'static OperandKind, value: u32) -> WalkResult {
        if self.opts.strict {
            return Err((
                DecodeErrorKind::UnknownEnumerant {
                    kind: kind.name,
                    value,
                },
                self.pos,
            ));
        }
        self.summary.saw_unknown = true;
        self.emit(kind, 1, None, None, true);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::__private::Vec;

    /// Every shaped layout, at every length its shape accepts (up to two repeats), with
    /// operand words of several values: where [`shaped_ids`] answers, it finds the ids
    /// the walk finds; and it answers for most of them.
    #[test]
    fn shaped_ids_match_the_walk() {
        let ids = Ids::new(0);
        let (mut answered, mut total) = (0, 0);
        for info in spv::GRAMMAR.instructions {
            let Some(shape) = info.shape else { continue };
            let fixed = usize::from(shape.fixed);
            let lens: Vec<usize> = match shape.repeat {
                0 => (fixed..=fixed + usize::from(shape.optional)).collect(),
                k => (0..3).map(|i| fixed + i * usize::from(k)).collect(),
            };
            for n in lens {
                for fill in [0u32, 1, 2, 4, 5, 0x7fff_ffff] {
                    let words: Vec<u32> = (0..n as u32).map(|i| fill.wrapping_add(i % 2)).collect();
                    total += 1;
                    let mut fast = Vec::new();
                    if !shaped_ids(info, &words, &mut |c, at| fast.push((c, at))) {
                        continue;
                    }
                    answered += 1;
                    let mut slow = Vec::new();
                    let mut unknown = false;
                    let r = walk(info, &words, &ids, WalkOptions::default(), &mut |p| {
                        unknown |= p.unknown;
                        if p.kind.is_id() {
                            slow.push((p.kind.class, p.start));
                        }
                    });
                    assert!(r.is_ok() && !unknown, "{} {words:?}", info.opname);
                    assert_eq!(fast, slow, "{} {words:?}", info.opname);
                }
            }
        }
        assert!(answered * 2 > total, "{answered} of {total}");
    }
}
