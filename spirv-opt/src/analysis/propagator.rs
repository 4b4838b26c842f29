//! The SSA propagator (spirv-opt's `SSAPropagator`, `source/opt/propagator.cpp`): a
//! sparse conditional walk over one function. Two work lists drive it: blocks reached
//! through a control edge newly found executable, and instructions whose operands'
//! statuses changed (SSA edges). A client's visit function gives each instruction a
//! status on the lattice not interesting < interesting < varying, and for a branch
//! the one successor it takes when known. Each instruction's status only rises, so an
//! instruction is pushed back on the SSA list a bounded number of times.

use super::{IdMap, id_cap};
use crate::context::Context;
use crate::ir::{Block, Func, Inst};
use spirv_core::__private::opt::is_block_terminator;
use spirv_core::spv::Opcode as O;
use std::collections::{HashMap, HashSet, VecDeque};

/// An instruction's status on the propagation lattice (`PropStatus`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum PropStatus {
    /// No value known yet (`kNotInteresting`).
    NotInteresting,
    /// A value known (`kInteresting`).
    Interesting,
    /// Never a known value (`kVarying`).
    Varying,
}

/// What the visit function says of an instruction: its status and, for a branch whose
/// target is known, that block; `None` when the visit failed (ids ran out).
pub type Visit = Option<(PropStatus, Option<Block>)>;

/// The client's side of the propagation: the visit of one instruction, which may ask
/// the propagator which phi operands arrive over executable edges.
pub trait Visitor {
    /// Evaluates `i` (`VisitFunction`).
    fn visit(&mut self, cx: &mut Context, p: &Propagator, i: Inst) -> Visit;
}

/// The source of the edge into the entry block (the pseudo entry block).
const ENTRY: u32 = u32::MAX;

/// The propagator's state over one function.
#[derive(Debug, Default)]
pub struct Propagator {
    ssa_edge_uses: VecDeque<Inst>,
    blocks: VecDeque<Block>,
    simulated: HashSet<Block>,
    /// Per instruction: its status, and whether it was simulated for the last time.
    /// Keyed by the instruction's index less the function's lowest, with a vector as
    /// long as the function: one as long as the whole module's instructions, made
    /// for each function, was quadratic over many functions.
    slots: Slots,
    succs: HashMap<Block, Vec<Block>>,
    executable: HashSet<(u32, u32)>,
}

impl Propagator {
    /// Runs the propagation over `f` (`Run`): whether any instruction was found
    /// interesting, `None` if the visit failed.
    pub fn run(cx: &mut Context, f: Func, v: &mut dyn Visitor) -> Option<bool> {
        let blocks: Vec<Block> = cx.ir.blocks(f).collect();
        let (mut lowest, mut count) = (u32::MAX, 0usize);
        for &b in &blocks {
            for i in std::iter::once(cx.ir.label(b)).chain(cx.ir.insts(b)) {
                lowest = lowest.min(i.index() as u32);
                count += 1;
            }
        }
        let mut p = Propagator {
            slots: Slots {
                base: lowest,
                map: IdMap::new(id_cap(count)),
            },
            ..Propagator::default()
        };
        for &b in &blocks {
            let mut out = Vec::new();
            for label in cx.ir.successors(b) {
                // A target that is no block (malformed input) gives no edge.
                if let Some(s) = cx.get_def(label).and_then(|d| cx.ir.block_of(d)) {
                    out.push(s);
                }
            }
            p.succs.insert(b, out);
        }
        if let Some(&entry) = blocks.first() {
            p.add_control_edge(None, entry);
        }
        let mut changed = false;
        loop {
            if let Some(&b) = p.blocks.front() {
                changed |= p.simulate_block(cx, v, b)?;
                p.blocks.pop_front();
                continue;
            }
            let Some(&i) = p.ssa_edge_uses.front() else {
                break;
            };
            changed |= p.simulate(cx, v, i)?;
            p.ssa_edge_uses.pop_front();
        }
        Some(changed)
    }

    /// Whether the phi operand pair at in-operand `k` (its value; the block at `k + 1`)
    /// arrives over an executable edge (`IsPhiArgExecutable`).
    pub fn is_phi_arg_executable(&self, cx: &mut Context, phi: Inst, k: usize) -> bool {
        let d = cx.ir.data(phi);
        if k + 1 >= d.num_in_operands() {
            return false;
        }
        let label = d.in_word(k + 1);
        let Some(phi_bb) = cx.ir.block_of(phi) else {
            return false;
        };
        let Some(in_bb) = cx.get_def(label).and_then(|l| cx.ir.block_of(l)) else {
            return false;
        };
        self.executable
            .contains(&(in_bb.index() as u32, phi_bb.index() as u32))
    }

    /// `AddControlEdge` (the edge to the exit block is never added: no such edge is
    /// recorded here).
    fn add_control_edge(&mut self, from: Option<Block>, to: Block) {
        let src = from.map_or(ENTRY, |b| b.index() as u32);
        if self.executable.insert((src, to.index() as u32)) {
            self.blocks.push_back(to);
        }
    }

    fn should_simulate_again(&self, i: Inst) -> bool {
        !self.slots.get(i).is_some_and(|s| s.settled)
    }

    fn dont_simulate_again(&mut self, i: Inst) {
        self.slots.get_mut(i).settled = true;
    }

    /// `SetStatus`: whether the status changed.
    fn set_status(&mut self, i: Inst, s: PropStatus) -> bool {
        let slot = self.slots.get_mut(i);
        let changed = slot.status != Some(s);
        slot.status = Some(s);
        changed
    }

    /// `AddSSAEdges`: the users of `i`'s result in blocks already simulated that may
    /// still change.
    fn add_ssa_edges(&mut self, cx: &mut Context, i: Inst) {
        let id = cx.ir.result_id(i);
        if id == 0 {
            return;
        }
        for user in cx.users(id) {
            let Some(b) = cx.ir.block_of(user) else {
                continue;
            };
            if self.simulated.contains(&b) && self.should_simulate_again(user) {
                self.ssa_edge_uses.push_back(user);
            }
        }
    }

    /// `Simulate(Instruction*)`: whether `i` was found interesting.
    fn simulate(&mut self, cx: &mut Context, v: &mut dyn Visitor, i: Inst) -> Option<bool> {
        if !self.should_simulate_again(i) {
            return Some(false);
        }
        let (status, dest) = v.visit(cx, self, i)?;
        let status_changed = self.set_status(i, status);
        let block = cx.ir.block_of(i);
        match status {
            PropStatus::Varying => {
                self.dont_simulate_again(i);
                if status_changed {
                    self.add_ssa_edges(cx, i);
                }
                if is_block_terminator(cx.ir.opcode(i)) {
                    if let Some(b) = block {
                        let succs = self.succs.get(&b).cloned().unwrap_or_default();
                        for s in succs {
                            self.add_control_edge(Some(b), s);
                        }
                    }
                }
                return Some(false);
            }
            PropStatus::Interesting => {
                if status_changed {
                    self.add_ssa_edges(cx, i);
                }
                if let (Some(d), Some(b)) = (dest, block) {
                    self.add_control_edge(Some(b), d);
                }
            }
            PropStatus::NotInteresting => {}
        }
        // Simulated again only while an operand may still change.
        let again = if cx.ir.opcode(i) == O::Phi {
            let n = cx.ir.data(i).num_in_operands();
            (0..n).step_by(2).any(|k| {
                let arg = cx.ir.data(i).in_word(k);
                !self.is_phi_arg_executable(cx, i, k)
                    || cx
                        .get_def(arg)
                        .is_none_or(|d| self.should_simulate_again(d))
            })
        } else {
            let mut ids = Vec::new();
            cx.ir.data(i).for_each_in_id(|id| ids.push(id));
            ids.into_iter()
                .any(|id| cx.get_def(id).is_none_or(|d| self.should_simulate_again(d)))
        };
        if !again {
            self.dont_simulate_again(i);
        }
        Some(status == PropStatus::Interesting)
    }

    /// `Simulate(BasicBlock*)`: the phis every time, the whole block the first time.
    fn simulate_block(&mut self, cx: &mut Context, v: &mut dyn Visitor, b: Block) -> Option<bool> {
        let mut changed = false;
        let phis: Vec<Inst> = cx
            .ir
            .insts(b)
            .take_while(|&i| cx.ir.opcode(i) == O::Phi)
            .collect();
        for i in phis {
            changed |= self.simulate(cx, v, i)?;
        }
        if self.simulated.contains(&b) {
            return Some(changed);
        }
        let mut all = vec![cx.ir.label(b)];
        all.extend(cx.ir.insts(b));
        for i in all {
            changed |= self.simulate(cx, v, i)?;
        }
        self.simulated.insert(b);
        if let Some([s]) = self.succs.get(&b).map(Vec::as_slice) {
            let s = *s;
            self.add_control_edge(Some(b), s);
        }
        Some(changed)
    }
}

/// What the propagation knows of one instruction.
#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    status: Option<PropStatus>,
    settled: bool,
}

/// The slots of one function's instructions, by index less `base` (indices below it,
/// of instructions outside the function, wrap to the map's sparse part).
#[derive(Debug)]
struct Slots {
    base: u32,
    map: IdMap<Slot>,
}

impl Default for Slots {
    fn default() -> Self {
        Slots {
            base: 0,
            map: IdMap::new(0),
        }
    }
}

impl Slots {
    fn key(&self, i: Inst) -> u32 {
        (i.index() as u32).wrapping_sub(self.base)
    }

    fn get(&self, i: Inst) -> Option<&Slot> {
        self.map.get(self.key(i))
    }

    fn get_mut(&mut self, i: Inst) -> &mut Slot {
        let k = self.key(i);
        self.map.entry_or_insert_with(k, Slot::default)
    }
}
