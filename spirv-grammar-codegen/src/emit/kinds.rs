//! Operand kinds as Rust types: value enums, mask newtypes with their bit constants,
//! and the `…Data` types of kinds whose enumerants take parameters.

use super::*;

impl<'a> Emitter<'a> {
    pub(super) fn emit_kind_type(&mut self, k: &Kind) {
        let kr = self.krate.to_owned();
        let ident = naming::kind(&k.name);
        let mut sorted: Vec<&Enumerant> = k.enumerants.iter().collect();
        sorted.sort_by_key(|e| e.value);
        let doc = match &k.doc {
            Some(d) => format!("{d}\n\n"),
            None => String::new(),
        };
        match k.category {
            Category::ValueEnum | Category::BitEnum => {
                let is_mask = k.category == Category::BitEnum;
                let what = if is_mask { "mask" } else { "value" };
                let o = &mut self.out;
                w!(
                    o,
                    "#[doc = {}]\n#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]\n#[repr(transparent)]\npub struct {ident}(pub u32);\n",
                    escape(&format!(
                        "{doc}The grammar's {} operand kind `{}`: an open {what} type that holds any `u32`, so values from newer grammars survive a round trip. Known {}s are associated constants.",
                        k.category.as_str(),
                        k.name,
                        if is_mask { "bit" } else { "value" }
                    ))
                );
                let mut consts = Vec::new();
                w!(
                    o,
                    "#[allow(non_upper_case_globals, clippy::upper_case_acronyms)]\nimpl {ident} {{\n"
                );
                for e in &sorted {
                    let cname = if is_mask {
                        naming::mask_bit(&e.name, &k.name)
                    } else {
                        naming::enumerant(&e.name, &k.name)
                    };
                    consts.push((cname.clone(), e.name.clone()));
                    let params = if e.parameters.is_empty() {
                        String::new()
                    } else {
                        let p: Vec<String> = e
                            .parameters
                            .iter()
                            .map(|p| match &p.name {
                                Some(n) => format!("`{}` {}", p.kind, n),
                                None => format!("`{}`", p.kind),
                            })
                            .collect();
                        format!("\n\nParameters: {}.", p.join(", "))
                    };
                    w!(
                        o,
                        "    #[doc = {}]\n{}    pub const {cname}: Self = Self({:#x});\n",
                        escape(&format!(
                            "`{}` = {}.{params}{}",
                            e.name,
                            e.value,
                            Self::meta_doc(&e.meta)
                        )),
                        alias_attr(&cname, &e.name, "    "),
                        e.value
                    );
                    for a in &e.meta.aliases {
                        let aname = if is_mask {
                            naming::mask_bit(a, &k.name)
                        } else {
                            naming::enumerant(a, &k.name)
                        };
                        consts.push((aname.clone(), a.clone()));
                        w!(
                            o,
                            "    #[doc = {}]\n    pub const {aname}: Self = Self::{cname};\n",
                            escape(&format!("Alias of [`Self::{cname}`] (`{a}`)."))
                        );
                    }
                }
                o.push_str("}\n");
                w!(
                    o,
                    "#[automatically_derived]\nimpl {kr}::grammar::Enum for {ident} {{\n    const KIND: &'static {kr}::grammar::OperandKind = &kinds::{ident};\n    fn from_u32(value: u32) -> Self {{ Self(value) }}\n    fn to_u32(self) -> u32 {{ self.0 }}\n}}\n"
                );
                if is_mask {
                    w!(
                        o,
                        "#[automatically_derived]\nimpl {kr}::grammar::Mask for {ident} {{}}\n#[automatically_derived]\nimpl ::core::ops::BitOr for {ident} {{\n    type Output = Self;\n    fn bitor(self, rhs: Self) -> Self {{ Self(self.0 | rhs.0) }}\n}}\n#[automatically_derived]\nimpl ::core::ops::BitOrAssign for {ident} {{\n    fn bitor_assign(&mut self, rhs: Self) {{ self.0 |= rhs.0; }}\n}}\n"
                    );
                }
                w!(
                    o,
                    "#[automatically_derived]\nimpl ::core::fmt::Debug for {ident} {{\n    fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {{ {kr}::grammar::{}(&kinds::{ident}, self.0, f) }}\n}}\n",
                    if is_mask { "fmt_mask" } else { "fmt_value" }
                );
                self.check_unique(&format!("constants of {}", k.name), &consts);
                if k.has_parameters() {
                    if is_mask {
                        self.emit_mask_data(k, &ident, &sorted);
                    } else {
                        self.emit_value_data(k, &ident, &sorted);
                    }
                }
            }
            Category::Composite => {
                let t = self.value_type(&k.name);
                w!(
                    self.out,
                    "#[doc = {}]\npub type {ident} = {t};\n",
                    escape(&format!(
                        "{doc}The composite operand kind `{}` ({}).",
                        k.name,
                        k.bases.join(", ")
                    ))
                );
            }
            Category::Id | Category::Literal => {}
        }
    }

    pub(super) fn param_type(&self, params: &[Operand]) -> String {
        let parts: Vec<String> = params.iter().map(|p| self.operand_type(p)).collect();
        if parts.len() == 1 {
            parts[0].clone()
        } else {
            format!("({})", parts.join(", "))
        }
    }

    pub(super) fn emit_value_data(&mut self, k: &Kind, ident: &str, sorted: &[&Enumerant]) {
        let data = naming::data(&k.name);
        let kr = self.krate.to_owned();
        let mut variants = String::new();
        let mut dec = String::new();
        let mut enc = String::new();
        let mut val = String::new();
        for e in sorted {
            let v = naming::enumerant(&e.name, &k.name);
            w!(
                variants,
                "    #[doc = {}]\n",
                escape(&format!("`{}` = {}.", e.name, e.value))
            );
            w!(
                val,
                "            Self::{v}{} => {ident}::{v},\n",
                if e.parameters.is_empty() { "" } else { "(..)" }
            );
            if e.parameters.is_empty() {
                w!(variants, "    {v},\n");
                w!(dec, "            {:#x} => Self::{v},\n", e.value);
                w!(enc, "            Self::{v} => w.push({:#x}),\n", e.value);
            } else {
                let types: Vec<String> =
                    e.parameters.iter().map(|p| self.operand_type(p)).collect();
                w!(variants, "    {v}({}),\n", types.join(", "));
                let reads: Vec<&str> = types.iter().map(|_| "r.read()?").collect();
                w!(
                    dec,
                    "            {:#x} => Self::{v}({}),\n",
                    e.value,
                    reads.join(", ")
                );
                let binds: Vec<String> = (0..types.len()).map(|i| format!("p{i}")).collect();
                w!(
                    enc,
                    "            Self::{v}({}) => {{ w.push({:#x});",
                    binds.join(", "),
                    e.value
                );
                for b in &binds {
                    w!(enc, " {kr}::codec::Operand::encode({b}, w);");
                }
                enc.push_str(" }\n");
            }
        }
        let o = &mut self.out;
        w!(
            o,
            "#[doc = {}]\n#[derive(Clone)]\n#[non_exhaustive]\n#[allow(clippy::upper_case_acronyms)]\npub enum {data} {{\n{variants}    /// A value this grammar does not know; it must take no parameters.\n    Unknown(u32),\n}}\n",
            escape(&format!(
                "`{}` with the parameters its enumerants take.",
                k.name
            ))
        );
        w!(
            o,
            "impl ::core::default::Default for {data} {{\n    /// `Unknown(0)`: a placeholder, which decoders use while reading.\n    fn default() -> Self {{\n        Self::Unknown(0)\n    }}\n}}\nimpl {data} {{\n    /// The enumerant without its parameters.\n    pub fn value(&self) -> {ident} {{\n        match self {{\n{val}            Self::Unknown(v) => {ident}(*v),\n        }}\n    }}\n}}\n"
        );
        w!(
            o,
            "#[automatically_derived]\nimpl {kr}::codec::Operand for {data} {{\n    fn decode(r: &mut {kr}::codec::Reader<'_>) -> ::core::result::Result<Self, {kr}::DecodeError> {{\n        Ok(match r.word()? {{\n{dec}            v => Self::Unknown(v),\n        }})\n    }}\n    fn encode(&self, w: &mut {kr}::__private::Vec<u32>) {{\n        match self {{\n{enc}            Self::Unknown(v) => w.push(*v),\n        }}\n    }}\n}}\n"
        );
        self.data_impls(ident, &data);
    }

    /// `Debug` and `PartialEq` of a `<Kind>Data` type through the kind's table.
    pub(super) fn data_impls(&mut self, ident: &str, data: &str) {
        let kr = self.krate;
        w!(
            self.out,
            "impl ::core::fmt::Debug for {data} {{\n    fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {{\n        {kr}::typed::fmt_data(self, &kinds::{ident}, f)\n    }}\n}}\nimpl ::core::cmp::PartialEq for {data} {{\n    fn eq(&self, other: &Self) -> bool {{\n        {kr}::typed::same_encoding(self, other)\n    }}\n}}\nimpl ::core::cmp::Eq for {data} {{}}\n"
        );
    }

    pub(super) fn emit_mask_data(&mut self, k: &Kind, ident: &str, sorted: &[&Enumerant]) {
        let data = naming::data(&k.name);
        let kr = self.krate.to_owned();
        let mut fields = String::new();
        let mut dec = String::new();
        let mut enc = String::new();
        let mut names = vec![("mask".to_owned(), "(the mask)".to_owned())];
        for e in sorted.iter().filter(|e| !e.parameters.is_empty()) {
            let f = naming::mask_field(&e.name);
            names.push((f.clone(), e.name.clone()));
            let t = self.param_type(&e.parameters);
            w!(
                fields,
                "    #[doc = {}]\n    pub {f}: {t},\n",
                escape(&format!(
                    "Parameters of `{}`: read and written when `mask` has its bit, ignored otherwise.",
                    e.name
                ))
            );
            w!(
                dec,
                "            {f}: if mask.0 & {v:#x} == {v:#x} {{ r.read()? }} else {{ ::core::default::Default::default() }},\n",
                v = e.value
            );
            w!(
                enc,
                "        if self.mask.0 & {v:#x} == {v:#x} {{ {kr}::codec::Operand::encode(&self.{f}, w); }}\n",
                v = e.value
            );
        }
        self.check_unique(&format!("fields of {data}"), &names);
        let o = &mut self.out;
        w!(
            o,
            "#[doc = {}]\n#[derive(Clone, Default)]\npub struct {data} {{\n    /// The mask word: the one source of which parameters are present.\n    pub mask: {ident},\n{fields}}}\n",
            escape(&format!(
                "`{}` with the parameters of its set bits, which follow the mask in ascending bit order. A parameter is present exactly when its bit is set, so the mask and the parameters cannot disagree: a field whose bit is clear is neither written nor read.",
                k.name
            ))
        );
        w!(
            o,
            "#[automatically_derived]\nimpl {kr}::codec::Operand for {data} {{\n    fn decode(r: &mut {kr}::codec::Reader<'_>) -> ::core::result::Result<Self, {kr}::DecodeError> {{\n        let mask = {ident}(r.word()?);\n        Ok(Self {{\n            mask,\n{dec}        }})\n    }}\n    fn encode(&self, w: &mut {kr}::__private::Vec<u32>) {{\n        w.push(self.mask.0);\n{enc}    }}\n}}\n"
        );
        self.data_impls(ident, &data);
    }
}
