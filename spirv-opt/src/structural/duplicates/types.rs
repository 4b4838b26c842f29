//! Which types spirv-opt 2025.5's `--remove-duplicates` finds equal: the equality of its
//! type manager's types (`source/opt/types.cpp` `IsSame`, built by
//! `source/opt/type_manager.cpp` `AnalyzeTypes`), decorations included, computed for
//! all types at once as a bisimulation ([`super::partition`]).
//!
//! What it reproduces:
//! - Types compare by structure, not by id: element types recursively, a pointer's
//!   pointee recursively (forward-pointer cycles compare as the trees they unfold to).
//! - Each kind compares the fields spirv-opt keeps: an integer's signedness as a bool,
//!   an image's arrayed and multisampled flags as `== 1` and an absent access qualifier
//!   as `ReadOnly`, a float's absent encoding as its own value, an array's length by its
//!   constant's value words (not its type), with the `SpecId` of a length that has one,
//!   or by id for other constants; a cooperative matrix's or tensor's scope, sizes and
//!   shape by id; `OpTypeTensorLayoutNV`, `OpTypeTensorViewNV` and `OpTypeGraphARM`
//!   without decorations.
//! - Decorations: the `OpDecorate`/`OpDecorateId` of the type and of the groups applied
//!   to it, in that order, as lists compared after a stable sort by decoration
//!   (`std::sort` of at most 16 elements is stable); `OpMemberDecorate` per member of a
//!   struct (members past the last ignored); `OpDecorateString` and
//!   `OpMemberDecorateString` ignored. The decoration manager reads an
//!   `OpGroupMemberDecorate`'s member numbers where its targets are, so a type gets that
//!   group's decorations when its id equals one of those numbers.
//! - A type that refers to a forward-declared pointer (directly or through other such
//!   types) is "incomplete": such types are first merged with each other comparing no
//!   decorations of their own, the first of each class standing for the rest; only then
//!   does each remaining one get its decorations. So incomplete types that differ only
//!   by decorations are equal.
//!
//! Where it cannot follow spirv-opt: a type with more than 16 decorations (or a member
//! with more than 16) of which two share a decoration is compared after a stable sort,
//! where `std::sort` is unstable and its order is libstdc++'s; and inputs spirv-opt
//! crashes on or reads freed memory for (a type referring to an id no type defines, an
//! array length that is not a constant, an incomplete type equal to a complete one
//! once decorated) get the answer its comparison gives for well-formed input: such an
//! id is a type equal only to itself, such a length compares by id.

use super::decorations::Decorations;
use super::partition::{Graph, bisimulation};
use spirv_core::__private::opt::IdTable;
use spirv_core::__private::opt::generates_type;
use spirv_core::spv::Opcode as O;
use spirv_core::{Module, Section};
use std::collections::BTreeMap;

/// `Array::LengthInfo` cases.
const LENGTH_CONSTANT: u32 = 0;
const LENGTH_CONSTANT_WITH_SPEC_ID: u32 = 1;
const LENGTH_DEFINING_ID: u32 = 2;
/// `spv::FPEncoding::Max`, a float's encoding when it has none.
const NO_ENCODING: u32 = 0x7fff_ffff;
/// `Decoration::SpecId`.
const SPEC_ID: u32 = 1;
/// The label kind of an id that no type defines (spirv-opt would crash on it).
const MISSING: u32 = u32::MAX;

/// The equality classes of a module's types.
pub(super) struct TypeClasses {
    /// Type instructions other than `OpTypeForwardPointer`, in module order: index and
    /// result id.
    pub types: Vec<(usize, u32)>,
    /// Per entry of `types`: its class; equal classes are equal types.
    pub class: Vec<u32>,
    /// `OpTypeForwardPointer`s in module order: index, and the key spirv-opt compares
    /// them by (the class of the pointer they declare, or its id if it is not a
    /// pointer type, and the storage class).
    pub forward: Vec<(usize, (u32, u32, u32))>,
}

/// One type node: a type instruction, or an id no type defines.
struct Node {
    opcode: u32,
    /// Children ids.
    children: Vec<u32>,
    params: Vec<u32>,
    /// Whether the kind compares decorations.
    decorated: bool,
    /// Instruction index, or `None` for a missing id.
    index: Option<usize>,
}

/// The decorations part of a label: whole-type decorations and, for a struct with
/// `members` members, member decorations, each list stably sorted by decoration.
fn decoration_label(module: &Module, decorations: &[usize], members: Option<usize>) -> Vec<u32> {
    let mut whole: Vec<&[u32]> = Vec::new();
    let mut member: BTreeMap<u32, Vec<&[u32]>> = BTreeMap::new();
    for &d in decorations {
        let Some(inst) = module.instruction(d) else {
            continue;
        };
        let ops = inst.operands();
        match inst.opcode() {
            O::Decorate | O::DecorateId if ops.len() > 1 => whole.push(&ops[1..]),
            O::MemberDecorate => {
                if let (Some(n), Some(&m)) = (members, ops.get(1)) {
                    if (m as usize) < n && ops.len() > 2 {
                        member.entry(m).or_default().push(&ops[2..]);
                    }
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    let list = |out: &mut Vec<u32>, mut l: Vec<&[u32]>| {
        l.sort_by_key(|d| d[0]);
        out.push(l.len() as u32);
        for d in l {
            out.push(d.len() as u32);
            out.extend_from_slice(d);
        }
    };
    list(&mut out, whole);
    out.push(member.len() as u32);
    for (m, l) in member {
        out.push(m);
        list(&mut out, l);
    }
    out
}

/// The node of a type instruction: its children and the fields its kind compares.
fn node(decorations: &Decorations<'_>, defs: &IdTable<u32>, index: usize) -> Node {
    let module = decorations.module();
    let inst = module.instruction(index);
    let opcode = inst.map_or(O(0), |i| i.opcode());
    let ops = inst.map_or(&[][..], |i| i.operands());
    let op = |k: usize| ops.get(k).copied().unwrap_or(0);
    let rest = |k: usize| ops.get(k..).unwrap_or(&[]).to_vec();
    let mut decorated = true;
    let (children, params): (Vec<u32>, Vec<u32>) = match opcode {
        O::TypeInt => (Vec::new(), vec![op(1), u32::from(op(2) != 0)]),
        O::TypeFloat => {
            let encoding = if ops.len() > 2 { op(2) } else { NO_ENCODING };
            (Vec::new(), vec![op(1), encoding])
        }
        O::TypeVector | O::TypeMatrix => (vec![op(1)], vec![op(2)]),
        O::TypeImage => {
            let access = if ops.len() > 8 { op(8) } else { 0 };
            let params = vec![
                op(2),
                op(3),
                u32::from(op(4) == 1),
                u32::from(op(5) == 1),
                op(6),
                op(7),
                access,
            ];
            (vec![op(1)], params)
        }
        O::TypeSampledImage
        | O::TypeRuntimeArray
        | O::TypeNodePayloadArrayAMDX
        | O::TypeCooperativeVectorNV => {
            let params = if opcode == O::TypeCooperativeVectorNV {
                vec![op(2)]
            } else {
                Vec::new()
            };
            (vec![op(1)], params)
        }
        O::TypeArray => (vec![op(1)], array_length(decorations, defs, op(2))),
        O::TypeStruct | O::TypeFunction => (rest(1), Vec::new()),
        O::TypeOpaque => {
            let name = spirv_core::codec::string_operand(ops.get(1..).unwrap_or(&[]));
            let mut p = vec![name.len() as u32];
            p.extend(name.iter().map(|&b| u32::from(b)));
            (Vec::new(), p)
        }
        O::TypePointer => (vec![op(2)], vec![op(1)]),
        O::TypeUntypedPointerKHR | O::TypePipe => (Vec::new(), vec![op(1)]),
        O::TypeCooperativeMatrixNV | O::TypeCooperativeMatrixKHR | O::TypeTensorARM => {
            (vec![op(1)], rest(2))
        }
        O::TypeTensorLayoutNV | O::TypeTensorViewNV => {
            decorated = false;
            (Vec::new(), rest(1))
        }
        O::TypeGraphARM => {
            decorated = false;
            (rest(2), vec![op(1)])
        }
        // Parameterless kinds, and `OpTypeTaskSequenceINTEL` (which spirv-opt's type
        // manager does not know) by its operands.
        _ => (Vec::new(), rest(1)),
    };
    Node {
        opcode: u32::from(opcode.0),
        children,
        params,
        decorated,
        index: Some(index),
    }
}

/// An array length's `LengthInfo` words.
fn array_length(decorations: &Decorations<'_>, defs: &IdTable<u32>, length: u32) -> Vec<u32> {
    let module = decorations.module();
    let def = defs
        .get(length)
        .and_then(|&i| module.instruction(i as usize));
    let Some(def) = def.filter(|d| matches!(d.opcode(), O::Constant | O::SpecConstant)) else {
        return vec![LENGTH_DEFINING_ID, length];
    };
    let mut spec_id = None;
    if def.opcode() == O::SpecConstant {
        for d in decorations.of(length) {
            let Some(inst) = module.instruction(d) else {
                continue;
            };
            let ops = inst.operands();
            let at = if inst.opcode() == O::MemberDecorate {
                2
            } else {
                1
            };
            if ops.get(at) == Some(&SPEC_ID) {
                spec_id = ops.get(2).copied();
            }
        }
    }
    let mut words = match spec_id {
        Some(s) => vec![LENGTH_CONSTANT_WITH_SPEC_ID, s],
        None => vec![LENGTH_CONSTANT],
    };
    words.extend_from_slice(def.operands().get(2..).unwrap_or(&[]));
    words
}

/// The graph of `total` nodes whose children are `rows(v)`.
fn graph_of<'a>(total: usize, rows: &dyn Fn(usize) -> &'a [u32]) -> Graph {
    let mut starts = Vec::with_capacity(total + 1);
    let mut children = Vec::new();
    starts.push(0);
    for v in 0..total {
        children.extend_from_slice(rows(v));
        starts.push(children.len() as u32);
    }
    Graph { starts, children }
}

/// Interns labels: equal labels get equal numbers.
fn intern(labels: &[Vec<u32>]) -> Vec<u32> {
    let mut order: Vec<u32> = (0..labels.len() as u32).collect();
    order.sort_unstable_by(|&a, &b| labels[a as usize].cmp(&labels[b as usize]));
    let mut out = vec![0u32; labels.len()];
    let mut class = 0;
    for (k, &v) in order.iter().enumerate() {
        if k > 0 && labels[order[k - 1] as usize] != labels[v as usize] {
            class += 1;
        }
        out[v as usize] = class;
    }
    out
}

/// The label of `node`: its kind, child count and fields, then its decorations when
/// `with_decorations` and its kind compares them.
fn label(decorations: &Decorations<'_>, node: &Node, id: u32, with_decorations: bool) -> Vec<u32> {
    let mut l = vec![
        node.opcode,
        node.children.len() as u32,
        node.params.len() as u32,
    ];
    l.extend_from_slice(&node.params);
    if with_decorations && node.decorated && node.index.is_some() {
        let members = (node.opcode == u32::from(O::TypeStruct.0)).then_some(node.children.len());
        l.extend(decoration_label(
            decorations.module(),
            &decorations.of(id),
            members,
        ));
    } else {
        l.extend_from_slice(&[0, 0]);
    }
    l
}

/// The classes of `module`'s types, from its names and decorations.
pub(super) fn classes(decorations: &Decorations<'_>) -> TypeClasses {
    let module = decorations.module();
    let cap = module.word_len().saturating_mul(2).max(1024);
    let mut defs: IdTable<u32> = IdTable::new();
    for inst in module.section(Section::Global) {
        if let Some(id) = inst.result_id() {
            defs.insert(id.0, inst.index() as u32, cap);
        }
    }
    // Type nodes, in module order; their ids; forward pointers.
    let mut nodes: Vec<Node> = Vec::new();
    let mut ids: Vec<u32> = Vec::new();
    let mut node_of: IdTable<u32> = IdTable::new();
    let mut fps: Vec<(usize, u32, u32)> = Vec::new();
    // The loader's `id_to_incomplete_type_` keys, and which nodes are incomplete.
    let mut pending: IdTable<bool> = IdTable::new();
    let mut incomplete: Vec<bool> = Vec::new();
    for inst in module.section(Section::Global) {
        let opcode = inst.opcode();
        let ops = inst.operands();
        if opcode == O::TypeForwardPointer {
            let (target, sc) = (
                ops.first().copied().unwrap_or(0),
                ops.get(1).copied().unwrap_or(0),
            );
            fps.push((inst.index(), target, sc));
            pending.insert(target, true, cap);
            continue;
        }
        if !generates_type(opcode) {
            continue;
        }
        let Some(id) = inst.result_id() else { continue };
        let n = node(decorations, &defs, inst.index());
        let is_pending = |c: &u32| pending.get(*c).is_some_and(|&p| p);
        let refers = n.children.iter().any(is_pending);
        let is_incomplete = match opcode {
            O::TypeArray
            | O::TypeRuntimeArray
            | O::TypeNodePayloadArrayAMDX
            | O::TypeStruct
            | O::TypeFunction => refers,
            O::TypePointer => refers,
            _ => false,
        };
        if is_incomplete {
            pending.insert(id.0, true, cap);
        } else if matches!(opcode, O::TypePointer | O::TypeUntypedPointerKHR) {
            if let Some(p) = pending.get_mut(id.0) {
                *p = false;
            }
        }
        node_of.insert(id.0, nodes.len() as u32, cap);
        nodes.push(n);
        ids.push(id.0);
        incomplete.push(is_incomplete);
    }
    let types: Vec<(usize, u32)> = nodes
        .iter()
        .zip(&ids)
        .map(|(n, &id)| (n.index.unwrap_or(0), id))
        .collect();
    let count = nodes.len();
    // Children as nodes; ids no type defines become nodes of their own.
    let mut missing: BTreeMap<u32, u32> = BTreeMap::new();
    let mut child_nodes: Vec<Vec<u32>> = Vec::with_capacity(count);
    for n in &nodes {
        let row = n
            .children
            .iter()
            .map(|&c| match node_of.get(c) {
                Some(&k) => k,
                None => {
                    let next = (count + missing.len()) as u32;
                    *missing.entry(c).or_insert(next)
                }
            })
            .collect();
        child_nodes.push(row);
    }
    let total = count + missing.len();
    let mut missing_ids = vec![0u32; missing.len()];
    for (&id, &k) in &missing {
        missing_ids[k as usize - count] = id;
    }
    let missing_label = |k: usize| vec![MISSING, missing_ids[k - count]];
    // First: incomplete types compare without their own decorations.
    let mut labels: Vec<Vec<u32>> = (0..total)
        .map(|v| match nodes.get(v) {
            Some(n) => label(decorations, n, ids[v], !incomplete[v]),
            None => missing_label(v),
        })
        .collect();
    let graph = graph_of(total, &|v| {
        child_nodes.get(v).map_or(&[][..], Vec::as_slice)
    });
    let first = bisimulation(&intern(&labels), &graph);
    // The first incomplete type of each class stands for the others.
    let mut rep: Vec<u32> = (0..total as u32).collect();
    let mut first_of: BTreeMap<u32, u32> = BTreeMap::new();
    for v in 0..count {
        if incomplete[v] {
            rep[v] = *first_of.entry(first[v]).or_insert(v as u32);
        }
    }
    // Then every type as its representative is, decorations included (each label made
    // once, for the type itself or its representative).
    for v in 0..count {
        labels[v] = if rep[v] as usize == v {
            label(decorations, &nodes[v], ids[v], true)
        } else {
            Vec::new()
        };
    }
    let mut interned = intern(&labels);
    for v in 0..count {
        interned[v] = interned[rep[v] as usize];
    }
    let graph = graph_of(total, &|v| {
        child_nodes
            .get(rep[v] as usize)
            .map_or(&[][..], Vec::as_slice)
    });
    let second = bisimulation(&interned, &graph);
    let class: Vec<u32> = second[..count].to_vec();
    let forward = fps
        .into_iter()
        .map(|(index, target, sc)| {
            let key = match node_of.get(target) {
                Some(&k)
                    if matches!(
                        nodes[k as usize].opcode,
                        x if x == u32::from(O::TypePointer.0)
                            || x == u32::from(O::TypeUntypedPointerKHR.0)
                    ) =>
                {
                    (0, second[k as usize], sc)
                }
                _ => (1, target, sc),
            };
            (index, key)
        })
        .collect();
    TypeClasses {
        types,
        class,
        forward,
    }
}
