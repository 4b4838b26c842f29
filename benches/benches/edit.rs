//! `cargo bench -p spirv-bench --bench edit`: editing and rewriting every corpus binary
//! (strip debug information, move descriptor set 0 to set 5, renumber ids by first
//! mention) in MB of input per second, with `spirv_opt::structural` against rspirv's
//! `dr` (load, the same edits by hand on its `Module`, assemble), measured in the same
//! run over the modules both can do, with the ratio.
//!
//! Ours runs `--strip-debug --switch-descriptorset=0:5 --compact-ids` through
//! `passes::run_words`. Until `--switch-descriptorset` is merged it reports that it is not
//! implemented; the rebinding is then done with an `Editor` by hand between the two
//! passes, and the output says so.

use rspirv::binary::Assemble;
use rspirv::dr::{Instruction, Operand};
use rspirv::spirv::{Decoration, Op};
use spirv_bench::{median_mbps, read_modules};
use spirv_core::edit::{Bound, EditError, Editor, InstId};
use spirv_core::spv::Opcode as O;
use spirv_core::{Module, Section};
use spirv_opt::structural::{self as passes, StructuralPass};
use std::collections::HashSet;
use std::hint::black_box;

// The corpus lookup the tests use.
use spirv_tests as env;

/// `DescriptorSet`'s decoration number.
const DESCRIPTOR_SET: u32 = 34;

/// How our side rebinds the descriptor set.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Rebind {
    /// `StructuralPass::SwitchDescriptorSet`.
    Pass,
    /// By hand with an `Editor` (the pass is not implemented yet).
    Editor,
}

/// Ours: the three passes, the rebinding as `how` says.
fn ours(words: &[u32], how: Rebind) -> Result<Vec<u32>, EditError> {
    if how == Rebind::Pass {
        let list = [
            StructuralPass::StripDebug,
            StructuralPass::SwitchDescriptorSet { from: 0, to: 5 },
            StructuralPass::CompactIds,
        ];
        return Ok(passes::run_words(words, &list, None)?.0);
    }
    let module = Module::from_words(words)?;
    let (stripped, _) = passes::run(&module, &[StructuralPass::StripDebug], None)?;
    let mut editor = Editor::new(&stripped);
    for inst in stripped.section(Section::Annotation) {
        let ops = inst.operands();
        if inst.opcode() == O::Decorate && ops.get(1..) == Some(&[DESCRIPTOR_SET, 0]) {
            let mut w = inst.words().to_vec();
            w[3] = 5;
            editor.replace_words(InstId::from(inst.index()), &w)?;
        }
    }
    Ok(editor.apply(Bound::Compact)?.to_words())
}

/// The extended sets whose instructions `--strip-debug` removes.
fn is_debug_info_set(name: &str) -> bool {
    matches!(
        name,
        "DebugInfo" | "OpenCL.DebugInfo.100" | "NonSemantic.Shader.DebugInfo.100"
    )
}

/// rspirv: load, the same edits by hand on `dr::Module`, assemble.
fn rspirv_edit(words: &[u32]) -> Option<Vec<u32>> {
    let mut m = rspirv::dr::load_words(words).ok()?;
    // The imports: debug-info sets, and the other non-semantic sets.
    let (mut debug, mut non_semantic) = (HashSet::new(), HashSet::new());
    for i in &m.ext_inst_imports {
        if let (Some(id), Some(Operand::LiteralString(name))) = (i.result_id, i.operands.first()) {
            if is_debug_info_set(name) {
                debug.insert(id);
            } else if name.starts_with("NonSemantic.") {
                non_semantic.insert(id);
            }
        }
    }
    let set_of = |i: &Instruction| match (i.class.opcode, i.operands.first()) {
        (Op::ExtInst, Some(Operand::IdRef(set))) => Some(*set),
        _ => None,
    };
    // Strings a remaining non-semantic instruction uses stay.
    let mut kept = HashSet::new();
    for i in m.all_inst_iter() {
        if set_of(i).is_some_and(|s| non_semantic.contains(&s)) {
            kept.extend(i.operands.iter().filter_map(Operand::id_ref_any));
        }
    }
    m.debug_string_source.retain(|i| {
        i.class.opcode == Op::String && i.result_id.is_some_and(|id| kept.contains(&id))
    });
    m.debug_names.clear();
    m.debug_module_processed.clear();
    let is_debug = |i: &Instruction| {
        matches!(i.class.opcode, Op::Line | Op::NoLine)
            || set_of(i).is_some_and(|s| debug.contains(&s))
    };
    m.types_global_values.retain(|i| !is_debug(i));
    for f in &mut m.functions {
        for b in &mut f.blocks {
            b.instructions.retain(|i| !is_debug(i));
        }
    }
    // Descriptor set 0 to 5.
    for a in &mut m.annotations {
        if a.class.opcode == Op::Decorate
            && a.operands.get(1) == Some(&Operand::Decoration(Decoration::DescriptorSet))
            && a.operands.get(2) == Some(&Operand::LiteralBit32(0))
        {
            a.operands[2] = Operand::LiteralBit32(5);
        }
    }
    // Ids by first mention: result type, result, operands, in module order.
    let bound = m.header.as_ref()?.bound as usize;
    let mut map = vec![0u32; bound];
    let mut next = 1;
    let mut renumber = |id: &mut u32| {
        if let Some(slot) = map.get_mut(*id as usize) {
            if *slot == 0 {
                *slot = next;
                next += 1;
            }
            *id = *slot;
        }
    };
    for i in m.all_inst_iter_mut() {
        if let Some(t) = i.result_type.as_mut() {
            renumber(t);
        }
        if let Some(r) = i.result_id.as_mut() {
            renumber(r);
        }
        for o in &mut i.operands {
            if let Some(id) = o.id_ref_any_mut() {
                renumber(id);
            }
        }
    }
    m.header.as_mut()?.bound = next;
    Some(m.assemble())
}

fn main() {
    let Some(dir) = env::require_corpus("the edit bench") else {
        return;
    };
    let mods = read_modules(&dir.join("bin"));
    let runs = std::env::var("BENCH_RUNS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(7);
    let how = match mods.first().map(|m| ours(m, Rebind::Pass)) {
        Some(Err(EditError::NeedsNumberParser)) => Rebind::Editor,
        _ => Rebind::Pass,
    };
    // The modules both sides edit.
    let ours_ok: Vec<bool> = mods.iter().map(|m| ours(m, how).is_ok()).collect();
    let rspirv_ok: Vec<bool> = mods.iter().map(|m| rspirv_edit(m).is_some()).collect();
    let both: Vec<&Vec<u32>> = mods
        .iter()
        .zip(ours_ok.iter().zip(&rspirv_ok))
        .filter(|(_, (a, b))| **a && **b)
        .map(|(m, _)| m)
        .collect();
    let failed = |ok: &[bool]| ok.iter().filter(|&&o| !o).count();
    let bytes: usize = both.iter().map(|m| m.len() * 4).sum();
    let out_ours: usize = both
        .iter()
        .filter_map(|m| ours(m, how).ok())
        .map(|w| w.len() * 4)
        .sum();
    let out_rspirv: usize = both
        .iter()
        .filter_map(|m| rspirv_edit(m))
        .map(|w| w.len() * 4)
        .sum();
    let ours_mbps = median_mbps(bytes, runs, || {
        for m in &both {
            drop(black_box(ours(m, how)));
        }
    });
    let rspirv_mbps = median_mbps(bytes, runs, || {
        for m in &both {
            black_box(rspirv_edit(m));
        }
    });
    println!(
        "edit and rewrite (strip debug, descriptor set 0 -> 5, ids by first mention) over {} of {} corpus modules \
         (ours fails on {}, rspirv on {}), {:.2} MB in, median of {runs}:",
        both.len(),
        mods.len(),
        failed(&ours_ok),
        failed(&rspirv_ok),
        bytes as f64 / 1e6
    );
    let rebind = match how {
        Rebind::Pass => "passes::run_words(strip-debug, switch-descriptorset, compact-ids)",
        Rebind::Editor => {
            "strip_debug + Editor rebind + apply(Compact) [switch-descriptorset not implemented]"
        }
    };
    println!("{:<44}{:>10}{:>12}", "", "MB/s", "out MB");
    println!(
        "{:<44}{ours_mbps:>10.1}{:>12.2}   {rebind}",
        "spirv_core::edit",
        out_ours as f64 / 1e6
    );
    println!(
        "{:<44}{rspirv_mbps:>10.1}{:>12.2}",
        "rspirv dr load + edits by hand + assemble",
        out_rspirv as f64 / 1e6
    );
    println!("{:<44}{:>9.2}x rspirv", "ratio", ours_mbps / rspirv_mbps);
}
