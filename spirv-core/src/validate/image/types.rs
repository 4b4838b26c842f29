//! spirv-val's `ValidateTypeImage` and `ValidateTypeSampledImage`: an image type's
//! sampled type and operands under the universal, Vulkan and OpenCL rules, and the
//! image a sampled image type may hold.

use super::{ImageError as E, ImageInfo};
use crate::spv::{Capability as C, Dim, Opcode as O};
use crate::validate::{Fault, Inst, Query};

/// `ValidateTypeImage`.
pub(super) fn type_image(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let info = ImageInfo::get(q, inst.result_id)?;
    let has = |c: C| q.state.has_capability(c.0);
    let sampled = info.sampled_type;
    let width = q.bit_width(sampled);
    if q.is_int_scalar_type(sampled) && width == 64 && !has(C::Int64ImageEXT) {
        return Err(E::Int64Image.into());
    }
    let env = q.state.options.target_env;
    if env.is_vulkan() {
        let float = q.is_float_scalar_type(sampled);
        if (!float && !q.is_int_scalar_type(sampled))
            || (width != 32 && width != 64)
            || (width == 64 && float)
        {
            return Err(E::VulkanSampledType.into());
        }
    } else if env.is_opencl() {
        if !q.is_void_type(sampled) {
            return Err(E::OpenClSampledType.into());
        }
    } else if !matches!(q.opcode(sampled), O::TypeVoid | O::TypeInt | O::TypeFloat) {
        return Err(E::SampledType.into());
    }
    if info.depth > 2 {
        return Err(E::Depth { value: info.depth }.into());
    }
    if info.arrayed > 1 {
        return Err(E::Arrayed {
            value: info.arrayed,
        }
        .into());
    }
    if info.multisampled > 1 {
        return Err(E::Multisampled {
            value: info.multisampled,
        }
        .into());
    }
    if info.sampled > 2 {
        return Err(E::Sampled {
            value: info.sampled,
        }
        .into());
    }
    const UNKNOWN: u32 = crate::spv::ImageFormat::Unknown.0;
    match info.dim {
        Dim::SubpassData => {
            if info.sampled != 2 {
                return Err(E::SubpassSampled.into());
            }
            if info.format != UNKNOWN {
                return Err(E::SubpassFormat.into());
            }
        }
        Dim::TileImageDataEXT => {
            if q.is_void_type(sampled) {
                return Err(E::TileVoid.into());
            }
            if info.sampled != 2 {
                return Err(E::TileSampled.into());
            }
            if info.format != UNKNOWN {
                return Err(E::TileFormat.into());
            }
            if info.depth != 0 {
                return Err(E::TileDepth.into());
            }
            if info.arrayed != 0 {
                return Err(E::TileArrayed.into());
            }
        }
        _ => {
            if info.multisampled != 0 && info.sampled == 2 && !has(C::StorageImageMultisample) {
                return Err(E::StorageMultisample.into());
            }
        }
    }
    if env.is_opencl() {
        if info.arrayed == 1 && info.dim != Dim::Dim1D && info.dim != Dim::Dim2D {
            return Err(E::OpenClArrayed.into());
        }
        if info.multisampled != 0 {
            return Err(E::OpenClMultisampled.into());
        }
        if info.sampled != 0 {
            return Err(E::OpenClSampled.into());
        }
        if info.access.is_none() {
            return Err(E::OpenClAccess.into());
        }
    }
    if env.is_vulkan() {
        if info.sampled == 0 {
            return Err(E::VulkanSampled.into());
        }
        if info.dim == Dim::SubpassData && info.arrayed != 0 {
            return Err(E::VulkanSubpassArrayed.into());
        }
        if info.dim == Dim::Rect {
            return Err(E::VulkanRect.into());
        }
    }
    Ok(())
}

/// `ValidateTypeSampledImage`.
pub(super) fn type_sampled_image(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let image = inst.word(1);
    if q.opcode(image) != O::TypeImage {
        return Err(E::SampledImageImage.into());
    }
    let info = ImageInfo::get(q, image)?;
    if info.sampled != 0 && info.sampled != 1 {
        return Err(E::SampledImageSampled.into());
    }
    if q.state.version >= (1, 6) && info.dim == Dim::Buffer {
        return Err(E::SampledImageBuffer.into());
    }
    Ok(())
}
