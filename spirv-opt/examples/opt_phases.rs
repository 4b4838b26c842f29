//! Times the phases of `spirv-asm opt` in process, a profiling aid:
//! `cargo run --release -p spirv-opt --example opt_phases -- FILE [PASS...]`
//! where each pass is a spirv-opt flag (`--strip-debug`, `--switch-descriptorset=0:5`).
//! Prints the best of 5 runs of each phase. With `PHASE=noop|bound|read|run` it runs that
//! phase 20 times instead, for a profiler.

use spirv_core::Module;
use spirv_core::edit::{Bound, Editor};
use spirv_opt::structural::{self as passes, StructuralPass};
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((file, flags)) = args.split_first() else {
        return Err("usage: opt_phases FILE [PASS...]".into());
    };
    let bytes = std::fs::read(file)?;
    let list: Vec<StructuralPass> = flags
        .iter()
        .map(|f| {
            let f = f.trim_start_matches('-');
            match f.split_once('=') {
                Some((flag, value)) => StructuralPass::from_flag(flag, Some(value)),
                None => StructuralPass::from_flag(f, None),
            }
        })
        .collect::<Result<_, _>>()?;
    let m = Module::from_bytes(&bytes)?;
    if let Ok(phase) = std::env::var("PHASE") {
        for _ in 0..20 {
            match phase.as_str() {
                "noop" => drop(Editor::new(&m).apply(Bound::Keep)?),
                "bound" => m.clone().set_bound(m.header().bound)?,
                "read" => drop(Module::from_bytes(&bytes)?),
                "run" => drop(passes::run(&m, &list, None)?),
                other => return Err(format!("unknown PHASE {other}").into()),
            }
        }
        return Ok(());
    }
    let mut best = [f64::MAX; 6];
    for _ in 0..5 {
        let mut times = [0.0; 6];
        let mut time = |k: usize, start: Instant| times[k] = start.elapsed().as_secs_f64();
        let t = Instant::now();
        drop(Module::from_bytes(&bytes)?);
        time(0, t);
        let t = Instant::now();
        drop(Editor::new(&m).apply(Bound::Keep)?);
        time(1, t);
        let t = Instant::now();
        let mut cur = m.clone();
        for p in &list {
            cur = passes::run(&cur, std::slice::from_ref(p), None)?.0;
        }
        time(2, t);
        let t = Instant::now();
        let (out, _) = passes::run(&m, &list, None)?;
        time(3, t);
        let t = Instant::now();
        std::hint::black_box(out.to_bytes());
        time(4, t);
        let t = Instant::now();
        m.clone().set_bound(m.header().bound)?;
        time(5, t);
        for (b, x) in best.iter_mut().zip(times) {
            *b = b.min(x);
        }
    }
    let names = [
        "read",
        "no-op apply",
        "run each alone",
        "passes::run",
        "to_bytes",
        "clone+set_bound",
    ];
    for (n, b) in names.iter().zip(best) {
        println!("{n:>16} {:8.2} ms", b * 1e3);
    }
    Ok(())
}
