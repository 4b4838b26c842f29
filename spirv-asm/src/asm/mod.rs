//! The assembler: SPIR-V assembly text → binary, byte for byte as spirv-as 2025.5
//! produces it. Operand layouts come from the generated grammar tables; the
//! context-dependent operands (typed literals, OpSwitch, OpExtInst, OpSpecConstantOp)
//! are named hooks.

mod error;
mod ids;
mod instruction;
mod lexer;
mod name_table;
mod operands;

pub use error::{AsmError, AsmErrorKind};

use spirv_core::ExtInstRegistry;
use spirv_core::grammar::OperandKind;
use spirv_core::walk::Ids;

use spirv_core::DEFAULT_GENERATOR;

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
    /// The header's generator word; by default [`spirv_core::DEFAULT_GENERATOR`], the
    /// one spirv-core's builder writes (tool id 0xFFFF: no tool id is registered for
    /// this toolkit in `spir-v.xml`; version 1). [`SPIRV_TOOLS_GENERATOR`] matches
    /// spirv-as exactly.
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
            generator: DEFAULT_GENERATOR,
            all_ext_inst_names: false,
            registry: None,
        }
    }
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

/// The result of assembling: the words and the id each name received.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Assembled {
    /// The module's words, header included.
    pub words: Vec<u32>,
    /// Every `%name` in the text with the id it was given, in order of first mention.
    pub ids: Vec<(String, u32)>,
    /// Where each instruction starts in the text (the byte offset of its `%result` or
    /// opcode), in module order: what a validator's `instruction` index points back to.
    pub starts: Vec<usize>,
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

/// Assembles and also returns the name → id map and where each instruction starts.
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
        base,
        imports: Vec::new(),
        names: name_table::NameTable::new(text.len()),
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
        spirv_core::binary::Header::version_word(version.0, version.1),
        opts.generator,
        0,
        0,
    ]);
    if text.iter().all(|b| b.is_ascii_whitespace()) {
        return Err(a.error_at(0, 0, "Missing assembly text.", AsmErrorKind::InvalidText));
    }
    let mut starts = Vec::new();
    while a.skip_ws() {
        if want_ids {
            starts.push(a.pos);
        }
        a.instruction()?;
    }
    a.out[3] = a.max_id + 1;
    let ids = a
        .order
        .iter()
        .map(|(n, id)| (String::from_utf8_lossy(n).into_owned(), *id))
        .collect();
    Ok(Assembled {
        words: a.out,
        ids,
        starts,
    })
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
    /// The sets known by name.
    registry: ExtInstRegistry,
    /// Every set, for the hint when a name is known only with `all_ext_inst_names`.
    base: ExtInstRegistry,
    /// The name of each `OpExtInstImport`, in order.
    imports: Vec<Vec<u8>>,
    names: name_table::NameTable,
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
