spirv_grammar_macros::include_grammar!("../../../../tests/ui/two_bad_kinds.grammar.json");
fn main() {}
