//! Measuring helpers for spirv-bench's benches (`cargo bench -p spirv-bench`): the corpus
//! read as words, and a throughput figure that is the median of several timed runs.

use std::path::Path;
use std::time::Instant;

/// Every `.spv` file in `dir`, sorted by path, as little-endian words; files that cannot
/// be read are left out.
pub fn read_modules(dir: &Path) -> Vec<Vec<u32>> {
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "spv"))
                .collect()
        })
        .unwrap_or_default();
    paths.sort();
    paths
        .iter()
        .filter_map(|p| std::fs::read(p).ok())
        .map(|b| {
            b.chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect()
        })
        .collect()
}

/// MB of input (`bytes`) per second: `f` once to warm up, then the median of `runs`
/// timed calls.
pub fn median_mbps(bytes: usize, runs: usize, mut f: impl FnMut()) -> f64 {
    f();
    let mut t: Vec<f64> = (0..runs.max(1))
        .map(|_| {
            let s = Instant::now();
            f();
            s.elapsed().as_secs_f64()
        })
        .collect();
    t.sort_by(f64::total_cmp);
    bytes as f64 / 1e6 / t[t.len() / 2]
}
