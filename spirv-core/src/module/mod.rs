//! The module model.
//!
//! **Representation: words plus typed views.** A [`Module`] keeps the module's words in
//! one vector (header included, in host order), an index of instruction offsets, the
//! boundaries of the logical-layout sections (spec §2.4) and of functions and blocks.
//! Reading ([`read`](self::read)) checks every operand against the grammar tables and
//! records id types, but builds no per-instruction objects; [`InstRef::decode`] gives
//! the typed [`spv::Instruction`] on demand. This keeps reading fast and memory near the
//! binary's size, makes the round trip byte-exact by construction (unknown opcodes,
//! enumerants and sets included), and still offers typed access.
//!
//! The layout is followed as it is read ([`layout`](self::layout)): departures from it
//! are refused by a strict read and recorded by a lenient one.

#[cfg(feature = "edit")]
mod compact;
mod layout;
mod read;
mod requirements;
mod section;
mod views;

pub use layout::{LayoutIssue, LayoutIssueKind};
#[cfg(feature = "edit")]
pub use read::observe_lenient;
#[cfg(feature = "edit")]
pub(crate) use read::summarize_lenient;
pub use requirements::{Declared, RequiredBy, Requirement, Requirements, Unmet};
pub use section::Section;
pub use views::{BlockRef, ExtInstRef, FunctionRef, InstRef};
#[cfg(feature = "edit")]
pub use {compact::Renumbering, layout::Layout};

use crate::__private::Vec;
use crate::binary::Header;
use crate::error::{DecodeError, DecodeErrorKind};
use crate::types::Id;
use crate::walk::{ExtInstRegistry, Ids};
use core::ops::Range;
use layout::FunctionRec;

/// How to read a module, and what reading checks.
///
/// **Every read**, lenient or strict, checks the binary form:
/// - the bytes ([`Module::from_bytes`]): a length that is a multiple of 4;
/// - the header: five words, the first the magic number in either byte order. The
///   version, generator, bound and schema words are kept as they are, unchecked;
/// - every instruction: a word count that is not 0 and does not run past the end;
/// - every operand of every instruction the grammar knows, against its layout: no
///   operand missing and no word left over, strings NUL-terminated inside their
///   instruction, the parameters each enumerant (or mask bit) takes, `OpConstant` and
///   `OpSpecConstant` literals sized by their result type (an integer or float type
///   defined earlier), `OpSwitch` case literals sized by the selector's type (an
///   integer type), only the opcodes `OpSpecConstantOp` may embed, and an `OpExtInst`'s
///   set id the result of an earlier `OpExtInstImport`, its operands laid out by that
///   set's grammar;
/// - no result id defined twice;
/// - the structure of the logical layout (SPIR-V spec §2.4), as [`LayoutIssueKind`]
///   lists it: sections in order, instructions that belong in functions inside one and
///   the others outside, every function ended by `OpFunctionEnd`. A lenient read keeps
///   each departure in [`Module::layout_issues`].
///
/// **A strict read** ([`strict`](Self::strict)) refuses, besides:
/// - an opcode the grammar does not know;
/// - an enumerant value or mask bit the grammar does not know;
/// - an `OpExtInstImport` of a set the registry does not know, unless its name starts
///   with `NonSemantic.`, and an extended instruction number its set's grammar does
///   not know;
/// - an id operand that is 0 or not below the header's bound;
/// - the first departure from the layout.
///
/// A lenient read keeps those: an unknown opcode's instruction as raw words, unchecked;
/// an instruction with an unknown enumerant as it is, unchecked past that operand,
/// since the enumerant may take parameters the grammar cannot describe; the operands
/// of an `OpExtInst` whose set or number is unknown, unchecked.
///
/// **Neither is validation** as `spirv-val` does it. A read does not check that an id
/// used is defined, anywhere or before its use (beyond the few ids above that size or
/// lay out operands); that an operand names the right kind of thing (a type where a
/// type is expected, a value of a fitting type); the header's version, bound and
/// schema; that required instructions are there (`OpMemoryModel`, an `OpLabel` opening
/// each function body, a terminator closing each block); that the capabilities and
/// extensions the module uses are declared ([`Module::requirements`] answers that);
/// control flow, decoration rules, or the rules of the client API (Vulkan, OpenCL).
/// Nor does it check the padding after a string's NUL, which typed decoding refuses
/// when it is not zero.
///
/// ```
/// use spirv_core::{DecodeErrorKind, Module, ReadOptions};
/// let strict = ReadOptions { strict: true, ..ReadOptions::default() };
/// // Bound 10; OpCapability Shader; OpMemoryModel Logical GLSL450;
/// // %1 = OpTypePointer Function %9, where %9 is defined nowhere.
/// let mut words = vec![0x0723_0203, 0x0001_0000, 0, 10, 0];
/// words.extend([0x0002_0011, 1, 0x0003_000e, 0, 1, 0x0004_0020, 1, 7, 9]);
/// // The undefined %9 is below the bound, so even a strict read accepts it.
/// assert_eq!(Module::read(&words, &strict)?.len(), 3);
///
/// words[3] = 5; // Now %9 is not below the bound.
/// let err = Module::read(&words, &strict).unwrap_err();
/// assert_eq!(err.kind, DecodeErrorKind::IdOutOfBounds { id: 9, bound: 5 });
/// assert_eq!((err.instruction, err.offset), (Some(2), 13));
/// assert!(Module::read(&words, &ReadOptions::default()).is_ok(), "lenient keeps it");
/// # Ok::<(), spirv_core::DecodeError>(())
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct ReadOptions<'r> {
    /// Refuse what a lenient read keeps: unknown opcodes, enumerants, extended sets and
    /// extended instructions, any id that is 0 or not below the bound, and every
    /// departure from the logical layout ([`LayoutIssue`]). By default those are kept as
    /// they are: the unknown as raw words, layout issues in [`Module::layout_issues`].
    /// See [`ReadOptions`] for every check, strict or not, and what no read checks.
    pub strict: bool,
    /// Extended sets to know; `None` = every vendored set.
    pub registry: Option<&'r ExtInstRegistry>,
    /// Check only the global instructions: inside functions, instructions are split by
    /// their word counts but their operands are not read, so reading costs little more
    /// than iterating the words. For tools that look at the globals only, such as
    /// reflection (`spirv_core::reflect`). A malformed function body is then not
    /// reported, even by a strict read (only its layout is followed), and values defined
    /// in functions have no recorded type.
    pub globals_only: bool,
}

/// A SPIR-V module: words plus typed views.
///
/// The module keeps its words in one vector (header included, host order) with an
/// index of instruction offsets and the boundaries of the logical-layout sections,
/// functions and blocks.
///
/// **What reading checks.** [`Module::from_bytes`], [`Module::read`] and the others
/// check the *binary form* against the grammar: the header, word counts, every operand
/// against its instruction's layout, no id defined twice, and the logical layout's
/// structure. A strict read also refuses anything unknown, ids not below the bound, and
/// layout departures. Reading is not validation in spirv-val's sense: it does not check
/// that ids are defined before use, that types match, or the rules of the execution
/// environment. [`ReadOptions`] lists each check.
///
/// ```
/// use spirv_core::{spv, spv::inst, Builder, Module, Section};
///
/// let mut b = Builder::new((1, 3));
/// b.push(inst::Capability { capability: spv::Capability::Shader })?;
/// let float = b.id()?;
/// b.push(inst::TypeFloat { result_id: float, width: 32, floating_point_encoding: None })?;
/// let bytes = b.build()?.to_bytes();
///
/// let module = Module::from_bytes(&bytes)?;
/// assert_eq!(module.len(), 2);
/// assert_eq!(module.section(Section::Global).len(), 1);
/// assert!(module.layout_issues().is_empty());
/// assert_eq!(module.to_bytes(), bytes, "byte for byte");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Module {
    header: Header,
    words: Vec<u32>,
    offsets: Vec<u32>,
    sections: [u32; Section::COUNT + 1],
    functions: Vec<FunctionRec>,
    blocks: Vec<u32>,
    issues: Vec<LayoutIssue>,
    ids: Ids,
    context: ReadContext,
    /// A number every id of the module is known to be below (the bound, once a read or
    /// an edit has checked it), or `None` when that is not known.
    id_ceiling: Option<u32>,
    /// Whether the module is as the editor writes modules (`Editor::apply`'s output):
    /// writing it again without edits gives the same words.
    #[cfg_attr(not(feature = "edit"), allow(dead_code))]
    written: bool,
}

/// What a module was read with, so that a re-read (after [`Module::remap_ids`], say)
/// reads it the same way.
#[derive(Debug, Clone, Default)]
struct ReadContext {
    strict: bool,
    globals_only: bool,
    /// `None` = the vendored sets.
    registry: Option<ExtInstRegistry>,
}

impl PartialEq for Module {
    fn eq(&self, other: &Self) -> bool {
        self.header == other.header && self.words[5..] == other.words[5..]
    }
}

impl Module {
    /// The header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Sets the header's generator word (tool id in the high 16 bits, version in the low).
    pub fn set_generator(&mut self, generator: u32) {
        self.header.generator = generator;
    }

    /// Sets the header's version word to `major.minor`.
    pub fn set_version(&mut self, version: crate::grammar::Version) {
        self.header.version = Header::version_word(version.0, version.1);
    }

    /// Sets the header's bound, which must be above every id the module uses.
    ///
    /// # Errors
    /// An id in use is not below `bound` (the error names it), or the ids of some
    /// instruction cannot all be found (see [`Module::remap_ids`]).
    pub fn set_bound(&mut self, bound: u32) -> Result<(), DecodeError> {
        let mut first = None;
        self.each_id_position(|at| {
            if first.is_none() && self.words[at] >= bound {
                first = Some(at);
            }
        })?;
        if let Some(at) = first {
            let id = self.words[at];
            let index = self.offsets.partition_point(|&o| (o as usize) <= at) - 1;
            return Err(DecodeError::new(
                DecodeErrorKind::IdOutOfBounds { id, bound },
                at,
                index,
            ));
        }
        self.header.bound = bound;
        self.id_ceiling = Some(bound);
        Ok(())
    }

    /// Sets the bound to one known to be above every id (computed from the largest).
    #[cfg(feature = "edit")]
    pub(crate) fn set_bound_above_ids(&mut self, bound: u32) {
        self.header.bound = bound;
        self.id_ceiling = Some(bound);
    }

    /// A number every id is known to be below, if one is known.
    #[cfg(feature = "edit")]
    pub(crate) fn id_ceiling(&self) -> Option<u32> {
        self.id_ceiling
    }

    /// The registry of extended sets the module was read with (`None`: the vendored
    /// sets).
    #[cfg(feature = "edit")]
    pub(crate) fn registry(&self) -> Option<&ExtInstRegistry> {
        self.context.registry.as_ref()
    }

    /// The words after the header.
    #[cfg(feature = "edit")]
    pub(crate) fn words_after_header(&self) -> &[u32] {
        self.words.get(5..).unwrap_or(&[])
    }

    /// Whether the module is as the editor writes modules.
    #[cfg(feature = "edit")]
    pub(crate) fn is_written(&self) -> bool {
        self.written
    }

    /// Marks the module as the editor's output.
    #[cfg(feature = "edit")]
    pub(crate) fn mark_written(&mut self) {
        self.written = true;
    }

    /// Whether the module was read leniently, with every instruction (not only the
    /// global ones) checked.
    #[cfg(feature = "edit")]
    pub(crate) fn is_lenient(&self) -> bool {
        !self.context.strict && !self.context.globals_only
    }

    /// Overwrites the words of instruction `index` with `words`, of the same length (the
    /// caller has checked that nothing the read recorded changes).
    #[cfg(feature = "edit")]
    pub(crate) fn patch(&mut self, index: usize, words: &[u32]) {
        let Some(&start) = self.offsets.get(index) else {
            return;
        };
        if let Some(slot) = self
            .words
            .get_mut(start as usize..start as usize + words.len())
        {
            slot.copy_from_slice(words);
        }
    }

    /// The module as words: header then instructions, exactly as read.
    pub fn to_words(&self) -> Vec<u32> {
        let mut out = Vec::with_capacity(self.words.len());
        out.extend_from_slice(&self.header.to_words());
        out.extend_from_slice(self.words.get(5..).unwrap_or(&[]));
        out
    }

    /// The module as words, as [`Module::to_words`] gives them, without a copy: for a
    /// caller done with the module that writes its words out (in chunks, say).
    pub fn into_words(mut self) -> Vec<u32> {
        let header = self.header.to_words();
        match self.words.get_mut(..5) {
            Some(head) => head.copy_from_slice(&header),
            None => return header.to_vec(),
        }
        self.words
    }

    /// The module as little-endian bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.words.len().max(5) * 4);
        let body = self.words.get(5..).unwrap_or(&[]);
        for w in self.header.to_words().iter().chain(body) {
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
        self.range(0..self.offsets.len())
    }

    fn range(&self, r: Range<usize>) -> impl ExactSizeIterator<Item = InstRef<'_>> + '_ {
        r.map(move |index| InstRef {
            module: self,
            index,
        })
    }

    /// The instructions of one section: from the first instruction of that section, as
    /// the file orders them, to the first of a later one. An instruction out of layout
    /// order stays in the section it was found in ([`Module::layout_issues`] lists it).
    ///
    /// ```
    /// use spirv_core::{spv, spv::inst, Builder, Section};
    /// let mut b = Builder::new((1, 0));
    /// let void = b.id()?;
    /// b.push(inst::TypeVoid { result_id: void })?;
    /// b.push(inst::Name { target: void, name: "void".into() })?;
    /// let module = b.build()?;
    /// let names: Vec<_> = module.section(Section::DebugName).map(|i| i.opcode()).collect();
    /// assert_eq!(names, [spv::Opcode::Name]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn section(&self, s: Section) -> impl ExactSizeIterator<Item = InstRef<'_>> + '_ {
        let i = s as usize;
        self.range(self.sections[i] as usize..self.sections[i + 1] as usize)
    }

    /// The instruction index range of one section.
    pub fn section_range(&self, s: Section) -> Range<usize> {
        let i = s as usize;
        self.sections[i] as usize..self.sections[i + 1] as usize
    }

    /// The functions, in order: one per `OpFunction`, whether or not it has its
    /// `OpFunctionEnd` ([`FunctionRef::is_terminated`]).
    pub fn functions(&self) -> impl ExactSizeIterator<Item = FunctionRef<'_>> + '_ {
        self.functions.iter().map(move |f| FunctionRef {
            module: self,
            rec: f,
        })
    }

    /// The departures from the logical layout that reading kept (a strict read refuses
    /// the first instead), in order. Empty for a well-formed module.
    pub fn layout_issues(&self) -> &[LayoutIssue] {
        &self.issues
    }

    /// What is known about ids (types of values, number types, imported sets).
    pub fn ids(&self) -> &Ids {
        &self.ids
    }

    /// The registry the module was read with (`None`: the vendored sets).
    pub(crate) fn read_registry(&self) -> Option<&ExtInstRegistry> {
        self.context.registry.as_ref()
    }

    /// The largest id any instruction defines or uses, 0 when there is none.
    ///
    /// # Errors
    /// The ids of some instruction cannot all be found (see [`Module::remap_ids`]).
    #[cfg(feature = "edit")]
    pub(crate) fn max_id(&self) -> Result<u32, DecodeError> {
        let mut max = 0;
        self.each_id_position(|at| max = max.max(self.words[at]))?;
        Ok(max)
    }

    /// The word position of every id operand, in order; an error if some instruction's
    /// ids cannot all be found.
    fn id_positions(&self) -> Result<Vec<usize>, DecodeError> {
        let mut positions: Vec<usize> = Vec::new();
        self.each_id_position(|at| positions.push(at))?;
        Ok(positions)
    }

    /// Calls `f` with the word position of every id operand, in order; an error if some
    /// instruction's ids cannot all be found (`f` has then seen the ids before it).
    fn each_id_position(&self, mut f: impl FnMut(usize)) -> Result<(), DecodeError> {
        for inst in self.instructions() {
            let off = inst.offset();
            inst.visit_id_words(|_, at| f(off + 1 + at))?;
        }
        Ok(())
    }

    /// Calls `f` on every id operand (uses and definitions), once per occurrence, and
    /// stores what it returns; then reads the module again, with the options it was read
    /// with, so that every id fact is current. The bound grows to cover the largest id.
    ///
    /// All or nothing: on error the module is unchanged.
    ///
    /// ```
    /// use spirv_core::{spv::inst, Builder, Id};
    /// let mut b = Builder::new((1, 0));
    /// let void = b.id()?;
    /// b.push(inst::TypeVoid { result_id: void })?;
    /// b.push(inst::Name { target: void, name: "void".into() })?;
    /// let mut module = b.build()?;
    /// module.remap_ids(|id| Id(id.0 + 10))?;
    /// let ids: Vec<Id> = module.instructions().filter_map(|i| i.result_id()).collect();
    /// assert_eq!(ids, [Id(11)]);
    /// assert_eq!(module.header().bound, 12);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// An instruction whose ids cannot all be found (an unknown opcode, an unknown
    /// enumerant that may take parameters, an `OpExtInst` of a set that is neither
    /// registered nor `NonSemantic.`), an id of 0 or `u32::MAX` from `f` (the bound would
    /// not fit 32 bits), or a result that does not read again (two definitions of one
    /// id, say).
    pub fn remap_ids(&mut self, mut f: impl FnMut(Id) -> Id) -> Result<(), DecodeError> {
        // Find every id first, so that nothing changes when one cannot be found.
        let positions = self.id_positions()?;
        let mut words = self.to_words();
        let mut max = 0;
        for at in positions {
            let id = f(Id(words[at])).0;
            let kind = match id {
                0 => DecodeErrorKind::ZeroId,
                u32::MAX => DecodeErrorKind::IdOutOfBounds {
                    id,
                    bound: u32::MAX,
                },
                _ => {
                    words[at] = id;
                    max = max.max(id);
                    continue;
                }
            };
            let index = self.offsets.partition_point(|&o| (o as usize) <= at) - 1;
            return Err(DecodeError::new(kind, at, index));
        }
        words[3] = words[3].max(max + 1);
        // Id facts are keyed by id: they are rebuilt by reading again.
        *self = self.reread(words)?;
        Ok(())
    }
}
