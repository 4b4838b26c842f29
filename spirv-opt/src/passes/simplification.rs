//! `--simplify-instructions` (spirv-opt's `SimplificationPass`,
//! `source/opt/simplification_pass.cpp`): the instruction folder over each defined
//! function, its reachable blocks in reverse post order, then a work list of the
//! instructions whose operands changed (the phis met before a folded value, then, once
//! the first walk is over, every user of a folded value and every operand definition
//! not seen yet). A fold to a copy replaces the copy's uses (but names and
//! decorations) by its operand; copies and dropped stores are killed at the end.

use crate::analysis::Analyses;
use crate::context::Context;
use crate::fold;
use crate::ir::{Func, Inst};
use crate::pass::{IrPass, PassError, Status};
use spirv_core::spv::Opcode as O;
use std::collections::HashSet;

/// The pass's flag.
pub const FLAG: &str = "simplify-instructions";

/// `--simplify-instructions`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Simplification;

impl IrPass for Simplification {
    fn flag(&self) -> &'static str {
        FLAG
    }

    fn preserved(&self) -> Analyses {
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

    fn process(&self, cx: &mut Context) -> Result<Status, PassError> {
        let mut modified = false;
        let funcs: Vec<Func> = cx.ir.functions().to_vec();
        for f in funcs {
            modified |= simplify_function(cx, f).map_err(|id| PassError {
                pass: FLAG,
                message: format!("a folded instruction uses id {id}, which nothing defines"),
            })?;
        }
        Ok(if modified {
            Status::Changed
        } else {
            Status::Unchanged
        })
    }
}

/// spvOpcodeIsDebug or spvOpcodeIsDecoration: the users a copy's operand does not
/// replace it in.
fn is_debug_or_decoration(op: O) -> bool {
    matches!(
        op,
        O::Name
            | O::MemberName
            | O::Source
            | O::SourceContinued
            | O::SourceExtension
            | O::String
            | O::Line
            | O::NoLine
            | O::ModuleProcessed
            | O::Decorate
            | O::DecorateId
            | O::MemberDecorate
            | O::GroupDecorate
            | O::GroupMemberDecorate
            | O::DecorateString
            | O::MemberDecorateString
    )
}

fn is_decoration(op: O) -> bool {
    matches!(
        op,
        O::Decorate
            | O::DecorateId
            | O::MemberDecorate
            | O::GroupDecorate
            | O::GroupMemberDecorate
            | O::DecorateString
            | O::MemberDecorateString
    )
}

struct State {
    work_list: Vec<Inst>,
    process_phis: HashSet<Inst>,
    to_kill: Vec<Inst>,
    killed: HashSet<Inst>,
    in_work_list: HashSet<Inst>,
    seen: HashSet<Inst>,
}

impl State {
    /// `AddNewOperands`: the definitions of the folded instruction's operands not
    /// seen yet. An operand nothing defines (invalid SPIR-V) is the error: spirv-opt
    /// queues a null definition and crashes on it, and folding on would put the id
    /// where a reader needs its type (an `OpSwitch` selector, whose literals it sizes),
    /// writing a module that does not read.
    fn add_new_operands(&mut self, cx: &mut Context, i: Inst) -> Result<(), u32> {
        let mut ids = Vec::new();
        cx.ir.data(i).for_each_in_id(|id| ids.push(id));
        for id in ids {
            let def = cx.get_def(id).ok_or(id)?;
            if self.seen.insert(def) {
                self.work_list.push(def);
            }
        }
        Ok(())
    }

    /// After a fold: the copy's uses replaced, copies and nops marked for killing.
    fn finish(&mut self, cx: &mut Context, i: Inst) -> Result<(), u32> {
        self.add_new_operands(cx, i)?;
        match cx.ir.opcode(i) {
            O::CopyObject => {
                let result = cx.ir.result_id(i);
                let operand = cx.ir.data(i).in_word(0);
                cx.replace_all_uses_with_predicate(result, operand, &|ir, u| {
                    !is_debug_or_decoration(ir.opcode(u))
                });
                self.kill(i);
            }
            O::Nop => self.kill(i),
            _ => {}
        }
        Ok(())
    }

    fn kill(&mut self, i: Inst) {
        if self.killed.insert(i) {
            self.to_kill.push(i);
        }
        self.in_work_list.insert(i);
    }
}

/// Whether `i` is a copy whose result's decorations are all its operand's.
fn is_foldable_copy(cx: &mut Context, i: Inst) -> bool {
    if cx.ir.opcode(i) != O::CopyObject || cx.ir.data(i).num_in_operands() == 0 {
        return false;
    }
    let result = cx.ir.result_id(i);
    let operand = cx.ir.data(i).in_word(0);
    cx.have_subset_of_decorations(result, operand)
}

/// `SimplifyFunction`: whether it changed, or the id a folded instruction uses that
/// nothing defines.
fn simplify_function(cx: &mut Context, f: Func) -> Result<bool, u32> {
    if cx.ir.is_declaration(f) {
        return Ok(false);
    }
    let Some(entry) = cx.ir.entry(f) else {
        return Ok(false);
    };
    let order = {
        let (cfg, ir) = cx.cfg_ir();
        cfg.reverse_post_order(ir, entry)
    };
    let mut st = State {
        work_list: Vec::new(),
        process_phis: HashSet::new(),
        to_kill: Vec::new(),
        killed: HashSet::new(),
        in_work_list: HashSet::new(),
        seen: HashSet::new(),
    };
    let mut modified = false;
    // Phase 1: every instruction in dominance order.
    for b in order {
        let mut next = cx.ir.first_inst(b);
        while let Some(i) = next {
            st.seen.insert(i);
            if cx.ir.opcode(i) == O::Phi {
                st.process_phis.insert(i);
            }
            if is_foldable_copy(cx, i) || fold::fold_instruction(cx, i) {
                modified = true;
                cx.analyze_uses(i);
                let result = cx.ir.result_id(i);
                if result != 0 {
                    for u in cx.users(result) {
                        if st.process_phis.contains(&u) && st.in_work_list.insert(u) {
                            st.work_list.push(u);
                        }
                    }
                }
                st.finish(cx, i)?;
            }
            next = cx.ir.next(i);
        }
    }
    // Phase 2: the instructions whose inputs changed, until none is left.
    let mut k = 0;
    while k < st.work_list.len() {
        let i = st.work_list[k];
        k += 1;
        st.in_work_list.remove(&i);
        st.seen.insert(i);
        // A copy already folded has no uses left to replace (its operand's folds
        // reach it as a user, to no effect), but one in a cycle of copies (invalid
        // SSA) still uses itself: folding it again would queue it forever, as
        // spirv-opt's loop does.
        if !cx.ir.is_live(i) || st.killed.contains(&i) {
            continue;
        }
        if is_foldable_copy(cx, i) || fold::fold_instruction(cx, i) {
            modified = true;
            cx.analyze_uses(i);
            let result = cx.ir.result_id(i);
            if result != 0 {
                for u in cx.users(result) {
                    let op = cx.ir.opcode(u);
                    if !is_decoration(op) && op != O::Name && st.in_work_list.insert(u) {
                        st.work_list.push(u);
                    }
                }
            }
            st.finish(cx, i)?;
        }
    }
    // Phase 3: the copies and nops go.
    for i in std::mem::take(&mut st.to_kill) {
        cx.kill_inst(i);
    }
    Ok(modified)
}
