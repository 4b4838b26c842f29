//! Untrusted input (docs/robustness.md): crafted inputs that once crashed, stalled or
//! exhausted the tools, and the fuzz bodies over mutated seeds
//! (`cargo test -p spirv-tests --test robustness fuzz::`).

mod adversarial;
mod fuzz;
