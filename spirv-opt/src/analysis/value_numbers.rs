//! The value-number table (spirv-opt's `ValueNumberTable`,
//! `source/opt/value_number_table.cpp`): a number for each result id such that two ids
//! with the same number hold the same value. Instructions with effects, variables,
//! images, samplers and loads from writable memory each get a fresh number; a copy (or
//! a phi whose inputs all agree) takes its source's; any other instruction is keyed by
//! its opcode, result type, decorations and operands (ids replaced by their numbers
//! where they have one, commutative operands sorted), and shares the number of an
//! earlier instruction with the same key.
//!
//! Built once per pass over the whole module, in spirv-opt's order: decoration groups,
//! types and values, extended-instruction imports, global debug info, then each
//! function's blocks in layout order (labels, parameters and `OpFunction` get none).
//! Unlike spirv-opt, which compares two ids' decorations pairwise on every key
//! collision, each id's decorations are reduced once to a class number that is part of
//! the key, so lookups stay constant time however many instructions share operands.

use super::{IdHashMap, IdMap, id_cap};
use crate::context::Context;
use crate::ir::{Inst, Kind, Section};
use spirv_core::spv::Opcode as O;
use std::collections::{BTreeSet, HashMap};

/// A storage class's number.
const UNIFORM_CONSTANT: u32 = 0;
const INPUT: u32 = 1;
const UNIFORM: u32 = 2;
const PUSH_CONSTANT: u32 = 9;
const STORAGE_BUFFER: u32 = 12;
/// Decorations looked at.
const BLOCK: u32 = 2;
const BUFFER_BLOCK: u32 = 3;
const NON_WRITABLE: u32 = 24;
/// `Dim::Buffer`.
const DIM_BUFFER: u32 = 5;
/// The `Shader` capability.
const SHADER: u32 = 1;

/// One id's decorations, as `HaveTheSameDecorations` compares them.
type Signature = [BTreeSet<Vec<u32>>; 4];

/// The value number of every result id of a module.
#[derive(Debug, Clone)]
pub struct ValueNumbers {
    id_to_value: IdMap<u32>,
}

impl ValueNumbers {
    /// Numbers every result id of `cx`'s module (`BuildDominatorTreeValueNumberTable`).
    pub fn build(cx: &mut Context) -> ValueNumbers {
        let n = cx.ir.instruction_count();
        let mut b = Builder {
            id_to_value: IdMap::new(id_cap(n)),
            keys: HashMap::new(),
            read_only: IdHashMap::default(),
            classes: IdMap::new(id_cap(n)),
            signatures: HashMap::new(),
            next: 1,
            key: Vec::new(),
            shader: cx.has_capability(SHADER),
        };
        let mut order: Vec<Inst> = Vec::new();
        for s in [
            Section::Annotation,
            Section::Capability,
            Section::TypesValues,
            Section::ExtInstImport,
            Section::ExtInstDebugInfo,
        ] {
            order.extend(cx.ir.section(s));
        }
        for &f in cx.ir.functions() {
            for blk in cx.ir.blocks(f) {
                order.extend(cx.ir.insts(blk));
            }
        }
        for i in order {
            if cx.ir.result_id(i) != 0 {
                b.assign(cx, i);
            }
        }
        ValueNumbers {
            id_to_value: b.id_to_value,
        }
    }

    /// The value number of `id`, 0 when it has none (`GetValueNumber`).
    pub fn value_of(&self, id: u32) -> u32 {
        self.id_to_value.get(id).copied().unwrap_or(0)
    }
}

/// The table while it is built.
struct Builder {
    id_to_value: IdMap<u32>,
    /// Key words (opcode, type, decoration class, operands) to value number.
    keys: HashMap<Box<[u32]>, u32>,
    /// Base address id to whether it is read-only (`read_only_variable_cache_`).
    read_only: IdHashMap<u32, bool>,
    /// Id to its decorations' class.
    classes: IdMap<u32>,
    /// Decoration signature to class; class 0 is "none".
    signatures: HashMap<Signature, u32>,
    next: u32,
    key: Vec<u32>,
    shader: bool,
}

impl Builder {
    fn fresh(&mut self, id: u32) -> u32 {
        let v = self.next;
        self.next = self.next.wrapping_add(1);
        self.id_to_value.insert(id, v);
        v
    }

    fn value(&self, id: u32) -> u32 {
        self.id_to_value.get(id).copied().unwrap_or(0)
    }

    /// The class of `id`'s decorations: equal classes, same decorations.
    fn class(&mut self, cx: &mut Context, id: u32) -> u32 {
        if let Some(&c) = self.classes.get(id) {
            return c;
        }
        let c = match cx.decoration_signature(id) {
            Some(sig) if !sig.iter().all(BTreeSet::is_empty) => {
                let next = self.signatures.len() as u32 + 1;
                *self.signatures.entry(sig).or_insert(next)
            }
            _ => 0,
        };
        self.classes.insert(id, c);
        c
    }

    fn same_decorations(&mut self, cx: &mut Context, a: u32, b: u32) -> bool {
        self.class(cx, a) == self.class(cx, b)
    }

    /// `AssignValueNumber`.
    fn assign(&mut self, cx: &mut Context, i: Inst) -> u32 {
        let id = cx.ir.result_id(i);
        let v = self.value(id);
        if v != 0 {
            return v;
        }
        if !cx.is_combinator(i) && cx.common_debug_opcode(i).is_none() {
            return self.fresh(id);
        }
        let op = cx.ir.opcode(i);
        if matches!(op, O::SampledImage | O::Image | O::Variable) {
            return self.fresh(id);
        }
        if is_load(op) {
            let ty = cx.ir.type_id(i);
            let opaque = cx.get_def(ty).is_some_and(|t| {
                matches!(
                    cx.ir.opcode(t),
                    O::TypeSampledImage | O::TypeImage | O::TypeSampler
                )
            });
            if opaque || !self.is_read_only_load(cx, i) {
                return self.fresh(id);
            }
        }
        let n_in = cx.ir.data(i).num_in_operands();
        if op == O::CopyObject && n_in > 0 {
            let src = cx.ir.data(i).in_word(0);
            if self.same_decorations(cx, id, src) {
                let v = self.value(src);
                if v != 0 {
                    self.id_to_value.insert(id, v);
                    return v;
                }
            }
        }
        if op == O::Phi && n_in > 0 {
            let first = cx.ir.data(i).in_word(0);
            if self.same_decorations(cx, id, first) {
                let v = self.value(first);
                if v != 0 {
                    let trc = cx.ir.data(i).type_result_count();
                    let mut all = true;
                    cx.ir.data(i).for_each_operand(|k, _, w| {
                        if k >= trc + 2 && (k - trc) % 2 == 0 {
                            let w = w.first().copied().unwrap_or(0);
                            all &= self.value(w) == v;
                        }
                    });
                    if all {
                        self.id_to_value.insert(id, v);
                        return v;
                    }
                }
            }
        }
        // The key: operands with ids replaced by their numbers (sign bit set).
        let class = self.class(cx, id);
        let mut key = std::mem::take(&mut self.key);
        key.clear();
        let d = cx.ir.data(i);
        key.extend_from_slice(&[u32::from(op.0), d.type_id(), class]);
        let trc = d.type_result_count();
        let numbered = |kind: Kind, w: &[u32]| -> u32 {
            let w0 = w.first().copied().unwrap_or(0);
            if !kind.is_id() {
                return w0;
            }
            match self.id_to_value.get(w0) {
                Some(&v) => (1 << 31) | v,
                None => w0,
            }
        };
        let commutative = n_in >= 2 && is_commutative(op);
        let pair = commutative.then(|| {
            let a = numbered(d.kind(trc).unwrap_or(Kind::Literal), d.operand_words(trc));
            let b = numbered(
                d.kind(trc + 1).unwrap_or(Kind::Literal),
                d.operand_words(trc + 1),
            );
            (a, b)
        });
        if let Some((a, b)) = pair.filter(|(a, b)| a > b) {
            // spirv-opt's normal form keeps just the two operands, as plain ids.
            let tag = (Kind::Id as u32) << 24 | 1;
            key.extend_from_slice(&[tag, b, tag, a]);
        } else {
            d.for_each_operand(|k, kind, w| {
                if k < trc {
                    return;
                }
                key.push((kind as u32) << 24 | (w.len() as u32 & 0xff_ffff));
                if kind.is_id() && w.len() == 1 {
                    key.push(numbered(kind, w));
                } else {
                    key.extend_from_slice(w);
                }
            });
        }
        let v = match self.keys.get(key.as_slice()) {
            Some(&v) => {
                self.id_to_value.insert(id, v);
                v
            }
            None => {
                let v = self.fresh(id);
                self.keys.insert(key.clone().into_boxed_slice(), v);
                v
            }
        };
        self.key = key;
        v
    }

    /// `IsReadOnlyLoad`: the load's base address is a read-only variable, or a load
    /// of a sampled image whose image is sampled.
    fn is_read_only_load(&mut self, cx: &mut Context, load: Inst) -> bool {
        let Some(base) = base_address(cx, load) else {
            return false;
        };
        let base_id = cx.ir.result_id(base);
        if let Some(&r) = self.read_only.get(&base_id) {
            return r;
        }
        let r = self.is_read_only_variable(cx, base);
        self.read_only.insert(base_id, r);
        r
    }

    /// `IsReadOnlyVariable`.
    fn is_read_only_variable(&mut self, cx: &mut Context, base: Inst) -> bool {
        match cx.ir.opcode(base) {
            O::Variable => self.is_read_only_pointer(cx, base),
            O::Load => {
                let ty = cx.ir.type_id(base);
                let Some(t) = cx.get_def(ty) else {
                    return false;
                };
                if cx.ir.opcode(t) != O::TypeSampledImage {
                    return false;
                }
                let image = cx.ir.data(t).in_word(0);
                cx.get_def(image).is_some_and(|im| {
                    cx.ir.opcode(im) == O::TypeImage && cx.ir.data(im).in_word(5) == 1
                })
            }
            _ => false,
        }
    }

    /// `IsReadOnlyPointer` of a variable.
    fn is_read_only_pointer(&mut self, cx: &mut Context, var: Inst) -> bool {
        let ty = cx.ir.type_id(var);
        if ty == 0 {
            return false;
        }
        let Some(ptr) = cx.get_def(ty) else {
            return false;
        };
        if cx.ir.opcode(ptr) != O::TypePointer {
            return false;
        }
        let storage = cx.ir.data(ptr).in_word(0);
        if !self.shader {
            return storage == UNIFORM_CONSTANT;
        }
        let read_only = match storage {
            UNIFORM_CONSTANT => {
                !is_storage_image(cx, ptr, false) && !is_storage_image(cx, ptr, true)
            }
            UNIFORM => !is_storage_buffer(cx, ptr),
            PUSH_CONSTANT | INPUT => true,
            _ => false,
        };
        if read_only {
            return true;
        }
        let id = cx.ir.result_id(var);
        cx.has_decoration(id, NON_WRITABLE)
    }
}

/// `spvOpcodeIsLoad`.
fn is_load(op: O) -> bool {
    matches!(
        op,
        O::Load
            | O::ImageSampleExplicitLod
            | O::ImageSampleImplicitLod
            | O::ImageSampleDrefImplicitLod
            | O::ImageSampleDrefExplicitLod
            | O::ImageSampleProjImplicitLod
            | O::ImageSampleProjExplicitLod
            | O::ImageSampleProjDrefImplicitLod
            | O::ImageSampleProjDrefExplicitLod
            | O::ImageSampleFootprintNV
            | O::ImageFetch
            | O::ImageGather
            | O::ImageDrefGather
            | O::ImageRead
            | O::ImageSparseSampleImplicitLod
            | O::ImageSparseSampleExplicitLod
            | O::ImageSparseSampleDrefExplicitLod
            | O::ImageSparseSampleDrefImplicitLod
            | O::ImageSparseFetch
            | O::ImageSparseGather
            | O::ImageSparseDrefGather
            | O::ImageSparseRead
    )
}

/// The opcodes whose two operands the table sorts.
fn is_commutative(op: O) -> bool {
    matches!(
        op,
        O::IAdd
            | O::FAdd
            | O::IMul
            | O::FMul
            | O::Dot
            | O::LogicalEqual
            | O::LogicalNotEqual
            | O::LogicalOr
            | O::LogicalAnd
            | O::IEqual
            | O::INotEqual
            | O::BitwiseOr
            | O::BitwiseXor
            | O::BitwiseAnd
    )
}

/// `GetBaseAddress`: under in-operand 0 through access chains, texel pointers and
/// copies. The walk stops after as many steps as the module has instructions (a
/// cycle of copies in an invalid module would keep spirv-opt walking forever).
fn base_address(cx: &mut Context, i: Inst) -> Option<Inst> {
    let mut base = cx.get_def(cx.ir.data(i).in_word(0))?;
    let mut steps = cx.ir.instruction_count();
    while matches!(
        cx.ir.opcode(base),
        O::AccessChain
            | O::InBoundsAccessChain
            | O::PtrAccessChain
            | O::InBoundsPtrAccessChain
            | O::ImageTexelPointer
            | O::CopyObject
    ) {
        steps = steps.checked_sub(1)?;
        base = cx.get_def(cx.ir.data(base).in_word(0))?;
    }
    Some(base)
}

/// The pointee of pointer type `ptr`, through one level of (runtime) array.
fn pointee_unarrayed(cx: &mut Context, ptr: Inst) -> Option<Inst> {
    let mut t = cx.get_def(cx.ir.data(ptr).in_word(1))?;
    if matches!(cx.ir.opcode(t), O::TypeArray | O::TypeRuntimeArray) {
        t = cx.get_def(cx.ir.data(t).in_word(0))?;
    }
    Some(t)
}

/// `IsVulkanStorageImage` (or with `texel_buffer`, `IsVulkanStorageTexelBuffer`) of a
/// `UniformConstant` pointer type.
fn is_storage_image(cx: &mut Context, ptr: Inst, texel_buffer: bool) -> bool {
    let Some(t) = pointee_unarrayed(cx, ptr) else {
        return false;
    };
    if cx.ir.opcode(t) != O::TypeImage {
        return false;
    }
    let d = cx.ir.data(t);
    (d.in_word(1) == DIM_BUFFER) == texel_buffer && d.in_word(5) != 1
}

/// `IsVulkanStorageBuffer` of a pointer type.
fn is_storage_buffer(cx: &mut Context, ptr: Inst) -> bool {
    let Some(t) = pointee_unarrayed(cx, ptr) else {
        return false;
    };
    if cx.ir.opcode(t) != O::TypeStruct {
        return false;
    }
    let id = cx.ir.result_id(t);
    match cx.ir.data(ptr).in_word(0) {
        UNIFORM => cx.has_decoration(id, BUFFER_BLOCK),
        STORAGE_BUFFER => cx.has_decoration(id, BLOCK),
        _ => false,
    }
}
