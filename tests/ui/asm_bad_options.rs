const A: &[u32] = spirv_asm_macros::spirv_asm!("OpCapability Shader", target_env = "vulkan9");
const B: &[u32] = spirv_asm_macros::spirv_asm!("OpCapability Shader", generator = 0x1_0000_0000);
const C: &[u32] = spirv_asm_macros::spirv_asm!("OpCapability Shader", strict = yes);
const D: &[u32] = spirv_asm_macros::spirv_asm!("OpCapability Shader", preserve_ids = true);
const E: &[u32] = spirv_asm_macros::spirv_asm!(TEXT);

fn main() {
    let _ = (A, B, C, D, E);
}
