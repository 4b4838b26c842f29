//! The analyses of the optimizer IR, spirv-opt's (`IRContext`'s) one for one: built on
//! first use from the current IR by the [`Context`](crate::Context), kept while passes
//! change only what they do not describe, and dropped when a pass that changed the
//! module does not say it preserved them ([`Analyses`]).
//!
//! - [`def_use`]: each id's definition and its users in spirv-opt's order.
//! - [`mod@cfg`]: each block's predecessors, post orders and the structured order.
//! - [`dominators`]: dominator and post-dominator trees, per function.
//! - [`struct_cfg`]: each block's innermost construct (merge and continue targets).
//! - [`types`], [`constants`]: spirv-opt's type and constant managers.
//! - [`decorations`]: the decorations of each id, group decorations applied.
//! - [`names`]: each id's `OpName` and `OpMemberName` instructions.
//! - [`call_graph`]: the call trees from entry points and exports.
//! - [`features`]: capabilities, extensions and the imports spirv-opt looks up by name.
//! - [`value_numbers`]: the value-number table of the redundancy-elimination passes.
//!
//! Which block an instruction is in is not an analysis here: every instruction knows
//! its block ([`crate::ir::Ir::block_of`]).

pub mod call_graph;
pub mod cfg;
pub mod constants;
pub mod decorations;
pub mod def_use;
pub mod dominators;
pub mod features;
pub(crate) mod loops;
pub mod names;
pub mod propagator;
pub mod struct_cfg;
pub mod types;
pub mod value_numbers;

use std::collections::HashMap;

/// A set of analyses, as spirv-opt's `IRContext::Analysis` bits name them (the same
/// values), for a pass to say which it preserves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Analyses(pub u32);

impl Analyses {
    /// None.
    pub const NONE: Analyses = Analyses(0);
    /// Definitions and uses.
    pub const DEF_USE: Analyses = Analyses(1 << 0);
    /// Which block each instruction is in (always known here; kept for the bits).
    pub const INSTR_TO_BLOCK: Analyses = Analyses(1 << 1);
    /// Decorations.
    pub const DECORATIONS: Analyses = Analyses(1 << 2);
    /// The combinator opcodes.
    pub const COMBINATORS: Analyses = Analyses(1 << 3);
    /// The control-flow graph.
    pub const CFG: Analyses = Analyses(1 << 4);
    /// Dominator and post-dominator trees.
    pub const DOMINATORS: Analyses = Analyses(1 << 5);
    /// Loops.
    pub const LOOPS: Analyses = Analyses(1 << 6);
    /// Names.
    pub const NAME_MAP: Analyses = Analyses(1 << 7);
    /// Scalar evolution.
    pub const SCALAR_EVOLUTION: Analyses = Analyses(1 << 8);
    /// Register pressure.
    pub const REGISTER_PRESSURE: Analyses = Analyses(1 << 9);
    /// Value numbers.
    pub const VALUE_NUMBER_TABLE: Analyses = Analyses(1 << 10);
    /// The structured control-flow analysis.
    pub const STRUCTURED_CFG: Analyses = Analyses(1 << 11);
    /// Built-in variables' ids.
    pub const BUILTIN_VAR_ID: Analyses = Analyses(1 << 12);
    /// Each function's id.
    pub const ID_TO_FUNC: Analyses = Analyses(1 << 13);
    /// Constants.
    pub const CONSTANTS: Analyses = Analyses(1 << 14);
    /// Types.
    pub const TYPES: Analyses = Analyses(1 << 15);
    /// Debug information.
    pub const DEBUG_INFO: Analyses = Analyses(1 << 16);
    /// Liveness of interface variables.
    pub const LIVENESS: Analyses = Analyses(1 << 17);
    /// Each graph's id.
    pub const ID_TO_GRAPH: Analyses = Analyses(1 << 18);

    /// Whether every analysis of `other` is in `self`.
    pub fn contains(self, other: Analyses) -> bool {
        self.0 & other.0 == other.0
    }
}

impl core::ops::BitOr for Analyses {
    type Output = Analyses;
    fn bitor(self, rhs: Analyses) -> Analyses {
        Analyses(self.0 | rhs.0)
    }
}

impl core::ops::BitOrAssign for Analyses {
    fn bitor_assign(&mut self, rhs: Analyses) {
        self.0 |= rhs.0;
    }
}

impl core::ops::Not for Analyses {
    type Output = Analyses;
    fn not(self) -> Analyses {
        Analyses(!self.0)
    }
}

impl core::ops::BitAnd for Analyses {
    type Output = Analyses;
    fn bitand(self, rhs: Analyses) -> Analyses {
        Analyses(self.0 & rhs.0)
    }
}

/// Values keyed by id: a vector for ids below a cap tied to the module's size (not to
/// the bound its header claims, which may be anything), a map above it.
#[derive(Debug, Clone)]
pub struct IdMap<T> {
    dense: Vec<Option<T>>,
    sparse: HashMap<u32, T>,
    cap: usize,
}

impl<T> IdMap<T> {
    /// An empty map whose vector may grow to `cap` entries.
    pub fn new(cap: usize) -> Self {
        IdMap {
            dense: Vec::new(),
            sparse: HashMap::new(),
            cap,
        }
    }

    /// The value of `id`.
    pub fn get(&self, id: u32) -> Option<&T> {
        match self.dense.get(id as usize) {
            Some(v) => v.as_ref(),
            None => self.sparse.get(&id),
        }
    }

    /// The value of `id`, to change it.
    pub fn get_mut(&mut self, id: u32) -> Option<&mut T> {
        match self.dense.get_mut(id as usize) {
            Some(v) => v.as_mut(),
            None => self.sparse.get_mut(&id),
        }
    }

    /// Sets the value of `id`; returns the old one.
    pub fn insert(&mut self, id: u32, value: T) -> Option<T> {
        let i = id as usize;
        if i < self.cap {
            if i >= self.dense.len() {
                self.dense.resize_with(i + 1, || None);
            }
            self.dense[i].replace(value)
        } else {
            self.sparse.insert(id, value)
        }
    }

    /// Removes the value of `id`.
    pub fn remove(&mut self, id: u32) -> Option<T> {
        match self.dense.get_mut(id as usize) {
            Some(v) => v.take(),
            None => self.sparse.remove(&id),
        }
    }

    /// The value of `id`, made with `f` if there is none.
    pub fn entry_or_insert_with(&mut self, id: u32, f: impl FnOnce() -> T) -> &mut T {
        if self.get(id).is_none() {
            self.insert(id, f());
        }
        self.get_mut(id).expect("just inserted")
    }

    /// Every `(id, value)`: the vector's in id order, then the map's in no order.
    pub fn iter(&self) -> impl Iterator<Item = (u32, &T)> {
        self.dense
            .iter()
            .enumerate()
            .filter_map(|(i, v)| v.as_ref().map(|v| (i as u32, v)))
            .chain(self.sparse.iter().map(|(k, v)| (*k, v)))
    }
}

/// A hasher for ids (one multiply, as rustc's `FxHasher` does for one word) for maps
/// that are only looked up, never iterated to decide output order: SipHash's
/// flooding resistance buys nothing for keys bounded by the module's id bound, and
/// it was a tenth of `--vector-dce`'s time.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct IdHasher(u64);

impl core::hash::Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u32(&mut self, v: u32) {
        if self.0 == 0 {
            // A lone id (most keys): the id itself in the low half, which picks the
            // bucket, so that nearby ids share cache lines (a long chain of blocks
            // numbered in order walks its tables in order); the product's high half
            // for the bits that tell apart keys within a group.
            let v = u64::from(v);
            self.0 = (v.wrapping_mul(0x51_7c_c1_b7_27_22_0a_95) & !0xFFFF_FFFF) | v;
        } else {
            self.write_u64(u64::from(v));
        }
    }

    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

/// A map keyed by ids with [`IdHasher`]; iterate it only where order does not matter.
pub(crate) type IdHashMap<K, V> = HashMap<K, V, core::hash::BuildHasherDefault<IdHasher>>;

/// A set of ids with [`IdHasher`]; iterate it only where order does not matter.
pub(crate) type IdHashSet<K> =
    std::collections::HashSet<K, core::hash::BuildHasherDefault<IdHasher>>;

/// The cap of an [`IdMap`] for a module of `insts` instructions: ids of real modules
/// are below a few times their instruction count.
pub(crate) fn id_cap(insts: usize) -> usize {
    insts.saturating_mul(4).saturating_add(64).min(1 << 24)
}
