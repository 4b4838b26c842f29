//! The subgroup built-ins (`SubgroupSize`, `SubgroupLocalInvocationId`, the
//! `Subgroup…Mask`s, `SubgroupId`, `NumSubgroups`) against spirv-val 2025.5.

use super::{accepts, rejects, shader};

/// A Vulkan module with one entry point of `model` naming `%bi`, a variable of
/// `ty` in `class` decorated `BuiltIn {builtin}`, that `main` copies.
fn module(model: &str, builtin: &str, class: &str, ty: &str) -> String {
    let modes = match model {
        "GLCompute" => "OpExecutionMode %main LocalSize 1 1 1\n",
        "Fragment" => "OpExecutionMode %main OriginUpperLeft\nOpDecorate %bi Flat\n",
        _ => "",
    };
    shader(
        "OpCapability GroupNonUniform\nOpCapability GroupNonUniformBallot\nOpCapability Int64\n",
        &format!(
            "OpEntryPoint {model} %main \"main\" %bi\n{modes}OpDecorate %bi BuiltIn {builtin}\n"
        ),
        &format!(
            "%ulong = OpTypeInt 64 0\n%v4uint = OpTypeVector %uint 4\n%v3uint = OpTypeVector %uint 3\n%p = OpTypePointer {class} {ty}\n%bi = OpVariable %p {class}\n"
        ),
        "%x = OpCopyObject %p %bi\n",
    )
}

#[test]
fn subgroup_builtins() {
    rejects(
        "vulkan1.1",
        &module("GLCompute", "SubgroupSize", "Output", "%uint"),
        "[VUID-SubgroupSize-SubgroupSize-04382] Vulkan spec allows BuiltIn SubgroupSize to be only used for variables with Input storage class. ID <2> (OpVariable) is referencing ID <2> (OpVariable) which is decorated with BuiltIn SubgroupSize. ID <2> (OpVariable) uses storage class Output.",
    );
    rejects(
        "vulkan1.1",
        &module("GLCompute", "SubgroupLocalInvocationId", "Input", "%float"),
        "[VUID-SubgroupLocalInvocationId-SubgroupLocalInvocationId-04381] According to the Vulkan spec BuiltIn SubgroupLocalInvocationId variable needs to be a 32-bit int. ID <2> (OpVariable) is not an int scalar.",
    );
    rejects(
        "vulkan1.1",
        &module("GLCompute", "SubgroupEqMask", "Input", "%v3uint"),
        "[VUID-SubgroupEqMask-SubgroupEqMask-04371] According to the Vulkan spec BuiltIn SubgroupEqMask variable needs to be a 4-component 32-bit int vector. ID <2> (OpVariable) has 3 components.",
    );
    rejects(
        "vulkan1.1",
        &module("GLCompute", "SubgroupId", "Input", "%ulong"),
        "[VUID-SubgroupId-SubgroupId-04369] According to the Vulkan spec BuiltIn SubgroupId variable needs to be a 32-bit int vector. ID <2> (OpVariable) has bit width 64.",
    );
    rejects(
        "vulkan1.1",
        &module("Fragment", "NumSubgroups", "Input", "%uint"),
        "[VUID-NumSubgroups-NumSubgroups-04293] Vulkan spec allows BuiltIn NumSubgroups to be used only with GLCompute, MeshNV, TaskNV, MeshEXT or TaskEXT execution model. ID <13> (OpCopyObject) is referencing ID <2> (OpVariable) which is decorated with BuiltIn NumSubgroups in function <1> called with execution model Fragment.",
    );
    // Not on a struct member.
    let member = shader(
        "OpCapability GroupNonUniform\n",
        "OpEntryPoint GLCompute %main \"main\" %bi\nOpExecutionMode %main LocalSize 1 1 1\nOpMemberDecorate %s 0 BuiltIn SubgroupId\nOpDecorate %s Block\n",
        "%s = OpTypeStruct %uint\n%p = OpTypePointer Input %s\n%bi = OpVariable %p Input\n",
        "",
    );
    rejects(
        "vulkan1.1",
        &member,
        "BuiltIn SubgroupId cannot be used as a member decoration ",
    );
    accepts(
        "vulkan1.1",
        &module("Fragment", "SubgroupSize", "Input", "%uint"),
    );
    accepts(
        "vulkan1.1",
        &module("Vertex", "SubgroupLocalInvocationId", "Input", "%uint"),
    );
    accepts(
        "vulkan1.1",
        &module("GLCompute", "SubgroupLtMask", "Input", "%v4uint"),
    );
    accepts(
        "vulkan1.1",
        &module("GLCompute", "SubgroupId", "Input", "%uint"),
    );
    // Outside Vulkan none of this is checked.
    accepts(
        "spv1.3",
        &module("GLCompute", "SubgroupSize", "Input", "%float"),
    );
}
