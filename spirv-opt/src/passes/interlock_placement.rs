//! invocation-interlock-placement (spirv-opt's `InvocationInterlockPlacementPass`,
//! `source/opt/invocation_interlock_placement_pass.cpp`; no flag on spirv-opt's
//! command line, it runs in `--legalize-hlsl`). In a module that enables fragment
//! shader interlock, `OpBeginInvocationInterlockEXT` and `OpEndInvocationInterlockEXT`
//! must appear once each, in the fragment entry point itself. The pass removes them
//! from every other function, puts a begin before (an end after) each call of the
//! entry point to a function that reached one, then, on the entry point's CFG, keeps
//! only the first begin (last end) of the critical section and adds begins (ends) on
//! the edges that enter (leave) it, splitting edges where needed.
//!
//! spirv-opt finds what a function reaches by recursion over calls (a call cycle,
//! invalid SPIR-V, overflows its stack); we propagate over the reversed call graph
//! with a work list. A function named by several `Fragment` entry points is placed
//! once (spirv-opt places it once per entry point, redoing the same edits).

use crate::context::Context;
use crate::ir::{Block, Func, Inst, Operand, Section};
use crate::pass::{IrPass, PassError, Status};
use spirv_core::spv::Opcode as O;
use std::collections::{HashMap, HashSet, VecDeque};

/// The pass's name in the registry (spirv-opt gives it no flag).
pub const FLAG: &str = "invocation-interlock-placement";

/// invocation-interlock-placement.
#[derive(Debug, Clone, Copy, Default)]
pub struct InterlockPlacement;

const EXTENSION: &str = "SPV_EXT_fragment_shader_interlock";
/// `FragmentShaderSampleInterlockEXT`, `FragmentShaderShadingRateInterlockEXT`,
/// `FragmentShaderPixelInterlockEXT`.
const CAPABILITIES: [u32; 3] = [5363, 5372, 5378];
const FRAGMENT: u32 = 4;

impl IrPass for InterlockPlacement {
    fn flag(&self) -> &'static str {
        FLAG
    }

    fn process(&self, cx: &mut Context) -> Result<Status, PassError> {
        if !cx.features().has_extension(EXTENSION)
            || !CAPABILITIES.iter().any(|&c| cx.has_capability(c))
        {
            return Ok(Status::Unchanged);
        }
        let entries: Vec<(u32, u32)> = cx
            .ir
            .section(Section::EntryPoint)
            .filter(|&e| cx.ir.data(e).num_in_operands() > 1)
            .map(|e| (cx.ir.data(e).in_word(0), cx.ir.data(e).in_word(1)))
            .collect();
        let entry_ids: HashSet<u32> = entries.iter().map(|&(_, f)| f).collect();
        let reach = reached(cx);
        let mut changed = false;
        // Every function but the entry points loses its begins and ends.
        let funcs: Vec<Func> = cx.ir.functions().to_vec();
        let mut insts = Vec::new();
        for f in funcs {
            if entry_ids.contains(&cx.ir.func_id(f)) {
                continue;
            }
            insts.clear();
            cx.ir.func_insts(f, false, &mut |i| insts.push(i));
            for &i in &insts {
                if is_interlock(cx.ir.opcode(i)) {
                    cx.kill_inst(i);
                    changed = true;
                }
            }
        }
        let mut done = HashSet::new();
        for (model, id) in entries {
            if model != FRAGMENT || !done.insert(id) {
                continue;
            }
            let Some(f) = cx.get_function(id) else {
                continue;
            };
            changed |= Placement::default().run(cx, f, &reach)?;
        }
        Ok(if changed {
            Status::Changed
        } else {
            Status::Unchanged
        })
    }
}

fn is_interlock(op: O) -> bool {
    matches!(
        op,
        O::BeginInvocationInterlockEXT | O::EndInvocationInterlockEXT
    )
}

/// For each function id, whether it or a function it calls (at any depth) has a
/// begin, and an end (spirv-opt's `recordBeginOrEndInFunction`).
fn reached(cx: &mut Context) -> HashMap<u32, (bool, bool)> {
    let funcs: Vec<Func> = cx.ir.functions().to_vec();
    let mut flags: HashMap<u32, (bool, bool)> = HashMap::with_capacity(funcs.len());
    let mut callers: HashMap<u32, Vec<u32>> = HashMap::new();
    for &f in &funcs {
        let id = cx.ir.func_id(f);
        let mut own = (false, false);
        let ir = &cx.ir;
        ir.func_insts(f, false, &mut |i| match ir.opcode(i) {
            O::BeginInvocationInterlockEXT => own.0 = true,
            O::EndInvocationInterlockEXT => own.1 = true,
            O::FunctionCall if ir.data(i).num_in_operands() > 0 => {
                callers.entry(ir.data(i).in_word(0)).or_default().push(id);
            }
            _ => {}
        });
        let e = flags.entry(id).or_default();
        e.0 |= own.0;
        e.1 |= own.1;
    }
    for which in 0..2 {
        let get = |v: &(bool, bool)| if which == 0 { v.0 } else { v.1 };
        let mut work: Vec<u32> = flags
            .iter()
            .filter(|(_, v)| get(v))
            .map(|(&k, _)| k)
            .collect();
        while let Some(callee) = work.pop() {
            for &caller in callers.get(&callee).map_or(&[][..], Vec::as_slice) {
                let Some(v) = flags.get_mut(&caller) else {
                    continue;
                };
                let slot = if which == 0 { &mut v.0 } else { &mut v.1 };
                if !*slot {
                    *slot = true;
                    work.push(caller);
                }
            }
        }
    }
    flags
}

/// One fragment entry point's placement.
#[derive(Default)]
struct Placement {
    /// The blocks at or after a begin, and those with a predecessor among them.
    after_begin: HashSet<u32>,
    preds_after_begin: HashSet<u32>,
    /// The blocks at or before an end, and those with a successor among them.
    before_end: HashSet<u32>,
    succs_before_end: HashSet<u32>,
    /// The function's blocks and predecessors as they were before any edge split
    /// (spirv-opt's CFG is not updated while the pass splits edges).
    blocks: HashMap<u32, Block>,
    preds: HashMap<u32, Vec<u32>>,
}

impl Placement {
    fn run(
        mut self,
        cx: &mut Context,
        f: Func,
        reach: &HashMap<u32, (bool, bool)>,
    ) -> Result<bool, PassError> {
        let original: Vec<Block> = cx.ir.blocks(f).collect();
        let mut changed = false;
        // Begins before and ends after calls to functions that had them.
        for &b in &original {
            let calls: Vec<Inst> = cx
                .ir
                .insts(b)
                .filter(|&i| cx.ir.opcode(i) == O::FunctionCall)
                .collect();
            for call in calls {
                let callee = cx.ir.data(call).in_word(0);
                let (begin, end) = reach.get(&callee).copied().unwrap_or_default();
                if begin {
                    let i = cx.make(O::BeginInvocationInterlockEXT, 0, 0, &[]);
                    cx.ir.insert_before(call, i);
                    changed = true;
                }
                if end {
                    let i = cx.make(O::EndInvocationInterlockEXT, 0, 0, &[]);
                    cx.ir.insert_after(call, i);
                    changed = true;
                }
            }
        }
        let mut begins = Vec::new();
        let mut ends = Vec::new();
        for &b in &original {
            let id = cx.ir.block_id(b);
            self.blocks.insert(id, b);
            let preds = cx.cfg().preds(id).to_vec();
            self.preds.insert(id, preds);
            for i in cx.ir.insts(b) {
                match cx.ir.opcode(i) {
                    O::BeginInvocationInterlockEXT => begins.push(id),
                    O::EndInvocationInterlockEXT => ends.push(id),
                    _ => {}
                }
            }
        }
        (self.after_begin, self.preds_after_begin) = self.reachable(cx, &begins, true);
        (self.before_end, self.succs_before_end) = self.reachable(cx, &ends, false);
        for &b in &original {
            changed |= self.remove_unneeded(cx, b);
            changed |= self.place(cx, b)?;
        }
        Ok(changed)
    }

    /// The blocks reachable from `start` (itself included) forward or backward, and
    /// the blocks with a previous block among them (`computeReachableBlocks`).
    fn reachable(
        &self,
        cx: &mut Context,
        start: &[u32],
        forward: bool,
    ) -> (HashSet<u32>, HashSet<u32>) {
        let mut inside: HashSet<u32> = start.iter().copied().collect();
        let mut previous_inside = HashSet::new();
        let mut work: VecDeque<u32> = inside.iter().copied().collect();
        while let Some(id) = work.pop_front() {
            let next = if forward {
                self.blocks
                    .get(&id)
                    .map_or_else(Vec::new, |&b| cx.ir.successors(b))
            } else {
                self.preds.get(&id).cloned().unwrap_or_default()
            };
            for n in next {
                previous_inside.insert(n);
                if inside.insert(n) {
                    work.push_back(n);
                }
            }
        }
        (inside, previous_inside)
    }

    /// `removeUnneededInstructions`: inside the critical section only its first begin
    /// and last end stay.
    fn remove_unneeded(&self, cx: &mut Context, b: Block) -> bool {
        let id = cx.ir.block_id(b);
        let mut changed = false;
        if !self.preds_after_begin.contains(&id) && self.after_begin.contains(&id) {
            changed |= kill_all_but(cx, b, O::BeginInvocationInterlockEXT, true);
        } else if self.preds_after_begin.contains(&id) {
            changed |= kill_all_but(cx, b, O::BeginInvocationInterlockEXT, false);
        }
        if !self.succs_before_end.contains(&id) && self.before_end.contains(&id) {
            changed |= kill_all_but(cx, b, O::EndInvocationInterlockEXT, true);
        } else if self.succs_before_end.contains(&id) {
            changed |= kill_all_but(cx, b, O::EndInvocationInterlockEXT, false);
        }
        changed
    }

    /// `placeInstructions`: for each edge out of `b`, a begin where it enters the
    /// critical section, an end where the edge into `b`'s successor leaves it.
    fn place(&self, cx: &mut Context, b: Block) -> Result<bool, PassError> {
        let Some(term) = cx.ir.terminator(b) else {
            return Ok(false);
        };
        // The operand positions of the successor labels; splitting an edge rewrites
        // a label in place, so each is read when its turn comes, as spirv-opt does.
        let mut slots = Vec::new();
        let d = cx.ir.data(term);
        match d.opcode() {
            O::Branch => slots.push(0),
            O::BranchConditional | O::Switch => {
                let first = d.type_result_count();
                let mut seen_first = false;
                d.for_each_id(|k, _| {
                    if k >= first {
                        if seen_first {
                            slots.push(k);
                        }
                        seen_first = true;
                    }
                });
            }
            _ => {}
        }
        let id = cx.ir.block_id(b);
        let mut changed = false;
        for k in slots {
            let succ = cx.ir.data(term).word(k);
            if self.preds_after_begin.contains(&succ) && !self.after_begin.contains(&id) {
                changed = true;
                if has_single_successor(cx, term) {
                    let i = cx.make(O::BeginInvocationInterlockEXT, 0, 0, &[]);
                    cx.ir.insert_before(term, i);
                } else {
                    let nb = split_edge(cx, b, succ)?;
                    insert_before_terminator(cx, nb, O::BeginInvocationInterlockEXT);
                }
            }
            let Some(&s) = self.blocks.get(&succ) else {
                continue;
            };
            if self.succs_before_end.contains(&id) && !self.before_end.contains(&succ) {
                changed = true;
                if self.preds.get(&succ).map_or(0, Vec::len) == 1 {
                    let i = cx.make(O::EndInvocationInterlockEXT, 0, 0, &[]);
                    match cx.ir.first_inst(s) {
                        Some(first) => cx.ir.insert_before(first, i),
                        None => cx.ir.push_block_inst(s, i),
                    }
                } else {
                    let nb = split_edge(cx, b, succ)?;
                    insert_before_terminator(cx, nb, O::EndInvocationInterlockEXT);
                }
            }
        }
        Ok(changed)
    }
}

/// Kills the instructions of `b` with `op`: all of them, or all but the first begin
/// (`keep_one` for a begin) or the last end (`keep_one` for an end).
fn kill_all_but(cx: &mut Context, b: Block, op: O, keep_one: bool) -> bool {
    let found: Vec<Inst> = cx.ir.insts(b).filter(|&i| cx.ir.opcode(i) == op).collect();
    let kill: &[Inst] = match (keep_one, op) {
        (false, _) => &found,
        (true, O::BeginInvocationInterlockEXT) => found.get(1..).unwrap_or(&[]),
        (true, _) => &found[..found.len().saturating_sub(1)],
    };
    for &i in kill {
        cx.kill_inst(i);
    }
    !kill.is_empty()
}

/// `hasSingleNextBlock` going forward: spirv-opt counts a switch as single only
/// when it has one in-operand word, which no switch has.
fn has_single_successor(cx: &Context, term: Inst) -> bool {
    let d = cx.ir.data(term);
    match d.opcode() {
        O::BranchConditional => false,
        O::Switch => {
            let words: usize = (0..d.num_in_operands())
                .map(|k| d.in_operand_words(k).len())
                .sum();
            words == 1
        }
        op => !is_return_or_abort(op),
    }
}

fn is_return_or_abort(op: O) -> bool {
    matches!(
        op,
        O::Return
            | O::ReturnValue
            | O::Kill
            | O::Unreachable
            | O::TerminateInvocation
            | O::TerminateRayKHR
            | O::IgnoreIntersectionKHR
            | O::EmitMeshTasksEXT
    )
}

fn insert_before_terminator(cx: &mut Context, b: Block, op: O) {
    let i = cx.make(op, 0, 0, &[]);
    match cx.ir.terminator(b) {
        Some(t) => cx.ir.insert_before(t, i),
        None => cx.ir.push_block_inst(b, i),
    }
}

/// `splitEdge`: a new block after `b` that branches to `succ`, and `b`'s first
/// in-id naming `succ` (if any) names the new block instead.
fn split_edge(cx: &mut Context, b: Block, succ: u32) -> Result<Block, PassError> {
    let Some(new_id) = cx.take_next_id() else {
        return Err(PassError {
            pass: FLAG,
            message: "ID overflow. Try running compact-ids.".to_owned(),
        });
    };
    let label = cx.make(O::Label, 0, new_id, &[]);
    let nb = cx.ir.new_block(label);
    cx.ir.insert_block_after(b, nb);
    let branch = cx.make(O::Branch, 0, 0, &[Operand::id(succ)]);
    cx.ir.push_block_inst(nb, branch);
    if let Some(t) = cx.ir.terminator(b) {
        let mut done = false;
        cx.ir.data_mut(t).map_in_ids(|id| {
            if !done && id == succ {
                done = true;
                new_id
            } else {
                id
            }
        });
    }
    Ok(nb)
}
