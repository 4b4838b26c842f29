//! Prints the expansion of a grammar file (unformatted), for inspection and timing:
//! `cargo run -p spirv-grammar-codegen --example expand -- grammar/spirv.core.grammar.json`.

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: expand GRAMMAR.json");
        std::process::exit(1);
    };
    let json = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(1);
    });
    let start = std::time::Instant::now();
    match spirv_grammar_codegen::expand_source(
        &json,
        &spirv_grammar_codegen::Options::new("dump"),
        None,
    ) {
        Ok(code) => {
            eprintln!(
                "expanded in {:.1} ms, {} bytes",
                start.elapsed().as_secs_f64() * 1e3,
                code.len()
            );
            println!("{code}");
        }
        Err(errors) => {
            for e in errors {
                eprintln!("{path}: {e}");
            }
            std::process::exit(1);
        }
    }
}
