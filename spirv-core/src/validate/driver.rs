//! spirv-val's driver (`ValidateBinaryUsingContextAndValidationState` in
//! `validate.cpp`): the header, the first loop (each instruction through the id,
//! capability, layout, block and instruction passes, then registered), the end of the
//! module, the second loop (each instruction through the per-instruction passes, in
//! spirv-val's order), then the rules over the whole module, in its order; and the
//! report, which hands faults on and leaves out the consequences of one already
//! reported.

use super::error::{ValidationError, ValidationErrorKind};
use super::validation_state::{GraphRegion, OperandMemo, memoized};
use super::{
    Inst, Options, Query, State, adjacency, builtins, capability, cfg, decorations, entry_points,
    ids, image, instruction, interfaces, invalid_type, layout, logical_pointers, modes,
    small_type_uses, validation_state,
};
use super::{
    annotation, arithmetics, atomics, barriers, bitwise, composites, constants, conversion, debug,
    derivatives, extension, function, limitations, literals, logicals, memory, mesh_shading, misc,
    non_uniform, primitives, ray_query, ray_tracing, types,
};
use super::{graph, ray_tracing_reorder, tensor, tensor_layout};
use crate::__private::Vec;
use crate::binary::{self, Header};
use crate::spirv_tools::SetKind;
use crate::types::Id;
use crate::walk::ExtInstRegistry;
use crate::{Module, spv};
use alloc::collections::BTreeSet;
use core::ops::ControlFlow;

/// Where a fault is reported.
#[derive(Debug)]
pub(super) enum Where {
    /// At the instruction being checked.
    Here,
    /// At `line 0`.
    Module,
    /// At another instruction.
    At(u32),
}

/// A fault and where it is reported.
#[derive(Debug)]
pub(super) struct Fault {
    pub(super) kind: ValidationErrorKind,
    pub(super) at: Where,
}

impl Fault {
    pub(super) fn module(kind: ValidationErrorKind) -> Self {
        Fault {
            kind,
            at: Where::Module,
        }
    }

    pub(super) fn at(kind: ValidationErrorKind, index: u32) -> Self {
        Fault {
            kind,
            at: Where::At(index),
        }
    }
}

/// A fault of any family, at the instruction being checked.
impl<T: Into<ValidationErrorKind>> From<T> for Fault {
    fn from(kind: T) -> Self {
        Fault {
            kind: kind.into(),
            at: Where::Here,
        }
    }
}

/// The registry spirv-val reads with: the vendored sets SPIRV-Tools 2025.5 knows.
fn spirv_tools_registry() -> ExtInstRegistry {
    let mut r = ExtInstRegistry::empty();
    for g in crate::ext::VENDORED {
        if crate::ext::spirv_tools_knows(g) {
            r.register(g);
        }
    }
    r
}

/// Hands faults on; in first-fault mode it stops at the first.
struct Report<'m, 's> {
    all: bool,
    /// Validating for a Vulkan environment, where messages name VUIDs.
    vulkan: bool,
    module: Option<&'m Module>,
    sink: &'s mut dyn FnMut(ValidationError),
    /// Ids already reported as undefined or misused, whose other uses are
    /// consequences.
    reported_ids: BTreeSet<u32>,
    /// Causes already reported (see [`cause`]), whose other faults are consequences.
    causes: BTreeSet<(u8, Vec<u32>)>,
}

/// The one fault behind faults that repeat it: the capabilities that would enable an
/// opcode or enumerant (one missing `OpCapability`), the header's bound (every result
/// id above it), a variable limit, the missing memory model.
fn cause(kind: &ValidationErrorKind) -> Option<(u8, Vec<u32>)> {
    Some(match kind {
        ValidationErrorKind::OpcodeCapability { capabilities, .. }
        | ValidationErrorKind::OperandCapability { capabilities, .. } => {
            (0, capabilities.iter().map(|c| c.0).collect())
        }
        ValidationErrorKind::IdNotBelowBound { .. } => (1, Vec::new()),
        ValidationErrorKind::LocalVariables { .. } => (2, Vec::new()),
        ValidationErrorKind::GlobalVariables { .. } => (3, Vec::new()),
        ValidationErrorKind::BeforeMemoryModel { .. } | ValidationErrorKind::MissingMemoryModel => {
            (4, Vec::new())
        }
        _ => return None,
    })
}

impl Report<'_, '_> {
    /// Records a fault; false when validation must stop.
    fn push(&mut self, fault: Fault, here: Option<usize>) -> bool {
        // Built-in faults name the ids of their descriptions, not ids they misuse:
        // they neither hide nor are hidden by faults about those ids.
        let ids = match fault.kind {
            ValidationErrorKind::BuiltIn(_) => Vec::new(),
            _ => fault.kind.ids(),
        };
        if !ids.is_empty() && ids.iter().all(|id| self.reported_ids.contains(&id.0)) {
            return self.all;
        }
        if let Some(c) = cause(&fault.kind) {
            if !self.causes.insert(c) {
                return self.all;
            }
        }
        self.reported_ids.extend(ids.iter().map(|id| id.0));
        let index = match fault.at {
            Where::Here => here,
            Where::Module => None,
            Where::At(i) => Some(i as usize),
        };
        let error = match (index, self.module) {
            (Some(i), Some(m)) => {
                let offset = m.instruction(i).map_or(0, |x| x.offset());
                ValidationError::at(fault.kind, i, offset, self.vulkan)
            }
            _ => ValidationError::module(fault.kind, self.vulkan),
        };
        (self.sink)(error);
        self.all
    }
}

/// Validates `words`, which are read in place and handed back in host order.
pub(super) fn run(
    words: &mut Vec<u32>,
    options: &Options<'_>,
    all: bool,
    sink: &mut dyn FnMut(ValidationError),
) {
    let mut report = Report {
        all,
        vulkan: options.target_env.is_vulkan(),
        module: None,
        sink,
        reported_ids: BTreeSet::new(),
        causes: BTreeSet::new(),
    };
    // The header, as spirv-val checks it before parsing.
    let swapped = words.first() == Some(&binary::MAGIC.swap_bytes());
    if words
        .first()
        .is_none_or(|&m| m != binary::MAGIC && !swapped)
    {
        report.push(Fault::module(ValidationErrorKind::BadMagic), None);
        return;
    }
    if swapped {
        binary::swap_words(words);
    }
    let Ok(header) = binary::parse_header(words) else {
        report.push(Fault::module(ValidationErrorKind::TruncatedHeader), None);
        return;
    };
    let env = options.target_env;
    let (major, minor) = env.version();
    if header.version > Header::version_word(major, minor) {
        let kind = ValidationErrorKind::VersionTooNew {
            version: header.version(),
            env,
        };
        report.push(Fault::module(kind), None);
        return;
    }
    if header.bound > options.limits.max_id_bound {
        let kind = ValidationErrorKind::BoundTooLarge {
            limit: options.limits.max_id_bound,
        };
        report.push(Fault::module(kind), None);
        return;
    }
    let default_registry;
    let registry = match options.registry {
        Some(r) => r,
        None => {
            default_registry = spirv_tools_registry();
            &default_registry
        }
    };
    let module = match Module::read_for_validation(words, registry) {
        Ok(m) => m,
        Err(e) => {
            let mut error =
                ValidationError::module(ValidationErrorKind::Parse(e.kind), report.vulkan);
            error.instruction = e.instruction;
            error.offset = Some(e.offset);
            (report.sink)(error);
            return;
        }
    };
    check_module(&module, options, report);
    *words = module.into_words();
}

/// spirv-val's checks of a module that parses, from its first loop on.
fn check_module<'m>(module: &'m Module, options: &Options<'_>, mut report: Report<'m, '_>) {
    report.module = Some(module);
    let mut state = State::new(options, module.header(), module.word_len());
    scan(&mut state, module);
    let mut operands = OperandMemo::default();
    // spirv-val's first loop, then the end of the module.
    for index in 0..module.len() {
        let Some(inst) = memoized(module, &state, index, &mut operands) else {
            continue;
        };
        if let Err(fault) = FIRST_LOOP
            .iter()
            .try_for_each(|pass| pass(&mut state, &inst))
        {
            if !report.push(fault, Some(index)) {
                return;
            }
        }
        instruction::register(&mut state, &inst);
    }
    if let Err(kind) = end_of_first_loop(&state) {
        if !report.push(Fault::module(kind), None) {
            return;
        }
    }
    // The second loop, then the rules over the whole module, in spirv-val's order.
    let decorations =
        validation_state::Decorations::new(module, crate::analysis::DecorationRules::SpirvVal);
    let analyses = validation_state::Analyses::default();
    let limitations = core::cell::RefCell::default();
    let q = Query::new(module, &state, &decorations, &analyses, &limitations);
    let mut second = Second::default();
    for index in 0..module.len() {
        let Some(inst) = memoized(module, &state, index, &mut operands) else {
            continue;
        };
        let checked = second_loop(&q, &inst, &mut second);
        if let Err(fault) = checked {
            if !report.push(fault, Some(index)) {
                return;
            }
        }
    }
    // Whether validation goes on: false once a fault has stopped it.
    let go_on = core::cell::Cell::new(true);
    let mut sink = |fault: Fault| {
        go_on.set(go_on.get() && report.push(fault, None));
        go_on.get()
    };
    let whole = Whole {
        q: &q,
        calls: core::cell::OnceCell::new(),
    };
    for pass in WHOLE_MODULE {
        if pass(&whole, &mut sink).is_break() || !go_on.get() {
            return;
        }
    }
}

/// What the passes over the whole module read: the module with what the loops learnt,
/// and the entry points and calls that several ask about, read on first use.
struct Whole<'q, 'a> {
    q: &'q Query<'a>,
    calls: core::cell::OnceCell<validation_state::EntryCalls>,
}

impl Whole<'_, '_> {
    fn calls(&self) -> &validation_state::EntryCalls {
        self.calls
            .get_or_init(|| validation_state::EntryCalls::of(self.q))
    }
}

/// A pass over the whole module: it hands each fault to the sink, which says whether
/// to go on, and breaks when validation must stop whatever the sink says.
type WholePass = fn(&Whole<'_, '_>, &mut dyn FnMut(Fault) -> bool) -> ControlFlow<()>;

/// spirv-val's passes after its second loop, in its order
/// (`ValidateBinaryUsingContextAndValidationState`): adjacency, the entry points and
/// their execution modes, the control-flow graph, decorations, interfaces, built-ins,
/// then the execution-model limitations the passes registered, small-type uses and the
/// uses of QCOM image-processing textures (spirv-val takes the three instruction by
/// instruction in one loop; here they are one pass after the other, which differs only
/// in which fault comes first when a module breaks more than one).
const WHOLE_MODULE: [WholePass; 9] = [
    |w, sink| {
        adjacency::check(w.q, sink);
        ControlFlow::Continue(())
    },
    // `ValidateEntryPoints`, then `ValidateFloatControls2` and
    // `ValidateDuplicateExecutionModes` if it passes.
    |w, sink| {
        let fault = entry_points::check(w.q.state, w.q.module)
            .and_then(|()| modes::float_controls2(w.q, w.calls()))
            .and_then(|()| modes::duplicates(w.q));
        if let Err(fault) = fault {
            sink(fault);
        }
        ControlFlow::Continue(())
    },
    |w, sink| {
        cfg::check(w.q, sink);
        ControlFlow::Continue(())
    },
    |w, sink| {
        decorations::check(w.q, sink);
        ControlFlow::Continue(())
    },
    |w, sink| {
        if interfaces::check(w.q, w.calls(), sink) {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        }
    },
    |w, sink| {
        builtins::check(w.q, w.calls(), sink);
        ControlFlow::Continue(())
    },
    |w, sink| limitations::check(w.q, w.calls(), sink),
    |w, sink| {
        small_type_uses::check(w.q, sink);
        ControlFlow::Continue(())
    },
    |w, sink| {
        image::texture_usages(w.q, sink);
        logical_pointers::check(w.q, sink);
        ControlFlow::Continue(())
    },
];

/// The end of spirv-val's first loop: what the whole module must have.
fn end_of_first_loop(state: &State<'_>) -> Result<(), ValidationErrorKind> {
    if state.models.is_none() {
        return Err(ValidationErrorKind::MissingMemoryModel);
    }
    if state.in_function() {
        return Err(ValidationErrorKind::MissingFunctionEnd);
    }
    if state.graph != GraphRegion::Outside {
        return Err(ValidationErrorKind::MissingGraphEnd);
    }
    if state.has_capability(spv::Capability::BindlessTextureNV.0) && state.sampler_addressing == 0 {
        return Err(ValidationErrorKind::MissingSamplerAddressing);
    }
    if state.mesh_ext && state.mesh_nv {
        return Err(ValidationErrorKind::MeshModelMix);
    }
    if !state.forward.is_empty() {
        let ids = state.forward.ids().into_iter().map(Id).collect();
        return Err(ValidationErrorKind::UndefinedForwardReferences { ids });
    }
    Ok(())
}

/// What spirv-val learns before its checks: the `OpExtension`s of the module's first
/// run of `OpCapability` and `OpExtension` instructions (its first look registers
/// those alone), and the kind of each imported set.
fn scan(state: &mut State<'_>, module: &Module) {
    let mut leading = true;
    for inst in module.instructions() {
        match inst.opcode() {
            spv::Opcode::Capability | spv::Opcode::ConditionalCapabilityINTEL => {}
            spv::Opcode::Extension | spv::Opcode::ConditionalExtensionINTEL if leading => {
                let name = crate::codec::string_operand(inst.operands());
                state.register_extension(&name);
            }
            spv::Opcode::ExtInstImport => {
                leading = false;
                if let Some(id) = inst.result_id() {
                    let ops = inst.operands().get(1..).unwrap_or(&[]);
                    let name = crate::codec::string_operand(ops);
                    state.sets.insert(id.0, SetKind::of(&name));
                }
            }
            _ => leading = false,
        }
    }
}

/// A pass of spirv-val's first loop over one instruction: it reads and registers
/// what the module has declared so far, and returns the instruction's first fault.
type FirstPass = fn(&mut State<'_>, &Inst<'_>) -> Result<(), Fault>;

/// spirv-val's first loop, in its order: the module-level facts it registers as it
/// goes (entry points, calls), then `IdPass`, `CapabilityPass`, `ModuleLayoutPass`,
/// `CfgPass` and `InstructionPass`.
const FIRST_LOOP: [FirstPass; 6] = [
    entry_point_facts,
    |state, inst| Ok(ids::check(state, inst)?),
    |state, inst| match inst.opcode {
        spv::Opcode::Capability | spv::Opcode::ConditionalCapabilityINTEL => {
            let conditional = inst.opcode == spv::Opcode::ConditionalCapabilityINTEL;
            Ok(capability::check(
                state,
                inst.word(usize::from(conditional)),
            )?)
        }
        _ => Ok(()),
    },
    |state, inst| Ok(layout::check(state, inst)?),
    cfg::cfg_pass,
    instruction::check,
];

/// spirv-val's second loop over one instruction, in its order, from `MiscPass` to
/// `LiteralsPass` (of its passes, those of families not checked yet are absent): each
/// pass reads the module as the first loop left it and what it remembers across
/// instructions, and the first fault stops the instruction. The passes are called
/// directly, and each pass's `check` is `#[inline(always)]` (this is its one caller;
/// left to itself the compiler keeps the larger ones apart): on the many instructions
/// a family has no rule for, its opcode test is all that runs, not a call.
fn second_loop(q: &Query<'_>, inst: &Inst<'_>, s: &mut Second) -> Result<(), Fault> {
    // The execution-model limitations spirv-val registers before its second loop.
    limitations::before_second_loop(q, inst);
    misc::check(q, inst, &mut s.misc)?;
    debug::check(q, inst, &mut s.debug)?;
    annotation::check(q, inst, &mut s.annotation)?;
    extension::check(q, inst, &mut s.extension)?;
    modes::check(q, inst, &mut s.mode_setting)?;
    types::check(q, inst, &mut s.types)?;
    constants::check(q, inst, &mut s.constants)?;
    memory::check(q, inst, &mut s.memory)?;
    function::check(q, inst, &mut s.function)?;
    image::check(q, inst, &mut s.image)?;
    conversion::check(q, inst, &mut s.conversion)?;
    composites::check(q, inst, &mut s.composites)?;
    arithmetics::check(q, inst, &mut s.arithmetics)?;
    bitwise::check(q, inst, &mut s.bitwise)?;
    logicals::check(q, inst, &mut s.logicals)?;
    cfg::control_flow::check(q, inst, &mut s.control_flow)?;
    derivatives::check(q, inst)?;
    atomics::check(q, inst)?;
    primitives::check(q, inst)?;
    barriers::check(q, inst)?;
    non_uniform::check(q, inst)?;
    literals::check(q, inst, &mut s.literals)?;
    ray_query::check(q, inst)?;
    ray_tracing::check(q, inst)?;
    ray_tracing_reorder::check(q, inst)?;
    mesh_shading::check(q, inst, &mut s.mesh_shading)?;
    tensor_layout::check(q, inst)?;
    tensor::check(q, inst)?;
    graph::check(q, inst, &mut s.graphs)?;
    invalid_type::check(q, inst)
}

/// What spirv-val's first loop registers of entry points and calls before its passes
/// (`ValidateBinaryUsingContextAndValidationState`'s own checks of each instruction).
fn entry_point_facts(state: &mut State<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    use spv::Opcode as O;
    match inst.opcode {
        O::EntryPoint | O::ConditionalEntryPointINTEL => {
            let shift = usize::from(inst.opcode == O::ConditionalEntryPointINTEL);
            let model = inst.word(shift);
            let function = inst.word(1 + shift);
            state.entry_points.push(function);
            if inst.opcode == O::EntryPoint {
                let name = inst
                    .operands
                    .get(2)
                    .map(|o| crate::codec::string_operand(&inst.words[o.offset..]))
                    .unwrap_or_default();
                if !state.entry_names.insert((name, model)) {
                    return Err(ValidationErrorKind::DuplicateEntryPoint.into());
                }
            }
            let m = spv::ExecutionModel(model);
            state.mesh_nv |= matches!(m, spv::ExecutionModel::TaskNV | spv::ExecutionModel::MeshNV);
            state.mesh_ext |= matches!(
                m,
                spv::ExecutionModel::TaskEXT | spv::ExecutionModel::MeshEXT
            );
        }
        O::GraphEntryPointARM => state.graph_entry_points += 1,
        O::FunctionCall => {
            if !state.in_function() {
                return Err(ValidationErrorKind::CallOutsideFunction.into());
            }
            state.call_targets.insert(inst.word(2));
        }
        _ => {}
    }
    Ok(())
}

/// What the passes of the second loop remember across instructions.
#[derive(Debug, Default)]
pub(super) struct Second {
    misc: misc::Misc,
    debug: debug::Debug,
    annotation: annotation::Annotation,
    extension: extension::Extension,
    types: types::Types,
    constants: constants::Constants,
    memory: memory::Memory,
    function: function::Function,
    conversion: conversion::Conversion,
    composites: composites::Composites,
    arithmetics: arithmetics::Arithmetics,
    bitwise: bitwise::Bitwise,
    logicals: logicals::Logicals,
    control_flow: cfg::control_flow::ControlFlow,
    literals: literals::Literals,
    mode_setting: modes::ModeSetting,
    image: image::Consumers,
    mesh_shading: mesh_shading::MeshShading,
    graphs: graph::Graphs,
}
