//! Synthetic cases for `--strip-nonsemantic`, `--remove-duplicates` and
//! `--trim-capabilities` (spirv-core's `edit::passes`): one small module per subtle
//! behaviour of spirv-opt 2025.5, each checked against the disassembly spirv-opt wrote
//! for it and, when SPIRV-Tools 2025.5 is found, against spirv-opt run on the spot, byte
//! for byte. Then inputs no corpus has: deep and cyclic types, a loose bound, and
//! references to nothing, which must not panic.

use spirv_asm::opt::{Pass, run};
use spirv_asm::{AsmOptions, DisOptions, assemble_str, disassemble};
use spirv_core::Module;
use std::process::Command;

/// One module and what spirv-opt makes of it.
struct Case {
    name: &'static str,
    input: &'static str,
    /// spirv-opt's output, disassembled with raw ids and no indentation, without the
    /// header lines other than the bound.
    expected: &'static str,
}

fn assemble(text: &str) -> Vec<u32> {
    let opts = AsmOptions {
        preserve_numeric_ids: true,
        ..Default::default()
    };
    assemble_str(text, &opts).unwrap_or_else(|e| panic!("assembles: {e:?}"))
}

fn dis(words: &[u32]) -> String {
    let opts = DisOptions {
        raw_id: true,
        indent: false,
        ..Default::default()
    };
    let text = disassemble(words, &opts).expect("disassembles");
    String::from_utf8_lossy(&text)
        .lines()
        .filter(|l| {
            !["; SPIR-V", "; Version", "; Generator", "; Schema"]
                .iter()
                .any(|p| l.starts_with(p))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn passes(flags: &str) -> Vec<Pass> {
    flags
        .split_whitespace()
        .map(|f| Pass::from_flag(f.trim_start_matches('-'), None).expect("a pass"))
        .collect()
}

/// Our output for `words`.
fn ours(words: &[u32], flags: &str) -> Vec<u32> {
    let module = Module::from_words(words).expect("reads");
    let (out, _) = run(&module, &passes(flags)).expect("runs");
    out.to_words()
}

/// spirv-opt's output for `words`, if SPIRV-Tools 2025.5 is found.
fn spirv_opt(words: &[u32], flags: &str, name: &str) -> Option<Vec<u32>> {
    let tools = spirv_tests::spirv_tools()?;
    let dir = std::env::temp_dir();
    let stem = format!("opt-c-{}-{name}", std::process::id());
    let (input, output) = (
        dir.join(format!("{stem}.spv")),
        dir.join(format!("{stem}.out.spv")),
    );
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&input, bytes).expect("writes");
    let status = Command::new(tools.join("spirv-opt"))
        .arg("--skip-validation")
        .args(flags.split_whitespace())
        .arg(&input)
        .arg("-o")
        .arg(&output)
        .status()
        .expect("spirv-opt runs");
    assert!(status.success(), "spirv-opt failed on {name}");
    let out = spirv_tests::read_words(&output);
    let _ = std::fs::remove_file(&input);
    let _ = std::fs::remove_file(&output);
    Some(out)
}

/// Runs `flags` on every case: our output must disassemble to the expected text and,
/// with SPIRV-Tools at hand, equal spirv-opt's.
fn check(flags: &str, cases: &[Case]) {
    if spirv_tests::spirv_tools().is_none() {
        spirv_tests::skip(
            "comparing with spirv-opt on the spot (the expected texts are still checked)",
            "SPIRV-Tools 2025.5",
        );
    }
    for case in cases {
        let words = assemble(case.input);
        let got = ours(&words, flags);
        assert_eq!(dis(&got), case.expected, "{flags}: {}", case.name);
        if let Some(reference) = spirv_opt(&words, flags, case.name) {
            assert_eq!(
                got, reference,
                "{flags}: {} differs from spirv-opt",
                case.name
            );
        }
    }
}

#[test]
fn strip_nonsemantic() {
    check(
        "--strip-nonsemantic",
        &[
            // The HLSL semantic, user-type and counter-buffer decorations go, and so do the
            // extensions that only they needed.
            Case {
                name: "google_decorations_and_extensions",
                input: r#"OpCapability Shader
OpExtension "SPV_GOOGLE_decorate_string"
OpExtension "SPV_GOOGLE_hlsl_functionality1"
OpExtension "SPV_GOOGLE_user_type"
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main" %in
OpExecutionMode %main OriginUpperLeft
OpDecorateString %in HlslSemanticGOOGLE "TEXCOORD0"
OpDecorateString %buf UserTypeGOOGLE "structuredbuffer"
OpMemberDecorateString %s 0 HlslSemanticGOOGLE "M"
OpDecorateId %buf HlslCounterBufferGOOGLE %counter
OpDecorate %s Block
%void = OpTypeVoid
%fn = OpTypeFunction %void
%f = OpTypeFloat 32
%s = OpTypeStruct %f
%ps = OpTypePointer StorageBuffer %s
%pin = OpTypePointer Input %f
%in = OpVariable %pin Input
%buf = OpVariable %ps StorageBuffer
%counter = OpVariable %ps StorageBuffer
%main = OpFunction %void None %fn
%l = OpLabel
OpReturn
OpFunctionEnd"#,
                expected: r#"; Bound: 12
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %1 "main" %2
OpExecutionMode %1 OriginUpperLeft
OpDecorate %4 Block
%6 = OpTypeVoid
%7 = OpTypeFunction %6
%8 = OpTypeFloat 32
%4 = OpTypeStruct %8
%9 = OpTypePointer StorageBuffer %4
%10 = OpTypePointer Input %8
%2 = OpVariable %10 Input
%3 = OpVariable %9 StorageBuffer
%5 = OpVariable %9 StorageBuffer
%1 = OpFunction %6 None %7
%11 = OpLabel
OpReturn
OpFunctionEnd"#,
            },
            // `SPV_GOOGLE_decorate_string` stays while another string decoration (`MemoryINTEL`)
            // is left; `UserSemantic` is `HlslSemanticGOOGLE`.
            Case {
                name: "decorate_string_kept_while_used",
                input: r#"OpCapability Shader
OpExtension "SPV_GOOGLE_decorate_string"
OpExtension "SPV_GOOGLE_hlsl_functionality1"
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main" %in
OpExecutionMode %main OriginUpperLeft
OpDecorateString %in UserSemantic "TEXCOORD"
OpDecorateString %v MemoryINTEL "DEFAULT"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%f = OpTypeFloat 32
%pin = OpTypePointer Input %f
%pp = OpTypePointer Private %f
%in = OpVariable %pin Input
%v = OpVariable %pp Private
%main = OpFunction %void None %fn
%l = OpLabel
OpReturn
OpFunctionEnd"#,
                expected: r#"; Bound: 10
OpCapability Shader
OpExtension "SPV_GOOGLE_decorate_string"
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %1 "main" %2
OpExecutionMode %1 OriginUpperLeft
OpDecorateString %3 MemoryALTERA "DEFAULT"
%4 = OpTypeVoid
%5 = OpTypeFunction %4
%6 = OpTypeFloat 32
%7 = OpTypePointer Input %6
%8 = OpTypePointer Private %6
%2 = OpVariable %7 Input
%3 = OpVariable %8 Private
%1 = OpFunction %4 None %5
%9 = OpLabel
OpReturn
OpFunctionEnd"#,
            },
            // A `NonSemantic.` import and its instructions go with their names and decorations;
            // the strings they used stay.
            Case {
                name: "non_semantic_sets",
                input: r#"OpCapability Shader
OpExtension "SPV_KHR_non_semantic_info"
%printf = OpExtInstImport "NonSemantic.DebugPrintf"
%glsl = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%file = OpString "a.comp"
%fmt = OpString "x=%f"
OpName %printf "printf_set"
OpName %call "call"
OpDecorate %call RelaxedPrecision
%void = OpTypeVoid
%fn = OpTypeFunction %void
%f = OpTypeFloat 32
%one = OpConstant %f 1
%main = OpFunction %void None %fn
%l = OpLabel
OpLine %file 3 1
%x = OpExtInst %f %glsl Sqrt %one
%call = OpExtInst %void %printf 1 %fmt %x
%y = OpExtInst %f %glsl Sqrt %x
OpReturn
OpFunctionEnd"#,
                expected: r#"; Bound: 14
OpCapability Shader
%2 = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %3 "main"
OpExecutionMode %3 LocalSize 1 1 1
%4 = OpString "a.comp"
%5 = OpString "x=%f"
%7 = OpTypeVoid
%8 = OpTypeFunction %7
%9 = OpTypeFloat 32
%10 = OpConstant %9 1
%3 = OpFunction %7 None %8
%11 = OpLabel
OpLine %4 3 1
%12 = OpExtInst %9 %2 Sqrt %10
%13 = OpExtInst %9 %2 Sqrt %12
OpReturn
OpFunctionEnd"#,
            },
            // A removed `DebugNoLine` after a line in effect leaves an `OpNoLine`; the `OpNoLine`
            // before a removed `DebugLine` stays.
            Case {
                name: "killed_debug_lines_end_the_line",
                input: r#"OpCapability Shader
OpExtension "SPV_KHR_non_semantic_info"
%dbg = OpExtInstImport "NonSemantic.Shader.DebugInfo.100"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%file = OpString "a.comp"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%u = OpTypeInt 32 0
%c3 = OpConstant %u 3
%c1 = OpConstant %u 1
%src = OpExtInst %void %dbg DebugSource %file
OpLine %file 1 1
%main = OpFunction %void None %fn
%nl = OpExtInst %void %dbg DebugNoLine
%l = OpLabel
OpNoLine
%dl = OpExtInst %void %dbg DebugLine %src %c3 %c3 %c1 %c1
%v = OpCopyObject %u %c3
OpReturn
OpFunctionEnd"#,
                expected: r#"; Bound: 14
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %2 "main"
OpExecutionMode %2 LocalSize 1 1 1
%3 = OpString "a.comp"
%4 = OpTypeVoid
%5 = OpTypeFunction %4
%6 = OpTypeInt 32 0
%7 = OpConstant %6 3
%8 = OpConstant %6 1
OpLine %3 1 1
%2 = OpFunction %4 None %5
OpNoLine
%11 = OpLabel
OpNoLine
%13 = OpCopyObject %6 %7
OpReturn
OpFunctionEnd"#,
            },
        ],
    );
}

#[test]
fn remove_duplicates() {
    check(
        "--remove-duplicates",
        &[
            // Repeated capabilities and extensions go; a repeated import's uses and name move to
            // the first; a type equal to an earlier one loses its names and decorations and its
            // uses move; then repeated decorations go.
            Case {
                name: "capabilities_extensions_imports_types",
                input: r#"OpCapability Shader
OpCapability Float64
OpCapability Shader
OpExtension "SPV_KHR_storage_buffer_storage_class"
OpExtension "SPV_KHR_storage_buffer_storage_class"
%glsl = OpExtInstImport "GLSL.std.450"
%glsl2 = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %glsl2 "second_import"
OpName %f2 "float_again"
OpName %s1 "S"
OpName %s2 "S_dup"
OpMemberName %s2 0 "x"
OpDecorate %s1 Block
OpDecorate %s2 Block
OpMemberDecorate %s1 0 Offset 0
OpMemberDecorate %s2 0 Offset 0
OpDecorate %v1 DescriptorSet 0
OpDecorate %v1 DescriptorSet 0
OpDecorate %v1 Binding 0
OpDecorate %v2 Binding 1
OpDecorate %v2 DescriptorSet 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%fn2 = OpTypeFunction %void
%f = OpTypeFloat 32
%f2 = OpTypeFloat 32
%s1 = OpTypeStruct %f
%s2 = OpTypeStruct %f2
%p1 = OpTypePointer StorageBuffer %s1
%p2 = OpTypePointer StorageBuffer %s2
%v1 = OpVariable %p1 StorageBuffer
%v2 = OpVariable %p2 StorageBuffer
%one = OpConstant %f2 1
%main = OpFunction %void None %fn2
%l = OpLabel
%x = OpExtInst %f2 %glsl2 Sqrt %one
OpReturn
OpFunctionEnd"#,
                expected: r#"; Bound: 18
OpCapability Shader
OpCapability Float64
OpExtension "SPV_KHR_storage_buffer_storage_class"
%1 = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %3 "main"
OpExecutionMode %3 LocalSize 1 1 1
OpName %1 "second_import"
OpName %5 "S"
OpDecorate %5 Block
OpMemberDecorate %5 0 Offset 0
OpDecorate %7 DescriptorSet 0
OpDecorate %7 Binding 0
OpDecorate %8 Binding 1
OpDecorate %8 DescriptorSet 0
%9 = OpTypeVoid
%10 = OpTypeFunction %9
%12 = OpTypeFloat 32
%5 = OpTypeStruct %12
%13 = OpTypePointer StorageBuffer %5
%7 = OpVariable %13 StorageBuffer
%8 = OpVariable %13 StorageBuffer
%15 = OpConstant %12 1
%3 = OpFunction %9 None %10
%16 = OpLabel
%17 = OpExtInst %12 %1 Sqrt %15
OpReturn
OpFunctionEnd"#,
            },
            // Decorations compare as lists sorted by decoration (order of members or of
            // decorations does not matter, repeats do); an array's length compares by value, not
            // by its constant's type; member decorations past the last member are ignored.
            Case {
                name: "decorations_compare_as_sorted_lists",
                input: r#"OpCapability Shader
OpMemoryModel Logical GLSL450
OpDecorate %a1 ArrayStride 16
OpDecorate %a2 ArrayStride 4
OpDecorate %a3 ArrayStride 16
OpMemberDecorate %s1 0 Offset 0
OpMemberDecorate %s1 1 Offset 16
OpMemberDecorate %s2 1 Offset 16
OpMemberDecorate %s2 0 Offset 0
OpMemberDecorate %s3 0 Offset 0
OpMemberDecorate %s3 1 Offset 16
OpMemberDecorate %s3 1 Offset 16
OpMemberDecorate %s4 0 Offset 0
OpMemberDecorate %s4 1 Offset 16
OpMemberDecorate %s4 7 Offset 99
OpDecorate %s5 Block
OpDecorate %s5 RelaxedPrecision
OpDecorate %s6 RelaxedPrecision
OpDecorate %s6 Block
%f = OpTypeFloat 32
%u = OpTypeInt 32 0
%i = OpTypeInt 32 1
%u4 = OpConstant %u 4
%i4 = OpConstant %i 4
%a1 = OpTypeArray %f %u4
%a2 = OpTypeArray %f %u4
%a3 = OpTypeArray %f %i4
%s1 = OpTypeStruct %f %a1
%s2 = OpTypeStruct %f %a3
%s3 = OpTypeStruct %f %a1
%s4 = OpTypeStruct %f %a1
%s5 = OpTypeStruct %f
%s6 = OpTypeStruct %f"#,
                expected: r#"; Bound: 15
OpCapability Shader
OpMemoryModel Logical GLSL450
OpDecorate %1 ArrayStride 16
OpDecorate %2 ArrayStride 4
OpMemberDecorate %4 0 Offset 0
OpMemberDecorate %4 1 Offset 16
OpMemberDecorate %6 0 Offset 0
OpMemberDecorate %6 1 Offset 16
OpDecorate %8 Block
OpDecorate %8 RelaxedPrecision
%10 = OpTypeFloat 32
%11 = OpTypeInt 32 0
%12 = OpTypeInt 32 1
%13 = OpConstant %11 4
%14 = OpConstant %12 4
%1 = OpTypeArray %10 %13
%2 = OpTypeArray %10 %13
%4 = OpTypeStruct %10 %1
%6 = OpTypeStruct %10 %1
%8 = OpTypeStruct %10"#,
            },
            // Array lengths: by value words (a 64-bit 4 is not a 32-bit 4), with the `SpecId` of a
            // spec constant that has one, by id for `OpSpecConstantOp`.
            Case {
                name: "array_lengths",
                input: r#"OpCapability Shader
OpCapability Int64
OpMemoryModel Logical GLSL450
OpDecorate %sc1 SpecId 3
OpDecorate %sc2 SpecId 3
OpDecorate %sc3 SpecId 4
%f = OpTypeFloat 32
%u = OpTypeInt 32 0
%u64 = OpTypeInt 64 0
%c4 = OpConstant %u 4
%c4b = OpConstant %u64 4
%sc1 = OpSpecConstant %u 4
%sc2 = OpSpecConstant %u 4
%sc3 = OpSpecConstant %u 4
%sc4 = OpSpecConstant %u 4
%op1 = OpSpecConstantOp %u IAdd %sc1 %c4
%op2 = OpSpecConstantOp %u IAdd %sc1 %c4
%a1 = OpTypeArray %f %c4
%a2 = OpTypeArray %f %c4b
%a3 = OpTypeArray %f %sc1
%a4 = OpTypeArray %f %sc2
%a5 = OpTypeArray %f %sc3
%a6 = OpTypeArray %f %sc4
%a7 = OpTypeArray %f %op1
%a8 = OpTypeArray %f %op2
%a9 = OpTypeArray %f %op1"#,
                expected: r#"; Bound: 20
OpCapability Shader
OpCapability Int64
OpMemoryModel Logical GLSL450
OpDecorate %1 SpecId 3
OpDecorate %2 SpecId 3
OpDecorate %3 SpecId 4
%4 = OpTypeFloat 32
%5 = OpTypeInt 32 0
%6 = OpTypeInt 64 0
%7 = OpConstant %5 4
%8 = OpConstant %6 4
%1 = OpSpecConstant %5 4
%2 = OpSpecConstant %5 4
%3 = OpSpecConstant %5 4
%9 = OpSpecConstant %5 4
%10 = OpSpecConstantOp %5 IAdd %1 %7
%11 = OpSpecConstantOp %5 IAdd %1 %7
%12 = OpTypeArray %4 %7
%13 = OpTypeArray %4 %8
%14 = OpTypeArray %4 %1
%16 = OpTypeArray %4 %3
%18 = OpTypeArray %4 %10
%19 = OpTypeArray %4 %11"#,
            },
            // An integer's signedness compares as a bool, an image's absent access qualifier as
            // `ReadOnly`, a float's encoding, an opaque type's name.
            Case {
                name: "scalar_and_image_fields",
                input: r#"OpCapability Shader
OpCapability Kernel
OpCapability Int8
OpMemoryModel Logical GLSL450
%f = OpTypeFloat 32
%i = OpTypeInt 32 1
%u = OpTypeInt 32 0
%u2 = OpTypeInt 32 2
%im1 = OpTypeImage %f 2D 0 0 0 1 Unknown
%im2 = OpTypeImage %f 2D 0 0 0 1 Unknown ReadOnly
%im3 = OpTypeImage %f 2D 0 0 0 1 Unknown WriteOnly
%im4 = OpTypeImage %i 2D 0 0 0 1 Unknown
%si1 = OpTypeSampledImage %im1
%si2 = OpTypeSampledImage %im2
%h1 = OpTypeFloat 16
%h2 = OpTypeFloat 16 BFloat16KHR
%v1 = OpTypeVector %u 2
%v2 = OpTypeVector %u2 2
%op1 = OpTypeOpaque "a"
%op2 = OpTypeOpaque "a"
%op3 = OpTypeOpaque "b"
%fn1 = OpTypeFunction %f %i %u
%fn2 = OpTypeFunction %f %i %u2"#,
                expected: r#"; Bound: 20
OpCapability Shader
OpCapability Kernel
OpCapability Int8
OpMemoryModel Logical GLSL450
%1 = OpTypeFloat 32
%2 = OpTypeInt 32 1
%3 = OpTypeInt 32 0
%5 = OpTypeImage %1 2D 0 0 0 1 Unknown
%7 = OpTypeImage %1 2D 0 0 0 1 Unknown WriteOnly
%8 = OpTypeImage %2 2D 0 0 0 1 Unknown
%9 = OpTypeSampledImage %5
%11 = OpTypeFloat 16
%12 = OpTypeFloat 16 BFloat16KHR
%13 = OpTypeVector %3 2
%14 = OpTypeVector %2 2
%15 = OpTypeOpaque "a"
%17 = OpTypeOpaque "b"
%18 = OpTypeFunction %1 %2 %3
%19 = OpTypeFunction %1 %2 %2"#,
            },
            // Types reaching a forward-declared pointer are merged before their decorations count,
            // so structs differing only in `Offset` merge; a repeated `OpTypeForwardPointer` goes.
            Case {
                name: "forward_pointers_merge_before_decorations",
                input: r#"OpCapability Shader
OpCapability PhysicalStorageBufferAddresses
OpExtension "SPV_KHR_physical_storage_buffer"
OpMemoryModel PhysicalStorageBuffer64 GLSL450
OpName %s1 "Node"
OpName %s2 "Node2"
OpMemberDecorate %s1 0 Offset 0
OpMemberDecorate %s1 1 Offset 8
OpMemberDecorate %s2 0 Offset 0
OpMemberDecorate %s2 1 Offset 16
OpDecorate %p2 ArrayStride 32
OpTypeForwardPointer %p1 PhysicalStorageBuffer
OpTypeForwardPointer %p2 PhysicalStorageBuffer
OpTypeForwardPointer %p1 PhysicalStorageBuffer
%i = OpTypeInt 32 1
%s1 = OpTypeStruct %i %p1
%s2 = OpTypeStruct %i %p2
%p1 = OpTypePointer PhysicalStorageBuffer %s1
%p2 = OpTypePointer PhysicalStorageBuffer %s2
%s3 = OpTypeStruct %i %p2
%s4 = OpTypeStruct %i %p1
%ps3 = OpTypePointer PhysicalStorageBuffer %s3"#,
                expected: r#"; Bound: 6
OpCapability Shader
OpCapability PhysicalStorageBufferAddresses
OpExtension "SPV_KHR_physical_storage_buffer"
OpMemoryModel PhysicalStorageBuffer64 GLSL450
OpName %1 "Node"
OpMemberDecorate %1 0 Offset 0
OpMemberDecorate %1 1 Offset 8
OpTypeForwardPointer %4 PhysicalStorageBuffer
%5 = OpTypeInt 32 1
%1 = OpTypeStruct %5 %4
%4 = OpTypePointer PhysicalStorageBuffer %1"#,
            },
            // A type after the pointer it refers to is complete and keeps its decorations apart;
            // an incomplete one is compared without its own.
            Case {
                name: "forward_pointers_complete_and_incomplete",
                input: r#"OpCapability Shader
OpCapability PhysicalStorageBufferAddresses
OpExtension "SPV_KHR_physical_storage_buffer"
OpMemoryModel PhysicalStorageBuffer64 GLSL450
OpMemberDecorate %s1 0 Offset 0
OpMemberDecorate %s2 0 Offset 4
OpMemberDecorate %sA 0 Offset 0
OpMemberDecorate %sB 0 Offset 4
OpTypeForwardPointer %p1 PhysicalStorageBuffer
%i = OpTypeInt 32 1
%s1 = OpTypeStruct %i %p1
%p1 = OpTypePointer PhysicalStorageBuffer %s1
%sA = OpTypeStruct %i %p1
%sB = OpTypeStruct %i %p1
OpTypeForwardPointer %q PhysicalStorageBuffer
%s2 = OpTypeStruct %i %q
%q = OpTypePointer PhysicalStorageBuffer %i
%s5 = OpTypeStruct %i %q
%q2 = OpTypePointer PhysicalStorageBuffer %i
%s6 = OpTypeStruct %i %q2"#,
                expected: r#"; Bound: 9
OpCapability Shader
OpCapability PhysicalStorageBufferAddresses
OpExtension "SPV_KHR_physical_storage_buffer"
OpMemoryModel PhysicalStorageBuffer64 GLSL450
OpMemberDecorate %1 0 Offset 0
OpMemberDecorate %2 0 Offset 4
OpTypeForwardPointer %5 PhysicalStorageBuffer
%6 = OpTypeInt 32 1
%1 = OpTypeStruct %6 %5
%5 = OpTypePointer PhysicalStorageBuffer %1
OpTypeForwardPointer %7 PhysicalStorageBuffer
%2 = OpTypeStruct %6 %7
%7 = OpTypePointer PhysicalStorageBuffer %6
%8 = OpTypeStruct %6 %7"#,
            },
            // Rings of 2, 3 and 4 structs through pointers unfold to the same tree and merge into
            // one.
            Case {
                name: "cycles_compare_as_unfolded_trees",
                input: r#"OpCapability Shader
OpCapability PhysicalStorageBufferAddresses
OpCapability Linkage
OpMemoryModel PhysicalStorageBuffer64 GLSL450
OpMemberDecorate %s1_1 0 Offset 4
OpDecorate %s0_0 Block
%i = OpTypeInt 32 1
OpTypeForwardPointer %p0_0 PhysicalStorageBuffer
OpTypeForwardPointer %p0_1 PhysicalStorageBuffer
%s0_0 = OpTypeStruct %i %p0_1
%s0_1 = OpTypeStruct %i %p0_0
%p0_0 = OpTypePointer PhysicalStorageBuffer %s0_0
%p0_1 = OpTypePointer PhysicalStorageBuffer %s0_1
OpTypeForwardPointer %p1_0 PhysicalStorageBuffer
OpTypeForwardPointer %p1_1 PhysicalStorageBuffer
OpTypeForwardPointer %p1_2 PhysicalStorageBuffer
OpTypeForwardPointer %p1_3 PhysicalStorageBuffer
%s1_0 = OpTypeStruct %i %p1_1
%s1_1 = OpTypeStruct %i %p1_2
%s1_2 = OpTypeStruct %i %p1_3
%s1_3 = OpTypeStruct %i %p1_0
%p1_0 = OpTypePointer PhysicalStorageBuffer %s1_0
%p1_1 = OpTypePointer PhysicalStorageBuffer %s1_1
%p1_2 = OpTypePointer PhysicalStorageBuffer %s1_2
%p1_3 = OpTypePointer PhysicalStorageBuffer %s1_3
OpTypeForwardPointer %p2_0 PhysicalStorageBuffer
OpTypeForwardPointer %p2_1 PhysicalStorageBuffer
OpTypeForwardPointer %p2_2 PhysicalStorageBuffer
%s2_0 = OpTypeStruct %i %p2_1
%s2_1 = OpTypeStruct %i %p2_2
%s2_2 = OpTypeStruct %i %p2_0
%p2_0 = OpTypePointer PhysicalStorageBuffer %s2_0
%p2_1 = OpTypePointer PhysicalStorageBuffer %s2_1
%p2_2 = OpTypePointer PhysicalStorageBuffer %s2_2"#,
                expected: r#"; Bound: 5
OpCapability Shader
OpCapability PhysicalStorageBufferAddresses
OpCapability Linkage
OpMemoryModel PhysicalStorageBuffer64 GLSL450
OpDecorate %2 Block
%3 = OpTypeInt 32 1
OpTypeForwardPointer %4 PhysicalStorageBuffer
%2 = OpTypeStruct %3 %4
%4 = OpTypePointer PhysicalStorageBuffer %2"#,
            },
            // A pointer declared forward after it is defined, and types through it, merge with
            // their complete twins; the first forward declaration stays.
            Case {
                name: "complete_type_equal_to_incomplete",
                input: r#"OpCapability Shader
OpCapability PhysicalStorageBufferAddresses
OpCapability Linkage
OpMemoryModel PhysicalStorageBuffer64 GLSL450
%i = OpTypeInt 32 1
%q = OpTypePointer PhysicalStorageBuffer %i
%sa = OpTypeStruct %i %q
OpTypeForwardPointer %r PhysicalStorageBuffer
%sb = OpTypeStruct %i %r
%r = OpTypePointer PhysicalStorageBuffer %i
%sc = OpTypeStruct %i %r"#,
                expected: r#"; Bound: 4
OpCapability Shader
OpCapability PhysicalStorageBufferAddresses
OpCapability Linkage
OpMemoryModel PhysicalStorageBuffer64 GLSL450
%1 = OpTypeInt 32 1
%2 = OpTypePointer PhysicalStorageBuffer %1
%3 = OpTypeStruct %1 %2
OpTypeForwardPointer %2 PhysicalStorageBuffer"#,
            },
            // A group's decorations count for each target; a removed type leaves the group's
            // target list; repeated direct decorations go.
            Case {
                name: "group_decorations",
                input: r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
OpDecorate %g1 RelaxedPrecision
OpDecorate %g2 Restrict
%g1 = OpDecorationGroup
%g2 = OpDecorationGroup
OpGroupDecorate %g1 %s1 %s2 %s3 %a
OpGroupDecorate %g2 %s4
OpDecorate %s4 RelaxedPrecision
OpDecorate %s5 Restrict
OpDecorate %s5 RelaxedPrecision
OpDecorate %s6 RelaxedPrecision
OpDecorate %s6 RelaxedPrecision
OpGroupDecorate %g1 %s6
%f = OpTypeFloat 32
%s1 = OpTypeStruct %f
%s2 = OpTypeStruct %f
%s3 = OpTypeStruct %f
%a = OpTypeStruct %f %f
%s4 = OpTypeStruct %f
%s5 = OpTypeStruct %f
%s6 = OpTypeStruct %f"#,
                expected: r#"; Bound: 11
OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
OpDecorate %1 RelaxedPrecision
OpDecorate %2 Restrict
%1 = OpDecorationGroup
%2 = OpDecorationGroup
OpGroupDecorate %1 %3 %6
OpGroupDecorate %2 %7
OpDecorate %7 RelaxedPrecision
OpDecorate %9 RelaxedPrecision
OpGroupDecorate %1 %9
%10 = OpTypeFloat 32
%3 = OpTypeStruct %10
%6 = OpTypeStruct %10 %10
%7 = OpTypeStruct %10
%9 = OpTypeStruct %10"#,
            },
            // spirv-opt's decoration manager reads `OpGroupMemberDecorate`'s member numbers as its
            // targets: the structs merge, the instruction's targets are renamed.
            Case {
                name: "group_member_decorate_numbers",
                input: r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
OpDecorate %g RelaxedPrecision
%g = OpDecorationGroup
OpGroupMemberDecorate %g %s1 4 %s2 0
%f = OpTypeFloat 32
%s4 = OpTypeStruct %f
%s1 = OpTypeStruct %f
%s2 = OpTypeStruct %f
%s3 = OpTypeStruct %f"#,
                expected: r#"; Bound: 6
OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
OpDecorate %1 RelaxedPrecision
%1 = OpDecorationGroup
OpGroupMemberDecorate %1 %5 4 %5 0
%4 = OpTypeFloat 32
%5 = OpTypeStruct %4"#,
            },
            // The id equal to a member number gets the group's decorations.
            // The id equal to a member number gets the group's decorations.
            Case {
                name: "group_member_decorate_number_matches_id",
                input: r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
OpDecorate %g RelaxedPrecision
%g = OpDecorationGroup
OpGroupMemberDecorate %g %s1 0 %s2 0 %f 2
%f = OpTypeFloat 32
%s1 = OpTypeStruct %f
%s2 = OpTypeStruct %f"#,
                expected: r#"; Bound: 5
OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
OpDecorate %1 RelaxedPrecision
%1 = OpDecorationGroup
OpGroupMemberDecorate %1 %2 0 %3 0 %4 2
%4 = OpTypeFloat 32
%2 = OpTypeStruct %4
%3 = OpTypeStruct %4"#,
            },
            // A removed type whose id is one of the member numbers leaves the target list.
            // A removed type whose id is one of the member numbers leaves the target list.
            Case {
                name: "group_member_decorate_removed_target",
                input: r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
OpDecorate %g RelaxedPrecision
%g = OpDecorationGroup
OpGroupMemberDecorate %g %s2 2 %s1 0
OpDecorate %s1 RelaxedPrecision
%f = OpTypeFloat 32
%s1 = OpTypeStruct %f %f %f %f
%s2 = OpTypeStruct %f %f %f %f"#,
                expected: r#"; Bound: 5
OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
OpDecorate %1 RelaxedPrecision
%1 = OpDecorationGroup
OpGroupMemberDecorate %1 %3 0
OpDecorate %3 RelaxedPrecision
%4 = OpTypeFloat 32
%3 = OpTypeStruct %4 %4 %4 %4"#,
            },
            // Types told apart by the decorations a member number gives them stay.
            // Types told apart by the decorations a member number gives them stay.
            Case {
                name: "group_member_decorate_kept_target",
                input: r#"OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
OpDecorate %g RelaxedPrecision
%g = OpDecorationGroup
OpGroupMemberDecorate %g %s2 2 %s1 0 %s2 1
OpDecorate %s1 RelaxedPrecision
OpDecorate %s1 RelaxedPrecision
%f = OpTypeFloat 32
%s1 = OpTypeStruct %f %f %f %f
%s2 = OpTypeStruct %f %f %f %f"#,
                expected: r#"; Bound: 5
OpCapability Shader
OpCapability Linkage
OpMemoryModel Logical GLSL450
OpDecorate %1 RelaxedPrecision
%1 = OpDecorationGroup
OpGroupMemberDecorate %1 %2 2 %3 0 %2 1
OpDecorate %3 RelaxedPrecision
%4 = OpTypeFloat 32
%3 = OpTypeStruct %4 %4 %4 %4
%2 = OpTypeStruct %4 %4 %4 %4"#,
            },
            // `OpMemberDecorateString` is not tracked: the removed struct's stays, renamed to the
            // struct kept.
            Case {
                name: "member_decorate_string_moves",
                input: r#"OpCapability Shader
OpExtension "SPV_GOOGLE_hlsl_functionality1"
OpExtension "SPV_GOOGLE_user_type"
OpMemoryModel Logical GLSL450
OpName %s1 "S1"
OpName %s2 "S2"
OpMemberName %s2 0 "m"
OpMemberDecorateString %s1 0 UserSemantic "A"
OpMemberDecorateString %s2 0 UserSemantic "B"
OpDecorateString %s2 UserTypeGOOGLE "t"
OpMemberDecorate %s1 0 Offset 0
OpMemberDecorate %s2 0 Offset 0
%f = OpTypeFloat 32
%s1 = OpTypeStruct %f
%s2 = OpTypeStruct %f
%p = OpTypePointer Uniform %s2"#,
                expected: r#"; Bound: 5
OpCapability Shader
OpExtension "SPV_GOOGLE_hlsl_functionality1"
OpExtension "SPV_GOOGLE_user_type"
OpMemoryModel Logical GLSL450
OpName %1 "S1"
OpMemberDecorateString %1 0 UserSemantic "A"
OpMemberDecorateString %1 0 UserSemantic "B"
OpMemberDecorate %1 0 Offset 0
%3 = OpTypeFloat 32
%1 = OpTypeStruct %3
%4 = OpTypePointer Uniform %1"#,
            },
        ],
    );
}

#[test]
fn trim_capabilities() {
    check(
        "--trim-capabilities",
        &[
            // Unused supported capabilities and the extensions only they list go; unsupported ones
            // (`Int8`) and `Shader` stay.
            Case {
                name: "unused_capabilities_and_extensions",
                input: r#"OpCapability Shader
OpCapability Float64
OpCapability Int64
OpCapability Int16
OpCapability Float16
OpCapability Geometry
OpCapability ImageMSArray
OpCapability MinLod
OpCapability StorageImageReadWithoutFormat
OpCapability StorageImageWriteWithoutFormat
OpCapability Int8
OpExtension "SPV_KHR_16bit_storage"
OpExtension "SPV_AMD_shader_ballot"
OpExtension "SPV_KHR_storage_buffer_storage_class"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%d = OpTypeFloat 64
%i8 = OpTypeInt 8 0
%f = OpTypeFloat 32
%main = OpFunction %void None %fn
%l = OpLabel
OpReturn
OpFunctionEnd"#,
                expected: r#"; Bound: 8
OpCapability Shader
OpCapability Float64
OpCapability Int8
OpExtension "SPV_KHR_storage_buffer_storage_class"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %1 "main"
OpExecutionMode %1 LocalSize 1 1 1
%2 = OpTypeVoid
%3 = OpTypeFunction %2
%4 = OpTypeFloat 64
%5 = OpTypeInt 8 0
%6 = OpTypeFloat 32
%1 = OpFunction %2 None %3
%7 = OpLabel
OpReturn
OpFunctionEnd"#,
            },
            // Nothing changes in a module with `Linkage`.
            // Nothing changes in a module with `Linkage`.
            Case {
                name: "linkage_is_a_no_op",
                input: r#"OpCapability Shader
OpCapability Linkage
OpCapability Float64
OpMemoryModel Logical GLSL450
%f = OpTypeFloat 32"#,
                expected: r#"; Bound: 2
OpCapability Shader
OpCapability Linkage
OpCapability Float64
OpMemoryModel Logical GLSL450
%1 = OpTypeFloat 32"#,
            },
            // Reading a subpass image needs no `StorageImageReadWithoutFormat`; writing an image
            // with a format needs no `StorageImageWriteWithoutFormat`; `MinLod` goes;
            // `ImageMSArray` stays for a sampled multisampled array.
            Case {
                name: "images_without_format",
                input: r#"OpCapability Shader
OpCapability StorageImageReadWithoutFormat
OpCapability StorageImageWriteWithoutFormat
OpCapability InputAttachment
OpCapability ImageMSArray
OpCapability StorageImageMultisample
OpCapability MinLod
OpCapability SparseResidency
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main"
OpExecutionMode %main OriginUpperLeft
%void = OpTypeVoid
%fn = OpTypeFunction %void
%f = OpTypeFloat 32
%i = OpTypeInt 32 1
%v2i = OpTypeVector %i 2
%v4 = OpTypeVector %f 4
%sub = OpTypeImage %f SubpassData 0 0 0 2 Unknown
%st = OpTypeImage %f 2D 0 0 0 2 Rgba8
%msa = OpTypeImage %f 2D 0 1 1 2 Unknown
%psub = OpTypePointer UniformConstant %sub
%pst = OpTypePointer UniformConstant %st
%vsub = OpVariable %psub UniformConstant
%vst = OpVariable %pst UniformConstant
%c0 = OpConstant %i 0
%zero = OpConstantComposite %v2i %c0 %c0
%main = OpFunction %void None %fn
%l = OpLabel
%a = OpLoad %sub %vsub
%b = OpImageRead %v4 %a %zero
%c = OpLoad %st %vst
%d = OpImageRead %v4 %c %zero
OpImageWrite %c %zero %d
OpReturn
OpFunctionEnd"#,
                expected: r#"; Bound: 22
OpCapability Shader
OpCapability InputAttachment
OpCapability ImageMSArray
OpCapability StorageImageMultisample
OpCapability SparseResidency
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %1 "main"
OpExecutionMode %1 OriginUpperLeft
%2 = OpTypeVoid
%3 = OpTypeFunction %2
%4 = OpTypeFloat 32
%5 = OpTypeInt 32 1
%6 = OpTypeVector %5 2
%7 = OpTypeVector %4 4
%8 = OpTypeImage %4 SubpassData 0 0 0 2 Unknown
%9 = OpTypeImage %4 2D 0 0 0 2 Rgba8
%10 = OpTypeImage %4 2D 0 1 1 2 Unknown
%11 = OpTypePointer UniformConstant %8
%12 = OpTypePointer UniformConstant %9
%13 = OpVariable %11 UniformConstant
%14 = OpVariable %12 UniformConstant
%15 = OpConstant %5 0
%16 = OpConstantComposite %6 %15 %15
%1 = OpFunction %2 None %3
%17 = OpLabel
%18 = OpLoad %8 %13
%19 = OpImageRead %7 %18 %16
%20 = OpLoad %9 %14
%21 = OpImageRead %7 %20 %16
OpImageWrite %20 %16 %21
OpReturn
OpFunctionEnd"#,
            },
            // A 16-bit member of a `BufferBlock` uniform needs `StorageUniformBufferBlock16`
            // (`StorageBuffer16BitAccess`), not `StorageUniform16`; `SPV_KHR_16bit_storage` goes
            // (core in 1.3).
            Case {
                name: "sixteen_bit_uniform_buffer_block",
                input: r#"OpCapability Shader
OpCapability Float16
OpCapability Int16
OpCapability StorageBuffer16BitAccess
OpCapability UniformAndStorageBuffer16BitAccess
OpCapability StoragePushConstant16
OpCapability StorageInputOutput16
OpExtension "SPV_KHR_16bit_storage"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %bb BufferBlock
OpMemberDecorate %bb 0 Offset 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%h = OpTypeFloat 16
%f = OpTypeFloat 32
%bb = OpTypeStruct %h
%pu = OpTypePointer Uniform %bb
%vu = OpVariable %pu Uniform
%main = OpFunction %void None %fn
%l = OpLabel
OpReturn
OpFunctionEnd"#,
                expected: r#"; Bound: 10
OpCapability Shader
OpCapability Float16
OpCapability StorageBuffer16BitAccess
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %1 "main"
OpExecutionMode %1 LocalSize 1 1 1
OpDecorate %2 BufferBlock
OpMemberDecorate %2 0 Offset 0
%3 = OpTypeVoid
%4 = OpTypeFunction %3
%5 = OpTypeFloat 16
%6 = OpTypeFloat 32
%2 = OpTypeStruct %5
%7 = OpTypePointer Uniform %2
%8 = OpVariable %7 Uniform
%1 = OpFunction %3 None %4
%9 = OpLabel
OpReturn
OpFunctionEnd"#,
            },
            // 16-bit types in a `Block` storage buffer, a uniform and an input keep their
            // capabilities; push constants have none.
            Case {
                name: "sixteen_bit_storage_classes",
                input: r#"OpCapability Shader
OpCapability Int16
OpCapability StorageBuffer16BitAccess
OpCapability UniformAndStorageBuffer16BitAccess
OpCapability StoragePushConstant16
OpCapability StorageInputOutput16
OpExtension "SPV_KHR_16bit_storage"
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main" %in
OpExecutionMode %main OriginUpperLeft
OpDecorate %blk Block
OpDecorate %u Block
OpMemberDecorate %blk 0 Offset 0
OpMemberDecorate %u 0 Offset 0
OpDecorate %in Location 0
OpDecorate %in Flat
%void = OpTypeVoid
%fn = OpTypeFunction %void
%s = OpTypeInt 16 1
%arr = OpTypeRuntimeArray %s
%blk = OpTypeStruct %arr
%ps = OpTypePointer StorageBuffer %blk
%vs = OpVariable %ps StorageBuffer
%u = OpTypeStruct %s
%pu = OpTypePointer Uniform %u
%vu = OpVariable %pu Uniform
%pi = OpTypePointer Input %s
%in = OpVariable %pi Input
%main = OpFunction %void None %fn
%l = OpLabel
OpReturn
OpFunctionEnd"#,
                expected: r#"; Bound: 15
OpCapability Shader
OpCapability Int16
OpCapability StorageBuffer16BitAccess
OpCapability UniformAndStorageBuffer16BitAccess
OpCapability StorageInputOutput16
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %1 "main" %2
OpExecutionMode %1 OriginUpperLeft
OpDecorate %3 Block
OpDecorate %4 Block
OpMemberDecorate %3 0 Offset 0
OpMemberDecorate %4 0 Offset 0
OpDecorate %2 Location 0
OpDecorate %2 Flat
%5 = OpTypeVoid
%6 = OpTypeFunction %5
%7 = OpTypeInt 16 1
%8 = OpTypeRuntimeArray %7
%3 = OpTypeStruct %8
%9 = OpTypePointer StorageBuffer %3
%10 = OpVariable %9 StorageBuffer
%4 = OpTypeStruct %7
%11 = OpTypePointer Uniform %4
%12 = OpVariable %11 Uniform
%13 = OpTypePointer Input %7
%2 = OpVariable %13 Input
%1 = OpFunction %5 None %6
%14 = OpLabel
OpReturn
OpFunctionEnd"#,
            },
            // A `Scope` operand under the Vulkan memory model needs
            // `VulkanMemoryModelDeviceScope`; the non-uniform arithmetic opcode's own capabilities
            // do not count, its `ClusteredReduce` does; a ray query type keeps
            // `SPV_KHR_ray_query`; extensions core by 1.6 go.
            Case {
                name: "vulkan_scope_and_conflicting_opcodes",
                input: r#"OpCapability Shader
OpCapability VulkanMemoryModel
OpCapability VulkanMemoryModelDeviceScope
OpCapability GroupNonUniform
OpCapability GroupNonUniformArithmetic
OpCapability GroupNonUniformClustered
OpCapability GroupNonUniformVote
OpCapability InterpolationFunction
OpCapability RayQueryKHR
OpCapability RayTracingKHR
OpExtension "SPV_KHR_vulkan_memory_model"
OpExtension "SPV_KHR_ray_query"
OpExtension "SPV_KHR_ray_tracing"
%glsl = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
%void = OpTypeVoid
%fn = OpTypeFunction %void
%u = OpTypeInt 32 0
%rq = OpTypeRayQueryKHR
%c3 = OpConstant %u 3
%c4 = OpConstant %u 4
%main = OpFunction %void None %fn
%l = OpLabel
%r = OpGroupNonUniformIAdd %u %c3 ClusteredReduce %c3 %c4
OpReturn
OpFunctionEnd"#,
                expected: r#"; Bound: 11
OpCapability Shader
OpCapability VulkanMemoryModel
OpCapability VulkanMemoryModelDeviceScope
OpCapability GroupNonUniformClustered
OpCapability RayQueryKHR
OpExtension "SPV_KHR_ray_query"
%1 = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical Vulkan
OpEntryPoint GLCompute %2 "main"
OpExecutionMode %2 LocalSize 1 1 1
%3 = OpTypeVoid
%4 = OpTypeFunction %3
%5 = OpTypeInt 32 0
%6 = OpTypeRayQueryKHR
%7 = OpConstant %5 3
%8 = OpConstant %5 4
%2 = OpFunction %3 None %4
%9 = OpLabel
%10 = OpGroupNonUniformIAdd %5 %7 ClusteredReduce %7 %8
OpReturn
OpFunctionEnd"#,
            },
        ],
    );
}

/// Trimming a capability that is only implied (here `StorageBuffer16BitAccess`, implied by
/// `UniformAndStorageBuffer16BitAccess`) removes no instruction but counts as a change,
/// so the loose bound becomes the largest id plus one.
#[test]
fn trim_capabilities_implied_capability_changes_the_bound() {
    let mut words = assemble(
        r#"OpCapability Shader
OpCapability Int16
OpCapability UniformAndStorageBuffer16BitAccess
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %u Block
OpMemberDecorate %u 0 Offset 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%s = OpTypeInt 16 1
%u = OpTypeStruct %s
%pu = OpTypePointer Uniform %u
%vu = OpVariable %pu Uniform
%main = OpFunction %void None %fn
%l = OpLabel
OpReturn
OpFunctionEnd"#,
    );
    words[3] = 100;
    let got = ours(&words, "--trim-capabilities");
    assert_eq!(got[3], 9, "the bound is recomputed");
    assert_eq!(got[5..], words[5..], "no instruction changes");
    if let Some(reference) = spirv_opt(&words, "--trim-capabilities", "implied") {
        assert_eq!(got, reference);
    }
}

/// Two chains of 20,000 nested arrays: the second equals the first link by link and goes,
/// without recursion (the comparison is partition refinement).
#[test]
fn deep_types_do_not_recurse() {
    let n = 20_000;
    let mut text = String::from(
        "OpCapability Shader\nOpCapability Linkage\nOpMemoryModel Logical GLSL450\n\
         %f = OpTypeFloat 32\n%u = OpTypeInt 32 0\n%c = OpConstant %u 2\n",
    );
    for chain in ["a", "b"] {
        let mut prev = String::from("%f");
        for i in 0..n {
            text.push_str(&format!("%{chain}{i} = OpTypeArray {prev} %c\n"));
            prev = format!("%{chain}{i}");
        }
    }
    let words = assemble(&text);
    let module = Module::from_words(&words).expect("reads");
    let (out, changed) = run(&module, &passes("--remove-duplicates")).expect("runs");
    assert!(changed);
    assert_eq!(out.len(), module.len() - n);
    let (_, changed) = run(&module, &passes("--trim-capabilities")).expect("runs");
    assert!(!changed, "nothing to trim (Linkage)");
}

/// Rings of structs pointing at the next one through forward-declared pointers, of
/// lengths 1,000 and 999: every struct unfolds to the same infinite tree, so one struct,
/// one pointer and one forward declaration are left.
#[test]
fn cyclic_types_compare_as_unfolded_trees() {
    let mut text = String::from(
        "OpCapability Shader\nOpCapability PhysicalStorageBufferAddresses\nOpCapability Linkage\n\
         OpMemoryModel PhysicalStorageBuffer64 GLSL450\n%i = OpTypeInt 32 1\n",
    );
    for (r, k) in [(0, 1000), (1, 999)] {
        for j in 0..k {
            text.push_str(&format!(
                "OpTypeForwardPointer %p{r}_{j} PhysicalStorageBuffer\n"
            ));
        }
        for j in 0..k {
            let next = (j + 1) % k;
            text.push_str(&format!("%s{r}_{j} = OpTypeStruct %i %p{r}_{next}\n"));
        }
        for j in 0..k {
            text.push_str(&format!(
                "%p{r}_{j} = OpTypePointer PhysicalStorageBuffer %s{r}_{j}\n"
            ));
        }
    }
    let words = assemble(&text);
    let module = Module::from_words(&words).expect("reads");
    let (out, _) = run(&module, &passes("--remove-duplicates")).expect("runs");
    let text = dis(&out.to_words());
    assert_eq!(text.matches("OpTypeStruct").count(), 1, "{text}");
    assert_eq!(text.matches("OpTypePointer").count(), 1);
    assert_eq!(text.matches("OpTypeForwardPointer").count(), 1);
}

/// References to nothing and types where another kind belongs (which spirv-opt crashes
/// on): every pass finishes or reports an error, and never panics.
#[test]
fn references_to_nothing_do_not_panic() {
    let text = r#"OpCapability Shader
OpCapability Float16
OpCapability StorageBuffer16BitAccess
OpCapability PhysicalStorageBufferAddresses
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %s Block
OpDecorate %s2 Block
OpMemberDecorate %s 9 Offset 0
OpGroupMemberDecorate %s %s 0
OpTypeForwardPointer %s PhysicalStorageBuffer
OpTypeForwardPointer %nothing PhysicalStorageBuffer
%void = OpTypeVoid
%fn = OpTypeFunction %void
%h = OpTypeFloat 16
%s = OpTypeStruct %h %missing %s
%s2 = OpTypeStruct %h %missing %s2
%a = OpTypeArray %h %nolength
%a2 = OpTypeArray %h %nolength
%p = OpTypePointer StorageBuffer %s
%p2 = OpTypePointer StorageBuffer %s2
%v = OpVariable %p StorageBuffer
%main = OpFunction %void None %fn
%l = OpLabel
%r = OpImageRead %h %v %v
OpImageWrite %missing %v %v
%t = OpImageSparseRead %h %main %v
OpReturn
OpFunctionEnd"#;
    let words = assemble(text);
    let Ok(module) = Module::from_words(&words) else {
        return;
    };
    for flags in [
        "--remove-duplicates",
        "--trim-capabilities",
        "--strip-nonsemantic",
        "--strip-nonsemantic --remove-duplicates --trim-capabilities",
    ] {
        let _ = run(&module, &passes(flags));
    }
}
