//! spirv-val's struct rules (`ValidateTypeStruct` in `validate_type.cpp`): members,
//! Block nesting, BuiltIn members, opaque members in Vulkan; what they read (the
//! decorations spirv-val has registered by the time types are checked); and the uses
//! of function types the type pass refuses.

use super::super::Query;
use super::super::validation_state::{IdBits, contains_step, reaches};
use super::super::{Fault, Inst};
use super::TypeError;
use super::Types;
use crate::grammar::KindClass;
use crate::spirv_tools::{self as opcodes, generates_type};
use crate::spv::{Capability as C, Decoration as D, Opcode as O};
use crate::types::Id;
use alloc::collections::{BTreeMap, BTreeSet};

/// What spirv-val's annotation pass registers (`RegisterDecorations`): which
/// decorations each id has (member decorations included), and which members of each
/// struct are BuiltIn. `OpDecorateString` and `OpMemberDecorateString` register
/// nothing, as in spirv-val.
#[derive(Debug, Default)]
pub(crate) struct Decorations {
    /// Decoration kinds by target.
    kinds: BTreeMap<u32, BTreeSet<u32>>,
    /// BuiltIn member indices by struct.
    builtin_members: BTreeMap<u32, BTreeSet<u32>>,
    /// Targets whose BuiltIn members came through a group of member decorations,
    /// which this index does not follow: their BuiltIn rules are not checked.
    uncertain: BTreeSet<u32>,
}

impl Decorations {
    /// Reads the module's annotations, in order.
    fn read(q: &Query<'_>) -> Self {
        let mut d = Decorations::default();
        for inst in q.module.instructions() {
            let w = inst.words();
            let at = |i: usize| w.get(i).copied().unwrap_or(0);
            match inst.opcode() {
                O::Decorate | O::DecorateId => {
                    d.kinds.entry(at(1)).or_default().insert(at(2));
                }
                O::MemberDecorate => {
                    d.kinds.entry(at(1)).or_default().insert(at(3));
                    if at(3) == D::BuiltIn.0 {
                        d.builtin_members.entry(at(1)).or_default().insert(at(2));
                    }
                }
                O::GroupDecorate => {
                    let group = d.kinds.get(&at(1)).cloned().unwrap_or_default();
                    let odd =
                        d.builtin_members.contains_key(&at(1)) || d.uncertain.contains(&at(1));
                    for &t in w.get(2..).unwrap_or(&[]) {
                        d.kinds.entry(t).or_default().extend(group.iter().copied());
                        if odd {
                            d.uncertain.insert(t);
                        }
                    }
                }
                O::GroupMemberDecorate => {
                    let group = d.kinds.get(&at(1)).cloned().unwrap_or_default();
                    let odd =
                        d.builtin_members.contains_key(&at(1)) || d.uncertain.contains(&at(1));
                    let builtin = group.contains(&D::BuiltIn.0);
                    for pair in w.get(2..).unwrap_or(&[]).chunks_exact(2) {
                        d.kinds
                            .entry(pair[0])
                            .or_default()
                            .extend(group.iter().copied());
                        if builtin {
                            d.builtin_members
                                .entry(pair[0])
                                .or_default()
                                .insert(pair[1]);
                        }
                        if odd {
                            d.uncertain.insert(pair[0]);
                        }
                    }
                }
                O::Function => break,
                _ => {}
            }
        }
        d
    }

    /// `HasDecoration`.
    pub(crate) fn has(&self, id: u32, dec: D) -> bool {
        self.kinds.get(&id).is_some_and(|k| k.contains(&dec.0))
    }

    /// How many distinct members of `id` are BuiltIn; `None` when not known.
    fn builtin_members(&self, id: u32) -> Option<usize> {
        if self.uncertain.contains(&id) {
            return None;
        }
        Some(self.builtin_members.get(&id).map_or(0, BTreeSet::len))
    }
}

/// The decoration index, read at the first call.
pub(crate) fn decorations<'s>(q: &Query<'_>, st: &'s mut Types) -> &'s Decorations {
    st.decorations.get_or_insert_with(|| Decorations::read(q))
}

/// `ValidateTypeStruct`.
pub(crate) fn type_struct(q: &Query<'_>, inst: &Inst<'_>, st: &mut Types) -> Result<(), Fault> {
    let id = inst.result_id;
    let members = inst.words.get(2..).unwrap_or(&[]);
    let vulkan = q.state.options.target_env.is_vulkan();
    decorations(q, st);
    let (Some(decs), memo) = (&st.decorations, &mut st.memo) else {
        return Ok(());
    };
    let block = |s: u32| decs.has(s, D::Block) || decs.has(s, D::BufferBlock);
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
        if op == O::TypeStruct && decs.builtin_members(m).is_some_and(|n| n > 0) {
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
    if let Some(n) = decs.builtin_members(id) {
        if n > 0 && n != members.len() {
            return Err(TypeError::BuiltInMixed { structure: Id(id) }.into());
        }
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
