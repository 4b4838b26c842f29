//! Friendly names, made exactly as spirv-dis 2025.5 makes them.
//!
//! One pass over the module in binary order; the first name saved for an id wins, so
//! `OpName` beats `BuiltIn` decorations, which beat type and constant names. A type
//! name built from a component uses the component's name at that point (its number if
//! it has none yet). Names are sanitized to `[A-Za-z0-9_]` and made unique with `_0`,
//! `_1`, … suffixes.

use crate::fxhash::{FxHashMap, FxHashSet};
use spirv_core::spv::{self, BuiltIn, Opcode};
use spirv_core::walk::NumberType;

/// Names by id. Ids below a limit tied to the input's length live in a vector.
#[derive(Debug, Default)]
pub struct Names {
    dense: Vec<u32>,
    sparse: FxHashMap<u32, u32>,
    limit: usize,
    spans: Vec<(u32, u32)>,
    arena: String,
    used: FxHashSet<Box<str>>,
    used_numbers: Vec<bool>,
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
    (BuiltIn::SubgroupEqMask, "SubgroupEqMaskKHR"),
    (BuiltIn::SubgroupGeMask, "SubgroupGeMaskKHR"),
    (BuiltIn::SubgroupGtMask, "SubgroupGtMaskKHR"),
    (BuiltIn::SubgroupLeMask, "SubgroupLeMaskKHR"),
    (BuiltIn::SubgroupLtMask, "SubgroupLtMaskKHR"),
];

fn sanitize(s: &[u8], out: &mut String) {
    if s.is_empty() {
        out.push('_');
        return;
    }
    let bytes: Vec<u8> = s
        .iter()
        .map(|&b| {
            if b.is_ascii_alphanumeric() || b == b'_' {
                b
            } else {
                b'_'
            }
        })
        .collect();
    // Every byte is ASCII now.
    out.push_str(std::str::from_utf8(&bytes).unwrap_or_default());
}

impl Names {
    /// An empty map for an input of `words` words.
    pub fn new(words: usize) -> Self {
        Names {
            limit: words.saturating_mul(2).max(1024),
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
        let (start, len) = self.spans[slot as usize - 1];
        Some(&self.arena[start as usize..(start + len) as usize])
    }

    /// Appends the name of `id`, or its number.
    #[inline]
    pub fn write(&self, id: u32, out: &mut Vec<u8>) {
        match self.get(id) {
            Some(n) => out.extend_from_slice(n.as_bytes()),
            None => crate::dis::push_u32(out, id),
        }
    }

    fn name_or_number(&self, id: u32) -> String {
        match self.get(id) {
            Some(n) => n.to_owned(),
            None => id.to_string(),
        }
    }

    /// Saves a name for `id` unless it has one: sanitized, then made unique.
    pub fn save(&mut self, id: u32, suggested: &[u8]) {
        if self.get(id).is_some() {
            return;
        }
        let mut base = String::with_capacity(suggested.len() + 4);
        sanitize(suggested, &mut base);
        let name = if self.is_used(&base) {
            let mut i = 0u32;
            loop {
                let candidate = format!("{base}_{i}");
                if !self.is_used(&candidate) {
                    break candidate;
                }
                i += 1;
            }
        } else {
            base
        };
        self.mark_used(&name);
        let start = self.arena.len() as u32;
        self.arena.push_str(&name);
        self.spans.push((start, name.len() as u32));
        let slot = self.spans.len() as u32;
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

    /// Most names in a large module are plain numbers (an id's own); they are tracked in
    /// a bit vector instead of the set of strings.
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
        match self.numeric(name) {
            Some(v) => self.used_numbers.get(v).copied().unwrap_or(false),
            None => self.used.contains(name),
        }
    }

    fn mark_used(&mut self, name: &str) {
        match self.numeric(name) {
            Some(v) => {
                if v >= self.used_numbers.len() {
                    let grow = (v + 1).max(self.used_numbers.len() * 2).min(self.limit);
                    self.used_numbers.resize(grow, false);
                }
                self.used_numbers[v] = true;
            }
            None => {
                self.used.insert(name.into());
            }
        }
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
        match opcode {
            Opcode::Name => {
                let bytes = string_operand(ops.get(1..).unwrap_or(&[]));
                self.save(w(0), &bytes);
            }
            Opcode::Decorate => {
                if w(1) == spv::Decoration::BuiltIn.0 && ops.len() > 2 {
                    if let Some((_, n)) = BUILTIN_NAMES.iter().find(|(b, _)| b.0 == w(2)) {
                        self.save(w(0), n.as_bytes());
                    }
                }
            }
            Opcode::TypeVoid => self.save(rid, b"void"),
            Opcode::TypeBool => self.save(rid, b"bool"),
            Opcode::TypeInt => {
                let width = w(1);
                let (mut sign, root) = match width {
                    8 => ("", "char".to_owned()),
                    16 => ("", "short".to_owned()),
                    32 => ("", "int".to_owned()),
                    64 => ("", "long".to_owned()),
                    n => ("i", n.to_string()),
                };
                if w(2) == 0 {
                    sign = "u";
                }
                self.save(rid, format!("{sign}{root}").as_bytes());
            }
            Opcode::TypeFloat => {
                let enc = ops
                    .get(2)
                    .and_then(|&e| spv::kinds::FPEncoding.enumerant(e))
                    .map(|e| e.name);
                let name = match (w(1), enc) {
                    (_, Some("BFloat16KHR")) => "bfloat16".to_owned(),
                    (_, Some("Float8E4M3EXT")) => "fp8e4m3".to_owned(),
                    (_, Some("Float8E5M2EXT")) => "fp8e5m2".to_owned(),
                    (16, _) => "half".to_owned(),
                    (32, _) => "float".to_owned(),
                    (64, _) => "double".to_owned(),
                    (n, _) => format!("fp{n}"),
                };
                self.save(rid, name.as_bytes());
            }
            Opcode::TypeVector => {
                let n = format!("v{}{}", w(2), self.name_or_number(w(1)));
                self.save(rid, n.as_bytes());
            }
            Opcode::TypeMatrix => {
                let n = format!("mat{}{}", w(2), self.name_or_number(w(1)));
                self.save(rid, n.as_bytes());
            }
            Opcode::TypeArray => {
                let n = format!(
                    "_arr_{}_{}",
                    self.name_or_number(w(1)),
                    self.name_or_number(w(2))
                );
                self.save(rid, n.as_bytes());
            }
            Opcode::TypeRuntimeArray => {
                let n = format!("_runtimearr_{}", self.name_or_number(w(1)));
                self.save(rid, n.as_bytes());
            }
            Opcode::TypeNodePayloadArrayAMDX => {
                let n = format!("_payloadarr_{}", self.name_or_number(w(1)));
                self.save(rid, n.as_bytes());
            }
            Opcode::TypePointer => {
                let n = format!("_ptr_{}_{}", storage_class(w(1)), self.name_or_number(w(2)));
                self.save(rid, n.as_bytes());
            }
            Opcode::TypeUntypedPointerKHR => {
                let n = format!("_ptr_{}", storage_class(w(1)));
                self.save(rid, n.as_bytes());
            }
            Opcode::TypePipe => {
                let q = spv::kinds::AccessQualifier
                    .enumerant(w(1))
                    .map_or_else(|| format!("AccessQualifier{}", w(1)), |e| e.name.to_owned());
                self.save(rid, format!("Pipe{q}").as_bytes());
            }
            Opcode::TypeEvent => self.save(rid, b"Event"),
            Opcode::TypeDeviceEvent => self.save(rid, b"DeviceEvent"),
            Opcode::TypeReserveId => self.save(rid, b"ReserveId"),
            Opcode::TypeQueue => self.save(rid, b"Queue"),
            Opcode::TypeOpaque => {
                let bytes = string_operand(ops.get(1..).unwrap_or(&[]));
                let mut n = String::from("Opaque_");
                sanitize(&bytes, &mut n);
                self.save(rid, n.as_bytes());
            }
            Opcode::TypePipeStorage => self.save(rid, b"PipeStorage"),
            Opcode::TypeNamedBarrier => self.save(rid, b"NamedBarrier"),
            Opcode::TypeStruct => self.save(rid, format!("_struct_{rid}").as_bytes()),
            Opcode::ConstantTrue => self.save(rid, b"true"),
            Opcode::ConstantFalse => self.save(rid, b"false"),
            Opcode::Constant => {
                let mut value = String::new();
                constant(&mut value);
                let value = value.replace('-', "n");
                let n = format!("{}_{value}", self.name_or_number(w(0)));
                self.save(rid, n.as_bytes());
            }
            _ => {
                if result_id.is_some() && self.get(rid).is_none() {
                    self.save(rid, rid.to_string().as_bytes());
                }
            }
        }
    }
}

/// The bytes of a literal string operand up to its NUL.
fn string_operand(words: &[u32]) -> Vec<u8> {
    words
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .take_while(|&b| b != 0)
        .collect()
}

fn storage_class(v: u32) -> String {
    spv::kinds::StorageClass
        .enumerant(v)
        .map_or_else(|| format!("StorageClass{v}"), |e| e.name.to_owned())
}

/// Formats a constant's literal as the disassembler prints it (for constant names).
pub fn constant_text(out: &mut String, words: &[u32], ty: Option<NumberType>) {
    if let Some(t) = ty {
        crate::number::fmt_typed(out, words, t);
    }
}
