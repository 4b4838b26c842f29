//! Writing the IR as spirv-opt writes its `Module` (`Module::ToBinary` in
//! `source/opt/module.cpp`): sections in its order (the debug-info sets' global
//! instructions after the types and values, graph entry points after the functions),
//! each instruction's lines before it except a line equal to the line in effect and
//! lines between a merge instruction and its branch, an `OpNoLine` (or `DebugNoLine`,
//! which takes a fresh id) where a line ends, a `DebugScope` or `DebugNoScope` (each
//! with a fresh id) where the scope changes (not between a label and its phis and
//! variables, for `NonSemantic.Shader.DebugInfo.100`), and `OpNop`s left out. The
//! header's bound is the one after those ids were taken.

use super::{Inst, Ir, Section};
use spirv_core::__private::opt::is_block_terminator;
use spirv_core::spv::Opcode as O;

/// The ids the writer needs of the module, as spirv-opt's feature manager has them.
struct Sets {
    /// The first import of `NonSemantic.Shader.DebugInfo.100`, or 0.
    shader: u32,
    /// The first import of `OpenCL.DebugInfo.100`, or 0.
    opencl: u32,
}

impl Sets {
    fn shader_number(&self, ir: &Ir, i: Inst) -> Option<u32> {
        let d = ir.data(i);
        (self.shader != 0 && d.opcode() == O::ExtInst && d.in_word(0) == self.shader)
            .then(|| d.in_word(1))
    }

    fn is_line(&self, ir: &Ir, i: Inst) -> bool {
        ir.opcode(i) == O::Line || self.shader_number(ir, i) == Some(103)
    }

    fn is_no_line(&self, ir: &Ir, i: Inst) -> bool {
        ir.opcode(i) == O::NoLine || self.shader_number(ir, i) == Some(104)
    }
}

/// Writes `ir` (`ToBinary`): with `skip_nop`, `OpNop`s are left out. `void_type` gives
/// the id of the void type when a `DebugNoLine` is written (spirv-opt asks its type
/// manager, which makes one if there is none).
pub fn to_words(
    ir: &mut Ir,
    skip_nop: bool,
    void_type: &mut dyn FnMut(&mut Ir) -> u32,
) -> Vec<u32> {
    let sets = Sets {
        shader: ir.ext_inst_import_id("NonSemantic.Shader.DebugInfo.100"),
        opencl: ir.ext_inst_import_id("OpenCL.DebugInfo.100"),
    };
    // The order, with the lines, first: writing takes ids, which needs `ir` mutably.
    let mut order: Vec<Inst> = Vec::with_capacity(ir.nodes.len());
    let mut size = 5usize;
    ir.for_each_inst_written(&mut |ir, i| {
        order.push(i);
        size += ir.data(i).word_count();
    });
    // The instructions' words plus room for the lines and scopes the writer adds: one
    // allocation, no copy on growth, for most modules.
    let h = ir.header;
    let mut out: Vec<u32> = Vec::with_capacity(size + size / 16);
    out.extend_from_slice(&[h.magic, h.version, h.generator, h.bound, h.schema]);
    let mut last_scope = super::DebugScope::default();
    let mut last_line: Option<Inst> = None;
    let mut between_merge_and_branch = false;
    let mut between_label_and_phi_var = false;
    let debug_first = ir.section_first(Section::ExtInstDebugInfo);
    for i in order {
        let opcode = ir.opcode(i);
        let is_line = sets.is_line(ir, i);
        let is_no_line = sets.is_no_line(ir, i);
        if between_merge_and_branch && (is_line || is_no_line) {
            continue;
        }
        if let Some(last) = last_line {
            if is_line {
                if same_line(ir, last, i) {
                    continue;
                }
            } else if !is_no_line && ir.lines(i).is_empty() {
                // The line in effect ends here.
                if sets.shader != 0 {
                    let ty = void_type(ir);
                    let id = ir.take_next_id().unwrap_or(0);
                    out.extend_from_slice(&[
                        (5 << 16) | u32::from(O::ExtInst.0),
                        ty,
                        id,
                        sets.shader,
                        104,
                    ]);
                } else {
                    out.push((1 << 16) | u32::from(O::NoLine.0));
                }
                last_line = None;
            }
        }
        if opcode == O::Label {
            between_label_and_phi_var = true;
        } else if !matches!(opcode, O::Variable | O::Phi | O::Line | O::NoLine) {
            between_label_and_phi_var = false;
        }
        let d = ir.data(i);
        if !(skip_nop && d.is_nop()) {
            let scope = d.scope;
            if scope != last_scope && !between_merge_and_branch {
                // Scopes go after the phis for NonSemantic.Shader.DebugInfo.100.
                if !between_label_and_phi_var || sets.opencl != 0 {
                    if let Some(first) = debug_first {
                        let ty = ir.type_id(first);
                        let set = ir.data(first).word(2);
                        let id = ir.take_next_id().unwrap_or(0);
                        write_scope(&mut out, scope, ty, id, set);
                    }
                }
                last_scope = scope;
            }
            let d = ir.data(i);
            out.push(((d.word_count() as u32) << 16) | u32::from(d.opcode().0));
            out.extend_from_slice(d.words());
        }
        between_merge_and_branch = false;
        if is_block_terminator(opcode) || is_no_line {
            last_line = None;
        } else if matches!(opcode, O::LoopMerge | O::SelectionMerge) {
            between_merge_and_branch = true;
            last_line = None;
        } else if is_line {
            last_line = Some(i);
        }
    }
    out[3] = ir.header.bound;
    out
}

/// Whether line `i` says what `last`, in effect, says: each in-operand's first word of
/// `last` against `i`'s in-operand words, as spirv-opt compares them.
fn same_line(ir: &Ir, last: Inst, i: Inst) -> bool {
    let (a, b) = (ir.data(last), ir.data(i));
    let mut k = 0;
    let mut same = true;
    a.for_each_operand(|_, kind, w| {
        if !same || matches!(kind, super::Kind::ResultId | super::Kind::TypeId) {
            return;
        }
        same = w.first().copied() == Some(b.in_word(k));
        k += 1;
    });
    same
}

/// `DebugScope::ToBinary`.
fn write_scope(out: &mut Vec<u32>, scope: super::DebugScope, ty: u32, id: u32, set: u32) {
    let op = u32::from(O::ExtInst.0);
    if scope.lexical_scope == 0 {
        out.extend_from_slice(&[(5 << 16) | op, ty, id, set, 24]);
    } else if scope.inlined_at == 0 {
        out.extend_from_slice(&[(6 << 16) | op, ty, id, set, 23, scope.lexical_scope]);
    } else {
        out.extend_from_slice(&[
            (7 << 16) | op,
            ty,
            id,
            set,
            23,
            scope.lexical_scope,
            scope.inlined_at,
        ]);
    }
}

/// The void type's id as the writer finds it when no type manager is built: the first
/// `OpTypeVoid` (the one spirv-opt's type manager records for the void type).
pub fn first_void(ir: &mut Ir) -> u32 {
    ir.section(Section::TypesValues)
        .find(|&i| ir.opcode(i) == O::TypeVoid)
        .map_or(0, |i| ir.result_id(i))
}
