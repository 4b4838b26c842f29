//! The draw parameters (`BaseInstance`, `BaseVertex`, `DrawIndex`) against spirv-val
//! 2025.5: a 32-bit int Input, in Vertex (and, for `DrawIndex`, the mesh and task
//! stages).

use super::{accepts, rejects, shader};

/// A Vulkan module with one entry point of `model` naming `%bi`, a variable of `ty`
/// in `class` decorated `BuiltIn {builtin}`, that `main` copies.
fn module(model: &str, builtin: &str, class: &str, ty: &str) -> String {
    let modes = match model {
        "Fragment" => "OpExecutionMode %main OriginUpperLeft\nOpDecorate %bi Flat\n",
        _ => "",
    };
    shader(
        "OpCapability DrawParameters\nOpExtension \"SPV_KHR_shader_draw_parameters\"\n",
        &format!(
            "OpEntryPoint {model} %main \"main\" %bi\n{modes}OpDecorate %bi BuiltIn {builtin}\n"
        ),
        &format!("%p = OpTypePointer {class} {ty}\n%bi = OpVariable %p {class}\n"),
        "%x = OpCopyObject %p %bi\n",
    )
}

#[test]
fn draw_parameters() {
    rejects(
        "vulkan1.1",
        &module("Vertex", "BaseInstance", "Input", "%float"),
        "[VUID-BaseInstance-BaseInstance-04183] According to the Vulkan spec BuiltIn BaseInstance variable needs to be a 32-bit int scalar. ID <2> (OpVariable) is not an int scalar.",
    );
    rejects(
        "vulkan1.1",
        &module("Vertex", "BaseVertex", "Output", "%uint"),
        "[VUID-BaseVertex-BaseVertex-04185] Vulkan spec allows BuiltIn BaseVertex to be only used for variables with Input storage class. ID <2> (OpVariable) is referencing ID <2> (OpVariable) which is decorated with BuiltIn BaseVertex. ID <2> (OpVariable) uses storage class Output.",
    );
    rejects(
        "vulkan1.1",
        &module("Fragment", "DrawIndex", "Input", "%uint"),
        "[VUID-DrawIndex-DrawIndex-04207] Vulkan spec allows BuiltIn DrawIndex to be used only with Vertex, MeshNV, TaskNV , MeshEXT or TaskEXT execution model. ID <10> (OpCopyObject) is referencing ID <2> (OpVariable) which is decorated with BuiltIn DrawIndex in function <1> called with execution model Fragment.",
    );
    accepts(
        "vulkan1.1",
        &module("Vertex", "BaseInstance", "Input", "%uint"),
    );
    accepts(
        "vulkan1.1",
        &module("Vertex", "DrawIndex", "Input", "%uint"),
    );
}
