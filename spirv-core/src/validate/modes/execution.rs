//! The rest of spirv-val's mode-setting pass: `ValidateExecutionMode` (id operands only
//! where the mode takes ids, each mode with the execution models it suits, the Vulkan
//! rules on origins and mesh output counts), `ValidateMemoryModel`,
//! `ValidateCapability`, and `ValidateDuplicateExecutionModes`, which spirv-val runs
//! with its entry-point checks after the second loop.

use super::{ModeError, Modes, rule};
use crate::spv::{self, Capability as C, ExecutionMode as M, ExecutionModel as EM, Opcode as O};
use crate::validate::{Fault, Inst, Query};
use alloc::collections::BTreeSet;

/// The modes that take id operands.
fn takes_ids(mode: M) -> bool {
    matches!(
        mode,
        M::SubgroupsPerWorkgroupId
            | M::LocalSizeHintId
            | M::LocalSizeId
            | M::FPFastMathDefault
            | M::IsApiEntryAMDX
            | M::MaxNodeRecursionAMDX
            | M::MaxNumWorkgroupsAMDX
            | M::ShaderIndexAMDX
            | M::SharesInputWithAMDX
            | M::StaticNumWorkgroupsAMDX
    )
}

/// `ValidateExecutionMode` after its entry-point rule.
pub(super) fn execution_mode(q: &Query<'_>, inst: &Inst<'_>, modes: &Modes) -> Result<(), Fault> {
    let w = inst.words;
    let word = |i: usize| w.get(i).copied().unwrap_or(0);
    let entry = word(1);
    let mode = M(word(2));
    let has = |m: M| modes.has(entry, m);
    let cap = |c: C| q.state.has_capability(c.0);
    if inst.opcode == O::ExecutionModeId {
        if !(takes_ids(mode) || mode == M::MaximumRegistersIdINTEL) {
            return Err(rule(ModeError::ModeIdWithoutIds));
        }
        for (i, &operand) in w.get(3..).unwrap_or(&[]).iter().enumerate() {
            match mode {
                M::FPFastMathDefault => fast_math_default(q, i, operand)?,
                M::MaximumRegistersIdINTEL => {}
                _ => {
                    if !crate::spirv_tools::is_constant(q.opcode(operand)) {
                        return Err(rule(ModeError::ModeIdNotConstant));
                    }
                }
            }
        }
    } else if takes_ids(mode) {
        return Err(rule(ModeError::ModeWithIds));
    }
    let vulkan = q.state.options.target_env.is_vulkan();
    let empty = BTreeSet::new();
    let models = modes.models.get(&entry).unwrap_or(&empty);
    let all = |ok: &dyn Fn(EM) -> bool| models.iter().all(|&m| ok(EM(m)));
    let mesh_caps = cap(C::MeshShadingNV) || cap(C::MeshShadingEXT);
    let mesh_ok = |m: EM| match m {
        EM::MeshNV => cap(C::MeshShadingNV),
        EM::MeshEXT => cap(C::MeshShadingEXT),
        _ => false,
    };
    let tessellation = |m: EM| matches!(m, EM::TessellationControl | EM::TessellationEvaluation);
    let geometry_only = ModeError::GeometryOnly;
    let fragment_only = |m: EM| m == EM::Fragment;
    let (ok, fault): (&dyn Fn(EM) -> bool, ModeError) = match mode {
        M::Invocations
        | M::InputPoints
        | M::InputLines
        | M::InputLinesAdjacency
        | M::InputTrianglesAdjacency
        | M::OutputLineStrip
        | M::OutputTriangleStrip => (&|m| m == EM::Geometry, geometry_only),
        M::OutputPoints => (
            &|m| m == EM::Geometry || mesh_ok(m),
            if mesh_caps {
                ModeError::GeometryOrMeshOnly
            } else {
                geometry_only
            },
        ),
        M::SpacingEqual
        | M::SpacingFractionalEven
        | M::SpacingFractionalOdd
        | M::VertexOrderCw
        | M::VertexOrderCcw
        | M::PointMode
        | M::Quads
        | M::Isolines => (&tessellation, ModeError::TessellationOnly),
        M::Triangles => (
            &|m| m == EM::Geometry || tessellation(m),
            ModeError::GeometryOrTessellationOnly,
        ),
        M::OutputVertices => (
            &|m| m == EM::Geometry || tessellation(m) || mesh_ok(m),
            if mesh_caps {
                ModeError::GeometryTessellationOrMeshOnly
            } else {
                ModeError::GeometryOrTessellationOnly
            },
        ),
        M::OutputLinesEXT | M::OutputTrianglesEXT | M::OutputPrimitivesEXT => (
            &|m| matches!(m, EM::MeshEXT | EM::MeshNV),
            ModeError::MeshOnly,
        ),
        M::QuadDerivativesKHR => (
            &|m| matches!(m, EM::Fragment | EM::GLCompute),
            ModeError::FragmentOrComputeOnly,
        ),
        M::PixelCenterInteger
        | M::OriginUpperLeft
        | M::OriginLowerLeft
        | M::EarlyFragmentTests
        | M::DepthReplacing
        | M::DepthGreater
        | M::DepthLess
        | M::DepthUnchanged
        | M::NonCoherentColorAttachmentReadEXT
        | M::NonCoherentDepthAttachmentReadEXT
        | M::NonCoherentStencilAttachmentReadEXT
        | M::PixelInterlockOrderedEXT
        | M::PixelInterlockUnorderedEXT
        | M::SampleInterlockOrderedEXT
        | M::SampleInterlockUnorderedEXT
        | M::ShadingRateInterlockOrderedEXT
        | M::ShadingRateInterlockUnorderedEXT
        | M::EarlyAndLateFragmentTestsAMD
        | M::StencilRefUnchangedFrontAMD
        | M::StencilRefGreaterFrontAMD
        | M::StencilRefLessFrontAMD
        | M::StencilRefUnchangedBackAMD
        | M::StencilRefGreaterBackAMD
        | M::StencilRefLessBackAMD
        | M::RequireFullQuadsKHR => (&fragment_only, ModeError::FragmentOnly),
        M::LocalSizeHint | M::VecTypeHint | M::ContractionOff | M::LocalSizeHintId => {
            (&|m| m == EM::Kernel, ModeError::KernelOnly)
        }
        M::LocalSize | M::LocalSizeId => {
            let allowed = q.state.options.allow_localsizeid
                || !matches!(
                    q.state.options.target_env,
                    crate::TargetEnv::Vulkan1_0
                        | crate::TargetEnv::Vulkan1_1
                        | crate::TargetEnv::Vulkan1_1Spirv1_4
                        | crate::TargetEnv::Vulkan1_2
                );
            if mode == M::LocalSizeId && !allowed {
                return Err(rule(if vulkan {
                    ModeError::LocalSizeIdNeedsMaintenance4
                } else {
                    ModeError::LocalSizeIdNotAllowed
                }));
            }
            (
                &|m| match m {
                    EM::Kernel | EM::GLCompute => true,
                    EM::TaskNV | EM::MeshNV => cap(C::MeshShadingNV),
                    EM::TaskEXT | EM::MeshEXT => cap(C::MeshShadingEXT),
                    _ => false,
                },
                if mesh_caps {
                    ModeError::KernelComputeOrMeshOnly
                } else {
                    ModeError::KernelOrComputeOnly
                },
            )
        }
        // Any model may have it: the fault is never reported.
        _ => (&|_| true, ModeError::GeometryOnly),
    };
    if !all(ok) {
        return Err(rule(fault));
    }
    if vulkan && cap(C::MeshShadingEXT) && word(3) == 0 {
        if mode == M::OutputVertices {
            return Err(rule(ModeError::MeshNoVertices));
        }
        if mode == M::OutputPrimitivesEXT {
            return Err(rule(ModeError::MeshNoPrimitives));
        }
    }
    if mode == M::FPFastMathDefault {
        if has(M::ContractionOff) {
            return Err(rule(ModeError::FastMathWithContractionOff));
        }
        if has(M::SignedZeroInfNanPreserve) {
            return Err(rule(ModeError::FastMathWithSignedZero));
        }
    }
    if vulkan {
        if mode == M::OriginLowerLeft {
            return Err(rule(ModeError::OriginLowerLeft));
        }
        if mode == M::PixelCenterInteger {
            return Err(rule(ModeError::PixelCenterInteger));
        }
        if mode == M::TileShadingRateQCOM {
            let (x, y) = (word(3) as i32, word(4) as i32);
            if x & x.wrapping_sub(1) != 0 || y & y.wrapping_sub(1) != 0 {
                return Err(rule(ModeError::TileRateNotPowerOfTwo));
            }
        }
    }
    Ok(())
}

/// An operand of `OpExecutionModeId ... FPFastMathDefault` (`i` counted from the first
/// extra operand): a float type, then a constant mask.
fn fast_math_default(q: &Query<'_>, i: usize, operand: u32) -> Result<(), Fault> {
    if i == 0 {
        if !q.is_float_scalar_type(operand) {
            return Err(rule(ModeError::FastMathTargetType));
        }
        return Ok(());
    }
    let (is_int32, is_const, value) = q.int32_if_const(operand);
    if !(is_int32 && is_const) {
        return Err(rule(ModeError::FastMathMaskNotConstant));
    }
    if value & 0xfff8_0000 != 0 {
        return Err(rule(ModeError::FastMathMaskInvalid));
    }
    // Fast, AllowContract, AllowReassoc and AllowTransform.
    let (fast, contract, reassoc, transform) = (0x10, 0x1_0000, 0x2_0000, 0x4_0000);
    if value & fast != 0 {
        return Err(rule(ModeError::FastMathMaskFast));
    }
    let reassoc_contract = contract | reassoc;
    if value & transform != 0 && value & reassoc_contract != reassoc_contract {
        return Err(rule(ModeError::FastMathMaskTransform));
    }
    Ok(())
}

/// `ValidateMemoryModel`.
pub(super) fn memory_model(q: &Query<'_>) -> Result<(), Fault> {
    let (addressing, memory) = (q.state.addressing_model().0, q.state.memory_model().0);
    let env = q.state.options.target_env;
    if memory != 3 /* VulkanKHR */ && q.state.has_capability(C::VulkanMemoryModel.0) {
        return Err(rule(ModeError::VulkanMemoryModelCapability));
    }
    if env.is_opencl() {
        let physical = [
            spv::AddressingModel::Physical32.0,
            spv::AddressingModel::Physical64.0,
        ];
        if !physical.contains(&addressing) {
            return Err(rule(ModeError::OpenClAddressing));
        }
        if memory != spv::MemoryModel::OpenCL.0 {
            return Err(rule(ModeError::OpenClMemoryModel));
        }
    }
    if env.is_vulkan() {
        let allowed = [
            spv::AddressingModel::Logical.0,
            spv::AddressingModel::PhysicalStorageBuffer64.0,
        ];
        if !allowed.contains(&addressing) {
            return Err(rule(ModeError::VulkanAddressing));
        }
    }
    Ok(())
}

/// `ValidateCapability`: `CooperativeMatrixKHR` in shaders needs the Vulkan memory
/// model's capability.
pub(super) fn capability(q: &Query<'_>, operands: &[u32]) -> Result<(), Fault> {
    let has = |c: C| q.state.has_capability(c.0);
    if operands.first() == Some(&C::CooperativeMatrixKHR.0)
        && has(C::Shader)
        && !has(C::VulkanMemoryModel)
    {
        return Err(rule(ModeError::CooperativeMatrixMemoryModel));
    }
    Ok(())
}

/// Modes that may repeat with other operands (`PerEntryExecutionMode` is false).
fn per_operand(mode: M) -> bool {
    matches!(
        mode,
        M::DenormPreserve
            | M::DenormFlushToZero
            | M::SignedZeroInfNanPreserve
            | M::RoundingModeRTE
            | M::RoundingModeRTZ
            | M::FPFastMathDefault
            | M::RoundingModeRTPINTEL
            | M::RoundingModeRTNINTEL
            | M::FloatingPointModeALTINTEL
            | M::FloatingPointModeIEEEINTEL
    )
}

/// `ValidateDuplicateExecutionModes`: the first mode given twice for one entry point
/// (with the same operand, for modes that may repeat).
pub(in crate::validate) fn duplicates(q: &Query<'_>) -> Result<(), Fault> {
    let mut per_entry = BTreeSet::new();
    let mut per_op = BTreeSet::new();
    for (index, inst) in q.module.instructions().enumerate() {
        if !matches!(inst.opcode(), O::ExecutionMode | O::ExecutionModeId) {
            continue;
        }
        let w = inst.words();
        let word = |i: usize| w.get(i).copied().unwrap_or(0);
        let (entry, mode) = (word(1), M(word(2)));
        let per_operand = per_operand(mode);
        let fresh = if per_operand {
            per_op.insert((mode.0, entry, word(3)))
        } else {
            per_entry.insert((mode.0, entry))
        };
        if !fresh {
            let kind = if per_operand {
                ModeError::DuplicateModeOperands { mode }
            } else {
                ModeError::DuplicateMode { mode }
            };
            return Err(Fault::at(kind.into(), index as u32));
        }
    }
    Ok(())
}
