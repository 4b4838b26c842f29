//! Times the optimizer IR on a module: loading it, running spirv-opt flags on it, and
//! writing it, each the best of a few runs (not a test; its output is quoted in notes).
//!
//! `cargo run --release -p spirv-opt --example ir_bench -- FILE.spv [--PASS ...]`

use spirv_opt::{Context, Pass, PassOptions, ir::Ir, run_ir_pass};
use std::time::{Duration, Instant};

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: ir_bench FILE.spv [--PASS ...]");
    let flags: Vec<String> = args.collect();
    let bytes = std::fs::read(&path).expect("the module reads");
    let words: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let mut options = PassOptions::default();
    options.preserve_interface = true;
    let mut passes = Vec::new();
    for f in &flags {
        passes.extend(Pass::from_flag(f, &options).expect("a known flag"));
    }
    let runs = 5;
    let mut best = [Duration::MAX; 4];
    let mut out_len = 0;
    for _ in 0..runs {
        let t = Instant::now();
        let ir = Ir::from_words(&words).expect("the module loads");
        let load = t.elapsed();
        let mut cx = Context::new(ir);
        for p in &passes {
            let ir_pass = p.ir_pass().expect("a pass on the IR");
            run_ir_pass(ir_pass, &mut cx).expect("the pass runs");
        }
        let run = t.elapsed() - load;
        let out = cx.to_words();
        let write = t.elapsed() - load - run;
        out_len = out.len();
        drop(cx);
        let free = t.elapsed() - load - run - write;
        for (b, d) in best.iter_mut().zip([load, run, write, free]) {
            *b = (*b).min(d);
        }
    }
    println!(
        "{path}: {} words in, {out_len} out; best of {runs}: load {:.1?}, passes {:.1?}, write {:.1?}, free {:.1?}",
        words.len(),
        best[0],
        best[1],
        best[2],
        best[3]
    );
}
