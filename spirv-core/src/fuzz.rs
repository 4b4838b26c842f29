//! Fuzz bodies: library functions that must never panic or loop forever on any input.
//!
//! `cargo test` runs them over a fixed number of mutated corpus inputs
//! (`tests/tests/fuzz.rs`). To run them longer, raise `FUZZ_CASES`
//! (`FUZZ_CASES=1000000 cargo test --release -p spirv-tests --test fuzz`), or call them
//! from a cargo-fuzz target (`fuzz_target!(|d: &[u8]| spirv_core::fuzz::module(d));`)
//! on a nightly toolchain.

use crate::module::{Module, ReadOptions};
use crate::types::Id;

/// Reads `data` in one typed pass, then as a module in lenient and strict mode; when it
/// reads, checks the byte round trip and decodes, re-encodes and re-reads every
/// instruction.
pub fn module(data: &[u8]) {
    if let Ok((words, _)) = crate::binary::words_from_bytes(data) {
        if let Ok((_, insts)) = crate::stream::typed(&words) {
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
        let all = validate_all(words, &options);
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

#[cfg(feature = "edit")]
/// Runs every pass spirv-opt has here (one at a time, then sequences) on `words` read
/// as a module. A pass may refuse a module with an error, never panic; what it writes
/// reads back as a module, its bound above every id it uses; `run_to_words`, where it
/// succeeds too, gives the same words; and the streaming path of `run_words`, where it
/// takes a list, gives what the general path gives.
pub fn passes(words: &[u32]) {
    use crate::edit::passes::{Pass, run, run_streamed, run_to_words};
    let switch = |from, to| Pass::SwitchDescriptorSet { from, to };
    // The streaming path gives what the general one gives, or declines.
    let streamed: [&[Pass]; 6] = [
        &[Pass::StripDebug, switch(0, 1), Pass::CompactIds],
        &[Pass::StripDebug],
        &[Pass::CompactIds],
        &[switch(0, 0), Pass::CompactIds],
        &[Pass::StripDebug, switch(1, 0)],
        &[],
    ];
    let read = Module::from_words(words);
    for list in streamed {
        let Some(fast) = run_streamed(words, list) else {
            continue;
        };
        let general = read
            .as_ref()
            .map_err(|e| alloc::format!("{e}"))
            .and_then(|m| run_to_words(m.clone(), list, None).map_err(|e| alloc::format!("{e}")));
        assert!(
            general.as_ref() == Ok(&fast),
            "{list:?}: the stream gives {} words (changed {}), the general path {:?}",
            fast.0.len(),
            fast.1,
            general.map(|(w, c)| (w.len(), c))
        );
    }
    let Ok(m) = read else {
        return;
    };
    let one = |p: Pass| alloc::vec![p];
    let mut lists: crate::__private::Vec<crate::__private::Vec<Pass>> = [
        Pass::StripDebug,
        Pass::StripNonSemantic,
        Pass::CompactIds,
        Pass::RemoveUnusedInterfaceVariables,
        Pass::EliminateDeadConst,
        Pass::EliminateDeadFunctions,
        Pass::FreezeSpecConst,
        Pass::UnifyConst,
        Pass::RemoveDuplicates,
        Pass::TrimCapabilities,
        Pass::SwitchDescriptorSet { from: 0, to: 1 },
    ]
    .into_iter()
    .map(one)
    .collect();
    lists.push(alloc::vec![Pass::StripDebug, Pass::CompactIds]);
    lists.push(alloc::vec![
        Pass::EliminateDeadFunctions,
        Pass::UnifyConst,
        Pass::EliminateDeadConst,
        Pass::CompactIds,
    ]);
    lists.push(alloc::vec![
        Pass::CompactIds,
        Pass::StripDebug,
        Pass::SwitchDescriptorSet { from: 0, to: 1 },
    ]);
    for list in &lists {
        let words = run_to_words(m.clone(), list, None);
        if let Ok((out, _)) = run(&m, list) {
            let w = out.to_words();
            if let Ok((words, _)) = &words {
                assert!(*words == w, "{list:?}: run_to_words differs from run");
            }
            let back = Module::from_words(&w);
            assert!(
                back.is_ok(),
                "{list:?} wrote a module that does not read: {back:?}"
            );
            if let Ok(max) = out.max_id() {
                assert!(
                    max < out.header().bound,
                    "{list:?}: the bound is below an id"
                );
            }
        }
    }
}
