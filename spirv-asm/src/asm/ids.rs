//! Ids: names and numbers to ids, in spirv-as's order, and `--preserve-numeric-ids`.

use super::lexer::{skip_ws, small_number, word_end};
use super::{Asm, AsmError, AsmErrorKind};

impl<'t> Asm<'t> {
    pub(super) fn reserve_numeric_ids(&mut self) {
        let t = self.text;
        let mut p = 0;
        let mut seen = Vec::new();
        loop {
            p = skip_ws(t, p);
            if p >= t.len() {
                break;
            }
            let e = word_end(t, p);
            if let Some(digits) = t[p..e].strip_prefix(b"%") {
                if !digits.is_empty() && digits.iter().all(u8::is_ascii_digit) {
                    if let Some(v) = std::str::from_utf8(digits)
                        .ok()
                        .and_then(|d| d.parse::<u32>().ok())
                    {
                        seen.push(v);
                    }
                }
            }
            p = if e == p { e + 1 } else { e };
        }
        seen.sort_unstable();
        seen.dedup();
        self.reserved = seen;
    }

    /// The id for `%name` (`word` includes the `%`), assigning one at first mention.
    pub(super) fn id(&mut self, start: usize, end: usize) -> Result<u32, AsmError> {
        let text: &'t [u8] = self.text;
        let name = &text[start + 1..end];
        // Numeric names (`%1565`, most ids in disassembled text) index a vector instead of
        // the hash map; the vector is bounded by the text's length.
        if let Some(v) = small_number(name).filter(|&v| (v as usize) < text.len()) {
            if let Some(&id) = self.numeric.get(v as usize) {
                if id != 0 {
                    return Ok(id);
                }
            }
            let id = if self.reserved.is_empty() {
                let id = self.next_id;
                self.next_id += 1;
                id
            } else {
                v
            };
            if id == 0 || id == u32::MAX {
                return Err(self.error_at(
                    start,
                    end,
                    format!("Invalid ID {}", String::from_utf8_lossy(name)),
                    AsmErrorKind::InvalidText,
                ));
            }
            if v as usize >= self.numeric.len() {
                let grow = (v as usize + 1).max(self.numeric.len() * 2).min(text.len());
                self.numeric.resize(grow, 0);
            }
            self.numeric[v as usize] = id;
            self.max_id = self.max_id.max(id);
            if self.want_ids {
                self.order.push((name, id));
            }
            return Ok(id);
        }
        // One hash per mention: look up and insert through the entry.
        let vacant = match self.names.find(text, name) {
            Ok(id) => return Ok(id),
            Err(vacant) => vacant,
        };
        // First mention: check the spelling and give it a number.
        let invalid =
            name.is_empty() || !name.iter().all(|&b| b.is_ascii_alphanumeric() || b == b'_');
        let numeric = if self.reserved.is_empty() || invalid {
            None
        } else {
            std::str::from_utf8(name)
                .ok()
                .filter(|s| s.bytes().all(|b| b.is_ascii_digit()))
                .and_then(|s| s.parse::<u32>().ok())
        };
        let id = match numeric {
            Some(n) => n,
            None => {
                while self.reserved.binary_search(&self.next_id).is_ok() {
                    self.next_id += 1;
                }
                self.next_id
            }
        };
        if invalid || id == u32::MAX || id == 0 {
            return Err(self.error_at(
                start,
                end,
                format!("Invalid ID {}", String::from_utf8_lossy(name)),
                AsmErrorKind::InvalidText,
            ));
        }
        self.names.insert(vacant, start + 1, name.len(), id);
        if numeric.is_none() {
            self.next_id += 1;
        }
        self.max_id = self.max_id.max(id);
        if self.want_ids {
            self.order.push((name, id));
        }
        Ok(id)
    }
}
