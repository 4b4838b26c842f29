//! spirv-val's scope rules (`validate_scopes.cpp`): `ValidateScope`, which every
//! instruction with a scope operand asks first (a 32-bit integer; a constant where
//! `Shader` needs one), and `ValidateMemoryScope` for the memory scopes of memory
//! access operands.

use super::faults::faults;
use super::limitations::{self, Limitation};
use super::{Inst, Query};
use crate::env::TargetEnv;
use crate::spv::{Capability as C, Opcode, Scope as S};
use crate::types::Id;
use crate::validate::Fault;
use ScopeError as E;

faults! {
    /// A fault of spirv-val's scope rules (`validate_scopes.cpp`).
    pub enum ScopeError {
        /// A scope that is not a 32-bit integer.
        NotInt32 {
            /// The instruction's opcode.
            opcode: Opcode,
        } => "{opcode}: expected scope to be a 32-bit int",
        /// A constant that is no scope, shown as spirv-val disassembles it.
        InvalidValue {
            /// The constant.
            constant: Id,
            /// Its type.
            ty: Id,
            /// Its value, as its type's signedness reads it.
            value: i64,
        } => "Invalid scope value:\n {constant:asm} = OpConstant {ty:asm} {value}",
        /// A scope that is not an `OpConstant` with `Shader`.
        NotConstant => "Scope ids must be OpConstant when Shader capability is present",
        /// A scope that is not a constant with `Shader` and `CooperativeMatrixNV`.
        NotConstantCooperative
            => "Scope ids must be constant or specialization constant when CooperativeMatrixNV capability is present",
        /// A `QueueFamily` memory scope without `VulkanMemoryModel`.
        QueueFamily {
            /// The instruction's opcode.
            opcode: Opcode,
        } => "{opcode}: Memory Scope QueueFamilyKHR requires capability VulkanMemoryModelKHR",
        /// A `Device` memory scope with the Vulkan memory model, without its device-scope
        /// capability.
        Device
            => "Use of device scope with VulkanKHR memory model requires the VulkanMemoryModelDeviceScopeKHR capability",
        /// A memory scope Vulkan does not allow.
        #[vuid = "VUID-StandaloneSpirv-None-04638"]
        VulkanMemory {
            /// The instruction's opcode.
            opcode: Opcode,
        } => "{opcode}: in Vulkan environment Memory Scope is limited to Device, QueueFamily, Workgroup, ShaderCallKHR, Subgroup, or Invocation",
        /// A `Subgroup` memory scope in Vulkan 1.0 without the subgroup capabilities.
        #[vuid = "VUID-StandaloneSpirv-SubgroupVoteKHR-07951"]
        Vulkan10Subgroup {
            /// The instruction's opcode.
            opcode: Opcode,
        } => "{opcode}: in Vulkan 1.0 environment Memory Scope is can not be Subgroup without SubgroupBallotKHR or SubgroupVoteKHR declared",
        /// A non-uniform group instruction's execution scope other than `Subgroup`, in
        /// Vulkan 1.1 and later.
        #[vuid = "VUID-StandaloneSpirv-None-04642"]
        VulkanNonUniform {
            /// The instruction's opcode.
            opcode: Opcode,
        } => "{opcode}: in Vulkan environment Execution scope is limited to Subgroup",
        /// A non-uniform group instruction's execution scope other than `Subgroup` or
        /// `Workgroup`.
        NonUniform {
            /// The instruction's opcode.
            opcode: Opcode,
        } => "{opcode}: Execution scope is limited to Subgroup or Workgroup",
        /// An execution scope Vulkan does not allow.
        #[vuid = "VUID-StandaloneSpirv-None-04636"]
        VulkanExecution {
            /// The instruction's opcode.
            opcode: Opcode,
        } => "{opcode}: in Vulkan environment Execution Scope is limited to Workgroup and Subgroup",
    }
}

/// What [`validate_scope`] finds of a scope operand that passes its rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ScopeValue {
    /// A constant scope.
    Known(S),
    /// A spec constant, or another value `Shader` lets through.
    Unknown,
}

/// `ValidateScope`: the scope operand `scope` of an `opcode` instruction.
pub(super) fn validate_scope(
    q: &Query<'_>,
    opcode: Opcode,
    scope: u32,
) -> Result<ScopeValue, Fault> {
    let has = |c: C| q.state.has_capability(c.0);
    let (is_int32, is_const, value) = q.int32_if_const(scope);
    if !is_int32 {
        return Err(E::NotInt32 { opcode }.into());
    }
    if !is_const {
        if has(C::Shader) && !has(C::CooperativeMatrixNV) {
            return Err(E::NotConstant.into());
        }
        if has(C::Shader) && !crate::spirv_tools::is_constant(q.opcode(scope)) {
            return Err(E::NotConstantCooperative.into());
        }
        return Ok(ScopeValue::Unknown);
    }
    if value > S::ShaderCallKHR.0 {
        let ty = q.type_of(scope);
        let value = if q.is_signed_int_scalar_type(ty) {
            i64::from(value as i32)
        } else {
            i64::from(value)
        };
        return Err(E::InvalidValue {
            constant: Id(scope),
            ty: Id(ty),
            value,
        }
        .into());
    }
    Ok(ScopeValue::Known(S(value)))
}

/// `ValidateExecutionScope`, with the execution-model limitations it registers:
/// true when the caller's other rules apply.
pub(super) fn validate_execution_scope(
    q: &Query<'_>,
    inst: &Inst<'_>,
    scope: u32,
) -> Result<bool, Fault> {
    let opcode = inst.opcode;
    let value = match validate_scope(q, opcode, scope)? {
        ScopeValue::Known(s) => s,
        ScopeValue::Unknown => return Ok(true),
    };
    let non_uniform = super::non_uniform::has_execution_scope(opcode);
    let env = q.state.options.target_env;
    if env.is_vulkan() {
        // Vulkan 1.0 has no subgroups.
        if env != TargetEnv::Vulkan1_0 && non_uniform && value != S::Subgroup {
            return Err(E::VulkanNonUniform { opcode }.into());
        }
        if opcode == Opcode::ControlBarrier && value != S::Subgroup {
            let rule = &limitations::rules::CONTROL_BARRIER_SUBGROUP;
            limitations::register(q, inst, Limitation::new(q, rule));
        }
        if value == S::Workgroup {
            let rule = &limitations::rules::WORKGROUP_EXECUTION;
            limitations::register(q, inst, Limitation::new(q, rule));
        }
        if value != S::Workgroup && value != S::Subgroup {
            return Err(E::VulkanExecution { opcode }.into());
        }
    }
    if non_uniform && value != S::Subgroup && value != S::Workgroup {
        return Err(E::NonUniform { opcode }.into());
    }
    Ok(true)
}

/// `ValidateMemoryScope`, with the execution-model limitations it registers: true
/// when the caller's other rules apply.
pub(super) fn validate_memory_scope(
    q: &Query<'_>,
    inst: &Inst<'_>,
    scope: u32,
) -> Result<bool, Fault> {
    let opcode = inst.opcode;
    let has = |c: C| q.state.has_capability(c.0);
    let value = match validate_scope(q, opcode, scope)? {
        ScopeValue::Known(s) => s,
        ScopeValue::Unknown => return Ok(true),
    };
    if value == S::QueueFamily {
        if has(C::VulkanMemoryModel) {
            return Ok(true);
        }
        return Err(E::QueueFamily { opcode }.into());
    }
    if value == S::Device && has(C::VulkanMemoryModel) && !has(C::VulkanMemoryModelDeviceScope) {
        return Err(E::Device.into());
    }
    let env = q.state.options.target_env;
    if env.is_vulkan() {
        if value == S::CrossDevice {
            return Err(E::VulkanMemory { opcode }.into());
        }
        if env == TargetEnv::Vulkan1_0
            && value == S::Subgroup
            && !has(C::SubgroupBallotKHR)
            && !has(C::SubgroupVoteKHR)
        {
            return Err(E::Vulkan10Subgroup { opcode }.into());
        }
        if value == S::ShaderCallKHR {
            let rule = &limitations::rules::SHADER_CALL_MEMORY;
            limitations::register(q, inst, Limitation::new(q, rule));
        }
        if value == S::Workgroup {
            let rule = &limitations::rules::WORKGROUP_MEMORY;
            limitations::register(q, inst, Limitation::new(q, rule));
            if q.state.memory_model() == crate::spv::MemoryModel::GLSL450 {
                let rule = &limitations::rules::WORKGROUP_MEMORY_GLSL;
                limitations::register(q, inst, Limitation::new(q, rule));
            }
        }
    }
    Ok(true)
}

/// What this family checks (see [`coverage`](crate::validate::coverage)).
pub(crate) const COVERAGE: crate::validate::coverage::Family =
    crate::validate::coverage::Family::new("scopes", "validate_scopes.cpp");
