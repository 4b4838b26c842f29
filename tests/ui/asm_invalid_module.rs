// `validate = true`: spirv-val's first fault is a compile error at the instruction's
// line and column in the text. Here an OpName comes after the types.
const SHADER: &[u32] = spirv_asm_macros::spirv_asm!(
    r#"OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
  OpName %void "nothing"
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
"#,
    target_env = "vulkan1.2",
    validate = true,
);

// Addresses is not a Vulkan capability: a fault in a file.
const KERNEL: &[u32] = spirv_asm_macros::include_spirv_asm!(
    "../../../../tests/ui/asm_kernel.spvasm",
    validate = true,
    target_env = "vulkan1.0",
);

// The text's own names name the ids, and its line is shown: `%pe` and `%x`, not the
// numbers spirv-val would print for ids without an OpName.
const STORE: &[u32] = spirv_asm_macros::spirv_asm!(
    r#"OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%float = OpTypeFloat 32
%int = OpTypeInt 32 1
%pf = OpTypePointer Function %float
%x = OpConstant %int 1
%main = OpFunction %void None %fn
%entry = OpLabel
%pe = OpVariable %pf Function
      OpStore %pe %x
OpReturn
OpFunctionEnd
"#,
    validate = true,
);

fn main() {
    let _ = (SHADER, KERNEL, STORE);
}
