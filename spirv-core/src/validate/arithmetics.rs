//! spirv-val's arithmetics pass (`ArithmeticsPass` in `validate_arithmetics.cpp`):
//! the result and operand types of the float, unsigned and signed arithmetic
//! instructions, `OpDot`, the vector and matrix products, `OpOuterProduct`, and the
//! extended ones (`OpIAddCarry`, `OpISubBorrow`, `OpUMulExtended`, `OpSMulExtended`),
//! and the cooperative matrix multiply-adds and reduction.

use super::Query;
use super::faults::faults;
use super::validation_state::{cooperative_shapes, cooperative_sizes, is_use};
use super::{Fault, Inst};
use crate::spv::{Capability, CooperativeMatrixUse, Opcode, Opcode as O};
use crate::types::Id;
use ArithmeticError as E;

faults! {
    /// A fault of spirv-val's arithmetics pass (`validate_arithmetics.cpp`).
    pub enum ArithmeticError {
        FloatingResult { opcode: Opcode } => "Expected floating scalar or vector type as Result Type: {opcode}",
        UnsignedResult { opcode: Opcode } => "Expected unsigned int scalar or vector type as Result Type: {opcode}",
        IntResult { opcode: Opcode } => "Expected int scalar or vector type as Result Type: {opcode}",
        FloatScalarResult { opcode: Opcode } => "Expected float scalar type as Result Type: {opcode}",
        DotComponentCount { opcode: Opcode } => "Expected operands to have the same number of components: {opcode}",
        FloatVectorResult { opcode: Opcode } => "Expected float vector type as Result Type: {opcode}",
        VectorIsResult { opcode: Opcode } => "Expected vector operand type to be equal to Result Type: {opcode}",
        ScalarIsVectorComponent { opcode: Opcode } => "Expected scalar operand type to be equal to the component type of the vector operand: {opcode}",
        FloatMatrixResult { opcode: Opcode } => "Expected float matrix type as Result Type: {opcode}",
        MatrixIsResult { opcode: Opcode } => "Expected matrix operand type to be equal to Result Type: {opcode}",
        ScalarIsMatrixComponent { opcode: Opcode } => "Expected scalar operand type to be equal to the component type of the matrix operand: {opcode}",
        FloatVectorLeft { opcode: Opcode } => "Expected float vector type as left operand: {opcode}",
        ResultAndVectorComponents { opcode: Opcode } => "Expected component types of Result Type and vector to be equal: {opcode}",
        FloatMatrixRight { opcode: Opcode } => "Expected float matrix type as right operand: {opcode}",
        ResultAndMatrixComponents { opcode: Opcode } => "Expected component types of Result Type and matrix to be equal: {opcode}",
        ColumnsAreResultSize { opcode: Opcode } => "Expected number of columns of the matrix to be equal to Result Type vector size: {opcode}",
        RowsAreVectorSize { opcode: Opcode } => "Expected number of rows of the matrix to be equal to the vector operand size: {opcode}",
        FloatMatrixLeft { opcode: Opcode } => "Expected float matrix type as left operand: {opcode}",
        ColumnIsResult { opcode: Opcode } => "Expected column type of the matrix to be equal to Result Type: {opcode}",
        FloatVectorRight { opcode: Opcode } => "Expected float vector type as right operand: {opcode}",
        OperandComponents { opcode: Opcode } => "Expected component types of the operands to be equal: {opcode}",
        ColumnsAreVectorSize { opcode: Opcode } => "Expected number of columns of the matrix to be equal to the vector size: {opcode}",
        ResultAndLeftColumns { opcode: Opcode } => "Expected column types of Result Type and left matrix to be equal: {opcode}",
        ResultAndRightComponents { opcode: Opcode } => "Expected component types of Result Type and right matrix to be equal: {opcode}",
        ResultAndRightColumnCount { opcode: Opcode } => "Expected number of columns of Result Type and right matrix to be equal: {opcode}",
        LeftColumnsRightRows { opcode: Opcode } => "Expected number of columns of left matrix and number of rows of right matrix to be equal: {opcode}",
        LeftIsResultColumn { opcode: Opcode } => "Expected column type of Result Type to be equal to the type of the left operand: {opcode}",
        ColumnsAreRightSize { opcode: Opcode } => "Expected number of columns of the matrix to be equal to the vector size of the right operand: {opcode}",
        StructResult { opcode: Opcode } => "Expected a struct as Result Type: {opcode}",
        StructTwoMembers { opcode: Opcode } => "Expected Result Type struct to have two members: {opcode}",
        MembersInt { opcode: Opcode } => "Expected Result Type struct member types to be integer scalar or vector: {opcode}",
        MembersUnsigned { opcode: Opcode } => "Expected Result Type struct member types to be unsigned integer scalar or vector: {opcode}",
        MembersIdentical { opcode: Opcode } => "Expected Result Type struct member types to be identical: {opcode}",
        OperandsAreMemberType { opcode: Opcode } => "Expected both operands to be of Result Type member type: {opcode}",
        MatrixA { opcode: Opcode } => "Expected cooperative matrix type as A Type: {opcode}",
        MatrixB { opcode: Opcode } => "Expected cooperative matrix type as B Type: {opcode}",
        MatrixC { opcode: Opcode } => "Expected cooperative matrix type as C Type: {opcode}",
        MatrixResult { opcode: Opcode } => "Expected cooperative matrix type as Result Type: {opcode}",
        UseA { opcode: Opcode } => "Cooperative matrix type must be A Type: {opcode}",
        UseBOperand { opcode: Opcode } => "Cooperative matrix type must be B Type: {opcode}",
        UseAccumulator { opcode: Opcode } => "Cooperative matrix type must be Accumulator Type: {opcode}",
        ScopesMatch { opcode: Opcode } => "Cooperative matrix scopes must match: {opcode}",
        MismatchM { opcode: Opcode } => "Cooperative matrix 'M' mismatch: {opcode}",
        MismatchN { opcode: Opcode } => "Cooperative matrix 'N' mismatch: {opcode}",
        MismatchK { opcode: Opcode } => "Cooperative matrix 'K' mismatch: {opcode}",
        ReduceResult { opcode: Opcode } => "Result Type must be a cooperative matrix type: {opcode}",
        ReduceMatrix { opcode: Opcode } => "Matrix must have a cooperative matrix type: {opcode}",
        ReduceComponents { opcode: Opcode } => "Result Type and Matrix type must have the same component type: {opcode}",
        ReduceScopes { opcode: Opcode } => "Result Type and Matrix type must have the same scope: {opcode}",
        ReduceResultUse { opcode: Opcode } => "Result Type must have UseAccumulator: {opcode}",
        ReduceMatrixUse { opcode: Opcode } => "Matrix type must have UseAccumulator: {opcode}",
        Reduce2x2RowColumn { opcode: Opcode } => "Reduce 2x2 must not be used with Row/Column: {opcode}",
        Reduce2x2Size { opcode: Opcode } => "For Reduce2x2, result rows/cols must be half of matrix rows/cols: {opcode}",
        ReduceRowSize { opcode: Opcode } => "For ReduceRow, result rows must match matrix rows: {opcode}",
        ReduceColumnSize { opcode: Opcode } => "For ReduceColumn, result cols must match matrix cols: {opcode}",
        CombineFunction { opcode: Opcode } => "CombineFunc must be a function: {opcode}",
        CombineParameters { opcode: Opcode } => "CombineFunc must have two parameters: {opcode}",
        CombineTypes { opcode: Opcode } => "CombineFunc return type and parameters must match matrix component type: {opcode}",
        ArithmeticIsResult { opcode: Opcode, index: usize } => "Expected arithmetic operands to be of Result Type: {opcode} operand index {index}",
        IntOperand { opcode: Opcode, index: usize } => "Expected int scalar or vector type as operand: {opcode} operand index {index}",
        ArithmeticDimension { opcode: Opcode, index: usize } => "Expected arithmetic operands to have the same dimension as Result Type: {opcode} operand index {index}",
        ArithmeticBitWidth { opcode: Opcode, index: usize } => "Expected arithmetic operands to have the same bit width as Result Type: {opcode} operand index {index}",
        FloatVectorOperand { opcode: Opcode, index: usize } => "Expected float vector as operand: {opcode} operand index {index}",
        ComponentIsResult { opcode: Opcode, index: usize } => "Expected component type to be equal to Result Type: {opcode} operand index {index}",
        /// `OpDot` on `BFloat16` without `BFloat16DotProductKHR`.
        DotBfloat16 {
            /// The result type.
            result_type: Id,
        } => "OpDot Result Type <id> {result_type}requires BFloat16DotProductKHR be declared.",
    }
}

/// What the pass remembers across instructions.
#[derive(Debug, Default)]
pub(super) struct Arithmetics;

/// The pass for one instruction.
#[inline(always)]
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
            E::UnsignedResult { opcode: op }
        } else {
            E::FloatingResult { opcode: op }
        };
        return Err(r.into());
    }
    for i in 2..inst.operands.len() {
        let t = q.operand_type(inst, i);
        if vectors && q.is_cooperative_vector_type(result) {
            if !q.is_cooperative_vector_type(t) {
                return Err(E::ArithmeticIsResult {
                    opcode: op,
                    index: i,
                }
                .into());
            }
            cooperative_sizes(q, t, result)?;
        } else if matrices && q.is_cooperative_matrix_khr_type(result) {
            let component = if unsigned {
                Query::is_unsigned_int_scalar_type
            } else {
                Query::is_float_scalar_type
            };
            if !q.is_cooperative_matrix_khr_type(t) || !q.is_cooperative_matrix_of(t, component) {
                return Err(E::ArithmeticIsResult {
                    opcode: op,
                    index: i,
                }
                .into());
            }
            cooperative_shapes(q, result, t, false, false)?;
        } else if t != result {
            return Err(E::ArithmeticIsResult {
                opcode: op,
                index: i,
            }
            .into());
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
        return Err(E::IntResult { opcode: op }.into());
    }
    let dimension = q.dimension(result);
    let width = q.bit_width(result);
    for i in 2..inst.operands.len() {
        let t = q.operand_type(inst, i);
        if vectors && q.is_cooperative_vector_type(result) {
            if !q.is_cooperative_vector_type(t) {
                return Err(E::ArithmeticIsResult {
                    opcode: op,
                    index: i,
                }
                .into());
            }
            cooperative_sizes(q, t, result)?;
        }
        if matrices && q.is_cooperative_matrix_khr_type(result) {
            if !q.is_cooperative_matrix_khr_type(t) || !q.is_cooperative_matrix_of(t, c) {
                return Err(E::ArithmeticIsResult {
                    opcode: op,
                    index: i,
                }
                .into());
            }
            cooperative_shapes(q, result, t, false, false)?;
        }
        if t == 0 || (!q.is_int_scalar_type(t) && !q.is_int_vector_type(t) && !cooperative) {
            return Err(E::IntOperand {
                opcode: op,
                index: i,
            }
            .into());
        }
        if q.dimension(t) != dimension {
            return Err(E::ArithmeticDimension {
                opcode: op,
                index: i,
            }
            .into());
        }
        if q.bit_width(t) != width {
            return Err(E::ArithmeticBitWidth {
                opcode: op,
                index: i,
            }
            .into());
        }
    }
    Ok(())
}

/// `OpDot`: two float vectors of the result's type and the same size.
fn dot(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let op = inst.opcode;
    let result = inst.result_type();
    if !q.is_float_scalar_type(result) {
        return Err(E::FloatScalarResult { opcode: op }.into());
    }
    if q.is_bfloat16_scalar_type(result)
        && !q.state.has_capability(Capability::BFloat16DotProductKHR.0)
    {
        return Err(Fault::from(E::DotBfloat16 {
            result_type: Id(result),
        }));
    }
    let mut first = 0;
    for i in 2..inst.operands.len() {
        let t = q.operand_type(inst, i);
        if t == 0 || !q.is_float_vector_type(t) {
            return Err(E::FloatVectorOperand {
                opcode: op,
                index: i,
            }
            .into());
        }
        if q.component_type(t) != result {
            return Err(E::ComponentIsResult {
                opcode: op,
                index: i,
            }
            .into());
        }
        let size = q.dimension(t);
        if i == 2 {
            first = size;
        } else if size != first {
            return Err(E::DotComponentCount { opcode: op }.into());
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
            E::FloatVectorResult { opcode: op }
        } else {
            E::FloatMatrixResult { opcode: op }
        };
        return Err(r.into());
    }
    let composite = q.operand_type(inst, 2);
    if composite != result {
        let r = if vector {
            E::VectorIsResult { opcode: op }
        } else {
            E::MatrixIsResult { opcode: op }
        };
        return Err(r.into());
    }
    if q.component_type(composite) != q.operand_type(inst, 3) {
        let r = if vector {
            E::ScalarIsVectorComponent { opcode: op }
        } else {
            E::ScalarIsMatrixComponent { opcode: op }
        };
        return Err(r.into());
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
        return Err(E::FloatVectorResult { opcode: op }.into());
    }
    let component = q.component_type(result);
    if vector == 0 || !q.is_float_vector_type(vector) {
        return Err(E::FloatVectorLeft { opcode: op }.into());
    }
    if component != q.component_type(vector) {
        return Err(E::ResultAndVectorComponents { opcode: op }.into());
    }
    let Some((rows, columns, _, m_component)) = q.matrix_info(matrix) else {
        return Err(E::FloatMatrixRight { opcode: op }.into());
    };
    if component != m_component {
        return Err(E::ResultAndMatrixComponents { opcode: op }.into());
    }
    if columns != q.dimension(result) {
        return Err(E::ColumnsAreResultSize { opcode: op }.into());
    }
    if rows != q.dimension(vector) {
        return Err(E::RowsAreVectorSize { opcode: op }.into());
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
        return Err(E::FloatVectorResult { opcode: op }.into());
    }
    let Some((_, columns, column, component)) = q.matrix_info(matrix) else {
        return Err(E::FloatMatrixLeft { opcode: op }.into());
    };
    if result != column {
        return Err(E::ColumnIsResult { opcode: op }.into());
    }
    if vector == 0 || !q.is_float_vector_type(vector) {
        return Err(E::FloatVectorRight { opcode: op }.into());
    }
    if component != q.component_type(vector) {
        return Err(E::OperandComponents { opcode: op }.into());
    }
    if columns != q.dimension(vector) {
        return Err(E::ColumnsAreVectorSize { opcode: op }.into());
    }
    Ok(())
}

/// `OpMatrixTimesMatrix`.
fn matrix_times_matrix(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let op = inst.opcode;
    let Some((_, columns, column, component)) = q.matrix_info(inst.result_type()) else {
        return Err(E::FloatMatrixResult { opcode: op }.into());
    };
    let Some((_, l_columns, l_column, _)) = q.matrix_info(q.operand_type(inst, 2)) else {
        return Err(E::FloatMatrixLeft { opcode: op }.into());
    };
    let Some((r_rows, r_columns, _, r_component)) = q.matrix_info(q.operand_type(inst, 3)) else {
        return Err(E::FloatMatrixRight { opcode: op }.into());
    };
    if !q.is_float_scalar_type(component) {
        return Err(E::FloatMatrixResult { opcode: op }.into());
    }
    if column != l_column {
        return Err(E::ResultAndLeftColumns { opcode: op }.into());
    }
    if component != r_component {
        return Err(E::ResultAndRightComponents { opcode: op }.into());
    }
    if columns != r_columns {
        return Err(E::ResultAndRightColumnCount { opcode: op }.into());
    }
    if l_columns != r_rows {
        return Err(E::LeftColumnsRightRows { opcode: op }.into());
    }
    Ok(())
}

/// `OpOuterProduct`.
fn outer_product(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let op = inst.opcode;
    let Some((_, columns, column, component)) = q.matrix_info(inst.result_type()) else {
        return Err(E::FloatMatrixResult { opcode: op }.into());
    };
    if q.operand_type(inst, 2) != column {
        return Err(E::LeftIsResultColumn { opcode: op }.into());
    }
    let right = q.operand_type(inst, 3);
    if right == 0 || !q.is_float_vector_type(right) {
        return Err(E::FloatVectorRight { opcode: op }.into());
    }
    if component != q.component_type(right) {
        return Err(E::OperandComponents { opcode: op }.into());
    }
    if columns != q.dimension(right) {
        return Err(E::ColumnsAreRightSize { opcode: op }.into());
    }
    Ok(())
}

/// `OpIAddCarry`, `OpISubBorrow`, `OpUMulExtended`, `OpSMulExtended`: a struct of two
/// members of the operands' type.
fn extended(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let op = inst.opcode;
    let members = q.struct_members(inst.result_type());
    if members.is_empty() {
        return Err(E::StructResult { opcode: op }.into());
    }
    let &[first, second] = members else {
        return Err(E::StructTwoMembers { opcode: op }.into());
    };
    if op == O::SMulExtended {
        if !q.is_int_scalar_type(first) && !q.is_int_vector_type(first) {
            return Err(E::MembersInt { opcode: op }.into());
        }
    } else if !q.is_unsigned_int_scalar_or_vector_type(first) {
        return Err(E::MembersUnsigned { opcode: op }.into());
    }
    if first != second {
        return Err(E::MembersIdentical { opcode: op }.into());
    }
    if q.operand_type(inst, 2) != first || q.operand_type(inst, 3) != first {
        return Err(E::OperandsAreMemberType { opcode: op }.into());
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
            (a, E::MatrixA { opcode: op }),
            (b, E::MatrixB { opcode: op }),
            (c, E::MatrixC { opcode: op }),
            (d, E::MatrixResult { opcode: op }),
        ] {
            if !nv(t) {
                return Err(r.into());
            }
        }
    } else {
        for (t, usage, r) in [
            (a, U::MatrixAKHR, E::UseA { opcode: op }),
            (b, U::MatrixBKHR, E::UseBOperand { opcode: op }),
            (c, U::MatrixAccumulatorKHR, E::UseAccumulator { opcode: op }),
        ] {
            if !is_use(q, t, usage) {
                return Err(r.into());
            }
        }
        if !q.is_cooperative_matrix_khr_type(d) {
            return Err(E::MatrixResult { opcode: op }.into());
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
        return Err(E::ScopesMatch { opcode: op }.into());
    }
    if pairs(&[a, c, d], 3) {
        return Err(E::MismatchM { opcode: op }.into());
    }
    if pairs(&[b, c, d], 4) {
        return Err(E::MismatchN { opcode: op }.into());
    }
    if differ((a, 4), (b, 3)) {
        return Err(E::MismatchK { opcode: op }.into());
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
        return Err(E::ReduceResult { opcode: op }.into());
    }
    let matrix = q.operand_type(inst, 2);
    if !q.is_cooperative_matrix_khr_type(matrix) {
        return Err(E::ReduceMatrix { opcode: op }.into());
    }
    let component = q.word(matrix, 2).unwrap_or(0);
    if component != q.word(result, 2).unwrap_or(0) {
        return Err(E::ReduceComponents { opcode: op }.into());
    }
    if q.word(result, 3) != q.word(matrix, 3) {
        return Err(E::ReduceScopes { opcode: op }.into());
    }
    let accumulator = CooperativeMatrixUse::MatrixAccumulatorKHR;
    if !is_use(q, result, accumulator) {
        return Err(E::ReduceResultUse { opcode: op }.into());
    }
    if !is_use(q, matrix, accumulator) {
        return Err(E::ReduceMatrixUse { opcode: op }.into());
    }
    let mask = inst.word(3);
    if mask & TWO_BY_TWO != 0 && mask & (ROW | COLUMN) != 0 {
        return Err(E::Reduce2x2RowColumn { opcode: op }.into());
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
                return Err(E::Reduce2x2Size { opcode: op }.into());
            }
        }
    }
    let differ = |a: Option<u32>, b: Option<u32>| matches!((a, b), (Some(a), Some(b)) if a != b);
    if mask == ROW && differ(rows, m_rows) {
        return Err(E::ReduceRowSize { opcode: op }.into());
    }
    if mask == COLUMN && differ(columns, m_columns) {
        return Err(E::ReduceColumnSize { opcode: op }.into());
    }
    let function = inst.word(4);
    if q.opcode(function) != O::Function {
        return Err(E::CombineFunction { opcode: op }.into());
    }
    let signature = q
        .def(q.word(function, 4).unwrap_or(0))
        .map_or(&[][..], |d| d.words());
    if signature.len() != 5 {
        return Err(E::CombineParameters { opcode: op }.into());
    }
    if signature
        .get(2..5)
        .is_some_and(|t| t.iter().any(|&t| t != component))
    {
        return Err(E::CombineTypes { opcode: op }.into());
    }
    Ok(())
}

/// What this family checks (see [`coverage`](crate::validate::coverage)).
pub(crate) const COVERAGE: crate::validate::coverage::Family = crate::validate::coverage::Family {
    opcodes: {
        use crate::spv::Opcode as O;
        &[
            O::FAdd,
            O::FSub,
            O::FMul,
            O::FDiv,
            O::FRem,
            O::FMod,
            O::FNegate,
            O::FmaKHR,
            O::UDiv,
            O::UMod,
            O::ISub,
            O::IAdd,
            O::IMul,
            O::SDiv,
            O::SMod,
            O::SRem,
            O::SNegate,
            O::Dot,
            O::VectorTimesScalar,
            O::MatrixTimesScalar,
            O::VectorTimesMatrix,
            O::MatrixTimesVector,
            O::MatrixTimesMatrix,
            O::OuterProduct,
            O::IAddCarry,
            O::ISubBorrow,
            O::UMulExtended,
            O::SMulExtended,
            O::CooperativeMatrixMulAddNV,
            O::CooperativeMatrixMulAddKHR,
            O::CooperativeMatrixReduceNV,
        ]
    },
    ..crate::validate::coverage::Family::new("arithmetics", "validate_arithmetics.cpp")
};
