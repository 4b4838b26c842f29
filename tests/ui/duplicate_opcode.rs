// Two instructions on one opcode, and two enumerants on one value, in an extended
// grammar: a compile error naming both entries (not a later failure to assemble).
spirv_grammar_macros::include_grammar!("../../../../tests/ui/duplicate_opcode.grammar.json");
fn main() {}
