//! `cargo run --release -p spirv-tests --example adversarial`: crafted inputs of every
//! class that once crashed, stalled or exhausted the tools, and more, each made at two
//! sizes, n and 2n. Each goes through, in-process:
//! - `Module::from_bytes` (binaries),
//! - `dis` with default options and with `--nested-indent --reorder-blocks --comment`
//!   (binaries; the text streams into a counting sink, as the CLI streams it),
//! - `as` (texts, and the default disassembly of binaries that have one),
//! - reflection (binaries), read as `spirv-asm reflect` reads them, without and with
//!   every entry point's static use, and as `--format spirv-cross` prints it;
//! - validation (binaries), every fault as `spirv-asm val --keep-going` finds them;
//! - the optimizer's `-O` and `--legalize-hlsl` (binaries) with validation skipped, so
//!   that every pass meets the crafted shape whether or not the module is valid.
//!
//! For each it prints the time ratio t(2n)/t(n) (goal ≤ 2.3: linear up to noise), the
//! peak heap the operation allocated over the input's size (goal ≤ 10×), and the output
//! over the input. Timing: each size runs once untimed (its peak heap is measured
//! there; the run also warms caches and the allocator), then five rounds of n then 2n,
//! alternated so that load which comes and goes falls on both (two rounds where a run
//! of 2n takes over half a second). t is the thread's CPU time (user and system, so
//! page faults count; waiting for a core shared with other processes does not), the
//! fastest of a size's timed runs, which noise can only lengthen. The table also
//! prints the ratio of the median CPU times, the ratio of the fastest wall times, and
//! the spread (the slowest timed run's CPU time over the fastest, the worse of the two
//! sizes). Any panic or abort is a failure too. Exits with 1 when a goal is
//! missed. `ADVERSARIAL_SCALE=k` multiplies every n by k; `ADVERSARIAL_CLASSES=text`
//! runs only the classes whose name contains `text`, `ADVERSARIAL_OPS=dis,as` only
//! those operations. A benchmark, not a test: the
//! behaviour of each class is checked in `tests/tests/robustness/adversarial.rs`.
//!
//! Times on a shared machine also follow the memory system (a table outgrowing a cache,
//! page faults on large fresh allocations). `ADVERSARIAL_ONE="CLASS/OP/N"` runs one
//! operation once on one input, so that an instruction count separates that from the
//! algorithm:
//! `ADVERSARIAL_ONE="many ids/as/2000000" valgrind --tool=callgrind target/release/examples/adversarial`.
//! `ADVERSARIAL_WRITE="CLASS/N/PATH"` writes one input of size N to PATH (binaries as
//! SPIR-V, texts as they are), to give it to a tool such as spirv-opt.

use peak_alloc::PeakAlloc;
use reflection::{
    compute_entry_points, entry_points_calling_a_chain, entry_points_sharing_modes,
    entry_points_with_static_use, reflect, spirv_cross, variables_over_array_chain,
};
use spirv_asm::{AsmOptions, DisOptions, assemble, disassemble_to};
use spirv_core::Module;
use spirv_core::spv::Opcode;
use std::io::Write;
use std::time::{Duration, Instant};
use validation::{forward_references, long_id_lists, struct_chain, validate};

#[path = "adversarial/cfg.rs"]
mod cfg;

// Beside this file, where cargo does not take it for an example of its own.
#[path = "adversarial/decorations.rs"]
mod decorations;
#[path = "adversarial/families.rs"]
mod families;
#[path = "adversarial/reflection.rs"]
mod reflection;
#[path = "adversarial/validation.rs"]
mod validation;

#[global_allocator]
static PEAK: PeakAlloc = PeakAlloc;

/// Time ratios are only judged when the larger run takes at least this long (CPU
/// time); below it, timer and cache noise dominate.
const JUDGE_FROM: Duration = Duration::from_millis(3);
const MAX_RATIO: f64 = 2.3;
const MAX_MEMORY: f64 = 10.0;

enum Input {
    Binary(Vec<u32>),
    Text(Vec<u8>),
}

/// Builds a module from instructions.
struct Mod(Vec<u32>);

impl Mod {
    fn new() -> Self {
        Mod(vec![spirv_core::binary::MAGIC, 0x0001_0600, 0, 0, 0])
    }
    fn push(&mut self, op: Opcode, operands: &[u32]) -> &mut Self {
        self.0
            .push(((operands.len() as u32 + 1) << 16) | u32::from(op.0));
        self.0.extend_from_slice(operands);
        self
    }
    fn string(&mut self, op: Opcode, before: &[u32], s: &[u8]) -> &mut Self {
        let mut ops = before.to_vec();
        spirv_core::codec::encode_string(s, &mut ops);
        self.push(op, &ops)
    }
    fn done(mut self, bound: usize) -> Input {
        self.0[3] = bound as u32;
        Input::Binary(self.0)
    }
}

fn shader_header(m: &mut Mod) {
    m.push(Opcode::Capability, &[1]);
    m.push(Opcode::MemoryModel, &[0, 1]);
}

// ---- The classes: each makes an input of size about n. ----

fn spec_constant_op_nesting(n: usize) -> Input {
    let mut m = Mod::new();
    m.push(Opcode::TypeInt, &[1, 32, 0]);
    for i in 0..n.div_ceil(4096) {
        let mut ops = vec![1, 2 + i as u32];
        ops.resize(4096, u32::from(Opcode::SpecConstantOp.0));
        m.push(Opcode::SpecConstantOp, &ops);
    }
    m.done(n + 3)
}

fn equal_types(n: usize) -> Input {
    let mut m = Mod::new();
    for i in 1..=n as u32 {
        m.push(Opcode::TypeInt, &[i, 32, 0]);
    }
    m.done(n + 1)
}

fn equal_names(n: usize) -> Input {
    let mut m = Mod::new();
    for i in 1..=n as u32 {
        m.string(Opcode::Name, &[i], b"x");
    }
    for i in 1..=n as u32 {
        m.push(Opcode::TypeInt, &[i, 32, 1]);
    }
    m.done(n + 1)
}

fn array_chain(n: usize) -> Input {
    let mut m = Mod::new();
    m.push(Opcode::TypeInt, &[1, 32, 0]);
    m.push(Opcode::Constant, &[1, 2, 5]);
    for i in 0..n as u32 {
        m.push(
            Opcode::TypeArray,
            &[3 + i, if i == 0 { 1 } else { 2 + i }, 2],
        );
    }
    m.done(n + 3)
}

fn pointer_chain(n: usize) -> Input {
    let mut m = Mod::new();
    m.push(Opcode::TypeInt, &[1, 32, 0]);
    for i in 0..n as u32 {
        m.push(Opcode::TypePointer, &[2 + i, 7, 1 + i]);
    }
    m.done(n + 2)
}

fn long_name_fan_out(n: usize) -> Input {
    let mut m = Mod::new();
    m.string(Opcode::Name, &[1], &[b'n'; 1000]);
    m.push(Opcode::TypeInt, &[1, 32, 0]);
    for i in 0..n as u32 {
        m.push(Opcode::TypePointer, &[2 + i, 7, 1]);
    }
    m.done(n + 2)
}

fn over_long_names(n: usize) -> Input {
    let mut m = Mod::new();
    let count = n / 500;
    for i in 1..=count as u32 {
        m.string(Opcode::Name, &[i], &[b'n'; 2000]);
        m.push(Opcode::TypeInt, &[i, 32, 0]);
    }
    m.done(count + 1)
}

fn unterminated_functions(n: usize) -> Input {
    let mut m = Mod::new();
    m.push(Opcode::TypeVoid, &[1]);
    m.push(Opcode::TypeFunction, &[2, 1]);
    for i in 0..n as u32 {
        m.push(Opcode::Function, &[1, 3 + i, 0, 2]);
    }
    m.done(n + 3)
}

fn nested_selections(n: usize) -> Input {
    let mut m = Mod::new();
    shader_header(&mut m);
    m.push(Opcode::TypeVoid, &[2]);
    m.push(Opcode::TypeBool, &[3]);
    m.push(Opcode::ConstantTrue, &[3, 4]);
    m.push(Opcode::TypeFunction, &[5, 2]);
    m.push(Opcode::Function, &[2, 6, 0, 5]);
    let depth = n as u32;
    let (label, merge) = (|i: u32| 10 + 2 * i, |i: u32| 11 + 2 * i);
    for i in 0..depth {
        let inner = if i + 1 < depth {
            label(i + 1)
        } else {
            merge(i)
        };
        m.push(Opcode::Label, &[label(i)]);
        m.push(Opcode::SelectionMerge, &[merge(i), 0]);
        m.push(Opcode::BranchConditional, &[4, inner, merge(i)]);
    }
    for i in (0..depth).rev() {
        m.push(Opcode::Label, &[merge(i)]);
        m.push(Opcode::Return, &[]);
    }
    m.push(Opcode::FunctionEnd, &[]);
    m.done(12 + 2 * n)
}

fn long_block_chain(n: usize) -> Input {
    let mut m = Mod::new();
    shader_header(&mut m);
    m.push(Opcode::TypeVoid, &[2]);
    m.push(Opcode::TypeFunction, &[3, 2]);
    m.push(Opcode::Function, &[2, 4, 0, 3]);
    for i in 0..n as u32 {
        m.push(Opcode::Label, &[10 + i]);
        m.push(Opcode::Branch, &[11 + i]);
    }
    m.push(Opcode::Label, &[10 + n as u32]);
    m.push(Opcode::Return, &[]);
    m.push(Opcode::FunctionEnd, &[]);
    m.done(n + 11)
}

fn switch_fan_out(n: usize) -> Input {
    let mut m = Mod::new();
    shader_header(&mut m);
    m.push(Opcode::TypeVoid, &[2]);
    m.push(Opcode::TypeInt, &[3, 32, 0]);
    m.push(Opcode::Constant, &[3, 4, 0]);
    m.push(Opcode::TypeFunction, &[5, 2]);
    let per = 8000u32;
    let mut id = 10u32;
    for _ in 0..n.div_ceil(per as usize * 4) {
        m.push(Opcode::Function, &[2, id, 0, 5]);
        let (entry, merge) = (id + 1, id + 2);
        let first = id + 3;
        id += 3 + per;
        m.push(Opcode::Label, &[entry]);
        m.push(Opcode::SelectionMerge, &[merge, 0]);
        let mut ops = vec![4, merge];
        for k in 0..per {
            ops.extend_from_slice(&[k, first + k]);
        }
        m.push(Opcode::Switch, &ops);
        for k in 0..per {
            m.push(Opcode::Label, &[first + k]);
            m.push(Opcode::Branch, &[merge]);
        }
        m.push(Opcode::Label, &[merge]);
        m.push(Opcode::Return, &[]);
        m.push(Opcode::FunctionEnd, &[]);
    }
    m.done(id as usize + 1)
}

fn decorations_on_one_id(n: usize) -> Input {
    let mut m = Mod::new();
    for _ in 0..n {
        m.push(Opcode::Decorate, &[1, 0]);
    }
    m.push(Opcode::TypeInt, &[1, 32, 0]);
    m.done(2)
}

fn extended_set_imports(n: usize) -> Input {
    let mut m = Mod::new();
    let count = n as u32 / 2;
    for i in 0..count {
        m.string(Opcode::ExtInstImport, &[10 + i], b"GLSL.std.450");
    }
    m.push(Opcode::TypeFloat, &[1, 32]);
    m.push(Opcode::Constant, &[1, 2, 0x3f80_0000]);
    for i in 0..count {
        // FAbs (4) of the constant, from every imported copy of the set.
        m.push(Opcode::ExtInst, &[1, 10 + count + i, 10 + i, 4, 2]);
    }
    m.done(10 + 2 * count as usize)
}

fn wide_constants(n: usize) -> Input {
    let mut m = Mod::new();
    m.push(Opcode::TypeInt, &[1, 0x7fff_ffff, 0]);
    for i in 0..n.div_ceil(60_000) as u32 {
        let mut ops = vec![1, 2 + i];
        ops.resize(60_000, 0xffff_ffff);
        m.push(Opcode::Constant, &ops);
    }
    m.done(n + 2)
}

fn unknown_opcode_token(n: usize) -> Input {
    Input::Text(format!("Op{}\n", "x".repeat(n)).into_bytes())
}

fn unknown_enumerant_token(n: usize) -> Input {
    Input::Text(format!("OpCapability Shaderr{}\n", "r".repeat(n)).into_bytes())
}

fn many_ids(n: usize) -> Input {
    let mut t = String::from("%t = OpTypeInt 32 0\n");
    for i in 0..n / 24 {
        t.push_str(&format!("%v{i} = OpUndef %t\n"));
    }
    Input::Text(t.into_bytes())
}

fn long_mask(n: usize) -> Input {
    let mut t = String::from("OpLoopMerge %a %b ");
    for _ in 0..n / 7 {
        t.push_str("Unroll|");
    }
    t.push_str("None\n");
    Input::Text(t.into_bytes())
}

fn spec_constant_op_text(n: usize) -> Input {
    let mut t = String::from("%1 = OpTypeInt 32 0\n%2 = OpSpecConstantOp %1");
    for _ in 0..n / 15 {
        t.push_str(" SpecConstantOp");
    }
    t.push_str(" IAdd %1 %1\n");
    Input::Text(t.into_bytes())
}

fn long_strings(n: usize) -> Input {
    let mut t = String::new();
    for _ in 0..n.div_ceil(200_000) {
        t.push_str("OpSourceExtension \"");
        t.push_str(&"s\\\"".repeat(200_000 / 3));
        t.push_str("\"\n");
    }
    Input::Text(t.into_bytes())
}

type Make = fn(usize) -> Input;

const CLASSES: &[(&str, Make, usize)] = &[
    (
        "OpSpecConstantOp nesting",
        spec_constant_op_nesting,
        500_000,
    ),
    ("equal type names", equal_types, 100_000),
    ("equal OpNames", equal_names, 100_000),
    ("nested array types", array_chain, 100_000),
    ("nested pointer types", pointer_chain, 100_000),
    ("one long name used everywhere", long_name_fan_out, 50_000),
    ("over-long OpNames", over_long_names, 2_000_000),
    ("unterminated functions", unterminated_functions, 100_000),
    ("nested selections", nested_selections, 20_000),
    ("long block chain", long_block_chain, 100_000),
    ("OpSwitch fan-out", switch_fan_out, 200_000),
    ("decorations on one id", decorations_on_one_id, 100_000),
    ("extended-set imports", extended_set_imports, 100_000),
    ("wide integer constants", wide_constants, 500_000),
    ("huge unknown opcode", unknown_opcode_token, 2_000_000),
    ("huge unknown enumerant", unknown_enumerant_token, 2_000_000),
    ("many ids", many_ids, 2_000_000),
    ("one mask of many parts", long_mask, 2_000_000),
    (
        "OpSpecConstantOp nesting, text",
        spec_constant_op_text,
        2_000_000,
    ),
    ("long escaped strings", long_strings, 2_000_000),
    (
        "entry points sharing many modes",
        entry_points_sharing_modes,
        20_000,
    ),
    (
        "variables over an array chain",
        variables_over_array_chain,
        16_000,
    ),
    (
        "entry points calling a chain",
        entry_points_calling_a_chain,
        60_000,
    ),
    (
        "entry points with static use",
        entry_points_with_static_use,
        40_000,
    ),
    (
        "compute entry points, own sizes",
        compute_entry_points,
        240_000,
    ),
    ("forward references", forward_references, 100_000),
    ("long id lists", long_id_lists, 1_000_000),
    ("nested struct types", struct_chain, 100_000),
    ("cfg: selections 1,000 deep", cfg::deep_selections, 20_000),
    ("cfg: breaks in sequence", cfg::breaks_in_sequence, 100_000),
    (
        "cfg: shallow overlapping constructs",
        cfg::shallow_overlapping,
        20_000,
    ),
    (
        "cfg: switch fall-through",
        cfg::switch_fall_through,
        100_000,
    ),
    ("cfg: dominator ladder", cfg::dominator_ladder, 100_000),
    ("cfg: values and a wide OpPhi", cfg::values_and_phi, 100_000),
    (
        "cfg: blocks of another function",
        cfg::foreign_blocks,
        100_000,
    ),
    (
        "decoration group on many targets",
        decorations::group_on_many_targets,
        100_000,
    ),
    (
        "decoration group on folded values",
        decorations::group_on_folded_values,
        100_000,
    ),
    (
        "variables of one wide block",
        decorations::variables_of_one_wide_block,
        100_000,
    ),
    (
        "structs behind a physical pointer",
        decorations::structs_behind_a_physical_pointer,
        100_000,
    ),
    (
        "block members over an array chain",
        decorations::members_over_an_array_chain,
        100_000,
    ),
    ("families: GLSL.std.450 chain", families::glsl_chain, 50_000),
    (
        "families: debug-info member chain",
        families::debug_member_chain,
        20_000,
    ),
    (
        "families: image instructions",
        families::image_instructions,
        50_000,
    ),
    (
        "families: group operations",
        families::group_operations,
        50_000,
    ),
    (
        "families: logical pointer chains",
        families::logical_pointer_chains,
        40_000,
    ),
    (
        "families: alternating storage classes",
        families::alternating_storage_classes,
        2_000,
    ),
    (
        "families: ray call graph",
        families::ray_call_graph,
        100_000,
    ),
];

/// Counts the bytes written.
struct Count(usize);
impl Write for Count {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len();
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Timed runs of each size after the untimed first run, alternating n and 2n so that
/// load that comes and goes falls on both sizes alike.
const ROUNDS: usize = 5;
/// Fewer rounds where one run of the larger input takes longer than this.
const LONG_RUN: Duration = Duration::from_millis(500);

/// One size's measurements: the peak heap of the first (untimed, warm-up) run above
/// what was live before it, the output bytes, and the timed runs' CPU times and wall
/// times.
struct Run {
    times: Vec<Duration>,
    walls: Vec<Duration>,
    peak: usize,
    out: usize,
}

/// The CPU time this thread has used (user and system): unlike the wall clock it does
/// not count the time other processes hold the core, which on a shared machine grows
/// with a run's length and so with n.
fn thread_cpu_time() -> Duration {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

impl Run {
    /// The first run: peak heap and output, untimed (it also warms caches and the
    /// allocator).
    fn first(f: &mut dyn FnMut() -> usize) -> Run {
        let before = PEAK.current_usage();
        PEAK.reset_peak_usage();
        let out = f();
        let peak = PEAK.peak_usage().saturating_sub(before);
        Run {
            times: Vec::new(),
            walls: Vec::new(),
            peak,
            out,
        }
    }
    fn time(&mut self, f: &mut dyn FnMut() -> usize) {
        let (wall, cpu) = (Instant::now(), thread_cpu_time());
        std::hint::black_box(f());
        self.times.push(thread_cpu_time().saturating_sub(cpu));
        self.walls.push(wall.elapsed());
    }
    /// The fastest wall time.
    fn wall(&self) -> Duration {
        self.walls.iter().copied().min().unwrap_or_default()
    }
    fn min(&self) -> Duration {
        self.times.iter().copied().min().unwrap_or_default()
    }
    fn median(&self) -> Duration {
        let mut t = self.times.clone();
        t.sort_unstable();
        t.get(t.len() / 2).copied().unwrap_or_default()
    }
    /// How far the slowest timed run is above the fastest, as a fraction.
    fn spread(&self) -> f64 {
        let max = self.times.iter().copied().max().unwrap_or_default();
        max.as_secs_f64() / self.min().as_secs_f64().max(1e-9) - 1.0
    }
}

/// Runs `small` (size n) and `large` (2n): each once untimed, then [`ROUNDS`] timed
/// rounds of n then 2n (fewer if the runs are long).
fn measure_pair(small: &mut dyn FnMut() -> usize, large: &mut dyn FnMut() -> usize) -> (Run, Run) {
    let mut a = Run::first(small);
    let mut b = Run::first(large);
    for round in 0..ROUNDS {
        a.time(small);
        b.time(large);
        if round >= 1 && b.min() > LONG_RUN {
            break;
        }
    }
    (a, b)
}

/// An operation's name, the size of its input, and the operation (returning the size
/// of its output).
type Operation<'a> = (&'static str, usize, Box<dyn FnMut() -> usize + 'a>);

/// The operations an input goes through.
fn operations(input: &Input) -> Vec<Operation<'_>> {
    let cfg = DisOptions {
        nested_indent: true,
        reorder_blocks: true,
        comment: true,
        ..DisOptions::default()
    };
    let dis = move |words: &[u32], opts: &DisOptions| {
        let mut sink = Count(0);
        let _ = disassemble_to(words, opts, &mut sink);
        sink.0
    };
    let asm = |text: &[u8]| assemble(text, &AsmOptions::default()).map_or(0, |w| w.len() * 4);
    match input {
        Input::Binary(words) => {
            let bytes = spirv_core::binary::words_to_bytes(words);
            let size = bytes.len();
            // The words `spirv-asm val` and `reflect` read, which they take without a
            // copy (validation in place, reflection as the module's own).
            let mut read = words.clone();
            let (mut read_reflect, mut read_use, mut read_cross) =
                (words.clone(), words.clone(), words.clone());
            let mut ops: Vec<Operation<'_>> = vec![
                (
                    "read",
                    size,
                    Box::new(move || Module::from_bytes(&bytes).map_or(0, |m| m.len())),
                ),
                (
                    "dis",
                    size,
                    Box::new(move || dis(words, &DisOptions::default())),
                ),
                ("dis cfg", size, Box::new(move || dis(words, &cfg))),
                (
                    "reflect",
                    size,
                    Box::new(move || reflect(words, &mut read_reflect, false)),
                ),
                (
                    "refl+use",
                    size,
                    Box::new(move || reflect(words, &mut read_use, true)),
                ),
                (
                    "cross",
                    size,
                    Box::new(move || spirv_cross(words, &mut read_cross)),
                ),
                ("val", size, Box::new(move || validate(&mut read))),
                ("opt -O", size, Box::new(move || optimize(words, "-O"))),
                (
                    "legalize",
                    size,
                    Box::new(move || optimize(words, "--legalize-hlsl")),
                ),
            ];
            let mut text = Vec::new();
            if spirv_asm::disassemble_to(words, &DisOptions::default(), &mut text).is_ok() {
                let n = text.len();
                ops.push(("as", n, Box::new(move || asm(&text))));
            }
            ops
        }
        Input::Text(text) => vec![("as", text.len(), Box::new(move || asm(text)))],
    }
}

/// A preset run on `words` with validation skipped: the output's size (0 when a pass
/// or the loader refuses the module).
fn optimize(words: &[u32], preset: &str) -> usize {
    let mut opt = spirv_opt::Optimizer::new();
    opt.skip_validation(true);
    if opt.register_flag(preset).is_err() {
        return 0;
    }
    opt.run(words).map_or(0, |o| o.words.len() * 4)
}

/// `ADVERSARIAL_ONE="CLASS/OP/N"`: one operation, once, untimed.
fn run_one(spec: &str) {
    let mut parts = spec.rsplitn(3, '/');
    let (n, op, class) = (parts.next(), parts.next(), parts.next());
    let n: usize = n.and_then(|n| n.parse().ok()).expect("CLASS/OP/N");
    let (op, class) = (op.expect("CLASS/OP/N"), class.expect("CLASS/OP/N"));
    let make = CLASSES
        .iter()
        .find(|c| c.0 == class)
        .unwrap_or_else(|| panic!("no class {class:?}"))
        .1;
    let input = make(n);
    let mut ops = operations(&input);
    let (_, size, f) = ops
        .iter_mut()
        .find(|o| o.0 == op)
        .unwrap_or_else(|| panic!("no operation {op:?} for {class:?}"));
    let out = f();
    println!("{class} / {op}: input {size} bytes, output {out} bytes");
}

/// `ADVERSARIAL_WRITE="CLASS/N/PATH"`: one input, written out.
fn write_one(spec: &str) {
    let mut parts = spec.splitn(3, '/');
    let (class, n, path) = (parts.next(), parts.next(), parts.next());
    let (Some(class), Some(n), Some(path)) = (class, n.and_then(|n| n.parse().ok()), path) else {
        panic!("CLASS/N/PATH");
    };
    let make = CLASSES
        .iter()
        .find(|c| c.0 == class)
        .unwrap_or_else(|| panic!("no class {class:?}"))
        .1;
    let bytes = match make(n) {
        Input::Binary(words) => spirv_core::binary::words_to_bytes(&words),
        Input::Text(text) => text,
    };
    std::fs::write(path, bytes).expect("writing the input");
}

fn main() {
    if let Ok(spec) = std::env::var("ADVERSARIAL_WRITE") {
        write_one(&spec);
        return;
    }
    if let Ok(spec) = std::env::var("ADVERSARIAL_ONE") {
        run_one(&spec);
        return;
    }
    let scale: usize = std::env::var("ADVERSARIAL_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    println!(
        "{:<32} {:<8} {:>10} {:>10} {:>10} {:>7} {:>6} {:>6} {:>7} {:>2} {:>8} {:>8}",
        "class",
        "op",
        "input 2n",
        "t(n)",
        "t(2n)",
        "ratio",
        "median",
        "wall",
        "spread",
        "k",
        "mem/in",
        "out/in"
    );
    let (mut worst_ratio, mut worst_mem) = (0f64, 0f64);
    let mut missed = Vec::new();
    let only = std::env::var("ADVERSARIAL_CLASSES").unwrap_or_default();
    let ops_wanted = std::env::var("ADVERSARIAL_OPS").unwrap_or_default();
    for &(name, make, n) in CLASSES {
        if !name.contains(only.as_str()) {
            continue;
        }
        let small = make(n * scale);
        let large = make(2 * n * scale);
        let mut small_ops = operations(&small);
        let mut large_ops = operations(&large);
        for ((op, _, f1), (_, size2, f2)) in small_ops.iter_mut().zip(large_ops.iter_mut()) {
            if !ops_wanted.is_empty() && !ops_wanted.split(',').any(|o| o == *op) {
                continue;
            }
            let (a, b) = measure_pair(f1, f2);
            let ratio = b.min().as_secs_f64() / a.min().as_secs_f64().max(1e-9);
            let median_ratio = b.median().as_secs_f64() / a.median().as_secs_f64().max(1e-9);
            let spread = a.spread().max(b.spread());
            let wall_ratio = b.wall().as_secs_f64() / a.wall().as_secs_f64().max(1e-9);
            let judged = b.min() >= JUDGE_FROM;
            let mem = b.peak as f64 / *size2 as f64;
            let out = b.out as f64 / *size2 as f64;
            worst_mem = worst_mem.max(mem);
            let (ratio_text, median_text, wall_text) = if judged {
                worst_ratio = worst_ratio.max(ratio);
                (
                    format!("{ratio:.2}"),
                    format!("{median_ratio:.2}"),
                    format!("{wall_ratio:.2}"),
                )
            } else {
                ("fast".to_owned(), String::new(), String::new())
            };
            println!(
                "{name:<32} {op:<8} {:>10} {:>8.1}ms {:>8.1}ms {ratio_text:>7} {median_text:>6} {wall_text:>6} {:>6.0}% {:>2} {mem:>7.2}x {out:>7.2}x",
                size2,
                a.min().as_secs_f64() * 1e3,
                b.min().as_secs_f64() * 1e3,
                spread * 100.0,
                b.times.len(),
            );
            if judged && ratio > MAX_RATIO {
                missed.push(format!("{name} / {op}: time ratio {ratio:.2}"));
            }
            if mem > MAX_MEMORY {
                missed.push(format!("{name} / {op}: peak heap {mem:.1}x the input"));
            }
        }
    }
    println!(
        "\nworst time ratio {worst_ratio:.2} (goal <= {MAX_RATIO}, judged where t(2n) >= {} ms), worst peak heap {worst_mem:.2}x the input (goal <= {MAX_MEMORY}x), no abort",
        JUDGE_FROM.as_millis()
    );
    if !missed.is_empty() {
        println!("missed:\n  {}", missed.join("\n  "));
        std::process::exit(1);
    }
}
