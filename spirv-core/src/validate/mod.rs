//! A SPIR-V validator that agrees with `spirv-val` (SPIRV-Tools 2025.5): the same
//! rules, checked in the same order, so that the first fault it reports is the one
//! spirv-val reports, with the instruction spirv-val names and the data of its message.
//!
//! ```
//! use spirv_core::validate::{validate, ErrorKind, Options};
//! use spirv_core::{spv, spv::inst, Builder, Id, TargetEnv};
//!
//! let mut b = Builder::new((1, 0));
//! b.push(inst::Capability { capability: spv::Capability::Shader })?;
//! b.push(inst::MemoryModel {
//!     addressing_model: spv::AddressingModel::Logical,
//!     memory_model: spv::MemoryModel::GLSL450,
//! })?;
//! let int = b.id()?;
//! b.push(inst::TypeInt { result_id: int, width: 32, signedness: 1 })?;
//! let words = b.build()?.to_words();
//!
//! // No entry point, and no Linkage capability to excuse it.
//! let options = Options { target_env: TargetEnv::Vulkan1_0, ..Options::default() };
//! let err = validate(&words, &options).unwrap_err();
//! assert_eq!(err.kind, ErrorKind::NoEntryPoint);
//! assert_eq!(err.line(), 0);
//! assert!(err.to_string().starts_with("No OpEntryPoint instruction was found."));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # What it checks
//! spirv-val's structural rules: the header against the target environment; the
//! binary's form (as [`Module::read`](crate::Module::read) checks it, strictly); ids
//! defined before use, except where the specification allows forward references; result
//! types that are types and values that are not; the logical layout's sections,
//! functions and blocks; capabilities, extensions and versions from the grammar, with
//! spirv-val's exceptions; each environment's allowed capabilities; the universal
//! limits; what the end of the module needs; extensions that need a newer version;
//! entry points; type declarations, constants, literal numbers, `OpUndef` and the
//! misc and debug instructions (spirv-val's type, constant, literal, misc and debug
//! passes); variables, loads, stores, copies and access chains, functions and calls
//! (its memory and function passes); the result and operand types of arithmetic,
//! composite, conversion, bitwise and logical instructions; control flow (branch
//! targets, `OpPhi`, merge and continue rules, undefined blocks, block order, the
//! structured rules and the nesting limit), the placement of instructions within blocks
//! and definitions dominating their uses (its control-flow, CFG, adjacency and SSA
//! checks); decorations (their targets, members and groups, repeats, entry points'
//! interfaces, buffers' blocks and explicit layouts under the block layout options,
//! descriptors, linkage); execution modes and the memory model (its mode-setting pass);
//! Vulkan interfaces' locations, components and storage classes; the built-ins' rules
//! for `WorkgroupSize` and, under Vulkan, for the fragment, vertex, tessellation and
//! compute built-ins with one type and storage class. The other built-ins and the other
//! instructions' rules (images, atomics, barriers, ray tracing, mesh shading, extended
//! instruction sets, …) are not checked yet: a module this validator accepts may still
//! be one spirv-val rejects. The README lists them.
//!
//! [`validate_all`] goes on past the first fault, spirv-val's one, to every fault
//! that is not a consequence of one already reported.

mod adjacency;
mod annotation;
mod arithmetics;
mod bitwise;
mod builtin_rules;
mod builtins;
mod capability;
mod cfg;
mod composites;
mod constants;
mod control_flow;
mod conversion;
mod debug;
mod decode;
mod decorations;
mod entry_calls;
mod error;
mod extension;
mod faults;
mod function;
mod id_bits;
mod ids;
mod instruction;
mod interface_locations;
mod interfaces;
mod layout;
mod literals;
mod logicals;
mod memory;
mod memory_access;
mod memory_chain;
mod memory_cooperative;
mod memory_copy;
mod memory_error;
mod memory_text;
mod memory_text_chain;
mod memory_util;
mod memory_variable;
mod misc;
mod mode_execution;
mod mode_setting;
mod mode_text;
mod module;
mod op_util;
mod operand_memo;
mod operations;
mod qcom;
mod query;
mod registry;
mod second;
mod state;
mod type_error;
mod type_messages;
mod type_rules;
mod types;
mod value_messages;

pub use crate::spirv_tools::generates_type;
pub use cfg::{Adjacency, CfgError, ConstructDominance, ConstructKind, LoopControlConflict};
pub use decorations::{DecorationError, LayoutFault, LayoutRule, Missing, TargetRule};
pub use error::{ErrorKind, ValidationError};
pub use function::FunctionError;
pub use memory::{CopyOperand, MemoryError};
pub use mode_text::ModeError;
pub use operations::{CompositeRule, OperandRule, OperationError, QcomRule, TypeRule};
pub use types::TypeError;

use crate::__private::Vec;
use crate::binary::{self, Header};
use crate::env::TargetEnv;
use crate::grammar::{InstructionInfo, OperandKind};
use crate::spirv_tools::SetKind;
use crate::walk::ExtInstRegistry;
use crate::{Module, spv};
use alloc::borrow::Cow;
use alloc::collections::BTreeSet;
use decode::instruction;
use state::State;

/// spirv-val's universal limits (`--max-*`), with its defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// `--max-struct-members`: members of one `OpTypeStruct` (16,383).
    pub max_struct_members: u32,
    /// `--max-struct-depth`: nesting of structs in structs (255).
    pub max_struct_depth: u32,
    /// `--max-local-variables`: `Function` variables in the module (524,287).
    pub max_local_variables: u32,
    /// `--max-global-variables`: variables of other storage classes (65,535).
    pub max_global_variables: u32,
    /// `--max-switch-branches`: cases of one `OpSwitch` (16,383).
    pub max_switch_branches: u32,
    /// `--max-function-args`: parameters of one function (255).
    pub max_function_args: u32,
    /// `--max-control-flow-nesting-depth` (1,023).
    pub max_control_flow_nesting_depth: u32,
    /// `--max-access-chain-indexes` (255).
    pub max_access_chain_indexes: u32,
    /// `--max-id-bound`: the header's bound (0x3FFFFF).
    pub max_id_bound: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_struct_members: 16_383,
            max_struct_depth: 255,
            max_local_variables: 524_287,
            max_global_variables: 65_535,
            max_switch_branches: 16_383,
            max_function_args: 255,
            max_control_flow_nesting_depth: 1_023,
            max_access_chain_indexes: 255,
            max_id_bound: 0x3F_FFFF,
        }
    }
}

/// How to validate: spirv-val's options. The defaults are spirv-val's: the universal
/// SPIR-V 1.6 environment, the universal limits, and no relaxation.
///
/// The relax, legalization and block-layout options act on the rules checked here as
/// they act in spirv-val (memory, functions, block layouts); the families not checked
/// yet (logical pointers, images, …) are listed in the crate's README.
#[derive(Debug, Clone, Default)]
pub struct Options<'r> {
    /// `--target-env`.
    pub target_env: TargetEnv,
    /// `--max-*`.
    pub limits: Limits,
    /// `--relax-logical-pointer`.
    pub relax_logical_pointer: bool,
    /// `--relax-block-layout` (on for Vulkan 1.1 and later whatever this says).
    pub relax_block_layout: bool,
    /// `--uniform-buffer-standard-layout`.
    pub uniform_buffer_standard_layout: bool,
    /// `--scalar-block-layout`.
    pub scalar_block_layout: bool,
    /// `--workgroup-scalar-block-layout`.
    pub workgroup_scalar_block_layout: bool,
    /// `--skip-block-layout`.
    pub skip_block_layout: bool,
    /// `--relax-struct-store`.
    pub relax_struct_store: bool,
    /// `--before-hlsl-legalization`.
    pub before_hlsl_legalization: bool,
    /// `--allow-localsizeid`.
    pub allow_localsizeid: bool,
    /// `--allow-offset-texture-operand`.
    pub allow_offset_texture_operand: bool,
    /// `--allow-vulkan-32-bit-bitwise`.
    pub allow_vulkan_32_bit_bitwise: bool,
    /// The extended sets whose instructions are laid out by their grammars; `None` =
    /// those SPIRV-Tools 2025.5 knows ([`crate::ext::SPIRV_TOOLS_SETS`]), as spirv-val
    /// reads them. Other `NonSemantic.` sets take ids; other sets are refused.
    pub registry: Option<&'r ExtInstRegistry>,
}

/// Validates a module: `Ok` when it breaks none of the rules this validator checks,
/// else the first fault, the one spirv-val 2025.5 would report when the rules that
/// find it are among those checked here.
///
/// # Errors
/// The first fault.
pub fn validate(words: &[u32], options: &Options<'_>) -> Result<(), ValidationError> {
    let mut first = None;
    run(Cow::Borrowed(words), options, false, &mut |e| {
        first = Some(e)
    });
    match first {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Validates a module and reports every fault it finds, in spirv-val's order, leaving
/// out the consequences of a fault already reported (another use of the same undefined
/// id, say). A binary that does not parse has only that fault.
pub fn validate_all(words: &[u32], options: &Options<'_>) -> Vec<ValidationError> {
    let mut all = Vec::new();
    run(Cow::Borrowed(words), options, true, &mut |e| all.push(e));
    all
}

/// [`validate_all`] on words the caller gives up: the module is read in place, without
/// the copy [`validate_all`] makes of borrowed words.
pub fn validate_all_owned(words: Vec<u32>, options: &Options<'_>) -> Vec<ValidationError> {
    let mut all = Vec::new();
    run(Cow::Owned(words), options, true, &mut |e| all.push(e));
    all
}

/// [`validate_all`], handing each fault to `sink` as it is found instead of collecting
/// them: memory stays that of the module, however many faults it has.
pub fn validate_each(words: &[u32], options: &Options<'_>, sink: &mut dyn FnMut(ValidationError)) {
    run(Cow::Borrowed(words), options, true, sink);
}

/// One parsed operand, as spirv-val counts them.
#[derive(Debug, Clone, Copy)]
struct Operand {
    kind: &'static OperandKind,
    /// Its first word, counted from the instruction's first word.
    offset: usize,
    len: usize,
}

/// An instruction as the passes see it.
struct Inst<'a> {
    index: usize,
    opcode: spv::Opcode,
    info: &'static InstructionInfo,
    /// The whole instruction, its first word included.
    words: &'a [u32],
    operands: &'a [Operand],
    /// 0 when none.
    result_id: u32,
    /// For an extended instruction: its set's kind.
    set: Option<SetKind>,
}

/// Where a fault is reported.
#[derive(Debug)]
enum Where {
    /// At the instruction being checked.
    Here,
    /// At `line 0`.
    Module,
    /// At another instruction.
    At(u32),
}

/// A fault and where it is reported.
#[derive(Debug)]
struct Fault {
    kind: ErrorKind,
    at: Where,
}

impl Fault {
    fn module(kind: ErrorKind) -> Self {
        Fault {
            kind,
            at: Where::Module,
        }
    }

    fn at(kind: ErrorKind, index: u32) -> Self {
        Fault {
            kind,
            at: Where::At(index),
        }
    }
}

impl From<ErrorKind> for Fault {
    fn from(kind: ErrorKind) -> Self {
        Fault {
            kind,
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
fn cause(kind: &ErrorKind) -> Option<(u8, Vec<u32>)> {
    Some(match kind {
        ErrorKind::OpcodeCapability { capabilities, .. }
        | ErrorKind::OperandCapability { capabilities, .. } => {
            (0, capabilities.iter().map(|c| c.0).collect())
        }
        ErrorKind::IdNotBelowBound { .. } => (1, Vec::new()),
        ErrorKind::LocalVariables { .. } => (2, Vec::new()),
        ErrorKind::GlobalVariables { .. } => (3, Vec::new()),
        ErrorKind::BeforeMemoryModel { .. } | ErrorKind::MissingMemoryModel => (4, Vec::new()),
        _ => return None,
    })
}

impl Report<'_, '_> {
    /// Records a fault; false when validation must stop.
    fn push(&mut self, fault: Fault, here: Option<usize>) -> bool {
        let ids = fault.kind.ids();
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

fn run(
    input: Cow<'_, [u32]>,
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
    let swapped = input.first() == Some(&binary::MAGIC.swap_bytes());
    if input
        .first()
        .is_none_or(|&m| m != binary::MAGIC && !swapped)
    {
        report.push(Fault::module(ErrorKind::BadMagic), None);
        return;
    }
    let words: Vec<u32> = if swapped {
        input.iter().map(|w| w.swap_bytes()).collect()
    } else {
        input.into_owned()
    };
    let Ok(header) = binary::parse_header(&words) else {
        report.push(Fault::module(ErrorKind::TruncatedHeader), None);
        return;
    };
    let env = options.target_env;
    let (major, minor) = env.version();
    if header.version > Header::version_word(major, minor) {
        let kind = ErrorKind::VersionTooNew {
            version: header.version(),
            env,
        };
        report.push(Fault::module(kind), None);
        return;
    }
    if header.bound > options.limits.max_id_bound {
        let kind = ErrorKind::BoundTooLarge {
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
            let mut error = ValidationError::module(ErrorKind::Parse(e.kind), report.vulkan);
            error.instruction = e.instruction;
            error.offset = Some(e.offset);
            (report.sink)(error);
            return;
        }
    };
    report.module = Some(&module);
    let mut state = State::new(options, module.header(), module.word_len());
    scan(&mut state, &module);
    let mut operands = operand_memo::OperandMemo::default();
    // spirv-val's first loop, then the end of the module.
    for index in 0..module.len() {
        let Some(inst) = operand_memo::instruction(&module, &state, index, &mut operands) else {
            continue;
        };
        if let Err(fault) = one_instruction(&mut state, &inst) {
            if !report.push(fault, Some(index)) {
                return;
            }
        }
        instruction::register(&mut state, &inst);
    }
    if let Err(kind) = module::end(&state) {
        if !report.push(Fault::module(kind), None) {
            return;
        }
    }
    // The second loop, then the rules over the whole module, in spirv-val's order.
    let decorations = registry::Decorations::new(&module);
    let q = query::Query::new(&module, &state, &decorations);
    let mut second = second::Second::default();
    for index in 0..module.len() {
        let Some(inst) = operand_memo::instruction(&module, &state, index, &mut operands) else {
            continue;
        };
        if let Err(fault) = second.instruction(&q, &inst) {
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
    adjacency::check(&q, &mut sink);
    if go_on.get() {
        if let Err(fault) = module::entry_points(&state, &module) {
            sink(fault);
        } else if let Err(fault) = mode_execution::duplicates(&q) {
            sink(fault);
        }
    }
    for family in [cfg::check, decorations::check] {
        if !go_on.get() {
            return;
        }
        family(&q, &mut sink);
    }
    if go_on.get() {
        // The entry points and calls both families ask about, read once.
        let calls = entry_calls::EntryCalls::of(&q);
        if interfaces::check(&q, &calls, &mut sink) && go_on.get() {
            builtins::check(&q, &calls, &mut sink);
        }
    }
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

/// The first loop's checks of one instruction, in spirv-val's order.
fn one_instruction(state: &mut State<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    use spv::Opcode as O;
    let word = |i: usize| {
        inst.operands
            .get(i)
            .and_then(|o| inst.words.get(o.offset))
            .copied()
            .unwrap_or(0)
    };
    match inst.opcode {
        O::EntryPoint | O::ConditionalEntryPointINTEL => {
            let shift = usize::from(inst.opcode == O::ConditionalEntryPointINTEL);
            let model = word(shift);
            let function = word(1 + shift);
            state.entry_points.push(function);
            if inst.opcode == O::EntryPoint {
                let name = inst
                    .operands
                    .get(2)
                    .map(|o| crate::codec::string_operand(&inst.words[o.offset..]))
                    .unwrap_or_default();
                if !state.entry_names.insert((name, model)) {
                    return Err(ErrorKind::DuplicateEntryPoint.into());
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
                return Err(ErrorKind::CallOutsideFunction.into());
            }
            state.call_targets.insert(word(2));
        }
        _ => {}
    }
    ids::check(state, inst)?;
    if matches!(inst.opcode, O::Capability | O::ConditionalCapabilityINTEL) {
        let cap = word(usize::from(inst.opcode == O::ConditionalCapabilityINTEL));
        capability::check(state, cap)?;
    }
    layout::check(state, inst)?;
    instruction::cfg(state, inst)?;
    instruction::check(state, inst)
}
