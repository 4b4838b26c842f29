//! `--reduce-load-size[=<threshold>]` (spirv-opt's `ReduceLoadSize`,
//! `source/opt/reduce_load_size.cpp`): an `OpCompositeExtract` of a whole-composite
//! load from a `Uniform`, `UniformConstant` or `Input` variable becomes an access chain
//! to the element and a load of it, when every use of the big load is such an extract
//! and the share of elements they read is below the threshold (0.9 by default; at 1 or
//! more, always). Vectors and matrices are left alone.

use crate::analysis::Analyses;
use crate::analysis::constants::Const;
use crate::analysis::types::Ty;
use crate::builder::Builder;
use crate::context::Context;
use crate::ir::Inst;
use crate::mem_pass::get_base_address;
use crate::pass::{IrPass, PassError, Status};
use spirv_core::spv::Opcode as O;
use std::collections::{BTreeSet, HashMap};

/// The pass's flag.
pub const FLAG: &str = "reduce-load-size";

/// `--reduce-load-size`, with its replacement threshold.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReduceLoadSize {
    /// Replace a load when the share of its elements used is below this.
    pub threshold: f64,
}

impl Default for ReduceLoadSize {
    fn default() -> ReduceLoadSize {
        ReduceLoadSize { threshold: 0.9 }
    }
}

impl ReduceLoadSize {
    /// The pass from the flag's value as spirv-opt reads it: none or empty is 0.9; a
    /// value of digits and dots is read as C's `atof` reads it (its longest number
    /// prefix, 0 when there is none); any other value is 0.9 too.
    pub fn from_arg(arg: Option<&str>) -> ReduceLoadSize {
        let arg = arg.unwrap_or("");
        if arg.is_empty() || !arg.bytes().all(|b| b == b'.' || b.is_ascii_digit()) {
            return ReduceLoadSize::default();
        }
        // atof: digits, then at most one dot and digits.
        let mut end = 0;
        let mut seen_dot = false;
        for (k, b) in arg.bytes().enumerate() {
            if b == b'.' {
                if seen_dot {
                    break;
                }
                seen_dot = true;
            }
            end = k + 1;
        }
        let prefix = &arg[..end];
        let threshold = if prefix.bytes().any(|b| b.is_ascii_digit()) {
            // "5." and ".5" are numbers to atof; Rust's parser takes both too.
            prefix.parse::<f64>().unwrap_or(0.0)
        } else {
            0.0
        };
        ReduceLoadSize { threshold }
    }
}

const EXTRACT_COMPOSITE: usize = 0;
const UNIFORM_CONSTANT: u32 = 0;
const INPUT: u32 = 1;
const UNIFORM: u32 = 2;

impl IrPass for ReduceLoadSize {
    fn flag(&self) -> &'static str {
        FLAG
    }

    fn preserved(&self) -> Analyses {
        Analyses::DEF_USE
            | Analyses::INSTR_TO_BLOCK
            | Analyses::COMBINATORS
            | Analyses::CFG
            | Analyses::DOMINATORS
            | Analyses::NAME_MAP
            | Analyses::CONSTANTS
            | Analyses::TYPES
    }

    fn process(&self, cx: &mut Context) -> Result<Status, PassError> {
        let mut cache: HashMap<u32, bool> = HashMap::new();
        let mut pointers = Pointers::default();
        let mut modified = false;
        let funcs = cx.ir.functions().to_vec();
        for f in funcs {
            let mut extracts = Vec::new();
            cx.ir.func_insts(f, false, &mut |i| extracts.push(i));
            for i in extracts {
                // Earlier replacements kill only the extract they replace.
                if !cx.ir.is_live(i) || cx.ir.opcode(i) != O::CompositeExtract {
                    continue;
                }
                if self.should_replace(cx, &mut cache, i) {
                    modified |= replace_extract(cx, &mut pointers, i).ok_or(PassError {
                        pass: FLAG,
                        message: "ids ran out".into(),
                    })?;
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

impl ReduceLoadSize {
    /// `ShouldReplaceExtract`, cached per load.
    fn should_replace(&self, cx: &mut Context, cache: &mut HashMap<u32, bool>, i: Inst) -> bool {
        let Some(load) = cx.get_def(cx.ir.data(i).in_word(EXTRACT_COMPOSITE)) else {
            return false;
        };
        if cx.ir.opcode(load) != O::Load {
            return false;
        }
        let load_id = cx.ir.result_id(load);
        if let Some(&r) = cache.get(&load_id) {
            return r;
        }
        let mut used: BTreeSet<u32> = BTreeSet::new();
        let mut other_use = false;
        for user in cx.users(load_id) {
            if cx.common_debug_opcode(user).is_some() {
                continue;
            }
            let d = cx.ir.data(user);
            if d.opcode() != O::CompositeExtract || d.num_in_operands() == 1 {
                other_use = true;
                break;
            }
            used.insert(d.in_word(1));
        }
        let replace = if other_use {
            false
        } else if 1.0 <= self.threshold {
            true
        } else {
            let load_type = cx.ir.type_id(load);
            let total: u32 = match cx.types().get(load_type).map(|t| cx.types().ty(t).clone()) {
                Some(Ty::Array { .. }) => {
                    let t = cx.types().get(load_type).expect("looked up");
                    let len_id = cx.types().array_length_id(t);
                    match cx.constants().find_declared(len_id) {
                        Some(c) => match cx.constants().value(c) {
                            Const::Scalar(_, words) => words.first().copied().unwrap_or(0),
                            // spirv-opt reads an integer's value here (and crashes on
                            // anything else); 0 makes the share infinite: no replacement.
                            _ => 0,
                        },
                        // A spec-constant length: taken as very large.
                        None => u32::MAX,
                    }
                }
                Some(Ty::Struct { members, .. }) => members.len() as u32,
                _ => 1,
            };
            let share = used.len() as f64 / f64::from(total);
            share < self.threshold
        };
        cache.insert(load_id, replace);
        replace
    }
}

/// The pointer type found for each (pointee, storage class): the same answer as looking
/// through the types again, as the pass adds types only at their end and kills no
/// type, and each look walked every type, constant and global variable (for each
/// extract replaced).
#[derive(Default)]
struct Pointers(HashMap<(u32, u32), u32>);

/// `ReplaceExtract`: the access chain and the element load go just before the big
/// load (the memory may be written between it and the extract). `Some(false)` when
/// the load is not one the pass can split; `None` when ids ran out.
fn replace_extract(cx: &mut Context, pointers: &mut Pointers, i: Inst) -> Option<bool> {
    let Some(load) = cx.get_def(cx.ir.data(i).in_word(EXTRACT_COMPOSITE)) else {
        return Some(false);
    };
    if cx.ir.opcode(load) != O::Load {
        return Some(false);
    }
    let load_type = cx.ir.type_id(load);
    if matches!(
        cx.types().get(load_type).map(|t| cx.types().ty(t).clone()),
        Some(Ty::Vector { .. } | Ty::Matrix { .. })
    ) {
        return Some(false);
    }
    let Some(var) = get_base_address(cx, load) else {
        return Some(false);
    };
    if cx.ir.opcode(var) != O::Variable {
        return Some(false);
    }
    let storage = cx.ir.data(var).in_word(0);
    if !matches!(storage, UNIFORM | UNIFORM_CONSTANT | INPUT) {
        return Some(false);
    }
    let result_type = cx.ir.type_id(i);
    let ptr_type = match pointers.0.get(&(result_type, storage)) {
        Some(&p) => p,
        None => {
            let p = cx.find_pointer_to_type(result_type, storage);
            if p == 0 {
                return None;
            }
            pointers.0.insert((result_type, storage), p);
            p
        }
    };
    let n = cx.ir.data(i).num_in_operands();
    let mut ids = Vec::with_capacity(n.saturating_sub(1));
    for k in 1..n {
        let index = cx.ir.data(i).in_word(k);
        ids.push(cx.int_constant_id(index, false)?);
    }
    let base = cx.ir.data(load).in_word(0);
    let b = Builder::before(load, Analyses::INSTR_TO_BLOCK | Analyses::DEF_USE);
    let mut chain_ids = vec![base];
    chain_ids.extend_from_slice(&ids);
    let chain = b.add_nary_op(cx, ptr_type, O::AccessChain, &chain_ids)?;
    let chain_id = cx.ir.result_id(chain);
    let new_load = b.add_load(cx, result_type, chain_id)?;
    let new_id = cx.ir.result_id(new_load);
    let old_id = cx.ir.result_id(i);
    cx.replace_all_uses_with(old_id, new_id);
    cx.kill_inst(i);
    Some(true)
}
