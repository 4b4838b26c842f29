//! The questions `ValidationState_t` answers about types (`GetComponentType`,
//! `GetDimension`, `GetBitWidth`, `IsIntScalarType`, …), with its answers, asked of a
//! [`Query`].
//!
//! spirv-val asserts where a question has no answer (a component type of a type with
//! none); here such questions answer 0 or false, since a module that reaches these
//! rules has passed the id rules but may still be malformed in other ways.

// Each rule family asks a part of these questions.
#![allow(dead_code)]

use super::Query;
use crate::spv::{self, Opcode as O};

/// How deep [`Query::component_type`] and the like follow a chain (value, type,
/// matrix, vector): SPIR-V's own types need three steps; a cycle stops here.
const MAX_STEPS: usize = 8;

impl<'a> Query<'a> {
    /// `GetComponentType`: the scalar (or pointer) of a type, or of a value's type.
    pub(crate) fn component_type(&self, id: u32) -> u32 {
        let mut id = id;
        for _ in 0..MAX_STEPS {
            match self.opcode(id) {
                O::TypeFloat
                | O::TypeInt
                | O::TypeBool
                | O::TypePointer
                | O::TypeUntypedPointerKHR => {
                    return id;
                }
                O::TypeArray
                | O::TypeRuntimeArray
                | O::TypeVector
                | O::TypeCooperativeMatrixNV
                | O::TypeCooperativeMatrixKHR
                | O::TypeCooperativeVectorNV
                | O::TypeTensorARM => return self.word(id, 2).unwrap_or(0),
                O::TypeMatrix => id = self.word(id, 2).unwrap_or(0),
                _ => match self.type_of(id) {
                    0 => return 0,
                    t => id = t,
                },
            }
        }
        0
    }

    /// `GetDimension`: 1 for scalars, the component or column count of vectors and
    /// matrices, 0 for cooperative types and when unknown.
    pub(crate) fn dimension(&self, id: u32) -> u32 {
        let mut id = id;
        for _ in 0..MAX_STEPS {
            match self.opcode(id) {
                O::TypeFloat | O::TypeInt | O::TypeBool => return 1,
                O::TypeVector | O::TypeMatrix => return self.word(id, 3).unwrap_or(0),
                O::TypeCooperativeMatrixNV
                | O::TypeCooperativeMatrixKHR
                | O::TypeCooperativeVectorNV => {
                    return 0;
                }
                _ => match self.type_of(id) {
                    0 => return 0,
                    t => id = t,
                },
            }
        }
        0
    }

    /// `GetBitWidth`: the width of the component type (1 for bool, 64 for a
    /// PhysicalStorageBuffer pointer), 0 when unknown.
    pub(crate) fn bit_width(&self, id: u32) -> u32 {
        let c = self.component_type(id);
        match self.opcode(c) {
            O::TypeFloat | O::TypeInt => self.word(c, 2).unwrap_or(0),
            O::TypeBool => 1,
            O::TypePointer | O::TypeUntypedPointerKHR => 64,
            _ => 0,
        }
    }

    pub(crate) fn is_void_type(&self, id: u32) -> bool {
        self.opcode(id) == O::TypeVoid
    }

    pub(crate) fn is_float_scalar_type(&self, id: u32) -> bool {
        self.opcode(id) == O::TypeFloat
    }

    pub(crate) fn is_int_scalar_type(&self, id: u32) -> bool {
        self.opcode(id) == O::TypeInt
    }

    /// `IsIntScalarType(id, width)`.
    pub(crate) fn is_int_scalar_type_of_width(&self, id: u32, width: u32) -> bool {
        self.is_int_scalar_type(id) && self.word(id, 2) == Some(width)
    }

    pub(crate) fn is_bool_scalar_type(&self, id: u32) -> bool {
        self.opcode(id) == O::TypeBool
    }

    pub(crate) fn is_scalar_type(&self, id: u32) -> bool {
        self.is_int_scalar_type(id) || self.is_float_scalar_type(id) || self.is_bool_scalar_type(id)
    }

    /// Whether `id` is a vector whose component `is` accepts.
    fn is_vector_of(&self, id: u32, is: impl Fn(&Self, u32) -> bool) -> bool {
        self.opcode(id) == O::TypeVector && is(self, self.component_type(id))
    }

    pub(crate) fn is_float_vector_type(&self, id: u32) -> bool {
        self.is_vector_of(id, Self::is_float_scalar_type)
    }

    pub(crate) fn is_float_scalar_or_vector_type(&self, id: u32) -> bool {
        self.is_float_scalar_type(id) || self.is_float_vector_type(id)
    }

    pub(crate) fn is_int_vector_type(&self, id: u32) -> bool {
        self.is_vector_of(id, Self::is_int_scalar_type)
    }

    pub(crate) fn is_int_scalar_or_vector_type(&self, id: u32) -> bool {
        self.is_int_scalar_type(id) || self.is_int_vector_type(id)
    }

    /// `IsIntScalarTypeWithSignedness`.
    pub(crate) fn is_int_with_signedness(&self, id: u32, signedness: u32) -> bool {
        self.is_int_scalar_type(id) && self.word(id, 3) == Some(signedness)
    }

    pub(crate) fn is_unsigned_int_scalar_type(&self, id: u32) -> bool {
        self.is_int_with_signedness(id, 0)
    }

    pub(crate) fn is_unsigned_int_vector_type(&self, id: u32) -> bool {
        self.is_vector_of(id, Self::is_unsigned_int_scalar_type)
    }

    pub(crate) fn is_unsigned_int_scalar_or_vector_type(&self, id: u32) -> bool {
        self.is_unsigned_int_scalar_type(id) || self.is_unsigned_int_vector_type(id)
    }

    pub(crate) fn is_signed_int_scalar_type(&self, id: u32) -> bool {
        self.is_int_with_signedness(id, 1)
    }

    pub(crate) fn is_signed_int_vector_type(&self, id: u32) -> bool {
        self.is_vector_of(id, Self::is_signed_int_scalar_type)
    }

    pub(crate) fn is_bool_vector_type(&self, id: u32) -> bool {
        self.is_vector_of(id, Self::is_bool_scalar_type)
    }

    pub(crate) fn is_bool_scalar_or_vector_type(&self, id: u32) -> bool {
        self.is_bool_scalar_type(id) || self.is_bool_vector_type(id)
    }

    /// `IsFloatMatrixType`.
    pub(crate) fn is_float_matrix_type(&self, id: u32) -> bool {
        self.opcode(id) == O::TypeMatrix && self.is_float_scalar_type(self.component_type(id))
    }

    /// `IsPointerType`: `OpTypePointer` or `OpTypeUntypedPointerKHR`.
    pub(crate) fn is_pointer_type(&self, id: u32) -> bool {
        matches!(self.opcode(id), O::TypePointer | O::TypeUntypedPointerKHR)
    }

    /// `GetPointerTypeInfo`: the pointee (0 for an untyped pointer) and the storage
    /// class of a pointer type.
    pub(crate) fn pointer_info(&self, id: u32) -> Option<(u32, spv::StorageClass)> {
        match self.opcode(id) {
            O::TypePointer => Some((
                self.word(id, 3).unwrap_or(0),
                spv::StorageClass(self.word(id, 2).unwrap_or(u32::MAX)),
            )),
            O::TypeUntypedPointerKHR => {
                Some((0, spv::StorageClass(self.word(id, 2).unwrap_or(u32::MAX))))
            }
            _ => None,
        }
    }

    /// `GetMatrixTypeInfo`: rows, columns, column type and component type of a matrix.
    pub(crate) fn matrix_info(&self, id: u32) -> Option<(u32, u32, u32, u32)> {
        if self.opcode(id) != O::TypeMatrix {
            return None;
        }
        let column = self.word(id, 2)?;
        let columns = self.word(id, 3)?;
        if self.opcode(column) != O::TypeVector {
            return None;
        }
        let rows = self.word(column, 3)?;
        let component = self.word(column, 2)?;
        Some((rows, columns, column, component))
    }

    /// `GetStructMemberTypes`: the member types of a struct type.
    pub(crate) fn struct_members(&self, id: u32) -> &'a [u32] {
        match self.def(id) {
            Some(d) if d.opcode() == O::TypeStruct => d.words().get(2..).unwrap_or(&[]),
            _ => &[],
        }
    }

    /// `EvalConstantValUint64`: the value of an integer `OpConstant` or
    /// `OpConstantNull`; `None` for spec constants and everything else.
    pub(crate) fn constant_u64(&self, id: u32) -> Option<u64> {
        let d = self.def(id)?;
        if !self.is_int_scalar_type(self.type_of(id)) {
            return None;
        }
        match d.opcode() {
            O::ConstantNull => Some(0),
            O::Constant => {
                let w = d.words();
                let lo = u64::from(*w.get(3)?);
                Some(lo | w.get(4).map_or(0, |&h| u64::from(h) << 32))
            }
            _ => None,
        }
    }

    /// `EvalConstantValInt64`: as [`Query::constant_u64`], one word sign-extended.
    pub(crate) fn constant_i64(&self, id: u32) -> Option<i64> {
        let d = self.def(id)?;
        let v = self.constant_u64(id)?;
        Some(if d.words().len() == 4 {
            i64::from(v as u32 as i32)
        } else {
            v as i64
        })
    }
}

// --- The operation passes' questions (arithmetics, composites, conversion, bitwise,
// logicals): cooperative types and encodings, as `ValidationState_t` answers them. ---
impl Query<'_> {
    /// `IsCooperativeMatrixType`: either kind of cooperative matrix.
    pub(crate) fn is_cooperative_matrix_type(&self, id: u32) -> bool {
        matches!(
            self.opcode(id),
            O::TypeCooperativeMatrixNV | O::TypeCooperativeMatrixKHR
        )
    }

    /// `IsCooperativeMatrixKHRType`.
    pub(crate) fn is_cooperative_matrix_khr_type(&self, id: u32) -> bool {
        self.opcode(id) == O::TypeCooperativeMatrixKHR
    }

    /// `IsCooperativeVectorNVType`.
    pub(crate) fn is_cooperative_vector_type(&self, id: u32) -> bool {
        self.opcode(id) == O::TypeCooperativeVectorNV
    }

    /// Whether `id` is a cooperative matrix whose component `is` accepts
    /// (`IsFloatCooperativeMatrixType` and its kin).
    pub(crate) fn is_cooperative_matrix_of(
        &self,
        id: u32,
        is: impl Fn(&Self, u32) -> bool,
    ) -> bool {
        self.is_cooperative_matrix_type(id) && is(self, self.word(id, 2).unwrap_or(0))
    }

    /// Whether `id` is a cooperative vector whose component `is` accepts
    /// (`IsFloatCooperativeVectorNVType` and its kin).
    pub(crate) fn is_cooperative_vector_of(
        &self,
        id: u32,
        is: impl Fn(&Self, u32) -> bool,
    ) -> bool {
        self.is_cooperative_vector_type(id) && is(self, self.word(id, 2).unwrap_or(0))
    }

    /// `IsBfloat16ScalarType`: an `OpTypeFloat` with the `BFloat16KHR` encoding.
    pub(crate) fn is_bfloat16_scalar_type(&self, id: u32) -> bool {
        self.opcode(id) == O::TypeFloat && self.word(id, 3) == Some(spv::FPEncoding::BFloat16KHR.0)
    }
}
