//! The harness of the validator's rule tests (`val_modes`, `val_builtins`): a module in
//! assembly, run through our validator and, where SPIRV-Tools is installed, through
//! spirv-val, with spirv-val's first message recorded in the test.

use spirv_asm::val::{Options, spirv_val_text};
use spirv_asm::{AsmOptions, assemble_str};
use spirv_core::TargetEnv;

/// Our output for `text` under `env`, and spirv-val's where it is installed.
pub fn run(text: &str, env: &str) -> (Option<String>, Option<String>) {
    let target_env = TargetEnv::parse(env).expect("env");
    let opts = AsmOptions {
        preserve_numeric_ids: true,
        version: Some(target_env.version()),
        ..AsmOptions::default()
    };
    let words = assemble_str(text, &opts).expect("assembles");
    let options = Options {
        target_env,
        ..Options::default()
    };
    let ours = spirv_val_text(&words, &options);
    let theirs = crate::spirv_val_stderr(&words, env);
    (ours, theirs.filter(|t| !t.is_empty()))
}

/// `text` is rejected with `message` as the first line's message, and the whole output
/// is spirv-val's where it is installed; with the variable `print` set, both outputs
/// are printed instead.
pub fn rejects(env: &str, text: &str, message: &str, print: &str) {
    let (ours, theirs) = run(text, env);
    if std::env::var_os(print).is_some() {
        eprintln!("CASE {message}\nOURS {ours:?}\nTHEIRS {theirs:?}");
        return;
    }
    let ours = ours.unwrap_or_else(|| panic!("accepted; spirv-val says {message}"));
    let first = ours.lines().next().unwrap_or("");
    let got = first.splitn(3, ": ").nth(2).unwrap_or("");
    assert_eq!(got, message, "ours: {ours}");
    if let Some(theirs) = theirs {
        assert_eq!(ours, theirs, "against spirv-val");
    }
}

/// `text` is accepted, by spirv-val too.
pub fn accepts(env: &str, text: &str) {
    let (ours, theirs) = run(text, env);
    assert_eq!(ours, None, "rejected by ours");
    assert_eq!(theirs, None, "rejected by spirv-val");
}

/// A shader module: `caps` after `OpCapability Shader`, then `modes` (entry points and
/// execution modes), `decls` after a few common types, and `main`'s body.
pub fn shader(caps: &str, modes: &str, decls: &str, body: &str) -> String {
    format!(
        "OpCapability Shader\n{caps}OpMemoryModel Logical GLSL450\n{modes}\
         %void = OpTypeVoid\n%fn = OpTypeFunction %void\n%uint = OpTypeInt 32 0\n%float = OpTypeFloat 32\n%v4float = OpTypeVector %float 4\n\
         {decls}%main = OpFunction %void None %fn\n%entry = OpLabel\n{body}OpReturn\nOpFunctionEnd\n"
    )
}
