const WORDS: &[u32] = spirv_asm_macros::spirv_asm!("OpCapability Shadr");

fn main() {
    let _ = WORDS;
}
