//! spirv-val's composites pass (`CompositesPass` in `validate_composites.cpp`): the
//! result and operand types of `OpVectorExtractDynamic`, `OpVectorInsertDynamic`,
//! `OpVectorShuffle`, `OpCompositeConstruct`, `OpCompositeExtract`,
//! `OpCompositeInsert`, `OpCopyObject`, `OpTranspose` and `OpCopyLogical`, and, in
//! shaders, no 8- or 16-bit types without their capabilities; the Qualcomm
//! cooperative-matrix instructions' rules are in [`qcom`].

mod qcom;

use super::Query;
use super::faults::faults;
use super::{Fault, Inst};
use crate::__private::Vec;
use crate::spirv_tools::is_spec_constant;
use crate::spv::{Opcode, Opcode as O};
use crate::types::Id;
use CompositeError as E;
use alloc::collections::{BTreeMap, BTreeSet};

faults! {
    /// A fault of spirv-val's composites pass (`validate_composites.cpp`), the
    /// `SPV_QCOM_cooperative_matrix_conversion` instructions' included.
    pub enum CompositeError {
        NotComposite => "Expected Composite to be an object of composite type",
        NonCompositeReached => "Reached non-composite type while indexes still remain to be traversed.",
        ScalarResult => "Expected Result Type to be a scalar type",
        VectorIsVector => "Expected Vector type to be OpTypeVector",
        VectorComponentIsResult => "Expected Vector component type to be equal to Result Type",
        IndexIntScalar => "Expected Index to be int scalar",
        ExtractFromSmallVector => "Cannot extract from a vector of 8- or 16-bit types",
        VectorResult => "Expected Result Type to be OpTypeVector",
        VectorIsResult => "Expected Vector type to be equal to Result Type",
        ComponentIsResultComponent => "Expected Component type to be equal to Result Type component type",
        InsertIntoSmallVector => "Cannot insert into a vector of 8- or 16-bit types",
        TwoConstituents => "Expected number of constituents to be at least 2",
        ConstituentsScalarsOrVectors => "Expected Constituents to be scalars or vectors of the same type as Result Type components",
        ComponentCount => "Expected total number of given components to be equal to the size of Result Type vector",
        ColumnCount => "Expected total number of Constituents to be equal to the number of columns of Result Type matrix",
        ConstituentIsColumn => "Expected Constituent type to be equal to the column type Result Type matrix",
        ElementCount => "Expected total number of Constituents to be equal to the number of elements of Result Type array",
        ConstituentIsElement => "Expected Constituent type to be equal to the column type Result Type array",
        MemberCount => "Expected total number of Constituents to be equal to the number of members of Result Type struct",
        ConstituentIsMember => "Expected Constituent type to be equal to the corresponding member type of Result Type struct",
        CompositeResult => "Expected Result Type to be a composite type",
        OneConstituent => "Must be only one constituent",
        SingleConstituent => "Expected single constituent",
        ConstituentIsComponent => "Expected Constituent type to be equal to the component type",
        ConstructSmall => "Cannot create a composite containing 8- or 16-bit types",
        ExtractSmall => "Cannot extract from a composite of 8- or 16-bit types",
        InsertSmall => "Cannot insert into a composite of 8- or 16-bit types",
        CopyType => "Expected Result Type and Operand type to be the same",
        CopyVoid => "OpCopyObject cannot have void result type",
        MatrixResult => "Expected Result Type to be a matrix type",
        MatrixOperand => "Expected Matrix to be of type OpTypeMatrix",
        TransposeComponents => "Expected component types of Matrix and Result Type to be identical",
        TransposeShape => "Expected number of columns and the column size of Matrix to be the reverse of those of Result Type",
        TransposeSmall => "Cannot transpose matrices of 16-bit floats",
        Vector1Type => "The type of Vector 1 must be OpTypeVector.",
        Vector2Type => "The type of Vector 2 must be OpTypeVector.",
        Vector1Component => "The Component Type of Vector 1 must be the same as ResultType.",
        Vector2Component => "The Component Type of Vector 2 must be the same as ResultType.",
        ShuffleSmall => "Cannot shuffle a vector of 8- or 16-bit types",
        LogicalSameType => "Result Type must not equal the Operand type",
        LogicalMismatch => "Result Type does not logically match the Operand type",
        CopyLogicalSmall => "Cannot copy composites of 8- or 16-bit types",
        ResultMatrix { opcode: Opcode } => "Opcode {opcode} requires the result type be OpTypeCooperativeMatrixKHR",
        InputArray { opcode: Opcode } => "Opcode {opcode} requires the input operand be an OpTypeArray.",
        ResultScope { opcode: Opcode } => "Opcode {opcode} requires the result type's scope be Subgroup.",
        ConstructElement { opcode: Opcode } => "Opcode {opcode} requires ether the input element type is equal to the result element type or it is the unsigned 32-bit integer.",
        ConstructAType { opcode: Opcode } => "Opcode {opcode} requires the result element type is one of 8-bit OpTypeInt signed/unsigned, 16- or 32-bit OpTypeFloat when result coopmat's use is MatrixAKHR",
        ConstructAColumns { opcode: Opcode } => "Opcode {opcode} requires the columns of the result coopmat have the bit length of 256 when result coopmat's use is MatrixAKHR",
        ConstructALength { opcode: Opcode } => "Opcode {opcode} requires the source array length be 8 if its elt type is 32-bit unsigned OpTypeInt and be the result's number of columns, otherwise when result coopmat's use is MatrixAKHR",
        ConstructBType { opcode: Opcode } => "Opcode {opcode} requires the result element type is one of 8-bit OpTypeInt signed/unsigned, 16- or 32-bit OpTypeFloat when result coopmat's use is MatrixBKHR",
        ConstructBRows { opcode: Opcode } => "Opcode {opcode} requires the rows of the result operand have the bit length of 256 when result coopmat's use is MatrixBKHR",
        ConstructBLength { opcode: Opcode } => "Opcode {opcode} requires the source array length be 8 if its elt type is 32-bit unsigned OpTypeInt and be the result's number of rows, otherwise when result coopmat's use is MatrixBKHR",
        ConstructAccType { opcode: Opcode } => "Opcode {opcode} requires the result element type is one of 32-bit OpTypeInt signed/unsigned, 16- or 32-bit OpTypeFloat when result coopmat's use is MatrixAccumulatorKHR",
        ConstructAccLength { opcode: Opcode } => "Opcode {opcode} requires the source array length be a half of the number of columns of the resulting cooerative matrix if the matrix's componet type is 16-bit OpTypeFloat and be equal to the number of columns, otherwise, when result coopmat's use is MatrixAccumulatorKHR",
        ConstructUse { opcode: Opcode } => "Opcode {opcode} requires the the resulting cooerative matrix's use be  one of MatrixAKHR (== 0), MatrixBKHR (== 1), and MatrixAccumulatorKHR (== 2)",
        SourceMatrix { opcode: Opcode } => "Opcode {opcode} requires the source type be OpTypeCooperativeMatrixKHR",
        SourceScope { opcode: Opcode } => "Opcode {opcode} requires the source type's scope be Subgroup.",
        ExtractAType { opcode: Opcode } => "Opcode {opcode} requires the source element type be one of 8-bit OpTypeInt signed/unsigned, 16- or 32-bit OpTypeFloat when source coopmat's use is MatrixAKHR",
        ExtractAColumns { opcode: Opcode } => "Opcode {opcode} requires the columns of the source coopmat have the bit length of 256 when source coopmat's use is MatrixAKHR",
        ExtractALength { opcode: Opcode } => "Opcode {opcode} requires either the result element type be the same as the source cooperative matrix's component type and its length be the same as the number of columns of the matrix or the result element type be unsigned 32-bit OpTypeInt and the length be 8 when source coopmat's use is MatrixAKHR",
        ExtractBType { opcode: Opcode } => "Opcode {opcode} requires the source element type be one of 8-bit OpTypeInt signed/unsigned, 16- or 32-bit OpTypeFloat when source coopmat's use is MatrixBKHR",
        ExtractBRows { opcode: Opcode } => "Opcode {opcode} requires the rows of the source coopmat have the bit length of 256 when source coopmat's use is MatrixBKHR",
        ExtractBLength { opcode: Opcode } => "Opcode {opcode} requires either the result element type be the same as the source cooperative matrix's component type and its length be the same as the number of rows of the matrix or the result element type be unsigned 32-bit OpTypeInt and the length be 8 when source coopmat's use is MatrixBKHR",
        ExtractAccType { opcode: Opcode } => "Opcode {opcode} requires the source element type be one of 32-bit OpTypeInt signed/unsigned, 16- or 32-bit OpTypeFloat when source coopmat's use is MatrixAccumulatorKHR",
        ExtractAccLength { opcode: Opcode } => "Opcode {opcode} requires either the result element type be the same as the source cooperative matrix's component type and its length be the same as the number of columns of the matrix or the result element type be unsigned 32-bit OpTypeInt and the length be the number of the columns of the matrix if its component type is 32-bit OpTypeFloat and be a half of the number of the columns of the matrix if its component type is 16-bit OpTypeFloat when source coopmat's use is MatrixAccumulatorKHR",
        ExtractUse { opcode: Opcode } => "Opcode {opcode} requires the the source cooerative matrix's use be  one of MatrixAKHR (== 0), MatrixBKHR (== 1), and MatrixAccumulatorKHR (== 2)",
        Arrays { opcode: Opcode } => "Opcode {opcode} requires OpTypeArray operands for the input and the result.",
        SubArrayElements { opcode: Opcode } => "Opcode {opcode} requires the input and result element types match.",
        SubArrayElementType { opcode: Opcode } => "Opcode {opcode} requires the element type be one of 32-bit OpTypeInt (signed/unsigned), 32-bit OpTypeFloat and 16-bit OpTypeFloat",
        SubArrayIndex { opcode: Opcode } => "Opcode {opcode} requires the type of the start index operand be 32-bit OpTypeInt",
        /// `OpCompositeExtract` or `OpCompositeInsert` without indexes.
        NoIndexes {
            /// The instruction's opcode.
            opcode: Opcode,
        } => "Expected at least one index to Op{opcode}, zero found",
        /// `OpCompositeExtract` or `OpCompositeInsert` with more than 255 indexes.
        TooManyIndexes {
            /// The instruction's opcode.
            opcode: Opcode,
            /// The indexes given.
            count: usize,
        } => "The number of indexes in Op{opcode} may not exceed 255. Found {count} indexes.",
        /// An index past a vector's end.
        VectorIndex {
            /// The vector's size.
            size: u32,
            /// The index.
            index: u32,
        } => "Vector access is out of bounds, vector size is {size}, but access index is {index}",
        /// An index past a matrix's last column.
        MatrixIndex {
            /// The matrix's columns.
            columns: u32,
            /// The index.
            index: u32,
        } => "Matrix access is out of bounds, matrix has {columns} columns, but access index is {index}",
        /// An index past an array's end.
        ArrayIndex {
            /// The array's length.
            size: u64,
            /// The index.
            index: u32,
        } => "Array access is out of bounds, array size is {size}, but access index is {index}",
        /// An index past a struct's last member.
        StructIndex {
            /// The index.
            index: u32,
            /// The struct type.
            id: Id,
            /// Its members.
            members: usize,
            /// The largest index it takes (`members - 1`, wrapping as spirv-val's does).
            largest: usize,
        } => "Index is out of bounds, can not find index {index} in the structure <id> '{id:n}'. This structure has {members} members. Largest valid index is {largest}.",
        /// `OpCompositeExtract` whose result type is not the indexed member's.
        ExtractType {
            /// The result type's opcode.
            result: Opcode,
            /// The indexed member's type's opcode.
            member: Opcode,
        } => "Result type (Op{result}) does not match the type that results from indexing into the composite (Op{member}).",
        /// `OpCompositeInsert` whose result type is not the composite's type.
        InsertResultType {
            /// The instruction's opcode.
            opcode: Opcode,
            /// The result type.
            result_type: Id,
        } => "The Result Type must be the same as Composite type in Op{opcode} yielding Result Id {result_type:n}.",
        /// `OpCompositeInsert` whose object is not of the indexed member's type.
        InsertObjectType {
            /// The object's type's opcode.
            object: Opcode,
            /// The indexed member's type's opcode.
            member: Opcode,
        } => "The Object type (Op{object}) does not match the type that results from indexing into the Composite (Op{member}).",
        /// `OpVectorShuffle` whose result type is not a vector.
        ShuffleResult {
            /// The result type's opcode.
            found: Opcode,
        } => "The Result Type of OpVectorShuffle must be OpTypeVector. Found Op{found}.",
        /// `OpVectorShuffle` with as many components as its result type has.
        ShuffleCount {
            /// The result type.
            result_type: Id,
        } => "OpVectorShuffle component literals count does not match Result Type <id> {result_type}s vector component count.",
        /// `OpVectorShuffle` with a component past both vectors.
        ShuffleIndex {
            /// The component.
            index: u32,
            /// Both vectors' sizes together.
            size: u32,
        } => "Component index {index} is out of bounds for combined (Vector1 + Vector2) size of {size}.",
    }
}

/// What the pass remembers across instructions.
#[derive(Debug, Default)]
pub(crate) struct Composites {
    /// `LogicallyMatch`'s answers for the type pairs asked so far.
    logical: BTreeMap<(u32, u32), bool>,
}

/// The pass for one instruction.
#[inline(always)]
pub(crate) fn check(q: &Query<'_>, inst: &Inst<'_>, st: &mut Composites) -> Result<(), Fault> {
    let result = inst.result_type();
    let small = match inst.opcode {
        O::VectorExtractDynamic => {
            extract_dynamic(q, inst)?;
            E::ExtractFromSmallVector
        }
        O::VectorInsertDynamic => {
            insert_dynamic(q, inst)?;
            E::InsertIntoSmallVector
        }
        O::VectorShuffle => {
            shuffle(q, inst)?;
            E::ShuffleSmall
        }
        O::CompositeConstruct => {
            construct(q, inst)?;
            E::ConstructSmall
        }
        O::CompositeExtract => {
            let member = indexed_type(q, inst)?;
            if result != member {
                return Err(Fault::from(E::ExtractType {
                    result: q.opcode(result),
                    member: q.opcode(member),
                }));
            }
            E::ExtractSmall
        }
        O::CompositeInsert => {
            let object = q.operand_type(inst, 2);
            if result != q.operand_type(inst, 3) {
                return Err(Fault::from(E::InsertResultType {
                    opcode: inst.opcode,
                    result_type: Id(result),
                }));
            }
            let member = indexed_type(q, inst)?;
            if object != member {
                return Err(Fault::from(E::InsertObjectType {
                    object: q.opcode(object),
                    member: q.opcode(member),
                }));
            }
            E::InsertSmall
        }
        O::CopyObject => {
            if q.operand_type(inst, 2) != result {
                return Err(E::CopyType.into());
            }
            if q.is_void_type(result) {
                return Err(E::CopyVoid.into());
            }
            return Ok(());
        }
        O::Transpose => {
            transpose(q, inst)?;
            E::TransposeSmall
        }
        O::CopyLogical => {
            let source = q.operand_type(inst, 2);
            if q.def(source).is_none() || q.def(result).is_none() || source == result {
                return Err(E::LogicalSameType.into());
            }
            let matched = *st
                .logical
                .entry((source, result))
                .or_insert_with(|| logically_match(q, source, result, false));
            if !matched {
                return Err(E::LogicalMismatch.into());
            }
            E::CopyLogicalSmall
        }
        O::CompositeConstructCoopMatQCOM => return qcom::construct(q, inst),
        O::CompositeExtractCoopMatQCOM => return qcom::extract(q, inst),
        O::ExtractSubArrayQCOM => return qcom::sub_array(q, inst),
        _ => return Ok(()),
    };
    if q.state.has_capability(crate::spv::Capability::Shader.0) && q.contains_limited_use(result) {
        return Err(small.into());
    }
    Ok(())
}

/// `OpVectorExtractDynamic`.
fn extract_dynamic(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let result = inst.result_type();
    if !matches!(q.opcode(result), O::TypeInt | O::TypeFloat | O::TypeBool) {
        return Err(E::ScalarResult.into());
    }
    let vector = q.operand_type(inst, 2);
    if !matches!(q.opcode(vector), O::TypeVector | O::TypeCooperativeVectorNV) {
        return Err(E::VectorIsVector.into());
    }
    if q.component_type(vector) != result {
        return Err(E::VectorComponentIsResult.into());
    }
    let index = q.operand_type(inst, 3);
    if index == 0 || !q.is_int_scalar_type(index) {
        return Err(E::IndexIntScalar.into());
    }
    Ok(())
}

/// `OpVectorInsertDynamic`.
fn insert_dynamic(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let result = inst.result_type();
    if !matches!(q.opcode(result), O::TypeVector | O::TypeCooperativeVectorNV) {
        return Err(E::VectorResult.into());
    }
    if q.operand_type(inst, 2) != result {
        return Err(E::VectorIsResult.into());
    }
    if q.component_type(result) != q.operand_type(inst, 3) {
        return Err(E::ComponentIsResultComponent.into());
    }
    if !q.is_int_scalar_type(q.operand_type(inst, 4)) {
        return Err(E::IndexIntScalar.into());
    }
    Ok(())
}

/// The length of an array type whose length is known: `None` for a spec constant
/// (the rules skip the bounds then), 0 when it is not an integer constant.
fn array_length(q: &Query<'_>, array: u32) -> Option<u64> {
    let length = q.word(array, 3).unwrap_or(0);
    if is_spec_constant(q.opcode(length)) {
        return None;
    }
    Some(q.constant_u64(length).unwrap_or(0))
}

/// `OpCompositeConstruct`, but for 8- and 16-bit types.
fn construct(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let count = inst.operands.len();
    let result = inst.result_type();
    let constituents = || (2..count).map(|i| q.operand_type(inst, i));
    match q.opcode(result) {
        op @ (O::TypeVector | O::TypeCooperativeVectorNV) => {
            let mut expected = q.dimension(result);
            let component = q.component_type(result);
            let mut known = true;
            if op == O::TypeVector {
                if count <= 3 {
                    return Err(E::TwoConstituents.into());
                }
            } else {
                let (_, constant, value) = q.int32_if_const(q.word(result, 3).unwrap_or(0));
                known = constant;
                expected = value;
            }
            let mut given = 0u32;
            for t in constituents() {
                if t == component {
                    given = given.wrapping_add(1);
                } else {
                    if q.opcode(t) != O::TypeVector || q.component_type(t) != component {
                        return Err(E::ConstituentsScalarsOrVectors.into());
                    }
                    given = given.wrapping_add(q.dimension(t));
                }
            }
            if known && expected != given {
                return Err(E::ComponentCount.into());
            }
        }
        O::TypeMatrix => {
            let (_, columns, column, _) = q.matrix_info(result).unwrap_or((0, 0, 0, 0));
            if columns as usize + 2 != count {
                return Err(E::ColumnCount.into());
            }
            if constituents().any(|t| t != column) {
                return Err(E::ConstituentIsColumn.into());
            }
        }
        O::TypeArray => {
            let Some(length) = array_length(q, result) else {
                return Ok(());
            };
            if length.checked_add(2) != Some(count as u64) {
                return Err(E::ElementCount.into());
            }
            let element = q.word(result, 2).unwrap_or(0);
            if constituents().any(|t| t != element) {
                return Err(E::ConstituentIsElement.into());
            }
        }
        O::TypeStruct => {
            let members = q.struct_members(result);
            if members.len() + 2 != count {
                return Err(E::MemberCount.into());
            }
            if constituents().zip(members).any(|(t, &m)| t != m) {
                return Err(E::ConstituentIsMember.into());
            }
        }
        op @ (O::TypeCooperativeMatrixKHR | O::TypeCooperativeMatrixNV) => {
            if count != 3 {
                return Err(Fault::from(if op == O::TypeCooperativeMatrixKHR {
                    E::OneConstituent
                } else {
                    E::SingleConstituent
                }));
            }
            if q.operand_type(inst, 2) != q.word(result, 2).unwrap_or(0) {
                return Err(E::ConstituentIsComponent.into());
            }
        }
        _ => return Err(E::CompositeResult.into()),
    }
    Ok(())
}

/// `GetExtractInsertValueType`: the type an `OpCompositeExtract` or
/// `OpCompositeInsert` reaches through its indexes.
fn indexed_type(q: &Query<'_>, inst: &Inst<'_>) -> Result<u32, Fault> {
    let op = inst.opcode;
    let first = if op == O::CompositeExtract { 4 } else { 5 };
    let indexes = inst.words.get(first..).unwrap_or(&[]);
    if indexes.is_empty() {
        return Err(Fault::from(E::NoIndexes { opcode: op }));
    }
    if indexes.len() > 255 {
        return Err(Fault::from(E::TooManyIndexes {
            opcode: op,
            count: indexes.len(),
        }));
    }
    let mut member = inst
        .words
        .get(first - 1)
        .map_or(0, |&composite| q.type_of(composite));
    if member == 0 {
        return Err(E::NotComposite.into());
    }
    for &index in indexes {
        let Some(def) = q.def(member) else {
            return Err(E::NonCompositeReached.into());
        };
        let w = def.words();
        let at = |i: usize| w.get(i).copied().unwrap_or(0);
        match def.opcode() {
            O::TypeVector => {
                if index >= at(3) {
                    return Err(Fault::from(E::VectorIndex { size: at(3), index }));
                }
                member = at(2);
            }
            O::TypeMatrix => {
                if index >= at(3) {
                    return Err(Fault::from(E::MatrixIndex {
                        columns: at(3),
                        index,
                    }));
                }
                member = at(2);
            }
            O::TypeArray => {
                if let Some(size) = array_length(q, member) {
                    if u64::from(index) >= size {
                        return Err(Fault::from(E::ArrayIndex { size, index }));
                    }
                }
                member = at(2);
            }
            O::TypeRuntimeArray
            | O::TypeNodePayloadArrayAMDX
            | O::TypeCooperativeVectorNV
            | O::TypeCooperativeMatrixKHR
            | O::TypeCooperativeMatrixNV => member = at(2),
            O::TypeStruct => {
                let members = w.len().saturating_sub(2);
                if index as usize >= members {
                    return Err(Fault::from(E::StructIndex {
                        index,
                        id: Id(member),
                        members,
                        largest: members.wrapping_sub(1),
                    }));
                }
                member = at(index as usize + 2);
            }
            _ => return Err(E::NonCompositeReached.into()),
        }
    }
    Ok(member)
}

/// `OpTranspose`, but for 16-bit floats.
fn transpose(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let Some((rows, columns, _, component)) = q.matrix_info(inst.result_type()) else {
        return Err(E::MatrixResult.into());
    };
    let Some((m_rows, m_columns, _, m_component)) = q.matrix_info(q.operand_type(inst, 2)) else {
        return Err(E::MatrixOperand.into());
    };
    if component != m_component {
        return Err(E::TransposeComponents.into());
    }
    if rows != m_columns || columns != m_rows {
        return Err(E::TransposeShape.into());
    }
    Ok(())
}

/// `OpVectorShuffle`, but for 8- and 16-bit types.
fn shuffle(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let result = inst.result_type();
    let found = q.opcode(result);
    if found != O::TypeVector {
        return Err(Fault::from(E::ShuffleResult { found }));
    }
    let components = inst.operands.len().saturating_sub(4);
    if q.word(result, 3) != u32::try_from(components).ok() {
        return Err(Fault::from(E::ShuffleCount {
            result_type: Id(result),
        }));
    }
    let v1 = q.operand_type(inst, 2);
    let v2 = q.operand_type(inst, 3);
    if q.opcode(v1) != O::TypeVector {
        return Err(E::Vector1Type.into());
    }
    if q.opcode(v2) != O::TypeVector {
        return Err(E::Vector2Type.into());
    }
    let component = q.word(result, 2);
    if q.word(v1, 2) != component {
        return Err(E::Vector1Component.into());
    }
    if q.word(v2, 2) != component {
        return Err(E::Vector2Component.into());
    }
    let size = q
        .word(v1, 3)
        .unwrap_or(0)
        .wrapping_add(q.word(v2, 3).unwrap_or(0));
    for i in 4..inst.operands.len() {
        let index = inst.word(i);
        if index != u32::MAX && index >= size {
            return Err(Fault::from(E::ShuffleIndex { index, size }));
        }
    }
    Ok(())
}

/// How many elements and members [`logically_match`] compares for one pair of types
/// before it gives up and answers that they match: spirv-val compares without limit,
/// but a module needs huge types to reach this, and without it a module of many
/// copies between such types would take time quadratic in its size.
const MATCH_BUDGET: usize = 1 << 12;

/// `LogicallyMatch`: two arrays or structs whose elements or members are the same
/// types or logically match, pair by pair; with `decorations`, every pair compared
/// also has each of `rhs`'s decorations among `lhs`'s.
pub(in crate::validate) fn logically_match(
    q: &Query<'_>,
    lhs: u32,
    rhs: u32,
    decorations: bool,
) -> bool {
    let mut seen = BTreeSet::new();
    let mut pending = Vec::from([(lhs, rhs)]);
    let mut steps = 0usize;
    let (mut left, mut right) = (Vec::new(), Vec::new());
    while let Some((l, r)) = pending.pop() {
        if !seen.insert((l, r)) {
            continue;
        }
        let (Some(ld), Some(rd)) = (q.def(l), q.def(r)) else {
            return false;
        };
        if ld.opcode() != rd.opcode() {
            return false;
        }
        let (lw, rw) = (ld.words(), rd.words());
        steps += lw.len();
        if steps > MATCH_BUDGET {
            return true;
        }
        if decorations && !decorations_include(q, l, r, &mut left, &mut right) {
            return false;
        }
        match ld.opcode() {
            O::TypeArray => {
                if lw.get(3) != rw.get(3) {
                    return false;
                }
                let (le, re) = (lw.get(2).copied(), rw.get(2).copied());
                if le != re {
                    pending.push((le.unwrap_or(0), re.unwrap_or(0)));
                }
            }
            O::TypeStruct => {
                if lw.len() != rw.len() {
                    return false;
                }
                for (&a, &b) in lw.iter().zip(rw).skip(2) {
                    if a != b {
                        pending.push((a, b));
                    }
                }
            }
            _ => return false,
        }
    }
    true
}

/// Whether each decoration of `rhs` is one of `lhs`'s (member, kind and parameters),
/// as spirv-val compares its decoration sets; `left` and `right` are scratch space.
pub(in crate::validate) fn decorations_include<'m>(
    q: &Query<'m>,
    lhs: u32,
    rhs: u32,
    left: &mut Vec<crate::validate::validation_state::Dec<'m>>,
    right: &mut Vec<crate::validate::validation_state::Dec<'m>>,
) -> bool {
    q.decorations.all(lhs, left);
    q.decorations.all(rhs, right);
    right.iter().all(|d| left.contains(d))
}

/// What this family checks (see [`coverage`](crate::validate::coverage)).
pub(crate) const COVERAGE: crate::validate::coverage::Family = crate::validate::coverage::Family {
    opcodes: {
        use crate::spv::Opcode as O;
        &[
            O::VectorExtractDynamic,
            O::VectorInsertDynamic,
            O::VectorShuffle,
            O::CompositeConstruct,
            O::CompositeExtract,
            O::CompositeInsert,
            O::CopyObject,
            O::Transpose,
            O::CopyLogical,
            O::CompositeConstructCoopMatQCOM,
            O::CompositeExtractCoopMatQCOM,
            O::ExtractSubArrayQCOM,
        ]
    },
    ..crate::validate::coverage::Family::new("composites", "validate_composites.cpp")
};
