//! The two passes: a first pass that checks every instruction and collects what later
//! lines need (names, ids, types), and the printing pass that streams text out.

use super::cfg;
use super::messages::{message_for, operand_description};
use super::printer::Printer;
use super::{DisError, DisErrorKind, DisOptions, State, drain, header_error};
use crate::names::Names;
use crate::number;
use spirv_core::ExtInstRegistry;
use spirv_core::binary::{RawInstRef, RawInstructions};
use spirv_core::grammar::KindClass;
use spirv_core::walk::{self, Ids, WalkOptions};
use spirv_core::{DecodeErrorKind, spv};
use std::io::Write;

/// One instruction's outcome in the first pass.
#[derive(Clone, Copy)]
struct Bad {
    message_index: usize,
}

pub(super) fn disassemble_streaming(
    input: &[u32],
    opts: &DisOptions,
    out: &mut Vec<u8>,
    mut sink: Option<&mut dyn Write>,
    checked: Option<&mut Option<(Names, Ids)>>,
) -> Result<(), DisError> {
    let swapped: Vec<u32>;
    let words = if input.first() == Some(&spirv_core::binary::MAGIC.swap_bytes()) {
        let mut copy = input.to_vec();
        spirv_core::binary::swap_words(&mut copy);
        swapped = copy;
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
            instruction: None,
            offset: 0,
        });
    }
    let base = opts.registry.clone().unwrap_or_default();
    let mut st = State {
        opts,
        registry: crate::text::spirv_tools_registry(&base, opts.all_ext_inst_names),
        ids: Ids::new(words.len()),
        names: (!opts.raw_id).then(|| {
            let mut names = Names::new(words.len());
            names.reserve(global_instructions(words));
            names
        }),
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
    // Pass 1: validate, record id facts and names. It splits the words itself rather
    // than with `RawInstructions`: for an instruction that runs past the end, spirv-dis
    // reports what is wrong with the operands that are there before the end of input,
    // and with `--keep-going` the stream goes on after a word count of 0, where the
    // iterator stops.
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
            kind: DisErrorKind::Decode(kind),
            message,
            instruction: Some(index - 1),
            offset: pos,
        };
        let fail = |kind: DecodeErrorKind, ops: usize| {
            let message = message_for(&kind, info, words, pos, ops, count);
            fail_with(kind, message)
        };
        let (err, advance) = if count == 0 {
            (Some(fail(DecodeErrorKind::ZeroWordCount, 0)), 1)
        } else if pos + count > words.len() {
            // spirv-dis parses the operands that are there first: it reports what the
            // layout finds wrong with them, or the end of the input.
            let available = &words[pos + 1..];
            let strict = WalkOptions {
                strict: true,
                ..WalkOptions::default()
            };
            let e = match info {
                Some(info) => {
                    st.parsed.clear();
                    let parsed = &mut st.parsed;
                    let walked =
                        walk::walk(info, available, &st.ids, strict, &mut |p| parsed.push(*p));
                    let limit = walked.as_ref().err().map_or(usize::MAX, |e| e.1);
                    let id_error = st
                        .parsed
                        .iter()
                        .take_while(|p| p.start <= limit)
                        .find_map(|p| id_fault(p, available, &st.ids, &fail));
                    let end_of_input = |what: &str, at: usize| {
                        format!(
                            "End of input reached while decoding {opname} starting at word {pos}: {what} operand at word offset {}.",
                            at + 1
                        )
                    };
                    match (id_error, walked) {
                        (Some(e), _) => e,
                        (None, Err((DecodeErrorKind::MissingOperand { kind }, at))) => {
                            // Words of a multi-word literal are there but not all.
                            let what = if at < available.len() {
                                format!("truncated {}", super::messages::literal_description(info))
                            } else {
                                format!("missing {}", operand_description(kind))
                            };
                            fail_with(
                                DecodeErrorKind::MissingOperand { kind },
                                end_of_input(&what, at),
                            )
                        }
                        (None, Err((DecodeErrorKind::UnterminatedString, at))) => fail_with(
                            DecodeErrorKind::UnterminatedString,
                            end_of_input("truncated literal string", at),
                        ),
                        (None, Err((kind, at))) => fail(kind, at),
                        // The operands there parse and the word count says more follow:
                        // the input ended where the parser expected the next operand, if
                        // the layout has one.
                        (None, Ok(_)) => match next_operand(info, available, &st.ids) {
                            Some(kind) => fail_with(
                                DecodeErrorKind::MissingOperand { kind },
                                end_of_input(
                                    &format!("missing {}", next_description(info, kind)),
                                    available.len(),
                                ),
                            ),
                            None => fail_with(
                                DecodeErrorKind::InstructionPastEnd {
                                    word_count: first >> 16,
                                    available: available.len() + 1,
                                },
                                message_for(
                                    &DecodeErrorKind::ExtraOperands { count: 0 },
                                    Some(info),
                                    words,
                                    pos,
                                    available.len(),
                                    count,
                                ),
                            ),
                        },
                    }
                }
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
            let beyond = &words[pos + count..];
            (first_pass(&mut st, info, opcode, ops, beyond, &fail), count)
        };
        if single {
            match &err {
                None => {
                    let inst = RawInstRef {
                        opcode,
                        operands: &words[pos + 1..pos + count],
                        offset: pos,
                        index: index - 1,
                    };
                    single_printer.instruction_with(&mut st, out, inst, true);
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
    // Only the check and the names were asked for (`spirv-asm cfg`).
    if let Some(slot) = checked {
        if let Some(e) = messages.first() {
            return Err(e.clone());
        }
        *slot = Some((st.names.take().unwrap_or_default(), st.ids));
        return Ok(());
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
    let mut bad_iter = bad.iter().peekable();
    // `--reorder-blocks`: instructions before this offset belong to a function that was
    // scanned and is printed in binary order (it has a bad instruction or no end), so an
    // `OpFunction` among them starts no new scan.
    let mut plain_until = 0;
    // Pass 1 split every instruction: the raw iterator walks them, started again after
    // one that did not parse (`--keep-going`) and after a function printed in
    // structured order.
    let mut pos = 5;
    while pos < words.len() {
        let mut resume = words.len();
        for next in RawInstructions::new(&words[pos..], pos) {
            let at = match &next {
                Ok(inst) => inst.offset,
                Err(e) => e.offset,
            };
            if let Some(&&(bpos, b)) = bad_iter.peek() {
                if bpos == at {
                    bad_iter.next();
                    if !opts.keep_going {
                        drain(out, &mut sink)?;
                        return Err(messages[b.message_index].clone());
                    }
                    let after = printer.raw(out, at);
                    if next.is_err() {
                        // Not split by its word count: go on where pass 1 went on.
                        resume = after;
                        break;
                    }
                    continue;
                }
            }
            // Pass 1 reported every instruction the iterator cannot split.
            let Ok(inst) = next else { break };
            if opts.reorder_blocks && at >= plain_until && inst.opcode == spv::Opcode::Function.0 {
                let (printed, scanned) =
                    reordered(&mut st, &mut printer, out, &mut sink, &bad, at)?;
                plain_until = scanned;
                if let Some(end) = printed {
                    resume = end;
                    break;
                }
            }
            printer.instruction(&mut st, out, inst);
            if out.len() >= 1 << 16 {
                drain(out, &mut sink)?;
            }
        }
        pos = resume;
    }
    drain(out, &mut sink)
}

/// `--reorder-blocks`: prints the function whose `OpFunction` is at word `pos` with its
/// blocks in structured order, unless it has an instruction that did not parse or no
/// end (then the caller prints it as it is). Returns where printing goes on (past its
/// `OpFunctionEnd`, if it was printed) and where the scan stopped.
fn reordered(
    st: &mut State<'_>,
    printer: &mut Printer<'_>,
    out: &mut Vec<u8>,
    sink: &mut Option<&mut dyn Write>,
    bad: &[(usize, Bad)],
    pos: usize,
) -> Result<(Option<usize>, usize), DisError> {
    let words = printer.words;
    let cfg = cfg::scan(words, pos, &st.ids);
    let last = cfg.end().unwrap_or_else(|stop| stop);
    let first_bad = bad.partition_point(|(b, _)| *b < pos);
    let clean = cfg.end().is_ok() && bad.get(first_bad).is_none_or(|(b, _)| *b > last);
    let (true, Ok(end), Some(first)) = (clean, cfg.end(), cfg.first_block_offset()) else {
        return Ok((None, last));
    };
    if st.opts.nested_indent {
        // The printer takes the levels from this scan instead of its own.
        printer.scanned = Some(cfg::levels(&cfg));
    }
    // The function's words were all read by pass 1. The text goes out as it grows, as
    // on the plain path: a block of a million instructions is not held whole.
    let mut print = |out: &mut Vec<u8>, r: std::ops::Range<usize>| {
        let insts = RawInstructions::new(words.get(r.clone()).unwrap_or(&[]), r.start);
        for inst in insts.map_while(Result::ok) {
            printer.instruction(st, out, inst);
            if out.len() >= 1 << 16 {
                drain(out, sink)?;
            }
        }
        Ok::<(), DisError>(())
    };
    print(out, pos..first)?;
    for block in cfg.structured_order() {
        print(out, cfg.words(block))?;
    }
    let end_len = (words[end] >> 16) as usize;
    print(out, end..end + end_len)?;
    Ok((Some(end + end_len), last))
}

/// The instructions before the first function: at least as many as the names a
/// module can have (they come from `OpName`s, decorations, types and constants).
fn global_instructions(words: &[u32]) -> usize {
    let (mut pos, mut count) = (5, 0);
    while let Some(&first) = words.get(pos) {
        let len = (first >> 16) as usize;
        if len == 0 || first & 0xffff == u32::from(spv::Opcode::Function.0) {
            break;
        }
        count += 1;
        pos += len;
    }
    count
}

/// The first pass over one instruction whose operands are `ops`: checks them as
/// SPIRV-Tools' parser does and records what later lines need. `beyond` is the rest of
/// the module after the instruction: the parser reads a string or a multi-word literal
/// across the instruction's end, and words its error by where it ends.
pub(super) fn first_pass(
    st: &mut State<'_>,
    info: Option<&'static spirv_core::grammar::InstructionInfo>,
    opcode: u16,
    ops: &[u32],
    beyond: &[u32],
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
    let walked = walk::walk(
        info,
        ops,
        &st.ids,
        WalkOptions {
            strict: true,
            ..WalkOptions::default()
        },
        &mut |p| parsed.push(*p),
    );
    // The parser checks each id as it reads it: a zero id, or a result id defined
    // before, is reported ahead of any fault further on.
    let limit = walked.as_ref().err().map_or(usize::MAX, |e| e.1);
    for p in st.parsed.iter().take_while(|p| p.start <= limit) {
        if let Some(e) = id_fault(p, ops, &st.ids, fail) {
            return Some(e);
        }
    }
    let summary = match walked {
        Ok(s) => s,
        Err((kind, at)) => return Some(across(info, ops, beyond, &st.ids, kind, at, fail)),
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

/// The kind of the operand a layout expects after `ops`, if it expects any (the
/// parser's next expected operand when an instruction's word count runs past the end
/// of the input): found by walking one more word.
fn next_operand(
    info: &'static spirv_core::grammar::InstructionInfo,
    ops: &[u32],
    ids: &Ids,
) -> Option<&'static str> {
    let mut more = ops.to_vec();
    more.push(0);
    let mut kind = None;
    let at = ops.len();
    let r = walk::walk(info, &more, ids, WalkOptions::default(), &mut |p| {
        if p.start == at && kind.is_none() {
            kind = Some(p.kind.name);
        }
    });
    match r {
        Err((DecodeErrorKind::ExtraOperands { .. }, _)) => None,
        Err((
            DecodeErrorKind::MissingOperand { kind: k }
            | DecodeErrorKind::UnknownEnumerant { kind: k, .. },
            p,
        )) if p == at => Some(k),
        _ => kind,
    }
}

/// [`operand_description`] for the operand `kind` expected next in `info`'s layout:
/// an `OpSwitch` case literal is the parser's optional typed literal.
fn next_description(info: &'static spirv_core::grammar::InstructionInfo, kind: &str) -> String {
    if info.switch_literals
        && spv::GRAMMAR
            .kind(kind)
            .is_some_and(|k| k.class == KindClass::Integer)
    {
        "possibly multi-word literal integer".into()
    } else {
        operand_description(kind)
    }
}

/// The parser's fault for one id operand, if any: `Error: Type Id is 0`, `Error:
/// Result Id is 0`, a result id defined before, `Id is 0`, or a zero scope or memory
/// semantics id.
fn id_fault(
    p: &walk::Parsed,
    ops: &[u32],
    ids: &Ids,
    fail: &dyn Fn(DecodeErrorKind, usize) -> DisError,
) -> Option<DisError> {
    let word = ops.get(p.start).copied()?;
    let zero = |message: &str, kind| {
        Some(DisError {
            message: message.to_owned(),
            ..fail(kind, p.start)
        })
    };
    match p.kind.class {
        KindClass::ResultType if word == 0 => zero("Error: Type Id is 0", DecodeErrorKind::ZeroId),
        KindClass::Result if word == 0 => zero("Error: Result Id is 0", DecodeErrorKind::ZeroId),
        KindClass::Result if ids.get(spirv_core::Id(word)) != walk::IdInfo::Undefined => {
            Some(fail(DecodeErrorKind::IdRedefined { id: word }, p.start))
        }
        KindClass::Id if word == 0 => match p.kind.name {
            // Not an id fault to the parser: a value no scope or semantics can have.
            "IdScope" | "IdMemorySemantics" => zero(
                &format!("{} is 0", super::messages::operand_description(p.kind.name)),
                DecodeErrorKind::UnknownEnumerant {
                    kind: p.kind.name,
                    value: 0,
                },
            ),
            _ => zero("Id is 0", DecodeErrorKind::ZeroId),
        },
        _ => None,
    }
}

/// A walk's fault `kind` at operand word `at`, worded as the parser words it: a string
/// or a multi-word literal that does not end inside the instruction is read on into
/// the words `beyond` it, and the fault is then the instruction's word count (or the
/// end of the input).
fn across(
    info: &'static spirv_core::grammar::InstructionInfo,
    ops: &[u32],
    beyond: &[u32],
    ids: &Ids,
    kind: DecodeErrorKind,
    at: usize,
    fail: &dyn Fn(DecodeErrorKind, usize) -> DisError,
) -> DisError {
    let end = match kind {
        DecodeErrorKind::UnterminatedString => beyond
            .iter()
            .position(|w| w.to_le_bytes().contains(&0))
            .map(|j| ops.len() + j + 1),
        DecodeErrorKind::MissingOperand { .. } if at < ops.len() => {
            let n = super::messages::literal_words(info, ops, ids);
            match n.map(|n| at + n) {
                Some(end) if end <= ops.len() + beyond.len() => Some(end),
                Some(_) => {
                    let e = fail(kind, at);
                    return DisError {
                        message: format!(
                            "End of input reached while decoding {} starting at word {}: truncated {} operand at word offset {}.",
                            info.opname,
                            e.offset,
                            super::messages::literal_description(info),
                            at + 1
                        ),
                        ..e
                    };
                }
                None => None,
            }
        }
        _ => None,
    };
    let e = fail(kind, at);
    let Some(end) = end else {
        return e;
    };
    // The instruction as the parser read it: do required operands follow?
    let mut read = ops.to_vec();
    read.extend_from_slice(&beyond[..end - ops.len()]);
    let more = matches!(
        walk::walk(info, &read, ids, WalkOptions { strict: true, ..WalkOptions::default() }, &mut |_| {}),
        Err((DecodeErrorKind::MissingOperand { .. }, k)) if k >= read.len()
    );
    let count = ops.len() + 1;
    let message = if more {
        format!(
            "End of input reached while decoding {} starting at word {}: expected more operands after {count} words.",
            info.opname, e.offset
        )
    } else {
        format!(
            "Invalid word count: {} starting at word {} says it has {count} words, but found {} words instead.",
            info.opname,
            e.offset,
            end + 1
        )
    };
    DisError { message, ..e }
}

/// Checks a module as spirv-dis parses it (the same errors) and returns its friendly
/// names and id facts, without printing: what `spirv-cfg` needs. A module in the other
/// byte order is read swapped.
pub(crate) fn check_and_name(words: &[u32]) -> Result<(Names, Ids), DisError> {
    let opts = DisOptions {
        header: false,
        ..DisOptions::default()
    };
    let mut slot = None;
    disassemble_streaming(words, &opts, &mut Vec::new(), None, Some(&mut slot))?;
    Ok(slot.unwrap_or_default())
}

/// The text of each instruction at `wanted` (0-based indices), one line each without
/// indentation, with friendly names made over the whole module, and those names: what
/// spirv-val prints under its messages and in them. `None` if the module does not
/// parse (the validator has found that first).
///
/// With `names_unused` (the caller prints no name but those in the texts), the module
/// is first read only up to the last wanted instruction: texts that name no id (no
/// `%`) are then what the whole module would give, and the rest is not read (a fault
/// on the third of sixteen million instructions costs three). Otherwise, or when a
/// text names an id, the whole module is read, for its names.
pub(crate) fn instruction_texts(
    words: &[u32],
    wanted: &[usize],
    registry: Option<&ExtInstRegistry>,
    names_unused: bool,
) -> Option<(Names, Vec<Vec<u8>>)> {
    let opts = DisOptions {
        header: false,
        indent: false,
        registry: registry.cloned(),
        ..DisOptions::default()
    };
    let base = opts.registry.clone().unwrap_or_default();
    let mut st = State {
        opts: &opts,
        registry: crate::text::spirv_tools_registry(&base, false),
        ids: Ids::new(words.len()),
        names: Some(Names::new(words.len())),
        parsed: Vec::with_capacity(16),
    };
    let (_, insts) = RawInstructions::module(words).ok()?;
    let fail = |kind: DecodeErrorKind, _| DisError {
        kind: DisErrorKind::Decode(kind),
        message: String::new(),
        instruction: None,
        offset: 0,
    };
    let prefix = match wanted.iter().max() {
        Some(&last) if names_unused => last + 1,
        _ => usize::MAX,
    };
    let mut read = 0;
    for inst in insts.clone().take(prefix) {
        let inst = inst.ok()?;
        let info = spv::GRAMMAR.instruction(u32::from(inst.opcode));
        if first_pass(&mut st, info, inst.opcode, inst.operands, &[], &fail).is_some() {
            return None;
        }
        read += 1;
    }
    if read == prefix {
        let texts = print_wanted(&mut st, words, insts.clone(), wanted);
        if texts.iter().all(|t| !t.contains(&b'%')) {
            return Some((st.names?, texts));
        }
        for inst in insts.clone().skip(prefix) {
            let inst = inst.ok()?;
            let info = spv::GRAMMAR.instruction(u32::from(inst.opcode));
            if first_pass(&mut st, info, inst.opcode, inst.operands, &[], &fail).is_some() {
                return None;
            }
        }
    }
    let texts = print_wanted(&mut st, words, insts, wanted);
    Some((st.names?, texts))
}

/// The text of each instruction at `wanted`, printed with what `st` has read.
fn print_wanted(
    st: &mut State<'_>,
    words: &[u32],
    insts: RawInstructions<'_>,
    wanted: &[usize],
) -> Vec<Vec<u8>> {
    // Each wanted index with where its text goes, in index order.
    let mut order: Vec<(usize, usize)> = wanted.iter().copied().zip(0..).collect();
    order.sort_unstable();
    let mut next = order.iter().peekable();
    let mut printer = Printer::new(words);
    let mut texts = vec![Vec::new(); wanted.len()];
    for inst in insts.map_while(Result::ok) {
        let mut out = Vec::new();
        while let Some(&&(w, k)) = next.peek() {
            if w > inst.index {
                break;
            }
            next.next();
            if w == inst.index {
                if out.is_empty() {
                    printer.instruction(st, &mut out, inst);
                    while out.last() == Some(&b'\n') {
                        out.pop();
                    }
                }
                texts[k].clone_from(&out);
            }
        }
        if next.peek().is_none() {
            break;
        }
    }
    texts
}
