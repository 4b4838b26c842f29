//! `spirv_core::reflect` on hand-written modules: every descriptor type, array
//! dimensions, block sizes, push constants, the stage interface, specialization
//! constants and their defaults, workgroup sizes and static use per entry point.

use spirv_asm_macros::spirv_asm;
use spirv_core::reflect::{ArraySize, DescriptorType, Reflection, Value};
use spirv_core::{Id, Module, spv};

fn module(words: &[u32]) -> Module {
    Module::from_words(words).expect("reads")
}

const RESOURCES: &[u32] = spirv_asm!(
    r#"
               OpCapability Shader
               OpCapability ImageBuffer
               OpCapability InputAttachment
               OpCapability RayTracingKHR
               OpExtension "SPV_KHR_ray_tracing"
               OpMemoryModel Logical GLSL450
               OpEntryPoint Fragment %main "main"
               OpExecutionMode %main OriginUpperLeft
               OpName %ubo "ubo"
               OpName %ssbo "ssbo"
               OpDecorate %Ubo Block
               OpMemberDecorate %Ubo 0 Offset 0
               OpMemberDecorate %Ubo 0 ColMajor
               OpMemberDecorate %Ubo 0 MatrixStride 16
               OpMemberDecorate %Ubo 1 Offset 64
               OpDecorate %ubo DescriptorSet 0
               OpDecorate %ubo Binding 0
               OpDecorate %Ssbo Block
               OpMemberDecorate %Ssbo 0 Offset 0
               OpMemberDecorate %Ssbo 0 NonWritable
               OpMemberDecorate %Ssbo 1 Offset 16
               OpMemberDecorate %Ssbo 1 NonWritable
               OpDecorate %rt ArrayStride 4
               OpDecorate %ssbo DescriptorSet 1
               OpDecorate %ssbo Binding 2
               OpDecorate %samp DescriptorSet 0
               OpDecorate %samp Binding 1
               OpDecorate %tex DescriptorSet 0
               OpDecorate %tex Binding 3
               OpDecorate %comb DescriptorSet 0
               OpDecorate %comb Binding 4
               OpDecorate %img DescriptorSet 0
               OpDecorate %img Binding 5
               OpDecorate %img NonReadable
               OpDecorate %utb DescriptorSet 0
               OpDecorate %utb Binding 6
               OpDecorate %stb DescriptorSet 0
               OpDecorate %stb Binding 7
               OpDecorate %att DescriptorSet 0
               OpDecorate %att Binding 8
               OpDecorate %att InputAttachmentIndex 2
               OpDecorate %as DescriptorSet 0
               OpDecorate %as Binding 9
               OpDecorate %count SpecId 7
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
      %float = OpTypeFloat 32
       %uint = OpTypeInt 32 0
     %v4float = OpTypeVector %float 4
    %mat4 = OpTypeMatrix %v4float 4
        %Ubo = OpTypeStruct %mat4 %v4float
    %ptr_Ubo = OpTypePointer Uniform %Ubo
        %ubo = OpVariable %ptr_Ubo Uniform
         %rt = OpTypeRuntimeArray %float
       %Ssbo = OpTypeStruct %v4float %rt
   %ptr_Ssbo = OpTypePointer StorageBuffer %Ssbo
       %ssbo = OpVariable %ptr_Ssbo StorageBuffer
    %sampler = OpTypeSampler
   %ptr_samp = OpTypePointer UniformConstant %sampler
       %samp = OpVariable %ptr_samp UniformConstant
      %image = OpTypeImage %float 2D 0 0 0 1 Unknown
     %uint_4 = OpConstant %uint 4
      %count = OpSpecConstant %uint 3
  %arr_image = OpTypeArray %image %count
    %arr2 = OpTypeArray %arr_image %uint_4
   %ptr_tex = OpTypePointer UniformConstant %arr2
        %tex = OpVariable %ptr_tex UniformConstant
     %simage = OpTypeSampledImage %image
    %rt_simg = OpTypeRuntimeArray %simage
  %ptr_comb = OpTypePointer UniformConstant %rt_simg
       %comb = OpVariable %ptr_comb UniformConstant
    %storage = OpTypeImage %float 2D 0 0 0 2 Rgba8
   %ptr_img = OpTypePointer UniformConstant %storage
        %img = OpVariable %ptr_img UniformConstant
    %tbuf = OpTypeImage %float Buffer 0 0 0 1 Unknown
   %ptr_utb = OpTypePointer UniformConstant %tbuf
        %utb = OpVariable %ptr_utb UniformConstant
    %sbuf = OpTypeImage %float Buffer 0 0 0 2 R32f
   %ptr_stb = OpTypePointer UniformConstant %sbuf
        %stb = OpVariable %ptr_stb UniformConstant
    %subpass = OpTypeImage %float SubpassData 0 0 0 2 Unknown
   %ptr_att = OpTypePointer UniformConstant %subpass
        %att = OpVariable %ptr_att UniformConstant
      %accel = OpTypeAccelerationStructureKHR
    %ptr_as = OpTypePointer UniformConstant %accel
         %as = OpVariable %ptr_as UniformConstant
       %main = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
"#,
    target_env = "spv1.3",
    strict = true,
);

#[test]
fn every_descriptor_type_with_set_binding_arrays_and_access() {
    let m = module(RESOURCES);
    let r = Reflection::new(&m);
    let kinds: Vec<_> = r
        .resources()
        .iter()
        .map(|x| (x.descriptor_type.expect("a descriptor"), x.set, x.binding))
        .collect();
    use DescriptorType as D;
    assert_eq!(
        kinds,
        [
            (D::UniformBuffer, Some(0), Some(0)),
            (D::StorageBuffer, Some(1), Some(2)),
            (D::Sampler, Some(0), Some(1)),
            (D::SampledImage, Some(0), Some(3)),
            (D::CombinedImageSampler, Some(0), Some(4)),
            (D::StorageImage, Some(0), Some(5)),
            (D::UniformTexelBuffer, Some(0), Some(6)),
            (D::StorageTexelBuffer, Some(0), Some(7)),
            (D::InputAttachment, Some(0), Some(8)),
            (D::AccelerationStructure, Some(0), Some(9)),
        ]
    );
    let by = |b: u32| {
        r.resources()
            .iter()
            .find(|x| x.binding == Some(b))
            .expect("binding")
    };
    // UBO: a mat4 at 0 (column-major, stride 16) and a vec4 at 64.
    assert_eq!(by(0).name.as_deref(), Some("ubo"));
    assert_eq!(by(0).block.and_then(|b| b.size), Some(80));
    // SSBO: every member NonWritable makes it read-only; the runtime array's stride.
    let ssbo = by(2);
    assert!(ssbo.non_writable && !ssbo.non_readable);
    assert_eq!(
        ssbo.block.map(|b| (b.size, b.runtime_array_stride)),
        Some((Some(16), Some(4)))
    );
    // texture2D tex[4][count]: outermost first; the inner length a spec constant.
    let dims = |i: u32| r.array_dims(by(i).type_id).collect::<Vec<_>>();
    let spec_length = dims(3)
        .iter()
        .find_map(|d| match d {
            ArraySize::SpecConstant { id, .. } => Some(*id),
            _ => None,
        })
        .expect("a spec-constant length");
    assert_eq!(
        dims(3),
        [
            ArraySize::Literal(4),
            ArraySize::SpecConstant {
                id: spec_length,
                spec_id: Some(7),
                default: Some(3)
            }
        ]
    );
    assert_eq!(r.array_dims(by(3).type_id).len(), 2);
    assert_eq!(dims(4), [ArraySize::Runtime]);
    assert!(dims(0).is_empty());
    assert!(by(5).non_readable);
    assert_eq!(by(5).image_format, Some(spv::ImageFormat::Rgba8));
    assert_eq!(by(7).image_format, Some(spv::ImageFormat::R32f));
    assert_eq!(by(8).input_attachment_index, Some(2));
    assert!(r.push_constants().is_empty());
}

const COMPUTE: &[u32] = spirv_asm!(
    r#"
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %pc
               OpEntryPoint GLCompute %other "other" %pc
               OpExecutionModeId %main LocalSizeId %x %uint_1 %uint_1
               OpExecutionMode %other LocalSize 8 4 2
               OpName %x "x"
               OpName %sum "sum"
               OpDecorate %x SpecId 0
               OpDecorate %y SpecId 1
               OpDecorate %Pc Block
               OpMemberDecorate %Pc 0 Offset 0
               OpMemberDecorate %Pc 1 Offset 4
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
        %int = OpTypeInt 32 1
       %bool = OpTypeBool
     %uint_1 = OpConstant %uint 1
          %x = OpSpecConstant %uint 16
          %y = OpSpecConstant %int -3
        %sum = OpSpecConstantOp %uint IAdd %x %uint_1
      %int_0 = OpConstant %int 0
       %less = OpSpecConstantOp %bool SLessThan %y %int_0
     %v2uint = OpTypeVector %uint 2
       %pair = OpSpecConstantComposite %v2uint %x %sum
         %Pc = OpTypeStruct %uint %uint
     %ptr_Pc = OpTypePointer PushConstant %Pc
         %pc = OpVariable %ptr_Pc PushConstant
   %ptr_uint = OpTypePointer PushConstant %uint
       %main = OpFunction %void None %fn
         %l1 = OpLabel
          %c = OpFunctionCall %void %helper
               OpReturn
               OpFunctionEnd
     %helper = OpFunction %void None %fn
         %l2 = OpLabel
          %p = OpAccessChain %ptr_uint %pc %uint_1
          %v = OpLoad %uint %p
               OpReturn
               OpFunctionEnd
      %other = OpFunction %void None %fn
         %l3 = OpLabel
               OpReturn
               OpFunctionEnd
"#,
    target_env = "spv1.4",
);

#[test]
fn workgroup_sizes_spec_constants_push_constants_and_static_use() {
    let m = module(COMPUTE);
    let r = Reflection::new(&m);
    let [main, other] = r.entry_points() else {
        panic!("two entry points")
    };
    // LocalSizeId with a spec constant: its default, its constant and SpecId.
    let wg = main.workgroup_size.expect("main has a size");
    assert_eq!(wg[0].value, Some(16));
    assert_eq!(wg[0].spec_id, Some(0));
    assert_eq!((wg[1].value, wg[1].spec_id), (Some(1), None));
    let wg = other.workgroup_size.expect("other has a size");
    assert_eq!(wg.map(|d| d.value), [Some(8), Some(4), Some(2)]);
    // Specialization constants: literal defaults and computed OpSpecConstantOp results.
    let by_name = |n: &str| {
        r.spec_constants()
            .iter()
            .find(|s| s.name.as_deref() == Some(n))
            .expect("spec constant")
    };
    assert_eq!(
        by_name("x").default.as_ref().and_then(Value::as_u64),
        Some(16)
    );
    assert_eq!(
        by_name("sum").default.as_ref().and_then(Value::as_u64),
        Some(17)
    );
    assert_eq!(by_name("sum").spec_id, None);
    let less = r
        .spec_constants()
        .iter()
        .find(|s| s.default == Some(Value::Bool(true)));
    assert!(less.is_some(), "SLessThan -3 0 is computed");
    let y = r
        .spec_constants()
        .iter()
        .find(|s| s.spec_id == Some(1))
        .expect("y");
    assert_eq!(y.default.as_ref().and_then(Value::as_i64), Some(-3));
    // The push-constant block and its size.
    let [pc] = r.push_constants() else {
        panic!("one push constant block")
    };
    assert_eq!(pc.block.and_then(|b| b.size), Some(8));
    assert_eq!(pc.descriptor_type, None);
    // Static use through the call graph: main → helper uses %pc; other uses nothing;
    // one entry point at a time, or all at once.
    assert_eq!(r.used_variables(main), [pc.variable]);
    assert!(r.used_variables(other).is_empty());
    let used = r.static_use();
    assert_eq!(
        (used.len(), used.globals(0), used.globals(1)),
        (2, &[pc.variable][..], &[][..])
    );
    // Each entry point has its own function's modes.
    let modes = |e| {
        r.execution_modes(e)
            .iter()
            .map(|m| m.mode)
            .collect::<Vec<_>>()
    };
    assert_eq!(modes(main), [spv::ExecutionMode::LocalSizeId]);
    assert_eq!(modes(other), [spv::ExecutionMode::LocalSize]);
}

/// Entry points naming one function share its execution modes, and have only those
/// that follow their `OpEntryPoint` (one out of the layout's order is not theirs);
/// the workgroup size comes from the last local-size mode.
#[test]
fn entry_points_of_one_function_share_its_modes() {
    let words = spirv_asm!(
        r#"
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "a"
               OpExecutionMode %main LocalSize 1 2 3
               OpEntryPoint GLCompute %main "b"
               OpExecutionMode %main LocalSize 4 5 6
               OpExecutionMode %none LocalSize 7 7 7
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %none = OpFunction %void None %fn
          %1 = OpLabel
               OpReturn
               OpFunctionEnd
       %main = OpFunction %void None %fn
          %2 = OpLabel
               OpReturn
               OpFunctionEnd
"#
    );
    let m = module(words);
    let r = Reflection::new(&m);
    let [a, b] = r.entry_points() else {
        panic!("two entry points")
    };
    let sizes = |e| {
        r.execution_modes(e)
            .iter()
            .map(|m| m.operands.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(sizes(a), [vec![1, 2, 3], vec![4, 5, 6]]);
    assert_eq!(sizes(b), [vec![4, 5, 6]]);
    let values = |e: &spirv_core::reflect::EntryPoint| e.workgroup_size.map(|w| w.map(|d| d.value));
    assert_eq!(values(a), Some([Some(4), Some(5), Some(6)]));
    assert_eq!(values(b), Some([Some(4), Some(5), Some(6)]));
}

/// Array dimensions are followed once per type: many variables over one chain share
/// it, and a malformed cycle of array types ends.
#[test]
fn array_dimensions_are_shared_per_type_and_cycles_end() {
    let words = spirv_asm!(
        r#"
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpDecorate %a DescriptorSet 0
               OpDecorate %b DescriptorSet 0
       %uint = OpTypeInt 32 0
      %float = OpTypeFloat 32
          %2 = OpConstant %uint 2
          %3 = OpConstant %uint 3
        %img = OpTypeImage %float 2D 0 0 0 1 Unknown
     %inner = OpTypeArray %img %2
     %outer = OpTypeArray %inner %3
        %ptr = OpTypePointer UniformConstant %outer
          %a = OpVariable %ptr UniformConstant
          %b = OpVariable %ptr UniformConstant
"#
    );
    let m = module(words);
    let r = Reflection::new(&m);
    let [a, b] = r.resources() else {
        panic!("two resources")
    };
    for res in [a, b] {
        let dims: Vec<_> = r.array_dims(res.type_id).collect();
        assert_eq!(dims, [ArraySize::Literal(3), ArraySize::Literal(2)]);
        assert_eq!(
            r.ty(res.element_type)
                .map(|t| matches!(t, spirv_core::reflect::Type::Image(_))),
            Some(true)
        );
    }
    // Two array types that are each other's element: each is its own element, under
    // two dimensions.
    let cycle = spirv_core::Builder::new((1, 0)).words();
    let mut cycle = cycle;
    for (op, ops) in [
        (spv::Opcode::TypeInt, vec![1, 32, 0]),
        (spv::Opcode::Constant, vec![1, 2, 4]),
        (spv::Opcode::TypeArray, vec![3, 4, 2]),
        (spv::Opcode::TypeArray, vec![4, 3, 2]),
        (spv::Opcode::TypeArray, vec![5, 3, 2]),
    ] {
        cycle.push(((ops.len() as u32 + 1) << 16) | u32::from(op.0));
        cycle.extend(ops);
    }
    cycle[3] = 6;
    let m = module(&cycle);
    let types = spirv_core::analysis::TypeTable::new(&m);
    assert_eq!(types.strip_arrays(Id(3)), (Id(3), 2));
    assert_eq!(types.strip_arrays(Id(4)), (Id(4), 2));
    assert_eq!(types.strip_arrays(Id(5)), (Id(3), 3));
    let r = Reflection::new(&m);
    assert_eq!(r.array_dims(Id(5)).len(), 3);
}

const INTERFACE: &[u32] = spirv_asm!(
    r#"
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint Vertex %main "main" %pos %uv %color %out
               OpName %uv "uv"
               OpDecorate %pos Location 0
               OpDecorate %uv Location 1
               OpDecorate %uv Component 2
               OpDecorate %color Location 3
               OpDecorate %color Flat
               OpDecorate %PerVertex Block
               OpMemberDecorate %PerVertex 0 BuiltIn Position
               OpMemberDecorate %PerVertex 1 BuiltIn PointSize
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
      %float = OpTypeFloat 32
    %v2float = OpTypeVector %float 2
    %v4float = OpTypeVector %float 4
     %ptr_in4 = OpTypePointer Input %v4float
     %ptr_in2 = OpTypePointer Input %v2float
        %pos = OpVariable %ptr_in4 Input
         %uv = OpVariable %ptr_in2 Input
      %color = OpVariable %ptr_in4 Input
  %PerVertex = OpTypeStruct %v4float %float
    %ptr_out = OpTypePointer Output %PerVertex
        %out = OpVariable %ptr_out Output
       %main = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
"#,
);

#[test]
fn inputs_and_outputs_with_locations_components_and_builtins() {
    let m = module(INTERFACE);
    let r = Reflection::new(&m);
    let locations: Vec<_> = r
        .inputs()
        .iter()
        .map(|v| (v.location, v.component))
        .collect();
    assert_eq!(
        locations,
        [(Some(0), None), (Some(1), Some(2)), (Some(3), None)]
    );
    assert_eq!(r.inputs()[1].name.as_deref(), Some("uv"));
    let [out] = r.outputs() else {
        panic!("one output")
    };
    let builtins: Vec<_> = out.members.iter().map(|m| m.builtin).collect();
    assert_eq!(
        builtins,
        [Some(spv::BuiltIn::Position), Some(spv::BuiltIn::PointSize)]
    );
    assert_eq!(r.entry_points()[0].interface.len(), 4);
}

#[test]
fn a_module_with_nothing_to_reflect_gives_empty_lists() {
    let words = spirv_core::Builder::new((1, 0)).words();
    let m = module(&words);
    let r = Reflection::new(&m);
    assert!(r.entry_points().is_empty() && r.resources().is_empty());
    assert!(
        spirv_asm::reflect_json::spirv_cross_json(&m).is_err(),
        "spirv-cross wants an entry point"
    );
}

/// Five entry points over three functions: each view holds the inputs and outputs its
/// interface lists (in declaration order, each once though listed twice) and the
/// resources and push constants its call tree uses, however the functions are shared.
#[test]
fn entry_point_views_divide_the_module_by_entry_point() {
    const WORDS: &[u32] = spirv_asm!(
        r#"
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint Vertex %vs "vs" %pos %uv %out_uv %pos
               OpEntryPoint Fragment %fs "fs" %in_uv %color
               OpEntryPoint GLCompute %cs "cs"
               OpEntryPoint GLCompute %cs "cs2"
               OpEntryPoint Fragment %fs "fs_plain" %color
               OpExecutionMode %fs OriginUpperLeft
               OpExecutionMode %cs LocalSize 8 1 1
               OpName %pos "pos"
               OpName %uv "uv"
               OpName %out_uv "out_uv"
               OpName %in_uv "in_uv"
               OpName %color "color"
               OpName %ubo "ubo"
               OpName %tex "tex"
               OpName %push "push"
               OpDecorate %pos Location 0
               OpDecorate %uv Location 1
               OpDecorate %out_uv Location 0
               OpDecorate %in_uv Location 0
               OpDecorate %color Location 0
               OpDecorate %Ubo Block
               OpMemberDecorate %Ubo 0 Offset 0
               OpDecorate %ubo DescriptorSet 0
               OpDecorate %ubo Binding 0
               OpDecorate %tex DescriptorSet 0
               OpDecorate %tex Binding 1
               OpDecorate %Push Block
               OpMemberDecorate %Push 0 Offset 0
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
      %float = OpTypeFloat 32
        %Ubo = OpTypeStruct %float
       %Push = OpTypeStruct %float
      %p_ubo = OpTypePointer Uniform %Ubo
     %p_push = OpTypePointer PushConstant %Push
        %img = OpTypeImage %float 2D 0 0 0 1 Unknown
      %p_img = OpTypePointer UniformConstant %img
       %p_in = OpTypePointer Input %float
      %p_out = OpTypePointer Output %float
        %pos = OpVariable %p_in Input
         %uv = OpVariable %p_in Input
     %out_uv = OpVariable %p_out Output
      %in_uv = OpVariable %p_in Input
      %color = OpVariable %p_out Output
        %ubo = OpVariable %p_ubo Uniform
        %tex = OpVariable %p_img UniformConstant
       %push = OpVariable %p_push PushConstant
     %helper = OpFunction %void None %fn
         %h0 = OpLabel
         %t0 = OpLoad %img %tex
               OpReturn
               OpFunctionEnd
         %vs = OpFunction %void None %fn
         %v0 = OpLabel
         %u0 = OpLoad %Ubo %ubo
               OpReturn
               OpFunctionEnd
         %fs = OpFunction %void None %fn
         %f0 = OpLabel
         %c0 = OpFunctionCall %void %helper
               OpReturn
               OpFunctionEnd
         %cs = OpFunction %void None %fn
         %k0 = OpLabel
         %c1 = OpFunctionCall %void %helper
         %p0 = OpLoad %Push %push
               OpReturn
               OpFunctionEnd
"#
    );
    let m = module(WORDS);
    let r = Reflection::new(&m);
    let id = |name: &str| {
        (r.variables().iter())
            .find(|v| r.name(v.id) == Some(name))
            .map(|v| v.id)
            .expect("named")
    };
    let [pos, uv, out_uv, in_uv, color, ubo, tex, push] = [
        "pos", "uv", "out_uv", "in_uv", "color", "ubo", "tex", "push",
    ]
    .map(id);
    assert_eq!(r.inputs().len(), 3);
    assert_eq!(r.resources().len(), 2);
    let views = r.entry_point_views();
    assert_eq!(views.len(), 5);
    // Per entry point: its name, inputs, outputs, resources and push constants.
    type Share = (String, Vec<Id>, Vec<Id>, Vec<Id>, Vec<Id>);
    let seen: Vec<Share> = views
        .iter()
        .map(|v| {
            (
                v.entry().name.clone(),
                v.inputs().map(|i| i.variable).collect(),
                v.outputs().map(|o| o.variable).collect(),
                v.resources().map(|res| res.variable).collect(),
                v.push_constants().map(|p| p.variable).collect(),
            )
        })
        .collect();
    let expected: Vec<Share> = vec![
        ("vs".into(), vec![pos, uv], vec![out_uv], vec![ubo], vec![]),
        ("fs".into(), vec![in_uv], vec![color], vec![tex], vec![]),
        ("cs".into(), vec![], vec![], vec![tex], vec![push]),
        ("cs2".into(), vec![], vec![], vec![tex], vec![push]),
        ("fs_plain".into(), vec![], vec![color], vec![tex], vec![]),
    ];
    assert_eq!(seen, expected);
    // A view's records are the whole-module ones.
    let vs = views.find(spv::ExecutionModel::Vertex, "vs").expect("vs");
    assert_eq!(vs.inputs().next(), r.inputs().first());
    assert_eq!(vs.inputs().next().and_then(|i| i.location), Some(0));
    assert_eq!(vs.used_variables(), [ubo]);
    let cs = views.get(2).expect("cs");
    assert_eq!(cs.execution_modes()[0].operands, [8, 1, 1]);
    assert!(views.get(5).is_none());
    assert!(views.find(spv::ExecutionModel::Vertex, "fs").is_none());
}
