//! Friendly names, made exactly as spirv-dis 2025.5 makes them.
//!
//! One pass over the module in binary order; the first name saved for an id wins, so
//! `OpName` beats `BuiltIn` decorations, which beat type and constant names. A type
//! name built from a component uses the component's name at that point (its number if
//! it has none yet). Names are sanitized to `[A-Za-z0-9_]` and made unique with `_0`,
//! `_1`, … suffixes.
//!
//! Two departures from spirv-dis keep the work and the output linear in the input, and
//! no real module reaches them:
//! - A name longer than [`MAX_NAME_LEN`] bytes (an `OpName` string, say), or a name
//!   built from other names (`_ptr_…`, `_arr_…`, `v4…`, constants) longer than
//!   [`MAX_DERIVED_LEN`] bytes, is replaced by the id's number, as for any id without
//!   a name. So are built names once those saved so far total as many bytes as the
//!   input (64 KiB at least; in the corpus all names together take at most 0.46× the
//!   binary). Without these limits, a chain of nested types has names whose total
//!   length grows with the square of the chain, and one long name used by every
//!   operand multiplies the output; spirv-dis runs out of memory on both.
//! - The suffix search resumes where it stopped last time for the same base name
//!   instead of starting again at `_0`. The names are the same (suffixes are only ever
//!   taken, never freed), but n equal names cost n steps instead of n²/2.

use crate::fxhash::{FxBuildHasher, FxHashMap};
use spirv_core::spv::{self, BuiltIn, Opcode};
use std::fmt::Write;

/// The longest friendly name, in bytes, before the uniqueness suffix. The longest in
/// the 1179 corpus modules has 122 bytes.
pub const MAX_NAME_LEN: usize = 1024;

/// The longest name built from other names (types, constants), in bytes. The longest
/// in the corpus has 90 bytes.
pub const MAX_DERIVED_LEN: usize = 256;

/// Names by id. Ids below a limit tied to the input's length live in a vector.
#[derive(Debug, Default)]
pub struct Names {
    dense: Vec<u32>,
    sparse: FxHashMap<u32, u32>,
    limit: usize,
    /// Every name saved, as `(start, len)` in `arena`; ids refer to them 1-based.
    spans: Vec<(u32, u32)>,
    arena: String,
    /// Open-addressing set of the names in use, so each name is stored once: 0 empty,
    /// else a 1-based index into `spans`. At most half full.
    table: Vec<u32>,
    /// Names that are plain numbers below `limit` (most are an id's own): a bit each.
    used_numbers: Vec<bool>,
    /// For each base name that needed a suffix, the next suffix to try.
    next_suffix: FxHashMap<Box<str>, u32>,
    /// Candidate names tried, for the tests that check the work stays linear.
    probes: usize,
    /// Scratch for building names.
    buf: String,
    /// Bytes that built names may still take (see the module docs).
    derived_budget: usize,
    /// The table's hash, randomly seeded (see [`crate::fxhash`]).
    hasher: FxBuildHasher,
}

/// The built-ins that get a name: GL-style ones with `gl_`, OpenCL and subgroup ones plain.
const BUILTIN_NAMES: &[(BuiltIn, &str)] = &[
    (BuiltIn::Position, "gl_Position"),
    (BuiltIn::PointSize, "gl_PointSize"),
    (BuiltIn::ClipDistance, "gl_ClipDistance"),
    (BuiltIn::CullDistance, "gl_CullDistance"),
    (BuiltIn::VertexId, "gl_VertexID"),
    (BuiltIn::InstanceId, "gl_InstanceID"),
    (BuiltIn::PrimitiveId, "gl_PrimitiveID"),
    (BuiltIn::InvocationId, "gl_InvocationID"),
    (BuiltIn::Layer, "gl_Layer"),
    (BuiltIn::ViewportIndex, "gl_ViewportIndex"),
    (BuiltIn::TessLevelOuter, "gl_TessLevelOuter"),
    (BuiltIn::TessLevelInner, "gl_TessLevelInner"),
    (BuiltIn::TessCoord, "gl_TessCoord"),
    (BuiltIn::PatchVertices, "gl_PatchVertices"),
    (BuiltIn::FragCoord, "gl_FragCoord"),
    (BuiltIn::PointCoord, "gl_PointCoord"),
    (BuiltIn::FrontFacing, "gl_FrontFacing"),
    (BuiltIn::SampleId, "gl_SampleID"),
    (BuiltIn::SamplePosition, "gl_SamplePosition"),
    (BuiltIn::SampleMask, "gl_SampleMask"),
    (BuiltIn::FragDepth, "gl_FragDepth"),
    (BuiltIn::HelperInvocation, "gl_HelperInvocation"),
    (BuiltIn::NumWorkgroups, "gl_NumWorkGroups"),
    (BuiltIn::WorkgroupSize, "gl_WorkGroupSize"),
    (BuiltIn::WorkgroupId, "gl_WorkGroupID"),
    (BuiltIn::LocalInvocationId, "gl_LocalInvocationID"),
    (BuiltIn::GlobalInvocationId, "gl_GlobalInvocationID"),
    (BuiltIn::LocalInvocationIndex, "gl_LocalInvocationIndex"),
    (BuiltIn::WorkDim, "WorkDim"),
    (BuiltIn::GlobalSize, "GlobalSize"),
    (BuiltIn::EnqueuedWorkgroupSize, "EnqueuedWorkgroupSize"),
    (BuiltIn::GlobalOffset, "GlobalOffset"),
    (BuiltIn::GlobalLinearId, "GlobalLinearId"),
    (BuiltIn::SubgroupSize, "SubgroupSize"),
    (BuiltIn::SubgroupMaxSize, "SubgroupMaxSize"),
    (BuiltIn::NumSubgroups, "NumSubgroups"),
    (BuiltIn::NumEnqueuedSubgroups, "NumEnqueuedSubgroups"),
    (BuiltIn::SubgroupId, "SubgroupId"),
    (
        BuiltIn::SubgroupLocalInvocationId,
        "SubgroupLocalInvocationId",
    ),
    (BuiltIn::VertexIndex, "gl_VertexIndex"),
    (BuiltIn::InstanceIndex, "gl_InstanceIndex"),
    (BuiltIn::BaseInstance, "gl_BaseInstance"),
    (BuiltIn::SubgroupEqMask, "SubgroupEqMaskKHR"),
    (BuiltIn::SubgroupGeMask, "SubgroupGeMaskKHR"),
    (BuiltIn::SubgroupGtMask, "SubgroupGtMaskKHR"),
    (BuiltIn::SubgroupLeMask, "SubgroupLeMaskKHR"),
    (BuiltIn::SubgroupLtMask, "SubgroupLtMaskKHR"),
];

/// Appends `s` with every byte outside `[A-Za-z0-9_]` replaced by `_`; `_` if empty.
fn sanitize(s: &[u8], out: &mut String) {
    if s.is_empty() {
        out.push('_');
        return;
    }
    out.extend(s.iter().map(|&b| {
        if b.is_ascii_alphanumeric() || b == b'_' {
            char::from(b)
        } else {
            '_'
        }
    }));
}

impl Names {
    /// An empty map for an input of `words` words.
    pub fn new(words: usize) -> Self {
        Names {
            limit: words.saturating_mul(2).max(1024),
            derived_budget: words.saturating_mul(4).max(1 << 16),
            ..Default::default()
        }
    }

    /// The name of `id`, if one was saved.
    #[inline]
    pub fn get(&self, id: u32) -> Option<&str> {
        let slot = match self.dense.get(id as usize) {
            Some(&s) => s,
            None if (id as usize) < self.limit => 0,
            None => self.sparse.get(&id).copied().unwrap_or(0),
        };
        if slot == 0 {
            return None;
        }
        Some(self.span(slot))
    }

    fn span(&self, slot: u32) -> &str {
        let (start, len) = self.spans[slot as usize - 1];
        &self.arena[start as usize..(start + len) as usize]
    }

    /// Appends the name of `id`, or its number.
    #[inline]
    pub fn write(&self, id: u32, out: &mut Vec<u8>) {
        match self.get(id) {
            Some(n) => out.extend_from_slice(n.as_bytes()),
            None => crate::text::push_u32(out, id),
        }
    }

    /// Appends the name of `id`, or its number, to `out`.
    fn push_name(&self, id: u32, out: &mut String) {
        match self.get(id) {
            Some(n) => out.push_str(n),
            None => {
                let _ = write!(out, "{id}");
            }
        }
    }

    /// Candidate work done so far: names tried while making names unique.
    #[cfg(test)]
    fn probes(&self) -> usize {
        self.probes
    }

    /// Saves a name for `id` unless it has one: sanitized, replaced by the id's number
    /// if longer than `max_len`, then made unique.
    fn save(&mut self, id: u32, suggested: &[u8], max_len: usize) {
        if self.get(id).is_some() {
            return;
        }
        let mut base = std::mem::take(&mut self.buf);
        base.clear();
        if suggested.len() > max_len {
            let _ = write!(base, "{id}");
        } else {
            sanitize(suggested, &mut base);
        }
        self.probes += 1;
        if self.is_used(&base) {
            let first = self.next_suffix.get(base.as_str()).copied().unwrap_or(0);
            let stem = base.len();
            let mut i = first;
            loop {
                base.truncate(stem);
                let _ = write!(base, "_{i}");
                self.probes += 1;
                if !self.is_used(&base) {
                    break;
                }
                i += 1;
            }
            let key: Box<str> = base[..stem].into();
            self.next_suffix.insert(key, i + 1);
        }
        let slot = self.insert(&base);
        self.buf = base;
        let i = id as usize;
        if i < self.limit {
            if i >= self.dense.len() {
                let grow = (i + 1).max(self.dense.len() * 2).min(self.limit);
                self.dense.resize(grow, 0);
            }
            self.dense[i] = slot;
        } else {
            self.sparse.insert(id, slot);
        }
    }

    /// A name built from other names: saved like any other, with the shorter limit,
    /// while the budget for built names lasts.
    fn save_derived(&mut self, id: u32, name: &str) {
        if self.get(id).is_some() {
            return;
        }
        let max_len = MAX_DERIVED_LEN.min(self.derived_budget);
        if name.len() <= max_len {
            self.derived_budget -= name.len();
        }
        self.save(id, name.as_bytes(), max_len);
    }

    /// Most names in a large module are plain numbers (an id's own); they are tracked in
    /// a bit vector instead of the table.
    fn numeric(&self, name: &str) -> Option<usize> {
        let b = name.as_bytes();
        if b.is_empty()
            || b.len() > 9
            || (b[0] == b'0' && b.len() > 1)
            || !b.iter().all(u8::is_ascii_digit)
        {
            return None;
        }
        let v: usize = name.parse().ok()?;
        (v < self.limit).then_some(v)
    }

    fn is_used(&self, name: &str) -> bool {
        if let Some(v) = self.numeric(name) {
            return self.used_numbers.get(v).copied().unwrap_or(false);
        }
        if self.table.is_empty() {
            return false;
        }
        let mask = self.table.len() - 1;
        let mut at = self.hasher.hash_bytes(name.as_bytes()) as usize & mask;
        loop {
            match self.table[at] {
                0 => return false,
                slot if self.span(slot) == name => return true,
                _ => at = (at + 1) & mask,
            }
        }
    }

    /// Stores a name known to be unused; returns its 1-based span index.
    fn insert(&mut self, name: &str) -> u32 {
        let start = self.arena.len() as u32;
        self.arena.push_str(name);
        self.spans.push((start, name.len() as u32));
        let slot = self.spans.len() as u32;
        if let Some(v) = self.numeric(name) {
            if v >= self.used_numbers.len() {
                let grow = (v + 1).max(self.used_numbers.len() * 2).min(self.limit);
                self.used_numbers.resize(grow, false);
            }
            self.used_numbers[v] = true;
            return slot;
        }
        if self.table.len() < 2 * (self.spans.len() + 1) {
            self.grow_table();
        }
        self.place(slot);
        slot
    }

    fn place(&mut self, slot: u32) {
        let mask = self.table.len() - 1;
        let mut at = self.hasher.hash_bytes(self.span(slot).as_bytes()) as usize & mask;
        while self.table[at] != 0 {
            at = (at + 1) & mask;
        }
        self.table[at] = slot;
    }

    fn grow_table(&mut self) {
        self.resize_table((self.table.len() * 2).max(64));
    }

    fn resize_table(&mut self, len: usize) {
        let old = std::mem::take(&mut self.table);
        self.table = vec![0; len];
        for slot in old.into_iter().filter(|&s| s != 0) {
            self.place(slot);
        }
    }

    /// Makes room for `names` more names at once: the table of names in use is sized
    /// once instead of rebuilt at each doubling (a rebuild places every name again, at
    /// random places: a table of 100,000s of names misses the cache at each).
    pub fn reserve(&mut self, names: usize) {
        let names = names.min(self.limit);
        let want = (2 * (self.spans.len() + names + 1)).next_power_of_two();
        if self.table.len() < want {
            self.resize_table(want);
        }
        self.spans.reserve(names);
    }

    /// Looks at one instruction, in binary order. `constant` formats an `OpConstant`'s
    /// value as the disassembler prints it.
    pub fn observe(
        &mut self,
        opcode: Opcode,
        ops: &[u32],
        result_id: Option<u32>,
        constant: impl FnOnce(&mut String),
    ) {
        let w = |i: usize| ops.get(i).copied().unwrap_or(0);
        let rid = result_id.unwrap_or(0);
        // Names made from other names are built here, then saved with the shorter limit.
        let mut n = String::new();
        match opcode {
            Opcode::Name => {
                let bytes = spirv_core::codec::string_operand(ops.get(1..).unwrap_or(&[]));
                self.save(w(0), &bytes, MAX_NAME_LEN);
                return;
            }
            Opcode::Decorate => {
                if w(1) == spv::Decoration::BuiltIn.0 && ops.len() > 2 {
                    if let Some((_, name)) = BUILTIN_NAMES.iter().find(|(b, _)| b.0 == w(2)) {
                        self.save(w(0), name.as_bytes(), MAX_NAME_LEN);
                    }
                }
                return;
            }
            Opcode::TypeOpaque => {
                let bytes = spirv_core::codec::string_operand(ops.get(1..).unwrap_or(&[]));
                let mut name = b"Opaque_".to_vec();
                name.extend_from_slice(&bytes);
                self.save(rid, &name, MAX_NAME_LEN);
                return;
            }
            Opcode::TypeVoid => n.push_str("void"),
            Opcode::TypeBool => n.push_str("bool"),
            Opcode::TypeInt => {
                if w(2) == 0 {
                    n.push('u');
                }
                match w(1) {
                    8 => n.push_str("char"),
                    16 => n.push_str("short"),
                    32 => n.push_str("int"),
                    64 => n.push_str("long"),
                    width => {
                        if w(2) != 0 {
                            n.push('i');
                        }
                        let _ = write!(n, "{width}");
                    }
                }
            }
            Opcode::TypeFloat => {
                let name = match (w(1), ops.get(2).map(|&e| spv::FPEncoding(e))) {
                    (_, Some(spv::FPEncoding::BFloat16KHR)) => "bfloat16",
                    (_, Some(spv::FPEncoding::Float8E4M3EXT)) => "fp8e4m3",
                    (_, Some(spv::FPEncoding::Float8E5M2EXT)) => "fp8e5m2",
                    (16, _) => "half",
                    (32, _) => "float",
                    (64, _) => "double",
                    (width, _) => {
                        let _ = write!(n, "fp{width}");
                        ""
                    }
                };
                n.push_str(name);
            }
            Opcode::TypeVector => {
                let _ = write!(n, "v{}", w(2));
                self.push_name(w(1), &mut n);
            }
            Opcode::TypeMatrix => {
                let _ = write!(n, "mat{}", w(2));
                self.push_name(w(1), &mut n);
            }
            Opcode::TypeArray => {
                n.push_str("_arr_");
                self.push_name(w(1), &mut n);
                n.push('_');
                self.push_name(w(2), &mut n);
            }
            Opcode::TypeRuntimeArray => {
                n.push_str("_runtimearr_");
                self.push_name(w(1), &mut n);
            }
            Opcode::TypeNodePayloadArrayAMDX => {
                n.push_str("_payloadarr_");
                self.push_name(w(1), &mut n);
            }
            Opcode::TypePointer => {
                n.push_str("_ptr_");
                push_enumerant(&mut n, &spv::kinds::StorageClass, w(1));
                n.push('_');
                self.push_name(w(2), &mut n);
            }
            Opcode::TypeUntypedPointerKHR => {
                n.push_str("_ptr_");
                push_enumerant(&mut n, &spv::kinds::StorageClass, w(1));
            }
            Opcode::TypePipe => {
                n.push_str("Pipe");
                push_enumerant(&mut n, &spv::kinds::AccessQualifier, w(1));
            }
            Opcode::TypeEvent => n.push_str("Event"),
            Opcode::TypeDeviceEvent => n.push_str("DeviceEvent"),
            Opcode::TypeReserveId => n.push_str("ReserveId"),
            Opcode::TypeQueue => n.push_str("Queue"),
            Opcode::TypePipeStorage => n.push_str("PipeStorage"),
            Opcode::TypeNamedBarrier => n.push_str("NamedBarrier"),
            Opcode::TypeStruct => {
                let _ = write!(n, "_struct_{rid}");
            }
            Opcode::ConstantTrue => n.push_str("true"),
            Opcode::ConstantFalse => n.push_str("false"),
            Opcode::Constant => {
                self.push_name(w(0), &mut n);
                n.push('_');
                let at = n.len();
                constant(&mut n);
                // `-` becomes `n`: `int_n7`.
                n.replace_range(at.., &n[at..].replace('-', "n"));
            }
            _ => {
                if result_id.is_none() || self.get(rid).is_some() {
                    return;
                }
                let _ = write!(n, "{rid}");
            }
        }
        self.save_derived(rid, &n);
    }
}

/// Appends an enumerant's name, or the kind's name and the number if it is unknown
/// (`StorageClass99`).
fn push_enumerant(out: &mut String, kind: &spirv_core::grammar::OperandKind, v: u32) {
    match kind.enumerant(v) {
        Some(e) => out.push_str(e.name),
        None => {
            let _ = write!(out, "{}{v}", kind.name);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// n equal names: linear work, the same names as spirv-dis gives.
    #[test]
    fn equal_names_take_linear_work() {
        let n = 5000u32;
        let mut names = Names::new(10 * n as usize);
        for id in 1..=n {
            names.observe(Opcode::TypeInt, &[id, 32, 0], Some(id), |_| {});
        }
        for id in 1..=n {
            let name = b"x";
            let mut ops = vec![n + id];
            spirv_core::codec::encode_string(name, &mut ops);
            names.observe(Opcode::Name, &ops, None, |_| {});
        }
        assert_eq!(names.get(1), Some("uint"));
        assert_eq!(names.get(2), Some("uint_0"));
        assert_eq!(names.get(n), Some(format!("uint_{}", n - 2).as_str()));
        assert_eq!(names.get(n + 2), Some("x_0"));
        // Probing from `_0` each time would try n²/2 candidates.
        assert!(names.probes() <= 3 * 2 * n as usize, "{}", names.probes());
    }

    /// A name an earlier `OpName` already took is skipped once, not once per later name.
    #[test]
    fn taken_suffixes_are_skipped_in_order() {
        let mut names = Names::new(100);
        let mut name = |id: u32, s: &[u8]| {
            let mut ops = vec![id];
            spirv_core::codec::encode_string(s, &mut ops);
            names.observe(Opcode::Name, &ops, None, |_| {});
        };
        name(1, b"a");
        name(2, b"a_1");
        name(3, b"a");
        name(4, b"a");
        name(5, b"a");
        name(6, b"a.0");
        assert_eq!(names.get(3), Some("a_0"));
        assert_eq!(names.get(4), Some("a_2"));
        assert_eq!(names.get(5), Some("a_3"));
        // `a.0` sanitizes to `a_0`, which is taken: its own suffix follows.
        assert_eq!(names.get(6), Some("a_0_0"));
    }

    /// One long `OpName` used by every operand would multiply the output; past the limit
    /// the id's number stands in.
    #[test]
    fn overlong_names_fall_back_to_the_id() {
        let mut ops = vec![1];
        spirv_core::codec::encode_string(&vec![b'n'; MAX_NAME_LEN + 1], &mut ops);
        let mut names = Names::new(100);
        names.observe(Opcode::Name, &ops, None, |_| {});
        assert_eq!(names.get(1), Some("1"));
        let mut ops = vec![2];
        spirv_core::codec::encode_string(&vec![b'n'; MAX_NAME_LEN], &mut ops);
        names.observe(Opcode::Name, &ops, None, |_| {});
        assert_eq!(names.get(2).map(str::len), Some(MAX_NAME_LEN));
    }
}
