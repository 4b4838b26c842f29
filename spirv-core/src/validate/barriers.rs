//! spirv-val's barriers pass (`BarriersPass` in `validate_barriers.cpp`):
//! `OpControlBarrier`'s execution and memory scopes and memory semantics (and the
//! execution-model limitation it registers before SPIR-V 1.3), `OpMemoryBarrier`'s
//! memory scope and semantics, and the named barriers' types.

use super::faults::faults;
use super::limitations::{self, Limitation};
use super::memory_semantics::validate_memory_semantics;
use super::scopes::{validate_execution_scope, validate_memory_scope};
use super::{Fault, Inst, Query};
use crate::spv::{Opcode, Opcode as O};
use BarrierError as E;

faults! {
    /// A fault of spirv-val's barriers pass (`validate_barriers.cpp`).
    pub enum BarrierError {
        /// `OpNamedBarrierInitialize` whose result is no named barrier.
        NamedBarrierResult { opcode: Opcode } => "{opcode}: expected Result Type to be OpTypeNamedBarrier",
        /// A subgroup count that is no 32-bit integer.
        SubgroupCount { opcode: Opcode } => "{opcode}: expected Subgroup Count to be a 32-bit int",
        /// `OpMemoryNamedBarrier` on what is no named barrier.
        NamedBarrier { opcode: Opcode } => "{opcode}: expected Named Barrier to be of type OpTypeNamedBarrier",
    }
}

/// `BarriersPass` for one instruction.
#[inline(always)]
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let opcode = inst.opcode;
    // The operand index of each barrier's memory scope (its semantics follow it).
    let memory_scope = match opcode {
        O::ControlBarrier => {
            if q.state.version < (1, 3) {
                let rule = &limitations::rules::CONTROL_BARRIER_MODELS;
                limitations::register(q, inst, Limitation::new(q, rule));
            }
            if !validate_execution_scope(q, inst, inst.word(0))? {
                return Ok(());
            }
            1
        }
        O::MemoryBarrier => 0,
        O::NamedBarrierInitialize => {
            if q.opcode(inst.result_type()) != O::TypeNamedBarrier {
                return Err(E::NamedBarrierResult { opcode }.into());
            }
            let count = q.operand_type(inst, 2);
            if !q.is_int_scalar_type(count) || q.bit_width(count) != 32 {
                return Err(E::SubgroupCount { opcode }.into());
            }
            return Ok(());
        }
        O::MemoryNamedBarrier => {
            if q.opcode(q.operand_type(inst, 0)) != O::TypeNamedBarrier {
                return Err(E::NamedBarrier { opcode }.into());
            }
            1
        }
        _ => return Ok(()),
    };
    let scope = inst.word(memory_scope);
    if !validate_memory_scope(q, inst, scope)? {
        return Ok(());
    }
    let semantics = memory_scope + 1;
    validate_memory_semantics(q, opcode, inst.word(semantics), semantics, 0, scope)
}

/// What this family checks (see [`coverage`](crate::validate::coverage)).
pub(crate) const COVERAGE: crate::validate::coverage::Family = crate::validate::coverage::Family {
    opcodes: &[
        O::ControlBarrier,
        O::MemoryBarrier,
        O::NamedBarrierInitialize,
        O::MemoryNamedBarrier,
    ],
    ..crate::validate::coverage::Family::new("barriers", "validate_barriers.cpp")
};
