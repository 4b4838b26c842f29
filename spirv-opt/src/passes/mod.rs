//! spirv-opt's passes on the optimizer IR, one file each; each has a row in the
//! [`registry`](crate::registry).

pub mod wrap_opkill;
