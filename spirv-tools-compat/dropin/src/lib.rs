//! Nothing: this package holds tests of `spirv-tools-compat` written as users of the
//! `spirv-tools` crate write them (see `tests/`).
