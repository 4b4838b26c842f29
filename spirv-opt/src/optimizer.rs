//! [`Optimizer`]: passes registered by flag or by value, run in order on a module's
//! words or on a [`Module`], after validating it unless told not to, as spirv-opt's
//! `Optimizer::Run` runs them.

use crate::context::{Context, ContextOptions};
use crate::ir::load::ReadLoadError;
use crate::ir::{Ir, LoadError};
use crate::message::{Message, MessageLevel};
use crate::pass::{FlagError, Pass, PassError, PassOptions, Run, Status, run_ir_pass};
use crate::registry;
use crate::structural::{self, NumberParser, StructuralPass as S};
use core::fmt;
use spirv_core::edit::EditError;
use spirv_core::validate::{self, ValidationError};
use spirv_core::{DecodeError, Module, TargetEnv};
use std::sync::Arc;

/// A list of passes and how to run them.
///
/// ```
/// use spirv_core::{spv::inst, Builder};
/// use spirv_opt::Optimizer;
///
/// let mut b = Builder::new((1, 0));
/// let int = b.id()?;
/// b.push(inst::TypeInt { result_id: int, width: 32, signedness: 1 })?;
/// b.push(inst::Name { target: int, name: "int".into() })?;
/// let words = b.build()?.into_words();
///
/// let mut opt = Optimizer::new();
/// opt.register_flag("--strip-debug")?.skip_validation(true);
/// let out = opt.run(&words)?;
/// assert!(out.changed);
/// assert!(out.words.len() < words.len());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Optimizer {
    passes: Vec<Pass>,
    skip_validation: bool,
    validator: validate::Options<'static>,
    pass_options: PassOptions,
    numbers: Option<Arc<dyn NumberParser + Send + Sync>>,
    leak_ir: bool,
    context_options: ContextOptions,
    max_id_bound: Option<u32>,
    fault_text: Option<Arc<FaultText>>,
}

/// How a validator fault reads as spirv-val prints it: its text (the message, then the
/// instruction it names on a line of its own) from the words and the options it was
/// validated with. `spirv_asm::opt::optimizer` sets spirv-asm's renderer, which has
/// the disassembler this crate does not.
pub type FaultText =
    dyn Fn(&[u32], &ValidationError, &validate::Options<'static>) -> String + Send + Sync;

impl fmt::Debug for Optimizer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Optimizer")
            .field("passes", &self.passes)
            .field("skip_validation", &self.skip_validation)
            .field("validator", &self.validator)
            .field("pass_options", &self.pass_options)
            .field("leak_ir", &self.leak_ir)
            .field("context_options", &self.context_options)
            .field("max_id_bound", &self.max_id_bound)
            .finish_non_exhaustive()
    }
}

impl Default for Optimizer {
    fn default() -> Self {
        Optimizer::new()
    }
}

/// What a run made: the module's words, and whether any pass changed it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Optimized {
    /// The optimized module.
    pub words: Vec<u32>,
    /// Whether a pass changed the module (spirv-opt's `SuccessWithChange`).
    pub changed: bool,
}

/// What a run made, not written yet ([`Optimizer::run_file_reporting`]): the module, as
/// the optimizer IR the last passes ran on or as words, and whether a pass changed it.
/// [`Finished::write_to`] writes the IR a chunk at a time, so that a large module is
/// never held as words as well.
#[non_exhaustive]
pub struct Finished {
    done: Done,
    changed: bool,
    /// Leave the IR unfreed once written ([`Optimizer::leak_ir`]).
    leak_ir: bool,
    /// The module's length in words.
    words: usize,
    /// What writing the IR makes, known before it is written.
    plan: Option<crate::ir::write::Plan>,
}

/// A run's module: the IR its last passes ran on, or words.
enum Done {
    Words(Vec<u32>),
    Ir(Box<Context>),
}

/// Where a run's module comes from.
enum Input<'a> {
    /// Its words.
    Words(Vec<u32>),
    /// A stream of its bytes, and their number (see [`crate::ir::load::load_read`]).
    Read(&'a mut dyn std::io::Read, u64),
}

impl fmt::Debug for Finished {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Finished")
            .field("changed", &self.changed)
            .field("words", &self.words)
            .finish_non_exhaustive()
    }
}

impl Finished {
    fn new(done: Done, changed: bool, leak_ir: bool) -> Finished {
        let mut f = Finished {
            done,
            changed,
            leak_ir,
            words: 0,
            plan: None,
        };
        match &mut f.done {
            Done::Words(w) => f.words = w.len(),
            Done::Ir(cx) => {
                let plan = cx.write_plan();
                f.words = plan.words;
                f.plan = Some(plan);
            }
        }
        f
    }

    /// Whether a pass changed the module (spirv-opt's `SuccessWithChange`).
    pub fn changed(&self) -> bool {
        self.changed
    }

    /// The length in bytes of what [`Finished::write_to`] writes.
    pub fn byte_len(&self) -> u64 {
        self.words as u64 * 4
    }

    /// Writes the module as little-endian bytes to `sink`, a chunk at a time.
    ///
    /// # Errors
    /// The first of `sink`'s; what follows it is not written.
    pub fn write_to(self, sink: &mut dyn std::io::Write) -> std::io::Result<()> {
        match self.done {
            Done::Words(words) => {
                let mut bytes = Vec::with_capacity(1 << 16);
                for part in words.chunks(1 << 14) {
                    bytes.clear();
                    bytes.extend(part.iter().flat_map(|w| w.to_le_bytes()));
                    sink.write_all(&bytes)?;
                }
                Ok(())
            }
            Done::Ir(mut cx) => {
                let plan = self.plan.unwrap_or_else(|| cx.write_plan());
                let written = cx.write_stream(plan, sink);
                if self.leak_ir {
                    // Told to: the process exits after writing.
                    std::mem::forget(cx);
                }
                written
            }
        }
    }

    /// The module's words.
    pub fn into_words(self) -> Vec<u32> {
        match self.done {
            Done::Words(words) => words,
            Done::Ir(mut cx) => {
                let words = cx.to_words();
                if self.leak_ir {
                    std::mem::forget(cx);
                }
                words
            }
        }
    }
}

/// Why a run failed.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum OptError {
    /// The module is not valid (the validator's first fault); nothing ran.
    Invalid(Box<ValidationError>),
    /// The module does not read.
    Decode(DecodeError),
    /// A structural pass failed.
    Edit(EditError),
    /// spirv-opt's loader refuses the module.
    Load(LoadError),
    /// A pass on the optimizer IR failed.
    Pass(PassError),
    /// Registered passes (spirv-opt's, alone or in a preset) are not implemented yet:
    /// their flags without dashes, each once, in order. Nothing ran.
    NotImplemented(Vec<&'static str>),
    /// Reading the input failed ([`Optimizer::run_file_reporting`]): the I/O error's
    /// text.
    Read(String),
}

impl fmt::Display for OptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptError::Invalid(e) => write!(f, "the module is not valid: {e}"),
            OptError::Decode(e) => write!(f, "{e}"),
            OptError::Edit(e) => write!(f, "{e}"),
            OptError::Load(e) => write!(f, "{e}"),
            OptError::Pass(e) => write!(f, "{e}"),
            OptError::NotImplemented(missing) => {
                let named: Vec<String> = missing.iter().map(|m| format!("--{m}")).collect();
                write!(
                    f,
                    "these registered passes are not implemented yet, so nothing ran: {}",
                    named.join(", ")
                )
            }
            OptError::Read(e) => write!(f, "cannot read the input: {e}"),
        }
    }
}

impl OptError {
    /// What spirv-opt tells its message consumer for this failure: the validator's
    /// message for an invalid module (its text without the instruction it names, which
    /// [`Optimizer::fault_text`] adds), the optimizer's error otherwise.
    pub fn message(&self) -> Message {
        match self {
            OptError::Invalid(e) => Message::validator(e.line(), e.to_string()),
            OptError::Pass(e) => Message::optimizer(MessageLevel::Error, e.message.clone()),
            // spirv-opt names the instruction its parser or loader refuses.
            OptError::Load(LoadError::Refused { message, index }) => Message {
                index: *index,
                ..Message::optimizer(MessageLevel::Error, message.clone())
            },
            other => Message::optimizer(MessageLevel::Error, other.to_string()),
        }
    }
}

impl std::error::Error for OptError {}

impl From<EditError> for OptError {
    fn from(e: EditError) -> Self {
        match e {
            EditError::Decode(d) => OptError::Decode(d),
            other => OptError::Edit(other),
        }
    }
}

impl From<LoadError> for OptError {
    fn from(e: LoadError) -> Self {
        match e {
            LoadError::Decode(d) => OptError::Decode(d),
            other => OptError::Load(other),
        }
    }
}

impl From<PassError> for OptError {
    fn from(e: PassError) -> Self {
        OptError::Pass(e)
    }
}

impl From<DecodeError> for OptError {
    fn from(e: DecodeError) -> Self {
        OptError::Decode(e)
    }
}

impl Optimizer {
    /// An optimizer with no pass, which validates for the universal SPIR-V 1.6
    /// environment (spirv-opt's default) before it runs.
    pub fn new() -> Self {
        Optimizer {
            passes: Vec::new(),
            skip_validation: false,
            validator: validate::Options::default(),
            pass_options: PassOptions::default(),
            numbers: None,
            leak_ir: false,
            context_options: ContextOptions::default(),
            max_id_bound: None,
            fault_text: None,
        }
    }

    /// Keep every `DescriptorSet` and `Binding` decoration, and so the variables they
    /// decorate (spirv-opt's `--preserve-bindings`, `OptimizerOptions::preserve_bindings`;
    /// read by the aggressive dead code elimination, as in spirv-opt 2025.5).
    pub fn preserve_bindings(&mut self, keep: bool) -> &mut Self {
        self.context_options.preserve_bindings = keep;
        self
    }

    /// Keep every `SpecId` decoration, and so the specialization constants
    /// (`--preserve-spec-constants`; read by the aggressive dead code elimination).
    pub fn preserve_spec_constants(&mut self, keep: bool) -> &mut Self {
        self.context_options.preserve_spec_constants = keep;
        self
    }

    /// The largest id bound passes take new ids up to (`--max-id-bound`; spirv-opt's
    /// default is 0x3FFFFF). A pass that needs an id past it fails, as spirv-opt's do
    /// ("ID overflow"). The validator's limit is separate
    /// (`validate::Limits::max_id_bound`); spirv-opt's command line sets both.
    pub fn max_id_bound(&mut self, bound: u32) -> &mut Self {
        self.max_id_bound = Some(bound);
        self
    }

    /// How a validator fault's message reads (see [`FaultText`]); without one,
    /// [`OptError::message`] leaves out the instruction the fault names.
    pub fn fault_text(&mut self, render: Arc<FaultText>) -> &mut Self {
        self.fault_text = Some(render);
        self
    }

    /// Registers the passes of `-O`, as spirv-opt 2025.5's
    /// `RegisterPerformancePasses` does ([`registry::PERFORMANCE`]), with the pass
    /// options set (its ADCEs keep the interface when
    /// [`PassOptions::preserve_interface`] is set, as spirv-opt's command line sets it).
    /// Registering works even while some of its passes are not implemented; running
    /// then fails with [`OptError::NotImplemented`], naming them.
    ///
    /// ```
    /// use spirv_opt::{OptError, Optimizer, registry};
    ///
    /// let mut opt = Optimizer::new();
    /// opt.register_performance_passes().skip_validation(true);
    /// assert_eq!(opt.passes().len(), registry::PERFORMANCE.len());
    /// let words = spirv_core::Builder::new((1, 0)).build()?.into_words();
    /// match opt.run(&words) {
    ///     // While passes of -O are missing, nothing runs and the error names them.
    ///     Err(OptError::NotImplemented(missing)) => assert_eq!(missing, opt.missing()),
    ///     Ok(_) => assert!(opt.missing().is_empty()),
    ///     Err(e) => return Err(e.into()),
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn register_performance_passes(&mut self) -> &mut Self {
        self.register_preset("O")
    }

    /// Registers the passes of `-Os` (`RegisterSizePasses`, [`registry::SIZE`]); see
    /// [`Optimizer::register_performance_passes`].
    pub fn register_size_passes(&mut self) -> &mut Self {
        self.register_preset("Os")
    }

    /// Registers the passes of `--legalize-hlsl` (`RegisterLegalizationPasses`,
    /// [`registry::LEGALIZATION`]); see [`Optimizer::register_performance_passes`]. As
    /// in spirv-opt's library, this leaves the validator's options alone: set
    /// `before_hlsl_legalization` in [`Optimizer::validator_options`] to validate HLSL
    /// front ends' output as `spirv-opt --legalize-hlsl` does.
    pub fn register_hlsl_legalization_passes(&mut self) -> &mut Self {
        self.register_preset("legalize-hlsl")
    }

    fn register_preset(&mut self, flag: &str) -> &mut Self {
        if let Some(row) = registry::lookup(flag) {
            let mut out = Vec::new();
            // A preset's own rows are all spirv-opt's, with values that read.
            if crate::pass::make_deferred(row, &self.pass_options, &mut out).is_ok() {
                self.passes.extend(out);
            }
        }
        self
    }

    /// The registered passes that are not implemented yet, each once, in order: a run
    /// fails with [`OptError::NotImplemented`] while this is not empty.
    pub fn missing(&self) -> Vec<&'static str> {
        let mut out: Vec<&'static str> = Vec::new();
        for p in &self.passes {
            if !p.is_implemented() && !out.contains(&p.flag) {
                out.push(p.flag);
            }
        }
        out
    }

    /// The environment to validate for (`--target-env`).
    pub fn target_env(&mut self, env: TargetEnv) -> &mut Self {
        self.validator.target_env = env;
        self
    }

    /// The validator's options (the environment included), as spirv-opt's
    /// `OptimizerOptions::set_validator_options`.
    pub fn validator_options(&mut self, options: validate::Options<'static>) -> &mut Self {
        self.validator = options;
        self
    }

    /// Whether to leave the optimizer IR of a run's last passes unfreed, for a process
    /// that exits once it has written the result (as rustc leaves its arenas): the
    /// operating system takes the memory back at exit in one go, where freeing it
    /// instruction by instruction costs a walk over the whole arena. Off by default;
    /// a program that runs the optimizer more than once must leave it off, as each
    /// run would keep its IR.
    pub fn leak_ir(&mut self, leak: bool) -> &mut Self {
        self.leak_ir = leak;
        self
    }

    /// Whether to run without validating first (`--skip-validation`).
    pub fn skip_validation(&mut self, skip: bool) -> &mut Self {
        self.skip_validation = skip;
        self
    }

    /// The options passes registered from now on are made with (spirv-opt passes them
    /// when it registers a pass).
    pub fn pass_options(&mut self, options: PassOptions) -> &mut Self {
        self.pass_options = options;
        self
    }

    /// How `--set-spec-const-default-value` reads its values (`spirv_asm::opt` has
    /// spirv-as's parser, which spirv-opt uses); without one that pass fails.
    pub fn number_parser(&mut self, numbers: Arc<dyn NumberParser + Send + Sync>) -> &mut Self {
        self.numbers = Some(numbers);
        self
    }

    /// Registers a pass, by value.
    pub fn register_pass(&mut self, pass: impl Into<Pass>) -> &mut Self {
        self.passes.push(pass.into());
        self
    }

    /// Registers the passes a spirv-opt flag names (`--merge-return`,
    /// `--switch-descriptorset=0:1`, `-O`), as spirv-opt's `RegisterPassFromFlag`. A
    /// pass spirv-opt has that is not implemented yet, alone or in a preset, is
    /// registered as a placeholder: the run fails, naming it ([`Optimizer::missing`]).
    ///
    /// # Errors
    /// See [`Pass::from_flag_deferred`]; nothing is registered then.
    pub fn register_flag(&mut self, flag: &str) -> Result<&mut Self, FlagError> {
        let passes = Pass::from_flag_deferred(flag, &self.pass_options)?;
        self.passes.extend(passes);
        Ok(self)
    }

    /// Registers the passes of each flag in order.
    ///
    /// # Errors
    /// The first flag [`Optimizer::register_flag`] refuses; the flags before it stay
    /// registered.
    pub fn register_flags<'a>(
        &mut self,
        flags: impl IntoIterator<Item = &'a str>,
    ) -> Result<&mut Self, FlagError> {
        for f in flags {
            self.register_flag(f)?;
        }
        Ok(self)
    }

    /// The passes registered, in order.
    pub fn passes(&self) -> &[Pass] {
        &self.passes
    }

    /// Validates `words` (unless told not to) and runs the passes on them, as
    /// `spirv-opt` does: the module as spirv-opt writes it, and whether a pass changed
    /// it.
    ///
    /// # Errors
    /// The module is not valid, does not read, or a pass fails.
    pub fn run(&self, words: &[u32]) -> Result<Optimized, OptError> {
        self.run_with(words, &mut |_| {})
    }

    /// [`Optimizer::run`], handing the passes' warnings to `warn`.
    fn run_with(
        &self,
        words: &[u32],
        warn: &mut dyn FnMut(Message),
    ) -> Result<Optimized, OptError> {
        self.check(words)?;
        self.ready()?;
        if let Some(passes) = self.structural() {
            parser_check(words)?;
            let numbers = self.numbers.as_deref().map(|n| n as &dyn NumberParser);
            let (words, changed) =
                structural::run_words(words, &passes, numbers).map_err(parser_wording)?;
            return Ok(Optimized { words, changed });
        }
        self.run_mixed(words.to_vec(), warn)
    }

    /// [`Optimizer::run`] on words the caller is done with: a module the streaming
    /// path declines is read without a copy.
    ///
    /// # Errors
    /// As [`Optimizer::run`].
    pub fn run_owned(&self, words: Vec<u32>) -> Result<Optimized, OptError> {
        self.check(&words)?;
        self.ready()?;
        let Some(passes) = self.structural() else {
            return self.run_mixed(words, &mut |_| {});
        };
        parser_check(&words)?;
        let numbers = self.numbers.as_deref().map(|n| n as &dyn NumberParser);
        let (words, changed) =
            structural::run_words(words, &passes, numbers).map_err(parser_wording)?;
        Ok(Optimized { words, changed })
    }

    /// [`Optimizer::run_reporting`] on words the caller is done with: the module is
    /// loaded from them without a copy, and the optimizer IR is written back into
    /// their buffer (the pages already touched).
    ///
    /// # Errors
    /// As [`Optimizer::run`].
    pub fn run_owned_reporting(
        &self,
        words: Vec<u32>,
        consumer: &mut dyn FnMut(Message),
    ) -> Result<Optimized, OptError> {
        // Only validation needs the words to describe a failure.
        if let Err(e) = self.check(&words) {
            consumer(self.message(&words, &e));
            return Err(e);
        }
        let out = self.ready().and_then(|()| match self.structural() {
            Some(passes) => {
                parser_check(&words)?;
                let numbers = self.numbers.as_deref().map(|n| n as &dyn NumberParser);
                let (words, changed) =
                    structural::run_words(&words, &passes, numbers).map_err(parser_wording)?;
                Ok(Optimized { words, changed })
            }
            None => self.run_mixed(words, consumer),
        });
        if let Err(e) = &out {
            consumer(e.message());
        }
        out
    }

    /// [`Optimizer::run_owned_reporting`] on the words of `file`, read from where it
    /// stands (little-endian; a module in the other byte order is swapped as
    /// [`Optimizer::run`] swaps it), the result not written yet. Without validation, on
    /// a regular file, when the first pass runs on the optimizer IR, the module is
    /// loaded as it is read, a chunk at a time, so that its words are never all in
    /// memory (nor, through [`Finished::write_to`], the result's). The result and the
    /// failures are those of reading the file whole, a length that is not a multiple
    /// of 4 refused first ([`spirv_core::DecodeErrorKind::ByteLengthNotMultipleOf4`]).
    ///
    /// # Errors
    /// As [`Optimizer::run`], and [`OptError::Read`] when reading fails.
    pub fn run_file_reporting(
        &self,
        file: &mut std::fs::File,
        consumer: &mut dyn FnMut(Message),
    ) -> Result<Finished, OptError> {
        let len = file
            .metadata()
            .ok()
            .filter(std::fs::Metadata::is_file)
            .map(|m| m.len());
        let first_on_ir = self.passes.first().is_some_and(|p| match &p.run {
            Run::Ir(_) => true,
            Run::Editor(s) => ir_version(s).is_some(),
            Run::Missing => false,
        });
        // The paths `run_owned_reporting` takes for the passes: a stream is loaded by
        // the IR's loader only.
        let stream = self.skip_validation && first_on_ir && self.structural().is_none();
        let out = match len {
            Some(len) if stream => self
                .ready()
                .and_then(|()| self.run_runs(Input::Read(file, len), consumer, true)),
            _ => {
                let words = match read_words(file) {
                    Ok(words) => words,
                    Err(e) => {
                        consumer(e.message());
                        return Err(e);
                    }
                };
                return self
                    .run_owned_reporting(words, consumer)
                    .map(|o| Finished::new(Done::Words(o.words), o.changed, false));
            }
        };
        match out {
            Ok((done, changed)) => Ok(Finished::new(done, changed, self.leak_ir)),
            Err(e) => {
                consumer(e.message());
                Err(e)
            }
        }
    }

    /// [`Optimizer::run`] on a read module: the next module and whether a pass
    /// changed it.
    ///
    /// # Errors
    /// As [`Optimizer::run`].
    pub fn run_module(&self, module: &Module) -> Result<(Module, bool), OptError> {
        if !self.skip_validation {
            self.check(&module.to_words())?;
        }
        self.ready()?;
        let Some(passes) = self.structural() else {
            let out = self.run_mixed(module.to_words(), &mut |_| {})?;
            return Ok((
                Module::read_owned(out.words, &Default::default())?,
                out.changed,
            ));
        };
        parser_check_module(module)?;
        let numbers = self.numbers.as_deref().map(|n| n as &dyn NumberParser);
        Ok(structural::run(module, &passes, numbers)?)
    }

    /// Runs passes of both kinds: each run of consecutive passes on the optimizer IR on
    /// one load of the module, the structural ones on the editor between. When a pass
    /// changed the module, the bound is its largest id plus one at the end (before the
    /// writer takes the ids of the debug scopes it writes), as spirv-opt sets it. The
    /// passes' warnings go to `warn` as each pass ends.
    fn run_mixed(
        &self,
        words: Vec<u32>,
        warn: &mut dyn FnMut(Message),
    ) -> Result<Optimized, OptError> {
        let (done, changed) = self.run_runs(Input::Words(words), warn, false)?;
        let words = match done {
            Done::Words(words) => words,
            Done::Ir(mut cx) => cx.to_words(),
        };
        Ok(Optimized { words, changed })
    }

    /// [`Optimizer::run_mixed`] on `input`; with `keep_ir`, a last run of passes on the
    /// IR leaves the IR, not yet written, with the bound set.
    fn run_runs(
        &self,
        input: Input<'_>,
        warn: &mut dyn FnMut(Message),
        keep_ir: bool,
    ) -> Result<(Done, bool), OptError> {
        let (mut words, mut stream) = match input {
            Input::Words(words) => (words, None),
            Input::Read(r, len) => (Vec::new(), Some((r, len))),
        };
        let numbers = self.numbers.as_deref().map(|n| n as &dyn NumberParser);
        // Structural passes with an IR version run on the IR here, among IR passes.
        let runs: Vec<Run> = self
            .passes
            .iter()
            .map(|p| match &p.run {
                Run::Editor(s) => ir_version(s).map_or_else(|| p.run.clone(), Run::Ir),
                other => other.clone(),
            })
            .collect();
        if !matches!(runs.first(), Some(Run::Ir(_))) {
            // A structural pass reads the module first: the IR loader's checks have not.
            debug_assert!(stream.is_none(), "a stream starts with passes on the IR");
            parser_check(&words)?;
        }
        let mut changed = false;
        let mut at = 0;
        while at < runs.len() {
            let ir_run = matches!(runs[at], Run::Ir(_));
            let end = runs[at..]
                .iter()
                .position(|r| matches!(r, Run::Ir(_)) != ir_run)
                .map_or(runs.len(), |k| at + k);
            let last = end == runs.len();
            if ir_run {
                let mut ir = match stream.take() {
                    None => Ir::from_words(&words)?,
                    Some((r, len)) => crate::ir::load::load_read(r, len).map_err(|e| match e {
                        ReadLoadError::Io(e) => OptError::Read(e.to_string()),
                        ReadLoadError::Load(e) => e.into(),
                    })?,
                };
                if let Some(bound) = self.max_id_bound {
                    ir.max_id_bound = bound;
                }
                let mut cx = Context::new(ir);
                cx.options = self.context_options;
                // The input is in the IR now; its buffer, already paged in, takes the
                // output.
                let spare = std::mem::take(&mut words);
                for r in &runs[at..end] {
                    if let Run::Ir(pass) = r {
                        let status = run_ir_pass(pass.as_ref(), &mut cx);
                        for text in cx.warnings.drain(..) {
                            warn(Message::optimizer(MessageLevel::Warning, text));
                        }
                        changed |= status? == Status::Changed;
                    }
                }
                if last && changed {
                    cx.ir.header.bound = cx.ir.compute_id_bound();
                }
                if last && keep_ir {
                    return Ok((Done::Ir(Box::new(cx)), changed));
                }
                words = cx.to_words_into(spare);
                if last && self.leak_ir {
                    // Told to: the process exits after writing `words`.
                    std::mem::forget(cx);
                }
            } else {
                let list: Vec<S> = runs[at..end]
                    .iter()
                    .filter_map(|r| match r {
                        Run::Editor(s) => Some(s.clone()),
                        Run::Ir(_) | Run::Missing => None,
                    })
                    .collect();
                let (w, c) =
                    structural::run_words(&words, &list, numbers).map_err(parser_wording)?;
                words = w;
                changed |= c;
                if last && changed && !c {
                    let mut m = Module::read_owned(words, &Default::default())?;
                    spirv_core::__private::opt::tighten_bound(&mut m)?;
                    words = m.into_words();
                }
            }
            at = end;
        }
        if self.passes.is_empty() {
            words = Ir::from_words(&words)?.to_words();
        }
        Ok((Done::Words(words), changed))
    }

    /// Validates, unless told not to.
    fn check(&self, words: &[u32]) -> Result<(), OptError> {
        if self.skip_validation {
            return Ok(());
        }
        validate::validate(words, &self.validator).map_err(|e| OptError::Invalid(Box::new(e)))
    }

    /// The registered passes as structural passes, if every one is (and there is one).
    fn structural(&self) -> Option<Vec<S>> {
        if self.passes.is_empty() {
            return None;
        }
        self.passes
            .iter()
            .map(|p| match &p.run {
                Run::Editor(s) => Some(s.clone()),
                Run::Ir(_) | Run::Missing => None,
            })
            .collect()
    }

    /// Fails, naming them, when registered passes are not implemented yet.
    fn ready(&self) -> Result<(), OptError> {
        let missing = self.missing();
        if missing.is_empty() {
            Ok(())
        } else {
            Err(OptError::NotImplemented(missing))
        }
    }

    /// [`Optimizer::run`], telling `consumer` what spirv-opt tells its message consumer:
    /// the passes' warnings as they run (the inliner's "could not be inlined", for one),
    /// and on a failure its message (the validator's, with the instruction it names when
    /// a [`Optimizer::fault_text`] is set; or the optimizer's error).
    ///
    /// ```
    /// use spirv_opt::{MessageLevel, Optimizer};
    ///
    /// let mut opt = Optimizer::new();
    /// opt.register_flag("--strip-debug")?;
    /// let mut said = Vec::new();
    /// // A header alone: no memory model, so the validator refuses it.
    /// let words = spirv_core::Builder::new((1, 0)).build()?.into_words();
    /// assert!(opt.run_reporting(&words, &mut |m| said.push(m)).is_err());
    /// assert_eq!(said.len(), 1);
    /// assert_eq!((said[0].level, said[0].source), (MessageLevel::Error, Some("input")));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// As [`Optimizer::run`].
    pub fn run_reporting(
        &self,
        words: &[u32],
        consumer: &mut dyn FnMut(Message),
    ) -> Result<Optimized, OptError> {
        let out = self.run_with(words, consumer);
        if let Err(e) = &out {
            consumer(self.message(words, e));
        }
        out
    }

    /// What spirv-opt tells its message consumer when a run on `words` fails with `e`.
    pub fn message(&self, words: &[u32], e: &OptError) -> Message {
        match (e, &self.fault_text) {
            (OptError::Invalid(fault), Some(render)) => {
                Message::validator(fault.line(), render(words, fault, &self.validator))
            }
            _ => e.message(),
        }
    }
}

/// The words of what is left of `file`, little-endian.
fn read_words(file: &mut std::fs::File) -> Result<Vec<u32>, OptError> {
    use std::io::Read;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)
        .map_err(|e| OptError::Read(e.to_string()))?;
    if bytes.len() % 4 != 0 {
        return Err(OptError::Decode(DecodeError::at_word(
            spirv_core::DecodeErrorKind::ByteLengthNotMultipleOf4 { len: bytes.len() },
            bytes.len() / 4,
        )));
    }
    Ok(bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect())
}

/// Refuses, as spirv-opt does, a module its parser refuses where the structural passes'
/// reader is lenient: an opcode the grammar lacks, or a type or result id of 0. A cheap
/// scan of the instructions' first words finds one; the IR loader, which reads the
/// module as SPIRV-Tools' parser does, then names the first refusal in spirv-opt's words
/// (`Invalid opcode: 4000` at instruction 11).
fn parser_check(words: &[u32]) -> Result<(), OptError> {
    let swapped = words.first() == Some(&spirv_core::binary::MAGIC.swap_bytes());
    let word = |i: usize| {
        words
            .get(i)
            .map(|&w| if swapped { w.swap_bytes() } else { w })
    };
    let mut at = 5;
    while let Some(first) = word(at) {
        let count = (first >> 16) as usize;
        if count == 0 {
            // The decoder reports a broken stream.
            break;
        }
        if parser_refuses(first, count, |k| word(at + k)) {
            Ir::from_words(words)?;
            break;
        }
        at += count;
    }
    Ok(())
}

/// [`parser_check`] on a read module, whose reader is as lenient as the structural
/// passes' (an id defined twice it already refuses): the words are only written out
/// to name a refusal found.
fn parser_check_module(module: &Module) -> Result<(), OptError> {
    let refused = module.instructions().any(|inst| {
        let w = inst.words();
        parser_refuses(w[0], w.len(), |k| w.get(k).copied())
    });
    if refused {
        Ir::from_words(&module.to_words())?;
    }
    Ok(())
}

/// Whether SPIRV-Tools' parser refuses the instruction whose first word is `first`, of
/// `count` words, `word(k)` its `k`th: an unknown opcode, or a type or result id 0.
fn parser_refuses(first: u32, count: usize, word: impl Fn(usize) -> Option<u32>) -> bool {
    use spirv_core::grammar::KindClass;
    let Some(info) = spirv_core::spv::GRAMMAR.instruction(first & 0xffff) else {
        return true;
    };
    info.operands
        .iter()
        .take(2)
        .take_while(|o| matches!(o.kind.class, KindClass::ResultType | KindClass::Result))
        .enumerate()
        .any(|(k, _)| k + 1 < count && word(k + 1) == Some(0))
}

/// A structural run's failure, an id defined twice worded as spirv-opt's parser words
/// it (the IR loader's wording), other failures as they are.
fn parser_wording(e: EditError) -> OptError {
    match e {
        EditError::Decode(DecodeError {
            kind: spirv_core::DecodeErrorKind::IdRedefined { id },
            instruction: Some(i),
            ..
        }) => OptError::Load(LoadError::Refused {
            message: format!("Id {id} is defined more than once"),
            index: i + 1,
        }),
        e => e.into(),
    }
}

/// The pass on the optimizer IR that does what the structural pass `s` does, if there
/// is one. A sequence that mixes the two kinds runs it on the IR: a write and reload
/// between IR passes would number the debug scopes twice, where spirv-opt writes once
/// (`--legalize-hlsl` runs `--remove-unused-interface-variables` between IR passes).
fn ir_version(s: &S) -> Option<Arc<dyn crate::pass::IrPass>> {
    match s {
        S::RemoveUnusedInterfaceVariables => Some(Arc::new(
            crate::passes::remove_unused_interface::RemoveUnusedInterfaceVariables,
        )),
        _ => None,
    }
}
