//! spirv-val's module layout pass (`source/val/validate_layout.cpp`): the sections of
//! the logical layout in order, functions and their blocks, graphs, and where
//! extended instructions may stand. It is spirv-val's state machine, step for step,
//! so that a misplaced instruction gets spirv-val's message: where spirv-val goes on
//! from the function definitions into the graph section, so does this.

use super::Inst;
use super::error::ValidationErrorKind;
use super::validation_state::{GraphRegion, LayoutSection as L, OpenFunction, State};
use crate::spirv_tools::{self as opcodes, SetKind};
use crate::spv::Opcode as O;

/// The section an instruction belongs to when the module is in `current`
/// (`InstructionLayoutSection`).
fn section_of(current: L, op: O) -> L {
    if opcodes::generates_type(op) || opcodes::is_constant(op) {
        return L::Types;
    }
    match op {
        O::Capability | O::ConditionalCapabilityINTEL => L::Capabilities,
        O::Extension | O::ConditionalExtensionINTEL => L::Extensions,
        O::ExtInstImport => L::ExtInstImport,
        O::MemoryModel => L::MemoryModel,
        O::EntryPoint | O::ConditionalEntryPointINTEL => L::EntryPoint,
        O::ExecutionMode | O::ExecutionModeId => L::ExecutionMode,
        O::SourceContinued | O::Source | O::SourceExtension | O::String => L::Debug1,
        O::Name | O::MemberName => L::Debug2,
        O::ModuleProcessed => L::Debug3,
        O::Decorate
        | O::MemberDecorate
        | O::GroupDecorate
        | O::GroupMemberDecorate
        | O::DecorationGroup
        | O::DecorateId
        | O::DecorateString
        | O::MemberDecorateString => L::Annotations,
        O::TypeForwardPointer | O::TypeTaskSequenceINTEL => L::Types,
        O::Variable | O::UntypedVariableKHR | O::Line | O::NoLine | O::Undef => {
            if current == L::Types {
                L::Types
            } else {
                L::FunctionDefinitions
            }
        }
        O::ExtInst | O::ExtInstWithForwardRefsKHR => match current {
            L::Types => L::Types,
            L::GraphDefinitions => L::GraphDefinitions,
            _ => L::FunctionDefinitions,
        },
        O::Function | O::FunctionParameter | O::FunctionEnd => {
            if current == L::FunctionDeclarations {
                L::FunctionDeclarations
            } else {
                L::FunctionDefinitions
            }
        }
        O::SamplerImageAddressingModeNV => L::SamplerImageAddressMode,
        O::GraphEntryPointARM
        | O::GraphARM
        | O::GraphInputARM
        | O::GraphSetOutputARM
        | O::GraphEndARM => L::GraphDefinitions,
        O::CompositeExtract if current == L::GraphDefinitions => L::GraphDefinitions,
        _ => L::FunctionDefinitions,
    }
}

fn in_current(state: &State<'_>, op: O) -> bool {
    section_of(state.section, op) == state.section
}

/// `ModuleLayoutPass`, which also opens and closes functions and blocks.
pub(super) fn check(state: &mut State<'_>, inst: &Inst<'_>) -> Result<(), ValidationErrorKind> {
    // spirv-val calls itself again when an instruction moves the module into the
    // function or graph sections; each step moves forward, so this ends.
    loop {
        let again = match state.section {
            L::FunctionDeclarations | L::FunctionDefinitions => function_scoped(state, inst)?,
            L::GraphDefinitions => {
                graph_scoped(state, inst)?;
                false
            }
            _ => module_scoped(state, inst)?,
        };
        if !again {
            return Ok(());
        }
    }
}

/// Where a debug-info or other extended instruction may stand, at module scope or in
/// a function; the part both scopes share.
fn ext_inst_placement(
    state: &State<'_>,
    inst: &Inst<'_>,
    set: SetKind,
) -> Result<(), ValidationErrorKind> {
    if set.is_debug_info() {
        let number = inst.words.get(4).copied().unwrap_or(0);
        if set.is_local_debug_info(number) {
            if !state.in_function() {
                return Err(ValidationErrorKind::DebugInfoOutsideFunction);
            }
        } else if state.section < L::Types || state.section >= L::FunctionDeclarations {
            return Err(ValidationErrorKind::DebugInfoOutsideGlobals);
        }
    } else if set.is_non_semantic() {
        if state.section < L::Types {
            return Err(ValidationErrorKind::NonSemanticBeforeTypes);
        }
        if state.in_function() && !state.in_block() {
            return Err(ValidationErrorKind::NonSemanticOutsideBlock);
        }
    } else if !state.in_block() {
        return Err(ValidationErrorKind::OutsideBlock {
            opcode: inst.opcode,
        });
    }
    Ok(())
}

/// `ModuleScopedInstructions`; true when the function or graph scope must look at the
/// instruction next.
fn module_scoped(state: &mut State<'_>, inst: &Inst<'_>) -> Result<bool, ValidationErrorKind> {
    let op = inst.opcode;
    if matches!(op, O::ExtInst | O::ExtInstWithForwardRefsKHR) {
        let set = inst.set.unwrap_or(SetKind::Semantic);
        if set.is_debug_info() || set.is_non_semantic() {
            // At module scope no function is open: only the section rules apply.
            ext_inst_placement(state, inst, set)?;
        } else if state.section < L::FunctionDefinitions {
            return Err(ValidationErrorKind::OutsideBlock { opcode: op });
        }
    }
    while !in_current(state, op) {
        if section_of(state.section, op) < state.section {
            return Err(ValidationErrorKind::WrongSection { opcode: op });
        }
        state.section = state.section.next();
        match state.section {
            L::MemoryModel if op != O::MemoryModel => {
                return Err(ValidationErrorKind::BeforeMemoryModel { opcode: op });
            }
            L::FunctionDeclarations => return Ok(true),
            _ => {}
        }
    }
    Ok(false)
}

/// `FunctionScopedInstructions`; true when the module layout must look again.
fn function_scoped(state: &mut State<'_>, inst: &Inst<'_>) -> Result<bool, ValidationErrorKind> {
    let op = inst.opcode;
    if state.section == L::FunctionDeclarations && !in_current(state, op) {
        state.section = state.section.next();
    }
    if !in_current(state, op) {
        state.section = state.section.next();
        return Ok(true);
    }
    match op {
        O::Function => {
            if state.in_function() {
                return Err(ValidationErrorKind::FunctionInFunction);
            }
            state.function = Some(OpenFunction {
                id: inst.result_id,
                result_type: inst.words.get(1).copied().unwrap_or(0),
                index: inst.index as u32,
                ..OpenFunction::default()
            });
        }
        O::FunctionParameter => {
            let Some(f) = &state.function else {
                return Err(ValidationErrorKind::ParameterOutsideFunction);
            };
            if f.block_count != 0 {
                return Err(ValidationErrorKind::ParameterAfterBlock);
            }
        }
        O::FunctionEnd => {
            let Some(f) = &state.function else {
                return Err(ValidationErrorKind::FunctionEndOutsideFunction);
            };
            if f.block.is_some() {
                return Err(ValidationErrorKind::FunctionEndInBlock);
            }
            if f.block_count == 0 && state.section == L::FunctionDefinitions {
                return Err(ValidationErrorKind::DeclarationAfterDefinition);
            }
            state.function = None;
        }
        O::Line | O::NoLine => {}
        O::Label => {
            if !state.in_function() {
                return Err(ValidationErrorKind::LabelOutsideFunction);
            }
            if state.in_block() {
                return Err(ValidationErrorKind::MissingTerminator);
            }
        }
        O::ExtInst | O::ExtInstWithForwardRefsKHR => {
            ext_inst_placement(state, inst, inst.set.unwrap_or(SetKind::Semantic))?;
        }
        _ => {
            if state.section == L::FunctionDeclarations && state.in_function() {
                return Err(ValidationErrorKind::MissingLabel);
            }
            if !state.in_block() {
                return Err(ValidationErrorKind::OutsideBlock { opcode: op });
            }
        }
    }
    Ok(false)
}

/// `GraphScopedInstructions`.
fn graph_scoped(state: &mut State<'_>, inst: &Inst<'_>) -> Result<(), ValidationErrorKind> {
    let op = inst.opcode;
    if !in_current(state, op) {
        return Err(ValidationErrorKind::NotInGraphSection { opcode: op });
    }
    let region = state.graph;
    match op {
        O::GraphARM => {
            if region > GraphRegion::Outside {
                return Err(ValidationErrorKind::GraphInGraph);
            }
            state.graph = GraphRegion::Begin;
        }
        O::GraphInputARM => {
            if !matches!(region, GraphRegion::Begin | GraphRegion::Inputs) {
                return Err(ValidationErrorKind::GraphInputPlacement);
            }
            state.graph = GraphRegion::Inputs;
        }
        O::GraphSetOutputARM => {
            if region == GraphRegion::Outside {
                return Err(ValidationErrorKind::GraphOutputPlacement { opcode: op });
            }
            state.graph = GraphRegion::Outputs;
        }
        O::GraphEndARM => {
            if region != GraphRegion::Outputs {
                return Err(ValidationErrorKind::GraphEndWithoutOutput { opcode: op });
            }
            state.graph = GraphRegion::Outside;
        }
        O::GraphEntryPointARM => {
            if region != GraphRegion::Outside {
                return Err(ValidationErrorKind::GraphEntryPointInGraph { opcode: op });
            }
        }
        _ => {
            if region == GraphRegion::Outside {
                return Err(ValidationErrorKind::GraphOutsideBody { opcode: op });
            }
            if region == GraphRegion::Outputs {
                return Err(ValidationErrorKind::GraphAfterOutputs { opcode: op });
            }
            state.graph = GraphRegion::Body;
        }
    }
    Ok(())
}

/// What this family checks (see [`coverage`](crate::validate::coverage)).
pub(crate) const COVERAGE: crate::validate::coverage::Family =
    crate::validate::coverage::Family::new("layout", "validate_layout.cpp");
