//! The call graph as spirv-opt walks it (`IRContext::AddCalls`,
//! `ProcessEntryPointCallTree`, `ProcessReachableCallTree`): each function's callees in
//! the order its instructions name them, and the roots of the call trees (entry points,
//! then functions exported by `LinkageAttributes`). The walks themselves, which call a
//! pass's function on each function reached, are the [`Context`](crate::Context)'s.

use crate::ir::{Func, Ir, Section};
use spirv_core::spv::{Decoration, Opcode as O};

/// The function a call-like instruction names, as spirv-opt's `AddCalls` finds it:
/// `OpFunctionCall`'s function, and the function operands of
/// `OpCooperativeMatrixPerElementOpNV`, `OpCooperativeMatrixReduceNV` and
/// `OpCooperativeMatrixLoadTensorNV` (its `DecodeFunc` tensor addressing operand).
/// `in_word(k)` is in-operand `k`'s first word. The rule is spirv-core's call graph's
/// ([`spirv_core::analysis::CallRules::SpirvOpt`]), which the structural passes build.
pub fn callee_of(opcode: O, in_word: impl Fn(usize) -> Option<u32>) -> Option<u32> {
    spirv_core::__private::opt::callee_of(opcode, in_word)
}

/// The function ids `f` calls, in order, repeated as often as it calls them
/// (`AddCalls`, [`callee_of`]).
pub fn callees(ir: &Ir, f: Func) -> Vec<u32> {
    let mut out = Vec::new();
    for b in ir.blocks(f) {
        for i in ir.insts(b) {
            let d = ir.data(i);
            let n = d.num_in_operands();
            if let Some(c) = callee_of(d.opcode(), |k| (k < n).then(|| d.in_word(k))) {
                out.push(c);
            }
        }
    }
    out
}

/// The entry points' functions, in order.
pub fn entry_point_roots(ir: &Ir) -> Vec<u32> {
    ir.section(Section::EntryPoint)
        .map(|e| ir.data(e).in_word(1))
        .collect()
}

/// The entry points' functions, then the functions an `OpDecorate
/// LinkageAttributes … Export` names (`ProcessReachableCallTree`'s roots);
/// `is_function` says whether an id is a function's.
pub fn reachable_roots(ir: &Ir, is_function: &dyn Fn(u32) -> bool) -> Vec<u32> {
    let mut roots = entry_point_roots(ir);
    for a in ir.section(Section::Annotation) {
        let d = ir.data(a);
        if d.opcode() == O::Decorate && d.word(1) == Decoration::LinkageAttributes.0 {
            let last = d.num_operands() - 1;
            // LinkageType::Export is 0.
            if d.word(last) == 0 {
                let id = d.word(0);
                if is_function(id) {
                    roots.push(id);
                }
            }
        }
    }
    roots
}
