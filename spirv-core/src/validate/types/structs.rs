//! spirv-val's struct rules (`ValidateTypeStruct` in `validate_type.cpp`): members,
//! Block nesting, BuiltIn members, opaque members in Vulkan, over spirv-val's
//! decoration registry (every annotation precedes the types, so all are registered
//! when types are checked); and the uses of function types the type pass refuses.

use super::super::Query;
use super::super::validation_state::{Dec, IdBits, NO_MEMBER, contains_step, reaches};
use super::super::{Fault, Inst};
use super::TypeError;
use super::Types;
use crate::__private::Vec;
use crate::grammar::KindClass;
use crate::spirv_tools::{self as opcodes, generates_type};
use crate::spv::{Capability as C, Decoration as D, Opcode as O};
use crate::types::Id;
use alloc::collections::{BTreeMap, BTreeSet};

/// How many distinct members of struct `id` are BuiltIn, in spirv-val's registry
/// (member decorations, and groups applied to members).
fn builtin_members<'m>(q: &Query<'m>, id: u32, scratch: &mut Vec<Dec<'m>>) -> usize {
    q.decorations.collect(id, &[D::BuiltIn.0], scratch);
    // In set order: members ascending, each member's entries together.
    let mut members: Vec<u32> = scratch
        .iter()
        .filter(|d| d.member != NO_MEMBER)
        .map(|d| d.member)
        .collect();
    members.dedup();
    members.len()
}

/// `ValidateTypeStruct`.
pub(crate) fn type_struct(q: &Query<'_>, inst: &Inst<'_>, st: &mut Types) -> Result<(), Fault> {
    let id = inst.result_id;
    let members = inst.words.get(2..).unwrap_or(&[]);
    let vulkan = q.state.options.target_env.is_vulkan();
    let (decs, memo) = (q.decorations, &mut st.memo);
    let mut scratch = Vec::new();
    let block = |s: u32| decs.has(s, D::Block.0) || decs.has(s, D::BufferBlock.0);
    for (i, &m) in members.iter().enumerate() {
        if m == id {
            return Err(TypeError::StructSelfReference.into());
        }
        let op = q.opcode(m);
        if !generates_type(op) {
            return Err(TypeError::StructMemberNotType { member: Id(m) }.into());
        }
        if op == O::TypeVoid {
            return Err(TypeError::StructMemberVoid.into());
        }
        if op == O::TypeStruct && builtin_members(q, m, &mut scratch) > 0 {
            return Err(TypeError::StructBuiltInMember {
                member: Id(m),
                structure: Id(id),
            }
            .into());
        }
        if vulkan && op == O::TypeRuntimeArray {
            if i + 1 != members.len() {
                return Err(TypeError::RuntimeArrayNotLast.into());
            }
            if !block(id) {
                return Err(TypeError::RuntimeArrayStructNotBlock.into());
            }
        }
    }
    let is_block = |op: O, w: &[u32]| op == O::TypeStruct && w.get(1).is_some_and(|&s| block(s));
    let step = |_, def| contains_step(q, def, false, &is_block);
    let nested = members
        .iter()
        .any(|&m| reaches(q, m, &mut memo.block, &step));
    if nested && block(id) {
        return Err(TypeError::NestedBlock.into());
    }
    let n = builtin_members(q, id, &mut scratch);
    if n > 0 && n != members.len() {
        return Err(TypeError::BuiltInMixed { structure: Id(id) }.into());
    }
    if vulkan && !q.state.options.before_hlsl_legalization {
        let bindless = q.state.has_capability(C::BindlessTextureNV.0);
        let opaque = |op: O, _: &[u32]| match op {
            O::TypeImage | O::TypeSampler | O::TypeSampledImage => !bindless,
            O::TypeOpaque
            | O::TypeEvent
            | O::TypeDeviceEvent
            | O::TypeReserveId
            | O::TypeQueue
            | O::TypePipe
            | O::TypeForwardPointer
            | O::TypePipeStorage
            | O::TypeNamedBarrier => true,
            _ => false,
        };
        let step = |_, def| contains_step(q, def, true, &opaque);
        if reaches(q, id, &mut memo.opaque, &step) {
            return Err(TypeError::StructOpaque.into());
        }
    }
    Ok(())
}

/// For each function type, the index of its first use other than by `OpFunction`,
/// `OpAsmINTEL`, a debug or decoration instruction or a non-semantic instruction.
pub(crate) fn bad_function_type_uses(q: &Query<'_>) -> BTreeMap<u32, u32> {
    let types: BTreeSet<u32> = q
        .module
        .instructions()
        .filter(|i| i.opcode() == O::TypeFunction)
        .filter_map(|i| i.words().get(1).copied())
        .collect();
    // The test on every word, as bits; the set answers for the operands.
    let mut bits = IdBits::new(q.state);
    for &t in &types {
        bits.insert(t);
    }
    let mut first = BTreeMap::new();
    let mut operands = super::super::validation_state::OperandMemo::default();
    for index in 0..q.module.len() {
        let Some(i) = q.module.instruction(index) else {
            continue;
        };
        let op = i.opcode();
        if op == O::Function
            || op == O::AsmINTEL
            || opcodes::is_debug(op)
            || opcodes::is_decoration(op)
            || !bits.may_name(i.words())
        {
            continue;
        }
        let Some(inst) =
            super::super::validation_state::memoized(q.module, q.state, index, &mut operands)
        else {
            continue;
        };
        if inst.set.is_some_and(|s| s.is_non_semantic()) {
            continue;
        }
        for o in inst.operands {
            if matches!(o.kind.class, KindClass::Id | KindClass::ResultType) {
                let w = inst.words.get(o.offset).copied().unwrap_or(0);
                if types.contains(&w) {
                    first.entry(w).or_insert(index as u32);
                }
            }
        }
    }
    first
}
