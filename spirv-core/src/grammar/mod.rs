//! The static grammar tables that `include_grammar!` emits, and the traits and lookups
//! over them. Tools such as the assembler and disassembler are driven by these.

mod enums;

pub use enums::{Enum, Mask, MaskBits, fmt_mask, fmt_value, set_bits};

/// How many times an operand occurs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Quantifier {
    /// Exactly once.
    One,
    /// `?`: zero or one time.
    Optional,
    /// `*`: zero or more times.
    Variadic,
}

/// The grammar's category of an operand kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Category {
    /// One enumerant value.
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

/// How tools treat an operand kind: the category refined by the kind's role.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KindClass {
    /// `IdResultType`.
    ResultType,
    /// `IdResult`.
    Result,
    /// Any other id kind (`IdRef`, `IdScope`, `IdMemorySemantics`).
    Id,
    /// A 32-bit unsigned literal (`LiteralInteger` and unknown literal kinds).
    Integer,
    /// `LiteralString`.
    String,
    /// `LiteralFloat`: a 32-bit float.
    Float,
    /// `LiteralContextDependentNumber`: sized by a type.
    ContextNumber,
    /// `LiteralExtInstInteger`: an extended instruction number.
    ExtInstNumber,
    /// `LiteralSpecConstantOpInteger`: an embedded opcode.
    SpecConstantOpcode,
    /// A ValueEnum.
    ValueEnum,
    /// A BitEnum.
    BitEnum,
    /// A Composite.
    Composite,
}

/// A core SPIR-V version, `(major, minor)`.
pub type Version = (u8, u8);

#[doc(hidden)]
/// An open-addressing name table built at expansion time (FNV-1a, linear probing, at
/// most half full); `names` holds `(name, index)` and `slots` 1-based positions in it.
#[derive(Debug, Clone, Copy)]
pub struct NameIndex {
    /// Hash slots: 0 = empty, else 1 + a position in `names`.
    pub slots: &'static [u16],
    /// Names (canonical and aliases) with the index of their entry.
    pub names: &'static [(&'static str, usize)],
}

impl NameIndex {
    /// No names.
    pub const EMPTY: NameIndex = NameIndex {
        slots: &[],
        names: &[],
    };

    /// The hash the table was built with.
    pub fn hash(name: &[u8]) -> u32 {
        let mut h: u32 = 0x811c_9dc5;
        for &b in name {
            h ^= u32::from(b);
            h = h.wrapping_mul(0x0100_0193);
        }
        h
    }

    /// Looks a name up; returns its entry index.
    pub fn get(&self, name: &[u8]) -> Option<usize> {
        if self.slots.is_empty() {
            return None;
        }
        let mask = self.slots.len() - 1;
        let mut at = Self::hash(name) as usize & mask;
        // At most half the slots are used, so an empty one ends every probe.
        for _ in 0..self.slots.len() {
            let s = *self.slots.get(at)?;
            if s == 0 {
                return None;
            }
            let (n, idx) = *self.names.get(usize::from(s) - 1)?;
            if n.as_bytes() == name {
                return Some(idx);
            }
            at = (at + 1) & mask;
        }
        None
    }
}

/// One operand (or enumerant parameter) of a layout.
#[derive(Debug, Clone, Copy)]
pub struct OperandInfo {
    /// Its kind.
    pub kind: &'static OperandKind,
    /// How often it occurs.
    pub quantifier: Quantifier,
    /// The grammar's name, or empty.
    pub name: &'static str,
}

/// One enumerant of a ValueEnum or BitEnum kind.
#[derive(Debug, Clone, Copy)]
pub struct Enumerant {
    /// Canonical name.
    pub name: &'static str,
    /// Value (a bit pattern for masks).
    pub value: u32,
    /// Operands that follow when it is present.
    pub parameters: &'static [OperandInfo],
    /// Capabilities, any one of which enables it, as `Capability` values (for a
    /// `Capability` enumerant: those it implicitly declares).
    pub capabilities: &'static [u32],
    /// Extensions that enable it.
    pub extensions: &'static [&'static str],
    /// First version.
    pub version: Option<Version>,
    /// Last version.
    pub last_version: Option<Version>,
    /// Provisional.
    pub provisional: bool,
    /// Other names.
    pub aliases: &'static [&'static str],
}

impl Enumerant {
    /// Defaults for struct-update syntax in generated tables.
    #[doc(hidden)]
    pub const EMPTY: Enumerant = Enumerant {
        name: "",
        value: 0,
        parameters: &[],
        capabilities: &[],
        extensions: &[],
        version: None,
        last_version: None,
        provisional: false,
        aliases: &[],
    };
}

/// One operand kind. Its `Debug` is short (name, category, role, how many
/// enumerants, the bases' names): every operand of every instruction refers to a kind.
pub struct OperandKind {
    /// The kind's name.
    pub name: &'static str,
    /// Its category.
    pub category: Category,
    /// Its role.
    pub class: KindClass,
    /// The grammar's `doc`.
    pub doc: Option<&'static str>,
    /// Enumerants sorted by value; the canonical name comes first among equals.
    pub enumerants: &'static [Enumerant],
    /// Composite components.
    pub bases: &'static [&'static OperandKind],
    /// Name lookup over enumerants and aliases.
    #[doc(hidden)]
    pub index: NameIndex,
}

impl OperandKind {
    /// Defaults for struct-update syntax in generated tables.
    #[doc(hidden)]
    pub const EMPTY: OperandKind = OperandKind {
        name: "",
        category: Category::Literal,
        class: KindClass::Integer,
        doc: None,
        enumerants: &[],
        bases: &[],
        index: NameIndex::EMPTY,
    };

    /// The enumerant with exactly this value.
    pub fn enumerant(&self, value: u32) -> Option<&'static Enumerant> {
        let e = self.enumerants;
        // Most kinds number their first enumerants 0, 1, 2, …: a value found at its own
        // index, with no other of that value beside it, is the one the search finds.
        let v = value as usize;
        if let Some(x) = e.get(v).filter(|x| x.value == value) {
            let alone = (v == 0 || e[v - 1].value != value)
                && e.get(v + 1).is_none_or(|n| n.value != value);
            if alone {
                return Some(x);
            }
        }
        e.binary_search_by_key(&value, |e| e.value)
            .ok()
            .map(|i| &e[i])
    }

    /// The enumerant with this name or alias.
    pub fn enumerant_by_name(&self, name: &str) -> Option<&'static Enumerant> {
        self.enumerant_by_name_bytes(name.as_bytes())
    }

    /// Like [`Self::enumerant_by_name`], for bytes.
    pub fn enumerant_by_name_bytes(&self, name: &[u8]) -> Option<&'static Enumerant> {
        self.index.get(name).and_then(|i| self.enumerants.get(i))
    }

    /// Whether the kind is an id kind.
    pub fn is_id(&self) -> bool {
        matches!(
            self.class,
            KindClass::ResultType | KindClass::Result | KindClass::Id
        )
    }
}

/// A precomputed summary of a layout whose operands are single words without
/// parameters or hooks, shaped `One* Optional*` or `One* Variadic`: readers check such
/// an instruction's length and find its result without walking the operands.
///
/// A layout that goes on with optional operands of other kinds (`OpLoad`'s memory
/// operands, an image instruction's image operands) has the shape of its instructions
/// without them: [`Shape::accepts`] is false when they are present, and a reader walks
/// those instructions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    /// Words of the required operands.
    pub fixed: u8,
    /// Number of optional one-word operands after them.
    pub optional: u8,
    /// Word width of the trailing variadic operand, 0 if none.
    pub repeat: u8,
    /// Word index of the result type, `u8::MAX` if none.
    pub result_type: u8,
    /// Word index of the result id, `u8::MAX` if none.
    pub result: u8,
    /// Bit `k`: word `k` of the required and optional operands is an id.
    pub ids: u64,
    /// Bit `k`: word `k` of the required and optional operands is an enumerant.
    pub enums: u64,
    /// Bit `k`: word `k` of each repetition of the variadic operand is an id.
    pub repeat_ids: u8,
    /// Bit `k`: word `k` of each repetition of the variadic operand is an enumerant.
    pub repeat_enums: u8,
}

impl Shape {
    /// No operands, no result type, no result: the base the generated tables write
    /// each shape over.
    pub const EMPTY: Shape = Shape {
        fixed: 0,
        optional: 0,
        repeat: 0,
        result_type: u8::MAX,
        result: u8::MAX,
        ids: 0,
        enums: 0,
        repeat_ids: 0,
        repeat_enums: 0,
    };

    /// Whether `n` operand words fit the shape (with any optional operands of other
    /// kinds absent).
    #[inline]
    pub fn accepts(&self, n: usize) -> bool {
        let fixed = usize::from(self.fixed);
        if n < fixed {
            return false;
        }
        match self.repeat {
            0 => n <= fixed + usize::from(self.optional),
            // Most repeats are single words: no division for them.
            1 => true,
            k => (n - fixed) % usize::from(k) == 0,
        }
    }
}

/// One instruction of a grammar.
#[derive(Debug, Clone, Copy)]
pub struct InstructionInfo {
    /// The grammar name (`OpTypeInt`, `Sqrt`).
    pub opname: &'static str,
    /// Opcode or extended instruction number.
    pub opcode: u32,
    /// The `class` key, or empty.
    pub class: &'static str,
    /// Operand layout.
    pub operands: &'static [OperandInfo],
    /// Capabilities, any one of which enables it, as `Capability` values (for a
    /// `Capability` enumerant: those it implicitly declares).
    pub capabilities: &'static [u32],
    /// Extensions that enable it.
    pub extensions: &'static [&'static str],
    /// First version.
    pub version: Option<Version>,
    /// Last version.
    pub last_version: Option<Version>,
    /// Provisional.
    pub provisional: bool,
    /// Other names.
    pub aliases: &'static [&'static str],
    /// The fast-path shape, if the layout has one.
    pub shape: Option<Shape>,
    /// The generated struct's field names, one per operand in order, separated by
    /// spaces (for `Debug`; one string is cheaper to compile than a list).
    pub fields: &'static str,
    /// `OpSwitch`: the case literals are sized by the selector's type.
    pub switch_literals: bool,
}

impl InstructionInfo {
    /// Defaults for struct-update syntax in generated tables.
    #[doc(hidden)]
    pub const EMPTY: InstructionInfo = InstructionInfo {
        opname: "",
        opcode: 0,
        class: "",
        operands: &[],
        capabilities: &[],
        extensions: &[],
        version: None,
        last_version: None,
        provisional: false,
        aliases: &[],
        shape: None,
        fields: "",
        switch_literals: false,
    };

    /// Whether the instruction has a result id.
    pub fn has_result(&self) -> bool {
        self.operands
            .iter()
            .any(|o| o.kind.class == KindClass::Result)
    }
    /// Whether the instruction has a result type.
    pub fn has_result_type(&self) -> bool {
        self.operands
            .first()
            .is_some_and(|o| o.kind.class == KindClass::ResultType)
    }

    /// The operands this instruction has when `OpSpecConstantOp` embeds it: its layout
    /// without the result type and result id, which the `OpSpecConstantOp` carries.
    pub fn embedded_operands(&self) -> &'static [OperandInfo] {
        let skip = self
            .operands
            .iter()
            .take_while(|o| matches!(o.kind.class, KindClass::ResultType | KindClass::Result))
            .count();
        &self.operands[skip..]
    }
}

/// A whole grammar's tables. Its `Debug` is short (names, versions and how many
/// instructions and kinds); the tables themselves are `instructions` and
/// `operand_kinds`.
pub struct Grammar {
    /// The name given at expansion (import name or file name).
    pub name: &'static str,
    /// True for a core grammar.
    pub is_core: bool,
    /// Exact `OpExtInstImport` name (extended sets).
    pub import_name: Option<&'static str>,
    /// `OpExtInstImport` name prefix (extended sets with versioned names).
    pub import_prefix: Option<&'static str>,
    /// For a set vendored without a known import name: its file-name stem
    /// (`nonsemantic.foo` of `extinst.nonsemantic.foo.grammar.json`). An import name
    /// selects the set if it spells the stem, ignoring ASCII case, `_` and `-`, with or
    /// without a `.<digits>` version after it: `NonSemantic.Foo`, `NonSemantic.Foo.2`.
    pub import_stem: Option<&'static str>,
    /// `magic_number`.
    pub magic_number: Option<u32>,
    /// `major_version`.
    pub major_version: Option<u32>,
    /// `minor_version`.
    pub minor_version: Option<u32>,
    /// `version` of an extended set.
    pub version: Option<u32>,
    /// `revision`.
    pub revision: Option<u32>,
    /// Instructions sorted by opcode.
    pub instructions: &'static [InstructionInfo],
    /// Opcode → position in `instructions` (`u16::MAX` = none); empty when opcodes do
    /// not fit 16 bits, in which case lookups use binary search.
    pub opcode_index: &'static [u16],
    /// The kinds this grammar defines.
    pub operand_kinds: &'static [&'static OperandKind],
    #[doc(hidden)]
    /// Name lookup over opnames and aliases.
    pub names: NameIndex,
}

impl Grammar {
    /// The instruction with this opcode.
    #[inline]
    pub fn instruction(&self, opcode: u32) -> Option<&'static InstructionInfo> {
        let i = self.instructions;
        if !self.opcode_index.is_empty() {
            let at = *self.opcode_index.get(opcode as usize)?;
            return i.get(usize::from(at));
        }
        i.binary_search_by_key(&opcode, |i| i.opcode)
            .ok()
            .map(|k| &i[k])
    }
    /// The instruction with this name or alias.
    pub fn instruction_by_name(&self, name: &str) -> Option<&'static InstructionInfo> {
        self.instruction_by_name_bytes(name.as_bytes())
    }
    /// Like [`Self::instruction_by_name`], for bytes.
    pub fn instruction_by_name_bytes(&self, name: &[u8]) -> Option<&'static InstructionInfo> {
        self.names.get(name).and_then(|i| self.instructions.get(i))
    }
    /// A kind defined by this grammar.
    pub fn kind(&self, name: &str) -> Option<&'static OperandKind> {
        self.operand_kinds.iter().copied().find(|k| k.name == name)
    }
    /// Whether an `OpExtInstImport` name selects this set.
    pub fn matches_import(&self, name: &[u8]) -> bool {
        self.import_match(name).is_some()
    }

    /// How well an import name selects this set: 2 for its exact name, 1 for its
    /// prefix, 0 for its file-name stem; `None` if it does not. A registry prefers the
    /// strongest match, so a set named exactly is not hidden by one matched by stem.
    pub fn import_match(&self, name: &[u8]) -> Option<u8> {
        if self.import_name.is_some_and(|n| n.as_bytes() == name) {
            Some(2)
        } else if self
            .import_prefix
            .is_some_and(|p| name.starts_with(p.as_bytes()))
        {
            Some(1)
        } else if self
            .import_stem
            .is_some_and(|s| spells_stem(name, s.as_bytes()))
        {
            Some(0)
        } else {
            None
        }
    }
}

/// Whether an import name spells a file-name stem (see [`Grammar::import_stem`]).
fn spells_stem(name: &[u8], stem: &[u8]) -> bool {
    let ignored = |b: u8| matches!(b, b'_' | b'-');
    let mut i = 0;
    for &s in stem.iter().filter(|&&b| !ignored(b)) {
        while i < name.len() && ignored(name[i]) {
            i += 1;
        }
        if i == name.len() || !name[i].eq_ignore_ascii_case(&s) {
            return false;
        }
        i += 1;
    }
    // What is left: nothing, or a version `.<digits>`.
    match &name[i..] {
        [] => true,
        [b'.', digits @ ..] => !digits.is_empty() && digits.iter().all(u8::is_ascii_digit),
        _ => false,
    }
}

/// A few lines, not the tables: a grammar is reachable from many values
/// ([`ExtInstRef`](crate::ExtInstRef), every [`OperandInfo`]).
impl core::fmt::Debug for Grammar {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let mut d = f.debug_struct("Grammar");
        d.field("name", &self.name).field("is_core", &self.is_core);
        if let Some(name) = self.import_name {
            d.field("import_name", &name);
        }
        if let Some(prefix) = self.import_prefix {
            d.field("import_prefix", &prefix);
        }
        if let (Some(major), Some(minor)) = (self.major_version, self.minor_version) {
            d.field("version", &format_args!("{major}.{minor}"));
        } else if let Some(v) = self.version {
            d.field("version", &v);
        }
        if let Some(r) = self.revision {
            d.field("revision", &r);
        }
        d.field("instructions", &self.instructions.len())
            .field("operand_kinds", &self.operand_kinds.len())
            .finish_non_exhaustive()
    }
}

/// The kind's name and shape, not its enumerants' tables.
impl core::fmt::Debug for OperandKind {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        struct Names(&'static [&'static OperandKind]);
        impl core::fmt::Debug for Names {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_list()
                    .entries(self.0.iter().map(|k| k.name))
                    .finish()
            }
        }
        let mut d = f.debug_struct("OperandKind");
        d.field("name", &self.name)
            .field("category", &self.category)
            .field("class", &self.class);
        if !self.enumerants.is_empty() {
            d.field("enumerants", &self.enumerants.len());
        }
        if !self.bases.is_empty() {
            d.field("bases", &Names(self.bases));
        }
        d.finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::spells_stem;

    #[test]
    fn import_names_spell_a_file_stem_in_any_case_with_an_optional_version() {
        for (name, stem) in [
            ("NonSemantic.Foo", "nonsemantic.foo"),
            ("NonSemantic.Foo.12", "nonsemantic.foo"),
            ("SPV_AMD_gcn_shader", "spv-amd-gcn-shader"),
            ("Arm.MotionEngine.100", "arm.motion-engine.100"),
        ] {
            assert!(
                spells_stem(name.as_bytes(), stem.as_bytes()),
                "{name} ~ {stem}"
            );
        }
        for (name, stem) in [
            ("NonSemantic.Fo", "nonsemantic.foo"),
            ("NonSemantic.Foobar", "nonsemantic.foo"),
            ("NonSemantic.Foo.", "nonsemantic.foo"),
            ("NonSemantic.Foo.1a", "nonsemantic.foo"),
            ("NonSemanticFoo", "nonsemantic.foo"),
        ] {
            assert!(
                !spells_stem(name.as_bytes(), stem.as_bytes()),
                "{name} !~ {stem}"
            );
        }
    }
}
