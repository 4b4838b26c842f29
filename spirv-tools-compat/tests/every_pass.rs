//! Every `Passes` variant either runs, giving spirv-opt 2025.5's bytes, or makes
//! `optimize` fail with an error naming its flag; and the optimizer validates first.

use spirv_tools::error::Message;
use spirv_tools::opt::{self, Optimizer, Passes};
use spirv_tools::{TargetEnv, assembler::Assembler};
use std::process::Command;

/// A SPIR-V 1.3 fragment shader with names, a dead constant and a helper call.
const SHADER: &str = "; Version: 1.3
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main \"main\" %out
OpExecutionMode %main OriginUpperLeft
OpName %main \"main\"
OpName %f \"f\"
OpDecorate %out Location 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%ffn = OpTypeFunction %float
%p_out = OpTypePointer Output %float
%one = OpConstant %float 1
%dead = OpConstant %float 3
%out = OpVariable %p_out Output
%f = OpFunction %float None %ffn
%f0 = OpLabel
OpReturnValue %one
OpFunctionEnd
%main = OpFunction %void None %fn
%m0 = OpLabel
%v = OpFunctionCall %float %f
OpStore %out %v
OpReturn
OpFunctionEnd
";

fn words() -> Vec<u32> {
    spirv_tools::assembler::create(Some(TargetEnv::Vulkan_1_1))
        .assemble(SHADER, Default::default())
        .expect("assembles")
        .as_words()
        .to_vec()
}

fn spirv_opt(words: &[u32], flag: &str) -> Option<Vec<u8>> {
    let bin = spirv_tests::spirv_tools()?;
    let dir = std::env::temp_dir().join(format!("spirv-tools-compat-every-{}", std::process::id()));
    std::fs::create_dir_all(&dir).ok()?;
    std::fs::write(dir.join("in.spv"), spirv_tools::binary::from_binary(words)).ok()?;
    let ok = Command::new(bin.join("spirv-opt"))
        .args([flag, "--target-env=vulkan1.1"])
        .arg(dir.join("in.spv"))
        .arg("-o")
        .arg(dir.join("out.spv"))
        .status()
        .ok()?
        .success();
    let out = std::fs::read(dir.join("out.spv")).ok();
    let _ = std::fs::remove_dir_all(&dir);
    ok.then_some(out).flatten()
}

#[test]
fn every_variant_runs_or_names_itself() {
    let words = words();
    let (mut ran, mut missing) = (Vec::new(), Vec::new());
    for pass in Passes::ALL {
        let mut o = opt::create(Some(TargetEnv::Vulkan_1_1));
        o.register_pass(pass);
        let mut messages = Vec::new();
        match o.optimize(&words, &mut |m: Message| messages.push(m), None) {
            Ok(out) => {
                assert!(messages.is_empty(), "{pass:?}: {messages:?}");
                // The library's no-argument passes are the command line's flags (ADCE
                // aside, whose interface option differs; on SPIR-V 1.3 it is moot).
                // A pass that does nothing: spirv-opt's load and write alone.
                let flag = pass
                    .flag()
                    .map_or("--skip-validation".to_owned(), |f| format!("--{f}"));
                if let Some(theirs) = spirv_opt(&words, &flag) {
                    assert_eq!(out.as_bytes(), &theirs[..], "{pass:?}");
                }
                ran.push(pass);
            }
            Err(e) => {
                let flag = pass.flag().expect("a pass that does nothing cannot fail");
                let text = e.to_string();
                assert!(text.contains(&format!("--{flag}")), "{pass:?}: {text}");
                assert!(text.contains("not implemented yet"), "{pass:?}: {text}");
                assert_eq!(messages.len(), 1, "{pass:?}");
                missing.push(pass);
            }
        }
    }
    if spirv_tests::spirv_tools().is_none() {
        spirv_tests::skip("the comparison with spirv-opt", "SPIRV-Tools 2025.5");
    }
    let _ = writeln_stderr(&format!(
        "every_pass: {} variants run, {} not implemented yet: {missing:?}",
        ran.len(),
        missing.len()
    ));
    assert_eq!(ran.len() + missing.len(), 56);
}

fn writeln_stderr(s: &str) -> std::io::Result<()> {
    use std::io::Write;
    writeln!(std::io::stderr(), "{s}")
}
