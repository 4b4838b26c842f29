//! `spirv_opt::structural::run` against `spirv-opt --skip-validation` on corpus modules with
//! `OpLine`s, `OpNoLine`s and `OpNop`s inserted at random
//! (`spirv_tests::opt_cases::line_mutant`), for every pass of `FLAGS`: where spirv-opt
//! attaches, copies, drops and writes debug lines, byte for byte. A difference is a
//! failure unless spirv-opt's output is the invalid one (and ours valid), or the mutant
//! itself is not valid SPIR-V (then it is printed as a note).
//!
//! Knobs: `OPT_LINES_MODULES` (corpus modules, one mutant each; default 60),
//! `OPT_LINES_SEED`. A pass that is not implemented yet is named, not failed.

use spirv_tests::mutate::Rng;
use spirv_tests::opt_cases::{
    Found, args_for, compare, have_tools, line_mutant, say, scratch, tools,
};
use spirv_tests::opt_diff::{ext_sets, knob, manifest, spirv_val_bytes, spirv_val_file, words_of};
use spirv_tests::require_corpus;

#[test]
fn corpus_modules_with_random_lines_and_nops() {
    let what = "line mutants against spirv-opt";
    let Some(dir) = require_corpus(what) else {
        return;
    };
    if have_tools(what).is_none() {
        return;
    }
    let count = knob("OPT_LINES_MODULES", 60usize);
    let seed = knob("OPT_LINES_SEED", 0x11e5_2025_u64);
    // Modules spirv-opt's loader does not rewrite (no debug-info set), under 64 KB.
    let mut pool: Vec<_> = manifest(&dir)
        .into_iter()
        .filter(|e| std::fs::metadata(&e.path).is_ok_and(|m| m.len() < 64 * 1024))
        .filter(|e| {
            let words = words_of(&std::fs::read(&e.path).unwrap_or_default());
            !ext_sets(&words).values().any(|s| s.contains("DebugInfo"))
        })
        .collect();
    let mut rng = Rng::new(seed);
    let scratch = scratch("lines-corpus");
    let (mut same, mut missing, mut bad) = (0, std::collections::BTreeSet::new(), Vec::new());
    let mut tried = 0;
    let (mut opt_invalid, mut invalid_input) = (Vec::new(), Vec::new());
    let val = tools().join("spirv-val");
    for _ in 0..count.min(pool.len()) {
        let e = pool.swap_remove(rng.below(pool.len()));
        let words = words_of(&std::fs::read(&e.path).expect("read"));
        let mut r = Rng::for_item(seed, &e.name);
        let Some(mutant) = line_mutant(&words, &mut r) else {
            continue;
        };
        tried += 1;
        let mut input_valid = None;
        for flag in spirv_opt::registry::flags(spirv_opt::registry::RunsOn::Editor) {
            match compare(&scratch, &mutant, &args_for(flag, &mutant)) {
                Found::Same(_) => same += 1,
                Found::NotImplemented(w) => {
                    missing.insert(w);
                }
                Found::Differ(o, d) => {
                    let input = scratch.join("in.spv");
                    let valid = *input_valid
                        .get_or_insert_with(|| spirv_val_file(&val, &e.env, &input).is_ok());
                    let line = format!("{} --{flag}: {d}", e.name);
                    // Fine when spirv-opt's output is the invalid one (and ours is not),
                    // and noted only when the mutant itself is not valid SPIR-V.
                    if !valid {
                        invalid_input.push(line);
                    } else if spirv_val_file(&val, &e.env, &scratch.join("out.spv")).is_err()
                        && spirv_val_bytes(&val, &e.env, &o, &scratch.join("ours.spv")).is_ok()
                    {
                        opt_invalid.push(line);
                    } else {
                        let kept = scratch.join(format!("{}.spv", e.name));
                        let _ = std::fs::copy(&input, &kept);
                        bad.push(format!("{line} (mutant: {})", kept.display()));
                    }
                }
                Found::Bad(d) | Found::BothFailed(d) => {
                    bad.push(format!("{} --{flag}: {d}", e.name))
                }
                Found::OptFailed(_, d) => bad.push(format!("{} --{flag}: spirv-opt: {d}", e.name)),
            }
        }
    }
    say(&format!(
        "line mutants: {tried} modules (seed {seed:#x}) x {} passes: {same} byte-identical, \
         {} where spirv-opt's output is invalid and ours valid, {} different on mutants \
         spirv-val rejects (noted), {} different{}",
        spirv_opt::registry::flags(spirv_opt::registry::RunsOn::Editor).len(),
        opt_invalid.len(),
        invalid_input.len(),
        bad.len(),
        if missing.is_empty() {
            String::new()
        } else {
            format!(
                "; not implemented: {}",
                missing.into_iter().collect::<Vec<_>>().join(", ")
            )
        }
    ));
    for b in &opt_invalid {
        say(&format!("  spirv-opt invalid, ours valid: {b}"));
    }
    for b in &invalid_input {
        say(&format!("  invalid mutant: {b}"));
    }
    for b in &bad {
        say(b);
    }
    assert!(
        bad.is_empty(),
        "{} line mutants differ from spirv-opt (above)",
        bad.len()
    );
}
