//! The static tables: `GRAMMAR`, one `OperandKind` per kind, operand layouts, and the
//! perfect-hash name indexes the assembler looks names up in.

use super::*;

pub(super) fn fnv1a(s: &str) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for b in s.bytes() {
        h ^= u32::from(b);
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

/// A name index: an open-addressing table built here and probed by the runtime with
/// the same FNV-1a hash (`grammar::NameIndex`).
pub(super) fn name_index(entries: &[(String, usize)]) -> String {
    let size = (entries.len() * 2).next_power_of_two().max(2);
    let mut slots = vec![0u16; size];
    for (i, (name, _)) in entries.iter().enumerate() {
        let mut at = fnv1a(name) as usize & (size - 1);
        while slots[at] != 0 {
            at = (at + 1) & (size - 1);
        }
        slots[at] = u16::try_from(i + 1).unwrap_or(u16::MAX);
    }
    // `__NI` is the table modules' local name for `grammar::NameIndex`.
    let mut s = String::from("__NI { slots: &[");
    for (i, v) in slots.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        w!(s, "{v}");
    }
    s.push_str("], names: &[");
    for (i, (name, target)) in entries.iter().enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        w!(s, "({}, {target})", escape(name));
    }
    s.push_str("] }");
    s
}

impl<'a> Emitter<'a> {
    pub(super) fn emit_kind_tables(&mut self) {
        let kr = self.krate.to_owned();
        let g = self.g;
        let mut s = String::new();
        w!(
            s,
            "/// Grammar tables of the operand kinds this grammar defines, one static per kind.\n#[allow(non_upper_case_globals)]\npub mod kinds {{\n{}",
            self.table_prelude()
        );
        for k in &g.kinds {
            let ident = naming::kind(&k.name);
            let class = class_of(&k.name, k.category);
            w!(
                s,
                "    #[doc = {}]\n    pub static {ident}: __OK = __OK {{ name: {}, category: {kr}::grammar::Category::{}, class: {kr}::grammar::KindClass::{class},",
                escape(&format!("The grammar table of `{}`.", k.name)),
                escape(&k.name),
                k.category.as_str()
            );
            if let Some(d) = &k.doc {
                w!(s, " doc: Some({}),", escape(d));
            }
            if !k.enumerants.is_empty() {
                let mut sorted: Vec<&Enumerant> = k.enumerants.iter().collect();
                sorted.sort_by_key(|e| e.value);
                s.push_str(" enumerants: &[\n");
                let mut names = Vec::new();
                for (i, e) in sorted.iter().enumerate() {
                    w!(
                        s,
                        "        __E {{ name: {}, value: {:#x},",
                        escape(&e.name),
                        e.value
                    );
                    if !e.parameters.is_empty() {
                        w!(s, " parameters: {},", self.operand_table(&e.parameters));
                    }
                    s.push_str(&self.meta_fields(&e.meta));
                    w!(s, " ..__E::EMPTY }},\n");
                    names.push((e.name.clone(), i));
                    for a in &e.meta.aliases {
                        names.push((a.clone(), i));
                    }
                }
                w!(s, "    ], index: {},", name_index(&names));
            }
            if !k.bases.is_empty() {
                let bases: Vec<String> = k.bases.iter().map(|b| self.kind_table(b)).collect();
                w!(s, " bases: &[{}],", bases.join(", "));
            }
            w!(s, " ..__OK::EMPTY }};\n");
        }
        s.push_str("}\n");
        self.out.push_str(&s);
    }

    pub(super) fn operand_table(&self, ops: &[Operand]) -> String {
        let mut s = String::from("&[");
        for (i, op) in ops.iter().enumerate() {
            if i > 0 {
                s.push_str(", ");
            }
            // Struct literals, not the const constructors: cheaper to evaluate.
            let q = match op.quantifier {
                Quantifier::One => "One",
                Quantifier::Optional => "Optional",
                Quantifier::Variadic => "Variadic",
            };
            w!(
                s,
                "__OI {{ kind: {}, quantifier: __Q::{q}, name: {} }}",
                self.kind_table(&op.kind),
                escape(op.name.as_deref().unwrap_or(""))
            );
        }
        s.push(']');
        s
    }

    pub(super) fn meta_fields(&self, m: &Meta) -> String {
        let mut s = String::new();
        if !m.capabilities.is_empty() {
            w!(s, " capabilities: {},", str_list(&m.capabilities));
        }
        if !m.extensions.is_empty() {
            w!(s, " extensions: {},", str_list(&m.extensions));
        }
        if m.version.is_some() {
            w!(s, " version: {},", version(m.version));
        }
        if m.last_version.is_some() {
            w!(s, " last_version: {},", version(m.last_version));
        }
        if m.provisional {
            s.push_str(" provisional: true,");
        }
        if !m.aliases.is_empty() {
            w!(s, " aliases: {},", str_list(&m.aliases));
        }
        s
    }

    /// Word width of one occurrence of a kind whose operands are all single words with
    /// no parameters and no hooks, or `None`.
    pub(super) fn simple_width(&self, kind: &str) -> Option<u8> {
        let k = self.kind(kind);
        match k.category {
            Category::Id => Some(1),
            Category::Literal => {
                matches!(class_of(kind, k.category), "Integer" | "Float").then_some(1)
            }
            Category::ValueEnum | Category::BitEnum => (!k.has_parameters).then_some(1),
            Category::Composite => {
                let bases = k.bases.clone();
                let mut n = 0u8;
                for b in &bases {
                    n = n.checked_add(self.simple_width(b)?)?;
                }
                Some(n)
            }
        }
    }

    /// The layout shape for the runtime's fast path (`grammar::Shape`), for layouts of
    /// simple operands shaped `One* Optional*` or `One* Variadic`, and for the same
    /// followed by optional operands of any kind, which the shape covers when they are
    /// absent; `None` otherwise.
    pub(super) fn shape(&self, inst: &Instruction) -> Option<String> {
        if self.is_switch(inst) {
            return None;
        }
        let (mut fixed, mut optional, mut repeat) = (0u32, 0u32, 0u32);
        let (mut result_type, mut result) = (u8::MAX, u8::MAX);
        // Set at the first optional operand that is not a single plain word: from there
        // on the operands are only counted as absent.
        let mut absent_tail = false;
        for (i, op) in inst.operands.iter().enumerate() {
            let width = self.simple_width(&op.kind);
            let optional_kind =
                matches!(op.quantifier, Quantifier::Optional | Quantifier::Variadic);
            if absent_tail || (width.is_none() && optional_kind && repeat == 0) {
                if !optional_kind {
                    return None;
                }
                absent_tail = true;
                continue;
            }
            let w = u32::from(width?);
            match op.quantifier {
                Quantifier::One if optional == 0 && repeat == 0 => {
                    match class_of(&op.kind, self.kind(&op.kind).category) {
                        "ResultType" if i == 0 => result_type = fixed as u8,
                        "Result" => result = u8::try_from(fixed).ok()?,
                        _ => {}
                    }
                    fixed += w;
                }
                Quantifier::Optional if repeat == 0 && w == 1 => optional += 1,
                Quantifier::Variadic if repeat == 0 && optional == 0 => repeat = w,
                _ => return None,
            }
        }
        if fixed > 250 {
            return None;
        }
        Some(format!(
            "{}::grammar::Shape {{ fixed: {fixed}, optional: {optional}, repeat: {repeat}, result_type: {result_type}, result: {result} }}",
            self.krate
        ))
    }

    pub(super) fn emit_grammar(&mut self, opts: &Options) {
        let kr = self.krate.to_owned();
        let g = self.g;
        let mut sorted: Vec<&Instruction> = g.instructions.iter().collect();
        sorted.sort_by_key(|i| i.opcode);
        let mut s = String::new();
        let opt = |v: Option<u32>| match v {
            Some(v) => format!("Some({v})"),
            None => "None".into(),
        };
        let opt_s = |v: &Option<String>| match v {
            Some(v) => format!("Some({})", escape(v)),
            None => "None".into(),
        };
        // The instruction table, opcode index and name index live in `tables`, where the
        // table types have short local names.
        w!(
            s,
            "/// The instruction table behind [`GRAMMAR`], sorted by {}.\n#[allow(non_upper_case_globals)]\npub mod tables {{\n{}    /// Every instruction, sorted by {}.\n    pub static INSTRUCTIONS: [__II; {}] = [\n",
            if g.is_core { "opcode" } else { "number" },
            self.table_prelude(),
            if g.is_core { "opcode" } else { "number" },
            sorted.len()
        );
        let mut names = Vec::new();
        for (i, inst) in sorted.iter().enumerate() {
            w!(
                s,
                "        __II {{ opname: {}, opcode: {},",
                escape(&inst.opname),
                inst.opcode
            );
            if let Some(c) = &inst.class {
                w!(s, " class: {},", escape(c));
            }
            if !inst.operands.is_empty() {
                w!(s, " operands: {},", self.operand_table(&inst.operands));
                let fields: Vec<String> = self
                    .fields_of(inst)
                    .into_iter()
                    .map(|(n, _, _)| n)
                    .collect();
                w!(s, " fields: {},", escape(&fields.join(" ")));
            }
            s.push_str(&self.meta_fields(&inst.meta));
            if let Some(shape) = self.shape(inst) {
                w!(s, " shape: Some({shape}),");
            }
            if self.is_switch(inst) {
                s.push_str(" switch_literals: true,");
            }
            s.push_str(" ..__II::EMPTY },\n");
            names.push((inst.opname.clone(), i));
            for a in &inst.meta.aliases {
                names.push((a.clone(), i));
            }
        }
        s.push_str("    ];\n");
        // Dense opcode → position table, so that lookups by opcode are one load.
        let mut dense_len = 0;
        let mut dense_text = String::new();
        if let Some(max) = sorted.last().map(|i| i.opcode).filter(|&m| m < 0x1_0000) {
            let mut dense = vec![u16::MAX; max as usize + 1];
            for (i, inst) in sorted.iter().enumerate() {
                dense[inst.opcode as usize] = i as u16;
            }
            dense_len = dense.len();
            for (i, v) in dense.iter().enumerate() {
                if i > 0 {
                    dense_text.push(',');
                }
                w!(dense_text, "{v}");
            }
        }
        w!(
            s,
            "    /// Opcode → position in [`INSTRUCTIONS`] (`u16::MAX` = none).\n    pub static OPCODE_INDEX: [u16; {dense_len}] = [{dense_text}];\n    /// Names and aliases → position in [`INSTRUCTIONS`].\n    pub const NAMES: __NI = {};\n}}\n",
            name_index(&names)
        );
        w!(
            s,
            "/// The grammar tables: instructions sorted by {}, operand kinds, and name lookups.\npub static GRAMMAR: {kr}::grammar::Grammar = {kr}::grammar::Grammar {{\n    name: {},\n    is_core: {},\n    import_name: {},\n    import_prefix: {},\n    import_stem: {},\n    magic_number: {},\n    major_version: {},\n    minor_version: {},\n    version: {},\n    revision: {},\n    instructions: &tables::INSTRUCTIONS,\n    opcode_index: &tables::OPCODE_INDEX,\n    operand_kinds: &[",
            if g.is_core { "opcode" } else { "number" },
            escape(&opts.name),
            g.is_core,
            opt_s(&opts.import),
            opt_s(&opts.import_prefix),
            opt_s(&opts.import_stem),
            opt(g.magic_number),
            opt(g.major_version),
            opt(g.minor_version),
            opt(g.version),
            opt(g.revision),
        );
        for (i, k) in g.kinds.iter().enumerate() {
            if i > 0 {
                s.push_str(", ");
            }
            w!(s, "&kinds::{}", naming::kind(&k.name));
        }
        s.push_str("],\n    names: tables::NAMES,\n};\n");
        self.out.push_str(&s);
    }
}
