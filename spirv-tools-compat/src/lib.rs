//! The `spirv-tools` crate's API (version 0.13), over this workspace's Rust tools.
//!
//! A project that uses `spirv-tools` switches by renaming one dependency, and changes
//! nothing else:
//!
//! ```toml
//! [dependencies]
//! spirv-tools = { package = "spirv-tools-compat", version = "0.1" }
//! ```
//!
//! The modules, types, traits, functions and features are `spirv-tools` 0.13's; what
//! runs is `spirv_core`'s validator, `spirv_asm`'s assembler and disassembler and
//! `spirv_opt`'s optimizer, which give SPIRV-Tools 2025.5's outputs byte for byte. No
//! C++ is built. `use-compiled-tools` and `use-installed-tools` are accepted; each only
//! makes its module (`compiled`, `tool`) exist, and both run the same Rust code.
//!
//! ```
//! use spirv_tools::{assembler::{self, Assembler}, opt::{self, Optimizer}, val::{self, Validator}};
//!
//! let text = "OpCapability Shader\nOpMemoryModel Logical GLSL450\n\
//!             OpEntryPoint GLCompute %main \"main\"\nOpExecutionMode %main LocalSize 1 1 1\n\
//!             OpName %main \"main\"\n%void = OpTypeVoid\n%fn = OpTypeFunction %void\n\
//!             %main = OpFunction %void None %fn\n%entry = OpLabel\nOpReturn\nOpFunctionEnd\n";
//! let binary = assembler::create(None).assemble(text, Default::default())?;
//! val::create(None).validate(&binary, None)?;
//!
//! let mut optimizer = opt::create(None);
//! optimizer.register_pass(opt::Passes::StripDebugInfo);
//! let stripped = optimizer.optimize(&binary, &mut |m: spirv_tools::error::Message| eprintln!("{m:?}"), None)?;
//! assert!(stripped.as_words().len() < binary.as_words().len());
//! # Ok::<(), spirv_tools::Error>(())
//! ```
//!
//! # Where it differs from `spirv-tools`
//! - Passes and presets (`-O`, `-Os`, legalization) whose passes `spirv_opt` does not
//!   implement yet are registered, and [`opt::Optimizer::optimize`] then fails naming
//!   them (in the message callback and in the error's diagnostic), before running any.
//! - A validation failure's [`Error::inner`] is [`SpirvResult::InvalidBinary`] for a
//!   module that does not parse and [`SpirvResult::InvalidData`] for the others
//!   (SPIRV-Tools picks a code per rule); the diagnostic's text is spirv-val's.
//! - `TargetEnv::WebGPU_0_DEPRECATED`, which SPIRV-Tools no longer supports, is an
//!   error wherever it is used.

pub mod assembler;
pub mod binary;
mod env;
pub mod error;
pub mod opt;
pub mod val;

pub use env::TargetEnv;
pub use error::{Error, SpirvResult};
