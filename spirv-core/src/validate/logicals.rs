//! spirv-val's logicals pass (`LogicalsPass` in `validate_logicals.cpp`): the result
//! and operand types of `OpAny`/`OpAll`, the float classifications (`OpIsNan`, …),
//! float and integer comparisons, the `OpLogical*` instructions and `OpSelect`.

use super::Query;
use super::faults::faults;
use super::{Fault, Inst};
use crate::spv::Opcode;
use crate::spv::{self, Opcode as O};
use LogicalError as E;

faults! {
    /// A fault of spirv-val's logicals pass (`validate_logicals.cpp`).
    pub enum LogicalError {
        BoolScalarResult { opcode: Opcode } => "Expected bool scalar type as Result Type: {opcode}",
        OperandBoolVector { opcode: Opcode } => "Expected operand to be vector bool: {opcode}",
        BoolResult { opcode: Opcode } => "Expected bool scalar or vector type as Result Type: {opcode}",
        OperandFloat { opcode: Opcode } => "Expected operand to be scalar or vector float: {opcode}",
        OperandSize { opcode: Opcode } => "Expected vector sizes of Result Type and the operand to be equal: {opcode}",
        OperandsFloat { opcode: Opcode } => "Expected operands to be scalar or vector float: {opcode}",
        OperandsSize { opcode: Opcode } => "Expected vector sizes of Result Type and the operands to be equal: {opcode}",
        LeftRightSameType { opcode: Opcode } => "Expected left and right operands to have the same type: {opcode}",
        BothOperandsResult { opcode: Opcode } => "Expected both operands to be of Result Type: {opcode}",
        OperandIsResult { opcode: Opcode } => "Expected operand to be of Result Type: {opcode}",
        SelectScalarOrVector { opcode: Opcode } => "Expected scalar or vector type as Result Type: {opcode}",
        SelectScalarOrComposite { opcode: Opcode } => "Expected scalar or composite type as Result Type: {opcode}",
        ConditionBool { opcode: Opcode } => "Expected bool scalar or vector type as condition: {opcode}",
        ConditionSize { opcode: Opcode } => "Expected vector sizes of Result Type and the condition to be equal: {opcode}",
        BothObjectsResult { opcode: Opcode } => "Expected both objects to be of Result Type: {opcode}",
        OperandsInt { opcode: Opcode } => "Expected operands to be scalar or vector int: {opcode}",
        OperandsSameWidth { opcode: Opcode } => "Expected both operands to have the same component bit width: {opcode}",
        SelectPointers => "Using pointers with OpSelect requires capability VariablePointers or VariablePointersStorageBuffer",
        SelectImages => "Using image/sampler with OpSelect requires capability BindlessTextureNV",
    }
}

/// What the pass remembers across instructions.
#[derive(Debug, Default)]
pub(super) struct Logicals {}

/// The pass for one instruction.
#[inline(always)]
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>, _: &mut Logicals) -> Result<(), Fault> {
    let op = inst.opcode;
    let result = inst.result_type();
    let bool_result = || q.is_bool_scalar_type(result) || q.is_bool_vector_type(result);
    let float = |t: u32| t != 0 && (q.is_float_scalar_type(t) || q.is_float_vector_type(t));
    let int = |t: u32| t != 0 && (q.is_int_scalar_type(t) || q.is_int_vector_type(t));
    match op {
        O::Any | O::All => {
            if !q.is_bool_scalar_type(result) {
                return Err(E::BoolScalarResult { opcode: op }.into());
            }
            let t = q.operand_type(inst, 2);
            if t == 0 || !q.is_bool_vector_type(t) {
                return Err(E::OperandBoolVector { opcode: op }.into());
            }
        }
        O::IsNan | O::IsInf | O::IsFinite | O::IsNormal | O::SignBitSet => {
            if !bool_result() {
                return Err(E::BoolResult { opcode: op }.into());
            }
            let t = q.operand_type(inst, 2);
            if !float(t) {
                return Err(E::OperandFloat { opcode: op }.into());
            }
            if q.dimension(result) != q.dimension(t) {
                return Err(E::OperandSize { opcode: op }.into());
            }
        }
        O::FOrdEqual
        | O::FUnordEqual
        | O::FOrdNotEqual
        | O::FUnordNotEqual
        | O::FOrdLessThan
        | O::FUnordLessThan
        | O::FOrdGreaterThan
        | O::FUnordGreaterThan
        | O::FOrdLessThanEqual
        | O::FUnordLessThanEqual
        | O::FOrdGreaterThanEqual
        | O::FUnordGreaterThanEqual
        | O::LessOrGreater
        | O::Ordered
        | O::Unordered => {
            if !bool_result() {
                return Err(E::BoolResult { opcode: op }.into());
            }
            let left = q.operand_type(inst, 2);
            if !float(left) {
                return Err(E::OperandsFloat { opcode: op }.into());
            }
            if q.dimension(result) != q.dimension(left) {
                return Err(E::OperandsSize { opcode: op }.into());
            }
            if left != q.operand_type(inst, 3) {
                return Err(E::LeftRightSameType { opcode: op }.into());
            }
        }
        O::LogicalEqual | O::LogicalNotEqual | O::LogicalOr | O::LogicalAnd => {
            if !bool_result() {
                return Err(E::BoolResult { opcode: op }.into());
            }
            if result != q.operand_type(inst, 2) || result != q.operand_type(inst, 3) {
                return Err(E::BothOperandsResult { opcode: op }.into());
            }
        }
        O::LogicalNot => {
            if !bool_result() {
                return Err(E::BoolResult { opcode: op }.into());
            }
            if result != q.operand_type(inst, 2) {
                return Err(E::OperandIsResult { opcode: op }.into());
            }
        }
        O::Select => select(q, inst)?,
        O::IEqual
        | O::INotEqual
        | O::UGreaterThan
        | O::UGreaterThanEqual
        | O::ULessThan
        | O::ULessThanEqual
        | O::SGreaterThan
        | O::SGreaterThanEqual
        | O::SLessThan
        | O::SLessThanEqual => {
            if !bool_result() {
                return Err(E::BoolResult { opcode: op }.into());
            }
            let left = q.operand_type(inst, 2);
            let right = q.operand_type(inst, 3);
            if !int(left) {
                return Err(E::OperandsInt { opcode: op }.into());
            }
            if q.dimension(result) != q.dimension(left) {
                return Err(E::OperandsSize { opcode: op }.into());
            }
            if !int(right) {
                return Err(E::OperandsInt { opcode: op }.into());
            }
            if q.dimension(result) != q.dimension(right) {
                return Err(E::OperandsSize { opcode: op }.into());
            }
            if q.bit_width(left) != q.bit_width(right) {
                return Err(E::OperandsSameWidth { opcode: op }.into());
            }
        }
        _ => {}
    }
    Ok(())
}

/// `OpSelect`: what the result type may be, the condition, both objects.
fn select(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let op = inst.opcode;
    let result = inst.result_type();
    // SPIR-V 1.4 selects between composites, and with a scalar condition.
    let composites = q.state.version >= (1, 4);
    let fail = || {
        let r = if composites {
            E::SelectScalarOrComposite { opcode: op }
        } else {
            E::SelectScalarOrVector { opcode: op }
        };
        Err(r.into())
    };
    let mut dimension = 1;
    match q.opcode(result) {
        O::TypeUntypedPointerKHR | O::TypePointer => {
            if q.state.addressing_model() == spv::AddressingModel::Logical
                && !q
                    .state
                    .has_capability(spv::Capability::VariablePointersStorageBuffer.0)
            {
                return Err(E::SelectPointers.into());
            }
        }
        O::TypeSampledImage | O::TypeImage | O::TypeSampler => {
            if !q.state.has_capability(spv::Capability::BindlessTextureNV.0) {
                return Err(E::SelectImages.into());
            }
        }
        O::TypeVector => dimension = q.word(result, 3).unwrap_or(0),
        O::TypeBool | O::TypeInt | O::TypeFloat => {}
        O::TypeArray | O::TypeMatrix | O::TypeStruct if composites => {}
        _ => return fail(),
    }
    let condition = q.operand_type(inst, 2);
    if condition == 0 || !(q.is_bool_scalar_type(condition) || q.is_bool_vector_type(condition)) {
        return Err(E::ConditionBool { opcode: op }.into());
    }
    if q.dimension(condition) != dimension && (!composites || q.is_bool_vector_type(condition)) {
        return Err(E::ConditionSize { opcode: op }.into());
    }
    if result != q.operand_type(inst, 3) || result != q.operand_type(inst, 4) {
        return Err(E::BothObjectsResult { opcode: op }.into());
    }
    Ok(())
}

/// What this family checks (see [`coverage`](crate::validate::coverage)).
pub(crate) const COVERAGE: crate::validate::coverage::Family = crate::validate::coverage::Family {
    opcodes: {
        use crate::spv::Opcode as O;
        &[
            O::Any,
            O::All,
            O::IsNan,
            O::IsInf,
            O::IsFinite,
            O::IsNormal,
            O::SignBitSet,
            O::FOrdEqual,
            O::FUnordEqual,
            O::FOrdNotEqual,
            O::FUnordNotEqual,
            O::FOrdLessThan,
            O::FUnordLessThan,
            O::FOrdGreaterThan,
            O::FUnordGreaterThan,
            O::FOrdLessThanEqual,
            O::FUnordLessThanEqual,
            O::FOrdGreaterThanEqual,
            O::FUnordGreaterThanEqual,
            O::LessOrGreater,
            O::Ordered,
            O::Unordered,
            O::LogicalEqual,
            O::LogicalNotEqual,
            O::LogicalOr,
            O::LogicalAnd,
            O::LogicalNot,
            O::Select,
            O::IEqual,
            O::INotEqual,
            O::UGreaterThan,
            O::UGreaterThanEqual,
            O::ULessThan,
            O::ULessThanEqual,
            O::SGreaterThan,
            O::SGreaterThanEqual,
            O::SLessThan,
            O::SLessThanEqual,
        ]
    },
    ..crate::validate::coverage::Family::new("logicals", "validate_logicals.cpp")
};
