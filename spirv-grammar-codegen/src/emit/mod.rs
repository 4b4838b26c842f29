//! Emitters: each takes the checked [`Grammar`] and returns the Rust items for one part
//! of it as a [`TokenStream`], written so that every template reads as the code it
//! produces: the small, one-off items with `quote!`, the bulk (the per-instruction and
//! per-kind items, the tables) as source text lexed once (see the `text` module for why).
//!
//! Every path into the runtime crate is absolute (`#kr::…`, `{kr}::…`), and `Vec`/`Box` come from
//! its `__private` re-exports, so the expansion works in crates without
//! `extern crate alloc`.

use crate::Options;
use crate::model::{
    Category, Enumerant, Grammar, Instruction, Kind, Meta, Operand, Quantifier, class_of,
};
use crate::naming;
use proc_macro2::{Ident, Literal, Span, TokenStream, TokenTree};
use quote::{ToTokens, quote};
use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::rc::Rc;
use text::w;

mod instructions;
mod kinds;
mod tables;
pub mod text;

/// FNV-1a for the emitter's small string-keyed maps: SipHash is slow at opt-level 0,
/// where proc macros are built by default.
#[derive(Default)]
struct Fnv(u64);

impl Hasher for Fnv {
    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 {
            0xcbf2_9ce4_8422_2325
        } else {
            self.0
        };
        for &b in bytes {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

type FnvMap<K, V> = HashMap<K, V, BuildHasherDefault<Fnv>>;

/// Tokens built once and written many times: the runtime crate's path, operand types,
/// kind-table references. Inside a proc macro, writing a `TokenStream` into another
/// costs calls into the compiler, while copying single tokens does not, so the pieces
/// the templates repeat thousands of times are kept as token trees, and as text for
/// the templates written as text (see the `text` module).
#[derive(Clone)]
pub(crate) struct Tokens {
    trees: Rc<[TokenTree]>,
    text: Rc<str>,
}

impl From<TokenStream> for Tokens {
    fn from(tokens: TokenStream) -> Self {
        Tokens {
            text: tokens.to_string().into(),
            trees: tokens.into_iter().collect(),
        }
    }
}

impl ToTokens for Tokens {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        tokens.extend(self.trees.iter().cloned());
    }
}

impl std::fmt::Display for Tokens {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

/// An identifier from a name the naming rules made: `r#type` becomes a raw identifier.
pub(crate) fn ident(name: &str) -> Ident {
    match name.strip_prefix("r#") {
        Some(raw) => Ident::new_raw(raw, Span::call_site()),
        None => Ident::new(name, Span::call_site()),
    }
}

/// `#[doc(alias = "…")]` with the grammar spelling, when it differs from the Rust name.
fn alias_attr(out: &mut String, rust: &str, grammar: &str) {
    if rust.trim_start_matches("r#") != grammar {
        w!(out, "#[doc(alias = {})]", text::Str(grammar));
    }
}

/// What the emitter knows about a kind, whether defined here or in the core grammar.
#[derive(Clone)]
struct KindRef {
    category: Category,
    has_parameters: bool,
    bases: Vec<String>,
    /// Whether the core grammar defines it and this is an extended grammar: its type
    /// and table are then reached through the runtime crate's `spv` module.
    external: bool,
}

/// What an operand type is cached under: kind, quantifier (`None` for one value of the
/// kind) and scope.
type TypeKey = (String, Option<Quantifier>, Scope);

/// What an operand layout is cached under: each operand's kind, quantifier and name.
type LayoutKey = Vec<(String, Quantifier, Option<String>)>;

/// Where a type is written: at the expansion's top level, or inside its `inst` module,
/// where the top level's types are `super::…`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Scope {
    Top,
    Inst,
}

/// Turns one checked grammar into Rust items.
pub struct Emitter<'a> {
    g: &'a Grammar,
    /// The runtime crate's path (`::spirv_core`, or `crate` inside it).
    kr: Tokens,
    /// The `doc(cfg)` attribute of the typed items (empty without `doc_feature`).
    doc_cfg: Tokens,
    kinds: FnvMap<String, KindRef>,
    /// Operand types already written.
    types: RefCell<FnvMap<TypeKey, Tokens>>,
    /// Kind-table references already written, by kind.
    kind_tables: RefCell<FnvMap<String, Rc<str>>>,
    /// References to the operand layouts already named (`&__l::LAYOUT_n`), by their
    /// operands.
    operand_tables: RefCell<FnvMap<LayoutKey, Rc<str>>>,
    /// The statics of `mod layouts`, in the order they were named.
    layouts: RefCell<Vec<String>>,
    /// Availability fields already written, by their values.
    meta_fields: RefCell<FnvMap<Meta, Rc<str>>>,
    /// Each instruction's field names, by opcode (`naming::instruction_fields`).
    field_names: FnvMap<u32, Vec<String>>,
    /// `Capability` enumerant names (aliases included) and values: the grammar's own
    /// for a core grammar, the core grammar's for an extended one.
    capabilities: FnvMap<String, u32>,
    /// The lexer for generated text ([`Options::lexer`]).
    lexer: Option<text::Lexer>,
    errors: Vec<String>,
}

impl<'a> Emitter<'a> {
    /// Prepares an emitter; `external` are the core kinds an extended grammar may use.
    ///
    /// # Errors
    /// `opts.krate` is not a path.
    pub fn new(
        g: &'a Grammar,
        opts: &'a Options,
        external: &[crate::model::ExternalKind],
    ) -> Result<Self, Vec<String>> {
        let kr: TokenStream = opts.krate.parse().map_err(|e| {
            vec![format!(
                "the runtime crate `{}` is not a path: {e}",
                opts.krate
            )]
        })?;
        let mut kinds = FnvMap::default();
        if !g.is_core {
            for k in external {
                kinds.insert(
                    k.name.to_owned(),
                    KindRef {
                        category: k.category,
                        has_parameters: k.has_parameters,
                        bases: k.bases.iter().map(|s| (*s).to_owned()).collect(),
                        external: true,
                    },
                );
            }
        }
        for k in &g.kinds {
            kinds.insert(
                k.name.clone(),
                KindRef {
                    category: k.category,
                    has_parameters: k.has_parameters(),
                    bases: k.bases.clone(),
                    external: false,
                },
            );
        }
        let field_names = g
            .instructions
            .iter()
            .map(|i| {
                let names = naming::instruction_fields(&i.operands, |kind| g.embeds(kind));
                (i.opcode, names)
            })
            .collect();
        let capabilities = match g.kind("Capability").filter(|_| g.is_core) {
            Some(k) => k
                .enumerants
                .iter()
                .flat_map(|e| {
                    std::iter::once(&e.name)
                        .chain(&e.meta.aliases)
                        .map(move |n| (n.clone(), e.value))
                })
                .collect(),
            None => crate::CORE_CAPABILITIES
                .iter()
                .map(|&(n, v)| (n.to_owned(), v))
                .collect(),
        };
        let doc_cfg = match &opts.doc_feature {
            Some(f) => quote!(#[cfg_attr(docsrs, doc(cfg(feature = #f)))]),
            None => TokenStream::new(),
        };
        Ok(Emitter {
            g,
            kr: kr.into(),
            doc_cfg: doc_cfg.into(),
            capabilities,
            kinds,
            types: RefCell::default(),
            kind_tables: RefCell::default(),
            operand_tables: RefCell::default(),
            layouts: RefCell::default(),
            meta_fields: RefCell::default(),
            field_names,
            lexer: opts.lexer,
            errors: Vec::new(),
        })
    }

    /// The tokens of generated text (see [`text::lex`]).
    fn lex(&self, text: &str) -> TokenStream {
        text::lex(self.lexer, text)
    }

    /// An instruction's field names, in operand order.
    fn field_names(&self, inst: &Instruction) -> &[String] {
        self.field_names
            .get(&inst.opcode)
            .map_or(&[], Vec::as_slice)
    }

    fn kind(&self, name: &str) -> &KindRef {
        // `run` refuses a grammar with a reference to an unknown kind before emitting
        // anything, so the fallback is never used.
        static FALLBACK: std::sync::OnceLock<KindRef> = std::sync::OnceLock::new();
        self.kinds.get(name).unwrap_or_else(|| {
            FALLBACK.get_or_init(|| KindRef {
                category: Category::Literal,
                has_parameters: false,
                bases: Vec::new(),
                external: false,
            })
        })
    }

    /// `&__k::Kind` (or `&__ck::Kind` for a core kind in an extended grammar): a kind's
    /// table static, in the generated modules that open with [`Self::table_prelude`].
    fn kind_table(&self, name: &str) -> Rc<str> {
        if let Some(t) = self.kind_tables.borrow().get(name) {
            return t.clone();
        }
        let module = if self.kind(name).external {
            "__ck"
        } else {
            "__k"
        };
        let t: Rc<str> = format!("&{module}::{}", naming::kind(name)).into();
        self.kind_tables
            .borrow_mut()
            .insert(name.to_owned(), t.clone());
        t
    }

    /// Short local names for the table types, in the generated table modules.
    fn table_prelude(&self) -> String {
        let kr = &self.kr;
        let mut out = format!(
            "#[allow(unused_imports)]
            use {kr}::grammar::{{Enumerant as __E, InstructionInfo as __II, OperandInfo as __OI, OperandKind as __OK, Quantifier as __Q}};
            #[allow(unused_imports)]
            use {kr}::__private::NameIndex as __NI;
            #[allow(unused_imports)]
            use super::kinds as __k;
            #[allow(unused_imports)]
            use super::layouts as __l;"
        );
        if !self.g.is_core {
            w!(
                out,
                "#[allow(unused_imports)]
                use {kr}::spv::kinds as __ck;"
            );
        }
        out
    }

    /// The Rust type of one occurrence of an operand of kind `name`, written in `scope`.
    fn value_type(&self, name: &str, scope: Scope) -> Tokens {
        self.cached_type(name, None, scope, || self.write_value_type(name, scope))
    }

    /// The type under `(kind, quantifier, scope)`, written by `write` the first time.
    fn cached_type(
        &self,
        kind: &str,
        quantifier: Option<Quantifier>,
        scope: Scope,
        write: impl FnOnce() -> TokenStream,
    ) -> Tokens {
        let key = (kind.to_owned(), quantifier, scope);
        if let Some(t) = self.types.borrow().get(&key) {
            return t.clone();
        }
        let t = Tokens::from(write());
        self.types.borrow_mut().insert(key, t.clone());
        t
    }

    fn write_value_type(&self, name: &str, scope: Scope) -> TokenStream {
        let k = self.kind(name);
        let kr = &self.kr;
        match k.category {
            Category::Id => quote!(#kr::Id),
            Category::Literal => match class_of(name, k.category) {
                "String" => quote!(#kr::LiteralString),
                "Float" => quote!(#kr::LiteralFloat),
                "ContextNumber" => quote!(#kr::LiteralNumber),
                _ => quote!(u32),
            },
            Category::ValueEnum | Category::BitEnum => {
                let ty = ident(&if k.has_parameters {
                    naming::data(name)
                } else {
                    naming::kind(name)
                });
                if k.external {
                    quote!(#kr::spv::#ty)
                } else if scope == Scope::Inst {
                    quote!(super::#ty)
                } else {
                    ty.into_token_stream()
                }
            }
            Category::Composite => {
                let parts = k.bases.iter().map(|b| self.value_type(b, scope));
                quote!((#(#parts),*))
            }
        }
    }

    /// The type of an operand's struct field or parameter: its value type, in an
    /// `Option` for `?`, in a list for `*`.
    fn operand_type(&self, op: &Operand, scope: Scope) -> Tokens {
        if op.quantifier == Quantifier::One {
            return self.value_type(&op.kind, scope);
        }
        self.cached_type(&op.kind, Some(op.quantifier), scope, || {
            self.write_operand_type(op, scope)
        })
    }

    fn write_operand_type(&self, op: &Operand, scope: Scope) -> TokenStream {
        let t = self.value_type(&op.kind, scope);
        let kr = &self.kr;
        match op.quantifier {
            Quantifier::One => t.into_token_stream(),
            Quantifier::Optional => quote!(::core::option::Option<#t>),
            // Lists of plain words (ids, integers, enumerants without parameters, pairs
            // of them) keep short lists inline; others are a Vec.
            Quantifier::Variadic if self.simple_width(&op.kind).is_some() => {
                quote!(#kr::List<#t>)
            }
            Quantifier::Variadic => quote!(#kr::__private::Vec<#t>),
        }
    }

    /// The documentation lines an item's availability adds.
    fn meta_doc(m: &Meta) -> String {
        let mut s = String::new();
        if !m.capabilities.is_empty() {
            s += &format!("\n\nCapabilities: {}.", m.capabilities.join(", "));
        }
        if !m.extensions.is_empty() {
            s += &format!("\n\nExtensions: {}.", m.extensions.join(", "));
        }
        match (m.version, m.last_version) {
            (Some((a, b)), Some((c, d))) => s += &format!("\n\nSPIR-V {a}.{b} to {c}.{d}."),
            (Some((a, b)), None) => s += &format!("\n\nSPIR-V {a}.{b} and later."),
            (None, Some((c, d))) => s += &format!("\n\nUp to SPIR-V {c}.{d}."),
            (None, None) => {}
        }
        if m.provisional {
            s.push_str("\n\nProvisional.");
        }
        if !m.aliases.is_empty() {
            s += &format!("\n\nAlso spelled: {}.", m.aliases.join(", "));
        }
        s
    }

    /// Records an error for every Rust name given to two grammar names in one scope.
    fn check_unique(&mut self, scope: &str, names: &[(String, String)]) {
        let mut seen: FnvMap<&str, &str> = FnvMap::default();
        for (rust, grammar) in names {
            if let Some(prev) = seen.insert(rust, grammar) {
                self.errors.push(format!(
                    "{scope}: grammar names \"{prev}\" and \"{grammar}\" both become the Rust name `{rust}`"
                ));
            }
        }
    }

    /// Checks the names and kind references the items depend on: `Err` with every
    /// problem found, before anything is emitted.
    fn check(&mut self) -> Result<(), Vec<String>> {
        let g = self.g;
        // Top-level names must not collide with kind types.
        let mut top: Vec<(String, String)> = vec![
            ("Opcode".into(), "(opcode type)".into()),
            ("Instruction".into(), "(instruction enum)".into()),
            ("GRAMMAR".into(), "(grammar table)".into()),
            ("inst".into(), "(instruction module)".into()),
            ("kinds".into(), "(kind tables)".into()),
            ("tables".into(), "(instruction tables)".into()),
        ];
        if g.instructions.iter().any(|i| i.class.is_some()) {
            top.push(("Class".into(), "(instruction classes)".into()));
        }
        for k in &g.kinds {
            if matches!(k.category, Category::ValueEnum | Category::BitEnum) {
                top.push((naming::kind(&k.name), k.name.clone()));
                if k.has_parameters() {
                    top.push((
                        naming::data(&k.name),
                        format!("{} (with parameters)", k.name),
                    ));
                }
            } else if k.category == Category::Composite {
                top.push((naming::kind(&k.name), k.name.clone()));
            }
        }
        self.check_unique("top-level items", &top);
        // Every kind a layout names must be known: emitting with a guess would give
        // code that compiles and encodes wrongly.
        let refs = g
            .instructions
            .iter()
            .flat_map(|i| i.operands.iter().map(move |o| (&o.kind, &o.at, &i.opname)))
            .chain(g.kinds.iter().flat_map(|k| {
                k.enumerants
                    .iter()
                    .flat_map(move |e| e.parameters.iter().map(move |o| (&o.kind, &o.at, &k.name)))
            }));
        for (kind, at, ctx) in refs {
            if !self.kinds.contains_key(kind.as_str()) {
                self.errors.push(format!(
                    "{at}/kind ({ctx}): unknown operand kind \"{kind}\"; nothing is emitted for a layout whose kinds are not all known"
                ));
            }
        }
        // Tables hold capability values: every name must be a `Capability` enumerant.
        let metas = g
            .instructions
            .iter()
            .map(|i| (&i.meta, format!("instruction {}", i.opname)))
            .chain(g.kinds.iter().flat_map(|k| {
                k.enumerants
                    .iter()
                    .map(move |e| (&e.meta, format!("{} ({}::{})", e.at, k.name, e.name)))
            }));
        for (meta, at) in metas {
            for c in &meta.capabilities {
                if !self.capabilities.contains_key(c) {
                    self.errors.push(format!(
                        "{at}: unknown capability \"{c}\"; expected an enumerant of the core grammar's Capability kind"
                    ));
                }
            }
        }
        for k in &g.kinds {
            for (j, b) in k.bases.iter().enumerate() {
                if !self.kinds.contains_key(b.as_str()) {
                    self.errors.push(format!(
                        "{}/bases/{j} ({}): unknown operand kind \"{b}\"",
                        k.at, k.name
                    ));
                }
            }
        }
        if self.errors.is_empty() {
            Ok(())
        } else {
            Err(std::mem::take(&mut self.errors))
        }
    }

    /// Emits everything, or returns the problems found (naming clashes, unknown kinds).
    ///
    /// # Errors
    /// Every problem found, each a message naming its grammar entry.
    pub fn run(
        mut self,
        opts: &Options,
        path_for_tracking: Option<&str>,
    ) -> Result<TokenStream, Vec<String>> {
        self.check()?;
        let mut out = TokenStream::new();
        if let Some(path) = path_for_tracking {
            out.extend(quote!(
                const _: &[u8] = ::core::include_bytes!(#path);
            ));
        }
        out.extend(self.header(opts));
        out.extend(self.kind_tables());
        if opts.tables_only {
            out.extend(Self::typed_items_absent());
        } else {
            let mut kinds = String::new();
            for k in &self.g.kinds {
                self.kind_type(&mut kinds, k);
            }
            out.extend(self.lex(&kinds));
            out.extend(self.opcode());
            out.extend(self.classes());
            out.extend(self.structs());
            out.extend(self.instruction_enum());
        }
        out.extend(self.grammar(opts));
        out.extend(self.layout_tables());
        if self.errors.is_empty() {
            Ok(out)
        } else {
            Err(self.errors)
        }
    }

    /// Stand-ins for the typed items of a tables-only expansion: code that names them
    /// gets a note saying how to have them, besides the error.
    fn typed_items_absent() -> TokenStream {
        let note = "this grammar's typed items were not generated (`items = \"tables\"`); for spirv-core's vendored extended sets, enable spirv-core's `typed-ext` feature";
        quote! {
            #[doc(hidden)]
            #[deprecated(note = #note)]
            pub enum Instruction {}
            #[doc(hidden)]
            #[deprecated(note = #note)]
            pub enum Opcode {}
            #[doc(hidden)]
            #[deprecated(note = #note)]
            pub mod inst {}
        }
    }

    /// The constants that say which grammar this is.
    fn header(&self, opts: &Options) -> TokenStream {
        let g = self.g;
        let mut out = TokenStream::new();
        if g.is_core {
            if let Some(m) = g.magic_number {
                let m: Literal = format!("{m:#010x}")
                    .parse()
                    .unwrap_or_else(|_| Literal::u32_unsuffixed(m));
                out.extend(quote! {
                    /// The SPIR-V magic number, from the grammar.
                    pub const MAGIC_NUMBER: u32 = #m;
                });
            }
            if let Some(v) = g.major_version {
                let v = Literal::u32_unsuffixed(v);
                out.extend(quote! {
                    /// The grammar's major SPIR-V version.
                    pub const MAJOR_VERSION: u32 = #v;
                });
            }
            if let Some(v) = g.minor_version {
                let v = Literal::u32_unsuffixed(v);
                out.extend(quote! {
                    /// The grammar's minor SPIR-V version.
                    pub const MINOR_VERSION: u32 = #v;
                });
            }
        } else {
            let import = match &opts.import {
                Some(s) => quote!(Some(#s)),
                None => quote!(None),
            };
            out.extend(quote! {
                /// The `OpExtInstImport` name of this set, if the invocation gave one.
                pub const IMPORT_NAME: ::core::option::Option<&str> = #import;
            });
            if let Some(v) = g.version {
                let v = Literal::u32_unsuffixed(v);
                out.extend(quote! {
                    /// The set's `version` key.
                    pub const VERSION: u32 = #v;
                });
            }
        }
        if let Some(v) = g.revision {
            let v = Literal::u32_unsuffixed(v);
            out.extend(quote! {
                /// The grammar's revision.
                pub const REVISION: u32 = #v;
            });
        }
        out
    }
}

#[cfg(test)]
mod tests;
