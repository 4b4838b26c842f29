//! spirv-val's memory-semantics rules (`ValidateMemorySemantics` in
//! `validate_memory_semantics.cpp`), which the atomic and barrier instructions ask of
//! each of their memory-semantics operands: a 32-bit integer, a constant where `Shader`
//! needs one, and, for a constant, the bits it may combine: at most one memory order,
//! the capabilities some bits need, the orders each instruction allows, the Vulkan
//! rules (VUIDs 10865-10879) and the unequal semantics of a compare-exchange against
//! its equal ones.

use super::Query;
use super::faults::faults;
use crate::spv::{Capability as C, MemoryModel, Opcode, Opcode as O, Scope};
use crate::validate::Fault;
use MemorySemanticsError as E;

faults! {
    /// A fault of spirv-val's memory-semantics rules (`validate_memory_semantics.cpp`).
    pub enum MemorySemanticsError {
        /// Memory semantics that are not a 32-bit integer.
        NotInt32 { opcode: Opcode } => "{opcode}: expected Memory Semantics to be a 32-bit int",
        /// Memory semantics that are not an `OpConstant` with `Shader`.
        NotConstant => "Memory Semantics ids must be OpConstant when Shader capability is present",
        /// Memory semantics that are not a constant with `Shader` and `CooperativeMatrixNV`.
        NotConstantCooperative => "Memory Semantics must be a constant instruction when CooperativeMatrixNV capability is present",
        /// `UniformMemory` without `Shader`.
        UniformMemory { opcode: Opcode } => "{opcode}: Memory Semantics UniformMemory requires capability Shader",
        /// `OutputMemory` without `VulkanMemoryModel`.
        OutputMemory { opcode: Opcode } => "{opcode}: Memory Semantics OutputMemoryKHR requires capability VulkanMemoryModelKHR",
        /// More than one memory order bit.
        #[vuid = "VUID-StandaloneSpirv-MemorySemantics-10865"]
        Orders { opcode: Opcode } => "{opcode}: Memory Semantics must have at most one non-relaxed memory order bit set",
        /// `SequentiallyConsistent` under Vulkan.
        #[vuid = "VUID-StandaloneSpirv-MemorySemantics-10866"]
        SequentiallyConsistent { opcode: Opcode } => "{opcode}: Memory Semantics with SequentiallyConsistent memory order must not be used in the Vulkan API",
        /// An acquiring order on a store.
        #[vuid = "VUID-StandaloneSpirv-MemorySemantics-10867"]
        AcquireOnStore { opcode: Opcode } => "{opcode}: MemorySemantics must not use Acquire or AcquireRelease memory order with {opcode}",
        /// A releasing order on a load.
        #[vuid = "VUID-StandaloneSpirv-MemorySemantics-10868"]
        ReleaseOnLoad { opcode: Opcode } => "{opcode}: MemorySemantics must not use Release or AcquireRelease memory order with {opcode}",
        /// A relaxed `OpMemoryBarrier` under Vulkan.
        #[vuid = "VUID-StandaloneSpirv-MemorySemantics-10869"]
        RelaxedBarrier { opcode: Opcode } => "{opcode}: MemorySemantics must not use Relaxed memory order with {opcode}",
        /// An order without a storage class bit under Vulkan.
        #[vuid = "VUID-StandaloneSpirv-MemorySemantics-10870"]
        OrderWithoutStorage { opcode: Opcode } => "{opcode}: Memory Semantics with a non-relaxed memory order (Acquire, Release, or AcquireRelease) must have at least one Vulkan-supported storage class semantics bit set (UniformMemory, WorkgroupMemory, ImageMemory, or OutputMemory)",
        /// A storage class bit without an order under Vulkan.
        #[vuid = "VUID-StandaloneSpirv-MemorySemantics-10871"]
        StorageWithoutOrder { opcode: Opcode } => "{opcode}: Memory Semantics with at least one Vulkan-supported storage class semantics bit set (UniformMemory, WorkgroupMemory, ImageMemory, or OutputMemory) must use a non-relaxed memory order (Acquire, Release, or AcquireRelease)",
        /// `MakeAvailable` without `VulkanMemoryModel`.
        MakeAvailableCapability { opcode: Opcode } => "{opcode}: Memory Semantics MakeAvailableKHR requires capability VulkanMemoryModelKHR",
        /// `MakeAvailable` without a releasing order.
        #[vuid = "VUID-StandaloneSpirv-MemorySemantics-10872"]
        MakeAvailableOrder { opcode: Opcode } => "{opcode}: Memory Semantics with MakeAvailable bit set must use Release or AcquireRelease memory order",
        /// `MakeVisible` without `VulkanMemoryModel`.
        MakeVisibleCapability { opcode: Opcode } => "{opcode}: Memory Semantics MakeVisibleKHR requires capability VulkanMemoryModelKHR",
        /// `MakeVisible` without an acquiring order.
        #[vuid = "VUID-StandaloneSpirv-MemorySemantics-10873"]
        MakeVisibleOrder { opcode: Opcode } => "{opcode}: Memory Semantics with MakeVisible bit set must use Acquire or AcquireRelease memory order",
        /// `Volatile` without `VulkanMemoryModel`.
        VolatileCapability { opcode: Opcode } => "{opcode}: Memory Semantics Volatile requires capability VulkanMemoryModelKHR",
        /// `Volatile` on a barrier.
        #[vuid = "VUID-StandaloneSpirv-MemorySemantics-10874"]
        VolatileBarrier { opcode: Opcode } => "{opcode}: Memory Semantics with Volatile bit set must not be used with barrier instructions",
        /// Unequal semantics that release.
        #[vuid = "VUID-StandaloneSpirv-UnequalMemorySemantics-10875"]
        UnequalRelease { opcode: Opcode } => "{opcode} Unequal Memory Semantics must not use Release or AcquireRelease memory order",
        /// Unequal semantics stronger than the equal ones.
        #[vuid = "VUID-StandaloneSpirv-UnequalMemorySemantics-10876"]
        UnequalStronger { opcode: Opcode } => "{opcode} Unequal Memory Semantics must not use a stronger memory order than the corresponding Equal Memory Semantics",
        /// Unequal semantics with a storage class bit the equal ones lack.
        #[vuid = "VUID-StandaloneSpirv-UnequalMemorySemantics-10877"]
        UnequalStorage { opcode: Opcode } => "{opcode} Unequal Memory Semantics must not have any Vulkan-supported storage class semantics bit set (UniformMemory, WorkgroupMemory, ImageMemory, or OutputMemory) unless this bit is also set in the corresponding Equal Memory Semantics",
        /// Unequal semantics with `MakeVisible` the equal ones lack.
        #[vuid = "VUID-StandaloneSpirv-UnequalMemorySemantics-10878"]
        UnequalMakeVisible { opcode: Opcode } => "{opcode} Unequal Memory Semantics must not have MakeVisible bit set unless this bit is also set in the corresponding Equal Memory Semantics",
        /// Unequal and equal semantics that differ in `Volatile`.
        #[vuid = "VUID-StandaloneSpirv-UnequalMemorySemantics-10879"]
        UnequalVolatile { opcode: Opcode } => "{opcode} Unequal Memory Semantics must have Volatile bit set if and only if this bit is also set in the corresponding Equal Memory Semantics",
        /// An order with the `Invocation` memory scope under Vulkan.
        #[vuid = "VUID-StandaloneSpirv-None-04641"]
        InvocationScope { opcode: Opcode } => "{opcode}: Vulkan specification requires Memory Semantics to be Relaxed if used with Invocation Memory Scope",
    }
}

// The bits of `MemorySemantics` the rules read.
const ACQUIRE: u32 = 0x2;
const RELEASE: u32 = 0x4;
const ACQUIRE_RELEASE: u32 = 0x8;
const SEQ_CST: u32 = 0x10;
const UNIFORM: u32 = 0x40;
const WORKGROUP: u32 = 0x100;
const IMAGE: u32 = 0x800;
const OUTPUT: u32 = 0x1000;
const MAKE_AVAILABLE: u32 = 0x2000;
const MAKE_VISIBLE: u32 = 0x4000;
const VOLATILE: u32 = 0x8000;
const ORDERS: u32 = ACQUIRE | RELEASE | ACQUIRE_RELEASE | SEQ_CST;
const STORAGE: u32 = UNIFORM | WORKGROUP | IMAGE | OUTPUT;

/// `spvOpcodeIsAtomicOp`.
pub(super) fn is_atomic(op: Opcode) -> bool {
    matches!(
        op,
        O::AtomicLoad
            | O::AtomicStore
            | O::AtomicExchange
            | O::AtomicCompareExchange
            | O::AtomicCompareExchangeWeak
            | O::AtomicIIncrement
            | O::AtomicIDecrement
            | O::AtomicIAdd
            | O::AtomicFAddEXT
            | O::AtomicISub
            | O::AtomicSMin
            | O::AtomicUMin
            | O::AtomicFMinEXT
            | O::AtomicSMax
            | O::AtomicUMax
            | O::AtomicFMaxEXT
            | O::AtomicAnd
            | O::AtomicOr
            | O::AtomicXor
            | O::AtomicFlagTestAndSet
            | O::AtomicFlagClear
    )
}

/// `ValidateMemorySemantics`: the memory-semantics operand `id` of an `opcode`
/// instruction, at operand `operand` (spirv-val's operand index, which tells a
/// compare-exchange's unequal semantics, 5, from its equal ones, `equal`), with the
/// instruction's memory scope `memory_scope`.
pub(super) fn validate_memory_semantics(
    q: &Query<'_>,
    opcode: Opcode,
    id: u32,
    operand: usize,
    equal: u32,
    memory_scope: u32,
) -> Result<(), Fault> {
    let has = |c: C| q.state.has_capability(c.0);
    let (is_int32, is_const, value) = q.int32_if_const(id);
    let env = q.state.options.target_env;
    let vulkan = env.is_vulkan() || q.state.memory_model() == MemoryModel::Vulkan;
    if !is_int32 {
        return Err(E::NotInt32 { opcode }.into());
    }
    if !is_const {
        if has(C::Shader) && !has(C::CooperativeMatrixNV) {
            return Err(E::NotConstant.into());
        }
        if has(C::Shader) && !crate::spirv_tools::is_constant(q.opcode(id)) {
            return Err(E::NotConstantCooperative.into());
        }
        return Ok(());
    }
    let fault = |e: E| Err(Fault::from(e));
    if value & UNIFORM != 0 && !has(C::Shader) {
        return fault(E::UniformMemory { opcode });
    }
    if value & OUTPUT != 0 && !has(C::VulkanMemoryModel) {
        return fault(E::OutputMemory { opcode });
    }
    let orders = (value & ORDERS).count_ones();
    if orders > 1 {
        return fault(E::Orders { opcode });
    }
    if vulkan && value & SEQ_CST != 0 {
        return fault(E::SequentiallyConsistent { opcode });
    }
    if matches!(opcode, O::AtomicStore | O::AtomicFlagClear)
        && value & (ACQUIRE | ACQUIRE_RELEASE) != 0
    {
        return fault(E::AcquireOnStore { opcode });
    }
    if opcode == O::AtomicLoad && value & (RELEASE | ACQUIRE_RELEASE) != 0 {
        return fault(E::ReleaseOnLoad { opcode });
    }
    if vulkan && opcode == O::MemoryBarrier && orders == 0 {
        return fault(E::RelaxedBarrier { opcode });
    }
    if vulkan {
        let storage = value & STORAGE != 0;
        if orders != 0 && !storage {
            return fault(E::OrderWithoutStorage { opcode });
        }
        if orders == 0 && storage {
            return fault(E::StorageWithoutOrder { opcode });
        }
    }
    if value & MAKE_AVAILABLE != 0 {
        if !has(C::VulkanMemoryModel) {
            return fault(E::MakeAvailableCapability { opcode });
        }
        if value & (RELEASE | ACQUIRE_RELEASE) == 0 {
            return fault(E::MakeAvailableOrder { opcode });
        }
    }
    if value & MAKE_VISIBLE != 0 {
        if !has(C::VulkanMemoryModel) {
            return fault(E::MakeVisibleCapability { opcode });
        }
        if value & (ACQUIRE | ACQUIRE_RELEASE) == 0 {
            return fault(E::MakeVisibleOrder { opcode });
        }
    }
    if value & VOLATILE != 0 {
        if !has(C::VulkanMemoryModel) {
            return fault(E::VolatileCapability { opcode });
        }
        if !is_atomic(opcode) {
            return fault(E::VolatileBarrier { opcode });
        }
    }
    if matches!(
        opcode,
        O::AtomicCompareExchange | O::AtomicCompareExchangeWeak
    ) && operand == 5
    {
        if value & (RELEASE | ACQUIRE_RELEASE) != 0 {
            return fault(E::UnequalRelease { opcode });
        }
        let (_, _, equal) = q.int32_if_const(equal);
        if (value & SEQ_CST != 0 && equal & SEQ_CST == 0)
            || (value & ACQUIRE != 0 && equal & ORDERS == 0)
        {
            return fault(E::UnequalStronger { opcode });
        }
        if vulkan {
            if value & !equal & STORAGE != 0 {
                return fault(E::UnequalStorage { opcode });
            }
            if value & !equal & MAKE_VISIBLE != 0 {
                return fault(E::UnequalMakeVisible { opcode });
            }
            if (equal ^ value) & VOLATILE != 0 {
                return fault(E::UnequalVolatile { opcode });
            }
        }
    }
    if vulkan && orders != 0 {
        let (is_int32, _, scope) = q.int32_if_const(memory_scope);
        if is_int32 && scope == Scope::Invocation.0 {
            return fault(E::InvocationScope { opcode });
        }
    }
    Ok(())
}

/// What this family checks (see [`coverage`](crate::validate::coverage)): the rules of
/// the operands the atomic and barrier families hand it.
pub(crate) const COVERAGE: crate::validate::coverage::Family =
    crate::validate::coverage::Family::new("memory semantics", "validate_memory_semantics.cpp");
