//! The call graph as spirv-opt walks it (`IRContext::AddCalls`,
//! `ProcessEntryPointCallTree`, `ProcessReachableCallTree`): each function's callees in
//! the order its instructions name them, and the roots of the call trees (entry points,
//! then functions exported by `LinkageAttributes`). The walks themselves, which call a
//! pass's function on each function reached, are the [`Context`](crate::Context)'s.

use crate::ir::{Func, Ir, Section};
use spirv_core::spv::{Decoration, Opcode as O};

/// The function ids `f` calls, in order, repeated as often as it calls them
/// (`AddCalls`): `OpFunctionCall`, and the functions the cooperative-matrix
/// instructions that take one name.
pub fn callees(ir: &Ir, f: Func) -> Vec<u32> {
    let mut out = Vec::new();
    for b in ir.blocks(f) {
        for i in ir.insts(b) {
            let d = ir.data(i);
            match d.opcode() {
                O::FunctionCall => out.push(d.in_word(0)),
                O::CooperativeMatrixPerElementOpNV => out.push(d.in_word(1)),
                O::CooperativeMatrixReduceNV => out.push(d.in_word(2)),
                O::CooperativeMatrixLoadTensorNV => {
                    const MEMORY_OPERANDS: usize = 3;
                    let mask = d.in_word(MEMORY_OPERANDS);
                    let mut count = 1;
                    // Aligned, MakePointerAvailable, MakePointerVisible take an operand.
                    for bit in [0x2, 0x8, 0x10] {
                        if mask & bit != 0 {
                            count += 1;
                        }
                    }
                    let tensor = MEMORY_OPERANDS + count;
                    let tmask = d.in_word(tensor);
                    let mut tcount = 1;
                    if tmask & 0x1 != 0 {
                        tcount += 1;
                    }
                    if tmask & 0x2 != 0 {
                        out.push(d.in_word(tensor + tcount));
                    }
                }
                _ => {}
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
