//! spirv-val's execution-model and execution-mode limitations
//! (`Function::RegisterExecutionModelLimitation`, `Function::RegisterLimitation` and
//! `validate_execution_limitations.cpp`): rules that an instruction obeys or breaks
//! depending on the entry points whose call graph reaches its function. Families
//! register a [`Limitation`] on the function of the instruction that needs it (the
//! storage classes an instruction uses register theirs here, as spirv-val's
//! `RegisterStorageClassConsumer` does); after the whole-module passes, [`check`]
//! reports the first function, in module order, that an entry point reaching it
//! cannot use, with every limitation it breaks.
//!
//! The check is linear: which execution models and which entry-point traits reach
//! each function is propagated once over the call graph (each function's set only
//! grows, and it has a few dozen members), and only the function reported is walked
//! back to the entry points that reach it.

use super::faults::faults;
use super::validation_state::EntryCalls;
use super::{Fault, Inst, Query};
use crate::__private::{String, Vec};
use crate::spv::{self, ExecutionMode as Mode, ExecutionModel as M, Opcode};
use crate::types::Id;
use alloc::collections::{BTreeMap, BTreeSet};
use core::ops::ControlFlow;

faults! {
    /// A fault of spirv-val's execution-limitations check
    /// (`validate_execution_limitations.cpp`).
    pub enum LimitationError {
        /// A function that one of the execution models of an entry point reaching it
        /// cannot use; `reasons` holds each limitation broken, one a line.
        Model {
            /// The entry point.
            #[role = context]
            entry: Id,
            /// The function.
            function: Id,
            /// The limitations broken, each followed by a newline.
            reasons: String,
        } => "OpEntryPoint Entry Point <id> {entry}s callgraph contains function <id> {function}, which cannot be used with the current execution model:\n{reasons}",
        /// A function that the execution modes of an entry point reaching it do not
        /// allow.
        Modes {
            /// The entry point.
            #[role = context]
            entry: Id,
            /// The function.
            function: Id,
            /// The limitations broken, each followed by a newline.
            reasons: String,
        } => "OpEntryPoint Entry Point <id> {entry}s callgraph contains function <id> {function}, which cannot be used with the current execution modes:\n{reasons}",
    }
}

/// Which execution models a rule allows: those listed, or all but those listed.
#[derive(Debug, Clone, Copy)]
enum Models {
    Only(&'static [M]),
    Not(&'static [M]),
}

/// What an execution-mode rule asks of the entry point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Need {
    /// A derivative group mode for `GLCompute`, `MeshEXT` and `TaskEXT`.
    DerivativeGroup,
    /// A fragment shader interlock mode.
    Interlock,
}

/// What a rule tests: the execution model, or the entry point's modes.
#[derive(Debug, Clone, Copy)]
enum Test {
    Model(Models),
    Mode(Need),
}

/// One rule: its VUID (printed in Vulkan environments), its text, and its test.
#[derive(Debug)]
pub(super) struct Rule {
    vuid: Option<&'static str>,
    text: &'static str,
    test: Test,
    /// The opcode a limitation names comes before the text (else after it).
    opcode_first: bool,
}

const RAY_SHADERS: &[M] = &[
    M::RayGenerationKHR,
    M::IntersectionKHR,
    M::AnyHitKHR,
    M::ClosestHitKHR,
    M::MissKHR,
    M::CallableKHR,
];

macro_rules! rules {
    ($($(#[$doc:meta])* $name:ident = $vuid:expr, $text:literal, $test:expr;)*) => {
        $( $(#[$doc])* pub(in crate::validate) const $name: Rule = Rule { vuid: $vuid, text: $text, test: $test, opcode_first: false }; )*
    };
}

use Models::{Not, Only};
use Test::{Mode as Modes, Model};

/// The rules, by the file of spirv-val that registers them.
#[allow(dead_code)]
pub(super) mod rules {
    use super::*;

    // validate_scopes.cpp
    rules! {
        /// `OpControlBarrier` with an execution scope other than `Subgroup` (Vulkan).
        CONTROL_BARRIER_SUBGROUP = Some("VUID-StandaloneSpirv-OpControlBarrier-04682"),
            "in Vulkan environment, OpControlBarrier execution scope must be Subgroup for Fragment, Vertex, Geometry, TessellationEvaluation, RayGeneration, Intersection, AnyHit, ClosestHit, and Miss execution models",
            Model(Not(&[M::Fragment, M::Vertex, M::Geometry, M::TessellationEvaluation, M::RayGenerationKHR, M::IntersectionKHR, M::AnyHitKHR, M::ClosestHitKHR, M::MissKHR]));
        /// A `Workgroup` execution scope (Vulkan).
        WORKGROUP_EXECUTION = Some("VUID-StandaloneSpirv-None-04637"),
            "in Vulkan environment, Workgroup execution scope is only for TaskNV, MeshNV, TaskEXT, MeshEXT, TessellationControl, and GLCompute execution models",
            Model(Only(&[M::TaskNV, M::MeshNV, M::TaskEXT, M::MeshEXT, M::TessellationControl, M::GLCompute]));
        /// A `ShaderCallKHR` memory scope (Vulkan).
        SHADER_CALL_MEMORY = Some("VUID-StandaloneSpirv-None-04640"),
            "ShaderCallKHR Memory Scope requires a ray tracing execution model",
            Model(Only(RAY_SHADERS));
        /// A `Workgroup` memory scope (Vulkan).
        WORKGROUP_MEMORY = Some("VUID-StandaloneSpirv-None-07321"),
            "Workgroup Memory Scope is limited to MeshNV, TaskNV, MeshEXT, TaskEXT, TessellationControl, and GLCompute execution model",
            Model(Only(&[M::GLCompute, M::TessellationControl, M::TaskNV, M::MeshNV, M::TaskEXT, M::MeshEXT]));
        /// A `Workgroup` memory scope with the GLSL450 memory model (Vulkan).
        WORKGROUP_MEMORY_GLSL = Some("VUID-StandaloneSpirv-ExecutionModel-07320"),
            "Workgroup Memory Scope can't be used with TessellationControl using GLSL450 Memory Model",
            Model(Not(&[M::TessellationControl]));
    }

    // validate_barriers.cpp
    rules! {
        /// `OpControlBarrier` before SPIR-V 1.3.
        CONTROL_BARRIER_MODELS = None,
            "In SPIR-V 1.2 or earlier, OpControlBarrier requires one of the following Execution Models: TessellationControl, GLCompute, Kernel, MeshNV or TaskNV",
            Model(Only(&[M::TessellationControl, M::GLCompute, M::Kernel, M::TaskNV, M::MeshNV]));
    }

    // validation_state.cpp (`RegisterStorageClassConsumer`)
    rules! {
        /// The `Output` storage class (Vulkan).
        OUTPUT_STORAGE = Some("VUID-StandaloneSpirv-None-04644"),
            "in Vulkan environment, Output Storage Class must not be used in GLCompute, RayGenerationKHR, IntersectionKHR, AnyHitKHR, ClosestHitKHR, MissKHR, or CallableKHR execution models",
            Model(Not(&[M::GLCompute, M::RayGenerationKHR, M::IntersectionKHR, M::AnyHitKHR, M::ClosestHitKHR, M::MissKHR, M::CallableKHR]));
        /// The `Workgroup` storage class (Vulkan).
        WORKGROUP_STORAGE = Some("VUID-StandaloneSpirv-None-04645"),
            "in Vulkan environment, Workgroup Storage Class is limited to MeshNV, TaskNV, and GLCompute execution model",
            Model(Only(&[M::GLCompute, M::TaskNV, M::MeshNV, M::TaskEXT, M::MeshEXT]));
        /// The `CallableDataKHR` storage class.
        CALLABLE_DATA = Some("VUID-StandaloneSpirv-CallableDataKHR-04704"),
            "CallableDataKHR Storage Class is limited to RayGenerationKHR, ClosestHitKHR, CallableKHR, and MissKHR execution model",
            Model(Only(&[M::RayGenerationKHR, M::ClosestHitKHR, M::CallableKHR, M::MissKHR]));
        /// The `IncomingCallableDataKHR` storage class.
        INCOMING_CALLABLE_DATA = Some("VUID-StandaloneSpirv-IncomingCallableDataKHR-04705"),
            "IncomingCallableDataKHR Storage Class is limited to CallableKHR execution model",
            Model(Only(&[M::CallableKHR]));
        /// The `RayPayloadKHR` storage class.
        RAY_PAYLOAD = Some("VUID-StandaloneSpirv-RayPayloadKHR-04698"),
            "RayPayloadKHR Storage Class is limited to RayGenerationKHR, ClosestHitKHR, and MissKHR execution model",
            Model(Only(&[M::RayGenerationKHR, M::ClosestHitKHR, M::MissKHR]));
        /// The `HitAttributeKHR` storage class (spirv-val's typo kept).
        HIT_ATTRIBUTE = Some("VUID-StandaloneSpirv-HitAttributeKHR-04701"),
            "HitAttributeKHR Storage Class is limited to IntersectionKHR, AnyHitKHR, sand ClosestHitKHR execution model",
            Model(Only(&[M::IntersectionKHR, M::AnyHitKHR, M::ClosestHitKHR]));
        /// The `IncomingRayPayloadKHR` storage class.
        INCOMING_RAY_PAYLOAD = Some("VUID-StandaloneSpirv-IncomingRayPayloadKHR-04699"),
            "IncomingRayPayloadKHR Storage Class is limited to AnyHitKHR, ClosestHitKHR, and MissKHR execution model",
            Model(Only(&[M::AnyHitKHR, M::ClosestHitKHR, M::MissKHR]));
        /// The `ShaderRecordBufferKHR` storage class.
        SHADER_RECORD_BUFFER = Some("VUID-StandaloneSpirv-ShaderRecordBufferKHR-07119"),
            "ShaderRecordBufferKHR Storage Class is limited to RayGenerationKHR, IntersectionKHR, AnyHitKHR, ClosestHitKHR, CallableKHR, and MissKHR execution model",
            Model(Only(RAY_SHADERS));
        /// The `TaskPayloadWorkgroupEXT` storage class.
        TASK_PAYLOAD = None,
            "TaskPayloadWorkgroupEXT Storage Class is limited to TaskEXT and MeshKHR execution model",
            Model(Only(&[M::TaskEXT, M::MeshEXT]));
        /// The `HitObjectAttributeNV` storage class.
        HIT_OBJECT_ATTRIBUTE_NV = None,
            "HitObjectAttributeNV Storage Class is limited to RayGenerationKHR, ClosestHitKHR or MissKHR execution model",
            Model(Only(&[M::RayGenerationKHR, M::ClosestHitKHR, M::MissKHR]));
        /// The `HitObjectAttributeEXT` storage class.
        HIT_OBJECT_ATTRIBUTE_EXT = None,
            "HitObjectAttributeEXT Storage Class is limited to RayGenerationKHR, ClosestHitKHR or MissKHR execution model",
            Model(Only(&[M::RayGenerationKHR, M::ClosestHitKHR, M::MissKHR]));
    }

    // validate_derivatives.cpp, validate_image.cpp
    rules! {
        /// Derivative instructions outside the models with derivatives (text ends with
        /// the opcode).
        DERIVATIVE_MODELS = None,
            "Derivative instructions require Fragment, GLCompute, MeshEXT or TaskEXT execution model: ",
            Model(Only(&[M::Fragment, M::GLCompute, M::MeshEXT, M::TaskEXT]));
        /// Derivative instructions without a derivative group mode.
        DERIVATIVE_MODES = None,
            "Derivative instructions require DerivativeGroupQuadsKHR or DerivativeGroupLinearKHR execution mode for GLCompute, MeshEXT or TaskEXT execution model: ",
            Modes(Need::DerivativeGroup);
        /// Implicit-lod image instructions outside the models with derivatives.
        IMPLICIT_LOD_MODELS = None,
            "ImplicitLod instructions require Fragment, GLCompute, MeshEXT or TaskEXT execution model: ",
            Model(Only(&[M::Fragment, M::GLCompute, M::MeshEXT, M::TaskEXT]));
        /// Implicit-lod image instructions without a derivative group mode.
        IMPLICIT_LOD_MODES = None,
            "ImplicitLod instructions require DerivativeGroupQuadsKHR or DerivativeGroupLinearKHR execution mode for GLCompute, MeshEXT or TaskEXT execution model: ",
            Modes(Need::DerivativeGroup);
        /// `OpImageQueryLod` outside the models with derivatives.
        QUERY_LOD_MODELS = None,
            "OpImageQueryLod requires Fragment, GLCompute, MeshEXT or TaskEXT execution model",
            Model(Only(&[M::Fragment, M::GLCompute, M::MeshEXT, M::TaskEXT]));
        /// `OpImageQueryLod` without a derivative group mode.
        QUERY_LOD_MODES = None,
            "OpImageQueryLod requires DerivativeGroupQuadsKHR or DerivativeGroupLinearKHR execution mode for GLCompute, MeshEXT or TaskEXT execution model",
            Modes(Need::DerivativeGroup);
        /// A `SubpassData` image read outside fragment shaders (text ends with the
        /// opcode).
        SUBPASS_DATA = None,
            "Dim SubpassData requires Fragment execution model: ",
            Model(Only(&[M::Fragment]));
        /// A `TileImageDataEXT` image read outside fragment shaders (text ends with
        /// the opcode).
        TILE_IMAGE_DATA = None,
            "Dim TileImageDataEXT requires Fragment execution model: ",
            Model(Only(&[M::Fragment]));
    }

    // validate_cfg.cpp (registered by its first loop)
    rules! {
        /// `OpKill`.
        KILL = None, "OpKill requires Fragment execution model", Model(Only(&[M::Fragment]));
        /// `OpTerminateInvocation`.
        TERMINATE_INVOCATION = None, "OpTerminateInvocation requires Fragment execution model",
            Model(Only(&[M::Fragment]));
        /// `OpIgnoreIntersectionKHR`.
        IGNORE_INTERSECTION = None, "OpIgnoreIntersectionKHR requires AnyHitKHR execution model",
            Model(Only(&[M::AnyHitKHR]));
        /// `OpTerminateRayKHR`.
        TERMINATE_RAY = None, "OpTerminateRayKHR requires AnyHitKHR execution model",
            Model(Only(&[M::AnyHitKHR]));
    }

    // validate_memory.cpp
    rules! {
        /// `OpStore` through a `HitAttributeKHR` pointer.
        HIT_ATTRIBUTE_STORE = Some("VUID-StandaloneSpirv-HitAttributeKHR-04703"),
            "HitAttributeKHR Storage Class variables are read only with AnyHitKHR and ClosestHitKHR",
            Model(Not(&[M::AnyHitKHR, M::ClosestHitKHR]));
    }

    // validate_primitives.cpp
    /// The geometry-stage instructions (text follows the opcode).
    pub(in crate::validate) const GEOMETRY: Rule = Rule {
        vuid: None,
        text: " instructions require Geometry execution model",
        test: Model(Only(&[M::Geometry])),
        opcode_first: true,
    };

    // validate_extensions.cpp (the import is `GLSL.std.450`, which names them)
    rules! {
        /// `GLSL.std.450` `InterpolateAtCentroid`.
        INTERPOLATE_AT_CENTROID = None,
            "GLSL.std.450 InterpolateAtCentroid requires Fragment execution model",
            Model(Only(&[M::Fragment]));
        /// `GLSL.std.450` `InterpolateAtSample`.
        INTERPOLATE_AT_SAMPLE = None,
            "GLSL.std.450 InterpolateAtSample requires Fragment execution model",
            Model(Only(&[M::Fragment]));
        /// `GLSL.std.450` `InterpolateAtOffset`.
        INTERPOLATE_AT_OFFSET = None,
            "GLSL.std.450 InterpolateAtOffset requires Fragment execution model",
            Model(Only(&[M::Fragment]));
    }

    // validate_ray_tracing.cpp
    rules! {
        /// `OpTraceRayKHR`.
        TRACE_RAY = None,
            "OpTraceRayKHR requires RayGenerationKHR, ClosestHitKHR and MissKHR execution models",
            Model(Only(&[M::RayGenerationKHR, M::ClosestHitKHR, M::MissKHR]));
        /// `OpReportIntersectionKHR`.
        REPORT_INTERSECTION = None,
            "OpReportIntersectionKHR requires IntersectionKHR execution model",
            Model(Only(&[M::IntersectionKHR]));
        /// `OpExecuteCallableKHR`.
        EXECUTE_CALLABLE = None,
            "OpExecuteCallableKHR requires RayGenerationKHR, ClosestHitKHR, MissKHR and CallableKHR execution models",
            Model(Only(&[M::RayGenerationKHR, M::ClosestHitKHR, M::MissKHR, M::CallableKHR]));
    }

    // validate_ray_tracing_reorder.cpp (texts follow the opcode)
    /// The hit object instructions.
    pub(in crate::validate) const HIT_OBJECT_MODELS: Rule = Rule {
        vuid: None,
        text: " requires RayGenerationKHR, ClosestHitKHR and MissKHR execution models",
        test: Model(Only(&[M::RayGenerationKHR, M::ClosestHitKHR, M::MissKHR])),
        opcode_first: true,
    };
    /// The reorder instructions.
    pub(in crate::validate) const RAY_GENERATION_ONLY: Rule = Rule {
        vuid: None,
        text: " requires RayGenerationKHR execution model",
        test: Model(Only(&[M::RayGenerationKHR])),
        opcode_first: true,
    };

    // validate_mesh_shading.cpp
    rules! {
        /// `OpEmitMeshTasksEXT`.
        EMIT_MESH_TASKS = None, "OpEmitMeshTasksEXT requires TaskEXT execution model",
            Model(Only(&[M::TaskEXT]));
        /// `OpSetMeshOutputsEXT`.
        SET_MESH_OUTPUTS = None, "OpSetMeshOutputsEXT requires MeshEXT execution model",
            Model(Only(&[M::MeshEXT]));
    }

    // validate_misc.cpp
    rules! {
        /// Interlock instructions outside fragment shaders.
        INTERLOCK_FRAGMENT = None,
            "OpBeginInvocationInterlockEXT/OpEndInvocationInterlockEXT require Fragment execution model",
            Model(Only(&[M::Fragment]));
        /// `OpDemoteToHelperInvocationEXT`.
        DEMOTE = None, "OpDemoteToHelperInvocationEXT requires Fragment execution model",
            Model(Only(&[M::Fragment]));
        /// `OpIsHelperInvocationEXT`.
        IS_HELPER = None, "OpIsHelperInvocationEXT requires Fragment execution model",
            Model(Only(&[M::Fragment]));
        /// Interlock instructions without an interlock mode.
        INTERLOCK_MODES = None,
            "OpBeginInvocationInterlockEXT/OpEndInvocationInterlockEXT require a fragment shader interlock execution mode.",
            Modes(Need::Interlock);
    }
}

/// A limitation registered on a function: its rule, the opcode its text ends with (if
/// any), and whether the VUID prints (a Vulkan environment when registered).
#[derive(Debug, Clone, Copy)]
pub(super) struct Limitation {
    rule: &'static Rule,
    opcode: Option<Opcode>,
    vulkan: bool,
}

impl Limitation {
    /// The limitation of `rule`, for a module validated in `q`'s environment.
    pub(super) fn new(q: &Query<'_>, rule: &'static Rule) -> Self {
        Limitation {
            rule,
            opcode: None,
            vulkan: q.state.options.target_env.is_vulkan(),
        }
    }

    /// The limitation of `rule`, whose text ends with `opcode`'s name.
    pub(super) fn naming(q: &Query<'_>, rule: &'static Rule, opcode: Opcode) -> Self {
        Limitation {
            opcode: Some(opcode),
            ..Limitation::new(q, rule)
        }
    }

    /// Whether the rule tests the execution model (else the entry point's modes).
    fn tests_model(&self) -> bool {
        matches!(self.rule.test, Test::Model(_))
    }

    /// Whether execution model `m` breaks the rule (false for a mode rule).
    fn rejects_model(&self, m: M) -> bool {
        match self.rule.test {
            Test::Model(Only(list)) => !list.contains(&m),
            Test::Model(Not(list)) => list.contains(&m),
            Test::Mode(_) => false,
        }
    }

    /// Whether an entry point of `traits` breaks the rule (false for a model rule).
    fn rejects_entry(&self, traits: u8) -> bool {
        match self.rule.test {
            Test::Mode(Need::DerivativeGroup) => traits & NO_DERIVATIVE_GROUP != 0,
            Test::Mode(Need::Interlock) => traits & NO_INTERLOCK != 0,
            Test::Model(_) => false,
        }
    }

    /// Writes the rule's line: its VUID in a Vulkan environment, its text, the opcode
    /// it names, and a newline.
    fn write(&self, out: &mut String) {
        if let (Some(vuid), true) = (self.rule.vuid, self.vulkan) {
            out.push('[');
            out.push_str(vuid);
            out.push_str("] ");
        }
        let name = self.opcode.map(super::faults::opcode_name);
        if let (Some(name), true) = (name, self.rule.opcode_first) {
            out.push_str(name);
        }
        out.push_str(self.rule.text);
        if let (Some(name), false) = (name, self.rule.opcode_first) {
            out.push_str(name);
        }
        out.push('\n');
    }
}

/// An entry point without a derivative group mode though one of its models needs one.
const NO_DERIVATIVE_GROUP: u8 = 1;
/// An entry point without a fragment shader interlock mode.
const NO_INTERLOCK: u8 = 2;

/// The limitations registered so far, with the instruction that registered each (its
/// function is found when checking).
#[derive(Debug, Default)]
pub(crate) struct Limitations {
    /// (instruction index, phase, limitation): phase 0 for those spirv-val registers
    /// as it parses (storage classes), 1 in its first loop, 2 in its second.
    registered: Vec<(usize, u8, Limitation)>,
}

impl Limitations {
    /// Registers `limitation` on the function of instruction `inst`, from a pass of
    /// the second loop.
    pub(super) fn register(&mut self, inst: &Inst<'_>, limitation: Limitation) {
        self.registered.push((inst.index, 2, limitation));
    }
}

/// Registers on `q`'s limitations (a pass of the second loop).
pub(super) fn register(q: &Query<'_>, inst: &Inst<'_>, limitation: Limitation) {
    q.limitations.borrow_mut().register(inst, limitation);
}

/// What spirv-val registers before its second loop, for every instruction (those
/// outside functions are dropped when checking): as it parses, each id operand
/// (result type included) defined earlier as a pointer type or a variable registers
/// its storage class's limitation (`RegisterStorageClassConsumer`); then its control
/// flow pass registers those of the instructions that end a block.
#[inline]
pub(super) fn before_second_loop(q: &Query<'_>, inst: &Inst<'_>) {
    let vulkan = q.state.options.target_env.is_vulkan();
    storage_consumers(q, inst, vulkan);
    let rule = match inst.opcode {
        Opcode::Kill => &rules::KILL,
        Opcode::TerminateInvocation => &rules::TERMINATE_INVOCATION,
        Opcode::IgnoreIntersectionKHR => &rules::IGNORE_INTERSECTION,
        Opcode::TerminateRayKHR => &rules::TERMINATE_RAY,
        _ => return,
    };
    let limitation = Limitation {
        rule,
        opcode: None,
        vulkan,
    };
    q.limitations
        .borrow_mut()
        .registered
        .push((inst.index, 1, limitation));
}

/// `RegisterStorageClassConsumer` for each operand of `inst`.
fn storage_consumers(q: &Query<'_>, inst: &Inst<'_>, vulkan: bool) {
    use spv::StorageClass as S;
    for op in inst.operands {
        use crate::grammar::KindClass;
        if !matches!(op.kind.class, KindClass::Id | KindClass::ResultType) {
            continue;
        }
        let Some(&id) = inst.words.get(op.offset) else {
            continue;
        };
        let Some(def) = q.state.def(id) else { continue };
        if def.index as usize >= inst.index {
            continue; // spirv-val's first loop has not seen it yet
        }
        let class = match def.opcode {
            Opcode::TypePointer => q.word(id, 2),
            Opcode::Variable => q.word(id, 3),
            _ => None,
        };
        let Some(class) = class else { continue };
        let rule = match S(class) {
            S::Output if vulkan => &rules::OUTPUT_STORAGE,
            S::Workgroup if vulkan => &rules::WORKGROUP_STORAGE,
            S::CallableDataKHR => &rules::CALLABLE_DATA,
            S::IncomingCallableDataKHR => &rules::INCOMING_CALLABLE_DATA,
            S::RayPayloadKHR => &rules::RAY_PAYLOAD,
            S::HitAttributeKHR => &rules::HIT_ATTRIBUTE,
            S::IncomingRayPayloadKHR => &rules::INCOMING_RAY_PAYLOAD,
            S::ShaderRecordBufferKHR => &rules::SHADER_RECORD_BUFFER,
            S::TaskPayloadWorkgroupEXT => &rules::TASK_PAYLOAD,
            S::HitObjectAttributeNV => &rules::HIT_OBJECT_ATTRIBUTE_NV,
            S::HitObjectAttributeEXT => &rules::HIT_OBJECT_ATTRIBUTE_EXT,
            _ => continue,
        };
        let limitation = Limitation {
            rule,
            opcode: None,
            vulkan,
        };
        q.limitations
            .borrow_mut()
            .registered
            .push((inst.index, 0, limitation));
    }
}

/// The bit of execution model `m` in a set of models; models the rules do not name
/// share the last bit (every rule treats them alike).
fn model_bit(m: u32) -> u32 {
    const NAMED: [M; 18] = [
        M::Vertex,
        M::TessellationControl,
        M::TessellationEvaluation,
        M::Geometry,
        M::Fragment,
        M::GLCompute,
        M::Kernel,
        M::TaskNV,
        M::MeshNV,
        M::RayGenerationKHR,
        M::IntersectionKHR,
        M::AnyHitKHR,
        M::ClosestHitKHR,
        M::MissKHR,
        M::CallableKHR,
        M::TaskEXT,
        M::MeshEXT,
        M(u32::MAX),
    ];
    let i = NAMED
        .iter()
        .position(|n| n.0 == m)
        .unwrap_or(NAMED.len() - 1);
    1 << i
}

/// A model standing for the models of `bit` (the first it names).
fn model_of_bit(bits: u32) -> impl Iterator<Item = M> {
    const ALL: [u32; 18] = [
        0,
        1,
        2,
        3,
        4,
        5,
        6,
        5267,
        5268,
        5313,
        5314,
        5315,
        5316,
        5317,
        5318,
        5364,
        5365,
        u32::MAX,
    ];
    (0..18)
        .filter(move |i| bits & (1 << i) != 0)
        .map(|i| M(ALL[i]))
}

/// What one entry point function brings to the functions it reaches.
#[derive(Debug, Clone, Copy, Default)]
struct Reach {
    models: u32,
    traits: u8,
}

/// The check after the whole-module passes (`ValidateExecutionLimitations`, over
/// every `OpFunction` in order): the first function an entry point reaching it cannot
/// use. spirv-val stops validating at this fault.
pub(super) fn check(
    q: &Query<'_>,
    calls: &EntryCalls,
    sink: &mut dyn FnMut(Fault) -> bool,
) -> ControlFlow<()> {
    let limits = q.limitations.borrow();
    if limits.registered.is_empty() || calls.entries.is_empty() {
        return ControlFlow::Continue(());
    }
    // Each function's limitations, in spirv-val's order: the first loop's, then the
    // second's, each in instruction order.
    let starts: Vec<usize> = calls.functions.iter().map(|f| f.body.start).collect();
    let mut by_function: BTreeMap<usize, Vec<(u8, Limitation)>> = BTreeMap::new();
    for &(index, phase, limitation) in &limits.registered {
        let k = starts.partition_point(|&s| s <= index);
        let Some(f) = k.checked_sub(1) else { continue };
        if calls.functions[f].body.contains(&index) {
            by_function.entry(f).or_default().push((phase, limitation));
        }
    }
    if by_function.is_empty() {
        return ControlFlow::Continue(());
    }
    for list in by_function.values_mut() {
        list.sort_by_key(|&(phase, _)| phase);
    }
    // Each entry point function's models and traits.
    let (models, traits) = entry_facts(q, calls);
    // What reaches each function, propagated over the call graph.
    let n = calls.functions.len();
    let mut reach = alloc::vec![Reach::default(); n];
    let mut stack: Vec<usize> = Vec::new();
    for (&function, set) in &models {
        let Some(f) = calls.function(function) else {
            continue;
        };
        let add = Reach {
            models: set.iter().fold(0, |m, &x| m | model_bit(x)),
            traits: traits.get(&function).copied().unwrap_or(0),
        };
        if merge(&mut reach[f], add) {
            stack.push(f);
        }
        while let Some(g) = stack.pop() {
            let from = reach[g];
            for &callee in &calls.functions[g].calls {
                if let Some(h) = calls.function(callee) {
                    if merge(&mut reach[h], from) {
                        stack.push(h);
                    }
                }
            }
        }
    }
    for (&f, list) in &by_function {
        let r = reach[f];
        let may_fail = list.iter().any(|(_, l)| {
            l.rejects_entry(r.traits) || model_of_bit(r.models).any(|m| l.rejects_model(m))
        });
        if !may_fail {
            continue;
        }
        if let Some(fault) = first_fault(q, calls, f, list, &models, &traits) {
            sink(fault);
            return ControlFlow::Break(());
        }
    }
    ControlFlow::Continue(())
}

/// Adds `add` to `into`; true when it grew.
fn merge(into: &mut Reach, add: Reach) -> bool {
    let grown = Reach {
        models: into.models | add.models,
        traits: into.traits | add.traits,
    };
    let changed = grown.models != into.models || grown.traits != into.traits;
    *into = grown;
    changed
}

/// The models of each entry point function (`GetExecutionModels`, ascending) and its
/// traits (the modes its models lack).
fn entry_facts(
    q: &Query<'_>,
    calls: &EntryCalls,
) -> (BTreeMap<u32, BTreeSet<u32>>, BTreeMap<u32, u8>) {
    let mut models: BTreeMap<u32, BTreeSet<u32>> = BTreeMap::new();
    for e in &calls.entries {
        models.entry(e.function).or_default().insert(e.model);
    }
    let mut has: BTreeMap<u32, (bool, bool)> = BTreeMap::new();
    for inst in q.module.instructions() {
        if !matches!(
            inst.opcode(),
            Opcode::ExecutionMode | Opcode::ExecutionModeId
        ) {
            continue;
        }
        let w = inst.words();
        let (Some(&target), Some(&mode)) = (w.get(1), w.get(2)) else {
            continue;
        };
        if !models.contains_key(&target) {
            continue;
        }
        let entry = has.entry(target).or_default();
        match Mode(mode) {
            Mode::DerivativeGroupQuadsKHR | Mode::DerivativeGroupLinearKHR => entry.0 = true,
            Mode::PixelInterlockOrderedEXT
            | Mode::PixelInterlockUnorderedEXT
            | Mode::SampleInterlockOrderedEXT
            | Mode::SampleInterlockUnorderedEXT
            | Mode::ShadingRateInterlockOrderedEXT
            | Mode::ShadingRateInterlockUnorderedEXT => entry.1 = true,
            _ => {}
        }
    }
    let traits = models
        .iter()
        .map(|(&function, set)| {
            let (derivative, interlock) = has.get(&function).copied().unwrap_or_default();
            let needs = set
                .iter()
                .any(|&m| matches!(M(m), M::GLCompute | M::MeshEXT | M::TaskEXT));
            let mut t = 0;
            if needs && !derivative {
                t |= NO_DERIVATIVE_GROUP;
            }
            if !interlock {
                t |= NO_INTERLOCK;
            }
            (function, t)
        })
        .collect();
    (models, traits)
}

/// The fault spirv-val reports at function `f` (by position), if any: the first entry
/// point reaching it (in `OpEntryPoint` order) whose models, then whose modes, it
/// breaks.
fn first_fault(
    q: &Query<'_>,
    calls: &EntryCalls,
    f: usize,
    list: &[(u8, Limitation)],
    models: &BTreeMap<u32, BTreeSet<u32>>,
    traits: &BTreeMap<u32, u8>,
) -> Option<Fault> {
    // The functions that reach `f`: a walk back over the callers.
    let n = calls.functions.len();
    let mut callers: Vec<Vec<usize>> = alloc::vec![Vec::new(); n];
    for (g, func) in calls.functions.iter().enumerate() {
        for &callee in &func.calls {
            if let Some(h) = calls.function(callee) {
                callers[h].push(g);
            }
        }
    }
    let mut reaches = alloc::vec![false; n];
    reaches[f] = true;
    let mut stack = alloc::vec![f];
    while let Some(g) = stack.pop() {
        for &c in &callers[g] {
            if !reaches[c] {
                reaches[c] = true;
                stack.push(c);
            }
        }
    }
    let function = q.module.instruction(calls.functions[f].body.start - 1)?;
    let function = function.result_id()?;
    for e in &calls.entries {
        if !calls.function(e.function).is_some_and(|g| reaches[g]) {
            continue;
        }
        let entry = Id(e.function);
        for &m in models.get(&e.function).into_iter().flatten() {
            let mut reasons = String::new();
            list.iter()
                .filter(|(_, l)| l.tests_model() && l.rejects_model(M(m)))
                .for_each(|(_, l)| l.write(&mut reasons));
            if !reasons.is_empty() {
                let kind = LimitationError::Model {
                    entry,
                    function,
                    reasons,
                };
                return Some(Fault::at(
                    kind.into(),
                    calls.functions[f].body.start as u32 - 1,
                ));
            }
        }
        let t = traits.get(&e.function).copied().unwrap_or(0);
        let mut reasons = String::new();
        list.iter()
            .filter(|(_, l)| l.rejects_entry(t))
            .for_each(|(_, l)| l.write(&mut reasons));
        if !reasons.is_empty() {
            let kind = LimitationError::Modes {
                entry,
                function,
                reasons,
            };
            return Some(Fault::at(
                kind.into(),
                calls.functions[f].body.start as u32 - 1,
            ));
        }
    }
    None
}

/// What this family checks (see [`coverage`](crate::validate::coverage)).
pub(crate) const COVERAGE: crate::validate::coverage::Family =
    crate::validate::coverage::Family::new(
        "execution-model limitations",
        "validate_execution_limitations.cpp",
    );
