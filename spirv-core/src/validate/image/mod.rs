//! spirv-val's image pass (`ImagePass` in `validate_image.cpp`): the rules of
//! `OpTypeImage` and `OpTypeSampledImage` ([`types`]), of every image instruction
//! (sampling, fetch, gather, read and write, `OpImage`, the queries, the sparse forms
//! and `OpImageTexelPointer`, in [`access`]), of the image operands those take
//! ([`operands`]), and of the QCOM image-processing instructions and the textures they
//! decorate ([`qcom`]); implicit-lod instructions register their execution-model
//! limitations here, as spirv-val does before it dispatches.

mod access;
mod operands;
mod qcom;
mod types;

pub(super) use qcom::texture_usages;

use super::faults::faults;
use super::limitations::{self, Limitation, rules};
use super::{Fault, Inst, Query};
use crate::spv::{Decoration, Dim, Opcode, Opcode as O};
use crate::types::Id;

faults! {
    /// A fault of spirv-val's image pass (`validate_image.cpp`).
    pub enum ImageError {
        /// An image type whose definition cannot be read.
        CorruptImage => "Corrupt image type definition",
        /// A 64-bit integer sampled type without `Int64ImageEXT`.
        Int64Image => "Capability Int64ImageEXT is required when using Sampled Type of 64-bit int",
        /// A sampled type other than 32-bit int or float or 64-bit int (Vulkan).
        #[vuid = "VUID-StandaloneSpirv-OpTypeImage-04656"]
        VulkanSampledType
            => "Expected Sampled Type to be a 32-bit int, 64-bit int or 32-bit float scalar type for Vulkan environment",
        /// A sampled type other than void (OpenCL).
        OpenClSampledType => "Sampled Type must be OpTypeVoid in the OpenCL environment.",
        /// A sampled type other than void or a numerical scalar.
        SampledType => "Expected Sampled Type to be either void or numerical scalar type",
        /// A `Depth` operand over 2.
        Depth { value: u32 } => "Invalid Depth {value} (must be 0, 1 or 2)",
        /// An `Arrayed` operand over 1.
        Arrayed { value: u32 } => "Invalid Arrayed {value} (must be 0 or 1)",
        /// An `MS` operand over 1.
        Multisampled { value: u32 } => "Invalid MS {value} (must be 0 or 1)",
        /// A `Sampled` operand over 2.
        Sampled { value: u32 } => "Invalid Sampled {value} (must be 0, 1 or 2)",
        /// A subpass-data image that is not `Sampled` 2.
        #[vuid = "VUID-StandaloneSpirv-OpTypeImage-06214"]
        SubpassSampled => "Dim SubpassData requires Sampled to be 2",
        /// A subpass-data image with a format.
        SubpassFormat => "Dim SubpassData requires format Unknown",
        /// A tile-image image of void sampled type.
        TileVoid => "Dim TileImageDataEXT requires Sampled Type to be not OpTypeVoid",
        /// A tile-image image that is not `Sampled` 2.
        TileSampled => "Dim TileImageDataEXT requires Sampled to be 2",
        /// A tile-image image with a format.
        TileFormat => "Dim TileImageDataEXT requires format Unknown",
        /// A tile-image depth image.
        TileDepth => "Dim TileImageDataEXT requires Depth to be 0",
        /// An arrayed tile-image image.
        TileArrayed => "Dim TileImageDataEXT requires Arrayed to be 0",
        /// A multisampled storage image without `StorageImageMultisample`.
        StorageMultisample
            => "Capability StorageImageMultisample is required when using multisampled storage image",
        /// An arrayed image other than 1D or 2D (OpenCL).
        OpenClArrayed => "In the OpenCL environment, Arrayed may only be set to 1 when Dim is either 1D or 2D.",
        /// A multisampled image (OpenCL).
        OpenClMultisampled => "MS must be 0 in the OpenCL environment.",
        /// A `Sampled` operand other than 0 (OpenCL).
        OpenClSampled => "Sampled must be 0 in the OpenCL environment.",
        /// An image type without its access qualifier (OpenCL).
        OpenClAccess => "In the OpenCL environment, the optional Access Qualifier must be present.",
        /// A `Sampled` operand of 0 (Vulkan).
        #[vuid = "VUID-StandaloneSpirv-OpTypeImage-04657"]
        VulkanSampled => "Sampled must be 1 or 2 in the Vulkan environment.",
        /// An arrayed subpass-data image (Vulkan).
        #[vuid = "VUID-StandaloneSpirv-OpTypeImage-06214"]
        VulkanSubpassArrayed => "Dim SubpassData requires Arrayed to be 0 in the Vulkan environment",
        /// A `Rect` image (Vulkan).
        #[vuid = "VUID-StandaloneSpirv-OpTypeImage-09638"]
        VulkanRect => "Dim must not be Rect in the Vulkan environment",
        /// A sampled image type whose image is no image type.
        SampledImageImage => "Expected Image to be of type OpTypeImage",
        /// A sampled image type of a storage image.
        #[vuid = "VUID-StandaloneSpirv-OpTypeImage-04657"]
        SampledImageSampled
            => "Sampled image type requires an image type with \"Sampled\" operand set to 0 or 1",
        /// A sampled buffer image (SPIR-V 1.6).
        SampledImageBuffer => "In SPIR-V 1.6 or later, sampled image dimension must not be Buffer",

        /// `OpSampledImage` whose result type is no sampled image type.
        SampledImageResult => "Expected Result Type to be OpTypeSampledImage.",
        /// `OpSampledImage` whose image is no image.
        SampledImageOperand => "Expected Image to be of type OpTypeImage.",
        /// `OpSampledImage` whose image differs from its result's but in depth.
        SampledImageMatch => "Image operands must match result image operands except for depth",
        /// `OpSampledImage` of an image that is not `Sampled` 1 (Vulkan).
        #[vuid = "VUID-StandaloneSpirv-OpTypeSampledImage-06671"]
        VulkanSampledOne => "Expected Image 'Sampled' parameter to be 1 for Vulkan environment.",
        /// An image that is not `Sampled` 0 or 1.
        SampledZeroOrOne => "Expected Image 'Sampled' parameter to be 0 or 1",
        /// `OpSampledImage` of a subpass-data image.
        SampledImageSubpass => "Expected Image 'Dim' parameter to be not SubpassData.",
        /// `OpSampledImage` whose sampler is no sampler.
        Sampler => "Expected Sampler to be of type OpTypeSampler",
        /// A sampled image used in another block.
        ConsumerBlock {
            /// The sampled image.
            image: Id,
            /// Its consumer.
            consumer: Id,
        } => "All OpSampledImage instructions must be in the same block in which their Result <id> are consumed. OpSampledImage Result Type <id> {image} has a consumer in a different basic block. The consumer instruction <id> is {consumer}.",
        /// A sampled image used by `OpPhi` or `OpSelect`.
        ConsumerPhi {
            /// The consumer's opcode.
            opcode: Opcode,
            /// The sampled image.
            image: Id,
            /// Its consumer.
            consumer: Id,
        } => "Result <id> from OpSampledImage instruction must not appear as operands of Op{opcode}. Found result <id> {image} as an operand of <id> {consumer}.",
        /// A sampled image used by an instruction that takes none.
        ConsumerOpcode {
            /// The consumer's opcode.
            opcode: Opcode,
            /// The sampled image.
            image: Id,
            /// Its consumer.
            consumer: Id,
        } => "Result <id> from OpSampledImage instruction must not appear as operand for Op{opcode}, since it is not specified as taking an OpTypeSampledImage. Found result <id> {image} as an operand of <id> {consumer}.",

        /// `OpImageTexelPointer` whose result is no pointer.
        TexelPointerResult => "Expected Result Type to be a pointer",
        /// `OpImageTexelPointer` whose result is no `Image` pointer.
        TexelPointerClass => "Expected Result Type to be a pointer whose Storage Class operand is Image",
        /// `OpImageTexelPointer` whose result points to no scalar or void.
        TexelPointerPointee
            => "Expected Result Type to be a pointer whose Type operand must be a scalar numerical type or OpTypeVoid",
        /// `OpImageTexelPointer` whose image is no pointer.
        TexelPointerImage => "Expected Image to be OpTypePointer",
        /// `OpImageTexelPointer` whose image points to no image.
        TexelPointerImageType => "Expected Image to be OpTypePointer with Type OpTypeImage",
        /// `OpImageTexelPointer` whose pointee is not the image's sampled type.
        TexelPointerSampledType
            => "Expected Image 'Sampled Type' to be the same as the Type pointed to by Result Type",
        /// `OpImageTexelPointer` of a subpass-data image.
        TexelPointerSubpass => "Image Dim SubpassData cannot be used with OpImageTexelPointer",
        /// `OpImageTexelPointer` of a tile-image image.
        TexelPointerTile => "Image Dim TileImageDataEXT cannot be used with OpImageTexelPointer",
        /// A coordinate that is no integer scalar or vector.
        IntCoordinate => "Expected Coordinate to be integer scalar or vector",
        /// An arrayed image of another dimension than 1D, 2D or Cube.
        TexelPointerArrayed => "Expected Image 'Dim' must be one of 1D, 2D, or Cube when Arrayed is 1",
        /// A coordinate of the wrong size.
        CoordinateSize {
            /// The size expected.
            expected: u32,
            /// The size given.
            actual: u32,
        } => "Expected Coordinate to have {expected} components, but given {actual}",
        /// A sample that is no integer scalar.
        TexelPointerSample => "Expected Sample to be integer scalar",
        /// A sample other than 0 for a single-sampled image.
        TexelPointerSampleZero => "Expected Sample for Image with MS 0 to be a valid <id> for the value 0",
        /// An atomic image format other than the 32- and 64-bit ones (Vulkan).
        #[vuid = "VUID-StandaloneSpirv-OpImageTexelPointer-04658"]
        TexelPointerFormat
            => "Expected the Image Format in Image to be R64i, R64ui, R32f, R32i, or R32ui for Vulkan environment",

        /// A sparse result that is no struct.
        SparseStruct => "Expected Result Type to be OpTypeStruct",
        /// A sparse result struct that is not an int and a texel.
        SparseMembers => "Expected Result Type to be a struct containing an int scalar and a texel",
        /// A result that is no int or float vector.
        ResultVector {
            /// `Result Type` or `Result Type's second member`.
            result: &'static str,
        } => "Expected {result} to be int or float vector type",
        /// A result of another size than 4.
        ResultFour {
            /// `Result Type` or `Result Type's second member`.
            result: &'static str,
        } => "Expected {result} to have 4 components",
        /// A read result of another size than 4 (Vulkan).
        #[vuid = "VUID-StandaloneSpirv-Result-04780"]
        VulkanResultFour {
            /// `Result Type` or `Result Type's second member`.
            result: &'static str,
        } => "Expected {result} to have 4 components",
        /// A result that is no int or float scalar.
        ResultScalar {
            /// `Result Type` or `Result Type's second member`.
            result: &'static str,
        } => "Expected {result} to be int or float scalar type",
        /// A read result that is no int or float scalar or vector.
        ResultScalarOrVector {
            /// `Result Type` or `Result Type's second member`.
            result: &'static str,
        } => "Expected {result} to be int or float scalar or vector type",
        /// A depth image read whose result is no float scalar (OpenCL).
        OpenClDepthRead {
            /// `Result Type` or `Result Type's second member`.
            result: &'static str,
        } => "Expected {result} from a depth image read to result in a scalar float value",
        /// A sampled image operand of another type.
        SampledImageType => "Expected Sampled Image to be of type OpTypeSampledImage",
        /// A projective sampling of another dimension than 1D, 2D, 3D or Rect.
        ProjDim => "Expected Image 'Dim' parameter to be 1D, 2D, 3D or Rect",
        /// A projective sampling of a multisampled image.
        ProjMultisampled => "Expected Image 'MS' parameter to be 0",
        /// A projective sampling of an arrayed image.
        ProjArrayed => "Expected Image 'arrayed' parameter to be 0",
        /// Sampling a multisampled image.
        SampleMultisampled => "Sampling operation is invalid for multisample image",
        /// Dref sampling of a multisampled image.
        DrefMultisampled => "Dref sampling operation is invalid for multisample image",
        /// Gathering from a multisampled image.
        GatherMultisampled => "Gather operation is invalid for multisample image",
        /// A result component type that is not the image's sampled type.
        ComponentsSampledType {
            /// `Result Type` or `Result Type's second member`.
            result: &'static str,
        } => "Expected Image 'Sampled Type' to be the same as {result} components",
        /// A dref result type that is not the image's sampled type.
        ResultSampledType {
            /// `Result Type` or `Result Type's second member`.
            result: &'static str,
        } => "Expected Image 'Sampled Type' to be the same as {result}",
        /// A coordinate that is no int or float scalar or vector (kernels).
        IntOrFloatCoordinate => "Expected Coordinate to be int or float scalar or vector",
        /// A coordinate that is no float scalar or vector.
        FloatCoordinate => "Expected Coordinate to be float scalar or vector",
        /// A coordinate that is no int scalar or vector.
        IntScalarCoordinate => "Expected Coordinate to be int scalar or vector",
        /// A coordinate with too few components.
        CoordinateMin {
            /// The least size.
            min: u32,
            /// The size given.
            actual: u32,
        } => "Expected Coordinate to have at least {min} components, but given only {actual}",
        /// `ConstOffset` in OpenCL.
        OpenClConstOffset => "ConstOffset image operand not allowed in the OpenCL environment.",
        /// A dref that is no 32-bit float.
        DrefType => "Expected Dref to be of 32-bit float type",
        /// A dref instruction on a 3D image (Vulkan).
        #[vuid = "VUID-StandaloneSpirv-OpImage-04777"]
        VulkanDref3D => "In Vulkan, OpImage*Dref* instructions must not use images with a 3D Dim",
        /// Fetching from a cube image.
        FetchCube => "Image 'Dim' cannot be Cube",
        /// Fetching from an image that is not `Sampled` 1.
        FetchSampled => "Expected Image 'Sampled' parameter to be 1",
        /// Gathering from another dimension than 2D, Cube or Rect.
        #[vuid = "VUID-StandaloneSpirv-OpImage-04777"]
        GatherDim => "Expected Image 'Dim' to be 2D, Cube, or Rect",
        /// A gather component that is no 32-bit int scalar.
        GatherComponent => "Expected Component to be 32-bit int scalar",
        /// A gather component that is no constant (Vulkan).
        #[vuid = "VUID-StandaloneSpirv-OpImageGather-04664"]
        GatherConstant => "Expected Component Operand to be a const object for Vulkan environment",
        /// A sparse read of a subpass-data image.
        SparseReadSubpass => "Image Dim SubpassData cannot be used with ImageSparseRead",
        /// A read of a tile-image image.
        ReadTile { opcode: Opcode } => "Image Dim TileImageDataEXT cannot be used with {opcode}",
        /// A storage image access that needs a capability the module lacks.
        StorageCapability {
            /// The capability's name.
            capability: &'static str,
        } => "Capability {capability} is required to access storage image",
        /// A storage access of an image that is not `Sampled` 0 or 2.
        StorageSampled => "Expected Image 'Sampled' parameter to be 0 or 2",
        /// A read without format and `StorageImageReadWithoutFormat` (Vulkan).
        ReadWithoutFormat => "Capability StorageImageReadWithoutFormat is required to read storage image",
        /// A write to a subpass-data image.
        WriteSubpass => "Image 'Dim' cannot be SubpassData",
        /// A write to (or format query of) a tile-image image.
        DimTile => "Image 'Dim' cannot be TileImageDataEXT",
        /// A texel that is no int or float scalar or vector.
        Texel => "Expected Texel to be int or float vector or scalar",
        /// A texel whose components are not the image's sampled type.
        TexelSampledType => "Expected Image 'Sampled Type' to be the same as Texel components",
        /// A write without format and `StorageImageWriteWithoutFormat` (Vulkan).
        WriteWithoutFormat => "Capability StorageImageWriteWithoutFormat is required to write to storage image",
        /// Image operands on a write (OpenCL).
        OpenClWriteOperands => "Optional Image Operands are not allowed in the OpenCL environment.",
        /// `OpImage` whose result is no image type.
        ImageResult => "Expected Result Type to be OpTypeImage",
        /// `OpImage` whose operand is no sampled image (spirv-val's spelling).
        ImageOperand => "Expected Sample Image to be of type OpTypeSampleImage",
        /// `OpImage` whose sampled image's image is not its result type.
        ImageOperandType => "Expected Sample Image image type to be equal to Result Type",
        /// A query whose result is no int scalar or vector.
        QueryIntResult => "Expected Result Type to be int scalar or vector type",
        /// An image operand that is no image.
        ImageType => "Expected Image to be of type OpTypeImage",
        /// A size query of another dimension than 1D, 2D, 3D or Cube.
        QueryDim => "Image 'Dim' must be 1D, 2D, 3D or Cube",
        /// A size query of a multisampled image.
        QueryMsZero => "Image 'MS' must be 0",
        /// A size-lod query of an image that is not `Sampled` 1 (Vulkan).
        #[vuid = "VUID-StandaloneSpirv-OpImageQuerySizeLod-04659"]
        VulkanQuerySizeLod
            => "OpImageQuerySizeLod must only consume an \"Image\" operand whose type has its \"Sampled\" operand set to 1",
        /// A level query of an image that is not `Sampled` 1 (Vulkan).
        #[vuid = "VUID-StandaloneSpirv-OpImageQuerySizeLod-04659"]
        VulkanQueryLevels
            => "OpImageQueryLevels must only consume an \"Image\" operand whose type has its \"Sampled\" operand set to 1",
        /// A size query result of the wrong size.
        QuerySize {
            /// The size given.
            actual: u32,
            /// The size expected.
            expected: u32,
        } => "Result Type has {actual} components, but {expected} expected",
        /// A lod operand that is no int scalar.
        QueryLod => "Expected Level of Detail to be int scalar",
        /// A size query of another dimension.
        QuerySizeDim => "Image 'Dim' must be 1D, Buffer, 2D, Cube, 3D or Rect",
        /// A size query of a sampled single-sampled image.
        QuerySizeSampled => "Image must have either 'MS'=1 or 'Sampled'=0 or 'Sampled'=2",
        /// A query whose result is no int scalar.
        QueryIntScalar => "Expected Result Type to be int scalar type",
        /// A format or order query of something that is no image.
        QueryOperand => "Expected operand to be of type OpTypeImage",
        /// A lod query whose result is no float vector.
        QueryLodResult => "Expected Result Type to be float vector type",
        /// A lod query whose result has not 2 components.
        QueryLodTwo => "Expected Result Type to have 2 components",
        /// A lod query of something that is no sampled image.
        QueryLodOperand => "Expected Image operand to be of type OpTypeSampledImage",
        /// A samples query of another dimension than 2D.
        QuerySamplesDim => "Image 'Dim' must be 2D",
        /// A samples query of a single-sampled image.
        QuerySamplesMs => "Image 'MS' must be 1",
        /// A sparse projective instruction (reserved).
        SparseReserved => "Instruction reserved for future use, use of this instruction is invalid",
        /// A residency query whose result is no bool scalar.
        ResidentResult => "Expected Result Type to be bool scalar type",
        /// A resident code that is no int scalar.
        ResidentCode => "Expected Resident Code to be int scalar",

        /// Image operand words that do not match the mask.
        OperandCount => "Number of image operand ids doesn't correspond to the bit mask",
        /// A multisampled image without the `Sample` operand.
        SampleRequired => "Image Operand Sample is required for operation on multi-sampled image",
        /// More than one of the offset operands.
        Offsets => "Image Operands Offset, ConstOffset, ConstOffsets, Offsets cannot be used together",
        /// `Bias` outside implicit-lod instructions.
        BiasOpcode => "Image Operand Bias can only be used with ImplicitLod opcodes",
        /// A `Bias` that is no float scalar.
        BiasType => "Expected Image Operand Bias to be float scalar",
        /// `Bias` on another dimension than 1D, 2D, 3D or Cube.
        BiasDim => "Image Operand Bias requires 'Dim' parameter to be 1D, 2D, 3D or Cube",
        /// `Lod` outside explicit-lod instructions and fetches.
        LodOpcode => "Image Operand Lod can only be used with ExplicitLod opcodes and OpImageFetch",
        /// `Lod` with `Grad`.
        LodGrad => "Image Operand bits Lod and Grad cannot be set at the same time",
        /// A `Lod` of an explicit-lod instruction that is no float scalar.
        LodFloat => "Expected Image Operand Lod to be float scalar when used with ExplicitLod",
        /// A `Lod` of a fetch that is no int scalar.
        LodInt => "Expected Image Operand Lod to be int scalar when used with OpImageFetch",
        /// `Lod` on another dimension than 1D, 2D, 3D or Cube.
        LodDim => "Image Operand Lod requires 'Dim' parameter to be 1D, 2D, 3D or Cube",
        /// `Grad` outside explicit-lod instructions.
        GradOpcode => "Image Operand Grad can only be used with ExplicitLod opcodes",
        /// `Grad` operands that are no float scalars or vectors.
        GradType => "Expected both Image Operand Grad ids to be float scalars or vectors",
        /// A `Grad` dx of the wrong size.
        GradDx { expected: u32, actual: u32 }
            => "Expected Image Operand Grad dx to have {expected} components, but given {actual}",
        /// A `Grad` dy of the wrong size.
        GradDy { expected: u32, actual: u32 }
            => "Expected Image Operand Grad dy to have {expected} components, but given {actual}",
        /// `ConstOffset` on a cube image.
        ConstOffsetCube => "Image Operand ConstOffset cannot be used with Cube Image 'Dim'",
        /// A `ConstOffset` that is no int scalar or vector.
        ConstOffsetType => "Expected Image Operand ConstOffset to be int scalar or vector",
        /// A `ConstOffset` that is no constant.
        ConstOffsetConst => "Expected Image Operand ConstOffset to be a const object",
        /// A `ConstOffset` of the wrong size.
        ConstOffsetSize { expected: u32, actual: u32 }
            => "Expected Image Operand ConstOffset to have {expected} components, but given {actual}",
        /// `Offset` on a cube image.
        OffsetCube => "Image Operand Offset cannot be used with Cube Image 'Dim'",
        /// An `Offset` that is no int scalar or vector.
        OffsetType => "Expected Image Operand Offset to be int scalar or vector",
        /// An `Offset` of the wrong size.
        OffsetSize { expected: u32, actual: u32 }
            => "Expected Image Operand Offset to have {expected} components, but given {actual}",
        /// `Offset` outside gathers (Vulkan, without maintenance8).
        #[vuid = "VUID-RuntimeSpirv-Offset-10213"]
        OffsetGather
            => "Image Operand Offset can only be used with OpImage*Gather operations.\nThis is allowed if you enable the maintenance8 feature (or use the --allow-offset-texture-operand command line flag)",
        /// `ConstOffsets` outside gathers.
        ConstOffsetsOpcode => "Image Operand ConstOffsets can only be used with OpImageGather and OpImageDrefGather",
        /// `ConstOffsets` on a cube image.
        ConstOffsetsCube => "Image Operand ConstOffsets cannot be used with Cube Image 'Dim'",
        /// `ConstOffsets` that is no array of 4.
        ConstOffsetsArray => "Expected Image Operand ConstOffsets to be an array of size 4",
        /// `ConstOffsets` whose components are no 2-component int vectors.
        ConstOffsetsComponents
            => "Expected Image Operand ConstOffsets array components to be int vectors of size 2",
        /// `ConstOffsets` that is no constant.
        ConstOffsetsConst => "Expected Image Operand ConstOffsets to be a const object",
        /// `Sample` outside fetch, read and write.
        SampleOpcode
            => "Image Operand Sample can only be used with OpImageFetch, OpImageRead, OpImageWrite, OpImageSparseFetch and OpImageSparseRead",
        /// `Sample` on a single-sampled image.
        SampleMs => "Image Operand Sample requires non-zero 'MS' parameter",
        /// A `Sample` that is no int scalar.
        SampleType => "Expected Image Operand Sample to be int scalar",
        /// `MinLod` outside implicit-lod instructions and without `Grad`.
        MinLodOpcode
            => "Image Operand MinLod can only be used with ImplicitLod opcodes or together with Image Operand Grad",
        /// A `MinLod` that is no float scalar.
        MinLodType => "Expected Image Operand MinLod to be float scalar",
        /// `MinLod` on another dimension than 1D, 2D, 3D or Cube.
        MinLodDim => "Image Operand MinLod requires 'Dim' parameter to be 1D, 2D, 3D or Cube",
        /// `MinLod` on a multisampled image.
        MinLodMs => "Image Operand MinLod requires 'MS' parameter to be 0",
        /// `MakeTexelAvailableKHR` outside `OpImageWrite`.
        AvailableOpcode { opcode: Opcode }
            => "Image Operand MakeTexelAvailableKHR can only be used with OpImageWrite: Op{opcode}",
        /// `MakeTexelAvailableKHR` without `NonPrivateTexelKHR`.
        AvailableNonPrivate { opcode: Opcode }
            => "Image Operand MakeTexelAvailableKHR requires NonPrivateTexelKHR is also specified: Op{opcode}",
        /// `MakeTexelVisibleKHR` outside reads.
        VisibleOpcode { opcode: Opcode }
            => "Image Operand MakeTexelVisibleKHR can only be used with OpImageRead or OpImageSparseRead: Op{opcode}",
        /// `MakeTexelVisibleKHR` without `NonPrivateTexelKHR`.
        VisibleNonPrivate { opcode: Opcode }
            => "Image Operand MakeTexelVisibleKHR requires NonPrivateTexelKHR is also specified: Op{opcode}",
        /// A QCOM image-processing texture that is not loaded from a variable.
        ExpectLoad => "Expect to see OpLoad",
        /// A QCOM image-processing texture whose variable lacks a decoration.
        MissingDecoration { decoration: Decoration } => "Missing decoration {decoration}",
        /// A QCOM image-processing texture used by another image instruction.
        QcomTextureUse => "Illegal use of QCOM image processing decorated texture",
    }
}

/// `ImagePass` for one instruction: the implicit-lod limitations, then the rules of
/// its opcode.
#[inline(always)]
pub(super) fn check(
    q: &Query<'_>,
    inst: &Inst<'_>,
    s: &mut access::Consumers,
) -> Result<(), Fault> {
    let opcode = inst.opcode;
    if is_implicit_lod(opcode) {
        limitations::register(
            q,
            inst,
            Limitation::naming(q, &rules::IMPLICIT_LOD_MODELS, opcode),
        );
        limitations::register(
            q,
            inst,
            Limitation::naming(q, &rules::IMPLICIT_LOD_MODES, opcode),
        );
    }
    match opcode {
        O::TypeImage => types::type_image(q, inst),
        O::TypeSampledImage => types::type_sampled_image(q, inst),
        O::SampledImage => access::sampled_image(q, inst, s),
        O::ImageTexelPointer => access::texel_pointer(q, inst),
        O::ImageSampleImplicitLod
        | O::ImageSampleExplicitLod
        | O::ImageSampleProjImplicitLod
        | O::ImageSampleProjExplicitLod
        | O::ImageSparseSampleImplicitLod
        | O::ImageSparseSampleExplicitLod => access::lod(q, inst),
        O::ImageSampleDrefImplicitLod
        | O::ImageSampleDrefExplicitLod
        | O::ImageSampleProjDrefImplicitLod
        | O::ImageSampleProjDrefExplicitLod
        | O::ImageSparseSampleDrefImplicitLod
        | O::ImageSparseSampleDrefExplicitLod => access::dref_lod(q, inst),
        O::ImageFetch | O::ImageSparseFetch => access::fetch(q, inst),
        O::ImageGather | O::ImageDrefGather | O::ImageSparseGather | O::ImageSparseDrefGather => {
            access::gather(q, inst)
        }
        O::ImageRead | O::ImageSparseRead => access::read(q, inst),
        O::ImageWrite => access::write(q, inst),
        O::Image => access::image(q, inst),
        O::ImageQueryFormat | O::ImageQueryOrder => access::query_format_or_order(q, inst),
        O::ImageQuerySizeLod => access::query_size_lod(q, inst),
        O::ImageQuerySize => access::query_size(q, inst),
        O::ImageQueryLod => access::query_lod(q, inst),
        O::ImageQueryLevels | O::ImageQuerySamples => access::query_levels_or_samples(q, inst),
        O::ImageSparseSampleProjImplicitLod
        | O::ImageSparseSampleProjExplicitLod
        | O::ImageSparseSampleProjDrefImplicitLod
        | O::ImageSparseSampleProjDrefExplicitLod => Err(ImageError::SparseReserved.into()),
        O::ImageSparseTexelsResident => access::texels_resident(q, inst),
        _ if qcom::is_processing(opcode) => qcom::processing(q, inst),
        _ => Ok(()),
    }
}

pub(super) use access::Consumers;

/// An image type's operands (`ImageTypeInfo`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct ImageInfo {
    sampled_type: u32,
    dim: Dim,
    depth: u32,
    arrayed: u32,
    multisampled: u32,
    sampled: u32,
    format: u32,
    /// `None` when absent.
    access: Option<u32>,
}

impl ImageInfo {
    /// `GetImageTypeInfo`: the operands of image type `id`, or of the image type of
    /// sampled image type `id`; `None` when it is neither or its word count is wrong.
    fn of(q: &Query<'_>, id: u32) -> Option<ImageInfo> {
        if id == 0 {
            return None;
        }
        let mut def = q.def(id)?;
        if def.opcode() == O::TypeSampledImage {
            def = q.def(*def.words().get(2)?)?;
        }
        if def.opcode() != O::TypeImage {
            return None;
        }
        let w = def.words();
        if w.len() != 9 && w.len() != 10 {
            return None;
        }
        Some(ImageInfo {
            sampled_type: w[2],
            dim: Dim(w[3]),
            depth: w[4],
            arrayed: w[5],
            multisampled: w[6],
            sampled: w[7],
            format: w[8],
            access: w.get(9).copied(),
        })
    }

    /// [`ImageInfo::of`], or the fault spirv-val reports when it fails.
    fn get(q: &Query<'_>, id: u32) -> Result<ImageInfo, Fault> {
        Self::of(q, id).ok_or_else(|| ImageError::CorruptImage.into())
    }

    /// `GetPlaneCoordSize`: the coordinates of a texel in one plane (0 for a
    /// dimension the grammar adds later).
    fn plane_size(&self) -> u32 {
        match self.dim {
            Dim::Dim1D | Dim::Buffer => 1,
            Dim::Dim2D | Dim::Rect | Dim::SubpassData | Dim::TileImageDataEXT => 2,
            Dim::Dim3D | Dim::Cube => 3,
            _ => 0,
        }
    }

    /// Whether the dimension is 1D, 2D, 3D or Cube.
    fn is_lod_dim(&self) -> bool {
        matches!(self.dim, Dim::Dim1D | Dim::Dim2D | Dim::Dim3D | Dim::Cube)
    }
}

/// `IsImplicitLod`.
fn is_implicit_lod(opcode: Opcode) -> bool {
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
    )
}

/// `IsExplicitLod`.
fn is_explicit_lod(opcode: Opcode) -> bool {
    matches!(
        opcode,
        O::ImageSampleExplicitLod
            | O::ImageSampleDrefExplicitLod
            | O::ImageSampleProjExplicitLod
            | O::ImageSampleProjDrefExplicitLod
            | O::ImageSparseSampleExplicitLod
            | O::ImageSparseSampleDrefExplicitLod
            | O::ImageSparseSampleProjExplicitLod
            | O::ImageSparseSampleProjDrefExplicitLod
    )
}

/// `IsProj`: sampling with a projective coordinate.
fn is_proj(opcode: Opcode) -> bool {
    matches!(
        opcode,
        O::ImageSampleProjImplicitLod
            | O::ImageSampleProjDrefImplicitLod
            | O::ImageSparseSampleProjImplicitLod
            | O::ImageSparseSampleProjDrefImplicitLod
            | O::ImageSampleProjExplicitLod
            | O::ImageSampleProjDrefExplicitLod
            | O::ImageSparseSampleProjExplicitLod
            | O::ImageSparseSampleProjDrefExplicitLod
    )
}

/// `IsSparse`.
fn is_sparse(opcode: Opcode) -> bool {
    matches!(
        opcode,
        O::ImageSparseSampleImplicitLod
            | O::ImageSparseSampleExplicitLod
            | O::ImageSparseSampleDrefImplicitLod
            | O::ImageSparseSampleDrefExplicitLod
            | O::ImageSparseSampleProjImplicitLod
            | O::ImageSparseSampleProjExplicitLod
            | O::ImageSparseSampleProjDrefImplicitLod
            | O::ImageSparseSampleProjDrefExplicitLod
            | O::ImageSparseFetch
            | O::ImageSparseGather
            | O::ImageSparseDrefGather
            | O::ImageSparseTexelsResident
            | O::ImageSparseRead
    )
}

/// What this family checks (see [`coverage`](crate::validate::coverage)).
pub(crate) const COVERAGE: crate::validate::coverage::Family = crate::validate::coverage::Family {
    opcodes: &[
        O::TypeImage,
        O::TypeSampledImage,
        O::SampledImage,
        O::ImageTexelPointer,
        O::ImageSampleImplicitLod,
        O::ImageSampleExplicitLod,
        O::ImageSampleDrefImplicitLod,
        O::ImageSampleDrefExplicitLod,
        O::ImageSampleProjImplicitLod,
        O::ImageSampleProjExplicitLod,
        O::ImageSampleProjDrefImplicitLod,
        O::ImageSampleProjDrefExplicitLod,
        O::ImageFetch,
        O::ImageGather,
        O::ImageDrefGather,
        O::ImageRead,
        O::ImageWrite,
        O::Image,
        O::ImageQueryFormat,
        O::ImageQueryOrder,
        O::ImageQuerySizeLod,
        O::ImageQuerySize,
        O::ImageQueryLod,
        O::ImageQueryLevels,
        O::ImageQuerySamples,
        O::ImageSparseSampleImplicitLod,
        O::ImageSparseSampleExplicitLod,
        O::ImageSparseSampleDrefImplicitLod,
        O::ImageSparseSampleDrefExplicitLod,
        O::ImageSparseSampleProjImplicitLod,
        O::ImageSparseSampleProjExplicitLod,
        O::ImageSparseSampleProjDrefImplicitLod,
        O::ImageSparseSampleProjDrefExplicitLod,
        O::ImageSparseFetch,
        O::ImageSparseGather,
        O::ImageSparseDrefGather,
        O::ImageSparseTexelsResident,
        O::ImageSparseRead,
        O::ImageSampleWeightedQCOM,
        O::ImageBoxFilterQCOM,
        O::ImageBlockMatchSSDQCOM,
        O::ImageBlockMatchSADQCOM,
        O::ImageBlockMatchWindowSADQCOM,
        O::ImageBlockMatchWindowSSDQCOM,
        O::ImageBlockMatchGatherSADQCOM,
        O::ImageBlockMatchGatherSSDQCOM,
    ],
    ..crate::validate::coverage::Family::new("images", "validate_image.cpp")
};
