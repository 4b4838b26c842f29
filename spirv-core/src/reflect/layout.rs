//! Declared sizes of structs in memory, from their `Offset`, `ArrayStride` and
//! `MatrixStride` decorations: the member with the highest offset plus its size.
//! Sizes are computed once, in declaration order, so nested structs need no recursion.

use super::{Reflection, Type, Value};
use crate::spv;
use crate::types::Id;
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

/// The declared size of struct `st`.
pub(super) fn declared_struct_size(r: &Reflection<'_>, st: Id) -> Result<u64, LayoutError> {
    match r.struct_sizes.get(st.0) {
        Some(result) => *result,
        None => Err(LayoutError::Opaque { ty: st }),
    }
}

/// Computes every struct's declared size, in declaration order. Only the structs' ids
/// are gathered first (their member lists are read in place), so a module of many
/// small structs does not hold its member lists twice.
pub(super) fn compute(r: &mut Reflection<'_>) {
    let structs: crate::__private::Vec<Id> = r
        .types
        .iter()
        .filter_map(|(id, t)| matches!(t, Type::Struct { .. }).then_some(id))
        .collect();
    r.struct_sizes.reserve_exact(structs.len());
    for id in structs {
        let size = match r.types.get(id) {
            Some(Type::Struct { members }) => struct_size(r, id, members),
            _ => continue,
        };
        r.struct_sizes.insert(id.0, size, r.cap);
    }
}

fn struct_size(r: &Reflection<'_>, st: Id, members: &[Id]) -> Result<u64, LayoutError> {
    if members.is_empty() {
        return Err(LayoutError::Empty { ty: st });
    }
    let mut highest = (0u64, 0usize);
    for i in 0..members.len() {
        let offset = r
            .member(st, i as u32)
            .and_then(|m| m.decorations.offset)
            .ok_or(LayoutError::MissingOffset {
                ty: st,
                member: i as u32,
            })?;
        if u64::from(offset) > highest.0 {
            highest = (u64::from(offset), i);
        }
    }
    let (offset, i) = highest;
    Ok(offset + member_size(r, st, i as u32, members[i])?)
}

/// The size of member `index` (of type `t`) of struct `st`.
fn member_size(r: &Reflection<'_>, st: Id, index: u32, t: Id) -> Result<u64, LayoutError> {
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
        Type::Struct { .. } => declared_struct_size(r, t),
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
