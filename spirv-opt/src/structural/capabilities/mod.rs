//! `--trim-capabilities`: spirv-opt 2025.5's `TrimCapabilitiesPass`
//! (`source/opt/trim_capabilities_pass.cpp`), with its opcode handlers in
//! [`handlers`].

mod handlers;

use super::Edits;
use super::duplicates::Decorations;
use handlers::Handlers;
use spirv_core::edit::{EditError, Editor, InstId};
use spirv_core::grammar::{Enumerant, KindClass};
use spirv_core::spv::Opcode as O;
use spirv_core::{Declared, Module, Section};
use std::collections::BTreeSet;

/// Capability values the pass and its handlers name.
mod cap {
    pub(super) const SHADER: u32 = 1;
    pub(super) const LINKAGE: u32 = 5;
    pub(super) const FLOAT16: u32 = 9;
    pub(super) const FLOAT64: u32 = 10;
    pub(super) const INT64: u32 = 11;
    pub(super) const INT16: u32 = 22;
    pub(super) const IMAGE_MS_ARRAY: u32 = 48;
    pub(super) const STORAGE_IMAGE_READ_WITHOUT_FORMAT: u32 = 55;
    pub(super) const STORAGE_IMAGE_WRITE_WITHOUT_FORMAT: u32 = 56;
    /// Also `StorageUniformBufferBlock16`.
    pub(super) const STORAGE_BUFFER_16BIT_ACCESS: u32 = 4433;
    /// `UniformAndStorageBuffer16BitAccess`.
    pub(super) const STORAGE_UNIFORM_16: u32 = 4434;
    pub(super) const STORAGE_PUSH_CONSTANT_16: u32 = 4435;
    pub(super) const STORAGE_INPUT_OUTPUT_16: u32 = 4436;
    pub(super) const VULKAN_MEMORY_MODEL_DEVICE_SCOPE: u32 = 5346;
}

/// The capabilities the pass knows (`kSupportedCapabilities`), by value:
/// ComputeDerivativeGroupLinearKHR, ComputeDerivativeGroupQuadsKHR, Float16, Float64,
/// FragmentShaderPixelInterlockEXT, FragmentShaderSampleInterlockEXT,
/// FragmentShaderShadingRateInterlockEXT, Geometry, GroupNonUniform,
/// GroupNonUniformArithmetic, GroupNonUniformClustered, GroupNonUniformPartitionedNV,
/// GroupNonUniformVote, Groups, ImageMSArray, Int16, Int64, InterpolationFunction,
/// Linkage, MinLod, PhysicalStorageBufferAddresses, RayQueryKHR, RayTracingKHR,
/// RayTraversalPrimitiveCullingKHR, Shader, ShaderClockKHR, StorageBuffer16BitAccess
/// (also named StorageUniformBufferBlock16), StorageImageReadWithoutFormat,
/// StorageImageWriteWithoutFormat, StorageInputOutput16, StoragePushConstant16,
/// StorageUniform16, VulkanMemoryModelDeviceScope, QuadControlKHR.
const SUPPORTED: [u32; 34] = [
    5350, 5288, 9, 10, 5378, 5363, 5372, 2, 61, 63, 67, 5297, 62, 18, 48, 22, 11, 52, 5, 42, 5347,
    4472, 4479, 4478, 1, 5055, 4433, 55, 56, 4436, 4435, 4434, 5346, 5087,
];

/// `MemoryModel::Vulkan`.
const VULKAN: u32 = 3;

fn supported(c: u32) -> bool {
    SUPPORTED.contains(&c)
}

/// Opcodes whose grammar capabilities the pass leaves out
/// (`hasOpcodeConflictingCapabilities`): the interlock and the non-uniform arithmetic
/// ones.
fn conflicting(op: O) -> bool {
    matches!(
        op,
        O::BeginInvocationInterlockEXT
            | O::EndInvocationInterlockEXT
            | O::GroupNonUniformIAdd
            | O::GroupNonUniformFAdd
            | O::GroupNonUniformIMul
            | O::GroupNonUniformFMul
            | O::GroupNonUniformSMin
            | O::GroupNonUniformUMin
            | O::GroupNonUniformFMin
            | O::GroupNonUniformSMax
            | O::GroupNonUniformUMax
            | O::GroupNonUniformFMax
            | O::GroupNonUniformBitwiseAnd
            | O::GroupNonUniformBitwiseOr
            | O::GroupNonUniformBitwiseXor
            | O::GroupNonUniformLogicalAnd
            | O::GroupNonUniformLogicalOr
            | O::GroupNonUniformLogicalXor
    )
}

/// What a module needs, as the pass collects it.
#[derive(Default)]
struct Needs {
    capabilities: BTreeSet<u32>,
    extensions: BTreeSet<&'static str>,
}

impl Needs {
    /// An instruction's or enumerant's requirement: its supported capabilities, and its
    /// extensions when no core version up to 1.6 has it (spirv-opt's target is
    /// `universal1.6`; a grammar version is at most 1.6, so only "no version" counts).
    fn add(&mut self, capabilities: &[u32], extensions: &[&'static str], versionless: bool) {
        self.capabilities
            .extend(capabilities.iter().copied().filter(|&c| supported(c)));
        if versionless {
            self.extensions.extend(extensions.iter().copied());
        }
    }

    fn add_enumerant(&mut self, e: &Enumerant) {
        self.add(e.capabilities, e.extensions, e.version.is_none());
    }
}

/// `--trim-capabilities`: removes the capabilities among the supported ones (except
/// `Shader`) that nothing in the module needs, and the extensions of supported
/// capabilities that nothing needs; does nothing to a module with `Linkage`.
///
/// As spirv-opt 2025.5:
/// - a capability is needed when an instruction (not `OpCapability` or `OpExtension`),
///   an enumerant or mask bit of its operands, or an extended instruction lists it in the
///   grammar (any of the listed ones counts), or a handler finds it needed (16- and
///   64-bit scalar types, multisampled image arrays, images read or written without a
///   format, 16-bit types in Input/Output, PushConstant, Uniform, `Block` or
///   `BufferBlock` storage); any `Scope` operand needs `VulkanMemoryModelDeviceScope`
///   under the Vulkan memory model;
/// - the interlock and non-uniform arithmetic opcodes' own capabilities are not counted;
/// - capabilities are considered with those they imply, so trimming an implied
///   capability that no instruction declares removes nothing but still counts as a
///   change (and the bound is then recomputed);
/// - extensions count as needed only for items no core version up to 1.6 has, so an
///   extension promoted to core by 1.6 (`SPV_KHR_16bit_storage`,
///   `SPV_KHR_vulkan_memory_model`, …) goes whatever the module's version.
///
/// # Errors
/// The operands of an instruction cannot be laid out, or the edited module does not
/// read.
pub(crate) fn trim_capabilities_edits<'m>(module: &'m Module) -> Result<Edits<'m>, EditError> {
    let declared: Vec<u32> = module
        .section(Section::Capability)
        .filter_map(|i| match i.opcode() {
            O::ConditionalCapabilityINTEL => i.operands().get(1).copied(),
            _ => i.operands().first().copied(),
        })
        .collect();
    let all = Declared::new(module.header().version(), declared, []).capabilities;
    if all.binary_search(&cap::LINKAGE).is_ok() {
        return Ok(Edits::Unchanged);
    }
    let vulkan = module
        .section(Section::MemoryModel)
        .next()
        .is_some_and(|m| m.operands().get(1) == Some(&VULKAN));
    let decorations = Decorations::new(module);
    let mut handlers = Handlers::new(module, &decorations, &all);
    let mut needs = Needs::default();
    let mut found: Vec<u32> = Vec::new();
    for inst in module.instructions() {
        let opcode = inst.opcode();
        if matches!(
            opcode,
            O::Line
                | O::NoLine
                | O::Capability
                | O::ConditionalCapabilityINTEL
                | O::Extension
                | O::ConditionalExtensionINTEL
        ) {
            continue;
        }
        if opcode == O::ExtInst {
            let ext = inst.ext_inst();
            if let Some(info) = ext.and_then(|e| e.set?.instruction(e.number)) {
                needs.add(info.capabilities, &[], false);
            }
        } else if let Some(info) = inst.info().filter(|_| !conflicting(opcode)) {
            needs.add(info.capabilities, info.extensions, info.version.is_none());
        }
        if let Some(info) = inst.info() {
            let ops = inst.operands();
            spirv_core::walk::walk(
                info,
                ops,
                module.ids(),
                spirv_core::walk::WalkOptions::default(),
                &mut |p| {
                    if p.len != 1 {
                        return;
                    }
                    let v = ops[p.start];
                    match p.kind.class {
                        KindClass::Id if vulkan && p.kind.name == "IdScope" => {
                            needs
                                .capabilities
                                .insert(cap::VULKAN_MEMORY_MODEL_DEVICE_SCOPE);
                        }
                        KindClass::ValueEnum => {
                            if let Some(e) = p.kind.enumerant(v) {
                                needs.add_enumerant(e);
                            }
                        }
                        KindClass::BitEnum => {
                            for bit in spirv_core::grammar::set_bits(v) {
                                if let Some(e) = p.kind.enumerant(bit) {
                                    needs.add_enumerant(e);
                                }
                            }
                        }
                        _ => {}
                    }
                },
            )
            .map_err(|(kind, at)| {
                spirv_core::DecodeError::new(kind, inst.offset() + 1 + at, inst.index())
            })?;
        }
        found.clear();
        handlers.run(&inst, &mut found);
        needs.capabilities.extend(found.iter().copied());
    }
    let capability_of = |c: u32| spirv_core::spv::kinds::Capability.enumerant(c);
    for &c in &needs.capabilities {
        if let Some(e) = capability_of(c).filter(|e| e.version.is_none()) {
            needs.extensions.extend(e.extensions.iter().copied());
        }
    }
    let trim: Vec<u32> = all
        .iter()
        .copied()
        .filter(|&c| c != cap::SHADER && supported(c) && !needs.capabilities.contains(&c))
        .collect();
    let mut editor = Editor::new(module);
    let mut changed = !trim.is_empty();
    for inst in module.section(Section::Capability) {
        // spirv-opt compares operand 0, the condition of a conditional capability.
        if inst.operands().first().is_some_and(|c| trim.contains(c)) {
            editor.remove(InstId::from(inst.index()));
        }
    }
    let related: BTreeSet<&str> = SUPPORTED
        .iter()
        .filter_map(|&c| capability_of(c))
        .flat_map(|e| e.extensions.iter().copied())
        .collect();
    for inst in module.section(Section::Extension) {
        if inst.opcode() != O::Extension {
            continue;
        }
        let name = spirv_core::codec::string_operand(inst.operands());
        let name = core::str::from_utf8(&name).unwrap_or("");
        if related.contains(name) && !needs.extensions.contains(name) {
            editor.remove(InstId::from(inst.index()));
            changed = true;
        }
    }
    Ok(Edits::edited(editor, changed))
}
