//! The classes of the adversarial example aimed at the validator's newer rule families
//! (issue 33), each a valid module of about n instructions written as text and
//! assembled: long chains of extended instructions (`GLSL.std.450` and debug-info
//! members of one composite), many image instructions with every operand, wide
//! non-uniform group operations, long chains and cycles of selected logical pointers,
//! one chain of pointers walked by variables of alternating storage classes,
//! and a deep call graph under many ray-tracing entry points whose instructions limit
//! the execution models of every function above them.

use super::Input;
use spirv_asm::{AsmOptions, assemble_str};
use std::fmt::Write;

fn binary(text: &str) -> Input {
    let options = AsmOptions::default();
    Input::Binary(assemble_str(text, &options).expect("the class assembles"))
}

/// n `GLSL.std.450` instructions, each taking the previous one's result.
pub fn glsl_chain(n: usize) -> Input {
    let mut t = String::from(
        "OpCapability Shader\n%glsl = OpExtInstImport \"GLSL.std.450\"\n\
         OpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %main \"main\"\n\
         OpExecutionMode %main LocalSize 1 1 1\n%void = OpTypeVoid\n\
         %fn = OpTypeFunction %void\n%float = OpTypeFloat 32\n%x0 = OpConstant %float 1\n\
         %main = OpFunction %void None %fn\n%entry = OpLabel\n",
    );
    let ops = ["FAbs", "Sin", "Sqrt", "Floor", "Exp"];
    for i in 0..n {
        let op = ops[i % ops.len()];
        let _ = writeln!(t, "%x{} = OpExtInst %float %glsl {op} %x{i}", i + 1);
    }
    t.push_str("OpReturn\nOpFunctionEnd\n");
    binary(&t)
}

/// One `NonSemantic.Shader.DebugInfo.100` `DebugTypeComposite` of n
/// `DebugTypeMember`s, each member also a chain link of the next's type.
pub fn debug_member_chain(n: usize) -> Input {
    let mut t = String::from(
        "OpCapability Shader\nOpExtension \"SPV_KHR_non_semantic_info\"\n\
         %dbg = OpExtInstImport \"NonSemantic.Shader.DebugInfo.100\"\n\
         OpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %main \"main\"\n\
         OpExecutionMode %main LocalSize 1 1 1\n%file = OpString \"a.hlsl\"\n\
         %name = OpString \"S\"\n%void = OpTypeVoid\n%fn = OpTypeFunction %void\n\
         %uint = OpTypeInt 32 0\n%u0 = OpConstant %uint 0\n%u1 = OpConstant %uint 1\n\
         %u32 = OpConstant %uint 32\n%u3 = OpConstant %uint 3\n%u5 = OpConstant %uint 5\n\
         %none = OpExtInst %void %dbg DebugInfoNone\n\
         %src = OpExtInst %void %dbg DebugSource %file\n\
         %cu = OpExtInst %void %dbg DebugCompilationUnit %u1 %u5 %src %u5\n\
         %basic = OpExtInst %void %dbg DebugTypeBasic %name %u32 %u3 %u0\n",
    );
    let mut members = String::new();
    for i in 0..n {
        let _ = writeln!(
            t,
            "%m{i} = OpExtInst %void %dbg DebugTypeMember %name %basic %src %u1 %u0 %u0 %u32 %u0"
        );
        let _ = write!(members, " %m{i}");
    }
    let _ = writeln!(
        t,
        "%s = OpExtInst %void %dbg DebugTypeComposite %name %u1 %src %u1 %u0 %cu %name %u32 %u0{members}"
    );
    t.push_str("%main = OpFunction %void None %fn\n%entry = OpLabel\nOpReturn\nOpFunctionEnd\n");
    binary(&t)
}

/// n/4 explicit-lod samples and fetches, each with every operand its mask allows.
pub fn image_instructions(n: usize) -> Input {
    let mut t = String::from(
        "OpCapability Shader\nOpCapability ImageQuery\nOpCapability MinLod\n\
         OpCapability SparseResidency\n\
         OpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %main \"main\" %tex %img\n\
         OpExecutionMode %main LocalSize 1 1 1\nOpDecorate %tex DescriptorSet 0\n\
         OpDecorate %tex Binding 0\nOpDecorate %img DescriptorSet 0\nOpDecorate %img Binding 1\n\
         %void = OpTypeVoid\n%fn = OpTypeFunction %void\n%float = OpTypeFloat 32\n\
         %int = OpTypeInt 32 1\n%v2float = OpTypeVector %float 2\n%v2int = OpTypeVector %int 2\n\
         %v4float = OpTypeVector %float 4\n%f0 = OpConstant %float 0\n%i0 = OpConstant %int 0\n\
         %i1 = OpConstant %int 1\n%coord = OpConstantComposite %v2float %f0 %f0\n\
         %icoord = OpConstantComposite %v2int %i0 %i0\n%off = OpConstantComposite %v2int %i1 %i1\n\
         %im = OpTypeImage %float 2D 0 0 0 1 Unknown\n%sim = OpTypeSampledImage %im\n\
         %psim = OpTypePointer UniformConstant %sim\n%tex = OpVariable %psim UniformConstant\n\
         %pim = OpTypePointer UniformConstant %im\n%img = OpVariable %pim UniformConstant\n\
         %main = OpFunction %void None %fn\n%entry = OpLabel\n\
         %s = OpLoad %sim %tex\n%i = OpLoad %im %img\n",
    );
    for k in 0..n / 4 {
        let _ = writeln!(
            t,
            "%a{k} = OpImageSampleExplicitLod %v4float %s %coord Lod|ConstOffset %f0 %off\n\
             %b{k} = OpImageSampleExplicitLod %v4float %s %coord Grad|ConstOffset %coord %coord %off\n\
             %c{k} = OpImageFetch %v4float %i %icoord Lod|ConstOffset %i0 %off\n\
             %d{k} = OpImageQuerySizeLod %v2int %i %i0"
        );
    }
    t.push_str("OpReturn\nOpFunctionEnd\n");
    binary(&t)
}

/// n non-uniform group operations over one growing chain of values: reductions, scans,
/// ballots, broadcasts and shuffles.
pub fn group_operations(n: usize) -> Input {
    let mut t = String::from(
        "OpCapability Shader\nOpCapability GroupNonUniform\nOpCapability GroupNonUniformArithmetic\n\
         OpCapability GroupNonUniformBallot\nOpCapability GroupNonUniformShuffle\n\
         OpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %main \"main\"\n\
         OpExecutionMode %main LocalSize 64 1 1\n%void = OpTypeVoid\n%fn = OpTypeFunction %void\n\
         %bool = OpTypeBool\n%uint = OpTypeInt 32 0\n%v4uint = OpTypeVector %uint 4\n\
         %sub = OpConstant %uint 3\n%x0 = OpConstant %uint 1\n%true = OpConstantTrue %bool\n\
         %main = OpFunction %void None %fn\n%entry = OpLabel\n",
    );
    for i in 0..n {
        let (p, x) = (i, i + 1);
        let line = match i % 5 {
            0 => format!("%x{x} = OpGroupNonUniformIAdd %uint %sub Reduce %x{p}"),
            1 => format!("%x{x} = OpGroupNonUniformUMax %uint %sub ExclusiveScan %x{p}"),
            2 => format!("%x{x} = OpGroupNonUniformBroadcastFirst %uint %sub %x{p}"),
            3 => format!("%x{x} = OpGroupNonUniformShuffle %uint %sub %x{p} %x{p}"),
            _ => format!(
                "%b{i} = OpGroupNonUniformBallot %v4uint %sub %true\n\
                 %x{x} = OpGroupNonUniformBallotBitCount %uint %sub Reduce %b{i}"
            ),
        };
        t.push_str(&line);
        t.push('\n');
    }
    t.push_str("OpReturn\nOpFunctionEnd\n");
    binary(&t)
}

/// Variable pointers: n `OpSelect`s of storage-buffer pointers, each choosing between
/// the previous one and a variable, then a loop whose `OpPhi`s pass pointers round a
/// cycle of n/4 of them.
pub fn logical_pointer_chains(n: usize) -> Input {
    let mut t = String::from(
        "OpCapability Shader\nOpCapability VariablePointers\n\
         OpExtension \"SPV_KHR_variable_pointers\"\n\
         OpMemoryModel Logical GLSL450\nOpEntryPoint GLCompute %main \"main\" %a %b\n\
         OpExecutionMode %main LocalSize 1 1 1\nOpDecorate %blk Block\n\
         OpMemberDecorate %blk 0 Offset 0\nOpDecorate %a DescriptorSet 0\nOpDecorate %a Binding 0\n\
         OpDecorate %b DescriptorSet 0\nOpDecorate %b Binding 1\n\
         %void = OpTypeVoid\n%fn = OpTypeFunction %void\n%bool = OpTypeBool\n\
         %uint = OpTypeInt 32 0\n%blk = OpTypeStruct %uint\n\
         %pblk = OpTypePointer StorageBuffer %blk\n%a = OpVariable %pblk StorageBuffer\n\
         %b = OpVariable %pblk StorageBuffer\n%true = OpConstantTrue %bool\n\
         %main = OpFunction %void None %fn\n%entry = OpLabel\n%p0 = OpCopyObject %pblk %a\n",
    );
    for i in 0..n {
        let _ = writeln!(t, "%p{} = OpSelect %pblk %true %p{i} %b", i + 1);
    }
    let ring = (n / 4).max(2);
    t.push_str("OpBranch %loop\n%loop = OpLabel\n");
    for k in 0..ring {
        let prev = (k + ring - 1) % ring;
        let _ = writeln!(t, "%r{k} = OpPhi %pblk %p{n} %entry %r{prev} %cont");
    }
    t.push_str(
        "OpLoopMerge %merge %cont None\nOpBranch %cont\n%cont = OpLabel\n\
         OpBranchConditional %true %loop %merge\n%merge = OpLabel\nOpReturn\nOpFunctionEnd\n",
    );
    binary(&t)
}

/// n variables whose storage classes cycle through StorageBuffer, Uniform and
/// Workgroup, after n constants (so that the pointer types come late in the types and
/// values), and one chain of `OpSelect`s typed as StorageBuffer pointers, the k-th
/// choosing between the previous one and the k-th variable. Each variable's class
/// differs from the one before it, so `--fix-storage-class`'s walk from each variable
/// really changes every pointer after it in the chain (the module is invalid, as
/// DXC's output before legalization is: a select's operands differ from its type).
pub fn alternating_storage_classes(n: usize) -> Input {
    let n = n.max(2);
    let classes = [
        ("StorageBuffer", "psb"),
        ("Uniform", "pu"),
        ("Workgroup", "pwg"),
    ];
    let mut t = String::from(
        "OpCapability Shader\nOpMemoryModel Logical GLSL450\n\
         OpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 1 1 1\n\
         OpDecorate %blk Block\nOpMemberDecorate %blk 0 Offset 0\n",
    );
    for k in 0..n {
        if k % 3 != 2 {
            let _ = writeln!(
                t,
                "OpDecorate %v{k} DescriptorSet 0\nOpDecorate %v{k} Binding {k}"
            );
        }
    }
    t.push_str(
        "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%bool = OpTypeBool\n\
         %uint = OpTypeInt 32 0\n%blk = OpTypeStruct %uint\n%true = OpConstantTrue %bool\n",
    );
    for k in 0..n {
        let _ = writeln!(t, "%k{k} = OpConstant %uint {k}");
    }
    for (class, name) in classes {
        let _ = writeln!(t, "%{name} = OpTypePointer {class} %blk");
    }
    for k in 0..n {
        let (class, name) = classes[k % 3];
        let _ = writeln!(t, "%v{k} = OpVariable %{name} {class}");
    }
    t.push_str(
        "%main = OpFunction %void None %fn\n%entry = OpLabel\n%c0 = OpCopyObject %psb %v0\n",
    );
    for k in 1..n {
        let _ = writeln!(t, "%c{k} = OpSelect %psb %true %c{} %v{k}", k - 1);
    }
    let _ = writeln!(t, "%x = OpLoad %blk %c{}\nOpReturn\nOpFunctionEnd", n - 1);
    binary(&t)
}

/// A chain of n/8 functions, each calling the next, under ray-generation, closest-hit,
/// miss and intersection entry points; the last function traces a ray, records a miss
/// in a hit object, reorders, queries a ray and reports an intersection, so that each
/// limitation it registers is checked against every entry point above it (the
/// intersection shader's and the hit object's rules break: the module is invalid, with
/// one fault per limitation).
pub fn ray_call_graph(n: usize) -> Input {
    let depth = (n / 8).max(2);
    let mut t = String::from(
        "OpCapability RayTracingKHR\nOpCapability RayQueryKHR\n\
         OpCapability ShaderInvocationReorderEXT\nOpExtension \"SPV_KHR_ray_tracing\"\n\
         OpExtension \"SPV_KHR_ray_query\"\nOpExtension \"SPV_EXT_shader_invocation_reorder\"\n\
         OpMemoryModel Logical GLSL450\n",
    );
    for (model, name) in [
        ("RayGenerationKHR", "gen"),
        ("ClosestHitKHR", "hit"),
        ("MissKHR", "miss"),
        ("IntersectionKHR", "isect"),
    ] {
        let _ = writeln!(
            t,
            "OpEntryPoint {model} %{name} \"{name}\" %as %payload %hobj"
        );
    }
    t.push_str(
        "OpDecorate %as DescriptorSet 0\nOpDecorate %as Binding 0\n\
         %void = OpTypeVoid\n%fn = OpTypeFunction %void\n%bool = OpTypeBool\n\
         %uint = OpTypeInt 32 0\n%float = OpTypeFloat 32\n%v3float = OpTypeVector %float 3\n\
         %u0 = OpConstant %uint 0\n%f0 = OpConstant %float 0\n\
         %vec = OpConstantComposite %v3float %f0 %f0 %f0\n\
         %ast = OpTypeAccelerationStructureKHR\n%past = OpTypePointer UniformConstant %ast\n\
         %as = OpVariable %past UniformConstant\n%ppay = OpTypePointer RayPayloadKHR %float\n\
         %payload = OpVariable %ppay RayPayloadKHR\n%hot = OpTypeHitObjectEXT\n\
         %phot = OpTypePointer Private %hot\n%hobj = OpVariable %phot Private\n\
         %rqt = OpTypeRayQueryKHR\n%prq = OpTypePointer Function %rqt\n",
    );
    for name in ["gen", "hit", "miss", "isect"] {
        let _ = writeln!(
            t,
            "%{name} = OpFunction %void None %fn\n%{name}_l = OpLabel\n\
             %{name}_c = OpFunctionCall %void %g0\nOpReturn\nOpFunctionEnd"
        );
    }
    for k in 0..depth {
        let _ = writeln!(t, "%g{k} = OpFunction %void None %fn\n%l{k} = OpLabel");
        if k + 1 < depth {
            let _ = writeln!(t, "%c{k} = OpFunctionCall %void %g{}", k + 1);
        } else {
            t.push_str(
                "%rq = OpVariable %prq Function\n%acc = OpLoad %ast %as\n\
                 OpTraceRayKHR %acc %u0 %u0 %u0 %u0 %u0 %vec %f0 %vec %f0 %payload\n\
                 OpHitObjectRecordMissEXT %hobj %u0 %u0 %vec %f0 %vec %f0\n\
                 OpReorderThreadWithHitObjectEXT %hobj\n\
                 OpRayQueryInitializeKHR %rq %acc %u0 %u0 %vec %f0 %vec %f0\n\
                 %reported = OpReportIntersectionKHR %bool %f0 %u0\n",
            );
        }
        t.push_str("OpReturn\nOpFunctionEnd\n");
    }
    binary(&t)
}
