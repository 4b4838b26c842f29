//! Fuzz bodies: library functions a fuzzer (or `cargo test`, for a fixed number of
//! iterations) calls with arbitrary input. Each may refuse its input with an error and
//! must never panic, hang, or give output that does not read back.

use spirv_core::Module;

/// Runs every pass spirv-opt has here (one at a time, then sequences) on `words` read
/// as a module. A pass may refuse a module with an error, never panic; what it writes
/// reads back as a module, its bound above every id it uses; `run_to_words`, where it
/// succeeds too, gives the same words; and the streaming path of `run_words`, where it
/// takes a list, gives what the general path gives.
pub fn passes(words: &[u32]) {
    use crate::structural::{StructuralPass, run, run_streamed, run_to_words};
    let switch = |from, to| StructuralPass::SwitchDescriptorSet { from, to };
    // The streaming path gives what the general one gives, or declines.
    let streamed: [&[StructuralPass]; 6] = [
        &[
            StructuralPass::StripDebug,
            switch(0, 1),
            StructuralPass::CompactIds,
        ],
        &[StructuralPass::StripDebug],
        &[StructuralPass::CompactIds],
        &[switch(0, 0), StructuralPass::CompactIds],
        &[StructuralPass::StripDebug, switch(1, 0)],
        &[],
    ];
    let read = Module::from_words(words);
    for list in streamed {
        let Some(fast) = run_streamed(words, list) else {
            continue;
        };
        let general = read
            .as_ref()
            .map_err(|e| format!("{e}"))
            .and_then(|m| run_to_words(m.clone(), list, None).map_err(|e| format!("{e}")));
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
    let one = |p: StructuralPass| vec![p];
    let mut lists: Vec<Vec<StructuralPass>> = [
        StructuralPass::StripDebug,
        StructuralPass::StripNonSemantic,
        StructuralPass::CompactIds,
        StructuralPass::RemoveUnusedInterfaceVariables,
        StructuralPass::EliminateDeadConst,
        StructuralPass::EliminateDeadFunctions,
        StructuralPass::FreezeSpecConst,
        StructuralPass::UnifyConst,
        StructuralPass::RemoveDuplicates,
        StructuralPass::TrimCapabilities,
        StructuralPass::SwitchDescriptorSet { from: 0, to: 1 },
    ]
    .into_iter()
    .map(one)
    .collect();
    lists.push(vec![StructuralPass::StripDebug, StructuralPass::CompactIds]);
    lists.push(vec![
        StructuralPass::EliminateDeadFunctions,
        StructuralPass::UnifyConst,
        StructuralPass::EliminateDeadConst,
        StructuralPass::CompactIds,
    ]);
    lists.push(vec![
        StructuralPass::CompactIds,
        StructuralPass::StripDebug,
        StructuralPass::SwitchDescriptorSet { from: 0, to: 1 },
    ]);
    for list in &lists {
        let words = run_to_words(m.clone(), list, None);
        if let Ok((out, _)) = run(&m, list, None) {
            let w = out.to_words();
            if let Ok((words, _)) = &words {
                assert!(*words == w, "{list:?}: run_to_words differs from run");
            }
            let back = Module::from_words(&w);
            assert!(
                back.is_ok(),
                "{list:?} wrote a module that does not read: {back:?}"
            );
            if let Ok(max) = spirv_core::__private::opt::max_id(&out) {
                assert!(
                    max < out.header().bound,
                    "{list:?}: the bound is below an id"
                );
            }
        }
    }
}

/// Loads `words` into the optimizer IR and runs each pass on it alone, then all of them
/// in order: a module may be refused, never cause a panic; what the IR writes reads
/// back as a module whose bound is above every id.
pub fn ir_passes(words: &[u32]) {
    let Ok(ir) = crate::ir::Ir::from_words(words) else {
        return;
    };
    // The output is checked only where the input's ids are below its own bound: what
    // spirv-opt writes unchanged keeps the input's bound, and a pass that takes fresh
    // ids from a bound below ids in use defines some of them twice, as spirv-opt does
    // (such an input is not valid SPIR-V; the passes must only not panic on it). So is
    // a result id 0, which the lenient reader keeps and an inlined copy defines twice.
    let sound = sound(words);
    let check = |w: &[u32], what: &str| {
        if !sound {
            return;
        }
        let back = Module::from_words(w);
        assert!(
            back.is_ok(),
            "{what}: the IR wrote a module that does not read: {back:?}"
        );
        if let Ok(m) = back {
            if let Ok(max) = spirv_core::__private::opt::max_id(&m) {
                assert!(max < m.header().bound, "{what}: the bound is below an id");
            }
        }
    };
    let mut plain = ir.clone();
    check(&plain.to_words(), "(round trip)");
    let flags = crate::registry::flags(crate::registry::RunsOn::Ir);
    let mut all = Vec::new();
    for flag in &flags {
        let Ok(passes) = crate::Pass::from_flag(&format!("--{flag}"), &Default::default()) else {
            continue;
        };
        all.extend(passes.iter().cloned());
        let mut cx = crate::Context::new(ir.clone());
        let mut ok = true;
        for p in &passes {
            if let crate::pass::Run::Ir(pass) = &p.run {
                ok &= crate::run_ir_pass(pass.as_ref(), &mut cx).is_ok();
            }
        }
        if ok {
            check(&cx.to_words(), flag);
        }
    }
    // Loops with the Unroll control are rare in mutated modules: the SSA rewrite and
    // --loop-unroll also run on a copy whose every OpLoopMerge asks for unrolling.
    if let Some(unroll) =
        with_unroll_control(words).and_then(|w| crate::ir::Ir::from_words(&w).ok())
    {
        let mut cx = crate::Context::new(unroll);
        let mut ok = true;
        for flag in ["--eliminate-local-multi-store", "--loop-unroll"] {
            let Ok(passes) = crate::Pass::from_flag(flag, &Default::default()) else {
                continue;
            };
            for p in &passes {
                if let crate::pass::Run::Ir(pass) = &p.run {
                    ok &= crate::run_ir_pass(pass.as_ref(), &mut cx).is_ok();
                }
            }
        }
        if ok {
            check(&cx.to_words(), "(Unroll control) loop-unroll");
        }
    }
    let mut cx = crate::Context::new(ir);
    for p in &all {
        if let crate::pass::Run::Ir(pass) = &p.run {
            if crate::run_ir_pass(pass.as_ref(), &mut cx).is_err() {
                return;
            }
        }
    }
    check(&cx.to_words(), "(all passes)");
}

/// Runs each preset (`-O`, `-Os`, `--legalize-hlsl`) on `words`, once after validation
/// and once with validation skipped, so that modules the validator would refuse reach
/// the passes too. A preset may refuse a module (a validator fault, a pass error, or a
/// pass not implemented yet), never panic; what it writes reads back as a module whose
/// bound is above every id, where the input's ids were below its own bound.
pub fn presets(words: &[u32]) {
    let sound = sound(words);
    for preset in ["-O", "-Os", "--legalize-hlsl"] {
        for skip in [false, true] {
            let mut opt = crate::Optimizer::new();
            let options = crate::PassOptions {
                preserve_interface: true,
            };
            opt.pass_options(options).skip_validation(skip);
            if opt.register_flag(preset).is_err() {
                continue;
            }
            let Ok(out) = opt.run(words) else {
                continue;
            };
            if !sound {
                continue;
            }
            let back = Module::from_words(&out.words);
            assert!(
                back.is_ok(),
                "{preset} (skip validation: {skip}): wrote a module that does not read: {back:?}"
            );
            if let Ok(m) = back {
                if let Ok(max) = spirv_core::__private::opt::max_id(&m) {
                    assert!(
                        max < m.header().bound,
                        "{preset} (skip validation: {skip}): the bound is below an id"
                    );
                }
            }
        }
    }
}

/// `words` with every `OpLoopMerge`'s loop control set to `Unroll` alone (its
/// parameters dropped), or `None` when it has none or does not split into
/// instructions.
fn with_unroll_control(words: &[u32]) -> Option<Vec<u32>> {
    let mut out = words.get(..5)?.to_vec();
    let mut i = 5;
    let mut hit = false;
    while i < words.len() {
        let wc = (words[i] >> 16) as usize;
        if wc == 0 || i + wc > words.len() {
            return None;
        }
        if words[i] & 0xffff == 246 && wc >= 4 {
            out.extend_from_slice(&[(4 << 16) | 246, words[i + 1], words[i + 2], 1]);
            hit = true;
        } else {
            out.extend_from_slice(&words[i..i + wc]);
        }
        i += wc;
    }
    hit.then_some(out)
}

/// Whether a pass's output must read back: `words` reads, every id is below its bound,
/// and no instruction has result id 0 (which the lenient reader keeps).
fn sound(words: &[u32]) -> bool {
    Module::from_words(words).is_ok_and(|m| {
        spirv_core::__private::opt::max_id(&m).is_ok_and(|max| max < m.header().bound)
            && m.instructions()
                .all(|i| i.result_id().is_none_or(|id| id.0 != 0))
    })
}
