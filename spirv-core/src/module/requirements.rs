//! What a module needs: the capabilities, extensions and minimum version its
//! instructions and enumerants require, from the grammar's metadata.

use super::Module;
use crate::__private::Vec;
use crate::grammar::{KindClass, Version};
use crate::spv;
use crate::walk::{self, WalkOptions};

impl Module {
    /// Capabilities, extensions and minimum version that the instructions and enumerants
    /// used require, from the grammar's metadata.
    pub fn requirements(&self) -> Requirements {
        let mut r = Requirements {
            capabilities: Vec::new(),
            extensions: Vec::new(),
            min_version: (1, 0),
        };
        for inst in self.instructions() {
            let Some(info) = inst.info() else { continue };
            r.add(info.capabilities, info.extensions, info.version);
            let ops = inst.operands();
            let _ = walk::walk(info, ops, &self.ids, WalkOptions::default(), &mut |p| {
                let v = ops[p.start];
                match p.kind.class {
                    // A Capability enumerant's `capabilities` are those it implicitly
                    // declares, not requirements.
                    KindClass::ValueEnum if core::ptr::eq(p.kind, &spv::kinds::Capability) => {}
                    KindClass::ValueEnum => {
                        if let Some(e) = p.kind.enumerant(v) {
                            r.add(e.capabilities, e.extensions, e.version);
                        }
                    }
                    KindClass::BitEnum => {
                        for bit in crate::grammar::set_bits(v) {
                            if let Some(e) = p.kind.enumerant(bit) {
                                r.add(e.capabilities, e.extensions, e.version);
                            }
                        }
                    }
                    _ => {}
                }
            });
        }
        r
    }
}

/// What a module needs, from [`Module::requirements`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Requirements {
    /// Capability alternatives: each entry is satisfied by declaring any one of its names.
    pub capabilities: Vec<&'static [&'static str]>,
    /// Extensions that enable the items used (each list: any one of them).
    pub extensions: Vec<&'static [&'static str]>,
    /// The highest `version` among items that no extension enables.
    pub min_version: Version,
}

impl Requirements {
    fn add(
        &mut self,
        caps: &'static [&'static str],
        exts: &'static [&'static str],
        version: Option<Version>,
    ) {
        if !caps.is_empty() && !self.capabilities.contains(&caps) {
            self.capabilities.push(caps);
        }
        if !exts.is_empty() && !self.extensions.contains(&exts) {
            self.extensions.push(exts);
        }
        if exts.is_empty() {
            if let Some(v) = version {
                self.min_version = self.min_version.max(v);
            }
        }
    }

    /// Whether declaring `declared` capabilities satisfies every capability entry.
    pub fn capabilities_met_by(&self, declared: &[&str]) -> bool {
        self.capabilities
            .iter()
            .all(|alts| alts.iter().any(|c| declared.contains(c)))
    }
}
