//! `--eliminate-local-single-store` (spirv-opt's `LocalSingleStoreElimPass`,
//! `source/opt/local_single_store_elim_pass.cpp`): in the functions reachable from the
//! entry points, a function-scope variable stored once (or only initialized), with no
//! partial store and no use the pass does not know, has its loads that the store
//! dominates replaced by the stored value. When every load went and the variable (not
//! an aggregate) has a `DebugDeclare`, a `DebugValue` follows the store instead.

use crate::analysis::Analyses;
use crate::analysis::types::Ty;
use crate::context::Context;
use crate::ir::{Func, Inst};
use crate::mem_pass::{self, Step};
use crate::pass::{IrPass, PassError, Status};
use crate::passes::local_single_block::all_extensions_supported;
use spirv_core::spv::Opcode as O;

/// The pass's flag.
pub const FLAG: &str = "eliminate-local-single-store";

/// `--eliminate-local-single-store`.
#[derive(Debug, Clone, Copy, Default)]
pub struct LocalSingleStore;

const ADDRESSES: u32 = 4;

/// The extensions the pass handles (`InitExtensionAllowList`).
const EXTENSIONS: &[&str] = &[
    "SPV_AMD_shader_explicit_vertex_parameter",
    "SPV_AMD_shader_trinary_minmax",
    "SPV_AMD_gcn_shader",
    "SPV_KHR_shader_ballot",
    "SPV_AMD_shader_ballot",
    "SPV_AMD_gpu_shader_half_float",
    "SPV_KHR_shader_draw_parameters",
    "SPV_KHR_subgroup_vote",
    "SPV_KHR_8bit_storage",
    "SPV_KHR_16bit_storage",
    "SPV_KHR_device_group",
    "SPV_KHR_multiview",
    "SPV_NVX_multiview_per_view_attributes",
    "SPV_NV_viewport_array2",
    "SPV_NV_stereo_view_rendering",
    "SPV_NV_sample_mask_override_coverage",
    "SPV_NV_geometry_shader_passthrough",
    "SPV_AMD_texture_gather_bias_lod",
    "SPV_KHR_storage_buffer_storage_class",
    "SPV_KHR_variable_pointers",
    "SPV_AMD_gpu_shader_int16",
    "SPV_KHR_post_depth_coverage",
    "SPV_KHR_shader_atomic_counter_ops",
    "SPV_EXT_shader_stencil_export",
    "SPV_EXT_shader_viewport_index_layer",
    "SPV_AMD_shader_image_load_store_lod",
    "SPV_AMD_shader_fragment_mask",
    "SPV_EXT_fragment_fully_covered",
    "SPV_AMD_gpu_shader_half_float_fetch",
    "SPV_GOOGLE_decorate_string",
    "SPV_GOOGLE_hlsl_functionality1",
    "SPV_NV_shader_subgroup_partitioned",
    "SPV_EXT_descriptor_indexing",
    "SPV_NV_fragment_shader_barycentric",
    "SPV_NV_compute_shader_derivatives",
    "SPV_NV_shader_image_footprint",
    "SPV_NV_shading_rate",
    "SPV_NV_mesh_shader",
    "SPV_EXT_mesh_shader",
    "SPV_NV_ray_tracing",
    "SPV_KHR_ray_query",
    "SPV_EXT_fragment_invocation_density",
    "SPV_EXT_physical_storage_buffer",
    "SPV_KHR_physical_storage_buffer",
    "SPV_KHR_terminate_invocation",
    "SPV_KHR_subgroup_uniform_control_flow",
    "SPV_KHR_integer_dot_product",
    "SPV_EXT_shader_image_int64",
    "SPV_KHR_non_semantic_info",
    "SPV_KHR_uniform_group_instructions",
    "SPV_KHR_fragment_shader_barycentric",
    "SPV_KHR_vulkan_memory_model",
    "SPV_NV_bindless_texture",
    "SPV_EXT_shader_atomic_float_add",
    "SPV_EXT_fragment_shader_interlock",
    "SPV_KHR_compute_shader_derivatives",
    "SPV_NV_cooperative_matrix",
    "SPV_KHR_cooperative_matrix",
    "SPV_KHR_ray_tracing_position_fetch",
    "SPV_AMDX_shader_enqueue",
    "SPV_KHR_fragment_shading_rate",
    "SPV_KHR_ray_tracing",
    "SPV_KHR_quad_control",
    "SPV_GOOGLE_user_type",
    "SPV_NV_shader_invocation_reorder",
    "SPV_NV_cluster_acceleration_structure",
    "SPV_NV_linear_swept_spheres",
    "SPV_KHR_maximal_reconvergence",
];

impl IrPass for LocalSingleStore {
    fn flag(&self) -> &'static str {
        FLAG
    }

    fn preserved(&self) -> Analyses {
        Analyses::DEF_USE | Analyses::INSTR_TO_BLOCK | Analyses::CONSTANTS | Analyses::TYPES
    }

    fn process(&self, cx: &mut Context) -> Result<Status, PassError> {
        if cx.has_capability(ADDRESSES) || !all_extensions_supported(cx, EXTENSIONS) {
            return Ok(Status::Unchanged);
        }
        let mut failed = false;
        let modified = cx.process_reachable_call_tree(&mut |cx, f| match run(cx, f) {
            Some(m) => m,
            None => {
                failed = true;
                false
            }
        });
        if failed {
            return Err(PassError {
                pass: FLAG,
                message: "ids ran out".into(),
            });
        }
        Ok(if modified {
            Status::Changed
        } else {
            Status::Unchanged
        })
    }
}

/// `LocalSingleStoreElim` of one function: each variable at the start of its entry
/// block. `None` when ids ran out.
fn run(cx: &mut Context, f: Func) -> Option<bool> {
    let Some(entry) = cx.ir.entry(f) else {
        return Some(false);
    };
    let mut modified = false;
    let mut cur = cx.ir.first_inst(entry);
    while let Some(v) = cur {
        if cx.ir.opcode(v) != O::Variable {
            break;
        }
        modified |= process_variable(cx, v)?;
        cur = cx.ir.next(v);
    }
    Some(modified)
}

/// `ProcessVariable`.
fn process_variable(cx: &mut Context, var: Inst) -> Option<bool> {
    let mut users: Vec<Inst> = Vec::new();
    find_uses(cx, var, &mut users);
    let Some(store) = find_single_store_and_check_uses(cx, var, &users) else {
        return Some(false);
    };
    let (mut modified, all_rewritten) = rewrite_loads(cx, store, &users);
    let var_id = cx.ir.result_id(var);
    if all_rewritten && cx.is_variable_debug_declared(var_id) {
        let ty = cx.ir.type_id(var);
        let types = cx.types();
        let aggregate = types.get(ty).is_some_and(|t| match types.ty(t) {
            Ty::Pointer {
                pointee: Some(p), ..
            } => matches!(types.ty(*p), Ty::Struct { .. } | Ty::Array { .. }),
            _ => false,
        });
        if !aggregate {
            let value = cx.ir.data(store).in_word(1);
            modified |= cx.add_debug_value_for_variable(store, var_id, value, store)?;
            modified |= cx.kill_debug_declares(var_id);
        }
    }
    Some(modified)
}

/// `FindUses`: the users of `i`, and of its copies in turn, in spirv-opt's order (each
/// copy's users right after the copy). spirv-opt recurses; a chain of copies is as long
/// as the input makes it, so this keeps an explicit stack of the user lists being read.
fn find_uses(cx: &mut Context, i: Inst, users: &mut Vec<Inst>) {
    let id = cx.ir.result_id(i);
    let mut stack: Vec<(Vec<Inst>, usize)> = vec![(cx.users(id), 0)];
    while let Some((list, at)) = stack.last_mut() {
        let Some(&u) = list.get(*at) else {
            stack.pop();
            continue;
        };
        *at += 1;
        users.push(u);
        if cx.ir.opcode(u) == O::CopyObject {
            let copy = cx.ir.result_id(u);
            stack.push((cx.users(copy), 0));
        }
    }
}

/// `FindSingleStoreAndCheckUses`: the one store (or the initializing variable).
fn find_single_store_and_check_uses(cx: &mut Context, var: Inst, users: &[Inst]) -> Option<Inst> {
    let mut store = (cx.ir.data(var).num_in_operands() > 1).then_some(var);
    for &u in users {
        match cx.ir.opcode(u) {
            O::Store => {
                if store.is_some() {
                    return None;
                }
                store = Some(u);
            }
            O::AccessChain | O::InBoundsAccessChain => {
                if feeds_a_store(cx, u) {
                    return None;
                }
            }
            O::Load | O::ImageTexelPointer | O::Name | O::CopyObject => {}
            O::ExtInst => {
                if !matches!(cx.common_debug_opcode(u), Some(28 | 29)) {
                    return None;
                }
            }
            op => {
                if !is_decoration(op) {
                    return None;
                }
            }
        }
    }
    store
}

/// `IsDecoration`.
fn is_decoration(op: O) -> bool {
    matches!(
        op,
        O::Decorate
            | O::DecorateId
            | O::MemberDecorate
            | O::GroupDecorate
            | O::GroupMemberDecorate
            | O::DecorateString
            | O::MemberDecorateString
    )
}

/// `FeedsAStore`: whether a store, or a use other than a load, a texel pointer, a
/// name or a decoration, takes `i`'s result through chains and copies
/// ([`mem_pass::walk_pointer_users`]).
fn feeds_a_store(cx: &mut Context, i: Inst) -> bool {
    let id = cx.ir.result_id(i);
    mem_pass::walk_pointer_users(cx, id, &mut |cx, u, _| match cx.ir.opcode(u) {
        O::AccessChain | O::InBoundsAccessChain | O::CopyObject => Step::Descend,
        O::Load | O::ImageTexelPointer | O::Name => Step::Next,
        op if is_decoration(op) => Step::Next,
        _ => Step::Stop,
    })
}

/// `RewriteLoads`: whether a load was replaced, and whether every use was.
fn rewrite_loads(cx: &mut Context, store: Inst, uses: &[Inst]) -> (bool, bool) {
    let stored = cx.ir.data(store).in_word(1);
    let func = cx.ir.block_of(store).and_then(|b| cx.ir.block_func(b));
    let mut all_rewritten = true;
    let mut modified = false;
    for &u in uses {
        if cx.ir.opcode(u) == O::Store {
            continue;
        }
        if matches!(cx.common_debug_opcode(u), Some(28 | 29)) {
            continue;
        }
        let dominated = cx.ir.opcode(u) == O::Load
            && func.is_some_and(|f| {
                let (dom, ir) = cx.dominators_ir(f);
                dom.inst_dominates(ir, store, u)
            });
        if dominated {
            modified = true;
            let rid = cx.ir.result_id(u);
            cx.kill_names_and_decorates_of(rid);
            cx.replace_all_uses_with(rid, stored);
            cx.kill_inst(u);
        } else {
            all_rewritten = false;
        }
    }
    (modified, all_rewritten)
}
