//! spirv-val's mesh shading pass (`MeshShadingPass` in `validate_mesh_shading.cpp`):
//! `OpEmitMeshTasksEXT` and `OpSetMeshOutputsEXT` of `SPV_EXT_mesh_shader` (their
//! counts, the task payload, and the execution model each limits its function to),
//! and where a `PerPrimitiveEXT` interface variable of a module with `MeshShadingEXT`
//! may live.

use super::faults::faults;
use super::limitations::{Limitation, register, rules};
use super::{Fault, Inst, Query};
use crate::spv::{self, ExecutionModel as M, Opcode, Opcode as O, StorageClass as S};
use MeshShadingError as E;
use alloc::collections::{BTreeMap, BTreeSet};

faults! {
    /// A fault of spirv-val's mesh shading pass (`validate_mesh_shading.cpp`).
    pub enum MeshShadingError {
        /// A task group count that is no 32-bit unsigned integer.
        GroupCount {
            /// `X`, `Y` or `Z`.
            axis: &'static str,
        } => "Group Count {axis} must be a 32-bit unsigned int scalar",
        /// A task payload that is no variable.
        PayloadVariable => "Payload must be the result of a OpVariable",
        /// A task payload of another storage class.
        PayloadClass
            => "Payload OpVariable must have a storage class of TaskPayloadWorkgroupEXT",
        /// A vertex count that is no 32-bit unsigned integer.
        VertexCount => "Vertex Count must be a 32-bit unsigned int scalar",
        /// A primitive count that is no 32-bit unsigned integer.
        PrimitiveCount => "Primitive Count must be a 32-bit unsigned int scalar",
        /// A fragment interface variable decorated `PerPrimitiveEXT` that is no input.
        PerPrimitiveFragment
            => "PerPrimitiveEXT decoration must be applied only to variables in the Input Storage Class in the Fragment Execution Model.",
        /// A mesh interface variable decorated `PerPrimitiveEXT` that is no output.
        #[vuid = "VUID-PrimitiveId-PrimitiveId-04336"]
        PerPrimitiveMesh
            => "PerPrimitiveEXT decoration must be applied only to variables in the Output Storage Class in the Storage Class in the MeshEXT Execution Model.",
    }
}

/// The instructions with rules here.
const MESH_SHADING: &[Opcode] = &[O::EmitMeshTasksEXT, O::SetMeshOutputsEXT, O::Variable];

/// What the pass reads once: whether every entry point has the `MeshEXT` and the
/// `Fragment` model, and the interface ids of all entry points.
#[derive(Debug, Default)]
pub(super) struct MeshShading {
    interfaces: Option<(bool, bool, BTreeSet<u32>)>,
}

/// The entry points' models and interfaces (`IsInterfaceVariable`'s questions, for
/// every variable at once): a variable is a `model` interface variable when every
/// entry point function has that model and some entry point lists it.
fn interfaces(q: &Query<'_>) -> (bool, bool, BTreeSet<u32>) {
    let mut models: BTreeMap<u32, BTreeSet<u32>> = BTreeMap::new();
    let mut ids = BTreeSet::new();
    for inst in q.module.instructions() {
        match inst.opcode() {
            O::EntryPoint => {
                let w = inst.words();
                let (Some(&model), Some(&function)) = (w.get(1), w.get(2)) else {
                    continue;
                };
                models.entry(function).or_default().insert(model);
                let rest = w.get(3..).unwrap_or(&[]);
                let name = crate::codec::decode_string(rest).map_or(rest.len(), |s| s.0.len());
                ids.extend(rest.iter().skip(name).copied());
            }
            O::Function => break,
            _ => {}
        }
    }
    let all = |m: M| models.values().all(|set| set.contains(&m.0));
    (all(M::MeshEXT), all(M::Fragment), ids)
}

/// `MeshShadingPass` for one instruction.
#[inline(always)]
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>, state: &mut MeshShading) -> Result<(), Fault> {
    let uint32 = |i: usize| {
        let t = q.operand_type(inst, i);
        q.is_unsigned_int_scalar_type(t) && q.bit_width(t) == 32
    };
    match inst.opcode {
        O::EmitMeshTasksEXT => {
            register(q, inst, Limitation::new(q, &rules::EMIT_MESH_TASKS));
            for (i, axis) in ["X", "Y", "Z"].into_iter().enumerate() {
                if !uint32(i) {
                    return Err(E::GroupCount { axis }.into());
                }
            }
            if inst.operands.len() == 4 {
                let payload = inst.word(3);
                if q.opcode(payload) != O::Variable {
                    return Err(E::PayloadVariable.into());
                }
                if q.word(payload, 3).map(S) != Some(S::TaskPayloadWorkgroupEXT) {
                    return Err(E::PayloadClass.into());
                }
            }
        }
        O::SetMeshOutputsEXT => {
            register(q, inst, Limitation::new(q, &rules::SET_MESH_OUTPUTS));
            if !uint32(0) {
                return Err(E::VertexCount.into());
            }
            if !uint32(1) {
                return Err(E::PrimitiveCount.into());
            }
        }
        O::Variable if q.state.has_capability(spv::Capability::MeshShadingEXT.0) => {
            if !q
                .decorations
                .has(inst.result_id, spv::Decoration::PerPrimitiveEXT.0)
            {
                return Ok(());
            }
            let (mesh, fragment, ids) = state.interfaces.get_or_insert_with(|| interfaces(q));
            let listed = ids.contains(&inst.result_id);
            let class = S(inst.word(2));
            if *fragment && listed && class != S::Input {
                return Err(E::PerPrimitiveFragment.into());
            }
            if *mesh && listed && class != S::Output {
                return Err(E::PerPrimitiveMesh.into());
            }
        }
        _ => {}
    }
    Ok(())
}

/// What this family checks (see [`coverage`](crate::validate::coverage)).
pub(crate) const COVERAGE: crate::validate::coverage::Family = crate::validate::coverage::Family {
    opcodes: MESH_SHADING,
    decorations: &[spv::Decoration::PerPrimitiveEXT],
    ..crate::validate::coverage::Family::new("mesh shading", "validate_mesh_shading.cpp")
};
