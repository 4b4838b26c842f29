//! The validator's rule tests as data: the fixture format of `tests/fixtures/val/*.txt`
//! and the harness that runs a family of cases (`tests/tests/val/rules.rs`).
//!
//! A family file opens with `#` comment lines; then each case is
//!
//! ```text
//! === NAME
//! args: --target-env vulkan1.1 --scalar-block-layout
//! asm: --target-env spv1.3
//! --- spvasm
//! (the module)
//! --- spirv-val
//! (spirv-val 2025.5's standard error: empty when it accepts the module)
//! ```
//!
//! `args:` is spirv-val's command line. `asm:` (optional) is spirv-as's: the default is
//! `--target-env` of the same environment and `--preserve-numeric-ids`, and it knows
//! those two options. Our assembler writes the binary both validators read.
//!
//! Modules that share a long prologue name it: before the cases, a record `=== @NAME`
//! with only `--- spvasm` and a piece of module, which a case's module takes in whole
//! by a line `@NAME`.
//!
//! Our text must be the recorded one, or differ only by names the vendored grammar
//! renamed since SPIRV-Tools 2025.5 ([`crate::val_compare::judge`]). Every failing case
//! is reported with a diff. With `BLESS=1` the real spirv-val re-records each case's
//! output. In CI (`CI` or `SPIRV_TESTS_REQUIRE` set) spirv-val must be there and must
//! still print what is recorded; elsewhere the recorded text alone is used, so no
//! SPIRV-Tools is needed.

use crate::reference::Newer;
use crate::val_compare::{self, Verdict, diff, judge};
use spirv_asm::{AsmOptions, assemble_str};
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// One case of a family file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Case {
    /// Unique in its file.
    pub name: String,
    /// spirv-val's options.
    pub args: Vec<String>,
    /// spirv-as's options; empty: the default (see the module docs).
    pub asm: Vec<String>,
    /// The module.
    pub text: String,
    /// spirv-val's standard error (empty: valid).
    pub expected: String,
}

/// A family file: its leading comment, its shared pieces of modules, and its cases.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Family {
    /// The `#` lines before the first record, each with its newline.
    pub header: String,
    /// Named pieces of modules, `(NAME, text)`, which a case's module takes in whole by a
    /// line `@NAME`; defined before the cases, as records `=== @NAME` holding only
    /// `--- spvasm`.
    pub snippets: Vec<(String, String)>,
    /// The cases, in order.
    pub cases: Vec<Case>,
}

/// The folder of the family files.
pub fn dir() -> PathBuf {
    crate::workspace_root().join("tests/fixtures/val")
}

impl Family {
    /// Reads a family file's text.
    ///
    /// # Errors
    /// A line out of place, a record without its parts, a repeated name, or a snippet
    /// after a case.
    pub fn parse(text: &str) -> Result<Family, String> {
        let mut f = Family {
            header: String::new(),
            snippets: Vec::new(),
            cases: Vec::new(),
        };
        // The record being read: a snippet or a case.
        let mut snippet = false;
        // 0: the case's header lines; 1: the module; 2: spirv-val's output.
        let mut part = 0;
        let mut started = false;
        for (n, line) in text.split_inclusive('\n').enumerate() {
            let at = n + 1;
            if let Some(name) = line.strip_prefix("=== ") {
                let name = name.trim_end().to_owned();
                if started && !snippet && part != 2 {
                    return Err(format!("line {at}: the case before is incomplete"));
                }
                if started && snippet && part != 1 {
                    return Err(format!("line {at}: the snippet before is incomplete"));
                }
                started = true;
                part = 0;
                if let Some(name) = name.strip_prefix('@') {
                    if !f.cases.is_empty() {
                        return Err(format!("line {at}: snippet @{name} after a case"));
                    }
                    if f.snippets.iter().any(|(n, _)| n == name) {
                        return Err(format!("line {at}: snippet @{name} is there twice"));
                    }
                    f.snippets.push((name.to_owned(), String::new()));
                    snippet = true;
                    continue;
                }
                if f.cases.iter().any(|c| c.name == name) {
                    return Err(format!("line {at}: case {name} is there twice"));
                }
                f.cases.push(Case {
                    name,
                    args: Vec::new(),
                    asm: Vec::new(),
                    text: String::new(),
                    expected: String::new(),
                });
                snippet = false;
                continue;
            }
            if !started {
                if line.starts_with('#') || line.trim().is_empty() {
                    f.header.push_str(line);
                    continue;
                }
                return Err(format!("line {at}: want `# comment` or `=== NAME`"));
            }
            if snippet {
                let body = &mut f.snippets.last_mut().expect("a snippet").1;
                match (part, line.trim_end()) {
                    (0, "--- spvasm") => part = 1,
                    (1, _) => body.push_str(line),
                    _ => return Err(format!("line {at}: unexpected {:?}", line.trim_end())),
                }
                continue;
            }
            let case = f.cases.last_mut().expect("a case");
            let words = |l: &str| l.split_whitespace().map(str::to_owned).collect();
            match (part, line.trim_end()) {
                (0, l) if l.starts_with("args:") => case.args = words(&l[5..]),
                (0, l) if l.starts_with("asm:") => case.asm = words(&l[4..]),
                (0, "--- spvasm") => part = 1,
                (1, "--- spirv-val") => part = 2,
                (1, _) => case.text.push_str(line),
                (2, _) => case.expected.push_str(line),
                _ => return Err(format!("line {at}: unexpected {:?}", line.trim_end())),
            }
        }
        if started && (if snippet { part != 1 } else { part != 2 }) {
            return Err("the last record is incomplete".to_owned());
        }
        Ok(f)
    }

    /// The file's text; [`Family::parse`] reads it back.
    pub fn to_text(&self) -> String {
        let mut s = self.header.clone();
        for (name, text) in &self.snippets {
            let _ = write!(s, "=== @{name}\n--- spvasm\n{text}");
        }
        for c in &self.cases {
            let _ = writeln!(s, "=== {}\nargs: {}", c.name, c.args.join(" "));
            if !c.asm.is_empty() {
                let _ = writeln!(s, "asm: {}", c.asm.join(" "));
            }
            let _ = write!(s, "--- spvasm\n{}--- spirv-val\n{}", c.text, c.expected);
        }
        s
    }

    /// A case's module, each `@NAME` line replaced by its snippet.
    ///
    /// # Errors
    /// A snippet the file does not define.
    pub fn module(&self, case: &Case) -> Result<String, String> {
        let mut out = String::with_capacity(case.text.len());
        for line in case.text.split_inclusive('\n') {
            match line.trim_end().strip_prefix('@') {
                Some(name) => {
                    let (_, text) = self
                        .snippets
                        .iter()
                        .find(|(n, _)| n == name)
                        .ok_or(format!("no snippet @{name}"))?;
                    out.push_str(text);
                }
                None => out.push_str(line),
            }
        }
        Ok(out)
    }
}

impl Case {
    /// spirv-val's `--target-env` value.
    fn env(&self) -> Option<&str> {
        let i = self.args.iter().position(|a| a == "--target-env")?;
        self.args.get(i + 1).map(String::as_str)
    }

    /// Our assembler's options from `asm:` (or the default).
    fn asm_options(&self) -> Result<AsmOptions, String> {
        let mut o = AsmOptions {
            preserve_numeric_ids: self.asm.is_empty(),
            ..AsmOptions::default()
        };
        let mut env = self.env().map(str::to_owned);
        let mut it = self.asm.iter();
        while let Some(a) = it.next() {
            match a.as_str() {
                "--preserve-numeric-ids" => o.preserve_numeric_ids = true,
                "--target-env" => env = Some(it.next().ok_or("asm: --target-env")?.clone()),
                other => return Err(format!("asm: unknown option {other}")),
            }
        }
        if let Some(env) = env {
            o.version =
                Some(spirv_core::target_env_version(&env).ok_or(format!("unknown env {env}"))?);
        }
        Ok(o)
    }

    /// `module` (this case's, snippets taken in) as our assembler writes it.
    ///
    /// # Errors
    /// Bad `asm:` options, or assembly that does not assemble.
    pub fn words(&self, module: &str) -> Result<Vec<u32>, String> {
        assemble_str(module, &self.asm_options()?).map_err(|e| format!("assembly: {e}"))
    }
}

/// Whether the live comparison with spirv-val runs without `BLESS`: in CI.
fn in_ci() -> bool {
    let set = |v: &str| std::env::var(v).is_ok_and(|v| !v.is_empty() && v != "0" && v != "false");
    set("CI") || set(crate::REQUIRE_VAR)
}

/// Runs every case of the family file `file` (in [`dir`]) and panics listing every
/// failing one; with `BLESS` set, re-records the file from spirv-val first.
///
/// # Panics
/// On any failing case, a file that does not read, or (in CI or when blessing) a
/// missing SPIRV-Tools 2025.5.
pub fn check(file: &str) {
    let path = dir().join(file);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("the fixture {}: {e}", path.display()));
    let mut family = Family::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(!family.cases.is_empty(), "{}: no case", path.display());
    let bless = std::env::var_os("BLESS").is_some_and(|v| v != "0");
    let tools = if bless || in_ci() {
        let t = crate::spirv_tools();
        assert!(
            t.is_some(),
            "{file}: SPIRV-Tools 2025.5 is needed to {} (set SPIRV_TOOLS_BIN=dir)",
            if bless {
                "bless"
            } else {
                "check the recorded texts in CI"
            }
        );
        t
    } else {
        None
    };
    let scratch = std::env::temp_dir().join(format!(
        "spirv-tests-val-fixture-{}-{}.spv",
        std::process::id(),
        file.replace('/', "_")
    ));
    let mut failures = Vec::new();
    let (mut rejected, mut renamed) = (0, Vec::new());
    let modules: Vec<Result<String, String>> =
        family.cases.iter().map(|c| family.module(c)).collect();
    // Items whose operands the vendored grammar changed since SPIRV-Tools 2025.5: no
    // text is valid for both, so cases that use one are left out, and listed.
    let changed: Vec<&str> = Newer::of_vendored()
        .changed_layouts
        .iter()
        .filter_map(|l| l.rsplit("::").next())
        .collect();
    let mut left_out = Vec::new();
    for (case, module) in family.cases.iter_mut().zip(modules) {
        let what = format!("{} ({})", case.name, case.args.join(" "));
        if let Ok(m) = &module {
            if m.split_whitespace().any(|t| changed.contains(&t)) {
                left_out.push(case.name.clone());
                continue;
            }
        }
        let words = match module.and_then(|m| case.words(&m)) {
            Ok(w) => w,
            Err(e) => {
                failures.push(format!("{what}: {e}"));
                continue;
            }
        };
        if let Some(bin) = &tools {
            let (theirs, _) = val_compare::spirv_val(bin, &scratch, &words, &case.args);
            if bless {
                case.expected = theirs;
            } else if theirs != case.expected {
                failures.push(format!(
                    "{what}: spirv-val no longer prints what is recorded:\n{}",
                    diff(&case.expected, &theirs)
                ));
            }
        }
        let options = match val_compare::options(&case.args) {
            Ok(o) => o,
            Err(e) => {
                failures.push(format!("{what}: args: {e}"));
                continue;
            }
        };
        let ours = match val_compare::ours(&words, &options) {
            Ok(o) => o.unwrap_or_default(),
            Err(panic) => {
                failures.push(format!("{what}: ours panicked: {panic}"));
                continue;
            }
        };
        rejected += usize::from(!ours.is_empty());
        match judge(&ours, &case.expected) {
            Verdict::Same => {}
            Verdict::Renamed(pairs) => renamed.extend(pairs),
            Verdict::Differs => failures.push(format!(
                "{what}: (- spirv-val, + ours)\n{}",
                diff(&case.expected, &ours)
            )),
        }
    }
    let _ = std::fs::remove_file(&scratch);
    if bless && family.to_text() != text {
        std::fs::write(&path, family.to_text()).expect("bless the fixture");
    }
    renamed.sort();
    renamed.dedup();
    let renamed: Vec<String> = renamed
        .iter()
        .map(|(o, t)| format!("{o} (was {t})"))
        .collect();
    let _ = std::io::Write::write_all(
        &mut std::io::stderr(),
        format!(
            "val fixture {file}: {} cases ({rejected} rejected){}{}{}\n",
            family.cases.len(),
            if tools.is_some() {
                ", each also through spirv-val"
            } else {
                ""
            },
            if renamed.is_empty() {
                String::new()
            } else {
                format!("; renamed since SPIRV-Tools 2025.5: {}", renamed.join(", "))
            },
            if left_out.is_empty() {
                String::new()
            } else {
                format!(
                    "; left out, an item's operands changed since SPIRV-Tools 2025.5: {}",
                    left_out.join(", ")
                )
            }
        )
        .as_bytes(),
    );
    assert!(
        failures.is_empty(),
        "{} of {} cases of {file} fail:\n\n{}",
        failures.len(),
        family.cases.len(),
        failures.join("\n")
    );
}

/// The family files in [`dir`], by file name.
pub fn families() -> Vec<String> {
    crate::files(&dir(), "txt")
        .iter()
        .filter_map(|p| Path::new(p).file_name())
        .map(|f| f.to_string_lossy().into_owned())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_family_reads_back_as_written() {
        let text = "# comment\n=== a\nargs: --target-env spv1.0\n--- spvasm\nOpNop\n--- spirv-val\n\
                    === b\nargs: --target-env vulkan1.1 --relax-block-layout\nasm: --target-env spv1.3\n\
                    --- spvasm\nX\n--- spirv-val\nerror: line 1: x\n  X\n\n";
        let f = Family::parse(text).expect("parses");
        assert_eq!(f.cases.len(), 2);
        assert_eq!(f.cases[1].asm, ["--target-env", "spv1.3"]);
        assert_eq!(f.cases[1].expected, "error: line 1: x\n  X\n\n");
        assert_eq!(f.to_text(), text);
        assert!(Family::parse("=== a\n=== a\n").is_err());
        assert!(Family::parse("=== a\nargs:\n--- spvasm\n").is_err());
        assert!(Family::parse("stray\n").is_err());
        let text =
            "=== @head\n--- spvasm\nA\nB\n=== c\nargs: -x\n--- spvasm\n@head\nC\n--- spirv-val\n";
        let f = Family::parse(text).expect("parses");
        assert_eq!(f.module(&f.cases[0]).as_deref(), Ok("A\nB\nC\n"));
        assert_eq!(f.to_text(), text);
        assert!(
            Family::parse("=== c\nargs:\n--- spvasm\n--- spirv-val\n=== @late\n--- spvasm\n")
                .is_err()
        );
    }
}
