//! spirv-val's extension pass (`ExtensionPass` in `validate_extensions.cpp`):
//! extensions that need a newer SPIR-V version, `NonSemantic.` imports without
//! `SPV_KHR_non_semantic_info`, and the rules of the extended instruction sets, one
//! file per set: [`glsl`] (`GLSL.std.450`), [`opencl`] (`OpenCL.std`), [`debug_info`]
//! (`OpenCL.DebugInfo.100` and `NonSemantic.Shader.DebugInfo.100`, which share their
//! rules) and [`clspv`] (`NonSemantic.ClspvReflection.N`). Instructions are named, and
//! told apart, by the vendored grammars.

use super::Query;
use super::faults::faults;
use super::{Fault, Inst};
use crate::__private::{String, Vec};
use crate::codec;
use crate::grammar::Version;
use crate::spv::Opcode as O;
use ExtensionError as E;
use alloc::collections::BTreeMap;
use core::cell::OnceCell;

mod clspv;
mod debug_info;
mod glsl;
mod opencl;

pub use clspv::ClspvError;
pub use debug_info::DebugInfoRule;
pub use glsl::GlslRule;
pub use opencl::OpenClRule;

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

faults! {
    /// A fault of an extended instruction (`ValidateExtInst` in
    /// `validate_extensions.cpp`). `inst` names the instruction as spirv-val does: the
    /// import's name, a space, the grammar's name (`GLSL.std.450 Sqrt`).
    pub enum ExtInstError {
        /// A `GLSL.std.450` instruction's rule.
        Glsl {
            /// The instruction's name.
            inst: String,
            /// The rule.
            rule: GlslRule,
        } => "{inst}: {rule}",
        /// An interpolation instruction without the `InterpolationFunction` capability.
        InterpolationCapability {
            /// The instruction's name.
            inst: String,
        } => "{inst} requires capability InterpolationFunction",
        /// `GLSL.std.450` `IMix`, which spirv-val refuses.
        IMix => "Extended instruction GLSLstd450IMix is not supported",
        /// `GLSL.std.450` instruction 0.
        Bad => "Encountered extended instruction GLSLstd450Bad",
        /// An `OpenCL.std` instruction's rule.
        OpenCl {
            /// The instruction's name.
            inst: String,
            /// The rule.
            rule: OpenClRule,
        } => "{inst}: {rule}",
        /// An `OpenCL.std` instruction with a `size_t` operand in a logical
        /// addressing model.
        Physical {
            /// The instruction's name.
            inst: String,
        } => "{inst} can only be used with physical addressing models",
        /// An `OpenCL.DebugInfo.100` or `NonSemantic.Shader.DebugInfo.100`
        /// instruction's rule.
        DebugInfo {
            /// The instruction's name.
            inst: String,
            /// The rule.
            rule: DebugInfoRule,
        } => "{inst}: {rule}",
    }
    families {
        /// A `NonSemantic.ClspvReflection` fault.
        Clspv(ClspvError),
    }
}

/// spirv-val's `GetExtInstName`: the import's name and the instruction's grammar name.
pub(super) fn ext_inst_name(q: &Query<'_>, inst: &Inst<'_>) -> String {
    let import = import_name(q, inst);
    let grammar = crate::ext::VENDORED
        .iter()
        .find(|g| g.matches_import(&import));
    match grammar.and_then(|g| g.instruction(inst.word(3))) {
        Some(i) => {
            let mut name = String::from_utf8_lossy(&import).into_owned();
            name.push(' ');
            name.push_str(i.opname);
            name
        }
        None => String::from("Unknown ExtInst"),
    }
}

/// `IsUint32Constant`: whether `id` is an `OpConstant` of a 32-bit unsigned integer type.
fn is_uint32_constant(q: &Query<'_>, id: u32) -> bool {
    let t = q.type_of(id);
    q.opcode(id) == O::Constant
        && q.opcode(t) == O::TypeInt
        && q.word(t, 2) == Some(32)
        && q.word(t, 3) == Some(0)
}

/// The name an extended instruction's `OpExtInstImport` gives its set.
fn import_name(q: &Query<'_>, inst: &Inst<'_>) -> Vec<u8> {
    q.def(inst.word(2))
        .map(|d| codec::string_operand(d.words().get(2..).unwrap_or(&[])))
        .unwrap_or_default()
}

/// What the pass remembers across instructions: each entry-point function's
/// execution models and names, read on first use (`entry_point_descriptions`), and
/// which rules each import's instructions follow.
#[derive(Debug, Default)]
pub(super) struct Extension {
    entry_points: EntryPointNames,
    /// The rules of each import seen so far, by its id.
    sets: BTreeMap<u32, SetRules>,
    /// Where functions and blocks begin, read on first use by the debug-info rules.
    blocks: debug_info::Blocks,
}

/// Each entry-point function's `(execution model, name)` pairs, read once.
#[derive(Debug, Default)]
pub(super) struct EntryPointNames(OnceCell<BTreeMap<u32, Vec<EntryPoint>>>);

/// An entry point's execution model and name.
type EntryPoint = (u32, Vec<u8>);

impl EntryPointNames {
    /// The entry points `function` is, empty when none.
    pub(super) fn of(&self, q: &Query<'_>, function: u32) -> &[EntryPoint] {
        let map = self.0.get_or_init(|| {
            let mut map: BTreeMap<u32, Vec<EntryPoint>> = BTreeMap::new();
            for i in q.module.instructions() {
                if i.opcode() == O::EntryPoint {
                    let w = i.words();
                    let (Some(&model), Some(&f)) = (w.get(1), w.get(2)) else {
                        continue;
                    };
                    let name = codec::string_operand(w.get(3..).unwrap_or(&[]));
                    map.entry(f).or_default().push((model, name));
                }
            }
            map
        });
        map.get(&function).map_or(&[], Vec::as_slice)
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
#[inline(always)]
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>, memo: &mut Extension) -> Result<(), Fault> {
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
        O::ExtInst | O::ExtInstWithForwardRefsKHR => return ext_inst(q, inst, memo),
        _ => {}
    }
    Ok(())
}

/// Which rules an import's instructions follow, read once per import so that a long
/// name is not read again for each instruction.
#[derive(Debug, Clone)]
enum SetRules {
    Glsl,
    OpenCl,
    /// The version the name encodes, or the fault spirv-val reports at the import.
    Clspv(Result<u32, ClspvError>),
    /// `OpenCL.DebugInfo.100`, or with `shader` `NonSemantic.Shader.DebugInfo.100`.
    DebugInfo {
        shader: bool,
    },
    Unchecked,
}

/// `ValidateExtInst`: the rules of the instruction's set, for the sets spirv-val checks.
fn ext_inst(q: &Query<'_>, inst: &Inst<'_>, memo: &mut Extension) -> Result<(), Fault> {
    let rules = memo.sets.entry(inst.word(2)).or_insert_with(|| {
        let import = import_name(q, inst);
        match import.as_slice() {
            b"GLSL.std.450" => SetRules::Glsl,
            b"OpenCL.std" => SetRules::OpenCl,
            b"OpenCL.DebugInfo.100" => SetRules::DebugInfo { shader: false },
            b"NonSemantic.Shader.DebugInfo.100" => SetRules::DebugInfo { shader: true },
            n => match n.strip_prefix(b"NonSemantic.ClspvReflection.") {
                Some(suffix) => SetRules::Clspv(clspv::version(suffix)),
                None => SetRules::Unchecked,
            },
        }
    });
    let number = inst.word(3);
    let name = |g: &crate::grammar::Grammar| g.instruction(number).map_or("", |i| i.opname);
    match rules {
        SetRules::Glsl => glsl::check(q, inst, name(&crate::ext::glsl_std_450::GRAMMAR)),
        SetRules::OpenCl => opencl::check(q, inst, name(&crate::ext::opencl_std::GRAMMAR)),
        SetRules::DebugInfo { shader } => debug_info::check(q, inst, *shader, &memo.blocks),
        SetRules::Clspv(version) => clspv::check(q, inst, version.clone(), &memo.entry_points),
        SetRules::Unchecked => Ok(()),
    }
}

/// What this family checks (see [`coverage`](crate::validate::coverage)).
pub(crate) const COVERAGE: crate::validate::coverage::Family = crate::validate::coverage::Family {
    opcodes: {
        use crate::spv::Opcode as O;
        &[O::Extension, O::ExtInstImport]
    },
    ..crate::validate::coverage::Family::new("extensions", "validate_extensions.cpp")
};

/// What the extended-set rules check (see [`coverage`](crate::validate::coverage)).
pub(crate) const EXT_INST_COVERAGE: crate::validate::coverage::Family =
    crate::validate::coverage::Family {
        opcodes: {
            use crate::spv::Opcode as O;
            &[O::ExtInst, O::ExtInstWithForwardRefsKHR]
        },
        ..crate::validate::coverage::Family::new(
            "extended instruction sets",
            "validate_extensions.cpp",
        )
    };
