//! The validator, as `spirv-tools`' `val` module: [`create`], the [`Validator`] trait,
//! [`ValidatorOptions`] and [`ValidatorLimits`]; `spirv_core::validate` runs, and a
//! fault reads as spirv-val 2025.5 words it.

use crate::TargetEnv;
use crate::error::{Diagnostic, Error, SpirvResult};
use spirv_core::validate::{self, Limits, ValidationError, ValidationErrorKind};

/// `CompiledValidator` (with `use-compiled-tools`).
#[cfg(feature = "use-compiled-tools")]
pub mod compiled {
    crate::val::validator_type!(
        CompiledValidator,
        "`spirv-tools`' validator over SPIRV-Tools' C++ library; here, the Rust one."
    );
}

/// `ToolValidator` (with `use-installed-tools`).
#[cfg(feature = "use-installed-tools")]
pub mod tool {
    crate::val::validator_type!(
        ToolValidator,
        "`spirv-tools`' validator over an installed spirv-val; here, the Rust one."
    );
}

/// Defines a validator type: `spirv-tools` has one per back end, this crate runs the
/// same code for both.
macro_rules! validator_type {
    ($name:ident, $doc:literal) => {
        #[doc = $doc]
        #[derive(Default)]
        pub struct $name {
            target_env: crate::TargetEnv,
        }

        impl crate::val::Validator for $name {
            fn with_env(target_env: crate::TargetEnv) -> Self {
                $name { target_env }
            }

            fn validate(
                &self,
                binary: impl AsRef<[u32]>,
                options: Option<crate::val::ValidatorOptions>,
            ) -> Result<(), crate::Error> {
                crate::val::run(self.target_env, binary.as_ref(), options)
            }
        }
    };
}
pub(crate) use validator_type;

/// A limit of the validator's that [`ValidatorOptions::max_limits`] sets (spirv-val's
/// `--max-*` options).
#[derive(Copy, Clone, Debug)]
pub enum ValidatorLimits {
    /// Members of one struct.
    StructMembers,
    /// Nesting of structs.
    StructDepth,
    /// `Function` variables.
    LocalVariables,
    /// Variables of other storage classes.
    GlobalVariables,
    /// Cases of one `OpSwitch`.
    SwitchBranches,
    /// Parameters of one function.
    FunctionArgs,
    /// Nesting of structured control flow.
    ControlFlowNestingDepth,
    /// Indexes of one access chain.
    AccessChainIndexes,
    /// The header's id bound.
    IdBound,
}

/// The validator's options (spirv-val's flags).
#[derive(Default, Clone)]
pub struct ValidatorOptions {
    /// `--relax-struct-store`: a store may write a struct of another type with the same
    /// layout.
    pub relax_struct_store: bool,
    /// `--relax-logical-pointer`: variables of pointer type and functions returning
    /// pointers in logical addressing.
    pub relax_logical_pointer: bool,
    /// `--before-hlsl-legalization`: rules the legalization passes will fix are
    /// relaxed (this sets `relax_logical_pointer` too, as SPIRV-Tools does).
    pub before_legalization: bool,
    /// `--relax-block-layout`; `None` leaves the environment's default (relaxed for
    /// Vulkan 1.1 and later).
    pub relax_block_layout: Option<bool>,
    /// `--uniform-buffer-standard-layout`.
    pub uniform_buffer_standard_layout: bool,
    /// `--scalar-block-layout`.
    pub scalar_block_layout: bool,
    /// `--skip-block-layout`.
    pub skip_block_layout: bool,
    /// `--max-*`: limits to set.
    pub max_limits: Vec<(ValidatorLimits, u32)>,
}

impl ValidatorOptions {
    /// `spirv_core`'s options for `env`.
    pub(crate) fn to_core(&self, env: spirv_core::TargetEnv) -> validate::Options<'static> {
        let mut limits = Limits::default();
        for &(limit, value) in &self.max_limits {
            let field = match limit {
                ValidatorLimits::StructMembers => &mut limits.max_struct_members,
                ValidatorLimits::StructDepth => &mut limits.max_struct_depth,
                ValidatorLimits::LocalVariables => &mut limits.max_local_variables,
                ValidatorLimits::GlobalVariables => &mut limits.max_global_variables,
                ValidatorLimits::SwitchBranches => &mut limits.max_switch_branches,
                ValidatorLimits::FunctionArgs => &mut limits.max_function_args,
                ValidatorLimits::ControlFlowNestingDepth => {
                    &mut limits.max_control_flow_nesting_depth
                }
                ValidatorLimits::AccessChainIndexes => &mut limits.max_access_chain_indexes,
                ValidatorLimits::IdBound => &mut limits.max_id_bound,
            };
            *field = value;
        }
        validate::Options {
            target_env: env,
            limits,
            relax_logical_pointer: self.relax_logical_pointer || self.before_legalization,
            relax_block_layout: self.relax_block_layout.unwrap_or(false),
            uniform_buffer_standard_layout: self.uniform_buffer_standard_layout,
            scalar_block_layout: self.scalar_block_layout,
            skip_block_layout: self.skip_block_layout,
            relax_struct_store: self.relax_struct_store,
            before_hlsl_legalization: self.before_legalization,
            ..validate::Options::default()
        }
    }
}

/// Validates modules for one environment.
pub trait Validator: Default {
    /// A validator for `target_env`.
    fn with_env(target_env: TargetEnv) -> Self;

    /// Validates `binary`: `Ok`, or the first fault, worded as spirv-val words it (the
    /// instruction it names in the diagnostic's notes).
    ///
    /// # Errors
    /// The module is not valid.
    fn validate(
        &self,
        binary: impl AsRef<[u32]>,
        options: Option<ValidatorOptions>,
    ) -> Result<(), Error>;
}

/// A validator for `te` (`None`: `TargetEnv::default()`, SPIR-V 1.5).
pub fn create(te: Option<TargetEnv>) -> impl Validator {
    let env = te.unwrap_or_default();
    #[cfg(feature = "use-compiled-tools")]
    {
        compiled::CompiledValidator::with_env(env)
    }
    #[cfg(not(feature = "use-compiled-tools"))]
    {
        Plain::with_env(env)
    }
}

#[cfg(not(feature = "use-compiled-tools"))]
validator_type!(
    Plain,
    "The validator [`create`] returns without `use-compiled-tools`."
);

/// Validates `words` for `env` with `options`.
pub(crate) fn run(
    env: TargetEnv,
    words: &[u32],
    options: Option<ValidatorOptions>,
) -> Result<(), Error> {
    let core = options.unwrap_or_default().to_core(env.core()?);
    validate::validate(words, &core).map_err(|fault| invalid(words, &fault, &core))
}

/// The error for a fault: spirv-val's text, split into its first line and the
/// instruction it names.
pub(crate) fn invalid(
    words: &[u32],
    fault: &ValidationError,
    options: &validate::Options<'static>,
) -> Error {
    let text = spirv_asm::opt::fault_text(words, fault, options);
    let (message, notes) = crate::error::split(&text);
    let inner = match fault.kind {
        ValidationErrorKind::Parse(_)
        | ValidationErrorKind::BadMagic
        | ValidationErrorKind::TruncatedHeader => SpirvResult::InvalidBinary,
        _ => SpirvResult::InvalidData,
    };
    Error {
        inner,
        diagnostic: Some(Diagnostic {
            line: 0,
            column: 0,
            index: fault.line(),
            message,
            notes,
            is_text: false,
        }),
    }
}
