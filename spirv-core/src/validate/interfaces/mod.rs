//! spirv-val's interface rules (`ValidateInterfaces` in `validate_interfaces.cpp`):
//! every interface variable (from SPIR-V 1.4 every global variable, before it every
//! `Input` or `Output` one) that a function of an entry point's call tree uses, directly
//! or through global instructions that use it, is listed in that entry point's
//! interface; for Vulkan, no
//! `PhysicalStorageBuffer` pointer in an `Input` or `Output` variable, then per entry
//! point the locations of its interface
//! ([`locations`]) and its storage classes (at most one push-constant,
//! incoming ray payload, hit attribute or incoming callable data variable; no bfloat16
//! or 8-bit float in `Input` or `Output`). Its faults are [`InterfaceError`]'s table.

mod locations;

use super::error::ValidationErrorKind;
use super::faults::faults;
use super::validation_state::{EntryCalls, EntryDesc, IdBits, contains_type};
use super::{Fault, Query};
use crate::__private::{String, Vec};
use crate::grammar::KindClass;
use crate::spv::{self, Opcode as O, StorageClass as SC};
use crate::types::Id;
use alloc::collections::{BTreeMap, BTreeSet};

faults! {
    /// A fault of spirv-val's interface rules (`validate_interfaces.cpp`): entry
    /// points' interface lists, and under Vulkan their storage classes, locations and
    /// components.
    pub enum InterfaceError {
        // --- `ValidateInterfaces`. ---
        /// An interface variable an entry point uses that its interface does not list.
        NotListed {
            /// The variable.
            variable: Id,
            /// The entry point's name.
            name: String,
            /// The entry point's function.
            entry: Id,
        } => "Interface variable id <{variable:n}> is used by entry point '{name}' id <{entry:n}>, but is not listed as an interface",
        /// An `Input` or `Output` variable holding a `PhysicalStorageBuffer` pointer.
        #[vuid = "VUID-StandaloneSpirv-Input-09557"]
        PhysicalPointer {
            /// The variable.
            variable: Id,
        } => "Input/Output interface variable id <{variable:n}> contains a PhysicalStorageBuffer pointer, which is not allowed. If you want to interface shader stages with a PhysicalStorageBuffer, cast to a uint64 or uvec2 instead.",

        // --- `ValidateStorageClass`. ---
        /// An `Input` or `Output` variable holding bfloat16.
        #[vuid = "VUID-StandaloneSpirv-OpTypeFloat-10370"]
        Bfloat16 {
            /// The variable.
            variable: Id,
        } => "Bfloat16 OpVariable <id> {variable} must not be declared with a Storage Class of Input or Output.",
        /// An `Input` or `Output` variable holding an 8-bit float.
        Float8 {
            /// The variable.
            variable: Id,
        } => "FP8 E4M3/E5M2 OpVariable <id> {variable} must not be declared with a Storage Class of Input or Output.",
        /// A second `PushConstant` variable.
        #[vuid = "VUID-StandaloneSpirv-OpVariable-06673"]
        SecondPushConstant => "Entry-point has more than one variable with the PushConstant storage class in the interface",
        /// A second `IncomingRayPayloadKHR` variable.
        #[vuid = "VUID-StandaloneSpirv-IncomingRayPayloadKHR-04700"]
        SecondIncomingRayPayload => "Entry-point has more than one variable with the IncomingRayPayloadKHR storage class in the interface",
        /// A second `HitAttributeKHR` variable.
        #[vuid = "VUID-StandaloneSpirv-HitAttributeKHR-04702"]
        SecondHitAttribute => "Entry-point has more than one variable with the HitAttributeKHR storage class in the interface",
        /// A second `IncomingCallableDataKHR` variable.
        #[vuid = "VUID-StandaloneSpirv-IncomingCallableDataKHR-04706"]
        SecondIncomingCallableData => "Entry-point has more than one variable with the IncomingCallableDataKHR storage class in the interface",

        // --- `ValidateLocations`. ---
        /// `Index` on a variable that is not a fragment output.
        IndexNotFragmentOutput => "Index can only be applied to Fragment output variables",
        /// `PerVertexKHR` outside fragment shaders.
        #[vuid = "VUID-StandaloneSpirv-PerVertexKHR-06777"]
        PerVertexNotFragment => "PerVertexKHR can only be applied to Fragment Execution Models",
        /// `PerVertexKHR` on a variable that is not an array.
        #[vuid = "VUID-StandaloneSpirv-Input-06778"]
        PerVertexNotArray => "PerVertexKHR must be declared as arrays",
        /// An interface variable without `Location`.
        #[vuid = "VUID-StandaloneSpirv-Location-04916"]
        NoLocation => "Variable must be decorated with a location",
        /// An interface variable of a struct type without `Location`.
        #[vuid = "VUID-StandaloneSpirv-Location-04917"]
        NoLocationStruct => "Variable must be decorated with a location",
        /// Two input variables on one location's component.
        #[vuid = "VUID-StandaloneSpirv-OpEntryPoint-08721"]
        InputLocationConflict {
            /// The location.
            location: u32,
            /// The component.
            component: u32,
        } => "Entry-point has conflicting input location assignment at location {location}, component {component}",
        /// Two output variables on one location's component.
        #[vuid = "VUID-StandaloneSpirv-OpEntryPoint-08722"]
        OutputLocationConflict {
            /// The location.
            location: u32,
            /// The component.
            component: u32,
        } => "Entry-point has conflicting output location assignment at location {location}, component {component}",
        /// A `Block` member with two different locations.
        MemberLocationConflict {
            /// The member.
            member: i64,
        } => "Member index {member} has conflicting location assignments",
        /// A `Block` member with two different components.
        MemberComponentConflict {
            /// The member.
            member: i64,
        } => "Member index {member} has conflicting component assignments",
        /// A `Block` member without a location.
        #[vuid = "VUID-StandaloneSpirv-Location-04919"]
        MemberWithoutLocation {
            /// The member.
            member: u32,
        } => "Member index {member} is missing a location assignment",
        /// A struct within a located variable whose members have locations.
        #[vuid = "VUID-StandaloneSpirv-Location-04918"]
        MemberLocation => "Members cannot be assigned a location",
        /// A type that takes no location.
        NoLocationType => "Invalid type to assign a location",
    }
}

/// Checks the module; hands each fault to `report`, which says whether to go on.
/// Returns `false` when validation must stop.
pub(super) fn check(
    q: &Query<'_>,
    calls: &EntryCalls,
    report: &mut dyn FnMut(Fault) -> bool,
) -> bool {
    if !listed(q, calls, report) {
        return false;
    }
    if !q.state.options.target_env.is_vulkan() {
        return true;
    }
    for desc in calls.entries.iter().filter(|d| d.plain) {
        if let Err(fault) = locations::check(q, desc) {
            if !report(fault) {
                return true;
            }
        }
        if let Err(fault) = storage_classes(q, desc) {
            if !report(fault) {
                return true;
            }
        }
    }
    true
}

/// The name of an entry point, from its instruction.
fn entry_name(q: &Query<'_>, desc: &EntryDesc) -> String {
    let skip = if desc.plain { 3 } else { 4 };
    q.module
        .instruction(desc.index)
        .and_then(|i| i.words().get(skip..))
        .map(|w| String::from_utf8_lossy(&crate::codec::string_operand(w)).into_owned())
        .unwrap_or_default()
}

/// The storage class of a variable (`OpVariable` or `OpUntypedVariableKHR`), `None`
/// for other ids.
pub(super) fn variable_class(q: &Query<'_>, id: u32) -> Option<SC> {
    let d = q.def(id)?;
    match d.opcode() {
        O::Variable | O::UntypedVariableKHR => d.words().get(3).map(|&c| SC(c)),
        _ => None,
    }
}

/// `is_interface_variable`.
fn is_interface(op: O, class: u32, spv14: bool) -> bool {
    matches!(op, O::Variable | O::UntypedVariableKHR)
        && if spv14 {
            class != SC::Function.0
        } else {
            class == SC::Input.0 || class == SC::Output.0
        }
}

/// `check_interface_variable` for every interface variable, in module order: listed
/// in each entry point that uses it, then (Vulkan) no `PhysicalStorageBuffer` pointer
/// in an `Input` or `Output` one. False when validation must stop.
fn listed(q: &Query<'_>, calls: &EntryCalls, report: &mut dyn FnMut(Fault) -> bool) -> bool {
    let spv14 = q.state.version >= (1, 4);
    // The interface variables, by instruction index.
    let mut vars: Vec<(usize, u32)> = Vec::new();
    for (index, inst) in q.module.instructions().enumerate() {
        let w = inst.words();
        if let (Some(&id), Some(&class)) = (w.get(2), w.get(3)) {
            if is_interface(inst.opcode(), class, spv14) {
                vars.push((index, id));
            }
        }
    }
    if vars.is_empty() {
        return true;
    }
    let var_functions = functions_using(q, calls, &vars);
    let missing = first_unlisted(calls, &vars, &var_functions);
    let vulkan = q.state.options.target_env.is_vulkan();
    for (v, &(index, id)) in vars.iter().enumerate() {
        let at = index as u32;
        if let Some((entry, d)) = missing[v] {
            let kind = InterfaceError::NotListed {
                variable: Id(id),
                name: entry_name(q, &calls.entries[d]),
                entry: Id(entry),
            };
            if !report(Fault::at(ValidationErrorKind::Interface(kind), at)) {
                return false;
            }
            continue;
        }
        if vulkan
            && matches!(variable_class(q, id), Some(SC::Input | SC::Output))
            && q.opcode(id) == O::Variable
        {
            let pointee = q.word(q.type_of(id), 3).unwrap_or(0);
            let psb = |t: &crate::module::InstRef<'_>| {
                t.opcode() == O::TypePointer
                    && t.words().get(2) == Some(&SC::PhysicalStorageBuffer.0)
            };
            if contains_type(q, pointee, true, &psb) {
                let kind = InterfaceError::PhysicalPointer { variable: Id(id) };
                if !report(Fault::at(ValidationErrorKind::Interface(kind), at)) {
                    return false;
                }
            }
        }
    }
    true
}

/// For each variable of `vars`, the first entry point function (ascending) whose call
/// tree uses it and leaves it out of one of its descriptions, with the first such
/// description: spirv-val's walk of each entry point's call tree in turn, without a
/// walk per entry point. The smallest entry function reaching each function answers
/// for most variables; one that it lists everywhere (`later`) waits for the walks of
/// the entry functions after it that leave out such a variable, each walk confined
/// to the functions that lead to a user of one, until every such variable has its
/// answer.
fn first_unlisted(
    calls: &EntryCalls,
    vars: &[(usize, u32)],
    var_functions: &[Vec<usize>],
) -> Vec<Option<(u32, usize)>> {
    let mut missing: Vec<Option<(u32, usize)>> = alloc::vec![None; vars.len()];
    // The descriptions by entry function, each function's in order.
    let mut descs: Vec<(u32, usize)> = calls
        .entries
        .iter()
        .enumerate()
        .map(|(d, desc)| (desc.function, d))
        .collect();
    descs.sort_unstable();
    let lists: Vec<BTreeSet<u32>> = calls
        .entries
        .iter()
        .map(|d| d.interfaces.iter().copied().collect())
        .collect();
    // The first description of `root` that leaves `id` out.
    let unlisted = |root: u32, id: u32| -> Option<usize> {
        let from = descs.partition_point(|&(f, _)| f < root);
        descs[from..]
            .iter()
            .take_while(|&&(f, _)| f == root)
            .map(|&(_, d)| d)
            .find(|&d| !lists[d].contains(&id))
    };
    let first = calls.first_entry_reaching();
    let mut later: BTreeSet<usize> = BTreeSet::new();
    for (v, fs) in var_functions.iter().enumerate() {
        let Some(root) = fs
            .iter()
            .filter_map(|&f| first.get(f).copied().flatten())
            .min()
        else {
            continue;
        };
        match unlisted(root, vars[v].1) {
            Some(d) => missing[v] = Some((root, d)),
            None => {
                later.insert(v);
            }
        }
    }
    if later.is_empty() {
        return missing;
    }
    // The functions from which a user of a waiting variable is reached, and the
    // waiting variables each function uses.
    let callers = calls.callers();
    let mut leads = alloc::vec![false; calls.functions.len()];
    let mut waiting: Vec<Vec<usize>> = Vec::new();
    waiting.resize_with(calls.functions.len(), Vec::new);
    let mut stack = Vec::new();
    for &v in &later {
        for &f in &var_functions[v] {
            waiting[f].push(v);
            stack.push(f);
        }
    }
    while let Some(f) = stack.pop() {
        if !core::mem::replace(&mut leads[f], true) {
            stack.extend(callers[f].iter().copied());
        }
    }
    let mut mark = alloc::vec![0u32; calls.functions.len()];
    for (stamp, root) in calls.entry_functions().into_iter().enumerate() {
        if later.is_empty() {
            break;
        }
        // An entry function listing every waiting variable everywhere settles none.
        if later.iter().all(|&v| unlisted(root, vars[v].1).is_none()) {
            continue;
        }
        // Its walk, through the functions that lead to a waiting variable alone.
        calls.flood([root], &mut mark, stamp as u32 + 1, |f| {
            if !leads[f] {
                return false;
            }
            for &v in &waiting[f] {
                if later.contains(&v) {
                    if let Some(d) = unlisted(root, vars[v].1) {
                        missing[v] = Some((root, d));
                        later.remove(&v);
                    }
                }
            }
            true
        });
    }
    missing
}

/// For each variable of `vars`, the functions (by position) whose instructions use it,
/// directly or through global instructions that use it (spirv-val's walk of `uses()`).
fn functions_using(q: &Query<'_>, calls: &EntryCalls, vars: &[(usize, u32)]) -> Vec<Vec<usize>> {
    // One bit per instruction: whether it is in a function's body.
    let mut in_body = alloc::vec![0u64; q.module.len().div_ceil(64)];
    for func in &calls.functions {
        for i in func.body.clone() {
            if let Some(w) = in_body.get_mut(i / 64) {
                *w |= 1 << (i % 64);
            }
        }
    }
    // Global instructions that use an id, by that id (spirv-val follows a global
    // user's own uses in turn).
    let mut global_users: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    let mut operands = super::validation_state::OperandMemo::default();
    for index in 0..q.module.len() {
        if in_body
            .get(index / 64)
            .is_some_and(|w| w & (1 << (index % 64)) != 0)
        {
            continue;
        }
        let Some(inst) = super::validation_state::memoized(q.module, q.state, index, &mut operands)
        else {
            continue;
        };
        if inst.result_id == 0 {
            continue;
        }
        for id in id_operands(&inst) {
            global_users.entry(id).or_default().push(inst.result_id);
        }
    }
    // The ids that lead to a variable: the variables and their global users, in turn.
    let mut tracked: BTreeSet<u32> = vars.iter().map(|v| v.1).collect();
    let mut stack: Vec<u32> = tracked.iter().copied().collect();
    while let Some(id) = stack.pop() {
        for &u in global_users.get(&id).map_or(&[][..], |u| u.as_slice()) {
            if tracked.insert(u) {
                stack.push(u);
            }
        }
    }
    // An instruction that names no tracked id has no use to record: it is not decoded.
    let mut bits = IdBits::new(q.state);
    for &id in &tracked {
        bits.insert(id);
    }
    let mut function_users: BTreeMap<u32, BTreeSet<usize>> = BTreeMap::new();
    for (f, func) in calls.functions.iter().enumerate() {
        for index in func.body.clone() {
            let skip = q
                .module
                .instruction(index)
                .is_some_and(|i| !bits.may_name(i.words()));
            if skip {
                continue;
            }
            let Some(inst) =
                super::validation_state::memoized(q.module, q.state, index, &mut operands)
            else {
                continue;
            };
            for id in id_operands(&inst) {
                if tracked.contains(&id) {
                    function_users.entry(id).or_default().insert(f);
                }
            }
        }
    }
    vars.iter()
        .map(|&(_, var)| {
            let mut fs = BTreeSet::new();
            let mut seen = BTreeSet::from([var]);
            let mut stack = Vec::from([var]);
            while let Some(id) = stack.pop() {
                if let Some(users) = function_users.get(&id) {
                    fs.extend(users.iter().copied());
                }
                for &u in global_users.get(&id).map_or(&[][..], |u| u.as_slice()) {
                    if seen.insert(u) {
                        stack.push(u);
                    }
                }
            }
            fs.into_iter().collect()
        })
        .collect()
}

/// The ids an instruction's operands name, its result left out (the operands
/// spirv-val's `UpdateIdUse` registers uses for).
fn id_operands<'i>(inst: &'i super::Inst<'_>) -> impl Iterator<Item = u32> + 'i {
    inst.operands
        .iter()
        .filter(|op| matches!(op.kind.class, KindClass::Id | KindClass::ResultType))
        .filter_map(|op| inst.words.get(op.offset).copied())
}

/// `ValidateStorageClass` for one entry point.
fn storage_classes(q: &Query<'_>, desc: &EntryDesc) -> Result<(), Fault> {
    let at = desc.index as u32;
    let mut seen: BTreeSet<u32> = BTreeSet::new();
    for &id in &desc.interfaces {
        let Some(class) = variable_class(q, id) else {
            continue;
        };
        let once = match class {
            SC::PushConstant
            | SC::IncomingRayPayloadKHR
            | SC::HitAttributeKHR
            | SC::IncomingCallableDataKHR => true,
            SC::Input | SC::Output => {
                if q.opcode(id) != O::Variable {
                    continue;
                }
                let pointee = q.word(q.type_of(id), 3).unwrap_or(0);
                let float_with = |encodings: &[u32]| {
                    contains_type(q, pointee, true, &|t| {
                        t.opcode() == O::TypeFloat
                            && t.words().get(3).is_some_and(|e| encodings.contains(e))
                    })
                };
                let variable = Id(id);
                let small = if float_with(&[spv::FPEncoding::BFloat16KHR.0]) {
                    Some(InterfaceError::Bfloat16 { variable })
                } else if float_with(&[
                    spv::FPEncoding::Float8E4M3EXT.0,
                    spv::FPEncoding::Float8E5M2EXT.0,
                ]) {
                    Some(InterfaceError::Float8 { variable })
                } else {
                    None
                };
                if let Some(kind) = small {
                    let at = q.state.def(id).map_or(at, |d| d.index);
                    return Err(Fault::at(ValidationErrorKind::Interface(kind), at));
                }
                false
            }
            _ => false,
        };
        if once && !seen.insert(class.0) {
            let kind = match class {
                SC::PushConstant => InterfaceError::SecondPushConstant,
                SC::IncomingRayPayloadKHR => InterfaceError::SecondIncomingRayPayload,
                SC::HitAttributeKHR => InterfaceError::SecondHitAttribute,
                _ => InterfaceError::SecondIncomingCallableData,
            };
            return Err(Fault::at(ValidationErrorKind::Interface(kind), at));
        }
    }
    Ok(())
}

/// What this family checks (see [`coverage`](crate::validate::coverage)).
pub(crate) const COVERAGE: crate::validate::coverage::Family =
    crate::validate::coverage::Family::new("interfaces", "validate_interfaces.cpp");
