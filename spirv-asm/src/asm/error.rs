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
    /// `error: LINE: COL: message`, then the source line and a caret.
    pub fn render(&self, text: &[u8]) -> String {
        let start = text[..self.span.start.min(text.len())]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1);
        let end = text[start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(text.len(), |p| start + p);
        let line = String::from_utf8_lossy(&text[start..end]);
        let line = line.trim_end_matches('\r');
        let caret_at = self.span.start.saturating_sub(start);
        let width = self
            .span
            .end
            .saturating_sub(self.span.start)
            .clamp(1, end.saturating_sub(self.span.start).max(1));
        format!(
            "{self}\n{line}\n{}{}",
            " ".repeat(caret_at),
            "^".repeat(width)
        )
    }
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
