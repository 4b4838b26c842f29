//! spirv-val's arithmetics pass (`ArithmeticsPass` in `validate_arithmetics.cpp`):
//! the result and operand types of the float, unsigned and signed arithmetic
//! instructions, `OpDot`, the vector and matrix products, `OpOuterProduct`, and the
//! extended ones (`OpIAddCarry`, `OpISubBorrow`, `OpUMulExtended`, `OpSMulExtended`),
//! and the cooperative matrix multiply-adds and reduction.

use super::Query;
use super::op_util::{cooperative_shapes, cooperative_sizes, is_use};
use super::operations::{OperandRule as P, OperationError, TypeRule as R, fault, operand, rule};
use super::{Fault, Inst};
use crate::spv::{Capability, CooperativeMatrixUse, Opcode as O};
use crate::types::Id;

/// What the pass remembers across instructions.
#[derive(Debug, Default)]
pub(super) struct Arithmetics;

/// The pass for one instruction.
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>, st: &mut Arithmetics) -> Result<(), Fault> {
    let _ = st;
    let op = inst.opcode;
    match op {
        O::FAdd
        | O::FSub
        | O::FMul
        | O::FDiv
        | O::FRem
        | O::FMod
        | O::FNegate
        | O::FmaKHR
        | O::UDiv
        | O::UMod => same_type(q, inst),
        O::ISub | O::IAdd | O::IMul | O::SDiv | O::SMod | O::SRem | O::SNegate => integer(q, inst),
        O::Dot => dot(q, inst),
        O::VectorTimesScalar | O::MatrixTimesScalar => times_scalar(q, inst),
        O::VectorTimesMatrix => vector_times_matrix(q, inst),
        O::MatrixTimesVector => matrix_times_vector(q, inst),
        O::MatrixTimesMatrix => matrix_times_matrix(q, inst),
        O::OuterProduct => outer_product(q, inst),
        O::IAddCarry | O::ISubBorrow | O::UMulExtended | O::SMulExtended => extended(q, inst),
        O::CooperativeMatrixMulAddNV | O::CooperativeMatrixMulAddKHR => mul_add(q, inst),
        O::CooperativeMatrixReduceNV => reduce(q, inst),
        _ => Ok(()),
    }
}

/// The float instructions and `OpUDiv`/`OpUMod`: operands of the result type.
fn same_type(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let op = inst.opcode;
    let result = inst.result_type();
    let unsigned = matches!(op, O::UDiv | O::UMod);
    let (matrices, vectors, accepted) = if unsigned {
        let c = Query::is_unsigned_int_scalar_type;
        let ok = q.is_unsigned_int_scalar_type(result)
            || q.is_unsigned_int_vector_type(result)
            || (op == O::UDiv
                && (q.is_cooperative_matrix_of(result, c)
                    || q.is_cooperative_vector_of(result, c)));
        (op == O::UDiv, op == O::UDiv, ok)
    } else {
        let c = Query::is_float_scalar_type;
        let matrices = !matches!(op, O::FMul | O::FRem | O::FMod);
        let vectors = !matches!(op, O::FRem | O::FMod);
        let float_matrix = q.is_cooperative_matrix_of(result, c);
        let ok = q.is_float_scalar_type(result)
            || q.is_float_vector_type(result)
            || (matrices && float_matrix)
            || (op == O::FMul && q.is_cooperative_matrix_khr_type(result) && float_matrix)
            || (vectors && q.is_cooperative_vector_of(result, c));
        (matrices, vectors, ok)
    };
    if !accepted {
        let r = if unsigned {
            R::UnsignedResult
        } else {
            R::FloatingResult
        };
        return Err(rule(r, op));
    }
    for i in 2..inst.operands.len() {
        let t = q.operand_type(inst, i);
        if vectors && q.is_cooperative_vector_type(result) {
            if !q.is_cooperative_vector_type(t) {
                return Err(operand(P::ArithmeticIsResult, op, i));
            }
            cooperative_sizes(q, t, result)?;
        } else if matrices && q.is_cooperative_matrix_khr_type(result) {
            let component = if unsigned {
                Query::is_unsigned_int_scalar_type
            } else {
                Query::is_float_scalar_type
            };
            if !q.is_cooperative_matrix_khr_type(t) || !q.is_cooperative_matrix_of(t, component) {
                return Err(operand(P::ArithmeticIsResult, op, i));
            }
            cooperative_shapes(q, result, t, false, false)?;
        } else if t != result {
            return Err(operand(P::ArithmeticIsResult, op, i));
        }
    }
    Ok(())
}

/// The signed and sign-agnostic integer instructions: integer operands of the result
/// type's dimension and width.
fn integer(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let op = inst.opcode;
    let result = inst.result_type();
    let matrices = !matches!(op, O::IMul | O::SRem | O::SMod);
    let vectors = !matches!(op, O::SRem | O::SMod);
    let c = Query::is_int_scalar_type;
    let int_matrix = q.is_cooperative_matrix_of(result, c);
    // Cooperative results that excuse operands from being integer scalars or vectors.
    let cooperative = (matrices && int_matrix)
        || (op == O::IMul && q.is_cooperative_matrix_khr_type(result) && int_matrix)
        || (vectors && q.is_cooperative_vector_of(result, c));
    if !q.is_int_scalar_type(result) && !q.is_int_vector_type(result) && !cooperative {
        return Err(rule(R::IntResult, op));
    }
    let dimension = q.dimension(result);
    let width = q.bit_width(result);
    for i in 2..inst.operands.len() {
        let t = q.operand_type(inst, i);
        if vectors && q.is_cooperative_vector_type(result) {
            if !q.is_cooperative_vector_type(t) {
                return Err(operand(P::ArithmeticIsResult, op, i));
            }
            cooperative_sizes(q, t, result)?;
        }
        if matrices && q.is_cooperative_matrix_khr_type(result) {
            if !q.is_cooperative_matrix_khr_type(t) || !q.is_cooperative_matrix_of(t, c) {
                return Err(operand(P::ArithmeticIsResult, op, i));
            }
            cooperative_shapes(q, result, t, false, false)?;
        }
        if t == 0 || (!q.is_int_scalar_type(t) && !q.is_int_vector_type(t) && !cooperative) {
            return Err(operand(P::IntOperand, op, i));
        }
        if q.dimension(t) != dimension {
            return Err(operand(P::ArithmeticDimension, op, i));
        }
        if q.bit_width(t) != width {
            return Err(operand(P::ArithmeticBitWidth, op, i));
        }
    }
    Ok(())
}

/// `OpDot`: two float vectors of the result's type and the same size.
fn dot(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let op = inst.opcode;
    let result = inst.result_type();
    if !q.is_float_scalar_type(result) {
        return Err(rule(R::FloatScalarResult, op));
    }
    if q.is_bfloat16_scalar_type(result)
        && !q.state.has_capability(Capability::BFloat16DotProductKHR.0)
    {
        return Err(fault(OperationError::DotBfloat16 {
            result_type: Id(result),
        }));
    }
    let mut first = 0;
    for i in 2..inst.operands.len() {
        let t = q.operand_type(inst, i);
        if t == 0 || !q.is_float_vector_type(t) {
            return Err(operand(P::FloatVectorOperand, op, i));
        }
        if q.component_type(t) != result {
            return Err(operand(P::ComponentIsResult, op, i));
        }
        let size = q.dimension(t);
        if i == 2 {
            first = size;
        } else if size != first {
            return Err(rule(R::DotComponentCount, op));
        }
    }
    Ok(())
}

/// `OpVectorTimesScalar` and `OpMatrixTimesScalar`.
fn times_scalar(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let op = inst.opcode;
    let result = inst.result_type();
    let vector = op == O::VectorTimesScalar;
    let accepted = if vector {
        q.is_float_vector_type(result)
            || q.is_cooperative_vector_of(result, Query::is_float_scalar_type)
    } else {
        q.is_float_matrix_type(result) || q.is_cooperative_matrix_type(result)
    };
    if !accepted {
        let r = if vector {
            R::FloatVectorResult
        } else {
            R::FloatMatrixResult
        };
        return Err(rule(r, op));
    }
    let composite = q.operand_type(inst, 2);
    if composite != result {
        let r = if vector {
            R::VectorIsResult
        } else {
            R::MatrixIsResult
        };
        return Err(rule(r, op));
    }
    if q.component_type(composite) != q.operand_type(inst, 3) {
        let r = if vector {
            R::ScalarIsVectorComponent
        } else {
            R::ScalarIsMatrixComponent
        };
        return Err(rule(r, op));
    }
    Ok(())
}

/// `OpVectorTimesMatrix`.
fn vector_times_matrix(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let op = inst.opcode;
    let result = inst.result_type();
    let vector = q.operand_type(inst, 2);
    let matrix = q.operand_type(inst, 3);
    if !q.is_float_vector_type(result) {
        return Err(rule(R::FloatVectorResult, op));
    }
    let component = q.component_type(result);
    if vector == 0 || !q.is_float_vector_type(vector) {
        return Err(rule(R::FloatVectorLeft, op));
    }
    if component != q.component_type(vector) {
        return Err(rule(R::ResultAndVectorComponents, op));
    }
    let Some((rows, columns, _, m_component)) = q.matrix_info(matrix) else {
        return Err(rule(R::FloatMatrixRight, op));
    };
    if component != m_component {
        return Err(rule(R::ResultAndMatrixComponents, op));
    }
    if columns != q.dimension(result) {
        return Err(rule(R::ColumnsAreResultSize, op));
    }
    if rows != q.dimension(vector) {
        return Err(rule(R::RowsAreVectorSize, op));
    }
    Ok(())
}

/// `OpMatrixTimesVector`.
fn matrix_times_vector(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let op = inst.opcode;
    let result = inst.result_type();
    let matrix = q.operand_type(inst, 2);
    let vector = q.operand_type(inst, 3);
    if !q.is_float_vector_type(result) {
        return Err(rule(R::FloatVectorResult, op));
    }
    let Some((_, columns, column, component)) = q.matrix_info(matrix) else {
        return Err(rule(R::FloatMatrixLeft, op));
    };
    if result != column {
        return Err(rule(R::ColumnIsResult, op));
    }
    if vector == 0 || !q.is_float_vector_type(vector) {
        return Err(rule(R::FloatVectorRight, op));
    }
    if component != q.component_type(vector) {
        return Err(rule(R::OperandComponents, op));
    }
    if columns != q.dimension(vector) {
        return Err(rule(R::ColumnsAreVectorSize, op));
    }
    Ok(())
}

/// `OpMatrixTimesMatrix`.
fn matrix_times_matrix(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let op = inst.opcode;
    let Some((_, columns, column, component)) = q.matrix_info(inst.result_type()) else {
        return Err(rule(R::FloatMatrixResult, op));
    };
    let Some((_, l_columns, l_column, _)) = q.matrix_info(q.operand_type(inst, 2)) else {
        return Err(rule(R::FloatMatrixLeft, op));
    };
    let Some((r_rows, r_columns, _, r_component)) = q.matrix_info(q.operand_type(inst, 3)) else {
        return Err(rule(R::FloatMatrixRight, op));
    };
    if !q.is_float_scalar_type(component) {
        return Err(rule(R::FloatMatrixResult, op));
    }
    if column != l_column {
        return Err(rule(R::ResultAndLeftColumns, op));
    }
    if component != r_component {
        return Err(rule(R::ResultAndRightComponents, op));
    }
    if columns != r_columns {
        return Err(rule(R::ResultAndRightColumnCount, op));
    }
    if l_columns != r_rows {
        return Err(rule(R::LeftColumnsRightRows, op));
    }
    Ok(())
}

/// `OpOuterProduct`.
fn outer_product(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let op = inst.opcode;
    let Some((_, columns, column, component)) = q.matrix_info(inst.result_type()) else {
        return Err(rule(R::FloatMatrixResult, op));
    };
    if q.operand_type(inst, 2) != column {
        return Err(rule(R::LeftIsResultColumn, op));
    }
    let right = q.operand_type(inst, 3);
    if right == 0 || !q.is_float_vector_type(right) {
        return Err(rule(R::FloatVectorRight, op));
    }
    if component != q.component_type(right) {
        return Err(rule(R::OperandComponents, op));
    }
    if columns != q.dimension(right) {
        return Err(rule(R::ColumnsAreRightSize, op));
    }
    Ok(())
}

/// `OpIAddCarry`, `OpISubBorrow`, `OpUMulExtended`, `OpSMulExtended`: a struct of two
/// members of the operands' type.
fn extended(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let op = inst.opcode;
    let members = q.struct_members(inst.result_type());
    if members.is_empty() {
        return Err(rule(R::StructResult, op));
    }
    let &[first, second] = members else {
        return Err(rule(R::StructTwoMembers, op));
    };
    if op == O::SMulExtended {
        if !q.is_int_scalar_type(first) && !q.is_int_vector_type(first) {
            return Err(rule(R::MembersInt, op));
        }
    } else if !q.is_unsigned_int_scalar_or_vector_type(first) {
        return Err(rule(R::MembersUnsigned, op));
    }
    if first != second {
        return Err(rule(R::MembersIdentical, op));
    }
    if q.operand_type(inst, 2) != first || q.operand_type(inst, 3) != first {
        return Err(rule(R::OperandsAreMemberType, op));
    }
    Ok(())
}

/// `OpCooperativeMatrixMulAddNV` and `OpCooperativeMatrixMulAddKHR`: `D = A * B + C`,
/// four cooperative matrices of one scope whose known sizes agree (A is MxK, B KxN,
/// C and D MxN).
fn mul_add(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    use CooperativeMatrixUse as U;
    let op = inst.opcode;
    let d = inst.result_type();
    let [a, b, c] = [2, 3, 4].map(|i| q.operand_type(inst, i));
    if op == O::CooperativeMatrixMulAddNV {
        let nv = |t| q.opcode(t) == O::TypeCooperativeMatrixNV;
        for (t, r) in [
            (a, R::MatrixA),
            (b, R::MatrixB),
            (c, R::MatrixC),
            (d, R::MatrixResult),
        ] {
            if !nv(t) {
                return Err(rule(r, op));
            }
        }
    } else {
        for (t, usage, r) in [
            (a, U::MatrixAKHR, R::UseA),
            (b, U::MatrixBKHR, R::UseBOperand),
            (c, U::MatrixAccumulatorKHR, R::UseAccumulator),
        ] {
            if !is_use(q, t, usage) {
                return Err(rule(r, op));
            }
        }
        if !q.is_cooperative_matrix_khr_type(d) {
            return Err(rule(R::MatrixResult, op));
        }
    }
    // Operand `i` of each type (scope 2, rows 3, columns 4), where a known constant.
    let known = |t: u32, i: usize| {
        let (_, constant, value) = q.int32_if_const(q.word(t, i + 1).unwrap_or(0));
        constant.then_some(value)
    };
    let differ = |x: (u32, usize), y: (u32, usize)| match (known(x.0, x.1), known(y.0, y.1)) {
        (Some(x), Some(y)) => x != y,
        _ => false,
    };
    let pairs = |list: &[u32], i: usize| {
        list.iter()
            .enumerate()
            .any(|(n, &x)| list.iter().skip(n + 1).any(|&y| differ((x, i), (y, i))))
    };
    if pairs(&[a, b, c, d], 2) {
        return Err(rule(R::ScopesMatch, op));
    }
    if pairs(&[a, c, d], 3) {
        return Err(rule(R::MismatchM, op));
    }
    if pairs(&[b, c, d], 4) {
        return Err(rule(R::MismatchN, op));
    }
    if differ((a, 4), (b, 3)) {
        return Err(rule(R::MismatchK, op));
    }
    Ok(())
}

/// `OpCooperativeMatrixReduceNV`: an accumulator reduced to an accumulator of the
/// same component type and scope, of the size its mask implies where known, by a
/// function of two components.
fn reduce(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    const ROW: u32 = 1;
    const COLUMN: u32 = 2;
    const TWO_BY_TWO: u32 = 4;
    let op = inst.opcode;
    let result = inst.result_type();
    if !q.is_cooperative_matrix_khr_type(result) {
        return Err(rule(R::ReduceResult, op));
    }
    let matrix = q.operand_type(inst, 2);
    if !q.is_cooperative_matrix_khr_type(matrix) {
        return Err(rule(R::ReduceMatrix, op));
    }
    let component = q.word(matrix, 2).unwrap_or(0);
    if component != q.word(result, 2).unwrap_or(0) {
        return Err(rule(R::ReduceComponents, op));
    }
    if q.word(result, 3) != q.word(matrix, 3) {
        return Err(rule(R::ReduceScopes, op));
    }
    let accumulator = CooperativeMatrixUse::MatrixAccumulatorKHR;
    if !is_use(q, result, accumulator) {
        return Err(rule(R::ReduceResultUse, op));
    }
    if !is_use(q, matrix, accumulator) {
        return Err(rule(R::ReduceMatrixUse, op));
    }
    let mask = inst.word(3);
    if mask & TWO_BY_TWO != 0 && mask & (ROW | COLUMN) != 0 {
        return Err(rule(R::Reduce2x2RowColumn, op));
    }
    // Rows (word 4) and columns (word 5), where known constants.
    let size = |t: u32, w: usize| {
        let (_, known, value) = q.int32_if_const(q.word(t, w).unwrap_or(0));
        known.then_some(value)
    };
    let (rows, columns) = (size(result, 4), size(result, 5));
    let (m_rows, m_columns) = (size(matrix, 4), size(matrix, 5));
    if mask & TWO_BY_TWO != 0 {
        if let (Some(r), Some(c), Some(mr), Some(mc)) = (rows, columns, m_rows, m_columns) {
            if r != mr / 2 || c != mc / 2 {
                return Err(rule(R::Reduce2x2Size, op));
            }
        }
    }
    let differ = |a: Option<u32>, b: Option<u32>| matches!((a, b), (Some(a), Some(b)) if a != b);
    if mask == ROW && differ(rows, m_rows) {
        return Err(rule(R::ReduceRowSize, op));
    }
    if mask == COLUMN && differ(columns, m_columns) {
        return Err(rule(R::ReduceColumnSize, op));
    }
    let function = inst.word(4);
    if q.opcode(function) != O::Function {
        return Err(rule(R::CombineFunction, op));
    }
    let signature = q
        .def(q.word(function, 4).unwrap_or(0))
        .map_or(&[][..], |d| d.words());
    if signature.len() != 5 {
        return Err(rule(R::CombineParameters, op));
    }
    if signature
        .get(2..5)
        .is_some_and(|t| t.iter().any(|&t| t != component))
    {
        return Err(rule(R::CombineTypes, op));
    }
    Ok(())
}
