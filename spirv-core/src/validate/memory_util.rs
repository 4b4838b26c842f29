//! What the memory and function passes ask of the module beyond [`Query`] (whose
//! decoration registry answers `HasDecoration`): the addressing and memory models, and
//! walks over a type's constituents (`ContainsType`, `GetLargestScalarType`). Walks
//! keep their own stack and a set of types seen, so that neither the depth nor the
//! sharing of a module's types costs more than its size.

use super::Query;
use crate::__private::Vec;
use crate::module::InstRef;
use crate::spv::{self, Opcode as O};
use alloc::collections::BTreeSet;

/// The operand words of `OpMemoryModel`: addressing model and memory model, as
/// spirv-val holds them (`Logical` and `Simple` before one is seen).
pub(super) fn models(q: &Query<'_>) -> (u32, u32) {
    q.module
        .instructions()
        .find(|i| i.opcode() == O::MemoryModel)
        .map_or((0, 0), |i| {
            let w = i.words();
            (
                w.get(1).copied().unwrap_or(0),
                w.get(2).copied().unwrap_or(0),
            )
        })
}

/// The types a type is built from, as `ContainsType` descends: element, component,
/// sampled or image type; a pointer's pointee (when `all`, and not through a forward
/// pointer); a struct's members; a function type's return and parameter types (when
/// `all`).
fn constituents<'a>(q: &Query<'a>, t: &InstRef<'a>, all: bool) -> &'a [u32] {
    let w = t.words();
    let id = w.get(1).copied().unwrap_or(0);
    match t.opcode() {
        O::TypeArray
        | O::TypeRuntimeArray
        | O::TypeVector
        | O::TypeMatrix
        | O::TypeImage
        | O::TypeSampledImage
        | O::TypeCooperativeMatrixNV
        | O::TypeCooperativeMatrixKHR
        | O::TypeCooperativeVectorNV => w.get(2..3).unwrap_or(&[]),
        O::TypePointer if all && !q.state.forward_pointers.contains(&id) => {
            w.get(3..4).unwrap_or(&[])
        }
        O::TypeStruct => w.get(2..).unwrap_or(&[]),
        O::TypeFunction if all => w.get(2..).unwrap_or(&[]),
        _ => &[],
    }
}

/// `ContainsType(id, f, all)`: whether `id` or a type it is built from satisfies `f`.
pub(super) fn contains_type<'a>(
    q: &Query<'a>,
    id: u32,
    all: bool,
    f: &dyn Fn(&InstRef<'a>) -> bool,
) -> bool {
    // Most types are built from a few others: the first few ids seen are kept in an
    // array, searched in turn; only a larger type makes a set.
    let mut few = [0u32; 8];
    let mut n = 0;
    let mut seen = BTreeSet::new();
    let mut stack = Vec::from([id]);
    while let Some(id) = stack.pop() {
        let new = if n < few.len() {
            let known = few[..n].contains(&id);
            if !known {
                few[n] = id;
                n += 1;
            }
            !known
        } else {
            if seen.is_empty() {
                seen.extend(few);
            }
            seen.insert(id)
        };
        if !new {
            continue;
        }
        let Some(t) = q.def(id) else { continue };
        if f(&t) {
            return true;
        }
        stack.extend(constituents(q, &t, all).iter().rev());
    }
    false
}

/// `ContainsSizedIntOrFloatType`: an `OpTypeInt` or (not bfloat16) `OpTypeFloat` of
/// this width within `id`.
pub(super) fn contains_sized(q: &Query<'_>, id: u32, float: bool, width: u32) -> bool {
    let op = if float { O::TypeFloat } else { O::TypeInt };
    contains_type(q, id, true, &|t| {
        t.opcode() == op && !(float && t.words().len() > 3) && t.words().get(2) == Some(&width)
    })
}

/// `ContainsLimitedUseIntOrFloatType`: an 8- or 16-bit type whose capability is not
/// declared.
pub(super) fn contains_limited_use(q: &Query<'_>, id: u32) -> bool {
    let has = |c: spv::Capability| q.state.has_capability(c.0);
    (!has(spv::Capability::Int16) && contains_sized(q, id, false, 16))
        || (!has(spv::Capability::Int8) && contains_sized(q, id, false, 8))
        || (!has(spv::Capability::Float16) && contains_sized(q, id, true, 16))
}

/// `ContainsRuntimeArray`.
pub(super) fn contains_runtime_array(q: &Query<'_>, id: u32) -> bool {
    contains_type(q, id, false, &|t| t.opcode() == O::TypeRuntimeArray)
}

/// `GetLargestScalarType`: the largest scalar's size in bytes, through structs,
/// arrays and vectors.
pub(super) fn largest_scalar(q: &Query<'_>, id: u32) -> u32 {
    let mut seen = BTreeSet::new();
    let mut stack = Vec::from([id]);
    let mut largest = 0;
    while let Some(id) = stack.pop() {
        if !seen.insert(id) {
            continue;
        }
        let Some(t) = q.def(id) else { continue };
        let w = t.words();
        match t.opcode() {
            O::TypeStruct => stack.extend_from_slice(w.get(2..).unwrap_or(&[])),
            O::TypeArray | O::TypeVector => stack.extend_from_slice(w.get(2..3).unwrap_or(&[])),
            _ => largest = largest.max(q.bit_width(id) / 8),
        }
    }
    largest
}

/// `TracePointer`: back through access chains and copies to the base pointer.
pub(super) fn trace_pointer<'a>(q: &Query<'a>, inst: InstRef<'a>) -> Option<InstRef<'a>> {
    let mut at = inst;
    // Each step goes to an earlier definition, so the module's length bounds it.
    for _ in 0..=q.module.len() {
        match at.opcode() {
            O::AccessChain
            | O::InBoundsAccessChain
            | O::PtrAccessChain
            | O::InBoundsPtrAccessChain
            | O::CopyObject => at = q.def(at.words().get(3).copied().unwrap_or(0))?,
            _ => return Some(at),
        }
    }
    None
}

pub(super) use super::constants::int32_if_const;

pub(super) use crate::spirv_tools::is_spec_constant;

/// The grammar's name of a storage class (`lookupOperandName`).
pub(super) fn storage_class_name(sc: u32) -> &'static str {
    spv::kinds::StorageClass
        .enumerant(sc)
        .map_or("Unknown", |e| e.name)
}
