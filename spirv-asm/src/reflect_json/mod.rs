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
    spirv_cross_text(r).map(SpirvCrossText::into_string)
}

/// Like [`spirv_cross_json_of`], for a caller that writes the text out: every refusal
/// is found before the text is written, and the text need not be held whole. It is
/// kept, in pieces, while it stays within a few times the module's size; a longer text
/// (a struct's every member takes a few lines) is only measured, and made again as it
/// is written.
///
/// ```
/// let words = spirv_asm::assemble_str(
///     "OpCapability Shader\nOpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %main \"main\"\n\
///      OpExecutionMode %main LocalSize 8 1 1\n%void = OpTypeVoid\n%fn = OpTypeFunction %void\n\
///      %main = OpFunction %void None %fn\n%l = OpLabel\nOpReturn\nOpFunctionEnd\n",
///     &Default::default(),
/// )
/// .unwrap();
/// let module = spirv_core::Module::from_words(&words).unwrap();
/// let r = spirv_core::reflect::Reflection::new(&module);
/// let text = spirv_asm::reflect_json::spirv_cross_text(&r).unwrap();
/// let len = text.len();
/// let mut out = Vec::new();
/// text.write_to(&mut out).unwrap();
/// assert_eq!(out.len(), len);
/// assert_eq!(out, spirv_asm::reflect_json::spirv_cross_json(&module).unwrap().into_bytes());
/// ```
///
/// # Errors
/// See [`spirv_cross_json`].
pub fn spirv_cross_text<'a, 'm>(
    r: &'a Reflection<'m>,
) -> Result<SpirvCrossText<'a, 'm>, ReflectError> {
    // Proportional to the input, so that a kind of module keeps or remakes its text
    // whatever its size.
    let limit = r.module().word_len().saturating_mul(4 * KEPT_PER_BYTE) + (1 << 16);
    let (dest, len) = write(
        r,
        json::Dest::Keep {
            pieces: Vec::new(),
            limit,
        },
    )?;
    let pieces = match dest {
        json::Dest::Keep { pieces, .. } => Some(pieces),
        _ => None,
    };
    Ok(SpirvCrossText { r, pieces, len })
}

/// The most text kept, per byte of the module.
const KEPT_PER_BYTE: usize = 4;

/// Makes the text into `dest`.
fn write<'w>(
    r: &Reflection<'_>,
    dest: json::Dest<'w>,
) -> Result<(json::Dest<'w>, usize), ReflectError> {
    let run = || -> Result<(json::Dest<'w>, usize), String> {
        let c = cross::Cross::new(r)?;
        let mut j = json::Json::new(dest);
        c.entry_points(&mut j)?;
        c.types(&mut j)?;
        c.resources(&mut j)?;
        c.spec_constants(&mut j)?;
        Ok(j.finish())
    };
    run().map_err(|message| ReflectError { message })
}

/// `--format spirv-cross`'s text, known to be complete (see [`spirv_cross_text`]).
#[derive(Debug)]
pub struct SpirvCrossText<'a, 'm> {
    r: &'a Reflection<'m>,
    /// The text, unless it was too long to keep.
    pieces: Option<Vec<String>>,
    len: usize,
}

impl SpirvCrossText<'_, '_> {
    /// The text's length in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the text is empty (it never is: it is a JSON object).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Writes the text to `w`.
    ///
    /// # Errors
    /// What `w` returns.
    pub fn write_to(self, w: &mut dyn std::io::Write) -> std::io::Result<()> {
        if let Some(pieces) = self.pieces {
            for piece in pieces {
                w.write_all(piece.as_bytes())?;
            }
            return Ok(());
        }
        let dest = json::Dest::Write {
            sink: w,
            error: None,
        };
        match write(self.r, dest) {
            Ok((json::Dest::Write { error: Some(e), .. }, _)) => Err(e),
            Ok(_) => Ok(()),
            // Not reached: the first making found no refusal.
            Err(e) => Err(std::io::Error::other(e.message)),
        }
    }

    /// The text as one string.
    pub fn into_string(self) -> String {
        if let Some(pieces) = &self.pieces {
            let mut s = String::with_capacity(self.len);
            pieces.iter().for_each(|p| s.push_str(p));
            return s;
        }
        let mut bytes = Vec::with_capacity(self.len);
        let _ = self.write_to(&mut bytes);
        String::from_utf8(bytes).unwrap_or_default()
    }
}
