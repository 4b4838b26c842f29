//! Loads each file into the optimizer IR and writes it back, as `spirv-opt
//! --skip-validation IN -o OUT` does with no pass; with a second folder, compares with
//! the files of the same name there and prints the ones that differ.
//!
//! ```text
//! cargo run --release -p spirv-opt --example ir_roundtrip -- IN.spv... [--gold DIR]
//! ```

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (files, gold) = match args.iter().position(|a| a == "--gold") {
        Some(p) => (&args[..p], args.get(p + 1)),
        None => (&args[..], None),
    };
    let (mut same, mut differ, mut failed) = (0, 0, 0);
    for f in files {
        let bytes = std::fs::read(f).expect("read");
        let words: Vec<u32> = bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let out = match spirv_opt::ir::Ir::from_words(&words) {
            Ok(mut ir) => ir.to_words(),
            Err(e) => {
                println!("FAIL {f}: {e}");
                failed += 1;
                continue;
            }
        };
        let Some(dir) = gold else { continue };
        let name = std::path::Path::new(f).file_name().expect("a name");
        let g = std::fs::read(std::path::Path::new(dir).join(name)).expect("gold");
        let gw: Vec<u32> = g
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        if gw == out {
            same += 1;
        } else {
            differ += 1;
            let at = gw
                .iter()
                .zip(&out)
                .position(|(a, b)| a != b)
                .unwrap_or(gw.len().min(out.len()));
            println!(
                "DIFF {f}: lengths {} / {}, first at word {at}",
                gw.len(),
                out.len()
            );
        }
    }
    println!("same {same} differ {differ} failed {failed}");
}
