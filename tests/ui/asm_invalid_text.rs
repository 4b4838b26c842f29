const WORDS: &[u32] = spirv_asm_macros::spirv_asm!("OpCapability Shader\n%int = OpTypeInt 32\n");

fn main() {
    let _ = WORDS;
}
