//! What spirv-val's layout rules compute of types (`getBaseAlignment`,
//! `getScalarAlignment`, `getSize`, the member constraints, `isMissingOffsetInStruct`,
//! `checkForRequiredDecoration`, the nested `hasDecoration`), each computed once per
//! type without recursion: explicit stacks walk nested structs and arrays, and every
//! answer is remembered. Arithmetic wraps at 32 bits, as spirv-val's does.

use super::super::Query;
use crate::__private::Vec;
use crate::spirv_tools::is_spec_constant;
use crate::spv::{self, Capability as C, Decoration as D, Opcode as O};
use alloc::collections::{BTreeMap, BTreeSet};

/// How a member's matrices are laid out (spirv-val's `LayoutConstraints`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub(super) struct Constraint {
    pub(super) row_major: bool,
    pub(super) matrix_stride: u32,
}

/// The decorations `checkForRequiredDecoration` asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Required {
    /// `ArrayStride` on array members.
    ArrayStride,
    /// `MatrixStride` on matrix members (through arrays).
    MatrixStride,
    /// `RowMajor` or `ColMajor` on matrix members (through arrays).
    Majorness,
}

/// Rounds up to a multiple of a power of two, as spirv-val's `align` (which assumes one).
pub(super) fn align(x: u32, alignment: u32) -> u32 {
    x.wrapping_add(alignment).wrapping_sub(1) & !alignment.wrapping_sub(1)
}

/// A type's own answer and the types within it whose answers count too.
type Own<'s, 'q, 'a> = dyn Fn(&Sizes<'q, 'a>, u32) -> (bool, Vec<u32>) + 's;

/// The types of one module as the layout rules measure them.
pub(super) struct Sizes<'q, 'a> {
    pub(super) q: &'q Query<'a>,
    pointer_size: u32,
    /// (type, extended, row major, constraints computed) → alignment.
    base: BTreeMap<(u32, bool, bool, bool), u32>,
    scalar: BTreeMap<u32, u32>,
    /// (type, constraint, constraints computed) → size.
    size: BTreeMap<(u32, Constraint, bool), u32>,
    missing_offset: BTreeMap<u32, bool>,
    required: BTreeMap<Required, BTreeMap<u32, bool>>,
    deep: BTreeMap<u32, BTreeMap<u32, bool>>,
}

impl<'q, 'a> Sizes<'q, 'a> {
    pub(super) fn new(q: &'q Query<'a>) -> Self {
        // `pointer_size_and_alignment`: 4 under Physical32, else 8 (0 before any
        // OpMemoryModel).
        let pointer_size = q
            .module
            .instructions()
            .find(|i| i.opcode() == O::MemoryModel)
            .map_or(0, |i| match i.words().get(1) {
                Some(&a) if a == spv::AddressingModel::Physical32.0 => 4,
                _ => 8,
            });
        Sizes {
            q,
            pointer_size,
            base: BTreeMap::new(),
            scalar: BTreeMap::new(),
            size: BTreeMap::new(),
            missing_offset: BTreeMap::new(),
            required: BTreeMap::new(),
            deep: BTreeMap::new(),
        }
    }

    pub(super) fn opcode(&self, id: u32) -> O {
        self.q.opcode(id)
    }

    pub(super) fn word(&self, id: u32, i: usize) -> u32 {
        self.q.word(id, i).unwrap_or(0)
    }

    /// The size and alignment of images and samplers: the bindless addressing width
    /// in bytes, or 0 (where spirv-val asserts).
    fn bindless(&self) -> u32 {
        if self.q.state.has_capability(C::BindlessTextureNV.0) {
            self.q.state.sampler_addressing / 8
        } else {
            0
        }
    }

    /// The constraint spirv-val's map holds for `struct_id`'s member `index`: its
    /// `RowMajor`, `ColMajor` (the later in set order wins) and `MatrixStride`, when
    /// the constraints were computed; the default otherwise, and for anything that
    /// is no member of a struct.
    pub(super) fn constraint(&self, computed: bool, struct_id: u32, index: u32) -> Constraint {
        if !computed
            || self.opcode(struct_id) != O::TypeStruct
            || index as usize >= self.q.struct_members(struct_id).len()
        {
            return Constraint::default();
        }
        let d = self.q.decorations;
        Constraint {
            row_major: !d.has_at(struct_id, index, D::ColMajor.0)
                && d.has_at(struct_id, index, D::RowMajor.0),
            matrix_stride: d
                .last(struct_id, index, D::MatrixStride.0)
                .and_then(|p| p.first().copied())
                .unwrap_or(0),
        }
    }

    /// Size and alignment of a type that holds no other: scalars, pointers, images.
    fn leaf(&self, id: u32) -> Option<u32> {
        Some(match self.opcode(id) {
            O::TypeSampledImage | O::TypeSampler | O::TypeImage => self.bindless(),
            O::TypeInt | O::TypeFloat => self.word(id, 2) / 8,
            O::TypePointer | O::TypeUntypedPointerKHR => self.pointer_size,
            _ => return None,
        })
    }

    /// `getScalarAlignment`.
    pub(super) fn scalar_alignment(&mut self, id: u32) -> u32 {
        // (type, next member, alignment so far)
        let mut stack: Vec<(u32, usize, u32)> = Vec::from([(id, 0, 1)]);
        let mut on_stack = BTreeSet::from([id]);
        let mut result = 1;
        while let Some(&(t, next, acc)) = stack.last() {
            let value = if let Some(&v) = self.scalar.get(&t) {
                Some(v)
            } else if let Some(v) = self.leaf(t) {
                Some(v)
            } else {
                match self.opcode(t) {
                    O::TypeVector | O::TypeMatrix | O::TypeArray | O::TypeRuntimeArray => {
                        let inner = self.word(t, 2);
                        match self.scalar.get(&inner) {
                            Some(&v) => Some(v),
                            None if on_stack.insert(inner) => {
                                stack.push((inner, 0, 1));
                                None
                            }
                            None => Some(1),
                        }
                    }
                    O::TypeStruct => {
                        let members = self.q.struct_members(t);
                        match members.get(next) {
                            None => Some(acc),
                            Some(&m) => {
                                let top = stack.len() - 1;
                                match self.scalar.get(&m) {
                                    Some(&v) => {
                                        stack[top] = (t, next + 1, acc.max(v));
                                    }
                                    None if on_stack.insert(m) => stack.push((m, 0, 1)),
                                    None => stack[top] = (t, next + 1, acc),
                                }
                                None
                            }
                        }
                    }
                    _ => Some(1),
                }
            };
            if let Some(v) = value {
                self.scalar.insert(t, v);
                on_stack.remove(&t);
                stack.pop();
                result = v;
            }
        }
        result
    }

    /// The key of a base alignment: a struct's does not depend on the matrix layout.
    fn base_key(
        &self,
        t: u32,
        round_up: bool,
        row: bool,
        computed: bool,
    ) -> (u32, bool, bool, bool) {
        let row = row && self.opcode(t) != O::TypeStruct;
        (t, round_up, row, computed)
    }

    /// `getBaseAlignment`: the extended alignment when `round_up`.
    pub(super) fn base_alignment(
        &mut self,
        computed: bool,
        id: u32,
        round_up: bool,
        c: Constraint,
    ) -> u32 {
        let vector = |s: &Self, v: u32| {
            let n = s.word(v, 3);
            s.leaf(s.word(v, 2))
                .unwrap_or(1)
                .wrapping_mul(if n == 3 { 4 } else { n })
        };
        let up = |a: u32| if round_up { align(a, 16) } else { a };
        // (type, row major, next member, alignment so far)
        let mut stack: Vec<(u32, bool, usize, u32)> = Vec::from([(id, c.row_major, 0, 1)]);
        let mut on_stack = BTreeSet::from([id]);
        let mut result = 1;
        while let Some(&(t, row, next, acc)) = stack.last() {
            let key = self.base_key(t, round_up, row, computed);
            let value = if let Some(&v) = self.base.get(&key) {
                Some(v)
            } else if let Some(v) = self.leaf(t) {
                Some(v)
            } else {
                match self.opcode(t) {
                    O::TypeVector => Some(vector(self, t)),
                    O::TypeMatrix => {
                        let column = self.word(t, 2);
                        let a = if row {
                            let n = self.word(t, 3);
                            self.leaf(self.word(column, 2))
                                .unwrap_or(1)
                                .wrapping_mul(if n == 3 { 4 } else { n })
                        } else if self.opcode(column) == O::TypeVector {
                            vector(self, column)
                        } else {
                            self.leaf(column).unwrap_or(1)
                        };
                        Some(up(a))
                    }
                    O::TypeArray | O::TypeRuntimeArray => {
                        let elem = self.word(t, 2);
                        match self.base.get(&self.base_key(elem, round_up, row, computed)) {
                            Some(&a) => Some(up(a)),
                            None if on_stack.insert(elem) => {
                                stack.push((elem, row, 0, 1));
                                None
                            }
                            None => Some(up(1)),
                        }
                    }
                    O::TypeStruct => {
                        let members = self.q.struct_members(t);
                        match members.get(next) {
                            None => Some(up(acc)),
                            Some(&m) => {
                                let top = stack.len() - 1;
                                let cm = self.constraint(computed, t, next as u32);
                                let mk = self.base_key(m, round_up, cm.row_major, computed);
                                match self.base.get(&mk) {
                                    Some(&v) => stack[top] = (t, row, next + 1, acc.max(v)),
                                    None if on_stack.insert(m) => {
                                        stack.push((m, cm.row_major, 0, 1));
                                    }
                                    None => stack[top] = (t, row, next + 1, acc),
                                }
                                None
                            }
                        }
                    }
                    _ => Some(1),
                }
            };
            if let Some(v) = value {
                self.base.insert(key, v);
                on_stack.remove(&t);
                stack.pop();
                result = v;
            }
        }
        result
    }

    /// `GetArrayStride`: the array's first `ArrayStride` in set order, or 0.
    pub(super) fn array_stride(&self, array: u32) -> u32 {
        self.q
            .decorations
            .first(
                array,
                super::super::validation_state::NO_MEMBER,
                D::ArrayStride.0,
            )
            .and_then(|p| p.first().copied())
            .unwrap_or(0)
    }

    /// The `Offset` of `struct_id`'s member `index` as spirv-val reads it (the last in
    /// set order), or 0xffffffff.
    pub(super) fn offset(&self, struct_id: u32, index: u32) -> u32 {
        self.q
            .decorations
            .last(struct_id, index, D::Offset.0)
            .and_then(|p| p.first().copied())
            .unwrap_or(u32::MAX)
    }

    /// `getSize`: a type's size without the padding at its end. A chain of arrays and
    /// last struct members is walked once; every type on it is remembered.
    pub(super) fn size(&mut self, computed: bool, id: u32, c: Constraint) -> u32 {
        let mut path: Vec<((u32, Constraint, bool), u32)> = Vec::new();
        let mut seen = BTreeSet::new();
        let (mut t, mut c, mut acc) = (id, c, 0u32);
        let tail = loop {
            let op = self.opcode(t);
            let norm = match op {
                O::TypeArray | O::TypeMatrix => c,
                _ => Constraint::default(),
            };
            let key = (t, norm, computed);
            if let Some(&v) = self.size.get(&key) {
                break v;
            }
            if !seen.insert(key) {
                break 0;
            }
            path.push((key, acc));
            if let Some(v) = self.leaf(t) {
                break v;
            }
            match op {
                O::TypeVector => {
                    let comp = self.leaf(self.word(t, 2)).unwrap_or(0);
                    break comp.wrapping_mul(self.word(t, 3));
                }
                O::TypeArray => {
                    let length = self.word(t, 3);
                    if is_spec_constant(self.opcode(length)) {
                        break 0;
                    }
                    // An OpConstant's low word (spirv-val reads past an
                    // OpConstantNull's words; 0 here).
                    let n = self.q.word(length, 3).unwrap_or(0);
                    let stride = self.array_stride(t);
                    acc = acc.wrapping_add(n.wrapping_sub(1).wrapping_mul(stride));
                    t = self.word(t, 2);
                }
                O::TypeMatrix => {
                    let columns = self.word(t, 3);
                    if !c.row_major {
                        break columns.wrapping_mul(c.matrix_stride);
                    }
                    let column = self.word(t, 2);
                    let rows = self.word(column, 3);
                    let scalar = self.leaf(self.word(column, 2)).unwrap_or(0);
                    break rows
                        .wrapping_sub(1)
                        .wrapping_mul(c.matrix_stride)
                        .wrapping_add(columns.wrapping_mul(scalar));
                }
                O::TypeStruct => {
                    let members = self.q.struct_members(t);
                    let Some(&last) = members.last() else {
                        break 0;
                    };
                    let index = (members.len() - 1) as u32;
                    acc = acc.wrapping_add(self.offset(t, index));
                    // spirv-val looks the constraint up under the member's type id,
                    // not the struct's.
                    c = self.constraint(computed, last, index);
                    t = last;
                }
                _ => break 0,
            }
        };
        let total = acc.wrapping_add(tail);
        for (key, before) in path {
            self.size.insert(key, total.wrapping_sub(before));
        }
        total
    }

    /// `isMissingOffsetInStruct`: a struct member without `Offset` (or with offset
    /// 0xffffffff), in the type or any struct or array within.
    pub(super) fn missing_offset(&mut self, id: u32) -> bool {
        let own = |s: &Self, t: u32| -> (bool, Vec<u32>) {
            match s.opcode(t) {
                O::TypeStruct => {
                    let members = s.q.struct_members(t);
                    let missing = (0..members.len() as u32).any(|k| s.offset(t, k) == u32::MAX);
                    (missing, members.to_vec())
                }
                O::TypeArray | O::TypeRuntimeArray => (false, Vec::from([s.word(t, 2)])),
                _ => (false, Vec::new()),
            }
        };
        self.walk_any(id, own, |s| &mut s.missing_offset)
    }

    /// The nested `hasDecoration`: `id` or, for a struct, a struct member (through
    /// structs only) has a decoration of `kind`.
    pub(super) fn deep_has(&mut self, id: u32, kind: u32) -> bool {
        let own = |s: &Self, t: u32| -> (bool, Vec<u32>) {
            if s.q.decorations.has(t, kind) {
                return (true, Vec::new());
            }
            if s.opcode(t) != O::TypeStruct {
                return (false, Vec::new());
            }
            let members = s.q.struct_members(t);
            (
                false,
                members
                    .iter()
                    .copied()
                    .filter(|&m| s.opcode(m) == O::TypeStruct)
                    .collect(),
            )
        };
        let mut memo = self.deep.remove(&kind).unwrap_or_default();
        let v = Self::walk_with(self, id, &own, &mut memo);
        self.deep.insert(kind, memo);
        v
    }

    /// `checkForRequiredDecoration` over a block's struct and its struct members.
    pub(super) fn has_required(&mut self, id: u32, which: Required) -> bool {
        let own = |s: &Self, t: u32| -> (bool, Vec<u32>) {
            let d = s.q.decorations;
            let members = s.q.struct_members(t);
            let kinds: &[u32] = match which {
                Required::ArrayStride => &[D::ArrayStride.0],
                Required::MatrixStride => &[D::MatrixStride.0],
                Required::Majorness => &[D::RowMajor.0, D::ColMajor.0],
            };
            for (k, &m) in members.iter().enumerate() {
                let mut m = m;
                let wanted = if which == Required::ArrayStride {
                    O::TypeArray
                } else {
                    let mut steps = 0;
                    while matches!(s.opcode(m), O::TypeArray | O::TypeRuntimeArray)
                        && steps < members.len() + 64
                    {
                        m = s.word(m, 2);
                        steps += 1;
                    }
                    O::TypeMatrix
                };
                if s.opcode(m) != wanted {
                    continue;
                }
                let found = kinds
                    .iter()
                    .any(|&kind| d.has(m, kind) || d.has_at(t, k as u32, kind));
                if !found {
                    // "Missing" is the answer sought: `true` below means missing.
                    return (true, Vec::new());
                }
            }
            let structs = members
                .iter()
                .copied()
                .filter(|&m| s.opcode(m) == O::TypeStruct)
                .collect();
            (false, structs)
        };
        let mut memo = self.required.remove(&which).unwrap_or_default();
        let missing = Self::walk_with(self, id, &own, &mut memo);
        self.required.insert(which, memo);
        !missing
    }

    /// Whether `own` or any child's answer is true, over a DAG of types, with memo
    /// `select`.
    fn walk_any(
        &mut self,
        id: u32,
        own: impl Fn(&Self, u32) -> (bool, Vec<u32>),
        select: fn(&mut Self) -> &mut BTreeMap<u32, bool>,
    ) -> bool {
        let mut memo = core::mem::take(select(self));
        let v = Self::walk_with(self, id, &own, &mut memo);
        *select(self) = memo;
        v
    }

    /// Depth-first over the children `own` names, without recursion: a node is true
    /// when `own` says so or a child is.
    fn walk_with(s: &Self, id: u32, own: &Own<'_, 'q, 'a>, memo: &mut BTreeMap<u32, bool>) -> bool {
        if let Some(&v) = memo.get(&id) {
            return v;
        }
        // (node, its children, next child)
        let mut stack: Vec<(u32, Vec<u32>, usize)> = Vec::new();
        let mut on_stack = BTreeSet::new();
        let (v, children) = own(s, id);
        if v {
            memo.insert(id, true);
            return true;
        }
        stack.push((id, children, 0));
        on_stack.insert(id);
        let mut last = false;
        while let Some(top) = stack.last_mut() {
            if last {
                // A child was true: so is every node on the stack.
                let t = top.0;
                memo.insert(t, true);
                stack.pop();
                continue;
            }
            let Some(&child) = top.1.get(top.2) else {
                let t = top.0;
                memo.insert(t, false);
                on_stack.remove(&t);
                stack.pop();
                continue;
            };
            top.2 += 1;
            if let Some(&v) = memo.get(&child) {
                last = v;
                continue;
            }
            if !on_stack.insert(child) {
                continue;
            }
            let (v, children) = own(s, child);
            if v {
                memo.insert(child, true);
                last = true;
            } else {
                stack.push((child, children, 0));
            }
        }
        memo.get(&id).copied().unwrap_or(false)
    }
}
