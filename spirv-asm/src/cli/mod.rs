//! One module per subcommand.

pub mod as_cmd;
pub mod dis_cmd;

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

/// Writes to a file, or standard output for `-`.
pub fn write_output(path: &str, bytes: &[u8]) -> Result<(), String> {
    use std::io::Write;
    if path == "-" {
        let mut out = std::io::stdout().lock();
        out.write_all(bytes)
            .and_then(|()| out.flush())
            .map_err(|e| format!("error: cannot write standard output: {e}"))
    } else {
        std::fs::write(path, bytes)
            .map_err(|e| format!("error: cannot write output file '{path}': {e}"))
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
