//! spirv-val's constant pass (`ConstantPass` in `validate_constants.cpp`): boolean
//! constants are bools; composite constants match their type's shape and constituent
//! types; samplers and nulls have fitting types; spec constants are numbers; the
//! `OpSpecConstantOp` opcodes that need `Shader` or `Kernel`; no 8- or 16-bit
//! constants without the capabilities for full use. The composite rules of
//! `OpTypeTensorARM` constants are not here.

use super::Query;
use super::error::ValidationErrorKind;
use super::faults::faults;
use super::validation_state::{Step, reaches};
use super::{Fault, Inst};
use crate::module::InstRef;
use crate::spirv_tools as opcodes;
use crate::spv::{Capability as C, Opcode, Opcode as O, StorageClass as SC};
use crate::types::Id;
use alloc::collections::BTreeMap;

faults! {
    /// A fault of spirv-val's constant pass (`validate_constants.cpp`).
    pub enum ConstantError {
        /// A boolean constant whose type is not bool.
        NotBool {
            /// The instruction's opcode.
            opcode: Opcode,
            /// The result type.
            result_type: Id,
        } => "Op{opcode} Result Type <id> {result_type} is not a boolean type.",
        /// A composite constant whose type is not a composite.
        NotComposite {
            /// The instruction's opcode.
            opcode: Opcode,
            /// The result type.
            result_type: Id,
        } => "Op{opcode} Result Type <id> {result_type} is not a composite type.",
        /// A vector constant's constituent count.
        VectorCount {
            /// The instruction's opcode.
            opcode: Opcode,
            /// The result type.
            result_type: Id,
        } => "Op{opcode} Constituent <id> count does not match Result Type <id> {result_type}s vector component count.",
        /// A constituent that is not a constant or undef.
        NotConstant {
            /// The instruction's opcode.
            opcode: Opcode,
            /// The constituent.
            constituent: Id,
        } => "Op{opcode} Constituent <id> {constituent} is not a constant or undef.",
        /// A vector constituent of another type.
        VectorElement {
            /// The instruction's opcode.
            opcode: Opcode,
            /// The constituent.
            constituent: Id,
            /// The result type.
            result_type: Id,
        } => "Op{opcode} Constituent <id> {constituent}s type does not match Result Type <id> {result_type}s vector element type.",
        /// A matrix constant's column count.
        MatrixCount {
            /// The instruction's opcode.
            opcode: Opcode,
            /// The result type.
            result_type: Id,
        } => "Op{opcode} Constituent <id> count does not match Result Type <id> {result_type}s matrix column count.",
        /// A column that is not of the column type.
        MatrixColumn {
            /// The instruction's opcode.
            opcode: Opcode,
            /// The constituent.
            constituent: Id,
            /// The result type.
            result_type: Id,
        } => "Op{opcode} Constituent <id> {constituent} type does not match Result Type <id> {result_type}s matrix column type.",
        /// A column of another component type.
        MatrixComponent {
            /// The instruction's opcode.
            opcode: Opcode,
            /// The constituent.
            constituent: Id,
            /// The result type.
            result_type: Id,
        } => "Op{opcode} Constituent <id> {constituent} component type does not match Result Type <id> {result_type}s matrix column component type.",
        /// A column of another size.
        MatrixSize {
            /// The instruction's opcode.
            opcode: Opcode,
            /// The constituent.
            constituent: Id,
            /// The result type.
            result_type: Id,
        } => "Op{opcode} Constituent <id> {constituent} vector component count does not match Result Type <id> {result_type}s vector component count.",
        /// An array constant's length.
        ArrayCount {
            /// The instruction's opcode.
            opcode: Opcode,
            /// The result type.
            result_type: Id,
        } => "Op{opcode} Constituent count does not match Result Type <id> {result_type}s array length.",
        /// An array constituent of another type.
        ArrayElement {
            /// The instruction's opcode.
            opcode: Opcode,
            /// The constituent.
            constituent: Id,
            /// The result type.
            result_type: Id,
        } => "Op{opcode} Constituent <id> {constituent}s type does not match Result Type <id> {result_type}s array element type.",
        /// A struct constant's member count (spirv-val names the type twice).
        StructCount {
            /// The instruction's opcode.
            opcode: Opcode,
            /// The result type.
            result_type: Id,
        } => "Op{opcode} Constituent <id> {result_type} count does not match Result Type <id> {result_type}s struct member count.",
        /// A struct constituent of another type.
        StructMember {
            /// The instruction's opcode.
            opcode: Opcode,
            /// The constituent.
            constituent: Id,
            /// The result type.
            result_type: Id,
        } => "Op{opcode} Constituent <id> {constituent} type does not match the Result Type <id> {result_type}s member type.",
        /// A cooperative matrix constant of other than one constituent.
        CoopMatrixCount {
            /// The instruction's opcode.
            opcode: Opcode,
            /// The result type.
            result_type: Id,
        } => "Op{opcode} Constituent <id> {result_type} count must be one.",
        /// A cooperative matrix constituent of another type.
        CoopMatrixComponent {
            /// The instruction's opcode.
            opcode: Opcode,
            /// The constituent.
            constituent: Id,
            /// The result type.
            result_type: Id,
        } => "Op{opcode} Constituent <id> {constituent} type does not match the Result Type <id> {result_type}s component type.",
        /// A tensor constant whose constituent count is not its shape's outermost
        /// dimension.
        TensorCount {
            /// The instruction's opcode.
            opcode: Opcode,
            /// The result type.
            result_type: Id,
            /// The outermost dimension.
            expected: u64,
            /// The constituents.
            found: usize,
        } => "Op{opcode} Constituent count does not match the shape of Result Type <id> {result_type} along its outermost dimension, expected {expected} but got {found}.",
        /// A rank-1 tensor constituent of another type than the element type.
        TensorElement {
            /// The instruction's opcode.
            opcode: Opcode,
            /// The constituent.
            constituent: Id,
            /// The result type.
            result_type: Id,
        } => "Op{opcode} Constituent <id> {constituent} type does not match the element type of the tensor ({result_type}).",
        /// A constituent of a higher-rank tensor that is not a tensor.
        TensorNotTensor {
            /// The instruction's opcode.
            opcode: Opcode,
            /// The constituent.
            constituent: Id,
        } => "Op{opcode} Constituent <id> {constituent} must be an OpTypeTensorARM.",
        /// A tensor constituent of another element type.
        TensorElementType {
            /// The instruction's opcode.
            opcode: Opcode,
            /// The constituent.
            constituent: Id,
            /// The result type.
            result_type: Id,
        } => "Op{opcode} Constituent <id> {constituent} must have the same Element Type as Result Type <id> {result_type}.",
        /// A tensor constituent whose rank is not one less.
        TensorRank {
            /// The instruction's opcode.
            opcode: Opcode,
            /// The constituent.
            constituent: Id,
            /// The result type.
            result_type: Id,
            /// The rank expected.
            expected: u64,
            /// The rank found.
            found: u64,
        } => "Op{opcode} Constituent <id> {constituent} must have a Rank that is 1 less than the Rank of Result Type <id> {result_type}, expected {expected} but got {found}.",
        /// A tensor constituent whose shape does not match the inner dimensions.
        TensorShape {
            /// The instruction's opcode.
            opcode: Opcode,
            /// The constituent.
            constituent: Id,
            /// The result type.
            result_type: Id,
            /// The size expected.
            expected: u64,
            /// The dimension.
            dimension: usize,
            /// The size found.
            found: u64,
        } => "Op{opcode} Constituent <id> {constituent} must have a Shape that matches that of Result Type <id> {result_type} along all inner dimensions of Result Type, expected {expected} for dimension {dimension} of Constituent but got {found}.",
        /// `OpConstantSampler` whose type is not a sampler (reported at the type).
        SamplerNotSampler {
            /// The result type.
            result_type: Id,
        } => "OpConstantSampler Result Type <id> {result_type} is not a sampler type.",
        /// `OpConstantNull` of a type without a null value.
        NullNotNullable {
            /// The result type.
            result_type: Id,
        } => "OpConstantNull Result Type <id> {result_type} cannot have a null value.",
        /// `OpSpecConstant` of a type other than an integer or float.
        SpecConstantType => "Specialization constant must be an integer or floating-point number.",
        /// `OpSpecConstantOp` of an opcode that needs `Shader`.
        SpecOpShader {
            /// The operation.
            opcode: Opcode,
        } => "Specialization constant operation {opcode} requires Shader capability",
        /// `OpSpecConstantOp UConvert` before SPIR-V 1.4 without `Kernel` or the AMD
        /// extension.
        SpecOpUConvert => "Prior to SPIR-V 1.4, specialization constant operation UConvert requires Kernel capability or extension SPV_AMD_gpu_shader_int16",
        /// `OpSpecConstantOp` of an opcode that needs `Kernel`.
        SpecOpKernel {
            /// The operation.
            opcode: Opcode,
        } => "Specialization constant operation {opcode} requires Kernel capability",
        /// An 8- or 16-bit constant without the capabilities for full use.
        SmallType => "Cannot form constants of 8- or 16-bit types",
    }
}

/// What the pass remembers across instructions.
#[derive(Debug, Default)]
pub(super) struct Constants {
    /// Whether each type walked has no null value.
    not_nullable: BTreeMap<u32, bool>,
}

/// The pass for one instruction.
#[inline(always)]
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>, st: &mut Constants) -> Result<(), Fault> {
    let op = inst.opcode;
    let w = |i: usize| inst.words.get(i).copied().unwrap_or(0);
    let ty = w(1);
    let bool_type = q.opcode(ty) == O::TypeBool;
    match op {
        O::ConstantTrue | O::ConstantFalse | O::SpecConstantTrue | O::SpecConstantFalse
            if !bool_type =>
        {
            return Err(ConstantError::NotBool {
                opcode: op,
                result_type: Id(ty),
            }
            .into());
        }
        O::ConstantComposite | O::SpecConstantComposite => composite(q, inst)?,
        O::ConstantSampler if q.opcode(ty) != O::TypeSampler => {
            let e = ValidationErrorKind::from(ConstantError::SamplerNotSampler {
                result_type: Id(ty),
            });
            return Err(match q.state.def(ty) {
                Some(d) => Fault::at(e, d.index),
                None => Fault::module(e),
            });
        }
        O::ConstantNull if !nullable(q, ty, &mut st.not_nullable) => {
            return Err(ConstantError::NullNotNullable {
                result_type: Id(ty),
            }
            .into());
        }
        O::SpecConstant if !matches!(q.opcode(ty), O::TypeInt | O::TypeFloat) => {
            return Err(ConstantError::SpecConstantType.into());
        }
        O::SpecConstantOp => spec_constant_op(q, O(w(3) as u16))?,
        _ => {}
    }
    if opcodes::is_constant(op)
        && q.state.has_capability(C::Shader.0)
        && !q.is_pointer_type(ty)
        && q.contains_limited_use(ty)
    {
        return Err(ConstantError::SmallType.into());
    }
    Ok(())
}

/// `IsTypeNullable`: every type the null value is made of has a null value.
fn nullable(q: &Query<'_>, ty: u32, memo: &mut BTreeMap<u32, bool>) -> bool {
    !reaches(q, ty, memo, &not_nullable_step)
}

/// [`nullable`]'s step: a hit is a type without a null value.
fn not_nullable_step(_: u32, def: Option<InstRef<'_>>) -> Step<'_> {
    let Some(def) = def else { return Step::Hit };
    let w = def.words();
    let parts = match def.opcode() {
        O::TypeBool
        | O::TypeInt
        | O::TypeFloat
        | O::TypeEvent
        | O::TypeDeviceEvent
        | O::TypeReserveId
        | O::TypeQueue => return Step::Miss,
        O::TypeArray
        | O::TypeMatrix
        | O::TypeCooperativeMatrixNV
        | O::TypeCooperativeMatrixKHR
        | O::TypeCooperativeVectorNV
        | O::TypeVector => w.get(2..3),
        O::TypeStruct => w.get(2..),
        O::TypePointer | O::TypeUntypedPointerKHR => {
            return if w.get(2) == Some(&SC::PhysicalStorageBuffer.0) {
                Step::Hit
            } else {
                Step::Miss
            };
        }
        O::TypeTensorARM if w.len() > 4 => w.get(2..3),
        _ => None,
    };
    match parts {
        Some(p) => Step::Into(p),
        None => Step::Hit,
    }
}

/// `ValidateSpecConstantOp`.
fn spec_constant_op(q: &Query<'_>, op: O) -> Result<(), Fault> {
    let has = |c: C| q.state.has_capability(c.0);
    match op {
        O::QuantizeToF16 if !has(C::Shader) => {
            Err(ConstantError::SpecOpShader { opcode: op }.into())
        }
        O::UConvert
            if q.state.version < (1, 4)
                && !q.state.has_extension("SPV_AMD_gpu_shader_int16")
                && !has(C::Kernel) =>
        {
            Err(ConstantError::SpecOpUConvert.into())
        }
        O::ConvertFToS
        | O::ConvertSToF
        | O::ConvertFToU
        | O::ConvertUToF
        | O::ConvertPtrToU
        | O::ConvertUToPtr
        | O::GenericCastToPtr
        | O::PtrCastToGeneric
        | O::Bitcast
        | O::FNegate
        | O::FAdd
        | O::FSub
        | O::FMul
        | O::FDiv
        | O::FRem
        | O::FMod
        | O::AccessChain
        | O::InBoundsAccessChain
        | O::PtrAccessChain
        | O::InBoundsPtrAccessChain
            if !has(C::Kernel) =>
        {
            Err(ConstantError::SpecOpKernel { opcode: op }.into())
        }
        _ => Ok(()),
    }
}

/// `ValidateConstantComposite`, except for tensors.
fn composite(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let op = inst.opcode;
    let ty = inst.words.get(1).copied().unwrap_or(0);
    let t = Id(ty);
    let tw = q.def(ty).map_or(&[][..], |d| d.words());
    let tword = |i: usize| tw.get(i).copied().unwrap_or(0);
    let ty_op = q.opcode(ty);
    let composite = matches!(
        ty_op,
        O::TypeVector
            | O::TypeMatrix
            | O::TypeArray
            | O::TypeStruct
            | O::TypeRuntimeArray
            | O::TypeCooperativeMatrixNV
            | O::TypeCooperativeMatrixKHR
            | O::TypeCooperativeVectorNV
    ) || (ty_op == O::TypeTensorARM && tw.len() == 5);
    if !composite {
        return Err(ConstantError::NotComposite {
            opcode: op,
            result_type: t,
        }
        .into());
    }
    let constituents = inst.words.get(3..).unwrap_or(&[]);
    let count = constituents.len();
    // Each constituent is a constant or undef; `then` checks its type.
    let each = |then: &dyn Fn(usize, u32, u32) -> Result<(), Fault>| {
        for (i, &c) in constituents.iter().enumerate() {
            if !(q.opcode(c) == O::Undef || opcodes::is_constant(q.opcode(c))) {
                return Err(ConstantError::NotConstant {
                    opcode: op,
                    constituent: Id(c),
                }
                .into());
            }
            then(i, c, q.type_of(c))?;
        }
        Ok(())
    };
    match ty_op {
        O::TypeVector | O::TypeCooperativeVectorNV => {
            let (known, n) = if ty_op == O::TypeCooperativeVectorNV {
                let (_, known, n) = q.int32_if_const(tword(3));
                (known, n)
            } else {
                (true, tword(3))
            };
            if known && n as usize != count {
                return Err(ConstantError::VectorCount {
                    opcode: op,
                    result_type: t,
                }
                .into());
            }
            let component = tword(2);
            each(&|_, c, ct| {
                if ct != component {
                    return Err(ConstantError::VectorElement {
                        opcode: op,
                        constituent: Id(c),
                        result_type: t,
                    }
                    .into());
                }
                Ok(())
            })
        }
        O::TypeMatrix => {
            if tword(3) as usize != count {
                return Err(ConstantError::MatrixCount {
                    opcode: op,
                    result_type: t,
                }
                .into());
            }
            let column = tword(2);
            let column_op = q.opcode(column);
            let rows = q.word(column, 3);
            let component = q.word(column, 2);
            each(&|_, c, ct| {
                if q.opcode(ct) != column_op {
                    return Err(ConstantError::MatrixColumn {
                        opcode: op,
                        constituent: Id(c),
                        result_type: t,
                    }
                    .into());
                }
                if q.word(ct, 2) != component {
                    return Err(ConstantError::MatrixComponent {
                        opcode: op,
                        constituent: Id(c),
                        result_type: t,
                    }
                    .into());
                }
                if q.word(ct, 3) != rows {
                    return Err(ConstantError::MatrixSize {
                        opcode: op,
                        constituent: Id(c),
                        result_type: t,
                    }
                    .into());
                }
                Ok(())
            })
        }
        O::TypeArray => {
            let (int32, known, n) = q.int32_if_const(tword(3));
            if int32 && known && n as usize != count {
                return Err(ConstantError::ArrayCount {
                    opcode: op,
                    result_type: t,
                }
                .into());
            }
            let element = tword(2);
            each(&|_, c, ct| {
                if ct != element {
                    return Err(ConstantError::ArrayElement {
                        opcode: op,
                        constituent: Id(c),
                        result_type: t,
                    }
                    .into());
                }
                Ok(())
            })
        }
        O::TypeStruct => {
            let members = tw.get(2..).unwrap_or(&[]);
            if members.len() != count {
                return Err(ConstantError::StructCount {
                    opcode: op,
                    result_type: t,
                }
                .into());
            }
            each(&|i, c, ct| {
                let m = members.get(i).copied().unwrap_or(0);
                if q.def(m).is_none() || m != ct {
                    return Err(ConstantError::StructMember {
                        opcode: op,
                        constituent: Id(c),
                        result_type: t,
                    }
                    .into());
                }
                Ok(())
            })
        }
        O::TypeCooperativeMatrixNV | O::TypeCooperativeMatrixKHR => {
            if count != 1 {
                return Err(ConstantError::CoopMatrixCount {
                    opcode: op,
                    result_type: t,
                }
                .into());
            }
            let component = tword(2);
            each(&|_, c, ct| {
                if q.def(component).is_none() || component != ct {
                    return Err(ConstantError::CoopMatrixComponent {
                        opcode: op,
                        constituent: Id(c),
                        result_type: t,
                    }
                    .into());
                }
                Ok(())
            })
        }
        O::TypeTensorARM => tensor(q, inst, tw),
        _ => Ok(()),
    }
}

/// The `OpTypeTensorARM` case of `ValidateConstantComposite`. Where spirv-val would
/// read past an instruction's operands (a shape without constituents, a constituent
/// tensor without rank or shape) nothing is checked.
fn tensor(q: &Query<'_>, inst: &Inst<'_>, tw: &[u32]) -> Result<(), Fault> {
    let op = inst.opcode;
    let t = Id(tw.get(1).copied().unwrap_or(0));
    let element = tw.get(2).copied().unwrap_or(0);
    let rank = q.constant_u64(tw.get(3).copied().unwrap_or(0)).unwrap_or(0);
    let shape = q
        .def(tw.get(4).copied().unwrap_or(0))
        .map_or(&[][..], |d| d.words());
    let Some(&outermost) = shape.get(3) else {
        return Ok(());
    };
    let constituents = inst.words.get(3..).unwrap_or(&[]);
    let count = constituents.len();
    if let Some(v) = q.constant_u64(outermost) {
        if v != count as u64 {
            return Err(ConstantError::TensorCount {
                opcode: op,
                result_type: t,
                expected: v,
                found: count,
            }
            .into());
        }
    }
    for &c in constituents {
        if !(q.opcode(c) == O::Undef || opcodes::is_constant(q.opcode(c))) {
            return Err(ConstantError::NotConstant {
                opcode: op,
                constituent: Id(c),
            }
            .into());
        }
        let ct = q.type_of(c);
        match rank {
            0 => continue,
            1 if ct != element => {
                return Err(ConstantError::TensorElement {
                    opcode: op,
                    constituent: Id(c),
                    result_type: t,
                }
                .into());
            }
            1 => continue,
            _ => {}
        }
        if q.opcode(ct) != O::TypeTensorARM {
            return Err(ConstantError::TensorNotTensor {
                opcode: op,
                constituent: Id(c),
            }
            .into());
        }
        let cw = q.def(ct).map_or(&[][..], |d| d.words());
        let c_element = cw.get(2).copied().unwrap_or(0);
        if q.def(c_element).is_none() || c_element != element {
            return Err(ConstantError::TensorElementType {
                opcode: op,
                constituent: Id(c),
                result_type: t,
            }
            .into());
        }
        let Some(&c_rank) = cw.get(3) else {
            return Ok(());
        };
        if let Some(r) = q.constant_u64(c_rank) {
            if r != rank - 1 {
                return Err(ConstantError::TensorRank {
                    opcode: op,
                    constituent: Id(c),
                    result_type: t,
                    expected: rank - 1,
                    found: r,
                }
                .into());
            }
        }
        let Some(&c_shape) = cw.get(4) else {
            return Ok(());
        };
        let c_shape = q.def(c_shape).map_or(&[][..], |d| d.words());
        for (dim, &s) in c_shape.iter().enumerate().skip(3) {
            let Some(&outer) = shape.get(dim + 1) else {
                return Ok(());
            };
            if let (Some(got), Some(want)) = (q.constant_u64(s), q.constant_u64(outer)) {
                if got != want {
                    let e = ConstantError::TensorShape {
                        opcode: op,
                        constituent: Id(c),
                        result_type: t,
                        expected: want,
                        dimension: dim - 3,
                        found: got,
                    };
                    return Err(e.into());
                }
            }
        }
    }
    Ok(())
}

/// What this family checks (see [`coverage`](crate::validate::coverage)).
pub(crate) const COVERAGE: crate::validate::coverage::Family = crate::validate::coverage::Family {
    opcodes: {
        use crate::spv::Opcode as O;
        &[
            O::ConstantTrue,
            O::ConstantFalse,
            O::SpecConstantTrue,
            O::SpecConstantFalse,
            O::ConstantComposite,
            O::SpecConstantComposite,
            O::SpecConstantOp,
        ]
    },
    ..crate::validate::coverage::Family::new("constants", "validate_constants.cpp")
};
