//! The optimizer's context (spirv-opt's `IRContext`): the IR, the analyses built on
//! first use and dropped when a pass that changed the module does not preserve them,
//! and the edits that keep the valid analyses up to date (killing an instruction with
//! its names and decorations, replacing uses, adding global instructions, making the
//! type and constant instructions a pass asks for). Passes call these as spirv-opt's
//! passes call the `IRContext`'s, in the same order, so that fresh ids and the order of
//! new instructions come out the same. The debug-information edits (spirv-opt's
//! `DebugInfoManager`) are in `debug_info.rs`'s `impl` of the context, the type and
//! constant instructions it makes in `types.rs`'s.

use crate::analysis::Analyses;
use crate::analysis::call_graph;
use crate::analysis::cfg::Cfg;
use crate::analysis::constants::{Const, ConstRef, Constants};
use crate::analysis::decorations::Decorations;
use crate::analysis::def_use::DefUse;
use crate::analysis::dominators::DomTree;
use crate::analysis::features::Features;
use crate::analysis::names::Names;
use crate::analysis::struct_cfg::StructCfg;
use crate::analysis::types::{Ty, TypeRef, Types};
use crate::ir::{DebugScope, Func, Inst, InstData, Ir, Kind, Operand, Section};
use spirv_core::spv::Opcode as O;
use std::collections::{HashMap, HashSet, VecDeque};

mod debug_info;
mod types;

/// The options a module is optimized with (spirv-opt's `OptimizerOptions` that reach
/// the passes).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ContextOptions {
    /// `--preserve-bindings`: keep unused descriptor variables.
    pub preserve_bindings: bool,
    /// `--preserve-spec-constants`: keep unused specialization constants.
    pub preserve_spec_constants: bool,
}

/// A module being optimized, with its analyses.
#[derive(Debug, Clone)]
pub struct Context {
    /// The module.
    pub ir: Ir,
    /// Options.
    pub options: ContextOptions,
    /// Whether an id could not be taken (spirv-opt's `id_overflow`).
    pub id_overflow: bool,
    /// The warnings passes gave spirv-opt's message consumer, in order, not yet handed
    /// on (the optimizer drains them after each pass).
    pub warnings: Vec<String>,
    valid: Analyses,
    def_use: Option<DefUse>,
    decorations: Option<Decorations>,
    cfg: Option<Cfg>,
    /// Boxed, so that a module of many small functions keeps a table of small entries.
    dominators: HashMap<Func, Box<DomTree>>,
    post_dominators: HashMap<Func, Box<DomTree>>,
    struct_cfg: Option<StructCfg>,
    types: Option<Types>,
    constants: Option<Constants>,
    names: Option<Names>,
    features: Option<Features>,
    id_to_func: Option<HashMap<u32, Func>>,
    debug_info_none: Option<Inst>,
    empty_debug_expr: Option<Inst>,
    deref_operation: Option<Inst>,
    dbg_decls: HashMap<u32, Vec<Inst>>,
    dbg_insts: HashMap<u32, Inst>,
    /// While [`Context::with_decoration_classes`] runs: decoration signatures by class.
    signature_classes: Option<SignatureClasses>,
}

/// A decoration signature: by kind of instruction, each decoration's words after the
/// target.
type Signature = [std::collections::BTreeSet<Vec<u32>>; 4];

/// The classes of decoration signatures handed out while value numbers are built: an
/// id decorated only through groups (a group on 100,000 targets) takes the class of its
/// list of groups, worked out once, instead of its own copy of the groups' decorations.
#[derive(Debug, Clone, Default)]
struct SignatureClasses {
    by_signature: HashMap<Signature, u32>,
    by_groups: HashMap<Vec<u32>, u32>,
}

/// The call an inliner is replacing, for the `DebugInlinedAt` chains of the inlined
/// instructions (spirv-opt's `DebugInlinedAtContext`).
#[derive(Debug, Clone, Default)]
pub struct InlinedAtContext {
    /// The call's first debug line (`dbg_line_inst`).
    pub line: Option<Inst>,
    /// The call's debug scope.
    pub scope: DebugScope,
    chains: HashMap<u32, u32>,
}

impl InlinedAtContext {
    /// The context of the call `call`.
    pub fn new(ir: &Ir, call: Inst) -> InlinedAtContext {
        InlinedAtContext {
            line: ir.lines(call).first().copied(),
            scope: ir.scope(call),
            chains: HashMap::new(),
        }
    }
}

impl Context {
    /// A context over `ir`, no analysis built.
    pub fn new(ir: Ir) -> Context {
        Context {
            ir,
            options: ContextOptions::default(),
            id_overflow: false,
            warnings: Vec::new(),
            valid: Analyses::NONE,
            def_use: None,
            decorations: None,
            cfg: None,
            dominators: HashMap::new(),
            post_dominators: HashMap::new(),
            struct_cfg: None,
            types: None,
            constants: None,
            names: None,
            features: None,
            id_to_func: None,
            debug_info_none: None,
            empty_debug_expr: None,
            deref_operation: None,
            dbg_decls: HashMap::new(),
            dbg_insts: HashMap::new(),
            signature_classes: None,
        }
    }

    // ---- analyses: validity ----

    /// Whether every analysis of `a` is built and current (`AreAnalysesValid`).
    pub fn are_valid(&self, a: Analyses) -> bool {
        self.valid.contains(a)
    }

    /// Drops the analyses of `a` (`InvalidateAnalyses`): the types take the constants
    /// with them, the CFG the dominators.
    pub fn invalidate(&mut self, a: Analyses) {
        let mut a = a;
        if a.contains(Analyses::TYPES) {
            a |= Analyses::CONSTANTS | Analyses::DEBUG_INFO;
        }
        if a.contains(Analyses::CFG) {
            a |= Analyses::DOMINATORS;
        }
        if a.contains(Analyses::DEF_USE) {
            self.def_use = None;
        }
        if a.contains(Analyses::DECORATIONS) {
            self.decorations = None;
        }
        if a.contains(Analyses::CFG) {
            self.cfg = None;
        }
        if a.contains(Analyses::DOMINATORS) {
            self.dominators.clear();
            self.post_dominators.clear();
        }
        if a.contains(Analyses::NAME_MAP) {
            self.names = None;
        }
        if a.contains(Analyses::STRUCTURED_CFG) {
            self.struct_cfg = None;
        }
        if a.contains(Analyses::ID_TO_FUNC) {
            self.id_to_func = None;
        }
        if a.contains(Analyses::CONSTANTS) {
            self.constants = None;
        }
        if a.contains(Analyses::TYPES) {
            self.types = None;
        }
        if a.contains(Analyses::DEBUG_INFO) {
            self.debug_info_none = None;
            self.deref_operation = None;
        }
        self.valid = self.valid & !a;
    }

    /// Drops every analysis but those of `preserved` (`InvalidateAnalysesExceptFor`).
    pub fn invalidate_except(&mut self, preserved: Analyses) {
        let drop = self.valid & !preserved;
        self.invalidate(drop);
    }

    fn mark_valid(&mut self, a: Analyses) {
        self.valid |= a;
    }

    // ---- ids ----

    /// Takes the next id (`TakeNextId`); `None` (and [`Context::id_overflow`] set) when
    /// the bound is at its maximum.
    pub fn take_next_id(&mut self) -> Option<u32> {
        let id = self.ir.take_next_id();
        if id.is_none() {
            self.id_overflow = true;
        }
        id
    }

    // ---- def-use ----

    /// The def-use analysis, built if needed (`get_def_use_mgr`).
    pub fn def_use(&mut self) -> &mut DefUse {
        if !self.are_valid(Analyses::DEF_USE) || self.def_use.is_none() {
            self.def_use = Some(DefUse::build(&self.ir));
            self.mark_valid(Analyses::DEF_USE);
        }
        self.def_use.as_mut().expect("built")
    }

    /// Def-use (built if needed) with the module, to record an instruction's definition
    /// and uses apart (`AnalyzeInstDef`, `AnalyzeInstUse`).
    pub fn def_use_ir(&mut self) -> (&mut DefUse, &Ir) {
        self.def_use();
        (self.def_use.as_mut().expect("built"), &self.ir)
    }

    /// The instruction defining `id` (`GetDef`).
    pub fn get_def(&mut self, id: u32) -> Option<Inst> {
        self.def_use().def(id)
    }

    /// The users of `id`, each once, in spirv-opt's order (`ForEachUser`).
    pub fn users(&mut self, id: u32) -> Vec<Inst> {
        let (du, ir) = self.def_use_ir();
        du.users(ir, id)
    }

    /// Whether some user of `id` passes `pred` ([`DefUse::any_user`]): O(1) a question
    /// where [`Context::users`] is linear in the users.
    pub(crate) fn any_user(&mut self, id: u32, mut pred: impl FnMut(&Ir, Inst) -> bool) -> bool {
        let (du, ir) = self.def_use_ir();
        du.any_user(ir, id, |u| pred(ir, u))
    }

    /// The uses of `id`: user and operand index (`ForEachUse`).
    pub fn uses(&mut self, id: u32) -> Vec<(Inst, usize)> {
        let (du, ir) = self.def_use_ir();
        du.uses(ir, id)
    }

    /// Records `i`'s definition and uses, and its lines', if def-use is valid
    /// (`AnalyzeDefUse`).
    pub fn analyze_def_use(&mut self, i: Inst) {
        if self.are_valid(Analyses::DEF_USE) {
            let (du, ir) = self.def_use_ir();
            du.analyze_def_use(ir, i);
        }
    }

    /// Records `i`'s uses (and its decoration, if it is one) in the valid analyses
    /// (`AnalyzeUses`).
    pub fn analyze_uses(&mut self, i: Inst) {
        if self.are_valid(Analyses::DEF_USE) {
            let (du, ir) = self.def_use_ir();
            du.analyze_uses(ir, i);
        }
        if self.are_valid(Analyses::DECORATIONS) && is_decoration(self.ir.opcode(i)) {
            if let Some(d) = self.decorations.as_mut() {
                d.add(&self.ir, i);
            }
        }
        if let Some(n) = self.names.as_mut() {
            n.add(&self.ir, i);
        }
    }

    /// Forgets `i`'s uses (and its decoration, name) before it changes (`ForgetUses`).
    /// Uses are dropped lazily here, so only the decoration and name need it.
    pub fn forget_uses(&mut self, i: Inst) {
        if self.are_valid(Analyses::DECORATIONS) && is_decoration(self.ir.opcode(i)) {
            if let Some(d) = self.decorations.as_mut() {
                d.remove(&self.ir, i);
            }
        }
        if let Some(n) = self.names.as_mut() {
            n.remove(&self.ir, i);
        }
    }

    /// Forgets `i`'s definition and uses in def-use, if it is valid (`ClearInst`).
    pub fn clear_inst(&mut self, i: Inst) {
        if self.are_valid(Analyses::DEF_USE) {
            let ir = &self.ir;
            if let Some(du) = self.def_use.as_mut() {
                du.clear_inst(ir, i);
            }
        }
    }

    /// `UpdateDefUse`: the definition if its id has none, and the uses.
    pub fn update_def_use(&mut self, i: Inst) {
        if self.are_valid(Analyses::DEF_USE) {
            let (du, ir) = self.def_use_ir();
            du.update_def_use(ir, i);
        }
    }

    // ---- other analyses ----

    /// The features, built if needed (`get_feature_mgr`).
    pub fn features(&mut self) -> &Features {
        if self.features.is_none() {
            self.features = Some(Features::build(&self.ir));
        }
        self.features.as_ref().expect("built")
    }

    /// Drops the features (`ResetFeatureManager`).
    pub fn reset_features(&mut self) {
        self.features = None;
    }

    /// Whether the module has the capability (declared or implied).
    pub fn has_capability(&mut self, cap: u32) -> bool {
        self.features().has_capability(cap)
    }

    /// The decorations, built if needed (`get_decoration_mgr`).
    pub fn decorations(&mut self) -> &mut Decorations {
        if !self.are_valid(Analyses::DECORATIONS) || self.decorations.is_none() {
            self.decorations = Some(Decorations::build(&self.ir));
            self.mark_valid(Analyses::DECORATIONS);
        }
        self.decorations.as_mut().expect("built")
    }

    /// The decorations applying to `id` (`GetDecorationsFor`).
    pub fn decorations_for(&mut self, id: u32, include_linkage: bool) -> Vec<Inst> {
        self.decorations();
        let d = self.decorations.as_ref().expect("built");
        d.decorations_for(&self.ir, id, include_linkage)
    }

    /// Whether `id` has decoration `decoration` (`HasDecoration`).
    pub fn has_decoration(&mut self, id: u32, decoration: u32) -> bool {
        self.decorations();
        let d = self.decorations.as_ref().expect("built");
        d.has_decoration(&self.ir, id, decoration)
    }

    /// Whether every decoration of `id1` is one of `id2`'s (`HaveSubsetOfDecorations`).
    pub fn have_subset_of_decorations(&mut self, id1: u32, id2: u32) -> bool {
        self.decorations();
        let d = self.decorations.as_ref().expect("built");
        d.have_subset_of_decorations(&self.ir, id1, id2)
    }

    /// `id`'s decorations as `HaveTheSameDecorations` compares them (by kind of
    /// instruction, each as its words after the target); `None` when nothing names `id`.
    /// Inside [`Context::with_decoration_classes`], a stand-in: one set holding the
    /// signature's class number, equal for equal signatures (all sets empty for none).
    pub(crate) fn decoration_signature(&mut self, id: u32) -> Option<Signature> {
        self.decorations();
        let d = self.decorations.as_ref().expect("built");
        let t = d.target(id)?;
        let Some(classes) = self.signature_classes.as_mut() else {
            return Some(d.payloads(&self.ir, id));
        };
        let linkage = spirv_core::spv::Decoration::LinkageAttributes.0;
        let only_groups = t.direct.iter().all(|&i| {
            let data = self.ir.data(i);
            data.opcode() == O::Decorate && data.in_word(1) == linkage
        });
        let groups: Option<Vec<u32>> = only_groups.then(|| {
            t.indirect
                .iter()
                .map(|&g| self.ir.data(g).in_word(0))
                .collect()
        });
        let class = match groups.as_ref().and_then(|g| classes.by_groups.get(g)) {
            Some(&c) => c,
            None => {
                let full = d.payloads(&self.ir, id);
                let c = if full.iter().all(std::collections::BTreeSet::is_empty) {
                    0
                } else {
                    let next = classes.by_signature.len() as u32 + 1;
                    *classes.by_signature.entry(full).or_insert(next)
                };
                if let Some(g) = groups {
                    classes.by_groups.insert(g, c);
                }
                c
            }
        };
        let mut sig = Signature::default();
        if class != 0 {
            sig[0].insert(vec![class]);
        }
        Some(sig)
    }

    /// Runs `f` (a build of the value numbers, which reads decorations and changes
    /// none) with [`Context::decoration_signature`] handing out classes.
    pub(crate) fn with_decoration_classes<T>(&mut self, f: impl FnOnce(&mut Context) -> T) -> T {
        self.signature_classes = Some(SignatureClasses::default());
        let out = f(self);
        self.signature_classes = None;
        out
    }

    /// The names, built if needed.
    pub fn names(&mut self) -> &Names {
        if !self.are_valid(Analyses::NAME_MAP) || self.names.is_none() {
            self.names = Some(Names::build(&self.ir));
            self.mark_valid(Analyses::NAME_MAP);
        }
        self.names.as_ref().expect("built")
    }

    /// The control-flow graph, built if needed (`cfg()`).
    pub fn cfg(&mut self) -> &mut Cfg {
        if !self.are_valid(Analyses::CFG) || self.cfg.is_none() {
            self.cfg = Some(Cfg::build(&self.ir));
            self.mark_valid(Analyses::CFG);
        }
        self.cfg.as_mut().expect("built")
    }

    /// The graph and the IR together, for queries that read both.
    pub fn cfg_ir(&mut self) -> (&mut Cfg, &mut Ir) {
        self.cfg();
        (self.cfg.as_mut().expect("built"), &mut self.ir)
    }

    /// `f`'s dominator tree, built if needed (`GetDominatorAnalysis`).
    pub fn dominators(&mut self, f: Func) -> &DomTree {
        if !self.are_valid(Analyses::DOMINATORS) {
            self.dominators.clear();
            self.post_dominators.clear();
            self.mark_valid(Analyses::DOMINATORS);
        }
        self.cfg();
        let ir = &self.ir;
        self.dominators
            .entry(f)
            .or_insert_with(|| Box::new(DomTree::build(ir, f, false)))
    }

    /// `f`'s dominator tree with the module, to ask about instructions.
    pub fn dominators_ir(&mut self, f: Func) -> (&DomTree, &Ir) {
        self.dominators(f);
        (&self.dominators[&f], &self.ir)
    }

    /// `f`'s post-dominator tree, built if needed (`GetPostDominatorAnalysis`).
    pub fn post_dominators(&mut self, f: Func) -> &DomTree {
        if !self.are_valid(Analyses::DOMINATORS) {
            self.dominators.clear();
            self.post_dominators.clear();
            self.mark_valid(Analyses::DOMINATORS);
        }
        self.cfg();
        let ir = &self.ir;
        self.post_dominators
            .entry(f)
            .or_insert_with(|| Box::new(DomTree::build(ir, f, true)))
    }

    /// Drops `f`'s dominator tree (`RemoveDominatorAnalysis`).
    pub fn remove_dominators(&mut self, f: Func) {
        self.dominators.remove(&f);
    }

    /// The structured control-flow analysis, built if needed.
    pub fn struct_cfg(&mut self) -> &StructCfg {
        if !self.are_valid(Analyses::STRUCTURED_CFG) || self.struct_cfg.is_none() {
            let shader = self.has_capability(spirv_core::spv::Capability::Shader.0);
            self.cfg();
            let s = StructCfg::build(&self.ir, self.cfg.as_ref().expect("built"), shader);
            self.struct_cfg = Some(s);
            self.mark_valid(Analyses::STRUCTURED_CFG);
        }
        self.struct_cfg.as_ref().expect("built")
    }

    /// The structured control-flow analysis with the CFG and the IR, for its queries
    /// that read all three.
    pub fn struct_cfg_cfg_ir(&mut self) -> (&StructCfg, &Cfg, &Ir) {
        self.struct_cfg();
        (
            self.struct_cfg.as_ref().expect("built"),
            self.cfg.as_ref().expect("built"),
            &self.ir,
        )
    }

    /// The function whose id is `id` (`GetFunction`).
    pub fn get_function(&mut self, id: u32) -> Option<Func> {
        if !self.are_valid(Analyses::ID_TO_FUNC) || self.id_to_func.is_none() {
            let map = self
                .ir
                .functions()
                .iter()
                .map(|&f| (self.ir.func_id(f), f))
                .collect();
            self.id_to_func = Some(map);
            self.mark_valid(Analyses::ID_TO_FUNC);
        }
        self.id_to_func.as_ref().and_then(|m| m.get(&id).copied())
    }

    /// The type manager, built if needed (`get_type_mgr`).
    pub fn types(&mut self) -> &mut Types {
        if !self.are_valid(Analyses::TYPES) || self.types.is_none() {
            self.decorations();
            let decs = self.decorations.as_ref().expect("built");
            let ir = &self.ir;
            let t = Types::build(ir, &|id| decs.decorations_for(ir, id, true));
            self.types = Some(t);
            self.mark_valid(Analyses::TYPES);
        }
        self.types.as_mut().expect("built")
    }

    /// The constant manager, built if needed (`get_constant_mgr`).
    pub fn constants(&mut self) -> &mut Constants {
        if !self.are_valid(Analyses::CONSTANTS) || self.constants.is_none() {
            self.types();
            let c = Constants::build(&self.ir, self.types.as_ref().expect("built"));
            self.constants = Some(c);
            self.mark_valid(Analyses::CONSTANTS);
        }
        self.constants.as_mut().expect("built")
    }

    // ---- adding instructions ----

    /// Makes an instruction (not yet in the module).
    pub fn create(&mut self, data: InstData) -> Inst {
        self.ir.create(data)
    }

    /// Makes an instruction of `opcode` with these ids and in-operands.
    pub fn make(&mut self, opcode: O, type_id: u32, result_id: u32, ops: &[Operand]) -> Inst {
        self.ir
            .create(InstData::new(opcode, type_id, result_id, ops))
    }

    /// Appends a type instruction to the types and values (`AddType`).
    pub fn add_type(&mut self, i: Inst) {
        self.ir.push_global(Section::TypesValues, i);
        self.analyze_def_use(i);
    }

    /// Appends a global value (`AddGlobalValue`).
    pub fn add_global_value(&mut self, i: Inst) {
        self.analyze_def_use(i);
        self.ir.push_global(Section::TypesValues, i);
    }

    /// Appends an annotation (`AddAnnotationInst`).
    pub fn add_annotation(&mut self, i: Inst) {
        if self.are_valid(Analyses::DECORATIONS) {
            if let Some(d) = self.decorations.as_mut() {
                d.add(&self.ir, i);
            }
        }
        self.analyze_def_use(i);
        self.ir.push_global(Section::Annotation, i);
    }

    /// Appends an `OpName` or `OpMemberName` (`AddDebug2Inst`).
    pub fn add_debug2(&mut self, i: Inst) {
        if self.are_valid(Analyses::NAME_MAP) {
            if let Some(n) = self.names.as_mut() {
                n.add(&self.ir, i);
            }
        }
        self.analyze_def_use(i);
        self.ir.push_global(Section::Debug2, i);
    }

    /// Adds `OpCapability cap` unless the module has it (`AddCapability`).
    pub fn add_capability(&mut self, cap: u32) {
        if self.has_capability(cap) {
            return;
        }
        let i = self.make(O::Capability, 0, 0, &[Operand::new(Kind::Enum, &[cap])]);
        if let Some(f) = self.features.as_mut() {
            f.add_capability(cap);
        }
        self.analyze_def_use(i);
        self.ir.push_global(Section::Capability, i);
    }

    /// Adds `OpExtension name` (`AddExtension`).
    pub fn add_extension(&mut self, name: &str) {
        let i = self.make(O::Extension, 0, 0, &[Operand::string(name)]);
        self.analyze_def_use(i);
        if let Some(f) = self.features.as_mut() {
            f.add_extension(name);
        }
        self.ir.push_global(Section::Extension, i);
    }

    // ---- killing ----

    /// Kills `i` (`KillInst`): its names and decorations, its place in the valid
    /// analyses, and the instruction itself (taken out of its list, or made an
    /// `OpNop` where it is not in one). Returns the instruction that followed it.
    pub fn kill_inst(&mut self, i: Inst) -> Option<Inst> {
        if !self.ir.is_live(i) {
            return None;
        }
        self.kill_names_and_decorates(i);
        self.kill_operand_from_debug_instructions(i);
        let opcode = self.ir.opcode(i);
        if self.are_valid(Analyses::DEF_USE) {
            let ir = &self.ir;
            if let Some(du) = self.def_use.as_mut() {
                du.clear_inst(ir, i);
                for &l in ir.lines(i) {
                    du.clear_inst(ir, l);
                }
            }
        }
        if self.are_valid(Analyses::DECORATIONS) && is_decoration(opcode) {
            if let Some(d) = self.decorations.as_mut() {
                d.remove(&self.ir, i);
            }
        }
        let id = self.ir.result_id(i);
        if crate::ir::load::is_type(opcode) {
            if let Some(t) = self.types.as_mut() {
                t.remove_id(id);
            }
        }
        if spirv_core::__private::opt::is_constant(opcode) {
            if let Some(c) = self.constants.as_mut() {
                c.remove_id(id);
            }
        }
        if matches!(
            opcode,
            O::Capability
                | O::ConditionalCapabilityINTEL
                | O::Extension
                | O::ConditionalExtensionINTEL
        ) {
            self.reset_features();
        }
        if let Some(n) = self.names.as_mut() {
            n.remove(&self.ir, i);
        }
        for k in 0..self.ir.lines(i).len() {
            let l = self.ir.lines(i)[k];
            self.ir.mark_dead(l);
        }
        self.ir.kill_node(i)
    }

    /// Kills the definition of `id`, if any (`KillDef`).
    pub fn kill_def(&mut self, id: u32) -> bool {
        match self.get_def(id) {
            Some(d) => {
                self.kill_inst(d);
                true
            }
            None => false,
        }
    }

    /// Kills the names and decorations of `i`'s result (`KillNamesAndDecorates`).
    pub fn kill_names_and_decorates(&mut self, i: Inst) {
        let id = self.ir.result_id(i);
        if id != 0 {
            self.kill_names_and_decorates_of(id);
        }
    }

    /// Kills the names and decorations of `id`.
    pub fn kill_names_and_decorates_of(&mut self, id: u32) {
        self.remove_decorations_from(id, &|_, _| true);
        let names = self.names().of(id).to_vec();
        for n in names {
            self.kill_inst(n);
        }
    }

    /// Removes the decorations of `id` that `pred` accepts (`RemoveDecorationsFrom`):
    /// its own are killed; a group applied to it stops applying to it (the group's
    /// decorations `pred` refuses are copied to it), and a group applied to nothing
    /// any more is killed.
    pub fn remove_decorations_from(&mut self, id: u32, pred: &dyn Fn(&Ir, Inst) -> bool) -> bool {
        let mut modified = false;
        let Some(info) = self.decorations().target(id).cloned() else {
            return false;
        };
        let mut to_kill: Vec<Inst> = Vec::new();
        let is_group = !info.decorate_insts.is_empty();
        for &i in &info.direct {
            if pred(&self.ir, i) {
                to_kill.push(i);
            }
        }
        let mut indirect_removed: Vec<Inst> = Vec::new();
        for &inst in &info.indirect {
            let group = self.ir.data(inst).in_word(0);
            let group_decorations = self
                .decorations
                .as_ref()
                .and_then(|d| d.target(group))
                .map(|t| t.direct.clone())
                .unwrap_or_default();
            let keep: Vec<Inst> = group_decorations
                .iter()
                .copied()
                .filter(|&g| !pred(&self.ir, g))
                .collect();
            if keep.len() == group_decorations.len() && !group_decorations.is_empty() {
                continue;
            }
            let stride = if self.ir.opcode(inst) == O::GroupDecorate {
                1
            } else {
                2
            };
            // spirv-opt's edit (each occurrence of `id` takes the last target's
            // place), worked on a copy of the operands and written back once: each
            // single-operand edit rebuilt the instruction.
            let d = self.ir.data(inst);
            let found = (1..d.num_in_operands())
                .step_by(stride)
                .any(|k| d.in_word(k) == id);
            if found {
                let skip = d.type_result_count();
                let mut ops = d.operands().split_off(skip);
                let word = |o: &Operand| o.words.first().copied().unwrap_or(0);
                let mut k = 1;
                while k < ops.len() {
                    if word(&ops[k]) != id {
                        k += stride;
                        continue;
                    }
                    let last = ops.len() - stride;
                    if k < last {
                        ops[k] = ops[last].clone();
                    }
                    if stride == 2 {
                        if k < last {
                            ops[k + 1] = ops[last + 1].clone();
                        }
                        if last + 1 < ops.len() {
                            ops.remove(last + 1);
                        }
                    }
                    if last < ops.len() {
                        ops.remove(last);
                    }
                }
                self.ir.data_mut(inst).set_in_operands(&ops);
                modified = true;
            }
            if self.ir.data(inst).num_in_operands() == 1 {
                indirect_removed.push(inst);
                to_kill.push(inst);
            } else if modified {
                self.forget_uses(inst);
                indirect_removed.push(inst);
                self.analyze_uses(inst);
            }
            for g in keep {
                if let Some(c) = self.ir.clone_inst(g) {
                    self.ir.data_mut(c).set_in_operand(0, &[id]);
                    self.ir.push_global(Section::Annotation, c);
                    self.analyze_uses(c);
                }
            }
        }
        if let Some(t) = self.decorations.as_mut().and_then(|d| d.target_mut(id)) {
            t.indirect.retain(|i| !indirect_removed.contains(i));
        }
        modified |= !to_kill.is_empty();
        for i in to_kill {
            self.kill_inst(i);
        }
        let mut to_kill = Vec::new();
        let now = self
            .decorations
            .as_ref()
            .and_then(|d| d.target(id))
            .cloned();
        if let Some(now) = &now {
            if is_group && now.direct.is_empty() && now.indirect.is_empty() {
                to_kill.extend(now.decorate_insts.iter().copied());
            }
        }
        modified |= !to_kill.is_empty();
        for i in to_kill {
            self.kill_inst(i);
        }
        let now = self
            .decorations
            .as_ref()
            .and_then(|d| d.target(id))
            .cloned();
        if let Some(now) = now {
            if now.direct.is_empty() && now.indirect.is_empty() && now.decorate_insts.is_empty() {
                if let Some(d) = self.decorations.as_mut() {
                    d.forget(id);
                }
            }
        }
        modified
    }

    /// `KillOperandFromDebugInstructions`: a debug-info instruction naming a killed
    /// function (`DebugFunction`) or global (`DebugGlobalVariable`) names
    /// `DebugInfoNone` instead.
    fn kill_operand_from_debug_instructions(&mut self, i: Inst) {
        let opcode = self.ir.opcode(i);
        let id = self.ir.result_id(i);
        let is_value = opcode == O::Variable || spirv_core::__private::opt::is_constant(opcode);
        if opcode != O::Function && !is_value {
            return;
        }
        let (opencl, shader) = {
            let f = self.features();
            (f.opencl_debug_info, f.shader_debug_info)
        };
        if opencl == 0 && shader == 0 {
            return;
        }
        let debug: Vec<Inst> = self.ir.section(Section::ExtInstDebugInfo).collect();
        for d in debug {
            let data = self.ir.data(d);
            if data.opcode() != O::ExtInst {
                continue;
            }
            let set = data.in_word(0);
            let number = data.in_word(1);
            // DebugFunction (20) of OpenCL.DebugInfo.100 names its function in operand
            // 13; DebugGlobalVariable (18) of either set its variable in operand 11.
            let at = if opcode == O::Function && set == opencl && number == 20 {
                13
            } else if is_value && (set == opencl || set == shader) && number == 18 {
                11
            } else {
                continue;
            };
            if data.word(at) == id {
                if let Some(none) = self.debug_info_none() {
                    let none_id = self.ir.result_id(none);
                    self.ir.data_mut(d).set_operand(at, &[none_id]);
                    if self.are_valid(Analyses::DEF_USE) {
                        self.analyze_uses(d);
                    }
                }
            }
        }
    }

    /// Whether `i` computes a value from its operands alone (`IsCombinatorInstruction`):
    /// with the `Shader` capability, the opcodes spirv-opt lists, and the
    /// `GLSL.std.450` instructions but `Modf` and `Frexp`.
    pub fn is_combinator(&mut self, i: Inst) -> bool {
        let d = self.ir.data(i);
        let op = d.opcode();
        if op != O::ExtInst {
            return self.has_capability(1) && is_combinator_opcode(op);
        }
        let (set, n) = (d.in_word(0), d.in_word(1));
        self.features().glsl_sets.contains(&set) && (1..=81).contains(&n) && n != 35 && n != 51
    }

    // ---- replacing uses ----

    /// Replaces every use of `before` with `after` (`ReplaceAllUsesWith`).
    pub fn replace_all_uses_with(&mut self, before: u32, after: u32) -> bool {
        self.replace_all_uses_with_predicate(before, after, &|_, _| true)
    }

    /// Replaces the uses of `before` in the users `pred` accepts with `after`
    /// (`ReplaceAllUsesWithPredicate`).
    pub fn replace_all_uses_with_predicate(
        &mut self,
        before: u32,
        after: u32,
        pred: &dyn Fn(&Ir, Inst) -> bool,
    ) -> bool {
        if before == after {
            return false;
        }
        let uses: Vec<(Inst, usize)> = self
            .uses(before)
            .into_iter()
            .filter(|&(u, _)| pred(&self.ir, u))
            .collect();
        let mut prev: Option<Inst> = None;
        for (user, index) in uses {
            if prev != Some(user) {
                self.forget_uses(user);
                prev = Some(user);
            }
            let d = self.ir.data_mut(user);
            let trc = d.type_result_count();
            if index < trc {
                if d.has_type() && index == 0 {
                    d.set_type_id(after);
                }
            } else {
                d.set_operand(index, &[after]);
            }
            self.analyze_uses(user);
        }
        true
    }

    // ---- functions and the call graph ----

    /// Calls `pfn` on each function reachable from the entry points, breadth first
    /// (`ProcessEntryPointCallTree`); whether any call returned true.
    pub fn process_entry_point_call_tree(
        &mut self,
        pfn: &mut dyn FnMut(&mut Context, Func) -> bool,
    ) -> bool {
        let roots = call_graph::entry_point_roots(&self.ir);
        self.process_call_tree_from_roots(pfn, roots)
    }

    /// As [`Context::process_entry_point_call_tree`], exported functions also roots
    /// (`ProcessReachableCallTree`).
    pub fn process_reachable_call_tree(
        &mut self,
        pfn: &mut dyn FnMut(&mut Context, Func) -> bool,
    ) -> bool {
        let funcs: std::collections::HashSet<u32> = self
            .ir
            .functions()
            .iter()
            .map(|&f| self.ir.func_id(f))
            .collect();
        let roots = call_graph::reachable_roots(&self.ir, &|id| funcs.contains(&id));
        self.process_call_tree_from_roots(pfn, roots)
    }

    /// `ProcessCallTreeFromRoots`: breadth first from `roots`, each function once.
    pub fn process_call_tree_from_roots(
        &mut self,
        pfn: &mut dyn FnMut(&mut Context, Func) -> bool,
        roots: Vec<u32>,
    ) -> bool {
        let mut queue: VecDeque<u32> = roots.into();
        let mut done = std::collections::HashSet::new();
        let mut modified = false;
        while let Some(id) = queue.pop_front() {
            if !done.insert(id) {
                continue;
            }
            let Some(f) = self.get_function(id) else {
                continue;
            };
            modified = pfn(self, f) || modified;
            queue.extend(call_graph::callees(&self.ir, f));
        }
        modified
    }

    /// The functions called, directly or not, from the continue constructs of loops, in
    /// the order spirv-opt's `std::unordered_set` gives them
    /// (`FindFuncsCalledFromContinue`).
    pub fn find_funcs_called_from_continue(&mut self) -> Vec<u32> {
        self.struct_cfg();
        let mut queue: VecDeque<u32> = VecDeque::new();
        let funcs: Vec<Func> = self.ir.functions().to_vec();
        for f in funcs {
            for b in self.ir.blocks(f) {
                let id = self.ir.block_id(b);
                let in_continue = self
                    .struct_cfg
                    .as_ref()
                    .is_some_and(|s| s.is_in_containing_loops_continue_construct(id));
                if in_continue {
                    for i in self.ir.insts(b) {
                        if self.ir.opcode(i) == O::FunctionCall {
                            queue.push_back(self.ir.data(i).in_word(0));
                        }
                    }
                }
            }
        }
        let mut set = crate::stl::StdOrder::new();
        while let Some(id) = queue.pop_front() {
            let f = self.get_function(id);
            if set.insert(id) {
                if let Some(f) = f {
                    queue.extend(call_graph::callees(&self.ir, f));
                }
            }
        }
        set.iter()
    }

    /// The module's words as spirv-opt writes them (`ToBinary`, `OpNop`s left out): a
    /// `DebugNoLine` the writer adds takes the void type the type manager gives.
    pub fn to_words(&mut self) -> Vec<u32> {
        self.to_words_with(true)
    }

    /// Writes the module as spirv-opt's `Module::ToBinary` does, `OpNop`s left out
    /// with `skip_nop`. Writing takes ids (for `DebugScope`s and `DebugNoLine`s), so
    /// spirv-opt's passes that write the module to print an instruction in a message
    /// (`Instruction::PrettyPrint`) do this with `skip_nop` false to take the same ids.
    pub fn to_words_with(&mut self, skip_nop: bool) -> Vec<u32> {
        self.write_into(skip_nop, Vec::new())
    }

    /// [`Context::to_words`] into `buffer` (cleared first): a buffer already paged in
    /// (the input's) spares the writer fresh memory.
    pub fn to_words_into(&mut self, buffer: Vec<u32>) -> Vec<u32> {
        self.write_into(true, buffer)
    }

    /// Writes the module as [`Context::to_words`] does, as little-endian bytes to
    /// `sink`, a chunk at a time: the module is never all in memory as words.
    ///
    /// # Errors
    /// The first of `sink`'s; what follows it is not written.
    pub fn write_to(&mut self, sink: &mut dyn std::io::Write) -> std::io::Result<()> {
        let plan = self.write_plan();
        self.write_stream(plan, sink)
    }

    /// What [`Context::write_to`] writes: the header's bound and the length in words.
    pub(crate) fn write_plan(&mut self) -> crate::ir::write::Plan {
        let void = self.void_for_writer();
        crate::ir::write::plan(&self.ir, true, void)
    }

    /// [`Context::write_to`] with its [`Context::write_plan`].
    pub(crate) fn write_stream(
        &mut self,
        plan: crate::ir::write::Plan,
        sink: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        let void = self.void_for_writer();
        crate::ir::write::write_stream(&mut self.ir, true, void, plan, sink)
    }

    fn write_into(&mut self, skip_nop: bool, buffer: Vec<u32>) -> Vec<u32> {
        let void = self.void_for_writer();
        crate::ir::write::to_words_into(&mut self.ir, skip_nop, void, buffer)
    }

    /// Where the writer finds the void type's id.
    fn void_for_writer(&mut self) -> crate::ir::write::VoidType {
        use crate::ir::write::VoidType;
        // The void type matters for a `DebugNoLine` only. With none, spirv-opt's type
        // manager makes one when the writer first asks (after the types were written).
        let mut void = VoidType::Make;
        if self
            .ir
            .ext_inst_import_id("NonSemantic.Shader.DebugInfo.100")
            != 0
        {
            if let Some(t) = self.types().find_plain(Ty::Void) {
                void = VoidType::Id(self.types().id_of(t));
            }
        }
        void
    }

    /// The leading `OpPhi`s of `b` (`ForEachPhiInst`).
    pub fn phis(&self, b: crate::ir::Block) -> Vec<Inst> {
        self.ir
            .insts(b)
            .take_while(|&i| self.ir.opcode(i) == O::Phi)
            .collect()
    }

    /// The block whose label is `id` (`get_instr_block(id)`: through def-use).
    pub fn block_of_id(&mut self, id: u32) -> Option<crate::ir::Block> {
        let d = self.get_def(id)?;
        self.ir.block_of(d)
    }

    /// Splits `b` before `at` (`SplitBasicBlock`): the instructions from `at` on go to
    /// a new block labelled `label_id` placed after `b`, and the phis of its successors
    /// name the new block where they named `b`.
    pub fn split_basic_block(
        &mut self,
        b: crate::ir::Block,
        label_id: u32,
        at: Inst,
    ) -> crate::ir::Block {
        let label = self.make(O::Label, 0, label_id, &[]);
        let nb = self.ir.new_block(label);
        self.ir.insert_block_after(b, nb);
        self.ir.splice_to(at, nb);
        self.analyze_def_use(label);
        let old_id = self.ir.block_id(b);
        for succ in self.ir.successors(nb) {
            let Some(target) = self.block_of_id(succ) else {
                continue;
            };
            for phi in self.phis(target) {
                let mut changed = false;
                let n = self.ir.data(phi).num_in_operands();
                let mut i = 1;
                while i < n {
                    if self.ir.data(phi).in_word(i) == old_id {
                        changed = true;
                        self.ir.data_mut(phi).set_in_operand(i, &[label_id]);
                    }
                    i += 2;
                }
                if changed {
                    self.update_def_use(phi);
                }
            }
        }
        nb
    }

    /// Copies the decorations of `from` onto `to` (`CloneDecorations`), only those of
    /// the kinds `only` lists when it is given: `from`'s own are cloned at the end of
    /// the annotations; a group applied to `from` is applied to `to` too (for the kinds
    /// listed, the group's own are cloned instead).
    pub fn clone_decorations(&mut self, from: u32, to: u32, only: Option<&[u32]>) {
        let Some(t) = self.decorations().target(from).cloned() else {
            return;
        };
        for d in t.direct {
            if let Some(kinds) = only {
                if !kinds.contains(&self.ir.data(d).in_word(1)) {
                    continue;
                }
            }
            let Some(c) = self.ir.clone_inst(d) else {
                continue;
            };
            self.ir.data_mut(c).set_in_operand(0, &[to]);
            self.ir.push_global(Section::Annotation, c);
            self.analyze_uses(c);
        }
        for g in t.indirect {
            match (self.ir.opcode(g), only) {
                (O::GroupDecorate, Some(kinds)) => {
                    let group = self.ir.data(g).in_word(0);
                    self.clone_decorations(group, to, Some(kinds));
                }
                (O::GroupDecorate, None) => {
                    self.forget_uses(g);
                    self.ir.data_mut(g).add_operand(Operand::id(to));
                    self.analyze_uses(g);
                }
                (O::GroupMemberDecorate, None) => {
                    self.forget_uses(g);
                    let n = self.ir.data(g).num_operands();
                    let mut i = 1;
                    while i < n {
                        let d = self.ir.data(g);
                        if d.word(i) == from {
                            let lit = d.operand(i + 1);
                            self.ir.data_mut(g).add_operand(Operand::id(to));
                            self.ir.data_mut(g).add_operand(lit);
                        }
                        i += 2;
                    }
                    self.analyze_uses(g);
                }
                _ => {}
            }
        }
    }

    /// Whether the module has the `Shader` capability.
    pub fn is_shader(&mut self) -> bool {
        self.has_capability(spirv_core::spv::Capability::Shader.0)
    }

    /// The entry points' execution model if they share one (`GetStage`).
    pub fn stage(&self) -> Option<u32> {
        let mut it = self.ir.section(Section::EntryPoint);
        let first = it.next()?;
        Some(self.ir.data(first).in_word(0))
    }
}

/// `IsDecoration` (`spvOpcodeIsDecoration`).
fn is_decoration(op: O) -> bool {
    spirv_core::__private::opt::is_decoration(op)
}

/// The opcodes spirv-opt's `AddCombinatorsForCapability(Shader)` lists.
fn is_combinator_opcode(op: O) -> bool {
    matches!(
        op,
        O::Nop
            | O::Undef
            | O::Constant
            | O::ConstantTrue
            | O::ConstantFalse
            | O::ConstantComposite
            | O::ConstantSampler
            | O::ConstantNull
            | O::TypeVoid
            | O::TypeBool
            | O::TypeInt
            | O::TypeFloat
            | O::TypeVector
            | O::TypeMatrix
            | O::TypeImage
            | O::TypeSampler
            | O::TypeSampledImage
            | O::TypeAccelerationStructureNV
            | O::TypeRayQueryKHR
            | O::TypeHitObjectNV
            | O::TypeHitObjectEXT
            | O::TypeArray
            | O::TypeRuntimeArray
            | O::TypeNodePayloadArrayAMDX
            | O::TypeStruct
            | O::TypeOpaque
            | O::TypePointer
            | O::TypeFunction
            | O::TypeEvent
            | O::TypeDeviceEvent
            | O::TypeReserveId
            | O::TypeQueue
            | O::TypePipe
            | O::TypeForwardPointer
            | O::Variable
            | O::ImageTexelPointer
            | O::Load
            | O::AccessChain
            | O::InBoundsAccessChain
            | O::ArrayLength
            | O::VectorExtractDynamic
            | O::VectorInsertDynamic
            | O::VectorShuffle
            | O::CompositeConstruct
            | O::CompositeExtract
            | O::CompositeInsert
            | O::CopyLogical
            | O::CopyObject
            | O::Transpose
            | O::SampledImage
            | O::ImageSampleImplicitLod
            | O::ImageSampleExplicitLod
            | O::ImageSampleDrefImplicitLod
            | O::ImageSampleDrefExplicitLod
            | O::ImageSampleProjImplicitLod
            | O::ImageSampleProjExplicitLod
            | O::ImageSampleProjDrefImplicitLod
            | O::ImageSampleProjDrefExplicitLod
            | O::ImageFetch
            | O::ImageGather
            | O::ImageDrefGather
            | O::ImageRead
            | O::Image
            | O::ImageQueryFormat
            | O::ImageQueryOrder
            | O::ImageQuerySizeLod
            | O::ImageQuerySize
            | O::ImageQueryLevels
            | O::ImageQuerySamples
            | O::ConvertFToU
            | O::ConvertFToS
            | O::ConvertSToF
            | O::ConvertUToF
            | O::UConvert
            | O::SConvert
            | O::FConvert
            | O::QuantizeToF16
            | O::Bitcast
            | O::SNegate
            | O::FNegate
            | O::IAdd
            | O::FAdd
            | O::ISub
            | O::FSub
            | O::IMul
            | O::FMul
            | O::UDiv
            | O::SDiv
            | O::FDiv
            | O::UMod
            | O::SRem
            | O::SMod
            | O::FRem
            | O::FMod
            | O::VectorTimesScalar
            | O::MatrixTimesScalar
            | O::VectorTimesMatrix
            | O::MatrixTimesVector
            | O::MatrixTimesMatrix
            | O::OuterProduct
            | O::Dot
            | O::IAddCarry
            | O::ISubBorrow
            | O::UMulExtended
            | O::SMulExtended
            | O::Any
            | O::All
            | O::IsNan
            | O::IsInf
            | O::LogicalEqual
            | O::LogicalNotEqual
            | O::LogicalOr
            | O::LogicalAnd
            | O::LogicalNot
            | O::Select
            | O::IEqual
            | O::INotEqual
            | O::UGreaterThan
            | O::SGreaterThan
            | O::UGreaterThanEqual
            | O::SGreaterThanEqual
            | O::ULessThan
            | O::SLessThan
            | O::ULessThanEqual
            | O::SLessThanEqual
            | O::FOrdEqual
            | O::FUnordEqual
            | O::FOrdNotEqual
            | O::FUnordNotEqual
            | O::FOrdLessThan
            | O::FUnordLessThan
            | O::FOrdGreaterThan
            | O::FUnordGreaterThan
            | O::FOrdLessThanEqual
            | O::FUnordLessThanEqual
            | O::FOrdGreaterThanEqual
            | O::FUnordGreaterThanEqual
            | O::ShiftRightLogical
            | O::ShiftRightArithmetic
            | O::ShiftLeftLogical
            | O::BitwiseOr
            | O::BitwiseXor
            | O::BitwiseAnd
            | O::Not
            | O::BitFieldInsert
            | O::BitFieldSExtract
            | O::BitFieldUExtract
            | O::BitReverse
            | O::BitCount
            | O::Phi
            | O::ImageSparseSampleImplicitLod
            | O::ImageSparseSampleExplicitLod
            | O::ImageSparseSampleDrefImplicitLod
            | O::ImageSparseSampleDrefExplicitLod
            | O::ImageSparseSampleProjImplicitLod
            | O::ImageSparseSampleProjExplicitLod
            | O::ImageSparseSampleProjDrefImplicitLod
            | O::ImageSparseSampleProjDrefExplicitLod
            | O::ImageSparseFetch
            | O::ImageSparseGather
            | O::ImageSparseDrefGather
            | O::ImageSparseTexelsResident
            | O::ImageSparseRead
            | O::SizeOf
    )
}
