spirv_grammar_macros::include_grammar!("../../../../tests/ui/invalid_json.grammar.json");
fn main() {}
