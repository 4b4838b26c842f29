//! SPIR-V assembler and disassembler, compatible with SPIRV-Tools 2025.5's `spirv-as`
//! and `spirv-dis`: the same bytes from the same text, the same text from the same
//! bytes. Both are driven by the grammar tables spirv-core generates.
//!
//! ```
//! use spirv_asm::{assemble_str, disassemble_to_string, AsmOptions, DisOptions};
//!
//! let text = "OpCapability Shader\nOpMemoryModel Logical GLSL450\n%int = OpTypeInt 32 1\n%c = OpConstant %int -7\n";
//! let words = assemble_str(text, &AsmOptions::default())?;
//! assert_eq!(words[3], 3, "bound: two ids plus one");
//!
//! let out = disassemble_to_string(&words, &DisOptions { header: false, ..DisOptions::default() })?;
//! assert_eq!(
//!     out,
//!     "               OpCapability Shader\n               OpMemoryModel Logical GLSL450\n        %int = OpTypeInt 32 1\n     %int_n7 = OpConstant %int -7\n"
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! [`disassemble_to_string`] gives the text; [`disassemble`] the exact bytes spirv-dis
//! prints (a binary's strings need not be UTF-8), and [`disassemble_to`] writes them
//! to a writer as they are made.
//!
//! Errors carry positions: [`AsmError`] a line and column (rendered like spirv-as, with
//! a caret), [`DisError`] the instruction index and word offset.
#![deny(missing_docs)]

mod asm;
mod dis;
pub mod flow_graph;
#[doc(hidden)]
pub mod fuzz;
mod fxhash;
mod generator;
mod names;
mod number;
#[cfg(feature = "opt")]
pub mod opt;
pub mod reflect_json;
mod text;
pub mod val;

pub use asm::{
    AsmError, AsmErrorKind, AsmOptions, Assembled, SPIRV_TOOLS_GENERATOR, assemble, assemble_str,
    assemble_with_ids, version_from_comment,
};
pub use dis::{
    DisError, DisErrorKind, DisOptions, MAX_DERIVED_LEN, MAX_NAME_LEN, MAX_NESTED_LEVEL,
    disassemble, disassemble_reusing, disassemble_to, disassemble_to_string,
};
