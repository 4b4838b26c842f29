//! Emitters: each takes the checked [`Grammar`] and appends Rust source text.
//!
//! The expansion is produced as source text and handed to the compiler's own lexer,
//! which is much faster at opt-level 0 than building token trees one by one. Every
//! path into the runtime crate is absolute (`{krate}::…`), and `Vec`/`Box` come from
//! its `__private` re-exports, so the expansion works in crates without
//! `extern crate alloc`.

use crate::Options;
use crate::model::{
    Category, Enumerant, Grammar, Instruction, Kind, Meta, Operand, Quantifier, class_of,
};
use crate::naming;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

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
use std::fmt::Write;

macro_rules! w {
    ($o:expr, $($t:tt)*) => {{ let _ = write!($o, $($t)*); }};
}

/// What the emitter knows about a kind, whether defined here or in the core grammar.
#[derive(Clone)]
struct KindRef {
    category: Category,
    has_parameters: bool,
    bases: Vec<String>,
    /// Path prefix for the kind's type and table (`` or `{krate}::spv::`).
    prefix: String,
}

/// Turns one checked grammar into Rust source text.
pub struct Emitter<'a> {
    g: &'a Grammar,
    krate: &'a str,
    kinds: FnvMap<String, KindRef>,
    /// Opcode → position in the instruction table, which is sorted by opcode.
    table_index: FnvMap<u32, usize>,
    out: String,
    errors: Vec<String>,
}

fn escape(s: &str) -> String {
    format!("{s:?}")
}

fn version(v: Option<(u8, u8)>) -> String {
    match v {
        Some((a, b)) => format!("Some(({a}, {b}))"),
        None => "None".into(),
    }
}

fn str_list(list: &[String]) -> String {
    let mut s = String::from("&[");
    for (i, x) in list.iter().enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        s.push_str(&escape(x));
    }
    s.push(']');
    s
}

fn fnv1a(s: &str) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for b in s.bytes() {
        h ^= u32::from(b);
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

/// A name index: an open-addressing table built here and probed by the runtime with
/// the same FNV-1a hash (`grammar::NameIndex`).
fn name_index(entries: &[(String, usize)]) -> String {
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
    /// Prepares an emitter; `external` are the core kinds an extended grammar may use.
    pub fn new(g: &'a Grammar, opts: &'a Options, external: &[crate::model::ExternalKind]) -> Self {
        let mut kinds = FnvMap::default();
        let core_prefix = format!("{}::spv::", opts.krate);
        if !g.is_core {
            for k in external {
                kinds.insert(
                    k.name.to_owned(),
                    KindRef {
                        category: k.category,
                        has_parameters: k.has_parameters,
                        bases: k.bases.iter().map(|s| (*s).to_owned()).collect(),
                        prefix: core_prefix.clone(),
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
                    prefix: String::new(),
                },
            );
        }
        let mut opcodes: Vec<u32> = g.instructions.iter().map(|i| i.opcode).collect();
        opcodes.sort_unstable();
        let table_index = opcodes.iter().enumerate().map(|(i, &op)| (op, i)).collect();
        Emitter {
            g,
            krate: &opts.krate,
            kinds,
            table_index,
            out: String::with_capacity(1 << 20),
            errors: Vec::new(),
        }
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
                prefix: String::new(),
            })
        })
    }

    /// The path of a kind's table static.
    /// Valid in the generated modules that open with [`Self::table_prelude`].
    fn kind_table(&self, name: &str) -> String {
        let k = self.kind(name);
        let module = if k.prefix.is_empty() { "__k" } else { "__ck" };
        format!("&{module}::{}", naming::kind(name))
    }

    /// Short local names for the table types, in the generated table modules.
    fn table_prelude(&self) -> String {
        let kr = self.krate;
        let mut s = format!(
            "    #[allow(unused_imports)]\n    use {kr}::grammar::{{Enumerant as __E, InstructionInfo as __II, NameIndex as __NI, OperandInfo as __OI, OperandKind as __OK, Quantifier as __Q}};\n    #[allow(unused_imports)]\n    use super::kinds as __k;\n"
        );
        if !self.g.is_core {
            w!(
                s,
                "    #[allow(unused_imports)]\n    use {kr}::spv::kinds as __ck;\n"
            );
        }
        s
    }

    /// The Rust type of one occurrence of an operand of kind `name`.
    fn value_type(&self, name: &str) -> String {
        let k = self.kind(name).clone();
        let kr = self.krate;
        match k.category {
            Category::Id => format!("{kr}::Id"),
            Category::Literal => match class_of(name, k.category) {
                "String" => format!("{kr}::LiteralString"),
                "Float" => format!("{kr}::LiteralFloat"),
                "ContextNumber" => format!("{kr}::LiteralNumber"),
                _ => "u32".into(),
            },
            Category::ValueEnum | Category::BitEnum => {
                let ty = if k.has_parameters {
                    naming::data(name)
                } else {
                    naming::kind(name)
                };
                format!("{}{ty}", k.prefix)
            }
            Category::Composite => {
                let parts: Vec<String> = k.bases.iter().map(|b| self.value_type(b)).collect();
                format!("({})", parts.join(", "))
            }
        }
    }

    fn operand_type(&self, op: &Operand) -> String {
        let t = self.value_type(&op.kind);
        match op.quantifier {
            Quantifier::One => t,
            Quantifier::Optional => format!("::core::option::Option<{t}>"),
            Quantifier::Variadic => format!("{}::__private::Vec<{t}>", self.krate),
        }
    }

    fn operand_table(&self, ops: &[Operand]) -> String {
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

    fn meta_fields(&self, m: &Meta) -> String {
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

    fn meta_doc(m: &Meta) -> String {
        let mut s = String::new();
        if !m.capabilities.is_empty() {
            w!(s, "\n\nCapabilities: {}.", m.capabilities.join(", "));
        }
        if !m.extensions.is_empty() {
            w!(s, "\n\nExtensions: {}.", m.extensions.join(", "));
        }
        match (m.version, m.last_version) {
            (Some((a, b)), Some((c, d))) => w!(s, "\n\nSPIR-V {a}.{b} to {c}.{d}."),
            (Some((a, b)), None) => w!(s, "\n\nSPIR-V {a}.{b} and later."),
            (None, Some((c, d))) => w!(s, "\n\nUp to SPIR-V {c}.{d}."),
            (None, None) => {}
        }
        if m.provisional {
            s.push_str("\n\nProvisional.");
        }
        if !m.aliases.is_empty() {
            w!(s, "\n\nAlso spelled: {}.", m.aliases.join(", "));
        }
        s
    }

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

    /// Emits everything, or returns the naming clashes found.
    pub fn run(
        mut self,
        opts: &Options,
        path_for_tracking: Option<&str>,
    ) -> Result<String, Vec<String>> {
        let g = self.g;
        if let Some(p) = path_for_tracking {
            w!(
                self.out,
                "const _: &[u8] = ::core::include_bytes!({});\n",
                escape(p)
            );
        }
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
        if !self.errors.is_empty() {
            return Err(self.errors);
        }

        self.emit_header(opts);
        self.emit_kind_tables();
        if !opts.tables_only {
            for k in &g.kinds {
                self.emit_kind_type(k);
            }
            self.emit_opcode();
            self.emit_classes();
            self.emit_structs();
            self.emit_instruction_enum();
        }
        self.emit_grammar(opts);
        if self.errors.is_empty() {
            Ok(self.out)
        } else {
            Err(self.errors)
        }
    }

    fn emit_header(&mut self, opts: &Options) {
        let g = self.g;
        let o = &mut self.out;
        if g.is_core {
            if let Some(m) = g.magic_number {
                w!(
                    o,
                    "/// The SPIR-V magic number, from the grammar.\npub const MAGIC_NUMBER: u32 = {m:#010x};\n"
                );
            }
            if let Some(v) = g.major_version {
                w!(
                    o,
                    "/// The grammar's major SPIR-V version.\npub const MAJOR_VERSION: u32 = {v};\n"
                );
            }
            if let Some(v) = g.minor_version {
                w!(
                    o,
                    "/// The grammar's minor SPIR-V version.\npub const MINOR_VERSION: u32 = {v};\n"
                );
            }
        } else {
            w!(
                o,
                "/// The `OpExtInstImport` name of this set, if the invocation gave one.\npub const IMPORT_NAME: ::core::option::Option<&str> = {};\n",
                match &opts.import {
                    Some(s) => format!("Some({})", escape(s)),
                    None => "None".into(),
                }
            );
            if let Some(v) = g.version {
                w!(
                    o,
                    "/// The set's `version` key.\npub const VERSION: u32 = {v};\n"
                );
            }
        }
        if let Some(v) = g.revision {
            w!(
                o,
                "/// The grammar's revision.\npub const REVISION: u32 = {v};\n"
            );
        }
    }

    fn emit_kind_tables(&mut self) {
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

    fn emit_kind_type(&mut self, k: &Kind) {
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

    fn param_type(&self, params: &[Operand]) -> String {
        let parts: Vec<String> = params.iter().map(|p| self.operand_type(p)).collect();
        if parts.len() == 1 {
            parts[0].clone()
        } else {
            format!("({})", parts.join(", "))
        }
    }

    fn emit_value_data(&mut self, k: &Kind, ident: &str, sorted: &[&Enumerant]) {
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
    fn data_impls(&mut self, ident: &str, data: &str) {
        let kr = self.krate;
        w!(
            self.out,
            "impl ::core::fmt::Debug for {data} {{\n    fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {{\n        {kr}::typed::fmt_data(self, &kinds::{ident}, f)\n    }}\n}}\nimpl ::core::cmp::PartialEq for {data} {{\n    fn eq(&self, other: &Self) -> bool {{\n        {kr}::typed::same_encoding(self, other)\n    }}\n}}\nimpl ::core::cmp::Eq for {data} {{}}\n"
        );
    }

    fn emit_mask_data(&mut self, k: &Kind, ident: &str, sorted: &[&Enumerant]) {
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

    fn emit_opcode(&mut self) {
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
    fn emit_classes(&mut self) {
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

    fn fields_of(&self, inst: &'a Instruction) -> Vec<(String, String, &'a Operand)> {
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
    fn is_switch(&self, inst: &Instruction) -> bool {
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

    fn emit_structs(&mut self) {
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
            // Without operands the reader and writer go unused: unnamed parameters.
            let (r, w) = if fields.is_empty() {
                ("_", "_")
            } else {
                ("r", "w")
            };
            w!(
                s,
                "        fn decode({r}: &mut __R<'_>) -> ::core::result::Result<Self, {kr}::DecodeError> {{\n"
            );
            if fields.is_empty() {
                s.push_str("            Ok(Self {})\n");
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

    fn emit_instruction_enum(&mut self) {
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
            "impl Instruction {{\n    /// Decodes operand words (without the leading word-count/opcode word) of the instruction `opcode`.\n    ///\n    /// # Errors\n    /// An unknown {num}, missing or extra operands, or a malformed literal.\n    pub fn decode(opcode: Opcode, operands: &[u32], ctx: &{kr}::codec::DecodeContext) -> ::core::result::Result<Self, {kr}::DecodeError> {{\n        use {kr}::codec::Operand as __O;\n        let r = &mut {kr}::codec::Reader::new(operands, ctx);\n        let inst = match opcode.0 {{\n{dec}            _ => return Err(r.unknown_opcode(u32::from(opcode.0))),\n        }};\n        r.finish()?;\n        Ok(inst)\n    }}\n"
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

    /// Word width of one occurrence of a kind whose operands are all single words with
    /// no parameters and no hooks, or `None`.
    fn simple_width(&self, kind: &str) -> Option<u8> {
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
    /// simple operands shaped `One* Optional*` or `One* Variadic`; `None` otherwise.
    fn shape(&self, inst: &Instruction) -> Option<String> {
        if self.is_switch(inst) {
            return None;
        }
        let (mut fixed, mut optional, mut repeat) = (0u32, 0u32, 0u32);
        let (mut result_type, mut result) = (u8::MAX, u8::MAX);
        for (i, op) in inst.operands.iter().enumerate() {
            let w = u32::from(self.simple_width(&op.kind)?);
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

    fn emit_grammar(&mut self, opts: &Options) {
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
            "/// The grammar tables: instructions sorted by {}, operand kinds, and name lookups.\npub static GRAMMAR: {kr}::grammar::Grammar = {kr}::grammar::Grammar {{\n    name: {},\n    is_core: {},\n    import_name: {},\n    import_prefix: {},\n    magic_number: {},\n    major_version: {},\n    minor_version: {},\n    version: {},\n    revision: {},\n    instructions: &tables::INSTRUCTIONS,\n    opcode_index: &tables::OPCODE_INDEX,\n    operand_kinds: &[",
            if g.is_core { "opcode" } else { "number" },
            escape(&opts.name),
            g.is_core,
            opt_s(&opts.import),
            opt_s(&opts.import_prefix),
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

/// Inside `mod inst`, local kind types are reached through `super::`.
fn qualify_local(t: &str) -> String {
    // Local types are bare identifiers; prefix those that are not paths or primitives.
    let mut out = String::new();
    let mut word = String::new();
    let mut prev_colon = false;
    let flush = |word: &mut String, out: &mut String, prev_colon: bool| {
        if !word.is_empty() {
            let local = !prev_colon
                && word.starts_with(|c: char| c.is_ascii_uppercase())
                && !matches!(word.as_str(), "Vec" | "Box" | "Option");
            if local {
                out.push_str("super::");
            }
            out.push_str(word);
            word.clear();
        }
    };
    for c in t.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            word.push(c);
        } else {
            flush(&mut word, &mut out, prev_colon);
            prev_colon = c == ':';
            out.push(c);
        }
    }
    flush(&mut word, &mut out, prev_colon);
    out
}

/// `#[doc(alias = "…")]` with the grammar spelling, when it differs from the Rust name.
fn alias_attr(rust: &str, grammar: &str, indent: &str) -> String {
    if rust.trim_start_matches("r#") == grammar {
        String::new()
    } else {
        format!("{indent}#[doc(alias = {})]\n", escape(grammar))
    }
}

#[cfg(test)]
mod tests {
    use crate::Options;
    use crate::model;

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
            .run(&opts, None)
            .expect_err("refused");
        assert_eq!(errors.len(), 1);
        assert!(
            errors[0].starts_with(
                "/instructions/0/operands/0/kind (A): unknown operand kind \"Missing\""
            ),
            "{}",
            errors[0]
        );
    }
}
