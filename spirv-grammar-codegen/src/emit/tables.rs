//! The static tables: `GRAMMAR`, one `OperandKind` per kind, operand layouts, and the
//! perfect-hash name indexes the assembler looks names up in.

use super::text::{Doc, Str, w};
use super::*;

/// A name index (its layout is [`crate::name_table`]), written to `out`. `__NI` is the
/// table modules' local name for the runtime's `grammar::NameIndex`.
pub(super) fn name_index(out: &mut String, entries: &[(String, usize)]) {
    let slots = crate::name_table::slots(entries.iter().map(|(name, _)| name.as_str()));
    out.push_str("__NI { slots: &[");
    for (i, slot) in slots.iter().enumerate() {
        let comma = if i == 0 { "" } else { ", " };
        w!(out, "{comma}{slot}");
    }
    out.push_str("], names: &[");
    for (i, (name, target)) in entries.iter().enumerate() {
        let comma = if i == 0 { "" } else { ", " };
        w!(out, "{comma}({}, {target})", Str(name));
    }
    out.push_str("] }");
}

impl Emitter<'_> {
    /// `mod kinds`: one `OperandKind` static per kind this grammar defines.
    pub(super) fn kind_tables(&self) -> TokenStream {
        let kr = &self.kr;
        let mut out = String::from(
            "/// Grammar tables of the operand kinds this grammar defines, one static per kind.
            #[allow(non_upper_case_globals)]
            pub mod kinds {",
        );
        out.push_str(&self.table_prelude());
        for k in &self.g.kinds {
            let doc = format!("The grammar table of `{}`.", k.name);
            w!(
                out,
                "{} pub static {}: __OK = __OK {{ name: {}, category: {kr}::grammar::Category::{}, class: {kr}::grammar::KindClass::{}, ",
                Doc(&doc),
                naming::kind(&k.name),
                Str(&k.name),
                k.category.as_str(),
                class_of(&k.name, k.category),
            );
            if let Some(d) = &k.doc {
                w!(out, "doc: Some({}), ", Str(d));
            }
            if !k.enumerants.is_empty() {
                self.enumerant_table(&mut out, k);
            }
            if !k.bases.is_empty() {
                out.push_str("bases: &[");
                for (i, b) in k.bases.iter().enumerate() {
                    let comma = if i == 0 { "" } else { ", " };
                    w!(out, "{comma}{}", self.kind_table(b));
                }
                out.push_str("], ");
            }
            out.push_str("..__OK::EMPTY };");
        }
        out.push('}');
        self.lex(&out)
    }

    /// `enumerants: &[__E { … }, …], index: …,`: a kind's enumerants, sorted by value,
    /// and the index of their names and aliases.
    fn enumerant_table(&self, out: &mut String, k: &Kind) {
        let mut sorted: Vec<&Enumerant> = k.enumerants.iter().collect();
        sorted.sort_by_key(|e| e.value);
        let mut index = Vec::new();
        for (i, e) in sorted.iter().enumerate() {
            index.push((e.name.clone(), i));
            index.extend(e.meta.aliases.iter().map(|a| (a.clone(), i)));
        }
        out.push_str("enumerants: &[");
        for e in &sorted {
            w!(
                out,
                "__E {{ name: {}, value: {:#x}, ",
                Str(&e.name),
                e.value
            );
            if !e.parameters.is_empty() {
                w!(out, "parameters: {}, ", self.operand_table(&e.parameters));
            }
            w!(out, "{}..__E::EMPTY }}, ", self.meta_fields(&e.meta));
        }
        out.push_str("], index: ");
        name_index(out, &index);
        out.push_str(", ");
    }

    /// `&__l::LAYOUT_n`: an operand layout, as a reference to its static in
    /// `mod layouts`. Layouts recur (841 core instructions have 358 distinct ones), so
    /// each is written, and type-checked and evaluated by the compiler, once.
    pub(super) fn operand_table(&self, ops: &[Operand]) -> Rc<str> {
        let key: LayoutKey = ops
            .iter()
            .map(|op| (op.kind.clone(), op.quantifier, op.name.clone()))
            .collect();
        if let Some(t) = self.operand_tables.borrow().get(&key) {
            return t.clone();
        }
        let mut layouts = self.layouts.borrow_mut();
        let name = format!("LAYOUT_{}", layouts.len());
        // Struct literals, not the const constructors: cheaper to evaluate.
        let mut table = format!("pub(super) static {name}: [__OI; {}] = [", ops.len());
        for (i, op) in ops.iter().enumerate() {
            let quantifier = match op.quantifier {
                Quantifier::One => "One",
                Quantifier::Optional => "Optional",
                Quantifier::Variadic => "Variadic",
            };
            let comma = if i == 0 { "" } else { ", " };
            w!(
                table,
                "{comma}__OI {{ kind: {}, quantifier: __Q::{quantifier}, name: {} }}",
                self.kind_table(&op.kind),
                Str(op.name.as_deref().unwrap_or(""))
            );
        }
        table.push_str("];");
        layouts.push(table);
        let reference: Rc<str> = format!("&__l::{name}").into();
        self.operand_tables
            .borrow_mut()
            .insert(key, reference.clone());
        reference
    }

    /// `mod layouts`: the operand layouts that [`Self::operand_table`] named, one static
    /// each. Emitted last, once the kind and instruction tables have named them all.
    pub(super) fn layout_tables(&self) -> TokenStream {
        // Always there (if empty), since every table module's prelude imports it.
        let layouts = self.layouts.borrow();
        let mut out = String::from(
            "/// The operand layouts that the instruction and enumerant tables share.
            #[allow(non_upper_case_globals)]
            mod layouts {",
        );
        out.push_str(&self.table_prelude());
        for l in layouts.iter() {
            out.push_str(l);
        }
        out.push('}');
        self.lex(&out)
    }

    /// The availability fields of a table entry that differ from `EMPTY`, each
    /// followed by a comma. Many entries share theirs, so each set is written once.
    pub(super) fn meta_fields(&self, m: &Meta) -> Rc<str> {
        if let Some(t) = self.meta_fields.borrow().get(m) {
            return t.clone();
        }
        let mut fields = String::new();
        let list = |out: &mut String, name: &str, items: &mut dyn Iterator<Item = String>| {
            w!(out, "{name}: &[");
            for (i, item) in items.enumerate() {
                let comma = if i == 0 { "" } else { ", " };
                w!(out, "{comma}{item}");
            }
            out.push_str("], ");
        };
        // Capabilities by value (`check` made sure each name is known).
        if !m.capabilities.is_empty() {
            let values = m.capabilities.iter().map(|c| {
                self.capabilities
                    .get(c)
                    .copied()
                    .unwrap_or(u32::MAX)
                    .to_string()
            });
            list(&mut fields, "capabilities", &mut { values });
        }
        if !m.extensions.is_empty() {
            let names = m.extensions.iter().map(|e| Str(e).to_string());
            list(&mut fields, "extensions", &mut { names });
        }
        if let Some((a, b)) = m.version {
            w!(fields, "version: Some(({a}, {b})), ");
        }
        if let Some((a, b)) = m.last_version {
            w!(fields, "last_version: Some(({a}, {b})), ");
        }
        if m.provisional {
            fields.push_str("provisional: true, ");
        }
        if !m.aliases.is_empty() {
            let names = m.aliases.iter().map(|a| Str(a).to_string());
            list(&mut fields, "aliases", &mut { names });
        }
        let fields: Rc<str> = fields.into();
        self.meta_fields
            .borrow_mut()
            .insert(m.clone(), fields.clone());
        fields
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
                let mut n = 0u8;
                for b in &k.bases {
                    n = n.checked_add(self.simple_width(b)?)?;
                }
                Some(n)
            }
        }
    }

    /// Per word of one occurrence of a simple kind (see [`Self::simple_width`]): whether
    /// it is an id, and whether it is an enumerant, as two bit masks.
    fn word_masks(&self, kind: &str) -> (u64, u64) {
        let k = self.kind(kind);
        match k.category {
            Category::Id => (1, 0),
            Category::Literal => (0, 0),
            Category::ValueEnum | Category::BitEnum => (0, 1),
            Category::Composite => {
                let (mut ids, mut enums, mut at) = (0u64, 0u64, 0u32);
                for b in &k.bases {
                    let (i, e) = self.word_masks(b);
                    ids |= i.checked_shl(at).unwrap_or(0);
                    enums |= e.checked_shl(at).unwrap_or(0);
                    at += u32::from(self.simple_width(b).unwrap_or(1));
                }
                (ids, enums)
            }
        }
    }

    /// The layout shape for the runtime's fast path (`grammar::Shape`), for layouts of
    /// simple operands shaped `One* Optional*` or `One* Variadic` (at most 64 words
    /// before the variadic part), and for the same followed by optional operands of any
    /// kind, which the shape covers when they are absent; `None` otherwise.
    fn shape(&self, inst: &Instruction) -> Option<String> {
        if self.is_switch(inst) {
            return None;
        }
        let (mut fixed, mut optional, mut repeat) = (0u32, 0u32, 0u32);
        let (mut result_type, mut result) = (u8::MAX, u8::MAX);
        // Which words are ids and which enumerants: before the variadic part, and in
        // one repetition of it.
        let (mut ids, mut enums, mut repeat_ids, mut repeat_enums) = (0u64, 0u64, 0u64, 0u64);
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
            let (i_mask, e_mask) = self.word_masks(&op.kind);
            let at = fixed + optional;
            if at + w > 64 {
                return None;
            }
            match op.quantifier {
                Quantifier::One if optional == 0 && repeat == 0 => {
                    match class_of(&op.kind, self.kind(&op.kind).category) {
                        "ResultType" if i == 0 => result_type = u8::try_from(fixed).ok()?,
                        "Result" => result = u8::try_from(fixed).ok()?,
                        _ => {}
                    }
                    fixed += w;
                }
                Quantifier::Optional if repeat == 0 && w == 1 => optional += 1,
                Quantifier::Variadic if repeat == 0 && optional == 0 && w <= 8 => {
                    repeat = w;
                    repeat_ids = i_mask;
                    repeat_enums = e_mask;
                    continue;
                }
                _ => return None,
            }
            ids |= i_mask << at;
            enums |= e_mask << at;
        }
        // Only the fields that differ from `Shape::EMPTY` are written.
        let fields = [
            ("fixed", u64::from(fixed), 0),
            ("optional", u64::from(optional), 0),
            ("repeat", u64::from(repeat), 0),
            ("result_type", u64::from(result_type), u64::from(u8::MAX)),
            ("result", u64::from(result), u64::from(u8::MAX)),
            ("ids", ids, 0),
            ("enums", enums, 0),
            ("repeat_ids", repeat_ids, 0),
            ("repeat_enums", repeat_enums, 0),
        ];
        let kr = &self.kr;
        let mut shape = format!("{kr}::grammar::Shape {{ ");
        for (name, v, _) in fields.iter().filter(|(_, v, empty)| v != empty) {
            w!(shape, "{name}: {v}, ");
        }
        w!(shape, "..{kr}::grammar::Shape::EMPTY }}");
        Some(shape)
    }

    /// `mod tables` (the instruction table, the opcode index and the name index) and the
    /// `GRAMMAR` static over them.
    pub(super) fn grammar(&self, opts: &Options) -> TokenStream {
        let kr = &self.kr;
        let g = self.g;
        let mut sorted: Vec<&Instruction> = g.instructions.iter().collect();
        sorted.sort_by_key(|i| i.opcode);
        let order = if g.is_core { "opcode" } else { "number" };
        let mut names = Vec::new();
        for (i, inst) in sorted.iter().enumerate() {
            names.push((inst.opname.clone(), i));
            names.extend(inst.meta.aliases.iter().map(|a| (a.clone(), i)));
        }
        // Doc lines start with a space, as `///` comments do.
        let tables_doc = format!(" The instruction table behind [`GRAMMAR`], sorted by {order}.");
        let instructions_doc = format!(" Every instruction, sorted by {order}.");
        let mut out = String::new();
        w!(
            out,
            "{} #[allow(non_upper_case_globals)] pub mod tables {{ {} {} pub static INSTRUCTIONS: [__II; {}] = [",
            Doc(&tables_doc),
            self.table_prelude(),
            Doc(&instructions_doc),
            sorted.len()
        );
        for inst in &sorted {
            w!(
                out,
                "__II {{ opname: {}, opcode: {}, ",
                Str(&inst.opname),
                inst.opcode
            );
            if let Some(c) = &inst.class {
                w!(out, "class: {}, ", Str(c));
            }
            if !inst.operands.is_empty() {
                w!(
                    out,
                    "operands: {}, fields: {}, ",
                    self.operand_table(&inst.operands),
                    Str(&self.field_names(inst).join(" "))
                );
            }
            out.push_str(&self.meta_fields(&inst.meta));
            if let Some(shape) = self.shape(inst) {
                w!(out, "shape: Some({shape}), ");
            }
            if self.is_switch(inst) {
                out.push_str("switch_literals: true, ");
            }
            out.push_str("..__II::EMPTY }, ");
        }
        // Dense opcode → position table, so that lookups by opcode are one load.
        let dense: Vec<u16> = match sorted.last().map(|i| i.opcode).filter(|&m| m < 0x1_0000) {
            Some(max) => {
                let mut dense = vec![u16::MAX; max as usize + 1];
                for (i, inst) in sorted.iter().enumerate() {
                    dense[inst.opcode as usize] = u16::try_from(i).unwrap_or(u16::MAX);
                }
                dense
            }
            None => Vec::new(),
        };
        w!(
            out,
            "];
            /// Opcode → position in [`INSTRUCTIONS`] (`u16::MAX` = none).
            pub static OPCODE_INDEX: [u16; {}] = [",
            dense.len()
        );
        for (i, d) in dense.iter().enumerate() {
            let comma = if i == 0 { "" } else { ", " };
            w!(out, "{comma}{d}");
        }
        out.push_str(
            "];
            /// Names and aliases → position in [`INSTRUCTIONS`] (its type is the generated code's runtime).
            #[doc(hidden)]
            pub const NAMES: __NI = ",
        );
        name_index(&mut out, &names);
        out.push_str("; }");
        let opt = |v: Option<u32>| match v {
            Some(v) => format!("Some({v})"),
            None => "None".to_owned(),
        };
        let opt_s = |v: &Option<String>| match v {
            Some(v) => format!("Some({})", Str(v)),
            None => "None".to_owned(),
        };
        let grammar_doc = format!(
            " The grammar tables: instructions sorted by {order}, operand kinds, and name lookups."
        );
        w!(
            out,
            "{}
            pub static GRAMMAR: {kr}::grammar::Grammar = {kr}::grammar::Grammar {{
                name: {},
                is_core: {},
                import_name: {},
                import_prefix: {},
                import_stem: {},
                magic_number: {},
                major_version: {},
                minor_version: {},
                version: {},
                revision: {},
                instructions: &tables::INSTRUCTIONS,
                opcode_index: &tables::OPCODE_INDEX,
                operand_kinds: &[",
            Doc(&grammar_doc),
            Str(&opts.name),
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
            let comma = if i == 0 { "" } else { ", " };
            w!(out, "{comma}&kinds::{}", naming::kind(&k.name));
        }
        out.push_str(
            "],
                names: tables::NAMES,
            };",
        );
        self.lex(&out)
    }
}
