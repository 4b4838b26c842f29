//! The disassembler: binary → SPIR-V assembly text, exactly as spirv-dis 2025.5 prints
//! it. Operand layouts come from the generated grammar tables through spirv-core's
//! operand walker; nothing here lists opcodes or operand kinds by hand.

mod cfg;
mod comments;
mod messages;
mod passes;
mod printer;

pub(crate) use passes::check_and_name;
use passes::disassemble_streaming;
pub(crate) use passes::instruction_texts;

use crate::names::Names;
pub use crate::names::{MAX_DERIVED_LEN, MAX_NAME_LEN};
use spirv_core::DecodeErrorKind;
use spirv_core::ExtInstRegistry;
use spirv_core::walk::{Ids, Parsed};
use std::fmt;
use std::io::Write;

/// The deepest nesting level `--nested-indent` shows; deeper blocks are indented as at
/// this level. spirv-dis has no limit, so its text grows with the square of the nesting
/// depth (a 200 KB module of nested selections gives 160 MB); here each line has at most
/// 202 extra spaces. The deepest level in the corpus samples is 20.
pub const MAX_NESTED_LEVEL: u32 = 100;

/// Disassembler options; the defaults match plain `spirv-dis`.
#[derive(Debug, Clone)]
pub struct DisOptions {
    /// `--raw-id`: print `%N` instead of friendly names.
    pub raw_id: bool,
    /// The `; SPIR-V` header comment (`--no-header` turns it off).
    pub header: bool,
    /// Align result ids so opcodes start at column 16 (`--no-indent` turns it off).
    pub indent: bool,
    /// `--nested-indent`: indent by structured control-flow depth, up to
    /// [`MAX_NESTED_LEVEL`].
    pub nested_indent: bool,
    /// `--reorder-blocks`: print blocks in structured order.
    pub reorder_blocks: bool,
    /// `--comment`: section comments, OpName ids and decoration hints.
    pub comment: bool,
    /// `--offsets`: each instruction's byte offset.
    pub offsets: bool,
    /// `--color`: ANSI colours.
    pub color: bool,
    /// Print instructions that do not parse as `OpUnknown(…)`/`!<integer>` words and go
    /// on, instead of stopping at the first error. The text stays re-assemblable.
    pub keep_going: bool,
    /// Print names for every registered extended set (DebugPrintf, DebugBreak,
    /// user-registered sets), not only the 13 spirv-dis knows.
    pub all_ext_inst_names: bool,
    /// Extended sets to know; `None` = every vendored set.
    pub registry: Option<ExtInstRegistry>,
}

impl Default for DisOptions {
    fn default() -> Self {
        DisOptions {
            raw_id: false,
            header: true,
            indent: true,
            nested_indent: false,
            reorder_blocks: false,
            comment: false,
            offsets: false,
            color: false,
            keep_going: false,
            all_ext_inst_names: false,
            registry: None,
        }
    }
}

/// What went wrong in a disassembly, for programs to match on.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DisErrorKind {
    /// The binary is malformed: what the reader found.
    Decode(DecodeErrorKind),
    /// The header's version word is not one spirv-dis 2025.5 accepts (1.0 to 1.6, with
    /// its reserved bytes 0).
    UnsupportedVersion(u32),
    /// Writing the text failed.
    Write(std::io::ErrorKind),
}

/// A disassembly error: its kind, spirv-dis's message, and where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct DisError {
    /// What went wrong.
    pub kind: DisErrorKind,
    /// spirv-dis's message.
    pub message: String,
    /// 0-based index of the instruction, counting from the first after the header, as
    /// in [`DecodeError`](spirv_core::DecodeError); `None` for errors of the header or
    /// of writing. (The text of the error, like spirv-dis's, counts from 1.)
    pub instruction: Option<usize>,
    /// Word offset from the module start.
    pub offset: usize,
}

impl DisError {
    /// spirv-dis's exit code for this error: 252 for a malformed binary, 246 for a bad
    /// id (zero, redefined, or an unknown extended-instruction set), 255 for a header version
    /// it does not handle, and 1 when writing fails.
    pub fn exit_code(&self) -> u8 {
        match &self.kind {
            DisErrorKind::Decode(
                DecodeErrorKind::IdRedefined { .. }
                | DecodeErrorKind::UnknownExtInstSetId { .. }
                | DecodeErrorKind::ZeroId,
            ) => 246,
            DisErrorKind::Decode(_) => 252,
            DisErrorKind::UnsupportedVersion(_) => 255,
            DisErrorKind::Write(_) => 1,
        }
    }
}

impl fmt::Display for DisError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.instruction {
            Some(i) => write!(f, "{}: {} (at word {})", i + 1, self.message, self.offset),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for DisError {}

/// Disassembles into a `String`: the way to get the text.
///
/// The text is spirv-dis's. A literal string in the binary that is not UTF-8 (SPIR-V
/// requires UTF-8, but a binary may break the rule) has its bad bytes replaced by
/// U+FFFD here; [`disassemble`] gives the exact bytes spirv-dis prints.
///
/// ```
/// use spirv_asm::{assemble_str, disassemble_to_string, AsmOptions, DisOptions};
///
/// let words = assemble_str("OpCapability Shader\n", &AsmOptions::default())?;
/// let text = disassemble_to_string(&words, &DisOptions { header: false, ..DisOptions::default() })?;
/// assert_eq!(text, "               OpCapability Shader\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// The binary is malformed; see [`DisError`].
pub fn disassemble_to_string(words: &[u32], opts: &DisOptions) -> Result<String, DisError> {
    let bytes = disassemble(words, opts)?;
    Ok(match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    })
}

/// Disassembles into a byte vector, byte for byte what spirv-dis prints (strings are
/// printed raw, UTF-8 or not). For text, [`disassemble_to_string`].
///
/// # Errors
/// The binary is malformed; see [`DisError`].
pub fn disassemble(words: &[u32], opts: &DisOptions) -> Result<Vec<u8>, DisError> {
    let mut out = Vec::with_capacity(words.len() * 12);
    disassemble_into(words, opts, &mut out)?;
    Ok(out)
}

/// Disassembles into `out`, replacing what it held, as [`disassemble`] does into a new
/// vector: for a caller that disassembles many modules and keeps one buffer, so that
/// each module's text lands in memory already mapped instead of in fresh pages.
///
/// # Errors
/// The binary is malformed; see [`DisError`]. `out` then holds the text before the bad
/// instruction.
pub fn disassemble_reusing(
    words: &[u32],
    opts: &DisOptions,
    out: &mut Vec<u8>,
) -> Result<(), DisError> {
    out.clear();
    out.reserve(words.len() * 12);
    disassemble_into(words, opts, out)
}

/// Disassembles into any writer. On error, the text before the bad instruction has
/// been written, as spirv-dis does when printing.
///
/// # Errors
/// The binary is malformed, or writing failed.
pub fn disassemble_to(words: &[u32], opts: &DisOptions, w: &mut dyn Write) -> Result<(), DisError> {
    let mut out = Vec::with_capacity(1 << 17);
    let r = disassemble_streaming(words, opts, &mut out, Some(&mut *w), None);
    if !out.is_empty() {
        w.write_all(&out).map_err(|e| write_error(&e))?;
    }
    r
}

fn write_error(e: &std::io::Error) -> DisError {
    DisError {
        kind: DisErrorKind::Write(e.kind()),
        message: format!("write error: {e}"),
        instruction: None,
        offset: 0,
    }
}

fn header_error(kind: DecodeErrorKind, message: String) -> DisError {
    DisError {
        kind: DisErrorKind::Decode(kind),
        message,
        instruction: None,
        offset: 0,
    }
}

/// What both passes share: the options, the extended-instruction sets, id facts,
/// derived names and each instruction's parsed operands.
struct State<'a> {
    opts: &'a DisOptions,
    registry: ExtInstRegistry,
    ids: Ids,
    names: Option<Names>,
    parsed: Vec<Parsed>,
}

fn disassemble_into(input: &[u32], opts: &DisOptions, out: &mut Vec<u8>) -> Result<(), DisError> {
    disassemble_streaming(input, opts, out, None, None)
}

/// Writes `out` to `sink` and empties it, so that output is streamed in chunks.
fn drain(out: &mut Vec<u8>, sink: &mut Option<&mut dyn Write>) -> Result<(), DisError> {
    if let Some(w) = sink {
        w.write_all(out).map_err(|e| write_error(&e))?;
        out.clear();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{DisOptions, disassemble, disassemble_reusing, disassemble_to_string};

    #[test]
    fn text_is_a_string_and_bytes_stay_exact() {
        // OpString %1 "\xff\xfe": not UTF-8.
        let words = [
            0x0723_0203,
            0x0001_0000,
            0,
            2,
            0,
            (3 << 16) | 7,
            1,
            u32::from_le_bytes([0xff, 0xfe, 0, 0]),
        ];
        let opts = DisOptions {
            header: false,
            ..DisOptions::default()
        };
        let bytes = disassemble(&words, &opts).expect("disassembles");
        assert!(bytes.ends_with(b"OpString \"\xff\xfe\"\n"));
        let text = disassemble_to_string(&words, &opts).expect("disassembles");
        assert!(text.ends_with("OpString \"\u{fffd}\u{fffd}\"\n"), "{text}");
        // A kept buffer is replaced, not appended to.
        let mut kept = b"left from another module".to_vec();
        disassemble_reusing(&words, &opts, &mut kept).expect("disassembles");
        assert_eq!(kept, bytes);
    }
}
