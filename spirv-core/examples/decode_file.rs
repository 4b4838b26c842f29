//! Reads a SPIR-V file and decodes it into a `Module` (or, with `--read-only`, only
//! reads it): the pair is used to measure a decoded module's peak memory with
//! `/usr/bin/time -f %M`.

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: decode_file FILE [--read-only]");
        std::process::exit(1);
    };
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    };
    if args.next().as_deref() == Some("--read-only") {
        println!("{} bytes", std::hint::black_box(&bytes).len());
        return;
    }
    match spirv_core::Module::from_bytes(&bytes) {
        Ok(m) => println!("{} instructions", m.len()),
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    }
}
