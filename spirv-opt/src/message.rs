//! What spirv-opt tells its message consumer: a [`Message`] with spirv-opt's level,
//! source and position, and its text, as [`Optimizer::run_reporting`] hands them to a
//! callback and as `spirv-opt`'s command line prints them (`error: line N: text`).
//!
//! [`Optimizer::run_reporting`]: crate::Optimizer::run_reporting

use core::fmt;

/// How serious a message is (spirv-opt's `spv_message_level_t`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MessageLevel {
    /// An unrecoverable error of the environment.
    Fatal,
    /// An unrecoverable error of the optimizer itself.
    InternalError,
    /// An error in the input.
    Error,
    /// A warning.
    Warning,
    /// Information.
    Info,
    /// Debugging information.
    Debug,
}

/// One message, as spirv-opt hands it to its consumer.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Message {
    /// The level.
    pub level: MessageLevel,
    /// The source spirv-opt names: `Some("input")` for the validator's messages, `None`
    /// for the optimizer's own.
    pub source: Option<&'static str>,
    /// The position's index: for the validator, the 1-based number of the instruction
    /// it names (0 for the module as a whole); for a module the loader refuses, the
    /// instruction it refuses; 0 for the optimizer's other messages.
    pub index: usize,
    /// The text: a first line, then (for the validator) the instruction it names,
    /// disassembled on a line of its own, indented by two spaces and ended by a newline.
    pub text: String,
}

impl Message {
    /// A message of the optimizer's own (no source, position 0).
    pub fn optimizer(level: MessageLevel, text: impl Into<String>) -> Message {
        Message {
            level,
            source: None,
            index: 0,
            text: text.into(),
        }
    }

    /// A message of the validator: source `input`, the instruction's number.
    pub fn validator(index: usize, text: impl Into<String>) -> Message {
        Message {
            level: MessageLevel::Error,
            source: Some("input"),
            index,
            text: text.into(),
        }
    }
}

/// As spirv-opt's command line prints a message (without the final newline):
/// `error: line N: text` for errors, `warning: …` and `info: …` for the others.
impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let level = match self.level {
            MessageLevel::Fatal | MessageLevel::InternalError | MessageLevel::Error => "error",
            MessageLevel::Warning => "warning",
            MessageLevel::Info => "info",
            MessageLevel::Debug => "debug",
        };
        write!(f, "{level}: line {}: {}", self.index, self.text)
    }
}
