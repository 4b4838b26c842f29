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

// After `w!`, which they use.
mod instructions;
mod kinds;
mod tables;

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
            // Lists of plain words (ids, integers, enumerants without parameters, pairs
            // of them) keep short lists inline; others are a Vec.
            Quantifier::Variadic if self.simple_width(&op.kind).is_some() => {
                format!("{}::List<{t}>", self.krate)
            }
            Quantifier::Variadic => format!("{}::__private::Vec<{t}>", self.krate),
        }
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
