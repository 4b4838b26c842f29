//! The malformed modules of the disassembler error tests. Those with a valid header are
//! written as assembly (`tests/fixtures/dis-errors/NAME.spvasm`, where `!<integer>`
//! writes a word as it is) and assembled at compile time, so that a reviewer reads text,
//! not hex; the few whose header is broken stay `.spv` files, since the assembler always
//! writes a valid header. Next to each, `NAME.expected` holds spirv-dis 2025.5's exit
//! code and message.

use spirv_asm_macros::include_spirv_asm;
use std::path::Path;

/// The cases written as assembly, assembled with `%N` keeping id N and spirv-as's
/// generator word (spirv-asm's CLI test assembles the same files the same way).
pub const FROM_TEXT: &[(&str, &[u32])] = &[
    (
        "zero_type_id",
        include_spirv_asm!(
            "fixtures/dis-errors/zero_type_id.spvasm",
            preserve_numeric_ids = true,
            generator = 0x0007_0000
        ),
    ),
    (
        "zero_result_id",
        include_spirv_asm!(
            "fixtures/dis-errors/zero_result_id.spvasm",
            preserve_numeric_ids = true,
            generator = 0x0007_0000
        ),
    ),
    (
        "zero_id",
        include_spirv_asm!(
            "fixtures/dis-errors/zero_id.spvasm",
            preserve_numeric_ids = true,
            generator = 0x0007_0000
        ),
    ),
    (
        "zero_scope",
        include_spirv_asm!(
            "fixtures/dis-errors/zero_scope.spvasm",
            preserve_numeric_ids = true,
            generator = 0x0007_0000
        ),
    ),
    (
        "redefined_before_bad_operand",
        include_spirv_asm!(
            "fixtures/dis-errors/redefined_before_bad_operand.spvasm",
            preserve_numeric_ids = true,
            generator = 0x0007_0000
        ),
    ),
    (
        "mask_component",
        include_spirv_asm!(
            "fixtures/dis-errors/mask_component.spvasm",
            preserve_numeric_ids = true,
            generator = 0x0007_0000
        ),
    ),
    (
        "source_language",
        include_spirv_asm!(
            "fixtures/dis-errors/source_language.spvasm",
            preserve_numeric_ids = true,
            generator = 0x0007_0000
        ),
    ),
    (
        "string_past_count",
        include_spirv_asm!(
            "fixtures/dis-errors/string_past_count.spvasm",
            preserve_numeric_ids = true,
            generator = 0x0007_0000
        ),
    ),
    (
        "literal_past_count",
        include_spirv_asm!(
            "fixtures/dis-errors/literal_past_count.spvasm",
            preserve_numeric_ids = true,
            generator = 0x0007_0000
        ),
    ),
    (
        "truncated_next_operand",
        include_spirv_asm!(
            "fixtures/dis-errors/truncated_next_operand.spvasm",
            preserve_numeric_ids = true,
            generator = 0x0007_0000
        ),
    ),
    (
        "truncated_literal",
        include_spirv_asm!(
            "fixtures/dis-errors/truncated_literal.spvasm",
            preserve_numeric_ids = true,
            generator = 0x0007_0000
        ),
    ),
    (
        "constant_type_not_numeric",
        include_spirv_asm!(
            "fixtures/dis-errors/constant_type_not_numeric.spvasm",
            preserve_numeric_ids = true,
            generator = 0x0007_0000
        ),
    ),
    (
        "ext_inst_bad_set",
        include_spirv_asm!(
            "fixtures/dis-errors/ext_inst_bad_set.spvasm",
            preserve_numeric_ids = true,
            generator = 0x0007_0000
        ),
    ),
    (
        "extra_operands",
        include_spirv_asm!(
            "fixtures/dis-errors/extra_operands.spvasm",
            preserve_numeric_ids = true,
            generator = 0x0007_0000
        ),
    ),
    (
        "id_redefined",
        include_spirv_asm!(
            "fixtures/dis-errors/id_redefined.spvasm",
            preserve_numeric_ids = true,
            generator = 0x0007_0000
        ),
    ),
    (
        "invalid_enumerant",
        include_spirv_asm!(
            "fixtures/dis-errors/invalid_enumerant.spvasm",
            preserve_numeric_ids = true,
            generator = 0x0007_0000
        ),
    ),
    (
        "invalid_opcode",
        include_spirv_asm!(
            "fixtures/dis-errors/invalid_opcode.spvasm",
            preserve_numeric_ids = true,
            generator = 0x0007_0000
        ),
    ),
    (
        "missing_operand",
        include_spirv_asm!(
            "fixtures/dis-errors/missing_operand.spvasm",
            preserve_numeric_ids = true,
            generator = 0x0007_0000
        ),
    ),
    (
        "past_end",
        include_spirv_asm!(
            "fixtures/dis-errors/past_end.spvasm",
            preserve_numeric_ids = true,
            generator = 0x0007_0000
        ),
    ),
    (
        "past_end_operands",
        include_spirv_asm!(
            "fixtures/dis-errors/past_end_operands.spvasm",
            preserve_numeric_ids = true,
            generator = 0x0007_0000
        ),
    ),
    (
        "spec_constant_op_nested",
        include_spirv_asm!(
            "fixtures/dis-errors/spec_constant_op_nested.spvasm",
            preserve_numeric_ids = true,
            generator = 0x0007_0000
        ),
    ),
    (
        "spec_constant_op_not_allowed",
        include_spirv_asm!(
            "fixtures/dis-errors/spec_constant_op_not_allowed.spvasm",
            preserve_numeric_ids = true,
            generator = 0x0007_0000
        ),
    ),
    (
        "spec_constant_op_unknown",
        include_spirv_asm!(
            "fixtures/dis-errors/spec_constant_op_unknown.spvasm",
            preserve_numeric_ids = true,
            generator = 0x0007_0000
        ),
    ),
    (
        "switch_no_type",
        include_spirv_asm!(
            "fixtures/dis-errors/switch_no_type.spvasm",
            preserve_numeric_ids = true,
            generator = 0x0007_0000
        ),
    ),
    (
        "unknown_import",
        include_spirv_asm!(
            "fixtures/dis-errors/unknown_import.spvasm",
            preserve_numeric_ids = true,
            generator = 0x0007_0000
        ),
    ),
    (
        "unterminated_string",
        include_spirv_asm!(
            "fixtures/dis-errors/unterminated_string.spvasm",
            preserve_numeric_ids = true,
            generator = 0x0007_0000
        ),
    ),
    (
        "zero_word_count",
        include_spirv_asm!(
            "fixtures/dis-errors/zero_word_count.spvasm",
            preserve_numeric_ids = true,
            generator = 0x0007_0000
        ),
    ),
];

/// Every case, by name: the assembled ones and the `.spv` files in `dir`, sorted.
pub fn all(dir: &Path) -> Vec<(String, Vec<u32>)> {
    let mut cases: Vec<(String, Vec<u32>)> = FROM_TEXT
        .iter()
        .map(|(n, w)| ((*n).to_owned(), w.to_vec()))
        .collect();
    for path in crate::files(dir, "spv") {
        cases.push((crate::stem(&path), crate::read_words(&path)));
    }
    cases.sort();
    cases
}

/// The words of one case written as assembly.
pub fn words(name: &str) -> &'static [u32] {
    FROM_TEXT
        .iter()
        .find(|(n, _)| *n == name)
        .map_or_else(|| panic!("no dis-error case {name}"), |(_, w)| *w)
}
