//! spirv-val's composites pass (`CompositesPass` in `validate_composites.cpp`): the
//! result and operand types of `OpVectorExtractDynamic`, `OpVectorInsertDynamic`,
//! `OpVectorShuffle`, `OpCompositeConstruct`, `OpCompositeExtract`,
//! `OpCompositeInsert`, `OpCopyObject`, `OpTranspose` and `OpCopyLogical`, and, in
//! shaders, no 8- or 16-bit types without their capabilities; the Qualcomm
//! cooperative-matrix instructions' rules are in `qcom.rs`.

use super::Query;
use super::operations::{CompositeRule as C, OperationError as E, fault, fixed};
use super::{Fault, Inst, qcom};
use crate::__private::Vec;
use crate::spirv_tools::is_spec_constant;
use crate::spv::Opcode as O;
use crate::types::Id;
use alloc::collections::{BTreeMap, BTreeSet};

/// What the pass remembers across instructions.
#[derive(Debug, Default)]
pub(super) struct Composites {
    /// `LogicallyMatch`'s answers for the type pairs asked so far.
    logical: BTreeMap<(u32, u32), bool>,
}

/// The pass for one instruction.
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>, st: &mut Composites) -> Result<(), Fault> {
    let result = inst.result_type();
    let small = match inst.opcode {
        O::VectorExtractDynamic => {
            extract_dynamic(q, inst)?;
            C::ExtractFromSmallVector
        }
        O::VectorInsertDynamic => {
            insert_dynamic(q, inst)?;
            C::InsertIntoSmallVector
        }
        O::VectorShuffle => {
            shuffle(q, inst)?;
            C::ShuffleSmall
        }
        O::CompositeConstruct => {
            construct(q, inst)?;
            C::ConstructSmall
        }
        O::CompositeExtract => {
            let member = indexed_type(q, inst)?;
            if result != member {
                return Err(fault(E::ExtractType {
                    result: q.opcode(result),
                    member: q.opcode(member),
                }));
            }
            C::ExtractSmall
        }
        O::CompositeInsert => {
            let object = q.operand_type(inst, 2);
            if result != q.operand_type(inst, 3) {
                return Err(fault(E::InsertResultType {
                    opcode: inst.opcode,
                    result_type: Id(result),
                }));
            }
            let member = indexed_type(q, inst)?;
            if object != member {
                return Err(fault(E::InsertObjectType {
                    object: q.opcode(object),
                    member: q.opcode(member),
                }));
            }
            C::InsertSmall
        }
        O::CopyObject => {
            if q.operand_type(inst, 2) != result {
                return Err(fixed(C::CopyType));
            }
            if q.is_void_type(result) {
                return Err(fixed(C::CopyVoid));
            }
            return Ok(());
        }
        O::Transpose => {
            transpose(q, inst)?;
            C::TransposeSmall
        }
        O::CopyLogical => {
            let source = q.operand_type(inst, 2);
            if q.def(source).is_none() || q.def(result).is_none() || source == result {
                return Err(fixed(C::LogicalSameType));
            }
            let matched = *st
                .logical
                .entry((source, result))
                .or_insert_with(|| logically_match(q, source, result));
            if !matched {
                return Err(fixed(C::LogicalMismatch));
            }
            C::CopyLogicalSmall
        }
        O::CompositeConstructCoopMatQCOM => return qcom::construct(q, inst),
        O::CompositeExtractCoopMatQCOM => return qcom::extract(q, inst),
        O::ExtractSubArrayQCOM => return qcom::sub_array(q, inst),
        _ => return Ok(()),
    };
    if q.state.has_capability(crate::spv::Capability::Shader.0) && q.contains_limited_use(result) {
        return Err(fixed(small));
    }
    Ok(())
}

/// `OpVectorExtractDynamic`.
fn extract_dynamic(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let result = inst.result_type();
    if !matches!(q.opcode(result), O::TypeInt | O::TypeFloat | O::TypeBool) {
        return Err(fixed(C::ScalarResult));
    }
    let vector = q.operand_type(inst, 2);
    if !matches!(q.opcode(vector), O::TypeVector | O::TypeCooperativeVectorNV) {
        return Err(fixed(C::VectorIsVector));
    }
    if q.component_type(vector) != result {
        return Err(fixed(C::VectorComponentIsResult));
    }
    let index = q.operand_type(inst, 3);
    if index == 0 || !q.is_int_scalar_type(index) {
        return Err(fixed(C::IndexIntScalar));
    }
    Ok(())
}

/// `OpVectorInsertDynamic`.
fn insert_dynamic(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let result = inst.result_type();
    if !matches!(q.opcode(result), O::TypeVector | O::TypeCooperativeVectorNV) {
        return Err(fixed(C::VectorResult));
    }
    if q.operand_type(inst, 2) != result {
        return Err(fixed(C::VectorIsResult));
    }
    if q.component_type(result) != q.operand_type(inst, 3) {
        return Err(fixed(C::ComponentIsResultComponent));
    }
    if !q.is_int_scalar_type(q.operand_type(inst, 4)) {
        return Err(fixed(C::IndexIntScalar));
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
                    return Err(fixed(C::TwoConstituents));
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
                        return Err(fixed(C::ConstituentsScalarsOrVectors));
                    }
                    given = given.wrapping_add(q.dimension(t));
                }
            }
            if known && expected != given {
                return Err(fixed(C::ComponentCount));
            }
        }
        O::TypeMatrix => {
            let (_, columns, column, _) = q.matrix_info(result).unwrap_or((0, 0, 0, 0));
            if columns as usize + 2 != count {
                return Err(fixed(C::ColumnCount));
            }
            if constituents().any(|t| t != column) {
                return Err(fixed(C::ConstituentIsColumn));
            }
        }
        O::TypeArray => {
            let Some(length) = array_length(q, result) else {
                return Ok(());
            };
            if length.checked_add(2) != Some(count as u64) {
                return Err(fixed(C::ElementCount));
            }
            let element = q.word(result, 2).unwrap_or(0);
            if constituents().any(|t| t != element) {
                return Err(fixed(C::ConstituentIsElement));
            }
        }
        O::TypeStruct => {
            let members = q.struct_members(result);
            if members.len() + 2 != count {
                return Err(fixed(C::MemberCount));
            }
            if constituents().zip(members).any(|(t, &m)| t != m) {
                return Err(fixed(C::ConstituentIsMember));
            }
        }
        op @ (O::TypeCooperativeMatrixKHR | O::TypeCooperativeMatrixNV) => {
            if count != 3 {
                return Err(fixed(if op == O::TypeCooperativeMatrixKHR {
                    C::OneConstituent
                } else {
                    C::SingleConstituent
                }));
            }
            if q.operand_type(inst, 2) != q.word(result, 2).unwrap_or(0) {
                return Err(fixed(C::ConstituentIsComponent));
            }
        }
        _ => return Err(fixed(C::CompositeResult)),
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
        return Err(fault(E::NoIndexes { opcode: op }));
    }
    if indexes.len() > 255 {
        return Err(fault(E::TooManyIndexes {
            opcode: op,
            count: indexes.len(),
        }));
    }
    let mut member = inst
        .words
        .get(first - 1)
        .map_or(0, |&composite| q.type_of(composite));
    if member == 0 {
        return Err(fixed(C::NotComposite));
    }
    for &index in indexes {
        let Some(def) = q.def(member) else {
            return Err(fixed(C::NonCompositeReached));
        };
        let w = def.words();
        let at = |i: usize| w.get(i).copied().unwrap_or(0);
        match def.opcode() {
            O::TypeVector => {
                if index >= at(3) {
                    return Err(fault(E::VectorIndex { size: at(3), index }));
                }
                member = at(2);
            }
            O::TypeMatrix => {
                if index >= at(3) {
                    return Err(fault(E::MatrixIndex {
                        columns: at(3),
                        index,
                    }));
                }
                member = at(2);
            }
            O::TypeArray => {
                if let Some(size) = array_length(q, member) {
                    if u64::from(index) >= size {
                        return Err(fault(E::ArrayIndex { size, index }));
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
                    return Err(fault(E::StructIndex {
                        index,
                        id: Id(member),
                        members,
                    }));
                }
                member = at(index as usize + 2);
            }
            _ => return Err(fixed(C::NonCompositeReached)),
        }
    }
    Ok(member)
}

/// `OpTranspose`, but for 16-bit floats.
fn transpose(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let Some((rows, columns, _, component)) = q.matrix_info(inst.result_type()) else {
        return Err(fixed(C::MatrixResult));
    };
    let Some((m_rows, m_columns, _, m_component)) = q.matrix_info(q.operand_type(inst, 2)) else {
        return Err(fixed(C::MatrixOperand));
    };
    if component != m_component {
        return Err(fixed(C::TransposeComponents));
    }
    if rows != m_columns || columns != m_rows {
        return Err(fixed(C::TransposeShape));
    }
    Ok(())
}

/// `OpVectorShuffle`, but for 8- and 16-bit types.
fn shuffle(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let result = inst.result_type();
    let found = q.opcode(result);
    if found != O::TypeVector {
        return Err(fault(E::ShuffleResult { found }));
    }
    let components = inst.operands.len().saturating_sub(4);
    if q.word(result, 3) != u32::try_from(components).ok() {
        return Err(fault(E::ShuffleCount {
            result_type: Id(result),
        }));
    }
    let v1 = q.operand_type(inst, 2);
    let v2 = q.operand_type(inst, 3);
    if q.opcode(v1) != O::TypeVector {
        return Err(fixed(C::Vector1Type));
    }
    if q.opcode(v2) != O::TypeVector {
        return Err(fixed(C::Vector2Type));
    }
    let component = q.word(result, 2);
    if q.word(v1, 2) != component {
        return Err(fixed(C::Vector1Component));
    }
    if q.word(v2, 2) != component {
        return Err(fixed(C::Vector2Component));
    }
    let size = q
        .word(v1, 3)
        .unwrap_or(0)
        .wrapping_add(q.word(v2, 3).unwrap_or(0));
    for i in 4..inst.operands.len() {
        let index = inst.word(i);
        if index != u32::MAX && index >= size {
            return Err(fault(E::ShuffleIndex { index, size }));
        }
    }
    Ok(())
}

/// How many elements and members [`logically_match`] compares for one pair of types
/// before it gives up and answers that they match: spirv-val compares without limit,
/// but a module needs huge types to reach this, and without it a module of many
/// copies between such types would take time quadratic in its size.
const MATCH_BUDGET: usize = 1 << 12;

/// `LogicallyMatch` (without decorations): two arrays or structs whose elements or
/// members are the same types or logically match, pair by pair.
fn logically_match(q: &Query<'_>, lhs: u32, rhs: u32) -> bool {
    let mut seen = BTreeSet::new();
    let mut pending = Vec::from([(lhs, rhs)]);
    let mut steps = 0usize;
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
