//! The validator's type, constant, literal, misc and debug rules against spirv-val
//! 2025.5: each module below (numeric ids kept, assembled for its environment) gets
//! spirv-val's exact output, recorded from it. Where spirv-val is installed, each case
//! is also compared with it live. Cases are taken from or modelled on SPIRV-Tools'
//! `val_type_unique_test.cpp`, `val_constants_test.cpp`, `val_literals_test.cpp`,
//! `val_misc_test.cpp`, `val_data_test.cpp` and `val_id_test.cpp`.

use spirv_asm::val::{Options, spirv_val_text};
use spirv_asm::{AsmOptions, assemble_str};
use spirv_core::TargetEnv;
use std::process::Command;

/// (name, --target-env, assembly, spirv-val's standard error)
const CASES: &[(&str, &str, &str, &str)] = &[
    (
        "arrlen0",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%u = OpTypeInt 32 0
%c = OpConstant %u 0
%a = OpTypeArray %u %c
"#,
        r#"error: line 6: OpTypeArray Length <id> '2[%uint_0]' default value must be at least 1: found 0
  %_arr_uint_uint_0 = OpTypeArray %uint %uint_0

"#,
    ),
    (
        "arrlen64neg",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Int64
OpCapability Linkage
OpMemoryModel Logical GLSL450
%u = OpTypeInt 64 1
%c = OpConstant %u -5
%a = OpTypeArray %u %c
"#,
        r#"error: line 7: OpTypeArray Length <id> '2[%long_n5]' default value must be at least 1: found -5
  %_arr_long_long_n5 = OpTypeArray %long %long_n5

"#,
    ),
    (
        "arrlenf",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%u = OpTypeInt 32 1
%f = OpTypeFloat 32
%c = OpConstant %f 1
%a = OpTypeArray %u %c
"#,
        r#"error: line 7: OpTypeArray Length <id> '3[%float_1]' is not a constant integer type.
  %_arr_int_float_1 = OpTypeArray %int %float_1

"#,
    ),
    (
        "arrlenneg",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%u = OpTypeInt 32 1
%c = OpConstant %u -1
%a = OpTypeArray %u %c
"#,
        r#"error: line 6: OpTypeArray Length <id> '2[%int_n1]' default value must be at least 1: found -1
  %_arr_int_int_n1 = OpTypeArray %int %int_n1

"#,
    ),
    (
        "arrlennotconst",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%u = OpTypeInt 32 1
%a = OpTypeArray %u %u
"#,
        r#"error: line 5: OpTypeArray Length <id> '1[%int]' is not a scalar constant type.
  %_arr_int_int = OpTypeArray %int %int

"#,
    ),
    (
        "arrlennull",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%u = OpTypeInt 32 1
%c = OpConstantNull %u
%a = OpTypeArray %u %c
"#,
        r#"error: line 6: OpTypeArray Length <id> '2[%2]' default value must be at least 1: found 0
  %_arr_int_2 = OpTypeArray %int %2

"#,
    ),
    (
        "arrnottype",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%u = OpTypeInt 32 0
%c = OpConstant %u 3
%a = OpTypeArray %c %c
"#,
        r#"error: line 6: OpTypeArray Element Type <id> '2[%uint_3]' is not a type.
  %_arr_uint_3_uint_3 = OpTypeArray %uint_3 %uint_3

"#,
    ),
    (
        "arrofrta",
        "vulkan1.1",
        r#"OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%u = OpTypeInt 32 0
%c = OpConstant %u 2
%r = OpTypeRuntimeArray %u
%a = OpTypeArray %r %c
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%l = OpLabel
OpReturn
OpFunctionEnd
"#,
        r#"error: line 8: [VUID-StandaloneSpirv-OpTypeRuntimeArray-04680] OpTypeArray Element Type <id> '4[%_runtimearr_uint]' is not valid in Vulkan environments.
  %_arr__runtimearr_uint_uint_2 = OpTypeArray %_runtimearr_uint %uint_2

"#,
    ),
    (
        "arrstride",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
OpDecorate %s Block
OpDecorate %a ArrayStride 4
OpMemberDecorate %s 0 Offset 0
%u = OpTypeInt 32 0
%c = OpConstant %u 2
%s = OpTypeStruct %u
%a = OpTypeArray %s %c
"#,
        r#"error: line 10: Array containing a Block or BufferBlock must not be decorated with ArrayStride
  %_arr__struct_1_uint_2 = OpTypeArray %_struct_1 %uint_2

"#,
    ),
    (
        "arrvoid",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%v = OpTypeVoid
%u = OpTypeInt 32 0
%c = OpConstant %u 3
%a = OpTypeArray %v %c
"#,
        r#"error: line 7: OpTypeArray Element Type <id> '1[%void]' is a void type.
  %_arr_void_uint_3 = OpTypeArray %void %uint_3

"#,
    ),
    (
        "assume",
        "spv1.6",
        r#"OpCapability Shader
OpCapability ExpectAssumeKHR
OpCapability Linkage
OpExtension "SPV_KHR_expect_assume"
OpMemoryModel Logical GLSL450
%f = OpTypeFloat 32
%v = OpTypeVoid
%fn = OpTypeFunction %v
%c = OpConstant %f 1
%main = OpFunction %v None %fn
%l = OpLabel
OpAssumeTrueKHR %c
OpReturn
OpFunctionEnd
"#,
        r#"error: line 12: Value operand of OpAssumeTrueKHR must be a boolean scalar
  OpAssumeTrueKHR %float_1

"#,
    ),
    (
        "builtinmix",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
OpMemberDecorate %s 0 BuiltIn Position
%f = OpTypeFloat 32
%v = OpTypeVector %f 4
%s = OpTypeStruct %v %f
"#,
        r#"error: line 7: When BuiltIn decoration is applied to a structure-type member, all members of that structure type must also be decorated with BuiltIn (No allowed mixing of built-in variables and non-built-in variables within a single structure). Structure id 1 does not meet this requirement.
  %_struct_1 = OpTypeStruct %v4float %float

"#,
    ),
    (
        "builtinnest",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
OpMemberDecorate %s 0 BuiltIn Position
%f = OpTypeFloat 32
%v = OpTypeVector %f 4
%s = OpTypeStruct %v
%t = OpTypeStruct %s
"#,
        r#"error: line 8: Structure <id> '1[%_struct_1]' contains members with BuiltIn decoration. Therefore this structure may not be contained as a member of another structure type. Structure <id> '4[%_struct_4]' contains structure <id> '1[%_struct_1]'.
  %_struct_4 = OpTypeStruct %_struct_1

"#,
    ),
    (
        "cc_cm",
        "spv1.6",
        r#"OpCapability Shader
OpCapability CooperativeMatrixKHR
OpCapability VulkanMemoryModel
OpExtension "SPV_KHR_cooperative_matrix"
OpExtension "SPV_KHR_vulkan_memory_model"
OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%f = OpTypeFloat 32
%u = OpTypeInt 32 0
%c3 = OpConstant %u 3
%c8 = OpConstant %u 8
%c0 = OpConstant %u 0
%m = OpTypeCooperativeMatrixKHR %f %c3 %c8 %c8 %c0
%cc = OpConstantComposite %m %c8
%v = OpTypeVoid
%fn = OpTypeFunction %v
%main = OpFunction %v None %fn
%l = OpLabel
OpReturn
OpFunctionEnd
"#,
        r#"error: line 15: OpConstantComposite Constituent <id> '5[%uint_8]' type does not match the Result Type <id> '7[%7]'s component type.
  %8 = OpConstantComposite %7 %uint_8

"#,
    ),
    (
        "cc_cm2",
        "spv1.6",
        r#"OpCapability Shader
OpCapability CooperativeMatrixKHR
OpCapability VulkanMemoryModel
OpExtension "SPV_KHR_cooperative_matrix"
OpExtension "SPV_KHR_vulkan_memory_model"
OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%f = OpTypeFloat 32
%u = OpTypeInt 32 0
%c3 = OpConstant %u 3
%c8 = OpConstant %u 8
%c0 = OpConstant %u 0
%m = OpTypeCooperativeMatrixKHR %f %c3 %c8 %c8 %c0
%cc = OpConstantComposite %m %c8 %c8
%v = OpTypeVoid
%fn = OpTypeFunction %v
%main = OpFunction %v None %fn
%l = OpLabel
OpReturn
OpFunctionEnd
"#,
        r#"error: line 15: OpConstantComposite Constituent <id> '7[%7]' count must be one.
  %8 = OpConstantComposite %7 %uint_8 %uint_8

"#,
    ),
    (
        "ccarrcount",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%f = OpTypeFloat 32
%u = OpTypeInt 32 0
%n = OpConstant %u 3
%a = OpTypeArray %f %n
%c = OpConstant %f 1
%t = OpConstantComposite %a %c %c
"#,
        r#"error: line 9: OpConstantComposite Constituent count does not match Result Type <id> '4[%_arr_float_uint_3]'s array length.
  %6 = OpConstantComposite %_arr_float_uint_3 %float_1 %float_1

"#,
    ),
    (
        "ccarrtype",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%f = OpTypeFloat 32
%u = OpTypeInt 32 0
%n = OpConstant %u 2
%a = OpTypeArray %f %n
%c = OpConstant %f 1
%t = OpConstantComposite %a %c %n
"#,
        r#"error: line 9: OpConstantComposite Constituent <id> '3[%uint_2]'s type does not match Result Type <id> '4[%_arr_float_uint_2]'s array element type.
  %6 = OpConstantComposite %_arr_float_uint_2 %float_1 %uint_2

"#,
    ),
    (
        "ccmatcol",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%f = OpTypeFloat 32
%v = OpTypeVector %f 2
%m = OpTypeMatrix %v 2
%c = OpConstant %f 1
%t = OpConstantComposite %m %c %c
"#,
        r#"error: line 8: OpConstantComposite Constituent <id> '4[%float_1]' type does not match Result Type <id> '3[%mat2v2float]'s matrix column type.
  %5 = OpConstantComposite %mat2v2float %float_1 %float_1

"#,
    ),
    (
        "ccmatcomp",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%f = OpTypeFloat 32
%u = OpTypeInt 32 0
%v = OpTypeVector %f 2
%vu = OpTypeVector %u 2
%m = OpTypeMatrix %v 2
%c = OpConstant %u 1
%cv = OpConstantComposite %vu %c %c
%t = OpConstantComposite %m %cv %cv
"#,
        r#"error: line 11: OpConstantComposite Constituent <id> '7[%7]' component type does not match Result Type <id> '5[%mat2v2float]'s matrix column component type.
  %8 = OpConstantComposite %mat2v2float %7 %7

"#,
    ),
    (
        "ccmatcount",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%f = OpTypeFloat 32
%v = OpTypeVector %f 2
%m = OpTypeMatrix %v 2
%c = OpConstant %f 1
%cv = OpConstantComposite %v %c %c
%t = OpConstantComposite %m %cv
"#,
        r#"error: line 9: OpConstantComposite Constituent <id> count does not match Result Type <id> '3[%mat2v2float]'s matrix column count.
  %6 = OpConstantComposite %mat2v2float %5

"#,
    ),
    (
        "ccmatsize",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%f = OpTypeFloat 32
%v = OpTypeVector %f 2
%v3 = OpTypeVector %f 3
%m = OpTypeMatrix %v 2
%c = OpConstant %f 1
%cv = OpConstantComposite %v3 %c %c %c
%t = OpConstantComposite %m %cv %cv
"#,
        r#"error: line 10: OpConstantComposite Constituent <id> '6[%6]' vector component count does not match Result Type <id> '4[%mat2v2float]'s vector component count.
  %7 = OpConstantComposite %mat2v2float %6 %6

"#,
    ),
    (
        "ccnotcomp",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%f = OpTypeFloat 32
%c = OpConstant %f 1
%t = OpConstantComposite %f %c
"#,
        r#"error: line 6: OpConstantComposite Result Type <id> '1[%float]' is not a composite type.
  %3 = OpConstantComposite %float %float_1

"#,
    ),
    (
        "ccnotconst",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%f = OpTypeFloat 32
%v = OpTypeVector %f 2
%c = OpConstant %f 1
%p = OpTypePointer Private %f
%x = OpVariable %p Private
%t = OpConstantComposite %v %c %x
"#,
        r#"error: line 9: OpConstantComposite Constituent <id> '5[%5]' is not a constant or undef.
  %6 = OpConstantComposite %v2float %float_1 %5

"#,
    ),
    (
        "ccstructcount",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%f = OpTypeFloat 32
%s = OpTypeStruct %f %f
%c = OpConstant %f 1
%t = OpConstantComposite %s %c
"#,
        r#"error: line 7: OpConstantComposite Constituent <id> '2[%_struct_2]' count does not match Result Type <id> '2[%_struct_2]'s struct member count.
  %4 = OpConstantComposite %_struct_2 %float_1

"#,
    ),
    (
        "ccstructtype",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%f = OpTypeFloat 32
%u = OpTypeInt 32 0
%s = OpTypeStruct %f %f
%c = OpConstant %f 1
%d = OpConstant %u 1
%t = OpConstantComposite %s %c %d
"#,
        r#"error: line 9: OpConstantComposite Constituent <id> '5[%uint_1]' type does not match the Result Type <id> '3[%_struct_3]'s member type.
  %6 = OpConstantComposite %_struct_3 %float_1 %uint_1

"#,
    ),
    (
        "ccveccount",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%f = OpTypeFloat 32
%v = OpTypeVector %f 3
%c = OpConstant %f 1
%t = OpConstantComposite %v %c %c
"#,
        r#"error: line 7: OpConstantComposite Constituent <id> count does not match Result Type <id> '2[%v3float]'s vector component count.
  %4 = OpConstantComposite %v3float %float_1 %float_1

"#,
    ),
    (
        "ccvectype",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%f = OpTypeFloat 32
%u = OpTypeInt 32 0
%v = OpTypeVector %f 2
%c = OpConstant %f 1
%d = OpConstant %u 1
%t = OpConstantComposite %v %c %d
"#,
        r#"error: line 9: OpConstantComposite Constituent <id> '5[%uint_1]'s type does not match Result Type <id> '3[%v2float]'s vector element type.
  %6 = OpConstantComposite %v2float %float_1 %uint_1

"#,
    ),
    (
        "clock",
        "spv1.6",
        r#"OpCapability Shader
OpCapability ShaderClockKHR
OpCapability Int64
OpCapability Linkage
OpExtension "SPV_KHR_shader_clock"
OpMemoryModel Logical GLSL450
%u = OpTypeInt 32 0
%u64 = OpTypeInt 64 1
%v = OpTypeVoid
%fn = OpTypeFunction %v
%sc = OpConstant %u 3
%main = OpFunction %v None %fn
%l = OpLabel
%x = OpReadClockKHR %u64 %sc
OpReturn
OpFunctionEnd
"#,
        r#"error: line 14: Expected Value to be a vector of two components of unsigned integer or 64bit unsigned integer
  %8 = OpReadClockKHR %long %uint_3

"#,
    ),
    (
        "clockres",
        "spv1.6",
        r#"OpCapability Shader
OpCapability ShaderClockKHR
OpCapability Linkage
OpExtension "SPV_KHR_shader_clock"
OpMemoryModel Logical GLSL450
%u = OpTypeInt 32 0
%v = OpTypeVoid
%fn = OpTypeFunction %v
%sc = OpConstant %u 3
%main = OpFunction %v None %fn
%l = OpLabel
%x = OpReadClockKHR %u %sc
OpReturn
OpFunctionEnd
"#,
        r#"error: line 12: Expected Value to be a vector of two components of unsigned integer or 64bit unsigned integer
  %7 = OpReadClockKHR %uint %uint_3

"#,
    ),
    (
        "clockspec",
        "spv1.6",
        r#"OpCapability Shader
OpCapability ShaderClockKHR
OpCapability Linkage
OpExtension "SPV_KHR_shader_clock"
OpMemoryModel Logical GLSL450
%u = OpTypeInt 32 0
%v2 = OpTypeVector %u 2
%v = OpTypeVoid
%fn = OpTypeFunction %v
%sc = OpSpecConstant %u 3
%main = OpFunction %v None %fn
%l = OpLabel
%x = OpReadClockKHR %v2 %sc
OpReturn
OpFunctionEnd
"#,
        r#"error: line 13: Scope ids must be OpConstant when Shader capability is present
  %8 = OpReadClockKHR %v2uint %5

"#,
    ),
    (
        "clockvk",
        "vulkan1.2",
        r#"OpCapability Shader
OpCapability ShaderClockKHR
OpCapability Int64
OpExtension "SPV_KHR_shader_clock"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%u = OpTypeInt 32 0
%u64 = OpTypeInt 64 0
%v = OpTypeVoid
%fn = OpTypeFunction %v
%sc = OpConstant %u 2
%main = OpFunction %v None %fn
%l = OpLabel
%x = OpReadClockKHR %u64 %sc
OpReturn
OpFunctionEnd
"#,
        r#"error: line 15: [VUID-StandaloneSpirv-OpReadClockKHR-04652] Scope must be Subgroup or Device
  %8 = OpReadClockKHR %ulong %uint_2

"#,
    ),
    (
        "cm_comp",
        "spv1.6",
        r#"OpCapability Shader
OpCapability CooperativeMatrixKHR
OpCapability VulkanMemoryModel
OpExtension "SPV_KHR_cooperative_matrix"
OpExtension "SPV_KHR_vulkan_memory_model"
OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%f = OpTypeBool
%u = OpTypeInt 32 0
%c3 = OpConstant %u 3
%c8 = OpConstant %u 8
%c0 = OpConstant %u 0
%m = OpTypeCooperativeMatrixKHR %f %c3 %c8 %c8 %c0
%v = OpTypeVoid
%fn = OpTypeFunction %v
%main = OpFunction %v None %fn
%l = OpLabel
OpReturn
OpFunctionEnd
"#,
        r#"error: line 14: OpTypeCooperativeMatrix Component Type <id> '2[%bool]' is not a scalar numerical type.
  %7 = OpTypeCooperativeMatrixKHR %bool %uint_3 %uint_8 %uint_8 %uint_0

"#,
    ),
    (
        "cm_scope",
        "spv1.6",
        r#"OpCapability Shader
OpCapability CooperativeMatrixKHR
OpCapability VulkanMemoryModel
OpExtension "SPV_KHR_cooperative_matrix"
OpExtension "SPV_KHR_vulkan_memory_model"
OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%f = OpTypeFloat 32
%u = OpTypeInt 32 0
%c3 = OpConstant %f 3
%c8 = OpConstant %u 8
%c0 = OpConstant %u 0
%m = OpTypeCooperativeMatrixKHR %f %c3 %c8 %c8 %c0
%v = OpTypeVoid
%fn = OpTypeFunction %v
%main = OpFunction %v None %fn
%l = OpLabel
OpReturn
OpFunctionEnd
"#,
        r#"error: line 14: OpTypeCooperativeMatrix Scope <id> '4[%float_3]' is not a constant instruction with scalar integer type.
  %7 = OpTypeCooperativeMatrixKHR %float %float_3 %uint_8 %uint_8 %uint_0

"#,
    ),
    (
        "cm_use",
        "spv1.6",
        r#"OpCapability Shader
OpCapability CooperativeMatrixKHR
OpCapability VulkanMemoryModel
OpExtension "SPV_KHR_cooperative_matrix"
OpExtension "SPV_KHR_vulkan_memory_model"
OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%f = OpTypeFloat 32
%u = OpTypeInt 32 0
%c3 = OpConstant %u 3
%c8 = OpConstant %u 8
%c0 = OpConstant %f 0
%m = OpTypeCooperativeMatrixKHR %f %c3 %c8 %c8 %c0
%v = OpTypeVoid
%fn = OpTypeFunction %v
%main = OpFunction %v None %fn
%l = OpLabel
OpReturn
OpFunctionEnd
"#,
        r#"error: line 14: OpTypeCooperativeMatrixKHR Use <id> '6[%float_0]' is not a constant instruction with scalar integer type.
  %7 = OpTypeCooperativeMatrixKHR %float %uint_3 %uint_8 %uint_8 %float_0

"#,
    ),
    (
        "cm_wg",
        "spv1.6",
        r#"OpCapability Shader
OpCapability CooperativeMatrixKHR
OpCapability VulkanMemoryModel
OpExtension "SPV_KHR_cooperative_matrix"
OpExtension "SPV_KHR_vulkan_memory_model"
OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %main "main"
%f = OpTypeFloat 32
%u = OpTypeInt 32 0
%c3 = OpConstant %u 2
%c8 = OpConstant %u 8
%c0 = OpConstant %u 0
%m = OpTypeCooperativeMatrixKHR %f %c3 %c8 %c8 %c0
%v = OpTypeVoid
%fn = OpTypeFunction %v
%main = OpFunction %v None %fn
%l = OpLabel
OpReturn
OpFunctionEnd
"#,
        r#"error: line 13: OpTypeCooperativeMatrixKHR with ScopeWorkgroup used without specifying LocalSize or LocalSizeId for entry point <id> '1[%1]'
  %7 = OpTypeCooperativeMatrixKHR %float %uint_2 %uint_8 %uint_8 %uint_0

"#,
    ),
    (
        "cm_wgid",
        "spv1.6",
        r#"OpCapability Shader
OpCapability CooperativeMatrixKHR
OpCapability VulkanMemoryModel
OpExtension "SPV_KHR_cooperative_matrix"
OpExtension "SPV_KHR_vulkan_memory_model"
OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %main "main"
OpExecutionModeId %main LocalSizeId %c8 %c8 %late
%f = OpTypeFloat 32
%u = OpTypeInt 32 0
%c3 = OpConstant %u 2
%c8 = OpConstant %u 8
%c0 = OpConstant %u 0
%m = OpTypeCooperativeMatrixKHR %f %c3 %c8 %c8 %c0
%late = OpConstant %u 1
%v = OpTypeVoid
%fn = OpTypeFunction %v
%main = OpFunction %v None %fn
%l = OpLabel
OpReturn
OpFunctionEnd
"#,
        r#"error: line 14: OpTypeCooperativeMatrixKHR with ScopeWorkgroup used before LocalSizeId constant value <id> '3[%uint_1]' is defined.
  %8 = OpTypeCooperativeMatrixKHR %float %uint_2 %uint_8 %uint_8 %uint_0

"#,
    ),
    (
        "ctrue",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%f = OpTypeFloat 32
%t = OpConstantTrue %f
"#,
        r#"error: line 5: OpConstantTrue Result Type <id> '1[%float]' is not a boolean type.
  %true = OpConstantTrue %float

"#,
    ),
    (
        "expect",
        "spv1.6",
        r#"OpCapability Shader
OpCapability ExpectAssumeKHR
OpCapability Linkage
OpExtension "SPV_KHR_expect_assume"
OpMemoryModel Logical GLSL450
%f = OpTypeFloat 32
%u = OpTypeInt 32 0
%v = OpTypeVoid
%fn = OpTypeFunction %v
%c = OpConstant %f 1
%d = OpConstant %u 1
%main = OpFunction %v None %fn
%l = OpLabel
%x = OpExpectKHR %f %c %c
OpReturn
OpFunctionEnd
"#,
        r#"error: line 14: Result of OpExpectKHR must be a scalar or vector of integer type or boolean type
  %9 = OpExpectKHR %float %float_1 %float_1

"#,
    ),
    (
        "expect2",
        "spv1.6",
        r#"OpCapability Shader
OpCapability ExpectAssumeKHR
OpCapability Linkage
OpExtension "SPV_KHR_expect_assume"
OpMemoryModel Logical GLSL450
%f = OpTypeFloat 32
%u = OpTypeInt 32 0
%v = OpTypeVoid
%fn = OpTypeFunction %v
%c = OpConstant %f 1
%d = OpConstant %u 1
%main = OpFunction %v None %fn
%l = OpLabel
%x = OpExpectKHR %u %d %c
OpReturn
OpFunctionEnd
"#,
        r#"error: line 14: Type of ExpectedValue operand of OpExpectKHR does not match the result type 
  %9 = OpExpectKHR %uint %uint_1 %float_1

"#,
    ),
    (
        "f128",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%f = OpTypeFloat 128
"#,
        r#"error: line 4: Invalid number of bits (128) used for OpTypeFloat.
  %fp128 = OpTypeFloat 128

"#,
    ),
    (
        "f16",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%f = OpTypeFloat 16
"#,
        r#"error: line 4: Using a 16-bit floating point type requires the Float16 or Float16Buffer capability, or an extension that explicitly enables 16-bit floating point.
  %half = OpTypeFloat 16

"#,
    ),
    (
        "f64",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%f = OpTypeFloat 64
"#,
        r#"error: line 4: Using a 64-bit floating point type requires the Float64 capability.
  %double = OpTypeFloat 64

"#,
    ),
    (
        "f8",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%f = OpTypeFloat 8
"#,
        r#"error: line 4: Using a 8-bit floating point type requires the Float8EXT capability.
  %fp8 = OpTypeFloat 8

"#,
    ),
    (
        "f8bf",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Float8EXT
OpCapability BFloat16TypeKHR
OpCapability Linkage
OpExtension "SPV_EXT_float8"
OpExtension "SPV_KHR_bfloat16"
OpMemoryModel Logical GLSL450
%f = OpTypeFloat 8 BFloat16KHR
"#,
        r#"error: line 8: Unsupported 8-bit floating point encoding (BFloat16KHR).
  %bfloat16 = OpTypeFloat 8 BFloat16KHR

"#,
    ),
    (
        "f8noenc",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Float8EXT
OpCapability Linkage
OpExtension "SPV_EXT_float8"
OpMemoryModel Logical GLSL450
%f = OpTypeFloat 8
"#,
        r#"error: line 6: 8-bit floating point type requires an encoding.
  %fp8 = OpTypeFloat 8

"#,
    ),
    (
        "fnparam",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%v = OpTypeVoid
%u = OpTypeInt 32 0
%c = OpConstant %u 2
%fn = OpTypeFunction %v %c
"#,
        r#"error: line 7: OpTypeFunction Parameter Type <id> '3[%uint_2]' is not a type.
  %4 = OpTypeFunction %void %uint_2

"#,
    ),
    (
        "fnparamvoid",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%v = OpTypeVoid
%fn = OpTypeFunction %v %v
"#,
        r#"error: line 5: OpTypeFunction Parameter Type <id> '1[%void]' cannot be OpTypeVoid.
  %2 = OpTypeFunction %void %void

"#,
    ),
    (
        "fnret",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%u = OpTypeInt 32 0
%c = OpConstant %u 2
%fn = OpTypeFunction %c
"#,
        r#"error: line 6: OpTypeFunction Return Type <id> '2[%uint_2]' is not a type.
  %3 = OpTypeFunction %uint_2

"#,
    ),
    (
        "fnuse",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%v = OpTypeVoid
%fn = OpTypeFunction %v
%p = OpTypePointer Private %fn
"#,
        r#"error: line 6: Invalid use of function type result id '2[%2]'.
  %_ptr_Private_2 = OpTypePointer Private %2

"#,
    ),
    (
        "fnuse2",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%v = OpTypeVoid
%fn = OpTypeFunction %v
%x = OpUndef %fn
"#,
        r#"error: line 6: Invalid use of function type result id '2[%2]'.
  %3 = OpUndef %2

"#,
    ),
    (
        "fnuse_later",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%v = OpTypeVoid
%fn = OpTypeFunction %v
%u = OpTypeInt 32 0
%c = OpConstant %u 0
%a = OpTypeArray %fn %c
"#,
        r#"error: line 8: Invalid use of function type result id '2[%2]'.
  %_arr_2_uint_0 = OpTypeArray %2 %uint_0

"#,
    ),
    (
        "fnuse_param",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%v = OpTypeVoid
%fn = OpTypeFunction %v
%fn2 = OpTypeFunction %v %fn
"#,
        r#"error: line 6: Invalid use of function type result id '2[%2]'.
  %3 = OpTypeFunction %void %2

"#,
    ),
    (
        "fnuse_struct",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%v = OpTypeVoid
%fn = OpTypeFunction %v
%s = OpTypeStruct %fn
"#,
        r#"error: line 6: Invalid use of function type result id '2[%2]'.
  %_struct_3 = OpTypeStruct %2

"#,
    ),
    (
        "fwdnotstruct",
        "spv1.6",
        r#"OpCapability Shader
OpCapability PhysicalStorageBufferAddresses
OpCapability Linkage
OpMemoryModel PhysicalStorageBuffer64 GLSL450
OpTypeForwardPointer %p PhysicalStorageBuffer
%u = OpTypeInt 32 0
%p = OpTypePointer PhysicalStorageBuffer %u
"#,
        r#"error: line 5: Forward pointers must point to a structure
  OpTypeForwardPointer %_ptr_PhysicalStorageBuffer_uint PhysicalStorageBuffer

"#,
    ),
    (
        "fwdsc",
        "spv1.6",
        r#"OpCapability Shader
OpCapability PhysicalStorageBufferAddresses
OpCapability Linkage
OpMemoryModel PhysicalStorageBuffer64 GLSL450
OpTypeForwardPointer %p PhysicalStorageBuffer
%u = OpTypeInt 32 0
%s = OpTypeStruct %u
%p = OpTypePointer Private %s
"#,
        r#"error: line 5: Storage class in OpTypeForwardPointer does not match the pointer definition.
  OpTypeForwardPointer %_ptr_Private__struct_3 PhysicalStorageBuffer

"#,
    ),
    (
        "grp_block",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
OpDecorate %g Block
%g = OpDecorationGroup
OpGroupDecorate %g %s %t
OpMemberDecorate %s 0 Offset 0
OpMemberDecorate %t 0 Offset 0
%u = OpTypeInt 32 0
%s = OpTypeStruct %u
%t = OpTypeStruct %s
"#,
        r#"error: line 11: rules: A Block or BufferBlock cannot be nested within another Block or BufferBlock. 
  %_struct_3 = OpTypeStruct %_struct_2

"#,
    ),
    (
        "grp_builtin",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
OpDecorate %g BuiltIn Position
%g = OpDecorationGroup
OpGroupMemberDecorate %g %s 0
%f = OpTypeFloat 32
%v = OpTypeVector %f 4
%s = OpTypeStruct %v %f
"#,
        r#"error: line 9: When BuiltIn decoration is applied to a structure-type member, all members of that structure type must also be decorated with BuiltIn (No allowed mixing of built-in variables and non-built-in variables within a single structure). Structure id 2 does not meet this requirement.
  %_struct_2 = OpTypeStruct %v4float %float

"#,
    ),
    (
        "helper",
        "spv1.6",
        r#"OpCapability Shader
OpCapability DemoteToHelperInvocation
OpCapability Linkage
OpMemoryModel Logical GLSL450
%u = OpTypeInt 32 0
%v = OpTypeVoid
%fn = OpTypeFunction %v
%main = OpFunction %v None %fn
%l = OpLabel
%x = OpIsHelperInvocationEXT %u
OpReturn
OpFunctionEnd
"#,
        r#"error: line 10: Expected bool scalar type as Result Type: IsHelperInvocationEXT
  %6 = OpIsHelperInvocationEXT %uint

"#,
    ),
    (
        "int16",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%i = OpTypeInt 16 1
"#,
        r#"error: line 4: Using a 16-bit integer type requires the Int16 capability, or an extension that explicitly enables 16-bit integers.
  %short = OpTypeInt 16 1

"#,
    ),
    (
        "int48",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%i = OpTypeInt 48 1
"#,
        r#"error: line 4: Invalid number of bits (48) used for OpTypeInt.
  %i48 = OpTypeInt 48 1

"#,
    ),
    (
        "int64",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%i = OpTypeInt 64 1
"#,
        r#"error: line 4: Using a 64-bit integer type requires the Int64 capability.
  %long = OpTypeInt 64 1

"#,
    ),
    (
        "int8",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%i = OpTypeInt 8 0
"#,
        r#"error: line 4: Using an 8-bit integer type requires the Int8 capability, or an extension that explicitly enables 8-bit integers.
  %uchar = OpTypeInt 8 0

"#,
    ),
    (
        "intsign",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%i = OpTypeInt 32 2
"#,
        r#"error: line 4: OpTypeInt has invalid signedness:
  %int = OpTypeInt 32 2

"#,
    ),
    (
        "kernelsign",
        "spv1.6",
        r#"OpCapability Kernel
OpCapability Addresses
OpCapability Linkage
OpMemoryModel Physical32 OpenCL
%i = OpTypeInt 32 1
"#,
        r#"error: line 5: The Signedness in OpTypeInt must always be 0 when Kernel capability is used.
  %int = OpTypeInt 32 1

"#,
    ),
    (
        "mat5",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%f = OpTypeFloat 32
%v = OpTypeVector %f 2
%m = OpTypeMatrix %v 5
"#,
        r#"error: line 6: Matrix types can only be parameterized as having only 2, 3, or 4 columns.
  %mat5v2float = OpTypeMatrix %v2float 5

"#,
    ),
    (
        "matcol",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%f = OpTypeFloat 32
%m = OpTypeMatrix %f 2
"#,
        r#"error: line 5: Columns in a matrix must be of type vector.
  %mat2float = OpTypeMatrix %float 2

"#,
    ),
    (
        "matint",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%f = OpTypeInt 32 0
%v = OpTypeVector %f 2
%m = OpTypeMatrix %v 2
"#,
        r#"error: line 6: Matrix types can only be parameterized with floating-point types.
  %mat2v2uint = OpTypeMatrix %v2uint 2

"#,
    ),
    (
        "membername",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
OpMemberName %f 0 "x"
%f = OpTypeFloat 32
"#,
        r#"error: line 4: OpMemberName Type <id> '1[%float]' is not a struct type.
  OpMemberName %float 0 "x"

"#,
    ),
    (
        "membername2",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
OpMemberName %s 3 "x"
%f = OpTypeFloat 32
%s = OpTypeStruct %f
"#,
        r#"error: line 4: OpMemberName Member <id> '3[%3]' index is larger than Type <id> '1[%_struct_1]'s member count.
  OpMemberName %_struct_1 3 "x"

"#,
    ),
    (
        "mn_named",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
OpName %f "foo"
OpMemberName %s 1 "x"
%f = OpTypeFloat 32
%s = OpTypeStruct %f
"#,
        r#"error: line 5: OpMemberName Member <id> '1[%foo]' index is larger than Type <id> '2[%_struct_2]'s member count.
  OpMemberName %_struct_2 1 "x"

"#,
    ),
    (
        "nestedblock",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
OpDecorate %s Block
OpDecorate %t Block
OpMemberDecorate %s 0 Offset 0
OpMemberDecorate %t 0 Offset 0
%u = OpTypeInt 32 0
%s = OpTypeStruct %u
%t = OpTypeStruct %s
"#,
        r#"error: line 10: rules: A Block or BufferBlock cannot be nested within another Block or BufferBlock. 
  %_struct_2 = OpTypeStruct %_struct_1

"#,
    ),
    (
        "null_psb",
        "spv1.6",
        r#"OpCapability Shader
OpCapability PhysicalStorageBufferAddresses
OpCapability Linkage
OpMemoryModel PhysicalStorageBuffer64 GLSL450
%u = OpTypeInt 32 0
%p = OpTypePointer PhysicalStorageBuffer %u
%c = OpConstantNull %p
"#,
        r#"error: line 7: OpConstantNull Result Type <id> '2[%_ptr_PhysicalStorageBuffer_uint]' cannot have a null value.
  %3 = OpConstantNull %_ptr_PhysicalStorageBuffer_uint

"#,
    ),
    (
        "nullbad",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%v = OpTypeVoid
%t = OpConstantNull %v
"#,
        r#"error: line 5: OpConstantNull Result Type <id> '1[%void]' cannot have a null value.
  %2 = OpConstantNull %void

"#,
    ),
    (
        "nullimg",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%s = OpTypeSampler
%t = OpConstantNull %s
"#,
        r#"error: line 5: OpConstantNull Result Type <id> '1[%1]' cannot have a null value.
  %2 = OpConstantNull %1

"#,
    ),
    (
        "nullstruct",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%f = OpTypeFloat 32
%s0 = OpTypeSampler
%s = OpTypeStruct %f %s0
%t = OpConstantNull %s
"#,
        r#"error: line 7: OpConstantNull Result Type <id> '3[%_struct_3]' cannot have a null value.
  %4 = OpConstantNull %_struct_3

"#,
    ),
    (
        "ptr_img_struct",
        "vulkan1.1",
        r#"OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%f = OpTypeFloat 32
%i = OpTypeImage %f 2D 0 0 0 1 Unknown
%p = OpTypePointer UniformConstant %i
%s = OpTypeStruct %p
%v = OpTypeVoid
%fn = OpTypeFunction %v
%main = OpFunction %v None %fn
%l = OpLabel
OpReturn
OpFunctionEnd
"#,
        r#"error: line 8: [VUID-StandaloneSpirv-None-04667] In Vulkan, OpTypeStruct must not contain an opaque type.
  %_struct_5 = OpTypeStruct %_ptr_UniformConstant_3

"#,
    ),
    (
        "ptrnottype",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%u = OpTypeInt 32 0
%c = OpConstant %u 2
%p = OpTypePointer Private %c
"#,
        r#"error: line 6: OpTypePointer Type <id> '2[%uint_2]' is not a type.
  %_ptr_Private_uint_2 = OpTypePointer Private %uint_2

"#,
    ),
    (
        "ptrsc",
        "vulkan1.1",
        r#"OpCapability Shader
OpCapability Kernel
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%u = OpTypeInt 32 0
%p = OpTypePointer CrossWorkgroup %u
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%l = OpLabel
OpReturn
OpFunctionEnd
"#,
        r#"error: line 2: Capability Kernel is not allowed by Vulkan 1.1 specification (or requires extension)
  OpCapability Kernel

"#,
    ),
    (
        "rtaofrta",
        "vulkan1.1",
        r#"OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%u = OpTypeInt 32 0
%r = OpTypeRuntimeArray %u
%a = OpTypeRuntimeArray %r
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%l = OpLabel
OpReturn
OpFunctionEnd
"#,
        r#"error: line 7: [VUID-StandaloneSpirv-OpTypeRuntimeArray-04680] OpTypeRuntimeArray Element Type <id> '3[%_runtimearr_uint]' is not valid in Vulkan environments.
  %_runtimearr__runtimearr_uint = OpTypeRuntimeArray %_runtimearr_uint

"#,
    ),
    (
        "sampler",
        "spv1.6",
        r#"OpCapability Kernel
OpCapability LiteralSampler
OpCapability Addresses
OpCapability Linkage
OpMemoryModel Physical32 OpenCL
%f = OpTypeFloat 32
%t = OpConstantSampler %f None 0 Nearest
"#,
        r#"error: line 6: OpConstantSampler Result Type <id> '1[%float]' is not a sampler type.
  %float = OpTypeFloat 32

"#,
    ),
    (
        "sfalse",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%f = OpTypeFloat 32
%t = OpSpecConstantFalse %f
"#,
        r#"error: line 5: OpSpecConstantFalse Result Type <id> '1[%float]' is not a boolean type.
  %2 = OpSpecConstantFalse %float

"#,
    ),
    (
        "small16",
        "spv1.6",
        r#"OpCapability Shader
OpCapability StorageBuffer16BitAccess
OpCapability Linkage
OpExtension "SPV_KHR_16bit_storage"
OpMemoryModel Logical GLSL450
%u = OpTypeInt 16 0
%c = OpConstant %u 1
"#,
        r#"error: line 7: Cannot form constants of 8- or 16-bit types
  %ushort_1 = OpConstant %ushort 1

"#,
    ),
    (
        "small16undef",
        "spv1.6",
        r#"OpCapability Shader
OpCapability StorageBuffer16BitAccess
OpCapability Linkage
OpExtension "SPV_KHR_16bit_storage"
OpMemoryModel Logical GLSL450
%u = OpTypeInt 16 0
%c = OpUndef %u
"#,
        r#"error: line 7: Cannot create undefined values with 8- or 16-bit types
  %2 = OpUndef %ushort

"#,
    ),
    (
        "small_f16vec",
        "spv1.6",
        r#"OpCapability Shader
OpCapability StorageBuffer16BitAccess
OpCapability Linkage
OpExtension "SPV_KHR_16bit_storage"
OpMemoryModel Logical GLSL450
%h = OpTypeFloat 16
%v = OpTypeVector %h 2
%c = OpConstantNull %v
"#,
        r#"error: line 8: Cannot form constants of 8- or 16-bit types
  %3 = OpConstantNull %v2half

"#,
    ),
    (
        "small_structptr",
        "spv1.6",
        r#"OpCapability Shader
OpCapability StorageBuffer16BitAccess
OpCapability Linkage
OpExtension "SPV_KHR_16bit_storage"
OpMemoryModel Logical GLSL450
%h = OpTypeFloat 16
%p = OpTypePointer Private %h
%s = OpTypeStruct %p
%c = OpConstantNull %s
"#,
        r#"error: line 9: Cannot form constants of 8- or 16-bit types
  %4 = OpConstantNull %_struct_3

"#,
    ),
    (
        "specopfadd",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%f = OpTypeFloat 32
%c = OpSpecConstant %f 1
%t = OpSpecConstantOp %f FAdd %c %c
"#,
        r#"error: line 6: Specialization constant operation FAdd requires Kernel capability
  %3 = OpSpecConstantOp %float FAdd %2 %2

"#,
    ),
    (
        "specopquant",
        "spv1.6",
        r#"OpCapability Kernel
OpCapability Addresses
OpCapability Linkage
OpMemoryModel Physical32 OpenCL
%f = OpTypeFloat 32
%c = OpSpecConstant %f 1
%t = OpSpecConstantOp %f QuantizeToF16 %c
"#,
        r#"error: line 7: Specialization constant operation QuantizeToF16 requires Shader capability
  %3 = OpSpecConstantOp %float QuantizeToF16 %2

"#,
    ),
    (
        "structnottype",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%u = OpTypeInt 32 0
%c = OpConstant %u 2
%s = OpTypeStruct %c
"#,
        r#"error: line 6: OpTypeStruct Member Type <id> '2[%uint_2]' is not a type.
  %_struct_3 = OpTypeStruct %uint_2

"#,
    ),
    (
        "structopaque",
        "vulkan1.1",
        r#"OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%s0 = OpTypeSampler
%s = OpTypeStruct %s0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%l = OpLabel
OpReturn
OpFunctionEnd
"#,
        r#"error: line 6: [VUID-StandaloneSpirv-None-04667] In Vulkan, OpTypeStruct must not contain an opaque type.
  %_struct_3 = OpTypeStruct %2

"#,
    ),
    (
        "structrtanoblock",
        "vulkan1.1",
        r#"OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%u = OpTypeInt 32 0
%r = OpTypeRuntimeArray %u
%s = OpTypeStruct %u %r
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%l = OpLabel
OpReturn
OpFunctionEnd
"#,
        r#"error: line 7: [VUID-StandaloneSpirv-OpTypeRuntimeArray-04680] Vulkan, OpTypeStruct containing an OpTypeRuntimeArray must be decorated with Block or BufferBlock.
  %_struct_4 = OpTypeStruct %uint %_runtimearr_uint

"#,
    ),
    (
        "structrtanotlast",
        "vulkan1.1",
        r#"OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%u = OpTypeInt 32 0
%r = OpTypeRuntimeArray %u
%s = OpTypeStruct %r %u
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%l = OpLabel
OpReturn
OpFunctionEnd
"#,
        r#"error: line 7: [VUID-StandaloneSpirv-OpTypeRuntimeArray-04680] In Vulkan, OpTypeRuntimeArray must only be used for the last member of an OpTypeStruct
  %_struct_4 = OpTypeStruct %_runtimearr_uint %uint

"#,
    ),
    (
        "structvoid",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%v = OpTypeVoid
%s = OpTypeStruct %v
"#,
        r#"error: line 5: Structures cannot contain a void type.
  %_struct_2 = OpTypeStruct %void

"#,
    ),
    (
        "undefvoid",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%v = OpTypeVoid
%c = OpUndef %v
"#,
        r#"error: line 5: Cannot create undefined values with void type
  %2 = OpUndef %void

"#,
    ),
    (
        "vec1",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%f = OpTypeFloat 32
%v = OpTypeVector %f 1
"#,
        r#"error: line 5: Illegal number of components (1) for TypeVector
  %v1float = OpTypeVector %float 1

"#,
    ),
    (
        "vec16masked",
        "spv1.6",
        r#"OpCapability Shader
OpCapability MaskedGatherScatterINTEL
OpCapability Linkage
OpExtension "SPV_INTEL_masked_gather_scatter"
OpMemoryModel Logical GLSL450
%f = OpTypeFloat 32
%v = OpTypeVector %f 2
%vv = OpTypeVector %v 2
"#,
        r#"error: line 8: Invalid OpTypeVector Component Type<id> '2[%v2float]': Expected a scalar or pointer type when using the SPV_INTEL_masked_gather_scatter extension.
  %v2v2float = OpTypeVector %v2float 2

"#,
    ),
    (
        "vec5",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%f = OpTypeFloat 32
%v = OpTypeVector %f 5
"#,
        r#"error: line 5: Illegal number of components (5) for TypeVector
  %v5float = OpTypeVector %float 5

"#,
    ),
    (
        "vec8",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%f = OpTypeFloat 32
%v = OpTypeVector %f 8
"#,
        r#"error: line 5: Having 8 components for TypeVector requires the Vector16 capability
  %v8float = OpTypeVector %float 8

"#,
    ),
    (
        "vecvec",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%f = OpTypeFloat 32
%v = OpTypeVector %f 2
%vv = OpTypeVector %v 2
"#,
        r#"error: line 6: OpTypeVector Component Type <id> '2[%v2float]' is not a scalar type.
  %v2v2float = OpTypeVector %v2float 2

"#,
    ),
    (
        "vecvoid",
        "spv1.6",
        r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
%f = OpTypeVoid
%v = OpTypeVector %f 2
"#,
        r#"error: line 5: OpTypeVector Component Type <id> '1[%void]' is not a scalar type.
  %v2void = OpTypeVector %void 2

"#,
    ),
    (
        "vk_fwd",
        "vulkan1.3",
        r#"OpCapability Shader
OpCapability PhysicalStorageBufferAddresses
OpMemoryModel PhysicalStorageBuffer64 GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpTypeForwardPointer %p Private
%u = OpTypeInt 32 0
%s = OpTypeStruct %u
%p = OpTypePointer Private %s
%v = OpTypeVoid
%fn = OpTypeFunction %v
%main = OpFunction %v None %fn
%l = OpLabel
OpReturn
OpFunctionEnd
"#,
        r#"error: line 6: [VUID-StandaloneSpirv-OpTypeForwardPointer-04711] In Vulkan, OpTypeForwardPointer must have a storage class of PhysicalStorageBuffer.
  OpTypeForwardPointer %_ptr_Private__struct_4 Private

"#,
    ),
    (
        "vk_untyped",
        "vulkan1.3",
        r#"OpCapability Shader
OpCapability UntypedPointersKHR
OpExtension "SPV_KHR_untyped_pointers"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%p = OpTypeUntypedPointerKHR Private
%v = OpTypeVoid
%fn = OpTypeFunction %v
%main = OpFunction %v None %fn
%l = OpLabel
OpReturn
OpFunctionEnd
"#,
        r#"error: line 7: In Vulkan, untyped pointers can only be used in an explicitly laid out storage class
  %_ptr_Private = OpTypeUntypedPointerKHR Private

"#,
    ),
];

fn assemble(text: &str, env: &str) -> Vec<u32> {
    let opts = AsmOptions {
        version: spirv_core::target_env_version(env),
        preserve_numeric_ids: true,
        ..AsmOptions::default()
    };
    assemble_str(text, &opts).unwrap_or_else(|e| panic!("assembles: {e:?}"))
}

fn ours(words: &[u32], env: &str) -> String {
    let options = Options {
        target_env: TargetEnv::parse(env).expect("known env"),
        ..Options::default()
    };
    spirv_val_text(words, &options).unwrap_or_default()
}

#[test]
fn type_constant_literal_misc_debug_messages_are_spirv_vals() {
    for (name, env, text, expected) in CASES {
        let words = assemble(text, env);
        assert_eq!(&ours(&words, env), expected, "case {name} ({env})");
    }
}

#[test]
fn recorded_messages_are_what_spirv_val_prints_now() {
    let Some(bin) = spirv_tests::require_spirv_tools("the live comparison with spirv-val") else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("val-types-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("mkdir");
    for (name, env, text, expected) in CASES {
        let path = dir.join(format!("{name}.spv"));
        let words = assemble(text, env);
        std::fs::write(&path, spirv_core::binary::words_to_bytes(&words)).expect("write");
        let out = Command::new(bin.join("spirv-val"))
            .args(["--target-env", env])
            .arg(&path)
            .output()
            .expect("spirv-val runs");
        assert_eq!(
            &String::from_utf8_lossy(&out.stderr),
            expected,
            "case {name} ({env})"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A literal's high-order bits: modules spirv-as refuses to write, patched by hand.
#[test]
fn literal_high_bits_are_zero_or_sign_extended() {
    let text = "OpCapability Shader\nOpCapability Int16\nOpCapability Linkage\nOpMemoryModel Logical GLSL450\n%1 = OpTypeInt 16 1\n%2 = OpConstant %1 -1\n";
    let mut words = assemble(text, "spv1.6");
    let last = words.len() - 1;
    assert_eq!(words[last], 0xFFFF_FFFF);
    // Sign-extended: accepted.
    assert_eq!(ours(&words, "spv1.6"), "");
    // Zero-extended for a signed type: refused.
    words[last] = 0xFFFF;
    assert_eq!(
        ours(&words, "spv1.6"),
        "error: line 6: The high-order bits of a literal number in instruction <id> 2 must be 0 for a floating-point type, or 0 for an integer type with Signedness of 0, or sign extended when Signedness is 1\n  %short_65535 = OpConstant %short 65535\n\n"
    );
}

/// The `OpTypeTensorARM` rules of the type and constant passes, on modules from
/// SPIRV-Tools' `val_tensor_test.cpp` (its header, the case's body, its footer).
const TENSOR_HEADER: &str = r#"OpCapability Shader
OpCapability VulkanMemoryModel
OpCapability Int8
OpCapability TensorsARM
OpExtension "SPV_ARM_tensors"
OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %fnep "main"
OpExecutionMode %fnep LocalSize 1 1 1
OpDecorate %tensor_var DescriptorSet 0
OpDecorate %tensor_var Binding 0
OpDecorate %tensor_var_float_unranked DescriptorSet 0
OpDecorate %tensor_var_float_unranked Binding 1
OpDecorate %tensor_var_spec_rank DescriptorSet 0
OpDecorate %tensor_var_spec_rank Binding 2
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%float = OpTypeFloat 32
%fnty = OpTypeFunction %void
%uint_vec4 = OpTypeVector %uint 4
%uint_0 = OpConstant %uint 0
%uint_0_spec = OpSpecConstant %uint 0
%uint_1 = OpConstant %uint 1
%uint_2 = OpConstant %uint 2
%uint_3 = OpConstant %uint 3
%uint_4 = OpConstant %uint 4
%uint_42 = OpConstant %uint 42
%uint_1_bis = OpConstant %uint 1
%float_1 = OpConstant %float 1
%uint_vec4_1_1_1_1 = OpConstantComposite %uint_vec4 %uint_1 %uint_1 %uint_1 %uint_1
%uint_arr1 = OpTypeArray %uint %uint_1
%uint_arr2 = OpTypeArray %uint %uint_2
%uint_arr3 = OpTypeArray %uint %uint_3
%uint_arr4 = OpTypeArray %uint %uint_4
%float_arr4 = OpTypeArray %float %uint_4
%uint_arr4_1_1_1_1 = OpConstantComposite %uint_arr4 %uint_1 %uint_1 %uint_1 %uint_1
%uint_arr4_0_0_0_0_spec = OpSpecConstantComposite %uint_arr4 %uint_0_spec %uint_0_spec %uint_0_spec %uint_0_spec
%uint_arr2_1_1 = OpConstantComposite %uint_arr2 %uint_1 %uint_1
%float_arr4_1_1_1_1 = OpConstantComposite %float_arr4 %float_1 %float_1 %float_1 %float_1
%uint_arr4_1_1_0_1 = OpConstantComposite %uint_arr4 %uint_1 %uint_1 %uint_0 %uint_1
%uint_ptr_Private = OpTypePointer Private %uint
%uint_arr4_ptr_Private = OpTypePointer Private %uint_arr4
%uint_var_1 = OpVariable %uint_ptr_Private Private %uint_1
%var_uint_arr4_1_1_1_1 = OpVariable %uint_arr4_ptr_Private Private %uint_arr4_1_1_1_1
%tensor_uint_4 = OpTypeTensorARM %uint %uint_4
%tensor_uint_spec = OpTypeTensorARM %uint %uint_0_spec
%tensor_float = OpTypeTensorARM %float
%tensor_uint_4_ptr_UniformConstant = OpTypePointer UniformConstant %tensor_uint_4
%tensor_var = OpVariable %tensor_uint_4_ptr_UniformConstant UniformConstant
%tensor_float_ptr_UniformConstant = OpTypePointer UniformConstant %tensor_float
%tensor_var_float_unranked = OpVariable %tensor_float_ptr_UniformConstant UniformConstant
%tensor_uint_spec_ptr_UniformConstant = OpTypePointer UniformConstant %tensor_uint_spec
%tensor_var_spec_rank = OpVariable %tensor_uint_spec_ptr_UniformConstant UniformConstant
"#;
const TENSOR_FOOTER: &str = r#"%fnep = OpFunction %void None %fnty
%label = OpLabel
OpReturn
OpFunctionEnd
"#;
const TENSOR_CASES: &[(&str, &str, &str)] = &[
    (
        "InvalidTensorConstantRank1NotEnoughConstituents",
        r#"%uint_arr1_4 = OpConstantComposite %uint_arr1 %uint_4
%ts_uint_r1 = OpTypeTensorARM %uint %uint_1 %uint_arr1_4
%cst = OpConstantComposite %ts_uint_r1 %uint_42 %uint_42 %uint_42
"#,
        r#"error: line 55: OpConstantComposite Constituent count does not match the shape of Result Type <id> '41[%41]' along its outermost dimension, expected 4 but got 3.
  %42 = OpConstantComposite %41 %uint_42 %uint_42 %uint_42

"#,
    ),
    (
        "InvalidTensorConstantRank1WrongConstituentType",
        r#"%uint_arr1_4 = OpConstantComposite %uint_arr1 %uint_4
%ts_uint_r1 = OpTypeTensorARM %uint %uint_1 %uint_arr1_4
%cst = OpConstantComposite %ts_uint_r1 %uint_42 %uint_42 %float_1 %uint_42
"#,
        r#"error: line 55: OpConstantComposite Constituent <id> '18[%float_1]' type does not match the element type of the tensor ('41[%41]').
  %42 = OpConstantComposite %41 %uint_42 %uint_42 %float_1 %uint_42

"#,
    ),
    (
        "InvalidTensorConstantRank2ConstituentNotATensor",
        r#"%uint_arr1_2 = OpConstantComposite %uint_arr1 %uint_2
%uint_arr2_2_2 = OpConstantComposite %uint_arr2 %uint_2 %uint_2
%ts_uint_r1 = OpTypeTensorARM %uint %uint_1 %uint_arr1_2
%ts_uint_r2 = OpTypeTensorARM %uint %uint_2 %uint_arr2_2_2
%cst_r1 = OpConstantComposite %ts_uint_r1 %uint_42 %uint_42
%cst_r2 = OpConstantComposite %ts_uint_r2 %uint_1 %cst_r1
"#,
        r#"error: line 58: OpConstantComposite Constituent <id> '12[%uint_1]' must be an OpTypeTensorARM.
  %45 = OpConstantComposite %43 %uint_1 %44

"#,
    ),
    (
        "InvalidTensorConstantRank2ConstituentTensorWrongElementType",
        r#"%uint_arr1_2 = OpConstantComposite %uint_arr1 %uint_2
%uint_arr2_2_2 = OpConstantComposite %uint_arr2 %uint_2 %uint_2
%ts_float_r1 = OpTypeTensorARM %float %uint_1 %uint_arr1_2
%ts_uint_r2 = OpTypeTensorARM %uint %uint_2 %uint_arr2_2_2
%cst_r1 = OpConstantComposite %ts_float_r1 %float_1 %float_1
%cst_r2 = OpConstantComposite %ts_uint_r2 %cst_r1 %cst_r1
"#,
        r#"error: line 58: OpConstantComposite Constituent <id> '44[%44]' must have the same Element Type as Result Type <id> '43[%43]'.
  %45 = OpConstantComposite %43 %44 %44

"#,
    ),
    (
        "InvalidTensorConstantRank2ConstituentTensorWrongRank",
        r#"%uint_arr1_2 = OpConstantComposite %uint_arr1 %uint_2
%uint_arr2_2_2 = OpConstantComposite %uint_arr2 %uint_2 %uint_2
%ts_uint_r1 = OpTypeTensorARM %uint %uint_1 %uint_arr1_2
%ts_uint_r2 = OpTypeTensorARM %uint %uint_2 %uint_arr2_2_2
%cst_r1 = OpConstantComposite %ts_uint_r1 %uint_42 %uint_42
%cst_r2 = OpConstantComposite %ts_uint_r2 %cst_r1 %cst_r1
%cst = OpConstantComposite %ts_uint_r2 %cst_r1 %cst_r2
"#,
        r#"error: line 59: OpConstantComposite Constituent <id> '45[%45]' must have a Rank that is 1 less than the Rank of Result Type <id> '43[%43]', expected 1 but got 2.
  %46 = OpConstantComposite %43 %44 %45

"#,
    ),
    (
        "InvalidTensorConstantRank2ConstituentTensorWrongShape",
        r#"%uint_arr1_3 = OpConstantComposite %uint_arr1 %uint_3
%uint_arr2_2_2 = OpConstantComposite %uint_arr2 %uint_2 %uint_2
%ts_uint_r1 = OpTypeTensorARM %uint %uint_1 %uint_arr1_3
%ts_uint_r2 = OpTypeTensorARM %uint %uint_2 %uint_arr2_2_2
%cst_r1 = OpConstantComposite %ts_uint_r1 %uint_42 %uint_42 %uint_42
%cst_r2 = OpConstantComposite %ts_uint_r2 %cst_r1 %cst_r1
"#,
        r#"error: line 58: OpConstantComposite Constituent <id> '44[%44]' must have a Shape that matches that of Result Type <id> '43[%43]' along all inner dimensions of Result Type, expected 2 for dimension 0 of Constituent but got 3.
  %45 = OpConstantComposite %43 %44 %44

"#,
    ),
    (
        "InvalidTypeRank0",
        r#"%test_type = OpTypeTensorARM %uint %uint_0
"#,
        r#"error: line 53: OpTypeTensorARM Rank <id> '10[%uint_0]' must define a value greater than 0.
  %40 = OpTypeTensorARM %uint %uint_0

"#,
    ),
    (
        "InvalidTypeShapeConstantArrayOfIntegerWithZeroConstituent",
        r#"%test_type = OpTypeTensorARM %uint %uint_4 %uint_arr4_1_1_0_1
"#,
        r#"error: line 53: OpTypeTensorARM Shape constituent 2 is not greater than 0.
  %40 = OpTypeTensorARM %uint %uint_4 %29

"#,
    ),
    (
        "InvalidTypeShapeConstantArrayOfIntegerWrongLength",
        r#"%test_type = OpTypeTensorARM %uint %uint_1 %uint_arr4_1_1_1_1
"#,
        r#"error: line 53: OpTypeTensorARM Shape <id> '25[%25]' is not an array of integer type whose Length is equal to Rank.
  %40 = OpTypeTensorARM %uint %uint_1 %25

"#,
    ),
    (
        "InvalidTypeRankNotConstant",
        r#"%test_type = OpTypeTensorARM %uint %uint_var_1
"#,
        r#"error: line 53: OpTypeTensorARM Rank <id> '32[%32]' is not a constant instruction.
  %40 = OpTypeTensorARM %uint %32

"#,
    ),
    (
        "InvalidNullTensorConstantNotRanked",
        r#"%ts_uint_r1 = OpTypeTensorARM %uint
%cst = OpConstantNull %ts_uint_r1
"#,
        r#"error: line 54: OpConstantNull Result Type <id> '40[%40]' cannot have a null value.
  %41 = OpConstantNull %40

"#,
    ),
    (
        "ValidTensorConstantRank4",
        r#"%uint_arr1_2 = OpConstantComposite %uint_arr1 %uint_2
%uint_arr2_2_2 = OpConstantComposite %uint_arr2 %uint_2 %uint_2
%uint_arr3_2_2_2 = OpConstantComposite %uint_arr3 %uint_2 %uint_2 %uint_2
%uint_arr4_2_2_2_2 = OpConstantComposite %uint_arr4 %uint_2 %uint_2 %uint_2 %uint_2
%ts_uint_r1 = OpTypeTensorARM %uint %uint_1 %uint_arr1_2
%ts_uint_r2 = OpTypeTensorARM %uint %uint_2 %uint_arr2_2_2
%ts_uint_r3 = OpTypeTensorARM %uint %uint_3 %uint_arr3_2_2_2
%ts_uint_r4 = OpTypeTensorARM %uint %uint_4 %uint_arr4_2_2_2_2
%cst_r1 = OpConstantComposite %ts_uint_r1 %uint_42 %uint_42
%cst_r2 = OpConstantComposite %ts_uint_r2 %cst_r1 %cst_r1
%cst_r3 = OpConstantComposite %ts_uint_r3 %cst_r2 %cst_r2
%cst_r4 = OpConstantComposite %ts_uint_r4 %cst_r3 %cst_r3
"#,
        r#""#,
    ),
    (
        "ValidTensorConstantRank2SpecConstantConstituent",
        r#"%uint_arr1_2 = OpSpecConstantComposite %uint_arr1 %uint_0_spec
%uint_arr2_2_2 = OpSpecConstantComposite %uint_arr2 %uint_0_spec %uint_0_spec
%ts_uint_r1 = OpTypeTensorARM %uint %uint_0_spec %uint_arr1_2
%ts_uint_r2 = OpTypeTensorARM %uint %uint_2 %uint_arr2_2_2
%cst_r1 = OpSpecConstantComposite %ts_uint_r1 %uint_0_spec %uint_0_spec
%cst_r2 = OpSpecConstantComposite %ts_uint_r2 %cst_r1 %cst_r1
"#,
        r#""#,
    ),
];

#[test]
fn tensor_types_and_constants_are_checked_as_spirv_val_does() {
    for (name, body, expected) in TENSOR_CASES {
        let text = format!("{TENSOR_HEADER}{body}{TENSOR_FOOTER}");
        let words = assemble(&text, "vulkan1.3");
        assert_eq!(&ours(&words, "vulkan1.3"), expected, "case {name}");
    }
}
