// The path is relative to the crate trybuild makes under target/.
const WORDS: &[u32] = spirv_asm_macros::include_spirv_asm!("../../../../tests/ui/asm_file_error.spvasm");

fn main() {
    let _ = WORDS;
}
