//! The ray tracing built-ins against spirv-val 2025.5: the type at the definition
//! (scalars, vectors, the 4x3 matrices), Input only, and the stages each may be used in.

use super::{accepts, rejects};

/// A Vulkan ray tracing module with one entry point of `model` naming `%bi`, a
/// variable of `ty` in `class` decorated `BuiltIn {builtin}`, that `main` copies.
fn module(model: &str, builtin: &str, class: &str, ty: &str) -> String {
    let modes = if model == "Fragment" {
        "OpExecutionMode %main OriginUpperLeft\nOpDecorate %bi Flat\n"
    } else {
        ""
    };
    format!(
        "OpCapability Shader\nOpCapability RayTracingKHR\nOpExtension \"SPV_KHR_ray_tracing\"\nOpMemoryModel Logical GLSL450\n\
         OpEntryPoint {model} %main \"main\" %bi\n{modes}OpDecorate %bi BuiltIn {builtin}\n\
         %void = OpTypeVoid\n%fn = OpTypeFunction %void\n%float = OpTypeFloat 32\n%uint = OpTypeInt 32 0\n\
         %v3float = OpTypeVector %float 3\n%v4float = OpTypeVector %float 4\n%v3uint = OpTypeVector %uint 3\n\
         %m43 = OpTypeMatrix %v3float 4\n%m34 = OpTypeMatrix %v4float 3\n\
         %p = OpTypePointer {class} {ty}\n%bi = OpVariable %p {class}\n\
         %main = OpFunction %void None %fn\n%e = OpLabel\n%x = OpCopyObject %p %bi\nOpReturn\nOpFunctionEnd\n"
    )
}

#[test]
fn ray_tracing_builtins() {
    rejects(
        "vulkan1.2",
        &module("RayGenerationKHR", "LaunchIdKHR", "Input", "%v3float"),
        "[VUID-LaunchIdKHR-LaunchIdKHR-04268] According to the Vulkan spec BuiltIn LaunchIdKHR variable needs to be a 3-component 32-bit int vector. ID <2> (OpVariable) is not an int vector.",
    );
    rejects(
        "vulkan1.2",
        &module("ClosestHitKHR", "ObjectToWorldKHR", "Input", "%m34"),
        "[VUID-ObjectToWorldKHR-ObjectToWorldKHR-04307] According to the Vulkan spec BuiltIn ObjectToWorldKHR variable needs to be a matrix with 4 columns of 3-component vectors of 32-bit floats. ID <2> (OpVariable) has columns 3 and rows 4 not equal to expected 4x3.",
    );
    rejects(
        "vulkan1.2",
        &module("ClosestHitKHR", "RayTmaxKHR", "Input", "%uint"),
        "[VUID-RayTmaxKHR-RayTmaxKHR-04350] According to the Vulkan spec BuiltIn RayTmaxKHR variable needs to be a 32-bit float scalar. ID <2> (OpVariable) is not a float scalar.",
    );
    rejects(
        "vulkan1.2",
        &module("MissKHR", "WorldRayOriginKHR", "Private", "%v3float"),
        "[VUID-WorldRayOriginKHR-WorldRayOriginKHR-04432] Vulkan spec allows BuiltIn WorldRayOriginKHR to be only used for variables with Input storage class. ID <2> (OpVariable) is referencing ID <2> (OpVariable) which is decorated with BuiltIn WorldRayOriginKHR. ID <2> (OpVariable) uses storage class Private.",
    );
    rejects(
        "vulkan1.2",
        &module("Fragment", "LaunchSizeKHR", "Input", "%v3uint"),
        "[VUID-LaunchSizeKHR-LaunchSizeKHR-04269] Vulkan spec does not allow BuiltIn LaunchSizeKHR to be used with the execution model Fragment.",
    );
    rejects(
        "vulkan1.2",
        &module("MissKHR", "HitKindKHR", "Input", "%uint"),
        "[VUID-HitKindKHR-HitKindKHR-04242] Vulkan spec does not allow BuiltIn HitKindKHR to be used with the execution model MissKHR.",
    );
    accepts(
        "vulkan1.2",
        &module("RayGenerationKHR", "LaunchIdKHR", "Input", "%v3uint"),
    );
    accepts(
        "vulkan1.2",
        &module("AnyHitKHR", "WorldToObjectKHR", "Input", "%m43"),
    );
    accepts(
        "vulkan1.2",
        &module("IntersectionKHR", "InstanceId", "Input", "%uint"),
    );
    // Outside Vulkan none of this is checked.
    accepts(
        "spv1.4",
        &module("MissKHR", "HitKindKHR", "Input", "%float"),
    );
}
