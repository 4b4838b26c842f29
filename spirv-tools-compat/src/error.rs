//! Errors and messages, shaped as `spirv-tools`' `error` module: [`Error`] (a result
//! code and an optional [`Diagnostic`]), [`Message`] (what the optimizer tells its
//! callback) and [`MessageCallback`].

use core::fmt;

/// How serious a message is (SPIRV-Tools' `spv_message_level_t`).
#[derive(Copy, Clone, PartialEq, Debug)]
pub enum MessageLevel {
    /// An unrecoverable error of the environment.
    Fatal,
    /// An unrecoverable error of the tools themselves.
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

/// SPIRV-Tools' result codes (`spv_result_t`).
#[derive(Copy, Clone, Debug, PartialEq)]
#[allow(missing_docs)]
pub enum SpirvResult {
    Success = 0,
    Unsupported = 1,
    EndOfStream = 2,
    Warning = 3,
    FailedMatch = 4,
    /// Success, but signals early termination.
    RequestedTermination = 5,
    InternalError = -1,
    OutOfMemory = -2,
    InvalidPointer = -3,
    InvalidBinary = -4,
    InvalidText = -5,
    InvalidTable = -6,
    InvalidValue = -7,
    InvalidDiagnostic = -8,
    InvalidLookup = -9,
    InvalidId = -10,
    InvalidCfg = -11,
    InvalidLayout = -12,
    InvalidCapability = -13,
    /// A data rule of validation is broken.
    InvalidData = -14,
    MissingExtension = -15,
    /// The wrong SPIR-V version.
    WrongVersion = -16,
}

impl fmt::Display for SpirvResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use SpirvResult as R;
        f.write_str(match self {
            R::Success => "success",
            R::Unsupported => "unsupported",
            R::EndOfStream => "end of stream",
            R::Warning => "warning",
            R::FailedMatch => "failed match",
            R::RequestedTermination => "requested termination",
            R::InternalError => "internal error",
            R::OutOfMemory => "out of memory",
            R::InvalidPointer => "invalid pointer",
            R::InvalidBinary => "invalid binary",
            R::InvalidText => "invalid text",
            R::InvalidTable => "invalid table",
            R::InvalidValue => "invalid value",
            R::InvalidDiagnostic => "invalid diagnostic",
            R::InvalidLookup => "invalid lookup",
            R::InvalidId => "invalid id",
            R::InvalidCfg => "invalid cfg",
            R::InvalidLayout => "invalid layout",
            R::InvalidCapability => "invalid capability",
            R::InvalidData => "invalid data",
            R::MissingExtension => "missing extension",
            R::WrongVersion => "wrong SPIR-V version",
        })
    }
}

impl std::error::Error for SpirvResult {}

/// A failure: SPIRV-Tools' result code, and what it said when it said something.
#[derive(Debug, PartialEq)]
pub struct Error {
    /// The result code.
    pub inner: SpirvResult,
    /// The message, where there is one.
    pub diagnostic: Option<Diagnostic>,
}

/// `error:LINE:COLUMN - MESSAGE`, then the notes on the next line; without a
/// diagnostic, `an unknown error occurred`.
impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.diagnostic {
            Some(d) => {
                write!(f, "error:{}:{} - {}", d.line, d.column, d.message)?;
                if !d.notes.is_empty() {
                    write!(f, "\n{}", d.notes)?;
                }
                Ok(())
            }
            None => f.write_str("an unknown error occurred"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.inner)
    }
}

/// What a tool said about a failure: where (a text position, or an instruction's
/// number for a binary) and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// The line (text input; 0 for a binary).
    pub line: usize,
    /// The column (text input; 0 for a binary).
    pub column: usize,
    /// The index: for the validator, the number of the instruction it names.
    pub index: usize,
    /// The message's first line.
    pub message: String,
    /// The rest of the message (the validator's: the instruction, disassembled).
    pub notes: String,
    /// Whether the input was text.
    pub is_text: bool,
}

impl From<String> for Diagnostic {
    fn from(message: String) -> Self {
        Diagnostic {
            line: 0,
            column: 0,
            index: 0,
            message,
            notes: String::new(),
            is_text: false,
        }
    }
}

impl From<Message> for Diagnostic {
    fn from(m: Message) -> Self {
        Diagnostic {
            line: m.line,
            column: m.column,
            index: m.index,
            message: m.message,
            notes: m.notes,
            is_text: false,
        }
    }
}

/// A message the optimizer hands to its [`MessageCallback`].
#[derive(Debug)]
pub struct Message {
    /// The level.
    pub level: MessageLevel,
    /// The source: `Some("input")` for the validator's messages.
    pub source: Option<String>,
    /// The line (0 for a binary).
    pub line: usize,
    /// The column (0 for a binary).
    pub column: usize,
    /// The index: for the validator, the number of the instruction it names.
    pub index: usize,
    /// The message's first line.
    pub message: String,
    /// The rest of the message, typically the instruction it names.
    pub notes: String,
}

impl Message {
    /// The message `spirv_opt` made, split as `spirv-tools` splits SPIRV-Tools' text:
    /// the first line, and the rest as notes.
    pub(crate) fn from_opt(m: spirv_opt::Message) -> Message {
        use spirv_opt::MessageLevel as L;
        let level = match m.level {
            L::Fatal => MessageLevel::Fatal,
            L::InternalError => MessageLevel::InternalError,
            L::Error => MessageLevel::Error,
            L::Warning => MessageLevel::Warning,
            L::Info => MessageLevel::Info,
            _ => MessageLevel::Debug,
        };
        let (message, notes) = split(&m.text);
        Message {
            level,
            source: m.source.filter(|s| !s.is_empty()).map(str::to_owned),
            line: 0,
            column: 0,
            index: m.index,
            message,
            notes,
        }
    }
}

/// A text's first line and the rest.
pub(crate) fn split(text: &str) -> (String, String) {
    match text.split_once('\n') {
        Some((first, rest)) => (first.to_owned(), rest.to_owned()),
        None => (text.to_owned(), String::new()),
    }
}

/// Receives the optimizer's messages. Any `FnMut(Message)` is one.
pub trait MessageCallback {
    /// Called with each message.
    fn on_message(&mut self, msg: Message);
}

impl<F> MessageCallback for F
where
    F: FnMut(Message),
{
    fn on_message(&mut self, msg: Message) {
        self(msg);
    }
}
