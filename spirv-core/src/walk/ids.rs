//! What the walker learns about ids: number types, imported extended sets, value
//! types, and the registry of sets it can decode.

use super::Summary;
use crate::__private::Vec;
use crate::error::DecodeErrorKind;
use crate::grammar::Grammar;
use crate::spv;
use crate::types::Id;
use alloc::collections::BTreeMap;

/// The registry of extended instruction sets the reader, assembler and disassembler
/// know. It starts with every vendored set; [`ExtInstRegistry::register`] adds a set
/// generated in another crate by `include_grammar!`.
#[derive(Debug, Clone)]
pub struct ExtInstRegistry {
    // Borrowed until a set is registered: most registries are the vendored sets, and
    // every read makes one.
    sets: alloc::borrow::Cow<'static, [&'static Grammar]>,
}

impl Default for ExtInstRegistry {
    fn default() -> Self {
        ExtInstRegistry {
            sets: alloc::borrow::Cow::Borrowed(crate::ext::VENDORED),
        }
    }
}

impl ExtInstRegistry {
    /// A registry with no sets.
    pub fn empty() -> Self {
        ExtInstRegistry {
            sets: alloc::borrow::Cow::Borrowed(&[]),
        }
    }
    /// Adds a set; it takes precedence over earlier sets with the same import name.
    ///
    /// A set generated in your own crate registers the same way:
    /// `include_grammar!("my.grammar.json", import = "NonSemantic.My")` in `mod my_set`,
    /// then `registry.register(&my_set::GRAMMAR)`. Reading, the [`Builder`] and
    /// spirv-asm then know it by its import name. Here a vendored set joins an empty
    /// registry, so that a strict read knows that set alone:
    ///
    /// ```
    /// use spirv_core::{ext, spv::inst, Builder, DecodeErrorKind, ExtInstRegistry, Module, ReadOptions};
    /// let mut registry = ExtInstRegistry::empty();
    /// registry.register(&ext::glsl_std_450::GRAMMAR);
    /// let glsl = registry.lookup(b"GLSL.std.450").map(|g| g.name);
    /// assert_eq!(glsl, Some("GLSL.std.450"));
    /// assert!(registry.lookup(b"OpenCL.std").is_none());
    ///
    /// let mut b = Builder::new((1, 0));
    /// let (glsl, opencl) = (b.id()?, b.id()?);
    /// b.push(inst::ExtInstImport { result_id: glsl, name: "GLSL.std.450".into() })?;
    /// b.push(inst::ExtInstImport { result_id: opencl, name: "OpenCL.std".into() })?;
    /// let words = b.words();
    /// let strict = ReadOptions { strict: true, registry: Some(&registry), ..Default::default() };
    /// let err = Module::read(&words, &strict).unwrap_err();
    /// assert_eq!((err.kind, err.instruction), (DecodeErrorKind::UnknownExtInstImport, Some(1)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// [`Builder`]: crate::Builder
    pub fn register(&mut self, grammar: &'static Grammar) -> &mut Self {
        self.sets.to_mut().push(grammar);
        self
    }
    /// The set an `OpExtInstImport` name selects: the strongest match (the exact name,
    /// then a prefix, then a file-name stem; see [`Grammar::import_match`]), the one
    /// registered last among equals.
    pub fn lookup(&self, import_name: &[u8]) -> Option<&'static Grammar> {
        let mut best: Option<(u8, &'static Grammar)> = None;
        for &g in self.sets.iter().rev() {
            if let Some(rank) = g.import_match(import_name) {
                if best.is_none_or(|(b, _)| rank > b) {
                    best = Some((rank, g));
                }
            }
        }
        best.map(|(_, g)| g)
    }
    /// All sets, in registration order.
    pub fn sets(&self) -> &[&'static Grammar] {
        &self.sets
    }
}

/// The type of a context-dependent number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum NumberType {
    /// An integer of `width` bits.
    Int {
        /// Bit width.
        width: u32,
        /// Signedness.
        signed: bool,
    },
    /// A float of `width` bits, with the `OpTypeFloat` FP encoding operand if present.
    Float {
        /// Bit width.
        width: u32,
        /// FP encoding (`BFloat16KHR`, `Float8E4M3EXT`, …).
        encoding: Option<u32>,
    },
}

impl NumberType {
    /// Bit width.
    pub fn width(self) -> u32 {
        match self {
            NumberType::Int { width, .. } | NumberType::Float { width, .. } => width,
        }
    }
    /// Words a literal of this type takes: none for a width of 0 (as SPIRV-Tools'
    /// parser reads it), 1 up to 32 bits, 2 up to 64. Wider types take the rest of the
    /// instruction.
    pub fn words(self) -> Option<usize> {
        match self.width() {
            0 => Some(0),
            1..=32 => Some(1),
            33..=64 => Some(2),
            _ => None,
        }
    }
}

/// What is known about an id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum IdInfo {
    /// Not defined (yet).
    #[default]
    Undefined,
    /// A value of the given type.
    Value(Id),
    /// A numeric scalar type.
    Number(NumberType),
    /// An `OpExtInstImport`; the index into [`Ids::ext_sets`].
    ExtSet(u32),
    /// Any other definition.
    Other,
}

/// An extended set imported by a module.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct ImportedSet {
    /// The grammar, if the registry knows the name.
    pub grammar: Option<&'static Grammar>,
    /// Whether the name starts with `NonSemantic.`.
    pub non_semantic: bool,
}

impl ImportedSet {
    /// Whether a strict reader rejects this import: no registry entry matches its name
    /// and it is not a `NonSemantic.` set, whose instructions may always be skipped.
    pub fn is_unknown(&self) -> bool {
        self.grammar.is_none() && !self.non_semantic
    }
}

#[doc(hidden)]
/// Whether the instruction just [`observe`]d is an `OpExtInstImport` that a strict
/// reader rejects (see [`ImportedSet::is_unknown`]): the one check the module reader,
/// the assembler and the disassembler share.
pub fn unknown_import(ids: &Ids, opcode: u16) -> bool {
    opcode == spv::Opcode::ExtInstImport.0
        && ids.ext_sets.last().is_some_and(ImportedSet::is_unknown)
}

/// Per-id facts gathered while reading. Memory follows the ids that actually occur:
/// small ids live in a vector grown on demand up to a limit tied to the input's length,
/// others in a map, so a huge bound or id cannot exhaust memory.
#[derive(Debug, Clone, Default)]
pub struct Ids {
    /// The facts of small ids, packed (see [`Slot`]): a quarter of the size of an
    /// `IdInfo`, which matters for a table as long as the module's bound.
    dense: Vec<Slot>,
    /// The ids past the dense part, and the dense ids whose fact does not pack
    /// ([`Slot::SPARSE`]): each one's position in `sparse_facts`. A map of `u32` to
    /// `u32`, as `analysis::table::IdTable`'s, so that the crate compiles one kind of
    /// B-tree for both. An entry stays once made (its fact [`IdInfo::Undefined`] when
    /// the dense part holds the id's fact again), so an id keeps its position.
    sparse: BTreeMap<u32, u32>,
    sparse_facts: Vec<IdInfo>,
    limit: usize,
    /// The number types the dense part's slots point into.
    numbers: Vec<NumberType>,
    /// Sets imported so far, in order.
    pub ext_sets: Vec<ImportedSet>,
}

impl Ids {
    /// A table for an input of `words` words.
    pub fn new(words: usize) -> Self {
        Ids {
            dense: Vec::new(),
            sparse: BTreeMap::new(),
            sparse_facts: Vec::new(),
            limit: words.saturating_mul(2).max(1024),
            numbers: Vec::new(),
            ext_sets: Vec::new(),
        }
    }
    /// Raises the limit of the dense part to what an input of `words` words allows
    /// (for a table that grows with its input, as a builder's does); facts kept in the
    /// sparse part below the new limit move to the dense part.
    pub(crate) fn grow_limit(&mut self, words: usize) {
        let limit = words.saturating_mul(2).max(1024);
        if limit <= self.limit {
            return;
        }
        self.limit = limit;
        // Every sparse fact is placed again: those of ids below the new limit in the
        // dense part where they pack, the others in a new map.
        let sparse = core::mem::take(&mut self.sparse);
        let facts = core::mem::take(&mut self.sparse_facts);
        for (id, at) in sparse {
            let info = facts[at as usize];
            if info != IdInfo::Undefined {
                self.set(id, info);
            }
        }
    }

    /// What is known about `id`.
    #[inline]
    pub fn get(&self, id: Id) -> IdInfo {
        self.info(id.0)
    }

    #[inline]
    fn info(&self, id: u32) -> IdInfo {
        match self.dense.get(id as usize) {
            Some(&slot) if slot != Slot::SPARSE => self.unpack(slot),
            None if (id as usize) < self.limit => IdInfo::Undefined,
            _ => self.sparse_fact(id),
        }
    }
    /// The fact the sparse part holds for `id`.
    fn sparse_fact(&self, id: u32) -> IdInfo {
        self.sparse
            .get(&id)
            .map_or(IdInfo::Undefined, |&at| self.sparse_facts[at as usize])
    }
    /// Records `id`'s fact in the sparse part; returns what was there before.
    fn set_sparse(&mut self, id: u32, info: IdInfo) -> IdInfo {
        match self.sparse.get(&id) {
            Some(&at) => core::mem::replace(&mut self.sparse_facts[at as usize], info),
            None => {
                // As many entries as ids met, each at most once: a count, not a claim.
                self.sparse.insert(id, self.sparse_facts.len() as u32);
                self.sparse_facts.push(info);
                IdInfo::Undefined
            }
        }
    }
    /// Makes room for the ids below `bound` (as far as the table indexes ids densely,
    /// which is tied to the module's length), so that a read of a module whose header
    /// tells its bound does not grow the table step by step (each step a copy).
    #[cfg(feature = "edit")]
    #[doc(hidden)]
    pub fn reserve_below(&mut self, bound: u32) {
        let n = (bound as usize).min(self.limit);
        if n > self.dense.len() {
            self.dense.resize(n, Slot::UNDEFINED);
        }
    }

    /// Records `id`; returns what was there before.
    pub(crate) fn set(&mut self, id: u32, info: IdInfo) -> IdInfo {
        let i = id as usize;
        if i < self.limit {
            if i >= self.dense.len() {
                let grow = (i + 1).max(self.dense.len() * 2).min(self.limit);
                self.dense.resize(grow, Slot::UNDEFINED);
            }
            let slot = self.pack(info);
            let old = core::mem::replace(&mut self.dense[i], slot);
            if old != Slot::SPARSE && slot != Slot::SPARSE {
                return self.unpack(old);
            }
            // The sparse part holds the fact now, or lets go of the one it held.
            let kept = if slot == Slot::SPARSE {
                info
            } else {
                IdInfo::Undefined
            };
            let before = self.set_sparse(id, kept);
            if old == Slot::SPARSE {
                before
            } else {
                self.unpack(old)
            }
        } else {
            self.set_sparse(id, info)
        }
    }
    /// Records that `id` is a value of type `ty` ([`Ids::set`] of an
    /// [`IdInfo::Value`]); false when `id` was defined already (its fact is replaced,
    /// as `set` replaces it). An undefined dense slot is filled in place: what most
    /// definitions are.
    #[inline]
    pub(crate) fn define_value(&mut self, id: u32, ty: u32) -> bool {
        if ty <= Slot::PAYLOAD {
            if let Some(slot) = self.dense.get_mut(id as usize) {
                if *slot == Slot::UNDEFINED {
                    *slot = Slot(Slot::VALUE << Slot::TAG_SHIFT | ty);
                    return true;
                }
            }
        }
        self.set(id, IdInfo::Value(Id(ty))) == IdInfo::Undefined
    }

    /// The same facts under new ids: `f` gives each defined id's new number (`None`
    /// drops the fact); value types are renumbered too (a type `f` does not know stays).
    #[cfg(feature = "edit")]
    pub(crate) fn renumbered(&self, f: impl Fn(u32) -> Option<u32>) -> Ids {
        let mut out = Ids {
            dense: Vec::new(),
            sparse: BTreeMap::new(),
            sparse_facts: Vec::new(),
            limit: self.limit,
            numbers: Vec::new(),
            ext_sets: self.ext_sets.clone(),
        };
        let dense = self
            .dense
            .iter()
            .enumerate()
            .map(|(i, &slot)| (i as u32, self.unpack(slot)));
        let sparse = (self.sparse.iter()).map(|(&i, &at)| (i, self.sparse_facts[at as usize]));
        for (id, info) in dense.chain(sparse) {
            if info == IdInfo::Undefined {
                continue;
            }
            let Some(new) = f(id) else { continue };
            let info = match info {
                IdInfo::Value(t) => IdInfo::Value(Id(f(t.0).unwrap_or(t.0))),
                other => other,
            };
            out.set(new, info);
        }
        out
    }

    /// `info` as a slot of the dense part, or [`Slot::SPARSE`] when its type id or
    /// index does not fit beside the tag (the fact then goes to the sparse part).
    #[inline]
    fn pack(&mut self, info: IdInfo) -> Slot {
        let (tag, payload) = match info {
            IdInfo::Undefined => return Slot::UNDEFINED,
            IdInfo::Value(t) => (Slot::VALUE, t.0),
            IdInfo::Number(n) => {
                let at = self.numbers.len();
                match u32::try_from(at) {
                    Ok(at) if at <= Slot::PAYLOAD => {
                        self.numbers.push(n);
                        (Slot::NUMBER, at)
                    }
                    _ => return Slot::SPARSE,
                }
            }
            IdInfo::ExtSet(i) => (Slot::EXT_SET, i),
            IdInfo::Other => (Slot::OTHER, 0),
        };
        if payload > Slot::PAYLOAD {
            return Slot::SPARSE;
        }
        Slot(tag << Slot::TAG_SHIFT | payload)
    }

    /// The fact a slot of the dense part holds ([`IdInfo::Undefined`] for
    /// [`Slot::SPARSE`], whose fact is in the sparse part).
    #[inline]
    fn unpack(&self, slot: Slot) -> IdInfo {
        let payload = slot.0 & Slot::PAYLOAD;
        match slot.0 >> Slot::TAG_SHIFT {
            Slot::VALUE => IdInfo::Value(Id(payload)),
            Slot::NUMBER => self
                .numbers
                .get(payload as usize)
                .map_or(IdInfo::Other, |&n| IdInfo::Number(n)),
            Slot::EXT_SET => IdInfo::ExtSet(payload),
            Slot::OTHER => IdInfo::Other,
            _ => IdInfo::Undefined,
        }
    }

    /// The number type of a type id.
    pub fn number_type(&self, type_id: Id) -> Option<NumberType> {
        match self.info(type_id.0) {
            IdInfo::Number(n) => Some(n),
            _ => None,
        }
    }
    /// The number type of a value's type.
    pub fn value_number_type(&self, value_id: Id) -> Option<NumberType> {
        match self.info(value_id.0) {
            IdInfo::Value(t) => self.number_type(t),
            _ => None,
        }
    }
    /// The imported set a set id names.
    pub fn ext_set(&self, id: Id) -> Option<ImportedSet> {
        match self.info(id.0) {
            IdInfo::ExtSet(i) => self.ext_sets.get(i as usize).copied(),
            _ => None,
        }
    }
}

/// An [`IdInfo`] in 4 bytes: a tag in the bits from [`Slot::TAG_SHIFT`] up, the type id
/// or index below. A type id or index too large for the rest (2^29 and up, far past
/// any module's real ids) leaves the fact to the sparse part.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Slot(u32);

impl Slot {
    const UNDEFINED: Slot = Slot(0);
    const VALUE: u32 = 1;
    const NUMBER: u32 = 2;
    const EXT_SET: u32 = 3;
    const OTHER: u32 = 4;
    /// The fact is in the sparse part.
    const SPARSE: Slot = Slot(5 << Slot::TAG_SHIFT);
    /// Where the tag starts.
    const TAG_SHIFT: u32 = 29;
    /// The largest type id or index a slot holds.
    const PAYLOAD: u32 = (1 << Slot::TAG_SHIFT) - 1;
}

#[doc(hidden)]
/// Records what an instruction defines: number types, imported sets, value types.
///
/// # Errors
/// The result id was already defined.
#[inline]
pub fn observe(
    ids: &mut Ids,
    registry: &ExtInstRegistry,
    opcode: u16,
    operands: &[u32],
    summary: &Summary,
) -> Result<(), DecodeErrorKind> {
    let Some(id) = summary.result_id else {
        return Ok(());
    };
    // Most definitions are values, whose type is all there is to record; the rest are
    // read out of line.
    let fresh = match summary.result_type {
        Some(t) => ids.define_value(id, t),
        None => {
            let info = definition(ids, registry, opcode, operands);
            ids.set(id, info) == IdInfo::Undefined
        }
    };
    if !fresh {
        return Err(DecodeErrorKind::IdRedefined { id });
    }
    Ok(())
}

/// What an instruction without a result type defines.
#[inline(never)]
fn definition(ids: &mut Ids, registry: &ExtInstRegistry, opcode: u16, operands: &[u32]) -> IdInfo {
    if opcode == spv::Opcode::TypeInt.0 {
        IdInfo::Number(NumberType::Int {
            width: operands.get(1).copied().unwrap_or(0),
            signed: operands.get(2).is_some_and(|&s| s != 0),
        })
    } else if opcode == spv::Opcode::TypeFloat.0 {
        IdInfo::Number(NumberType::Float {
            width: operands.get(1).copied().unwrap_or(0),
            encoding: operands.get(2).copied(),
        })
    } else if opcode == spv::Opcode::ExtInstImport.0 {
        let name = crate::codec::string_operand(operands.get(1..).unwrap_or(&[]));
        let index = ids.ext_sets.len() as u32;
        ids.ext_sets.push(ImportedSet {
            grammar: registry.lookup(&name),
            non_semantic: name.starts_with(b"NonSemantic."),
        });
        IdInfo::ExtSet(index)
    } else {
        IdInfo::Other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Facts whose type id or index does not pack stay exact, and a later fact of the
    /// same id replaces them, whichever part holds each.
    #[test]
    fn large_type_ids_go_to_the_sparse_part() {
        let mut ids = Ids::new(64);
        let big = IdInfo::Value(Id(1 << 30));
        assert_eq!(ids.set(3, big), IdInfo::Undefined);
        assert_eq!(ids.get(Id(3)), big);
        assert_eq!(ids.set(3, IdInfo::Value(Id(7))), big);
        assert_eq!(ids.get(Id(3)), IdInfo::Value(Id(7)));
        assert_eq!(ids.set(3, big), IdInfo::Value(Id(7)));
        assert_eq!(ids.get(Id(3)), big);
        assert_eq!(ids.get(Id(4)), IdInfo::Undefined);
        // A value defined in place, then again (refused, its fact replaced as `set`
        // replaces it), and one whose type does not pack.
        assert!(ids.define_value(5, 9));
        assert_eq!(ids.get(Id(5)), IdInfo::Value(Id(9)));
        assert!(!ids.define_value(5, 1 << 30));
        assert_eq!(ids.get(Id(5)), big);
        assert!(ids.define_value(6, 1 << 30));
        assert!(!ids.define_value(6, 2));
        assert_eq!(ids.get(Id(6)), IdInfo::Value(Id(2)));
    }

    /// Raising the dense limit keeps every id's latest fact: ids past the old limit move
    /// in, and an id whose unpacked fact was replaced by a packed one keeps the packed.
    #[test]
    fn growing_the_limit_keeps_the_latest_facts() {
        let mut ids = Ids::new(64);
        let big = IdInfo::Value(Id(1 << 30));
        ids.set(3, big);
        ids.set(3, IdInfo::Value(Id(7)));
        ids.set(4, big);
        ids.set(2000, IdInfo::Other);
        ids.set(9000, IdInfo::Value(Id(8)));
        ids.grow_limit(1500);
        assert_eq!(ids.get(Id(3)), IdInfo::Value(Id(7)));
        assert_eq!(ids.get(Id(4)), big);
        assert_eq!(ids.get(Id(2000)), IdInfo::Other);
        assert_eq!(ids.get(Id(9000)), IdInfo::Value(Id(8)));
        assert_eq!(ids.get(Id(5)), IdInfo::Undefined);
    }

    /// A renumbered table keeps the facts of the sparse part's dense ids.
    #[cfg(feature = "edit")]
    #[test]
    fn renumbering_keeps_unpacked_facts() {
        let mut ids = Ids::new(64);
        ids.set(3, IdInfo::Value(Id(1 << 30)));
        let renumbered = ids.renumbered(|id| Some(id + 1));
        assert_eq!(renumbered.get(Id(4)), IdInfo::Value(Id((1 << 30) + 1)));
        assert_eq!(renumbered.get(Id(3)), IdInfo::Undefined);
    }
}
