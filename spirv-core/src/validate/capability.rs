//! The capabilities each target environment allows, as spirv-val 2025.5 checks
//! `OpCapability` against them (`source/val/validate_capability.cpp`): one row per
//! capability, saying from which Vulkan and OpenCL version it is allowed. A capability
//! with no row is allowed only through one of its enabling extensions (or, for
//! OpenCL, through `ImageBasic`). `vulkan1.1spv1.4`, the universal and the OpenGL
//! environments check nothing.

use super::State;
use super::error::ValidationErrorKind;
use crate::env::TargetEnv;
use crate::spv::Capability as C;

/// Where a capability is allowed.
struct Row {
    capability: C,
    /// The first Vulkan 1.x (the minor version) whose specification allows it,
    /// guaranteed or optional.
    vulkan: Option<u8>,
    /// The first OpenCL version whose full profile allows it: 0 for 1.2, 1 for
    /// 2.0/2.1, 2 for 2.2.
    opencl: Option<u8>,
    /// Whether OpenCL's embedded profiles leave it out.
    full_profile_only: bool,
    /// The first OpenCL version (as `opencl`) in which `ImageBasic` enables it.
    with_image_basic: Option<u8>,
}

const fn vk(capability: C, minor: u8) -> Row {
    Row {
        capability,
        vulkan: Some(minor),
        opencl: None,
        full_profile_only: false,
        with_image_basic: None,
    }
}

const fn cl(capability: C, since: u8) -> Row {
    Row {
        capability,
        vulkan: None,
        opencl: Some(since),
        full_profile_only: false,
        with_image_basic: None,
    }
}

const fn image_basic(capability: C, since: u8) -> Row {
    Row {
        capability,
        vulkan: None,
        opencl: None,
        full_profile_only: false,
        with_image_basic: Some(since),
    }
}

const ROWS: &[Row] = &[
    // Vulkan 1.0, guaranteed.
    vk(C::Matrix, 0),
    vk(C::Shader, 0),
    vk(C::InputAttachment, 0),
    Row {
        with_image_basic: Some(0),
        ..vk(C::Sampled1D, 0)
    },
    Row {
        with_image_basic: Some(0),
        ..vk(C::Image1D, 0)
    },
    Row {
        with_image_basic: Some(0),
        ..vk(C::SampledBuffer, 0)
    },
    Row {
        with_image_basic: Some(0),
        ..vk(C::ImageBuffer, 0)
    },
    vk(C::ImageQuery, 0),
    vk(C::DerivativeControl, 0),
    // Vulkan 1.0, optional.
    vk(C::Geometry, 0),
    vk(C::Tessellation, 0),
    Row {
        opencl: Some(0),
        ..vk(C::Float64, 0)
    },
    Row {
        opencl: Some(0),
        full_profile_only: true,
        ..vk(C::Int64, 0)
    },
    Row {
        opencl: Some(0),
        ..vk(C::Int16, 0)
    },
    vk(C::TessellationPointSize, 0),
    vk(C::GeometryPointSize, 0),
    vk(C::ImageGatherExtended, 0),
    vk(C::StorageImageMultisample, 0),
    vk(C::UniformBufferArrayDynamicIndexing, 0),
    vk(C::SampledImageArrayDynamicIndexing, 0),
    vk(C::StorageBufferArrayDynamicIndexing, 0),
    vk(C::StorageImageArrayDynamicIndexing, 0),
    vk(C::ClipDistance, 0),
    vk(C::CullDistance, 0),
    vk(C::ImageCubeArray, 0),
    vk(C::SampleRateShading, 0),
    vk(C::SparseResidency, 0),
    vk(C::MinLod, 0),
    vk(C::SampledCubeArray, 0),
    vk(C::ImageMSArray, 0),
    vk(C::StorageImageExtendedFormats, 0),
    vk(C::InterpolationFunction, 0),
    vk(C::StorageImageReadWithoutFormat, 0),
    vk(C::StorageImageWriteWithoutFormat, 0),
    vk(C::MultiViewport, 0),
    vk(C::Int64Atomics, 0),
    vk(C::TransformFeedback, 0),
    vk(C::GeometryStreams, 0),
    Row {
        opencl: Some(0),
        ..vk(C::Float16, 0)
    },
    Row {
        opencl: Some(0),
        ..vk(C::Int8, 0)
    },
    vk(C::BFloat16TypeKHR, 0),
    vk(C::Float8EXT, 0),
    // Vulkan 1.1.
    vk(C::DeviceGroup, 1),
    vk(C::MultiView, 1),
    vk(C::GroupNonUniform, 1),
    vk(C::GroupNonUniformVote, 1),
    vk(C::GroupNonUniformArithmetic, 1),
    vk(C::GroupNonUniformBallot, 1),
    vk(C::GroupNonUniformShuffle, 1),
    vk(C::GroupNonUniformShuffleRelative, 1),
    vk(C::GroupNonUniformClustered, 1),
    vk(C::GroupNonUniformQuad, 1),
    vk(C::DrawParameters, 1),
    vk(C::StorageBuffer16BitAccess, 1),
    vk(C::UniformAndStorageBuffer16BitAccess, 1),
    vk(C::StoragePushConstant16, 1),
    vk(C::StorageInputOutput16, 1),
    vk(C::VariablePointersStorageBuffer, 1),
    vk(C::VariablePointers, 1),
    // Vulkan 1.2.
    vk(C::ShaderNonUniform, 2),
    vk(C::DenormPreserve, 2),
    vk(C::DenormFlushToZero, 2),
    vk(C::SignedZeroInfNanPreserve, 2),
    vk(C::RoundingModeRTE, 2),
    vk(C::RoundingModeRTZ, 2),
    vk(C::VulkanMemoryModel, 2),
    vk(C::VulkanMemoryModelDeviceScope, 2),
    vk(C::StorageBuffer8BitAccess, 2),
    vk(C::UniformAndStorageBuffer8BitAccess, 2),
    vk(C::StoragePushConstant8, 2),
    vk(C::ShaderViewportIndex, 2),
    vk(C::ShaderLayer, 2),
    vk(C::PhysicalStorageBufferAddresses, 2),
    vk(C::RuntimeDescriptorArray, 2),
    vk(C::UniformTexelBufferArrayDynamicIndexing, 2),
    vk(C::StorageTexelBufferArrayDynamicIndexing, 2),
    vk(C::UniformBufferArrayNonUniformIndexing, 2),
    vk(C::SampledImageArrayNonUniformIndexing, 2),
    vk(C::StorageBufferArrayNonUniformIndexing, 2),
    vk(C::StorageImageArrayNonUniformIndexing, 2),
    vk(C::InputAttachmentArrayNonUniformIndexing, 2),
    vk(C::UniformTexelBufferArrayNonUniformIndexing, 2),
    vk(C::StorageTexelBufferArrayNonUniformIndexing, 2),
    // Vulkan 1.3.
    vk(C::DotProduct, 3),
    vk(C::DotProductInputAll, 3),
    vk(C::DotProductInput4x8Bit, 3),
    vk(C::DotProductInput4x8BitPacked, 3),
    vk(C::DemoteToHelperInvocation, 3),
    // Vulkan 1.4.
    vk(C::FloatControls2, 4),
    // OpenCL.
    cl(C::Addresses, 0),
    cl(C::Float16Buffer, 0),
    cl(C::Kernel, 0),
    cl(C::Linkage, 0),
    cl(C::Vector16, 0),
    cl(C::ImageBasic, 0),
    cl(C::DeviceEnqueue, 1),
    cl(C::GenericPointer, 1),
    cl(C::Groups, 1),
    cl(C::Pipes, 1),
    cl(C::SubgroupDispatch, 2),
    cl(C::PipeStorage, 2),
    image_basic(C::LiteralSampler, 0),
    image_basic(C::ImageReadWrite, 1),
];

/// The environment's row key: `Vulkan(minor)` or `OpenCl(since, embedded)`.
enum Family {
    Vulkan(u8),
    OpenCl(u8, bool),
}

fn family(env: TargetEnv) -> Option<Family> {
    use TargetEnv as E;
    Some(match env {
        E::Vulkan1_0 => Family::Vulkan(0),
        E::Vulkan1_1 => Family::Vulkan(1),
        E::Vulkan1_2 => Family::Vulkan(2),
        E::Vulkan1_3 => Family::Vulkan(3),
        E::Vulkan1_4 => Family::Vulkan(4),
        E::OpenCl1_2 => Family::OpenCl(0, false),
        E::OpenClEmbedded1_2 => Family::OpenCl(0, true),
        E::OpenCl2_0 | E::OpenCl2_1 => Family::OpenCl(1, false),
        E::OpenClEmbedded2_0 | E::OpenClEmbedded2_1 => Family::OpenCl(1, true),
        E::OpenCl2_2 => Family::OpenCl(2, false),
        E::OpenClEmbedded2_2 => Family::OpenCl(2, true),
        _ => return None,
    })
}

/// spirv-val's `CapabilityPass` for one declared capability.
pub(super) fn check(state: &State, capability: u32) -> Result<(), ValidationErrorKind> {
    let env = state.options.target_env;
    let Some(family) = family(env) else {
        return Ok(());
    };
    let row = ROWS.iter().find(|r| r.capability.0 == capability);
    let allowed = match (family, row) {
        (Family::Vulkan(minor), Some(r)) => r.vulkan.is_some_and(|v| v <= minor),
        (Family::OpenCl(since, embedded), Some(r)) => {
            r.opencl
                .is_some_and(|v| v <= since && !(embedded && r.full_profile_only))
                || (r.with_image_basic.is_some_and(|v| v <= since)
                    && state.has_capability(C::ImageBasic.0))
        }
        (_, None) => false,
    };
    if allowed || state.enabled_by_extension(capability) {
        return Ok(());
    }
    Err(ValidationErrorKind::CapabilityNotAllowed {
        capability: C(capability),
        env,
    })
}

/// What this family checks (see [`coverage`](crate::validate::coverage)).
pub(crate) const COVERAGE: crate::validate::coverage::Family =
    crate::validate::coverage::Family::new("capabilities", "validate_capability.cpp");
