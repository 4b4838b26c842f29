//! The types a module declares, one [`Type`] per `OpType*` result, read from the
//! instruction's words.

use crate::__private::Vec;
use crate::spv;
use crate::types::Id;

/// A type declared by an `OpType*` instruction. Ids name the types it is built from.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Type {
    /// `OpTypeVoid`.
    Void,
    /// `OpTypeBool`.
    Bool,
    /// `OpTypeInt`.
    Int {
        /// Width in bits.
        width: u32,
        /// Signedness.
        signed: bool,
    },
    /// `OpTypeFloat`.
    Float {
        /// Width in bits.
        width: u32,
        /// The floating-point encoding, if not IEEE 754.
        encoding: Option<spv::FPEncoding>,
    },
    /// `OpTypeVector`.
    Vector {
        /// The component type.
        component: Id,
        /// Number of components.
        count: u32,
    },
    /// `OpTypeMatrix`.
    Matrix {
        /// The column type (a vector).
        column: Id,
        /// Number of columns.
        columns: u32,
    },
    /// `OpTypeArray`.
    Array {
        /// The element type.
        element: Id,
        /// The constant giving the length.
        length: Id,
    },
    /// `OpTypeRuntimeArray`.
    RuntimeArray {
        /// The element type.
        element: Id,
    },
    /// `OpTypeStruct`.
    Struct {
        /// Member types, in order.
        members: Vec<Id>,
    },
    /// `OpTypeImage`.
    Image(ImageType),
    /// `OpTypeSampledImage`.
    SampledImage {
        /// The image type.
        image: Id,
    },
    /// `OpTypeSampler`.
    Sampler,
    /// `OpTypePointer`.
    Pointer {
        /// Storage class.
        storage: spv::StorageClass,
        /// The pointee type.
        pointee: Id,
    },
    /// `OpTypeForwardPointer` not (yet) followed by its `OpTypePointer`.
    ForwardPointer {
        /// Storage class.
        storage: spv::StorageClass,
    },
    /// `OpTypeFunction`.
    Function {
        /// Return type.
        ret: Id,
        /// Parameter types.
        params: Vec<Id>,
    },
    /// `OpTypeAccelerationStructureKHR`.
    AccelerationStructure,
    /// `OpTypeRayQueryKHR`.
    RayQuery,
    /// Any other `OpType*` (events, pipes, cooperative matrices, vendor types).
    Other {
        /// The opcode that declared it.
        opcode: spv::Opcode,
    },
}

/// The operands of `OpTypeImage`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImageType {
    /// The sampled type (a scalar or void).
    pub sampled_type: Id,
    /// Dimensionality.
    pub dim: spv::Dim,
    /// 0 not a depth image, 1 depth, 2 unknown.
    pub depth: u32,
    /// Arrayed.
    pub arrayed: bool,
    /// Multisampled.
    pub multisampled: bool,
    /// 0 known at run time, 1 used with a sampler, 2 storage (read/write).
    pub sampled: u32,
    /// Texel format.
    pub format: spv::ImageFormat,
    /// Access qualifier (OpenCL), if given.
    pub access: Option<spv::AccessQualifier>,
}

impl Type {
    /// The type an `OpType*` instruction declares, with the id it declares
    /// (`OpTypeForwardPointer` announces the pointer it names); `None` for any other
    /// instruction or one too short.
    pub fn from_instruction(inst: &crate::InstRef<'_>) -> Option<(Id, Type)> {
        let ops = inst.operands();
        let t = Type::read(inst.opcode(), ops)?;
        Some((Id(*ops.first()?), t))
    }

    /// Reads an `OpType*` instruction's operands (result id first); `None` if it is not
    /// a type instruction or is too short.
    pub(crate) fn read(opcode: spv::Opcode, ops: &[u32]) -> Option<Type> {
        use spv::Opcode as O;
        let at = |i: usize| ops.get(i).copied();
        let id = |i: usize| at(i).map(Id);
        Some(match opcode {
            O::TypeVoid => Type::Void,
            O::TypeBool => Type::Bool,
            O::TypeInt => Type::Int {
                width: at(1)?,
                signed: at(2)? != 0,
            },
            O::TypeFloat => Type::Float {
                width: at(1)?,
                encoding: at(2).map(spv::FPEncoding),
            },
            O::TypeVector => Type::Vector {
                component: id(1)?,
                count: at(2)?,
            },
            O::TypeMatrix => Type::Matrix {
                column: id(1)?,
                columns: at(2)?,
            },
            O::TypeArray => Type::Array {
                element: id(1)?,
                length: id(2)?,
            },
            O::TypeRuntimeArray => Type::RuntimeArray { element: id(1)? },
            O::TypeStruct => Type::Struct {
                members: ops.get(1..)?.iter().map(|&m| Id(m)).collect(),
            },
            O::TypeImage => Type::Image(ImageType {
                sampled_type: id(1)?,
                dim: spv::Dim(at(2)?),
                depth: at(3)?,
                arrayed: at(4)? != 0,
                multisampled: at(5)? != 0,
                sampled: at(6)?,
                format: spv::ImageFormat(at(7)?),
                access: at(8).map(spv::AccessQualifier),
            }),
            O::TypeSampledImage => Type::SampledImage { image: id(1)? },
            O::TypeSampler => Type::Sampler,
            O::TypePointer => Type::Pointer {
                storage: spv::StorageClass(at(1)?),
                pointee: id(2)?,
            },
            O::TypeForwardPointer => Type::ForwardPointer {
                storage: spv::StorageClass(at(1)?),
            },
            O::TypeFunction => Type::Function {
                ret: id(1)?,
                params: ops.get(2..)?.iter().map(|&p| Id(p)).collect(),
            },
            O::TypeAccelerationStructureKHR => Type::AccelerationStructure,
            O::TypeRayQueryKHR => Type::RayQuery,
            _ if opcode.info().is_some_and(|i| {
                i.has_result() && spv::Class::of(i) == Some(spv::Class::TypeDeclaration)
            }) =>
            {
                Type::Other { opcode }
            }
            _ => return None,
        })
    }
}
