//! spirv-val's explicit block layout rules (`checkLayout` and its helpers in
//! `validate_decorations.cpp`): std140 ("uniform buffer"), std430 ("storage buffer"),
//! relaxed and scalar layouts, with `Offset`, `ArrayStride` and `MatrixStride`, and
//! the questions asked before them (`isMissingOffsetInStruct`,
//! `checkForRequiredDecoration`, the nested `hasDecoration`).
//!
//! spirv-val recurses through structs and arrays and recomputes sizes and alignments
//! at each use, which costs time exponential in the nesting of structs that share
//! members. Here sizes and alignments are computed once per type (and matrix layout),
//! without recursion, the layout of a struct is checked once per offset it is met at,
//! and the whole walk has a budget proportional to the module: past it (only inputs
//! on which spirv-val itself would run for hours reach it) the layout is taken as
//! valid. Arithmetic wraps at 32 bits, as spirv-val's does.

use super::super::faults::faults;
use super::error::DecorationError;
use super::sizes::{Constraint, Sizes, align};
use crate::__private::Vec;
use crate::spv::{self, Decoration as D, Opcode as O};
use crate::types::Id;
use alloc::collections::BTreeSet;

/// The rules a walk follows: std140 (block rules) or std430, scalar layout, and whether
/// the member constraints were computed (spirv-val computes them only from a struct).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Rules {
    block_rules: bool,
    scalar: bool,
    computed: bool,
}

faults! {
    /// A block layout fault (spirv-val's `checkLayout` message): the struct, the rules
    /// it must follow, the member, what is wrong with it ([`LayoutRule`]) and spirv-val's
    /// hint at the option that would allow the layout ([`LayoutHint`]).
    pub enum LayoutFault {
        /// A member that breaks its block's layout rules.
        Member {
            /// The struct whose member breaks the rules (a nested one, or the pointee
            /// type of a physical storage buffer pointer).
            struct_id: Id,
            /// `Block` or `BufferBlock`, as the message names the block.
            block: spv::Decoration,
            /// The variable's storage class.
            storage_class: spv::StorageClass,
            /// The rules, as spirv-val names them.
            rules: LayoutRules,
            /// The member's index.
            member: u32,
            /// What is wrong.
            rule: LayoutRule,
            /// The option that would allow the layout.
            hint: LayoutHint,
        } => "Structure id {struct_id:n} decorated as {block} for variable in {storage_class} storage class must follow {rules} layout rules: member {member} {rule}{hint}",
    }
}

faults! {
    @description
    /// The layout rules a block follows, as spirv-val's message names them.
    pub enum LayoutRules {
        /// std140.
        StandardUniform => "standard uniform buffer",
        /// std430.
        StandardStorage => "standard storage buffer",
        /// Relaxed std140.
        RelaxedUniform => "relaxed uniform buffer",
        /// Relaxed std430.
        RelaxedStorage => "relaxed storage buffer",
        /// Scalar layout (uniform buffer rules asked).
        ScalarUniform => "scalar uniform buffer",
        /// Scalar layout (storage buffer rules asked).
        ScalarStorage => "scalar storage buffer",
    }
}

faults! {
    @description
    /// What a member does wrong, as spirv-val's layout message ends.
    pub enum LayoutRule {
        /// No `Offset`.
        MissingOffset => "is missing an Offset decoration",
        /// An offset not a multiple of the alignment.
        Unaligned { offset: u32, alignment: u32 } => "at offset {offset} is not aligned to {alignment}",
        /// A vector offset not a multiple of its scalar's size (relaxed layout).
        UnalignedScalar { offset: u32, alignment: u32 } => "at offset {offset} is not aligned to scalar element size {alignment}",
        /// An offset inside the previous member.
        Overlap { offset: u32, end: u32 } => "at offset {offset} overlaps previous member ending at offset {end}",
        /// A vector across a 16-byte boundary (relaxed layout).
        Straddle { offset: u32 } => "is an improperly straddling vector at offset {offset}",
        /// A matrix stride not a multiple of the alignment.
        MatrixStride { stride: u32, alignment: u32 } => "is a matrix with stride {stride} not satisfying alignment to {alignment}",
        /// An `ArrayStride` of 0.
        ArrayStrideZero => "contains an array with stride 0",
        /// An array stride not a multiple of the alignment.
        ArrayStride { stride: u32, alignment: u32 } => "contains an array with stride {stride} not satisfying alignment to {alignment}",
        /// An array stride smaller than its elements.
        ArrayElement { stride: u32, size: u32 } => "contains an array with stride {stride}, but with an element size of {size}",
    }
}

faults! {
    @description
    /// spirv-val's hint at the feature and flag that would allow a layout (none under
    /// scalar layout, which allows the most).
    pub enum LayoutHint {
        /// No hint.
        None => "",
        /// Workgroup blocks.
        WorkgroupScalar => "\nThis is may be allowed if you enable the workgroupMemoryExplicitLayoutScalarBlockLayout feature (or use the --workgroup-scalar-block-layout command line flag)",
        /// Without relaxed block layout.
        Relaxed => "\nThis is may be allowed if you enable the VK_KHR_relaxed_block_layout extension (or use the --relax-block-layout command line flag)",
        /// Uniform buffer rules.
        UniformStandard => "\nThis is may be allowed if you enable the uniformBufferStandardLayout feature (or use the --uniform-buffer-standard-layout command line flag)",
        /// Storage buffer rules.
        Scalar => "\nThis is may be allowed if you enable the scalarBlockLayout feature (or use the --scalar-block-layout command line flag)",
    }
}

/// `IsAlignedTo`: an alignment of 0 admits only offset 0.
fn aligned(offset: u32, alignment: u32) -> bool {
    if alignment == 0 {
        offset == 0
    } else {
        offset % alignment == 0
    }
}

/// One block to check: `checkLayout`'s arguments at its first call.
#[derive(Debug, Clone, Copy)]
pub(super) struct Block {
    /// The struct (or, behind a physical storage buffer pointer, any type).
    pub(super) root: u32,
    /// The variable's (or pointer's) storage class.
    pub(super) storage_class: u32,
    /// Named `BufferBlock` in messages, not `Block`.
    pub(super) buffer_block: bool,
    /// Uniform buffer (std140) rules.
    pub(super) block_rules: bool,
    /// Scalar block layout.
    pub(super) scalar: bool,
    /// Whether spirv-val computed the member constraints (from a struct root).
    pub(super) computed: bool,
}

/// One struct being checked, as a frame of the explicit stack.
struct Frame<'a> {
    struct_id: u32,
    incoming: u32,
    /// Its member types; none when the root is no struct (spirv-val then pretends a
    /// struct of one member, the type itself, at offset 0).
    members: &'a [u32],
    /// (member index, offset), by offset.
    order: Vec<(u32, u32)>,
    /// Position in `order`.
    pos: usize,
    next_valid: u32,
    step: Step,
}

/// Where the check of the current member stands.
#[derive(Clone, Copy)]
enum Step {
    /// Not begun.
    Start,
    /// Its own checks (and its struct, if one) done; its matrix and arrays follow.
    AfterStruct(Member),
    /// Back from element `i - 1` of the array `array`, whose elements are structs.
    Element {
        m: Member,
        array: u32,
        stride: u32,
        count: u32,
        i: u32,
        seen: u16,
    },
}

/// What the check of one member knows of it.
#[derive(Clone, Copy)]
struct Member {
    index: u32,
    id: u32,
    offset: u32,
    alignment: u32,
    size: u32,
    constraint: Constraint,
}

/// A fault and the id at whose definition spirv-val reports it.
pub(super) type Located = (u32, DecorationError);

/// The layout walk, with what it has found valid, for one run of the decoration
/// rules.
pub(super) struct Layout<'q, 'a> {
    pub(super) sizes: Sizes<'q, 'a>,
    relaxed: bool,
    /// Structs found valid at an offset under some rules.
    passed: BTreeSet<(Rules, u32, u32)>,
    /// Array chains found valid (without struct elements), from an array with the
    /// alignment its stride is checked against, for a member of some alignment and
    /// constraint.
    chains: BTreeSet<(Rules, u32, u32, u32, Constraint)>,
    /// A buffer for array strides.
    strides: Vec<super::super::validation_state::Dec<'a>>,
    /// Members and array levels the walks may still visit.
    budget: usize,
}

impl<'q, 'a> Layout<'q, 'a> {
    pub(super) fn new(q: &'q super::super::Query<'a>) -> Self {
        let options = q.state.options;
        let env = options.target_env;
        Layout {
            sizes: Sizes::new(q),
            // `IsRelaxedBlockLayout`: Vulkan 1.1 and later include the extension.
            relaxed: options.relax_block_layout
                || (env.is_vulkan() && env != crate::TargetEnv::Vulkan1_0),
            passed: BTreeSet::new(),
            chains: BTreeSet::new(),
            strides: Vec::new(),
            budget: q
                .module
                .word_len()
                .saturating_mul(32)
                .saturating_add(1 << 16),
        }
    }

    fn frame(&self, id: u32, incoming: u32) -> Frame<'a> {
        let s = &self.sizes;
        let (members, order) = if s.opcode(id) == O::TypeStruct {
            let members = s.q.struct_members(id);
            let mut order: Vec<(u32, u32)> = (0..members.len() as u32)
                .map(|k| (k, incoming.wrapping_add(s.offset(id, k))))
                .collect();
            order.sort_by_key(|&(_, offset)| offset);
            (members, order)
        } else {
            (&[][..], Vec::from([(0, 0)]))
        };
        Frame {
            struct_id: id,
            incoming,
            members,
            order,
            pos: 0,
            next_valid: 0,
            step: Step::Start,
        }
    }

    /// `checkLayout`: the block's layout, or the first fault in spirv-val's order.
    pub(super) fn check(&mut self, b: &Block) -> Result<(), Located> {
        let options = self.sizes.q.state.options;
        if options.skip_block_layout {
            return Ok(());
        }
        let rules = Rules {
            block_rules: b.block_rules && !options.uniform_buffer_standard_layout,
            scalar: b.scalar,
            computed: b.computed,
        };
        if self.passed.contains(&(rules, b.root, 0)) {
            return Ok(());
        }
        let mut stack = Vec::from([self.frame(b.root, 0)]);
        loop {
            let Some(f) = stack.last_mut() else {
                return Ok(());
            };
            if self.budget == 0 {
                return Ok(());
            }
            self.budget -= 1;
            let child = match f.step {
                Step::Start if f.pos == f.order.len() => {
                    self.passed.insert((rules, f.struct_id, f.incoming));
                    stack.pop();
                    continue;
                }
                Step::Start => self.member(rules, b, f)?,
                Step::AfterStruct(m) => self.arrays(rules, b, f, m, None)?,
                Step::Element {
                    m,
                    array,
                    stride,
                    count,
                    i,
                    seen,
                } => self.arrays(rules, b, f, m, Some((array, stride, count, i, seen)))?,
            };
            if let Some((id, offset)) = child {
                if !self.passed.contains(&(rules, id, offset)) {
                    let frame = self.frame(id, offset);
                    stack.push(frame);
                }
            }
        }
    }

    fn fail(
        &self,
        rules: Rules,
        b: &Block,
        f: &Frame<'_>,
        member: u32,
        rule: LayoutRule,
    ) -> Located {
        let storage_class = spv::StorageClass(b.storage_class);
        let rules_named = match (rules.scalar, self.relaxed, rules.block_rules) {
            (true, _, true) => LayoutRules::ScalarUniform,
            (true, _, false) => LayoutRules::ScalarStorage,
            (false, true, true) => LayoutRules::RelaxedUniform,
            (false, true, false) => LayoutRules::RelaxedStorage,
            (false, false, true) => LayoutRules::StandardUniform,
            (false, false, false) => LayoutRules::StandardStorage,
        };
        let hint = if rules.scalar {
            LayoutHint::None
        } else if storage_class == spv::StorageClass::Workgroup {
            LayoutHint::WorkgroupScalar
        } else if !self.relaxed {
            LayoutHint::Relaxed
        } else if rules.block_rules {
            LayoutHint::UniformStandard
        } else {
            LayoutHint::Scalar
        };
        let fault = LayoutFault::Member {
            struct_id: Id(f.struct_id),
            block: if b.buffer_block {
                D::BufferBlock
            } else {
                D::Block
            },
            storage_class,
            rules: rules_named,
            member,
            rule,
            hint,
        };
        (f.struct_id, DecorationError::Layout(fault))
    }

    fn alignment(&mut self, rules: Rules, id: u32, c: Constraint) -> u32 {
        if rules.scalar {
            self.sizes.scalar_alignment(id)
        } else {
            self.sizes
                .base_alignment(rules.computed, id, rules.block_rules, c)
        }
    }

    /// The checks of the member at `f.pos` up to its struct; the struct to check next.
    fn member(
        &mut self,
        rules: Rules,
        b: &Block,
        f: &mut Frame<'_>,
    ) -> Result<Option<(u32, u32)>, Located> {
        let (index, offset) = f.order[f.pos];
        let id = match f.members.get(index as usize) {
            Some(&m) => m,
            None => f.struct_id,
        };
        let c = self.sizes.constraint(rules.computed, f.struct_id, index);
        let alignment = self.alignment(rules, id, c);
        let op = self.sizes.opcode(id);
        let size = self.sizes.size(rules.computed, id, c);
        let relaxed = !rules.scalar && self.relaxed;
        if offset == u32::MAX {
            return Err(self.fail(rules, b, f, index, LayoutRule::MissingOffset));
        }
        if op == O::TypeRuntimeArray && f.pos != f.order.len() - 1 {
            return Err((
                f.struct_id,
                DecorationError::RuntimeArrayNotLast {
                    id: Id(f.struct_id),
                    offset,
                },
            ));
        }
        if relaxed && op == O::TypeVector {
            let scalar = self.sizes.scalar_alignment(self.sizes.word(id, 2));
            if !aligned(offset, scalar) {
                let rule = LayoutRule::UnalignedScalar {
                    offset,
                    alignment: scalar,
                };
                return Err(self.fail(rules, b, f, index, rule));
            }
        } else if !aligned(offset, alignment) {
            let rule = LayoutRule::Unaligned { offset, alignment };
            return Err(self.fail(rules, b, f, index, rule));
        }
        if offset < f.next_valid {
            let end = f.next_valid - 1;
            return Err(self.fail(rules, b, f, index, LayoutRule::Overlap { offset, end }));
        }
        if relaxed && op == O::TypeVector {
            // `hasImproperStraddle`.
            let last = offset.wrapping_add(size).wrapping_sub(1);
            let straddles = if size <= 16 {
                offset >> 4 != last >> 4
            } else {
                offset % 16 != 0
            };
            if straddles {
                return Err(self.fail(rules, b, f, index, LayoutRule::Straddle { offset }));
            }
        }
        let m = Member {
            index,
            id,
            offset,
            alignment,
            size,
            constraint: c,
        };
        f.step = Step::AfterStruct(m);
        Ok((op == O::TypeStruct).then_some((id, offset)))
    }

    /// `EvalInt32IfConst`'s value: a 32-bit integer constant's, else 0.
    fn int32_constant(&self, id: u32) -> u32 {
        let q = self.sizes.q;
        let t = q.type_of(id);
        if t == 0 || !q.is_int_scalar_type_of_width(t, 32) {
            return 0;
        }
        match q.opcode(id) {
            O::Constant => q.word(id, 3).unwrap_or(0),
            _ => 0,
        }
    }

    /// The member's matrix check and its arrays (resuming at an array's struct
    /// elements); the struct element to check next, or the member done.
    fn arrays(
        &mut self,
        rules: Rules,
        b: &Block,
        f: &mut Frame<'_>,
        m: Member,
        resume: Option<(u32, u32, u32, u32, u16)>,
    ) -> Result<Option<(u32, u32)>, Located> {
        let matrix_fault = LayoutRule::MatrixStride {
            stride: m.constraint.matrix_stride,
            alignment: m.alignment,
        };
        let matrix_ok = aligned(m.constraint.matrix_stride, m.alignment);
        if resume.is_none() && self.sizes.opcode(m.id) == O::TypeMatrix && !matrix_ok {
            return Err(self.fail(rules, b, f, m.index, matrix_fault));
        }
        let (mut array, mut pending) = match resume {
            Some((array, stride, count, i, seen)) => (array, Some((stride, count, i, seen))),
            None => (m.id, None),
        };
        let mut array_alignment = m.alignment;
        // The levels walked, while no struct element makes offsets matter.
        let mut walked = Some(Vec::new()).filter(|_| pending.is_none());
        let mut strides = core::mem::take(&mut self.strides);
        while matches!(self.sizes.opcode(array), O::TypeArray | O::TypeRuntimeArray) {
            let elem = self.sizes.word(array, 2);
            let key = (rules, array, array_alignment, m.alignment, m.constraint);
            if pending.is_none() && self.chains.contains(&key) {
                break;
            }
            let (stride, count, mut i, mut seen) = match pending.take() {
                Some(p) => p,
                None => {
                    if self.budget == 0 {
                        return Ok(None);
                    }
                    self.budget -= 1;
                    if let Some(w) = walked.as_mut() {
                        w.push(key);
                    }
                    let mut stride = 0;
                    self.sizes
                        .q
                        .decorations
                        .collect(array, &[D::ArrayStride.0], &mut strides);
                    for d in &strides {
                        stride = d.params.first().copied().unwrap_or(0);
                        if stride == 0 {
                            return Err(self.fail(
                                rules,
                                b,
                                f,
                                m.index,
                                LayoutRule::ArrayStrideZero,
                            ));
                        }
                        if !aligned(stride, array_alignment) {
                            let rule = LayoutRule::ArrayStride {
                                stride,
                                alignment: m.alignment,
                            };
                            return Err(self.fail(rules, b, f, m.index, rule));
                        }
                    }
                    let count = if self.sizes.opcode(array) == O::TypeArray {
                        self.int32_constant(self.sizes.word(array, 3))
                    } else {
                        0
                    };
                    (stride, count.max(1), 0, 0)
                }
            };
            match self.sizes.opcode(elem) {
                O::TypeStruct => {
                    walked = None;
                    while i < count {
                        let next = i.wrapping_mul(stride).wrapping_add(m.offset);
                        let bit = 1u16 << (next % 16);
                        if seen & bit != 0 {
                            break;
                        }
                        seen |= bit;
                        i += 1;
                        if !self.passed.contains(&(rules, elem, next)) {
                            self.strides = strides;
                            f.step = Step::Element {
                                m,
                                array,
                                stride,
                                count,
                                i,
                                seen,
                            };
                            return Ok(Some((elem, next)));
                        }
                    }
                }
                O::TypeMatrix if !matrix_ok => {
                    return Err(self.fail(rules, b, f, m.index, matrix_fault));
                }
                _ => {}
            }
            array = elem;
            array_alignment = self.alignment(rules, elem, m.constraint);
            let size = self.sizes.size(rules.computed, elem, m.constraint);
            if size > stride {
                let rule = LayoutRule::ArrayElement { stride, size };
                return Err(self.fail(rules, b, f, m.index, rule));
            }
        }
        self.strides = strides;
        self.chains.extend(walked.into_iter().flatten());
        f.next_valid = m.offset.wrapping_add(m.size);
        if !rules.scalar && matches!(self.sizes.opcode(m.id), O::TypeArray | O::TypeStruct) {
            f.next_valid = align(f.next_valid, m.alignment);
        }
        f.pos += 1;
        f.step = Step::Start;
        Ok(None)
    }
}
