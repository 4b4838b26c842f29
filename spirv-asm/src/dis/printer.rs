//! The printer: one instruction per line, operands formatted by kind, with spirv-dis's
//! indentation, colours and trailing comments.

use super::cfg;
use super::{MAX_NESTED_LEVEL, State};
use crate::number;
use spirv_core::binary::{RawInstRef, RawInstructions};
use spirv_core::grammar::{Grammar, KindClass};
use spirv_core::spv;
use spirv_core::walk::{self, Parsed, WalkOptions};

/// Colours of spirv-dis's `--color`.
const BLUE: &[u8] = b"\x1b[34m";
const YELLOW: &[u8] = b"\x1b[33m";
const RED: &[u8] = b"\x1b[31m";
const GREEN: &[u8] = b"\x1b[32m";
const GREY: &[u8] = b"\x1b[1;30m";
const RESET: &[u8] = b"\x1b[0m";

pub(super) struct Printer<'w> {
    pub(super) words: &'w [u32],
    /// `--nested-indent`: levels of the current function's blocks, by label.
    pub(super) levels: crate::fxhash::FxHashMap<u32, u32>,
    /// Levels of the next function, when its blocks were scanned already.
    pub(super) scanned: Option<crate::fxhash::FxHashMap<u32, u32>>,
    /// Between an `OpFunction` and the next `OpFunctionEnd`.
    pub(super) in_function: bool,
    /// `--comment`: instructions before this offset had their section comments printed
    /// already (see [`Printer::body_comments`]).
    pub(super) comments_until: usize,
    pub(super) in_body: bool,
    pub(super) level: u32,
    pub(super) idbuf: Vec<u8>,
    /// `--comment`: decoration text per target id.
    pub(super) decorations: std::collections::HashMap<u32, Vec<u8>>,
    pub(super) inserted_decoration: bool,
    pub(super) inserted_debug: bool,
    pub(super) inserted_type: bool,
    pub(super) line: Vec<u8>,
    pub(super) scratch: String,
    /// Column of the trailing-comment block in progress, if the previous line had one.
    pub(super) comment_column: Option<usize>,
}

impl<'w> Printer<'w> {
    pub(super) fn new(words: &'w [u32]) -> Self {
        Printer {
            words,
            levels: Default::default(),
            scanned: None,
            in_function: false,
            comments_until: 0,
            in_body: false,
            level: 0,
            idbuf: Vec::with_capacity(64),
            decorations: Default::default(),
            inserted_decoration: false,
            inserted_debug: false,
            inserted_type: false,
            line: Vec::with_capacity(256),
            scratch: String::new(),
            comment_column: None,
        }
    }

    /// `--comment`: formats every `OpDecorate`'s operands after the target, joined by
    /// `, ` per target, for the comment on the target's defining line.
    pub(super) fn collect_decorations(&mut self, st: &mut State<'_>) {
        let words = self.words;
        // Pass 1 read every instruction; this stops where it stopped.
        let insts = RawInstructions::new(words.get(5..).unwrap_or(&[]), 5);
        for inst in insts.map_while(Result::ok) {
            if inst.opcode == spv::Opcode::Decorate.0 && inst.word_count() > 2 {
                let ops = inst.operands;
                if let Some(info) = spv::GRAMMAR.instruction(u32::from(spv::Opcode::Decorate.0)) {
                    st.parsed.clear();
                    let parsed = &mut st.parsed;
                    if walk::walk(info, ops, &st.ids, WalkOptions::default(), &mut |p| {
                        parsed.push(*p)
                    })
                    .is_ok()
                    {
                        self.line.clear();
                        let parsed = std::mem::take(&mut st.parsed);
                        for (i, p) in parsed.iter().enumerate().skip(1) {
                            if i > 1 {
                                self.line.push(b' ');
                            }
                            self.operand_plain(st, ops, p);
                        }
                        st.parsed = parsed;
                        let text = std::mem::take(&mut self.line);
                        let entry = self.decorations.entry(ops[0]).or_default();
                        if !entry.is_empty() {
                            entry.extend_from_slice(b", ");
                        }
                        entry.extend_from_slice(&text);
                    }
                }
            }
        }
    }

    /// Decoration comments are coloured like operands (spirv-dis formats them the same way).
    pub(super) fn operand_plain(&mut self, st: &State<'_>, ops: &[u32], p: &Parsed) {
        self.operand(st, ops, p, st.opts.color);
    }

    pub(super) fn emit_line(&mut self, out: &mut Vec<u8>, visible: usize, comment: Option<&[u8]>) {
        out.extend_from_slice(&self.line);
        match comment {
            Some(c) => {
                // The column carries over from the previous commented line, but at most 256.
                let col = (visible + 2)
                    .max(self.comment_column.unwrap_or(0).min(256))
                    .max(50)
                    .next_multiple_of(4);
                self.comment_column = Some(col);
                out.resize(out.len() + (col - visible), b' ');
                out.extend_from_slice(b"; ");
                out.extend_from_slice(c);
            }
            None => self.comment_column = None,
        }
        out.push(b'\n');
    }

    /// Prints an instruction that did not parse, as re-assemblable raw words.
    pub(super) fn raw(&mut self, out: &mut Vec<u8>, pos: usize) -> usize {
        let first = self.words[pos];
        let count = (first >> 16) as usize;
        self.line.clear();
        self.line.extend_from_slice(b"               ");
        if count == 0 || pos + count > self.words.len() {
            // Not an instruction: emit the remaining words one by one.
            let end = if count == 0 {
                pos + 1
            } else {
                self.words.len()
            };
            for (i, w) in self.words[pos..end].iter().enumerate() {
                if i > 0 {
                    self.line.push(b' ');
                }
                self.line
                    .extend_from_slice(format!("!0x{w:08x}").as_bytes());
            }
            let v = self.line.len();
            self.emit_line(out, v, None);
            return end;
        }
        self.line
            .extend_from_slice(format!("OpUnknown({}, {count})", first & 0xffff).as_bytes());
        for w in &self.words[pos + 1..pos + count] {
            self.line
                .extend_from_slice(format!(" 0x{w:08x}").as_bytes());
        }
        let v = self.line.len();
        self.emit_line(out, v, None);
        pos + count
    }

    /// Prints an instruction that pass 1 read.
    pub(super) fn instruction(
        &mut self,
        st: &mut State<'_>,
        out: &mut Vec<u8>,
        inst: RawInstRef<'_>,
    ) {
        self.instruction_with(st, out, inst, false);
    }

    /// Prints the instruction `inst`; with `parsed_already`, `st.parsed` already holds
    /// its operands (the single-pass mode walked them while validating).
    pub(super) fn instruction_with(
        &mut self,
        st: &mut State<'_>,
        out: &mut Vec<u8>,
        inst: RawInstRef<'_>,
        parsed_already: bool,
    ) {
        let (pos, count) = (inst.offset, inst.word_count());
        let opcode = inst.opcode;
        let ops = inst.operands;
        let Some(info) = spv::GRAMMAR.instruction(u32::from(opcode)) else {
            self.raw(out, pos);
            return;
        };
        if !parsed_already {
            st.parsed.clear();
            let parsed = &mut st.parsed;
            // Laid out as pass 1 read it (strictly: a literal of a 0-bit type has no
            // words, as in SPIRV-Tools' parser), or the two would disagree.
            let strict = WalkOptions {
                strict: true,
                ..WalkOptions::default()
            };
            if walk::walk(info, ops, &st.ids, strict, &mut |p| parsed.push(*p)).is_err() {
                self.raw(out, pos);
                return;
            }
        }
        let opts = st.opts;
        let color = opts.color;
        let op = spv::Opcode(opcode);
        // A function runs from an `OpFunction` to the next `OpFunctionEnd`; an
        // `OpFunction` inside one is an ordinary instruction there, as in spirv-dis. So
        // each function's blocks are scanned once.
        let starts_function = op == spv::Opcode::Function && !self.in_function;
        if starts_function {
            self.in_function = true;
        } else if op == spv::Opcode::FunctionEnd {
            self.in_function = false;
        }
        if opts.comment && pos >= self.comments_until {
            self.section_comment(st, out, opcode, info, ops);
        }
        // `--nested-indent`: extra spaces by the block's structured nesting level.
        let mut extra = 0usize;
        if opts.nested_indent {
            if starts_function {
                self.levels = match self.scanned.take() {
                    Some(levels) => levels,
                    None => cfg::levels(&cfg::scan(self.words, pos, &st.ids)),
                };
                self.in_body = false;
            } else if op == spv::Opcode::FunctionEnd {
                self.in_body = false;
            } else if op == spv::Opcode::Label {
                self.in_body = true;
                self.level = ops
                    .first()
                    .and_then(|l| self.levels.get(l))
                    .copied()
                    .unwrap_or(0)
                    .min(MAX_NESTED_LEVEL);
                out.push(b'\n');
                extra = 2 * self.level as usize;
            } else if self.in_body {
                extra = 2 * self.level as usize + 2;
            }
        }
        self.line.clear();
        let mut invisible = 0usize;
        let result = st
            .parsed
            .iter()
            .find(|p| p.kind.class == KindClass::Result)
            .map(|p| ops[p.start]);
        match result {
            Some(id) => {
                if color {
                    self.line.extend_from_slice(BLUE);
                    invisible += BLUE.len();
                }
                // Right-align `%name` in 12 columns: measure it first, then pad.
                let mut idbuf = std::mem::take(&mut self.idbuf);
                idbuf.clear();
                idbuf.push(b'%');
                match &st.names {
                    Some(n) => n.write(id, &mut idbuf),
                    None => crate::text::push_u32(&mut idbuf, id),
                }
                if opts.indent && idbuf.len() < 12 {
                    self.line.resize(self.line.len() + 12 - idbuf.len(), b' ');
                }
                self.line.extend_from_slice(&idbuf);
                self.idbuf = idbuf;
                if color {
                    self.line.extend_from_slice(RESET);
                    invisible += RESET.len();
                }
                self.line.extend_from_slice(b" = ");
            }
            None => {
                if opts.indent {
                    self.line.extend_from_slice(b"               ");
                }
            }
        }
        self.line.resize(self.line.len() + extra, b' ');
        self.line.extend_from_slice(info.opname.as_bytes());
        for p in &st.parsed {
            if p.kind.class == KindClass::Result {
                continue;
            }
            self.line.push(b' ');
            invisible += self.operand(st, ops, p, color);
        }
        let visible = self.line.len() - invisible;
        let mut comment: Option<Vec<u8>> = None;
        if opts.comment {
            if opcode == spv::Opcode::Name.0 {
                let mut c = b"id %".to_vec();
                crate::text::push_u32(&mut c, ops.first().copied().unwrap_or(0));
                comment = Some(c);
            } else if let Some(d) = result.and_then(|id| self.decorations.get(&id)) {
                comment = Some(d.clone());
            }
        }
        if opts.offsets {
            // The offset comes first, in grey; other comment parts follow.
            let mut text = Vec::with_capacity(32);
            if color {
                text.extend_from_slice(GREY);
            }
            text.extend_from_slice(format!("0x{:08x}", pos * 4).as_bytes());
            if color {
                text.extend_from_slice(RESET);
            }
            if let Some(c) = comment {
                text.extend_from_slice(b", ");
                text.extend_from_slice(&c);
            }
            comment = Some(text);
        }
        self.emit_line(out, visible, comment.as_deref());
        if starts_function && opts.comment && (opts.nested_indent || opts.reorder_blocks) {
            self.body_comments(st, out, pos + count);
        }
    }

    /// Appends one operand; returns how many invisible (colour) bytes it added.
    pub(super) fn operand(
        &mut self,
        st: &State<'_>,
        ops: &[u32],
        p: &Parsed,
        color: bool,
    ) -> usize {
        let words = &ops[p.start..p.start + p.len];
        // A literal of a 0-bit type has no words, and spirv-dis prints nothing for it.
        let Some(&w) = words.first() else {
            return 0;
        };
        let line = &mut self.line;
        let mut invisible = 0;
        let mut paint = |line: &mut Vec<u8>, c: &[u8]| {
            if color {
                line.extend_from_slice(c);
                invisible += c.len();
            }
        };
        match p.kind.class {
            KindClass::ResultType | KindClass::Id | KindClass::Result => {
                paint(line, YELLOW);
                line.push(b'%');
                match &st.names {
                    Some(n) => n.write(w, line),
                    None => crate::text::push_u32(line, w),
                }
            }
            KindClass::Integer | KindClass::ContextNumber | KindClass::Float => {
                paint(line, RED);
                self.scratch.clear();
                match (p.number, p.kind.class) {
                    (Some(t), _) => number::fmt_typed(&mut self.scratch, words, t),
                    (None, KindClass::Float) => number::fmt_typed(
                        &mut self.scratch,
                        words,
                        walk::NumberType::Float {
                            width: 32,
                            encoding: None,
                        },
                    ),
                    _ => {
                        crate::text::push_u32(line, w);
                    }
                }
                line.extend_from_slice(self.scratch.as_bytes());
                // spirv-dis resets after a number and again after every operand.
                paint(line, RESET);
            }
            KindClass::String => {
                line.push(b'"');
                paint(line, GREEN);
                if let Some((sw, len, _)) = spirv_core::codec::decode_string(words) {
                    let bytes = sw.iter().flat_map(|w| w.to_le_bytes()).take(len);
                    for b in bytes {
                        if b == b'"' || b == b'\\' {
                            line.push(b'\\');
                        }
                        line.push(b);
                    }
                }
                paint(line, RESET);
                line.push(b'"');
            }
            KindClass::ExtInstNumber => {
                paint(line, RED);
                match p.ext_set.and_then(|g: &'static Grammar| g.instruction(w)) {
                    Some(i) => line.extend_from_slice(i.opname.as_bytes()),
                    None => crate::text::push_u32(line, w),
                }
            }
            KindClass::SpecConstantOpcode => {
                paint(line, RED);
                match spv::GRAMMAR.instruction(w) {
                    Some(i) => line.extend_from_slice(i.opname.trim_start_matches("Op").as_bytes()),
                    None => crate::text::push_u32(line, w),
                }
            }
            KindClass::ValueEnum => match p.kind.enumerant(w) {
                Some(e) => line.extend_from_slice(e.name.as_bytes()),
                None => crate::text::push_u32(line, w),
            },
            KindClass::BitEnum => {
                if w == 0 {
                    if let Some(e) = p.kind.enumerant(0) {
                        line.extend_from_slice(e.name.as_bytes());
                    }
                } else {
                    let mut first = true;
                    for bit in spirv_core::grammar::set_bits(w) {
                        if !first {
                            line.push(b'|');
                        }
                        first = false;
                        match p.kind.enumerant(bit) {
                            Some(e) => line.extend_from_slice(e.name.as_bytes()),
                            None => line.extend_from_slice(format!("0x{bit:x}").as_bytes()),
                        }
                    }
                }
            }
            KindClass::Composite => {}
        }
        if color {
            line.extend_from_slice(RESET);
            invisible += RESET.len();
        }
        invisible
    }
}
