//! How the reader follows the logical layout (spec §2.4) as it goes: section
//! boundaries, functions and their blocks, and every departure from the layout, which
//! a strict read refuses and a lenient read records ([`Module::layout_issues`]).
//!
//! Sections are assigned in file order and only move forward: an instruction that is
//! out of place stays in the current section, so writing the sections in order
//! reproduces the input exactly. Every `OpFunction` starts a function, terminated or
//! not, so [`Module::functions`] never loses one.
//!
//! [`Module::layout_issues`]: super::Module::layout_issues
//! [`Module::functions`]: super::Module::functions

use super::Section;
use crate::__private::Vec;
use crate::grammar::InstructionInfo;
use crate::spv;
use core::fmt;
use core::ops::Range;

/// A departure from the logical layout (SPIR-V spec §2.4) that a lenient read kept.
/// What the reader checks is structure only; the validator checks the rest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum LayoutIssueKind {
    /// An instruction, outside any function, whose section comes before the section the
    /// module had already reached.
    OutOfOrder {
        /// The instruction's section.
        section: Section,
        /// The section reached before it.
        after: Section,
    },
    /// An instruction that belongs inside a function (`OpLabel`, `OpLoad`,
    /// `OpFunctionEnd`, …), outside one.
    OutsideFunction {
        /// Its opcode.
        opcode: spv::Opcode,
    },
    /// An instruction that belongs outside functions (a type, a decoration, …) inside
    /// one.
    InsideFunction {
        /// Its section.
        section: Section,
    },
    /// A function without `OpFunctionEnd`: another `OpFunction` began inside it, or the
    /// module ended. Reported at its `OpFunction`.
    UnterminatedFunction,
}

/// One departure from the logical layout: what, and where.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct LayoutIssue {
    /// What is out of place.
    pub kind: LayoutIssueKind,
    /// The 0-based index of the instruction.
    pub instruction: usize,
    /// The word offset of the instruction from the module start.
    pub offset: usize,
}

impl fmt::Display for LayoutIssueKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LayoutIssueKind::OutOfOrder { section, after } => {
                write!(f, "a {section:?} instruction after the {after:?} section")
            }
            LayoutIssueKind::OutsideFunction { opcode } => {
                write!(f, "{opcode:?} outside a function")
            }
            LayoutIssueKind::InsideFunction { section } => {
                write!(f, "a {section:?} instruction inside a function")
            }
            LayoutIssueKind::UnterminatedFunction => f.write_str("function without OpFunctionEnd"),
        }
    }
}

impl From<&LayoutIssue> for crate::DecodeError {
    fn from(issue: &LayoutIssue) -> Self {
        crate::DecodeError::new(
            crate::DecodeErrorKind::Layout(issue.kind),
            issue.offset,
            issue.instruction,
        )
    }
}

impl fmt::Display for LayoutIssue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} (instruction {}, word {})",
            self.kind, self.instruction, self.offset
        )
    }
}

/// A function: its instruction range (from `OpFunction`, to `OpFunctionEnd` included
/// when there is one) and its blocks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct FunctionRec {
    pub(super) insts: Range<u32>,
    pub(super) blocks: Range<u32>,
    pub(super) terminated: bool,
}

/// The layout as read so far.
#[derive(Debug)]
pub struct Layout {
    /// `sections[s]` is the index of the first instruction of section `s`; the last
    /// entry is the instruction count.
    pub(super) sections: [u32; Section::COUNT + 1],
    pub(super) functions: Vec<FunctionRec>,
    /// Indexes of the `OpLabel`s of every function, in order.
    pub(super) blocks: Vec<u32>,
    /// Every departure from the layout, in order.
    pub(crate) issues: Vec<LayoutIssue>,
    current: Section,
    /// The open function: its `OpFunction`'s index and offset, and its first block.
    open: Option<(u32, usize, u32)>,
    in_graph: bool,
}

/// [`Section::of`] by opcode, direct-mapped on its low byte: `(opcode + 1) << 8`, then
/// the section's place in [`Section::ALL`] (`0xff` for none); 0 for an empty slot. An
/// instruction's class is a name in the tables, and matching it for every instruction
/// was a sixth of a read's time. One table for the process, since the answer depends
/// on the opcode alone: a small module no longer pays for the opcodes it first meets.
/// Racing writers store the same value.
#[cfg(target_has_atomic = "32")]
static SECTIONS: [core::sync::atomic::AtomicU32; 256] =
    [const { core::sync::atomic::AtomicU32::new(0) }; 256];

impl Default for Layout {
    fn default() -> Self {
        Layout::new()
    }
}

impl Layout {
    /// How many departures from the logical layout were found so far.
    #[cfg(feature = "edit")]
    pub fn issue_count(&self) -> usize {
        self.issues.len()
    }

    /// The state before a module's first instruction.
    pub fn new() -> Self {
        Layout {
            sections: [0; Section::COUNT + 1],
            functions: Vec::new(),
            blocks: Vec::new(),
            issues: Vec::new(),
            current: Section::Capability,
            open: None,
            in_graph: false,
        }
    }

    /// [`Section::of`], through the cache.
    #[inline]
    fn section_of(
        &mut self,
        opcode: spv::Opcode,
        info: Option<&InstructionInfo>,
    ) -> Option<Section> {
        #[cfg(target_has_atomic = "32")]
        {
            use core::sync::atomic::Ordering::Relaxed;
            let key = (u32::from(opcode.0) + 1) << 8;
            let slot = &SECTIONS[usize::from(opcode.0 as u8)];
            let v = slot.load(Relaxed);
            if v & !0xff == key {
                return Section::ALL.get((v & 0xff) as usize).copied();
            }
            let s = Section::of(opcode, info);
            slot.store(key | s.map_or(0xff, |s| s as u32), Relaxed);
            s
        }
        #[cfg(not(target_has_atomic = "32"))]
        Section::of(opcode, info)
    }

    /// Takes instruction `index`, at word `offset`, into account; a departure from the
    /// layout is recorded in `issues`.
    #[inline]
    pub fn step(
        &mut self,
        index: u32,
        offset: usize,
        opcode: spv::Opcode,
        info: Option<&InstructionInfo>,
    ) {
        if let Some(kind) = self.place(index, offset, opcode, info) {
            self.issues.push(LayoutIssue {
                kind,
                instruction: index as usize,
                offset,
            });
        }
    }

    #[inline]
    fn place(
        &mut self,
        index: u32,
        offset: usize,
        opcode: spv::Opcode,
        info: Option<&InstructionInfo>,
    ) -> Option<LayoutIssueKind> {
        use spv::Opcode as O;
        if opcode == O::Function {
            // An open function ends where the next begins.
            self.close(index, false);
            let order = self.advance(Section::Function, index);
            self.open = Some((index, offset, self.blocks.len() as u32));
            return order;
        }
        if self.open.is_some() {
            return match opcode {
                O::FunctionEnd => {
                    self.close(index + 1, true);
                    None
                }
                O::Label => {
                    self.blocks.push(index);
                    None
                }
                _ => match self.section_of(opcode, info) {
                    Some(s) if s != Section::Function && !Section::also_in_functions(opcode) => {
                        Some(LayoutIssueKind::InsideFunction { section: s })
                    }
                    _ => None,
                },
            };
        }
        let section = self.section_of(opcode, info);
        if self.in_graph {
            self.in_graph = opcode != O::GraphEndARM;
            return match section {
                None | Some(Section::Graph) => None,
                Some(_) if Section::also_in_graphs(opcode) => None,
                Some(s) => Some(LayoutIssueKind::InsideFunction { section: s }),
            };
        }
        match section {
            // An opcode the grammar does not know: nothing to check.
            None if info.is_none() => None,
            None | Some(Section::Function) => Some(LayoutIssueKind::OutsideFunction { opcode }),
            // Debug lines and non-semantic instructions may also sit between functions.
            Some(_)
                if matches!(
                    opcode,
                    O::Line | O::NoLine | O::ExtInst | O::ExtInstWithForwardRefsKHR
                ) && self.current >= Section::Function =>
            {
                None
            }
            Some(s) => {
                self.in_graph = opcode == O::GraphARM;
                self.advance(s, index)
            }
        }
    }

    /// Moves to section `s`, which starts at instruction `index`, if it comes later; an
    /// issue if it came before.
    fn advance(&mut self, s: Section, index: u32) -> Option<LayoutIssueKind> {
        if s < self.current {
            return Some(LayoutIssueKind::OutOfOrder {
                section: s,
                after: self.current,
            });
        }
        for k in (self.current as usize + 1)..=(s as usize) {
            self.sections[k] = index;
        }
        self.current = s;
        None
    }

    /// Closes the open function, if any, before instruction `end`; records an issue if
    /// it had no `OpFunctionEnd`.
    fn close(&mut self, end: u32, terminated: bool) {
        let Some((start, offset, first_block)) = self.open.take() else {
            return;
        };
        self.functions.push(FunctionRec {
            insts: start..end,
            blocks: first_block..self.blocks.len() as u32,
            terminated,
        });
        if !terminated {
            self.issues.push(LayoutIssue {
                kind: LayoutIssueKind::UnterminatedFunction,
                instruction: start as usize,
                offset,
            });
        }
    }

    /// Whether a function is open.
    pub fn in_function(&self) -> bool {
        self.open.is_some()
    }

    /// Ends the layout after `count` instructions: an open function is unterminated,
    /// and the sections not reached start (empty) at the end.
    pub fn finish(&mut self, count: u32) {
        self.close(count, false);
        for k in (self.current as usize + 1)..=Section::COUNT {
            self.sections[k] = count;
        }
    }
}
