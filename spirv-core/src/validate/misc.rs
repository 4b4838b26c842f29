//! spirv-val's misc pass (`MiscPass` in `validate_misc.cpp`): `OpUndef` of a type
//! that can have values; `OpIsHelperInvocationEXT`'s bool result; `OpReadClockKHR`'s
//! scope and result; `OpAssumeTrueKHR` and `OpExpectKHR` operand types. The execution
//! model limits it registers for interlock and helper-invocation instructions are not
//! checked here.

use super::Query;
use super::error::ErrorKind;
use super::scopes::{ScopeValue, validate_scope};
use super::type_error::TypeError;
use super::{Fault, Inst};
use crate::spv::{Capability as C, Opcode as O, Scope};

/// What the pass remembers across instructions.
#[derive(Debug, Default)]
pub(super) struct Misc {}

/// `e` as a fault at the current instruction.
fn fail<T>(e: TypeError) -> Result<T, Fault> {
    Err(ErrorKind::Type(e).into())
}

/// The pass for one instruction.
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>, _: &mut Misc) -> Result<(), Fault> {
    let w = |i: usize| inst.words.get(i).copied().unwrap_or(0);
    let ty = w(1);
    match inst.opcode {
        O::Undef => {
            if q.is_void_type(ty) {
                return fail(TypeError::UndefVoid);
            }
            if q.state.has_capability(C::Shader.0)
                && q.contains_limited_use(ty)
                && !q.is_pointer_type(ty)
            {
                return fail(TypeError::UndefSmall);
            }
        }
        O::IsHelperInvocationEXT if !q.is_bool_scalar_type(ty) => {
            return fail(TypeError::HelperInvocationResult(inst.opcode));
        }
        O::ReadClockKHR => read_clock(q, inst.opcode, ty, w(3))?,
        O::AssumeTrueKHR if !q.is_bool_scalar_type(q.type_of(w(1))) => {
            return fail(TypeError::AssumeTrueValue);
        }
        O::ExpectKHR => {
            if !q.is_bool_scalar_or_vector_type(ty) && !q.is_int_scalar_or_vector_type(ty) {
                return fail(TypeError::ExpectResult);
            }
            if q.type_of(w(3)) != ty {
                return fail(TypeError::ExpectValue);
            }
            if q.type_of(w(4)) != ty {
                return fail(TypeError::ExpectExpected);
            }
        }
        _ => {}
    }
    Ok(())
}

/// `ValidateShaderClock`, with `ValidateScope` before it. A constant scope that is no
/// scope at all is left alone: spirv-val's message for it prints the constant's
/// disassembly.
fn read_clock(q: &Query<'_>, op: O, ty: u32, scope: u32) -> Result<(), Fault> {
    match validate_scope(q, op, scope)? {
        ScopeValue::Invalid => return Ok(()),
        ScopeValue::Unknown => {}
        ScopeValue::Known(s) => {
            let env = q.state.options.target_env;
            if env.is_vulkan() && s != Scope::Subgroup && s != Scope::Device {
                return fail(TypeError::ClockScopeVulkan);
            }
            if env.is_opencl() && !matches!(s, Scope::Workgroup | Scope::Subgroup | Scope::Device) {
                return fail(TypeError::ClockScopeOpenCl);
            }
        }
    }
    let handle = (q.is_unsigned_int_scalar_type(ty) && q.bit_width(ty) == 64)
        || (q.is_unsigned_int_vector_type(ty) && q.dimension(ty) == 2 && q.bit_width(ty) == 32);
    if !handle {
        return fail(TypeError::ClockResult);
    }
    Ok(())
}
