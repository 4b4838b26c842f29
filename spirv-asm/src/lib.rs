//! SPIR-V assembler and disassembler, compatible with SPIRV-Tools 2025.5's `spirv-as`
//! and `spirv-dis`.
#![deny(missing_docs)]

pub mod asm;
pub mod dis;
pub mod fuzz;
mod fxhash;
pub mod generator;
pub mod names;
pub mod number;

pub use asm::{
    AsmError, AsmErrorKind, AsmOptions, Assembled, assemble, assemble_str, assemble_with_ids,
};
pub use dis::{DisError, DisOptions, disassemble, disassemble_to};
