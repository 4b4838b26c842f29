//! spirv-core's module model: reading, writing, building, editing, ids, layout,
//! requirements and analyses. One test binary, a module per concern
//! (`cargo test -p spirv-tests --test core edit::`).

mod analysis;
mod api;
mod corpus;
mod decode_lossless;
mod edit;
mod ids;
mod layout;
mod requirements;
