// Every mistake of one invocation is reported, each at its token.
spirv_grammar_macros::include_grammar!(
    "../../../../grammar/extinst.glsl.std.450.grammar.json",
    items = "some",
    vendored = yes,
    name = "a",
    name = "b",
    imports = "GLSL.std.450",
);

const WORDS: &[u32] = spirv_asm_macros::spirv_asm!(
    "OpCapability Shader",
    target_env = "vulkan9",
    generator = 1,
    generator = 2,
    strict = 1,
);

fn main() {}
