//! The lexer: whitespace and comments, word boundaries as spirv-as finds them, and
//! where an instruction starts.

use super::Asm;

pub(super) fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

/// Skips whitespace and `;` comments from `pos`.
#[inline]
pub(super) fn skip_ws(t: &[u8], mut pos: usize) -> usize {
    while pos < t.len() {
        match t[pos] {
            b' ' | b'\t' | b'\r' | b'\n' => pos += 1,
            b';' => {
                pos += t[pos..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .unwrap_or(t.len() - pos);
            }
            _ => break,
        }
    }
    pos
}

/// Bytes that end a word outside quotes: whitespace, `;`, `,`, `(`, `)`, NUL.
pub(super) const ENDS_WORD: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    let ends = b" \t\r\n;,()\0";
    while i < ends.len() {
        t[ends[i] as usize] = true;
        i += 1;
    }
    t
};

/// The end of the word starting at `at` (spirv-as's `getWord`): quotes and backslash
/// escapes keep terminators inside the word; NUL always ends it.
#[inline]
pub(super) fn word_end(t: &[u8], at: usize) -> usize {
    let mut i = at;
    // Fast path: plain words without quotes or backslashes.
    while i < t.len() {
        let c = t[i];
        if ENDS_WORD[c as usize] {
            return i;
        }
        if c == b'"' || c == b'\\' {
            break;
        }
        i += 1;
    }
    let mut quoting = false;
    let mut escaping = false;
    while i < t.len() {
        let c = t[i];
        if c == b'\\' {
            escaping = !escaping;
        } else {
            match c {
                b'"' if !escaping => quoting = !quoting,
                b'\0' => return i,
                _ if ENDS_WORD[c as usize] && !escaping && !quoting => return i,
                _ => {}
            }
            escaping = false;
        }
        i += 1;
    }
    i
}

/// A name made of 1 to 9 decimal digits without a leading zero, as a number. Names such
/// as `%007` keep their spelling as a key (they are different names from `%7`).
#[inline]
pub(super) fn small_number(name: &[u8]) -> Option<u32> {
    if name.is_empty() || name.len() > 9 || (name[0] == b'0' && name.len() > 1) {
        return None;
    }
    let mut v = 0u32;
    for &b in name {
        if !b.is_ascii_digit() {
            return None;
        }
        v = v * 10 + u32::from(b - b'0');
    }
    Some(v)
}

pub(super) fn starts_with_op(t: &[u8], at: usize) -> bool {
    matches!(t.get(at..at + 3), Some([b'O', b'p', c]) if c.is_ascii_uppercase())
}

pub(super) fn even_backslashes(inner: &[u8]) -> bool {
    inner.iter().rev().take_while(|&&b| b == b'\\').count() % 2 == 0
}

impl Asm<'_> {
    /// Skips whitespace and comments; false at the end of the text.
    #[inline]
    pub(super) fn skip_ws(&mut self) -> bool {
        self.pos = skip_ws(self.text, self.pos);
        self.pos < self.text.len()
    }

    /// The word starting at `at`: it ends at whitespace, `;`, `,`, `(` or `)` outside
    /// quotes and not after a backslash.
    #[inline]
    pub(super) fn word_end(&self, at: usize) -> usize {
        word_end(self.text, at)
    }

    /// Whether the next token starts an instruction: `Op[A-Z]…`, or `%id = Op…`.
    pub(super) fn is_start_of_new_inst(&self) -> bool {
        let t = self.text;
        let p = skip_ws(t, self.pos);
        if p >= t.len() {
            return false;
        }
        if starts_with_op(t, p) {
            return true;
        }
        if t[p] != b'%' {
            return false;
        }
        followed_by_assignment(t, word_end(t, p))
    }

    /// Like [`Self::is_start_of_new_inst`] for a word already found at `ws..we`.
    #[inline]
    pub(super) fn starts_new_inst(&self, ws: usize, we: usize) -> bool {
        let t = self.text;
        if starts_with_op(t, ws) {
            return true;
        }
        if t[ws] != b'%' {
            return false;
        }
        followed_by_assignment(t, we)
    }
}

/// Whether `=` and then an `Op…` word follow `at`, as after a result id that starts an
/// instruction. spirv-as asks for the opcode too: `%a = %b` continues the instruction
/// before it.
fn followed_by_assignment(t: &[u8], at: usize) -> bool {
    let p = skip_ws(t, at);
    p < t.len() && t[p] == b'=' && word_end(t, p) == p + 1 && starts_with_op(t, skip_ws(t, p + 1))
}
