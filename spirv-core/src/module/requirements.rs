//! What a module needs and what it declares: the capabilities, extensions and versions
//! its instructions and enumerants require, from the grammar's metadata, per item and
//! for the whole module; and the capabilities, extensions and version a module
//! declares, capabilities closed under what each implicitly declares.

use super::{InstRef, Module};
use crate::__private::{String, Vec};
use crate::error::DecodeError;
use crate::grammar::{InstructionInfo, KindClass, OperandKind, Version};
use crate::spv;
use crate::walk::{self, WalkOptions};
use core::fmt;

/// What needs a [`Requirement`]: an instruction, or an enumerant of one of its operands.
/// Kinds compare by identity: each is one static table.
#[derive(Clone, Copy)]
#[non_exhaustive]
pub enum RequiredBy {
    /// The instruction itself.
    Instruction(spv::Opcode),
    /// An enumerant (a value, or one bit of a mask) of an operand of `kind`.
    Enumerant {
        /// The operand kind.
        kind: &'static OperandKind,
        /// The value, or the bit.
        value: u32,
    },
}

impl RequiredBy {
    /// A key that identifies the item: 0 and the opcode for an instruction, the kind
    /// table's address and the value for an enumerant.
    fn key(&self) -> (usize, u32) {
        match *self {
            RequiredBy::Instruction(op) => (0, u32::from(op.0)),
            RequiredBy::Enumerant { kind, value } => (core::ptr::from_ref(kind) as usize, value),
        }
    }
}

impl fmt::Debug for RequiredBy {
    /// The opcode, or the kind's name with the enumerant's name (the value if unknown):
    /// `Instruction(TypeMatrix)`, `Enumerant(Decoration::BufferBlock)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            RequiredBy::Instruction(op) => write!(f, "Instruction({op:?})"),
            RequiredBy::Enumerant { kind, value } => match kind.enumerant(value) {
                Some(e) => write!(f, "Enumerant({}::{})", kind.name, e.name),
                None => write!(f, "Enumerant({}({value}))", kind.name),
            },
        }
    }
}

impl PartialEq for RequiredBy {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}

impl Eq for RequiredBy {}

impl core::hash::Hash for RequiredBy {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.key().hash(state);
    }
}

/// What one instruction, or one enumerant it uses, needs (the grammar's
/// `capabilities`, `extensions`, `version` and `lastVersion`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Requirement {
    /// What needs it.
    pub item: RequiredBy,
    /// Capabilities (`Capability` values), any one of which enables it; empty when none
    /// is needed.
    pub capabilities: &'static [u32],
    /// Extensions, any one of which makes it available whatever the version.
    pub extensions: &'static [&'static str],
    /// The first SPIR-V version that has it; `None` when no core version does.
    pub version: Option<Version>,
    /// The last SPIR-V version that has it, if it was removed.
    pub last_version: Option<Version>,
}

/// Why a [`Requirement`] is not met by what a module declares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Unmet {
    /// None of its capabilities is declared (nor implied by a declared one).
    Capability,
    /// The module's version is too old for it (or no version has it), and none of its
    /// extensions is declared.
    Version {
        /// The first version that has it; `None` when no core version does.
        needed: Option<Version>,
    },
    /// It was removed after version `last`, which the module's version is past.
    Removed {
        /// The last version that has it.
        last: Version,
    },
}

impl fmt::Display for Unmet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unmet::Capability => f.write_str("none of its capabilities is declared"),
            Unmet::Version {
                needed: Some((a, b)),
            } => {
                write!(f, "needs SPIR-V {a}.{b} or one of its extensions")
            }
            Unmet::Version { needed: None } => f.write_str("needs one of its extensions"),
            Unmet::Removed { last: (a, b) } => write!(f, "was removed after SPIR-V {a}.{b}"),
        }
    }
}

impl Requirement {
    fn of_instruction(info: &'static InstructionInfo) -> Self {
        Requirement {
            item: RequiredBy::Instruction(spv::Opcode(info.opcode as u16)),
            capabilities: info.capabilities,
            extensions: info.extensions,
            version: info.version,
            last_version: info.last_version,
        }
    }

    fn of_enumerant(kind: &'static OperandKind, value: u32) -> Option<Self> {
        let e = kind.enumerant(value)?;
        // An extended set's own kinds state no versions: their enumerants need nothing.
        if !spv::GRAMMAR
            .operand_kinds
            .iter()
            .any(|k| core::ptr::eq(*k, kind))
        {
            return Some(Requirement {
                item: RequiredBy::Enumerant { kind, value },
                capabilities: &[],
                extensions: &[],
                version: Some((1, 0)),
                last_version: None,
            });
        }
        // A Capability enumerant's `capabilities` are those it implicitly declares,
        // not ones it needs.
        let capability = core::ptr::eq(kind, &spv::kinds::Capability);
        Some(Requirement {
            item: RequiredBy::Enumerant { kind, value },
            capabilities: if capability { &[] } else { e.capabilities },
            extensions: e.extensions,
            version: e.version,
            last_version: e.last_version,
        })
    }

    /// Whether what a module declares meets the requirement, as spirv-val checks it:
    /// one of its capabilities, if it has any; else its version or one of its
    /// extensions; and never past its last version.
    ///
    /// ```
    /// use spirv_core::{spv, Declared};
    /// let shader = Declared::new((1, 0), [spv::Capability::Shader.0], []);
    /// let matrix = spv::Opcode::TypeMatrix.info().map(spirv_core::Requirement::of);
    /// assert_eq!(matrix.map(|r| r.check(&shader)), Some(Ok(())), "Shader implies Matrix");
    /// ```
    ///
    /// # Errors
    /// The first way it is not met.
    pub fn check(&self, declared: &Declared) -> Result<(), Unmet> {
        let has_extension = self.extensions.iter().any(|e| declared.has_extension(e));
        if !self.capabilities.is_empty() {
            if !self
                .capabilities
                .iter()
                .any(|&c| declared.has_capability(c))
            {
                return Err(Unmet::Capability);
            }
        } else if !has_extension && self.version.is_none_or(|v| declared.version < v) {
            return Err(Unmet::Version {
                needed: self.version,
            });
        }
        match self.last_version {
            Some(last) if declared.version > last => Err(Unmet::Removed { last }),
            _ => Ok(()),
        }
    }

    /// The requirement of an instruction's own grammar entry (not its operands').
    pub fn of(info: &'static InstructionInfo) -> Self {
        Self::of_instruction(info)
    }
}

/// What a module declares: its version, its capabilities with every one they
/// implicitly declare (a `Capability` enumerant's `capabilities`, closed transitively),
/// and its extensions.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Declared {
    /// The SPIR-V version.
    pub version: Version,
    /// Declared and implied capabilities, sorted, each once.
    pub capabilities: Vec<u32>,
    /// Declared extensions, sorted, each once.
    pub extensions: Vec<String>,
}

impl Declared {
    /// A version, capabilities (closed under what they imply) and extensions.
    ///
    /// ```
    /// use spirv_core::{spv::Capability, Declared};
    /// let d = Declared::new((1, 3), [Capability::Shader.0], []);
    /// assert!(d.has_capability(Capability::Matrix.0), "Shader implies Matrix");
    /// ```
    pub fn new<'a>(
        version: Version,
        capabilities: impl IntoIterator<Item = u32>,
        extensions: impl IntoIterator<Item = &'a str>,
    ) -> Self {
        let extensions = extensions.into_iter().map(String::from).collect();
        Self::from_lists(version, capabilities.into_iter().collect(), extensions)
    }

    /// [`Self::new`] once its arguments are collected: one copy of the work, not one
    /// per pair of argument types.
    fn from_lists(version: Version, mut closed: Vec<u32>, mut extensions: Vec<String>) -> Self {
        // A worklist over the table: each capability is expanded once.
        closed.sort_unstable();
        closed.dedup();
        let mut pending: Vec<u32> = closed.clone();
        while let Some(c) = pending.pop() {
            let implied = spv::kinds::Capability
                .enumerant(c)
                .map_or(&[][..], |e| e.capabilities);
            for &i in implied {
                if let Err(at) = closed.binary_search(&i) {
                    closed.insert(at, i);
                    pending.push(i);
                }
            }
        }
        extensions.sort_unstable();
        extensions.dedup();
        Declared {
            version,
            capabilities: closed,
            extensions,
        }
    }

    /// What `module` declares: its header's version, its `OpCapability`s and its
    /// `OpExtension`s.
    pub fn of(module: &Module) -> Self {
        let mut capabilities = Vec::new();
        let mut extensions = Vec::new();
        for i in module.instructions() {
            match i.opcode() {
                spv::Opcode::Capability => capabilities.extend(i.operands().first()),
                spv::Opcode::Extension => {
                    extensions.push(crate::codec::string_operand(i.operands()))
                }
                _ => {}
            }
        }
        let names: Vec<String> = extensions
            .iter()
            .map(|b| String::from_utf8_lossy(b).into_owned())
            .collect();
        Declared::new(
            module.header().version(),
            capabilities,
            names.iter().map(String::as_str),
        )
    }

    /// Whether `capability` is declared or implied.
    pub fn has_capability(&self, capability: u32) -> bool {
        self.capabilities.binary_search(&capability).is_ok()
    }

    /// Whether `extension` is declared.
    pub fn has_extension(&self, extension: &str) -> bool {
        self.extensions
            .binary_search_by(|e| e.as_str().cmp(extension))
            .is_ok()
    }
}

impl InstRef<'_> {
    /// What this instruction needs: its own grammar entry's requirement, then one per
    /// enumerant (or mask bit) its operands use, in operand order.
    ///
    /// ```
    /// use spirv_core::{spv, spv::inst, Builder, RequiredBy};
    /// let mut b = Builder::new((1, 0));
    /// b.push(inst::Capability { capability: spv::Capability::Shader })?;
    /// let m = b.build()?;
    /// let r = m.instruction(0).unwrap().requirements()?;
    /// assert_eq!(r[0].item, RequiredBy::Instruction(spv::Opcode::Capability));
    /// assert!(matches!(r[1].item, RequiredBy::Enumerant { value: 1, .. }));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// The instruction's operands cannot all be laid out (see
    /// [`InstRef::visit_ids`]); an unknown opcode has no requirements (an empty list).
    pub fn requirements(&self) -> Result<Vec<Requirement>, DecodeError> {
        let mut out = Vec::new();
        self.each_requirement(&mut |r| out.push(r))?;
        Ok(out)
    }

    fn each_requirement(&self, f: &mut dyn FnMut(Requirement)) -> Result<(), DecodeError> {
        let Some(info) = self.info() else {
            return Ok(());
        };
        f(Requirement::of_instruction(info));
        let ops = self.operands();
        let mut each = |p: &walk::Parsed| {
            let v = ops[p.start];
            match p.kind.class {
                KindClass::ValueEnum => {
                    f(Requirement::of_enumerant(p.kind, v).unwrap_or_else(|| unknown(p.kind, v)))
                }
                KindClass::BitEnum => {
                    for bit in crate::grammar::set_bits(v) {
                        f(Requirement::of_enumerant(p.kind, bit)
                            .unwrap_or_else(|| unknown(p.kind, bit)));
                    }
                }
                _ => {}
            }
        };
        walk::walk(
            info,
            ops,
            &self.module.ids,
            WalkOptions::default(),
            &mut each,
        )
        .map_err(|(kind, at)| DecodeError::new(kind, self.offset() + 1 + at, self.index))?;
        Ok(())
    }
}

/// An enumerant the grammar does not know: in no version, needing nothing it can say.
fn unknown(kind: &'static OperandKind, value: u32) -> Requirement {
    Requirement {
        item: RequiredBy::Enumerant { kind, value },
        capabilities: &[],
        extensions: &[],
        version: None,
        last_version: None,
    }
}

impl Module {
    /// What the module needs: the requirements of every instruction and every
    /// enumerant it uses, each once, in order of first use.
    ///
    /// ```
    /// use spirv_core::{spv, spv::inst, Builder, Declared};
    /// let mut b = Builder::new((1, 0));
    /// b.push(inst::Capability { capability: spv::Capability::Shader })?;
    /// let (float, v4, m4) = (b.id()?, b.id()?, b.id()?);
    /// b.push(inst::TypeFloat { result_id: float, width: 32, floating_point_encoding: None })?;
    /// b.push(inst::TypeVector { result_id: v4, component_type: float, component_count: 4 })?;
    /// b.push(inst::TypeMatrix { result_id: m4, column_type: v4, column_count: 4 })?;
    /// let m = b.build()?;
    /// let needs = m.requirements()?;
    /// assert!(needs.unmet(&Declared::of(&m)).is_empty(), "Shader implies Matrix");
    /// let bare = needs.unmet(&Declared::new((1, 0), [], []));
    /// assert_eq!(bare.len(), 1, "OpTypeMatrix needs Matrix");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// An instruction whose operands cannot all be laid out (see [`InstRef::visit_ids`]).
    pub fn requirements(&self) -> Result<Requirements, DecodeError> {
        let mut items: Vec<Requirement> = Vec::new();
        // Each distinct requirement once: a small table of what was seen (instructions
        // by 0 and opcode, enumerants by their kind's number here, from 1, and value),
        // so the cost stays linear. The kinds are few (the grammars'), and keys of two
        // `u32`s make the map the one `DecorationIndex` already compiles.
        let mut seen = alloc::collections::BTreeMap::<(u32, u32), u32>::new();
        let mut kinds: Vec<&'static OperandKind> = Vec::new();
        for inst in self.instructions() {
            inst.each_requirement(&mut |r| {
                let key = match r.item {
                    RequiredBy::Instruction(op) => (0, u32::from(op.0)),
                    RequiredBy::Enumerant { kind, value } => {
                        let n = match kinds.iter().position(|&k| core::ptr::eq(k, kind)) {
                            Some(n) => n,
                            None => {
                                kinds.push(kind);
                                kinds.len() - 1
                            }
                        };
                        (n as u32 + 1, value)
                    }
                };
                if seen.insert(key, 0).is_none() {
                    items.push(r);
                }
            })?;
        }
        Ok(Requirements { items })
    }
}

/// What a module needs, from [`Module::requirements`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Requirements {
    /// Each instruction's and each enumerant's requirement, once, in order of first use.
    pub items: Vec<Requirement>,
}

impl Requirements {
    /// The requirements `declared` does not meet, with why.
    pub fn unmet(&self, declared: &Declared) -> Vec<(Requirement, Unmet)> {
        self.items
            .iter()
            .filter_map(|r| r.check(declared).err().map(|u| (*r, u)))
            .collect()
    }

    /// Whether `declared` meets every requirement.
    pub fn are_met_by(&self, declared: &Declared) -> bool {
        self.items.iter().all(|r| r.check(declared).is_ok())
    }

    /// The lowest version every requirement allows, if one does: the highest first
    /// version of the items no extension or capability enables (at least 1.0), or
    /// `None` when an item removed by then is needed too.
    pub fn min_version(&self) -> Option<Version> {
        let mut min = (1, 0);
        for r in self
            .items
            .iter()
            .filter(|r| r.capabilities.is_empty() && r.extensions.is_empty())
        {
            min = min.max(r.version?);
        }
        let removed = self
            .items
            .iter()
            .any(|r| r.last_version.is_some_and(|l| l < min));
        (!removed).then_some(min)
    }
}
