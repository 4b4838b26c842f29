//! `PrimitiveId`, `Layer` and `ViewportIndex` against spirv-val 2025.5: the storage
//! class, the rules left on Input and Output pointers, the execution models and the
//! capabilities Vertex needs, the 32-bit int type, and the per-primitive rules of
//! MeshEXT shaders.

use super::{accepts, rejects, shader};

/// A Vulkan module with one entry point of `model` naming `%bi`, a variable of `ty`
/// in `class` decorated `BuiltIn {builtin}`, that `main` copies.
fn module(caps: &str, model: &str, builtin: &str, class: &str, ty: &str) -> String {
    let modes = match model {
        "Fragment" if class == "Input" => {
            "OpExecutionMode %main OriginUpperLeft\nOpDecorate %bi Flat\n"
        }
        "Fragment" => "OpExecutionMode %main OriginUpperLeft\n",
        "GLCompute" => "OpExecutionMode %main LocalSize 1 1 1\n",
        "Geometry" => {
            "OpExecutionMode %main Triangles\nOpExecutionMode %main Invocations 1\nOpExecutionMode %main OutputTriangleStrip\nOpExecutionMode %main OutputVertices 3\n"
        }
        _ => "",
    };
    shader(
        caps,
        &format!(
            "OpEntryPoint {model} %main \"main\" %bi\n{modes}OpDecorate %bi BuiltIn {builtin}\n"
        ),
        &format!(
            "%u3 = OpConstant %uint 3\n%a = OpTypeArray %uint %u3\n%p = OpTypePointer {class} {ty}\n%bi = OpVariable %p {class}\n"
        ),
        "%x = OpCopyObject %p %bi\n",
    )
}

const GEOM: &str = "OpCapability Geometry\n";

#[test]
fn layer_viewport_primitive() {
    rejects(
        "vulkan1.2",
        &module(GEOM, "Geometry", "Layer", "Private", "%uint"),
        "Vulkan spec allows BuiltIn Layer to be only used for variables with Input or Output storage class. ID <2> (OpVariable) is referencing ID <2> (OpVariable) which is decorated with BuiltIn Layer. ID <2> (OpVariable) uses storage class Private.",
    );
    rejects(
        "vulkan1.0",
        &module(GEOM, "Geometry", "Layer", "Input", "%uint"),
        "[VUID-Layer-Layer-04274] Vulkan spec doesn't allow BuiltIn Layer and ViewportIndex to be used for variables with Input storage class if execution model is Vertex, TessellationEvaluation, Geometry, MeshNV or MeshEXT. ID <2> (OpVariable) depends on ID <2> (OpVariable) which is decorated with BuiltIn Layer. Id <2> is later referenced by ID <12> (OpCopyObject) in function <1> which is called with execution model Geometry.",
    );
    rejects(
        "vulkan1.0",
        &module(
            "OpCapability MultiViewport\n",
            "Fragment",
            "ViewportIndex",
            "Output",
            "%uint",
        ),
        "[VUID-ViewportIndex-ViewportIndex-04407] Vulkan spec doesn't allow BuiltIn Layer and ViewportIndex to be used for variables with Output storage class if execution model is Fragment. ID <2> (OpVariable) depends on ID <2> (OpVariable) which is decorated with BuiltIn ViewportIndex. Id <2> is later referenced by ID <12> (OpCopyObject) in function <1> which is called with execution model Fragment.",
    );
    rejects(
        "vulkan1.0",
        &module(GEOM, "Fragment", "PrimitiveId", "Output", "%uint"),
        "[VUID-PrimitiveId-PrimitiveId-04334] Vulkan spec doesn't allow BuiltIn PrimitiveId to be used for variables with Output storage class if execution model is Fragment. ID <2> (OpVariable) depends on ID <2> (OpVariable) which is decorated with BuiltIn PrimitiveId. Id <2> is later referenced by ID <12> (OpCopyObject) in function <1> which is called with execution model Fragment.",
    );
    rejects(
        "vulkan1.0",
        &module(GEOM, "GLCompute", "Layer", "Output", "%uint"),
        "[VUID-Layer-Layer-04272] Vulkan spec allows BuiltIn Layer to be used only with Vertex, TessellationEvaluation, Geometry, or Fragment execution models. ID <12> (OpCopyObject) is referencing ID <2> (OpVariable) which is decorated with BuiltIn Layer in function <1> called with execution model GLCompute.",
    );
    rejects(
        "vulkan1.0",
        &module(GEOM, "Vertex", "PrimitiveId", "Output", "%uint"),
        "[VUID-PrimitiveId-PrimitiveId-04330] Vulkan spec allows BuiltIn PrimitiveId to be used only with Fragment, TessellationControl, TessellationEvaluation, Geometry, MeshNV, MeshEXT, IntersectionKHR, AnyHitKHR, and ClosestHitKHR execution models. ID <12> (OpCopyObject) is referencing ID <2> (OpVariable) which is decorated with BuiltIn PrimitiveId in function <1> called with execution model Vertex.",
    );
    rejects(
        "vulkan1.0",
        &module(
            "OpCapability MultiViewport\n",
            "Vertex",
            "ViewportIndex",
            "Output",
            "%uint",
        ),
        "[VUID-ViewportIndex-ViewportIndex-04405] Using BuiltIn ViewportIndex in Vertex or Tessellation execution model requires the ShaderViewportIndexLayerEXT or ShaderViewportIndex capability.",
    );
    rejects(
        "vulkan1.0",
        &module(GEOM, "Geometry", "Layer", "Output", "%float"),
        "[VUID-Layer-Layer-04276] According to the Vulkan spec BuiltIn Layervariable needs to be a 32-bit int scalar. ID <2> (OpVariable) is not an int scalar.",
    );
    rejects(
        "vulkan1.2",
        &module(
            "OpCapability RayTracingKHR\nOpExtension \"SPV_KHR_ray_tracing\"\n",
            "Fragment",
            "PrimitiveId",
            "Input",
            "%uint",
        ),
        "[VUID-PrimitiveId-Fragment-04333] Vulkan spec doesn't allow BuiltIn PrimitiveId to be used for variables in the Fragment execution model unless it declares Geometry, Tessellation, or MeshShader capabilities. ID <2> (OpVariable) depends on ID <2> (OpVariable) which is decorated with BuiltIn PrimitiveId. Id <2> is later referenced by ID <12> (OpCopyObject) in function <1> which is called with execution model Fragment.",
    );
    accepts(
        "vulkan1.0",
        &module(GEOM, "Geometry", "Layer", "Output", "%uint"),
    );
    accepts(
        "vulkan1.0",
        &module(GEOM, "Fragment", "PrimitiveId", "Input", "%uint"),
    );
    accepts(
        "vulkan1.0",
        &module(GEOM, "Fragment", "Layer", "Input", "%uint"),
    );
    accepts(
        "vulkan1.0",
        &module(
            "OpCapability Tessellation\n",
            "TessellationControl",
            "PrimitiveId",
            "Input",
            "%uint",
        ),
    );
    accepts(
        "vulkan1.2",
        &module(
            "OpCapability ShaderLayer\n",
            "Vertex",
            "Layer",
            "Output",
            "%uint",
        ),
    );
    // An arrayed variable is taken.
    accepts(
        "vulkan1.0",
        &module(GEOM, "Geometry", "PrimitiveId", "Input", "%a"),
    );
}

/// A MeshEXT shader writing per-primitive `builtin` through `%bi`, a variable of `ty`,
/// with `decos` besides the built-in.
fn mesh(builtin: &str, decos: &str, ty: &str) -> String {
    shader(
        "OpCapability MeshShadingEXT\nOpCapability Geometry\nOpCapability MultiViewport\nOpExtension \"SPV_EXT_mesh_shader\"\n",
        &format!(
            "OpEntryPoint MeshEXT %main \"main\" %bi\nOpExecutionMode %main LocalSize 1 1 1\nOpExecutionMode %main OutputVertices 3\nOpExecutionMode %main OutputPrimitivesEXT 2\nOpExecutionMode %main OutputTrianglesEXT\nOpDecorate %bi BuiltIn {builtin}\n{decos}"
        ),
        &format!(
            "%int = OpTypeInt 32 1\n%u2 = OpConstant %uint 2\n%u3 = OpConstant %uint 3\n%a2 = OpTypeArray %int %u2\n%a3 = OpTypeArray %int %u3\n%f2 = OpTypeArray %float %u2\n%p = OpTypePointer Output {ty}\n%bi = OpVariable %p Output\n"
        ),
        "%x = OpCopyObject %p %bi\n",
    )
}

#[test]
fn mesh_per_primitive() {
    let per = "OpDecorate %bi PerPrimitiveEXT\n";
    rejects(
        "vulkan1.3",
        &mesh("PrimitiveId", per, "%int"),
        "According to the Vulkan specspec BuiltIn PrimitiveId variable needs to be a either a TypeInt or an array of TypeInt. ID <2> (OpVariable) Scalar boolean must be in a Block.",
    );
    rejects(
        "vulkan1.3",
        &mesh("Layer", "", "%a2"),
        "[VUID-Layer-Layer-07039] According to the Vulkan spec the variable decorated with Builtin Layer within the MeshEXT Execution Model must also be decorated with the PerPrimitiveEXT decoration. ",
    );
    rejects(
        "vulkan1.3",
        &mesh("ViewportIndex", per, "%a3"),
        "[VUID-ViewportIndex-ViewportIndex-10602]  The size of the array decorated with ViewportIndex (3) must match the value specified by OutputPrimitivesEXT (2). ",
    );
    rejects(
        "vulkan1.3",
        &mesh("Layer", per, "%f2"),
        "[VUID-Layer-Layer-10592] According to the Vulkan specspec BuiltIn Layer variable needs to be a either a TypeInt or an array of TypeInt. ID <2> (OpVariable) is not an integer scalar.",
    );
    accepts("vulkan1.3", &mesh("PrimitiveId", per, "%a2"));
}
