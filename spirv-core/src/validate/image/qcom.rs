//! spirv-val's QCOM image-processing rules (`validate_image.cpp`): the textures and
//! samplers `OpImageSampleWeightedQCOM` and the block-match instructions read must be
//! loaded from variables with the matching decoration
//! (`ValidateImageProcessingQCOM`), and a texture so decorated, once it reaches an
//! `OpSampledImage`, may feed no other image instruction
//! (`ValidateQCOMImageProcessingTextureUsages`, after the whole-module passes).

use super::ImageError as E;
use crate::__private::Vec;
use crate::spv::{Decoration as D, Opcode, Opcode as O};
use crate::validate::validation_state::{OperandMemo, memoized};
use crate::validate::{Fault, Inst, Query};

/// The QCOM image-processing instructions.
pub(super) fn is_processing(opcode: Opcode) -> bool {
    matches!(
        opcode,
        O::ImageSampleWeightedQCOM
            | O::ImageBoxFilterQCOM
            | O::ImageBlockMatchSSDQCOM
            | O::ImageBlockMatchSADQCOM
            | O::ImageBlockMatchWindowSADQCOM
            | O::ImageBlockMatchWindowSSDQCOM
            | O::ImageBlockMatchGatherSADQCOM
            | O::ImageBlockMatchGatherSSDQCOM
    )
}

/// A fault at the definition of `id`.
fn at(q: &Query<'_>, id: u32, e: E) -> Fault {
    match q.state.def(id) {
        Some(d) => Fault::at(e.into(), d.index),
        None => e.into(),
    }
}

/// The variable `OpLoad` `id` loads from, or the fault at its definition.
fn loaded(q: &Query<'_>, id: u32) -> Result<u32, Fault> {
    if q.opcode(id) != O::Load {
        return Err(at(q, id, E::ExpectLoad));
    }
    Ok(q.word(id, 3).unwrap_or(0))
}

/// `ValidateImageProcessingQCOMDecoration`: operand `id` (a loaded texture, or a
/// sampled image of one) comes from a variable decorated `decoration`.
fn decorated(q: &Query<'_>, id: u32, decoration: D) -> Result<(), Fault> {
    let mut load = id;
    if q.opcode(id) == O::SampledImage {
        load = q.word(id, 3).unwrap_or(0);
    }
    if q.def(load).is_none() {
        return Ok(());
    }
    let texture = loaded(q, load)?;
    if !q.decorations.has(texture, decoration.0) {
        return Err(at(q, load, E::MissingDecoration { decoration }));
    }
    Ok(())
}

/// `ValidateImageProcessing2QCOMWindowDecoration`: a window block match's operand
/// comes from a texture and sampler decorated for block matching.
fn window(q: &Query<'_>, id: u32) -> Result<(), Fault> {
    if q.def(id).is_none() {
        return Ok(());
    }
    let missing = |decoration| at(q, id, E::MissingDecoration { decoration });
    if q.opcode(id) != O::SampledImage {
        let texture = loaded(q, id)?;
        for d in [D::BlockMatchTextureQCOM, D::BlockMatchSamplerQCOM] {
            if !q.decorations.has(texture, d.0) {
                return Err(missing(d));
            }
        }
        return Ok(());
    }
    let texture = loaded(q, q.word(id, 3).unwrap_or(0))?;
    if !q.decorations.has(texture, D::BlockMatchTextureQCOM.0) {
        return Err(missing(D::BlockMatchTextureQCOM));
    }
    let sampler = loaded(q, q.word(id, 4).unwrap_or(0))?;
    if !q.decorations.has(sampler, D::BlockMatchSamplerQCOM.0) {
        return Err(missing(D::BlockMatchSamplerQCOM));
    }
    Ok(())
}

/// `ValidateImageProcessingQCOM`: the target (operand 2) and reference (operand 4)
/// of the block matches, the weights (operand 4) of the weighted sample.
pub(super) fn processing(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    match inst.opcode {
        O::ImageSampleWeightedQCOM => decorated(q, inst.word(4), D::WeightTextureQCOM),
        O::ImageBlockMatchSSDQCOM
        | O::ImageBlockMatchSADQCOM
        | O::ImageBlockMatchGatherSSDQCOM
        | O::ImageBlockMatchGatherSADQCOM => {
            decorated(q, inst.word(2), D::BlockMatchTextureQCOM)?;
            decorated(q, inst.word(4), D::BlockMatchTextureQCOM)
        }
        O::ImageBlockMatchWindowSSDQCOM | O::ImageBlockMatchWindowSADQCOM => {
            window(q, inst.word(2))?;
            window(q, inst.word(4))
        }
        _ => Ok(()),
    }
}

/// `IsImageInstruction` without the QCOM instructions: those whose operands may
/// not be QCOM-decorated textures.
fn is_other_image_instruction(opcode: Opcode) -> bool {
    matches!(
        opcode,
        O::ImageSampleImplicitLod
            | O::ImageSampleDrefImplicitLod
            | O::ImageSampleProjImplicitLod
            | O::ImageSampleProjDrefImplicitLod
            | O::ImageSparseSampleImplicitLod
            | O::ImageSparseSampleDrefImplicitLod
            | O::ImageSparseSampleProjImplicitLod
            | O::ImageSparseSampleProjDrefImplicitLod
            | O::ImageSampleExplicitLod
            | O::ImageSampleDrefExplicitLod
            | O::ImageSampleProjExplicitLod
            | O::ImageSampleProjDrefExplicitLod
            | O::ImageSparseSampleExplicitLod
            | O::ImageSparseSampleDrefExplicitLod
            | O::ImageSparseSampleProjExplicitLod
            | O::ImageSparseSampleProjDrefExplicitLod
            | O::Image
            | O::ImageFetch
            | O::ImageSparseFetch
            | O::ImageGather
            | O::ImageDrefGather
            | O::ImageSparseGather
            | O::ImageSparseDrefGather
            | O::ImageRead
            | O::ImageSparseRead
            | O::ImageWrite
            | O::ImageQueryFormat
            | O::ImageQueryOrder
            | O::ImageQuerySizeLod
            | O::ImageQuerySize
            | O::ImageQueryLod
            | O::ImageQueryLevels
            | O::ImageQuerySamples
    )
}

/// `ValidateQCOMImageProcessingTextureUsages` over the module: the loads of
/// QCOM-decorated textures, and the sampled images of those loads, are the QCOM
/// consumers (`RegisterQCOMImageProcessingTextureConsumer`);
/// the first other image instruction with one among its operands is the fault.
pub(in crate::validate) fn texture_usages(q: &Query<'_>, report: &mut dyn FnMut(Fault) -> bool) {
    let kinds = [
        D::WeightTextureQCOM,
        D::BlockMatchTextureQCOM,
        D::BlockMatchSamplerQCOM,
    ];
    // Without the decorations there is no texture to ask about.
    if !kinds.iter().any(|d| q.decorations.any(d.0)) {
        return;
    }
    let decorated = |pointer: u32| kinds.iter().any(|d| q.decorations.has(pointer, d.0));
    let mut consumers: Vec<u32> = Vec::new();
    for (id, def) in q.state.defs.iter() {
        match def.opcode {
            // The memory pass registers each load of a decorated texture.
            O::Load if decorated(q.word(id, 3).unwrap_or(0)) => consumers.push(id),
            // And the image pass each sampled image of one.
            O::SampledImage => {
                let load = q.word(id, 3).unwrap_or(0);
                if q.opcode(load) == O::Load && decorated(q.word(load, 3).unwrap_or(0)) {
                    consumers.push(id);
                }
            }
            _ => {}
        }
    }
    if consumers.is_empty() {
        return;
    }
    consumers.sort_unstable();
    let mut operands = OperandMemo::default();
    for index in 0..q.module.len() {
        let Some(raw) = q.module.instruction(index) else {
            continue;
        };
        if !is_other_image_instruction(raw.opcode()) {
            continue;
        }
        let Some(inst) = memoized(q.module, q.state, index, &mut operands) else {
            continue;
        };
        let uses = inst.operands.iter().any(|op| {
            let id = inst.words.get(op.offset).copied().unwrap_or(0);
            matches!(q.opcode(id), O::Load | O::SampledImage)
                && consumers.binary_search(&id).is_ok()
        });
        if uses && !report(Fault::at(E::QcomTextureUse.into(), index as u32)) {
            return;
        }
    }
}
