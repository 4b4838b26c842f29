//! How the validator's tests hold our text against spirv-val 2025.5's: run ours on a
//! module (a panic is an answer, not a crash of the test), run the real spirv-val with
//! the same options, and judge the two texts. Every validator test that compares texts
//! goes through [`judge`]: texts that differ only by names a newer vendored grammar
//! renamed since SPIRV-Tools 2025.5 (see [`crate::reference::Newer::renamed_only`])
//! agree. The rule fixtures (`val_fixture`), the mutant differential and the glslang
//! corpus share it.

use crate::reference::Newer;
use spirv_asm::val::spirv_val_text;
use spirv_core::TargetEnv;
use spirv_core::validate::Options;
use std::fmt::Write;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::process::Command;

/// How our text stands to spirv-val's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Byte for byte the same.
    Same,
    /// The same but for these `(ours, theirs)` names, which the vendored grammar
    /// renamed since SPIRV-Tools 2025.5.
    Renamed(Vec<(String, String)>),
    /// Anything else.
    Differs,
}

impl Verdict {
    /// Whether the texts agree (the same, or renamed only).
    pub fn agrees(&self) -> bool {
        !matches!(self, Verdict::Differs)
    }
}

/// Judges `ours` against `theirs` (spirv-val's text, live or recorded).
pub fn judge(ours: &str, theirs: &str) -> Verdict {
    if ours == theirs {
        return Verdict::Same;
    }
    match Newer::of_vendored().renamed_only(ours.as_bytes(), theirs.as_bytes()) {
        Some(pairs) if !pairs.is_empty() => Verdict::Renamed(pairs),
        _ => Verdict::Differs,
    }
}

/// Whether two optional texts agree (`None`: the module is valid).
pub fn agree(ours: Option<&str>, theirs: Option<&str>) -> bool {
    match (ours, theirs) {
        (None, None) => true,
        (Some(o), Some(t)) => judge(o, t).agrees(),
        _ => false,
    }
}

/// Our validator's text for `words` (`None`: valid); `Err` with the message if it
/// panicked.
pub fn ours(words: &[u32], options: &Options<'_>) -> Result<Option<String>, String> {
    catch_unwind(AssertUnwindSafe(|| spirv_val_text(words, options))).map_err(|p| {
        p.downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| (*s).to_owned()))
            .unwrap_or_else(|| "(no message)".to_owned())
    })
}

/// Our validator's text for `words` under the environment `env` and default options.
pub fn ours_in(words: &[u32], env: &str) -> Result<Option<String>, String> {
    let target_env = TargetEnv::parse(env).unwrap_or_else(|| panic!("unknown env {env}"));
    ours(
        words,
        &Options {
            target_env,
            ..Options::default()
        },
    )
}

/// The real spirv-val's standard error and exit status for `words` under its command
/// line options `args`, through the scratch file `file`.
pub fn spirv_val(bin: &Path, file: &Path, words: &[u32], args: &[String]) -> (String, Option<i32>) {
    std::fs::write(file, spirv_core::binary::words_to_bytes(words)).expect("write temp file");
    let out = Command::new(bin.join("spirv-val"))
        .args(args)
        .arg(file)
        .output()
        .expect("spirv-val runs");
    (
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code(),
    )
}

/// spirv-val's options (its command line, `--target-env` included) as [`Options`].
///
/// # Errors
/// An option this harness does not know, or a bad value.
pub fn options(args: &[String]) -> Result<Options<'static>, String> {
    let mut o = Options::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let flag = match a.as_str() {
            "--relax-logical-pointer" => &mut o.relax_logical_pointer,
            "--relax-block-layout" => &mut o.relax_block_layout,
            "--uniform-buffer-standard-layout" => &mut o.uniform_buffer_standard_layout,
            "--scalar-block-layout" => &mut o.scalar_block_layout,
            "--workgroup-scalar-block-layout" => &mut o.workgroup_scalar_block_layout,
            "--skip-block-layout" => &mut o.skip_block_layout,
            "--relax-struct-store" => &mut o.relax_struct_store,
            "--before-hlsl-legalization" => &mut o.before_hlsl_legalization,
            "--allow-localsizeid" => &mut o.allow_localsizeid,
            "--allow-offset-texture-operand" => &mut o.allow_offset_texture_operand,
            "--allow-vulkan-32-bit-bitwise" => &mut o.allow_vulkan_32_bit_bitwise,
            "--target-env" => {
                let env = it.next().ok_or("--target-env wants a value")?;
                o.target_env = TargetEnv::parse(env).ok_or(format!("unknown env {env}"))?;
                continue;
            }
            other => {
                // A limit: `--max-NAME N` (spirv-val's form) or `--max-NAME=N`.
                let limit = other
                    .strip_prefix("--max-")
                    .ok_or(format!("unknown option {other}"))?;
                let (name, value) = match limit.split_once('=') {
                    Some((name, value)) => (name, value),
                    None => (limit, it.next().map_or("", String::as_str)),
                };
                let value: u32 = value.parse().map_err(|_| format!("bad value in {other}"))?;
                let l = &mut o.limits;
                *match name {
                    "struct-members" => &mut l.max_struct_members,
                    // spirv-val 2025.5 takes only the second spelling; its help names the first.
                    "struct-depth" | "struct_depth" => &mut l.max_struct_depth,
                    "local-variables" => &mut l.max_local_variables,
                    "global-variables" => &mut l.max_global_variables,
                    "switch-branches" => &mut l.max_switch_branches,
                    "function-args" => &mut l.max_function_args,
                    "control-flow-nesting-depth" => &mut l.max_control_flow_nesting_depth,
                    "access-chain-indexes" => &mut l.max_access_chain_indexes,
                    "id-bound" => &mut l.max_id_bound,
                    _ => return Err(format!("unknown option {other}")),
                } = value;
                continue;
            }
        };
        *flag = true;
    }
    Ok(o)
}

/// A line diff of `want` (`-`) against `got` (`+`), common lines with a space; for
/// test failures, so texts of a few lines. Past a size where the table would be large,
/// both texts whole.
pub fn diff(want: &str, got: &str) -> String {
    let (w, g): (Vec<&str>, Vec<&str>) = (want.lines().collect(), got.lines().collect());
    let mut out = String::new();
    if w.len().saturating_mul(g.len()) > 1 << 20 {
        let _ = write!(out, "--- spirv-val\n{want}+++ ours\n{got}");
        return out;
    }
    // Longest common subsequence from the ends.
    let mut lcs = vec![vec![0u32; g.len() + 1]; w.len() + 1];
    for i in (0..w.len()).rev() {
        for j in (0..g.len()).rev() {
            lcs[i][j] = if w[i] == g[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    while i < w.len() || j < g.len() {
        if i < w.len() && j < g.len() && w[i] == g[j] {
            let _ = writeln!(out, "  {}", w[i]);
            (i, j) = (i + 1, j + 1);
        } else if i < w.len() && (j == g.len() || lcs[i + 1][j] >= lcs[i][j + 1]) {
            let _ = writeln!(out, "- {}", w[i]);
            i += 1;
        } else {
            let _ = writeln!(out, "+ {}", g[j]);
            j += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_diff_marks_what_changed() {
        assert_eq!(diff("a\nb\nc\n", "a\nx\nc\n"), "  a\n- b\n+ x\n  c\n");
        assert_eq!(diff("", "a\n"), "+ a\n");
        assert_eq!(diff("a\n", ""), "- a\n");
    }

    #[test]
    fn options_read_spirv_vals_command_line() {
        let args: Vec<String> = "--target-env vulkan1.1 --scalar-block-layout --max-id-bound=9"
            .split(' ')
            .map(str::to_owned)
            .collect();
        let o = options(&args).expect("known options");
        assert_eq!(o.target_env, TargetEnv::Vulkan1_1);
        assert!(o.scalar_block_layout && !o.relax_block_layout);
        assert_eq!(o.limits.max_id_bound, 9);
        assert!(options(&["--no-such".to_owned()]).is_err());
    }

    #[test]
    fn equal_texts_are_the_same_and_others_differ() {
        assert_eq!(judge("x\n", "x\n"), Verdict::Same);
        assert_eq!(judge("x\n", "y\n"), Verdict::Differs);
        assert!(agree(None, None) && !agree(Some("x"), None));
    }
}
