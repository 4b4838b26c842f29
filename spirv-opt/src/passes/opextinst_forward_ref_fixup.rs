//! `--fix-opextinst-opcodes` (spirv-opt's `OpExtInstWithForwardReferenceFixupPass`,
//! `source/opt/opextinst_forward_ref_fixup_pass.cpp`): each global debug-info
//! instruction becomes `OpExtInstWithForwardRefsKHR` when one of its id operands names
//! an extended import or debug-info instruction not yet seen (itself counts as seen),
//! and `OpExtInst` otherwise; `SPV_KHR_relaxed_extended_instruction` is then declared
//! exactly when some instruction refers forward.

use crate::analysis::Analyses;
use crate::context::Context;
use crate::ir::Section;
use crate::pass::{IrPass, PassError, Status};
use spirv_core::spv::Opcode as O;
use std::collections::HashSet;

/// The pass's flag.
pub const FLAG: &str = "fix-opextinst-opcodes";

/// `--fix-opextinst-opcodes`.
#[derive(Debug, Clone, Copy, Default)]
pub struct OpExtInstForwardRefFixup;

const EXTENSION: &str = "SPV_KHR_relaxed_extended_instruction";

impl IrPass for OpExtInstForwardRefFixup {
    fn flag(&self) -> &'static str {
        FLAG
    }

    fn preserved(&self) -> Analyses {
        Analyses::INSTR_TO_BLOCK
            | Analyses::DECORATIONS
            | Analyses::COMBINATORS
            | Analyses::CFG
            | Analyses::DOMINATORS
            | Analyses::NAME_MAP
            | Analyses::CONSTANTS
            | Analyses::TYPES
    }

    fn process(&self, cx: &mut Context) -> Result<Status, PassError> {
        let mut seen: HashSet<u32> = cx
            .ir
            .section(Section::ExtInstImport)
            .map(|i| cx.ir.result_id(i))
            .collect();
        let debug: Vec<_> = cx.ir.section(Section::ExtInstDebugInfo).collect();
        let mut debug_ids: HashSet<u32> = debug.iter().map(|&i| cx.ir.result_id(i)).collect();
        debug_ids.extend(seen.iter().copied());
        let mut changed = false;
        let mut any_forward = false;
        for i in debug {
            let op = cx.ir.opcode(i);
            if !matches!(op, O::ExtInst | O::ExtInstWithForwardRefsKHR) {
                continue;
            }
            seen.insert(cx.ir.result_id(i));
            let d = cx.ir.data(i);
            let mut forward = false;
            d.for_each_operand(|k, kind, words| {
                if k >= d.type_result_count()
                    && kind.is_id()
                    && let Some(&id) = words.first()
                    && debug_ids.contains(&id)
                    && !seen.contains(&id)
                {
                    forward = true;
                }
            });
            any_forward |= forward;
            let want = if forward {
                O::ExtInstWithForwardRefsKHR
            } else {
                O::ExtInst
            };
            if op != want {
                cx.ir.data_mut(i).set_opcode(want);
                changed = true;
                if cx.are_valid(Analyses::DEF_USE) {
                    cx.analyze_uses(i);
                }
            }
        }
        if any_forward != cx.features().has_extension(EXTENSION) {
            if any_forward {
                cx.add_extension(EXTENSION);
            } else {
                let named: Vec<_> = cx
                    .ir
                    .section(Section::Extension)
                    .filter(|&e| {
                        cx.ir.opcode(e) == O::Extension && cx.ir.data(e).string(0) == EXTENSION
                    })
                    .collect();
                for e in named {
                    cx.kill_inst(e);
                }
                cx.reset_features();
            }
            changed = true;
        }
        Ok(if changed {
            Status::Changed
        } else {
            Status::Unchanged
        })
    }
}
