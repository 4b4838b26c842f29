//! Read, write and build SPIR-V modules, with every opcode, operand kind and layout
//! generated from the Khronos grammar by `include_grammar!`.
//!
//! ```
//! use spirv_core::{spv, Builder, Module};
//! use spirv_core::spv::{inst, Instruction as I};
//!
//! // Build a module; instructions land in their logical-layout section.
//! let mut b = Builder::new((1, 3));
//! let int = b.id().unwrap();
//! b.push(inst::TypeInt { result_id: int, width: 32, signedness: 1 }).unwrap();
//! b.push(inst::Capability { capability: spv::Capability::Shader }).unwrap();
//! let c = b.id().unwrap();
//! let seven = spirv_core::LiteralNumber::from_u32(7);
//! b.push(inst::Constant { result_type: int, result_id: c, value: seven }).unwrap();
//! let bytes = b.build().unwrap().to_bytes();
//!
//! // Read it back: byte-exact round trip, typed views on demand.
//! let m = Module::from_bytes(&bytes).unwrap();
//! assert_eq!(m.to_bytes(), bytes);
//! assert_eq!(m.instruction(0).unwrap().opcode(), spv::Opcode::Capability);
//! match m.instruction(2).unwrap().decode().unwrap() {
//!     I::Constant(k) => assert_eq!(k.value.as_u64(), 7),
//!     other => panic!("{other:?}"),
//! }
//! ```
//!
//! # Editing
//! With the `edit` feature, [`edit::Editor`] changes a read module (remove, replace,
//! insert, append, rename ids) in one linear pass, writing it as spirv-opt writes its
//! IR; spirv-opt's passes built on it are in the `spirv-opt` crate. Removing a name:
//!
//! ```
//! # #[cfg(feature = "edit")] {
//! use spirv_core::edit::{Bound, Editor};
//! use spirv_core::{spv, spv::inst, Builder};
//!
//! let mut b = Builder::new((1, 0));
//! b.push(inst::Capability { capability: spv::Capability::Shader })?;
//! b.push(inst::Capability { capability: spv::Capability::Linkage })?;
//! let [float, ptr, var] = [(); 3].map(|()| b.id().unwrap());
//! b.push(inst::TypeFloat { result_id: float, width: 32, floating_point_encoding: None })?;
//! b.push(inst::TypePointer { result_id: ptr, storage_class: spv::StorageClass::Uniform, r#type: float })?;
//! b.push(inst::Variable { result_type: ptr, result_id: var, storage_class: spv::StorageClass::Uniform, initializer: None })?;
//! b.push(inst::Name { target: var, name: "scale".into() })?;
//! let module = b.build()?;
//!
//! let mut e = Editor::new(&module);
//! let name = module.instructions().find(|i| i.opcode() == spv::Opcode::Name).unwrap();
//! e.remove(name.index().into());
//! let shipped = e.apply(Bound::Keep)?;
//! assert!(shipped.instructions().all(|i| i.opcode() != spv::Opcode::Name));
//! # }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! `examples/strip_and_rebind.rs` does more to a file.
//!
//! # What reading checks
//! [`Module::read`] checks the *binary form* against the grammar: word counts, every
//! operand against its instruction's layout, literals sized by their types, no id
//! defined twice, and the logical layout's structure (a lenient read records each
//! departure as a [`LayoutIssue`]). A strict read ([`ReadOptions::strict`]) also
//! refuses whatever the grammar or registry does not know, ids of 0 or not below the
//! bound, and layout departures. It is **not** a validator in `spirv-val`'s sense: it
//! does not check that the ids used are defined, that operands have the right types,
//! that the capabilities used are declared, control flow, or the rules of an execution
//! environment. [`ReadOptions`] lists each check, and what no read checks.
//!
//! # Features
//! - `std` (default): implements `std::error::Error` for the error types; without it the
//!   crate is `no_std` + `alloc`.
//! - `typed-ext`: the typed items (`Instruction`, `inst`, `Opcode`, the kind types) of
//!   every vendored extended instruction set in [`ext`]; without it each set has only
//!   the grammar tables that reading, assembling and disassembling need.
//! - `reflect`: [`reflect`], what a pipeline needs to know about a shader (entry points,
//!   descriptors, interface variables, specialization constants, block layouts); off by
//!   default so that crates which only read and write modules do not compile it.
//! - `validate`: [`validate`], spirv-val 2025.5's rules in its order (the families its
//!   module docs list), each fault with the instruction and the ids spirv-val's message
//!   names.
//! - `edit`: [`edit`], editing read modules (the `spirv-opt` crate's structural passes
//!   run on it).
//!
//! # Layout of the crate
//! - [`spv`]: the core grammar's generated types (`spv::Instruction`, `spv::inst::*`,
//!   `spv::Opcode`, one type per operand kind) and tables. [`ext`]: one module per
//!   vendored extended instruction set. [`grammar`]: the table types every generated
//!   set fills in, and lookups by name and number. [`typed`]: what all generated sets
//!   share (table-driven `Debug`, equality, id visiting, the [`typed::InstructionSet`]
//!   trait). [`spec_constant_op`]: the opcodes `OpSpecConstantOp` may embed.
//! - [`binary`]: the [`Header`](binary::Header), byte order, and the zero-copy [`RawInstructions`](binary::RawInstructions)
//!   iterator. [`stream`]: typed instructions in one pass, without a [`Module`].
//! - [`Module`] and its views ([`InstRef`], [`FunctionRef`], [`BlockRef`],
//!   [`Section`]), [`ReadOptions`], [`LayoutIssue`], and [`Requirements`]: reading,
//!   writing and querying a module. [`Builder`]: building one by pushing instructions.
//! - [`walk`]: the table-driven operand walker every reader uses, the id facts it
//!   records, and the [`ExtInstRegistry`] of extended sets, which sets generated in
//!   other crates join.
//! - [`analysis`]: the type table, call graph, static use and control-flow graphs, each
//!   built once from a borrowed [`Module`], with no feature needed.
//! - [`reflect`] (feature `reflect`): reflection for pipeline layouts, on top of
//!   [`analysis`]. [`validate`] (feature `validate`): the validator. [`TargetEnv`]: the
//!   environments SPIRV-Tools knows, their names and versions.
//! - [`Id`], [`LiteralString`], [`LiteralNumber`], [`LiteralFloat`], [`List`] and
//!   [`RawInstruction`]: the operand types the generated structs use; [`DecodeError`]:
//!   the one error of reading and decoding.
// Without the `reflect` feature the links to its module above would not resolve: they
// point at the published docs instead.
#![cfg_attr(
    not(feature = "reflect"),
    doc = "",
    doc = "[`reflect`]: https://docs.rs/spirv-core/latest/spirv_core/reflect/index.html"
)]
#![cfg_attr(
    not(feature = "validate"),
    doc = "",
    doc = "[`validate`]: https://docs.rs/spirv-core/latest/spirv_core/validate/index.html"
)]
#![cfg_attr(
    not(feature = "edit"),
    doc = "",
    doc = "[`edit`]: https://docs.rs/spirv-core/latest/spirv_core/edit/index.html",
    doc = "[`edit::Editor`]: https://docs.rs/spirv-core/latest/spirv_core/edit/struct.Editor.html"
)]
#![no_std]
// docs.rs builds with `--cfg docsrs` on nightly, where feature-gated items get a
// badge naming their feature; stable never sets the cfg.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(missing_docs)]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;
// Lets the macro's default `::spirv_core` path resolve inside this crate too.
extern crate self as spirv_core;

pub mod analysis;
pub mod binary;
mod builder;
#[doc(hidden)]
pub mod codec;
mod decode_context;
#[cfg(feature = "edit")]
#[cfg_attr(docsrs, doc(cfg(feature = "edit")))]
pub mod edit;
mod env;
mod error;
pub mod ext;
#[doc(hidden)]
pub mod fuzz;
pub mod grammar;
mod list;
mod module;
#[cfg(feature = "reflect")]
#[cfg_attr(docsrs, doc(cfg(feature = "reflect")))]
pub mod reflect;
pub mod spec_constant_op;
#[cfg(any(feature = "validate", feature = "edit"))]
mod spirv_tools;
pub mod stream;
pub mod typed;
mod types;
#[cfg(feature = "validate")]
#[cfg_attr(docsrs, doc(cfg(feature = "validate")))]
pub mod validate;
pub mod walk;

pub use builder::{BuildError, BuildErrorKind, Builder, DEFAULT_GENERATOR};
pub use decode_context::DecodeContext;
pub use env::{TargetEnv, target_env_version};
pub use error::{DecodeError, DecodeErrorKind, EncodeError};
pub use list::List;
pub use module::{
    BlockRef, Declared, ExtInstRef, FunctionRef, InstRef, LayoutIssue, LayoutIssueKind, Module,
    ReadOptions, RequiredBy, Requirement, Requirements, Section, Unmet,
};
pub use types::{Id, LiteralFloat, LiteralNumber, LiteralString, RawInstruction};
pub use walk::ids::ExtInstRegistry;

/// The core grammar (`spirv.core.grammar.json` of `spirv-grammar-data`), generated by
/// `include_grammar!`.
pub mod spv {
    spirv_grammar_macros::include_grammar!(
        "spirv.core.grammar.json",
        vendored = true,
        crate = crate
    );
}

/// What the generated code and the workspace's other crates use to do their work: not
/// part of the API, and free to change.
#[doc(hidden)]
pub mod __private {
    pub use crate::codec::{
        Encode, EncodeWords, Operand, Placeholder, Reader, Sink, SmallWords, Words, decode_string,
        encode_string, hash_words, same_words, string_bytes, string_operand,
    };
    pub use crate::grammar::{NameIndex, fmt_mask, fmt_value};
    pub use crate::typed::{
        finish_instruction, fmt_data, fmt_fields, fmt_instruction, fmt_struct, hash_instruction,
        hash_struct, same_instruction, same_struct, visit_ids, visit_ids_mut,
    };
    pub use crate::walk::{Summary, observe, unknown_import};
    pub use alloc::boxed::Box;
    pub use alloc::string::String;
    pub use alloc::vec::Vec;

    /// What the `spirv-opt` crate's structural passes share with the editor and the
    /// reader.
    #[cfg(feature = "edit")]
    pub mod opt {
        pub use crate::analysis::callgraph::callee_of;
        pub use crate::analysis::table::IdTable;
        pub use crate::edit::support::*;
        pub use crate::module::{Layout, Renumbering, observe_lenient};
        pub use crate::spirv_tools::{
            SetKind, generates_type, is_block_terminator, is_branch, is_constant, is_decoration,
            is_spec_constant,
        };
        pub use crate::walk::id_words::id_words;
        pub use crate::walk::trailing::{ext_inst, trailing};
    }
}
