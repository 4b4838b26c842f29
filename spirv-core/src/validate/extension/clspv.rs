//! spirv-val's rules for `NonSemantic.ClspvReflection.N` instructions
//! (`ValidateExtInstNonsemanticClspvReflection` and the `ValidateClspvReflection*`
//! functions of `validate_extensions.cpp`): the import's version, the version each
//! instruction needs, and each instruction's operands, in spirv-val's order.

use super::{EntryPointNames, ExtInstError, is_uint32_constant};
use crate::spv::{self, Opcode as O};
use crate::validate::faults::faults;
use crate::validate::{Fault, Inst, Query};
use ClspvError as E;

faults! {
    /// A fault of a `NonSemantic.ClspvReflection` instruction or import.
    pub enum ClspvError {
        /// A kernel operand that is no function.
        NotFunction {
            /// The instruction's grammar name.
            inst: &'static str,
        } => "{inst} does not reference a function",
        /// A kernel operand that is no entry point.
        NotEntryPoint {
            /// The instruction's grammar name.
            inst: &'static str,
        } => "{inst} does not reference an entry-point",
        /// A kernel that is an entry point of another model than `GLCompute`.
        NotGlCompute {
            /// The instruction's grammar name.
            inst: &'static str,
        } => "{inst} must refer only to GLCompute entry-points",
        /// A kernel's name that matches none of its entry points.
        NameMatch => "Name must match an entry-point for Kernel",
        /// A `Kernel` with the operands of version 5 in an older version.
        KernelOperands {
            /// The import's version.
            version: u32,
            /// The instruction's grammar name.
            inst: &'static str,
        } => "Version {version} of the {inst} instruction can only have 2 additional operands",
        /// An operand that is no 32-bit unsigned `OpConstant`.
        Uint32Constant {
            /// The operand's name.
            operand: &'static str,
        } => "{operand} must be a 32-bit unsigned integer OpConstant",
        /// An operand that is no `OpString`.
        NotString {
            /// The operand's name.
            operand: &'static str,
        } => "{operand} must be an OpString",
        /// A kernel operand that is no `Kernel` instruction.
        KernelDecl => "Kernel must be a Kernel extended instruction",
        /// A kernel operand of another import.
        KernelImport => "Kernel must be from the same extended instruction import",
        /// An argument-info operand that is no `ArgumentInfo` instruction.
        ArgInfo => "ArgInfo must be an ArgumentInfo extended instruction",
        /// An argument-info operand of another import.
        ArgInfoImport => "ArgInfo must be from the same extended instruction import",
        /// A result type other than void.
        VoidResult => "Return Type must be OpTypeVoid",
        /// An instruction newer than the import's version.
        Version {
            /// The instruction's grammar name.
            inst: &'static str,
            /// The version it needs.
            required: u32,
            /// The import's version.
            version: u32,
        } => "{inst} requires version {required}, but parsed version is {version}",
        /// An import named without a version.
        MissingVersion => "Missing NonSemantic.ClspvReflection import version",
        /// An import whose version is no number.
        BadVersion => "NonSemantic.ClspvReflection import does not encode the version correctly",
        /// An import whose version is 0 or newer than the grammar's.
        UnknownVersion => "Unknown NonSemantic.ClspvReflection import version",
    }
}

/// The grammar of the set, for names and its revision.
fn grammar() -> &'static crate::grammar::Grammar {
    &crate::ext::clspv_reflection::GRAMMAR
}

/// The version an import name's suffix encodes, read as `strtoul` reads it, or the
/// fault spirv-val reports at the import.
pub(super) fn version(suffix: &[u8]) -> Result<u32, ClspvError> {
    if suffix.is_empty() {
        return Err(E::MissingVersion);
    }
    let trimmed = suffix.trim_ascii_start();
    let (negative, digits) = match trimmed.split_first() {
        Some((b'-', rest)) => (true, rest),
        Some((b'+', rest)) => (false, rest),
        _ => (false, trimmed),
    };
    let n = digits.iter().take_while(|b| b.is_ascii_digit()).count();
    // `strtoul` leaves the end at the start when it reads no digit.
    if n == 0 || n != digits.len() {
        return Err(E::BadVersion);
    }
    let value = digits.iter().fold(0u64, |v, &d| {
        v.saturating_mul(10).saturating_add(u64::from(d - b'0'))
    });
    // A negative or too large number wraps past the known revisions.
    let value = if negative || value > u64::from(u32::MAX) {
        u64::from(u32::MAX)
    } else {
        value
    };
    let revision = grammar().revision.unwrap_or(0);
    if value == 0 || value > u64::from(revision) {
        return Err(E::UnknownVersion);
    }
    Ok(value as u32)
}

/// The version each instruction needs (`ValidateClspvReflectionInstruction`'s table).
fn required_version(name: &str) -> u32 {
    match name {
        "SpecConstantSubgroupMaxSize" => 2,
        "ArgumentPointerPushConstant"
        | "ArgumentPointerUniform"
        | "ProgramScopeVariablesStorageBuffer"
        | "ProgramScopeVariablePointerRelocation"
        | "ImageArgumentInfoChannelOrderPushConstant"
        | "ImageArgumentInfoChannelDataTypePushConstant"
        | "ImageArgumentInfoChannelOrderUniform"
        | "ImageArgumentInfoChannelDataTypeUniform" => 3,
        "ArgumentStorageTexelBuffer" | "ArgumentUniformTexelBuffer" => 4,
        "ConstantDataPointerPushConstant"
        | "ProgramScopeVariablePointerPushConstant"
        | "PrintfInfo"
        | "PrintfBufferStorageBuffer"
        | "PrintfBufferPointerPushConstant" => 5,
        _ => 0,
    }
}

/// `ValidateExtInstNonsemanticClspvReflection` for one instruction whose import's
/// name encodes `version` ([`version`]).
pub(super) fn check(
    q: &Query<'_>,
    inst: &Inst<'_>,
    version: Result<u32, ClspvError>,
    entry_points: &EntryPointNames,
) -> Result<(), Fault> {
    let version = match version {
        Ok(v) => v,
        Err(e) => {
            let at = q.state.def(inst.word(2)).map_or(0, |d| d.index);
            return Err(Fault::at(ExtInstError::Clspv(e).into(), at));
        }
    };
    let fail = |e: ClspvError| -> Result<(), Fault> { Err(ExtInstError::Clspv(e).into()) };
    if !q.is_void_type(inst.result_type()) {
        return fail(E::VoidResult);
    }
    let Some(info) = grammar().instruction(inst.word(3)) else {
        return Ok(());
    };
    let name = info.opname;
    let required = required_version(name);
    if version < required {
        return fail(E::Version {
            inst: name,
            required,
            version,
        });
    }
    let operands = inst.operands.len();
    let uint32 = |i: usize, operand: &'static str| -> Result<(), Fault> {
        if is_uint32_constant(q, inst.word(i)) {
            Ok(())
        } else {
            fail(E::Uint32Constant { operand })
        }
    };
    let uint32s = |first: usize, names: &[&'static str]| -> Result<(), Fault> {
        names
            .iter()
            .enumerate()
            .try_for_each(|(k, &operand)| uint32(first + k, operand))
    };
    let string = |i: usize, operand: &'static str| -> Result<(), Fault> {
        if q.opcode(inst.word(i)) == O::String {
            Ok(())
        } else {
            fail(E::NotString { operand })
        }
    };
    // An operand that must be another instruction of this import, `wanted` by name.
    let same_import = |i: usize, wanted: &str, kind: E, import: E| -> Result<(), Fault> {
        let Some(d) = q.def(inst.word(i)) else {
            return fail(kind);
        };
        if !matches!(d.opcode(), O::ExtInst | O::ExtInstWithForwardRefsKHR) {
            return fail(kind);
        }
        let w = d.words();
        if w.get(3) != Some(&inst.word(2)) {
            return fail(import);
        }
        let n = w.get(4).copied().unwrap_or(0);
        if grammar().instruction(n).map(|i| i.opname) != Some(wanted) {
            return fail(kind);
        }
        Ok(())
    };
    let kernel_decl = || same_import(4, "Kernel", E::KernelDecl, E::KernelImport);
    let arg_info = |i: usize| same_import(i, "ArgumentInfo", E::ArgInfo, E::ArgInfoImport);
    match name {
        "Kernel" => {
            let kernel = inst.word(4);
            if q.opcode(kernel) != O::Function {
                return fail(E::NotFunction { inst: name });
            }
            let entries = entry_points.of(q, kernel);
            if entries.is_empty() {
                return fail(E::NotEntryPoint { inst: name });
            }
            if entries
                .iter()
                .any(|(model, _)| *model != spv::ExecutionModel::GLCompute.0)
            {
                return fail(E::NotGlCompute { inst: name });
            }
            let Some(s) = q.def(inst.word(5)).filter(|d| d.opcode() == O::String) else {
                return fail(E::NotString { operand: "Name" });
            };
            let text = crate::codec::string_operand(s.words().get(2..).unwrap_or(&[]));
            if !entries.iter().any(|(_, n)| *n == text) {
                return fail(E::NameMatch);
            }
            if version < 5 && operands > 6 {
                return fail(E::KernelOperands {
                    version,
                    inst: name,
                });
            }
            if operands > 6 {
                uint32(6, "NumArguments")?;
            }
            if operands > 7 {
                uint32(7, "Flags")?;
            }
            if operands > 8 {
                string(8, "Attributes")?;
            }
        }
        "ArgumentInfo" => {
            string(4, "Name")?;
            if operands > 5 {
                string(5, "TypeName")?;
            }
            let qualifiers = ["AddressQualifier", "AccessQualifier", "TypeQualifier"];
            for (k, operand) in qualifiers.into_iter().enumerate() {
                if operands > 6 + k {
                    uint32(6 + k, operand)?;
                }
            }
        }
        "ArgumentStorageBuffer"
        | "ArgumentUniform"
        | "ArgumentSampledImage"
        | "ArgumentStorageImage"
        | "ArgumentSampler"
        | "ArgumentStorageTexelBuffer"
        | "ArgumentUniformTexelBuffer" => {
            kernel_decl()?;
            uint32s(5, &["Ordinal", "DescriptorSet", "Binding"])?;
            if operands == 9 {
                arg_info(8)?;
            }
        }
        "ArgumentPodStorageBuffer" | "ArgumentPodUniform" | "ArgumentPointerUniform" => {
            kernel_decl()?;
            uint32s(
                5,
                &["Ordinal", "DescriptorSet", "Binding", "Offset", "Size"],
            )?;
            if operands == 11 {
                arg_info(10)?;
            }
        }
        "ArgumentPodPushConstant" | "ArgumentPointerPushConstant" => {
            kernel_decl()?;
            uint32s(5, &["Ordinal", "Offset", "Size"])?;
            if operands == 9 {
                arg_info(8)?;
            }
        }
        "ArgumentWorkgroup" => {
            kernel_decl()?;
            uint32s(5, &["Ordinal", "SpecId", "ElemSize"])?;
            if operands == 9 {
                arg_info(8)?;
            }
        }
        "SpecConstantWorkgroupSize" | "SpecConstantGlobalOffset" => {
            uint32s(4, &["X", "Y", "Z"])?;
        }
        "SpecConstantWorkDim" => uint32(4, "Dim")?,
        "PushConstantGlobalOffset"
        | "PushConstantEnqueuedLocalSize"
        | "PushConstantGlobalSize"
        | "PushConstantRegionOffset"
        | "PushConstantNumWorkgroups"
        | "PushConstantRegionGroupOffset" => uint32s(4, &["Offset", "Size"])?,
        "ConstantDataStorageBuffer"
        | "ConstantDataUniform"
        | "ProgramScopeVariablesStorageBuffer" => {
            uint32s(4, &["DescriptorSet", "Binding"])?;
            string(6, "Data")?;
        }
        "LiteralSampler" => uint32s(4, &["DescriptorSet", "Binding", "Mask"])?,
        "PropertyRequiredWorkgroupSize" => {
            kernel_decl()?;
            uint32s(5, &["X", "Y", "Z"])?;
        }
        "SpecConstantSubgroupMaxSize" => uint32(4, "Size")?,
        "ProgramScopeVariablePointerRelocation" => {
            uint32s(4, &["ObjectOffset", "PointerOffset", "PointerSize"])?;
        }
        "ImageArgumentInfoChannelOrderPushConstant"
        | "ImageArgumentInfoChannelDataTypePushConstant" => {
            kernel_decl()?;
            uint32s(5, &["Ordinal", "Offset", "Size"])?;
        }
        "ImageArgumentInfoChannelOrderUniform" | "ImageArgumentInfoChannelDataTypeUniform" => {
            kernel_decl()?;
            uint32s(
                5,
                &["Ordinal", "DescriptorSet", "Binding", "Offset", "Size"],
            )?;
        }
        "ConstantDataPointerPushConstant" | "ProgramScopeVariablePointerPushConstant" => {
            uint32s(4, &["Offset", "Size"])?;
            string(6, "Data")?;
        }
        "PrintfInfo" => {
            uint32(4, "PrintfID")?;
            string(5, "FormatString")?;
            for i in 6..operands {
                uint32(i, "ArgumentSizes")?;
            }
        }
        "PrintfBufferStorageBuffer" => uint32s(4, &["DescriptorSet", "Binding", "Size"])?,
        "PrintfBufferPointerPushConstant" => uint32s(4, &["Offset", "Size", "BufferSize"])?,
        _ => {}
    }
    Ok(())
}
