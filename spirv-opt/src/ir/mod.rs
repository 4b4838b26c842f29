//! The optimizer IR: spirv-opt's in-memory module (`source/opt/module.h`,
//! `function.h`, `basic_block.h`, `instruction.h`), with handles into arenas and the
//! order of instructions, blocks and functions kept apart from their data.
//!
//! - Instructions, blocks and functions live in arenas and are named by [`Inst`],
//!   [`Block`] and [`Func`] handles, which stay valid across every other edit (a killed
//!   instruction's handle reports [`Ir::is_live`] false).
//! - Each instruction lists the debug lines (`OpLine`, `OpNoLine`, `DebugLine`,
//!   `DebugNoLine`) attached to it and carries its debug scope, where spirv-opt's loader
//!   puts them ([`Ir::from_words`]); the writer ([`Ir::to_words`]) writes them back as spirv-opt's
//!   `Module::ToBinary` does.
//! - Order: a module's global instructions are in [`Section`] lists; a function has its
//!   definition, parameters, debug instructions before its first block, blocks (each a
//!   label and a list), end, and the non-semantic instructions that followed it; all
//!   lists are doubly linked through the arena, so an insertion or removal is O(1).
//! - Every instruction has a creation number ([`Ir::uid`]), spirv-opt's `unique_id`,
//!   which orders the users of a definition as spirv-opt's def-use manager orders them.

mod inst;
pub(crate) mod load;
mod pointer_index;
pub(crate) mod write;

pub use inst::{DebugScope, InstData, Kind, Operand};
pub use load::LoadError;

use spirv_core::spv::Opcode;

/// `kDefaultMaxIdBound`: the largest bound spirv-opt takes ids up to by default.
pub const DEFAULT_MAX_ID_BOUND: u32 = 0x3F_FFFF;

/// No handle.
const NONE: u32 = u32::MAX;

/// An instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Inst(pub(crate) u32);

/// A basic block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Block(pub(crate) u32);

/// A function.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Func(pub(crate) u32);

impl Inst {
    /// The arena index.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl Block {
    /// The arena index.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl Func {
    /// The arena index.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The global sections of a module, in the order spirv-opt's `Module` keeps them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Section {
    /// `OpCapability` (and `OpConditionalCapabilityINTEL`).
    Capability,
    /// `OpExtension` (and `OpConditionalExtensionINTEL`).
    Extension,
    /// `OpExtInstImport`.
    ExtInstImport,
    /// `OpMemoryModel` (one at most).
    MemoryModel,
    /// `OpSamplerImageAddressingModeNV` (one at most).
    SampledImageAddressMode,
    /// `OpEntryPoint`.
    EntryPoint,
    /// `OpGraphEntryPointARM`.
    GraphEntryPoint,
    /// `OpExecutionMode`, `OpExecutionModeId`.
    ExecutionMode,
    /// `OpString`, `OpSourceExtension`, `OpSource`, `OpSourceContinued`.
    Debug1,
    /// `OpName`, `OpMemberName`.
    Debug2,
    /// `OpModuleProcessed`.
    Debug3,
    /// Global instructions of the debug-info extended sets.
    ExtInstDebugInfo,
    /// Annotations.
    Annotation,
    /// Types, constants, global variables, `OpUndef`, global non-semantic
    /// instructions before the first function.
    TypesValues,
}

impl Section {
    /// Every section.
    pub const ALL: [Section; 14] = [
        Section::Capability,
        Section::Extension,
        Section::ExtInstImport,
        Section::MemoryModel,
        Section::SampledImageAddressMode,
        Section::EntryPoint,
        Section::GraphEntryPoint,
        Section::ExecutionMode,
        Section::Debug1,
        Section::Debug2,
        Section::Debug3,
        Section::ExtInstDebugInfo,
        Section::Annotation,
        Section::TypesValues,
    ];
}

/// The list an instruction is in, or what holds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Owner {
    /// Not in the module (made, not yet placed; or taken out).
    Detached,
    /// A global section.
    Section(Section),
    /// A block's instructions (not its label).
    Block(u32),
    /// A block's label.
    Label(u32),
    /// A function's parameters.
    Params(u32),
    /// A function's debug instructions before its first block.
    HeaderDebug(u32),
    /// A function's trailing non-semantic instructions.
    NonSemantic(u32),
    /// A function's `OpFunction`.
    FuncDef(u32),
    /// A function's `OpFunctionEnd`.
    FuncEnd(u32),
    /// A debug line attached to an instruction.
    LineOf(u32),
    /// Debug lines after the last instruction.
    Trailing,
    /// An instruction of a graph.
    Graph(u32),
}

/// A doubly linked list's ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct List {
    first: u32,
    last: u32,
}

impl List {
    const EMPTY: List = List {
        first: NONE,
        last: NONE,
    };
}

/// [`Owner`] in one word: the variant in the top [`OWNER_TAG_BITS`] bits, its index
/// below. Indices stay below 2^28: each names a node, block or function, and 2^28
/// nodes (12 GB) do not fit in memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct PackedOwner(u32);

/// The bits of a [`PackedOwner`] that give the variant.
const OWNER_TAG_BITS: u32 = 4;
/// The bits of a [`PackedOwner`] that give the index.
const OWNER_INDEX: u32 = u32::MAX >> OWNER_TAG_BITS;

/// The packed owner of the types and values' instructions.
const TYPES_VALUES: PackedOwner = Owner::Section(Section::TypesValues).pack();

impl Owner {
    const fn pack(self) -> PackedOwner {
        let (tag, index) = match self {
            Owner::Detached => (0, 0),
            Owner::Section(s) => (1, section_index(s) as u32),
            Owner::Block(b) => (2, b),
            Owner::Label(b) => (3, b),
            Owner::Params(f) => (4, f),
            Owner::HeaderDebug(f) => (5, f),
            Owner::NonSemantic(f) => (6, f),
            Owner::FuncDef(f) => (7, f),
            Owner::FuncEnd(f) => (8, f),
            Owner::LineOf(i) => (9, i),
            Owner::Trailing => (10, 0),
            Owner::Graph(g) => (11, g),
        };
        PackedOwner((tag << (32 - OWNER_TAG_BITS)) | (index & OWNER_INDEX))
    }
}

impl PackedOwner {
    fn unpack(self) -> Owner {
        let index = self.0 & OWNER_INDEX;
        match self.0 >> (32 - OWNER_TAG_BITS) {
            1 => Section::ALL
                .get(index as usize)
                .map_or(Owner::Detached, |&s| Owner::Section(s)),
            2 => Owner::Block(index),
            3 => Owner::Label(index),
            4 => Owner::Params(index),
            5 => Owner::HeaderDebug(index),
            6 => Owner::NonSemantic(index),
            7 => Owner::FuncDef(index),
            8 => Owner::FuncEnd(index),
            9 => Owner::LineOf(index),
            10 => Owner::Trailing,
            11 => Owner::Graph(index),
            _ => Owner::Detached,
        }
    }
}

/// One instruction in the arena: 48 bytes, as the node arena of a large module is
/// what loading it pays for (in page faults). Its debug lines, which most
/// instructions do not have, are in [`Ir::line_lists`].
#[derive(Debug, Clone)]
struct Node {
    data: InstData,
    /// The creation number, and [`DEAD`] once killed.
    uid: u32,
    prev: u32,
    next: u32,
    owner: PackedOwner,
}

/// The bit of [`Node::uid`] that marks a killed instruction (creation numbers stay
/// below it: each takes a node, and 2^31 nodes do not fit in memory).
const DEAD: u32 = 1 << 31;

/// A block in the arena.
#[derive(Debug, Clone)]
struct BlockNode {
    label: Inst,
    insts: List,
    func: u32,
    prev: u32,
    next: u32,
    live: bool,
}

/// A function in the arena.
#[derive(Debug, Clone)]
struct FuncNode {
    def: Inst,
    params: List,
    header_debug: List,
    first_block: u32,
    last_block: u32,
    end: Option<Inst>,
    non_semantic: List,
    live: bool,
}

/// A graph (`OpGraphARM` … `OpGraphEndARM`), kept as spirv-opt's loader builds it.
#[derive(Debug, Clone, Default)]
pub struct Graph {
    /// `OpGraphARM`.
    pub def: Option<Inst>,
    /// `OpGraphInputARM`s.
    pub inputs: Vec<Inst>,
    /// The instructions between.
    pub insts: Vec<Inst>,
    /// `OpGraphSetOutputARM`s.
    pub outputs: Vec<Inst>,
    /// `OpGraphEndARM`.
    pub end: Option<Inst>,
}

/// The module header, as spirv-opt's `ModuleHeader`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Header {
    /// The magic number.
    pub magic: u32,
    /// The version word.
    pub version: u32,
    /// The generator word.
    pub generator: u32,
    /// The id bound.
    pub bound: u32,
    /// The schema word.
    pub schema: u32,
}

/// A module in spirv-opt's form.
#[derive(Debug, Clone)]
pub struct Ir {
    /// The header; `bound` grows as ids are taken.
    pub header: Header,
    nodes: Vec<Node>,
    blocks: Vec<BlockNode>,
    funcs: Vec<FuncNode>,
    sections: [List; 14],
    /// The functions, in order.
    order: Vec<Func>,
    /// The graphs, in order.
    pub graphs: Vec<Graph>,
    trailing: Vec<Inst>,
    /// The debug lines attached to each instruction that has some, by its index.
    line_lists: crate::analysis::IdHashMap<u32, Vec<Inst>>,
    next_uid: u32,
    /// Whether the loader saw debug lines or scopes (`ContainsDebugInfo`).
    pub contains_debug_info: bool,
    /// The largest bound ids are taken up to (`max_id_bound`).
    pub max_id_bound: u32,
    /// Bumped whenever an instruction's operands may change or an instruction dies:
    /// analyses that clean their lists lazily skip the work while it stands still.
    edits: u64,
    /// Bumped whenever the types and values change other than by an append: an
    /// instruction of theirs handed out to change, one linked before another of theirs,
    /// one unlinked or killed (what [`pointer_index`] needs to know).
    types_values_edits: u64,
    /// The first pointer types of the types and values.
    pointer_index: pointer_index::PointerIndex,
}

impl Default for Ir {
    fn default() -> Self {
        Ir::new(Header::default())
    }
}

/// A section's place in [`Section::ALL`] (the declaration order).
const fn section_index(s: Section) -> usize {
    s as usize
}

impl Ir {
    /// An empty module with this header.
    pub fn new(header: Header) -> Ir {
        Ir {
            header,
            nodes: Vec::new(),
            blocks: Vec::new(),
            funcs: Vec::new(),
            sections: [List::EMPTY; 14],
            order: Vec::new(),
            graphs: Vec::new(),
            trailing: Vec::new(),
            line_lists: Default::default(),
            next_uid: 0,
            contains_debug_info: false,
            max_id_bound: DEFAULT_MAX_ID_BOUND,
            edits: 0,
            types_values_edits: 0,
            pointer_index: pointer_index::PointerIndex::default(),
        }
    }

    /// How many times an instruction's data was handed out to change or an
    /// instruction was killed: equal counts mean no operand changed and nothing died.
    pub(crate) fn edits(&self) -> u64 {
        self.edits
    }

    /// Loads a module's words as spirv-opt's loader does: the sections, functions and
    /// blocks, debug lines and `DebugScope`s attached where spirv-opt attaches them;
    /// a byte-swapped module is swapped first.
    ///
    /// # Errors
    /// A [`LoadError`] where SPIRV-Tools' parser or spirv-opt's loader refuses the
    /// module, with spirv-opt's text.
    pub fn from_words(words: &[u32]) -> Result<Ir, LoadError> {
        load::load(words)
    }

    /// The module's words as spirv-opt writes them (`OpNop`s left out, the void type
    /// for a `DebugNoLine` being the first `OpTypeVoid`).
    pub fn to_words(&mut self) -> Vec<u32> {
        write::to_words(self, true, write::VoidType::First)
    }

    /// Room for `n` more instructions.
    pub fn reserve(&mut self, n: usize) {
        self.nodes.reserve(n);
    }

    // ---- ids ----

    /// Takes the next id from the bound (`TakeNextId`), or `None` when the bound has
    /// reached [`Ir::max_id_bound`] (spirv-opt's id overflow).
    pub fn take_next_id(&mut self) -> Option<u32> {
        if self.header.bound >= self.max_id_bound {
            return None;
        }
        let id = self.header.bound;
        self.header.bound += 1;
        Some(id)
    }

    /// The largest id any operand names, plus one (`ComputeIdBound`).
    pub fn compute_id_bound(&self) -> u32 {
        let mut highest = 0;
        self.for_each_inst_written(&mut |ir: &Ir, i: Inst| {
            ir.data(i).for_each_id(|_, id| highest = highest.max(id));
        });
        highest.saturating_add(1)
    }

    // ---- instructions ----

    /// Makes an instruction, not yet in the module (spirv-opt's `new Instruction`).
    pub fn create(&mut self, data: InstData) -> Inst {
        let i = Inst(self.nodes.len() as u32);
        self.next_uid = (self.next_uid + 1).min(DEAD - 1);
        self.nodes.push(Node {
            data,
            uid: self.next_uid,
            prev: NONE,
            next: NONE,
            owner: Owner::Detached.pack(),
        });
        i
    }

    /// [`Ir::create`] and [`Ir::push_block_inst`] in one: the node written once, with
    /// its links (the loader's most frequent step).
    #[inline(always)]
    pub(crate) fn create_in_block(&mut self, b: Block, data: InstData) -> Inst {
        let i = self.nodes.len() as u32;
        self.next_uid = (self.next_uid + 1).min(DEAD - 1);
        let list = &mut self.blocks[b.index()].insts;
        let last = list.last;
        if list.first == NONE {
            list.first = i;
        }
        list.last = i;
        self.nodes.push(Node {
            data,
            uid: self.next_uid,
            prev: last,
            next: NONE,
            owner: Owner::Block(b.0).pack(),
        });
        if last != NONE {
            self.nodes[last as usize].next = i;
        }
        Inst(i)
    }

    /// A copy of `i` with a new creation number, its lines copied too (spirv-opt's
    /// `Clone`, which gives each copied `DebugLine` a fresh id); `None` when an id
    /// cannot be taken.
    pub fn clone_inst(&mut self, i: Inst) -> Option<Inst> {
        let data = self.data(i).clone();
        let c = self.create(data);
        let lines = self.lines(i).to_vec();
        let mut copies = Vec::with_capacity(lines.len());
        for l in lines {
            let d = self.data(l).clone();
            let lc = self.create(d);
            if self.is_debug_line_inst(lc) {
                let id = self.take_next_id()?;
                self.data_mut(lc).set_result_id(id);
            }
            self.set_owner(lc, Owner::LineOf(c.0));
            copies.push(lc);
        }
        self.attach_lines(c, copies);
        Some(c)
    }

    /// The instruction's data.
    pub fn data(&self, i: Inst) -> &InstData {
        &self.nodes[i.index()].data
    }

    /// The instruction's data, to change it.
    pub fn data_mut(&mut self, i: Inst) -> &mut InstData {
        self.edits += 1;
        let node = &mut self.nodes[i.index()];
        if node.owner == TYPES_VALUES {
            self.types_values_edits += 1;
        }
        &mut node.data
    }

    /// The opcode.
    pub fn opcode(&self, i: Inst) -> Opcode {
        self.data(i).opcode()
    }

    /// The result id, or 0.
    pub fn result_id(&self, i: Inst) -> u32 {
        self.data(i).result_id()
    }

    /// The result type, or 0.
    pub fn type_id(&self, i: Inst) -> u32 {
        self.data(i).type_id()
    }

    /// The creation number (spirv-opt's `unique_id`).
    pub fn uid(&self, i: Inst) -> u32 {
        self.nodes[i.index()].uid & !DEAD
    }

    /// Gives `i` the creation number of `other` (spirv-opt copies an `Instruction`
    /// with its `unique_id` in a few places).
    pub(crate) fn set_uid(&mut self, i: Inst, uid: u32) {
        let n = &mut self.nodes[i.index()];
        n.uid = (n.uid & DEAD) | (uid & !DEAD);
    }

    /// Whether the instruction has not been killed.
    pub fn is_live(&self, i: Inst) -> bool {
        self.nodes[i.index()].uid & DEAD == 0
    }

    /// The debug lines attached to `i`.
    pub fn lines(&self, i: Inst) -> &[Inst] {
        // Most modules have no lines: no lookup then.
        if self.line_lists.is_empty() {
            return &[];
        }
        self.line_lists.get(&i.0).map_or(&[], Vec::as_slice)
    }

    /// Makes `lines` the list of `i` (which has none, or whose list is dropped).
    fn attach_lines(&mut self, i: Inst, lines: Vec<Inst>) {
        if lines.is_empty() {
            self.line_lists.remove(&i.0);
        } else {
            self.line_lists.insert(i.0, lines);
        }
    }

    /// Sets what holds `i`.
    pub(crate) fn set_owner(&mut self, i: Inst, owner: Owner) {
        self.nodes[i.index()].owner = owner.pack();
    }

    /// Replaces the debug lines attached to `i` (the old ones are dropped from it).
    pub fn set_lines(&mut self, i: Inst, lines: Vec<Inst>) {
        for &l in &lines {
            self.set_owner(l, Owner::LineOf(i.0));
        }
        let old = self.lines(i).to_vec();
        self.attach_lines(i, lines);
        for l in old {
            if self.owner(l) == Owner::LineOf(i.0) {
                self.set_owner(l, Owner::Detached);
            }
        }
    }

    /// Attaches a line at the end of `i`'s lines.
    pub fn push_line(&mut self, i: Inst, line: Inst) {
        self.set_owner(line, Owner::LineOf(i.0));
        self.line_lists.entry(i.0).or_default().push(line);
    }

    /// The debug scope of `i`.
    pub fn scope(&self, i: Inst) -> DebugScope {
        self.data(i).scope()
    }

    /// Sets the debug scope of `i` and of its lines (`SetDebugScope`).
    pub fn set_scope(&mut self, i: Inst, scope: DebugScope) {
        self.nodes[i.index()].data.set_scope(scope);
        for k in 0..self.lines(i).len() {
            let l = self.lines(i)[k];
            self.nodes[l.index()].data.set_scope(scope);
        }
    }

    /// Sets the inlined-at of the debug scope of `i` and of each of its lines, their
    /// lexical scopes unchanged (`UpdateDebugInlinedAt`).
    pub fn update_debug_inlined_at(&mut self, i: Inst, inlined_at: u32) {
        for k in 0..=self.lines(i).len() {
            let at = if k == 0 { i } else { self.lines(i)[k - 1] };
            let d = &mut self.nodes[at.index()].data;
            let scope = d.scope();
            d.set_scope(DebugScope {
                inlined_at,
                ..scope
            });
        }
    }

    /// What holds `i`.
    pub(crate) fn owner(&self, i: Inst) -> Owner {
        self.nodes[i.index()].owner.unpack()
    }

    /// The block whose instruction list (or label) holds `i`.
    pub fn block_of(&self, i: Inst) -> Option<Block> {
        match self.owner(i) {
            Owner::Block(b) | Owner::Label(b) => Some(Block(b)),
            _ => None,
        }
    }

    /// The next instruction in `i`'s list.
    pub fn next(&self, i: Inst) -> Option<Inst> {
        let n = self.nodes[i.index()].next;
        (n != NONE).then_some(Inst(n))
    }

    /// The previous instruction in `i`'s list.
    pub fn prev(&self, i: Inst) -> Option<Inst> {
        let p = self.nodes[i.index()].prev;
        (p != NONE).then_some(Inst(p))
    }

    fn list(&self, owner: Owner) -> Option<List> {
        Some(match owner {
            Owner::Section(s) => self.sections[section_index(s)],
            Owner::Block(b) => self.blocks[b as usize].insts,
            Owner::Params(f) => self.funcs[f as usize].params,
            Owner::HeaderDebug(f) => self.funcs[f as usize].header_debug,
            Owner::NonSemantic(f) => self.funcs[f as usize].non_semantic,
            _ => return None,
        })
    }

    fn list_mut(&mut self, owner: Owner) -> Option<&mut List> {
        Some(match owner {
            Owner::Section(s) => &mut self.sections[section_index(s)],
            Owner::Block(b) => &mut self.blocks[b as usize].insts,
            Owner::Params(f) => &mut self.funcs[f as usize].params,
            Owner::HeaderDebug(f) => &mut self.funcs[f as usize].header_debug,
            Owner::NonSemantic(f) => &mut self.funcs[f as usize].non_semantic,
            _ => return None,
        })
    }

    /// Links `i` (detached) at the end of `owner`'s list.
    pub(crate) fn push_to(&mut self, owner: Owner, i: Inst) {
        // `list_mut`, with the nodes borrowed apart (the loader's hottest edit).
        let Ir {
            nodes,
            blocks,
            funcs,
            sections,
            ..
        } = self;
        let list = match owner {
            Owner::Section(s) => &mut sections[section_index(s)],
            Owner::Block(b) => &mut blocks[b as usize].insts,
            Owner::Params(f) => &mut funcs[f as usize].params,
            Owner::HeaderDebug(f) => &mut funcs[f as usize].header_debug,
            Owner::NonSemantic(f) => &mut funcs[f as usize].non_semantic,
            _ => return,
        };
        let last = list.last;
        if list.first == NONE {
            list.first = i.0;
        }
        list.last = i.0;
        let node = &mut nodes[i.index()];
        node.prev = last;
        node.next = NONE;
        node.owner = owner.pack();
        if last != NONE {
            nodes[last as usize].next = i.0;
        }
    }

    /// Links `i` (detached) before `at`, in `at`'s list.
    pub fn insert_before(&mut self, at: Inst, i: Inst) {
        let owner = self.owner(at);
        if owner == Owner::Section(Section::TypesValues) {
            self.types_values_edits += 1;
        }
        let prev = self.nodes[at.index()].prev;
        {
            let node = &mut self.nodes[i.index()];
            node.prev = prev;
            node.next = at.0;
            node.owner = owner.pack();
        }
        self.nodes[at.index()].prev = i.0;
        if prev != NONE {
            self.nodes[prev as usize].next = i.0;
        } else if let Some(l) = self.list_mut(owner) {
            l.first = i.0;
        }
    }

    /// Links `i` (detached) after `at`, in `at`'s list.
    pub fn insert_after(&mut self, at: Inst, i: Inst) {
        match self.next(at) {
            Some(n) => self.insert_before(n, i),
            None => self.push_to(self.owner(at), i),
        }
    }

    /// Appends `i` (detached) to a global section.
    pub fn push_global(&mut self, s: Section, i: Inst) {
        self.push_to(Owner::Section(s), i);
    }

    /// Appends `i` (detached) to block `b`.
    #[inline]
    pub fn push_block_inst(&mut self, b: Block, i: Inst) {
        // `push_to` for a block, the loader's most frequent append, without its match.
        let list = &mut self.blocks[b.index()].insts;
        let last = list.last;
        if list.first == NONE {
            list.first = i.0;
        }
        list.last = i.0;
        let node = &mut self.nodes[i.index()];
        node.prev = last;
        node.next = NONE;
        node.owner = Owner::Block(b.0).pack();
        if last != NONE {
            self.nodes[last as usize].next = i.0;
        }
    }

    /// Unlinks `i` from its list (its data stays, and it can be linked elsewhere).
    pub fn unlink(&mut self, i: Inst) {
        let owner = self.owner(i);
        if owner == Owner::Section(Section::TypesValues) {
            self.types_values_edits += 1;
        }
        let (prev, next) = (self.nodes[i.index()].prev, self.nodes[i.index()].next);
        if let Some(list) = self.list(owner) {
            if prev != NONE {
                self.nodes[prev as usize].next = next;
            }
            if next != NONE {
                self.nodes[next as usize].prev = prev;
            }
            let l = self.list_mut(owner).expect("a list");
            if list.first == i.0 {
                l.first = next;
            }
            if list.last == i.0 {
                l.last = prev;
            }
        }
        let node = &mut self.nodes[i.index()];
        node.prev = NONE;
        node.next = NONE;
        node.owner = Owner::Detached.pack();
    }

    /// Whether `i` is in a list (spirv-opt's `IsInAList`): a section, a block's
    /// instructions, a function's header debug instructions. A function's parameters
    /// and trailing non-semantic instructions are not: spirv-opt holds them in vectors.
    pub fn in_a_list(&self, i: Inst) -> bool {
        let owner = self.owner(i);
        !matches!(owner, Owner::Params(_) | Owner::NonSemantic(_)) && self.list(owner).is_some()
    }

    /// Marks `i` killed: unlinked from its list if it is in one, else (a label, an
    /// `OpFunction`, an `OpFunctionEnd`, a parameter, a function's trailing
    /// non-semantic instruction) made an `OpNop` in place, as spirv-opt's
    /// `KillInst` does. Returns the instruction after it in its list.
    pub fn kill_node(&mut self, i: Inst) -> Option<Inst> {
        self.edits += 1;
        if self.in_a_list(i) {
            let next = self.next(i);
            self.unlink(i);
            self.nodes[i.index()].uid |= DEAD;
            next
        } else {
            self.nodes[i.index()].data.to_nop();
            None
        }
    }

    /// Marks a detached instruction dead (its handle stays valid).
    pub(crate) fn mark_dead(&mut self, i: Inst) {
        self.edits += 1;
        self.nodes[i.index()].uid |= DEAD;
    }

    /// The instructions of a global section, in order.
    pub fn section(&self, s: Section) -> Insts<'_> {
        Insts {
            ir: self,
            at: self.sections[section_index(s)].first,
        }
    }

    /// The first instruction of a global section.
    pub fn section_first(&self, s: Section) -> Option<Inst> {
        let f = self.sections[section_index(s)].first;
        (f != NONE).then_some(Inst(f))
    }

    /// Every instruction, in the order spirv-opt's `ForEachInst` (the non-const one,
    /// which its analyses use) visits them, lines excluded.
    pub fn all_insts(&self) -> Vec<Inst> {
        let mut out = Vec::new();
        for s in [
            Section::Capability,
            Section::Extension,
            Section::ExtInstImport,
            Section::MemoryModel,
            Section::SampledImageAddressMode,
            Section::EntryPoint,
            Section::GraphEntryPoint,
            Section::ExecutionMode,
            Section::Debug1,
            Section::Debug2,
            Section::Debug3,
            Section::ExtInstDebugInfo,
            Section::Annotation,
            Section::TypesValues,
        ] {
            out.extend(self.section(s));
        }
        for &f in &self.order {
            self.func_insts(f, true, &mut |i| out.push(i));
        }
        for g in &self.graphs {
            out.extend(g.def);
            out.extend(g.inputs.iter().copied());
            out.extend(g.insts.iter().copied());
            out.extend(g.outputs.iter().copied());
            out.extend(g.end);
        }
        out
    }

    // ---- functions and blocks ----

    /// The functions, in order.
    pub fn functions(&self) -> &[Func] {
        &self.order
    }

    /// Makes a function from its `OpFunction` (not yet in the module).
    pub fn new_func(&mut self, def: Inst) -> Func {
        let f = Func(self.funcs.len() as u32);
        self.funcs.push(FuncNode {
            def,
            params: List::EMPTY,
            header_debug: List::EMPTY,
            first_block: NONE,
            last_block: NONE,
            end: None,
            non_semantic: List::EMPTY,
            live: true,
        });
        self.set_owner(def, Owner::FuncDef(f.0));
        f
    }

    /// Appends `f` to the module's functions.
    pub fn push_func(&mut self, f: Func) {
        self.order.push(f);
    }

    /// Inserts `f` at position `at` of the module's functions.
    pub fn insert_func(&mut self, at: usize, f: Func) {
        self.order.insert(at.min(self.order.len()), f);
    }

    /// Removes `f` from the module's functions (its instructions stay in the arena).
    pub fn remove_func(&mut self, f: Func) {
        self.order.retain(|&g| g != f);
        self.funcs[f.index()].live = false;
    }

    /// Removes every function of `dead` from the module, in one pass over the order.
    pub fn remove_funcs(&mut self, dead: &std::collections::HashSet<Func>) {
        self.order.retain(|g| !dead.contains(g));
        for &f in dead {
            self.funcs[f.index()].live = false;
        }
    }

    /// `f`'s `OpFunction`.
    pub fn func_def(&self, f: Func) -> Inst {
        self.funcs[f.index()].def
    }

    /// `f`'s result id.
    pub fn func_id(&self, f: Func) -> u32 {
        self.result_id(self.func_def(f))
    }

    /// `f`'s `OpFunctionEnd`, if it has one.
    pub fn func_end(&self, f: Func) -> Option<Inst> {
        self.funcs[f.index()].end
    }

    /// Sets `f`'s `OpFunctionEnd`.
    pub fn set_func_end(&mut self, f: Func, end: Inst) {
        self.set_owner(end, Owner::FuncEnd(f.0));
        self.funcs[f.index()].end = Some(end);
    }

    /// `f`'s parameters.
    pub fn params(&self, f: Func) -> Insts<'_> {
        Insts {
            ir: self,
            at: self.funcs[f.index()].params.first,
        }
    }

    /// Appends a parameter to `f`.
    pub fn push_param(&mut self, f: Func, i: Inst) {
        self.push_to(Owner::Params(f.0), i);
    }

    /// Appends a trailing non-semantic instruction to `f` (`AddNonSemanticInstruction`).
    pub fn push_non_semantic(&mut self, f: Func, i: Inst) {
        self.push_to(Owner::NonSemantic(f.0), i);
    }

    /// `f`'s debug instructions before its first block.
    pub fn header_debug(&self, f: Func) -> Insts<'_> {
        Insts {
            ir: self,
            at: self.funcs[f.index()].header_debug.first,
        }
    }

    /// `f`'s trailing non-semantic instructions.
    pub fn non_semantic(&self, f: Func) -> Insts<'_> {
        Insts {
            ir: self,
            at: self.funcs[f.index()].non_semantic.first,
        }
    }

    /// `f`'s blocks, in order.
    pub fn blocks(&self, f: Func) -> Blocks<'_> {
        Blocks {
            ir: self,
            at: self.funcs[f.index()].first_block,
        }
    }

    /// `f`'s first block (its entry).
    pub fn entry(&self, f: Func) -> Option<Block> {
        let b = self.funcs[f.index()].first_block;
        (b != NONE).then_some(Block(b))
    }

    /// `f`'s last block.
    pub fn last_block(&self, f: Func) -> Option<Block> {
        let b = self.funcs[f.index()].last_block;
        (b != NONE).then_some(Block(b))
    }

    /// Whether `f` has no blocks (a declaration).
    pub fn is_declaration(&self, f: Func) -> bool {
        self.funcs[f.index()].first_block == NONE
    }

    /// Makes a block from its label (not yet in a function).
    pub fn new_block(&mut self, label: Inst) -> Block {
        let b = Block(self.blocks.len() as u32);
        self.blocks.push(BlockNode {
            label,
            insts: List::EMPTY,
            func: NONE,
            prev: NONE,
            next: NONE,
            live: true,
        });
        self.set_owner(label, Owner::Label(b.0));
        b
    }

    /// `b`'s label.
    pub fn label(&self, b: Block) -> Inst {
        self.blocks[b.index()].label
    }

    /// `b`'s id (its label's result).
    pub fn block_id(&self, b: Block) -> u32 {
        self.result_id(self.label(b))
    }

    /// The function `b` is in.
    pub fn block_func(&self, b: Block) -> Option<Func> {
        let f = self.blocks[b.index()].func;
        (f != NONE).then_some(Func(f))
    }

    /// Whether `b` is in a function.
    pub fn block_is_live(&self, b: Block) -> bool {
        self.blocks[b.index()].live
    }

    /// `b`'s instructions (its label excluded), in order.
    pub fn insts(&self, b: Block) -> Insts<'_> {
        Insts {
            ir: self,
            at: self.blocks[b.index()].insts.first,
        }
    }

    /// `b`'s first instruction after its label.
    pub fn first_inst(&self, b: Block) -> Option<Inst> {
        let f = self.blocks[b.index()].insts.first;
        (f != NONE).then_some(Inst(f))
    }

    /// `b`'s last instruction (its terminator, in a well-formed block).
    pub fn terminator(&self, b: Block) -> Option<Inst> {
        let l = self.blocks[b.index()].insts.last;
        (l != NONE).then_some(Inst(l))
    }

    /// `b`'s merge instruction: the one before its terminator, if it is an
    /// `OpSelectionMerge` or `OpLoopMerge` (`GetMergeInst`).
    pub fn merge_inst(&self, b: Block) -> Option<Inst> {
        let t = self.terminator(b)?;
        let m = self.prev(t)?;
        matches!(self.opcode(m), Opcode::SelectionMerge | Opcode::LoopMerge).then_some(m)
    }

    /// `b`'s `OpLoopMerge`, if it is a loop header.
    pub fn loop_merge_inst(&self, b: Block) -> Option<Inst> {
        self.merge_inst(b)
            .filter(|&m| self.opcode(m) == Opcode::LoopMerge)
    }

    /// The next block of `b`'s function.
    pub fn next_block(&self, b: Block) -> Option<Block> {
        let n = self.blocks[b.index()].next;
        (n != NONE).then_some(Block(n))
    }

    /// The previous block of `b`'s function.
    pub fn prev_block(&self, b: Block) -> Option<Block> {
        let p = self.blocks[b.index()].prev;
        (p != NONE).then_some(Block(p))
    }

    /// Appends `b` to `f`'s blocks.
    pub fn push_block(&mut self, f: Func, b: Block) {
        let last = self.funcs[f.index()].last_block;
        {
            let n = &mut self.blocks[b.index()];
            n.func = f.0;
            n.prev = last;
            n.next = NONE;
            n.live = true;
        }
        if last != NONE {
            self.blocks[last as usize].next = b.0;
        } else {
            self.funcs[f.index()].first_block = b.0;
        }
        self.funcs[f.index()].last_block = b.0;
    }

    /// Inserts `b` into `at`'s function after `at`.
    pub fn insert_block_after(&mut self, at: Block, b: Block) {
        let f = self.blocks[at.index()].func;
        let next = self.blocks[at.index()].next;
        {
            let n = &mut self.blocks[b.index()];
            n.func = f;
            n.prev = at.0;
            n.next = next;
            n.live = true;
        }
        self.blocks[at.index()].next = b.0;
        if next != NONE {
            self.blocks[next as usize].prev = b.0;
        } else {
            self.funcs[f as usize].last_block = b.0;
        }
    }

    /// Inserts `b` into `at`'s function before `at`.
    pub fn insert_block_before(&mut self, at: Block, b: Block) {
        match self.prev_block(at) {
            Some(p) => self.insert_block_after(p, b),
            None => {
                let f = self.blocks[at.index()].func;
                {
                    let n = &mut self.blocks[b.index()];
                    n.func = f;
                    n.prev = NONE;
                    n.next = at.0;
                    n.live = true;
                }
                self.blocks[at.index()].prev = b.0;
                self.funcs[f as usize].first_block = b.0;
            }
        }
    }

    /// Takes `b` out of its function (its instructions stay with it).
    pub fn unlink_block(&mut self, b: Block) {
        let f = self.blocks[b.index()].func;
        if f == NONE {
            return;
        }
        let (prev, next) = (self.blocks[b.index()].prev, self.blocks[b.index()].next);
        if prev != NONE {
            self.blocks[prev as usize].next = next;
        } else {
            self.funcs[f as usize].first_block = next;
        }
        if next != NONE {
            self.blocks[next as usize].prev = prev;
        } else {
            self.funcs[f as usize].last_block = prev;
        }
        let n = &mut self.blocks[b.index()];
        n.prev = NONE;
        n.next = NONE;
        n.func = NONE;
        n.live = false;
    }

    /// The number of instructions ever made (a bound on any walk over them).
    pub fn instruction_count(&self) -> usize {
        self.nodes.len()
    }

    /// Puts `f`'s blocks in the order `order` gives (spirv-opt's `ReorderBasicBlocks`);
    /// blocks of `f` that `order` leaves out follow, in their old order.
    pub fn set_block_order(&mut self, f: Func, order: &[Block]) {
        let old: Vec<Block> = self.blocks(f).collect();
        let listed: std::collections::HashSet<Block> = order.iter().copied().collect();
        let mut all: Vec<Block> = order
            .iter()
            .copied()
            .filter(|b| self.blocks[b.index()].func == f.0)
            .collect();
        all.extend(old.iter().copied().filter(|b| !listed.contains(b)));
        for &b in &old {
            self.unlink_block(b);
        }
        for b in all {
            self.push_block(f, b);
        }
    }

    /// Moves the instructions of `b` from `from` (inclusive) to its end into `to`'s end
    /// (spirv-opt's `Splice`, used to split a block).
    pub fn splice_to(&mut self, from: Inst, to: Block) {
        let mut cur = Some(from);
        while let Some(i) = cur {
            cur = self.next(i);
            self.unlink(i);
            self.push_block_inst(to, i);
        }
    }

    /// Calls `f` on each instruction of function `f` in spirv-opt's order (definition,
    /// parameters, header debug instructions, blocks (label first), end, and with
    /// `non_semantic` the trailing non-semantic instructions), lines excluded.
    pub fn func_insts(&self, func: Func, non_semantic: bool, f: &mut dyn FnMut(Inst)) {
        self.each_func_inst(func, non_semantic, f);
    }

    /// [`Ir::func_insts`], generic over `f` so that a hot caller's step is inlined.
    #[inline]
    pub(crate) fn each_func_inst(&self, func: Func, non_semantic: bool, mut f: impl FnMut(Inst)) {
        let n = &self.funcs[func.index()];
        f(n.def);
        for i in self.params(func) {
            f(i);
        }
        for i in self.header_debug(func) {
            f(i);
        }
        for b in self.blocks(func) {
            f(self.label(b));
            for i in self.insts(b) {
                f(i);
            }
        }
        if let Some(e) = n.end {
            f(e);
        }
        if non_semantic {
            for i in self.non_semantic(func) {
                f(i);
            }
        }
    }

    /// Calls `f` on each instruction in the order the writer writes them (spirv-opt's
    /// const `Module::ForEachInst` with lines), lines before the instruction they are
    /// attached to.
    pub fn for_each_inst_written(&self, f: &mut dyn FnMut(&Ir, Inst)) {
        self.each_inst_written(f);
    }

    /// [`Ir::for_each_inst_written`], generic over `f` so that the writer's step is
    /// inlined.
    #[inline]
    pub(crate) fn each_inst_written(&self, mut f: impl FnMut(&Ir, Inst)) {
        // Most modules have no lines: their walk looks none up.
        if self.line_lists.is_empty() {
            self.each_listed(|i| f(self, i));
        } else {
            self.each_listed(|i| {
                for &l in self.lines(i) {
                    f(self, l);
                }
                f(self, i);
            });
        }
        for g in &self.graphs {
            for i in g
                .def
                .iter()
                .chain(&g.inputs)
                .chain(&g.insts)
                .chain(&g.outputs)
                .chain(&g.end)
            {
                f(self, *i);
            }
        }
        for &l in &self.trailing {
            f(self, l);
        }
    }

    /// The instructions of the sections, the functions and the graph entry points, in
    /// the writer's order (the part of [`Ir::each_inst_written`] that has lines).
    #[inline(always)]
    fn each_listed(&self, mut f: impl FnMut(Inst)) {
        for s in [
            Section::Capability,
            Section::Extension,
            Section::ExtInstImport,
            Section::MemoryModel,
            Section::SampledImageAddressMode,
            Section::EntryPoint,
            Section::ExecutionMode,
            Section::Debug1,
            Section::Debug2,
            Section::Debug3,
            Section::Annotation,
            Section::TypesValues,
            Section::ExtInstDebugInfo,
        ] {
            for i in self.section(s) {
                f(i);
            }
        }
        for &func in &self.order {
            self.each_func_inst(func, true, &mut f);
        }
        for i in self.section(Section::GraphEntryPoint) {
            f(i);
        }
    }

    /// The debug lines after the last instruction.
    pub fn trailing_lines(&self) -> &[Inst] {
        &self.trailing
    }

    /// The first `OpExtInstImport` of this name (`GetExtInstImportId`), or 0.
    pub fn ext_inst_import_id(&self, name: &str) -> u32 {
        self.section(Section::ExtInstImport)
            .find(|&i| self.data(i).string(1) == name)
            .map_or(0, |i| self.result_id(i))
    }

    /// Whether `i` is an `OpExtInst` of `NonSemantic.Shader.DebugInfo.100` (the first
    /// import of that name) numbered `DebugLine` (103) or `DebugNoLine` (104)
    /// (`IsDebugLineInst`).
    pub fn is_debug_line_inst(&self, i: Inst) -> bool {
        matches!(self.shader_debug_opcode(i), Some(103 | 104))
    }

    /// The `NonSemantic.Shader.DebugInfo.100` instruction number of `i`
    /// (`GetShader100DebugOpcode`), if it is one of that set's instructions.
    pub fn shader_debug_opcode(&self, i: Inst) -> Option<u32> {
        let d = self.data(i);
        if d.opcode() != Opcode::ExtInst {
            return None;
        }
        let set = self.ext_inst_import_id("NonSemantic.Shader.DebugInfo.100");
        (set != 0 && d.in_word(0) == set)
            .then(|| d.in_word(1))
            .filter(|&n| n < 0x7fff_ffff)
    }

    /// Whether `i` is `OpLine` or a `DebugLine` (`IsLine`).
    pub fn is_line(&self, i: Inst) -> bool {
        self.opcode(i) == Opcode::Line || self.shader_debug_opcode(i) == Some(103)
    }

    /// Whether `i` is `OpNoLine` or a `DebugNoLine` (`IsNoLine`).
    pub fn is_no_line(&self, i: Inst) -> bool {
        self.opcode(i) == Opcode::NoLine || self.shader_debug_opcode(i) == Some(104)
    }
}

/// The instructions of a list, in order.
#[derive(Debug, Clone)]
pub struct Insts<'a> {
    ir: &'a Ir,
    at: u32,
}

impl Iterator for Insts<'_> {
    type Item = Inst;
    fn next(&mut self) -> Option<Inst> {
        if self.at == NONE {
            return None;
        }
        let i = Inst(self.at);
        self.at = self.ir.nodes[i.index()].next;
        Some(i)
    }
}

/// The blocks of a function, in order.
#[derive(Debug, Clone)]
pub struct Blocks<'a> {
    ir: &'a Ir,
    at: u32,
}

impl Iterator for Blocks<'_> {
    type Item = Block;
    fn next(&mut self) -> Option<Block> {
        if self.at == NONE {
            return None;
        }
        let b = Block(self.at);
        self.at = self.ir.blocks[b.index()].next;
        Some(b)
    }
}

impl Ir {
    /// Every instruction in the order of spirv-opt's (non-const) `ForEachInst` with
    /// lines: each instruction's debug lines before it, the trailing lines last.
    pub fn all_insts_with_lines(&self) -> Vec<Inst> {
        let mut out = Vec::with_capacity(self.nodes.len());
        for i in self.all_insts() {
            out.extend_from_slice(self.lines(i));
            out.push(i);
        }
        out.extend_from_slice(&self.trailing);
        out
    }

    /// The labels `b`'s terminator branches to, in order (`ForEachSuccessorLabel`):
    /// `OpBranch`'s target; `OpBranchConditional`'s and `OpSwitch`'s id operands after
    /// the first.
    pub fn successors(&self, b: Block) -> Vec<u32> {
        let Some(t) = self.terminator(b) else {
            return Vec::new();
        };
        let d = self.data(t);
        match d.opcode() {
            Opcode::Branch => vec![d.word(0)],
            Opcode::BranchConditional | Opcode::Switch => {
                let mut out = Vec::new();
                let mut first = true;
                d.for_each_in_id(|id| {
                    if !first {
                        out.push(id);
                    }
                    first = false;
                });
                out
            }
            _ => Vec::new(),
        }
    }

    /// Rewrites the labels `b`'s terminator branches to (`ForEachSuccessorLabel` with a
    /// pointer): `OpBranch`'s target, the id operands after the first of
    /// `OpBranchConditional` and `OpSwitch`.
    pub fn map_successor_labels(&mut self, b: Block, mut f: impl FnMut(u32) -> u32) {
        let Some(t) = self.terminator(b) else { return };
        let d = self.data_mut(t);
        match d.opcode() {
            Opcode::Branch => {
                let new = f(d.word(0));
                d.set_operand(0, &[new]);
            }
            Opcode::BranchConditional | Opcode::Switch => {
                let mut first = true;
                d.map_in_ids(|id| {
                    if first {
                        first = false;
                        id
                    } else {
                        f(id)
                    }
                });
            }
            _ => {}
        }
    }

    /// `b`'s merge block id, if it has a merge instruction (`MergeBlockIdIfAny`).
    pub fn merge_block_id(&self, b: Block) -> Option<u32> {
        self.merge_inst(b).map(|m| self.data(m).in_word(0))
    }

    /// `b`'s continue target, if it is a loop header (`ContinueBlockIdIfAny`).
    pub fn continue_block_id(&self, b: Block) -> Option<u32> {
        self.loop_merge_inst(b).map(|m| self.data(m).in_word(1))
    }

    /// Whether `b` ends in a branch (`hasSuccessor`).
    pub fn has_successor(&self, b: Block) -> bool {
        self.terminator(b).is_some_and(|t| {
            matches!(
                self.opcode(t),
                Opcode::Branch | Opcode::BranchConditional | Opcode::Switch
            )
        })
    }
}

#[cfg(test)]
mod tests {
    /// The sizes loading a large module pays for.
    #[test]
    fn node_sizes() {
        assert_eq!(core::mem::size_of::<super::InstData>(), 32);
        assert_eq!(core::mem::size_of::<super::Node>(), 48);
    }

    /// Every owner reads back from its packed word.
    #[test]
    fn owners_pack() {
        use super::{Owner, Section};
        let big = super::OWNER_INDEX;
        let mut all = vec![Owner::Detached, Owner::Trailing];
        all.extend(Section::ALL.map(Owner::Section));
        for i in [0, 1, 77, big] {
            all.extend([
                Owner::Block(i),
                Owner::Label(i),
                Owner::Params(i),
                Owner::HeaderDebug(i),
                Owner::NonSemantic(i),
                Owner::FuncDef(i),
                Owner::FuncEnd(i),
                Owner::LineOf(i),
                Owner::Graph(i),
            ]);
        }
        for o in all {
            assert_eq!(o.pack().unpack(), o);
        }
    }
}
