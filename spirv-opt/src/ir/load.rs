//! Building the IR from a module's words as spirv-opt's loader builds its `Module`
//! (`source/opt/ir_loader.cpp`, `IrLoader::AddInstruction` and `EndModule`): each
//! global instruction goes to its section by opcode (wherever it stands); debug lines
//! attach to the next instruction, and (spirv-opt's "extra line tracking") a copy of the
//! line in effect attaches to each later instruction of the block that has none, a
//! `DebugLine` copy taking a fresh id from the bound; `DebugScope` and `DebugNoScope`
//! become the scope of the instructions after them instead of instructions; the
//! debug-info sets' `DebugDeclare` and `DebugValue` before a function's first block go
//! to its header; non-semantic instructions after a function go to that function.
//!
//! Operands are split as SPIRV-Tools' parser splits them (the grammar's layout, an
//! extended instruction's operands by its set's grammar for the sets SPIRV-Tools knows,
//! every operand an id for other `NonSemantic.` sets). What spirv-opt's loader refuses
//! ([`LoadError`]) is refused here with its message where it has one.

use super::{DebugScope, Graph, Header, Inst, InstData, Ir, Kind, Owner, Section};
use spirv_core::__private::opt::is_block_terminator;
use spirv_core::ExtInstRegistry;
use spirv_core::binary::{RawInstRef, RawInstructions};
use spirv_core::grammar::KindClass;
use spirv_core::spv;
use spirv_core::spv::Opcode as O;
use spirv_core::walk::{self, Ids, Summary, WalkOptions};
use spirv_core::{DecodeError, DecodeErrorKind};
use std::sync::OnceLock;

/// Why a module cannot be loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum LoadError {
    /// The words do not read as a module.
    Decode(DecodeError),
    /// spirv-opt's loader or parser refuses the module: its message, and the index of
    /// the instruction (from 1, as spirv-opt counts them; 0 for the module).
    Refused {
        /// The message.
        message: String,
        /// The instruction's index.
        index: usize,
    },
}

impl core::fmt::Display for LoadError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            LoadError::Decode(e) => write!(f, "{e}"),
            LoadError::Refused { message, index } => write!(f, "{index}: {message}"),
        }
    }
}

impl std::error::Error for LoadError {}

impl From<DecodeError> for LoadError {
    fn from(e: DecodeError) -> Self {
        LoadError::Decode(e)
    }
}

/// The extended sets SPIRV-Tools 2025.5 lays out by their grammars.
pub(crate) fn spirv_tools_registry() -> &'static ExtInstRegistry {
    static REGISTRY: OnceLock<ExtInstRegistry> = OnceLock::new();
    REGISTRY.get_or_init(|| {
        let mut r = ExtInstRegistry::empty();
        for g in spirv_core::ext::VENDORED {
            if spirv_core::ext::spirv_tools_knows(g) {
                r.register(g);
            }
        }
        r
    })
}

/// What an extended set is to the loader (SPIRV-Tools' `spv_ext_inst_type_t`, as far as
/// the loader tells them apart).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SetClass {
    /// `OpenCL.DebugInfo.100`.
    OpenClDebugInfo,
    /// `NonSemantic.Shader.DebugInfo.100`.
    ShaderDebugInfo,
    /// `DebugInfo`.
    DebugInfo,
    /// Another `NonSemantic.` set.
    NonSemantic,
    /// Any other set.
    Other,
}

impl SetClass {
    /// The class of the set an import of this name selects.
    pub(crate) fn of(name: &str) -> SetClass {
        match name {
            "OpenCL.DebugInfo.100" => SetClass::OpenClDebugInfo,
            "NonSemantic.Shader.DebugInfo.100" => SetClass::ShaderDebugInfo,
            "DebugInfo" => SetClass::DebugInfo,
            n if n.starts_with("NonSemantic.") => SetClass::NonSemantic,
            _ => SetClass::Other,
        }
    }

    /// `spvExtInstIsDebugInfo`.
    fn is_debug_info(self) -> bool {
        matches!(
            self,
            SetClass::OpenClDebugInfo | SetClass::ShaderDebugInfo | SetClass::DebugInfo
        )
    }

    /// `spvExtInstIsNonSemantic`.
    fn is_non_semantic(self) -> bool {
        matches!(self, SetClass::ShaderDebugInfo | SetClass::NonSemantic)
    }
}

// The debug-info sets' instruction numbers the loader looks at.
const DEBUG_SCOPE: u32 = 23;
const DEBUG_NO_SCOPE: u32 = 24;
const DEBUG_DECLARE: u32 = 28;
const DEBUG_VALUE: u32 = 29;
const DEBUG_FUNCTION_DEFINITION: u32 = 101;
const DEBUG_LINE: u32 = 103;
const DEBUG_NO_LINE: u32 = 104;

/// The loader's state (`IrLoader`'s members).
struct Loader {
    ir: Ir,
    /// The class of each import, by id.
    sets: Vec<(u32, SetClass)>,
    /// The first import of `NonSemantic.Shader.DebugInfo.100` (spirv-opt's feature
    /// manager's), which decides `IsNoLine` and `IsDebugLineInst`.
    shader_set: u32,
    index: usize,
    func: Option<super::Func>,
    block: Option<super::Block>,
    graph: Option<Graph>,
    /// Lines not attached yet.
    lines: Vec<Inst>,
    /// The line in effect, to copy to instructions without lines of their own.
    last_line: Option<Inst>,
    scope: DebugScope,
}

/// Loads `words` as spirv-opt loads a module: straight from the words, instruction by
/// instruction, as SPIRV-Tools' parser hands them to the loader (no [`Module`] is built
/// on the way; ids are known as far as the instructions before have defined them, as
/// that parser knows them).
///
/// # Errors
/// The words do not read, or spirv-opt's loader refuses them.
pub fn load(words: &[u32]) -> Result<Ir, LoadError> {
    if words.first() == Some(&spirv_core::binary::MAGIC.swap_bytes()) {
        let swapped: Vec<u32> = words.iter().map(|w| w.swap_bytes()).collect();
        return load_words(&swapped);
    }
    load_words(words)
}

/// How many instructions `words` (a module, header included) holds, counted by their
/// word counts: room for the arena, sized by the input itself rather than by a number
/// it claims. Stops where the stream breaks (the read reports that).
fn count_instructions(words: &[u32]) -> usize {
    let mut at = 5;
    let mut n = 0;
    while let Some(&first) = words.get(at) {
        let count = (first >> 16) as usize;
        if count == 0 {
            break;
        }
        at += count;
        n += 1;
    }
    n
}

/// [`load`] of words in host order.
fn load_words(words: &[u32]) -> Result<Ir, LoadError> {
    let (h, raws) = RawInstructions::module(words)?;
    let mut src = SliceSource(raws);
    load_from(h, &mut src, words.len(), count_instructions(words))
}

/// Where the loader's instructions come from, in order.
trait Source {
    /// The next instruction (its operands borrowed until the next call), the stream's
    /// failure, or `None` at its end.
    fn next_inst(&mut self) -> Option<Result<RawInstRef<'_>, DecodeError>>;
}

/// The instructions of a module's words in memory.
struct SliceSource<'a>(RawInstructions<'a>);

impl Source for SliceSource<'_> {
    #[inline]
    fn next_inst(&mut self) -> Option<Result<RawInstRef<'_>, DecodeError>> {
        self.0.next()
    }
}

/// Why a module read from a byte stream cannot be loaded.
#[derive(Debug)]
pub(crate) enum ReadLoadError {
    /// Reading failed.
    Io(std::io::Error),
    /// The bytes read do not load ([`load`]'s failure on them).
    Load(LoadError),
}

/// Loads the module `r` holds, `len` bytes (its length when known; it sizes the
/// tables as the words' length does for [`load`]), read a chunk at a time so that the
/// module's words are never all in memory at once: the same IR, or the same failure,
/// as [`load`] of the bytes read whole as little-endian words (a module in the other
/// byte order swapped as [`load`] swaps it), a length not a multiple of 4 refused
/// first, as `spirv_core::binary::words_from_bytes` refuses it.
pub(crate) fn load_read(r: &mut dyn std::io::Read, len: u64) -> Result<Ir, ReadLoadError> {
    let words = usize::try_from(len / 4).unwrap_or(usize::MAX);
    let mut src = ReadSource::new(r);
    src.fill();
    let loaded = match spirv_core::binary::parse_header(&src.buf[..src.end]) {
        Ok(h) => {
            src.start = 5;
            // Room for the instructions of an average length of four words; a module
            // of shorter ones grows the arena (in place, for a large one).
            load_from(h, &mut src, words, words / 4)
        }
        Err(e) => Err(e.into()),
    };
    // What a read of the whole stream would have refused first.
    if loaded.is_err() {
        src.drain();
    }
    if let Some(e) = src.error.take() {
        return Err(ReadLoadError::Io(e));
    }
    if src.total % 4 != 0 {
        let len = usize::try_from(src.total).unwrap_or(usize::MAX);
        return Err(ReadLoadError::Load(LoadError::Decode(
            DecodeError::at_word(DecodeErrorKind::ByteLengthNotMultipleOf4 { len }, len / 4),
        )));
    }
    loaded.map_err(ReadLoadError::Load)
}

/// The words a [`ReadSource`] holds at once: room for the longest instruction (65535
/// words) and more, so that a refill is needed every few hundred KiB only.
const READ_WORDS: usize = 1 << 16;
/// The bytes a [`ReadSource`] asks the reader for at a time.
const READ_BYTES: usize = 1 << 16;

/// The instructions of a module read from a byte stream into a window of
/// [`READ_WORDS`] words, refilled when an instruction runs past its end.
struct ReadSource<'r> {
    r: &'r mut dyn std::io::Read,
    /// The window; `buf[start..end]` is not handed over yet.
    buf: Vec<u32>,
    start: usize,
    end: usize,
    /// The module's word offset of `buf[0]`.
    base: usize,
    /// The next instruction's index.
    index: usize,
    /// The bytes of a word read in part, at the front of `bytes`, and their number.
    bytes: Vec<u8>,
    partial: usize,
    /// The bytes read so far.
    total: u64,
    eof: bool,
    /// The module is in the other byte order (its first word is the magic swapped).
    swapped: bool,
    failed: bool,
    /// The read's failure; the stream ends there.
    error: Option<std::io::Error>,
}

impl<'r> ReadSource<'r> {
    fn new(r: &'r mut dyn std::io::Read) -> Self {
        ReadSource {
            r,
            buf: vec![0; READ_WORDS],
            start: 0,
            end: 0,
            base: 0,
            index: 0,
            bytes: vec![0; READ_BYTES],
            partial: 0,
            total: 0,
            eof: false,
            swapped: false,
            failed: false,
            error: None,
        }
    }

    /// Moves the words not handed over yet to the front of the window and reads until
    /// it is full or the stream ends.
    fn fill(&mut self) {
        self.buf.copy_within(self.start..self.end, 0);
        self.base += self.start;
        self.end -= self.start;
        self.start = 0;
        let first = self.base == 0 && self.end == 0;
        while !self.eof && self.end < self.buf.len() {
            let room = ((self.buf.len() - self.end) * 4).min(READ_BYTES) - self.partial;
            let n = match self
                .r
                .read(&mut self.bytes[self.partial..self.partial + room])
            {
                Ok(0) => {
                    self.eof = true;
                    break;
                }
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.error = Some(e);
                    self.eof = true;
                    break;
                }
            };
            self.total += n as u64;
            let have = self.partial + n;
            let whole = have / 4;
            let to = &mut self.buf[self.end..self.end + whole];
            let from = self.bytes[..whole * 4].chunks_exact(4);
            // One loop per byte order, each vectorized.
            if self.swapped {
                for (w, b) in to.iter_mut().zip(from) {
                    *w = u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
                }
            } else {
                for (w, b) in to.iter_mut().zip(from) {
                    *w = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                }
            }
            self.bytes.copy_within(whole * 4..have, 0);
            self.partial = have - whole * 4;
            self.end += whole;
        }
        if first && self.buf[..self.end].first() == Some(&spirv_core::binary::MAGIC.swap_bytes()) {
            self.swapped = true;
            spirv_core::binary::swap_words(&mut self.buf[..self.end]);
        }
    }

    /// Reads the rest of the stream, for its length.
    fn drain(&mut self) {
        while !self.eof {
            match self.r.read(&mut self.bytes) {
                Ok(0) => self.eof = true,
                Ok(n) => self.total += n as u64,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.error = Some(e);
                    self.eof = true;
                }
            }
        }
    }
}

impl Source for ReadSource<'_> {
    #[inline]
    fn next_inst(&mut self) -> Option<Result<RawInstRef<'_>, DecodeError>> {
        if self.start == self.end {
            if self.eof {
                return None;
            }
            self.fill();
        }
        let &first = self.buf[..self.end].get(self.start)?;
        if self.failed {
            return None;
        }
        let count = (first >> 16) as usize;
        let offset = self.base + self.start;
        let index = self.index;
        if count == 0 {
            self.failed = true;
            return Some(Err(DecodeError::new(
                DecodeErrorKind::ZeroWordCount,
                offset,
                index,
            )));
        }
        if self.start + count > self.end && !self.eof {
            self.fill();
        }
        if self.start + count > self.end {
            self.failed = true;
            return Some(Err(DecodeError::new(
                DecodeErrorKind::InstructionPastEnd {
                    word_count: first >> 16,
                    available: self.end - self.start,
                },
                offset,
                index,
            )));
        }
        let at = self.start;
        self.start += count;
        self.index += 1;
        Some(Ok(RawInstRef {
            opcode: first as u16,
            operands: &self.buf[at + 1..at + count],
            offset,
            index,
        }))
    }
}

/// Loads a module of `words` words (known, or an upper bound) whose header is `h` and
/// whose instructions `src` hands over, with room for `insts` instructions at first.
fn load_from(
    h: spirv_core::binary::Header,
    src: &mut impl Source,
    words: usize,
    insts: usize,
) -> Result<Ir, LoadError> {
    let header = Header {
        magic: 0x0723_0203,
        version: h.version,
        generator: h.generator,
        bound: h.bound,
        schema: h.schema,
    };
    let mut l = Loader {
        ir: Ir::new(header),
        sets: Vec::new(),
        shader_set: 0,
        index: 0,
        func: None,
        block: None,
        graph: None,
        lines: Vec::new(),
        last_line: None,
        scope: DebugScope::default(),
    };
    l.ir.reserve(insts);
    let registry = spirv_tools_registry();
    // What the instructions so far define (number types, imported sets, value types):
    // what the walk needs to lay out typed literals and extended instructions.
    let mut ids = Ids::new(words);
    // Sized once, not grown step by step (each step a copy): for the ids below the
    // bound, but no more than the words can define (a result takes two words at
    // least), so a claimed bound costs no more than the input's own size.
    ids.reserve_below(h.bound.min(u32::try_from(words / 2).unwrap_or(u32::MAX)));
    let mut parts: Vec<(Kind, u32, u32)> = Vec::with_capacity(16);
    // The opcodes met, and where each opcode's entry is among them (1 + its index; 0
    // for an opcode not met): two bytes per opcode up to the largest one met, since
    // opcodes run into the thousands.
    let mut met: Vec<OpcodeInfo> = Vec::new();
    let mut met_at: Vec<u16> = Vec::new();
    while let Some(raw) = src.next_inst() {
        let raw = raw?;
        l.index += 1;
        let opcode = raw.opcode;
        let ops = raw.operands;
        let decode = |kind, at: usize| DecodeError::new(kind, raw.offset + 1 + at, raw.index);
        let at = usize::from(opcode);
        let slot = match met_at.get(at) {
            Some(&slot) if slot != 0 => usize::from(slot - 1),
            _ => {
                let Some(info) = spv::GRAMMAR.instruction(u32::from(opcode)) else {
                    return Err(l.refuse(format!("Invalid opcode: {opcode}")));
                };
                if met_at.len() <= at {
                    met_at.resize(at + 1, 0);
                }
                met.push(OpcodeInfo::of(info));
                // One entry per opcode the grammar knows: far fewer than 2^16.
                met_at[at] = met.len() as u16;
                met.len() - 1
            }
        };
        let known = &met[slot];
        let (info, shaped) = (known.info, &known.shaped);
        // Most instructions: one laid out by its shape inside a block, with no lines or
        // scope to attach, goes straight to the block (what `Loader::add` does then).
        if known.plain {
            if let Some(b) = l.block.filter(|_| l.plain_state()) {
                if let Some(kinds) = shaped.as_ref().and_then(|s| s.packed_kinds(ops)) {
                    let data = InstData::from_packed_kinds(opcode, kinds, ops);
                    l.record(&mut ids, registry, opcode, ops, &data, &decode)?;
                    l.ir.create_in_block(b, data);
                    continue;
                }
            }
        }
        parts.clear();
        // Most instructions: a few one-word operands whose kinds follow from the length,
        // packed straight away (no parts). A longer one the shape lays out still needs
        // no walk; a short one it does not lay out needs one.
        let packed = shaped.as_ref().and_then(|s| s.packed_kinds(ops));
        let laid_out = packed.is_some()
            || (ops.len() > super::inst::INLINE
                && shaped.as_ref().is_some_and(|s| s.kinds(ops, &mut parts)));
        if !laid_out {
            parts.clear();
            let mut bad = false;
            let summary = walk::walk(info, ops, &ids, WalkOptions::default(), &mut |p| {
                bad |= p.unknown;
                parts.push((kind_of(p.kind), p.start as u32, p.len as u32));
            });
            match summary {
                Ok(s) if !bad && !s.saw_unknown => {}
                Err((kind, at)) if !bad => return Err(decode(kind, at).into()),
                _ => {
                    return Err(l.refuse(format!(
                        "the operands of {} do not read as SPIRV-Tools reads them",
                        info.opname
                    )));
                }
            }
        }
        let data = match packed {
            Some(kinds) => InstData::from_packed_kinds(opcode, kinds, ops),
            None => InstData::from_walk(opcode, &parts, ops),
        };
        l.record(&mut ids, registry, opcode, ops, &data, &decode)?;
        if opcode == O::ExtInstImport.0 {
            let name = data.string(1);
            let class = SetClass::of(&name);
            if class == SetClass::ShaderDebugInfo && l.shader_set == 0 {
                l.shader_set = data.result_id();
            }
            l.sets.push((data.result_id(), class));
        }
        l.add(data)?;
    }
    l.end();
    Ok(l.ir)
}

/// What the loader keeps of an opcode once it has met it: its grammar entry, its
/// shaped layout, and whether its instructions inside a block go straight to the block.
struct OpcodeInfo {
    info: &'static spirv_core::grammar::InstructionInfo,
    shaped: Option<Shaped>,
    /// Neither a line, an extended instruction, an import, nor an instruction that
    /// opens or closes a function, block or graph: inside a block, with no lines or
    /// scope in effect ([`Loader::plain_state`]), `Loader::add` appends it to the
    /// block and does nothing else.
    plain: bool,
}

impl OpcodeInfo {
    fn of(info: &'static spirv_core::grammar::InstructionInfo) -> OpcodeInfo {
        let op = O(info.opcode as u16);
        let plain = !(matches!(
            op,
            O::Function
                | O::FunctionEnd
                | O::Label
                | O::GraphARM
                | O::GraphEndARM
                | O::GraphConstantARM
                | O::Line
                | O::NoLine
                | O::ExtInstImport
        ) || is_extended(op)
            || is_block_terminator(op));
        OpcodeInfo {
            info,
            shaped: Shaped::of(info),
            plain,
        }
    }
}

/// The packed kinds of [`Shaped::by_len`] for a length the shape does not lay out
/// without looking at the words (the count in the top byte is at most [`INLINE`], so no
/// packing is this).
///
/// [`INLINE`]: super::inst::INLINE
const BY_WORDS: u32 = u32::MAX;

/// The operands of an opcode whose layout is made of one-word operands (a head of
/// required and optional ones, then a repeated unit), so that an instruction's operand
/// kinds follow from its length alone when its enumerants take no parameters: the
/// walker's work, without walking.
#[derive(Debug, Clone)]
struct Shaped {
    shape: spirv_core::grammar::Shape,
    head: Vec<(Kind, &'static spirv_core::grammar::OperandKind)>,
    repeat: Vec<(Kind, &'static spirv_core::grammar::OperandKind)>,
    /// For each length up to [`super::inst::INLINE`], the kinds [`Shaped::packed_kinds`]
    /// gives an instruction of that length when no enumerant is among them (no word to
    /// look at), else [`BY_WORDS`].
    by_len: [u32; super::inst::INLINE + 1],
}

impl Shaped {
    /// The shaped layout of `info`, if it has one.
    fn of(info: &'static spirv_core::grammar::InstructionInfo) -> Option<Shaped> {
        use spirv_core::grammar::Quantifier;
        let shape = info.shape?;
        let mut head = Vec::new();
        let mut repeat = Vec::new();
        let unit = |k: &'static spirv_core::grammar::OperandKind, out: &mut Vec<_>| -> Option<()> {
            let parts: Vec<&'static spirv_core::grammar::OperandKind> =
                if k.class == KindClass::Composite {
                    k.bases.to_vec()
                } else {
                    vec![k]
                };
            for p in parts {
                match p.class {
                    KindClass::ResultType
                    | KindClass::Result
                    | KindClass::Id
                    | KindClass::Integer
                    | KindClass::Float
                    | KindClass::ValueEnum
                    | KindClass::BitEnum => out.push((kind_of(p), p)),
                    _ => return None,
                }
            }
            Some(())
        };
        let fixed_and_optional = usize::from(shape.fixed) + usize::from(shape.optional);
        for op in info.operands {
            // Optional operands of other kinds after the shape's (`OpLoad`'s memory
            // operands) are absent from every instruction the shape accepts.
            if shape.repeat == 0 && head.len() == fixed_and_optional {
                break;
            }
            match op.quantifier {
                Quantifier::One | Quantifier::Optional => {
                    if !repeat.is_empty() {
                        return None;
                    }
                    unit(op.kind, &mut head)?;
                }
                Quantifier::Variadic => {
                    if !repeat.is_empty() {
                        return None;
                    }
                    unit(op.kind, &mut repeat)?;
                }
            }
        }
        if head.len() != fixed_and_optional || repeat.len() != usize::from(shape.repeat) {
            return None;
        }
        let mut s = Shaped {
            shape,
            head,
            repeat,
            by_len: [BY_WORDS; super::inst::INLINE + 1],
        };
        let zeros = [0u32; super::inst::INLINE];
        for n in 0..=super::inst::INLINE {
            // The words matter for enumerants only (their parameters).
            let head = s.head.len().min(n);
            if s.shape.enums & ((1u64 << head) - 1) != 0 || (n > head && s.shape.repeat_enums != 0)
            {
                continue;
            }
            let mut packed = (n as u32) << 24;
            if s.each_kind(&zeros[..n], |at, kind| {
                packed |= u32::from(kind as u8) << (4 * at);
            }) {
                s.by_len[n] = packed;
            }
        }
        Some(s)
    }

    /// The parts of `ops`, if its length fits and its enumerants take no parameters.
    fn kinds(&self, ops: &[u32], parts: &mut Vec<(Kind, u32, u32)>) -> bool {
        self.each_kind(ops, |at, kind| parts.push((kind, at as u32, 1)))
    }

    /// The kinds of `ops` packed as the inline form of [`InstData`] packs them, if
    /// [`Shaped::kinds`] would give them and they fit inline.
    #[inline(always)]
    fn packed_kinds(&self, ops: &[u32]) -> Option<u32> {
        let known = *self.by_len.get(ops.len())?;
        if known != BY_WORDS {
            return Some(known);
        }
        self.packed_kinds_by_words(ops)
    }

    /// [`Shaped::packed_kinds`] of a length whose kinds are not known from it alone.
    #[inline(never)]
    fn packed_kinds_by_words(&self, ops: &[u32]) -> Option<u32> {
        let mut packed = (ops.len() as u32) << 24;
        self.each_kind(ops, |at, kind| packed |= u32::from(kind as u8) << (4 * at))
            .then_some(packed)
    }

    /// Calls `emit` with each operand's index and kind, if its length fits and its
    /// enumerants take no parameters (else returns false, maybe after some calls).
    #[inline(always)]
    fn each_kind(&self, ops: &[u32], mut emit: impl FnMut(usize, Kind)) -> bool {
        if !self.shape.accepts(ops.len()) {
            return false;
        }
        let plain = |k: &'static spirv_core::grammar::OperandKind, w: u32| match k.class {
            KindClass::ValueEnum => k.enumerant(w).is_some_and(|e| e.parameters.is_empty()),
            KindClass::BitEnum => spirv_core::grammar::set_bits(w)
                .all(|b| k.enumerant(b).is_some_and(|e| e.parameters.is_empty())),
            _ => true,
        };
        let head = self.head.len().min(ops.len());
        let mut enums = self.shape.enums;
        while enums != 0 {
            let at = enums.trailing_zeros() as usize;
            enums &= enums - 1;
            if at < head && !plain(self.head[at].1, ops[at]) {
                return false;
            }
        }
        for (at, &(kind, _)) in self.head[..head].iter().enumerate() {
            emit(at, kind);
        }
        if ops.len() > head {
            let unit = self.repeat.len();
            if unit == 0 {
                return false;
            }
            // The unit's operands in turn (a counter, not a division per operand).
            let mut in_unit = 0;
            for (at, &w) in ops.iter().enumerate().skip(head) {
                let (kind, k) = self.repeat[in_unit];
                in_unit += 1;
                if in_unit == unit {
                    in_unit = 0;
                }
                if self.shape.repeat_enums != 0 && !plain(k, w) {
                    return false;
                }
                emit(at, kind);
            }
        }
        true
    }
}

/// The loader's kind of a walked operand.
fn kind_of(k: &'static spirv_core::grammar::OperandKind) -> Kind {
    match k.class {
        KindClass::ResultType => Kind::TypeId,
        KindClass::Result => Kind::ResultId,
        KindClass::Id => match k.name {
            "IdScope" => Kind::ScopeId,
            "IdMemorySemantics" => Kind::MemorySemanticsId,
            _ => Kind::Id,
        },
        KindClass::Integer => Kind::Literal,
        KindClass::Float => Kind::Float,
        KindClass::String => Kind::String,
        KindClass::ContextNumber => Kind::TypedNumber,
        KindClass::ExtInstNumber => Kind::ExtInstNumber,
        KindClass::SpecConstantOpcode => Kind::SpecConstantOpNumber,
        KindClass::ValueEnum => Kind::Enum,
        KindClass::BitEnum => Kind::Mask,
        KindClass::Composite => Kind::Literal,
    }
}

/// `spvIsExtendedInstruction`.
fn is_extended(op: O) -> bool {
    matches!(op, O::ExtInst | O::ExtInstWithForwardRefsKHR)
}

impl Loader {
    fn refuse(&self, message: String) -> LoadError {
        LoadError::Refused {
            message,
            index: self.index,
        }
    }

    /// No lines wait to attach, no line is in effect, the scope is the default and no
    /// graph is open: [`OpcodeInfo::plain`] instructions then go straight to the block.
    #[inline]
    fn plain_state(&self) -> bool {
        self.lines.is_empty()
            && self.last_line.is_none()
            && self.scope == DebugScope::default()
            && self.graph.is_none()
    }

    /// What SPIRV-Tools' parser checks of an instruction's result before the loader
    /// sees it, and what it defines recorded in `ids`.
    #[inline(always)]
    fn record(
        &self,
        ids: &mut Ids,
        registry: &spirv_core::ExtInstRegistry,
        opcode: u16,
        ops: &[u32],
        data: &InstData,
        decode: &dyn Fn(DecodeErrorKind, usize) -> DecodeError,
    ) -> Result<(), LoadError> {
        // A zero type or result id is refused (a result id 0 would be defined again by
        // any copy a pass makes).
        if data.has_type() && data.type_id() == 0 {
            return Err(self.refuse("Error: Type Id is 0".into()));
        }
        if data.has_result() && data.result_id() == 0 {
            return Err(self.refuse("Error: Result Id is 0".into()));
        }
        let summary = Summary {
            result_type: data.has_type().then(|| data.type_id()),
            result_id: data.has_result().then(|| data.result_id()),
            saw_unknown: false,
        };
        walk::observe(ids, registry, opcode, ops, &summary).map_err(|k| match k {
            DecodeErrorKind::IdRedefined { id } => {
                self.refuse(format!("Id {id} is defined more than once"))
            }
            k => decode(k, 1).into(),
        })?;
        // A zero id among the other operands is refused too, in the parser's words (a
        // scope or memory semantics id by its operand type's name): passes that copy or
        // split what an id names wrote such a module with ids defined twice.
        let mut zero = None;
        data.for_each_operand(|_, kind, words| {
            if zero.is_none() && words.first() == Some(&0) {
                zero = match kind {
                    Kind::Id => Some("Id is 0"),
                    Kind::ScopeId => Some("scope ID is 0"),
                    Kind::MemorySemanticsId => Some("memory semantics ID is 0"),
                    _ => None,
                };
            }
        });
        match zero {
            Some(message) => Err(self.refuse(message.into())),
            None => Ok(()),
        }
    }

    /// The class of the set an extended instruction imports.
    fn set_class(&self, d: &InstData) -> SetClass {
        let set = d.in_word(0);
        self.sets
            .iter()
            .find(|&&(id, _)| id == set)
            .map_or(SetClass::Other, |&(_, c)| c)
    }

    /// `IsNoLine` of a line instruction.
    fn is_no_line(&self, i: Inst) -> bool {
        let d = self.ir.data(i);
        d.opcode() == O::NoLine
            || (d.opcode() == O::ExtInst
                && self.shader_set != 0
                && d.in_word(0) == self.shader_set
                && d.in_word(1) == DEBUG_NO_LINE)
    }

    /// `IsDebugLineInst`.
    fn is_debug_line_inst(&self, i: Inst) -> bool {
        let d = self.ir.data(i);
        d.opcode() == O::ExtInst
            && self.shader_set != 0
            && d.in_word(0) == self.shader_set
            && matches!(d.in_word(1), DEBUG_LINE | DEBUG_NO_LINE)
    }

    /// A copy of line `i` with a new creation number (and a fresh id for a
    /// `DebugLine`): spirv-opt's `Clone` of a line.
    fn clone_line(&mut self, i: Inst) -> Result<Inst, LoadError> {
        let d = self.ir.data(i).clone();
        let c = self.ir.create(d);
        if self.is_debug_line_inst(c) {
            let id = self
                .ir
                .take_next_id()
                .ok_or_else(|| self.refuse("ID overflow. Try running compact-ids.".into()))?;
            self.ir.data_mut(c).set_result_id(id);
        }
        Ok(c)
    }

    /// `IrLoader::AddInstruction`.
    #[inline]
    fn add(&mut self, data: InstData) -> Result<(), LoadError> {
        let opcode = data.opcode();
        let ext = is_extended(opcode);
        let class = if ext {
            self.set_class(&data)
        } else {
            SetClass::Other
        };
        let number = if ext { data.in_word(1) } else { 0 };
        // Lines: kept for the next instruction.
        if matches!(opcode, O::Line | O::NoLine)
            || (ext
                && class == SetClass::ShaderDebugInfo
                && matches!(number, DEBUG_LINE | DEBUG_NO_LINE))
        {
            self.ir.contains_debug_info = true;
            self.last_line = None;
            let mut data = data;
            data.set_scope(self.scope);
            let l = self.ir.create(data);
            self.lines.push(l);
            return Ok(());
        }
        // Scopes: the state of the instructions after them.
        if ext && class.is_debug_info() {
            if number == DEBUG_SCOPE {
                let n = data.num_in_operands();
                self.scope = DebugScope {
                    lexical_scope: data.in_word(2),
                    inlined_at: if n > 3 { data.in_word(3) } else { 0 },
                };
                self.ir.contains_debug_info = true;
                return Ok(());
            }
            if number == DEBUG_NO_SCOPE {
                self.scope = DebugScope::default();
                self.ir.contains_debug_info = true;
                return Ok(());
            }
        }
        let inst = self.ir.create(data);
        let pending = std::mem::take(&mut self.lines);
        if !pending.is_empty() {
            let back = *pending.last().expect("a line");
            self.ir.set_lines(inst, pending);
            if !self.is_no_line(back) {
                self.last_line = Some(self.clone_line(back)?);
            }
        } else if let Some(template) = self.last_line {
            self.ir.set_scope(template, self.scope);
            // The copy attached is the template itself in spirv-opt (same creation
            // number); the next template is a copy of it.
            let d = self.ir.data(template).clone();
            let copy = self.ir.create(d);
            let uid = self.ir.uid(template);
            self.ir.set_uid(copy, uid);
            self.ir.push_line(inst, copy);
            self.last_line = Some(self.clone_line(copy)?);
        }
        self.place(inst, opcode, ext, class, number)
    }

    /// Puts a new instruction where it belongs.
    #[inline]
    fn place(
        &mut self,
        inst: Inst,
        opcode: O,
        ext: bool,
        class: SetClass,
        number: u32,
    ) -> Result<(), LoadError> {
        match opcode {
            O::Function => {
                if self.func.is_some() {
                    return Err(self.refuse("function inside function".into()));
                }
                self.func = Some(self.ir.new_func(inst));
            }
            O::FunctionEnd => {
                let Some(f) = self.func else {
                    return Err(
                        self.refuse("OpFunctionEnd without corresponding OpFunction".into())
                    );
                };
                if self.block.is_some() {
                    return Err(self.refuse("OpFunctionEnd inside basic block".into()));
                }
                self.ir.set_func_end(f, inst);
                self.ir.push_func(f);
                self.func = None;
            }
            O::Label => {
                if self.func.is_none() {
                    return Err(self.refuse("OpLabel outside function".into()));
                }
                if self.block.is_some() {
                    return Err(self.refuse("OpLabel inside basic block".into()));
                }
                self.block = Some(self.ir.new_block(inst));
            }
            op if is_block_terminator(op) => {
                let Some(f) = self.func else {
                    return Err(self.refuse("terminator instruction outside function".into()));
                };
                let Some(b) = self.block else {
                    return Err(self.refuse("terminator instruction outside basic block".into()));
                };
                if self.scope.lexical_scope != 0 {
                    self.ir.set_scope(inst, self.scope);
                }
                self.ir.push_block_inst(b, inst);
                self.ir.push_block(f, b);
                self.block = None;
                self.scope = DebugScope::default();
                self.last_line = None;
            }
            O::GraphARM => {
                if self.graph.is_some() {
                    return Err(self.refuse("graph inside graph".into()));
                }
                self.ir
                    .set_owner(inst, Owner::Graph(self.ir.graphs.len() as u32));
                self.graph = Some(Graph {
                    def: Some(inst),
                    ..Graph::default()
                });
            }
            O::GraphEndARM => {
                let Some(mut g) = self.graph.take() else {
                    return Err(
                        self.refuse("OpGraphEndARM without corresponding OpGraphARM".into())
                    );
                };
                self.ir
                    .set_owner(inst, Owner::Graph(self.ir.graphs.len() as u32));
                g.end = Some(inst);
                self.ir.graphs.push(g);
            }
            O::GraphConstantARM => self.ir.push_global(Section::TypesValues, inst),
            _ if self.graph.is_some() => {
                let owner = Owner::Graph(self.ir.graphs.len() as u32);
                self.ir.set_owner(inst, owner);
                let g = self.graph.as_mut().expect("a graph");
                match opcode {
                    O::GraphInputARM => g.inputs.push(inst),
                    O::GraphSetOutputARM => g.outputs.push(inst),
                    O::ExtInst | O::CompositeExtract => g.insts.push(inst),
                    _ => {
                        return Err(self.refuse(format!(
                            "unhandled instruction (opcode {}) inside graph",
                            opcode.0
                        )));
                    }
                }
            }
            _ if self.func.is_none() => self.place_global(inst, opcode, ext, class)?,
            _ => self.place_in_function(inst, opcode, ext, class, number)?,
        }
        Ok(())
    }

    /// An instruction outside functions: its section by opcode.
    fn place_global(
        &mut self,
        inst: Inst,
        opcode: O,
        ext: bool,
        class: SetClass,
    ) -> Result<(), LoadError> {
        let section = match opcode {
            O::Capability | O::ConditionalCapabilityINTEL => Section::Capability,
            O::Extension | O::ConditionalExtensionINTEL => Section::Extension,
            O::ExtInstImport => Section::ExtInstImport,
            O::MemoryModel | O::SamplerImageAddressingModeNV => {
                let s = if opcode == O::MemoryModel {
                    Section::MemoryModel
                } else {
                    Section::SampledImageAddressMode
                };
                // One at most: a second replaces the first.
                if let Some(old) = self.ir.section_first(s) {
                    self.ir.unlink(old);
                    self.ir.mark_dead(old);
                }
                s
            }
            O::EntryPoint => Section::EntryPoint,
            O::GraphEntryPointARM => Section::GraphEntryPoint,
            O::ExecutionMode | O::ExecutionModeId => Section::ExecutionMode,
            O::SourceContinued | O::Source | O::SourceExtension | O::String => Section::Debug1,
            O::Name | O::MemberName => Section::Debug2,
            O::ModuleProcessed => Section::Debug3,
            op if is_annotation(op) => Section::Annotation,
            op if is_type(op) => Section::TypesValues,
            op if spirv_core::__private::opt::is_constant(op)
                || matches!(op, O::Variable | O::UntypedVariableKHR | O::Undef) =>
            {
                Section::TypesValues
            }
            _ if ext && class.is_debug_info() => Section::ExtInstDebugInfo,
            _ if ext && class.is_non_semantic() => match self.ir.functions().last().copied() {
                None => Section::TypesValues,
                Some(f) => {
                    self.ir.push_to(Owner::NonSemantic(f.0), inst);
                    return Ok(());
                }
            },
            _ => {
                return Err(self.refuse(format!(
                    "Unhandled inst type (opcode: {}) found outside function definition.",
                    opcode.0
                )));
            }
        };
        self.ir.push_global(section, inst);
        Ok(())
    }

    /// An instruction inside a function.
    #[inline]
    fn place_in_function(
        &mut self,
        inst: Inst,
        opcode: O,
        ext: bool,
        class: SetClass,
        number: u32,
    ) -> Result<(), LoadError> {
        let f = self.func.expect("in a function");
        if matches!(opcode, O::LoopMerge | O::SelectionMerge) {
            self.scope = DebugScope::default();
        }
        if self.scope.lexical_scope != 0 {
            self.ir.set_scope(inst, self.scope);
        }
        if ext && class.is_debug_info() {
            match class {
                SetClass::ShaderDebugInfo => match number {
                    DEBUG_DECLARE
                    | DEBUG_VALUE
                    | DEBUG_SCOPE
                    | DEBUG_NO_SCOPE
                    | DEBUG_FUNCTION_DEFINITION => match self.block {
                        // spirv-opt reports this and goes on without the instruction.
                        None => self.ir.mark_dead(inst),
                        Some(b) => self.ir.push_block_inst(b, inst),
                    },
                    _ => {
                        return Err(self.refuse(
                            "Debug info extension instruction other than DebugScope, DebugNoScope, DebugDeclare, and DebugValue found inside function".into(),
                        ));
                    }
                },
                _ => match number {
                    DEBUG_DECLARE | DEBUG_VALUE => match self.block {
                        None => self.ir.push_to(Owner::HeaderDebug(f.0), inst),
                        Some(b) => self.ir.push_block_inst(b, inst),
                    },
                    _ => {
                        return Err(self.refuse(
                            "Debug info extension instruction other than DebugScope, DebugNoScope, DebugDeclare, and DebugValue found inside function".into(),
                        ));
                    }
                },
            }
            return Ok(());
        }
        match self.block {
            None => {
                if opcode != O::FunctionParameter {
                    return Err(self.refuse(format!(
                        "Non-OpFunctionParameter (opcode: {}) found inside function but outside basic block",
                        opcode.0
                    )));
                }
                self.ir.push_param(f, inst);
            }
            Some(b) => self.ir.push_block_inst(b, inst),
        }
        Ok(())
    }

    /// `IrLoader::EndModule`: a block or function left open is kept; lines left over
    /// go after everything.
    fn end(&mut self) {
        if let (Some(b), Some(f)) = (self.block.take(), self.func) {
            self.ir.push_block(f, b);
        }
        if let Some(f) = self.func.take() {
            self.ir.push_func(f);
        }
        let trailing = std::mem::take(&mut self.lines);
        for &l in &trailing {
            self.ir.set_owner(l, Owner::Trailing);
        }
        self.ir.trailing = trailing;
    }
}

/// `IsAnnotationInst`.
pub(crate) fn is_annotation(op: O) -> bool {
    (O::Decorate.0..=O::GroupMemberDecorate.0).contains(&op.0)
        || matches!(
            op,
            O::DecorateId | O::DecorateString | O::MemberDecorateString
        )
}

/// `IsTypeInst`: SPIRV-Tools' types and `OpTypeForwardPointer`.
pub(crate) fn is_type(op: O) -> bool {
    spirv_core::__private::opt::generates_type(op) || op == O::TypeForwardPointer
}
