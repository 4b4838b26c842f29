//! The optimizer, as `spirv-tools`' `opt` module: [`create`], the [`Optimizer`] trait,
//! [`Options`] and the [`Passes`] enum; `spirv_opt` runs the passes, validating first
//! as SPIRV-Tools' `Optimizer::Run` does.

use crate::TargetEnv;
use crate::binary::Binary;
use crate::error::{Diagnostic, Error, Message, MessageCallback, SpirvResult};
use crate::val::ValidatorOptions;

/// `CompiledOptimizer` (with `use-compiled-tools`).
#[cfg(feature = "use-compiled-tools")]
pub mod compiled {
    crate::opt::optimizer_type!(
        CompiledOptimizer,
        "`spirv-tools`' optimizer over SPIRV-Tools' C++ library; here, `spirv_opt`."
    );
}

/// `ToolOptimizer` (with `use-installed-tools`).
#[cfg(feature = "use-installed-tools")]
pub mod tool {
    crate::opt::optimizer_type!(
        ToolOptimizer,
        "`spirv-tools`' optimizer over an installed spirv-opt; here, `spirv_opt`."
    );
}

/// Defines an optimizer type: `spirv-tools` has one per back end, this crate runs the
/// same code for both.
macro_rules! optimizer_type {
    ($name:ident, $doc:literal) => {
        #[doc = $doc]
        #[derive(Default)]
        pub struct $name {
            inner: crate::opt::Registered,
        }

        impl crate::opt::Optimizer for $name {
            fn with_env(target_env: crate::TargetEnv) -> Self {
                $name {
                    inner: crate::opt::Registered::new(target_env),
                }
            }

            fn optimize<MC: crate::error::MessageCallback>(
                &self,
                input: impl AsRef<[u32]>,
                msg_callback: &mut MC,
                options: Option<crate::opt::Options>,
            ) -> Result<crate::binary::Binary, crate::Error> {
                self.inner.optimize(input.as_ref(), msg_callback, options)
            }

            fn register_pass(&mut self, pass: crate::opt::Passes) -> &mut Self {
                self.inner.steps.push(crate::opt::Step::Pass(pass));
                self
            }

            fn register_performance_passes(&mut self) -> &mut Self {
                self.inner.steps.push(crate::opt::Step::Performance);
                self
            }

            fn register_size_passes(&mut self) -> &mut Self {
                self.inner.steps.push(crate::opt::Step::Size);
                self
            }

            fn register_hlsl_legalization_passes(&mut self) -> &mut Self {
                self.inner.steps.push(crate::opt::Step::Legalization);
                self
            }
        }
    };
}
pub(crate) use optimizer_type;

/// The passes `spirv-tools` can register one by one (SPIRV-Tools' `Create…Pass`
/// functions without arguments). Each is a spirv-opt pass; [`Passes::flag`] names it.
#[derive(Copy, Clone, Debug)]
#[allow(missing_docs, clippy::upper_case_acronyms)]
pub enum Passes {
    AggressiveDCE,
    AmdExtToKhr,
    BlockMerge,
    ConditionalConstantPropagation,
    CFGCleanup,
    CodeSinking,
    CombineAccessChains,
    CompactIds,
    ConvertRelaxedToHalf,
    CopyPropagateArrays,
    DeadBranchElim,
    DeadInsertElim,
    DeadVariableElimination,
    DescriptorScalarReplacement,
    EliminateDeadConstant,
    EliminateDeadFunctions,
    EliminateDeadMembers,
    FixStorageClass,
    FlattenDecoration,
    FoldSpecConstantOpAndComposite,
    FreezeSpecConstantValue,
    GraphicsRobustAccess,
    IfConversion,
    InlineExhaustive,
    InlineOpaque,
    InsertExtractElim,
    InterpolateFixup,
    LocalAccessChainConvert,
    LocalMultiStoreElim,
    LocalRedundancyElimination,
    LocalSingleBlockLoadStoreElim,
    LocalSingleStoreElim,
    LoopInvariantCodeMotion,
    LoopPeeling,
    LoopUnswitch,
    MergeReturn,
    Null,
    PrivateToLocal,
    PropagateLineInfo,
    ReduceLoadSize,
    RedundancyElimination,
    RedundantLineInfoElim,
    RelaxFloatOps,
    RemoveDuplicates,
    RemoveUnusedInterfaceVariables,
    ReplaceInvalidOpcode,
    Simplification,
    SSARewrite,
    StrengthReduction,
    StripDebugInfo,
    StripNonSemanticInfo,
    UnifyConstant,
    UpgradeMemoryModel,
    VectorDCE,
    Workaround1209,
    WrapOpKill,
}

impl Passes {
    /// Every variant, in declaration order.
    pub const ALL: [Passes; 56] = {
        use Passes as P;
        [
            P::AggressiveDCE,
            P::AmdExtToKhr,
            P::BlockMerge,
            P::ConditionalConstantPropagation,
            P::CFGCleanup,
            P::CodeSinking,
            P::CombineAccessChains,
            P::CompactIds,
            P::ConvertRelaxedToHalf,
            P::CopyPropagateArrays,
            P::DeadBranchElim,
            P::DeadInsertElim,
            P::DeadVariableElimination,
            P::DescriptorScalarReplacement,
            P::EliminateDeadConstant,
            P::EliminateDeadFunctions,
            P::EliminateDeadMembers,
            P::FixStorageClass,
            P::FlattenDecoration,
            P::FoldSpecConstantOpAndComposite,
            P::FreezeSpecConstantValue,
            P::GraphicsRobustAccess,
            P::IfConversion,
            P::InlineExhaustive,
            P::InlineOpaque,
            P::InsertExtractElim,
            P::InterpolateFixup,
            P::LocalAccessChainConvert,
            P::LocalMultiStoreElim,
            P::LocalRedundancyElimination,
            P::LocalSingleBlockLoadStoreElim,
            P::LocalSingleStoreElim,
            P::LoopInvariantCodeMotion,
            P::LoopPeeling,
            P::LoopUnswitch,
            P::MergeReturn,
            P::Null,
            P::PrivateToLocal,
            P::PropagateLineInfo,
            P::ReduceLoadSize,
            P::RedundancyElimination,
            P::RedundantLineInfoElim,
            P::RelaxFloatOps,
            P::RemoveDuplicates,
            P::RemoveUnusedInterfaceVariables,
            P::ReplaceInvalidOpcode,
            P::Simplification,
            P::SSARewrite,
            P::StrengthReduction,
            P::StripDebugInfo,
            P::StripNonSemanticInfo,
            P::UnifyConstant,
            P::UpgradeMemoryModel,
            P::VectorDCE,
            P::Workaround1209,
            P::WrapOpKill,
        ]
    };

    /// The spirv-opt flag of the pass (without dashes), or `None` for the passes that
    /// do nothing in SPIRV-Tools 2025.5 (`Null`, and `PropagateLineInfo` and
    /// `RedundantLineInfoElim`, which it has emptied).
    pub fn flag(self) -> Option<&'static str> {
        use Passes as P;
        Some(match self {
            P::AggressiveDCE => "eliminate-dead-code-aggressive",
            P::AmdExtToKhr => "amd-ext-to-khr",
            P::BlockMerge => "merge-blocks",
            P::ConditionalConstantPropagation => "ccp",
            P::CFGCleanup => "cfg-cleanup",
            P::CodeSinking => "code-sink",
            P::CombineAccessChains => "combine-access-chains",
            P::CompactIds => "compact-ids",
            P::ConvertRelaxedToHalf => "convert-relaxed-to-half",
            P::CopyPropagateArrays => "copy-propagate-arrays",
            P::DeadBranchElim => "eliminate-dead-branches",
            P::DeadInsertElim => "eliminate-dead-inserts",
            P::DeadVariableElimination => "eliminate-dead-variables",
            P::DescriptorScalarReplacement => "descriptor-scalar-replacement",
            P::EliminateDeadConstant => "eliminate-dead-const",
            P::EliminateDeadFunctions => "eliminate-dead-functions",
            P::EliminateDeadMembers => "eliminate-dead-members",
            P::FixStorageClass => "fix-storage-class",
            P::FlattenDecoration => "flatten-decorations",
            P::FoldSpecConstantOpAndComposite => "fold-spec-const-op-composite",
            P::FreezeSpecConstantValue => "freeze-spec-const",
            P::GraphicsRobustAccess => "graphics-robust-access",
            P::IfConversion => "if-conversion",
            P::InlineExhaustive => "inline-entry-points-exhaustive",
            P::InlineOpaque => "inline-entry-points-opaque",
            P::InsertExtractElim => "eliminate-insert-extract",
            P::InterpolateFixup => "interpolate-fixup",
            P::LocalAccessChainConvert => "convert-local-access-chains",
            P::LocalMultiStoreElim => "eliminate-local-multi-store",
            P::LocalRedundancyElimination => "local-redundancy-elimination",
            P::LocalSingleBlockLoadStoreElim => "eliminate-local-single-block",
            P::LocalSingleStoreElim => "eliminate-local-single-store",
            P::LoopInvariantCodeMotion => "loop-invariant-code-motion",
            P::LoopPeeling => "loop-peeling",
            P::LoopUnswitch => "loop-unswitch",
            P::MergeReturn => "merge-return",
            P::Null | P::PropagateLineInfo | P::RedundantLineInfoElim => return None,
            P::PrivateToLocal => "private-to-local",
            P::ReduceLoadSize => "reduce-load-size",
            P::RedundancyElimination => "redundancy-elimination",
            P::RelaxFloatOps => "relax-float-ops",
            P::RemoveDuplicates => "remove-duplicates",
            P::RemoveUnusedInterfaceVariables => "remove-unused-interface-variables",
            P::ReplaceInvalidOpcode => "replace-invalid-opcode",
            P::Simplification => "simplify-instructions",
            P::SSARewrite => "ssa-rewrite",
            P::StrengthReduction => "strength-reduction",
            P::StripDebugInfo => "strip-debug",
            P::StripNonSemanticInfo => "strip-nonsemantic",
            P::UnifyConstant => "unify-const",
            P::UpgradeMemoryModel => "upgrade-memory-model",
            P::VectorDCE => "vector-dce",
            P::Workaround1209 => "workaround-1209",
            P::WrapOpKill => "wrap-opkill",
        })
    }
}

/// How to optimize (SPIRV-Tools' `OptimizerOptions`). The module is validated first
/// whatever these say, as with `spirv-tools`.
#[derive(Default, Clone)]
pub struct Options {
    /// The validator's options for the validation that comes first (`None`: the
    /// defaults).
    pub validator_options: Option<ValidatorOptions>,
    /// The largest id bound passes may take ids up to (`None`: 0x3FFFFF).
    pub max_id_bound: Option<u32>,
    /// Keep every descriptor binding, even unused ones.
    pub preserve_bindings: bool,
    /// Keep every specialization constant, even unused ones.
    pub preserve_spec_constants: bool,
}

/// Runs registered passes on modules.
pub trait Optimizer {
    /// An optimizer for `target_env` (the environment it validates for).
    fn with_env(target_env: TargetEnv) -> Self;

    /// Validates `input`, then runs the registered passes in order: the module
    /// spirv-opt 2025.5 would write. What spirv-opt would say goes to `msg_callback`.
    ///
    /// # Errors
    /// `InternalError` when the module is not valid or a pass fails (the message went
    /// to the callback; no diagnostic, as in `spirv-tools`), or when registered passes
    /// are not implemented yet (named in the callback and in the diagnostic).
    fn optimize<MC: MessageCallback>(
        &self,
        input: impl AsRef<[u32]>,
        msg_callback: &mut MC,
        options: Option<Options>,
    ) -> Result<Binary, Error>;

    /// Registers one pass.
    fn register_pass(&mut self, pass: Passes) -> &mut Self;
    /// Registers spirv-opt's `-O` passes (`RegisterPerformancePasses`).
    fn register_performance_passes(&mut self) -> &mut Self;
    /// Registers spirv-opt's `-Os` passes (`RegisterSizePasses`).
    fn register_size_passes(&mut self) -> &mut Self;
    /// Registers spirv-opt's `--legalize-hlsl` passes (`RegisterLegalizationPasses`),
    /// for the output of HLSL front ends. This does not relax the validation; set
    /// `before_legalization` in the validator's options for that.
    fn register_hlsl_legalization_passes(&mut self) -> &mut Self;
}

/// An optimizer for `te` (`None`: `TargetEnv::default()`, SPIR-V 1.5).
pub fn create(te: Option<TargetEnv>) -> impl Optimizer {
    let env = te.unwrap_or_default();
    #[cfg(feature = "use-compiled-tools")]
    {
        compiled::CompiledOptimizer::with_env(env)
    }
    #[cfg(not(feature = "use-compiled-tools"))]
    {
        Plain::with_env(env)
    }
}

#[cfg(not(feature = "use-compiled-tools"))]
optimizer_type!(
    Plain,
    "The optimizer [`create`] returns without `use-compiled-tools`."
);

/// One registration, in order.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Step {
    Pass(Passes),
    Performance,
    Size,
    Legalization,
}

/// What an optimizer type holds: its environment and its registrations.
#[derive(Default)]
pub(crate) struct Registered {
    target_env: TargetEnv,
    pub(crate) steps: Vec<Step>,
}

impl Registered {
    pub(crate) fn new(target_env: TargetEnv) -> Registered {
        Registered {
            target_env,
            steps: Vec::new(),
        }
    }

    pub(crate) fn optimize(
        &self,
        input: &[u32],
        callback: &mut dyn MessageCallback,
        options: Option<Options>,
    ) -> Result<Binary, Error> {
        let options = options.unwrap_or_default();
        let env = self.target_env.core()?;
        let mut o = spirv_asm::opt::optimizer();
        o.validator_options(options.validator_options.unwrap_or_default().to_core(env))
            .preserve_bindings(options.preserve_bindings)
            .preserve_spec_constants(options.preserve_spec_constants);
        if let Some(bound) = options.max_id_bound {
            o.max_id_bound(bound);
        }
        for step in &self.steps {
            match *step {
                Step::Pass(p) => {
                    if let Some(flag) = p.flag() {
                        // Every flag of `Passes::flag` is a spirv-opt pass without a value.
                        o.register_flag(&format!("--{flag}")).map_err(|e| Error {
                            inner: SpirvResult::InternalError,
                            diagnostic: Some(e.to_string().into()),
                        })?;
                    }
                }
                Step::Performance => {
                    o.register_performance_passes();
                }
                Step::Size => {
                    o.register_size_passes();
                }
                Step::Legalization => {
                    o.register_hlsl_legalization_passes();
                }
            }
        }
        let mut to_callback = |m: spirv_opt::Message| callback.on_message(Message::from_opt(m));
        match o.run_reporting(input, &mut to_callback) {
            Ok(out) => Ok(Binary::from_tool(out.words)),
            Err(e) => Err(Error {
                inner: SpirvResult::InternalError,
                // SPIRV-Tools' failures carry no diagnostic (their message went to the
                // callback); ours, passes not implemented yet, say which.
                diagnostic: matches!(e, spirv_opt::OptError::NotImplemented(_))
                    .then(|| Diagnostic::from(e.to_string())),
            }),
        }
    }
}
