//! spirv-opt, in Rust: SPIRV-Tools 2025.5's optimizer passes with its exact output.
//!
//! An [`Optimizer`] runs passes, registered by spirv-opt flag or by value, on a
//! module's words or on a [`spirv_core::Module`], validating the module first unless
//! told not to, and returns the words spirv-opt would write and whether a pass changed
//! the module. The [`registry`] lists every pass spirv-opt has, with its flag, its
//! argument, a line of help, and what it runs on; `spirv-asm opt` is a thin command
//! line over it.
//!
//! ```
//! use spirv_core::{spv::inst, Builder};
//! use spirv_opt::Optimizer;
//!
//! let mut b = Builder::new((1, 0));
//! let int = b.id()?;
//! b.push(inst::TypeInt { result_id: int, width: 32, signedness: 1 })?;
//! b.push(inst::Name { target: int, name: "int".into() })?;
//! let words = b.build()?.into_words();
//!
//! let mut opt = Optimizer::new();
//! opt.skip_validation(true).register_flags(["--strip-debug", "--compact-ids"])?;
//! let out = opt.run(&words)?;
//! assert!(out.changed);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Layout of the crate
//! - [`registry`]: the pass table; [`Pass`]: a configured pass; [`Optimizer`]: a list
//!   of passes and the options spirv-opt runs them with.
//! - [`structural`]: spirv-opt's structural passes (strip, compact, unify, …), which
//!   decide instruction by instruction and run on the editor (`spirv_core::edit`).
//! - [`ir`], [`analysis`], [`Context`] and [`IrPass`]: the optimizer IR (spirv-opt's
//!   module, functions, blocks and instructions), the analyses built on it, and the
//!   trait a pass on it implements; enough to write a pass of one's own and register
//!   it by value. The passes themselves are reached through the registry, by flag.

#![deny(missing_docs)]

pub mod analysis;
pub(crate) mod builder;
mod context;
pub(crate) mod fold;
#[doc(hidden)]
pub mod fuzz;
pub mod ir;
pub(crate) mod mem_pass;
mod message;
mod optimizer;
mod pass;
pub(crate) mod passes;
pub mod registry;
pub(crate) mod stl;
pub mod structural;

pub use context::{Context, ContextOptions};
pub use message::{Message, MessageLevel};
pub use optimizer::{FaultText, Finished, OptError, Optimized, Optimizer};
pub use pass::{FlagError, IrPass, Pass, PassError, PassOptions, Status, run_ir_pass};
