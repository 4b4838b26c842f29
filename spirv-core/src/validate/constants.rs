//! spirv-val's constant pass (`ConstantPass` in `validate_constants.cpp`): boolean
//! constants are bools; composite constants match their type's shape and constituent
//! types; samplers and nulls have fitting types; spec constants are numbers; the
//! `OpSpecConstantOp` opcodes that need `Shader` or `Kernel`; no 8- or 16-bit
//! constants without the capabilities for full use. The composite rules of
//! `OpTypeTensorARM` constants are not here.

use super::Query;
use super::error::ErrorKind;
use super::type_error::TypeError;
use super::validation_state::{Step, reaches};
use super::{Fault, Inst};
use crate::module::InstRef;
use crate::spirv_tools as opcodes;
use crate::spv::{Capability as C, Opcode as O, StorageClass as SC};
use crate::types::Id;
use alloc::collections::BTreeMap;

/// What the pass remembers across instructions.
#[derive(Debug, Default)]
pub(super) struct Constants {
    /// Whether each type walked has no null value.
    not_nullable: BTreeMap<u32, bool>,
}

/// `e` as a fault at the current instruction.
fn fail<T>(e: TypeError) -> Result<T, Fault> {
    Err(ErrorKind::Type(e).into())
}

/// The pass for one instruction.
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>, st: &mut Constants) -> Result<(), Fault> {
    let op = inst.opcode;
    let w = |i: usize| inst.words.get(i).copied().unwrap_or(0);
    let ty = w(1);
    let bool_type = q.opcode(ty) == O::TypeBool;
    match op {
        O::ConstantTrue | O::ConstantFalse | O::SpecConstantTrue | O::SpecConstantFalse
            if !bool_type =>
        {
            return fail(TypeError::ConstantNotBool(op, Id(ty)));
        }
        O::ConstantComposite | O::SpecConstantComposite => composite(q, inst)?,
        O::ConstantSampler if q.opcode(ty) != O::TypeSampler => {
            let e = ErrorKind::Type(TypeError::SamplerNotSampler(Id(ty)));
            return Err(match q.state.def(ty) {
                Some(d) => Fault::at(e, d.index),
                None => Fault::module(e),
            });
        }
        O::ConstantNull if !nullable(q, ty, &mut st.not_nullable) => {
            return fail(TypeError::NullNotNullable(Id(ty)));
        }
        O::SpecConstant if !matches!(q.opcode(ty), O::TypeInt | O::TypeFloat) => {
            return fail(TypeError::SpecConstantType);
        }
        O::SpecConstantOp => spec_constant_op(q, O(w(3) as u16))?,
        _ => {}
    }
    if opcodes::is_constant(op)
        && q.state.has_capability(C::Shader.0)
        && !q.is_pointer_type(ty)
        && q.contains_limited_use(ty)
    {
        return fail(TypeError::SmallConstant);
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
        O::QuantizeToF16 if !has(C::Shader) => fail(TypeError::SpecOpShader(op)),
        O::UConvert
            if q.state.version < (1, 4)
                && !q.state.has_extension("SPV_AMD_gpu_shader_int16")
                && !has(C::Kernel) =>
        {
            fail(TypeError::SpecOpUConvert)
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
            fail(TypeError::SpecOpKernel(op))
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
        return fail(TypeError::CompositeNotComposite(op, t));
    }
    let constituents = inst.words.get(3..).unwrap_or(&[]);
    let count = constituents.len();
    // Each constituent is a constant or undef; `then` checks its type.
    let each = |then: &dyn Fn(usize, u32, u32) -> Result<(), Fault>| {
        for (i, &c) in constituents.iter().enumerate() {
            if !(q.opcode(c) == O::Undef || opcodes::is_constant(q.opcode(c))) {
                return fail(TypeError::CompositeNotConstant(op, Id(c)));
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
                return fail(TypeError::CompositeVectorCount(op, t));
            }
            let component = tword(2);
            each(&|_, c, ct| {
                if ct != component {
                    return fail(TypeError::CompositeVectorElement(op, Id(c), t));
                }
                Ok(())
            })
        }
        O::TypeMatrix => {
            if tword(3) as usize != count {
                return fail(TypeError::CompositeMatrixCount(op, t));
            }
            let column = tword(2);
            let column_op = q.opcode(column);
            let rows = q.word(column, 3);
            let component = q.word(column, 2);
            each(&|_, c, ct| {
                if q.opcode(ct) != column_op {
                    return fail(TypeError::CompositeMatrixColumn(op, Id(c), t));
                }
                if q.word(ct, 2) != component {
                    return fail(TypeError::CompositeMatrixComponent(op, Id(c), t));
                }
                if q.word(ct, 3) != rows {
                    return fail(TypeError::CompositeMatrixSize(op, Id(c), t));
                }
                Ok(())
            })
        }
        O::TypeArray => {
            let (int32, known, n) = q.int32_if_const(tword(3));
            if int32 && known && n as usize != count {
                return fail(TypeError::CompositeArrayCount(op, t));
            }
            let element = tword(2);
            each(&|_, c, ct| {
                if ct != element {
                    return fail(TypeError::CompositeArrayElement(op, Id(c), t));
                }
                Ok(())
            })
        }
        O::TypeStruct => {
            let members = tw.get(2..).unwrap_or(&[]);
            if members.len() != count {
                return fail(TypeError::CompositeStructCount(op, t));
            }
            each(&|i, c, ct| {
                let m = members.get(i).copied().unwrap_or(0);
                if q.def(m).is_none() || m != ct {
                    return fail(TypeError::CompositeStructMember(op, Id(c), t));
                }
                Ok(())
            })
        }
        O::TypeCooperativeMatrixNV | O::TypeCooperativeMatrixKHR => {
            if count != 1 {
                return fail(TypeError::CompositeCoopMatrixCount(op, t));
            }
            let component = tword(2);
            each(&|_, c, ct| {
                if q.def(component).is_none() || component != ct {
                    return fail(TypeError::CompositeCoopMatrixComponent(op, Id(c), t));
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
            return fail(TypeError::CompositeTensorCount(op, t, v, count));
        }
    }
    for &c in constituents {
        if !(q.opcode(c) == O::Undef || opcodes::is_constant(q.opcode(c))) {
            return fail(TypeError::CompositeNotConstant(op, Id(c)));
        }
        let ct = q.type_of(c);
        match rank {
            0 => continue,
            1 if ct != element => return fail(TypeError::CompositeTensorElement(op, Id(c), t)),
            1 => continue,
            _ => {}
        }
        if q.opcode(ct) != O::TypeTensorARM {
            return fail(TypeError::CompositeTensorNotTensor(op, Id(c)));
        }
        let cw = q.def(ct).map_or(&[][..], |d| d.words());
        let c_element = cw.get(2).copied().unwrap_or(0);
        if q.def(c_element).is_none() || c_element != element {
            return fail(TypeError::CompositeTensorElementType(op, Id(c), t));
        }
        let Some(&c_rank) = cw.get(3) else {
            return Ok(());
        };
        if let Some(r) = q.constant_u64(c_rank) {
            if r != rank - 1 {
                return fail(TypeError::CompositeTensorRank(op, Id(c), t, rank - 1, r));
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
                    let e = TypeError::CompositeTensorShape(op, Id(c), t, want, dim - 3, got);
                    return fail(e);
                }
            }
        }
    }
    Ok(())
}
