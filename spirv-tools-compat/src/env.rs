//! [`TargetEnv`]: `spirv-tools`' environments (spirv-tools-sys' `shared::TargetEnv`),
//! with their names and SPIR-V versions, and what they are for `spirv_core`.

use crate::error::{Error, SpirvResult};
use core::fmt;

/// The environment a module is meant for: SPIR-V alone (`Universal_*`) or under a
/// client API's rules. The variants and their order are `spirv-tools`'.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
#[allow(non_camel_case_types, clippy::upper_case_acronyms)]
pub enum TargetEnv {
    /// SPIR-V 1.0.
    Universal_1_0,
    /// Vulkan 1.0.
    Vulkan_1_0,
    /// SPIR-V 1.1.
    Universal_1_1,
    /// OpenCL 2.1, full profile.
    OpenCL_2_1,
    /// OpenCL 2.2, full profile.
    OpenCL_2_2,
    /// OpenGL 4.0 with `GL_ARB_gl_spirv`.
    OpenGL_4_0,
    /// OpenGL 4.1 with `GL_ARB_gl_spirv`.
    OpenGL_4_1,
    /// OpenGL 4.2 with `GL_ARB_gl_spirv`.
    OpenGL_4_2,
    /// OpenGL 4.3 with `GL_ARB_gl_spirv`.
    OpenGL_4_3,
    /// OpenGL 4.5 with `GL_ARB_gl_spirv`.
    OpenGL_4_5,
    /// SPIR-V 1.2.
    Universal_1_2,
    /// OpenCL 1.2 full profile with `cl_khr_il_program`.
    OpenCL_1_2,
    /// OpenCL 1.2 embedded profile with `cl_khr_il_program`.
    OpenCLEmbedded_1_2,
    /// OpenCL 2.0 full profile with `cl_khr_il_program`.
    OpenCL_2_0,
    /// OpenCL 2.0 embedded profile with `cl_khr_il_program`.
    OpenCLEmbedded_2_0,
    /// OpenCL 2.1, embedded profile.
    OpenCLEmbedded_2_1,
    /// OpenCL 2.2, embedded profile.
    OpenCLEmbedded_2_2,
    /// SPIR-V 1.3.
    Universal_1_3,
    /// Vulkan 1.1.
    Vulkan_1_1,
    /// Removed from SPIRV-Tools; an error wherever it is used.
    WebGPU_0_DEPRECATED,
    /// SPIR-V 1.4.
    Universal_1_4,
    /// Vulkan 1.1 with `VK_KHR_spirv_1_4`.
    Vulkan_1_1_Spirv_1_4,
    /// SPIR-V 1.5: the default, as in `spirv-tools`.
    #[default]
    Universal_1_5,
    /// Vulkan 1.2.
    Vulkan_1_2,
    /// SPIR-V 1.6.
    Universal_1_6,
    /// Vulkan 1.3.
    Vulkan_1_3,
    /// Vulkan 1.4.
    Vulkan_1_4,
}

/// Each environment, its name and `spirv_core`'s environment (`None`: WebGPU).
const TABLE: [(TargetEnv, &str, Option<spirv_core::TargetEnv>); 27] = {
    use TargetEnv as T;
    use spirv_core::TargetEnv as C;
    [
        (
            T::Vulkan_1_1_Spirv_1_4,
            "vulkan1.1spv1.4",
            Some(C::Vulkan1_1Spirv1_4),
        ),
        (T::Vulkan_1_0, "vulkan1.0", Some(C::Vulkan1_0)),
        (T::Vulkan_1_1, "vulkan1.1", Some(C::Vulkan1_1)),
        (T::Vulkan_1_2, "vulkan1.2", Some(C::Vulkan1_2)),
        (T::Vulkan_1_3, "vulkan1.3", Some(C::Vulkan1_3)),
        (T::Vulkan_1_4, "vulkan1.4", Some(C::Vulkan1_4)),
        (T::Universal_1_0, "spv1.0", Some(C::Universal1_0)),
        (T::Universal_1_1, "spv1.1", Some(C::Universal1_1)),
        (T::Universal_1_2, "spv1.2", Some(C::Universal1_2)),
        (T::Universal_1_3, "spv1.3", Some(C::Universal1_3)),
        (T::Universal_1_4, "spv1.4", Some(C::Universal1_4)),
        (T::Universal_1_5, "spv1.5", Some(C::Universal1_5)),
        (T::Universal_1_6, "spv1.6", Some(C::Universal1_6)),
        (
            T::OpenCLEmbedded_1_2,
            "opencl1.2embedded",
            Some(C::OpenClEmbedded1_2),
        ),
        (T::OpenCL_1_2, "opencl1.2", Some(C::OpenCl1_2)),
        (
            T::OpenCLEmbedded_2_0,
            "opencl2.0embedded",
            Some(C::OpenClEmbedded2_0),
        ),
        (T::OpenCL_2_0, "opencl2.0", Some(C::OpenCl2_0)),
        (
            T::OpenCLEmbedded_2_1,
            "opencl2.1embedded",
            Some(C::OpenClEmbedded2_1),
        ),
        (T::OpenCL_2_1, "opencl2.1", Some(C::OpenCl2_1)),
        (
            T::OpenCLEmbedded_2_2,
            "opencl2.2embedded",
            Some(C::OpenClEmbedded2_2),
        ),
        (T::OpenCL_2_2, "opencl2.2", Some(C::OpenCl2_2)),
        (T::OpenGL_4_0, "opengl4.0", Some(C::OpenGl4_0)),
        (T::OpenGL_4_1, "opengl4.1", Some(C::OpenGl4_1)),
        (T::OpenGL_4_2, "opengl4.2", Some(C::OpenGl4_2)),
        (T::OpenGL_4_3, "opengl4.3", Some(C::OpenGl4_3)),
        (T::OpenGL_4_5, "opengl4.5", Some(C::OpenGl4_5)),
        (T::WebGPU_0_DEPRECATED, "webgpu0_DEPRECATED", None),
    ]
};

impl TargetEnv {
    /// The lowest SPIR-V version `(major, minor)` the environment takes: the header
    /// version the assembler writes for it.
    pub fn spirv_version(&self) -> (u8, u8) {
        match self {
            TargetEnv::Universal_1_1 => (1, 1),
            TargetEnv::Universal_1_2 | TargetEnv::OpenCL_2_2 | TargetEnv::OpenCLEmbedded_2_2 => {
                (1, 2)
            }
            TargetEnv::Universal_1_3 | TargetEnv::Vulkan_1_1 | TargetEnv::WebGPU_0_DEPRECATED => {
                (1, 3)
            }
            TargetEnv::Universal_1_4 | TargetEnv::Vulkan_1_1_Spirv_1_4 => (1, 4),
            TargetEnv::Universal_1_5 | TargetEnv::Vulkan_1_2 => (1, 5),
            TargetEnv::Universal_1_6 | TargetEnv::Vulkan_1_3 | TargetEnv::Vulkan_1_4 => (1, 6),
            _ => (1, 0),
        }
    }

    fn row(&self) -> &'static (TargetEnv, &'static str, Option<spirv_core::TargetEnv>) {
        // Every variant has a row; the first is never reached in practice.
        TABLE.iter().find(|r| r.0 == *self).unwrap_or(&TABLE[0])
    }

    /// `spirv_core`'s environment, or the error for WebGPU, which SPIRV-Tools dropped.
    pub(crate) fn core(&self) -> Result<spirv_core::TargetEnv, Error> {
        self.row().2.ok_or_else(|| Error {
            inner: SpirvResult::InvalidValue,
            diagnostic: Some(
                "the WebGPU environment is no longer supported by SPIRV-Tools"
                    .to_owned()
                    .into(),
            ),
        })
    }
}

impl std::str::FromStr for TargetEnv {
    type Err = SpirvResult;

    /// The environment of a `--target-env` name (`vulkan1.2`, `spv1.5`, …).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        TABLE
            .iter()
            .find(|r| r.1 == s)
            .map(|r| r.0)
            .ok_or(SpirvResult::InvalidValue)
    }
}

impl fmt::Display for TargetEnv {
    /// The `--target-env` name.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.row().1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_versions_follow_the_core() {
        for (env, name, core) in TABLE {
            assert_eq!(env.to_string(), name);
            assert_eq!(name.parse::<TargetEnv>(), Ok(env));
            if let Some(c) = core {
                let (major, minor) = env.spirv_version();
                assert_eq!(c.version(), (major, minor), "{name}");
                assert_eq!(c.name(), name);
            }
        }
        assert_eq!(
            "vulkan9".parse::<TargetEnv>(),
            Err(SpirvResult::InvalidValue)
        );
        assert_eq!(TargetEnv::default(), TargetEnv::Universal_1_5);
    }
}
