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

use crate::__private::Vec;
use crate::binary::Header;
use crate::error::DecodeError;
use crate::grammar::Version;
use crate::module::{Module, Section};
use crate::spv;
use crate::types::Id;
use core::fmt;

/// The generator word the builder writes by default: tool id 0xFFFF (unregistered),
/// version 1 — the same as the `spirv-asm` assembler's.
pub const DEFAULT_GENERATOR: u32 = 0xFFFF_0001;

/// A misuse of the builder.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum BuildError {
    /// An instruction that belongs in a function was pushed outside one.
    OutsideFunction(spv::Opcode),
    /// A function or block was begun inside another, or ended when none was open.
    Nesting(&'static str),
    /// An instruction longer than 65535 words.
    TooLong(spv::Opcode),
    /// An id of `u32::MAX`, or an id allocation past it: the header's bound (the
    /// largest id plus one) would not fit 32 bits.
    IdOverflow,
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::OutsideFunction(op) => write!(f, "{op:?} must be inside a function"),
            BuildError::Nesting(what) => f.write_str(what),
            BuildError::TooLong(op) => write!(f, "{op:?} is longer than 65535 words"),
            BuildError::IdOverflow => {
                f.write_str("id out of range: the bound (largest id + 1) must fit 32 bits")
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for BuildError {}

/// Builds a module section by section: ids are allocated, each instruction goes to
/// its logical-layout section whatever the order of pushes, and the bound is recorded.
#[derive(Debug, Clone)]
pub struct Builder {
    version: Version,
    generator: u32,
    next_id: u32,
    max_id: u32,
    /// The words of each section before the functions.
    sections: [Vec<u32>; Section::Function as usize],
    functions: Vec<u32>,
    graphs: Vec<u32>,
    in_function: bool,
    in_graph: bool,
}

impl Builder {
    /// A builder for SPIR-V `version` (`(1, 0)` … `(1, 6)`).
    pub fn new(version: Version) -> Self {
        Builder {
            version,
            generator: DEFAULT_GENERATOR,
            next_id: 1,
            max_id: 0,
            sections: Default::default(),
            functions: Vec::new(),
            graphs: Vec::new(),
            in_function: false,
            in_graph: false,
        }
    }

    /// Sets the generator word.
    pub fn generator(&mut self, word: u32) -> &mut Self {
        self.generator = word;
        self
    }

    /// Allocates a fresh id, one above every id allocated or pushed so far.
    ///
    /// # Errors
    /// [`BuildError::IdOverflow`] when that id would be `u32::MAX` (after an instruction
    /// with id `u32::MAX - 1` was pushed, say).
    pub fn id(&mut self) -> Result<Id, BuildError> {
        let id = self.next_id;
        if id == u32::MAX {
            return Err(BuildError::IdOverflow);
        }
        self.next_id += 1;
        self.max_id = self.max_id.max(id);
        Ok(Id(id))
    }

    /// Appends an instruction to its section (or to the current function).
    ///
    /// # Errors
    /// A function-only instruction outside a function, `OpFunction` inside one,
    /// `OpFunctionEnd` outside one, an instruction that is too long, or an id of
    /// `u32::MAX`. On error the builder is unchanged.
    pub fn push(&mut self, inst: impl Into<spv::Instruction>) -> Result<(), BuildError> {
        let inst: spv::Instruction = inst.into();
        let opcode = inst.opcode();
        let mut max = 0;
        inst.visit_ids(&mut |id| max = max.max(id.0));
        if max == u32::MAX {
            return Err(BuildError::IdOverflow);
        }
        let mut in_function = self.in_function;
        let section = Section::of(opcode, opcode.info());
        let target = match opcode {
            spv::Opcode::Function => {
                if self.in_function {
                    return Err(BuildError::Nesting("OpFunction inside a function"));
                }
                in_function = true;
                None
            }
            spv::Opcode::FunctionEnd => {
                if !self.in_function {
                    return Err(BuildError::Nesting("OpFunctionEnd outside a function"));
                }
                in_function = false;
                None
            }
            // Inside a function: what belongs there, and what may be there too.
            _ if self.in_function => match section {
                None | Some(Section::Function) => None,
                Some(_) if Section::also_in_functions(opcode) => None,
                Some(s) => Some(s),
            },
            // A graph's body (`SPV_ARM_graph`) stays in the graph.
            _ if self.in_graph && (section.is_none() || Section::also_in_graphs(opcode)) => {
                Some(Section::Graph)
            }
            _ => match section {
                Some(Section::Function) | None => {
                    return Err(BuildError::OutsideFunction(opcode));
                }
                Some(s) => Some(s),
            },
        };
        let out = match target {
            Some(s) if s < Section::Function => &mut self.sections[s as usize],
            Some(Section::Graph) => &mut self.graphs,
            _ => &mut self.functions,
        };
        let start = out.len();
        inst.encode(out);
        if out.len() - start > 0xffff {
            out.truncate(start);
            return Err(BuildError::TooLong(opcode));
        }
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
            return Err(BuildError::OutsideFunction(spv::Opcode::FunctionParameter));
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
            return Err(BuildError::OutsideFunction(spv::Opcode::Label));
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
    /// As [`Builder::push`], and [`BuildError::IdOverflow`].
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
            schema: 0,
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

    /// The module, read back through the validating reader.
    ///
    /// # Errors
    /// The instructions pushed do not form a readable module (for example an
    /// `OpConstant` whose type was never declared).
    pub fn build(&self) -> Result<Module, DecodeError> {
        Module::from_words(&self.words())
    }
}
