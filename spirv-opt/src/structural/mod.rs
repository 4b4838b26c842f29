//! spirv-opt 2025.5's structural passes over the editing API: each [`StructuralPass`] takes a
//! module and makes the next one. [`run`] runs a list of them as spirv-opt runs its
//! flags, in order, and then (if any pass changed the module) sets the bound to the
//! largest id plus one, as spirv-opt does. On modules that spirv-opt writes back
//! unchanged when it runs no pass, the result is byte for byte spirv-opt's.
//!
//! Two runners, by what the caller holds and wants back:
//! - [`run`]: a read [`Module`] in, the next `Module` out, for a caller that goes on
//!   reading or editing it.
//! - [`run_words`]: words in, words out, for a caller that writes the result out (the
//!   fastest path: the passes that decide instruction by instruction run as the module
//!   is read, and words the caller gives up are read without a copy).
//!
//! [`Optimizer`](crate::Optimizer) runs these passes too, beside the IR passes, with
//! spirv-opt's validation first: use it for spirv-opt's flags and presets as they come.
//! `--set-spec-const-default-value` reads its values with a [`NumberParser`], which
//! both runners take (`spirv_asm::opt::SpirvAsNumbers` is spirv-as's).
//!
//! ```
//! use spirv_opt::structural::{run, StructuralPass};
//! use spirv_core::{spv, spv::inst, Builder};
//!
//! let mut b = Builder::new((1, 0));
//! let int = b.id()?;
//! b.push(inst::TypeInt { result_id: int, width: 32, signedness: 1 })?;
//! b.push(inst::Name { target: int, name: "int".into() })?;
//! let module = b.build()?;
//!
//! let (stripped, changed) = run(&module, &[StructuralPass::StripDebug], None)?;
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
mod stream;
mod strip;
mod unify;

pub(crate) use kill::Killer;

use spirv_core::__private::opt as support;
use spirv_core::edit::{Bound, EditError, Editor};

use spirv_core::Module;
use spirv_core::walk::NumberType;
use std::borrow::Cow;

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
pub enum StructuralPass {
    /// `--strip-debug`: debug instructions (`OpString`, `OpSource*`, `OpName`,
    /// `OpMemberName`, `OpModuleProcessed`), debug lines, and the instructions of the
    /// debug-info sets.
    StripDebug,
    /// `--strip-nonsemantic` (and its old name `--strip-reflect`): non-semantic
    /// instructions, imports, decorations and extensions.
    StripNonSemantic,
    /// `--compact-ids`: every id renumbered 1, 2, … in order of first mention.
    CompactIds,
    /// `--remove-unused-interface-variables`.
    RemoveUnusedInterfaceVariables,
    /// `--eliminate-dead-const`.
    EliminateDeadConst,
    /// `--eliminate-dead-functions`.
    EliminateDeadFunctions,
    /// `--freeze-spec-const`.
    FreezeSpecConst,
    /// `--set-spec-const-default-value "<spec id>:<value> …"`
    ///: the pairs, values as text.
    SetSpecConstDefaultValue(Vec<(u32, String)>),
    /// `--switch-descriptorset=<from>:<to>`.
    SwitchDescriptorSet {
        /// The descriptor set to move.
        from: u32,
        /// Where to.
        to: u32,
    },
    /// `--unify-const`.
    UnifyConst,
    /// `--remove-duplicates`.
    RemoveDuplicates,
    /// `--trim-capabilities`.
    TrimCapabilities,
}

/// `--set-spec-const-default-value`'s flag, without dashes (named apart from
/// [`StructuralPass::flag`] so that the registry can name it in a constant: the pass's value has
/// a list in it).
pub(crate) const SET_SPEC_CONST_DEFAULT_VALUE: &str = "set-spec-const-default-value";

impl StructuralPass {
    /// The pass's spirv-opt flag, without its leading dashes: the one place the
    /// structural passes' flags are written (the registry's rows read them).
    pub const fn flag(&self) -> &'static str {
        match self {
            StructuralPass::StripDebug => "strip-debug",
            StructuralPass::StripNonSemantic => "strip-nonsemantic",
            StructuralPass::CompactIds => "compact-ids",
            StructuralPass::RemoveUnusedInterfaceVariables => "remove-unused-interface-variables",
            StructuralPass::EliminateDeadConst => "eliminate-dead-const",
            StructuralPass::EliminateDeadFunctions => "eliminate-dead-functions",
            StructuralPass::FreezeSpecConst => "freeze-spec-const",
            StructuralPass::SetSpecConstDefaultValue(_) => SET_SPEC_CONST_DEFAULT_VALUE,
            StructuralPass::SwitchDescriptorSet { .. } => "switch-descriptorset",
            StructuralPass::UnifyConst => "unify-const",
            StructuralPass::RemoveDuplicates => "remove-duplicates",
            StructuralPass::TrimCapabilities => "trim-capabilities",
        }
    }

    /// The structural pass a spirv-opt flag (without dashes) names, with its value for
    /// the flags that take one (read through the [`registry`](crate::registry)).
    ///
    /// ```
    /// use spirv_opt::structural::StructuralPass;
    /// assert_eq!(StructuralPass::from_flag("strip-reflect", None), Ok(StructuralPass::StripNonSemantic));
    /// assert_eq!(
    ///     StructuralPass::from_flag("switch-descriptorset", Some("0:5")),
    ///     Ok(StructuralPass::SwitchDescriptorSet { from: 0, to: 5 })
    /// );
    /// ```
    ///
    /// # Errors
    /// A flag that names no structural pass, or a value that does not read.
    pub fn from_flag(flag: &str, value: Option<&str>) -> Result<StructuralPass, String> {
        match crate::registry::lookup(flag).map(|r| r.kind) {
            Some(crate::registry::Kind::Editor(make)) => make(value),
            // Its registry row runs the IR's pass; this one stays for the Editor.
            _ if flag == StructuralPass::EliminateDeadFunctions.flag() && value.is_none() => {
                Ok(StructuralPass::EliminateDeadFunctions)
            }
            _ => Err(format!("unknown pass --{flag}")),
        }
    }

    /// `--switch-descriptorset`'s pass from its value `<from>:<to>`, read as spirv-opt
    /// reads it (decimal numbers, nothing around them).
    ///
    /// # Errors
    /// spirv-opt's message for a value that does not read.
    pub(crate) fn switch_descriptor_set(value: &str) -> Result<StructuralPass, String> {
        let number = |t: &str| {
            (!t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
                .then(|| t.parse::<u32>().ok())
                .flatten()
        };
        let parsed = value
            .split_once(':')
            .and_then(|(a, b)| Some((number(a)?, number(b)?)));
        match parsed {
            Some((from, to)) => Ok(StructuralPass::SwitchDescriptorSet { from, to }),
            None if value.is_empty() => {
                Err("--switch-descriptorset requires a from:to argument.".into())
            }
            None => Err(format!(
                "Invalid argument for --switch-descriptorset: {value}"
            )),
        }
    }

    /// `--set-spec-const-default-value`'s pass from its value, a list of
    /// `<spec id>:<value>` pairs, read as spirv-opt reads it.
    ///
    /// # Errors
    /// spirv-opt's message for a list that does not read.
    pub(crate) fn set_spec_const_default_value(value: &str) -> Result<StructuralPass, String> {
        spec::parse_default_values(value).map(StructuralPass::SetSpecConstDefaultValue)
    }
}

/// What a pass found to do: nothing (the module stays as it is, unwritten), or edits
/// and whether they change the module.
pub(crate) enum Edits<'m> {
    Unchanged,
    // Boxed: an `Editor` is large beside `Unchanged`, and there is one per pass.
    Edited(Box<Editor<'m>>, bool),
}

impl<'m> Edits<'m> {
    /// The edits of `editor`, and whether they change the module.
    pub(crate) fn edited(editor: Editor<'m>, changed: bool) -> Self {
        Edits::Edited(Box::new(editor), changed)
    }
}

/// The edits of one pass other than `--compact-ids`, which renumbers as it writes.
fn edits<'m>(
    module: &'m Module,
    pass: &StructuralPass,
    numbers: Option<&dyn NumberParser>,
) -> Result<Edits<'m>, EditError> {
    match pass {
        StructuralPass::StripDebug => strip::strip_debug_edits(module),
        StructuralPass::StripNonSemantic => nonsemantic::strip_nonsemantic_edits(module),
        // Not reached: `--compact-ids` renumbers as it writes ([`compact`]).
        StructuralPass::CompactIds => Ok(Edits::edited(Editor::new(module), false)),
        StructuralPass::RemoveUnusedInterfaceVariables => {
            interface::remove_unused_interface_variables_edits(module)
        }
        StructuralPass::EliminateDeadConst => dead_const::eliminate_dead_const_edits(module),
        StructuralPass::EliminateDeadFunctions => {
            dead_functions::eliminate_dead_functions_edits(module)
        }
        StructuralPass::FreezeSpecConst => spec::freeze_spec_const_edits(module),
        StructuralPass::SetSpecConstDefaultValue(values) => match numbers {
            Some(n) => spec::set_spec_const_default_value_edits(module, values, n),
            None => Err(EditError::NeedsNumberParser),
        },
        StructuralPass::SwitchDescriptorSet { from, to } => {
            descriptor::switch_descriptor_set_edits(module, *from, *to)
        }
        StructuralPass::UnifyConst => unify::unify_const_edits(module),
        StructuralPass::RemoveDuplicates => duplicates::remove_duplicates_edits(module),
        StructuralPass::TrimCapabilities => capabilities::trim_capabilities_edits(module),
    }
}

/// `--compact-ids` on `module`: the renumbered module and whether it differs.
fn compact(module: &Module) -> Result<(Module, bool), EditError> {
    let compact = Editor::new(module).apply(Bound::Compact)?;
    let changed = compact != *module;
    Ok((compact, changed))
}

/// Runs `passes` on a read module in order, as `spirv-opt --skip-validation` runs its
/// flags; returns the next module and whether any pass changed it. When one did, the
/// bound is the largest id plus one (spirv-opt's rule); otherwise it is kept. Either
/// way the module is written as spirv-opt writes its IR (debug lines carried as its
/// loader carries them, in-function `OpNop`s dropped). `numbers` reads
/// [`StructuralPass::SetSpecConstDefaultValue`]'s values; other passes need none.
///
/// Use it when the result is read or edited next; [`run_words`] is faster for a
/// caller that writes the result out.
///
/// Each pass that edits writes the module once; a pass that finds nothing to do writes
/// nothing. spirv-opt writes its IR back at the end whether or not a pass changed it,
/// which drops in-function `OpNop`s and repeated debug lines: a module that was written
/// is already as that write would make it (the write is idempotent), so only a module
/// no pass wrote is written at the end.
///
/// # Errors
/// An instruction whose ids cannot be found where the pass needs them, an edited module
/// that does not read, or [`StructuralPass::SetSpecConstDefaultValue`] without `numbers`.
pub fn run(
    module: &Module,
    passes: &[StructuralPass],
    numbers: Option<&dyn NumberParser>,
) -> Result<(Module, bool), EditError> {
    match run_to(Cow::Borrowed(module), passes, numbers, false)? {
        (Finished::Module(m), changed) => Ok((*m, changed)),
        (Finished::Words(words), changed) => {
            // Not asked for: read the words back.
            let m = support::reread(module, words)?;
            Ok((m, changed))
        }
    }
}

/// [`run`] on a module's words, giving the words of the module it makes (as
/// [`Module::into_words`] returns them): for a caller that writes the result out. Pass
/// `&words` to lend them, or the `Vec` itself when done with it, so that a module the
/// fast path below declines is read without a copy ([`Module::read_owned`]).
///
/// The passes that decide instruction by instruction (`--strip-debug`,
/// `--switch-descriptorset`, `--compact-ids`, each at most once and in that order) run
/// as the module is read, with no module built between them, when the module's layout
/// is as the specification orders it and it has none of the few things that path does
/// not model (a decoration group that names an id `--strip-debug` removes; debug lines
/// or debug-info instructions, without `--strip-debug`); other lists and modules take
/// the general path, where the last pass's edits are not read back as a module
/// ([`Editor::finish`]) and `--compact-ids` renumbers the module where it stands when
/// writing it would not change it. The result is the same either way. On the corpus
/// the three passes stream on every module, about three times as fast as the general
/// path.
///
/// The streamed words' `Vec` is allocated at the input's length and not shrunk (after
/// a strip about a quarter of it is spare): a caller that keeps the words for long can
/// call `shrink_to_fit`, and one that writes them out pays nothing for it.
///
/// ```
/// use spirv_opt::structural::{run, run_words, StructuralPass};
/// use spirv_core::{spv::inst, Builder, Module};
///
/// let mut b = Builder::new((1, 0));
/// let int = b.id()?;
/// b.push(inst::TypeInt { result_id: int, width: 32, signedness: 1 })?;
/// b.push(inst::Name { target: int, name: "int".into() })?;
/// let module = b.build()?;
/// let words = module.to_words();
///
/// let passes = [StructuralPass::StripDebug, StructuralPass::CompactIds];
/// let (out, changed) = run_words(&words, &passes, None)?;
/// assert!(changed);
/// assert_eq!(out, run(&module, &passes, None)?.0.into_words());
/// assert_eq!(Module::from_words(&out)?.len(), 1);
/// // Words the caller is done with: the same result, without a copy.
/// assert_eq!(run_words(words, &passes, None)?.0, out);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// The words do not read as a module, or as [`run`].
pub fn run_words<'w>(
    words: impl Into<Cow<'w, [u32]>>,
    passes: &[StructuralPass],
    numbers: Option<&dyn NumberParser>,
) -> Result<(Vec<u32>, bool), EditError> {
    let words = words.into();
    if let Some(done) = stream::run(&words, passes) {
        return Ok(done);
    }
    let module = match words {
        Cow::Borrowed(w) => Module::from_words(w)?,
        Cow::Owned(w) => Module::read_owned(w, &Default::default())?,
    };
    run_to_words(module, passes, numbers)
}

/// The general path of [`run_words`], on a read module the caller is done with.
pub(crate) fn run_to_words(
    module: Module,
    passes: &[StructuralPass],
    numbers: Option<&dyn NumberParser>,
) -> Result<(Vec<u32>, bool), EditError> {
    Ok(match run_to(Cow::Owned(module), passes, numbers, true)? {
        (Finished::Module(m), changed) => (m.into_words(), changed),
        (Finished::Words(words), changed) => (words, changed),
    })
}

/// The streaming path of [`run_words`] alone: what `run_words` gives, or `None` where
/// the path declines the passes or the module. Not part of the API: for the tests
/// that compare the two paths.
#[doc(hidden)]
pub fn run_streamed(words: &[u32], passes: &[StructuralPass]) -> Option<(Vec<u32>, bool)> {
    stream::run(words, passes)
}

/// What [`run_to`] made: a module, or the words of the last pass's edits.
enum Finished {
    // Boxed: a `Module` is large beside a `Vec`.
    Module(Box<Module>),
    Words(Vec<u32>),
}

/// [`run`]; with `words`, an edit that is the last pass's is finished as words.
fn run_to(
    start: Cow<'_, Module>,
    passes: &[StructuralPass],
    numbers: Option<&dyn NumberParser>,
    words: bool,
) -> Result<(Finished, bool), EditError> {
    let mut current = start;
    // Whether a pass wrote the current module (so that it is as the write makes it).
    let mut written = false;
    let mut changed = false;
    // Whether the current module's bound is its largest id plus one.
    let mut tight = false;
    for (k, p) in passes.iter().enumerate() {
        let next = match p {
            // A module a pass wrote is as the write makes it, and so is one writing
            // would not change: it is renumbered where it stands.
            StructuralPass::CompactIds => {
                let in_place = written
                    || (matches!(current, Cow::Owned(_))
                        && support::unchanged_by_write(&Editor::new(&current))?);
                if in_place {
                    let m = current.to_mut();
                    changed |= support::compact_ids(m)?;
                    support::mark_written(m);
                    tight = true;
                    written = true;
                    continue;
                }
                let (next, c) = compact(&current)?;
                changed |= c;
                tight = true;
                next
            }
            _ => match edits(&current, p, numbers)? {
                Edits::Unchanged => continue,
                Edits::Edited(editor, c) => {
                    changed |= c;
                    // The last pass's write is the final one, with the final bound.
                    let last = k + 1 == passes.len();
                    tight = changed && last;
                    let bound = if tight { Bound::Tight } else { Bound::Keep };
                    // Replacements a module of ours can take in place need no write.
                    let owned = matches!(current, Cow::Owned(_));
                    if let Some(patches) = support::patches(&editor).filter(|_| owned) {
                        let patches: Vec<(usize, Vec<u32>)> =
                            patches.iter().map(|&(i, w)| (i, w.to_vec())).collect();
                        drop(editor);
                        support::patch(current.to_mut(), patches, bound)?;
                        written = true;
                        continue;
                    }
                    if words && last {
                        return Ok((Finished::Words(editor.finish(bound)?), changed));
                    }
                    editor.apply(bound)?
                }
            },
        };
        current = Cow::Owned(next);
        written = true;
    }
    let out = if !written {
        // No pass wrote the module (and none changed it): write it as spirv-opt does.
        let e = Editor::new(&current);
        if words {
            Finished::Words(e.finish(Bound::Keep)?)
        } else {
            Finished::Module(Box::new(e.apply(Bound::Keep)?))
        }
    } else {
        let mut m = current.into_owned();
        if changed && !tight {
            support::tighten_bound(&mut m)?;
        }
        Finished::Module(Box::new(m))
    };
    Ok((out, changed))
}
