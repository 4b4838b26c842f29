//! The passes that decide instruction by instruction (`--strip-debug`,
//! `--switch-descriptorset`, `--compact-ids`), run as the module is read: one scan for
//! what a later instruction decides about an earlier one (which ids die, which strings
//! a non-semantic instruction keeps, which decorations a variable's set move picks),
//! then one read that writes the output as it goes, with no `Module`, editor or
//! re-read between the passes.
//!
//! It gives what [`run_to_words`](super::run_to_words) gives after
//! [`Module::from_words`](spirv_core::Module::from_words), or declines (`None`) and leaves
//! the module to that path: on anything it does not model exactly (a departure from
//! the logical layout, a decoration group that names an id `--strip-debug` removes,
//! debug lines it would have to carry, an id a walk needs that is not defined before
//! its use, a read or walk error).

use super::StructuralPass;
use super::descriptor::SetMoves;
use super::strip::{self, Strip};
use spirv_core::__private::opt::SetKind;
use spirv_core::__private::opt::{Layout, Renumbering, observe_lenient};
use spirv_core::ExtInstRegistry;
use spirv_core::Id;
use spirv_core::Section;
use spirv_core::binary::RawInstructions;
use spirv_core::grammar::{InstructionInfo, KindClass, Quantifier};
use spirv_core::spv::{self, Opcode as O};
use spirv_core::walk::{self, IdInfo, Ids, Summary, WalkOptions};
use std::collections::BTreeMap;

/// The passes of a list the stream runs, in the one order it runs them.
#[derive(Default)]
struct Plan {
    strip: bool,
    switch: Option<(u32, u32)>,
    compact: bool,
}

impl Plan {
    /// The plan of `passes`, if each is one of the three, each at most once, in the
    /// order strip, switch, compact (other orders change the intermediate bounds the
    /// general path computes, which the stream does not follow).
    fn of(passes: &[StructuralPass]) -> Option<Plan> {
        let mut plan = Plan::default();
        let mut stage = 0;
        for p in passes {
            let s = match p {
                StructuralPass::StripDebug => {
                    plan.strip = true;
                    1
                }
                StructuralPass::SwitchDescriptorSet { from, to } => {
                    plan.switch = Some((*from, *to));
                    2
                }
                StructuralPass::CompactIds => {
                    plan.compact = true;
                    3
                }
                _ => return None,
            };
            if s <= stage {
                return None;
            }
            stage = s;
        }
        Some(plan)
    }
}

/// What the scan finds.
#[derive(Default)]
struct Scan {
    /// The kind of each imported set, by import id.
    kinds: BTreeMap<u32, SetKind>,
    /// The offsets of the imports.
    imports: Vec<usize>,
    /// `OpString` results.
    strings: Vec<u32>,
    /// The offsets of the non-semantic extended instructions.
    non_semantic: Vec<usize>,
    /// The results of the debug-info sets' instructions.
    debug_results: Vec<u32>,
    /// Whether the module has debug lines or debug-info instructions.
    debug: bool,
    /// What `--switch-descriptorset` needs of the decorations.
    moves: Option<SetMoves>,
    /// Every operand of the group decorations.
    grouped: Vec<u32>,
    /// The variables before the first function or graph, in order.
    globals: Vec<u32>,
}

/// The instruction kinds the scan tells apart, by opcode.
fn scan(words: &[u32], plan: &Plan) -> Option<Scan> {
    let mut s = Scan {
        moves: plan.switch.map(|(from, _)| SetMoves::new(from)),
        ..Scan::default()
    };
    let mut at = 5;
    let mut index = 0u32;
    let mut global = true;
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        let inst = words.get(at..at + count).filter(|_| count > 0)?;
        match O(inst[0] as u16) {
            O::ExtInstImport => {
                let name = spirv_core::codec::string_operand(inst.get(2..).unwrap_or(&[]));
                let kind = SetKind::of(&name);
                s.debug |= kind.is_debug_info();
                s.kinds.insert(*inst.get(1)?, kind);
                s.imports.push(at);
            }
            O::ExtInst | O::ExtInstWithForwardRefsKHR => {
                match inst.get(3).and_then(|set| s.kinds.get(set)) {
                    Some(k) if k.is_debug_info() => s.debug_results.push(*inst.get(2)?),
                    _ => {}
                }
                if inst
                    .get(3)
                    .and_then(|set| s.kinds.get(set))
                    .is_some_and(|k| k.is_non_semantic())
                {
                    s.non_semantic.push(at);
                }
            }
            O::String => s.strings.push(*inst.get(1)?),
            O::Line | O::NoLine => s.debug = true,
            op @ (O::GroupDecorate
            | O::GroupMemberDecorate
            | O::Decorate
            | O::DecorateId
            | O::DecorateString
            | O::MemberDecorate) => {
                if matches!(op, O::GroupDecorate | O::GroupMemberDecorate) {
                    s.grouped.extend_from_slice(&inst[1..]);
                }
                if let Some(moves) = s.moves.as_mut() {
                    moves.annotation(index, inst);
                }
            }
            O::Variable if global && s.moves.is_some() => s.globals.push(*inst.get(2)?),
            O::Function | O::GraphARM | O::GraphEntryPointARM => global = false,
            _ => {}
        }
        at += count;
        index += 1;
    }
    Some(s)
}

/// The ids a non-semantic instruction uses among `strings` (sorted): the strings
/// `--strip-debug` keeps.
fn kept_strings(words: &[u32], s: &Scan, registry: &ExtInstRegistry) -> Option<Vec<u32>> {
    let mut kept = Vec::new();
    if s.strings.is_empty() || s.non_semantic.is_empty() {
        return Some(kept);
    }
    // An extended instruction is laid out by its set alone: the imports are all the
    // facts its walk reads.
    let mut ids = Ids::new(0);
    for &at in &s.imports {
        let inst = &words[at..at + (words[at] >> 16) as usize];
        let info = spv::GRAMMAR.instruction(inst[0] & 0xffff)?;
        observe_lenient(&mut ids, registry, info, inst[0] as u16, &inst[1..]).ok()?;
    }
    // Which strings are used, by their place among `strings` (sorted). Debug-info
    // modules name every type and variable with a string and use each many times: the
    // places are looked up in a table over the strings' ids when that table is no
    // larger than the module, else searched.
    let mut used = vec![false; s.strings.len()];
    let (low, high) = (s.strings[0], s.strings[s.strings.len() - 1]);
    let span = (high - low) as usize + 1;
    let mut places: Vec<u32> = Vec::new();
    if span <= words.len() {
        places.resize(span, 0);
        for (k, &id) in s.strings.iter().enumerate() {
            places[(id - low) as usize] = k as u32 + 1;
        }
    }
    for &at in &s.non_semantic {
        let inst = &words[at..at + (words[at] >> 16) as usize];
        let info = spv::GRAMMAR.instruction(inst[0] & 0xffff)?;
        let ops = &inst[1..];
        let mut note = |_, w: usize| {
            let id = ops[w];
            if !(low..=high).contains(&id) {
                return;
            }
            let place = match places.get((id - low) as usize) {
                Some(&p) => p.checked_sub(1).map(|k| k as usize),
                None => s.strings.binary_search(&id).ok(),
            };
            if let Some(k) = place {
                used[k] = true;
            }
        };
        // Most are laid out by their set in single words.
        if spirv_core::__private::opt::ext_inst(info, ops, &ids, &mut note).is_none() {
            spirv_core::__private::opt::id_words(info, inst[0] as u16, ops, &ids, &mut note)
                .ok()?;
        }
    }
    kept.extend(
        s.strings
            .iter()
            .zip(&used)
            .filter_map(|(&id, &u)| u.then_some(id)),
    );
    Some(kept)
}

/// Calls `f` with the index of each id operand of an instruction kept, as
/// [`walk::id_words`] finds them, and returns what a lenient read records of it; `None`
/// where either would fail (the general path then fails too, or reads it differently).
/// One walk serves both: layouts of plain words need none, and neither do constants
/// whose literal fits their type.
#[inline]
fn lay_out(
    info: &'static InstructionInfo,
    ops: &[u32],
    ids: &Ids,
    f: &mut impl FnMut(usize),
) -> Option<Summary> {
    if spirv_core::__private::opt::shaped_ids(info, ops, &mut |_, w| f(w)) {
        // Where the shape puts them, as a lenient read finds them.
        let shape = info.shape?;
        let at = |i: u8| (i != u8::MAX).then(|| ops[usize::from(i)]);
        return Some(Summary {
            result_type: at(shape.result_type),
            result_id: at(shape.result),
            saw_unknown: false,
        });
    }
    let fast = spirv_core::__private::opt::trailing(info, ops, &mut |_, w| f(w))
        .or_else(|| spirv_core::__private::opt::ext_inst(info, ops, ids, &mut |_, w| f(w)));
    if fast.is_some() {
        return fast;
    }
    // A result type, a result, then a literal its type sizes (`OpConstant`,
    // `OpSpecConstant`), as the grammar lays them out.
    let classes = info.operands.iter().map(|o| (o.kind.class, o.quantifier));
    let typed_literal = [
        (KindClass::ResultType, Quantifier::One),
        (KindClass::Result, Quantifier::One),
        (KindClass::ContextNumber, Quantifier::One),
    ];
    if ops.len() >= 3
        && classes.eq(typed_literal)
        && ids.number_type(Id(ops[0])).and_then(|t| t.words()) == Some(ops.len() - 2)
    {
        f(0);
        f(1);
        return Some(Summary {
            result_type: Some(ops[0]),
            result_id: Some(ops[1]),
            saw_unknown: false,
        });
    }
    let mut unknown = false;
    let summary = walk::walk(info, ops, ids, WalkOptions::default(), &mut |p| {
        unknown |= p.unknown;
        if !unknown && p.kind.is_id() {
            f(p.start);
        }
    })
    .ok()?;
    (!unknown).then_some(summary)
}

/// Runs `passes` on `words` as the module is read, if the stream models them and the
/// module exactly; see the module docs.
pub(crate) fn run(words: &[u32], passes: &[StructuralPass]) -> Option<(Vec<u32>, bool)> {
    let plan = Plan::of(passes)?;
    let (header, iter) = RawInstructions::module(words).ok()?;
    // A byte-swapped module is swapped by the read: left to it.
    if words[0] != spirv_core::binary::MAGIC || header.bound == u32::MAX {
        return None;
    }
    let mut s = scan(words, &plan)?;
    // Without `--strip-debug`, lines would have to be carried and the debug-info sets'
    // globals numbered out of order by `--compact-ids`.
    if s.debug && !plan.strip {
        return None;
    }
    let registry = ExtInstRegistry::default();
    s.strings.sort_unstable();
    let kept = match plan.strip {
        true => kept_strings(words, &s, &registry)?,
        false => Vec::new(),
    };
    // The ids whose names and decorations go with them.
    let mut killed: Vec<u32> = Vec::new();
    if plan.strip {
        killed.extend(s.debug_results.iter().copied());
        killed.extend(
            s.strings
                .iter()
                .copied()
                .filter(|id| kept.binary_search(id).is_err()),
        );
        killed.sort_unstable();
    }
    // spirv-opt's `KillNamesAndDecorates` rewrites group decorations that name a
    // killed id: left to the general path.
    if !s.grouped.is_empty() && !killed.is_empty() {
        s.grouped.sort_unstable();
        if killed.iter().any(|k| s.grouped.binary_search(k).is_ok()) {
            return None;
        }
    }
    let (switched, to) = match (&s.moves, plan.switch) {
        (Some(moves), Some((_, to))) => (moves.moved(s.globals.iter().copied(), to), to),
        _ => (Vec::new(), 0),
    };

    let mut out: Vec<u32> = Vec::with_capacity(words.len());
    out.extend_from_slice(&header.to_words());
    let mut ids = Ids::new(words.len());
    let mut layout = Layout::new();
    let mut renumber = Renumbering::new(words.len());
    // Sized by the module's length at most, not by what the header claims.
    spirv_core::__private::opt::reserve_ids_below(&mut ids, header.bound);
    if plan.compact {
        renumber.reserve_below(header.bound);
    }
    let mut next_switched = switched.iter().copied().peekable();
    let mut scratch: Vec<u32> = Vec::new();
    let (mut max, mut stripped) = (0u32, false);
    let mut count = 0u32;
    for raw in iter {
        let raw = raw.ok()?;
        let index = raw.index as u32;
        count = index + 1;
        let opcode = O(raw.opcode);
        let info = spv::GRAMMAR.instruction(u32::from(raw.opcode))?;
        let issues = layout.issue_count();
        layout.step(index, raw.offset, opcode, Some(info));
        if layout.issue_count() != issues {
            return None;
        }
        let ops = raw.operands;
        // The debug sections' instructions go, strings but those kept. With a clean
        // layout an opcode's section is where it stands, and none is in a function.
        let debug_section = || {
            !layout.in_function()
                && matches!(
                    // The debug sections are named by opcode: no class to look up.
                    Section::of(opcode, None),
                    Some(Section::DebugSource | Section::DebugName | Section::DebugModuleProcessed)
                )
        };
        // `--strip-debug`'s rule, then the decorations of what it kills.
        let removed = plan.strip && {
            let set = match opcode {
                O::ExtInst | O::ExtInstWithForwardRefsKHR => {
                    ops.get(2).and_then(|set| s.kinds.get(set)).copied()
                }
                _ => None,
            };
            let kept_string =
                opcode == O::String && ops.first().is_some_and(|id| kept.binary_search(id).is_ok());
            match strip::decide(opcode, set, debug_section, kept_string) {
                Strip::Drop | Strip::Kill => true,
                Strip::Keep => {
                    matches!(
                        opcode,
                        O::Decorate | O::DecorateId | O::DecorateString | O::MemberDecorate
                    ) && !killed.is_empty()
                        && ops.first().is_some_and(|t| killed.binary_search(t).is_ok())
                }
            }
        };
        if removed || opcode == O::Nop {
            stripped |= removed;
            // Read as the general path reads it, to fail where it fails.
            observe_lenient(&mut ids, &registry, info, raw.opcode, ops).ok()?;
            continue;
        }
        // A walk that sizes literals by the selector's type must find the type the
        // general path's walk finds: defined before, and by an instruction kept.
        if opcode == O::Switch {
            let selector = *ops.first()?;
            if ids.get(Id(selector)) == IdInfo::Undefined || killed.binary_search(&selector).is_ok()
            {
                return None;
            }
        }
        let start = out.len();
        out.extend_from_slice(&words[raw.offset..raw.offset + 1 + ops.len()]);
        let walked: &[u32] = if next_switched.next_if_eq(&index).is_some() {
            out[start + 3] = to;
            scratch.clear();
            scratch.extend_from_slice(&out[start + 1..]);
            &scratch
        } else {
            ops
        };
        if !core::ptr::eq(walked, ops) {
            // The general path reads the instruction as it was, then as rewritten.
            observe_lenient(&mut ids, &registry, info, raw.opcode, ops).ok()?;
        }
        let written = &mut out[start + 1..];
        let summary = lay_out(info, walked, &ids, &mut |w| {
            let id = &mut written[w];
            if plan.compact {
                *id = renumber.number(*id);
            } else {
                max = max.max(*id);
            }
        })?;
        walk::observe(&mut ids, &registry, raw.opcode, walked, &summary).ok()?;
    }
    layout.finish(count);
    let mut renamed = false;
    if plan.compact {
        // Every id written was numbered: the largest, and whether any moved, are the
        // table's.
        (max, renamed) = renumber.largest_and_moved();
    }
    if layout.issue_count() != 0 || max >= u32::MAX - 1 {
        return None;
    }
    let moved = !switched.is_empty();
    let mut changed = stripped || moved;
    let bound = if plan.compact {
        let bound = renumber.last() + 1;
        // Compared with the module before it: as written by an earlier pass, else as
        // read.
        changed |= if plan.strip || moved {
            renamed || header.bound.max(max + 1) != bound
        } else {
            header.bound != bound || out[5..] != words[5..]
        };
        bound
    } else if changed {
        max + 1
    } else {
        header.bound.max(max + 1)
    };
    out[3] = bound;
    Some((out, changed))
}
