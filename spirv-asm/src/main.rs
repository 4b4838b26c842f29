//! `spirv-asm`: the SPIR-V assembler (`as`), disassembler (`dis`), validator (`val`),
//! optimizer (`opt`) and control-flow graph (`cfg`) command line, argument- and
//! output-compatible with SPIRV-Tools 2025.5's `spirv-as`, `spirv-dis`, `spirv-val`,
//! `spirv-opt` and `spirv-cfg`, and `reflect` (this tool's JSON, or
//! `spirv-cross --reflect`'s).

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod cli;

/// SPIR-V tools compatible with SPIRV-Tools 2025.5: assemble, disassemble, validate,
/// optimize, reflect, and draw control-flow graphs.
#[derive(Parser)]
#[command(
    name = "spirv-asm",
    version,
    long_about = None,
    after_help = "Run `spirv-asm <COMMAND> --help` for a command's options and examples."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Assemble SPIR-V assembly text into a binary (like `spirv-as`).
    As(cli::as_cmd::Args),
    /// Disassemble a SPIR-V binary into assembly text (like `spirv-dis`).
    Dis(cli::dis_cmd::Args),
    /// Reflect a module as JSON: entry points, resources, interface, constants, types.
    Reflect(cli::reflect_cmd::Args),
    /// Validate a SPIR-V binary (like `spirv-val`).
    Val(cli::val_cmd::Args),
    /// Optimize a binary: -O, -Os, --legalize-hlsl or single passes (like `spirv-opt`).
    Opt(cli::opt_cmd::Args),
    /// Show the control-flow graph as GraphViz DOT (like `spirv-cfg`) or SVG.
    Cfg(cli::cfg_cmd::Args),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 1 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let code = match cli.command {
        Command::As(a) => cli::as_cmd::run(a),
        Command::Dis(d) => cli::dis_cmd::run(d),
        Command::Reflect(r) => cli::reflect_cmd::run(r),
        Command::Val(v) => cli::val_cmd::run(v),
        Command::Opt(o) => cli::opt_cmd::run(o),
        Command::Cfg(c) => cli::cfg_cmd::run(c),
    };
    ExitCode::from(code)
}
