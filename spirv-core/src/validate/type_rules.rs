//! The rest of spirv-val's type pass (`validate_type.cpp`): structs (members, Block
//! nesting, BuiltIn members, opaque members in Vulkan), cooperative matrices and
//! vectors, the NV and ARM tensor types; and what those rules read: the decorations
//! spirv-val has registered by then, `ContainsType`, the uses of function types.

use super::Query;
use super::type_error::TypeError;
use super::types::Types;
use super::validation_state::{IdBits, contains_step, reaches};
use super::{Fault, Inst};
use crate::__private::Vec;
use crate::grammar::KindClass;
use crate::spirv_tools::{self as opcodes, generates_type};
use crate::spv::{self, Capability as C, Decoration as D, Opcode as O};
use crate::types::Id;
use alloc::collections::{BTreeMap, BTreeSet};

/// `e` as a fault at the current instruction.
fn fail<T>(e: TypeError) -> Result<T, Fault> {
    Err(super::error::ErrorKind::Type(e).into())
}

/// What spirv-val's annotation pass registers (`RegisterDecorations`): which
/// decorations each id has (member decorations included), and which members of each
/// struct are BuiltIn. `OpDecorateString` and `OpMemberDecorateString` register
/// nothing, as in spirv-val.
#[derive(Debug, Default)]
pub(super) struct Decorations {
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
    pub(super) fn has(&self, id: u32, dec: D) -> bool {
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
pub(super) fn decorations<'s>(q: &Query<'_>, st: &'s mut Types) -> &'s Decorations {
    st.decorations.get_or_insert_with(|| Decorations::read(q))
}

/// `ValidateTypeStruct`.
pub(super) fn type_struct(q: &Query<'_>, inst: &Inst<'_>, st: &mut Types) -> Result<(), Fault> {
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
            return fail(TypeError::StructSelfReference);
        }
        let op = q.opcode(m);
        if !generates_type(op) {
            return fail(TypeError::StructMemberNotType(Id(m)));
        }
        if op == O::TypeVoid {
            return fail(TypeError::StructMemberVoid);
        }
        if op == O::TypeStruct && decs.builtin_members(m).is_some_and(|n| n > 0) {
            return fail(TypeError::StructBuiltInMember(Id(m), Id(id)));
        }
        if vulkan && op == O::TypeRuntimeArray {
            if i + 1 != members.len() {
                return fail(TypeError::RuntimeArrayNotLast);
            }
            if !block(id) {
                return fail(TypeError::RuntimeArrayStructNotBlock);
            }
        }
    }
    let is_block = |op: O, w: &[u32]| op == O::TypeStruct && w.get(1).is_some_and(|&s| block(s));
    let step = |_, def| contains_step(q, def, false, &is_block);
    let nested = members
        .iter()
        .any(|&m| reaches(q, m, &mut memo.block, &step));
    if nested && block(id) {
        return fail(TypeError::NestedBlock);
    }
    if let Some(n) = decs.builtin_members(id) {
        if n > 0 && n != members.len() {
            return fail(TypeError::BuiltInMixed(Id(id)));
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
            return fail(TypeError::StructOpaque);
        }
    }
    Ok(())
}

/// For each function type, the index of its first use other than by `OpFunction`,
/// `OpAsmINTEL`, a debug or decoration instruction or a non-semantic instruction.
pub(super) fn bad_function_type_uses(q: &Query<'_>) -> BTreeMap<u32, u32> {
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
    let mut operands = Vec::new();
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
            super::validation_state::decode(q.module, q.state, index, &mut operands, true)
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

/// Whether an `OpTypeFloat` has the encoding `e`.
fn float_encoding(q: &Query<'_>, id: u32, e: &[spv::FPEncoding]) -> bool {
    q.opcode(id) == O::TypeFloat && q.word(id, 3).is_some_and(|w| e.iter().any(|e| e.0 == w))
}

/// Whether `id` is a constant (any of spirv-val's constant opcodes) of integer type.
fn int_constant(q: &Query<'_>, id: u32) -> bool {
    q.is_int_scalar_type(q.type_of(id)) && opcodes::is_constant(q.opcode(id))
}

/// `ValidateTypeCooperativeMatrix`.
pub(super) fn cooperative_matrix(
    q: &Query<'_>,
    inst: &Inst<'_>,
    st: &mut Types,
) -> Result<(), Fault> {
    let w = |i: usize| inst.words.get(i).copied().unwrap_or(0);
    let component = w(2);
    if !matches!(q.opcode(component), O::TypeFloat | O::TypeInt) {
        return fail(TypeError::CoopMatrixComponent(Id(component)));
    }
    let has = |c: C| q.state.has_capability(c.0);
    if float_encoding(q, component, &[spv::FPEncoding::BFloat16KHR])
        && !has(C::BFloat16CooperativeMatrixKHR)
    {
        return fail(TypeError::CoopMatrixBFloat16(Id(component)));
    }
    let fp8 = [
        spv::FPEncoding::Float8E4M3EXT,
        spv::FPEncoding::Float8E5M2EXT,
    ];
    if float_encoding(q, component, &fp8) && !has(C::Float8CooperativeMatrixEXT) {
        return fail(TypeError::CoopMatrixFloat8(Id(component)));
    }
    let last = if inst.opcode == O::TypeCooperativeMatrixKHR {
        6
    } else {
        5
    };
    for (which, word) in (3..=last).enumerate() {
        if !int_constant(q, w(word)) {
            return fail(TypeError::CoopMatrixOperand(which as u8, Id(w(word))));
        }
    }
    if q.constant_u64(w(3)) != Some(u64::from(spv::Scope::Workgroup.0)) {
        return Ok(());
    }
    let sizes = st.local_sizes.get_or_insert_with(|| local_sizes(q));
    for &ep in &q.state.entry_points {
        let Some(&(mode, ids)) = sizes.get(&ep) else {
            return fail(TypeError::CoopMatrixNoLocalSize(Id(ep)));
        };
        if mode == spv::ExecutionMode::LocalSizeId.0 {
            for id in ids {
                if q.state
                    .def(id)
                    .is_some_and(|d| d.index as usize > inst.index)
                {
                    return fail(TypeError::CoopMatrixLocalSizeIdLater(Id(id)));
                }
            }
        }
    }
    Ok(())
}

/// Each entry point's last `LocalSize` or `LocalSizeId` mode and its three operands.
fn local_sizes(q: &Query<'_>) -> BTreeMap<u32, (u32, [u32; 3])> {
    let mut out = BTreeMap::new();
    for i in q.module.instructions() {
        if !matches!(i.opcode(), O::ExecutionMode | O::ExecutionModeId) {
            continue;
        }
        let w = i.words();
        let at = |k: usize| w.get(k).copied().unwrap_or(0);
        if at(2) == spv::ExecutionMode::LocalSize.0 || at(2) == spv::ExecutionMode::LocalSizeId.0 {
            out.insert(at(1), (at(2), [at(3), at(4), at(5)]));
        }
    }
    out
}

/// `ValidateTypeCooperativeVectorNV`.
pub(super) fn cooperative_vector(q: &Query<'_>, component: u32, count: u32) -> Result<(), Fault> {
    if !matches!(q.opcode(component), O::TypeFloat | O::TypeInt) {
        return fail(TypeError::CoopVectorComponent(Id(component)));
    }
    if !opcodes::is_constant(q.opcode(count)) {
        return fail(TypeError::CoopVectorCountNotConstant(Id(count)));
    }
    let ty = q.word(count, 1).unwrap_or(0);
    if q.opcode(ty) != O::TypeInt {
        return fail(TypeError::CoopVectorCountNotInt(Id(count)));
    }
    if let Some(v) = q.constant_i64(count) {
        let signed = q.word(ty, 3).is_some_and(|s| s > 0);
        if v == 0 || (v < 0 && signed) {
            return fail(TypeError::CoopVectorCountValue(Id(count), v));
        }
    }
    Ok(())
}

/// Whether `id` is a value of 32-bit integer type.
fn int32_value(q: &Query<'_>, id: u32) -> bool {
    let t = q.type_of(id);
    q.is_int_scalar_type(t) && q.bit_width(t) == 32
}

/// `ValidateTensorDim`.
fn tensor_dim(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let op = inst.opcode;
    let dim = inst.words.get(2).copied().unwrap_or(0);
    if !int32_value(q, dim) {
        return fail(TypeError::TensorDimNot32(op, Id(dim)));
    }
    if q.constant_u64(dim).is_some_and(|v| v == 0 || v > 5) {
        return fail(TypeError::TensorDimRange(op, Id(dim)));
    }
    Ok(())
}

/// `ValidateTypeTensorLayoutNV`.
pub(super) fn tensor_layout(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    tensor_dim(q, inst)?;
    let op = inst.opcode;
    let clamp = inst.words.get(3).copied().unwrap_or(0);
    if !int32_value(q, clamp) {
        return fail(TypeError::TensorClampNot32(op, Id(clamp)));
    }
    if q.constant_u64(clamp)
        .is_some_and(|v| v > u64::from(spv::TensorClampMode::RepeatMirrored.0))
    {
        return fail(TypeError::TensorClampInvalid(op, Id(clamp)));
    }
    Ok(())
}

/// `ValidateTypeTensorViewNV`.
pub(super) fn tensor_view(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    tensor_dim(q, inst)?;
    let op = inst.opcode;
    let has_dim = inst.words.get(3).copied().unwrap_or(0);
    if !q.is_bool_scalar_type(q.type_of(has_dim)) {
        return fail(TypeError::TensorHasDimNotBool(op, Id(has_dim)));
    }
    let perms = inst.words.get(4..).unwrap_or(&[]);
    let n = perms.len() as u64;
    let mut mask = 0u64;
    let mut all_constant = true;
    for &p in perms {
        if !int32_value(q, p) {
            return fail(TypeError::TensorPermutationNot32(op, Id(p)));
        }
        match q.constant_u64(p) {
            Some(v) if v >= n => return fail(TypeError::TensorPermutationDim(op, Id(p))),
            Some(v) => mask |= 1u64.checked_shl(v as u32).unwrap_or(0),
            None => all_constant = false,
        }
    }
    // spirv-val shifts an int: past 31 dimensions its answer is the machine's.
    if n > 31 {
        return Ok(());
    }
    if all_constant && mask != (1u64 << n) - 1 {
        return fail(TypeError::TensorPermutationInvalid(op));
    }
    let dim = inst.words.get(2).copied().unwrap_or(0);
    if q.constant_u64(dim).is_some_and(|v| v != n) {
        return fail(TypeError::TensorPermutationCount(op));
    }
    Ok(())
}

/// `ValidateTypeTensorARM`.
pub(super) fn tensor_arm(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let w = |i: usize| inst.words.get(i).copied().unwrap_or(0);
    let element = w(2);
    if !q.is_scalar_type(element) {
        return fail(TypeError::TensorElement(Id(element)));
    }
    if inst.words.len() < 4 {
        return Ok(());
    }
    let rank = w(3);
    if !opcodes::is_constant(q.opcode(rank)) {
        return fail(TypeError::TensorRankNotConstant(Id(rank)));
    }
    if !q.is_int_scalar_type(q.type_of(rank)) {
        return fail(TypeError::TensorRankNotInt(Id(rank)));
    }
    let rank_value = q.constant_u64(rank).unwrap_or(0);
    if q.constant_u64(rank) == Some(0) {
        return fail(TypeError::TensorRankZero(Id(rank)));
    }
    if inst.words.len() < 5 {
        return Ok(());
    }
    let shape = w(4);
    if !opcodes::is_constant(q.opcode(shape)) {
        return fail(TypeError::TensorShapeNotConstant(Id(shape)));
    }
    if !int_array_type(q, q.type_of(shape), rank_value) {
        return fail(TypeError::TensorShapeNotArray(Id(shape)));
    }
    let constituents = q
        .def(shape)
        .map_or(&[][..], |d| d.words().get(3..).unwrap_or(&[]));
    for (i, &s) in constituents.iter().enumerate() {
        if q.constant_u64(s) == Some(0) {
            return fail(TypeError::TensorShapeZero(i));
        }
    }
    Ok(())
}

/// `IsIntArrayType(id, length)`.
fn int_array_type(q: &Query<'_>, id: u32, length: u64) -> bool {
    if q.opcode(id) != O::TypeArray {
        return false;
    }
    if length != 0 {
        let len = q.word(id, 3).unwrap_or(0);
        if !opcodes::is_constant(q.opcode(len)) || q.constant_u64(len).is_some_and(|v| v != length)
        {
            return false;
        }
    }
    q.is_int_scalar_type(q.component_type(id))
}
