//! `--interpolate-fixup` (spirv-opt's `InterpFixupPass`,
//! `source/opt/interp_fixup_pass.cpp`): HLSL front ends write GLSL.std.450's
//! `InterpolateAtCentroid`, `InterpolateAtSample` and `InterpolateAtOffset` on a loaded
//! value, where the extended instruction wants the pointer to the `Input` variable. The
//! pass runs an instruction folder whose only instruction rule gives such an
//! instruction the load's pointer, and which has no constant-folding rules; the
//! folder's word-by-word arithmetic still turns every instruction whose operands are
//! all constants into an `OpCopyObject` of the constant, as spirv-opt's does.

use crate::analysis::Analyses;
use crate::analysis::constants::ConstRef;
use crate::context::Context;
use crate::fold::{self, ConstRule, Rule, RuleSet};
use crate::ir::{Func, Inst, Kind, Operand};
use crate::pass::{IrPass, PassError, Status};
use spirv_core::spv::Opcode as O;

/// The pass's flag.
pub const FLAG: &str = "interpolate-fixup";

/// `--interpolate-fixup`.
#[derive(Debug, Clone, Copy, Default)]
pub struct InterpFixup;

/// GLSL.std.450's `InterpolateAtCentroid`; `InterpolateAtSample` and
/// `InterpolateAtOffset` follow it.
const INTERPOLATE_AT_CENTROID: u32 = 76;
const INTERPOLATE_AT_OFFSET: u32 = 78;

/// The folder the pass runs: the interpolation rule, no constant rules.
const RULES: RuleSet = RuleSet {
    rules: rules_for,
    const_rules: no_const_rules,
};

fn no_const_rules(_: &mut Context, _: Inst) -> Option<&'static [ConstRule]> {
    None
}

/// The rule for an `InterpolateAt*` of the module's (first) GLSL.std.450 import.
fn rules_for(cx: &mut Context, i: Inst) -> &'static [Rule] {
    if cx.ir.opcode(i) != O::ExtInst || cx.ir.data(i).num_in_operands() < 2 {
        return &[];
    }
    let glsl = cx.features().glsl_std_450;
    let d = cx.ir.data(i);
    let (set, number) = (d.in_word(0), d.in_word(1));
    if glsl != 0
        && set == glsl
        && (INTERPOLATE_AT_CENTROID..=INTERPOLATE_AT_OFFSET).contains(&number)
    {
        &[replace_interpolant]
    } else {
        &[]
    }
}

/// spirv-opt's `ReplaceInternalInterpolate`: `op(OpLoad(p), …)` becomes `op(p, …)`.
/// spirv-opt asserts (and, in release builds, only evaluates) that the load's base is
/// an `Input` variable; the rewrite does not depend on it, so neither do we.
fn replace_interpolant(cx: &mut Context, i: Inst, _: &[Option<ConstRef>]) -> bool {
    let d = cx.ir.data(i);
    let number = d.in_word(1);
    let Some(interpolant) = (d.num_in_operands() > 2).then(|| d.in_word(2)) else {
        return false;
    };
    // The sample or offset operand; spirv-opt reads it blindly (and crashes where an
    // invalid instruction lacks it), we leave such an instruction alone.
    let extra = match number {
        INTERPOLATE_AT_CENTROID => None,
        _ if d.num_in_operands() > 3 => Some(d.in_word(3)),
        _ => return false,
    };
    let Some(load) = cx.get_def(interpolant) else {
        return false;
    };
    if cx.ir.opcode(load) != O::Load || cx.ir.data(load).num_in_operands() == 0 {
        return false;
    }
    let pointer = cx.ir.data(load).in_word(0);
    let glsl = cx.features().glsl_std_450;
    let mut ops = vec![
        Operand::id(glsl),
        Operand::new(Kind::ExtInstNumber, &[number]),
        Operand::id(pointer),
    ];
    ops.extend(extra.map(Operand::id));
    cx.ir.data_mut(i).set_in_operands(&ops);
    cx.update_def_use(i);
    true
}

impl IrPass for InterpFixup {
    fn flag(&self) -> &'static str {
        FLAG
    }

    fn preserved(&self) -> Analyses {
        Analyses::INSTR_TO_BLOCK
            | Analyses::DECORATIONS
            | Analyses::COMBINATORS
            | Analyses::CFG
            | Analyses::DOMINATORS
            | Analyses::LOOPS
            | Analyses::NAME_MAP
            | Analyses::SCALAR_EVOLUTION
            | Analyses::REGISTER_PRESSURE
            | Analyses::VALUE_NUMBER_TABLE
            | Analyses::STRUCTURED_CFG
            | Analyses::BUILTIN_VAR_ID
            | Analyses::ID_TO_FUNC
            | Analyses::TYPES
            | Analyses::DEF_USE
            | Analyses::CONSTANTS
    }

    fn process(&self, cx: &mut Context) -> Result<Status, PassError> {
        let mut changed = false;
        let funcs: Vec<Func> = cx.ir.functions().to_vec();
        let mut insts = Vec::new();
        for f in funcs {
            insts.clear();
            cx.ir.func_insts(f, false, &mut |i| insts.push(i));
            for &i in &insts {
                if fold::fold_instruction_with(cx, i, &RULES) {
                    // A fold to a constant rewrote the instruction without telling
                    // the def-use analysis (spirv-opt leaves it stale); ours stays exact.
                    cx.update_def_use(i);
                    changed = true;
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
