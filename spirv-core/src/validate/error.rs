//! What the validator reports: one [`ValidationError`] per fault, with the rule broken
//! ([`ErrorKind`], carrying the ids, operands and values involved), where it is, and
//! spirv-val 2025.5's message for it (its text is written in `error_text.rs`). Ids in
//! messages are named by a caller-supplied function, so that spirv-asm can print
//! spirv-val's friendly names while this crate knows none.

use crate::__private::{String, Vec};
use crate::env::TargetEnv;
use crate::error::DecodeErrorKind;
use crate::grammar::Version;
use crate::spv;
use crate::types::Id;
pub(super) use core::fmt::Write as Out;
use core::fmt::{self, Write};

/// One fault found by the validator.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ValidationError {
    /// The rule broken, with what it involves.
    pub kind: ErrorKind,
    /// The 0-based index of the instruction spirv-val names for this fault (the one it
    /// prints under its message); `None` for faults of the header or of the module as
    /// a whole, which spirv-val reports at `line 0`.
    pub instruction: Option<usize>,
    /// The word offset of that instruction from the module's start (`None` with
    /// `instruction`).
    pub offset: Option<usize>,
}

impl ValidationError {
    pub(crate) fn at(kind: ErrorKind, instruction: usize, offset: usize) -> Self {
        ValidationError {
            kind,
            instruction: Some(instruction),
            offset: Some(offset),
        }
    }

    pub(crate) fn module(kind: ErrorKind) -> Self {
        ValidationError {
            kind,
            instruction: None,
            offset: None,
        }
    }

    /// spirv-val's `line N`: the 1-based index of the instruction, or 0.
    pub fn line(&self) -> usize {
        self.instruction.map_or(0, |i| i + 1)
    }

    /// Whether spirv-val prints the instruction under the message. It does for every
    /// fault it ties to an instruction, except those its binary parser finds.
    pub fn shows_instruction(&self) -> bool {
        self.instruction.is_some() && !matches!(self.kind, ErrorKind::Parse(_))
    }

    /// spirv-val's message, each id named by `name` (spirv-val prints `'N[%name]'`,
    /// with friendly names where `name` gives them and the number otherwise).
    pub fn message_with(&self, name: &dyn Fn(u32) -> Option<String>) -> String {
        let mut out = String::new();
        // Writing to a String cannot fail.
        let _ = self.kind.write(&mut out, &Namer(name));
        out
    }
}

impl fmt::Display for ValidationError {
    /// The message with ids as `'N[%N]'`, then where: `(instruction N, word W)` with `N`
    /// counted from 0.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.kind.write(f, &Namer(&|_| None))?;
        if let (Some(i), Some(w)) = (self.instruction, self.offset) {
            write!(f, " (instruction {i}, word {w})")?;
        }
        Ok(())
    }
}

#[cfg(feature = "std")]
impl std::error::Error for ValidationError {}

/// Names ids as spirv-val's `getIdName` does.
pub(super) struct Namer<'n>(&'n dyn Fn(u32) -> Option<String>);

impl Namer<'_> {
    /// Writes `'N[%name]'`.
    pub(super) fn id(&self, out: &mut dyn Write, id: Id) -> fmt::Result {
        match (self.0)(id.0) {
            Some(n) => write!(out, "'{}[%{n}]'", id.0),
            None => write!(out, "'{0}[%{0}]'", id.0),
        }
    }
}

/// Where an `OpExtInst` of a debug-info set may stand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DebugInfoPlace {
    /// `DebugScope`, `DebugNoScope`, `DebugDeclare`, `DebugValue` (and, for
    /// `NonSemantic.Shader.DebugInfo.100`, the line and function-definition
    /// instructions): in a function body.
    FunctionBody,
    /// The others: between the types section and the function declarations.
    Globals,
}

/// The graph rule of `SPV_ARM_graph` that an instruction breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum GraphRule {
    /// `OpGraphARM` inside a graph.
    GraphInGraph,
    /// `OpGraphInputARM` not right after `OpGraphARM` or another input.
    InputPlacement,
    /// `OpGraphSetOutputARM` outside a graph.
    OutputPlacement,
    /// `OpGraphEndARM` without an output before it.
    EndWithoutOutput,
    /// `OpGraphEntryPointARM` inside a graph.
    EntryPointInGraph,
    /// Another instruction outside a graph's body.
    OutsideBody,
    /// Another instruction after a graph's outputs.
    AfterOutputs,
    /// An instruction that does not belong in the graph section.
    NotInGraphSection,
}

/// The rule a module breaks, with the ids, operands and values it involves.
///
/// Opcodes are [`spv::Opcode`]s and capabilities their `Capability` values; messages
/// name them by the grammar, as spirv-val does. Operand numbers count from 1 and
/// include the result type and result id, as spirv-val's messages do.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    // --- The header. ---
    /// The first word is not the magic number in either byte order.
    BadMagic,
    /// Fewer than five words.
    TruncatedHeader,
    /// The header's version is newer than the target environment's.
    VersionTooNew {
        /// The header's version word.
        version: u32,
        /// The environment validated against.
        env: TargetEnv,
    },
    /// The header's bound is above the id-bound limit.
    BoundTooLarge {
        /// The limit.
        limit: u32,
    },
    /// The binary does not parse (spirv-val's parser and spirv-dis's find the same
    /// faults; spirv-asm prints their messages).
    Parse(DecodeErrorKind),

    // --- Entry points and calls, as spirv-val registers them. ---
    /// Two `OpEntryPoint`s with the same name and execution model.
    DuplicateEntryPoint,
    /// `OpFunctionCall` outside a function body.
    CallOutsideFunction,

    // --- Ids. ---
    /// An id used is neither defined earlier nor allowed as a forward reference.
    NotDefined {
        /// The id.
        id: Id,
    },
    /// A result type that is not a type.
    NotAType {
        /// The id.
        id: Id,
    },
    /// A type where this instruction takes a value.
    CannotBeType {
        /// The id.
        id: Id,
    },
    /// An operand without a type (a label, a function, an import, …) where this
    /// instruction takes a value.
    RequiresType {
        /// The id.
        id: Id,
    },
    /// A non-semantic instruction's result used by a semantic instruction.
    NonSemanticOperand {
        /// The id.
        id: Id,
    },
    /// A type declaration refers forward to an id that is not an `OpTypeForwardPointer`.
    RequiresPreviousDefinition {
        /// The id.
        id: Id,
    },
    /// `OpExtInstWithForwardRefsKHR` of a semantic set.
    ForwardRefsInSemantic,
    /// `OpExtInstWithForwardRefsKHR` without a forward reference.
    ForwardRefsMissing,
    /// Ids referred to forward and never defined, in spirv-val's order.
    UndefinedForwardReferences {
        /// The ids.
        ids: Vec<Id>,
    },

    // --- The target environment's capabilities. ---
    /// A capability the environment does not allow.
    CapabilityNotAllowed {
        /// The capability.
        capability: u32,
        /// The environment.
        env: TargetEnv,
    },

    // --- The logical layout. ---
    /// A debug-info extended instruction out of its place.
    DebugInfoPlacement {
        /// Where it belongs.
        belongs: DebugInfoPlace,
    },
    /// A non-semantic extended instruction before the types section.
    NonSemanticBeforeTypes,
    /// A non-semantic extended instruction in a function but outside a block.
    NonSemanticOutsideBlock,
    /// An instruction that belongs in a block, outside one.
    OutsideBlock {
        /// Its opcode.
        opcode: spv::Opcode,
    },
    /// An instruction whose section the module has already passed.
    WrongSection {
        /// Its opcode.
        opcode: spv::Opcode,
    },
    /// An instruction before `OpMemoryModel` that must come after it.
    BeforeMemoryModel {
        /// Its opcode.
        opcode: spv::Opcode,
    },
    /// `OpFunction` inside a function.
    FunctionInFunction,
    /// `OpFunctionParameter` outside a function.
    ParameterOutsideFunction,
    /// `OpFunctionParameter` after the function's first block.
    ParameterAfterBlock,
    /// `OpFunctionEnd` outside a function.
    FunctionEndOutsideFunction,
    /// `OpFunctionEnd` inside a block.
    FunctionEndInBlock,
    /// A function declaration after a function definition.
    DeclarationAfterDefinition,
    /// `OpLabel` outside a function.
    LabelOutsideFunction,
    /// A new block while the previous one has no terminator.
    MissingTerminator,
    /// A function body that does not begin with `OpLabel`.
    MissingLabel,
    /// A graph instruction out of place (`SPV_ARM_graph`).
    Graph {
        /// The rule.
        rule: GraphRule,
        /// The instruction's opcode.
        opcode: spv::Opcode,
    },

    // --- Control flow. ---
    /// `OpReturn` in a function that returns a value.
    ReturnInNonVoid,
    /// A branch to the function's first block (reported at its `OpFunction`).
    FirstBlockTargeted {
        /// The first block.
        block: Id,
        /// The function.
        function: Id,
        /// The block that branches.
        by: Id,
    },
    /// A block named as the merge block of a second header (reported at the
    /// function's `OpFunction`).
    AlreadyMergeBlock {
        /// The block.
        block: Id,
    },

    // --- Per instruction: state, capabilities, versions, limits. ---
    /// A second `OpMemoryModel`.
    DuplicateMemoryModel,
    /// `OpSamplerImageAddressingModeNV` without `BindlessTextureNV`.
    SamplerAddressingWithoutExtension,
    /// A second `OpSamplerImageAddressingModeNV`.
    DuplicateSamplerAddressing,
    /// `OpSamplerImageAddressingModeNV` with a width other than 32 or 64.
    SamplerAddressingWidth,
    /// One of the opcodes the specification reserves (`OpImageSparseSampleProj*`).
    ReservedOpcode {
        /// The opcode.
        opcode: spv::Opcode,
    },
    /// An opcode whose capabilities are all undeclared.
    OpcodeCapability {
        /// The opcode.
        opcode: spv::Opcode,
        /// The capabilities that would enable it, in value order.
        capabilities: Vec<u32>,
    },
    /// An enumerant (or mask bit) whose capabilities are all undeclared.
    OperandCapability {
        /// The instruction's opcode.
        opcode: spv::Opcode,
        /// The operand's number, from 1.
        operand: usize,
        /// The capabilities that would enable it, in value order.
        capabilities: Vec<u32>,
    },
    /// An enumerant the module's version, and no declared extension, allows.
    OperandVersion {
        /// The instruction's opcode.
        opcode: spv::Opcode,
        /// The operand's number, from 1.
        operand: usize,
        /// The enumerant's name.
        name: &'static str,
        /// Its value (or bit).
        value: u32,
        /// What it needs.
        needs: VersionNeed,
    },
    /// An opcode the module's version, and no declared extension, allows.
    OpcodeVersion {
        /// The opcode.
        opcode: spv::Opcode,
        /// What it needs.
        needs: VersionNeed,
    },
    /// A result id not below the header's bound.
    IdNotBelowBound {
        /// The id.
        id: Id,
        /// The bound.
        bound: u32,
    },
    /// More struct members than the limit.
    StructMembers {
        /// Members.
        count: usize,
        /// The limit.
        limit: u32,
    },
    /// Structs nested deeper than the limit.
    StructDepth {
        /// The depth.
        depth: u32,
        /// The limit.
        limit: u32,
    },
    /// More `OpSwitch` cases than the limit.
    SwitchBranches {
        /// The cases.
        count: usize,
        /// The limit.
        limit: u32,
    },
    /// More `Function` variables than the limit.
    LocalVariables {
        /// The limit.
        limit: u32,
    },
    /// More variables of other storage classes than the limit.
    GlobalVariables {
        /// The limit.
        limit: u32,
    },

    // --- The end of the module. ---
    /// No `OpMemoryModel`.
    MissingMemoryModel,
    /// The last function has no `OpFunctionEnd`.
    MissingFunctionEnd,
    /// The last graph has no `OpGraphEndARM`.
    MissingGraphEnd,
    /// `BindlessTextureNV` without `OpSamplerImageAddressingModeNV`.
    MissingSamplerAddressing,
    /// Both the EXT and the NV mesh or task execution models.
    MeshModelMix {
        /// Whether the Vulkan rule's id is named.
        vulkan: bool,
    },

    // --- Per instruction, after the whole module is known. ---
    /// An extension that needs a newer SPIR-V version.
    ExtensionVersion {
        /// The extension.
        extension: String,
        /// The version it needs.
        needs: Version,
    },
    /// A `NonSemantic.` import without `SPV_KHR_non_semantic_info` before SPIR-V 1.6.
    NonSemanticWithoutExtension,
    /// A type declared twice (other than arrays, structs and pointers).
    DuplicateType {
        /// The opcode.
        opcode: spv::Opcode,
        /// The second declaration's id.
        id: Id,
    },

    /// An `OpEntryPoint` whose entry point is not an `OpFunction`.
    EntryPointNotFunction {
        /// The entry point id.
        id: Id,
    },
    /// A shader entry point whose function takes parameters.
    EntryPointParameters {
        /// The entry point id.
        id: Id,
        /// Whether the Vulkan rule's id is named.
        vulkan: bool,
    },
    /// An entry point whose function returns a value.
    EntryPointReturnType {
        /// The entry point id.
        id: Id,
        /// Whether the Vulkan rule's id is named.
        vulkan: bool,
    },
    /// An `OpExecutionMode` or `OpExecutionModeId` whose entry point no `OpEntryPoint`
    /// names.
    ModeWithoutEntryPoint {
        /// The id it names.
        id: Id,
    },

    // --- The rule families of spirv-val's later passes, each with its messages. ---
    /// Control flow, structured control flow, dominance and adjacency.
    Cfg(super::CfgError),
    /// Decorations and block layout.
    Decoration(super::DecorationError),
    /// Variables, loads, stores, copies and access chains.
    Memory(super::MemoryError),
    /// Functions, parameters and calls.
    Function(super::FunctionError),
    /// Types, constants and literals.
    Type(super::TypeError),
    /// The result and operand types of arithmetic, composite, conversion, bitwise and
    /// logical instructions.
    Operation(super::OperationError),
    /// Execution modes, interfaces and built-ins.
    Mode(super::ModeError),

    // --- Entry points, after the whole module is known. ---
    /// No entry point, and neither `Linkage` nor `GraphARM`.
    NoEntryPoint,
    /// A function that is both an entry point and called.
    EntryPointCalled {
        /// The function.
        function: Id,
    },
    /// A Vulkan entry point whose call graph has a cycle.
    RecursiveEntryPoint,
    /// `GraphARM` without a graph entry point.
    NoGraphEntryPoint,
}

/// What a versioned item needs that the module lacks.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum VersionNeed {
    /// It was removed after this version.
    AtMost(Version),
    /// It needs this version.
    AtLeast(Version),
    /// No core version has it, and no enabling extension is declared.
    Extension(&'static [&'static str]),
    /// This version or one of these extensions.
    AtLeastOrExtension(Version, &'static [&'static str]),
    /// No version has it and nothing enables it.
    Reserved,
}

/// The grammar's name of an opcode without its `Op` (spirv-val's `spvOpcodeString`).
pub(crate) fn opcode_name(op: spv::Opcode) -> &'static str {
    match op.info() {
        Some(i) => i.opname.strip_prefix("Op").unwrap_or(i.opname),
        None => "unknown",
    }
}
