//! SPIRV-Tools 2025.5's own classes of opcodes and extended sets, which its validator
//! and optimizer decide by: which opcodes make types and constants (its lists, which
//! are not the grammar's classes), which end blocks, which operands may refer forward,
//! which instructions may or must take typed operands, and what kind of set an import
//! names. They are kept as it has them (`source/opcode.cpp`, `source/operand.cpp`,
//! `source/ext_inst.cpp`, `source/val/validate_id.cpp`), in this one place, for the
//! validator and the editing passes alike.

// The validator and the editing passes each use a part.
#![cfg_attr(not(all(feature = "validate", feature = "edit")), allow(dead_code))]

use crate::spv::Opcode as O;

/// Whether an opcode's result is a type, by SPIRV-Tools 2025.5's own list
/// (`spvOpcodeGeneratesType`), which decides its checks and its parser's messages. It is
/// not the grammar's `Type-Declaration` class: `OpTypeForwardPointer` and a few INTEL
/// types (`OpTypeStructContinuedINTEL`, `OpTypeBufferSurfaceINTEL`, the AVC and VME
/// types) are not in it.
///
pub fn generates_type(op: O) -> bool {
    matches!(
        op,
        O::TypeVoid
            | O::TypeBool
            | O::TypeInt
            | O::TypeFloat
            | O::TypeVector
            | O::TypeMatrix
            | O::TypeImage
            | O::TypeSampler
            | O::TypeSampledImage
            | O::TypeArray
            | O::TypeRuntimeArray
            | O::TypeStruct
            | O::TypeOpaque
            | O::TypePointer
            | O::TypeFunction
            | O::TypeEvent
            | O::TypeDeviceEvent
            | O::TypeReserveId
            | O::TypeQueue
            | O::TypePipe
            | O::TypePipeStorage
            | O::TypeNamedBarrier
            | O::TypeAccelerationStructureNV
            | O::TypeCooperativeMatrixNV
            | O::TypeCooperativeMatrixKHR
            | O::TypeCooperativeVectorNV
            | O::TypeRayQueryKHR
            | O::TypeHitObjectNV
            | O::TypeHitObjectEXT
            | O::TypeUntypedPointerKHR
            | O::TypeNodePayloadArrayAMDX
            | O::TypeTensorLayoutNV
            | O::TypeTensorViewNV
            | O::TypeTensorARM
            | O::TypeTaskSequenceINTEL
            | O::TypeGraphARM
    )
}

/// `spvOpcodeIsConstant`.
pub fn is_constant(op: O) -> bool {
    matches!(
        op,
        O::ConstantTrue
            | O::ConstantFalse
            | O::Constant
            | O::ConstantComposite
            | O::ConstantCompositeReplicateEXT
            | O::ConstantSampler
            | O::ConstantNull
            | O::ConstantFunctionPointerINTEL
            | O::ConstantStringAMDX
            | O::SpecConstantTrue
            | O::SpecConstantFalse
            | O::SpecConstant
            | O::SpecConstantComposite
            | O::SpecConstantCompositeReplicateEXT
            | O::SpecConstantOp
            | O::SpecConstantStringAMDX
            | O::GraphConstantARM
            | O::AsmTargetINTEL
            | O::AsmINTEL
            | O::SpecConstantArchitectureINTEL
            | O::SpecConstantTargetINTEL
            | O::SpecConstantCapabilitiesINTEL
    )
}

/// `spvOpcodeIsSpecConstant`.
pub fn is_spec_constant(op: O) -> bool {
    matches!(
        op,
        O::SpecConstantTrue
            | O::SpecConstantFalse
            | O::SpecConstant
            | O::SpecConstantComposite
            | O::SpecConstantCompositeReplicateEXT
            | O::SpecConstantOp
            | O::SpecConstantArchitectureINTEL
            | O::SpecConstantTargetINTEL
            | O::SpecConstantCapabilitiesINTEL
    )
}

/// `spvOpcodeIsDebug`.
pub(crate) fn is_debug(op: O) -> bool {
    matches!(
        op,
        O::Name
            | O::MemberName
            | O::Source
            | O::SourceContinued
            | O::SourceExtension
            | O::String
            | O::Line
            | O::NoLine
            | O::ModuleProcessed
    )
}

/// `spvOpcodeIsDecoration`.
pub fn is_decoration(op: O) -> bool {
    matches!(
        op,
        O::Decorate
            | O::DecorateId
            | O::MemberDecorate
            | O::GroupDecorate
            | O::GroupMemberDecorate
            | O::DecorateString
            | O::MemberDecorateString
    )
}

/// `spvOpcodeIsBranch`.
pub fn is_branch(op: O) -> bool {
    matches!(op, O::Branch | O::BranchConditional | O::Switch)
}

/// `spvOpcodeIsBlockTerminator`: branches, returns and aborts.
pub fn is_block_terminator(op: O) -> bool {
    is_branch(op)
        || matches!(
            op,
            O::Return
                | O::ReturnValue
                | O::Kill
                | O::Unreachable
                | O::TerminateInvocation
                | O::TerminateRayKHR
                | O::IgnoreIntersectionKHR
                | O::EmitMeshTasksEXT
        )
}

/// `spvOpcodeGeneratesUntypedPointer`.
fn generates_untyped_pointer(op: O) -> bool {
    matches!(
        op,
        O::UntypedVariableKHR
            | O::UntypedAccessChainKHR
            | O::UntypedInBoundsAccessChainKHR
            | O::UntypedPtrAccessChainKHR
            | O::UntypedInBoundsPtrAccessChainKHR
    )
}

/// Whether operand `index` (counted over every parsed operand, result type and result
/// id included) of an instruction may name an id defined later
/// (`spvOperandCanBeForwardDeclaredFunction`).
pub(crate) fn may_refer_forward(op: O, index: usize) -> bool {
    if generates_type(op) {
        // Types may refer to forward pointers.
        return true;
    }
    match op {
        O::ExecutionMode
        | O::ExecutionModeId
        | O::EntryPoint
        | O::Name
        | O::MemberName
        | O::SelectionMerge
        | O::Decorate
        | O::MemberDecorate
        | O::DecorateId
        | O::DecorateString
        | O::MemberDecorateString
        | O::Branch
        | O::LoopMerge
        | O::ConditionalEntryPointINTEL
        | O::ConditionalCapabilityINTEL
        | O::ConditionalExtensionINTEL => true,
        O::GroupDecorate | O::GroupMemberDecorate | O::BranchConditional | O::Switch => index != 0,
        O::FunctionCall => index == 2,
        O::Phi => index > 1,
        O::EnqueueKernel => index == 8,
        O::GetKernelNDrangeSubGroupCount | O::GetKernelNDrangeMaxSubGroupSize => index == 3,
        O::GetKernelWorkGroupSize | O::GetKernelPreferredWorkGroupSizeMultiple => index == 2,
        O::TypeForwardPointer => index == 0,
        O::TypeArray => index == 1,
        O::CooperativeMatrixPerElementOpNV => index == 3,
        O::CooperativeMatrixReduceNV => index == 4,
        O::CooperativeMatrixLoadTensorNV => index > 6,
        O::GraphEntryPointARM => index == 0,
        _ => false,
    }
}

/// The kind of extended set an `OpExtInstImport` name selects, as SPIRV-Tools 2025.5
/// tells them apart (`spv_ext_inst_type_t`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SetKind {
    /// `DebugInfo`.
    DebugInfo,
    /// `OpenCL.DebugInfo.100`.
    OpenClDebugInfo100,
    /// `NonSemantic.Shader.DebugInfo.100`.
    ShaderDebugInfo100,
    /// Another `NonSemantic.` set (ClspvReflection, VkspReflection and unknown ones).
    NonSemantic,
    /// Any other set (GLSL.std.450, OpenCL.std, the AMD sets, TOSA, Arm).
    Semantic,
}

impl SetKind {
    /// The kind an import name selects.
    pub fn of(name: &[u8]) -> SetKind {
        match name {
            b"DebugInfo" => SetKind::DebugInfo,
            b"OpenCL.DebugInfo.100" => SetKind::OpenClDebugInfo100,
            b"NonSemantic.Shader.DebugInfo.100" => SetKind::ShaderDebugInfo100,
            n if n.starts_with(b"NonSemantic.") => SetKind::NonSemantic,
            _ => SetKind::Semantic,
        }
    }

    /// `spvExtInstIsNonSemantic`.
    pub fn is_non_semantic(self) -> bool {
        matches!(self, SetKind::ShaderDebugInfo100 | SetKind::NonSemantic)
    }

    /// `spvExtInstIsDebugInfo`.
    pub fn is_debug_info(self) -> bool {
        matches!(
            self,
            SetKind::DebugInfo | SetKind::OpenClDebugInfo100 | SetKind::ShaderDebugInfo100
        )
    }

    /// Whether extended instruction `number` of a debug-info set belongs in a function
    /// body rather than among the globals: DebugScope (23), DebugNoScope (24),
    /// DebugDeclare (28) and DebugValue (29) in every debug-info set, and DebugLine
    /// (103), DebugNoLine (104) and DebugFunctionDefinition (101) in the shader one.
    pub fn is_local_debug_info(self, number: u32) -> bool {
        matches!(number, 23 | 24 | 28 | 29)
            || (self == SetKind::ShaderDebugInfo100 && matches!(number, 101 | 103 | 104))
    }

    /// Whether operand `index` of an extended instruction `number` of a debug-info set
    /// may refer forward (`spvDbgInfoExtOperandCanBeForwardDeclaredFunction`); `forward`
    /// is whether the instruction is `OpExtInstWithForwardRefsKHR`.
    pub(crate) fn debug_info_may_refer_forward(
        self,
        number: u32,
        index: usize,
        forward: bool,
    ) -> bool {
        match self {
            SetKind::ShaderDebugInfo100 => forward,
            // DebugFunction (20) and DebugTypeComposite (10).
            SetKind::OpenClDebugInfo100 => match number {
                20 => index == 13,
                10 => index >= 13,
                _ => false,
            },
            _ => match number {
                20 => index == 13,
                10 => index >= 12,
                _ => false,
            },
        }
    }
}

/// What spirv-val's id pass knows of an instruction that uses ids.
#[derive(Debug, Clone, Copy)]
pub(crate) struct UserFacts {
    pub(crate) opcode: O,
    /// An extended instruction of a debug-info set.
    pub(crate) debug_info: bool,
    /// An extended instruction of a non-semantic set.
    pub(crate) non_semantic: bool,
    /// For `OpSpecConstantOp`: the embedded opcode.
    pub(crate) embedded: Option<O>,
}

impl UserFacts {
    fn coop_matrix_length(&self) -> bool {
        self.opcode == O::SpecConstantOp
            && matches!(
                self.embedded,
                Some(O::CooperativeMatrixLengthNV | O::CooperativeMatrixLengthKHR)
            )
    }

    /// `InstructionCanHaveTypeOperand`.
    pub(crate) fn can_have_type_operand(&self) -> bool {
        let op = self.opcode;
        generates_type(op)
            || is_debug(op)
            || self.debug_info
            || self.non_semantic
            || is_decoration(op)
            || matches!(
                op,
                O::SizeOf
                    | O::CooperativeMatrixLengthNV
                    | O::CooperativeMatrixLengthKHR
                    | O::UntypedArrayLengthKHR
                    | O::Function
                    | O::AsmINTEL
            )
            || generates_untyped_pointer(op)
            || self.coop_matrix_length()
    }

    /// `InstructionRequiresTypeOperand`.
    pub(crate) fn requires_type_operand(&self) -> bool {
        let op = self.opcode;
        !(is_debug(op)
            || self.debug_info
            || self.non_semantic
            || is_decoration(op)
            || is_branch(op)
            || matches!(
                op,
                O::ExtInst
                    | O::ExtInstWithForwardRefsKHR
                    | O::ExtInstImport
                    | O::SelectionMerge
                    | O::LoopMerge
                    | O::Function
                    | O::SizeOf
                    | O::CooperativeMatrixLengthNV
                    | O::CooperativeMatrixLengthKHR
                    | O::Phi
                    | O::UntypedArrayLengthKHR
                    | O::AsmINTEL
            )
            || generates_untyped_pointer(op)
            || self.coop_matrix_length())
    }
}
