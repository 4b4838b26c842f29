spirv_grammar_macros::include_grammar!("../../../../tests/ui/duplicate_name.grammar.json");
fn main() {}
