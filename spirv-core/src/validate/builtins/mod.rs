//! spirv-val's built-in rules (`ValidateBuiltIns` in `validate_builtins.cpp`), the
//! engine: each `BuiltIn` decoration is checked at its definition (in id order) and
//! seeds rules on its id; then every instruction that names an id with rules is
//! checked against them, in module order, knowing the execution models of the
//! function it is in; a rule that holds on a global instruction passes on to that
//! instruction's result (a struct type to its pointer type, to its variable). The
//! rules of each built-in are in [`rules`] and the modules it names; spirv-val has
//! none for the other built-ins (all rules but `WorkgroupSize`'s hold only under
//! Vulkan). Its faults are [`BuiltInError`]'s table.

mod guards;
mod meshext;
mod pervertex;
mod primitive;
mod raytracing;
mod rules;
mod subgroup;
mod vuids;

use super::error::ValidationErrorKind;
use super::faults::faults;
use super::validation_state::{EntryCalls, IdBits, NO_MEMBER};
use super::{Fault, Query};
use crate::__private::Vec;
use crate::grammar::KindClass;
use crate::spv::{self, Opcode as O};
use crate::types::Id;
use alloc::collections::{BTreeMap, BTreeSet};

faults! {
    /// A fault of spirv-val's built-in rules (`validate_builtins.cpp`). The VUID of a
    /// built-in's rule depends on the built-in: the rows that differ by built-in carry
    /// it (`vuid`, `None` where spirv-val prints none).
    pub enum BuiltInError {
        // --- The decorated instruction (`GetUnderlyingType`). ---
        /// `BuiltIn` on a member of what is not a struct.
        MemberOfNonStruct {
            /// The decorated instruction.
            subject: BuiltInSubject,
        } => "{subject}Attempted to get underlying data type via member index for non-struct type.",
        /// `BuiltIn` on a struct type, not on one of its members.
        StructWithoutMember {
            /// The decorated instruction.
            subject: BuiltInSubject,
        } => "{subject} did not find an member index to get underlying data type for struct type.",
        /// `BuiltIn` on what is neither a struct type, a variable nor a constant.
        NotVariable {
            /// The decorated instruction.
            subject: BuiltInSubject,
        } => "{subject} is decorated with BuiltIn. BuiltIn decoration should only be applied to struct types, variables and constants.",

        // --- At the definition. ---
        /// A built-in of the wrong type.
        #[vuid = vuid]
        WrongType {
            /// The rule's VUID.
            vuid: Option<&'static str>,
            /// The built-in.
            builtin: spv::BuiltIn,
            /// The type it needs, as spirv-val words it.
            needs: &'static str,
            /// What is wrong with the type it has.
            problem: BuiltInTypeProblem,
        } => "According to the Vulkan spec BuiltIn {builtin} variable needs to be a {needs}. {problem}",
        /// `VertexId` in Vulkan.
        VertexId => "Vulkan spec doesn't allow BuiltIn VertexId to be used.",
        /// `TessLevelOuter` or `TessLevelInner` without `Patch`.
        #[vuid = "VUID-StandaloneSpirv-TessLevelInner-10880"]
        TessLevelNotPatch {
            /// The built-in.
            builtin: spv::BuiltIn,
        } => "BuiltIn {builtin} variable needs to also have a Patch decoration.",
        /// A subgroup built-in on a struct member.
        MemberDecoration {
            /// The built-in.
            builtin: spv::BuiltIn,
        } => "BuiltIn {builtin} cannot be used as a member decoration ",
        /// `WorkgroupSize` on what is not a constant.
        #[vuid = "VUID-WorkgroupSize-WorkgroupSize-04426"]
        WorkgroupSizeNotConstant {
            /// The decorated instruction.
            subject: BuiltInSubject,
        } => "Vulkan spec requires BuiltIn WorkgroupSize to be a constant. {subject} is not a constant.",
        /// A `WorkgroupSize` whose sizes multiply to zero.
        WorkgroupSizeZero {
            /// X.
            x: u64,
            /// Y.
            y: u64,
            /// Z.
            z: u64,
        } => "WorkgroupSize decorations must not have a static product of zero (X = {x}, Y = {y}, Z = {z}).",
        /// A `WorkgroupSize` with an odd X or Y, and `DerivativeGroupQuadsKHR`.
        #[vuid = "VUID-StandaloneSpirv-DerivativeGroupQuadsKHR-10151"]
        WorkgroupSizeQuads {
            /// X.
            x: u64,
            /// Y.
            y: u64,
            /// The entry point with the mode.
            entry: Id,
        } => "WorkgroupSize decorations has a static dimensions of (X = {x}, Y = {y}) but Entry Point id {entry:n} has an DerivativeGroupQuadsKHR execution mode, so both dimensions must be a multiple of 2",
        /// A `WorkgroupSize` whose product is not a multiple of 4, and
        /// `DerivativeGroupLinearKHR`.
        #[vuid = "VUID-StandaloneSpirv-DerivativeGroupLinearKHR-10152"]
        WorkgroupSizeLinear {
            /// X.
            x: u64,
            /// Y.
            y: u64,
            /// Z.
            z: u64,
            /// The entry point with the mode.
            entry: Id,
            /// The product.
            product: u64,
        } => "WorkgroupSize decorations has a static dimensions of (X = {x}, Y = {y}, Z = {z}) but Entry Point id {entry:n} has an DerivativeGroupLinearKHR execution mode, so the product ({product}) must be a multiple of 4",

        // --- At a reference. ---
        /// A reference through a pointer of a storage class the built-in may not have.
        #[vuid = vuid]
        WrongStorageClass {
            /// The rule's VUID.
            vuid: Option<&'static str>,
            /// The built-in.
            builtin: spv::BuiltIn,
            /// The storage classes it may have, as spirv-val words them.
            allowed: &'static str,
            /// The reference.
            reference: BuiltInReference,
            /// The referencing instruction.
            from: BuiltInSubject,
            /// Its storage class.
            class: spv::StorageClass,
        } => "Vulkan spec allows BuiltIn {builtin} to be only used for variables with {allowed} storage class. {reference} {from} uses storage class {class}.",
        /// A reference from a function run under an execution model the built-in does not
        /// allow.
        #[vuid = vuid]
        WrongModel {
            /// The rule's VUID.
            vuid: Option<&'static str>,
            /// The built-in.
            builtin: spv::BuiltIn,
            /// The execution models it allows, as spirv-val words them.
            allowed: &'static str,
            /// The reference.
            reference: BuiltInReference,
        } => "Vulkan spec allows BuiltIn {builtin} to be used only with {allowed}. {reference}",
        /// A ray tracing built-in used under an execution model it does not allow.
        #[vuid = vuid]
        RayTracingModel {
            /// The rule's VUID.
            vuid: Option<&'static str>,
            /// The built-in.
            builtin: spv::BuiltIn,
            /// The execution model.
            model: spv::ExecutionModel,
            /// The reference.
            reference: BuiltInReference,
        } => "Vulkan spec does not allow BuiltIn {builtin} to be used with the execution model {model}.\n{reference}",
        /// A reference from a function run under an execution model the built-in
        /// refuses.
        #[vuid = vuid]
        RefusedModel {
            /// The rule's VUID.
            vuid: Option<&'static str>,
            /// The built-in.
            builtin: spv::BuiltIn,
            /// The execution models it refuses, as spirv-val words them.
            refused: &'static str,
            /// The reference.
            reference: BuiltInReference,
        } => "Vulkan spec allows BuiltIn {builtin} to be not be used with {refused}. {reference}",
        /// `FragDepth` in an entry point without `DepthReplacing`.
        #[vuid = "VUID-FragDepth-FragDepth-04216"]
        FragDepthNotReplacing {
            /// The reference.
            reference: BuiltInReference,
        } => "Vulkan spec requires DepthReplacing execution mode to be declared when using BuiltIn FragDepth. {reference}",
        /// `Layer` in a vertex or tessellation shader without the capability.
        #[vuid = vuid]
        LayerCapability {
            /// The rule's VUID.
            vuid: Option<&'static str>,
            /// The built-in.
            builtin: spv::BuiltIn,
            /// The capabilities that would allow it, as spirv-val words them.
            capabilities: &'static str,
        } => "Using BuiltIn {builtin} in Vertex or Tessellation execution model requires the {capabilities} capability.",

        // --- The rules left on the ids a built-in reaches. ---
        /// `Position` through an `Input` pointer under a model that does not allow it.
        #[vuid = vuid]
        PositionInput {
            /// The rule's VUID.
            vuid: Option<&'static str>,
            /// The execution model.
            model: spv::ExecutionModel,
            /// The use.
            use_: BuiltInUse,
        } => "Vulkan spec doesn't allow BuiltIn Position to be used for variables with Input storage class if execution model is {model}. {use_}",
        /// `PointSize` through an `Input` pointer under a model that does not allow it.
        #[vuid = vuid]
        PointSizeInput {
            /// The rule's VUID.
            vuid: Option<&'static str>,
            /// The execution model.
            model: spv::ExecutionModel,
            /// The use.
            use_: BuiltInUse,
        } => "Vulkan spec doesn't allow BuiltIn PointSize to be used for variables with Input storage class if execution model is {model}. {use_}",
        /// A distance through an `Input` pointer under a model that does not allow it.
        #[vuid = vuid]
        DistanceInput {
            /// The rule's VUID.
            vuid: Option<&'static str>,
            /// The execution model.
            model: spv::ExecutionModel,
            /// The use.
            use_: BuiltInUse,
        } => "Vulkan spec doesn't allow BuiltIn ClipDistance/CullDistance to be used for variables with Input storage class if execution model is {model}. {use_}",
        /// A distance through an `Output` pointer under a model that does not allow it.
        #[vuid = vuid]
        DistanceOutput {
            /// The rule's VUID.
            vuid: Option<&'static str>,
            /// The execution model.
            model: spv::ExecutionModel,
            /// The use.
            use_: BuiltInUse,
        } => "Vulkan spec doesn't allow BuiltIn ClipDistance/CullDistance to be used for variables with Output storage class if execution model is {model}. {use_}",
        /// `Layer` or `ViewportIndex` through an `Input` pointer outside fragment
        /// shaders.
        #[vuid = vuid]
        LayerInput {
            /// The rule's VUID.
            vuid: Option<&'static str>,
            /// The use.
            use_: BuiltInUse,
        } => "Vulkan spec doesn't allow BuiltIn Layer and ViewportIndex to be used for variables with Input storage class if execution model is Vertex, TessellationEvaluation, Geometry, MeshNV or MeshEXT. {use_}",
        /// `Layer` or `ViewportIndex` through an `Output` pointer in a fragment shader.
        #[vuid = vuid]
        LayerOutput {
            /// The rule's VUID.
            vuid: Option<&'static str>,
            /// The use.
            use_: BuiltInUse,
        } => "Vulkan spec doesn't allow BuiltIn Layer and ViewportIndex to be used for variables with Output storage class if execution model is Fragment. {use_}",
        /// A tessellation level through an `Input` pointer in a control shader.
        #[vuid = vuid]
        TessLevelInput {
            /// The rule's VUID.
            vuid: Option<&'static str>,
            /// The use.
            use_: BuiltInUse,
        } => "Vulkan spec doesn't allow TessLevelOuter/TessLevelInner to be used for variables with Input storage class if execution model is TessellationControl. {use_}",
        /// A tessellation level through an `Output` pointer in an evaluation shader.
        #[vuid = vuid]
        TessLevelOutput {
            /// The rule's VUID.
            vuid: Option<&'static str>,
            /// The use.
            use_: BuiltInUse,
        } => "Vulkan spec doesn't allow TessLevelOuter/TessLevelInner to be used for variables with Output storage class if execution model is TessellationEvaluation. {use_}",
        /// `PrimitiveId` through an `Output` pointer under a model that does not allow it.
        #[vuid = vuid]
        PrimitiveIdOutput {
            /// The rule's VUID.
            vuid: Option<&'static str>,
            /// The execution model.
            model: spv::ExecutionModel,
            /// The use.
            use_: BuiltInUse,
        } => "Vulkan spec doesn't allow BuiltIn PrimitiveId to be used for variables with Output storage class if execution model is {model}. {use_}",
        /// `PrimitiveId` in a fragment shader without the capabilities that give it.
        #[vuid = vuid]
        PrimitiveIdFragment {
            /// The rule's VUID.
            vuid: Option<&'static str>,
            /// The use.
            use_: BuiltInUse,
        } => "Vulkan spec doesn't allow BuiltIn PrimitiveId to be used for variables in the Fragment execution model unless it declares Geometry, Tessellation, or MeshShader capabilities. {use_}",
        /// A per-primitive built-in outside MeshEXT that is not a 32-bit int.
        #[vuid = vuid]
        NonMeshType {
            /// The rule's VUID.
            vuid: Option<&'static str>,
            /// The built-in.
            builtin: spv::BuiltIn,
            /// What is wrong with the type.
            problem: BuiltInTypeProblem,
        } => "According to the Vulkan spec BuiltIn {builtin}variable needs to be a 32-bit int scalar. {problem}",
        /// A per-primitive built-in of MeshEXT that is not a scalar (an int, or a bool
        /// for `CullPrimitiveEXT`) or an array of them.
        #[vuid = vuid]
        MeshType {
            /// The rule's VUID.
            vuid: Option<&'static str>,
            /// The built-in.
            builtin: spv::BuiltIn,
            /// The scalar type it needs, as spirv-val words it.
            scalar: &'static str,
            /// What is wrong with the type.
            problem: BuiltInTypeProblem,
        } => "According to the Vulkan specspec BuiltIn {builtin} variable needs to be a either a {scalar} or an array of {scalar}. {problem}",
        /// A per-primitive built-in of MeshEXT without `PerPrimitiveEXT`.
        #[vuid = vuid]
        MeshPerPrimitive {
            /// The rule's VUID.
            vuid: Option<&'static str>,
            /// The built-in.
            builtin: spv::BuiltIn,
        } => "According to the Vulkan spec the variable decorated with Builtin {builtin} within the MeshEXT Execution Model must also be decorated with the PerPrimitiveEXT decoration. ",
        /// A MeshEXT primitive-indices built-in of the wrong type (spirv-val puts no
        /// space before the problem).
        #[vuid = vuid]
        IndicesType {
            /// The rule's VUID.
            vuid: Option<&'static str>,
            /// The built-in.
            builtin: spv::BuiltIn,
            /// The type it needs, as spirv-val words it.
            needs: &'static str,
            /// What is wrong with the type it has.
            problem: BuiltInTypeProblem,
        } => "According to the Vulkan spec BuiltIn {builtin} variable needs to be a {needs}.{problem}",
        /// A primitive-indices built-in with a mesh entry point lacking the output
        /// mode that matches it.
        #[vuid = vuid]
        IndicesMode {
            /// The rule's VUID.
            vuid: Option<&'static str>,
            /// The built-in.
            builtin: spv::BuiltIn,
            /// The execution mode, as spirv-val words it.
            mode: &'static str,
        } => "The {builtin} decoration must be used with the {mode} Execution Mode. ",
        /// A primitive-indices array whose size is not a mesh entry point's
        /// `OutputPrimitivesEXT`.
        #[vuid = vuid]
        IndicesArraySize {
            /// The rule's VUID.
            vuid: Option<&'static str>,
            /// The built-in.
            builtin: spv::BuiltIn,
        } => "The size of the array decorated with {builtin} must match the value specified by OutputPrimitivesEXT. ",
        /// A second `CullPrimitiveEXT` in a mesh entry point's interface.
        #[vuid = "VUID-CullPrimitiveEXT-CullPrimitiveEXT-10591"]
        CullPrimitiveTwice {
            /// The entry point.
            entry: BuiltInSubject,
        } => "There must be only one declaration of the CullPrimitiveEXT associated in entry point's interface. {entry}",
        /// A per-primitive array of MeshEXT whose size is not `OutputPrimitivesEXT`.
        #[vuid = vuid]
        MeshArraySize {
            /// The rule's VUID.
            vuid: Option<&'static str>,
            /// The built-in.
            builtin: spv::BuiltIn,
            /// The array's size.
            size: u64,
            /// `OutputPrimitivesEXT`.
            primitives: u32,
        } => " The size of the array decorated with {builtin} ({size}) must match the value specified by OutputPrimitivesEXT ({primitives}). ",
    }
}

faults! {
    @description
    /// An instruction as spirv-val's built-in rules describe it (`GetIdDesc`,
    /// `GetDefinitionDesc`).
    pub enum BuiltInSubject {
        /// An instruction.
        Id {
            /// Its result id.
            id: Id,
            /// Its opcode.
            opcode: spv::Opcode,
        } => "ID <{id:n}> (Op{opcode})",
        /// A struct member.
        Member {
            /// The member.
            member: u32,
            /// The struct type.
            id: Id,
        } => "Member #{member} of struct ID <{id:n}>",
    }
}

faults! {
    @description
    /// What is wrong with a built-in's type, as spirv-val's built-in rules say it.
    pub enum BuiltInTypeProblem {
        /// Not a bool scalar.
        NotBoolScalar { subject: BuiltInSubject } => "{subject} is not a bool scalar.",
        /// Not an int scalar.
        NotIntScalar { subject: BuiltInSubject } => "{subject} is not an int scalar.",
        /// Not a float scalar.
        NotFloatScalar { subject: BuiltInSubject } => "{subject} is not a float scalar.",
        /// Not an int vector.
        NotIntVector { subject: BuiltInSubject } => "{subject} is not an int vector.",
        /// Not a float vector.
        NotFloatVector { subject: BuiltInSubject } => "{subject} is not a float vector.",
        /// Not an array.
        NotArray { subject: BuiltInSubject } => "{subject} is not an array.",
        /// An array of other than int scalars.
        NotIntComponents { subject: BuiltInSubject } => "{subject} components are not int scalar.",
        /// An array of other than float scalars.
        NotFloatComponents { subject: BuiltInSubject } => "{subject} components are not float scalar.",
        /// A scalar of another width.
        BitWidth { subject: BuiltInSubject, width: u32 } => "{subject} has bit width {width}.",
        /// Components of another width.
        ComponentBitWidth { subject: BuiltInSubject, width: u32 } => "{subject} has components with bit width {width}.",
        /// Another number of components.
        Components { subject: BuiltInSubject, count: u64 } => "{subject} has {count} components.",
        /// A matrix of another shape than 4 columns of 3.
        MatrixShape { subject: BuiltInSubject, columns: u32, rows: u32 } => "{subject} has columns {columns} and rows {rows} not equal to expected 4x3.",
        /// An array whose length is not a constant.
        NoArrayLength { subject: BuiltInSubject } => "{subject} Failed to find the array length.",
        /// A scalar outside a block.
        NotInBlock { subject: BuiltInSubject } => "{subject} Scalar boolean must be in a Block.",
        /// Not an integer scalar.
        NotIntegerScalar { subject: BuiltInSubject } => "{subject} is not an integer scalar.",
    }
}

faults! {
    @description
    /// A reference to a built-in, as spirv-val's `GetReferenceDesc` words it: the
    /// instruction, the id it names, the built-in that id depends on where that is
    /// another, and the function and execution model where it is in one.
    pub enum BuiltInReference {
        /// Outside functions.
        Global {
            /// The referencing instruction.
            from: BuiltInSubject,
            /// The id it names.
            referenced: BuiltInSubject,
            /// The built-in.
            builtin: spv::BuiltIn,
        } => "{from} is referencing {referenced} which is decorated with BuiltIn {builtin}.",
        /// Outside functions, through another id.
        GlobalDependent {
            /// The referencing instruction.
            from: BuiltInSubject,
            /// The id it names.
            referenced: BuiltInSubject,
            /// The decorated instruction.
            decorated: BuiltInSubject,
            /// The built-in.
            builtin: spv::BuiltIn,
        } => "{from} is referencing {referenced} which is dependent on {decorated} which is decorated with BuiltIn {builtin}.",
        /// In a function.
        InFunction {
            /// The referencing instruction.
            from: BuiltInSubject,
            /// The id it names.
            referenced: BuiltInSubject,
            /// The built-in.
            builtin: spv::BuiltIn,
            /// The function.
            function: Id,
        } => "{from} is referencing {referenced} which is decorated with BuiltIn {builtin} in function <{function:n}>.",
        /// In a function, through another id.
        InFunctionDependent {
            /// The referencing instruction.
            from: BuiltInSubject,
            /// The id it names.
            referenced: BuiltInSubject,
            /// The decorated instruction.
            decorated: BuiltInSubject,
            /// The built-in.
            builtin: spv::BuiltIn,
            /// The function.
            function: Id,
        } => "{from} is referencing {referenced} which is dependent on {decorated} which is decorated with BuiltIn {builtin} in function <{function:n}>.",
        /// In a function run under an execution model.
        Called {
            /// The referencing instruction.
            from: BuiltInSubject,
            /// The id it names.
            referenced: BuiltInSubject,
            /// The built-in.
            builtin: spv::BuiltIn,
            /// The function.
            function: Id,
            /// The execution model.
            model: spv::ExecutionModel,
        } => "{from} is referencing {referenced} which is decorated with BuiltIn {builtin} in function <{function:n}> called with execution model {model}.",
        /// In a function run under an execution model, through another id.
        CalledDependent {
            /// The referencing instruction.
            from: BuiltInSubject,
            /// The id it names.
            referenced: BuiltInSubject,
            /// The decorated instruction.
            decorated: BuiltInSubject,
            /// The built-in.
            builtin: spv::BuiltIn,
            /// The function.
            function: Id,
            /// The execution model.
            model: spv::ExecutionModel,
        } => "{from} is referencing {referenced} which is dependent on {decorated} which is decorated with BuiltIn {builtin} in function <{function:n}> called with execution model {model}.",
    }
}

faults! {
    @description
    /// A later use of an id that depends on a built-in, as the rules a built-in leaves
    /// behind describe it (`ValidateNotCalledWithExecutionModel`).
    pub enum BuiltInUse {
        /// The use.
        Later {
            /// The id that depends on the built-in.
            referenced: BuiltInSubject,
            /// The decorated instruction.
            decorated: BuiltInSubject,
            /// The built-in.
            builtin: spv::BuiltIn,
            /// The id again, as a number.
            id: Id,
            /// The using instruction.
            from: BuiltInSubject,
            /// Its function.
            function: Id,
            /// The execution model it runs under.
            model: spv::ExecutionModel,
        } => "{referenced} depends on {decorated} which is decorated with BuiltIn {builtin}. Id <{id:n}> is later referenced by {from} in function <{function:n}> which is called with execution model {model}.",
    }
}

/// The built-ins whose rules the validator checks (spirv-val's `validate_builtins.cpp`):
/// the type at the definition, the storage class and execution models at each use, all
/// but `WorkgroupSize`'s under Vulkan alone. spirv-val has no rules for the other
/// built-ins. `docs/validator.md` lists the same built-ins (a test keeps the two in
/// agreement).
pub const CHECKED_BUILT_INS: &[spv::BuiltIn] = {
    use spv::BuiltIn as B;
    &[
        B::FragCoord,
        B::FragDepth,
        B::FrontFacing,
        B::HelperInvocation,
        B::InvocationId,
        B::InstanceIndex,
        B::VertexIndex,
        B::PatchVertices,
        B::PointCoord,
        B::SampleId,
        B::SampleMask,
        B::SamplePosition,
        B::TessCoord,
        B::LocalInvocationIndex,
        B::GlobalInvocationId,
        B::LocalInvocationId,
        B::NumWorkgroups,
        B::WorkgroupId,
        B::BaseInstance,
        B::BaseVertex,
        B::DrawIndex,
        B::NumSubgroups,
        B::SubgroupId,
        B::WorkgroupSize,
        B::VertexId,
        B::TessLevelOuter,
        B::TessLevelInner,
        B::Position,
        B::PointSize,
        B::ClipDistance,
        B::CullDistance,
        B::PrimitiveId,
        B::Layer,
        B::ViewportIndex,
        B::HitTNV,
        B::RayTminKHR,
        B::RayTmaxKHR,
        B::HitKindKHR,
        B::InstanceCustomIndexKHR,
        B::InstanceId,
        B::RayGeometryIndexKHR,
        B::IncomingRayFlagsKHR,
        B::CullMaskKHR,
        B::ObjectRayDirectionKHR,
        B::ObjectRayOriginKHR,
        B::WorldRayDirectionKHR,
        B::WorldRayOriginKHR,
        B::LaunchIdKHR,
        B::LaunchSizeKHR,
        B::ObjectToWorldKHR,
        B::WorldToObjectKHR,
        B::SubgroupLocalInvocationId,
        B::SubgroupSize,
        B::SubgroupEqMask,
        B::SubgroupGeMask,
        B::SubgroupGtMask,
        B::SubgroupLeMask,
        B::SubgroupLtMask,
        B::ViewIndex,
        B::DeviceIndex,
        B::FragInvocationCountEXT,
        B::FragSizeEXT,
        B::FragStencilRefEXT,
        B::FullyCoveredEXT,
        B::BaryCoordKHR,
        B::BaryCoordNoPerspKHR,
        B::ShadingRateKHR,
        B::CoreIDARM,
        B::CoreCountARM,
        B::CoreMaxIDARM,
        B::WarpIDARM,
        B::WarpMaxIDARM,
        B::WarpsPerSMNV,
        B::SMCountNV,
        B::WarpIDNV,
        B::SMIDNV,
        B::PrimitivePointIndicesEXT,
        B::PrimitiveLineIndicesEXT,
        B::PrimitiveTriangleIndicesEXT,
        B::CullPrimitiveEXT,
        B::PrimitiveShadingRateKHR,
    ]
};

/// A `BuiltIn` decoration: which built-in, and the struct member (-1 for none).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Dec {
    pub(super) builtin: u32,
    pub(super) member: i64,
}

/// A rule waiting on an id: the decoration, the decorated instruction, the id that
/// led to it (`referenced_inst`), and what it checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Rule {
    pub(super) dec: Dec,
    pub(super) built_in: u32,
    pub(super) referenced: u32,
    pub(super) check: Check,
}

/// What a rule checks: the built-in's own rule, or one that a rule leaves behind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Check {
    Own,
    /// `ValidateNotCalledWithExecutionModel`: not under this execution model (the
    /// VUID tells the message).
    NotWith {
        model: u32,
        vuid: u32,
    },
    /// `ValidateMeshBuiltinInterfaceRules` (integer built-ins).
    Mesh,
    /// `ValidateNonMeshInterfaceRules`.
    NonMesh,
    /// `ValidatePrimitiveShadingRateInterfaceRules`.
    ShadingRate,
}

/// The state of the walk: what spirv-val's `BuiltInsValidator` keeps.
pub(super) struct Walk<'q, 'a> {
    pub(super) q: &'q Query<'a>,
    pub(super) vulkan: bool,
    /// Rules by the id they wait on, in the order they were added.
    rules: BTreeMap<u32, Vec<Rule>>,
    added: BTreeSet<(u32, Rule)>,
    /// The ids with rules: the walk at reference skips, undecoded, an instruction
    /// that names none.
    keyed: IdBits,
    /// The function being walked, 0 outside functions.
    pub(super) function: u32,
    /// Of the entry points that reach it (`FunctionEntryPoints`), one without
    /// `DepthReplacing` if any: all that spirv-val's rules ask of the list beyond
    /// its models (the FragDepth rule fails on any such entry point, naming none).
    pub(super) entry_points: Vec<u32>,
    /// The execution models they have, ascending.
    pub(super) models: BTreeSet<u32>,
    /// Execution modes by entry point.
    pub(super) modes: BTreeMap<u32, BTreeSet<u32>>,
    /// All entry points, in `OpEntryPoint` order.
    pub(super) all_entry_points: Vec<u32>,
    /// The instruction a rule is being run on (`referenced_from_inst`): its opcode and
    /// index, which instructions without a result id need.
    pub(super) from_op: O,
    pub(super) from_index: u32,
    /// What the rules keep between instructions.
    pub(super) cache: guards::Cache,
}

impl Walk<'_, '_> {
    /// Leaves `check` of `rule`'s built-in on `from`, the id the rule was just run on,
    /// for the instructions that use it.
    pub(super) fn leave(&mut self, from: u32, rule: &Rule, check: Check) {
        let left = Rule {
            referenced: from,
            check,
            ..*rule
        };
        self.add(from, left);
    }

    /// Adds a rule on `id` (`id_to_at_reference_checks_[id].push_back`); a rule already
    /// there would only repeat its verdict.
    pub(super) fn add(&mut self, id: u32, rule: Rule) {
        if self.added.insert((id, rule)) {
            self.rules.entry(id).or_default().push(rule);
            self.keyed.insert(id);
        }
    }

    /// `kind` at instruction `id`'s definition.
    pub(super) fn fault(&self, id: u32, kind: BuiltInError) -> Fault {
        let at = self.q.state.def(id).map_or(0, |d| d.index);
        Fault::at(
            ValidationErrorKind::BuiltIn(alloc::boxed::Box::new(kind)),
            at,
        )
    }

    /// `kind` at the instruction a rule is being run on.
    pub(super) fn fault_from(&self, kind: BuiltInError) -> Fault {
        Fault::at(
            ValidationErrorKind::BuiltIn(alloc::boxed::Box::new(kind)),
            self.from_index,
        )
    }
}

/// Checks the module; hands each fault to `report`, which says whether to go on.
pub(super) fn check(q: &Query<'_>, calls: &EntryCalls, report: &mut dyn FnMut(Fault) -> bool) {
    let mut modes: BTreeMap<u32, BTreeSet<u32>> = BTreeMap::new();
    for inst in q.module.instructions() {
        if matches!(inst.opcode(), O::ExecutionMode | O::ExecutionModeId) {
            let w = inst.words();
            if let (Some(&e), Some(&m)) = (w.get(1), w.get(2)) {
                modes.entry(e).or_default().insert(m);
            }
        }
    }
    let mut walk = Walk {
        q,
        vulkan: q.state.options.target_env.is_vulkan(),
        rules: BTreeMap::new(),
        added: BTreeSet::new(),
        keyed: IdBits::new(q.state),
        function: 0,
        entry_points: Vec::new(),
        models: BTreeSet::new(),
        modes,
        all_entry_points: calls.entries.iter().map(|d| d.function).collect(),
        from_op: O::Nop,
        from_index: 0,
        cache: guards::Cache::default(),
    };
    // At definition, by id.
    let mut decorated: Vec<(u32, Dec)> = Vec::new();
    let mut found = Vec::new();
    for id in q.decorations.targets() {
        q.decorations
            .collect(id, &[spv::Decoration::BuiltIn.0], &mut found);
        for d in &found {
            let builtin = d.params.first().copied().unwrap_or(u32::MAX);
            let member = if d.member == NO_MEMBER {
                -1
            } else {
                i64::from(d.member)
            };
            decorated.push((id, Dec { builtin, member }));
        }
    }
    for (id, dec) in decorated {
        let Some(def) = q.state.def(id) else {
            continue;
        };
        walk.from_op = q.opcode(id);
        walk.from_index = def.index;
        if let Err(f) = rules::definition(&mut walk, dec, id) {
            if !report(f) {
                return;
            }
        }
    }
    if walk.rules.is_empty() {
        return;
    }
    // At reference, in module order.
    let (models, without_depth) = function_entry_points(calls, &walk.modes);
    let mut operands = super::validation_state::OperandMemo::default();
    let mut function_index = 0usize;
    for index in 0..q.module.len() {
        // Rules are added only on the result id, which an instruction's own walk skips:
        // one naming no id with rules when it is reached runs none.
        let Some(raw) = q.module.instruction(index) else {
            continue;
        };
        if !matches!(raw.opcode(), O::Function | O::FunctionEnd)
            && !walk.keyed.may_name(raw.words())
        {
            continue;
        }
        let Some(inst) = super::validation_state::memoized(q.module, q.state, index, &mut operands)
        else {
            continue;
        };
        match inst.opcode {
            O::Function => {
                walk.function = inst.result_id;
                walk.entry_points = without_depth
                    .get(function_index)
                    .copied()
                    .flatten()
                    .into_iter()
                    .collect();
                walk.models = models
                    .get(function_index)
                    .map(|m| m.iter().copied().collect())
                    .unwrap_or_default();
                function_index += 1;
            }
            O::FunctionEnd => {
                walk.function = 0;
                walk.entry_points.clear();
                walk.models.clear();
            }
            _ => {}
        }
        walk.from_op = inst.opcode;
        walk.from_index = index as u32;
        let mut checked = BTreeSet::new();
        for op in inst.operands {
            if !matches!(op.kind.class, KindClass::Id | KindClass::ResultType) {
                continue;
            }
            let Some(&id) = inst.words.get(op.offset) else {
                continue;
            };
            // Only ids with rules need the set: rules are added on the result id alone,
            // which is skipped, so no id gains rules before its later repeats.
            if id == inst.result_id || !walk.rules.contains_key(&id) || !checked.insert(id) {
                continue;
            }
            let Some(list) = walk.rules.get(&id).cloned() else {
                continue;
            };
            for rule in list {
                if let Err(f) = rules::reference(&mut walk, rule, inst.result_id) {
                    if !report(f) {
                        return;
                    }
                }
            }
        }
    }
}

/// What the rules ask of the entry points that reach each function (spirv-val's
/// `FunctionEntryPoints`), by function position: the execution models they have,
/// ascending, and one of them without `DepthReplacing` (the FragDepth rule asks
/// whether any lacks it; no rule asks more of the list). One walk per execution model
/// and one for the modes, each visiting a function once, instead of one per entry
/// point, whose lists would hold every entry point for every function of a shared
/// call chain.
fn function_entry_points(
    calls: &EntryCalls,
    modes: &BTreeMap<u32, BTreeSet<u32>>,
) -> (Vec<Vec<u32>>, Vec<Option<u32>>) {
    let n = calls.functions.len();
    let mut by_model: BTreeMap<u32, BTreeSet<u32>> = BTreeMap::new();
    for d in &calls.entries {
        by_model.entry(d.model).or_default().insert(d.function);
    }
    let mut models: Vec<Vec<u32>> = Vec::new();
    models.resize_with(n, Vec::new);
    let mut mark = alloc::vec![0u32; n];
    for (stamp, (&model, roots)) in by_model.iter().enumerate() {
        calls.flood(roots.iter().copied(), &mut mark, stamp as u32 + 1, |f| {
            models[f].push(model);
            true
        });
    }
    let replacing = spv::ExecutionMode::DepthReplacing.0;
    let mut without: Vec<Option<u32>> = alloc::vec![None; n];
    let mut mark = alloc::vec![0u32; n];
    for root in calls.entry_functions() {
        if !modes.get(&root).is_some_and(|m| m.contains(&replacing)) {
            calls.flood([root], &mut mark, 1, |f| {
                without[f] = Some(root);
                true
            });
        }
    }
    (models, without)
}

/// What this family checks (see [`coverage`](crate::validate::coverage)).
pub(crate) const COVERAGE: crate::validate::coverage::Family = crate::validate::coverage::Family {
    built_ins: CHECKED_BUILT_INS,
    ..crate::validate::coverage::Family::new("built-ins", "validate_builtins.cpp")
};

#[cfg(test)]
mod tests {
    use super::{CHECKED_BUILT_INS as CHECKED, rules};
    use crate::spv;

    /// The list is what the rules check: every built-in of the grammar is in it
    /// exactly when a rule covers it.
    #[test]
    fn checked_is_what_the_rules_cover() {
        for e in spv::kinds::BuiltIn.enumerants {
            let b = spv::BuiltIn(e.value);
            assert_eq!(rules::checked(b), CHECKED.contains(&b), "{}", e.name);
        }
    }
}
