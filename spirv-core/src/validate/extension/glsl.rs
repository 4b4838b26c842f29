//! spirv-val's rules for `GLSL.std.450` instructions (`ValidateExtInstGlslStd450` in
//! `validate_extensions.cpp`): the result and operand types of each instruction, in
//! spirv-val's order. Instructions are told apart by their grammar names.

use super::{ExtInstError, ext_inst_name};
use crate::spv;
use crate::validate::faults::faults;
use crate::validate::{Fault, Inst, Query};
use GlslRule as R;

faults! {
    @description
    /// A `GLSL.std.450` instruction's rule, as spirv-val words it after the
    /// instruction's name.
    pub enum GlslRule {
        /// A result that is no float scalar or vector.
        FloatResult => "expected Result Type to be a float scalar or vector type",
        /// An operand whose type is not the result type.
        OperandsEqualResult => "expected types of all operands to be equal to Result Type",
        /// A result that is no integer scalar or vector.
        IntResult => "expected Result Type to be an int scalar or vector type",
        /// An operand that is no integer scalar or vector.
        IntOperands => "expected all operands to be int scalars or vectors",
        /// An operand with another component count than the result.
        OperandDimension => "expected all operands to have the same dimension as Result Type",
        /// An operand with another bit width than the result.
        OperandWidth => "expected all operands to have the same bit width as Result Type",
        /// `FindUMsb`/`FindSMsb` on other than 32-bit components.
        Msb32 => "this instruction is currently limited to 32-bit width components",
        /// A trigonometric or exponential result that is no 16- or 32-bit float.
        Float16Or32Result
            => "expected Result Type to be a 16 or 32-bit scalar or vector float type",
        /// A determinant of no square matrix.
        SquareX => "expected operand X to be a square matrix",
        /// A matrix inverse that is no square matrix.
        SquareResult => "expected Result Type to be a square matrix",
        /// A result that is no float scalar or vector (`Modf`, `Frexp`, `Ldexp`).
        ScalarOrVectorFloatResult => "expected Result Type to be a scalar or vector float type",
        /// An operand that is no pointer.
        Pointer {
            /// The operand's name.
            operand: &'static str,
        } => "expected operand {operand} to be a pointer",
        /// A `Modf` pointer to another type than the result.
        IDataType => "expected operand I data type to be equal to Result Type",
        /// A `ModfStruct` result that is no struct of two equal float members.
        ModfStructResult
            => "expected Result Type to be a struct with two identical scalar or vector float type members",
        /// A `ModfStruct` operand of another type than the members.
        XEqualMembers => "expected operand X type to be equal to members of Result Type struct",
        /// A `Frexp` exponent pointer to no integer of the allowed widths.
        ExpDataType {
            /// `32-bit ` or, with `SPV_AMD_gpu_shader_int16`, `16-bit or 32-bit `.
            widths: &'static str,
        } => "expected operand Exp data type to be a {widths}int scalar or vector type",
        /// A `Frexp` exponent with another component count than the result.
        ExpDataDimension
            => "expected operand Exp data type to have the same component number as Result Type",
        /// An `Ldexp` exponent that is no integer scalar or vector.
        ExpInt => "expected operand Exp to be a 32-bit int scalar or vector type",
        /// An `Ldexp` exponent with another component count than the result.
        ExpDimension => "expected operand Exp to have the same component number as Result Type",
        /// A `FrexpStruct` result of the wrong shape.
        FrexpStructResult {
            /// `32-bit ` or, with `SPV_AMD_gpu_shader_int16`, `16-bit or 32-bit `.
            widths: &'static str,
        } => "expected Result Type to be a struct with two members, first member a float scalar or vector, second member a {widths}int scalar or vector with the same number of components as the first member",
        /// A `FrexpStruct` operand of another type than the first member.
        XEqualFirstMember
            => "expected operand X type to be equal to the first member of Result Type struct",
        /// A packing result that is no 32-bit integer scalar.
        Int32Result => "expected Result Type to be 32-bit int scalar type",
        /// A packed operand that is no 32-bit float vector of the size.
        FloatVectorV {
            /// The size.
            size: u32,
        } => "expected operand V to be a 32-bit float vector of size {size}",
        /// A `PackDouble2x32` result that is no 64-bit float scalar.
        Float64Result => "expected Result Type to be 64-bit float scalar type",
        /// A `PackDouble2x32` operand that is no two 32-bit integers.
        IntVectorV => "expected operand V to be a 32-bit int vector of size 2",
        /// An unpacking result that is no 32-bit float vector of the size.
        FloatVectorResult {
            /// The size.
            size: u32,
        } => "expected Result Type to be a 32-bit float vector of size {size}",
        /// An unpacked operand that is no 32-bit integer scalar.
        Int32P => "expected operand P to be a 32-bit int scalar",
        /// An `UnpackDouble2x32` result that is no two 32-bit integers.
        IntVectorResult => "expected Result Type to be a 32-bit int vector of size 2",
        /// An `UnpackDouble2x32` operand that is no 64-bit float scalar.
        Float64V => "expected operand V to be a 64-bit float scalar",
        /// A `Length`/`Distance` result that is no float scalar.
        FloatScalarResult => "expected Result Type to be a float scalar type",
        /// An operand that is no float scalar or vector.
        FloatOperand {
            /// The operand's name.
            operand: &'static str,
        } => "expected operand {operand} to be of float scalar or vector type",
        /// An operand whose component type is not the result type.
        ComponentEqualResult {
            /// The operand's name.
            operand: &'static str,
        } => "expected operand {operand} component type to be equal to Result Type",
        /// `Distance` operands of other component counts.
        SameComponents => "expected operands P0 and P1 to have the same number of components",
        /// A `Cross` result that is no float vector.
        FloatVectorResultType => "expected Result Type to be a float vector type",
        /// A `Cross` result without 3 components.
        ThreeComponents => "expected Result Type to have 3 components",
        /// An operand whose type is not the result type.
        OperandEqualResult {
            /// The operand's name.
            operand: &'static str,
        } => "expected operand {operand} type to be equal to Result Type",
        /// A `Refract` operand whose type is not the result type.
        OperandOfResultType {
            /// The operand's name.
            operand: &'static str,
        } => "expected operand {operand} to be of type equal to Result Type",
        /// A `Refract` eta that is no float scalar.
        EtaScalar => "expected operand Eta to be a float scalar",
        /// An interpolation result that is no 32-bit float scalar or vector.
        Float32Result => "expected Result Type to be a 32-bit float scalar or vector type",
        /// An interpolant that is no pointer.
        InterpolantPointer => "expected Interpolant to be a pointer",
        /// An interpolant pointing to another type than the result.
        InterpolantDataType => "expected Interpolant data type to be equal to Result Type",
        /// An interpolant in another storage class than `Input`.
        InterpolantInput => "expected Interpolant storage class to be Input",
        /// An `InterpolateAtSample` sample that is no 32-bit integer.
        Sample32 => "expected Sample to be 32-bit integer",
        /// An `InterpolateAtOffset` offset that is no two 32-bit floats.
        Offset2 => "expected Offset to be a vector of 2 32-bit floats",
    }
}

/// `ValidateExtInstGlslStd450` for one instruction named `name` by the grammar.
pub(super) fn check(q: &Query<'_>, inst: &Inst<'_>, name: &str) -> Result<(), Fault> {
    let fail = |rule: GlslRule| -> Result<(), Fault> {
        Err(ExtInstError::Glsl {
            inst: ext_inst_name(q, inst),
            rule,
        }
        .into())
    };
    let result = inst.result_type();
    let args = 4..inst.operands.len();
    let ty = |i: usize| q.operand_type(inst, i);
    let all_equal_result = || args.clone().all(|i| ty(i) == result);
    // A float result, or with `coop_ok` a float cooperative vector.
    let float_result = |coop_ok: bool| {
        q.is_float_scalar_or_vector_type(result)
            || (coop_ok && q.is_cooperative_vector_of(result, |q, c| q.is_float_scalar_type(c)))
    };
    let coop_int = |t: u32| q.is_cooperative_vector_of(t, |q, c| q.is_int_scalar_type(c));
    let int16 = q.state.has_extension("SPV_AMD_gpu_shader_int16");
    let widths = if int16 {
        "16-bit or 32-bit "
    } else {
        "32-bit "
    };
    let exp_width_ok = |t: u32| matches!(q.bit_width(t), 32) || (int16 && q.bit_width(t) == 16);
    match name {
        "Round" | "RoundEven" | "FAbs" | "Trunc" | "FSign" | "Floor" | "Ceil" | "Fract"
        | "Sqrt" | "InverseSqrt" | "FMin" | "FMax" | "FClamp" | "FMix" | "Step" | "SmoothStep"
        | "Fma" | "Normalize" | "FaceForward" | "Reflect" | "NMin" | "NMax" | "NClamp" => {
            let coop_ok = matches!(
                name,
                "FMin" | "FMax" | "FClamp" | "NMin" | "NMax" | "NClamp" | "Step" | "Fma"
            );
            if !float_result(coop_ok) {
                return fail(R::FloatResult);
            }
            if !all_equal_result() {
                return fail(R::OperandsEqualResult);
            }
        }
        "SAbs" | "SSign" | "UMin" | "SMin" | "UMax" | "SMax" | "UClamp" | "SClamp" | "FindILsb"
        | "FindUMsb" | "FindSMsb" => {
            let coop_ok = matches!(
                name,
                "UMin" | "UMax" | "UClamp" | "SMin" | "SMax" | "SClamp"
            );
            let int = |t: u32| q.is_int_scalar_or_vector_type(t) || (coop_ok && coop_int(t));
            if !int(result) {
                return fail(R::IntResult);
            }
            let width = q.bit_width(result);
            let dimension = q.dimension(result);
            for i in args {
                let t = ty(i);
                if t == 0 || !int(t) {
                    return fail(R::IntOperands);
                }
                if dimension != q.dimension(t) {
                    return fail(R::OperandDimension);
                }
                if width != q.bit_width(t) {
                    return fail(R::OperandWidth);
                }
                if matches!(name, "FindUMsb" | "FindSMsb") && width != 32 {
                    return fail(R::Msb32);
                }
            }
        }
        "Radians" | "Degrees" | "Sin" | "Cos" | "Tan" | "Asin" | "Acos" | "Atan" | "Sinh"
        | "Cosh" | "Tanh" | "Asinh" | "Acosh" | "Atanh" | "Exp" | "Exp2" | "Log" | "Log2"
        | "Atan2" | "Pow" => {
            let coop_ok = matches!(name, "Atan" | "Tanh" | "Exp" | "Log");
            if !float_result(coop_ok) {
                return fail(R::Float16Or32Result);
            }
            if !matches!(q.bit_width(result), 16 | 32) {
                return fail(R::Float16Or32Result);
            }
            if !all_equal_result() {
                return fail(R::OperandsEqualResult);
            }
        }
        "Determinant" => match q.matrix_info(ty(4)) {
            Some((rows, columns, _, component)) if rows == columns => {
                if result != component {
                    return fail(R::ComponentEqualResult { operand: "X" });
                }
            }
            _ => return fail(R::SquareX),
        },
        "MatrixInverse" => {
            if q.matrix_info(result).is_none_or(|(r, c, ..)| r != c) {
                return fail(R::SquareResult);
            }
            if ty(4) != result {
                return fail(R::OperandEqualResult { operand: "X" });
            }
        }
        "Modf" => {
            if !q.is_float_scalar_or_vector_type(result) {
                return fail(R::ScalarOrVectorFloatResult);
            }
            if ty(4) != result {
                return fail(R::OperandEqualResult { operand: "X" });
            }
            let Some((data, _)) = q.pointer_info(ty(5)) else {
                return fail(R::Pointer { operand: "I" });
            };
            if data != result {
                return fail(R::IDataType);
            }
        }
        "ModfStruct" => {
            let members = q.struct_members(result);
            let ok = q.opcode(result) == spv::Opcode::TypeStruct
                && members.len() == 2
                && q.is_float_scalar_or_vector_type(members[0])
                && members[1] == members[0];
            if !ok {
                return fail(R::ModfStructResult);
            }
            if ty(4) != members[0] {
                return fail(R::XEqualMembers);
            }
        }
        "Frexp" => {
            if !q.is_float_scalar_or_vector_type(result) {
                return fail(R::ScalarOrVectorFloatResult);
            }
            if ty(4) != result {
                return fail(R::OperandEqualResult { operand: "X" });
            }
            let Some((data, _)) = q.pointer_info(ty(5)) else {
                return fail(R::Pointer { operand: "Exp" });
            };
            if !q.is_int_scalar_or_vector_type(data) || !exp_width_ok(data) {
                return fail(R::ExpDataType { widths });
            }
            if q.dimension(result) != q.dimension(data) {
                return fail(R::ExpDataDimension);
            }
        }
        "Ldexp" => {
            if !q.is_float_scalar_or_vector_type(result) {
                return fail(R::ScalarOrVectorFloatResult);
            }
            if ty(4) != result {
                return fail(R::OperandEqualResult { operand: "X" });
            }
            let exp = ty(5);
            if !q.is_int_scalar_or_vector_type(exp) {
                return fail(R::ExpInt);
            }
            if q.dimension(result) != q.dimension(exp) {
                return fail(R::ExpDimension);
            }
        }
        "FrexpStruct" => {
            let members = q.struct_members(result);
            let ok = q.opcode(result) == spv::Opcode::TypeStruct
                && members.len() == 2
                && q.is_float_scalar_or_vector_type(members[0])
                && q.is_int_scalar_or_vector_type(members[1])
                && exp_width_ok(members[1])
                && q.dimension(members[0]) == q.dimension(members[1]);
            if !ok {
                return fail(R::FrexpStructResult { widths });
            }
            if ty(4) != members[0] {
                return fail(R::XEqualFirstMember);
            }
        }
        "PackSnorm4x8" | "PackUnorm4x8" | "PackSnorm2x16" | "PackUnorm2x16" | "PackHalf2x16" => {
            let size = if name.ends_with("4x8") { 4 } else { 2 };
            if !q.is_int_scalar_type(result) || q.bit_width(result) != 32 {
                return fail(R::Int32Result);
            }
            let v = ty(4);
            if !q.is_float_vector_type(v) || q.dimension(v) != size || q.bit_width(v) != 32 {
                return fail(R::FloatVectorV { size });
            }
        }
        "PackDouble2x32" => {
            if !q.is_float_scalar_type(result) || q.bit_width(result) != 64 {
                return fail(R::Float64Result);
            }
            let v = ty(4);
            if !q.is_int_vector_type(v) || q.dimension(v) != 2 || q.bit_width(v) != 32 {
                return fail(R::IntVectorV);
            }
        }
        "UnpackSnorm4x8" | "UnpackUnorm4x8" | "UnpackSnorm2x16" | "UnpackUnorm2x16"
        | "UnpackHalf2x16" => {
            let size = if name.ends_with("4x8") { 4 } else { 2 };
            if !q.is_float_vector_type(result)
                || q.dimension(result) != size
                || q.bit_width(result) != 32
            {
                return fail(R::FloatVectorResult { size });
            }
            let p = ty(4);
            if !q.is_int_scalar_type(p) || q.bit_width(p) != 32 {
                return fail(R::Int32P);
            }
        }
        "UnpackDouble2x32" => {
            if !q.is_int_vector_type(result)
                || q.dimension(result) != 2
                || q.bit_width(result) != 32
            {
                return fail(R::IntVectorResult);
            }
            let v = ty(4);
            if !q.is_float_scalar_type(v) || q.bit_width(v) != 64 {
                return fail(R::Float64V);
            }
        }
        "Length" | "Distance" => {
            if !q.is_float_scalar_type(result) {
                return fail(R::FloatScalarResult);
            }
            let operands: &[&'static str] = if name == "Length" {
                &["X"]
            } else {
                &["P0", "P1"]
            };
            for (i, &operand) in operands.iter().enumerate() {
                let t = ty(4 + i);
                if !q.is_float_scalar_or_vector_type(t) {
                    return fail(R::FloatOperand { operand });
                }
                if result != q.component_type(t) {
                    return fail(R::ComponentEqualResult { operand });
                }
            }
            if name == "Distance" && q.dimension(ty(4)) != q.dimension(ty(5)) {
                return fail(R::SameComponents);
            }
        }
        "Cross" => {
            if !q.is_float_vector_type(result) {
                return fail(R::FloatVectorResultType);
            }
            if q.dimension(result) != 3 {
                return fail(R::ThreeComponents);
            }
            if ty(4) != result {
                return fail(R::OperandEqualResult { operand: "X" });
            }
            if ty(5) != result {
                return fail(R::OperandEqualResult { operand: "Y" });
            }
        }
        "Refract" => {
            if !q.is_float_scalar_or_vector_type(result) {
                return fail(R::FloatResult);
            }
            if ty(4) != result {
                return fail(R::OperandOfResultType { operand: "I" });
            }
            if ty(5) != result {
                return fail(R::OperandOfResultType { operand: "N" });
            }
            if !q.is_float_scalar_type(ty(6)) {
                return fail(R::EtaScalar);
            }
        }
        "InterpolateAtCentroid" | "InterpolateAtSample" | "InterpolateAtOffset" => {
            if !q
                .state
                .has_capability(spv::Capability::InterpolationFunction.0)
            {
                return Err(ExtInstError::InterpolationCapability {
                    inst: ext_inst_name(q, inst),
                }
                .into());
            }
            if !q.is_float_scalar_or_vector_type(result) || q.bit_width(result) != 32 {
                return fail(R::Float32Result);
            }
            // Before HLSL legalization an interpolant loaded by `OpLoad` stands for
            // the pointer it was loaded from.
            let interpolant = inst.word(4);
            let interpolant_type = if q.state.options.before_hlsl_legalization
                && q.opcode(interpolant) == spv::Opcode::Load
            {
                q.word(interpolant, 3).map_or(0, |p| q.type_of(p))
            } else {
                ty(4)
            };
            let Some((data, class)) = q.pointer_info(interpolant_type) else {
                return fail(R::InterpolantPointer);
            };
            if data != result {
                return fail(R::InterpolantDataType);
            }
            if class != spv::StorageClass::Input {
                return fail(R::InterpolantInput);
            }
            if name == "InterpolateAtSample" {
                let sample = ty(5);
                if !q.is_int_scalar_type(sample) || q.bit_width(sample) != 32 {
                    return fail(R::Sample32);
                }
            }
            if name == "InterpolateAtOffset" {
                let offset = ty(5);
                if !q.is_float_vector_type(offset)
                    || q.dimension(offset) != 2
                    || q.bit_width(offset) != 32
                {
                    return fail(R::Offset2);
                }
            }
            use crate::validate::limitations::{self, Limitation, rules};
            let rule = match name {
                "InterpolateAtCentroid" => &rules::INTERPOLATE_AT_CENTROID,
                "InterpolateAtSample" => &rules::INTERPOLATE_AT_SAMPLE,
                _ => &rules::INTERPOLATE_AT_OFFSET,
            };
            limitations::register(q, inst, Limitation::new(q, rule));
        }
        "IMix" => return Err(ExtInstError::IMix.into()),
        "Bad" => return Err(ExtInstError::Bad.into()),
        _ => {}
    }
    Ok(())
}
