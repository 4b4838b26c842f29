//! spirv-val's mode-setting pass (`ModeSettingPass` in `validate_mode_setting.cpp`)
//! for one instruction: an entry point is a function without parameters that returns
//! nothing, whose execution modes suit its execution model (`ValidateEntryPoint`); an
//! execution mode names an entry point (the rest of `ValidateExecutionMode`, with the
//! memory-model and capability rules, is in [`execution`]). What the pass reads of
//! every entry point's modes is gathered once, at the first instruction that needs it
//! ([`Modes`]). Its faults are [`ModeError`]'s table.

mod execution;
mod float_controls2;

pub(super) use execution::duplicates;
pub(super) use float_controls2::check as float_controls2;

use super::error::ValidationErrorKind;
use super::faults::faults;
use super::{Fault, Inst, Query};
use crate::spv::{self, Capability as C, ExecutionMode as M, ExecutionModel as EM, Opcode as O};
use crate::types::Id;
use alloc::collections::{BTreeMap, BTreeSet};

faults! {
    /// A fault of spirv-val's mode-setting pass (`validate_mode_setting.cpp`): entry
    /// points' execution modes, `OpExecutionMode`, the memory model and the
    /// capabilities it needs.
    pub enum ModeError {
        // --- `ValidateEntryPoint`: the modes an execution model needs. ---
        /// A fragment entry point with both origins.
        FragmentTwoOrigins => "Fragment execution model entry points can only specify one of OriginUpperLeft or OriginLowerLeft execution modes.",
        /// A fragment entry point without an origin.
        FragmentNoOrigin => "Fragment execution model entry points require either an OriginUpperLeft or OriginLowerLeft execution mode.",
        /// A fragment entry point with two depth modes.
        FragmentDepthModes => "Fragment execution model entry points can specify at most one of DepthGreater, DepthLess or DepthUnchanged execution modes.",
        /// A fragment entry point with two interlock modes.
        FragmentInterlockModes => "Fragment execution model entry points can specify at most one fragment shader interlock execution mode.",
        /// A fragment entry point with two front stencil modes.
        FragmentStencilFrontModes => "Fragment execution model entry points can specify at most one of StencilRefUnchangedFrontAMD, StencilRefLessFrontAMD or StencilRefGreaterFrontAMD execution modes.",
        /// A fragment entry point with two back stencil modes.
        FragmentStencilBackModes => "Fragment execution model entry points can specify at most one of StencilRefUnchangedBackAMD, StencilRefLessBackAMD or StencilRefGreaterBackAMD execution modes.",
        /// A tessellation entry point with two spacing modes.
        TessellationSpacingModes => "Tessellation execution model entry points can specify at most one of SpacingEqual, SpacingFractionalOdd or SpacingFractionalEven execution modes.",
        /// A tessellation entry point with two primitive modes.
        TessellationPrimitiveModes => "Tessellation execution model entry points can specify at most one of Triangles, Quads or Isolines execution modes.",
        /// A tessellation entry point with two vertex orders.
        TessellationOrderModes => "Tessellation execution model entry points can specify at most one of VertexOrderCw or VertexOrderCcw execution modes.",
        /// A geometry entry point without exactly one input mode.
        GeometryInputModes => "Geometry execution model entry points must specify exactly one of InputPoints, InputLines, InputLinesAdjacency, Triangles or InputTrianglesAdjacency execution modes.",
        /// A geometry entry point without exactly one output mode.
        GeometryOutputModes => "Geometry execution model entry points must specify exactly one of OutputPoints, OutputLineStrip or OutputTriangleStrip execution modes.",
        /// A MeshEXT entry point without exactly one output primitive mode.
        MeshOutputModes => "MeshEXT execution model entry points must specify exactly one of OutputPoints, OutputLinesEXT, or OutputTrianglesEXT Execution Modes.",
        /// A MeshEXT entry point without both output counts.
        MeshOutputCounts => "MeshEXT execution model entry points must specify both OutputPrimitivesEXT and OutputVertices Execution Modes.",

        // --- `ValidateEntryPoint`: Vulkan's workgroup size and tile shading. ---
        /// A GLCompute entry point without a workgroup size.
        #[vuid = "VUID-StandaloneSpirv-None-10685"]
        NoLocalSize => "In the Vulkan environment, GLCompute execution model entry points require either the LocalSize or LocalSizeId execution mode or an object decorated with WorkgroupSize must be specified.",
        /// A GLCompute entry point without a workgroup size, `TileShadingQCOM` declared.
        #[vuid = "VUID-StandaloneSpirv-None-10685"]
        NoLocalSizeOrTileRate => "In the Vulkan environment, GLCompute execution model entry points require either the TileShadingRateQCOM, LocalSize or LocalSizeId execution mode or an object decorated with WorkgroupSize must be specified.",
        /// `TileShadingRateQCOM` with a local size.
        TileRateWithLocalSize => "If the TileShadingRateQCOM execution mode is used, LocalSize and LocalSizeId must not be specified.",
        /// `TileShadingRateQCOM` without `TileShadingQCOM`.
        TileRateNeedsCapability => "If the TileShadingRateQCOM execution mode is used, the TileShadingQCOM capability must be enabled.",
        /// `TileShadingRateQCOM` outside compute.
        TileRateNotCompute => "The TileShadingRateQCOM execution mode must not be used in any stage other than compute.",
        /// `NonCoherentTileAttachmentReadQCOM` outside fragment shaders.
        TileReadNotFragment => "The NonCoherentTileAttachmentQCOM execution mode must not be used in any stage other than fragment.",
        /// `NonCoherentTileAttachmentReadQCOM` without `TileShadingQCOM`.
        TileReadNeedsCapability => "If the NonCoherentTileAttachmentReadQCOM execution mode is used, the TileShadingQCOM capability must be enabled.",
        /// `TileShadingQCOM` with an entry point outside compute and fragment.
        TileCapabilityStage => "The TileShadingQCOM capability must not be enabled in any stage other than compute or fragment.",

        // --- `ValidateEntryPoint`: the local size. ---
        /// `LocalSize` whose sizes multiply to zero.
        LocalSizeZero {
            /// X.
            x: u64,
            /// Y.
            y: u64,
            /// Z.
            z: u64,
        } => "Local Size execution mode must not have a product of zero (X = {x}, Y = {y}, Z = {z}).",
        /// `LocalSizeId` whose sizes multiply to zero.
        LocalSizeIdZero {
            /// X.
            x: u64,
            /// Y.
            y: u64,
            /// Z.
            z: u64,
        } => "LocalSizeId execution mode must not have a product of zero (X = {x}, Y = {y}, Z = {z}).",
        /// `DerivativeGroupQuadsKHR` with an odd `LocalSize` X or Y.
        #[vuid = "VUID-StandaloneSpirv-DerivativeGroupQuadsKHR-10151"]
        QuadsOdd {
            /// X.
            x: u64,
            /// Y.
            y: u64,
            /// The entry point.
            entry: Id,
        } => "Local Size execution mode dimensions is (X = {x}, Y = {y}) but Entry Point id {entry:n} also has an DerivativeGroupQuadsKHR execution mode, so both dimensions must be a multiple of 2",
        /// `DerivativeGroupQuadsKHR` with an odd `LocalSizeId` X or Y.
        #[vuid = "VUID-StandaloneSpirv-DerivativeGroupQuadsKHR-10151"]
        QuadsOddId {
            /// X.
            x: u64,
            /// Y.
            y: u64,
            /// The entry point.
            entry: Id,
        } => "LocalSizeId execution mode dimensions is (X = {x}, Y = {y}) but Entry Point id {entry:n} also has an DerivativeGroupQuadsKHR execution mode, so both dimensions must be a multiple of 2",
        /// `DerivativeGroupLinearKHR` with `LocalSize` sizes whose product is not a
        /// multiple of 4.
        #[vuid = "VUID-StandaloneSpirv-DerivativeGroupLinearKHR-10152"]
        LinearNotFour {
            /// X.
            x: u64,
            /// Y.
            y: u64,
            /// Z.
            z: u64,
            /// The entry point.
            entry: Id,
            /// The product (as spirv-val computes it, in 32 bits).
            product: u64,
        } => "Local Size execution mode dimensions is (X = {x}, Y = {y}, Z = {z}) but Entry Point id {entry:n} also has an DerivativeGroupLinearKHR execution mode, so the product ({product}) must be a multiple of 4",
        /// `DerivativeGroupLinearKHR` with `LocalSizeId` sizes whose product is not a
        /// multiple of 4.
        #[vuid = "VUID-StandaloneSpirv-DerivativeGroupLinearKHR-10152"]
        LinearNotFourId {
            /// X.
            x: u64,
            /// Y.
            y: u64,
            /// Z.
            z: u64,
            /// The entry point.
            entry: Id,
            /// The product.
            product: u64,
        } => "LocalSizeId execution mode dimensions is (X = {x}, Y = {y}, Z = {z}) but Entry Point id {entry:n} also has an DerivativeGroupLinearKHR execution mode, so the product ({product}) must be a multiple of 4",

        // --- `ValidateExecutionMode`. ---
        /// `OpExecutionModeId` with a mode that takes no ids.
        ModeIdWithoutIds => "OpExecutionModeId is only valid when the Mode operand is an execution mode that takes Extra Operands that are id operands.",
        /// `OpExecutionModeId` with an operand that is not a constant.
        ModeIdNotConstant => "For OpExecutionModeId all Extra Operand ids must be constant instructions.",
        /// `OpExecutionMode` with a mode that takes ids.
        ModeWithIds => "OpExecutionMode is only valid when the Mode operand is an execution mode that takes no Extra Operands, or takes Extra Operands that are not id operands.",
        /// A mode of geometry shaders under another model.
        GeometryOnly => "Execution mode can only be used with the Geometry execution model.",
        /// `OutputPoints` under another model than geometry or mesh.
        GeometryOrMeshOnly => "Execution mode can only be used with the Geometry MeshNV or MeshEXT execution model.",
        /// A mode of tessellation shaders under another model.
        TessellationOnly => "Execution mode can only be used with a tessellation execution model.",
        /// A mode of geometry or tessellation shaders under another model.
        GeometryOrTessellationOnly => "Execution mode can only be used with a Geometry or tessellation execution model.",
        /// `OutputVertices` under another model than geometry, tessellation or mesh.
        GeometryTessellationOrMeshOnly => "Execution mode can only be used with a Geometry, tessellation, MeshNV or MeshEXT execution model.",
        /// A mode of mesh shaders under another model.
        MeshOnly => "Execution mode can only be used with the MeshEXT or MeshNV execution model.",
        /// `QuadDerivativesKHR` under another model than fragment or GLCompute.
        FragmentOrComputeOnly => "Execution mode can only be used with the Fragment or GLCompute execution model.",
        /// A mode of fragment shaders under another model.
        FragmentOnly => "Execution mode can only be used with the Fragment execution model.",
        /// A mode of kernels under another model.
        KernelOnly => "Execution mode can only be used with the Kernel execution model.",
        /// `LocalSize` under another model than kernel or GLCompute.
        KernelOrComputeOnly => "Execution mode can only be used with a Kernel or GLCompute execution model.",
        /// `LocalSize` under another model than kernel, GLCompute or mesh.
        KernelComputeOrMeshOnly => "Execution mode can only be used with a Kernel, GLCompute, MeshNV, MeshEXT, TaskNV or TaskEXT execution model.",
        /// `LocalSizeId` where the environment does not allow it.
        LocalSizeIdNotAllowed => "LocalSizeId mode is not allowed by the current environment.",
        /// `LocalSizeId` where Vulkan does not allow it without `maintenance4`.
        LocalSizeIdNeedsMaintenance4 => "LocalSizeId mode is not allowed by the current environment.\nThis is allowed if you enable the maintenance4 feature (or use the --allow-localsizeid command line flag)",
        /// `OutputVertices` of 0 in a MeshEXT shader.
        #[vuid = "VUID-StandaloneSpirv-MeshEXT-07330"]
        MeshNoVertices => "In mesh shaders using the MeshEXT Execution Model the OutputVertices Execution Mode must be greater than 0",
        /// `OutputPrimitivesEXT` of 0 in a MeshEXT shader.
        #[vuid = "VUID-StandaloneSpirv-MeshEXT-07331"]
        MeshNoPrimitives => "In mesh shaders using the MeshEXT Execution Model the OutputPrimitivesEXT Execution Mode must be greater than 0",
        /// `FPFastMathDefault` with `ContractionOff`.
        FastMathWithContractionOff => "FPFastMathDefault and ContractionOff execution modes cannot be applied to the same entry point",
        /// `FPFastMathDefault` with `SignedZeroInfNanPreserve`.
        FastMathWithSignedZero => "FPFastMathDefault and SignedZeroInfNanPreserve execution modes cannot be applied to the same entry point",
        /// `NoContraction` on an instruction an entry point with `FPFastMathDefault`
        /// reaches (`ValidateFloatControls2`).
        NoContractionWithFastMathDefault => "NoContraction cannot be used by an entry point with the FPFastMathDefault execution mode",
        /// `FPFastMathMode Fast` on an instruction an entry point with
        /// `FPFastMathDefault` reaches (`ValidateFloatControls2`).
        FastWithFastMathDefault => "FPFastMathMode Fast cannot be used by an entry point with the FPFastMathDefault execution mode",
        /// `OriginLowerLeft` in Vulkan.
        #[vuid = "VUID-StandaloneSpirv-OriginLowerLeft-04653"]
        OriginLowerLeft => "In the Vulkan environment, the OriginLowerLeft execution mode must not be used.",
        /// `PixelCenterInteger` in Vulkan.
        #[vuid = "VUID-StandaloneSpirv-PixelCenterInteger-04654"]
        PixelCenterInteger => "In the Vulkan environment, the PixelCenterInteger execution mode must not be used.",
        /// A tile shading rate that is not a power of two.
        TileRateNotPowerOfTwo => "The TileShadingRateQCOM execution mode's x and y values must be powers of 2.",
        /// `FPFastMathDefault` whose type is not a float scalar.
        FastMathTargetType => "The Target Type operand must be a floating-point scalar type",
        /// `FPFastMathDefault` whose mask is not a constant.
        FastMathMaskNotConstant => "The Fast Math Default operand must be a non-specialization constant",
        /// `FPFastMathDefault` with bits no flag has.
        FastMathMaskInvalid => "The Fast Math Default operand is an invalid bitmask value",
        /// `FPFastMathDefault` with `Fast`.
        FastMathMaskFast => "The Fast Math Default operand must not include Fast",
        /// `FPFastMathDefault` with `AllowTransform` but not `AllowContract` and
        /// `AllowReassoc`.
        FastMathMaskTransform => "The Fast Math Default operand must include AllowContract and AllowReassoc when AllowTransform is specified",

        // --- `ValidateMemoryModel` and `ValidateCapability`. ---
        /// `VulkanMemoryModel` without the Vulkan memory model.
        VulkanMemoryModelCapability => "VulkanMemoryModelKHR capability must only be specified if the VulkanKHR memory model is used.",
        /// An OpenCL module without physical addressing.
        OpenClAddressing => "Addressing model must be Physical32 or Physical64 in the OpenCL environment.",
        /// An OpenCL module without the OpenCL memory model.
        OpenClMemoryModel => "Memory model must be OpenCL in the OpenCL environment.",
        /// A Vulkan module with physical addressing.
        #[vuid = "VUID-StandaloneSpirv-None-04635"]
        VulkanAddressing => "Addressing model must be Logical or PhysicalStorageBuffer64 in the Vulkan environment.",
        /// `CooperativeMatrixKHR` in a shader without `VulkanMemoryModel`.
        CooperativeMatrixMemoryModel => "If the Shader and CooperativeMatrixKHR capabilities are declared, the VulkanMemoryModel capability must also be declared",

        // --- `ValidateDuplicateExecutionModes`. ---
        /// A mode given twice for one entry point.
        DuplicateMode {
            /// The mode.
            mode: spv::ExecutionMode,
        } => "{mode} execution mode must not be specified multiple times per entry point",
        /// A mode given twice for one entry point with the same operands.
        DuplicateModeOperands {
            /// The mode.
            mode: spv::ExecutionMode,
        } => "{mode} execution mode must not be specified multiple times for the same entry point and operands",
    }
}

/// What spirv-val's first loop registers of execution modes and models.
#[derive(Debug, Default)]
pub(super) struct Modes {
    /// The modes of each entry point (`GetExecutionModes`).
    pub(super) modes: BTreeMap<u32, BTreeSet<u32>>,
    /// The execution models of each entry point (`GetExecutionModels`).
    pub(super) models: BTreeMap<u32, BTreeSet<u32>>,
    /// The last `LocalSize` or `LocalSizeId` of each entry point, by instruction index.
    local_size: BTreeMap<u32, usize>,
    /// An `OpDecorate ... BuiltIn WorkgroupSize` before the first function.
    workgroup_size: bool,
    /// An `OpExecutionModeId ... LocalSizeId` before the first function.
    local_size_id: bool,
}

impl Modes {
    fn of(q: &Query<'_>) -> Self {
        let mut m = Modes::default();
        let mut before_functions = true;
        for (index, inst) in q.module.instructions().enumerate() {
            let w = inst.words();
            let word = |i: usize| w.get(i).copied().unwrap_or(0);
            match inst.opcode() {
                O::Function => before_functions = false,
                O::EntryPoint => {
                    m.models.entry(word(2)).or_default().insert(word(1));
                }
                O::ConditionalEntryPointINTEL => {
                    m.models.entry(word(3)).or_default().insert(word(2));
                }
                O::ExecutionMode | O::ExecutionModeId => {
                    let (entry, mode) = (word(1), word(2));
                    m.modes.entry(entry).or_default().insert(mode);
                    if mode == M::LocalSize.0 || mode == M::LocalSizeId.0 {
                        m.local_size.insert(entry, index);
                    }
                    if inst.opcode() == O::ExecutionModeId && mode == M::LocalSizeId.0 {
                        m.local_size_id |= before_functions;
                    }
                }
                O::Decorate
                    if before_functions
                        && w.len() > 3
                        && word(2) == spv::Decoration::BuiltIn.0
                        && word(3) == spv::BuiltIn::WorkgroupSize.0 =>
                {
                    m.workgroup_size = true;
                }
                _ => {}
            }
        }
        m
    }

    /// Whether entry point `entry` has `mode`.
    pub(super) fn has(&self, entry: u32, mode: M) -> bool {
        self.modes.get(&entry).is_some_and(|s| s.contains(&mode.0))
    }

    /// How many of `modes` entry point `entry` has.
    fn count(&self, entry: u32, modes: &[M]) -> usize {
        modes.iter().filter(|m| self.has(entry, **m)).count()
    }
}

/// What the pass keeps across instructions.
#[derive(Debug, Default)]
pub(super) struct ModeSetting {
    modes: Option<Modes>,
}

impl ModeSetting {
    /// The modes, gathered on first use.
    pub(super) fn modes(&mut self, q: &Query<'_>) -> &Modes {
        self.modes.get_or_insert_with(|| Modes::of(q))
    }
}

/// The mode-setting pass for one instruction.
#[inline(always)]
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>, state: &mut ModeSetting) -> Result<(), Fault> {
    let operands = inst.words.get(1..).unwrap_or(&[]);
    match inst.opcode {
        O::EntryPoint => entry_point(q, operands, state.modes(q))?,
        O::ExecutionMode | O::ExecutionModeId => {
            let id = operands.first().copied().unwrap_or(0);
            if !q.state.entry_points.contains(&id) {
                return Err(ValidationErrorKind::ModeWithoutEntryPoint { id: Id(id) }.into());
            }
            execution::execution_mode(q, inst, state.modes(q))?;
        }
        O::MemoryModel => execution::memory_model(q)?,
        O::Capability => execution::capability(q, operands)?,
        _ => {}
    }
    Ok(())
}

/// A fault at the instruction being checked.
fn rule(kind: ModeError) -> Fault {
    ValidationErrorKind::Mode(kind).into()
}

/// spirv-val's `ValidateEntryPoint` for one `OpEntryPoint`.
fn entry_point(q: &Query<'_>, operands: &[u32], modes: &Modes) -> Result<(), Fault> {
    let id = operands.get(1).copied().unwrap_or(0);
    let function = match q.def(id) {
        Some(f) if f.opcode() == O::Function => f,
        _ => return Err(ValidationErrorKind::EntryPointNotFunction { id: Id(id) }.into()),
    };
    let vulkan = q.state.options.target_env.is_vulkan();
    let fw = function.words();
    let model = EM(operands.first().copied().unwrap_or(u32::MAX));
    if model != EM::Kernel {
        let params = q
            .def(fw.get(4).copied().unwrap_or(0))
            .map(|t| t.words().len());
        if params != Some(3) {
            return Err(ValidationErrorKind::EntryPointParameters { id: Id(id) }.into());
        }
    }
    match q.def(fw.get(1).copied().unwrap_or(0)) {
        Some(t) if t.opcode() == O::TypeVoid => {}
        _ => return Err(ValidationErrorKind::EntryPointReturnType { id: Id(id) }.into()),
    }
    let has_cap = |c: C| q.state.has_capability(c.0);
    if has_cap(C::Shader) {
        model_modes(modes, id, model)?;
    }
    let has = |m: M| modes.has(id, m);
    if vulkan {
        vulkan_modes(q, modes, id, model)?;
    }
    let Some(&at) = modes.local_size.get(&id) else {
        return Ok(());
    };
    if modes.workgroup_size {
        return Ok(());
    }
    let Some(ls) = q.module.instruction(at) else {
        return Ok(());
    };
    let w = ls.words();
    let word = |i: usize| w.get(i).copied().unwrap_or(0);
    let at = at as u32;
    let fault = |kind: ModeError| Fault::at(ValidationErrorKind::Mode(kind), at);
    let (quads, linear) = (
        has(M::DerivativeGroupQuadsKHR),
        has(M::DerivativeGroupLinearKHR),
    );
    let (size, product, id_mode) = if word(2) == M::LocalSize.0 {
        let (x, y, z) = (word(3), word(4), word(5));
        // spirv-val multiplies in 32 bits.
        let product = x.wrapping_mul(y).wrapping_mul(z);
        ([x, y, z].map(u64::from), u64::from(product), false)
    } else if word(2) == M::LocalSizeId.0 {
        let size = [3, 4, 5].map(|i| q.constant_u64(word(i)));
        let [Some(x), Some(y), Some(z)] = size else {
            return Ok(());
        };
        ([x, y, z], x.wrapping_mul(y).wrapping_mul(z), true)
    } else {
        return Ok(());
    };
    let [x, y, z] = size;
    let entry = Id(id);
    if product == 0 {
        return Err(fault(if id_mode {
            ModeError::LocalSizeIdZero { x, y, z }
        } else {
            ModeError::LocalSizeZero { x, y, z }
        }));
    }
    if quads && (x % 2 != 0 || y % 2 != 0) {
        return Err(fault(if id_mode {
            ModeError::QuadsOddId { x, y, entry }
        } else {
            ModeError::QuadsOdd { x, y, entry }
        }));
    }
    if linear && product % 4 != 0 {
        return Err(fault(if id_mode {
            ModeError::LinearNotFourId {
                x,
                y,
                z,
                entry,
                product,
            }
        } else {
            ModeError::LinearNotFour {
                x,
                y,
                z,
                entry,
                product,
            }
        }));
    }
    Ok(())
}

/// The modes an entry point of a shader model needs, or may have one of.
fn model_modes(modes: &Modes, id: u32, model: EM) -> Result<(), Fault> {
    let has = |m: M| modes.has(id, m);
    let count = |ms: &[M]| modes.count(id, ms);
    match model {
        EM::Fragment => {
            let (upper, lower) = (has(M::OriginUpperLeft), has(M::OriginLowerLeft));
            if upper && lower {
                return Err(rule(ModeError::FragmentTwoOrigins));
            }
            if !upper && !lower {
                return Err(rule(ModeError::FragmentNoOrigin));
            }
            if count(&[M::DepthGreater, M::DepthLess, M::DepthUnchanged]) > 1 {
                return Err(rule(ModeError::FragmentDepthModes));
            }
            let interlock = [
                M::PixelInterlockOrderedEXT,
                M::PixelInterlockUnorderedEXT,
                M::SampleInterlockOrderedEXT,
                M::SampleInterlockUnorderedEXT,
                M::ShadingRateInterlockOrderedEXT,
                M::ShadingRateInterlockUnorderedEXT,
            ];
            if count(&interlock) > 1 {
                return Err(rule(ModeError::FragmentInterlockModes));
            }
            let front = [
                M::StencilRefUnchangedFrontAMD,
                M::StencilRefLessFrontAMD,
                M::StencilRefGreaterFrontAMD,
            ];
            if count(&front) > 1 {
                return Err(rule(ModeError::FragmentStencilFrontModes));
            }
            let back = [
                M::StencilRefUnchangedBackAMD,
                M::StencilRefLessBackAMD,
                M::StencilRefGreaterBackAMD,
            ];
            if count(&back) > 1 {
                return Err(rule(ModeError::FragmentStencilBackModes));
            }
        }
        EM::TessellationControl | EM::TessellationEvaluation => {
            let spacing = [
                M::SpacingEqual,
                M::SpacingFractionalEven,
                M::SpacingFractionalOdd,
            ];
            if count(&spacing) > 1 {
                return Err(rule(ModeError::TessellationSpacingModes));
            }
            if count(&[M::Triangles, M::Quads, M::Isolines]) > 1 {
                return Err(rule(ModeError::TessellationPrimitiveModes));
            }
            if count(&[M::VertexOrderCw, M::VertexOrderCcw]) > 1 {
                return Err(rule(ModeError::TessellationOrderModes));
            }
        }
        EM::Geometry => {
            let input = [
                M::InputPoints,
                M::InputLines,
                M::InputLinesAdjacency,
                M::Triangles,
                M::InputTrianglesAdjacency,
            ];
            if count(&input) != 1 {
                return Err(rule(ModeError::GeometryInputModes));
            }
            if count(&[M::OutputPoints, M::OutputLineStrip, M::OutputTriangleStrip]) != 1 {
                return Err(rule(ModeError::GeometryOutputModes));
            }
        }
        EM::MeshEXT => {
            if count(&[M::OutputPoints, M::OutputLinesEXT, M::OutputTrianglesEXT]) != 1 {
                return Err(rule(ModeError::MeshOutputModes));
            }
            if count(&[M::OutputPrimitivesEXT, M::OutputVertices]) != 2 {
                return Err(rule(ModeError::MeshOutputCounts));
            }
        }
        _ => {}
    }
    Ok(())
}

/// The Vulkan rules of an entry point's modes: a workgroup size for GLCompute, and
/// where the tile-shading modes and capability may be.
fn vulkan_modes(q: &Query<'_>, modes: &Modes, id: u32, model: EM) -> Result<(), Fault> {
    let has = |m: M| modes.has(id, m);
    let tile = q.state.has_capability(C::TileShadingQCOM.0);
    if model == EM::GLCompute {
        if !has(M::LocalSize) {
            let ok = modes.workgroup_size
                || modes.local_size_id
                || (tile && has(M::TileShadingRateQCOM));
            if !ok {
                return Err(rule(if tile {
                    ModeError::NoLocalSizeOrTileRate
                } else {
                    ModeError::NoLocalSize
                }));
            }
        }
        if tile {
            if has(M::TileShadingRateQCOM) && (has(M::LocalSize) || has(M::LocalSizeId)) {
                return Err(rule(ModeError::TileRateWithLocalSize));
            }
            if has(M::NonCoherentTileAttachmentReadQCOM) {
                return Err(rule(ModeError::TileReadNotFragment));
            }
        } else if has(M::TileShadingRateQCOM) {
            return Err(rule(ModeError::TileRateNeedsCapability));
        }
        return Ok(());
    }
    if has(M::TileShadingRateQCOM) {
        return Err(rule(ModeError::TileRateNotCompute));
    }
    if model != EM::Fragment {
        if has(M::NonCoherentTileAttachmentReadQCOM) {
            return Err(rule(ModeError::TileReadNotFragment));
        }
        if tile {
            return Err(rule(ModeError::TileCapabilityStage));
        }
    } else if has(M::NonCoherentTileAttachmentReadQCOM) && !tile {
        return Err(rule(ModeError::TileReadNeedsCapability));
    }
    Ok(())
}

/// What this family checks (see [`coverage`](crate::validate::coverage)).
pub(crate) const COVERAGE: crate::validate::coverage::Family = crate::validate::coverage::Family {
    opcodes: {
        use crate::spv::Opcode as O;
        &[
            O::EntryPoint,
            O::ExecutionMode,
            O::ExecutionModeId,
            O::MemoryModel,
            O::Capability,
        ]
    },
    ..crate::validate::coverage::Family::new("mode setting", "validate_mode_setting.cpp")
};
