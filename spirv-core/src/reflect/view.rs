//! Per-entry-point views: one entry point's share of a [`Reflection`] — the inputs and
//! outputs its interface lists, and the resources and push-constant blocks it uses
//! statically — so that a caller never filters the whole-module lists itself.

use super::{DeclaredMode, EntryPoint, InterfaceVariable, Reflection, Resource};
use crate::__private::Vec;
use crate::analysis::StaticUse;
use crate::spv;
use crate::types::Id;

/// Every entry point's view of a reflection, from [`Reflection::entry_point_views`]:
/// the static use of all entry points, found in one pass over the call graph, and
/// the reflection it divides.
#[derive(Debug, Clone)]
pub struct EntryPointViews<'r, 'm> {
    r: &'r Reflection<'m>,
    used: StaticUse,
}

/// One entry point's share of a [`Reflection`]; see
/// [`Reflection::entry_point_views`].
///
/// The lists keep the whole-module lists' order (declaration order) and name each
/// variable once, however often the interface repeats it. They are computed on each
/// call, from the entry point's interface or static use, so a module of many entry
/// points costs no more memory than its own lists.
#[derive(Debug, Clone, Copy)]
pub struct EntryPointView<'a, 'm> {
    r: &'a Reflection<'m>,
    entry: &'a EntryPoint,
    used: &'a [Id],
}

impl<'r, 'm> EntryPointViews<'r, 'm> {
    /// The number of entry points.
    pub fn len(&self) -> usize {
        self.r.entry_points.len()
    }
    /// Whether the module has no entry point.
    pub fn is_empty(&self) -> bool {
        self.r.entry_points.is_empty()
    }
    /// The view of the `i`-th entry point (in `OpEntryPoint` order), if there is one.
    pub fn get(&self, i: usize) -> Option<EntryPointView<'_, 'm>> {
        Some(EntryPointView {
            r: self.r,
            entry: self.r.entry_points.get(i)?,
            used: self.used.globals(i),
        })
    }
    /// The view of the entry point named `name` with execution model `model` (the
    /// pair a module may not repeat).
    pub fn find(&self, model: spv::ExecutionModel, name: &str) -> Option<EntryPointView<'_, 'm>> {
        let i = (self.r.entry_points.iter()).position(|e| e.model == model && e.name == name)?;
        self.get(i)
    }
    /// Every entry point's view, in `OpEntryPoint` order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = EntryPointView<'_, 'm>> {
        (0..self.len()).map(|i| EntryPointView {
            r: self.r,
            entry: &self.r.entry_points[i],
            used: self.used.globals(i),
        })
    }
}

impl<'a, 'm> EntryPointView<'a, 'm> {
    /// The entry point.
    pub fn entry(&self) -> &'a EntryPoint {
        self.entry
    }
    /// Its execution modes ([`Reflection::execution_modes`]).
    pub fn execution_modes(&self) -> &'a [DeclaredMode] {
        self.r.execution_modes(self.entry)
    }
    /// The stage inputs its `OpEntryPoint` lists (built-ins included).
    pub fn inputs(&self) -> impl Iterator<Item = &'a InterfaceVariable> + 'a {
        let r = self.r;
        self.listed(spv::StorageClass::Input)
            .into_iter()
            .filter_map(move |p| r.inputs.get(p as usize))
    }
    /// The stage outputs its `OpEntryPoint` lists (built-ins included).
    pub fn outputs(&self) -> impl Iterator<Item = &'a InterfaceVariable> + 'a {
        let r = self.r;
        self.listed(spv::StorageClass::Output)
            .into_iter()
            .filter_map(move |p| r.outputs.get(p as usize))
    }
    /// The descriptor resources it uses statically: those an instruction of a function
    /// reachable from it through `OpFunctionCall` names (what SPIRV-Reflect's
    /// per-entry-point bindings and SPIRV-Cross's active resources report).
    pub fn resources(&self) -> impl Iterator<Item = &'a Resource> + 'a {
        let r = self.r;
        self.used_places(|s| {
            matches!(
                s,
                spv::StorageClass::Uniform
                    | spv::StorageClass::UniformConstant
                    | spv::StorageClass::StorageBuffer
            )
        })
        .filter_map(move |p| r.resources.get(p as usize))
    }
    /// The push-constant blocks it uses statically (at most one in a valid module).
    pub fn push_constants(&self) -> impl Iterator<Item = &'a Resource> + 'a {
        let r = self.r;
        self.used_places(|s| s == spv::StorageClass::PushConstant)
            .filter_map(move |p| r.push_constants.get(p as usize))
    }
    /// The global variables it uses statically, in declaration order (as
    /// [`Reflection::used_variables`]).
    pub fn used_variables(&self) -> &'a [Id] {
        self.used
    }

    /// The places in their list of the variables of `storage` the interface lists,
    /// sorted (declaration order) and each once.
    fn listed(&self, storage: spv::StorageClass) -> Vec<u32> {
        let mut places: Vec<u32> = (self.entry.interface.iter())
            .filter_map(|&id| self.r.place(id, |s| s == storage))
            .collect();
        places.sort_unstable();
        places.dedup();
        places
    }

    /// The places in their list of the used variables whose storage class `storage`
    /// accepts (the static use is in declaration order, each once).
    fn used_places(
        &self,
        storage: impl Fn(spv::StorageClass) -> bool + 'a,
    ) -> impl Iterator<Item = u32> + 'a {
        let r = self.r;
        self.used
            .iter()
            .filter_map(move |&id| r.place(id, &storage))
    }
}

impl<'m> Reflection<'m> {
    /// Every entry point's own inputs, outputs, resources and push constants: the
    /// whole-module lists ([`inputs`](Self::inputs), [`resources`](Self::resources), …)
    /// divided by entry point. Inputs and outputs are those its `OpEntryPoint` lists;
    /// resources and push constants those it uses statically (found for all entry
    /// points at once, as [`static_use`](Self::static_use) does: one walk of every
    /// function body).
    ///
    /// ```
    /// # use spirv_core::{spv, spv::inst, Builder};
    /// # let mut b = Builder::new((1, 0));
    /// # let [void, fn_type, f32, in_ptr, out_ptr, color, frag] = [(); 7].map(|()| b.id().unwrap());
    /// # b.push(inst::TypeVoid { result_id: void }).unwrap();
    /// # b.push(inst::TypeFunction { result_id: fn_type, return_type: void, parameter_types: Default::default() }).unwrap();
    /// # b.push(inst::TypeFloat { result_id: f32, width: 32, floating_point_encoding: None }).unwrap();
    /// # b.push(inst::TypePointer { result_id: in_ptr, storage_class: spv::StorageClass::Input, r#type: f32 }).unwrap();
    /// # b.push(inst::TypePointer { result_id: out_ptr, storage_class: spv::StorageClass::Output, r#type: f32 }).unwrap();
    /// # b.push(inst::Variable { result_type: in_ptr, result_id: color, storage_class: spv::StorageClass::Input, initializer: None }).unwrap();
    /// # b.push(inst::Variable { result_type: out_ptr, result_id: frag, storage_class: spv::StorageClass::Output, initializer: None }).unwrap();
    /// # let main = b.begin_function(void, spv::FunctionControl::NONE, fn_type).unwrap();
    /// # b.begin_block().unwrap();
    /// # b.push(inst::Return {}).unwrap();
    /// # b.end_function().unwrap();
    /// // Two entry points of one function: `vs` lists the input, `fs` the output.
    /// b.push(inst::EntryPoint { execution_model: spv::ExecutionModel::Vertex, entry_point: main, name: "vs".into(), interfaces: [color].into_iter().collect() }).unwrap();
    /// b.push(inst::EntryPoint { execution_model: spv::ExecutionModel::Fragment, entry_point: main, name: "fs".into(), interfaces: [frag].into_iter().collect() }).unwrap();
    /// let module = b.build().unwrap();
    /// let r = spirv_core::reflect::Reflection::new(&module);
    /// assert_eq!((r.inputs().len(), r.outputs().len()), (1, 1));
    /// for view in r.entry_point_views().iter() {
    ///     let inputs: Vec<_> = view.inputs().map(|v| v.variable).collect();
    ///     let outputs: Vec<_> = view.outputs().map(|v| v.variable).collect();
    ///     println!("{}: in {inputs:?} out {outputs:?}", view.entry().name); // vs: in [%6] out []
    /// }
    /// let views = r.entry_point_views();
    /// let fs = views.find(spv::ExecutionModel::Fragment, "fs").unwrap();
    /// assert_eq!(fs.inputs().count(), 0);
    /// assert_eq!(fs.outputs().map(|v| v.variable).collect::<Vec<_>>(), [frag]);
    /// ```
    pub fn entry_point_views(&self) -> EntryPointViews<'_, 'm> {
        EntryPointViews {
            r: self,
            used: self.static_use(),
        }
    }

    /// The place of variable `id` in the list its storage class puts it in, if its
    /// storage class is one `storage` accepts and the list holds it.
    fn place(&self, id: Id, storage: impl Fn(spv::StorageClass) -> bool) -> Option<u32> {
        let i = *self.variable_index.get(id.0)? as usize;
        let v = self.variables.get(i)?;
        if !storage(v.storage) {
            return None;
        }
        self.places.get(i).copied().filter(|&p| p != NO_PLACE)
    }
}

/// [`Reflection`]'s `places` for a variable no list holds.
pub(super) const NO_PLACE: u32 = u32::MAX;
