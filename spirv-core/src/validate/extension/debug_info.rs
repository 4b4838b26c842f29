//! spirv-val's rules for the debug-info sets `OpenCL.DebugInfo.100` and
//! `NonSemantic.Shader.DebugInfo.100` (`ValidateExtInstDebugInfo100` in
//! `validate_extensions.cpp`): a void result, then, for the non-semantic set, the
//! rules of its own instructions and operands, then the rules both sets share, each
//! instruction's operands in spirv-val's order.
//!
//! The rules are rows: an operand, by its name in the grammar, and what it must be.
//! Where an operand stands comes from the vendored grammars: the shared rules count
//! words as `OpenCL.DebugInfo.100` lays its operands out (as spirv-val's do, also for
//! the non-semantic set: its `DebugTypeInheritance`, which has no `Child`, is read
//! that way too), the non-semantic rules as `NonSemantic.Shader.DebugInfo.100` does.
//! The two sets differ as spirv-val says: operands that are literals in the OpenCL set
//! and 32-bit unsigned constants in the non-semantic one are checked in the latter
//! only, and `DebugTypeMember` and `DebugFunction` have rows of their own per set.
//!
//! Every rule looks at the instruction and the definitions of its operands, never
//! further: a chain of scopes or composite types costs one step a link.

use super::{ExtInstError, ext_inst_name, is_uint32_constant};
use crate::ext::opencl_debug_info_100::GRAMMAR as OPENCL;
use crate::ext::shader_debug_info_100::GRAMMAR as SHADER;
use crate::grammar::{Grammar, InstructionInfo, Quantifier};
use crate::spirv_tools::SetKind;
use crate::spv::Opcode as O;
use crate::validate::faults::faults;
use crate::validate::{Fault, Inst, Query};
use DebugInfoRule as R;
use alloc::vec::Vec;
use core::cell::OnceCell;

faults! {
    @description
    /// A debug-info instruction's rule, as spirv-val words it after the instruction's
    /// name.
    pub enum DebugInfoRule {
        /// A result type other than `OpTypeVoid`.
        VoidResult => "expected result type must be a result id of OpTypeVoid",
        /// An operand that is not the result of an instruction of the opcode.
        Opcode {
            /// The operand's name.
            operand: &'static str,
            /// The opcode it must be the result of.
            opcode: O,
        } => "expected operand {operand} must be a result id of Op{opcode}",
        /// A non-semantic operand that is no 32-bit unsigned `OpConstant`.
        Uint32Constant {
            /// The operand's name.
            operand: &'static str,
        } => "expected operand {operand} must be a result id of 32-bit unsigned OpConstant",
        /// An operand that is not the debug instruction it must be.
        Debug {
            /// The operand's name.
            operand: &'static str,
            /// The debug instruction it must be the result of.
            expected: &'static str,
        } => "expected operand {operand} must be a result id of {expected}",
        /// An operand that is no lexical scope.
        LexicalScope {
            /// The operand's name.
            operand: &'static str,
        } => "expected operand {operand} must be a result id of a lexical scope",
        /// An operand that is no debug type.
        DebugType {
            /// The operand's name.
            operand: &'static str,
        } => "expected operand {operand} is not a valid debug type",
        /// A count whose value is not known.
        CountConstant {
            /// The operand's name.
            operand: &'static str,
        } => "{operand} must be 32-bit integer OpConstant",
        /// A vector count of 0 or over 4.
        CountRange {
            /// The operand's name.
            operand: &'static str,
        } => "{operand} must be positive integer less than or equal to 4",
        /// A `DebugTypeArray` count of the wrong kind.
        ArrayCount
            => "Component Count must be OpConstant with a 32- or 64-bits integer scalar type or DebugGlobalVariable or DebugLocalVariable with a 32- or 64-bits unsigned integer scalar type",
        /// A `DebugTypeEnum` size that is no positive integer.
        EnumSize => "expected operand Size is a positive integer",
        /// A `DebugTypeComposite` member of the wrong kind.
        Members
            => "expected operand Members must be DebugTypeMember, DebugFunction, or DebugTypeInheritance",
        /// A `DebugTypeInheritance` operand that is no class or struct.
        ClassOrStruct {
            /// The operand's name.
            operand: &'static str,
        } => "expected operand {operand} must be class or struct debug type",
        /// A `DebugDeclare` variable that is no variable or parameter.
        DeclareVariable
            => "expected operand Variable must be a result id of OpVariable or OpFunctionParameter",
        /// A `DebugGlobalVariable` variable of the wrong kind.
        GlobalVariable
            => "expected operand Variable must be a result id of OpVariable, OpConstant variant, OpSpecConstant variant or DebugInfoNone",
        /// A `DebugTypeTemplate` target of the wrong kind.
        TemplateTarget => "expected operand Target must be DebugTypeComposite or DebugFunction",
        /// A `DebugTypeTemplate` parameter of the wrong kind.
        TemplateParameters
            => "expected operand Parameters must be DebugTypeTemplateParameter or DebugTypeTemplateTemplateParameter",
        /// A `DebugValue` index of the wrong kind.
        Indexes
            => "expected operand Indexes is OpConstant, DebugGlobalVariable, or type is OpConstant with an integer scalar type",
        /// A non-semantic `DebugDeclare` index that is no integer scalar.
        ScalarIndex => "expected index must be scalar integer",
        /// A `DebugFunctionDefinition` outside its function's entry block.
        EntryBlock => "must be in the entry basic block of the function",
        /// A `DebugFunctionDefinition` naming another function than its own.
        Definition => "operand Definition must point to the OpFunction it is inside",
        /// A `DebugLine` that ends before it starts.
        LineOrder {
            /// The last line.
            end: u32,
            /// The first line.
            start: u32,
        } => "operand Line End ({end}) is less than Line Start ({start})",
        /// A one-line `DebugLine` whose last column comes before its first.
        ColumnOrder {
            /// The last column.
            end: u32,
            /// The first column.
            start: u32,
        } => "operand Column End ({end}) is less than Column Start ({start}) when Line Start equals Line End",
    }
}

/// What spirv-val asks of an operand.
#[derive(Debug, Clone, Copy)]
enum Check {
    /// The result of an instruction of the opcode (`CHECK_OPERAND`).
    Op(O),
    /// A 32-bit unsigned `OpConstant` in the non-semantic set; a literal, unchecked, in
    /// the OpenCL one (`CHECK_CONST_UINT_OPERAND`).
    Uint,
    /// The result of the debug instruction of this name (`CHECK_DEBUG_OPERAND`).
    Debug(&'static str),
    /// A lexical scope (`ValidateOperandLexicalScope`).
    Scope,
    /// A debug type, template parameters allowed or not (`ValidateOperandDebugType`).
    Type(bool),
    /// `DebugInfoNone`, or else the result of an instruction of the opcode.
    NoneOrOp(O),
    /// `DebugInfoNone`, or else a debug type without template parameters.
    NoneOrType,
    /// A `DebugTypeFunction` return type: `OpTypeVoid`, or else a debug type.
    ReturnType,
    /// A vector's or matrix's count: known, positive and at most 4.
    Count,
    /// A `DebugTypeArray` count.
    ArrayCount,
    /// A `DebugTypeEnum` size: a positive integer.
    EnumSize,
    /// `DebugTypeEnum`'s value and name pairs.
    EnumValues,
    /// A `DebugTypeComposite` member.
    Member,
    /// A composite type whose tag is a class or a struct.
    ClassOrStruct,
    /// A `DebugDeclare` variable.
    DeclareVariable,
    /// A `DebugGlobalVariable` variable.
    GlobalVariable,
    /// A `DebugTypeTemplate` target.
    TemplateTarget,
    /// A `DebugTypeTemplate` parameter.
    TemplateParameter,
    /// A `DebugValue` index.
    Index,
    /// A non-semantic `DebugDeclare` index.
    ScalarIndex,
    /// A `DebugFunctionDefinition`'s place and function.
    Definition,
    /// A `DebugLine`'s lines and columns in order.
    LineOrder,
}

/// One row: an operand by its grammar name, spirv-val's name for it where that differs,
/// and what it must be. A variadic operand's check applies to each of its words, an
/// optional one's only when the instruction ends with it (spirv-val's `num_words ==`).
#[derive(Debug, Clone, Copy)]
struct Row {
    operand: &'static str,
    label: Option<&'static str>,
    check: Check,
}

/// A row whose operand spirv-val names as the grammar does.
const fn r(operand: &'static str, check: Check) -> Row {
    Row {
        operand,
        label: None,
        check,
    }
}

/// A row whose operand spirv-val names otherwise.
const fn named(operand: &'static str, label: &'static str, check: Check) -> Row {
    Row {
        operand,
        label: Some(label),
        check,
    }
}

use Check::*;

/// A table of rows, built at compile time.
macro_rules! rows {
    ($($row:expr),* $(,)?) => {
        const { &[$($row),*] as &[Row] }
    };
}

/// The rules of `NonSemantic.Shader.DebugInfo.100`'s own (the first switch of
/// `ValidateExtInstDebugInfo100`), its operands as that set lays them out.
fn shader_rows(name: &str) -> &'static [Row] {
    match name {
        "DebugTypeBasic" => rows![r("Flags", Uint)],
        "DebugDeclare" => rows![r("Indexes", ScalarIndex)],
        "DebugTypeMatrix" => rows![
            r("Vector Type", Debug("DebugTypeVector")),
            r("Vector Count", Uint),
            r("Vector Count", Count),
        ],
        "DebugFunctionDefinition" => rows![
            r("Function", Debug("DebugFunction")),
            r("Definition", Op(O::Function)),
            r("Definition", Definition),
        ],
        "DebugLine" => rows![
            r("Source", Debug("DebugSource")),
            r("Line Start", Uint),
            r("Line End", Uint),
            r("Column Start", Uint),
            r("Column End", Uint),
            r("Line Start", LineOrder),
        ],
        "DebugSourceContinued" => rows![r("Text", Op(O::String))],
        "DebugBuildIdentifier" => rows![r("Identifier", Op(O::String)), r("Flags", Uint)],
        "DebugStoragePath" => rows![r("Path", Op(O::String))],
        "DebugEntryPoint" => rows![
            r("Entry Point", Debug("DebugFunction")),
            r("Compilation Unit", Debug("DebugCompilationUnit")),
            r("Compiler Signature", Op(O::String)),
            r("Command-line Arguments", Op(O::String)),
        ],
        _ => &[],
    }
}

/// The leading rows `DebugFunction` has in both sets.
macro_rules! function_head {
    ($($tail:expr),* $(,)?) => {
        rows![
            r("Name", Op(O::String)),
            r("Type", Debug("DebugTypeFunction")),
            r("Source", Debug("DebugSource")),
            r("Line", Uint),
            r("Column", Uint),
            r("Parent", Scope),
            r("Linkage Name", Op(O::String)),
            r("Flags", Uint),
            r("Scope Line", Uint),
            $($tail),*
        ]
    };
}

/// The leading rows `DebugTypeMember` has in both sets.
macro_rules! member_head {
    ($($tail:expr),* $(,)?) => {
        rows![
            r("Name", Op(O::String)),
            r("Type", Type(true)),
            r("Source", Debug("DebugSource")),
            r("Line", Uint),
            r("Column", Uint),
            $($tail),*
        ]
    };
}

/// The rules of `DebugTypeMember` and `DebugFunction` in the non-semantic set, which
/// lays their operands out otherwise (no `Parent` member, no `Function`).
fn shader_common_rows(name: &str) -> Option<&'static [Row]> {
    Some(match name {
        "DebugTypeMember" => member_head![
            r("Offset", Op(O::Constant)),
            r("Size", Op(O::Constant)),
            r("Flags", Uint),
            r("Value", Op(O::Constant)),
        ],
        "DebugFunction" => function_head![r("Declaration", Debug("DebugFunctionDeclaration"))],
        _ => return None,
    })
}

/// The rules both sets share (the second switch of `ValidateExtInstDebugInfo100`), their
/// operands as `OpenCL.DebugInfo.100` lays them out.
fn common_rows(name: &str) -> &'static [Row] {
    match name {
        "DebugOperation" => rows![
            named("OpCode", "Operation", Uint),
            named("Operands ...", "Operand", Uint),
        ],
        "DebugCompilationUnit" => rows![
            r("Version", Uint),
            r("DWARF Version", Uint),
            r("Source", Debug("DebugSource")),
            r("Language", Uint),
        ],
        "DebugSource" => rows![r("File", Op(O::String)), r("Text", Op(O::String))],
        "DebugTypeBasic" => rows![
            r("Name", Op(O::String)),
            r("Size", Op(O::Constant)),
            r("Encoding", Uint),
        ],
        "DebugTypePointer" => rows![
            r("Base Type", Type(false)),
            r("Storage Class", Uint),
            r("Flags", Uint),
        ],
        "DebugTypeQualifier" => rows![r("Base Type", Type(false)), r("Type Qualifier", Uint)],
        "DebugTypeVector" => rows![
            r("Base Type", Debug("DebugTypeBasic")),
            r("Component Count", Uint),
            r("Component Count", Count),
        ],
        "DebugTypeArray" => rows![
            r("Base Type", Type(false)),
            r("Component Counts", ArrayCount)
        ],
        "DebugTypedef" => rows![
            r("Name", Op(O::String)),
            r("Base Type", Debug("DebugTypeBasic")),
            r("Source", Debug("DebugSource")),
            r("Line", Uint),
            r("Column", Uint),
            r("Parent", Scope),
        ],
        "DebugTypeFunction" => rows![
            r("Flags", Uint),
            r("Return Type", ReturnType),
            r("Parameter Types", Type(true)),
        ],
        "DebugTypeEnum" => rows![
            r("Name", Op(O::String)),
            named("Underlying Type", "Underlying Types", NoneOrType),
            r("Source", Debug("DebugSource")),
            r("Line", Uint),
            r("Column", Uint),
            r("Parent", Scope),
            r("Size", Op(O::Constant)),
            r("Size", EnumSize),
            r("Flags", Uint),
            r("Value, Name, Value, Name, ...", EnumValues),
        ],
        "DebugTypeComposite" => rows![
            r("Name", Op(O::String)),
            r("Source", Debug("DebugSource")),
            r("Line", Uint),
            r("Column", Uint),
            r("Parent", Scope),
            r("Linkage Name", Op(O::String)),
            r("Size", NoneOrOp(O::Constant)),
            r("Flags", Uint),
            r("Members", Member),
        ],
        "DebugTypeMember" => member_head![
            r("Parent", Debug("DebugTypeComposite")),
            r("Offset", Op(O::Constant)),
            r("Size", Op(O::Constant)),
            r("Flags", Uint),
            r("Value", Op(O::Constant)),
        ],
        "DebugTypeInheritance" => rows![
            r("Child", Debug("DebugTypeComposite")),
            r("Child", ClassOrStruct),
            r("Parent", Debug("DebugTypeComposite")),
            r("Parent", ClassOrStruct),
            r("Offset", Op(O::Constant)),
            r("Size", Op(O::Constant)),
            r("Flags", Uint),
        ],
        "DebugFunction" => function_head![
            r("Function", NoneOrOp(O::Function)),
            r("Declaration", Debug("DebugFunctionDeclaration")),
        ],
        "DebugFunctionDeclaration" => rows![
            r("Name", Op(O::String)),
            r("Type", Debug("DebugTypeFunction")),
            r("Source", Debug("DebugSource")),
            r("Line", Uint),
            r("Column", Uint),
            r("Parent", Scope),
            r("Linkage Name", Op(O::String)),
            r("Flags", Uint),
        ],
        "DebugLexicalBlock" => rows![
            r("Source", Debug("DebugSource")),
            r("Line", Uint),
            r("Column", Uint),
            r("Parent", Scope),
            r("Name", Op(O::String)),
        ],
        "DebugScope" => rows![r("Scope", Scope), r("Inlined At", Debug("DebugInlinedAt")),],
        "DebugLocalVariable" => rows![
            r("Name", Op(O::String)),
            r("Type", Type(true)),
            r("Source", Debug("DebugSource")),
            r("Line", Uint),
            r("Column", Uint),
            r("Parent", Scope),
            r("Flags", Uint),
            named("Arg Number", "ArgNumber", Uint),
        ],
        "DebugDeclare" => rows![
            r("Local Variable", Debug("DebugLocalVariable")),
            r("Variable", DeclareVariable),
            r("Expression", Debug("DebugExpression")),
        ],
        "DebugExpression" => rows![named("Operands ...", "Operation", Debug("DebugOperation"))],
        "DebugTypeTemplate" => rows![
            r("Target", TemplateTarget),
            r("Parameters", TemplateParameter),
        ],
        "DebugTypeTemplateParameter" => rows![
            r("Name", Op(O::String)),
            r("Actual Type", Type(false)),
            r("Value", NoneOrOp(O::Constant)),
            r("Source", Debug("DebugSource")),
            r("Line", Uint),
            r("Column", Uint),
        ],
        "DebugGlobalVariable" => rows![
            r("Name", Op(O::String)),
            r("Type", Type(false)),
            r("Source", Debug("DebugSource")),
            r("Line", Uint),
            r("Column", Uint),
            named("Parent", "Scope", Scope),
            r("Linkage Name", Op(O::String)),
            r("Variable", GlobalVariable),
            r("Static Member Declaration", Debug("DebugTypeMember")),
        ],
        "DebugInlinedAt" => rows![
            r("Line", Uint),
            r("Scope", Scope),
            r("Inlined", Debug("DebugInlinedAt")),
        ],
        "DebugValue" => rows![
            r("Local Variable", Debug("DebugLocalVariable")),
            r("Expression", Debug("DebugExpression")),
            r("Indexes", Index),
        ],
        _ => &[],
    }
}

/// What `DebugGlobalVariable`'s variable may be the result of, besides `DebugInfoNone`.
const GLOBAL_VARIABLES: &[O] = &[
    O::Variable,
    O::ConstantTrue,
    O::ConstantFalse,
    O::Constant,
    O::ConstantComposite,
    O::ConstantSampler,
    O::ConstantNull,
    O::SpecConstantTrue,
    O::SpecConstantFalse,
    O::SpecConstant,
    O::SpecConstantComposite,
    O::SpecConstantOp,
];

/// The number the shared rules know a debug instruction by (spirv-val's
/// `CommonDebugInfoInstructions`, which `OpenCL.DebugInfo.100` numbers).
fn common(name: &str) -> u32 {
    OPENCL
        .instruction_by_name(name)
        .map_or(u32::MAX, |i| i.opcode)
}

/// The value of an `OpenCL.DebugInfo.100` enumerant (`kind`, `name`), which spirv-val
/// compares raw words against in both sets.
fn enumerant(kind: &str, name: &str) -> u32 {
    OPENCL
        .kind(kind)
        .and_then(|k| k.enumerant_by_name(name))
        .map_or(u32::MAX, |e| e.value)
}

/// The word operand `operand` starts at in `info` (counted from the instruction's first
/// word, after the set and the instruction number), and its quantifier.
fn position(info: &InstructionInfo, operand: &str) -> Option<(usize, Quantifier)> {
    let k = info.operands.iter().position(|o| o.name == operand)?;
    Some((5 + k, info.operands[k].quantifier))
}

/// Where the module's functions and blocks begin, for `DebugFunctionDefinition`.
#[derive(Debug, Default)]
pub(super) struct Blocks(OnceCell<(Vec<usize>, Vec<usize>)>);

impl Blocks {
    /// The `OpFunction` holding instruction `i` (its index) and whether `i` stands in
    /// that function's first block.
    fn of(&self, q: &Query<'_>, i: usize) -> Option<(usize, bool)> {
        let (functions, labels) = self.0.get_or_init(|| {
            let (mut functions, mut labels) = (Vec::new(), Vec::new());
            for (k, x) in q.module.instructions().enumerate() {
                match x.opcode() {
                    O::Function => functions.push(k),
                    O::Label => labels.push(k),
                    _ => {}
                }
            }
            (functions, labels)
        });
        let f = *functions.get(functions.partition_point(|&k| k < i).checked_sub(1)?)?;
        let first = labels.get(labels.partition_point(|&k| k <= f)).copied();
        let block = labels
            .partition_point(|&k| k < i)
            .checked_sub(1)
            .and_then(|k| labels.get(k))
            .copied();
        Some((f, first.is_some() && first == block))
    }
}

/// One debug-info instruction being checked.
struct Ctx<'q, 'a, 'b> {
    q: &'q Query<'a>,
    inst: &'q Inst<'b>,
    /// Of `NonSemantic.Shader.DebugInfo.100` (else of `OpenCL.DebugInfo.100`).
    shader: bool,
    blocks: &'q Blocks,
}

impl Ctx<'_, '_, '_> {
    /// Word `i` of the instruction, 0 past its end.
    fn word(&self, i: usize) -> u32 {
        self.inst.words.get(i).copied().unwrap_or(0)
    }

    /// The set and number of the debug-info instruction word `i` names, if it names one
    /// of either set (`DoesDebugInfoOperandMatchExpectation` before the expectation).
    fn debug_at(&self, i: usize) -> Option<(bool, u32)> {
        let id = *self.inst.words.get(i)?;
        let d = self.q.def(id)?;
        if !matches!(d.opcode(), O::ExtInst | O::ExtInstWithForwardRefsKHR) {
            return None;
        }
        let w = d.words();
        let shader = match self.q.state.sets.get(w.get(3)?) {
            Some(SetKind::OpenClDebugInfo100) => false,
            Some(SetKind::ShaderDebugInfo100) => true,
            _ => return None,
        };
        Some((shader, *w.get(4)?))
    }

    /// Whether word `i` names a debug-info instruction of one of the shared `names`.
    fn is_debug(&self, i: usize, names: &[&str]) -> bool {
        self.debug_at(i)
            .is_some_and(|(_, n)| names.iter().any(|&name| common(name) == n))
    }

    /// `ValidateOperandDebugType` for word `i`.
    fn is_debug_type(&self, i: usize, templates: bool) -> bool {
        let Some((shader, n)) = self.debug_at(i) else {
            return false;
        };
        if self.shader
            && shader
            && Some(n)
                == SHADER
                    .instruction_by_name("DebugTypeMatrix")
                    .map(|m| m.opcode)
        {
            return true;
        }
        let template = [
            "DebugTypeTemplateParameter",
            "DebugTypeTemplateTemplateParameter",
        ];
        (templates && template.iter().any(|&t| common(t) == n))
            || (common("DebugTypeBasic")..=common("DebugTypeTemplate")).contains(&n)
    }

    /// The opcode of the definition of the id at word `i` (`OpNop` when none).
    fn opcode_at(&self, i: usize) -> O {
        self.q.opcode(self.word(i))
    }

    /// A word of the definition of the id at word `i` of the instruction.
    fn def_word(&self, i: usize, k: usize) -> Option<u32> {
        self.q.word(self.word(i), k)
    }

    /// `IsDebugVariableWithIntScalarType` / the `DebugTypeArray` count rule on a
    /// variable: the debug type of the `DebugLocalVariable` or `DebugGlobalVariable` at
    /// word `i`, if it names one by number (spirv-val reads word 4 of whatever it is).
    fn variable_type(&self, i: usize) -> Option<u32> {
        let id = self.word(i);
        let n = self.q.word(id, 4)?;
        if n != common("DebugLocalVariable") && n != common("DebugGlobalVariable") {
            return None;
        }
        self.q.word(id, 6)
    }

    /// The encoding of the `DebugTypeBasic` `ty` as spirv-val reads it: its literal in
    /// the OpenCL set, the value of its 32-bit unsigned constant in the non-semantic set
    /// (`None` when it is no such constant), `None` when `ty` is no `DebugTypeBasic`.
    fn basic_encoding(&self, ty: u32) -> Option<u32> {
        if self.q.word(ty, 4)? != common("DebugTypeBasic") {
            return None;
        }
        let encoding = self.q.word(ty, 7)?;
        if !self.shader {
            return Some(encoding);
        }
        is_uint32_constant(self.q, encoding).then(|| self.q.word(encoding, 3).unwrap_or(0))
    }

    /// One row's check of the operand at word `i`, named `operand`.
    fn check(&self, check: Check, operand: &'static str, i: usize) -> Result<(), R> {
        let q = self.q;
        let ok = |b: bool, e: R| if b { Ok(()) } else { Err(e) };
        match check {
            Op(opcode) => ok(self.opcode_at(i) == opcode, R::Opcode { operand, opcode }),
            Uint if self.shader => ok(
                is_uint32_constant(q, self.word(i)),
                R::Uint32Constant { operand },
            ),
            Uint => Ok(()),
            Debug(expected) => ok(
                self.is_debug(i, &[expected]),
                R::Debug { operand, expected },
            ),
            Scope => ok(
                self.is_debug(
                    i,
                    &[
                        "DebugCompilationUnit",
                        "DebugFunction",
                        "DebugLexicalBlock",
                        "DebugTypeComposite",
                    ],
                ),
                R::LexicalScope { operand },
            ),
            Type(templates) => ok(self.is_debug_type(i, templates), R::DebugType { operand }),
            NoneOrOp(opcode) if !self.is_debug(i, &["DebugInfoNone"]) => {
                self.check(Op(opcode), operand, i)
            }
            NoneOrType if !self.is_debug(i, &["DebugInfoNone"]) => {
                self.check(Type(false), operand, i)
            }
            NoneOrOp(_) | NoneOrType => Ok(()),
            ReturnType if self.opcode_at(i) != O::TypeVoid => self.check(Type(true), operand, i),
            ReturnType => Ok(()),
            Count => {
                let count = if self.shader {
                    let v = q
                        .constant_u64(self.word(i))
                        .ok_or(R::CountConstant { operand })?;
                    v as u32
                } else {
                    self.word(i)
                };
                ok((1..=4).contains(&count), R::CountRange { operand })
            }
            ArrayCount => ok(self.array_count(i), R::ArrayCount),
            EnumSize => {
                let size = self.word(i);
                let int = q.is_int_scalar_type(q.type_of(size));
                ok(int && q.word(size, 3).is_some_and(|v| v != 0), R::EnumSize)
            }
            EnumValues => {
                let mut k = i;
                while k + 1 < self.inst.words.len() {
                    self.check(Op(O::Constant), "Value", k)?;
                    self.check(Op(O::String), "Name", k + 1)?;
                    k += 2;
                }
                Ok(())
            }
            Member => ok(
                self.is_debug(
                    i,
                    &["DebugTypeMember", "DebugFunction", "DebugTypeInheritance"],
                ),
                R::Members,
            ),
            ClassOrStruct => {
                let tag = self.def_word(i, 6);
                let kinds = [
                    enumerant("DebugCompositeType", "Class"),
                    enumerant("DebugCompositeType", "Structure"),
                ];
                ok(
                    tag.is_some_and(|t| kinds.contains(&t)),
                    R::ClassOrStruct { operand },
                )
            }
            DeclareVariable => ok(
                matches!(self.opcode_at(i), O::Variable | O::FunctionParameter),
                R::DeclareVariable,
            ),
            GlobalVariable => ok(
                self.is_debug(i, &["DebugInfoNone"])
                    || GLOBAL_VARIABLES.contains(&self.opcode_at(i)),
                R::GlobalVariable,
            ),
            TemplateTarget => ok(
                self.is_debug(i, &["DebugTypeComposite", "DebugFunction"]),
                R::TemplateTarget,
            ),
            TemplateParameter => ok(
                self.is_debug(
                    i,
                    &[
                        "DebugTypeTemplateParameter",
                        "DebugTypeTemplateTemplateParameter",
                    ],
                ),
                R::TemplateParameters,
            ),
            Index => {
                let constant = self.opcode_at(i) == O::Constant
                    && q.is_int_scalar_type(q.type_of(self.word(i)));
                let signed = enumerant("DebugBaseTypeAttributeEncoding", "Signed");
                let unsigned = enumerant("DebugBaseTypeAttributeEncoding", "Unsigned");
                let variable = || {
                    self.variable_type(i)
                        .and_then(|t| self.basic_encoding(t))
                        .is_some_and(|e| e == signed || e == unsigned)
                };
                ok(constant || variable(), R::Indexes)
            }
            ScalarIndex => {
                let t = q.type_of(self.word(i));
                ok(t != 0 && q.is_int_scalar_type(t), R::ScalarIndex)
            }
            Definition => {
                let (function, entry) = self
                    .blocks
                    .of(q, self.inst.index)
                    .unwrap_or((usize::MAX, false));
                if !entry {
                    return Err(R::EntryBlock);
                }
                let id = q
                    .module
                    .instruction(function)
                    .and_then(|f| f.words().get(2).copied());
                ok(id == Some(self.word(i)), R::Definition)
            }
            LineOrder => {
                let value = |operand: &str| {
                    let at = SHADER
                        .instruction_by_name("DebugLine")
                        .and_then(|info| position(info, operand))
                        .map_or(usize::MAX, |(at, _)| at);
                    q.int32_if_const(self.word(at)).2
                };
                let (start, end) = (value("Line Start"), value("Line End"));
                let (first, last) = (value("Column Start"), value("Column End"));
                if end < start {
                    Err(R::LineOrder { end, start })
                } else if start == end && last < first {
                    Err(R::ColumnOrder {
                        end: last,
                        start: first,
                    })
                } else {
                    Ok(())
                }
            }
        }
    }

    /// spirv-val's rule for one `DebugTypeArray` count at word `i`: a 32- or 64-bit
    /// integer `OpConstant` (not 0 in the OpenCL set), or a debug variable of a basic
    /// unsigned type of 32 or 64 bits.
    fn array_count(&self, i: usize) -> bool {
        let q = self.q;
        let id = self.word(i);
        let t = q.type_of(id);
        if self.opcode_at(i) == O::Constant
            && q.is_int_scalar_type(t)
            && matches!(q.bit_width(t), 32 | 64)
        {
            return self.shader || q.word(id, 3).is_some_and(|v| v != 0);
        }
        if q.def(id).is_none_or(|d| d.words().len() <= 6) {
            return false;
        }
        let Some(ty) = self.variable_type(i) else {
            return false;
        };
        if q.def(ty).is_none_or(|d| d.words().len() <= 7) {
            return false;
        }
        let unsigned = enumerant("DebugBaseTypeAttributeEncoding", "Unsigned");
        if self.basic_encoding(ty) != Some(unsigned) {
            return false;
        }
        let size = q.word(ty, 6).unwrap_or(0);
        q.is_int_scalar_type(q.type_of(size)) && matches!(q.word(size, 3), Some(32 | 64))
    }

    /// Runs `rows`, their operands found in `grammar`'s layout of instruction `name`.
    fn run(&self, grammar: &Grammar, name: &str, rows: &[Row]) -> Result<(), R> {
        let Some(info) = grammar.instruction_by_name(name) else {
            return Ok(());
        };
        let len = self.inst.words.len();
        for row in rows {
            let Some((at, quantifier)) = position(info, row.operand) else {
                continue;
            };
            let label = row.label.unwrap_or(row.operand);
            match quantifier {
                Quantifier::Variadic if !matches!(row.check, EnumValues) => {
                    for i in at..len {
                        self.check(row.check, label, i)?;
                    }
                }
                Quantifier::Optional if len != at + 1 => {}
                _ => self.check(row.check, label, at)?,
            }
        }
        Ok(())
    }
}

/// `ValidateExtInstDebugInfo100` for one instruction of `OpenCL.DebugInfo.100` or, with
/// `shader`, `NonSemantic.Shader.DebugInfo.100`.
pub(super) fn check(
    q: &Query<'_>,
    inst: &Inst<'_>,
    shader: bool,
    blocks: &Blocks,
) -> Result<(), Fault> {
    let fail = |rule: DebugInfoRule| -> Fault {
        ExtInstError::DebugInfo {
            inst: ext_inst_name(q, inst),
            rule,
        }
        .into()
    };
    if !q.is_void_type(inst.result_type()) {
        return Err(fail(R::VoidResult));
    }
    let ctx = Ctx {
        q,
        inst,
        shader,
        blocks,
    };
    let number = inst.word(3);
    if shader {
        let name = SHADER.instruction(number).map_or("", |i| i.opname);
        ctx.run(&SHADER, name, shader_rows(name)).map_err(fail)?;
        if let Some(rows) = shader_common_rows(name) {
            return ctx.run(&SHADER, name, rows).map_err(fail);
        }
    }
    // The shared rules know instructions by the OpenCL set's numbers (the non-semantic
    // set's own, from 101, are none of them).
    let name = OPENCL.instruction(number).map_or("", |i| i.opname);
    ctx.run(&OPENCL, name, common_rows(name)).map_err(fail)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every row names an operand of its instruction in the grammar it is read with.
    #[test]
    fn rows_name_grammar_operands() {
        let check = |grammar: &Grammar, rows: fn(&str) -> &'static [Row]| {
            for info in grammar.instructions {
                for row in rows(info.opname) {
                    assert!(
                        position(info, row.operand).is_some(),
                        "{} has no operand {}",
                        info.opname,
                        row.operand
                    );
                }
            }
        };
        check(&SHADER, shader_rows);
        check(&SHADER, |n| shader_common_rows(n).unwrap_or(&[]));
        check(&OPENCL, common_rows);
        for name in ["DebugTypeMatrix", "DebugLine"] {
            assert!(SHADER.instruction_by_name(name).is_some());
        }
        for (kind, name) in [
            ("DebugCompositeType", "Class"),
            ("DebugCompositeType", "Structure"),
            ("DebugBaseTypeAttributeEncoding", "Signed"),
            ("DebugBaseTypeAttributeEncoding", "Unsigned"),
        ] {
            assert_ne!(enumerant(kind, name), u32::MAX);
        }
    }
}
