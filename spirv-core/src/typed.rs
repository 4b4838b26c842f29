//! What every generated instruction set shares, driven by the grammar tables so that no
//! generated item repeats it per instruction: `Debug` through the grammar's names,
//! equality, and visiting the ids of a typed instruction.
//!
//! Why: every item `include_grammar!` emits is type-checked and compiled by every crate
//! that depends on spirv-core, cold. Derived `Debug` and `PartialEq` and a per-struct id
//! visitor cost work for every field of every instruction; these helpers are compiled
//! once, here. A generated `Instruction` enum implements [`InstructionSet`]; each
//! instruction struct gets a one-line `Debug` that calls the table-driven formatter.
//! The helpers the generated code calls are reached through `spirv_core::__private`.

use crate::__private::Vec;
use crate::codec::{DecodeContext, Encode, Sink, SmallWords, string_operand};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
use crate::grammar::{Grammar, InstructionInfo, KindClass, OperandKind, Quantifier, fmt_mask};
use crate::spv;
use crate::types::{Id, RawInstruction};
use crate::walk::{self, Ids, Parsed, WalkOptions};
use core::fmt;

/// A generated `Instruction` enum: what the shared helpers need to know of it.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a generated instruction set",
    note = "the `Instruction` enum that `include_grammar!` emits implements it; for spirv-core's vendored extended sets (`spirv_core::ext::*`), enable spirv-core's `typed-ext` feature"
)]
pub trait InstructionSet: Sized {
    /// The grammar tables.
    fn grammar() -> &'static Grammar;
    /// The opcode or extended instruction number.
    fn number(&self) -> u32;
    /// Appends the operand words (no leading word).
    fn encode_operands(&self, w: &mut Vec<u32>) {
        self.encode_operands_to(&mut Sink::from(w));
    }
    /// Appends the operand words to a sink.
    #[doc(hidden)]
    fn encode_operands_to(&self, w: &mut Sink<'_>);
    /// Decodes operand words of instruction `number`.
    ///
    /// # Errors
    /// See the generated `decode`.
    fn decode_number(
        number: u32,
        operands: &[u32],
        ctx: &DecodeContext,
    ) -> Result<Self, DecodeError>;
    /// The words of an instruction kept undecoded (`Unknown`).
    fn raw(&self) -> Option<&RawInstruction>;
    /// Words of each `OpSwitch` case literal in this instruction; 1 elsewhere.
    fn switch_literal_words(&self) -> u8 {
        1
    }
}

/// `PartialEq` of a generated `Instruction`: the same number, both raw or both typed,
/// and the same words; no allocation for operands up to [`SmallWords::INLINE`] words.
#[doc(hidden)]
pub fn same_instruction<T: InstructionSet>(a: &T, b: &T) -> bool {
    if a.number() != b.number() || a.raw().is_some() != b.raw().is_some() {
        return false;
    }
    let (mut x, mut y) = (SmallWords::new(), SmallWords::new());
    a.encode_operands_to(&mut Sink::from(&mut x));
    b.encode_operands_to(&mut Sink::from(&mut y));
    x.as_slice() == y.as_slice()
}

/// `Hash` of a generated `Instruction`, consistent with [`same_instruction`].
#[doc(hidden)]
pub fn hash_instruction<T: InstructionSet, H: core::hash::Hasher>(i: &T, state: &mut H) {
    let mut x = SmallWords::new();
    i.encode_operands_to(&mut Sink::from(&mut x));
    state.write_u32(i.number());
    state.write_u8(u8::from(i.raw().is_some()));
    core::hash::Hash::hash(x.as_slice(), state);
}

/// The operands of a typed value's encoding, split by the table with no id context.
fn parse_untyped(info: &'static InstructionInfo, words: &[u32], switch: u8) -> Option<Vec<Parsed>> {
    let mut parsed = Vec::new();
    let opts = WalkOptions {
        untyped: true,
        switch_literal_words: switch,
        ..WalkOptions::default()
    };
    walk::walk(info, words, &Ids::default(), opts, &mut |p| parsed.push(*p)).ok()?;
    Some(parsed)
}

#[doc(hidden)]
/// `Debug` of an instruction's operand words through its table: `OpTypeInt {
/// result_id: %1, width: 32, signedness: 0 }`. Ids print as `%N`, enumerants and
/// masks by name, strings quoted, optional operands that are absent as `None`, lists in
/// brackets, and an enumerant's parameters (or an embedded instruction's operands) in
/// parentheses after it. Words the table cannot split print as a list.
pub fn fmt_fields(
    info: &'static InstructionInfo,
    words: &[u32],
    switch_literal_words: u8,
    f: &mut fmt::Formatter<'_>,
) -> fmt::Result {
    let Some(parsed) = parse_untyped(info, words, switch_literal_words) else {
        return f.debug_struct(info.opname).field("words", &words).finish();
    };
    write!(f, "{} {{", info.opname)?;
    let mut fields = info.fields.split(' ');
    for (i, op) in info.operands.iter().enumerate() {
        let name = fields
            .next()
            .filter(|n| !n.is_empty())
            .unwrap_or(op.kind.name);
        f.write_str(if i == 0 { " " } else { ", " })?;
        write!(f, "{name}: ")?;
        let mine: Vec<&Parsed> = parsed
            .iter()
            .filter(|p| usize::from(p.operand) == i)
            .collect();
        let per_item = match op.kind.class {
            KindClass::Composite => op.kind.bases.len().max(1),
            _ => 1,
        };
        match (op.quantifier, mine.is_empty()) {
            (Quantifier::Optional, true) => f.write_str("None")?,
            (Quantifier::Variadic, _) => {
                f.write_str("[")?;
                for (k, item) in mine.chunks(per_item).enumerate() {
                    if k > 0 {
                        f.write_str(", ")?;
                    }
                    fmt_group(item, words, per_item > 1, f)?;
                }
                f.write_str("]")?;
            }
            _ => fmt_group(&mine, words, per_item > 1, f)?,
        }
    }
    f.write_str(if info.operands.is_empty() { "}" } else { " }" })
}

/// One operand: a value and its parameters, or a composite's parts.
fn fmt_group(
    items: &[&Parsed],
    words: &[u32],
    tuple: bool,
    f: &mut fmt::Formatter<'_>,
) -> fmt::Result {
    if tuple {
        f.write_str("(")?;
    }
    for (k, p) in items.iter().enumerate() {
        match (k, tuple) {
            (0, _) => {}
            (1, false) => f.write_str("(")?,
            _ => f.write_str(", ")?,
        }
        fmt_one(p, &words[p.start..p.start + p.len], f)?;
    }
    if tuple || items.len() > 1 {
        f.write_str(")")?;
    }
    Ok(())
}

fn fmt_one(p: &Parsed, w: &[u32], f: &mut fmt::Formatter<'_>) -> fmt::Result {
    let first = w.first().copied().unwrap_or(0);
    match p.kind.class {
        KindClass::ResultType | KindClass::Result | KindClass::Id => write!(f, "%{first}"),
        KindClass::Float => write!(f, "{:?}", f32::from_bits(first)),
        KindClass::String => {
            let bytes = string_operand(w);
            write!(f, "{:?}", alloc::string::String::from_utf8_lossy(&bytes))
        }
        KindClass::ValueEnum => match p.kind.enumerant(first) {
            Some(e) => f.write_str(e.name),
            None => write!(f, "{}({first})", p.kind.name),
        },
        KindClass::BitEnum => fmt_mask(p.kind, first, f),
        KindClass::SpecConstantOpcode => match spv::GRAMMAR.instruction(first) {
            Some(i) => f.write_str(i.opname),
            None => write!(f, "{first}"),
        },
        _ => match w {
            [one] => write!(f, "{one}"),
            [lo, hi] => write!(f, "{}", u64::from(*lo) | (u64::from(*hi) << 32)),
            many => write!(f, "{many:?}"),
        },
    }
}

#[doc(hidden)]
/// `Debug` of a generated instruction struct: that of the instruction it makes. An
/// instruction struct has no encoder of its own (the enum writes each variant's fields
/// in place), so this clones it into its set's enum `T`; never on a hot path.
pub fn fmt_struct<T: InstructionSet, S: Clone + Into<T>>(
    s: &S,
    f: &mut fmt::Formatter<'_>,
) -> fmt::Result {
    fmt_instruction(&s.clone().into(), f)
}

#[doc(hidden)]
/// `PartialEq` of a generated instruction struct: the same words, through its set's
/// enum `T` as [`fmt_struct`].
pub fn same_struct<T: InstructionSet, S: Clone + Into<T>>(a: &S, b: &S) -> bool {
    same_instruction::<T>(&a.clone().into(), &b.clone().into())
}

#[doc(hidden)]
/// `Hash` of a generated instruction struct, consistent with [`same_struct`]: its
/// operand words.
pub fn hash_struct<T: InstructionSet, S: Clone + Into<T>, H: core::hash::Hasher>(
    s: &S,
    state: &mut H,
) {
    let mut x = SmallWords::new();
    s.clone().into().encode_operands_to(&mut Sink::from(&mut x));
    core::hash::Hash::hash(x.as_slice(), state);
}

#[doc(hidden)]
/// `Debug` of a generated `<Kind>Data` value: its encoding through the kind's table,
/// as [`fmt_fields`] prints an operand (`SpecId(7)`, `Aligned|Nontemporal(8)`).
pub fn fmt_data(
    v: &dyn Encode,
    kind: &'static OperandKind,
    f: &mut fmt::Formatter<'_>,
) -> fmt::Result {
    let mut w = Vec::new();
    v.encode_to(&mut Sink::from(&mut w));
    let mut parsed = Vec::new();
    let opts = WalkOptions {
        untyped: true,
        ..WalkOptions::default()
    };
    match walk::walk_operand(kind, &w, &Ids::default(), opts, &mut |p| parsed.push(*p)) {
        Ok(n) if n == w.len() => {
            let refs: Vec<&Parsed> = parsed.iter().collect();
            fmt_group(&refs, &w, false, f)
        }
        _ => write!(f, "{}({w:?})", kind.name),
    }
}

#[doc(hidden)]
/// `Debug` of a generated `Instruction`.
pub fn fmt_instruction<T: InstructionSet>(i: &T, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    if let Some(raw) = i.raw() {
        return write!(f, "Unknown({raw:?})");
    }
    let mut w = Vec::new();
    i.encode_operands(&mut w);
    match T::grammar().instruction(i.number()) {
        Some(info) => fmt_fields(info, &w, i.switch_literal_words(), f),
        None => write!(f, "Unknown({}, {w:?})", i.number()),
    }
}

#[doc(hidden)]
/// Writes the leading word of the instruction whose words start at `start` in `w` (a
/// placeholder word, then its operands): the generated `encode`'s last step.
///
/// # Errors
/// It would take more than 65535 words, or `opcode` does not fit 16 bits; `w` is
/// truncated back to `start` then.
pub fn finish_instruction(w: &mut Vec<u32>, start: usize, opcode: u32) -> Result<(), EncodeError> {
    let words = w.len() - start;
    let error = if words > 0xFFFF {
        EncodeError::TooLong { words }
    } else if opcode > 0xFFFF {
        EncodeError::OpcodeOutOfRange { opcode }
    } else {
        w[start] = ((words as u32) << 16) | opcode;
        return Ok(());
    };
    w.truncate(start);
    Err(error)
}

/// The word positions of the ids in an instruction's encoding, found as the reader
/// finds them: with `ids` for what the encoding does not say (the set an `OpExtInst`
/// imports).
///
/// # Errors
/// The instruction is kept as raw words (`Unknown`), or some of its operands cannot be
/// laid out: an unknown enumerant that may take parameters, or an `OpExtInst` whose set
/// `ids` does not know, or knows as neither registered nor `NonSemantic.`.
fn id_positions<T: InstructionSet>(
    i: &T,
    words: &[u32],
    ids: &Ids,
) -> Result<Vec<usize>, DecodeError> {
    let unknown = |kind| DecodeError::at_word(kind, 0);
    if let Some(raw) = i.raw() {
        return Err(unknown(DecodeErrorKind::UnknownOpcode {
            opcode: raw.opcode,
        }));
    }
    let Some(info) = T::grammar().instruction(i.number()) else {
        return Err(unknown(DecodeErrorKind::UnknownOpcode {
            opcode: i.number(),
        }));
    };
    let opts = WalkOptions {
        untyped: true,
        switch_literal_words: i.switch_literal_words(),
        ..WalkOptions::default()
    };
    let mut positions = Vec::new();
    let mut flagged = None;
    let mut each = |p: &Parsed| {
        if p.unknown && flagged.is_none() {
            flagged = Some(p.start);
        }
        if p.kind.is_id() {
            positions.push(p.start);
        }
    };
    let walked = walk::walk(info, words, ids, opts, &mut each);
    if let Err((kind, at)) = walked {
        return Err(DecodeError::at_word(kind, at));
    }
    match flagged {
        None => Ok(positions),
        Some(at) if info.opcode == u32::from(spv::Opcode::ExtInst.0) && at >= 3 => {
            let set = words.get(2).copied().unwrap_or(0);
            let kind = match ids.ext_set(Id(set)) {
                None => DecodeErrorKind::UnknownExtInstSetId { id: set },
                Some(_) => DecodeErrorKind::UnknownExtInstLayout,
            };
            Err(DecodeError::at_word(kind, at))
        }
        Some(at) => Err(DecodeError::at_word(
            DecodeErrorKind::UnknownEnumerant {
                kind: "",
                value: words.get(at).copied().unwrap_or(0),
            },
            at,
        )),
    }
}

#[doc(hidden)]
/// Calls `f` on every id a typed instruction defines or uses, in operand order, at the
/// positions the module reader finds them. `ids` says what the instruction alone does
/// not: for `OpExtInst`, which set its set id imports, whose grammar lays out the
/// operands (a [`Module`](crate::Module)'s [`ids`](crate::Module::ids), or the table a
/// [`Builder`](crate::Builder) keeps).
///
/// # Errors
/// Nothing is visited when some ids cannot be found: see the generated `visit_ids`.
pub fn visit_ids<T: InstructionSet>(
    i: &T,
    ids: &Ids,
    f: &mut dyn FnMut(Id),
) -> Result<(), DecodeError> {
    let mut w = Vec::new();
    i.encode_operands(&mut w);
    for at in id_positions(i, &w, ids)? {
        f(Id(w[at]));
    }
    Ok(())
}

#[doc(hidden)]
/// Like [`visit_ids`], letting `f` change each id.
///
/// # Errors
/// Nothing is changed when some ids cannot be found: see the generated `visit_ids`.
pub fn visit_ids_mut<T: InstructionSet>(
    i: &mut T,
    ids: &Ids,
    f: &mut dyn FnMut(&mut Id),
) -> Result<(), DecodeError> {
    let mut w = Vec::new();
    i.encode_operands(&mut w);
    let at = id_positions(i, &w, ids)?;
    if at.is_empty() {
        return Ok(());
    }
    for a in at {
        let mut id = Id(w[a]);
        f(&mut id);
        w[a] = id.0;
    }
    let ctx = DecodeContext {
        switch_literal_words: u32::from(i.switch_literal_words()),
        ..DecodeContext::default()
    };
    // The same layout with other ids decodes again.
    *i = T::decode_number(i.number(), &w, &ctx)?;
    Ok(())
}
