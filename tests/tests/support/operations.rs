//! What the validator's operation tests share (`val_operations.rs`,
//! `val_operations_cooperative.rs`): a standard shader, running ours and spirv-val on
//! a module, and tables of function bodies with the messages they give.

#![allow(dead_code)]

use spirv_asm::val::{Options, spirv_val_text};
use spirv_asm::{AsmOptions, assemble_str};
use spirv_core::TargetEnv;

/// A shader module's declarations, ahead of a function body.
pub const TYPES: &str = "
%void = OpTypeVoid
%func = OpTypeFunction %void
%bool = OpTypeBool
%f32 = OpTypeFloat 32
%f64 = OpTypeFloat 64
%u32 = OpTypeInt 32 0
%s32 = OpTypeInt 32 1
%u64 = OpTypeInt 64 0
%s64 = OpTypeInt 64 1
%bvec2 = OpTypeVector %bool 2
%bvec3 = OpTypeVector %bool 3
%f32vec2 = OpTypeVector %f32 2
%f32vec3 = OpTypeVector %f32 3
%f32vec4 = OpTypeVector %f32 4
%f64vec2 = OpTypeVector %f64 2
%u32vec2 = OpTypeVector %u32 2
%u32vec3 = OpTypeVector %u32 3
%u32vec4 = OpTypeVector %u32 4
%s32vec2 = OpTypeVector %s32 2
%u64vec2 = OpTypeVector %u64 2
%f32mat22 = OpTypeMatrix %f32vec2 2
%f32mat23 = OpTypeMatrix %f32vec2 3
%f32mat32 = OpTypeMatrix %f32vec3 2
%f32mat33 = OpTypeMatrix %f32vec3 3
%f64mat22 = OpTypeMatrix %f64vec2 2
%struct_u32_u32 = OpTypeStruct %u32 %u32
%struct_s32_s32 = OpTypeStruct %s32 %s32
%struct_u32_u32_u32 = OpTypeStruct %u32 %u32 %u32
%struct_u32_s32 = OpTypeStruct %u32 %s32
%struct_f32_u32 = OpTypeStruct %f32 %u32
%u32_2 = OpConstant %u32 2
%u32_3 = OpConstant %u32 3
%arr_u32_2 = OpTypeArray %u32 %u32_2
%arr_f32_2 = OpTypeArray %f32 %u32_2
%arr_u32_3 = OpTypeArray %u32 %u32_3
%struct_arr = OpTypeStruct %arr_u32_2
%struct_arr2 = OpTypeStruct %arr_f32_2
%rtarr = OpTypeRuntimeArray %u32
%true = OpConstantTrue %bool
%f32_0 = OpConstant %f32 0
%f32_1 = OpConstant %f32 1
%f64_0 = OpConstant %f64 0
%u32_0 = OpConstant %u32 0
%u32_1 = OpConstant %u32 1
%s32_0 = OpConstant %s32 0
%s32_1 = OpConstant %s32 1
%u64_0 = OpConstant %u64 0
%s64_0 = OpConstant %s64 0
%bvec2_tt = OpConstantComposite %bvec2 %true %true
%f32vec2_01 = OpConstantComposite %f32vec2 %f32_0 %f32_1
%f32vec3_011 = OpConstantComposite %f32vec3 %f32_0 %f32_1 %f32_1
%f32vec4_0111 = OpConstantComposite %f32vec4 %f32_0 %f32_1 %f32_1 %f32_1
%f64vec2_00 = OpConstantComposite %f64vec2 %f64_0 %f64_0
%u32vec2_01 = OpConstantComposite %u32vec2 %u32_0 %u32_1
%u32vec3_011 = OpConstantComposite %u32vec3 %u32_0 %u32_1 %u32_1
%s32vec2_01 = OpConstantComposite %s32vec2 %s32_0 %s32_1
%u64vec2_00 = OpConstantComposite %u64vec2 %u64_0 %u64_0
%f32mat22_1 = OpConstantComposite %f32mat22 %f32vec2_01 %f32vec2_01
%f32mat23_1 = OpConstantComposite %f32mat23 %f32vec2_01 %f32vec2_01 %f32vec2_01
%f32mat32_1 = OpConstantComposite %f32mat32 %f32vec3_011 %f32vec3_011
%f64mat22_1 = OpConstantComposite %f64mat22 %f64vec2_00 %f64vec2_00
%arr_u32_2_c = OpConstantComposite %arr_u32_2 %u32_0 %u32_1
%struct_arr_c = OpConstantComposite %struct_arr %arr_u32_2_c
%struct_u32_u32_c = OpConstantComposite %struct_u32_u32 %u32_0 %u32_1
";

/// A GLCompute shader whose function body is `body`, after `caps` and `TYPES`.
pub fn shader(caps: &str, body: &str) -> String {
    format!(
        "OpCapability Shader\nOpCapability Int64\nOpCapability Float64\n{caps}\
         OpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %main \"main\"\n\
         OpExecutionMode %main LocalSize 1 1 1\n{TYPES}{FUNCTION}{body}\nOpReturn\nOpFunctionEnd\n"
    )
}

pub const FUNCTION: &str = "%main = OpFunction %void None %func\n%entry = OpLabel\n";

/// What ours prints for `text` under `env` (empty when valid), assembled for the
/// newest version `env` takes; compared with spirv-val's where it is installed.
pub fn ours(text: &str, env: &str) -> String {
    let version = match env {
        "vulkan1.0" => (1, 0),
        "vulkan1.1" => (1, 3),
        "vulkan1.2" => (1, 5),
        _ => env
            .strip_prefix("spv1.")
            .and_then(|m| m.parse().ok())
            .map_or((1, 6), |m| (1, m)),
    };
    let asm = AsmOptions {
        version: Some(version),
        ..AsmOptions::default()
    };
    let words = assemble_str(text, &asm).unwrap_or_else(|e| panic!("assembles: {e:?}\n{text}"));
    let options = Options {
        target_env: TargetEnv::parse(env).expect("an env"),
        ..Options::default()
    };
    let got = spirv_val_text(&words, &options).unwrap_or_default();
    if let Some(theirs) = spirv_tests::spirv_val_stderr(&words, env) {
        assert_eq!(got, theirs, "ours against spirv-val for\n{text}");
    }
    got
}

/// The message of ours's first fault, without `error: line N: `; empty when valid.
pub fn message(text: &str, env: &str) -> String {
    let out = ours(text, env);
    let first = out.lines().next().unwrap_or("");
    match first
        .find(": ")
        .and_then(|a| first[a + 2..].find(": ").map(|b| a + 2 + b + 2))
    {
        Some(at) => first[at..].to_owned(),
        None => first.to_owned(),
    }
}

/// Each line of `table` is a function body (instructions separated by `; `), `=>`,
/// and the message the body gives in the standard shader (nothing: valid).
pub fn check_table(table: &str) {
    check_lines(&|body| shader("", body), "spv1.6", table);
}

/// As [`check_table`], each body completing `module` (which closes the function) under
/// `env`.
pub fn check_lines(module: &dyn Fn(&str) -> String, env: &str, table: &str) {
    for line in table.lines().filter(|l| !l.trim().is_empty()) {
        let (body, expected) = line.split_once("=>").expect("body => message");
        let body = body.trim().replace("; ", "\n");
        assert_eq!(
            message(&module(&body), env),
            expected.trim(),
            "for body {body}"
        );
    }
}
