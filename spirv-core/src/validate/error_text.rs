//! spirv-val 2025.5's message for each [`ErrorKind`]: the text, word for word, with ids
//! named by the caller's function (the rule and its data are in `error.rs`).

use super::error::{DebugInfoPlace, ErrorKind, GraphRule, Namer, VersionNeed, opcode_name};
use crate::__private::Vec;
use crate::env::TargetEnv;
use crate::spv;
use crate::types::Id;
use core::fmt::{self, Write};

fn capability_name(value: u32) -> Option<&'static str> {
    spv::kinds::Capability.enumerant(value).map(|e| e.name)
}

/// spirv-val's list: each name (or number) followed by a space.
fn capability_list(out: &mut dyn Write, caps: &[u32]) -> fmt::Result {
    for &c in caps {
        match capability_name(c) {
            Some(n) => write!(out, "{n} ")?,
            None => write!(out, "{c} ")?,
        }
    }
    Ok(())
}

/// Extensions in SPIRV-Tools' order (by name), each followed by a space.
fn extension_list(out: &mut dyn Write, exts: &[&str]) -> fmt::Result {
    let mut sorted: Vec<&str> = exts.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    for e in sorted {
        write!(out, "{e} ")?;
    }
    Ok(())
}

/// `1st`, `2nd`, `3rd`, `4th`, `11th`, …
fn ordinal(n: usize) -> (usize, &'static str) {
    let suffix = match (n % 10, n % 100) {
        (1, m) if m != 11 => "st",
        (2, m) if m != 12 => "nd",
        (3, m) if m != 13 => "rd",
        _ => "th",
    };
    (n, suffix)
}

impl ErrorKind {
    pub(super) fn write(&self, out: &mut dyn Write, names: &Namer<'_>) -> fmt::Result {
        use ErrorKind as K;
        match self {
            K::BadMagic => out.write_str("Invalid SPIR-V magic number."),
            K::TruncatedHeader => out.write_str("Invalid SPIR-V header."),
            K::VersionTooNew { version, env } => write!(
                out,
                "Invalid SPIR-V binary version {}.{} for target environment {env}.",
                (version >> 16) & 0xff,
                (version >> 8) & 0xff
            ),
            K::BoundTooLarge { limit } => write!(
                out,
                "Invalid SPIR-V.  The id bound is larger than the max id bound {limit}."
            ),
            K::Parse(kind) => write!(out, "{kind}"),
            K::DuplicateEntryPoint => {
                out.write_str("2 Entry points cannot share the same name and ExecutionMode.")
            }
            K::CallOutsideFunction => {
                out.write_str("A FunctionCall must happen within a function body.")
            }
            K::NotDefined { id } => {
                out.write_str("ID ")?;
                names.id(out, *id)?;
                out.write_str(" has not been defined")
            }
            K::NotAType { id } => {
                out.write_str("ID ")?;
                names.id(out, *id)?;
                out.write_str(" is not a type id")
            }
            K::CannotBeType { id } => {
                out.write_str("Operand ")?;
                names.id(out, *id)?;
                out.write_str(" cannot be a type")
            }
            K::RequiresType { id } => {
                out.write_str("Operand ")?;
                names.id(out, *id)?;
                out.write_str(" requires a type")
            }
            K::NonSemanticOperand { id } => {
                out.write_str("Operand ")?;
                names.id(out, *id)?;
                out.write_str(" in semantic instruction cannot be a non-semantic instruction")
            }
            K::RequiresPreviousDefinition { id } => {
                out.write_str("Operand ")?;
                names.id(out, *id)?;
                out.write_str(" requires a previous definition")
            }
            K::ForwardRefsInSemantic => out.write_str(
                "OpExtInstWithForwardRefsKHR is only allowed with non-semantic instructions.",
            ),
            K::ForwardRefsMissing => out.write_str(
                "Opcode OpExtInstWithForwardRefsKHR must have at least one forward declared ID.",
            ),
            K::UndefinedForwardReferences { ids } => {
                out.write_str("The following forward referenced IDs have not been defined:\n")?;
                for (i, id) in ids.iter().enumerate() {
                    if i > 0 {
                        out.write_str(" ")?;
                    }
                    names.id(out, *id)?;
                }
                Ok(())
            }
            K::CapabilityNotAllowed { capability, env } => {
                out.write_str("Capability ")?;
                out.write_str(capability_name(*capability).unwrap_or("Unknown"))?;
                let (spec, needs) = match env {
                    TargetEnv::Vulkan1_0 => ("Vulkan 1.0", "extension"),
                    TargetEnv::Vulkan1_1 => ("Vulkan 1.1", "extension"),
                    TargetEnv::Vulkan1_2 => ("Vulkan 1.2", "extension"),
                    TargetEnv::Vulkan1_3 => ("Vulkan 1.3", "extension"),
                    TargetEnv::Vulkan1_4 => ("Vulkan 1.4", "extension"),
                    TargetEnv::OpenCl1_2 => ("OpenCL 1.2 Full Profile", "extension or capability"),
                    TargetEnv::OpenClEmbedded1_2 => (
                        "OpenCL 1.2 Embedded Profile",
                        "extension or capability",
                    ),
                    TargetEnv::OpenCl2_0 | TargetEnv::OpenCl2_1 => (
                        "OpenCL 2.0/2.1 Full Profile",
                        "extension or capability",
                    ),
                    TargetEnv::OpenClEmbedded2_0 | TargetEnv::OpenClEmbedded2_1 => (
                        "OpenCL 2.0/2.1 Embedded Profile",
                        "extension or capability",
                    ),
                    TargetEnv::OpenCl2_2 => ("OpenCL 2.2 Full Profile", "extension or capability"),
                    TargetEnv::OpenClEmbedded2_2 => (
                        "OpenCL 2.2 Embedded Profile",
                        "extension or capability",
                    ),
                    _ => ("this environment's", "extension"),
                };
                write!(
                    out,
                    " is not allowed by {spec} specification (or requires {needs})"
                )
            }
            K::DebugInfoPlacement { belongs } => match belongs {
                DebugInfoPlace::FunctionBody => out.write_str(
                    "DebugScope, DebugNoScope, DebugDeclare, DebugValue of debug info extension must appear in a function body",
                ),
                DebugInfoPlace::Globals => out.write_str(
                    "Debug info extension instructions other than DebugScope, DebugNoScope, DebugDeclare, DebugValue must appear between section 9 (types, constants, global variables) and section 10 (function declarations)",
                ),
            },
            K::NonSemanticBeforeTypes => {
                out.write_str("Non-semantic OpExtInst must not appear before types section")
            }
            K::NonSemanticOutsideBlock => out.write_str(
                "Non-semantic OpExtInst within function definition must appear in a block",
            ),
            K::OutsideBlock { opcode } => {
                write!(out, "{} must appear in a block", opcode_name(*opcode))
            }
            K::WrongSection { opcode } => {
                write!(out, "{} is in an invalid layout section", opcode_name(*opcode))
            }
            K::BeforeMemoryModel { opcode } => write!(
                out,
                "{} cannot appear before the memory model instruction",
                opcode_name(*opcode)
            ),
            K::FunctionInFunction => out.write_str("Cannot declare a function in a function body"),
            K::ParameterOutsideFunction => {
                out.write_str("Function parameter instructions must be in a function body")
            }
            K::ParameterAfterBlock => out.write_str(
                "Function parameters must only appear immediately after the function definition",
            ),
            K::FunctionEndOutsideFunction => {
                out.write_str("Function end instructions must be in a function body")
            }
            K::FunctionEndInBlock => out.write_str("Function end cannot be called in blocks"),
            K::DeclarationAfterDefinition => {
                out.write_str("Function declarations must appear before function definitions.")
            }
            K::LabelOutsideFunction => {
                out.write_str("Label instructions must be in a function body")
            }
            K::MissingTerminator => out.write_str("A block must end with a branch instruction."),
            K::MissingLabel => out.write_str("A function must begin with a label"),
            K::Graph { rule, opcode } => {
                let name = opcode_name(*opcode);
                match rule {
                    GraphRule::GraphInGraph => out.write_str("Cannot define a graph in a graph"),
                    GraphRule::InputPlacement => out.write_str(
                        "OpGraphInputARM must immediately follow an OpGraphARM or OpGraphInputARM instruction.",
                    ),
                    GraphRule::OutputPlacement => write!(
                        out,
                        "Op{name} must immediately precede an OpGraphEndARM or OpGraphSetOutputARM instruction."
                    ),
                    GraphRule::EndWithoutOutput => write!(
                        out,
                        "{name} must be preceded by at least one OpGraphSetOutputARM instruction"
                    ),
                    GraphRule::EntryPointInGraph => {
                        write!(out, "{name} cannot appear in the definition of a graph")
                    }
                    GraphRule::OutsideBody => write!(out, "Op{name} must appear in a graph body"),
                    GraphRule::AfterOutputs => {
                        write!(out, "{name} cannot appear after a graph output instruction")
                    }
                    GraphRule::NotInGraphSection => {
                        write!(out, "Op{name} cannot appear in the graph definitions section")
                    }
                }
            }
            K::FirstBlockTargeted {
                block,
                function,
                by,
            } => {
                out.write_str("First block ")?;
                names.id(out, *block)?;
                out.write_str(" of function ")?;
                names.id(out, *function)?;
                out.write_str(" is targeted by block ")?;
                names.id(out, *by)
            }
            K::AlreadyMergeBlock { block } => {
                out.write_str("Block ")?;
                names.id(out, *block)?;
                out.write_str(" is already a merge block for another header")
            }
            K::ReturnInNonVoid => out.write_str(
                "OpReturn can only be called from a function with void return type.",
            ),
            K::DuplicateMemoryModel => out.write_str("OpMemoryModel should only be provided once."),
            K::SamplerAddressingWithoutExtension => out.write_str(
                "OpSamplerImageAddressingModeNV supported only with extension SPV_NV_bindless_texture",
            ),
            K::DuplicateSamplerAddressing => {
                out.write_str("OpSamplerImageAddressingModeNV should only be provided once")
            }
            K::SamplerAddressingWidth => {
                out.write_str("OpSamplerImageAddressingModeNV bitwidth should be 64 or 32")
            }
            K::ReservedOpcode { opcode } => {
                write!(out, "Invalid Opcode name 'Op{}'", opcode_name(*opcode))
            }
            K::OpcodeCapability {
                opcode,
                capabilities,
            } => {
                write!(
                    out,
                    "Opcode {} requires one of these capabilities: ",
                    opcode_name(*opcode)
                )?;
                capability_list(out, capabilities)
            }
            K::OperandCapability {
                opcode,
                operand,
                capabilities,
            } => {
                write!(
                    out,
                    "Operand {operand} of {} requires one of these capabilities: ",
                    opcode_name(*opcode)
                )?;
                capability_list(out, capabilities)
            }
            K::OperandVersion {
                opcode,
                operand,
                name,
                value,
                needs,
            } => {
                let (n, suffix) = ordinal(*operand);
                write!(
                    out,
                    "{n}{suffix} operand of {}: operand {name}({value}) requires ",
                    opcode_name(*opcode)
                )?;
                match needs {
                    VersionNeed::AtMost((a, b)) => {
                        write!(out, "SPIR-V version {a}.{b} or earlier")
                    }
                    VersionNeed::AtLeast((a, b)) => write!(out, "SPIR-V version {a}.{b} or later"),
                    VersionNeed::Extension(exts) | VersionNeed::AtLeastOrExtension(_, exts) => {
                        out.write_str("one of these extensions: ")?;
                        extension_list(out, exts)
                    }
                    VersionNeed::Reserved => out.write_str("a SPIR-V version that has it"),
                }
            }
            K::OpcodeVersion { opcode, needs } => {
                let name = opcode_name(*opcode);
                match needs {
                    VersionNeed::AtMost((a, b)) => {
                        write!(out, "{name} requires SPIR-V version {a}.{b} or earlier")
                    }
                    VersionNeed::AtLeast((a, b)) => {
                        write!(out, "{name} requires SPIR-V version {a}.{b} at minimum.")
                    }
                    VersionNeed::Extension(exts) => {
                        write!(out, "{name} requires one of the following extensions: ")?;
                        extension_list(out, exts)
                    }
                    VersionNeed::AtLeastOrExtension((a, b), exts) => {
                        write!(
                            out,
                            "{name} requires SPIR-V version {a}.{b} at minimum or one of the following extensions: "
                        )?;
                        extension_list(out, exts)
                    }
                    VersionNeed::Reserved => write!(out, "{name} is reserved for future use."),
                }
            }
            K::IdNotBelowBound { id, bound } => write!(
                out,
                "Result <id> '{}' must be less than the ID bound '{bound}'.",
                id.0
            ),
            K::StructMembers { count, limit } => write!(
                out,
                "Number of OpTypeStruct members ({count}) has exceeded the limit ({limit})."
            ),
            K::StructDepth { depth, limit } => write!(
                out,
                "Structure Nesting Depth may not be larger than {limit}. Found {depth}."
            ),
            K::SwitchBranches { count, limit } => write!(
                out,
                "Number of (literal, label) pairs in OpSwitch ({count}) exceeds the limit ({limit})."
            ),
            K::LocalVariables { limit } => write!(
                out,
                "Number of local variables ('Function' Storage Class) exceeded the valid limit ({limit})."
            ),
            K::GlobalVariables { limit } => write!(
                out,
                "Number of Global Variables (Storage Class other than 'Function') exceeded the valid limit ({limit})."
            ),
            K::MissingMemoryModel => out.write_str("Missing required OpMemoryModel instruction."),
            K::MissingFunctionEnd => out.write_str("Missing OpFunctionEnd at end of module."),
            K::MissingGraphEnd => out.write_str("Missing OpGraphEndARM at end of module."),
            K::MissingSamplerAddressing => {
                out.write_str("Missing required OpSamplerImageAddressingModeNV instruction.")
            }
            K::MeshModelMix { vulkan } => {
                if *vulkan {
                    out.write_str("[VUID-StandaloneSpirv-MeshEXT-07102] ")?;
                }
                out.write_str(
                    "Module can't mix MeshEXT/TaskEXT with MeshNV/TaskNV Execution Model.",
                )
            }
            K::ExtensionVersion {
                extension,
                needs: (a, b),
            } => write!(
                out,
                "{extension} extension requires SPIR-V version {a}.{b} or later."
            ),
            K::NonSemanticWithoutExtension => out.write_str(
                "NonSemantic extended instruction sets cannot be declared without SPV_KHR_non_semantic_info. (This can also be fixed having SPIR-V 1.6 or later)",
            ),
            K::DuplicateType { opcode, id } => write!(
                out,
                "Duplicate non-aggregate type declarations are not allowed. Opcode: {} id: {}",
                opcode_name(*opcode),
                id.0
            ),
            K::EntryPointNotFunction { id } => {
                out.write_str("OpEntryPoint Entry Point <id> ")?;
                names.id(out, *id)?;
                out.write_str(" is not a function.")
            }
            K::EntryPointParameters { id, vulkan } | K::EntryPointReturnType { id, vulkan } => {
                if *vulkan {
                    out.write_str("[VUID-StandaloneSpirv-None-04633] ")?;
                }
                out.write_str("OpEntryPoint Entry Point <id> ")?;
                names.id(out, *id)?;
                out.write_str(match self {
                    K::EntryPointParameters { .. } => "s function parameter count is not zero.",
                    _ => "s function return type is not void.",
                })
            }
            K::ModeWithoutEntryPoint { id } => {
                out.write_str("OpExecutionMode Entry Point <id> ")?;
                names.id(out, *id)?;
                out.write_str(" is not the Entry Point operand of an OpEntryPoint.")
            }
            K::Cfg(e) => e.write(out, names),
            K::Decoration(e) => e.write(out, names),
            K::Memory(e) => e.write(out, names),
            K::Function(e) => e.write(out, names),
            K::Type(e) => e.write(out, names),
            K::Operation(e) => e.write(out, names),
            K::Mode(e) => e.write(out, names),
            K::NoEntryPoint => out.write_str(
                "No OpEntryPoint instruction was found. This is only allowed if the Linkage or GraphARM capability is being used.",
            ),
            K::EntryPointCalled { function } => write!(
                out,
                "A function ({}) may not be targeted by both an OpEntryPoint instruction and an OpFunctionCall instruction.",
                function.0
            ),
            K::RecursiveEntryPoint => out.write_str(
                "[VUID-StandaloneSpirv-None-04634] Entry points may not have a call graph with cycles.",
            ),
            K::NoGraphEntryPoint => out.write_str(
                "No OpGraphEntryPointARM instruction was found but the GraphARM capability is declared.",
            ),
        }
    }

    /// The ids the fault involves, in the order its message names them.
    pub fn ids(&self) -> Vec<Id> {
        use ErrorKind as K;
        match self {
            K::NotDefined { id }
            | K::NotAType { id }
            | K::CannotBeType { id }
            | K::RequiresType { id }
            | K::NonSemanticOperand { id }
            | K::RequiresPreviousDefinition { id }
            | K::IdNotBelowBound { id, .. }
            | K::DuplicateType { id, .. }
            | K::EntryPointNotFunction { id }
            | K::EntryPointParameters { id, .. }
            | K::EntryPointReturnType { id, .. }
            | K::ModeWithoutEntryPoint { id } => crate::__private::Vec::from([*id]),
            K::EntryPointCalled { function } | K::AlreadyMergeBlock { block: function } => {
                crate::__private::Vec::from([*function])
            }
            K::FirstBlockTargeted {
                block,
                function,
                by,
            } => crate::__private::Vec::from([*block, *function, *by]),
            K::UndefinedForwardReferences { ids } => ids.clone(),
            K::Cfg(e) => e.ids(),
            K::Decoration(e) => e.ids(),
            K::Memory(e) => e.ids(),
            K::Function(e) => e.ids(),
            K::Type(e) => e.ids(),
            K::Operation(e) => e.ids(),
            K::Mode(e) => e.ids(),
            _ => Vec::new(),
        }
    }

    /// The operand the fault is about, numbered from 1 as in spirv-val's messages.
    pub fn operand(&self) -> Option<usize> {
        match self {
            ErrorKind::OperandCapability { operand, .. }
            | ErrorKind::OperandVersion { operand, .. } => Some(*operand),
            _ => None,
        }
    }
}
