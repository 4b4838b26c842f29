//! Entry points: their execution modes, kept once per function however many entry
//! points name it, and their static use, for all entry points at once through the
//! call graph.

use super::Reflection;
use crate::__private::{String, Vec};
use crate::analysis::table::IdTable;
use crate::analysis::{CallGraph, StaticUse};
use crate::spv;
use crate::types::Id;
use core::ops::Range;

/// An execution mode an entry point declares (`OpExecutionMode` or `OpExecutionModeId`),
/// with its operands (ids for the `…Id` modes). The mode itself is a
/// [`spv::ExecutionMode`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct DeclaredMode {
    /// The mode.
    pub mode: spv::ExecutionMode,
    /// Its operands after the mode.
    pub operands: Vec<u32>,
    /// Given by `OpExecutionModeId`.
    pub by_id: bool,
}

/// One dimension of a workgroup size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct WorkgroupDim {
    /// The size, at the specialization constants' defaults (`None` if not computable).
    pub value: Option<u32>,
    /// The constant that gives it (`LocalSizeId` or the `WorkgroupSize` built-in).
    pub constant: Option<Id>,
    /// Its `SpecId`, if it is a specialization constant with one.
    pub spec_id: Option<u32>,
}

/// An `OpEntryPoint`. Its execution modes are [`Reflection::execution_modes`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct EntryPoint {
    /// The name.
    pub name: String,
    /// The execution model.
    pub model: spv::ExecutionModel,
    /// The function.
    pub function: Id,
    /// The interface variables listed.
    pub interface: Vec<Id>,
    /// The workgroup size: the `WorkgroupSize` built-in constant if there is one, else
    /// `LocalSizeId`, else `LocalSize`.
    pub workgroup_size: Option<[WorkgroupDim; 3]>,
    /// Its modes in [`Reflection`]'s table. While reading: the function's group and
    /// how many of the group's modes came before the entry point.
    pub(super) modes: Range<u32>,
    /// Its last `LocalSize` or `LocalSizeId` mode, in [`Reflection`]'s table.
    pub(super) local_size: Option<u32>,
}

/// Execution modes by function, while reading: each mode is stored once, and each
/// entry point gets the modes of its function that follow it (an `OpExecutionMode`
/// before the `OpEntryPoint`, out of the layout's order, is not its mode).
pub(super) struct ModeIndex {
    /// The group of each function an entry point names.
    group: IdTable<u32>,
    /// Modes recorded per group so far.
    counts: Vec<u32>,
    /// The modes in `OpExecutionMode` order, and each one's group.
    modes: Vec<DeclaredMode>,
    groups: Vec<u32>,
}

impl ModeIndex {
    pub(super) fn new() -> Self {
        ModeIndex {
            group: IdTable::new(),
            counts: Vec::new(),
            modes: Vec::new(),
            groups: Vec::new(),
        }
    }

    /// An entry point of `function`: its mode range while reading.
    pub(super) fn entry_point(&mut self, function: u32, cap: usize) -> Range<u32> {
        let group = match self.group.get(function) {
            Some(&g) => g,
            None => {
                let g = self.counts.len() as u32;
                self.counts.push(0);
                self.group.insert(function, g, cap);
                g
            }
        };
        group..self.counts[group as usize]
    }

    /// A mode of `function`, kept if an entry point names the function.
    pub(super) fn mode(&mut self, function: u32, mode: DeclaredMode) {
        if let Some(&g) = self.group.get(function) {
            self.counts[g as usize] += 1;
            self.modes.push(mode);
            self.groups.push(g);
        }
    }

    /// The modes grouped by function (in order within each function); sets every
    /// entry point's range and last local-size mode.
    pub(super) fn finish(self, entries: &mut [EntryPoint]) -> Vec<DeclaredMode> {
        let groups = self.counts.len();
        let mut start = alloc::vec![0u32; groups + 1];
        for (g, &n) in self.counts.iter().enumerate() {
            start[g + 1] = start[g] + n;
        }
        // Modes usually come function by function, in entry point order: then they are
        // grouped already. Otherwise each goes to its group's next place.
        let mut modes = self.modes;
        if !self.groups.is_sorted() {
            let mut fill = start.clone();
            let mut slots: Vec<Option<DeclaredMode>> = Vec::new();
            slots.resize_with(modes.len(), || None);
            for (mode, &g) in modes.into_iter().zip(&self.groups) {
                slots[fill[g as usize] as usize] = Some(mode);
                fill[g as usize] += 1;
            }
            modes = slots.into_iter().flatten().collect();
        }
        let mut last_local: Vec<Option<u32>> = alloc::vec![None; groups];
        for g in 0..groups {
            let r = start[g] as usize..start[g + 1] as usize;
            last_local[g] = modes.get(r.clone()).and_then(|m| {
                let at = m.iter().rposition(|m| {
                    m.mode == spv::ExecutionMode::LocalSize
                        || m.mode == spv::ExecutionMode::LocalSizeId
                })?;
                Some((r.start + at) as u32)
            });
        }
        for e in entries {
            let (g, skip) = (e.modes.start as usize, e.modes.end);
            let (from, to) = (start[g] + skip, start[g + 1]);
            e.modes = from..to;
            e.local_size = last_local[g].filter(|&l| l >= from);
        }
        modes
    }
}

impl Reflection<'_> {
    /// The execution modes of entry point `entry` (of this reflection), in order: those
    /// of its function that follow its `OpEntryPoint`. Entry points of one function
    /// share them.
    ///
    /// ```
    /// # use spirv_core::{spv, spv::inst, Builder};
    /// # let mut b = Builder::new((1, 0));
    /// # let [void, fn_type] = [(); 2].map(|()| b.id().unwrap());
    /// # b.push(inst::TypeVoid { result_id: void }).unwrap();
    /// # b.push(inst::TypeFunction { result_id: fn_type, return_type: void, parameter_types: Default::default() }).unwrap();
    /// # let main = b.begin_function(void, spv::FunctionControl::NONE, fn_type).unwrap();
    /// # b.begin_block().unwrap();
    /// # b.push(inst::Return {}).unwrap();
    /// # b.end_function().unwrap();
    /// // Two compute entry points of one function `main`, which has one mode.
    /// for name in ["a", "b"] {
    ///     b.push(inst::EntryPoint { execution_model: spv::ExecutionModel::GLCompute, entry_point: main, name: name.into(), interfaces: Default::default() }).unwrap();
    /// }
    /// b.push(inst::ExecutionMode { entry_point: main, mode: spv::ExecutionModeData::LocalSize(8, 8, 1) }).unwrap();
    /// let module = b.build().unwrap();
    /// let r = spirv_core::reflect::Reflection::new(&module);
    /// for e in r.entry_points() {
    ///     let modes = r.execution_modes(e);
    ///     println!("{}: {:?} {:?}", e.name, modes[0].mode, modes[0].operands); // a: LocalSize [8, 8, 1]
    ///     assert_eq!(modes[0].operands, [8, 8, 1]);
    /// }
    /// ```
    pub fn execution_modes(&self, entry: &EntryPoint) -> &[DeclaredMode] {
        let r = entry.modes.start as usize..entry.modes.end as usize;
        self.modes.get(r).unwrap_or(&[])
    }

    /// The last `LocalSize` or `LocalSizeId` mode of an entry point.
    pub(super) fn local_size_mode(&self, entry: &EntryPoint) -> Option<&DeclaredMode> {
        self.modes.get(entry.local_size? as usize)
    }

    /// The global variables every entry point uses statically, for all of them at once:
    /// [`StaticUse::globals`]`(i)` for the `i`-th of
    /// [`entry_points`](Self::entry_points), in declaration order. A variable is used
    /// when any instruction of a function reachable from the entry point through
    /// `OpFunctionCall` names it. Builds the [`CallGraph`] (one walk of every function
    /// body), so the time is about that of reading the module.
    ///
    /// ```
    /// # use spirv_core::{spv, spv::inst, Builder};
    /// # let mut b = Builder::new((1, 0));
    /// # let [void, fn_type, int, ptr, var, value] = [(); 6].map(|()| b.id().unwrap());
    /// # b.push(inst::TypeVoid { result_id: void }).unwrap();
    /// # b.push(inst::TypeFunction { result_id: fn_type, return_type: void, parameter_types: Default::default() }).unwrap();
    /// # b.push(inst::TypeInt { result_id: int, width: 32, signedness: 0 }).unwrap();
    /// # b.push(inst::TypePointer { result_id: ptr, storage_class: spv::StorageClass::Private, r#type: int }).unwrap();
    /// # b.push(inst::Variable { result_type: ptr, result_id: var, storage_class: spv::StorageClass::Private, initializer: None }).unwrap();
    /// # let main = b.begin_function(void, spv::FunctionControl::NONE, fn_type).unwrap();
    /// # b.begin_block().unwrap();
    /// # b.push(inst::Load { result_type: int, result_id: value, pointer: var, memory_access: None }).unwrap();
    /// # b.push(inst::Return {}).unwrap();
    /// # b.end_function().unwrap();
    /// # b.push(inst::EntryPoint { execution_model: spv::ExecutionModel::GLCompute, entry_point: main, name: "main".into(), interfaces: Default::default() }).unwrap();
    /// // A compute shader whose `main` loads the private variable `var`:
    /// let module = b.build().unwrap();
    /// let r = spirv_core::reflect::Reflection::new(&module);
    /// let used = r.static_use();
    /// for (i, e) in r.entry_points().iter().enumerate() {
    ///     println!("{}: {:?}", e.name, used.globals(i)); // main: [%5]
    /// }
    /// assert_eq!(used.globals(0), [var]);
    /// ```
    pub fn static_use(&self) -> StaticUse {
        CallGraph::new(self.module).static_use()
    }

    /// The global variables entry point `entry` uses statically (see
    /// [`static_use`](Self::static_use)), in declaration order. Builds the call graph on
    /// every call: for several entry points, [`static_use`](Self::static_use) answers
    /// for all of them in one pass.
    pub fn used_variables(&self, entry: &EntryPoint) -> Vec<Id> {
        let g = CallGraph::new(self.module);
        let reached = g.reached(g.function(entry.function));
        // The call graph's globals are this reflection's variables, in the same order.
        let mut used = alloc::vec![false; self.variables.len()];
        for (f, _) in reached.iter().enumerate().filter(|(_, r)| **r) {
            for v in g.uses(f) {
                if let Some(&i) = self.variable_index.get(v.0) {
                    used[i as usize] = true;
                }
            }
        }
        (self.variables.iter().zip(used))
            .filter(|(_, u)| *u)
            .map(|(v, _)| v.id)
            .collect()
    }
}
