//! `CheckDecorationsFromDecoration`: the rules of `Component`, `FPRoundingMode`,
//! `NonReadable`, `NonWritable`, `Uniform`, `UniformId`, `NoSignedWrap`,
//! `NoUnsignedWrap`, `Block`, `BufferBlock`, `Location` and `RelaxedPrecision` on each
//! decorated id, ids in ascending order and each id's decorations in spirv-val's set
//! order; and `CheckInvalidVulkanExplicitLayout`.

use super::super::Fault;
use super::super::Query;
use super::super::validation_state::{Dec, NO_MEMBER};
use super::error::DecorationError as E;
use super::{Cx, Go, at, at_def};
use crate::__private::Vec;
use crate::spirv_tools::{generates_type, is_debug, is_decoration};
use crate::spv::{Capability as C, Decoration as D, Opcode as O, StorageClass as S};
use crate::types::Id;
use alloc::collections::{BTreeMap, BTreeSet};

/// The decorations these rules look at.
const CHECKED: [u32; 12] = [
    D::Component.0,
    D::FPRoundingMode.0,
    D::NonReadable.0,
    D::NonWritable.0,
    D::Uniform.0,
    D::UniformId.0,
    D::NoSignedWrap.0,
    D::NoUnsignedWrap.0,
    D::Block.0,
    D::BufferBlock.0,
    D::Location.0,
    D::RelaxedPrecision.0,
];

/// The decorations that give a type an explicit layout.
const LAYOUT: [u32; 5] = [
    D::Block.0,
    D::BufferBlock.0,
    D::Offset.0,
    D::ArrayStride.0,
    D::MatrixStride.0,
];

/// The uses of some ids, as spirv-val registers them (instruction, word), in order.
fn uses_of(q: &Query<'_>, ids: &BTreeSet<u32>) -> BTreeMap<u32, Vec<(usize, usize)>> {
    let mut out: BTreeMap<u32, Vec<(usize, usize)>> = BTreeMap::new();
    if ids.is_empty() {
        return out;
    }
    let mut operands = super::super::validation_state::OperandMemo::default();
    for index in 0..q.module.len() {
        let Some(inst) =
            super::super::validation_state::memoized(q.module, q.state, index, &mut operands)
        else {
            continue;
        };
        for o in inst.operands {
            let id = inst.words.get(o.offset).copied().unwrap_or(0);
            let is_use = o.kind.is_id() && o.kind.class != crate::grammar::KindClass::Result;
            if is_use && ids.contains(&id) && q.state.def(id).is_some() {
                out.entry(id).or_default().push((index, o.offset));
            }
        }
    }
    out
}

/// `CheckDecorationsFromDecoration`.
pub(super) fn check(cx: &mut Cx<'_, '_>, report: &mut dyn FnMut(Fault) -> bool) -> Go {
    let q = cx.q;
    let shader = q.state.has_capability(C::Shader.0);
    let mut decs: Vec<Dec<'_>> = Vec::new();
    // The uses of the conversions with FPRoundingMode, found in one pass when needed.
    let rounded: BTreeSet<u32> = if shader {
        q.decorations
            .targets()
            .filter(|&t| q.opcode(t) == O::FConvert && q.decorations.has(t, D::FPRoundingMode.0))
            .collect()
    } else {
        BTreeSet::new()
    };
    let uses = uses_of(q, &rounded);
    for id in q.decorations.targets() {
        let Some(def) = q.def(id) else { continue };
        if def.opcode() == O::DecorationGroup {
            continue;
        }
        q.decorations.collect(id, &CHECKED, &mut decs);
        for d in &decs {
            let checked = match D(d.kind) {
                D::Component => component(cx, id, d),
                D::FPRoundingMode if shader => rounding(cx, id, d, uses.get(&id)),
                D::NonReadable | D::NonWritable => access(cx, id, d),
                D::Uniform | D::UniformId => uniform(cx, id, d),
                D::NoSignedWrap | D::NoUnsignedWrap => integer_wrap(cx, id, d),
                D::Block | D::BufferBlock => block(cx, id, d),
                D::Location => location(cx, id, d),
                D::RelaxedPrecision => relaxed_precision(cx, id, d),
                _ => Ok(()),
            };
            if let Err(e) = checked {
                if !report(at_def(q, id, e)) {
                    return false;
                }
                break;
            }
            if D(d.kind) == D::UniformId {
                if let Err(f) = uniform_scope(q, id, d) {
                    if !report(f) {
                        return false;
                    }
                    break;
                }
            }
        }
    }
    true
}

/// `CheckIntegerWrapDecoration`: `NoSignedWrap` and `NoUnsignedWrap` only on the
/// instructions that can wrap.
fn integer_wrap(cx: &Cx<'_, '_>, id: u32, d: &Dec<'_>) -> Result<(), E> {
    match cx.q.opcode(id) {
        O::IAdd
        | O::ISub
        | O::IMul
        | O::ShiftLeftLogical
        | O::SNegate
        | O::ExtInst
        | O::ExtInstWithForwardRefsKHR => Ok(()),
        opcode => Err(E::IntegerWrap {
            decoration: D(d.kind),
            opcode,
        }),
    }
}

/// `CheckBlockDecoration`: `Block` and `BufferBlock` only on structs.
fn block(cx: &Cx<'_, '_>, id: u32, d: &Dec<'_>) -> Result<(), E> {
    if cx.q.opcode(id) != O::TypeStruct {
        return Err(E::BlockNotStruct {
            decoration: D(d.kind),
        });
    }
    Ok(())
}

/// `CheckLocationDecoration`: `Location` only on variables and struct members.
fn location(cx: &Cx<'_, '_>, id: u32, d: &Dec<'_>) -> Result<(), E> {
    let op = cx.q.opcode(id);
    if op == O::Variable || (d.member != NO_MEMBER && op == O::TypeStruct) {
        return Ok(());
    }
    Err(E::LocationTarget)
}

/// `CheckRelaxPrecisionDecoration`: `RelaxedPrecision` on no type but struct members.
fn relaxed_precision(cx: &Cx<'_, '_>, id: u32, d: &Dec<'_>) -> Result<(), E> {
    let op = cx.q.opcode(id);
    if !generates_type(op) || (d.member != NO_MEMBER && op == O::TypeStruct) {
        return Ok(());
    }
    Err(E::RelaxedPrecisionType)
}

/// `CheckComponentDecoration`.
fn component(cx: &Cx<'_, '_>, id: u32, d: &Dec<'_>) -> Result<(), E> {
    let q = cx.q;
    let op = q.opcode(id);
    let mut type_id = if d.member == NO_MEMBER {
        if op != O::Variable && op != O::FunctionParameter {
            return Err(E::ComponentTarget);
        }
        if op == O::Variable {
            let class = q.word(id, 3).unwrap_or(0);
            if class != S::Input.0 && class != S::Output.0 {
                return Err(E::ComponentStorageClass {
                    storage_class: S(class),
                });
            }
        }
        let t = q.type_of(id);
        if q.is_pointer_type(t) {
            q.word(t, 3).unwrap_or(0)
        } else {
            t
        }
    } else {
        if op != O::TypeStruct {
            return Err(E::MemberOfNonStruct);
        }
        q.word(id, d.member as usize + 2).unwrap_or(0)
    };
    if !cx.vulkan {
        return Ok(());
    }
    let mut steps = 0;
    while q.opcode(type_id) == O::TypeArray && steps < 1 << 20 {
        type_id = q.word(type_id, 2).unwrap_or(0);
        steps += 1;
    }
    if !q.is_int_scalar_or_vector_type(type_id) && !q.is_float_scalar_or_vector_type(type_id) {
        return Err(E::ComponentType { id: Id(type_id) });
    }
    let component = d.params.first().copied().unwrap_or(0);
    if component > 3 {
        return Err(E::ComponentTooLarge);
    }
    let dimension = q.dimension(type_id);
    match q.bit_width(type_id) {
        16 | 32 => {
            let sum = component + dimension;
            if sum > 4 {
                return Err(E::ComponentSequence {
                    first: component,
                    last: sum.wrapping_sub(1),
                });
            }
        }
        64 => {
            if dimension > 2 {
                return Err(E::Component64Vector);
            }
            if component == 1 || component == 3 {
                return Err(E::Component64Odd);
            }
            let sum = component + 2 * dimension;
            if sum > 4 {
                return Err(E::ComponentSequence64 {
                    first: component,
                    last: sum.wrapping_sub(1),
                });
            }
        }
        _ => {}
    }
    Ok(())
}

/// `CheckFPRoundingModeForShaders`.
fn rounding(
    cx: &Cx<'_, '_>,
    id: u32,
    d: &Dec<'_>,
    uses: Option<&Vec<(usize, usize)>>,
) -> Result<(), E> {
    let q = cx.q;
    if q.opcode(id) != O::FConvert {
        return Err(E::RoundingTarget);
    }
    let mode = d.params.first().copied().unwrap_or(0);
    if cx.vulkan && mode != 0 && mode != 1 {
        return Err(E::RoundingModeInVulkan);
    }
    for &(index, word) in uses.map_or(&[][..], |u| &u[..]) {
        let Some(user) = q.module.instruction(index) else {
            continue;
        };
        let op = user.opcode();
        let w = user.words();
        let non_semantic = matches!(op, O::ExtInst | O::ExtInstWithForwardRefsKHR)
            && w.get(3)
                .and_then(|s| q.state.sets.get(s))
                .is_some_and(|s| s.is_non_semantic());
        if op == O::FConvert || is_debug(op) || non_semantic || is_decoration(op) {
            continue;
        }
        if op != O::Store || word != 2 {
            return Err(E::RoundingUse);
        }
        let pointer_type = q.type_of(w.get(1).copied().unwrap_or(0));
        let pointee = q.word(pointer_type, 3).unwrap_or(0);
        if !q.is_float_scalar_or_vector_type(pointee) || q.bit_width(pointee) != 16 {
            return Err(E::RoundingStoreType);
        }
        let class = S(q.word(pointer_type, 2).unwrap_or(0));
        if !matches!(
            class,
            S::StorageBuffer
                | S::Uniform
                | S::PushConstant
                | S::Input
                | S::Output
                | S::PhysicalStorageBuffer
        ) {
            return Err(E::RoundingStoreClass);
        }
    }
    Ok(())
}

/// Whether a pointer type points (through one array) to a storage image or a
/// tensor in UniformConstant (`IsPointerToStorageImage`, `IsPointerToTensor`).
fn points_to_image_or_tensor(q: &Query<'_>, pointer: u32) -> bool {
    if q.opcode(pointer) != O::TypePointer || q.word(pointer, 2) != Some(S::UniformConstant.0) {
        return false;
    }
    let mut t = q.word(pointer, 3).unwrap_or(0);
    if !q.def(t).is_some_and(|d| generates_type(d.opcode())) {
        return false;
    }
    if matches!(q.opcode(t), O::TypeArray | O::TypeRuntimeArray) {
        t = q.word(t, 2).unwrap_or(0);
    }
    match q.opcode(t) {
        O::TypeImage => q.word(t, 7) == Some(2),
        O::TypeTensorARM => true,
        _ => false,
    }
}

/// `CheckNonReadableWritableDecorations`.
fn access(cx: &Cx<'_, '_>, id: u32, d: &Dec<'_>) -> Result<(), E> {
    if d.member != NO_MEMBER {
        return Ok(());
    }
    let q = cx.q;
    let decoration = D(d.kind);
    let writable = decoration == D::NonWritable;
    let op = q.opcode(id);
    let type_id = q.type_of(id);
    if !matches!(
        op,
        O::Variable | O::UntypedVariableKHR | O::FunctionParameter | O::RawAccessChainNV
    ) {
        return Err(E::AccessTarget { decoration });
    }
    let class = match op {
        O::Variable => q.word(id, 3),
        // spirv-val reads the data type operand as the storage class.
        O::UntypedVariableKHR => q.word(id, 4),
        _ => None,
    }
    .map(S);
    let private_allowed = q.state.version >= (1, 4);
    let ok = (matches!(class, Some(S::Function | S::Private)) && private_allowed && writable)
        || class == Some(S::TileAttachmentQCOM)
        || cx.uniform_block_pointers.contains(&type_id)
        || cx.storage_buffer_pointers.contains(&type_id)
        || points_to_image_or_tensor(q, type_id)
        || op == O::RawAccessChainNV;
    match (ok, private_allowed && writable) {
        (true, _) => Ok(()),
        (false, true) => Err(E::NonWritableInvalid),
        (false, false) => Err(E::AccessInvalid { decoration }),
    }
}

/// `CheckUniformDecoration` but its last rule ([`uniform_scope`]).
fn uniform(cx: &Cx<'_, '_>, id: u32, d: &Dec<'_>) -> Result<(), E> {
    let q = cx.q;
    let decoration = D(d.kind);
    let type_id = q.type_of(id);
    if type_id == 0 {
        return Err(E::UniformNonObject { decoration });
    }
    match q.def(type_id) {
        Some(t) if t.opcode() == O::TypeVoid => Err(E::UniformVoid { decoration }),
        Some(_) => Ok(()),
        None => Err(E::UniformInvalidType { decoration }),
    }
}

/// `CheckUniformDecoration`'s last rule: `UniformId`'s scope is an execution scope
/// (`ValidateExecutionScope` of the decorated instruction, reported there).
fn uniform_scope(q: &Query<'_>, id: u32, d: &Dec<'_>) -> Result<(), Fault> {
    let Some(def) = q.state.def(id) else {
        return Ok(());
    };
    let mut operands = Vec::new();
    let decoded = super::super::validation_state::decode(
        q.module,
        q.state,
        def.index as usize,
        &mut operands,
        false,
    );
    let Some(inst) = decoded else {
        return Ok(());
    };
    let scope = d.params.first().copied().unwrap_or(0);
    match super::super::scopes::validate_execution_scope(q, &inst, scope) {
        Ok(_) => Ok(()),
        Err(f) => Err(Fault::at(f.kind, def.index)),
    }
}

/// `AllowsLayout`: whether a storage class has explicit layout under Vulkan.
fn allows_layout(q: &Query<'_>, class: u32) -> bool {
    match S(class) {
        S::UniformConstant => false,
        S::Workgroup => q
            .state
            .has_capability(C::WorkgroupMemoryExplicitLayoutKHR.0),
        S::Function | S::Private => q.state.version <= (1, 4),
        _ => true,
    }
}

/// `UsesExplicitLayout`: the first explicit layout decoration on a type or within it
/// (through struct members, array elements, and pointers to storage classes without
/// explicit layout), remembered per type; `u32::MAX` for none.
fn explicit_decoration(q: &Query<'_>, id: u32, memo: &mut BTreeMap<u32, u32>) -> u32 {
    const NONE: u32 = u32::MAX;
    let mut decs = Vec::new();
    // (type, next child, own decorations looked at)
    let mut stack: Vec<(u32, usize, bool)> = Vec::from([(id, 0, false)]);
    let mut on_stack = BTreeSet::from([id]);
    while let Some(&(t, next, own_done)) = stack.last() {
        let top = stack.len() - 1;
        let op = q.opcode(t);
        let value = if t == 0 || memo.contains_key(&t) {
            None
        } else if !matches!(
            op,
            O::TypeStruct
                | O::TypeArray
                | O::TypeRuntimeArray
                | O::TypePointer
                | O::TypeUntypedPointerKHR
        ) {
            Some(NONE)
        } else {
            let allowed = op == O::TypePointer && allows_layout(q, q.word(t, 2).unwrap_or(0));
            let own = if own_done || allowed {
                None
            } else {
                q.decorations.collect(t, &LAYOUT, &mut decs);
                decs.first().map(|d| d.kind)
            };
            stack[top].2 = true;
            if let Some(d) = own {
                Some(d)
            } else {
                let children: &[u32] = match op {
                    O::TypeStruct => q.struct_members(t),
                    O::TypeArray | O::TypeRuntimeArray => {
                        q.def(t).map_or(&[], |d| d.words().get(2..3).unwrap_or(&[]))
                    }
                    O::TypePointer if !allowed => {
                        q.def(t).map_or(&[], |d| d.words().get(3..4).unwrap_or(&[]))
                    }
                    _ => &[],
                };
                let mut k = next;
                let mut found = None;
                while let Some(&c) = children.get(k) {
                    match memo.get(&c) {
                        Some(&v) if v != NONE => {
                            found = Some(v);
                            break;
                        }
                        Some(_) => k += 1,
                        // Uses(0), and a cycle (through invalid ids): none.
                        None if c == 0 || on_stack.contains(&c) => k += 1,
                        None => break,
                    }
                }
                match (found, children.get(k)) {
                    (Some(v), _) => Some(v),
                    (None, None) => Some(NONE),
                    (None, Some(&c)) => {
                        stack[top].1 = k;
                        on_stack.insert(c);
                        stack.push((c, 0, false));
                        continue;
                    }
                }
            }
        };
        if let Some(v) = value {
            memo.insert(t, v);
        }
        on_stack.remove(&t);
        stack.pop();
    }
    memo.get(&id).copied().unwrap_or(NONE)
}

/// `CheckInvalidVulkanExplicitLayout`.
pub(super) fn explicit_layout(cx: &mut Cx<'_, '_>, report: &mut dyn FnMut(Fault) -> bool) -> Go {
    if !cx.vulkan {
        return true;
    }
    let q = cx.q;
    let mut memo = BTreeMap::new();
    let uses = |t: u32, memo: &mut BTreeMap<u32, u32>| explicit_decoration(q, t, memo);
    for inst in q.module.instructions() {
        let w = inst.words();
        let word = |k: usize| w.get(k).copied().unwrap_or(0);
        let type_id = if inst.info().is_some_and(|i| i.has_result_type()) {
            word(1)
        } else {
            0
        };
        let mut found: Option<(u32, u32, u32)> = None; // (operand, class, decoration)
        match inst.opcode() {
            O::Variable | O::UntypedVariableKHR => {
                let class = word(3);
                let check = if inst.opcode() == O::UntypedVariableKHR && w.len() > 4 {
                    word(4)
                } else {
                    type_id
                };
                if !allows_layout(q, class) {
                    let d = uses(check, &mut memo);
                    if d != u32::MAX {
                        found = Some((check, class, d));
                    }
                }
            }
            O::UntypedAccessChainKHR
            | O::UntypedInBoundsAccessChainKHR
            | O::UntypedPtrAccessChainKHR
            | O::UntypedInBoundsPtrAccessChainKHR => {
                let class = q.word(type_id, 2).unwrap_or(0);
                if !allows_layout(q, class) {
                    let base = word(3);
                    let d = uses(base, &mut memo);
                    if d != u32::MAX {
                        found = Some((base, class, d));
                    } else {
                        let d = uses(type_id, &mut memo);
                        if d != u32::MAX {
                            found = Some((type_id, class, d));
                        }
                    }
                }
            }
            O::UntypedArrayLengthKHR => {
                let class = q.word(q.type_of(word(4)), 2).unwrap_or(0);
                if !allows_layout(q, class) {
                    let base = word(3);
                    let d = uses(base, &mut memo);
                    if d != u32::MAX {
                        found = Some((base, class, d));
                    }
                }
            }
            O::Load | O::Store => {
                // spirv-val's OpStore reads its object as the pointer, and names the
                // memory operand (if any) as the operand.
                let pointer = word(if inst.opcode() == O::Load { 3 } else { 2 });
                let pointer_type = q.type_of(pointer);
                if q.opcode(pointer_type) == O::TypeUntypedPointerKHR {
                    let class = q.word(pointer_type, 2).unwrap_or(0);
                    if !allows_layout(q, class) {
                        let (data, operand) = if inst.opcode() == O::Load {
                            (type_id, type_id)
                        } else {
                            (q.type_of(word(2)), word(3))
                        };
                        let d = uses(data, &mut memo);
                        if d != u32::MAX {
                            found = Some((operand, class, d));
                        }
                    }
                }
            }
            _ => {}
        }
        if let Some((operand, class, decoration)) = found.filter(|f| f.0 != 0) {
            let e = E::InvalidExplicitLayout {
                id: Id(operand),
                storage_class: S(class),
                decoration: D(decoration),
            };
            if !report(at(inst.index(), e)) {
                return false;
            }
        }
    }
    true
}
