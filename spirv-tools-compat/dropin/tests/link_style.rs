//! Code as rust-gpu's linker (`rustc_codegen_spirv/src/link.rs`) and engines' build
//! scripts call `spirv-tools` 0.13: a validator with options, `-O` then `-Os` plus
//! registered passes, a message callback, assemble and disassemble. It is compiled
//! against `spirv-tools-compat` renamed to `spirv-tools`, unchanged, and its outputs
//! are compared with SPIRV-Tools 2025.5's binaries.
//!
//! The presets: while `spirv_opt` lacks passes of `-O` or `-Os`, `optimize` must fail
//! before running anything, naming them, in the callback and in the error; once every
//! pass lands, the same test checks spirv-opt's bytes instead (it flips by itself).

use spirv_tests as env;
use spirv_tools::{
    assembler::{self, Assembler},
    binary::Binary,
    error,
    opt::{self, Optimizer},
    val::{self, Validator},
};
use std::path::Path;
use std::process::Command;

/// A Vulkan 1.1 compute shader (SPIR-V 1.3) with a helper function, a dead constant,
/// debug names and a local variable: every pass below has something to do.
const SHADER: &str = r#"; Version: 1.3
OpCapability Shader
%glsl = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main" %gid
OpExecutionMode %main LocalSize 8 1 1
OpSource GLSL 450
OpName %main "main"
OpName %helper "helper"
OpName %buf "Buf"
OpName %x "x"
OpDecorate %gid BuiltIn GlobalInvocationId
OpDecorate %rta ArrayStride 4
OpMemberDecorate %buf 0 Offset 0
OpDecorate %buf BufferBlock
OpDecorate %data DescriptorSet 0
OpDecorate %data Binding 0
OpDecorate %unused DescriptorSet 0
OpDecorate %unused Binding 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%v3uint = OpTypeVector %uint 3
%rta = OpTypeRuntimeArray %float
%buf = OpTypeStruct %rta
%p_buf = OpTypePointer Uniform %buf
%p_float = OpTypePointer Uniform %float
%p_in = OpTypePointer Input %v3uint
%p_fn_float = OpTypePointer Function %float
%fn_float = OpTypeFunction %float %p_fn_float
%uint_0 = OpConstant %uint 0
%float_2 = OpConstant %float 2
%dead = OpConstant %float 7
%data = OpVariable %p_buf Uniform
%unused = OpVariable %p_buf Uniform
%gid = OpVariable %p_in Input
%helper = OpFunction %float None %fn_float
%arg = OpFunctionParameter %p_fn_float
%h0 = OpLabel
%v = OpLoad %float %arg
%w = OpFMul %float %v %float_2
OpReturnValue %w
OpFunctionEnd
%main = OpFunction %void None %fn
%m0 = OpLabel
%x = OpVariable %p_fn_float Function
%id = OpLoad %v3uint %gid
%i = OpCompositeExtract %uint %id 0
%p = OpAccessChain %p_float %data %uint_0 %i
%in = OpLoad %float %p
OpStore %x %in
%r = OpFunctionCall %float %helper %x
OpStore %p %r
OpReturn
OpFunctionEnd
"#;

/// The validator's options as rust-gpu sets them for a Vulkan target.
fn val_options() -> val::ValidatorOptions {
    val::ValidatorOptions {
        relax_struct_store: true,
        relax_logical_pointer: true,
        relax_block_layout: Some(false),
        scalar_block_layout: false,
        skip_block_layout: false,
        max_limits: vec![(val::ValidatorLimits::IdBound, 0x3F_FFFF)],
        ..Default::default()
    }
}

/// What rust-gpu's `do_spirv_opt` does: a preset by opt level, then its two passes;
/// messages collected; on failure the unoptimized module and the error's text.
fn do_spirv_opt(
    words: &[u32],
    size: bool,
    messages: &mut Vec<error::Message>,
) -> Result<Vec<u32>, String> {
    let mut optimizer = opt::create("vulkan1.1".parse().ok());
    if size {
        optimizer.register_size_passes();
    } else {
        optimizer.register_performance_passes();
    }
    optimizer
        .register_pass(opt::Passes::EliminateDeadConstant)
        .register_pass(opt::Passes::StripDebugInfo);
    let options = opt::Options {
        validator_options: Some(val_options()),
        max_id_bound: None,
        preserve_bindings: true,
        preserve_spec_constants: false,
    };
    let result = optimizer.optimize(
        words,
        &mut |msg: error::Message| messages.push(msg),
        Some(options),
    );
    match result {
        Ok(Binary::OwnedU32(words)) => Ok(words),
        Ok(binary) => Ok(binary.as_words().to_vec()),
        Err(e) => Err(e.to_string()),
    }
}

/// `spirv-opt args in -o out` on `words`, where SPIRV-Tools 2025.5 is installed.
fn spirv_opt(words: &[u32], args: &[&str], tag: &str) -> Option<Result<Vec<u32>, String>> {
    let bin = env::spirv_tools()?;
    let dir = std::env::temp_dir().join(format!("spirv-tools-dropin-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let input = dir.join("in.spv");
    let output = dir.join("out.spv");
    std::fs::write(&input, spirv_tools::binary::from_binary(words)).expect("write");
    let out = Command::new(bin.join("spirv-opt"))
        .args(args)
        .arg(&input)
        .arg("-o")
        .arg(&output)
        .output()
        .expect("spirv-opt runs");
    let result = if out.status.success() {
        let bytes = std::fs::read(&output).expect("read");
        Ok(spirv_tools::binary::to_binary(&bytes)
            .expect("words")
            .to_vec())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let _ = std::fs::remove_dir_all(&dir);
    Some(result)
}

fn assemble(text: &str) -> Vec<u32> {
    let assembler = assembler::create(Some(spirv_tools::TargetEnv::Vulkan_1_1));
    let binary = assembler
        .assemble(text, assembler::AssemblerOptions::default())
        .expect("assembles");
    binary.as_words().to_vec()
}

#[test]
fn validator_with_options_accepts_and_words_faults_as_spirv_val() {
    let words = assemble(SHADER);
    let validator = val::create(Some(spirv_tools::TargetEnv::Vulkan_1_1));
    validator
        .validate(&words, Some(val_options()))
        .expect("valid");
    // A fault: the id bound limit below the module's bound.
    let mut strict = val_options();
    strict.max_limits = vec![(val::ValidatorLimits::IdBound, 4)];
    let err = validator
        .validate(&words, Some(strict))
        .expect_err("bound over the limit");
    let diag = err.diagnostic.as_ref().expect("a diagnostic");
    assert!(
        diag.message
            .starts_with("Invalid SPIR-V.  The id bound is larger than the max id bound 4"),
        "{err}"
    );
    assert!(
        err.to_string().starts_with("error:0:0 - Invalid SPIR-V."),
        "{err}"
    );
}

#[test]
fn presets_then_registered_passes_as_rust_gpu_runs_them() {
    let words = assemble(SHADER);
    for size in [false, true] {
        let preset = if size { "-Os" } else { "-O" };
        let mut messages = Vec::new();
        let ours = do_spirv_opt(&words, size, &mut messages);
        let mut probe = spirv_opt::Optimizer::new();
        if size {
            probe.register_size_passes();
        } else {
            probe.register_performance_passes();
        }
        let missing = probe.missing();
        if missing.is_empty() {
            // Every pass of the preset exists: spirv-opt's bytes. (A SPIR-V 1.3 module:
            // the library's ADCE and the command line's agree on its interface.)
            let ours = ours.unwrap_or_else(|e| panic!("{preset}: {e}"));
            let args = [
                preset,
                "--eliminate-dead-const",
                "--strip-debug",
                "--preserve-bindings",
                "--target-env=vulkan1.1",
            ];
            if let Some(theirs) = spirv_opt(&words, &args, "preset") {
                assert_eq!(Ok(ours), theirs, "{preset}");
            }
        } else {
            // Today: a clear error naming every missing pass, and nothing ran.
            let err = ours.expect_err("a preset with missing passes fails");
            for m in &missing {
                assert!(err.contains(&format!("--{m}")), "{preset}: {err}");
            }
            assert!(err.contains("not implemented yet"), "{err}");
            assert_eq!(messages.len(), 1, "{preset}: {messages:?}");
            assert_eq!(messages[0].level, error::MessageLevel::Error);
            assert!(messages[0].message.contains(&format!("--{}", missing[0])));
        }
    }
}

#[test]
fn registered_passes_give_spirv_opts_bytes() {
    let words = assemble(SHADER);
    // Passes that exist, in the order `-O` starts with, then rust-gpu's two.
    let passes = [
        (opt::Passes::WrapOpKill, "--wrap-opkill"),
        (opt::Passes::DeadBranchElim, "--eliminate-dead-branches"),
        (opt::Passes::MergeReturn, "--merge-return"),
        (
            opt::Passes::InlineExhaustive,
            "--inline-entry-points-exhaustive",
        ),
        (
            opt::Passes::EliminateDeadFunctions,
            "--eliminate-dead-functions",
        ),
        (
            opt::Passes::AggressiveDCE,
            "--eliminate-dead-code-aggressive",
        ),
        (opt::Passes::PrivateToLocal, "--private-to-local"),
        (
            opt::Passes::LocalSingleBlockLoadStoreElim,
            "--eliminate-local-single-block",
        ),
        (
            opt::Passes::LocalSingleStoreElim,
            "--eliminate-local-single-store",
        ),
        (
            opt::Passes::LocalMultiStoreElim,
            "--eliminate-local-multi-store",
        ),
        (opt::Passes::EliminateDeadConstant, "--eliminate-dead-const"),
        (opt::Passes::StripDebugInfo, "--strip-debug"),
    ];
    let mut optimizer = opt::create(Some(spirv_tools::TargetEnv::Vulkan_1_1));
    for (p, _) in passes {
        optimizer.register_pass(p);
    }
    let mut messages = Vec::new();
    let ours = optimizer
        .optimize(
            &words,
            &mut |m: error::Message| messages.push(m),
            Some(opt::Options {
                validator_options: Some(val_options()),
                preserve_bindings: true,
                ..Default::default()
            }),
        )
        .expect("optimizes");
    assert!(messages.is_empty(), "{messages:?}");
    assert!(ours.as_words().len() < words.len());
    let mut args: Vec<&str> = passes.iter().map(|(_, f)| *f).collect();
    args.extend(["--preserve-bindings", "--target-env=vulkan1.1"]);
    match spirv_opt(&words, &args, "passes") {
        Some(theirs) => assert_eq!(Ok(ours.as_words().to_vec()), theirs),
        None => env::skip("the comparison with spirv-opt", "SPIRV-Tools 2025.5"),
    }
    // `preserve_bindings` kept the unused descriptor: without it, ADCE removes it.
    let mut plain = opt::create(Some(spirv_tools::TargetEnv::Vulkan_1_1));
    plain.register_pass(opt::Passes::AggressiveDCE);
    let dropped = plain
        .optimize(&words, &mut |_: error::Message| {}, None)
        .expect("optimizes");
    let mut keeping = opt::create(Some(spirv_tools::TargetEnv::Vulkan_1_1));
    keeping.register_pass(opt::Passes::AggressiveDCE);
    let kept = keeping
        .optimize(
            &words,
            &mut |_: error::Message| {},
            Some(opt::Options {
                preserve_bindings: true,
                ..Default::default()
            }),
        )
        .expect("optimizes");
    assert!(dropped.as_words().len() < kept.as_words().len());
}

#[test]
fn an_invalid_module_reaches_the_callback_as_spirv_opt_reports_it() {
    let mut words = assemble(SHADER);
    words[3] = 2; // the bound, below the ids
    let mut optimizer = opt::create(None);
    optimizer.register_pass(opt::Passes::StripDebugInfo);
    let mut messages = Vec::new();
    let err = optimizer
        .optimize(&words, &mut |m: error::Message| messages.push(m), None)
        .expect_err("invalid");
    assert_eq!(err.inner, spirv_tools::SpirvResult::InternalError);
    assert!(err.diagnostic.is_none());
    assert_eq!(messages.len(), 1);
    let m = &messages[0];
    assert_eq!(m.level, error::MessageLevel::Error);
    assert_eq!(m.source.as_deref(), Some("input"));
    // spirv-opt prints `error: line INDEX: MESSAGE` then the notes.
    let theirs = spirv_opt(&words, &["--strip-debug", "--target-env=spv1.5"], "invalid");
    assert!(!matches!(theirs, Some(Ok(_))), "spirv-opt accepted it");
    if let Some(Err(stderr)) = theirs {
        let ours = if m.notes.is_empty() {
            format!("error: line {}: {}\n", m.index, m.message)
        } else {
            format!("error: line {}: {}\n{}\n", m.index, m.message, m.notes)
        };
        assert_eq!(ours, stderr);
    }
}

#[test]
fn assemble_and_disassemble_as_spirv_as_and_spirv_dis() {
    let words = assemble(SHADER);
    let assembler = assembler::create(None);
    let text = assembler
        .disassemble(&words, assembler::DisassembleOptions::default())
        .expect("disassembles")
        .expect("text");
    let again = assembler
        .assemble(
            &text,
            assembler::AssemblerOptions {
                preserve_numeric_ids: false,
            },
        )
        .expect("reassembles");
    assert_eq!(again.as_words().len(), words.len());
    let Some(bin) = env::spirv_tools() else {
        env::skip(
            "the comparison with spirv-as and spirv-dis",
            "SPIRV-Tools 2025.5",
        );
        return;
    };
    let dir = std::env::temp_dir().join(format!("spirv-tools-dropin-asm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    std::fs::write(dir.join("in.spvasm"), SHADER).expect("write");
    let status = Command::new(bin.join("spirv-as"))
        .args(["--target-env", "vulkan1.1"])
        .arg(dir.join("in.spvasm"))
        .arg("-o")
        .arg(dir.join("as.spv"))
        .status()
        .expect("spirv-as");
    assert!(status.success());
    let theirs = std::fs::read(dir.join("as.spv")).expect("read");
    assert_eq!(spirv_tools::binary::from_binary(&words), &theirs[..]);
    let dis = Command::new(bin.join("spirv-dis"))
        .arg("--comment")
        .arg(dir.join("as.spv"))
        .output()
        .expect("spirv-dis");
    assert_eq!(String::from_utf8_lossy(&dis.stdout), text);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(Path::new(&bin).exists());
}
