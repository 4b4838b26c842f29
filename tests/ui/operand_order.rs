spirv_grammar_macros::include_grammar!("../../../../tests/ui/operand_order.grammar.json");
fn main() {}
