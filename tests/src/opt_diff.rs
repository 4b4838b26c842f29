//! What the `spirv-asm opt` tests share (`tests/tests/opt/differential.rs`,
//! `tests/tests/opt/synthetic.rs`): running our passes in-process (telling a pass that
//! is not implemented yet from one that fails), running SPIRV-Tools' `spirv-opt` and
//! `spirv-val`, the corpus manifest, the first differing instruction of two modules in
//! `spirv-dis --raw-id` form, the debug information a strip pass must leave out, and
//! `--set-spec-const-default-value` lists made from a module's `SpecId`s.

use spirv_asm::opt::SpirvAsNumbers;
use spirv_core::edit::EditError;
use spirv_core::spv::Opcode as O;
use spirv_opt::structural::StructuralPass;
use std::collections::{BTreeMap, BTreeSet};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::process::Command;

/// An environment knob, parsed, or `default`.
pub fn knob<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// With this variable set (not `0`), a pass that is not implemented is a failure instead
/// of a counted "not implemented" (for when every pass of `FLAGS` has been merged).
pub const REQUIRE_IMPLEMENTED_VAR: &str = "OPT_DIFF_REQUIRE_IMPLEMENTED";

/// Whether a pass that is not implemented fails the tests: yes (every pass is), unless
/// [`REQUIRE_IMPLEMENTED_VAR`] is `0`.
pub fn require_implemented() -> bool {
    std::env::var_os(REQUIRE_IMPLEMENTED_VAR).is_none_or(|v| v != "0")
}

/// One `bin` row of the corpus's MANIFEST.tsv.
#[derive(Debug, Clone)]
pub struct Entry {
    /// The module's name.
    pub name: String,
    /// Its file.
    pub path: PathBuf,
    /// The `--target-env` it validates under.
    pub env: String,
    /// spirv-val accepts it under `env`.
    pub valid: bool,
}

/// The `bin` rows of `dir/MANIFEST.tsv` (columns found by their header names), in
/// manifest order.
pub fn manifest(dir: &Path) -> Vec<Entry> {
    let text = std::fs::read_to_string(dir.join("MANIFEST.tsv")).expect("MANIFEST.tsv");
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("a header row").split('\t').collect();
    let col = |name: &str| {
        header
            .iter()
            .position(|&h| h == name)
            .unwrap_or_else(|| panic!("MANIFEST.tsv has no column {name}"))
    };
    let (name, kind, env, val, file) = (
        col("name"),
        col("kind"),
        col("val_env"),
        col("spirv_val"),
        col("file"),
    );
    lines
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .filter(|f| f.get(kind) == Some(&"bin"))
        .map(|f| Entry {
            name: f[name].to_owned(),
            path: dir.join(f[file]),
            env: f[env].to_owned(),
            valid: f[val] == "pass",
        })
        .collect()
}

/// Words from little-endian bytes (a trailing partial word is dropped).
pub fn words_of(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

/// The passes spirv-opt's arguments `args` name (`--flag`, `--flag=VALUE`, or
/// `--flag VALUE` for the flags that take a value), read as `spirv-asm opt` reads them.
///
/// # Errors
/// The argument that is not a pass, or the message of `StructuralPass::from_flag`.
pub fn passes_of(args: &[String]) -> Result<Vec<StructuralPass>, String> {
    let mut passes = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let flag = a
            .strip_prefix("--")
            .ok_or_else(|| format!("not a flag: {a}"))?;
        let (name, inline) = match flag.split_once('=') {
            Some((n, v)) => (n, Some(v.to_owned())),
            None => (flag, None),
        };
        let value = match (spirv_opt::registry::takes_value(name), inline) {
            (true, None) => Some(it.next().ok_or("a value is missing")?.clone()),
            (_, v) => v,
        };
        passes.push(StructuralPass::from_flag(name, value.as_deref())?);
    }
    Ok(passes)
}

/// What our `spirv_opt::structural::run` made of a module.
#[derive(Debug, Clone)]
pub enum Ours {
    /// The output module's bytes.
    Output(Vec<u8>),
    /// A pass is not implemented yet (it returns `EditError::NeedsNumberParser`, which
    /// `spirv_opt::structural::run` never causes, or its flag's value does not read): the
    /// flag and the message.
    NotImplemented(String),
    /// Another error, or a panic.
    Error(String),
}

/// A path's words and whether the module changed, its error's text, or a panic.
type Outcome = Result<Result<(Vec<u32>, bool), String>, ()>;

/// [`Outcome`] of a path run under `catch_unwind`.
fn flatten(r: std::thread::Result<Result<(Vec<u32>, bool), EditError>>) -> Outcome {
    r.map(|r| r.map_err(|e| e.to_string())).map_err(|_| ())
}

/// An [`Outcome`] with its words' count in place of the words, to print.
fn lengths(r: &Outcome) -> Result<Result<(usize, bool), &str>, ()> {
    r.as_ref()
        .map(|r| {
            r.as_ref()
                .map(|(w, c)| (w.len(), *c))
                .map_err(String::as_str)
        })
        .map_err(|_| ())
}

/// Runs spirv-opt's arguments `args` on `module` in-process (`spirv_opt::structural::run`),
/// and through the paths `spirv-asm opt` takes (`run_words`, on words it gives up and on
/// words it lends), which must give the same words
/// or the same error.
pub fn run_ours(module: &spirv_core::Module, args: &[String]) -> Ours {
    let passes = match passes_of(args) {
        Ok(p) => p,
        Err(e) => {
            let flag = args
                .first()
                .map_or("", |a| a.split('=').next().unwrap_or(a));
            return Ours::NotImplemented(format!("{flag} ({e})"));
        }
    };
    let run = |passes: &[StructuralPass]| {
        catch_unwind(AssertUnwindSafe(|| {
            spirv_opt::structural::run(module, passes, Some(&SpirvAsNumbers))
        }))
    };
    let result = run(&passes);
    let to_words = catch_unwind(AssertUnwindSafe(|| {
        spirv_opt::structural::run_words(module.to_words(), &passes, Some(&SpirvAsNumbers))
    }));
    // `run` as words, to compare with the paths that give words.
    let from_run = match &result {
        Ok(Ok((m, c))) => Ok(Ok((m.to_words(), *c))),
        Ok(Err(e)) => Ok(Err(e.to_string())),
        Err(_) => Err(()),
    };
    // And from lent words, as the streaming path runs what it can.
    let words = module.to_words();
    let from_words = catch_unwind(AssertUnwindSafe(|| {
        spirv_opt::structural::run_words(words.as_slice(), &passes, Some(&SpirvAsNumbers))
    }));
    let to_words = flatten(to_words);
    for (label, a, b) in [
        (
            "run_words on owned words disagrees with run",
            &to_words,
            &from_run,
        ),
        (
            "run_words on lent words disagrees with run_words on owned words",
            &flatten(from_words),
            &to_words,
        ),
    ] {
        if a != b {
            return Ours::Error(format!(
                "{label}: {:?} against {:?}",
                lengths(a),
                lengths(b)
            ));
        }
    }
    match result {
        Ok(Ok((m, _))) => Ours::Output(m.to_bytes()),
        Ok(Err(EditError::NeedsNumberParser)) => {
            // Name the first pass that is not implemented: the one that fails alone.
            let flag = passes
                .iter()
                .find(|p| {
                    matches!(
                        run(std::slice::from_ref(p)),
                        Ok(Err(EditError::NeedsNumberParser))
                    )
                })
                .map_or("?", |p| p.flag());
            Ours::NotImplemented(format!("--{flag}"))
        }
        Ok(Err(e)) => Ours::Error(format!("error: {e}")),
        Err(p) => Ours::Error(format!("panic: {}", panic_text(&p))),
    }
}

/// A panic's message.
pub fn panic_text(p: &Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<String>()
        .cloned()
        .or_else(|| p.downcast_ref::<&str>().map(|s| (*s).to_owned()))
        .unwrap_or_else(|| "(no message)".to_owned())
}

/// What `spirv-opt` made of a module.
#[derive(Debug, Clone)]
pub enum Reference {
    /// It exited 0 and wrote these bytes.
    Output(Vec<u8>),
    /// It exited with this non-zero code (it then copies its input to `-o`).
    Failed(i32, String),
    /// It died of a signal (a segfault).
    Crashed(String),
}

impl Reference {
    /// Exited 0.
    pub fn output(&self) -> Option<&[u8]> {
        match self {
            Reference::Output(b) => Some(b),
            _ => None,
        }
    }
}

/// Runs `spirv-opt --skip-validation ARGS INPUT -o OUT` and reads `OUT`.
pub fn run_spirv_opt(spirv_opt: &Path, args: &[String], input: &Path, out: &Path) -> Reference {
    let mut all = vec!["--skip-validation".to_owned()];
    all.extend_from_slice(args);
    run_spirv_opt_validating(spirv_opt, &all, input, out)
}

/// [`run_spirv_opt`] without `--skip-validation`: spirv-opt validates first, as users run
/// its presets.
pub fn run_spirv_opt_validating(
    spirv_opt: &Path,
    args: &[String],
    input: &Path,
    out: &Path,
) -> Reference {
    let _ = std::fs::remove_file(out);
    let o = Command::new(spirv_opt)
        .args(args)
        .arg(input)
        .arg("-o")
        .arg(out)
        .output()
        .expect("spirv-opt runs");
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    match o.status.code() {
        Some(0) => Reference::Output(std::fs::read(out).unwrap_or_default()),
        Some(c) => Reference::Failed(c, stderr),
        None => Reference::Crashed(format!("{} {stderr}", o.status)),
    }
}

/// `spirv-val --target-env ENV FILE`: `Err` with its message when it rejects.
pub fn spirv_val_file(spirv_val: &Path, env: &str, file: &Path) -> Result<(), String> {
    let o = Command::new(spirv_val)
        .args(["--target-env", env])
        .arg(file)
        .output()
        .expect("spirv-val runs");
    if o.status.success() {
        Ok(())
    } else {
        let text = String::from_utf8_lossy(&o.stderr).into_owned();
        Err(text.lines().take(2).collect::<Vec<_>>().join(" | "))
    }
}

/// [`spirv_val_file`] on `bytes`, written to `scratch` first.
pub fn spirv_val_bytes(
    spirv_val: &Path,
    env: &str,
    bytes: &[u8],
    scratch: &Path,
) -> Result<(), String> {
    std::fs::write(scratch, bytes).expect("write a scratch file");
    spirv_val_file(spirv_val, env, scratch)
}

/// The first line where the `spirv-dis --raw-id --no-indent` texts of `ours` and
/// `theirs` differ (the header comment included: the bound shows there), both sides,
/// or the first differing word when either does not disassemble.
pub fn first_difference(ours: &[u8], theirs: &[u8]) -> String {
    let options = spirv_asm::DisOptions {
        raw_id: true,
        indent: false,
        ..Default::default()
    };
    let dis = |b: &[u8]| spirv_asm::disassemble(&words_of(b), &options).ok();
    if let (Some(a), Some(b)) = (dis(ours), dis(theirs)) {
        let (a, b) = (String::from_utf8_lossy(&a), String::from_utf8_lossy(&b));
        let (la, lb): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
        let n = la.len().max(lb.len());
        if let Some(i) = (0..n).find(|&i| la.get(i) != lb.get(i)) {
            let show = |l: Option<&&str>| l.map_or("(end)".to_owned(), |s| format!("`{s}`"));
            return format!(
                "line {}: ours {} | spirv-opt {} ({} and {} lines)",
                i + 1,
                show(la.get(i)),
                show(lb.get(i)),
                la.len(),
                lb.len()
            );
        }
    }
    let (wa, wb) = (words_of(ours), words_of(theirs));
    match (0..wa.len().max(wb.len())).find(|&i| wa.get(i) != wb.get(i)) {
        Some(i) => format!(
            "word {i}: ours {:?} | spirv-opt {:?} ({} and {} words)",
            wa.get(i),
            wb.get(i),
            wa.len(),
            wb.len()
        ),
        None => "no difference".to_owned(),
    }
}

/// One instruction of a module: its opcode and all its words.
fn instructions(words: &[u32]) -> impl Iterator<Item = (O, &[u32])> {
    let mut i = 5;
    std::iter::from_fn(move || {
        let w = *words.get(i)?;
        let n = (w >> 16) as usize;
        if n == 0 || i + n > words.len() {
            return None;
        }
        let inst = &words[i..i + n];
        i += n;
        Some((O(w as u16), inst))
    })
}

/// A literal string's text (operand words from `words`).
fn string_at(words: &[u32]) -> String {
    let bytes: Vec<u8> = words
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .take_while(|&b| b != 0)
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// The names of the extended sets a module imports, by import id.
pub fn ext_sets(words: &[u32]) -> BTreeMap<u32, String> {
    instructions(words)
        .filter(|(op, w)| *op == O::ExtInstImport && w.len() > 2)
        .map(|(_, w)| (w[1], string_at(&w[2..])))
        .collect()
}

/// The texts of the `OpString`s a `NonSemantic.*` extended instruction of `words` uses
/// (those of `NonSemantic.Shader.DebugInfo.100` included).
fn nonsemantic_strings(words: &[u32]) -> BTreeSet<String> {
    let sets = ext_sets(words);
    let mut used = BTreeSet::new();
    for (op, w) in instructions(words) {
        if matches!(op, O::ExtInst | O::ExtInstWithForwardRefsKHR)
            && w.len() > 4
            && sets
                .get(&w[3])
                .is_some_and(|s| s.starts_with("NonSemantic."))
        {
            used.extend(w[5..].iter().copied());
        }
    }
    instructions(words)
        .filter(|(op, w)| *op == O::String && w.len() > 2 && used.contains(&w[1]))
        .map(|(_, w)| string_at(&w[2..]))
        .collect()
}

/// The debug information `--strip-debug` must leave out that `output` still has (the
/// first offending instruction, described). An `OpString` may stay if a
/// `NonSemantic.*` extended instruction of `input` used one with its text: spirv-opt
/// keeps those, even when the instructions that used them were debug information it
/// removed (`glslang__hlsl.multiReturn.frag__gV`, whose round trip is the identity).
pub fn debug_left(input: &[u32], output: &[u32]) -> Option<String> {
    let sets = ext_sets(output);
    let debug_set = |s: &str| {
        matches!(
            s,
            "DebugInfo" | "OpenCL.DebugInfo.100" | "NonSemantic.Shader.DebugInfo.100"
        )
    };
    let kept = nonsemantic_strings(input);
    for (op, w) in instructions(output) {
        match op {
            O::Line
            | O::NoLine
            | O::Name
            | O::MemberName
            | O::Source
            | O::SourceContinued
            | O::SourceExtension
            | O::ModuleProcessed => return Some(format!("an Op{op:?} is left")),
            O::String if w.len() > 2 && !kept.contains(&string_at(&w[2..])) => {
                return Some(format!(
                    "OpString %{} \"{}\" is left, which no non-semantic instruction of the input used",
                    w[1],
                    string_at(&w[2..])
                ));
            }
            O::ExtInst | O::ExtInstWithForwardRefsKHR if w.len() > 4 => {
                let set = sets.get(&w[3]).map_or("", String::as_str);
                if debug_set(set) {
                    return Some(format!("an OpExtInst {} of {set} is left", w[4]));
                }
            }
            _ => {}
        }
    }
    None
}

/// The non-semantic information `--strip-nonsemantic` must leave out, that `words`
/// still has: a `NonSemantic.*` import or an instruction of one.
pub fn nonsemantic_left(words: &[u32]) -> Option<String> {
    let sets = ext_sets(words);
    if let Some(name) = sets.values().find(|s| s.starts_with("NonSemantic.")) {
        return Some(format!("OpExtInstImport \"{name}\" is left"));
    }
    None
}

/// Each `SpecId` of a module with the kind of the constant it decorates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SpecKind {
    Bool(bool),
    Int { width: u32, signed: bool },
    Float { width: u32 },
    Other,
}

/// A `--set-spec-const-default-value` argument for `words`: for each `SpecId` (in
/// decoration order, followed through decoration groups), a value of its constant's
/// type in one of several spellings (decimal, hex, negative, hex float, a flipped
/// bool), now and then one that does not read or does not fit (spirv-opt leaves those
/// constants as they are), and last a spec id no constant has. Always at least that
/// last pair.
pub fn spec_const_values(words: &[u32]) -> String {
    let mut types: BTreeMap<u32, SpecKind> = BTreeMap::new();
    let mut consts: BTreeMap<u32, SpecKind> = BTreeMap::new();
    let mut spec_ids: Vec<(u32, u32)> = Vec::new();
    let mut groups: BTreeMap<u32, u32> = BTreeMap::new();
    for (op, w) in instructions(words) {
        match op {
            O::TypeInt if w.len() >= 4 => {
                types.insert(
                    w[1],
                    SpecKind::Int {
                        width: w[2],
                        signed: w[3] == 1,
                    },
                );
            }
            O::TypeFloat if w.len() >= 3 => {
                types.insert(w[1], SpecKind::Float { width: w[2] });
            }
            O::SpecConstantTrue | O::SpecConstantFalse if w.len() >= 3 => {
                consts.insert(w[2], SpecKind::Bool(op == O::SpecConstantTrue));
            }
            O::SpecConstant if w.len() >= 3 => {
                consts.insert(w[2], types.get(&w[1]).copied().unwrap_or(SpecKind::Other));
            }
            // OpDecorate %target SpecId N, exactly: spirv-opt reads no other shape.
            O::Decorate if w.len() == 4 && w[2] == 1 => spec_ids.push((w[3], w[1])),
            O::GroupDecorate if w.len() >= 3 => {
                groups.entry(w[1]).or_insert(w[2]);
            }
            _ => {}
        }
    }
    let mut pairs = Vec::new();
    let mut seen = BTreeSet::new();
    // spirv-opt refuses a list that names a spec id twice: each once, at its first.
    spec_ids.retain(|&(spec_id, _)| seen.insert(spec_id));
    for (k, &(spec_id, target)) in spec_ids.iter().enumerate() {
        let target = groups.get(&target).copied().unwrap_or(target);
        let kind = consts.get(&target).copied().unwrap_or(SpecKind::Other);
        if let Some(v) = value_for(kind, k) {
            pairs.push(format!("{spec_id}:{v}"));
        }
    }
    let unused = spec_ids
        .iter()
        .map(|&(s, _)| s)
        .max()
        .map_or(1000, |m| m.saturating_add(1000));
    pairs.push(format!("{unused}:1"));
    pairs.join(" ")
}

/// The `k`th value for a constant of `kind`, in one of the spellings by `k`.
fn value_for(kind: SpecKind, k: usize) -> Option<String> {
    Some(match kind {
        SpecKind::Bool(current) => match k % 3 {
            2 => "1".to_owned(),
            _ => (!current).to_string(),
        },
        SpecKind::Int { width, signed } => match k % 5 {
            0 => (k + 7).to_string(),
            1 => "0x1F".to_owned(),
            2 if signed => "-3".to_owned(),
            2 => (u64::MAX >> (64 - width.clamp(1, 64))).to_string(),
            3 => "1.5".to_owned(),
            _ => match width {
                0..=16 => "70000".to_owned(),
                17..=32 => "4294967296".to_owned(),
                _ => "18446744073709551616".to_owned(),
            },
        },
        SpecKind::Float { width } => match k % 4 {
            0 => "1.5e3".to_owned(),
            1 => "-0.25".to_owned(),
            2 if width == 64 => "1e300".to_owned(),
            2 => "0x1.8p1".to_owned(),
            _ => "abc".to_owned(),
        },
        SpecKind::Other => return None,
    })
}

/// `count` entries chosen by `seed` (all if `None`), in manifest order.
pub fn sample(entries: Vec<Entry>, count: Option<usize>, seed: u64) -> Vec<Entry> {
    let Some(count) = count.filter(|&c| c < entries.len()) else {
        return entries;
    };
    let mut rng = crate::mutate::Rng::new(seed);
    let mut picked: Vec<usize> = (0..entries.len()).collect();
    for i in 0..count {
        let j = i + rng.below(picked.len() - i);
        picked.swap(i, j);
    }
    picked.truncate(count);
    picked.sort_unstable();
    picked.into_iter().map(|i| entries[i].clone()).collect()
}
