//! One module per subcommand.

pub mod as_cmd;
pub mod batch;
pub mod cfg_cmd;
pub mod dis_cmd;
pub mod grammar;
pub mod listing;
pub mod opt_cmd;
pub mod output;
pub mod placement;
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
/// whole as bytes instead (`dis` and `reflect` read hex text too). A file is read
/// straight into the word vector (viewed as bytes), sized by the file's length, so a
/// large module is held once and copied once, by the kernel.
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
    // The length is only a hint for the first allocation (zeroed, so pages the read
    // does not reach are never touched); the data decides.
    let hint = usize::try_from(len.div_ceil(4)).unwrap_or(0).min(1 << 28);
    let mut words = vec![0u32; hint.max(1 << 10)];
    let mut filled = 0usize;
    // `is_text` sees the first bytes as a chunked read would hand them over.
    let first =
        read_some(&mut file, bytemuck::cast_slice_mut(&mut words), 1 << 16).map_err(open_err)?;
    let head: &[u8] = bytemuck::cast_slice(&words);
    if is_text(&head[..first]) {
        let mut bytes = head[..first].to_vec();
        file.read_to_end(&mut bytes).map_err(open_err)?;
        return Ok(Input::Text(bytes));
    }
    filled += first;
    loop {
        let bytes: &mut [u8] = bytemuck::cast_slice_mut(&mut words);
        if filled < bytes.len() {
            let n = read_some(&mut file, &mut bytes[filled..], usize::MAX).map_err(open_err)?;
            if n == 0 {
                break;
            }
            filled += n;
            continue;
        }
        // Full: the file grew since its length was read, or ends here.
        let mut probe = [0u8; 4096];
        let n = read_some(&mut file, &mut probe, usize::MAX).map_err(open_err)?;
        if n == 0 {
            break;
        }
        let more = words.len().max(1 << 14);
        words.resize(words.len() + more, 0);
        bytemuck::cast_slice_mut::<u32, u8>(&mut words)[filled..filled + n]
            .copy_from_slice(&probe[..n]);
        filled += n;
    }
    if filled % 4 != 0 {
        return Err(corrupt(p));
    }
    words.truncate(filled / 4);
    // The file's words are little-endian.
    if cfg!(target_endian = "big") {
        for w in &mut words {
            *w = u32::from_le(*w);
        }
    }
    Ok(Input::Words(words))
}

/// One read into `buf`, of at most `max` bytes, retried when interrupted.
fn read_some(file: &mut std::fs::File, buf: &mut [u8], max: usize) -> std::io::Result<usize> {
    let end = buf.len().min(max);
    loop {
        match file.read(&mut buf[..end]) {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            r => return r,
        }
    }
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
