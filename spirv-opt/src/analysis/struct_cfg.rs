//! The structured control-flow analysis (spirv-opt's `StructuredCFGAnalysis`): for each
//! block, the header of the innermost construct, loop and switch containing it and
//! whether it is in its loop's continue construct, found by walking each function in
//! structured order with a stack of open constructs. Only for shaders (modules with the
//! `Shader` capability), as spirv-opt builds it.

use super::IdMap;
use super::cfg::Cfg;
use crate::ir::Ir;
use spirv_core::spv::Opcode;

/// What contains a block.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ConstructInfo {
    /// The header of the innermost construct, or 0.
    pub containing_construct: u32,
    /// The header of the innermost loop, or 0.
    pub containing_loop: u32,
    /// The header of the innermost switch inside that loop, or 0.
    pub containing_switch: u32,
    /// Whether the block is in its loop's continue construct.
    pub in_continue: bool,
}

/// The structured control-flow analysis.
#[derive(Debug, Clone)]
pub struct StructCfg {
    constructs: IdMap<ConstructInfo>,
    merge_blocks: IdMap<()>,
    /// The number of blocks recorded: no chain of containing loops is longer.
    count: usize,
}

impl StructCfg {
    /// The analysis of `ir`'s functions; empty unless `shader`.
    pub fn build(ir: &Ir, cfg: &Cfg, shader: bool) -> StructCfg {
        let cap = super::id_cap(ir.functions().iter().map(|&f| ir.blocks(f).count()).sum());
        let mut s = StructCfg {
            constructs: IdMap::new(cap),
            merge_blocks: IdMap::new(cap),
            count: 0,
        };
        if !shader {
            return s;
        }
        for &f in ir.functions() {
            let Some(entry) = ir.entry(f) else { continue };
            let order = cfg.structured_order(ir, f, entry, None);
            // (construct info, merge node, continue node)
            let mut state: Vec<(ConstructInfo, u32, u32)> = vec![(ConstructInfo::default(), 0, 0)];
            for b in order {
                let id = ir.block_id(b);
                // The outermost state's merge node is 0, which no block is.
                if state.len() > 1 && id == state.last().map_or(0, |s| s.1) {
                    state.pop();
                }
                let Some(top) = state.last_mut() else { break };
                if id == top.2 {
                    top.0.in_continue = true;
                }
                let info = top.0;
                if s.constructs.get(id).is_none() {
                    s.constructs.insert(id, info);
                    s.count += 1;
                }
                let Some(merge) = ir.merge_inst(b) else {
                    continue;
                };
                let d = ir.data(merge);
                let mut new = ConstructInfo {
                    containing_construct: id,
                    ..ConstructInfo::default()
                };
                let merge_node = d.in_word(0);
                let continue_node;
                let back = *state.last().expect("a state");
                if d.opcode() == Opcode::LoopMerge {
                    new.containing_loop = id;
                    new.containing_switch = 0;
                    continue_node = d.in_word(1);
                    if id == continue_node {
                        new.in_continue = true;
                        if let Some(c) = s.constructs.get_mut(id) {
                            c.in_continue = true;
                        }
                    } else {
                        new.in_continue = false;
                    }
                } else {
                    new.containing_loop = back.0.containing_loop;
                    new.in_continue = back.0.in_continue;
                    continue_node = back.2;
                    let next_is_switch = ir
                        .next(merge)
                        .is_some_and(|n| ir.opcode(n) == Opcode::Switch);
                    new.containing_switch = if next_is_switch {
                        id
                    } else {
                        back.0.containing_switch
                    };
                }
                state.push((new, merge_node, continue_node));
                s.merge_blocks.insert(merge_node, ());
            }
        }
        s
    }

    fn info(&self, bb: u32) -> ConstructInfo {
        self.constructs.get(bb).copied().unwrap_or_default()
    }

    /// The header of the innermost construct containing `bb`, or 0.
    pub fn containing_construct(&self, bb: u32) -> u32 {
        self.info(bb).containing_construct
    }

    /// The header of the innermost loop containing `bb`, or 0.
    pub fn containing_loop(&self, bb: u32) -> u32 {
        self.info(bb).containing_loop
    }

    /// The header of the innermost switch containing `bb` (inside its loop), or 0.
    pub fn containing_switch(&self, bb: u32) -> u32 {
        self.info(bb).containing_switch
    }

    /// The merge block of the construct containing `bb`, or 0 (`MergeBlock`).
    pub fn merge_block(&self, ir: &Ir, cfg: &Cfg, bb: u32) -> u32 {
        header_operand(ir, cfg, self.containing_construct(bb), 0)
    }

    /// The merge block of the loop containing `bb`, or 0 (`LoopMergeBlock`).
    pub fn loop_merge_block(&self, ir: &Ir, cfg: &Cfg, bb: u32) -> u32 {
        header_operand(ir, cfg, self.containing_loop(bb), 0)
    }

    /// The continue target of the loop containing `bb`, or 0 (`LoopContinueBlock`).
    pub fn loop_continue_block(&self, ir: &Ir, cfg: &Cfg, bb: u32) -> u32 {
        header_operand(ir, cfg, self.containing_loop(bb), 1)
    }

    /// The merge block of the switch containing `bb`, or 0 (`SwitchMergeBlock`).
    pub fn switch_merge_block(&self, ir: &Ir, cfg: &Cfg, bb: u32) -> u32 {
        header_operand(ir, cfg, self.containing_switch(bb), 0)
    }

    /// How many constructs contain `bb` (`NestingDepth`).
    pub fn nesting_depth(&self, ir: &Ir, cfg: &Cfg, bb: u32) -> u32 {
        let mut n = 0;
        let mut m = self.merge_block(ir, cfg, bb);
        while m != 0 && n < u32::MAX {
            n += 1;
            m = self.merge_block(ir, cfg, m);
        }
        n
    }

    /// How many loops contain `bb` (`LoopNestingDepth`).
    pub fn loop_nesting_depth(&self, ir: &Ir, cfg: &Cfg, bb: u32) -> u32 {
        let mut n = 0;
        let mut m = self.loop_merge_block(ir, cfg, bb);
        while m != 0 && n < u32::MAX {
            n += 1;
            m = self.loop_merge_block(ir, cfg, m);
        }
        n
    }

    /// Whether `bb` is its loop's continue target (`IsContinueBlock`).
    pub fn is_continue_block(&self, ir: &Ir, cfg: &Cfg, bb: u32) -> bool {
        self.loop_continue_block(ir, cfg, bb) == bb
    }

    /// Whether `bb` is in its innermost loop's continue construct
    /// (`IsInContainingLoopsContinueConstruct`).
    pub fn is_in_containing_loops_continue_construct(&self, bb: u32) -> bool {
        self.constructs.get(bb).is_some_and(|c| c.in_continue)
    }

    /// Whether `bb` is in the continue construct of any loop containing it
    /// (`IsInContinueConstruct`).
    pub fn is_in_continue_construct(&self, bb: u32) -> bool {
        let mut b = bb;
        let mut steps = 0usize;
        while b != 0 && steps <= self.count {
            if self.is_in_containing_loops_continue_construct(b) {
                return true;
            }
            b = self.containing_loop(b);
            steps += 1;
        }
        false
    }

    /// Whether `bb` is some construct's merge block (`IsMergeBlock`).
    pub fn is_merge_block(&self, bb: u32) -> bool {
        self.merge_blocks.get(bb).is_some()
    }
}

/// In-operand `k` of the merge instruction of header `header`, or 0.
fn header_operand(ir: &Ir, cfg: &Cfg, header: u32, k: usize) -> u32 {
    if header == 0 {
        return 0;
    }
    cfg.block(header)
        .and_then(|b| ir.merge_inst(b))
        .map_or(0, |m| ir.data(m).in_word(k))
}
