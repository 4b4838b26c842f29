//! spirv-val's non-uniform pass (`NonUniformPass` in `validate_non_uniform.cpp`): the
//! execution scope of every `OpGroupNonUniform*` instruction (through
//! [`validate_execution_scope`], whose non-uniform rows live in
//! [`scopes`](super::scopes)), then each instruction's result and operand types: the
//! predicate, the value, the `Id`/`Delta`/`Mask`/`Index`/`Direction` operand, ballots,
//! and the `ClusterSize` or partition `Ballot` a group operation needs.

use super::faults::faults;
use super::scopes::validate_execution_scope;
use super::{Fault, Inst, Query};
use crate::spirv_tools::is_constant;
use crate::spv::{GroupOperation as G, Opcode, Opcode as O};
use NonUniformError as E;

faults! {
    /// A fault of spirv-val's non-uniform pass (`validate_non_uniform.cpp`).
    pub enum NonUniformError {
        /// A result that is no bool scalar (elect, any, all, all-equal).
        BoolResultType => "Result must be a boolean scalar type",
        /// A predicate that is no bool scalar (any, all).
        PredicateType => "Predicate must be a boolean scalar type",
        /// An all-equal value that is no scalar or vector of numbers or bools.
        AllEqualValue
            => "Value must be a scalar or vector of integer, floating-point, or boolean type",
        /// A broadcast or shuffle result that is no scalar or vector of numbers or bools.
        BroadcastResult
            => "Result must be a scalar or vector of integer, floating-point, or boolean type",
        /// A value whose type is not the result type.
        ValueType => "The type of Value must match the Result type",
        /// A lane operand that is no unsigned integer scalar.
        LaneType {
            /// The operand's name: `Id`, `Mask`, `Index`, `Direction` or `Delta`.
            operand: &'static str,
        } => "{operand} must be an unsigned integer scalar",
        /// A lane operand that must be a constant before SPIR-V 1.5.
        LaneConstant {
            /// The operand's name.
            operand: &'static str,
        } => "In SPIR-V 1.4 or earlier, {operand} must be a constant instruction",
        /// A ballot result that is no 4-component unsigned integer vector.
        BallotResult => "Result must be a 4-component unsigned integer vector",
        /// A ballot predicate that is no bool scalar.
        BallotPredicate => "Predicate must be a boolean scalar",
        /// A result that is no bool scalar (inverse ballot, bit extract).
        BoolResult => "Result must be a boolean scalar",
        /// A ballot value that is no 4-component unsigned integer vector.
        BallotValue => "Value must be a 4-component unsigned integer vector",
        /// A bit-extract index that is no unsigned integer scalar.
        BitExtractId => "Id must be an unsigned integer scalar",
        /// A bit-count result that is no unsigned integer scalar.
        BitCountResult => "Expected Result Type to be an unsigned integer type scalar.",
        /// A bit-count value that is no 4-component unsigned integer vector.
        BitCountValue => "Expected Value to be a vector of four components of integer type scalar",
        /// A bit count with another operation than a reduction or scan, in Vulkan.
        #[vuid = "VUID-StandaloneSpirv-OpGroupNonUniformBallotBitCount-04685"]
        BitCountOperation
            => "In Vulkan: The OpGroupNonUniformBallotBitCount group operation must be only: Reduce, InclusiveScan, or ExclusiveScan.",
        /// A find-LSB/MSB result that is no unsigned integer scalar.
        FindResult => "Result must be an unsigned integer scalar",
        /// A float group operation whose result is no float scalar or vector.
        FloatResult => "Result must be a floating-point scalar or vector",
        /// A logical group operation whose result is no bool scalar or vector.
        LogicalResult => "Result must be a boolean scalar or vector",
        /// An unsigned min/max whose result is no unsigned integer scalar or vector.
        UnsignedResult => "Result must be an unsigned integer scalar or vector",
        /// An integer group operation whose result is no integer scalar or vector.
        IntResult => "Result must be an integer scalar or vector",
        /// `ClusteredReduce` without its cluster size.
        ClusterSizeMissing => "ClusterSize must be present when Operation is ClusteredReduce",
        /// A partitioned operation without its ballot.
        PartitionBallotMissing
            => "Ballot must be present when Operation is PartitionedReduceNV, PartitionedInclusiveScanNV, or PartitionedExclusiveScanNV",
        /// A partition ballot that is no 4-component integer vector.
        PartitionBallot => "Ballot must be a 4-component integer vector",
        /// A cluster size that is no unsigned integer scalar.
        ClusterSizeType => "ClusterSize must be an unsigned integer scalar",
        /// A cluster size that is no constant.
        ClusterSizeConstant => "ClusterSize must be a constant instruction",
        /// A rotate result that is no scalar or vector of numbers or bools.
        RotateResult
            => "Expected Result Type to be a scalar or vector of floating-point, integer or boolean type.",
        /// A rotated value whose type is not the result type.
        RotateValue => "Result Type must be the same as the type of Value.",
        /// A rotate delta that is no unsigned integer scalar.
        RotateDelta => "Delta must be a scalar of integer type, whose Signedness operand is 0.",
        /// A rotate cluster size that is no unsigned integer scalar.
        RotateClusterType
            => "ClusterSize must be a scalar of integer type, whose Signedness operand is 0.",
        /// A rotate cluster size that is no constant.
        RotateClusterConstant => "ClusterSize must come from a constant instruction.",
        /// A rotate cluster size that is 0 or no power of 2 (a warning in spirv-val,
        /// which still fails validation).
        RotateClusterPower
            => "Behavior is undefined unless ClusterSize is at least 1 and a power of 2.",
    }
}

/// `spvOpcodeIsNonUniformGroupOperation` without the quad any/all instructions, which
/// have no scope: the instructions whose operand 2 is an execution scope.
pub(super) fn has_execution_scope(opcode: Opcode) -> bool {
    NON_UNIFORM.contains(&opcode)
}

/// `NonUniformPass` for one instruction.
#[inline(always)]
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let opcode = inst.opcode;
    if has_execution_scope(opcode) && !validate_execution_scope(q, inst, inst.word(2))? {
        return Ok(());
    }
    let result = inst.result_type();
    let number_or_bool = |t: u32| {
        q.is_float_scalar_or_vector_type(t)
            || q.is_int_scalar_or_vector_type(t)
            || q.is_bool_scalar_or_vector_type(t)
    };
    let ballot = |t: u32| q.is_unsigned_int_vector_type(t) && q.dimension(t) == 4;
    match opcode {
        O::GroupNonUniformElect
        | O::GroupNonUniformAny
        | O::GroupNonUniformAll
        | O::GroupNonUniformAllEqual => {
            if !q.is_bool_scalar_type(result) {
                return Err(E::BoolResultType.into());
            }
            let value = q.operand_type(inst, 3);
            if opcode == O::GroupNonUniformAllEqual {
                if !number_or_bool(value) {
                    return Err(E::AllEqualValue.into());
                }
            } else if opcode != O::GroupNonUniformElect && !q.is_bool_scalar_type(value) {
                return Err(E::PredicateType.into());
            }
        }
        O::GroupNonUniformBroadcast
        | O::GroupNonUniformShuffle
        | O::GroupNonUniformShuffleXor
        | O::GroupNonUniformShuffleUp
        | O::GroupNonUniformShuffleDown
        | O::GroupNonUniformQuadBroadcast
        | O::GroupNonUniformQuadSwap => {
            if !number_or_bool(result) {
                return Err(E::BroadcastResult.into());
            }
            if q.operand_type(inst, 3) != result {
                return Err(E::ValueType.into());
            }
            let operand = match opcode {
                O::GroupNonUniformBroadcast | O::GroupNonUniformShuffle => "Id",
                O::GroupNonUniformShuffleXor => "Mask",
                O::GroupNonUniformQuadBroadcast => "Index",
                O::GroupNonUniformQuadSwap => "Direction",
                _ => "Delta",
            };
            if !q.is_unsigned_int_scalar_type(q.operand_type(inst, 4)) {
                return Err(E::LaneType { operand }.into());
            }
            let must_be_constant = opcode == O::GroupNonUniformQuadSwap
                || (matches!(
                    opcode,
                    O::GroupNonUniformBroadcast | O::GroupNonUniformQuadBroadcast
                ) && q.state.version < (1, 5));
            if must_be_constant && !is_constant(q.opcode(inst.word(4))) {
                return Err(E::LaneConstant { operand }.into());
            }
        }
        O::GroupNonUniformBroadcastFirst => {
            if !number_or_bool(result) {
                return Err(E::BroadcastResult.into());
            }
            if q.operand_type(inst, 3) != result {
                return Err(E::ValueType.into());
            }
        }
        O::GroupNonUniformBallot => {
            if !ballot(result) {
                return Err(E::BallotResult.into());
            }
            if !q.is_bool_scalar_type(q.operand_type(inst, 3)) {
                return Err(E::BallotPredicate.into());
            }
        }
        O::GroupNonUniformInverseBallot | O::GroupNonUniformBallotBitExtract => {
            if !q.is_bool_scalar_type(result) {
                return Err(E::BoolResult.into());
            }
            if !ballot(q.operand_type(inst, 3)) {
                return Err(E::BallotValue.into());
            }
            if opcode == O::GroupNonUniformBallotBitExtract
                && !q.is_unsigned_int_scalar_type(q.operand_type(inst, 4))
            {
                return Err(E::BitExtractId.into());
            }
        }
        O::GroupNonUniformBallotBitCount => {
            if !q.is_unsigned_int_scalar_type(result) {
                return Err(E::BitCountResult.into());
            }
            if !ballot(q.operand_type(inst, 4)) {
                return Err(E::BitCountValue.into());
            }
            let operation = G(inst.word(3));
            if q.state.options.target_env.is_vulkan()
                && !matches!(operation, G::Reduce | G::InclusiveScan | G::ExclusiveScan)
            {
                return Err(E::BitCountOperation.into());
            }
        }
        O::GroupNonUniformBallotFindLSB | O::GroupNonUniformBallotFindMSB => {
            if !q.is_unsigned_int_scalar_type(result) {
                return Err(E::FindResult.into());
            }
            if !ballot(q.operand_type(inst, 3)) {
                return Err(E::BallotValue.into());
            }
        }
        O::GroupNonUniformRotateKHR => return rotate(q, inst, result),
        _ if ARITHMETIC.contains(&opcode) => return arithmetic(q, inst, result),
        _ => {}
    }
    Ok(())
}

/// `ValidateGroupNonUniformArithmetic`: the result type the operation's kind needs,
/// the value, and the cluster size or partition ballot its group operation needs.
fn arithmetic(q: &Query<'_>, inst: &Inst<'_>, result: u32) -> Result<(), Fault> {
    match inst.opcode {
        O::GroupNonUniformFAdd
        | O::GroupNonUniformFMul
        | O::GroupNonUniformFMin
        | O::GroupNonUniformFMax => {
            if !q.is_float_scalar_or_vector_type(result) {
                return Err(E::FloatResult.into());
            }
        }
        O::GroupNonUniformLogicalAnd
        | O::GroupNonUniformLogicalOr
        | O::GroupNonUniformLogicalXor => {
            if !q.is_bool_scalar_or_vector_type(result) {
                return Err(E::LogicalResult.into());
            }
        }
        O::GroupNonUniformUMin | O::GroupNonUniformUMax => {
            if !q.is_unsigned_int_scalar_or_vector_type(result) {
                return Err(E::UnsignedResult.into());
            }
        }
        _ => {
            if !q.is_int_scalar_or_vector_type(result) {
                return Err(E::IntResult.into());
            }
        }
    }
    if q.operand_type(inst, 4) != result {
        return Err(E::ValueType.into());
    }
    let operation = G(inst.word(3));
    let clustered = operation == G::ClusteredReduce;
    let partitioned = matches!(
        operation,
        G::PartitionedReduceNV | G::PartitionedInclusiveScanNV | G::PartitionedExclusiveScanNV
    );
    if inst.operands.len() <= 5 {
        if clustered {
            return Err(E::ClusterSizeMissing.into());
        }
        if partitioned {
            return Err(E::PartitionBallotMissing.into());
        }
        return Ok(());
    }
    let operand = inst.word(5);
    let defined = q.state.def(operand).is_some();
    let ty = q.type_of(operand);
    if partitioned {
        if !defined || !q.is_int_scalar_or_vector_type(ty) || q.dimension(ty) != 4 {
            return Err(E::PartitionBallot.into());
        }
        return Ok(());
    }
    if !defined || !q.is_unsigned_int_scalar_type(ty) {
        return Err(E::ClusterSizeType.into());
    }
    if !is_constant(q.opcode(operand)) {
        return Err(E::ClusterSizeConstant.into());
    }
    Ok(())
}

/// `ValidateGroupNonUniformRotateKHR`: the result, value and delta types, and the
/// optional cluster size (an unsigned constant, a power of 2 when known).
fn rotate(q: &Query<'_>, inst: &Inst<'_>, result: u32) -> Result<(), Fault> {
    if !q.is_int_scalar_or_vector_type(result)
        && !q.is_float_scalar_or_vector_type(result)
        && !q.is_bool_scalar_or_vector_type(result)
    {
        return Err(E::RotateResult.into());
    }
    if q.operand_type(inst, 3) != result {
        return Err(E::RotateValue.into());
    }
    if !q.is_unsigned_int_scalar_type(q.operand_type(inst, 4)) {
        return Err(E::RotateDelta.into());
    }
    if inst.words.len() > 6 {
        let cluster = inst.word(5);
        if q.state.def(cluster).is_none() || !q.is_unsigned_int_scalar_type(q.type_of(cluster)) {
            return Err(E::RotateClusterType.into());
        }
        if !is_constant(q.opcode(cluster)) {
            return Err(E::RotateClusterConstant.into());
        }
        if q.constant_u64(cluster)
            .is_some_and(|n| !n.is_power_of_two())
        {
            return Err(E::RotateClusterPower.into());
        }
    }
    Ok(())
}

/// The group operations `ValidateGroupNonUniformArithmetic` checks.
const ARITHMETIC: &[Opcode] = &[
    O::GroupNonUniformIAdd,
    O::GroupNonUniformFAdd,
    O::GroupNonUniformIMul,
    O::GroupNonUniformFMul,
    O::GroupNonUniformSMin,
    O::GroupNonUniformUMin,
    O::GroupNonUniformFMin,
    O::GroupNonUniformSMax,
    O::GroupNonUniformUMax,
    O::GroupNonUniformFMax,
    O::GroupNonUniformBitwiseAnd,
    O::GroupNonUniformBitwiseOr,
    O::GroupNonUniformBitwiseXor,
    O::GroupNonUniformLogicalAnd,
    O::GroupNonUniformLogicalOr,
    O::GroupNonUniformLogicalXor,
];

/// The non-uniform group instructions with an execution scope, in this family's
/// order (which is also its coverage declaration).
const NON_UNIFORM: &[Opcode] = &[
    O::GroupNonUniformElect,
    O::GroupNonUniformAll,
    O::GroupNonUniformAny,
    O::GroupNonUniformAllEqual,
    O::GroupNonUniformBroadcast,
    O::GroupNonUniformBroadcastFirst,
    O::GroupNonUniformBallot,
    O::GroupNonUniformInverseBallot,
    O::GroupNonUniformBallotBitExtract,
    O::GroupNonUniformBallotBitCount,
    O::GroupNonUniformBallotFindLSB,
    O::GroupNonUniformBallotFindMSB,
    O::GroupNonUniformShuffle,
    O::GroupNonUniformShuffleXor,
    O::GroupNonUniformShuffleUp,
    O::GroupNonUniformShuffleDown,
    O::GroupNonUniformIAdd,
    O::GroupNonUniformFAdd,
    O::GroupNonUniformIMul,
    O::GroupNonUniformFMul,
    O::GroupNonUniformSMin,
    O::GroupNonUniformUMin,
    O::GroupNonUniformFMin,
    O::GroupNonUniformSMax,
    O::GroupNonUniformUMax,
    O::GroupNonUniformFMax,
    O::GroupNonUniformBitwiseAnd,
    O::GroupNonUniformBitwiseOr,
    O::GroupNonUniformBitwiseXor,
    O::GroupNonUniformLogicalAnd,
    O::GroupNonUniformLogicalOr,
    O::GroupNonUniformLogicalXor,
    O::GroupNonUniformQuadBroadcast,
    O::GroupNonUniformQuadSwap,
    O::GroupNonUniformRotateKHR,
];

/// What this family checks (see [`coverage`](crate::validate::coverage)).
pub(crate) const COVERAGE: crate::validate::coverage::Family = crate::validate::coverage::Family {
    opcodes: NON_UNIFORM,
    ..crate::validate::coverage::Family::new(
        "non-uniform (group) instructions",
        "validate_non_uniform.cpp",
    )
};
