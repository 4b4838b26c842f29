//! Text helpers the assembler and the disassembler share: decimal output, SPIRV-Tools'
//! names for operand kinds in messages, and the SPIRV-Tools set filter. Neither of them
//! borrows from the other; both use these.

use spirv_core::ExtInstRegistry;

/// The sets of `base` known by name: those SPIRV-Tools 2025.5 knows
/// ([`spirv_core::ext::SPIRV_TOOLS_SETS`]) and every set the user
/// registered (one that is not among spirv-core's vendored sets), or all of them with
/// `all`. Only the vendored sets SPIRV-Tools lacks wait for `all`, so that the default
/// output is spirv-dis's.
pub(crate) fn spirv_tools_registry(base: &ExtInstRegistry, all: bool) -> ExtInstRegistry {
    if all {
        return base.clone();
    }
    let mut r = ExtInstRegistry::empty();
    for g in base.sets() {
        if !hidden_by_default(g) {
            r.register(g);
        }
    }
    r
}

/// Whether a set is known by name only with `all_ext_inst_names`: a vendored set that
/// SPIRV-Tools 2025.5 does not know.
pub(crate) fn hidden_by_default(g: &spirv_core::grammar::Grammar) -> bool {
    let spirv_tools = spirv_core::ext::spirv_tools_knows(g);
    let vendored = spirv_core::ext::VENDORED
        .iter()
        .any(|v| core::ptr::eq(*v, g));
    vendored && !spirv_tools
}

/// How SPIRV-Tools names an operand kind in parse messages ("Invalid dimensionality
/// 'Foo'.", "Invalid built-in operand: 99"): `spvOperandTypeStr` of 2025.5. `set` is the
/// import name of the extended set whose grammar the kind comes from (`None` for the core
/// grammar): SPIRV-Tools prefixes OpenCL.DebugInfo.100's kinds with the set's name. Kinds
/// it names by rule are spaced out from their grammar names (`StorageClass` → `storage
/// class`); the rest are listed.
pub(crate) fn kind_description(set: Option<&str>, kind: &str) -> String {
    let debug = |s: &str| match kind {
        "DebugBaseTypeAttributeEncoding" => format!("{s}debug base type encoding"),
        _ => format!("{s}{}", kind_words(kind)),
    };
    match set {
        Some("DebugInfo") => return debug(""),
        Some("OpenCL.DebugInfo.100") => return debug("OpenCL.DebugInfo.100 "),
        _ => {}
    }
    let listed = match kind {
        "Dim" => "dimensionality",
        "BuiltIn" => "built-in",
        "ImageOperands" => "image",
        "FragmentShadingRate" => "shading rate",
        // SPIRV-Tools' spelling.
        "KernelEnqueueFlags" => "kernel enqeue flags",
        "FPFastMathMode" => "floating-point fast math mode",
        "FPRoundingMode" => "floating-point rounding mode",
        "FPEncoding" => "FP encoding",
        "FPDenormMode" => "FP denorm mode",
        "FPOperationMode" => "FP operation mode",
        "QuantizationModes" => "quantization mode",
        "OverflowModes" => "overflow mode",
        _ => return kind_words(kind),
    };
    listed.into()
}

/// A kind's grammar name spaced out and in lower case: `StorageClass` → `storage class`.
fn kind_words(kind: &str) -> String {
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
