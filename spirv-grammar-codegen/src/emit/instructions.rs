//! Instructions: the opcode type, instruction classes, one struct per instruction
//! with its decode and encode, and the `Instruction` enum.

use super::*;

impl<'a> Emitter<'a> {
    pub(super) fn emit_opcode(&mut self) {
        let kr = self.krate.to_owned();
        let g = self.g;
        let repr = if g.is_core { "u16" } else { "u32" };
        let what = if g.is_core {
            "opcode"
        } else {
            "extended instruction number"
        };
        let o = &mut self.out;
        w!(
            o,
            "#[doc = {}]\n#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]\n#[repr(transparent)]\npub struct Opcode(pub {repr});\n",
            escape(&format!(
                "An {what}: an open type that holds any value, with the grammar's instructions as associated constants."
            ))
        );
        let mut consts = Vec::new();
        w!(
            o,
            "#[allow(non_upper_case_globals, clippy::upper_case_acronyms)]\nimpl Opcode {{\n"
        );
        for i in &g.instructions {
            let n = naming::instruction(&i.opname);
            consts.push((n.clone(), i.opname.clone()));
            w!(
                o,
                "    #[doc = {}]\n{}    pub const {n}: Self = Self({});\n",
                escape(&format!("`{}` = {}.", i.opname, i.opcode)),
                alias_attr(&n, &i.opname, "    "),
                i.opcode
            );
        }
        w!(
            o,
            "    /// The grammar entry of this {what}, if the grammar has one.\n    pub fn info(self) -> ::core::option::Option<&'static {kr}::grammar::InstructionInfo> {{ GRAMMAR.instruction(u32::from(self.0)) }}\n    /// The canonical name, if the grammar knows this value.\n    pub fn name(self) -> ::core::option::Option<&'static str> {{ self.info().map(|i| i.opname) }}\n    /// Looks an instruction up by its canonical name or an alias.\n    pub fn from_name(name: &str) -> ::core::option::Option<Self> {{ GRAMMAR.instruction_by_name(name).and_then(|i| {repr}::try_from(i.opcode).ok()).map(Self) }}\n}}\n"
        );
        w!(
            o,
            "#[automatically_derived]\nimpl ::core::fmt::Debug for Opcode {{\n    fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {{\n        match self.name() {{ Some(n) => f.write_str(n), None => write!(f, \"Opcode({{}})\", self.0) }}\n    }}\n}}\n"
        );
        self.check_unique("instructions", &consts);
    }

    /// `Class`: the grammar's instruction classes, for grammars that have them, so that
    /// tools match a class by a name the compiler checks.
    pub(super) fn emit_classes(&mut self) {
        let mut classes: Vec<&str> = Vec::new();
        for i in &self.g.instructions {
            if let Some(c) = i.class.as_deref() {
                if !classes.contains(&c) {
                    classes.push(c);
                }
            }
        }
        if classes.is_empty() {
            return;
        }
        let kr = self.krate;
        let named: Vec<(String, String)> = classes
            .iter()
            .map(|c| (naming::class(c), (*c).to_owned()))
            .collect();
        self.check_unique("instruction classes", &named);
        let (mut variants, mut names, mut parse) = (String::new(), String::new(), String::new());
        for (v, c) in &named {
            w!(
                variants,
                "    #[doc = {}]\n    {v},\n",
                escape(&format!("`{c}`."))
            );
            w!(names, "            Self::{v} => {},\n", escape(c));
            w!(parse, "            {} => Some(Self::{v}),\n", escape(c));
        }
        w!(
            self.out,
            "/// The grammar's instruction classes (the `class` key of its instructions).\n#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]\n#[non_exhaustive]\npub enum Class {{\n{variants}}}\nimpl Class {{\n    /// The grammar's spelling.\n    pub const fn name(self) -> &'static str {{\n        match self {{\n{names}        }}\n    }}\n    /// The class with this spelling.\n    pub fn from_name(name: &str) -> ::core::option::Option<Self> {{\n        match name {{\n{parse}            _ => None,\n        }}\n    }}\n    /// The class of an instruction of this grammar.\n    pub fn of(info: &{kr}::grammar::InstructionInfo) -> ::core::option::Option<Self> {{\n        Self::from_name(info.class)\n    }}\n}}\n"
        );
    }

    pub(super) fn fields_of(&self, inst: &'a Instruction) -> Vec<(String, String, &'a Operand)> {
        let names = naming::instruction_fields(&inst.operands, |kind| self.embeds(kind));
        names
            .into_iter()
            .zip(&inst.operands)
            .map(|(n, op)| {
                let t = if self.is_switch_targets(inst, op) {
                    format!(
                        "{}::__private::Vec<({}::LiteralNumber, {}::Id)>",
                        self.krate, self.krate, self.krate
                    )
                } else if self.is_spec_op(op) {
                    format!("{}::__private::Box<Instruction>", self.krate)
                } else {
                    self.operand_type(op)
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
    pub(super) fn is_switch_targets(&self, inst: &Instruction, op: &Operand) -> bool {
        self.is_switch(inst)
            && op.quantifier == Quantifier::Variadic
            && self.kind(&op.kind).category == Category::Composite
    }

    /// Hook: OpSpecConstantOp embeds another instruction's operands.
    pub(super) fn is_spec_op(&self, op: &Operand) -> bool {
        self.embeds(&op.kind)
    }

    /// Whether operands of `kind` embed another instruction (in a core grammar).
    pub(super) fn embeds(&self, kind: &str) -> bool {
        self.g.embeds(kind)
    }

    pub(super) fn emit_structs(&mut self) {
        let kr = self.krate.to_owned();
        let g = self.g;
        let mut s = String::new();
        w!(
            s,
            "/// One struct per instruction, with a typed field per operand.\npub mod inst {{\n    #[allow(unused_imports)]\n    use {kr}::codec::{{Operand as __O, Reader as __R}};\n"
        );
        let mut qualified: FnvMap<String, String> = FnvMap::default();
        for inst in &g.instructions {
            let ident = naming::instruction(&inst.opname);
            let fields = self.fields_of(inst);
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
            if g.is_core {
                w!(doc, "opcode {}", inst.opcode);
                if let Some(c) = &inst.class {
                    w!(doc, ", class {c}");
                }
            } else {
                w!(doc, "extended instruction {}", inst.opcode);
            }
            doc.push('.');
            if !ops.is_empty() {
                w!(doc, "\n\nOperands: {}.", ops.join(", "));
            }
            doc.push_str(&Self::meta_doc(&inst.meta));
            if g.is_core {
                w!(
                    doc,
                    "\n\n[Specification](https://registry.khronos.org/SPIR-V/specs/unified1/SPIRV.html#{})",
                    inst.opname
                );
            }
            w!(
                s,
                "    #[doc = {}]\n{}    #[derive(Clone)]\n    #[allow(clippy::upper_case_acronyms)]\n    pub struct {ident} {{\n",
                escape(&doc),
                alias_attr(&ident, &inst.opname, "    ")
            );
            for (n, t, op) in &fields {
                // Few distinct types recur across thousands of fields: qualify each once.
                let t = qualified.entry(t.clone()).or_insert_with(|| {
                    qualify_local(&t.replace("Box<Instruction>", "Box<super::Instruction>"))
                });
                let d = match &op.name {
                    Some(name) => format!("`{}` {}", op.kind, name.replace('\n', " ")),
                    None => format!("`{}`", op.kind),
                };
                w!(
                    s,
                    "        #[doc = {}]\n        pub {n}: {t},\n",
                    escape(&d)
                );
            }
            s.push_str("    }\n");
            // Debug and PartialEq through the table (see spirv_core::typed): one line each
            // instead of derived code for every field.
            let switch = match fields
                .iter()
                .find(|(_, _, op)| self.is_switch_targets(inst, op))
            {
                Some((n, _, _)) => {
                    format!("self.{n}.first().map_or(1, |t| t.0.words().len() as u8)")
                }
                None => "1".to_owned(),
            };
            let index = self.table_index[&inst.opcode];
            w!(
                s,
                "    impl ::core::fmt::Debug for {ident} {{\n        fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {{\n            {kr}::typed::fmt_struct(self, &super::tables::INSTRUCTIONS[{index}], {switch}, f)\n        }}\n    }}\n    impl ::core::cmp::PartialEq for {ident} {{\n        fn eq(&self, other: &Self) -> bool {{\n            {kr}::typed::same_encoding(self, other)\n        }}\n    }}\n    impl ::core::cmp::Eq for {ident} {{}}\n"
            );
            // Codec.
            w!(
                s,
                "    #[automatically_derived]\n    impl __O for {ident} {{\n"
            );
            // Without operands the writer goes unused: an unnamed parameter.
            let w = if fields.is_empty() { "_" } else { "w" };
            w!(
                s,
                "        fn decode(r: &mut __R<'_>) -> ::core::result::Result<Self, {kr}::DecodeError> {{\n"
            );
            if fields.is_empty() {
                s.push_str("            r.finish().map(|()| Self {})\n");
            } else {
                s.push_str("            let v = Self {\n");
                for (n, _, op) in &fields {
                    let expr = if self.is_switch_targets(inst, op) {
                        "r.read_switch_targets()?".to_owned()
                    } else if self.is_spec_op(op) {
                        "super::Instruction::decode_spec_constant_op(r)?".to_owned()
                    } else {
                        "r.field()".to_owned()
                    };
                    w!(s, "                {n}: {expr},\n");
                }
                s.push_str("            };\n            r.fields_read().map(|()| v)\n");
            }
            s.push_str("        }\n");
            w!(
                s,
                "        fn encode(&self, {w}: &mut {kr}::__private::Vec<u32>) {{\n"
            );
            for (n, _, op) in &fields {
                if self.is_spec_op(op) {
                    w!(s, "            self.{n}.encode_spec_constant_op(w);\n");
                } else {
                    w!(s, "            __O::encode(&self.{n}, w);\n");
                }
            }
            s.push_str("        }\n");
            s.push_str("    }\n");
        }
        s.push_str("}\n");
        self.out.push_str(&s);
    }

    pub(super) fn emit_instruction_enum(&mut self) {
        let kr = self.krate.to_owned();
        let g = self.g;
        let num = if g.is_core {
            "opcode"
        } else {
            "extended instruction number"
        };
        let mut variants = String::new();
        let mut dec = String::new();
        let mut enc = String::new();
        let mut op = String::new();
        let mut from = String::new();
        for inst in &g.instructions {
            let n = naming::instruction(&inst.opname);
            w!(
                from,
                "impl ::core::convert::From<inst::{n}> for Instruction {{\n    fn from(i: inst::{n}) -> Self {{\n        Self::{n}(i)\n    }}\n}}\n"
            );
            w!(
                variants,
                "    #[doc = {}]\n    {n}(inst::{n}),\n",
                escape(&format!("`{}`.", inst.opname))
            );
            w!(
                dec,
                "            {} => Self::{n}(__O::decode(r)?),\n",
                inst.opcode
            );
            w!(enc, "            Self::{n}(i) => __O::encode(i, w),\n");
            w!(op, "            Self::{n}(_) => Opcode::{n},\n");
        }
        self.out.push_str(&from);
        let repr = if g.is_core { "u16" } else { "u32" };
        let unknown_opcode = if g.is_core {
            "r.opcode"
        } else {
            "r.opcode as u32"
        };
        let o = &mut self.out;
        w!(
            o,
            "/// Any instruction of this grammar, decoded into its typed struct.\n#[derive(Clone)]\n#[non_exhaustive]\n#[allow(clippy::large_enum_variant, clippy::upper_case_acronyms)]\npub enum Instruction {{\n{variants}    /// An {num} this grammar does not know, or an instruction that did not decode, kept as raw words.\n    Unknown({kr}::RawInstruction),\n}}\n"
        );
        w!(
            o,
            "impl Instruction {{\n    /// Decodes operand words (without the leading word-count/opcode word) of the instruction `opcode`.\n    ///\n    /// # Errors\n    /// An unknown {num}, missing or extra operands, or a malformed literal.\n    pub fn decode(opcode: Opcode, operands: &[u32], ctx: &{kr}::codec::DecodeContext) -> ::core::result::Result<Self, {kr}::DecodeError> {{\n        use {kr}::codec::Operand as __O;\n        let r = &mut {kr}::codec::Reader::new(operands, ctx);\n        Ok(match opcode.0 {{\n{dec}            _ => return Err(r.unknown_opcode(u32::from(opcode.0))),\n        }})\n    }}\n"
        );
        w!(
            o,
            "    /// Like [`Self::decode`], but keeps anything that does not decode as [`Self::Unknown`], so that nothing is lost.\n    pub fn decode_lossless(opcode: Opcode, operands: &[u32], ctx: &{kr}::codec::DecodeContext) -> Self {{\n        Self::decode(opcode, operands, ctx).unwrap_or_else(|_| Self::Unknown({kr}::RawInstruction::new(opcode.0 as u32, operands)))\n    }}\n    /// Appends the operand words (no leading word).\n    pub fn encode_operands(&self, w: &mut {kr}::__private::Vec<u32>) {{\n        use {kr}::codec::Operand as __O;\n        match self {{\n{enc}            Self::Unknown(r) => w.extend_from_slice(&r.operands),\n        }}\n    }}\n    /// The {num}.\n    pub fn opcode(&self) -> Opcode {{\n        match self {{\n{op}            Self::Unknown(r) => Opcode({unknown_opcode} as {repr}),\n        }}\n    }}\n    /// Calls `f` on every id the instruction defines or uses, in operand order.\n    pub fn visit_ids(&self, f: &mut dyn FnMut({kr}::Id)) {{\n        {kr}::typed::visit_ids(self, f)\n    }}\n    /// Calls `f` on every id the instruction defines or uses, allowing it to be changed.\n    pub fn visit_ids_mut(&mut self, f: &mut dyn FnMut(&mut {kr}::Id)) {{\n        {kr}::typed::visit_ids_mut(self, f)\n    }}\n"
        );
        if g.is_core {
            w!(
                o,
                "    /// Appends the whole instruction, leading word included.\n    pub fn encode(&self, w: &mut {kr}::__private::Vec<u32>) {{\n        let start = w.len();\n        w.push(0);\n        self.encode_operands(w);\n        let count = (w.len() - start) as u32;\n        w[start] = (count << 16) | u32::from(self.opcode().0);\n    }}\n    /// Hook for `OpSpecConstantOp`: decodes the embedded instruction with its own layout. The result type and id already read are reused as its first two operands.\n    pub fn decode_spec_constant_op(r: &mut {kr}::codec::Reader<'_>) -> ::core::result::Result<{kr}::__private::Box<Self>, {kr}::DecodeError> {{\n        let (opcode, words) = r.spec_constant_op_words()?;\n        let inner = Self::decode(Opcode(opcode), &words, r.context()).map_err(|e| r.rebase(e))?;\n        Ok({kr}::__private::Box::new(inner))\n    }}\n    /// Hook for `OpSpecConstantOp`: writes the embedded opcode and its operands after the result type and id.\n    pub fn encode_spec_constant_op(&self, w: &mut {kr}::__private::Vec<u32>) {{\n        w.push(u32::from(self.opcode().0));\n        let mut words = {kr}::__private::Vec::new();\n        self.encode_operands(&mut words);\n        w.extend(words.into_iter().skip(2));\n    }}\n"
            );
        }
        o.push_str("}\n");
        // The table-driven trait behind Debug, PartialEq and the id visitors.
        let switch = match g.instructions.iter().find_map(|i| {
            self.fields_of(i)
                .into_iter()
                .find(|(_, _, op)| self.is_switch_targets(i, op))
                .map(|(n, _, _)| (naming::instruction(&i.opname), n))
        }) {
            Some((v, n)) => format!(
                "    fn switch_literal_words(&self) -> u8 {{\n        match self {{\n            Self::{v}(i) => i.{n}.first().map_or(1, |t| t.0.words().len() as u8),\n            _ => 1,\n        }}\n    }}\n"
            ),
            None => String::new(),
        };
        let o = &mut self.out;
        w!(
            o,
            "impl {kr}::typed::InstructionSet for Instruction {{\n    fn grammar() -> &'static {kr}::grammar::Grammar {{\n        &GRAMMAR\n    }}\n    fn number(&self) -> u32 {{\n        u32::from(self.opcode().0)\n    }}\n    fn encode_operands(&self, w: &mut {kr}::__private::Vec<u32>) {{\n        Instruction::encode_operands(self, w)\n    }}\n    fn decode_number(number: u32, operands: &[u32], ctx: &{kr}::codec::DecodeContext) -> ::core::result::Result<Self, {kr}::DecodeError> {{\n        match {repr}::try_from(number) {{\n            Ok(n) => Self::decode(Opcode(n), operands, ctx),\n            Err(_) => Err({kr}::codec::Reader::new(operands, ctx).unknown_opcode(number)),\n        }}\n    }}\n    fn raw(&self) -> ::core::option::Option<&{kr}::RawInstruction> {{\n        match self {{\n            Self::Unknown(r) => Some(r),\n            _ => None,\n        }}\n    }}\n{switch}}}\nimpl ::core::fmt::Debug for Instruction {{\n    fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {{\n        {kr}::typed::fmt_instruction(self, f)\n    }}\n}}\nimpl ::core::cmp::PartialEq for Instruction {{\n    fn eq(&self, other: &Self) -> bool {{\n        {kr}::typed::same_instruction(self, other)\n    }}\n}}\nimpl ::core::cmp::Eq for Instruction {{}}\n"
        );
    }
}
