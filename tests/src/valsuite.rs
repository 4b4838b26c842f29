//! spirv-val's own unit tests as data (`../shared/valsuite`: every validation call of
//! SPIRV-Tools 2025.5's `test/val`, replayed through the real spirv-val, with its exit
//! code and whole output) run through our validator in process, and scored by family as
//! `../shared/valsuite/score.py` scores the command line: false rejects, rejections
//! detected, the identical first line, crashes.
//!
//! Floors per family live in `tests/fixtures/valsuite-floors.txt`, so agreement can only
//! go up: a family that detects fewer rejections, or words fewer first lines as
//! spirv-val does, than its floor fails the test. `BLESS=1` rewrites the floors from the
//! run, never below what they were.

use crate::val_compare::{self, Verdict};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The suite: `$SPIRV_VALSUITE`, else `../shared/valsuite` beside the workspace.
pub fn dir() -> Option<PathBuf> {
    let dir = match std::env::var_os("SPIRV_VALSUITE") {
        Some(d) => PathBuf::from(d),
        None => crate::workspace_root().join("../shared/valsuite"),
    };
    dir.join("README.md").is_file().then_some(dir)
}

/// The floors file, by family.
pub fn floors_path() -> PathBuf {
    crate::workspace_root().join("tests/fixtures/valsuite-floors.txt")
}

/// One case: spirv-val's flags, the module, and spirv-val's answer.
#[derive(Debug, Clone)]
pub struct Case {
    /// The case's number, unique across the suite.
    pub id: u32,
    /// The family: the test source file's stem (`val_image_test`).
    pub family: String,
    /// spirv-val's command-line flags.
    pub flags: Vec<String>,
    /// Whether spirv-val rejects the module.
    pub rejected: bool,
    /// The module.
    pub words: Vec<u32>,
    /// spirv-val's whole output.
    pub output: String,
}

/// Undoes the suite's escapes of `\n`, `\t`, `\r` and `\\`.
fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

/// Reads every family file of the suite in `dir`, in name order.
///
/// # Errors
/// A file that does not read, or a line that is not a case.
pub fn read(dir: &Path) -> Result<Vec<Case>, String> {
    let mut cases = Vec::new();
    for path in crate::files(dir, "tsv") {
        let family = crate::stem(&path);
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        for (n, line) in text.lines().enumerate().skip(1) {
            let at = || format!("{}:{}", path.display(), n + 1);
            let cols: Vec<&str> = line.split('\t').collect();
            let [id, _test, flags, rc, words, output] = cols[..] else {
                return Err(format!("{}: {} columns, not 6", at(), cols.len()));
            };
            if words.len() % 8 != 0 {
                return Err(format!("{}: the module is not whole words", at()));
            }
            let words = (0..words.len())
                .step_by(8)
                .map(|i| u32::from_str_radix(&words[i..i + 8], 16))
                .collect::<Result<Vec<u32>, _>>()
                .map_err(|e| format!("{}: {e}", at()))?;
            cases.push(Case {
                id: id.parse().map_err(|e| format!("{}: id: {e}", at()))?,
                family: family.clone(),
                flags: flags.split_whitespace().map(str::to_owned).collect(),
                rejected: rc != "0",
                words,
                output: unescape(output),
            });
        }
    }
    Ok(cases)
}

/// How one family did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Tally {
    /// Cases run.
    pub cases: u32,
    /// Cases spirv-val rejects.
    pub rejects: u32,
    /// Of those, the cases we reject too.
    pub detected: u32,
    /// Of those, the cases whose first line is spirv-val's.
    pub same_first_line: u32,
    /// Of those, the cases whose whole output is spirv-val's.
    pub same_output: u32,
    /// Cases spirv-val accepts and we reject.
    pub false_rejects: u32,
    /// Cases where our validator panicked.
    pub crashes: u32,
    /// Cases left out, see [`layout_changed`].
    pub left_out: u32,
}

impl Tally {
    fn add(&mut self, other: &Tally) {
        self.cases += other.cases;
        self.rejects += other.rejects;
        self.detected += other.detected;
        self.same_first_line += other.same_first_line;
        self.same_output += other.same_output;
        self.false_rejects += other.false_rejects;
        self.crashes += other.crashes;
        self.left_out += other.left_out;
    }
}

/// What went wrong on one case, for the failure report.
#[derive(Debug, Clone)]
pub struct Miss {
    /// The case's number.
    pub id: u32,
    /// What happened.
    pub what: String,
}

/// Runs one case; adds it to `tally`, and returns what went wrong on a false reject, a
/// crash or flags we do not take.
pub fn run(case: &Case, tally: &mut Tally) -> Option<Miss> {
    tally.cases += 1;
    tally.rejects += u32::from(case.rejected);
    let miss = |what: String| Some(Miss { id: case.id, what });
    let options = match val_compare::options(&case.flags) {
        Ok(o) => o,
        Err(e) => return miss(format!("flags {:?}: {e}", case.flags)),
    };
    let ours = match val_compare::ours(&case.words, &options) {
        Ok(o) => o,
        Err(panic) => {
            tally.crashes += 1;
            return miss(format!("panicked: {panic}"));
        }
    };
    match (ours, case.rejected) {
        (None, _) => None,
        (Some(text), false) => {
            tally.false_rejects += 1;
            miss(format!("spirv-val accepts; ours: {text}"))
        }
        (Some(text), true) => {
            tally.detected += 1;
            let first = |s: &str| s.lines().next().unwrap_or("").to_owned();
            let agrees = |o: &str, t: &str| val_compare::judge(o, t) != Verdict::Differs;
            tally.same_first_line += u32::from(agrees(&first(&text), &first(&case.output)));
            tally.same_output += u32::from(agrees(&text, &case.output));
            None
        }
    }
}

/// Whether `case` uses an instruction whose operands the vendored grammar changed since
/// SPIRV-Tools 2025.5 in a way no module is valid for both (as the grammar drill makes):
/// such cases are left out, as the rule fixtures leave them out.
pub fn layout_changed(case: &Case) -> bool {
    let changed = &crate::reference::Newer::of_vendored().changed_layouts;
    if changed.is_empty() {
        return false;
    }
    let mut at = 5;
    while let Some(&word) = case.words.get(at) {
        let name = spirv_core::spv::GRAMMAR
            .instruction(word & 0xffff)
            .map_or("", |i| i.opname);
        if changed.iter().any(|l| l == name) {
            return true;
        }
        at += usize::try_from(word >> 16).unwrap_or(1).max(1);
    }
    false
}

/// Runs `cases` on every core; the tally by family and what went wrong. Cases
/// [`layout_changed`] picks are not run.
pub fn run_all(cases: &[Case]) -> (BTreeMap<String, Tally>, Vec<Miss>) {
    let threads = std::thread::available_parallelism().map_or(2, usize::from);
    let chunk = cases.len().div_ceil(threads).max(1);
    let parts: Vec<(BTreeMap<String, Tally>, Vec<Miss>)> = std::thread::scope(|s| {
        let handles: Vec<_> = cases
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    let mut by_family: BTreeMap<String, Tally> = BTreeMap::new();
                    let mut misses = Vec::new();
                    for case in part {
                        let tally = by_family.entry(case.family.clone()).or_default();
                        if layout_changed(case) {
                            tally.left_out += 1;
                            continue;
                        }
                        misses.extend(run(case, tally));
                    }
                    (by_family, misses)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a valsuite worker"))
            .collect()
    });
    let mut by_family: BTreeMap<String, Tally> = BTreeMap::new();
    let mut misses = Vec::new();
    for (part, m) in parts {
        for (family, t) in part {
            by_family.entry(family).or_default().add(&t);
        }
        misses.extend(m);
    }
    misses.sort_by_key(|m| m.id);
    (by_family, misses)
}

/// A family's floors: the fewest rejections detected, and first lines as spirv-val's.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Floor {
    /// Rejections detected.
    pub detected: u32,
    /// Identical first lines.
    pub same_first_line: u32,
}

/// Reads the floors file: `family detected same_first_line` per line, `#` comments.
///
/// # Errors
/// A line that is not three fields with two numbers.
pub fn read_floors(text: &str) -> Result<BTreeMap<String, Floor>, String> {
    let mut floors = BTreeMap::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let bad = || format!("line {}: want `family detected same_first_line`", n + 1);
        let mut f = line.split_whitespace();
        let (Some(family), Some(d), Some(s), None) = (f.next(), f.next(), f.next(), f.next())
        else {
            return Err(bad());
        };
        let floor = Floor {
            detected: d.parse().map_err(|_| bad())?,
            same_first_line: s.parse().map_err(|_| bad())?,
        };
        floors.insert(family.to_owned(), floor);
    }
    Ok(floors)
}

/// The floors file for `by_family`, each floor at least `old`'s.
pub fn write_floors(by_family: &BTreeMap<String, Tally>, old: &BTreeMap<String, Floor>) -> String {
    let mut out = String::from(
        "# Floors of tests/tests/val/rules.rs's valsuite test: per family of ../shared/valsuite,\n\
         # the fewest of spirv-val's rejections our validator must detect, and the fewest of\n\
         # those whose first line must be spirv-val's. `BLESS=1` raises them from a run.\n\
         # family detected same_first_line\n",
    );
    for (family, t) in by_family {
        let was = old.get(family).copied().unwrap_or_default();
        let _ = writeln!(
            out,
            "{family} {} {}",
            t.detected.max(was.detected),
            t.same_first_line.max(was.same_first_line)
        );
    }
    out
}

/// The table by family, most missed rejections first, and a total line.
pub fn report(by_family: &BTreeMap<String, Tally>) -> String {
    let mut rows: Vec<(&String, &Tally)> = by_family.iter().collect();
    rows.sort_by_key(|(f, t)| (std::cmp::Reverse(t.rejects - t.detected), (*f).clone()));
    let mut out = format!(
        "{:<56} {:>6} {:>6} {:>6} {:>6} {:>7} {:>5} {:>5}\n",
        "family", "cases", "sv-rej", "detect", "missed", "sametxt", "f-rej", "crash"
    );
    let mut total = Tally::default();
    for (family, t) in rows {
        total.add(t);
        let _ = writeln!(
            out,
            "{family:<56} {:>6} {:>6} {:>6} {:>6} {:>7} {:>5} {:>5}",
            t.cases,
            t.rejects,
            t.detected,
            t.rejects - t.detected,
            t.same_first_line,
            t.false_rejects,
            t.crashes
        );
    }
    let pct = |n: u32| 100.0 * f64::from(n) / f64::from(total.rejects.max(1));
    let _ = writeln!(
        out,
        "valsuite: {} cases; false rejects {}; detected {}/{} ({:.1}%); identical first line {} ({:.1}%); \
         identical output {} ({:.1}%); crashes {}",
        total.cases,
        total.false_rejects,
        total.detected,
        total.rejects,
        pct(total.detected),
        total.same_first_line,
        pct(total.same_first_line),
        total.same_output,
        pct(total.same_output),
        total.crashes
    );
    out
}
