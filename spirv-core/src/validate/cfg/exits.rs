//! `Construct::IsStructuredExit`: the blocks through which each construct may be left
//! (its structured exits), found for every construct at once. A selection's come from
//! the walk up from its header, taken by shortcuts to the blocks it may stop at.

use super::ConstructKind;
use super::graph::{Construct, NONE};
use super::structured::Checks;
use crate::__private::Vec;
use crate::spv::Opcode as O;

/// Shortcuts for `IsStructuredExit`'s walk up from a selection header `h`: it goes
/// from block to block by `next_block` and stops at loop headers and (when `h` ends
/// in no `OpSwitch`) switch headers, unless their merge block dominates `h`. A block
/// it reaches from the merge block of that block's own construct is always passed
/// (that merge block is on the walk, so it dominates `h`); so, per node, the first
/// block after it that the walk reaches by an immediate-dominator step and that heads
/// a loop or a switch (`any`), or a loop (`loops`). A walk then costs the blocks it
/// stops at, not the blocks it climbs through.
#[derive(Debug, Default)]
pub(super) struct Walk {
    any: Vec<u32>,
    loops: Vec<u32>,
}

impl Checks<'_, '_> {
    /// The shortcuts of the walks, when some construct is a selection.
    pub(super) fn walk(&self) -> Walk {
        if self
            .g
            .constructs
            .iter()
            .any(|c| c.kind == ConstructKind::Selection)
        {
            let heads = |y: u32, loops_only: bool| match self.merge_inst(y) {
                Some((O::LoopMerge, _)) => true,
                Some((O::SelectionMerge, _)) => {
                    !loops_only && self.terminator(y) == Some(O::Switch)
                }
                _ => false,
            };
            let any = self.shortcuts(|y| heads(y, false));
            let loops = self.shortcuts(|y| heads(y, true));
            Walk { any, loops }
        } else {
            Walk::default()
        }
    }

    /// Per node, the first block after it on the walk reached by an immediate
    /// dominator step for which `stops` holds (see [`Walk`]).
    fn shortcuts(&self, stops: impl Fn(u32) -> bool) -> Vec<u32> {
        const UNSET: u32 = NONE - 1;
        let n = self.g.len() + 2;
        let mut out = alloc::vec![UNSET; n];
        let mut stack = Vec::new();
        for x in 0..n as u32 {
            if out[x as usize] != UNSET {
                continue;
            }
            stack.push(x);
            let value = loop {
                let t = *stack.last().expect("not empty");
                let (y, jump) = self.step(t);
                if y == NONE {
                    break NONE;
                }
                if !jump && stops(y) {
                    break y;
                }
                match out[y as usize] {
                    UNSET => stack.push(y),
                    v => break v,
                }
            };
            while let Some(t) = stack.pop() {
                out[t as usize] = value;
            }
        }
        out
    }

    /// `Construct::IsStructuredExit`'s exits of a construct (the nodes it accepts; up
    /// to four).
    pub(super) fn structured_exits(&self, k: usize, c: &Construct, walk: &Walk) -> [u32; 4] {
        let mut out = [NONE; 4];
        match c.kind {
            ConstructKind::Loop => {
                if let Some((_, w)) = self.merge_inst(c.entry) {
                    out[0] = self.node(w.get(1).copied().unwrap_or(0));
                    out[1] = self.node(w.get(2).copied().unwrap_or(0));
                }
            }
            ConstructKind::Continue => {
                let header = self.g.constructs[c.partner as usize].entry;
                out[0] = header;
                if let Some((_, w)) = self.merge_inst(header) {
                    out[1] = self.node(w.get(1).copied().unwrap_or(0));
                }
            }
            ConstructKind::Selection => {
                out[0] = self.exits[k];
                let header = c.entry;
                let switch_header = self.terminator(header) == Some(O::Switch);
                let mut seen_switch = false;
                let mut at = 1;
                // Only candidates can end the walk or name an exit (see `walk`).
                let mut y = if switch_header {
                    walk.loops[header as usize]
                } else {
                    walk.any[header as usize]
                };
                while y != NONE {
                    let Some((op, w)) = self.merge_inst(y) else {
                        break;
                    };
                    let is_loop = op == O::LoopMerge;
                    let merge = self.node(w.get(1).copied().unwrap_or(0));
                    let passed = merge != NONE && self.dom.dominates(merge, header);
                    if !passed {
                        if (!seen_switch || is_loop) && at < 4 {
                            out[at] = merge;
                            at += 1;
                        }
                        if is_loop && at < 4 {
                            out[at] = self.node(w.get(2).copied().unwrap_or(0));
                            at += 1;
                        }
                        if is_loop {
                            break;
                        }
                        seen_switch = true;
                    }
                    y = if seen_switch || switch_header {
                        walk.loops[y as usize]
                    } else {
                        walk.any[y as usize]
                    };
                }
            }
        }
        out
    }

    /// The next block of `IsStructuredExit`'s walk (`NextBlock`): the header that
    /// names `b` its merge block, if it structurally dominates `b` (a merge-block
    /// step, `true`), else `b`'s immediate structural dominator.
    fn step(&self, b: u32) -> (u32, bool) {
        let h = self.g.merge_header(b);
        if h != NONE && h != b && self.dom.dominates(h, b) {
            (h, true)
        } else {
            (self.dom.idom(b), false)
        }
    }
}
