//! Reflection (`spirv_core::reflect`, `spirv-asm reflect`): hand-written modules and
//! the corpus against spirv-cross's gold (`cargo test -p spirv-tests --test reflect`).

mod api;
mod corpus;
