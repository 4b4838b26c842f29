//! `spirv_opt::structural::run` (in-process) against SPIRV-Tools 2025.5's
//! `spirv-opt --skip-validation` on every corpus module, for every pass flag of
//! `spirv_opt::registry's structural flags` and for sequences of them.
//!
//! First spirv-opt runs each module with no pass. Where that round trip is the identity
//! (1061 modules), our output must be spirv-opt's byte for byte. Where it is not (118
//! modules with `NonSemantic.Shader.DebugInfo.100` or `OpenCL.DebugInfo.100`, whose
//! debug information spirv-opt's loader moves and renumbers), and wherever spirv-opt
//! crashes, fails, or writes a module spirv-val rejects while the input is valid, our
//! output must pass `spirv-val --target-env VAL_ENV` (MANIFEST.tsv) and, after
//! `--strip-debug` or `--strip-nonsemantic`, hold none of what they strip (an `OpString`
//! stays if a non-semantic instruction of the input used it, as spirv-opt keeps it).
//!
//! A pass that is not implemented (it returns `EditError::NeedsNumberParser`, or its
//! flag's value does not read) fails the test; with `OPT_DIFF_REQUIRE_IMPLEMENTED=0` it
//! is only counted and named. The test prints one table row per pass or
//! sequence and writes every difference (module, flags, first differing instruction in
//! `spirv-dis --raw-id` form) to a report in `target/tmp`.
//!
//! Knobs (environment): `OPT_DIFF_MODULES` (a seeded sample of that many; default all),
//! `OPT_DIFF_SEED`, `OPT_DIFF_JOBS` (workers; default 2), `OPT_DIFF_ONLY` (only the
//! rows whose flags contain this text), `OPT_DIFF_REPORT` (default
//! `opt_differential.txt` in `target/tmp`). Without the corpus or SPIRV-Tools: a SKIP, or a
//! failure with `SPIRV_TESTS_REQUIRE=1`.

use spirv_tests::mutate::Rng;
use spirv_tests::opt_diff::{
    Entry, Ours, Reference, debug_left, first_difference, knob, manifest, nonsemantic_left,
    require_implemented, run_ours, run_spirv_opt, spec_const_values, spirv_val_bytes,
    spirv_val_file, words_of,
};
use spirv_tests::{require_corpus, require_spirv_tools};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// The sample's seed unless `OPT_DIFF_SEED` says otherwise.
const DEFAULT_SEED: u64 = 0x5eed_0b70_2025;

/// The sequences run besides each flag alone.
const SEQUENCES: &[&str] = &[
    // The Editor's pass (`spirv_opt::structural`); the registry's row is the IR's,
    // which opt_ir.rs checks.
    "--eliminate-dead-functions",
    "--strip-debug --compact-ids",
    "--eliminate-dead-functions --eliminate-dead-const --compact-ids",
    "--strip-debug --strip-nonsemantic --remove-duplicates --compact-ids",
    "--freeze-spec-const --eliminate-dead-const --unify-const",
    "--remove-unused-interface-variables --compact-ids",
    // A rebinding of a module a pass has written (patched in place), then renumbered.
    "--strip-debug --switch-descriptorset=0:5 --compact-ids",
    "--compact-ids --switch-descriptorset=1:0 --strip-debug",
];

/// Writes straight to standard error, which libtest does not capture.
fn say(text: &str) {
    let _ = writeln!(std::io::stderr(), "{text}");
}

/// One row: a pass or a sequence, as spirv-opt's arguments.
struct Case {
    label: String,
    /// The arguments; `None` for `--set-spec-const-default-value`, whose list is made
    /// per module ([`spec_const_values`]).
    args: Option<Vec<String>>,
}

impl Case {
    fn new(flags: &str) -> Case {
        Case {
            label: flags.to_owned(),
            args: Some(flags.split(' ').map(str::to_owned).collect()),
        }
    }

    fn args_for(&self, words: &[u32]) -> Vec<String> {
        self.args.clone().unwrap_or_else(|| {
            vec![
                "--set-spec-const-default-value".to_owned(),
                spec_const_values(words),
            ]
        })
    }

    fn strips_debug(&self) -> bool {
        self.label.contains("--strip-debug")
    }

    fn strips_nonsemantic(&self) -> bool {
        self.label.contains("--strip-nonsemantic") || self.label.contains("--strip-reflect")
    }
}

/// Every flag of `FLAGS` (those that take a value with values made for them), then
/// [`SEQUENCES`].
fn cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for flag in spirv_opt::registry::flags(spirv_opt::registry::RunsOn::Editor) {
        match flag {
            "set-spec-const-default-value" => cases.push(Case {
                label: "--set-spec-const-default-value <SpecId:value list per module>".into(),
                args: None,
            }),
            "switch-descriptorset" => {
                cases.push(Case::new("--switch-descriptorset=0:5"));
                cases.push(Case::new("--switch-descriptorset=1:0"));
            }
            f if spirv_opt::registry::takes_value(f) => {
                panic!("--{f} takes a value: give it one in opt_differential.rs's cases()")
            }
            f => cases.push(Case::new(&format!("--{f}"))),
        }
    }
    cases.extend(SEQUENCES.iter().map(|s| Case::new(s)));
    let only = std::env::var("OPT_DIFF_ONLY").unwrap_or_default();
    cases.retain(|c| c.label.contains(&only));
    cases
}

/// What one case made of one module.
#[derive(Debug, Clone)]
enum Verdict {
    /// Byte-identical to spirv-opt (identity modules).
    Same,
    /// Not byte-identical to spirv-opt, whose output is valid (identity modules).
    Diff(String),
    /// spirv-val accepts our output (and it has no debug information left where that
    /// is checked).
    Valid,
    /// spirv-val rejects our output.
    Invalid(String),
    /// Our output still has what a strip pass removes.
    DebugLeft(String),
    /// The input is not valid, so neither is checked (modules spirv-opt does not write
    /// back unchanged).
    Unchecked,
    NotImplemented(String),
    Error(String),
}

/// One case on one module: our verdict and what spirv-opt did.
#[derive(Debug, Clone)]
struct Outcome {
    verdict: Verdict,
    /// spirv-opt crashed or exited non-zero.
    opt_failed: bool,
    /// spirv-opt wrote a module spirv-val rejects, from a valid input.
    opt_invalid: bool,
    /// How spirv-opt failed, for the report.
    opt_note: Option<String>,
}

/// Everything about one module.
struct ModuleResult {
    name: String,
    identity: bool,
    outcomes: Vec<Outcome>,
}

/// Scratch files of one worker, in the system temp dir.
struct Scratch {
    theirs: PathBuf,
    ours: PathBuf,
}

impl Scratch {
    fn new(worker: usize) -> Scratch {
        let at = |what: &str| {
            std::env::temp_dir().join(format!(
                "opt_differential.{}.{worker}.{what}.spv",
                std::process::id()
            ))
        };
        Scratch {
            theirs: at("theirs"),
            ours: at("ours"),
        }
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.theirs);
        let _ = std::fs::remove_file(&self.ours);
    }
}

/// Paths of the SPIRV-Tools binaries.
struct Tools {
    opt: PathBuf,
    val: PathBuf,
}

/// Our output checked on its own: valid under the module's env, and stripped where the
/// case strips.
fn check_alone(
    case: &Case,
    entry: &Entry,
    input: &[u32],
    ours: &[u8],
    tools: &Tools,
    s: &Scratch,
) -> Verdict {
    if !entry.valid {
        return Verdict::Unchecked;
    }
    if let Err(e) = spirv_val_bytes(&tools.val, &entry.env, ours, &s.ours) {
        return Verdict::Invalid(e);
    }
    let words = words_of(ours);
    let left = case
        .strips_debug()
        .then(|| debug_left(input, &words))
        .flatten()
        .or_else(|| {
            case.strips_nonsemantic()
                .then(|| nonsemantic_left(&words))
                .flatten()
        });
    left.map_or(Verdict::Valid, Verdict::DebugLeft)
}

/// One case on one module.
fn run_case(
    case: &Case,
    entry: &Entry,
    m: &Module,
    identity: bool,
    tools: &Tools,
    s: &Scratch,
) -> Outcome {
    let args = case.args_for(&m.words);
    let ours = run_ours(&m.module, &args);
    let theirs = run_spirv_opt(&tools.opt, &args, &entry.path, &s.theirs);
    let opt_failed = theirs.output().is_none();
    let mut opt_note = match &theirs {
        Reference::Output(_) => None,
        Reference::Failed(code, e) => Some(format!("exit {code}: {}", first_line(e))),
        Reference::Crashed(e) => Some(format!("crashed: {}", first_line(e))),
    };
    let mut opt_invalid = false;
    let verdict = match ours {
        Ours::NotImplemented(what) => Verdict::NotImplemented(what),
        Ours::Error(e) => Verdict::Error(e),
        Ours::Output(ours) => match &theirs {
            Reference::Output(t) if *t == ours && identity => Verdict::Same,
            Reference::Output(t) if *t == ours => {
                check_alone(case, entry, &m.words, &ours, tools, s)
            }
            Reference::Output(t) => {
                if entry.valid {
                    if let Err(e) = spirv_val_file(&tools.val, &entry.env, &s.theirs) {
                        opt_invalid = true;
                        opt_note = Some(format!("spirv-val rejects its output: {e}"));
                    }
                }
                if identity && !opt_invalid {
                    Verdict::Diff(first_difference(&ours, t))
                } else {
                    check_alone(case, entry, &m.words, &ours, tools, s)
                }
            }
            Reference::Failed(..) | Reference::Crashed(_) => {
                check_alone(case, entry, &m.words, &ours, tools, s)
            }
        },
    };
    Outcome {
        verdict,
        opt_failed,
        opt_invalid,
        opt_note,
    }
}

/// The first line of `text`.
fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or("").trim()
}

/// A corpus module, read.
struct Module {
    words: Vec<u32>,
    module: spirv_core::Module,
}

/// Every case on one module, after the no-pass round trip.
fn run_module(entry: &Entry, cases: &[Case], tools: &Tools, s: &Scratch) -> ModuleResult {
    let bytes =
        std::fs::read(&entry.path).unwrap_or_else(|e| panic!("{}: {e}", entry.path.display()));
    let words = words_of(&bytes);
    let module = spirv_core::Module::from_words(&words)
        .unwrap_or_else(|e| panic!("{}: a corpus module does not read: {e}", entry.name));
    let identity =
        run_spirv_opt(&tools.opt, &[], &entry.path, &s.theirs).output() == Some(&bytes[..]);
    let m = Module { words, module };
    ModuleResult {
        name: entry.name.clone(),
        identity,
        outcomes: cases
            .iter()
            .map(|c| run_case(c, entry, &m, identity, tools, s))
            .collect(),
    }
}

/// Runs every case on `entries` on `jobs` workers; results in `entries`' order.
fn run_all(entries: &[Entry], cases: &[Case], tools: &Tools, jobs: usize) -> Vec<ModuleResult> {
    let next = AtomicUsize::new(0);
    let mut done: Vec<(usize, ModuleResult)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..jobs.max(1))
            .map(|w| {
                let next = &next;
                scope.spawn(move || {
                    let s = Scratch::new(w);
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(entry) = entries.get(i) else { break };
                        out.push((i, run_module(entry, cases, tools, &s)));
                    }
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
#[derive(Debug, Default, Clone)]
struct Tally {
    modules: usize,
    same: usize,
    diff: usize,
    valid: usize,
    invalid: usize,
    debug_left: usize,
    unchecked: usize,
    opt_failed: usize,
    opt_invalid: usize,
    not_implemented: usize,
    errors: usize,
    /// The flags named as not implemented.
    missing: std::collections::BTreeSet<String>,
}

impl Tally {
    fn add(&mut self, o: &Outcome) {
        self.modules += 1;
        self.opt_failed += usize::from(o.opt_failed);
        self.opt_invalid += usize::from(o.opt_invalid);
        match &o.verdict {
            Verdict::Same => self.same += 1,
            Verdict::Diff(_) => self.diff += 1,
            Verdict::Valid => self.valid += 1,
            Verdict::Invalid(_) => self.invalid += 1,
            Verdict::DebugLeft(_) => self.debug_left += 1,
            Verdict::Unchecked => self.unchecked += 1,
            Verdict::NotImplemented(w) => {
                self.not_implemented += 1;
                self.missing.insert(w.clone());
            }
            Verdict::Error(_) => self.errors += 1,
        }
    }

    fn failures(&self) -> usize {
        let missing = if require_implemented() {
            self.not_implemented
        } else {
            0
        };
        self.diff + self.invalid + self.debug_left + self.errors + missing
    }
}

const COLUMNS: [&str; 10] = [
    "modules",
    "same",
    "diff",
    "valid",
    "invalid",
    "dbg-left",
    "opt-crash",
    "opt-inval",
    "n/impl",
    "errors",
];

fn row(label: &str, t: &Tally) -> String {
    let n = [
        t.modules,
        t.same,
        t.diff,
        t.valid,
        t.invalid,
        t.debug_left,
        t.opt_failed,
        t.opt_invalid,
        t.not_implemented,
        t.errors,
    ];
    let mut s = format!("{label:<68}");
    for v in n {
        let _ = write!(s, " {v:>9}");
    }
    if !t.missing.is_empty() {
        let names: Vec<&str> = t.missing.iter().map(String::as_str).collect();
        let _ = write!(s, "  not implemented: {}", names.join(", "));
    }
    s
}

/// The table: one row per case, over the identity modules and the others.
fn table(cases: &[Case], results: &[ModuleResult]) -> (String, Vec<Tally>) {
    let mut tallies = vec![Tally::default(); cases.len()];
    for r in results {
        for (t, o) in tallies.iter_mut().zip(&r.outcomes) {
            t.add(o);
        }
    }
    let identity = results.iter().filter(|r| r.identity).count();
    let mut s = format!(
        "{} modules: {identity} that spirv-opt round-trips unchanged (same/diff: bytes), {} it does not (valid/invalid: spirv-val on ours)\n",
        results.len(),
        results.len() - identity
    );
    s += "valid/invalid also count identity modules where spirv-opt crashed (opt-crash: signal or exit != 0) or wrote what spirv-val rejects (opt-inval)\n";
    let _ = write!(s, "{:<68}", "pass / sequence");
    for c in COLUMNS {
        let _ = write!(s, " {c:>9}");
    }
    s.push('\n');
    for (case, t) in cases.iter().zip(&tallies) {
        s += &row(&case.label, t);
        s.push('\n');
    }
    (s, tallies)
}

/// Every finding, for the report: one line per module and case, `true` for failures
/// (and `false` for how spirv-opt failed, which is information).
fn findings(cases: &[Case], results: &[ModuleResult]) -> Vec<(bool, String)> {
    let mut out = Vec::new();
    for r in results {
        let set = if r.identity {
            "identity"
        } else {
            "not round-tripped"
        };
        for (case, o) in cases.iter().zip(&r.outcomes) {
            let (kind, text) = match &o.verdict {
                Verdict::Diff(d) => ("differs from spirv-opt", d),
                Verdict::Invalid(e) => ("spirv-val rejects ours", e),
                Verdict::DebugLeft(e) => ("not stripped", e),
                Verdict::Error(e) => ("our run failed", e),
                Verdict::NotImplemented(e) if require_implemented() => ("not implemented", e),
                _ => ("", &String::new()),
            };
            if !kind.is_empty() {
                out.push((
                    true,
                    format!("{}\t{}\t[{set}] {kind}: {text}", r.name, case.label),
                ));
            }
            if let Some(note) = &o.opt_note {
                out.push((
                    false,
                    format!("{}\t{}\t[{set}] spirv-opt: {note}", r.name, case.label),
                ));
            }
        }
    }
    out
}

/// `count` entries of `entries` chosen by `seed` (all if `None`), in manifest order.
fn sample(mut entries: Vec<Entry>, count: Option<usize>, seed: u64) -> Vec<Entry> {
    let Some(count) = count.filter(|&c| c < entries.len()) else {
        return entries;
    };
    let mut rng = Rng::new(seed);
    let mut picked: Vec<usize> = (0..entries.len()).collect();
    for i in 0..count {
        let j = i + rng.below(picked.len() - i);
        picked.swap(i, j);
    }
    picked.truncate(count);
    picked.sort_unstable();
    let keep: std::collections::HashSet<usize> = picked.into_iter().collect();
    let mut i = 0;
    entries.retain(|_| {
        i += 1;
        keep.contains(&(i - 1))
    });
    entries
}

#[test]
fn opt_matches_spirv_opt_on_the_corpus() {
    let what = "spirv-asm opt against spirv-opt on the corpus";
    let Some(dir) = require_corpus(what) else {
        return;
    };
    let Some(bin) = require_spirv_tools(what) else {
        return;
    };
    let tools = Tools {
        opt: bin.join("spirv-opt"),
        val: bin.join("spirv-val"),
    };
    let count = std::env::var("OPT_DIFF_MODULES")
        .ok()
        .and_then(|v| v.parse().ok());
    let seed = knob("OPT_DIFF_SEED", DEFAULT_SEED);
    let jobs = knob("OPT_DIFF_JOBS", 2usize);
    let report_path = std::env::var_os("OPT_DIFF_REPORT").map_or_else(
        || PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("opt_differential.txt"),
        PathBuf::from,
    );

    let start = Instant::now();
    let entries = sample(manifest(&dir), count, seed);
    let cases = cases();
    let results = run_all(&entries, &cases, &tools, jobs);
    let elapsed = start.elapsed();

    let (table, tallies) = table(&cases, &results);
    let settings = format!(
        "opt_differential: {} cases on {} corpus modules (OPT_DIFF_MODULES={}, seed {seed:#x}), {jobs} workers, {elapsed:.1?}",
        cases.len(),
        results.len(),
        count.map_or("all".to_owned(), |n: usize| n.to_string()),
    );
    say(&format!("{settings}\n{table}"));
    let found = findings(&cases, &results);
    let failing: Vec<&String> = found.iter().filter(|f| f.0).map(|f| &f.1).collect();
    let mut report = format!(
        "{settings}\n\n{table}\n{} failures, then {} notes on spirv-opt (module, flags, what):\n",
        failing.len(),
        found.len() - failing.len()
    );
    for (_, f) in found
        .iter()
        .filter(|f| f.0)
        .chain(found.iter().filter(|f| !f.0))
    {
        report += f;
        report.push('\n');
    }
    std::fs::write(&report_path, report)
        .unwrap_or_else(|e| panic!("{}: {e}", report_path.display()));
    say(&format!("findings written to {}", report_path.display()));

    assert_eq!(results.len(), entries.len());
    assert!(
        results.iter().any(|r| r.identity),
        "no module round-trips unchanged: is spirv-opt 2025.5?"
    );
    let failures: usize = tallies.iter().map(Tally::failures).sum();
    for f in failing.iter().take(30) {
        say(f);
    }
    assert!(
        failures == 0,
        "{failures} failures (diff, invalid, not stripped, errors{}); the first are above, all in {}",
        if require_implemented() {
            ", not implemented"
        } else {
            ""
        },
        report_path.display()
    );
}
