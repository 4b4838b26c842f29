//! The constant manager (spirv-opt's `ConstantManager`): the value of each constant
//! instruction, pooled so that equal values of one type are one [`ConstRef`], and the
//! ids declaring each value, in the order they were recorded. The instructions for a
//! value a pass asks for are made by the [`Context`](crate::Context).

use super::IdMap;
use super::types::{Ty, TypeRef, Types};
use crate::ir::{Inst, Ir, Section};
use spirv_core::spv::Opcode as O;
use std::collections::HashMap;

/// A pooled constant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ConstRef(pub u32);

/// A constant value.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Const {
    /// `OpConstantNull` of a type.
    Null(TypeRef),
    /// A boolean.
    Bool(TypeRef, bool),
    /// An integer or float: its words.
    Scalar(TypeRef, Vec<u32>),
    /// A vector, matrix, struct or array: its components.
    Composite(TypeRef, Vec<ConstRef>),
}

impl Const {
    /// The constant's type.
    pub fn ty(&self) -> TypeRef {
        match self {
            Const::Null(t) | Const::Bool(t, _) | Const::Scalar(t, _) | Const::Composite(t, _) => *t,
        }
    }
}

/// The constant manager.
#[derive(Debug, Clone)]
pub struct Constants {
    pool: Vec<Const>,
    index: HashMap<Const, ConstRef>,
    id_to_const: IdMap<ConstRef>,
    const_to_ids: HashMap<ConstRef, Vec<u32>>,
}

impl Constants {
    /// The constants of `ir` (`ConstantManager::ConstantManager`).
    pub fn build(ir: &Ir, types: &Types) -> Constants {
        let n = ir.section(Section::TypesValues).count();
        let mut c = Constants {
            pool: Vec::new(),
            index: HashMap::new(),
            id_to_const: IdMap::new(super::id_cap(n)),
            const_to_ids: HashMap::new(),
        };
        for i in ir.section(Section::TypesValues) {
            if spirv_core::__private::opt::is_constant(ir.opcode(i)) {
                c.map_inst(ir, types, i);
            }
        }
        c
    }

    /// Records the value `i` declares, if it declares one (`MapInst`).
    pub fn map_inst(&mut self, ir: &Ir, types: &Types, i: Inst) -> bool {
        match self.of_inst(ir, types, i) {
            Some(c) => {
                self.map_to_id(c, ir.result_id(i));
                true
            }
            None => false,
        }
    }

    /// Records that `id` declares `c` (`MapConstantToInst`); an id already recorded
    /// keeps its value.
    pub fn map_to_id(&mut self, c: ConstRef, id: u32) {
        if self.id_to_const.get(id).is_none() {
            self.id_to_const.insert(id, c);
            self.const_to_ids.entry(c).or_default().push(id);
        }
    }

    /// The value `i` declares (`GetConstantFromInst`).
    pub fn of_inst(&mut self, ir: &Ir, types: &Types, i: Inst) -> Option<ConstRef> {
        let d = ir.data(i);
        let mut words: Vec<u32> = Vec::new();
        for k in 0..d.num_in_operands() {
            words.extend_from_slice(d.in_operand_words(k));
        }
        match d.opcode() {
            O::ConstantTrue => words.push(1),
            O::ConstantFalse => words.push(0),
            O::ConstantNull
            | O::Constant
            | O::ConstantComposite
            | O::SpecConstantComposite
            | O::SpecConstantCompositeReplicateEXT => {}
            _ => return None,
        }
        let ty = types.get(d.type_id())?;
        self.get(types, ty, &words)
    }

    /// The pooled value of type `ty` made of `words` (literal words, or component ids)
    /// (`GetConstant`).
    pub fn get(&mut self, types: &Types, ty: TypeRef, words: &[u32]) -> Option<ConstRef> {
        let c = self.create(types, ty, words)?;
        Some(self.register(c))
    }

    /// `CreateConstant`.
    fn create(&self, types: &Types, ty: TypeRef, words: &[u32]) -> Option<Const> {
        if words.is_empty() {
            return Some(Const::Null(ty));
        }
        match types.ty(ty) {
            Ty::Bool => Some(Const::Bool(ty, words[0] != 0)),
            Ty::Int { .. } | Ty::Float { .. } => Some(Const::Scalar(ty, words.to_vec())),
            Ty::Vector { .. } => {
                let comps = self.components_of(words)?;
                let first = self.value(comps[0]).ty();
                let scalar = comps.iter().all(|&c| {
                    matches!(
                        types.ty(self.value(c).ty()),
                        Ty::Bool | Ty::Int { .. } | Ty::Float { .. }
                    )
                });
                (scalar && comps.iter().all(|&c| self.value(c).ty() == first))
                    .then_some(Const::Composite(ty, comps))
            }
            Ty::Matrix { .. } | Ty::Struct { .. } | Ty::Array { .. } => {
                Some(Const::Composite(ty, self.components_of(words)?))
            }
            _ => None,
        }
    }

    /// The values of `ids`, or `None` if one is not a recorded constant.
    fn components_of(&self, ids: &[u32]) -> Option<Vec<ConstRef>> {
        let v: Option<Vec<ConstRef>> = ids.iter().map(|&id| self.find_declared(id)).collect();
        v.filter(|v| !v.is_empty())
    }

    /// Pools `c` (`RegisterConstant`).
    pub fn register(&mut self, c: Const) -> ConstRef {
        if let Some(&r) = self.index.get(&c) {
            return r;
        }
        let r = ConstRef(self.pool.len() as u32);
        self.index.insert(c.clone(), r);
        self.pool.push(c);
        r
    }

    /// The value `c` stands for.
    pub fn value(&self, c: ConstRef) -> &Const {
        &self.pool[c.0 as usize]
    }

    /// The value id `id` declares, if it is a recorded constant (`FindDeclaredConstant`).
    pub fn find_declared(&self, id: u32) -> Option<ConstRef> {
        self.id_to_const.get(id).copied()
    }

    /// The ids recorded as declaring `c`, in the order they were recorded.
    pub fn ids_of(&self, c: ConstRef) -> &[u32] {
        self.const_to_ids.get(&c).map_or(&[], Vec::as_slice)
    }

    /// Forgets `id` (`RemoveId`), and with it (as spirv-opt does) every id recorded for
    /// its value.
    pub fn remove_id(&mut self, id: u32) {
        if let Some(c) = self.id_to_const.remove(id) {
            self.const_to_ids.remove(&c);
        }
    }
}
