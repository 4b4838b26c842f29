//! `spirv-asm opt`: spirv-opt's command line, a thin front end over `spirv_opt::Optimizer`
//! whose pass flags and `--help` come from the pass registry.

use super::batch::{BatchArgs, FileError, Job};
use spirv_core::TargetEnv;
use spirv_opt::OptError;
use spirv_opt::registry::{self, RunsOn};

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
    /// The optimizer, its passes registered.
    optimizer: spirv_opt::Optimizer,
    /// The validator's options (for spirv-val's text when the input is not valid).
    validator: spirv_core::validate::Options<'static>,
    skip_validation: bool,
    inputs: Vec<String>,
    output: Option<String>,
    batch: BatchArgs,
}

/// The environment `name` names, or the message.
fn target_env(name: &str) -> Result<TargetEnv, String> {
    TargetEnv::parse(name).ok_or_else(|| format!("error: Unrecognized target env: {name}"))
}

fn parse(args: &[String]) -> Result<Request, String> {
    let mut validator = spirv_core::validate::Options::default();
    let mut skip_validation = false;
    let mut inputs = Vec::new();
    let mut output = None;
    let mut batch = BatchArgs::default();
    // The pass flags, as spirv-opt canonicalizes them (`--flag=VALUE`).
    let mut flags: Vec<String> = Vec::new();
    let (mut preserve_bindings, mut preserve_spec_constants) = (false, false);
    let mut max_id_bound = None;
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
                batch.jobs = Some(
                    n.parse()
                        .map_err(|_| format!("error: {a} takes a number, not '{n}'"))?,
                );
                continue;
            }
            "--ext" => {
                batch.ext = Some(value(a)?);
                continue;
            }
            "--suffix" => {
                batch.suffix = Some(value(a)?);
                continue;
            }
            "--in-place" => {
                batch.in_place = true;
                continue;
            }
            "-q" | "--quiet" => {
                batch.quiet = true;
                continue;
            }
            "--json" => {
                batch.json = true;
                continue;
            }
            _ => {}
        }
        match a.as_str() {
            "-o" => output = Some(value(a)?),
            "--skip-validation" => skip_validation = true,
            // spirv-opt's form is `--target-env=ENV`; the next argument is taken too.
            "--target-env" => validator.target_env = target_env(&value(a)?)?,
            flag if flag.starts_with("--target-env=") => {
                validator.target_env = target_env(&flag["--target-env=".len()..])?;
            }
            "--before-hlsl-legalization" => validator.before_hlsl_legalization = true,
            "--relax-logical-pointer" => validator.relax_logical_pointer = true,
            "--relax-block-layout" => validator.relax_block_layout = true,
            "--scalar-block-layout" => validator.scalar_block_layout = true,
            "--workgroup-scalar-block-layout" => validator.workgroup_scalar_block_layout = true,
            "--skip-block-layout" => validator.skip_block_layout = true,
            "--relax-struct-store" => validator.relax_struct_store = true,
            // On by default on spirv-opt's command line.
            "--preserve-interface" => {}
            "--preserve-bindings" => preserve_bindings = true,
            "--preserve-spec-constants" => preserve_spec_constants = true,
            flag if flag.starts_with("--max-id-bound=") => {
                let bound = c_atoi(&flag["--max-id-bound=".len()..]);
                // spirv-opt's check: below SPIR-V's minimum for the limit is refused.
                if bound < spirv_opt::ir::DEFAULT_MAX_ID_BOUND {
                    return Err("error: The max id bound must be at least 0x3FFFFF".into());
                }
                // spirv-opt sets the validator's limit too.
                validator.limits.max_id_bound = bound;
                max_id_bound = Some(bound);
            }
            "-" => inputs.push(a.clone()),
            flag if flag.starts_with("--") || flag == "-O" || flag == "-Os" => {
                let name = flag.trim_start_matches('-');
                // A few flags also take their value as the next argument (spirv-opt's
                // `CanonicalizeFlag`); a missing one reads as empty.
                let next = registry::lookup(name).is_some_and(|r| r.next_arg);
                if next {
                    let v = it.next().map_or("", String::as_str);
                    flags.push(format!("{flag}={v}"));
                } else {
                    flags.push(flag.to_owned());
                }
                if flag == "--legalize-hlsl" {
                    validator.before_hlsl_legalization = true;
                }
            }
            flag if flag.starts_with('-') => {
                return Err(format!(
                    "error: {flag} is not an option spirv-asm opt has (see spirv-asm opt --help)"
                ));
            }
            file => inputs.push(file.to_owned()),
        }
    }
    let mut optimizer = spirv_asm::opt::optimizer();
    // spirv-opt's command line registers its passes with --preserve-interface on.
    let mut pass_options = spirv_opt::PassOptions::default();
    pass_options.preserve_interface = true;
    optimizer
        .pass_options(pass_options)
        .skip_validation(skip_validation)
        .validator_options(validator.clone())
        .preserve_bindings(preserve_bindings)
        .preserve_spec_constants(preserve_spec_constants);
    if let Some(bound) = max_id_bound {
        optimizer.max_id_bound(bound);
    }
    for f in &flags {
        optimizer
            .register_flag(f)
            .map_err(|e| format!("error: line 0: {e}"))?;
    }
    Ok(Request {
        optimizer,
        validator,
        skip_validation,
        inputs,
        output,
        batch,
    })
}

impl Request {
    /// Validates (unless skipped) and runs the passes: the module's bytes, or what to
    /// print (spirv-val's text, or `error: …` lines).
    /// The passes' warnings go to standard output, where spirv-opt's command line
    /// prints them (its errors go to standard error), except under `--json`, whose
    /// records standard output carries.
    fn optimize(&self, words: Vec<u32>) -> Result<Vec<u32>, String> {
        let mut warn = |m: spirv_opt::Message| {
            if m.level == spirv_opt::MessageLevel::Warning && !self.batch.json {
                println!("{m}");
            }
        };
        // Without validation no failure needs the input again: the optimizer takes it.
        let done = if self.skip_validation {
            self.optimizer.run_owned_reporting(words, &mut warn)
        } else {
            match self.optimizer.run_reporting(&words, &mut warn) {
                Err(OptError::Invalid(fault)) => {
                    return Err(spirv_asm::val::render(&words, &[*fault], &self.validator));
                }
                other => other,
            }
        };
        done.map(|o| o.words).map_err(failure)
    }

    /// Without validation, the module in the file at `path` optimized as it is read and
    /// written to `output` as it is made (neither is ever all in memory as words):
    /// the exit code; `None` for a file read whole instead (not a regular file, or a
    /// length the whole read refuses), which then reports as it does.
    fn optimize_file(&self, path: &str, output: &str) -> Option<u8> {
        let mut file = match std::fs::File::open(path) {
            Ok(f) => f,
            Err(e) => {
                eprintln!("{}", read_error(path, &e.to_string()));
                return Some(1);
            }
        };
        let meta = file.metadata().ok()?;
        if !meta.is_file() || meta.len() % 4 != 0 {
            return None;
        }
        let mut warn = |m: spirv_opt::Message| {
            if m.level == spirv_opt::MessageLevel::Warning && !self.batch.json {
                println!("{m}");
            }
        };
        let done = match self.optimizer.run_file_reporting(&mut file, &mut warn) {
            Ok(done) => done,
            Err(OptError::Read(e)) => {
                eprintln!("{}", read_error(path, &e));
                return Some(1);
            }
            Err(e) => {
                eprint!("{}", failure(e));
                return Some(1);
            }
        };
        drop(file);
        let written = super::output::Output::open(output).and_then(|mut o| {
            o.reserve(done.byte_len());
            o.write_through(|w| done.write_to(w))?;
            o.commit()
        });
        Some(match written {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("{e}");
                1
            }
        })
    }
}

/// A run's failure as the command prints it.
fn failure(e: OptError) -> String {
    match e {
        // A pass's failure or a refused load, as spirv-opt's consumer prints it
        // (`error: line N: …`).
        OptError::Pass(_) | OptError::Load(_) => format!("{}\n", e.message()),
        e => format!("error: {e}\n"),
    }
}

/// The message for an input file that cannot be read, as `super::read_words` words it.
fn read_error(path: &str, e: &str) -> String {
    format!("error: cannot open input file '{path}': {e}")
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
        print!("{}", help());
        return 0;
    }
    if args.args.iter().any(|a| a == "--version") {
        super::print_version();
        return 0;
    }
    let mut r = match parse(&args.args) {
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
    // One module, then exit: the IR need not be freed (see `Optimizer::leak_ir`).
    r.optimizer.leak_ir(true);
    let Some(output) = r.output.as_deref() else {
        eprintln!("error: -o required");
        return 1;
    };
    let input = r.inputs.first().map(String::as_str);
    if r.skip_validation {
        if let Some(code) = input
            .filter(|&p| p != "-")
            .and_then(|p| r.optimize_file(p, output))
        {
            return code;
        }
    }
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

/// The number C's `atoi` reads at the start of `text` (spirv-opt reads `--max-id-bound`
/// so, then keeps it as a 32-bit unsigned value): spaces, a sign, digits; 0 for none.
fn c_atoi(text: &str) -> u32 {
    let t = text.trim_start();
    let (negative, digits) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let mut value: i64 = 0;
    for b in digits.bytes().take_while(u8::is_ascii_digit) {
        value = value.saturating_mul(10).saturating_add(i64::from(b - b'0'));
    }
    if negative {
        value = -value;
    }
    // `strtol` into an `int`, then to `uint32_t`: the low 32 bits.
    value as u32
}

/// `--help`: the options, then every pass and preset of the registry.
fn help() -> String {
    use std::fmt::Write;
    let mut out = String::from(include_str!("opt_help.txt"));
    out.push_str("\nPasses (spirv-opt's; those not implemented yet are marked so):\n");
    let mut rows: Vec<&registry::PassInfo> = registry::PASSES.iter().filter(|p| p.cli).collect();
    rows.sort_by_key(|p| p.flag.to_ascii_lowercase());
    for p in rows {
        let mut head = format!("  {}", p.dashed());
        match p.arg {
            registry::Arg::None => {}
            registry::Arg::Optional(v) => {
                let _ = write!(head, "[={v}]");
            }
            registry::Arg::Required(v) if p.next_arg => {
                let _ = write!(head, " {v}");
            }
            registry::Arg::Required(v) => {
                let _ = write!(head, "={v}");
            }
            _ => {}
        }
        let mut text = p.help.to_owned();
        match p.runs_on() {
            RunsOn::Missing => text.push_str(" (not implemented yet)"),
            RunsOn::Preset if !p.is_implemented() => {
                let _ = write!(
                    text,
                    " (not implemented yet: {} of its passes are missing)",
                    p.missing().len()
                );
            }
            _ => {}
        }
        let _ = writeln!(out, "{head}");
        for line in wrap(&text, 61) {
            let _ = writeln!(out, "               {line}");
        }
    }
    out
}

/// `text` in lines of at most `width` characters, broken at spaces.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && line.len() + 1 + word.len() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}
