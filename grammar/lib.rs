//! The SPIR-V grammars that spirv-core is generated from, shipped as files: Khronos'
//! `spirv.core.grammar.json`, every `extinst.*.grammar.json` of SPIRV-Headers' `unified1`
//! folder, and the generator-id registry `spir-v.xml`. See `README.md` for the version
//! and the license.
//!
//! The files are read at build time: `spirv-grammar-codegen`'s build script lists
//! [`DIR`] (so an added or removed set rebuilds), and `include_grammar!(…, vendored =
//! true)` expands one of them. Nothing here is compiled into a program except what is
//! used.
//!
//! ```
//! let core = std::path::Path::new(spirv_grammar_data::DIR).join(spirv_grammar_data::CORE);
//! assert!(core.exists());
//! ```
#![no_std]

/// The folder holding the grammar files: this crate's own, wherever cargo unpacked it.
pub const DIR: &str = env!("CARGO_MANIFEST_DIR");

/// The core grammar's file name, in [`DIR`].
pub const CORE: &str = "spirv.core.grammar.json";

/// Khronos' registry of generator (tool) ids, `spir-v.xml`.
pub const GENERATORS_XML: &str = include_str!("spir-v.xml");

/// An extended instruction set whose `OpExtInstImport` name is known: the file, the
/// Rust module name spirv-core gives it, and how an import name selects it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KnownSet {
    /// The grammar file, in [`DIR`].
    pub file: &'static str,
    /// The module under `spirv_core::ext`.
    pub module: &'static str,
    /// How an import name selects the set.
    pub import: Import,
}

/// How an `OpExtInstImport` name selects an extended instruction set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Import {
    /// This exact name.
    Name(&'static str),
    /// Any name with this prefix (the name carries a version: `NonSemantic.ClspvReflection.6`).
    Prefix(&'static str),
}

/// The import names of the sets SPIRV-Headers ships. The grammar files do not say them;
/// they come from the specifications of the sets and agree with SPIRV-Tools. A set whose
/// file is not listed here is still generated: it gets a module named after its file and
/// is selected by import names that spell its file name (see
/// `spirv_core::grammar::Grammar::import_stem`).
pub const KNOWN_SETS: &[KnownSet] = &[
    known(
        "extinst.glsl.std.450.grammar.json",
        "glsl_std_450",
        Import::Name("GLSL.std.450"),
    ),
    known(
        "extinst.opencl.std.100.grammar.json",
        "opencl_std",
        Import::Name("OpenCL.std"),
    ),
    known(
        "extinst.debuginfo.grammar.json",
        "debug_info",
        Import::Name("DebugInfo"),
    ),
    known(
        "extinst.opencl.debuginfo.100.grammar.json",
        "opencl_debug_info_100",
        Import::Name("OpenCL.DebugInfo.100"),
    ),
    known(
        "extinst.nonsemantic.shader.debuginfo.100.grammar.json",
        "shader_debug_info_100",
        Import::Name("NonSemantic.Shader.DebugInfo.100"),
    ),
    known(
        "extinst.nonsemantic.clspvreflection.grammar.json",
        "clspv_reflection",
        Import::Prefix("NonSemantic.ClspvReflection."),
    ),
    known(
        "extinst.nonsemantic.vkspreflection.grammar.json",
        "vksp_reflection",
        Import::Prefix("NonSemantic.VkspReflection."),
    ),
    known(
        "extinst.nonsemantic.debugprintf.grammar.json",
        "debug_printf",
        Import::Name("NonSemantic.DebugPrintf"),
    ),
    known(
        "extinst.nonsemantic.debugbreak.grammar.json",
        "debug_break",
        Import::Name("NonSemantic.DebugBreak"),
    ),
    known(
        "extinst.spv-amd-gcn-shader.grammar.json",
        "amd_gcn_shader",
        Import::Name("SPV_AMD_gcn_shader"),
    ),
    known(
        "extinst.spv-amd-shader-ballot.grammar.json",
        "amd_shader_ballot",
        Import::Name("SPV_AMD_shader_ballot"),
    ),
    known(
        "extinst.spv-amd-shader-explicit-vertex-parameter.grammar.json",
        "amd_shader_explicit_vertex_parameter",
        Import::Name("SPV_AMD_shader_explicit_vertex_parameter"),
    ),
    known(
        "extinst.spv-amd-shader-trinary-minmax.grammar.json",
        "amd_shader_trinary_minmax",
        Import::Name("SPV_AMD_shader_trinary_minmax"),
    ),
    known(
        "extinst.tosa.001000.1.grammar.json",
        "tosa_001000_1",
        Import::Name("TOSA.001000.1"),
    ),
    known(
        "extinst.arm.motion-engine.100.grammar.json",
        "arm_motion_engine_100",
        Import::Name("Arm.MotionEngine.100"),
    ),
];

const fn known(file: &'static str, module: &'static str, import: Import) -> KnownSet {
    KnownSet {
        file,
        module,
        import,
    }
}
