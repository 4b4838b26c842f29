//! spirv-val's Vulkan location rules for one entry point's interface
//! (`ValidateLocations` in `validate_interfaces.cpp`): for vertex, tessellation,
//! geometry and fragment entry points, each `Input` and `Output` variable that is not a
//! built-in has a `Location` (or is a `Block` whose members all have one), `Index` and
//! `PerVertexKHR` only where they belong, and no two variables claim one location's
//! component. Type walks keep their own stacks; location sets are bounded where
//! spirv-val's would run out of memory.

use super::{InterfaceError, variable_class};
use crate::__private::Vec;
use crate::spv::{self, Decoration as D, ExecutionModel as EM, Opcode as O, StorageClass as SC};
use crate::validate::error::ValidationErrorKind;
use crate::validate::validation_state::{Dec, EntryDesc, NO_MEMBER, Scalar};
use crate::validate::{Fault, Query};
use alloc::collections::{BTreeMap, BTreeSet};

/// spirv-val's bound on the locations it checks, times four components.
const MAX_LOCATIONS: u32 = 4096 * 4;

/// How many location slots one entry point's check may record before it gives up
/// (spirv-val would exhaust memory well before).
const MAX_SLOTS: usize = 1 << 20;

/// Where a fault is, as an instruction index.
fn at(q: &Query<'_>, id: u32) -> u32 {
    q.state.def(id).map_or(0, |d| d.index)
}

fn fault(kind: InterfaceError, index: u32) -> Fault {
    Fault::at(ValidationErrorKind::Interface(kind), index)
}

/// The location sets of one entry point, and how much was recorded.
#[derive(Default)]
struct Sets {
    input: BTreeSet<u32>,
    output0: BTreeSet<u32>,
    output1: BTreeSet<u32>,
    patch0: BTreeSet<u32>,
    patch1: BTreeSet<u32>,
    recorded: usize,
}

/// Which of [`Sets`] a variable fills.
#[derive(Clone, Copy)]
enum Which {
    Input,
    Output,
    Patch,
}

/// The decorations a variable's location rules read.
const VARIABLE_KINDS: &[u32] = &[
    D::Location.0,
    D::Component.0,
    D::Index.0,
    D::BuiltIn.0,
    D::Patch.0,
    D::PerTaskNV.0,
    D::PerVertexKHR.0,
];

/// `id`'s decorations of `kinds` from the registry, in spirv-val's set order, as
/// (member, -1 for the id itself; decoration; parameters).
fn decorations_of<'m>(q: &Query<'m>, id: u32, kinds: &[u32]) -> Vec<(i64, u32, &'m [u32])> {
    let mut out: Vec<Dec<'m>> = Vec::new();
    q.decorations.collect(id, kinds, &mut out);
    out.iter()
        .map(|d| {
            let member = if d.member == NO_MEMBER {
                -1
            } else {
                i64::from(d.member)
            };
            (member, d.kind, d.params)
        })
        .collect()
}

/// `ValidateLocations` for one `OpEntryPoint`.
pub(super) fn check(q: &Query<'_>, desc: &EntryDesc) -> Result<(), Fault> {
    if !matches!(
        EM(desc.model),
        EM::Vertex
            | EM::TessellationControl
            | EM::TessellationEvaluation
            | EM::Geometry
            | EM::Fragment
    ) {
        return Ok(());
    }
    let mut sets = Sets::default();
    let mut seen = BTreeSet::new();
    for &id in &desc.interfaces {
        let class = match variable_class(q, id) {
            Some(c @ (SC::Input | SC::Output)) => c,
            _ => continue,
        };
        if !seen.insert(id) || q.opcode(id) != O::Variable {
            continue;
        }
        let which = if q.decorations.has(id, D::Patch.0) {
            Which::Patch
        } else if class == SC::Input {
            Which::Input
        } else {
            Which::Output
        };
        match variable(q, desc, id, which, &mut sets) {
            Ok(()) => {}
            Err(Some(f)) => return Err(f),
            // Too many slots: give up on this entry point.
            Err(None) => return Ok(()),
        }
    }
    Ok(())
}

/// `GetLocationsForVariable`. `Err(None)`: the sets have grown past [`MAX_SLOTS`].
fn variable(
    q: &Query<'_>,
    desc: &EntryDesc,
    var: u32,
    which: Which,
    sets: &mut Sets,
) -> Result<(), Option<Fault>> {
    let model = EM(desc.model);
    let fragment = model == EM::Fragment;
    let output = variable_class(q, var) == Some(SC::Output);
    let mut type_id = q.word(q.type_of(var), 3).unwrap_or(0);
    let var_at = at(q, var);
    let (mut has_location, mut location, mut component) = (false, 0u32, 0u32);
    let (mut has_index, mut index) = (false, 0u32);
    let (mut patch, mut per_task, mut per_vertex) = (false, false, false);
    for (_, dec, params) in decorations_of(q, var, VARIABLE_KINDS) {
        let first = params.first().copied().unwrap_or(0);
        match D(dec) {
            D::Location => {
                has_location = true;
                location = first;
            }
            D::Component => component = first,
            D::Index => {
                if !output || !fragment {
                    return Err(Some(fault(InterfaceError::IndexNotFragmentOutput, var_at)));
                }
                has_index = true;
                index = first;
            }
            D::BuiltIn => return Ok(()),
            D::Patch => patch = true,
            D::PerTaskNV => per_task = true,
            D::PerVertexKHR => {
                if !fragment {
                    return Err(Some(fault(InterfaceError::PerVertexNotFragment, var_at)));
                }
                if !matches!(q.opcode(type_id), O::TypeArray | O::TypeRuntimeArray) {
                    return Err(Some(fault(InterfaceError::PerVertexNotArray, var_at)));
                }
                per_vertex = true;
            }
            _ => {}
        }
    }
    let arrayed = match model {
        EM::TessellationControl => !patch,
        EM::TessellationEvaluation => !output && !patch,
        EM::Geometry => !output,
        EM::Fragment => !output && per_vertex,
        EM::MeshNV => output && !per_task,
        _ => false,
    };
    if arrayed && matches!(q.opcode(type_id), O::TypeArray | O::TypeRuntimeArray) {
        type_id = q.word(type_id, 2).unwrap_or(0);
    }
    let is_struct = q.opcode(type_id) == O::TypeStruct;
    if is_struct && q.decorations.has(type_id, D::BuiltIn.0) {
        return Ok(());
    }
    let block = q.decorations.has(type_id, D::Block.0);
    if !has_location && !block {
        return Err(Some(fault(
            if is_struct {
                InterfaceError::NoLocationStruct
            } else {
                InterfaceError::NoLocation
            },
            var_at,
        )));
    }
    let entry_at = desc.index as u32;
    let conflict = |l: u32, c: u32| {
        fault(
            if output {
                InterfaceError::OutputLocationConflict {
                    location: l,
                    component: c,
                }
            } else {
                InterfaceError::InputLocationConflict {
                    location: l,
                    component: c,
                }
            },
            entry_at,
        )
    };
    // Inserts one slot; `Ok(false)` on a conflict.
    let insert = |sets: &mut Sets, index1: bool, slot: u32| -> Result<bool, Option<Fault>> {
        sets.recorded += 1;
        if sets.recorded > MAX_SLOTS {
            return Err(None);
        }
        let s = match (which, index1) {
            (Which::Input, _) => &mut sets.input,
            (Which::Output, false) => &mut sets.output0,
            (Which::Output, true) => &mut sets.output1,
            (Which::Patch, false) => &mut sets.patch0,
            (Which::Patch, true) => &mut sets.patch1,
        };
        Ok(s.insert(slot))
    };
    if has_location {
        let mut sub = type_id;
        let mut array_size = 1u32;
        if q.opcode(type_id) == O::TypeArray {
            let (is_int, is_const, value) = q.int32_if_const(q.word(type_id, 3).unwrap_or(0));
            array_size = if is_int && is_const { value } else { 1 };
            sub = q.word(type_id, 2).unwrap_or(0);
        }
        let num_locations = locations(q, sub).map_err(Some)?;
        let num_components = components(q, sub);
        let index1 = has_index && index == 1;
        for array_idx in 0..array_size {
            let array_location = location.wrapping_add(num_locations.wrapping_mul(array_idx));
            let mut start = array_location.wrapping_mul(4);
            if MAX_LOCATIONS <= start {
                break;
            }
            let mut end = array_location.wrapping_add(num_locations).wrapping_mul(4);
            if num_components != 0 {
                start = start.wrapping_add(component);
                end = array_location
                    .wrapping_mul(4)
                    .wrapping_add(component)
                    .wrapping_add(num_components);
            }
            if start >= end && num_locations == 0 {
                // Every later element is the same empty range.
                break;
            }
            sets.recorded += 1;
            for i in start..end {
                if !insert(sets, index1, i)? {
                    return Err(Some(conflict(i / 4, i % 4)));
                }
            }
            if sets.recorded > MAX_SLOTS {
                return Err(None);
            }
        }
        return Ok(());
    }
    // A Block without a location on the variable: every member has one.
    let type_at = at(q, type_id);
    let mut member_locations: BTreeMap<i64, u32> = BTreeMap::new();
    let mut member_components: BTreeMap<i64, u32> = BTreeMap::new();
    for (member, dec, params) in decorations_of(q, type_id, &[D::Location.0, D::Component.0]) {
        let value = params.first().copied().unwrap_or(0);
        let (map, components) = match D(dec) {
            D::Location => (&mut member_locations, false),
            D::Component => (&mut member_components, true),
            _ => continue,
        };
        match map.get(&member) {
            None => {
                map.insert(member, value);
            }
            Some(&v) if v != value => {
                let kind = if components {
                    InterfaceError::MemberComponentConflict { member }
                } else {
                    InterfaceError::MemberLocationConflict { member }
                };
                return Err(Some(fault(kind, type_at)));
            }
            Some(_) => {}
        }
    }
    let members = q
        .def(type_id)
        .map_or(&[][..], |d| d.words().get(2..).unwrap_or(&[]));
    for (i, &member_type) in members.iter().enumerate() {
        let key = i as i64;
        let Some(&location) = member_locations.get(&key) else {
            let kind = InterfaceError::MemberWithoutLocation { member: i as u32 };
            return Err(Some(fault(kind, type_at)));
        };
        let num_locations = locations(q, member_type).map_err(Some)?;
        let num_components = components(q, member_type);
        let component = member_components.get(&key).copied().unwrap_or(0);
        let start = location.wrapping_mul(4);
        if MAX_LOCATIONS <= start {
            continue;
        }
        if q.opcode(member_type) == O::TypeArray && (1..4).contains(&num_components) {
            for l in location..location.wrapping_add(num_locations) {
                for c in component..component.wrapping_add(num_components) {
                    if !insert(sets, false, l.wrapping_mul(4).wrapping_add(c))? {
                        return Err(Some(conflict(l, c)));
                    }
                }
            }
        } else {
            let (mut start, mut end) =
                (start, location.wrapping_add(num_locations).wrapping_mul(4));
            if num_components != 0 {
                start = start.wrapping_add(component);
                end = location
                    .wrapping_mul(4)
                    .wrapping_add(component)
                    .wrapping_add(num_components);
            }
            for l in start..end {
                if !insert(sets, false, l)? {
                    return Err(Some(conflict(l / 4, l % 4)));
                }
            }
        }
    }
    Ok(())
}

/// `NumConsumedLocations`: how many locations a type takes, or the fault at the type
/// that cannot take one. Walked with an explicit stack, children in spirv-val's order.
fn locations(q: &Query<'_>, ty: u32) -> Result<u32, Fault> {
    let psb64 = q.state.addressing_model() == spv::AddressingModel::PhysicalStorageBuffer64;
    // (type, children, next child, accumulated)
    struct Frame<'a> {
        id: u32,
        children: &'a [u32],
        next: usize,
        acc: u32,
    }
    let mut memo: BTreeMap<u32, u32> = BTreeMap::new();
    let mut stack: Vec<Frame<'_>> = Vec::new();
    // Starts on a type: a leaf's value, or a frame to fill.
    let mut value: Option<u32> = None;
    let mut start = Some(ty);
    loop {
        if let Some(id) = start.take() {
            if let Some(&v) = memo.get(&id) {
                value = Some(v);
            } else {
                let Some(d) = q.def(id) else {
                    value = Some(0);
                    continue;
                };
                let w = d.words();
                match d.opcode() {
                    O::TypeInt | O::TypeFloat => value = Some(1),
                    O::TypeVector => {
                        let wide = q.contains_sized(id, Scalar::Int64)
                            || q.contains_sized(id, Scalar::Float64);
                        value = Some(if wide && w.get(3).copied().unwrap_or(0) > 2 {
                            2
                        } else {
                            1
                        });
                    }
                    O::TypeMatrix | O::TypeArray => stack.push(Frame {
                        id,
                        children: w.get(2..3).unwrap_or(&[]),
                        next: 0,
                        acc: 0,
                    }),
                    O::TypeStruct => {
                        if q.decorations.has(id, D::Location.0) {
                            return Err(fault(InterfaceError::MemberLocation, at(q, id)));
                        }
                        stack.push(Frame {
                            id,
                            children: w.get(2..).unwrap_or(&[]),
                            next: 0,
                            acc: 0,
                        });
                    }
                    O::TypePointer if psb64 && w.get(2) == Some(&SC::PhysicalStorageBuffer.0) => {
                        value = Some(1)
                    }
                    _ => return Err(fault(InterfaceError::NoLocationType, at(q, id))),
                }
            }
        }
        let Some(top) = stack.last_mut() else {
            return Ok(value.unwrap_or(0));
        };
        if let Some(v) = value.take() {
            top.acc = top.acc.wrapping_add(v);
            top.next += 1;
        }
        if let Some(&child) = top.children.get(top.next) {
            start = Some(child);
            continue;
        }
        // All children done.
        let id = top.id;
        let acc = top.acc;
        stack.pop();
        let v = match q.opcode(id) {
            O::TypeMatrix => acc.wrapping_mul(q.word(id, 3).unwrap_or(0)),
            O::TypeArray => {
                let (is_int, is_const, n) = q.int32_if_const(q.word(id, 3).unwrap_or(0));
                if is_int && is_const {
                    acc.wrapping_mul(n)
                } else {
                    acc
                }
            }
            _ => acc,
        };
        memo.insert(id, v);
        value = Some(v);
    }
}

/// `NumConsumedComponents`: how many components a type takes, 0 for types that take
/// no `Component` decoration.
fn components(q: &Query<'_>, ty: u32) -> u32 {
    let psb64 = q.state.addressing_model() == spv::AddressingModel::PhysicalStorageBuffer64;
    let mut id = ty;
    let mut times = 1u32;
    for _ in 0..=q.module.len() {
        match q.opcode(id) {
            O::TypeInt | O::TypeFloat => {
                let wide = q.word(id, 2) == Some(64);
                return times.wrapping_mul(if wide { 2 } else { 1 });
            }
            O::TypeVector => {
                times = times.wrapping_mul(q.word(id, 3).unwrap_or(0));
                id = q.word(id, 2).unwrap_or(0);
            }
            O::TypeArray => id = q.word(id, 2).unwrap_or(0),
            O::TypePointer if psb64 && q.word(id, 2) == Some(SC::PhysicalStorageBuffer.0) => {
                return times.wrapping_mul(2);
            }
            _ => return 0,
        }
    }
    0
}
