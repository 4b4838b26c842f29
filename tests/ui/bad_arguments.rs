spirv_grammar_macros::include_grammar!(grammar_file, crate = ::spirv_core);
mod second {
    spirv_grammar_macros::include_grammar!("../../../../grammar/extinst.glsl.std.450.grammar.json", crate = 42);
}
mod third {
    spirv_grammar_macros::include_grammar!("../../../../grammar/extinst.glsl.std.450.grammar.json", items = "some");
}
fn main() {}
