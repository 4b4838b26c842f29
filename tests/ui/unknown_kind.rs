spirv_grammar_macros::include_grammar!("../../../../tests/ui/unknown_kind.grammar.json");
fn main() {}
