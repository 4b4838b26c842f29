//! spirv-val's checks once every instruction has been through its first loop: what
//! the end of the module must have, the per-instruction rules of its second loop that
//! this validator has (extensions that need a newer version, non-semantic imports,
//! unique types), and the entry-point rules that follow them.

use super::error::ErrorKind;
use super::state::{GraphRegion, State};
use super::{Fault, Inst};
use crate::__private::Vec;
use crate::analysis::CallGraph;
use crate::spv::{self, Opcode as O};
use crate::types::Id;
use crate::{Module, codec};
use alloc::collections::BTreeSet;

/// The end of spirv-val's first loop.
pub(super) fn end(state: &State<'_>) -> Result<(), ErrorKind> {
    if !state.memory_model {
        return Err(ErrorKind::MissingMemoryModel);
    }
    if state.in_function() {
        return Err(ErrorKind::MissingFunctionEnd);
    }
    if state.graph != GraphRegion::Outside {
        return Err(ErrorKind::MissingGraphEnd);
    }
    if state.has_capability(spv::Capability::BindlessTextureNV.0) && state.sampler_addressing == 0 {
        return Err(ErrorKind::MissingSamplerAddressing);
    }
    if state.mesh_ext && state.mesh_nv {
        return Err(ErrorKind::MeshModelMix {
            vulkan: state.options.target_env.is_vulkan(),
        });
    }
    if !state.forward.is_empty() {
        let ids = state.forward.ids().into_iter().map(Id).collect();
        return Err(ErrorKind::UndefinedForwardReferences { ids });
    }
    Ok(())
}

/// Extensions that spirv-val 2025.5 allows only from a SPIR-V version on
/// (`ValidateExtension`).
const EXTENSION_VERSIONS: &[(&str, (u8, u8))] = &[
    ("SPV_KHR_vulkan_memory_model", (1, 3)),
    ("SPV_QCOM_cooperative_matrix_conversion", (1, 3)),
    ("SPV_KHR_workgroup_memory_explicit_layout", (1, 4)),
    ("SPV_EXT_mesh_shader", (1, 4)),
    ("SPV_NV_shader_invocation_reorder", (1, 4)),
    ("SPV_EXT_shader_invocation_reorder", (1, 4)),
    ("SPV_NV_cluster_acceleration_structure", (1, 4)),
    ("SPV_NV_linear_swept_spheres", (1, 4)),
    ("SPV_QCOM_image_processing", (1, 4)),
    ("SPV_QCOM_image_processing2", (1, 4)),
];

/// The rules of spirv-val's second loop this validator has, for one instruction:
/// its extension pass (extension versions, non-semantic imports), the first rules of
/// its mode-setting pass (an entry point is a function without parameters that returns
/// nothing; an execution mode names an entry point), then its type pass's uniqueness
/// rule. `types` holds the non-aggregate types seen so far.
pub(super) fn second_loop(
    state: &State<'_>,
    module: &Module,
    inst: &Inst<'_>,
    types: &mut BTreeSet<Vec<u32>>,
) -> Result<(), ErrorKind> {
    let operands = inst.words.get(1..).unwrap_or(&[]);
    match inst.opcode {
        O::EntryPoint => entry_point(state, module, operands)?,
        O::ExecutionMode | O::ExecutionModeId => {
            let id = operands.first().copied().unwrap_or(0);
            if !state.entry_points.contains(&id) {
                return Err(ErrorKind::ModeWithoutEntryPoint { id: Id(id) });
            }
        }
        O::Extension => {
            let name = codec::string_operand(operands);
            for &(ext, needs) in EXTENSION_VERSIONS {
                if name.as_slice() == ext.as_bytes() && state.version < needs {
                    return Err(ErrorKind::ExtensionVersion {
                        extension: ext.into(),
                        needs,
                    });
                }
            }
        }
        O::ExtInstImport => {
            let name = codec::string_operand(operands.get(1..).unwrap_or(&[]));
            if state.version <= (1, 5)
                && !state.has_extension("SPV_KHR_non_semantic_info")
                && name.starts_with(b"NonSemantic.")
            {
                return Err(ErrorKind::NonSemanticWithoutExtension);
            }
        }
        op if (crate::spirv_tools::generates_type(op) || op == O::TypeForwardPointer)
            && !matches!(
                op,
                O::TypeArray
                    | O::TypeRuntimeArray
                    | O::TypeNodePayloadArrayAMDX
                    | O::TypeStruct
                    | O::TypePointer
                    | O::TypeUntypedPointerKHR
            )
            && !state.has_extension("SPV_VALIDATOR_ignore_type_decl_unique") =>
        {
            // The opcode and every operand word but the result id.
            let mut key = Vec::with_capacity(inst.words.len());
            key.push(u32::from(op.0));
            for o in inst.operands {
                if o.kind.class != crate::grammar::KindClass::Result {
                    key.extend_from_slice(&inst.words[o.offset..o.offset + o.len]);
                }
            }
            if !types.insert(key) {
                return Err(ErrorKind::DuplicateType {
                    opcode: op,
                    id: Id(inst.result_id),
                });
            }
        }
        _ => {}
    }
    Ok(())
}

/// The first rules of spirv-val's `ValidateEntryPoint` for one `OpEntryPoint`.
fn entry_point(state: &State<'_>, module: &Module, operands: &[u32]) -> Result<(), ErrorKind> {
    let id = operands.get(1).copied().unwrap_or(0);
    let vulkan = state.options.target_env.is_vulkan();
    let def = |id: u32| {
        state
            .def(id)
            .and_then(|d| module.instruction(d.index as usize))
    };
    let function = match def(id) {
        Some(f) if f.opcode() == O::Function => f,
        _ => return Err(ErrorKind::EntryPointNotFunction { id: Id(id) }),
    };
    let fw = function.words();
    if operands.first() != Some(&spv::ExecutionModel::Kernel.0) {
        let params = def(fw.get(4).copied().unwrap_or(0)).map(|t| t.words().len());
        if params != Some(3) {
            return Err(ErrorKind::EntryPointParameters { id: Id(id), vulkan });
        }
    }
    match def(fw.get(1).copied().unwrap_or(0)) {
        Some(t) if t.opcode() == O::TypeVoid => Ok(()),
        _ => Err(ErrorKind::EntryPointReturnType { id: Id(id), vulkan }),
    }
}

/// spirv-val's entry-point checks (`ValidateEntryPoints`, `ValidateGraphEntryPoints`),
/// for the rules this validator has.
pub(super) fn entry_points(state: &State<'_>, module: &Module) -> Result<(), Fault> {
    let has = |c: spv::Capability| state.has_capability(c.0);
    if state.entry_points.is_empty()
        && !has(spv::Capability::Linkage)
        && !has(spv::Capability::GraphARM)
    {
        return Err(Fault::module(ErrorKind::NoEntryPoint));
    }
    let recursive = if state.options.target_env.is_vulkan() {
        recursive_functions(module)
    } else {
        BTreeSet::new()
    };
    for &f in &state.entry_points {
        let at = state.def(f).map(|d| d.index);
        let fault = |kind| match at {
            Some(at) => Fault::at(kind, at),
            None => Fault::module(kind),
        };
        if state.call_targets.contains(&f) {
            return Err(fault(ErrorKind::EntryPointCalled { function: Id(f) }));
        }
        if recursive.contains(&f) {
            return Err(fault(ErrorKind::RecursiveEntryPoint));
        }
    }
    if state.graph_entry_points == 0 && has(spv::Capability::GraphARM) {
        return Err(Fault::module(ErrorKind::NoGraphEntryPoint));
    }
    Ok(())
}

/// The functions whose calls reach a cycle: those that can reach a recursive function,
/// found by one walk back from the recursive ones.
fn recursive_functions(module: &Module) -> BTreeSet<u32> {
    let calls = CallGraph::new(module);
    let n = calls.functions().len();
    let mut callers: Vec<Vec<usize>> = Vec::new();
    callers.resize_with(n, Vec::new);
    for f in 0..n {
        for c in calls.callees(f) {
            callers[c].push(f);
        }
    }
    let mut seen = alloc::vec![false; n];
    let mut stack: Vec<usize> = (0..n).filter(|&f| calls.is_recursive(f)).collect();
    for &f in &stack {
        seen[f] = true;
    }
    while let Some(f) = stack.pop() {
        for &c in &callers[f] {
            if !core::mem::replace(&mut seen[c], true) {
                stack.push(c);
            }
        }
    }
    (0..n)
        .filter(|&f| seen[f])
        .map(|f| calls.functions()[f].id.0)
        .collect()
}
