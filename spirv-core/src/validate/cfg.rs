//! spirv-val's control-flow rules over whole functions (`PerformCfgChecks` in
//! `validate_cfg.cpp`: blocks referenced but not defined, blocks before their
//! dominators, the nesting limit, structured control flow when `Shader` is declared)
//! and dominance (`CheckIdDefinitionDominateUse` in `validate_id.cpp`), with the
//! messages of every control-flow rule ([`CfgError`]), those of the second loop's
//! control-flow pass and of the adjacency rules included.
//!
//! Each function's graph is built as spirv-val's `CfgPass` registers it
//! ([`graph`]), its dominator trees computed without recursion in O(m log n)
//! ([`dom`]), the structured rules checked with O(1) dominance queries
//! ([`structured`], [`switch`]), and the uses of ids checked against the definitions'
//! blocks ([`dominance`]). One function's graph is alive at a time.

mod dom;
mod dominance;
pub(super) mod graph;
mod reconvergence;
mod regions;
mod structured;
mod switch;
mod undefined;
mod wavelet;

use super::Fault;
use super::error::{Namer, Out};
use super::query::Query;
use crate::__private::Vec;
use crate::types::Id;

/// Checks the module; hands each fault to `report`, which says whether to go on. In
/// spirv-val's order: `PerformCfgChecks` over every function (at most one fault per
/// function here), then `CheckIdDefinitionDominateUse` over the module.
pub(super) fn check(q: &Query<'_>, report: &mut dyn FnMut(Fault) -> bool) {
    let shader = q.state.has_capability(crate::spv::Capability::Shader.0);
    let mut uses = dominance::Uses::new(q);
    let mut faulted = false;
    for k in 0..uses.functions().len() {
        let (start, end) = uses.functions()[k];
        let Some(g) = graph::Graph::build(q, start, end) else {
            continue;
        };
        if let Some(fault) = structured::perform_cfg_checks(q, &g, shader, &mut uses) {
            faulted = true;
            if !report(fault) {
                return;
            }
        }
    }
    // Later faults may be consequences of the faults above; spirv-val stops first.
    if faulted {
        return;
    }
    if let Some(fault) = reconvergence::check(q, uses.functions()) {
        if !report(fault) {
            return;
        }
    }
    uses.report(q, report);
}

/// The kinds of construct spirv-val names in its messages (`ConstructType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ConstructKind {
    /// A selection: an `OpSelectionMerge` header up to its merge block.
    Selection,
    /// A loop: an `OpLoopMerge` header up to its merge block.
    Loop,
    /// A continue construct: a loop's continue target up to its back-edge block.
    Continue,
}

impl ConstructKind {
    /// spirv-val's `ConstructNames`: the construct, its header and its exit.
    fn names(self) -> (&'static str, &'static str, &'static str) {
        match self {
            ConstructKind::Selection => ("selection", "selection header", "merge block"),
            ConstructKind::Loop => ("loop", "loop header", "merge block"),
            ConstructKind::Continue => ("continue", "continue target", "back-edge block"),
        }
    }
}

/// The relation a construct's header fails to have with its exit block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ConstructDominance {
    /// The header does not structurally dominate the exit.
    Dominate,
    /// The header is its own merge block.
    StrictlyDominate,
    /// A continue target not structurally post-dominated by its back-edge block.
    PostDominated,
}

/// Which `OpLoopMerge` loop controls conflict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum LoopControlConflict {
    /// `Unroll` and `DontUnroll`.
    UnrollDontUnroll,
    /// `PeelCount` and `DontUnroll`.
    PeelCountDontUnroll,
    /// `PartialCount` and `DontUnroll`.
    PartialCountDontUnroll,
    /// `IterationMultiple` of zero.
    IterationMultipleZero,
}

/// Where an instruction that spirv-val places by its neighbours stands wrongly
/// (`ValidateAdjacency`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Adjacency {
    /// `OpPhi` after a non-`OpPhi` instruction or in the entry block.
    Phi,
    /// `OpLoopMerge` not followed by `OpBranch` or `OpBranchConditional`.
    LoopMerge,
    /// `OpSelectionMerge` not followed by `OpBranchConditional` or `OpSwitch`.
    SelectionMerge,
    /// A `Function` `OpVariable` after the first block's start.
    Variable,
    /// A `Function` `OpUntypedVariableKHR` after the first block's start.
    UntypedVariable,
}

/// A fault of spirv-val's control-flow, structured control-flow, dominance and adjacency rules, with what it involves.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum CfgError {
    // --- The second loop's control-flow pass (`ControlFlowPass`). ---
    /// `OpPhi` with an odd number of operands after its result id.
    PhiOperandCount,
    /// `OpPhi` of type void.
    PhiVoid,
    /// `OpPhi` of a pointer type in logical addressing without variable pointers.
    PhiPointer,
    /// `OpPhi` of an image, sampler or sampled-image type.
    PhiResultType {
        /// The type's opcode.
        opcode: crate::spv::Opcode,
    },
    /// `OpPhi` with as many incoming blocks as its block has distinct predecessors.
    PhiIncomingCount {
        /// Incoming blocks.
        incoming: usize,
        /// The block's predecessors, repeats included.
        predecessors: usize,
    },
    /// An incoming value whose type is not the result type.
    PhiValueType {
        /// The result type.
        result_type: Id,
        /// The value.
        value: Id,
        /// Its type.
        value_type: Id,
    },
    /// An incoming block that is not an `OpLabel`.
    PhiParentNotLabel {
        /// The id.
        block: Id,
    },
    /// An incoming block that is not a predecessor.
    PhiParentNotPredecessor {
        /// The incoming block.
        parent: Id,
        /// The `OpPhi`'s block.
        block: Id,
    },
    /// An incoming block named twice.
    PhiParentRepeated {
        /// The block.
        parent: Id,
    },
    /// `OpBranch` to an id that is not an `OpLabel`.
    BranchTarget,
    /// `OpBranchConditional` with 4 operands (one branch weight).
    BranchWeights,
    /// `OpBranchConditional` whose condition is not a boolean.
    ConditionNotBool,
    /// `OpBranchConditional` whose true label is not an `OpLabel`.
    TrueLabel,
    /// `OpBranchConditional` whose false label is not an `OpLabel`.
    FalseLabel,
    /// `OpBranchConditional` with equal labels in SPIR-V 1.6.
    SameLabels,
    /// `OpSwitch` whose selector is not an integer.
    SelectorType,
    /// `OpSwitch` whose default is not an `OpLabel`.
    DefaultNotLabel,
    /// `OpSwitch` with a target that is not an `OpLabel`.
    SwitchTarget,
    /// `OpReturnValue` of an id without a type.
    ReturnValueNotValue {
        /// The value.
        value: Id,
    },
    /// `OpReturnValue` of a void value.
    ReturnValueVoid {
        /// The value's type.
        value_type: Id,
    },
    /// `OpReturnValue` of a pointer in logical addressing.
    ReturnValuePointer {
        /// The value's type.
        value_type: Id,
    },
    /// `OpReturnValue` of another type than the function's.
    ReturnValueType {
        /// The value.
        value: Id,
    },
    /// `OpLoopMerge` whose merge block is not an `OpLabel`.
    MergeNotLabel {
        /// The merge block.
        merge: Id,
    },
    /// `OpLoopMerge` whose merge block is its own block.
    MergeIsHeader,
    /// `OpLoopMerge` whose continue target is not an `OpLabel`.
    ContinueNotLabel {
        /// The continue target.
        target: Id,
    },
    /// `OpLoopMerge` whose merge block is its continue target.
    MergeIsContinue,
    /// `OpLoopMerge` with conflicting loop controls.
    LoopControl {
        /// Which.
        conflict: LoopControlConflict,
    },

    // --- Adjacency (`ValidateAdjacency`). ---
    /// An instruction out of its place among its neighbours.
    Adjacency {
        /// Which rule.
        rule: Adjacency,
    },

    // --- Whole functions (`PerformCfgChecks`). ---
    /// Blocks branched to or named as merge blocks and continue targets, defined in
    /// another function (reported at the function's `OpFunction`).
    UndefinedBlocks {
        /// The blocks, in spirv-val's order.
        blocks: Vec<Id>,
        /// The function.
        function: Id,
    },
    /// A block before its immediate dominator (reported at the dominator).
    BeforeDominator {
        /// The block.
        block: Id,
        /// Its immediate dominator.
        dominator: Id,
    },
    /// A block nested deeper than the limit.
    NestingDepth,
    /// A back edge to a block that is not a loop header.
    BackEdge {
        /// The block that branches back.
        from: Id,
        /// The block it branches to.
        to: Id,
    },
    /// A loop header with another count of back-edge blocks than one.
    LatchCount {
        /// The loop header.
        header: Id,
        /// Its back-edge blocks.
        count: usize,
    },
    /// A construct without an exit block (a continue construct without a back edge).
    MissingExit {
        /// The construct's kind.
        construct: ConstructKind,
        /// Its header.
        header: Id,
    },
    /// A construct's header and exit out of dominance.
    ConstructDominance {
        /// The construct's kind.
        construct: ConstructKind,
        /// Its header.
        header: Id,
        /// Its exit.
        exit: Id,
        /// How.
        how: ConstructDominance,
    },
    /// A branch out of a construct that is not a structured exit.
    NotStructuredExit {
        /// The branching block.
        block: Id,
        /// The construct's kind.
        construct: ConstructKind,
        /// Its header.
        header: Id,
    },
    /// A branch into a construct other than to its header (spirv-val prints the raw
    /// ids).
    EntersConstruct {
        /// The branching block.
        from: Id,
        /// The construct's kind.
        construct: ConstructKind,
        /// Its header.
        header: Id,
    },
    /// A header inside a construct whose merge block is outside it.
    HeaderMergeOutside {
        /// The inner header.
        block: Id,
        /// The construct's kind.
        construct: ConstructKind,
        /// The construct's header.
        header: Id,
        /// The inner header's merge block.
        merge: Id,
    },
    /// A branch to a loop's continue target from outside the loop.
    ContinueFromOutside {
        /// The branching block.
        from: Id,
        /// The continue target.
        target: Id,
        /// The loop header.
        header: Id,
    },
    /// A switch header not dominating one of its case constructs.
    SwitchDominance {
        /// The switch's block.
        header: Id,
        /// The case target.
        target: Id,
    },
    /// A case construct branching out to a block that is no exit of the switch.
    CaseExit {
        /// The case target.
        target: Id,
        /// The block branched to.
        block: Id,
    },
    /// A case construct falling through to two others.
    CaseFallThroughs {
        /// The case target.
        target: Id,
        /// The first case it falls through to.
        first: Id,
        /// The second.
        second: Id,
    },
    /// A case construct falling through to one that does not follow it in the list.
    CaseOrder {
        /// The case target.
        target: Id,
        /// The case it falls through to.
        next: Id,
    },
    /// A case construct that more than one other falls through to.
    CaseFallenInto {
        /// The case target.
        target: Id,
    },
    /// A conditional branch of an unstructured selection.
    Unstructured,
    /// `OpSwitch` without `OpSelectionMerge`.
    SwitchWithoutMerge,
    /// `OpBranchConditional` with equal labels in a function of a maximally
    /// reconverging entry point.
    ReconvergenceLabels,
    /// A block with several predecessors in a function of a maximally reconverging
    /// entry point, other than a merge, continue or switch target.
    ReconvergencePredecessors,

    // --- Dominance (`CheckIdDefinitionDominateUse`), reported at the using block. ---
    /// A use in a block its definition's block does not dominate.
    DoesDominate {
        /// The id.
        id: Id,
        /// The definition's block.
        definition: Id,
        /// The using block.
        user: Id,
    },
    /// A label or parameter used in another function (reported at its function).
    OutsideFunction {
        /// The id.
        id: Id,
        /// The function that uses it.
        user: Id,
        /// The function that defines it.
        function: Id,
    },
    /// An `OpPhi` value whose definition does not dominate its incoming block.
    PhiDominance {
        /// The `OpPhi`.
        phi: Id,
        /// The value.
        id: Id,
        /// The incoming block.
        parent: Id,
    },
}

impl CfgError {
    /// spirv-val's message.
    pub(super) fn write(&self, out: &mut dyn Out, names: &Namer<'_>) -> core::fmt::Result {
        use CfgError as E;
        let id = |out: &mut dyn Out, i: Id| names.id(out, i);
        match self {
            E::PhiOperandCount => out.write_str(
                "OpPhi does not have an equal number of incoming values and basic blocks.",
            ),
            E::PhiVoid => out.write_str("OpPhi must not have void result type"),
            E::PhiPointer => out.write_str(
                "Using pointers with OpPhi requires capability VariablePointers or VariablePointersStorageBuffer",
            ),
            E::PhiResultType { opcode } => write!(
                out,
                "Result type cannot be Op{}",
                super::error::opcode_name(*opcode)
            ),
            E::PhiIncomingCount {
                incoming,
                predecessors,
            } => write!(
                out,
                "OpPhi's number of incoming blocks ({incoming}) does not match block's predecessor count ({predecessors})."
            ),
            E::PhiValueType {
                result_type,
                value,
                value_type,
            } => {
                out.write_str("OpPhi's result type <id> ")?;
                id(out, *result_type)?;
                out.write_str(" does not match incoming value <id> ")?;
                id(out, *value)?;
                out.write_str(" type <id> ")?;
                id(out, *value_type)?;
                out.write_str(".")
            }
            E::PhiParentNotLabel { block } => {
                out.write_str("OpPhi's incoming basic block <id> ")?;
                id(out, *block)?;
                out.write_str(" is not an OpLabel.")
            }
            E::PhiParentNotPredecessor { parent, block } => {
                out.write_str("OpPhi's incoming basic block <id> ")?;
                id(out, *parent)?;
                out.write_str(" is not a predecessor of <id> ")?;
                id(out, *block)?;
                out.write_str(".")
            }
            E::PhiParentRepeated { parent } => {
                out.write_str("OpPhi references incoming basic block <id> ")?;
                id(out, *parent)?;
                out.write_str(" multiple times.")
            }
            E::BranchTarget => out.write_str(
                "'Target Label' operands for OpBranch must be the ID of an OpLabel instruction",
            ),
            E::BranchWeights => {
                out.write_str("OpBranchConditional requires either 3 or 5 parameters")
            }
            E::ConditionNotBool => {
                out.write_str("Condition operand for OpBranchConditional must be of boolean type")
            }
            E::TrueLabel => out.write_str(
                "The 'True Label' operand for OpBranchConditional must be the ID of an OpLabel instruction",
            ),
            E::FalseLabel => out.write_str(
                "The 'False Label' operand for OpBranchConditional must be the ID of an OpLabel instruction",
            ),
            E::SameLabels => out.write_str(
                "In SPIR-V 1.6 or later, True Label and False Label must be different labels",
            ),
            E::SelectorType => out.write_str("Selector type must be OpTypeInt"),
            E::DefaultNotLabel => out.write_str("Default must be an OpLabel instruction"),
            E::SwitchTarget => out.write_str(
                "'Target Label' operands for OpSwitch must be IDs of an OpLabel instruction",
            ),
            E::ReturnValueNotValue { value } => {
                out.write_str("OpReturnValue Value <id> ")?;
                id(out, *value)?;
                out.write_str(" does not represent a value.")
            }
            E::ReturnValueVoid { value_type } => {
                out.write_str("OpReturnValue value's type <id> ")?;
                id(out, *value_type)?;
                out.write_str(" is missing or void.")
            }
            E::ReturnValuePointer { value_type } => {
                out.write_str("OpReturnValue value's type <id> ")?;
                id(out, *value_type)?;
                out.write_str(
                    " is a pointer, which is invalid in the Logical addressing model.",
                )
            }
            E::ReturnValueType { value } => {
                out.write_str("OpReturnValue Value <id> ")?;
                id(out, *value)?;
                out.write_str("s type does not match OpFunction's return type.")
            }
            E::MergeNotLabel { merge } => {
                out.write_str("Merge Block ")?;
                id(out, *merge)?;
                out.write_str(" must be an OpLabel")
            }
            E::MergeIsHeader => out.write_str(
                "Merge Block may not be the block containing the OpLoopMerge\n",
            ),
            E::ContinueNotLabel { target } => {
                out.write_str("Continue Target ")?;
                id(out, *target)?;
                out.write_str(" must be an OpLabel")
            }
            E::MergeIsContinue => {
                out.write_str("Merge Block and Continue Target must be different ids")
            }
            E::LoopControl { conflict } => out.write_str(match conflict {
                LoopControlConflict::UnrollDontUnroll => {
                    "Unroll and DontUnroll loop controls must not both be specified"
                }
                LoopControlConflict::PeelCountDontUnroll => {
                    "PeelCount and DontUnroll loop controls must not both be specified"
                }
                LoopControlConflict::PartialCountDontUnroll => {
                    "PartialCount and DontUnroll loop controls must not both be specified"
                }
                LoopControlConflict::IterationMultipleZero => {
                    "IterationMultiple loop control operand must be greater than zero"
                }
            }),
            E::Adjacency { rule } => out.write_str(match rule {
                Adjacency::Phi => {
                    "OpPhi must appear within a non-entry block before all non-OpPhi instructions (except for OpLine, which can be mixed with OpPhi)."
                }
                Adjacency::LoopMerge => {
                    "OpLoopMerge must immediately precede either an OpBranch or OpBranchConditional instruction. OpLoopMerge must be the second-to-last instruction in its block."
                }
                Adjacency::SelectionMerge => {
                    "OpSelectionMerge must immediately precede either an OpBranchConditional or OpSwitch instruction. OpSelectionMerge must be the second-to-last instruction in its block."
                }
                Adjacency::Variable => {
                    "All OpVariable instructions in a function must be the first instructions in the first block."
                }
                Adjacency::UntypedVariable => {
                    "All OpUntypedVariableKHR instructions in a function must be the first instructions in the first block."
                }
            }),
            E::UndefinedBlocks { blocks, function } => {
                // spirv-val's list: no space after the first name, one after each other.
                out.write_str("Block(s) {")?;
                for (i, b) in blocks.iter().enumerate() {
                    id(out, *b)?;
                    if i > 0 {
                        out.write_str(" ")?;
                    }
                }
                out.write_str("} are referenced but not defined in function ")?;
                id(out, *function)
            }
            E::BeforeDominator { block, dominator } => {
                out.write_str("Block ")?;
                id(out, *block)?;
                out.write_str(" appears in the binary before its dominator ")?;
                id(out, *dominator)
            }
            E::NestingDepth => out.write_str("Maximum Control Flow nesting depth exceeded."),
            E::BackEdge { from, to } => {
                out.write_str("Back-edges (")?;
                id(out, *from)?;
                out.write_str(" -> ")?;
                id(out, *to)?;
                out.write_str(") can only be formed between a block and a loop header.")
            }
            E::LatchCount { header, count } => {
                out.write_str("Loop header ")?;
                id(out, *header)?;
                write!(
                    out,
                    " is targeted by {count} back-edge blocks but the standard requires exactly one"
                )
            }
            E::MissingExit { construct, header } => {
                let (c, h, x) = construct.names();
                write!(out, "Construct {c} with {h} ")?;
                id(out, *header)?;
                write!(out, " does not have a {x}. This may be a bug in the validator.")
            }
            E::ConstructDominance {
                construct,
                header,
                exit,
                how,
            } => {
                let (c, h, x) = construct.names();
                write!(out, "The {c} construct with the {h} ")?;
                id(out, *header)?;
                out.write_str(match how {
                    ConstructDominance::Dominate => " does not structurally dominate",
                    ConstructDominance::StrictlyDominate => {
                        " does not strictly structurally dominate"
                    }
                    ConstructDominance::PostDominated => " is not structurally post dominated by",
                })?;
                write!(out, " the {x} ")?;
                id(out, *exit)
            }
            E::NotStructuredExit {
                block,
                construct,
                header,
            } => {
                out.write_str("block <ID> ")?;
                id(out, *block)?;
                write!(out, " exits the {} headed by <ID> ", construct.names().0)?;
                id(out, *header)?;
                out.write_str(", but not via a structured exit")
            }
            E::EntersConstruct {
                from,
                construct,
                header,
            } => {
                let (c, h, _) = construct.names();
                write!(
                    out,
                    "block <ID> {} branches to the {c} construct, but not to the {h} <ID> {}",
                    from.0, header.0
                )
            }
            E::HeaderMergeOutside {
                block,
                construct,
                header,
                merge,
            } => {
                out.write_str("Header block ")?;
                id(out, *block)?;
                write!(out, " is contained in the {} construct headed by ", construct.names().0)?;
                id(out, *header)?;
                out.write_str(", but its merge block ")?;
                id(out, *merge)?;
                out.write_str(" is not")
            }
            E::ContinueFromOutside {
                from,
                target,
                header,
            } => {
                out.write_str("Block ")?;
                id(out, *from)?;
                out.write_str(" branches to the loop continue target ")?;
                id(out, *target)?;
                out.write_str(", but is not contained in the associated loop construct ")?;
                id(out, *header)
            }
            E::SwitchDominance { header, target } => {
                out.write_str("Switch header ")?;
                id(out, *header)?;
                out.write_str(" does not structurally dominate its case construct ")?;
                id(out, *target)
            }
            E::CaseExit { target, block } => {
                out.write_str("Case construct that targets ")?;
                id(out, *target)?;
                out.write_str(" has invalid branch to block ")?;
                id(out, *block)?;
                out.write_str(
                    " (not another case construct, corresponding merge, outer loop merge or outer loop continue)",
                )
            }
            E::CaseFallThroughs {
                target,
                first,
                second,
            } => {
                out.write_str("Case construct that targets ")?;
                id(out, *target)?;
                out.write_str(" has branches to multiple other case construct targets ")?;
                id(out, *first)?;
                out.write_str(" and ")?;
                id(out, *second)
            }
            E::CaseOrder { target, next } => {
                out.write_str("Case construct that targets ")?;
                id(out, *target)?;
                out.write_str(" has branches to the case construct that targets ")?;
                id(out, *next)?;
                out.write_str(
                    ", but does not immediately precede it in the OpSwitch's target list",
                )
            }
            E::CaseFallenInto { target } => {
                out.write_str(
                    "Multiple case constructs have branches to the case construct that targets ",
                )?;
                id(out, *target)
            }
            E::Unstructured => out.write_str("Selection must be structured"),
            E::SwitchWithoutMerge => {
                out.write_str("OpSwitch must be preceded by an OpSelectionMerge instruction")
            }
            E::ReconvergenceLabels => out.write_str(
                "In entry points using the MaximallyReconvergesKHR execution mode, True Label and False Label must be different labels",
            ),
            E::ReconvergencePredecessors => out.write_str(
                "In entry points using the MaximallyReconvergesKHR execution mode, this basic block must not have multiple unique predecessors",
            ),
            E::DoesDominate {
                id: i,
                definition,
                user,
            } => {
                out.write_str("ID ")?;
                id(out, *i)?;
                out.write_str(" defined in block ")?;
                id(out, *definition)?;
                out.write_str(" does not dominate its use in block ")?;
                id(out, *user)
            }
            E::OutsideFunction {
                id: i,
                user,
                function,
            } => {
                out.write_str("ID ")?;
                id(out, *i)?;
                out.write_str(" used in function ")?;
                id(out, *user)?;
                out.write_str(" is used outside of it's defining function ")?;
                id(out, *function)
            }
            E::PhiDominance { phi, id: i, parent } => {
                out.write_str("In OpPhi instruction ")?;
                id(out, *phi)?;
                out.write_str(", ID ")?;
                id(out, *i)?;
                out.write_str(" definition does not dominate its parent ")?;
                id(out, *parent)
            }
        }
    }

    /// The ids the message names, in order.
    pub(super) fn ids(&self) -> Vec<Id> {
        use CfgError as E;
        match self {
            E::PhiValueType {
                result_type,
                value,
                value_type,
            } => Vec::from([*result_type, *value, *value_type]),
            E::PhiParentNotLabel { block: a }
            | E::PhiParentRepeated { parent: a }
            | E::ReturnValueNotValue { value: a }
            | E::ReturnValueVoid { value_type: a }
            | E::ReturnValuePointer { value_type: a }
            | E::ReturnValueType { value: a }
            | E::MergeNotLabel { merge: a }
            | E::ContinueNotLabel { target: a }
            | E::LatchCount { header: a, .. }
            | E::MissingExit { header: a, .. }
            | E::CaseFallenInto { target: a } => Vec::from([*a]),
            E::PhiParentNotPredecessor {
                parent: a,
                block: b,
            }
            | E::BeforeDominator {
                block: a,
                dominator: b,
            }
            | E::BackEdge { from: a, to: b }
            | E::ConstructDominance {
                header: a, exit: b, ..
            }
            | E::NotStructuredExit {
                block: a,
                header: b,
                ..
            }
            | E::EntersConstruct {
                from: a, header: b, ..
            }
            | E::SwitchDominance {
                header: a,
                target: b,
            }
            | E::CaseExit {
                target: a,
                block: b,
            }
            | E::CaseOrder { target: a, next: b } => Vec::from([*a, *b]),
            E::HeaderMergeOutside {
                block,
                header,
                merge,
                ..
            } => Vec::from([*block, *header, *merge]),
            E::ContinueFromOutside {
                from: a,
                target: b,
                header: c,
            }
            | E::CaseFallThroughs {
                target: a,
                first: b,
                second: c,
            }
            | E::DoesDominate {
                id: a,
                definition: b,
                user: c,
            }
            | E::OutsideFunction {
                id: a,
                user: b,
                function: c,
            }
            | E::PhiDominance {
                phi: a,
                id: b,
                parent: c,
            } => Vec::from([*a, *b, *c]),
            E::UndefinedBlocks { blocks, function } => {
                let mut v = blocks.clone();
                v.push(*function);
                v
            }
            _ => Vec::new(),
        }
    }
}
