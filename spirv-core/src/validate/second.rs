//! spirv-val's second loop: every instruction through its per-instruction passes, in
//! its order (`ValidateBinaryUsingContextAndValidationState` in `validate.cpp`), so
//! that of two faults the one spirv-val names comes first: the earlier instruction,
//! and within one instruction the earlier pass. The passes whose rules are not here
//! yet (image, derivatives, atomics, primitives, barriers, non-uniform, ray tracing,
//! mesh shading, tensors, graphs) have no file.

use super::query::Query;
use super::{
    Fault, Inst, annotation, arithmetics, bitwise, composites, constants, control_flow, conversion,
    debug, extension, function, literals, logicals, memory, misc, mode_setting, types,
};

/// What the passes of the second loop remember across instructions.
#[derive(Debug, Default)]
pub(super) struct Second {
    misc: misc::Misc,
    debug: debug::Debug,
    annotation: annotation::Annotation,
    types: types::Types,
    constants: constants::Constants,
    memory: memory::Memory,
    function: function::Function,
    conversion: conversion::Conversion,
    composites: composites::Composites,
    arithmetics: arithmetics::Arithmetics,
    bitwise: bitwise::Bitwise,
    logicals: logicals::Logicals,
    control_flow: control_flow::ControlFlow,
    literals: literals::Literals,
    mode_setting: mode_setting::ModeSetting,
}

impl Second {
    /// The passes for one instruction, in spirv-val's order; the first fault.
    pub(super) fn instruction(&mut self, q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
        misc::check(q, inst, &mut self.misc)?;
        debug::check(q, inst, &mut self.debug)?;
        annotation::check(q, inst, &mut self.annotation)?;
        extension::check(q, inst)?;
        mode_setting::check(q, inst, &mut self.mode_setting)?;
        types::check(q, inst, &mut self.types)?;
        constants::check(q, inst, &mut self.constants)?;
        memory::check(q, inst, &mut self.memory)?;
        function::check(q, inst, &mut self.function)?;
        conversion::check(q, inst, &mut self.conversion)?;
        composites::check(q, inst, &mut self.composites)?;
        arithmetics::check(q, inst, &mut self.arithmetics)?;
        bitwise::check(q, inst, &mut self.bitwise)?;
        logicals::check(q, inst, &mut self.logicals)?;
        control_flow::check(q, inst, &mut self.control_flow)?;
        literals::check(q, inst, &mut self.literals)?;
        Ok(())
    }
}
