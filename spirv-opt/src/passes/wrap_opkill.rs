//! `--wrap-opkill` (spirv-opt's `WrapOpKill`, `source/opt/wrap_opkill.cpp`): in the
//! functions called (directly or not) from a loop's continue construct, each `OpKill`
//! and `OpTerminateInvocation` becomes a call to a new function that does it, followed
//! by a return (of an `OpUndef` in a function that returns a value), so that the
//! functions can be inlined into the continue construct. The new functions go at the
//! end of the module.

use crate::analysis::Analyses;
use crate::analysis::types::Ty;
use crate::builder::Builder;
use crate::context::Context;
use crate::ir::{Func, Inst, Kind, Operand};
use crate::pass::{IrPass, PassError, Status};
use spirv_core::spv::Opcode as O;

/// The pass's flag.
pub const FLAG: &str = "wrap-opkill";

/// `--wrap-opkill`.
#[derive(Debug, Clone, Copy, Default)]
pub struct WrapOpKill;

/// The pass's state over one run.
#[derive(Default)]
struct State {
    void_type: u32,
    kill: Option<Func>,
    terminate: Option<Func>,
}

impl IrPass for WrapOpKill {
    fn flag(&self) -> &'static str {
        FLAG
    }

    fn preserved(&self) -> Analyses {
        Analyses::DEF_USE
            | Analyses::INSTR_TO_BLOCK
            | Analyses::DECORATIONS
            | Analyses::COMBINATORS
            | Analyses::NAME_MAP
            | Analyses::BUILTIN_VAR_ID
            | Analyses::CONSTANTS
            | Analyses::TYPES
    }

    fn process(&self, cx: &mut Context) -> Result<Status, PassError> {
        let mut s = State::default();
        let mut modified = false;
        let fail = |message: &str| PassError {
            pass: FLAG,
            message: message.to_owned(),
        };
        for id in cx.find_funcs_called_from_continue() {
            let Some(f) = cx.get_function(id) else {
                continue;
            };
            let mut insts: Vec<Inst> = Vec::new();
            cx.ir.func_insts(f, false, &mut |i| insts.push(i));
            for i in insts {
                if matches!(cx.ir.opcode(i), O::Kill | O::TerminateInvocation) {
                    modified = true;
                    if replace_with_call(cx, &mut s, i).is_none() {
                        return Err(fail("could not wrap an OpKill (ids ran out)"));
                    }
                }
            }
        }
        if let Some(f) = s.kill {
            cx.ir.push_func(f);
        }
        if let Some(f) = s.terminate {
            cx.ir.push_func(f);
        }
        Ok(Status::from_changed(modified))
    }
}

/// `ReplaceWithFunctionCall`.
fn replace_with_call(cx: &mut Context, s: &mut State, inst: Inst) -> Option<()> {
    let b = Builder::before(inst, Analyses::DEF_USE | Analyses::INSTR_TO_BLOCK);
    let func_id = killing_func_id(cx, s, cx.ir.opcode(inst))?;
    let void = void_type_id(cx, s);
    let call = b.add_function_call(cx, void, func_id, &[])?;
    cx.update_debug_info_from(call, inst, None)?;
    let return_type = owning_return_type(cx, inst);
    if return_type != void_type_id(cx, s) {
        let undef = b.add_nullary_op(cx, return_type, O::Undef)?;
        let u = cx.ir.result_id(undef);
        b.add_unary_op(cx, 0, O::ReturnValue, u)?;
    } else {
        b.add_nullary_op(cx, 0, O::Return)?;
    }
    cx.kill_inst(inst);
    Some(())
}

/// `GetVoidTypeId`.
fn void_type_id(cx: &mut Context, s: &mut State) -> u32 {
    if s.void_type == 0 {
        s.void_type = cx.void_type_id();
    }
    s.void_type
}

/// `GetVoidFunctionTypeId`.
fn void_function_type_id(cx: &mut Context) -> u32 {
    let void = cx.void_type_id();
    let Some(void) = cx.types().get(void) else {
        return 0;
    };
    cx.type_id_of(Ty::Function {
        ret: void,
        params: Vec::new(),
    })
}

/// `GetKillingFuncId`: the function that does `opcode`, made the first time.
fn killing_func_id(cx: &mut Context, s: &mut State, opcode: O) -> Option<u32> {
    let slot = if opcode == O::Kill {
        s.kill
    } else {
        s.terminate
    };
    if let Some(f) = slot {
        return Some(cx.ir.func_id(f));
    }
    let id = cx.take_next_id()?;
    let void = void_type_id(cx, s);
    if void == 0 {
        return None;
    }
    let start = cx.make(O::Function, void, id, &[]);
    cx.ir
        .data_mut(start)
        .add_operand(Operand::new(Kind::Mask, &[0]));
    let fn_type = void_function_type_id(cx);
    cx.ir.data_mut(start).add_operand(Operand::id(fn_type));
    let f = cx.ir.new_func(start);
    let end = cx.make(O::FunctionEnd, 0, 0, &[]);
    cx.ir.set_func_end(f, end);
    let label_id = cx.take_next_id()?;
    let label = cx.make(O::Label, 0, label_id, &[]);
    let block = cx.ir.new_block(label);
    let kill = cx.make(opcode, 0, 0, &[]);
    cx.ir.push_block_inst(block, kill);
    cx.ir.push_block(f, block);
    if cx.are_valid(Analyses::DEF_USE) {
        let mut insts = Vec::new();
        cx.ir.func_insts(f, false, &mut |i| insts.push(i));
        for i in insts {
            cx.analyze_def_use(i);
        }
    }
    if opcode == O::Kill {
        s.kill = Some(f);
    } else {
        s.terminate = Some(f);
    }
    Some(id)
}

/// `GetOwningFunctionsReturnType`.
fn owning_return_type(cx: &mut Context, inst: Inst) -> u32 {
    cx.ir
        .block_of(inst)
        .and_then(|b| cx.ir.block_func(b))
        .map_or(0, |f| cx.ir.type_id(cx.ir.func_def(f)))
}
