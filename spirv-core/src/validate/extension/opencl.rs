//! spirv-val's rules for `OpenCL.std` instructions (`ValidateExtInstOpenClStd` in
//! `validate_extensions.cpp`): the result and operand types of each instruction, the
//! pointers' storage classes and `size_t` operands, in spirv-val's order.
//! Instructions are told apart by their grammar names.

use super::{ExtInstError, ext_inst_name};
use crate::spv::{self, StorageClass as S};
use crate::validate::faults::faults;
use crate::validate::{Fault, Inst, Query};
use OpenClRule as R;

faults! {
    @description
    /// An `OpenCL.std` instruction's rule, as spirv-val words it after the
    /// instruction's name.
    pub enum OpenClRule {
        /// A result that is no float scalar or vector.
        FloatResult => "expected Result Type to be a float scalar or vector type",
        /// A result with 5-7 or 9-15 or more than 16 components.
        ResultComponents
            => "expected Result Type to be a scalar or a vector with 2, 3, 4, 8 or 16 components",
        /// An operand whose type is not the result type.
        OperandsEqualResult => "expected types of all operands to be equal to Result Type",
        /// A named operand whose type is not the result type.
        TypeOfOperand {
            /// The operand's name.
            operand: &'static str,
        } => "expected type of operand {operand} to be equal to Result Type",
        /// A last operand that is no pointer.
        LastPointer => "expected the last operand to be a pointer",
        /// A pointer in another storage class than the generic or private ones.
        PointerClass
            => "expected storage class of the pointer to be Generic, CrossWorkgroup, Workgroup or Function",
        /// A pointer to another type than the result.
        PointerDataResult => "expected data type of the pointer to be equal to Result Type",
        /// A pointer to no 32-bit integer scalar or vector.
        PointerDataInt32
            => "expected data type of the pointer to be a 32-bit int scalar or vector type",
        /// A pointer to another component count than the result's.
        PointerDataComponents
            => "expected data type of the pointer to have the same number of components as Result Type",
        /// A result that is no 32-bit integer scalar or vector.
        Int32Result => "expected Result Type to be a 32-bit int scalar or vector type",
        /// An `ilogb` operand that is no float scalar or vector.
        XFloat => "expected operand X to be a float scalar or vector",
        /// An `ilogb` operand with another component count than the result.
        XComponents => "expected operand X to have the same number of components as Result Type",
        /// An exponent that is no 32-bit integer scalar or vector.
        ExponentInt32 => "expected the exponent to be a 32-bit int scalar or vector",
        /// An exponent with another component count than the result.
        ExponentComponents
            => "expected the exponent to have the same number of components as Result Type",
        /// A `nan` code that is no integer scalar or vector.
        NancodeInt => "expected Nancode to be an int scalar or vector type",
        /// A `nan` code with another component count than the result.
        NancodeComponents
            => "expected Nancode to have the same number of components as Result Type",
        /// A `nan` code with another bit width than the result.
        NancodeWidth => "expected Nancode to have the same bit width as Result Type",
        /// A result that is no integer scalar or vector.
        IntResult => "expected Result Type to be an int scalar or vector type",
        /// An upsample result of no 16, 32 or 64-bit components.
        UpsampleWidth => "expected bit width of Result Type components to be 16, 32 or 64",
        /// Upsample halves of different types.
        HiLoSameType => "expected Hi and Lo operands to have the same type",
        /// Upsample halves with another component count than the result.
        HiLoComponents
            => "expected Hi and Lo operands to have the same number of components as Result Type",
        /// Upsample halves that are not half as wide as the result.
        HiLoHalfWidth
            => "expected bit width of components of Hi and Lo operands to be half of the bit width of components of Result Type",
        /// A result that is no float vector.
        FloatVectorResult => "expected Result Type to be a float vector type",
        /// A `cross` result with other than 3 or 4 components.
        ThreeOrFour => "expected Result Type to have 3 or 4 components",
        /// An operand whose type is not the result type.
        OperandEqualResult {
            /// The operand's name.
            operand: &'static str,
        } => "expected operand {operand} type to be equal to Result Type",
        /// A result that is no float scalar.
        FloatScalarResult => "expected Result Type to be a float scalar type",
        /// An operand that is no float scalar or vector.
        OperandFloatType {
            /// The operand's name.
            operand: &'static str,
        } => "expected operand {operand} to be of float scalar or vector type",
        /// An operand with more than 4 components.
        OperandAtMost4 {
            /// The operand's name.
            operand: &'static str,
        } => "expected operand {operand} to have no more than 4 components",
        /// An operand whose component type is not the result type.
        ComponentEqualResult {
            /// The operand's name.
            operand: &'static str,
        } => "expected operand {operand} component type to be equal to Result Type",
        /// `distance` operands of different types.
        P0P1Same => "expected operands P0 and P1 to be of the same type",
        /// A `length` operand that is no float scalar or vector.
        PFloat => "expected operand P to be a float scalar or vector",
        /// A `normalize` result with more than 4 components.
        ResultAtMost4 => "expected Result Type to have no more than 4 components",
        /// A result that is no number scalar or vector.
        IntOrFloatResult => "expected Result Type to be an int or float scalar or vector type",
        /// A `select` condition that is no integer scalar or vector.
        CInt => "expected operand C to be an int scalar or vector",
        /// A `select` condition with another component count than the result.
        CComponents => "expected operand C to have the same number of components as Result Type",
        /// A `select` condition with another bit width than the result.
        CWidth => "expected operand C to have the same bit width as Result Type",
        /// A result that is no number vector.
        IntOrFloatVectorResult => "expected Result Type to be an int or float vector type",
        /// A vector result with other than 2, 3, 4, 8 or 16 components.
        ResultVectorComponents => "expected Result Type to have 2, 3, 4, 8 or 16 components",
        /// An operand that is no `size_t` of the addressing model.
        SizeT {
            /// The operand's name.
            operand: &'static str,
            /// The addressing model's pointer width.
            width: u32,
        } => "expected operand {operand} to be of type size_t ({width}-bit integer for the addressing model used in the module)",
        /// An operand that is no pointer.
        OperandPointer {
            /// The operand's name.
            operand: &'static str,
        } => "expected operand {operand} to be a pointer",
        /// A load pointer in another storage class than those a load reads.
        LoadClass
            => "expected operand P storage class to be UniformConstant, Generic, CrossWorkgroup, Workgroup or Function",
        /// A load pointer to another type than the result's components.
        LoadData => "expected operand P data type to be equal to component type of Result Type",
        /// A literal N other than the result's component count.
        LiteralN => "expected literal N to be equal to the number of components of Result Type",
        /// A store with a result type other than void.
        VoidResult => "expected Result Type to be void",
        /// Stored data that is no number vector.
        DataVector => "expected Data to be an int or float vector",
        /// Stored data with other than 2, 3, 4, 8 or 16 components.
        DataComponents => "expected Data to have 2, 3, 4, 8 or 16 components",
        /// A store pointer in another storage class than those a store writes.
        StoreClass
            => "expected operand P storage class to be Generic, CrossWorkgroup, Workgroup or Function",
        /// A store pointer to another type than the data's components.
        StoreData
            => "expected operand P data type to be equal to the type of operand Data components",
        /// A half load or store pointer to no 16-bit float.
        HalfData => "expected operand P data type to be 16-bit float scalar",
        /// Stored half data that is no 32 or 64-bit float scalar.
        DataFloatScalar => "expected Data to be a 32 or 64-bit float scalar",
        /// Stored half data that is no 32 or 64-bit float vector.
        DataFloatVector => "expected Data to be a 32 or 64-bit float vector",
        /// A shuffle result with other than 2, 4, 8 or 16 components.
        ShuffleResult => "expected Result Type to have 2, 4, 8 or 16 components",
        /// `shuffle2` inputs of different types.
        XYSame => "expected operands X and Y to be of the same type",
        /// A shuffle input that is no number vector.
        XVector => "expected operand X to be an int or float vector",
        /// A shuffle input with other than 2, 4, 8 or 16 components.
        XShuffleComponents => "expected operand X to have 2, 4, 8 or 16 components",
        /// A shuffle input with other components than the result.
        XComponentType => "expected operand X and Result Type to have equal component types",
        /// A shuffle mask that is no integer vector.
        MaskInt => "expected operand Shuffle Mask to be an int vector",
        /// A shuffle mask with another component count than the result.
        MaskComponents
            => "expected operand Shuffle Mask to have the same number of components as Result Type",
        /// A shuffle mask with other widths than the result's components.
        MaskWidth
            => "expected operand Shuffle Mask components to have the same bit width as Result Type components",
        /// A `printf` result that is no 32-bit integer.
        PrintfResult => "expected Result Type to be a 32-bit int type",
        /// A format string in a storage class the relaxed rule does not allow.
        FormatClassRelaxed
            => "expected Format storage class to be UniformConstant, Crossworkgroup, Workgroup, Function, or Generic",
        /// A format string outside `UniformConstant`.
        FormatClass => "expected Format storage class to be UniformConstant",
        /// A format string of no 8-bit integers.
        FormatData => "expected Format data type to be 8-bit int",
        /// A `prefetch` pointer outside `CrossWorkgroup`.
        PtrClass => "expected operand Ptr storage class to be CrossWorkgroup",
        /// A `prefetch` pointer to no number scalar or vector.
        PtrData => "expected Ptr data type to be int or float scalar or vector",
    }
}

/// Whether `n` components are a scalar or an OpenCL vector (2, 3, 4, 8 or 16).
fn vector_size(n: u32) -> bool {
    n <= 4 || n == 8 || n == 16
}

/// `ValidateExtInstOpenClStd` for one instruction named `name` by the grammar.
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>, name: &str) -> Result<(), Fault> {
    let fail = |rule: OpenClRule| -> Result<(), Fault> {
        Err(ExtInstError::OpenCl {
            inst: ext_inst_name(q, inst),
            rule,
        }
        .into())
    };
    let result = inst.result_type();
    let ty = |i: usize| q.operand_type(inst, i);
    let all_equal_result = || (4..inst.operands.len()).all(|i| ty(i) == result);
    let untyped = |t: u32| q.opcode(t) == spv::Opcode::TypeUntypedPointerKHR;
    let components = q.dimension(result);
    // `size_t`'s width: 0 without a physical addressing model.
    let size_t = match q.state.addressing_model() {
        spv::AddressingModel::Physical32 => 32,
        spv::AddressingModel::Physical64 => 64,
        _ => 0,
    };
    let check_size_t = |t: u32, operand: &'static str| -> Result<(), Fault> {
        if size_t == 0 {
            return Err(ExtInstError::Physical {
                inst: ext_inst_name(q, inst),
            }
            .into());
        }
        if !q.is_int_scalar_type(t) || q.bit_width(t) != size_t {
            return fail(R::SizeT {
                operand,
                width: size_t,
            });
        }
        Ok(())
    };
    let private = |c: S| {
        matches!(
            c,
            S::Generic | S::CrossWorkgroup | S::Workgroup | S::Function
        )
    };
    let half =
        |p: u32, data: u32| (q.is_float_scalar_type(data) && q.bit_width(data) == 16) || untyped(p);
    match name {
        "acos" | "acosh" | "acospi" | "asin" | "asinh" | "asinpi" | "atan" | "atan2" | "atanh"
        | "atanpi" | "atan2pi" | "cbrt" | "ceil" | "copysign" | "cos" | "cosh" | "cospi"
        | "erfc" | "erf" | "exp" | "exp2" | "exp10" | "expm1" | "fabs" | "fdim" | "floor"
        | "fma" | "fmax" | "fmin" | "fmod" | "hypot" | "lgamma" | "log" | "log2" | "log10"
        | "log1p" | "logb" | "mad" | "maxmag" | "minmag" | "nextafter" | "pow" | "powr"
        | "remainder" | "rint" | "round" | "rsqrt" | "sin" | "sinh" | "sinpi" | "sqrt" | "tan"
        | "tanh" | "tanpi" | "tgamma" | "trunc" | "half_cos" | "half_divide" | "half_exp"
        | "half_exp2" | "half_exp10" | "half_log" | "half_log2" | "half_log10" | "half_powr"
        | "half_recip" | "half_rsqrt" | "half_sin" | "half_sqrt" | "half_tan" | "native_cos"
        | "native_divide" | "native_exp" | "native_exp2" | "native_exp10" | "native_log"
        | "native_log2" | "native_log10" | "native_powr" | "native_recip" | "native_rsqrt"
        | "native_sin" | "native_sqrt" | "native_tan" | "fclamp" | "degrees" | "fmax_common"
        | "fmin_common" | "mix" | "radians" | "step" | "smoothstep" | "sign" => {
            if !q.is_float_scalar_or_vector_type(result) {
                return fail(R::FloatResult);
            }
            if !vector_size(components) {
                return fail(R::ResultComponents);
            }
            if !all_equal_result() {
                return fail(R::OperandsEqualResult);
            }
        }
        "fract" | "modf" | "sincos" | "frexp" | "lgamma_r" | "remquo" => {
            if !q.is_float_scalar_or_vector_type(result) {
                return fail(R::FloatResult);
            }
            if !vector_size(components) {
                return fail(R::ResultComponents);
            }
            if ty(4) != result {
                return fail(R::TypeOfOperand { operand: "X" });
            }
            let mut next = 5;
            if name == "remquo" {
                if ty(5) != result {
                    return fail(R::TypeOfOperand { operand: "Y" });
                }
                next = 6;
            }
            let p = ty(next);
            let Some((data, class)) = q.pointer_info(p) else {
                return fail(R::LastPointer);
            };
            if !private(class) {
                return fail(R::PointerClass);
            }
            if matches!(name, "fract" | "modf" | "sincos") {
                if !untyped(p) && result != data {
                    return fail(R::PointerDataResult);
                }
            } else {
                if (!q.is_int_scalar_or_vector_type(data) || q.bit_width(data) != 32) && !untyped(p)
                {
                    return fail(R::PointerDataInt32);
                }
                if !untyped(p) && q.dimension(data) != components {
                    return fail(R::PointerDataComponents);
                }
            }
        }
        "ilogb" => {
            if !q.is_int_scalar_or_vector_type(result) || q.bit_width(result) != 32 {
                return fail(R::Int32Result);
            }
            if !vector_size(components) {
                return fail(R::ResultComponents);
            }
            let x = ty(4);
            if !q.is_float_scalar_or_vector_type(x) {
                return fail(R::XFloat);
            }
            if q.dimension(x) != components {
                return fail(R::XComponents);
            }
        }
        "ldexp" | "pown" | "rootn" => {
            if !q.is_float_scalar_or_vector_type(result) {
                return fail(R::FloatResult);
            }
            if !vector_size(components) {
                return fail(R::ResultComponents);
            }
            if ty(4) != result {
                return fail(R::TypeOfOperand { operand: "X" });
            }
            let exp = ty(5);
            if !q.is_int_scalar_or_vector_type(exp) || q.bit_width(exp) != 32 {
                return fail(R::ExponentInt32);
            }
            if q.dimension(exp) != components {
                return fail(R::ExponentComponents);
            }
        }
        "nan" => {
            if !q.is_float_scalar_or_vector_type(result) {
                return fail(R::FloatResult);
            }
            if !vector_size(components) {
                return fail(R::ResultComponents);
            }
            let code = ty(4);
            if !q.is_int_scalar_or_vector_type(code) {
                return fail(R::NancodeInt);
            }
            if q.dimension(code) != components {
                return fail(R::NancodeComponents);
            }
            if q.bit_width(result) != q.bit_width(code) {
                return fail(R::NancodeWidth);
            }
        }
        "s_abs" | "s_abs_diff" | "s_add_sat" | "u_add_sat" | "s_hadd" | "u_hadd" | "s_rhadd"
        | "u_rhadd" | "s_clamp" | "u_clamp" | "clz" | "ctz" | "s_mad_hi" | "u_mad_sat"
        | "s_mad_sat" | "s_max" | "u_max" | "s_min" | "u_min" | "s_mul_hi" | "rotate"
        | "s_sub_sat" | "u_sub_sat" | "popcount" | "u_abs" | "u_abs_diff" | "u_mul_hi"
        | "u_mad_hi" | "s_mad24" | "u_mad24" | "s_mul24" | "u_mul24" => {
            if name.ends_with("24") {
                if !q.is_int_scalar_or_vector_type(result) || q.bit_width(result) != 32 {
                    return fail(R::Int32Result);
                }
            } else if !q.is_int_scalar_or_vector_type(result) {
                return fail(R::IntResult);
            }
            if !vector_size(components) {
                return fail(R::ResultComponents);
            }
            if !all_equal_result() {
                return fail(R::OperandsEqualResult);
            }
        }
        "u_upsample" | "s_upsample" => {
            if !q.is_int_scalar_or_vector_type(result) {
                return fail(R::IntResult);
            }
            if !vector_size(components) {
                return fail(R::ResultComponents);
            }
            let width = q.bit_width(result);
            if !matches!(width, 16 | 32 | 64) {
                return fail(R::UpsampleWidth);
            }
            let (hi, lo) = (ty(4), ty(5));
            if hi != lo {
                return fail(R::HiLoSameType);
            }
            if components != q.dimension(hi) {
                return fail(R::HiLoComponents);
            }
            if width != 2 * q.bit_width(hi) {
                return fail(R::HiLoHalfWidth);
            }
        }
        "cross" => {
            if !q.is_float_vector_type(result) {
                return fail(R::FloatVectorResult);
            }
            if !matches!(components, 3 | 4) {
                return fail(R::ThreeOrFour);
            }
            if ty(4) != result {
                return fail(R::OperandEqualResult { operand: "X" });
            }
            if ty(5) != result {
                return fail(R::OperandEqualResult { operand: "Y" });
            }
        }
        "distance" | "fast_distance" => {
            if !q.is_float_scalar_type(result) {
                return fail(R::FloatScalarResult);
            }
            let p0 = ty(4);
            if !q.is_float_scalar_or_vector_type(p0) {
                return fail(R::OperandFloatType { operand: "P0" });
            }
            if q.dimension(p0) > 4 {
                return fail(R::OperandAtMost4 { operand: "P0" });
            }
            if result != q.component_type(p0) {
                return fail(R::ComponentEqualResult { operand: "P0" });
            }
            if p0 != ty(5) {
                return fail(R::P0P1Same);
            }
        }
        "length" | "fast_length" => {
            if !q.is_float_scalar_type(result) {
                return fail(R::FloatScalarResult);
            }
            let p = ty(4);
            if !q.is_float_scalar_or_vector_type(p) {
                return fail(R::PFloat);
            }
            if q.dimension(p) > 4 {
                return fail(R::OperandAtMost4 { operand: "P" });
            }
            if result != q.component_type(p) {
                return fail(R::ComponentEqualResult { operand: "P" });
            }
        }
        "normalize" | "fast_normalize" => {
            if !q.is_float_scalar_or_vector_type(result) {
                return fail(R::FloatResult);
            }
            if components > 4 {
                return fail(R::ResultAtMost4);
            }
            if ty(4) != result {
                return fail(R::OperandEqualResult { operand: "P" });
            }
        }
        "bitselect" | "select" => {
            if !q.is_float_scalar_or_vector_type(result) && !q.is_int_scalar_or_vector_type(result)
            {
                return fail(R::IntOrFloatResult);
            }
            if !vector_size(components) {
                return fail(R::ResultComponents);
            }
            if name == "bitselect" {
                if !all_equal_result() {
                    return fail(R::OperandsEqualResult);
                }
                return Ok(());
            }
            if ty(4) != result {
                return fail(R::OperandEqualResult { operand: "A" });
            }
            if ty(5) != result {
                return fail(R::OperandEqualResult { operand: "B" });
            }
            let c = ty(6);
            if !q.is_int_scalar_or_vector_type(c) {
                return fail(R::CInt);
            }
            if components != q.dimension(c) {
                return fail(R::CComponents);
            }
            if q.bit_width(result) != q.bit_width(c) {
                return fail(R::CWidth);
            }
        }
        "vloadn" | "vload_half" | "vload_halfn" | "vloada_halfn" => {
            let scalar = name == "vload_half";
            if scalar {
                if !q.is_float_scalar_type(result) {
                    return fail(R::FloatScalarResult);
                }
            } else {
                let vector = if name == "vloadn" {
                    q.is_float_vector_type(result) || q.is_int_vector_type(result)
                } else {
                    q.is_float_vector_type(result)
                };
                if !vector {
                    return fail(if name == "vloadn" {
                        R::IntOrFloatVectorResult
                    } else {
                        R::FloatVectorResult
                    });
                }
                if !vector_size(components) {
                    return fail(R::ResultVectorComponents);
                }
            }
            check_size_t(ty(4), "Offset")?;
            let p = ty(5);
            let Some((data, class)) = q.pointer_info(p) else {
                return fail(R::OperandPointer { operand: "P" });
            };
            if !private(class) && class != S::UniformConstant {
                return fail(R::LoadClass);
            }
            if name == "vloadn" {
                if q.component_type(result) != data {
                    return fail(R::LoadData);
                }
            } else if !half(p, data) {
                return fail(R::HalfData);
            }
            if !scalar && components != inst.word(6) {
                return fail(R::LiteralN);
            }
        }
        "vstoren" | "vstore_half" | "vstore_half_r" | "vstore_halfn" | "vstore_halfn_r"
        | "vstorea_halfn" | "vstorea_halfn_r" => {
            if q.opcode(result) != spv::Opcode::TypeVoid {
                return fail(R::VoidResult);
            }
            let data = ty(4);
            if name == "vstoren" {
                if !q.is_float_vector_type(data) && !q.is_int_vector_type(data) {
                    return fail(R::DataVector);
                }
                if !vector_size(q.dimension(data)) {
                    return fail(R::DataComponents);
                }
            } else {
                let wide = matches!(q.bit_width(data), 32 | 64);
                if matches!(name, "vstore_half" | "vstore_half_r") {
                    if !q.is_float_scalar_type(data) || !wide {
                        return fail(R::DataFloatScalar);
                    }
                } else {
                    if !q.is_float_vector_type(data) || !wide {
                        return fail(R::DataFloatVector);
                    }
                    if !vector_size(q.dimension(data)) {
                        return fail(R::DataComponents);
                    }
                }
            }
            check_size_t(ty(5), "Offset")?;
            let p = ty(6);
            let Some((pointee, class)) = q.pointer_info(p) else {
                return fail(R::OperandPointer { operand: "P" });
            };
            if !private(class) {
                return fail(R::StoreClass);
            }
            if name == "vstoren" {
                if q.component_type(data) != pointee {
                    return fail(R::StoreData);
                }
            } else if !half(p, pointee) {
                return fail(R::HalfData);
            }
        }
        "shuffle" | "shuffle2" => {
            if !q.is_float_vector_type(result) && !q.is_int_vector_type(result) {
                return fail(R::IntOrFloatVectorResult);
            }
            if !matches!(components, 2 | 4 | 8 | 16) {
                return fail(R::ShuffleResult);
            }
            let x = ty(4);
            let mut next = 5;
            if name == "shuffle2" {
                if x != ty(5) {
                    return fail(R::XYSame);
                }
                next = 6;
            }
            let mask = ty(next);
            if !q.is_float_vector_type(x) && !q.is_int_vector_type(x) {
                return fail(R::XVector);
            }
            if !matches!(q.dimension(x), 2 | 4 | 8 | 16) {
                return fail(R::XShuffleComponents);
            }
            let component = q.component_type(result);
            if component != q.component_type(x) {
                return fail(R::XComponentType);
            }
            if !q.is_int_vector_type(mask) {
                return fail(R::MaskInt);
            }
            if components != q.dimension(mask) {
                return fail(R::MaskComponents);
            }
            if q.bit_width(component) != q.bit_width(mask) {
                return fail(R::MaskWidth);
            }
        }
        "printf" => {
            if !q.is_int_scalar_type(result) || q.bit_width(result) != 32 {
                return fail(R::PrintfResult);
            }
            let format = ty(4);
            let Some((mut data, class)) = q.pointer_info(format) else {
                return fail(R::OperandPointer { operand: "Format" });
            };
            if q.state
                .has_extension("SPV_EXT_relaxed_printf_string_address_space")
            {
                if !private(class) && class != S::UniformConstant {
                    return fail(R::FormatClassRelaxed);
                }
            } else if class != S::UniformConstant {
                return fail(R::FormatClass);
            }
            if q.opcode(data) == spv::Opcode::TypeArray
                && q.is_int_scalar_type(q.word(data, 2).unwrap_or(0))
            {
                data = q.component_type(data);
            }
            if (!q.is_int_scalar_type(data) || q.bit_width(data) != 8) && !untyped(format) {
                return fail(R::FormatData);
            }
        }
        "prefetch" => {
            if q.opcode(result) != spv::Opcode::TypeVoid {
                return fail(R::VoidResult);
            }
            let p = ty(4);
            let Some((data, class)) = q.pointer_info(p) else {
                return fail(R::OperandPointer { operand: "Ptr" });
            };
            if class != S::CrossWorkgroup {
                return fail(R::PtrClass);
            }
            if !q.is_float_scalar_or_vector_type(data) && !q.is_int_scalar_or_vector_type(data) {
                return fail(R::PtrData);
            }
            if !vector_size(q.dimension(data)) {
                return fail(R::ResultComponents);
            }
            check_size_t(ty(5), "Num Elements")?;
        }
        _ => {}
    }
    Ok(())
}
