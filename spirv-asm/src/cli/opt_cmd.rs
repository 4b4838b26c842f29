//! `spirv-asm opt`: spirv-opt's command line for its structural passes.

use spirv_asm::opt::Pass;
use spirv_core::TargetEnv;

/// Arguments of `spirv-asm opt`, read as spirv-opt reads them: pass flags in the order
/// given, `-o FILE`, `--skip-validation`, `--target-env=ENV` (or `--target-env ENV`),
/// one input (`-` or none for standard input).
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
    input: Option<String>,
    output: Option<String>,
    skip_validation: bool,
    target_env: TargetEnv,
}

/// The environment `name` names, or the message.
fn target_env(name: &str) -> Result<TargetEnv, String> {
    TargetEnv::parse(name).ok_or_else(|| format!("error: Unrecognized target env: {name}"))
}

fn parse(args: &[String]) -> Result<Request, String> {
    let mut r = Request {
        passes: Vec::new(),
        input: None,
        output: None,
        skip_validation: false,
        target_env: TargetEnv::default(),
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
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
            "-" => r.input = Some(a.clone()),
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
                    (true, None) => Some(
                        it.next()
                            .ok_or_else(|| format!("error: Missing argument to {flag}"))?
                            .clone(),
                    ),
                    (false, _) => None,
                };
                r.passes.push(
                    Pass::from_flag(name, value.as_deref()).map_err(|e| format!("error: {e}"))?,
                );
            }
            flag if flag.starts_with('-') => {
                return Err(format!(
                    "error: {flag} is not an option spirv-asm opt has; its passes are --{} (see spirv-asm opt --help)",
                    spirv_core::edit::passes::FLAGS.join(", --")
                ));
            }
            file => {
                if r.input.is_some() {
                    return Err("error: More than one input file specified".into());
                }
                r.input = Some(file.to_owned());
            }
        }
    }
    Ok(r)
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
    let Some(output) = r.output.as_deref() else {
        eprintln!("error: -o required");
        return 1;
    };
    let bytes = match super::read_input(r.input.as_deref()) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    let words = match super::bytes_to_words(&bytes, r.input.as_deref().unwrap_or("-")) {
        Ok(w) => w,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    if !r.skip_validation {
        let options = spirv_asm::val::Options {
            target_env: r.target_env,
            ..Default::default()
        };
        if let Some(text) = spirv_asm::val::spirv_val_text(&words, &options) {
            eprint!("{text}");
            return 1;
        }
    }
    let module = match spirv_core::Module::from_words(&words) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("error: {e}");
            return 1;
        }
    };
    let out = match spirv_asm::opt::run(&module, &r.passes) {
        Ok((m, _)) => m.to_bytes(),
        Err(e) => {
            eprintln!("error: {e}");
            return 1;
        }
    };
    let written = super::output::Output::open(output)
        .and_then(|mut o| o.write_all(&out).and_then(|()| o.commit()));
    match written {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("{e}");
            1
        }
    }
}
