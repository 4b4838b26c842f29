const WORDS: &[u32] = spirv_asm_macros::spirv_asm!(
    r#"
    OpCapability Shader
    OpMemoryModle Logical GLSL450
"#
);

fn main() {
    let _ = WORDS;
}
