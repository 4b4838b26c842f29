//! spirv-val's rules of the image instructions (`validate_image.cpp`):
//! `OpSampledImage` and its consumers, `OpImageTexelPointer`, sampling (plain, dref,
//! projective, sparse), fetch, gather, read and write, `OpImage`, the queries and
//! `OpImageSparseTexelsResident`.

use super::{ImageError as E, ImageInfo, is_proj, is_sparse, operands};
use crate::__private::Vec;
use crate::grammar::KindClass;
use crate::spirv_tools::is_constant;
use crate::spv::{Capability as C, Dim, ImageFormat as F, Opcode, Opcode as O, StorageClass};
use crate::types::Id;
use crate::validate::limitations::{self, Limitation, rules};
use crate::validate::validation_state::{OperandMemo, memoized};
use crate::validate::{Fault, Inst, Query};

/// The uses of each `OpSampledImage` result (`getSampledImageConsumers`), found in one
/// walk of the module at the first `OpSampledImage` checked: each id operand whose
/// definition is an earlier `OpSampledImage`, with the block of each instruction.
#[derive(Debug, Default)]
pub(crate) struct Consumers {
    found: bool,
    /// (sampled image, consumer's index, consumer's block), by sampled image then
    /// module order.
    uses: Vec<(u32, u32, u32)>,
    /// (sampled image, its block), by sampled image.
    blocks: Vec<(u32, u32)>,
}

impl Consumers {
    fn find(&mut self, q: &Query<'_>) {
        self.found = true;
        let mut memo = OperandMemo::default();
        let mut block = 0;
        for index in 0..q.module.len() {
            let Some(inst) = memoized(q.module, q.state, index, &mut memo) else {
                continue;
            };
            match inst.opcode {
                O::Label => block = inst.result_id,
                O::Function | O::FunctionEnd => block = 0,
                O::SampledImage => self.blocks.push((inst.result_id, block)),
                _ => {}
            }
            for op in inst.operands {
                if op.kind.class != KindClass::Id {
                    continue;
                }
                let Some(&id) = inst.words.get(op.offset) else {
                    continue;
                };
                if let Some(d) = q.state.def(id)
                    && d.opcode == O::SampledImage
                    && (d.index as usize) < index
                {
                    self.uses.push((id, index as u32, block));
                }
            }
        }
        self.uses.sort_by_key(|u| (u.0, u.1));
        self.blocks.sort_unstable();
    }

    /// The uses of `id`, in module order, and its block.
    fn of(&mut self, q: &Query<'_>, id: u32) -> (&[(u32, u32, u32)], u32) {
        if !self.found {
            self.find(q);
        }
        let from = self.uses.partition_point(|u| u.0 < id);
        let to = self.uses.partition_point(|u| u.0 <= id);
        let block = match self.blocks.binary_search_by_key(&id, |b| b.0) {
            Ok(i) => self.blocks[i].1,
            Err(_) => 0,
        };
        (&self.uses[from..to], block)
    }
}

/// `IsAllowedSampledImageOperand`.
fn takes_sampled_image(q: &Query<'_>, opcode: Opcode) -> bool {
    match opcode {
        O::SampledImage
        | O::ImageSampleImplicitLod
        | O::ImageSampleExplicitLod
        | O::ImageSampleDrefImplicitLod
        | O::ImageSampleDrefExplicitLod
        | O::ImageSampleProjImplicitLod
        | O::ImageSampleProjExplicitLod
        | O::ImageSampleProjDrefImplicitLod
        | O::ImageSampleProjDrefExplicitLod
        | O::ImageGather
        | O::ImageDrefGather
        | O::Image
        | O::ImageQueryLod
        | O::ImageSparseSampleImplicitLod
        | O::ImageSparseSampleExplicitLod
        | O::ImageSparseSampleDrefImplicitLod
        | O::ImageSparseSampleDrefExplicitLod
        | O::ImageSparseGather
        | O::ImageSparseDrefGather
        | O::CopyObject
        | O::ImageSampleWeightedQCOM
        | O::ImageBoxFilterQCOM
        | O::ImageBlockMatchSSDQCOM
        | O::ImageBlockMatchSADQCOM
        | O::ImageBlockMatchWindowSADQCOM
        | O::ImageBlockMatchWindowSSDQCOM
        | O::ImageBlockMatchGatherSADQCOM
        | O::ImageBlockMatchGatherSSDQCOM
        | O::ImageSampleFootprintNV => true,
        O::Store => q.state.has_capability(C::BindlessTextureNV.0),
        _ => false,
    }
}

/// `ValidateSampledImage`.
pub(super) fn sampled_image(
    q: &Query<'_>,
    inst: &Inst<'_>,
    consumers: &mut Consumers,
) -> Result<(), Fault> {
    let result = inst.result_type();
    if q.opcode(result) != O::TypeSampledImage {
        return Err(E::SampledImageResult.into());
    }
    let image_type = q.operand_type(inst, 2);
    if q.opcode(image_type) != O::TypeImage {
        return Err(E::SampledImageOperand.into());
    }
    let info = ImageInfo::get(q, image_type)?;
    let result_image = q.word(result, 2).unwrap_or(0);
    if result_image != image_type {
        let other = ImageInfo::get(q, result_image)?;
        if (ImageInfo {
            depth: info.depth,
            ..other
        }) != info
        {
            return Err(E::SampledImageMatch.into());
        }
    }
    if q.state.options.target_env.is_vulkan() {
        if info.sampled != 1 {
            return Err(E::VulkanSampledOne.into());
        }
    } else if info.sampled != 0 && info.sampled != 1 {
        return Err(E::SampledZeroOrOne.into());
    }
    if info.dim == Dim::SubpassData {
        return Err(E::SampledImageSubpass.into());
    }
    if q.opcode(q.operand_type(inst, 3)) != O::TypeSampler {
        return Err(E::Sampler.into());
    }
    let id = inst.result_id;
    let (uses, block) = consumers.of(q, id);
    for &(_, index, consumer_block) in uses {
        let Some(consumer) = q.module.instruction(index as usize) else {
            continue;
        };
        let opcode = consumer.opcode();
        let image = Id(id);
        let consumer = Id(consumer.result_id().map_or(0, |c| c.0));
        if consumer_block != block {
            return Err(E::ConsumerBlock { image, consumer }.into());
        }
        if matches!(opcode, O::Phi | O::Select) {
            return Err(E::ConsumerPhi {
                opcode,
                image,
                consumer,
            }
            .into());
        }
        if !takes_sampled_image(q, opcode) {
            return Err(E::ConsumerOpcode {
                opcode,
                image,
                consumer,
            }
            .into());
        }
    }
    Ok(())
}

/// Whether `t` is a vector of 2 or 4 16-bit floats (`IsFloat16Vector2Or4Type`).
fn is_f16_vector_2_or_4(q: &Query<'_>, t: u32) -> bool {
    q.opcode(t) == O::TypeVector
        && matches!(q.dimension(t), 2 | 4)
        && q.is_float_vector_type(t)
        && q.bit_width(t) == 16
}

/// `ValidateImageTexelPointer`.
pub(super) fn texel_pointer(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let result = inst.result_type();
    let typed = match q.opcode(result) {
        O::TypePointer => true,
        O::TypeUntypedPointerKHR => false,
        _ => return Err(E::TexelPointerResult.into()),
    };
    if q.word(result, 2) != Some(StorageClass::Image.0) {
        return Err(E::TexelPointerClass.into());
    }
    let has = |c: C| q.state.has_capability(c.0);
    let mut pointee = 0;
    if typed {
        pointee = q.word(result, 3).unwrap_or(0);
        let ok = match q.opcode(pointee) {
            O::TypeInt | O::TypeFloat | O::TypeVoid => true,
            O::TypeVector => has(C::AtomicFloat16VectorNV) && is_f16_vector_2_or_4(q, pointee),
            _ => false,
        };
        if !ok {
            return Err(E::TexelPointerPointee.into());
        }
    }
    let image_ptr = q.operand_type(inst, 2);
    if q.opcode(image_ptr) != O::TypePointer {
        return Err(E::TexelPointerImage.into());
    }
    let image_type = q.word(image_ptr, 3).unwrap_or(0);
    if q.opcode(image_type) != O::TypeImage {
        return Err(E::TexelPointerImageType.into());
    }
    let info = ImageInfo::get(q, image_type)?;
    if typed && info.sampled_type != pointee {
        let f16 = has(C::AtomicFloat16VectorNV)
            && is_f16_vector_2_or_4(q, pointee)
            && q.opcode(info.sampled_type) == O::TypeFloat
            && match q.dimension(pointee) {
                2 => info.format == F::Rg16f.0,
                4 => info.format == F::Rgba16f.0,
                _ => false,
            };
        if !f16 {
            return Err(E::TexelPointerSampledType.into());
        }
    }
    if info.dim == Dim::SubpassData {
        return Err(E::TexelPointerSubpass.into());
    }
    if info.dim == Dim::TileImageDataEXT {
        return Err(E::TexelPointerTile.into());
    }
    let coord = q.operand_type(inst, 3);
    if coord == 0 || !q.is_int_scalar_or_vector_type(coord) {
        return Err(E::IntCoordinate.into());
    }
    let expected = match (info.arrayed, info.dim) {
        (0, _) => info.plane_size(),
        (1, Dim::Dim1D) => 2,
        (1, Dim::Cube | Dim::Dim2D) => 3,
        (1, _) => return Err(E::TexelPointerArrayed.into()),
        _ => 0,
    };
    let actual = q.dimension(coord);
    if expected != actual {
        return Err(E::CoordinateSize { expected, actual }.into());
    }
    let sample = q.operand_type(inst, 4);
    if sample == 0 || !q.is_int_scalar_type(sample) {
        return Err(E::TexelPointerSample.into());
    }
    if info.multisampled == 0 && q.constant_u64(inst.word(4)) != Some(0) {
        return Err(E::TexelPointerSampleZero.into());
    }
    if q.state.options.target_env.is_vulkan() {
        let f = F(info.format);
        let ok = matches!(f, F::R64i | F::R64ui | F::R32f | F::R32i | F::R32ui)
            || (matches!(f, F::Rg16f | F::Rgba16f) && has(C::AtomicFloat16VectorNV));
        if !ok {
            return Err(E::TexelPointerFormat.into());
        }
    }
    Ok(())
}

/// `GetActualResultType`: the result type, or a sparse result's texel member; with
/// how messages name it (`GetActualResultTypeStr`).
fn actual_result(q: &Query<'_>, inst: &Inst<'_>) -> Result<(u32, &'static str), Fault> {
    let result = inst.result_type();
    if !is_sparse(inst.opcode) {
        return Ok((result, "Result Type"));
    }
    let Some(def) = q.def(result).filter(|d| d.opcode() == O::TypeStruct) else {
        return Err(E::SparseStruct.into());
    };
    let w = def.words();
    if w.len() != 4 || !q.is_int_scalar_type(w[2]) {
        return Err(E::SparseMembers.into());
    }
    Ok((w[3], "Result Type's second member"))
}

/// A result that must be a 4-component int or float vector.
fn four_vector(q: &Query<'_>, t: u32, result: &'static str) -> Result<(), Fault> {
    if !q.is_int_vector_type(t) && !q.is_float_vector_type(t) {
        return Err(E::ResultVector { result }.into());
    }
    if q.dimension(t) != 4 {
        return Err(E::ResultFour { result }.into());
    }
    Ok(())
}

/// `GetMinCoordSize`.
fn min_coord_size(opcode: Opcode, info: &ImageInfo) -> u32 {
    if info.dim == Dim::Cube && matches!(opcode, O::ImageRead | O::ImageWrite | O::ImageSparseRead)
    {
        return 3;
    }
    info.plane_size() + info.arrayed + u32::from(is_proj(opcode))
}

/// The coordinate (operand `i`) has at least the components `opcode` needs.
fn coord_size(q: &Query<'_>, inst: &Inst<'_>, coord: u32, info: &ImageInfo) -> Result<(), Fault> {
    let min = min_coord_size(inst.opcode, info);
    let actual = q.dimension(coord);
    if min > actual {
        return Err(E::CoordinateMin { min, actual }.into());
    }
    Ok(())
}

/// `ValidateImageProj`.
fn proj(info: &ImageInfo) -> Result<(), Fault> {
    if !matches!(info.dim, Dim::Dim1D | Dim::Dim2D | Dim::Dim3D | Dim::Rect) {
        return Err(E::ProjDim.into());
    }
    if info.multisampled != 0 {
        return Err(E::ProjMultisampled.into());
    }
    if info.arrayed != 0 {
        return Err(E::ProjArrayed.into());
    }
    Ok(())
}

/// The sampled image operand (operand 2) of a sampling instruction.
fn sampled_info(q: &Query<'_>, inst: &Inst<'_>) -> Result<ImageInfo, Fault> {
    let image_type = q.operand_type(inst, 2);
    if q.opcode(image_type) != O::TypeSampledImage {
        return Err(E::SampledImageType.into());
    }
    ImageInfo::get(q, image_type)
}

/// The image operand (operand `i`) of a fetch, read, write or query.
fn image_info(q: &Query<'_>, inst: &Inst<'_>, i: usize) -> Result<ImageInfo, Fault> {
    let image_type = q.operand_type(inst, i);
    if q.opcode(image_type) != O::TypeImage {
        return Err(E::ImageType.into());
    }
    ImageInfo::get(q, image_type)
}

/// A result whose components must be the image's sampled type unless that is void.
fn components(q: &Query<'_>, t: u32, info: &ImageInfo, result: &'static str) -> Result<(), Fault> {
    if q.opcode(info.sampled_type) != O::TypeVoid && q.component_type(t) != info.sampled_type {
        return Err(E::ComponentsSampledType { result }.into());
    }
    Ok(())
}

/// Whether the module declares `Kernel`.
fn kernel(q: &Query<'_>) -> bool {
    q.state.has_capability(C::Kernel.0)
}

/// `ValidateImageLod`.
pub(super) fn lod(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let opcode = inst.opcode;
    let (actual, result) = actual_result(q, inst)?;
    four_vector(q, actual, result)?;
    let info = sampled_info(q, inst)?;
    if is_proj(opcode) {
        proj(&info)?;
    }
    if info.multisampled != 0 {
        return Err(E::SampleMultisampled.into());
    }
    components(q, actual, &info, result)?;
    let coord = q.operand_type(inst, 3);
    if matches!(
        opcode,
        O::ImageSampleExplicitLod | O::ImageSparseSampleExplicitLod
    ) && kernel(q)
    {
        if !q.is_float_scalar_or_vector_type(coord) && !q.is_int_scalar_or_vector_type(coord) {
            return Err(E::IntOrFloatCoordinate.into());
        }
    } else if !q.is_float_scalar_or_vector_type(coord) {
        return Err(E::FloatCoordinate.into());
    }
    coord_size(q, inst, coord, &info)?;
    let mask = inst.words.get(5).copied().unwrap_or(0);
    if mask & crate::spv::ImageOperands::CONST_OFFSET.0 != 0
        && q.state.options.target_env.is_opencl()
        && opcode == O::ImageSampleExplicitLod
    {
        return Err(E::OpenClConstOffset.into());
    }
    operands::check(q, inst, &info, 6)
}

/// `ValidateImageDref`: the dref operand (operand 4).
fn dref(q: &Query<'_>, inst: &Inst<'_>, info: &ImageInfo) -> Result<(), Fault> {
    let t = q.operand_type(inst, 4);
    if !q.is_float_scalar_type(t) || q.bit_width(t) != 32 {
        return Err(E::DrefType.into());
    }
    if q.state.options.target_env.is_vulkan() && info.dim == Dim::Dim3D {
        return Err(E::VulkanDref3D.into());
    }
    Ok(())
}

/// `ValidateImageDrefLod`.
pub(super) fn dref_lod(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let (actual, result) = actual_result(q, inst)?;
    if !q.is_int_scalar_type(actual) && !q.is_float_scalar_type(actual) {
        return Err(E::ResultScalar { result }.into());
    }
    let info = sampled_info(q, inst)?;
    if is_proj(inst.opcode) {
        proj(&info)?;
    }
    if info.multisampled != 0 {
        return Err(E::DrefMultisampled.into());
    }
    if actual != info.sampled_type {
        return Err(E::ResultSampledType { result }.into());
    }
    let coord = q.operand_type(inst, 3);
    if !q.is_float_scalar_or_vector_type(coord) {
        return Err(E::FloatCoordinate.into());
    }
    coord_size(q, inst, coord, &info)?;
    dref(q, inst, &info)?;
    operands::check(q, inst, &info, 7)
}

/// `ValidateImageFetch`.
pub(super) fn fetch(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let (actual, result) = actual_result(q, inst)?;
    four_vector(q, actual, result)?;
    let info = image_info(q, inst, 2)?;
    components(q, actual, &info, result)?;
    if info.dim == Dim::Cube {
        return Err(E::FetchCube.into());
    }
    if info.sampled != 1 {
        return Err(E::FetchSampled.into());
    }
    let coord = q.operand_type(inst, 3);
    if !q.is_int_scalar_or_vector_type(coord) {
        return Err(E::IntScalarCoordinate.into());
    }
    coord_size(q, inst, coord, &info)?;
    operands::check(q, inst, &info, 6)
}

/// `ValidateImageGather`.
pub(super) fn gather(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let opcode = inst.opcode;
    let (actual, result) = actual_result(q, inst)?;
    four_vector(q, actual, result)?;
    let info = sampled_info(q, inst)?;
    if info.multisampled != 0 {
        return Err(E::GatherMultisampled.into());
    }
    let is_dref = matches!(opcode, O::ImageDrefGather | O::ImageSparseDrefGather);
    if (is_dref || q.opcode(info.sampled_type) != O::TypeVoid)
        && q.component_type(actual) != info.sampled_type
    {
        return Err(E::ComponentsSampledType { result }.into());
    }
    if !matches!(info.dim, Dim::Dim2D | Dim::Cube | Dim::Rect) {
        return Err(E::GatherDim.into());
    }
    let coord = q.operand_type(inst, 3);
    if !q.is_float_scalar_or_vector_type(coord) {
        return Err(E::FloatCoordinate.into());
    }
    coord_size(q, inst, coord, &info)?;
    if is_dref {
        dref(q, inst, &info)?;
    } else {
        let component = inst.word(4);
        let t = q.type_of(component);
        if !q.is_int_scalar_type(t) || q.bit_width(t) != 32 {
            return Err(E::GatherComponent.into());
        }
        if q.state.options.target_env.is_vulkan() && !is_constant(q.opcode(component)) {
            return Err(E::GatherConstant.into());
        }
    }
    operands::check(q, inst, &info, 7)
}

/// `ValidateImageReadWrite`: the capabilities a storage image access needs.
fn read_write(q: &Query<'_>, info: &ImageInfo) -> Result<(), Fault> {
    let has = |c: C| q.state.has_capability(c.0);
    if info.sampled == 2 {
        let missing = match info.dim {
            Dim::Dim1D if !has(C::Image1D) => Some("Image1D"),
            Dim::Rect if !has(C::ImageRect) => Some("ImageRect"),
            Dim::Buffer if !has(C::ImageBuffer) => Some("ImageBuffer"),
            Dim::Cube if info.arrayed == 1 && !has(C::ImageCubeArray) => Some("ImageCubeArray"),
            _ => None,
        };
        if let Some(capability) = missing {
            return Err(E::StorageCapability { capability }.into());
        }
        if info.multisampled == 1 && info.arrayed == 1 && !has(C::ImageMSArray) {
            return Err(E::StorageCapability {
                capability: "ImageMSArray",
            }
            .into());
        }
    } else if info.sampled != 0 {
        return Err(E::StorageSampled.into());
    }
    Ok(())
}

/// `ValidateImageRead`.
pub(super) fn read(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let opcode = inst.opcode;
    let (actual, result) = actual_result(q, inst)?;
    if !q.is_int_scalar_or_vector_type(actual) && !q.is_float_scalar_or_vector_type(actual) {
        return Err(E::ResultScalarOrVector { result }.into());
    }
    let env = q.state.options.target_env;
    if env.is_vulkan() && q.dimension(actual) != 4 {
        return Err(E::VulkanResultFour { result }.into());
    }
    let info = image_info(q, inst, 2)?;
    if env.is_opencl() {
        if info.depth != 0 {
            if !q.is_float_scalar_type(actual) {
                return Err(E::OpenClDepthRead { result }.into());
            }
        } else if q.dimension(actual) != 4 {
            return Err(E::ResultFour { result }.into());
        }
        let mask = inst.words.get(5).copied().unwrap_or(0);
        if mask & crate::spv::ImageOperands::CONST_OFFSET.0 != 0 {
            return Err(E::OpenClConstOffset.into());
        }
    }
    if info.dim == Dim::SubpassData {
        if opcode == O::ImageSparseRead {
            return Err(E::SparseReadSubpass.into());
        }
        let subpass = Limitation::naming(q, &rules::SUBPASS_DATA, opcode);
        limitations::register(q, inst, subpass);
    }
    if info.dim == Dim::TileImageDataEXT {
        return Err(E::ReadTile { opcode }.into());
    }
    components(q, actual, &info, result)?;
    read_write(q, &info)?;
    let coord = q.operand_type(inst, 3);
    if !q.is_int_scalar_or_vector_type(coord) {
        return Err(E::IntScalarCoordinate.into());
    }
    coord_size(q, inst, coord, &info)?;
    if env.is_vulkan()
        && info.format == F::Unknown.0
        && info.dim != Dim::SubpassData
        && !q.state.has_capability(C::StorageImageReadWithoutFormat.0)
    {
        return Err(E::ReadWithoutFormat.into());
    }
    operands::check(q, inst, &info, 6)
}

/// `ValidateImageWrite`.
pub(super) fn write(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let info = image_info(q, inst, 0)?;
    if info.dim == Dim::SubpassData {
        return Err(E::WriteSubpass.into());
    }
    if info.dim == Dim::TileImageDataEXT {
        return Err(E::DimTile.into());
    }
    read_write(q, &info)?;
    let coord = q.operand_type(inst, 1);
    if !q.is_int_scalar_or_vector_type(coord) {
        return Err(E::IntScalarCoordinate.into());
    }
    coord_size(q, inst, coord, &info)?;
    let texel = q.operand_type(inst, 2);
    if !q.is_int_scalar_or_vector_type(texel) && !q.is_float_scalar_or_vector_type(texel) {
        return Err(E::Texel.into());
    }
    if q.opcode(info.sampled_type) != O::TypeVoid && q.component_type(texel) != info.sampled_type {
        return Err(E::TexelSampledType.into());
    }
    let env = q.state.options.target_env;
    if env.is_vulkan()
        && info.format == F::Unknown.0
        && info.dim != Dim::SubpassData
        && !q.state.has_capability(C::StorageImageWriteWithoutFormat.0)
    {
        return Err(E::WriteWithoutFormat.into());
    }
    if inst.words.len() > 4 && env.is_opencl() {
        return Err(E::OpenClWriteOperands.into());
    }
    operands::check(q, inst, &info, 5)
}

/// `ValidateImage` (`OpImage`).
pub(super) fn image(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let result = inst.result_type();
    if q.opcode(result) != O::TypeImage {
        return Err(E::ImageResult.into());
    }
    let sampled = q.operand_type(inst, 2);
    if q.opcode(sampled) != O::TypeSampledImage {
        return Err(E::ImageOperand.into());
    }
    if q.word(sampled, 2) != Some(result) {
        return Err(E::ImageOperandType.into());
    }
    Ok(())
}

/// The size of a size query's result, by dimension: `None` for a dimension the
/// query does not take.
fn query_components(info: &ImageInfo, buffer_and_rect: bool) -> Option<u32> {
    let n = match info.dim {
        Dim::Dim1D => 1,
        Dim::Buffer if buffer_and_rect => 1,
        Dim::Dim2D | Dim::Cube => 2,
        Dim::Rect if buffer_and_rect => 2,
        Dim::Dim3D => 3,
        _ => return None,
    };
    Some(n + info.arrayed)
}

/// `ValidateImageQuerySizeLod`.
pub(super) fn query_size_lod(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let result = inst.result_type();
    if !q.is_int_scalar_or_vector_type(result) {
        return Err(E::QueryIntResult.into());
    }
    let info = image_info(q, inst, 2)?;
    let Some(expected) = query_components(&info, false) else {
        return Err(E::QueryDim.into());
    };
    if info.multisampled != 0 {
        return Err(E::QueryMsZero.into());
    }
    if q.state.options.target_env.is_vulkan() && info.sampled != 1 {
        return Err(E::VulkanQuerySizeLod.into());
    }
    let actual = q.dimension(result);
    if actual != expected {
        return Err(E::QuerySize { actual, expected }.into());
    }
    if !q.is_int_scalar_type(q.operand_type(inst, 3)) {
        return Err(E::QueryLod.into());
    }
    Ok(())
}

/// `ValidateImageQuerySize`.
pub(super) fn query_size(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let result = inst.result_type();
    if !q.is_int_scalar_or_vector_type(result) {
        return Err(E::QueryIntResult.into());
    }
    let info = image_info(q, inst, 2)?;
    let Some(expected) = query_components(&info, true) else {
        return Err(E::QuerySizeDim.into());
    };
    if info.is_lod_dim() && info.multisampled != 1 && info.sampled != 0 && info.sampled != 2 {
        return Err(E::QuerySizeSampled.into());
    }
    let actual = q.dimension(result);
    if actual != expected {
        return Err(E::QuerySize { actual, expected }.into());
    }
    Ok(())
}

/// `ValidateImageQueryFormatOrOrder`.
pub(super) fn query_format_or_order(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    if !q.is_int_scalar_type(inst.result_type()) {
        return Err(E::QueryIntScalar.into());
    }
    let image_type = q.operand_type(inst, 2);
    if q.opcode(image_type) != O::TypeImage {
        return Err(E::QueryOperand.into());
    }
    let info = ImageInfo::get(q, image_type)?;
    if info.dim == Dim::TileImageDataEXT {
        return Err(E::DimTile.into());
    }
    Ok(())
}

/// `ValidateImageQueryLod`: its limitations, then its result and operands.
pub(super) fn query_lod(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    limitations::register(q, inst, Limitation::new(q, &rules::QUERY_LOD_MODELS));
    limitations::register(q, inst, Limitation::new(q, &rules::QUERY_LOD_MODES));
    let result = inst.result_type();
    if !q.is_float_vector_type(result) {
        return Err(E::QueryLodResult.into());
    }
    if q.dimension(result) != 2 {
        return Err(E::QueryLodTwo.into());
    }
    let image_type = q.operand_type(inst, 2);
    if q.opcode(image_type) != O::TypeSampledImage {
        return Err(E::QueryLodOperand.into());
    }
    let info = ImageInfo::get(q, image_type)?;
    if !info.is_lod_dim() {
        return Err(E::QueryDim.into());
    }
    let coord = q.operand_type(inst, 3);
    if kernel(q) {
        if !q.is_float_scalar_or_vector_type(coord) && !q.is_int_scalar_or_vector_type(coord) {
            return Err(E::IntOrFloatCoordinate.into());
        }
    } else if !q.is_float_scalar_or_vector_type(coord) {
        return Err(E::FloatCoordinate.into());
    }
    let min = info.plane_size();
    let actual = q.dimension(coord);
    if min > actual {
        return Err(E::CoordinateMin { min, actual }.into());
    }
    Ok(())
}

/// `ValidateImageQueryLevelsOrSamples`.
pub(super) fn query_levels_or_samples(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    if !q.is_int_scalar_type(inst.result_type()) {
        return Err(E::QueryIntScalar.into());
    }
    let info = image_info(q, inst, 2)?;
    if inst.opcode == O::ImageQueryLevels {
        if !info.is_lod_dim() {
            return Err(E::QueryDim.into());
        }
        if q.state.options.target_env.is_vulkan() && info.sampled != 1 {
            return Err(E::VulkanQueryLevels.into());
        }
    } else {
        if info.dim != Dim::Dim2D {
            return Err(E::QuerySamplesDim.into());
        }
        if info.multisampled != 1 {
            return Err(E::QuerySamplesMs.into());
        }
    }
    Ok(())
}

/// `ValidateImageSparseTexelsResident`.
pub(super) fn texels_resident(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    if !q.is_bool_scalar_type(inst.result_type()) {
        return Err(E::ResidentResult.into());
    }
    if !q.is_int_scalar_type(q.operand_type(inst, 2)) {
        return Err(E::ResidentCode.into());
    }
    Ok(())
}
