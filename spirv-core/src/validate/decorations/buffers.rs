//! `CheckDecorationsOfBuffers` and `CheckDecorationsOfVariables`: push constants per
//! entry point, bindings (OpenGL), `Block` and `BufferBlock` on buffers (Vulkan), the
//! explicit layout of blocks and of what physical storage buffer and untyped pointers
//! point to, and descriptor sets and bindings of resources (Vulkan).

use super::super::Fault;
use super::block_layout::Block;
use super::error::{DecorationError as E, Missing};
use super::sizes::Required;
use super::{Cx, Go, at_def};
use crate::__private::Vec;
use crate::TargetEnv;
use crate::analysis::CallGraph;
use crate::spv::{Capability as C, Decoration as D, Opcode as O, StorageClass as S};
use crate::types::Id;
use alloc::collections::{BTreeMap, BTreeSet};

/// The entry point functions that use each global variable (spirv-val's
/// `EntryPointReferences`, for the variables named directly in the functions each
/// entry point calls).
fn references(module: &crate::Module, wanted: &BTreeSet<u32>) -> BTreeMap<u32, BTreeSet<u32>> {
    let mut out: BTreeMap<u32, BTreeSet<u32>> = BTreeMap::new();
    if wanted.is_empty() {
        return out;
    }
    let graph = CallGraph::new(module);
    let used = graph.static_use();
    // Entry points often share one set: read each set once.
    let mut sets: BTreeMap<(usize, usize), Vec<u32>> = BTreeMap::new();
    for (r, root) in graph.roots().iter().enumerate() {
        let globals = used.globals(r);
        let key = (globals.as_ptr() as usize, globals.len());
        let vars = sets.entry(key).or_insert_with(|| {
            globals
                .iter()
                .map(|g| g.0)
                .filter(|g| wanted.contains(g))
                .collect()
        });
        for &v in vars.iter() {
            out.entry(v).or_default().insert(root.function.0);
        }
    }
    out
}

fn is_opengl(env: TargetEnv) -> bool {
    matches!(
        env,
        TargetEnv::OpenGl4_0
            | TargetEnv::OpenGl4_1
            | TargetEnv::OpenGl4_2
            | TargetEnv::OpenGl4_3
            | TargetEnv::OpenGl4_5
    )
}

/// `CheckDecorationsOfBuffers`.
pub(super) fn check(cx: &mut Cx<'_, '_>, report: &mut dyn FnMut(Fault) -> bool) -> Go {
    let q = cx.q;
    let options = q.state.options;
    let env = options.target_env;
    let vulkan = cx.vulkan;
    let variables = || {
        q.module
            .instructions()
            .filter(|i| matches!(i.opcode(), O::Variable | O::UntypedVariableKHR))
    };
    // Which entry points use the variables whose references matter.
    let wanted: BTreeSet<u32> = variables()
        .filter_map(|i| {
            let w = i.words();
            let sc = S(w.get(3).copied().unwrap_or(0));
            let needed = (vulkan && sc == S::PushConstant)
                || (is_opengl(env) && matches!(sc, S::Uniform | S::StorageBuffer));
            needed.then(|| w.get(2).copied()).flatten()
        })
        .collect();
    let pushes = variables()
        .filter(|i| i.words().get(3) == Some(&S::PushConstant.0))
        .count();
    let refs = if (vulkan && pushes > 1) || is_opengl(env) {
        references(q.module, &wanted)
    } else {
        BTreeMap::new()
    };
    let no_refs = BTreeSet::new();
    let mut uses_push_constant = BTreeSet::new();
    let mut decs = Vec::new();
    let explicit_workgroup = q
        .state
        .has_capability(C::WorkgroupMemoryExplicitLayoutKHR.0);
    // Other instructions than variables matter only through a physical storage buffer
    // pointer type or, for Vulkan, untyped pointers: without either they are passed over
    // before their type is looked up.
    let others = (vulkan && q.state.has_capability(C::UntypedPointersKHR.0))
        || q.module.instructions().any(|i| {
            i.opcode() == O::TypePointer && i.words().get(2) == Some(&S::PhysicalStorageBuffer.0)
        });
    for inst in q.module.instructions() {
        let w = inst.words();
        let op = inst.opcode();
        if !others && !matches!(op, O::Variable | O::UntypedVariableKHR) {
            continue;
        }
        let type_id = if inst.info().is_some_and(|i| i.has_result_type()) {
            w.get(1).copied().unwrap_or(0)
        } else {
            0
        };
        if matches!(op, O::Variable | O::UntypedVariableKHR) {
            let (Some(&pointer), Some(&var), Some(&class)) = (w.get(1), w.get(2), w.get(3)) else {
                continue;
            };
            let sc = S(class);
            let uniform = sc == S::Uniform;
            let push_constant = sc == S::PushConstant;
            let storage_buffer = sc == S::StorageBuffer;
            let eps = refs.get(&var).unwrap_or(&no_refs);
            if vulkan && push_constant {
                for &ep in eps {
                    if !uses_push_constant.insert(ep) {
                        let e = E::PushConstantTwice {
                            entry_point: Id(ep),
                        };
                        if !report(at_def(q, var, e)) {
                            return false;
                        }
                        break;
                    }
                }
            }
            if is_opengl(env) {
                let block = q.decorations.has(var, D::Block.0);
                let buffer_block = q.decorations.has(var, D::BufferBlock.0);
                if ((uniform && (block || buffer_block)) || (storage_buffer && block))
                    && !eps.is_empty()
                    && !q.decorations.has(var, D::Binding.0)
                {
                    let e = E::GlBindingMissing {
                        storage_class: sc,
                        variable: Id(var),
                    };
                    if !report(at_def(q, var, e)) {
                        return false;
                    }
                }
            }
            let physical = sc == S::PhysicalStorageBuffer;
            let workgroup = sc == S::Workgroup && explicit_workgroup;
            if !(uniform || push_constant || storage_buffer || physical || workgroup) {
                continue;
            }
            // The memory rules, before these, make the type a pointer.
            if !q.is_pointer_type(pointer) {
                continue;
            }
            let mut id = if op == O::UntypedVariableKHR {
                w.get(4).copied().unwrap_or(0)
            } else {
                q.word(pointer, 3).unwrap_or(0)
            };
            if id != 0 {
                if !workgroup && matches!(q.opcode(id), O::TypeArray | O::TypeRuntimeArray) {
                    id = q.word(id, 2).unwrap_or(0);
                }
                if q.opcode(id) != O::TypeStruct {
                    continue;
                }
            }
            if vulkan {
                let block = id != 0 && cx.layout.sizes.deep_has(id, D::Block.0);
                let buffer_block = id != 0 && cx.layout.sizes.deep_has(id, D::BufferBlock.0);
                let e = if storage_buffer && buffer_block {
                    Some((var, E::StorageBufferBufferBlock { variable: Id(var) }))
                } else if (push_constant || storage_buffer) && !block
                    || uniform && !block && !buffer_block
                {
                    Some((
                        id,
                        if uniform {
                            E::UniformMissingBlock { id: Id(id) }
                        } else {
                            E::MissingBlock {
                                storage_class: sc,
                                id: Id(id),
                            }
                        },
                    ))
                } else {
                    None
                };
                if let Some((at, e)) = e {
                    if !report(at_def(q, at, e)) {
                        return false;
                    }
                    continue;
                }
            }
            if id == 0 {
                continue;
            }
            // Each of Block and BufferBlock once, in set order.
            q.decorations
                .collect(id, &[D::Block.0, D::BufferBlock.0], &mut decs);
            let mut kinds: Vec<u32> = Vec::new();
            for d in &decs {
                if !kinds.contains(&d.kind) {
                    kinds.push(d.kind);
                }
            }
            for kind in kinds {
                let block_deco = kind == D::Block.0;
                let block_rules = uniform && block_deco;
                let buffer_rules = (uniform && !block_deco)
                    || ((push_constant || storage_buffer || physical || workgroup) && block_deco);
                if block_rules {
                    cx.uniform_block_pointers.insert(pointer);
                }
                if (uniform && !block_deco) || ((storage_buffer || physical) && block_deco) {
                    cx.storage_buffer_pointers.insert(pointer);
                }
                if !(block_rules || buffer_rules) {
                    continue;
                }
                let scalar = if workgroup {
                    options.workgroup_scalar_block_layout
                } else {
                    options.scalar_block_layout
                };
                let sizes = &mut cx.layout.sizes;
                let missing = if sizes.missing_offset(id) {
                    Some(Missing::Offset)
                } else if !sizes.has_required(id, Required::ArrayStride) {
                    Some(Missing::ArrayStride)
                } else if !sizes.has_required(id, Required::MatrixStride) {
                    Some(Missing::MatrixStride)
                } else if !sizes.has_required(id, Required::Majorness) {
                    Some(Missing::Majorness)
                } else {
                    None
                };
                if let Some(missing) = missing {
                    let e = E::NotExplicitlyLaidOut {
                        id: Id(id),
                        decoration: if block_deco { D::Block } else { D::BufferBlock },
                        missing,
                    };
                    if !report(at_def(q, id, e)) {
                        return false;
                    }
                    break;
                }
                if vulkan {
                    let b = Block {
                        root: id,
                        storage_class: class,
                        buffer_block: !block_deco,
                        block_rules,
                        scalar,
                        computed: true,
                    };
                    if let Err((at, e)) = cx.layout.check(&b) {
                        if !report(at_def(q, at, e)) {
                            return false;
                        }
                        break;
                    }
                }
            }
            continue;
        }
        let pointer_type = q.def(type_id).filter(|t| t.opcode() == O::TypePointer);
        if let Some(t) =
            pointer_type.filter(|t| t.words().get(2) == Some(&S::PhysicalStorageBuffer.0))
        {
            let pointee = t.words().get(3).copied().unwrap_or(0);
            let b = Block {
                root: pointee,
                storage_class: S::PhysicalStorageBuffer.0,
                buffer_block: false,
                block_rules: false,
                scalar: options.scalar_block_layout,
                computed: q.opcode(pointee) == O::TypeStruct,
            };
            if let Err((at, e)) = cx.layout.check(&b) {
                if !report(at_def(q, at, e)) {
                    return false;
                }
            }
            continue;
        }
        if !(vulkan && q.state.has_capability(C::UntypedPointersKHR.0)) {
            continue;
        }
        if let Err((at, e)) = untyped(cx, inst.index(), type_id) {
            if !report(at_def(q, at, e)) {
                return false;
            }
        }
    }
    true
}

/// The layout of what an untyped pointer instruction accesses (Vulkan).
fn untyped(cx: &mut Cx<'_, '_>, index: usize, type_id: u32) -> Result<(), (u32, E)> {
    let q = cx.q;
    let options = q.state.options;
    let Some(inst) = q.module.instruction(index) else {
        return Ok(());
    };
    let w = inst.words();
    let word = |k: usize| w.get(k).copied().unwrap_or(0);
    let untyped_pointer = |id: u32| q.opcode(q.type_of(id)) == O::TypeUntypedPointerKHR;
    let (pointer_type, mut data) = match inst.opcode() {
        O::UntypedAccessChainKHR
        | O::UntypedInBoundsAccessChainKHR
        | O::UntypedPtrAccessChainKHR
        | O::UntypedInBoundsPtrAccessChainKHR => (type_id, word(3)),
        O::Load if untyped_pointer(word(3)) => (q.type_of(word(3)), type_id),
        O::Store if untyped_pointer(word(1)) => (q.type_of(word(1)), q.type_of(word(2))),
        O::UntypedArrayLengthKHR => (q.type_of(word(4)), word(3)),
        _ => (0, 0),
    };
    if pointer_type == 0 || data == 0 {
        return Ok(());
    }
    let class = q.word(pointer_type, 2).unwrap_or(0);
    let sc = S(class);
    let scalar = if sc == S::Workgroup {
        options.workgroup_scalar_block_layout
    } else {
        options.scalar_block_layout
    };
    if matches!(q.opcode(data), O::TypeArray | O::TypeRuntimeArray) {
        let elem = q.word(data, 2).unwrap_or(0);
        if q.opcode(elem) == O::TypeStruct
            && (q.decorations.has(elem, D::Block.0) || q.decorations.has(elem, D::BufferBlock.0))
        {
            data = elem;
        }
    }
    let mut buffer_rules = sc != S::Uniform;
    let is_struct = q.opcode(data) == O::TypeStruct;
    if is_struct && sc == S::Uniform {
        buffer_rules = q.decorations.has(data, D::BufferBlock.0);
    }
    let b = Block {
        root: data,
        storage_class: class,
        buffer_block: buffer_rules && sc == S::Uniform,
        block_rules: !buffer_rules,
        scalar,
        computed: is_struct,
    };
    cx.layout.check(&b)
}

/// `CheckDecorationsOfVariables`: resources have a descriptor set and a binding
/// (Vulkan).
pub(super) fn variables(cx: &mut Cx<'_, '_>, report: &mut dyn FnMut(Fault) -> bool) -> Go {
    if !cx.vulkan {
        return true;
    }
    let q = cx.q;
    let before_legalization = q.state.options.before_hlsl_legalization;
    let resource = |sc: S| matches!(sc, S::Uniform | S::UniformConstant | S::StorageBuffer);
    let refs = if before_legalization {
        let wanted = q
            .module
            .instructions()
            .filter(|i| matches!(i.opcode(), O::Variable | O::UntypedVariableKHR))
            .filter(|i| resource(S(i.words().get(3).copied().unwrap_or(0))))
            .filter_map(|i| i.words().get(2).copied())
            .collect();
        references(q.module, &wanted)
    } else {
        BTreeMap::new()
    };
    for inst in q.module.instructions() {
        if !matches!(inst.opcode(), O::Variable | O::UntypedVariableKHR) {
            continue;
        }
        let w = inst.words();
        let (Some(&var), Some(&class)) = (w.get(2), w.get(3)) else {
            continue;
        };
        if !resource(S(class)) || (before_legalization && !refs.contains_key(&var)) {
            continue;
        }
        for (kind, binding) in [(D::DescriptorSet.0, false), (D::Binding.0, true)] {
            if !cx.layout.sizes.deep_has(var, kind) {
                let (storage_class, variable) = (S(class), Id(var));
                let e = if binding {
                    E::MissingBinding {
                        storage_class,
                        variable,
                    }
                } else {
                    E::MissingDescriptorSet {
                        storage_class,
                        variable,
                    }
                };
                if !report(at_def(q, var, e)) {
                    return false;
                }
                break;
            }
        }
    }
    true
}
