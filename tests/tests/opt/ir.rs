//! The optimizer IR and its passes against SPIRV-Tools 2025.5's `spirv-opt
//! --skip-validation` on every corpus module (or the corpus `SPIRV_CORPUS` names, such
//! as the rewritten corpus of `scripts/rewritten_corpus.py`).
//!
//! - **Round trip**: loading a module into `spirv_opt::ir` and writing it back must give
//!   what spirv-opt gives with no pass, byte for byte, on every module (the 118 corpus
//!   modules whose debug information spirv-opt moves and renumbers included).
//! - **Passes**: each pass of the registry that runs on the IR, run alone through
//!   `spirv_opt::Optimizer` against `spirv-opt --skip-validation --PASS`, counted as
//!   identical or differing on the modules spirv-opt round-trips unchanged ("identity"
//!   modules, where the goal is 100%) and on the others, with the runs where spirv-opt
//!   fails or ours does counted apart. Every row must be identical on every identity
//!   module, unless [`FLOORS`] gives it a floor its whole-corpus count may not fall
//!   below (for a pass on its way to exactness; none has one today).
//!
//! Knobs: `OPT_IR_MODULES` (a seeded sample of that many, [`DEFAULT_SAMPLE`] unless
//! set; `all` for every module, which `.ci/run` does on the corpus), `OPT_IR_SEED`, `OPT_IR_JOBS`
//! (workers, default 2), `OPT_IR_ONLY` (only the rows whose label contains this text),
//! `OPT_IR_REPORT` (default `opt_ir.txt` in the workspace's `target/tmp`, so checkouts
//! side by side keep their own; every difference with the first differing instruction). Without the corpus or SPIRV-Tools: a SKIP, or a failure with
//! `SPIRV_TESTS_REQUIRE=1`.

use spirv_tests::opt_diff::{Entry, Reference, first_difference, knob, manifest, run_spirv_opt};
use spirv_tests::{require_corpus, require_spirv_tools};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The modules of the seeded sample `cargo test` runs (every row on the whole corpus
/// takes about 4 minutes in a debug build on 2 loaded cores; `.ci/run` does that).
const DEFAULT_SAMPLE: usize = 400;

/// Rows allowed to differ from spirv-opt on some identity modules, each with the lowest
/// identical count it may have on the whole corpus and on the whole rewritten corpus
/// (modules named `…__rwN`). Only ever raised. A row not listed must give spirv-opt's
/// bytes on every identity module of any run, sample or whole; none is listed today.
const FLOORS: &[(&str, usize, usize)] = &[];

/// Sequences run besides each pass alone, once every pass of one is implemented: the
/// opening of `-O` (spirv-opt's `RegisterPerformancePasses`) up to its `--ssa-rewrite`
/// and the aggressive dead code elimination after it, and shorter prefixes of it.
const SEQUENCES: &[&[&str]] = &[
    &["wrap-opkill", "eliminate-dead-branches"],
    &["wrap-opkill", "eliminate-dead-branches", "merge-return"],
    &[
        "wrap-opkill",
        "eliminate-dead-branches",
        "merge-return",
        "inline-entry-points-exhaustive",
        "eliminate-dead-functions",
        "eliminate-dead-code-aggressive",
    ],
    &[
        "wrap-opkill",
        "eliminate-dead-branches",
        "merge-return",
        "inline-entry-points-exhaustive",
        "eliminate-dead-functions",
        "eliminate-dead-code-aggressive",
        "private-to-local",
        "eliminate-local-single-block",
        "eliminate-local-single-store",
        "eliminate-dead-code-aggressive",
    ],
    // The -O head on through its first scalar replacement and the passes after it,
    // to the aggressive dead code elimination after its first multi-store.
    &[
        "wrap-opkill",
        "eliminate-dead-branches",
        "merge-return",
        "inline-entry-points-exhaustive",
        "eliminate-dead-functions",
        "eliminate-dead-code-aggressive",
        "private-to-local",
        "eliminate-local-single-block",
        "eliminate-local-single-store",
        "eliminate-dead-code-aggressive",
        "scalar-replacement=0",
        "convert-local-access-chains",
        "eliminate-local-single-block",
        "eliminate-local-single-store",
        "eliminate-dead-code-aggressive",
        "eliminate-local-multi-store",
        "eliminate-dead-code-aggressive",
    ],
    // The -O head above, then its conditional constant propagation.
    &[
        "wrap-opkill",
        "eliminate-dead-branches",
        "merge-return",
        "inline-entry-points-exhaustive",
        "eliminate-dead-functions",
        "eliminate-dead-code-aggressive",
        "private-to-local",
        "eliminate-local-single-block",
        "eliminate-local-single-store",
        "eliminate-dead-code-aggressive",
        "scalar-replacement=0",
        "convert-local-access-chains",
        "eliminate-local-single-block",
        "eliminate-local-single-store",
        "eliminate-dead-code-aggressive",
        "eliminate-local-multi-store",
        "eliminate-dead-code-aggressive",
        "ccp",
    ],
    // Not a spirv-opt preset: the prefix above, then every other pass implemented
    // here, so that what each leaves of the analyses is tried by the next.
    &[
        "wrap-opkill",
        "eliminate-dead-branches",
        "merge-return",
        "inline-entry-points-exhaustive",
        "eliminate-dead-functions",
        "eliminate-dead-code-aggressive",
        "private-to-local",
        "eliminate-local-single-block",
        "eliminate-local-single-store",
        "eliminate-dead-code-aggressive",
        "eliminate-local-multi-store",
        "eliminate-dead-code-aggressive",
        "vector-dce",
        "eliminate-dead-inserts",
        "merge-blocks",
        "cfg-cleanup",
        "ssa-rewrite",
    ],
    &[
        "wrap-opkill",
        "eliminate-dead-branches",
        "merge-return",
        "inline-entry-points-exhaustive",
        "eliminate-dead-functions",
        "eliminate-dead-code-aggressive",
        "private-to-local",
        "eliminate-local-single-block",
        "eliminate-local-single-store",
        "eliminate-dead-code-aggressive",
        "scalar-replacement=0",
        "convert-local-access-chains",
        "eliminate-local-single-block",
        "eliminate-local-single-store",
        "eliminate-dead-code-aggressive",
        "eliminate-local-multi-store",
        "eliminate-dead-code-aggressive",
        "ccp",
        "eliminate-dead-code-aggressive",
        "loop-unroll",
        "eliminate-dead-branches",
        "redundancy-elimination",
        "combine-access-chains",
        "simplify-instructions",
        "scalar-replacement=0",
        "convert-local-access-chains",
        "eliminate-local-single-block",
        "eliminate-local-single-store",
        "eliminate-dead-code-aggressive",
        "ssa-rewrite",
        "eliminate-dead-code-aggressive",
    ],
    // Not a spirv-opt preset: the 17-pass -O head, then the redundancy passes and
    // combine-access-chains on the SSA form it leaves (where values repeat).
    &[
        "wrap-opkill",
        "eliminate-dead-branches",
        "merge-return",
        "inline-entry-points-exhaustive",
        "eliminate-dead-functions",
        "eliminate-dead-code-aggressive",
        "private-to-local",
        "eliminate-local-single-block",
        "eliminate-local-single-store",
        "eliminate-dead-code-aggressive",
        "scalar-replacement=0",
        "convert-local-access-chains",
        "eliminate-local-single-block",
        "eliminate-local-single-store",
        "eliminate-dead-code-aggressive",
        "eliminate-local-multi-store",
        "eliminate-dead-code-aggressive",
        "redundancy-elimination",
        "combine-access-chains",
        "local-redundancy-elimination",
    ],
    // Not a spirv-opt preset: the 17-pass -O head, then --if-conversion on the SSA form
    // it leaves (where the phis it converts are).
    &[
        "wrap-opkill",
        "eliminate-dead-branches",
        "merge-return",
        "inline-entry-points-exhaustive",
        "eliminate-dead-functions",
        "eliminate-dead-code-aggressive",
        "private-to-local",
        "eliminate-local-single-block",
        "eliminate-local-single-store",
        "eliminate-dead-code-aggressive",
        "scalar-replacement=0",
        "convert-local-access-chains",
        "eliminate-local-single-block",
        "eliminate-local-single-store",
        "eliminate-dead-code-aggressive",
        "eliminate-local-multi-store",
        "eliminate-dead-code-aggressive",
        "if-conversion",
    ],
];

/// Writes straight to standard error, which libtest does not capture.
fn say(text: &str) {
    let _ = writeln!(std::io::stderr(), "{text}");
}

/// Words from little-endian bytes.
fn words(bytes: &[u8]) -> Vec<u32> {
    spirv_tests::opt_diff::words_of(bytes)
}

/// One row: the round trip, or a pass flag.
#[derive(Debug, Clone)]
struct Row {
    label: String,
    /// spirv-opt's arguments (none for the round trip).
    args: Vec<String>,
}

fn rows() -> Vec<Row> {
    let mut rows = vec![Row {
        label: "(round trip)".into(),
        args: Vec::new(),
    }];
    for flag in spirv_opt::registry::flags(spirv_opt::registry::RunsOn::Ir) {
        // spirv-opt cannot run a pass it has no flag for on its own (it runs only in
        // a preset); opt_fixtures checks those against its unit tests' expectations.
        if spirv_opt::registry::lookup(flag).is_some_and(|r| !r.cli) {
            continue;
        }
        rows.push(Row {
            label: format!("--{flag}"),
            args: vec![format!("--{flag}")],
        });
    }
    for seq in SEQUENCES {
        let implemented = seq.iter().all(|f| {
            let name = f.split('=').next().unwrap_or(f);
            spirv_opt::registry::lookup(name).is_some_and(|r| r.is_implemented())
        });
        if implemented {
            let args: Vec<String> = seq.iter().map(|f| format!("--{f}")).collect();
            rows.push(Row {
                label: args.join(" "),
                args,
            });
        }
    }
    let only = std::env::var("OPT_IR_ONLY").unwrap_or_default();
    rows.retain(|r| r.label.contains(&only));
    rows
}

/// What one row did on one module.
#[derive(Debug, Clone)]
enum Verdict {
    Same,
    Differ(String),
    /// spirv-opt failed or crashed; ours is not compared.
    TheirsFailed(String),
    /// Ours failed where spirv-opt did not.
    OursFailed(String),
}

/// Ours on `input`: the IR's round trip, or the optimizer with the row's flags, run on
/// the words and on the file at `path` (the command line's streamed run), which must
/// agree.
fn ours(row: &Row, input: &[u32], path: &Path) -> Result<Vec<u32>, String> {
    let run = || -> Result<Vec<u32>, String> {
        if row.args.is_empty() {
            let mut ir = spirv_opt::ir::Ir::from_words(input).map_err(|e| e.to_string())?;
            return Ok(ir.to_words());
        }
        let mut opt = spirv_opt::Optimizer::new();
        // As spirv-opt's command line registers its passes.
        let mut options = spirv_opt::PassOptions::default();
        options.preserve_interface = true;
        opt.skip_validation(true).pass_options(options);
        for a in &row.args {
            opt.register_flag(a).map_err(|e| e.to_string())?;
        }
        let in_memory = opt.run(input).map(|o| o.words).map_err(|e| e.to_string());
        let mut file = std::fs::File::open(path).map_err(|e| e.to_string())?;
        let streamed = opt
            .run_file_reporting(&mut file, &mut |_| {})
            .map_err(|e| e.to_string())
            .map(|done| {
                let mut bytes = Vec::new();
                done.write_to(&mut bytes).map(|()| words(&bytes))
            });
        match streamed {
            Ok(Ok(w)) if in_memory.as_ref().ok() == Some(&w) => in_memory,
            Err(e) if in_memory.as_ref().err() == Some(&e) => in_memory,
            _ => Err("the streamed run differs from the in-memory run".to_owned()),
        }
    };
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(run))
        .unwrap_or_else(|_| Err("panicked".to_owned()))
}

struct ModuleResult {
    name: String,
    identity: bool,
    verdicts: Vec<Verdict>,
}

fn run_module(entry: &Entry, rows: &[Row], opt: &Path, scratch: &Path) -> ModuleResult {
    let bytes =
        std::fs::read(&entry.path).unwrap_or_else(|e| panic!("{}: {e}", entry.path.display()));
    let input = words(&bytes);
    let plain = run_spirv_opt(opt, &[], &entry.path, scratch);
    let identity = plain.output() == Some(&bytes[..]);
    let verdicts = rows
        .iter()
        .map(|row| {
            let theirs = if row.args.is_empty() {
                plain.clone()
            } else {
                run_spirv_opt(opt, &row.args, &entry.path, scratch)
            };
            let mine = ours(row, &input, &entry.path);
            match (theirs, mine) {
                (Reference::Output(t), Ok(o)) if words(&t) == o => Verdict::Same,
                (Reference::Output(t), Ok(o)) => {
                    let o = spirv_core::binary::words_to_bytes(&o);
                    Verdict::Differ(first_difference(&o, &t))
                }
                (Reference::Output(_), Err(e)) => Verdict::OursFailed(e),
                (Reference::Failed(c, e), _) => {
                    Verdict::TheirsFailed(format!("exit {c}: {}", e.lines().next().unwrap_or("")))
                }
                (Reference::Crashed(e), _) => Verdict::TheirsFailed(format!("crashed: {e}")),
            }
        })
        .collect();
    ModuleResult {
        name: entry.name.clone(),
        identity,
        verdicts,
    }
}

fn run_all(entries: &[Entry], rows: &[Row], opt: &Path, jobs: usize) -> Vec<ModuleResult> {
    let next = AtomicUsize::new(0);
    let mut done: Vec<(usize, ModuleResult)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..jobs.max(1))
            .map(|w| {
                let next = &next;
                scope.spawn(move || {
                    let scratch =
                        std::env::temp_dir().join(format!("opt_ir.{}.{w}.spv", std::process::id()));
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(entry) = entries.get(i) else { break };
                        out.push((i, run_module(entry, rows, opt, &scratch)));
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

/// Counts for one row.
#[derive(Debug, Default, Clone, Copy)]
struct Tally {
    same_identity: usize,
    differ_identity: usize,
    same_other: usize,
    differ_other: usize,
    theirs_failed: usize,
    ours_failed: usize,
}

#[test]
fn ir_and_passes_match_spirv_opt() {
    let what = "the optimizer IR and its passes against spirv-opt";
    let Some(dir) = require_corpus(what) else {
        return;
    };
    let Some(bin) = require_spirv_tools(what) else {
        return;
    };
    let opt = bin.join("spirv-opt");
    let count = match std::env::var("OPT_IR_MODULES") {
        Ok(v) if v == "all" => None,
        Ok(v) => Some(v.parse().unwrap_or(DEFAULT_SAMPLE)),
        Err(_) => Some(DEFAULT_SAMPLE),
    };
    let seed = knob("OPT_IR_SEED", 0x0b71_2025_u64);
    let jobs = knob("OPT_IR_JOBS", 2usize);
    let report_path = std::env::var_os("OPT_IR_REPORT").map_or_else(
        || PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("opt_ir.txt"),
        PathBuf::from,
    );
    let start = std::time::Instant::now();
    let entries = spirv_tests::opt_diff::sample(manifest(&dir), count, seed);
    let rewritten = entries.iter().any(|e| e.name.contains("__rw"));
    let rows = rows();
    let results = run_all(&entries, &rows, &opt, jobs);
    let identity = results.iter().filter(|r| r.identity).count();
    let mut tallies = vec![Tally::default(); rows.len()];
    let mut report = String::new();
    for r in &results {
        for ((row, v), t) in rows.iter().zip(&r.verdicts).zip(tallies.iter_mut()) {
            let set = if r.identity {
                "identity"
            } else {
                "not identity"
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
                    let _ = writeln!(report, "{}\t{}\t[{set}] differs: {d}", r.name, row.label);
                }
                Verdict::TheirsFailed(e) => {
                    t.theirs_failed += 1;
                    let _ = writeln!(report, "{}\t{}\t[{set}] spirv-opt: {e}", r.name, row.label);
                }
                Verdict::OursFailed(e) => {
                    t.ours_failed += 1;
                    let _ = writeln!(
                        report,
                        "{}\t{}\t[{set}] ours failed: {e}",
                        r.name, row.label
                    );
                }
            }
        }
    }
    let mut table = format!(
        "opt_ir: {} modules ({identity} identity) in {}, {} rows, {jobs} workers, {:.1?}\n{:<44} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}\n",
        results.len(),
        dir.display(),
        rows.len(),
        start.elapsed(),
        "row",
        "same/id",
        "diff/id",
        "same/oth",
        "diff/oth",
        "opt-fail",
        "our-fail"
    );
    for (row, t) in rows.iter().zip(&tallies) {
        let _ = writeln!(
            table,
            "{:<44} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}",
            row.label,
            t.same_identity,
            t.differ_identity,
            t.same_other,
            t.differ_other,
            t.theirs_failed,
            t.ours_failed
        );
    }
    say(&table);
    std::fs::write(&report_path, format!("{table}\n{report}"))
        .unwrap_or_else(|e| panic!("{}: {e}", report_path.display()));
    say(&format!("differences written to {}", report_path.display()));
    assert!(
        identity > 0,
        "no module round-trips unchanged: is spirv-opt 2025.5?"
    );
    let mut failures = Vec::new();
    for (row, t) in rows.iter().zip(&tallies) {
        if row.args.is_empty() {
            // The IR's round trip is spirv-opt's on every module.
            if t.differ_identity + t.differ_other + t.ours_failed > 0 {
                failures.push(format!(
                    "{}: the round trip is not spirv-opt's on every module",
                    row.label
                ));
            }
            continue;
        }
        let floor = FLOORS
            .iter()
            .find(|f| row.label == f.0 || row.label == format!("--{}", f.0))
            .map(|f| if rewritten { f.2 } else { f.1 });
        match floor {
            // Exact rows stay exact on whatever modules run.
            None if t.differ_identity > 0 => failures.push(format!(
                "{}: {} identity modules differ from spirv-opt (the row is exact: it has no floor)",
                row.label, t.differ_identity
            )),
            None => {}
            // A floor counts the whole corpus, so a sample says nothing of it.
            Some(_) if count.is_some() => {}
            Some(floor) if t.same_identity < floor => failures.push(format!(
                "{}: {} identical, below its floor {floor}",
                row.label, t.same_identity
            )),
            Some(floor) if t.same_identity > floor => say(&format!(
                "{}: {} identical on identity modules, above its floor {floor}: raise it in FLOORS",
                row.label, t.same_identity
            )),
            Some(_) => {}
        }
        if t.ours_failed > 0 {
            failures.push(format!(
                "{}: ours failed on {} modules spirv-opt takes",
                row.label, t.ours_failed
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
