//! SPIR-V assembler and disassembler, compatible with SPIRV-Tools 2025.5's `spirv-as`
//! and `spirv-dis`.
#![deny(missing_docs)]

pub mod asm;
pub mod dis;
pub mod generator;
pub mod names;
pub mod number;

pub use asm::{assemble, assemble_str, assemble_with_ids, AsmError, AsmErrorKind, AsmOptions, Assembled};
pub use dis::{disassemble, disassemble_to, DisError, DisOptions};
