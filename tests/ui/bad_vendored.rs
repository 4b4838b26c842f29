spirv_grammar_macros::include_grammar!("extinst.glsl.std.450.grammar.json", vendored = yes);

fn main() {}
