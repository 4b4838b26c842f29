//! spirv-val's mode-setting pass (`ModeSettingPass` in `validate_mode_setting.cpp`)
//! for one instruction: an entry point is a function without parameters that returns
//! nothing, whose execution modes suit its execution model (`ValidateEntryPoint`); an
//! execution mode names an entry point (the rest of `ValidateExecutionMode`, with the
//! memory-model and capability rules, is in `mode_execution.rs`). What the pass reads
//! of every entry point's modes is gathered once, at the first instruction that needs
//! it ([`Modes`]).

use super::Query;
use super::error::ErrorKind;
use super::mode_execution;
use super::mode_text::ModeError;
use super::{Fault, Inst};
use crate::spv::{self, Capability as C, ExecutionMode as M, ExecutionModel as EM, Opcode as O};
use crate::types::Id;
use alloc::collections::{BTreeMap, BTreeSet};

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
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>, state: &mut ModeSetting) -> Result<(), Fault> {
    let operands = inst.words.get(1..).unwrap_or(&[]);
    match inst.opcode {
        O::EntryPoint => entry_point(q, operands, state.modes(q))?,
        O::ExecutionMode | O::ExecutionModeId => {
            let id = operands.first().copied().unwrap_or(0);
            if !q.state.entry_points.contains(&id) {
                return Err(ErrorKind::ModeWithoutEntryPoint { id: Id(id) }.into());
            }
            mode_execution::execution_mode(q, inst, state.modes(q))?;
        }
        O::MemoryModel => mode_execution::memory_model(q)?,
        O::Capability => mode_execution::capability(q, operands)?,
        _ => {}
    }
    Ok(())
}

fn rule(text: &'static str) -> Fault {
    ErrorKind::Mode(ModeError::Rule { text }).into()
}

/// spirv-val's `ValidateEntryPoint` for one `OpEntryPoint`.
fn entry_point(q: &Query<'_>, operands: &[u32], modes: &Modes) -> Result<(), Fault> {
    let id = operands.get(1).copied().unwrap_or(0);
    let function = match q.def(id) {
        Some(f) if f.opcode() == O::Function => f,
        _ => return Err(ErrorKind::EntryPointNotFunction { id: Id(id) }.into()),
    };
    let vulkan = q.state.options.target_env.is_vulkan();
    let fw = function.words();
    let model = EM(operands.first().copied().unwrap_or(u32::MAX));
    if model != EM::Kernel {
        let params = q
            .def(fw.get(4).copied().unwrap_or(0))
            .map(|t| t.words().len());
        if params != Some(3) {
            return Err(ErrorKind::EntryPointParameters { id: Id(id) }.into());
        }
    }
    match q.def(fw.get(1).copied().unwrap_or(0)) {
        Some(t) if t.opcode() == O::TypeVoid => {}
        _ => return Err(ErrorKind::EntryPointReturnType { id: Id(id) }.into()),
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
    let fault = |kind: ModeError| Fault::at(ErrorKind::Mode(kind), at);
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
    if product == 0 {
        return Err(fault(ModeError::LocalSizeZero { id_mode, size }));
    }
    if quads && (size[0] % 2 != 0 || size[1] % 2 != 0) {
        return Err(fault(ModeError::QuadsOdd {
            vuid: vulkan,
            id_mode,
            size: [size[0], size[1]],
            entry: id,
        }));
    }
    if linear && product % 4 != 0 {
        return Err(fault(ModeError::LinearNotFour {
            vuid: vulkan,
            id_mode,
            size,
            entry: id,
            product,
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
                return Err(rule(
                    "Fragment execution model entry points can only specify one of OriginUpperLeft or OriginLowerLeft execution modes.",
                ));
            }
            if !upper && !lower {
                return Err(rule(
                    "Fragment execution model entry points require either an OriginUpperLeft or OriginLowerLeft execution mode.",
                ));
            }
            if count(&[M::DepthGreater, M::DepthLess, M::DepthUnchanged]) > 1 {
                return Err(rule(
                    "Fragment execution model entry points can specify at most one of DepthGreater, DepthLess or DepthUnchanged execution modes.",
                ));
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
                return Err(rule(
                    "Fragment execution model entry points can specify at most one fragment shader interlock execution mode.",
                ));
            }
            let front = [
                M::StencilRefUnchangedFrontAMD,
                M::StencilRefLessFrontAMD,
                M::StencilRefGreaterFrontAMD,
            ];
            if count(&front) > 1 {
                return Err(rule(
                    "Fragment execution model entry points can specify at most one of StencilRefUnchangedFrontAMD, StencilRefLessFrontAMD or StencilRefGreaterFrontAMD execution modes.",
                ));
            }
            let back = [
                M::StencilRefUnchangedBackAMD,
                M::StencilRefLessBackAMD,
                M::StencilRefGreaterBackAMD,
            ];
            if count(&back) > 1 {
                return Err(rule(
                    "Fragment execution model entry points can specify at most one of StencilRefUnchangedBackAMD, StencilRefLessBackAMD or StencilRefGreaterBackAMD execution modes.",
                ));
            }
        }
        EM::TessellationControl | EM::TessellationEvaluation => {
            let spacing = [
                M::SpacingEqual,
                M::SpacingFractionalEven,
                M::SpacingFractionalOdd,
            ];
            if count(&spacing) > 1 {
                return Err(rule(
                    "Tessellation execution model entry points can specify at most one of SpacingEqual, SpacingFractionalOdd or SpacingFractionalEven execution modes.",
                ));
            }
            if count(&[M::Triangles, M::Quads, M::Isolines]) > 1 {
                return Err(rule(
                    "Tessellation execution model entry points can specify at most one of Triangles, Quads or Isolines execution modes.",
                ));
            }
            if count(&[M::VertexOrderCw, M::VertexOrderCcw]) > 1 {
                return Err(rule(
                    "Tessellation execution model entry points can specify at most one of VertexOrderCw or VertexOrderCcw execution modes.",
                ));
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
                return Err(rule(
                    "Geometry execution model entry points must specify exactly one of InputPoints, InputLines, InputLinesAdjacency, Triangles or InputTrianglesAdjacency execution modes.",
                ));
            }
            if count(&[M::OutputPoints, M::OutputLineStrip, M::OutputTriangleStrip]) != 1 {
                return Err(rule(
                    "Geometry execution model entry points must specify exactly one of OutputPoints, OutputLineStrip or OutputTriangleStrip execution modes.",
                ));
            }
        }
        EM::MeshEXT => {
            if count(&[M::OutputPoints, M::OutputLinesEXT, M::OutputTrianglesEXT]) != 1 {
                return Err(rule(
                    "MeshEXT execution model entry points must specify exactly one of OutputPoints, OutputLinesEXT, or OutputTrianglesEXT Execution Modes.",
                ));
            }
            if count(&[M::OutputPrimitivesEXT, M::OutputVertices]) != 2 {
                return Err(rule(
                    "MeshEXT execution model entry points must specify both OutputPrimitivesEXT and OutputVertices Execution Modes.",
                ));
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
    let not_fragment = "The NonCoherentTileAttachmentQCOM execution mode must not be used in any stage other than fragment.";
    if model == EM::GLCompute {
        if !has(M::LocalSize) {
            let ok = modes.workgroup_size
                || modes.local_size_id
                || (tile && has(M::TileShadingRateQCOM));
            if !ok {
                return Err(ErrorKind::Mode(ModeError::NoLocalSize { tile }).into());
            }
        }
        if tile {
            if has(M::TileShadingRateQCOM) && (has(M::LocalSize) || has(M::LocalSizeId)) {
                return Err(rule(
                    "If the TileShadingRateQCOM execution mode is used, LocalSize and LocalSizeId must not be specified.",
                ));
            }
            if has(M::NonCoherentTileAttachmentReadQCOM) {
                return Err(rule(not_fragment));
            }
        } else if has(M::TileShadingRateQCOM) {
            return Err(rule(
                "If the TileShadingRateQCOM execution mode is used, the TileShadingQCOM capability must be enabled.",
            ));
        }
        return Ok(());
    }
    if has(M::TileShadingRateQCOM) {
        return Err(rule(
            "The TileShadingRateQCOM execution mode must not be used in any stage other than compute.",
        ));
    }
    if model != EM::Fragment {
        if has(M::NonCoherentTileAttachmentReadQCOM) {
            return Err(rule(not_fragment));
        }
        if tile {
            return Err(rule(
                "The TileShadingQCOM capability must not be enabled in any stage other than compute or fragment.",
            ));
        }
    } else if has(M::NonCoherentTileAttachmentReadQCOM) && !tile {
        return Err(rule(
            "If the NonCoherentTileAttachmentReadQCOM execution mode is used, the TileShadingQCOM capability must be enabled.",
        ));
    }
    Ok(())
}
