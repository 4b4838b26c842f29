//! Times loading a module into the optimizer IR and writing it back, in process, a
//! profiling aid: `cargo run --release -p spirv-opt --example ir_phases -- FILE`.
//! Prints the best of 10 runs of each phase.

use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let file = std::env::args().nth(1).ok_or("usage: ir_phases FILE")?;
    let bytes = std::fs::read(&file)?;
    let words: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let (mut load, mut write, mut read) = (f64::MAX, f64::MAX, f64::MAX);
    for _ in 0..10 {
        let t = Instant::now();
        let m = spirv_core::Module::from_words(&words)?;
        read = read.min(t.elapsed().as_secs_f64());
        drop(m);
        let t = Instant::now();
        let mut ir = spirv_opt::ir::Ir::from_words(&words)?;
        load = load.min(t.elapsed().as_secs_f64());
        let t = Instant::now();
        let out = ir.to_words();
        write = write.min(t.elapsed().as_secs_f64());
        assert!(!out.is_empty());
    }
    let mb = bytes.len() as f64 / 1e6;
    println!(
        "(spirv-core's Module::from_words alone: {:.1} ms)",
        read * 1e3
    );
    println!(
        "load {:.1} ms ({:.0} MB/s), write {:.1} ms ({:.0} MB/s)",
        load * 1e3,
        mb / load,
        write * 1e3,
        mb / write
    );
    Ok(())
}
