//! The disassembler: binary → SPIR-V assembly text, exactly as spirv-dis 2025.5 prints
//! it. Operand layouts come from the generated grammar tables through spirv-core's
//! operand walker; nothing here lists opcodes or operand kinds by hand.

use crate::cfg::Cfg;
use crate::names::Names;
pub use crate::names::{MAX_DERIVED_LEN, MAX_NAME_LEN};
use crate::number;
use spirv_core::grammar::{Grammar, InstructionInfo, KindClass};
use spirv_core::walk::{self, ExtInstRegistry, Ids, Parsed, WalkOptions};
use spirv_core::{DecodeErrorKind, spv};
use std::fmt;
use std::io::Write;

/// The deepest nesting level `--nested-indent` shows; deeper blocks are indented as at
/// this level. spirv-dis has no limit, so its text grows with the square of the nesting
/// depth (a 200 KB module of nested selections gives 160 MB); here each line has at most
/// 202 extra spaces. The deepest level in the corpus samples is 20.
pub const MAX_NESTED_LEVEL: u32 = 100;

/// Disassembler options; the defaults match plain `spirv-dis`.
#[derive(Debug, Clone)]
pub struct DisOptions {
    /// `--raw-id`: print `%N` instead of friendly names.
    pub raw_id: bool,
    /// The `; SPIR-V` header comment (`--no-header` turns it off).
    pub header: bool,
    /// Align result ids so opcodes start at column 16 (`--no-indent` turns it off).
    pub indent: bool,
    /// `--nested-indent`: indent by structured control-flow depth, up to
    /// [`MAX_NESTED_LEVEL`].
    pub nested_indent: bool,
    /// `--reorder-blocks`: print blocks in structured order.
    pub reorder_blocks: bool,
    /// `--comment`: section comments, OpName ids and decoration hints.
    pub comment: bool,
    /// `--offsets`: each instruction's byte offset.
    pub offsets: bool,
    /// `--color`: ANSI colours.
    pub color: bool,
    /// Print instructions that do not parse as `OpUnknown(…)`/`!<integer>` words and go
    /// on, instead of stopping at the first error. The text stays re-assemblable.
    pub keep_going: bool,
    /// Print names for every registered extended set (DebugPrintf, DebugBreak,
    /// user-registered sets), not only the 13 spirv-dis knows.
    pub all_ext_inst_names: bool,
    /// Extended sets to know; `None` = every vendored set.
    pub registry: Option<ExtInstRegistry>,
}

impl Default for DisOptions {
    fn default() -> Self {
        DisOptions {
            raw_id: false,
            header: true,
            indent: true,
            nested_indent: false,
            reorder_blocks: false,
            comment: false,
            offsets: false,
            color: false,
            keep_going: false,
            all_ext_inst_names: false,
            registry: None,
        }
    }
}

/// What went wrong in a disassembly, for programs to match on.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DisErrorKind {
    /// The binary is malformed: what the reader found.
    Decode(DecodeErrorKind),
    /// The header's version word is not one spirv-dis 2025.5 accepts (1.0 to 1.6, with
    /// its reserved bytes 0).
    UnsupportedVersion(u32),
    /// Writing the text failed.
    Write(std::io::ErrorKind),
}

/// A disassembly error: its kind, spirv-dis's message, the 1-based instruction index
/// (0 for the header) and the word offset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DisError {
    /// What went wrong.
    pub kind: DisErrorKind,
    /// spirv-dis's message.
    pub message: String,
    /// 1-based instruction index, 0 for header errors (spirv-dis's convention).
    pub instruction: usize,
    /// Word offset from the module start.
    pub offset: usize,
    /// spirv-dis's exit code: 252 invalid binary, 246 bad id, 255 bad header version.
    pub exit_code: u8,
}

impl fmt::Display for DisError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.instruction > 0 {
            write!(
                f,
                "{}: {} (at word {})",
                self.instruction, self.message, self.offset
            )
        } else {
            f.write_str(&self.message)
        }
    }
}

impl std::error::Error for DisError {}

/// Disassembles into a byte vector (text is bytes: strings are printed raw).
///
/// # Errors
/// The binary is malformed; see [`DisError`].
pub fn disassemble(words: &[u32], opts: &DisOptions) -> Result<Vec<u8>, DisError> {
    let mut out = Vec::with_capacity(words.len() * 12);
    disassemble_into(words, opts, &mut out)?;
    Ok(out)
}

/// Disassembles into any writer. On error, the text before the bad instruction has
/// been written, as spirv-dis does when printing.
///
/// # Errors
/// The binary is malformed, or writing failed.
pub fn disassemble_to(words: &[u32], opts: &DisOptions, w: &mut dyn Write) -> Result<(), DisError> {
    let mut out = Vec::with_capacity(1 << 17);
    let r = disassemble_streaming(words, opts, &mut out, Some(&mut *w));
    if !out.is_empty() {
        w.write_all(&out).map_err(|e| write_error(&e))?;
    }
    r
}

fn write_error(e: &std::io::Error) -> DisError {
    DisError {
        kind: DisErrorKind::Write(e.kind()),
        message: format!("write error: {e}"),
        instruction: 0,
        offset: 0,
        exit_code: 1,
    }
}

fn header_error(kind: DecodeErrorKind, message: String) -> DisError {
    DisError {
        kind: DisErrorKind::Decode(kind),
        message,
        instruction: 0,
        offset: 0,
        exit_code: 252,
    }
}

/// Colours of spirv-dis's `--color`.
const BLUE: &[u8] = b"\x1b[34m";
const YELLOW: &[u8] = b"\x1b[33m";
const RED: &[u8] = b"\x1b[31m";
const GREEN: &[u8] = b"\x1b[32m";
const GREY: &[u8] = b"\x1b[1;30m";
const RESET: &[u8] = b"\x1b[0m";

/// One instruction's outcome in the first pass.
#[derive(Clone, Copy)]
struct Bad {
    message_index: usize,
}

struct State<'a> {
    opts: &'a DisOptions,
    registry: ExtInstRegistry,
    ids: Ids,
    names: Option<Names>,
    parsed: Vec<Parsed>,
}

fn message_for(
    kind: &DecodeErrorKind,
    info: Option<&InstructionInfo>,
    offset: usize,
    operand_words: usize,
    word_count: usize,
) -> String {
    let opname = info.map_or("", |i| i.opname);
    match kind {
        DecodeErrorKind::ZeroWordCount => "Invalid instruction word count: 0".into(),
        DecodeErrorKind::UnknownOpcode { opcode } => format!("Invalid opcode: {opcode}"),
        DecodeErrorKind::InvalidSpecConstantOpcode { opcode } => {
            format!("Invalid OpSpecConstantOp opcode: {opcode}")
        }
        DecodeErrorKind::ExtraOperands { .. } => format!(
            "Invalid instruction {opname} starting at word {offset}: expected no more operands after {} words, but stated word count is {word_count}.",
            operand_words + 1
        ),
        DecodeErrorKind::MissingOperand { .. } => format!(
            "End of input reached while decoding {opname} starting at word {offset}: expected more operands after {word_count} words."
        ),
        DecodeErrorKind::UnterminatedString => format!(
            "End of input reached while decoding {opname} starting at word {offset}: truncated literal string operand at word offset {}.",
            operand_words + 1
        ),
        DecodeErrorKind::InstructionPastEnd {
            word_count,
            available,
        } => format!(
            "End of input reached while decoding {opname} starting at word {offset}: instruction word count {word_count} but only {available} words left."
        ),
        DecodeErrorKind::UnknownEnumerant { kind, value } => {
            format!("Invalid {} operand: {value}", crate::text::kind_words(kind))
        }
        DecodeErrorKind::IdRedefined { id } => format!("Id {id} is defined more than once"),
        DecodeErrorKind::NotANumericType { id } if info.is_some_and(|i| i.switch_literals) => {
            format!("Invalid OpSwitch: selector id {id} has no type")
        }
        DecodeErrorKind::NotANumericType { id } => {
            format!("Type Id {id} is not a scalar numeric type")
        }
        DecodeErrorKind::UnknownExtInstSetId { id } => {
            format!("OpExtInst set Id {id} does not reference an OpExtInstImport result Id")
        }
        other => other.to_string(),
    }
}

/// spirv-dis's description of an operand kind in "missing … operand" messages.
fn operand_description(kind: &str) -> String {
    // The core grammar's kinds by their class; others by name, spaced out.
    match spv::GRAMMAR.kind(kind).map(|k| k.class) {
        Some(KindClass::ResultType) => "type ID".into(),
        Some(KindClass::Result) => "result ID".into(),
        Some(KindClass::Id) => "ID".into(),
        Some(
            KindClass::Integer
            | KindClass::ContextNumber
            | KindClass::ExtInstNumber
            | KindClass::SpecConstantOpcode
            | KindClass::Float,
        ) => "literal number".into(),
        Some(KindClass::String) => "literal string".into(),
        _ => crate::text::kind_words(kind),
    }
}

fn disassemble_into(input: &[u32], opts: &DisOptions, out: &mut Vec<u8>) -> Result<(), DisError> {
    disassemble_streaming(input, opts, out, None)
}

/// Writes `out` to `sink` and empties it, so that output is streamed in chunks.
fn drain(out: &mut Vec<u8>, sink: &mut Option<&mut dyn Write>) -> Result<(), DisError> {
    if let Some(w) = sink {
        w.write_all(out).map_err(|e| write_error(&e))?;
        out.clear();
    }
    Ok(())
}

fn disassemble_streaming(
    input: &[u32],
    opts: &DisOptions,
    out: &mut Vec<u8>,
    mut sink: Option<&mut dyn Write>,
) -> Result<(), DisError> {
    let swapped: Vec<u32>;
    let words = if input.first() == Some(&spirv_core::binary::MAGIC.swap_bytes()) {
        swapped = input.iter().map(|w| w.swap_bytes()).collect();
        &swapped[..]
    } else {
        input
    };
    // The reader's header checks, with spirv-dis's messages.
    let header = match spirv_core::binary::parse_header(words) {
        Ok(h) => h,
        Err(e) => {
            let message = match &e.kind {
                DecodeErrorKind::TruncatedHeader { words: 0 } => "Missing module.".to_owned(),
                DecodeErrorKind::TruncatedHeader { words } => {
                    format!("Module has incomplete header: only {words} words instead of 5")
                }
                DecodeErrorKind::BadMagic { found } => {
                    format!("Invalid SPIR-V magic number '{found:x}'.")
                }
                other => other.to_string(),
            };
            return Err(header_error(e.kind, message));
        }
    };
    let version = header.version;
    let (major, minor) = ((version >> 16) & 0xff, (version >> 8) & 0xff);
    if version & 0xff00_00ff != 0 || major != 1 || minor > 6 {
        return Err(DisError {
            kind: DisErrorKind::UnsupportedVersion(version),
            message: "Internal error: unhandled header parse failure".into(),
            instruction: 0,
            offset: 0,
            exit_code: 255,
        });
    }
    let base = opts.registry.clone().unwrap_or_default();
    let mut st = State {
        opts,
        registry: crate::text::spirv_tools_registry(&base, opts.all_ext_inst_names),
        ids: Ids::new(words.len()),
        names: (!opts.raw_id).then(|| Names::new(words.len())),
        parsed: Vec::with_capacity(16),
    };
    if opts.header {
        let generator = header.generator;
        out.extend_from_slice(b"; SPIR-V\n; Version: ");
        crate::text::push_u32(out, major);
        out.push(b'.');
        crate::text::push_u32(out, minor);
        out.extend_from_slice(b"\n; Generator: ");
        out.extend_from_slice(crate::generator::generator_name(generator >> 16).as_bytes());
        out.extend_from_slice(b"; ");
        crate::text::push_u32(out, generator & 0xffff);
        out.extend_from_slice(b"\n; Bound: ");
        crate::text::push_u32(out, header.bound);
        out.extend_from_slice(b"\n; Schema: ");
        crate::text::push_u32(out, header.schema);
        out.push(b'\n');
    }
    // Without friendly names or whole-module comments, one pass validates and prints.
    let single = opts.raw_id && !opts.comment && !opts.reorder_blocks;
    let mut single_printer = Printer::new(words);
    // Pass 1: validate, record id facts and names.
    let mut bad: Vec<(usize, Bad)> = Vec::new();
    let mut messages: Vec<DisError> = Vec::new();
    let mut pos = 5;
    let mut index = 0;
    while pos < words.len() {
        index += 1;
        let first = words[pos];
        let count = (first >> 16) as usize;
        let opcode = first as u16;
        let info = spv::GRAMMAR.instruction(u32::from(opcode));
        let opname = info.map_or("", |i| i.opname);
        // An error with spirv-dis's message for its kind, or with the message given.
        let fail_with = |kind: DecodeErrorKind, message: String| DisError {
            exit_code: match kind {
                DecodeErrorKind::IdRedefined { .. }
                | DecodeErrorKind::UnknownExtInstSetId { .. } => 246,
                _ => 252,
            },
            kind: DisErrorKind::Decode(kind),
            message,
            instruction: index,
            offset: pos,
        };
        let fail = |kind: DecodeErrorKind, ops: usize| {
            let message = message_for(&kind, info, pos, ops, count);
            fail_with(kind, message)
        };
        let (err, advance) = if count == 0 {
            (Some(fail(DecodeErrorKind::ZeroWordCount, 0)), 1)
        } else if pos + count > words.len() {
            // spirv-dis parses the operands that are there first: it reports what the
            // layout finds wrong with them, or the end of the input.
            let available = &words[pos + 1..];
            let e = match info {
                Some(info) => match walk::walk(
                    info,
                    available,
                    &st.ids,
                    WalkOptions {
                        strict: true,
                        ..WalkOptions::default()
                    },
                    &mut |_| {},
                ) {
                    Err((DecodeErrorKind::MissingOperand { kind }, at)) => fail_with(
                        DecodeErrorKind::MissingOperand { kind },
                        format!(
                            "End of input reached while decoding {opname} starting at word {pos}: missing {} operand at word offset {}.",
                            operand_description(kind),
                            at + 1
                        ),
                    ),
                    Err((DecodeErrorKind::UnterminatedString, at)) => fail_with(
                        DecodeErrorKind::UnterminatedString,
                        format!(
                            "End of input reached while decoding {opname} starting at word {pos}: truncated literal string operand at word offset {}.",
                            at + 1
                        ),
                    ),
                    Err((kind, at)) => fail(kind, at),
                    // The operands there parse: spirv-dis then says they are all it expects.
                    Ok(_) => fail_with(
                        DecodeErrorKind::InstructionPastEnd {
                            word_count: first >> 16,
                            available: available.len() + 1,
                        },
                        message_for(
                            &DecodeErrorKind::ExtraOperands { count: 0 },
                            Some(info),
                            pos,
                            available.len(),
                            count,
                        ),
                    ),
                },
                None => fail(
                    DecodeErrorKind::UnknownOpcode {
                        opcode: u32::from(opcode),
                    },
                    0,
                ),
            };
            (Some(e), words.len() - pos)
        } else {
            let ops = &words[pos + 1..pos + count];
            (first_pass(&mut st, info, opcode, ops, &fail), count)
        };
        if single {
            match &err {
                None => {
                    single_printer.instruction_with(&mut st, out, pos, true);
                }
                Some(_) if opts.keep_going => {
                    single_printer.raw(out, pos);
                }
                Some(_) => {}
            }
            if out.len() >= 1 << 16 {
                drain(out, &mut sink)?;
            }
        }
        if let Some(e) = err {
            if !opts.keep_going {
                messages.push(e);
                bad.push((
                    pos,
                    Bad {
                        message_index: messages.len() - 1,
                    },
                ));
                break;
            }
            messages.push(e);
            bad.push((
                pos,
                Bad {
                    message_index: messages.len() - 1,
                },
            ));
        }
        pos += advance;
    }
    if single {
        drain(out, &mut sink)?;
        return match (opts.keep_going, messages.first()) {
            (false, Some(e)) => Err(e.clone()),
            _ => Ok(()),
        };
    }
    // Pass 2: print.
    let mut printer = Printer::new(words);
    if opts.comment {
        printer.collect_decorations(&mut st);
    }
    let mut pos = 5;
    let mut bad_iter = bad.iter().peekable();
    // `--reorder-blocks`: instructions before this offset belong to a function that was
    // scanned and is printed in binary order (it has a bad instruction or no end), so an
    // `OpFunction` among them starts no new scan.
    let mut plain_until = 0;
    while pos < words.len() {
        if let Some(&&(bpos, b)) = bad_iter.peek() {
            if bpos == pos {
                bad_iter.next();
                if !opts.keep_going {
                    drain(out, &mut sink)?;
                    return Err(messages[b.message_index].clone());
                }
                pos = printer.raw(out, pos);
                continue;
            }
        }
        if opts.reorder_blocks && pos >= plain_until && words[pos] as u16 == spv::Opcode::Function.0
        {
            // Print the function header, then its blocks in structured order. Functions
            // with an instruction that did not parse, or without an end, are printed as
            // they are.
            let cfg = Cfg::scan(words, pos, &st.ids);
            let last = cfg.end.unwrap_or_else(|stop| stop);
            let first_bad = bad.partition_point(|(b, _)| *b < pos);
            let clean = cfg.end.is_ok() && bad.get(first_bad).is_none_or(|(b, _)| *b > last);
            plain_until = last;
            if let (true, Ok(end), Some(first)) = (clean, cfg.end, cfg.first_block_start()) {
                let mut p = pos;
                if opts.nested_indent {
                    // The printer takes the levels from this scan instead of its own.
                    printer.scanned = Some(cfg.levels());
                }
                while p < first {
                    p = printer.instruction(&mut st, out, p);
                }
                for block in cfg.structured_order() {
                    let (s, e) = cfg.range(block);
                    let mut p = s;
                    while p < e {
                        p = printer.instruction(&mut st, out, p);
                    }
                    if out.len() >= 1 << 16 {
                        drain(out, &mut sink)?;
                    }
                }
                pos = printer.instruction(&mut st, out, end);
                continue;
            }
        }
        pos = printer.instruction(&mut st, out, pos);
        if out.len() >= 1 << 16 {
            drain(out, &mut sink)?;
        }
    }
    drain(out, &mut sink)
}

fn first_pass(
    st: &mut State<'_>,
    info: Option<&'static spirv_core::grammar::InstructionInfo>,
    opcode: u16,
    ops: &[u32],
    fail: &dyn Fn(DecodeErrorKind, usize) -> DisError,
) -> Option<DisError> {
    let Some(info) = info else {
        return Some(fail(
            DecodeErrorKind::UnknownOpcode {
                opcode: u32::from(opcode),
            },
            0,
        ));
    };
    st.parsed.clear();
    let parsed = &mut st.parsed;
    let summary = match walk::walk(
        info,
        ops,
        &st.ids,
        WalkOptions {
            strict: true,
            ..WalkOptions::default()
        },
        &mut |p| parsed.push(*p),
    ) {
        Ok(s) => s,
        Err((kind, at)) => return Some(fail(kind, at)),
    };
    if let Err(kind) = walk::observe(&mut st.ids, &st.registry, opcode, ops, &summary) {
        return Some(fail(kind, 0));
    }
    if walk::unknown_import(&st.ids, opcode) {
        let name = spirv_core::codec::string_operand(ops.get(1..).unwrap_or(&[]));
        let message = format!(
            "Invalid extended instruction import '{}'",
            String::from_utf8_lossy(&name)
        );
        return Some(DisError {
            message,
            ..fail(DecodeErrorKind::UnknownExtInstImport, 0)
        });
    }
    if let Some(names) = &mut st.names {
        let parsed = &st.parsed;
        names.observe(spv::Opcode(opcode), ops, summary.result_id, |s| {
            if let Some(p) = parsed
                .iter()
                .find(|p| p.kind.class == KindClass::ContextNumber)
            {
                if let Some(t) = p.number {
                    number::fmt_typed(s, &ops[p.start..p.start + p.len], t);
                }
            }
        });
    }
    None
}

struct Printer<'w> {
    words: &'w [u32],
    /// `--nested-indent`: levels of the current function's blocks, by label.
    levels: crate::fxhash::FxHashMap<u32, u32>,
    /// Levels of the next function, when its blocks were scanned already.
    scanned: Option<crate::fxhash::FxHashMap<u32, u32>>,
    /// Between an `OpFunction` and the next `OpFunctionEnd`.
    in_function: bool,
    /// `--comment`: instructions before this offset had their section comments printed
    /// already (see [`Printer::body_comments`]).
    comments_until: usize,
    in_body: bool,
    level: u32,
    idbuf: Vec<u8>,
    /// `--comment`: decoration text per target id.
    decorations: std::collections::HashMap<u32, Vec<u8>>,
    inserted_decoration: bool,
    inserted_debug: bool,
    inserted_type: bool,
    line: Vec<u8>,
    scratch: String,
    /// Column of the trailing-comment block in progress, if the previous line had one.
    comment_column: Option<usize>,
}

impl<'w> Printer<'w> {
    fn new(words: &'w [u32]) -> Self {
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
    fn collect_decorations(&mut self, st: &mut State<'_>) {
        let mut pos = 5;
        let words = self.words;
        while pos < words.len() {
            let first = words[pos];
            let count = (first >> 16) as usize;
            if count == 0 || pos + count > words.len() {
                break;
            }
            if first as u16 == spv::Opcode::Decorate.0 && count > 2 {
                let ops = &words[pos + 1..pos + count];
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
            pos += count;
        }
    }

    /// Decoration comments are coloured like operands (spirv-dis formats them the same way).
    fn operand_plain(&mut self, st: &State<'_>, ops: &[u32], p: &Parsed) {
        self.operand(st, ops, p, st.opts.color);
    }

    /// `--comment`: blank line and a heading before (headings leave the trailing-comment
    /// column as it was) the first instruction of a group.
    fn section_comment(
        &mut self,
        st: &State<'_>,
        out: &mut Vec<u8>,
        opcode: u16,
        info: &spirv_core::grammar::InstructionInfo,
        ops: &[u32],
    ) {
        use spv::Opcode as O;
        let indent: &[u8] = if st.opts.indent {
            b"               "
        } else {
            b""
        };
        let op = spv::Opcode(opcode);
        let heading = |out: &mut Vec<u8>, text: &[u8]| {
            out.push(b'\n');
            out.extend_from_slice(indent);
            out.extend_from_slice(text);
            out.push(b'\n');
        };
        if op == O::Function {
            if st.opts.nested_indent {
                out.push(b'\n');
            }
            let mut t = b"; Function ".to_vec();
            let id = ops.get(1).copied().unwrap_or(0);
            match &st.names {
                Some(n) => n.write(id, &mut t),
                None => crate::text::push_u32(&mut t, id),
            }
            heading(out, &t);
        }
        // The grammar's classes: decorations are its Annotation class except the
        // group declaration itself; debug instructions are its Debug class.
        let class = spv::Class::of(info);
        let is_decoration = class == Some(spv::Class::Annotation) && op != O::DecorationGroup;
        if !self.inserted_decoration && is_decoration {
            self.inserted_decoration = true;
            heading(out, b"; Annotations");
        }
        let is_debug = class == Some(spv::Class::Debug);
        if !self.inserted_debug && is_debug {
            self.inserted_debug = true;
            heading(out, b"; Debug Information");
        }
        let generates_type =
            class == Some(spv::Class::TypeDeclaration) && op != O::TypeForwardPointer;
        if !self.inserted_type && generates_type {
            self.inserted_type = true;
            heading(out, b"; Types, variables and constants");
        }
    }

    fn emit_line(&mut self, out: &mut Vec<u8>, visible: usize, comment: Option<&[u8]>) {
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
    fn raw(&mut self, out: &mut Vec<u8>, pos: usize) -> usize {
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

    fn instruction(&mut self, st: &mut State<'_>, out: &mut Vec<u8>, pos: usize) -> usize {
        self.instruction_with(st, out, pos, false)
    }

    /// Prints the instruction at `pos`; with `parsed`, `st.parsed` already holds its
    /// operands (the single-pass mode walked them while validating).
    fn instruction_with(
        &mut self,
        st: &mut State<'_>,
        out: &mut Vec<u8>,
        pos: usize,
        parsed_already: bool,
    ) -> usize {
        let first = self.words[pos];
        let count = (first >> 16) as usize;
        let opcode = first as u16;
        let ops = &self.words[pos + 1..pos + count];
        let Some(info) = spv::GRAMMAR.instruction(u32::from(opcode)) else {
            return self.raw(out, pos);
        };
        if !parsed_already {
            st.parsed.clear();
            let parsed = &mut st.parsed;
            if walk::walk(info, ops, &st.ids, WalkOptions::default(), &mut |p| {
                parsed.push(*p)
            })
            .is_err()
            {
                return self.raw(out, pos);
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
                    None => Cfg::scan(self.words, pos, &st.ids).levels(),
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
        pos + count
    }

    /// `--comment` with `--nested-indent` or `--reorder-blocks`: spirv-dis holds a
    /// function's body back until its `OpFunctionEnd` but prints section comments as it
    /// reads, so the headings the body gets (an inner `OpFunction`'s, say) come right
    /// after the `OpFunction` line, and the body prints none.
    fn body_comments(&mut self, st: &State<'_>, out: &mut Vec<u8>, from: usize) {
        let words = self.words;
        let mut pos = from;
        while pos < words.len() {
            let first = words[pos];
            let count = (first >> 16) as usize;
            let opcode = first as u16;
            if count == 0 || pos + count > words.len() || opcode == spv::Opcode::FunctionEnd.0 {
                break;
            }
            if let Some(info) = spv::GRAMMAR.instruction(u32::from(opcode)) {
                self.section_comment(st, out, opcode, info, &words[pos + 1..pos + count]);
            }
            pos += count;
        }
        self.comments_until = pos;
    }

    /// Appends one operand; returns how many invisible (colour) bytes it added.
    fn operand(&mut self, st: &State<'_>, ops: &[u32], p: &Parsed, color: bool) -> usize {
        let words = &ops[p.start..p.start + p.len];
        let w = words[0];
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
