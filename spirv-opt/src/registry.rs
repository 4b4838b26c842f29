//! The pass registry: one row per pass spirv-opt 2025.5 has (its flag, its argument,
//! a line of help, and what it runs on), read by [`Optimizer::register_flag`] and by
//! `spirv-asm opt` (its flags and its `--help`). Adding a pass is writing its file and
//! turning its row's `missing(…)` into the constructor.
//!
//! [`Optimizer::register_flag`]: crate::Optimizer::register_flag
//!
//! ```
//! use spirv_opt::registry::{self, RunsOn};
//! let row = registry::lookup("strip-debug").unwrap();
//! assert_eq!(row.runs_on(), RunsOn::Editor);
//! assert!(registry::PASSES.iter().any(|p| p.flag == "merge-return"));
//! ```

use crate::pass::{Pass, PassOptions};
use crate::passes;
use crate::structural::StructuralPass as S;

/// What a pass's flag takes after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Arg {
    /// Nothing: `--flag`.
    None,
    /// An optional value, `--flag[=VALUE]`; the text names it.
    Optional(&'static str),
    /// A value, `--flag=VALUE` or (for the flags spirv-opt reads that way for
    /// backwards compatibility) the next argument; the text names it.
    Required(&'static str),
}

/// What a registered pass runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum RunsOn {
    /// The editor (`spirv_core::edit`): the structural passes, which decide
    /// instruction by instruction and write the module in one pass.
    Editor,
    /// The optimizer IR.
    Ir,
    /// A preset: a list of other rows.
    Preset,
    /// Not implemented yet.
    Missing,
}

/// How a row makes its pass (or passes).
#[derive(Clone, Copy)]
pub(crate) enum Kind {
    /// A structural pass, from the flag's value.
    Editor(fn(Option<&str>) -> Result<S, String>),
    /// A pass on the optimizer IR, from the flag's value and the optimizer's options.
    Ir(fn(Option<&str>, &PassOptions) -> Result<Pass, String>),
    /// A preset: these rows' flags in order (with `=VALUE` where a value is set).
    Preset(&'static [&'static str]),
    /// Not implemented yet.
    Missing,
}

/// One pass of spirv-opt 2025.5.
#[derive(Clone, Copy)]
pub struct PassInfo {
    /// The flag, without its leading dashes (`-O`'s row is `O`).
    pub flag: &'static str,
    /// What the flag takes.
    pub arg: Arg,
    /// One line of help.
    pub help: &'static str,
    /// Whether spirv-opt 2025.5's command line has this flag (a few passes are
    /// reachable only through the presets and the API).
    pub cli: bool,
    /// Whether spirv-opt's command line also takes the value as the next argument
    /// (`--loop-fusion 4`), a form it keeps for backwards compatibility.
    pub next_arg: bool,
    pub(crate) kind: Kind,
}

impl core::fmt::Debug for PassInfo {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("PassInfo")
            .field("flag", &self.flag)
            .field("arg", &self.arg)
            .field("runs_on", &self.runs_on())
            .finish_non_exhaustive()
    }
}

impl PassInfo {
    /// What the pass runs on.
    pub fn runs_on(&self) -> RunsOn {
        match self.kind {
            Kind::Editor(_) => RunsOn::Editor,
            Kind::Ir(_) => RunsOn::Ir,
            Kind::Preset(_) => RunsOn::Preset,
            Kind::Missing => RunsOn::Missing,
        }
    }

    /// Whether the pass (or every pass of the preset) is implemented.
    pub fn is_implemented(&self) -> bool {
        self.missing().is_empty()
    }

    /// The flags of this row (a pass) or of its preset's passes that are not
    /// implemented yet, each once, in order.
    pub fn missing(&self) -> Vec<&'static str> {
        let mut out: Vec<&'static str> = Vec::new();
        match self.kind {
            Kind::Missing => out.push(self.flag),
            Kind::Preset(list) => {
                for item in list {
                    let name = item.split('=').next().unwrap_or(item);
                    let missing = lookup(name).is_none_or(|r| matches!(r.kind, Kind::Missing));
                    if missing && !out.contains(&name) {
                        out.push(name);
                    }
                }
            }
            Kind::Editor(_) | Kind::Ir(_) => {}
        }
        out
    }

    /// The flag as written on a command line (`--strip-debug`, `-O`).
    pub fn dashed(&self) -> String {
        if self.flag == "O" || self.flag == "Os" {
            format!("-{}", self.flag)
        } else {
            format!("--{}", self.flag)
        }
    }
}

/// The row of `flag` (without dashes; `O` and `Os` for the presets), if spirv-opt has
/// such a pass.
pub fn lookup(flag: &str) -> Option<&'static PassInfo> {
    PASSES.iter().find(|p| p.flag == flag)
}

/// The flags of the rows that run on `on`, in the registry's order.
pub fn flags(on: RunsOn) -> Vec<&'static str> {
    PASSES
        .iter()
        .filter(|p| p.runs_on() == on)
        .map(|p| p.flag)
        .collect()
}

/// Whether `flag` (without dashes) takes a value.
pub fn takes_value(flag: &str) -> bool {
    lookup(flag).is_some_and(|p| p.arg != Arg::None)
}

const fn row(flag: &'static str, help: &'static str, kind: Kind) -> PassInfo {
    PassInfo {
        flag,
        arg: Arg::None,
        help,
        cli: true,
        next_arg: false,
        kind,
    }
}

const fn missing(flag: &'static str, help: &'static str) -> PassInfo {
    row(flag, help, Kind::Missing)
}

const fn with_arg(mut p: PassInfo, arg: Arg, next_arg: bool) -> PassInfo {
    p.arg = arg;
    p.next_arg = next_arg;
    p
}

const fn not_on_cli(mut p: PassInfo) -> PassInfo {
    p.cli = false;
    p
}

/// A structural pass that takes no value.
const fn editor(
    flag: &'static str,
    help: &'static str,
    make: fn(Option<&str>) -> Result<S, String>,
) -> PassInfo {
    row(flag, help, Kind::Editor(make))
}

/// A pass on the optimizer IR.
const fn ir(
    flag: &'static str,
    help: &'static str,
    make: fn(Option<&str>, &PassOptions) -> Result<Pass, String>,
) -> PassInfo {
    row(flag, help, Kind::Ir(make))
}

/// The passes of `-O` (spirv-opt 2025.5's `RegisterPerformancePasses`), in order.
pub const PERFORMANCE: &[&str] = &[
    "wrap-opkill",
    "eliminate-dead-branches",
    "merge-return",
    "inline-entry-points-exhaustive",
    "eliminate-dead-functions",
    "eliminate-dead-code-aggressive",
    "private-to-local",
    "eliminate-local-single-block",
    "eliminate-local-single-store",
    "eliminate-dead-code-aggressive",
    "scalar-replacement=0",
    "convert-local-access-chains",
    "eliminate-local-single-block",
    "eliminate-local-single-store",
    "eliminate-dead-code-aggressive",
    "eliminate-local-multi-store",
    "eliminate-dead-code-aggressive",
    "ccp",
    "eliminate-dead-code-aggressive",
    "loop-unroll",
    "eliminate-dead-branches",
    "redundancy-elimination",
    "combine-access-chains",
    "simplify-instructions",
    "scalar-replacement=0",
    "convert-local-access-chains",
    "eliminate-local-single-block",
    "eliminate-local-single-store",
    "eliminate-dead-code-aggressive",
    "ssa-rewrite",
    "eliminate-dead-code-aggressive",
    "vector-dce",
    "eliminate-dead-inserts",
    "eliminate-dead-branches",
    "simplify-instructions",
    "if-conversion",
    "copy-propagate-arrays",
    "reduce-load-size",
    "eliminate-dead-code-aggressive",
    "merge-blocks",
    "redundancy-elimination",
    "eliminate-dead-branches",
    "merge-blocks",
    "simplify-instructions",
];

/// The passes of `-Os` (spirv-opt 2025.5's `RegisterSizePasses`), in order.
pub const SIZE: &[&str] = &[
    "wrap-opkill",
    "eliminate-dead-branches",
    "merge-return",
    "inline-entry-points-exhaustive",
    "eliminate-dead-functions",
    "private-to-local",
    "scalar-replacement=0",
    "eliminate-local-multi-store",
    "ccp",
    "loop-unroll",
    "eliminate-dead-branches",
    "simplify-instructions",
    "scalar-replacement=0",
    "eliminate-local-single-store",
    "if-conversion",
    "simplify-instructions",
    "eliminate-dead-code-aggressive",
    "eliminate-dead-branches",
    "merge-blocks",
    "convert-local-access-chains",
    "eliminate-local-single-block",
    "eliminate-dead-code-aggressive",
    "copy-propagate-arrays",
    "vector-dce",
    "eliminate-dead-inserts",
    "eliminate-dead-members",
    "eliminate-local-single-store",
    "merge-blocks",
    "eliminate-local-multi-store",
    "redundancy-elimination",
    "simplify-instructions",
    "eliminate-dead-code-aggressive",
    "cfg-cleanup",
];

/// The passes of `--legalize-hlsl` (spirv-opt 2025.5's `RegisterLegalizationPasses`),
/// in order.
pub const LEGALIZATION: &[&str] = &[
    "wrap-opkill",
    "eliminate-dead-branches",
    "merge-return",
    "inline-entry-points-exhaustive",
    "eliminate-dead-functions",
    "private-to-local",
    "fix-storage-class",
    "eliminate-local-single-block",
    "eliminate-local-single-store",
    "eliminate-dead-code-aggressive",
    "scalar-replacement=0",
    "eliminate-local-single-block",
    "eliminate-local-single-store",
    "eliminate-dead-code-aggressive",
    "eliminate-local-multi-store",
    "eliminate-dead-code-aggressive",
    "ccp",
    "loop-unroll",
    "eliminate-dead-branches",
    "simplify-instructions",
    "eliminate-dead-code-aggressive",
    "copy-propagate-arrays",
    "vector-dce",
    "eliminate-dead-inserts",
    "reduce-load-size",
    "eliminate-dead-code-aggressive",
    "remove-unused-interface-variables",
    "interpolate-fixup",
    "invocation-interlock-placement",
    "fix-opextinst-opcodes",
];

/// Every pass and preset of spirv-opt 2025.5, in the order of its `--help` (those it
/// reaches only through presets at the end).
pub static PASSES: &[PassInfo] = &[
    missing(
        "amd-ext-to-khr",
        "Replace AMD extension instructions with their KHR equivalents.",
    ),
    ir(
        passes::ccp::FLAG,
        "Sparse conditional constant propagation.",
        |_, _| Ok(Pass::ir(passes::ccp::Ccp)),
    ),
    ir(
        passes::cfg_cleanup::FLAG,
        "Clean up the control flow graph: remove the blocks unreachable from the entry.",
        |_, _| Ok(Pass::ir(passes::cfg_cleanup::CfgCleanup)),
    ),
    ir(
        passes::combine_access_chains::FLAG,
        "Combine chained access chains into one.",
        |_, _| Ok(Pass::ir(passes::combine_access_chains::CombineAccessChains)),
    ),
    editor(
        S::CompactIds.flag(),
        "Renumber every id 1, 2, ... in order of first mention.",
        |_| Ok(S::CompactIds),
    ),
    ir(
        passes::local_access_chain::FLAG,
        "Replace loads and stores through constant access chains into function-scope variables with whole-variable loads, inserts and stores.",
        |_, _| {
            Ok(Pass::ir(
                passes::local_access_chain::LocalAccessChainConvert,
            ))
        },
    ),
    missing(
        "convert-relaxed-to-half",
        "Convert RelaxedPrecision arithmetic to half precision.",
    ),
    with_arg(
        missing(
            "convert-to-sampled-image",
            "Convert images and samplers bound at these descriptor set/binding pairs to sampled images.",
        ),
        Arg::Required("\"<descriptor set>:<binding> ...\""),
        false,
    ),
    ir(
        passes::copy_prop_arrays::FLAG,
        "Propagate array copies made through function-scope variables to their uses.",
        |_, _| Ok(Pass::ir(passes::copy_prop_arrays::CopyPropagateArrays)),
    ),
    missing(
        "replace-desc-array-access-using-var-index",
        "Replace descriptor-array accesses with a variable index by a switch over constant indices.",
    ),
    missing(
        "spread-volatile-semantics",
        "Add Volatile to loads of volatile built-ins.",
    ),
    missing(
        "descriptor-scalar-replacement",
        "Replace arrays and structs of descriptors by one variable per element.",
    ),
    missing(
        "descriptor-composite-scalar-replacement",
        "Replace structs of descriptors by one variable per member.",
    ),
    missing(
        "descriptor-array-scalar-replacement",
        "Replace arrays of descriptors by one variable per element.",
    ),
    ir(
        passes::dead_branch_elim::FLAG,
        "Turn branches on constant conditions into unconditional ones and remove the blocks that become unreachable.",
        |_, _| Ok(Pass::ir(passes::dead_branch_elim::DeadBranchElim)),
    ),
    ir(
        passes::adce::FLAG,
        "Remove instructions that do not contribute to a function's output (aggressive dead code elimination).",
        |_, o| {
            Ok(Pass::ir(passes::adce::AggressiveDce {
                preserve_interface: o.preserve_interface,
                remove_outputs: false,
            }))
        },
    ),
    editor(
        S::EliminateDeadConst.flag(),
        "Remove constants nothing uses, with their names and decorations.",
        |_| Ok(S::EliminateDeadConst),
    ),
    ir(
        passes::dead_functions::FLAG,
        "Remove functions no entry point or export reaches.",
        |_, _| Ok(Pass::ir(passes::dead_functions::EliminateDeadFunctions)),
    ),
    ir(
        passes::dead_inserts::FLAG,
        "Remove OpCompositeInsert instructions whose values are never read.",
        |_, _| Ok(Pass::ir(passes::dead_inserts::DeadInserts)),
    ),
    missing(
        "eliminate-dead-input-components",
        "Remove trailing components of input arrays that are never read.",
    ),
    missing(
        "eliminate-dead-variables",
        "Remove global variables nothing uses.",
    ),
    missing(
        "eliminate-insert-extract",
        "Fold extracts of inserts and constructs to the values inserted.",
    ),
    ir(
        passes::ssa_rewrite::MULTI_STORE_FLAG,
        "Replace loads and stores of function-scope variables by SSA values (phis where needed).",
        |_, _| {
            Ok(Pass::ir(passes::ssa_rewrite::SsaRewrite {
                flag: passes::ssa_rewrite::MULTI_STORE_FLAG,
            }))
        },
    ),
    ir(
        passes::local_single_block::FLAG,
        "Forward stores to loads of function-scope variables within one block.",
        |_, _| Ok(Pass::ir(passes::local_single_block::LocalSingleBlock)),
    ),
    ir(
        passes::local_single_store::FLAG,
        "Replace loads of function-scope variables stored once by the stored value.",
        |_, _| Ok(Pass::ir(passes::local_single_store::LocalSingleStore)),
    ),
    missing(
        "fix-func-call-param",
        "Make function-call arguments pointers to variables where the callee requires it.",
    ),
    missing(
        "flatten-decorations",
        "Replace decoration groups by plain decorations.",
    ),
    missing(
        "fold-spec-const-op-composite",
        "Fold specialization constant operations and composites of constants.",
    ),
    editor(
        S::FreezeSpecConst.flag(),
        "Make specialization constants plain constants.",
        |_| Ok(S::FreezeSpecConst),
    ),
    missing(
        "graphics-robust-access",
        "Clamp indices so that accesses stay in bounds (robust buffer access).",
    ),
    ir(
        passes::if_conversion::FLAG,
        "Turn simple if-then-else diamonds into OpSelect.",
        |_, _| Ok(Pass::ir(passes::if_conversion::IfConversion)),
    ),
    ir(
        passes::inline::FLAG,
        "Inline every function call reachable from an entry point.",
        |_, _| Ok(Pass::ir(passes::inline::InlineExhaustive)),
    ),
    missing(
        "inline-entry-points-opaque",
        "Inline calls with opaque-typed arguments or results.",
    ),
    with_arg(
        row(
            "legalize-hlsl",
            "Legalize the output of HLSL front ends (a preset; implies --before-hlsl-legalization).",
            Kind::Preset(LEGALIZATION),
        ),
        Arg::None,
        false,
    ),
    ir(
        passes::local_redundancy::FLAG,
        "Remove instructions that compute a value already computed in the same block.",
        |_, _| {
            Ok(Pass::ir(
                passes::local_redundancy::LocalRedundancyElimination,
            ))
        },
    ),
    with_arg(
        missing(
            "loop-fission",
            "Split loops whose register pressure exceeds the threshold.",
        ),
        Arg::Required("<threshold>"),
        true,
    ),
    with_arg(
        missing(
            "loop-fusion",
            "Fuse adjacent compatible loops, up to this many registers per loop.",
        ),
        Arg::Required("<max registers>"),
        true,
    ),
    missing(
        "loop-invariant-code-motion",
        "Hoist loop-invariant instructions out of loops.",
    ),
    ir(
        passes::loop_unroll::FLAG,
        "Fully unroll loops marked Unroll whose trip count is known.",
        |_, _| Ok(Pass::ir(passes::loop_unroll::LoopUnroll)),
    ),
    with_arg(
        missing(
            "loop-unroll-partial",
            "Partially unroll loops by this factor.",
        ),
        Arg::Required("<factor>"),
        true,
    ),
    missing(
        "loop-peeling",
        "Peel loop iterations to remove conditions that depend on the induction variable.",
    ),
    with_arg(
        missing(
            "loop-peeling-threshold",
            "The code-size threshold of --loop-peeling.",
        ),
        Arg::Required("<threshold>"),
        true,
    ),
    ir(
        passes::merge_blocks::FLAG,
        "Merge a block into its only predecessor when that has it as its only successor.",
        |_, _| Ok(Pass::ir(passes::merge_blocks::MergeBlocks)),
    ),
    ir(
        passes::merge_return::FLAG,
        "Give each function one return, at the end of its body.",
        |_, _| Ok(Pass::ir(passes::merge_return::MergeReturn)),
    ),
    with_arg(
        missing(
            "modify-maximal-reconvergence",
            "Add or remove the MaximallyReconvergesKHR execution mode.",
        ),
        Arg::Required("[add|remove]"),
        false,
    ),
    missing(
        "loop-unswitch",
        "Move loop-invariant conditions out of loops.",
    ),
    row(
        "O",
        "Optimize for performance (a preset).",
        Kind::Preset(PERFORMANCE),
    ),
    row("Os", "Optimize for size (a preset).", Kind::Preset(SIZE)),
    ir(
        passes::private_to_local::FLAG,
        "Change Private variables used in one function to Function variables.",
        |_, _| Ok(Pass::ir(passes::private_to_local::PrivateToLocal)),
    ),
    with_arg(
        ir(
            passes::reduce_load_size::FLAG,
            "Replace loads of composites used only by extracts with loads of the elements, when the share of elements used is below the threshold (default 0.9).",
            |v, _| {
                Ok(Pass::ir(
                    passes::reduce_load_size::ReduceLoadSize::from_arg(v),
                ))
            },
        ),
        Arg::Optional("<threshold>"),
        false,
    ),
    ir(
        passes::redundancy::FLAG,
        "Remove instructions that compute a value a dominating instruction already computed.",
        |_, _| Ok(Pass::ir(passes::redundancy::RedundancyElimination)),
    ),
    missing(
        "relax-float-ops",
        "Decorate float operations RelaxedPrecision.",
    ),
    missing(
        "canonicalize-ids",
        "Renumber ids in a canonical order, stable across small changes.",
    ),
    editor(
        S::RemoveDuplicates.flag(),
        "Merge duplicate capabilities, extensions, imports, types and decorations.",
        |_| Ok(S::RemoveDuplicates),
    ),
    editor(
        S::RemoveUnusedInterfaceVariables.flag(),
        "Keep in each entry point's interface only the variables its call tree uses.",
        |_| Ok(S::RemoveUnusedInterfaceVariables),
    ),
    missing(
        "replace-invalid-opcode",
        "Replace instructions invalid in the module's execution model.",
    ),
    missing(
        "resolve-binding-conflicts",
        "Give descriptors that share a binding distinct bindings where their types conflict.",
    ),
    ir(
        passes::ssa_rewrite::FLAG,
        "Replace loads and stores of function-scope variables by SSA values.",
        |_, _| {
            Ok(Pass::ir(passes::ssa_rewrite::SsaRewrite {
                flag: passes::ssa_rewrite::FLAG,
            }))
        },
    ),
    with_arg(
        ir(
            passes::scalar_replacement::FLAG,
            "Replace function-scope composite variables by one variable per element, up to this many elements (0: no limit).",
            |v, _| passes::scalar_replacement::ScalarReplacement::from_arg(v).map(Pass::ir),
        ),
        Arg::Optional("<n>"),
        false,
    ),
    with_arg(
        editor(
            crate::structural::SET_SPEC_CONST_DEFAULT_VALUE,
            "Set the default values of the specialization constants with these SpecIds.",
            |v| S::set_spec_const_default_value(v.unwrap_or("")),
        ),
        Arg::Required("\"<spec id>:<value> ...\""),
        true,
    ),
    ir(
        passes::simplification::FLAG,
        "Fold instructions whose results are known or simpler.",
        |_, _| Ok(Pass::ir(passes::simplification::Simplification)),
    ),
    missing(
        "split-combined-image-sampler",
        "Split combined image-samplers into separate images and samplers.",
    ),
    missing(
        "strength-reduction",
        "Replace multiplications by powers of two with shifts.",
    ),
    editor(
        S::StripDebug.flag(),
        "Remove debug instructions, debug lines and debug-info global instructions.",
        |_| Ok(S::StripDebug),
    ),
    editor(
        S::StripNonSemantic.flag(),
        "Remove non-semantic instructions, imports, decorations and extensions.",
        |_| Ok(S::StripNonSemantic),
    ),
    row(
        "strip-reflect",
        "The old name of --strip-nonsemantic.",
        Kind::Editor(|_| Ok(S::StripNonSemantic)),
    ),
    with_arg(
        missing(
            "struct-packing",
            "Re-lay out the members of the named struct by a packing rule.",
        ),
        Arg::Required("name:rule"),
        false,
    ),
    with_arg(
        editor(
            S::SwitchDescriptorSet { from: 0, to: 0 }.flag(),
            "Move the variables of descriptor set <from> to set <to>.",
            |v| S::switch_descriptor_set(v.unwrap_or("")),
        ),
        Arg::Required("<from>:<to>"),
        false,
    ),
    editor(
        S::TrimCapabilities.flag(),
        "Remove capabilities and extensions the module does not need.",
        |_| Ok(S::TrimCapabilities),
    ),
    missing(
        "upgrade-memory-model",
        "Upgrade the GLSL450 memory model to the Vulkan memory model.",
    ),
    ir(
        passes::vector_dce::FLAG,
        "Remove vector components whose values are never used.",
        |_, _| Ok(Pass::ir(passes::vector_dce::VectorDce)),
    ),
    missing(
        "workaround-1209",
        "Work around a driver bug with OpKill in loops (issue 1209).",
    ),
    ir(
        passes::wrap_opkill::FLAG,
        "Wrap OpKill and OpTerminateInvocation in functions, so that callers can be inlined.",
        |_, _| Ok(Pass::ir(passes::wrap_opkill::WrapOpKill)),
    ),
    editor(S::UnifyConst.flag(), "Merge identical constants.", |_| {
        Ok(S::UnifyConst)
    }),
    missing(
        "code-sink",
        "Move instructions down into the blocks that use them.",
    ),
    ir(
        passes::dead_members::FLAG,
        "Remove struct members nothing reads.",
        |_, _| Ok(Pass::ir(passes::dead_members::EliminateDeadMembers)),
    ),
    ir(
        passes::opextinst_forward_ref_fixup::FLAG,
        "Use OpExtInstWithForwardRefsKHR where a non-semantic instruction refers forward, OpExtInst elsewhere.",
        |_, _| {
            Ok(Pass::ir(
                passes::opextinst_forward_ref_fixup::OpExtInstForwardRefFixup,
            ))
        },
    ),
    ir(
        passes::fix_storage_class::FLAG,
        "Fix the storage classes and types of pointers HLSL front ends leave wrong.",
        |_, _| Ok(Pass::ir(passes::fix_storage_class::FixStorageClass)),
    ),
    ir(
        passes::interp_fixup::FLAG,
        "Rewrite interpolation extended instructions on loaded values to use the variable.",
        |_, _| Ok(Pass::ir(passes::interp_fixup::InterpFixup)),
    ),
    missing(
        "remove-dont-inline",
        "Remove DontInline from every function.",
    ),
    not_on_cli(ir(
        passes::interlock_placement::FLAG,
        "Move fragment-shader interlock begin/end around the critical section.",
        |_, _| Ok(Pass::ir(passes::interlock_placement::InterlockPlacement)),
    )),
];
