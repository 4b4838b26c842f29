//! Assembly errors: their kinds, spirv-as's exit codes and message layout, where they
//! point, and the "did you mean" suggestions.

use super::Asm;
use std::fmt;
use std::ops::Range;

/// The class of an assembly error; the CLI maps it to spirv-as's exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum AsmErrorKind {
    /// Malformed text (exit 251).
    InvalidText,
    /// An unknown name: opcode, enumerant (exit 247).
    InvalidLookup,
    /// A bad id (exit 246).
    InvalidId,
    /// Something spirv-as does not support, such as 128-bit literals (exit 255).
    Unsupported,
}

/// An assembly error: message, byte span, and spirv-as's line:column.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct AsmError {
    /// spirv-as's message (plus a suggestion where we have one).
    pub message: String,
    /// The byte range the error points at.
    pub span: Range<usize>,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// The error class.
    pub kind: AsmErrorKind,
}

impl AsmError {
    /// spirv-as's exit code for this error: 251 for malformed text, 247 for an unknown
    /// name, 246 for a bad id, 255 for what spirv-as does not support.
    pub fn exit_code(&self) -> u8 {
        match self.kind {
            AsmErrorKind::InvalidText => 251,
            AsmErrorKind::InvalidLookup => 247,
            AsmErrorKind::InvalidId => 246,
            AsmErrorKind::Unsupported => 255,
        }
    }
    /// `error: LINE: COL: message`, then the source line and a caret under the span.
    ///
    /// What is shown is bounded whatever the input: a line wider than 120 characters
    /// is cut to a window around the caret (`…` marks a cut), the caret stops at the
    /// window's edge, and a message longer than 1,024 bytes (one quoting a huge token)
    /// loses its middle. Cuts fall
    /// between characters, never inside one; a tab before the caret stays a tab under
    /// it, so the caret lines up in a terminal.
    pub fn render(&self, text: &[u8]) -> String {
        let at = self.span.start.min(text.len());
        let start = text[..at]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1);
        let mut end = text[at..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(text.len(), |p| at + p);
        if end > at && text[end - 1] == b'\r' {
            end -= 1;
        }
        let before = String::from_utf8_lossy(&text[start..at]);
        let after = String::from_utf8_lossy(&text[at..end]);
        let caret = before.chars().count();
        let total = caret + after.chars().count();
        let span_end = self.span.end.clamp(at, end);
        let underlined = String::from_utf8_lossy(&text[at..span_end]).chars().count();
        // The window of characters shown: the whole line, or SHOWN_COLUMNS of it with
        // the caret a third of the way in.
        let (lo, hi) = if total <= SHOWN_COLUMNS {
            (0, total)
        } else {
            let lo = caret
                .saturating_sub(SHOWN_COLUMNS / 3)
                .min(total - SHOWN_COLUMNS);
            (lo, lo + SHOWN_COLUMNS)
        };
        let mut out = String::with_capacity(SHOWN_MESSAGE + 4 * SHOWN_COLUMNS + 64);
        out.push_str("error: ");
        out.push_str(&format!("{}: {}: ", self.line, self.column));
        push_cut(&mut out, &self.message);
        out.push('\n');
        let mut under = String::new();
        if lo > 0 {
            out.push('…');
            under.push(' ');
        }
        for (i, c) in before.chars().chain(after.chars()).enumerate().skip(lo) {
            if i >= hi {
                out.push('…');
                break;
            }
            out.push(c);
            if i < caret {
                under.push(if c == '\t' { '\t' } else { ' ' });
            }
        }
        out.push('\n');
        out.push_str(&under);
        let room = hi.saturating_sub(caret).max(1);
        out.extend(std::iter::repeat_n('^', underlined.clamp(1, room)));
        out
    }
}

/// Characters of a source line [`AsmError::render`] shows at most.
const SHOWN_COLUMNS: usize = 120;

/// Bytes of a message [`AsmError::render`] shows at most.
const SHOWN_MESSAGE: usize = 1024;

/// Appends `message`, or, when it is longer than [`SHOWN_MESSAGE`] bytes, its head and
/// tail around a note of how much was left out, cut between characters.
fn push_cut(out: &mut String, message: &str) {
    if message.len() <= SHOWN_MESSAGE {
        out.push_str(message);
        return;
    }
    let floor = |mut i: usize| {
        while !message.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let head = floor(SHOWN_MESSAGE * 3 / 4);
    let tail = floor(message.len() - SHOWN_MESSAGE / 4);
    out.push_str(&message[..head]);
    out.push_str(&format!("…[{} bytes left out]…", tail - head));
    out.push_str(&message[tail..]);
}

impl fmt::Display for AsmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "error: {}: {}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for AsmError {}

/// Tokens longer than this get no "did you mean" suggestion. The edit distance costs
/// the product of the two lengths for every name, and no grammar name is half as long
/// (the longest has 71 bytes), so a longer token has no near match anyway.
pub(super) const SUGGEST_MAX_LEN: usize = 160;

/// The name closest to `word` among `names` (edit distance), for suggestions. Names
/// whose length differs from the token's by more than the allowed distance are skipped
/// without computing it.
pub(super) fn nearest<'n>(word: &str, names: impl Iterator<Item = &'n str>) -> Option<&'n str> {
    pub(super) fn dist(a: &str, b: &str) -> usize {
        let b: Vec<char> = b.chars().collect();
        let mut prev: Vec<usize> = (0..=b.len()).collect();
        for (i, ca) in a.chars().enumerate() {
            let mut cur = vec![i + 1; b.len() + 1];
            for (j, &cb) in b.iter().enumerate() {
                let sub = prev[j] + usize::from(!ca.eq_ignore_ascii_case(&cb));
                cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
            }
            prev = cur;
        }
        prev[b.len()]
    }
    if word.len() > SUGGEST_MAX_LEN {
        return None;
    }
    let limit = (word.len() / 3).max(2);
    names
        .filter(|n| n.len().abs_diff(word.len()) <= limit)
        .map(|n| (dist(word, n), n))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, n)| n)
}

impl Asm<'_> {
    pub(super) fn line_col(&self, at: usize) -> (usize, usize) {
        let before = &self.text[..at.min(self.text.len())];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let col = at
            - before
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |p| p + 1)
            + 1;
        (line, col)
    }

    #[cold]
    pub(super) fn error_at(
        &self,
        start: usize,
        end: usize,
        msg: impl Into<String>,
        kind: AsmErrorKind,
    ) -> AsmError {
        let (line, column) = self.line_col(start);
        AsmError {
            message: msg.into(),
            span: start..end.max(start),
            line,
            column,
            kind,
        }
    }
}
