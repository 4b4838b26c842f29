spirv_grammar_macros::include_grammar!("../../../../tests/ui/missing_key.grammar.json");
fn main() {}
