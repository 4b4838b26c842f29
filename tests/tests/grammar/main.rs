//! The code generated from the grammars: `include_grammar!`'s output and the goldens of
//! its expansion (`cargo test -p spirv-tests --test grammar expansion::`).

mod expansion;
mod include;
