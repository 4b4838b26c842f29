//! `--eliminate-dead-inserts` (spirv-opt's `DeadInsertElimPass`,
//! `source/opt/dead_insert_elim_pass.cpp`): in each function reachable from an entry
//! point or an export, an `OpCompositeInsert` whose component no extract or other use
//! can read is bypassed (its uses take the composite it inserted into) and removed with
//! the combinators only it used; repeated until nothing changes. Inserts into arrays
//! are always kept.
//!
//! spirv-opt marks the live inserts by recursion through inserted objects and phi
//! operands; the marks are a set, so here the same rules run off a work list of
//! states, each state once (which also ends the cycles spirv-opt follows until its
//! stack overflows on invalid modules).

use crate::analysis::Analyses;
use crate::context::Context;
use crate::ir::{Func, Inst};
use crate::mem_pass;
use crate::pass::{IrPass, PassError, Status};
use spirv_core::spv::Opcode as O;
use std::collections::HashSet;

/// The pass's flag.
pub const FLAG: &str = "eliminate-dead-inserts";

/// `--eliminate-dead-inserts`.
#[derive(Debug, Clone, Copy, Default)]
pub struct DeadInserts;

impl IrPass for DeadInserts {
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
        let modified = cx.process_reachable_call_tree(&mut |cx, f| {
            let mut modified = false;
            while one_pass(cx, f) {
                modified = true;
            }
            modified
        });
        Ok(if modified {
            Status::Changed
        } else {
            Status::Unchanged
        })
    }
}

/// One step of `MarkInsertChain`: the component path still to match (`None`: every
/// component) from an instruction.
#[derive(Clone, PartialEq, Eq, Hash)]
enum Mark {
    /// A call of `MarkInsertChain` on the instruction defining the id.
    Entry(u32, Option<Vec<u32>>),
    /// Its loop reaching the instruction defining the id, up an insert chain.
    Walk(u32, Option<Vec<u32>>),
}

/// `NumComponents` of a composite type: 0 where not known.
fn num_components(cx: &mut Context, ty: Inst) -> u32 {
    let d = cx.ir.data(ty);
    match d.opcode() {
        O::TypeVector | O::TypeMatrix => d.in_word(1),
        O::TypeArray => {
            let len_id = d.in_word(1);
            let Some(len) = cx.get_def(len_id) else {
                return 0;
            };
            if cx.ir.opcode(len) != O::Constant {
                return 0;
            }
            let len_ty = cx.ir.type_id(len);
            match cx.get_def(len_ty) {
                Some(t) if cx.ir.data(t).in_word(0) == 32 => cx.ir.data(len).in_word(0),
                _ => 0,
            }
        }
        O::TypeStruct => u32::try_from(d.num_in_operands()).unwrap_or(u32::MAX),
        _ => 0,
    }
}

/// An insert's component path (its in-operands after the object and the composite).
fn insert_indices(cx: &Context, ins: Inst) -> Vec<u32> {
    let d = cx.ir.data(ins);
    (2..d.num_in_operands()).map(|k| d.in_word(k)).collect()
}

/// The live inserts of `f`: what `EliminateDeadInsertsOnePass` marks.
fn mark_live(cx: &mut Context, f: Func) -> HashSet<u32> {
    let mut live: HashSet<u32> = HashSet::new();
    let mut work: Vec<Mark> = Vec::new();
    // Every component index an insert of the function starts its path with: spirv-opt
    // walks each component of a type, but the components no insert starts with all
    // walk alike, so only these and one other are walked.
    let mut first_indices: HashSet<u32> = HashSet::new();
    let mut insts: Vec<Inst> = Vec::new();
    for b in cx.ir.blocks(f) {
        for i in cx.ir.insts(b) {
            if cx.ir.opcode(i) == O::CompositeInsert {
                first_indices.insert(cx.ir.data(i).in_word(2));
            }
            insts.push(i);
        }
    }
    for i in insts {
        let op = cx.ir.opcode(i);
        let ty = cx.ir.type_id(i);
        let ty_op = cx.get_def(ty).map(|t| cx.ir.opcode(t));
        let composite = matches!(
            ty_op,
            Some(
                O::TypeVector
                    | O::TypeMatrix
                    | O::TypeArray
                    | O::TypeStruct
                    | O::TypeRuntimeArray
                    | O::TypeCooperativeMatrixNV
                    | O::TypeCooperativeMatrixKHR
                    | O::TypeCooperativeVectorNV
            )
        );
        if op != O::CompositeInsert && (op != O::Phi || !composite) {
            continue;
        }
        let id = cx.ir.result_id(i);
        if op == O::CompositeInsert && ty_op == Some(O::TypeArray) {
            live.insert(id);
            continue;
        }
        for user in cx.users(id) {
            if cx.common_debug_opcode(user).is_some() {
                continue;
            }
            match cx.ir.opcode(user) {
                O::CompositeInsert | O::Phi => {}
                O::CompositeExtract => {
                    let d = cx.ir.data(user);
                    let path: Vec<u32> = (1..d.num_in_operands()).map(|k| d.in_word(k)).collect();
                    work.push(Mark::Entry(id, Some(path)));
                }
                _ => work.push(Mark::Entry(id, None)),
            }
        }
    }
    let mut seen: HashSet<Mark> = HashSet::new();
    while let Some(m) = work.pop() {
        if !seen.insert(m.clone()) {
            continue;
        }
        match m {
            Mark::Entry(id, path) => {
                let Some(i) = cx.get_def(id) else {
                    continue;
                };
                let ty = cx.ir.type_id(i);
                let Some(t) = cx.get_def(ty) else {
                    continue;
                };
                if cx.ir.opcode(t) == O::TypeArray {
                    continue;
                }
                if !matches!(cx.ir.opcode(i), O::CompositeInsert | O::Phi) {
                    continue;
                }
                if path.is_none() {
                    let n = num_components(cx, t);
                    if n > 0 {
                        for &k in &first_indices {
                            if k < n {
                                work.push(Mark::Entry(id, Some(vec![k])));
                            }
                        }
                        // The components no insert starts with all mark the same (an
                        // insert with no indices, which conflicts with every path): one
                        // of them stands for all.
                        if let Some(k) = (0..n).find(|k| !first_indices.contains(k)) {
                            work.push(Mark::Entry(id, Some(vec![k])));
                        }
                        continue;
                    }
                }
                work.push(Mark::Walk(id, path));
            }
            Mark::Walk(id, path) => {
                let Some(i) = cx.get_def(id) else {
                    continue;
                };
                match cx.ir.opcode(i) {
                    O::CompositeInsert => {
                        let d = cx.ir.data(i);
                        let (obj, comp) = (d.in_word(0), d.in_word(1));
                        let Some(ext) = path else {
                            live.insert(id);
                            work.push(Mark::Entry(obj, None));
                            work.push(Mark::Walk(comp, None));
                            continue;
                        };
                        let ins = insert_indices(cx, i);
                        let common = ext.len().min(ins.len());
                        let prefix_equal = ext[..common] == ins[..common];
                        if ext.len() == ins.len() && prefix_equal {
                            // `ExtInsMatch`: the extract reads what this inserts.
                            live.insert(id);
                            work.push(Mark::Entry(obj, None));
                        } else if ext.len() != ins.len() && prefix_equal {
                            // `ExtInsConflict`: one path extends the other.
                            live.insert(id);
                            if ext.len() > ins.len() {
                                work.push(Mark::Entry(obj, Some(ext[ins.len()..].to_vec())));
                            } else {
                                work.push(Mark::Entry(obj, None));
                                work.push(Mark::Walk(comp, Some(ext)));
                            }
                        } else {
                            work.push(Mark::Walk(comp, Some(ext)));
                        }
                    }
                    O::Phi => {
                        let d = cx.ir.data(i);
                        let mut ids: Vec<u32> = (0..d.num_in_operands())
                            .step_by(2)
                            .map(|k| d.in_word(k))
                            .collect();
                        ids.sort_unstable();
                        ids.dedup();
                        for v in ids {
                            work.push(Mark::Entry(v, path.clone()));
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    live
}

/// `EliminateDeadInsertsOnePass`: whether an insert went.
fn one_pass(cx: &mut Context, f: Func) -> bool {
    let live = mark_live(cx, f);
    let mut dead: Vec<Inst> = Vec::new();
    let blocks: Vec<_> = cx.ir.blocks(f).collect();
    for b in blocks {
        let insts: Vec<Inst> = cx.ir.insts(b).collect();
        for i in insts {
            if cx.ir.opcode(i) != O::CompositeInsert {
                continue;
            }
            let id = cx.ir.result_id(i);
            if live.contains(&id) {
                continue;
            }
            let repl = cx.ir.data(i).in_word(1);
            cx.replace_all_uses_with(id, repl);
            dead.push(i);
        }
    }
    let modified = !dead.is_empty();
    // Killed along the way by an earlier one's clean-up: not killed again.
    let mut gone: HashSet<Inst> = HashSet::new();
    while let Some(i) = dead.pop() {
        if gone.contains(&i) {
            continue;
        }
        mem_pass::dce_inst(cx, i, &mut |_, other| {
            gone.insert(other);
        });
    }
    modified
}
