//! The module's features (spirv-opt's `FeatureManager`): its capabilities with those
//! they imply, its extensions, and the first imports of the extended sets spirv-opt
//! looks up by name.

use crate::ir::{Ir, Section};
use spirv_core::spv::Opcode as O;
use std::collections::BTreeSet;

/// The module's features.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Features {
    capabilities: BTreeSet<u32>,
    extensions: BTreeSet<String>,
    /// The first `GLSL.std.450` import, or 0.
    pub glsl_std_450: u32,
    /// The first `OpenCL.DebugInfo.100` import, or 0.
    pub opencl_debug_info: u32,
    /// The first `NonSemantic.Shader.DebugInfo.100` import, or 0.
    pub shader_debug_info: u32,
    /// Every import whose name starts with `NonSemantic.`.
    pub non_semantic_sets: Vec<u32>,
    /// Every `GLSL.std.450` import.
    pub glsl_sets: Vec<u32>,
}

impl Features {
    /// The features of `ir` (`FeatureManager::Analyze`).
    pub fn build(ir: &Ir) -> Features {
        let mut f = Features::default();
        for i in ir.section(Section::Extension) {
            let d = ir.data(i);
            let at = if d.opcode() == O::ConditionalExtensionINTEL {
                1
            } else {
                0
            };
            f.extensions.insert(d.string(at));
        }
        for i in ir.section(Section::Capability) {
            let d = ir.data(i);
            let at = if d.opcode() == O::ConditionalCapabilityINTEL {
                1
            } else {
                0
            };
            f.add_capability(d.in_word(at));
        }
        f.analyze_imports(ir);
        f
    }

    /// Looks up the imports again (`AddExtInstImportIds`).
    pub fn analyze_imports(&mut self, ir: &Ir) {
        self.glsl_std_450 = ir.ext_inst_import_id("GLSL.std.450");
        self.opencl_debug_info = ir.ext_inst_import_id("OpenCL.DebugInfo.100");
        self.shader_debug_info = ir.ext_inst_import_id("NonSemantic.Shader.DebugInfo.100");
        self.non_semantic_sets = ir
            .section(Section::ExtInstImport)
            .filter(|&i| ir.data(i).string(1).starts_with("NonSemantic."))
            .map(|i| ir.result_id(i))
            .collect();
        self.glsl_sets = ir
            .section(Section::ExtInstImport)
            .filter(|&i| ir.data(i).string(1) == "GLSL.std.450")
            .map(|i| ir.result_id(i))
            .collect();
    }

    /// Adds a capability and those it implies (`AddCapability`).
    pub fn add_capability(&mut self, cap: u32) {
        let mut work = vec![cap];
        while let Some(c) = work.pop() {
            if !self.capabilities.insert(c) {
                continue;
            }
            if let Some(e) = spirv_core::spv::kinds::Capability.enumerant(c) {
                work.extend(e.capabilities.iter().copied());
            }
        }
    }

    /// Forgets a capability (not those it implies) (`RemoveCapability`).
    pub fn remove_capability(&mut self, cap: u32) {
        self.capabilities.remove(&cap);
    }

    /// Whether the module has `cap`, declared or implied (`HasCapability`).
    pub fn has_capability(&self, cap: u32) -> bool {
        self.capabilities.contains(&cap)
    }

    /// Whether the module declares extension `name` (`HasExtension`).
    pub fn has_extension(&self, name: &str) -> bool {
        self.extensions.contains(name)
    }

    /// Adds an extension.
    pub fn add_extension(&mut self, name: &str) {
        self.extensions.insert(name.to_owned());
    }

    /// Forgets an extension.
    pub fn remove_extension(&mut self, name: &str) {
        self.extensions.remove(name);
    }

    /// The capabilities, declared and implied.
    pub fn capabilities(&self) -> impl Iterator<Item = u32> + '_ {
        self.capabilities.iter().copied()
    }
}
