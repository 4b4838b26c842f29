//! The module model.
//!
//! **Representation: words plus typed views.** A [`Module`] keeps the module's words in
//! one vector (header included, in host order), an index of instruction offsets, the
//! boundaries of the logical-layout sections (spec §2.4) and of functions and blocks.
//! Reading validates every operand against the grammar tables and records id types, but
//! builds no per-instruction objects; [`InstRef::decode`] gives the typed
//! [`spv::Instruction`] on demand. This keeps reading fast and memory near the binary's
//! size, makes the round trip byte-exact by construction (unknown opcodes, enumerants and
//! sets included), and still offers typed access.
//!
//! Sections are assigned in file order and only move forward: an instruction allowed in
//! several places ([`Section::either_scope`], unknown opcodes) or that is out of place
//! stays in the current section, so writing sections in order reproduces the input
//! exactly.

mod requirements;
mod views;

pub use requirements::Requirements;
pub use views::{BlockRef, ExtInstRef, FunctionRef, InstRef};

use crate::__private::Vec;
use crate::binary::{self, Header, RawInstructions};
use crate::error::{DecodeError, DecodeErrorKind};
use crate::grammar::InstructionInfo;
use crate::spv;
use crate::types::Id;
use crate::walk::{self, ExtInstRegistry, Ids, WalkOptions};
use core::ops::Range;

/// A logical-layout section (SPIR-V spec §2.4), in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Section {
    /// `OpCapability`.
    Capability,
    /// `OpExtension`.
    Extension,
    /// `OpExtInstImport`.
    ExtInstImport,
    /// `OpMemoryModel`.
    MemoryModel,
    /// `OpEntryPoint`.
    EntryPoint,
    /// `OpExecutionMode`, `OpExecutionModeId`.
    ExecutionMode,
    /// `OpString`, `OpSource*`.
    DebugSource,
    /// `OpName`, `OpMemberName`.
    DebugName,
    /// `OpModuleProcessed`.
    DebugModuleProcessed,
    /// Decorations.
    Annotation,
    /// Types, constants, global variables.
    Global,
    /// Function declarations and definitions.
    Function,
}

impl Section {
    /// All sections in layout order.
    pub const ALL: [Section; 12] = [
        Section::Capability,
        Section::Extension,
        Section::ExtInstImport,
        Section::MemoryModel,
        Section::EntryPoint,
        Section::ExecutionMode,
        Section::DebugSource,
        Section::DebugName,
        Section::DebugModuleProcessed,
        Section::Annotation,
        Section::Global,
        Section::Function,
    ];

    /// Whether an instruction is valid both among the globals and inside functions
    /// (spec §2.4): debug line instructions, `OpExtInst` (non-semantic instructions are
    /// global), `OpUndef` and `OpNop`. [`Section::of`] gives them no section; the reader
    /// leaves them in the current one and the [`Builder`](crate::Builder) puts one given
    /// outside a function with the globals. The one list of them.
    pub fn either_scope(opcode: spv::Opcode) -> bool {
        use spv::Opcode as O;
        matches!(opcode, O::Line | O::NoLine | O::ExtInst | O::Undef | O::Nop)
    }

    /// The section an instruction belongs to, or `None` for instructions allowed in
    /// several places (they stay in the current one).
    pub fn of(opcode: spv::Opcode, info: Option<&InstructionInfo>) -> Option<Section> {
        use spv::Opcode as O;
        Some(match opcode {
            O::Capability => Section::Capability,
            O::Extension => Section::Extension,
            O::ExtInstImport => Section::ExtInstImport,
            O::MemoryModel => Section::MemoryModel,
            O::EntryPoint => Section::EntryPoint,
            O::ExecutionMode | O::ExecutionModeId => Section::ExecutionMode,
            O::String | O::SourceExtension | O::Source | O::SourceContinued => Section::DebugSource,
            O::Name | O::MemberName => Section::DebugName,
            O::ModuleProcessed => Section::DebugModuleProcessed,
            O::Variable => Section::Global,
            O::Function => Section::Function,
            // The rest by the grammar's instruction classes.
            _ => match info.and_then(spv::Class::of) {
                Some(spv::Class::Annotation) => Section::Annotation,
                Some(spv::Class::TypeDeclaration | spv::Class::ConstantCreation) => Section::Global,
                _ => return None,
            },
        })
    }
}

/// How to read a module.
#[derive(Debug, Clone, Copy, Default)]
pub struct ReadOptions<'r> {
    /// Unknown opcodes, enumerants, extended sets and instructions are errors, and so is
    /// any id that is 0 or not below the bound. By default they are kept as raw words.
    pub strict: bool,
    /// Extended sets to know; `None` = every vendored set.
    pub registry: Option<&'r ExtInstRegistry>,
    /// Check only the global instructions: inside functions, instructions are split by
    /// their word counts but their operands are not read, so reading costs little more
    /// than iterating the words. For tools that look at the globals only, such as
    /// [`reflect`](crate::reflect); a malformed function body is then not reported, and
    /// values defined in functions have no recorded type.
    pub globals_only: bool,
}

/// A function: its instruction range and its blocks.
#[derive(Debug, Clone, PartialEq, Eq)]
struct FunctionRec {
    insts: Range<u32>,
    blocks: Range<u32>,
}

/// A SPIR-V module: words plus typed views.
///
/// The module keeps its words in one vector (header included, host order) with an
/// index of instruction offsets and the boundaries of the logical-layout sections,
/// functions and blocks. Reading validates every operand against the grammar tables
/// and records id types, but builds no per-instruction objects; [`InstRef::decode`]
/// gives the typed [`spv::Instruction`] on demand. Reading stays fast and memory near
/// the binary's size, the round trip is byte-exact by construction (unknown opcodes,
/// enumerants and sets included), and typed access is one call away.
///
/// Sections are assigned in file order and only move forward, so an out-of-place
/// instruction stays where it was and writing reproduces the input exactly.
#[derive(Debug, Clone)]
pub struct Module {
    header: Header,
    words: Vec<u32>,
    offsets: Vec<u32>,
    sections: [u32; 13],
    functions: Vec<FunctionRec>,
    blocks: Vec<u32>,
    ids: Ids,
}

impl PartialEq for Module {
    fn eq(&self, other: &Self) -> bool {
        self.header == other.header && self.words[5..] == other.words[5..]
    }
}

impl Module {
    /// Reads a module from bytes in either byte order.
    ///
    /// # Errors
    /// See [`DecodeErrorKind`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Module, DecodeError> {
        let (words, _) = binary::words_from_bytes(bytes)?;
        Self::read_owned(words, &ReadOptions::default())
    }

    /// Reads a module from words (host order; a byte-swapped magic is accepted and the
    /// words are swapped).
    ///
    /// # Errors
    /// See [`DecodeErrorKind`].
    pub fn from_words(words: &[u32]) -> Result<Module, DecodeError> {
        Self::read(words, &ReadOptions::default())
    }

    /// Reads with options.
    ///
    /// # Errors
    /// See [`DecodeErrorKind`].
    pub fn read(words: &[u32], opts: &ReadOptions<'_>) -> Result<Module, DecodeError> {
        Self::read_owned(words.to_vec(), opts)
    }

    /// Reads, taking ownership of the words.
    ///
    /// # Errors
    /// See [`DecodeErrorKind`].
    pub fn read_owned(mut words: Vec<u32>, opts: &ReadOptions<'_>) -> Result<Module, DecodeError> {
        if words.first() == Some(&binary::MAGIC.swap_bytes()) {
            for w in &mut words {
                *w = w.swap_bytes();
            }
        }
        let default_registry;
        let registry = match opts.registry {
            Some(r) => r,
            None => {
                default_registry = ExtInstRegistry::default();
                &default_registry
            }
        };
        let (header, iter) = RawInstructions::module(&words)?;
        let mut m = Module {
            header,
            words: Vec::new(),
            offsets: Vec::with_capacity(words.len() / 4),
            sections: [0; 13],
            functions: Vec::new(),
            blocks: Vec::new(),
            ids: Ids::new(words.len()),
        };
        let wopts = WalkOptions {
            strict: opts.strict,
            ..WalkOptions::default()
        };
        let mut current = Section::Capability;
        let mut function_start: Option<(u32, u32)> = None;
        for raw in iter {
            let raw = raw?;
            let index = m.offsets.len() as u32;
            let opcode = spv::Opcode(raw.opcode);
            let info = spv::GRAMMAR.instruction(u32::from(raw.opcode));
            let err = |kind, at: usize| DecodeError::new(kind, raw.offset + 1 + at, raw.index);
            let unchecked =
                opts.globals_only && function_start.is_some() && opcode != spv::Opcode::FunctionEnd;
            match info {
                _ if unchecked => {}
                // Fast path: a layout of plain words needs only a length check.
                Some(info)
                    if !opts.strict
                        && info.shape.is_some_and(|s| s.accepts(raw.operands.len())) =>
                {
                    if let Some(shape) = info.shape {
                        let at = |i: u8| (i != u8::MAX).then(|| raw.operands[usize::from(i)]);
                        let summary = walk::Summary {
                            result_type: at(shape.result_type),
                            result_id: at(shape.result),
                            saw_unknown: false,
                        };
                        if let Err(kind) =
                            walk::observe(&mut m.ids, registry, raw.opcode, raw.operands, &summary)
                        {
                            return Err(err(kind, 1));
                        }
                    }
                }
                Some(info) => {
                    let bound = header.bound;
                    let mut bad_id = None;
                    let mut unknown = false;
                    let res = walk::walk(info, raw.operands, &m.ids, wopts, &mut |p| {
                        unknown |= p.unknown;
                        if opts.strict && p.kind.is_id() && bad_id.is_none() {
                            let id = raw.operands[p.start];
                            if id == 0 || id >= bound {
                                bad_id = Some((id, p.start));
                            }
                        }
                    });
                    match res {
                        Ok(summary) => {
                            if let Some((id, at)) = bad_id {
                                return Err(err(DecodeErrorKind::IdOutOfBounds { id, bound }, at));
                            }
                            if let Err(kind) = walk::observe(
                                &mut m.ids,
                                registry,
                                raw.opcode,
                                raw.operands,
                                &summary,
                            ) {
                                return Err(err(kind, 1));
                            }
                            if opts.strict && walk::unknown_import(&m.ids, raw.opcode) {
                                return Err(err(DecodeErrorKind::UnknownExtInstImport, 1));
                            }
                        }
                        // An unknown enumerant may have taken parameters we cannot see:
                        // keep the instruction as it is.
                        Err(_) if unknown && !opts.strict => {}
                        Err((kind, at)) => return Err(err(kind, at)),
                    }
                }
                None if opts.strict => {
                    return Err(DecodeError::new(
                        DecodeErrorKind::UnknownOpcode {
                            opcode: u32::from(raw.opcode),
                        },
                        raw.offset,
                        raw.index,
                    ));
                }
                None => {}
            }
            // Sections and functions.
            if function_start.is_none() {
                if let Some(s) = Section::of(opcode, info) {
                    if s > current {
                        for k in (current as usize + 1)..=(s as usize) {
                            m.sections[k] = index;
                        }
                        current = s;
                    }
                }
            }
            if opcode == spv::Opcode::Function && function_start.is_none() {
                function_start = Some((index, m.blocks.len() as u32));
            } else if opcode == spv::Opcode::Label && function_start.is_some() {
                m.blocks.push(index);
            } else if opcode == spv::Opcode::FunctionEnd {
                if let Some((start, b)) = function_start.take() {
                    m.functions.push(FunctionRec {
                        insts: start..index + 1,
                        blocks: b..m.blocks.len() as u32,
                    });
                }
            }
            m.offsets.push(raw.offset as u32);
        }
        let n = m.offsets.len() as u32;
        for k in (current as usize + 1)..13 {
            m.sections[k] = n;
        }
        m.words = words;
        Ok(m)
    }

    /// The header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Changes the header (for example the generator word).
    pub fn header_mut(&mut self) -> &mut Header {
        &mut self.header
    }

    /// The module as words: header then instructions, exactly as read.
    pub fn to_words(&self) -> Vec<u32> {
        let mut out = Vec::with_capacity(self.words.len());
        out.extend_from_slice(&self.header.to_words());
        out.extend_from_slice(self.words.get(5..).unwrap_or(&[]));
        out
    }

    /// The module as little-endian bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.words.len() * 4);
        for w in self
            .header
            .to_words()
            .iter()
            .chain(self.words.get(5..).unwrap_or(&[]))
        {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out
    }

    /// The module's length in words, header included.
    pub fn word_len(&self) -> usize {
        self.words.len()
    }

    /// Number of instructions.
    pub fn len(&self) -> usize {
        self.offsets.len()
    }

    /// Whether the module has no instructions.
    pub fn is_empty(&self) -> bool {
        self.offsets.is_empty()
    }

    /// The instruction at `index`.
    pub fn instruction(&self, index: usize) -> Option<InstRef<'_>> {
        (index < self.offsets.len()).then_some(InstRef {
            module: self,
            index,
        })
    }

    /// All instructions in order.
    pub fn instructions(&self) -> impl ExactSizeIterator<Item = InstRef<'_>> + '_ {
        (0..self.offsets.len()).map(move |index| InstRef {
            module: self,
            index,
        })
    }

    fn range(&self, r: Range<usize>) -> impl ExactSizeIterator<Item = InstRef<'_>> + '_ {
        r.map(move |index| InstRef {
            module: self,
            index,
        })
    }

    /// The instructions of one section.
    pub fn section(&self, s: Section) -> impl ExactSizeIterator<Item = InstRef<'_>> + '_ {
        let i = s as usize;
        self.range(self.sections[i] as usize..self.sections[i + 1] as usize)
    }

    /// The functions, in order.
    pub fn functions(&self) -> impl ExactSizeIterator<Item = FunctionRef<'_>> + '_ {
        self.functions.iter().map(move |f| FunctionRef {
            module: self,
            rec: f,
        })
    }

    /// What is known about ids (types of values, number types, imported sets).
    pub fn ids(&self) -> &Ids {
        &self.ids
    }

    /// Calls `f` on every id operand (uses and definitions) and stores what it returns,
    /// then reads the result again so that every id fact is current; the bound grows to
    /// cover the largest id.
    ///
    /// All or nothing: on error the module is unchanged.
    ///
    /// # Errors
    /// An instruction whose ids cannot all be found (an unknown opcode, or an unknown
    /// enumerant that may take parameters), an id of `u32::MAX` (the bound would not fit
    /// 32 bits), or a result that does not read (two definitions of one id, say).
    pub fn remap_ids(&mut self, mut f: impl FnMut(Id) -> Id) -> Result<(), DecodeError> {
        // Find every id first, so that nothing changes when one cannot be found.
        let mut positions: Vec<usize> = Vec::new();
        for inst in self.instructions() {
            let off = inst.offset();
            let err = |kind| DecodeError::new(kind, off, inst.index());
            let Some(info) = inst.info() else {
                return Err(err(DecodeErrorKind::UnknownOpcode {
                    opcode: u32::from(inst.opcode().0),
                }));
            };
            let ops = inst.operands();
            // An unknown enumerant may hide id parameters: the first one found.
            let mut unknown = None;
            let walked = walk::walk(info, ops, &self.ids, WalkOptions::default(), &mut |p| {
                if p.unknown && unknown.is_none() {
                    unknown = Some((p.kind.name, ops[p.start], p.start));
                }
                if p.kind.is_id() {
                    positions.push(off + 1 + p.start);
                }
            });
            if let Err((kind, at)) = walked {
                return Err(DecodeError::new(kind, off + 1 + at, inst.index()));
            }
            if let Some((kind, value, at)) = unknown {
                let kind = DecodeErrorKind::UnknownEnumerant { kind, value };
                return Err(DecodeError::new(kind, off + 1 + at, inst.index()));
            }
        }
        let mut words = self.to_words();
        let mut max = 0;
        for at in positions {
            let id = f(Id(words[at])).0;
            if id == u32::MAX {
                return Err(DecodeError::new(
                    DecodeErrorKind::IdOutOfBounds {
                        id,
                        bound: u32::MAX,
                    },
                    at,
                    0,
                ));
            }
            words[at] = id;
            max = max.max(id);
        }
        words[3] = words[3].max(max + 1);
        // Id facts are keyed by id: they are rebuilt by reading again.
        *self = Module::read_owned(words, &ReadOptions::default())?;
        Ok(())
    }
}
