//! The assembler (`spirv_asm::assemble`) against spirv-as 2025.5: one test binary, a
//! module per concern (`cargo test -p spirv-tests --test asm rules::`).

mod corpus;
mod errors;
mod rules;
