//! `--ccp` (spirv-opt's `CCPPass`, `source/opt/ccp_pass.cpp`): conditional constant
//! propagation. The [propagator](crate::analysis::propagator) walks each function
//! reachable from an entry point or export; each result id gets a value: unknown,
//! a constant's id, or varying. A phi meets the values arriving over executable
//! edges; a copy takes its operand's value; anything else the folder can compute is
//! folded with its operands mapped to their values (which may declare new constants,
//! kept even when the value turns out varying); a branch on a known condition makes
//! only its taken edge executable. Afterwards each id with a constant value loses its
//! names and decorations and its uses become uses of the constant; the instructions
//! themselves stay (dead-code passes remove them).

use crate::analysis::constants::Const;
use crate::analysis::propagator::{PropStatus, Propagator, Visit, Visitor};
use crate::analysis::types::Ty;
use crate::analysis::{Analyses, IdMap, id_cap};
use crate::context::Context;
use crate::fold;
use crate::ir::{Func, Inst, Section};
use crate::pass::{IrPass, PassError, Status};
use spirv_core::__private::opt::{is_branch, is_constant};
use spirv_core::spv::Opcode as O;

/// The pass's flag.
pub const FLAG: &str = "ccp";

/// `--ccp`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Ccp;

/// The value of an id known never to be one constant (`kVaryingSSAId`).
const VARYING: u32 = u32::MAX;

impl IrPass for Ccp {
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
        let mut s = Values::new(cx);
        let mut failed = false;
        let modified = cx.process_reachable_call_tree(&mut |cx, f| match s.propagate(cx, f) {
            Some(m) => m,
            None => {
                failed = true;
                false
            }
        });
        if failed || cx.id_overflow {
            return Err(PassError {
                pass: FLAG,
                message: "ids ran out".into(),
            });
        }
        Ok(Status::from_changed(modified))
    }
}

/// The lattice values of ids, over the whole run (`values_`).
struct Values {
    values: IdMap<u32>,
    /// Ids given a constant value other than themselves since the last replacement.
    pending: Vec<u32>,
    original_bound: u32,
}

impl Values {
    /// `Initialize`: each constant is its own value, every other global and each
    /// extended-instruction set is varying.
    fn new(cx: &mut Context) -> Values {
        let mut values = IdMap::new(id_cap(cx.ir.instruction_count()));
        let globals: Vec<Inst> = cx.ir.section(Section::TypesValues).collect();
        for i in globals {
            let id = cx.ir.result_id(i);
            if id == 0 {
                continue;
            }
            let v = if is_constant(cx.ir.opcode(i)) {
                id
            } else {
                VARYING
            };
            values.insert(id, v);
        }
        let imports: Vec<Inst> = cx.ir.section(Section::ExtInstImport).collect();
        for i in imports {
            let id = cx.ir.result_id(i);
            values.insert(id, VARYING);
        }
        Values {
            values,
            pending: Vec::new(),
            original_bound: cx.ir.header.bound,
        }
    }

    fn get(&self, id: u32) -> Option<u32> {
        self.values.get(id).copied()
    }

    fn set(&mut self, id: u32, v: u32) {
        if v != VARYING && v != id {
            self.pending.push(id);
        }
        self.values.insert(id, v);
    }

    /// `PropagateConstants`: whether the function changed; `None` if ids ran out.
    fn propagate(&mut self, cx: &mut Context, f: Func) -> Option<bool> {
        if cx.ir.is_declaration(f) {
            return Some(false);
        }
        let params: Vec<Inst> = cx.ir.params(f).collect();
        for p in params {
            let id = cx.ir.result_id(p);
            self.values.insert(id, VARYING);
        }
        if Propagator::run(cx, f, self)? {
            Some(self.replace_values(cx))
        } else {
            Some(false)
        }
    }

    /// `ReplaceValues`: a new constant counts as a change even where no use is
    /// replaced.
    fn replace_values(&mut self, cx: &mut Context) -> bool {
        let mut changed = cx.ir.header.bound > self.original_bound;
        let mut ids = std::mem::take(&mut self.pending);
        // spirv-opt walks a hash map; the replacements do not depend on the order
        // (each value is a constant, never itself replaced).
        ids.sort_unstable();
        ids.dedup();
        for id in ids {
            let Some(v) = self.get(id) else { continue };
            if v != VARYING && v != id {
                cx.kill_names_and_decorates_of(id);
                changed |= cx.replace_all_uses_with(id, v);
            }
        }
        changed
    }

    fn mark_varying(&mut self, cx: &Context, i: Inst) -> PropStatus {
        self.set(cx.ir.result_id(i), VARYING);
        PropStatus::Varying
    }

    /// `ComputeLatticeMeet` of `i`'s value and `v`: no lateral moves, so two
    /// different constants meet at varying.
    fn meet(&self, cx: &Context, i: Inst, v: u32) -> u32 {
        match self.get(cx.ir.result_id(i)) {
            None => v,
            Some(VARYING) => VARYING,
            Some(_) if v == VARYING => VARYING,
            Some(old) if old != v => VARYING,
            Some(_) => v,
        }
    }

    /// `VisitPhi`: the meet of the operands over executable edges whose values are
    /// known.
    fn visit_phi(&mut self, cx: &mut Context, p: &Propagator, phi: Inst) -> PropStatus {
        let mut meet = 0;
        let n = cx.ir.data(phi).num_in_operands();
        for k in (0..n).step_by(2) {
            if !p.is_phi_arg_executable(cx, phi, k) {
                continue;
            }
            let arg = cx.ir.data(phi).in_word(k);
            match self.get(arg) {
                None => {}
                Some(VARYING) => return self.mark_varying(cx, phi),
                Some(v) if meet == 0 => meet = v,
                Some(v) if v == meet => {}
                Some(_) => return self.mark_varying(cx, phi),
            }
        }
        if meet == 0 {
            return PropStatus::NotInteresting;
        }
        self.set(cx.ir.result_id(phi), meet);
        PropStatus::Interesting
    }

    /// `VisitAssignment`.
    fn visit_assignment(&mut self, cx: &mut Context, i: Inst) -> Option<PropStatus> {
        let result = cx.ir.result_id(i);
        if cx.ir.opcode(i) == O::CopyObject {
            let d = cx.ir.data(i);
            if d.num_in_operands() == 0 {
                return Some(self.mark_varying(cx, i));
            }
            return Some(match self.get(d.in_word(0)) {
                None => PropStatus::NotInteresting,
                Some(VARYING) => self.mark_varying(cx, i),
                Some(v) => {
                    let new = self.meet(cx, i, v);
                    self.set(result, new);
                    if new == VARYING {
                        PropStatus::Varying
                    } else {
                        PropStatus::Interesting
                    }
                }
            });
        }
        if !fold::is_foldable(cx, i) {
            return Some(self.mark_varying(cx, i));
        }
        let values = &self.values;
        let map = |id: u32| match values.get(id) {
            Some(&v) if v != VARYING => v,
            _ => id,
        };
        if let Some(folded) = fold::fold_to_constant(cx, i, &map) {
            if cx.id_overflow {
                return None;
            }
            let c = cx.ir.result_id(folded);
            let new = self.meet(cx, i, c);
            self.set(result, new);
            return Some(if new == VARYING {
                PropStatus::Varying
            } else {
                PropStatus::Interesting
            });
        }
        let mut in_ids = Vec::new();
        cx.ir.data(i).for_each_in_id(|id| in_ids.push(id));
        if in_ids.iter().any(|&id| self.get(id) == Some(VARYING)) {
            return Some(self.mark_varying(cx, i));
        }
        if in_ids.iter().any(|&id| self.get(id).is_none()) {
            return Some(PropStatus::NotInteresting);
        }
        Some(self.mark_varying(cx, i))
    }

    /// `VisitBranch`: the target taken when the condition or selector is a known
    /// constant. Where spirv-opt reads a value that is not a bool or integer constant
    /// (a specialization constant; malformed input) and crashes, the branch is
    /// varying here.
    fn visit_branch(&mut self, cx: &mut Context, i: Inst) -> Visit {
        let d = cx.ir.data(i);
        let known = |s: &Self, id: u32| s.get(id).filter(|&v| v != VARYING);
        let dest_label = match d.opcode() {
            O::Branch => d.in_word(0),
            O::BranchConditional => {
                let (cond, t, f) = (d.word(0), d.word(1), d.word(2));
                let Some(v) = known(self, cond) else {
                    return Some((PropStatus::Varying, None));
                };
                let consts = cx.constants();
                match consts.find_declared(v).map(|c| consts.value(c)) {
                    Some(Const::Null(_)) => f,
                    Some(Const::Bool(_, b)) => {
                        if *b {
                            t
                        } else {
                            f
                        }
                    }
                    _ => return Some((PropStatus::Varying, None)),
                }
            }
            _ => {
                // OpSwitch: the first literal whose low word is the selector's low
                // word (spirv-opt compares one word, whatever the width), else the
                // default.
                let selector = d.word(0);
                let default = d.word(1);
                let mut cases = Vec::new();
                for k in (2..d.num_operands()).step_by(2) {
                    if k + 1 < d.num_operands() {
                        cases.push((d.word(k), d.word(k + 1)));
                    }
                }
                let Some(v) = known(self, selector) else {
                    return Some((PropStatus::Varying, None));
                };
                let Some(c) = cx.constants().find_declared(v) else {
                    return Some((PropStatus::Varying, None));
                };
                let value = match cx.constants().value(c).clone() {
                    Const::Scalar(t, words) if matches!(cx.types().ty(t), Ty::Int { .. }) => {
                        words.first().copied().unwrap_or(0)
                    }
                    _ => 0,
                };
                cases
                    .iter()
                    .find(|&&(lit, _)| lit == value)
                    .map_or(default, |&(_, label)| label)
            }
        };
        match cx.get_def(dest_label).and_then(|l| cx.ir.block_of(l)) {
            Some(b) => Some((PropStatus::Interesting, Some(b))),
            None => Some((PropStatus::Varying, None)),
        }
    }
}

impl Visitor for Values {
    /// `VisitInstruction`.
    fn visit(&mut self, cx: &mut Context, p: &Propagator, i: Inst) -> Visit {
        let op = cx.ir.opcode(i);
        if op == O::Phi {
            Some((self.visit_phi(cx, p, i), None))
        } else if is_branch(op) {
            self.visit_branch(cx, i)
        } else if cx.ir.result_id(i) != 0 {
            Some((self.visit_assignment(cx, i)?, None))
        } else {
            Some((PropStatus::Varying, None))
        }
    }
}
