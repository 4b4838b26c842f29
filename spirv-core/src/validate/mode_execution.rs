//! The rest of spirv-val's mode-setting pass: `ValidateExecutionMode` (id operands only
//! where the mode takes ids, each mode with the execution models it suits, the Vulkan
//! rules on origins and mesh output counts), `ValidateMemoryModel`,
//! `ValidateCapability`, and `ValidateDuplicateExecutionModes`, which spirv-val runs
//! with its entry-point checks after the second loop.

use super::Query;
use super::error::ErrorKind;
use super::mode_setting::Modes;
use super::mode_text::ModeError;
use super::{Fault, Inst};
use crate::spv::{self, Capability as C, ExecutionMode as M, ExecutionModel as EM, Opcode as O};
use alloc::collections::BTreeSet;

fn rule(text: &'static str) -> Fault {
    ErrorKind::Mode(ModeError::Rule { text }).into()
}

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
            return Err(rule(
                "OpExecutionModeId is only valid when the Mode operand is an execution mode that takes Extra Operands that are id operands.",
            ));
        }
        for (i, &operand) in w.get(3..).unwrap_or(&[]).iter().enumerate() {
            match mode {
                M::FPFastMathDefault => fast_math_default(q, i, operand)?,
                M::MaximumRegistersIdINTEL => {}
                _ => {
                    if !crate::spirv_tools::is_constant(q.opcode(operand)) {
                        return Err(rule(
                            "For OpExecutionModeId all Extra Operand ids must be constant instructions.",
                        ));
                    }
                }
            }
        }
    } else if takes_ids(mode) {
        return Err(rule(
            "OpExecutionMode is only valid when the Mode operand is an execution mode that takes no Extra Operands, or takes Extra Operands that are not id operands.",
        ));
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
    let geometry_only = "Execution mode can only be used with the Geometry execution model.";
    let fragment_only = |m: EM| m == EM::Fragment;
    let (ok, text): (&dyn Fn(EM) -> bool, &'static str) = match mode {
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
                "Execution mode can only be used with the Geometry MeshNV or MeshEXT execution model."
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
        | M::Isolines => (
            &tessellation,
            "Execution mode can only be used with a tessellation execution model.",
        ),
        M::Triangles => (
            &|m| m == EM::Geometry || tessellation(m),
            "Execution mode can only be used with a Geometry or tessellation execution model.",
        ),
        M::OutputVertices => (
            &|m| m == EM::Geometry || tessellation(m) || mesh_ok(m),
            if mesh_caps {
                "Execution mode can only be used with a Geometry, tessellation, MeshNV or MeshEXT execution model."
            } else {
                "Execution mode can only be used with a Geometry or tessellation execution model."
            },
        ),
        M::OutputLinesEXT | M::OutputTrianglesEXT | M::OutputPrimitivesEXT => (
            &|m| matches!(m, EM::MeshEXT | EM::MeshNV),
            "Execution mode can only be used with the MeshEXT or MeshNV execution model.",
        ),
        M::QuadDerivativesKHR => (
            &|m| matches!(m, EM::Fragment | EM::GLCompute),
            "Execution mode can only be used with the Fragment or GLCompute execution model.",
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
        | M::RequireFullQuadsKHR => (
            &fragment_only,
            "Execution mode can only be used with the Fragment execution model.",
        ),
        M::LocalSizeHint | M::VecTypeHint | M::ContractionOff | M::LocalSizeHintId => (
            &|m| m == EM::Kernel,
            "Execution mode can only be used with the Kernel execution model.",
        ),
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
                let kind = ModeError::LocalSizeIdNotAllowed { vulkan };
                return Err(ErrorKind::Mode(kind).into());
            }
            (
                &|m| match m {
                    EM::Kernel | EM::GLCompute => true,
                    EM::TaskNV | EM::MeshNV => cap(C::MeshShadingNV),
                    EM::TaskEXT | EM::MeshEXT => cap(C::MeshShadingEXT),
                    _ => false,
                },
                if mesh_caps {
                    "Execution mode can only be used with a Kernel, GLCompute, MeshNV, MeshEXT, TaskNV or TaskEXT execution model."
                } else {
                    "Execution mode can only be used with a Kernel or GLCompute execution model."
                },
            )
        }
        _ => (&|_| true, ""),
    };
    if !all(ok) {
        return Err(rule(text));
    }
    if vulkan && cap(C::MeshShadingEXT) && word(3) == 0 {
        if mode == M::OutputVertices {
            return Err(rule(
                "[VUID-StandaloneSpirv-MeshEXT-07330] In mesh shaders using the MeshEXT Execution Model the OutputVertices Execution Mode must be greater than 0",
            ));
        }
        if mode == M::OutputPrimitivesEXT {
            return Err(rule(
                "[VUID-StandaloneSpirv-MeshEXT-07331] In mesh shaders using the MeshEXT Execution Model the OutputPrimitivesEXT Execution Mode must be greater than 0",
            ));
        }
    }
    if mode == M::FPFastMathDefault {
        if has(M::ContractionOff) {
            return Err(rule(
                "FPFastMathDefault and ContractionOff execution modes cannot be applied to the same entry point",
            ));
        }
        if has(M::SignedZeroInfNanPreserve) {
            return Err(rule(
                "FPFastMathDefault and SignedZeroInfNanPreserve execution modes cannot be applied to the same entry point",
            ));
        }
    }
    if vulkan {
        if mode == M::OriginLowerLeft {
            return Err(rule(
                "[VUID-StandaloneSpirv-OriginLowerLeft-04653] In the Vulkan environment, the OriginLowerLeft execution mode must not be used.",
            ));
        }
        if mode == M::PixelCenterInteger {
            return Err(rule(
                "[VUID-StandaloneSpirv-PixelCenterInteger-04654] In the Vulkan environment, the PixelCenterInteger execution mode must not be used.",
            ));
        }
        if mode == M::TileShadingRateQCOM {
            let (x, y) = (word(3) as i32, word(4) as i32);
            if x & x.wrapping_sub(1) != 0 || y & y.wrapping_sub(1) != 0 {
                return Err(rule(
                    "The TileShadingRateQCOM execution mode's x and y values must be powers of 2.",
                ));
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
            return Err(rule(
                "The Target Type operand must be a floating-point scalar type",
            ));
        }
        return Ok(());
    }
    let (is_int32, is_const, value) = q.int32_if_const(operand);
    if !(is_int32 && is_const) {
        return Err(rule(
            "The Fast Math Default operand must be a non-specialization constant",
        ));
    }
    if value & 0xfff8_0000 != 0 {
        return Err(rule(
            "The Fast Math Default operand is an invalid bitmask value",
        ));
    }
    // Fast, AllowContract, AllowReassoc and AllowTransform.
    let (fast, contract, reassoc, transform) = (0x10, 0x1_0000, 0x2_0000, 0x4_0000);
    if value & fast != 0 {
        return Err(rule("The Fast Math Default operand must not include Fast"));
    }
    let reassoc_contract = contract | reassoc;
    if value & transform != 0 && value & reassoc_contract != reassoc_contract {
        return Err(rule(
            "The Fast Math Default operand must include AllowContract and AllowReassoc when AllowTransform is specified",
        ));
    }
    Ok(())
}

/// `ValidateMemoryModel`.
pub(super) fn memory_model(q: &Query<'_>) -> Result<(), Fault> {
    let (addressing, memory) = (q.state.addressing_model().0, q.state.memory_model().0);
    let env = q.state.options.target_env;
    if memory != 3 /* VulkanKHR */ && q.state.has_capability(C::VulkanMemoryModel.0) {
        return Err(rule(
            "VulkanMemoryModelKHR capability must only be specified if the VulkanKHR memory model is used.",
        ));
    }
    if env.is_opencl() {
        let physical = [
            spv::AddressingModel::Physical32.0,
            spv::AddressingModel::Physical64.0,
        ];
        if !physical.contains(&addressing) {
            return Err(rule(
                "Addressing model must be Physical32 or Physical64 in the OpenCL environment.",
            ));
        }
        if memory != spv::MemoryModel::OpenCL.0 {
            return Err(rule(
                "Memory model must be OpenCL in the OpenCL environment.",
            ));
        }
    }
    if env.is_vulkan() {
        let allowed = [
            spv::AddressingModel::Logical.0,
            spv::AddressingModel::PhysicalStorageBuffer64.0,
        ];
        if !allowed.contains(&addressing) {
            return Err(rule(
                "[VUID-StandaloneSpirv-None-04635] Addressing model must be Logical or PhysicalStorageBuffer64 in the Vulkan environment.",
            ));
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
        return Err(ErrorKind::Mode(ModeError::Rule {
            text: "If the Shader and CooperativeMatrixKHR capabilities are declared, the VulkanMemoryModel capability must also be declared",
        })
        .into());
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
pub(super) fn duplicates(q: &Query<'_>) -> Result<(), Fault> {
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
            let name = spv::kinds::ExecutionMode
                .enumerant(mode.0)
                .map_or("Unknown", |e| e.name);
            let kind = ModeError::DuplicateMode {
                mode: name,
                per_operand,
            };
            return Err(Fault::at(ErrorKind::Mode(kind), index as u32));
        }
    }
    Ok(())
}
