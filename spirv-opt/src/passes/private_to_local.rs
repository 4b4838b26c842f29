//! `--private-to-local` (spirv-opt's `PrivateToLocalPass`,
//! `source/opt/private_to_local_pass.cpp`): a `Private` variable used (by loads,
//! stores to it, access chains of such uses, texel pointers) in one function only
//! becomes a `Function` variable at the start of that function's first block, its
//! pointer types (and its access chains') now `Function` ones; a `DebugGlobalVariable`
//! of it becomes a `DebugLocalVariable` with a `DebugDeclare`. From SPIR-V 1.4 the
//! entry points stop listing it.

use crate::analysis::Analyses;
use crate::context::Context;
use crate::ir::{Func, Inst, Kind, Operand, Section};
use crate::mem_pass::FUNCTION_STORAGE;
use crate::pass::{IrPass, PassError, Status};
use spirv_core::spv::Opcode as O;
use std::collections::{HashMap, HashSet};

/// The pass's flag.
pub const FLAG: &str = "private-to-local";

/// `--private-to-local`.
#[derive(Debug, Clone, Copy, Default)]
pub struct PrivateToLocal;

const PRIVATE: u32 = 6;
const ADDRESSES: u32 = 4;
/// Debug-info instruction numbers.
const DEBUG_GLOBAL_VARIABLE: u32 = 18;
const DEBUG_LOCAL_VARIABLE: u32 = 26;
const DEBUG_DECLARE: u32 = 28;
/// `DebugGlobalVariable`'s and `DebugLocalVariable`'s flags operands.
const GLOBAL_FLAGS: usize = 12;
const LOCAL_FLAGS: usize = 10;

impl IrPass for PrivateToLocal {
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
        if cx.has_capability(ADDRESSES) {
            return Ok(Status::Unchanged);
        }
        let fail = || PassError {
            pass: FLAG,
            message: "ids ran out".into(),
        };
        // Each variable to move with its function and its users, found before any
        // change: moving one variable changes none of another's users, and asking
        // again after a change would check each user anew (an entry point listing
        // every variable, once per variable).
        let mut to_move: Vec<(Inst, Func, Vec<Inst>)> = Vec::new();
        let values: Vec<Inst> = cx.ir.section(Section::TypesValues).collect();
        for v in values {
            if cx.ir.opcode(v) != O::Variable || cx.ir.data(v).in_word(0) != PRIVATE {
                continue;
            }
            let users = cx.users(cx.ir.result_id(v));
            if let Some(f) = find_local_function(cx, v, &users) {
                to_move.push((v, f, users));
            }
        }
        let modified = !to_move.is_empty();
        let mut localized: HashSet<u32> = HashSet::new();
        let mut types = NewTypes::default();
        for (v, f, users) in to_move {
            move_variable(cx, &mut types, v, f, &users).ok_or_else(fail)?;
            localized.insert(cx.ir.result_id(v));
        }
        if cx.ir.header.version >= 0x0001_0400 && !localized.is_empty() {
            let entries: Vec<Inst> = cx.ir.section(Section::EntryPoint).collect();
            for e in entries {
                // The operands once, in order: reaching each by its index walks the
                // ones before it (the name makes their sizes uneven), which over an
                // interface of 60,000 ids is quadratic.
                let d = cx.ir.data(e);
                let n = d.num_in_operands();
                let skip = d.type_result_count();
                let mut keep: Vec<Operand> = Vec::with_capacity(n);
                d.for_each_operand(|i, kind, words| {
                    let k = i.wrapping_sub(skip);
                    let id = words.first().copied().unwrap_or(0);
                    if i >= skip && (k < 3 || !localized.contains(&id)) {
                        keep.push(Operand::new(kind, words));
                    }
                });
                if keep.len() != n {
                    cx.ir.data_mut(e).set_in_operands(&keep);
                    cx.analyze_uses(e);
                }
            }
        }
        Ok(if modified {
            Status::Changed
        } else {
            Status::Unchanged
        })
    }
}

/// `FindLocalFunction`: the one function whose blocks use `var` (its `users`), each
/// use one the pass can update.
fn find_local_function(cx: &mut Context, var: Inst, users: &[Inst]) -> Option<Func> {
    let id = cx.ir.result_id(var);
    let mut found_first_use = false;
    let mut target: Option<Func> = None;
    for &user in users {
        let Some(b) = cx.ir.block_of(user) else {
            continue;
        };
        if !is_valid_use(cx, user, id) {
            found_first_use = true;
            target = None;
            continue;
        }
        let current = cx.ir.block_func(b);
        if !found_first_use {
            found_first_use = true;
            target = current;
        } else if target != current {
            target = None;
        }
    }
    target
}

/// `IsValidUse`.
fn is_valid_use(cx: &mut Context, i: Inst, var_id: u32) -> bool {
    if cx.common_debug_opcode(i) == Some(DEBUG_GLOBAL_VARIABLE) {
        return true;
    }
    match cx.ir.opcode(i) {
        O::Load | O::ImageTexelPointer | O::Name => true,
        O::Store => cx.ir.data(i).word(1) != var_id,
        O::AccessChain => {
            let rid = cx.ir.result_id(i);
            cx.users(rid).into_iter().all(|u| is_valid_use(cx, u, rid))
        }
        op => is_decoration(op),
    }
}

/// `spvOpcodeIsDecoration`.
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

/// `MoveVariable` of `var` with its `users`: `None` when ids ran out.
fn move_variable(
    cx: &mut Context,
    types: &mut NewTypes,
    var: Inst,
    f: Func,
    users: &[Inst],
) -> Option<()> {
    cx.ir.unlink(var);
    cx.forget_uses(var);
    cx.ir.data_mut(var).set_in_operand(0, &[FUNCTION_STORAGE]);
    let old_ty = cx.ir.type_id(var);
    let new_ty = get_new_type(cx, types, old_ty)?;
    cx.ir.data_mut(var).set_type_id(new_ty);
    cx.analyze_uses(var);
    let entry = cx.ir.entry(f)?;
    match cx.ir.first_inst(entry) {
        Some(first) => cx.ir.insert_before(first, var),
        None => cx.ir.push_block_inst(entry, var),
    }
    for &user in users {
        update_use(cx, types, user, var)?;
    }
    Some(())
}

/// The `Function` pointer type found for each pointee: the same answer as looking
/// through the types again, as the pass adds pointer types only at their end, and
/// each look walked every variable still among them.
#[derive(Default)]
struct NewTypes(HashMap<u32, u32>);

/// `GetNewType`: the `Function` pointer type to what `old_type_id` points to.
fn get_new_type(cx: &mut Context, types: &mut NewTypes, old_type_id: u32) -> Option<u32> {
    let old = cx.get_def(old_type_id)?;
    let pointee = cx.ir.data(old).in_word(1);
    let new = match types.0.get(&pointee) {
        Some(&new) => new,
        None => {
            let new = cx.find_pointer_to_type(pointee, FUNCTION_STORAGE);
            types.0.insert(pointee, new);
            new
        }
    };
    if new == 0 {
        return None;
    }
    if let Some(d) = cx.get_def(new) {
        cx.update_def_use(d);
    }
    Some(new)
}

/// `UpdateUses`.
fn update_uses(cx: &mut Context, types: &mut NewTypes, i: Inst) -> Option<()> {
    let id = cx.ir.result_id(i);
    for user in cx.users(id) {
        update_use(cx, types, user, i)?;
    }
    Some(())
}

/// `UpdateUse`.
fn update_use(cx: &mut Context, types: &mut NewTypes, i: Inst, user: Inst) -> Option<()> {
    if cx.common_debug_opcode(i) == Some(DEBUG_GLOBAL_VARIABLE) {
        convert_debug_global_to_local_variable(cx, i, user)?;
        return Some(());
    }
    if cx.ir.opcode(i) == O::AccessChain {
        cx.forget_uses(i);
        let ty = cx.ir.type_id(i);
        let new_ty = get_new_type(cx, types, ty)?;
        cx.ir.data_mut(i).set_type_id(new_ty);
        cx.analyze_uses(i);
        update_uses(cx, types, i)?;
    }
    Some(())
}

/// `ConvertDebugGlobalToLocalVariable`: the `DebugGlobalVariable` `g` becomes a
/// `DebugLocalVariable`, declared for `local` by a new `DebugDeclare` after the
/// variables that start its block.
fn convert_debug_global_to_local_variable(cx: &mut Context, g: Inst, local: Inst) -> Option<()> {
    {
        let d = cx.ir.data_mut(g);
        d.set_in_operand(1, &[DEBUG_LOCAL_VARIABLE]);
        let flags = d.word(GLOBAL_FLAGS);
        d.set_operand(LOCAL_FLAGS, &[flags]);
        let mut k = d.num_operands() - 1;
        while k > LOCAL_FLAGS {
            d.remove_operand(k);
            k -= 1;
        }
    }
    cx.forget_uses(g);
    cx.analyze_uses(g);
    // GCC evaluates the instruction's constructor arguments right to left: the empty
    // expression (if it is made) takes its id before the declaration's.
    let expr = cx.empty_debug_expression()?;
    let expr_id = cx.ir.result_id(expr);
    let set = cx.dbg_set_import_id();
    let id = cx.take_next_id()?;
    let void = cx.void_type_id();
    let g_id = cx.ir.result_id(g);
    let local_id = cx.ir.result_id(local);
    let decl = cx.make(
        O::ExtInst,
        void,
        id,
        &[
            Operand::id(set),
            Operand::new(Kind::ExtInstNumber, &[DEBUG_DECLARE]),
            Operand::id(g_id),
            Operand::id(local_id),
            Operand::id(expr_id),
        ],
    );
    let mut before = Some(local);
    while let Some(b) = before.filter(|&b| cx.ir.opcode(b) == O::Variable) {
        before = cx.ir.next(b);
    }
    match before {
        Some(b) => cx.ir.insert_before(b, decl),
        None => match cx.ir.block_of(local) {
            Some(blk) => cx.ir.push_block_inst(blk, decl),
            None => return None,
        },
    }
    if cx.are_valid(Analyses::DEF_USE) {
        cx.analyze_def_use(decl);
    }
    Some(())
}
