//! How grammar names become Rust identifiers. This is the only place that decides.
//!
//! The rule, applied the same way to every grammar:
//!
//! 1. **Instructions** (`inst::TypeInt`, `Instruction::TypeInt`, `Opcode::TypeInt`): the
//!    opname with a leading `Op` removed when a capital letter follows it
//!    (`OpTypeInt` → `TypeInt`; extended-set names such as `Sqrt` are kept).
//! 2. **Operand kinds and value enumerants** keep the grammar spelling when it is already
//!    an identifier (`FPFastMathMode`, `GLSL450`). Otherwise every character outside
//!    `[A-Za-z0-9_]` becomes `_`, and a name that then starts with a digit gets the
//!    name of its scope as a prefix: the kind for enumerants (`Dim::Dim1D`,
//!    `CooperativeMatrixReduce::CooperativeMatrixReduce2x2`), `Op` for instructions.
//! 3. **Mask bits** are SCREAMING_SNAKE_CASE of the enumerant name, words split at case
//!    changes, except that the grammars' mixed-case terms ([`TERMS`]: `NaN`, `BFloat16`,
//!    `TF32`) and plural acronyms (capitals then `s`: `AABBs`) stay whole words
//!    (`NotNaN` → `NOT_NAN`, `MatrixBTF32INTEL` → `MATRIX_B_TF32_INTEL`,
//!    `MatrixAPackedBFloat16INTEL` → `MATRIX_A_PACKED_BFLOAT16_INTEL`, `SkipAABBsKHR` →
//!    `SKIP_AABBS_KHR`), with the same digit rule using the kind in SCREAMING case.
//! 4. **Fields** come from the operand name: quotes, AsciiDoc markup
//!    (`<<Invocation,invocations>>` → `invocations`, `D~ref~` → `Dref`) and punctuation are
//!    dropped, then snake_case. A `*` operand is named after the first item of its list,
//!    digits removed, in the plural (`Operand 1, Operand 2, ...` → `operands`). An unnamed
//!    operand is named after its kind: drop a leading `Id`, snake_case, and append `_id`
//!    for id kinds unless the name already ends in `type` (`IdResultType` → `result_type`,
//!    `IdResult` → `result_id`, `IdRef` → `ref_id`, `LiteralInteger` → `literal_integer`).
//!    A name repeated in one instruction gets `_2`, `_3`, … in order. The operand that
//!    embeds another instruction (`OpSpecConstantOp`'s) is `operation`. A mask
//!    `…Data` type's parameter field is the snake_case of its bit's enumerant (`Aligned`
//!    → `aligned`), `bit_` before a leading digit.
//! 5. **Keywords**: a name that does not parse as an identifier becomes a raw
//!    identifier (`r#type`), or gets a trailing `_` where raw is impossible (`self_`).
//! 6. **Instruction classes** (`Class::TypeDeclaration`): UpperCamelCase of the class
//!    (`Type-Declaration` → `TypeDeclaration`, `Relational_and_Logical` →
//!    `RelationalAndLogical`, `@exclude` → `Exclude`), with the digit rule (scope `Class`).
//!
//! Names that still clash in one scope after these rules are reported as errors by the
//! emitter, naming both grammar entries.

use heck::{ToShoutySnakeCase, ToSnakeCase, ToUpperCamelCase};

/// Applies rule 5: returns the name itself, `r#name`, or `name_`.
pub fn fix_keyword(name: String) -> String {
    if !is_keyword(&name) {
        return name;
    }
    if matches!(name.as_str(), "self" | "Self" | "super" | "crate" | "_") {
        format!("{name}_")
    } else {
        format!("r#{name}")
    }
}

/// Whether `name` is reserved in Rust 2024 (strict or reserved keywords).
pub fn is_keyword(name: &str) -> bool {
    // The one list of Rust's reserved words; it changes only with a new edition.
    matches!(
        name,
        "as" | "break"
            | "const"
            | "continue"
            | "crate"
            | "else"
            | "enum"
            | "extern"
            | "false"
            | "fn"
            | "for"
            | "if"
            | "impl"
            | "in"
            | "let"
            | "loop"
            | "match"
            | "mod"
            | "move"
            | "mut"
            | "pub"
            | "ref"
            | "return"
            | "self"
            | "Self"
            | "static"
            | "struct"
            | "super"
            | "trait"
            | "true"
            | "type"
            | "unsafe"
            | "use"
            | "where"
            | "while"
            | "async"
            | "await"
            | "dyn"
            | "abstract"
            | "become"
            | "box"
            | "do"
            | "final"
            | "macro"
            | "override"
            | "priv"
            | "typeof"
            | "unsized"
            | "virtual"
            | "yield"
            | "try"
            | "gen"
            | "_"
    )
}

fn sanitize(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c == '_' || c.is_ascii_alphanumeric() {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Rule 2 for a name in the scope `scope` (a kind name, or `Op`).
pub fn type_like(name: &str, scope: &str) -> String {
    let mut s = sanitize(name);
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) {
        s = format!("{}{s}", sanitize(scope));
    }
    fix_keyword(s)
}

/// Rule 1: the Rust name of an instruction.
pub fn instruction(opname: &str) -> String {
    let stripped = match opname.strip_prefix("Op") {
        Some(rest) if rest.starts_with(|c: char| c.is_ascii_uppercase()) => rest,
        _ => opname,
    };
    type_like(stripped, "Op")
}

/// Rule 2: the type of a kind whose enumerants take parameters, with them (`…Data`).
pub fn data(kind_name: &str) -> String {
    format!("{}Data", kind(kind_name))
}

/// Rule 4: the fields of an instruction, in operand order. `embeds` says whether an
/// operand kind embeds another instruction.
pub fn instruction_fields(
    operands: &[crate::model::Operand],
    embeds: impl Fn(&str) -> bool,
) -> Vec<String> {
    let mut names: Vec<String> = operands
        .iter()
        .map(|op| {
            if embeds(&op.kind) {
                "operation".to_owned()
            } else {
                field(
                    op.name.as_deref(),
                    &op.kind,
                    op.quantifier == crate::model::Quantifier::Variadic,
                )
            }
        })
        .collect();
    dedup(&mut names);
    names
}

/// Rule 4: a mask `…Data` type's field for the parameters of enumerant `name`.
pub fn mask_field(name: &str) -> String {
    let s = name.to_snake_case();
    fix_keyword(if s.starts_with(|c: char| c.is_ascii_digit()) {
        format!("bit_{s}")
    } else {
        s
    })
}

/// Rule 6: an instruction class's variant.
pub fn class(name: &str) -> String {
    type_like(&name.to_upper_camel_case(), "Class")
}

/// Rule 2 for an operand kind's own name.
pub fn kind(name: &str) -> String {
    type_like(name, "Kind")
}

/// Rule 2 for a value enumerant of `kind`.
pub fn enumerant(name: &str, kind: &str) -> String {
    type_like(name, kind)
}

/// Rule 3 for a mask bit of `kind`.
pub fn mask_bit(name: &str, kind: &str) -> String {
    let mut s = sanitize(&shouty_words(name));
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) {
        s = format!("{}_{s}", kind.to_shouty_snake_case());
    }
    fix_keyword(s)
}

/// Mixed-case terms the grammars write as one word, which splitting at case changes
/// would cut (`NaN` → `NA_N`).
pub const TERMS: &[&str] = &["BFloat16", "NaN", "TF32"];

/// The length of a plural acronym at the start of `s`: two or more capitals, then `s`,
/// then the end, a capital or a digit (`AABBsKHR` → 5).
fn plural_acronym(s: &str) -> Option<usize> {
    let caps = s.bytes().take_while(u8::is_ascii_uppercase).count();
    let next = s.as_bytes().get(caps + 1);
    (caps >= 2 && s.as_bytes().get(caps) == Some(&b's'))
        .then_some(caps + 1)
        .filter(|_| next.is_none_or(|b| b.is_ascii_uppercase() || b.is_ascii_digit()))
}

/// SCREAMING_SNAKE_CASE with [`TERMS`] and plural acronyms kept whole.
fn shouty_words(name: &str) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut plain = String::new();
    let mut rest = name;
    let mut prev_upper = false;
    while let Some(c) = rest.chars().next() {
        let term = TERMS
            .iter()
            .find(|t| rest.starts_with(**t))
            .map(|t| t.len())
            .or_else(|| plural_acronym(rest).filter(|_| !prev_upper));
        if let Some(len) = term {
            if !plain.is_empty() {
                parts.push(std::mem::take(&mut plain).to_shouty_snake_case());
            }
            parts.push(rest[..len].to_ascii_uppercase());
            rest = &rest[len..];
            prev_upper = false;
        } else {
            prev_upper = c.is_ascii_uppercase();
            plain.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    if !plain.is_empty() {
        parts.push(plain.to_shouty_snake_case());
    }
    parts.join("_")
}

/// Strips AsciiDoc markup and quotes from an operand name.
fn clean(name: &str) -> String {
    let mut s = String::new();
    let mut rest = name;
    while let Some(start) = rest.find("<<") {
        s.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        match after.find(">>") {
            Some(end) => {
                let inner = &after[..end];
                s.push_str(inner.rsplit(',').next().unwrap_or(inner));
                rest = &after[end + 2..];
            }
            None => {
                rest = after;
            }
        }
    }
    s.push_str(rest);
    s.chars()
        .filter(|c| !matches!(c, '\'' | '"' | '~'))
        .collect()
}

/// Rule 4: the field name of an operand, before de-duplication.
pub fn field(name: Option<&str>, kind: &str, variadic: bool) -> String {
    let from_name = name.map(clean).and_then(|n| {
        let base = if variadic {
            let first = n.split(',').next().unwrap_or(&n);
            let no_digits: String = first
                .chars()
                .filter(|c| !c.is_ascii_digit() && *c != '.' && *c != '+')
                .collect();
            let snake = no_digits.to_snake_case();
            if snake.is_empty() || snake.ends_with('s') {
                snake
            } else {
                format!("{snake}s")
            }
        } else {
            n.to_snake_case()
        };
        let base = sanitize(&base);
        (!base.is_empty()).then_some(base)
    });
    let base = from_name.unwrap_or_else(|| {
        let (rest, is_id) = match kind.strip_prefix("Id") {
            Some(r) if r.starts_with(|c: char| c.is_ascii_uppercase()) => (r, true),
            _ => (kind, false),
        };
        let mut s = sanitize(&rest.to_snake_case());
        if is_id && !s.ends_with("type") {
            s.push_str("_id");
        }
        if variadic && !s.ends_with('s') {
            s.push('s');
        }
        s
    });
    let base = if base.starts_with(|c: char| c.is_ascii_digit()) {
        format!("operand_{base}")
    } else {
        base
    };
    fix_keyword(base)
}

/// Appends `_2`, `_3`, … to repeated names, in order.
pub fn dedup(names: &mut [String]) {
    for i in 1..names.len() {
        let mut n = 1;
        while names[..i].contains(&names[i]) {
            n += 1;
            let base = names[i].trim_start_matches("r#").to_owned();
            let base = base
                .rsplit_once('_')
                .filter(|(_, d)| d.parse::<u32>().is_ok())
                .map_or(base.clone(), |(b, _)| b.to_owned());
            names[i] = format!("{base}_{n}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn odd_names_from_the_vendored_grammars() {
        let cases: &[(&str, String, &str)] = &[
            ("OpTypeInt", instruction("OpTypeInt"), "TypeInt"),
            ("Sqrt", instruction("Sqrt"), "Sqrt"),
            ("ARGMAX", instruction("ARGMAX"), "ARGMAX"),
            ("OpenCL-style", instruction("Op"), "Op"),
            ("Dim 1D", enumerant("1D", "Dim"), "Dim1D"),
            (
                "2x2",
                enumerant("2x2", "CooperativeMatrixReduce"),
                "CooperativeMatrixReduce2x2",
            ),
            ("GLSL450", enumerant("GLSL450", "MemoryModel"), "GLSL450"),
            (
                "SkipAABBsKHR",
                mask_bit("SkipAABBsKHR", "RayFlags"),
                "SKIP_AABBS_KHR",
            ),
            ("NotNaN", mask_bit("NotNaN", "FPFastMathMode"), "NOT_NAN"),
            (
                "MatrixBTF32INTEL",
                mask_bit("MatrixBTF32INTEL", "MatrixMultiplyAccumulateOperands"),
                "MATRIX_B_TF32_INTEL",
            ),
            (
                "MatrixCBFloat16INTEL",
                mask_bit("MatrixCBFloat16INTEL", "MatrixMultiplyAccumulateOperands"),
                "MATRIX_C_BFLOAT16_INTEL",
            ),
            (
                "SkipTrianglesKHR",
                mask_bit("SkipTrianglesKHR", "RayFlags"),
                "SKIP_TRIANGLES_KHR",
            ),
            ("None", mask_bit("None", "ImageOperands"), "NONE"),
            (
                "Result Type",
                field(Some("Result Type"), "IdRef", false),
                "result_type",
            ),
            (
                "'Result Type'",
                field(Some("'Result Type'"), "IdRef", false),
                "result_type",
            ),
            ("D~ref~", field(Some("D~ref~"), "IdRef", false), "dref"),
            (
                "invocations",
                field(Some("Number of <<Invocation,invocations>>"), "IdRef", false),
                "number_of_invocations",
            ),
            (
                "list",
                field(Some("Operand 1, Operand 2, ..."), "IdRef", true),
                "operands",
            ),
            (
                "members",
                field(Some("Member 0 type, member 1 type, ..."), "IdRef", true),
                "member_types",
            ),
            (
                "conditions",
                field(
                    Some("Condition 0, Operand 0, +\nCondition 1, Operand 1, +\n..."),
                    "IdRef",
                    true,
                ),
                "conditions",
            ),
            (
                "Operands ...",
                field(Some("Operands ..."), "IdRef", true),
                "operands",
            ),
            (
                "IdResultType",
                field(None, "IdResultType", false),
                "result_type",
            ),
            ("IdResult", field(None, "IdResult", false), "result_id"),
            ("IdRef", field(None, "IdRef", false), "ref_id"),
            ("IdRef*", field(None, "IdRef", true), "ref_ids"),
            (
                "LiteralInteger",
                field(None, "LiteralInteger", false),
                "literal_integer",
            ),
            ("type", field(Some("Type"), "IdRef", false), "r#type"),
            ("default", field(Some("Default"), "IdRef", false), "default"),
            ("self", fix_keyword("self".into()), "self_"),
            (
                "opaque",
                field(Some("The name of the opaque type."), "LiteralString", false),
                "the_name_of_the_opaque_type",
            ),
        ];
        for (what, got, want) in cases {
            assert_eq!(got, want, "{what}");
        }
        let mut v = vec![
            "memory_access".to_string(),
            "memory_access".to_string(),
            "memory_access".to_string(),
        ];
        dedup(&mut v);
        assert_eq!(v, ["memory_access", "memory_access_2", "memory_access_3"]);
    }
}
