//! The faults of spirv-val's per-opcode result and operand type rules (its
//! arithmetics, composites, conversion, bitwise and logicals passes), and their
//! messages.
//!
//! Most of these messages are a fixed text followed by the opcode's name (`…: IAdd`),
//! some by an operand's index as well; those are [`OperationError::Rule`] and
//! [`OperationError::Operand`], the text named by a [`TypeRule`] or an
//! [`OperandRule`]. Fixed texts without the opcode are [`CompositeRule`]s; the
//! messages with other data have a variant each.

use super::error::{Namer, Out, opcode_name};
use crate::__private::Vec;
use crate::spv::Opcode;
use crate::types::Id;

/// Declares a rule enum whose variants each stand for one of spirv-val's fixed texts,
/// documented by that text, with `text()` giving it.
macro_rules! rules {
    ($(#[$meta:meta])* $name:ident { $($variant:ident => $text:literal,)* }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum $name {
            $(#[doc = $text] $variant,)*
        }

        impl $name {
            /// spirv-val's text for the rule.
            pub fn text(self) -> &'static str {
                match self {
                    $(Self::$variant => $text,)*
                }
            }
        }
    };
}

rules! {
    /// A rule whose message is its text, a colon and the opcode's name.
    TypeRule {
        FloatingResult => "Expected floating scalar or vector type as Result Type",
        UnsignedResult => "Expected unsigned int scalar or vector type as Result Type",
        IntResult => "Expected int scalar or vector type as Result Type",
        FloatScalarResult => "Expected float scalar type as Result Type",
        DotComponentCount => "Expected operands to have the same number of components",
        FloatVectorResult => "Expected float vector type as Result Type",
        VectorIsResult => "Expected vector operand type to be equal to Result Type",
        ScalarIsVectorComponent => "Expected scalar operand type to be equal to the component type of the vector operand",
        FloatMatrixResult => "Expected float matrix type as Result Type",
        MatrixIsResult => "Expected matrix operand type to be equal to Result Type",
        ScalarIsMatrixComponent => "Expected scalar operand type to be equal to the component type of the matrix operand",
        FloatVectorLeft => "Expected float vector type as left operand",
        ResultAndVectorComponents => "Expected component types of Result Type and vector to be equal",
        FloatMatrixRight => "Expected float matrix type as right operand",
        ResultAndMatrixComponents => "Expected component types of Result Type and matrix to be equal",
        ColumnsAreResultSize => "Expected number of columns of the matrix to be equal to Result Type vector size",
        RowsAreVectorSize => "Expected number of rows of the matrix to be equal to the vector operand size",
        FloatMatrixLeft => "Expected float matrix type as left operand",
        ColumnIsResult => "Expected column type of the matrix to be equal to Result Type",
        FloatVectorRight => "Expected float vector type as right operand",
        OperandComponents => "Expected component types of the operands to be equal",
        ColumnsAreVectorSize => "Expected number of columns of the matrix to be equal to the vector size",
        ResultAndLeftColumns => "Expected column types of Result Type and left matrix to be equal",
        ResultAndRightComponents => "Expected component types of Result Type and right matrix to be equal",
        ResultAndRightColumnCount => "Expected number of columns of Result Type and right matrix to be equal",
        LeftColumnsRightRows => "Expected number of columns of left matrix and number of rows of right matrix to be equal",
        LeftIsResultColumn => "Expected column type of Result Type to be equal to the type of the left operand",
        ColumnsAreRightSize => "Expected number of columns of the matrix to be equal to the vector size of the right operand",
        StructResult => "Expected a struct as Result Type",
        StructTwoMembers => "Expected Result Type struct to have two members",
        MembersInt => "Expected Result Type struct member types to be integer scalar or vector",
        MembersUnsigned => "Expected Result Type struct member types to be unsigned integer scalar or vector",
        MembersIdentical => "Expected Result Type struct member types to be identical",
        OperandsAreMemberType => "Expected both operands to be of Result Type member type",
        BaseInt => "Expected Base to be int scalar or vector",
        BaseDimension => "Expected Base to have the same dimension as Result Type",
        BaseBitWidth => "Expected Base to have the same bit width as Result Type",
        ShiftInt => "Expected Shift to be int scalar or vector",
        ShiftDimension => "Expected Shift to have the same dimension as Result Type",
        BaseOperandInt => "Expected int scalar or vector type for Base operand",
        BaseIsResult => "Expected Base Type to be equal to Result Type",
        InsertIsResult => "Expected Insert Type to be equal to Result Type",
        OffsetIntScalar => "Expected Offset Type to be int scalar",
        CountIntScalar => "Expected Count Type to be int scalar",
        BaseDimensionIsResult => "Expected Base dimension to be equal to Result Type dimension",
        BoolScalarResult => "Expected bool scalar type as Result Type",
        OperandBoolVector => "Expected operand to be vector bool",
        BoolResult => "Expected bool scalar or vector type as Result Type",
        OperandFloat => "Expected operand to be scalar or vector float",
        OperandSize => "Expected vector sizes of Result Type and the operand to be equal",
        OperandsFloat => "Expected operands to be scalar or vector float",
        OperandsSize => "Expected vector sizes of Result Type and the operands to be equal",
        LeftRightSameType => "Expected left and right operands to have the same type",
        BothOperandsResult => "Expected both operands to be of Result Type",
        OperandIsResult => "Expected operand to be of Result Type",
        SelectScalarOrVector => "Expected scalar or vector type as Result Type",
        SelectScalarOrComposite => "Expected scalar or composite type as Result Type",
        ConditionBool => "Expected bool scalar or vector type as condition",
        ConditionSize => "Expected vector sizes of Result Type and the condition to be equal",
        BothObjectsResult => "Expected both objects to be of Result Type",
        OperandsInt => "Expected operands to be scalar or vector int",
        OperandsSameWidth => "Expected both operands to have the same component bit width",
        InputFloat => "Expected input to be float scalar or vector",
        InputDimension => "Expected input to have the same dimension as Result Type",
        FloatResult => "Expected float scalar or vector type as Result Type",
        InputInt => "Expected input to be int scalar or vector",
        InputWidthDiffers => "Expected input to have different bit width from Result Type",
        ComponentDiffers => "Expected component type of Value to be different from component type of Result Type",
        Float32Result => "Expected 32-bit float scalar or vector type as Result Type",
        InputIsResult => "Expected input type to be equal to Result Type",
        UnsignedScalarResult => "Expected unsigned int scalar type as Result Type",
        InputPointer => "Expected input to be a pointer",
        LogicalAddressing => "Logical addressing not supported",
        PhysicalStorageClass => "Pointer storage class must be PhysicalStorageBuffer",
        IntInput => "Expected int scalar or vector as input",
        PointerResult => "Expected Result Type to be a pointer",
        IntScalarInput => "Expected int scalar as input",
        GenericResult => "Expected Result Type to have storage class Generic",
        InputStorageClass => "Expected input to have storage class Workgroup, CrossWorkgroup or Function",
        SamePointee => "Expected input and Result Type to point to the same type",
        ResultStorageClass => "Expected Result Type to have storage class Workgroup, CrossWorkgroup or Function",
        GenericInput => "Expected input to have storage class Generic",
        ResultIsTarget => "Expected Result Type to be of target storage class",
        TargetStorageClass => "Expected target storage class to be Workgroup, CrossWorkgroup or Function",
        InputTyped => "Expected input to have a type",
        BitcastResult => "Expected Result Type to be a pointer or int or float vector or scalar type",
        BitcastInput => "Expected input to be a pointer or int or float vector or scalar",
        CooperativeVectorCast => "Cooperative vector can only be cast to another cooperative vector",
        CooperativeMatrixCast => "Cooperative matrix can only be cast to another cooperative matrix",
        PointerFromNewer => "In SPIR-V 1.5 or later (or with SPV_KHR_physical_storage_buffer), expected input to be a pointer, int scalar or 32-bit int vector if Result Type is pointer",
        PointerToNewer => "In SPIR-V 1.5 or later (or with SPV_KHR_physical_storage_buffer), pointer can only be converted to another pointer, int scalar or 32-bit int vector",
        PointerFromOlder => "In SPIR-V 1.4 or earlier (and without SPV_KHR_physical_storage_buffer), expected input to be a pointer or int scalar if Result Type is pointer",
        PointerToOlder => "In SPIR-V 1.4 or earlier (and without SPV_KHR_physical_storage_buffer), pointer can only be converted to another pointer or int scalar",
        TotalBitWidth => "Expected input to have the same total bit width as Result Type",
        AccelerationStructureResult => "Expected Result Type to be a Acceleration Structure",
        HandleInput => "Expected 64-bit uint scalar or 2-component 32-bit uint vector as input",
        CooperativeResult => "Expected cooperative matrix Result Type",
        CooperativeInput => "Expected cooperative matrix type for Matrix input",
        CooperativeComponents => "Result Type and Matrix component types mismatch",
        UseB => "Result Type must have UseB",
        MatrixA => "Expected cooperative matrix type as A Type",
        MatrixB => "Expected cooperative matrix type as B Type",
        MatrixC => "Expected cooperative matrix type as C Type",
        MatrixResult => "Expected cooperative matrix type as Result Type",
        UseA => "Cooperative matrix type must be A Type",
        UseBOperand => "Cooperative matrix type must be B Type",
        UseAccumulator => "Cooperative matrix type must be Accumulator Type",
        ScopesMatch => "Cooperative matrix scopes must match",
        MismatchM => "Cooperative matrix 'M' mismatch",
        MismatchN => "Cooperative matrix 'N' mismatch",
        MismatchK => "Cooperative matrix 'K' mismatch",
        ReduceResult => "Result Type must be a cooperative matrix type",
        ReduceMatrix => "Matrix must have a cooperative matrix type",
        ReduceComponents => "Result Type and Matrix type must have the same component type",
        ReduceScopes => "Result Type and Matrix type must have the same scope",
        ReduceResultUse => "Result Type must have UseAccumulator",
        ReduceMatrixUse => "Matrix type must have UseAccumulator",
        Reduce2x2RowColumn => "Reduce 2x2 must not be used with Row/Column",
        Reduce2x2Size => "For Reduce2x2, result rows/cols must be half of matrix rows/cols",
        ReduceRowSize => "For ReduceRow, result rows must match matrix rows",
        ReduceColumnSize => "For ReduceColumn, result cols must match matrix cols",
        CombineFunction => "CombineFunc must be a function",
        CombineParameters => "CombineFunc must have two parameters",
        CombineTypes => "CombineFunc return type and parameters must match matrix component type",
    }
}

rules! {
    /// A rule about one operand, whose message is its text, a colon, the opcode's
    /// name and `operand index N`.
    OperandRule {
        ArithmeticIsResult => "Expected arithmetic operands to be of Result Type",
        IntOperand => "Expected int scalar or vector type as operand",
        ArithmeticDimension => "Expected arithmetic operands to have the same dimension as Result Type",
        ArithmeticBitWidth => "Expected arithmetic operands to have the same bit width as Result Type",
        FloatVectorOperand => "Expected float vector as operand",
        ComponentIsResult => "Expected component type to be equal to Result Type",
        BitwiseInt => "Expected int scalar or vector as operand",
        BitwiseDimension => "Expected operands to have the same dimension as Result Type",
        BitwiseBitWidth => "Expected operands to have the same bit width as Result Type",
    }
}

rules! {
    /// A rule whose message is a fixed text.
    CompositeRule {
        NotComposite => "Expected Composite to be an object of composite type",
        NonCompositeReached => "Reached non-composite type while indexes still remain to be traversed.",
        ScalarResult => "Expected Result Type to be a scalar type",
        VectorIsVector => "Expected Vector type to be OpTypeVector",
        VectorComponentIsResult => "Expected Vector component type to be equal to Result Type",
        IndexIntScalar => "Expected Index to be int scalar",
        ExtractFromSmallVector => "Cannot extract from a vector of 8- or 16-bit types",
        VectorResult => "Expected Result Type to be OpTypeVector",
        VectorIsResult => "Expected Vector type to be equal to Result Type",
        ComponentIsResultComponent => "Expected Component type to be equal to Result Type component type",
        InsertIntoSmallVector => "Cannot insert into a vector of 8- or 16-bit types",
        TwoConstituents => "Expected number of constituents to be at least 2",
        ConstituentsScalarsOrVectors => "Expected Constituents to be scalars or vectors of the same type as Result Type components",
        ComponentCount => "Expected total number of given components to be equal to the size of Result Type vector",
        ColumnCount => "Expected total number of Constituents to be equal to the number of columns of Result Type matrix",
        ConstituentIsColumn => "Expected Constituent type to be equal to the column type Result Type matrix",
        ElementCount => "Expected total number of Constituents to be equal to the number of elements of Result Type array",
        ConstituentIsElement => "Expected Constituent type to be equal to the column type Result Type array",
        MemberCount => "Expected total number of Constituents to be equal to the number of members of Result Type struct",
        ConstituentIsMember => "Expected Constituent type to be equal to the corresponding member type of Result Type struct",
        CompositeResult => "Expected Result Type to be a composite type",
        OneConstituent => "Must be only one constituent",
        SingleConstituent => "Expected single constituent",
        ConstituentIsComponent => "Expected Constituent type to be equal to the component type",
        ConstructSmall => "Cannot create a composite containing 8- or 16-bit types",
        ExtractSmall => "Cannot extract from a composite of 8- or 16-bit types",
        InsertSmall => "Cannot insert into a composite of 8- or 16-bit types",
        CopyType => "Expected Result Type and Operand type to be the same",
        CopyVoid => "OpCopyObject cannot have void result type",
        MatrixResult => "Expected Result Type to be a matrix type",
        MatrixOperand => "Expected Matrix to be of type OpTypeMatrix",
        TransposeComponents => "Expected component types of Matrix and Result Type to be identical",
        TransposeShape => "Expected number of columns and the column size of Matrix to be the reverse of those of Result Type",
        TransposeSmall => "Cannot transpose matrices of 16-bit floats",
        Vector1Type => "The type of Vector 1 must be OpTypeVector.",
        Vector2Type => "The type of Vector 2 must be OpTypeVector.",
        Vector1Component => "The Component Type of Vector 1 must be the same as ResultType.",
        Vector2Component => "The Component Type of Vector 2 must be the same as ResultType.",
        ShuffleSmall => "Cannot shuffle a vector of 8- or 16-bit types",
        LogicalSameType => "Result Type must not equal the Operand type",
        LogicalMismatch => "Result Type does not logically match the Operand type",
        CopyLogicalSmall => "Cannot copy composites of 8- or 16-bit types",
        SelectPointers => "Using pointers with OpSelect requires capability VariablePointers or VariablePointersStorageBuffer",
        SelectImages => "Using image/sampler with OpSelect requires capability BindlessTextureNV",
        SmallConversion => "8- or 16-bit types can only be used with width-only conversions",
        CooperativeMatrixTypes => "Expected cooperative matrix types",
        MatrixScopes => "Expected scopes of Matrix and Result Type to be identical",
        MatrixRows => "Expected rows of Matrix type and Result Type to be identical",
        MatrixRowsSwapped => "Expected rows of Matrix type and Result Type to be swapped with columns",
        MatrixColumns => "Expected columns of Matrix type and Result Type to be identical",
        MatrixColumnsSwapped => "Expected columns of Matrix type and Result Type to be swapped with rows",
        MatrixUse => "Expected Use of Matrix type and Result Type to be identical",
        CooperativeVectorTypes => "Expected cooperative vector types",
        VectorComponents => "Expected number of components to be identical",
    }
}

rules! {
    /// A rule of the `SPV_QCOM_cooperative_matrix_conversion` instructions, whose
    /// message is `Opcode`, the opcode's name and its text.
    QcomRule {
        ResultMatrix => "requires the result type be OpTypeCooperativeMatrixKHR",
        InputArray => "requires the input operand be an OpTypeArray.",
        ResultScope => "requires the result type's scope be Subgroup.",
        ConstructElement => "requires ether the input element type is equal to the result element type or it is the unsigned 32-bit integer.",
        ConstructAType => "requires the result element type is one of 8-bit OpTypeInt signed/unsigned, 16- or 32-bit OpTypeFloat when result coopmat's use is MatrixAKHR",
        ConstructAColumns => "requires the columns of the result coopmat have the bit length of 256 when result coopmat's use is MatrixAKHR",
        ConstructALength => "requires the source array length be 8 if its elt type is 32-bit unsigned OpTypeInt and be the result's number of columns, otherwise when result coopmat's use is MatrixAKHR",
        ConstructBType => "requires the result element type is one of 8-bit OpTypeInt signed/unsigned, 16- or 32-bit OpTypeFloat when result coopmat's use is MatrixBKHR",
        ConstructBRows => "requires the rows of the result operand have the bit length of 256 when result coopmat's use is MatrixBKHR",
        ConstructBLength => "requires the source array length be 8 if its elt type is 32-bit unsigned OpTypeInt and be the result's number of rows, otherwise when result coopmat's use is MatrixBKHR",
        ConstructAccType => "requires the result element type is one of 32-bit OpTypeInt signed/unsigned, 16- or 32-bit OpTypeFloat when result coopmat's use is MatrixAccumulatorKHR",
        ConstructAccLength => "requires the source array length be a half of the number of columns of the resulting cooerative matrix if the matrix's componet type is 16-bit OpTypeFloat and be equal to the number of columns, otherwise, when result coopmat's use is MatrixAccumulatorKHR",
        ConstructUse => "requires the the resulting cooerative matrix's use be  one of MatrixAKHR (== 0), MatrixBKHR (== 1), and MatrixAccumulatorKHR (== 2)",
        SourceMatrix => "requires the source type be OpTypeCooperativeMatrixKHR",
        SourceScope => "requires the source type's scope be Subgroup.",
        ExtractAType => "requires the source element type be one of 8-bit OpTypeInt signed/unsigned, 16- or 32-bit OpTypeFloat when source coopmat's use is MatrixAKHR",
        ExtractAColumns => "requires the columns of the source coopmat have the bit length of 256 when source coopmat's use is MatrixAKHR",
        ExtractALength => "requires either the result element type be the same as the source cooperative matrix's component type and its length be the same as the number of columns of the matrix or the result element type be unsigned 32-bit OpTypeInt and the length be 8 when source coopmat's use is MatrixAKHR",
        ExtractBType => "requires the source element type be one of 8-bit OpTypeInt signed/unsigned, 16- or 32-bit OpTypeFloat when source coopmat's use is MatrixBKHR",
        ExtractBRows => "requires the rows of the source coopmat have the bit length of 256 when source coopmat's use is MatrixBKHR",
        ExtractBLength => "requires either the result element type be the same as the source cooperative matrix's component type and its length be the same as the number of rows of the matrix or the result element type be unsigned 32-bit OpTypeInt and the length be 8 when source coopmat's use is MatrixBKHR",
        ExtractAccType => "requires the source element type be one of 32-bit OpTypeInt signed/unsigned, 16- or 32-bit OpTypeFloat when source coopmat's use is MatrixAccumulatorKHR",
        ExtractAccLength => "requires either the result element type be the same as the source cooperative matrix's component type and its length be the same as the number of columns of the matrix or the result element type be unsigned 32-bit OpTypeInt and the length be the number of the columns of the matrix if its component type is 32-bit OpTypeFloat and be a half of the number of the columns of the matrix if its component type is 16-bit OpTypeFloat when source coopmat's use is MatrixAccumulatorKHR",
        ExtractUse => "requires the the source cooerative matrix's use be  one of MatrixAKHR (== 0), MatrixBKHR (== 1), and MatrixAccumulatorKHR (== 2)",
        Arrays => "requires OpTypeArray operands for the input and the result.",
        SubArrayElements => "requires the input and result element types match.",
        SubArrayElementType => "requires the element type be one of 32-bit OpTypeInt (signed/unsigned), 32-bit OpTypeFloat and 16-bit OpTypeFloat",
        SubArrayIndex => "requires the type of the start index operand be 32-bit OpTypeInt",
        CastSourceType => "requires the source element type be one of 32-bit OpTypeInt (signed/unsigned), 32-bit OpTypeFloat and 16-bit OpTypeFloat",
        CastResultType => "requires the result element type be one of 32-bit OpTypeInt (signed/unsigned), 32-bit OpTypeFloat and 16-bit OpTypeFloat",
        CastLengths => "requires source and result types be compatible for conversion.",
    }
}

/// A fault of spirv-val's result and operand type rules, with what it involves.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum OperationError {
    /// A rule whose message names the opcode.
    Rule {
        /// The rule.
        rule: TypeRule,
        /// The instruction's opcode.
        opcode: Opcode,
    },
    /// A rule about one operand, whose message names the opcode and the operand.
    Operand {
        /// The rule.
        rule: OperandRule,
        /// The instruction's opcode.
        opcode: Opcode,
        /// The operand's index, counting the result type and id as 0 and 1.
        index: usize,
    },
    /// A rule whose message is a fixed text.
    Composite(CompositeRule),
    /// A rule of the `SPV_QCOM_cooperative_matrix_conversion` instructions.
    Qcom {
        /// The rule.
        rule: QcomRule,
        /// The instruction's opcode.
        opcode: Opcode,
    },
    /// `OpDot` on `BFloat16` without `BFloat16DotProductKHR`.
    DotBfloat16 {
        /// The result type.
        result_type: Id,
    },
    /// A bit instruction's Base of another width than 32 under Vulkan.
    Base32 {
        /// The instruction's opcode.
        opcode: Opcode,
    },
    /// A pointer conversion under `PhysicalStorageBuffer64` with an integer of
    /// another width than 64 under Vulkan.
    PhysicalWidth {
        /// Whether the integer is the input (`OpConvertUToPtr`) rather than the
        /// result.
        input: bool,
    },
    /// `OpCompositeExtract` or `OpCompositeInsert` without indexes.
    NoIndexes {
        /// The instruction's opcode.
        opcode: Opcode,
    },
    /// `OpCompositeExtract` or `OpCompositeInsert` with more than 255 indexes.
    TooManyIndexes {
        /// The instruction's opcode.
        opcode: Opcode,
        /// The indexes given.
        count: usize,
    },
    /// An index past a vector's end.
    VectorIndex {
        /// The vector's size.
        size: u32,
        /// The index.
        index: u32,
    },
    /// An index past a matrix's last column.
    MatrixIndex {
        /// The matrix's columns.
        columns: u32,
        /// The index.
        index: u32,
    },
    /// An index past an array's end.
    ArrayIndex {
        /// The array's length.
        size: u64,
        /// The index.
        index: u32,
    },
    /// An index past a struct's last member.
    StructIndex {
        /// The index.
        index: u32,
        /// The struct type (printed as a bare number).
        id: Id,
        /// Its members.
        members: usize,
    },
    /// `OpCompositeExtract` whose result type is not the indexed member's.
    ExtractType {
        /// The result type's opcode.
        result: Opcode,
        /// The indexed member's type's opcode.
        member: Opcode,
    },
    /// `OpCompositeInsert` whose result type is not the composite's type.
    InsertResultType {
        /// The instruction's opcode.
        opcode: Opcode,
        /// The result type (printed as a bare number).
        result_type: Id,
    },
    /// `OpCompositeInsert` whose object is not of the indexed member's type.
    InsertObjectType {
        /// The object's type's opcode.
        object: Opcode,
        /// The indexed member's type's opcode.
        member: Opcode,
    },
    /// `OpVectorShuffle` whose result type is not a vector.
    ShuffleResult {
        /// The result type's opcode.
        found: Opcode,
    },
    /// `OpVectorShuffle` with as many components as its result type has.
    ShuffleCount {
        /// The result type.
        result_type: Id,
    },
    /// `OpVectorShuffle` with a component past both vectors.
    ShuffleIndex {
        /// The component.
        index: u32,
        /// Both vectors' sizes together.
        size: u32,
    },
}

impl OperationError {
    /// spirv-val's message.
    pub(super) fn write(&self, out: &mut dyn Out, names: &Namer<'_>) -> core::fmt::Result {
        use OperationError as E;
        match self {
            E::Rule { rule, opcode } => write!(out, "{}: {}", rule.text(), opcode_name(*opcode)),
            E::Operand {
                rule,
                opcode,
                index,
            } => write!(
                out,
                "{}: {} operand index {index}",
                rule.text(),
                opcode_name(*opcode)
            ),
            E::Composite(rule) => out.write_str(rule.text()),
            E::Qcom { rule, opcode } => {
                write!(out, "Opcode {} {}", opcode_name(*opcode), rule.text())
            }
            E::DotBfloat16 { result_type } => {
                out.write_str("OpDot Result Type <id> ")?;
                names.id(out, *result_type)?;
                out.write_str("requires BFloat16DotProductKHR be declared.")
            }
            E::Base32 { opcode } => write!(
                out,
                "[VUID-RuntimeSpirv-None-10824] Expected 32-bit int type for Base operand: {}\n\
                 This is allowed if you enable the maintenance9 feature (or use the \
                 --allow-vulkan-32-bit-bitwise command line flag)",
                opcode_name(*opcode)
            ),
            E::PhysicalWidth { input } => write!(
                out,
                "[VUID-StandaloneSpirv-PhysicalStorageBuffer64-04710] PhysicalStorageBuffer64 \
                 addressing mode requires the {} to have a 64-bit width for Vulkan environment.",
                if *input {
                    "input integer"
                } else {
                    "result integer type"
                }
            ),
            E::NoIndexes { opcode } => write!(
                out,
                "Expected at least one index to Op{}, zero found",
                opcode_name(*opcode)
            ),
            E::TooManyIndexes { opcode, count } => write!(
                out,
                "The number of indexes in Op{} may not exceed 255. Found {count} indexes.",
                opcode_name(*opcode)
            ),
            E::VectorIndex { size, index } => write!(
                out,
                "Vector access is out of bounds, vector size is {size}, but access index is {index}"
            ),
            E::MatrixIndex { columns, index } => write!(
                out,
                "Matrix access is out of bounds, matrix has {columns} columns, but access index is {index}"
            ),
            E::ArrayIndex { size, index } => write!(
                out,
                "Array access is out of bounds, array size is {size}, but access index is {index}"
            ),
            E::StructIndex { index, id, members } => write!(
                out,
                "Index is out of bounds, can not find index {index} in the structure <id> '{}'. \
                 This structure has {members} members. Largest valid index is {}.",
                id.0,
                members.wrapping_sub(1)
            ),
            E::ExtractType { result, member } => write!(
                out,
                "Result type (Op{}) does not match the type that results from indexing into the composite (Op{}).",
                opcode_name(*result),
                opcode_name(*member)
            ),
            E::InsertResultType {
                opcode,
                result_type,
            } => write!(
                out,
                "The Result Type must be the same as Composite type in Op{} yielding Result Id {}.",
                opcode_name(*opcode),
                result_type.0
            ),
            E::InsertObjectType { object, member } => write!(
                out,
                "The Object type (Op{}) does not match the type that results from indexing into the Composite (Op{}).",
                opcode_name(*object),
                opcode_name(*member)
            ),
            E::ShuffleResult { found } => write!(
                out,
                "The Result Type of OpVectorShuffle must be OpTypeVector. Found Op{}.",
                opcode_name(*found)
            ),
            E::ShuffleCount { result_type } => {
                out.write_str(
                    "OpVectorShuffle component literals count does not match Result Type <id> ",
                )?;
                names.id(out, *result_type)?;
                out.write_str("s vector component count.")
            }
            E::ShuffleIndex { index, size } => write!(
                out,
                "Component index {index} is out of bounds for combined (Vector1 + Vector2) size of {size}."
            ),
        }
    }

    /// The ids the message names, in order.
    pub(super) fn ids(&self) -> Vec<Id> {
        match self {
            OperationError::DotBfloat16 { result_type }
            | OperationError::ShuffleCount { result_type } => Vec::from([*result_type]),
            _ => Vec::new(),
        }
    }
}

/// Shorthand for the rule passes: a [`TypeRule`] fault of `opcode`.
pub(super) fn rule(rule: TypeRule, opcode: Opcode) -> super::Fault {
    super::ErrorKind::Operation(OperationError::Rule { rule, opcode }).into()
}

/// Shorthand for the rule passes: an [`OperandRule`] fault of `opcode`'s operand `index`.
pub(super) fn operand(rule: OperandRule, opcode: Opcode, index: usize) -> super::Fault {
    super::ErrorKind::Operation(OperationError::Operand {
        rule,
        opcode,
        index,
    })
    .into()
}

/// Shorthand for the rule passes: a [`CompositeRule`] fault.
pub(super) fn fixed(rule: CompositeRule) -> super::Fault {
    super::ErrorKind::Operation(OperationError::Composite(rule)).into()
}

/// Shorthand for the rule passes: any other fault.
pub(super) fn fault(e: OperationError) -> super::Fault {
    super::ErrorKind::Operation(e).into()
}
