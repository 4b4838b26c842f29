spirv_grammar_macros::include_grammar!("../../../../tests/ui/bad_quantifier.grammar.json");
fn main() {}
