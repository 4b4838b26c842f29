//! Reflection: what an engine needs to know about a shader to build its pipeline
//! layout, read from a [`Module`] without walking function bodies (except for the
//! per-entry-point static use, computed on request). Needs the `reflect` feature.
//!
//! - entry points, with execution modes and the workgroup size resolved to
//!   specialization constants;
//! - resources (descriptors in Vulkan terms) with set, binding, array dimensions,
//!   access, storage-image format, input-attachment index and block size;
//! - push-constant blocks; stage inputs and outputs with location, component and
//!   built-ins; specialization constants with their defaults;
//! - every type, name and decoration, for layouts ([`Reflection::declared_size`]).
//!
//! ```
//! # let words = spirv_core::Builder::new((1, 0)).words();
//! let module = spirv_core::Module::from_words(&words).unwrap();
//! let r = spirv_core::reflect::Reflection::new(&module);
//! for res in r.resources() {
//!     println!("set {:?} binding {:?}: {:?}", res.set, res.binding, res.descriptor_type);
//! }
//! ```
//!
//! Nothing here panics or recurses on input: malformed modules give partial answers
//! (`None` where a fact is missing), and every table grows with the module, not with
//! the ids or sizes it claims.

mod constants;
mod decorations;
mod layout;
mod resources;
mod spec;
mod table;
mod types;

pub use constants::{Constant, ConstantKind, Value};
pub use decorations::{Decorations, MemberInfo};
pub use layout::LayoutError;
pub use resources::{
    ArraySize, BlockLayout, DescriptorType, InterfaceMember, InterfaceVariable, Resource,
};
pub use types::{ImageType, Type};

use crate::__private::{String, Vec};
use crate::module::Module;
use crate::spv;
use crate::types::Id;
use alloc::collections::BTreeMap;
use table::IdTable;

/// A global variable (not `Function` storage).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variable {
    /// Its id.
    pub id: Id,
    /// Its pointer type.
    pub pointer_type: Id,
    /// Storage class.
    pub storage: spv::StorageClass,
    /// Initializer, if any.
    pub initializer: Option<Id>,
}

/// An execution mode with its operands (ids for the `…Id` modes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExecutionMode {
    /// The mode.
    pub mode: spv::ExecutionMode,
    /// Its operands after the mode.
    pub operands: Vec<u32>,
    /// Given by `OpExecutionModeId`.
    pub by_id: bool,
}

/// One dimension of a workgroup size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WorkgroupDim {
    /// The size, at the specialization constants' defaults (`None` if not computable).
    pub value: Option<u32>,
    /// The constant that gives it (`LocalSizeId` or the `WorkgroupSize` built-in).
    pub constant: Option<Id>,
    /// Its `SpecId`, if it is a specialization constant with one.
    pub spec_id: Option<u32>,
}

/// An `OpEntryPoint`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntryPoint {
    /// The name.
    pub name: String,
    /// The execution model.
    pub model: spv::ExecutionModel,
    /// The function.
    pub function: Id,
    /// The interface variables listed.
    pub interface: Vec<Id>,
    /// Its execution modes, in order.
    pub modes: Vec<ExecutionMode>,
    /// The workgroup size: the `WorkgroupSize` built-in constant if there is one, else
    /// `LocalSizeId`, else `LocalSize`.
    pub workgroup_size: Option<[WorkgroupDim; 3]>,
}

/// A specialization constant.
#[derive(Debug, Clone, PartialEq)]
pub struct SpecConstant {
    /// Its id.
    pub id: Id,
    /// `OpName`, if any.
    pub name: Option<String>,
    /// `SpecId`, if decorated (constants made by `OpSpecConstantOp` or composites
    /// usually have none).
    pub spec_id: Option<u32>,
    /// Its type.
    pub type_id: Id,
    /// Its default value, if computable.
    pub default: Option<Value>,
}

/// The named or decorated members of one struct, by index (sparse: a module cannot
/// make this larger than its own member instructions).
#[derive(Debug, Clone, Default)]
struct Members {
    entries: BTreeMap<u32, MemberInfo>,
    /// One more than the highest index seen.
    len: u32,
}

impl Members {
    fn get(&self, index: u32) -> Option<&MemberInfo> {
        self.entries.get(&index)
    }
    fn entry(&mut self, index: u32) -> &mut MemberInfo {
        self.len = self.len.max(index.saturating_add(1));
        self.entries.entry(index).or_default()
    }
}

/// Everything reflection learns from a module; see the module docs.
#[derive(Debug)]
pub struct Reflection<'m> {
    module: &'m Module,
    /// Dense tables index ids below this (the module's length in words, or the bound).
    cap: usize,
    names: IdTable<String>,
    decorations: IdTable<Decorations>,
    members: IdTable<Members>,
    types: IdTable<Type>,
    constants: IdTable<Constant>,
    values: IdTable<Value>,
    struct_sizes: IdTable<Result<u64, LayoutError>>,
    variables: Vec<Variable>,
    variable_index: IdTable<usize>,
    entry_points: Vec<EntryPoint>,
    source: Option<(spv::SourceLanguage, u32)>,
    capabilities: Vec<spv::Capability>,
    resources: Vec<Resource>,
    push_constants: Vec<Resource>,
    inputs: Vec<InterfaceVariable>,
    outputs: Vec<InterfaceVariable>,
    spec_constants: Vec<SpecConstant>,
}

impl<'m> Reflection<'m> {
    /// Reflects a module: one pass over its global instructions.
    pub fn new(module: &'m Module) -> Reflection<'m> {
        let cap = (module.header().bound as usize).min(module.word_len());
        let mut r = Reflection {
            module,
            cap,
            names: IdTable::new(),
            decorations: IdTable::new(),
            members: IdTable::new(),
            types: IdTable::new(),
            constants: IdTable::new(),
            values: IdTable::new(),
            struct_sizes: IdTable::new(),
            variables: Vec::new(),
            variable_index: IdTable::new(),
            entry_points: Vec::new(),
            source: None,
            capabilities: Vec::new(),
            resources: Vec::new(),
            push_constants: Vec::new(),
            inputs: Vec::new(),
            outputs: Vec::new(),
            spec_constants: Vec::new(),
        };
        r.read_globals();
        layout::compute(&mut r);
        r.resolve_workgroup_sizes();
        resources::collect(&mut r);
        r.collect_spec_constants();
        r
    }

    fn read_globals(&mut self) {
        use spv::Opcode as O;
        let cap = self.cap;
        for inst in self.module.instructions() {
            let words = inst.words();
            let opcode = inst.opcode();
            let ops = &words[1..];
            let at = |i: usize| ops.get(i).copied();
            match opcode {
                O::Function => break,
                O::Capability => {
                    if let Some(c) = at(0) {
                        self.capabilities.push(spv::Capability(c));
                    }
                }
                O::Source => {
                    if let (Some(lang), Some(version)) = (at(0), at(1)) {
                        self.source = Some((spv::SourceLanguage(lang), version));
                    }
                }
                O::EntryPoint => {
                    let (Some(model), Some(function)) = (at(0), at(1)) else {
                        continue;
                    };
                    let rest = ops.get(2..).unwrap_or(&[]);
                    let name = crate::codec::string_operand(rest);
                    let used = (name.len() + 4) / 4;
                    self.entry_points.push(EntryPoint {
                        name: String::from_utf8_lossy(&name).into_owned(),
                        model: spv::ExecutionModel(model),
                        function: Id(function),
                        interface: rest
                            .get(used..)
                            .unwrap_or(&[])
                            .iter()
                            .map(|&v| Id(v))
                            .collect(),
                        modes: Vec::new(),
                        workgroup_size: None,
                    });
                }
                O::ExecutionMode | O::ExecutionModeId => {
                    let (Some(function), Some(mode)) = (at(0), at(1)) else {
                        continue;
                    };
                    let mode = ExecutionMode {
                        mode: spv::ExecutionMode(mode),
                        operands: ops.get(2..).unwrap_or(&[]).to_vec(),
                        by_id: opcode == O::ExecutionModeId,
                    };
                    // Every entry point of the function has the mode.
                    for e in self
                        .entry_points
                        .iter_mut()
                        .filter(|e| e.function.0 == function)
                    {
                        e.modes.push(mode.clone());
                    }
                }
                O::Name => {
                    if let Some(id) = at(0) {
                        let name = crate::codec::string_operand(ops.get(1..).unwrap_or(&[]));
                        self.names
                            .insert(id, String::from_utf8_lossy(&name).into_owned(), cap);
                    }
                }
                O::MemberName => {
                    if let (Some(id), Some(m)) = (at(0), at(1)) {
                        let name = crate::codec::string_operand(ops.get(2..).unwrap_or(&[]));
                        if let Some(member) = self.member_entry(id, m) {
                            member.name = Some(String::from_utf8_lossy(&name).into_owned());
                        }
                    }
                }
                O::Decorate | O::DecorateId => {
                    if let (Some(id), Some(d)) = (at(0), at(1)) {
                        self.decorations
                            .entry(id, cap)
                            .set(spv::Decoration(d), at(2));
                    }
                }
                O::DecorateString => {
                    if let (Some(id), Some(d)) = (at(0), at(1)) {
                        self.decorations
                            .entry(id, cap)
                            .set(spv::Decoration(d), None);
                    }
                }
                O::MemberDecorate => {
                    if let (Some(id), Some(m), Some(d)) = (at(0), at(1), at(2)) {
                        if let Some(member) = self.member_entry(id, m) {
                            member.decorations.set(spv::Decoration(d), at(3));
                        }
                    }
                }
                O::MemberDecorateString => {
                    if let (Some(id), Some(m), Some(d)) = (at(0), at(1), at(2)) {
                        if let Some(member) = self.member_entry(id, m) {
                            member.decorations.set(spv::Decoration(d), None);
                        }
                    }
                }
                O::GroupDecorate => {
                    let Some(group) = at(0).and_then(|g| self.decorations.get(g)).cloned() else {
                        continue;
                    };
                    for &target in ops.get(1..).unwrap_or(&[]) {
                        self.decorations.entry(target, cap).merge_from(&group);
                    }
                }
                O::GroupMemberDecorate => {
                    let Some(group) = at(0).and_then(|g| self.decorations.get(g)).cloned() else {
                        continue;
                    };
                    for pair in ops.get(1..).unwrap_or(&[]).chunks_exact(2) {
                        if let Some(member) = self.member_entry(pair[0], pair[1]) {
                            member.decorations.merge_from(&group);
                        }
                    }
                }
                O::Variable => {
                    let (Some(ty), Some(id), Some(storage)) = (at(0), at(1), at(2)) else {
                        continue;
                    };
                    if spv::StorageClass(storage) == spv::StorageClass::Function {
                        continue;
                    }
                    self.variable_index.insert(id, self.variables.len(), cap);
                    self.variables.push(Variable {
                        id: Id(id),
                        pointer_type: Id(ty),
                        storage: spv::StorageClass(storage),
                        initializer: at(3).map(Id),
                    });
                }
                _ => {
                    if let Some(t) = Type::read(opcode, ops) {
                        if let Some(&id) = ops.first() {
                            // A forward pointer does not replace the pointer it announces.
                            let announced = matches!(t, Type::ForwardPointer { .. })
                                && self.types.get(id).is_some();
                            if !announced {
                                self.types.insert(id, t, cap);
                            }
                        }
                    } else if let Some((id, c)) = Constant::read(opcode, ops) {
                        let value = self.value_of_new(&c);
                        self.constants.insert(id, c, cap);
                        if let Some(v) = value {
                            self.values.insert(id, v, cap);
                        }
                    }
                }
            }
        }
    }

    /// The record of member `index` of struct `id`, created if absent.
    fn member_entry(&mut self, id: u32, index: u32) -> Option<&mut MemberInfo> {
        Some(self.members.entry(id, self.cap).entry(index))
    }

    /// The module reflected.
    pub fn module(&self) -> &'m Module {
        self.module
    }
    /// Entry points, in `OpEntryPoint` order.
    pub fn entry_points(&self) -> &[EntryPoint] {
        &self.entry_points
    }
    /// Descriptor resources (uniform and storage buffers, images, samplers, texel
    /// buffers, input attachments, acceleration structures), in declaration order.
    pub fn resources(&self) -> &[Resource] {
        &self.resources
    }
    /// Push-constant blocks.
    pub fn push_constants(&self) -> &[Resource] {
        &self.push_constants
    }
    /// Stage inputs (built-ins included), in declaration order.
    pub fn inputs(&self) -> &[InterfaceVariable] {
        &self.inputs
    }
    /// Stage outputs (built-ins included), in declaration order.
    pub fn outputs(&self) -> &[InterfaceVariable] {
        &self.outputs
    }
    /// Specialization constants (every `OpSpecConstant*`), in declaration order.
    pub fn spec_constants(&self) -> &[SpecConstant] {
        &self.spec_constants
    }
    /// Global variables, in declaration order.
    pub fn variables(&self) -> &[Variable] {
        &self.variables
    }
    /// The global variable `id`.
    pub fn variable(&self, id: Id) -> Option<&Variable> {
        self.variable_index.get(id.0).map(|&i| &self.variables[i])
    }
    /// `OpName` of `id`.
    pub fn name(&self, id: Id) -> Option<&str> {
        self.names.get(id.0).map(String::as_str)
    }
    /// Decorations of `id` (empty if none).
    pub fn decorations(&self, id: Id) -> Option<&Decorations> {
        self.decorations.get(id.0)
    }
    /// The name and decorations of member `index` of struct `id`, if it has any.
    pub fn member(&self, id: Id, index: u32) -> Option<&MemberInfo> {
        self.members.get(id.0)?.get(index)
    }
    /// The named or decorated members of struct `id`, by index.
    pub fn member_infos(&self, id: Id) -> impl Iterator<Item = (u32, &MemberInfo)> {
        self.members
            .get(id.0)
            .into_iter()
            .flat_map(|m| m.entries.iter().map(|(i, info)| (*i, info)))
    }
    /// One more than the highest member index of struct `id` that is named or
    /// decorated (0 if none is).
    pub fn member_records(&self, id: Id) -> u32 {
        self.members.get(id.0).map_or(0, |m| m.len)
    }
    /// The type `id`.
    pub fn ty(&self, id: Id) -> Option<&Type> {
        self.types.get(id.0)
    }
    /// Every type, in declaration order.
    pub fn types(&self) -> impl Iterator<Item = (Id, &Type)> {
        self.types.iter().map(|(id, t)| (Id(id), t))
    }
    /// The constant `id`.
    pub fn constant(&self, id: Id) -> Option<&Constant> {
        self.constants.get(id.0)
    }
    /// Every constant, in declaration order.
    pub fn constants(&self) -> impl Iterator<Item = (Id, &Constant)> {
        self.constants.iter().map(|(id, c)| (Id(id), c))
    }
    /// The value of constant `id` at the specialization constants' defaults.
    pub fn value(&self, id: Id) -> Option<&Value> {
        self.values.get(id.0)
    }
    /// The `OpSource` language and version.
    pub fn source(&self) -> Option<(spv::SourceLanguage, u32)> {
        self.source
    }
    /// Declared capabilities, in order.
    pub fn capabilities(&self) -> &[spv::Capability] {
        &self.capabilities
    }

    /// The global variables entry point `entry` uses statically: referenced by any
    /// instruction of a function reachable from it through `OpFunctionCall`. Walks those
    /// functions once; linear in their size.
    pub fn used_variables(&self, entry: &EntryPoint) -> Vec<Id> {
        let functions: Vec<_> = self.module.functions().collect();
        let mut index: IdTable<usize> = IdTable::new();
        for (i, f) in functions.iter().enumerate() {
            if let Some(id) = f.def().result_id() {
                index.insert(id.0, i, self.cap);
            }
        }
        let mut seen = alloc::vec![false; functions.len()];
        let mut used = alloc::vec![false; self.variables.len()];
        let mut stack: Vec<usize> = index.get(entry.function.0).copied().into_iter().collect();
        while let Some(f) = stack.pop() {
            if core::mem::replace(&mut seen[f], true) {
                continue;
            }
            for inst in functions[f].instructions() {
                if inst.opcode() == spv::Opcode::FunctionCall {
                    if let Some(&callee) = inst.operands().get(2).and_then(|c| index.get(*c)) {
                        stack.push(callee);
                    }
                }
                let mut mark = |word: u32| {
                    if let Some(&v) = self.variable_index.get(word) {
                        used[v] = true;
                    }
                };
                if inst.visit_ids(|_, id| mark(id.0)).is_err() {
                    // Operands whose layout is not known: any word naming a variable
                    // may be a use, and a binding is better reported than missed.
                    inst.operands().iter().for_each(|&w| mark(w));
                }
            }
        }
        self.variables
            .iter()
            .zip(used)
            .filter(|(_, u)| *u)
            .map(|(v, _)| v.id)
            .collect()
    }

    /// The byte size of struct `id` as declared (the member with the highest `Offset`,
    /// plus its size); a trailing runtime array counts as empty.
    ///
    /// # Errors
    /// A member without `Offset`, an array without `ArrayStride`, a matrix without
    /// `MatrixStride` and major order, an opaque or unknown member type.
    pub fn declared_size(&self, id: Id) -> Result<u64, LayoutError> {
        layout::declared_struct_size(self, id)
    }
}
