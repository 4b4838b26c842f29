//! The checked grammar model: the JSON is read once into these types, and every
//! emitter works from them.
//!
//! Loading is staged: [`parse`] turns JSON text into a [`Grammar`] or a list of
//! [`ModelError`]s, each naming its JSON location. Nothing here panics on input.
//! [`parse`] checks the whole file; `items` reads one instruction, kind or operand list.

mod items;
mod parse;

pub use parse::parse;

use std::fmt;

/// How many times an operand occurs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Quantifier {
    /// Exactly once (no `quantifier` key).
    One,
    /// `?`: zero or one time.
    Optional,
    /// `*`: zero or more times.
    Variadic,
}

/// The category of an operand kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Category {
    /// A single enumerant value.
    ValueEnum,
    /// A mask of enumerant bits.
    BitEnum,
    /// An `<id>`.
    Id,
    /// A literal number or string.
    Literal,
    /// A tuple of other kinds.
    Composite,
}

impl Category {
    /// The grammar's spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Category::ValueEnum => "ValueEnum",
            Category::BitEnum => "BitEnum",
            Category::Id => "Id",
            Category::Literal => "Literal",
            Category::Composite => "Composite",
        }
    }
    fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "ValueEnum" => Category::ValueEnum,
            "BitEnum" => Category::BitEnum,
            "Id" => Category::Id,
            "Literal" => Category::Literal,
            "Composite" => Category::Composite,
            _ => return None,
        })
    }
}

/// One operand of an instruction, or one parameter of an enumerant.
#[derive(Debug, Clone)]
pub struct Operand {
    /// The operand kind's name.
    pub kind: String,
    /// How often it occurs.
    pub quantifier: Quantifier,
    /// The grammar's descriptive name, if any.
    pub name: Option<String>,
    /// Its JSON pointer in the file, for messages.
    pub at: String,
}

/// Metadata shared by instructions and enumerants.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Meta {
    /// Capabilities, any one of which enables the item.
    pub capabilities: Vec<String>,
    /// Extensions that enable the item.
    pub extensions: Vec<String>,
    /// First core version, `None` when absent or `"None"`.
    pub version: Option<(u8, u8)>,
    /// Last core version, if the item was removed.
    pub last_version: Option<(u8, u8)>,
    /// Whether the item is provisional.
    pub provisional: bool,
    /// Other names of the item; the first listed name is canonical.
    pub aliases: Vec<String>,
}

/// One instruction.
#[derive(Debug, Clone)]
pub struct Instruction {
    /// The grammar's name (`OpTypeInt`, or `Sqrt` in an extended set).
    pub opname: String,
    /// The opcode, or the extended instruction number.
    pub opcode: u32,
    /// The `class` key (core only).
    pub class: Option<String>,
    /// The operand layout.
    pub operands: Vec<Operand>,
    /// Capabilities, versions and aliases.
    pub meta: Meta,
}

/// One enumerant of a ValueEnum or BitEnum kind.
#[derive(Debug, Clone)]
pub struct Enumerant {
    /// The canonical name.
    pub name: String,
    /// The value (a bit pattern for BitEnum).
    pub value: u32,
    /// Operands that follow when this enumerant is present.
    pub parameters: Vec<Operand>,
    /// Capabilities, versions and aliases.
    pub meta: Meta,
    /// Its JSON pointer in the file, for messages.
    pub at: String,
}

/// One operand kind.
#[derive(Debug, Clone)]
pub struct Kind {
    /// The kind's name (`StorageClass`).
    pub name: String,
    /// Its category.
    pub category: Category,
    /// The `doc` key.
    pub doc: Option<String>,
    /// Enumerants in grammar order, synonyms folded into `meta.aliases`.
    pub enumerants: Vec<Enumerant>,
    /// Component kinds of a Composite.
    pub bases: Vec<String>,
    /// Its JSON pointer in the file (`/operand_kinds/3`), for messages; empty for a
    /// literal kind the specification defines and the file does not list.
    pub at: String,
}

impl Kind {
    /// Whether any enumerant takes parameters.
    pub fn has_parameters(&self) -> bool {
        self.enumerants.iter().any(|e| !e.parameters.is_empty())
    }
}

/// A core kind known to an extended grammar that does not define it.
#[derive(Debug, Clone, Copy)]
pub struct ExternalKind {
    /// The kind's name.
    pub name: &'static str,
    /// Its category.
    pub category: Category,
    /// Whether any enumerant has parameters.
    pub has_parameters: bool,
    /// Composite bases.
    pub bases: &'static [&'static str],
}

/// A whole grammar file.
#[derive(Debug, Clone)]
pub struct Grammar {
    /// True for a core grammar (it has `magic_number`).
    pub is_core: bool,
    /// `magic_number`, core only.
    pub magic_number: Option<u32>,
    /// `major_version`, core only.
    pub major_version: Option<u32>,
    /// `minor_version`, core only.
    pub minor_version: Option<u32>,
    /// `version` (extended sets) or `revision`.
    pub version: Option<u32>,
    /// `revision`.
    pub revision: Option<u32>,
    /// Instructions in grammar order, synonyms folded.
    pub instructions: Vec<Instruction>,
    /// Kinds defined in this file, in grammar order.
    pub kinds: Vec<Kind>,
    /// Number of `instructions` entries in the file (before folding synonyms).
    pub raw_instruction_count: usize,
    /// JSON pointers of the keys no reader knows (`/instructions/40/capability`), objects in
    /// file order, keys in name order within each.
    ///
    /// An unknown key is ignored, on purpose, not refused: the schema has grown keys over
    /// the years (`aliases`, `provisional`, `lastVersion`), so a grammar newer than this
    /// crate must still expand, and SPIRV-Headers has published a grammar with a misspelt
    /// key (`capability` on an instruction of OpenCL.DebugInfo.100, which SPIRV-Tools
    /// ignores too). Keys the schema defines but the expansion does not use (`copyright`,
    /// `instruction_printing_class`) are known, not listed here. The workspace's tests
    /// compare this list for every vendored grammar with a golden, so that a grammar
    /// update that brings a new key is reviewed.
    pub unknown_keys: Vec<String>,
}

impl Grammar {
    /// Finds a kind defined in this file.
    pub fn kind(&self, name: &str) -> Option<&Kind> {
        self.kinds.iter().find(|k| k.name == name)
    }

    /// Whether an operand of `kind` embeds a whole instruction (`OpSpecConstantOp`'s
    /// opcode, whose struct field is then the embedded instruction's operands).
    pub fn embeds(&self, kind: &str) -> bool {
        // The class test first: it rules out every other kind without a lookup.
        self.is_core
            && class_of(kind, Category::Literal) == "SpecConstantOpcode"
            && self
                .kind(kind)
                .is_some_and(|k| class_of(&k.name, k.category) == "SpecConstantOpcode")
    }
}

/// The fine-grained class of a kind, as the runtime's `KindClass` spells it.
pub fn class_of(name: &str, category: Category) -> &'static str {
    match category {
        Category::Id => match name {
            "IdResultType" => "ResultType",
            "IdResult" => "Result",
            _ => "Id",
        },
        Category::Literal => SPEC_LITERAL_KINDS
            .iter()
            .find(|(k, _)| *k == name)
            .map_or("Integer", |(_, class)| class),
        Category::ValueEnum => "ValueEnum",
        Category::BitEnum => "BitEnum",
        Category::Composite => "Composite",
    }
}

/// An error in the grammar, with its JSON location.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelError {
    /// A JSON pointer (`/instructions/3/operands/1/kind`), or `line:column` for syntax errors.
    pub location: String,
    /// The instruction or kind the location belongs to, if known.
    pub context: Option<String>,
    /// What was wrong and what was expected.
    pub message: String,
}

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.context {
            Some(c) => write!(f, "{} ({}): {}", self.location, c, self.message),
            None => write!(f, "{}: {}", self.location, self.message),
        }
    }
}

/// The literal operand kinds the SPIR-V specification defines (section 2.2.2), with the
/// `KindClass` tools treat each as: the one list of them. Other literal kinds a grammar
/// defines are plain integers.
pub const SPEC_LITERAL_KINDS: &[(&str, &str)] = &[
    ("LiteralInteger", "Integer"),
    ("LiteralString", "String"),
    ("LiteralFloat", "Float"),
    ("LiteralContextDependentNumber", "ContextNumber"),
    ("LiteralExtInstInteger", "ExtInstNumber"),
    ("LiteralSpecConstantOpInteger", "SpecConstantOpcode"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_synonyms_and_reports_locations() {
        let g = parse(
            r#"{"magic_number":"0x07230203","major_version":1,"minor_version":0,
            "instructions":[{"opname":"OpA","opcode":1},{"opname":"OpB","opcode":1}],
            "operand_kinds":[{"category":"ValueEnum","kind":"K","enumerants":[
               {"enumerant":"X","value":0},{"enumerant":"Y","value":"0x0"}]}]}"#,
            &[],
        )
        .expect("valid");
        assert_eq!(g.instructions.len(), 1);
        assert_eq!(g.instructions[0].meta.aliases, ["OpB"]);
        assert_eq!(g.kinds[0].enumerants[0].meta.aliases, ["Y"]);

        let e = parse(r#"{"instructions":[{"opname":"A","opcode":1,"operands":[{"kind":"Nope","quantifier":"+"}]}]}"#, &[])
            .expect_err("invalid");
        assert_eq!(e[0].location, "/instructions/0/operands/0/quantifier");
        let e = parse("{\n  \"instructions\": [,]}", &[]).expect_err("bad json");
        assert!(e[0].location.starts_with("2:"), "{:?}", e);
    }

    #[test]
    fn an_exact_repeat_is_skipped_and_a_different_one_is_an_error() {
        // The shape of the published revision that listed OpArbitraryFloatPowNINTEL twice.
        let inst = r#"{"opname":"OpPow","opcode":5,"operands":[{"kind":"IdRef","name":"'X'"}]}"#;
        let kind = r#"{"category":"ValueEnum","kind":"K","enumerants":[
               {"enumerant":"X","value":0},{"enumerant":"X","value":0}]}"#;
        let g = parse(
            &format!(r#"{{"instructions":[{inst},{inst}],"operand_kinds":[{kind}]}}"#),
            crate::CORE_KINDS,
        )
        .expect("an exact repeat expands");
        assert_eq!(g.instructions.len(), 1);
        assert!(g.instructions[0].meta.aliases.is_empty());
        assert_eq!(g.kinds[0].enumerants.len(), 1);

        let other = r#"{"opname":"OpPow","opcode":5,"operands":[{"kind":"IdRef","name":"'Y'"}]}"#;
        let e = parse(
            &format!(r#"{{"instructions":[{inst},{other}]}}"#),
            crate::CORE_KINDS,
        )
        .expect_err("two definitions under one name");
        assert_eq!(e.len(), 1, "{e:?}");
        assert_eq!(e[0].location, "/instructions/1");
        assert!(e[0].message.contains("used twice"), "{}", e[0]);
        let kind2 = r#"{"category":"ValueEnum","kind":"K","enumerants":[
               {"enumerant":"X","value":0},{"enumerant":"X","value":1}]}"#;
        let e = parse(
            &format!(r#"{{"instructions":[],"operand_kinds":[{kind2}]}}"#),
            &[],
        )
        .expect_err("two values under one enumerant name");
        assert_eq!(e[0].location, "/operand_kinds/0/enumerants/1");
    }

    #[test]
    fn an_extended_grammar_may_not_repeat_an_opcode_or_a_value() {
        // The core grammar's synonyms fold (above); an extended grammar's repeat is an
        // error naming both entries.
        let e = parse(
            r#"{"revision":1,"instructions":[{"opname":"A","opcode":1},{"opname":"B","opcode":2},
               {"opname":"C","opcode":1}],
               "operand_kinds":[{"category":"ValueEnum","kind":"K","enumerants":[
               {"enumerant":"X","value":0},{"enumerant":"Y","value":"0x0"}]}]}"#,
            crate::CORE_KINDS,
        )
        .expect_err("a repeated opcode and value");
        let shown: Vec<String> = e.iter().map(ToString::to_string).collect();
        assert_eq!(
            shown,
            [
                "/instructions/2 (C): opcode 1 is used twice (also by \"A\" at /instructions/0); \
                 a synonym is listed in the first entry's \"aliases\"",
                "/operand_kinds/0/enumerants/1 (K): value 0 is used twice in kind \"K\" (also by \
                 \"X\" at /operand_kinds/0/enumerants/0); a synonym is listed in the first entry's \
                 \"aliases\"",
            ]
        );
        // An alias said so is no repeat.
        let g = parse(
            r#"{"revision":1,"instructions":[{"opname":"A","opcode":1,"aliases":["C"]}]}"#,
            crate::CORE_KINDS,
        )
        .expect("aliases");
        assert_eq!(g.instructions[0].meta.aliases, ["C"]);
    }

    #[test]
    fn a_repeated_key_keeps_its_last_value_and_unknown_keys_are_recorded() {
        let g = parse(
            r#"{"instructions":[{"opname":"A","opname":"B","opcode":1,"colour":"red",
               "operands":[{"kind":"IdRef","nme":"x"}]}],"footnote":1}"#,
            crate::CORE_KINDS,
        )
        .expect("valid");
        assert_eq!(g.instructions[0].opname, "B");
        assert_eq!(
            g.unknown_keys,
            [
                "/footnote",
                "/instructions/0/colour",
                "/instructions/0/operands/0/nme"
            ]
        );
    }

    #[test]
    fn syntax_errors_say_line_and_column() {
        let e = parse("{\n  \"instructions\": [1,]\n}", &[]).expect_err("trailing comma");
        assert_eq!(e[0].location, "2:22");
        assert_eq!(
            e[0].to_string(),
            "2:22: invalid JSON: trailing comma at line 2 column 22"
        );
        // Nesting is bounded by serde_json's recursion limit, not by the file.
        let deep = format!("{{\"instructions\":{}", "[".repeat(10_000));
        let e = parse(&deep, &[]).expect_err("too deep");
        assert!(e[0].message.contains("recursion limit"), "{}", e[0]);
    }
}
