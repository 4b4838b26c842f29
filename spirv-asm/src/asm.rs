//! The assembler: SPIR-V assembly text → binary, byte for byte as spirv-as 2025.5
//! produces it. Operand layouts come from the generated grammar tables; the
//! context-dependent operands (typed literals, OpSwitch, OpExtInst, OpSpecConstantOp)
//! are named hooks.

use crate::fxhash::FxHashMap;
use crate::number::{self, FloatFormat};
use spirv_core::grammar::{InstructionInfo, KindClass, OperandInfo, OperandKind, Quantifier};
use spirv_core::spv;
use spirv_core::walk::{self, ExtInstRegistry, Ids, NumberType, Summary};
use std::fmt;
use std::ops::Range;

/// The generator word our assembler writes by default, the one spirv-core's builder
/// writes: tool id 0xFFFF (no tool id is registered for this toolkit in `spir-v.xml`),
/// version 1. Set [`AsmOptions::generator`] to [`SPIRV_TOOLS_GENERATOR`] to match
/// spirv-as exactly.
pub use spirv_core::GENERATOR;

/// spirv-as's generator word: Khronos SPIR-V Tools Assembler, version 0.
pub const SPIRV_TOOLS_GENERATOR: u32 = 0x0007_0000;

/// Assembler options; the defaults match plain `spirv-as` except the generator word.
#[derive(Debug, Clone)]
pub struct AsmOptions {
    /// SPIR-V version of the header and of opcode gating. `None`: a leading
    /// `; Version: 1.X` comment, else 1.6.
    pub version: Option<(u8, u8)>,
    /// `--preserve-numeric-ids`: `%N` keeps N; named ids fill the gaps.
    pub preserve_numeric_ids: bool,
    /// The header's generator word.
    pub generator: u32,
    /// Accept extended-instruction names for every registered set (DebugPrintf,
    /// DebugBreak, user sets), not only the 13 spirv-as knows.
    pub all_ext_inst_names: bool,
    /// Extended sets to know; `None` = every vendored set.
    pub registry: Option<ExtInstRegistry>,
}

impl Default for AsmOptions {
    fn default() -> Self {
        AsmOptions {
            version: None,
            preserve_numeric_ids: false,
            generator: GENERATOR,
            all_ext_inst_names: false,
            registry: None,
        }
    }
}

/// Maps a `--target-env` name to the SPIR-V version it implies, as spirv-as does.
pub fn target_env_version(name: &str) -> Option<(u8, u8)> {
    Some(match name {
        "spv1.0" | "vulkan1.0" | "opencl1.2" | "opencl1.2embedded" | "opencl2.0"
        | "opencl2.0embedded" | "opencl2.1" | "opencl2.1embedded" | "opengl4.0" | "opengl4.1"
        | "opengl4.2" | "opengl4.3" | "opengl4.5" => (1, 0),
        "spv1.1" => (1, 1),
        "spv1.2" | "opencl2.2" | "opencl2.2embedded" => (1, 2),
        "spv1.3" | "vulkan1.1" => (1, 3),
        "spv1.4" | "vulkan1.1spv1.4" => (1, 4),
        "spv1.5" | "vulkan1.2" => (1, 5),
        "spv1.6" | "vulkan1.3" | "vulkan1.4" => (1, 6),
        _ => return None,
    })
}

/// The version a leading `; Version: 1.X` comment names, as spirv-as reads it: only in
/// the comment lines before any other text, single digit, at most 1.6.
pub fn version_from_comment(text: &[u8]) -> Option<(u8, u8)> {
    let mut rest = text;
    loop {
        while let [b' ' | b'\t' | b'\r' | b'\n', tail @ ..] = rest {
            rest = tail;
        }
        if rest.first() != Some(&b';') {
            return None;
        }
        let line_end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
        let line = &rest[..line_end];
        if let Some(v) = line.strip_prefix(b"; Version: 1.") {
            if let Some(&d) = v.first() {
                if d.is_ascii_digit() && d - b'0' <= 6 {
                    return Some((1, d - b'0'));
                }
            }
        }
        rest = &rest[line_end..];
    }
}

/// The class of an assembly error; the CLI maps it to spirv-as's exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum AsmErrorKind {
    /// Malformed text (exit 251).
    InvalidText,
    /// An unknown name: opcode, enumerant (exit 247).
    InvalidLookup,
    /// A bad id (exit 246).
    InvalidId,
    /// Something spirv-as does not support, such as 128-bit literals (exit 255).
    Unsupported,
}

/// An assembly error: message, byte span, and spirv-as's line:column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AsmError {
    /// spirv-as's message (plus a suggestion where we have one).
    pub message: String,
    /// The byte range the error points at.
    pub span: Range<usize>,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// The error class.
    pub kind: AsmErrorKind,
}

impl AsmError {
    /// spirv-as's exit code for this error.
    pub fn exit_code(&self) -> i32 {
        match self.kind {
            AsmErrorKind::InvalidText => 251,
            AsmErrorKind::InvalidLookup => 247,
            AsmErrorKind::InvalidId => 246,
            AsmErrorKind::Unsupported => 255,
        }
    }
    /// `error: LINE: COL: message`, then the source line and a caret.
    pub fn render(&self, text: &[u8]) -> String {
        let start = text[..self.span.start.min(text.len())]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1);
        let end = text[start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(text.len(), |p| start + p);
        let line = String::from_utf8_lossy(&text[start..end]);
        let line = line.trim_end_matches('\r');
        let caret_at = self.span.start.saturating_sub(start);
        let width = self
            .span
            .end
            .saturating_sub(self.span.start)
            .clamp(1, end.saturating_sub(self.span.start).max(1));
        format!(
            "{self}\n{line}\n{}{}",
            " ".repeat(caret_at),
            "^".repeat(width)
        )
    }
}

impl fmt::Display for AsmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "error: {}: {}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for AsmError {}

/// The result of assembling: the words and the id each name received.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assembled {
    /// The module's words, header included.
    pub words: Vec<u32>,
    /// Every `%name` in the text with the id it was given, in order of first mention.
    pub ids: Vec<(String, u32)>,
}

/// Assembles text (bytes, since string literals may hold any bytes).
///
/// # Errors
/// The first error, located by line and column.
pub fn assemble(text: &[u8], opts: &AsmOptions) -> Result<Vec<u32>, AsmError> {
    assemble_impl(text, opts, false).map(|a| a.words)
}

/// Like [`assemble`], for `&str`.
///
/// # Errors
/// See [`assemble`].
pub fn assemble_str(text: &str, opts: &AsmOptions) -> Result<Vec<u32>, AsmError> {
    assemble(text.as_bytes(), opts)
}

/// Assembles and also returns the name → id map.
///
/// # Errors
/// See [`assemble`].
pub fn assemble_with_ids(text: &[u8], opts: &AsmOptions) -> Result<Assembled, AsmError> {
    assemble_impl(text, opts, true)
}

fn assemble_impl(text: &[u8], opts: &AsmOptions, want_ids: bool) -> Result<Assembled, AsmError> {
    let version = opts
        .version
        .or_else(|| version_from_comment(text))
        .unwrap_or((1, 6));
    let base = opts.registry.clone().unwrap_or_default();
    let registry = crate::text::spirv_tools_registry(&base, opts.all_ext_inst_names);
    let mut a = Asm {
        text,
        pos: 0,
        version,
        registry,
        names: FxHashMap::with_capacity_and_hasher(text.len() / 64, Default::default()),
        order: Vec::new(),
        next_id: 1,
        reserved: Vec::new(),
        max_id: 0,
        ids: Ids::new(text.len() / 4 + 16),
        out: Vec::with_capacity(text.len() / 3 + 8),
        inst_ops: Vec::new(),
        last_operand: 0,
        stack: Vec::with_capacity(16),
        numeric: Vec::new(),
        want_ids,
    };
    if opts.preserve_numeric_ids {
        a.reserve_numeric_ids();
    }
    a.out.extend_from_slice(&[
        spirv_core::binary::MAGIC,
        spirv_core::Header::version_word(version.0, version.1),
        opts.generator,
        0,
        0,
    ]);
    if text.iter().all(|b| b.is_ascii_whitespace()) {
        return Err(a.error_at(0, 0, "Missing assembly text.", AsmErrorKind::InvalidText));
    }
    while a.skip_ws() {
        a.instruction()?;
    }
    a.out[3] = a.max_id + 1;
    let ids = a
        .order
        .iter()
        .map(|(n, id)| (String::from_utf8_lossy(n).into_owned(), *id))
        .collect();
    Ok(Assembled { words: a.out, ids })
}

/// An expected operand on the parse stack.
#[derive(Debug, Clone, Copy)]
enum Expect {
    /// One operand of a kind; `optional` ends the instruction quietly when absent.
    One {
        kind: &'static OperandKind,
        optional: bool,
    },
    /// Zero or more operands of a kind.
    Many { kind: &'static OperandKind },
    /// Alternate parsing mode after `!<integer>`: any id, number or string, repeated.
    Raw,
    /// Where the result id goes in alternate mode.
    ResultSlot,
}

struct Asm<'t> {
    text: &'t [u8],
    pos: usize,
    version: (u8, u8),
    registry: ExtInstRegistry,
    names: FxHashMap<&'t [u8], u32>,
    order: Vec<(&'t [u8], u32)>,
    next_id: u32,
    /// `--preserve-numeric-ids`: numeric ids in use, sorted.
    reserved: Vec<u32>,
    max_id: u32,
    ids: Ids,
    out: Vec<u32>,
    inst_ops: Vec<u32>,
    /// Start of the last operand word, for errors found after the instruction.
    last_operand: usize,
    stack: Vec<Expect>,
    /// Ids of numeric names, indexed by the number.
    numeric: Vec<u32>,
    /// Whether to record the name → id list.
    want_ids: bool,
}

fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

/// Skips whitespace and `;` comments from `pos`.
#[inline]
fn skip_ws(t: &[u8], mut pos: usize) -> usize {
    while pos < t.len() {
        match t[pos] {
            b' ' | b'\t' | b'\r' | b'\n' => pos += 1,
            b';' => {
                pos += t[pos..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .unwrap_or(t.len() - pos);
            }
            _ => break,
        }
    }
    pos
}

/// Bytes that end a word outside quotes: whitespace, `;`, `,`, `(`, `)`, NUL.
const ENDS_WORD: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    let ends = b" \t\r\n;,()\0";
    while i < ends.len() {
        t[ends[i] as usize] = true;
        i += 1;
    }
    t
};

/// The end of the word starting at `at` (spirv-as's `getWord`): quotes and backslash
/// escapes keep terminators inside the word; NUL always ends it.
#[inline]
fn word_end(t: &[u8], at: usize) -> usize {
    let mut i = at;
    // Fast path: plain words without quotes or backslashes.
    while i < t.len() {
        let c = t[i];
        if ENDS_WORD[c as usize] {
            return i;
        }
        if c == b'"' || c == b'\\' {
            break;
        }
        i += 1;
    }
    let mut quoting = false;
    let mut escaping = false;
    while i < t.len() {
        let c = t[i];
        if c == b'\\' {
            escaping = !escaping;
        } else {
            match c {
                b'"' if !escaping => quoting = !quoting,
                b'\0' => return i,
                _ if ENDS_WORD[c as usize] && !escaping && !quoting => return i,
                _ => {}
            }
            escaping = false;
        }
        i += 1;
    }
    i
}

/// A name made of 1 to 9 decimal digits without a leading zero, as a number. Names such
/// as `%007` keep their spelling as a key (they are different names from `%7`).
#[inline]
fn small_number(name: &[u8]) -> Option<u32> {
    if name.is_empty() || name.len() > 9 || (name[0] == b'0' && name.len() > 1) {
        return None;
    }
    let mut v = 0u32;
    for &b in name {
        if !b.is_ascii_digit() {
            return None;
        }
        v = v * 10 + u32::from(b - b'0');
    }
    Some(v)
}

fn starts_with_op(t: &[u8], at: usize) -> bool {
    matches!(t.get(at..at + 3), Some([b'O', b'p', c]) if c.is_ascii_uppercase())
}

/// Tokens longer than this get no "did you mean" suggestion. The edit distance costs
/// the product of the two lengths for every name, and no grammar name is half as long
/// (the longest has 71 bytes), so a longer token has no near match anyway.
const SUGGEST_MAX_LEN: usize = 160;

/// The name closest to `word` among `names` (edit distance), for suggestions. Names
/// whose length differs from the token's by more than the allowed distance are skipped
/// without computing it.
fn nearest<'n>(word: &str, names: impl Iterator<Item = &'n str>) -> Option<&'n str> {
    fn dist(a: &str, b: &str) -> usize {
        let b: Vec<char> = b.chars().collect();
        let mut prev: Vec<usize> = (0..=b.len()).collect();
        for (i, ca) in a.chars().enumerate() {
            let mut cur = vec![i + 1; b.len() + 1];
            for (j, &cb) in b.iter().enumerate() {
                let sub = prev[j] + usize::from(!ca.eq_ignore_ascii_case(&cb));
                cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
            }
            prev = cur;
        }
        prev[b.len()]
    }
    if word.len() > SUGGEST_MAX_LEN {
        return None;
    }
    let limit = (word.len() / 3).max(2);
    names
        .filter(|n| n.len().abs_diff(word.len()) <= limit)
        .map(|n| (dist(word, n), n))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, n)| n)
}

impl<'t> Asm<'t> {
    fn line_col(&self, at: usize) -> (usize, usize) {
        let before = &self.text[..at.min(self.text.len())];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let col = at
            - before
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |p| p + 1)
            + 1;
        (line, col)
    }

    #[cold]
    fn error_at(
        &self,
        start: usize,
        end: usize,
        msg: impl Into<String>,
        kind: AsmErrorKind,
    ) -> AsmError {
        let (line, column) = self.line_col(start);
        AsmError {
            message: msg.into(),
            span: start..end.max(start),
            line,
            column,
            kind,
        }
    }

    /// Skips whitespace and comments; false at the end of the text.
    #[inline]
    fn skip_ws(&mut self) -> bool {
        self.pos = skip_ws(self.text, self.pos);
        self.pos < self.text.len()
    }

    /// The word starting at `at`: it ends at whitespace, `;`, `,`, `(` or `)` outside
    /// quotes and not after a backslash.
    #[inline]
    fn word_end(&self, at: usize) -> usize {
        word_end(self.text, at)
    }

    /// Whether the next token starts an instruction: `Op[A-Z]…`, or `%id` then `=`.
    fn is_start_of_new_inst(&self) -> bool {
        let t = self.text;
        let p = skip_ws(t, self.pos);
        if p >= t.len() {
            return false;
        }
        if starts_with_op(t, p) {
            return true;
        }
        if t[p] != b'%' {
            return false;
        }
        let p = skip_ws(t, word_end(t, p));
        p < t.len() && t[p] == b'=' && word_end(t, p) == p + 1
    }

    /// Like [`Self::is_start_of_new_inst`] for a word already found at `ws..we`.
    #[inline]
    fn starts_new_inst(&self, ws: usize, we: usize) -> bool {
        let t = self.text;
        if starts_with_op(t, ws) {
            return true;
        }
        if t[ws] != b'%' {
            return false;
        }
        let p = skip_ws(t, we);
        p < t.len() && t[p] == b'=' && word_end(t, p) == p + 1
    }

    fn reserve_numeric_ids(&mut self) {
        let t = self.text;
        let mut p = 0;
        let mut seen = Vec::new();
        loop {
            p = skip_ws(t, p);
            if p >= t.len() {
                break;
            }
            let e = word_end(t, p);
            if let Some(digits) = t[p..e].strip_prefix(b"%") {
                if !digits.is_empty() && digits.iter().all(u8::is_ascii_digit) {
                    if let Some(v) = std::str::from_utf8(digits)
                        .ok()
                        .and_then(|d| d.parse::<u32>().ok())
                    {
                        seen.push(v);
                    }
                }
            }
            p = if e == p { e + 1 } else { e };
        }
        seen.sort_unstable();
        seen.dedup();
        self.reserved = seen;
    }

    /// The id for `%name` (`word` includes the `%`), assigning one at first mention.
    fn id(&mut self, start: usize, end: usize) -> Result<u32, AsmError> {
        let text: &'t [u8] = self.text;
        let name = &text[start + 1..end];
        // Numeric names (`%1565`, most ids in disassembled text) index a vector instead of
        // the hash map; the vector is bounded by the text's length.
        if let Some(v) = small_number(name).filter(|&v| (v as usize) < text.len()) {
            if let Some(&id) = self.numeric.get(v as usize) {
                if id != 0 {
                    return Ok(id);
                }
            }
            let id = if self.reserved.is_empty() {
                let id = self.next_id;
                self.next_id += 1;
                id
            } else {
                v
            };
            if id == 0 || id == u32::MAX {
                return Err(self.error_at(
                    start,
                    end,
                    format!("Invalid ID {}", String::from_utf8_lossy(name)),
                    AsmErrorKind::InvalidText,
                ));
            }
            if v as usize >= self.numeric.len() {
                let grow = (v as usize + 1).max(self.numeric.len() * 2).min(text.len());
                self.numeric.resize(grow, 0);
            }
            self.numeric[v as usize] = id;
            self.max_id = self.max_id.max(id);
            if self.want_ids {
                self.order.push((name, id));
            }
            return Ok(id);
        }
        // One hash per mention: look up and insert through the entry.
        let vacant = match self.names.entry(name) {
            std::collections::hash_map::Entry::Occupied(e) => return Ok(*e.get()),
            std::collections::hash_map::Entry::Vacant(v) => v,
        };
        // First mention: check the spelling and give it a number.
        let invalid =
            name.is_empty() || !name.iter().all(|&b| b.is_ascii_alphanumeric() || b == b'_');
        let numeric = if self.reserved.is_empty() || invalid {
            None
        } else {
            std::str::from_utf8(name)
                .ok()
                .filter(|s| s.bytes().all(|b| b.is_ascii_digit()))
                .and_then(|s| s.parse::<u32>().ok())
        };
        let id = match numeric {
            Some(n) => n,
            None => {
                while self.reserved.binary_search(&self.next_id).is_ok() {
                    self.next_id += 1;
                }
                self.next_id
            }
        };
        if invalid || id == u32::MAX || id == 0 {
            return Err(self.error_at(
                start,
                end,
                format!("Invalid ID {}", String::from_utf8_lossy(name)),
                AsmErrorKind::InvalidText,
            ));
        }
        vacant.insert(id);
        if numeric.is_none() {
            self.next_id += 1;
        }
        self.max_id = self.max_id.max(id);
        if self.want_ids {
            self.order.push((name, id));
        }
        Ok(id)
    }

    fn instruction(&mut self) -> Result<(), AsmError> {
        let start = self.pos;
        let mut end = self.word_end(start);
        let mut result: Option<(usize, usize)> = None;
        if self.text[start] == b'%' {
            result = Some((start, end));
            self.pos = end;
            if !self.skip_ws() {
                return Err(self.error_at(
                    self.pos,
                    self.pos,
                    "Expected '=', found end of stream.",
                    AsmErrorKind::InvalidText,
                ));
            }
            let e = self.word_end(self.pos);
            if &self.text[self.pos..e] != b"=" {
                let w = String::from_utf8_lossy(&self.text[self.pos..e]).into_owned();
                return Err(self.error_at(
                    self.pos,
                    e,
                    format!("'=' expected after result id but found '{w}'."),
                    AsmErrorKind::InvalidText,
                ));
            }
            self.pos = e;
            if !self.skip_ws() {
                return Err(self.error_at(
                    self.pos,
                    self.pos,
                    "Expected opcode, found end of stream.",
                    AsmErrorKind::InvalidText,
                ));
            }
            end = self.word_end(self.pos);
        }
        let op_start = self.pos;
        let op_word = &self.text[op_start..end];
        self.inst_ops.clear();
        let inst_start = self.out.len();

        if op_word.first() == Some(&b'!') {
            if let Some((rs, re)) = result {
                let name = String::from_utf8_lossy(&self.text[rs..re]).into_owned();
                return Err(self.error_at(
                    op_start,
                    end,
                    format!("Cannot set ID {name} because the opcode is an immediate value."),
                    AsmErrorKind::InvalidText,
                ));
            }
            // The whole leading word is given: no word-count fix-up.
            let w = self.immediate(op_start, end)?;
            self.out.push(w);
            self.pos = end;
            let mut stack = vec![Expect::Raw];
            self.operands(None, &mut stack, "", false)?;
            let ops = std::mem::take(&mut self.inst_ops);
            self.out.extend_from_slice(&ops);
            self.inst_ops = ops;
            return Ok(());
        }
        if op_word == b"OpUnknown" {
            return self.op_unknown(result, op_start, end);
        }
        if !op_word.starts_with(b"Op") {
            let w = String::from_utf8_lossy(op_word).into_owned();
            let msg = if result.is_some() {
                format!("Invalid Opcode prefix '{w}'.")
            } else {
                format!(
                    "Expected <opcode> or <result-id> at the beginning of an instruction, found '{w}'."
                )
            };
            return Err(self.error_at(op_start, end, msg, AsmErrorKind::InvalidText));
        }
        let info = spv::GRAMMAR
            .instruction_by_name_bytes(op_word)
            .filter(|i| self.available(i));
        let Some(info) = info else {
            let w = String::from_utf8_lossy(op_word).into_owned();
            let mut msg = format!("Invalid Opcode name '{w}'");
            if let Some(n) = nearest(&w, spv::GRAMMAR.instructions.iter().map(|i| i.opname)) {
                msg.push_str(&format!(" (did you mean '{n}'?)"));
            }
            return Err(self.error_at(op_start, end, msg, AsmErrorKind::InvalidLookup));
        };
        let has_result = info.has_result();
        match (result, has_result) {
            (None, true) => {
                return Err(self.error_at(
                    op_start,
                    end,
                    format!(
                        "Expected <result-id> at the beginning of an instruction, found '{}'.",
                        info.opname
                    ),
                    AsmErrorKind::InvalidText,
                ));
            }
            (Some((rs, re)), false) => {
                let name = String::from_utf8_lossy(&self.text[rs..re]).into_owned();
                return Err(self.error_at(
                    op_start,
                    end,
                    format!(
                        "Cannot set ID {name} because {} does not produce a result ID.",
                        info.opname
                    ),
                    AsmErrorKind::InvalidText,
                ));
            }
            _ => {}
        }
        self.pos = end;
        self.out.push(u32::from(info.opcode as u16));
        // The parse stack is reused across instructions.
        let mut stack = std::mem::take(&mut self.stack);
        stack.clear();
        push_layout(&mut stack, info.operands);
        let r = self.operands(result, &mut stack, info.opname, info.switch_literals);
        self.stack = stack;
        r?;
        let ops = std::mem::take(&mut self.inst_ops);
        self.out.extend_from_slice(&ops);
        self.inst_ops = ops;
        let count = self.out.len() - inst_start;
        if count > 0xffff {
            return Err(self.error_at(
                op_start,
                end,
                format!("Instruction too long: {count} words, but the limit is 65535"),
                AsmErrorKind::InvalidText,
            ));
        }
        self.out[inst_start] |= (count as u32) << 16;
        // Record what it defines (types, imports, value types).
        let ops = &self.out[inst_start + 1..];
        let summary = Summary {
            result_type: if info.has_result_type() {
                ops.first().copied()
            } else {
                None
            },
            result_id: info
                .operands
                .iter()
                .position(|o| o.kind.class == KindClass::Result)
                .and_then(|p| ops.get(p).copied()),
            saw_unknown: false,
        };
        let opcode = info.opcode as u16;
        let previous = summary.result_id.map(|id| self.ids.get(id));
        if let Err(spirv_core::DecodeErrorKind::IdRedefined { id }) =
            walk::observe(&mut self.ids, &self.registry, opcode, ops, &summary)
        {
            // spirv-as rejects a redefined type; it accepts a redefined value, which we
            // also reject (spirv-dis would reject the binary).
            let is_type = spv::Class::of(info) == Some(spv::Class::TypeDeclaration)
                || matches!(
                    previous,
                    Some(walk::IdInfo::Number(_) | walk::IdInfo::Other)
                );
            let (msg, kind) = if is_type {
                (
                    format!("Value {id} has already been used to generate a type"),
                    AsmErrorKind::InvalidText,
                )
            } else {
                (
                    format!("Id {id} is defined more than once"),
                    AsmErrorKind::InvalidId,
                )
            };
            return Err(self.error_at(self.pos, self.pos, msg, kind));
        }
        if walk::unknown_import(&self.ids, opcode) {
            let name = spirv_core::codec::string_operand(ops.get(1..).unwrap_or(&[]));
            let msg = format!(
                "Invalid extended instruction import '{}'",
                String::from_utf8_lossy(&name)
            );
            return Err(self.error_at(self.last_operand, self.pos, msg, AsmErrorKind::InvalidText));
        }
        Ok(())
    }

    /// Opcode gating by the target version, as spirv-as does: instructions enabled by a
    /// capability or extension are always available.
    fn available(&self, info: &InstructionInfo) -> bool {
        if !info.capabilities.is_empty() || !info.extensions.is_empty() {
            return true;
        }
        info.version.is_none_or(|v| v <= self.version)
            && info.last_version.is_none_or(|v| self.version <= v)
    }

    fn immediate(&self, start: usize, end: usize) -> Result<u32, AsmError> {
        let text = std::str::from_utf8(&self.text[start + 1..end]).unwrap_or("");
        number::parse_u32(text)
            .or_else(|_| number::parse_int(text, 32, true).map(|v| v as u32))
            .map_err(|_| {
                self.error_at(
                    start,
                    end,
                    format!("Invalid immediate integer: !{text}"),
                    AsmErrorKind::InvalidText,
                )
            })
    }

    /// `OpUnknown(opcode, wordcount)` then raw operands.
    fn op_unknown(
        &mut self,
        result: Option<(usize, usize)>,
        start: usize,
        end: usize,
    ) -> Result<(), AsmError> {
        if let Some((rs, re)) = result {
            let name = String::from_utf8_lossy(&self.text[rs..re]).into_owned();
            return Err(self.error_at(
                rs,
                re,
                format!("Cannot set ID {name} because OpUnknown does not produce a result ID."),
                AsmErrorKind::InvalidText,
            ));
        }
        let t = self.text;
        let mut p = end;
        // spirv-as's messages: "'(' expected after OpUnknown but found '…'." and so on.
        let next_word = |p: usize| -> (usize, usize) {
            let mut s = p;
            while s < t.len() && is_ws(t[s]) {
                s += 1;
            }
            let mut e = s;
            while e < t.len() && !is_ws(t[e]) && !matches!(t[e], b',' | b'(' | b')' | b';') {
                e += 1;
            }
            (s, e)
        };
        let expect = |p: &mut usize, c: u8, after: &str| -> Result<(), AsmError> {
            let (s, e) = next_word(*p);
            if t.get(s) == Some(&c) {
                *p = s + 1;
                Ok(())
            } else {
                let found = String::from_utf8_lossy(&t[s..e]).into_owned();
                let msg = format!(
                    "'{}' expected after {after} but found '{found}'.",
                    c as char
                );
                Err(self.error_at(s, e, msg, AsmErrorKind::InvalidText))
            }
        };
        let num = |p: &mut usize, what: &str| -> Result<u32, AsmError> {
            let (s, e) = next_word(*p);
            *p = e;
            let w = std::str::from_utf8(&t[s..e]).unwrap_or("");
            number::parse_u32(w).map_err(|_| {
                self.error_at(
                    s,
                    e,
                    format!("Invalid {what}: {w}"),
                    AsmErrorKind::InvalidText,
                )
            })
        };
        expect(&mut p, b'(', "OpUnknown")?;
        let opcode = num(&mut p, "opcode enumerant")?;
        expect(&mut p, b',', "opcode enumerant")?;
        let count = num(&mut p, "word count")?;
        expect(&mut p, b')', "word count")?;
        if opcode > 0xffff || count > 0xffff {
            return Err(self.error_at(
                start,
                p,
                "OpUnknown opcode and word count must fit in 16 bits",
                AsmErrorKind::InvalidText,
            ));
        }
        self.pos = p;
        self.out.push((count << 16) | opcode);
        let mut stack = vec![Expect::Raw];
        self.operands(None, &mut stack, "OpUnknown", false)?;
        let ops = std::mem::take(&mut self.inst_ops);
        self.out.extend_from_slice(&ops);
        self.inst_ops = ops;
        Ok(())
    }

    fn operands(
        &mut self,
        result: Option<(usize, usize)>,
        stack: &mut Vec<Expect>,
        opname: &str,
        is_switch: bool,
    ) -> Result<(), AsmError> {
        // OpSwitch hook: case literals are sized by the selector's type.
        let mut switch_type: Option<NumberType> = None;
        let mut selector_seen = false;
        while let Some(e) = stack.pop() {
            let (kind, optional) = match e {
                Expect::One { kind, optional } => (kind, optional),
                Expect::Many { kind } => {
                    stack.push(Expect::Many { kind });
                    (kind, true)
                }
                Expect::ResultSlot => {
                    if let Some((rs, re)) = result {
                        let id = self.id(rs, re)?;
                        self.inst_ops.push(id);
                    }
                    continue;
                }
                Expect::Raw => {
                    if !self.skip_ws() || self.is_start_of_new_inst() {
                        // Alternate mode ends quietly, but a pending result slot must still be filled.
                        if let Some(i) = stack.iter().position(|e| matches!(e, Expect::ResultSlot))
                        {
                            stack.truncate(i + 1);
                            continue;
                        }
                        break;
                    }
                    stack.push(Expect::Raw);
                    self.raw_operand()?;
                    continue;
                }
            };
            if kind.class == KindClass::Composite {
                // Components of one occurrence: the first keeps the optionality.
                for (i, b) in kind.bases.iter().enumerate().rev() {
                    stack.push(Expect::One {
                        kind: b,
                        optional: optional && i == 0,
                    });
                }
                continue;
            }
            if kind.class == KindClass::Result {
                if let Some((rs, re)) = result {
                    let id = self.id(rs, re)?;
                    self.inst_ops.push(id);
                }
                continue;
            }
            if !self.skip_ws() {
                if optional {
                    break;
                }
                return Err(self.error_at(
                    self.pos,
                    self.pos,
                    format!("Expected operand for {opname} instruction, but found the end of the stream."),
                    AsmErrorKind::InvalidText,
                ));
            }
            let ws = self.pos;
            let we = self.word_end(ws);
            if self.starts_new_inst(ws, we) {
                if optional {
                    break;
                }
                return Err(self.error_at(
                    ws,
                    we,
                    format!("Expected operand for {opname} instruction, but found the next instruction instead."),
                    AsmErrorKind::InvalidText,
                ));
            }
            self.last_operand = ws;
            if self.text[ws] == b'!' {
                let v = self.immediate(ws, we)?;
                self.inst_ops.push(v);
                self.pos = we;
                // Alternate mode; keep a result slot if the result id is still to come.
                let pending = result.is_some() && stack.iter().any(|e| matches!(e, Expect::One { kind, .. } if kind.class == KindClass::Result));
                let before_result = stack
                    .iter()
                    .rev()
                    .take_while(|e| !matches!(e, Expect::One { kind, .. } if kind.class == KindClass::Result))
                    .count();
                stack.clear();
                stack.push(Expect::Raw);
                if pending {
                    stack.push(Expect::ResultSlot);
                    for _ in 0..before_result {
                        stack.push(Expect::One {
                            kind: &spv::kinds::LiteralInteger,
                            optional: true,
                        });
                    }
                }
                continue;
            }
            if ws == we {
                let c = self.text[ws] as char;
                return Err(self.error_at(
                    ws,
                    ws + 1,
                    format!("Expected operand for {opname} instruction, but found '{c}'."),
                    AsmErrorKind::InvalidText,
                ));
            }
            if is_switch
                && !selector_seen
                && kind.class == KindClass::Id
                && self.inst_ops.is_empty()
            {
                selector_seen = true;
                // The selector: its type sizes the case literals.
                self.pos = we;
                let id = self.id(ws, we)?;
                self.inst_ops.push(id);
                // A selector of no integer type is reported at the first case literal,
                // where spirv-as reports it.
                switch_type = match self.ids.value_number_type(id) {
                    Some(t @ NumberType::Int { .. }) => Some(t),
                    _ => None,
                };
                continue;
            }
            self.pos = we;
            if is_switch && kind.class == KindClass::Integer {
                let Some(t) = switch_type else {
                    return Err(self.error_at(
                        ws,
                        we,
                        "The selector operand for OpSwitch must be the result of an instruction that generates an integer scalar",
                        AsmErrorKind::InvalidText,
                    ));
                };
                self.typed_literal(ws, we, t)?;
                continue;
            }
            self.operand(kind, ws, we, stack, opname)?;
        }
        Ok(())
    }

    /// Alternate mode: an id, a string, or a number as one 32-bit word.
    fn raw_operand(&mut self) -> Result<(), AsmError> {
        let ws = self.pos;
        let we = self.word_end(ws);
        self.pos = we.max(ws + 1);
        let w = &self.text[ws..we];
        match w.first() {
            Some(b'%') => {
                let id = self.id(ws, we)?;
                self.inst_ops.push(id);
            }
            Some(b'"') => self.string(ws, we)?,
            Some(b'!') => {
                let v = self.immediate(ws, we)?;
                self.inst_ops.push(v);
            }
            _ => {
                let t = std::str::from_utf8(w).unwrap_or("");
                let v = number::parse_u32(t)
                    .or_else(|_| number::parse_int(t, 32, true).map(|v| v as u32))
                    .or_else(|_| number::parse_float(t, 32, FloatFormat::F32).map(|v| v as u32))
                    .map_err(|_| self.error_at(ws, we, format!("Invalid operand '{t}' in alternate parsing mode: expected an id, a number or a string."), AsmErrorKind::InvalidText))?;
                self.inst_ops.push(v);
            }
        }
        Ok(())
    }

    fn string(&mut self, ws: usize, we: usize) -> Result<(), AsmError> {
        let w = &self.text[ws..we];
        if w.len() < 2
            || w[0] != b'"'
            || w[w.len() - 1] != b'"'
            || (w.len() >= 3 && w[w.len() - 2] == b'\\' && !even_backslashes(&w[1..w.len() - 1]))
        {
            let shown = String::from_utf8_lossy(w).into_owned();
            if w.first() == Some(&b'"') {
                return Err(self.error_at(
                    ws,
                    we,
                    format!("Invalid literal string '{shown}'."),
                    AsmErrorKind::InvalidText,
                ));
            }
            return Err(self.error_at(
                ws,
                we,
                format!("Invalid literal string '{shown}'."),
                AsmErrorKind::InvalidText,
            ));
        }
        let mut bytes = Vec::with_capacity(w.len());
        let mut esc = false;
        for &b in &w[1..w.len() - 1] {
            if esc {
                bytes.push(b);
                esc = false;
            } else if b == b'\\' {
                esc = true;
            } else {
                bytes.push(b);
            }
        }
        // One word-count field holds the whole instruction: strings longer than that are rejected.
        if bytes.len() >= 0xffff * 4 {
            return Err(self.error_at(
                ws,
                we,
                "Literal string is too long",
                AsmErrorKind::InvalidText,
            ));
        }
        spirv_core::codec::encode_string(&bytes, &mut self.inst_ops);
        Ok(())
    }

    fn typed_literal(&mut self, ws: usize, we: usize, t: NumberType) -> Result<(), AsmError> {
        let text = std::str::from_utf8(&self.text[ws..we]).unwrap_or("");
        let unsupported = |m: String| self.error_at(ws, we, m, AsmErrorKind::Unsupported);
        // Types spirv-as has no literals for are decided by the type, before parsing.
        let bits = match t {
            NumberType::Int { width, .. } if width > 64 => {
                return Err(unsupported(format!(
                    "Unsupported {width}-bit integer literals"
                )));
            }
            NumberType::Int { width, signed } => number::parse_int(text, width, signed),
            NumberType::Float { width, encoding } => {
                // An encoding this grammar does not know reads as the plain IEEE format.
                let fmt = FloatFormat::of(width, encoding).or_else(|| FloatFormat::of(width, None));
                match fmt {
                    Some(f) => number::parse_float(text, width, f),
                    None => {
                        return Err(unsupported(format!(
                            "Unsupported {width}-bit float literals"
                        )));
                    }
                }
            }
        }
        .map_err(|m| self.error_at(ws, we, m, AsmErrorKind::InvalidText))?;
        self.inst_ops.push(bits as u32);
        if t.width() > 32 {
            self.inst_ops.push((bits >> 32) as u32);
        }
        Ok(())
    }

    fn operand(
        &mut self,
        kind: &'static OperandKind,
        ws: usize,
        we: usize,
        stack: &mut Vec<Expect>,
        opname: &str,
    ) -> Result<(), AsmError> {
        let word = &self.text[ws..we];
        let text = || String::from_utf8_lossy(word).into_owned();
        match kind.class {
            KindClass::ResultType | KindClass::Id | KindClass::Result => {
                if word[0] != b'%' {
                    return Err(self.error_at(
                        ws,
                        we,
                        "Expected id to start with %.",
                        AsmErrorKind::InvalidText,
                    ));
                }
                let id = self.id(ws, we)?;
                self.inst_ops.push(id);
            }
            KindClass::Integer => {
                // Small decimal literals take the fast path; everything else goes through
                // spirv-as's full number rules.
                let v = match small_number(word) {
                    Some(v) => v,
                    None => number::parse_u32(&text())
                        .map_err(|m| self.error_at(ws, we, m, AsmErrorKind::InvalidText))?,
                };
                self.inst_ops.push(v);
            }
            KindClass::Float => self.typed_literal(
                ws,
                we,
                NumberType::Float {
                    width: 32,
                    encoding: None,
                },
            )?,
            KindClass::String => self.string(ws, we)?,
            KindClass::ContextNumber => {
                let ty = self.inst_ops.first().copied().unwrap_or(0);
                match self.ids.number_type(ty) {
                    Some(t) => self.typed_literal(ws, we, t)?,
                    None => {
                        return Err(self.error_at(
                            ws,
                            we,
                            format!(
                                "Type for {} must be a scalar floating point or integer type",
                                opname.trim_start_matches("Op")
                            ),
                            AsmErrorKind::InvalidText,
                        ));
                    }
                }
            }
            KindClass::ExtInstNumber => self.ext_inst_number(ws, we, stack)?,
            KindClass::SpecConstantOpcode => {
                let mut name = b"Op".to_vec();
                name.extend_from_slice(word);
                let found = spv::GRAMMAR.instruction_by_name_bytes(&name);
                let Some(info) = found.filter(|i| spirv_core::spec_constant_op::allows(i.opcode))
                else {
                    let mut msg = format!("Invalid OpSpecConstantOp opcode '{}'.", text());
                    // A misspelling gets the nearest name OpSpecConstantOp accepts; an
                    // opcode it may not embed gets none.
                    let allowed = spirv_core::spec_constant_op::OPCODES
                        .iter()
                        .filter_map(|o| o.name());
                    let guess = format!("Op{}", text());
                    if let Some(n) = found.is_none().then(|| nearest(&guess, allowed)).flatten() {
                        msg.push_str(&format!(" Did you mean '{}'?", n.trim_start_matches("Op")));
                    }
                    return Err(self.error_at(ws, we, msg, AsmErrorKind::InvalidText));
                };
                self.inst_ops.push(info.opcode);
                let skip = info
                    .operands
                    .iter()
                    .take_while(|o| {
                        matches!(o.kind.class, KindClass::ResultType | KindClass::Result)
                    })
                    .count();
                push_layout(stack, &info.operands[skip..]);
            }
            KindClass::ValueEnum => {
                let Some(e) = kind.enumerant_by_name_bytes(word) else {
                    let t = text();
                    let mut msg = format!("Invalid {} '{t}'.", crate::text::kind_words(kind.name));
                    if let Some(n) = nearest(&t, kind.enumerants.iter().map(|e| e.name)) {
                        msg.push_str(&format!(" Did you mean '{n}'?"));
                    }
                    return Err(self.error_at(ws, we, msg, AsmErrorKind::InvalidText));
                };
                self.inst_ops.push(e.value);
                push_layout(stack, e.parameters);
            }
            KindClass::BitEnum => {
                let mut value = 0u32;
                for part in word.split(|&b| b == b'|') {
                    match kind.enumerant_by_name_bytes(part) {
                        Some(e) => value |= e.value,
                        None => {
                            let t = String::from_utf8_lossy(part).into_owned();
                            let whole = String::from_utf8_lossy(word).into_owned();
                            let mut msg = format!(
                                "Invalid {} operand '{whole}'.",
                                crate::text::kind_words(kind.name)
                            );
                            if let Some(n) = nearest(&t, kind.enumerants.iter().map(|e| e.name)) {
                                msg.push_str(&format!(" Did you mean '{n}' for '{t}'?"));
                            }
                            return Err(self.error_at(ws, we, msg, AsmErrorKind::InvalidLookup));
                        }
                    }
                }
                self.inst_ops.push(value);
                // Parameters of set bits, lowest bit first.
                let mut params: Vec<&'static [OperandInfo]> = Vec::new();
                for bit in spirv_core::grammar::set_bits(value) {
                    if let Some(e) = kind.enumerant(bit) {
                        if !e.parameters.is_empty() {
                            params.push(e.parameters);
                        }
                    }
                }
                for p in params.iter().rev() {
                    push_layout(stack, p);
                }
            }
            KindClass::Composite => {}
        }
        Ok(())
    }

    /// OpExtInst hook: the instruction name is looked up in the set the `%set` operand
    /// imports, and the set's layout replaces the rest of the core layout.
    fn ext_inst_number(
        &mut self,
        ws: usize,
        we: usize,
        stack: &mut Vec<Expect>,
    ) -> Result<(), AsmError> {
        let word = &self.text[ws..we];
        let set_id = self.inst_ops.last().copied().unwrap_or(0);
        let Some(set) = self.ids.ext_set(set_id) else {
            return Err(self.error_at(
                ws,
                we,
                format!("Invalid extended instruction import Id {set_id}"),
                AsmErrorKind::InvalidId,
            ));
        };
        stack.clear();
        if let Some(g) = set.grammar {
            if let Some(info) = g.instruction_by_name_bytes(word) {
                self.inst_ops.push(info.opcode);
                push_layout(stack, info.operands);
                return Ok(());
            }
        }
        let t = String::from_utf8_lossy(word).into_owned();
        if set.non_semantic {
            if let Ok(n) = number::parse_u32(&t) {
                self.inst_ops.push(n);
                stack.push(Expect::Many {
                    kind: &spv::kinds::IdRef,
                });
                return Ok(());
            }
        }
        let mut msg = format!("Invalid extended instruction name '{t}'.");
        if let Some(n) = set
            .grammar
            .and_then(|g| nearest(&t, g.instructions.iter().map(|i| i.opname)))
        {
            msg.push_str(&format!(" Did you mean '{n}'?"));
        }
        Err(self.error_at(ws, we, msg, AsmErrorKind::InvalidText))
    }
}

fn even_backslashes(inner: &[u8]) -> bool {
    inner.iter().rev().take_while(|&&b| b == b'\\').count() % 2 == 0
}

/// Pushes a layout so that its first operand is popped first.
fn push_layout(stack: &mut Vec<Expect>, ops: &'static [OperandInfo]) {
    for op in ops.iter().rev() {
        stack.push(match op.quantifier {
            Quantifier::One => Expect::One {
                kind: op.kind,
                optional: false,
            },
            Quantifier::Optional => Expect::One {
                kind: op.kind,
                optional: true,
            },
            Quantifier::Variadic => Expect::Many { kind: op.kind },
        });
    }
}
