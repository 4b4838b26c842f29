#!/usr/bin/env bash
# The quick subset of the tests, for while working (docs/testing.md gives its time):
# every crate's unit tests, then the validator's and the assembler's rule cases
# (spirv-val's own unit tests, `valsuite`, left out). Both commands say --workspace so
# that they share one build with `cargo test --workspace`.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --workspace --lib --bins
cargo test --workspace --test val --test asm -- rules:: --skip valsuite
