//! Structural mutants of valid SPIR-V modules, made at the binary level, for the
//! differential validator test (`tests/tests/val/differential.rs`).
//!
//! A module is cut into its instructions once ([`Dissected`]), with the word position
//! and role of every id operand found by `spirv_core::walk`; each [`Mutation`] then
//! edits that list (delete, move, swap, retarget an id, duplicate, drop a particular
//! instruction, touch the header) and reassembles the words. Randomness comes from a
//! seeded [`Rng`], so a run is reproducible. Each mutant carries a description naming
//! the instructions it touched by their spirv-val line number (`#N`, 1-based, header
//! excluded) in the original module and their `--raw-id` disassembly.

use spirv_asm::DisOptions;
use spirv_core::grammar::KindClass;
use spirv_core::walk::{self, WalkOptions};
use spirv_core::{DecodeError, Module, spv};

/// xorshift64*: small, deterministic, good enough to pick positions.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed` (any value; 0 is replaced by a fixed odd constant).
    pub fn new(seed: u64) -> Self {
        Rng(if seed == 0 {
            0x9e37_79b9_7f4a_7c15
        } else {
            seed
        })
    }

    /// A generator for one named item of a run: the same `(seed, name)` always gives
    /// the same sequence, whatever else the run does.
    pub fn for_item(seed: u64, name: &str) -> Self {
        // FNV-1a over the name, mixed with the seed.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in name.bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
        Rng::new(h ^ seed.rotate_left(17))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }

    /// A random element of `items`, if any.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        (!items.is_empty()).then(|| &items[self.below(items.len())])
    }
}

/// One kind of structural edit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Mutation {
    /// Delete a random instruction.
    Delete,
    /// Move a random instruction to another random position.
    Move,
    /// Swap two adjacent instructions.
    SwapAdjacent,
    /// Replace an id operand (not a result or result type) with another id of the module.
    ReplaceId,
    /// Duplicate an instruction right after itself, with a fresh result id (the header
    /// bound is raised to cover it).
    Duplicate,
    /// Replace an instruction's result type with another type id.
    ReplaceResultType,
    /// Drop an `OpCapability`.
    DropCapability,
    /// Drop an `OpExtension`.
    DropExtension,
    /// Drop the `OpMemoryModel`.
    DropMemoryModel,
    /// Drop an `OpEntryPoint`.
    DropEntryPoint,
    /// Drop an `OpFunctionEnd`.
    DropFunctionEnd,
    /// Set a result id to the header's bound.
    ResultIdAtBound,
    /// Lower the header's version to 1.0.
    LowerVersion,
}

impl Mutation {
    /// Every kind, in the order tables list them.
    pub const ALL: [Mutation; 13] = [
        Mutation::Delete,
        Mutation::Move,
        Mutation::SwapAdjacent,
        Mutation::ReplaceId,
        Mutation::Duplicate,
        Mutation::ReplaceResultType,
        Mutation::DropCapability,
        Mutation::DropExtension,
        Mutation::DropMemoryModel,
        Mutation::DropEntryPoint,
        Mutation::DropFunctionEnd,
        Mutation::ResultIdAtBound,
        Mutation::LowerVersion,
    ];

    /// A short name for tables and reports.
    pub fn name(self) -> &'static str {
        match self {
            Mutation::Delete => "delete",
            Mutation::Move => "move",
            Mutation::SwapAdjacent => "swap-adjacent",
            Mutation::ReplaceId => "replace-id",
            Mutation::Duplicate => "duplicate",
            Mutation::ReplaceResultType => "replace-result-type",
            Mutation::DropCapability => "drop-capability",
            Mutation::DropExtension => "drop-extension",
            Mutation::DropMemoryModel => "drop-memory-model",
            Mutation::DropEntryPoint => "drop-entry-point",
            Mutation::DropFunctionEnd => "drop-function-end",
            Mutation::ResultIdAtBound => "result-id-at-bound",
            Mutation::LowerVersion => "lower-version",
        }
    }
}

/// One instruction of a [`Dissected`] module.
#[derive(Debug, Clone)]
pub struct Inst {
    /// All its words, the leading word included.
    pub words: Vec<u32>,
    /// Each id operand: its word index in [`Inst::words`] and its role.
    pub ids: Vec<(usize, KindClass)>,
    /// Its `--raw-id` disassembly on one line (or the opcode name when the
    /// disassembler could not give one).
    pub text: String,
}

impl Inst {
    /// The opcode.
    pub fn opcode(&self) -> spv::Opcode {
        spv::Opcode(self.words[0] as u16)
    }

    /// The word index of the first id operand with role `class`.
    pub fn id_at(&self, class: KindClass) -> Option<usize> {
        self.ids
            .iter()
            .find(|&&(_, c)| c == class)
            .map(|&(at, _)| at)
    }
}

/// A module cut into instructions, ready to mutate.
#[derive(Debug, Clone)]
pub struct Dissected {
    /// The five header words.
    pub header: [u32; 5],
    /// The instructions in order.
    pub insts: Vec<Inst>,
    /// Every distinct id an operand uses or defines, sorted.
    pub ids: Vec<u32>,
    /// The result ids of the type declarations (`OpType…`), in order.
    pub types: Vec<u32>,
}

impl Dissected {
    /// Cuts `words` (a module that reads) into instructions.
    ///
    /// # Errors
    /// The module does not read, or some instruction's operands cannot be laid out.
    pub fn new(words: &[u32]) -> Result<Self, DecodeError> {
        let module = Module::from_words(words)?;
        let texts = raw_texts(words, module.len());
        let mut insts = Vec::with_capacity(module.len());
        let mut ids = Vec::new();
        let mut types = Vec::new();
        for (i, inst) in module.instructions().enumerate() {
            let mut positions = Vec::new();
            if let Some(info) = inst.info() {
                let ops = inst.operands();
                walk::walk(info, ops, module.ids(), WalkOptions::default(), &mut |p| {
                    if p.kind.is_id() && !p.unknown {
                        positions.push((1 + p.start, p.kind.class));
                    }
                })
                .map_err(|(kind, at)| DecodeError::new(kind, inst.offset() + 1 + at, i))?;
                if info.opname.starts_with("OpType") {
                    types.extend(inst.result_id().map(|id| id.0));
                }
            }
            let words = inst.words().to_vec();
            ids.extend(positions.iter().map(|&(at, _)| words[at]));
            let text = texts.as_ref().map_or_else(
                || inst.info().map_or("Op?", |i| i.opname).to_owned(),
                |t| t[i].clone(),
            );
            insts.push(Inst {
                words,
                ids: positions,
                text,
            });
        }
        ids.sort_unstable();
        ids.dedup();
        Ok(Dissected {
            header: words[..5].try_into().expect("a module has a header"),
            insts,
            ids,
            types,
        })
    }

    /// The header's id bound.
    pub fn bound(&self) -> u32 {
        self.header[3]
    }

    /// The module's words (header and instructions).
    pub fn words(&self) -> Vec<u32> {
        let mut out = self.header.to_vec();
        for inst in &self.insts {
            out.extend_from_slice(&inst.words);
        }
        out
    }

    /// `#N \`text\``: instruction `index` as the descriptions name it.
    fn show(&self, index: usize) -> String {
        format!("#{} `{}`", index + 1, self.insts[index].text)
    }

    /// The indices of the instructions with `opcode`.
    fn indices_of(&self, opcode: spv::Opcode) -> Vec<usize> {
        (0..self.insts.len())
            .filter(|&i| self.insts[i].opcode() == opcode)
            .collect()
    }

    /// The indices of the instructions with an id operand of role `class`.
    fn indices_with(&self, class: KindClass) -> Vec<usize> {
        (0..self.insts.len())
            .filter(|&i| self.insts[i].id_at(class).is_some())
            .collect()
    }
}

/// Texts longer than this many characters are cut in descriptions.
const MAX_TEXT: usize = 120;

/// The `--raw-id` disassembly of each of the `count` instructions on one line (embedded
/// newlines escaped, long texts cut), if the disassembler gives one per instruction.
/// Instructions are told apart by the `--offsets` comment that ends each, since strings
/// (`OpSource` text) may hold newlines.
fn raw_texts(words: &[u32], count: usize) -> Option<Vec<String>> {
    let options = DisOptions {
        raw_id: true,
        header: false,
        indent: false,
        offsets: true,
        ..DisOptions::default()
    };
    let bytes = spirv_asm::disassemble(words, &options).ok()?;
    let text = String::from_utf8_lossy(&bytes);
    let mut texts = Vec::with_capacity(count);
    let mut current = String::new();
    for line in text.split('\n') {
        if !current.is_empty() {
            current.push_str("\\n");
        }
        let ends = line.rfind("; 0x").filter(|&at| {
            let hex = &line[at + 4..];
            hex.len() == 8 && hex.bytes().all(|b| b.is_ascii_hexdigit())
        });
        match ends {
            Some(at) => {
                current.push_str(line[..at].trim_end());
                texts.push(shorten(std::mem::take(&mut current)));
            }
            None => current.push_str(line),
        }
    }
    (texts.len() == count).then_some(texts)
}

/// `text`, cut to [`MAX_TEXT`] characters.
fn shorten(text: String) -> String {
    match text.char_indices().nth(MAX_TEXT) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text,
    }
}

/// A mutated module.
#[derive(Debug, Clone)]
pub struct Mutant {
    /// The kind of edit.
    pub kind: Mutation,
    /// The mutated module's words.
    pub words: Vec<u32>,
    /// What was changed, naming instructions as `#N` (spirv-val's line in the original
    /// module) with their `--raw-id` text.
    pub description: String,
}

/// One random mutant of `module` of `kind`, or `None` when the module has nothing that
/// kind can edit (no `OpExtension` to drop, version already 1.0, …) or the edit would
/// leave the module unchanged.
pub fn mutate(module: &Dissected, kind: Mutation, rng: &mut Rng) -> Option<Mutant> {
    let n = module.insts.len();
    let mut m = module.clone();
    let description = match kind {
        Mutation::Delete => {
            let i = rng.below(n);
            m.insts.remove(i);
            format!("delete {}", module.show(i))
        }
        Mutation::Move => {
            if n < 2 {
                return None;
            }
            let i = rng.below(n);
            let inst = m.insts.remove(i);
            let j = (i + 1 + rng.below(n - 1)) % n;
            m.insts.insert(j, inst);
            let place = if j < i {
                format!("before {}", module.show(j))
            } else {
                format!("after {}", module.show(j))
            };
            format!("move {} {place}", module.show(i))
        }
        Mutation::SwapAdjacent => {
            if n < 2 {
                return None;
            }
            let i = rng.below(n - 1);
            m.insts.swap(i, i + 1);
            format!("swap {} and {}", module.show(i), module.show(i + 1))
        }
        Mutation::ReplaceId => {
            let i = *rng.pick(&module.indices_with(KindClass::Id))?;
            let slots: Vec<usize> = module.insts[i]
                .ids
                .iter()
                .filter(|&&(_, c)| c == KindClass::Id)
                .map(|&(at, _)| at)
                .collect();
            let at = *rng.pick(&slots)?;
            let old = module.insts[i].words[at];
            let new = *rng.pick(&module.ids)?;
            m.insts[i].words[at] = new;
            format!(
                "replace id operand (word {at}) of {}: %{old} -> %{new}",
                module.show(i)
            )
        }
        Mutation::Duplicate => {
            let i = *rng.pick(&module.indices_with(KindClass::Result))?;
            let fresh = module.bound();
            let mut copy = module.insts[i].clone();
            let at = copy.id_at(KindClass::Result)?;
            copy.words[at] = fresh;
            m.insts.insert(i + 1, copy);
            m.header[3] = fresh + 1;
            format!(
                "duplicate {} as %{fresh} right after it (bound {fresh} -> {})",
                module.show(i),
                fresh + 1
            )
        }
        Mutation::ReplaceResultType => {
            let i = *rng.pick(&module.indices_with(KindClass::ResultType))?;
            let at = module.insts[i].id_at(KindClass::ResultType)?;
            let old = module.insts[i].words[at];
            let new = *rng.pick(&module.types)?;
            m.insts[i].words[at] = new;
            format!("result type of {}: %{old} -> %{new}", module.show(i))
        }
        Mutation::DropCapability => drop_one(&mut m, module, spv::Opcode::Capability, rng)?,
        Mutation::DropExtension => drop_one(&mut m, module, spv::Opcode::Extension, rng)?,
        Mutation::DropMemoryModel => drop_one(&mut m, module, spv::Opcode::MemoryModel, rng)?,
        Mutation::DropEntryPoint => drop_one(&mut m, module, spv::Opcode::EntryPoint, rng)?,
        Mutation::DropFunctionEnd => drop_one(&mut m, module, spv::Opcode::FunctionEnd, rng)?,
        Mutation::ResultIdAtBound => {
            let i = *rng.pick(&module.indices_with(KindClass::Result))?;
            let at = module.insts[i].id_at(KindClass::Result)?;
            let old = module.insts[i].words[at];
            m.insts[i].words[at] = module.bound();
            format!(
                "result id of {}: %{old} -> %{} (= the bound)",
                module.show(i),
                module.bound()
            )
        }
        Mutation::LowerVersion => {
            let old = module.header[1];
            m.header[1] = 0x0001_0000;
            format!(
                "header version {}.{} -> 1.0",
                (old >> 16) & 0xff,
                (old >> 8) & 0xff
            )
        }
    };
    let words = m.words();
    (words != module.words()).then_some(Mutant {
        kind,
        words,
        description,
    })
}

/// Removes a random instruction with `opcode` from `m` (a copy of `module`) and
/// describes it; `None` when there is none.
fn drop_one(
    m: &mut Dissected,
    module: &Dissected,
    opcode: spv::Opcode,
    rng: &mut Rng,
) -> Option<String> {
    let i = *rng.pick(&module.indices_of(opcode))?;
    m.insts.remove(i);
    Some(format!("drop {}", module.show(i)))
}
