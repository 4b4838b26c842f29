//! `spirv-asm val`: validates a binary, printing what `spirv-val` 2025.5 prints.

use super::batch::{At, BatchArgs, Fault, FileError, Job};
use spirv_asm::val::render_each;
use spirv_core::ExtInstRegistry;
use spirv_core::TargetEnv;
use spirv_core::validate::{Input, Limits, Options, validate, validate_all};
use std::path::Path;

/// Arguments of `spirv-asm val`: `spirv-val` 2025.5's, plus `--keep-going` and
/// `--offsets`.
#[derive(clap::Args)]
#[command(
    after_help = "Exit status: 0 when the module is valid, 1 otherwise (as spirv-val).\n\nExamples:\n  spirv-asm val shader.spv\n  spirv-asm val --target-env vulkan1.2 shaders/      # every .spv under the folder\n  spirv-asm val --keep-going --offsets broken.spv    # every fault, with word offsets"
)]
pub struct Args {
    /// Print the version and exit.
    #[arg(long)]
    version: bool,
    /// Input file, or a folder whose `.spv` files are validated (recursively); `-` or
    /// none reads standard input. Several files or folders: batch mode.
    #[arg(value_name = "INPUT")]
    inputs: Vec<String>,
    /// Target environment (spv1.0 … spv1.6, vulkan1.0 … vulkan1.4, vulkan1.1spv1.4,
    /// opencl1.2 … opencl2.2 with or without `embedded`, opengl4.0 … opengl4.5).
    /// Default: spv1.6.
    #[arg(long = "target-env")]
    target_env: Option<String>,
    /// Report every fault, not only the first (spirv-val stops at the first), up to
    /// --max-errors (default 100); faults that follow from one already reported are
    /// left out.
    #[arg(long = "keep-going")]
    keep_going: bool,
    /// Report at most N faults (implies --keep-going); 0 reports them all. With
    /// --keep-going alone: 100. A note after the last says how many were left out.
    #[arg(long = "max-errors", value_name = "N")]
    max_errors: Option<usize>,
    /// Name each instruction's word offset too: `error: line N (word W): …`.
    #[arg(long)]
    offsets: bool,
    /// Maximum number of members of a struct.
    #[arg(long = "max-struct-members", value_name = "N")]
    max_struct_members: Option<u32>,
    /// Maximum nesting depth of structs. spirv-val 2025.5 accepts only the spelling
    /// `--max-struct_depth` (its help names this one), so both are taken.
    #[arg(
        long = "max-struct-depth",
        visible_alias = "max-struct_depth",
        value_name = "N"
    )]
    max_struct_depth: Option<u32>,
    /// Maximum number of local (`Function`) variables.
    #[arg(long = "max-local-variables", value_name = "N")]
    max_local_variables: Option<u32>,
    /// Maximum number of global variables.
    #[arg(long = "max-global-variables", value_name = "N")]
    max_global_variables: Option<u32>,
    /// Maximum number of `OpSwitch` cases.
    #[arg(long = "max-switch-branches", value_name = "N")]
    max_switch_branches: Option<u32>,
    /// Maximum number of function parameters.
    #[arg(long = "max-function-args", value_name = "N")]
    max_function_args: Option<u32>,
    /// Maximum control-flow nesting depth.
    #[arg(long = "max-control-flow-nesting-depth", value_name = "N")]
    max_control_flow_nesting_depth: Option<u32>,
    /// Maximum number of access-chain indexes.
    #[arg(long = "max-access-chain-indexes", value_name = "N")]
    max_access_chain_indexes: Option<u32>,
    /// Maximum id bound.
    #[arg(long = "max-id-bound", value_name = "N")]
    max_id_bound: Option<u32>,
    /// Allow pointers as function results and allocated objects in logical addressing.
    #[arg(long = "relax-logical-pointer")]
    relax_logical_pointer: bool,
    /// VK_KHR_relaxed_block_layout (the default for Vulkan 1.1 and later).
    #[arg(long = "relax-block-layout")]
    relax_block_layout: bool,
    /// VK_KHR_uniform_buffer_standard_layout.
    #[arg(long = "uniform-buffer-standard-layout")]
    uniform_buffer_standard_layout: bool,
    /// VK_EXT_scalar_block_layout.
    #[arg(long = "scalar-block-layout")]
    scalar_block_layout: bool,
    /// Scalar block layout for Workgroup blocks.
    #[arg(long = "workgroup-scalar-block-layout")]
    workgroup_scalar_block_layout: bool,
    /// Skip checking block layouts.
    #[arg(long = "skip-block-layout")]
    skip_block_layout: bool,
    /// Allow OpStore between layout-compatible structs.
    #[arg(long = "relax-struct-store")]
    relax_struct_store: bool,
    /// Allow LocalSizeId where the environment would not.
    #[arg(long = "allow-localsizeid")]
    allow_localsizeid: bool,
    /// Allow the Offset image operand where the environment would not.
    #[arg(long = "allow-offset-texture-operand")]
    allow_offset_texture_operand: bool,
    /// Allow non-32-bit Base operands of bit instructions in Vulkan.
    #[arg(long = "allow-vulkan-32-bit-bitwise")]
    allow_vulkan_32_bit_bitwise: bool,
    /// Allow patterns that spirv-opt's HLSL legalization fixes later.
    #[arg(long = "before-hlsl-legalization")]
    before_hlsl_legalization: bool,
    #[command(flatten)]
    grammar: super::grammar::GrammarArgs,
    #[command(flatten)]
    batch: BatchArgs,
}

/// How many faults `--keep-going` reports without `--max-errors`: enough to see a
/// pattern, and a bounded output for a module that breaks a rule a million times.
const DEFAULT_MAX_ERRORS: usize = 100;

impl Args {
    /// The most faults to report: 1 as spirv-val, else `--max-errors` (0: no limit).
    fn max_errors(&self) -> usize {
        match (self.keep_going, self.max_errors) {
            (_, Some(0)) => usize::MAX,
            (_, Some(n)) => n,
            (true, None) => DEFAULT_MAX_ERRORS,
            (false, None) => 1,
        }
    }

    fn options(
        &self,
        target_env: TargetEnv,
        registry: Option<&'static ExtInstRegistry>,
    ) -> Options<'static> {
        let d = Limits::default();
        Options {
            target_env,
            limits: Limits {
                max_struct_members: self.max_struct_members.unwrap_or(d.max_struct_members),
                max_struct_depth: self.max_struct_depth.unwrap_or(d.max_struct_depth),
                max_local_variables: self.max_local_variables.unwrap_or(d.max_local_variables),
                max_global_variables: self.max_global_variables.unwrap_or(d.max_global_variables),
                max_switch_branches: self.max_switch_branches.unwrap_or(d.max_switch_branches),
                max_function_args: self.max_function_args.unwrap_or(d.max_function_args),
                max_control_flow_nesting_depth: self
                    .max_control_flow_nesting_depth
                    .unwrap_or(d.max_control_flow_nesting_depth),
                max_access_chain_indexes: self
                    .max_access_chain_indexes
                    .unwrap_or(d.max_access_chain_indexes),
                max_id_bound: self.max_id_bound.unwrap_or(d.max_id_bound),
            },
            relax_logical_pointer: self.relax_logical_pointer,
            relax_block_layout: self.relax_block_layout,
            uniform_buffer_standard_layout: self.uniform_buffer_standard_layout,
            scalar_block_layout: self.scalar_block_layout,
            workgroup_scalar_block_layout: self.workgroup_scalar_block_layout,
            skip_block_layout: self.skip_block_layout,
            relax_struct_store: self.relax_struct_store,
            before_hlsl_legalization: self.before_hlsl_legalization,
            allow_localsizeid: self.allow_localsizeid,
            allow_offset_texture_operand: self.allow_offset_texture_operand,
            allow_vulkan_32_bit_bitwise: self.allow_vulkan_32_bit_bitwise,
            registry,
        }
    }
}

/// Runs the subcommand; returns spirv-val's exit code: 0 valid, 1 invalid or unreadable.
pub fn run(mut args: Args) -> u8 {
    if args.version {
        super::print_version();
        return 0;
    }
    let env = match &args.target_env {
        Some(t) => match TargetEnv::parse(t) {
            Some(e) => e,
            None => {
                eprintln!("error: Unrecognized target env: {t}");
                return 1;
            }
        },
        None => TargetEnv::default(),
    };
    // spirv-val's sets (those SPIRV-Tools 2025.5 knows), then the user's. The registry
    // lives as long as the process, as the grammars it holds do.
    let mut known = ExtInstRegistry::empty();
    for g in spirv_core::ext::VENDORED {
        if spirv_core::ext::spirv_tools_knows(g) {
            known.register(g);
        }
    }
    let registry = match args.grammar.registry(known) {
        Ok(r) => r.map(|r| &*Box::leak(Box::new(r))),
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    let options = args.options(env, registry);
    // A folder is validated as spirv-val validates one (`error: PATH:N: …` per fault),
    // on every core.
    if args.batch.wanted(&args.inputs) {
        // One folder and no batch option: spirv-val's folder mode, to the byte.
        args.batch.no_summary = args.inputs.len() == 1 && args.batch.only_inputs();
        let job = Val {
            args: &args,
            options: &options,
        };
        return super::batch::run(&job, &args.inputs, None, &args.batch);
    }
    let input = args.inputs.first().map(String::as_str);
    let bytes = match super::read_input(input) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    if bytes.len() % 4 != 0 {
        // spirv-val's reader refuses the file before validating.
        eprintln!("{}", super::corrupt(input.unwrap_or("-")));
        return 1;
    }
    match check(&args, &options, bytes, None) {
        Ok(()) => 0,
        Err(e) => {
            eprint!("{}", e.rendered.unwrap_or_default());
            1
        }
    }
}

/// `val` on one file of a batch.
struct Val<'a> {
    args: &'a Args,
    options: &'a Options<'static>,
}

impl Job for Val<'_> {
    fn name(&self) -> &'static str {
        "val"
    }
    fn input_ext(&self) -> &'static str {
        "spv"
    }
    fn output_ext(&self) -> Option<&str> {
        None
    }
    fn process(&self, input: Vec<u8>, path: &Path) -> Result<Vec<u8>, FileError> {
        let name = path.to_string_lossy();
        if input.len() % 4 != 0 {
            let message = super::corrupt(&name);
            let mut e = FileError::plain(&message[..], 1);
            e.rendered = Some(message);
            return Err(e);
        }
        check(self.args, self.options, input, Some(&name)).map(|()| Vec::new())
    }
}

/// Validates one module's bytes (a whole number of words, given up): its faults as spirv-val
/// prints them, in the error's `rendered` text, and each in its parts. With `prefix`,
/// each line names the file as spirv-val does for a folder: `error: PATH:N: …`.
fn check(
    args: &Args,
    options: &Options<'_>,
    bytes: Vec<u8>,
    prefix: Option<&str>,
) -> Result<(), FileError> {
    let mut words: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    // The bytes are not needed again: a big module is held once as bytes, not twice.
    drop(bytes);
    let cap = args.max_errors();
    // Without --keep-going, as spirv-val: the first fault, where the validator stops,
    // and no note of the others. With it, every fault is counted for the note but only
    // `cap` are kept: a module that breaks a rule on each of its million instructions
    // costs no memory per fault.
    let keep_going = args.keep_going || args.max_errors.is_some();
    let mut errors = Vec::new();
    let mut found = 0usize;
    if keep_going {
        // In place: the validator reads the words without copying them, and hands them
        // back (in host order) for the report.
        validate_all(Input::InPlace(&mut words), options, &mut |e| {
            found += 1;
            if errors.len() < cap {
                errors.push(e);
            }
        });
    } else {
        errors.extend(validate(Input::InPlace(&mut words), options).err());
        found = errors.len();
    }
    let not_shown = found - errors.len();
    if errors.is_empty() {
        return Ok(());
    }
    let mut text = String::new();
    let mut faults = Vec::with_capacity(errors.len());
    for (f, e) in render_each(&words, &errors, options)
        .into_iter()
        .zip(&errors)
    {
        text.push_str("error: ");
        match prefix {
            Some(p) => text.push_str(&format!("{p}:{}", f.line)),
            None => text.push_str(&format!("line {}", f.line)),
        }
        if let (true, Some(w)) = (args.offsets, e.offset) {
            text.push_str(&format!(" (word {w})"));
        }
        text.push_str(": ");
        text.push_str(&f.message);
        text.push('\n');
        if let Some(i) = &f.instruction {
            text.push_str(&format!("  {i}\n\n"));
        }
        let at = At {
            line: Some(f.line),
            column: None,
            word: e.offset,
        };
        let mut fault = Fault::from_lines(at, &f.message);
        fault.details.extend(f.instruction);
        faults.push(fault);
    }
    if not_shown > 0 {
        text.push_str(&super::batch::not_shown_note(not_shown));
        text.push('\n');
    }
    Err(FileError {
        faults,
        not_shown,
        code: 1,
        rendered: Some(text),
    })
}
