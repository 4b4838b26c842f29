//! `--trim-capabilities`' opcode handlers (`source/opt/trim_capabilities_pass.cpp`,
//! `Handler_*`): the capabilities the grammar cannot tell from an instruction alone.
//!
//! The pointer handlers ask whether a walk of a pointer's type (through pointees,
//! element types and members, as spirv-opt's `DFSWhile` walks) reaches a 16-bit scalar,
//! possibly through a `Block` or `BufferBlock` type or avoiding `BufferBlock` types.
//! spirv-opt walks once per pointer; here each question is answered for every type at
//! once by one backward search, so the cost stays linear.

use super::cap;
use crate::structural::duplicates::Decorations;
use spirv_core::__private::opt::IdTable;
use spirv_core::edit::DefIndex;
use spirv_core::grammar::KindClass;
use spirv_core::spv::Opcode as O;
use spirv_core::{InstRef, Module, Section};

/// `Decoration::Block`, `Decoration::BufferBlock`.
const BLOCK: u32 = 2;
const BUFFER_BLOCK: u32 = 3;
/// Storage classes.
const UNIFORM: u32 = 2;
const INPUT: u32 = 1;
const OUTPUT: u32 = 3;
const PUSH_CONSTANT: u32 = 9;
const STORAGE_BUFFER: u32 = 12;
const SHADER_RECORD_BUFFER: u32 = 5343;
const PHYSICAL_STORAGE_BUFFER: u32 = 5349;
/// `Dim::SubpassData`, `ImageFormat::Unknown`.
const SUBPASS_DATA: u32 = 6;
const UNKNOWN_FORMAT: u32 = 0;

/// The module's types as `DFSWhile` walks them, and the answers to the pointer
/// handlers' questions, each computed when first asked.
pub(super) struct Handlers<'m> {
    module: &'m Module,
    decorations: &'m Decorations<'m>,
    defs: DefIndex,
    /// Whether the module declares (or implies) `Float16` or `Int16`.
    has_16bit: bool,
    /// Whether it declares (or implies) `StorageUniformBufferBlock16`.
    has_buffer_block_16: bool,
    /// Types by position; position of each type id.
    types: Vec<u32>,
    position: IdTable<u32>,
    /// Who walks to each type: compressed rows of positions.
    parent_starts: Vec<u32>,
    parents: Vec<u32>,
    reaches_16: Option<Vec<bool>>,
    reaches_16_avoiding_buffer_block: Option<Vec<bool>>,
    reaches_block_16: Option<Vec<bool>>,
    reaches_buffer_block_16: Option<Vec<bool>>,
}

/// The ids `DFSWhile` walks to from a type instruction: a pointer's pointee, the
/// element type of a matrix, vector or array, a struct's members.
fn walk_children<'a>(inst: &InstRef<'a>) -> &'a [u32] {
    let ops = inst.operands();
    match inst.opcode() {
        O::TypePointer => ops.get(2..3),
        O::TypeMatrix | O::TypeVector | O::TypeArray | O::TypeRuntimeArray => ops.get(1..2),
        O::TypeStruct => ops.get(1..),
        _ => None,
    }
    .unwrap_or(&[])
}

/// Whether a type instruction is a 16-bit integer or float.
fn is_16bit(inst: &InstRef<'_>) -> bool {
    matches!(inst.opcode(), O::TypeInt | O::TypeFloat) && inst.operands().get(1) == Some(&16)
}

impl<'m> Handlers<'m> {
    /// The handlers for `module`, which declares (or implies) `capabilities` (sorted).
    pub(super) fn new(
        module: &'m Module,
        decorations: &'m Decorations<'m>,
        capabilities: &[u32],
    ) -> Self {
        let has = |c: u32| capabilities.binary_search(&c).is_ok();
        let cap = module.word_len().saturating_mul(2).max(1024);
        let mut types = Vec::new();
        let mut position: IdTable<u32> = IdTable::new();
        for inst in module.section(Section::Global) {
            if spirv_core::__private::opt::generates_type(inst.opcode()) {
                if let Some(id) = inst.result_id() {
                    position.insert(id.0, types.len() as u32, cap);
                    types.push(inst.index() as u32);
                }
            }
        }
        // Edges (child, parent) between types, then rows by child.
        let mut edges: Vec<(u32, u32)> = Vec::new();
        for (p, &index) in types.iter().enumerate() {
            let Some(inst) = module.instruction(index as usize) else {
                continue;
            };
            for c in walk_children(&inst) {
                if let Some(&c) = position.get(*c) {
                    edges.push((c, p as u32));
                }
            }
        }
        edges.sort_unstable();
        let mut parent_starts = vec![0u32; types.len() + 1];
        for &(c, _) in &edges {
            parent_starts[c as usize + 1] += 1;
        }
        for i in 0..types.len() {
            parent_starts[i + 1] += parent_starts[i];
        }
        let parents = edges.into_iter().map(|(_, p)| p).collect();
        Handlers {
            module,
            decorations,
            defs: DefIndex::new(module),
            has_16bit: has(cap::FLOAT16) || has(cap::INT16),
            has_buffer_block_16: has(cap::STORAGE_BUFFER_16BIT_ACCESS),
            types,
            position,
            parent_starts,
            parents,
            reaches_16: None,
            reaches_16_avoiding_buffer_block: None,
            reaches_block_16: None,
            reaches_buffer_block_16: None,
        }
    }

    fn inst(&self, position: usize) -> Option<InstRef<'m>> {
        self.module.instruction(*self.types.get(position)? as usize)
    }

    /// The types that walk to one of `seeds`, through types `pass` allows (the seeds
    /// themselves included).
    fn walking_to(&self, seeds: impl Fn(usize) -> bool, pass: impl Fn(usize) -> bool) -> Vec<bool> {
        let n = self.types.len();
        let mut reached = vec![false; n];
        let mut stack: Vec<u32> = Vec::new();
        for (p, r) in reached.iter_mut().enumerate() {
            if seeds(p) {
                *r = true;
                stack.push(p as u32);
            }
        }
        while let Some(v) = stack.pop() {
            let (a, z) = (
                self.parent_starts[v as usize],
                self.parent_starts[v as usize + 1],
            );
            for &p in &self.parents[a as usize..z as usize] {
                if !reached[p as usize] && pass(p as usize) {
                    reached[p as usize] = true;
                    stack.push(p);
                }
            }
        }
        reached
    }

    fn sixteen(&self, p: usize) -> bool {
        self.inst(p).is_some_and(|i| is_16bit(&i))
    }

    fn decorated(&self, p: usize, decoration: u32) -> bool {
        self.inst(p)
            .and_then(|i| i.result_id())
            .is_some_and(|id| self.decorations.has(id.0, decoration))
    }

    fn reaches_16(&mut self) -> &[bool] {
        if self.reaches_16.is_none() {
            self.reaches_16 = Some(self.walking_to(|p| self.sixteen(p), |_| true));
        }
        self.reaches_16.as_deref().unwrap_or(&[])
    }

    /// Whether the walk from a pointer, not entering `BufferBlock` types when the
    /// module has `StorageUniformBufferBlock16`, reaches a 16-bit type.
    fn reaches_16_for_uniform(&mut self, p: usize) -> bool {
        if !self.has_buffer_block_16 {
            return self.reaches_16()[p];
        }
        if self.reaches_16_avoiding_buffer_block.is_none() {
            let allowed = |q: usize| !self.decorated(q, BUFFER_BLOCK);
            let r = self.walking_to(|q| self.sixteen(q) && allowed(q), allowed);
            self.reaches_16_avoiding_buffer_block = Some(r);
        }
        self.reaches_16_avoiding_buffer_block
            .as_ref()
            .is_some_and(|r| r[p])
    }

    /// Whether the walk from a pointer reaches a type decorated `decoration` whose own
    /// walk reaches a 16-bit type.
    fn reaches_decorated_16(&mut self, p: usize, decoration: u32) -> bool {
        let cached = if decoration == BLOCK {
            &self.reaches_block_16
        } else {
            &self.reaches_buffer_block_16
        };
        if cached.is_none() {
            let sixteen = self.reaches_16().to_vec();
            let r = self.walking_to(|q| sixteen[q] && self.decorated(q, decoration), |_| true);
            if decoration == BLOCK {
                self.reaches_block_16 = Some(r);
            } else {
                self.reaches_buffer_block_16 = Some(r);
            }
        }
        let cached = if decoration == BLOCK {
            &self.reaches_block_16
        } else {
            &self.reaches_buffer_block_16
        };
        cached.as_ref().is_some_and(|r| r[p])
    }

    /// The capabilities the handlers of `inst`'s opcode find it needs, in spirv-opt's
    /// handler order.
    pub(super) fn run(&mut self, inst: &InstRef<'_>, out: &mut Vec<u32>) {
        let ops = inst.operands();
        let op = |k: usize| ops.get(k).copied();
        match inst.opcode() {
            O::ImageRead => {
                if let Some((dim, format)) = self.image_type(op(2)) {
                    if format == UNKNOWN_FORMAT && dim != SUBPASS_DATA {
                        out.push(cap::STORAGE_IMAGE_READ_WITHOUT_FORMAT);
                    }
                }
            }
            O::ImageWrite if self.image_format(op(0)) == Some(UNKNOWN_FORMAT) => {
                out.push(cap::STORAGE_IMAGE_WRITE_WITHOUT_FORMAT);
            }
            O::ImageSparseRead if self.image_format(op(2)) == Some(UNKNOWN_FORMAT) => {
                out.push(cap::STORAGE_IMAGE_READ_WITHOUT_FORMAT);
            }
            O::TypeFloat => match op(1) {
                Some(16) => out.push(cap::FLOAT16),
                Some(64) => out.push(cap::FLOAT64),
                _ => {}
            },
            O::TypeImage if op(4) == Some(1) && op(6) == Some(2) && op(5) == Some(1) => {
                out.push(cap::IMAGE_MS_ARRAY);
            }
            O::TypeInt => match op(1) {
                Some(16) => out.push(cap::INT16),
                Some(64) => out.push(cap::INT64),
                _ => {}
            },
            O::TypePointer => self.pointer(inst, out),
            _ => {}
        }
    }

    /// The `OpTypePointer` handlers.
    fn pointer(&mut self, inst: &InstRef<'_>, out: &mut Vec<u32>) {
        let Some(p) = inst
            .result_id()
            .and_then(|id| self.position.get(id.0).copied())
        else {
            return;
        };
        let p = p as usize;
        let sc = inst.operands().get(1).copied().unwrap_or(u32::MAX);
        if matches!(sc, INPUT | OUTPUT) && self.has_16bit && self.reaches_16()[p] {
            out.push(cap::STORAGE_INPUT_OUTPUT_16);
        }
        if sc == PUSH_CONSTANT && self.has_16bit && self.reaches_16()[p] {
            out.push(cap::STORAGE_PUSH_CONSTANT_16);
        }
        if sc == UNIFORM && self.has_16bit && self.reaches_16_for_uniform(p) {
            out.push(cap::STORAGE_UNIFORM_16);
        }
        if sc == UNIFORM && self.has_16bit && self.reaches_decorated_16(p, BUFFER_BLOCK) {
            out.push(cap::STORAGE_BUFFER_16BIT_ACCESS);
        }
        if matches!(
            sc,
            STORAGE_BUFFER | SHADER_RECORD_BUFFER | PHYSICAL_STORAGE_BUFFER
        ) && self.reaches_decorated_16(p, BLOCK)
        {
            out.push(cap::STORAGE_BUFFER_16BIT_ACCESS);
        }
    }

    /// The `ImageFormat` of the type of value `image`.
    fn image_format(&self, image: Option<u32>) -> Option<u32> {
        self.image_type(image).map(|(_, format)| format)
    }

    /// The `Dim` and `ImageFormat` of the type of value `image`.
    fn image_type(&self, image: Option<u32>) -> Option<(u32, u32)> {
        let def = self
            .module
            .instruction(self.defs.get(spirv_core::Id(image?))?)?;
        let at = def
            .info()?
            .operands
            .iter()
            .position(|o| o.kind.class == KindClass::ResultType)?;
        let ty = *def.operands().get(at)?;
        let ty = self
            .module
            .instruction(self.defs.get(spirv_core::Id(ty))?)?;
        let ops = ty.operands();
        Some((*ops.get(2)?, *ops.get(7)?))
    }
}
