//! What the `spirv-asm opt` tests on small modules share (`tests/tests/opt/synthetic.rs`,
//! `tests/tests/opt/lines.rs`): assembling, disassembling, one comparison of our run
//! with spirv-opt's on a module ([`compare`], [`Found`]), the arguments for each pass
//! flag, and corpus modules with debug lines and `OpNop`s inserted ([`line_mutant`]).

use crate::mutate::Rng;
use crate::opt_diff::{
    Ours, Reference, first_difference, require_implemented, run_ours, run_spirv_opt,
    spec_const_values, words_of,
};
use spirv_asm::{AsmOptions, assemble_str};
use spirv_core::spv::Opcode as O;
use spirv_core::{Module, Section};
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// Writes straight to standard error, which libtest does not capture.
pub fn say(text: &str) {
    let _ = writeln!(std::io::stderr(), "{text}");
}

/// A scratch folder for one test in the system temp dir, removed when dropped unless
/// the thread is panicking (then its files are left for a look).
pub struct ScratchDir(PathBuf);

impl std::ops::Deref for ScratchDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// A fresh [`ScratchDir`] named after `tag` and the process.
pub fn scratch(tag: &str) -> ScratchDir {
    let d = std::env::temp_dir().join(format!("opt-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("mkdir");
    ScratchDir(d)
}

/// `text` assembled with its numeric ids kept.
pub fn assemble(text: &str) -> Vec<u32> {
    let options = AsmOptions {
        preserve_numeric_ids: true,
        ..Default::default()
    };
    assemble_str(text, &options).unwrap_or_else(|e| panic!("does not assemble: {e}\n{text}"))
}

/// The little-endian bytes of `words`.
pub fn bytes(words: &[u32]) -> Vec<u8> {
    spirv_core::binary::words_to_bytes(words)
}

/// `spirv-dis --raw-id --no-indent --no-header` of `bytes`.
pub fn dis(bytes: &[u8]) -> String {
    let options = spirv_asm::DisOptions {
        raw_id: true,
        indent: false,
        header: false,
        ..Default::default()
    };
    let text = spirv_asm::disassemble(&words_of(bytes), &options).expect("disassembles");
    String::from_utf8(text).expect("UTF-8")
}

/// spirv-opt's arguments for one pass of `FLAGS` on `words`.
pub fn args_for(flag: &str, words: &[u32]) -> Vec<String> {
    match flag {
        "set-spec-const-default-value" => {
            vec![format!("--{flag}"), spec_const_values(words)]
        }
        "switch-descriptorset" => vec![format!("--{flag}=0:5")],
        f => vec![format!("--{f}")],
    }
}

/// What one comparison found.
pub enum Found {
    /// Byte-identical: the output.
    Same(Vec<u8>),
    /// A pass is not implemented yet: which.
    NotImplemented(String),
    /// Our output differs from spirv-opt's: ours, and the first difference.
    Differ(Vec<u8>, String),
    /// Both failed, described.
    BothFailed(String),
    /// We failed and spirv-opt did not, described.
    Bad(String),
    /// spirv-opt failed or crashed, and we did not: our output.
    OptFailed(Vec<u8>, String),
}

/// `args` on `words` (written to `dir/in.spv`) by both; byte identity expected.
pub fn compare(dir: &Path, words: &[u32], args: &[String]) -> Found {
    let input = dir.join("in.spv");
    std::fs::write(&input, bytes(words)).expect("write");
    let module = Module::from_words(words).expect("reads");
    let ours = run_ours(&module, args);
    let theirs = run_spirv_opt(
        &tools().join("spirv-opt"),
        args,
        &input,
        &dir.join("out.spv"),
    );
    match (ours, theirs) {
        (Ours::NotImplemented(w), _) => Found::NotImplemented(w),
        (Ours::Error(e), Reference::Output(_)) => Found::Bad(format!("ours failed: {e}")),
        (Ours::Error(e), t) => Found::BothFailed(format!("ours {e}; spirv-opt {t:?}")),
        (Ours::Output(o), Reference::Output(t)) if o == t => Found::Same(o),
        (Ours::Output(o), Reference::Output(t)) => {
            let d = first_difference(&o, &t);
            Found::Differ(o, d)
        }
        (Ours::Output(o), Reference::Failed(c, e)) => Found::OptFailed(o, format!("exit {c}: {e}")),
        (Ours::Output(o), Reference::Crashed(e)) => Found::OptFailed(o, e),
    }
}

/// SPIRV-Tools' folder (the tests that call this have checked it is there).
pub fn tools() -> PathBuf {
    crate::spirv_tools().expect("SPIRV-Tools")
}

/// `Some(())` when SPIRV-Tools is there, else a SKIP.
pub fn have_tools(what: &str) -> Option<()> {
    crate::require_spirv_tools(what).map(|_| ())
}

/// Reports a pass that is not implemented: a failure unless `OPT_DIFF_REQUIRE_IMPLEMENTED=0`.
pub fn not_implemented(case: &str, what: &str) {
    assert!(!require_implemented(), "{case}: {what} is not implemented");
    say(&format!("not implemented: {case}: {what}"));
}

/// Opcodes that end a block.
fn ends_block(op: O) -> bool {
    matches!(
        op,
        O::Branch
            | O::BranchConditional
            | O::Switch
            | O::Return
            | O::ReturnValue
            | O::Kill
            | O::Unreachable
            | O::TerminateInvocation
            | O::IgnoreIntersectionKHR
            | O::TerminateRayKHR
            | O::EmitMeshTasksEXT
    )
}

/// `words` with 1 to 8 random insertions: `OpLine`s (new, or a repeat of the line just
/// before) and `OpNoLine`s among the types, in functions and after the last function,
/// and `OpNop`s in blocks. An `OpString` is added when the module has none. `None` if
/// the module does not read.
pub fn line_mutant(words: &[u32], rng: &mut Rng) -> Option<Vec<u32>> {
    let m = Module::from_words(words).ok()?;
    let mut bound = m.header().bound;
    let strings: Vec<u32> = m
        .section(Section::DebugSource)
        .filter(|i| i.opcode() == O::String)
        .filter_map(|i| i.result_id().map(|id| id.0))
        .collect();
    let mut new_string = None;
    let file = match rng.pick(&strings) {
        Some(&s) => s,
        None => {
            new_string = Some(bound);
            bound += 1;
            bound - 1
        }
    };
    // Where a line may go (before instruction i) and where an OpNop may.
    let first = m.section_range(Section::Global).start;
    // An OpNop goes where spirv-val takes one: in a block, after its OpPhis and
    // OpVariables, not between a merge instruction and its branch.
    let (mut in_block, mut after_merge) = (false, false);
    let mut nop_at = Vec::new();
    for (i, inst) in m.instructions().enumerate() {
        let op = inst.opcode();
        if matches!(op, O::Line | O::NoLine) {
            continue;
        }
        if in_block && !after_merge && !matches!(op, O::Phi | O::Variable) {
            nop_at.push(i);
        }
        after_merge = matches!(op, O::SelectionMerge | O::LoopMerge);
        if op == O::Label {
            in_block = true;
        } else if ends_block(op) {
            in_block = false;
        }
    }
    let mut inserts: Vec<(usize, Vec<u32>)> = Vec::new();
    for _ in 0..1 + rng.below(8) {
        let at = first + rng.below(m.len() + 1 - first);
        let line = vec![(4 << 16) | 8, file, 1 + rng.below(3) as u32, 1];
        match rng.below(4) {
            0 | 1 => inserts.push((at, line)),
            2 => inserts.push((at, vec![(1 << 16) | 317])),
            _ => match rng.pick(&nop_at) {
                Some(&n) => inserts.push((n, vec![(1 << 16)])),
                None => inserts.push((at, line)),
            },
        }
        // Now and then a repeat of the line just placed.
        if rng.below(3) == 0 {
            if let Some((a, l)) = inserts.last().cloned().filter(|(_, l)| l.len() == 4) {
                inserts.push((a, l));
            }
        }
    }
    inserts.sort_by_key(|&(at, _)| at);
    let mut out = m.header().to_words().to_vec();
    out[3] = bound;
    let string_at = m.section_range(Section::DebugSource).start;
    let mut next = inserts.iter().peekable();
    for (i, inst) in m.instructions().enumerate() {
        if i == string_at {
            if let Some(id) = new_string {
                out.extend([
                    (4 << 16) | 7,
                    id,
                    u32::from_le_bytes(*b"m.gl"),
                    u32::from_le_bytes(*b"sl\0\0"),
                ]);
            }
        }
        while let Some((_, w)) = next.next_if(|(at, _)| *at == i) {
            out.extend_from_slice(w);
        }
        out.extend_from_slice(inst.words());
    }
    for (_, w) in next {
        out.extend_from_slice(w);
    }
    Some(out)
}
