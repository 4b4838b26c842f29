//! `spirv-asm dis`: binary → assembly text.

use spirv_asm::DisOptions;
use spirv_core::ExtInstRegistry;
use std::io::IsTerminal;

/// Arguments of `spirv-asm dis`, the same as `spirv-dis` 2025.5's plus extensions.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  spirv-asm dis shader.spv\n  spirv-asm dis --raw-id --no-indent shader.spv -o shader.spvasm\n  spirv-asm dis --keep-going broken.spv"
)]
pub struct Args {
    /// Print the version and exit, like spirv-as/spirv-dis's `--version`.
    #[arg(long)]
    version: bool,
    /// Input file; `-` or none reads standard input. Hex text (`0x07230203 …` words or
    /// `03 02 23 07 …` bytes) is accepted too. Several files or directories: batch mode.
    #[arg(value_name = "INPUT")]
    inputs: Vec<String>,
    /// Output file; `-` (the default) writes standard output. In batch mode: the
    /// directory the outputs go to, mirroring the inputs' trees.
    #[arg(short = 'o', default_value = "-")]
    output: String,
    /// Print `%N` ids instead of friendly names.
    #[arg(long = "raw-id")]
    raw_id: bool,
    /// Leave out the `; SPIR-V` header comment.
    #[arg(long = "no-header")]
    no_header: bool,
    /// Do not align result ids.
    #[arg(long = "no-indent")]
    no_indent: bool,
    /// Indent by structured control-flow depth.
    #[arg(long = "nested-indent")]
    nested_indent: bool,
    /// Print blocks in structured order.
    #[arg(long = "reorder-blocks")]
    reorder_blocks: bool,
    /// Add section comments, OpName ids and decoration hints.
    #[arg(long)]
    comment: bool,
    /// Print each instruction's byte offset.
    #[arg(long)]
    offsets: bool,
    /// Force ANSI colours (default: when writing to a terminal).
    #[arg(long, conflicts_with = "no_color")]
    color: bool,
    /// Never use colours.
    #[arg(long = "no-color")]
    no_color: bool,
    /// Print instructions that do not parse as `OpUnknown(…)`/`!<integer>` words and go on.
    #[arg(long = "keep-going")]
    keep_going: bool,
    /// Print names for every extended set we know (DebugPrintf, DebugBreak), not only spirv-dis's 13.
    #[arg(long = "all-ext-inst-names")]
    all_ext_inst_names: bool,
    #[command(flatten)]
    grammar: super::grammar::GrammarArgs,
    #[command(flatten)]
    batch: super::batch::BatchArgs,
}

impl Args {
    fn options(&self, color: bool, registry: Option<ExtInstRegistry>) -> DisOptions {
        DisOptions {
            raw_id: self.raw_id,
            header: !self.no_header,
            indent: !self.no_indent,
            nested_indent: self.nested_indent,
            reorder_blocks: self.reorder_blocks,
            comment: self.comment,
            offsets: self.offsets,
            color,
            keep_going: self.keep_going,
            all_ext_inst_names: self.all_ext_inst_names,
            registry,
        }
    }
}

/// `dis` on one file of a batch.
struct Batch(DisOptions);

impl super::batch::Job for Batch {
    fn name(&self) -> &'static str {
        "dis"
    }
    fn input_ext(&self) -> &'static str {
        "spv"
    }
    fn output_ext(&self) -> Option<&str> {
        Some("spvasm")
    }
    fn process(
        &self,
        input: Vec<u8>,
        path: &std::path::Path,
    ) -> Result<Vec<u8>, super::batch::FileError> {
        let words = words_from_bytes(input, &path.to_string_lossy())
            .map_err(|e| super::batch::FileError::from_message(&e, 1))?;
        spirv_asm::disassemble(&words, &self.0).map_err(|e| super::batch::FileError::from_dis(&e))
    }
    fn process_in(
        &self,
        s: &mut super::batch::Scratch,
        path: &std::path::Path,
    ) -> Result<(), super::batch::FileError> {
        // Hex text and a size that is not whole words (an error) go the plain way.
        if s.input.len() % 4 != 0 || starts_as_hex(&s.input) == Some(true) {
            s.output = self.process(std::mem::take(&mut s.input), path)?;
            return Ok(());
        }
        s.words.clear();
        let words = s.input.chunks_exact(4);
        s.words
            .extend(words.map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])));
        spirv_asm::disassemble_reusing(&s.words, &self.0, &mut s.output)
            .map_err(|e| super::batch::FileError::from_dis(&e))
    }
}

/// Whether the input starts like hex text (its first character a `0` or an `x`); `None`
/// while no character other than whitespace has come.
fn starts_as_hex(bytes: &[u8]) -> Option<bool> {
    bytes
        .iter()
        .find(|b| !b.is_ascii_whitespace())
        .map(|c| matches!(c, b'0' | b'x' | b'X'))
}

/// Parses spirv-dis's hex-text input: words (`0x07230203`) or bytes (`03 02 23 07`),
/// with or without `0x`/`x` prefixes, separated by whitespace or commas.
fn parse_hex_text(text: &[u8]) -> Option<Vec<u8>> {
    let s = std::str::from_utf8(text).ok()?;
    let tokens: Vec<&str> = s
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .collect();
    let digits: Vec<&str> = tokens
        .iter()
        .map(|t| {
            t.strip_prefix("0x")
                .or_else(|| t.strip_prefix("0X"))
                .or_else(|| t.strip_prefix('x'))
                .unwrap_or(t)
        })
        .collect();
    if digits.is_empty()
        || !digits
            .iter()
            .all(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_hexdigit()))
    {
        return None;
    }
    if digits.iter().all(|d| d.len() <= 2) {
        return digits
            .iter()
            .map(|d| u8::from_str_radix(d, 16).ok())
            .collect();
    }
    let mut out = Vec::new();
    for d in digits {
        out.extend_from_slice(&u32::from_str_radix(d, 16).ok()?.to_le_bytes());
    }
    Some(out)
}

/// Reads a binary, or hex text as spirv-dis reads it, as words (host order as read);
/// `Err` is the message to print.
pub(super) fn read_words_or_hex(input: Option<&str>) -> Result<Vec<u32>, String> {
    // A binary is read straight into words; hex text (its first character a `0` or an
    // `x`, or no character yet in the first bytes read) is read as bytes and parsed.
    // Assembly text is read whole too, for the hint when it is not a binary.
    let maybe_text = |b: &[u8]| starts_as_hex(b) != Some(false) || looks_like_assembly(b);
    match super::read_binary(input, maybe_text)? {
        super::Input::Words(words) => Ok(words),
        super::Input::Text(bytes) => words_from_bytes(bytes, input.unwrap_or("-")),
    }
}

/// A whole input's bytes as words: hex text parsed as spirv-dis parses it, else the
/// bytes as little-endian words; `Err` is the message to print.
pub(super) fn words_from_bytes(mut bytes: Vec<u8>, name: &str) -> Result<Vec<u32>, String> {
    if starts_as_hex(&bytes) == Some(true) {
        bytes = parse_hex_text(&bytes).ok_or("error: input is neither a binary nor hex text")?;
    }
    super::bytes_to_words(&bytes, name).map_err(|e| {
        if looks_like_assembly(&bytes) {
            format!("{e}\n{ASSEMBLY_HINT}")
        } else {
            e
        }
    })
}

/// Printed after spirv-dis's error when the input is assembly text, not a binary.
pub(super) const ASSEMBLY_HINT: &str =
    "note: the input looks like SPIR-V assembly text; `spirv-asm as` assembles it";

/// Whether `bytes` start like SPIR-V assembly: after blank space, a `;` comment, a
/// `%` result id or an `Op` name.
pub(super) fn looks_like_assembly(bytes: &[u8]) -> bool {
    let rest = match bytes.iter().position(|b| !b.is_ascii_whitespace()) {
        Some(i) => &bytes[i..],
        None => return false,
    };
    match rest {
        [b';' | b'%', ..] => true,
        [b'O', b'p', c, ..] => c.is_ascii_uppercase(),
        _ => false,
    }
}

/// The first bytes of a module read as words, for [`looks_like_assembly`].
pub(super) fn leading_bytes(words: &[u32]) -> Vec<u8> {
    words
        .iter()
        .take(16)
        .flat_map(|w| w.to_le_bytes())
        .collect()
}

/// Runs the subcommand; returns the process exit code (spirv-dis's codes).
pub fn run(args: Args) -> u8 {
    if args.version {
        super::print_version();
        return 0;
    }
    let registry = match args.grammar.registry(ExtInstRegistry::default()) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    if args.batch.wanted(&args.inputs) {
        let out_dir = (args.output != "-").then_some(args.output.as_str());
        return super::batch::run(
            &Batch(args.options(args.color, registry)),
            &args.inputs,
            out_dir,
            &args.batch,
        );
    }
    let mut words = match read_words_or_hex(args.inputs.first().map(String::as_str)) {
        Ok(words) => words,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    if words.first() == Some(&spirv_core::binary::MAGIC.swap_bytes()) {
        spirv_core::binary::swap_words(&mut words);
    }
    let to_stdout = args.output == "-";
    let color = !args.no_color && (args.color || (to_stdout && std::io::stdout().is_terminal()));
    let opts = args.options(color, registry);
    let mut out = match super::output::Output::open(&args.output) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    match spirv_asm::disassemble_to(&words, &opts, out.writer()) {
        Ok(()) => match out.commit() {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("{e}");
                1
            }
        },
        Err(e) => {
            // Like spirv-dis: standard output keeps the text before the bad instruction;
            // a file is left as it was.
            if to_stdout {
                let _ = out.commit();
            }
            eprintln!("error: {e}");
            let bad_magic = matches!(
                e.kind,
                spirv_asm::DisErrorKind::Decode(spirv_core::DecodeErrorKind::BadMagic { .. })
            );
            if bad_magic && looks_like_assembly(&leading_bytes(&words)) {
                eprintln!("{ASSEMBLY_HINT}");
            }
            e.exit_code()
        }
    }
}
