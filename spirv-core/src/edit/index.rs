//! Analyses for editing, each built on demand in one linear pass from a borrowed
//! [`Module`] and never updated: definitions by id, uses by id (compressed rows), and
//! the names and decorations that target each id (the decorations from the shared
//! [`DecorationIndex`]).

use crate::__private::Vec;
use crate::analysis::table::IdTable;
use crate::analysis::{DecorationIndex, DecorationRules};
use crate::error::DecodeError;
use crate::grammar::KindClass;
use crate::module::{Module, Section};
use crate::spv::Opcode as O;
use crate::types::Id;

/// The dense-index cap of an id table for `module`: twice its words.
fn cap(module: &Module) -> usize {
    module.word_len().saturating_mul(2).max(1024)
}

/// Where each id is defined: the index of the instruction whose result it is.
///
/// ```
/// use spirv_core::edit::DefIndex;
/// use spirv_core::{spv::inst, Builder};
/// let mut b = Builder::new((1, 0));
/// let int = b.id()?;
/// b.push(inst::TypeInt { result_id: int, width: 32, signedness: 1 })?;
/// let m = b.build()?;
/// assert_eq!(DefIndex::new(&m).get(int), Some(0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct DefIndex {
    defs: IdTable<u32>,
}

impl DefIndex {
    /// Indexes every result id of `module`.
    pub fn new(module: &Module) -> Self {
        let mut defs = IdTable::new();
        let cap = cap(module);
        for inst in module.instructions() {
            if let Some(id) = inst.result_id() {
                defs.insert(id.0, inst.index() as u32, cap);
            }
        }
        DefIndex { defs }
    }

    /// The index of the instruction that defines `id`.
    pub fn get(&self, id: Id) -> Option<usize> {
        self.defs.get(id.0).map(|&i| i as usize)
    }
}

/// Every use of every id: the instruction and the word (counted from the module's
/// start) of each id operand that is not a result id, in module order, as compressed
/// rows (one array of uses, one offset per id).
///
/// ```
/// use spirv_core::edit::UseIndex;
/// use spirv_core::{spv::inst, Builder, LiteralNumber};
/// let mut b = Builder::new((1, 0));
/// let (int, c) = (b.id()?, b.id()?);
/// b.push(inst::TypeInt { result_id: int, width: 32, signedness: 1 })?;
/// b.push(inst::Constant { result_type: int, result_id: c, value: LiteralNumber::from_u32(7) })?;
/// let m = b.build()?;
/// let uses = UseIndex::new(&m)?;
/// assert_eq!(uses.uses(int), [(1, 10)], "OpConstant's result type, at word 10");
/// assert!(!uses.is_used(c));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct UseIndex {
    /// Row of each id that has uses.
    rows: IdTable<u32>,
    /// `starts[r]..starts[r + 1]` are row `r`'s uses.
    starts: Vec<u32>,
    uses: Vec<(u32, u32)>,
}

impl UseIndex {
    /// Indexes the uses of every id in `module`: one walk to count, one to place.
    ///
    /// # Errors
    /// The ids of some instruction cannot all be found (an unknown opcode, an unknown
    /// enumerant that may take parameters, an `OpExtInst` of a set that is neither
    /// registered nor `NonSemantic.`).
    pub fn new(module: &Module) -> Result<Self, DecodeError> {
        let cap = cap(module);
        let mut rows: IdTable<u32> = IdTable::new();
        let mut counts: Vec<u32> = Vec::new();
        for inst in module.instructions() {
            let ops = inst.operands();
            inst.visit_id_words(|class, word| {
                if class != KindClass::Result {
                    let id = ops[word];
                    let row = match rows.get(id) {
                        Some(&r) => r,
                        None => {
                            counts.push(0);
                            *rows.insert(id, counts.len() as u32 - 1, cap)
                        }
                    };
                    counts[row as usize] += 1;
                }
            })?;
        }
        let mut starts = Vec::with_capacity(counts.len() + 1);
        let mut total = 0u32;
        for &c in &counts {
            starts.push(total);
            total += c;
        }
        starts.push(total);
        let mut fill: Vec<u32> = starts[..counts.len()].to_vec();
        let mut uses = alloc::vec![(0, 0); total as usize];
        for inst in module.instructions() {
            let (index, base, ops) = (inst.index() as u32, inst.offset() as u32, inst.operands());
            inst.visit_id_words(|class, word| {
                if class != KindClass::Result {
                    if let Some(&row) = rows.get(ops[word]) {
                        let at = &mut fill[row as usize];
                        uses[*at as usize] = (index, base + 1 + word as u32);
                        *at += 1;
                    }
                }
            })?;
        }
        Ok(UseIndex { rows, starts, uses })
    }

    /// The uses of `id`, in module order: `(instruction index, word offset)`, the
    /// offset counted from the module's start.
    pub fn uses(&self, id: Id) -> &[(u32, u32)] {
        match self.rows.get(id.0) {
            Some(&r) => {
                let (a, b) = (self.starts[r as usize], self.starts[r as usize + 1]);
                &self.uses[a as usize..b as usize]
            }
            None => &[],
        }
    }

    /// Whether `id` is used anywhere.
    pub fn is_used(&self, id: Id) -> bool {
        !self.uses(id).is_empty()
    }
}

/// The debug names and decorations of each id: the `OpName` and `OpMemberName`
/// instructions that name it, and, from the shared
/// [`DecorationIndex`](crate::analysis::DecorationIndex) under
/// [`DecorationRules::All`], the decoration instructions that target it (`OpDecorate`,
/// `OpDecorateId`, `OpDecorateString` and their member forms), the
/// `OpGroupDecorate`/`OpGroupMemberDecorate` that list it, and, for a decoration
/// group, those that apply it; the decorations are those of the annotation section.
#[derive(Debug)]
pub struct Annotations<'m> {
    names: IdTable<Vec<u32>>,
    decorations: DecorationIndex<'m>,
}

impl<'m> Annotations<'m> {
    /// Collects the names of `module`'s debug-name section and indexes its decorations.
    pub fn new(module: &'m Module) -> Self {
        let cap = cap(module);
        let mut names: IdTable<Vec<u32>> = IdTable::new();
        for inst in module.section(Section::DebugName) {
            if let (O::Name | O::MemberName, Some(&t)) = (inst.opcode(), inst.operands().first()) {
                let index = inst.index() as u32;
                match names.get_mut(t) {
                    Some(list) => list.push(index),
                    None => {
                        names.insert(t, alloc::vec![index], cap);
                    }
                }
            }
        }
        Annotations {
            names,
            decorations: DecorationIndex::of_annotations(module, DecorationRules::All),
        }
    }

    /// The indices of the instructions that name `id`.
    pub fn names(&self, id: Id) -> &[u32] {
        self.names.get(id.0).map_or(&[], |r| r)
    }

    /// The indices of the decoration instructions whose target is `id`, in module order.
    pub fn decorations(&self, id: Id) -> Vec<u32> {
        self.decorations.direct_instructions(id.0)
    }

    /// The indices of the `OpGroupDecorate`/`OpGroupMemberDecorate` instructions that
    /// list `id` among their targets, in module order.
    pub fn group_decorations(&self, id: Id) -> Vec<u32> {
        self.decorations.listing_instructions(id.0)
    }

    /// For a decoration group: the `OpGroupDecorate`/`OpGroupMemberDecorate`
    /// instructions that apply it, in module order.
    pub fn applications(&self, group: Id) -> Vec<u32> {
        self.decorations.applying_instructions(group.0)
    }
}
