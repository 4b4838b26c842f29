//! `--scalar-replacement[=N]` (spirv-opt's `ScalarReplacementPass`,
//! `source/opt/scalar_replacement_pass.cpp`): a function-scope variable of struct or
//! array type whose every use is a load, a store or an access chain with a constant
//! first index is replaced by one variable per element (an `OpUndef` for the elements
//! no use reaches); loads and stores of the whole become per-element loads with an
//! `OpCompositeConstruct`, and extracts with per-element stores. The new variables are
//! replaced in turn. `N` caps the elements of a variable to replace (0: no cap).
//!
//! Unlike spirv-opt, the elements a run may create are bounded by the module's size:
//! an array length is a number the input chooses, and spirv-opt with no cap makes
//! that many variables (and that many loads per whole load). A variable whose
//! replacement would exceed the budget is left as it is.

use crate::analysis::Analyses;
use crate::analysis::types::Ty;
use crate::context::Context;
use crate::ir::{Func, Inst, Kind, Operand};
use crate::mem_pass::MemPass;
use crate::pass::{IrPass, PassError, Status};
use spirv_core::spv::Opcode as O;
use std::collections::{HashMap, HashSet, VecDeque};

/// The pass's flag.
pub const FLAG: &str = "scalar-replacement";

/// `--scalar-replacement`, with its element limit (0: none).
#[derive(Debug, Clone, Copy, Default)]
pub struct ScalarReplacement {
    /// The most elements a replaced variable may have; 0 for no limit.
    pub limit: u32,
}

impl ScalarReplacement {
    /// The pass from the flag's value, as spirv-opt reads it: none or empty is 0,
    /// else decimal digits only.
    ///
    /// # Errors
    /// spirv-opt's message for anything else.
    pub fn from_arg(arg: Option<&str>) -> Result<ScalarReplacement, String> {
        let arg = arg.unwrap_or("");
        if arg.is_empty() {
            return Ok(ScalarReplacement { limit: 0 });
        }
        // `atoi` of digits: an out-of-range value saturates to a negative int here.
        let ok = arg.bytes().all(|b| b.is_ascii_digit());
        match arg.parse::<u64>() {
            Ok(v) if ok && v <= i32::MAX as u64 => Ok(ScalarReplacement { limit: v as u32 }),
            _ => Err(
                "--scalar-replacement must have no arguments or a non-negative integer argument"
                    .into(),
            ),
        }
    }
}

const FUNCTION: u32 = 7;
const VOLATILE: u32 = 1;
const DEBUG_DECLARE: u32 = 28;
const DEBUG_VALUE: u32 = 29;

impl IrPass for ScalarReplacement {
    fn flag(&self) -> &'static str {
        FLAG
    }

    fn preserved(&self) -> Analyses {
        Analyses::DEF_USE
            | Analyses::INSTR_TO_BLOCK
            | Analyses::DECORATIONS
            | Analyses::COMBINATORS
            | Analyses::CFG
            | Analyses::NAME_MAP
            | Analyses::CONSTANTS
            | Analyses::TYPES
    }

    fn process(&self, cx: &mut Context) -> Result<Status, PassError> {
        let budget = 65_536u64 + 4 * cx.ir.instruction_count() as u64;
        let mut sr = Sr {
            limit: self.limit,
            mem: MemPass::new(),
            pointee_to_pointer: HashMap::new(),
            type_to_null: HashMap::new(),
            budget,
        };
        let mut changed = false;
        let funcs: Vec<Func> = cx.ir.functions().to_vec();
        for f in funcs {
            if cx.ir.is_declaration(f) {
                continue;
            }
            match sr.process_function(cx, f) {
                Ok(c) => changed |= c,
                Err(message) => {
                    return Err(PassError {
                        pass: FLAG,
                        message,
                    });
                }
            }
        }
        Ok(if changed {
            Status::Changed
        } else {
            Status::Unchanged
        })
    }
}

/// The pass's state for one run.
struct Sr {
    limit: u32,
    mem: MemPass,
    /// `pointee_to_pointer_`.
    pointee_to_pointer: HashMap<u32, u32>,
    /// `type_to_null_`.
    type_to_null: HashMap<u32, u32>,
    /// Element slots the run may still create (ours; see the file's comment).
    budget: u64,
}

/// An integer constant's value, zero- and sign-extended as spirv-opt's
/// `GetZeroExtendedValue` and `GetSignExtendedValue` read it; `None` for anything else
/// (where spirv-opt asserts).
fn int_value(cx: &mut Context, id: u32) -> Option<(u64, i64)> {
    let def = cx.get_def(id)?;
    let (op, ty) = (cx.ir.opcode(def), cx.ir.type_id(def));
    let width = int_width(cx, ty)?;
    match op {
        O::ConstantNull => Some((0, 0)),
        O::Constant => Some(extend(cx.ir.data(def).in_operand_words(0), width)),
        _ => None,
    }
}

/// The width of integer type `ty`.
fn int_width(cx: &mut Context, ty: u32) -> Option<u32> {
    let types = cx.types();
    let t = types.get(ty)?;
    match types.ty(t) {
        Ty::Int { width, .. } => Some(*width),
        _ => None,
    }
}

/// Zero and sign extension of a constant's words for its width.
fn extend(words: &[u32], width: u32) -> (u64, i64) {
    let lo = words.first().copied().unwrap_or(0);
    if width <= 32 {
        (u64::from(lo), i64::from(lo as i32))
    } else {
        let hi = words.get(1).copied().unwrap_or(0);
        let v = u64::from(lo) | (u64::from(hi) << 32);
        (v, v as i64)
    }
}

/// `IsAnnotationInst`.
fn is_annotation(op: O) -> bool {
    spirv_core::__private::opt::is_decoration(op) || op == O::DecorationGroup
}

impl Sr {
    /// `ProcessFunction`.
    fn process_function(&mut self, cx: &mut Context, f: Func) -> Result<bool, String> {
        let Some(entry) = cx.ir.entry(f) else {
            return Ok(false);
        };
        let mut worklist: VecDeque<Inst> = VecDeque::new();
        let mut cur = cx.ir.first_inst(entry);
        while let Some(v) = cur {
            if cx.ir.opcode(v) != O::Variable {
                break;
            }
            if self.can_replace_variable(cx, v) {
                worklist.push_back(v);
            }
            cur = cx.ir.next(v);
        }
        let mut changed = false;
        while let Some(v) = worklist.pop_front() {
            changed |= self.replace_variable(cx, v, &mut worklist)?;
        }
        Ok(changed)
    }

    /// `ReplaceVariable`.
    fn replace_variable(
        &mut self,
        cx: &mut Context,
        inst: Inst,
        worklist: &mut VecDeque<Inst>,
    ) -> Result<bool, String> {
        if !cx.ir.is_live(inst) {
            return Ok(false);
        }
        let id = cx.ir.result_id(inst);
        let users = cx.users(id);
        // Ours: what the replacement would create, checked against the budget before
        // anything is made.
        let Some(count) = self.max_legal_index(cx, inst) else {
            return Ok(false);
        };
        let wholes = users
            .iter()
            .filter(|&&u| matches!(cx.ir.opcode(u), O::Load | O::Store))
            .count() as u64;
        let cost = count.saturating_mul(wholes + 1);
        if cost > self.budget {
            return Ok(false);
        }
        self.budget -= cost;

        let Some(replacements) = self.create_replacement_variables(cx, inst) else {
            return Err("ids ran out".into());
        };
        let mut dead: Vec<Inst> = Vec::new();
        for u in users {
            let ok = match cx.common_debug_opcode(u) {
                Some(DEBUG_DECLARE) => self.replace_whole_debug_declare(cx, u, &replacements)?,
                Some(DEBUG_VALUE) => replace_whole_debug_value(cx, u, &replacements)?,
                _ => {
                    let op = cx.ir.opcode(u);
                    if is_annotation(op) {
                        continue;
                    }
                    match op {
                        O::Load => replace_whole_load(cx, u, &replacements)?,
                        O::Store => replace_whole_store(cx, u, &replacements)?,
                        O::AccessChain | O::InBoundsAccessChain => {
                            replace_access_chain(cx, u, &replacements)?
                        }
                        // An unexpected user (spirv-opt asserts) stays, as a name does.
                        _ => continue,
                    }
                }
            };
            if !ok {
                return Err(format!(
                    "could not replace a use of %{id} (an out-of-bounds index or a misplaced declaration)"
                ));
            }
            dead.push(u);
        }
        dead.push(inst);
        while let Some(k) = dead.pop() {
            cx.kill_inst(k);
        }
        for var in replacements {
            if cx.ir.opcode(var) != O::Variable {
                continue;
            }
            let vid = cx.ir.result_id(var);
            if !cx.any_user(vid, |_, _| true) {
                cx.kill_inst(var);
            } else if self.can_replace_variable(cx, var) {
                worklist.push_back(var);
            }
        }
        Ok(true)
    }

    /// `ReplaceWholeDebugDeclare`: a `DebugValue` with a `Deref` expression and an
    /// index for each replacement, after the variables at the start of the block.
    fn replace_whole_debug_declare(
        &mut self,
        cx: &mut Context,
        decl: Inst,
        replacements: &[Inst],
    ) -> Result<bool, String> {
        let expr_id = cx.ir.data(decl).word(6);
        let Some(expr) = cx.get_def(expr_id) else {
            return Ok(false);
        };
        let deref = cx.deref_debug_expression(expr).ok_or("ids ran out")?;
        let deref_id = cx.ir.result_id(deref);
        for (idx, &var) in replacements.iter().enumerate() {
            let mut before = cx.ir.next(var);
            while let Some(b) = before.filter(|&b| cx.ir.opcode(b) == O::Variable) {
                before = cx.ir.next(b);
            }
            // spirv-opt dereferences a null node here (an OpUndef replacement last
            // in the module).
            let Some(before) = before else {
                return Ok(false);
            };
            let vid = cx.ir.result_id(var);
            let Some(added) = cx
                .add_debug_value_for_decl(decl, vid, before, Some(decl))
                .ok_or("ids ran out")?
            else {
                return Ok(false);
            };
            let index = cx.int_constant_id(idx as u32, true).ok_or("ids ran out")?;
            cx.ir.data_mut(added).add_operand(Operand::id(index));
            cx.ir.data_mut(added).set_operand(6, &[deref_id]);
            cx.analyze_uses(added);
        }
        Ok(true)
    }

    /// `CreateReplacementVariables`: `None` when ids ran out.
    fn create_replacement_variables(&mut self, cx: &mut Context, inst: Inst) -> Option<Vec<Inst>> {
        let ty = self.storage_type(cx, inst)?;
        let used = self.used_components(cx, inst);
        let mut out: Vec<Inst> = Vec::new();
        let d = cx.ir.data(ty);
        match d.opcode() {
            O::TypeStruct => {
                let members: Vec<u32> = (0..d.num_in_operands()).map(|k| d.in_word(k)).collect();
                for (elem, m) in members.into_iter().enumerate() {
                    if used.as_ref().is_none_or(|u| u.contains(&(elem as i64))) {
                        out.push(self.create_variable(cx, m, inst, elem as u32)?);
                    } else {
                        out.push(self.undef(cx, m)?);
                    }
                }
            }
            O::TypeArray => {
                let elem_ty = d.in_word(0);
                let len = self.array_length(cx, ty)?;
                for i in 0..len {
                    if used.as_ref().is_none_or(|u| u.contains(&(i as i64))) {
                        out.push(self.create_variable(cx, elem_ty, inst, i as u32)?);
                    } else {
                        out.push(self.undef(cx, elem_ty)?);
                    }
                }
            }
            _ => return None,
        }
        self.transfer_annotations(cx, inst, &out);
        Some(out)
    }

    /// `GetUndef`.
    fn undef(&mut self, cx: &mut Context, type_id: u32) -> Option<Inst> {
        let id = self.mem.type2undef(cx, type_id);
        if id == 0 {
            return None;
        }
        cx.get_def(id)
    }

    /// `TransferAnnotations`: `Invariant` and `Restrict` onto every replacement.
    fn transfer_annotations(&mut self, cx: &mut Context, source: Inst, replacements: &[Inst]) {
        let sid = cx.ir.result_id(source);
        for dec in cx.decorations_for(sid, false) {
            let decoration = cx.ir.data(dec).in_word(1);
            if decoration != 18 && decoration != 19 {
                continue;
            }
            let extra: Vec<Operand> = {
                let d = cx.ir.data(dec);
                (2..d.num_in_operands())
                    .map(|k| d.operand(k + d.type_result_count()))
                    .collect()
            };
            for &var in replacements {
                let mut ops = vec![
                    Operand::id(cx.ir.result_id(var)),
                    Operand::new(Kind::Enum, &[decoration]),
                ];
                ops.extend(extra.iter().cloned());
                let a = cx.make(O::Decorate, 0, 0, &ops);
                cx.add_annotation(a);
            }
        }
    }

    /// `CreateVariable`: a function variable for element `index` of `var`, first in
    /// its block. `None` when ids ran out.
    fn create_variable(
        &mut self,
        cx: &mut Context,
        type_id: u32,
        var: Inst,
        index: u32,
    ) -> Option<Inst> {
        let ptr = self.pointer_type(cx, type_id);
        let id = cx.take_next_id()?;
        let v = cx.make(
            O::Variable,
            ptr,
            id,
            &[Operand::new(Kind::Enum, &[FUNCTION])],
        );
        let block = cx.ir.block_of(var)?;
        match cx.ir.first_inst(block) {
            Some(first) => cx.ir.insert_before(first, v),
            None => cx.ir.push_block_inst(block, v),
        }
        self.initial_value(cx, var, index, v)?;
        cx.analyze_def_use(v);
        self.copy_decorations_to_variable(cx, var, v, index);
        cx.update_debug_info_from(v, var, None)?;
        Some(v)
    }

    /// `GetOrCreatePointerType`.
    fn pointer_type(&mut self, cx: &mut Context, pointee: u32) -> u32 {
        if let Some(&p) = self.pointee_to_pointer.get(&pointee) {
            return p;
        }
        let p = cx.find_pointer_to_type(pointee, FUNCTION);
        self.pointee_to_pointer.insert(pointee, p);
        p
    }

    /// `GetOrCreateInitialValue`: `None` when ids ran out.
    fn initial_value(
        &mut self,
        cx: &mut Context,
        source: Inst,
        index: u32,
        new_var: Inst,
    ) -> Option<()> {
        if cx.ir.data(source).num_in_operands() < 2 {
            return Some(());
        }
        let init_id = cx.ir.data(source).in_word(1);
        let storage = self
            .storage_type(cx, new_var)
            .map_or(0, |t| cx.ir.result_id(t));
        let Some(init) = cx.get_def(init_id) else {
            return Some(());
        };
        let op = cx.ir.opcode(init);
        let mut new_init = 0;
        if op == O::ConstantNull {
            if let Some(&n) = self.type_to_null.get(&storage) {
                new_init = n;
            } else {
                new_init = cx.take_next_id()?;
                self.type_to_null.insert(storage, new_init);
                let n = cx.make(O::ConstantNull, storage, new_init, &[]);
                cx.add_global_value(n);
                cx.analyze_def_use(n);
            }
        } else if spirv_core::__private::opt::is_spec_constant(op) {
            new_init = cx.take_next_id()?;
            let n = cx.make(
                O::SpecConstantOp,
                storage,
                new_init,
                &[
                    Operand::new(Kind::SpecConstantOpNumber, &[81]),
                    Operand::id(init_id),
                    Operand::literal(index),
                ],
            );
            cx.add_global_value(n);
            cx.analyze_def_use(n);
        } else if op == O::ConstantComposite {
            let d = cx.ir.data(init);
            if (index as usize) < d.num_in_operands() {
                new_init = d.in_word(index as usize);
                if cx
                    .get_def(new_init)
                    .is_some_and(|e| cx.ir.opcode(e) == O::Undef)
                {
                    new_init = 0;
                }
            }
        }
        if new_init != 0 {
            cx.ir.data_mut(new_var).add_operand(Operand::id(new_init));
        }
        Some(())
    }

    /// `CopyDecorationsToVariable`: the pointer decorations of `from`, and the
    /// member decorations of element `member` that a variable keeps.
    fn copy_decorations_to_variable(
        &mut self,
        cx: &mut Context,
        from: Inst,
        to: Inst,
        member: u32,
    ) {
        let to_id = cx.ir.result_id(to);
        let from_id = cx.ir.result_id(from);
        for dec in cx.decorations_for(from_id, false) {
            // AliasedPointer, RestrictPointer.
            if matches!(cx.ir.data(dec).in_word(1), 5356 | 5355) {
                let Some(c) = cx.ir.clone_inst(dec) else {
                    continue;
                };
                cx.ir.data_mut(c).set_in_operand(0, &[to_id]);
                cx.add_annotation(c);
            }
        }
        let Some(ty) = self.storage_type(cx, from) else {
            return;
        };
        let ty_id = cx.ir.result_id(ty);
        for dec in cx.decorations_for(ty_id, false) {
            let d = cx.ir.data(dec);
            if d.opcode() != O::MemberDecorate || d.in_word(1) != member {
                continue;
            }
            // ArrayStride, Alignment, AlignmentId, MaxByteOffset, MaxByteOffsetId,
            // RelaxedPrecision.
            if !matches!(d.in_word(2), 6 | 44 | 46 | 45 | 47 | 0) {
                continue;
            }
            let mut ops = vec![Operand::id(to_id)];
            ops.extend((2..d.num_in_operands()).map(|k| d.operand(k + d.type_result_count())));
            let a = cx.make(O::Decorate, 0, 0, &ops);
            cx.add_annotation(a);
        }
    }

    /// `GetArrayLength` (`None` where spirv-opt would read a null constant).
    fn array_length(&mut self, cx: &mut Context, array: Inst) -> Option<u64> {
        let len = cx.ir.data(array).in_word(1);
        int_value(cx, len).map(|v| v.0)
    }

    /// `GetStorageType`.
    fn storage_type(&mut self, cx: &mut Context, var: Inst) -> Option<Inst> {
        let ptr = cx.get_def(cx.ir.type_id(var))?;
        let pointee = cx.ir.data(ptr).in_word(1);
        cx.get_def(pointee)
    }

    /// `CanReplaceVariable`.
    fn can_replace_variable(&mut self, cx: &mut Context, var: Inst) -> bool {
        if cx.ir.data(var).in_word(0) != FUNCTION {
            return false;
        }
        let Some(ptr) = cx.get_def(cx.ir.type_id(var)) else {
            return false;
        };
        if !check_type_annotations(cx, ptr) {
            return false;
        }
        let Some(ty) = self.storage_type(cx, var) else {
            return false;
        };
        self.check_type(cx, ty) && check_annotations(cx, var) && self.check_uses(cx, var)
    }

    /// `IsLargerThanSizeLimit`.
    fn larger_than_limit(&self, n: u64) -> bool {
        self.limit != 0 && n > u64::from(self.limit)
    }

    /// `CheckType`.
    fn check_type(&mut self, cx: &mut Context, ty: Inst) -> bool {
        if !check_type_annotations(cx, ty) {
            return false;
        }
        match cx.ir.opcode(ty) {
            O::TypeStruct => {
                let n = cx.ir.data(ty).num_in_operands() as u64;
                n != 0 && !self.larger_than_limit(n)
            }
            O::TypeArray => {
                let len_id = cx.ir.data(ty).in_word(1);
                let Some(len_def) = cx.get_def(len_id) else {
                    return false;
                };
                if spirv_core::__private::opt::is_spec_constant(cx.ir.opcode(len_def)) {
                    return false;
                }
                match self.array_length(cx, ty) {
                    // Ours: lengths past the run's budget (and past u32, where
                    // spirv-opt's element loop never ends) are not replaced.
                    Some(n) => !self.larger_than_limit(n) && n <= self.budget,
                    None => false,
                }
            }
            _ => false,
        }
    }

    /// `GetMaxLegalIndex` (`None` where spirv-opt would read a null constant).
    fn max_legal_index(&mut self, cx: &mut Context, var: Inst) -> Option<u64> {
        let ty = self.storage_type(cx, var)?;
        let d = cx.ir.data(ty);
        match d.opcode() {
            O::TypeStruct => Some(d.num_in_operands() as u64),
            O::TypeArray => self.array_length(cx, ty),
            O::TypeVector | O::TypeMatrix => Some(u64::from(d.in_word(1))),
            _ => Some(0),
        }
    }

    /// `CheckUses`.
    fn check_uses(&mut self, cx: &mut Context, var: Inst) -> bool {
        let Some(max) = self.max_legal_index(cx, var) else {
            return false;
        };
        let id = cx.ir.result_id(var);
        for (user, index) in cx.uses(id) {
            if matches!(
                cx.common_debug_opcode(user),
                Some(DEBUG_DECLARE | DEBUG_VALUE)
            ) {
                continue;
            }
            let op = cx.ir.opcode(user);
            if is_annotation(op) {
                continue;
            }
            let ok = match op {
                O::AccessChain | O::InBoundsAccessChain
                    if index == 2 && cx.ir.data(user).num_in_operands() > 1 =>
                {
                    let idx = cx.ir.data(user).in_word(1);
                    match int_value(cx, idx) {
                        Some((v, _)) if v < max => check_uses_relaxed(cx, user),
                        _ => false,
                    }
                }
                O::AccessChain | O::InBoundsAccessChain => false,
                O::Load => check_load(cx, user, index),
                O::Store => check_store(cx, user, index),
                O::Name | O::MemberName => true,
                _ => false,
            };
            if !ok {
                return false;
            }
        }
        true
    }

    /// `GetUsedComponents`: the elements some use may read; `None` for all.
    fn used_components(&mut self, cx: &mut Context, var: Inst) -> Option<HashSet<i64>> {
        let mut result: HashSet<i64> = HashSet::new();
        let id = cx.ir.result_id(var);
        for u in cx.users(id) {
            match cx.ir.opcode(u) {
                O::Load => {
                    let lid = cx.ir.result_id(u);
                    for u2 in cx.users(lid) {
                        let d = cx.ir.data(u2);
                        if d.opcode() != O::CompositeExtract || d.num_in_operands() <= 1 {
                            return None;
                        }
                        result.insert(i64::from(d.in_word(1)));
                    }
                }
                O::Name | O::MemberName | O::Store => {}
                O::AccessChain | O::InBoundsAccessChain => {
                    let index_id = cx.ir.data(u).in_word(1);
                    let declared = cx.constants().find_declared(index_id);
                    declared?;
                    // A declared constant is an integer here: `CheckUses` read it.
                    result.insert(int_value(cx, index_id).map_or(0, |v| v.1));
                }
                _ => return None,
            }
        }
        Some(result)
    }
}

/// `CheckTypeAnnotations`.
fn check_type_annotations(cx: &mut Context, ty: Inst) -> bool {
    let id = cx.ir.result_id(ty);
    for dec in cx.decorations_for(id, false) {
        let d = cx.ir.data(dec);
        let decoration = match d.opcode() {
            O::Decorate | O::DecorateId => d.in_word(1),
            _ => d.in_word(2),
        };
        // RowMajor, ColMajor, ArrayStride, MatrixStride, CPacked, Invariant, Restrict,
        // Offset, Alignment, AlignmentId, MaxByteOffset, RelaxedPrecision,
        // AliasedPointer, RestrictPointer.
        if !matches!(
            decoration,
            4 | 5 | 6 | 7 | 10 | 18 | 19 | 35 | 44 | 46 | 45 | 0 | 5356 | 5355
        ) {
            return false;
        }
    }
    true
}

/// `CheckAnnotations`.
fn check_annotations(cx: &mut Context, var: Inst) -> bool {
    let id = cx.ir.result_id(var);
    for dec in cx.decorations_for(id, false) {
        // Invariant, Restrict, Alignment, AlignmentId, MaxByteOffset, AliasedPointer,
        // RestrictPointer.
        if !matches!(
            cx.ir.data(dec).in_word(1),
            18 | 19 | 44 | 46 | 45 | 5356 | 5355
        ) {
            return false;
        }
    }
    true
}

/// `CheckUsesRelaxed`, on a stack: every use below an access chain is a load, a
/// store, an image texel pointer, a further access chain or a `DebugDeclare`.
fn check_uses_relaxed(cx: &mut Context, chain: Inst) -> bool {
    let mut stack = vec![chain];
    // Each chain once: a chain using itself (invalid SSA) would be queued without end.
    let mut queued: HashSet<Inst> = HashSet::from([chain]);
    while let Some(i) = stack.pop() {
        let id = cx.ir.result_id(i);
        for (user, index) in cx.uses(id) {
            let ok = match cx.ir.opcode(user) {
                O::AccessChain | O::InBoundsAccessChain if index == 2 => {
                    if queued.insert(user) {
                        stack.push(user);
                    }
                    true
                }
                O::AccessChain | O::InBoundsAccessChain => false,
                O::Load => check_load(cx, user, index),
                O::Store => check_store(cx, user, index),
                O::ImageTexelPointer => index == 2,
                O::ExtInst => cx.common_debug_opcode(user) == Some(DEBUG_DECLARE) && index == 5,
                _ => false,
            };
            if !ok {
                return false;
            }
        }
    }
    true
}

/// `CheckLoad`.
fn check_load(cx: &Context, load: Inst, index: usize) -> bool {
    let d = cx.ir.data(load);
    index == 2 && !(d.num_in_operands() >= 2 && d.in_word(1) & VOLATILE != 0)
}

/// `CheckStore`.
fn check_store(cx: &Context, store: Inst, index: usize) -> bool {
    let d = cx.ir.data(store);
    index == 0 && !(d.num_in_operands() >= 3 && d.in_word(2) & VOLATILE != 0)
}

/// The pointee of variable `var`'s type.
fn storage_type_id(cx: &mut Context, var: Inst) -> u32 {
    cx.get_def(cx.ir.type_id(var))
        .map_or(0, |p| cx.ir.data(p).in_word(1))
}

/// `ReplaceWholeDebugValue`: a copy of the `DebugValue` for each replacement, with its
/// index.
fn replace_whole_debug_value(
    cx: &mut Context,
    value: Inst,
    replacements: &[Inst],
) -> Result<bool, String> {
    for (idx, &var) in replacements.iter().enumerate() {
        let c = cx.ir.clone_inst(value).ok_or("ids ran out")?;
        let id = cx.take_next_id().ok_or("ids ran out")?;
        let vid = cx.ir.result_id(var);
        cx.ir.data_mut(c).set_result_id(id);
        cx.ir.data_mut(c).set_operand(5, &[vid]);
        let index = cx.int_constant_id(idx as u32, true).ok_or("ids ran out")?;
        cx.ir.data_mut(c).add_operand(Operand::id(index));
        cx.ir.insert_before(value, c);
        cx.analyze_def_use(c);
    }
    Ok(true)
}

/// `ReplaceWholeLoad`: a load of each replacement (the last first), then an
/// `OpCompositeConstruct` of them that replaces the load.
fn replace_whole_load(cx: &mut Context, load: Inst, replacements: &[Inst]) -> Result<bool, String> {
    let mut parts: Vec<u32> = Vec::with_capacity(replacements.len());
    let access: Vec<Operand> = {
        let d = cx.ir.data(load);
        (1..d.num_in_operands())
            .map(|k| d.operand(k + d.type_result_count()))
            .collect()
    };
    let mut at = load;
    for &var in replacements {
        if cx.ir.opcode(var) != O::Variable {
            parts.push(cx.ir.result_id(var));
            continue;
        }
        let ty = storage_type_id(cx, var);
        let id = cx.take_next_id().ok_or("ids ran out")?;
        let mut ops = vec![Operand::id(cx.ir.result_id(var))];
        ops.extend(access.iter().cloned());
        let l = cx.make(O::Load, ty, id, &ops);
        cx.ir.insert_before(at, l);
        at = l;
        cx.analyze_def_use(l);
        cx.update_debug_info_from(l, load, None)
            .ok_or("ids ran out")?;
        parts.push(id);
    }
    let cid = cx.take_next_id().ok_or("ids ran out")?;
    let ops: Vec<Operand> = parts.iter().map(|&p| Operand::id(p)).collect();
    let ty = cx.ir.type_id(load);
    let c = cx.make(O::CompositeConstruct, ty, cid, &ops);
    cx.ir.insert_before(load, c);
    cx.analyze_def_use(c);
    cx.update_debug_info_from(c, load, None)
        .ok_or("ids ran out")?;
    let lid = cx.ir.result_id(load);
    cx.replace_all_uses_with(lid, cid);
    Ok(true)
}

/// `ReplaceWholeStore`: an extract and a store for each replaced element.
fn replace_whole_store(
    cx: &mut Context,
    store: Inst,
    replacements: &[Inst],
) -> Result<bool, String> {
    let input = cx.ir.data(store).in_word(1);
    let access: Vec<Operand> = {
        let d = cx.ir.data(store);
        (2..d.num_in_operands())
            .map(|k| d.operand(k + d.type_result_count()))
            .collect()
    };
    for (element, &var) in replacements.iter().enumerate() {
        if cx.ir.opcode(var) != O::Variable {
            continue;
        }
        let ty = storage_type_id(cx, var);
        let eid = cx.take_next_id().ok_or("ids ran out")?;
        let e = cx.make(
            O::CompositeExtract,
            ty,
            eid,
            &[Operand::id(input), Operand::literal(element as u32)],
        );
        cx.ir.insert_before(store, e);
        cx.update_debug_info_from(e, store, None)
            .ok_or("ids ran out")?;
        cx.analyze_def_use(e);
        let mut ops = vec![Operand::id(cx.ir.result_id(var)), Operand::id(eid)];
        ops.extend(access.iter().cloned());
        let s = cx.make(O::Store, 0, 0, &ops);
        cx.ir.insert_before(store, s);
        cx.update_debug_info_from(s, store, None)
            .ok_or("ids ran out")?;
        cx.analyze_def_use(s);
    }
    Ok(true)
}

/// `ReplaceAccessChain`: the chain's first index picks the replacement; a chain with
/// more indexes becomes a shorter chain on it, else its uses use it directly.
fn replace_access_chain(
    cx: &mut Context,
    chain: Inst,
    replacements: &[Inst],
) -> Result<bool, String> {
    let index_id = cx.ir.data(chain).in_word(1);
    let Some((_, value)) = int_value(cx, index_id) else {
        return Ok(false);
    };
    if value < 0 || value >= replacements.len() as i64 {
        return Ok(false);
    }
    let var = replacements[value as usize];
    let vid = cx.ir.result_id(var);
    let chain_id = cx.ir.result_id(chain);
    if cx.ir.data(chain).num_in_operands() > 2 {
        let rid = cx.take_next_id().ok_or("ids ran out")?;
        let (op, ty, rest) = {
            let d = cx.ir.data(chain);
            let rest: Vec<Operand> = (2..d.num_in_operands())
                .map(|k| d.operand(k + d.type_result_count()))
                .collect();
            (d.opcode(), d.type_id(), rest)
        };
        let mut ops = vec![Operand::id(vid)];
        ops.extend(rest);
        let r = cx.make(op, ty, rid, &ops);
        cx.update_debug_info_from(r, chain, None)
            .ok_or("ids ran out")?;
        cx.ir.insert_before(chain, r);
        cx.analyze_def_use(r);
        cx.replace_all_uses_with(chain_id, rid);
    } else {
        cx.replace_all_uses_with(chain_id, vid);
    }
    Ok(true)
}
