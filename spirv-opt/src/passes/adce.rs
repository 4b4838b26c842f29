//! `--eliminate-dead-code-aggressive` (spirv-opt's `AggressiveDCEPass`,
//! `source/opt/aggressive_dead_code_elim_pass.cpp`): removes the dead functions, then,
//! in each function, marks live what has a side effect and, transitively, what it
//! needs (operands, blocks and the constructs around them, the stores to the local
//! variables it loads, `OpDecorateId`s, debug scopes), and removes the rest: a dead
//! structured construct becomes a branch to its merge block. Then the dead names,
//! decorations, debug-info and global values go, and the blocks no longer reachable.
//!
//! It does nothing to a module without the `Shader` capability, with `Addresses` or
//! `VariablePointersStorageBuffer`, or with an extension (or a non-semantic set other
//! than `NonSemantic.Shader.DebugInfo.100` and `NonSemantic.DebugPrintf`) it does not
//! know. spirv-opt's command line keeps the entry points' interfaces
//! ([`PassOptions::preserve_interface`](crate::PassOptions)).

use crate::analysis::Analyses;
use crate::builder::Builder;
use crate::context::Context;
use crate::ir::{Block, Func, Inst, Operand, Section};
use crate::mem_pass::{self, FUNCTION_STORAGE, MemPass, Step};
use crate::pass::{IrPass, PassError, Status};
use crate::passes::dead_functions;
use spirv_core::spv::Opcode as O;
use std::collections::{HashMap, HashSet, VecDeque};

/// The pass's flag.
pub const FLAG: &str = "eliminate-dead-code-aggressive";

/// `--eliminate-dead-code-aggressive`.
#[derive(Debug, Clone, Copy, Default)]
pub struct AggressiveDce {
    /// Keep every entry point's interface variables.
    pub preserve_interface: bool,
    /// Output variables may be removed from the interfaces.
    pub remove_outputs: bool,
}

/// Storage classes.
const PRIVATE: u32 = 6;
const WORKGROUP: u32 = 4;
const OUTPUT: u32 = 3;
/// Capabilities.
const SHADER: u32 = 1;
const ADDRESSES: u32 = 4;
const VARIABLE_POINTERS_STORAGE_BUFFER: u32 = 4441;
/// Decorations and built-ins.
const BUILT_IN: u32 = 11;
const WORKGROUP_SIZE: u32 = 25;
const DESCRIPTOR_SET: u32 = 34;
const BINDING: u32 = 33;
const SPEC_ID: u32 = 1;
const HLSL_COUNTER_BUFFER: u32 = 5634;
/// Debug-info instruction numbers.
const DEBUG_GLOBAL_VARIABLE: u32 = 18;
const DEBUG_DECLARE: u32 = 28;
const DEBUG_VALUE: u32 = 29;
const DEBUG_COMPILATION_UNIT: u32 = 1;
const DEBUG_SOURCE: u32 = 35;
const DEBUG_SOURCE_CONTINUED: u32 = 102;
const DEBUG_BUILD_IDENTIFIER: u32 = 105;
const DEBUG_ENTRY_POINT: u32 = 107;
/// `GLSL.std.450` interpolation instructions.
const INTERPOLATE_AT_CENTROID: u32 = 76;
const INTERPOLATE_AT_OFFSET: u32 = 78;

/// The extensions the pass handles (`InitExtensions`).
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
    "SPV_KHR_shader_clock",
    "SPV_KHR_vulkan_memory_model",
    "SPV_KHR_subgroup_uniform_control_flow",
    "SPV_KHR_integer_dot_product",
    "SPV_EXT_shader_image_int64",
    "SPV_KHR_non_semantic_info",
    "SPV_KHR_uniform_group_instructions",
    "SPV_KHR_fragment_shader_barycentric",
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

impl IrPass for AggressiveDce {
    fn flag(&self) -> &'static str {
        FLAG
    }

    fn preserved(&self) -> Analyses {
        Analyses::DEF_USE | Analyses::INSTR_TO_BLOCK | Analyses::CONSTANTS | Analyses::TYPES
    }

    fn process(&self, cx: &mut Context) -> Result<Status, PassError> {
        let mut s = State {
            preserve_interface: self.preserve_interface,
            remove_outputs: self.remove_outputs,
            ..State::default()
        };
        match s.process(cx) {
            Some(true) => Ok(Status::Changed),
            Some(false) => Ok(Status::Unchanged),
            None => Err(PassError {
                pass: FLAG,
                message: "ids ran out".into(),
            }),
        }
    }
}

/// The pass's state over a run.
#[derive(Default)]
struct State {
    preserve_interface: bool,
    remove_outputs: bool,
    mem: MemPass,
    entry_point_with_no_calls: HashMap<u32, bool>,
    worklist: VecDeque<Inst>,
    live: Vec<bool>,
    live_local_vars: HashSet<u32>,
    to_kill: Vec<Inst>,
}

impl State {
    fn is_live(&self, i: Inst) -> bool {
        self.live.get(i.index()).copied().unwrap_or(false)
    }

    fn is_live_opt(&self, i: Option<Inst>) -> bool {
        i.is_some_and(|i| self.is_live(i))
    }

    /// Marks `i` live; whether it was already.
    fn set_live(&mut self, i: Inst) -> bool {
        let k = i.index();
        if k >= self.live.len() {
            self.live.resize(k + 1, false);
        }
        std::mem::replace(&mut self.live[k], true)
    }

    /// `AddToWorklist`.
    fn add_to_worklist(&mut self, i: Option<Inst>) {
        if let Some(i) = i {
            if !self.set_live(i) {
                self.worklist.push_back(i);
            }
        }
    }

    /// `ProcessImpl`: `None` when ids ran out.
    fn process(&mut self, cx: &mut Context) -> Option<bool> {
        if !cx.has_capability(SHADER)
            || cx.has_capability(ADDRESSES)
            || cx.has_capability(VARIABLE_POINTERS_STORAGE_BUFFER)
            || !all_extensions_supported(cx)
        {
            return Some(false);
        }
        let mut modified = dead_functions::eliminate_dead_functions(cx);
        self.initialize_module_scope_live_instructions(cx)?;
        let funcs: Vec<Func> = cx.ir.functions().to_vec();
        for f in funcs {
            modified |= self.aggressive_dce(cx, f)?;
        }
        // spirv-opt empties the work list only while it processes a function: in a
        // module with no function body left, the module-scope instructions marked
        // live keep their operands (a constant's type) unmarked, and it writes a
        // module that does not read back. Any function processed leaves it empty.
        self.drain_module_scope(cx, true);
        cx.invalidate(Analyses::DECORATIONS);
        modified |= self.process_global_values(cx)?;
        for i in std::mem::take(&mut self.to_kill) {
            cx.kill_inst(i);
        }
        let funcs: Vec<Func> = cx.ir.functions().to_vec();
        for f in funcs {
            modified |= self.mem.cfg_cleanup(cx, f);
        }
        if cx.id_overflow {
            return None;
        }
        Some(modified)
    }

    /// `IsVarOfStorage`.
    fn is_var_of_storage(cx: &mut Context, var_id: u32, storage: u32) -> bool {
        if var_id == 0 {
            return false;
        }
        let Some(var) = cx.get_def(var_id) else {
            return false;
        };
        if cx.ir.opcode(var) != O::Variable {
            return false;
        }
        let ty = cx.ir.type_id(var);
        mem_pass::pointer_storage(cx, ty) == Some(storage)
    }

    /// `IsLocalVar`.
    fn is_local_var(&mut self, cx: &mut Context, var_id: u32, f: Func) -> bool {
        if Self::is_var_of_storage(cx, var_id, FUNCTION_STORAGE) {
            return true;
        }
        if !Self::is_var_of_storage(cx, var_id, PRIVATE)
            && !Self::is_var_of_storage(cx, var_id, WORKGROUP)
        {
            return false;
        }
        self.is_entry_point_with_no_calls(cx, f)
    }

    /// `IsEntryPointWithNoCalls`.
    fn is_entry_point_with_no_calls(&mut self, cx: &mut Context, f: Func) -> bool {
        let id = cx.ir.func_id(f);
        if let Some(&r) = self.entry_point_with_no_calls.get(&id) {
            return r;
        }
        let is_entry = cx
            .ir
            .section(Section::EntryPoint)
            .any(|e| cx.ir.data(e).in_word(1) == id);
        let r = is_entry && !has_call(cx, f);
        self.entry_point_with_no_calls.insert(id, r);
        r
    }

    /// `AddStores(func, ptrId)`, through chains and copies
    /// ([`mem_pass::walk_pointer_users`]).
    fn add_stores(&mut self, cx: &mut Context, f: Func, ptr_id: u32) {
        mem_pass::walk_pointer_users(cx, ptr_id, &mut |cx, user, ptr| {
            if let Some(b) = cx.ir.block_of(user) {
                if cx.ir.block_func(b) != Some(f) {
                    return Step::Next;
                }
            }
            match cx.ir.opcode(user) {
                O::AccessChain | O::InBoundsAccessChain | O::CopyObject => return Step::Descend,
                O::Load => {}
                O::CopyMemory | O::CopyMemorySized | O::Store => {
                    if cx.ir.data(user).in_word(0) == ptr {
                        self.add_to_worklist(Some(user));
                    }
                }
                _ => self.add_to_worklist(Some(user)),
            }
            Step::Next
        });
    }

    /// `ProcessLoad`.
    fn process_load(&mut self, cx: &mut Context, f: Func, var_id: u32) {
        if !self.is_local_var(cx, var_id, f) {
            return;
        }
        if self.live_local_vars.contains(&var_id) {
            return;
        }
        self.add_stores(cx, f, var_id);
        self.live_local_vars.insert(var_id);
    }

    /// `AddBreaksAndContinuesToWorklist`.
    fn add_breaks_and_continues_to_worklist(&mut self, cx: &mut Context, merge: Inst) {
        let header = cx.ir.block_of(merge);
        let merge_id = cx.ir.data(merge).in_word(0);
        for user in cx.users(merge_id) {
            if !is_branch(cx.ir.opcode(user)) {
                continue;
            }
            let block = cx.ir.block_of(user);
            if self.block_is_in_construct(cx, header, block) {
                self.add_to_worklist(Some(user));
                let user_merge = block.and_then(|b| cx.ir.merge_inst(b));
                if user_merge.is_some() {
                    self.add_to_worklist(user_merge);
                }
            }
        }
        if cx.ir.opcode(merge) != O::LoopMerge {
            return;
        }
        let cont_id = cx.ir.data(merge).in_word(1);
        for user in cx.users(cont_id) {
            match cx.ir.opcode(user) {
                O::BranchConditional | O::Switch => {
                    let hdr_merge = cx.ir.block_of(user).and_then(|b| cx.ir.merge_inst(b));
                    if let Some(hm) = hdr_merge {
                        if cx.ir.opcode(hm) == O::SelectionMerge {
                            if cx.ir.data(hm).in_word(0) == cont_id {
                                continue;
                            }
                            self.add_to_worklist(Some(hm));
                        }
                    }
                }
                O::Branch => {
                    let blk = cx.ir.block_of(user);
                    let Some(hdr_branch) = self.get_header_branch(cx, blk) else {
                        continue;
                    };
                    let Some(hdr_merge) =
                        cx.ir.block_of(hdr_branch).and_then(|b| cx.ir.merge_inst(b))
                    else {
                        // spirv-opt reads through a null merge here (a crash).
                        continue;
                    };
                    if cx.ir.opcode(hdr_merge) == O::LoopMerge {
                        continue;
                    }
                    if cx.ir.data(hdr_merge).in_word(0) == cont_id {
                        continue;
                    }
                }
                _ => continue,
            }
            self.add_to_worklist(Some(user));
        }
    }

    /// `AggressiveDCE` of one function: whether it changed; `None` when ids ran out.
    fn aggressive_dce(&mut self, cx: &mut Context, f: Func) -> Option<bool> {
        let Some(entry) = cx.ir.entry(f) else {
            return Some(false);
        };
        let order = {
            let (cfg, ir) = cx.cfg_ir();
            cfg.structured_order(ir, f, entry, None)
        };
        self.live_local_vars.clear();
        self.initialize_work_list(cx, f, &order);
        self.process_work_list(cx, f);
        self.process_debug_information(cx, &order)?;
        self.process_work_list(cx, f);
        self.kill_dead_instructions(cx, f, &order)
    }

    /// `ProcessDebugInformation`.
    fn process_debug_information(&mut self, cx: &mut Context, order: &[Block]) -> Option<()> {
        for &b in order {
            let insts: Vec<Inst> = cx.ir.insts(b).collect();
            for i in insts {
                if !cx.is_non_semantic_instruction(i) {
                    continue;
                }
                match cx.ir.shader_debug_opcode(i) {
                    Some(DEBUG_DECLARE) => self.add_to_worklist(Some(i)),
                    Some(DEBUG_VALUE) => {
                        let id = cx.ir.data(i).in_word(3);
                        let def = cx.get_def(id);
                        if self.is_live_opt(def) {
                            continue;
                        }
                        self.add_to_worklist(Some(i));
                        let ty = def.map_or(0, |d| cx.ir.type_id(d));
                        let undef = self.mem.type2undef(cx, ty);
                        if undef == 0 {
                            return None;
                        }
                        cx.ir.data_mut(i).set_in_operand(3, &[undef]);
                        cx.update_def_use(i);
                        let local = cx.get_def(cx.ir.data(i).in_word(2));
                        self.add_to_worklist(local);
                        if let Some(l) = local {
                            cx.update_def_use(l);
                            self.add_operands_to_work_list(cx, l);
                        }
                        let expr = cx.get_def(cx.ir.data(i).in_word(4));
                        self.add_to_worklist(expr);
                        if let Some(e) = expr {
                            cx.update_def_use(e);
                        }
                    }
                    _ => {}
                }
            }
        }
        Some(())
    }

    /// `KillDeadInstructions`: whether something was dead; `None` when ids ran out.
    fn kill_dead_instructions(
        &mut self,
        cx: &mut Context,
        f: Func,
        order: &[Block],
    ) -> Option<bool> {
        let mut modified = false;
        let mut k = 0;
        while k < order.len() {
            let b = order[k];
            let mut merge_block_id = 0;
            let insts: Vec<Inst> = cx.ir.insts(b).collect();
            for i in insts {
                if self.is_live(i) {
                    continue;
                }
                let op = cx.ir.opcode(i);
                if matches!(op, O::SelectionMerge | O::LoopMerge) {
                    merge_block_id = cx.ir.data(i).in_word(0);
                }
                self.to_kill.push(i);
                modified = true;
            }
            if merge_block_id != 0 {
                Builder::at_end(b, Analyses::DEF_USE).add_branch(cx, merge_block_id);
                k += 1;
                while k < order.len() && cx.ir.block_id(order[k]) != merge_block_id {
                    k += 1;
                }
                if k >= order.len() {
                    break;
                }
                let Some(term) = cx.ir.terminator(order[k]) else {
                    continue;
                };
                if cx.ir.opcode(term) == O::Unreachable {
                    let ret_ty = cx.ir.type_id(cx.ir.func_def(f));
                    let is_void = cx
                        .get_def(ret_ty)
                        .is_some_and(|t| cx.ir.opcode(t) == O::TypeVoid);
                    if is_void {
                        cx.ir.data_mut(term).set_opcode(O::Return);
                    } else {
                        let undef_id = self.mem.type2undef(cx, ret_ty);
                        if undef_id == 0 {
                            return None;
                        }
                        if let Some(u) = cx.get_def(undef_id) {
                            self.set_live(u);
                        }
                        cx.ir.data_mut(term).set_opcode(O::ReturnValue);
                        cx.ir
                            .data_mut(term)
                            .set_in_operands(&[Operand::id(undef_id)]);
                        cx.analyze_uses(term);
                    }
                    self.set_live(term);
                }
            } else {
                let term = cx.ir.terminator(b);
                if !self.is_live_opt(term) {
                    Builder::at_end(b, Analyses::INSTR_TO_BLOCK | Analyses::DEF_USE)
                        .add_unreachable(cx);
                }
                k += 1;
            }
        }
        Some(modified)
    }

    /// `ProcessWorkList` outside any function: the work list holds module-scope
    /// instructions only, which are in no block and load nothing. `decorations`:
    /// whether their `OpDecorateId`s are marked too (not once the decorations have
    /// been processed).
    fn drain_module_scope(&mut self, cx: &mut Context, decorations: bool) {
        while let Some(i) = self.worklist.pop_front() {
            self.add_operands_to_work_list(cx, i);
            if decorations {
                self.add_decorations_to_work_list(cx, i);
            }
            self.add_debug_instructions_to_work_list(cx, i);
        }
    }

    /// `ProcessWorkList`.
    fn process_work_list(&mut self, cx: &mut Context, f: Func) {
        while let Some(i) = self.worklist.pop_front() {
            self.add_operands_to_work_list(cx, i);
            self.mark_block_as_live(cx, i);
            self.mark_loaded_variables_as_live(cx, f, i);
            self.add_decorations_to_work_list(cx, i);
            self.add_debug_instructions_to_work_list(cx, i);
        }
    }

    /// `AddDebugScopeToWorkList`.
    fn add_debug_scope_to_work_list(&mut self, cx: &mut Context, i: Inst) {
        let scope = cx.ir.scope(i);
        if scope.lexical_scope != 0 {
            let d = cx.get_def(scope.lexical_scope);
            self.add_to_worklist(d);
        }
        if scope.inlined_at != 0 {
            let d = cx.get_def(scope.inlined_at);
            self.add_to_worklist(d);
        }
    }

    /// `AddDebugInstructionsToWorkList`.
    fn add_debug_instructions_to_work_list(&mut self, cx: &mut Context, i: Inst) {
        let lines = cx.ir.lines(i).to_vec();
        for l in lines {
            if cx.ir.is_debug_line_inst(l) {
                self.add_operands_to_work_list(cx, l);
            }
            self.add_debug_scope_to_work_list(cx, l);
        }
        self.add_debug_scope_to_work_list(cx, i);
    }

    /// `AddDecorationsToWorkList`: the `OpDecorateId`s of `i`'s result but
    /// `HlslCounterBufferGOOGLE`.
    fn add_decorations_to_work_list(&mut self, cx: &mut Context, i: Inst) {
        let id = cx.ir.result_id(i);
        if id == 0 {
            return;
        }
        for dec in cx.decorations_for(id, false) {
            if cx.ir.opcode(dec) != O::DecorateId {
                continue;
            }
            if cx.ir.data(dec).in_word(1) == HLSL_COUNTER_BUFFER {
                continue;
            }
            self.add_to_worklist(Some(dec));
        }
    }

    /// `MarkLoadedVariablesAsLive`.
    fn mark_loaded_variables_as_live(&mut self, cx: &mut Context, f: Func, i: Inst) {
        for var in get_loaded_variables(cx, i) {
            self.process_load(cx, f, var);
        }
    }

    /// `MarkBlockAsLive`.
    fn mark_block_as_live(&mut self, cx: &mut Context, i: Inst) {
        let Some(b) = cx.ir.block_of(i) else {
            return;
        };
        self.add_to_worklist(Some(cx.ir.label(b)));
        match cx.ir.merge_block_id(b) {
            None => {
                let t = cx.ir.terminator(b);
                self.add_to_worklist(t);
            }
            Some(m) => {
                let d = cx.get_def(m);
                self.add_to_worklist(d);
            }
        }
        if cx.ir.opcode(i) != O::Label {
            self.mark_loop_construct_as_live_if_loop_header(cx, b);
        }
        if let Some(next_branch) = self.get_branch_for_next_header(cx, Some(b)) {
            self.add_to_worklist(Some(next_branch));
            let merge = cx
                .ir
                .block_of(next_branch)
                .and_then(|h| cx.ir.merge_inst(h));
            self.add_to_worklist(merge);
        }
        if matches!(cx.ir.opcode(i), O::LoopMerge | O::SelectionMerge) {
            self.add_breaks_and_continues_to_worklist(cx, i);
        }
    }

    /// `MarkLoopConstructAsLiveIfLoopHeader`.
    fn mark_loop_construct_as_live_if_loop_header(&mut self, cx: &mut Context, b: Block) {
        if let Some(m) = cx.ir.loop_merge_inst(b) {
            let t = cx.ir.terminator(b);
            self.add_to_worklist(t);
            self.add_to_worklist(Some(m));
        }
    }

    /// `AddOperandsToWorkList`.
    fn add_operands_to_work_list(&mut self, cx: &mut Context, i: Inst) {
        let mut ids: Vec<u32> = Vec::new();
        cx.ir.data(i).for_each_in_id(|id| ids.push(id));
        for id in ids {
            let d = cx.get_def(id);
            self.add_to_worklist(d);
        }
        let ty = cx.ir.type_id(i);
        if ty != 0 {
            let d = cx.get_def(ty);
            self.add_to_worklist(d);
        }
    }

    /// `InitializeWorkList`.
    fn initialize_work_list(&mut self, cx: &mut Context, f: Func, order: &[Block]) {
        self.add_to_worklist(Some(cx.ir.func_def(f)));
        let params: Vec<Inst> = cx.ir.params(f).collect();
        for p in params {
            self.add_to_worklist(Some(p));
        }
        if let Some(entry) = cx.ir.entry(f) {
            let label = cx.ir.label(entry);
            self.mark_block_as_live(cx, label);
        }
        for &b in order {
            let insts: Vec<Inst> = cx.ir.insts(b).collect();
            for i in insts {
                let op = cx.ir.opcode(i);
                if is_branch(op) {
                    continue;
                }
                match op {
                    O::Store => {
                        let (_, var_id) = mem_pass::get_ptr_of(cx, i);
                        if !self.is_local_var(cx, var_id, f) {
                            self.add_to_worklist(Some(i));
                        }
                    }
                    O::CopyMemory | O::CopyMemorySized => {
                        let target = cx.ir.data(i).in_word(0);
                        let (_, var_id) = mem_pass::get_ptr(cx, target);
                        if !self.is_local_var(cx, var_id, f) {
                            self.add_to_worklist(Some(i));
                        }
                    }
                    O::LoopMerge | O::SelectionMerge | O::Unreachable => {}
                    _ => {
                        if !is_opcode_safe_to_delete(cx, i) {
                            self.add_to_worklist(Some(i));
                        }
                    }
                }
            }
        }
    }

    /// `InitializeModuleScopeLiveInstructions`: `None` when a `DebugInfoNone` could
    /// not be made.
    fn initialize_module_scope_live_instructions(&mut self, cx: &mut Context) -> Option<()> {
        let modes: Vec<Inst> = cx.ir.section(Section::ExecutionMode).collect();
        for m in modes {
            self.add_to_worklist(Some(m));
        }
        let entries: Vec<Inst> = cx.ir.section(Section::EntryPoint).collect();
        for e in entries {
            if !self.preserve_interface {
                self.set_live(e);
                let func = cx.get_def(cx.ir.data(e).in_word(1));
                self.add_to_worklist(func);
                let n = cx.ir.data(e).num_in_operands();
                for k in 3..n {
                    let Some(var) = cx.get_def(cx.ir.data(e).in_word(k)) else {
                        continue;
                    };
                    let storage = cx.ir.data(var).in_word(0);
                    if !self.remove_outputs && storage == OUTPUT {
                        self.add_to_worklist(Some(var));
                    }
                }
            } else {
                self.add_to_worklist(Some(e));
            }
        }
        let annotations: Vec<Inst> = cx.ir.section(Section::Annotation).collect();
        for a in annotations {
            if cx.ir.opcode(a) != O::Decorate {
                continue;
            }
            let d = cx.ir.data(a);
            let dec = d.in_word(1);
            if dec == BUILT_IN && d.in_word(2) == WORKGROUP_SIZE {
                self.add_to_worklist(Some(a));
            }
            if cx.options.preserve_bindings && (dec == DESCRIPTOR_SET || dec == BINDING) {
                self.add_to_worklist(Some(a));
            }
            if cx.options.preserve_spec_constants && dec == SPEC_ID {
                self.add_to_worklist(Some(a));
            }
        }
        let debug: Vec<Inst> = cx.ir.section(Section::ExtInstDebugInfo).collect();
        let mut debug_global_seen = false;
        for &g in &debug {
            if cx.common_debug_opcode(g) != Some(DEBUG_GLOBAL_VARIABLE) {
                continue;
            }
            debug_global_seen = true;
            let mut ids: Vec<u32> = Vec::new();
            cx.ir.data(g).for_each_in_id(|id| ids.push(id));
            for id in ids {
                let d = cx.get_def(id);
                if d.is_some_and(|d| cx.ir.opcode(d) == O::Variable) {
                    continue;
                }
                self.add_to_worklist(d);
            }
        }
        if debug_global_seen {
            let none = cx.debug_info_none()?;
            self.add_to_worklist(Some(none));
        }
        for &g in &debug {
            if matches!(
                cx.ir.shader_debug_opcode(g),
                Some(
                    DEBUG_COMPILATION_UNIT
                        | DEBUG_ENTRY_POINT
                        | DEBUG_SOURCE
                        | DEBUG_SOURCE_CONTINUED
                )
            ) {
                self.add_to_worklist(Some(g));
            }
        }
        Some(())
    }

    /// `IsTargetDead`: whether the target of the name or annotation `i` is dead (a
    /// decoration group: when no group decoration uses it).
    fn is_target_dead(&self, cx: &mut Context, i: Inst) -> bool {
        let t = cx.ir.data(i).in_word(0);
        let Some(ti) = cx.get_def(t) else {
            return true;
        };
        if is_annotation(cx.ir.opcode(ti)) {
            let users = cx.users(t);
            return !users
                .iter()
                .any(|&u| matches!(cx.ir.opcode(u), O::GroupDecorate | O::GroupMemberDecorate));
        }
        !self.is_live(ti)
    }

    /// `ProcessGlobalValues`: removes dead names and decorations, queues the dead
    /// debug-info instructions and global values, and prunes the entry points'
    /// interfaces. `None` when a `DebugInfoNone` could not be made.
    fn process_global_values(&mut self, cx: &mut Context) -> Option<bool> {
        let mut modified = false;
        let mut cur = cx.ir.section_first(Section::Debug2);
        while let Some(i) = cur {
            if cx.ir.opcode(i) != O::Name {
                cur = cx.ir.next(i);
                continue;
            }
            if self.is_target_dead(cx, i) {
                cur = cx.kill_inst(i);
                modified = true;
            } else {
                cur = cx.ir.next(i);
            }
        }
        let mut annotations: Vec<Inst> = cx.ir.section(Section::Annotation).collect();
        annotations.sort_by_key(|&a| (decoration_rank(cx.ir.opcode(a)), cx.ir.uid(a)));
        // Whether a decoration group is dead, once per group: the group decorations
        // come first in this order, and once they are done, killing the group's own
        // decorations changes no answer (asking again for each of a group's
        // decorations copied its users each time).
        let mut groups: HashMap<u32, bool> = HashMap::new();
        let mut target_dead = |this: &Self, cx: &mut Context, a: Inst| {
            let t = cx.ir.data(a).in_word(0);
            if let Some(&dead) = groups.get(&t) {
                return dead;
            }
            let dead = this.is_target_dead(cx, a);
            if cx
                .get_def(t)
                .is_some_and(|ti| cx.ir.opcode(ti) == O::DecorationGroup)
            {
                groups.insert(t, dead);
            }
            dead
        };
        for a in annotations {
            match cx.ir.opcode(a) {
                O::Decorate | O::MemberDecorate | O::DecorateString | O::MemberDecorateString
                    if target_dead(self, cx, a) =>
                {
                    cx.kill_inst(a);
                    modified = true;
                }
                O::DecorateId => {
                    if target_dead(self, cx, a) {
                        cx.kill_inst(a);
                        modified = true;
                    } else if cx.ir.data(a).in_word(1) == HLSL_COUNTER_BUFFER {
                        let counter = cx.get_def(cx.ir.data(a).in_word(2));
                        if !self.is_live_opt(counter) {
                            cx.kill_inst(a);
                            modified = true;
                        }
                    }
                }
                O::GroupDecorate | O::GroupMemberDecorate => {
                    let step = if cx.ir.opcode(a) == O::GroupDecorate {
                        1
                    } else {
                        2
                    };
                    // The live targets (with their members) kept in one rewrite:
                    // removing dead ones one by one rebuilt the instruction each
                    // time, quadratic in a group decoration's targets.
                    let ops = cx.ir.data(a).operands();
                    let mut kept = ops[..1.min(ops.len())].to_vec();
                    let mut k = 1;
                    while k < ops.len() {
                        let target = cx.get_def(ops[k].words.first().copied().unwrap_or(0));
                        if self.is_live_opt(target) {
                            kept.extend_from_slice(&ops[k..(k + step).min(ops.len())]);
                        }
                        k += step;
                    }
                    if kept.len() <= 1 {
                        cx.kill_inst(a);
                        modified = true;
                    } else if kept.len() < ops.len() {
                        cx.ir.data_mut(a).replace_operands(&kept);
                        cx.update_def_use(a);
                        modified = true;
                    }
                }
                O::DecorationGroup => {
                    let id = cx.ir.result_id(a);
                    if !cx.any_user(id, |_, _| true) {
                        cx.kill_inst(a);
                        modified = true;
                    }
                }
                _ => {}
            }
        }
        let debug: Vec<Inst> = cx.ir.section(Section::ExtInstDebugInfo).collect();
        for g in debug {
            if self.is_live(g) {
                continue;
            }
            if cx.common_debug_opcode(g) == Some(DEBUG_GLOBAL_VARIABLE) {
                // spirv-opt reads operand 12 (the flags) as the variable.
                let var_id = cx.ir.data(g).word(12);
                let var = cx.get_def(var_id);
                if self.is_live_opt(var) {
                    continue;
                }
                cx.forget_uses(g);
                let none = cx.debug_info_none()?;
                let none_id = cx.ir.result_id(none);
                cx.ir.data_mut(g).set_operand(12, &[none_id]);
                cx.analyze_uses(g);
                continue;
            }
            if cx.ir.shader_debug_opcode(g) == Some(DEBUG_BUILD_IDENTIFIER) {
                let mut ids: Vec<u32> = Vec::new();
                cx.ir.data(g).for_each_in_id(|id| ids.push(id));
                // spirv-opt marks them live but not what they need in turn (a
                // constant's type); those are live already in a valid module.
                for id in ids {
                    let d = cx.get_def(id);
                    self.add_to_worklist(d);
                }
                self.drain_module_scope(cx, false);
                continue;
            }
            self.to_kill.push(g);
            modified = true;
        }
        let values: Vec<Inst> = cx.ir.section(Section::TypesValues).collect();
        for v in values {
            if self.is_live(v) {
                continue;
            }
            if cx.ir.opcode(v) == O::TypeForwardPointer {
                let ptr = cx.get_def(cx.ir.data(v).in_word(0));
                if self.is_live_opt(ptr) {
                    continue;
                }
            }
            self.to_kill.push(v);
            modified = true;
        }
        if !self.preserve_interface {
            let entries: Vec<Inst> = cx.ir.section(Section::EntryPoint).collect();
            for e in entries {
                let d = cx.ir.data(e).clone();
                let n = d.num_in_operands();
                let mut keep: Vec<Operand> = Vec::with_capacity(n);
                for k in 0..n {
                    let op = d.operand(d.type_result_count() + k);
                    if k < 3 {
                        keep.push(op);
                    } else {
                        let var = cx.get_def(d.in_word(k));
                        if self.is_live_opt(var) {
                            keep.push(op);
                        }
                    }
                }
                if keep.len() != n {
                    cx.ir.data_mut(e).set_in_operands(&keep);
                    cx.update_def_use(e);
                }
            }
        }
        Some(modified)
    }

    /// `GetHeaderBlock`: the block itself for a loop header, else the header of the
    /// innermost construct holding it.
    fn get_header_block(&self, cx: &mut Context, b: Option<Block>) -> Option<Block> {
        let b = b?;
        if cx.ir.loop_merge_inst(b).is_some() {
            return Some(b);
        }
        let id = cx.ir.block_id(b);
        let header = cx.struct_cfg().containing_construct(id);
        cx.block_of_id(header)
    }

    /// `GetHeaderBranch`.
    fn get_header_branch(&self, cx: &mut Context, b: Option<Block>) -> Option<Inst> {
        let h = self.get_header_block(cx, b)?;
        cx.ir.terminator(h)
    }

    /// `GetBranchForNextHeader`.
    fn get_branch_for_next_header(&self, cx: &mut Context, b: Option<Block>) -> Option<Inst> {
        let mut b = b?;
        if cx.ir.loop_merge_inst(b).is_some() {
            let id = cx.ir.block_id(b);
            let header = cx.struct_cfg().containing_construct(id);
            b = cx.block_of_id(header)?;
        }
        self.get_header_branch(cx, Some(b))
    }

    /// `BlockIsInConstruct`.
    fn block_is_in_construct(
        &self,
        cx: &mut Context,
        header: Option<Block>,
        bb: Option<Block>,
    ) -> bool {
        let (Some(header), Some(bb)) = (header, bb) else {
            return false;
        };
        let header_id = cx.ir.block_id(header);
        let mut current = cx.ir.block_id(bb);
        while current != 0 {
            if current == header_id {
                return true;
            }
            current = cx.struct_cfg().containing_construct(current);
        }
        false
    }
}

/// `AllExtensionsSupported`.
fn all_extensions_supported(cx: &Context) -> bool {
    for e in cx.ir.section(Section::Extension) {
        let d = cx.ir.data(e);
        // `GetInOperand(0).AsString()`.
        let name = d.string(d.type_result_count());
        if !EXTENSIONS.contains(&name.as_str()) {
            return false;
        }
    }
    for i in cx.ir.section(Section::ExtInstImport) {
        let name = cx.ir.data(i).string(1);
        if name.starts_with("NonSemantic.")
            && name != "NonSemantic.Shader.DebugInfo.100"
            && name != "NonSemantic.DebugPrintf"
        {
            return false;
        }
    }
    true
}

/// `HasCall`.
fn has_call(cx: &Context, f: Func) -> bool {
    let mut found = false;
    cx.ir.func_insts(f, false, &mut |i| {
        found |= cx.ir.opcode(i) == O::FunctionCall;
    });
    found
}

/// `spvOpcodeIsBranch`.
fn is_branch(op: O) -> bool {
    matches!(op, O::Branch | O::BranchConditional | O::Switch)
}

/// `IsAnnotationInst`.
fn is_annotation(op: O) -> bool {
    matches!(
        op,
        O::Decorate
            | O::MemberDecorate
            | O::DecorationGroup
            | O::GroupDecorate
            | O::GroupMemberDecorate
            | O::DecorateId
            | O::DecorateString
            | O::MemberDecorateString
    )
}

/// `DecorationLess`'s order of opcodes (others after all of them).
fn decoration_rank(op: O) -> u32 {
    match op {
        O::GroupDecorate => 0,
        O::GroupMemberDecorate => 1,
        O::Decorate => 2,
        O::MemberDecorate => 3,
        O::DecorateId => 4,
        O::DecorateString => 5,
        O::DecorationGroup => 6,
        _ => 7,
    }
}

/// `spvOpcodeIsAtomicWithLoad`.
fn is_atomic_with_load(op: O) -> bool {
    matches!(
        op,
        O::AtomicLoad
            | O::AtomicExchange
            | O::AtomicCompareExchange
            | O::AtomicCompareExchangeWeak
            | O::AtomicIIncrement
            | O::AtomicIDecrement
            | O::AtomicIAdd
            | O::AtomicFAddEXT
            | O::AtomicISub
            | O::AtomicSMin
            | O::AtomicUMin
            | O::AtomicFMinEXT
            | O::AtomicSMax
            | O::AtomicUMax
            | O::AtomicFMaxEXT
            | O::AtomicAnd
            | O::AtomicOr
            | O::AtomicXor
            | O::AtomicFlagTestAndSet
    )
}

/// `IsOpcodeSafeToDelete`.
fn is_opcode_safe_to_delete(cx: &mut Context, i: Inst) -> bool {
    if cx.is_combinator(i) {
        return true;
    }
    if cx.is_non_semantic_instruction(i)
        && matches!(
            cx.ir.shader_debug_opcode(i),
            Some(DEBUG_DECLARE | DEBUG_VALUE)
        )
    {
        return true;
    }
    matches!(
        cx.ir.opcode(i),
        O::DPdx
            | O::DPdy
            | O::Fwidth
            | O::DPdxFine
            | O::DPdyFine
            | O::FwidthFine
            | O::DPdxCoarse
            | O::DPdyCoarse
            | O::FwidthCoarse
            | O::ImageQueryLod
    )
}

/// `GetVariableId`.
fn get_variable_id(cx: &mut Context, ptr_id: u32) -> u32 {
    mem_pass::get_ptr(cx, ptr_id).1
}

/// `GetLoadedVariables`.
fn get_loaded_variables(cx: &mut Context, i: Inst) -> Vec<u32> {
    if cx.ir.opcode(i) == O::FunctionCall {
        let mut ids: Vec<u32> = Vec::new();
        cx.ir.data(i).for_each_in_id(|id| ids.push(id));
        let mut out = Vec::new();
        for id in ids {
            if mem_pass::is_ptr(cx, id) {
                out.push(get_variable_id(cx, id));
            }
        }
        return out;
    }
    let v = get_loaded_variable_from_non_function_calls(cx, i);
    if v == 0 { Vec::new() } else { vec![v] }
}

/// `GetLoadedVariableFromNonFunctionCalls`.
fn get_loaded_variable_from_non_function_calls(cx: &mut Context, i: Inst) -> u32 {
    let op = cx.ir.opcode(i);
    if is_atomic_with_load(op) {
        let p = cx.ir.data(i).in_word(0);
        return get_variable_id(cx, p);
    }
    match op {
        O::Load | O::ImageTexelPointer => {
            let p = cx.ir.data(i).in_word(0);
            return get_variable_id(cx, p);
        }
        O::CopyMemory | O::CopyMemorySized => {
            let p = cx.ir.data(i).in_word(1);
            return get_variable_id(cx, p);
        }
        O::ExtInst => {
            let glsl = cx.features().glsl_std_450;
            let d = cx.ir.data(i);
            if d.in_word(0) == glsl
                && (INTERPOLATE_AT_CENTROID..=INTERPOLATE_AT_OFFSET).contains(&d.in_word(1))
            {
                return d.in_word(2);
            }
        }
        O::CooperativeMatrixLoadNV
        | O::CooperativeMatrixLoadKHR
        | O::CooperativeMatrixLoadTensorNV => {
            let p = cx.ir.data(i).in_word(0);
            return get_variable_id(cx, p);
        }
        _ => {}
    }
    match cx.common_debug_opcode(i) {
        Some(DEBUG_DECLARE) => cx.ir.data(i).word(5),
        Some(DEBUG_VALUE) => cx.variable_id_of_debug_value_used_for_declare(i),
        _ => 0,
    }
}
