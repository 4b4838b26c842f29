//! spirv-val's control-flow rules over whole functions (`PerformCfgChecks` in
//! `validate_cfg.cpp`: blocks referenced but not defined, blocks before their
//! dominators, the nesting limit, structured control flow when `Shader` is declared)
//! and dominance (`CheckIdDefinitionDominateUse` in `validate_id.cpp`), with the
//! faults of every control-flow rule ([`CfgError`]).
//!
//! The first loop's block rules (`CfgPass`) are in [`cfg_pass`], the second loop's
//! (`ControlFlowPass`) in [`control_flow`]. Each function's graph is built as
//! spirv-val's `CfgPass` registers it ([`graph`]), its dominator trees computed
//! without recursion in O(m log n) ([`dominators`]), the structured rules checked with
//! O(1) dominance queries and counts of edges between dominator-tree ranges
//! ([`structured`], [`exits`], [`regions`], [`switch`]), and the uses of ids checked
//! against the definitions' blocks ([`ssa`]). One function's graph is alive at a time.

mod cfg_pass;
pub(super) mod control_flow;
mod dominators;
mod exits;
pub(super) mod graph;
mod reconvergence;
mod regions;
mod ssa;
mod structured;
mod switch;
mod undefined;
mod wavelet;

pub(super) use cfg_pass::check as cfg_pass;

use super::Fault;
use super::Query;
use super::faults::faults;
use crate::__private::Vec;
use crate::spv::Opcode;
use crate::types::Id;

faults! {
    /// A fault of spirv-val's control-flow rules (`validate_cfg.cpp`: `ControlFlowPass`
    /// and `PerformCfgChecks`) and of `CheckIdDefinitionDominateUse`
    /// (`validate_id.cpp`), which reads the same dominator trees.
    pub enum CfgError {
        // --- The second loop's control-flow pass (`ControlFlowPass`). ---
        /// `OpPhi` with an odd number of operands after its result id.
        PhiOperandCount => "OpPhi does not have an equal number of incoming values and basic blocks.",
        /// `OpPhi` of type void.
        PhiVoid => "OpPhi must not have void result type",
        /// `OpPhi` of a pointer type in logical addressing without variable pointers.
        PhiPointer
            => "Using pointers with OpPhi requires capability VariablePointers or VariablePointersStorageBuffer",
        /// `OpPhi` of an image, sampler or sampled-image type.
        PhiResultType {
            /// The type's opcode.
            opcode: Opcode,
        } => "Result type cannot be Op{opcode}",
        /// `OpPhi` with as many incoming blocks as its block has distinct predecessors.
        PhiIncomingCount {
            /// Incoming blocks.
            incoming: usize,
            /// The block's predecessors, repeats included.
            predecessors: usize,
        } => "OpPhi's number of incoming blocks ({incoming}) does not match block's predecessor count ({predecessors}).",
        /// An incoming value whose type is not the result type.
        PhiValueType {
            /// The result type.
            result_type: Id,
            /// The value.
            value: Id,
            /// Its type.
            value_type: Id,
        } => "OpPhi's result type <id> {result_type} does not match incoming value <id> {value} type <id> {value_type}.",
        /// An incoming block that is not an `OpLabel`.
        PhiParentNotLabel {
            /// The id.
            block: Id,
        } => "OpPhi's incoming basic block <id> {block} is not an OpLabel.",
        /// An incoming block that is not a predecessor.
        PhiParentNotPredecessor {
            /// The incoming block.
            parent: Id,
            /// The `OpPhi`'s block.
            block: Id,
        } => "OpPhi's incoming basic block <id> {parent} is not a predecessor of <id> {block}.",
        /// An incoming block named twice.
        PhiParentRepeated {
            /// The block.
            parent: Id,
        } => "OpPhi references incoming basic block <id> {parent} multiple times.",
        /// `OpBranch` to an id that is not an `OpLabel`.
        BranchTarget => "'Target Label' operands for OpBranch must be the ID of an OpLabel instruction",
        /// `OpBranchConditional` with 4 operands (one branch weight).
        BranchWeights => "OpBranchConditional requires either 3 or 5 parameters",
        /// `OpBranchConditional` whose condition is not a boolean.
        ConditionNotBool => "Condition operand for OpBranchConditional must be of boolean type",
        /// `OpBranchConditional` whose true label is not an `OpLabel`.
        TrueLabel
            => "The 'True Label' operand for OpBranchConditional must be the ID of an OpLabel instruction",
        /// `OpBranchConditional` whose false label is not an `OpLabel`.
        FalseLabel
            => "The 'False Label' operand for OpBranchConditional must be the ID of an OpLabel instruction",
        /// `OpBranchConditional` with equal labels in SPIR-V 1.6.
        SameLabels => "In SPIR-V 1.6 or later, True Label and False Label must be different labels",
        /// `OpSwitch` whose selector is not an integer.
        SelectorType => "Selector type must be OpTypeInt",
        /// `OpSwitch` whose default is not an `OpLabel`.
        DefaultNotLabel => "Default must be an OpLabel instruction",
        /// `OpSwitch` with a target that is not an `OpLabel`.
        SwitchTarget => "'Target Label' operands for OpSwitch must be IDs of an OpLabel instruction",
        /// `OpReturnValue` of an id without a type.
        ReturnValueNotValue {
            /// The value.
            value: Id,
        } => "OpReturnValue Value <id> {value} does not represent a value.",
        /// `OpReturnValue` of a void value.
        ReturnValueVoid {
            /// The value's type.
            value_type: Id,
        } => "OpReturnValue value's type <id> {value_type} is missing or void.",
        /// `OpReturnValue` of a pointer in logical addressing.
        ReturnValuePointer {
            /// The value's type.
            value_type: Id,
        } => "OpReturnValue value's type <id> {value_type} is a pointer, which is invalid in the Logical addressing model.",
        /// `OpReturnValue` of another type than the function's.
        ReturnValueType {
            /// The value.
            value: Id,
        } => "OpReturnValue Value <id> {value}s type does not match OpFunction's return type.",
        /// `OpLoopMerge` whose merge block is not an `OpLabel`.
        MergeNotLabel {
            /// The merge block.
            merge: Id,
        } => "Merge Block {merge} must be an OpLabel",
        /// `OpLoopMerge` whose merge block is its own block.
        MergeIsHeader => "Merge Block may not be the block containing the OpLoopMerge\n",
        /// `OpLoopMerge` whose continue target is not an `OpLabel`.
        ContinueNotLabel {
            /// The continue target.
            target: Id,
        } => "Continue Target {target} must be an OpLabel",
        /// `OpLoopMerge` whose merge block is its continue target.
        MergeIsContinue => "Merge Block and Continue Target must be different ids",
        /// `OpLoopMerge` with both `Unroll` and `DontUnroll`.
        UnrollDontUnroll => "Unroll and DontUnroll loop controls must not both be specified",
        /// `OpLoopMerge` with both `PeelCount` and `DontUnroll`.
        PeelCountDontUnroll => "PeelCount and DontUnroll loop controls must not both be specified",
        /// `OpLoopMerge` with both `PartialCount` and `DontUnroll`.
        PartialCountDontUnroll => "PartialCount and DontUnroll loop controls must not both be specified",
        /// `OpLoopMerge` with an `IterationMultiple` of zero.
        IterationMultipleZero => "IterationMultiple loop control operand must be greater than zero",

        // --- Whole functions (`PerformCfgChecks`). ---
        /// Blocks branched to or named as merge blocks and continue targets, defined in
        /// another function (reported at the function's `OpFunction`).
        UndefinedBlocks {
            /// The blocks, in spirv-val's order.
            blocks: Vec<Id>,
            /// The function.
            function: Id,
        } => "Block(s) {{{blocks:spaced_after_first}}} are referenced but not defined in function {function}",
        /// A block before its immediate dominator (reported at the dominator).
        BeforeDominator {
            /// The block.
            block: Id,
            /// Its immediate dominator.
            dominator: Id,
        } => "Block {block} appears in the binary before its dominator {dominator}",
        /// A block nested deeper than the limit.
        NestingDepth => "Maximum Control Flow nesting depth exceeded.",
        /// A back edge to a block that is not a loop header.
        BackEdge {
            /// The block that branches back.
            from: Id,
            /// The block it branches to.
            to: Id,
        } => "Back-edges ({from} -> {to}) can only be formed between a block and a loop header.",
        /// A loop header with another count of back-edge blocks than one.
        LatchCount {
            /// The loop header.
            header: Id,
            /// Its back-edge blocks.
            count: usize,
        } => "Loop header {header} is targeted by {count} back-edge blocks but the standard requires exactly one",
        /// A construct without an exit block (a continue construct without a back edge).
        MissingExit {
            /// The construct's kind.
            construct: ConstructKind,
            /// Its header.
            header: Id,
        } => "Construct {construct} with {construct:header} {header} does not have a {construct:exit}. This may be a bug in the validator.",
        /// A construct's header that does not structurally dominate its exit.
        HeaderNotDominating {
            /// The construct's kind.
            construct: ConstructKind,
            /// Its header.
            header: Id,
            /// Its exit.
            exit: Id,
        } => "The {construct} construct with the {construct:header} {header} does not structurally dominate the {construct:exit} {exit}",
        /// A selection or loop header that is its own merge block.
        HeaderNotStrictlyDominating {
            /// The construct's kind.
            construct: ConstructKind,
            /// Its header.
            header: Id,
            /// Its exit.
            exit: Id,
        } => "The {construct} construct with the {construct:header} {header} does not strictly structurally dominate the {construct:exit} {exit}",
        /// A continue target not structurally post-dominated by its back-edge block.
        HeaderNotPostDominated {
            /// The construct's kind.
            construct: ConstructKind,
            /// Its header.
            header: Id,
            /// Its exit.
            exit: Id,
        } => "The {construct} construct with the {construct:header} {header} is not structurally post dominated by the {construct:exit} {exit}",
        /// A branch out of a construct that is not a structured exit.
        NotStructuredExit {
            /// The branching block.
            block: Id,
            /// The construct's kind.
            construct: ConstructKind,
            /// Its header.
            header: Id,
        } => "block <ID> {block} exits the {construct} headed by <ID> {header}, but not via a structured exit",
        /// A branch into a construct other than to its header.
        EntersConstruct {
            /// The branching block.
            from: Id,
            /// The construct's kind.
            construct: ConstructKind,
            /// Its header.
            header: Id,
        } => "block <ID> {from:n} branches to the {construct} construct, but not to the {construct:header} <ID> {header:n}",
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
        } => "Header block {block} is contained in the {construct} construct headed by {header}, but its merge block {merge} is not",
        /// A branch to a loop's continue target from outside the loop.
        ContinueFromOutside {
            /// The branching block.
            from: Id,
            /// The continue target.
            target: Id,
            /// The loop header.
            header: Id,
        } => "Block {from} branches to the loop continue target {target}, but is not contained in the associated loop construct {header}",
        /// A switch header not dominating one of its case constructs.
        SwitchDominance {
            /// The switch's block.
            header: Id,
            /// The case target.
            target: Id,
        } => "Switch header {header} does not structurally dominate its case construct {target}",
        /// A case construct branching out to a block that is no exit of the switch.
        CaseExit {
            /// The case target.
            target: Id,
            /// The block branched to.
            block: Id,
        } => "Case construct that targets {target} has invalid branch to block {block} (not another case construct, corresponding merge, outer loop merge or outer loop continue)",
        /// A case construct falling through to two others.
        CaseFallThroughs {
            /// The case target.
            target: Id,
            /// The first case it falls through to.
            first: Id,
            /// The second.
            second: Id,
        } => "Case construct that targets {target} has branches to multiple other case construct targets {first} and {second}",
        /// A case construct falling through to one that does not follow it in the list.
        CaseOrder {
            /// The case target.
            target: Id,
            /// The case it falls through to.
            next: Id,
        } => "Case construct that targets {target} has branches to the case construct that targets {next}, but does not immediately precede it in the OpSwitch's target list",
        /// A case construct that more than one other falls through to.
        CaseFallenInto {
            /// The case target.
            target: Id,
        } => "Multiple case constructs have branches to the case construct that targets {target}",
        /// A conditional branch of an unstructured selection.
        Unstructured => "Selection must be structured",
        /// `OpSwitch` without `OpSelectionMerge`.
        SwitchWithoutMerge => "OpSwitch must be preceded by an OpSelectionMerge instruction",
        /// `OpBranchConditional` with equal labels in a function of a maximally
        /// reconverging entry point.
        ReconvergenceLabels
            => "In entry points using the MaximallyReconvergesKHR execution mode, True Label and False Label must be different labels",
        /// A block with several predecessors in a function of a maximally reconverging
        /// entry point, other than a merge, continue or switch target.
        ReconvergencePredecessors
            => "In entry points using the MaximallyReconvergesKHR execution mode, this basic block must not have multiple unique predecessors",

        // --- Dominance (`CheckIdDefinitionDominateUse`), reported at the using block. ---
        /// A use in a block its definition's block does not dominate.
        DoesDominate {
            /// The id.
            id: Id,
            /// The definition's block.
            definition: Id,
            /// The using block.
            user: Id,
        } => "ID {id} defined in block {definition} does not dominate its use in block {user}",
        /// A label or parameter used in another function (reported at its function).
        OutsideFunction {
            /// The id.
            id: Id,
            /// The function that uses it.
            user: Id,
            /// The function that defines it.
            function: Id,
        } => "ID {id} used in function {user} is used outside of it's defining function {function}",
        /// An `OpPhi` value whose definition does not dominate its incoming block.
        PhiDominance {
            /// The `OpPhi`.
            phi: Id,
            /// The value.
            id: Id,
            /// The incoming block.
            parent: Id,
        } => "In OpPhi instruction {phi}, ID {id} definition does not dominate its parent {parent}",
    }
}

/// Checks the module; hands each fault to `report`, which says whether to go on. In
/// spirv-val's order: `PerformCfgChecks` over every function (at most one fault per
/// function here), then `CheckIdDefinitionDominateUse` over the module.
pub(super) fn check(q: &Query<'_>, report: &mut dyn FnMut(Fault) -> bool) {
    let shader = q.state.has_capability(crate::spv::Capability::Shader.0);
    let mut uses = ssa::Uses::new(q);
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
    pub(crate) fn names(self) -> (&'static str, &'static str, &'static str) {
        match self {
            ConstructKind::Selection => ("selection", "selection header", "merge block"),
            ConstructKind::Loop => ("loop", "loop header", "merge block"),
            ConstructKind::Continue => ("continue", "continue target", "back-edge block"),
        }
    }
}

/// A construct kind prints as spirv-val's `ConstructNames` name it: the construct
/// (`selection`), with `:header` its header (`selection header`), with `:exit` its
/// exit (`merge block`).
impl super::faults::Arg for ConstructKind {
    fn specs() -> &'static [&'static str] {
        &["", "header", "exit"]
    }
    fn show(
        &self,
        spec: &str,
        out: &mut dyn core::fmt::Write,
        _: &super::faults::Namer<'_>,
    ) -> core::fmt::Result {
        let (construct, header, exit) = self.names();
        out.write_str(match spec {
            "header" => header,
            "exit" => exit,
            _ => construct,
        })
    }
}

/// What this family checks (see [`coverage`](crate::validate::coverage)).
pub(crate) const COVERAGE: crate::validate::coverage::Family =
    crate::validate::coverage::Family::new("control flow", "validate_cfg.cpp");
