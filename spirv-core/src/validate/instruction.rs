//! spirv-val's instruction pass (`InstructionPass` in `validate_instruction.cpp`):
//! module-wide state
//! (capabilities, memory model, variable counts), opcode and enumerant capabilities,
//! versions and extensions from the grammar, and the universal limits.

use super::error::ValidationErrorKind;
use super::validation_state::{Def, State};
use super::{Fault, Inst};
use crate::__private::Vec;
use crate::grammar::{Category, OperandKind, Version};
use crate::spv::{self, Opcode as O};
use crate::types::Id;

/// `InstructionPass`.
pub(super) fn check(state: &mut State<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    let op = inst.opcode;
    match op {
        O::Capability => state.register_capability(inst.word(0)),
        O::ConditionalCapabilityINTEL => state.register_capability(inst.word(1)),
        O::MemoryModel => {
            if state.models.is_some() {
                return Err(ValidationErrorKind::DuplicateMemoryModel.into());
            }
            state.models = Some((
                spv::AddressingModel(inst.word(0)),
                spv::MemoryModel(inst.word(1)),
            ));
        }
        O::Variable => {
            let limits = &state.options.limits;
            if inst.word(2) == spv::StorageClass::Function.0 {
                state.local_variables += 1;
                if state.local_variables > limits.max_local_variables {
                    return Err(Fault::module(ValidationErrorKind::LocalVariables {
                        limit: limits.max_local_variables,
                    }));
                }
            } else {
                state.global_variables += 1;
                if state.global_variables > limits.max_global_variables {
                    return Err(Fault::module(ValidationErrorKind::GlobalVariables {
                        limit: limits.max_global_variables,
                    }));
                }
            }
        }
        O::SamplerImageAddressingModeNV => {
            if !state.has_capability(spv::Capability::BindlessTextureNV.0) {
                return Err(ValidationErrorKind::SamplerAddressingWithoutExtension.into());
            }
            if state.sampler_addressing != 0 {
                return Err(ValidationErrorKind::DuplicateSamplerAddressing.into());
            }
            let width = inst.word(0);
            if width != 32 && width != 64 {
                return Err(ValidationErrorKind::SamplerAddressingWidth.into());
            }
            state.sampler_addressing = width;
        }
        _ => {}
    }
    if matches!(
        op,
        O::ImageSparseSampleProjImplicitLod
            | O::ImageSparseSampleProjExplicitLod
            | O::ImageSparseSampleProjDrefImplicitLod
            | O::ImageSparseSampleProjDrefExplicitLod
    ) {
        return Err(ValidationErrorKind::ReservedOpcode { opcode: op }.into());
    }
    capabilities(state, inst)?;
    limits(state, inst)?;
    opcode_version(state, inst)?;
    Ok(())
}

/// A capability list as spirv-val filters it for the target environment: those the
/// environment's version has, or that an extension or capability enables; in value
/// order.
fn enabling(state: &State<'_>, caps: &[u32]) -> Vec<spv::Capability> {
    let env = state.options.target_env.version();
    let mut out: Vec<spv::Capability> = caps
        .iter()
        .copied()
        .filter(|&c| {
            spv::kinds::Capability.enumerant(c).is_some_and(|e| {
                in_window(env, e.version, e.last_version)
                    || !e.extensions.is_empty()
                    || !e.capabilities.is_empty()
            })
        })
        .map(spv::Capability)
        .collect();
    out.sort_unstable_by_key(|c| c.0);
    out.dedup();
    out
}

/// Whether `v` is within `[first, last]`, `first` `None` meaning no version has it.
fn in_window(v: Version, first: Option<Version>, last: Option<Version>) -> bool {
    first.is_some_and(|f| f <= v) && last.is_none_or(|l| v <= l)
}

/// Whether a capability of `caps` that the environment has is declared, or none of
/// them is in the environment (then nothing is required): [`enabling`]'s test without
/// building its list.
fn enabled(state: &State<'_>, caps: &[u32]) -> bool {
    let env = state.options.target_env.version();
    let mut required = false;
    for &c in caps {
        let visible = spv::kinds::Capability.enumerant(c).is_some_and(|e| {
            in_window(env, e.version, e.last_version)
                || !e.extensions.is_empty()
                || !e.capabilities.is_empty()
        });
        if visible && state.has_capability(c) {
            return true;
        }
        required |= visible;
    }
    !required
}

/// `CapabilityCheck`: the opcode's capabilities, then each operand's enumerant (each
/// bit of a mask, highest first).
fn capabilities(state: &State<'_>, inst: &Inst<'_>) -> Result<(), ValidationErrorKind> {
    let op = inst.opcode;
    let ballot_exempt = matches!(
        op,
        O::GroupIAddNonUniformAMD
            | O::GroupFAddNonUniformAMD
            | O::GroupFMinNonUniformAMD
            | O::GroupUMinNonUniformAMD
            | O::GroupSMinNonUniformAMD
            | O::GroupFMaxNonUniformAMD
            | O::GroupUMaxNonUniformAMD
            | O::GroupSMaxNonUniformAMD
    ) && state.has_extension("SPV_AMD_shader_ballot");
    if !ballot_exempt && !enabled(state, inst.info.capabilities) {
        return Err(ValidationErrorKind::OpcodeCapability {
            opcode: op,
            capabilities: enabling(state, inst.info.capabilities),
        });
    }
    for (i, operand) in inst.operands.iter().enumerate() {
        let kind = operand.kind;
        // Extended sets' own kinds have no capabilities or versions: they pass too.
        if !matches!(kind.category, Category::ValueEnum | Category::BitEnum) {
            continue;
        }
        let word = inst.words[operand.offset];
        if kind.category == Category::BitEnum {
            for shift in (0..32).rev() {
                let bit = 1u32 << shift;
                if word & bit != 0 {
                    enumerant(state, inst, i + 1, kind, bit)?;
                }
            }
        } else {
            enumerant(state, inst, i + 1, kind, word)?;
        }
    }
    Ok(())
}

/// `CheckRequiredCapabilities` and `OperandVersionExtensionCheck` for one enumerant.
fn enumerant(
    state: &State<'_>,
    inst: &Inst<'_>,
    operand: usize,
    kind: &'static OperandKind,
    value: u32,
) -> Result<(), ValidationErrorKind> {
    use spv::kinds as k;
    let is = |other: &OperandKind| core::ptr::eq(kind, other);
    if is(&k::BuiltIn)
        && matches!(
            spv::BuiltIn(value),
            spv::BuiltIn::PointSize | spv::BuiltIn::ClipDistance | spv::BuiltIn::CullDistance
        )
    {
        return Ok(());
    }
    if is(&k::FPRoundingMode) && state.features.free_fp_rounding_mode {
        return Ok(());
    }
    if is(&k::GroupOperation)
        && state.features.group_ops_reduce_and_scans
        && value <= spv::GroupOperation::ExclusiveScan.0
    {
        return Ok(());
    }
    let Some(e) = kind.enumerant(value) else {
        return Ok(());
    };
    // A capability's own `capabilities` are those it implies, not requirements.
    let declares = matches!(inst.opcode, O::Capability | O::ConditionalCapabilityINTEL);
    if is(&k::Decoration) && value == spv::Decoration::FPRoundingMode.0 {
        if state.features.free_fp_rounding_mode {
            return Ok(());
        }
        // Vulkan asks for a 16-bit storage capability; other environments nothing.
        if state.options.target_env.is_vulkan() {
            let mut caps = Vec::from([
                spv::Capability::StorageBuffer16BitAccess,
                spv::Capability::UniformAndStorageBuffer16BitAccess,
                spv::Capability::StoragePushConstant16,
                spv::Capability::StorageInputOutput16,
            ]);
            caps.sort_unstable_by_key(|c| c.0);
            if !declares && !caps.iter().any(|c| state.has_capability(c.0)) {
                return Err(ValidationErrorKind::OperandCapability {
                    opcode: inst.opcode,
                    operand,
                    capabilities: caps,
                });
            }
        }
    } else if !declares && !enabled(state, e.capabilities) {
        return Err(ValidationErrorKind::OperandCapability {
            opcode: inst.opcode,
            operand,
            capabilities: enabling(state, e.capabilities),
        });
    }
    let module = state.version;
    if in_window(module, e.version, e.last_version) {
        return Ok(());
    }
    let (opcode, name) = (inst.opcode, e.name);
    Err(match (e.version, e.last_version) {
        (_, Some(version)) if version < module => ValidationErrorKind::OperandRemoved {
            operand,
            opcode,
            name,
            value,
            version,
        },
        (Some(version), _) if e.extensions.is_empty() => ValidationErrorKind::OperandNeedsVersion {
            operand,
            opcode,
            name,
            value,
            version,
        },
        // No version has it (or the module's is too old): one of its extensions must
        // be declared, if it has any.
        _ if e.extensions.is_empty() || state.has_any_extension(e.extensions) => {
            return Ok(());
        }
        _ => ValidationErrorKind::OperandNeedsExtension {
            operand,
            opcode,
            name,
            value,
            extensions: sorted(e.extensions),
        },
    })
}

/// `LimitCheckIdBound`, `LimitCheckStruct` and `LimitCheckSwitch`.
fn limits(state: &mut State<'_>, inst: &Inst<'_>) -> Result<(), ValidationErrorKind> {
    let limits = state.options.limits;
    if inst.result_id >= state.bound {
        return Err(ValidationErrorKind::IdNotBelowBound {
            id: Id(inst.result_id),
            bound: state.bound,
        });
    }
    match inst.opcode {
        O::TypeStruct => {
            let members = inst.operands.len().saturating_sub(1);
            // spirv-val compares with the limit cut to 16 bits.
            let limit = limits.max_struct_members as u16;
            if members > usize::from(limit) {
                return Err(ValidationErrorKind::StructMembers {
                    count: members,
                    limit: u32::from(limit),
                });
            }
            let mut deepest = 0;
            for &member in inst.words.get(2..).unwrap_or(&[]) {
                if let Some(Def {
                    opcode: O::TypeStruct,
                    ..
                }) = state.def(member)
                {
                    deepest = deepest.max(state.struct_depth.get(member).copied().unwrap_or(0));
                }
            }
            let depth = deepest + 1;
            let cap = state.dense_cap();
            state.struct_depth.insert(inst.result_id, depth, cap);
            if depth > limits.max_struct_depth {
                return Err(ValidationErrorKind::StructDepth {
                    depth,
                    limit: limits.max_struct_depth,
                });
            }
        }
        O::Switch => {
            let pairs = inst.operands.len().saturating_sub(2) / 2;
            if pairs > limits.max_switch_branches as usize {
                return Err(ValidationErrorKind::SwitchBranches {
                    count: pairs,
                    limit: limits.max_switch_branches,
                });
            }
        }
        _ => {}
    }
    Ok(())
}

/// `VersionCheck`: the opcode's version window; extensions where it has no capability
/// (or is `OpTerminateInvocation`).
fn opcode_version(state: &State<'_>, inst: &Inst<'_>) -> Result<(), ValidationErrorKind> {
    let info = inst.info;
    let module = state.version;
    let opcode = inst.opcode;
    if let Some(version) = info.last_version {
        if version < module {
            return Err(ValidationErrorKind::OpcodeRemoved { opcode, version });
        }
    }
    if !info.capabilities.is_empty() && inst.opcode != O::TerminateInvocation {
        return Ok(());
    }
    let exts = info.extensions;
    if exts.is_empty() {
        return match info.version {
            None => Err(ValidationErrorKind::OpcodeReserved { opcode }),
            Some(version) if module < version => {
                Err(ValidationErrorKind::OpcodeNeedsVersion { opcode, version })
            }
            Some(_) => Ok(()),
        };
    }
    if state.has_any_extension(exts) {
        return Ok(());
    }
    let extensions = sorted(exts);
    match info.version {
        None => Err(ValidationErrorKind::OpcodeNeedsExtension { opcode, extensions }),
        Some(version) if module < version => {
            Err(ValidationErrorKind::OpcodeNeedsVersionOrExtension {
                opcode,
                version,
                extensions,
            })
        }
        Some(_) => Ok(()),
    }
}

/// Extensions as spirv-val lists them: by name, each once.
fn sorted(extensions: &[&'static str]) -> Vec<&'static str> {
    let mut out = extensions.to_vec();
    out.sort_unstable();
    out.dedup();
    out
}

/// What a definition records (`RegisterInstruction`).
pub(super) fn register(state: &mut State<'_>, inst: &Inst<'_>) {
    if inst.result_id != 0 && inst.info.has_result() {
        let def = Def {
            index: inst.index as u32,
            opcode: inst.opcode,
            type_id: if inst.info.has_result_type() {
                inst.words.get(1).copied().unwrap_or(0)
            } else {
                0
            },
            non_semantic: inst.set.is_some_and(|s| s.is_non_semantic()),
        };
        let cap = state.dense_cap();
        state.defs.insert(inst.result_id, def, cap);
    }
    if inst.opcode == O::TypeForwardPointer {
        if let Some(&p) = inst.words.get(1) {
            state.forward_pointers.insert(p);
        }
    }
}

/// What this family checks (see [`coverage`](crate::validate::coverage)).
pub(crate) const COVERAGE: crate::validate::coverage::Family =
    crate::validate::coverage::Family::new("instructions", "validate_instruction.cpp");
