//! One function's control-flow graph as spirv-val's `CfgPass` registers it
//! (`Function::RegisterBlock`, `RegisterLoopMerge`, `RegisterSelectionMerge`,
//! `RegisterBlockEnd`): its blocks in binary order, then the blocks it refers to but
//! another function defines; successors and predecessors, real and structural (merge
//! blocks and continue targets count as structural successors of their headers), in
//! spirv-val's order; the blocks' kinds; the constructs in registration order; and the
//! augmented graph of `ComputeAugmentedCFG` (a pseudo entry before every source, a
//! pseudo exit after every sink, found by `TraversalRoots`).
//!
//! Edges are kept twice, by source and by target, each list in spirv-val's order; a
//! structural-only edge (to a merge block or continue target) carries [`STRUCTURAL`].

use super::super::Query;
use super::ConstructKind;
use crate::__private::Vec;
use crate::Module;
use crate::spv::Opcode as O;
use alloc::collections::BTreeMap;

/// No node, no index.
pub(crate) const NONE: u32 = u32::MAX;

/// Marks an edge that only the structural graph has.
pub(super) const STRUCTURAL: u32 = 1 << 31;

/// Node flags: spirv-val's block types, then the augmented graph's roles and the two
/// reachabilities (`ReachabilityPass`).
pub(super) const LOOP: u8 = 1;
pub(super) const SELECTION: u8 = 2;
pub(super) const MERGE: u8 = 4;
pub(super) const CONTINUE: u8 = 8;
const SOURCE: u8 = 16;
const SINK: u8 = 32;
pub(super) const REACHABLE: u8 = 64;
pub(super) const STRUCTURALLY_REACHABLE: u8 = 128;

/// The id spirv-val gives its pseudo exit block (`kInvalidId`).
const EXIT_ID: u32 = 0x40_0000;

/// Whether an opcode ends a block (`spvOpcodeIsBlockTerminator`).
pub(crate) fn is_terminator(op: O) -> bool {
    matches!(
        op,
        O::Branch
            | O::BranchConditional
            | O::Switch
            | O::Return
            | O::ReturnValue
            | O::Kill
            | O::Unreachable
            | O::TerminateInvocation
            | O::TerminateRayKHR
            | O::IgnoreIntersectionKHR
            | O::EmitMeshTasksEXT
    )
}

/// The functions of a module: the index of each `OpFunction` and of the instruction
/// that ends it (its `OpFunctionEnd`, or the last before the next `OpFunction`).
pub(crate) fn functions(module: &Module) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut open = None;
    for i in 0..module.len() {
        match module.instruction(i).map(|x| x.opcode()) {
            Some(O::Function) => {
                if let Some(s) = open.replace(i) {
                    out.push((s, i - 1));
                }
            }
            Some(O::FunctionEnd) => {
                if let Some(s) = open.take() {
                    out.push((s, i));
                }
            }
            _ => {}
        }
    }
    if let Some(s) = open {
        out.push((s, module.len() - 1));
    }
    out
}

/// The targets of a branch instruction, in spirv-val's order (an `OpSwitch`'s default
/// first, then its targets), each handed to `f`.
pub(crate) fn branch_targets(q: &Query<'_>, words: &[u32], mut f: impl FnMut(u32)) {
    match O(words[0] as u16) {
        O::Branch => words.get(1).copied().into_iter().for_each(f),
        O::BranchConditional => words.get(2..4).unwrap_or(&[]).iter().for_each(|&w| f(w)),
        O::Switch => {
            let Some(&default) = words.get(2) else {
                return;
            };
            f(default);
            let width = q.bit_width(words[1]);
            let literal = if width > 32 { 2 } else { 1 };
            let mut i = 3;
            while i + literal < words.len() {
                f(words[i + literal]);
                i += literal + 1;
            }
        }
        _ => {}
    }
}

/// Lists per node, one after the other.
#[derive(Debug, Default)]
pub(super) struct Lists {
    start: Vec<u32>,
    items: Vec<u32>,
}

impl Lists {
    /// The list of `node`, structural marks included.
    pub(super) fn of(&self, node: u32) -> &[u32] {
        let n = node as usize;
        match (self.start.get(n), self.start.get(n + 1)) {
            (Some(&a), Some(&b)) => &self.items[a as usize..b as usize],
            _ => &[],
        }
    }
}

/// The real predecessors of a function's blocks, kept by the second loop for its
/// `OpPhi` rules.
#[derive(Debug)]
pub(crate) struct Predecessors {
    /// The function's `OpFunction` index.
    pub(crate) at: u32,
    /// Each block's `OpLabel` index.
    pub(crate) labels: Vec<u32>,
    lists: Lists,
}

impl Predecessors {
    /// The real predecessors of block `node`, repeats included, in order.
    pub(crate) fn of(&self, node: u32) -> impl Iterator<Item = u32> + '_ {
        real(self.lists.of(node))
    }

    /// The block id of a node this function defines.
    pub(crate) fn id(&self, q: &Query<'_>, node: u32) -> u32 {
        self.labels
            .get(node as usize)
            .and_then(|&at| q.module.instruction(at as usize))
            .and_then(|x| x.words().get(1).copied())
            .unwrap_or(0)
    }
}

/// One of spirv-val's constructs.
#[derive(Debug, Clone, Copy)]
pub(super) struct Construct {
    pub(super) kind: ConstructKind,
    /// The header (for a continue construct, the continue target).
    pub(super) entry: u32,
    /// The merge block, or a continue construct's back-edge block (`NONE` until set).
    pub(super) exit: u32,
    /// A loop's continue construct, a continue construct's loop (`NONE` for selections).
    pub(super) partner: u32,
}

/// One function's graph.
pub(crate) struct Graph<'q> {
    q: Query<'q>,
    /// The function's id.
    pub(super) function: u32,
    /// Its `OpFunction`'s index.
    pub(crate) at: u32,
    /// The index of its last instruction.
    pub(super) end: u32,
    /// Each defined block's `OpLabel` index, in binary order: node `i` is block `i`.
    pub(crate) labels: Vec<u32>,
    /// Each defined block's terminator index (`NONE` without one).
    pub(super) terminators: Vec<u32>,
    /// The ids of blocks referred to but not defined here: nodes `labels.len()` on.
    pub(super) foreign: Vec<u32>,
    foreign_nodes: BTreeMap<u32, u32>,
    /// Flags per node, the pseudo entry and exit included.
    pub(super) flags: Vec<u8>,
    /// Structural predecessors by node (real ones unmarked), in spirv-val's order.
    pub(super) predecessors: Lists,
    /// (merge block, its header) (`merge_block_header_`), by merge block.
    merge_headers: Vec<(u32, u32)>,
    /// (continue target, loop header), by continue target, in registration order.
    continue_headers: Vec<(u32, u32)>,
    /// The constructs, in registration order.
    pub(super) constructs: Vec<Construct>,
    /// The pseudo entry's successors.
    pub(super) sources: Vec<u32>,
    /// The pseudo exit's predecessors.
    pub(super) sinks: Vec<u32>,
}

impl<'q> Graph<'q> {
    /// The graph of the function whose instructions are `start..=end`; `None` for a
    /// declaration.
    pub(crate) fn build(q: &Query<'q>, start: usize, end: usize) -> Option<Self> {
        let m = q.module;
        let opcode = |i: usize| m.instruction(i).map_or(O::Nop, |x| x.opcode());
        let labels: Vec<u32> = (start + 1..=end)
            .filter(|&i| opcode(i) == O::Label)
            .map(|i| i as u32)
            .collect();
        if labels.is_empty() {
            return None;
        }
        let defined = labels.len();
        let function = m
            .instruction(start)
            .and_then(|x| x.words().get(2).copied())
            .unwrap_or(0);
        let mut g = Graph {
            q: *q,
            function,
            at: start as u32,
            end: end as u32,
            terminators: alloc::vec![NONE; defined],
            labels,
            foreign: Vec::new(),
            foreign_nodes: BTreeMap::new(),
            flags: alloc::vec![0; defined],
            predecessors: Lists::default(),
            merge_headers: Vec::new(),
            continue_headers: Vec::new(),
            constructs: Vec::new(),
            sources: Vec::new(),
            sinks: Vec::new(),
        };
        // The edges in registration order; they come grouped by source.
        let mut edges: Vec<(u32, u32)> = Vec::new();
        let mut block = NONE;
        let mut next_label = 0u32;
        for i in start + 1..=end {
            let Some(inst) = m.instruction(i) else {
                continue;
            };
            let w = inst.words();
            match inst.opcode() {
                O::Label => {
                    block = next_label;
                    next_label += 1;
                }
                O::LoopMerge if block != NONE && w.len() > 2 => {
                    let merge = g.node_or_new(q, w[1]);
                    let cont = g.node_or_new(q, w[2]);
                    edges.push((block, merge | STRUCTURAL));
                    edges.push((block, cont | STRUCTURAL));
                    g.flags[block as usize] |= LOOP;
                    g.flags[merge as usize] |= MERGE;
                    g.flags[cont as usize] |= CONTINUE;
                    let k = g.constructs.len() as u32;
                    g.constructs.push(Construct {
                        kind: ConstructKind::Loop,
                        entry: block,
                        exit: merge,
                        partner: k + 1,
                    });
                    g.constructs.push(Construct {
                        kind: ConstructKind::Continue,
                        entry: cont,
                        exit: NONE,
                        partner: k,
                    });
                    g.merge_headers.push((merge, block));
                    g.continue_headers.push((cont, block));
                }
                O::SelectionMerge if block != NONE && w.len() > 1 => {
                    let merge = g.node_or_new(q, w[1]);
                    edges.push((block, merge | STRUCTURAL));
                    g.flags[block as usize] |= SELECTION;
                    g.flags[merge as usize] |= MERGE;
                    g.merge_headers.push((merge, block));
                    g.constructs.push(Construct {
                        kind: ConstructKind::Selection,
                        entry: block,
                        exit: merge,
                        partner: NONE,
                    });
                }
                op if block != NONE && is_terminator(op) => {
                    branch_targets(q, w, |t| {
                        let t = g.node_or_new(q, t);
                        edges.push((block, t));
                    });
                    g.terminators[block as usize] = i as u32;
                    block = NONE;
                }
                _ => {}
            }
        }
        let n = g.len();
        g.flags.extend_from_slice(&[0, 0]);
        // Stable: among equal blocks, the last registration is the last entry.
        g.merge_headers.sort_by_key(|&(m, _)| m);
        g.continue_headers.sort_by_key(|&(c, _)| c);
        // By target, in registration order (a stable counting sort).
        g.predecessors = lists(
            n,
            edges
                .iter()
                .map(|&(a, b)| (b & !STRUCTURAL, a | (b & STRUCTURAL))),
        );
        drop(edges);
        g.augment();
        g.reach(REACHABLE, false);
        g.reach(STRUCTURALLY_REACHABLE, true);
        Some(g)
    }

    /// What the second loop keeps: the predecessors.
    pub(crate) fn into_predecessors(self) -> Predecessors {
        Predecessors {
            at: self.at,
            labels: self.labels,
            lists: self.predecessors,
        }
    }

    /// The node of block `id`, made for a block this function does not define.
    fn node_or_new(&mut self, q: &Query<'_>, id: u32) -> u32 {
        if let Some(n) = self.node(q, id) {
            return n;
        }
        let n = self.len() as u32;
        self.foreign.push(id);
        self.foreign_nodes.insert(id, n);
        self.flags.push(0);
        n
    }

    /// The node of block `id` in this function (`GetBlock`).
    pub(crate) fn node(&self, q: &Query<'_>, id: u32) -> Option<u32> {
        if let Some(d) = q.state.def(id) {
            if d.opcode == O::Label && d.index > self.at && d.index <= self.end {
                return self.labels.binary_search(&d.index).ok().map(|n| n as u32);
            }
        }
        self.foreign_nodes.get(&id).copied()
    }

    /// Real blocks: those defined, then those referred to.
    pub(crate) fn len(&self) -> usize {
        self.labels.len() + self.foreign.len()
    }

    /// Blocks this function defines.
    pub(super) fn defined(&self) -> usize {
        self.labels.len()
    }

    /// The pseudo entry block's node.
    pub(super) fn entry(&self) -> u32 {
        self.len() as u32
    }

    /// The pseudo exit block's node.
    pub(super) fn exit(&self) -> u32 {
        self.len() as u32 + 1
    }

    /// The block id of a node (0 and `0x400000` for the pseudo blocks).
    pub(crate) fn id(&self, q: &Query<'_>, node: u32) -> u32 {
        let n = node as usize;
        if let Some(&at) = self.labels.get(n) {
            return q
                .module
                .instruction(at as usize)
                .and_then(|x| x.words().get(1).copied())
                .unwrap_or(0);
        }
        match self.foreign.get(n - self.labels.len()) {
            Some(&id) => id,
            None if node == self.entry() => 0,
            None => EXIT_ID,
        }
    }

    /// The header whose merge block `node` is, or `NONE` (the last registered, as
    /// spirv-val's map keeps).
    pub(super) fn merge_header(&self, node: u32) -> u32 {
        last_of(&self.merge_headers, node)
    }

    /// The header of the last loop registered with `node` as its continue target, or
    /// `NONE`.
    pub(super) fn continue_header(&self, node: u32) -> u32 {
        last_of(&self.continue_headers, node)
    }

    pub(crate) fn has(&self, node: u32, flag: u8) -> bool {
        self.flags.get(node as usize).is_some_and(|f| f & flag != 0)
    }

    /// The `i`th structural successor of a node in spirv-val's order (merge block
    /// and continue target first, marked [`STRUCTURAL`], then the branch's targets),
    /// read from the instructions.
    pub(super) fn successor(&self, node: u32, i: usize) -> Option<u32> {
        let t = *self.terminators.get(node as usize)?;
        if t == NONE {
            return None;
        }
        let m = self.q.module;
        let label = self.labels[node as usize];
        let merge = (t - 1 > label)
            .then(|| m.instruction(t as usize - 1))
            .flatten()
            .map_or(&[][..], |x| match x.opcode() {
                O::LoopMerge => x.words().get(1..3).unwrap_or(&[]),
                O::SelectionMerge => x.words().get(1..2).unwrap_or(&[]),
                _ => &[],
            });
        if let Some(&id) = merge.get(i) {
            return Some(self.node(&self.q, id)? | STRUCTURAL);
        }
        let j = i - merge.len();
        let w = m.instruction(t as usize)?.words();
        let id = match O(w[0] as u16) {
            O::Branch if j == 0 => w.get(1),
            O::BranchConditional if j < 2 => w.get(2 + j),
            O::Switch if j == 0 => w.get(2),
            O::Switch => {
                let literal = if self.q.bit_width(w[1]) > 32 { 2 } else { 1 };
                w.get(3 + (j - 1) * (literal + 1) + literal)
            }
            _ => None,
        }?;
        self.node(&self.q, *id)
    }

    /// The structural successors of a node (merge blocks and continue targets marked).
    fn successors(&self, node: u32) -> impl Iterator<Item = u32> + '_ {
        (0..).map_while(move |i| self.successor(node, i))
    }

    /// The real successors of a node, repeats included, in order.
    pub(crate) fn real_successors(&self, node: u32) -> impl Iterator<Item = u32> + '_ {
        self.successors(node).filter(|&x| x & STRUCTURAL == 0)
    }

    /// The real predecessors of a node, repeats included, in order.
    pub(crate) fn real_predecessors(&self, node: u32) -> impl Iterator<Item = u32> + '_ {
        real(self.predecessors.of(node))
    }

    /// The structural successors of a node, in order.
    pub(super) fn structural_successors(&self, node: u32) -> impl Iterator<Item = u32> + '_ {
        self.successors(node).map(|x| x & !STRUCTURAL)
    }

    /// A view of the augmented graph (`Augmented[Structural]CFG{Successors,Predecessors}Function`).
    pub(super) fn view(&self, structural: bool, forward: bool) -> View<'_, 'q> {
        View {
            g: self,
            structural,
            forward,
        }
    }

    /// `CFA::ComputeAugmentedCFG` over the structural graph: the sources, and the
    /// sinks found over the blocks in reverse order.
    fn augment(&mut self) {
        let defined = self.defined() as u32;
        let mut seen = alloc::vec![false; self.len()];
        let mut stack = Vec::new();
        for forward in [true, false] {
            let mut roots = Vec::new();
            seen.iter_mut().for_each(|s| *s = false);
            let mut visit = |root: u32, seen: &mut Vec<bool>, roots: &mut Vec<u32>| {
                roots.push(root);
                seen[root as usize] = true;
                stack.push(root);
                while let Some(x) = stack.pop() {
                    let mut go = |y: u32| {
                        let y = y & !STRUCTURAL;
                        if !core::mem::replace(&mut seen[y as usize], true) {
                            stack.push(y);
                        }
                    };
                    if forward {
                        self.successors(x).for_each(&mut go);
                    } else {
                        self.predecessors.of(x).iter().for_each(|&y| go(y));
                    }
                }
            };
            let order = |k: u32| if forward { k } else { defined - 1 - k };
            for k in 0..defined {
                let b = order(k);
                let none = if forward {
                    self.predecessors.of(b).is_empty()
                } else {
                    self.successor(b, 0).is_none()
                };
                if none && !seen[b as usize] {
                    visit(b, &mut seen, &mut roots);
                }
            }
            for k in 0..defined {
                let b = order(k);
                if !seen[b as usize] {
                    visit(b, &mut seen, &mut roots);
                }
            }
            let flag = if forward { SOURCE } else { SINK };
            for &r in &roots {
                self.flags[r as usize] |= flag;
            }
            if forward {
                self.sources = roots;
            } else {
                self.sinks = roots;
            }
        }
    }

    /// `ReachabilityPass`: marks the blocks reachable from the first.
    fn reach(&mut self, flag: u8, structural: bool) {
        let mut stack = alloc::vec![0u32];
        while let Some(x) = stack.pop() {
            if self.flags[x as usize] & flag != 0 {
                continue;
            }
            self.flags[x as usize] |= flag;
            for y in self.successors(x) {
                if structural || y & STRUCTURAL == 0 {
                    stack.push(y & !STRUCTURAL);
                }
            }
        }
    }
}

/// The value of the last pair with key `key` in pairs sorted by key, or `NONE`.
fn last_of(pairs: &[(u32, u32)], key: u32) -> u32 {
    let at = pairs.partition_point(|&(k, _)| k <= key);
    match at.checked_sub(1).map(|i| pairs[i]) {
        Some((k, v)) if k == key => v,
        _ => NONE,
    }
}

/// The unmarked entries of a list.
fn real(list: &[u32]) -> impl Iterator<Item = u32> + '_ {
    list.iter().copied().filter(|&x| x & STRUCTURAL == 0)
}

/// Lists by the first of each pair, keeping the pairs' order within each list.
fn lists(n: usize, pairs: impl Iterator<Item = (u32, u32)> + Clone) -> Lists {
    let mut start = alloc::vec![0u32; n + 1];
    for (a, _) in pairs.clone() {
        start[a as usize + 1] += 1;
    }
    for i in 0..n {
        start[i + 1] += start[i];
    }
    let mut items = alloc::vec![0u32; start[n] as usize];
    let mut at: Vec<u32> = start[..n].to_vec();
    for (a, b) in pairs {
        items[at[a as usize] as usize] = b;
        at[a as usize] += 1;
    }
    Lists { start, items }
}

/// One of the four augmented graphs, by direction.
#[derive(Clone, Copy)]
pub(super) struct View<'g, 'q> {
    g: &'g Graph<'q>,
    /// Structural successors (merge blocks, continue targets) count.
    structural: bool,
    /// Successors, else predecessors.
    forward: bool,
}

impl View<'_, '_> {
    /// The neighbour at or after position `pos` of `node`'s list, and the position
    /// after it: the augmented list is the pseudo block (for a source or sink), then
    /// the node's own list (all of it for a source or sink, as spirv-val builds the
    /// augmented lists from the structural ones).
    pub(super) fn next(&self, node: u32, pos: usize) -> Option<(u32, usize)> {
        let g = self.g;
        let (pseudo, from, to, role) = if self.forward {
            (g.entry(), g.exit(), &g.sources, SINK)
        } else {
            (g.exit(), g.entry(), &g.sinks, SOURCE)
        };
        if node == pseudo {
            return to.get(pos).map(|&x| (x, pos + 1));
        }
        if node == from {
            return None;
        }
        let augmented = g.has(node, role);
        let skip = usize::from(augmented);
        if augmented && pos == 0 {
            return Some((from, 1));
        }
        let all = self.structural || augmented;
        let mut i = pos - skip.min(pos);
        loop {
            let x = if self.forward {
                g.successor(node, i)?
            } else {
                *g.predecessors.of(node).get(i)?
            };
            i += 1;
            if all || x & STRUCTURAL == 0 {
                return Some((x & !STRUCTURAL, i + skip));
            }
        }
    }

    /// Every neighbour of `node`, in order.
    pub(super) fn each(&self, node: u32, mut f: impl FnMut(u32)) {
        let mut pos = 0;
        while let Some((x, p)) = self.next(node, pos) {
            f(x);
            pos = p;
        }
    }

    /// The number of nodes, the pseudo blocks included.
    pub(super) fn nodes(&self) -> usize {
        self.g.len() + 2
    }
}
