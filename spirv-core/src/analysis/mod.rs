//! Analyses shared by reflection, validation and passes, each built once from a
//! borrowed [`Module`](crate::Module) and passed around by reference; none needs a
//! feature.
//!
//! - [`TypeTable`]: every declared [`Type`] by id, and what each array type is an array
//!   of;
//! - [`CallGraph`]: functions, their callees, the entry points, the global variables
//!   each function uses, recursion, with the [`CallRules`] of the tool whose meaning
//!   is wanted; [`StaticUse`]: the global
//!   variables every entry point reaches, for all entry points at once;
//! - [`DecorationIndex`]: the decorations of every id, direct or by a group, with the
//!   [`DecorationRules`] of the tool whose meaning is wanted (the validator's, the
//!   editor's and reflection's one index);
//! - [`Cfg`]: one function's blocks with their successors, predecessors, merge and
//!   continue targets, and its structured order.
//!
//! Every analysis takes time and memory linear in the module (sorting makes some
//! `n log n`), never recurses, and sizes nothing by a number the module claims.
//!
//! ```
//! use spirv_core::analysis::{CallGraph, Cfg, TypeTable};
//! use spirv_core::{spv, spv::inst, Builder};
//! let mut b = Builder::new((1, 0));
//! let [void, fn_type] = [(); 2].map(|()| b.id().unwrap());
//! b.push(inst::TypeVoid { result_id: void }).unwrap();
//! b.push(inst::TypeFunction { result_id: fn_type, return_type: void, parameter_types: Default::default() }).unwrap();
//! let main = b.begin_function(void, spv::FunctionControl::NONE, fn_type).unwrap();
//! b.begin_block().unwrap();
//! b.push(inst::Return {}).unwrap();
//! b.end_function().unwrap();
//! let module = b.build().unwrap();
//!
//! assert_eq!(TypeTable::new(&module).len(), 2);
//! let calls = CallGraph::new(&module);
//! assert_eq!(calls.functions()[0].id, main);
//! let cfg = Cfg::new(&module, calls.functions()[0].instructions.clone());
//! assert_eq!(cfg.len(), 1);
//! ```

pub(crate) mod callgraph;
mod cfg;
pub(crate) mod decorations;
mod static_use;
pub(crate) mod table;
pub(crate) mod types;

pub use callgraph::{CallGraph, CallRules, Function, Root};
pub use cfg::{Cfg, CfgBlock, Predecessors};
pub use decorations::{DecorationIndex, DecorationRules};
pub use static_use::StaticUse;
pub use types::{Arrays, ImageType, Type, TypeTable};
