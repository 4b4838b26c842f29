const WORDS: &[u32] = spirv_asm_macros::spirv_asm!("%void = OpTypeVoid\n%void = OpTypeBool");

fn main() {
    let _ = WORDS;
}
