//! The validator's per-opcode result and operand type rules (spirv-val's arithmetics,
//! composites, conversion, bitwise and logicals passes): small modules, each breaking
//! one rule (or none), whose message must be spirv-val 2025.5's. The expected texts
//! are spirv-val's, recorded; where spirv-val is installed every case is also run
//! through it and the whole output compared byte for byte.

#[path = "support/operations.rs"]
mod support;
use support::{check_lines, check_table, message, ours, shader};

#[test]
fn arithmetics() {
    check_table(
        r#"
%x = OpFAdd %f32 %f32_0 %f32_1; %y = OpFMul %f32vec2 %f32vec2_01 %f32vec2_01 =>
%x = OpIAdd %u32 %u32_0 %s32_1; %y = OpSNegate %s32 %u32_1 =>
%x = OpFAdd %u32 %f32_0 %f32_1 => Expected floating scalar or vector type as Result Type: FAdd
%x = OpFMul %f32 %f32_0 %f64_0 => Expected arithmetic operands to be of Result Type: FMul operand index 3
%x = OpFNegate %f32 %u32_0 => Expected arithmetic operands to be of Result Type: FNegate operand index 2
%x = OpUDiv %s32 %u32_0 %u32_1 => Expected unsigned int scalar or vector type as Result Type: UDiv
%x = OpUMod %u32 %u32_0 %s32_1 => Expected arithmetic operands to be of Result Type: UMod operand index 3
%x = OpIAdd %f32 %u32_0 %u32_1 => Expected int scalar or vector type as Result Type: IAdd
%x = OpISub %u32 %f32_0 %u32_1 => Expected int scalar or vector type as operand: ISub operand index 2
%x = OpIMul %u32 %u32_0 %u32vec2_01 => Expected arithmetic operands to have the same dimension as Result Type: IMul operand index 3
%x = OpSDiv %s32 %s32_0 %s64_0 => Expected arithmetic operands to have the same bit width as Result Type: SDiv operand index 3
%x = OpDot %f32 %f32vec2_01 %f32vec2_01 =>
%x = OpDot %f32vec2 %f32vec2_01 %f32vec2_01 => Expected float scalar type as Result Type: Dot
%x = OpDot %f32 %f32_0 %f32vec2_01 => Expected float vector as operand: Dot operand index 2
%x = OpDot %f64 %f32vec2_01 %f32vec2_01 => Expected component type to be equal to Result Type: Dot operand index 2
%x = OpDot %f32 %f32vec2_01 %f32vec3_011 => Expected operands to have the same number of components: Dot
%x = OpVectorTimesScalar %f32vec2 %f32vec2_01 %f32_1 =>
%x = OpVectorTimesScalar %f32 %f32vec2_01 %f32_1 => Expected float vector type as Result Type: VectorTimesScalar
%x = OpVectorTimesScalar %f32vec2 %f32vec3_011 %f32_1 => Expected vector operand type to be equal to Result Type: VectorTimesScalar
%x = OpVectorTimesScalar %f32vec2 %f32vec2_01 %f64_0 => Expected scalar operand type to be equal to the component type of the vector operand: VectorTimesScalar
%x = OpMatrixTimesScalar %f32mat22 %f32mat22_1 %f32_1 =>
%x = OpMatrixTimesScalar %f32vec2 %f32mat22_1 %f32_1 => Expected float matrix type as Result Type: MatrixTimesScalar
%x = OpMatrixTimesScalar %f32mat22 %f32mat23_1 %f32_1 => Expected matrix operand type to be equal to Result Type: MatrixTimesScalar
%x = OpMatrixTimesScalar %f32mat22 %f32mat22_1 %u32_1 => Expected scalar operand type to be equal to the component type of the matrix operand: MatrixTimesScalar
%x = OpVectorTimesMatrix %f32vec3 %f32vec2_01 %f32mat23_1 =>
%x = OpVectorTimesMatrix %f32 %f32vec2_01 %f32mat23_1 => Expected float vector type as Result Type: VectorTimesMatrix
%x = OpVectorTimesMatrix %f32vec3 %u32vec2_01 %f32mat23_1 => Expected float vector type as left operand: VectorTimesMatrix
%x = OpVectorTimesMatrix %f32vec2 %f64vec2_00 %f32mat22_1 => Expected component types of Result Type and vector to be equal: VectorTimesMatrix
%x = OpVectorTimesMatrix %f32vec3 %f32vec2_01 %f32vec2_01 => Expected float matrix type as right operand: VectorTimesMatrix
%x = OpVectorTimesMatrix %f64vec2 %f64vec2_00 %f32mat22_1 => Expected component types of Result Type and matrix to be equal: VectorTimesMatrix
%x = OpVectorTimesMatrix %f32vec2 %f32vec2_01 %f32mat23_1 => Expected number of columns of the matrix to be equal to Result Type vector size: VectorTimesMatrix
%x = OpVectorTimesMatrix %f32vec2 %f32vec3_011 %f32mat22_1 => Expected number of rows of the matrix to be equal to the vector operand size: VectorTimesMatrix
%x = OpMatrixTimesVector %f32vec2 %f32mat23_1 %f32vec3_011 =>
%x = OpMatrixTimesVector %f32 %f32mat23_1 %f32vec3_011 => Expected float vector type as Result Type: MatrixTimesVector
%x = OpMatrixTimesVector %f32vec2 %f32vec2_01 %f32vec3_011 => Expected float matrix type as left operand: MatrixTimesVector
%x = OpMatrixTimesVector %f32vec3 %f32mat23_1 %f32vec3_011 => Expected column type of the matrix to be equal to Result Type: MatrixTimesVector
%x = OpMatrixTimesVector %f32vec2 %f32mat23_1 %u32vec3_011 => Expected float vector type as right operand: MatrixTimesVector
%x = OpMatrixTimesVector %f32vec2 %f32mat22_1 %f64vec2_00 => Expected component types of the operands to be equal: MatrixTimesVector
%x = OpMatrixTimesVector %f32vec2 %f32mat23_1 %f32vec2_01 => Expected number of columns of the matrix to be equal to the vector size: MatrixTimesVector
%x = OpMatrixTimesMatrix %f32mat22 %f32mat23_1 %f32mat32_1 =>
%x = OpMatrixTimesMatrix %f32vec2 %f32mat22_1 %f32mat22_1 => Expected float matrix type as Result Type: MatrixTimesMatrix
%x = OpMatrixTimesMatrix %f32mat22 %f32vec2_01 %f32mat22_1 => Expected float matrix type as left operand: MatrixTimesMatrix
%x = OpMatrixTimesMatrix %f32mat22 %f32mat22_1 %f32vec2_01 => Expected float matrix type as right operand: MatrixTimesMatrix
%x = OpMatrixTimesMatrix %f32mat33 %f32mat22_1 %f32mat22_1 => Expected column types of Result Type and left matrix to be equal: MatrixTimesMatrix
%x = OpMatrixTimesMatrix %f32mat22 %f32mat22_1 %f64mat22_1 => Expected component types of Result Type and right matrix to be equal: MatrixTimesMatrix
%x = OpMatrixTimesMatrix %f32mat23 %f32mat22_1 %f32mat22_1 => Expected number of columns of Result Type and right matrix to be equal: MatrixTimesMatrix
%x = OpMatrixTimesMatrix %f32mat22 %f32mat22_1 %f32mat32_1 => Expected number of columns of left matrix and number of rows of right matrix to be equal: MatrixTimesMatrix
%x = OpOuterProduct %f32mat23 %f32vec2_01 %f32vec3_011 =>
%x = OpOuterProduct %f32vec2 %f32vec2_01 %f32vec3_011 => Expected float matrix type as Result Type: OuterProduct
%x = OpOuterProduct %f32mat23 %f32vec3_011 %f32vec3_011 => Expected column type of Result Type to be equal to the type of the left operand: OuterProduct
%x = OpOuterProduct %f32mat23 %f32vec2_01 %u32vec3_011 => Expected float vector type as right operand: OuterProduct
%x = OpOuterProduct %f32mat22 %f32vec2_01 %f64vec2_00 => Expected component types of the operands to be equal: OuterProduct
%x = OpOuterProduct %f32mat23 %f32vec2_01 %f32vec2_01 => Expected number of columns of the matrix to be equal to the vector size of the right operand: OuterProduct
%x = OpIAddCarry %struct_u32_u32 %u32_0 %u32_1 =>
%x = OpIAddCarry %u32 %u32_0 %u32_1 => Expected a struct as Result Type: IAddCarry
%x = OpISubBorrow %struct_u32_u32_u32 %u32_0 %u32_1 => Expected Result Type struct to have two members: ISubBorrow
%x = OpUMulExtended %struct_s32_s32 %s32_0 %s32_1 => Expected Result Type struct member types to be unsigned integer scalar or vector: UMulExtended
%x = OpSMulExtended %struct_f32_u32 %u32_0 %u32_1 => Expected Result Type struct member types to be integer scalar or vector: SMulExtended
%x = OpSMulExtended %struct_u32_s32 %u32_0 %u32_1 => Expected Result Type struct member types to be identical: SMulExtended
%x = OpIAddCarry %struct_u32_u32 %u32_0 %s32_1 => Expected both operands to be of Result Type member type: IAddCarry
"#,
    );
}

#[test]
fn bitwise() {
    check_table(
        r#"
%x = OpShiftLeftLogical %u32 %s32_1 %u64_0 =>
%x = OpShiftRightLogical %f32 %u32_1 %u32_1 => Expected int scalar or vector type as Result Type: ShiftRightLogical
%x = OpShiftRightArithmetic %u32 %f32_1 %u32_1 => Expected Base to be int scalar or vector: ShiftRightArithmetic
%x = OpShiftLeftLogical %u32 %u32vec2_01 %u32_1 => Expected Base to have the same dimension as Result Type: ShiftLeftLogical
%x = OpShiftLeftLogical %u32 %u64_0 %u32_1 => Expected Base to have the same bit width as Result Type: ShiftLeftLogical
%x = OpShiftLeftLogical %u32 %u32_1 %f32_1 => Expected Shift to be int scalar or vector: ShiftLeftLogical
%x = OpShiftLeftLogical %u32 %u32_1 %u32vec2_01 => Expected Shift to have the same dimension as Result Type: ShiftLeftLogical
%x = OpBitwiseAnd %u32 %s32_1 %u32_1; %y = OpNot %s32 %u32_0 =>
%x = OpBitwiseOr %f32 %u32_1 %u32_1 => Expected int scalar or vector type as Result Type: BitwiseOr
%x = OpBitwiseXor %u32 %u32_1 %f32_1 => Expected int scalar or vector as operand: BitwiseXor operand index 3
%x = OpNot %u32 %u32vec2_01 => Expected operands to have the same dimension as Result Type: Not operand index 2
%x = OpBitwiseAnd %u32 %u64_0 %u32_1 => Expected operands to have the same bit width as Result Type: BitwiseAnd operand index 2
%x = OpBitFieldInsert %u32 %u32_1 %u32_0 %s32_0 %u64_0 =>
%x = OpBitFieldInsert %u32 %f32_1 %u32_0 %u32_0 %u32_0 => Expected int scalar or vector type for Base operand: BitFieldInsert
%x = OpBitFieldInsert %u32 %s32_1 %u32_0 %u32_0 %u32_0 => Expected Base Type to be equal to Result Type: BitFieldInsert
%x = OpBitFieldInsert %u32 %u32_1 %s32_0 %u32_0 %u32_0 => Expected Insert Type to be equal to Result Type: BitFieldInsert
%x = OpBitFieldInsert %u32 %u32_1 %u32_0 %f32_0 %u32_0 => Expected Offset Type to be int scalar: BitFieldInsert
%x = OpBitFieldSExtract %u32 %u32_1 %u32_0 %u32vec2_01 => Expected Count Type to be int scalar: BitFieldSExtract
%x = OpBitReverse %s32 %u32_1 => Expected Base Type to be equal to Result Type: BitReverse
%x = OpBitCount %s32 %u32_1; %y = OpBitCount %u32 %u64_0 =>
%x = OpBitCount %f32 %u32_1 => Expected int scalar or vector type as Result Type: BitCount
%x = OpBitCount %u32 %u32vec2_01 => Expected Base dimension to be equal to Result Type dimension: BitCount
"#,
    );
}

#[test]
fn bitwise_vulkan_width() {
    let text = shader("", "%x = OpBitCount %u32 %u64_0");
    assert_eq!(
        ours(&text, "vulkan1.1"),
        "error: line 73: [VUID-RuntimeSpirv-None-10824] Expected 32-bit int type for Base \
         operand: BitCount\nThis is allowed if you enable the maintenance9 feature (or use \
         the --allow-vulkan-32-bit-bitwise command line flag)\n  %67 = OpBitCount %uint %ulong_0\n\n"
    );
}

#[test]
fn logicals() {
    check_table(
        r#"
%x = OpAny %bool %bvec2_tt =>
%x = OpAll %bvec2 %bvec2_tt => Expected bool scalar type as Result Type: All
%x = OpAny %bool %true => Expected operand to be vector bool: Any
%x = OpIsNan %bvec2 %f32vec2_01 =>
%x = OpIsInf %f32 %f32_0 => Expected bool scalar or vector type as Result Type: IsInf
%x = OpIsNan %bool %u32_0 => Expected operand to be scalar or vector float: IsNan
%x = OpIsNan %bool %f32vec2_01 => Expected vector sizes of Result Type and the operand to be equal: IsNan
%x = OpFOrdEqual %bool %f32_0 %f32_1 =>
%x = OpFOrdLessThan %u32 %f32_0 %f32_1 => Expected bool scalar or vector type as Result Type: FOrdLessThan
%x = OpFUnordEqual %bool %u32_0 %f32_1 => Expected operands to be scalar or vector float: FUnordEqual
%x = OpFOrdEqual %bvec2 %f32_0 %f32_1 => Expected vector sizes of Result Type and the operands to be equal: FOrdEqual
%x = OpFOrdEqual %bool %f32_0 %f64_0 => Expected left and right operands to have the same type: FOrdEqual
%x = OpLogicalAnd %bool %true %true; %y = OpLogicalNot %bvec2 %bvec2_tt =>
%x = OpLogicalOr %u32 %true %true => Expected bool scalar or vector type as Result Type: LogicalOr
%x = OpLogicalEqual %bool %true %bvec2_tt => Expected both operands to be of Result Type: LogicalEqual
%x = OpLogicalNot %bool %bvec2_tt => Expected operand to be of Result Type: LogicalNot
%x = OpIEqual %bool %u32_0 %s32_1 =>
%x = OpIEqual %u32 %u32_0 %u32_1 => Expected bool scalar or vector type as Result Type: IEqual
%x = OpSLessThan %bool %f32_0 %u32_1 => Expected operands to be scalar or vector int: SLessThan
%x = OpULessThan %bvec2 %u32_0 %u32_1 => Expected vector sizes of Result Type and the operands to be equal: ULessThan
%x = OpUGreaterThan %bool %u32_0 %f32_1 => Expected operands to be scalar or vector int: UGreaterThan
%x = OpINotEqual %bool %u32_0 %u32vec2_01 => Expected vector sizes of Result Type and the operands to be equal: INotEqual
%x = OpSGreaterThan %bool %u32_0 %u64_0 => Expected both operands to have the same component bit width: SGreaterThan
%x = OpSelect %u32 %true %u32_0 %u32_1 =>
%x = OpSelect %struct_u32_u32 %true %struct_u32_u32_c %struct_u32_u32_c =>
%x = OpSelect %u32vec2 %true %u32vec2_01 %u32vec2_01 =>
%x = OpSelect %rtarr %true %u32_0 %u32_1 => Expected scalar or composite type as Result Type: Select
%x = OpSelect %u32 %u32_0 %u32_0 %u32_1 => Expected bool scalar or vector type as condition: Select
%x = OpSelect %u32 %bvec2_tt %u32_0 %u32_1 => Expected vector sizes of Result Type and the condition to be equal: Select
%x = OpSelect %u32 %true %u32_0 %s32_1 => Expected both objects to be of Result Type: Select
"#,
    );
}

#[test]
fn select_before_1_4() {
    let text = shader(
        "",
        "%x = OpSelect %struct_u32_u32 %true %struct_u32_u32_c %struct_u32_u32_c",
    );
    assert!(
        ours(&text, "spv1.3").contains("Expected scalar or vector type as Result Type: Select")
    );
    let text = shader("", "%x = OpSelect %u32vec2 %true %u32vec2_01 %u32vec2_01");
    assert!(
        ours(&text, "spv1.3")
            .contains("Expected vector sizes of Result Type and the condition to be equal")
    );
}

#[test]
fn conversion() {
    check_table(
        r#"
%x = OpConvertFToU %u32 %f32_0; %y = OpConvertFToS %s32vec2 %f32vec2_01 =>
%x = OpConvertFToU %s32 %f32_0 => Expected unsigned int scalar or vector type as Result Type: ConvertFToU
%x = OpConvertFToS %u32 %u32_0 => Expected input to be float scalar or vector: ConvertFToS
%x = OpConvertFToS %u32 %f32vec2_01 => Expected input to have the same dimension as Result Type: ConvertFToS
%x = OpConvertSToF %u32 %u32_0 => Expected float scalar or vector type as Result Type: ConvertSToF
%x = OpConvertUToF %f32 %f32_0 => Expected input to be int scalar or vector: ConvertUToF
%x = OpUConvert %u64 %u32_0; %y = OpSConvert %s32 %s64_0 =>
%x = OpUConvert %s64 %u32_0 => Expected unsigned int scalar or vector type as Result Type: UConvert
%x = OpSConvert %s32 %u32_0 => Expected input to have different bit width from Result Type: SConvert
%x = OpFConvert %f64 %f32_0 =>
%x = OpFConvert %f32 %f32_0 => Expected component type of Value to be different from component type of Result Type: FConvert
%x = OpQuantizeToF16 %f32 %f32_0 =>
%x = OpQuantizeToF16 %f64 %f64_0 => Expected 32-bit float scalar or vector type as Result Type: QuantizeToF16
%x = OpQuantizeToF16 %f32vec2 %f32_0 => Expected input type to be equal to Result Type: QuantizeToF16
%x = OpBitcast %f32 %u32_0; %y = OpBitcast %u64 %u32vec2_01 =>
%x = OpBitcast %bool %u32_0 => Expected Result Type to be a pointer or int or float vector or scalar type: Bitcast
%x = OpBitcast %u32 %true => Expected input to be a pointer or int or float vector or scalar: Bitcast
%x = OpBitcast %u64 %u32_0 => Expected input to have the same total bit width as Result Type: Bitcast
"#,
    );
}

#[test]
fn conversion_kernel_pointers() {
    let text = "OpCapability Addresses\nOpCapability Kernel\nOpCapability Int64\nOpCapability GenericPointer\n\
        OpMemoryModel Physical64 OpenCL\nOpEntryPoint Kernel %main \"main\"\n\
        %void = OpTypeVoid\n%func = OpTypeFunction %void\n%u32 = OpTypeInt 32 0\n%u64 = OpTypeInt 64 0\n\
        %f32 = OpTypeFloat 32\n%fptr = OpTypePointer Function %u32\n%wptr = OpTypePointer Workgroup %u32\n\
        %gptr = OpTypePointer Generic %u32\n%gfptr = OpTypePointer Generic %f32\n\
        %u64_0 = OpConstant %u64 0\n%f32_0 = OpConstant %f32 0\n\
        %main = OpFunction %void None %func\n%entry = OpLabel\n%var = OpVariable %fptr Function\n";
    check_lines(
        &|body| format!("{text}{body}\nOpReturn\nOpFunctionEnd\n"),
        "spv1.6",
        r#"
%x = OpConvertPtrToU %u64 %var; %y = OpConvertUToPtr %fptr %u64_0; %z = OpPtrCastToGeneric %gptr %var; %w = OpGenericCastToPtr %fptr %z; %v = OpGenericCastToPtrExplicit %fptr %z Function =>
%x = OpConvertPtrToU %fptr %var => Expected unsigned int scalar type as Result Type: ConvertPtrToU
%x = OpConvertPtrToU %u64 %u64_0 => Expected input to be a pointer: ConvertPtrToU
%x = OpConvertUToPtr %u64 %u64_0 => Expected Result Type to be a pointer: ConvertUToPtr
%x = OpConvertUToPtr %fptr %f32_0 => Expected int scalar as input: ConvertUToPtr
%x = OpPtrCastToGeneric %u64 %var => Expected Result Type to be a pointer: PtrCastToGeneric
%x = OpPtrCastToGeneric %wptr %var => Expected Result Type to have storage class Generic: PtrCastToGeneric
%x = OpPtrCastToGeneric %gptr %u64_0 => Expected input to be a pointer: PtrCastToGeneric
%x = OpPtrCastToGeneric %gfptr %var => Expected input and Result Type to point to the same type: PtrCastToGeneric
%x = OpGenericCastToPtr %gptr %var => Expected Result Type to have storage class Workgroup, CrossWorkgroup or Function: GenericCastToPtr
%x = OpGenericCastToPtr %fptr %var => Expected input to have storage class Generic: GenericCastToPtr
%x = OpGenericCastToPtrExplicit %fptr %var Workgroup => Expected Result Type to be of target storage class: GenericCastToPtrExplicit
%x = OpBitcast %f32 %var => In SPIR-V 1.5 or later (or with SPV_KHR_physical_storage_buffer), pointer can only be converted to another pointer, int scalar or 32-bit int vector: Bitcast
%x = OpBitcast %fptr %f32_0 => In SPIR-V 1.5 or later (or with SPV_KHR_physical_storage_buffer), expected input to be a pointer, int scalar or 32-bit int vector if Result Type is pointer: Bitcast
"#,
    );
    let module = format!("{text}%x = OpBitcast %f32 %var\nOpReturn\nOpFunctionEnd\n");
    assert_eq!(
        message(&module, "spv1.4"),
        "In SPIR-V 1.4 or earlier (and without SPV_KHR_physical_storage_buffer), pointer can only be converted to another pointer or int scalar: Bitcast"
    );
}

#[test]
fn conversion_pointer_addressing() {
    let module = |physical: bool, body: &str| {
        let (caps, addressing, pointer) = if physical {
            (
                "OpCapability PhysicalStorageBufferAddresses\n",
                "PhysicalStorageBuffer64",
                "%pptr = OpTypePointer PhysicalStorageBuffer %u32\n",
            )
        } else {
            ("OpCapability Addresses\n", "Logical", "")
        };
        format!(
            "OpCapability Shader\nOpCapability Int64\n{caps}OpMemoryModel {addressing} GLSL450\n\
             OpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 1 1 1\n\
             %void = OpTypeVoid\n%func = OpTypeFunction %void\n%u32 = OpTypeInt 32 0\n\
             %u64 = OpTypeInt 64 0\n%fptr = OpTypePointer Function %u32\n{pointer}\
             %u32_0 = OpConstant %u32 0\n%u64_0 = OpConstant %u64 0\n\
             %main = OpFunction %void None %func\n%entry = OpLabel\n{body}\nOpReturn\nOpFunctionEnd\n"
        )
    };
    let logical = module(false, "%x = OpConvertUToPtr %fptr %u64_0");
    assert_eq!(
        message(&logical, "spv1.6"),
        "Logical addressing not supported: ConvertUToPtr"
    );
    let class = module(true, "%x = OpConvertUToPtr %fptr %u64_0");
    assert_eq!(
        message(&class, "spv1.6"),
        "Pointer storage class must be PhysicalStorageBuffer: ConvertUToPtr"
    );
    let good = module(
        true,
        "%x = OpConvertUToPtr %pptr %u64_0\n%y = OpConvertPtrToU %u64 %x",
    );
    assert_eq!(message(&good, "vulkan1.2"), "");
    let narrow = module(true, "%x = OpConvertUToPtr %pptr %u32_0");
    assert_eq!(message(&narrow, "spv1.6"), "");
    assert_eq!(
        message(&narrow, "vulkan1.2"),
        "[VUID-StandaloneSpirv-PhysicalStorageBuffer64-04710] PhysicalStorageBuffer64 \
         addressing mode requires the input integer to have a 64-bit width for Vulkan environment."
    );
}

#[test]
fn composites() {
    check_table(
        r#"
%x = OpVectorExtractDynamic %f32 %f32vec2_01 %s32_0 =>
%x = OpVectorExtractDynamic %f32vec2 %f32vec2_01 %u32_0 => Expected Result Type to be a scalar type
%x = OpVectorExtractDynamic %f32 %f32_0 %u32_0 => Expected Vector type to be OpTypeVector
%x = OpVectorExtractDynamic %u32 %f32vec2_01 %u32_0 => Expected Vector component type to be equal to Result Type
%x = OpVectorExtractDynamic %f32 %f32vec2_01 %f32_0 => Expected Index to be int scalar
%x = OpVectorInsertDynamic %f32vec2 %f32vec2_01 %f32_1 %u32_0 =>
%x = OpVectorInsertDynamic %f32 %f32vec2_01 %f32_1 %u32_0 => Expected Result Type to be OpTypeVector
%x = OpVectorInsertDynamic %f32vec3 %f32vec2_01 %f32_1 %u32_0 => Expected Vector type to be equal to Result Type
%x = OpVectorInsertDynamic %f32vec2 %f32vec2_01 %u32_1 %u32_0 => Expected Component type to be equal to Result Type component type
%x = OpVectorInsertDynamic %f32vec2 %f32vec2_01 %f32_1 %true => Expected Index to be int scalar
%x = OpCompositeConstruct %f32vec4 %f32vec2_01 %f32_0 %f32_1; %y = OpCompositeConstruct %f32mat22 %f32vec2_01 %f32vec2_01; %z = OpCompositeConstruct %arr_u32_2 %u32_0 %u32_1; %w = OpCompositeConstruct %struct_u32_s32 %u32_0 %s32_1 =>
%x = OpCompositeConstruct %f32vec2 %f32vec2_01 => Expected number of constituents to be at least 2
%x = OpCompositeConstruct %f32vec2 %f32_0 %u32_1 => Expected Constituents to be scalars or vectors of the same type as Result Type components
%x = OpCompositeConstruct %f32vec3 %f32vec2_01 %f32vec2_01 => Expected total number of given components to be equal to the size of Result Type vector
%x = OpCompositeConstruct %f32mat22 %f32vec2_01 => Expected total number of Constituents to be equal to the number of columns of Result Type matrix
%x = OpCompositeConstruct %f32mat22 %f32vec2_01 %f32vec3_011 => Expected Constituent type to be equal to the column type Result Type matrix
%x = OpCompositeConstruct %arr_u32_3 %u32_0 %u32_1 => Expected total number of Constituents to be equal to the number of elements of Result Type array
%x = OpCompositeConstruct %arr_u32_2 %u32_0 %s32_1 => Expected Constituent type to be equal to the column type Result Type array
%x = OpCompositeConstruct %struct_u32_s32 %u32_0 => Expected total number of Constituents to be equal to the number of members of Result Type struct
%x = OpCompositeConstruct %struct_u32_s32 %u32_0 %u32_1 => Expected Constituent type to be equal to the corresponding member type of Result Type struct
%x = OpCompositeConstruct %u32 %u32_0 %u32_1 => Expected Result Type to be a composite type
%x = OpCompositeExtract %u32 %struct_arr_c 0 1; %y = OpCompositeExtract %f32 %f32mat22_1 1 0 =>
%x = OpCompositeExtract %u32 %struct_arr_c => Expected at least one index to OpCompositeExtract, zero found
%x = OpCompositeExtract %u32 %struct_arr_c 0 2 => Array access is out of bounds, array size is 2, but access index is 2
%x = OpCompositeExtract %u32 %struct_arr_c 1 => Index is out of bounds, can not find index 1 in the structure <id> '37'. This structure has 1 members. Largest valid index is 0.
%x = OpCompositeExtract %f32 %f32mat22_1 2 0 => Matrix access is out of bounds, matrix has 2 columns, but access index is 2
%x = OpCompositeExtract %f32 %f32mat22_1 1 5 => Vector access is out of bounds, vector size is 2, but access index is 5
%x = OpCompositeExtract %f32 %f32mat22_1 1 0 0 => Reached non-composite type while indexes still remain to be traversed.
%x = OpCompositeExtract %f32 %struct_arr_c 0 1 => Result type (OpTypeFloat) does not match the type that results from indexing into the composite (OpTypeInt).
%x = OpCompositeInsert %struct_arr %u32_1 %struct_arr_c 0 1 =>
%x = OpCompositeInsert %struct_arr2 %u32_1 %struct_arr_c 0 1 => The Result Type must be the same as Composite type in OpCompositeInsert yielding Result Id 38.
%x = OpCompositeInsert %struct_arr %f32_1 %struct_arr_c 0 1 => The Object type (OpTypeFloat) does not match the type that results from indexing into the Composite (OpTypeInt).
%x = OpCopyObject %u32 %u32_0 =>
%x = OpCopyObject %s32 %u32_0 => Expected Result Type and Operand type to be the same
%x = OpTranspose %f32mat32 %f32mat23_1 =>
%x = OpTranspose %f32vec2 %f32mat22_1 => Expected Result Type to be a matrix type
%x = OpTranspose %f32mat22 %f32vec2_01 => Expected Matrix to be of type OpTypeMatrix
%x = OpTranspose %f64mat22 %f32mat22_1 => Expected component types of Matrix and Result Type to be identical
%x = OpTranspose %f32mat23 %f32mat23_1 => Expected number of columns and the column size of Matrix to be the reverse of those of Result Type
%x = OpVectorShuffle %f32vec3 %f32vec2_01 %f32vec4_0111 0 5 0xFFFFFFFF =>
%x = OpVectorShuffle %f32 %f32vec2_01 %f32vec2_01 0 => The Result Type of OpVectorShuffle must be OpTypeVector. Found OpTypeFloat.
%x = OpVectorShuffle %f32vec3 %f32vec2_01 %f32vec2_01 0 1 => OpVectorShuffle component literals count does not match Result Type <id> '14[%v3float]'s vector component count.
%x = OpVectorShuffle %f32vec2 %f32_0 %f32vec2_01 0 1 => The type of Vector 1 must be OpTypeVector.
%x = OpVectorShuffle %f32vec2 %f32vec2_01 %f32_0 0 1 => The type of Vector 2 must be OpTypeVector.
%x = OpVectorShuffle %f32vec2 %u32vec2_01 %f32vec2_01 0 1 => The Component Type of Vector 1 must be the same as ResultType.
%x = OpVectorShuffle %f32vec2 %f32vec2_01 %u32vec2_01 0 1 => The Component Type of Vector 2 must be the same as ResultType.
%x = OpVectorShuffle %f32vec2 %f32vec2_01 %f32vec2_01 0 4 => Component index 4 is out of bounds for combined (Vector1 + Vector2) size of 4.
"#,
    );
}

#[test]
fn copy_logical() {
    let text = shader("", "%x = OpCopyLogical %struct_u32_u32 %struct_u32_u32_c");
    assert!(message(&text, "spv1.4").starts_with("Result Type must not equal the Operand type"));
    let text = shader("", "%x = OpCopyLogical %struct_arr2 %struct_arr_c");
    assert_eq!(
        message(&text, "spv1.4"),
        "Result Type does not logically match the Operand type"
    );
}

#[test]
fn small_types_without_capabilities() {
    let text = "OpCapability Shader\nOpCapability StorageBuffer16BitAccess\n\
        OpExtension \"SPV_KHR_16bit_storage\"\nOpMemoryModel Logical GLSL450\n\
        OpEntryPoint GLCompute %main \"main\" %var\nOpExecutionMode %main LocalSize 1 1 1\n\
        OpDecorate %block Block\nOpMemberDecorate %block 0 Offset 0\n\
        OpDecorate %var DescriptorSet 0\nOpDecorate %var Binding 0\n\
        %void = OpTypeVoid\n%func = OpTypeFunction %void\n%f16 = OpTypeFloat 16\n\
        %f32 = OpTypeFloat 32\n%u32 = OpTypeInt 32 0\n%v2f16 = OpTypeVector %f16 2\n\
        %block = OpTypeStruct %v2f16\n%ptr = OpTypePointer StorageBuffer %block\n\
        %pv = OpTypePointer StorageBuffer %v2f16\n%var = OpVariable %ptr StorageBuffer\n\
        %u32_0 = OpConstant %u32 0\n\
        %main = OpFunction %void None %func\n%entry = OpLabel\n\
        %ac = OpAccessChain %pv %var %u32_0\n%v = OpLoad %v2f16 %ac\n";
    check_lines(
        &|body| format!("{text}{body}\nOpReturn\nOpFunctionEnd\n"),
        "spv1.6",
        r#"
%x = OpCompositeExtract %f16 %v 0 => Cannot extract from a composite of 8- or 16-bit types
%x = OpVectorShuffle %v2f16 %v %v 0 1 => Cannot shuffle a vector of 8- or 16-bit types
%x = OpVectorExtractDynamic %f16 %v %u32_0 => Cannot extract from a vector of 8- or 16-bit types
%x = OpCopyObject %v2f16 %v =>
%x = OpFConvert %f32 %v => Expected input to have the same dimension as Result Type: FConvert
%x = OpBitcast %u32 %v => 8- or 16-bit types can only be used with width-only conversions
"#,
    );
}
