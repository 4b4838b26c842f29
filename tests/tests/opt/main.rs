//! The optimizer against spirv-opt 2025.5: hand-written cases and fixtures, and the
//! corpus differentials of the structural passes, the IR passes and the presets. One
//! test binary, a module per concern; CI runs the heavy ones alone with their knobs,
//! by filter (`OPT_IR_MODULES=all cargo test -p spirv-tests --test opt ir::`).

mod constants;
mod differential;
mod entry_points;
mod fixtures;
mod interfaces_functions_sets;
mod ir;
mod lines;
mod presets;
mod stream;
mod synthetic;
