//! `spirv-asm as`: assembly text → binary.

use spirv_asm::{AsmOptions, assemble};
use spirv_core::DEFAULT_GENERATOR;
use spirv_core::ExtInstRegistry;
use spirv_core::target_env_version;

/// Arguments of `spirv-asm as`, the same as `spirv-as` 2025.5's plus extensions.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  spirv-asm as shader.spvasm -o shader.spv\n  spirv-asm as --target-env vulkan1.1 - -o - < in.spvasm > out.spv\n  spirv-asm as --generator 0x00070000 in.spvasm   # spirv-as's exact bytes"
)]
pub struct Args {
    /// Print the version and exit, like spirv-as/spirv-dis's `--version`.
    #[arg(long)]
    version: bool,
    /// Input file; `-` or none reads standard input. Several files or directories:
    /// batch mode.
    #[arg(value_name = "INPUT")]
    inputs: Vec<String>,
    /// Output file; `-` writes standard output. In batch mode: the directory the
    /// outputs go to, mirroring the inputs' trees.
    #[arg(short = 'o')]
    output: Option<String>,
    /// Target environment (spv1.0 … spv1.6, vulkan1.0 … vulkan1.4, vulkan1.1spv1.4,
    /// opencl1.2 … opencl2.2, opengl4.0 … opengl4.5). Default: a leading `; Version:`
    /// comment, else spv1.6.
    #[arg(long = "target-env")]
    target_env: Option<String>,
    /// Keep numeric ids (`%12` stays 12); named ids fill the gaps.
    #[arg(long = "preserve-numeric-ids")]
    preserve_numeric_ids: bool,
    /// Generator word of the header (default: ours, 0xffff0001; spirv-as writes 0x00070000).
    #[arg(long, value_parser = parse_word)]
    generator: Option<u32>,
    /// Accept names for every extended set we know (DebugPrintf, DebugBreak), not only spirv-as's 13.
    #[arg(long = "all-ext-inst-names")]
    all_ext_inst_names: bool,
    #[command(flatten)]
    grammar: super::grammar::GrammarArgs,
    #[command(flatten)]
    batch: super::batch::BatchArgs,
}

/// `as` on one file of a batch.
struct Batch(AsmOptions);

impl super::batch::Job for Batch {
    fn name(&self) -> &'static str {
        "as"
    }
    fn input_ext(&self) -> &'static str {
        "spvasm"
    }
    fn output_ext(&self) -> Option<&str> {
        Some("spv")
    }
    fn process(
        &self,
        input: Vec<u8>,
        _: &std::path::Path,
    ) -> Result<Vec<u8>, super::batch::FileError> {
        match assemble(&input, &self.0) {
            Ok(words) => Ok(spirv_core::binary::words_to_bytes(&words)),
            Err(e) => {
                let mut message = e.message.clone();
                if is_binary(&input) {
                    message.push('\n');
                    message.push_str(BINARY_HINT);
                }
                let at = super::batch::At {
                    line: Some(e.line),
                    column: Some(e.column),
                    word: None,
                };
                Err(super::batch::FileError::at(at, &message, e.exit_code()))
            }
        }
    }
}

/// Printed after spirv-as's error, in place of the source line, when the input is a
/// binary module (as `dis` given text says to use `as`).
const BINARY_HINT: &str =
    "note: the input is a SPIR-V binary, not assembly text; `spirv-asm dis` disassembles it";

/// Whether `bytes` start with the SPIR-V magic number, in either byte order.
fn is_binary(bytes: &[u8]) -> bool {
    let magic = spirv_core::binary::MAGIC;
    bytes
        .first_chunk::<4>()
        .is_some_and(|w| u32::from_le_bytes(*w) == magic || u32::from_be_bytes(*w) == magic)
}

fn parse_word(s: &str) -> Result<u32, String> {
    let r = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => u32::from_str_radix(h, 16),
        None => s.parse(),
    };
    r.map_err(|e| e.to_string())
}

/// Runs the subcommand; returns the process exit code (spirv-as's codes).
pub fn run(args: Args) -> u8 {
    if args.version {
        super::print_version();
        return 0;
    }
    let version = match &args.target_env {
        Some(t) => match target_env_version(t) {
            Some(v) => Some(v),
            None => {
                eprintln!("error: Unrecognized target env: {t}");
                return 1;
            }
        },
        None => None,
    };
    let registry = match args.grammar.registry(ExtInstRegistry::default()) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    let opts = AsmOptions {
        version,
        preserve_numeric_ids: args.preserve_numeric_ids,
        generator: args.generator.unwrap_or(DEFAULT_GENERATOR),
        all_ext_inst_names: args.all_ext_inst_names,
        registry,
    };
    if args.batch.wanted(&args.inputs) {
        return super::batch::run(
            &Batch(opts),
            &args.inputs,
            args.output.as_deref(),
            &args.batch,
        );
    }
    let text = match super::read_input(args.inputs.first().map(String::as_str)) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    match assemble(&text, &opts) {
        Ok(words) => {
            let bytes = spirv_core::binary::words_to_bytes(&words);
            let written = super::output::Output::open(args.output.as_deref().unwrap_or("out.spv"))
                .and_then(|mut out| out.write_all(&bytes).and_then(|()| out.commit()));
            match written {
                Ok(()) => 0,
                Err(e) => {
                    eprintln!("{e}");
                    1
                }
            }
        }
        Err(e) if is_binary(&text) => {
            // spirv-as's line, without the binary's bytes as the "source line".
            eprintln!("{e}\n{BINARY_HINT}");
            e.exit_code()
        }
        Err(e) => {
            eprintln!("{}", e.render(&text));
            e.exit_code()
        }
    }
}
