//! The rules that see through composites and vectors (spirv-opt's
//! `CompositeExtractFeedingConstruct`, `InsertFeedingExtract`,
//! `CompositeConstructFeedingExtract`, `VectorShuffleFeedingExtract`,
//! `FMixFeedingExtract`, `VectorShuffleFeedingShuffle`, `CompositeInsertToCompositeConstruct`):
//! an extract, construct, insert or shuffle rewritten to read the value it selects
//! where that value was made.

use super::{in_word, set_copy};
use crate::analysis::constants::ConstRef;
use crate::analysis::types::Ty;
use crate::context::Context;
use crate::fold::{element_width, type_of_type_id};
use crate::ir::{Inst, Operand};
use spirv_core::spv::Opcode as O;

/// `GetElementType`: the type reached by the literal indices, or 0.
fn element_type(cx: &mut Context, mut type_id: u32, indices: &[u32]) -> u32 {
    for &index in indices {
        let Some(t) = cx.get_def(type_id) else {
            return 0;
        };
        let d = cx.ir.data(t);
        type_id = match d.opcode() {
            O::TypeArray | O::TypeMatrix => d.in_word(0),
            O::TypeStruct if (index as usize) < d.num_in_operands() => d.in_word(index as usize),
            _ => return 0,
        };
    }
    type_id
}

/// `CompositeExtractFeedingConstruct`: a construct of extracts of consecutive
/// elements of one composite is that composite (or an extract of its parent).
pub(super) fn composite_extract_feeding_construct(
    cx: &mut Context,
    i: Inst,
    _: &[Option<ConstRef>],
) -> bool {
    let n = cx.ir.data(i).num_in_operands();
    if n == 0 {
        return false;
    }
    let mut original = 0;
    let mut first: Option<Vec<u32>> = None;
    for k in 0..n {
        let Some(e) = cx.get_def(in_word(cx, i, k)) else {
            return false;
        };
        if cx.ir.opcode(e) != O::CompositeExtract {
            return false;
        }
        let d = cx.ir.data(e);
        let ins: Vec<u32> = (0..d.num_in_operands()).map(|j| d.in_word(j)).collect();
        let f = first.get_or_insert_with(|| ins.clone());
        // HaveSameIndexesExceptForLast.
        if f.len() != ins.len() || f[1..f.len() - 1] != ins[1..ins.len() - 1] {
            return false;
        }
        if *ins.last().expect("operands") != k as u32 {
            return false;
        }
        if k == 0 {
            original = ins[0];
        } else if original != ins[0] {
            return false;
        }
    }
    let first = first.expect("one element");
    let Some(orig) = cx.get_def(original) else {
        return false;
    };
    let orig_type = cx.ir.type_id(orig);
    let t = element_type(cx, orig_type, &first[1..first.len() - 1]);
    if cx.ir.type_id(i) != t {
        return false;
    }
    if first.len() == 2 {
        set_copy(cx, i, original);
        return true;
    }
    let mut ops = vec![Operand::id(original)];
    ops.extend(
        first[1..first.len() - 1]
            .iter()
            .map(|&w| Operand::literal(w)),
    );
    let d = cx.ir.data_mut(i);
    d.set_opcode(O::CompositeExtract);
    d.set_in_operands(&ops);
    true
}

/// `InsertFeedingExtract`: an extract of what an insert wrote is the inserted
/// object (or an extract of it); of another element, an extract of the composite
/// the insert started from.
pub(super) fn insert_feeding_extract(cx: &mut Context, i: Inst, _: &[Option<ConstRef>]) -> bool {
    let Some(c) = cx.get_def(in_word(cx, i, 0)) else {
        return false;
    };
    if cx.ir.opcode(c) != O::CompositeInsert {
        return false;
    }
    let ni = cx.ir.data(i).num_in_operands();
    let nc = cx.ir.data(c).num_in_operands();
    let mut k = 1;
    while k < ni {
        if k + 1 >= nc || in_word(cx, i, k) != in_word(cx, c, k + 1) {
            break;
        }
        k += 1;
    }
    if k == ni && k + 1 == nc {
        let object = in_word(cx, c, 0);
        set_copy(cx, i, object);
        return true;
    }
    if k == ni {
        return false;
    }
    if k + 1 == nc {
        let mut ops = vec![Operand::id(in_word(cx, c, 0))];
        ops.extend((k..ni).map(|j| Operand::literal(in_word(cx, i, j))));
        cx.ir.data_mut(i).set_in_operands(&ops);
        return true;
    }
    let mut ops = vec![Operand::id(in_word(cx, c, 1))];
    ops.extend((1..ni).map(|j| Operand::literal(in_word(cx, i, j))));
    cx.ir.data_mut(i).set_in_operands(&ops);
    true
}

/// `GetNumOfElementsContributedByOperand`.
fn contributed(cx: &mut Context, construct: Inst, vector_result: bool, k: usize) -> u32 {
    if !vector_result {
        return 1;
    }
    let Some(def) = cx.get_def(in_word(cx, construct, k)) else {
        return 1;
    };
    let t = cx.ir.type_id(def);
    match type_of_type_id(cx, t) {
        Some(Ty::Vector { count, .. }) => count,
        _ => 1,
    }
}

/// `CompositeConstructFeedingExtract`: an extract of a constructed element is the
/// operand that made it (or an extract of that operand).
pub(super) fn composite_construct_feeding_extract(
    cx: &mut Context,
    i: Inst,
    _: &[Option<ConstRef>],
) -> bool {
    let ni = cx.ir.data(i).num_in_operands();
    if ni <= 1 {
        return false;
    }
    let Some(c) = cx.get_def(in_word(cx, i, 0)) else {
        return false;
    };
    if cx.ir.opcode(c) != O::CompositeConstruct {
        return false;
    }
    let index = in_word(cx, i, 1);
    let ct = cx.ir.type_id(c);
    let vector_result = matches!(type_of_type_id(cx, ct), Some(Ty::Vector { .. }));
    let nc = cx.ir.data(c).num_in_operands();
    let mut ops: Vec<Operand> = Vec::new();
    if !vector_result {
        if (index as usize) < nc {
            ops.push(Operand::id(in_word(cx, c, index as usize)));
        }
    } else {
        let mut total = 0u32;
        for k in 0..nc {
            let count = contributed(cx, c, true, k);
            total = total.saturating_add(count);
            if index < total {
                let id = in_word(cx, c, k);
                ops.push(Operand::id(id));
                let Some(def) = cx.get_def(id) else {
                    return false;
                };
                let t = cx.ir.type_id(def);
                if matches!(type_of_type_id(cx, t), Some(Ty::Vector { .. })) {
                    ops.push(Operand::literal(index - (total - count)));
                }
                break;
            }
        }
    }
    if ops.is_empty() {
        return false;
    }
    ops.extend((2..ni).map(|j| Operand::literal(in_word(cx, i, j))));
    let d = cx.ir.data_mut(i);
    if ops.len() == 1 {
        d.set_opcode(O::CopyObject);
    }
    d.set_in_operands(&ops);
    true
}

/// `VectorShuffleFeedingExtract`: an extract of a shuffled component is an extract
/// of the shuffle's input (an `OpUndef` for an undefined component).
pub(super) fn vector_shuffle_feeding_extract(
    cx: &mut Context,
    i: Inst,
    _: &[Option<ConstRef>],
) -> bool {
    if cx.ir.data(i).num_in_operands() < 2 {
        return false;
    }
    let Some(c) = cx.get_def(in_word(cx, i, 0)) else {
        return false;
    };
    if cx.ir.opcode(c) != O::VectorShuffle {
        return false;
    }
    let Some(first) = cx.get_def(in_word(cx, c, 0)) else {
        return false;
    };
    let ft = cx.ir.type_id(first);
    let Some(Ty::Vector {
        count: first_size, ..
    }) = type_of_type_id(cx, ft)
    else {
        return false;
    };
    let k = 2 + in_word(cx, i, 1) as usize;
    if k >= cx.ir.data(c).num_in_operands() {
        return false;
    }
    let mut index = in_word(cx, c, k);
    if index == u32::MAX {
        let d = cx.ir.data_mut(i);
        d.set_opcode(O::Undef);
        d.set_in_operands(&[]);
        return true;
    }
    let vector = if index < first_size {
        in_word(cx, c, 0)
    } else {
        index -= first_size;
        in_word(cx, c, 1)
    };
    let d = cx.ir.data_mut(i);
    d.set_in_operand(0, &[vector]);
    d.set_in_operand(1, &[index]);
    true
}

/// How many copies of an extract [`fmix_feeding_extract`] may still fold, within one
/// outermost use: the copy's fold can reach the rule again (an `a` that is itself an
/// `FMix`), which spirv-opt follows without bound; a crafted chain would make the work
/// grow with its length at every level.
const FMIX_COPY_FOLDS: u32 = 64;

thread_local! {
    /// The copies [`fmix_feeding_extract`] is folding now (depth), the folds left, and
    /// the `DebugLine`s of the outermost extract (which each copy of it has too).
    static FMIX_FOLDS: std::cell::Cell<(u32, u32, usize)> =
        const { std::cell::Cell::new((0, 0, 0)) };
}

/// `FMixFeedingExtract`: an extract of a GLSL.std.450 `FMix` whose `a` at that element
/// is 0 or 1 extracts from `x` or `y` instead. As spirv-opt does, `a`'s element is
/// found by folding a copy of the extract that reads `a` (which may declare the
/// constant it folds to; spirv-opt's copy takes an id for each `DebugLine` it
/// carries), and half floats are left alone only after that.
pub(super) fn fmix_feeding_extract(cx: &mut Context, i: Inst, _: &[Option<ConstRef>]) -> bool {
    const FMIX: u32 = 46;
    if cx.ir.data(i).num_in_operands() < 1 {
        return false;
    }
    let Some(mix) = cx.get_def(in_word(cx, i, 0)) else {
        return false;
    };
    if cx.ir.opcode(mix) != O::ExtInst || cx.ir.data(mix).num_in_operands() < 5 {
        return false;
    }
    let glsl = cx.ir.ext_inst_import_id("GLSL.std.450");
    if in_word(cx, mix, 0) != glsl || in_word(cx, mix, 1) != FMIX {
        return false;
    }
    let a = in_word(cx, mix, 4);
    let (depth, left, debug_lines) = FMIX_FOLDS.get();
    let (left, debug_lines) = if depth == 0 {
        let lines = cx.ir.lines(i);
        let n = lines
            .iter()
            .filter(|&&l| cx.ir.is_debug_line_inst(l))
            .count();
        (FMIX_COPY_FOLDS, n)
    } else {
        (left, debug_lines)
    };
    if left == 0 {
        return false;
    }
    // spirv-opt's copy carries the extract's debug lines, each `DebugLine` with a fresh
    // id; only those ids show, so they are taken and the lines are not copied (a long
    // run of lines copied at every fold would grow the work and the arena with it).
    for _ in 0..debug_lines {
        if cx.take_next_id().is_none() {
            return false;
        }
    }
    let data = cx.ir.data(i).clone();
    let copy = cx.ir.create(data);
    cx.ir.data_mut(copy).set_in_operand(0, &[a]);
    FMIX_FOLDS.set((depth + 1, left - 1, debug_lines));
    crate::fold::fold_instruction(cx, copy);
    FMIX_FOLDS.set((depth, FMIX_FOLDS.get().1, debug_lines));
    let folded = (cx.ir.opcode(copy) == O::CopyObject).then(|| in_word(cx, copy, 0));
    cx.ir.mark_dead(copy);
    let Some(c) = folded.and_then(|id| cx.constants().find_declared(id)) else {
        return false;
    };
    let type_id = cx.ir.type_id(i);
    let width = match cx.types().get(type_id) {
        Some(t) => element_width(cx, t),
        None => 0,
    };
    if width != 32 && width != 64 {
        return false;
    }
    let v = crate::fold::const_rules::as_double(cx, c);
    let from = if v == 0.0 {
        in_word(cx, mix, 2)
    } else if v == 1.0 {
        in_word(cx, mix, 3)
    } else {
        return false;
    };
    cx.ir.data_mut(i).set_in_operand(0, &[from]);
    true
}

/// The component count of the vector type of `id`'s definition.
fn vector_length_of(cx: &mut Context, id: u32) -> Option<(Inst, u32)> {
    let def = cx.get_def(id)?;
    let type_id = cx.ir.type_id(def);
    let t = cx.types().get(type_id)?;
    match cx.types().ty(t) {
        Ty::Vector { count, .. } => Some((def, *count)),
        _ => None,
    }
}

/// `VectorShuffleFeedingShuffle`: a shuffle whose operand is another shuffle takes its
/// components from that shuffle's operands directly, when they all come from one of
/// them (the operand no longer read becomes a null constant when none does).
pub(super) fn vector_shuffle_feeding_shuffle(
    cx: &mut Context,
    i: Inst,
    _: &[Option<ConstRef>],
) -> bool {
    const UNDEF: u32 = 0xffff_ffff;
    let (op0, op1) = (in_word(cx, i, 0), in_word(cx, i, 1));
    let Some((first, op0_length)) = vector_length_of(cx, op0) else {
        return false;
    };
    let (feeder, feeder_is_op0) = if cx.ir.opcode(first) == O::VectorShuffle {
        (first, true)
    } else {
        match cx.get_def(op1) {
            Some(d) if cx.ir.opcode(d) == O::VectorShuffle => (d, false),
            _ => return false,
        }
    };
    let (feeder_a, feeder_b) = (in_word(cx, feeder, 0), in_word(cx, feeder, 1));
    let Some((_, feeder_op0_length)) = vector_length_of(cx, feeder_a) else {
        return false;
    };
    let feeder_indices = cx.ir.data(feeder).num_in_operands().saturating_sub(2);
    let count = cx.ir.data(i).num_in_operands();
    let mut new_feeder = 0;
    let mut indices = Vec::with_capacity(count.saturating_sub(2));
    for k in 2..count {
        let mut index = in_word(cx, i, k);
        if index != UNDEF && feeder_is_op0 == (index < op0_length) {
            if index >= op0_length {
                index -= op0_length;
            }
            if index as usize >= feeder_indices {
                return false;
            }
            index = in_word(cx, feeder, index as usize + 2);
            if index < feeder_op0_length {
                if new_feeder == 0 {
                    new_feeder = feeder_a;
                } else if new_feeder != feeder_a {
                    return false;
                }
            } else if index != UNDEF {
                if new_feeder == 0 {
                    new_feeder = feeder_b;
                } else if new_feeder != feeder_b {
                    return false;
                }
                index -= feeder_op0_length;
            }
            if !feeder_is_op0 && index != UNDEF {
                index = index.wrapping_add(op0_length);
            }
        }
        indices.push(index);
    }
    if new_feeder == 0 {
        let type_id = cx.ir.type_id(feeder);
        let Some(t) = cx.types().get(type_id) else {
            return false;
        };
        let Some(null) = cx.constant_of(t, &[]) else {
            return false;
        };
        let Some(id) = crate::fold::defining_id(cx, null) else {
            return false;
        };
        new_feeder = id;
    }
    let (a, b) = if feeder_is_op0 {
        // The first operand's length may change: indices into the second move with it.
        let Some((_, new_op0_size)) = vector_length_of(cx, new_feeder) else {
            return false;
        };
        let adjustment = op0_length.wrapping_sub(new_op0_size);
        if adjustment != 0 {
            for (k, index) in indices.iter_mut().enumerate() {
                let old = in_word(cx, i, k + 2);
                if old >= op0_length && old != UNDEF {
                    *index = index.wrapping_sub(adjustment);
                }
            }
        }
        (new_feeder, op1)
    } else {
        (op0, new_feeder)
    };
    let mut operands = vec![Operand::id(a), Operand::id(b)];
    operands.extend(indices.into_iter().map(Operand::literal));
    cx.ir.data_mut(i).set_in_operands(&operands);
    true
}

/// How many inserts of a chain `GetInsertedValues` follows at most (spirv-opt walks
/// the whole chain for every insert of it: quadratic; a chain longer than this is
/// left alone).
const MAX_INSERT_CHAIN: usize = 4096;

/// `GetNumberOfElements`.
fn number_of_elements(cx: &mut Context, t: crate::analysis::types::TypeRef) -> u32 {
    match cx.types().ty(t) {
        Ty::Vector { count, .. } | Ty::Matrix { count, .. } => *count,
        Ty::Struct { members, .. } => members.len() as u32,
        Ty::Array { length, .. } => {
            if length.len() == 2 && length[0] == 1 {
                length[1]
            } else {
                u32::MAX
            }
        }
        _ => 0,
    }
}

/// `CompositeInsertToCompositeConstruct`: a chain of inserts writing every element
/// of one container becomes a construct of the values, placed before the last insert.
pub(super) fn composite_insert_to_construct(
    cx: &mut Context,
    i: Inst,
    _: &[Option<ConstRef>],
) -> bool {
    let n = cx.ir.data(i).num_in_operands();
    if n < 3 {
        return false;
    }
    // GetInsertedValues.
    let own: Vec<u32> = (0..n).map(|k| in_word(cx, i, k)).collect();
    let mut values = std::collections::BTreeMap::new();
    let mut current = i;
    let mut steps = 0;
    while cx.ir.opcode(current) == O::CompositeInsert {
        steps += 1;
        if steps > MAX_INSERT_CHAIN {
            return false;
        }
        let d = cx.ir.data(current);
        let m = d.num_in_operands();
        if m < 2 {
            return false;
        }
        if m > n && !values.contains_key(&d.in_word(n - 1)) {
            values.clear();
            break;
        }
        // HaveSameIndexesExceptForLast.
        if m == n && (2..n - 1).all(|k| d.in_word(k) == own[k]) {
            values.entry(d.in_word(m - 1)).or_insert(d.in_word(0));
        }
        let next = d.in_word(1);
        let Some(def) = cx.get_def(next) else {
            return false;
        };
        current = def;
    }
    let type_id = cx.ir.type_id(i);
    let container = element_type(cx, type_id, &own[2..n - 1]);
    if container == 0 {
        return false;
    }
    let Some(ct) = cx.types().get(container) else {
        return false;
    };
    let size = number_of_elements(cx, ct);
    if size as usize != values.len() || values.keys().next_back().is_none_or(|&k| k >= size) {
        return false;
    }
    let Some(id) = cx.take_next_id() else {
        return false;
    };
    let ops: Vec<Operand> = values.values().map(|&v| Operand::id(v)).collect();
    let construct = cx.make(O::CompositeConstruct, container, id, &ops);
    cx.ir.insert_before(i, construct);
    cx.analyze_def_use(construct);
    if n == 3 {
        set_copy(cx, i, id);
    } else {
        let d = cx.ir.data_mut(i);
        d.set_in_operand(0, &[id]);
        d.remove_in_operand(n - 1);
    }
    true
}
