//! The validator's mode-setting, interface and built-in rules against spirv-val
//! 2025.5's messages: small modules (many after SPIRV-Tools' `val_modes_test.cpp`,
//! `val_interfaces_test.cpp` and `val_builtins_test.cpp`) that break one rule each,
//! with spirv-val's first message line recorded. Where spirv-val is installed each case
//! is also run through it and the whole output compared; modules that spirv-val
//! accepts must be accepted. `VAL_MODES_PRINT=1` prints both outputs instead.

use spirv_tests::val_cases::{self, accepts, shader};

/// `text` is rejected with `message` as the first line's message, as spirv-val does
/// (`VAL_MODES_PRINT=1` prints both outputs instead).
fn rejects(env: &str, text: &str, message: &str) {
    val_cases::rejects(env, text, message, "VAL_MODES_PRINT");
}

const COMPUTE: &str =
    "OpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 1 1 1\n";

#[test]
fn interface_lists() {
    let private = "%pp = OpTypePointer Private %uint\n%var = OpVariable %pp Private\n";
    // From SPIR-V 1.4 every global variable the entry point uses is listed.
    rejects(
        "spv1.4",
        &shader("", COMPUTE, private, "%x = OpLoad %uint %var\n"),
        "Interface variable id <8> is used by entry point 'main' id <1>, but is not listed as an interface",
    );
    accepts(
        "spv1.3",
        &shader("", COMPUTE, private, "%x = OpLoad %uint %var\n"),
    );
    accepts(
        "spv1.4",
        &shader(
            "",
            "OpEntryPoint GLCompute %main \"main\" %var\nOpExecutionMode %main LocalSize 1 1 1\n",
            private,
            "%x = OpLoad %uint %var\n",
        ),
    );
    // Through a call, and through a second entry point of the same function.
    let helper = "OpCapability Shader\nOpMemoryModel Logical GLSL450\n\
        OpEntryPoint GLCompute %main \"main\" %var\nOpEntryPoint GLCompute %main \"other\"\nOpExecutionMode %main LocalSize 1 1 1\n\
        %void = OpTypeVoid\n%fn = OpTypeFunction %void\n%uint = OpTypeInt 32 0\n%pp = OpTypePointer Private %uint\n%var = OpVariable %pp Private\n\
        %f = OpFunction %void None %fn\n%fe = OpLabel\n%x = OpLoad %uint %var\nOpReturn\nOpFunctionEnd\n\
        %main = OpFunction %void None %fn\n%entry = OpLabel\n%c = OpFunctionCall %void %f\nOpReturn\nOpFunctionEnd\n";
    rejects(
        "spv1.5",
        helper,
        "Interface variable id <2> is used by entry point 'other' id <1>, but is not listed as an interface",
    );
    // The smallest entry function lists the variable: the later ones reaching it are
    // looked at in turn ('b' does not reach it, 'c' leaves it out).
    let entry = |name: &str, call: &str| {
        format!(
            "%{name} = OpFunction %void None %fn\n%{name}e = OpLabel\n{call}OpReturn\nOpFunctionEnd\n"
        )
    };
    let shared = format!(
        "OpCapability Shader\nOpMemoryModel Logical GLSL450\n\
        OpEntryPoint GLCompute %a \"a\" %var\nOpEntryPoint GLCompute %b \"b\"\nOpEntryPoint GLCompute %c \"c\"\n\
        OpExecutionMode %a LocalSize 1 1 1\nOpExecutionMode %b LocalSize 1 1 1\nOpExecutionMode %c LocalSize 1 1 1\n\
        %void = OpTypeVoid\n%fn = OpTypeFunction %void\n%uint = OpTypeInt 32 0\n%pp = OpTypePointer Private %uint\n%var = OpVariable %pp Private\n\
        %f = OpFunction %void None %fn\n%fe = OpLabel\n%x = OpLoad %uint %var\nOpReturn\nOpFunctionEnd\n{}{}{}{}",
        entry("g", "%y = OpFunctionCall %void %f\n"),
        entry("a", "%ya = OpFunctionCall %void %g\n"),
        entry("b", ""),
        entry("c", "%yc = OpFunctionCall %void %g\n"),
    );
    rejects(
        "spv1.5",
        &shared,
        "Interface variable id <2> is used by entry point 'c' id <4>, but is not listed as an interface",
    );
    // Before 1.4, Input and Output variables.
    let input = "%ip = OpTypePointer Input %uint\n%in = OpVariable %ip Input\n";
    rejects(
        "spv1.0",
        &shader("", COMPUTE, input, "%x = OpLoad %uint %in\n"),
        "Interface variable id <8> is used by entry point 'main' id <1>, but is not listed as an interface",
    );
}

#[test]
fn vulkan_storage_classes() {
    let text = "OpCapability Shader\nOpMemoryModel Logical GLSL450\n\
        OpEntryPoint GLCompute %main \"main\" %a %b\nOpExecutionMode %main LocalSize 1 1 1\n\
        OpDecorate %s Block\nOpMemberDecorate %s 0 Offset 0\n\
        %void = OpTypeVoid\n%fn = OpTypeFunction %void\n%uint = OpTypeInt 32 0\n%s = OpTypeStruct %uint\n%pc = OpTypePointer PushConstant %s\n\
        %a = OpVariable %pc PushConstant\n%b = OpVariable %pc PushConstant\n\
        %main = OpFunction %void None %fn\n%entry = OpLabel\nOpReturn\nOpFunctionEnd\n";
    rejects(
        "vulkan1.2",
        text,
        "[VUID-StandaloneSpirv-OpVariable-06673] Entry-point has more than one variable with the PushConstant storage class in the interface",
    );
}

/// A vertex shader with `decos` and `decls`, its interface `vars`.
fn vertex(decos: &str, decls: &str, vars: &str) -> String {
    format!(
        "OpCapability Shader\nOpMemoryModel Logical GLSL450\nOpEntryPoint Vertex %main \"main\" {vars}\n{decos}\
         %void = OpTypeVoid\n%fn = OpTypeFunction %void\n%float = OpTypeFloat 32\n%v4float = OpTypeVector %float 4\n\
         %uint = OpTypeInt 32 0\n%ip = OpTypePointer Input %v4float\n%op = OpTypePointer Output %v4float\n\
         {decls}%main = OpFunction %void None %fn\n%entry = OpLabel\nOpReturn\nOpFunctionEnd\n"
    )
}

#[test]
fn locations() {
    let two_in = "%a = OpVariable %ip Input\n%b = OpVariable %ip Input\n";
    rejects(
        "vulkan1.0",
        &vertex("OpDecorate %a Location 0\n", two_in, "%a %b"),
        "[VUID-StandaloneSpirv-Location-04916] Variable must be decorated with a location",
    );
    rejects(
        "vulkan1.0",
        &vertex(
            "OpDecorate %a Location 0\nOpDecorate %b Location 0\n",
            two_in,
            "%a %b",
        ),
        "[VUID-StandaloneSpirv-OpEntryPoint-08721] Entry-point has conflicting input location assignment at location 0, component 0",
    );
    accepts(
        "vulkan1.0",
        &vertex(
            "OpDecorate %a Location 0\nOpDecorate %b Location 1\n",
            two_in,
            "%a %b",
        ),
    );
    // An input and an output may share a location.
    accepts(
        "vulkan1.0",
        &vertex(
            "OpDecorate %a Location 0\nOpDecorate %b Location 0\n",
            "%a = OpVariable %ip Input\n%b = OpVariable %op Output\n",
            "%a %b",
        ),
    );
    // Arrays take a location per element; components of a smaller type.
    rejects(
        "vulkan1.0",
        &vertex(
            "OpDecorate %a Location 0\nOpDecorate %b Location 2\n",
            "%n = OpConstant %uint 3\n%arr = OpTypeArray %v4float %n\n%ap = OpTypePointer Output %arr\n%a = OpVariable %ap Output\n%b = OpVariable %op Output\n",
            "%a %b",
        ),
        "[VUID-StandaloneSpirv-OpEntryPoint-08722] Entry-point has conflicting output location assignment at location 2, component 0",
    );
    accepts(
        "vulkan1.0",
        &vertex(
            "OpDecorate %a Location 0\nOpDecorate %b Location 0\nOpDecorate %b Component 1\n",
            "%fi = OpTypePointer Input %float\n%a = OpVariable %fi Input\n%b = OpVariable %fi Input\n",
            "%a %b",
        ),
    );
    // Block members.
    rejects(
        "vulkan1.0",
        &vertex(
            "OpDecorate %s Block\nOpMemberDecorate %s 0 Location 0\n",
            "%s = OpTypeStruct %v4float %v4float\n%sp = OpTypePointer Input %s\n%a = OpVariable %sp Input\n",
            "%a",
        ),
        "[VUID-StandaloneSpirv-Location-04919] Member index 1 is missing a location assignment",
    );
    rejects(
        "vulkan1.0",
        &vertex(
            "OpDecorate %s Block\nOpMemberDecorate %s 0 Location 0\nOpMemberDecorate %s 1 Location 0\n",
            "%s = OpTypeStruct %v4float %v4float\n%sp = OpTypePointer Input %s\n%a = OpVariable %sp Input\n",
            "%a",
        ),
        "[VUID-StandaloneSpirv-OpEntryPoint-08721] Entry-point has conflicting input location assignment at location 0, component 0",
    );
    // Built-ins need no location.
    accepts(
        "vulkan1.0",
        &vertex(
            "OpDecorate %a BuiltIn Position\n",
            "%a = OpVariable %op Output\n",
            "%a",
        ),
    );
    // Index only on fragment outputs.
    rejects(
        "vulkan1.0",
        &vertex(
            "OpDecorate %a Location 0\nOpDecorate %a Index 1\n",
            "%a = OpVariable %op Output\n",
            "%a",
        ),
        "Index can only be applied to Fragment output variables",
    );
}

#[test]
fn entry_point_modes() {
    let frag = |modes: &str| {
        shader(
            "",
            &format!("OpEntryPoint Fragment %main \"main\"\n{modes}"),
            "",
            "",
        )
    };
    rejects(
        "spv1.0",
        &frag(""),
        "Fragment execution model entry points require either an OriginUpperLeft or OriginLowerLeft execution mode.",
    );
    rejects(
        "spv1.0",
        &frag("OpExecutionMode %main OriginUpperLeft\nOpExecutionMode %main OriginLowerLeft\n"),
        "Fragment execution model entry points can only specify one of OriginUpperLeft or OriginLowerLeft execution modes.",
    );
    rejects(
        "spv1.0",
        &frag(
            "OpExecutionMode %main OriginUpperLeft\nOpExecutionMode %main DepthGreater\nOpExecutionMode %main DepthLess\n",
        ),
        "Fragment execution model entry points can specify at most one of DepthGreater, DepthLess or DepthUnchanged execution modes.",
    );
    rejects(
        "vulkan1.0",
        &frag("OpExecutionMode %main OriginLowerLeft\n"),
        "[VUID-StandaloneSpirv-OriginLowerLeft-04653] In the Vulkan environment, the OriginLowerLeft execution mode must not be used.",
    );
    accepts(
        "vulkan1.0",
        &frag("OpExecutionMode %main OriginUpperLeft\n"),
    );
    rejects(
        "vulkan1.0",
        &shader("", "OpEntryPoint GLCompute %main \"main\"\n", "", ""),
        "[VUID-StandaloneSpirv-None-10685] In the Vulkan environment, GLCompute execution model entry points require either the LocalSize or LocalSizeId execution mode or an object decorated with WorkgroupSize must be specified.",
    );
    accepts(
        "spv1.0",
        &shader("", "OpEntryPoint GLCompute %main \"main\"\n", "", ""),
    );
    let geometry = "OpCapability Geometry\n";
    rejects(
        "spv1.0",
        &shader(
            geometry,
            "OpEntryPoint Geometry %main \"main\"\nOpExecutionMode %main InputPoints\n",
            "",
            "",
        ),
        "Geometry execution model entry points must specify exactly one of OutputPoints, OutputLineStrip or OutputTriangleStrip execution modes.",
    );
    rejects(
        "spv1.0",
        &shader(
            "",
            "OpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 4 0 1\n",
            "",
            "",
        ),
        "Local Size execution mode must not have a product of zero (X = 4, Y = 0, Z = 1).",
    );
}

#[test]
fn execution_modes() {
    rejects(
        "spv1.0",
        &shader(
            "",
            "OpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 1 1 1\nOpExecutionMode %main OriginUpperLeft\n",
            "",
            "",
        ),
        "Execution mode can only be used with the Fragment execution model.",
    );
    rejects(
        "spv1.0",
        &shader(
            "",
            "OpEntryPoint Fragment %main \"main\"\nOpExecutionMode %main OriginUpperLeft\nOpExecutionMode %main LocalSize 1 1 1\n",
            "",
            "",
        ),
        "Execution mode can only be used with a Kernel or GLCompute execution model.",
    );
    rejects(
        "spv1.0",
        &shader(
            "OpCapability Tessellation\n",
            "OpEntryPoint Fragment %main \"main\"\nOpExecutionMode %main OriginUpperLeft\nOpExecutionMode %main Quads\n",
            "",
            "",
        ),
        "Execution mode can only be used with a tessellation execution model.",
    );
    rejects(
        "spv1.0",
        &shader(
            "",
            "OpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 1 1 1\nOpExecutionMode %main LocalSize 1 1 1\n",
            "",
            "",
        ),
        "LocalSize execution mode must not be specified multiple times per entry point",
    );
    rejects(
        "spv1.2",
        &shader(
            "",
            "OpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSizeId %one %one %one\n",
            "",
            "",
        )
        .replace("%v4float = OpTypeVector %float 4\n", "%v4float = OpTypeVector %float 4\n%one = OpConstant %uint 1\n"),
        "OpExecutionMode is only valid when the Mode operand is an execution mode that takes no Extra Operands, or takes Extra Operands that are not id operands.",
    );
    rejects(
        "vulkan1.1",
        &shader(
            "",
            "OpEntryPoint GLCompute %main \"main\"\nOpExecutionModeId %main LocalSizeId %one %one %one\n",
            "",
            "",
        )
        .replace("%v4float = OpTypeVector %float 4\n", "%v4float = OpTypeVector %float 4\n%one = OpConstant %uint 1\n"),
        "LocalSizeId mode is not allowed by the current environment.",
    );
    accepts(
        "vulkan1.3",
        &shader(
            "",
            "OpEntryPoint GLCompute %main \"main\"\nOpExecutionModeId %main LocalSizeId %one %one %one\n",
            "",
            "",
        )
        .replace("%v4float = OpTypeVector %float 4\n", "%v4float = OpTypeVector %float 4\n%one = OpConstant %uint 1\n"),
    );
}

#[test]
fn memory_models() {
    let kernel = "OpCapability Kernel\nOpCapability Addresses\nOpMemoryModel Logical OpenCL\n\
        OpEntryPoint Kernel %main \"main\"\n%void = OpTypeVoid\n%fn = OpTypeFunction %void\n\
        %main = OpFunction %void None %fn\n%entry = OpLabel\nOpReturn\nOpFunctionEnd\n";
    rejects(
        "opencl2.0",
        kernel,
        "Addressing model must be Physical32 or Physical64 in the OpenCL environment.",
    );
}
