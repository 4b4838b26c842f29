//! The emitters' unit tests: items for a small extended grammar, checked as tokens
//! without a compiler.

use super::{Emitter, Scope};
use crate::Options;
use crate::model;
use quote::quote;

/// An extended grammar with one instruction and one kind.
const SET: &str = r#"{ "revision": 1, "instructions": [
    { "opname": "Mix", "opcode": 7, "operands": [
        { "kind": "IdResultType" }, { "kind": "IdResult" },
        { "kind": "IdRef", "name": "'Values'", "quantifier": "*" } ],
      "capabilities": ["Shader"] } ],
  "operand_kinds": [ { "category": "BitEnum", "kind": "Mode", "enumerants": [
        { "enumerant": "None", "value": "0x0000" },
        { "enumerant": "Fast", "value": "0x0001", "version": "1.4" } ] } ] }"#;

/// The tokens one by one, groups opened and closed, without the spacing: items written
/// as text and with `quote!` differ only in whether a punctuation mark is joined to
/// the next.
fn flat(tokens: proc_macro2::TokenStream) -> Vec<String> {
    use proc_macro2::{Delimiter, TokenTree};
    let mut out = Vec::new();
    for tree in tokens {
        match tree {
            TokenTree::Group(g) => {
                let (open, close) = match g.delimiter() {
                    Delimiter::Parenthesis => ("(", ")"),
                    Delimiter::Brace => ("{", "}"),
                    Delimiter::Bracket => ("[", "]"),
                    Delimiter::None => ("", ""),
                };
                out.push(open.to_owned());
                out.extend(flat(g.stream()));
                out.push(close.to_owned());
            }
            other => out.push(other.to_string()),
        }
    }
    out
}

fn with_emitter<T>(f: impl FnOnce(&mut Emitter<'_>) -> T) -> T {
    let g = model::parse(SET, crate::CORE_KINDS).expect("valid");
    let opts = Options::new("t");
    let mut e = Emitter::new(&g, &opts, crate::CORE_KINDS).expect("a path");
    f(&mut e)
}

#[test]
fn an_instruction_becomes_a_struct_with_its_impls() {
    let got = with_emitter(|e| {
        let mut text = String::new();
        e.instruction_struct(&mut text, &e.g.instructions[0]);
        super::text::lex(None, &text)
    });
    let want = quote! {
        #[doc = "`Mix`: extended instruction 7.\n\nOperands: `IdResultType`, `IdResult`, `IdRef*` 'Values'.\n\nCapabilities: Shader."]
        #[derive(Clone)]
        #[allow(clippy::upper_case_acronyms)]
        pub struct Mix {
            #[doc = "`IdResultType`"]
            pub result_type: ::spirv_core::Id,
            #[doc = "`IdResult`"]
            pub result_id: ::spirv_core::Id,
            #[doc = "`IdRef` 'Values'"]
            pub values: ::spirv_core::List<::spirv_core::Id>,
        }
        impl ::core::fmt::Debug for Mix {
            #[inline]
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                ::spirv_core::__private::fmt_struct::<super::Instruction, Self>(self, f)
            }
        }
        impl ::core::cmp::PartialEq for Mix {
            #[inline]
            fn eq(&self, other: &Self) -> bool {
                ::spirv_core::__private::same_struct::<super::Instruction, Self>(self, other)
            }
        }
        impl ::core::cmp::Eq for Mix {}
        impl ::core::hash::Hash for Mix {
            fn hash<H: ::core::hash::Hasher>(&self, state: &mut H) {
                ::spirv_core::__private::hash_struct::<super::Instruction, Self, H>(self, state)
            }
        }
    };
    assert_eq!(flat(got), flat(want));
}

#[test]
fn layouts_and_availability_become_table_fields() {
    let (operands, again, layouts, meta, ty) = with_emitter(|e| {
        let g = e.g;
        let kind = &g.kinds[0];
        let operands = e.operand_table(&g.instructions[0].operands);
        (
            operands,
            e.operand_table(&g.instructions[0].operands),
            e.layout_tables(),
            e.meta_fields(&kind.enumerants[1].meta),
            e.operand_type(&g.instructions[0].operands[2], Scope::Inst),
        )
    });
    // A layout is named once, in `mod layouts`, and referred to by that name.
    assert_eq!(&*operands, "&__l::LAYOUT_0");
    assert_eq!(again, operands);
    let want = quote! {
        pub(super) static LAYOUT_0: [__OI; 3] = [
          __OI { kind: &__ck::IdResultType, quantifier: __Q::One, name: "" },
          __OI { kind: &__ck::IdResult, quantifier: __Q::One, name: "" },
          __OI { kind: &__ck::IdRef, quantifier: __Q::Variadic, name: "'Values'" }];
    };
    let got = flat(layouts);
    let want = flat(want);
    assert!(
        got.windows(want.len()).any(|w| w == want.as_slice()),
        "{got:?}"
    );
    assert_eq!(
        flat(super::text::lex(None, &meta)),
        flat(quote!(version: Some((1, 4)),))
    );
    assert_eq!(
        quote!(#ty).to_string(),
        quote!(::spirv_core::List<::spirv_core::Id>).to_string()
    );
}

#[test]
fn a_name_index_probes_as_the_runtime_does() {
    let mut index = String::new();
    super::tables::name_index(&mut index, &[("A".into(), 0), ("B".into(), 0)]);
    let mut want = [0u16; 4];
    for (i, name) in ["A", "B"].iter().enumerate() {
        let mut at = crate::name_table::fnv1a(name) as usize & 3;
        while want[at] != 0 {
            at = (at + 1) & 3;
        }
        want[at] = i as u16 + 1;
    }
    let want = want.map(proc_macro2::Literal::u16_unsuffixed);
    assert_eq!(
        flat(super::text::lex(None, &index)),
        flat(quote!(__NI { slots: &[#(#want),*], names: &[("A", 0), ("B", 0)] }))
    );
}

/// A model that names a kind nobody defines (one the parser would have refused)
/// is a located error, not code emitted with a guess.
#[test]
fn an_unknown_kind_is_a_located_error() {
    let json = r#"{ "revision": 1, "instructions": [
        { "opname": "A", "opcode": 1, "operands": [ { "kind": "IdRef" } ] } ] }"#;
    let mut g = model::parse(json, crate::CORE_KINDS).expect("valid");
    g.instructions[0].operands[0].kind = "Missing".into();
    let opts = Options::new("t");
    let errors = super::Emitter::new(&g, &opts, crate::CORE_KINDS)
        .and_then(|e| e.run(&opts, None))
        .expect_err("refused");
    assert_eq!(errors.len(), 1);
    assert!(
        errors[0]
            .starts_with("/instructions/0/operands/0/kind (A): unknown operand kind \"Missing\""),
        "{}",
        errors[0]
    );
}
