//! The faults of spirv-val's mode-setting, interface and built-in rules
//! ([`ModeError`]), their text as spirv-val writes it, and the ids each names.
//! Variants that carry `vuid` print that Vulkan rule's id first when it is `Some`
//! (spirv-val names it only when validating for Vulkan).

use super::error::{Namer, Out};
use crate::__private::{String, Vec};
use crate::spv::StorageClass as SC;
use crate::types::Id;
use core::fmt;

/// A fault of spirv-val's execution-mode, interface and built-in rules, with what it
/// involves.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ModeError {
    /// A rule whose message names nothing: spirv-val's text, a Vulkan rule's id first
    /// where spirv-val prints one.
    Rule {
        /// The message.
        text: &'static str,
    },
    /// A built-in rule: spirv-val's whole message, ids as numbers as it prints them.
    BuiltIn {
        /// The message.
        message: String,
    },
    /// A GLCompute entry point without a workgroup size (Vulkan).
    NoLocalSize {
        /// `TileShadingQCOM` is declared: the message names `TileShadingRateQCOM` too.
        tile: bool,
    },
    /// `LocalSize` or `LocalSizeId` whose sizes multiply to zero.
    LocalSizeZero {
        /// `LocalSizeId` (not `LocalSize`).
        id_mode: bool,
        /// The sizes.
        size: [u64; 3],
    },
    /// `DerivativeGroupQuadsKHR` with an odd X or Y size.
    QuadsOdd {
        /// The Vulkan rule's id.
        vuid: bool,
        /// `LocalSizeId` (not `LocalSize`).
        id_mode: bool,
        /// The X and Y sizes.
        size: [u64; 2],
        /// The entry point.
        entry: u32,
    },
    /// `DerivativeGroupLinearKHR` with sizes whose product is not a multiple of 4.
    LinearNotFour {
        /// The Vulkan rule's id.
        vuid: bool,
        /// `LocalSizeId` (not `LocalSize`).
        id_mode: bool,
        /// The sizes.
        size: [u64; 3],
        /// The entry point.
        entry: u32,
        /// Their product (as spirv-val computes it).
        product: u64,
    },
    /// `LocalSizeId` where the environment does not allow it.
    LocalSizeIdNotAllowed {
        /// Vulkan: the message says what would allow it.
        vulkan: bool,
    },
    /// A mode given twice where it may not be.
    DuplicateMode {
        /// The mode's name.
        mode: &'static str,
        /// The mode may repeat with other operands.
        per_operand: bool,
    },
    /// An interface variable an entry point uses that its interface does not list.
    NotListed {
        /// The variable.
        variable: u32,
        /// The entry point's name.
        name: String,
        /// The entry point's function.
        entry: u32,
    },
    /// An `Input` or `Output` variable holding a `PhysicalStorageBuffer` pointer.
    PhysicalPointerInterface {
        /// The variable.
        variable: u32,
    },
    /// An `Input` or `Output` variable holding bfloat16 or an 8-bit float.
    SmallFloatInterface {
        /// The variable.
        variable: Id,
        /// Bfloat16 (not an 8-bit float).
        bfloat: bool,
    },
    /// A second interface variable of a storage class an entry point may have once.
    SecondOfClass {
        /// The storage class.
        class: SC,
    },
    /// `Index` on a variable that is not a fragment output.
    IndexNotFragmentOutput,
    /// `PerVertexKHR` outside fragment shaders.
    PerVertexNotFragment,
    /// `PerVertexKHR` on a variable that is not an array.
    PerVertexNotArray,
    /// An interface variable without `Location`.
    NoLocation {
        /// The variable's type is a struct.
        is_struct: bool,
    },
    /// Two interface variables on one location's component.
    LocationConflict {
        /// Outputs (not inputs).
        output: bool,
        /// The location.
        location: u32,
        /// The component.
        component: u32,
    },
    /// A `Block` member with two different locations or components.
    MemberConflict {
        /// The member.
        member: i64,
        /// Components (not locations).
        components: bool,
    },
    /// A `Block` member without a location.
    MemberWithoutLocation {
        /// The member.
        member: u32,
    },
    /// A struct within a located variable whose members have locations.
    MemberLocation,
    /// A type that takes no location.
    NoLocationType,
}

/// Writes `[id] ` for a Vulkan rule's id when `vuid` holds.
fn vuid(out: &mut dyn Out, on: bool, id: &str) -> fmt::Result {
    if on {
        write!(out, "[VUID-StandaloneSpirv-{id}] ")?;
    }
    Ok(())
}

impl ModeError {
    /// spirv-val's message.
    pub(super) fn write(&self, out: &mut dyn Out, names: &Namer<'_>) -> fmt::Result {
        use ModeError as E;
        let which = |id_mode: bool| if id_mode { "LocalSizeId" } else { "Local Size" };
        match self {
            E::Rule { text } => out.write_str(text),
            E::BuiltIn { message } => out.write_str(message),
            E::NoLocalSize { tile } => write!(
                out,
                "[VUID-StandaloneSpirv-None-10685] In the Vulkan environment, GLCompute execution model entry points require either the {}LocalSize or LocalSizeId execution mode or an object decorated with WorkgroupSize must be specified.",
                if *tile { "TileShadingRateQCOM, " } else { "" }
            ),
            E::LocalSizeZero { id_mode, size } => write!(
                out,
                "{} execution mode must not have a product of zero (X = {}, Y = {}, Z = {}).",
                which(*id_mode),
                size[0],
                size[1],
                size[2]
            ),
            E::QuadsOdd {
                vuid: v,
                id_mode,
                size,
                entry,
            } => {
                vuid(out, *v, "DerivativeGroupQuadsKHR-10151")?;
                write!(
                    out,
                    "{} execution mode dimensions is (X = {}, Y = {}) but Entry Point id {entry} also has an DerivativeGroupQuadsKHR execution mode, so both dimensions must be a multiple of 2",
                    which(*id_mode),
                    size[0],
                    size[1]
                )
            }
            E::LinearNotFour {
                vuid: v,
                id_mode,
                size,
                entry,
                product,
            } => {
                vuid(out, *v, "DerivativeGroupLinearKHR-10152")?;
                write!(
                    out,
                    "{} execution mode dimensions is (X = {}, Y = {}, Z = {}) but Entry Point id {entry} also has an DerivativeGroupLinearKHR execution mode, so the product ({product}) must be a multiple of 4",
                    which(*id_mode),
                    size[0],
                    size[1],
                    size[2]
                )
            }
            E::LocalSizeIdNotAllowed { vulkan } => {
                out.write_str("LocalSizeId mode is not allowed by the current environment.")?;
                if *vulkan {
                    out.write_str("\nThis is allowed if you enable the maintenance4 feature (or use the --allow-localsizeid command line flag)")?;
                }
                Ok(())
            }
            E::DuplicateMode { mode, per_operand } => write!(
                out,
                "{mode} execution mode must not be specified multiple times {}",
                if *per_operand {
                    "for the same entry point and operands"
                } else {
                    "per entry point"
                }
            ),
            E::NotListed {
                variable,
                name,
                entry,
            } => write!(
                out,
                "Interface variable id <{variable}> is used by entry point '{name}' id <{entry}>, but is not listed as an interface"
            ),
            E::PhysicalPointerInterface { variable } => write!(
                out,
                "[VUID-StandaloneSpirv-Input-09557] Input/Output interface variable id <{variable}> contains a PhysicalStorageBuffer pointer, which is not allowed. If you want to interface shader stages with a PhysicalStorageBuffer, cast to a uint64 or uvec2 instead."
            ),
            E::SmallFloatInterface { variable, bfloat } => {
                out.write_str(if *bfloat {
                    "[VUID-StandaloneSpirv-OpTypeFloat-10370] Bfloat16 OpVariable <id> "
                } else {
                    "FP8 E4M3/E5M2 OpVariable <id> "
                })?;
                names.id(out, *variable)?;
                out.write_str(" must not be declared with a Storage Class of Input or Output.")
            }
            E::SecondOfClass { class } => {
                let id = match *class {
                    SC::PushConstant => "OpVariable-06673",
                    SC::IncomingRayPayloadKHR => "IncomingRayPayloadKHR-04700",
                    SC::HitAttributeKHR => "HitAttributeKHR-04702",
                    _ => "IncomingCallableDataKHR-04706",
                };
                vuid(out, true, id)?;
                write!(
                    out,
                    "Entry-point has more than one variable with the {} storage class in the interface",
                    crate::grammar::Enum::name(*class).unwrap_or("Unknown")
                )
            }
            E::IndexNotFragmentOutput => {
                out.write_str("Index can only be applied to Fragment output variables")
            }
            E::PerVertexNotFragment => out.write_str(
                "[VUID-StandaloneSpirv-PerVertexKHR-06777] PerVertexKHR can only be applied to Fragment Execution Models",
            ),
            E::PerVertexNotArray => out.write_str(
                "[VUID-StandaloneSpirv-Input-06778] PerVertexKHR must be declared as arrays",
            ),
            E::NoLocation { is_struct } => {
                let id = if *is_struct { "04917" } else { "04916" };
                write!(
                    out,
                    "[VUID-StandaloneSpirv-Location-{id}] Variable must be decorated with a location"
                )
            }
            E::LocationConflict {
                output,
                location,
                component,
            } => {
                let (id, class) = if *output {
                    ("08722", "output")
                } else {
                    ("08721", "input")
                };
                write!(
                    out,
                    "[VUID-StandaloneSpirv-OpEntryPoint-{id}] Entry-point has conflicting {class} location assignment at location {location}, component {component}"
                )
            }
            E::MemberConflict { member, components } => write!(
                out,
                "Member index {member} has conflicting {} assignments",
                if *components { "component" } else { "location" }
            ),
            E::MemberWithoutLocation { member } => write!(
                out,
                "[VUID-StandaloneSpirv-Location-04919] Member index {member} is missing a location assignment"
            ),
            E::MemberLocation => out.write_str(
                "[VUID-StandaloneSpirv-Location-04918] Members cannot be assigned a location",
            ),
            E::NoLocationType => out.write_str("Invalid type to assign a location"),
        }
    }

    /// The ids the message names, in order.
    pub(super) fn ids(&self) -> Vec<Id> {
        match self {
            ModeError::SmallFloatInterface { variable, .. } => Vec::from([*variable]),
            ModeError::NotListed { variable, .. }
            | ModeError::PhysicalPointerInterface { variable } => Vec::from([Id(*variable)]),
            _ => Vec::new(),
        }
    }
}
