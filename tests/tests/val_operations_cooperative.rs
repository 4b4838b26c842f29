//! The validator's type rules for cooperative matrices (spirv-val's arithmetics,
//! composites and conversion passes on `OpTypeCooperativeMatrixKHR` values, the
//! multiply-adds and reductions, and the `SPV_QCOM_cooperative_matrix_conversion`
//! instructions): each table's bodies give spirv-val 2025.5's message, compared with
//! spirv-val itself where it is installed.

#[path = "support/operations.rs"]
mod support;
use support::check_lines;

#[test]
fn cooperative_matrices() {
    let text = "OpCapability Shader\nOpCapability CooperativeMatrixKHR\n\
        OpCapability VulkanMemoryModel\nOpExtension \"SPV_KHR_cooperative_matrix\"\n\
        OpExtension \"SPV_KHR_vulkan_memory_model\"\nOpMemoryModel Logical Vulkan\n\
        OpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 1 1 1\n\
        %void = OpTypeVoid\n%func = OpTypeFunction %void\n%f32 = OpTypeFloat 32\n\
        %u32 = OpTypeInt 32 0\n%s32 = OpTypeInt 32 1\n%u32_8 = OpConstant %u32 8\n\
        %u32_16 = OpConstant %u32 16\n%use_a = OpConstant %u32 0\n%use_b = OpConstant %u32 1\n\
        %use_acc = OpConstant %u32 2\n%scope = OpConstant %u32 3\n\
        %ma = OpTypeCooperativeMatrixKHR %f32 %scope %u32_8 %u32_16 %use_a\n\
        %mb = OpTypeCooperativeMatrixKHR %f32 %scope %u32_16 %u32_8 %use_b\n\
        %mc = OpTypeCooperativeMatrixKHR %f32 %scope %u32_8 %u32_8 %use_acc\n\
        %mc2 = OpTypeCooperativeMatrixKHR %f32 %scope %u32_8 %u32_16 %use_acc\n\
        %imc = OpTypeCooperativeMatrixKHR %s32 %scope %u32_8 %u32_8 %use_acc\n\
        %f32_1 = OpConstant %f32 1\n\
        %main = OpFunction %void None %func\n%entry = OpLabel\n\
        %a = OpCompositeConstruct %ma %f32_1\n%b = OpCompositeConstruct %mb %f32_1\n\
        %c = OpCompositeConstruct %mc %f32_1\n%c2 = OpCompositeConstruct %mc2 %f32_1\n";
    check_lines(
        &|body| format!("{text}{body}\nOpReturn\nOpFunctionEnd\n"),
        "vulkan1.3",
        r#"
%x = OpCooperativeMatrixMulAddKHR %mc %a %b %c; %y = OpFAdd %mc %c %c; %z = OpConvertFToS %imc %c; %w = OpBitcast %imc %c; %v = OpFNegate %mc %x =>
%x = OpFAdd %mc %c %c2 => Expected columns of Matrix type and Result Type to be identical
%x = OpFAdd %mc %c %a => Expected columns of Matrix type and Result Type to be identical
%x = OpFMul %mc %c %c2 => Expected arithmetic operands to be of Result Type: FMul operand index 3
%x = OpConvertFToS %imc %c2 => Expected columns of Matrix type and Result Type to be identical
%x = OpFConvert %mc %c => Expected component type of Value to be different from component type of Result Type: FConvert
%x = OpCooperativeMatrixMulAddKHR %mc %b %b %c => Cooperative matrix type must be A Type: CooperativeMatrixMulAddKHR
%x = OpCooperativeMatrixMulAddKHR %mc2 %a %b %c => Cooperative matrix 'N' mismatch: CooperativeMatrixMulAddKHR
%x = OpCompositeConstruct %mc %f32_1 %f32_1 => Must be only one constituent
"#,
    );
}

#[test]
fn cooperative_reduction() {
    let text = "OpCapability Shader\nOpCapability Float16\nOpCapability CooperativeMatrixKHR\n\
        OpCapability CooperativeMatrixReductionsNV\nOpCapability VulkanMemoryModel\n\
        OpExtension \"SPV_KHR_cooperative_matrix\"\nOpExtension \"SPV_NV_cooperative_matrix2\"\n\
        OpExtension \"SPV_KHR_vulkan_memory_model\"\nOpMemoryModel Logical Vulkan\n\
        OpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 1 1 1\n\
        %void = OpTypeVoid\n%func = OpTypeFunction %void\n%f16 = OpTypeFloat 16\n%f32 = OpTypeFloat 32\n%u32 = OpTypeInt 32 0\n\
        %u32_8 = OpConstant %u32 8\n%u32_16 = OpConstant %u32 16\n%scope = OpConstant %u32 3\n\
        %use_acc = OpConstant %u32 2\n\
        %m16 = OpTypeCooperativeMatrixKHR %f16 %scope %u32_16 %u32_16 %use_acc\n\
        %m8x16 = OpTypeCooperativeMatrixKHR %f16 %scope %u32_8 %u32_16 %use_acc\n\
        %m8 = OpTypeCooperativeMatrixKHR %f16 %scope %u32_8 %u32_8 %use_acc\n\
        %f16_1 = OpConstant %f16 1\n%c = OpConstantComposite %m16 %f16_1\n\
        %ftype = OpTypeFunction %f16 %f16 %f16\n%ftype32 = OpTypeFunction %f32 %f16 %f16\n\
        %add = OpFunction %f16 None %ftype\n%x = OpFunctionParameter %f16\n\
        %y = OpFunctionParameter %f16\n%l = OpLabel\n%s = OpFAdd %f16 %x %y\n\
        OpReturnValue %s\nOpFunctionEnd\n\
        %add32 = OpFunction %f32 None %ftype32\n%x2 = OpFunctionParameter %f16\n\
        %y2 = OpFunctionParameter %f16\n%l2 = OpLabel\n%s2 = OpFConvert %f32 %x2\n\
        OpReturnValue %s2\nOpFunctionEnd\n\
        %main = OpFunction %void None %func\n%entry = OpLabel\n";
    check_lines(
        &|body| format!("{text}{body}\nOpReturn\nOpFunctionEnd\n"),
        "vulkan1.3",
        r#"
%r = OpCooperativeMatrixReduceNV %m8 %c 2x2 %add; %q = OpCooperativeMatrixReduceNV %m16 %c Row|Column %add =>
%r = OpCooperativeMatrixReduceNV %m8x16 %c Row %add => For ReduceRow, result rows must match matrix rows: CooperativeMatrixReduceNV
%r = OpCooperativeMatrixReduceNV %m16 %c 2x2 %add => For Reduce2x2, result rows/cols must be half of matrix rows/cols: CooperativeMatrixReduceNV
%r = OpCooperativeMatrixReduceNV %m8 %c 2x2|Row %add => Reduce 2x2 must not be used with Row/Column: CooperativeMatrixReduceNV
%r = OpCooperativeMatrixReduceNV %m16 %c Row %add32 => CombineFunc return type and parameters must match matrix component type: CooperativeMatrixReduceNV
%r = OpCooperativeMatrixReduceNV %m16 %c Row %f16_1 => CombineFunc must be a function: CooperativeMatrixReduceNV
"#,
    );
}

#[test]
fn qualcomm_cooperative_matrix_conversion() {
    let text = "OpCapability Shader\nOpCapability Float16\nOpCapability Int8\n\
        OpCapability CooperativeMatrixKHR\nOpCapability VulkanMemoryModelKHR\n\
        OpCapability CooperativeMatrixConversionQCOM\n\
        OpExtension \"SPV_KHR_cooperative_matrix\"\nOpExtension \"SPV_KHR_vulkan_memory_model\"\n\
        OpExtension \"SPV_QCOM_cooperative_matrix_conversion\"\nOpMemoryModel Logical VulkanKHR\n\
        OpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 1 1 1\n\
        %void = OpTypeVoid\n%func = OpTypeFunction %void\n%uint = OpTypeInt 32 0\n\
        %half = OpTypeFloat 16\n%float = OpTypeFloat 32\n%uint_0 = OpConstant %uint 0\n\
        %uint_2 = OpConstant %uint 2\n%uint_3 = OpConstant %uint 3\n%uint_8 = OpConstant %uint 8\n\
        %uint_16 = OpConstant %uint 16\n%uint_64 = OpConstant %uint 64\n%half_0 = OpConstant %half 0\n\
        %a_uint_8 = OpTypeArray %uint %uint_8\n%a_uint_16 = OpTypeArray %uint %uint_16\n\
        %a_half_16 = OpTypeArray %half %uint_16\n%a_float_8 = OpTypeArray %float %uint_8\n\
        %a_float_16 = OpTypeArray %float %uint_16\n\
        %ma = OpTypeCooperativeMatrixKHR %float %uint_3 %uint_64 %uint_8 %uint_0\n\
        %ma16 = OpTypeCooperativeMatrixKHR %float %uint_3 %uint_64 %uint_16 %uint_0\n\
        %macc = OpTypeCooperativeMatrixKHR %float %uint_3 %uint_64 %uint_8 %uint_2\n\
        %p_uint_8 = OpTypePointer Function %a_uint_8\n%p_half_16 = OpTypePointer Function %a_half_16\n\
        %p_float_16 = OpTypePointer Function %a_float_16\n\
        %main = OpFunction %void None %func\n%entry = OpLabel\n\
        %v8 = OpVariable %p_uint_8 Function\n%vh = OpVariable %p_half_16 Function\n\
        %vf = OpVariable %p_float_16 Function\n%u8 = OpLoad %a_uint_8 %v8\n\
        %h16 = OpLoad %a_half_16 %vh\n%f16 = OpLoad %a_float_16 %vf\n";
    check_lines(
        &|body| format!("{text}{body}\nOpReturn\nOpFunctionEnd\n"),
        "vulkan1.3",
        r#"
%m = OpCompositeConstructCoopMatQCOM %ma %u8; %x = OpCompositeExtractCoopMatQCOM %a_uint_8 %m; %y = OpBitCastArrayQCOM %a_uint_8 %h16 =>
%m = OpCompositeConstructCoopMatQCOM %ma16 %u8 => Opcode CompositeConstructCoopMatQCOM requires the columns of the result coopmat have the bit length of 256 when result coopmat's use is MatrixAKHR
%m = OpCompositeConstructCoopMatQCOM %a_uint_8 %u8 => Opcode CompositeConstructCoopMatQCOM requires the result type be OpTypeCooperativeMatrixKHR
%m = OpCompositeConstructCoopMatQCOM %macc %h16 => Opcode CompositeConstructCoopMatQCOM requires ether the input element type is equal to the result element type or it is the unsigned 32-bit integer.
%m = OpCompositeConstructCoopMatQCOM %ma %u8; %x = OpCompositeExtractCoopMatQCOM %a_float_16 %m => Opcode CompositeExtractCoopMatQCOM requires either the result element type be the same as the source cooperative matrix's component type and its length be the same as the number of columns of the matrix or the result element type be unsigned 32-bit OpTypeInt and the length be 8 when source coopmat's use is MatrixAKHR
%x = OpBitCastArrayQCOM %a_uint_16 %h16 => Opcode BitCastArrayQCOM requires source and result types be compatible for conversion.
%x = OpExtractSubArrayQCOM %a_float_8 %f16 %uint_0 => 
%x = OpExtractSubArrayQCOM %a_uint_8 %f16 %uint_0 => Opcode ExtractSubArrayQCOM requires the input and result element types match.
%x = OpExtractSubArrayQCOM %a_float_8 %f16 %half_0 => Opcode ExtractSubArrayQCOM requires the type of the start index operand be 32-bit OpTypeInt
"#,
    );
}
