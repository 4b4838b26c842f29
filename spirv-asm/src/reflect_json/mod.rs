//! Reflection as text. [`spirv_cross_json`] prints what `spirv-cross FILE --reflect`
//! prints (SPIRV-Cross 2021.01.15+1.3.239.0, Debian's package), for build scripts that
//! parse that format. The reflection itself is spirv-core's
//! [`Reflection`]; the CLI's own JSON format is built
//! on it.
//!
//! ```
//! let words = spirv_asm::assemble_str(
//!     "OpCapability Shader\nOpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %main \"main\"\n\
//!      OpExecutionMode %main LocalSize 8 1 1\n%void = OpTypeVoid\n%fn = OpTypeFunction %void\n\
//!      %main = OpFunction %void None %fn\n%l = OpLabel\nOpReturn\nOpFunctionEnd\n",
//!     &Default::default(),
//! )
//! .unwrap();
//! let module = spirv_core::Module::from_words(&words).unwrap();
//! let json = spirv_asm::reflect_json::spirv_cross_json(&module).unwrap();
//! assert!(json.contains("\"workgroup_size\""));
//! ```

mod cross;
mod cross_resources;
mod cross_types;
mod json;

use spirv_core::Module;
use spirv_core::reflect::Reflection;
use std::fmt;

/// Why a module has no `--format spirv-cross` reflection: what SPIRV-Cross would say
/// (it refuses `Kernel` modules, modules without an entry point, blocks without
/// offsets, …).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ReflectError {
    /// The message.
    pub message: String,
}

impl fmt::Display for ReflectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ReflectError {}

/// `spirv-cross --reflect`'s JSON for `module`.
///
/// # Errors
/// The module is one SPIRV-Cross refuses; the error carries its reason.
pub fn spirv_cross_json(module: &Module) -> Result<String, ReflectError> {
    let r = Reflection::new(module);
    spirv_cross_json_of(&r)
}

/// Like [`spirv_cross_json`], from a reflection already made.
///
/// # Errors
/// See [`spirv_cross_json`].
pub fn spirv_cross_json_of(r: &Reflection<'_>) -> Result<String, ReflectError> {
    let run = || -> Result<String, String> {
        let c = cross::Cross::new(r)?;
        let mut j = json::Json::new();
        c.entry_points(&mut j)?;
        c.types(&mut j)?;
        c.resources(&mut j)?;
        c.spec_constants(&mut j)?;
        Ok(j.finish())
    };
    run().map_err(|message| ReflectError { message })
}
