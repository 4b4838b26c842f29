//! The static tables: `GRAMMAR`, one `OperandKind` per kind, operand layouts, and the
//! perfect-hash name indexes the assembler looks names up in.

use super::*;

/// A name index (its layout is [`crate::name_table`]). `__NI` is the table modules'
/// local name for the runtime's `grammar::NameIndex`.
pub(super) fn name_index(entries: &[(String, usize)]) -> TokenStream {
    let slots = crate::name_table::slots(entries.iter().map(|(name, _)| name.as_str()));
    let slots = slots.into_iter().map(Literal::u16_unsuffixed);
    let names = entries.iter().map(|(name, target)| {
        let target = Literal::usize_unsuffixed(*target);
        quote!((#name, #target))
    });
    quote!(__NI { slots: &[#(#slots),*], names: &[#(#names),*] })
}

impl Emitter<'_> {
    /// `mod kinds`: one `OperandKind` static per kind this grammar defines.
    pub(super) fn kind_tables(&self) -> TokenStream {
        let kr = &self.kr;
        let prelude = self.table_prelude();
        let statics = self.g.kinds.iter().map(|k| {
            let table = ident(&naming::kind(&k.name));
            let doc = format!("The grammar table of `{}`.", k.name);
            let name = &k.name;
            let category = ident(k.category.as_str());
            let class = ident(class_of(&k.name, k.category));
            let kind_doc = k.doc.as_slice();
            let enumerants = (!k.enumerants.is_empty()).then(|| self.enumerant_table(k));
            let bases: Vec<Tokens> = k.bases.iter().map(|b| self.kind_table(b)).collect();
            let bases = (!bases.is_empty()).then_some(bases);
            let bases = bases.as_slice();
            quote! {
                #[doc = #doc]
                pub static #table: __OK = __OK { name: #name, category: #kr::grammar::Category::#category, class: #kr::grammar::KindClass::#class, #(doc: Some(#kind_doc),)* #enumerants #(bases: &[#(#bases),*],)* ..__OK::EMPTY };
            }
        });
        quote! {
            /// Grammar tables of the operand kinds this grammar defines, one static per kind.
            #[allow(non_upper_case_globals)]
            pub mod kinds {
                #prelude
                #(#statics)*
            }
        }
    }

    /// `enumerants: &[__E { … }, …], index: …,`: a kind's enumerants, sorted by value,
    /// and the index of their names and aliases.
    fn enumerant_table(&self, k: &Kind) -> TokenStream {
        let mut sorted: Vec<&Enumerant> = k.enumerants.iter().collect();
        sorted.sort_by_key(|e| e.value);
        let mut index = Vec::new();
        for (i, e) in sorted.iter().enumerate() {
            index.push((e.name.clone(), i));
            index.extend(e.meta.aliases.iter().map(|a| (a.clone(), i)));
        }
        let index = name_index(&index);
        let names = sorted.iter().map(|e| &e.name);
        let values = sorted.iter().map(|e| hex(e.value));
        let parameters: Vec<Option<Tokens>> = sorted
            .iter()
            .map(|e| (!e.parameters.is_empty()).then(|| self.operand_table(&e.parameters)))
            .collect();
        let parameters = parameters.iter().map(Option::as_slice);
        let metas = sorted.iter().map(|e| self.meta_fields(&e.meta));
        quote! {
            enumerants: &[#(__E { name: #names, value: #values, #(parameters: #parameters,)* #metas ..__E::EMPTY },)*], index: #index,
        }
    }

    /// `&[__OI { kind, quantifier, name }, …]`: an operand layout. Layouts recur (most
    /// instructions share theirs with others), so each is written once.
    pub(super) fn operand_table(&self, ops: &[Operand]) -> Tokens {
        let key: LayoutKey = ops
            .iter()
            .map(|op| (op.kind.clone(), op.quantifier, op.name.clone()))
            .collect();
        if let Some(t) = self.operand_tables.borrow().get(&key) {
            return t.clone();
        }
        // Struct literals, not the const constructors: cheaper to evaluate.
        let kinds = ops.iter().map(|op| self.kind_table(&op.kind));
        let quantifiers = ops.iter().map(|op| match op.quantifier {
            Quantifier::One => ident("One"),
            Quantifier::Optional => ident("Optional"),
            Quantifier::Variadic => ident("Variadic"),
        });
        let names = ops.iter().map(|op| op.name.as_deref().unwrap_or(""));
        let table = Tokens::from(quote! {
            &[#(__OI { kind: #kinds, quantifier: __Q::#quantifiers, name: #names }),*]
        });
        self.operand_tables.borrow_mut().insert(key, table.clone());
        table
    }

    /// The availability fields of a table entry that differ from `EMPTY`. Many entries
    /// share theirs, so each set is written once.
    pub(super) fn meta_fields(&self, m: &Meta) -> Tokens {
        if let Some(t) = self.meta_fields.borrow().get(m) {
            return t.clone();
        }
        let some = |list: &[String]| (!list.is_empty()).then(|| list.to_vec());
        // Capabilities by value (`check` made sure each name is known).
        let capabilities = (!m.capabilities.is_empty()).then(|| {
            m.capabilities
                .iter()
                .map(|c| {
                    Literal::u32_unsuffixed(self.capabilities.get(c).copied().unwrap_or(u32::MAX))
                })
                .collect::<Vec<_>>()
        });
        let extensions = some(&m.extensions);
        let aliases = some(&m.aliases);
        let (capabilities, extensions, aliases) = (
            capabilities.as_slice(),
            extensions.as_slice(),
            aliases.as_slice(),
        );
        let first = m.version.map(|v| version(Some(v)));
        let last = m.last_version.map(|v| version(Some(v)));
        let (first, last) = (first.as_slice(), last.as_slice());
        let provisional = m.provisional.then_some(true);
        let provisional = provisional.as_slice();
        let fields = Tokens::from(quote! {
            #(capabilities: &[#(#capabilities),*],)*
            #(extensions: &[#(#extensions),*],)*
            #(version: #first,)*
            #(last_version: #last,)*
            #(provisional: #provisional,)*
            #(aliases: &[#(#aliases),*],)*
        });
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
    fn shape(&self, inst: &Instruction) -> Option<TokenStream> {
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
        let fields = fields
            .iter()
            .filter(|(_, v, empty)| v != empty)
            .map(|(name, v, _)| {
                let name = quote::format_ident!("{}", name);
                let v = Literal::u64_unsuffixed(*v);
                quote! { #name: #v, }
            });
        let kr = &self.kr;
        Some(quote! {
            #kr::grammar::Shape { #(#fields)* ..#kr::grammar::Shape::EMPTY }
        })
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
        let opnames = sorted.iter().map(|i| &i.opname);
        let opcodes = sorted.iter().map(|i| Literal::u32_unsuffixed(i.opcode));
        let classes = sorted.iter().map(|i| i.class.as_slice());
        let layouts: Vec<Option<(Tokens, String)>> = sorted
            .iter()
            .map(|i| {
                (!i.operands.is_empty()).then(|| {
                    (
                        self.operand_table(&i.operands),
                        self.field_names(i).join(" "),
                    )
                })
            })
            .collect();
        let operands = layouts.iter().map(|l| l.as_ref().map(|(t, _)| t.clone()));
        let operands: Vec<Option<Tokens>> = operands.collect();
        let fields: Vec<Option<&String>> =
            layouts.iter().map(|l| l.as_ref().map(|(_, f)| f)).collect();
        let (operands, fields) = (
            operands.iter().map(Option::as_slice),
            fields.iter().map(Option::as_slice),
        );
        let metas = sorted.iter().map(|i| self.meta_fields(&i.meta));
        let shapes: Vec<Option<TokenStream>> = sorted.iter().map(|i| self.shape(i)).collect();
        let shapes = shapes.iter().map(Option::as_slice);
        let switches: Vec<Option<bool>> = sorted
            .iter()
            .map(|i| self.is_switch(i).then_some(true))
            .collect();
        let switches = switches.iter().map(Option::as_slice);
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
        let dense_len = Literal::usize_unsuffixed(dense.len());
        let dense = dense.into_iter().map(Literal::u16_unsuffixed);
        let count = Literal::usize_unsuffixed(sorted.len());
        let prelude = self.table_prelude();
        let index = name_index(&names);
        // Doc lines start with a space, as `///` comments do.
        let tables_doc = format!(" The instruction table behind [`GRAMMAR`], sorted by {order}.");
        let instructions_doc = format!(" Every instruction, sorted by {order}.");
        let grammar_doc = format!(
            " The grammar tables: instructions sorted by {order}, operand kinds, and name lookups."
        );
        let opt = |v: Option<u32>| match v {
            Some(v) => {
                let v = Literal::u32_unsuffixed(v);
                quote!(Some(#v))
            }
            None => quote!(None),
        };
        let opt_s = |v: &Option<String>| match v {
            Some(v) => quote!(Some(#v)),
            None => quote!(None),
        };
        let name = &opts.name;
        let is_core = g.is_core;
        let import_name = opt_s(&opts.import);
        let import_prefix = opt_s(&opts.import_prefix);
        let import_stem = opt_s(&opts.import_stem);
        let magic_number = opt(g.magic_number);
        let major_version = opt(g.major_version);
        let minor_version = opt(g.minor_version);
        let version = opt(g.version);
        let revision = opt(g.revision);
        let kinds = g.kinds.iter().map(|k| ident(&naming::kind(&k.name)));
        quote! {
            #[doc = #tables_doc]
            #[allow(non_upper_case_globals)]
            pub mod tables {
                #prelude
                #[doc = #instructions_doc]
                pub static INSTRUCTIONS: [__II; #count] = [#(__II { opname: #opnames, opcode: #opcodes, #(class: #classes,)* #(operands: #operands, fields: #fields,)* #metas #(shape: Some(#shapes),)* #(switch_literals: #switches,)* ..__II::EMPTY },)*];
                /// Opcode → position in [`INSTRUCTIONS`] (`u16::MAX` = none).
                pub static OPCODE_INDEX: [u16; #dense_len] = [#(#dense),*];
                /// Names and aliases → position in [`INSTRUCTIONS`] (its type is the generated code's runtime).
                #[doc(hidden)]
                pub const NAMES: __NI = #index;
            }
            #[doc = #grammar_doc]
            pub static GRAMMAR: #kr::grammar::Grammar = #kr::grammar::Grammar {
                name: #name,
                is_core: #is_core,
                import_name: #import_name,
                import_prefix: #import_prefix,
                import_stem: #import_stem,
                magic_number: #magic_number,
                major_version: #major_version,
                minor_version: #minor_version,
                version: #version,
                revision: #revision,
                instructions: &tables::INSTRUCTIONS,
                opcode_index: &tables::OPCODE_INDEX,
                operand_kinds: &[#(&kinds::#kinds),*],
                names: tables::NAMES,
            };
        }
    }
}
