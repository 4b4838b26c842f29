//! Target environments: the client APIs and SPIR-V versions a module may be meant for,
//! with the names, versions and descriptions SPIRV-Tools 2025.5 gives them. The
//! validator, the assembler's `--target-env` and the asm macros all read them here.

use crate::grammar::Version;
use core::fmt;

/// A target environment, as SPIRV-Tools 2025.5 knows them (`spv_target_env`).
///
/// ```
/// use spirv_core::TargetEnv;
/// let env = TargetEnv::parse("vulkan1.2").unwrap();
/// assert_eq!(env, TargetEnv::Vulkan1_2);
/// assert_eq!(env.version(), (1, 5));
/// assert!(env.is_vulkan());
/// assert_eq!(env.to_string(), "SPIR-V 1.5 (under Vulkan 1.2 semantics)");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum TargetEnv {
    /// `spv1.0`: SPIR-V 1.0 with no client API's rules.
    Universal1_0,
    /// `spv1.1`.
    Universal1_1,
    /// `spv1.2`.
    Universal1_2,
    /// `spv1.3`.
    Universal1_3,
    /// `spv1.4`.
    Universal1_4,
    /// `spv1.5`.
    Universal1_5,
    /// `spv1.6`: spirv-val's default.
    Universal1_6,
    /// `vulkan1.0`: SPIR-V 1.0 under Vulkan 1.0.
    Vulkan1_0,
    /// `vulkan1.1`: SPIR-V 1.3 under Vulkan 1.1.
    Vulkan1_1,
    /// `vulkan1.1spv1.4`: SPIR-V 1.4 under Vulkan 1.1.
    Vulkan1_1Spirv1_4,
    /// `vulkan1.2`: SPIR-V 1.5 under Vulkan 1.2.
    Vulkan1_2,
    /// `vulkan1.3`: SPIR-V 1.6 under Vulkan 1.3.
    Vulkan1_3,
    /// `vulkan1.4`: SPIR-V 1.6 under Vulkan 1.4.
    Vulkan1_4,
    /// `opencl1.2`: SPIR-V 1.0 under OpenCL 1.2, full profile.
    OpenCl1_2,
    /// `opencl1.2embedded`.
    OpenClEmbedded1_2,
    /// `opencl2.0`.
    OpenCl2_0,
    /// `opencl2.0embedded`.
    OpenClEmbedded2_0,
    /// `opencl2.1`.
    OpenCl2_1,
    /// `opencl2.1embedded`.
    OpenClEmbedded2_1,
    /// `opencl2.2`: SPIR-V 1.2 under OpenCL 2.2.
    OpenCl2_2,
    /// `opencl2.2embedded`.
    OpenClEmbedded2_2,
    /// `opengl4.0`: SPIR-V 1.0 under OpenGL 4.0.
    OpenGl4_0,
    /// `opengl4.1`.
    OpenGl4_1,
    /// `opengl4.2`.
    OpenGl4_2,
    /// `opengl4.3`.
    OpenGl4_3,
    /// `opengl4.5`.
    OpenGl4_5,
}

/// Every environment with its `--target-env` name, in the order SPIRV-Tools lists them
/// (and matches them: a name is found by its first entry that is a prefix of it, so
/// `vulkan1.1spv1.4` comes before `vulkan1.1`).
const NAMES: [(&str, TargetEnv); 26] = [
    ("vulkan1.0", TargetEnv::Vulkan1_0),
    ("vulkan1.1spv1.4", TargetEnv::Vulkan1_1Spirv1_4),
    ("vulkan1.1", TargetEnv::Vulkan1_1),
    ("vulkan1.2", TargetEnv::Vulkan1_2),
    ("vulkan1.3", TargetEnv::Vulkan1_3),
    ("vulkan1.4", TargetEnv::Vulkan1_4),
    ("spv1.0", TargetEnv::Universal1_0),
    ("spv1.1", TargetEnv::Universal1_1),
    ("spv1.2", TargetEnv::Universal1_2),
    ("spv1.3", TargetEnv::Universal1_3),
    ("spv1.4", TargetEnv::Universal1_4),
    ("spv1.5", TargetEnv::Universal1_5),
    ("spv1.6", TargetEnv::Universal1_6),
    ("opencl1.2embedded", TargetEnv::OpenClEmbedded1_2),
    ("opencl1.2", TargetEnv::OpenCl1_2),
    ("opencl2.0embedded", TargetEnv::OpenClEmbedded2_0),
    ("opencl2.0", TargetEnv::OpenCl2_0),
    ("opencl2.1embedded", TargetEnv::OpenClEmbedded2_1),
    ("opencl2.1", TargetEnv::OpenCl2_1),
    ("opencl2.2embedded", TargetEnv::OpenClEmbedded2_2),
    ("opencl2.2", TargetEnv::OpenCl2_2),
    ("opengl4.0", TargetEnv::OpenGl4_0),
    ("opengl4.1", TargetEnv::OpenGl4_1),
    ("opengl4.2", TargetEnv::OpenGl4_2),
    ("opengl4.3", TargetEnv::OpenGl4_3),
    ("opengl4.5", TargetEnv::OpenGl4_5),
];

impl Default for TargetEnv {
    /// [`TargetEnv::Universal1_6`], spirv-val's default.
    fn default() -> Self {
        TargetEnv::Universal1_6
    }
}

impl TargetEnv {
    /// Every environment, in the order `spirv-val --help` lists their names.
    pub fn all() -> impl Iterator<Item = TargetEnv> {
        NAMES.iter().map(|&(_, e)| e)
    }

    /// The environment a `--target-env` name selects, as SPIRV-Tools 2025.5 reads it:
    /// the first name in [`TargetEnv::all`]'s order that is a prefix of `name`, so
    /// `vulkan1.2spv1.5` selects [`TargetEnv::Vulkan1_2`]. `None` when none is.
    pub fn parse(name: &str) -> Option<TargetEnv> {
        NAMES
            .iter()
            .find(|(n, _)| name.starts_with(n))
            .map(|&(_, e)| e)
    }

    /// The environment's own `--target-env` name.
    pub fn name(self) -> &'static str {
        NAMES
            .iter()
            .find(|&&(_, e)| e == self)
            .map_or("", |&(n, _)| n)
    }

    /// The newest SPIR-V version the environment accepts.
    pub fn version(self) -> Version {
        use TargetEnv as E;
        match self {
            E::Universal1_0
            | E::Vulkan1_0
            | E::OpenCl1_2
            | E::OpenClEmbedded1_2
            | E::OpenCl2_0
            | E::OpenClEmbedded2_0
            | E::OpenCl2_1
            | E::OpenClEmbedded2_1
            | E::OpenGl4_0
            | E::OpenGl4_1
            | E::OpenGl4_2
            | E::OpenGl4_3
            | E::OpenGl4_5 => (1, 0),
            E::Universal1_1 => (1, 1),
            E::Universal1_2 | E::OpenCl2_2 | E::OpenClEmbedded2_2 => (1, 2),
            E::Universal1_3 | E::Vulkan1_1 => (1, 3),
            E::Universal1_4 | E::Vulkan1_1Spirv1_4 => (1, 4),
            E::Universal1_5 | E::Vulkan1_2 => (1, 5),
            E::Universal1_6 | E::Vulkan1_3 | E::Vulkan1_4 => (1, 6),
        }
    }

    /// Whether the environment is a Vulkan one.
    pub fn is_vulkan(self) -> bool {
        matches!(
            self,
            TargetEnv::Vulkan1_0
                | TargetEnv::Vulkan1_1
                | TargetEnv::Vulkan1_1Spirv1_4
                | TargetEnv::Vulkan1_2
                | TargetEnv::Vulkan1_3
                | TargetEnv::Vulkan1_4
        )
    }

    /// Whether the environment is an OpenCL one.
    pub fn is_opencl(self) -> bool {
        matches!(
            self,
            TargetEnv::OpenCl1_2
                | TargetEnv::OpenClEmbedded1_2
                | TargetEnv::OpenCl2_0
                | TargetEnv::OpenClEmbedded2_0
                | TargetEnv::OpenCl2_1
                | TargetEnv::OpenClEmbedded2_1
                | TargetEnv::OpenCl2_2
                | TargetEnv::OpenClEmbedded2_2
        )
    }

    /// Whether the environment is an OpenCL embedded profile.
    pub fn is_opencl_embedded(self) -> bool {
        matches!(
            self,
            TargetEnv::OpenClEmbedded1_2
                | TargetEnv::OpenClEmbedded2_0
                | TargetEnv::OpenClEmbedded2_1
                | TargetEnv::OpenClEmbedded2_2
        )
    }
}

/// The SPIR-V version a `--target-env` name implies, as SPIRV-Tools 2025.5 maps them
/// (`spv1.X`, `vulkan1.X`, `vulkan1.1spv1.4`, `opencl*`, `opengl4.*`): the
/// [`TargetEnv::parse`] of the name, then its [`TargetEnv::version`]; `None` for a name
/// it does not know.
///
/// ```
/// use spirv_core::target_env_version;
/// assert_eq!(target_env_version("vulkan1.2"), Some((1, 5)));
/// assert_eq!(target_env_version("opencl2.2"), Some((1, 2)));
/// assert_eq!(target_env_version("vulkan9"), None);
/// ```
pub fn target_env_version(name: &str) -> Option<(u8, u8)> {
    TargetEnv::parse(name).map(TargetEnv::version)
}

impl fmt::Display for TargetEnv {
    /// SPIRV-Tools' description: `SPIR-V 1.3 (under Vulkan 1.1 semantics)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use TargetEnv as E;
        let (major, minor) = self.version();
        write!(f, "SPIR-V {major}.{minor}")?;
        let under = match self {
            E::Universal1_0
            | E::Universal1_1
            | E::Universal1_2
            | E::Universal1_3
            | E::Universal1_4
            | E::Universal1_5
            | E::Universal1_6 => return Ok(()),
            E::Vulkan1_0 => "Vulkan 1.0",
            E::Vulkan1_1 | E::Vulkan1_1Spirv1_4 => "Vulkan 1.1",
            E::Vulkan1_2 => "Vulkan 1.2",
            E::Vulkan1_3 => "Vulkan 1.3",
            E::Vulkan1_4 => "Vulkan 1.4",
            E::OpenCl1_2 => "OpenCL 1.2 Full Profile",
            E::OpenClEmbedded1_2 => "OpenCL 1.2 Embedded Profile",
            E::OpenCl2_0 => "OpenCL 2.0 Full Profile",
            E::OpenClEmbedded2_0 => "OpenCL 2.0 Embedded Profile",
            E::OpenCl2_1 => "OpenCL 2.1 Full Profile",
            E::OpenClEmbedded2_1 => "OpenCL 2.1 Embedded Profile",
            E::OpenCl2_2 => "OpenCL 2.2 Full Profile",
            E::OpenClEmbedded2_2 => "OpenCL 2.2 Embedded Profile",
            E::OpenGl4_0 => "OpenGL 4.0",
            E::OpenGl4_1 => "OpenGL 4.1",
            E::OpenGl4_2 => "OpenGL 4.2",
            E::OpenGl4_3 => "OpenGL 4.3",
            E::OpenGl4_5 => "OpenGL 4.5",
        };
        write!(f, " (under {under} semantics)")
    }
}

#[cfg(test)]
mod tests {
    use super::TargetEnv;

    #[test]
    fn every_name_parses_to_itself_and_prefixes_select_the_first_match() {
        for env in TargetEnv::all() {
            assert_eq!(TargetEnv::parse(env.name()), Some(env));
        }
        assert_eq!(
            TargetEnv::parse("vulkan1.1spv1.4"),
            Some(TargetEnv::Vulkan1_1Spirv1_4)
        );
        assert_eq!(
            TargetEnv::parse("vulkan1.2spv1.5"),
            Some(TargetEnv::Vulkan1_2)
        );
        assert_eq!(TargetEnv::parse("vulkan9"), None);
        assert_eq!(TargetEnv::all().count(), 26);
    }
}
