//! The disassembler (`spirv_asm::disassemble`) against spirv-dis 2025.5: one test
//! binary, a module per concern (`cargo test -p spirv-tests --test dis errors::`).

mod corpus;
mod errors;
