//! The tests that build scratch crates with cargo (cold builds of their own): the
//! macros' compile-fail cases, `include_spirv_asm!` on corpus files, and rebuilds after
//! an edit. Each skips unless `SPIRV_SCRATCH_TESTS=1`; `.ci/run` runs them as a step
//! (`SPIRV_SCRATCH_TESTS=1 cargo test -p spirv-tests --test scratch`).

mod asm_macro;
mod compile;
mod rebuild;
