//! spirv-val's built-in rules (`ValidateBuiltIns` in `validate_builtins.cpp`), the
//! engine: each `BuiltIn` decoration is checked at its definition (in id order) and
//! seeds rules on its id; then every instruction that names an id with rules is
//! checked against them, in module order, knowing the execution models of the
//! function it is in; a rule that holds on a global instruction passes on to that
//! instruction's result (a struct type to its pointer type, to its variable). The
//! rules of each built-in are in `builtin_rules.rs`; built-ins without rules there
//! are not checked yet (all rules but `WorkgroupSize`'s hold only under Vulkan).

use super::Fault;
use super::Query;
use super::builtin_rules;
use super::error::ErrorKind;
use super::mode_text::ModeError;
use super::validation_state::EntryCalls;
use super::validation_state::IdBits;
use super::validation_state::NO_MEMBER;
use crate::__private::{String, Vec};
use crate::grammar::KindClass;
use crate::spv::{self, Opcode as O};
use alloc::collections::{BTreeMap, BTreeSet};

/// A `BuiltIn` decoration: which built-in, and the struct member (-1 for none).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Dec {
    pub(super) builtin: u32,
    pub(super) member: i64,
}

/// A rule waiting on an id: the decoration, the decorated instruction, the id that
/// led to it (`referenced_inst`), and what it checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Rule {
    pub(super) dec: Dec,
    pub(super) built_in: u32,
    pub(super) referenced: u32,
    pub(super) check: Check,
}

/// What a rule checks: the built-in's own rule, or one that a rule leaves behind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Check {
    Own,
    /// `ValidateNotCalledWithExecutionModel`: not under this execution model (the
    /// VUID tells the message).
    NotWith {
        model: u32,
        vuid: u32,
    },
    /// `ValidateMeshBuiltinInterfaceRules` (integer built-ins).
    Mesh,
    /// `ValidateNonMeshInterfaceRules`.
    NonMesh,
}

/// The state of the walk: what spirv-val's `BuiltInsValidator` keeps.
pub(super) struct Walk<'q, 'a> {
    pub(super) q: &'q Query<'a>,
    pub(super) vulkan: bool,
    /// Rules by the id they wait on, in the order they were added.
    rules: BTreeMap<u32, Vec<Rule>>,
    added: BTreeSet<(u32, Rule)>,
    /// The ids with rules: the walk at reference skips, undecoded, an instruction
    /// that names none.
    keyed: IdBits,
    /// The function being walked, 0 outside functions.
    pub(super) function: u32,
    /// Of the entry points that reach it (`FunctionEntryPoints`), one without
    /// `DepthReplacing` if any: all that spirv-val's rules ask of the list beyond
    /// its models (the FragDepth rule fails on any such entry point, naming none).
    pub(super) entry_points: Vec<u32>,
    /// The execution models they have, ascending.
    pub(super) models: BTreeSet<u32>,
    /// Execution modes by entry point.
    pub(super) modes: BTreeMap<u32, BTreeSet<u32>>,
    /// All entry points, in `OpEntryPoint` order.
    pub(super) all_entry_points: Vec<u32>,
    /// The instruction a rule is being run on (`referenced_from_inst`): its opcode and
    /// index, which instructions without a result id need.
    pub(super) from_op: O,
    pub(super) from_index: u32,
    /// What the rules of `builtin_rules.rs` keep between instructions.
    pub(super) cache: builtin_rules::Cache,
}

impl Walk<'_, '_> {
    /// Leaves `check` of `rule`'s built-in on `from`, the id the rule was just run on,
    /// for the instructions that use it.
    pub(super) fn leave(&mut self, from: u32, rule: &Rule, check: Check) {
        let left = Rule {
            referenced: from,
            check,
            ..*rule
        };
        self.add(from, left);
    }

    /// Adds a rule on `id` (`id_to_at_reference_checks_[id].push_back`); a rule already
    /// there would only repeat its verdict.
    pub(super) fn add(&mut self, id: u32, rule: Rule) {
        if self.added.insert((id, rule)) {
            self.rules.entry(id).or_default().push(rule);
            self.keyed.insert(id);
        }
    }

    /// The fault for `message` at instruction `id`'s definition.
    pub(super) fn fault(&self, id: u32, message: String) -> Fault {
        let at = self.q.state.def(id).map_or(0, |d| d.index);
        Fault::at(ErrorKind::Mode(ModeError::BuiltIn { message }), at)
    }

    /// The fault for `message` at the instruction a rule is being run on.
    pub(super) fn fault_from(&self, message: String) -> Fault {
        Fault::at(
            ErrorKind::Mode(ModeError::BuiltIn { message }),
            self.from_index,
        )
    }
}

/// Checks the module; hands each fault to `report`, which says whether to go on.
pub(super) fn check(q: &Query<'_>, calls: &EntryCalls, report: &mut dyn FnMut(Fault) -> bool) {
    let mut modes: BTreeMap<u32, BTreeSet<u32>> = BTreeMap::new();
    for inst in q.module.instructions() {
        if matches!(inst.opcode(), O::ExecutionMode | O::ExecutionModeId) {
            let w = inst.words();
            if let (Some(&e), Some(&m)) = (w.get(1), w.get(2)) {
                modes.entry(e).or_default().insert(m);
            }
        }
    }
    let mut walk = Walk {
        q,
        vulkan: q.state.options.target_env.is_vulkan(),
        rules: BTreeMap::new(),
        added: BTreeSet::new(),
        keyed: IdBits::new(q.state),
        function: 0,
        entry_points: Vec::new(),
        models: BTreeSet::new(),
        modes,
        all_entry_points: calls.entries.iter().map(|d| d.function).collect(),
        from_op: O::Nop,
        from_index: 0,
        cache: builtin_rules::Cache::default(),
    };
    // At definition, by id.
    let mut decorated: Vec<(u32, Dec)> = Vec::new();
    let mut found = Vec::new();
    for id in q.decorations.targets() {
        q.decorations
            .collect(id, &[spv::Decoration::BuiltIn.0], &mut found);
        for d in &found {
            let builtin = d.params.first().copied().unwrap_or(u32::MAX);
            let member = if d.member == NO_MEMBER {
                -1
            } else {
                i64::from(d.member)
            };
            decorated.push((id, Dec { builtin, member }));
        }
    }
    for (id, dec) in decorated {
        let Some(def) = q.state.def(id) else {
            continue;
        };
        walk.from_op = q.opcode(id);
        walk.from_index = def.index;
        if let Err(f) = builtin_rules::definition(&mut walk, dec, id) {
            if !report(f) {
                return;
            }
        }
    }
    if walk.rules.is_empty() {
        return;
    }
    // At reference, in module order.
    let (models, without_depth) = function_entry_points(calls, &walk.modes);
    let mut operands = Vec::new();
    let mut function_index = 0usize;
    for index in 0..q.module.len() {
        // Rules are added only on the result id, which an instruction's own walk skips:
        // one naming no id with rules when it is reached runs none.
        let Some(raw) = q.module.instruction(index) else {
            continue;
        };
        if !matches!(raw.opcode(), O::Function | O::FunctionEnd)
            && !walk.keyed.may_name(raw.words())
        {
            continue;
        }
        let Some(inst) =
            super::validation_state::decode(q.module, q.state, index, &mut operands, true)
        else {
            continue;
        };
        match inst.opcode {
            O::Function => {
                walk.function = inst.result_id;
                walk.entry_points = without_depth
                    .get(function_index)
                    .copied()
                    .flatten()
                    .into_iter()
                    .collect();
                walk.models = models
                    .get(function_index)
                    .map(|m| m.iter().copied().collect())
                    .unwrap_or_default();
                function_index += 1;
            }
            O::FunctionEnd => {
                walk.function = 0;
                walk.entry_points.clear();
                walk.models.clear();
            }
            _ => {}
        }
        walk.from_op = inst.opcode;
        walk.from_index = index as u32;
        let mut checked = BTreeSet::new();
        for op in inst.operands {
            if !matches!(op.kind.class, KindClass::Id | KindClass::ResultType) {
                continue;
            }
            let Some(&id) = inst.words.get(op.offset) else {
                continue;
            };
            // Only ids with rules need the set: rules are added on the result id alone,
            // which is skipped, so no id gains rules before its later repeats.
            if id == inst.result_id || !walk.rules.contains_key(&id) || !checked.insert(id) {
                continue;
            }
            let Some(list) = walk.rules.get(&id).cloned() else {
                continue;
            };
            for rule in list {
                if let Err(f) = builtin_rules::reference(&mut walk, rule, inst.result_id) {
                    if !report(f) {
                        return;
                    }
                }
            }
        }
    }
}

/// What the rules ask of the entry points that reach each function (spirv-val's
/// `FunctionEntryPoints`), by function position: the execution models they have,
/// ascending, and one of them without `DepthReplacing` (the FragDepth rule asks
/// whether any lacks it; no rule asks more of the list). One walk per execution model
/// and one for the modes, each visiting a function once, instead of one per entry
/// point, whose lists would hold every entry point for every function of a shared
/// call chain.
fn function_entry_points(
    calls: &EntryCalls,
    modes: &BTreeMap<u32, BTreeSet<u32>>,
) -> (Vec<Vec<u32>>, Vec<Option<u32>>) {
    let n = calls.functions.len();
    let mut by_model: BTreeMap<u32, BTreeSet<u32>> = BTreeMap::new();
    for d in &calls.entries {
        by_model.entry(d.model).or_default().insert(d.function);
    }
    let mut models: Vec<Vec<u32>> = Vec::new();
    models.resize_with(n, Vec::new);
    let mut mark = alloc::vec![0u32; n];
    for (stamp, (&model, roots)) in by_model.iter().enumerate() {
        calls.flood(roots.iter().copied(), &mut mark, stamp as u32 + 1, |f| {
            models[f].push(model);
            true
        });
    }
    let replacing = spv::ExecutionMode::DepthReplacing.0;
    let mut without: Vec<Option<u32>> = alloc::vec![None; n];
    let mut mark = alloc::vec![0u32; n];
    for root in calls.entry_functions() {
        if !modes.get(&root).is_some_and(|m| m.contains(&replacing)) {
            calls.flood([root], &mut mark, 1, |f| {
                without[f] = Some(root);
                true
            });
        }
    }
    (models, without)
}
