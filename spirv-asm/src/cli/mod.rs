//! One module per subcommand.

pub mod as_cmd;
pub mod batch;
pub mod cfg_cmd;
pub mod dis_cmd;
pub mod grammar;
pub mod opt_cmd;
pub mod output;
pub mod reflect_cmd;
pub mod val_cmd;

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

/// What [`read_binary`] read: a binary's words, or the bytes of an input its `is_text`
/// test claimed from the first bytes.
pub enum Input {
    /// The words of a binary (host order as read).
    Words(Vec<u32>),
    /// The whole input, for a caller that reads text.
    Text(Vec<u8>),
}

/// SPIRV-Tools' message for an input whose size is not a whole number of words.
pub fn corrupt(name: &str) -> String {
    format!("error: file size should be a multiple of 4; file '{name}' corrupt")
}

/// The words of a binary read as bytes (little-endian words), or the size error.
pub fn bytes_to_words(bytes: &[u8], name: &str) -> Result<Vec<u32>, String> {
    if bytes.len() % 4 != 0 {
        return Err(corrupt(name));
    }
    Ok(bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect())
}

/// Reads a binary as words (host order as read; a module in the other byte order is
/// swapped by the reader), but an input whose first bytes `is_text` accepts is returned
/// whole as bytes instead (`dis` and `reflect` read hex text too). A file is read in
/// chunks straight into the word vector, so a large module is held once, not as bytes
/// and then as words.
pub fn read_binary(path: Option<&str>, is_text: impl Fn(&[u8]) -> bool) -> Result<Input, String> {
    let p = match path {
        None | Some("-") => {
            let bytes = read_input(path)?;
            return if is_text(&bytes) {
                Ok(Input::Text(bytes))
            } else {
                bytes_to_words(&bytes, "-").map(Input::Words)
            };
        }
        Some(p) => p,
    };
    let open_err = |e: std::io::Error| format!("error: cannot open input file '{p}': {e}");
    let mut file = std::fs::File::open(p).map_err(open_err)?;
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    // The length is only a hint for the first allocation; the data decides.
    let mut words = Vec::with_capacity(usize::try_from(len / 4).unwrap_or(0).min(1 << 28));
    let mut buf = vec![0u8; 1 << 16];
    let mut carry = 0usize;
    let mut first = true;
    loop {
        let n = file.read(&mut buf[carry..]).map_err(open_err)?;
        if std::mem::take(&mut first) && is_text(&buf[..n]) {
            let mut bytes = buf[..n].to_vec();
            file.read_to_end(&mut bytes).map_err(open_err)?;
            return Ok(Input::Text(bytes));
        }
        if n == 0 {
            break;
        }
        let filled = carry + n;
        let whole = filled / 4 * 4;
        words.extend(
            buf[..whole]
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
        );
        buf.copy_within(whole..filled, 0);
        carry = filled - whole;
    }
    if carry != 0 {
        return Err(corrupt(p));
    }
    Ok(Input::Words(words))
}

/// Reads a binary as words, as [`read_binary`] does for an input that is never text.
pub fn read_words(path: Option<&str>) -> Result<Vec<u32>, String> {
    match read_binary(path, |_| false)? {
        Input::Words(words) => Ok(words),
        Input::Text(bytes) => bytes_to_words(&bytes, path.unwrap_or("-")),
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
