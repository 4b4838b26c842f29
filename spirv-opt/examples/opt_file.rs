//! Runs spirv-opt flags on a file through `spirv_opt::Optimizer` without validation
//! and writes the result: `cargo run -p spirv-opt --example opt_file -- IN OUT FLAG...`
//! (a development aid for comparing with `spirv-opt --skip-validation FLAG... IN -o OUT`).

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, output, flags @ ..] = args.as_slice() else {
        return Err("usage: opt_file IN OUT FLAG...".into());
    };
    let bytes = std::fs::read(input)?;
    let words: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let mut opt = spirv_opt::Optimizer::new();
    opt.skip_validation(true);
    for f in flags {
        opt.register_flag(f)?;
    }
    let out = opt.run(&words)?;
    std::fs::write(output, spirv_core::binary::words_to_bytes(&out.words))?;
    eprintln!("changed: {}", out.changed);
    Ok(())
}
