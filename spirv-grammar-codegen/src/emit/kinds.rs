//! Operand kinds as Rust types: value enums, mask newtypes with their bit constants,
//! and the `…Data` types of kinds whose enumerants take parameters.

use super::*;

impl Emitter<'_> {
    /// The type of one kind: an open newtype with its enumerants as constants (and the
    /// `…Data` type if they take parameters), or a tuple alias for a composite.
    pub(super) fn kind_type(&mut self, k: &Kind) -> TokenStream {
        let kr = &self.kr.clone();
        let name = naming::kind(&k.name);
        let ident = ident(&name);
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
                let mut names = Vec::new();
                let mut consts = TokenStream::new();
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
                    let alias = alias_attr(&cname, &e.name);
                    let value = hex(e.value);
                    let c = super::ident(&cname);
                    consts.extend(quote! {
                        #[doc = #doc]
                        #alias
                        pub const #c: Self = Self(#value);
                    });
                    for a in &e.meta.aliases {
                        let aname = constant(a);
                        names.push((aname.clone(), a.clone()));
                        let doc = format!("Alias of [`Self::{cname}`] (`{a}`).");
                        let alias = super::ident(&aname);
                        consts.extend(quote! {
                            #[doc = #doc]
                            pub const #alias: Self = Self::#c;
                        });
                    }
                }
                let mask_impls = is_mask.then(|| {
                    quote! {
                        #[automatically_derived]
                        impl #kr::grammar::Mask for #ident {}
                        #[automatically_derived]
                        impl ::core::ops::BitOr for #ident {
                            type Output = Self;
                            fn bitor(self, rhs: Self) -> Self { Self(self.0 | rhs.0) }
                        }
                        #[automatically_derived]
                        impl ::core::ops::BitOrAssign for #ident {
                            fn bitor_assign(&mut self, rhs: Self) { self.0 |= rhs.0; }
                        }
                    }
                });
                let fmt = if is_mask {
                    quote!(fmt_mask)
                } else {
                    quote!(fmt_value)
                };
                let dc = &self.doc_cfg;
                let mut out = quote! {
                    #[doc = #doc]
                    #dc
                    #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
                    #[repr(transparent)]
                    pub struct #ident(pub u32);
                    #[allow(non_upper_case_globals, clippy::upper_case_acronyms)]
                    impl #ident {
                        #consts
                    }
                    #[automatically_derived]
                    impl #kr::grammar::Enum for #ident {
                        const KIND: &'static #kr::grammar::OperandKind = &kinds::#ident;
                        fn from_u32(value: u32) -> Self { Self(value) }
                        fn to_u32(self) -> u32 { self.0 }
                    }
                    #mask_impls
                    #[automatically_derived]
                    impl ::core::fmt::Debug for #ident {
                        fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result { #kr::__private::#fmt(&kinds::#ident, self.0, f) }
                    }
                };
                self.check_unique(&format!("constants of {}", k.name), &names);
                if k.has_parameters() {
                    if is_mask {
                        out.extend(self.mask_data(k, &ident, &sorted));
                    } else {
                        out.extend(self.value_data(k, &ident, &sorted));
                    }
                }
                out
            }
            Category::Composite => {
                let t = self.value_type(&k.name, Scope::Top);
                let doc = format!(
                    "{doc_head}The composite operand kind `{}` ({}).",
                    k.name,
                    k.bases.join(", ")
                );
                let dc = &self.doc_cfg;
                quote! {
                    #[doc = #doc]
                    #dc
                    pub type #ident = #t;
                }
            }
            Category::Id | Category::Literal => TokenStream::new(),
        }
    }

    /// The `…Data` enum of a value kind whose enumerants take parameters.
    fn value_data(&mut self, k: &Kind, ident: &Ident, sorted: &[&Enumerant]) -> TokenStream {
        let data = super::ident(&naming::data(&k.name));
        let kr = &self.kr;
        let mut variants = TokenStream::new();
        let mut dec = TokenStream::new();
        let mut enc = TokenStream::new();
        let mut val = TokenStream::new();
        for e in sorted {
            let v = super::ident(&naming::enumerant(&e.name, &k.name));
            let doc = format!("`{}` = {}.", e.name, e.value);
            let value = hex(e.value);
            if e.parameters.is_empty() {
                variants.extend(quote! {
                    #[doc = #doc]
                    #v,
                });
                val.extend(quote!(Self::#v => #ident::#v,));
                dec.extend(quote!(#value => Self::#v,));
                enc.extend(quote!(Self::#v => w.push(#value),));
            } else {
                let types: Vec<Tokens> = e
                    .parameters
                    .iter()
                    .map(|p| self.operand_type(p, Scope::Top))
                    .collect();
                variants.extend(quote! {
                    #[doc = #doc]
                    #v(#(#types),*),
                });
                val.extend(quote!(Self::#v(..) => #ident::#v,));
                let reads = types.iter().map(|_| quote!(r.read()?));
                dec.extend(quote!(#value => Self::#v(#(#reads),*),));
                let binds: Vec<Ident> = (0..types.len())
                    .map(|i| super::ident(&format!("p{i}")))
                    .collect();
                enc.extend(quote! {
                    Self::#v(#(#binds),*) => { w.push(#value); #(#kr::__private::Operand::encode(#binds, w);)* }
                });
            }
        }
        let doc = format!("`{}` with the parameters its enumerants take.", k.name);
        let dc = &self.doc_cfg;
        let mut out = quote! {
            #[doc = #doc]
            #dc
            #[derive(Clone)]
            #[non_exhaustive]
            #[allow(clippy::upper_case_acronyms)]
            pub enum #data {
                #variants
                /// A value this grammar does not know; it must take no parameters.
                Unknown(u32),
            }
            impl ::core::default::Default for #data {
                /// `Unknown(0)`: a placeholder, which decoders use while reading.
                fn default() -> Self {
                    Self::Unknown(0)
                }
            }
            impl #kr::__private::Placeholder for #data {
                fn placeholder() -> Self {
                    Self::Unknown(0)
                }
            }
            impl #data {
                /// The enumerant without its parameters.
                pub fn value(&self) -> #ident {
                    match self {
                        #val
                        Self::Unknown(v) => #ident(*v),
                    }
                }
            }
            #[automatically_derived]
            impl #kr::__private::Operand for #data {
                fn decode(r: &mut #kr::__private::Reader<'_>) -> ::core::result::Result<Self, #kr::DecodeError> {
                    Ok(match r.word()? {
                        #dec
                        v => Self::Unknown(v),
                    })
                }
                fn encode<W: #kr::__private::Words>(&self, w: &mut W) {
                    match self {
                        #enc
                        Self::Unknown(v) => w.push(*v),
                    }
                }
            }
        };
        out.extend(self.data_impls(ident, &data));
        out
    }

    /// `Debug` through the kind's table, and `PartialEq` and `Hash` through the
    /// encoding, of a `<Kind>Data` type.
    fn data_impls(&self, ident: &Ident, data: &Ident) -> TokenStream {
        let kr = &self.kr;
        quote! {
            impl ::core::fmt::Debug for #data {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    #kr::__private::fmt_data(self, &kinds::#ident, f)
                }
            }
            impl ::core::cmp::PartialEq for #data {
                fn eq(&self, other: &Self) -> bool {
                    #kr::__private::same_words(self, other)
                }
            }
            impl ::core::cmp::Eq for #data {}
            impl ::core::hash::Hash for #data {
                fn hash<H: ::core::hash::Hasher>(&self, state: &mut H) {
                    #kr::__private::hash_words(self, state)
                }
            }
        }
    }

    /// The `…Data` struct of a mask kind whose bits take parameters.
    fn mask_data(&mut self, k: &Kind, ident: &Ident, sorted: &[&Enumerant]) -> TokenStream {
        let data = super::ident(&naming::data(&k.name));
        let kr = &self.kr.clone();
        let mut fields = TokenStream::new();
        let mut dec = TokenStream::new();
        let mut enc = TokenStream::new();
        let mut placeholders = TokenStream::new();
        let mut names = vec![("mask".to_owned(), "(the mask)".to_owned())];
        for e in sorted.iter().filter(|e| !e.parameters.is_empty()) {
            let name = naming::mask_field(&e.name);
            names.push((name.clone(), e.name.clone()));
            let f = super::ident(&name);
            let t = self.param_type(&e.parameters);
            let doc = format!(
                "Parameters of `{}`: read and written when `mask` has its bit, ignored otherwise.",
                e.name
            );
            let v = hex(e.value);
            fields.extend(quote! {
                #[doc = #doc]
                pub #f: #t,
            });
            dec.extend(quote! {
                #f: if mask.0 & #v == #v { r.read()? } else { #kr::__private::Placeholder::placeholder() },
            });
            placeholders.extend(quote! {
                #f: #kr::__private::Placeholder::placeholder(),
            });
            enc.extend(quote! {
                if self.mask.0 & #v == #v { #kr::__private::Operand::encode(&self.#f, w); }
            });
        }
        self.check_unique(&format!("fields of {}", naming::data(&k.name)), &names);
        let doc = format!(
            "`{}` with the parameters of its set bits, which follow the mask in ascending bit order. A parameter is present exactly when its bit is set, so the mask and the parameters cannot disagree: a field whose bit is clear is neither written nor read.",
            k.name
        );
        let dc = &self.doc_cfg;
        let mut out = quote! {
            #[doc = #doc]
            #dc
            #[derive(Clone)]
            pub struct #data {
                /// The mask word: the one source of which parameters are present.
                pub mask: #ident,
                #fields
            }
            impl ::core::default::Default for #data {
                /// No bit set; every parameter a placeholder, neither written nor read.
                fn default() -> Self {
                    #kr::__private::Placeholder::placeholder()
                }
            }
            impl #kr::__private::Placeholder for #data {
                fn placeholder() -> Self {
                    Self {
                        mask: #ident(0),
                        #placeholders
                    }
                }
            }
            #[automatically_derived]
            impl #kr::__private::Operand for #data {
                fn decode(r: &mut #kr::__private::Reader<'_>) -> ::core::result::Result<Self, #kr::DecodeError> {
                    let mask = #ident(r.word()?);
                    Ok(Self {
                        mask,
                        #dec
                    })
                }
                fn encode<W: #kr::__private::Words>(&self, w: &mut W) {
                    w.push(self.mask.0);
                    #enc
                }
            }
        };
        out.extend(self.data_impls(ident, &data));
        out
    }

    /// The type of a mask bit's parameters: the one type, or a tuple of several.
    fn param_type(&self, params: &[Operand]) -> TokenStream {
        let parts: Vec<Tokens> = params
            .iter()
            .map(|p| self.operand_type(p, Scope::Top))
            .collect();
        match parts.as_slice() {
            [one] => one.to_token_stream(),
            _ => quote!((#(#parts),*)),
        }
    }
}
