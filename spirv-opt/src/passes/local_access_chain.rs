//! `--convert-local-access-chains` (spirv-opt's `LocalAccessChainConvertPass`,
//! `source/opt/local_access_chain_convert_pass.cpp`): for a function-scope variable
//! of a target type whose every load and store goes straight to it or through one
//! access chain of in-bounds 32-bit `OpConstant` indexes, a load through such a chain
//! becomes a load of the whole variable and an `OpCompositeExtract`, and a store
//! through one becomes a load of the whole, an `OpCompositeInsert` and a store of the
//! whole.

use crate::analysis::Analyses;
use crate::analysis::types::{Ty, TypeRef};
use crate::context::Context;
use crate::ir::{Block, Func, Inst, Operand, Section};
use crate::mem_pass::{self, MemPass};
use crate::pass::{IrPass, PassError, Status};
use crate::passes::local_single_block::all_extensions_supported;
use spirv_core::spv::Opcode as O;
use std::collections::HashSet;

/// The pass's flag.
pub const FLAG: &str = "convert-local-access-chains";

/// `--convert-local-access-chains`.
#[derive(Debug, Clone, Copy, Default)]
pub struct LocalAccessChainConvert;

const VARIABLE_POINTERS: u32 = 4442;
const RELAXED_PRECISION: u32 = 0;

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
    "SPV_KHR_quad_control",
    "SPV_NV_shader_invocation_reorder",
    "SPV_NV_cluster_acceleration_structure",
    "SPV_NV_linear_swept_spheres",
    "SPV_KHR_maximal_reconvergence",
];

impl IrPass for LocalAccessChainConvert {
    fn flag(&self) -> &'static str {
        FLAG
    }

    fn preserved(&self) -> Analyses {
        Analyses::DEF_USE | Analyses::CONSTANTS | Analyses::TYPES
    }

    fn process(&self, cx: &mut Context) -> Result<Status, PassError> {
        if cx
            .ir
            .section(Section::Annotation)
            .any(|a| cx.ir.opcode(a) == O::GroupDecorate)
            || cx.has_capability(VARIABLE_POINTERS)
            || !all_extensions_supported(cx, EXTENSIONS)
        {
            return Ok(Status::Unchanged);
        }
        let mut s = State::default();
        let mut modified = false;
        let funcs: Vec<Func> = cx.ir.functions().to_vec();
        for f in funcs {
            modified |= s.convert(cx, f).ok_or_else(|| PassError {
                pass: FLAG,
                message: "ids ran out".into(),
            })?;
        }
        Ok(if modified {
            Status::Changed
        } else {
            Status::Unchanged
        })
    }
}

/// The pass's state over a run.
#[derive(Default)]
struct State {
    mem: MemPass,
    supported_ref_ptrs: HashSet<u32>,
}

/// An `OpConstant`'s sign-extended value (`GetSignExtendedValue`), `None` for any other
/// definition or a non-integer type.
fn signed_value(cx: &mut Context, id: u32) -> Option<i64> {
    let def = cx.get_def(id)?;
    if cx.ir.opcode(def) != O::Constant {
        return None;
    }
    let width = int_width(cx, cx.ir.type_id(def))?;
    let w = cx.ir.data(def).in_operand_words(0);
    let lo = w.first().copied().unwrap_or(0);
    Some(if width <= 32 {
        i64::from(lo as i32)
    } else {
        (u64::from(lo) | (u64::from(w.get(1).copied().unwrap_or(0)) << 32)) as i64
    })
}

/// The width of integer type `ty`.
fn int_width(cx: &mut Context, ty: u32) -> Option<u32> {
    let types = cx.types();
    let t = types.get(ty)?;
    match types.ty(t) {
        Ty::Int { width, .. } => Some(*width),
        _ => None,
    }
}

/// `Is32BitConstantIndexAccessChain`: every id operand after the first is an
/// `OpConstant` in `0..=u32::MAX`.
fn is_32bit_constant_index_chain(cx: &mut Context, acp: Inst) -> bool {
    let mut ids: Vec<u32> = Vec::new();
    cx.ir.data(acp).for_each_in_id(|id| ids.push(id));
    ids.into_iter()
        .skip(1)
        .all(|id| signed_value(cx, id).is_some_and(|v| (0..=i64::from(u32::MAX)).contains(&v)))
}

/// `Type::NumberOfComponents`.
fn number_of_components(cx: &mut Context, t: TypeRef) -> u64 {
    match cx.types().ty(t) {
        Ty::Vector { count, .. } => u64::from(*count),
        Ty::Matrix { count, .. } => u64::from(*count),
        Ty::Array { length, .. } => {
            if length.first() != Some(&1) {
                return u64::MAX;
            }
            let lo = u64::from(length.get(1).copied().unwrap_or(0));
            let hi = u64::from(length.get(2).copied().unwrap_or(0));
            lo | (hi << 32)
        }
        Ty::RuntimeArray(_) => u64::MAX,
        Ty::Struct { members, .. } => members.len() as u64,
        _ => 0,
    }
}

/// `AnyIndexIsOutOfBounds`: a constant index (of any kind the constant manager knows)
/// past its type's component count.
fn any_index_out_of_bounds(cx: &mut Context, ac: Inst) -> bool {
    let base_id = cx.ir.data(ac).in_word(0);
    let Some(base) = cx.get_def(base_id) else {
        return false;
    };
    let ptr_ty = cx.ir.type_id(base);
    let mut current = {
        let types = cx.types();
        match types.get(ptr_ty).map(|t| types.ty(t)) {
            Some(Ty::Pointer {
                pointee: Some(p), ..
            }) => *p,
            _ => return false,
        }
    };
    let n = cx.ir.data(ac).num_in_operands();
    for k in 1..n {
        let id = cx.ir.data(ac).in_word(k);
        let found = cx.constants().find_declared(id);
        let value = found.map(|c| zero_extended(cx, c));
        if let Some(v) = value {
            if v >= number_of_components(cx, current) {
                return true;
            }
        }
        let index = value.unwrap_or(0) as u32;
        if let Some(m) = cx.types().member_type(current, index) {
            current = m;
        }
    }
    false
}

/// `GetZeroExtendedValue` of a pooled constant (0 for a null or a non-integer).
fn zero_extended(cx: &mut Context, c: crate::analysis::constants::ConstRef) -> u64 {
    use crate::analysis::constants::Const;
    match cx.constants().value(c).clone() {
        Const::Scalar(t, words) => {
            let wide = matches!(cx.types().ty(t), Ty::Int { width, .. } if *width > 32);
            let lo = u64::from(words.first().copied().unwrap_or(0));
            if wide {
                lo | (u64::from(words.get(1).copied().unwrap_or(0)) << 32)
            } else {
                lo
            }
        }
        _ => 0,
    }
}

/// `AppendConstantOperands`: the chain's indexes as literals.
fn constant_operands(cx: &mut Context, chain: Inst) -> Vec<Operand> {
    let mut ids: Vec<u32> = Vec::new();
    cx.ir.data(chain).for_each_in_id(|id| ids.push(id));
    ids.into_iter()
        .skip(1)
        .map(|id| Operand::literal(signed_value(cx, id).unwrap_or(0) as u32))
        .collect()
}

/// `GetPointeeTypeId` of the variable defining `var_id`.
fn pointee_type_id(cx: &mut Context, var_id: u32) -> u32 {
    let Some(var) = cx.get_def(var_id) else {
        return 0;
    };
    let ty = cx.ir.type_id(var);
    cx.get_def(ty).map_or(0, |t| cx.ir.data(t).in_word(1))
}

impl State {
    /// `HasOnlySupportedRefs`: every use of `ptr_id`, through access chains and
    /// copies, is a load, a store, a name, a decoration or debug information. On a
    /// stack; each pointer found good is remembered.
    fn has_only_supported_refs(&mut self, cx: &mut Context, ptr_id: u32) -> bool {
        if self.supported_ref_ptrs.contains(&ptr_id) {
            return true;
        }
        let mut stack = vec![ptr_id];
        let mut seen: Vec<u32> = Vec::new();
        // The pointers queued; only a cycle of chains or copies (invalid SSA) queues
        // one twice.
        let mut queued: HashSet<u32> = HashSet::from([ptr_id]);
        while let Some(p) = stack.pop() {
            if self.supported_ref_ptrs.contains(&p) {
                continue;
            }
            seen.push(p);
            for user in cx.users(p) {
                if matches!(cx.common_debug_opcode(user), Some(28 | 29)) {
                    continue;
                }
                let op = cx.ir.opcode(user);
                if mem_pass::is_non_ptr_access_chain(op) || op == O::CopyObject {
                    let rid = cx.ir.result_id(user);
                    if queued.insert(rid) {
                        stack.push(rid);
                    }
                } else if op != O::Store
                    && op != O::Load
                    && op != O::Name
                    && !mem_pass::is_non_type_decorate(op)
                {
                    return false;
                }
            }
        }
        self.supported_ref_ptrs.extend(seen);
        true
    }

    /// Marks `var_id` as not a target.
    fn reject(&mut self, var_id: u32) {
        self.mem.seen_non_target_vars.insert(var_id);
        self.mem.seen_target_vars.remove(&var_id);
    }

    /// `FindTargetVars`.
    fn find_target_vars(&mut self, cx: &mut Context, f: Func) {
        let blocks: Vec<Block> = cx.ir.blocks(f).collect();
        for b in blocks {
            let insts: Vec<Inst> = cx.ir.insts(b).collect();
            for i in insts {
                if !matches!(cx.ir.opcode(i), O::Store | O::Load) {
                    continue;
                }
                let (ptr, var_id) = mem_pass::get_ptr_of(cx, i);
                if !self.mem.is_target_var(cx, var_id) {
                    continue;
                }
                let Some(ptr) = ptr else { continue };
                if !self.has_only_supported_refs(cx, var_id) {
                    self.reject(var_id);
                    continue;
                }
                let chain = mem_pass::is_non_ptr_access_chain(cx.ir.opcode(ptr));
                if chain && cx.ir.data(ptr).in_word(0) != var_id {
                    self.reject(var_id);
                    continue;
                }
                if !is_32bit_constant_index_chain(cx, ptr) {
                    self.reject(var_id);
                    continue;
                }
                if chain && any_index_out_of_bounds(cx, ptr) {
                    self.reject(var_id);
                }
            }
        }
    }

    /// `ConvertLocalAccessChains` of one function; `None` when ids ran out.
    fn convert(&mut self, cx: &mut Context, f: Func) -> Option<bool> {
        self.find_target_vars(cx, f);
        let mut modified = false;
        let blocks: Vec<Block> = cx.ir.blocks(f).collect();
        for b in blocks {
            let mut dead: Vec<Inst> = Vec::new();
            let insts: Vec<Inst> = cx.ir.insts(b).collect();
            for i in insts {
                let op = cx.ir.opcode(i);
                if !matches!(op, O::Load | O::Store) {
                    continue;
                }
                let (ptr, var_id) = mem_pass::get_ptr_of(cx, i);
                let Some(ptr) = ptr else { continue };
                if !mem_pass::is_non_ptr_access_chain(cx.ir.opcode(ptr))
                    || !self.mem.is_target_var(cx, var_id)
                {
                    continue;
                }
                if op == O::Load {
                    replace_access_chain_load(cx, ptr, i)?;
                } else {
                    let value = cx.ir.data(i).in_word(1);
                    let new = store_replacement(cx, ptr, value)?;
                    dead.push(i);
                    let mut at = i;
                    for n in new {
                        cx.ir.insert_after(at, n);
                        at = n;
                    }
                    let mut cur = cx.ir.next(i);
                    while let Some(n) = cur {
                        cx.update_debug_info_from(n, i, None)?;
                        cx.debug_info();
                        if n == at {
                            break;
                        }
                        cur = cx.ir.next(n);
                    }
                }
                modified = true;
            }
            // Killed along the way by an earlier one's clean-up: not killed again (a set,
            // as dropping each from the list was quadratic in the stores of a block).
            let mut gone: HashSet<Inst> = HashSet::new();
            while let Some(d) = dead.pop() {
                if gone.contains(&d) {
                    continue;
                }
                mem_pass::dce_inst(cx, d, &mut |_, other| {
                    gone.insert(other);
                });
            }
        }
        Some(modified)
    }
}

/// `ReplaceAccessChainLoad`: `None` when ids ran out.
fn replace_access_chain_load(cx: &mut Context, chain: Inst, load: Inst) -> Option<()> {
    let base = cx.ir.data(chain).in_word(0);
    if cx.ir.data(chain).num_in_operands() == 1 {
        let cid = cx.ir.result_id(chain);
        cx.replace_all_uses_with(cid, base);
        return Some(());
    }
    let ld_id = cx.take_next_id()?;
    let pointee = pointee_type_id(cx, base);
    let ld = cx.make(O::Load, pointee, ld_id, &[Operand::id(base)]);
    cx.analyze_def_use(ld);
    cx.update_debug_info_from(ld, load, None)?;
    let load_id = cx.ir.result_id(load);
    cx.clone_decorations(load_id, ld_id, Some(&[RELAXED_PRECISION]));
    cx.ir.insert_before(load, ld);
    cx.debug_info();
    let (ty, rid) = (cx.ir.type_id(load), load_id);
    let mut ops = vec![Operand::id(ld_id)];
    ops.extend(constant_operands(cx, chain));
    cx.forget_uses(load);
    let d = cx.ir.data_mut(load);
    d.set_opcode(O::CompositeExtract);
    d.set_type_id(ty);
    d.set_result_id(rid);
    d.set_in_operands(&ops);
    cx.update_def_use(load);
    Some(())
}

/// `GenAccessChainStoreReplacement`: the instructions that replace a store of `value`
/// through `chain`; `None` when ids ran out.
fn store_replacement(cx: &mut Context, chain: Inst, value: u32) -> Option<Vec<Inst>> {
    let base = cx.ir.data(chain).in_word(0);
    if cx.ir.data(chain).num_in_operands() == 1 {
        let s = cx.make(O::Store, 0, 0, &[Operand::id(base), Operand::id(value)]);
        cx.analyze_def_use(s);
        return Some(vec![s]);
    }
    let ld_id = cx.take_next_id()?;
    let pointee = pointee_type_id(cx, base);
    let ld = cx.make(O::Load, pointee, ld_id, &[Operand::id(base)]);
    cx.analyze_def_use(ld);
    cx.clone_decorations(base, ld_id, Some(&[RELAXED_PRECISION]));
    let ins_id = cx.take_next_id()?;
    let mut ops = vec![Operand::id(value), Operand::id(ld_id)];
    ops.extend(constant_operands(cx, chain));
    let ins = cx.make(O::CompositeInsert, pointee, ins_id, &ops);
    cx.analyze_def_use(ins);
    cx.clone_decorations(base, ins_id, Some(&[RELAXED_PRECISION]));
    let s = cx.make(O::Store, 0, 0, &[Operand::id(base), Operand::id(ins_id)]);
    cx.analyze_def_use(s);
    Some(vec![ld, ins, s])
}
