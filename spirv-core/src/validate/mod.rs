//! A SPIR-V validator that agrees with `spirv-val` (SPIRV-Tools 2025.5): the same
//! rules, checked in the same order, so that the first fault it reports is the one
//! spirv-val reports, with the instruction spirv-val names and the data of its message.
//!
//! ```
//! use spirv_core::validate::{validate, ValidationErrorKind, Options};
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
//! assert_eq!(err.kind, ValidationErrorKind::NoEntryPoint);
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
//! Vulkan interfaces' locations, components and storage classes; the built-ins;
//! atomics, barriers, non-uniform group instructions, memory semantics and scopes;
//! images, the extended instruction sets, derivatives, primitives, ray query, ray
//! tracing and its reorder instructions, mesh shading, tensors and graphs; the
//! execution-model limitations, small-type uses, invalid types and logical pointers.
//! [`FAMILIES`] lists every family, in spirv-val's order; [`NOT_CHECKED`], the families
//! of spirv-val with no rules here, is empty; every one of the 29,633 modules
//! spirv-val's own unit tests reject is rejected here too (the repository's
//! `docs/validator.md` says how that is checked).
//!
//! [`validate_all`] goes on past the first fault, spirv-val's one, to every fault
//! that is not a consequence of one already reported.
//!
//! # Where things are
//! One module per family of spirv-val's `source/val/`, named after its file; each opens
//! with what it owns and the spirv-val function it mirrors.
//!
//! | Module | spirv-val |
//! |---|---|
//! | `driver` | `validate.cpp`: the header, both loops, then the passes over the whole module, in spirv-val's order |
//! | `validation_state/` | `ValidationState_t`: what the first loop learns, the lookups every family shares |
//! | `faults` | the `faults!` table macro every fault enum is declared with |
//! | `error` | [`ValidationError`], [`ValidationErrorKind`]: the driver's own faults, one variant per family |
//! | `ids`, `capability`, `layout`, `instruction` | `validate_id.cpp`, `validate_capability.cpp`, `validate_layout.cpp`, `validate_instruction.cpp` |
//! | `types/`, `constants`, `literals`, `misc`, `debug`, `extension` | `validate_type.cpp`, `validate_constants.cpp`, … |
//! | `memory/`, `function`, `scopes` | `validate_memory.cpp`, `validate_function.cpp`, `validate_scopes.cpp` |
//! | `arithmetics`, `bitwise`, `composites/`, `conversion`, `logicals` | their `validate_*.cpp` |
//! | `cfg/`, `adjacency` | `validate_cfg.cpp`, `validate_adjacency.cpp` |
//! | `annotation`, `decorations/` | `validate_annotation.cpp`, `validate_decorations.cpp` |
//! | `modes/`, `entry_points` | `validate_mode_setting.cpp`, `ValidateEntryPoints` |
//! | `interfaces/`, `builtins/` | `validate_interfaces.cpp`, `validate_builtins.cpp` |
//!
//! # Adding a rule
//! A rule is a row in its family's fault table, a check that builds the row's variant
//! where spirv-val returns its diagnostic, and a test case. spirv-val's message, its
//! VUID and the ids it names live in the row alone: the check never writes text.
//!
//! **The row.** spirv-val's `ValidateExecutionMode` refuses `OriginLowerLeft` under
//! Vulkan with `VkErrorID(4653)`. [`ModeError`]'s table (in `modes/mod.rs`) has:
//! ```text
//! /// `OriginLowerLeft` in Vulkan.
//! #[vuid = "VUID-StandaloneSpirv-OriginLowerLeft-04653"]
//! OriginLowerLeft => "In the Vulkan environment, the OriginLowerLeft execution mode must not be used.",
//! ```
//! A row with data names its fields in the template (`{entry}` prints an [`Id`](crate::Id) as
//! spirv-val's `'N[%name]'`, `{entry:n}` as the bare number; see the `faults` module):
//! ids are [`Id`](crate::Id)s, enumerants their `spv` types.
//!
//! **The check.** In `modes/execution.rs`, at the point where spirv-val's
//! `ValidateExecutionMode` makes the same test, in the same order:
//! ```text
//! if vulkan && mode == M::OriginLowerLeft {
//!     return Err(rule(ModeError::OriginLowerLeft));
//! }
//! ```
//!
//! **The test.** A module that breaks the rule, and spirv-val's verdict on it (the rule
//! tests keep these as fixtures, re-recorded from spirv-val 2025.5 with `BLESS=1`);
//! `../shared/valsuite` holds spirv-val's own unit tests as cases to score against.
//! As code:
//! ```
//! use spirv_core::validate::{validate, ValidationErrorKind, ModeError, Options};
//! use spirv_core::{spv, spv::inst, Builder, TargetEnv};
//!
//! let mut b = Builder::new((1, 0));
//! b.push(inst::Capability { capability: spv::Capability::Shader })?;
//! b.push(inst::MemoryModel {
//!     addressing_model: spv::AddressingModel::Logical,
//!     memory_model: spv::MemoryModel::GLSL450,
//! })?;
//! let (void, fnty, main, label) = (b.id()?, b.id()?, b.id()?, b.id()?);
//! b.push(inst::EntryPoint {
//!     execution_model: spv::ExecutionModel::Fragment,
//!     entry_point: main,
//!     name: "main".into(),
//!     interfaces: Default::default(),
//! })?;
//! b.push(inst::ExecutionMode {
//!     entry_point: main,
//!     mode: spv::ExecutionModeData::OriginLowerLeft,
//! })?;
//! b.push(inst::TypeVoid { result_id: void })?;
//! b.push(inst::TypeFunction {
//!     result_id: fnty,
//!     return_type: void,
//!     parameter_types: Default::default(),
//! })?;
//! b.push(inst::Function {
//!     result_type: void,
//!     result_id: main,
//!     function_control: spv::FunctionControl::NONE,
//!     function_type: fnty,
//! })?;
//! b.push(inst::Label { result_id: label })?;
//! b.push(inst::Return {})?;
//! b.push(inst::FunctionEnd {})?;
//! let words = b.build()?.to_words();
//!
//! let options = Options { target_env: TargetEnv::Vulkan1_0, ..Options::default() };
//! let err = validate(&words, &options).unwrap_err();
//! assert_eq!(err.kind, ValidationErrorKind::Mode(ModeError::OriginLowerLeft));
//! assert_eq!(err.vuid(), Some("VUID-StandaloneSpirv-OriginLowerLeft-04653"));
//! assert!(err.to_string().contains(
//!     "[VUID-StandaloneSpirv-OriginLowerLeft-04653] In the Vulkan environment, the \
//!      OriginLowerLeft execution mode must not be used."
//! ));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//! Then run the valsuite score (`../shared/valsuite/score.py`): no case may go from
//! agreeing to disagreeing. A family that checks a new built-in, opcode or execution
//! model also lists it where its module says what it covers.

mod adjacency;
mod annotation;
mod arithmetics;
mod atomics;
mod barriers;
mod bitwise;
mod builtins;
mod capability;
mod cfg;
mod composites;
mod constants;
mod conversion;
mod coverage;
mod debug;
mod decorations;
mod derivatives;
mod driver;
mod entry_points;
mod error;
mod extension;
mod faults;
mod function;
mod graph;
mod ids;
mod image;
mod instruction;
mod interfaces;
mod invalid_type;
mod layout;
mod limitations;
mod literals;
mod logical_pointers;
mod logicals;
mod memory;
mod memory_semantics;
mod mesh_shading;
mod misc;
mod modes;
mod non_uniform;
mod primitives;
mod ray_query;
mod ray_tracing;
mod ray_tracing_reorder;
mod scopes;
mod small_type_uses;
mod tensor;
mod tensor_layout;
mod types;
mod validation_state;

pub use adjacency::AdjacencyError;
pub use arithmetics::ArithmeticError;
pub use atomics::AtomicError;
pub use barriers::BarrierError;
pub use bitwise::BitwiseError;
pub use builtins::{
    BuiltInError, BuiltInReference, BuiltInSubject, BuiltInTypeProblem, BuiltInUse,
    CHECKED_BUILT_INS,
};
pub use cfg::{CfgError, ConstructKind};
pub use composites::CompositeError;
pub use constants::ConstantError;
pub use conversion::ConversionError;
pub use coverage::{FAMILIES, Family, NOT_CHECKED};
pub use debug::DebugError;
pub use decorations::{
    DecorationError, LayoutFault, LayoutHint, LayoutRule, LayoutRules, Missing, TargetRule,
};
pub use derivatives::DerivativeError;
pub use error::{ValidationError, ValidationErrorKind};
pub use extension::ExtensionError;
pub use extension::{ClspvError, DebugInfoRule, ExtInstError, GlslRule, OpenClRule};
pub use function::FunctionError;
pub use graph::GraphError;
pub use image::ImageError;
pub use interfaces::InterfaceError;
pub use invalid_type::InvalidTypeError;
pub use limitations::LimitationError;
pub use literals::LiteralError;
pub use logical_pointers::LogicalPointerError;
pub use logicals::LogicalError;
pub use memory::{CopyOperand, MemoryError, RawChainOperand};
pub use memory_semantics::MemorySemanticsError;
pub use mesh_shading::MeshShadingError;
pub use misc::MiscError;
pub use modes::ModeError;
pub use non_uniform::NonUniformError;
pub use primitives::PrimitiveError;
pub use ray_query::RayQueryError;
pub use ray_tracing::RayTracingError;
pub use ray_tracing_reorder::RayTracingReorderError;
pub use scopes::ScopeError;
pub use small_type_uses::SmallTypeError;
pub use tensor::TensorError;
pub use tensor_layout::TensorLayoutError;
pub use types::TypeError;
pub use validation_state::ShapeError;

use crate::__private::Vec;
use crate::env::TargetEnv;
use crate::walk::ExtInstRegistry;
// What every family reads and returns.
use driver::Fault;
use validation_state::{Inst, Query, State};

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
/// they act in spirv-val (memory, functions, block layouts, logical pointers, …).
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

/// The module a validation reads: borrowed words, which the validator copies once (it
/// reads a module in host byte order, and swaps a copy of one in the other order), or
/// words the caller lends, read in place without that copy.
///
/// Borrowed words convert into it (`&words` where `words` is a `Vec<u32>`, a slice or an
/// array): that is the form to use unless the module is large and the copy matters.
/// [`Input::InPlace`] is for a caller that holds a big module's words and would rather
/// not copy them (the `spirv-asm val` command): they are handed back in host order,
/// swapped if they came in the other byte order, as the caller may want them to report
/// a fault.
#[derive(Debug)]
#[non_exhaustive]
pub enum Input<'w> {
    /// Words the validator copies before reading.
    Borrowed(&'w [u32]),
    /// Words read in place, and left in host order.
    InPlace(&'w mut Vec<u32>),
}

impl<'w> From<&'w [u32]> for Input<'w> {
    fn from(words: &'w [u32]) -> Self {
        Input::Borrowed(words)
    }
}

impl<'w> From<&'w Vec<u32>> for Input<'w> {
    fn from(words: &'w Vec<u32>) -> Self {
        Input::Borrowed(words)
    }
}

impl<'w, const N: usize> From<&'w [u32; N]> for Input<'w> {
    fn from(words: &'w [u32; N]) -> Self {
        Input::Borrowed(words)
    }
}

/// Runs the driver on `input`, copying borrowed words.
fn run(input: Input<'_>, options: &Options<'_>, all: bool, sink: &mut dyn FnMut(ValidationError)) {
    match input {
        Input::Borrowed(words) => driver::run(&mut words.to_vec(), options, all, sink),
        Input::InPlace(words) => driver::run(words, options, all, sink),
    }
}

/// Validates a module: `Ok` when it breaks none of the rules this validator checks,
/// else the first fault, the one spirv-val 2025.5 would report when the rules that
/// find it are among those checked here. This is the entry point to use when a
/// module only needs a verdict (spirv-val's default, and what the optimizer checks
/// before its presets); [`validate_all`] is for a report of every fault.
///
/// # Errors
/// The first fault.
pub fn validate<'w>(
    words: impl Into<Input<'w>>,
    options: &Options<'_>,
) -> Result<(), ValidationError> {
    let mut first = None;
    run(words.into(), options, false, &mut |e| first = Some(e));
    match first {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Validates a module and hands every fault it finds to `sink`, in spirv-val's order,
/// leaving out the consequences of a fault already reported (another use of the same
/// undefined id, say); a binary that does not parse has only that fault. Use it for a
/// report of every fault (spirv-val's `--keep-going`): faults stream to `sink` as they
/// are found, so memory stays that of the module however many faults it has, and a
/// caller that wants them all collects them:
///
/// ```
/// use spirv_core::validate::{validate, validate_all, Options};
///
/// let words = [0x0723_0203, 0x0001_0000, 0, 1, 0]; // a header and nothing else
/// let mut all = Vec::new();
/// validate_all(&words, &Options::default(), &mut |fault| all.push(fault));
/// // The first fault is `validate`'s.
/// assert_eq!(all.first(), validate(&words, &Options::default()).err().as_ref());
/// ```
pub fn validate_all<'w>(
    words: impl Into<Input<'w>>,
    options: &Options<'_>,
    sink: &mut dyn FnMut(ValidationError),
) {
    run(words.into(), options, true, sink);
}
