//! spirv-val's `ValidateImageOperands`: an image instruction's image-operands mask
//! against the words that follow it (each operand's word count from the grammar), then
//! each operand set, in the grammar's order of the bits, against the instruction and
//! the image.

use super::{ImageError as E, ImageInfo, is_explicit_lod, is_implicit_lod};
use crate::grammar::Enum;
use crate::spirv_tools::is_constant;
use crate::spv::{Capability as C, Dim, ImageOperands as Io, Opcode, Opcode as O};
use crate::validate::scopes::validate_memory_scope;
use crate::validate::{Fault, Inst, Query};

/// The words the operands of `mask` take: each bit's parameters in the grammar (one
/// word for a bit the grammar does not know, as spirv-val counts it).
fn operand_words(mask: u32) -> usize {
    (0..32)
        .map(|b| 1u32 << b)
        .filter(|bit| mask & bit != 0)
        .map(|bit| Io(bit).info().map_or(1, |e| e.parameters.len()))
        .sum()
}

/// Whether `opcode` is a gather.
fn is_gather(opcode: Opcode) -> bool {
    matches!(
        opcode,
        O::ImageGather | O::ImageDrefGather | O::ImageSparseGather | O::ImageSparseDrefGather
    )
}

/// `ValidateImageOperands`: `at` is the index of the first word after the mask (the
/// mask is absent when the instruction ends before it). Always an instruction's last
/// rule.
pub(super) fn check(
    q: &Query<'_>,
    inst: &Inst<'_>,
    info: &ImageInfo,
    at: usize,
) -> Result<(), Fault> {
    let opcode = inst.opcode;
    let words = inst.words;
    let n = words.len();
    let mask = words.get(at - 1).copied();
    match mask {
        Some(mask) if operand_words(mask) != n - at => return Err(E::OperandCount.into()),
        None if n != at - 1 => return Err(E::OperandCount.into()),
        _ => {}
    }
    let mask = mask.unwrap_or(0);
    let has = |bit: Io| mask & bit.0 != 0;
    if info.multisampled != 0 && !has(Io::SAMPLE) {
        return Err(E::SampleRequired.into());
    }
    if mask == 0 {
        return Ok(());
    }
    let offsets = mask & (Io::OFFSET.0 | Io::CONST_OFFSET.0 | Io::CONST_OFFSETS.0 | Io::OFFSETS.0);
    if offsets.count_ones() > 1 {
        return Err(E::Offsets.into());
    }
    let implicit = is_implicit_lod(opcode);
    let explicit = is_explicit_lod(opcode);
    let lod_operand = match opcode {
        O::ImageRead | O::ImageWrite | O::ImageSparseRead => {
            q.state.has_capability(C::ImageReadWriteLodAMD.0)
        }
        _ => explicit,
    };
    let gather_bias = matches!(opcode, O::ImageGather | O::ImageSparseGather)
        && q.state.has_capability(C::ImageGatherBiasLodAMD.0);
    let mut next = at;
    let mut operand = || {
        let id = words.get(next).copied().unwrap_or(0);
        next += 1;
        id
    };
    if has(Io::BIAS) {
        if !implicit && !gather_bias {
            return Err(E::BiasOpcode.into());
        }
        if !q.is_float_scalar_type(q.type_of(operand())) {
            return Err(E::BiasType.into());
        }
        if !info.is_lod_dim() {
            return Err(E::BiasDim.into());
        }
    }
    if has(Io::LOD) {
        if !lod_operand && !matches!(opcode, O::ImageFetch | O::ImageSparseFetch) && !gather_bias {
            return Err(E::LodOpcode.into());
        }
        if has(Io::GRAD) {
            return Err(E::LodGrad.into());
        }
        let t = q.type_of(operand());
        if explicit || gather_bias {
            if !q.is_float_scalar_type(t) {
                return Err(E::LodFloat.into());
            }
        } else if !q.is_int_scalar_type(t) {
            return Err(E::LodInt.into());
        }
        if !info.is_lod_dim() {
            return Err(E::LodDim.into());
        }
    }
    if has(Io::GRAD) {
        if !explicit {
            return Err(E::GradOpcode.into());
        }
        let dx = q.type_of(operand());
        let dy = q.type_of(operand());
        if !q.is_float_scalar_or_vector_type(dx) || !q.is_float_scalar_or_vector_type(dy) {
            return Err(E::GradType.into());
        }
        let expected = info.plane_size();
        let (dx, dy) = (q.dimension(dx), q.dimension(dy));
        if expected != dx {
            return Err(E::GradDx {
                expected,
                actual: dx,
            }
            .into());
        }
        if expected != dy {
            return Err(E::GradDy {
                expected,
                actual: dy,
            }
            .into());
        }
    }
    if has(Io::CONST_OFFSET) {
        if info.dim == Dim::Cube {
            return Err(E::ConstOffsetCube.into());
        }
        let id = operand();
        let t = q.type_of(id);
        if !q.is_int_scalar_or_vector_type(t) {
            return Err(E::ConstOffsetType.into());
        }
        if !is_constant(q.opcode(id)) {
            return Err(E::ConstOffsetConst.into());
        }
        let (expected, actual) = (info.plane_size(), q.dimension(t));
        if expected != actual {
            return Err(E::ConstOffsetSize { expected, actual }.into());
        }
    }
    if has(Io::OFFSET) {
        if info.dim == Dim::Cube {
            return Err(E::OffsetCube.into());
        }
        let t = q.type_of(operand());
        if !q.is_int_scalar_or_vector_type(t) {
            return Err(E::OffsetType.into());
        }
        let (expected, actual) = (info.plane_size(), q.dimension(t));
        if expected != actual {
            return Err(E::OffsetSize { expected, actual }.into());
        }
        let options = q.state.options;
        if !options.before_hlsl_legalization
            && options.target_env.is_vulkan()
            && !options.allow_offset_texture_operand
            && !is_gather(opcode)
        {
            return Err(E::OffsetGather.into());
        }
    }
    if has(Io::CONST_OFFSETS) {
        if !is_gather(opcode) {
            return Err(E::ConstOffsetsOpcode.into());
        }
        if info.dim == Dim::Cube {
            return Err(E::ConstOffsetsCube.into());
        }
        let id = operand();
        let t = q.type_of(id);
        if q.opcode(t) != O::TypeArray {
            return Err(E::ConstOffsetsArray.into());
        }
        let length = q.word(t, 3).and_then(|l| q.constant_u64(l));
        if length != Some(4) {
            return Err(E::ConstOffsetsArray.into());
        }
        let component = q.word(t, 2).unwrap_or(0);
        if !q.is_int_vector_type(component) || q.dimension(component) != 2 {
            return Err(E::ConstOffsetsComponents.into());
        }
        if !is_constant(q.opcode(id)) {
            return Err(E::ConstOffsetsConst.into());
        }
    }
    if has(Io::SAMPLE) {
        if !matches!(
            opcode,
            O::ImageFetch | O::ImageRead | O::ImageWrite | O::ImageSparseFetch | O::ImageSparseRead
        ) {
            return Err(E::SampleOpcode.into());
        }
        if info.multisampled == 0 {
            return Err(E::SampleMs.into());
        }
        if !q.is_int_scalar_type(q.type_of(operand())) {
            return Err(E::SampleType.into());
        }
    }
    if has(Io::MIN_LOD) {
        if !implicit && !has(Io::GRAD) {
            return Err(E::MinLodOpcode.into());
        }
        if !q.is_float_scalar_type(q.type_of(operand())) {
            return Err(E::MinLodType.into());
        }
        if !info.is_lod_dim() {
            return Err(E::MinLodDim.into());
        }
        if info.multisampled != 0 {
            return Err(E::MinLodMs.into());
        }
    }
    if has(Io::MAKE_TEXEL_AVAILABLE) {
        if opcode != O::ImageWrite {
            return Err(E::AvailableOpcode { opcode }.into());
        }
        if !has(Io::NON_PRIVATE_TEXEL) {
            return Err(E::AvailableNonPrivate { opcode }.into());
        }
        if !validate_memory_scope(q, inst, operand())? {
            return Ok(()); // spirv-val's fault, unworded here: nothing follows
        }
    }
    if has(Io::MAKE_TEXEL_VISIBLE) {
        if !matches!(opcode, O::ImageRead | O::ImageSparseRead) {
            return Err(E::VisibleOpcode { opcode }.into());
        }
        if !has(Io::NON_PRIVATE_TEXEL) {
            return Err(E::VisibleNonPrivate { opcode }.into());
        }
        if !validate_memory_scope(q, inst, operand())? {
            return Ok(()); // spirv-val's fault, unworded here: nothing follows
        }
    }
    // SignExtend, ZeroExtend, Offsets and Nontemporal have no rules here (their
    // versions and capabilities are checked with the other operands').
    Ok(())
}
