//! One module per subcommand.

pub mod as_cmd;
pub mod dis_cmd;
pub mod output;

use std::io::Read;

/// Reads a file, or standard input for `-` or no name (`./-` names a file called `-`).
pub fn read_input(path: Option<&str>) -> Result<Vec<u8>, String> {
    match path {
        None | Some("-") => {
            let mut buf = Vec::new();
            std::io::stdin()
                .read_to_end(&mut buf)
                .map_err(|e| format!("error: cannot read standard input: {e}"))?;
            Ok(buf)
        }
        Some(p) => {
            std::fs::read(p).map_err(|e| format!("error: cannot open input file '{p}': {e}"))
        }
    }
}

/// The `--version` text of both subcommands.
pub fn print_version() {
    println!(
        "spirv-asm {} (compatible with SPIRV-Tools v2025.5 spirv-as/spirv-dis)",
        env!("CARGO_PKG_VERSION")
    );
    println!("Target: SPIR-V 1.6");
}
