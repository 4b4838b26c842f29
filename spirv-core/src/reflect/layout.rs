//! Declared sizes of structs in memory, from their `Offset`, `ArrayStride` and
//! `MatrixStride` decorations: the member with the highest offset plus its size.
//! Sizes are computed once, in declaration order, so nested structs need no recursion,
//! and kept in one word per struct.

use super::{Reflection, Type, Value};
use crate::spv;
use crate::types::Id;
use alloc::collections::BTreeMap;
use core::fmt;

/// Why a struct has no declared size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum LayoutError {
    /// The struct has no members.
    Empty {
        /// The struct.
        ty: Id,
    },
    /// A member has no `Offset`.
    MissingOffset {
        /// The struct.
        ty: Id,
        /// The member.
        member: u32,
    },
    /// An array member's type has no `ArrayStride`.
    MissingArrayStride {
        /// The array type.
        ty: Id,
    },
    /// A matrix member has no `MatrixStride`, or neither `RowMajor` nor `ColMajor`.
    MissingMatrixLayout {
        /// The struct.
        ty: Id,
        /// The member.
        member: u32,
    },
    /// An array's length is not a computable constant.
    UnknownLength {
        /// The array type.
        ty: Id,
    },
    /// A member's type has no size in memory (bool, image, sampler, …) or is not
    /// declared.
    Opaque {
        /// The member's type.
        ty: Id,
    },
}

impl fmt::Display for LayoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LayoutError::Empty { ty } => write!(f, "struct {ty} has no members"),
            LayoutError::MissingOffset { ty, member } => {
                write!(f, "member {member} of struct {ty} has no Offset")
            }
            LayoutError::MissingArrayStride { ty } => {
                write!(f, "array type {ty} has no ArrayStride")
            }
            LayoutError::MissingMatrixLayout { ty, member } => write!(
                f,
                "matrix member {member} of struct {ty} lacks MatrixStride or RowMajor/ColMajor"
            ),
            LayoutError::UnknownLength { ty } => {
                write!(
                    f,
                    "array type {ty} has a length that is not a computable constant"
                )
            }
            LayoutError::Opaque { ty } => write!(f, "type {ty} has no size in memory"),
        }
    }
}

/// Every struct's declared size or the reason it has none, one word per struct: a
/// module of many small structs (a 12-byte `OpTypeStruct` each) would otherwise hold a
/// 24-byte record and a dense index entry per struct beside its type record.
///
/// A word below 2⁶³ is a size. Above, bits 32–39 say which [`LayoutError`] and bits
/// 0–31 carry its one number; the struct's own id is the error's `ty` where the error
/// names the struct itself, and an error that came from a nested struct names that
/// struct, whose word holds the error (one step: the nested struct's word is its own
/// error, never another hand-over). Sizes of 2⁶³ and more (arrays of absurd lengths)
/// are kept aside.
#[derive(Debug, Default)]
pub(super) struct StructSizes {
    /// By id, for ids below the reflection's dense cap ([`ABSENT`] where no struct).
    dense: crate::__private::Vec<u64>,
    /// Ids at or above the cap.
    sparse: BTreeMap<u32, u64>,
    /// Sizes of 2⁶³ and more, by struct.
    big: BTreeMap<u32, u64>,
}

/// No struct, or not computed yet.
const ABSENT: u64 = u64::MAX;
const ERROR: u64 = 1 << 63;
const EMPTY: u64 = 1;
const MISSING_OFFSET: u64 = 2;
const MISSING_MATRIX_LAYOUT: u64 = 3;
const MISSING_ARRAY_STRIDE: u64 = 4;
const UNKNOWN_LENGTH: u64 = 5;
const OPAQUE: u64 = 6;
/// The error of the struct in the low bits (its own).
const NESTED: u64 = 7;
/// The size is in [`StructSizes::big`].
const BIG: u64 = 8;

fn error_word(kind: u64, value: u32) -> u64 {
    ERROR | (kind << 32) | u64::from(value)
}

impl StructSizes {
    fn word(&self, id: u32) -> u64 {
        match self.dense.get(id as usize) {
            Some(&w) => w,
            None => self.sparse.get(&id).copied().unwrap_or(ABSENT),
        }
    }

    /// The size of struct `st` as computed so far (`Opaque` if it is not, or not yet).
    fn get(&self, st: Id) -> Result<u64, LayoutError> {
        let w = self.word(st.0);
        if w == ABSENT {
            return Err(LayoutError::Opaque { ty: st });
        }
        if w & ERROR == 0 {
            return Ok(w);
        }
        let (kind, value) = ((w & !ERROR) >> 32, w as u32);
        match kind {
            BIG => Ok(self.big.get(&st.0).copied().unwrap_or(0)),
            NESTED => match self.word(value) {
                w if w != ABSENT && w & ERROR != 0 => {
                    Err(own_error((w & !ERROR) >> 32, w as u32, Id(value)))
                }
                _ => Err(LayoutError::Opaque { ty: Id(value) }),
            },
            _ => Err(own_error(kind, value, st)),
        }
    }

    /// Records the result of struct `st`; `nested` is the struct whose result an error
    /// came from, if it came from one.
    fn set(&mut self, st: Id, result: Result<u64, LayoutError>, nested: Option<Id>) {
        let w = match result {
            Ok(size) if size & ERROR == 0 => size,
            Ok(size) => {
                self.big.insert(st.0, size);
                error_word(BIG, 0)
            }
            Err(e) => match nested.map(|n| (n, self.word(n.0))) {
                // The nested struct's own error: name it. (Its word names the error's
                // struct already if it handed an error on itself.)
                Some((n, w)) if w != ABSENT && w & ERROR != 0 => match (w & !ERROR) >> 32 {
                    EMPTY | MISSING_OFFSET | MISSING_MATRIX_LAYOUT => error_word(NESTED, n.0),
                    _ => w,
                },
                _ => match e {
                    LayoutError::Empty { .. } => error_word(EMPTY, 0),
                    LayoutError::MissingOffset { member, .. } => error_word(MISSING_OFFSET, member),
                    LayoutError::MissingMatrixLayout { member, .. } => {
                        error_word(MISSING_MATRIX_LAYOUT, member)
                    }
                    LayoutError::MissingArrayStride { ty } => {
                        error_word(MISSING_ARRAY_STRIDE, ty.0)
                    }
                    LayoutError::UnknownLength { ty } => error_word(UNKNOWN_LENGTH, ty.0),
                    LayoutError::Opaque { ty } => error_word(OPAQUE, ty.0),
                },
            },
        };
        // The dense part covers exactly the struct ids below the cap.
        match self.dense.get_mut(st.0 as usize) {
            Some(slot) => *slot = w,
            None => {
                self.sparse.insert(st.0, w);
            }
        }
    }
}

/// The error a struct's word holds for itself (`st`).
fn own_error(kind: u64, value: u32, st: Id) -> LayoutError {
    match kind {
        EMPTY => LayoutError::Empty { ty: st },
        MISSING_OFFSET => LayoutError::MissingOffset {
            ty: st,
            member: value,
        },
        MISSING_MATRIX_LAYOUT => LayoutError::MissingMatrixLayout {
            ty: st,
            member: value,
        },
        MISSING_ARRAY_STRIDE => LayoutError::MissingArrayStride { ty: Id(value) },
        UNKNOWN_LENGTH => LayoutError::UnknownLength { ty: Id(value) },
        _ => LayoutError::Opaque { ty: Id(value) },
    }
}

/// The declared size of struct `st`.
pub(super) fn declared_struct_size(r: &Reflection<'_>, st: Id) -> Result<u64, LayoutError> {
    r.struct_sizes.get(st)
}

/// Computes every struct's declared size, in declaration order: a member struct
/// declared later (or the struct itself) has no size yet, so nested structs need no
/// recursion and a cycle ends.
pub(super) fn compute(r: &mut Reflection<'_>) {
    let cap = r.cap;
    // The dense part just reaches the highest struct id below the cap.
    let top = (r.types.iter())
        .filter(|(id, t)| matches!(t, Type::Struct { .. }) && (id.0 as usize) < cap)
        .map(|(id, _)| id.0 as usize + 1)
        .max()
        .unwrap_or(0);
    let mut sizes = StructSizes::default();
    sizes.dense.reserve_exact(top);
    sizes.dense.resize(top, ABSENT);
    for (id, t) in r.types.iter() {
        if let Type::Struct { members } = t {
            let (size, nested) = struct_size(r, &sizes, id, members);
            sizes.set(id, size, nested);
        }
    }
    r.struct_sizes = sizes;
}

/// The size of struct `st`, and the member struct an error came from, if one did.
fn struct_size(
    r: &Reflection<'_>,
    sizes: &StructSizes,
    st: Id,
    members: &[Id],
) -> (Result<u64, LayoutError>, Option<Id>) {
    if members.is_empty() {
        return (Err(LayoutError::Empty { ty: st }), None);
    }
    let mut highest = (0u64, 0usize);
    for i in 0..members.len() {
        let Some(offset) = r.member(st, i as u32).and_then(|m| m.decorations.offset) else {
            let e = LayoutError::MissingOffset {
                ty: st,
                member: i as u32,
            };
            return (Err(e), None);
        };
        if u64::from(offset) > highest.0 {
            highest = (u64::from(offset), i);
        }
    }
    let (offset, i) = highest;
    let t = members[i];
    if let Some(Type::Struct { .. }) = r.ty(t) {
        let size = sizes.get(t).map(|s| offset.wrapping_add(s));
        return (size, Some(t));
    }
    // As the release build always did: a size past u64 wraps.
    let size = member_size(r, sizes, st, i as u32, t).map(|s| offset.wrapping_add(s));
    (size, None)
}

/// The size of member `index` (of type `t`) of struct `st`.
fn member_size(
    r: &Reflection<'_>,
    sizes: &StructSizes,
    st: Id,
    index: u32,
    t: Id,
) -> Result<u64, LayoutError> {
    let member = r.member(st, index).map(|m| &m.decorations);
    match r.ty(t).ok_or(LayoutError::Opaque { ty: t })? {
        Type::Pointer {
            storage: spv::StorageClass::PhysicalStorageBuffer,
            ..
        } => Ok(8),
        Type::Array { length, .. } => {
            let stride = r
                .decorations(t)
                .and_then(|d| d.array_stride)
                .ok_or(LayoutError::MissingArrayStride { ty: t })?;
            let n = r
                .value(*length)
                .and_then(Value::as_u64)
                .ok_or(LayoutError::UnknownLength { ty: t })?;
            Ok(u64::from(stride).saturating_mul(n))
        }
        Type::RuntimeArray { .. } => Ok(0),
        Type::Struct { .. } => sizes.get(t),
        &Type::Int { width, .. } | &Type::Float { width, .. } => Ok(u64::from(width / 8)),
        &Type::Vector { component, count } => {
            Ok(u64::from(count) * u64::from(scalar_width(r, component)? / 8))
        }
        &Type::Matrix { column, columns } => {
            let rows = match r.ty(column) {
                Some(Type::Vector { count, .. }) => *count,
                _ => return Err(LayoutError::Opaque { ty: column }),
            };
            let missing = LayoutError::MissingMatrixLayout {
                ty: st,
                member: index,
            };
            let stride = u64::from(member.and_then(|d| d.matrix_stride).ok_or(missing)?);
            let has = |d| member.is_some_and(|m| m.has(d));
            if has(spv::Decoration::RowMajor) {
                Ok(stride * u64::from(rows))
            } else if has(spv::Decoration::ColMajor) {
                Ok(stride * u64::from(columns))
            } else {
                Err(missing)
            }
        }
        _ => Err(LayoutError::Opaque { ty: t }),
    }
}

fn scalar_width(r: &Reflection<'_>, t: Id) -> Result<u32, LayoutError> {
    match r.ty(t) {
        Some(&Type::Int { width, .. } | &Type::Float { width, .. }) => Ok(width),
        _ => Err(LayoutError::Opaque { ty: t }),
    }
}
