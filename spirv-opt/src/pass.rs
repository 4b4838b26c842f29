//! A pass as a value: what [`Optimizer::register_pass`](crate::Optimizer::register_pass)
//! takes, made from a registry row by flag ([`Pass::from_flag`]) or from a pass's own
//! value (a structural [`crate::structural::StructuralPass`]).

use crate::analysis::Analyses;
use crate::context::Context;
use crate::registry::{self, Kind, RunsOn};
use crate::structural::StructuralPass as S;
use core::fmt;
use std::sync::Arc;

/// What a pass on the optimizer IR did (spirv-opt's `Pass::Status`, failure apart).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Nothing changed (`SuccessWithoutChange`).
    Unchanged,
    /// The module changed (`SuccessWithChange`).
    Changed,
}

impl Status {
    /// `Changed` if `changed`.
    pub fn from_changed(changed: bool) -> Status {
        if changed {
            Status::Changed
        } else {
            Status::Unchanged
        }
    }
}

/// Why a pass failed (spirv-opt's `Status::Failure`, with what it reported).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PassError {
    /// The pass's flag.
    pub pass: &'static str,
    /// What went wrong (spirv-opt's message where it prints one).
    pub message: String,
}

impl fmt::Display for PassError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "--{}: {}", self.pass, self.message)
    }
}

impl std::error::Error for PassError {}

/// A pass on the optimizer IR: one file under `passes/`, one registry row. `process`
/// is spirv-opt's `Pass::Process`: it changes the module through the
/// [`Context`] (keeping the valid analyses up to date as spirv-opt's passes do) and
/// says whether it changed it; analyses the pass does not declare in `preserved` are
/// dropped when it did.
pub trait IrPass: fmt::Debug + Send + Sync {
    /// The pass's flag, without dashes.
    fn flag(&self) -> &'static str;
    /// The analyses the pass keeps valid when it changes the module
    /// (`GetPreservedAnalyses`).
    fn preserved(&self) -> Analyses {
        Analyses::NONE
    }
    /// Runs the pass.
    ///
    /// # Errors
    /// The pass fails (spirv-opt's `Status::Failure`).
    fn process(&self, cx: &mut Context) -> Result<Status, PassError>;
}

/// Runs `pass` on `cx` as spirv-opt's `Pass::Run` does: on a change, the analyses it
/// does not preserve are dropped.
///
/// # Errors
/// The pass fails.
pub fn run_ir_pass(pass: &dyn IrPass, cx: &mut Context) -> Result<Status, PassError> {
    let status = pass.process(cx)?;
    if status == Status::Changed {
        cx.invalidate_except(pass.preserved());
    }
    Ok(status)
}

/// The options a pass is made with, as spirv-opt gives them when it registers a pass.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PassOptions {
    /// Keep every entry point's interface variables (`--preserve-interface`; spirv-opt's
    /// command line sets it, its library leaves it off): read by the aggressive dead
    /// code elimination.
    pub preserve_interface: bool,
}

/// One pass, configured: run by an [`Optimizer`](crate::Optimizer) in the order
/// registered.
#[derive(Debug, Clone)]
pub struct Pass {
    pub(crate) flag: &'static str,
    pub(crate) run: Run,
}

/// What a pass runs.
#[derive(Debug, Clone)]
pub(crate) enum Run {
    /// A structural pass, on the editor.
    Editor(S),
    /// A pass on the optimizer IR.
    Ir(Arc<dyn IrPass>),
    /// A pass spirv-opt has and this crate does not implement yet: registered so that
    /// a preset keeps its order, and refused by [`Optimizer::run`](crate::Optimizer::run)
    /// (which names every such pass) before anything runs.
    Missing,
}

impl<P: IrPass + 'static> From<Arc<P>> for Pass {
    fn from(p: Arc<P>) -> Pass {
        Pass {
            flag: p.flag(),
            run: Run::Ir(p),
        }
    }
}

impl Pass {
    /// A pass on the optimizer IR, by value.
    pub fn ir(p: impl IrPass + 'static) -> Pass {
        Pass {
            flag: p.flag(),
            run: Run::Ir(Arc::new(p)),
        }
    }
}

impl From<S> for Pass {
    fn from(p: S) -> Pass {
        Pass {
            flag: p.flag(),
            run: Run::Editor(p),
        }
    }
}

impl Pass {
    /// The pass's spirv-opt flag, without its leading dashes.
    pub fn flag(&self) -> &'static str {
        self.flag
    }

    /// The pass on the optimizer IR, if it is one (to run it on a [`Context`] with
    /// [`run_ir_pass`]).
    pub fn ir_pass(&self) -> Option<&dyn IrPass> {
        match &self.run {
            Run::Ir(p) => Some(p.as_ref()),
            Run::Editor(_) | Run::Missing => None,
        }
    }

    /// What the pass runs on ([`RunsOn::Missing`] for a pass registered by
    /// [`Optimizer::register_flag`](crate::Optimizer::register_flag) that is not
    /// implemented yet).
    pub fn runs_on(&self) -> RunsOn {
        match self.run {
            Run::Editor(_) => RunsOn::Editor,
            Run::Ir(_) => RunsOn::Ir,
            Run::Missing => RunsOn::Missing,
        }
    }

    /// Whether the pass is implemented (a pass that is not can be registered, and makes
    /// the run fail, naming it).
    pub fn is_implemented(&self) -> bool {
        !matches!(self.run, Run::Missing)
    }

    /// The passes a spirv-opt flag names, as spirv-opt's `RegisterPassFromFlag` reads
    /// it: `--name`, `--name=VALUE`, `-O` or `-Os` (a preset names its passes). A flag
    /// that takes no value ignores one, as spirv-opt does.
    ///
    /// ```
    /// use spirv_opt::{Pass, PassOptions};
    /// let passes = Pass::from_flag("--switch-descriptorset=0:5", &PassOptions::default())?;
    /// assert_eq!(passes[0].flag(), "switch-descriptorset");
    /// assert!(Pass::from_flag("--no-such-pass", &PassOptions::default()).is_err());
    /// # Ok::<(), spirv_opt::FlagError>(())
    /// ```
    ///
    /// # Errors
    /// A flag of the wrong form, one spirv-opt does not have, one not implemented yet
    /// (naming what is missing), or a value that does not read.
    pub fn from_flag(flag: &str, options: &PassOptions) -> Result<Vec<Pass>, FlagError> {
        let (name, value) = split_flag(flag)?;
        let row = registry::lookup(name).ok_or_else(|| FlagError::Unknown(name.to_owned()))?;
        let mut out = Vec::new();
        make(row, value, options, false, &mut out)?;
        Ok(out)
    }

    /// [`Pass::from_flag`], except that a pass spirv-opt has and this crate does not
    /// implement yet (alone or in a preset) becomes a placeholder ([`Pass::is_implemented`]
    /// is false), as [`Optimizer::register_flag`](crate::Optimizer::register_flag)
    /// registers it: registering works, running names what is missing.
    ///
    /// # Errors
    /// A flag of the wrong form, one spirv-opt does not have, or a value that does not
    /// read.
    pub fn from_flag_deferred(flag: &str, options: &PassOptions) -> Result<Vec<Pass>, FlagError> {
        let (name, value) = split_flag(flag)?;
        let row = registry::lookup(name).ok_or_else(|| FlagError::Unknown(name.to_owned()))?;
        let mut out = Vec::new();
        make(row, value, options, true, &mut out)?;
        Ok(out)
    }
}

/// The name and value of a flag of spirv-opt's form.
fn split_flag(flag: &str) -> Result<(&str, Option<&str>), FlagError> {
    if flag == "-O" || flag == "-Os" {
        return Ok((&flag[1..], None));
    }
    let Some(body) = flag.strip_prefix("--").filter(|b| !b.is_empty()) else {
        return Err(FlagError::Form(flag.to_owned()));
    };
    Ok(match body.split_once('=') {
        Some((n, v)) => (n, Some(v)),
        None => (body, None),
    })
}

/// Appends the passes of `row` (a preset or a pass without a value) to `out`, those
/// not implemented yet as placeholders.
pub(crate) fn make_deferred(
    row: &'static registry::PassInfo,
    options: &PassOptions,
    out: &mut Vec<Pass>,
) -> Result<(), FlagError> {
    make(row, None, options, true, out)
}

/// Appends the passes of `row` given `value` to `out`; with `defer`, a pass not
/// implemented yet as a placeholder, else as an error.
fn make(
    row: &'static registry::PassInfo,
    value: Option<&str>,
    options: &PassOptions,
    defer: bool,
    out: &mut Vec<Pass>,
) -> Result<(), FlagError> {
    match row.kind {
        Kind::Editor(f) => {
            let p = f(value).map_err(FlagError::Value)?;
            out.push(Pass {
                flag: row.flag,
                run: Run::Editor(p),
            });
        }
        Kind::Ir(f) => out.push(f(value, options).map_err(FlagError::Value)?),
        Kind::Preset(list) => {
            let missing = row.missing();
            if !defer && !missing.is_empty() {
                return Err(FlagError::NotImplemented {
                    flag: row.dashed(),
                    missing,
                });
            }
            for item in list {
                let (name, v) = match item.split_once('=') {
                    Some((n, v)) => (n, Some(v)),
                    None => (*item, None),
                };
                let r = registry::lookup(name).ok_or_else(|| FlagError::Unknown(name.into()))?;
                make(r, v, options, defer, out)?;
            }
        }
        Kind::Missing if defer => out.push(Pass {
            flag: row.flag,
            run: Run::Missing,
        }),
        Kind::Missing => {
            return Err(FlagError::NotImplemented {
                flag: row.dashed(),
                missing: vec![row.flag],
            });
        }
    }
    Ok(())
}

/// Why a flag does not name passes to run.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum FlagError {
    /// Not of the form `--name[=VALUE]`, `-O` or `-Os`.
    Form(String),
    /// spirv-opt has no pass of this name.
    Unknown(String),
    /// spirv-opt has this pass (or preset), and this crate does not implement it (or
    /// these passes of it) yet.
    NotImplemented {
        /// The flag as given (`--ccp`, `-O`).
        flag: String,
        /// The passes not implemented yet, without dashes.
        missing: Vec<&'static str>,
    },
    /// The flag's value does not read: spirv-opt's message.
    Value(String),
}

impl fmt::Display for FlagError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FlagError::Form(flag) => write!(
                f,
                "{flag} is not a valid flag.  Flag passes should have the form '--pass_name[=pass_args]'. Special flag names also accepted: -O and -Os."
            ),
            FlagError::Unknown(name) => write!(
                f,
                "Unknown flag '--{name}'. Use --help for a list of valid flags"
            ),
            FlagError::NotImplemented { flag, missing } => {
                let named: Vec<String> = missing.iter().map(|m| format!("--{m}")).collect();
                if missing.len() == 1 && flag.trim_start_matches('-') == missing[0] {
                    write!(
                        f,
                        "{flag} is a spirv-opt pass that is not implemented yet (see --help for the passes that are)"
                    )
                } else {
                    write!(
                        f,
                        "{flag} is not implemented yet: it needs {}, which are not implemented yet",
                        named.join(", ")
                    )
                }
            }
            FlagError::Value(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for FlagError {}
