mod tables_only {
    spirv_grammar_macros::include_grammar!("../../../../grammar/extinst.glsl.std.450.grammar.json", import = "GLSL.std.450", items = "tables");
}
fn main() {
    let _ = tables_only::GRAMMAR.instructions.len();
    let _ = tables_only::Instruction::Unknown;
}
