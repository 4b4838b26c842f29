//! `cargo bench -p spirv-bench`: spirv-core's throughput over every corpus binary, in MB
//! of input per second (median of several runs), next to rspirv and rspirv2 measured in
//! the same run.
//!
//! A plain harness rather than criterion because the figures that matter are same-run
//! ratios to rspirv, which it prints directly.

use spirv_bench::{median_mbps, read_modules};
use std::hint::black_box;

// The corpus lookup the tests use.
use spirv_tests as env;

fn corpus() -> Option<Vec<Vec<u32>>> {
    let dir = env::require_corpus("the decode bench")?;
    Some(read_modules(&dir.join("bin")))
}

struct Nop;
impl rspirv::binary::Consumer for Nop {
    fn initialize(&mut self) -> rspirv::binary::ParseAction {
        rspirv::binary::ParseAction::Continue
    }
    fn finalize(&mut self) -> rspirv::binary::ParseAction {
        rspirv::binary::ParseAction::Continue
    }
    fn consume_header(&mut self, _: rspirv::dr::ModuleHeader) -> rspirv::binary::ParseAction {
        rspirv::binary::ParseAction::Continue
    }
    fn consume_instruction(&mut self, i: rspirv::dr::Instruction) -> rspirv::binary::ParseAction {
        black_box(i);
        rspirv::binary::ParseAction::Continue
    }
}

fn main() {
    let Some(mods) = corpus() else {
        return;
    };
    let bytes: usize = mods.iter().map(|m| m.len() * 4).sum();
    let runs = std::env::var("BENCH_RUNS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(15);
    println!(
        "corpus: {} modules, {:.2} MB, median of {runs} runs",
        mods.len(),
        bytes as f64 / 1e6
    );

    let walk = median_mbps(bytes, runs, || {
        for m in &mods {
            let mut i = 5;
            let mut n = 0u32;
            while i < m.len() {
                let c = (m[i] >> 16) as usize;
                if c == 0 {
                    break;
                }
                n = n.wrapping_add(m[i] & 0xffff);
                i += c;
            }
            black_box(n);
        }
    });
    let raw = median_mbps(bytes, runs, || {
        for m in &mods {
            if let Ok((_, it)) = spirv_core::binary::RawInstructions::module(m) {
                let mut n = 0u32;
                for inst in it.flatten() {
                    n = n
                        .wrapping_add(u32::from(inst.opcode))
                        .wrapping_add(inst.operands.len() as u32);
                }
                black_box(n);
            }
        }
    });
    let decoded: Vec<spirv_core::Module> = mods
        .iter()
        .filter_map(|m| spirv_core::Module::from_words(m).ok())
        .collect();
    let module = median_mbps(bytes, runs, || {
        for m in &mods {
            black_box(spirv_core::Module::from_words(m).ok());
        }
    });
    let reflect = median_mbps(bytes, runs, || {
        for m in &mods {
            if let Ok(m) = spirv_core::Module::from_words(m) {
                black_box(spirv_core::reflect::Reflection::new(&m).resources().len());
            }
        }
    });
    let reflect_globals = median_mbps(bytes, runs, || {
        let globals = spirv_core::ReadOptions {
            globals_only: true,
            ..Default::default()
        };
        for m in &mods {
            if let Ok(m) = spirv_core::Module::read(m, &globals) {
                black_box(spirv_core::reflect::Reflection::new(&m).resources().len());
            }
        }
    });
    let encode = median_mbps(bytes, runs, || {
        for m in &decoded {
            black_box(m.to_words());
        }
    });
    let typed = median_mbps(bytes, runs.min(5), || {
        for m in &decoded {
            for i in m.instructions() {
                black_box(i.decode().ok());
            }
        }
    });
    let typed_encode_input: Vec<Vec<spirv_core::spv::Instruction>> = decoded
        .iter()
        .map(|m| m.instructions().map(|i| i.decode_lossless()).collect())
        .collect();
    let typed_encode = median_mbps(bytes, runs.min(5), || {
        for insts in &typed_encode_input {
            let mut w = Vec::new();
            for i in insts {
                black_box(i.encode(&mut w)).ok();
            }
            black_box(w);
        }
    });
    // Typed decoding against rspirv2, Rust-GPU's typed crate, on the modules it reads:
    // Module::from_bytes and a typed decode of every instruction, next to rspirv2's
    // Module::from_bytes and its typed iteration (which decodes every instruction once
    // to verify the module and again as it yields it). Each consumer takes what its
    // iterator yields by value: rspirv2's typed instruction, our Result.
    let as_bytes: Vec<Vec<u8>> = mods
        .iter()
        .map(|m| spirv_core::binary::words_to_bytes(m))
        .collect();
    type Rs2 = rspirv2::module::Module<rspirv2::core::inst_set::CoreInstSet>;
    let rs2_ok: Vec<&Vec<u8>> = as_bytes
        .iter()
        .filter(|b| Rs2::from_bytes(b).is_ok())
        .collect();
    let rs2_bytes: usize = rs2_ok.iter().map(|b| b.len()).sum();
    let rs2_fail = as_bytes.len() - rs2_ok.len();
    let rs2_typed = median_mbps(rs2_bytes, runs, || {
        for b in &rs2_ok {
            if let Ok(m) = Rs2::from_bytes(b) {
                for i in m.iter() {
                    black_box(i);
                }
            }
        }
    });
    let ours_typed = median_mbps(rs2_bytes, runs, || {
        for b in &rs2_ok {
            if let Ok(m) = spirv_core::Module::from_bytes(b) {
                for i in m.instructions() {
                    drop(black_box(i.decode()));
                }
            }
        }
    });
    let ours_stream = median_mbps(rs2_bytes, runs, || {
        for b in &rs2_ok {
            if let Ok((words, _)) = spirv_core::binary::words_from_bytes(b) {
                if let Ok((_, insts)) = spirv_core::stream::read(&words) {
                    for i in insts {
                        drop(black_box(i));
                    }
                }
            }
        }
    });
    // The same two, with a consumer that borrows each typed instruction instead of
    // taking it by value (no copy of the value into the consumer's frame).
    let rs2_typed_ref = median_mbps(rs2_bytes, runs, || {
        for b in &rs2_ok {
            if let Ok(m) = Rs2::from_bytes(b) {
                for i in m.iter() {
                    black_box(&i);
                }
            }
        }
    });
    let ours_stream_ref = median_mbps(rs2_bytes, runs, || {
        for b in &rs2_ok {
            if let Ok((words, _)) = spirv_core::binary::words_from_bytes(b) {
                if let Ok((_, insts)) = spirv_core::stream::read(&words) {
                    for i in insts {
                        black_box(&i);
                    }
                }
            }
        }
    });
    let ours_read = median_mbps(rs2_bytes, runs, || {
        for b in &rs2_ok {
            black_box(spirv_core::Module::from_bytes(b).ok());
        }
    });
    let rs_parse = median_mbps(bytes, runs.min(7), || {
        for m in &mods {
            let _ = rspirv::binary::parse_words(m, &mut Nop);
        }
    });
    let mut rs_fail = 0;
    let rs_loaded: Vec<rspirv::dr::Module> = mods
        .iter()
        .filter_map(|m| {
            let r = rspirv::dr::load_words(m).ok();
            rs_fail += usize::from(r.is_none());
            r
        })
        .collect();
    let rs_load = median_mbps(bytes, runs.min(7), || {
        for m in &mods {
            black_box(rspirv::dr::load_words(m).ok());
        }
    });
    let rs_bytes: usize = rs_loaded
        .iter()
        .map(|m| {
            use rspirv::binary::Assemble;
            m.assemble().len() * 4
        })
        .sum();
    let rs_assemble = median_mbps(rs_bytes, runs.min(7), || {
        use rspirv::binary::Assemble;
        for m in &rs_loaded {
            black_box(m.assemble());
        }
    });
    println!("{:<44}{:>10}{:>12}", "", "MB/s", "ratio");
    println!("{:<44}{walk:>10.0}", "header walk (word counts only)");
    println!(
        "{:<44}{raw:>10.0}{:>11.2}x of walk",
        "raw iteration",
        raw / walk
    );
    println!(
        "{:<44}{module:>10.0}{:>11.2}x rspirv load_words",
        "Module::from_words (validating decode)",
        module / rs_load
    );
    println!(
        "{:<44}{typed:>10.0}{:>11.2}x rspirv load_words",
        "typed decode of every instruction (extra)",
        typed / rs_load
    );
    println!(
        "{:<44}{encode:>10.0}{:>11.2}x rspirv Assemble",
        "Module::to_words (encode)",
        encode / rs_assemble
    );
    println!(
        "{:<44}{typed_encode:>10.0}{:>11.2}x rspirv Assemble",
        "typed Instruction::encode (extra)",
        typed_encode / rs_assemble
    );
    println!(
        "{:<44}{ours_typed:>10.0}{:>11.2}x rspirv2 typed iteration",
        "from_bytes + typed decode of every instr.",
        ours_typed / rs2_typed
    );
    println!(
        "{:<44}{ours_stream:>10.0}{:>11.2}x rspirv2 typed iteration",
        "stream::read (one pass, no Module)",
        ours_stream / rs2_typed
    );
    println!(
        "{:<44}{ours_stream_ref:>10.0}{:>11.2}x rspirv2, consumer borrows",
        "stream::read, consumer borrows",
        ours_stream_ref / rs2_typed_ref
    );
    println!(
        "{:<44}{ours_read:>10.0}{:>11.2}x rspirv2 typed iteration",
        "Module::from_bytes alone",
        ours_read / rs2_typed
    );
    println!(
        "{:<44}{rs2_typed:>10.0}   (over the {} modules it reads; {rs2_fail} fail)",
        "rspirv2 from_bytes + typed iteration",
        rs2_ok.len()
    );
    println!(
        "{:<44}{rs2_typed_ref:>10.0}",
        "rspirv2 typed iteration, consumer borrows"
    );
    println!(
        "{:<44}{rs_parse:>10.0}",
        "rspirv binary::parse_words (no-op consumer)"
    );
    println!(
        "{:<44}{rs_load:>10.0}   ({rs_fail} of {} modules fail)",
        "rspirv dr::load_words",
        mods.len()
    );
    println!("{:<44}{rs_assemble:>10.0}", "rspirv Assemble (DR -> words)");
    println!(
        "{:<44}{reflect:>10.0}",
        "Module::from_words + Reflection::new"
    );
    println!(
        "{:<44}{reflect_globals:>10.0}",
        "Module::read(globals_only) + Reflection::new"
    );
    println!(
        "{:<44}{:>10}{:>11.2}x rspirv parse_words",
        "raw iteration vs rspirv parse",
        "",
        raw / rs_parse
    );
}
