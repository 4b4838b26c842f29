//! Runs the fuzz bodies (`spirv_core::fuzz::{module, reflect, validate}`, `spirv_opt::fuzz::passes`,
//! `spirv_asm::fuzz::{disassemble_words, assemble_text, reflect_words, validate_words}`) over
//! deterministic mutations of seed inputs: bit flips, word edits, word-count edits,
//! repeated instructions, nesting (type chains, embedded opcodes, structured control
//! flow), truncation to any byte length, splices of two modules; text truncation, token
//! insertion, stray bytes, huge numbers.
//!
//! The seeds are the workspace's own, always: modules made with the `Builder` (shader
//! interfaces, resources of every class, specialization constants, a function using
//! them), the fixtures under `tests/fixtures/` assembled with `spirv_asm`, and, for the
//! assembler, their texts, the assembler-error fixtures and the Builder modules'
//! disassembly. With the corpus present, a sample of its binaries and texts joins them
//! (without it a SKIP, or a failure in CI), so a fresh clone fuzzes every body too.
//!
//! `FUZZ_CASES=N` sets the cases per body (default 3000, 300 in a debug build): N mutated
//! modules and N/4 random byte strings for the reader, N/2 modules for reflection and for
//! the disassembler, N/3 texts for the assembler. Each test counts the cases that got past
//! the header (modules that read, texts that assemble) and asserts a floor, so that it
//! cannot pass on inputs the bodies reject at once.
//!
//! `FUZZ_SEED=N` mixes N into every test's fixed seed (the Builder seeds' too), for runs
//! that differ from CI's; unset, the seeds and so CI's cases are the same as ever. Each
//! test prints its slowest case (its index and time) and every case that took over a
//! second, which is superlinear work to look into.

use spirv_asm::{AsmOptions, DisOptions};
use spirv_core::spv::{self, Opcode, inst};
use spirv_core::{Builder, Id, LiteralNumber, Module};
use spirv_tests::{files, read_words, require_corpus, workspace_root};

/// xorshift64*: deterministic, so failures reproduce.
struct Rng(u64);
impl Rng {
    /// The generator for a test's fixed `seed`, with `FUZZ_SEED` mixed in when set.
    fn seeded(seed: u64) -> Rng {
        let Some(n) = std::env::var("FUZZ_SEED")
            .ok()
            .and_then(|s| s.parse::<u64>().ok())
        else {
            return Rng(seed);
        };
        // splitmix64's finalizer, so that nearby knob values give unrelated streams.
        let mut z = n.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        // xorshift stays at 0 from 0.
        Rng(match seed ^ z {
            0 => seed,
            mixed => mixed,
        })
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

/// `FUZZ_CASES`, else 3000 in an optimized build and 300 in a debug one: unoptimized,
/// 3000 cases took a third to a half of `cargo test --workspace`. `.ci/run` runs 3000.
fn cases() -> usize {
    std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(if cfg!(debug_assertions) { 300 } else { 3000 })
}

/// Mutated inputs stay below this many words, so that many cases run.
const MAX_WORDS: usize = 1 << 16;

/// Word offsets of the instructions after the header, as far as they parse.
fn boundaries(words: &[u32]) -> Vec<usize> {
    let mut at = Vec::new();
    let mut pos = 5;
    while pos < words.len() {
        let count = (words[pos] >> 16) as usize;
        if count == 0 || pos + count > words.len() {
            break;
        }
        at.push(pos);
        pos += count;
    }
    at
}

fn inst(op: Opcode, operands: &[u32]) -> Vec<u32> {
    let mut w = vec![((operands.len() as u32 + 1) << 16) | u32::from(op.0)];
    w.extend_from_slice(operands);
    w
}

/// Appends a structure nested `depth` deep, with fresh ids from the bound up.
fn nest(rng: &mut Rng, words: &mut Vec<u32>, depth: usize) {
    let mut id = words.get(3).copied().unwrap_or(1).clamp(1, 1 << 20);
    let mut fresh = || {
        id += 1;
        id
    };
    let mut out = Vec::new();
    match rng.below(3) {
        0 => {
            // A chain of types, each built on the one before.
            let mut prev = fresh();
            out.extend(inst(Opcode::TypeInt, &[prev, 32, 0]));
            let len = fresh();
            out.extend(inst(Opcode::Constant, &[prev, len, 3]));
            for _ in 0..depth {
                let t = fresh();
                match rng.below(3) {
                    0 => out.extend(inst(Opcode::TypePointer, &[t, 7, prev])),
                    1 => out.extend(inst(Opcode::TypeArray, &[t, prev, len])),
                    _ => out.extend(inst(Opcode::TypeRuntimeArray, &[t, prev])),
                }
                prev = t;
            }
        }
        1 => {
            // OpSpecConstantOp embedding opcodes, itself among them, again and again.
            let mut ops = vec![fresh(), fresh()];
            for _ in 0..depth {
                ops.push(
                    [Opcode::SpecConstantOp.0, Opcode::IAdd.0, Opcode::ExtInst.0][rng.below(3)]
                        .into(),
                );
            }
            ops.truncate(0xfffe);
            out.extend(inst(Opcode::SpecConstantOp, &ops));
        }
        _ => {
            // A function of selection constructs nested `depth` deep.
            let (void, fnty, boolty, cond) = (fresh(), fresh(), fresh(), fresh());
            out.extend(inst(Opcode::TypeVoid, &[void]));
            out.extend(inst(Opcode::TypeBool, &[boolty]));
            out.extend(inst(Opcode::ConstantTrue, &[boolty, cond]));
            out.extend(inst(Opcode::TypeFunction, &[fnty, void]));
            out.extend(inst(Opcode::Function, &[void, fresh(), 0, fnty]));
            let labels: Vec<(u32, u32)> = (0..depth).map(|_| (fresh(), fresh())).collect();
            for (i, &(label, merge)) in labels.iter().enumerate() {
                let inner = labels.get(i + 1).map_or(merge, |l| l.0);
                out.extend(inst(Opcode::Label, &[label]));
                out.extend(inst(Opcode::SelectionMerge, &[merge, 0]));
                out.extend(inst(Opcode::BranchConditional, &[cond, inner, merge]));
            }
            for &(_, merge) in labels.iter().rev() {
                out.extend(inst(Opcode::Label, &[merge]));
                out.extend(inst(Opcode::Return, &[]));
            }
            if rng.below(2) == 0 {
                out.extend(inst(Opcode::FunctionEnd, &[]));
            }
        }
    }
    words.extend(out);
    if words.len() > 3 {
        words[3] = id + 1;
    }
}

fn mutate_words(rng: &mut Rng, words: &mut Vec<u32>, other: &[u32]) {
    match rng.below(10) {
        0 => {
            let i = rng.below(words.len());
            words[i] ^= 1 << rng.below(32);
        }
        1 => {
            let i = rng.below(words.len());
            words[i] = rng.next() as u32;
        }
        2 => {
            let n = rng.below(words.len());
            words.truncate(n);
        }
        3 => {
            // Edit a word count in the instruction stream.
            let i = 5 + rng.below(words.len().saturating_sub(5));
            if i < words.len() {
                words[i] = (words[i] & 0xffff) | ((rng.below(8) as u32) << 16);
            }
        }
        4 => {
            if words.len() > 3 {
                words[3] = 0xffff_ffff;
            }
        }
        5 => {
            // Repeat one instruction many times in place.
            let at = boundaries(words);
            if let Some(&start) = at.get(rng.below(at.len())) {
                let count = (words[start] >> 16) as usize;
                let copy = words[start..start + count].to_vec();
                let times = 1 + rng.below(MAX_WORDS / count / 4);
                let tail = words.split_off(start);
                for _ in 0..times {
                    words.extend_from_slice(&copy);
                }
                words.extend_from_slice(&tail);
            }
        }
        6 => {
            let depth = 1 + rng.below(4000);
            nest(rng, words, depth);
        }
        7 => {
            // Splice: this module's head, another one's tail, cut at instructions.
            let (a, b) = (boundaries(words), boundaries(other));
            if let (Some(&cut), Some(&from)) =
                (a.get(rng.below(a.len())), b.get(rng.below(b.len())))
            {
                words.truncate(cut);
                words.extend_from_slice(&other[from..]);
            }
        }
        _ => {
            let i = rng.below(words.len());
            words[i] = [0, 1, 0xffff_ffff, 0x8000_0000, 0x0001_0000][rng.below(5)];
        }
    }
    words.truncate(MAX_WORDS);
}

/// A seed module mutated one to three times.
fn mutated(rng: &mut Rng, bins: &[Vec<u32>]) -> Vec<u32> {
    let mut w = bins[rng.below(bins.len())].clone();
    for _ in 0..=rng.below(3) {
        if w.is_empty() {
            break;
        }
        let other = &bins[rng.below(bins.len())];
        mutate_words(rng, &mut w, other);
    }
    w
}

/// Runs and times the cases of one test. A case that panics is reported by its number
/// (the panic's message above it) and the run goes on, so that one long run finds every
/// failing case; the test fails at the end, or at the 20th. Each case that takes over a
/// second of the thread's CPU time (not the wall clock, which on a shared machine
/// counts other processes' turns) is reported as it ends, and the slowest at the end.
struct Clock {
    what: &'static str,
    slowest: (std::time::Duration, usize),
    failed: Vec<usize>,
}

impl Clock {
    fn new(what: &'static str) -> Clock {
        Clock {
            what,
            slowest: Default::default(),
            failed: Vec::new(),
        }
    }

    /// Runs case number `case`.
    fn time(&mut self, case: usize, body: impl FnOnce()) {
        let start = thread_cpu_time();
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(body));
        let took = thread_cpu_time().saturating_sub(start);
        if outcome.is_err() {
            eprintln!("{}: case {case} panicked", self.what);
            self.failed.push(case);
            assert!(self.failed.len() < 20, "{}: 20 cases failed", self.what);
        }
        if took.as_secs() >= 1 {
            eprintln!("{}: case {case} took {took:?}", self.what);
        }
        if took > self.slowest.0 {
            self.slowest = (took, case);
        }
    }
}

/// The CPU time this thread has used.
fn thread_cpu_time() -> std::time::Duration {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    std::time::Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

impl Drop for Clock {
    fn drop(&mut self) {
        let (took, case) = self.slowest;
        println!("{}: slowest case {case}, {took:?}", self.what);
        if !self.failed.is_empty() && !std::thread::panicking() {
            panic!("{}: cases {:?} failed", self.what, self.failed);
        }
    }
}

/// `N` fresh ids.
fn ids<const N: usize>(b: &mut Builder) -> [Id; N] {
    std::array::from_fn(|_| b.id().expect("ids left"))
}

/// Pushes `i`: a seed that does not build is a mistake in this file.
fn put(b: &mut Builder, i: impl Into<spv::Instruction>) {
    b.push(i).expect("the Builder seed builds");
}

fn decorate(b: &mut Builder, target: Id, decoration: spv::DecorationData) {
    put(b, inst::Decorate { target, decoration });
}

fn member(b: &mut Builder, structure_type: Id, member: u32, decoration: spv::DecorationData) {
    put(
        b,
        inst::MemberDecorate {
            structure_type,
            member,
            decoration,
        },
    );
}

/// Decorates `v` with a random descriptor set and binding.
fn set_binding(b: &mut Builder, v: Id, rng: &mut Rng) {
    decorate(
        b,
        v,
        spv::DecorationData::DescriptorSet(rng.below(4) as u32),
    );
    decorate(b, v, spv::DecorationData::Binding(rng.below(16) as u32));
}

fn ptr(b: &mut Builder, storage_class: spv::StorageClass, r#type: Id) -> Id {
    let [id] = ids(b);
    put(
        b,
        inst::TypePointer {
            result_id: id,
            storage_class,
            r#type,
        },
    );
    id
}

fn var(b: &mut Builder, ptr_type: Id, storage_class: spv::StorageClass) -> Id {
    let [id] = ids(b);
    put(
        b,
        inst::Variable {
            result_type: ptr_type,
            result_id: id,
            storage_class,
            initializer: None,
        },
    );
    id
}

fn constant(b: &mut Builder, ty: Id, value: u32) -> Id {
    let [id] = ids(b);
    put(
        b,
        inst::Constant {
            result_type: ty,
            result_id: id,
            value: LiteralNumber::from_u32(value),
        },
    );
    id
}

/// A shader made with the Builder from `rng`'s choices (SPIR-V 1.0): a compute,
/// fragment or vertex entry point; a uniform block with a matrix, a vector and an array;
/// a storage block ending in a runtime array; push constants; a combined image sampler,
/// possibly arrayed; a separate sampler and storage image; inputs and outputs with
/// locations; specialization constants (the workgroup size's among them); and a
/// function that reads the uniform block and writes the output or the storage block.
fn built(rng: &mut Rng) -> Vec<u32> {
    use spv::DecorationData as D;
    use spv::StorageClass as S;
    let mut b = Builder::new((1, 0));
    let model = [
        spv::ExecutionModel::GLCompute,
        spv::ExecutionModel::Fragment,
        spv::ExecutionModel::Vertex,
    ][rng.below(3)];
    put(
        &mut b,
        inst::Capability {
            capability: spv::Capability::Shader,
        },
    );
    put(
        &mut b,
        inst::MemoryModel {
            addressing_model: spv::AddressingModel::Logical,
            memory_model: spv::MemoryModel::GLSL450,
        },
    );
    let [void, fnty, float, uint, int, v4, m4, arr, rarr] = ids(&mut b);
    put(&mut b, inst::TypeVoid { result_id: void });
    put(
        &mut b,
        inst::TypeFunction {
            result_id: fnty,
            return_type: void,
            parameter_types: Default::default(),
        },
    );
    put(
        &mut b,
        inst::TypeFloat {
            result_id: float,
            width: 32,
            floating_point_encoding: None,
        },
    );
    for (result_id, signedness) in [(uint, 0), (int, 1)] {
        put(
            &mut b,
            inst::TypeInt {
                result_id,
                width: 32,
                signedness,
            },
        );
    }
    put(
        &mut b,
        inst::TypeVector {
            result_id: v4,
            component_type: float,
            component_count: 4,
        },
    );
    put(
        &mut b,
        inst::TypeMatrix {
            result_id: m4,
            column_type: v4,
            column_count: 4,
        },
    );
    let len = constant(&mut b, uint, 1 + rng.below(8) as u32);
    let one = constant(&mut b, int, 1);
    put(
        &mut b,
        inst::TypeArray {
            result_id: arr,
            element_type: v4,
            length: len,
        },
    );
    decorate(&mut b, arr, D::ArrayStride(16));
    put(
        &mut b,
        inst::TypeRuntimeArray {
            result_id: rarr,
            element_type: uint,
        },
    );
    decorate(&mut b, rarr, D::ArrayStride(4));

    // The uniform block: { mat4, vec4, vec4[len] }, read by the function.
    let [ubo_t] = ids(&mut b);
    put(
        &mut b,
        inst::TypeStruct {
            result_id: ubo_t,
            member_types: [m4, v4, arr].into(),
        },
    );
    decorate(&mut b, ubo_t, D::Block);
    for (m, offset) in [(0, 0), (1, 64), (2, 80)] {
        member(&mut b, ubo_t, m, D::Offset(offset));
    }
    member(&mut b, ubo_t, 0, D::ColMajor);
    member(&mut b, ubo_t, 0, D::MatrixStride(16));
    let ubo_ptr = ptr(&mut b, S::Uniform, ubo_t);
    let ubo = var(&mut b, ubo_ptr, S::Uniform);
    set_binding(&mut b, ubo, rng);
    put(
        &mut b,
        inst::Name {
            target: ubo,
            name: "ubo".into(),
        },
    );
    let v4_uniform = ptr(&mut b, S::Uniform, v4);

    // A storage block { uint, uint[] }, read-only at random.
    let [ssbo_t] = ids(&mut b);
    put(
        &mut b,
        inst::TypeStruct {
            result_id: ssbo_t,
            member_types: [uint, rarr].into(),
        },
    );
    decorate(&mut b, ssbo_t, D::BufferBlock);
    member(&mut b, ssbo_t, 0, D::Offset(0));
    member(&mut b, ssbo_t, 1, D::Offset(4));
    if rng.below(2) == 0 {
        member(&mut b, ssbo_t, 0, D::NonWritable);
        member(&mut b, ssbo_t, 1, D::NonWritable);
    }
    let ssbo_ptr = ptr(&mut b, S::Uniform, ssbo_t);
    let ssbo = var(&mut b, ssbo_ptr, S::Uniform);
    set_binding(&mut b, ssbo, rng);
    let uint_uniform = ptr(&mut b, S::Uniform, uint);

    // Push constants { vec4, uint }.
    if rng.below(2) == 0 {
        let [pc_t] = ids(&mut b);
        put(
            &mut b,
            inst::TypeStruct {
                result_id: pc_t,
                member_types: [v4, uint].into(),
            },
        );
        decorate(&mut b, pc_t, D::Block);
        member(&mut b, pc_t, 0, D::Offset(0));
        member(&mut b, pc_t, 1, D::Offset(16));
        let pc_ptr = ptr(&mut b, S::PushConstant, pc_t);
        var(&mut b, pc_ptr, S::PushConstant);
    }

    // Images and samplers.
    let [image, sampler, sampled, storage_image] = ids(&mut b);
    for (result_id, sampled_mode, image_format) in [
        (image, 1, spv::ImageFormat::Unknown),
        (storage_image, 2, spv::ImageFormat::Rgba8),
    ] {
        put(
            &mut b,
            inst::TypeImage {
                result_id,
                sampled_type: float,
                dim: spv::Dim::Dim2D,
                depth: 0,
                arrayed: 0,
                ms: 0,
                sampled: sampled_mode,
                image_format,
                access_qualifier: None,
            },
        );
    }
    put(&mut b, inst::TypeSampler { result_id: sampler });
    put(
        &mut b,
        inst::TypeSampledImage {
            result_id: sampled,
            image_type: image,
        },
    );
    let combined = if rng.below(2) == 0 {
        let [a] = ids(&mut b);
        put(
            &mut b,
            inst::TypeArray {
                result_id: a,
                element_type: sampled,
                length: len,
            },
        );
        a
    } else {
        sampled
    };
    for ty in [combined, sampler, storage_image] {
        let p = ptr(&mut b, S::UniformConstant, ty);
        let v = var(&mut b, p, S::UniformConstant);
        set_binding(&mut b, v, rng);
    }

    // Specialization constants.
    let [spec] = ids(&mut b);
    put(
        &mut b,
        inst::SpecConstant {
            result_type: uint,
            result_id: spec,
            value: LiteralNumber::from_u32(rng.below(100) as u32),
        },
    );
    decorate(&mut b, spec, D::SpecId(rng.below(8) as u32));

    // The stage interface.
    let mut interfaces = Vec::new();
    let v4_out = ptr(&mut b, S::Output, v4);
    let out = var(&mut b, v4_out, S::Output);
    if model != spv::ExecutionModel::GLCompute {
        let v4_in = ptr(&mut b, S::Input, v4);
        let input = var(&mut b, v4_in, S::Input);
        decorate(&mut b, input, D::Location(rng.below(4) as u32));
        decorate(&mut b, out, D::Location(rng.below(4) as u32));
        interfaces.extend([input, out]);
    }

    let [main] = ids(&mut b);
    put(
        &mut b,
        inst::EntryPoint {
            execution_model: model,
            entry_point: main,
            name: "main".into(),
            interfaces: interfaces.into(),
        },
    );
    match model {
        spv::ExecutionModel::GLCompute if rng.below(2) == 0 => {
            // The workgroup size as a built-in composite of specialization constants.
            let [v3, size] = ids(&mut b);
            put(
                &mut b,
                inst::TypeVector {
                    result_id: v3,
                    component_type: uint,
                    component_count: 3,
                },
            );
            put(
                &mut b,
                inst::SpecConstantComposite {
                    result_type: v3,
                    result_id: size,
                    constituents: [spec, spec, spec].into(),
                },
            );
            decorate(&mut b, size, D::BuiltIn(spv::BuiltIn::WorkgroupSize));
        }
        spv::ExecutionModel::GLCompute => put(
            &mut b,
            inst::ExecutionMode {
                entry_point: main,
                mode: spv::ExecutionModeData::LocalSize(1 + rng.below(64) as u32, 1, 1),
            },
        ),
        spv::ExecutionModel::Fragment => put(
            &mut b,
            inst::ExecutionMode {
                entry_point: main,
                mode: spv::ExecutionModeData::OriginUpperLeft,
            },
        ),
        _ => {}
    }

    // main: reads the uniform block's vector; writes the output, or the storage block.
    put(
        &mut b,
        inst::Function {
            result_type: void,
            result_id: main,
            function_control: spv::FunctionControl::NONE,
            function_type: fnty,
        },
    );
    let [label, chain, value, zero, slot] = ids(&mut b);
    put(&mut b, inst::Label { result_id: label });
    put(
        &mut b,
        inst::AccessChain {
            result_type: v4_uniform,
            result_id: chain,
            base: ubo,
            indexes: [one].into(),
        },
    );
    put(
        &mut b,
        inst::Load {
            result_type: v4,
            result_id: value,
            pointer: chain,
            memory_access: None,
        },
    );
    if model == spv::ExecutionModel::GLCompute {
        put(
            &mut b,
            inst::Constant {
                result_type: int,
                result_id: zero,
                value: LiteralNumber::from_u32(0),
            },
        );
        put(
            &mut b,
            inst::AccessChain {
                result_type: uint_uniform,
                result_id: slot,
                base: ssbo,
                indexes: [zero].into(),
            },
        );
        put(
            &mut b,
            inst::Store {
                pointer: slot,
                object: spec,
                memory_access: None,
            },
        );
    } else {
        put(
            &mut b,
            inst::Store {
                pointer: out,
                object: value,
                memory_access: None,
            },
        );
    }
    put(&mut b, inst::Return {});
    put(&mut b, inst::FunctionEnd {});
    b.build().expect("the Builder seed reads back").to_words()
}

/// How many modules the Builder makes for the seeds.
const BUILT: usize = 24;

/// The workspace's fixture texts: every `.spvasm` file under `tests/fixtures/` (the
/// assembler-error cases among them), in path order.
fn fixture_texts() -> Vec<Vec<u8>> {
    let mut dirs = vec![workspace_root().join("tests/fixtures")];
    let mut paths = Vec::new();
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("fixture folder").flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "spvasm") {
                paths.push(path);
            }
        }
    }
    paths.sort();
    paths
        .iter()
        .map(|p| std::fs::read(p).expect("fixture"))
        .collect()
}

/// The workspace's module seeds: [`BUILT`] Builder-made modules, every fixture text
/// that assembles (`%N` kept as id N, as the disassembler-error fixtures are meant),
/// and the fixtures' raw `.spv` files.
fn workspace_modules() -> Vec<Vec<u32>> {
    let mut rng = Rng::seeded(0xb01d_5eed);
    let mut seeds: Vec<Vec<u32>> = (0..BUILT).map(|_| built(&mut rng)).collect();
    let opts = AsmOptions {
        preserve_numeric_ids: true,
        ..AsmOptions::default()
    };
    seeds.extend(
        fixture_texts()
            .iter()
            .filter_map(|text| spirv_asm::assemble(text, &opts).ok()),
    );
    seeds.extend(
        files(&workspace_root().join("tests/fixtures/dis-errors"), "spv")
            .iter()
            .map(|p| read_words(p))
            .filter(|w| !w.is_empty()),
    );
    assert!(
        seeds.len() >= BUILT + 20,
        "only {} workspace module seeds (Builder modules and assembled fixtures)",
        seeds.len()
    );
    seeds
}

/// The module seeds: the workspace's, and every 7th corpus binary when the corpus is
/// there.
fn seed_modules(what: &str) -> Vec<Vec<u32>> {
    let mut seeds = workspace_modules();
    if let Some(dir) = require_corpus(&format!("{what} on corpus seeds")) {
        let bins = files(&dir.join("bin"), "spv");
        assert!(bins.len() >= 1000, "corpus binaries missing");
        seeds.extend(bins.iter().step_by(7).map(|p| read_words(p)));
    }
    seeds
}

/// Asserts that at least `percent`% of `cases` got past the header.
fn assert_floor(what: &str, deep: usize, cases: usize, percent: usize) {
    println!("{what}: {deep} of {cases} cases got past the header");
    assert!(
        deep * 100 >= cases * percent,
        "{what}: only {deep} of {cases} cases got past the header (floor {percent}%)"
    );
}

/// Whether `w` reads as a module with an entry point.
fn reads_with_entry_point(w: &[u32]) -> bool {
    Module::from_words(w).is_ok_and(|m| m.instructions().any(|i| i.opcode() == Opcode::EntryPoint))
}

#[test]
fn core_reader_never_panics_on_mutated_modules() {
    let bins = seed_modules("the reader's fuzz body");
    let mut rng = Rng::seeded(0x5eed_1234);
    let mut read = 0;
    let mut clock = Clock::new("reader");
    for case in 0..cases() {
        let w = mutated(&mut rng, &bins);
        let mut bytes = spirv_core::binary::words_to_bytes(&w);
        if rng.below(8) == 0 {
            // Any byte length, not only whole words.
            let n = rng.below(bytes.len() + 1);
            bytes.truncate(n);
        }
        read += usize::from(Module::from_bytes(&bytes).is_ok());
        clock.time(case, || spirv_core::fuzz::module(&bytes));
    }
    assert_floor("reader", read, cases(), 15);
    // Random bytes too.
    for case in cases()..cases() + cases() / 4 {
        let n = rng.below(256);
        let bytes: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
        clock.time(case, || spirv_core::fuzz::module(&bytes));
    }
}

#[test]
fn reflection_never_panics_on_mutated_modules() {
    let bins = seed_modules("the reflection fuzz body");
    let mut rng = Rng::seeded(0x0f1e_c7ed);
    let mut entry_points = 0;
    let mut clock = Clock::new("reflection");
    for case in 0..cases() / 2 {
        let w = mutated(&mut rng, &bins);
        entry_points += usize::from(reads_with_entry_point(&w));
        clock.time(case, || {
            spirv_core::fuzz::reflect(&spirv_core::binary::words_to_bytes(&w));
            spirv_asm::fuzz::reflect_words(&w);
        });
    }
    assert_floor(
        "reflection (modules with an entry point)",
        entry_points,
        cases() / 2,
        10,
    );
}

/// The validator's own seeds beside [`seed_modules`]: every case of the rule
/// fixtures (`tests/fixtures/val/*.txt`: images, atomics, extended instructions, ray
/// tracing and its reorder instructions, mesh shading, tensors, graphs, …), and, when
/// spirv-val's unit tests are there (`../shared/valsuite`), every 5th of their cases, so
/// that mutations reach every rule family.
fn validator_seeds() -> Vec<Vec<u32>> {
    use spirv_tests::val_fixture::{Family, dir, families};
    let mut seeds = Vec::new();
    for file in families() {
        let text = std::fs::read_to_string(dir().join(&file)).expect("fixture file");
        let family = Family::parse(&text).expect("fixture file parses");
        for case in &family.cases {
            let words = family.module(case).and_then(|m| case.words(&m));
            seeds.extend(words.ok());
        }
    }
    assert!(seeds.len() >= 500, "only {} fixture seeds", seeds.len());
    if let Some(suite) = spirv_tests::valsuite::dir() {
        let cases = spirv_tests::valsuite::read(&suite).expect("valsuite reads");
        seeds.extend(cases.into_iter().step_by(5).map(|c| c.words));
    }
    seeds
}

#[test]
fn validator_never_panics_on_mutated_modules() {
    let mut bins = seed_modules("the validator's fuzz body");
    bins.extend(validator_seeds());
    let mut rng = Rng::seeded(0x0a11_da7e);
    let mut read = 0;
    let mut clock = Clock::new("validator");
    for case in 0..cases() / 2 {
        let w = mutated(&mut rng, &bins);
        read += usize::from(Module::from_words(&w).is_ok());
        clock.time(case, || {
            spirv_core::fuzz::validate(&w);
            spirv_asm::fuzz::validate_words(&w);
        });
    }
    assert_floor("validator (modules that read)", read, cases() / 2, 15);
}

#[test]
fn passes_never_panic_on_mutated_modules() {
    let bins = seed_modules("the passes' fuzz body");
    let mut rng = Rng::seeded(0x0b7_1e55);
    let mut read = 0;
    // Thirteen pass lists per module: a tenth of the cases.
    let mut clock = Clock::new("passes");
    for case in 0..cases() / 10 {
        let w = mutated(&mut rng, &bins);
        read += usize::from(Module::from_words(&w).is_ok());
        clock.time(case, || spirv_opt::fuzz::passes(&w));
    }
    assert_floor("passes (modules that read)", read, cases() / 10, 15);
}

#[test]
fn ir_passes_never_panic_on_mutated_modules() {
    let bins = seed_modules("the optimizer IR's fuzz body");
    let mut rng = Rng::seeded(0x1e_0b71);
    let mut read = 0;
    let mut clock = Clock::new("IR passes");
    for case in 0..cases() / 10 {
        let w = mutated(&mut rng, &bins);
        read += usize::from(spirv_opt::ir::Ir::from_words(&w).is_ok());
        clock.time(case, || spirv_opt::fuzz::ir_passes(&w));
    }
    assert_floor("IR passes (modules that load)", read, cases() / 10, 15);
}

#[test]
fn presets_never_panic_on_mutated_modules() {
    let bins = seed_modules("the presets' fuzz body");
    let mut rng = Rng::seeded(0x9e5e_7500);
    let mut read = 0;
    // Six preset runs per module: a twentieth of the cases.
    let mut clock = Clock::new("presets");
    for case in 0..cases() / 20 {
        let w = mutated(&mut rng, &bins);
        read += usize::from(spirv_opt::ir::Ir::from_words(&w).is_ok());
        clock.time(case, || spirv_opt::fuzz::presets(&w));
    }
    assert_floor("presets (modules that load)", read, cases() / 20, 15);
}

#[test]
fn disassembler_never_panics_on_mutated_modules() {
    let bins = seed_modules("the disassembler's fuzz body");
    let mut rng = Rng::seeded(0xd15_a55e);
    let mut read = 0;
    let mut clock = Clock::new("disassembler");
    for case in 0..cases() / 2 {
        let w = mutated(&mut rng, &bins);
        read += usize::from(Module::from_words(&w).is_ok());
        clock.time(case, || spirv_asm::fuzz::disassemble_words(&w));
    }
    assert_floor("disassembler (modules that read)", read, cases() / 2, 15);
}

#[test]
fn flow_graph_never_panics_on_mutated_modules() {
    let bins = seed_modules("the flow graph's fuzz body");
    let mut rng = Rng::seeded(0xcf9_d07);
    let mut read = 0;
    let mut clock = Clock::new("flow graph");
    for case in 0..cases() / 4 {
        let w = mutated(&mut rng, &bins);
        read += usize::from(Module::from_words(&w).is_ok());
        clock.time(case, || spirv_asm::fuzz::flow_graph_words(&w));
    }
    assert_floor("flow graph (modules that read)", read, cases() / 4, 15);
}

#[test]
fn assembler_never_panics_on_mutated_text() {
    // The fixtures' texts (the assembler-error cases among them) and the Builder
    // modules' disassembly; a sample of the corpus's when it is there.
    let mut texts = fixture_texts();
    let mut rng = Rng::seeded(0xb01d_5eed);
    for _ in 0..BUILT {
        let text = spirv_asm::disassemble(&built(&mut rng), &DisOptions::default())
            .expect("a Builder seed disassembles");
        texts.push(text);
    }
    assert!(
        texts.len() >= BUILT + 50,
        "only {} workspace texts",
        texts.len()
    );
    if let Some(dir) = require_corpus("the assembler's fuzz body on corpus seeds") {
        let corpus = files(&dir.join("dis"), "spvasm");
        assert!(corpus.len() >= 1000, "corpus texts missing");
        texts.extend(
            corpus
                .iter()
                .step_by(23)
                .filter_map(|p| std::fs::read(p).ok()),
        );
    }
    let tokens: &[&[u8]] = &[
        b" OpNop ",
        b" %",
        b" = ",
        b"\"",
        b" !",
        b" 99999999999999999999999 ",
        b" -0x8000000000000000 ",
        b" 0x1p+99999 ",
        b" OpUnknown(",
        b" | ",
        b";",
        b"\\",
        b"\0",
        b"\xff\xfe",
        b" OpExtInst ",
        b" OpSpecConstantOp ",
        b" OpSwitch ",
        b" OpConstant ",
        b" %1 = ",
    ];
    let mut rng = Rng::seeded(0xa55e_b1e5);
    let mut assembled = 0;
    let mut clock = Clock::new("assembler");
    for case in 0..cases() / 3 {
        let mut t = texts[rng.below(texts.len())].clone();
        // Keep cases small enough to run many.
        t.truncate(4000);
        match rng.below(7) {
            0 => {
                let n = rng.below(t.len());
                t.truncate(n);
            }
            4 => {
                // Repeat one line many times.
                let lines: Vec<&[u8]> = t.split(|&b| b == b'\n').collect();
                let line = lines[rng.below(lines.len())].to_vec();
                for _ in 0..rng.below(2000) {
                    t.push(b'\n');
                    t.extend_from_slice(&line);
                }
            }
            5 => {
                // Nesting: an embedded opcode, or a mask of parts, repeated.
                let part: &[u8] = [&b" SpecConstantOp"[..], b"|None", b" IAdd"][rng.below(3)];
                t.extend_from_slice(b"\n%nest = OpSpecConstantOp %1");
                for _ in 0..rng.below(5000) {
                    t.extend_from_slice(part);
                }
                t.push(b'\n');
            }
            6 => {
                // Splice two texts.
                let other = &texts[rng.below(texts.len())];
                let (cut, from) = (rng.below(t.len()), rng.below(other.len()));
                t.truncate(cut);
                t.extend_from_slice(&other[from..]);
            }
            1 => {
                let at = rng.below(t.len());
                let tok = tokens[rng.below(tokens.len())];
                t.splice(at..at, tok.iter().copied());
            }
            2 => {
                let at = rng.below(t.len());
                if at < t.len() {
                    t[at] = rng.next() as u8;
                }
            }
            _ => {
                let at = rng.below(t.len());
                let end = (at + rng.below(40)).min(t.len());
                t.drain(at..end);
            }
        }
        assembled += usize::from(spirv_asm::assemble(&t, &AsmOptions::default()).is_ok());
        clock.time(case, || spirv_asm::fuzz::assemble_text(&t));
    }
    assert_floor("assembler (texts that assemble)", assembled, cases() / 3, 8);
}

/// Inputs the fuzz tests once panicked on, through the bodies and checked against what
/// spirv-as 2025.5 does with them.
#[test]
fn fuzz_findings_stay_fixed() {
    // A constant of a 0-bit integer type (found from the Builder seeds): `1 << (width -
    // 1)` overflowed. spirv-as takes 0, and -1 when signed (one word, sign-extended), and
    // says that anything else does not fit.
    for (signed, literal, expected) in [
        (1, "0", Ok(0)),
        (1, "-1", Ok(0xffff_ffff)),
        (1, "-0x1", Ok(0xffff_ffff)),
        (1, "0x0", Ok(0)),
        (
            1,
            "1",
            Err("Integer 1 does not fit in a 0-bit signed integer"),
        ),
        (
            1,
            "-2",
            Err("Integer -2 does not fit in a 0-bit signed integer"),
        ),
        (
            1,
            "0x1",
            Err("Integer 0x1 does not fit in a 0-bit signed integer"),
        ),
        (0, "0", Ok(0)),
        (
            0,
            "5",
            Err("Integer 5 does not fit in a 0-bit unsigned integer"),
        ),
        (
            0,
            "0x1",
            Err("Integer 0x1 does not fit in a 0-bit unsigned integer"),
        ),
    ] {
        let text = format!(
            "OpCapability Shader\nOpMemoryModel Logical GLSL450\n%1 = OpTypeInt 0 {signed}\n%2 = OpConstant %1 {literal}\n"
        );
        spirv_asm::fuzz::assemble_text(text.as_bytes());
        let got = spirv_asm::assemble(text.as_bytes(), &AsmOptions::default());
        match (got, expected) {
            (Ok(words), Ok(value)) => assert_eq!(words.last(), Some(&value), "{literal}"),
            (Err(e), Err(message)) => assert_eq!(e.message, message),
            (got, expected) => {
                panic!("{literal} (signed {signed}): {got:?}, expected {expected:?}")
            }
        }
    }
    // ADCE on a module with no function body (FUZZ_CASES=10000 found it): the types of
    // the constants live debug information keeps went, and the output did not read
    // back (spirv-opt 2025.5 writes the same unreadable module). The IR bodies check
    // that every pass's output reads back.
    let text = r#"OpCapability Shader
OpExtension "SPV_KHR_non_semantic_info"
%2 = OpExtInstImport "NonSemantic.Shader.DebugInfo.100"
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %missing "main"
%file = OpString "a.frag"
%name = OpString "g"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%u2 = OpConstant %uint 2
%ptr = OpTypePointer Private %uint
%var = OpVariable %ptr Private
%src = OpExtInst %void %2 DebugSource %file
%cu = OpExtInst %void %2 DebugCompilationUnit %u1 %u2 %src %u2
%gv = OpExtInst %void %2 DebugGlobalVariable %name %void %src %u1 %u0 %cu %name %var %u0
"#;
    let words = spirv_asm::assemble(text.as_bytes(), &AsmOptions::default()).expect("assembles");
    spirv_opt::fuzz::ir_passes(&words);
    // A struct member of type id 0 (FUZZ_CASES=40000 found it): the optimizer's loader
    // took it, and --scalar-replacement wrote a module defining an id twice. spirv-opt's
    // parser refuses any zero id operand, naming a scope or memory semantics id by its
    // operand type; the loader now does the same.
    let text = "OpCapability Shader\nOpMemoryModel Logical GLSL450\n\
                %float = OpTypeFloat 32\n%s = OpTypeStruct %float %float\n\
                %uint = OpTypeInt 32 0\n%c2 = OpConstant %uint 2\n\
                %c8 = OpConstant %uint 8\n%void = OpTypeVoid\n%fn = OpTypeFunction %void\n\
                %f = OpFunction %void None %fn\n%l = OpLabel\n\
                OpMemoryBarrier %c2 %c8\nOpReturn\nOpFunctionEnd\n";
    let words = spirv_asm::assemble(text.as_bytes(), &AsmOptions::default()).expect("assembles");
    let at = |opcode: u16, len: u32| {
        let mut i = 5;
        while words[i] != (len << 16 | u32::from(opcode)) {
            i += (words[i] >> 16) as usize;
        }
        i
    };
    let (member, barrier) = (at(30, 4) + 3, at(225, 3));
    for (word, message) in [
        (member, "4: Id is 0"),
        (barrier + 1, "12: scope ID is 0"),
        (barrier + 2, "12: memory semantics ID is 0"),
    ] {
        let mut w = words.clone();
        w[word] = 0;
        let loaded = spirv_opt::ir::Ir::from_words(&w).map(|_| ());
        assert_eq!(loaded.map_err(|e| e.to_string()), Err(message.to_owned()));
        spirv_opt::fuzz::ir_passes(&w);
    }
    // An `OpSwitch` on a 0-bit integer (FUZZ_CASES=300000 found it): SPIRV-Tools' parser
    // gives each case literal no words, and spirv-dis prints it as nothing. `dis
    // --raw-id` indexed the literal's missing word (a panic), the default printed the
    // switch as `OpUnknown` (its second walk gave the literal a word), and the block
    // order and `cfg` missed the case's target.
    let text = "OpCapability Shader\nOpMemoryModel Logical GLSL450\n\
                %void = OpTypeVoid\n%fn = OpTypeFunction %void\n%i0 = OpTypeInt 0 1\n\
                %p = OpTypePointer Function %i0\n%f = OpFunction %void None %fn\n\
                %l = OpLabel\n%v = OpVariable %p Function\n%x = OpLoad %i0 %v\n\
                OpSelectionMerge %m None\nOpSwitch %x %m 0 %a\n%a = OpLabel\nOpBranch %m\n\
                %m = OpLabel\nOpReturn\nOpFunctionEnd\n";
    let mut words =
        spirv_asm::assemble(text.as_bytes(), &AsmOptions::default()).expect("assembles");
    // The literal's word out, as a 0-bit literal has none.
    let at = (5..words.len())
        .find(|&i| words[i] & 0xffff == u32::from(Opcode::Switch.0))
        .expect("a switch");
    words.remove(at + 3);
    words[at] -= 1 << 16;
    spirv_asm::fuzz::disassemble_words(&words);
    spirv_asm::fuzz::flow_graph_words(&words);
    for opts in [
        DisOptions::default(),
        DisOptions {
            raw_id: true,
            ..DisOptions::default()
        },
    ] {
        let text = spirv_asm::disassemble(&words, &opts).expect("disassembles");
        let text = String::from_utf8(text).expect("UTF-8");
        assert!(text.contains("OpSwitch %8 %9  %10\n"), "{text}");
    }
    // The module reader and the optimizer read it as spirv-opt does (they sized the
    // literal with a word and refused the switch).
    assert!(Module::from_words(&words).is_ok());
    assert!(spirv_opt::ir::Ir::from_words(&words).is_ok());
    let graph = spirv_asm::flow_graph::ControlFlow::read(&words).expect("reads");
    let dot = String::from_utf8(graph.to_dot()).expect("UTF-8");
    assert!(dot.contains("6 -> 10;"), "{dot}");
    // 4,000 terminators after one label (FUZZ_CASES=300000 found it): spirv-cfg prints a
    // block for each, and each block's instructions ran from the label, so the SVG
    // with instructions listed 8 million lines.
    let mut text = String::from(
        "OpCapability Shader\nOpMemoryModel Logical GLSL450\n%void = OpTypeVoid\n\
         %fn = OpTypeFunction %void\n%f = OpFunction %void None %fn\n%l = OpLabel\n",
    );
    text.push_str(&"OpBranch %l\n".repeat(4000));
    text.push_str("OpFunctionEnd\n");
    let words = spirv_asm::assemble(text.as_bytes(), &AsmOptions::default()).expect("assembles");
    let graph = spirv_asm::flow_graph::ControlFlow::read(&words).expect("reads");
    let listed: usize = graph.blocks().iter().map(|b| b.instructions.len()).sum();
    assert_eq!(listed, 4001);
    let svg = graph.to_svg(&spirv_asm::flow_graph::SvgOptions::with_instructions(true));
    assert!(svg.len() < 4_000_000, "{} bytes", svg.len());
    // An `OpConstant` of a 0-bit integer with a literal word (FUZZ_SEED=1 found it; it
    // is what spirv-as writes): the parser gives the literal no words, and spirv-opt
    // refuses the word left over. The structural passes' streaming path sized the
    // literal with a word and wrote a module where the general path refuses it.
    let text = "OpCapability Shader\nOpMemoryModel Logical GLSL450\n\
                %i0 = OpTypeInt 0 0\n%c = OpConstant %i0 0\n";
    let words = spirv_asm::assemble(text.as_bytes(), &AsmOptions::default()).expect("assembles");
    use spirv_opt::structural::{StructuralPass as P, run_streamed, run_words};
    let list = [P::StripDebug, P::CompactIds];
    assert_eq!(run_streamed(&words, &list), None);
    let refused = run_words(&words[..], &list, None).map_err(|e| e.to_string());
    assert_eq!(
        refused,
        Err("1 word(s) left over after the last operand (instruction 3) at word 17".into())
    );
    spirv_opt::fuzz::passes(&words);
    // 4,500 stores through one access chain (FUZZ_SEED=1 found it, 1.2 s a case):
    // `--convert-local-access-chains` killed the stores one by one, and after each
    // listed the chain's users left to see whether it was dead, and dropped the store
    // from a list of those to kill: quadratic (16,000 stores: 3.4 s; spirv-opt 2025.5
    // is quadratic too). Four times the stores must take less than eight times as long
    // (CPU time, the fastest of three runs): linear is four, quadratic sixteen.
    let stores = |n: usize| {
        let mut text = String::from(
            "OpCapability Shader\nOpMemoryModel Logical GLSL450\n\
             OpEntryPoint Fragment %main \"main\"\nOpExecutionMode %main OriginUpperLeft\n\
             %void = OpTypeVoid\n%fn = OpTypeFunction %void\n%float = OpTypeFloat 32\n\
             %v4 = OpTypeVector %float 4\n%int = OpTypeInt 32 1\n%int_0 = OpConstant %int 0\n\
             %uint = OpTypeInt 32 0\n%u2 = OpConstant %uint 2\n%arr = OpTypeArray %v4 %u2\n\
             %pa = OpTypePointer Function %arr\n%pv = OpTypePointer Function %v4\n\
             %f0 = OpConstant %float 0\n%c = OpConstantComposite %v4 %f0 %f0 %f0 %f0\n\
             %main = OpFunction %void None %fn\n%l = OpLabel\n%var = OpVariable %pa Function\n\
             %ac = OpAccessChain %pv %var %int_0\n",
        );
        text.push_str(&"OpStore %ac %c\n".repeat(n));
        text.push_str("OpReturn\nOpFunctionEnd\n");
        spirv_asm::assemble(text.as_bytes(), &AsmOptions::default()).expect("assembles")
    };
    let mut opt = spirv_opt::Optimizer::new();
    opt.skip_validation(true)
        .register_flag("--convert-local-access-chains")
        .expect("a pass");
    let time = |n: usize| {
        let words = stores(n);
        (0..3)
            .map(|_| {
                let start = thread_cpu_time();
                let out = opt.run(&words).expect("converts");
                // Each store became a load, an insert and a store; the chain and its
                // index constant went.
                assert_eq!(out.words.len(), words.len() + 10 * n - 9);
                thread_cpu_time() - start
            })
            .min()
            .expect("three runs")
    };
    let (small, large) = (time(4000), time(16000));
    assert!(
        large < small * 8,
        "4,000 stores: {small:?}, 16,000: {large:?}"
    );
    // A copy of an id nothing defines, switched on (FUZZ_SEED=2 found it, under -O with
    // validation skipped): `--simplify-instructions` folded the copy and put the id in
    // the selector, whose literals a reader sizes by its type, so the module written
    // did not read. spirv-opt 2025.5 crashes on it (it queues the id's missing
    // definition); the pass now refuses it.
    let text = "OpCapability Shader\nOpCapability Int64\nOpMemoryModel Logical GLSL450\n\
                %void = OpTypeVoid\n%ulong = OpTypeInt 64 0\n%fn = OpTypeFunction %void\n\
                %f = OpFunction %void None %fn\n%l = OpLabel\n%c = OpCopyObject %ulong %undef\n\
                OpSelectionMerge %m None\nOpSwitch %c %m 5 %a\n%a = OpLabel\nOpBranch %m\n\
                %m = OpLabel\nOpReturn\nOpFunctionEnd\n";
    let words = spirv_asm::assemble(text.as_bytes(), &AsmOptions::default()).expect("assembles");
    let mut opt = spirv_opt::Optimizer::new();
    opt.skip_validation(true)
        .register_flag("--simplify-instructions")
        .expect("a pass");
    let e = opt.run(&words).map(|_| ()).expect_err("refused");
    assert!(e.to_string().contains("id 7, which nothing defines"), "{e}");
    spirv_opt::fuzz::ir_passes(&words);
    spirv_opt::fuzz::presets(&words);
    // A loop to unroll in a module without the Shader capability whose bound (2) is
    // below its ids (FUZZ_SEED=3 found it, under -O): the passes took ids from the
    // bound, defining labels twice, and `--eliminate-dead-branches`' block order
    // (dominator order, without Shader) looked a label up module-wide, found a block
    // of no function, and indexed past the functions (a panic; spirv-opt 2025.5 runs
    // these four passes, and crashes under -O). Only the function's blocks are placed.
    let text = "OpMemoryModel Logical GLSL450\nOpEntryPoint Fragment %2 \"main\" %3\n\
                OpExecutionMode %2 OriginUpperLeft\n%6 = OpTypeVoid\n%7 = OpTypeFunction %6\n\
                %8 = OpTypeInt 32 1\n%9 = OpTypePointer Function %8\n%10 = OpConstant %8 0\n\
                %11 = OpConstant %8 4\n%12 = OpTypeBool\n%13 = OpTypeFloat 32\n\
                %14 = OpTypeInt 32 0\n%15 = OpConstant %14 4\n%16 = OpTypeArray %13 %15\n\
                %17 = OpTypePointer Function %16\n%18 = OpConstant %13 1\n\
                %19 = OpTypePointer Function %13\n%20 = OpConstant %8 1\n\
                %21 = OpTypeVector %13 4\n%22 = OpTypePointer Output %21\n\
                %3 = OpVariable %22 Output\n%2 = OpFunction %6 None %7\n%23 = OpLabel\n\
                %5 = OpVariable %17 Function\nOpBranch %24\n%24 = OpLabel\n\
                %35 = OpPhi %8 %10 %23 %34 %26\nOpLoopMerge %25 %26 Unroll\nOpBranch %27\n\
                %27 = OpLabel\n%29 = OpSLessThan %12 %35 %11\nOpBranchConditional %29 %30 %25\n\
                %30 = OpLabel\n%32 = OpAccessChain %19 %5 %35\nOpStore %32 %18\nOpBranch %26\n\
                %26 = OpLabel\n%34 = OpIAdd %8 %35 %20\nOpBranch %24\n%25 = OpLabel\n\
                OpReturn\nOpFunctionEnd\n";
    let opts = AsmOptions {
        preserve_numeric_ids: true,
        ..AsmOptions::default()
    };
    let mut words = spirv_asm::assemble(text.as_bytes(), &opts).expect("assembles");
    words[3] = 2;
    let mut opt = spirv_opt::Optimizer::new();
    opt.skip_validation(true)
        .register_flags([
            "--ccp",
            "--loop-unroll",
            "--redundancy-elimination",
            "--eliminate-dead-branches",
        ])
        .expect("passes");
    let _ = opt.run(&words);
    spirv_opt::fuzz::presets(&words);
    // Access chains in a module whose bound (27) is below its ids (FUZZ_SEED=3 found
    // it: 22 GB before the kernel stopped it): `--copy-propagate-arrays` took ids from
    // the bound, defining ids twice, so that a chain was among its own users, and its
    // walks down the chains queued it again and again until memory ran out (spirv-opt
    // 2025.5 crashes). Each chain is queued once now.
    let text = "%6 = OpTypeInt 32 0\n%10 = OpTypeInt 32 1\n%14 = OpTypeFloat 32\n\
                %15 = OpTypeVector %14 4\n%20 = OpTypeStruct %15 %14 %19\n\
                %22 = OpTypeArray %20 %21\n%23 = OpTypePointer Input %22\n\
                %24 = OpVariable %23 Input\n%27 = OpTypePointer Input %15\n\
                %56 = OpTypePointer Output %15\n%4 = OpFunction %2 None %3\n%5 = OpLabel\n\
                %17 = OpVariable %16 Function\n%35 = OpVariable %30 Function\n\
                %28 = OpAccessChain %27 %24 %25 %26\n%29 = OpLoad %15 %28\nOpStore %17 %29\n\
                %37 = OpAccessChain %32 %24 %25 %36 %36\n%38 = OpLoad %14 %37\n\
                OpStore %35 %38\nOpStore %64 %63\n%70 = OpAccessChain %60 %67 %68\n\
                OpStore %70 %69\n%74 = OpAccessChain %60 %72 %25\nOpStore %74 %73\n\
                OpReturn\nOpFunctionEnd\n";
    let mut words = spirv_asm::assemble(text.as_bytes(), &opts).expect("assembles");
    words[3] = 27;
    let mut opt = spirv_opt::Optimizer::new();
    opt.skip_validation(true)
        .register_flags(["--copy-propagate-arrays", "--scalar-replacement"])
        .expect("passes");
    let _ = opt.run(&words);
    spirv_opt::fuzz::ir_passes(&words);
}
