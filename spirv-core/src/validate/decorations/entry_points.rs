//! `CheckDecorationsOfEntryPoints`: each entry point's interface variables (what they
//! are, their storage classes, their built-ins and interpolation decorations), its
//! built-in blocks, its `LinkageAttributes`, and its Workgroup blocks.

use super::super::Fault;
use super::super::validation_state::NO_MEMBER;
use super::error::DecorationError as E;
use super::{Cx, Go, at_def};
use crate::__private::Vec;
use crate::codec::decode_string;
use crate::spv::{self, Capability as C, Decoration as D, ExecutionModel as M, Opcode as O};
use crate::types::Id;
use alloc::collections::{BTreeMap, BTreeSet};

/// One `OpEntryPoint` (or `OpConditionalEntryPointINTEL`).
struct EntryPoint<'a> {
    function: u32,
    model: u32,
    interfaces: &'a [u32],
}

/// The entry points in module order.
fn entry_points<'a>(module: &'a crate::Module) -> Vec<EntryPoint<'a>> {
    let mut out = Vec::new();
    for inst in module.instructions() {
        let w = inst.words();
        let at = match inst.opcode() {
            O::EntryPoint => 1,
            O::ConditionalEntryPointINTEL => 2,
            _ => continue,
        };
        let (Some(&model), Some(&function)) = (w.get(at), w.get(at + 1)) else {
            continue;
        };
        let rest = w.get(at + 2..).unwrap_or(&[]);
        let used = decode_string(rest).map_or(rest.len(), |(_, _, n)| n);
        out.push(EntryPoint {
            function,
            model,
            interfaces: rest.get(used..).unwrap_or(&[]),
        });
    }
    out
}

/// The interpolation decorations.
const INTERPOLATION: [u32; 4] = [D::Flat.0, D::NoPerspective.0, D::Sample.0, D::Centroid.0];

/// What the rules ask of one interface variable, found once however many entry points
/// list it.
#[derive(Default)]
struct Facts {
    /// The built-ins of the variable or of its struct type, in set order.
    builtins: Vec<u32>,
    /// The first of them that repeats an earlier one.
    repeated: Option<u32>,
    location_or_component: bool,
    /// Its first `Flat`, `NoPerspective`, `Sample` or `Centroid`, in set order.
    interpolation: Option<u32>,
}

/// The built-ins of one storage class's interfaces of an entry point, as spirv-val's
/// set of them; the first variable's are added only when a second comes.
#[derive(Default)]
struct BuiltIns {
    set: BTreeSet<u32>,
    first: Option<u32>,
}

impl BuiltIns {
    /// Adds `var`'s built-ins; the first already there.
    fn add(&mut self, var: u32, facts: &BTreeMap<u32, Facts>) -> Option<u32> {
        let f = &facts[&var];
        if self.first.is_none() && self.set.is_empty() {
            self.first = Some(var);
            return f.repeated;
        }
        if let Some(first) = self.first.take() {
            self.set.extend(facts[&first].builtins.iter().copied());
        }
        f.builtins.iter().copied().find(|&b| !self.set.insert(b))
    }
}

pub(super) fn check(cx: &mut Cx<'_, '_>, report: &mut dyn FnMut(Fault) -> bool) -> Go {
    let q = cx.q;
    let vulkan = cx.vulkan;
    let entries = entry_points(q.module);
    let mut models: BTreeMap<u32, BTreeSet<u32>> = BTreeMap::new();
    for e in &entries {
        models.entry(e.function).or_default().insert(e.model);
    }
    // The entry points by function, each function's in order.
    let mut by_function: Vec<(u32, usize)> = entries
        .iter()
        .enumerate()
        .map(|(i, e)| (e.function, i))
        .collect();
    by_function.sort_unstable();
    let mut facts: BTreeMap<u32, Facts> = BTreeMap::new();
    let mut decs = Vec::new();
    let mut done = BTreeSet::new();
    let v14 = q.state.version >= (1, 4);
    let shader = q.state.has_capability(C::Shader.0);
    for first in &entries {
        // spirv-val goes through an entry point function once per OpEntryPoint, with
        // the same result each time.
        let ep = first.function;
        if !done.insert(ep) {
            continue;
        }
        let ep_models = &models[&ep];
        let has_frag = ep_models.contains(&M::Fragment.0);
        let has_vert = ep_models.contains(&M::Vertex.0);
        let (mut block_inputs, mut block_outputs) = (0, 0);
        let (mut workgroup, mut workgroup_block, mut workgroup_aliased) = (0, 0, 0);
        let mut task_payload = false;
        let from = by_function.partition_point(|&(f, _)| f < ep);
        let descs = by_function[from..].iter().take_while(|&&(f, _)| f == ep);
        for desc in descs.map(|&(_, i)| &entries[i]) {
            let mut seen = BTreeSet::new();
            let mut inputs = BuiltIns::default();
            let mut outputs = BuiltIns::default();
            for &interface in desc.interfaces {
                let var = q.def(interface);
                let op = var.map_or(O::Nop, |v| v.opcode());
                let fault = |e: E| at_def(q, interface, e);
                if !matches!(op, O::Variable | O::UntypedVariableKHR) {
                    if !report(fault(E::InterfaceNotVariable { opcode: op })) {
                        return false;
                    }
                    continue;
                }
                let untyped = op == O::UntypedVariableKHR;
                let class = q.word(interface, 3).unwrap_or(0);
                let sc = spv::StorageClass(class);
                if v14 {
                    let e = if sc == spv::StorageClass::TaskPayloadWorkgroupEXT && task_payload {
                        Some(E::TaskPayloadTwice)
                    } else if sc == spv::StorageClass::Function {
                        Some(E::InterfaceFunctionVariable)
                    } else if !seen.insert(interface) {
                        Some(E::InterfaceTwice { id: Id(interface) })
                    } else {
                        None
                    };
                    task_payload |= sc == spv::StorageClass::TaskPayloadWorkgroupEXT;
                    if let Some(e) = e {
                        if !report(fault(e)) {
                            return false;
                        }
                        continue;
                    }
                } else if sc != spv::StorageClass::Input && sc != spv::StorageClass::Output {
                    let e = E::InterfaceStorageClass {
                        storage_class: sc,
                        entry_point: Id(ep),
                    };
                    if !report(fault(e)) {
                        return false;
                    }
                    continue;
                }
                let type_id = if untyped {
                    q.word(interface, 4).unwrap_or(0)
                } else {
                    q.word(q.type_of(interface), 3).unwrap_or(0)
                };
                let type_op = q.opcode(type_id);
                let is_struct = type_op == O::TypeStruct;
                let f = facts.entry(interface).or_insert_with(|| {
                    let d = q.decorations;
                    let owner = if is_struct { type_id } else { interface };
                    d.collect(owner, &[D::BuiltIn.0], &mut decs);
                    let builtins: Vec<u32> = decs
                        .iter()
                        .map(|x| x.params.first().copied().unwrap_or(0))
                        .collect();
                    let mut own = BTreeSet::new();
                    let repeated = builtins.iter().copied().find(|&b| !own.insert(b));
                    d.collect(interface, &INTERPOLATION, &mut decs);
                    let interpolation = decs
                        .iter()
                        .find(|x| x.member == NO_MEMBER && x.params.is_empty())
                        .map(|x| x.kind);
                    Facts {
                        builtins,
                        repeated,
                        location_or_component: d.has(interface, D::Location.0)
                            || d.has(interface, D::Component.0),
                        interpolation,
                    }
                });
                let has_builtin = !f.builtins.is_empty();
                let (location_or_component, interpolation) =
                    (f.location_or_component, f.interpolation);
                let duplicate = match sc {
                    _ if !vulkan || !has_builtin => None,
                    spv::StorageClass::Input => inputs.add(interface, &facts).map(|b| (false, b)),
                    spv::StorageClass::Output => outputs.add(interface, &facts).map(|b| (true, b)),
                    _ => None,
                };
                if let Some((output, builtin)) = duplicate {
                    let builtin = spv::BuiltIn(builtin);
                    let e = if output {
                        E::DuplicateOutputBuiltIn { builtin }
                    } else {
                        E::DuplicateInputBuiltIn { builtin }
                    };
                    if !report(fault(e)) {
                        return false;
                    }
                    continue;
                }
                if has_builtin {
                    if vulkan && location_or_component {
                        let e = E::BuiltInWithLocation {
                            variable: Id(interface),
                        };
                        if !report(fault(e)) {
                            return false;
                        }
                        continue;
                    }
                    if is_struct {
                        if !q.decorations.has(type_id, D::Block.0) {
                            let e = E::BuiltInStructNotBlock;
                            if !report(at_def(q, type_id, e)) {
                                return false;
                            }
                            continue;
                        }
                        block_inputs += usize::from(sc == spv::StorageClass::Input);
                        block_outputs += usize::from(sc == spv::StorageClass::Output);
                        if block_inputs > 1 || block_outputs > 1 {
                            break;
                        }
                    }
                }
                if sc == spv::StorageClass::Workgroup {
                    workgroup += 1;
                    if type_op != O::Nop {
                        if is_struct {
                            if cx.layout.sizes.deep_has(type_id, D::Block.0) {
                                workgroup_block += 1;
                            } else if untyped && shader {
                                let e = E::UntypedWorkgroupNotBlock;
                                if !report(fault(e)) {
                                    return false;
                                }
                                continue;
                            }
                            if cx.layout.sizes.deep_has(interface, D::Aliased.0) {
                                workgroup_aliased += 1;
                            }
                        } else if untyped && shader {
                            let e = E::UntypedWorkgroupNotStruct;
                            if !report(fault(e)) {
                                return false;
                            }
                            continue;
                        }
                    }
                }
                if vulkan {
                    if let Some(decoration) = interpolation {
                        let input = sc == spv::StorageClass::Input;
                        let output = sc == spv::StorageClass::Output;
                        let many = ep_models.len() > 1;
                        if (input && (many || has_vert)) || (output && (many || has_frag)) {
                            let (decoration, entry_point) = (D(decoration), Id(ep));
                            let e = if input {
                                E::InterpolationVertexInput {
                                    decoration,
                                    entry_point,
                                }
                            } else {
                                E::InterpolationFragmentOutput {
                                    decoration,
                                    entry_point,
                                }
                            };
                            if !report(fault(e)) {
                                return false;
                            }
                            continue;
                        }
                    }
                    let flat = cx.layout.sizes.deep_has(interface, D::Flat.0);
                    let typed = (q.is_float_scalar_type(type_id) && q.bit_width(type_id) == 64)
                        || q.is_int_scalar_or_vector_type(type_id);
                    if has_frag && sc == spv::StorageClass::Input && !flat && typed {
                        let e = E::FragmentInputNotFlat {
                            interface: Id(interface),
                            entry_point: Id(ep),
                        };
                        if !report(fault(e)) {
                            return false;
                        }
                    }
                }
            }
            let e = if block_inputs > 1 || block_outputs > 1 {
                Some(E::BuiltInBlocks {
                    entry_point: Id(ep),
                })
            } else {
                q.decorations
                    .collect(ep, &[D::LinkageAttributes.0], &mut decs);
                decs.first().map(|d| {
                    let bytes = crate::codec::string_operand(d.params);
                    E::EntryPointLinkage {
                        name: alloc::string::String::from_utf8_lossy(&bytes).into_owned(),
                        function: Id(ep),
                    }
                })
            };
            let e = e.or_else(|| {
                let allowed = q
                    .state
                    .has_capability(C::WorkgroupMemoryExplicitLayoutKHR.0);
                if allowed
                    && !q.state.has_capability(C::UntypedPointersKHR.0)
                    && workgroup > 0
                    && workgroup_block > 0
                {
                    if workgroup != workgroup_block {
                        Some(E::WorkgroupBlockMix {
                            entry_point: Id(ep),
                        })
                    } else if workgroup_block > 1 && workgroup_block != workgroup_aliased {
                        Some(E::WorkgroupBlockAliased {
                            entry_point: Id(ep),
                        })
                    } else {
                        None
                    }
                } else if !allowed && workgroup_block > 0 {
                    Some(E::WorkgroupBlockWithoutCapability)
                } else {
                    None
                }
            });
            if let Some(e) = e {
                if !report(at_def(q, ep, e)) {
                    return false;
                }
                break;
            }
        }
    }
    true
}
