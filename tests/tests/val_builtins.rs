//! The validator's built-in rules (spirv-val's `validate_builtins.cpp`) against
//! spirv-val 2025.5's messages: small modules that break one rule each, with
//! spirv-val's first message line recorded. Where spirv-val is installed each case is
//! also run through it and the whole output compared; modules that spirv-val accepts
//! must be accepted. `VAL_BUILTINS_PRINT=1` prints both outputs instead.

use spirv_tests::val_cases::{self, accepts, shader};

#[path = "val_builtins/draw.rs"]
mod draw;
#[path = "val_builtins/per_vertex.rs"]
mod per_vertex;
#[path = "val_builtins/primitive.rs"]
mod primitive;
#[path = "val_builtins/raytracing.rs"]
mod raytracing;
#[path = "val_builtins/subgroup.rs"]
mod subgroup;

/// `text` is rejected with `message` as the first line's message, as spirv-val does
/// (`VAL_BUILTINS_PRINT=1` prints both outputs instead).
fn rejects(env: &str, text: &str, message: &str) {
    val_cases::rejects(env, text, message, "VAL_BUILTINS_PRINT");
}

/// A Vulkan fragment shader whose `main` loads `%bi`, a variable decorated `deco`.
fn frag(modes: &str, deco: &str, decls: &str, body: &str) -> String {
    frag_caps("", modes, deco, decls, body)
}

/// As [`frag`], with capabilities `caps`.
fn frag_caps(caps: &str, modes: &str, deco: &str, decls: &str, body: &str) -> String {
    shader(
        caps,
        &format!(
            "OpEntryPoint Fragment %main \"main\" %bi\nOpExecutionMode %main OriginUpperLeft\n{modes}OpDecorate %bi {deco}\n"
        ),
        decls,
        body,
    )
}

#[test]
fn types_at_definition() {
    let v3 = "%v3float = OpTypeVector %float 3\n%ip = OpTypePointer Input %v3float\n%bi = OpVariable %ip Input\n";
    rejects(
        "vulkan1.0",
        &frag("", "BuiltIn FragCoord", v3, "%x = OpLoad %v3float %bi\n"),
        "[VUID-FragCoord-FragCoord-04212] According to the Vulkan spec BuiltIn FragCoord variable needs to be a 4-component 32-bit float vector. ID <2> (OpVariable) has 3 components.",
    );
    let f = "%ip = OpTypePointer Input %float\n%bi = OpVariable %ip Input\n";
    rejects(
        "vulkan1.0",
        &frag("", "BuiltIn FrontFacing", f, "%x = OpLoad %float %bi\n"),
        "[VUID-FrontFacing-FrontFacing-04231] According to the Vulkan spec BuiltIn FrontFacing variable needs to be a bool scalar. ID <2> (OpVariable) is not a bool scalar.",
    );
    rejects(
        "vulkan1.0",
        &frag_caps(
            "OpCapability SampleRateShading\n",
            "",
            "BuiltIn SampleId",
            f,
            "%x = OpLoad %float %bi\n",
        ),
        "[VUID-SampleId-SampleId-04356] According to the Vulkan spec BuiltIn SampleId variable needs to be a 32-bit int scalar. ID <2> (OpVariable) is not an int scalar.",
    );
    let arr = "%u2 = OpConstant %uint 2\n%arr = OpTypeArray %float %u2\n%ip = OpTypePointer Input %arr\n%bi = OpVariable %ip Input\n";
    rejects(
        "vulkan1.0",
        &frag("", "BuiltIn SampleMask", arr, ""),
        "[VUID-SampleMask-SampleMask-04359] According to the Vulkan spec BuiltIn SampleMask variable needs to be a 32-bit int array. ID <2> (OpVariable) components are not int scalar.",
    );
    // A struct member.
    let member = "%bool = OpTypeBool\n%s = OpTypeStruct %float\n%ip = OpTypePointer Input %s\n%bi = OpVariable %ip Input\n";
    rejects(
        "vulkan1.0",
        &shader(
            "",
            "OpEntryPoint Fragment %main \"main\" %bi\nOpExecutionMode %main OriginUpperLeft\nOpMemberDecorate %s 0 BuiltIn FrontFacing\nOpDecorate %s Block\n",
            member,
            "",
        ),
        "[VUID-FrontFacing-FrontFacing-04231] According to the Vulkan spec BuiltIn FrontFacing variable needs to be a bool scalar. Member #0 of struct ID <3> is not a bool scalar.",
    );
    // Tessellation levels need Patch.
    let tess = "%u4 = OpConstant %uint 4\n%arr = OpTypeArray %float %u4\n%op = OpTypePointer Output %arr\n%bi = OpVariable %op Output\n";
    rejects(
        "vulkan1.0",
        &shader(
            "OpCapability Tessellation\n",
            "OpEntryPoint TessellationControl %main \"main\" %bi\nOpExecutionMode %main OutputVertices 3\nOpDecorate %bi BuiltIn TessLevelOuter\n",
            tess,
            "",
        ),
        "[VUID-StandaloneSpirv-TessLevelInner-10880] BuiltIn TessLevelOuter variable needs to also have a Patch decoration.",
    );
    // VertexId is not for Vulkan.
    let int = "%int = OpTypeInt 32 1\n%ip = OpTypePointer Input %int\n%bi = OpVariable %ip Input\n";
    rejects(
        "vulkan1.0",
        &shader(
            "",
            "OpEntryPoint Vertex %main \"main\" %bi\nOpDecorate %bi BuiltIn VertexId\n",
            int,
            "",
        ),
        "Vulkan spec doesn't allow BuiltIn VertexId to be used.",
    );
    // Outside Vulkan only WorkgroupSize is checked.
    accepts(
        "spv1.0",
        &frag("", "BuiltIn FragCoord", v3, "%x = OpLoad %v3float %bi\n"),
    );
}

#[test]
fn references() {
    let out = "%op = OpTypePointer Output %v4float\n%bi = OpVariable %op Output\n";
    rejects(
        "vulkan1.0",
        &frag("", "BuiltIn FragCoord", out, ""),
        "[VUID-FragCoord-FragCoord-04211] Vulkan spec allows BuiltIn FragCoord to be only used for variables with Input storage class. ID <2> (OpVariable) is referencing ID <2> (OpVariable) which is decorated with BuiltIn FragCoord. ID <2> (OpVariable) uses storage class Output.",
    );
    // Through a struct type and its pointer type.
    let through =
        "%s = OpTypeStruct %v4float\n%op = OpTypePointer Output %s\n%bi = OpVariable %op Output\n";
    rejects(
        "vulkan1.0",
        &shader(
            "",
            "OpEntryPoint Fragment %main \"main\" %bi\nOpExecutionMode %main OriginUpperLeft\nOpMemberDecorate %s 0 BuiltIn FragCoord\nOpDecorate %s Block\n",
            through,
            "",
        ),
        "[VUID-FragCoord-FragCoord-04211] Vulkan spec allows BuiltIn FragCoord to be only used for variables with Input storage class. ID <9> (OpTypePointer) is referencing ID <3> (OpTypeStruct) which is decorated with BuiltIn FragCoord. ID <9> (OpTypePointer) uses storage class Output.",
    );
    // The wrong execution model, seen in the function that loads it.
    let gid = "%v3uint = OpTypeVector %uint 3\n%ip = OpTypePointer Input %v3uint\n%bi = OpVariable %ip Input\n";
    rejects(
        "vulkan1.0",
        &frag(
            "OpDecorate %bi Flat\n",
            "BuiltIn GlobalInvocationId",
            gid,
            "%x = OpLoad %v3uint %bi\n",
        ),
        "[VUID-GlobalInvocationId-GlobalInvocationId-04236] Vulkan spec allows BuiltIn GlobalInvocationId to be used only with GLCompute, MeshNV, TaskNV, MeshEXT or TaskEXT execution model. ID <11> (OpLoad) is referencing ID <2> (OpVariable) which is decorated with BuiltIn GlobalInvocationId in function <1> called with execution model Fragment.",
    );
    // Through a call from two entry points.
    let two = "OpCapability Shader\nOpMemoryModel Logical GLSL450\n\
        OpEntryPoint GLCompute %c \"c\" %bi\nOpEntryPoint Vertex %v \"v\" %bi\nOpExecutionMode %c LocalSize 1 1 1\nOpDecorate %bi BuiltIn LocalInvocationIndex\n\
        %void = OpTypeVoid\n%fn = OpTypeFunction %void\n%uint = OpTypeInt 32 0\n%ip = OpTypePointer Input %uint\n%bi = OpVariable %ip Input\n\
        %f = OpFunction %void None %fn\n%fe = OpLabel\n%x = OpLoad %uint %bi\nOpReturn\nOpFunctionEnd\n\
        %c = OpFunction %void None %fn\n%ce = OpLabel\n%c1 = OpFunctionCall %void %f\nOpReturn\nOpFunctionEnd\n\
        %v = OpFunction %void None %fn\n%ve = OpLabel\n%c2 = OpFunctionCall %void %f\nOpReturn\nOpFunctionEnd\n";
    rejects(
        "vulkan1.0",
        two,
        "[VUID-LocalInvocationIndex-LocalInvocationIndex-04284] Vulkan spec allows BuiltIn LocalInvocationIndex to be used only with GLCompute, MeshNV, TaskNV, MeshEXT or TaskEXT execution model. ID <10> (OpLoad) is referencing ID <2> (OpVariable) which is decorated with BuiltIn LocalInvocationIndex in function <8> called with execution model Vertex.",
    );
    // FragDepth needs DepthReplacing on every entry point that uses it.
    let depth = "%op = OpTypePointer Output %float\n%bi = OpVariable %op Output\n%one = OpConstant %float 1\n";
    rejects(
        "vulkan1.0",
        &frag("", "BuiltIn FragDepth", depth, "OpStore %bi %one\n"),
        "[VUID-FragDepth-FragDepth-04216] Vulkan spec requires DepthReplacing execution mode to be declared when using BuiltIn FragDepth. ID <0> (OpStore) is referencing ID <2> (OpVariable) which is decorated with BuiltIn FragDepth in function <1>.",
    );
    accepts(
        "vulkan1.0",
        &frag(
            "OpExecutionMode %main DepthReplacing\n",
            "BuiltIn FragDepth",
            depth,
            "OpStore %bi %one\n",
        ),
    );
    // Unused, a built-in's model is not checked.
    accepts(
        "vulkan1.0",
        &frag(
            "OpDecorate %bi Flat\n",
            "BuiltIn GlobalInvocationId",
            gid,
            "",
        ),
    );
}

#[test]
fn workgroup_size() {
    let module = |env_decls: &str, modes: &str| {
        shader(
            "OpCapability ComputeDerivativeGroupLinearKHR\nOpExtension \"SPV_KHR_compute_shader_derivatives\"\n",
            &format!(
                "OpEntryPoint GLCompute %main \"main\"\n{modes}OpDecorate %ws BuiltIn WorkgroupSize\n"
            ),
            &format!("%v3uint = OpTypeVector %uint 3\n{env_decls}"),
            "",
        )
    };
    let zero = "%u0 = OpConstant %uint 0\n%u1 = OpConstant %uint 1\n%ws = OpConstantComposite %v3uint %u1 %u0 %u1\n";
    rejects(
        "spv1.0",
        &module(zero, ""),
        "WorkgroupSize decorations must not have a static product of zero (X = 1, Y = 0, Z = 1).",
    );
    rejects(
        "vulkan1.0",
        &module(zero, ""),
        "WorkgroupSize decorations must not have a static product of zero (X = 1, Y = 0, Z = 1).",
    );
    let odd = "%u3 = OpConstant %uint 3\n%u1 = OpConstant %uint 1\n%ws = OpConstantComposite %v3uint %u3 %u1 %u1\n";
    rejects(
        "spv1.0",
        &module(odd, "OpExecutionMode %main DerivativeGroupLinearKHR\n"),
        "WorkgroupSize decorations has a static dimensions of (X = 3, Y = 1, Z = 1) but Entry Point id 1 has an DerivativeGroupLinearKHR execution mode, so the product (3) must be a multiple of 4",
    );
    let spec = "%u3 = OpSpecConstant %uint 3\n%u1 = OpConstant %uint 1\n%ws = OpSpecConstantComposite %v3uint %u3 %u1 %u1\n";
    accepts("vulkan1.0", &module(spec, ""));
    let ok = "%u1 = OpConstant %uint 1\n%ws = OpConstantComposite %v3uint %u1 %u1 %u1\n";
    accepts("vulkan1.0", &module(ok, ""));
    // And a compute model where it is used.
    let frag_use = shader(
        "",
        "OpEntryPoint Fragment %main \"main\"\nOpExecutionMode %main OriginUpperLeft\nOpDecorate %ws BuiltIn WorkgroupSize\n",
        &format!("%v3uint = OpTypeVector %uint 3\n{ok}"),
        "%x = OpCompositeExtract %uint %ws 0\n",
    );
    rejects(
        "vulkan1.0",
        &frag_use,
        "[VUID-WorkgroupSize-WorkgroupSize-04425] Vulkan spec allows BuiltIn WorkgroupSize to be used only with GLCompute, MeshNV, TaskNV, MeshEXT or TaskEXT execution model. ID <11> (OpCompositeExtract) is referencing ID <2> (OpConstantComposite) which is decorated with BuiltIn WorkgroupSize in function <1> called with execution model Fragment.",
    );
}
