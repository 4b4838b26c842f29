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

/// Where the writer finds the void type's id when it writes a `DebugNoLine`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum VoidType {
    /// This id (0 for none).
    Id(u32),
    /// The first `OpTypeVoid` (the one spirv-opt's type manager records for the void
    /// type), or 0: for writing an IR no type manager was built for.
    First,
    /// None is known: as spirv-opt's type manager does when the writer first asks,
    /// an id is taken then and an `OpTypeVoid` added after the types (not written).
    Make,
}

/// Writes `ir` (`ToBinary`): with `skip_nop`, `OpNop`s are left out; `void_type` says
/// where the void type's id comes from.
pub fn to_words(ir: &mut Ir, skip_nop: bool, void_type: VoidType) -> Vec<u32> {
    to_words_into(ir, skip_nop, void_type, Vec::new())
}

/// [`to_words`] into `out`, cleared first (its capacity kept: a buffer already paged
/// in spares the writer fresh memory).
pub fn to_words_into(
    ir: &mut Ir,
    skip_nop: bool,
    void_type: VoidType,
    mut out: Vec<u32>,
) -> Vec<u32> {
    let h = ir.header;
    out.clear();
    // Room for the instructions' words, at least: most modules then need no growth.
    out.reserve(5 + 4 * ir.nodes.len());
    out.extend_from_slice(&[h.magic, h.version, h.generator, h.bound, h.schema]);
    let walked = walk(ir, skip_nop, void_type, &mut out, None);
    finish(ir, walked);
    out[3] = ir.header.bound;
    out
}

/// What writing a module makes, known before a word of it is written: its header's
/// bound (the writer takes ids as it goes) and its length in words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Plan {
    /// The header's bound.
    pub bound: u32,
    /// The module's length in words, header included.
    pub words: usize,
}

/// Whether the writer takes no id and writes no scope in `ir`: no debug-info set's
/// global instructions (the scopes' set) and no `NonSemantic.Shader.DebugInfo.100`
/// import (its `DebugNoLine`s). Most modules; for them the writer adds nothing but the
/// `OpNoLine` that ends a line.
fn plain(ir: &Ir) -> bool {
    ir.section_first(Section::ExtInstDebugInfo).is_none()
        && ir.ext_inst_import_id("NonSemantic.Shader.DebugInfo.100") == 0
}

/// The [`Plan`] of writing `ir` so. A plain module (see [`plain`]) without debug lines
/// writes its instructions as they are, so their lengths are summed; any other is
/// written once without keeping the words.
pub(crate) fn plan(ir: &Ir, skip_nop: bool, void_type: VoidType) -> Plan {
    if plain(ir) && ir.line_lists.is_empty() && ir.trailing.is_empty() {
        let mut words = 5;
        let mut lines = false;
        ir.each_inst_written(|ir, i| {
            let d = ir.data(i);
            let opcode = d.opcode();
            lines |= matches!(opcode, O::Line | O::NoLine);
            if !(skip_nop && opcode == O::Nop && d.is_nop()) {
                words += d.word_count();
            }
        });
        if !lines {
            return Plan {
                bound: ir.header.bound,
                words,
            };
        }
    }
    let mut words = 5;
    let mut out = Vec::with_capacity(1 << 10);
    let walked = walk(
        ir,
        skip_nop,
        void_type,
        &mut out,
        Some((1 << 9, &mut |out: &mut Vec<u32>| {
            words += out.len();
            out.clear();
        })),
    );
    words += out.len();
    Plan {
        bound: walked.bound,
        words,
    }
}

/// The words a streaming write hands over at a time.
const CHUNK: usize = 1 << 14;

/// Writes `ir` as [`to_words`] does, as little-endian bytes to `sink` a chunk at a
/// time (the module is never all in memory as words), `plan` being its [`plan`].
///
/// # Errors
/// The first of `sink`'s; what follows it is not written.
pub(crate) fn write_stream(
    ir: &mut Ir,
    skip_nop: bool,
    void_type: VoidType,
    plan: Plan,
    sink: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let h = ir.header;
    let mut out = Vec::with_capacity(CHUNK + 64);
    out.extend_from_slice(&[h.magic, h.version, h.generator, plan.bound, h.schema]);
    let mut bytes = vec![0u8; 4 * (CHUNK + 64)];
    let mut failed = None;
    let mut drain = |out: &mut Vec<u32>| {
        if failed.is_none() {
            let n = 4 * out.len();
            if bytes.len() < n {
                bytes.resize(n, 0);
            }
            for (b, w) in bytes.chunks_exact_mut(4).zip(out.iter()) {
                b.copy_from_slice(&w.to_le_bytes());
            }
            if let Err(e) = sink.write_all(&bytes[..n]) {
                failed = Some(e);
            }
        }
        out.clear();
    };
    let walked = walk(ir, skip_nop, void_type, &mut out, Some((CHUNK, &mut drain)));
    drain(&mut out);
    debug_assert_eq!(walked.bound, plan.bound, "the plan's bound");
    finish(ir, walked);
    failed.map_or(Ok(()), Err)
}

/// What a walk of the writer leaves to do: the bound it reached and the void type it
/// made.
struct Walked {
    bound: u32,
    made_void: Option<u32>,
}

/// What a walk hands its words to as it goes (see [`walk`]).
type Drain<'a> = &'a mut dyn FnMut(&mut Vec<u32>);

/// Walks `ir` in the writer's order, appending the words to `out`; with `drain`,
/// hands `out` to it whenever it holds at least so many words. Reads `ir` only: the
/// ids taken come from a copy of the bound ([`finish`] sets it).
fn walk(
    ir: &Ir,
    skip_nop: bool,
    void_type: VoidType,
    out: &mut Vec<u32>,
    drain: Option<(usize, Drain<'_>)>,
) -> Walked {
    let sets = Sets {
        shader: ir.ext_inst_import_id("NonSemantic.Shader.DebugInfo.100"),
        opencl: ir.ext_inst_import_id("OpenCL.DebugInfo.100"),
    };
    let mut w = Writer {
        sets,
        skip_nop,
        debug_first: ir.section_first(Section::ExtInstDebugInfo),
        void_type,
        made_void: None,
        bound: ir.header.bound,
        max_id_bound: ir.max_id_bound,
        last_scope: super::DebugScope::default(),
        last_line: None,
        between_merge_and_branch: false,
        between_label_and_phi_var: false,
    };
    let plain = plain(ir);
    let (at, mut drain) = match drain {
        Some((at, drain)) => (at, Some(drain)),
        None => (usize::MAX, None),
    };
    ir.each_inst_written(|ir, i| {
        let d = ir.data(i);
        let opcode = d.opcode();
        // In a plain module, outside a line, an instruction other than a line is
        // written as it is: what `Writer::write` does then, without its checks.
        if plain && w.last_line.is_none() && !matches!(opcode, O::Line | O::NoLine) {
            if !(skip_nop && opcode == O::Nop && d.is_nop()) {
                d.append_encoded(out);
            }
            w.between_merge_and_branch = matches!(opcode, O::LoopMerge | O::SelectionMerge);
        } else {
            w.write(ir, i, out);
        }
        if out.len() >= at {
            if let Some(drain) = drain.as_mut() {
                drain(out);
            }
        }
    });
    Walked {
        bound: w.bound,
        made_void: w.made_void,
    }
}

/// After a walk: the header's bound is the one the writer reached, and a void type it
/// made is added after the types.
fn finish(ir: &mut Ir, walked: Walked) {
    ir.header.bound = walked.bound;
    if let Some(id) = walked.made_void {
        let v = ir.create(super::InstData::new(O::TypeVoid, 0, id, &[]));
        ir.push_global(Section::TypesValues, v);
    }
}

/// The writer's state along the module.
struct Writer {
    sets: Sets,
    skip_nop: bool,
    debug_first: Option<Inst>,
    void_type: VoidType,
    /// The id of the void type made for a `DebugNoLine`, to add after the walk.
    made_void: Option<u32>,
    /// The header's bound as ids are taken.
    bound: u32,
    max_id_bound: u32,
    last_scope: super::DebugScope,
    last_line: Option<Inst>,
    between_merge_and_branch: bool,
    between_label_and_phi_var: bool,
}

impl Writer {
    /// `TakeNextId` on the writer's copy of the bound (0 once it reaches the limit).
    fn take_id(&mut self) -> u32 {
        if self.bound >= self.max_id_bound {
            return 0;
        }
        self.bound += 1;
        self.bound - 1
    }

    /// The void type's id, made the first time if none is known.
    fn void_id(&mut self, ir: &Ir) -> u32 {
        match self.void_type {
            VoidType::Id(id) => id,
            VoidType::First => first_void(ir),
            VoidType::Make => {
                if self.made_void.is_none() && self.bound < self.max_id_bound {
                    self.made_void = Some(self.take_id());
                }
                self.made_void.unwrap_or(0)
            }
        }
    }

    /// Writes instruction `i` (a line, or an instruction after its lines), with the
    /// `OpNoLine` or scope it needs first.
    fn write(&mut self, ir: &Ir, i: Inst, out: &mut Vec<u32>) {
        let opcode = ir.opcode(i);
        let is_line = self.sets.is_line(ir, i);
        let is_no_line = self.sets.is_no_line(ir, i);
        if self.between_merge_and_branch && (is_line || is_no_line) {
            return;
        }
        if let Some(last) = self.last_line {
            if is_line {
                if same_line(ir, last, i) {
                    return;
                }
            } else if !is_no_line && ir.lines(i).is_empty() {
                // The line in effect ends here.
                if self.sets.shader != 0 {
                    let ty = self.void_id(ir);
                    let id = self.take_id();
                    out.extend_from_slice(&[
                        (5 << 16) | u32::from(O::ExtInst.0),
                        ty,
                        id,
                        self.sets.shader,
                        104,
                    ]);
                } else {
                    out.push((1 << 16) | u32::from(O::NoLine.0));
                }
                self.last_line = None;
            }
        }
        if opcode == O::Label {
            self.between_label_and_phi_var = true;
        } else if !matches!(opcode, O::Variable | O::Phi | O::Line | O::NoLine) {
            self.between_label_and_phi_var = false;
        }
        let d = ir.data(i);
        if !(self.skip_nop && d.is_nop()) {
            let scope = d.scope();
            if scope != self.last_scope && !self.between_merge_and_branch {
                // Scopes go after the phis for NonSemantic.Shader.DebugInfo.100.
                if !self.between_label_and_phi_var || self.sets.opencl != 0 {
                    if let Some(first) = self.debug_first {
                        let ty = ir.type_id(first);
                        let set = ir.data(first).word(2);
                        let id = self.take_id();
                        write_scope(out, scope, ty, id, set);
                    }
                }
                self.last_scope = scope;
            }
            out.push(((d.word_count() as u32) << 16) | u32::from(d.opcode().0));
            out.extend_from_slice(d.words());
        }
        self.between_merge_and_branch = false;
        if is_block_terminator(opcode) || is_no_line {
            self.last_line = None;
        } else if matches!(opcode, O::LoopMerge | O::SelectionMerge) {
            self.between_merge_and_branch = true;
            self.last_line = None;
        } else if is_line {
            self.last_line = Some(i);
        }
    }
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

/// The first `OpTypeVoid`'s id, or 0 ([`VoidType::First`]).
fn first_void(ir: &Ir) -> u32 {
    ir.section(Section::TypesValues)
        .find(|&i| ir.opcode(i) == O::TypeVoid)
        .map_or(0, |i| ir.result_id(i))
}
