//! The validator's memory and function passes against spirv-val 2025.5's messages:
//! small modules (most from SPIRV-Tools' `val_memory_test.cpp`, `val_id_test.cpp` and
//! `val_function_test.cpp`) that break one rule each, with spirv-val's first message
//! line recorded. Where spirv-val is installed each case is also run through it and
//! the whole output compared; modules that spirv-val accepts must be accepted.

use spirv_asm::val::{Options, spirv_val_text};
use spirv_asm::{AsmOptions, assemble_str};
use spirv_core::TargetEnv;

/// Our output for `text` under `env`, and spirv-val's where it is installed.
fn run(text: &str, env: &str) -> (Option<String>, Option<String>) {
    let opts = AsmOptions {
        preserve_numeric_ids: true,
        ..AsmOptions::default()
    };
    let words = assemble_str(text, &opts).expect("assembles");
    let options = Options {
        target_env: TargetEnv::parse(env).expect("env"),
        ..Options::default()
    };
    let ours = spirv_val_text(&words, &options);
    let theirs = spirv_tests::spirv_val_stderr(&words, env);
    (ours, theirs.filter(|t| !t.is_empty()))
}

/// `text` is rejected with `message` as the first line's message, as spirv-val does.
fn rejects(env: &str, text: &str, message: &str) {
    let (ours, theirs) = run(text, env);
    if std::env::var_os("VAL_MEMORY_PRINT").is_some() {
        eprintln!("CASE {message}\nOURS {ours:?}\nTHEIRS {theirs:?}");
        return;
    }
    let ours = ours.unwrap_or_else(|| panic!("accepted; spirv-val says {message}"));
    let first = ours.lines().next().unwrap_or("");
    let got = first.splitn(3, ": ").nth(2).unwrap_or("");
    assert!(
        ours.split("\n  ").next().unwrap_or("").ends_with(message) || got == message,
        "ours: {ours}\nwanted: {message}"
    );
    if let Some(theirs) = theirs {
        assert_eq!(ours, theirs, "against spirv-val");
    }
}

/// `text` is accepted, by spirv-val too.
fn accepts(env: &str, text: &str) {
    let (ours, theirs) = run(text, env);
    assert_eq!(ours, None, "rejected by ours");
    assert_eq!(theirs, None, "rejected by spirv-val");
}

const SHADER: &str = "OpCapability Shader\nOpMemoryModel Logical GLSL450\n";

/// A compute shader whose entry point has `decls` among its declarations and `body`
/// in its one block.
fn compute(caps: &str, decls: &str, body: &str) -> String {
    format!(
        "OpCapability Shader\n{caps}OpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 1 1 1\n\
         %void = OpTypeVoid\n%fn = OpTypeFunction %void\n%int = OpTypeInt 32 1\n%uint = OpTypeInt 32 0\n%float = OpTypeFloat 32\n\
         {decls}%main = OpFunction %void None %fn\n%entry = OpLabel\n{body}OpReturn\nOpFunctionEnd\n"
    )
}

#[test]
fn load_and_store() {
    let decls = "%fp = OpTypePointer Function %float\n%ip = OpTypePointer Function %int\n";
    rejects(
        "vulkan1.3",
        &compute(
            "",
            decls,
            "%v = OpVariable %fp Function\n%l = OpLoad %int %v\n",
        ),
        "OpLoad Result Type <id> '4[%int]' does not match Pointer <id> '10[%10]'s type.",
    );
    rejects(
        "spv1.6",
        &compute(
            "",
            decls,
            "%v = OpVariable %fp Function\n%w = OpVariable %ip Function\n%l = OpLoad %int %w\nOpStore %v %l\n",
        ),
        "OpStore Pointer <id> '10[%10]'s type does not match Object <id> '12[%12]'s type.",
    );
    rejects(
        "spv1.6",
        &compute(
            "",
            "%in = OpTypePointer Input %float\n%x = OpVariable %in Input\n%one = OpConstant %float 1\n",
            "OpStore %x %one\n",
        ),
        "OpStore Pointer <id> '8[%8]' storage class is read-only",
    );
    rejects(
        "spv1.6",
        &compute(
            "",
            "%one = OpConstant %float 1\n",
            "%l = OpLoad %float %one\n",
        ),
        "OpLoad Pointer <id> '7[%float_1]' is not a logical pointer.",
    );
    accepts(
        "vulkan1.3",
        &compute(
            "",
            decls,
            "%v = OpVariable %fp Function\n%l = OpLoad %float %v\nOpStore %v %l\n",
        ),
    );
}

#[test]
fn variables() {
    rejects(
        "spv1.6",
        &compute(
            "",
            "%fp = OpTypePointer Function %float\n%g = OpVariable %fp Function\n",
            "",
        ),
        "Variables can not have a function[7] storage class outside of a function",
    );
    rejects(
        "spv1.6",
        &compute(
            "",
            "%pp = OpTypePointer Private %float\n",
            "%v = OpVariable %pp Private\n",
        ),
        "Variables must have a function[7] storage class inside of a function",
    );
    rejects(
        "spv1.6",
        &compute(
            "",
            "%pp = OpTypePointer Private %float\n%g = OpVariable %pp Workgroup\n",
            "",
        ),
        "Storage class must match result type storage class",
    );
    rejects(
        "vulkan1.3",
        &compute(
            "",
            "%up = OpTypePointer Uniform %float\n%g = OpVariable %up Uniform\n",
            "",
        ),
        "[VUID-StandaloneSpirv-Uniform-06807] Uniform OpVariable <id> '8[%8]' has illegal type.",
    );
    rejects(
        "vulkan1.3",
        &compute(
            "",
            "%bool = OpTypeBool\n%bp = OpTypePointer Output %bool\n%g = OpVariable %bp Output\n",
            "",
        ),
        "[VUID-StandaloneSpirv-Input-07290] If OpTypeBool is stored in conjunction with OpVariable using Input or Output Storage Classes it requires a BuiltIn decoration",
    );
    rejects(
        "spv1.6",
        &compute(
            "",
            "%one = OpConstant %float 1\n%fp = OpTypePointer Function %float\n",
            "%w = OpVariable %fp Function\n%v = OpVariable %fp Function %w\n",
        ),
        "Variable Initializer <id> '10[%10]' is not a constant or module-scope variable.",
    );
}

#[test]
fn access_chains() {
    let decls = "%s = OpTypeStruct %float %int\n%sp = OpTypePointer Function %s\n%fp = OpTypePointer Function %float\n%ip = OpTypePointer Function %int\n%c0 = OpConstant %int 0\n%c1 = OpConstant %int 1\n%c5 = OpConstant %int 5\n";
    rejects(
        "spv1.6",
        &compute(
            "",
            decls,
            "%v = OpVariable %sp Function\n%a = OpAccessChain %fp %v %c5\n",
        ),
        "Index '13[%int_5]' is out of bounds: OpAccessChain cannot find index 5 into the structure <id> '7[%_struct_7]'. This structure has 2 members. Largest valid index is 1.",
    );
    rejects(
        "spv1.6",
        &compute(
            "",
            decls,
            "%v = OpVariable %sp Function\n%a = OpAccessChain %fp %v %c1\n",
        ),
        "OpAccessChain result type (OpTypeFloat) does not match the type that results from indexing into the base <id> (OpTypeInt).",
    );
    rejects(
        "spv1.6",
        &compute(
            "",
            decls,
            "%v = OpVariable %sp Function\n%a = OpAccessChain %fp %v %c0 %c0\n",
        ),
        "OpAccessChain reached non-composite type while indexes still remain to be traversed.",
    );
    rejects(
        "spv1.6",
        &compute(
            "",
            decls,
            "%v = OpVariable %sp Function\n%a = OpAccessChain %fp %c0 %c0\n",
        ),
        "The Base <id> '11[%int_0]' in OpAccessChain instruction must be a pointer.",
    );
    accepts(
        "spv1.6",
        &compute(
            "",
            decls,
            "%v = OpVariable %sp Function\n%a = OpAccessChain %ip %v %c1\n",
        ),
    );
}

#[test]
fn copies_and_array_length() {
    let decls = "%fp = OpTypePointer Function %float\n%ip = OpTypePointer Function %int\n";
    rejects(
        "spv1.6",
        &compute(
            "",
            decls,
            "%a = OpVariable %fp Function\n%b = OpVariable %ip Function\nOpCopyMemory %a %b\n",
        ),
        "Target <id> '11[%11]'s type does not match Source <id> '4[%int]'s type.",
    );
    let rta = "OpDecorate %s Block\nOpMemberDecorate %s 0 Offset 0\nOpDecorate %ra ArrayStride 4\nOpDecorate %v DescriptorSet 0\nOpDecorate %v Binding 0\n";
    let text = format!(
        "OpCapability Shader\nOpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %main \"main\" %v\nOpExecutionMode %main LocalSize 1 1 1\n{rta}\
         %void = OpTypeVoid\n%fn = OpTypeFunction %void\n%int = OpTypeInt 32 1\n%ra = OpTypeRuntimeArray %int\n%s = OpTypeStruct %ra\n\
         %sp = OpTypePointer StorageBuffer %s\n%v = OpVariable %sp StorageBuffer\n\
         %main = OpFunction %void None %fn\n%entry = OpLabel\n%n = OpArrayLength %int %v 0\nOpReturn\nOpFunctionEnd\n"
    );
    rejects(
        "vulkan1.3",
        &text,
        "The Result Type of OpArrayLength <id> '10[%10]' must be OpTypeInt with width 32 or 64 and signedness 0.",
    );
}

#[test]
fn functions() {
    let text = format!(
        "{SHADER}OpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 1 1 1\n\
         %void = OpTypeVoid\n%fn = OpTypeFunction %void\n%int = OpTypeInt 32 1\n%fi = OpTypeFunction %int %int\n%c = OpConstant %int 1\n\
         %f = OpFunction %int None %fi\n%p = OpFunctionParameter %int\n%fe = OpLabel\nOpReturnValue %p\nOpFunctionEnd\n\
         %main = OpFunction %void None %fn\n%entry = OpLabel\n%r = OpFunctionCall %int %f\nOpReturn\nOpFunctionEnd\n"
    );
    rejects(
        "spv1.6",
        &text,
        "OpFunctionCall Function <id>'s parameter count does not match the argument count.",
    );
    let text = format!(
        "{SHADER}OpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 1 1 1\n\
         %void = OpTypeVoid\n%fn = OpTypeFunction %void\n%int = OpTypeInt 32 1\n%fi = OpTypeFunction %int %int\n\
         %f = OpFunction %void None %fi\n%p = OpFunctionParameter %int\n%fe = OpLabel\nOpReturn\nOpFunctionEnd\n\
         %main = OpFunction %void None %fn\n%entry = OpLabel\nOpReturn\nOpFunctionEnd\n"
    );
    rejects(
        "spv1.6",
        &text,
        "OpFunction Result Type <id> '2[%void]' does not match the Function Type's return type <id> '4[%int]'.",
    );
    let text = format!(
        "{SHADER}OpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 1 1 1\n\
         %void = OpTypeVoid\n%fn = OpTypeFunction %void\n%int = OpTypeInt 32 1\n%fi = OpTypeFunction %int %int\n\
         %f = OpFunction %int None %fi\n%p = OpFunctionParameter %int\n%q = OpFunctionParameter %int\n%fe = OpLabel\nOpReturnValue %p\nOpFunctionEnd\n\
         %main = OpFunction %void None %fn\n%entry = OpLabel\nOpReturn\nOpFunctionEnd\n"
    );
    rejects(
        "spv1.6",
        &text,
        "Too many OpFunctionParameters for 6: expected 1 based on the function's type",
    );
    let text = format!(
        "{SHADER}OpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 1 1 1\n\
         %void = OpTypeVoid\n%fn = OpTypeFunction %void\n%int = OpTypeInt 32 1\n%fi = OpTypeFunction %int\n\
         %f = OpFunction %int None %fi\n%fe = OpLabel\n%c = OpCopyObject %int %f\nOpReturnValue %c\nOpFunctionEnd\n\
         %main = OpFunction %void None %fn\n%entry = OpLabel\nOpReturn\nOpFunctionEnd\n"
    );
    rejects(
        "spv1.6",
        &text,
        "Invalid use of function result id '6[%6]'.",
    );
}

/// A compute shader with a cooperative matrix type `%mat` and a workgroup array of
/// floats `%var`, `%p` pointing to its first element in the body before `body`.
fn cooperative(body: &str) -> String {
    format!(
        "OpCapability Shader\nOpCapability CooperativeMatrixKHR\nOpCapability VulkanMemoryModel\n\
         OpExtension \"SPV_KHR_cooperative_matrix\"\nOpExtension \"SPV_KHR_vulkan_memory_model\"\n\
         OpMemoryModel Logical Vulkan\nOpEntryPoint GLCompute %main \"main\" %var\nOpExecutionMode %main LocalSize 32 1 1\n\
         %void = OpTypeVoid\n%fn = OpTypeFunction %void\n%float = OpTypeFloat 32\n%uint = OpTypeInt 32 0\n\
         %u0 = OpConstant %uint 0\n%u3 = OpConstant %uint 3\n%u16 = OpConstant %uint 16\n%f1 = OpConstant %float 1\n\
         %mat = OpTypeCooperativeMatrixKHR %float %u3 %u16 %u16 %u0\n%arr = OpTypeArray %float %u16\n\
         %wpa = OpTypePointer Workgroup %arr\n%wp = OpTypePointer Workgroup %float\n%var = OpVariable %wpa Workgroup\n\
         %main = OpFunction %void None %fn\n%entry = OpLabel\n%p = OpAccessChain %wp %var %u0\n{body}OpReturn\nOpFunctionEnd\n"
    )
}

#[test]
fn cooperative_matrices() {
    for env in ["spv1.6", "vulkan1.3"] {
        rejects(
            env,
            &cooperative("%m = OpCooperativeMatrixLoadKHR %mat %p %u0\n"),
            "MemoryLayout 0 requires a Stride.",
        );
        rejects(
            env,
            &cooperative("%m = OpCooperativeMatrixLoadKHR %mat %p %f1 %u16\n"),
            "MemoryLayout operand <id> '10[%float_1]' must be a 32-bit integer constant instruction.",
        );
        rejects(
            env,
            &cooperative("%m = OpCooperativeMatrixLoadKHR %float %p %u0 %u16\n"),
            "spv::Op::OpCooperativeMatrixLoadKHR Result Type <id> '5[%float]' is not a cooperative matrix type.",
        );
        rejects(
            env,
            &cooperative("%n = OpCooperativeMatrixLengthKHR %float %mat\n"),
            "The Result Type of OpCooperativeMatrixLengthKHR <id> '17[%17]' must be OpTypeInt with width 32 and signedness 0.",
        );
        accepts(
            env,
            &cooperative(
                "%m = OpCooperativeMatrixLoadKHR %mat %p %u0 %u16\nOpCooperativeMatrixStoreKHR %p %m %u0 %u16\n%n = OpCooperativeMatrixLengthKHR %uint %mat\n",
            ),
        );
    }
}

#[test]
fn raw_access_chains() {
    let module = |chain: &str| {
        format!(
            "OpCapability Shader\nOpCapability RawAccessChainsNV\nOpExtension \"SPV_NV_raw_access_chains\"\n\
             OpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %main \"main\" %v\nOpExecutionMode %main LocalSize 1 1 1\n\
             OpDecorate %s Block\nOpMemberDecorate %s 0 Offset 0\nOpDecorate %v DescriptorSet 0\nOpDecorate %v Binding 0\n\
             %void = OpTypeVoid\n%fn = OpTypeFunction %void\n%uint = OpTypeInt 32 0\n%u0 = OpConstant %uint 0\n\
             %u4 = OpConstant %uint 4\n%s = OpTypeStruct %uint\n%sp = OpTypePointer StorageBuffer %s\n\
             %up = OpTypePointer StorageBuffer %uint\n%v = OpVariable %sp StorageBuffer\n\
             %main = OpFunction %void None %fn\n%entry = OpLabel\n{chain}\nOpReturn\nOpFunctionEnd\n"
        )
    };
    accepts(
        "vulkan1.3",
        &module("%r = OpRawAccessChainNV %up %v %u4 %u0 %u0 RobustnessPerComponentNV"),
    );
    rejects(
        "vulkan1.3",
        &module("%r = OpRawAccessChainNV %up %v %u0 %u0 %u0 RobustnessPerElementNV"),
        "Stride must not be zero when per-element robustness is used.",
    );
    rejects(
        "spv1.6",
        &module("%r = OpRawAccessChainNV %sp %v %u4 %u0 %u0"),
        "The Result Type of OpRawAccessChainNV <id> '12[%12]' must not point to OpTypeArray, OpTypeMatrix, or OpTypeStruct.",
    );
}
