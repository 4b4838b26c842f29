//! Operand kinds as Rust types: value enums, mask newtypes with their bit constants,
//! and the `…Data` types of kinds whose enumerants take parameters.

use super::text::{Doc, w};
use super::*;

impl Emitter<'_> {
    /// The type of one kind, written to `out`: an open newtype with its enumerants as
    /// constants (and the `…Data` type if they take parameters), or a tuple alias for a
    /// composite.
    pub(super) fn kind_type(&mut self, out: &mut String, k: &Kind) {
        let kr = &self.kr.clone();
        let dc = &self.doc_cfg.clone();
        let name = naming::kind(&k.name);
        let mut sorted: Vec<&Enumerant> = k.enumerants.iter().collect();
        sorted.sort_by_key(|e| e.value);
        let doc_head = match &k.doc {
            Some(d) => format!("{d}\n\n"),
            None => String::new(),
        };
        match k.category {
            Category::ValueEnum | Category::BitEnum => {
                let is_mask = k.category == Category::BitEnum;
                let what = if is_mask { "mask" } else { "value" };
                let doc = format!(
                    "{doc_head}The grammar's {} operand kind `{}`: an open {what} type that holds any `u32`, so values from newer grammars survive a round trip. Known {}s are associated constants.",
                    k.category.as_str(),
                    k.name,
                    if is_mask { "bit" } else { "value" }
                );
                w!(
                    out,
                    "{} {dc}
                    #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
                    #[repr(transparent)]
                    pub struct {name}(pub u32);
                    #[allow(non_upper_case_globals, clippy::upper_case_acronyms)]
                    impl {name} {{",
                    Doc(&doc)
                );
                let mut names = Vec::new();
                for e in &sorted {
                    let constant = |n: &str| {
                        if is_mask {
                            naming::mask_bit(n, &k.name)
                        } else {
                            naming::enumerant(n, &k.name)
                        }
                    };
                    let cname = constant(&e.name);
                    names.push((cname.clone(), e.name.clone()));
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
                    let doc = format!(
                        "`{}` = {}.{params}{}",
                        e.name,
                        e.value,
                        Self::meta_doc(&e.meta)
                    );
                    w!(out, "{}", Doc(&doc));
                    alias_attr(out, &cname, &e.name);
                    w!(out, "pub const {cname}: Self = Self({:#x});", e.value);
                    for a in &e.meta.aliases {
                        let aname = constant(a);
                        names.push((aname.clone(), a.clone()));
                        let doc = format!("Alias of [`Self::{cname}`] (`{a}`).");
                        w!(
                            out,
                            "{} pub const {aname}: Self = Self::{cname};",
                            Doc(&doc)
                        );
                    }
                }
                w!(
                    out,
                    "}}
                    #[automatically_derived]
                    impl {kr}::grammar::Enum for {name} {{
                        const KIND: &'static {kr}::grammar::OperandKind = &kinds::{name};
                        fn from_u32(value: u32) -> Self {{ Self(value) }}
                        fn to_u32(self) -> u32 {{ self.0 }}
                    }}"
                );
                if is_mask {
                    w!(
                        out,
                        "#[automatically_derived]
                        impl {kr}::grammar::Mask for {name} {{}}
                        #[automatically_derived]
                        impl ::core::ops::BitOr for {name} {{
                            type Output = Self;
                            fn bitor(self, rhs: Self) -> Self {{ Self(self.0 | rhs.0) }}
                        }}
                        #[automatically_derived]
                        impl ::core::ops::BitOrAssign for {name} {{
                            fn bitor_assign(&mut self, rhs: Self) {{ self.0 |= rhs.0; }}
                        }}"
                    );
                }
                let fmt = if is_mask { "fmt_mask" } else { "fmt_value" };
                w!(
                    out,
                    "#[automatically_derived]
                    impl ::core::fmt::Debug for {name} {{
                        fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {{ {kr}::__private::{fmt}(&kinds::{name}, self.0, f) }}
                    }}"
                );
                self.check_unique(&format!("constants of {}", k.name), &names);
                if k.has_parameters() {
                    if is_mask {
                        self.mask_data(out, k, &name, &sorted);
                    } else {
                        self.value_data(out, k, &name, &sorted);
                    }
                }
            }
            Category::Composite => {
                let t = self.value_type(&k.name, Scope::Top);
                let doc = format!(
                    "{doc_head}The composite operand kind `{}` ({}).",
                    k.name,
                    k.bases.join(", ")
                );
                w!(out, "{} {dc} pub type {name} = {t};", Doc(&doc));
            }
            Category::Id | Category::Literal => {}
        }
    }

    /// The `…Data` enum of a value kind whose enumerants take parameters.
    fn value_data(&mut self, out: &mut String, k: &Kind, ident: &str, sorted: &[&Enumerant]) {
        let data = naming::data(&k.name);
        let kr = &self.kr;
        let mut variants = String::new();
        let mut dec = String::new();
        let mut enc = String::new();
        let mut val = String::new();
        for e in sorted {
            let v = naming::enumerant(&e.name, &k.name);
            let doc = format!("`{}` = {}.", e.name, e.value);
            let value = format!("{:#x}", e.value);
            if e.parameters.is_empty() {
                w!(variants, "{} {v},", Doc(&doc));
                w!(val, "Self::{v} => {ident}::{v},");
                w!(dec, "{value} => Self::{v},");
                w!(enc, "Self::{v} => w.push({value}),");
            } else {
                let types: Vec<Tokens> = e
                    .parameters
                    .iter()
                    .map(|p| self.operand_type(p, Scope::Top))
                    .collect();
                w!(variants, "{} {v}(", Doc(&doc));
                for (i, t) in types.iter().enumerate() {
                    let comma = if i == 0 { "" } else { ", " };
                    w!(variants, "{comma}{t}");
                }
                variants.push_str("),");
                w!(val, "Self::{v}(..) => {ident}::{v},");
                w!(dec, "{value} => Self::{v}(");
                for i in 0..types.len() {
                    let comma = if i == 0 { "" } else { ", " };
                    w!(dec, "{comma}r.field()");
                }
                dec.push_str("),");
                w!(enc, "Self::{v}(");
                for i in 0..types.len() {
                    let comma = if i == 0 { "" } else { ", " };
                    w!(enc, "{comma}p{i}");
                }
                w!(enc, ") => {{ w.push({value}); ");
                for i in 0..types.len() {
                    w!(enc, "{kr}::__private::EncodeWords::encode(p{i}, w);");
                }
                enc.push_str(" }");
            }
        }
        let doc = format!("`{}` with the parameters its enumerants take.", k.name);
        let dc = &self.doc_cfg;
        w!(
            out,
            "{}
            {dc}
            #[derive(Clone)]
            #[non_exhaustive]
            #[allow(clippy::upper_case_acronyms)]
            pub enum {data} {{
                {variants}
                /// A value this grammar does not know; it must take no parameters.
                Unknown(u32),
            }}
            impl ::core::default::Default for {data} {{
                /// `Unknown(0)`: a placeholder, which decoders use while reading.
                fn default() -> Self {{
                    Self::Unknown(0)
                }}
            }}
            impl {kr}::__private::Placeholder for {data} {{
                fn placeholder() -> Self {{
                    Self::Unknown(0)
                }}
            }}
            impl {data} {{
                /// The enumerant without its parameters.
                pub fn value(&self) -> {ident} {{
                    match self {{
                        {val}
                        Self::Unknown(v) => {ident}(*v),
                    }}
                }}
            }}
            #[automatically_derived]
            impl {kr}::__private::Operand for {data} {{
                fn decode(r: &mut {kr}::__private::Reader<'_>) -> ::core::result::Result<Self, {kr}::DecodeError> {{
                    let v = match r.word()? {{
                        {dec}
                        v => Self::Unknown(v),
                    }};
                    r.params_read().map(|()| v)
                }}
            }}
            #[automatically_derived]
            impl {kr}::__private::EncodeWords for {data} {{
                fn encode<W: {kr}::__private::Words>(&self, w: &mut W) {{
                    match self {{
                        {enc}
                        Self::Unknown(v) => w.push(*v),
                    }}
                }}
            }}",
            Doc(&doc)
        );
        self.data_impls(out, ident, &data);
    }

    /// `Debug` through the kind's table, and `PartialEq` and `Hash` through the
    /// encoding, of a `<Kind>Data` type.
    fn data_impls(&self, out: &mut String, ident: &str, data: &str) {
        let kr = &self.kr;
        w!(
            out,
            "impl ::core::fmt::Debug for {data} {{
                #[inline]
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {{
                    {kr}::__private::fmt_data(self, &kinds::{ident}, f)
                }}
            }}
            impl ::core::cmp::PartialEq for {data} {{
                #[inline]
                fn eq(&self, other: &Self) -> bool {{
                    {kr}::__private::same_words(self, other)
                }}
            }}
            impl ::core::cmp::Eq for {data} {{}}
            impl ::core::hash::Hash for {data} {{
                fn hash<H: ::core::hash::Hasher>(&self, state: &mut H) {{
                    {kr}::__private::hash_words(self, state)
                }}
            }}"
        );
    }

    /// The `…Data` struct of a mask kind whose bits take parameters.
    fn mask_data(&mut self, out: &mut String, k: &Kind, ident: &str, sorted: &[&Enumerant]) {
        let data = naming::data(&k.name);
        let kr = &self.kr.clone();
        let mut fields = String::new();
        let mut dec = String::new();
        let mut enc = String::new();
        let mut placeholders = String::new();
        let mut names = vec![("mask".to_owned(), "(the mask)".to_owned())];
        for e in sorted.iter().filter(|e| !e.parameters.is_empty()) {
            let f = naming::mask_field(&e.name);
            names.push((f.clone(), e.name.clone()));
            let t = self.param_type(&e.parameters);
            let doc = format!(
                "Parameters of `{}`: read and written when `mask` has its bit, ignored otherwise.",
                e.name
            );
            let v = format!("{:#x}", e.value);
            w!(fields, "{} pub {f}: {t},", Doc(&doc));
            w!(
                dec,
                "{f}: if mask.0 & {v} == {v} {{ r.field() }} else {{ {kr}::__private::Placeholder::placeholder() }},"
            );
            w!(
                placeholders,
                "{f}: {kr}::__private::Placeholder::placeholder(),"
            );
            w!(
                enc,
                "if self.mask.0 & {v} == {v} {{ {kr}::__private::EncodeWords::encode(&self.{f}, w); }}"
            );
        }
        self.check_unique(&format!("fields of {}", naming::data(&k.name)), &names);
        let doc = format!(
            "`{}` with the parameters of its set bits, which follow the mask in ascending bit order. A parameter is present exactly when its bit is set, so the mask and the parameters cannot disagree: a field whose bit is clear is neither written nor read.",
            k.name
        );
        let dc = &self.doc_cfg;
        w!(
            out,
            "{}
            {dc}
            #[derive(Clone)]
            pub struct {data} {{
                /// The mask word: the one source of which parameters are present.
                pub mask: {ident},
                {fields}
            }}
            impl ::core::default::Default for {data} {{
                /// No bit set; every parameter a placeholder, neither written nor read.
                fn default() -> Self {{
                    {kr}::__private::Placeholder::placeholder()
                }}
            }}
            impl {kr}::__private::Placeholder for {data} {{
                fn placeholder() -> Self {{
                    Self {{
                        mask: {ident}(0),
                        {placeholders}
                    }}
                }}
            }}
            #[automatically_derived]
            impl {kr}::__private::Operand for {data} {{
                fn decode(r: &mut {kr}::__private::Reader<'_>) -> ::core::result::Result<Self, {kr}::DecodeError> {{
                    let mask = {ident}(r.word()?);
                    let v = Self {{
                        mask,
                        {dec}
                    }};
                    r.params_read().map(|()| v)
                }}
            }}
            #[automatically_derived]
            impl {kr}::__private::EncodeWords for {data} {{
                fn encode<W: {kr}::__private::Words>(&self, w: &mut W) {{
                    w.push(self.mask.0);
                    {enc}
                }}
            }}",
            Doc(&doc)
        );
        self.data_impls(out, ident, &data);
    }

    /// The type of a mask bit's parameters: the one type, or a tuple of several.
    fn param_type(&self, params: &[Operand]) -> String {
        let parts: Vec<Tokens> = params
            .iter()
            .map(|p| self.operand_type(p, Scope::Top))
            .collect();
        match parts.as_slice() {
            [one] => one.to_string(),
            _ => {
                let parts: Vec<String> = parts.iter().map(ToString::to_string).collect();
                format!("({})", parts.join(", "))
            }
        }
    }
}
