//! spirv-opt's passes (the `spirv-opt` crate) with spirv-as's number parser, which
//! `--set-spec-const-default-value` reads its values with and which the `spirv-opt`
//! crate leaves to its caller.
//!
//! ```
//! use spirv_asm::{assemble_str, AsmOptions};
//! use spirv_asm::opt::{run, Pass};
//! let words = assemble_str(
//!     "OpCapability Shader\nOpCapability Linkage\nOpMemoryModel Logical GLSL450\nOpName %int \"int\"\n%int = OpTypeInt 32 1\n",
//!     &AsmOptions::default(),
//! ).unwrap();
//! let module = spirv_core::Module::from_words(&words).unwrap();
//! let (out, changed) = run(&module, &[Pass::StripDebug]).unwrap();
//! assert!(changed);
//! assert_eq!(out.len(), 4);
//! ```

use crate::number::{self, FloatFormat};
use spirv_core::Module;
use spirv_core::edit::EditError;
use spirv_core::walk::NumberType;
pub use spirv_opt::structural::{NumberParser, Pass};
pub use spirv_opt::{Optimizer, registry};

/// spirv-as's number parser, as spirv-opt reads `--set-spec-const-default-value`'s
/// values with it (`utils::ParseAndEncodeNumber`).
#[derive(Debug, Clone, Copy, Default)]
pub struct SpirvAsNumbers;

impl NumberParser for SpirvAsNumbers {
    fn encode(&self, text: &str, ty: NumberType) -> Option<Vec<u32>> {
        let bits = match ty {
            NumberType::Int { width, signed } if width <= 64 => {
                number::parse_int(text, width, signed).ok()?
            }
            NumberType::Float { width, encoding } => {
                let fmt =
                    FloatFormat::of(width, encoding).or_else(|| FloatFormat::of(width, None))?;
                number::parse_float(text, width, fmt).ok()?
            }
            _ => return None,
        };
        let mut words = vec![bits as u32];
        if ty.width() > 32 {
            words.push((bits >> 32) as u32);
        }
        Some(words)
    }
}

/// An [`Optimizer`] that reads number values with spirv-as's parser and words the
/// validator's faults as spirv-val does ([`fault_text`]), for its messages.
pub fn optimizer() -> Optimizer {
    let mut o = Optimizer::new();
    o.number_parser(std::sync::Arc::new(SpirvAsNumbers))
        .fault_text(std::sync::Arc::new(fault_text));
    o
}

/// A validator fault's text as spirv-opt hands it to its message consumer: spirv-val's
/// message, then (when it names one) the instruction, disassembled on its own line,
/// indented by two spaces, with a newline after it.
pub fn fault_text(
    words: &[u32],
    fault: &spirv_core::validate::ValidationError,
    options: &spirv_core::validate::Options<'static>,
) -> String {
    let parts = crate::val::render_each(words, std::slice::from_ref(fault), options);
    match parts.into_iter().next() {
        Some(p) => match p.instruction {
            Some(i) => format!("{}\n  {i}\n", p.message),
            None => p.message,
        },
        None => fault.to_string(),
    }
}

/// Runs the structural `passes` in order as `spirv-opt --skip-validation` does
/// (`spirv_opt::structural::run_with`), reading number values with spirv-as's parser.
///
/// # Errors
/// See `spirv_opt::structural::run_one`.
pub fn run(module: &Module, passes: &[Pass]) -> Result<(Module, bool), EditError> {
    spirv_opt::structural::run_with(module, passes, Some(&SpirvAsNumbers))
}

/// [`run`] on a module the caller is done with, giving the words of the module
/// (`spirv_opt::structural::run_to_words`): the last pass's edits are not read back,
/// for a caller that writes them out.
///
/// # Errors
/// See `spirv_opt::structural::run_one`.
pub fn run_to_words(module: Module, passes: &[Pass]) -> Result<(Vec<u32>, bool), EditError> {
    spirv_opt::structural::run_to_words(module, passes, Some(&SpirvAsNumbers))
}

/// [`run_to_words`] of the module `words` (`spirv_opt::structural::run_words`): the
/// passes that decide instruction by instruction run as the module is read, when they
/// and the module allow.
///
/// # Errors
/// The words do not read as a module, or see `spirv_opt::structural::run_one`.
pub fn run_words(words: &[u32], passes: &[Pass]) -> Result<(Vec<u32>, bool), EditError> {
    spirv_opt::structural::run_words(words, passes, Some(&SpirvAsNumbers))
}
