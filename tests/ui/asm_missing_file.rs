const WORDS: &[u32] = spirv_asm_macros::include_spirv_asm!("shaders/missing.spvasm");

fn main() {
    let _ = WORDS;
}
