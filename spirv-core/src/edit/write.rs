//! Writing an edited module in one pass over the original: insertions, appends and
//! replacements in place, removed instructions left out, ids renamed, and debug lines
//! handled as spirv-opt 2025.5 loads and writes them (`source/opt/ir_loader.cpp`,
//! `Module::ToBinary` in `source/opt/module.cpp`).
//!
//! spirv-opt's loader attaches the `OpLine`s and `OpNoLine`s before an instruction to
//! it, and gives each later instruction of the same block that has none a copy of the
//! line in effect; its writer writes each instruction's lines, leaving out a line equal
//! to the one in effect and lines between a merge instruction and its branch, and writes
//! `OpNoLine` before an instruction without lines while a line is in effect. So a line
//! passes to the next instruction kept when the one that carried it is removed.
//! `NonSemantic.Shader.DebugInfo.100`'s `DebugLine` and `DebugNoLine` are lines too; a
//! copy of a `DebugLine` that has to be written gets a fresh id, as spirv-opt gives it.

use super::{Editor, InstId};
use crate::__private::Vec;
use crate::error::DecodeError;
use crate::module::Section;
use crate::spirv_tools::is_block_terminator;
use crate::spv::Opcode as O;
use crate::walk::{self, WalkOptions};

/// What a line instruction is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Line {
    /// `OpLine`, or a `DebugLine` of `NonSemantic.Shader.DebugInfo.100`.
    Line,
    /// `OpNoLine`, or a `DebugNoLine`.
    NoLine,
}

/// The ids that import `NonSemantic.Shader.DebugInfo.100`, whose `DebugLine` (103) and
/// `DebugNoLine` (104) are line instructions.
struct Lines(alloc::collections::BTreeSet<u32>);

impl Lines {
    fn of(m: &crate::Module) -> Self {
        Lines(
            m.section(Section::ExtInstImport)
                .filter(|i| {
                    crate::codec::string_operand(i.operands().get(1..).unwrap_or(&[]))
                        == b"NonSemantic.Shader.DebugInfo.100"
                })
                .filter_map(|i| i.result_id().map(|id| id.0))
                .collect(),
        )
    }

    fn kind(&self, words: &[u32]) -> Option<Line> {
        match O(words.first().map_or(0, |w| *w as u16)) {
            O::Line => Some(Line::Line),
            O::NoLine => Some(Line::NoLine),
            O::ExtInst if words.get(3).is_some_and(|s| self.0.contains(s)) => match words.get(4) {
                Some(103) => Some(Line::Line),
                Some(104) => Some(Line::NoLine),
                _ => None,
            },
            _ => None,
        }
    }
}

/// A line instruction's in-operands: after the leading word, or after the result type
/// and id of an extended instruction.
fn in_operands(words: &[u32]) -> &[u32] {
    let skip = if O(words[0] as u16) == O::ExtInst {
        3
    } else {
        1
    };
    words.get(skip..).unwrap_or(&[])
}

/// Where the writer's words go: a new module, or a comparison with the module's own
/// words that only says whether writing would change them.
enum Sink<'a> {
    Words(Vec<u32>),
    Compare {
        words: &'a [u32],
        len: usize,
        same: bool,
    },
}

impl Sink<'_> {
    fn len(&self) -> usize {
        match self {
            Sink::Words(out) => out.len(),
            Sink::Compare { len, .. } => *len,
        }
    }

    fn extend_from_slice(&mut self, s: &[u32]) {
        match self {
            Sink::Words(out) => out.extend_from_slice(s),
            Sink::Compare { words, len, same } => {
                *same &= words.get(*len..*len + s.len()) == Some(s);
                *len += s.len();
            }
        }
    }

    fn push(&mut self, w: u32) {
        self.extend_from_slice(&[w]);
    }

    /// Overwrites word `at`, already written.
    fn set(&mut self, at: usize, w: u32) {
        match self {
            Sink::Words(out) => out[at] = w,
            Sink::Compare { words, same, .. } => *same &= words.get(at) == Some(&w),
        }
    }
}

/// The writer's state: spirv-opt's `write_inst` lambda.
struct Writer<'a> {
    out: Sink<'a>,
    lines: Lines,
    /// The line in effect, as its written words.
    last_line: Option<Vec<u32>>,
    between_merge_and_branch: bool,
    /// The next fresh id, for `DebugLine` copies.
    next_id: u32,
    /// Instructions written so far.
    count: u32,
    /// The indices of those written that are not the module's own (added, replacing, or
    /// with ids renamed): the re-read checks them.
    untrusted: Vec<u32>,
    /// Whether every instruction counts as not the module's own (ids are renamed).
    trust_none: bool,
}

impl Writer<'_> {
    /// [`Writer::write`] of one of the module's own instructions, not a line, with no
    /// lines of its own, its ids as they were.
    #[inline]
    fn write_plain(&mut self, words: &[u32], opcode: O) {
        if self.last_line.take().is_some() {
            // A line was in effect and this instruction has none: end it.
            self.out.push((1 << 16) | u32::from(O::NoLine.0));
            self.count += 1;
        }
        if opcode != O::Nop {
            self.out.extend_from_slice(words);
            self.count += 1;
        }
        self.between_merge_and_branch = matches!(opcode, O::LoopMerge | O::SelectionMerge);
    }

    /// Writes one instruction (`words`); `has_lines` says whether lines were written for
    /// it (it has lines of its own, or a copy of the line in effect).
    fn write(&mut self, words: &[u32], has_lines: bool, own: bool) {
        let opcode = O(words[0] as u16);
        let line = self.lines.kind(words);
        let is_line = line == Some(Line::Line);
        let is_no_line = line == Some(Line::NoLine);
        if self.between_merge_and_branch && line.is_some() {
            return;
        }
        if let Some(last) = &self.last_line {
            if is_line {
                // spirv-opt compares the line in effect's in-operands with the first
                // words of this one's.
                let (a, b) = (in_operands(last), in_operands(words));
                if b.len() >= a.len() && b[..a.len()] == *a {
                    return;
                }
            } else if !is_no_line && !has_lines {
                // A line was in effect and this instruction has none: end it.
                self.out.push((1 << 16) | u32::from(O::NoLine.0));
                self.count += 1;
                self.last_line = None;
            }
        }
        if opcode != O::Nop {
            self.out.extend_from_slice(words);
            if !own || self.trust_none {
                self.untrusted.push(self.count);
            }
            self.count += 1;
        }
        self.between_merge_and_branch = false;
        if is_block_terminator(opcode) || is_no_line {
            self.last_line = None;
        } else if matches!(opcode, O::LoopMerge | O::SelectionMerge) {
            self.between_merge_and_branch = true;
            self.last_line = None;
        } else if is_line {
            self.last_line = Some(words.to_vec());
        }
    }
}

/// An edited module, written.
pub(super) struct Written {
    /// Its words: the header as the original's, with the editor's bound.
    pub(super) words: Vec<u32>,
    /// The indices of the instructions that are not the module's own unchanged
    /// (ascending).
    pub(super) untrusted: Vec<u32>,
    /// One above the fresh ids given to copies of `DebugLine`s (the editor's bound if
    /// none was).
    pub(super) next_id: u32,
}

/// Writes the edited module.
pub(super) fn write(e: &Editor<'_>) -> Result<Written, DecodeError> {
    let out = Vec::with_capacity(e.module.word_len() + e.arena.len());
    let w = write_to(e, Sink::Words(out))?;
    let words = match w.out {
        Sink::Words(words) => words,
        Sink::Compare { .. } => Vec::new(),
    };
    Ok(Written {
        words,
        untrusted: w.untrusted,
        next_id: w.next_id,
    })
}

/// Whether writing the edited module gives the module's own words after the header
/// (true of a module the writer wrote, when nothing was edited): found without
/// writing anything.
pub(super) fn unchanged_by_write(e: &Editor<'_>) -> Result<bool, DecodeError> {
    let words = e.module.words_after_header();
    let sink = Sink::Compare {
        words,
        len: 0,
        same: true,
    };
    let w = write_to(e, sink)?;
    Ok(matches!(w.out, Sink::Compare { len, same: true, .. } if len == words.len()))
}

/// Writes the edited module into `out` (the header too, for a new module).
fn write_to<'a>(e: &Editor<'_>, out: Sink<'a>) -> Result<Writer<'a>, DecodeError> {
    let m = e.module;
    let mut header = m.header().to_words();
    header[3] = e.bound;
    let mut w = Writer {
        out,
        lines: Lines::of(m),
        last_line: None,
        between_merge_and_branch: false,
        next_id: e.bound,
        count: 0,
        untrusted: Vec::new(),
        trust_none: !e.ids.is_empty(),
    };
    if let Sink::Words(out) = &mut w.out {
        out.extend_from_slice(&header);
    }
    // Lines seen and not yet attached (indices), and the loader's line in effect.
    let mut pending: Vec<usize> = Vec::new();
    let mut in_effect: Option<usize> = None;
    let mut flushed = 0;
    let mut scratch: Vec<u32> = Vec::new();
    for i in 0..m.len() {
        // Instructions appended to sections that end here come first.
        while flushed < Section::COUNT && m.section_range(Section::ALL[flushed]).end <= i {
            added_list(e, &e.appended[flushed], &mut w);
            flushed += 1;
        }
        let inst = m
            .instruction(i)
            .ok_or_else(|| DecodeError::new(crate::DecodeErrorKind::ZeroWordCount, 0, i))?;
        let h = InstId::from(i);
        // Most instructions have no lines to carry, nothing inserted beside them and
        // no replacement: what the steps below do with them, without their lookups.
        // (An empty map is asked first: most edits have no replacements or insertions.)
        let edited_here = (!e.replaced.is_empty() && e.replaced.contains_key(&(i as u32)))
            || (!e.before.is_empty() && e.before.contains_key(&h))
            || (!e.after.is_empty() && e.after.contains_key(&h));
        let untouched = e.ids.is_empty()
            && pending.is_empty()
            && in_effect.is_none_or(|l| e.removed[l])
            && !edited_here;
        if untouched && w.lines.kind(inst.words()).is_none() {
            if !e.removed[i] {
                w.write_plain(inst.words(), inst.opcode());
            }
            if is_block_terminator(inst.opcode()) {
                in_effect = None;
            }
            continue;
        }
        let opcode = effective_opcode(e, i, inst.opcode());
        let killed_line = opcode == O::Nop && e.replaced.contains_key(&(i as u32));
        if w.lines.kind(effective_words(e, i, inst.words())).is_some() || killed_line {
            added_list(e, e.before.get(&h).map_or(&[][..], Vec::as_slice), &mut w);
            pending.push(i);
            in_effect = None;
            added_list(e, e.after.get(&h).map_or(&[][..], Vec::as_slice), &mut w);
            continue;
        }
        let attached = core::mem::take(&mut pending);
        let copy = if attached.is_empty() { in_effect } else { None };
        if let Some(&last) = attached.last() {
            if m.instruction(last).is_some_and(|l| {
                w.lines.kind(effective_words(e, last, l.words())) == Some(Line::Line)
            }) {
                in_effect = Some(last);
            }
        }
        added_list(e, e.before.get(&h).map_or(&[][..], Vec::as_slice), &mut w);
        if !e.removed[i] {
            // Its own lines (those not removed), else the copy of the line in effect.
            let own: Vec<usize> = attached
                .iter()
                .copied()
                .filter(|&l| !e.removed[l])
                .collect();
            let copied = attached.is_empty();
            let lines: Vec<usize> = if copied {
                copy.into_iter().filter(|&l| !e.removed[l]).collect()
            } else {
                own
            };
            for &l in &lines {
                let own = line(e, l, &mut scratch)?;
                let before = w.out.len();
                w.write(&scratch, false, own);
                // A written copy of a `DebugLine` gets its own id.
                if copied && w.out.len() > before && O(scratch[0] as u16) == O::ExtInst {
                    w.out.set(before + 2, w.next_id);
                    w.next_id = w.next_id.saturating_add(1);
                }
            }
            match e.replaced.get(&(i as u32)) {
                Some(&k) => {
                    let a = &e.added[k as usize];
                    let words = &e.arena[a.start as usize..(a.start + a.len) as usize];
                    w.write(words, !lines.is_empty(), false);
                }
                // Without renaming, the instruction's own words.
                None if e.ids.is_empty() => w.write(inst.words(), !lines.is_empty(), true),
                None => {
                    mapped(e, i, &mut scratch)?;
                    w.write(&scratch, !lines.is_empty(), true);
                }
            }
        }
        added_list(e, e.after.get(&h).map_or(&[][..], Vec::as_slice), &mut w);
        if is_block_terminator(opcode) {
            in_effect = None;
        }
    }
    while flushed < Section::COUNT {
        added_list(e, &e.appended[flushed], &mut w);
        flushed += 1;
    }
    // Lines after the last instruction stay at the end.
    for l in pending {
        if !e.removed[l] {
            let own = line(e, l, &mut scratch)?;
            w.write(&scratch, false, own);
        }
    }
    Ok(w)
}

/// The opcode instruction `i` of the original module is written with: its
/// replacement's, if it was replaced. An instruction replaced by `OpLine` or `OpNoLine`
/// is a line, attached to the next instruction as the loader attaches lines; one
/// replaced by `OpNop` is a killed line, as spirv-opt leaves one among the next
/// instruction's lines: it ends a line in effect (with `OpNoLine`) and is not written.
/// The words instruction `i` of the original module is written as: its replacement's,
/// or its own (`original`).
fn effective_words<'w>(e: &'w Editor<'_>, i: usize, original: &'w [u32]) -> &'w [u32] {
    match e.replaced.get(&(i as u32)) {
        Some(&k) => {
            let a = &e.added[k as usize];
            &e.arena[a.start as usize..(a.start + a.len) as usize]
        }
        None => original,
    }
}

fn effective_opcode(e: &Editor<'_>, i: usize, original: O) -> O {
    match e.replaced.get(&(i as u32)) {
        Some(&k) => O(e.arena[e.added[k as usize].start as usize] as u16),
        None => original,
    }
}

/// The words of line `l` of the original module: its replacement, or itself with its
/// ids renamed; and whether they are the line's own (not a replacement).
fn line(e: &Editor<'_>, l: usize, out: &mut Vec<u32>) -> Result<bool, DecodeError> {
    match e.replaced.get(&(l as u32)) {
        Some(&k) => {
            let a = &e.added[k as usize];
            out.clear();
            out.extend_from_slice(&e.arena[a.start as usize..(a.start + a.len) as usize]);
            Ok(false)
        }
        None => mapped(e, l, out).map(|()| true),
    }
}

/// Writes added instructions, each with those inserted before and after it, in order
/// (a stack, not recursion: chains of insertions are the caller's to make long).
fn added_list(e: &Editor<'_>, list: &[InstId], w: &mut Writer) {
    if list.is_empty() {
        return;
    }
    // Each entry: an instruction to expand (false) or to write (true).
    let mut stack: Vec<(InstId, bool)> = list.iter().rev().map(|&h| (h, false)).collect();
    while let Some((h, expanded)) = stack.pop() {
        let Some(k) = e.added_entry(h) else { continue };
        if expanded {
            if !e.added_removed[k] {
                let a = &e.added[k];
                let words = &e.arena[a.start as usize..(a.start + a.len) as usize];
                w.write(words, false, false);
            }
            continue;
        }
        for &x in e.after.get(&h).map_or(&[][..], Vec::as_slice).iter().rev() {
            stack.push((x, false));
        }
        stack.push((h, true));
        for &x in e.before.get(&h).map_or(&[][..], Vec::as_slice).iter().rev() {
            stack.push((x, false));
        }
    }
}

/// Instruction `i` of the original module, its ids renamed, into `out`.
fn mapped(e: &Editor<'_>, i: usize, out: &mut Vec<u32>) -> Result<(), DecodeError> {
    let inst = e
        .module
        .instruction(i)
        .ok_or_else(|| DecodeError::new(crate::DecodeErrorKind::ZeroWordCount, 0, i))?;
    out.clear();
    out.extend_from_slice(inst.words());
    if e.ids.is_empty() {
        return Ok(());
    }
    let Some(info) = inst.info() else {
        return Err(DecodeError::new(
            crate::DecodeErrorKind::UnknownOpcode {
                opcode: u32::from(inst.opcode().0),
            },
            inst.offset(),
            i,
        ));
    };
    let ids = &e.ids;
    let rename = |out: &mut Vec<u32>, at: usize| {
        if let Some(&to) = ids.get(&out[1 + at]) {
            out[1 + at] = to;
        }
    };
    if walk::shaped_ids(info, inst.operands(), &mut |_, at| rename(out, at)) {
        return Ok(());
    }
    let mut unknown = None;
    let walked = walk::walk(
        info,
        inst.operands(),
        e.module.ids(),
        WalkOptions::default(),
        &mut |p| {
            if p.unknown && unknown.is_none() {
                unknown = Some(p.start);
            }
            if p.kind.is_id() {
                if let Some(&to) = e.ids.get(&out[1 + p.start]) {
                    out[1 + p.start] = to;
                }
            }
        },
    );
    if let Err((kind, at)) = walked {
        return Err(DecodeError::new(kind, inst.offset() + 1 + at, i));
    }
    if let Some(at) = unknown {
        return Err(DecodeError::new(
            crate::DecodeErrorKind::UnknownExtInstLayout,
            inst.offset() + 1 + at,
            i,
        ));
    }
    Ok(())
}
