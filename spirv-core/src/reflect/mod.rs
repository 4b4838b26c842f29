//! Reflection: what an engine needs to know about a shader to build its pipeline
//! layout, read from a [`Module`] without walking function bodies (except for the
//! entry points' static use, computed on request for all of them at once through the
//! [`CallGraph`](crate::analysis::CallGraph)). Needs the `reflect` feature.
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
//! the ids or sizes it claims. Facts many items share are kept once: execution modes
//! per function, array dimensions per type ([`Reflection::array_dims`]), static use
//! per region of the call graph ([`Reflection::static_use`]).

mod constants;
mod decorations;
mod entry;
mod layout;
mod resources;
mod spec;
mod view;

/// The types, in [`analysis`](crate::analysis) since they need no feature.
pub use crate::analysis::{ImageType, Type};
pub use constants::{Constant, ConstantKind, Value};
pub use decorations::{Decorations, MemberInfo};
pub use entry::{DeclaredMode, EntryPoint, WorkgroupDim};
pub use layout::LayoutError;
pub use resources::{
    ArrayDims, ArraySize, BlockLayout, DescriptorType, InterfaceMember, InterfaceVariable, Resource,
};
pub use view::{EntryPointView, EntryPointViews};

use crate::__private::{String, Vec};
use crate::analysis::TypeTable;
use crate::analysis::table::IdTable;
use crate::module::Module;
use crate::spv;
use crate::types::Id;
use alloc::collections::BTreeMap;

/// A global variable (not `Function` storage).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
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

/// A specialization constant.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
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

/// The names and decorations of struct members: a record for each (struct, member)
/// that the module names or decorates, and for each struct a map from member index to
/// its record's place, so that a struct's members come in index order. The records
/// are kept apart from the maps: a map of records has room for eleven in its first
/// node, and most structs name or decorate a few members (1.7 KB for a struct of two). They lie in chunks of
/// [`Members::CHUNK`], so that adding one never copies the others (a vector of
/// 144-byte records, doubling, held its old and new blocks at once).
#[derive(Debug, Default)]
struct Members {
    /// Each struct's members with a record, to the record's place.
    index: IdTable<BTreeMap<u32, u32>>,
    /// The records by place: the first chunk grows as a vector does, the others are
    /// made full size.
    chunks: Vec<Vec<MemberInfo>>,
    /// The number of records.
    count: u32,
}

impl Members {
    const CHUNK: usize = 256;

    fn record(&self, at: u32) -> &MemberInfo {
        let at = at as usize;
        &self.chunks[at / Self::CHUNK][at % Self::CHUNK]
    }

    fn get(&self, id: u32, member: u32) -> Option<&MemberInfo> {
        let &at = self.index.get(id)?.get(&member)?;
        Some(self.record(at))
    }

    /// The record of member `member` of struct `id`, made if absent; `cap` bounds the
    /// dense index of structs (see [`IdTable::insert`]).
    fn entry(&mut self, id: u32, member: u32, cap: usize) -> &mut MemberInfo {
        let next = self.count;
        let at = *self.index.entry(id, cap).entry(member).or_insert(next);
        if at == next {
            if self.chunks.last().is_none_or(|c| c.len() == Self::CHUNK) {
                let first = self.chunks.is_empty();
                self.chunks
                    .push(Vec::with_capacity(if first { 4 } else { Self::CHUNK }));
            }
            if let Some(chunk) = self.chunks.last_mut() {
                chunk.push(MemberInfo::default());
            }
            self.count += 1;
        }
        let at = at as usize;
        &mut self.chunks[at / Self::CHUNK][at % Self::CHUNK]
    }

    /// Struct `id`'s records, by member index.
    fn of(&self, id: u32) -> impl Iterator<Item = (u32, &MemberInfo)> {
        self.index
            .get(id)
            .into_iter()
            .flatten()
            .map(|(&m, &at)| (m, self.record(at)))
    }

    /// One more than struct `id`'s highest member index with a record (0 if none).
    fn len(&self, id: u32) -> u32 {
        self.index
            .get(id)
            .and_then(BTreeMap::last_key_value)
            .map_or(0, |(&m, _)| m.saturating_add(1))
    }
}

/// Everything reflection learns from a module; see the module docs.
#[derive(Debug)]
pub struct Reflection<'m> {
    module: &'m Module,
    /// Dense tables index ids below this (the module's length in words, or the bound).
    cap: usize,
    names: IdTable<String>,
    decorations: decorations::DecorationTable,
    members: Members,
    types: TypeTable,
    constants: IdTable<Constant>,
    values: IdTable<Value>,
    struct_sizes: layout::StructSizes,
    variables: Vec<Variable>,
    variable_index: IdTable<u32>,
    entry_points: Vec<EntryPoint>,
    /// Execution modes, grouped by function in `OpExecutionMode` order.
    modes: Vec<DeclaredMode>,
    source: Option<(spv::SourceLanguage, u32)>,
    capabilities: Vec<spv::Capability>,
    resources: Vec<Resource>,
    push_constants: Vec<Resource>,
    inputs: Vec<InterfaceVariable>,
    outputs: Vec<InterfaceVariable>,
    /// Per variable: its place in the list of resources, push constants, inputs or
    /// outputs its storage class puts it in (`view::NO_PLACE` if none holds it).
    places: Vec<u32>,
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
            decorations: decorations::DecorationTable::default(),
            members: Members::default(),
            types: TypeTable::with_cap(module),
            constants: IdTable::new(),
            values: IdTable::new(),
            struct_sizes: layout::StructSizes::default(),
            variables: Vec::new(),
            variable_index: IdTable::new(),
            entry_points: Vec::new(),
            modes: Vec::new(),
            source: None,
            capabilities: Vec::new(),
            resources: Vec::new(),
            push_constants: Vec::new(),
            inputs: Vec::new(),
            outputs: Vec::new(),
            places: Vec::new(),
            spec_constants: Vec::new(),
        };
        r.read_globals();
        r.types.finish();
        layout::compute(&mut r);
        r.resolve_workgroup_sizes();
        resources::collect(&mut r);
        r.collect_spec_constants();
        r
    }

    fn read_globals(&mut self) {
        use spv::Opcode as O;
        let cap = self.cap;
        let mut modes = entry::ModeIndex::new();
        // The lists get their size at once: a growing vector's spare room and copies
        // would be most of the memory for a module of many entry points or variables.
        let (mut entries, mut variables, mut types) = (0, 0, 0);
        for inst in self.module.instructions() {
            match inst.opcode() {
                O::Function => break,
                O::EntryPoint => entries += 1,
                O::Variable => variables += 1,
                op if crate::analysis::types::is_type(op) => types += 1,
                _ => {}
            }
        }
        self.entry_points.reserve_exact(entries);
        self.variables.reserve_exact(variables);
        self.variable_index.reserve_exact(variables);
        self.types.reserve_exact(types);
        for inst in self.module.instructions() {
            let words = inst.words();
            let opcode = inst.opcode();
            let ops = &words[1..];
            let at = |i: usize| ops.get(i).copied();
            if let Some(reg) = decorations::registration(inst) {
                decorations::fold(self, reg);
                continue;
            }
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
                    let entry = EntryPoint {
                        name: String::from_utf8_lossy(&name).into_owned(),
                        model: spv::ExecutionModel(model),
                        function: Id(function),
                        interface: rest
                            .get(used..)
                            .unwrap_or(&[])
                            .iter()
                            .map(|&v| Id(v))
                            .collect(),
                        workgroup_size: None,
                        modes: modes.entry_point(function, cap),
                        local_size: None,
                    };
                    self.entry_points.push(entry);
                }
                O::ExecutionMode | O::ExecutionModeId => {
                    let (Some(function), Some(mode)) = (at(0), at(1)) else {
                        continue;
                    };
                    // Every entry point of the function declared so far has the mode.
                    modes.mode(
                        function,
                        DeclaredMode {
                            mode: spv::ExecutionMode(mode),
                            operands: ops.get(2..).unwrap_or(&[]).to_vec(),
                            by_id: opcode == O::ExecutionModeId,
                        },
                    );
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
                O::Variable => {
                    let (Some(ty), Some(id), Some(storage)) = (at(0), at(1), at(2)) else {
                        continue;
                    };
                    if spv::StorageClass(storage) == spv::StorageClass::Function {
                        continue;
                    }
                    self.variable_index
                        .insert(id, self.variables.len() as u32, cap);
                    self.variables.push(Variable {
                        id: Id(id),
                        pointer_type: Id(ty),
                        storage: spv::StorageClass(storage),
                        initializer: at(3).map(Id),
                    });
                }
                _ => {
                    if self.types.observe(opcode, ops) {
                        continue;
                    }
                    if let Some((id, c)) = Constant::read(opcode, ops) {
                        let value = self.value_of_new(&c);
                        self.constants.insert(id, c, cap);
                        if let Some(v) = value {
                            self.values.insert(id, v, cap);
                        }
                    }
                }
            }
        }
        self.modes = modes.finish(&mut self.entry_points);
    }

    /// The record of member `index` of struct `id`, created if absent.
    fn member_entry(&mut self, id: u32, index: u32) -> Option<&mut MemberInfo> {
        Some(self.members.entry(id, index, self.cap))
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
    /// buffers, input attachments, acceleration structures), in declaration order; one
    /// entry point's are [`EntryPointView::resources`].
    pub fn resources(&self) -> &[Resource] {
        &self.resources
    }
    /// Push-constant blocks.
    pub fn push_constants(&self) -> &[Resource] {
        &self.push_constants
    }
    /// Stage inputs (built-ins included), in declaration order; one entry point's are
    /// [`EntryPointView::inputs`].
    pub fn inputs(&self) -> &[InterfaceVariable] {
        &self.inputs
    }
    /// Stage outputs (built-ins included), in declaration order; one entry point's are
    /// [`EntryPointView::outputs`].
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
        self.variable_index
            .get(id.0)
            .and_then(|&i| self.variables.get(i as usize))
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
        self.members.get(id.0, index)
    }
    /// The named or decorated members of struct `id`, by index.
    pub fn member_infos(&self, id: Id) -> impl Iterator<Item = (u32, &MemberInfo)> {
        self.members.of(id.0)
    }
    /// One more than the highest member index of struct `id` that is named or
    /// decorated (0 if none is).
    pub fn member_records(&self, id: Id) -> u32 {
        self.members.len(id.0)
    }
    /// The type `id`.
    pub fn ty(&self, id: Id) -> Option<&Type> {
        self.types.get(id)
    }
    /// The type table.
    pub fn type_table(&self) -> &TypeTable {
        &self.types
    }
    /// Every type, in declaration order.
    pub fn types(&self) -> impl Iterator<Item = (Id, &Type)> {
        self.types.iter()
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
