spirv_grammar_macros::include_grammar!("tests/ui/does-not-exist.grammar.json");
fn main() {}
