//! The type manager (spirv-opt's `TypeManager`): each type instruction's type, pooled
//! so that equal types are one [`TypeRef`] (decorations are part of a type, as in
//! spirv-opt), each pooled type's id (the last of equal types declared in the module,
//! then the first made by a pass), and the making of type instructions a pass asks for,
//! ids taken in spirv-opt's order (the type's own before its parts').
//!
//! Type kinds spirv-opt models but passes rarely make (pipes, events, cooperative
//! matrices, tensors, …) are kept as their opcode and operands.

use super::IdMap;
use crate::ir::{Inst, Ir, Section};
use spirv_core::spv::Opcode as O;
use std::collections::{BTreeMap, HashMap};

/// A pooled type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TypeRef(pub u32);

/// What a type is.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Ty {
    /// `OpTypeVoid`.
    Void,
    /// `OpTypeBool`.
    Bool,
    /// `OpTypeInt`.
    Int {
        /// Width.
        width: u32,
        /// Signedness.
        signed: bool,
    },
    /// `OpTypeFloat`.
    Float {
        /// Width.
        width: u32,
        /// The encoding operand, if present.
        encoding: Option<u32>,
    },
    /// `OpTypeVector`.
    Vector {
        /// Component type.
        elem: TypeRef,
        /// Component count.
        count: u32,
    },
    /// `OpTypeMatrix`.
    Matrix {
        /// Column type.
        col: TypeRef,
        /// Column count.
        count: u32,
    },
    /// `OpTypeImage`: sampled type, then dim, depth, arrayed, multisampled, sampled,
    /// format, access qualifier (`ReadOnly` when absent).
    Image {
        /// The sampled type.
        sampled_type: TypeRef,
        /// The other operands.
        params: [u32; 7],
    },
    /// `OpTypeSampler`.
    Sampler,
    /// `OpTypeSampledImage`.
    SampledImage(TypeRef),
    /// `OpTypeArray`: the length's words as spirv-opt compares them (a tag, the spec
    /// id if any, the literal words or the defining id).
    Array {
        /// Element type.
        elem: TypeRef,
        /// The length, as spirv-opt's `LengthInfo::words`.
        length: Vec<u32>,
    },
    /// `OpTypeRuntimeArray`.
    RuntimeArray(TypeRef),
    /// `OpTypeStruct`, with its members' decorations.
    Struct {
        /// Member types.
        members: Vec<TypeRef>,
        /// Member decorations by member index (each as its words from the decoration).
        member_decorations: BTreeMap<u32, Vec<Vec<u32>>>,
    },
    /// `OpTypeOpaque`.
    Opaque(String),
    /// `OpTypePointer` (or, without a pointee, `OpTypeUntypedPointerKHR`).
    Pointer {
        /// Pointee.
        pointee: Option<TypeRef>,
        /// Storage class.
        storage: u32,
    },
    /// `OpTypeFunction`.
    Function {
        /// Return type.
        ret: TypeRef,
        /// Parameter types.
        params: Vec<TypeRef>,
    },
    /// `OpTypeForwardPointer`.
    ForwardPointer {
        /// The pointer type it declares.
        target: u32,
        /// Storage class.
        storage: u32,
    },
    /// Another type: its opcode and in-operand words.
    Other {
        /// Opcode.
        opcode: u16,
        /// In-operand words.
        words: Vec<u32>,
    },
}

/// A type with its decorations.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Key {
    ty: Ty,
    /// Decorations (words after the target), sorted.
    decorations: Vec<Vec<u32>>,
}

/// A pooled type's data.
#[derive(Debug, Clone)]
struct Entry {
    key: Key,
    /// For arrays: the length's id (not part of the type's identity).
    length_id: u32,
}

/// The type manager.
#[derive(Debug, Clone)]
pub struct Types {
    pool: Vec<Entry>,
    index: HashMap<Key, TypeRef>,
    id_to_type: IdMap<TypeRef>,
    type_to_id: HashMap<TypeRef, u32>,
}

/// Whether a type kind may have several ids (`IsUniqueType` false).
fn ambiguous(ty: &Ty) -> bool {
    matches!(
        ty,
        Ty::Pointer { .. } | Ty::Struct { .. } | Ty::Array { .. } | Ty::RuntimeArray(_)
    )
}

impl Types {
    /// The types of `ir` (`AnalyzeTypes`); `decorations` gives the decorations of an id
    /// (linkage included), as the decoration manager does.
    pub fn build(ir: &Ir, decorations: &dyn Fn(u32) -> Vec<Inst>) -> Types {
        let n = ir.section(Section::TypesValues).count();
        let mut t = Types {
            pool: Vec::new(),
            index: HashMap::new(),
            id_to_type: IdMap::new(super::id_cap(n)),
            type_to_id: HashMap::new(),
        };
        // The constants first: array lengths are looked up among them.
        let mut consts: HashMap<u32, Inst> = HashMap::new();
        for i in ir.section(Section::TypesValues) {
            if spirv_core::__private::opt::is_constant(ir.opcode(i)) {
                consts.insert(ir.result_id(i), i);
            }
        }
        for i in ir.section(Section::TypesValues) {
            if crate::ir::load::is_type(ir.opcode(i)) {
                t.record(ir, i, decorations, &consts);
            }
        }
        t
    }

    fn intern(&mut self, key: Key, length_id: u32) -> TypeRef {
        if let Some(&r) = self.index.get(&key) {
            return r;
        }
        let r = TypeRef(self.pool.len() as u32);
        self.index.insert(key.clone(), r);
        self.pool.push(Entry { key, length_id });
        r
    }

    /// `RecordIfTypeDefinition`: the type of a type instruction, pooled; the pooled
    /// type's id becomes this one.
    fn record(
        &mut self,
        ir: &Ir,
        i: Inst,
        decorations: &dyn Fn(u32) -> Vec<Inst>,
        consts: &HashMap<u32, Inst>,
    ) {
        let d = ir.data(i);
        let id = d.result_id();
        let get = |t: &Types, id: u32| t.id_to_type.get(id).copied();
        let w = |k: usize| d.in_word(k);
        let mut length_id = 0;
        let ty = match d.opcode() {
            O::TypeVoid => Ty::Void,
            O::TypeBool => Ty::Bool,
            O::TypeInt => Ty::Int {
                width: w(0),
                signed: w(1) != 0,
            },
            O::TypeFloat => Ty::Float {
                width: w(0),
                encoding: (d.num_in_operands() > 1).then(|| w(1)),
            },
            O::TypeVector | O::TypeMatrix => {
                let Some(e) = get(self, w(0)) else {
                    return;
                };
                if d.opcode() == O::TypeVector {
                    Ty::Vector {
                        elem: e,
                        count: w(1),
                    }
                } else {
                    Ty::Matrix {
                        col: e,
                        count: w(1),
                    }
                }
            }
            O::TypeImage => {
                let Some(s) = get(self, w(0)) else { return };
                let access = if d.num_in_operands() < 8 { 0 } else { w(7) };
                Ty::Image {
                    sampled_type: s,
                    params: [w(1), w(2), w(3), w(4), w(5), w(6), access],
                }
            }
            O::TypeSampler => Ty::Sampler,
            O::TypeSampledImage => match get(self, w(0)) {
                Some(s) => Ty::SampledImage(s),
                None => return,
            },
            O::TypeArray => {
                let Some(e) = get(self, w(0)) else { return };
                length_id = w(1);
                Ty::Array {
                    elem: e,
                    length: array_length(
                        ir,
                        length_id,
                        consts.get(&length_id).copied(),
                        decorations,
                    ),
                }
            }
            O::TypeRuntimeArray => match get(self, w(0)) {
                Some(e) => Ty::RuntimeArray(e),
                None => return,
            },
            O::TypeStruct => {
                let mut members = Vec::new();
                for k in 0..d.num_in_operands() {
                    match get(self, w(k)) {
                        Some(m) => members.push(m),
                        None => return,
                    }
                }
                Ty::Struct {
                    members,
                    member_decorations: BTreeMap::new(),
                }
            }
            O::TypeOpaque => Ty::Opaque(d.string(1)),
            O::TypePointer => Ty::Pointer {
                pointee: get(self, w(1)),
                storage: w(0),
            },
            O::TypeUntypedPointerKHR => Ty::Pointer {
                pointee: None,
                storage: w(0),
            },
            O::TypeFunction => {
                let Some(ret) = get(self, w(0)) else { return };
                let mut params = Vec::new();
                for k in 1..d.num_in_operands() {
                    match get(self, w(k)) {
                        Some(p) => params.push(p),
                        None => return,
                    }
                }
                Ty::Function { ret, params }
            }
            O::TypeForwardPointer => {
                // Kept apart from the pool, as spirv-opt's incomplete types.
                return;
            }
            op => {
                let mut words = Vec::new();
                for k in 0..d.num_in_operands() {
                    words.extend_from_slice(d.in_operand_words(k));
                }
                Ty::Other {
                    opcode: op.0,
                    words,
                }
            }
        };
        let mut key = Key {
            ty,
            decorations: Vec::new(),
        };
        for dec in decorations(id) {
            attach(ir, dec, &mut key);
        }
        key.decorations.sort();
        let r = self.intern(key, length_id);
        self.id_to_type.insert(id, r);
        self.type_to_id.insert(r, id);
    }

    /// The type of id `id` (`GetType`).
    pub fn get(&self, id: u32) -> Option<TypeRef> {
        self.id_to_type.get(id).copied()
    }

    /// What `t` is.
    pub fn ty(&self, t: TypeRef) -> &Ty {
        &self.pool[t.0 as usize].key.ty
    }

    /// `t`'s decorations (words after the target).
    pub fn decorations(&self, t: TypeRef) -> &[Vec<u32>] {
        &self.pool[t.0 as usize].key.decorations
    }

    /// The id of `t`, or 0 (`GetId`).
    pub fn id_of(&self, t: TypeRef) -> u32 {
        self.type_to_id.get(&t).copied().unwrap_or(0)
    }

    /// The pooled type of `ty` with no decorations, pooled now if it was not.
    pub fn intern_plain(&mut self, ty: Ty) -> TypeRef {
        self.intern(
            Key {
                ty,
                decorations: Vec::new(),
            },
            0,
        )
    }

    /// The pooled type of `ty` with no decorations, if it is pooled.
    pub fn find_plain(&self, ty: Ty) -> Option<TypeRef> {
        self.index
            .get(&Key {
                ty,
                decorations: Vec::new(),
            })
            .copied()
    }

    /// `RegisterType`: `id`'s type is `t`, and `t`'s id is `id` if it had none.
    pub fn register(&mut self, id: u32, t: TypeRef) {
        self.id_to_type.insert(id, t);
        self.type_to_id.entry(t).or_insert(id);
    }

    /// Forgets `id` (`RemoveId`): a type that several ids may name passes to another
    /// id of an equal type.
    pub fn remove_id(&mut self, id: u32) {
        let Some(t) = self.id_to_type.get(id).copied() else {
            return;
        };
        if ambiguous(self.ty(t)) {
            if self.type_to_id.get(&t) == Some(&id) {
                let other = self
                    .id_to_type
                    .iter()
                    .find(|&(i, &u)| i != id && u == t)
                    .map(|(i, _)| i);
                match other {
                    Some(o) => {
                        self.type_to_id.insert(t, o);
                    }
                    None => {
                        self.type_to_id.remove(&t);
                    }
                }
            }
        } else {
            self.type_to_id.remove(&t);
        }
        self.id_to_type.remove(id);
    }

    /// For an array type: its length's id.
    pub fn array_length_id(&self, t: TypeRef) -> u32 {
        self.pool[t.0 as usize].length_id
    }

    /// The type of member `index` of `t` (struct member, array, vector or matrix
    /// element).
    pub fn member_type(&self, t: TypeRef, index: u32) -> Option<TypeRef> {
        match self.ty(t) {
            Ty::Struct { members, .. } => members.get(index as usize).copied(),
            Ty::Array { elem, .. }
            | Ty::RuntimeArray(elem)
            | Ty::Vector { elem, .. }
            | Ty::Matrix { col: elem, .. } => Some(*elem),
            _ => None,
        }
    }
}

/// Adds a decoration instruction to a type's key (`AttachDecoration`).
fn attach(ir: &Ir, dec: Inst, key: &mut Key) {
    let d = ir.data(dec);
    match d.opcode() {
        O::Decorate | O::DecorateId => {
            let mut data = Vec::new();
            for k in 1..d.num_operands() {
                data.extend_from_slice(d.operand_words(k));
            }
            key.decorations.push(data);
        }
        O::MemberDecorate => {
            let index = d.word(1);
            let data: Vec<u32> = (2..d.num_operands()).map(|k| d.word(k)).collect();
            if let Ty::Struct {
                member_decorations, ..
            } = &mut key.ty
            {
                member_decorations.entry(index).or_default().push(data);
            }
        }
        _ => {}
    }
}

/// An array length's words as spirv-opt compares them (`Array::LengthInfo`).
fn array_length(
    ir: &Ir,
    length_id: u32,
    def: Option<Inst>,
    decorations: &dyn Fn(u32) -> Vec<Inst>,
) -> Vec<u32> {
    // kDefiningId = 0, kConstant = 1, kConstantWithSpecId = 2.
    let Some(def) = def else {
        return vec![0, length_id];
    };
    let op = ir.opcode(def);
    let mut spec_id = None;
    if op == O::SpecConstant {
        for dec in decorations(length_id) {
            let d = ir.data(dec);
            if d.opcode() == O::Decorate && d.in_word(1) == spirv_core::spv::Decoration::SpecId.0 {
                spec_id = Some(d.word(2));
            }
        }
    }
    let mut words = vec![0];
    if let Some(s) = spec_id {
        words.push(s);
    }
    if matches!(op, O::Constant | O::SpecConstant) {
        words.extend_from_slice(ir.data(def).operand_words(2));
        words[0] = if spec_id.is_some() { 2 } else { 1 };
    } else {
        words.push(length_id);
    }
    words
}
