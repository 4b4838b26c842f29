//! What the validator reports: one [`ValidationError`] per fault, with the rule broken
//! ([`ValidationErrorKind`]), where it is, and spirv-val 2025.5's message for it.
//! [`ValidationErrorKind`]'s own rows are the faults of spirv-val's driver and first
//! loop (`validate.cpp`, the id, capability, layout and instruction passes,
//! `CfgPass`), which stop validation before any later family runs; each later family
//! has its own table, which [`ValidationErrorKind`] wraps in one variant. Ids in
//! messages are named by a caller-supplied function, so that spirv-asm can print
//! spirv-val's friendly names while this crate knows none.

use super::faults::{Namer, faults};
use crate::__private::{String, Vec};
use crate::env::TargetEnv;
use crate::error::DecodeErrorKind;
use crate::grammar::Version;
use crate::spv;
use crate::types::Id;
use core::fmt;

/// One fault found by the validator.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ValidationError {
    /// The rule broken, with what it involves.
    pub kind: ValidationErrorKind,
    /// The 0-based index of the instruction spirv-val names for this fault (the one it
    /// prints under its message); `None` for faults of the header or of the module as
    /// a whole, which spirv-val reports at `line 0`.
    pub instruction: Option<usize>,
    /// The word offset of that instruction from the module's start (`None` with
    /// `instruction`).
    pub offset: Option<usize>,
    /// Validated for a Vulkan environment, where spirv-val names the rule's VUID.
    vulkan: bool,
}

impl ValidationError {
    pub(crate) fn at(
        kind: ValidationErrorKind,
        instruction: usize,
        offset: usize,
        vulkan: bool,
    ) -> Self {
        ValidationError {
            kind,
            instruction: Some(instruction),
            offset: Some(offset),
            vulkan,
        }
    }

    pub(crate) fn module(kind: ValidationErrorKind, vulkan: bool) -> Self {
        ValidationError {
            kind,
            instruction: None,
            offset: None,
            vulkan,
        }
    }

    /// spirv-val's `line N`: the 1-based index of the instruction, or 0.
    pub fn line(&self) -> usize {
        self.instruction.map_or(0, |i| i + 1)
    }

    /// Whether spirv-val prints the instruction under the message. It does for every
    /// fault it ties to an instruction, except those its binary parser finds.
    pub fn shows_instruction(&self) -> bool {
        self.instruction.is_some() && !matches!(self.kind, ValidationErrorKind::Parse(_))
    }

    /// The VUID of the Vulkan rule broken, as spirv-val names it at the start of its
    /// message (`VUID-StandaloneSpirv-None-04633`): only for faults of rules that have
    /// one, found validating for a Vulkan environment.
    pub fn vuid(&self) -> Option<&'static str> {
        self.kind.vuid().filter(|_| self.vulkan)
    }

    /// spirv-val's message, each id named by `name` (spirv-val prints `'N[%name]'`,
    /// with friendly names where `name` gives them and the number otherwise).
    pub fn message_with(&self, name: &dyn Fn(u32) -> Option<String>) -> String {
        let mut out = String::new();
        // Writing to a String cannot fail.
        let _ = self.kind.write(&mut out, &Namer(name), self.vulkan);
        out
    }
}

impl fmt::Display for ValidationError {
    /// The message with ids as `'N[%N]'`, then where: `(instruction N, word W)` with `N`
    /// counted from 0.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.kind.write(f, &Namer::NONE, self.vulkan)?;
        if let (Some(i), Some(w)) = (self.instruction, self.offset) {
            write!(f, " (instruction {i}, word {w})")?;
        }
        Ok(())
    }
}

#[cfg(feature = "std")]
impl std::error::Error for ValidationError {}

faults! {
    /// The rule a module breaks, with the ids, operands and values it involves.
    ///
    /// Opcodes are [`spv::Opcode`]s, and messages name them by the grammar, as
    /// spirv-val does. Operand numbers count from 1 and include the result type and
    /// result id, as spirv-val's messages do.
    pub enum ValidationErrorKind {
        // --- The header (`ValidateBinaryUsingContextAndValidationState`). ---
        /// The first word is not the magic number in either byte order.
        BadMagic => "Invalid SPIR-V magic number.",
        /// Fewer than five words.
        TruncatedHeader => "Invalid SPIR-V header.",
        /// The header's version is newer than the target environment's.
        VersionTooNew {
            /// The header's version.
            version: Version,
            /// The environment validated against.
            env: TargetEnv,
        } => "Invalid SPIR-V binary version {version} for target environment {env}.",
        /// The header's bound is above the id-bound limit.
        BoundTooLarge {
            /// The limit.
            limit: u32,
        } => "Invalid SPIR-V.  The id bound is larger than the max id bound {limit}.",

        // --- Entry points and calls, as the first loop registers them. ---
        /// Two `OpEntryPoint`s with the same name and execution model.
        DuplicateEntryPoint => "2 Entry points cannot share the same name and ExecutionMode.",
        /// `OpFunctionCall` outside a function body.
        CallOutsideFunction => "A FunctionCall must happen within a function body.",

        // --- Ids (`IdPass`, `validate_id.cpp`). ---
        /// An id used is neither defined earlier nor allowed as a forward reference.
        NotDefined {
            /// The id.
            id: Id,
        } => "ID {id} has not been defined",
        /// A result type that is not a type.
        NotAType {
            /// The id.
            id: Id,
        } => "ID {id} is not a type id",
        /// A type where this instruction takes a value.
        CannotBeType {
            /// The id.
            id: Id,
        } => "Operand {id} cannot be a type",
        /// An operand without a type (a label, a function, an import, …) where this
        /// instruction takes a value.
        RequiresType {
            /// The id.
            id: Id,
        } => "Operand {id} requires a type",
        /// A non-semantic instruction's result used by a semantic instruction.
        NonSemanticOperand {
            /// The id.
            id: Id,
        } => "Operand {id} in semantic instruction cannot be a non-semantic instruction",
        /// A type declaration refers forward to an id that is not an `OpTypeForwardPointer`.
        RequiresPreviousDefinition {
            /// The id.
            id: Id,
        } => "Operand {id} requires a previous definition",
        /// `OpExtInstWithForwardRefsKHR` of a semantic set.
        ForwardRefsInSemantic
            => "OpExtInstWithForwardRefsKHR is only allowed with non-semantic instructions.",
        /// `OpExtInstWithForwardRefsKHR` without a forward reference.
        ForwardRefsMissing
            => "Opcode OpExtInstWithForwardRefsKHR must have at least one forward declared ID.",
        /// Ids referred to forward and never defined, in spirv-val's order
        /// (`ValidateForwardDecls`).
        UndefinedForwardReferences {
            /// The ids.
            ids: Vec<Id>,
        } => "The following forward referenced IDs have not been defined:\n{ids}",

        // --- The target environment's capabilities (`validate_capability.cpp`). ---
        /// A capability the environment does not allow.
        CapabilityNotAllowed {
            /// The capability.
            capability: spv::Capability,
            /// The environment.
            env: TargetEnv,
        } => "Capability {capability} is not allowed by {env:spec} specification (or requires {env:needs})",

        // --- The logical layout (`validate_layout.cpp`). ---
        /// A debug-info instruction that belongs in a function body, outside one.
        DebugInfoOutsideFunction
            => "DebugScope, DebugNoScope, DebugDeclare, DebugValue of debug info extension must appear in a function body",
        /// Another debug-info instruction, outside the types section.
        DebugInfoOutsideGlobals
            => "Debug info extension instructions other than DebugScope, DebugNoScope, DebugDeclare, DebugValue must appear between section 9 (types, constants, global variables) and section 10 (function declarations)",
        /// A non-semantic extended instruction before the types section.
        NonSemanticBeforeTypes => "Non-semantic OpExtInst must not appear before types section",
        /// A non-semantic extended instruction in a function but outside a block.
        NonSemanticOutsideBlock
            => "Non-semantic OpExtInst within function definition must appear in a block",
        /// An instruction that belongs in a block, outside one.
        OutsideBlock {
            /// Its opcode.
            opcode: spv::Opcode,
        } => "{opcode} must appear in a block",
        /// An instruction whose section the module has already passed.
        WrongSection {
            /// Its opcode.
            opcode: spv::Opcode,
        } => "{opcode} is in an invalid layout section",
        /// An instruction before `OpMemoryModel` that must come after it.
        BeforeMemoryModel {
            /// Its opcode.
            opcode: spv::Opcode,
        } => "{opcode} cannot appear before the memory model instruction",
        /// `OpFunction` inside a function.
        FunctionInFunction => "Cannot declare a function in a function body",
        /// `OpFunctionParameter` outside a function.
        ParameterOutsideFunction => "Function parameter instructions must be in a function body",
        /// `OpFunctionParameter` after the function's first block.
        ParameterAfterBlock
            => "Function parameters must only appear immediately after the function definition",
        /// `OpFunctionEnd` outside a function.
        FunctionEndOutsideFunction => "Function end instructions must be in a function body",
        /// `OpFunctionEnd` inside a block.
        FunctionEndInBlock => "Function end cannot be called in blocks",
        /// A function declaration after a function definition.
        DeclarationAfterDefinition
            => "Function declarations must appear before function definitions.",
        /// `OpLabel` outside a function.
        LabelOutsideFunction => "Label instructions must be in a function body",
        /// A new block while the previous one has no terminator.
        MissingTerminator => "A block must end with a branch instruction.",
        /// A function body that does not begin with `OpLabel`.
        MissingLabel => "A function must begin with a label",
        /// `OpGraphARM` inside a graph (`SPV_ARM_graph`).
        GraphInGraph => "Cannot define a graph in a graph",
        /// `OpGraphInputARM` not right after `OpGraphARM` or another input.
        GraphInputPlacement
            => "OpGraphInputARM must immediately follow an OpGraphARM or OpGraphInputARM instruction.",
        /// `OpGraphSetOutputARM` outside a graph.
        GraphOutputPlacement {
            /// The instruction's opcode.
            opcode: spv::Opcode,
        } => "Op{opcode} must immediately precede an OpGraphEndARM or OpGraphSetOutputARM instruction.",
        /// `OpGraphEndARM` without an output before it.
        GraphEndWithoutOutput {
            /// The instruction's opcode.
            opcode: spv::Opcode,
        } => "{opcode} must be preceded by at least one OpGraphSetOutputARM instruction",
        /// `OpGraphEntryPointARM` inside a graph.
        GraphEntryPointInGraph {
            /// The instruction's opcode.
            opcode: spv::Opcode,
        } => "{opcode} cannot appear in the definition of a graph",
        /// Another instruction outside a graph's body.
        GraphOutsideBody {
            /// The instruction's opcode.
            opcode: spv::Opcode,
        } => "Op{opcode} must appear in a graph body",
        /// Another instruction after a graph's outputs.
        GraphAfterOutputs {
            /// The instruction's opcode.
            opcode: spv::Opcode,
        } => "{opcode} cannot appear after a graph output instruction",
        /// An instruction that does not belong in the graph section.
        NotInGraphSection {
            /// The instruction's opcode.
            opcode: spv::Opcode,
        } => "Op{opcode} cannot appear in the graph definitions section",

        // --- Blocks as the first loop reads them (`CfgPass`, `validate_cfg.cpp`). ---
        /// `OpReturn` in a function that returns a value.
        ReturnInNonVoid => "OpReturn can only be called from a function with void return type.",
        /// A branch to the function's first block (reported at its `OpFunction`).
        FirstBlockTargeted {
            /// The first block.
            block: Id,
            /// The function.
            function: Id,
            /// The block that branches.
            by: Id,
        } => "First block {block} of function {function} is targeted by block {by}",
        /// A block named as the merge block of a second header (reported at the
        /// function's `OpFunction`).
        AlreadyMergeBlock {
            /// The block.
            block: Id,
        } => "Block {block} is already a merge block for another header",

        // --- Per instruction: state, capabilities, versions, limits
        // (`validate_instruction.cpp`). ---
        /// A second `OpMemoryModel`.
        DuplicateMemoryModel => "OpMemoryModel should only be provided once.",
        /// `OpSamplerImageAddressingModeNV` without `BindlessTextureNV`.
        SamplerAddressingWithoutExtension
            => "OpSamplerImageAddressingModeNV supported only with extension SPV_NV_bindless_texture",
        /// A second `OpSamplerImageAddressingModeNV`.
        DuplicateSamplerAddressing => "OpSamplerImageAddressingModeNV should only be provided once",
        /// `OpSamplerImageAddressingModeNV` with a width other than 32 or 64.
        SamplerAddressingWidth => "OpSamplerImageAddressingModeNV bitwidth should be 64 or 32",
        /// One of the opcodes the specification reserves (`OpImageSparseSampleProj*`).
        ReservedOpcode {
            /// The opcode.
            opcode: spv::Opcode,
        } => "Invalid Opcode name 'Op{opcode}'",
        /// An opcode whose capabilities are all undeclared.
        OpcodeCapability {
            /// The opcode.
            opcode: spv::Opcode,
            /// The capabilities that would enable it, in value order.
            capabilities: Vec<spv::Capability>,
        } => "Opcode {opcode} requires one of these capabilities: {capabilities}",
        /// An enumerant (or mask bit) whose capabilities are all undeclared.
        OperandCapability {
            /// The operand's number, from 1.
            operand: usize,
            /// The instruction's opcode.
            opcode: spv::Opcode,
            /// The capabilities that would enable it, in value order.
            capabilities: Vec<spv::Capability>,
        } => "Operand {operand} of {opcode} requires one of these capabilities: {capabilities}",
        /// An enumerant removed before the module's version.
        OperandRemoved {
            /// The operand's number, from 1.
            operand: usize,
            /// The instruction's opcode.
            opcode: spv::Opcode,
            /// The enumerant's name.
            name: &'static str,
            /// Its value (or bit).
            value: u32,
            /// The last version that has it.
            version: Version,
        } => "{operand:ordinal} operand of {opcode}: operand {name}({value}) requires SPIR-V version {version} or earlier",
        /// An enumerant that needs a newer version than the module's.
        OperandNeedsVersion {
            /// The operand's number, from 1.
            operand: usize,
            /// The instruction's opcode.
            opcode: spv::Opcode,
            /// The enumerant's name.
            name: &'static str,
            /// Its value (or bit).
            value: u32,
            /// The first version that has it.
            version: Version,
        } => "{operand:ordinal} operand of {opcode}: operand {name}({value}) requires SPIR-V version {version} or later",
        /// An enumerant the module's version lacks and no declared extension enables.
        OperandNeedsExtension {
            /// The operand's number, from 1.
            operand: usize,
            /// The instruction's opcode.
            opcode: spv::Opcode,
            /// The enumerant's name.
            name: &'static str,
            /// Its value (or bit).
            value: u32,
            /// The extensions that would enable it, sorted.
            extensions: Vec<&'static str>,
        } => "{operand:ordinal} operand of {opcode}: operand {name}({value}) requires one of these extensions: {extensions}",
        /// An opcode removed before the module's version.
        OpcodeRemoved {
            /// The opcode.
            opcode: spv::Opcode,
            /// The last version that has it.
            version: Version,
        } => "{opcode} requires SPIR-V version {version} or earlier",
        /// An opcode that needs a newer version than the module's.
        OpcodeNeedsVersion {
            /// The opcode.
            opcode: spv::Opcode,
            /// The first version that has it.
            version: Version,
        } => "{opcode} requires SPIR-V version {version} at minimum.",
        /// An opcode of an extension the module does not declare.
        OpcodeNeedsExtension {
            /// The opcode.
            opcode: spv::Opcode,
            /// The extensions that would enable it, sorted.
            extensions: Vec<&'static str>,
        } => "{opcode} requires one of the following extensions: {extensions}",
        /// An opcode that needs a newer version or an extension the module does not
        /// declare.
        OpcodeNeedsVersionOrExtension {
            /// The opcode.
            opcode: spv::Opcode,
            /// The first version that has it.
            version: Version,
            /// The extensions that would enable it, sorted.
            extensions: Vec<&'static str>,
        } => "{opcode} requires SPIR-V version {version} at minimum or one of the following extensions: {extensions}",
        /// An opcode no version has and nothing enables.
        OpcodeReserved {
            /// The opcode.
            opcode: spv::Opcode,
        } => "{opcode} is reserved for future use.",
        /// A result id not below the header's bound.
        IdNotBelowBound {
            /// The id.
            id: Id,
            /// The bound.
            bound: u32,
        } => "Result <id> '{id:n}' must be less than the ID bound '{bound}'.",
        /// More struct members than the limit.
        StructMembers {
            /// Members.
            count: usize,
            /// The limit.
            limit: u32,
        } => "Number of OpTypeStruct members ({count}) has exceeded the limit ({limit}).",
        /// Structs nested deeper than the limit.
        StructDepth {
            /// The limit.
            limit: u32,
            /// The depth.
            depth: u32,
        } => "Structure Nesting Depth may not be larger than {limit}. Found {depth}.",
        /// More `OpSwitch` cases than the limit.
        SwitchBranches {
            /// The cases.
            count: usize,
            /// The limit.
            limit: u32,
        } => "Number of (literal, label) pairs in OpSwitch ({count}) exceeds the limit ({limit}).",
        /// More `Function` variables than the limit.
        LocalVariables {
            /// The limit.
            limit: u32,
        } => "Number of local variables ('Function' Storage Class) exceeded the valid limit ({limit}).",
        /// More variables of other storage classes than the limit.
        GlobalVariables {
            /// The limit.
            limit: u32,
        } => "Number of Global Variables (Storage Class other than 'Function') exceeded the valid limit ({limit}).",

        // --- The end of the first loop. ---
        /// No `OpMemoryModel`.
        MissingMemoryModel => "Missing required OpMemoryModel instruction.",
        /// The last function has no `OpFunctionEnd`.
        MissingFunctionEnd => "Missing OpFunctionEnd at end of module.",
        /// The last graph has no `OpGraphEndARM`.
        MissingGraphEnd => "Missing OpGraphEndARM at end of module.",
        /// `BindlessTextureNV` without `OpSamplerImageAddressingModeNV`.
        MissingSamplerAddressing => "Missing required OpSamplerImageAddressingModeNV instruction.",
        /// Both the EXT and the NV mesh or task execution models.
        #[vuid = "VUID-StandaloneSpirv-MeshEXT-07102"]
        MeshModelMix => "Module can't mix MeshEXT/TaskEXT with MeshNV/TaskNV Execution Model.",

        // --- The entry point rules of the mode-setting pass. ---
        /// An `OpEntryPoint` whose entry point is not an `OpFunction`.
        EntryPointNotFunction {
            /// The entry point id.
            id: Id,
        } => "OpEntryPoint Entry Point <id> {id} is not a function.",
        /// A shader entry point whose function takes parameters.
        #[vuid = "VUID-StandaloneSpirv-None-04633"]
        EntryPointParameters {
            /// The entry point id.
            id: Id,
        } => "OpEntryPoint Entry Point <id> {id}s function parameter count is not zero.",
        /// An entry point whose function returns a value.
        #[vuid = "VUID-StandaloneSpirv-None-04633"]
        EntryPointReturnType {
            /// The entry point id.
            id: Id,
        } => "OpEntryPoint Entry Point <id> {id}s function return type is not void.",
        /// An `OpExecutionMode` or `OpExecutionModeId` whose entry point no `OpEntryPoint`
        /// names.
        ModeWithoutEntryPoint {
            /// The id it names.
            id: Id,
        } => "OpExecutionMode Entry Point <id> {id} is not the Entry Point operand of an OpEntryPoint.",

        // --- Entry points after the whole module is known (`ValidateEntryPoints`,
        // `ValidateGraphEntryPoints`). ---
        /// No entry point, and neither `Linkage` nor `GraphARM`.
        NoEntryPoint
            => "No OpEntryPoint instruction was found. This is only allowed if the Linkage or GraphARM capability is being used.",
        /// A function that is both an entry point and called.
        EntryPointCalled {
            /// The function.
            function: Id,
        } => "A function ({function:n}) may not be targeted by both an OpEntryPoint instruction and an OpFunctionCall instruction.",
        /// A Vulkan entry point whose call graph has a cycle.
        #[vuid = "VUID-StandaloneSpirv-None-04634"]
        RecursiveEntryPoint => "Entry points may not have a call graph with cycles.",
        /// `GraphARM` without a graph entry point.
        NoGraphEntryPoint
            => "No OpGraphEntryPointARM instruction was found but the GraphARM capability is declared.",
    }
    families {
        /// The binary does not parse (spirv-val's parser and spirv-dis's find the same
        /// faults; spirv-asm prints their messages).
        Parse(DecodeErrorKind),
        /// Control flow, structured control flow and dominance.
        Cfg(super::CfgError),
        /// Instructions out of their place among their neighbours.
        Adjacency(super::AdjacencyError),
        /// Decorations and block layout.
        Decoration(super::DecorationError),
        /// Variables, loads, stores, copies and access chains.
        Memory(super::MemoryError),
        /// Functions, parameters and calls.
        Function(super::FunctionError),
        /// Types.
        Type(super::TypeError),
        /// Constants.
        Constant(super::ConstantError),
        /// Literal numbers.
        Literal(super::LiteralError),
        /// `OpUndef`, `OpReadClockKHR`, `OpAssumeTrueKHR`, `OpExpectKHR` and the like.
        Misc(super::MiscError),
        /// Debug instructions.
        Debug(super::DebugError),
        /// Extensions and extended instruction set imports.
        Extension(super::ExtensionError),
        /// Extended instructions' rules.
        ExtInst(super::ExtInstError),
        /// The result and operand types of arithmetic instructions.
        Arithmetic(super::ArithmeticError),
        /// The result and operand types of bitwise instructions.
        Bitwise(super::BitwiseError),
        /// The result and operand types of composite instructions.
        Composite(super::CompositeError),
        /// The result and operand types of conversions.
        Conversion(super::ConversionError),
        /// The result and operand types of logical instructions.
        Logical(super::LogicalError),
        /// Two cooperative types whose shapes differ.
        Shape(super::ShapeError),
        /// Scope operands.
        Scope(super::ScopeError),
        /// Memory-semantics operands.
        MemorySemantics(super::MemorySemanticsError),
        /// Atomic instructions.
        Atomic(super::AtomicError),
        /// Barrier instructions.
        Barrier(super::BarrierError),
        /// Image types and image instructions.
        Image(super::ImageError),
        /// Non-uniform group instructions.
        NonUniform(super::NonUniformError),
        /// Ray query instructions.
        RayQuery(super::RayQueryError),
        /// Ray tracing instructions.
        RayTracing(super::RayTracingError),
        /// Hit object and reorder instructions.
        RayTracingReorder(super::RayTracingReorderError),
        /// Mesh shading instructions and per-primitive interface variables.
        MeshShading(super::MeshShadingError),
        /// Functions an entry point reaching them cannot use: the execution-model and
        /// execution-mode limitations instructions register.
        Limitation(super::LimitationError),
        /// Derivative instructions.
        Derivative(super::DerivativeError),
        /// Geometry-stage primitive instructions.
        Primitive(super::PrimitiveError),
        /// Execution modes, the memory model and the capabilities the mode-setting
        /// pass checks.
        Mode(super::ModeError),
        /// Entry points' interfaces: their lists, storage classes and locations.
        Interface(super::InterfaceError),
        /// Built-in variables: their types, storage classes and execution models.
        /// (Boxed: its descriptions make it the largest family.)
        BuiltIn(alloc::boxed::Box<super::BuiltInError>),
        /// Instructions that take no `BFloat16KHR` or 8-bit float type.
        InvalidType(super::InvalidTypeError),
        /// Uses of 8- and 16-bit results without the capability for their full use.
        SmallType(super::SmallTypeError),
        /// Logical pointers: which instructions take and return them, and what
        /// variable pointers may point to.
        LogicalPointer(super::LogicalPointerError),
        /// Tensor layout and view instructions (`SPV_NV_tensor_addressing`).
        TensorLayout(super::TensorLayoutError),
        /// Tensor instructions (`SPV_ARM_tensors`).
        Tensor(super::TensorError),
        /// Graph instructions (`SPV_ARM_graph`).
        Graph(super::GraphError),
    }
}

impl ValidationErrorKind {
    /// The ids the fault involves: every id its message names, in order, but those
    /// it names for context only (the entry point a fault was found in).
    pub fn ids(&self) -> Vec<Id> {
        let mut ids = Vec::new();
        self.collect_ids(&mut ids);
        ids
    }

    /// The operand the fault is about, numbered from 1 as in spirv-val's messages.
    pub fn operand(&self) -> Option<usize> {
        match self {
            ValidationErrorKind::OperandCapability { operand, .. }
            | ValidationErrorKind::OperandRemoved { operand, .. }
            | ValidationErrorKind::OperandNeedsVersion { operand, .. }
            | ValidationErrorKind::OperandNeedsExtension { operand, .. } => Some(*operand),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::faults::check_templates;
    use super::super::*;

    #[test]
    fn templates_name_their_fields() {
        let tables = [
            ("ValidationErrorKind", ValidationErrorKind::TEMPLATES),
            ("ArithmeticError", ArithmeticError::TEMPLATES),
            ("BitwiseError", BitwiseError::TEMPLATES),
            ("CompositeError", CompositeError::TEMPLATES),
            ("ConversionError", ConversionError::TEMPLATES),
            ("LogicalError", LogicalError::TEMPLATES),
            ("ShapeError", ShapeError::TEMPLATES),
            ("ScopeError", ScopeError::TEMPLATES),
            ("TypeError", TypeError::TEMPLATES),
            ("ConstantError", ConstantError::TEMPLATES),
            ("LiteralError", LiteralError::TEMPLATES),
            ("MiscError", MiscError::TEMPLATES),
            ("DebugError", DebugError::TEMPLATES),
            ("ExtensionError", ExtensionError::TEMPLATES),
            ("ExtInstError", ExtInstError::TEMPLATES),
            ("GlslRule", GlslRule::TEMPLATES),
            ("OpenClRule", OpenClRule::TEMPLATES),
            ("ClspvError", ClspvError::TEMPLATES),
            ("DebugInfoRule", DebugInfoRule::TEMPLATES),
            ("FunctionError", FunctionError::TEMPLATES),
            ("CfgError", CfgError::TEMPLATES),
            ("AdjacencyError", AdjacencyError::TEMPLATES),
            ("MemoryError", MemoryError::TEMPLATES),
            ("ModeError", ModeError::TEMPLATES),
            ("InterfaceError", InterfaceError::TEMPLATES),
            ("BuiltInError", BuiltInError::TEMPLATES),
            ("BuiltInSubject", BuiltInSubject::TEMPLATES),
            ("BuiltInTypeProblem", BuiltInTypeProblem::TEMPLATES),
            ("BuiltInReference", BuiltInReference::TEMPLATES),
            ("BuiltInUse", BuiltInUse::TEMPLATES),
            ("DecorationError", DecorationError::TEMPLATES),
            ("TargetRule", TargetRule::TEMPLATES),
            ("Missing", Missing::TEMPLATES),
            ("LayoutFault", LayoutFault::TEMPLATES),
            ("LayoutRules", LayoutRules::TEMPLATES),
            ("LayoutRule", LayoutRule::TEMPLATES),
            ("LayoutHint", LayoutHint::TEMPLATES),
            ("MemorySemanticsError", MemorySemanticsError::TEMPLATES),
            ("AtomicError", AtomicError::TEMPLATES),
            ("BarrierError", BarrierError::TEMPLATES),
            ("NonUniformError", NonUniformError::TEMPLATES),
            ("ImageError", ImageError::TEMPLATES),
            ("RayQueryError", RayQueryError::TEMPLATES),
            ("RayTracingError", RayTracingError::TEMPLATES),
            ("RayTracingReorderError", RayTracingReorderError::TEMPLATES),
            ("MeshShadingError", MeshShadingError::TEMPLATES),
            ("LimitationError", LimitationError::TEMPLATES),
            ("DerivativeError", DerivativeError::TEMPLATES),
            ("PrimitiveError", PrimitiveError::TEMPLATES),
            ("SmallTypeError", SmallTypeError::TEMPLATES),
            ("InvalidTypeError", InvalidTypeError::TEMPLATES),
            ("LogicalPointerError", LogicalPointerError::TEMPLATES),
            ("TensorLayoutError", TensorLayoutError::TEMPLATES),
            ("TensorError", TensorError::TEMPLATES),
            ("GraphError", GraphError::TEMPLATES),
        ];
        let errors: Vec<_> = tables
            .iter()
            .flat_map(|(name, rows)| check_templates(name, rows))
            .collect();
        assert!(errors.is_empty(), "{errors:#?}");
    }
}
