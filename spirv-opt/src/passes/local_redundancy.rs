//! `--local-redundancy-elimination` (spirv-opt's `LocalRedundancyEliminationPass`,
//! `source/opt/local_redundancy_elimination.cpp`): within each block, an instruction
//! whose value number (see [`ValueNumbers`]) an earlier instruction of the block
//! already holds goes; its uses take the earlier id, its names and decorations go
//! with it. The block-level step is shared with `--redundancy-elimination`.

use crate::analysis::Analyses;
use crate::analysis::IdHashMap;
use crate::analysis::value_numbers::ValueNumbers;
use crate::context::Context;
use crate::ir::Block;
use crate::pass::{IrPass, PassError, Status};

/// The pass's flag.
pub const FLAG: &str = "local-redundancy-elimination";

/// `--local-redundancy-elimination`.
#[derive(Debug, Clone, Copy, Default)]
pub struct LocalRedundancyElimination;

/// What both redundancy passes keep (`GetPreservedAnalyses`).
pub(crate) fn preserved() -> Analyses {
    Analyses::DEF_USE
        | Analyses::INSTR_TO_BLOCK
        | Analyses::DECORATIONS
        | Analyses::COMBINATORS
        | Analyses::CFG
        | Analyses::DOMINATORS
        | Analyses::NAME_MAP
        | Analyses::CONSTANTS
        | Analyses::TYPES
}

impl IrPass for LocalRedundancyElimination {
    fn flag(&self) -> &'static str {
        FLAG
    }

    fn preserved(&self) -> Analyses {
        preserved()
    }

    fn process(&self, cx: &mut Context) -> Result<Status, PassError> {
        let vn = cx.with_decoration_classes(ValueNumbers::build);
        let mut modified = false;
        let funcs = cx.ir.functions().to_vec();
        let mut map = IdHashMap::default();
        for f in funcs {
            let blocks: Vec<Block> = cx.ir.blocks(f).collect();
            for b in blocks {
                map.clear();
                modified |= eliminate_in_block(cx, &vn, b, &mut map, None);
            }
        }
        Ok(Status::from_changed(modified))
    }
}

/// `EliminateRedundanciesInBB`: walks `b`, keeping in `seen` the first id of each
/// value number met (with `log`, the value numbers added, so a caller can take them
/// out again); an instruction whose number is already there is replaced by that id.
pub(crate) fn eliminate_in_block(
    cx: &mut Context,
    vn: &ValueNumbers,
    b: Block,
    seen: &mut IdHashMap<u32, u32>,
    mut log: Option<&mut Vec<u32>>,
) -> bool {
    let mut modified = false;
    let mut at = cx.ir.first_inst(b);
    while let Some(i) = at {
        at = cx.ir.next(i);
        let id = cx.ir.result_id(i);
        if id == 0 {
            continue;
        }
        let value = vn.value_of(id);
        if value == 0 {
            continue;
        }
        match seen.get(&value) {
            Some(&keep) => {
                cx.kill_names_and_decorates(i);
                cx.replace_all_uses_with(id, keep);
                cx.kill_inst(i);
                modified = true;
            }
            None => {
                seen.insert(value, id);
                if let Some(log) = log.as_deref_mut() {
                    log.push(value);
                }
            }
        }
    }
    modified
}
