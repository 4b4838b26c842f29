//! What SPIRV-Tools 2025.5 knows, for every test that compares us with it. It is the
//! grammar of the SPIRV-Headers revision SPIRV-Tools 2025.5 was built from, kept in
//! `tests/fixtures/spirv-tools-2025.5/` (see the README there), plus `known-sets.tsv`:
//! the extended sets its tools know by import name.
//!
//! The vendored grammar (`grammar/`) may be newer. Whatever it has that this reference
//! lacks is [`Newer`]: names SPIRV-Tools does not know (added, or renamed to), items it
//! prints by another name (a rename, or an alias that became canonical), operand kinds,
//! extended sets, and operand layouts that changed. The differential tests leave that
//! out and print it, however the grammar moved on. They never guess newness from a
//! tool's error message.

use spirv_grammar_codegen::model::{
    self, Category, Enumerant, Grammar, Instruction, Kind, Operand,
};
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The tool whose knowledge this is, for messages.
pub const TOOL: &str = "SPIRV-Tools 2025.5";

/// The core grammar's file name, here and in `grammar/`.
const CORE: &str = "spirv.core.grammar.json";

/// The grammars SPIRV-Tools 2025.5 was built from.
#[derive(Debug)]
pub struct Reference {
    /// The core grammar.
    pub core: Grammar,
    /// Every extended set's grammar of that revision, by file name.
    pub sets: BTreeMap<String, Grammar>,
    /// The sets its tools know by `OpExtInstImport` name (the others they treat as
    /// unknown: numbers, every operand an id).
    pub known_sets: Vec<KnownSet>,
}

/// An extended set SPIRV-Tools 2025.5 knows by import name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KnownSet {
    /// The import name, or a prefix of it when [`Self::prefix`].
    pub import: String,
    /// Whether `import` is a prefix (`NonSemantic.ClspvReflection.` and a version).
    pub prefix: bool,
    /// The grammar file.
    pub file: String,
}

/// The folder holding the reference grammars.
pub fn dir() -> PathBuf {
    crate::workspace_root().join("tests/fixtures/spirv-tools-2025.5")
}

impl Reference {
    /// The reference, read once.
    ///
    /// # Panics
    /// If the fixture folder is missing or a file does not parse: the tests cannot judge
    /// anything without it.
    pub fn get() -> &'static Reference {
        static REF: OnceLock<Reference> = OnceLock::new();
        REF.get_or_init(|| Reference::read(&dir()))
    }

    fn read(dir: &Path) -> Reference {
        let core = parse(&dir.join(CORE));
        let mut sets = BTreeMap::new();
        for path in crate::files(dir, "json") {
            let file = file_name(&path);
            if file.starts_with("extinst.") {
                sets.insert(file, parse(&path));
            }
        }
        let list = dir.join("known-sets.tsv");
        let text =
            std::fs::read_to_string(&list).unwrap_or_else(|e| panic!("{}: {e}", list.display()));
        let known_sets = text
            .lines()
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(|l| {
                let f: Vec<&str> = l.split('\t').collect();
                let [import, how, file] = f[..] else {
                    panic!(
                        "{}: want `import<TAB>name|prefix<TAB>file`: {l}",
                        list.display()
                    )
                };
                assert!(sets.contains_key(file), "{}: no {file}", list.display());
                KnownSet {
                    import: import.to_owned(),
                    prefix: how == "prefix",
                    file: file.to_owned(),
                }
            })
            .collect();
        Reference {
            core,
            sets,
            known_sets,
        }
    }

    /// The grammar of a set the tools know by import name, by its file name.
    pub fn known_set(&self, file: &str) -> Option<&Grammar> {
        self.known_sets
            .iter()
            .any(|k| k.file == file)
            .then(|| self.sets.get(file))
            .flatten()
    }
}

/// What the vendored grammars have that SPIRV-Tools 2025.5 does not know.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Newer {
    /// Instruction and enumerant names it does not know: added items, and the new names
    /// of renamed ones. Core instructions as `OpName`, enumerants as `Kind::Name`,
    /// extended instructions as `file-stem::Name`.
    pub names: Vec<String>,
    /// Items both know that the vendored grammar names otherwise than the reference:
    /// `(ours, theirs)`, the canonical name in each. The disassemblers print these
    /// differently.
    pub renamed: Vec<(String, String)>,
    /// Operand kinds it does not know.
    pub kinds: Vec<String>,
    /// Extended sets (grammar files) it does not know by import name.
    pub sets: Vec<String>,
    /// Instructions and enumerants (by the reference's name) whose operands grew by
    /// trailing optional or variadic operands: the reference's form is valid for both.
    pub extended_layouts: Vec<String>,
    /// Instructions and enumerants (by the reference's name) whose operands changed
    /// otherwise: no text is valid for both, so they are left out.
    pub changed_layouts: Vec<String>,
}

/// How a vendored operand list relates to the reference's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// The same kinds and quantifiers.
    Same,
    /// The reference's operands followed by optional or variadic ones.
    Extended,
    /// Anything else.
    Changed,
}

/// Compares operand lists by kind and quantifier (names are documentation).
pub fn layout(ours: &[Operand], theirs: &[Operand]) -> Layout {
    let same = |a: &Operand, b: &Operand| a.kind == b.kind && a.quantifier == b.quantifier;
    if ours.len() < theirs.len() || !ours.iter().zip(theirs).all(|(a, b)| same(a, b)) {
        return Layout::Changed;
    }
    if ours.len() == theirs.len() {
        return Layout::Same;
    }
    let tail_optional = ours[theirs.len()..]
        .iter()
        .all(|o| o.quantifier != model::Quantifier::One);
    if tail_optional {
        Layout::Extended
    } else {
        Layout::Changed
    }
}

impl Newer {
    /// The vendored grammars (the folder spirv-core was generated from) against the
    /// reference, computed once.
    pub fn of_vendored() -> &'static Newer {
        static NEWER: OnceLock<Newer> = OnceLock::new();
        NEWER.get_or_init(|| {
            let dir = Path::new(spirv_grammar_codegen::vendored::DIR);
            let core = parse(&dir.join(CORE));
            let sets: Vec<(String, Grammar)> = spirv_grammar_codegen::vendored::SETS
                .iter()
                .map(|s| (s.file.to_owned(), parse(&dir.join(s.file))))
                .collect();
            Newer::between(&core, &sets, Reference::get())
        })
    }

    /// What `core` and `sets` (file name, grammar) have that `reference` lacks.
    pub fn between(core: &Grammar, sets: &[(String, Grammar)], reference: &Reference) -> Newer {
        let mut n = Newer::default();
        n.compare(core, &reference.core, "");
        for (file, ours) in sets {
            match reference.known_set(file) {
                Some(theirs) => n.compare(ours, theirs, &format!("{}::", stem(file))),
                None => n.sets.push(file.clone()),
            }
        }
        n
    }

    fn compare<'g>(&mut self, ours: &'g Grammar, theirs: &'g Grammar, prefix: &str) {
        for inst in &ours.instructions {
            let other = theirs.instructions.iter().find(|i| i.opcode == inst.opcode);
            self.item(
                prefix,
                names_of(inst),
                other.map(names_of),
                (&inst.operands, other.map(|o| o.operands.as_slice())),
            );
        }
        for kind in &ours.kinds {
            let Some(other) = theirs.kind(&kind.name) else {
                self.kinds.push(kind.name.clone());
                continue;
            };
            let prefix = format!("{}::", kind.name);
            for e in &kind.enumerants {
                let o = other.enumerants.iter().find(|x| x.value == e.value);
                let names =
                    |e: &'g Enumerant| std::iter::once(&e.name).chain(&e.meta.aliases).collect();
                self.item(
                    &prefix,
                    names(e),
                    o.map(names),
                    (&e.parameters, o.map(|o| o.parameters.as_slice())),
                );
            }
        }
    }

    /// One instruction or enumerant: `ours` and `theirs` list the canonical name first.
    /// A changed layout is listed under the reference's name, which is what a test that
    /// writes SPIRV-Tools' text looks up.
    fn item(
        &mut self,
        prefix: &str,
        ours: Vec<&String>,
        theirs: Option<Vec<&String>>,
        operands: (&[Operand], Option<&[Operand]>),
    ) {
        let theirs = theirs.unwrap_or_default();
        for name in &ours {
            if !theirs.contains(name) {
                self.names.push(format!("{prefix}{name}"));
            }
        }
        let (Some(a), Some(b)) = (ours.first(), theirs.first()) else {
            return;
        };
        if a != b {
            self.renamed.push(((*a).clone(), (*b).clone()));
        }
        let label = format!("{prefix}{b}");
        match operands.1.map(|t| layout(operands.0, t)) {
            Some(Layout::Extended) => self.extended_layouts.push(label),
            Some(Layout::Changed) => self.changed_layouts.push(label),
            _ => {}
        }
    }

    /// Whether the operands of the reference's `Kind::Name` enumerant or `OpName`
    /// instruction (or `set-stem::Name`) changed in a way no text is valid for both.
    pub fn layout_changed(&self, label: &str) -> bool {
        self.changed_layouts.iter().any(|l| l == label)
    }

    /// Whether the disassemblers print the same item as `ours` (we) and `theirs`
    /// (SPIRV-Tools 2025.5). An instruction counts without its `Op` too, as spirv-val
    /// names it in messages (`…: CooperativeMatrixReduceNV`).
    pub fn is_rename(&self, ours: &str, theirs: &str) -> bool {
        let bare = |n: &str, name: &str| n.strip_prefix("Op") == Some(name);
        self.renamed
            .iter()
            .any(|(o, t)| (o == ours && t == theirs) || (bare(o, ours) && bare(t, theirs)))
    }

    /// If `got` (our text) and `want` (SPIRV-Tools 2025.5's, or a golden made from it)
    /// differ only by names this grammar renamed since then, those `(ours, theirs)`
    /// pairs; `None` for any other difference. Every test that compares our text with
    /// SPIRV-Tools' goes through here (see [`crate::renames::renamed_only_by`]).
    pub fn renamed_only(&self, got: &[u8], want: &[u8]) -> Option<Vec<(String, String)>> {
        crate::renames::renamed_only_by(got, want, |o, t| self.is_rename(o, t))
    }

    /// Whether nothing is newer.
    pub fn is_empty(&self) -> bool {
        *self == Newer::default()
    }

    /// One line for test output: each list counted, with its first few entries.
    pub fn summary(&self) -> String {
        if self.is_empty() {
            return format!("nothing the vendored grammar has is unknown to {TOOL}");
        }
        let mut s = format!("unknown to {TOOL}, left out:");
        let renamed: Vec<String> = self
            .renamed
            .iter()
            .map(|(o, t)| format!("{o} (was {t})"))
            .collect();
        for (what, list) in [
            ("names", &self.names),
            ("renamed items", &renamed),
            ("operand kinds", &self.kinds),
            ("extended sets", &self.sets),
            ("grown layouts (old form used)", &self.extended_layouts),
            ("changed layouts", &self.changed_layouts),
        ] {
            if list.is_empty() {
                continue;
            }
            let shown: Vec<&str> = list.iter().take(6).map(String::as_str).collect();
            let more = if list.len() > shown.len() {
                ", …"
            } else {
                ""
            };
            let _ = write!(s, " {} {what} ({}{more});", list.len(), shown.join(", "));
        }
        s.pop();
        s
    }
}

/// An instruction's opname, then its aliases.
fn names_of(i: &Instruction) -> Vec<&String> {
    std::iter::once(&i.opname).chain(&i.meta.aliases).collect()
}

/// The kind a grammar defines under `name`, and its class as `spirv_core::grammar::KindClass`
/// spells it (`Id`, `Integer`, `ValueEnum`, …).
pub fn kind<'g>(g: &'g Grammar, name: &str) -> Option<(&'g Kind, &'static str)> {
    g.kind(name)
        .map(|k| (k, model::class_of(&k.name, k.category)))
}

/// Whether a kind is an enum (its operands are spelled by enumerant names).
pub fn is_enum(k: &Kind) -> bool {
    matches!(k.category, Category::ValueEnum | Category::BitEnum)
}

fn parse(path: &Path) -> Grammar {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    model::parse(&text, spirv_grammar_codegen::CORE_KINDS).unwrap_or_else(|errs| {
        let errs: Vec<String> = errs.iter().map(ToString::to_string).collect();
        panic!("{}: {}", path.display(), errs.join("; "))
    })
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// `glsl.std.450` of `extinst.glsl.std.450.grammar.json`.
fn stem(file: &str) -> &str {
    file.strip_prefix("extinst.")
        .and_then(|f| f.strip_suffix(".grammar.json"))
        .unwrap_or(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grammar(json: &str) -> Grammar {
        model::parse(json, spirv_grammar_codegen::CORE_KINDS).expect("parses")
    }

    /// Each way a grammar moves on lands in its list.
    #[test]
    fn newer_items_are_sorted_into_their_lists() {
        let old = r#"{"magic_number":"0x07230203","major_version":1,"minor_version":6,"instructions":[
            {"opname":"OpA","opcode":1,"operands":[{"kind":"IdRef"}]},
            {"opname":"OpB","opcode":2,"aliases":["OpBX"]},
            {"opname":"OpC","opcode":3,"operands":[{"kind":"IdRef"}]}],
          "operand_kinds":[{"category":"Id","kind":"IdRef"},
            {"category":"ValueEnum","kind":"E","enumerants":[{"enumerant":"One","value":1}]}]}"#;
        let new = r#"{"magic_number":"0x07230203","major_version":1,"minor_version":6,"instructions":[
            {"opname":"OpANew","opcode":1,"aliases":["OpA"],"operands":[{"kind":"IdRef"},{"kind":"IdRef","quantifier":"?"}]},
            {"opname":"OpBX","opcode":2,"aliases":["OpB"]},
            {"opname":"OpC","opcode":3,"operands":[{"kind":"F"}]},
            {"opname":"OpD","opcode":4}],
          "operand_kinds":[{"category":"Id","kind":"IdRef"},
            {"category":"ValueEnum","kind":"E","enumerants":[{"enumerant":"One","value":1},{"enumerant":"Two","value":2}]},
            {"category":"ValueEnum","kind":"F","enumerants":[{"enumerant":"X","value":0}]}]}"#;
        let reference = Reference {
            core: grammar(old),
            sets: BTreeMap::new(),
            known_sets: Vec::new(),
        };
        let n = Newer::between(&grammar(new), &[], &reference);
        assert_eq!(n.names, ["OpANew", "OpD", "E::Two"]);
        assert_eq!(
            n.renamed,
            [
                ("OpANew".into(), "OpA".into()),
                ("OpBX".into(), "OpB".into())
            ]
        );
        assert!(n.is_rename("OpBX", "OpB") && !n.is_rename("OpB", "OpBX"));
        assert!(n.is_rename("BX", "B") && !n.is_rename("B", "BX"));
        assert_eq!(n.kinds, ["F"]);
        assert_eq!(n.extended_layouts, ["OpA"]);
        assert_eq!(n.changed_layouts, ["OpC"]);
        assert!(n.summary().contains("3 names (OpANew, OpD, E::Two)"));
        let same = Newer::between(&reference.core, &[], &reference);
        assert!(same.is_empty(), "{same:?}");
    }

    /// The fixture parses, and names every set it says the tools know.
    #[test]
    fn the_reference_reads() {
        let r = Reference::get();
        assert!(r.core.instructions.len() > 800);
        assert!(r.known_sets.len() >= 10);
        assert!(r.known_set("extinst.glsl.std.450.grammar.json").is_some());
    }
}
