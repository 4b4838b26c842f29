spirv_grammar_macros::include_grammar!("../../../../grammar/extinst.glsl.std.450.grammar.json", imports = "GLSL.std.450");
fn main() {}
