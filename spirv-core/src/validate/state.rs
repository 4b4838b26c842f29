//! What the validator knows as it goes through a module, as spirv-val's
//! `ValidationState_t` keeps it: definitions, ids referred to forward, declared
//! capabilities and extensions (with the features they switch on), the layout section
//! reached, the function and block open, entry points and calls.

use super::Options;
use crate::__private::Vec;
use crate::analysis::table::IdTable;
use crate::spirv_tools::SetKind;
use crate::spv::{self, Capability as C, Opcode};
use alloc::collections::{BTreeMap, BTreeSet};

/// spirv-val's layout sections (`ModuleLayoutSection`), in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum LayoutSection {
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
    pub(super) fn next(self) -> Self {
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
pub(super) enum GraphRegion {
    Outside,
    Begin,
    Inputs,
    Body,
    Outputs,
}

/// What is known of a defined id.
#[derive(Debug, Clone, Copy)]
pub(super) struct Def {
    /// The defining instruction's index.
    pub(super) index: u32,
    pub(super) opcode: Opcode,
    /// Its result type, 0 for none.
    pub(super) type_id: u32,
    /// An extended instruction of a non-semantic set.
    pub(super) non_semantic: bool,
}

/// The function being read.
#[derive(Debug, Default)]
pub(super) struct OpenFunction {
    pub(super) id: u32,
    pub(super) result_type: u32,
    /// The `OpFunction`'s index.
    pub(super) index: u32,
    pub(super) block_count: usize,
    pub(super) first_block: Option<u32>,
    /// The open block's label, if a block is open.
    pub(super) block: Option<u32>,
    /// Blocks that are some header's merge block.
    pub(super) merge_blocks: BTreeSet<u32>,
}

/// Features spirv-val switches on by capability or extension (`ValidationState_t::Feature`).
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct Features {
    pub(super) free_fp_rounding_mode: bool,
    pub(super) group_ops_reduce_and_scans: bool,
}

/// The validator's state over one module.
pub(super) struct State<'o> {
    pub(super) options: &'o Options<'o>,
    pub(super) version: (u8, u8),
    pub(super) bound: u32,
    /// How many words the module has: the dense part of id tables stays below twice
    /// that.
    pub(super) words: usize,
    pub(super) defs: IdTable<Def>,
    /// Ids referred to forward and not defined yet, in spirv-val's order.
    pub(super) forward: ForwardIds,
    pub(super) forward_pointers: BTreeSet<u32>,
    /// Declared capabilities and those they imply, sorted.
    capabilities: Vec<u32>,
    /// Extensions registered by spirv-val's first look (the `OpExtension`s before any
    /// other instruction but `OpCapability`), sorted.
    extensions: Vec<Vec<u8>>,
    pub(super) features: Features,
    /// Extended sets by import id.
    pub(super) sets: BTreeMap<u32, SetKind>,
    pub(super) section: LayoutSection,
    pub(super) function: Option<OpenFunction>,
    pub(super) graph: GraphRegion,
    pub(super) memory_model: bool,
    pub(super) sampler_addressing: u32,
    pub(super) local_variables: u32,
    pub(super) global_variables: u32,
    /// Struct nesting depth by struct id.
    pub(super) struct_depth: IdTable<u32>,
    /// `OpEntryPoint` names and execution models seen, for duplicates.
    pub(super) entry_names: BTreeSet<(Vec<u8>, u32)>,
    /// Entry point functions, in order.
    pub(super) entry_points: Vec<u32>,
    pub(super) graph_entry_points: usize,
    /// Functions named by `OpFunctionCall`.
    pub(super) call_targets: BTreeSet<u32>,
    pub(super) mesh_nv: bool,
    pub(super) mesh_ext: bool,
}

impl<'o> State<'o> {
    pub(super) fn new(options: &'o Options<'o>, header: &crate::Header, words: usize) -> Self {
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
            memory_model: false,
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
    pub(super) fn dense_cap(&self) -> usize {
        self.words.saturating_mul(2).max(1024)
    }

    pub(super) fn def(&self, id: u32) -> Option<&Def> {
        self.defs.get(id)
    }

    pub(super) fn in_function(&self) -> bool {
        self.function.is_some()
    }

    pub(super) fn in_block(&self) -> bool {
        self.function.as_ref().is_some_and(|f| f.block.is_some())
    }

    pub(super) fn has_capability(&self, capability: u32) -> bool {
        self.capabilities.binary_search(&capability).is_ok()
    }

    pub(super) fn has_extension(&self, name: &str) -> bool {
        self.extensions
            .binary_search_by(|e| e.as_slice().cmp(name.as_bytes()))
            .is_ok()
    }

    pub(super) fn has_any_extension(&self, exts: &[&str]) -> bool {
        exts.iter().any(|e| self.has_extension(e))
    }

    /// Whether one of a capability's enabling extensions is declared.
    pub(super) fn enabled_by_extension(&self, capability: u32) -> bool {
        spv::kinds::Capability
            .enumerant(capability)
            .is_some_and(|e| self.has_any_extension(e.extensions))
    }

    /// `RegisterExtension`.
    pub(super) fn register_extension(&mut self, name: &[u8]) {
        if let Err(at) = self.extensions.binary_search_by(|e| e.as_slice().cmp(name)) {
            self.extensions.insert(at, name.to_vec());
        }
        if name == b"SPV_AMD_shader_ballot" {
            self.features.group_ops_reduce_and_scans = true;
        }
    }

    /// `RegisterCapability`: the capability, those it implies (transitively), and the
    /// features any of them switches on.
    pub(super) fn register_capability(&mut self, capability: u32) {
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

/// The ids referred to forward and not yet defined, kept in the order spirv-val's
/// `std::unordered_set<uint32_t>` iterates them (libstdc++, as the SPIRV-Tools 2025.5
/// binaries are built), since its message lists them in that order. libstdc++ keeps
/// one singly linked list: an id goes to the front of its bucket's run, or to the
/// front of the list when its bucket is empty; a rehash re-inserts every node in list
/// order the same way; erasing unlinks. The bucket count starts at 13 and grows to the
/// prime at or after twice its size. Each operation here is O(log n).
#[derive(Debug, Default)]
pub(super) struct ForwardIds {
    /// Nodes: the id and its neighbours in the list (`NIL` at the ends).
    nodes: Vec<Node>,
    /// Nodes free for reuse.
    free: Vec<u32>,
    /// The node of each id in the set.
    index: BTreeMap<u32, u32>,
    head: u32,
    /// The first node of each bucket's run, or `NIL`.
    buckets: Vec<u32>,
    /// The element count that triggers the next rehash.
    next_resize: usize,
}

#[derive(Debug, Clone, Copy)]
struct Node {
    id: u32,
    prev: u32,
    next: u32,
}

const NIL: u32 = u32::MAX;

/// The bucket counts libstdc++'s unordered_set grows through (measured with GCC 12's
/// libstdc++: 13 for the first element, then `_M_next_bkt(2 * n)`).
const BUCKET_COUNTS: [usize; 19] = [
    13, 29, 59, 127, 257, 541, 1109, 2357, 5087, 10273, 20753, 42043, 85229, 172933, 351061,
    712697, 1447153, 2938679, 5967347,
];

impl ForwardIds {
    pub(super) fn contains(&self, id: u32) -> bool {
        self.index.contains_key(&id)
    }

    pub(super) fn is_empty(&self) -> bool {
        self.index.is_empty()
    }

    /// The ids in the set's iteration order.
    pub(super) fn ids(&self) -> Vec<u32> {
        let mut out = Vec::with_capacity(self.index.len());
        let mut at = if self.nodes.is_empty() {
            NIL
        } else {
            self.head
        };
        while at != NIL {
            let n = self.nodes[at as usize];
            out.push(n.id);
            at = n.next;
        }
        out
    }

    fn bucket(&self, id: u32) -> usize {
        id as usize % self.buckets.len()
    }

    pub(super) fn insert(&mut self, id: u32) {
        if self.contains(id) {
            return;
        }
        if self.index.len() + 1 > self.next_resize {
            let wanted = if self.buckets.is_empty() {
                13
            } else {
                self.buckets.len() * 2
            };
            let n = BUCKET_COUNTS
                .iter()
                .copied()
                .find(|&b| b >= wanted)
                .unwrap_or(wanted | 1);
            self.rehash(n);
        }
        let node = match self.free.pop() {
            Some(f) => f,
            None => {
                self.nodes.push(Node {
                    id,
                    prev: NIL,
                    next: NIL,
                });
                (self.nodes.len() - 1) as u32
            }
        };
        self.nodes[node as usize].id = id;
        self.index.insert(id, node);
        self.link(node);
    }

    /// Links a node in: before its bucket's first node, or at the list's front.
    fn link(&mut self, node: u32) {
        let bucket = self.bucket(self.nodes[node as usize].id);
        let first = self.buckets[bucket];
        let (prev, next) = if first == NIL {
            (NIL, if self.index.len() > 1 { self.head } else { NIL })
        } else {
            (self.nodes[first as usize].prev, first)
        };
        self.nodes[node as usize].prev = prev;
        self.nodes[node as usize].next = next;
        if prev == NIL {
            self.head = node;
        } else {
            self.nodes[prev as usize].next = node;
        }
        if next != NIL {
            self.nodes[next as usize].prev = node;
        }
        self.buckets[bucket] = node;
    }

    pub(super) fn remove(&mut self, id: u32) {
        let Some(node) = self.index.remove(&id) else {
            return;
        };
        let Node { prev, next, .. } = self.nodes[node as usize];
        let bucket = self.bucket(id);
        if self.buckets[bucket] == node {
            let same = next != NIL && self.bucket(self.nodes[next as usize].id) == bucket;
            self.buckets[bucket] = if same { next } else { NIL };
        }
        if prev == NIL {
            self.head = next;
        } else {
            self.nodes[prev as usize].next = next;
        }
        if next != NIL {
            self.nodes[next as usize].prev = prev;
        }
        self.free.push(node);
    }

    /// Re-inserts every node, in list order, into `n` buckets.
    fn rehash(&mut self, n: usize) {
        let order: Vec<u32> = {
            let mut v = Vec::with_capacity(self.index.len());
            let mut at = if self.index.is_empty() {
                NIL
            } else {
                self.head
            };
            while at != NIL {
                v.push(at);
                at = self.nodes[at as usize].next;
            }
            v
        };
        self.buckets.clear();
        self.buckets.resize(n, NIL);
        self.next_resize = n;
        self.head = NIL;
        // `link` looks at the count to know whether the list is empty: count the
        // nodes linked so far instead.
        let live = core::mem::take(&mut self.index);
        for (k, &node) in order.iter().enumerate() {
            let bucket = self.bucket(self.nodes[node as usize].id);
            let first = self.buckets[bucket];
            let (prev, next) = if first == NIL {
                (NIL, if k > 0 { self.head } else { NIL })
            } else {
                (self.nodes[first as usize].prev, first)
            };
            self.nodes[node as usize].prev = prev;
            self.nodes[node as usize].next = next;
            if prev == NIL {
                self.head = node;
            } else {
                self.nodes[prev as usize].next = node;
            }
            if next != NIL {
                self.nodes[next as usize].prev = node;
            }
            self.buckets[bucket] = node;
        }
        self.index = live;
    }
}

#[cfg(test)]
mod tests {
    use super::ForwardIds;

    #[test]
    fn forward_ids_iterate_as_libstdcxx_unordered_set() {
        // Printed by a GCC 12 program doing the same operations.
        let mut f = ForwardIds::default();
        for id in [7, 3, 12, 5, 1000, 9, 14, 2] {
            f.insert(id);
        }
        f.remove(12);
        assert_eq!(f.ids(), [2, 14, 9, 5, 1000, 3, 7]);
    }
}
