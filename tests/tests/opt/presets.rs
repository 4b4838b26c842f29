//! spirv-opt's presets, `-O`, `-Os` and `--legalize-hlsl`, against SPIRV-Tools 2025.5
//! as users run them: validation first, under each module's target environment, with
//! the command line's `--preserve-interface` default (and `--before-hlsl-legalization`
//! for `--legalize-hlsl`, which spirv-opt's command line implies).
//!
//! Per preset the test counts modules whose output is spirv-opt's byte for byte, on
//! the modules spirv-opt writes back unchanged with no pass ("identity" modules, where
//! the goal is 100%) and on the others; modules both refuse (the validator's verdict);
//! modules only one side refuses; and runs where spirv-opt crashed. A preset whose
//! passes are not all implemented yet fails with `OptError::NotImplemented`, which is
//! counted apart and does not fail the test. Each preset's identical count on identity
//! modules has a floor ([`FLOORS`]) it may not fall below once the whole corpus (or the
//! whole rewritten corpus) runs; as every identity module of both gives spirv-opt's
//! bytes, a run of any size fails on an identity module that does not.
//!
//! Knobs: `OPT_PRESETS_MODULES` (a seeded sample of that many, [`DEFAULT_SAMPLE`] unless
//! set; `all` for every module), `OPT_PRESETS_SEED`, `OPT_PRESETS_JOBS` (workers,
//! default 2), `OPT_PRESETS_ONLY` (only presets whose flag contains this text),
//! `OPT_PRESETS_REPORT` (default `opt_presets.txt` in `target/tmp`: every difference with the
//! first differing instruction). Without the corpus or SPIRV-Tools: a SKIP, or a
//! failure with `SPIRV_TESTS_REQUIRE=1`.

use spirv_opt::OptError;
use spirv_tests::opt_diff::{
    Entry, Reference, first_difference, knob, manifest, run_spirv_opt, run_spirv_opt_validating,
};
use spirv_tests::{require_corpus, require_spirv_tools};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The modules `cargo test` runs by default: spirv-opt's `-O` takes a second or more
/// on the largest corpus modules, three presets each.
const DEFAULT_SAMPLE: usize = 120;

/// The presets, as spirv-opt's command line spells them.
const PRESETS: &[&str] = &["-O", "-Os", "--legalize-hlsl"];

/// The lowest identical count on identity modules each preset may have on the whole
/// corpus and on the whole rewritten corpus (`scripts/rewritten_corpus.py`; its other
/// 3 identity modules both sides refuse). Only ever raised.
const FLOORS: &[(&str, usize, usize)] = &[
    ("-O", 1060, 2083),
    ("-Os", 1060, 2083),
    ("--legalize-hlsl", 1060, 2083),
];

/// Writes straight to standard error, which libtest does not capture.
fn say(text: &str) {
    let _ = writeln!(std::io::stderr(), "{text}");
}

/// What one preset did on one module.
#[derive(Debug, Clone)]
enum Verdict {
    Same,
    Differ(String),
    /// Both refused the module (spirv-opt's validator, and ours).
    BothRefused,
    /// spirv-opt refused it or crashed; ours wrote a module.
    OnlyTheirsFailed(String),
    /// Ours refused or failed where spirv-opt wrote a module.
    OnlyOursFailed(String),
    /// A pass of the preset is not implemented yet.
    NotImplemented,
}

/// Ours on `input`, as `spirv-asm opt --target-env=ENV PRESET` runs it.
fn ours(preset: &str, env: &str, input: &[u32]) -> Result<Vec<u32>, OptError> {
    let mut validator = spirv_core::validate::Options::default();
    if let Some(e) = spirv_core::TargetEnv::parse(env) {
        validator.target_env = e;
    }
    validator.before_hlsl_legalization = preset == "--legalize-hlsl";
    let mut opt = spirv_asm::opt::optimizer();
    let mut options = spirv_opt::PassOptions::default();
    options.preserve_interface = true;
    opt.pass_options(options).validator_options(validator);
    opt.register_flag(preset).expect("a preset flag");
    opt.run(input).map(|o| o.words)
}

struct ModuleResult {
    name: String,
    identity: bool,
    verdicts: Vec<Verdict>,
}

fn run_module(entry: &Entry, presets: &[&str], opt: &Path, scratch: &Path) -> ModuleResult {
    let bytes =
        std::fs::read(&entry.path).unwrap_or_else(|e| panic!("{}: {e}", entry.path.display()));
    let input = spirv_tests::opt_diff::words_of(&bytes);
    let plain = run_spirv_opt(opt, &["--skip-validation".into()], &entry.path, scratch);
    let identity = plain.output() == Some(&bytes[..]);
    let verdicts = presets
        .iter()
        .map(|preset| {
            let args = vec![format!("--target-env={}", entry.env), (*preset).to_owned()];
            let theirs = run_spirv_opt_validating(opt, &args, &entry.path, scratch);
            let mine = std::panic::catch_unwind(|| ours(preset, &entry.env, &input))
                .unwrap_or_else(|p| panic!("{}: {preset} panicked: {p:?}", entry.name));
            match (theirs, mine) {
                (_, Err(OptError::NotImplemented(_))) => Verdict::NotImplemented,
                (Reference::Output(t), Ok(o)) if spirv_tests::opt_diff::words_of(&t) == o => {
                    Verdict::Same
                }
                (Reference::Output(t), Ok(o)) => {
                    let o = spirv_core::binary::words_to_bytes(&o);
                    Verdict::Differ(first_difference(&o, &t))
                }
                (Reference::Output(_), Err(e)) => Verdict::OnlyOursFailed(e.to_string()),
                (Reference::Failed(..), Err(_)) => Verdict::BothRefused,
                (Reference::Failed(c, e), Ok(_)) => Verdict::OnlyTheirsFailed(format!(
                    "exit {c}: {}",
                    e.lines().next().unwrap_or("")
                )),
                (Reference::Crashed(e), _) => {
                    Verdict::OnlyTheirsFailed(format!("spirv-opt crashed: {e}"))
                }
            }
        })
        .collect();
    ModuleResult {
        name: entry.name.clone(),
        identity,
        verdicts,
    }
}

fn run_all(entries: &[Entry], presets: &[&str], opt: &Path, jobs: usize) -> Vec<ModuleResult> {
    let next = AtomicUsize::new(0);
    let mut done: Vec<(usize, ModuleResult)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..jobs.max(1))
            .map(|w| {
                let next = &next;
                scope.spawn(move || {
                    let scratch = std::env::temp_dir()
                        .join(format!("opt_presets.{}.{w}.spv", std::process::id()));
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(entry) = entries.get(i) else { break };
                        out.push((i, run_module(entry, presets, opt, &scratch)));
                    }
                    let _ = std::fs::remove_file(&scratch);
                    out
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("worker"))
            .collect()
    });
    done.sort_by_key(|&(i, _)| i);
    done.into_iter().map(|(_, r)| r).collect()
}

/// Counts for one preset.
#[derive(Debug, Default, Clone, Copy)]
struct Tally {
    same_identity: usize,
    differ_identity: usize,
    same_other: usize,
    differ_other: usize,
    both_refused: usize,
    only_theirs_failed: usize,
    only_ours_failed: usize,
    not_implemented: usize,
}

#[test]
fn presets_match_spirv_opt() {
    let what = "spirv-opt's presets against spirv-opt";
    let Some(dir) = require_corpus(what) else {
        return;
    };
    let Some(bin) = require_spirv_tools(what) else {
        return;
    };
    let opt = bin.join("spirv-opt");
    let count = match std::env::var("OPT_PRESETS_MODULES") {
        Ok(v) if v == "all" => None,
        Ok(v) => Some(v.parse().unwrap_or(DEFAULT_SAMPLE)),
        Err(_) => Some(DEFAULT_SAMPLE),
    };
    let seed = knob("OPT_PRESETS_SEED", 0x9e5e_2025_u64);
    let jobs = knob("OPT_PRESETS_JOBS", 2usize);
    let report_path = std::env::var_os("OPT_PRESETS_REPORT").map_or_else(
        || PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("opt_presets.txt"),
        PathBuf::from,
    );
    let only = std::env::var("OPT_PRESETS_ONLY").unwrap_or_default();
    let presets: Vec<&str> = PRESETS
        .iter()
        .copied()
        .filter(|p| p.contains(&only))
        .collect();
    let start = std::time::Instant::now();
    let entries = spirv_tests::opt_diff::sample(manifest(&dir), count, seed);
    let rewritten = entries.iter().any(|e| e.name.contains("__rw"));
    let results = run_all(&entries, &presets, &opt, jobs);
    let identity = results.iter().filter(|r| r.identity).count();
    let mut tallies = vec![Tally::default(); presets.len()];
    let mut report = String::new();
    for r in &results {
        for ((preset, v), t) in presets.iter().zip(&r.verdicts).zip(tallies.iter_mut()) {
            let set = if r.identity {
                "identity"
            } else {
                "not identity"
            };
            let mut note = |what: &str| {
                let _ = writeln!(report, "{}\t{preset}\t[{set}] {what}", r.name);
            };
            match v {
                Verdict::Same if r.identity => t.same_identity += 1,
                Verdict::Same => t.same_other += 1,
                Verdict::Differ(d) => {
                    if r.identity {
                        t.differ_identity += 1;
                    } else {
                        t.differ_other += 1;
                    }
                    note(&format!("differs: {d}"));
                }
                Verdict::BothRefused => t.both_refused += 1,
                Verdict::OnlyTheirsFailed(e) => {
                    t.only_theirs_failed += 1;
                    note(&format!("only spirv-opt failed: {e}"));
                }
                Verdict::OnlyOursFailed(e) => {
                    t.only_ours_failed += 1;
                    note(&format!("only ours failed: {e}"));
                }
                Verdict::NotImplemented => t.not_implemented += 1,
            }
        }
    }
    let mut table = format!(
        "opt_presets: {} modules ({identity} identity) in {}, {jobs} workers, {:.1?}\n{:<16} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8}\n",
        results.len(),
        dir.display(),
        start.elapsed(),
        "preset",
        "same/id",
        "diff/id",
        "same/oth",
        "diff/oth",
        "refused",
        "opt-only",
        "our-only",
        "not-impl"
    );
    for (preset, t) in presets.iter().zip(&tallies) {
        let _ = writeln!(
            table,
            "{preset:<16} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8}",
            t.same_identity,
            t.differ_identity,
            t.same_other,
            t.differ_other,
            t.both_refused,
            t.only_theirs_failed,
            t.only_ours_failed,
            t.not_implemented
        );
    }
    say(&table);
    std::fs::write(&report_path, format!("{table}\n{report}"))
        .unwrap_or_else(|e| panic!("{}: {e}", report_path.display()));
    say(&format!("differences written to {}", report_path.display()));
    let mut failures = Vec::new();
    for (preset, t) in presets.iter().zip(&tallies) {
        if t.not_implemented > 0 {
            say(&format!(
                "{preset}: not compared on {} modules: a pass of the preset is not implemented yet",
                t.not_implemented
            ));
        }
        if count.is_none() {
            let floor = FLOORS
                .iter()
                .find(|f| f.0 == *preset)
                .map_or(0, |f| if rewritten { f.2 } else { f.1 });
            if t.same_identity < floor {
                failures.push(format!(
                    "{preset}: {} identical, below its floor {floor}",
                    t.same_identity
                ));
            } else if t.same_identity > floor {
                say(&format!(
                    "{preset}: {} identical on identity modules, above its floor {floor}: raise it in FLOORS",
                    t.same_identity
                ));
            }
        }
        // Every identity module of the corpus and of the rewritten corpus gives
        // spirv-opt's bytes, so one of a sample must too.
        if t.differ_identity > 0 {
            failures.push(format!(
                "{preset}: differs from spirv-opt on {} identity modules",
                t.differ_identity
            ));
        }
        // Validation is the same on both sides: a module only one side refuses is a
        // validator disagreement or a pass failure.
        if t.only_ours_failed > 0 {
            failures.push(format!(
                "{preset}: ours failed on {} modules spirv-opt takes",
                t.only_ours_failed
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{}\n(see {})",
        failures.join("\n"),
        report_path.display()
    );
}
