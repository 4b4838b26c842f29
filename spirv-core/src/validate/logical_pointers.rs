//! spirv-val's logical-pointer rules (`ValidateLogicalPointers` in
//! `validate_logical_pointers.cpp`), run last over the whole module when the
//! addressing model has logical pointers (`Logical`, `PhysicalStorageBuffer64`) and
//! `--relax-logical-pointer` is off: which instructions may take and return a logical
//! pointer (some only as variable pointers, in the storage classes the
//! `VariablePointers*` capabilities allow), and what a variable pointer must not point
//! to (a matrix column, an array of blocks, an object holding a matrix, two buffers
//! at once without `VariablePointers`).
//!
//! spirv-val asks two questions by walking a pointer's definitions: whether it is a
//! variable pointer (a recursion over its operands, memoized), and what the pointers
//! it may come from are (a trace back through access chains, selects, phis, calls,
//! parameters, loads and the stores into `Function` and `Private` variables). Here
//! both are answered without recursion and in linear time: the first as reachability
//! from the instructions that make variable pointers, over reversed edges; the second
//! by one iterative strongly-connected-component walk of the trace graph that keeps,
//! for each instruction, a summary of what its trace meets (each instruction is
//! visited once, however many traces pass through it).

use super::faults::faults;
use super::validation_state::{IdBits, OperandMemo, memoized};
use super::{Fault, Query};
use crate::__private::Vec;
use crate::grammar::KindClass;
use crate::spv::{self, Opcode, Opcode as O, StorageClass as S};
use LogicalPointerError as E;
use alloc::collections::BTreeMap;

faults! {
    /// A fault of spirv-val's logical-pointer rules (`validate_logical_pointers.cpp`).
    pub enum LogicalPointerError {
        /// A logical pointer operand of an instruction that takes one only as a
        /// variable pointer, outside the storage classes its capability allows.
        OperandCapability
            => "Instruction may only have a logical pointer operand in the StorageBuffer or Workgroup storage classes with appropriate variable pointers capability",
        /// A logical pointer operand of an instruction that takes none.
        Operand => "Instruction may not have a logical pointer operand",
        /// A logical pointer result of an instruction that returns one only as a
        /// variable pointer, outside the storage classes its capability allows.
        ReturnCapability
            => "Instruction may only return a logical pointer in the StorageBuffer or Workgroup storage classes with appropriate variable pointers capability",
        /// A logical pointer result of an instruction that returns none.
        Return => "Instruction may not return a logical pointer",
        /// `OpArrayLength` of a variable pointer.
        ArrayLength => "Pointer operand must not be a variable pointer",
        /// A variable pointer to a matrix or an object holding one.
        ContainsMatrix
            => "Variable pointer must not point to an object that is or contains a matrix",
        /// A select or phi of pointers into two buffers, without `VariablePointers`.
        SameStructure
            => "Variable pointers must point into the same structure (or OpConstantNull)",
        /// A typed variable pointer into a matrix.
        MatrixElement
            => "Variable pointer must not point to a column or a component of a column of a matrix",
        /// An untyped variable pointer into a matrix.
        MatrixElementUntyped
            => "Variable pointer must not point to a column or a component of a column of a matrix.",
        /// A variable pointer to an array of blocks.
        BlockArray
            => "Variable pointer must not point to an array of Block- or BufferBlock-decorated structs",
    }
}

/// A set of opcodes as bits, built at compile time from one of the lists below, so
/// that the rules ask each instruction's opcode in constant time.
struct OpcodeSet([u64; OPCODE_WORDS]);

/// Opcodes below `64 * OPCODE_WORDS` fit a set; building a set of a larger one fails
/// to compile.
const OPCODE_WORDS: usize = 128;

impl OpcodeSet {
    const fn of(list: &[Opcode]) -> Self {
        let mut bits = [0u64; OPCODE_WORDS];
        let mut i = 0;
        while i < list.len() {
            let op = list[i].0 as usize;
            assert!(op < 64 * OPCODE_WORDS, "an opcode past the set's bits");
            bits[op / 64] |= 1 << (op % 64);
            i += 1;
        }
        OpcodeSet(bits)
    }

    fn contains(&self, op: Opcode) -> bool {
        let op = usize::from(op.0);
        self.0
            .get(op / 64)
            .is_some_and(|w| w & (1 << (op % 64)) != 0)
    }
}

const TAKE_ANY_SET: OpcodeSet = OpcodeSet::of(TAKE_ANY);
const TAKE_VARIABLE_SET: OpcodeSet = OpcodeSet::of(TAKE_VARIABLE);
const RETURN_ANY_SET: OpcodeSet = OpcodeSet::of(RETURN_ANY);
const RETURN_VARIABLE_SET: OpcodeSet = OpcodeSet::of(RETURN_VARIABLE);
const MAKE_VARIABLE_SET: OpcodeSet = OpcodeSet::of(MAKE_VARIABLE);

/// The instructions that take logical pointer operands in every case.
const TAKE_ANY: &[Opcode] = &[
    O::Load,
    O::Store,
    O::AccessChain,
    O::InBoundsAccessChain,
    O::FunctionCall,
    O::ImageTexelPointer,
    O::CopyMemory,
    O::CopyObject,
    O::ArrayLength,
    O::ExtInst,
    O::Decorate,
    O::DecorateId,
    O::GroupDecorate,
    O::EntryPoint,
    O::Name,
    O::DecorateString,
    O::UntypedArrayLengthKHR,
    O::UntypedAccessChainKHR,
    O::UntypedInBoundsAccessChainKHR,
    O::CopyMemorySized,
    O::CooperativeMatrixLoadKHR,
    O::CooperativeMatrixLoadNV,
    O::CooperativeMatrixStoreKHR,
    O::CooperativeMatrixStoreNV,
    O::TraceRayKHR,
    O::ExecuteCallableKHR,
    O::RayQueryConfirmIntersectionKHR,
    O::RayQueryInitializeKHR,
    O::RayQueryTerminateKHR,
    O::RayQueryGenerateIntersectionKHR,
    O::RayQueryProceedKHR,
    O::RayQueryGetIntersectionTypeKHR,
    O::RayQueryGetRayTMinKHR,
    O::RayQueryGetRayFlagsKHR,
    O::RayQueryGetIntersectionTKHR,
    O::RayQueryGetIntersectionInstanceCustomIndexKHR,
    O::RayQueryGetIntersectionInstanceIdKHR,
    O::RayQueryGetIntersectionInstanceShaderBindingTableRecordOffsetKHR,
    O::RayQueryGetIntersectionGeometryIndexKHR,
    O::RayQueryGetIntersectionPrimitiveIndexKHR,
    O::RayQueryGetIntersectionBarycentricsKHR,
    O::RayQueryGetIntersectionFrontFaceKHR,
    O::RayQueryGetIntersectionCandidateAABBOpaqueKHR,
    O::RayQueryGetIntersectionObjectRayDirectionKHR,
    O::RayQueryGetIntersectionObjectRayOriginKHR,
    O::RayQueryGetWorldRayDirectionKHR,
    O::RayQueryGetWorldRayOriginKHR,
    O::RayQueryGetIntersectionObjectToWorldKHR,
    O::RayQueryGetIntersectionWorldToObjectKHR,
    O::RayQueryGetIntersectionTriangleVertexPositionsKHR,
    O::RayQueryGetIntersectionClusterIdNV,
    O::HitObjectGetClusterIdNV,
    O::TraceMotionNV,
    O::TraceRayMotionNV,
    O::RayQueryGetIntersectionSpherePositionNV,
    O::RayQueryGetIntersectionSphereRadiusNV,
    O::RayQueryGetIntersectionLSSPositionsNV,
    O::RayQueryGetIntersectionLSSRadiiNV,
    O::RayQueryGetIntersectionLSSHitValueNV,
    O::RayQueryIsSphereHitNV,
    O::RayQueryIsLSSHitNV,
    O::HitObjectGetSpherePositionNV,
    O::HitObjectGetSphereRadiusNV,
    O::HitObjectGetLSSPositionsNV,
    O::HitObjectGetLSSRadiiNV,
    O::HitObjectIsSphereHitNV,
    O::HitObjectIsLSSHitNV,
    O::ReorderThreadWithHitObjectNV,
    O::HitObjectTraceRayNV,
    O::HitObjectTraceRayMotionNV,
    O::HitObjectRecordHitNV,
    O::HitObjectRecordHitMotionNV,
    O::HitObjectRecordHitWithIndexNV,
    O::HitObjectRecordHitWithIndexMotionNV,
    O::HitObjectRecordMissNV,
    O::HitObjectRecordMissMotionNV,
    O::HitObjectRecordEmptyNV,
    O::HitObjectExecuteShaderNV,
    O::HitObjectGetCurrentTimeNV,
    O::HitObjectGetAttributesNV,
    O::HitObjectGetHitKindNV,
    O::HitObjectGetPrimitiveIndexNV,
    O::HitObjectGetGeometryIndexNV,
    O::HitObjectGetInstanceIdNV,
    O::HitObjectGetInstanceCustomIndexNV,
    O::HitObjectGetObjectRayOriginNV,
    O::HitObjectGetObjectRayDirectionNV,
    O::HitObjectGetWorldRayDirectionNV,
    O::HitObjectGetWorldRayOriginNV,
    O::HitObjectGetObjectToWorldNV,
    O::HitObjectGetWorldToObjectNV,
    O::HitObjectGetRayTMaxNV,
    O::HitObjectGetRayTMinNV,
    O::HitObjectGetShaderBindingTableRecordIndexNV,
    O::HitObjectGetShaderRecordBufferHandleNV,
    O::HitObjectIsEmptyNV,
    O::HitObjectIsHitNV,
    O::HitObjectIsMissNV,
    O::HitObjectRecordFromQueryEXT,
    O::HitObjectRecordMissEXT,
    O::HitObjectRecordMissMotionEXT,
    O::HitObjectGetIntersectionTriangleVertexPositionsEXT,
    O::HitObjectGetRayFlagsEXT,
    O::HitObjectSetShaderBindingTableRecordIndexEXT,
    O::HitObjectReorderExecuteShaderEXT,
    O::HitObjectTraceReorderExecuteEXT,
    O::HitObjectTraceMotionReorderExecuteEXT,
    O::ReorderThreadWithHintEXT,
    O::ReorderThreadWithHitObjectEXT,
    O::HitObjectTraceRayEXT,
    O::HitObjectTraceRayMotionEXT,
    O::HitObjectRecordEmptyEXT,
    O::HitObjectExecuteShaderEXT,
    O::HitObjectGetCurrentTimeEXT,
    O::HitObjectGetAttributesEXT,
    O::HitObjectGetHitKindEXT,
    O::HitObjectGetPrimitiveIndexEXT,
    O::HitObjectGetGeometryIndexEXT,
    O::HitObjectGetInstanceIdEXT,
    O::HitObjectGetInstanceCustomIndexEXT,
    O::HitObjectGetObjectRayOriginEXT,
    O::HitObjectGetObjectRayDirectionEXT,
    O::HitObjectGetWorldRayDirectionEXT,
    O::HitObjectGetWorldRayOriginEXT,
    O::HitObjectGetObjectToWorldEXT,
    O::HitObjectGetWorldToObjectEXT,
    O::HitObjectGetRayTMaxEXT,
    O::HitObjectGetRayTMinEXT,
    O::HitObjectGetShaderBindingTableRecordIndexEXT,
    O::HitObjectGetShaderRecordBufferHandleEXT,
    O::HitObjectIsEmptyEXT,
    O::HitObjectIsHitEXT,
    O::HitObjectIsMissEXT,
    O::RawAccessChainNV,
    O::CooperativeMatrixLoadTensorNV,
    O::CooperativeMatrixStoreTensorNV,
    O::CooperativeVectorLoadNV,
    O::CooperativeVectorStoreNV,
    O::CooperativeVectorMatrixMulNV,
    O::CooperativeVectorMatrixMulAddNV,
    O::CooperativeVectorOuterProductAccumulateNV,
    O::CooperativeVectorReduceSumAccumulateNV,
    O::EmitMeshTasksEXT,
    O::EnqueueNodePayloadsAMDX,
    O::NodePayloadArrayLengthAMDX,
    O::IsNodePayloadValidAMDX,
    O::FinishWritingNodePayloadAMDX,
    O::GraphEntryPointARM,
];

/// The instructions that take logical pointer operands only as variable pointers.
const TAKE_VARIABLE: &[Opcode] = &[
    O::ReturnValue,
    O::PtrAccessChain,
    O::PtrEqual,
    O::PtrNotEqual,
    O::PtrDiff,
    O::Select,
    O::Phi,
    O::Variable,
    O::UntypedPtrAccessChainKHR,
];

/// The instructions that return logical pointers in every case.
const RETURN_ANY: &[Opcode] = &[
    O::Variable,
    O::AccessChain,
    O::InBoundsAccessChain,
    O::FunctionParameter,
    O::ImageTexelPointer,
    O::CopyObject,
    O::Undef,
    O::UntypedAccessChainKHR,
    O::UntypedInBoundsAccessChainKHR,
    O::UntypedVariableKHR,
    O::RawAccessChainNV,
    O::AllocateNodePayloadsAMDX,
];

/// The instructions that return logical pointers only as variable pointers.
const RETURN_VARIABLE: &[Opcode] = &[
    O::Select,
    O::Phi,
    O::FunctionCall,
    O::PtrAccessChain,
    O::Load,
    O::ConstantNull,
    O::Function,
    O::UntypedPtrAccessChainKHR,
];

/// The instructions whose results are variable pointers by themselves
/// (`IsVariablePointer`'s first cases).
const MAKE_VARIABLE: &[Opcode] = &[
    O::PtrAccessChain,
    O::UntypedPtrAccessChainKHR,
    O::UntypedInBoundsPtrAccessChainKHR,
    O::Load,
    O::Select,
    O::Phi,
    O::FunctionCall,
    O::ConstantNull,
];

/// The storage class of a logical pointer type (`IsLogicalPointer` on a value of type
/// `t`): a pointer of any storage class but `PhysicalStorageBuffer`.
fn logical_class(q: &Query<'_>, t: u32) -> Option<u32> {
    if !q.is_pointer_type(t) {
        return None;
    }
    let class = q.word(t, 2)?;
    (S(class) != S::PhysicalStorageBuffer).then_some(class)
}

/// Whether a storage class is one a variable pointer capability of the module allows.
fn variable_class(q: &Query<'_>, class: u32) -> bool {
    use spv::Capability as C;
    (q.state.has_capability(C::VariablePointersStorageBuffer.0) && S(class) == S::StorageBuffer)
        || (q.state.has_capability(C::VariablePointers.0) && S(class) == S::Workgroup)
}

/// What the module tells the rules, gathered in one pass.
struct Facts {
    /// Per instruction: the storage class of its first logical pointer id operand.
    first_class: Vec<Option<u32>>,
    /// Per instruction: whether it is a variable pointer (`IsVariablePointer`).
    variable: Vec<bool>,
    /// The calls of each function, by its id.
    calls: BTreeMap<u32, Vec<usize>>,
    /// The `OpReturnValue`s of each function, by its id.
    returns: BTreeMap<u32, Vec<usize>>,
    /// Each `OpFunctionParameter`: its function and its position.
    params: BTreeMap<usize, (u32, usize)>,
    /// The ids whose type is a logical pointer (and maybe others: a bit test that
    /// spares the look-up of most results' types).
    pointers: IdBits,
}

/// The instruction index of `id`'s definition.
fn at(q: &Query<'_>, id: u32) -> Option<usize> {
    q.state.def(id).map(|d| d.index as usize)
}

fn facts(q: &Query<'_>) -> Facts {
    let n = q.module.len();
    // The logical pointer types first (a few), then the ids of those types: one bit
    // test per definition rather than a look-up of its type.
    let types = IdBits::defined(q.state, |d| {
        matches!(d.opcode, O::TypePointer | O::TypeUntypedPointerKHR)
    });
    let pointers = IdBits::defined(q.state, |d| {
        types.may_hold(d.type_id) && logical_class(q, d.type_id).is_some()
    });
    let mut first_class = alloc::vec![None; n];
    // Reversed `IsVariablePointer` edges, from an operand to a user, gathered as a
    // list and laid out by operand below (one allocation, not one per instruction).
    let mut edges: Vec<(u32, u32)> = Vec::new();
    let mut calls: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
    let mut returns: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
    let mut params = BTreeMap::new();
    let (mut function, mut position) = (0, 0);
    let mut operands = OperandMemo::default();
    for (index, first) in first_class.iter_mut().enumerate() {
        let Some(raw) = q.module.instruction(index) else {
            continue;
        };
        let words = raw.words();
        match raw.opcode() {
            O::Function => (function, position) = (words.get(2).copied().unwrap_or(0), 0),
            O::FunctionParameter => {
                params.insert(index, (function, position));
                position += 1;
            }
            O::ReturnValue => returns.entry(function).or_default().push(index),
            O::FunctionCall => {
                let callee = words.get(3).copied().unwrap_or(0);
                calls.entry(callee).or_default().push(index);
            }
            _ => {}
        }
        if !pointers.may_name(words) {
            continue;
        }
        let Some(inst) = memoized(q.module, q.state, index, &mut operands) else {
            continue;
        };
        let opcode = inst.opcode;
        let follows = !MAKE_VARIABLE_SET.contains(opcode) && opcode != O::FunctionParameter;
        for op in inst.operands {
            if op.kind.class != KindClass::Id {
                continue;
            }
            let Some(&id) = inst.words.get(op.offset) else {
                continue;
            };
            // Most operands are no pointers: the bit test spares the type's look-up.
            if !pointers.may_hold(id) {
                continue;
            }
            let Some(class) = logical_class(q, q.type_of(id)) else {
                continue;
            };
            if first.is_none() {
                *first = Some(class);
            }
            if let (true, Some(def)) = (follows, at(q, id)) {
                edges.push((def as u32, index as u32));
            }
        }
    }
    // A logical pointer parameter follows the arguments of its function's calls.
    for (&param, &(function, position)) in &params {
        let Some(raw) = q.module.instruction(param) else {
            continue;
        };
        let ty = raw.words().get(1).copied().unwrap_or(0);
        if logical_class(q, ty).is_none() {
            continue;
        }
        for &call in calls.get(&function).into_iter().flatten() {
            let arg = q
                .module
                .instruction(call)
                .and_then(|c| c.words().get(4 + position).copied());
            if let Some(def) = arg.and_then(|a| at(q, a)) {
                edges.push((def as u32, param as u32));
            }
        }
    }
    let users = Users::of(n, &edges);
    drop(edges);
    // Reachability from the instructions that make variable pointers.
    let mut variable = alloc::vec![false; n];
    let mut stack = Vec::new();
    for (index, v) in variable.iter_mut().enumerate() {
        if q.module
            .instruction(index)
            .is_some_and(|i| MAKE_VARIABLE_SET.contains(i.opcode()))
        {
            *v = true;
            stack.push(index);
        }
    }
    while let Some(x) = stack.pop() {
        for &u in users.of_instruction(x) {
            let u = u as usize;
            if !variable[u] {
                variable[u] = true;
                stack.push(u);
            }
        }
    }
    Facts {
        first_class,
        variable,
        calls,
        returns,
        params,
        pointers,
    }
}

/// Each instruction's users along reversed edges, laid out by instruction: the users
/// of instruction `x` are `to[start[x]..start[x + 1]]`.
struct Users {
    start: Vec<u32>,
    to: Vec<u32>,
}

impl Users {
    /// The edges `(from, to)` of `n` instructions, laid out by `from` (a counting sort).
    fn of(n: usize, edges: &[(u32, u32)]) -> Self {
        let mut start = alloc::vec![0u32; n + 1];
        for &(from, _) in edges {
            if let Some(c) = start.get_mut(from as usize + 1) {
                *c += 1;
            }
        }
        for i in 1..start.len() {
            start[i] += start[i - 1];
        }
        let mut next = start.clone();
        let mut to = alloc::vec![0u32; edges.len()];
        for &(from, t) in edges {
            if let Some(slot) = next.get_mut(from as usize) {
                if let Some(x) = to.get_mut(*slot as usize) {
                    *x = t;
                }
                *slot += 1;
            }
        }
        Users { start, to }
    }

    fn of_instruction(&self, x: usize) -> &[u32] {
        let (Some(&a), Some(&b)) = (self.start.get(x), self.start.get(x + 1)) else {
            return &[];
        };
        self.to.get(a as usize..b as usize).unwrap_or(&[])
    }
}

/// What a trace meets: up to two buffer variables (their instruction indices), and
/// whether it passes an instruction that breaks each matrix or block rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Met {
    sources: [usize; 2],
    typed_matrix: bool,
    untyped_matrix: bool,
    block_array: bool,
}

const NONE: usize = usize::MAX;

impl Met {
    const EMPTY: Met = Met {
        sources: [NONE; 2],
        typed_matrix: false,
        untyped_matrix: false,
        block_array: false,
    };

    fn add_source(&mut self, s: usize) {
        if s == NONE || self.sources.contains(&s) {
            return;
        }
        if self.sources[0] == NONE {
            self.sources[0] = s;
        } else if self.sources[1] == NONE {
            self.sources[1] = s;
        }
    }

    fn merge(&mut self, other: &Met) {
        for s in other.sources {
            self.add_source(s);
        }
        self.typed_matrix |= other.typed_matrix;
        self.untyped_matrix |= other.untyped_matrix;
        self.block_array |= other.block_array;
    }
}

/// Which trace: `TraceVariablePointers`, or `TraceUnmodifiedVariablePointers` (which
/// does not go through access chains with indexes).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Walk {
    All,
    Unmodified,
}

/// The trace graph and its summaries, built on first use. Nodes `0..n` are
/// instructions (the checks look at them); nodes `n..2n` stand for the uses of an
/// instruction's result, which a `Function` or `Private` variable follows to the
/// stores through it.
struct Trace<'q, 'a> {
    q: &'q Query<'a>,
    facts: &'q Facts,
    walk: Walk,
    n: usize,
    /// Tarjan's numbering (0 for unvisited).
    order: Vec<u32>,
    low: Vec<u32>,
    on_stack: Vec<bool>,
    met: Vec<Met>,
    done: Vec<bool>,
    stack: Vec<usize>,
    counter: u32,
}

impl<'q, 'a> Trace<'q, 'a> {
    fn new(q: &'q Query<'a>, facts: &'q Facts, walk: Walk) -> Self {
        let n = q.module.len();
        Trace {
            q,
            facts,
            walk,
            n,
            order: alloc::vec![0; 2 * n],
            low: alloc::vec![0; 2 * n],
            on_stack: alloc::vec![false; 2 * n],
            met: alloc::vec![Met::EMPTY; 2 * n],
            done: alloc::vec![false; 2 * n],
            stack: Vec::new(),
            counter: 0,
        }
    }

    /// The nodes a node's trace goes on to.
    fn edges(&self, uses: &[Vec<(usize, usize)>], node: usize, out: &mut Vec<usize>) {
        let q = self.q;
        let to = |id: u32, out: &mut Vec<usize>| {
            if let Some(i) = at(q, id) {
                out.push(i);
            }
        };
        if node >= self.n {
            let x = node - self.n;
            for &(user, word) in uses.get(x).into_iter().flatten() {
                let Some(u) = q.module.instruction(user) else {
                    continue;
                };
                if u.opcode() == O::Store && word == 1 {
                    to(u.words().get(2).copied().unwrap_or(0), out);
                } else {
                    out.push(self.n + user);
                }
            }
            return;
        }
        let Some(inst) = q.module.instruction(node) else {
            return;
        };
        let w = inst.words();
        let word = |i: usize| w.get(i).copied().unwrap_or(0);
        // spirv-val's operand `i` is word `i + 1` for these single-word operands.
        let operands = w.len().saturating_sub(1);
        match inst.opcode() {
            // The unmodified walk follows a chain with no operand past its base,
            // which spirv-val asks as "two operands" (so, never).
            O::AccessChain | O::InBoundsAccessChain | O::PtrAccessChain
                if self.walk == Walk::All
                    || (inst.opcode() != O::PtrAccessChain && operands == 2) =>
            {
                to(word(3), out);
            }
            O::UntypedAccessChainKHR
            | O::UntypedInBoundsAccessChainKHR
            | O::UntypedPtrAccessChainKHR
                if self.walk == Walk::All || operands == 3 =>
            {
                to(word(4), out);
            }
            O::Phi => {
                for i in (3..w.len()).step_by(2) {
                    to(w[i], out);
                }
            }
            O::Select => {
                to(word(4), out);
                to(word(5), out);
            }
            O::FunctionParameter => {
                if let Some(&(function, position)) = self.facts.params.get(&node) {
                    for &call in self.facts.calls.get(&function).into_iter().flatten() {
                        let arg = q
                            .module
                            .instruction(call)
                            .and_then(|c| c.words().get(4 + position).copied());
                        if let Some(arg) = arg {
                            to(arg, out);
                        }
                    }
                }
            }
            O::FunctionCall => {
                out.extend(self.facts.returns.get(&word(3)).into_iter().flatten());
            }
            O::ReturnValue | O::Store => to(word(1), out),
            O::CopyObject | O::Load => to(word(3), out),
            O::Variable | O::UntypedVariableKHR => {
                if matches!(S(word(3)), S::Function | S::Private) {
                    let init = if inst.opcode() == O::UntypedVariableKHR {
                        4
                    } else {
                        3
                    };
                    if operands > init {
                        to(word(init + 1), out);
                    }
                    out.push(self.n + node);
                }
            }
            _ => {}
        }
    }

    /// What instruction `x` itself breaks (the checkers, run on each instruction a
    /// trace meets).
    fn own(&self, x: usize) -> Met {
        let mut met = Met::EMPTY;
        let q = self.q;
        let Some(inst) = q.module.instruction(x) else {
            return met;
        };
        let w = inst.words();
        match self.walk {
            Walk::All => {
                if matches!(inst.opcode(), O::Variable | O::UntypedVariableKHR)
                    && matches!(
                        S(w.get(3).copied().unwrap_or(0)),
                        S::StorageBuffer | S::Workgroup
                    )
                {
                    met.add_source(x);
                }
                met.typed_matrix = into_matrix(q, w, inst.opcode(), false);
                met.untyped_matrix = into_matrix(q, w, inst.opcode(), true);
            }
            Walk::Unmodified => {
                let ty = match inst.opcode() {
                    O::UntypedVariableKHR => w.get(4).copied(),
                    O::Variable => q.word(w.get(1).copied().unwrap_or(0), 3),
                    _ => None,
                };
                met.block_array = ty.is_some_and(|t| is_block_array(q, t));
            }
        }
        met
    }

    /// What the trace from node `start` meets (an iterative Tarjan walk; every node
    /// it finishes keeps its summary for later traces).
    fn meets(&mut self, uses: &[Vec<(usize, usize)>], start: usize) -> Met {
        if self.done[start] {
            return self.met[start];
        }
        // Frames: (node, its edges, the next edge to follow).
        let mut frames: Vec<(usize, Vec<usize>, usize)> = Vec::new();
        self.enter(uses, start, &mut frames);
        while let Some(top) = frames.last_mut() {
            let v = top.0;
            if let Some(&w) = top.1.get(top.2) {
                top.2 += 1;
                if self.done[w] {
                    let m = self.met[w];
                    self.met[v].merge(&m);
                } else if self.order[w] == 0 {
                    self.enter(uses, w, &mut frames);
                } else if self.on_stack[w] {
                    self.low[v] = self.low[v].min(self.order[w]);
                }
                continue;
            }
            frames.pop();
            if self.low[v] == self.order[v] {
                // v roots a component: its members share one summary.
                let mut members = Vec::new();
                let mut met = Met::EMPTY;
                while let Some(x) = self.stack.pop() {
                    self.on_stack[x] = false;
                    met.merge(&self.met[x].clone());
                    members.push(x);
                    if x == v {
                        break;
                    }
                }
                for x in members {
                    self.met[x] = met;
                    self.done[x] = true;
                }
            }
            if let Some(parent) = frames.last() {
                let p = parent.0;
                self.low[p] = self.low[p].min(self.low[v]);
                let m = self.met[v];
                self.met[p].merge(&m);
            }
        }
        self.met[start]
    }

    /// The instruction spirv-val's own trace from `start` reports first among those
    /// `bad` accepts (its walk: a stack, each instruction once, a variable's stores
    /// found through a walk of its uses), when the summaries say there is one. The
    /// walk goes only where the summaries say such an instruction is reachable,
    /// which leaves its order among those unchanged; uses already walked for one
    /// variable are not walked again for another (spirv-val walks them again, which
    /// can only reorder what a single trace meets through two variables), so the walk
    /// is linear.
    fn first(
        &mut self,
        uses: &[Vec<(usize, usize)>],
        start: usize,
        bad: fn(&Met) -> bool,
    ) -> Option<usize> {
        if !bad(&self.meets(uses, start)) {
            return None;
        }
        let q = self.q;
        let n = self.n;
        let mut seen = alloc::vec![false; 2 * n];
        let mut stack = Vec::from([start]);
        let mut edges = Vec::new();
        while let Some(x) = stack.pop() {
            if core::mem::replace(&mut seen[x], true) {
                continue;
            }
            if bad(&self.own(x)) {
                return Some(x);
            }
            edges.clear();
            self.edges(uses, x, &mut edges);
            for &e in &edges {
                if !bad(&self.met[e]) {
                    continue;
                }
                if e < n {
                    stack.push(e);
                    continue;
                }
                // A variable's stores: spirv-val walks its uses with a stack of its
                // own, and pushes each store's object as it finds it.
                let mut users: Vec<(usize, usize)> = uses.get(e - n).cloned().unwrap_or_default();
                while let Some((user, word)) = users.pop() {
                    let Some(u) = q.module.instruction(user) else {
                        continue;
                    };
                    if u.opcode() == O::Store && word == 1 {
                        let object = at(q, u.words().get(2).copied().unwrap_or(0));
                        if let Some(object) = object.filter(|&o| bad(&self.met[o])) {
                            stack.push(object);
                        }
                    } else if !core::mem::replace(&mut seen[n + user], true)
                        && bad(&self.met[n + user])
                    {
                        users.extend(uses.get(user).into_iter().flatten());
                    }
                }
            }
        }
        None
    }

    fn enter(
        &mut self,
        uses: &[Vec<(usize, usize)>],
        v: usize,
        frames: &mut Vec<(usize, Vec<usize>, usize)>,
    ) {
        self.counter += 1;
        self.order[v] = self.counter;
        self.low[v] = self.counter;
        self.on_stack[v] = true;
        self.stack.push(v);
        if v < self.n {
            self.met[v] = self.own(v);
        }
        let mut edges = Vec::new();
        self.edges(uses, v, &mut edges);
        frames.push((v, edges, 0));
    }
}

/// `IsBlockArray`: an array of structs decorated `Block` or `BufferBlock`.
fn is_block_array(q: &Query<'_>, t: u32) -> bool {
    if !matches!(q.opcode(t), O::TypeArray | O::TypeRuntimeArray) {
        return false;
    }
    let element = q.word(t, 2).unwrap_or(0);
    q.opcode(element) == O::TypeStruct
        && (q.decorations.has(element, spv::Decoration::Block.0)
            || q.decorations.has(element, spv::Decoration::BufferBlock.0))
}

/// `CheckMatrixElementTyped` (or, with `untyped`, `CheckMatrixElementUntyped`): an
/// access chain whose base or a step through its indexes is a matrix.
fn into_matrix(q: &Query<'_>, w: &[u32], opcode: Opcode, untyped: bool) -> bool {
    let word = |i: usize| w.get(i).copied().unwrap_or(0);
    let (start, mut access) = match opcode {
        O::AccessChain | O::InBoundsAccessChain | O::PtrAccessChain => {
            let start = if opcode == O::PtrAccessChain { 4 } else { 3 };
            let pointer = q.type_of(word(3));
            (start, q.word(pointer, 3).unwrap_or(0))
        }
        O::UntypedAccessChainKHR
        | O::UntypedInBoundsAccessChainKHR
        | O::UntypedPtrAccessChainKHR
            if untyped =>
        {
            let start = if opcode == O::UntypedPtrAccessChainKHR {
                5
            } else {
                4
            };
            (start, word(3))
        }
        _ => return false,
    };
    if q.opcode(access) == O::TypeMatrix {
        return true;
    }
    // Operand `i` is word `i + 1`.
    for &index in w.iter().skip(start + 1) {
        access = if q.opcode(access) == O::TypeStruct {
            let member = q.constant_u64(index).unwrap_or(0);
            let member = usize::try_from(member).unwrap_or(usize::MAX);
            match q.struct_members(access).get(member) {
                Some(&m) => m,
                None => return false,
            }
        } else {
            q.component_type(access)
        };
        if q.def(access).is_none() {
            return false;
        }
        if q.opcode(access) == O::TypeMatrix {
            return true;
        }
    }
    false
}

/// Each instruction's users, with the word each use is at (`uses()`).
fn uses_of(q: &Query<'_>) -> Vec<Vec<(usize, usize)>> {
    let n = q.module.len();
    let mut uses = alloc::vec![Vec::new(); n];
    let mut operands = OperandMemo::default();
    for index in 0..n {
        let Some(inst) = memoized(q.module, q.state, index, &mut operands) else {
            continue;
        };
        for op in inst.operands {
            if !matches!(op.kind.class, KindClass::Id | KindClass::ResultType) {
                continue;
            }
            let id = inst.words.get(op.offset).copied().unwrap_or(0);
            if let Some(def) = at(q, id) {
                uses[def].push((index, op.offset));
            }
        }
    }
    uses
}

/// The rules' state over the module: the facts, the types known to hold matrices,
/// and the traces, built on first need.
struct Rules<'q, 'a> {
    q: &'q Query<'a>,
    facts: &'q Facts,
    matrices: BTreeMap<u32, bool>,
    uses: Option<Vec<Vec<(usize, usize)>>>,
    all: Option<Trace<'q, 'a>>,
    unmodified: Option<Trace<'q, 'a>>,
}

impl<'q, 'a> Rules<'q, 'a> {
    /// What the trace of `walk` from instruction `x` meets.
    fn meets(&mut self, walk: Walk, x: usize) -> Met {
        let (q, facts) = (self.q, self.facts);
        let uses = self.uses.get_or_insert_with(|| uses_of(q));
        let trace = match walk {
            Walk::All => &mut self.all,
            Walk::Unmodified => &mut self.unmodified,
        };
        trace
            .get_or_insert_with(|| Trace::new(q, facts, walk))
            .meets(uses, x)
    }

    /// The instruction spirv-val reports a matrix fault of the trace from `x` at.
    fn first(&mut self, x: usize, bad: fn(&Met) -> bool) -> Option<usize> {
        let (q, facts) = (self.q, self.facts);
        let uses = self.uses.get_or_insert_with(|| uses_of(q));
        self.all
            .get_or_insert_with(|| Trace::new(q, facts, Walk::All))
            .first(uses, x, bad)
    }

    fn holds_matrix(&mut self, t: u32) -> bool {
        let q = self.q;
        *self.matrices.entry(t).or_insert_with(|| {
            super::validation_state::contains_type(q, t, false, &|i| i.opcode() == O::TypeMatrix)
        })
    }

    /// Whether the pointer `id` is a variable pointer.
    fn variable(&self, id: u32) -> bool {
        at(self.q, id).is_some_and(|i| self.facts.variable[i])
    }

    /// `ValidateLogicalPointerOperands`.
    fn operands(&self, index: usize, opcode: Opcode) -> Option<E> {
        let class = self.facts.first_class[index]?;
        if TAKE_ANY_SET.contains(opcode) {
            return None;
        }
        if TAKE_VARIABLE_SET.contains(opcode) {
            return (!variable_class(self.q, class)).then_some(E::OperandCapability);
        }
        (!super::memory_semantics::is_atomic(opcode)).then_some(E::Operand)
    }

    /// `ValidateLogicalPointerReturns`.
    fn returns(&self, opcode: Opcode, ty: u32) -> Option<E> {
        let class = logical_class(self.q, ty)?;
        if RETURN_ANY_SET.contains(opcode) {
            return None;
        }
        if RETURN_VARIABLE_SET.contains(opcode) {
            return (!variable_class(self.q, class)).then_some(E::ReturnCapability);
        }
        Some(E::Return)
    }

    /// `ValidateVariablePointers`.
    fn variable_pointers(
        &mut self,
        index: usize,
        opcode: Opcode,
        w: &[u32],
        ty: u32,
    ) -> Option<(E, usize)> {
        let q = self.q;
        let word = |i: usize| w.get(i).copied().unwrap_or(0);
        match opcode {
            O::ArrayLength | O::UntypedArrayLengthKHR => {
                let pointer = if opcode == O::ArrayLength {
                    word(3)
                } else {
                    word(4)
                };
                return self.variable(pointer).then_some((E::ArrayLength, index));
            }
            O::Load | O::Store => {
                let (pointer, data) = if opcode == O::Load {
                    (word(3), word(1))
                } else {
                    (word(1), q.type_of(word(2)))
                };
                if q.opcode(q.type_of(pointer)) == O::TypeUntypedPointerKHR
                    && self.variable(pointer)
                    && self.holds_matrix(data)
                {
                    return Some((E::ContainsMatrix, index));
                }
            }
            _ => {}
        }
        if logical_class(q, ty).is_none() || !self.facts.variable[index] {
            return None;
        }
        if !q.state.has_capability(spv::Capability::VariablePointers.0)
            && matches!(opcode, O::Select | O::Phi)
            && self.meets(Walk::All, index).sources[1] != NONE
        {
            return Some((E::SameStructure, index));
        }
        if q.opcode(ty) == O::TypeUntypedPointerKHR {
            if let Some(at) = self.first(index, |m| m.untyped_matrix) {
                return Some((E::MatrixElementUntyped, at));
            }
            // A chain with no index keeps its base's type: spirv-val asks this as
            // "three operands" (so, never).
            let bare = w.len() == 4
                && matches!(
                    opcode,
                    O::UntypedAccessChainKHR
                        | O::UntypedInBoundsAccessChainKHR
                        | O::UntypedPtrAccessChainKHR
                );
            if !bare && self.meets(Walk::Unmodified, index).block_array {
                return Some((E::BlockArray, index));
            }
            return None;
        }
        let pointee = q.word(ty, 3).unwrap_or(0);
        if is_block_array(q, pointee) {
            return Some((E::BlockArray, index));
        }
        if self.holds_matrix(pointee) {
            return Some((E::ContainsMatrix, index));
        }
        if q.is_float_scalar_or_vector_type(pointee) {
            if let Some(at) = self.first(index, |m| m.typed_matrix) {
                return Some((E::MatrixElement, at));
            }
        }
        None
    }
}

/// `ValidateLogicalPointers`: reports the first fault, in module order; spirv-val
/// stops there.
pub(super) fn check(q: &Query<'_>, sink: &mut dyn FnMut(Fault) -> bool) {
    use spv::AddressingModel as A;
    if !matches!(
        q.state.addressing_model(),
        A::Logical | A::PhysicalStorageBuffer64
    ) || q.state.options.relax_logical_pointer
    {
        return;
    }
    let facts = facts(q);
    let mut rules = Rules {
        q,
        facts: &facts,
        matrices: BTreeMap::new(),
        uses: None,
        all: None,
        unmodified: None,
    };
    for index in 0..q.module.len() {
        let Some(inst) = q.module.instruction(index) else {
            continue;
        };
        let opcode = inst.opcode();
        // A result that is no logical pointer needs no type: its rules ask none.
        let ty = match inst.result_id() {
            Some(id) if facts.pointers.may_hold(id.0) => q.type_of(id.0),
            _ => 0,
        };
        let fault = rules
            .operands(index, opcode)
            .or_else(|| rules.returns(opcode, ty))
            .map(|kind| (kind, index))
            .or_else(|| rules.variable_pointers(index, opcode, inst.words(), ty));
        if let Some((kind, at)) = fault {
            sink(Fault::at(kind.into(), at as u32));
            return;
        }
    }
}

/// What this family checks (see [`coverage`](crate::validate::coverage)).
pub(crate) const COVERAGE: crate::validate::coverage::Family =
    crate::validate::coverage::Family::new("logical pointers", "validate_logical_pointers.cpp");
