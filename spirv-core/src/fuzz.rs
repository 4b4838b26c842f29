//! Fuzz bodies: library functions that must never panic or loop forever on any input.
//!
//! `cargo test` runs them over a fixed number of mutated corpus inputs
//! (`tests/tests/robustness/fuzz.rs`). To run them longer, raise `FUZZ_CASES`
//! (`FUZZ_CASES=1000000 cargo test --release -p spirv-tests --test robustness fuzz::`), or call them
//! from a cargo-fuzz target (`fuzz_target!(|d: &[u8]| spirv_core::fuzz::module(d));`)
//! on a nightly toolchain.
//!
//! Each body is `#[inline]` so that it is compiled in the crate that calls it (a test or
//! a fuzz target), not in every build of spirv-core, where nothing calls it.

use crate::module::{Module, ReadOptions};
use crate::types::Id;

/// Reads `data` in one typed pass, then as a module in lenient and strict mode; when it
/// reads, checks the byte round trip and decodes, re-encodes and re-reads every
/// instruction.
#[inline]
pub fn module(data: &[u8]) {
    if let Ok((words, _)) = crate::binary::words_from_bytes(data) {
        if let Ok((_, insts)) = crate::stream::read(&words) {
            for inst in insts {
                let _ = inst;
            }
        }
    }
    let Ok(m) = Module::from_bytes(data) else {
        return;
    };
    let words = m.to_words();
    assert_eq!(
        words.len() * 4,
        data.len(),
        "a module that reads must write back to the same length"
    );
    let _ = Module::read(
        &words,
        &ReadOptions {
            strict: true,
            ..ReadOptions::default()
        },
    );
    for inst in m.instructions() {
        if let Ok(t) = inst.decode() {
            let mut w = crate::__private::Vec::new();
            assert!(
                t.encode(&mut w).is_ok(),
                "an instruction that decodes encodes"
            );
            assert_eq!(w, inst.words(), "typed re-encode of {:?}", inst.opcode());
            // The typed visitor finds the ids the module's walker finds.
            let (mut typed, mut walked) =
                (crate::__private::Vec::new(), crate::__private::Vec::new());
            let a = t.visit_ids(m.ids(), &mut |id| typed.push(id));
            let b = inst.visit_ids(|_, id| walked.push(id));
            assert_eq!(
                a.is_ok(),
                b.is_ok(),
                "visitors agree on {:?}",
                inst.opcode()
            );
            if a.is_ok() {
                assert_eq!(typed, walked, "ids of {:?}", inst.opcode());
            }
        } else {
            let _ = inst.visit_ids(|_, _| {});
        }
    }
    let _ = m.requirements();
    for f in m.functions() {
        for b in f.blocks() {
            let _ = b.label();
        }
    }
    analyses(&m);
    let mut remapped = m.clone();
    let unchanged = remapped.to_words();
    if remapped.remap_ids(|id| Id(id.0.wrapping_add(1))).is_err() {
        assert_eq!(
            remapped.to_words(),
            unchanged,
            "a failed remap changes nothing"
        );
    }
}

/// Builds every analysis of a module and asks each what it knows.
#[inline]
fn analyses(m: &Module) {
    use crate::analysis::{CallGraph, Cfg, TypeTable};
    let types = TypeTable::new(m);
    for (id, _) in types.iter() {
        let _ = types.arrays(id).count();
    }
    let g = CallGraph::new(m);
    let used = g.static_use();
    let _ = (0..used.len())
        .map(|i| used.globals(i).len())
        .sum::<usize>();
    let _ = g.reached(g.roots().iter().filter_map(|r| r.index));
    for f in g.functions() {
        let cfg = Cfg::new(m, f.instructions.clone());
        let _ = cfg.structured_order();
        let preds = cfg.predecessors();
        for i in 0..cfg.len() {
            let _ = (preds.of(i).count(), cfg.instructions(i), cfg.words(i));
        }
    }
}

#[cfg(feature = "reflect")]
/// Reads `data` as a module (fully, and checking only the globals) and reflects it:
/// every list, every struct's declared size, the entry points' static use.
#[inline]
pub fn reflect(data: &[u8]) {
    let Ok((words, _)) = crate::binary::words_from_bytes(data) else {
        return;
    };
    let globals_only = ReadOptions {
        globals_only: true,
        ..ReadOptions::default()
    };
    for m in [
        Module::read(&words, &ReadOptions::default()),
        Module::read(&words, &globals_only),
    ]
    .into_iter()
    .flatten()
    {
        let r = crate::reflect::Reflection::new(&m);
        for (id, t) in r.types() {
            if matches!(t, crate::reflect::Type::Struct { .. }) {
                let _ = r.declared_size(id);
            }
        }
        for e in r.entry_points() {
            let _ = r.execution_modes(e);
        }
        // All at once, and (the same answer) one entry point at a time for the first.
        let _ = r.static_use();
        if let Some(e) = r.entry_points().first() {
            let _ = r.used_variables(e);
        }
        for res in r.resources() {
            let _ = r.array_dims(res.type_id).count();
        }
        let _ = (
            r.resources(),
            r.push_constants(),
            r.inputs(),
            r.outputs(),
            r.spec_constants(),
        );
    }
}

#[cfg(feature = "validate")]
/// Validates `words` under a few environments, first fault and every fault: the first
/// fault of [`validate_all`](crate::validate::validate_all) is [`validate`]'s, and
/// every fault's message renders.
///
/// [`validate`]: crate::validate::validate
#[inline]
pub fn validate(words: &[u32]) {
    use crate::TargetEnv;
    use crate::validate::{Options, validate, validate_all};
    for env in [
        TargetEnv::Universal1_6,
        TargetEnv::Vulkan1_0,
        TargetEnv::Vulkan1_2,
        TargetEnv::OpenCl2_0,
    ] {
        let options = Options {
            target_env: env,
            ..Options::default()
        };
        let first = validate(words, &options).err();
        let mut all = crate::__private::Vec::new();
        validate_all(words, &options, &mut |e| all.push(e));
        assert_eq!(
            first.as_ref(),
            all.first(),
            "validate is validate_all's first"
        );
        for e in &all {
            let _ = e.message_with(&|_| None);
            let _ = e.line();
        }
    }
}
