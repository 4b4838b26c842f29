//! `--eliminate-dead-functions` (spirv-opt's `EliminateDeadFunctionsPass` and
//! `eliminatedeadfunctionsutil::EliminateFunction`, `source/opt/eliminate_dead_functions_*.cpp`):
//! the functions no entry point and no exported function reaches by calls are removed,
//! each of their instructions killed (`KillInst`: names, decorations, the debug-info
//! operands naming the function, which name a `DebugInfoNone` instead) with the
//! non-semantic instructions that use them, directly or through each other. The
//! non-semantic instructions that follow a removed function move to the end of the
//! previous function still there, or to the globals.
//!
//! [`StructuralPass::EliminateDeadFunctions`](crate::structural::StructuralPass::EliminateDeadFunctions)
//! of `structural` is the same on a [`spirv_core::Module`], for the Editor's users.

use crate::analysis::Analyses;
use crate::context::Context;
use crate::ir::{Func, Inst};
use crate::pass::{IrPass, PassError, Status};
use spirv_core::spv::Opcode as O;
use std::collections::HashSet;

/// The pass's flag.
pub const FLAG: &str = "eliminate-dead-functions";

/// `--eliminate-dead-functions`.
#[derive(Debug, Clone, Copy, Default)]
pub struct EliminateDeadFunctions;

impl IrPass for EliminateDeadFunctions {
    fn flag(&self) -> &'static str {
        FLAG
    }

    fn preserved(&self) -> Analyses {
        Analyses::DEF_USE | Analyses::CONSTANTS | Analyses::TYPES
    }

    fn process(&self, cx: &mut Context) -> Result<Status, PassError> {
        Ok(if eliminate_dead_functions(cx) {
            Status::Changed
        } else {
            Status::Unchanged
        })
    }
}

/// The pass's body (also `AggressiveDCEPass::EliminateDeadFunctions`): whether a
/// function was removed.
pub fn eliminate_dead_functions(cx: &mut Context) -> bool {
    {
        let mut live: HashSet<Func> = HashSet::new();
        cx.process_reachable_call_tree(&mut |_, f| {
            live.insert(f);
            false
        });
        let funcs: Vec<Func> = cx.ir.functions().to_vec();
        if funcs.iter().all(|f| live.contains(f)) {
            return false;
        }
        // The function before each one once the dead ones before it are gone.
        let mut prev_live: Option<Func> = None;
        let mut dead: HashSet<Func> = HashSet::new();
        for &f in &funcs {
            if live.contains(&f) {
                prev_live = Some(f);
            } else {
                eliminate_function(cx, f, prev_live);
                dead.insert(f);
            }
        }
        cx.ir.remove_funcs(&dead);
        true
    }
}

/// `EliminateFunction`: kills each instruction of `f`, lines included, with the
/// non-semantic instructions using them, and moves its trailing non-semantic
/// instructions to the end of `prev` (or to the globals when no function precedes).
pub fn eliminate_function(cx: &mut Context, f: Func, prev: Option<Func>) {
    let mut insts: Vec<Inst> = Vec::new();
    cx.ir.func_insts(f, true, &mut |i| insts.push(i));
    let mut to_kill: HashSet<Inst> = HashSet::new();
    let mut seen_func_end = false;
    let has_non_semantic = !cx.features().non_semantic_sets.is_empty();
    for i in insts {
        let lines = cx.ir.lines(i).to_vec();
        for l in lines {
            one(
                cx,
                l,
                prev,
                &mut seen_func_end,
                &mut to_kill,
                has_non_semantic,
            );
        }
        one(
            cx,
            i,
            prev,
            &mut seen_func_end,
            &mut to_kill,
            has_non_semantic,
        );
    }
    for dead in to_kill {
        cx.kill_inst(dead);
    }
}

/// The body of `EliminateFunction`'s `ForEachInst` on one instruction (or line).
fn one(
    cx: &mut Context,
    i: Inst,
    prev: Option<Func>,
    seen_func_end: &mut bool,
    to_kill: &mut HashSet<Inst>,
    has_non_semantic: bool,
) {
    let opcode = cx.ir.opcode(i);
    if opcode == O::FunctionEnd {
        *seen_func_end = true;
    }
    if *seen_func_end && opcode == O::ExtInst {
        if to_kill.contains(&i) {
            return;
        }
        let Some(clone) = cx.ir.clone_inst(i) else {
            cx.id_overflow = true;
            return;
        };
        cx.clear_inst(i);
        cx.analyze_def_use(clone);
        match prev {
            None => cx.add_global_value(clone),
            Some(p) => cx.ir.push_non_semantic(p, clone),
        }
        cx.ir.data_mut(i).to_nop();
    } else if !to_kill.contains(&i) {
        if has_non_semantic {
            cx.collect_non_semantic_tree(i, to_kill);
        }
        cx.kill_inst(i);
    }
}
