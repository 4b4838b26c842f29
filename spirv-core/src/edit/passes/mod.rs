//! spirv-opt 2025.5's structural passes as plain functions over the editing API. Each
//! takes a module and returns the next one and whether it changed; [`run`] runs a list
//! of them as spirv-opt runs its flags, in order, and then (if any pass changed the
//! module) sets the bound to the largest id plus one, as spirv-opt does. On modules
//! that spirv-opt writes back unchanged when it runs no pass, the result is byte for
//! byte spirv-opt's.
//!
//! ```
//! use spirv_core::edit::passes::{run, Pass};
//! use spirv_core::{spv, spv::inst, Builder};
//!
//! let mut b = Builder::new((1, 0));
//! let int = b.id()?;
//! b.push(inst::TypeInt { result_id: int, width: 32, signedness: 1 })?;
//! b.push(inst::Name { target: int, name: "int".into() })?;
//! let module = b.build()?;
//!
//! let (stripped, changed) = run(&module, &[Pass::StripDebug])?;
//! assert!(changed);
//! assert_eq!(stripped.len(), 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod capabilities;
mod dead_const;
mod dead_functions;
mod descriptor;
mod duplicates;
mod interface;
mod kill;
mod nonsemantic;
mod spec;
mod strip;
mod unify;

pub use capabilities::trim_capabilities;
pub use dead_const::eliminate_dead_const;
pub use dead_functions::eliminate_dead_functions;
pub use descriptor::switch_descriptor_set;
pub use duplicates::remove_duplicates;
pub use interface::remove_unused_interface_variables;
pub use kill::Killer;
pub use nonsemantic::strip_nonsemantic;
pub use spec::{freeze_spec_const, set_spec_const_default_value};
pub use strip::strip_debug;
pub use unify::unify_const;

use super::{Bound, EditError, Editor};
use crate::__private::{String, Vec};
use crate::module::Module;
use crate::walk::NumberType;

/// How text values become literal words, for `--set-spec-const-default-value`: spirv-opt
/// reads them with spirv-as's number parser (`spirv_asm::opt` supplies one).
pub trait NumberParser {
    /// The words of `text` as a literal of type `ty`, or `None` if it is not one (the
    /// pass then leaves that constant as it is, as spirv-opt does).
    fn encode(&self, text: &str, ty: NumberType) -> Option<Vec<u32>>;
}

/// One pass, as spirv-opt names it on its command line.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Pass {
    /// `--strip-debug`: debug instructions (`OpString`, `OpSource*`, `OpName`,
    /// `OpMemberName`, `OpModuleProcessed`), debug lines, and the instructions of the
    /// debug-info sets ([`strip_debug`]).
    StripDebug,
    /// `--strip-nonsemantic` (and its old name `--strip-reflect`): non-semantic
    /// instructions, imports, decorations and extensions ([`strip_nonsemantic`]).
    StripNonSemantic,
    /// `--compact-ids`: every id renumbered 1, 2, … in order of first mention.
    CompactIds,
    /// `--remove-unused-interface-variables` ([`remove_unused_interface_variables`]).
    RemoveUnusedInterfaceVariables,
    /// `--eliminate-dead-const` ([`eliminate_dead_const`]).
    EliminateDeadConst,
    /// `--eliminate-dead-functions` ([`eliminate_dead_functions`]).
    EliminateDeadFunctions,
    /// `--freeze-spec-const` ([`freeze_spec_const`]).
    FreezeSpecConst,
    /// `--set-spec-const-default-value "<spec id>:<value> …"`
    /// ([`set_spec_const_default_value`]): the pairs, values as text.
    SetSpecConstDefaultValue(Vec<(u32, String)>),
    /// `--switch-descriptorset=<from>:<to>` ([`switch_descriptor_set`]).
    SwitchDescriptorSet {
        /// The descriptor set to move.
        from: u32,
        /// Where to.
        to: u32,
    },
    /// `--unify-const` ([`unify_const`]).
    UnifyConst,
    /// `--remove-duplicates` ([`remove_duplicates`]).
    RemoveDuplicates,
    /// `--trim-capabilities` ([`trim_capabilities`]).
    TrimCapabilities,
}

/// The flags of the passes, without their leading dashes (`strip-reflect` is
/// `strip-nonsemantic`'s old name).
pub const FLAGS: &[&str] = &[
    "strip-debug",
    "strip-nonsemantic",
    "strip-reflect",
    "compact-ids",
    "remove-unused-interface-variables",
    "eliminate-dead-const",
    "eliminate-dead-functions",
    "freeze-spec-const",
    "set-spec-const-default-value",
    "switch-descriptorset",
    "unify-const",
    "remove-duplicates",
    "trim-capabilities",
];

impl Pass {
    /// The pass's spirv-opt flag, without its leading dashes.
    pub fn flag(&self) -> &'static str {
        match self {
            Pass::StripDebug => "strip-debug",
            Pass::StripNonSemantic => "strip-nonsemantic",
            Pass::CompactIds => "compact-ids",
            Pass::RemoveUnusedInterfaceVariables => "remove-unused-interface-variables",
            Pass::EliminateDeadConst => "eliminate-dead-const",
            Pass::EliminateDeadFunctions => "eliminate-dead-functions",
            Pass::FreezeSpecConst => "freeze-spec-const",
            Pass::SetSpecConstDefaultValue(_) => "set-spec-const-default-value",
            Pass::SwitchDescriptorSet { .. } => "switch-descriptorset",
            Pass::UnifyConst => "unify-const",
            Pass::RemoveDuplicates => "remove-duplicates",
            Pass::TrimCapabilities => "trim-capabilities",
        }
    }

    /// Whether the flag (without dashes) takes a value (`=VALUE` or the next argument).
    pub fn takes_value(flag: &str) -> bool {
        matches!(
            flag,
            "set-spec-const-default-value" | "switch-descriptorset"
        )
    }

    /// The pass a spirv-opt flag (without dashes) names, with its value for the flags
    /// that take one.
    ///
    /// ```
    /// use spirv_core::edit::passes::Pass;
    /// assert_eq!(Pass::from_flag("strip-reflect", None), Ok(Pass::StripNonSemantic));
    /// assert_eq!(
    ///     Pass::from_flag("switch-descriptorset", Some("0:5")),
    ///     Ok(Pass::SwitchDescriptorSet { from: 0, to: 5 })
    /// );
    /// ```
    ///
    /// # Errors
    /// An unknown flag, or a value that does not read.
    pub fn from_flag(flag: &str, value: Option<&str>) -> Result<Pass, String> {
        Ok(match flag {
            "strip-debug" => Pass::StripDebug,
            "strip-nonsemantic" | "strip-reflect" => Pass::StripNonSemantic,
            "compact-ids" => Pass::CompactIds,
            "remove-unused-interface-variables" => Pass::RemoveUnusedInterfaceVariables,
            "eliminate-dead-const" => Pass::EliminateDeadConst,
            "eliminate-dead-functions" => Pass::EliminateDeadFunctions,
            "freeze-spec-const" => Pass::FreezeSpecConst,
            "unify-const" => Pass::UnifyConst,
            "remove-duplicates" => Pass::RemoveDuplicates,
            "trim-capabilities" => Pass::TrimCapabilities,
            "switch-descriptorset" => {
                let v = value.unwrap_or("");
                let parsed = v
                    .split_once(':')
                    .and_then(|(a, b)| Some((a.trim().parse().ok()?, b.trim().parse().ok()?)));
                match parsed {
                    Some((from, to)) => Pass::SwitchDescriptorSet { from, to },
                    None => {
                        return Err(alloc::format!(
                            "Invalid argument for --switch-descriptorset: {v}"
                        ));
                    }
                }
            }
            "set-spec-const-default-value" => {
                Pass::SetSpecConstDefaultValue(spec::parse_default_values(value.unwrap_or(""))?)
            }
            other => return Err(alloc::format!("unknown pass --{other}")),
        })
    }
}

/// Runs one pass; returns the module and whether it changed. The bound is kept (raised
/// only for ids the pass made), except by `--compact-ids`, which sets it one above the
/// last id.
///
/// # Errors
/// An instruction whose ids cannot be found where the pass needs them, an edited module
/// that does not read, or [`Pass::SetSpecConstDefaultValue`] without `numbers`.
pub fn run_one(
    module: &Module,
    pass: &Pass,
    numbers: Option<&dyn NumberParser>,
) -> Result<(Module, bool), EditError> {
    match pass {
        Pass::StripDebug => strip_debug(module),
        Pass::StripNonSemantic => strip_nonsemantic(module),
        Pass::CompactIds => {
            let compact = Editor::new(module).apply(Bound::Compact)?;
            let changed = compact.to_words() != module.to_words();
            Ok((compact, changed))
        }
        Pass::RemoveUnusedInterfaceVariables => remove_unused_interface_variables(module),
        Pass::EliminateDeadConst => eliminate_dead_const(module),
        Pass::EliminateDeadFunctions => eliminate_dead_functions(module),
        Pass::FreezeSpecConst => freeze_spec_const(module),
        Pass::SetSpecConstDefaultValue(values) => match numbers {
            Some(n) => set_spec_const_default_value(module, values, n),
            None => Err(EditError::NeedsNumberParser),
        },
        Pass::SwitchDescriptorSet { from, to } => switch_descriptor_set(module, *from, *to),
        Pass::UnifyConst => unify_const(module),
        Pass::RemoveDuplicates => remove_duplicates(module),
        Pass::TrimCapabilities => trim_capabilities(module),
    }
}

/// Runs `passes` in order, as `spirv-opt --skip-validation` runs its flags; returns the
/// module and whether any pass changed it. When one did, the bound is the largest id
/// plus one (spirv-opt's rule); otherwise it is kept. Either way the module is written
/// as spirv-opt writes its IR (debug lines carried as its loader carries them,
/// in-function `OpNop`s dropped).
///
/// # Errors
/// As [`run_one`].
pub fn run(module: &Module, passes: &[Pass]) -> Result<(Module, bool), EditError> {
    run_with(module, passes, None)
}

/// [`run`], with the number parser `--set-spec-const-default-value` needs.
///
/// # Errors
/// As [`run_one`].
pub fn run_with(
    module: &Module,
    passes: &[Pass],
    numbers: Option<&dyn NumberParser>,
) -> Result<(Module, bool), EditError> {
    let mut current = module.clone();
    let mut changed = false;
    for p in passes {
        let (next, c) = run_one(&current, p, numbers)?;
        current = next;
        changed |= c;
    }
    // spirv-opt writes its IR back whether or not a pass changed it, which drops
    // in-function `OpNop`s and repeated debug lines; so does this write.
    let bound = if changed { Bound::Tight } else { Bound::Keep };
    current = Editor::new(&current).apply(bound)?;
    Ok((current, changed))
}
