//! `spirv-asm opt`: spirv-opt's command line for its structural passes.

use super::batch::{BatchArgs, FileError, Job};
use spirv_asm::opt::Pass;
use spirv_core::TargetEnv;

/// Arguments of `spirv-asm opt`, read as spirv-opt reads them: pass flags in the order
/// given, `-o FILE`, `--skip-validation`, `--target-env=ENV` (or `--target-env ENV`),
/// one input (`-` or none for standard input). Several inputs or a directory, or a
/// batch option (`-j N`, `--ext`, `--in-place`, `--suffix`, `-q`, `--json`): batch
/// mode, `-o` naming the output directory.
#[derive(clap::Args)]
#[command(
    disable_help_flag = true,
    after_help = "See spirv-asm opt --help for the passes.\n\nExamples:\n  spirv-asm opt --strip-debug shader.spv -o shader.stripped.spv"
)]
pub struct Args {
    /// Pass flags, options and the input, as spirv-opt takes them.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    args: Vec<String>,
}

/// What the command line asks for.
struct Request {
    passes: Vec<Pass>,
    inputs: Vec<String>,
    output: Option<String>,
    skip_validation: bool,
    target_env: TargetEnv,
    batch: BatchArgs,
}

/// The environment `name` names, or the message.
fn target_env(name: &str) -> Result<TargetEnv, String> {
    TargetEnv::parse(name).ok_or_else(|| format!("error: Unrecognized target env: {name}"))
}

fn parse(args: &[String]) -> Result<Request, String> {
    let mut r = Request {
        passes: Vec::new(),
        inputs: Vec::new(),
        output: None,
        skip_validation: false,
        target_env: TargetEnv::default(),
        batch: BatchArgs::default(),
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |flag: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| format!("error: Missing argument to {flag}"))
        };
        // Batch mode's options (spirv-opt has none of these names).
        match a.as_str() {
            "-j" | "--jobs" => {
                let n = value(a)?;
                r.batch.jobs = Some(
                    n.parse()
                        .map_err(|_| format!("error: {a} takes a number, not '{n}'"))?,
                );
                continue;
            }
            "--ext" => {
                r.batch.ext = Some(value(a)?);
                continue;
            }
            "--suffix" => {
                r.batch.suffix = Some(value(a)?);
                continue;
            }
            "--in-place" => {
                r.batch.in_place = true;
                continue;
            }
            "-q" | "--quiet" => {
                r.batch.quiet = true;
                continue;
            }
            "--json" => {
                r.batch.json = true;
                continue;
            }
            _ => {}
        }
        match a.as_str() {
            "-o" => {
                let o = it.next().ok_or("error: Missing argument to -o")?;
                r.output = Some(o.clone());
            }
            "--skip-validation" => r.skip_validation = true,
            // spirv-opt's form is `--target-env=ENV`; the next argument is taken too.
            "--target-env" => {
                let e = it.next().ok_or("error: Missing argument to --target-env")?;
                r.target_env = target_env(e)?;
            }
            flag if flag.starts_with("--target-env=") => {
                r.target_env = target_env(&flag["--target-env=".len()..])?;
            }
            "-" => r.inputs.push(a.clone()),
            flag if flag.starts_with("--") => {
                let (name, inline) = match flag[2..].split_once('=') {
                    Some((n, v)) => (n, Some(v.to_owned())),
                    None => (&flag[2..], None),
                };
                if !spirv_asm::opt::Pass::takes_value(name) && inline.is_some()
                    || !spirv_core::edit::passes::FLAGS.contains(&name)
                {
                    return Err(format!(
                        "error: {flag} is not a pass spirv-asm opt has; it has --{} (see spirv-asm opt --help)",
                        spirv_core::edit::passes::FLAGS.join(", --")
                    ));
                }
                let value = match (Pass::takes_value(name), inline) {
                    (true, Some(v)) => Some(v),
                    // spirv-opt reads a missing value of this one as empty.
                    (true, None) if name == "set-spec-const-default-value" => {
                        Some(it.next().cloned().unwrap_or_default())
                    }
                    (true, None) => Some(
                        it.next()
                            .ok_or_else(|| format!("error: Missing argument to {flag}"))?
                            .clone(),
                    ),
                    (false, _) => None,
                };
                r.passes.push(
                    Pass::from_flag(name, value.as_deref())
                        .map_err(|e| format!("error: line 0: {e}"))?,
                );
            }
            flag if flag.starts_with('-') => {
                return Err(format!(
                    "error: {flag} is not an option spirv-asm opt has; its passes are --{} (see spirv-asm opt --help)",
                    spirv_core::edit::passes::FLAGS.join(", --")
                ));
            }
            file => r.inputs.push(file.to_owned()),
        }
    }
    Ok(r)
}

impl Request {
    /// Validates (unless skipped) and runs the passes: the module's bytes, or what to
    /// print (spirv-val's text, or `error: …` lines).
    fn optimize(&self, words: Vec<u32>) -> Result<Vec<u32>, String> {
        if !self.skip_validation {
            let options = spirv_asm::val::Options {
                target_env: self.target_env,
                ..Default::default()
            };
            if let Some(text) = spirv_asm::val::spirv_val_text(&words, &options) {
                return Err(text);
            }
        }
        // The passes that decide instruction by instruction run as the module is read
        // when they and the module allow; otherwise it is read, without a copy.
        if let Some((words, _)) = spirv_core::edit::passes::run_streamed(&words, &self.passes) {
            return Ok(words);
        }
        let module = spirv_core::Module::read_owned(words, &Default::default())
            .map_err(|e| format!("error: {e}\n"))?;
        match spirv_asm::opt::run_to_words(module, &self.passes) {
            Ok((words, _)) => Ok(words),
            Err(e) => Err(format!("error: {e}\n")),
        }
    }
}

impl Job for Request {
    fn name(&self) -> &'static str {
        "opt"
    }
    fn input_ext(&self) -> &'static str {
        "spv"
    }
    fn output_ext(&self) -> Option<&str> {
        Some("spv")
    }
    fn process(&self, input: Vec<u8>, path: &std::path::Path) -> Result<Vec<u8>, FileError> {
        let words = super::bytes_to_words(&input, &path.to_string_lossy())
            .map_err(|e| FileError::from_message(&e, 1))?;
        drop(input);
        self.optimize(words)
            .map(|words| spirv_core::binary::words_to_bytes(&words))
            .map_err(|text| FileError::from_message(text.trim_end(), 1))
    }
}

/// Runs the subcommand; returns spirv-opt's exit codes: 0, or 1 for any failure. On a
/// failure nothing is written (spirv-opt copies the input to the output).
pub fn run(args: Args) -> u8 {
    if args.args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{}", include_str!("opt_help.txt"));
        return 0;
    }
    if args.args.iter().any(|a| a == "--version") {
        super::print_version();
        return 0;
    }
    let r = match parse(&args.args) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    if r.batch.wanted(&r.inputs) {
        return super::batch::run(&r, &r.inputs, r.output.as_deref(), &r.batch);
    }
    if r.inputs.len() > 1 {
        eprintln!("error: More than one input file specified");
        return 1;
    }
    let Some(output) = r.output.as_deref() else {
        eprintln!("error: -o required");
        return 1;
    };
    let input = r.inputs.first().map(String::as_str);
    let words = match super::read_words(input) {
        Ok(w) => w,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    let out = match r.optimize(words) {
        Ok(out) => out,
        Err(text) => {
            eprint!("{text}");
            return 1;
        }
    };
    let written = super::output::Output::open(output).and_then(|mut o| {
        o.reserve(out.len() as u64 * 4);
        o.write_words(&out).and_then(|()| o.commit())
    });
    match written {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("{e}");
            1
        }
    }
}
