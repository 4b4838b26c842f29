//! The built-ins of `gl_PerVertex` (`Position`, `PointSize`, `ClipDistance`,
//! `CullDistance`) against spirv-val 2025.5: each of its messages for them, and the
//! usual shapes it accepts (plain variables, blocks, the arrayed interfaces of the
//! tessellation and geometry stages, the distances as fragment inputs).

use super::{accepts, rejects, shader};

/// A Vulkan module with one entry point of `model` (its modes in `modes`), `bi` the
/// variable named in its interface, decorations `decos`, and `main`'s body `body`.
fn stage(model: &str, modes: &str, decos: &str, decls: &str, body: &str) -> String {
    let caps = match model {
        "TessellationControl" | "TessellationEvaluation" => "OpCapability Tessellation\n",
        "Geometry" => "OpCapability Geometry\n",
        _ => "",
    };
    shader(
        &format!("{caps}OpCapability ClipDistance\nOpCapability CullDistance\n"),
        &format!("OpEntryPoint {model} %main \"main\" %bi\n{modes}{decos}"),
        &format!(
            "%u2 = OpConstant %uint 2\n%u3 = OpConstant %uint 3\n%f2 = OpTypeArray %float %u2\n{decls}"
        ),
        body,
    )
}

const FRAG: &str = "OpExecutionMode %main OriginUpperLeft\n";
const TESC: &str = "OpExecutionMode %main OutputVertices 3\n";
const GEOM: &str = "OpExecutionMode %main Triangles\nOpExecutionMode %main Invocations 1\nOpExecutionMode %main OutputTriangleStrip\nOpExecutionMode %main OutputVertices 3\n";

/// `gl_PerVertex` with all four members.
const BLOCK_DECOS: &str = "OpMemberDecorate %pv 0 BuiltIn Position\nOpMemberDecorate %pv 1 BuiltIn PointSize\nOpMemberDecorate %pv 2 BuiltIn ClipDistance\nOpMemberDecorate %pv 3 BuiltIn CullDistance\nOpDecorate %pv Block\n";
const BLOCK: &str = "%pv = OpTypeStruct %v4float %float %f2 %f2\n";

#[test]
fn storage_classes_and_models() {
    let var = |class: &str, ty: &str| {
        format!("%p = OpTypePointer {class} {ty}\n%bi = OpVariable %p {class}\n")
    };
    let load = "%x = OpLoad %v4float %bi\n";
    rejects(
        "vulkan1.0",
        &stage(
            "Vertex",
            "",
            "OpDecorate %bi BuiltIn Position\n",
            &var("Input", "%v4float"),
            load,
        ),
        "[VUID-Position-Position-04319] Vulkan spec doesn't allow BuiltIn Position to be used for variables with Input storage class if execution model is Vertex. ID <2> (OpVariable) depends on ID <2> (OpVariable) which is decorated with BuiltIn Position. Id <2> is later referenced by ID <13> (OpLoad) in function <1> which is called with execution model Vertex.",
    );
    rejects(
        "vulkan1.0",
        &stage(
            "Vertex",
            "",
            "OpDecorate %bi BuiltIn PointSize\n",
            &var("Input", "%float"),
            "%x = OpLoad %float %bi\n",
        ),
        "[VUID-PointSize-PointSize-04315] Vulkan spec doesn't allow BuiltIn PointSize to be used for variables with Input storage class if execution model is Vertex. ID <2> (OpVariable) depends on ID <2> (OpVariable) which is decorated with BuiltIn PointSize. Id <2> is later referenced by ID <13> (OpLoad) in function <1> which is called with execution model Vertex.",
    );
    rejects(
        "vulkan1.2",
        &stage(
            "Vertex",
            "",
            "OpDecorate %bi BuiltIn Position\n",
            &var("Private", "%v4float"),
            load,
        ),
        "[VUID-Position-Position-04320] Vulkan spec allows BuiltIn Position to be only used for variables with Input or Output storage class. ID <2> (OpVariable) is referencing ID <2> (OpVariable) which is decorated with BuiltIn Position. ID <2> (OpVariable) uses storage class Private.",
    );
    rejects(
        "vulkan1.0",
        &stage(
            "Fragment",
            FRAG,
            "OpDecorate %bi BuiltIn Position\n",
            &var("Input", "%v4float"),
            load,
        ),
        "[VUID-Position-Position-04318] Vulkan spec allows BuiltIn Position to be used only with Vertex, TessellationControl, TessellationEvaluation or Geometry execution models. ID <13> (OpLoad) is referencing ID <2> (OpVariable) which is decorated with BuiltIn Position in function <1> called with execution model Fragment.",
    );
    rejects(
        "vulkan1.0",
        &stage(
            "Fragment",
            FRAG,
            "OpDecorate %bi BuiltIn PointSize\n",
            &var("Input", "%float"),
            "%x = OpLoad %float %bi\n",
        ),
        "[VUID-PointSize-PointSize-04314] Vulkan spec allows BuiltIn PointSize to be used only with Vertex, TessellationControl, TessellationEvaluation or Geometry execution models. ID <13> (OpLoad) is referencing ID <2> (OpVariable) which is decorated with BuiltIn PointSize in function <1> called with execution model Fragment.",
    );
    let f2 = "%x = OpLoad %f2 %bi\n";
    rejects(
        "vulkan1.0",
        &stage(
            "Fragment",
            FRAG,
            "OpDecorate %bi BuiltIn ClipDistance\n",
            &var("Output", "%f2"),
            f2,
        ),
        "[VUID-ClipDistance-ClipDistance-04189] Vulkan spec doesn't allow BuiltIn ClipDistance/CullDistance to be used for variables with Output storage class if execution model is Fragment. ID <2> (OpVariable) depends on ID <2> (OpVariable) which is decorated with BuiltIn ClipDistance. Id <2> is later referenced by ID <13> (OpLoad) in function <1> which is called with execution model Fragment.",
    );
    rejects(
        "vulkan1.0",
        &stage(
            "Vertex",
            "",
            "OpDecorate %bi BuiltIn CullDistance\n",
            &var("Input", "%f2"),
            f2,
        ),
        "[VUID-CullDistance-CullDistance-04197] Vulkan spec doesn't allow BuiltIn ClipDistance/CullDistance to be used for variables with Input storage class if execution model is Vertex. ID <2> (OpVariable) depends on ID <2> (OpVariable) which is decorated with BuiltIn CullDistance. Id <2> is later referenced by ID <13> (OpLoad) in function <1> which is called with execution model Vertex.",
    );
    rejects(
        "vulkan1.0",
        &stage(
            "GLCompute",
            "OpExecutionMode %main LocalSize 1 1 1\n",
            "OpDecorate %bi BuiltIn ClipDistance\n",
            &var("Output", "%f2"),
            f2,
        ),
        "[VUID-ClipDistance-ClipDistance-04187] Vulkan spec allows BuiltIn ClipDistance to be used only with Fragment, Vertex, TessellationControl, TessellationEvaluation or Geometry execution models. ID <13> (OpLoad) is referencing ID <2> (OpVariable) which is decorated with BuiltIn ClipDistance in function <1> called with execution model GLCompute.",
    );
    rejects(
        "vulkan1.2",
        &stage(
            "Vertex",
            "",
            "OpDecorate %bi BuiltIn CullDistance\n",
            &var("Private", "%f2"),
            f2,
        ),
        "[VUID-CullDistance-CullDistance-04199] Vulkan spec allows BuiltIn CullDistance to be only used for variables with Input or Output storage class. ID <2> (OpVariable) is referencing ID <2> (OpVariable) which is decorated with BuiltIn CullDistance. ID <2> (OpVariable) uses storage class Private.",
    );
    // Through the block's pointer type, in a called function.
    let decls = format!("{BLOCK}%p = OpTypePointer Input %pv\n%bi = OpVariable %p Input\n");
    let called = stage(
        "Vertex",
        "",
        BLOCK_DECOS,
        &decls,
        "%c = OpFunctionCall %void %g\n",
    ) + "%g = OpFunction %void None %fn\n%ge = OpLabel\n%y = OpLoad %pv %bi\nOpReturn\nOpFunctionEnd\n";
    rejects(
        "vulkan1.0",
        &called,
        "[VUID-Position-Position-04319] Vulkan spec doesn't allow BuiltIn Position to be used for variables with Input storage class if execution model is Vertex. ID <2> (OpVariable) depends on ID <3> (OpTypeStruct) which is decorated with BuiltIn Position. Id <2> is later referenced by ID <17> (OpLoad) in function <15> which is called with execution model Vertex.",
    );
}

#[test]
fn types() {
    let var = |class: &str, ty: &str| {
        format!("%p = OpTypePointer {class} {ty}\n%bi = OpVariable %p {class}\n")
    };
    let copy = "%x = OpCopyObject %p %bi\n";
    let v3 = "%v3float = OpTypeVector %float 3\n";
    rejects(
        "vulkan1.0",
        &stage(
            "Vertex",
            "",
            "OpDecorate %bi BuiltIn Position\n",
            &format!("{v3}{}", var("Output", "%v3float")),
            copy,
        ),
        "[VUID-Position-Position-04321] According to the Vulkan spec BuiltIn Position variable needs to be a 4-component 32-bit float vector. ID <2> (OpVariable) has 3 components.",
    );
    rejects(
        "vulkan1.0",
        &stage(
            "Vertex",
            "",
            "OpDecorate %bi BuiltIn PointSize\n",
            &var("Output", "%uint"),
            copy,
        ),
        "[VUID-PointSize-PointSize-04317] According to the Vulkan spec BuiltIn PointSize variable needs to be a 32-bit float scalar. ID <2> (OpVariable) is not a float scalar.",
    );
    // Arrayed per-vertex in a geometry shader: the array level is on the variable.
    let arrayed = format!("{v3}%a = OpTypeArray %v3float %u3\n{}", var("Input", "%a"));
    rejects(
        "vulkan1.0",
        &stage(
            "Geometry",
            GEOM,
            "OpDecorate %bi BuiltIn Position\n",
            &arrayed,
            copy,
        ),
        "[VUID-Position-Position-04321] According to the Vulkan spec BuiltIn Position variable needs to be a 4-component 32-bit float vector. ID <2> (OpVariable) has 3 components.",
    );
    // A block member takes no extra level.
    let member = format!(
        "%s = OpTypeStruct %f2\n%a = OpTypeArray %s %u3\n{}",
        var("Input", "%a")
    );
    accepts(
        "vulkan1.0",
        &stage(
            "TessellationControl",
            TESC,
            "OpMemberDecorate %s 0 BuiltIn CullDistance\nOpDecorate %s Block\n",
            &member,
            copy,
        ),
    );
    let member = format!(
        "%a2 = OpTypeArray %f2 %u3\n%s = OpTypeStruct %a2\n%a = OpTypeArray %s %u3\n{}",
        var("Input", "%a")
    );
    rejects(
        "vulkan1.0",
        &stage(
            "TessellationControl",
            TESC,
            "OpMemberDecorate %s 0 BuiltIn CullDistance\nOpDecorate %s Block\n",
            &member,
            copy,
        ),
        "[VUID-CullDistance-CullDistance-04200] According to the Vulkan spec BuiltIn CullDistance variable needs to be a 32-bit float array. Member #0 of struct ID <3> components are not float scalar.",
    );
    rejects(
        "vulkan1.0",
        &stage(
            "Fragment",
            FRAG,
            "OpDecorate %bi BuiltIn ClipDistance\n",
            &var("Input", "%float"),
            copy,
        ),
        "[VUID-ClipDistance-ClipDistance-04191] According to the Vulkan spec BuiltIn ClipDistance variable needs to be a 32-bit float array. ID <2> (OpVariable) is not an array.",
    );
    let ints = format!(
        "%i2 = OpTypeArray %uint %u2\n%a = OpTypeArray %i2 %u3\n{}",
        var("Input", "%a")
    );
    rejects(
        "vulkan1.0",
        &stage(
            "TessellationControl",
            TESC,
            "OpDecorate %bi BuiltIn ClipDistance\n",
            &ints,
            copy,
        ),
        "[VUID-ClipDistance-ClipDistance-04191] According to the Vulkan spec BuiltIn ClipDistance variable needs to be a 32-bit float array. ID <2> (OpVariable) components are not float scalar.",
    );
}

#[test]
fn accepted_shapes() {
    let copy = "%x = OpCopyObject %p %bi\n";
    // A plain Position output.
    accepts(
        "vulkan1.0",
        &stage(
            "Vertex",
            "",
            "OpDecorate %bi BuiltIn Position\n",
            "%p = OpTypePointer Output %v4float\n%bi = OpVariable %p Output\n%one = OpConstant %float 1\n%c = OpConstantComposite %v4float %one %one %one %one\n",
            "OpStore %bi %c\n",
        ),
    );
    // gl_PerVertex as a vertex output.
    let out = format!("{BLOCK}%p = OpTypePointer Output %pv\n%bi = OpVariable %p Output\n");
    accepts("vulkan1.2", &stage("Vertex", "", BLOCK_DECOS, &out, copy));
    // Arrayed gl_in and gl_out of a tessellation control shader.
    let tesc = format!(
        "{BLOCK}%a = OpTypeArray %pv %u3\n%p = OpTypePointer Input %a\n%bi = OpVariable %p Input\n%q = OpTypePointer Output %a\n%o = OpVariable %q Output\n"
    );
    let module = stage(
        "TessellationControl",
        TESC,
        BLOCK_DECOS,
        &tesc,
        "%x = OpCopyObject %p %bi\n%y = OpCopyObject %q %o\n",
    )
    .replace("\"main\" %bi", "\"main\" %bi %o");
    accepts("vulkan1.0", &module);
    // A geometry shader: arrayed input block, plain output block.
    let geom = format!(
        "{BLOCK}%a = OpTypeArray %pv %u3\n%p = OpTypePointer Input %a\n%bi = OpVariable %p Input\n%q = OpTypePointer Output %pv\n%o = OpVariable %q Output\n"
    );
    let module = stage(
        "Geometry",
        GEOM,
        BLOCK_DECOS,
        &geom,
        "%x = OpCopyObject %p %bi\n%y = OpCopyObject %q %o\n",
    )
    .replace("\"main\" %bi", "\"main\" %bi %o");
    accepts("vulkan1.1", &module);
    // Arrayed plain variables in a tessellation evaluation shader.
    let tese =
        "%v3 = OpTypeArray %v4float %u3\n%p = OpTypePointer Input %v3\n%bi = OpVariable %p Input\n";
    accepts(
        "vulkan1.0",
        &stage(
            "TessellationEvaluation",
            "OpExecutionMode %main Triangles\n",
            "OpDecorate %bi BuiltIn Position\n",
            tese,
            copy,
        ),
    );
    // The distances as fragment inputs.
    accepts(
        "vulkan1.0",
        &stage(
            "Fragment",
            FRAG,
            "OpDecorate %bi BuiltIn ClipDistance\n",
            "%p = OpTypePointer Input %f2\n%bi = OpVariable %p Input\n",
            copy,
        ),
    );
    // Outside Vulkan none of this is checked.
    accepts(
        "spv1.0",
        &stage(
            "Vertex",
            "",
            "OpDecorate %bi BuiltIn Position\n",
            "%p = OpTypePointer Input %float\n%bi = OpVariable %p Input\n",
            copy,
        ),
    );
}

#[test]
fn tess_levels_at_reference() {
    let levels = |class: &str| {
        format!(
            "%u4 = OpConstant %uint 4\n%f4 = OpTypeArray %float %u4\n%p = OpTypePointer {class} %f4\n%bi = OpVariable %p {class}\n"
        )
    };
    let decos = "OpDecorate %bi BuiltIn TessLevelOuter\nOpDecorate %bi Patch\n";
    let copy = "%x = OpCopyObject %p %bi\n";
    let tese = "OpExecutionMode %main Triangles\n";
    rejects(
        "vulkan1.0",
        &stage(
            "TessellationEvaluation",
            tese,
            decos,
            &levels("Output"),
            copy,
        ),
        "[VUID-TessLevelOuter-TessLevelOuter-04392] Vulkan spec doesn't allow TessLevelOuter/TessLevelInner to be used for variables with Output storage class if execution model is TessellationEvaluation. ID <2> (OpVariable) depends on ID <2> (OpVariable) which is decorated with BuiltIn TessLevelOuter. Id <2> is later referenced by ID <15> (OpCopyObject) in function <1> which is called with execution model TessellationEvaluation.",
    );
    rejects(
        "vulkan1.0",
        &stage("TessellationControl", TESC, decos, &levels("Input"), copy),
        "[VUID-TessLevelOuter-TessLevelOuter-04391] Vulkan spec doesn't allow TessLevelOuter/TessLevelInner to be used for variables with Input storage class if execution model is TessellationControl. ID <2> (OpVariable) depends on ID <2> (OpVariable) which is decorated with BuiltIn TessLevelOuter. Id <2> is later referenced by ID <15> (OpCopyObject) in function <1> which is called with execution model TessellationControl.",
    );
    rejects(
        "vulkan1.0",
        &stage("Geometry", GEOM, decos, &levels("Input"), copy).replace(
            "OpCapability Geometry\n",
            "OpCapability Geometry\nOpCapability Tessellation\n",
        ),
        "[VUID-TessLevelOuter-TessLevelOuter-04390] Vulkan spec allows BuiltIn TessLevelOuter to be used only with TessellationControl or TessellationEvaluation execution models. ID <15> (OpCopyObject) is referencing ID <2> (OpVariable) which is decorated with BuiltIn TessLevelOuter in function <1> called with execution model Geometry.",
    );
    rejects(
        "vulkan1.2",
        &stage("TessellationControl", TESC, decos, &levels("Private"), copy),
        "Vulkan spec allows BuiltIn TessLevelOuter to be only used for variables with Input or Output storage class. ID <2> (OpVariable) is referencing ID <2> (OpVariable) which is decorated with BuiltIn TessLevelOuter. ID <2> (OpVariable) uses storage class Private.",
    );
    accepts(
        "vulkan1.0",
        &stage("TessellationControl", TESC, decos, &levels("Output"), copy),
    );
    accepts(
        "vulkan1.0",
        &stage(
            "TessellationEvaluation",
            tese,
            decos,
            &levels("Input"),
            copy,
        ),
    );
}
