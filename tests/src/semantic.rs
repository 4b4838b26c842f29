//! Semantic mutants of valid SPIR-V modules, for the differential validator test
//! (`tests/tests/val/differential.rs`): one operand-level edit of the kind spirv-val's
//! rule families check, the module's layout left whole (a scope or memory-semantics
//! constant swapped for another integer constant, a result type for another type, an
//! image, atomic or extended-instruction operand for a constant of another type, a
//! built-in, group operation, storage class, image dimension or format for another
//! enumerant of its kind), where the structural mutants of [`crate::mutate`] mostly
//! break the layout or the id rules before any family's rule is reached.
//!
//! Each operand's word and kind come from one `spirv_core::walk` per instruction;
//! randomness from the seeded [`Rng`]; a description names the instruction edited as
//! [`crate::mutate`]'s do (`#N` and its `--raw-id` text).

use crate::mutate::{Dissected, Rng};
use spirv_core::grammar::{KindClass, OperandKind};
use spirv_core::walk::{self, WalkOptions};
use spirv_core::{Module, spv};
use std::collections::HashMap;

/// One kind of semantic edit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Semantic {
    /// An `IdScope` operand becomes another integer constant of the module.
    Scope,
    /// An `IdMemorySemantics` operand becomes another integer constant.
    Semantics,
    /// The result type of an atomic, image, group, extended, derivative, conversion or
    /// bit instruction becomes another type of the module.
    ResultType,
    /// An id operand of an `OpImage*` instruction becomes a constant of another type.
    ImageOperand,
    /// A value operand of an `OpAtomic*` instruction becomes a constant of another
    /// type.
    AtomicOperand,
    /// An operand of an `OpExtInst` becomes a constant of another type.
    ExtInstOperand,
    /// The last operand of an `OpExtInst` is dropped.
    ExtInstDrop,
    /// A `BuiltIn` decoration names another built-in.
    BuiltIn,
    /// A group operation becomes another one, or a group instruction's scope another
    /// integer constant.
    Group,
    /// A pointer type's or variable's storage class becomes another one.
    StorageClass,
    /// An `OpTypeImage`'s dimension, depth, arrayed, multisampled, sampled or format
    /// operand becomes another value.
    ImageType,
}

impl Semantic {
    /// Every kind, in the order tables list them.
    pub const ALL: [Semantic; 11] = [
        Semantic::Scope,
        Semantic::Semantics,
        Semantic::ResultType,
        Semantic::ImageOperand,
        Semantic::AtomicOperand,
        Semantic::ExtInstOperand,
        Semantic::ExtInstDrop,
        Semantic::BuiltIn,
        Semantic::Group,
        Semantic::StorageClass,
        Semantic::ImageType,
    ];

    /// A short name for tables and reports.
    pub fn name(self) -> &'static str {
        match self {
            Semantic::Scope => "scope",
            Semantic::Semantics => "semantics",
            Semantic::ResultType => "sem-result-type",
            Semantic::ImageOperand => "image-operand",
            Semantic::AtomicOperand => "atomic-operand",
            Semantic::ExtInstOperand => "ext-inst-operand",
            Semantic::ExtInstDrop => "ext-inst-drop",
            Semantic::BuiltIn => "built-in",
            Semantic::Group => "group",
            Semantic::StorageClass => "storage-class",
            Semantic::ImageType => "image-type",
        }
    }
}

/// A module read for semantic edits: its instructions, each operand's word and kind,
/// its constants and the type of every value.
#[derive(Debug, Clone)]
pub struct Facts {
    /// The instructions.
    pub module: Dissected,
    /// Per instruction: each operand's word index (in its words) and kind.
    operands: Vec<Vec<(usize, &'static OperandKind)>>,
    /// The results of `OpConstant`, `OpConstantTrue`/`False`, `OpConstantNull` and
    /// `OpConstantComposite`, in order.
    constants: Vec<u32>,
    /// The `OpConstant`s of an integer type.
    int_constants: Vec<u32>,
    /// The type of each value with a result type.
    type_of: HashMap<u32, u32>,
}

impl Facts {
    /// Reads `words` (a module that reads); `None` when it does not.
    pub fn new(words: &[u32]) -> Option<Self> {
        let module = Dissected::new(words).ok()?;
        let read = Module::from_words(words).ok()?;
        let mut operands = Vec::with_capacity(module.insts.len());
        let mut constants = Vec::new();
        let mut type_of = HashMap::new();
        let mut int_types = Vec::new();
        let mut int_constants = Vec::new();
        for (inst, d) in read.instructions().zip(&module.insts) {
            let mut list = Vec::new();
            if let Some(info) = inst.info() {
                let _ = walk::walk(
                    info,
                    inst.operands(),
                    read.ids(),
                    WalkOptions::default(),
                    &mut |p| {
                        if !p.unknown {
                            list.push((1 + p.start, p.kind));
                        }
                    },
                );
            }
            let w = &d.words;
            let op = d.opcode();
            if let (Some(t), Some(r)) = (d.id_at(KindClass::ResultType), d.id_at(KindClass::Result))
            {
                type_of.insert(w[r], w[t]);
                if matches!(
                    op,
                    spv::Opcode::Constant
                        | spv::Opcode::ConstantTrue
                        | spv::Opcode::ConstantFalse
                        | spv::Opcode::ConstantNull
                        | spv::Opcode::ConstantComposite
                ) {
                    constants.push(w[r]);
                    if op == spv::Opcode::Constant && int_types.contains(&w[t]) {
                        int_constants.push(w[r]);
                    }
                }
            }
            if op == spv::Opcode::TypeInt {
                int_types.extend(w.get(1));
            }
            operands.push(list);
        }
        Some(Facts {
            module,
            operands,
            constants,
            int_constants,
            type_of,
        })
    }

    /// `(instruction, word)` of every operand whose kind is named `kind` in the
    /// instructions `pick` accepts.
    fn slots(&self, kind: &str, pick: impl Fn(&str) -> bool) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for (i, ops) in self.operands.iter().enumerate() {
            let name = opname(self.module.insts[i].opcode());
            if !pick(name) {
                continue;
            }
            out.extend(ops.iter().filter(|o| o.1.name == kind).map(|o| (i, o.0)));
        }
        out
    }

    /// The id operands (not result nor result type) of the instructions `pick` accepts,
    /// from word `from` on.
    fn value_slots(&self, from: usize, pick: impl Fn(&str) -> bool) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for (i, inst) in self.module.insts.iter().enumerate() {
            if pick(opname(inst.opcode())) {
                out.extend(
                    inst.ids
                        .iter()
                        .filter(|&&(at, c)| c == KindClass::Id && at >= from)
                        .map(|&(at, _)| (i, at)),
                );
            }
        }
        out
    }

    /// A constant whose type differs from `old`'s (any constant when `old`'s type is
    /// unknown).
    fn other_constant(&self, old: u32, rng: &mut Rng) -> Option<u32> {
        let ty = self.type_of.get(&old);
        let pool: Vec<u32> = self
            .constants
            .iter()
            .copied()
            .filter(|c| c != &old && (ty.is_none() || self.type_of.get(c) != ty))
            .collect();
        rng.pick(&pool).copied()
    }
}

/// The grammar's name of `op`, `""` when unknown.
fn opname(op: spv::Opcode) -> &'static str {
    op.info().map_or("", |i| i.opname)
}

/// The instructions whose result type [`Semantic::ResultType`] changes.
fn typed_family(name: &str) -> bool {
    [
        "OpAtomic",
        "OpImage",
        "OpGroup",
        "OpSubgroup",
        "OpExtInst",
        "OpDPd",
        "OpFwidth",
        "OpSampledImage",
        "OpConvert",
        "OpBit",
        "OpRayQuery",
        "OpDot",
        "OpVectorTimes",
        "OpMatrixTimes",
    ]
    .iter()
    .any(|p| name.starts_with(p))
        && name != "OpExtInstImport"
}

/// One random semantic mutant of `facts` of `kind`: its words and a description, or
/// `None` when the module has nothing that kind can edit.
pub fn mutate_semantic(facts: &Facts, kind: Semantic, rng: &mut Rng) -> Option<(Vec<u32>, String)> {
    let module = &facts.module;
    let mut m = module.clone();
    let show = |i: usize| format!("#{} `{}`", i + 1, module.insts[i].text);
    let description = match kind {
        Semantic::Scope | Semantic::Semantics => {
            let wanted = if kind == Semantic::Scope {
                "IdScope"
            } else {
                "IdMemorySemantics"
            };
            let &(i, at) = rng.pick(&facts.slots(wanted, |_| true))?;
            let old = module.insts[i].words[at];
            let pool: Vec<u32> = facts
                .int_constants
                .iter()
                .copied()
                .filter(|&c| c != old)
                .collect();
            let new = *rng.pick(&pool)?;
            m.insts[i].words[at] = new;
            format!(
                "{wanted} operand (word {at}) of {}: %{old} -> %{new}",
                show(i)
            )
        }
        Semantic::ResultType => {
            let candidates: Vec<usize> = (0..module.insts.len())
                .filter(|&i| {
                    typed_family(opname(module.insts[i].opcode()))
                        && module.insts[i].id_at(KindClass::ResultType).is_some()
                })
                .collect();
            let i = *rng.pick(&candidates)?;
            let at = module.insts[i].id_at(KindClass::ResultType)?;
            let old = module.insts[i].words[at];
            let pool: Vec<u32> = module.types.iter().copied().filter(|&t| t != old).collect();
            let new = *rng.pick(&pool)?;
            m.insts[i].words[at] = new;
            format!("result type of {}: %{old} -> %{new}", show(i))
        }
        Semantic::ImageOperand | Semantic::AtomicOperand | Semantic::ExtInstOperand => {
            let (prefix, from) = match kind {
                Semantic::ImageOperand => ("OpImage", 1),
                Semantic::AtomicOperand => ("OpAtomic", 1),
                _ => ("OpExtInst", 5),
            };
            let mut slots =
                facts.value_slots(from, |n| n.starts_with(prefix) && n != "OpExtInstImport");
            // The scope and semantics operands are `Scope`'s and `Semantics`' to edit.
            slots.retain(|&(i, at)| {
                !facts.operands[i]
                    .iter()
                    .any(|o| o.0 == at && matches!(o.1.name, "IdScope" | "IdMemorySemantics"))
            });
            let &(i, at) = rng.pick(&slots)?;
            let old = module.insts[i].words[at];
            let new = facts.other_constant(old, rng)?;
            m.insts[i].words[at] = new;
            format!("operand (word {at}) of {}: %{old} -> %{new}", show(i))
        }
        Semantic::ExtInstDrop => {
            let candidates: Vec<usize> = (0..module.insts.len())
                .filter(|&i| {
                    module.insts[i].opcode() == spv::Opcode::ExtInst
                        && module.insts[i].words.len() > 5
                })
                .collect();
            let i = *rng.pick(&candidates)?;
            let inst = &mut m.insts[i];
            inst.words.pop();
            let count = inst.words.len() as u32;
            inst.words[0] = (count << 16) | (inst.words[0] & 0xffff);
            format!("drop the last operand of {}", show(i))
        }
        Semantic::BuiltIn => enumerant(facts, &mut m, "BuiltIn", |_| true, rng)?,
        Semantic::Group => {
            let scopes = facts.slots("IdScope", |n| n.starts_with("OpGroup"));
            if rng.below(2) == 0 && !scopes.is_empty() {
                let &(i, at) = rng.pick(&scopes)?;
                let old = module.insts[i].words[at];
                let pool: Vec<u32> = facts
                    .int_constants
                    .iter()
                    .copied()
                    .filter(|&c| c != old)
                    .collect();
                let new = *rng.pick(&pool)?;
                m.insts[i].words[at] = new;
                format!("group scope (word {at}) of {}: %{old} -> %{new}", show(i))
            } else {
                enumerant(facts, &mut m, "GroupOperation", |_| true, rng)?
            }
        }
        Semantic::StorageClass => enumerant(
            facts,
            &mut m,
            "StorageClass",
            |n| matches!(n, "OpTypePointer" | "OpVariable" | "OpTypeForwardPointer"),
            rng,
        )?,
        Semantic::ImageType => {
            let images: Vec<usize> = (0..module.insts.len())
                .filter(|&i| {
                    module.insts[i].opcode() == spv::Opcode::TypeImage
                        && module.insts[i].words.len() >= 9
                })
                .collect();
            let i = *rng.pick(&images)?;
            // Words: 3 Dim, 4 Depth, 5 Arrayed, 6 MS, 7 Sampled, 8 Image Format.
            match rng.below(3) {
                0 => enumerant_at(facts, &mut m, i, 3, rng)?,
                1 => enumerant_at(facts, &mut m, i, 8, rng)?,
                _ => {
                    let at = 4 + rng.below(4);
                    let old = module.insts[i].words[at];
                    let new = (old + 1 + rng.below(2) as u32) % 3;
                    m.insts[i].words[at] = new;
                    format!(
                        "image type literal (word {at}) of {}: {old} -> {new}",
                        show(i)
                    )
                }
            }
        }
    };
    let words = m.words();
    (words != module.words()).then_some((words, description))
}

/// Replaces a random operand of kind `kind` (in the instructions `pick` accepts) with
/// another enumerant of its kind that takes no parameters.
fn enumerant(
    facts: &Facts,
    m: &mut Dissected,
    kind: &str,
    pick: impl Fn(&str) -> bool,
    rng: &mut Rng,
) -> Option<String> {
    let &(i, at) = rng.pick(&facts.slots(kind, pick))?;
    enumerant_at(facts, m, i, at, rng)
}

/// Replaces the enumerant at word `at` of instruction `i` with another of its kind.
fn enumerant_at(
    facts: &Facts,
    m: &mut Dissected,
    i: usize,
    at: usize,
    rng: &mut Rng,
) -> Option<String> {
    let kind = facts.operands[i].iter().find(|o| o.0 == at)?.1;
    let old = facts.module.insts[i].words[at];
    let pool: Vec<u32> = kind
        .enumerants
        .iter()
        .filter(|e| e.parameters.is_empty() && e.value != old)
        .map(|e| e.value)
        .collect();
    let new = *rng.pick(&pool)?;
    m.insts[i].words[at] = new;
    let name = |v: u32| {
        kind.enumerants
            .iter()
            .find(|e| e.value == v)
            .map_or("?", |e| e.name)
    };
    Some(format!(
        "{} (word {at}) of #{} `{}`: {} -> {}",
        kind.name,
        i + 1,
        facts.module.insts[i].text,
        name(old),
        name(new)
    ))
}
