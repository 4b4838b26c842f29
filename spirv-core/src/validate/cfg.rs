//! spirv-val's control-flow rules over whole functions (`PerformCfgChecks` in
//! `validate_cfg.cpp`: blocks referenced but not defined, blocks before their
//! dominators, the nesting limit, structured control flow when `Shader` is declared)
//! and dominance (`CheckIdDefinitionDominateUse` in `validate_id.cpp`), with the
//! messages of every control-flow rule ([`CfgError`]), those of the second loop's
//! control-flow pass and of the adjacency rules included.
//!
//! Each function's graph is built as spirv-val's `CfgPass` registers it
//! ([`graph`]), its dominator trees computed without recursion in O(m log n)
//! ([`dom`]), the structured rules checked with O(1) dominance queries and counts of
//! edges between dominator-tree ranges ([`structured`], [`exits`], [`regions`],
//! [`switch`]), and the uses of ids checked against the definitions' blocks
//! ([`dominance`]). One function's graph is alive at a time. The messages are in
//! [`messages`].

mod dom;
mod dominance;
mod exits;
pub(super) mod graph;
mod messages;
mod reconvergence;
mod regions;
mod structured;
mod switch;
mod undefined;
mod wavelet;

use super::Fault;
use super::Query;
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
