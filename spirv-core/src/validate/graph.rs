//! spirv-val's graph pass (`GraphPass` in `validate_graph.cpp`): the `SPV_ARM_graph`
//! instructions. A graph type's inputs and outputs are tensors or arrays of tensors,
//! with at least one output; graph constants are tensors with distinct
//! `GraphConstantID`s; a graph entry point names a graph and one `UniformConstant`
//! variable of the matching type per input and output; a graph input or output names
//! an input or output of its graph's type (and, with an `ElementIndex`, an element of
//! an array of tensors) of the type it reads or writes; and no two inputs (or outputs)
//! of one graph name the same one. Where graph instructions may appear is the layout's
//! rule ([`layout`](super::layout)).

use super::faults::faults;
use super::{Fault, Inst, Query};
use crate::__private::Vec;
use crate::module::InstRef;
use crate::spv::{Opcode, Opcode as O, StorageClass};
use crate::types::Id;
use GraphError as E;
use alloc::collections::BTreeSet;

faults! {
    /// A fault of spirv-val's graph pass (`validate_graph.cpp`).
    pub enum GraphError {
        /// A graph type with fewer types than inputs.
        TooFewTypes {
            /// How many input and output types it lists.
            types: usize,
            /// How many inputs it declares.
            inputs: u32,
        } => "{types} I/O types were provided but the graph has {inputs} inputs.",
        /// A graph type without outputs.
        NoOutput => "A graph type must have at least one output.",
        /// A graph input or output type that is no tensor or array of tensors.
        NotInterfaceType {
            /// The type.
            ty: Id,
        } => "I/O type {ty} is not a Graph Interface Type.",
        /// A graph constant whose type is no tensor.
        ConstantType {
            opcode: Opcode,
        } => "{opcode} must have a Result Type that is a tensor type.",
        /// Two graph constants with one `GraphConstantID`.
        ConstantId => "No two OpGraphConstantARM instructions may have the same GraphConstantID",
        /// A graph entry point whose graph is no `OpGraphARM`.
        EntryPointGraph {
            opcode: Opcode,
            /// The instruction the graph operand names.
            found: Opcode,
        } => "{opcode} Graph must be a OpGraphARM but found {found}.",
        /// A graph entry point with another number of interface ids than its graph's
        /// type has inputs and outputs.
        EntryPointCount {
            opcode: Opcode,
            /// How many interface ids it lists.
            ids: usize,
            /// The graph's type.
            ty: Id,
            /// How many inputs and outputs the type has.
            io: usize,
        } => "{opcode} Interface list contains {ids} IDs but Graph's type {ty} has {io} inputs and outputs.",
        /// An interface id that is no `UniformConstant` variable (reported at it).
        EntryPointVariable {
            opcode: Opcode,
            /// The interface id.
            id: Id,
        } => "{opcode} Interface ID {id} must come from OpVariable with UniformConstant Storage Class.",
        /// An interface variable whose type is not the graph's input or output type.
        EntryPointType {
            opcode: Opcode,
            /// The variable's pointee type.
            pointee: Id,
            /// The graph's input or output type.
            io: Id,
        } => "{opcode} Interface ID type {pointee} must match the type of the corresponding graph I/O {io}",
        /// A graph whose result type is no `OpTypeGraphARM`.
        GraphType {
            opcode: Opcode,
        } => "{opcode} Result Type must be an OpTypeGraphARM.",
        /// An input's `InputIndex` that is no 32-bit integer.
        InputIndexType {
            opcode: Opcode,
        } => "{opcode} InputIndex must be a 32-bit integer.",
        /// An `ElementIndex` that is no 32-bit integer.
        ElementIndexType {
            opcode: Opcode,
        } => "{opcode} ElementIndex must be a 32-bit integer.",
        /// An `InputIndex` past the graph type's inputs (reported with the input's
        /// disassembly, at no line).
        InputIndexRange {
            /// The graph's type.
            ty: Id,
            /// The graph.
            graph: Id,
            /// How many inputs the type has.
            inputs: u32,
            /// The input index.
            index: u64,
            /// The input instruction's result id.
            result: Id,
            /// Its result type.
            result_type: Id,
            /// Its `InputIndex` and `ElementIndex` operands.
            operands: Vec<Id>,
        } => "Type {ty} for graph {graph} has {inputs} inputs but found an OpGraphInputARM instruction with an InputIndex that is {index}: {result:asm} = OpGraphInputARM {result_type:asm} {operands:asm}",
        /// An input's `ElementIndex` where the input is no array of tensors.
        InputElementNotArray
            => "OpGraphInputARM ElementIndex not allowed when the graph input selected by InputIndex is not an OpTypeArray or OpTypeRuntimeArray",
        /// An input's `ElementIndex` past its array.
        InputElementRange {
            /// The input's type.
            ty: Id,
            /// The array's length.
            length: u64,
            /// The element index.
            element: u64,
        } => "OpGraphInputARM ElementIndex out of range. The type of the graph input being accessed {ty} is an array of {length} elements but ElementIndex is {element}",
        /// An input element whose result type is not the array's element type.
        InputElementResult {
            /// The result type.
            ty: Id,
            /// The input instruction.
            input: Id,
            /// The array's element type.
            expected: Id,
            /// The input index.
            index: u64,
        } => "Result Type {ty} of graph input instruction {input} does not match the component type {expected} of input {index} in the graph type.",
        /// An input whose result type is not the graph input's type.
        InputResult {
            /// The result type.
            ty: Id,
            /// The input instruction.
            input: Id,
            /// The graph input's type.
            expected: Id,
            /// The input index.
            index: u64,
        } => "Result Type {ty} of graph input instruction {input} does not match the type {expected} of input {index} in the graph type.",
        /// An output's `OutputIndex` that is no 32-bit integer.
        OutputIndexType {
            opcode: Opcode,
        } => "{opcode} OutputIndex must be a 32-bit integer.",
        /// An `OutputIndex` past the graph type's outputs.
        OutputIndexRange {
            opcode: Opcode,
            /// The output index.
            index: u64,
            /// How many outputs the type has.
            outputs: u32,
        } => "{opcode} setting OutputIndex {index} but graph only has {outputs} outputs.",
        /// An output's `ElementIndex` where the output is no array of tensors.
        OutputElementNotArray
            => "OpGraphSetOutputARM ElementIndex not allowed when the graph output selected by OutputIndex is not an OpTypeArray or OpTypeRuntimeArray",
        /// An output's `ElementIndex` past its array.
        OutputElementRange {
            /// The output's type.
            ty: Id,
            /// The array's length.
            length: u64,
            /// The element index.
            element: u64,
        } => "OpGraphSetOutputARM ElementIndex out of range. The type of the graph output being accessed {ty} is an array of {length} elements but ElementIndex is {element}",
        /// An output element whose value is not of the array's element type.
        OutputElementValue {
            /// The value's type.
            ty: Id,
            /// The value.
            value: Id,
            /// The array's element type.
            expected: Id,
            /// The output index.
            index: u64,
        } => "The type {ty} of Value provided to the graph output instruction {value} does not match the component type {expected} of output {index} in the graph type.",
        /// An output whose value is not of the graph output's type.
        OutputValue {
            /// The value's type.
            ty: Id,
            /// The value.
            value: Id,
            /// The graph output's type.
            expected: Id,
            /// The output index.
            index: u64,
        } => "The type {ty} of Value provided to the graph output instruction {value} does not match the type {expected} of output {index} in the graph type.",
        /// Two inputs of one graph that name one input (reported at the second).
        DuplicateInput
            => "Two OpGraphInputARM instructions with the same InputIndex must not be part of the same graph definition unless ElementIndex is present in both with different values.",
        /// Two outputs of one graph that name one output (reported at the second).
        DuplicateOutput
            => "Two OpGraphSetOutputARM instructions with the same OutputIndex must not be part of the same graph definition unless ElementIndex is present in both with different values.",
    }
}

/// What the pass remembers across instructions.
#[derive(Debug, Default)]
pub(super) struct Graphs {
    /// The `GraphConstantID`s of the graph constants so far.
    constant_ids: BTreeSet<u32>,
    /// The last instruction whose graph was looked for, and that graph's
    /// `OpGraphARM` (so that each look back starts where the last one ended).
    looked: Option<(usize, Option<usize>)>,
    /// The last `OpGraphEndARM` checked: the next one's look back stops there.
    last_end: usize,
}

/// `GraphPass` for one instruction.
#[inline(always)]
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>, s: &mut Graphs) -> Result<(), Fault> {
    match inst.opcode {
        O::TypeGraphARM => graph_type(q, inst),
        O::GraphConstantARM => constant(q, inst, s),
        O::GraphEntryPointARM => entry_point(q, inst),
        O::GraphARM => {
            if q.opcode(inst.result_type()) != O::TypeGraphARM {
                return Err(E::GraphType {
                    opcode: inst.opcode,
                }
                .into());
            }
            Ok(())
        }
        O::GraphInputARM => input(q, inst, s),
        O::GraphSetOutputARM => output(q, inst, s),
        O::GraphEndARM => end(q, inst, s),
        _ => Ok(()),
    }
}

/// `IsTensorArray`: an array or runtime array of tensors.
fn is_tensor_array(q: &Query<'_>, t: u32) -> bool {
    matches!(q.opcode(t), O::TypeArray | O::TypeRuntimeArray)
        && q.word(t, 2)
            .is_some_and(|e| q.opcode(e) == O::TypeTensorARM)
}

/// `ValidateGraphType`.
fn graph_type(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let w = inst.words;
    let inputs = w.get(2).copied().unwrap_or(0);
    let types = w.len().saturating_sub(3);
    if (types as u64) < u64::from(inputs) {
        return Err(E::TooFewTypes { types, inputs }.into());
    }
    if types as u64 == u64::from(inputs) {
        return Err(E::NoOutput.into());
    }
    for &ty in &w[3..] {
        if q.opcode(ty) != O::TypeTensorARM && !is_tensor_array(q, ty) {
            return Err(E::NotInterfaceType { ty: Id(ty) }.into());
        }
    }
    Ok(())
}

/// `ValidateGraphConstant`.
fn constant(q: &Query<'_>, inst: &Inst<'_>, s: &mut Graphs) -> Result<(), Fault> {
    if q.opcode(inst.result_type()) != O::TypeTensorARM {
        return Err(E::ConstantType {
            opcode: inst.opcode,
        }
        .into());
    }
    if let Some(&id) = inst.words.get(3) {
        if !s.constant_ids.insert(id) {
            return Err(E::ConstantId.into());
        }
    }
    Ok(())
}

/// `ValidateGraphEntryPoint`.
fn entry_point(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let opcode = inst.opcode;
    let graph = inst.word(0);
    if q.opcode(graph) != O::GraphARM {
        return Err(E::EntryPointGraph {
            opcode,
            found: q.opcode(graph),
        }
        .into());
    }
    let ty = q.type_of(graph);
    let Some(ty_def) = q.def(ty) else {
        return Ok(());
    };
    let io = ty_def.words().len().saturating_sub(3);
    let ids = inst.operands.len().saturating_sub(2);
    // A graph of another type is the graph's fault, reported there.
    if ty_def.opcode() != O::TypeGraphARM {
        return Ok(());
    }
    if io != ids {
        return Err(E::EntryPointCount {
            opcode,
            ids,
            ty: Id(ty),
            io,
        }
        .into());
    }
    for i in 2..inst.operands.len() {
        let id = inst.word(i);
        let Some(def) = q.state.def(id) else {
            continue;
        };
        if def.opcode != O::Variable || q.word(id, 3) != Some(StorageClass::UniformConstant.0) {
            let kind = E::EntryPointVariable { opcode, id: Id(id) };
            return Err(Fault::at(kind.into(), def.index));
        }
        let io_ty = ty_def.words().get(i + 1).copied().unwrap_or(0);
        let pointee = q.word(def.type_id, 3).unwrap_or(0);
        if pointee != io_ty {
            return Err(E::EntryPointType {
                opcode,
                pointee: Id(pointee),
                io: Id(io_ty),
            }
            .into());
        }
    }
    Ok(())
}

/// Whether `id` is defined with a 32-bit integer type.
fn is_int32(q: &Query<'_>, id: u32) -> bool {
    q.def(id).is_some() && q.is_int_scalar_type_of_width(q.type_of(id), 32)
}

/// The `OpGraphARM` before instruction `index` (spirv-val looks back from it), as
/// its definition and its type's, when that type is an `OpTypeGraphARM`.
fn graph_of<'a>(q: &Query<'a>, index: usize, s: &mut Graphs) -> Option<(InstRef<'a>, InstRef<'a>)> {
    // Look back no further than the last look: what lies before it was seen then.
    let (stop, known) = match s.looked {
        Some((at, graph)) if at < index => (at, graph),
        _ => (0, None),
    };
    let found = (stop + 1..index)
        .rev()
        .find(|&j| {
            q.module
                .instruction(j)
                .is_some_and(|x| x.opcode() == O::GraphARM)
        })
        .or(known);
    s.looked = Some((index, found));
    let graph = q.module.instruction(found?)?;
    let ty = q.def(graph.words().get(1).copied()?)?;
    (ty.opcode() == O::TypeGraphARM).then_some((graph, ty))
}

/// The input or output type `at` (counted from the first) of a graph type.
fn io_type(ty: &InstRef<'_>, at: u64) -> Option<u32> {
    let at = usize::try_from(at).ok()?.checked_add(3)?;
    ty.words().get(at).copied()
}

/// The element checks an input or output with an `ElementIndex` shares: that the
/// graph's type for it is an array of tensors, and the index within a fixed array.
/// The faults are the input's (`input`) or the output's.
fn element_index(q: &Query<'_>, io_ty: u32, element: u32, input: bool) -> Result<(), Fault> {
    if !is_tensor_array(q, io_ty) {
        return Err(if input {
            E::InputElementNotArray
        } else {
            E::OutputElementNotArray
        }
        .into());
    }
    if q.opcode(io_ty) != O::TypeArray {
        return Ok(());
    }
    let Some(element) = q.constant_u64(element) else {
        return Ok(());
    };
    let Some(length) = q.word(io_ty, 3).and_then(|l| q.constant_u64(l)) else {
        return Ok(());
    };
    if element >= length {
        let ty = Id(io_ty);
        return Err(if input {
            E::InputElementRange {
                ty,
                length,
                element,
            }
        } else {
            E::OutputElementRange {
                ty,
                length,
                element,
            }
        }
        .into());
    }
    Ok(())
}

/// `ValidateGraphInput`.
fn input(q: &Query<'_>, inst: &Inst<'_>, s: &mut Graphs) -> Result<(), Fault> {
    let opcode = inst.opcode;
    let index_id = inst.word(2);
    if !is_int32(q, index_id) {
        return Err(E::InputIndexType { opcode }.into());
    }
    let element = (inst.operands.len() > 3).then(|| inst.word(3));
    if element.is_some_and(|e| !is_int32(q, e)) {
        return Err(E::ElementIndexType { opcode }.into());
    }
    let Some((graph, ty)) = graph_of(q, inst.index, s) else {
        return Ok(());
    };
    let Some(index) = q.constant_u64(index_id) else {
        return Ok(());
    };
    let inputs = ty.words().get(2).copied().unwrap_or(0);
    if index >= u64::from(inputs) {
        let kind = E::InputIndexRange {
            ty: Id(ty.words()[1]),
            graph: Id(graph.words().get(2).copied().unwrap_or(0)),
            inputs,
            index,
            result: Id(inst.result_id),
            result_type: Id(inst.result_type()),
            operands: inst
                .words
                .get(3..)
                .unwrap_or(&[])
                .iter()
                .map(|&w| Id(w))
                .collect(),
        };
        return Err(Fault::module(kind.into()));
    }
    let Some(io_ty) = io_type(&ty, index) else {
        return Ok(());
    };
    if let Some(element) = element {
        element_index(q, io_ty, element, true)?;
    }
    let result = inst.result_type();
    let fault = |expected: u32| {
        let (ty, input, expected) = (Id(result), Id(inst.result_id), Id(expected));
        if element.is_some() {
            E::InputElementResult {
                ty,
                input,
                expected,
                index,
            }
        } else {
            E::InputResult {
                ty,
                input,
                expected,
                index,
            }
        }
    };
    let expected = if element.is_some() {
        q.component_type(io_ty)
    } else {
        io_ty
    };
    if result != expected {
        return Err(fault(expected).into());
    }
    Ok(())
}

/// `ValidateGraphSetOutput`.
fn output(q: &Query<'_>, inst: &Inst<'_>, s: &mut Graphs) -> Result<(), Fault> {
    let opcode = inst.opcode;
    let index_id = inst.word(1);
    if !is_int32(q, index_id) {
        return Err(E::OutputIndexType { opcode }.into());
    }
    let element = (inst.operands.len() > 2).then(|| inst.word(2));
    if element.is_some_and(|e| !is_int32(q, e)) {
        return Err(E::ElementIndexType { opcode }.into());
    }
    let Some((_, ty)) = graph_of(q, inst.index, s) else {
        return Ok(());
    };
    let Some(index) = q.constant_u64(index_id) else {
        return Ok(());
    };
    let inputs = ty.words().get(2).copied().unwrap_or(0);
    let io = u32::try_from(ty.words().len().saturating_sub(3)).unwrap_or(u32::MAX);
    let outputs = io.saturating_sub(inputs);
    if index >= u64::from(outputs) {
        return Err(E::OutputIndexRange {
            opcode,
            index,
            outputs,
        }
        .into());
    }
    let Some(io_ty) = io_type(&ty, u64::from(inputs) + index) else {
        return Ok(());
    };
    if let Some(element) = element {
        element_index(q, io_ty, element, false)?;
    }
    let value = inst.word(0);
    let value_ty = q.type_of(value);
    let expected = if element.is_some() {
        q.component_type(io_ty)
    } else {
        io_ty
    };
    if value_ty != expected {
        let (ty, value, expected) = (Id(value_ty), Id(value), Id(expected));
        return Err(if element.is_some() {
            E::OutputElementValue {
                ty,
                value,
                expected,
                index,
            }
        } else {
            E::OutputValue {
                ty,
                value,
                expected,
                index,
            }
        }
        .into());
    }
    Ok(())
}

/// `ValidateGraphEnd`: no two inputs, then no two outputs, of the graph name the same
/// input or output (and element).
fn end(q: &Query<'_>, inst: &Inst<'_>, s: &mut Graphs) -> Result<(), Fault> {
    let mut inputs = Vec::new();
    let mut outputs = Vec::new();
    // Back to the graph (or, in a module whose layout is already faulty, to the last
    // end checked, so that no instruction is looked at twice).
    let stop = s.last_end.max(1);
    s.last_end = inst.index;
    for j in (stop..inst.index).rev() {
        let Some(x) = q.module.instruction(j) else {
            continue;
        };
        match x.opcode() {
            O::GraphInputARM => inputs.push(x),
            O::GraphSetOutputARM => outputs.push(x),
            O::GraphARM => break,
            _ => {}
        }
    }
    if let Some(dup) = first_duplicate(q, inputs.iter().rev(), 3) {
        return Err(Fault::at(E::DuplicateInput.into(), dup));
    }
    if let Some(dup) = first_duplicate(q, outputs.iter().rev(), 2) {
        return Err(Fault::at(E::DuplicateOutput.into(), dup));
    }
    Ok(())
}

/// `InputOutputInstructionsHaveDuplicateIndices`: the first instruction whose index
/// (word `at`) and element index (the word after, or none) an earlier one has, or
/// whose index an earlier one without element index has. Instructions whose indices
/// are not constants are left out.
fn first_duplicate<'a>(
    q: &Query<'_>,
    insts: impl Iterator<Item = &'a InstRef<'a>>,
    at: usize,
) -> Option<u32> {
    const NONE: u64 = u64::MAX;
    let mut seen = BTreeSet::new();
    for x in insts {
        let w = x.words();
        let Some(index) = w.get(at).and_then(|&i| q.constant_u64(i)) else {
            continue;
        };
        let element = match w.get(at + 1) {
            Some(&e) => match q.constant_u64(e) {
                Some(e) => e,
                None => continue,
            },
            None => NONE,
        };
        if seen.contains(&(index, element)) || seen.contains(&(index, NONE)) {
            return u32::try_from(x.index()).ok();
        }
        seen.insert((index, element));
    }
    None
}

/// What this family checks (see [`coverage`](crate::validate::coverage)).
pub(crate) const COVERAGE: crate::validate::coverage::Family = crate::validate::coverage::Family {
    opcodes: &[
        O::TypeGraphARM,
        O::GraphConstantARM,
        O::GraphEntryPointARM,
        O::GraphARM,
        O::GraphInputARM,
        O::GraphSetOutputARM,
        O::GraphEndARM,
    ],
    ..crate::validate::coverage::Family::new("graphs", "validate_graph.cpp")
};
