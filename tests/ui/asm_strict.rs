// `!<integer>` writes any word: here an instruction with an opcode no grammar has,
// which assembles but does not read back strictly.
const WORDS: &[u32] = spirv_asm_macros::spirv_asm!("OpCapability Shader\n!0x00010fff", strict = true);

fn main() {
    let _ = WORDS;
}
