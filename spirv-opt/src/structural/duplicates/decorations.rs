//! The decorations spirv-opt 2025.5's decoration manager finds for an id
//! (`source/opt/decoration_manager.cpp` `GetDecorationsFor(id, true)`,
//! `HasDecoration`), for `--remove-duplicates` and `--trim-capabilities`: answers from
//! the shared [`DecorationIndex`] under [`DecorationRules::SpirvOpt`] (which
//! instructions that manager tracks, and where it files an `OpGroupMemberDecorate`).

use spirv_core::Id;
use spirv_core::Module;
use spirv_core::analysis::{DecorationIndex, DecorationRules};
use spirv_core::spv::Opcode as O;

/// Decoration lookups over a module, as spirv-opt's decoration manager answers them.
pub(in crate::structural) struct Decorations<'m> {
    module: &'m Module,
    index: DecorationIndex<'m>,
}

impl<'m> Decorations<'m> {
    /// The lookups for `module`'s annotation section.
    pub(in crate::structural) fn new(module: &'m Module) -> Self {
        Decorations {
            module,
            index: DecorationIndex::of_annotations(module, DecorationRules::SpirvOpt),
        }
    }

    /// `GetDecorationsFor(id, true)`: the decoration instructions of `id`, by index:
    /// its own, then those of each group applied to it, in module order.
    pub(in crate::structural) fn of(&self, id: u32) -> Vec<usize> {
        self.index.decoration_instructions(Id(id))
    }

    /// `HasDecoration(id, decoration)`: whether one of `id`'s decorations (an
    /// `OpMemberDecorate`'s for any member) is `decoration`, whenever the group that
    /// gives it got it.
    pub(in crate::structural) fn has(&self, id: u32, decoration: u32) -> bool {
        self.of(id).into_iter().any(|d| {
            self.module.instruction(d).is_some_and(|inst| {
                let at = if inst.opcode() == O::MemberDecorate {
                    2
                } else {
                    1
                };
                inst.operands().get(at) == Some(&decoration)
            })
        })
    }

    /// The module.
    pub(in crate::structural) fn module(&self) -> &'m Module {
        self.module
    }
}
