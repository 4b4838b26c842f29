//! spirv-val's `ValidationState_t` (`validation_state.cpp`): what the validator knows
//! of a module. [`State`] is what the first loop learns as it goes (definitions, ids
//! referred to forward, declared capabilities and extensions with the features they
//! switch on, the layout section reached, the function and block open, entry points and
//! calls); [`Query`] is how every later rule reads the module once the first loop is
//! done: an id's definition, type and opcode, its decorations (the shared
//! [`DecorationIndex`](crate::analysis::DecorationIndex) under spirv-val's rules), and the
//! questions about types ([`types`]). Instructions as the passes see them are in
//! [`instruction`]; entry points and the call tree, read once for the families that ask,
//! in [`entry_points`].

mod cooperative;
mod entry_points;
mod forward_ids;
mod id_bits;
mod instruction;
mod types;

pub(crate) use crate::analysis::decorations::{Dec, DecorationIndex as Decorations, NO_MEMBER};
pub use cooperative::ShapeError;
pub(crate) use cooperative::{cooperative_shapes, cooperative_sizes, is_use};
pub(crate) use entry_points::{EntryCalls, EntryDesc};
pub(crate) use forward_ids::ForwardIds;
pub(crate) use id_bits::IdBits;
pub(crate) use instruction::{Inst, OperandMemo, decode, memoized};
pub(crate) use types::{
    Scalar, Step, contains_runtime_array, contains_step, contains_type, largest_scalar, reaches,
};

use super::Options;
use crate::__private::Vec;
use crate::analysis::table::IdTable;
use crate::module::{InstRef, Module};
use crate::spirv_tools::SetKind;
use crate::spv::{self, Capability as C, Opcode};
use alloc::collections::{BTreeMap, BTreeSet};

/// spirv-val's layout sections (`ModuleLayoutSection`), in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum LayoutSection {
    Capabilities,
    Extensions,
    ExtInstImport,
    MemoryModel,
    SamplerImageAddressMode,
    EntryPoint,
    ExecutionMode,
    Debug1,
    Debug2,
    Debug3,
    Annotations,
    Types,
    FunctionDeclarations,
    FunctionDefinitions,
    GraphDefinitions,
}

impl LayoutSection {
    /// The next section (`ProgressToNextLayoutSectionOrder`); the graph section is last.
    pub(crate) fn next(self) -> Self {
        use LayoutSection as L;
        match self {
            L::Capabilities => L::Extensions,
            L::Extensions => L::ExtInstImport,
            L::ExtInstImport => L::MemoryModel,
            L::MemoryModel => L::SamplerImageAddressMode,
            L::SamplerImageAddressMode => L::EntryPoint,
            L::EntryPoint => L::ExecutionMode,
            L::ExecutionMode => L::Debug1,
            L::Debug1 => L::Debug2,
            L::Debug2 => L::Debug3,
            L::Debug3 => L::Annotations,
            L::Annotations => L::Types,
            L::Types => L::FunctionDeclarations,
            L::FunctionDeclarations => L::FunctionDefinitions,
            L::FunctionDefinitions | L::GraphDefinitions => L::GraphDefinitions,
        }
    }
}

/// Where a graph definition stands (`GraphDefinitionRegion`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum GraphRegion {
    Outside,
    Begin,
    Inputs,
    Body,
    Outputs,
}

/// What is known of a defined id.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Def {
    /// The defining instruction's index.
    pub(crate) index: u32,
    pub(crate) opcode: Opcode,
    /// Its result type, 0 for none.
    pub(crate) type_id: u32,
    /// An extended instruction of a non-semantic set.
    pub(crate) non_semantic: bool,
}

/// The function being read.
#[derive(Debug, Default)]
pub(crate) struct OpenFunction {
    pub(crate) id: u32,
    pub(crate) result_type: u32,
    /// The `OpFunction`'s index.
    pub(crate) index: u32,
    pub(crate) block_count: usize,
    pub(crate) first_block: Option<u32>,
    /// The open block's label, if a block is open.
    pub(crate) block: Option<u32>,
    /// Blocks that are some header's merge block.
    pub(crate) merge_blocks: BTreeSet<u32>,
}

/// Features spirv-val switches on by capability or extension (`ValidationState_t::Feature`).
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Features {
    pub(crate) free_fp_rounding_mode: bool,
    pub(crate) group_ops_reduce_and_scans: bool,
}

/// The validator's state over one module.
pub(crate) struct State<'o> {
    pub(crate) options: &'o Options<'o>,
    pub(crate) version: (u8, u8),
    pub(crate) bound: u32,
    /// How many words the module has: the dense part of id tables stays below twice
    /// that.
    pub(crate) words: usize,
    pub(crate) defs: IdTable<Def>,
    /// Ids referred to forward and not defined yet, in spirv-val's order.
    pub(crate) forward: ForwardIds,
    pub(crate) forward_pointers: BTreeSet<u32>,
    /// Declared capabilities and those they imply, sorted.
    capabilities: Vec<u32>,
    /// Extensions registered by spirv-val's first look (the `OpExtension`s before any
    /// other instruction but `OpCapability`), sorted.
    extensions: Vec<Vec<u8>>,
    pub(crate) features: Features,
    /// Extended sets by import id.
    pub(crate) sets: BTreeMap<u32, SetKind>,
    pub(crate) section: LayoutSection,
    pub(crate) function: Option<OpenFunction>,
    pub(crate) graph: GraphRegion,
    /// The first `OpMemoryModel`'s addressing and memory models.
    pub(crate) models: Option<(spv::AddressingModel, spv::MemoryModel)>,
    pub(crate) sampler_addressing: u32,
    pub(crate) local_variables: u32,
    pub(crate) global_variables: u32,
    /// Struct nesting depth by struct id.
    pub(crate) struct_depth: IdTable<u32>,
    /// `OpEntryPoint` names and execution models seen, for duplicates.
    pub(crate) entry_names: BTreeSet<(Vec<u8>, u32)>,
    /// Entry point functions, in order.
    pub(crate) entry_points: Vec<u32>,
    pub(crate) graph_entry_points: usize,
    /// Functions named by `OpFunctionCall`.
    pub(crate) call_targets: BTreeSet<u32>,
    pub(crate) mesh_nv: bool,
    pub(crate) mesh_ext: bool,
}

impl<'o> State<'o> {
    pub(crate) fn new(
        options: &'o Options<'o>,
        header: &crate::binary::Header,
        words: usize,
    ) -> Self {
        State {
            options,
            version: header.version(),
            bound: header.bound,
            words,
            defs: IdTable::new(),
            forward: ForwardIds::default(),
            forward_pointers: BTreeSet::new(),
            capabilities: Vec::new(),
            extensions: Vec::new(),
            features: Features::default(),
            sets: BTreeMap::new(),
            section: LayoutSection::Capabilities,
            function: None,
            graph: GraphRegion::Outside,
            models: None,
            sampler_addressing: 0,
            local_variables: 0,
            global_variables: 0,
            struct_depth: IdTable::new(),
            entry_names: BTreeSet::new(),
            entry_points: Vec::new(),
            graph_entry_points: 0,
            call_targets: BTreeSet::new(),
            mesh_nv: false,
            mesh_ext: false,
        }
    }

    /// The cap below which id tables index densely.
    pub(crate) fn dense_cap(&self) -> usize {
        self.words.saturating_mul(2).max(1024)
    }

    pub(crate) fn def(&self, id: u32) -> Option<&Def> {
        self.defs.get(id)
    }

    pub(crate) fn in_function(&self) -> bool {
        self.function.is_some()
    }

    pub(crate) fn in_block(&self) -> bool {
        self.function.as_ref().is_some_and(|f| f.block.is_some())
    }

    /// `addressing_model()`: the module's, or spirv-val's `Max` before one is known.
    pub(crate) fn addressing_model(&self) -> spv::AddressingModel {
        self.models
            .map_or(spv::AddressingModel(0x7fff_ffff), |(a, _)| a)
    }

    /// `memory_model()`: the module's, or spirv-val's `Max` before one is known.
    pub(crate) fn memory_model(&self) -> spv::MemoryModel {
        self.models
            .map_or(spv::MemoryModel(0x7fff_ffff), |(_, m)| m)
    }

    pub(crate) fn has_capability(&self, capability: u32) -> bool {
        self.capabilities.binary_search(&capability).is_ok()
    }

    pub(crate) fn has_extension(&self, name: &str) -> bool {
        self.extensions
            .binary_search_by(|e| e.as_slice().cmp(name.as_bytes()))
            .is_ok()
    }

    pub(crate) fn has_any_extension(&self, exts: &[&str]) -> bool {
        exts.iter().any(|e| self.has_extension(e))
    }

    /// Whether one of a capability's enabling extensions is declared.
    pub(crate) fn enabled_by_extension(&self, capability: u32) -> bool {
        spv::kinds::Capability
            .enumerant(capability)
            .is_some_and(|e| self.has_any_extension(e.extensions))
    }

    /// `RegisterExtension`.
    pub(crate) fn register_extension(&mut self, name: &[u8]) {
        if let Err(at) = self.extensions.binary_search_by(|e| e.as_slice().cmp(name)) {
            self.extensions.insert(at, name.to_vec());
        }
        if name == b"SPV_AMD_shader_ballot" {
            self.features.group_ops_reduce_and_scans = true;
        }
    }

    /// `RegisterCapability`: the capability, those it implies (transitively), and the
    /// features any of them switches on.
    pub(crate) fn register_capability(&mut self, capability: u32) {
        let mut pending = Vec::from([capability]);
        while let Some(c) = pending.pop() {
            let Err(at) = self.capabilities.binary_search(&c) else {
                continue;
            };
            self.capabilities.insert(at, c);
            if let Some(e) = spv::kinds::Capability.enumerant(c) {
                pending.extend_from_slice(e.capabilities);
            }
            match C(c) {
                C::Kernel => self.features.group_ops_reduce_and_scans = true,
                C::StorageBuffer16BitAccess
                | C::UniformAndStorageBuffer16BitAccess
                | C::StoragePushConstant16
                | C::StorageInputOutput16
                | C::WorkgroupMemoryExplicitLayout16BitAccessKHR => {
                    self.features.free_fp_rounding_mode = true;
                }
                _ => {}
            }
        }
    }
}

/// The analyses the families share, built on first use and kept for the whole
/// validation (behind a shared borrow, as every family reads the module through one).
#[derive(Debug, Default)]
pub(crate) struct Analyses {
    /// Which sized scalars each type holds.
    pub(crate) scalars: core::cell::RefCell<types::Scalars>,
}

/// The module, with what the first loop learnt, for the rules that follow it.
#[derive(Clone, Copy)]
pub(crate) struct Query<'a> {
    pub(crate) module: &'a Module,
    pub(crate) state: &'a State<'a>,
    /// The decorations of every id (`id_decorations`, `HasDecoration`).
    pub(crate) decorations: &'a Decorations<'a>,
    /// The analyses built on first use.
    pub(crate) analyses: &'a Analyses,
    /// The execution-model limitations the passes register on functions.
    pub(crate) limitations: &'a core::cell::RefCell<super::limitations::Limitations>,
}

impl<'a> Query<'a> {
    pub(crate) fn new(
        module: &'a Module,
        state: &'a State<'a>,
        decorations: &'a Decorations<'a>,
        analyses: &'a Analyses,
        limitations: &'a core::cell::RefCell<super::limitations::Limitations>,
    ) -> Self {
        Query {
            module,
            state,
            decorations,
            analyses,
            limitations,
        }
    }

    /// The instruction that defines `id` (`FindDef`).
    pub(crate) fn def(&self, id: u32) -> Option<InstRef<'a>> {
        let d = self.state.def(id)?;
        self.module.instruction(d.index as usize)
    }

    /// A word of `id`'s definition, counted from its leading word (`inst->word(i)`).
    pub(crate) fn word(&self, id: u32, i: usize) -> Option<u32> {
        self.def(id)?.words().get(i).copied()
    }

    /// The opcode of `id`'s definition (`GetIdOpcode`): `OpNop` when undefined.
    pub(crate) fn opcode(&self, id: u32) -> Opcode {
        self.state.def(id).map_or(Opcode::Nop, |d| d.opcode)
    }

    /// The result type of `id`'s definition (`GetTypeId`): 0 when none.
    pub(crate) fn type_of(&self, id: u32) -> u32 {
        self.state.def(id).map_or(0, |d| d.type_id)
    }

    /// The type of instruction `inst`'s operand `i` (`GetOperandTypeId`), 0 when it has
    /// none.
    pub(crate) fn operand_type(&self, inst: &Inst<'_>, i: usize) -> u32 {
        self.type_of(inst.word(i))
    }
}
