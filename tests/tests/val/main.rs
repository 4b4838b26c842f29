//! The validator against spirv-val 2025.5: its rule fixtures and unit tests as data, the
//! corpus and its mutants, and compiler output spirv-val rejects. One test binary, a
//! module per concern (`cargo test -p spirv-tests --test val rules::`).

mod differential;
mod glslang_rejected;
mod rules;
