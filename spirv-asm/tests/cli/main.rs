//! The `spirv-asm` binary run as a user runs it, one module per subcommand family
//! (`cargo test -p spirv-asm --test cli opt::`).

mod asm_dis;
mod batch;
mod cfg;
mod opt;
mod quick_start;
mod val;
