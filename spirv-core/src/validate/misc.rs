//! spirv-val's misc pass (`MiscPass` in `validate_misc.cpp`): `OpUndef` of a type
//! that can have values; `OpIsHelperInvocationEXT`'s bool result; `OpReadClockKHR`'s
//! scope and result; `OpAssumeTrueKHR` and `OpExpectKHR` operand types. The execution
//! model limits it registers for interlock and helper-invocation instructions are not
//! checked here.

use super::Query;
use super::faults::faults;
use super::scopes::{ScopeValue, validate_scope};
use super::{Fault, Inst};
use crate::spv::{Capability as C, Opcode, Opcode as O, Scope};

faults! {
    /// A fault of spirv-val's misc pass (`validate_misc.cpp`).
    pub enum MiscError {
        /// `OpUndef` of void.
        UndefVoid => "Cannot create undefined values with void type",
        /// `OpUndef` of an 8- or 16-bit type without the capabilities for full use.
        UndefSmall => "Cannot create undefined values with 8- or 16-bit types",
        /// `OpReadClockKHR` of another scope than Subgroup or Device, in Vulkan.
        #[vuid = "VUID-StandaloneSpirv-OpReadClockKHR-04652"]
        ClockScopeVulkan => "Scope must be Subgroup or Device",
        /// `OpReadClockKHR` of another scope than Subgroup, Workgroup or Device, in
        /// OpenCL.
        ClockScopeOpenCl => "Scope must be Subgroup, Workgroup, or Device",
        /// `OpReadClockKHR` whose result is not a 64-bit handle.
        ClockResult => "Expected Value to be a vector of two components of unsigned integer or 64bit unsigned integer",
        /// `OpIsHelperInvocationEXT` whose result is not a bool.
        HelperInvocationResult {
            /// The instruction's opcode.
            opcode: Opcode,
        } => "Expected bool scalar type as Result Type: {opcode}",
        /// `OpAssumeTrueKHR` of a value that is not a bool.
        AssumeTrueValue => "Value operand of OpAssumeTrueKHR must be a boolean scalar",
        /// `OpExpectKHR` whose result is not an integer or bool scalar or vector.
        ExpectResult => "Result of OpExpectKHR must be a scalar or vector of integer type or boolean type",
        /// `OpExpectKHR` whose value is not of the result type.
        ExpectValue => "Type of Value operand of OpExpectKHR does not match the result type ",
        /// `OpExpectKHR` whose expected value is not of the result type.
        ExpectExpected => "Type of ExpectedValue operand of OpExpectKHR does not match the result type ",
    }
}

/// What the pass remembers across instructions.
#[derive(Debug, Default)]
pub(super) struct Misc {}

/// The pass for one instruction.
#[inline(always)]
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>, _: &mut Misc) -> Result<(), Fault> {
    let w = |i: usize| inst.words.get(i).copied().unwrap_or(0);
    let ty = w(1);
    limitations(q, inst);
    match inst.opcode {
        O::Undef => {
            if q.is_void_type(ty) {
                return Err(MiscError::UndefVoid.into());
            }
            if q.state.has_capability(C::Shader.0)
                && q.contains_limited_use(ty)
                && !q.is_pointer_type(ty)
            {
                return Err(MiscError::UndefSmall.into());
            }
        }
        O::IsHelperInvocationEXT if !q.is_bool_scalar_type(ty) => {
            return Err(MiscError::HelperInvocationResult {
                opcode: inst.opcode,
            }
            .into());
        }
        O::ReadClockKHR => read_clock(q, inst.opcode, ty, w(3))?,
        O::AssumeTrueKHR if !q.is_bool_scalar_type(q.type_of(w(1))) => {
            return Err(MiscError::AssumeTrueValue.into());
        }
        O::ExpectKHR => {
            if !q.is_bool_scalar_or_vector_type(ty) && !q.is_int_scalar_or_vector_type(ty) {
                return Err(MiscError::ExpectResult.into());
            }
            if q.type_of(w(3)) != ty {
                return Err(MiscError::ExpectValue.into());
            }
            if q.type_of(w(4)) != ty {
                return Err(MiscError::ExpectExpected.into());
            }
        }
        _ => {}
    }
    Ok(())
}

/// `ValidateShaderClock`, with `ValidateScope` before it.
fn read_clock(q: &Query<'_>, op: O, ty: u32, scope: u32) -> Result<(), Fault> {
    match validate_scope(q, op, scope)? {
        ScopeValue::Unknown => {}
        ScopeValue::Known(s) => {
            let env = q.state.options.target_env;
            if env.is_vulkan() && s != Scope::Subgroup && s != Scope::Device {
                return Err(MiscError::ClockScopeVulkan.into());
            }
            if env.is_opencl() && !matches!(s, Scope::Workgroup | Scope::Subgroup | Scope::Device) {
                return Err(MiscError::ClockScopeOpenCl.into());
            }
        }
    }
    let handle = (q.is_unsigned_int_scalar_type(ty) && q.bit_width(ty) == 64)
        || (q.is_unsigned_int_vector_type(ty) && q.dimension(ty) == 2 && q.bit_width(ty) == 32);
    if !handle {
        return Err(MiscError::ClockResult.into());
    }
    Ok(())
}

/// What this family checks (see [`coverage`](crate::validate::coverage)).
pub(crate) const COVERAGE: crate::validate::coverage::Family = crate::validate::coverage::Family {
    opcodes: {
        use crate::spv::Opcode as O;
        &[
            O::Undef,
            O::IsHelperInvocationEXT,
            O::ReadClockKHR,
            O::AssumeTrueKHR,
            O::ExpectKHR,
        ]
    },
    ..crate::validate::coverage::Family::new("misc", "validate_misc.cpp")
};

/// The execution-model and execution-mode limitations `MiscPass` registers.
fn limitations(q: &Query<'_>, inst: &Inst<'_>) {
    use super::limitations::{Limitation, register, rules};
    let list: &[&'static super::limitations::Rule] = match inst.opcode {
        O::BeginInvocationInterlockEXT | O::EndInvocationInterlockEXT => {
            &[&rules::INTERLOCK_FRAGMENT, &rules::INTERLOCK_MODES]
        }
        O::DemoteToHelperInvocation => &[&rules::DEMOTE],
        O::IsHelperInvocationEXT => &[&rules::IS_HELPER],
        _ => return,
    };
    for &rule in list {
        register(q, inst, Limitation::new(q, rule));
    }
}
