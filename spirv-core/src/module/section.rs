//! The logical-layout sections (SPIR-V spec §2.4) and where each instruction goes: the
//! one place that knows it, for the reader, the [`Builder`](crate::Builder) and the
//! validator.
//!
//! The grammar has no layout sections, so this is written by hand from the
//! specification, in the terms SPIRV-Tools 2025.5's validator uses
//! (`source/val/validation_state.cpp`): the grammar's instruction classes place types,
//! constants and decorations, and named opcodes place the rest.

use crate::grammar::InstructionInfo;
use crate::spv;

/// A logical-layout section (SPIR-V spec §2.4), in layout order.
///
/// New extensions add sections (`SPV_NV_bindless_texture`'s sampler addressing mode and
/// `SPV_ARM_graph`'s graphs did), so the enum is `#[non_exhaustive]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Section {
    /// `OpCapability`, `OpConditionalCapabilityINTEL`.
    Capability,
    /// `OpExtension`, `OpConditionalExtensionINTEL`.
    Extension,
    /// `OpExtInstImport`.
    ExtInstImport,
    /// `OpMemoryModel`.
    MemoryModel,
    /// `OpSamplerImageAddressingModeNV` (`SPV_NV_bindless_texture`).
    SamplerImageAddressingMode,
    /// `OpEntryPoint`, `OpConditionalEntryPointINTEL`.
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
    /// Types, constants, global variables, and the instructions allowed among them
    /// (`OpUndef`, `OpLine`, `OpNoLine`, non-semantic `OpExtInst`).
    Global,
    /// Function declarations and definitions.
    Function,
    /// Graph definitions (`SPV_ARM_graph`): `OpGraphEntryPointARM`, and each graph from
    /// `OpGraphARM` to `OpGraphEndARM`.
    Graph,
}

impl Section {
    /// All sections in layout order.
    pub const ALL: [Section; 14] = [
        Section::Capability,
        Section::Extension,
        Section::ExtInstImport,
        Section::MemoryModel,
        Section::SamplerImageAddressingMode,
        Section::EntryPoint,
        Section::ExecutionMode,
        Section::DebugSource,
        Section::DebugName,
        Section::DebugModuleProcessed,
        Section::Annotation,
        Section::Global,
        Section::Function,
        Section::Graph,
    ];

    /// The number of sections.
    pub const COUNT: usize = Section::ALL.len();

    /// The section an instruction takes outside functions, or `None` when it belongs
    /// only inside a function (or a graph's body) or its opcode is unknown.
    ///
    /// Some instructions may also appear inside functions
    /// ([`Section::also_in_functions`]); this is where they go outside.
    ///
    /// ```
    /// use spirv_core::{spv::Opcode, Section};
    /// assert_eq!(Section::of(Opcode::TypeInt, Opcode::TypeInt.info()), Some(Section::Global));
    /// assert_eq!(Section::of(Opcode::Line, Opcode::Line.info()), Some(Section::Global));
    /// assert_eq!(Section::of(Opcode::Load, Opcode::Load.info()), None);
    /// ```
    pub fn of(opcode: spv::Opcode, info: Option<&InstructionInfo>) -> Option<Section> {
        use spv::Opcode as O;
        Some(match opcode {
            O::Capability | O::ConditionalCapabilityINTEL => Section::Capability,
            O::Extension | O::ConditionalExtensionINTEL => Section::Extension,
            O::ExtInstImport => Section::ExtInstImport,
            O::MemoryModel => Section::MemoryModel,
            O::SamplerImageAddressingModeNV => Section::SamplerImageAddressingMode,
            O::EntryPoint | O::ConditionalEntryPointINTEL => Section::EntryPoint,
            O::ExecutionMode | O::ExecutionModeId => Section::ExecutionMode,
            O::String | O::SourceExtension | O::Source | O::SourceContinued => Section::DebugSource,
            O::Name | O::MemberName => Section::DebugName,
            O::ModuleProcessed => Section::DebugModuleProcessed,
            O::Function | O::FunctionParameter | O::FunctionEnd => Section::Function,
            O::GraphEntryPointARM
            | O::GraphARM
            | O::GraphInputARM
            | O::GraphSetOutputARM
            | O::GraphEndARM => Section::Graph,
            // Declarations the grammar does not class as types or constants.
            O::Variable
            | O::UntypedVariableKHR
            | O::Undef
            | O::Line
            | O::NoLine
            | O::ExtInst
            | O::ExtInstWithForwardRefsKHR
            | O::TypeForwardPointer
            | O::TypeTaskSequenceINTEL
            | O::TypeNodePayloadArrayAMDX
            | O::AsmTargetINTEL
            | O::AsmINTEL
            | O::ConstantFunctionPointerINTEL
            | O::ConstantStringAMDX
            | O::SpecConstantStringAMDX
            | O::GraphConstantARM => Section::Global,
            // The rest by the grammar's instruction classes.
            _ => match info.and_then(spv::Class::of) {
                Some(spv::Class::Annotation) => Section::Annotation,
                Some(spv::Class::TypeDeclaration | spv::Class::ConstantCreation) => Section::Global,
                _ => return None,
            },
        })
    }

    /// Whether an instruction with a section outside functions may also appear inside
    /// one: `OpVariable` and `OpUntypedVariableKHR` (function-local variables), `OpUndef`,
    /// `OpLine`, `OpNoLine`, `OpExtInst` and `OpExtInstWithForwardRefsKHR` (spec §2.4).
    /// The one list of them.
    pub fn also_in_functions(opcode: spv::Opcode) -> bool {
        use spv::Opcode as O;
        matches!(
            opcode,
            O::Variable
                | O::UntypedVariableKHR
                | O::Undef
                | O::Line
                | O::NoLine
                | O::ExtInst
                | O::ExtInstWithForwardRefsKHR
        )
    }

    /// Whether an instruction that belongs inside a function may also appear in a
    /// graph's body (`SPV_ARM_graph`): `OpCompositeExtract`, besides the
    /// [`also_in_functions`](Section::also_in_functions) instructions.
    pub fn also_in_graphs(opcode: spv::Opcode) -> bool {
        opcode == spv::Opcode::CompositeExtract || Section::also_in_functions(opcode)
    }
}
