//! `--nested-indent` levels: the nesting level spirv-dis gives each block of a
//! function, over spirv-core's control-flow graph ([`Cfg`]), which also gives
//! `--reorder-blocks` its structured order.
//!
//! Linear in the function's size, with an explicit stack instead of recursion.

use crate::fxhash::FxHashMap;
use spirv_core::Id;
use spirv_core::analysis::Cfg;
use spirv_core::binary::RawInstructions;
use spirv_core::walk::Ids;

/// The control flow of the function whose `OpFunction` is at word `start` (the words
/// up to there were read already). As in spirv-dis, the function runs to the first
/// `OpFunctionEnd`; an `OpFunction` before it is an ordinary instruction of the
/// current block.
pub(crate) fn scan(words: &[u32], start: usize, ids: &Ids) -> Cfg {
    Cfg::scan(
        RawInstructions::new(words.get(start..).unwrap_or(&[]), start),
        ids,
    )
}

/// `--nested-indent` levels, by label, as spirv-dis assigns them: a depth-first walk
/// from the entry block (a stack, so the last successor is visited first) gives each
/// block a level when it is first reached. A header's merge block gets the header's
/// level, its continue target one more, and its branch targets two more; elsewhere an
/// unconditional branch keeps the level and conditional ones add two. Unreachable
/// blocks are at level 0.
pub(crate) fn levels(cfg: &Cfg) -> FxHashMap<u32, u32> {
    let mut levels: FxHashMap<u32, u32> = FxHashMap::default();
    let Some(entry) = cfg.block(0) else {
        return levels;
    };
    let mut visited = vec![false; cfg.len()];
    levels.insert(entry.label.0, 0);
    let mut stack = vec![0usize];
    while let Some(i) = stack.pop() {
        if std::mem::replace(&mut visited[i], true) {
            continue;
        }
        let Some(b) = cfg.block(i) else {
            continue;
        };
        let level = levels.get(&b.label.0).copied().unwrap_or(0);
        let mut reach = |id: Id, l: u32| {
            levels.entry(id.0).or_insert(l);
            if let Some(j) = cfg.block_of(id) {
                stack.push(j);
            }
        };
        if let Some(m) = b.merge {
            reach(m, level);
        }
        if let Some(c) = b.continue_target {
            reach(c, level.saturating_add(1));
        }
        let step = if b.merge.is_some() || b.conditional {
            2
        } else {
            0
        };
        for &t in cfg.targets(i) {
            reach(t, level.saturating_add(step));
        }
    }
    levels
}
