//! spirv-val's extension pass (`ExtensionPass` in `validate_extensions.cpp`):
//! extensions that need a newer SPIR-V version, and `NonSemantic.` imports without
//! `SPV_KHR_non_semantic_info`. The extended sets' own instruction rules are not here
//! yet.

use super::Query;
use super::faults::faults;
use super::{Fault, Inst};
use crate::codec;
use crate::grammar::Version;
use crate::spv::Opcode as O;
use ExtensionError as E;

faults! {
    /// A fault of spirv-val's extension pass (`validate_extensions.cpp`).
    pub enum ExtensionError {
        /// An extension that needs a newer SPIR-V version.
        Version {
            /// The extension.
            extension: &'static str,
            /// The version it needs.
            needs: Version,
        } => "{extension} extension requires SPIR-V version {needs} or later.",
        /// A `NonSemantic.` import without `SPV_KHR_non_semantic_info` before SPIR-V 1.6.
        NonSemanticWithoutExtension
            => "NonSemantic extended instruction sets cannot be declared without SPV_KHR_non_semantic_info. (This can also be fixed having SPIR-V 1.6 or later)",
    }
}

/// Extensions that spirv-val 2025.5 allows only from a SPIR-V version on
/// (`ValidateExtension`).
const EXTENSION_VERSIONS: &[(&str, (u8, u8))] = &[
    ("SPV_KHR_vulkan_memory_model", (1, 3)),
    ("SPV_QCOM_cooperative_matrix_conversion", (1, 3)),
    ("SPV_KHR_workgroup_memory_explicit_layout", (1, 4)),
    ("SPV_EXT_mesh_shader", (1, 4)),
    ("SPV_NV_shader_invocation_reorder", (1, 4)),
    ("SPV_EXT_shader_invocation_reorder", (1, 4)),
    ("SPV_NV_cluster_acceleration_structure", (1, 4)),
    ("SPV_NV_linear_swept_spheres", (1, 4)),
    ("SPV_QCOM_image_processing", (1, 4)),
    ("SPV_QCOM_image_processing2", (1, 4)),
];

/// The extension pass for one instruction.
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let state = q.state;
    let operands = inst.words.get(1..).unwrap_or(&[]);
    match inst.opcode {
        O::Extension => {
            let name = codec::string_operand(operands);
            for &(ext, needs) in EXTENSION_VERSIONS {
                if name.as_slice() == ext.as_bytes() && state.version < needs {
                    return Err(E::Version {
                        extension: ext,
                        needs,
                    }
                    .into());
                }
            }
        }
        O::ExtInstImport => {
            let name = codec::string_operand(operands.get(1..).unwrap_or(&[]));
            if state.version <= (1, 5)
                && !state.has_extension("SPV_KHR_non_semantic_info")
                && name.starts_with(b"NonSemantic.")
            {
                return Err(E::NonSemanticWithoutExtension.into());
            }
        }
        _ => {}
    }
    Ok(())
}

/// What this family checks (see [`coverage`](crate::validate::coverage)).
pub(crate) const COVERAGE: crate::validate::coverage::Family = crate::validate::coverage::Family {
    opcodes: {
        use crate::spv::Opcode as O;
        &[O::Extension, O::ExtInstImport]
    },
    ..crate::validate::coverage::Family::new("extensions", "validate_extensions.cpp")
};
