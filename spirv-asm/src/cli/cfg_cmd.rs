//! `spirv-asm cfg`: the control-flow graph as `spirv-cfg` 2025.5's GraphViz DOT, or
//! drawn as SVG.

use super::batch::{BatchArgs, FileError, Job};
use spirv_asm::flow_graph::{ControlFlow, SvgOptions};

/// Arguments of `spirv-asm cfg`: `spirv-cfg`'s plus the SVG drawing.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  spirv-asm cfg shader.spv | dot -Tsvg > cfg.svg\n  spirv-asm cfg --format svg --with-instructions shader.spv -o cfg.svg\n  spirv-asm cfg --format svg -o pictures/ shaders/"
)]
pub struct Args {
    /// Print the version and exit.
    #[arg(long)]
    version: bool,
    /// Input binary; `-` reads standard input. Several files or directories: batch
    /// mode.
    #[arg(value_name = "INPUT")]
    inputs: Vec<String>,
    /// Output file; `-` (the default) writes standard output. In batch mode: the
    /// directory the outputs go to.
    #[arg(short = 'o', default_value = "-")]
    output: String,
    /// `dot` (spirv-cfg's output, byte for byte) or `svg` (drawn here, no GraphViz
    /// needed).
    #[arg(long, default_value = "dot", value_parser = ["dot", "svg"])]
    format: String,
    /// Only the function with this name (friendly name, or id as `5` or `%5`).
    #[arg(long, value_name = "NAME")]
    function: Option<String>,
    /// SVG: list each block's instructions in its box.
    #[arg(long = "with-instructions")]
    with_instructions: bool,
    #[command(flatten)]
    batch: BatchArgs,
}

/// What one input turns into.
struct Cfg<'a> {
    svg: bool,
    function: Option<&'a str>,
    with_instructions: bool,
}

impl Job for Cfg<'_> {
    fn name(&self) -> &'static str {
        "cfg"
    }
    fn input_ext(&self) -> &'static str {
        "spv"
    }
    fn output_ext(&self) -> Option<&str> {
        Some(if self.svg { "svg" } else { "dot" })
    }
    fn process(&self, input: Vec<u8>, path: &std::path::Path) -> Result<Vec<u8>, FileError> {
        let words = super::dis_cmd::words_from_bytes(input, &path.to_string_lossy())
            .map_err(|e| FileError::from_message(&e, 1))?;
        self.words(&words).map_err(|e| match e {
            Ok(e) => FileError::from_dis(&e),
            Err(message) => FileError::plain(message, 1),
        })
    }
}

impl Cfg<'_> {
    /// The output for a module; the parser's error, or another message.
    fn words(&self, words: &[u32]) -> Result<Vec<u8>, Result<spirv_asm::DisError, String>> {
        let mut cfg = ControlFlow::read(words).map_err(Ok)?;
        if let Some(name) = self.function {
            if !cfg.retain_function(name) {
                return Err(Err(format!("no function named '{name}' has blocks")));
            }
        }
        Ok(if self.svg {
            cfg.to_svg(&SvgOptions::with_instructions(self.with_instructions))
                .into_bytes()
        } else {
            cfg.to_dot()
        })
    }
}

/// Runs the subcommand; returns the exit code (spirv-cfg's: the parser's code for a
/// module that does not parse, 1 for a file that cannot be read or written).
pub fn run(args: Args) -> u8 {
    if args.version {
        super::print_version();
        return 0;
    }
    let job = Cfg {
        svg: args.format == "svg",
        function: args.function.as_deref(),
        with_instructions: args.with_instructions,
    };
    if args.batch.wanted(&args.inputs) {
        let out_dir = (args.output != "-").then_some(args.output.as_str());
        return super::batch::run(&job, &args.inputs, out_dir, &args.batch);
    }
    if args.inputs.is_empty() {
        eprintln!("error: exactly one input file must be specified.");
        return 1;
    }
    let words = match super::dis_cmd::read_words_or_hex(args.inputs.first().map(String::as_str)) {
        Ok(w) => w,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    match job.words(&words) {
        Ok(bytes) => {
            let written = super::output::Output::open(&args.output)
                .and_then(|mut out| out.write_all(&bytes).and_then(|()| out.commit()));
            match written {
                Ok(()) => 0,
                Err(e) => {
                    eprintln!("{e}");
                    1
                }
            }
        }
        // spirv-cfg prints the parser's diagnostic as spirv-dis does.
        Err(Ok(e)) => {
            eprintln!("error: {e}");
            e.exit_code()
        }
        Err(Err(message)) => {
            eprintln!("error: {message}");
            1
        }
    }
}
