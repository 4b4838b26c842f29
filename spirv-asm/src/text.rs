//! Text helpers the assembler and the disassembler share: decimal output, the words
//! for an operand kind in messages, and the SPIRV-Tools set filter. Neither of them
//! borrows from the other; both use these.

use spirv_core::walk::ExtInstRegistry;

/// The extended sets spirv-dis 2025.5 knows by name; others print as numbers with
/// every operand an id, unless `all_ext_inst_names` is set (assembler and disassembler alike).
pub const SPIRV_TOOLS_KNOWN_SETS: &[&str] = &[
    "GLSL.std.450",
    "OpenCL.std",
    "DebugInfo",
    "OpenCL.DebugInfo.100",
    "NonSemantic.Shader.DebugInfo.100",
    "NonSemantic.ClspvReflection.",
    "NonSemantic.VkspReflection.",
    "SPV_AMD_shader_explicit_vertex_parameter",
    "SPV_AMD_shader_trinary_minmax",
    "SPV_AMD_gcn_shader",
    "SPV_AMD_shader_ballot",
    "TOSA.001000.1",
    "Arm.MotionEngine.100",
];

/// The sets of `base` that SPIRV-Tools knows, or all of them with `all`.
pub(crate) fn spirv_tools_registry(base: &ExtInstRegistry, all: bool) -> ExtInstRegistry {
    if all {
        return base.clone();
    }
    let mut r = ExtInstRegistry::empty();
    for g in base.sets() {
        let known = SPIRV_TOOLS_KNOWN_SETS
            .iter()
            .any(|n| g.import_name == Some(*n) || g.import_prefix == Some(*n));
        if known {
            r.register(g);
        }
    }
    r
}

/// Human name of an operand kind in messages: `StorageClass` → `storage class`.
pub(crate) fn kind_words(kind: &str) -> String {
    let mut s = String::new();
    let mut prev_upper = false;
    for (i, c) in kind.char_indices() {
        if c.is_ascii_uppercase() && i > 0 && !prev_upper {
            s.push(' ');
        }
        prev_upper = c.is_ascii_uppercase();
        s.push(c.to_ascii_lowercase());
    }
    s
}

/// Appends `v` in decimal.
pub(crate) fn push_u32(out: &mut Vec<u8>, mut v: u32) {
    let mut buf = [0u8; 10];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    out.extend_from_slice(&buf[i..]);
}
