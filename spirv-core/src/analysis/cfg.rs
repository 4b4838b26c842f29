//! The control-flow graph of one function: its blocks, each block's branch targets,
//! merge and continue targets, successors and (on request) predecessors, and the
//! structured order.
//!
//! Everything is linear in the function's size (the label index is sorted, so
//! `n log n`): one scan, flat arrays (all branch targets in one vector, a block's end
//! implied by the next block's start), and explicit stacks instead of recursion, so a
//! chain of a million blocks is as safe as a short one.

use crate::__private::Vec;
use crate::binary::RawInstRef;
use crate::error::DecodeError;
use crate::module::Module;
use crate::spv::Opcode;
use crate::types::Id;
use crate::walk::{self, Ids, WalkOptions};
use core::ops::Range;

/// A basic block as stored: 40 bytes.
#[derive(Debug, Clone)]
struct Rec {
    /// Word offset of its `OpLabel`.
    offset: usize,
    /// Index of its `OpLabel`.
    index: u32,
    label: u32,
    /// Valid with [`HAS_MERGE`] / [`HAS_CONTINUE`].
    merge: u32,
    cont: u32,
    /// Its branch targets are `targets[first_target..]` up to the next block's.
    first_target: u32,
    flags: u8,
}

const HAS_MERGE: u8 = 1;
const HAS_CONTINUE: u8 = 2;
/// Ends in a conditional branch or a switch.
const CONDITIONAL: u8 = 4;

impl Rec {
    fn merge(&self) -> Option<u32> {
        (self.flags & HAS_MERGE != 0).then_some(self.merge)
    }
    fn cont(&self) -> Option<u32> {
        (self.flags & HAS_CONTINUE != 0).then_some(self.cont)
    }
}

/// One block of a [`Cfg`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct CfgBlock {
    /// Its label.
    pub label: Id,
    /// Word offset of its `OpLabel`, as the scanned instructions give it.
    pub offset: usize,
    /// Index of its `OpLabel`, as the scanned instructions give it.
    pub instruction: usize,
    /// The merge block its `OpSelectionMerge` or `OpLoopMerge` names.
    pub merge: Option<Id>,
    /// The continue target its `OpLoopMerge` names.
    pub continue_target: Option<Id>,
    /// It ends in `OpBranchConditional` or `OpSwitch`.
    pub conditional: bool,
}

/// The control-flow graph of one function.
///
/// As in spirv-dis, a function runs from its `OpFunction` to the first `OpFunctionEnd`
/// (an `OpFunction` before that is an ordinary instruction of the current block), or
/// to the end of the instructions given. Instructions before the first `OpLabel` belong
/// to no block. Branch targets that are not labels of the function are kept as
/// targets but are no successors. A label defined twice names its last block.
///
/// ```
/// use spirv_core::analysis::{CallGraph, Cfg};
/// use spirv_core::{spv, spv::inst, Builder};
/// let mut b = Builder::new((1, 0));
/// let [void, boolean, yes, fn_type] = [(); 4].map(|()| b.id().unwrap());
/// b.push(inst::TypeVoid { result_id: void }).unwrap();
/// b.push(inst::TypeBool { result_id: boolean }).unwrap();
/// b.push(inst::ConstantTrue { result_type: boolean, result_id: yes }).unwrap();
/// b.push(inst::TypeFunction { result_id: fn_type, return_type: void, parameter_types: Default::default() }).unwrap();
/// b.begin_function(void, spv::FunctionControl::NONE, fn_type).unwrap();
/// let [entry, then, merge] = [(); 3].map(|()| b.id().unwrap());
/// b.push(inst::Label { result_id: entry }).unwrap();
/// b.push(inst::SelectionMerge { merge_block: merge, selection_control: spv::SelectionControl::NONE }).unwrap();
/// b.push(inst::BranchConditional { condition: yes, true_label: then, false_label: merge, branch_weights: Default::default() }).unwrap();
/// b.push(inst::Label { result_id: then }).unwrap();
/// b.push(inst::Branch { target_label: merge }).unwrap();
/// b.push(inst::Label { result_id: merge }).unwrap();
/// b.push(inst::Return {}).unwrap();
/// b.end_function().unwrap();
/// let module = b.build().unwrap();
///
/// let function = CallGraph::new(&module).functions()[0].instructions.clone();
/// let cfg = Cfg::new(&module, function);
/// assert_eq!(cfg.len(), 3);
/// assert_eq!(cfg.block(0).unwrap().merge, Some(merge));
/// assert_eq!(cfg.successors(0).collect::<Vec<_>>(), [1, 2]);
/// assert_eq!(cfg.predecessors().of(2).collect::<Vec<_>>(), [0, 1]);
/// assert_eq!(cfg.structured_order(), [0, 1, 2]);
/// ```
#[derive(Debug, Clone)]
pub struct Cfg {
    blocks: Vec<Rec>,
    targets: Vec<Id>,
    /// `(label, block)`, sorted by label, one block per label (the last).
    index: Vec<(u32, u32)>,
    /// Word offset and index just past the last instruction of the last block.
    last_end: (usize, usize),
    end: Result<usize, usize>,
}

impl Cfg {
    /// The function of `module` whose instructions (by index) are `instructions`,
    /// from its `OpFunction`: [`Function::instructions`](super::Function::instructions)
    /// of a [`CallGraph`](super::CallGraph), say. Indices past the module's end are
    /// ignored.
    pub fn new(module: &Module, instructions: Range<usize>) -> Cfg {
        let end = instructions.end.min(module.len());
        let insts = (instructions.start..end).filter_map(|i| module.instruction(i));
        Cfg::scan(
            insts.map(|inst| {
                Ok(RawInstRef {
                    opcode: inst.opcode().0,
                    operands: inst.operands(),
                    offset: inst.offset(),
                    index: inst.index(),
                })
            }),
            module.ids(),
        )
    }

    /// Scans a function from its `OpFunction` in an instruction stream (a
    /// [`RawInstructions`](crate::binary::RawInstructions), say): up to the first
    /// `OpFunctionEnd`, the first error, or the stream's end. `ids` sizes the literals
    /// of `OpSwitch` by the selector's type.
    pub fn scan<'a>(
        instructions: impl IntoIterator<Item = Result<RawInstRef<'a>, DecodeError>>,
        ids: &Ids,
    ) -> Cfg {
        let mut cfg = Cfg {
            blocks: Vec::new(),
            targets: Vec::new(),
            index: Vec::new(),
            last_end: (0, 0),
            end: Err(0),
        };
        let mut stream_end = None;
        for inst in instructions {
            let inst = match inst {
                Ok(inst) => inst,
                Err(e) => {
                    stream_end = Some(e.offset);
                    break;
                }
            };
            let op = Opcode(inst.opcode);
            let ops = inst.operands;
            let first = ops.first().copied().unwrap_or(0);
            let after = (inst.offset + inst.word_count(), inst.index + 1);
            stream_end = Some(after.0);
            if op == Opcode::FunctionEnd {
                stream_end = None;
                cfg.end = Ok(inst.offset);
                break;
            }
            if op == Opcode::Label {
                cfg.blocks.push(Rec {
                    offset: inst.offset,
                    index: inst.index as u32,
                    label: first,
                    merge: 0,
                    cont: 0,
                    first_target: cfg.targets.len() as u32,
                    flags: 0,
                });
            }
            let targets = &mut cfg.targets;
            let Some(b) = cfg.blocks.last_mut() else {
                continue;
            };
            cfg.last_end = after;
            match op {
                Opcode::SelectionMerge => {
                    b.merge = first;
                    b.flags |= HAS_MERGE;
                }
                Opcode::LoopMerge => {
                    b.merge = first;
                    b.flags |= HAS_MERGE;
                    if let Some(&c) = ops.get(1) {
                        b.cont = c;
                        b.flags |= HAS_CONTINUE;
                    }
                }
                Opcode::Branch => targets.push(Id(first)),
                Opcode::BranchConditional => {
                    targets.extend(ops.get(1..3).unwrap_or(&[]).iter().map(|&t| Id(t)));
                    b.flags |= CONDITIONAL;
                }
                Opcode::Switch => {
                    if let Some(info) = op.info() {
                        // Case literals sized as SPIRV-Tools' parser sizes them (none
                        // for a 0-bit selector).
                        let strict = WalkOptions {
                            strict: true,
                            ..WalkOptions::default()
                        };
                        let _ = walk::walk(info, ops, ids, strict, &mut |p| {
                            if p.kind.is_id() && p.start > 0 {
                                targets.push(Id(ops[p.start]));
                            }
                        });
                    }
                    b.flags |= CONDITIONAL;
                }
                _ => {}
            }
        }
        if let Some(stop) = stream_end {
            cfg.end = Err(stop);
        }
        cfg.index_labels();
        cfg
    }

    fn index_labels(&mut self) {
        // Blocks counted down from the last, so that the plain tuple sort (compiled
        // once for the crate) puts each label's last block first; then the others go.
        let mut index: Vec<(u32, u32)> = (self.blocks.iter().enumerate())
            .map(|(i, b)| (b.label, u32::MAX - i as u32))
            .collect();
        index.sort_unstable();
        index.dedup_by_key(|e| e.0);
        for e in &mut index {
            e.1 = u32::MAX - e.1;
        }
        self.index = index;
    }

    /// Every block's predecessors (one per branch to it), in block order: built on
    /// request, in time and memory linear in the blocks and branches (a disassembler
    /// walking forward needs none).
    pub fn predecessors(&self) -> Predecessors {
        let n = self.blocks.len();
        // `start[j + 1]` counts block j's predecessors, then (summed) ends its list.
        let mut start = alloc::vec![0u32; n + 1];
        for i in 0..n {
            for j in self.successors(i) {
                start[j + 1] += 1;
            }
        }
        for j in 0..n {
            start[j + 1] += start[j];
        }
        let mut preds = alloc::vec![0u32; start[n] as usize];
        // Fill each list from its start, using `start[j]` as the cursor: afterwards it
        // holds the list's end, that is the next list's start, and moves back by one.
        for i in 0..n {
            for j in self.successors(i) {
                preds[start[j] as usize] = i as u32;
                start[j] += 1;
            }
        }
        start.copy_within(0..n, 1);
        start[0] = 0;
        Predecessors { start, preds }
    }

    /// Number of blocks.
    pub fn len(&self) -> usize {
        self.blocks.len()
    }

    /// Whether the function has no block (a declaration).
    pub fn is_empty(&self) -> bool {
        self.blocks.is_empty()
    }

    /// Block `i`, in the function's order.
    pub fn block(&self, i: usize) -> Option<CfgBlock> {
        let b = self.blocks.get(i)?;
        Some(CfgBlock {
            label: Id(b.label),
            offset: b.offset,
            instruction: b.index as usize,
            merge: b.merge().map(Id),
            continue_target: b.cont().map(Id),
            conditional: b.flags & CONDITIONAL != 0,
        })
    }

    /// The block labelled `label`.
    pub fn block_of(&self, label: Id) -> Option<usize> {
        let at = self.index.binary_search_by_key(&label.0, |e| e.0).ok()?;
        Some(self.index[at].1 as usize)
    }

    /// `Ok` with the word offset of the `OpFunctionEnd`, or `Err` with the word offset
    /// where the instructions ended or stopped reading.
    pub fn end(&self) -> Result<usize, usize> {
        self.end
    }

    /// Word offset of the first block's `OpLabel`.
    pub fn first_block_offset(&self) -> Option<usize> {
        self.blocks.first().map(|b| b.offset)
    }

    /// The word offsets of block `i`, from its `OpLabel` to its last instruction
    /// included (empty past the last block).
    pub fn words(&self, i: usize) -> Range<usize> {
        match self.blocks.get(i) {
            Some(b) => b.offset..self.blocks.get(i + 1).map_or(self.last_end.0, |n| n.offset),
            None => 0..0,
        }
    }

    /// The instruction indices of block `i`, from its `OpLabel` to its last
    /// instruction included (empty past the last block).
    pub fn instructions(&self, i: usize) -> Range<usize> {
        match self.blocks.get(i) {
            Some(b) => {
                let end = self
                    .blocks
                    .get(i + 1)
                    .map_or(self.last_end.1, |n| n.index as usize);
                b.index as usize..end
            }
            None => 0..0,
        }
    }

    /// Block `i`'s branch targets in operand order (`OpBranch`; `OpBranchConditional`'s
    /// true then false label; `OpSwitch`'s default then its cases), whether or not
    /// they are blocks of this function.
    pub fn targets(&self, i: usize) -> &[Id] {
        let Some(b) = self.blocks.get(i) else {
            return &[];
        };
        let from = b.first_target as usize;
        let to = self
            .blocks
            .get(i + 1)
            .map_or(self.targets.len(), |n| n.first_target as usize);
        &self.targets[from..to]
    }

    /// Block `i`'s successors: its [`targets`](Self::targets) that are blocks of this
    /// function, in operand order (a block branched to twice comes twice).
    pub fn successors(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        self.targets(i).iter().filter_map(|&t| self.block_of(t))
    }

    /// The `k`-th successor of block `i` in the order the structured walk visits them
    /// (merge block, continue target, branch targets from last to first), whether or
    /// not it is a block of this function.
    fn structured_successor(&self, i: usize, k: usize) -> Option<u32> {
        let b = &self.blocks[i];
        let mut k = k;
        for s in [b.merge(), b.cont()].into_iter().flatten() {
            if k == 0 {
                return Some(s);
            }
            k -= 1;
        }
        let t = self.targets(i);
        (k < t.len()).then(|| t[t.len() - 1 - k].0)
    }

    /// The blocks (indices) in structured order, as spirv-dis's `--reorder-blocks`
    /// prints them: the reverse post-order of a depth-first walk from the first block
    /// that tries each block's merge block, then its continue target, then its branch
    /// targets from last to first, so constructs come before their merge blocks.
    /// Unreachable blocks follow in the function's order.
    pub fn structured_order(&self) -> Vec<usize> {
        let n = self.blocks.len();
        let mut seen = alloc::vec![false; n];
        let mut post: Vec<u32> = Vec::with_capacity(n);
        if n > 0 {
            // Each frame: a block and the index of its next successor to try.
            let mut stack: Vec<(u32, u32)> = alloc::vec![(0, 0)];
            seen[0] = true;
            while let Some(top) = stack.last_mut() {
                let (i, k) = (top.0 as usize, top.1 as usize);
                match self.structured_successor(i, k) {
                    Some(label) => {
                        top.1 += 1;
                        if let Some(j) = self.block_of(Id(label)) {
                            if !core::mem::replace(&mut seen[j], true) {
                                stack.push((j as u32, 0));
                            }
                        }
                    }
                    None => {
                        post.push(i as u32);
                        stack.pop();
                    }
                }
            }
        }
        let mut order: Vec<usize> = post.iter().rev().map(|&i| i as usize).collect();
        order.extend((0..n).filter(|&i| !seen[i]));
        order
    }
}

/// Every block's predecessors in a [`Cfg`]: from [`Cfg::predecessors`].
#[derive(Debug, Clone)]
pub struct Predecessors {
    /// Block `j`'s predecessors are `preds[start[j]..start[j + 1]]`.
    start: Vec<u32>,
    preds: Vec<u32>,
}

impl Predecessors {
    /// Block `j`'s predecessors, in block order (one per branch to it).
    pub fn of(&self, j: usize) -> impl ExactSizeIterator<Item = usize> + '_ {
        let from = self.start.get(j).copied().unwrap_or(0) as usize;
        let to = self.start.get(j + 1).copied().unwrap_or(0) as usize;
        self.preds
            .get(from..to)
            .unwrap_or(&[])
            .iter()
            .map(|&p| p as usize)
    }
}
