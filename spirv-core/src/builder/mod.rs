//! Building modules: id allocation, instructions placed into their logical-layout
//! section, functions with parameters and blocks, and the bound recorded.
//!
//! ```
//! use spirv_core::{spv, spv::inst, Builder};
//! let mut b = Builder::new((1, 0));
//! b.push(inst::Capability { capability: spv::Capability::Shader }).unwrap();
//! let void = b.id().unwrap();
//! b.push(inst::TypeVoid { result_id: void }).unwrap();
//! // Sections are ordered no matter the push order.
//! b.push(inst::MemoryModel {
//!     addressing_model: spv::AddressingModel::Logical,
//!     memory_model: spv::MemoryModel::GLSL450,
//! })
//! .unwrap();
//! let module = b.build().unwrap();
//! assert_eq!(module.header().bound, 2);
//! assert_eq!(module.instruction(1).unwrap().opcode(), spv::Opcode::MemoryModel);
//! ```

mod error;

pub use error::{BuildError, BuildErrorKind};

use crate::__private::Vec;
use crate::binary::Header;
use crate::grammar::Version;
use crate::module::{Module, Section};
use crate::spv;
use crate::types::Id;
use crate::walk::{self, ExtInstRegistry, Ids, WalkOptions};

/// The generator word the builder writes by default: tool id 0xFFFF (unregistered),
/// version 1 — the same as the `spirv-asm` assembler's.
pub const DEFAULT_GENERATOR: u32 = 0xFFFF_0001;

/// The origin of an instruction [`Builder::from_module`] took from its module: no push.
const FROM_MODULE: u32 = u32::MAX;

/// Where a pushed instruction goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    /// A section before the functions.
    Section(Section),
    Functions,
    Graphs,
}

/// Builds a module section by section: ids are allocated, each instruction goes to
/// its logical-layout section whatever the order of pushes, and the bound is recorded.
///
/// Each push is read as the module reader will read it, with the facts of the pushes
/// before it: ids are found where the grammar says (an `OpExtInst`'s by its set's
/// grammar), an id defined twice or an `OpConstant` of an undeclared type is refused at
/// once, and every error names the push ([`BuildError::push`]).
#[derive(Debug, Clone)]
pub struct Builder {
    version: Version,
    generator: u32,
    schema: u32,
    next_id: u32,
    max_id: u32,
    /// The words of each section before the functions.
    sections: [Vec<u32>; Section::Function as usize],
    functions: Vec<u32>,
    graphs: Vec<u32>,
    /// For each target, the number of each push it holds, in order.
    origins: [Vec<u32>; Section::Function as usize + 2],
    pushes: usize,
    in_function: bool,
    in_graph: bool,
    ids: Ids,
    registry: ExtInstRegistry,
    scratch: Vec<u32>,
}

impl Builder {
    /// A builder for SPIR-V `version` (`(1, 0)` … `(1, 6)`), which knows the vendored
    /// extended instruction sets.
    pub fn new(version: Version) -> Self {
        Self::with_registry(version, ExtInstRegistry::default())
    }

    /// A builder that knows the extended instruction sets of `registry` (to import a set
    /// generated in another crate by `include_grammar!`).
    pub fn with_registry(version: Version, registry: ExtInstRegistry) -> Self {
        Builder {
            version,
            generator: DEFAULT_GENERATOR,
            schema: 0,
            next_id: 1,
            max_id: 0,
            sections: Default::default(),
            functions: Vec::new(),
            graphs: Vec::new(),
            origins: Default::default(),
            pushes: 0,
            in_function: false,
            in_graph: false,
            ids: Ids::new(0),
            registry,
            scratch: Vec::new(),
        }
    }

    /// A builder that goes on from a read module: its instructions stay exactly where
    /// they are (debug lines between functions included), pushes land at the end of
    /// their sections, fresh ids start at its bound, and the header keeps its version,
    /// generator and schema (and its bound, unless ids above it are pushed). Its
    /// instructions are not pushes: an error at one of them names no push.
    ///
    /// ```
    /// use spirv_core::{spv, spv::inst, Builder, Module};
    /// let mut b = Builder::new((1, 3));
    /// let int = b.id()?;
    /// b.push(inst::TypeInt { result_id: int, width: 32, signedness: 1 })?;
    /// let read = Module::from_bytes(&b.build()?.to_bytes())?;
    ///
    /// let mut more = Builder::from_module(&read);
    /// let float = more.id()?;
    /// assert_eq!(float.0, 2, "after the module's bound");
    /// more.push(inst::Capability { capability: spv::Capability::Shader })?;
    /// more.push(inst::TypeFloat { result_id: float, width: 32, floating_point_encoding: None })?;
    /// let m = more.build()?;
    /// let ops: Vec<_> = m.instructions().map(|i| i.opcode()).collect();
    /// assert_eq!(ops, [spv::Opcode::Capability, spv::Opcode::TypeInt, spv::Opcode::TypeFloat]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_module(module: &Module) -> Self {
        let header = module.header();
        let registry = module.read_registry().cloned().unwrap_or_default();
        let mut b = Self::with_registry(header.version(), registry);
        b.generator = header.generator;
        b.schema = header.schema;
        b.ids = module.ids().clone();
        let words_of = |r: core::ops::Range<usize>| -> Vec<u32> {
            r.filter_map(|i| module.instruction(i))
                .flat_map(|i| i.words().iter().copied())
                .collect()
        };
        for s in Section::ALL {
            let range = module.section_range(s);
            let count = range.len();
            let words = words_of(range);
            let target = match s {
                Section::Function => Target::Functions,
                Section::Graph => Target::Graphs,
                other => Target::Section(other),
            };
            b.out(target).extend_from_slice(&words);
            let index = b.target_index(target);
            b.origins[index].extend(core::iter::repeat_n(FROM_MODULE, count));
        }
        b.max_id = header.bound.saturating_sub(1);
        b.next_id = header.bound.max(1);
        b
    }

    /// Sets the generator word.
    pub fn generator(&mut self, word: u32) -> &mut Self {
        self.generator = word;
        self
    }

    /// What the builder knows about the ids pushed so far (value types, number types,
    /// imported sets): the context for a typed instruction's
    /// [`visit_ids`](spv::Instruction::visit_ids).
    pub fn ids(&self) -> &Ids {
        &self.ids
    }

    /// Allocates a fresh id, one above every id allocated or pushed so far.
    ///
    /// # Errors
    /// [`BuildErrorKind::IdOverflow`] when that id would be `u32::MAX` (after an
    /// instruction with id `u32::MAX - 1` was pushed, say).
    pub fn id(&mut self) -> Result<Id, BuildError> {
        let id = self.next_id;
        if id == u32::MAX {
            return Err(BuildError::new(BuildErrorKind::IdOverflow, None));
        }
        self.next_id += 1;
        self.max_id = self.max_id.max(id);
        Ok(Id(id))
    }

    /// Appends an instruction to its section (or to the current function).
    ///
    /// # Errors
    /// A function-only instruction outside a function, `OpFunction` inside one,
    /// `OpFunctionEnd` outside one, an instruction that is too long, an id of 0 or
    /// `u32::MAX`, or operands that do not read ([`BuildErrorKind::Operands`]). The
    /// error names this push; on error the builder is unchanged.
    pub fn push(&mut self, inst: impl Into<spv::Instruction>) -> Result<(), BuildError> {
        self.push_instruction(&inst.into())
    }

    /// [`Self::push`] once the instruction is an `Instruction`: one copy, not one per
    /// struct type that callers push.
    fn push_instruction(&mut self, inst: &spv::Instruction) -> Result<(), BuildError> {
        let push = self.pushes;
        let fail = |kind| Err(BuildError::new(kind, Some(push)));
        let opcode = inst.opcode();
        let info = opcode.info();
        let section = Section::of(opcode, info);
        let (target, in_function) = match opcode {
            spv::Opcode::Function if self.in_function => {
                return fail(BuildErrorKind::FunctionInsideFunction);
            }
            spv::Opcode::Function => (Target::Functions, true),
            spv::Opcode::FunctionEnd if !self.in_function => {
                return fail(BuildErrorKind::NoFunctionOpen(opcode));
            }
            spv::Opcode::FunctionEnd => (Target::Functions, false),
            // Inside a function: what belongs there, and what may be there too.
            _ if self.in_function => match section {
                Some(s) if s != Section::Function && !Section::also_in_functions(opcode) => {
                    (Target::Section(s), true)
                }
                _ => (Target::Functions, true),
            },
            // A graph's body (`SPV_ARM_graph`) stays in the graph.
            _ if self.in_graph && (section.is_none() || Section::also_in_graphs(opcode)) => {
                (Target::Graphs, false)
            }
            _ => match section {
                None | Some(Section::Function) => {
                    return fail(BuildErrorKind::OutsideFunction(opcode));
                }
                Some(Section::Graph) => (Target::Graphs, false),
                Some(s) => (Target::Section(s), false),
            },
        };
        let mut words = core::mem::take(&mut self.scratch);
        words.clear();
        let checked = inst
            .encode(&mut words)
            .map_err(|e| BuildError::new(BuildErrorKind::Encode(e), Some(push)))
            .and_then(|()| self.read_ids(&words, push));
        let max = match checked {
            Ok(max) => max,
            Err(e) => {
                self.scratch = words;
                return Err(e);
            }
        };
        self.out(target).extend_from_slice(&words);
        self.origins[self.target_index(target)].push(push as u32);
        self.scratch = words;
        self.pushes += 1;
        self.in_function = in_function;
        match opcode {
            spv::Opcode::GraphARM => self.in_graph = true,
            spv::Opcode::GraphEndARM => self.in_graph = false,
            _ => {}
        }
        self.max_id = self.max_id.max(max);
        self.next_id = self.next_id.max(max + 1);
        Ok(())
    }

    /// Reads an encoded instruction's operands as the module reader will, with the
    /// facts of the pushes before it, records what it defines, and returns its largest
    /// id. Nothing is recorded on error.
    fn read_ids(&mut self, words: &[u32], push: usize) -> Result<u32, BuildError> {
        let fail = |kind| Err(BuildError::new(kind, Some(push)));
        let opcode = (words[0] & 0xFFFF) as u16;
        let ops = &words[1..];
        // An instruction the grammar does not know (kept as raw words) is placed but
        // not read: its words say nothing of ids.
        let Some(info) = spv::GRAMMAR.instruction(u32::from(opcode)) else {
            return Ok(0);
        };
        let mut max = 0;
        let mut zero = false;
        let mut unknown = None;
        let mut each = |p: &walk::Parsed| {
            if p.unknown && unknown.is_none() {
                unknown = Some(p.start);
            }
            if p.kind.is_id() {
                let id = ops[p.start];
                zero |= id == 0;
                max = max.max(id);
            }
        };
        let walked = walk::walk(info, ops, &self.ids, WalkOptions::default(), &mut each);
        let summary = match walked {
            Ok(summary) => summary,
            Err((kind, _)) => return fail(BuildErrorKind::Operands(kind)),
        };
        if zero {
            return fail(BuildErrorKind::ZeroId);
        }
        if max == u32::MAX {
            return fail(BuildErrorKind::IdOverflow);
        }
        if unknown.is_some() && opcode == spv::Opcode::ExtInst.0 {
            return fail(BuildErrorKind::Operands(
                crate::DecodeErrorKind::UnknownExtInstLayout,
            ));
        }
        // The dense part of the id table follows what has been built.
        let built = self.sections.iter().map(Vec::len).sum::<usize>()
            + self.functions.len()
            + self.graphs.len();
        self.ids.grow_limit(built.saturating_add(words.len()));
        if let Err(kind) = walk::observe(&mut self.ids, &self.registry, opcode, ops, &summary) {
            return fail(BuildErrorKind::Operands(kind));
        }
        Ok(max)
    }

    fn target_index(&self, target: Target) -> usize {
        match target {
            Target::Section(s) => s as usize,
            Target::Functions => Section::Function as usize,
            Target::Graphs => Section::Function as usize + 1,
        }
    }

    fn out(&mut self, target: Target) -> &mut Vec<u32> {
        match target {
            Target::Section(s) => &mut self.sections[s as usize],
            Target::Functions => &mut self.functions,
            Target::Graphs => &mut self.graphs,
        }
    }

    /// Begins a function: `OpFunction`, returning its id.
    ///
    /// # Errors
    /// A function is already open.
    pub fn begin_function(
        &mut self,
        result_type: Id,
        control: spv::FunctionControl,
        function_type: Id,
    ) -> Result<Id, BuildError> {
        if self.in_function {
            return Err(BuildError::new(
                BuildErrorKind::FunctionInsideFunction,
                Some(self.pushes),
            ));
        }
        let id = self.id()?;
        self.push(spv::inst::Function {
            result_type,
            result_id: id,
            function_control: control,
            function_type,
        })?;
        Ok(id)
    }

    /// Adds an `OpFunctionParameter` of type `ty`, returning its id.
    ///
    /// # Errors
    /// No function is open.
    pub fn parameter(&mut self, ty: Id) -> Result<Id, BuildError> {
        if !self.in_function {
            return Err(BuildError::new(
                BuildErrorKind::NoFunctionOpen(spv::Opcode::FunctionParameter),
                Some(self.pushes),
            ));
        }
        let id = self.id()?;
        self.push(spv::inst::FunctionParameter {
            result_type: ty,
            result_id: id,
        })?;
        Ok(id)
    }

    /// Begins a block with a fresh label, returning the label's id.
    ///
    /// # Errors
    /// No function is open.
    pub fn begin_block(&mut self) -> Result<Id, BuildError> {
        if !self.in_function {
            return Err(BuildError::new(
                BuildErrorKind::NoFunctionOpen(spv::Opcode::Label),
                Some(self.pushes),
            ));
        }
        let id = self.id()?;
        self.push(spv::inst::Label { result_id: id })?;
        Ok(id)
    }

    /// Adds an `OpExtInst` of the set imported as `set` (an `OpExtInstImport` result),
    /// with a typed instruction of that set's generated `Instruction` enum; returns its
    /// result id.
    ///
    /// ```
    /// use spirv_core::{ext::glsl_std_450 as glsl, spv, spv::inst, Builder};
    /// # #[cfg(feature = "typed-ext")] {
    /// let mut b = Builder::new((1, 0));
    /// let set = b.id().unwrap();
    /// b.push(inst::ExtInstImport { result_id: set, name: "GLSL.std.450".into() }).unwrap();
    /// # let (float, x) = (b.id().unwrap(), b.id().unwrap());
    /// // … types and a function; then, in a block:
    /// # b.push(inst::TypeFloat { result_id: float, width: 32, floating_point_encoding: None }).unwrap();
    /// let root = b.ext_inst(float, set, &glsl::Instruction::from(glsl::inst::Sqrt { x })).unwrap();
    /// # }
    /// ```
    ///
    /// # Errors
    /// As [`Builder::push`], and [`BuildErrorKind::IdOverflow`].
    pub fn ext_inst<I: crate::typed::InstructionSet>(
        &mut self,
        result_type: Id,
        set: Id,
        inst: &I,
    ) -> Result<Id, BuildError> {
        let mut words = Vec::new();
        inst.encode_operands(&mut words);
        let id = self.id()?;
        self.push(spv::inst::ExtInst {
            result_type,
            result_id: id,
            set,
            instruction: inst.number(),
            // The core grammar lists an OpExtInst's operands as ids; the set's own
            // layout, literals included, is in these words.
            operands: words.into_iter().map(Id).collect(),
        })?;
        Ok(id)
    }

    /// Ends the function: `OpFunctionEnd`.
    ///
    /// # Errors
    /// No function is open.
    pub fn end_function(&mut self) -> Result<(), BuildError> {
        self.push(spv::inst::FunctionEnd {})
    }

    /// The header the module will get; the bound is the largest id used plus one.
    pub fn header(&self) -> Header {
        Header {
            version: Header::version_word(self.version.0, self.version.1),
            generator: self.generator,
            bound: self.max_id + 1,
            schema: self.schema,
        }
    }

    /// The module's words.
    pub fn words(&self) -> Vec<u32> {
        let mut out = Vec::with_capacity(
            5 + self.sections.iter().map(Vec::len).sum::<usize>()
                + self.functions.len()
                + self.graphs.len(),
        );
        out.extend_from_slice(&self.header().to_words());
        for s in &self.sections {
            out.extend_from_slice(s);
        }
        out.extend_from_slice(&self.functions);
        out.extend_from_slice(&self.graphs);
        out
    }

    /// The module, read back through the reader (with the builder's registry).
    ///
    /// # Errors
    /// A function is still open, or the module does not read back; the error names the
    /// push of the instruction the reader stopped at.
    pub fn build(&self) -> Result<Module, BuildError> {
        if self.in_function {
            return Err(BuildError::new(BuildErrorKind::UnterminatedFunction, None));
        }
        let opts = crate::ReadOptions {
            registry: Some(&self.registry),
            ..crate::ReadOptions::default()
        };
        Module::read_owned(self.words(), &opts).map_err(|e| {
            let push = e
                .instruction
                .and_then(|i| self.origins.iter().flatten().nth(i))
                .filter(|&&p| p != FROM_MODULE)
                .map(|&p| p as usize);
            BuildError {
                kind: BuildErrorKind::Read(e.kind.clone()),
                push,
                module_error: Some(e),
            }
        })
    }
}
