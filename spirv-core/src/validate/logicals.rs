//! spirv-val's logicals pass (`LogicalsPass` in `validate_logicals.cpp`): the result
//! and operand types of `OpAny`/`OpAll`, the float classifications (`OpIsNan`, …),
//! float and integer comparisons, the `OpLogical*` instructions and `OpSelect`.

use super::Query;
use super::operations::{CompositeRule as C, TypeRule as R, fixed, rule};
use super::{Fault, Inst};
use crate::spv::{self, Opcode as O};

/// What the pass remembers across instructions.
#[derive(Debug, Default)]
pub(super) struct Logicals {}

/// The pass for one instruction.
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>, _: &mut Logicals) -> Result<(), Fault> {
    let op = inst.opcode;
    let result = inst.result_type();
    let bool_result = || q.is_bool_scalar_type(result) || q.is_bool_vector_type(result);
    let float = |t: u32| t != 0 && (q.is_float_scalar_type(t) || q.is_float_vector_type(t));
    let int = |t: u32| t != 0 && (q.is_int_scalar_type(t) || q.is_int_vector_type(t));
    match op {
        O::Any | O::All => {
            if !q.is_bool_scalar_type(result) {
                return Err(rule(R::BoolScalarResult, op));
            }
            let t = q.operand_type(inst, 2);
            if t == 0 || !q.is_bool_vector_type(t) {
                return Err(rule(R::OperandBoolVector, op));
            }
        }
        O::IsNan | O::IsInf | O::IsFinite | O::IsNormal | O::SignBitSet => {
            if !bool_result() {
                return Err(rule(R::BoolResult, op));
            }
            let t = q.operand_type(inst, 2);
            if !float(t) {
                return Err(rule(R::OperandFloat, op));
            }
            if q.dimension(result) != q.dimension(t) {
                return Err(rule(R::OperandSize, op));
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
                return Err(rule(R::BoolResult, op));
            }
            let left = q.operand_type(inst, 2);
            if !float(left) {
                return Err(rule(R::OperandsFloat, op));
            }
            if q.dimension(result) != q.dimension(left) {
                return Err(rule(R::OperandsSize, op));
            }
            if left != q.operand_type(inst, 3) {
                return Err(rule(R::LeftRightSameType, op));
            }
        }
        O::LogicalEqual | O::LogicalNotEqual | O::LogicalOr | O::LogicalAnd => {
            if !bool_result() {
                return Err(rule(R::BoolResult, op));
            }
            if result != q.operand_type(inst, 2) || result != q.operand_type(inst, 3) {
                return Err(rule(R::BothOperandsResult, op));
            }
        }
        O::LogicalNot => {
            if !bool_result() {
                return Err(rule(R::BoolResult, op));
            }
            if result != q.operand_type(inst, 2) {
                return Err(rule(R::OperandIsResult, op));
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
                return Err(rule(R::BoolResult, op));
            }
            let left = q.operand_type(inst, 2);
            let right = q.operand_type(inst, 3);
            if !int(left) {
                return Err(rule(R::OperandsInt, op));
            }
            if q.dimension(result) != q.dimension(left) {
                return Err(rule(R::OperandsSize, op));
            }
            if !int(right) {
                return Err(rule(R::OperandsInt, op));
            }
            if q.dimension(result) != q.dimension(right) {
                return Err(rule(R::OperandsSize, op));
            }
            if q.bit_width(left) != q.bit_width(right) {
                return Err(rule(R::OperandsSameWidth, op));
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
            R::SelectScalarOrComposite
        } else {
            R::SelectScalarOrVector
        };
        Err(rule(r, op))
    };
    let mut dimension = 1;
    match q.opcode(result) {
        O::TypeUntypedPointerKHR | O::TypePointer => {
            if q.state.addressing_model() == spv::AddressingModel::Logical
                && !q
                    .state
                    .has_capability(spv::Capability::VariablePointersStorageBuffer.0)
            {
                return Err(fixed(C::SelectPointers));
            }
        }
        O::TypeSampledImage | O::TypeImage | O::TypeSampler => {
            if !q.state.has_capability(spv::Capability::BindlessTextureNV.0) {
                return Err(fixed(C::SelectImages));
            }
        }
        O::TypeVector => dimension = q.word(result, 3).unwrap_or(0),
        O::TypeBool | O::TypeInt | O::TypeFloat => {}
        O::TypeArray | O::TypeMatrix | O::TypeStruct if composites => {}
        _ => return fail(),
    }
    let condition = q.operand_type(inst, 2);
    if condition == 0 || !(q.is_bool_scalar_type(condition) || q.is_bool_vector_type(condition)) {
        return Err(rule(R::ConditionBool, op));
    }
    if q.dimension(condition) != dimension && (!composites || q.is_bool_vector_type(condition)) {
        return Err(rule(R::ConditionSize, op));
    }
    if result != q.operand_type(inst, 3) || result != q.operand_type(inst, 4) {
        return Err(rule(R::BothObjectsResult, op));
    }
    Ok(())
}
