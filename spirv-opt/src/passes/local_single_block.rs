//! `--eliminate-local-single-block` (spirv-opt's `LocalSingleBlockLoadStoreElimPass`,
//! `source/opt/local_single_block_elim_pass.cpp`): within each block of the functions
//! reachable from the entry points, a load of a function-scope variable (of a target
//! type, used only by loads, stores and access chains of them) after a store to it or
//! a load of it takes that value, and a store made dead by a later one, or storing
//! the value just loaded, goes. A function call forgets what was known.

use crate::analysis::Analyses;
use crate::context::Context;
use crate::ir::{Block, Func, Inst, Section};
use crate::mem_pass::{self, MemPass};
use crate::pass::{IrPass, PassError, Status};
use spirv_core::spv::Opcode as O;
use std::collections::{HashMap, HashSet};

/// The pass's flag.
pub const FLAG: &str = "eliminate-local-single-block";

/// `--eliminate-local-single-block`.
#[derive(Debug, Clone, Copy, Default)]
pub struct LocalSingleBlock;

const ADDRESSES: u32 = 4;

/// The extensions the pass handles (`InitExtensions`).
pub(crate) const EXTENSIONS: &[&str] = &[
    "SPV_AMD_shader_explicit_vertex_parameter",
    "SPV_AMD_shader_trinary_minmax",
    "SPV_AMD_gcn_shader",
    "SPV_KHR_shader_ballot",
    "SPV_AMD_shader_ballot",
    "SPV_AMDX_shader_enqueue",
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
    "SPV_GOOGLE_user_type",
    "SPV_NV_shader_subgroup_partitioned",
    "SPV_EXT_demote_to_helper_invocation",
    "SPV_EXT_descriptor_indexing",
    "SPV_NV_fragment_shader_barycentric",
    "SPV_NV_compute_shader_derivatives",
    "SPV_NV_shader_image_footprint",
    "SPV_NV_shading_rate",
    "SPV_NV_mesh_shader",
    "SPV_EXT_mesh_shader",
    "SPV_NV_ray_tracing",
    "SPV_KHR_ray_tracing",
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
    "SPV_KHR_fragment_shading_rate",
    "SPV_KHR_quad_control",
    "SPV_NV_shader_invocation_reorder",
    "SPV_NV_cluster_acceleration_structure",
    "SPV_NV_linear_swept_spheres",
    "SPV_KHR_maximal_reconvergence",
];

impl IrPass for LocalSingleBlock {
    fn flag(&self) -> &'static str {
        FLAG
    }

    fn preserved(&self) -> Analyses {
        Analyses::DEF_USE | Analyses::INSTR_TO_BLOCK | Analyses::CONSTANTS | Analyses::TYPES
    }

    fn process(&self, cx: &mut Context) -> Result<Status, PassError> {
        if cx.has_capability(ADDRESSES)
            || cx
                .ir
                .section(Section::Annotation)
                .any(|a| cx.ir.opcode(a) == O::GroupDecorate)
            || !all_extensions_supported(cx, EXTENSIONS)
        {
            return Ok(Status::Unchanged);
        }
        let mut s = State::default();
        let modified = cx.process_reachable_call_tree(&mut |cx, f| s.run(cx, f));
        Ok(if modified {
            Status::Changed
        } else {
            Status::Unchanged
        })
    }
}

/// `AllExtensionsSupported` of the memory passes: every extension in `allowed`, and
/// no non-semantic set but `NonSemantic.Shader.DebugInfo.100`.
pub(crate) fn all_extensions_supported(cx: &Context, allowed: &[&str]) -> bool {
    for e in cx.ir.section(Section::Extension) {
        let d = cx.ir.data(e);
        if !allowed.contains(&d.string(0).as_str()) {
            return false;
        }
    }
    for i in cx.ir.section(Section::ExtInstImport) {
        let name = cx.ir.data(i).string(1);
        if name.starts_with("NonSemantic.") && name != "NonSemantic.Shader.DebugInfo.100" {
            return false;
        }
    }
    true
}

/// The pass's state over a run.
#[derive(Default)]
struct State {
    mem: MemPass,
    supported_ref_ptrs: HashSet<u32>,
}

impl State {
    /// `HasOnlySupportedRefs` (this pass's: through access chains and copies too).
    fn has_only_supported_refs(&mut self, cx: &mut Context, ptr_id: u32) -> bool {
        if self.supported_ref_ptrs.contains(&ptr_id) {
            return true;
        }
        // spirv-opt recurses through the access chains and copies derived from the
        // pointer; the input decides how long such a chain is, so this walks it with an
        // explicit stack, in the same order. A pointer is recorded as supported once all
        // its users are; one met again while its users are being walked (a cycle, which
        // only an invalid module has) adds nothing.
        let mut stack: Vec<(u32, Vec<Inst>, usize)> = vec![(ptr_id, cx.users(ptr_id), 0)];
        let mut walking: HashSet<u32> = HashSet::from_iter([ptr_id]);
        while let Some((ptr, users, at)) = stack.last_mut() {
            let Some(&user) = users.get(*at) else {
                let done = *ptr;
                self.supported_ref_ptrs.insert(done);
                walking.remove(&done);
                stack.pop();
                continue;
            };
            *at += 1;
            if matches!(cx.common_debug_opcode(user), Some(28 | 29)) {
                continue;
            }
            let op = cx.ir.opcode(user);
            if mem_pass::is_non_ptr_access_chain(op) || op == O::CopyObject {
                let rid = cx.ir.result_id(user);
                if !self.supported_ref_ptrs.contains(&rid) && walking.insert(rid) {
                    let users = cx.users(rid);
                    stack.push((rid, users, 0));
                }
            } else if op != O::Store
                && op != O::Load
                && op != O::Name
                && !mem_pass::is_non_type_decorate(op)
            {
                return false;
            }
        }
        true
    }

    /// `LocalSingleBlockLoadStoreElim` of one function.
    fn run(&mut self, cx: &mut Context, f: Func) -> bool {
        let mut modified = false;
        let mut to_kill: Vec<Inst> = Vec::new();
        let mut to_save: HashSet<Inst> = HashSet::new();
        let blocks: Vec<Block> = cx.ir.blocks(f).collect();
        for b in blocks {
            let mut var2store: HashMap<u32, Inst> = HashMap::new();
            let mut var2load: HashMap<u32, Inst> = HashMap::new();
            let insts: Vec<Inst> = cx.ir.insts(b).collect();
            for i in insts {
                match cx.ir.opcode(i) {
                    O::Store => {
                        let (ptr, var_id) = mem_pass::get_ptr_of(cx, i);
                        if !self.mem.is_target_var(cx, var_id)
                            || !self.has_only_supported_refs(cx, var_id)
                        {
                            continue;
                        }
                        let Some(ptr) = ptr else { continue };
                        if cx.ir.opcode(ptr) == O::Variable {
                            if let Some(&prev) = var2store.get(&var_id) {
                                if !to_save.contains(&prev)
                                    && !cx.is_variable_debug_declared(var_id)
                                {
                                    to_kill.push(prev);
                                    modified = true;
                                }
                            }
                            let value = cx.ir.data(i).in_word(1);
                            let kill_store = var2load
                                .get(&var_id)
                                .is_some_and(|&l| cx.ir.result_id(l) == value);
                            if kill_store {
                                to_kill.push(i);
                                modified = true;
                            } else {
                                var2store.insert(var_id, i);
                                var2load.remove(&var_id);
                            }
                        } else {
                            var2store.remove(&var_id);
                            var2load.remove(&var_id);
                        }
                    }
                    O::Load => {
                        let (ptr, var_id) = mem_pass::get_ptr_of(cx, i);
                        if !self.mem.is_target_var(cx, var_id)
                            || !self.has_only_supported_refs(cx, var_id)
                        {
                            continue;
                        }
                        let Some(ptr) = ptr else { continue };
                        let whole = cx.ir.opcode(ptr) == O::Variable;
                        let mut repl = 0;
                        if whole {
                            if let Some(&st) = var2store.get(&var_id) {
                                repl = cx.ir.data(st).in_word(1);
                            } else if let Some(&ld) = var2load.get(&var_id) {
                                repl = cx.ir.result_id(ld);
                            }
                        } else if let Some(&st) = var2store.get(&var_id) {
                            to_save.insert(st);
                        }
                        if repl != 0 {
                            cx.kill_names_and_decorates(i);
                            let rid = cx.ir.result_id(i);
                            cx.replace_all_uses_with(rid, repl);
                            to_kill.push(i);
                            modified = true;
                        } else if whole {
                            var2load.insert(var_id, i);
                        }
                    }
                    O::FunctionCall => {
                        var2store.clear();
                        var2load.clear();
                    }
                    _ => {}
                }
            }
        }
        for i in to_kill {
            cx.kill_inst(i);
        }
        modified
    }
}
