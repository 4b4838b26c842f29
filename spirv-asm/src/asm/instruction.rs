//! One instruction: its opcode or `!<integer>` form, result id, availability in the
//! target version, and its words.

use super::error::nearest;
use super::lexer::is_ws;
use super::operands::push_layout;
use super::{Asm, AsmError, AsmErrorKind, Expect};
use crate::number;
use spirv_core::grammar::{InstructionInfo, KindClass};
use spirv_core::spv;
use spirv_core::walk::{self, Summary};

impl Asm<'_> {
    pub(super) fn instruction(&mut self) -> Result<(), AsmError> {
        let start = self.pos;
        let mut end = self.word_end(start);
        let mut result: Option<(usize, usize)> = None;
        if self.text[start] == b'%' {
            result = Some((start, end));
            self.pos = end;
            if !self.skip_ws() {
                return Err(self.error_at(
                    self.pos,
                    self.pos,
                    "Expected '=', found end of stream.",
                    AsmErrorKind::InvalidText,
                ));
            }
            let e = self.word_end(self.pos);
            if &self.text[self.pos..e] != b"=" {
                let w = String::from_utf8_lossy(&self.text[self.pos..e]).into_owned();
                return Err(self.error_at(
                    self.pos,
                    e,
                    format!("'=' expected after result id but found '{w}'."),
                    AsmErrorKind::InvalidText,
                ));
            }
            self.pos = e;
            if !self.skip_ws() {
                return Err(self.error_at(
                    self.pos,
                    self.pos,
                    "Expected opcode, found end of stream.",
                    AsmErrorKind::InvalidText,
                ));
            }
            end = self.word_end(self.pos);
        }
        let op_start = self.pos;
        let op_word = &self.text[op_start..end];
        self.inst_ops.clear();
        let inst_start = self.out.len();

        // After `%id =`, `!…` is no opcode ("Invalid Opcode prefix" below).
        if op_word.first() == Some(&b'!') && result.is_none() {
            // The whole leading word is given: no word-count fix-up.
            let w = self.immediate(op_start, end)?;
            self.out.push(w);
            self.pos = end;
            // Operands in alternate mode up to the next instruction; an `=` among them
            // means the immediate stood where a result id belongs.
            while self.skip_ws() && !self.is_start_of_new_inst() {
                let ws = self.pos;
                let we = self.word_end(ws);
                if &self.text[ws..we] == b"=" {
                    let first = String::from_utf8_lossy(op_word).into_owned();
                    return Err(self.error_at(
                        ws,
                        we,
                        format!("{first} not allowed before =."),
                        AsmErrorKind::InvalidText,
                    ));
                }
                self.raw_operand()?;
            }
            let ops = std::mem::take(&mut self.inst_ops);
            self.out.extend_from_slice(&ops);
            self.inst_ops = ops;
            return Ok(());
        }
        if op_word == b"OpUnknown" {
            return self.op_unknown(result, op_start, end);
        }
        if !super::lexer::starts_with_op(self.text, op_start) {
            let w = String::from_utf8_lossy(op_word).into_owned();
            let msg = if result.is_some() {
                format!("Invalid Opcode prefix '{w}'.")
            } else {
                format!(
                    "Expected <opcode> or <result-id> at the beginning of an instruction, found '{w}'."
                )
            };
            return Err(self.error_at(op_start, end, msg, AsmErrorKind::InvalidText));
        }
        let info = spv::GRAMMAR
            .instruction_by_name_bytes(op_word)
            .filter(|i| self.available(i));
        let Some(info) = info else {
            let w = String::from_utf8_lossy(op_word).into_owned();
            let mut msg = format!("Invalid Opcode name '{w}'");
            if let Some(n) = nearest(&w, spv::GRAMMAR.instructions.iter().map(|i| i.opname)) {
                msg.push_str(&format!(" (did you mean '{n}'?)"));
            }
            return Err(self.error_at(op_start, end, msg, AsmErrorKind::InvalidLookup));
        };
        let has_result = info.has_result();
        match (result, has_result) {
            (None, true) => {
                return Err(self.error_at(
                    op_start,
                    end,
                    format!(
                        "Expected <result-id> at the beginning of an instruction, found '{}'.",
                        info.opname
                    ),
                    AsmErrorKind::InvalidText,
                ));
            }
            (Some((rs, re)), false) => {
                let name = String::from_utf8_lossy(&self.text[rs..re]).into_owned();
                return Err(self.error_at(
                    op_start,
                    end,
                    format!(
                        "Cannot set ID {name} because {} does not produce a result ID.",
                        info.opname
                    ),
                    AsmErrorKind::InvalidText,
                ));
            }
            _ => {}
        }
        self.pos = end;
        self.out.push(u32::from(info.opcode as u16));
        // The parse stack is reused across instructions.
        let mut stack = std::mem::take(&mut self.stack);
        stack.clear();
        push_layout(&mut stack, info.operands);
        let r = self.operands(result, &mut stack, info.opname, info.switch_literals);
        self.stack = stack;
        r?;
        let ops = std::mem::take(&mut self.inst_ops);
        self.out.extend_from_slice(&ops);
        self.inst_ops = ops;
        let count = self.out.len() - inst_start;
        if count > 0xffff {
            return Err(self.error_at(
                op_start,
                end,
                format!("Instruction too long: {count} words, but the limit is 65535"),
                AsmErrorKind::InvalidText,
            ));
        }
        self.out[inst_start] |= (count as u32) << 16;
        // Record what it defines (types, imports, value types).
        let ops = &self.out[inst_start + 1..];
        let summary = Summary {
            result_type: if info.has_result_type() {
                ops.first().copied()
            } else {
                None
            },
            result_id: info
                .operands
                .iter()
                .position(|o| o.kind.class == KindClass::Result)
                .and_then(|p| ops.get(p).copied()),
            saw_unknown: false,
        };
        let opcode = info.opcode as u16;
        let previous = summary.result_id.map(|id| self.ids.get(spirv_core::Id(id)));
        if opcode == spv::Opcode::ExtInstImport.0 {
            self.imports.push(spirv_core::codec::string_operand(
                ops.get(1..).unwrap_or(&[]),
            ));
        }
        if let Err(spirv_core::DecodeErrorKind::IdRedefined { id }) =
            walk::observe(&mut self.ids, &self.registry, opcode, ops, &summary)
        {
            // spirv-as rejects a type defined again by a type; it accepts any other
            // redefinition, which we also reject (spirv-dis would reject the binary).
            let is_type = spv::Class::of(info) == Some(spv::Class::TypeDeclaration)
                && matches!(
                    previous,
                    Some(walk::IdInfo::Number(_) | walk::IdInfo::Other)
                );
            if opcode == spv::Opcode::ExtInstImport.0
                && matches!(previous, Some(walk::IdInfo::ExtSet(_)))
            {
                // spirv-as checks the import's name, then that its id is new as an import.
                let name = spirv_core::codec::string_operand(ops.get(1..).unwrap_or(&[]));
                let known =
                    self.registry.lookup(&name).is_some() || name.starts_with(b"NonSemantic.");
                let msg = if known {
                    "Import Id is being defined a second time".to_owned()
                } else {
                    format!(
                        "Invalid extended instruction import '{}'",
                        String::from_utf8_lossy(&name)
                    )
                };
                return Err(self.error_at(
                    self.last_operand,
                    self.pos,
                    msg,
                    AsmErrorKind::InvalidText,
                ));
            }
            let (msg, kind) = if is_type {
                (
                    format!("Value {id} has already been used to generate a type"),
                    AsmErrorKind::InvalidText,
                )
            } else {
                (
                    format!("Id {id} is defined more than once"),
                    AsmErrorKind::InvalidId,
                )
            };
            return Err(self.error_at(self.pos, self.pos, msg, kind));
        }
        // spirv-as's type table takes an integer or float type's words as they stand,
        // which only the alternate (`!`) form can get wrong.
        let malformed = if opcode == spv::Opcode::TypeInt.0 {
            (ops.len() != 3).then_some("Invalid OpTypeInt instruction")
        } else if opcode == spv::Opcode::TypeFloat.0 {
            match ops.get(2) {
                _ if !(2..=3).contains(&ops.len()) => Some("Invalid OpTypeFloat instruction"),
                Some(&e) if spv::kinds::FPEncoding.enumerant(e).is_none() => {
                    Some("Invalid OpTypeFloat encoding")
                }
                _ => None,
            }
        } else {
            None
        };
        if let Some(msg) = malformed {
            return Err(self.error_at(self.pos, self.pos, msg, AsmErrorKind::InvalidText));
        }
        if walk::unknown_import(&self.ids, opcode) {
            let name = spirv_core::codec::string_operand(ops.get(1..).unwrap_or(&[]));
            let msg = format!(
                "Invalid extended instruction import '{}'",
                String::from_utf8_lossy(&name)
            );
            return Err(self.error_at(self.last_operand, self.pos, msg, AsmErrorKind::InvalidText));
        }
        Ok(())
    }

    /// Opcode gating by the target version, as spirv-as does: instructions enabled by a
    /// capability or extension are always available.
    pub(super) fn available(&self, info: &InstructionInfo) -> bool {
        if !info.capabilities.is_empty() || !info.extensions.is_empty() {
            return true;
        }
        info.version.is_none_or(|v| v <= self.version)
            && info.last_version.is_none_or(|v| self.version <= v)
    }

    pub(super) fn immediate(&self, start: usize, end: usize) -> Result<u32, AsmError> {
        let text = std::str::from_utf8(&self.text[start + 1..end]).unwrap_or("");
        number::parse_u32(text)
            .or_else(|_| number::parse_int(text, 32, true).map(|v| v as u32))
            .map_err(|_| {
                self.error_at(
                    start,
                    end,
                    format!("Invalid immediate integer: !{text}"),
                    AsmErrorKind::InvalidText,
                )
            })
    }

    /// `OpUnknown(opcode, wordcount)` then raw operands.
    pub(super) fn op_unknown(
        &mut self,
        result: Option<(usize, usize)>,
        start: usize,
        end: usize,
    ) -> Result<(), AsmError> {
        if let Some((rs, re)) = result {
            let name = String::from_utf8_lossy(&self.text[rs..re]).into_owned();
            return Err(self.error_at(
                rs,
                re,
                format!("Cannot set ID {name} because OpUnknown does not produce a result ID."),
                AsmErrorKind::InvalidText,
            ));
        }
        let t = self.text;
        let mut p = end;
        // spirv-as's messages: "'(' expected after OpUnknown but found '…'." and so on.
        let next_word = |p: usize| -> (usize, usize) {
            let mut s = p;
            while s < t.len() && is_ws(t[s]) {
                s += 1;
            }
            let mut e = s;
            while e < t.len() && !is_ws(t[e]) && !matches!(t[e], b',' | b'(' | b')' | b';') {
                e += 1;
            }
            (s, e)
        };
        let expect = |p: &mut usize, c: u8, after: &str| -> Result<(), AsmError> {
            let (s, e) = next_word(*p);
            if t.get(s) == Some(&c) {
                *p = s + 1;
                Ok(())
            } else {
                let found = String::from_utf8_lossy(&t[s..e]).into_owned();
                let msg = format!(
                    "'{}' expected after {after} but found '{found}'.",
                    c as char
                );
                Err(self.error_at(s, e, msg, AsmErrorKind::InvalidText))
            }
        };
        let num = |p: &mut usize, what: &str| -> Result<u32, AsmError> {
            let (s, e) = next_word(*p);
            *p = e;
            let w = std::str::from_utf8(&t[s..e]).unwrap_or("");
            number::parse_u32(w).map_err(|_| {
                self.error_at(
                    s,
                    e,
                    format!("Invalid {what}: {w}"),
                    AsmErrorKind::InvalidText,
                )
            })
        };
        expect(&mut p, b'(', "OpUnknown")?;
        let opcode = num(&mut p, "opcode enumerant")?;
        expect(&mut p, b',', "opcode enumerant")?;
        let count = num(&mut p, "word count")?;
        expect(&mut p, b')', "word count")?;
        if opcode > 0xffff || count > 0xffff {
            return Err(self.error_at(
                start,
                p,
                "OpUnknown opcode and word count must fit in 16 bits",
                AsmErrorKind::InvalidText,
            ));
        }
        self.pos = p;
        self.out.push((count << 16) | opcode);
        let mut stack = vec![Expect::Raw];
        self.operands(None, &mut stack, "OpUnknown", false)?;
        let ops = std::mem::take(&mut self.inst_ops);
        self.out.extend_from_slice(&ops);
        self.inst_ops = ops;
        Ok(())
    }
}
