//! spirv-val's text for the [`MemoryError`]s of access chains, array lengths,
//! raw access chains, pointer comparisons and cooperative matrices (the others are in `memory_text.rs`).

use super::error::{Namer, Out, opcode_name};
use super::memory_error::MemoryError;
use super::memory_text::vuid;
use crate::spv::Opcode;
use crate::types::Id;
use core::fmt;

/// spirv-val's message for the variants this file words.
pub(super) fn write(e: &MemoryError, out: &mut dyn Out, names: &Namer<'_>) -> fmt::Result {
    use MemoryError as E;
    let id = |out: &mut dyn Out, id: Id| names.id(out, id);
    match e {
        E::ChainResultType {
            opcode,
            id: i,
            untyped,
            found,
        } => {
            write!(out, "The Result Type of Op{} <id> ", opcode_name(*opcode))?;
            id(out, *i)?;
            let want = if *untyped {
                "OpTypeUntypedPointerKHR"
            } else {
                "OpTypePointer"
            };
            write!(out, " must be {want}. Found Op{}.", opcode_name(*found))
        }
        E::BaseTypeNotNonPointer => out.write_str("Base type must be a non-pointer type"),
        E::BlockArrayMismatch => out.write_str(
            "Both Base Type and Base must be Block or BufferBlock arrays or neither can be",
        ),
        E::BlockArrayDifferent => out.write_str(
            "If Base or Base Type is a Block or BufferBlock array, the other must also be the same array",
        ),
        E::BaseNotPointer { opcode, base } => {
            out.write_str("The Base <id> ")?;
            id(out, *base)?;
            write!(
                out,
                " in Op{} instruction must be a pointer.",
                opcode_name(*opcode)
            )
        }
        E::ChainStorageClass { opcode } => write!(
            out,
            "The result pointer storage class and base pointer storage class in Op{} do not match.",
            opcode_name(*opcode)
        ),
        E::TooManyIndexes {
            opcode,
            limit,
            found,
        } => write!(
            out,
            "The number of indexes in Op{} may not exceed {limit}. Found {found} indexes.",
            opcode_name(*opcode)
        ),
        E::IndexNotInt { opcode } => write!(
            out,
            "Indexes passed to Op{} must be of type integer.",
            opcode_name(*opcode)
        ),
        E::NegativeIndex { word } => {
            write!(out, "Index at word {word} may not have a negative value")
        }
        E::StructIndexNotConstant { opcode, index } => {
            write!(out, "The <id> passed to Op{} to index ", opcode_name(*opcode))?;
            id(out, *index)?;
            out.write_str(" into a structure must be an OpConstant.")
        }
        E::StructIndexOutOfBounds {
            index,
            opcode,
            value,
            structure,
            members,
        } => {
            out.write_str("Index ")?;
            id(out, *index)?;
            write!(
                out,
                " is out of bounds: Op{} cannot find index {value} into the structure <id> ",
                opcode_name(*opcode)
            )?;
            id(out, *structure)?;
            write!(
                out,
                ". This structure has {members} members. Largest valid index is {}.",
                members - 1
            )
        }
        E::IndexIntoNonComposite { opcode } => write!(
            out,
            "Op{} reached non-composite type while indexes still remain to be traversed.",
            opcode_name(*opcode)
        ),
        E::ChainResultMismatch {
            opcode,
            expected,
            found,
        } => write!(
            out,
            "Op{} result type (Op{}) does not match the type that results from indexing into the base <id> (Op{}).",
            opcode_name(*opcode),
            opcode_name(*expected),
            opcode_name(*found)
        ),
        E::ElementNotInt => out.write_str("Element must be an integer"),
        E::ElementIntoBlock => out.write_str(
            "Element must be 0 if the interpretation type is a Block- or BufferBlock-decorated structure",
        ),
        E::PtrChainArrayStride => out.write_str(
            "OpPtrAccessChain must have a Base whose type is decorated with ArrayStride",
        ),
        E::PtrChainWorkgroup { vulkan } => {
            vuid(out, *vulkan, "Base-07651")?;
            out.write_str(
                "OpPtrAccessChain Base operand pointing to Workgroup storage class must use VariablePointers capability",
            )
        }
        E::PtrChainStorageBuffer { vulkan } => {
            vuid(out, *vulkan, "Base-07652")?;
            out.write_str(
                "OpPtrAccessChain Base operand pointing to StorageBuffer storage class must use VariablePointers or VariablePointersStorageBuffer capability",
            )
        }
        E::PtrChainStorageClass { vulkan } => {
            vuid(out, *vulkan, "Base-07650")?;
            out.write_str(
                "OpPtrAccessChain Base operand must point to Workgroup, StorageBuffer, or PhysicalStorageBuffer storage class",
            )
        }
        E::ArrayLengthResultType { opcode, id: i } => {
            write!(out, "The Result Type of Op{} <id> ", opcode_name(*opcode))?;
            id(out, *i)?;
            out.write_str(" must be OpTypeInt with width 32 or 64 and signedness 0.")
        }
        E::ArrayLengthUntyped => out.write_str("Pointer must be an untyped pointer"),
        E::ArrayLengthNotStruct { opcode, id: i } => {
            write!(out, "The Structure's type in Op{} <id> ", opcode_name(*opcode))?;
            id(out, *i)?;
            out.write_str(" must be a pointer to an OpTypeStruct.")
        }
        E::ArrayLengthLastMember { opcode, id: i } => {
            write!(
                out,
                "The Structure's last member in Op{} <id> ",
                opcode_name(*opcode)
            )?;
            id(out, *i)?;
            out.write_str(" must be an OpTypeRuntimeArray.")
        }
        E::ArrayLengthMember { opcode, id: i } => {
            write!(out, "The array member in Op{} <id> ", opcode_name(*opcode))?;
            id(out, *i)?;
            out.write_str(" must be the last member of the struct.")
        }
        E::ArrayLengthUniformBlock { vulkan, opcode } => {
            vuid(out, *vulkan, "OpArrayLength-11805")?;
            write!(
                out,
                "Op{} must not be used on the OpTypeRuntimeArray inside a Uniform block",
                opcode_name(*opcode)
            )
        }
        E::PtrCompareLogical => out.write_str(
            "Instruction on logical pointers cannot be used without a variable pointers capability",
        ),
        E::PtrDiffResultType => out.write_str("Result Type must be an integer scalar"),
        E::PtrCompareResultType => out.write_str("Result Type must be OpTypeBool"),
        E::PtrOperandType => out.write_str("Operand type must be a pointer"),
        E::PtrOperandTypes => {
            out.write_str("The types of Operand 1 and Operand 2 must match")
        }
        E::PtrStorageClasses => out.write_str("Pointer storage classes must match"),
        E::PtrInvalidStorageClass => out.write_str("Invalid pointer storage class"),
        E::PtrWorkgroup => out.write_str(
            "Workgroup storage class pointer requires VariablePointers capability to be specified",
        ),
        E::PtrPhysical => out.write_str(
            "Cannot use a pointer in the PhysicalStorageBuffer storage class",
        ),
        E::CooperativeLengthResultType { opcode, id: i } => {
            write!(out, "The Result Type of Op{} <id> ", opcode_name(*opcode))?;
            id(out, *i)?;
            out.write_str(" must be OpTypeInt with width 32 and signedness 0.")
        }
        E::CooperativeLengthType { opcode, ty, khr } => {
            write!(out, "The type in Op{} <id> ", opcode_name(*opcode))?;
            id(out, *ty)?;
            let kind = if *khr { "KHR" } else { "NV" };
            write!(out, " must be OpTypeCooperativeMatrix{kind}.")
        }
        E::NotCooperativeMatrix { opcode, ty } => {
            let what = match *opcode {
                Opcode::CooperativeMatrixLoadKHR | Opcode::CooperativeMatrixLoadNV => {
                    "Result Type"
                }
                _ => "Object type",
            };
            write!(out, "spv::Op::Op{} {what} <id> ", opcode_name(*opcode))?;
            id(out, *ty)?;
            out.write_str(" is not a cooperative matrix type.")
        }
        E::CooperativeNotLogical { opcode, pointer } => {
            write!(out, "spv::Op::Op{} Pointer <id> ", opcode_name(*opcode))?;
            id(out, *pointer)?;
            out.write_str(" is not a logical pointer.")
        }
        E::CooperativePointerType { opcode, pointer } => {
            write!(out, "spv::Op::Op{} type for pointer <id> ", opcode_name(*opcode))?;
            id(out, *pointer)?;
            out.write_str(" is not a pointer type.")
        }
        E::CooperativeStorageClass { opcode, ty } => {
            let khr = matches!(
                *opcode,
                Opcode::CooperativeMatrixLoadKHR | Opcode::CooperativeMatrixStoreKHR
            );
            vuid(out, khr, "Pointer-08973")?;
            write!(
                out,
                "spv::Op::Op{} storage class for pointer type <id> ",
                opcode_name(*opcode)
            )?;
            id(out, *ty)?;
            out.write_str(if khr {
                " is not Workgroup, StorageBuffer, or PhysicalStorageBuffer."
            } else {
                " is not Workgroup or StorageBuffer."
            })
        }
        E::CooperativePointee { opcode, pointer } => {
            write!(out, "spv::Op::Op{} Pointer <id> ", opcode_name(*opcode))?;
            id(out, *pointer)?;
            out.write_str("s Type must be a scalar or vector type.")
        }
        E::StrideNotInt { stride } => {
            out.write_str("Stride operand <id> ")?;
            id(out, *stride)?;
            out.write_str(" must be a scalar integer type.")
        }
        E::ColumnMajor { id: i } => {
            out.write_str("Column Major operand <id> ")?;
            id(out, *i)?;
            out.write_str(" must be a boolean constant instruction.")
        }
        E::MemoryLayoutOperand { id: i } => {
            out.write_str("MemoryLayout operand <id> ")?;
            id(out, *i)?;
            out.write_str(" must be a 32-bit integer constant instruction.")
        }
        E::ArmLayoutCapability => out.write_str(
            "Using the RowBlockedInterleavedARM or ColumnBlockedInterleavedARM MemoryLayout requires the CooperativeMatrixLayoutsARM capability be declared",
        ),
        E::StrideNotConstant { layout } => write!(
            out,
            "MemoryLayout {layout} requires Stride come from a constant instruction."
        ),
        E::StrideValue { layout } => {
            write!(out, "MemoryLayout {layout} requires Stride be 1, 2, or 4.")
        }
        E::LayoutMultiple {
            layout,
            stride,
            columns,
            multiple,
        } => write!(
            out,
            "MemoryLayout {layout} with a Stride of {stride} requires that the number of {} be a multiple of {multiple}",
            if *columns { "columns" } else { "rows" }
        ),
        E::StrideRequired { layout } => {
            write!(out, "MemoryLayout {layout} requires a Stride.")
        }
        E::RawChainStorageClass { id: i } | E::RawChainPointee { id: i } => {
            out.write_str("The Result Type of OpRawAccessChainNV <id> ")?;
            id(out, *i)?;
            out.write_str(match e {
                E::RawChainStorageClass { .. } => {
                    " must point to a storage class of StorageBuffer, PhysicalStorageBuffer, or Uniform."
                }
                _ => " must not point to OpTypeArray, OpTypeMatrix, or OpTypeStruct.",
            })
        }
        E::RawStrideNotConstant { id: i, found } => {
            out.write_str("The Stride of OpRawAccessChainNV <id> ")?;
            id(out, *i)?;
            write!(out, " must be OpConstant. Found Op{}.", opcode_name(*found))
        }
        E::RawOperandNotInt { what, id: i, found } => {
            write!(out, "The type of {what} of OpRawAccessChainNV <id> ")?;
            id(out, *i)?;
            write!(out, " must be OpTypeInt. Found Op{}.", opcode_name(*found))
        }
        E::RawOperandWidth { what, id: i, width } => {
            write!(out, "The integer width of {what} of OpRawAccessChainNV <id> ")?;
            id(out, *i)?;
            write!(out, " must be 32. Found {width}.")
        }
        E::RawStrideZero => {
            out.write_str("Stride must not be zero when per-element robustness is used.")
        }
        E::RawRobustPhysical => out.write_str(
            "Storage class cannot be PhysicalStorageBuffer when raw access chain robustness is used.",
        ),
        E::RawRobustExclusive => out.write_str(
            "Per-component robustness and per-element robustness are mutually exclusive.",
        ),
        // Worded in memory_text.rs.
        _ => Ok(()),
    }
}
