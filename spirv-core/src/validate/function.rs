//! spirv-val's function pass (`FunctionPass` in `validate_function.cpp`) for one
//! instruction: a function's type and return type and the uses of its id; each
//! parameter's type against the function type; a call's callee, result, argument
//! count and types, and the pointers logical addressing lets a call pass and return;
//! `OpCooperativeMatrixPerElementOpNV`'s function against its matrix.

use super::Query;
use super::faults::faults;
use super::memory::variable_pointers;
use super::validation_state::IdBits;
use super::{Fault, Inst};
use crate::__private::Vec;
use crate::grammar::KindClass;
use crate::spv::{Capability as C, Opcode as O, StorageClass as S};
use crate::types::Id;
use alloc::collections::BTreeMap;

faults! {
    /// A fault of spirv-val's function pass (`validate_function.cpp`).
    pub enum FunctionError {
        /// `OpFunction` whose function type is not an `OpTypeFunction`.
        NotFunctionType {
            /// The function type operand.
            ty: Id,
        } => "OpFunction Function Type <id> {ty} is not a function type.",
        /// `OpFunction` whose result type is not its type's return type.
        ReturnType {
            /// The result type.
            result: Id,
            /// The function type's return type.
            ret: Id,
        } => "OpFunction Result Type <id> {result} does not match the Function Type's return type <id> {ret}.",
        /// A function's id used by an instruction that may not use it (reported at that
        /// instruction).
        InvalidUse {
            /// The function.
            function: Id,
        } => "Invalid use of function result id {function}.",
        /// `OpFunctionParameter` without a function before it.
        ParameterNotPreceded => "Function parameter must be preceded by a function.",
        /// A function whose type is not defined.
        MissingFunctionType => "Missing function type definition.",
        /// More parameters than the function type has.
        TooManyParameters {
            /// The function.
            function: Id,
            /// The function type's parameter count.
            expected: usize,
        } => "Too many OpFunctionParameters for {function:n}: expected {expected} based on the function's type",
        /// A parameter whose type is not the function type's.
        ParameterType {
            /// The parameter's type.
            ty: Id,
        } => "OpFunctionParameter Result Type <id> {ty} does not match the OpTypeFunction parameter type of the same index.",
        /// A call of something that is not a function.
        CallNotFunction {
            /// The callee.
            function: Id,
        } => "OpFunctionCall Function <id> {function} is not a function.",
        /// A call whose result type is not the callee's.
        CallResultType {
            /// The call's result type.
            result: Id,
            /// The callee's return type.
            ret: Id,
        } => "OpFunctionCall Result Type <id> {result}s type does not match Function <id> {ret}s return type.",
        /// A callee returning a storage-buffer pointer without
        /// `VariablePointersStorageBuffer`.
        ReturnStorageBufferPointer
            => "In Logical addressing, functions may only return a storage buffer pointer if the VariablePointersStorageBuffer capability is declared",
        /// A callee returning a workgroup pointer without `VariablePointers`.
        ReturnWorkgroupPointer
            => "In Logical addressing, functions may only return a workgroup pointer if the VariablePointers capability is declared",
        /// A callee returning a pointer of another storage class.
        ReturnPointerStorageClass
            => "In Logical addressing, functions may not return a pointer in this storage class",
        /// Arguments and parameters differ in count.
        ArgumentCount
            => "OpFunctionCall Function <id>'s parameter count does not match the argument count.",
        /// An argument not defined.
        MissingArgument {
            /// The argument's position, from 0.
            n: usize,
        } => "Missing argument {n} definition.",
        /// An argument without a type.
        MissingArgumentType {
            /// The argument's position, from 0.
            n: usize,
        } => "Missing argument {n} type definition.",
        /// An argument whose type is not the parameter's.
        ArgumentType {
            /// The argument.
            argument: Id,
            /// The parameter type.
            param_type: Id,
        } => "OpFunctionCall Argument <id> {argument}s type does not match Function <id> {param_type}s parameter type.",
        /// A storage-buffer pointer argument without variable pointers.
        StorageBufferArgument {
            /// The argument.
            argument: Id,
        } => "StorageBuffer pointer operand {argument} requires a variable pointers capability",
        /// A pointer argument of a storage class calls may not pass.
        ArgumentStorageClass {
            /// The argument.
            argument: Id,
        } => "Invalid storage class for pointer operand {argument}",
        /// A pointer argument that is not a variable or parameter.
        NotMemoryObject {
            /// The argument.
            argument: Id,
        } => "Pointer operand {argument} must be a memory object declaration",
        /// `OpCooperativeMatrixPerElementOpNV`'s function that is no function.
        PerElementNotFunction {
            /// The operand.
            function: Id,
        } => "OpCooperativeMatrixPerElementOpNV Function <id> {function} is not a function.",
        /// `OpCooperativeMatrixPerElementOpNV`'s matrix that is no cooperative matrix.
        PerElementNotMatrix {
            /// The operand.
            matrix: Id,
        } => "OpCooperativeMatrixPerElementOpNV Matrix <id> {matrix} is not a cooperative matrix.",
        /// `OpCooperativeMatrixPerElementOpNV`'s result type that is not the matrix's.
        PerElementResultType {
            /// The result type.
            result: Id,
            /// The matrix's type.
            matrix: Id,
        } => "OpCooperativeMatrixPerElementOpNV Result Type <id> {result} must match matrix type <id> {matrix}.",
        /// A per-element function returning another type than the matrix component.
        PerElementReturnType {
            /// The function's return type.
            ret: Id,
            /// The matrix's component type.
            component: Id,
        } => "OpCooperativeMatrixPerElementOpNV function return type <id> {ret} must match matrix component type <id> {component}.",
        /// A per-element function with fewer than three parameters.
        PerElementParameterCount {
            /// The function type.
            ty: Id,
        } => "OpCooperativeMatrixPerElementOpNV function type <id> {ty} must have a least three parameters.",
        /// A per-element function whose row parameter is no 32-bit integer.
        PerElementRow {
            /// The parameter type.
            ty: Id,
        } => "OpCooperativeMatrixPerElementOpNV function type first parameter type <id> {ty} must be a 32-bit integer.",
        /// A per-element function whose column parameter is no 32-bit integer.
        PerElementColumn {
            /// The parameter type.
            ty: Id,
        } => "OpCooperativeMatrixPerElementOpNV function type second parameter type <id> {ty} must be a 32-bit integer.",
        /// A per-element function whose element parameter is not the matrix component.
        PerElementElement {
            /// The parameter type.
            ty: Id,
        } => "OpCooperativeMatrixPerElementOpNV function type third parameter type <id> {ty} must match matrix component type.",
    }
}

/// What the pass remembers across instructions.
#[derive(Debug, Default)]
pub(super) struct Function {
    /// The first instruction that uses each function's id where spirv-val does not
    /// allow it, found on the first `OpFunction`.
    bad_uses: Option<BTreeMap<u32, u32>>,
    /// For each `OpFunctionParameter`, by index: the nearest `OpFunction` before it
    /// (its index, id and type) and the parameters between, found on the first
    /// parameter.
    params: Option<BTreeMap<u32, (u32, u32, u32, usize)>>,
}

/// The pass for one instruction.
#[inline(always)]
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>, st: &mut Function) -> Result<(), Fault> {
    match inst.opcode {
        O::Function => function(q, inst, st),
        O::FunctionParameter => parameter(q, inst, st),
        O::FunctionCall => call(q, inst),
        O::CooperativeMatrixPerElementOpNV => per_element_op(q, inst),
        _ => Ok(()),
    }
}

/// `ValidateCooperativeMatrixPerElementOp`: the function applied to each element of
/// a cooperative matrix takes its row, its column and the element, and returns an
/// element.
fn per_element_op(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    use FunctionError as E;
    let function = inst.word(3);
    if q.opcode(function) != O::Function {
        return Err(E::PerElementNotFunction {
            function: Id(function),
        }
        .into());
    }
    let matrix = inst.word(2);
    let matrix_type = q.type_of(matrix);
    if !q.is_cooperative_matrix_khr_type(matrix_type) {
        return Err(E::PerElementNotMatrix { matrix: Id(matrix) }.into());
    }
    let result = inst.word(0);
    if result != matrix_type {
        return Err(E::PerElementResultType {
            result: Id(result),
            matrix: Id(matrix_type),
        }
        .into());
    }
    let component = q.word(matrix_type, 2).unwrap_or(0);
    let fn_type = q.word(function, 4).unwrap_or(0);
    let ret = q.word(fn_type, 2).unwrap_or(0);
    if ret != component {
        return Err(E::PerElementReturnType {
            ret: Id(ret),
            component: Id(component),
        }
        .into());
    }
    // At least three parameters: the result id, the return type and three words more.
    if q.def(fn_type).map_or(0, |d| d.words().len()) < 6 {
        return Err(E::PerElementParameterCount { ty: Id(fn_type) }.into());
    }
    let param = |i: usize| q.word(fn_type, 3 + i).unwrap_or(0);
    let int32 = |t: u32| q.is_int_scalar_type(t) && q.bit_width(t) == 32;
    if !int32(param(0)) {
        return Err(E::PerElementRow { ty: Id(param(0)) }.into());
    }
    if !int32(param(1)) {
        return Err(E::PerElementColumn { ty: Id(param(1)) }.into());
    }
    if param(2) != component {
        return Err(E::PerElementElement { ty: Id(param(2)) }.into());
    }
    Ok(())
}

/// Whether spirv-val lets an instruction use a function's id.
fn may_use_function(q: &Query<'_>, opcode: O, words: &[u32]) -> bool {
    match opcode {
        O::GroupDecorate
        | O::Decorate
        | O::EnqueueKernel
        | O::EntryPoint
        | O::ExecutionMode
        | O::ExecutionModeId
        | O::FunctionCall
        | O::GetKernelNDrangeSubGroupCount
        | O::GetKernelNDrangeMaxSubGroupSize
        | O::GetKernelWorkGroupSize
        | O::GetKernelPreferredWorkGroupSizeMultiple
        | O::GetKernelLocalSizeForSubgroupCount
        | O::GetKernelMaxNumSubgroups
        | O::Name
        | O::CooperativeMatrixPerElementOpNV
        | O::CooperativeMatrixReduceNV
        | O::CooperativeMatrixLoadTensorNV
        | O::ConditionalEntryPointINTEL => true,
        O::ExtInst | O::ExtInstWithForwardRefsKHR => words
            .get(3)
            .and_then(|s| q.state.sets.get(s))
            .is_some_and(|k| k.is_non_semantic() || k.is_debug_info()),
        _ => false,
    }
}

/// The first disallowed use of each function's id.
fn bad_uses(q: &Query<'_>) -> BTreeMap<u32, u32> {
    let mut first = BTreeMap::new();
    // Only an instruction naming a function's id can use one: the others are not walked.
    let functions = IdBits::defined(q.state, |d| d.opcode == O::Function);
    for inst in q.module.instructions() {
        if !functions.may_name(inst.words()) || may_use_function(q, inst.opcode(), inst.words()) {
            continue;
        }
        let index = inst.index() as u32;
        let _ = inst.visit_ids(|class, id| {
            if class != KindClass::Result && q.opcode(id.0) == O::Function {
                first.entry(id.0).or_insert(index);
            }
        });
    }
    first
}

/// `ValidateFunction`.
fn function(q: &Query<'_>, inst: &Inst<'_>, st: &mut Function) -> Result<(), Fault> {
    let type_id = inst.word(3);
    if q.opcode(type_id) != O::TypeFunction {
        return Err(Fault::from(FunctionError::NotFunctionType {
            ty: Id(type_id),
        }));
    }
    let ret = q.word(type_id, 2).unwrap_or(0);
    let result = inst.word(0);
    if ret != result {
        return Err(Fault::from(FunctionError::ReturnType {
            result: Id(result),
            ret: Id(ret),
        }));
    }
    let uses = st.bad_uses.get_or_insert_with(|| bad_uses(q));
    if let Some(&at) = uses.get(&inst.result_id) {
        let kind = super::ValidationErrorKind::from(FunctionError::InvalidUse {
            function: Id(inst.result_id),
        });
        return Err(Fault::at(kind, at));
    }
    Ok(())
}

/// Each parameter's function, as spirv-val finds it: walking back to the nearest
/// `OpFunction`, counting the parameters on the way.
fn parameters(q: &Query<'_>) -> BTreeMap<u32, (u32, u32, u32, usize)> {
    let mut params = BTreeMap::new();
    let mut open = None;
    for inst in q.module.instructions() {
        let w = inst.words();
        match inst.opcode() {
            O::Function => {
                let id = w.get(2).copied().unwrap_or(0);
                let ty = w.get(4).copied().unwrap_or(0);
                open = Some((inst.index() as u32, id, ty, 0));
            }
            O::FunctionParameter => {
                if let Some((at, id, ty, seen)) = open.as_mut() {
                    params.insert(inst.index() as u32, (*at, *id, *ty, *seen));
                    *seen += 1;
                }
            }
            _ => {}
        }
    }
    params
}

/// `ValidateFunctionParameter`.
fn parameter(q: &Query<'_>, inst: &Inst<'_>, st: &mut Function) -> Result<(), Fault> {
    let params = st.params.get_or_insert_with(|| parameters(q));
    let Some(&(at, function, type_id, index)) = params.get(&(inst.index as u32)) else {
        return Err(Fault::from(FunctionError::ParameterNotPreceded));
    };
    let Some(ty) = q.def(type_id) else {
        let kind = super::ValidationErrorKind::from(FunctionError::MissingFunctionType);
        return Err(Fault::at(kind, at));
    };
    let params = ty.words().len().saturating_sub(3);
    if index >= params {
        return Err(Fault::from(FunctionError::TooManyParameters {
            function: Id(function),
            expected: params,
        }));
    }
    let param_type = ty.words().get(index + 3).copied().unwrap_or(0);
    let result = inst.word(0);
    if q.def(param_type).is_none() || result != param_type {
        return Err(Fault::from(FunctionError::ParameterType { ty: Id(result) }));
    }
    Ok(())
}

/// `ValidateFunctionCall`.
fn call(q: &Query<'_>, inst: &Inst<'_>) -> Result<(), Fault> {
    use FunctionError as E;
    let has = |c: C| q.state.has_capability(c.0);
    let options = q.state.options;
    let callee = inst.word(2);
    let Some(f) = q.def(callee).filter(|f| f.opcode() == O::Function) else {
        return Err(Fault::from(E::CallNotFunction {
            function: Id(callee),
        }));
    };
    let ret = f.words().get(1).copied().unwrap_or(0);
    let result = inst.word(0);
    if q.def(ret).is_none() || ret != result {
        return Err(Fault::from(E::CallResultType {
            result: Id(result),
            ret: Id(ret),
        }));
    }
    let logical = matches!(
        q.state.addressing_model(),
        crate::spv::AddressingModel::Logical | crate::spv::AddressingModel::PhysicalStorageBuffer64
    );
    if !options.relax_logical_pointer
        && logical
        && matches!(q.opcode(ret), O::TypePointer | O::TypeUntypedPointerKHR)
    {
        let sc = S(q.word(ret, 2).unwrap_or(u32::MAX));
        if sc != S::PhysicalStorageBuffer {
            if !has(C::VariablePointersStorageBuffer) && sc == S::StorageBuffer {
                return Err(Fault::from(E::ReturnStorageBufferPointer));
            } else if !has(C::VariablePointers) && sc == S::Workgroup {
                return Err(Fault::from(E::ReturnWorkgroupPointer));
            } else if sc != S::StorageBuffer && sc != S::Workgroup {
                return Err(Fault::from(E::ReturnPointerStorageClass));
            }
        }
    }
    let ft_id = f.words().get(4).copied().unwrap_or(0);
    let Some(ft) = q.def(ft_id).filter(|t| t.opcode() == O::TypeFunction) else {
        return Err(Fault::from(E::MissingFunctionType));
    };
    let args = inst.words.get(4..).unwrap_or(&[]);
    let params = ft.words().get(3..).unwrap_or(&[]);
    if args.len() != params.len() {
        return Err(Fault::from(E::ArgumentCount));
    }
    for (n, (&arg, &param_type)) in args.iter().zip(params).enumerate() {
        if q.def(arg).is_none() {
            return Err(Fault::from(E::MissingArgument { n }));
        }
        let arg_type = q.type_of(arg);
        if q.def(arg_type).is_none() {
            return Err(Fault::from(E::MissingArgumentType { n }));
        }
        let Some(pt) = q.def(param_type) else {
            return Err(Fault::from(E::ArgumentType {
                argument: Id(arg),
                param_type: Id(param_type),
            }));
        };
        if arg_type != param_type {
            // With --before-hlsl-legalization spirv-val accepts pointers whose pointees
            // match logically (`DoPointeesLogicallyMatch`).
            if !(options.before_hlsl_legalization && pointees_match(q, arg_type, param_type)) {
                return Err(Fault::from(E::ArgumentType {
                    argument: Id(arg),
                    param_type: Id(param_type),
                }));
            }
        }
        if logical
            && matches!(pt.opcode(), O::TypePointer | O::TypeUntypedPointerKHR)
            && !options.relax_logical_pointer
        {
            let sc = S(pt.words().get(2).copied().unwrap_or(u32::MAX));
            if sc == S::PhysicalStorageBuffer {
                continue;
            }
            match sc {
                S::UniformConstant
                | S::Function
                | S::Private
                | S::Workgroup
                | S::AtomicCounter
                | S::TileImageEXT
                | S::ShaderRecordBufferKHR => {}
                S::StorageBuffer => {
                    if !variable_pointers(q) {
                        return Err(Fault::from(E::StorageBufferArgument { argument: Id(arg) }));
                    }
                }
                _ => return Err(Fault::from(E::ArgumentStorageClass { argument: Id(arg) })),
            }
            let declared = matches!(
                q.opcode(arg),
                O::Variable | O::UntypedVariableKHR | O::FunctionParameter
            );
            if !declared {
                let ssbo = has(C::VariablePointersStorageBuffer) && sc == S::StorageBuffer;
                let wg = has(C::VariablePointers) && sc == S::Workgroup;
                let uc = sc == S::UniformConstant;
                if !options.before_hlsl_legalization && !ssbo && !wg && !uc {
                    return Err(Fault::from(E::NotMemoryObject { argument: Id(arg) }));
                }
            }
        }
    }
    Ok(())
}

/// `DoPointeesLogicallyMatch`: two pointer types, each decoration of `b` one of `a`'s,
/// whose pointees are one type or logically match, decorations included. (spirv-val
/// does not compare their storage classes.)
fn pointees_match(q: &Query<'_>, a: u32, b: u32) -> bool {
    let (Some(ad), Some(bd)) = (q.def(a), q.def(b)) else {
        return false;
    };
    if ad.opcode() != O::TypePointer || bd.opcode() != O::TypePointer {
        return false;
    }
    let (mut left, mut right) = (Vec::new(), Vec::new());
    if !super::composites::decorations_include(q, a, b, &mut left, &mut right) {
        return false;
    }
    let (Some(&pa), Some(&pb)) = (ad.words().get(3), bd.words().get(3)) else {
        return false;
    };
    pa == pb || super::composites::logically_match(q, pa, pb, true)
}

/// What this family checks (see [`coverage`](crate::validate::coverage)).
pub(crate) const COVERAGE: crate::validate::coverage::Family = crate::validate::coverage::Family {
    opcodes: {
        use crate::spv::Opcode as O;
        &[
            O::Function,
            O::FunctionParameter,
            O::FunctionCall,
            O::CooperativeMatrixPerElementOpNV,
        ]
    },
    ..crate::validate::coverage::Family::new("functions", "validate_function.cpp")
};
