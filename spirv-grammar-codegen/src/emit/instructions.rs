//! Instructions: the opcode type, instruction classes, one struct per instruction, and
//! the `Instruction` enum that decodes and encodes them.

use super::text::{Doc, Str, w};
use super::*;

/// Most arms in one function of `Instruction::decode` (see `Emitter::decode_match`).
const DECODE_PART: usize = 96;

impl<'a> Emitter<'a> {
    /// `Opcode`: an open newtype with one constant per instruction.
    pub(super) fn opcode(&mut self) -> TokenStream {
        let kr = &self.kr.clone();
        let g = self.g;
        let repr = if g.is_core { "u16" } else { "u32" };
        let what = if g.is_core {
            "opcode"
        } else {
            "extended instruction number"
        };
        let doc = format!(
            "An {what}: an open type that holds any value, with the grammar's instructions as associated constants."
        );
        let mut out = String::new();
        w!(
            out,
            "{} {}
            #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
            #[repr(transparent)]
            pub struct Opcode(pub {repr});
            #[allow(non_upper_case_globals, clippy::upper_case_acronyms)]
            impl Opcode {{",
            Doc(&doc),
            self.doc_cfg
        );
        let mut names = Vec::new();
        for i in &g.instructions {
            let name = naming::instruction(&i.opname);
            names.push((name.clone(), i.opname.clone()));
            w!(out, "{}", Doc(&format!("`{}` = {}.", i.opname, i.opcode)));
            alias_attr(&mut out, &name, &i.opname);
            w!(out, "pub const {name}: Self = Self({});", i.opcode);
            // Other names, so that code written against an older grammar keeps building
            // when a name becomes an alias.
            for a in &i.meta.aliases {
                let alias_name = naming::instruction(a);
                let doc = format!("Alias of [`Self::{name}`] (`{a}`).");
                w!(
                    out,
                    "{} pub const {alias_name}: Self = Self::{name};",
                    Doc(&doc)
                );
                names.push((alias_name, a.clone()));
            }
        }
        let info_doc = format!(" The grammar entry of this {what}, if the grammar has one.");
        w!(
            out,
            "{}
                pub fn info(self) -> ::core::option::Option<&'static {kr}::grammar::InstructionInfo> {{ GRAMMAR.instruction(u32::from(self.0)) }}
                /// The canonical name, if the grammar knows this value.
                pub fn name(self) -> ::core::option::Option<&'static str> {{ self.info().map(|i| i.opname) }}
                /// Looks an instruction up by its canonical name or an alias.
                pub fn from_name(name: &str) -> ::core::option::Option<Self> {{ GRAMMAR.instruction_by_name(name).and_then(|i| {repr}::try_from(i.opcode).ok()).map(Self) }}
            }}
            #[automatically_derived]
            impl ::core::fmt::Debug for Opcode {{
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {{
                    match self.name() {{ Some(n) => f.write_str(n), None => write!(f, \"Opcode({{}})\", self.0) }}
                }}
            }}",
            Doc(&info_doc)
        );
        self.check_unique("instructions", &names);
        self.lex(&out)
    }

    /// `Class`: the grammar's instruction classes, for grammars that have them, so that
    /// tools match a class by a name the compiler checks.
    pub(super) fn classes(&mut self) -> TokenStream {
        let mut classes: Vec<&str> = Vec::new();
        for i in &self.g.instructions {
            if let Some(c) = i.class.as_deref() {
                if !classes.contains(&c) {
                    classes.push(c);
                }
            }
        }
        if classes.is_empty() {
            return TokenStream::new();
        }
        let named: Vec<(String, String)> = classes
            .iter()
            .map(|c| (naming::class(c), (*c).to_owned()))
            .collect();
        self.check_unique("instruction classes", &named);
        let kr = &self.kr;
        let variants: Vec<Ident> = named.iter().map(|(v, _)| ident(v)).collect();
        let spellings: Vec<&String> = named.iter().map(|(_, c)| c).collect();
        let docs = spellings.iter().map(|c| format!("`{c}`."));
        let dc = &self.doc_cfg;
        quote! {
            /// The grammar's instruction classes (the `class` key of its instructions).
            #dc
            #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
            #[non_exhaustive]
            pub enum Class {
                #(
                    #[doc = #docs]
                    #variants,
                )*
            }
            impl Class {
                /// The grammar's spelling.
                pub const fn name(self) -> &'static str {
                    match self {
                        #(Self::#variants => #spellings,)*
                    }
                }
                /// The class with this spelling.
                pub fn from_name(name: &str) -> ::core::option::Option<Self> {
                    match name {
                        #(#spellings => Some(Self::#variants),)*
                        _ => None,
                    }
                }
                /// The class of an instruction of this grammar.
                pub fn of(info: &#kr::grammar::InstructionInfo) -> ::core::option::Option<Self> {
                    Self::from_name(info.class)
                }
            }
        }
    }

    /// An instruction's struct fields: name, type as written in `scope`, and operand.
    pub(super) fn fields_of(
        &self,
        inst: &'a Instruction,
        scope: Scope,
    ) -> Vec<(String, Tokens, &'a Operand)> {
        let kr = &self.kr;
        self.field_names(inst)
            .iter()
            .cloned()
            .zip(&inst.operands)
            .map(|(n, op)| {
                let t = if self.is_switch_targets(inst, op) {
                    quote!(#kr::__private::Vec<(#kr::LiteralNumber, #kr::Id)>).into()
                } else if self.is_spec_op(op) {
                    let enum_path = match scope {
                        Scope::Top => quote!(Instruction),
                        Scope::Inst => quote!(super::Instruction),
                    };
                    quote!(#kr::__private::Box<#enum_path>).into()
                } else {
                    self.operand_type(op, scope)
                };
                (n, t, op)
            })
            .collect()
    }

    /// The one place that knows which instruction is `OpSwitch`: its case literals are
    /// sized by the selector's type, a fact the grammar leaves to prose. Its table entry
    /// says so (`InstructionInfo::switch_literals`), and tools go by that.
    pub(super) fn is_switch(&self, inst: &Instruction) -> bool {
        self.g.is_core && inst.opname == "OpSwitch"
    }

    /// Hook: OpSwitch's case literals are sized by the selector's type.
    fn is_switch_targets(&self, inst: &Instruction, op: &Operand) -> bool {
        self.is_switch(inst)
            && op.quantifier == Quantifier::Variadic
            && self.kind(&op.kind).category == Category::Composite
    }

    /// Hook: OpSpecConstantOp embeds another instruction's operands.
    fn is_spec_op(&self, op: &Operand) -> bool {
        self.embeds(&op.kind)
    }

    /// Whether operands of `kind` embed another instruction (in a core grammar).
    fn embeds(&self, kind: &str) -> bool {
        self.g.embeds(kind)
    }

    /// The documentation of an instruction's struct.
    fn struct_doc(&self, inst: &Instruction) -> String {
        let ops: Vec<String> = inst
            .operands
            .iter()
            .map(|op| {
                let q = match op.quantifier {
                    Quantifier::One => "",
                    Quantifier::Optional => "?",
                    Quantifier::Variadic => "*",
                };
                match &op.name {
                    Some(n) => format!("`{}{q}` {}", op.kind, n.replace('\n', " ")),
                    None => format!("`{}{q}`", op.kind),
                }
            })
            .collect();
        let mut doc = format!("`{}`: ", inst.opname);
        if self.g.is_core {
            doc += &format!("opcode {}", inst.opcode);
            if let Some(c) = &inst.class {
                doc += &format!(", class {c}");
            }
        } else {
            doc += &format!("extended instruction {}", inst.opcode);
        }
        doc.push('.');
        if !ops.is_empty() {
            doc += &format!("\n\nOperands: {}.", ops.join(", "));
        }
        doc.push_str(&Self::meta_doc(&inst.meta));
        if self.g.is_core {
            doc += &format!(
                "\n\n[Specification](https://registry.khronos.org/SPIR-V/specs/unified1/SPIRV.html#{})",
                inst.opname
            );
        }
        doc
    }

    /// `mod inst`: one struct per instruction, with its `Debug`, `PartialEq` and `Hash`.
    pub(super) fn structs(&mut self) -> TokenStream {
        let g = self.g;
        let mut items = String::new();
        for inst in &g.instructions {
            self.instruction_struct(&mut items, inst);
        }
        let items = self.lex(&items);
        let dc = &self.doc_cfg;
        quote! {
            /// One struct per instruction, with a typed field per operand.
            #dc
            pub mod inst {
                #items
            }
        }
    }

    /// One instruction's struct and impls, inside `mod inst`, written to `out` as text.
    pub(super) fn instruction_struct(&mut self, out: &mut String, inst: &'a Instruction) {
        let kr = &self.kr.clone();
        let name = naming::instruction(&inst.opname);
        let fields = self.fields_of(inst, Scope::Inst);
        let check: Vec<(String, String)> = fields
            .iter()
            .map(|(n, _, op)| {
                (
                    n.clone(),
                    op.name.clone().unwrap_or_else(|| op.kind.clone()),
                )
            })
            .collect();
        self.check_unique(&format!("fields of {}", inst.opname), &check);
        w!(out, "{}", Doc(&self.struct_doc(inst)));
        if name.trim_start_matches("r#") != inst.opname {
            w!(out, "#[doc(alias = {})]", Str(&inst.opname));
        }
        w!(
            out,
            "#[derive(Clone)] #[allow(clippy::upper_case_acronyms)] pub struct {name} {{"
        );
        for (n, t, op) in &fields {
            let doc = match &op.name {
                Some(name) => format!("`{}` {}", op.kind, name.replace('\n', " ")),
                None => format!("`{}`", op.kind),
            };
            w!(out, "{} pub {n}: {t},", Doc(&doc));
        }
        // Debug, PartialEq and Hash are those of the instruction the struct makes, through
        // the table (see spirv_core::typed): one line each instead of derived code for
        // every field. `#[inline]`: compiled in the crates that call them, not in the
        // expanding crate, which calls none of them. The struct has no encoder of its own:
        // `Instruction::encode_operands_to` writes each variant's fields in place, so the
        // expanding crate checks and compiles no function per struct for it.
        w!(
            out,
            "}}
            impl ::core::fmt::Debug for {name} {{
                #[inline]
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {{
                    {kr}::__private::fmt_struct::<super::Instruction, Self>(self, f)
                }}
            }}
            impl ::core::cmp::PartialEq for {name} {{
                #[inline]
                fn eq(&self, other: &Self) -> bool {{
                    {kr}::__private::same_struct::<super::Instruction, Self>(self, other)
                }}
            }}
            impl ::core::cmp::Eq for {name} {{}}
            impl ::core::hash::Hash for {name} {{
                fn hash<H: ::core::hash::Hasher>(&self, state: &mut H) {{
                    {kr}::__private::hash_struct::<super::Instruction, Self, H>(self, state)
                }}
            }}"
        );
    }

    /// One arm of `Instruction::encode_operands_to`: the variant's fields written in
    /// operand order, each run of one-word fields (ids, integers, enumerants without
    /// parameters) as one array, so that the arm makes a call per run rather than per
    /// word (`Sink::put`).
    fn encode_arm(&self, out: &mut String, inst: &'a Instruction, v: &str) {
        let fields = self.fields_of(inst, Scope::Top);
        if fields.is_empty() {
            w!(out, "Self::{v}(_) => {{}}");
            return;
        }
        w!(out, "Self::{v}(i) => {{");
        let mut run: Vec<String> = Vec::new();
        let flush = |out: &mut String, run: &mut Vec<String>| {
            if !run.is_empty() {
                w!(out, "w.put([{}]);", run.join(", "));
                run.clear();
            }
        };
        for (n, _, op) in fields {
            if let Some(word) = self.one_word(op) {
                run.push(format!("i.{n}{word}"));
                continue;
            }
            flush(out, &mut run);
            if self.is_spec_op(op) {
                w!(out, "i.{n}.encode_spec_constant_op(w);");
            } else {
                w!(out, "__O::encode(&i.{n}, w);");
            }
        }
        flush(out, &mut run);
        out.push('}');
    }

    /// For an operand that is one word, how its field gives that word: `.0` of an id,
    /// a float or an enumerant without parameters (newtypes over `u32`), nothing for an
    /// integer (`u32`).
    fn one_word(&self, op: &Operand) -> Option<&'static str> {
        if op.quantifier != Quantifier::One || self.is_spec_op(op) {
            return None;
        }
        let k = self.kind(&op.kind);
        if k.category == Category::Composite || self.simple_width(&op.kind) != Some(1) {
            return None;
        }
        let integer = k.category == Category::Literal && class_of(&op.kind, k.category) != "Float";
        Some(if integer { "" } else { ".0" })
    }

    /// One arm of `Instruction::decode`: the struct built in place, each field read in
    /// operand order (errors are checked once, after the `match`). Reading the fields
    /// here rather than calling the struct's `decode` spares a release build one
    /// function per instruction and the copy of its result into the enum.
    fn decode_arm(&self, out: &mut String, inst: &'a Instruction, v: &str) {
        w!(out, "{} => Self::{v}(inst::{v} {{", inst.opcode);
        for (n, _, op) in self.fields_of(inst, Scope::Top) {
            let read = if self.is_switch_targets(inst, op) {
                "r.read_switch_targets()?"
            } else if self.is_spec_op(op) {
                "Self::decode_spec_constant_op(r)?"
            } else {
                "r.field()"
            };
            w!(out, "{n}: {read},");
        }
        out.push_str("}),");
    }

    /// The body of `Instruction::decode` (given `opcode` and a reader `r`), and the
    /// functions it calls: the arms in opcode order, at most [`DECODE_PART`] to a
    /// function. One match over all of a large grammar's instructions made one function
    /// that the compiler's backend handled in superlinear time (the core grammar's took
    /// a third of spirv-core's release code generation, most of it register
    /// allocation); in parts of this size it costs what its arms do.
    fn decode_match(&self, variants: &[String]) -> (String, String) {
        let g = self.g;
        let mut order: Vec<usize> = (0..g.instructions.len()).collect();
        order.sort_by_key(|&i| g.instructions[i].opcode);
        let arms = |part: &[usize]| {
            let mut out = String::new();
            for &i in part {
                self.decode_arm(&mut out, &g.instructions[i], &variants[i]);
            }
            out
        };
        let unknown = "_ => return Err(r.unknown_opcode(u32::from(opcode.0))),";
        let finish = "r.fields_read().map(|()| v)";
        if order.len() <= DECODE_PART {
            let body = format!(
                "let v = match opcode.0 {{ {} {unknown} }}; {finish}",
                arms(&order)
            );
            return (body, String::new());
        }
        let kr = &self.kr;
        let (mut dispatch, mut parts) = (String::new(), String::new());
        for (k, part) in order.chunks(DECODE_PART).enumerate() {
            let lo = g.instructions[part[0]].opcode;
            let hi = g.instructions[part[part.len() - 1]].opcode;
            w!(dispatch, "{lo}..={hi} => Self::decode_part{k}(opcode, r),");
            w!(
                parts,
                "/// [`Self::decode`] of the opcodes {lo} to {hi}.
                fn decode_part{k}(opcode: Opcode, r: &mut {kr}::__private::Reader<'_>) -> ::core::result::Result<Self, {kr}::DecodeError> {{
                    let v = match opcode.0 {{ {} {unknown} }};
                    {finish}
                }}",
                arms(part)
            );
        }
        let body = format!(
            "match opcode.0 {{ {dispatch} _ => Err(r.unknown_opcode(u32::from(opcode.0))), }}"
        );
        (body, parts)
    }

    /// `Instruction`: the enum over every instruction struct, its decode and encode, and
    /// the table-driven `InstructionSet` impl behind `Debug`, `PartialEq` and the id
    /// visitors.
    pub(super) fn instruction_enum(&self) -> TokenStream {
        let kr = &self.kr;
        let dc = &self.doc_cfg;
        let g = self.g;
        let num = if g.is_core {
            "opcode"
        } else {
            "extended instruction number"
        };
        let variants: Vec<String> = g
            .instructions
            .iter()
            .map(|i| naming::instruction(&i.opname))
            .collect();
        // The long lists, written as text (see `text`). `From` is `#[inline]`: a move into
        // the enum, compiled where it is called rather than as ~860 functions of the
        // expanding crate, which calls none of them.
        let mut from_impls = String::new();
        let mut enum_variants = String::new();
        let mut encode_arms = String::new();
        let mut opcode_arms = String::new();
        for (i, v) in g.instructions.iter().zip(&variants) {
            w!(
                from_impls,
                "impl ::core::convert::From<inst::{v}> for Instruction {{
                    #[inline]
                    fn from(i: inst::{v}) -> Self {{
                        Self::{v}(i)
                    }}
                }}"
            );
            w!(
                enum_variants,
                "{} {v}(inst::{v}),",
                Doc(&format!("`{}`.", i.opname))
            );
            self.encode_arm(&mut encode_arms, i, v);
            w!(opcode_arms, "Self::{v}(_) => Opcode::{v},");
        }
        let (from_impls, enum_variants) = (self.lex(&from_impls), self.lex(&enum_variants));
        let (decode_match, decode_parts) = self.decode_match(&variants);
        let (decode_match, decode_parts) = (self.lex(&decode_match), self.lex(&decode_parts));
        let encode_arms = self.lex(&encode_arms);
        let opcode_arms = self.lex(&opcode_arms);
        let repr = if g.is_core { quote!(u16) } else { quote!(u32) };
        // A raw core opcode above 16 bits reads as its low half here; `encode` refuses
        // it rather than write it truncated.
        let unknown_opcode = if g.is_core {
            quote!(r.opcode as u16)
        } else {
            quote!(r.opcode)
        };
        let unknown_doc = format!(
            " An {num} this grammar does not know, or an instruction that did not decode, kept as raw words."
        );
        let errors_doc =
            format!(" An unknown {num}, missing or extra operands, or a malformed literal.");
        let opcode_doc = format!(" The {num}.");
        let core_only = g.is_core.then(|| {
            quote! {
                /// Appends the whole instruction, leading word included.
                ///
                /// # Errors
                /// It would take more than 65535 words, or it is kept as raw words with an opcode above 65535; `w` is left as it was.
                pub fn encode(&self, w: &mut #kr::__private::Vec<u32>) -> ::core::result::Result<(), #kr::EncodeError> {
                    let start = w.len();
                    w.push(0);
                    self.encode_operands(w);
                    #kr::__private::finish_instruction(w, start, #kr::typed::InstructionSet::number(self))
                }
                /// Hook for `OpSpecConstantOp`: decodes the embedded instruction with its own layout. The result type and id already read are reused as its first two operands.
                #[doc(hidden)]
                pub fn decode_spec_constant_op(r: &mut #kr::__private::Reader<'_>) -> ::core::result::Result<#kr::__private::Box<Self>, #kr::DecodeError> {
                    let (opcode, words) = r.spec_constant_op_words()?;
                    let inner = Self::decode(Opcode(opcode), &words, r.context()).map_err(|e| r.rebase(e))?;
                    Ok(#kr::__private::Box::new(inner))
                }
                /// Hook for `OpSpecConstantOp`: writes the embedded opcode and its operands after the result type and id.
                #[doc(hidden)]
                pub fn encode_spec_constant_op<W: #kr::__private::Words>(&self, w: &mut W) {
                    w.push(u32::from(self.opcode().0));
                    let mut words = #kr::__private::SmallWords::new();
                    self.encode_operands_to(&mut #kr::__private::Sink::from(&mut words));
                    w.extend_from_slice(words.as_slice().get(2..).unwrap_or(&[]));
                }
            }
        });
        let switch = g
            .instructions
            .iter()
            .filter(|i| self.is_switch(i))
            .find_map(|i| {
                self.fields_of(i, Scope::Top)
                    .into_iter()
                    .find(|(_, _, op)| self.is_switch_targets(i, op))
                    .map(|(n, _, _)| (ident(&naming::instruction(&i.opname)), ident(&n)))
            });
        let switch = switch.map(|(v, n)| {
            quote! {
                fn switch_literal_words(&self) -> u8 {
                    match self {
                        Self::#v(i) => i.#n.first().map_or(1, |t| t.0.words().len() as u8),
                        _ => 1,
                    }
                }
            }
        });
        quote! {
            #from_impls
            /// Any instruction of this grammar, decoded into its typed struct.
            #dc
            #[derive(Clone)]
            #[non_exhaustive]
            #[allow(clippy::large_enum_variant, clippy::upper_case_acronyms)]
            pub enum Instruction {
                #enum_variants
                #[doc = #unknown_doc]
                Unknown(#kr::RawInstruction),
            }
            impl Instruction {
                /// Decodes operand words (without the leading word-count/opcode word) of the instruction `opcode`.
                ///
                /// # Errors
                #[doc = #errors_doc]
                pub fn decode(opcode: Opcode, operands: &[u32], ctx: &#kr::DecodeContext) -> ::core::result::Result<Self, #kr::DecodeError> {
                    let r = &mut #kr::__private::Reader::new(operands, ctx);
                    #decode_match
                }
                #decode_parts
                /// Like [`Self::decode`], but keeps anything that does not decode as [`Self::Unknown`], so that nothing is lost.
                pub fn decode_lossless(opcode: Opcode, operands: &[u32], ctx: &#kr::DecodeContext) -> Self {
                    Self::decode(opcode, operands, ctx).unwrap_or_else(|_| Self::Unknown(#kr::RawInstruction::new(opcode.0 as u32, operands)))
                }
                /// Appends the operand words (no leading word).
                pub fn encode_operands(&self, w: &mut #kr::__private::Vec<u32>) {
                    self.encode_operands_to(&mut #kr::__private::Sink::from(w))
                }
                #[doc(hidden)]
                pub fn encode_operands_to(&self, w: &mut #kr::__private::Sink<'_>) {
                    #[allow(unused_imports)]
                    use #kr::__private::EncodeWords as __O;
                    match self {
                        #encode_arms
                        Self::Unknown(r) => #kr::__private::Words::extend_from_slice(w, &r.operands),
                    }
                }
                #[doc = #opcode_doc]
                pub fn opcode(&self) -> Opcode {
                    match self {
                        #opcode_arms
                        Self::Unknown(r) => Opcode(#unknown_opcode),
                    }
                }
                /// Calls `f` on every id the instruction defines or uses, in operand order, where the module reader finds them; `ids` says which set an `OpExtInst` imports (a module's `ids()`, or a builder's).
                ///
                /// # Errors
                /// Nothing is visited when some ids cannot be found: an instruction kept as raw words, an unknown enumerant that may take parameters, or an `OpExtInst` whose set `ids` does not know, or knows as neither registered nor `NonSemantic.`.
                pub fn visit_ids(&self, ids: &#kr::walk::Ids, f: &mut dyn FnMut(#kr::Id)) -> ::core::result::Result<(), #kr::DecodeError> {
                    #kr::__private::visit_ids(self, ids, f)
                }
                /// Like [`Self::visit_ids`], allowing each id to be changed.
                ///
                /// # Errors
                /// As [`Self::visit_ids`]; nothing is changed then.
                pub fn visit_ids_mut(&mut self, ids: &#kr::walk::Ids, f: &mut dyn FnMut(&mut #kr::Id)) -> ::core::result::Result<(), #kr::DecodeError> {
                    #kr::__private::visit_ids_mut(self, ids, f)
                }
                #core_only
            }
            impl #kr::typed::InstructionSet for Instruction {
                fn grammar() -> &'static #kr::grammar::Grammar {
                    &GRAMMAR
                }
                fn number(&self) -> u32 {
                    u32::from(self.opcode().0)
                }
                fn encode_operands_to(&self, w: &mut #kr::__private::Sink<'_>) {
                    Instruction::encode_operands_to(self, w)
                }
                fn decode_number(number: u32, operands: &[u32], ctx: &#kr::DecodeContext) -> ::core::result::Result<Self, #kr::DecodeError> {
                    match #repr::try_from(number) {
                        Ok(n) => Self::decode(Opcode(n), operands, ctx),
                        Err(_) => Err(#kr::__private::Reader::new(operands, ctx).unknown_opcode(number)),
                    }
                }
                fn raw(&self) -> ::core::option::Option<&#kr::RawInstruction> {
                    match self {
                        Self::Unknown(r) => Some(r),
                        _ => None,
                    }
                }
                #switch
            }
            impl ::core::fmt::Debug for Instruction {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    #kr::__private::fmt_instruction(self, f)
                }
            }
            impl ::core::cmp::PartialEq for Instruction {
                fn eq(&self, other: &Self) -> bool {
                    #kr::__private::same_instruction(self, other)
                }
            }
            impl ::core::cmp::Eq for Instruction {}
            impl ::core::hash::Hash for Instruction {
                fn hash<H: ::core::hash::Hasher>(&self, state: &mut H) {
                    #kr::__private::hash_instruction(self, state)
                }
            }
        }
    }
}
