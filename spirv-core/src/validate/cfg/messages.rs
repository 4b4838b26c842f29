//! The text of every control-flow fault ([`CfgError`]): spirv-val's messages, and the
//! ids they name.

use super::{Adjacency, CfgError, ConstructDominance, LoopControlConflict};
use crate::__private::Vec;
use crate::types::Id;
use crate::validate::error::{Namer, Out};

impl CfgError {
    /// spirv-val's message.
    pub(in crate::validate) fn write(
        &self,
        out: &mut dyn Out,
        names: &Namer<'_>,
    ) -> core::fmt::Result {
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
                crate::validate::error::opcode_name(*opcode)
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
    pub(in crate::validate) fn ids(&self) -> Vec<Id> {
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
