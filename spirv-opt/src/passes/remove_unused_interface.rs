//! `--remove-unused-interface-variables` on the optimizer IR (spirv-opt's
//! `RemoveUnusedInterfaceVariablesPass`), so that presets running it between IR passes
//! (`--legalize-hlsl`) keep the module in the IR: a write and reload there would give
//! the debug scopes new ids, which spirv-opt does not. Each entry point's interface is
//! rebuilt from the global variables the instructions of its call tree's blocks use
//! (from SPIR-V 1.4 every variable outside the `Function` storage class, before only
//! `Input` and `Output` ones), in order of first use, when the old one lists a variable
//! not used, lists one twice, or misses one. The structural version,
//! [`crate::structural::remove_unused_interface_variables`], does the same on a module.

use crate::context::Context;
use crate::ir::{Func, Operand, Section};
use crate::pass::{IrPass, PassError, Status};
use spirv_core::spv::Opcode as O;
use std::collections::HashSet;

/// The pass's flag.
pub const FLAG: &str = "remove-unused-interface-variables";

/// `--remove-unused-interface-variables`.
#[derive(Debug, Clone, Copy, Default)]
pub struct RemoveUnusedInterfaceVariables;

/// Storage classes: `Input`, `Output`, `Function`.
const INPUT: u32 = 1;
const OUTPUT: u32 = 3;
const FUNCTION: u32 = 7;

impl IrPass for RemoveUnusedInterfaceVariables {
    fn flag(&self) -> &'static str {
        FLAG
    }

    fn process(&self, cx: &mut Context) -> Result<Status, PassError> {
        let all_globals = cx.ir.header.version >= 0x0001_0400;
        let entries: Vec<_> = cx.ir.section(Section::EntryPoint).collect();
        let mut modified = false;
        for ep in entries {
            let conditional = cx.ir.opcode(ep) == O::ConditionalEntryPointINTEL;
            // The function operand; the interface follows the name.
            let (func_at, first_var) = if conditional { (2, 4) } else { (1, 3) };
            if cx.ir.data(ep).num_in_operands() < first_var {
                continue;
            }
            let root = cx.ir.data(ep).in_word(func_at);
            let mut used: Vec<u32> = Vec::new();
            let mut used_set: HashSet<u32> = HashSet::new();
            let mut collect = |cx: &mut Context, f: Func| {
                let blocks: Vec<_> = cx.ir.blocks(f).collect();
                for b in blocks {
                    let insts: Vec<_> = cx.ir.insts(b).collect();
                    for i in insts {
                        let mut ids = Vec::new();
                        cx.ir.data(i).for_each_in_id(|id| ids.push(id));
                        for id in ids {
                            if used_set.contains(&id) {
                                continue;
                            }
                            let Some(var) = cx.get_def(id) else { continue };
                            if cx.ir.opcode(var) != O::Variable {
                                continue;
                            }
                            let sc = cx.ir.data(var).in_word(0);
                            if sc != FUNCTION && (all_globals || sc == INPUT || sc == OUTPUT) {
                                used_set.insert(id);
                                used.push(id);
                            }
                        }
                    }
                }
                false
            };
            cx.process_call_tree_from_roots(&mut collect, vec![root]);
            // spirv-opt's ShouldModify reads the in-operands from the last down to the
            // fourth, which for a conditional entry point takes in its name's first word.
            let d = cx.ir.data(ep);
            let n = d.num_in_operands();
            let mut listed: HashSet<u32> = HashSet::new();
            let mut modify = false;
            for k in (3..n).rev() {
                let v = d.in_word(k);
                if !used_set.contains(&v) || !listed.insert(v) {
                    modify = true;
                    break;
                }
            }
            if !modify && listed.len() != used_set.len() {
                modify = true;
            }
            if !modify {
                continue;
            }
            // An entry point has no result: its in-operands are its operands.
            let d = cx.ir.data_mut(ep);
            let mut ops = d.operands();
            ops.truncate(first_var);
            ops.extend(used.iter().map(|&v| Operand::id(v)));
            d.replace_operands(&ops);
            modified = true;
        }
        Ok(if modified {
            Status::Changed
        } else {
            Status::Unchanged
        })
    }
}
