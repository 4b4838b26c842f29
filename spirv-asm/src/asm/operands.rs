//! Operands: the parse stack driven by the grammar layouts, and the context-dependent
//! hooks (typed literals, strings, OpSwitch, OpExtInst, OpSpecConstantOp).

use super::error::nearest;
use super::lexer::{even_backslashes, small_number};
use super::{Asm, AsmError, AsmErrorKind, Expect};
use crate::number::{self, FloatFormat};
use spirv_core::grammar::{KindClass, OperandInfo, OperandKind, Quantifier};
use spirv_core::spv;
use spirv_core::walk::NumberType;

impl Asm<'_> {
    pub(super) fn operands(
        &mut self,
        result: Option<(usize, usize)>,
        stack: &mut Vec<Expect>,
        opname: &str,
        is_switch: bool,
    ) -> Result<(), AsmError> {
        // OpSwitch hook: case literals are sized by the selector's type.
        let mut switch_type: Option<NumberType> = None;
        let mut selector_seen = false;
        while let Some(e) = stack.pop() {
            let (kind, optional) = match e {
                Expect::One { kind, optional } => (kind, optional),
                Expect::Many { kind } => {
                    stack.push(Expect::Many { kind });
                    (kind, true)
                }
                Expect::ResultSlot => {
                    if let Some((rs, re)) = result {
                        let id = self.result_id(rs, re)?;
                        self.inst_ops.push(id);
                    }
                    continue;
                }
                Expect::Raw => {
                    if !self.skip_ws() || self.is_start_of_new_inst() {
                        // Alternate mode ends quietly, but a pending result slot must still be filled.
                        if let Some(i) = stack.iter().position(|e| matches!(e, Expect::ResultSlot))
                        {
                            stack.truncate(i + 1);
                            continue;
                        }
                        break;
                    }
                    stack.push(Expect::Raw);
                    self.raw_operand()?;
                    continue;
                }
            };
            if kind.class == KindClass::Composite {
                // Components of one occurrence: the first keeps the optionality. spirv-as
                // reads OpPhi's pairs as a plain list of ids, so an odd count assembles.
                let list = kind.name == "PairIdRefIdRef";
                for (i, b) in kind.bases.iter().enumerate().rev() {
                    stack.push(Expect::One {
                        kind: b,
                        optional: optional && (i == 0 || list),
                    });
                }
                continue;
            }
            if kind.class == KindClass::Result {
                if let Some((rs, re)) = result {
                    let id = self.result_id(rs, re)?;
                    self.inst_ops.push(id);
                }
                continue;
            }
            if !self.skip_ws() {
                if optional {
                    break;
                }
                return Err(self.error_at(
                    self.pos,
                    self.pos,
                    format!("Expected operand for {opname} instruction, but found the end of the stream."),
                    AsmErrorKind::InvalidText,
                ));
            }
            let ws = self.pos;
            let we = self.word_end(ws);
            if self.starts_new_inst(ws, we) {
                if optional {
                    break;
                }
                return Err(self.error_at(
                    ws,
                    we,
                    format!("Expected operand for {opname} instruction, but found the next instruction instead."),
                    AsmErrorKind::InvalidText,
                ));
            }
            self.last_operand = ws;
            if self.text[ws] == b'!' {
                let v = self.immediate(ws, we)?;
                self.inst_ops.push(v);
                self.pos = we;
                // Alternate mode; keep a result slot if the result id is still to come.
                let pending = result.is_some() && stack.iter().any(|e| matches!(e, Expect::One { kind, .. } if kind.class == KindClass::Result));
                let before_result = stack
                    .iter()
                    .rev()
                    .take_while(|e| !matches!(e, Expect::One { kind, .. } if kind.class == KindClass::Result))
                    .count();
                stack.clear();
                stack.push(Expect::Raw);
                if pending {
                    stack.push(Expect::ResultSlot);
                    for _ in 0..before_result {
                        stack.push(Expect::One {
                            kind: &spv::kinds::LiteralInteger,
                            optional: true,
                        });
                    }
                }
                continue;
            }
            if ws == we {
                let c = self.text[ws] as char;
                return Err(self.error_at(
                    ws,
                    ws + 1,
                    format!("Expected operand for {opname} instruction, but found '{c}'."),
                    AsmErrorKind::InvalidText,
                ));
            }
            if is_switch
                && !selector_seen
                && kind.class == KindClass::Id
                && self.inst_ops.is_empty()
            {
                selector_seen = true;
                // The selector: its type sizes the case literals.
                self.pos = we;
                let id = self.id(ws, we)?;
                self.inst_ops.push(id);
                // A selector of no integer type is reported at the first case literal,
                // where spirv-as reports it.
                switch_type = match self.ids.value_number_type(spirv_core::Id(id)) {
                    Some(t @ NumberType::Int { .. }) => Some(t),
                    _ => None,
                };
                continue;
            }
            self.pos = we;
            if is_switch && kind.class == KindClass::Integer {
                let Some(t) = switch_type else {
                    return Err(self.error_at(
                        ws,
                        we,
                        "The selector operand for OpSwitch must be the result of an instruction that generates an integer scalar",
                        AsmErrorKind::InvalidText,
                    ));
                };
                let before = self.inst_ops.len();
                match self.typed_literal(ws, we, t) {
                    // A case literal that does not read is no operand to spirv-as: the
                    // word starts the next instruction. A misuse (a minus for an unsigned
                    // selector, a width it does not support) still ends assembly.
                    Err(e)
                        if optional
                            && e.message != number::NEGATIVE_UNSIGNED
                            && !e.message.starts_with("Unsupported") =>
                    {
                        self.inst_ops.truncate(before);
                        self.pos = ws;
                        break;
                    }
                    r => r?,
                }
                continue;
            }
            let w = &self.text[ws..we];
            let quoted = w.len() >= 2 && w[0] == b'"' && w[w.len() - 1] == b'"';
            if optional && kind.class == KindClass::String && !quoted && !reads_as_number(w) {
                // spirv-as reads an optional string that is neither a quoted string nor a
                // number as no operand: the word starts the next instruction.
                self.pos = ws;
                break;
            }
            if optional && kind.class == KindClass::Integer && small_number(w).is_none() {
                // An optional number that does not read is no operand to spirv-as (the word
                // starts the next instruction), unless it is a negative one.
                let t = String::from_utf8_lossy(w);
                if number::parse_u32(&t).is_err_and(|m| m != number::NEGATIVE_UNSIGNED) {
                    self.pos = ws;
                    break;
                }
            }
            self.operand(kind, ws, we, stack, opname)?;
        }
        Ok(())
    }

    /// The result id at `rs..re`, read where the grammar places it. spirv-as reads it
    /// there too, so it reports a malformed one where its parse stands: after the word
    /// before that place.
    fn result_id(&mut self, rs: usize, re: usize) -> Result<u32, AsmError> {
        self.id(rs, re)
            .map_err(|e| self.error_at(self.pos, self.pos, e.message, e.kind))
    }

    /// Alternate mode: an id, a string, or a number as one 32-bit word.
    pub(super) fn raw_operand(&mut self) -> Result<(), AsmError> {
        let ws = self.pos;
        let we = self.word_end(ws);
        self.pos = we.max(ws + 1);
        let w = &self.text[ws..we];
        match w.first() {
            Some(b'%') => {
                let id = self.id(ws, we)?;
                self.inst_ops.push(id);
            }
            Some(b'"') => self.string(ws, we)?,
            Some(b'!') => {
                let v = self.immediate(ws, we)?;
                self.inst_ops.push(v);
            }
            _ => {
                let t = std::str::from_utf8(w).unwrap_or("");
                let v = number::parse_u32(t)
                    .or_else(|_| number::parse_int(t, 32, true).map(|v| v as u32))
                    .or_else(|_| number::parse_float(t, 32, FloatFormat::F32).map(|v| v as u32))
                    .map_err(|_| {
                        self.error_at(
                            ws,
                            we,
                            format!("Invalid word following !<integer>: {t}"),
                            AsmErrorKind::InvalidText,
                        )
                    })?;
                self.inst_ops.push(v);
            }
        }
        Ok(())
    }

    pub(super) fn string(&mut self, ws: usize, we: usize) -> Result<(), AsmError> {
        let w = &self.text[ws..we];
        if w.len() < 2
            || w[0] != b'"'
            || w[w.len() - 1] != b'"'
            || (w.len() >= 3 && w[w.len() - 2] == b'\\' && !even_backslashes(&w[1..w.len() - 1]))
        {
            let shown = String::from_utf8_lossy(w).into_owned();
            let msg = if reads_as_number(w) {
                format!("Expected literal string, found literal number '{shown}'.")
            } else {
                format!("Invalid literal string '{shown}'.")
            };
            return Err(self.error_at(ws, we, msg, AsmErrorKind::InvalidText));
        }
        let mut bytes = Vec::with_capacity(w.len());
        let mut esc = false;
        for &b in &w[1..w.len() - 1] {
            if esc {
                bytes.push(b);
                esc = false;
            } else if b == b'\\' {
                esc = true;
            } else {
                bytes.push(b);
            }
        }
        // One word-count field holds the whole instruction: strings longer than that are rejected.
        if bytes.len() >= 0xffff * 4 {
            return Err(self.error_at(
                ws,
                we,
                "Literal string is too long",
                AsmErrorKind::InvalidText,
            ));
        }
        spirv_core::codec::encode_string(&bytes, &mut self.inst_ops);
        Ok(())
    }

    pub(super) fn typed_literal(
        &mut self,
        ws: usize,
        we: usize,
        t: NumberType,
    ) -> Result<(), AsmError> {
        let text = std::str::from_utf8(&self.text[ws..we]).unwrap_or("");
        let unsupported = |m: String| self.error_at(ws, we, m, AsmErrorKind::Unsupported);
        // Types spirv-as has no literals for are decided by the type, before parsing.
        let bits = match t {
            NumberType::Int { width, .. } if width > 64 => {
                return Err(unsupported(format!(
                    "Unsupported {width}-bit integer literals"
                )));
            }
            NumberType::Int { width, signed } => number::parse_int(text, width, signed),
            NumberType::Float { width, encoding } => {
                // An encoding this grammar does not know reads as the plain IEEE format.
                let fmt = FloatFormat::of(width, encoding).or_else(|| FloatFormat::of(width, None));
                match fmt {
                    Some(f) => number::parse_float(text, width, f),
                    None => {
                        return Err(unsupported(format!(
                            "Unsupported {width}-bit float literals"
                        )));
                    }
                }
            }
            _ => {
                return Err(unsupported(format!(
                    "Unsupported {}-bit literals",
                    t.width()
                )));
            }
        }
        .map_err(|m| self.error_at(ws, we, m, AsmErrorKind::InvalidText))?;
        self.inst_ops.push(bits as u32);
        if t.width() > 32 {
            self.inst_ops.push((bits >> 32) as u32);
        }
        Ok(())
    }

    pub(super) fn operand(
        &mut self,
        kind: &'static OperandKind,
        ws: usize,
        we: usize,
        stack: &mut Vec<Expect>,
        opname: &str,
    ) -> Result<(), AsmError> {
        let word = &self.text[ws..we];
        let text = || String::from_utf8_lossy(word).into_owned();
        match kind.class {
            KindClass::ResultType | KindClass::Id | KindClass::Result => {
                if word[0] != b'%' {
                    return Err(self.error_at(
                        ws,
                        we,
                        "Expected id to start with %.",
                        AsmErrorKind::InvalidText,
                    ));
                }
                let id = self.id(ws, we)?;
                self.inst_ops.push(id);
                // spirv-as checks an extended instruction's set where it reads it, and
                // names the result id (its third word) in the message.
                if self.inst_ops.len() == 3
                    && matches!(opname, "OpExtInst" | "OpExtInstWithForwardRefsKHR")
                    && self.ids.ext_set(spirv_core::Id(id)).is_none()
                {
                    return Err(self.error_at(
                        ws,
                        we,
                        format!(
                            "Invalid extended instruction import Id {}",
                            self.inst_ops[1]
                        ),
                        AsmErrorKind::InvalidText,
                    ));
                }
            }
            KindClass::Integer => {
                // Small decimal literals take the fast path; everything else goes through
                // spirv-as's full number rules.
                let v = match small_number(word) {
                    Some(v) => v,
                    None => number::parse_u32(&text())
                        .map_err(|m| self.error_at(ws, we, m, AsmErrorKind::InvalidText))?,
                };
                self.inst_ops.push(v);
            }
            KindClass::Float => self.typed_literal(
                ws,
                we,
                NumberType::Float {
                    width: 32,
                    encoding: None,
                },
            )?,
            KindClass::String => self.string(ws, we)?,
            KindClass::ContextNumber => {
                let ty = self.inst_ops.first().copied().unwrap_or(0);
                match self.ids.number_type(spirv_core::Id(ty)) {
                    Some(t) => self.typed_literal(ws, we, t)?,
                    None => {
                        return Err(self.error_at(
                            ws,
                            we,
                            format!(
                                "Type for {} must be a scalar floating point or integer type",
                                opname.trim_start_matches("Op")
                            ),
                            AsmErrorKind::InvalidText,
                        ));
                    }
                }
            }
            KindClass::ExtInstNumber => self.ext_inst_number(ws, we, stack)?,
            KindClass::SpecConstantOpcode => {
                let mut name = b"Op".to_vec();
                name.extend_from_slice(word);
                let found = spv::GRAMMAR.instruction_by_name_bytes(&name);
                let Some(info) = found.filter(|i| spirv_core::spec_constant_op::allows(i.opcode))
                else {
                    let mut msg = format!("Invalid OpSpecConstantOp opcode '{}'.", text());
                    // A misspelling gets the nearest name OpSpecConstantOp accepts; an
                    // opcode it may not embed gets none.
                    let allowed = spirv_core::spec_constant_op::OPCODES
                        .iter()
                        .filter_map(|o| o.name());
                    let guess = format!("Op{}", text());
                    if let Some(n) = found.is_none().then(|| nearest(&guess, allowed)).flatten() {
                        msg.push_str(&format!(" Did you mean '{}'?", n.trim_start_matches("Op")));
                    }
                    return Err(self.error_at(ws, we, msg, AsmErrorKind::InvalidText));
                };
                self.inst_ops.push(info.opcode);
                push_layout(stack, info.embedded_operands());
            }
            KindClass::ValueEnum => {
                let Some(e) = kind.enumerant_by_name_bytes(word) else {
                    let t = text();
                    let what =
                        crate::text::kind_description(self.ext_set_import(opname), kind.name);
                    let mut msg = format!("Invalid {what} '{t}'.");
                    if let Some(n) = nearest(&t, kind.enumerants.iter().map(|e| e.name)) {
                        msg.push_str(&format!(" Did you mean '{n}'?"));
                    }
                    return Err(self.error_at(ws, we, msg, AsmErrorKind::InvalidText));
                };
                self.inst_ops.push(e.value);
                push_layout(stack, e.parameters);
            }
            KindClass::BitEnum => {
                let mut value = 0u32;
                for part in word.split(|&b| b == b'|') {
                    match kind.enumerant_by_name_bytes(part) {
                        Some(e) => value |= e.value,
                        None => {
                            let t = String::from_utf8_lossy(part).into_owned();
                            let whole = String::from_utf8_lossy(word).into_owned();
                            let what = crate::text::kind_description(
                                self.ext_set_import(opname),
                                kind.name,
                            );
                            let mut msg = format!("Invalid {what} operand '{whole}'.");
                            if let Some(n) = nearest(&t, kind.enumerants.iter().map(|e| e.name)) {
                                msg.push_str(&format!(" Did you mean '{n}' for '{t}'?"));
                            }
                            return Err(self.error_at(ws, we, msg, AsmErrorKind::InvalidLookup));
                        }
                    }
                }
                self.inst_ops.push(value);
                // Parameters of set bits, lowest bit first.
                let mut params: Vec<&'static [OperandInfo]> = Vec::new();
                for bit in spirv_core::grammar::set_bits(value) {
                    if let Some(e) = kind.enumerant(bit) {
                        if !e.parameters.is_empty() {
                            params.push(e.parameters);
                        }
                    }
                }
                for p in params.iter().rev() {
                    push_layout(stack, p);
                }
            }
            KindClass::Composite => {}
        }
        Ok(())
    }

    /// OpExtInst hook: the instruction name is looked up in the set the `%set` operand
    /// imports, and the set's layout replaces the rest of the core layout.
    pub(super) fn ext_inst_number(
        &mut self,
        ws: usize,
        we: usize,
        stack: &mut Vec<Expect>,
    ) -> Result<(), AsmError> {
        let word = &self.text[ws..we];
        let set_id = self.inst_ops.last().copied().unwrap_or(0);
        let Some(set) = self.ids.ext_set(spirv_core::Id(set_id)) else {
            // Reached when the set came in alternate (`!`) form; spirv-as names the
            // result id here too.
            let result = self.inst_ops.get(1).copied().unwrap_or(0);
            return Err(self.error_at(
                ws,
                we,
                format!("Invalid extended instruction import Id {result}"),
                AsmErrorKind::InvalidText,
            ));
        };
        stack.clear();
        if let Some(g) = set.grammar {
            if let Some(info) = g.instruction_by_name_bytes(word) {
                self.inst_ops.push(info.opcode);
                push_layout(stack, info.operands);
                return Ok(());
            }
        }
        let t = String::from_utf8_lossy(word).into_owned();
        // A non-semantic set's instruction the grammar does not name is given by its
        // number: decimal digits that fit 32 bits, as spirv-as reads a literal here.
        let number = (set.non_semantic && word.iter().all(u8::is_ascii_digit))
            .then(|| t.parse::<u32>().ok())
            .flatten();
        if let Some(n) = number {
            self.inst_ops.push(n);
            stack.push(Expect::Many {
                kind: &spv::kinds::IdRef,
            });
            return Ok(());
        }
        let mut msg = if set.non_semantic {
            format!(
                "Couldn't translate unknown extended instruction name '{t}' to unsigned integer."
            )
        } else {
            format!("Invalid extended instruction name '{t}'.")
        };
        if let Some(n) = set
            .grammar
            .and_then(|g| nearest(&t, g.instructions.iter().map(|i| i.opname)))
        {
            msg.push_str(&format!(" Did you mean '{n}'?"));
        } else if let Some(g) = self.set_known_with_all_names(set_id, word) {
            msg.push_str(&format!(
                " The names of {} are known only with all_ext_inst_names (--all-ext-inst-names): SPIRV-Tools 2025.5 does not know the set.",
                g.name
            ));
        }
        Err(self.error_at(ws, we, msg, AsmErrorKind::InvalidText))
    }

    /// The import name of the set the `OpExtInst` being parsed names (its third
    /// operand), for messages; `None` for other instructions.
    fn ext_set_import(&self, opname: &str) -> Option<&'static str> {
        if !matches!(opname, "OpExtInst" | "OpExtInstWithForwardRefsKHR") {
            return None;
        }
        let set = *self.inst_ops.get(2)?;
        self.ids.ext_set(spirv_core::Id(set))?.grammar?.import_name
    }

    /// The set `set_id` imports, if it has an instruction named `word` and is known by
    /// name only with `all_ext_inst_names`.
    fn set_known_with_all_names(
        &self,
        set_id: u32,
        word: &[u8],
    ) -> Option<&'static spirv_core::grammar::Grammar> {
        let spirv_core::walk::IdInfo::ExtSet(i) = self.ids.get(spirv_core::Id(set_id)) else {
            return None;
        };
        let name = self.imports.get(i as usize)?;
        self.base
            .lookup(name)
            .filter(|g| crate::text::hidden_by_default(g))
            .filter(|g| g.instruction_by_name_bytes(word).is_some())
    }
}

/// Pushes a layout so that its first operand is popped first.
pub(super) fn push_layout(stack: &mut Vec<Expect>, ops: &'static [OperandInfo]) {
    for op in ops.iter().rev() {
        stack.push(match op.quantifier {
            Quantifier::One => Expect::One {
                kind: op.kind,
                optional: false,
            },
            Quantifier::Optional => Expect::One {
                kind: op.kind,
                optional: true,
            },
            Quantifier::Variadic => Expect::Many { kind: op.kind },
        });
    }
}

/// Whether spirv-as reads an unquoted word where a string is expected as a number
/// (`spvTextToLiteral`): digits, at most one period, and a minus only first and not alone.
fn reads_as_number(w: &[u8]) -> bool {
    let body = w.strip_prefix(b"-").unwrap_or(w);
    !body.is_empty()
        && body.iter().all(|&b| b.is_ascii_digit() || b == b'.')
        && body.iter().filter(|&&b| b == b'.').count() <= 1
}
